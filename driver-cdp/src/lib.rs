//! tabwright's browser backend over the Chrome DevTools Protocol.
//!
//! [`CdpDriver`] starts Debian's Chromium (or any Chrome) itself, or connects
//! to one already running, and implements [`Driver`] over CDP with
//! chromiumoxide's WebSocket connection and generated protocol types.
//!
//! ```no_run
//! use tabwright_driver_cdp::{CdpDriver, Driver, DriverError, Options};
//!
//! # async fn run() -> Result<(), DriverError> {
//! let driver = CdpDriver::new(Options::default());
//! let page = driver.navigate("https://example.com/").await?;
//! println!("{} answered {:?}", page.url, page.status);
//! driver.close().await?;
//! # Ok(()) }
//! ```
//!
//! # Why CDP directly
//!
//! CDP is what Chrome DevTools speaks and what every automation library ends
//! up speaking. Talking it directly is one hop instead of two (no chromedriver
//! in between): on a 2-core machine an eval round trip takes 0.8–1.2 ms here
//! against 6–10 ms through chromedriver, a click 16–30 ms against 34–49 ms
//! (`cargo xtask bench`, medians over several runs). It also gives what
//! WebDriver cannot: every target's events (popups, console), the live view
//! (screencast).
//!
//! # Why not chromiumoxide's `Handler`
//!
//! Its navigation queue has a fixed 30 s deadline that outlives our
//! timeouts, and it ignores certificate errors. We keep its WebSocket
//! connection and protocol types and drive the session with a small client
//! of our own (the `client` module).
//!
//! # One browser, one profile, one lock
//!
//! A driver is one Chrome process tree with a temporary profile, which is what
//! keeps sessions from seeing each other's cookies. Calls take one lock, so
//! two callers never race on the same page. Chrome starts on the first call
//! and its whole process group ends on [`Driver::close`] or drop. An idle
//! headless Chrome with one page is 9–10 processes and 374–402 MiB PSS on a
//! 2-core machine (`cargo xtask bench --only drivers`); plan concurrency
//! against that.

mod chrome;
mod client;
mod downloads;
mod events;
mod memory;
mod network;
mod page;
mod registry;
mod session;
mod shared;

use async_trait::async_trait;
use chromiumoxide::cdp::browser_protocol::page::HandleJavaScriptDialogParams;

use driver_core::backend::input;
use driver_core::backend::supervisor::Supervisor;
use driver_core::Capability;
pub use driver_core::{
    Capabilities, ConsoleEntry, Dialog, Download, Driver, DriverError, KeyPress, Navigation,
    Options, Request, Result, ScreenshotOptions, Tab, TabId, Viewport, WaitFor,
};

use registry::World;
use session::CdpSession;
pub use shared::SharedBrowser;

/// How long a file chooser the last input opened may take to be heard of.
const CHOOSER_PATIENCE: std::time::Duration = std::time::Duration::from_millis(500);

/// How long an answered dialog may take to report itself closed.
const DIALOG_CLOSE_LIMIT: std::time::Duration = std::time::Duration::from_millis(500);

/// A [`Driver`] over the Chrome DevTools Protocol. See the crate docs.
pub struct CdpDriver {
    calls: Supervisor<CdpSession>,
}

impl CdpDriver {
    /// A driver that will start (or connect to) Chrome on its first call.
    pub fn new(options: Options) -> Self {
        Self {
            calls: Supervisor::new(options, |options| {
                Box::pin(async move { CdpSession::start(&options).await })
            }),
        }
    }

    /// The options this driver was made with.
    pub fn options(&self) -> &Options {
        self.calls.options()
    }

    /// Runs a call on the current tab's page: a JavaScript dialog stops the
    /// page's scripts and input until it is answered, so a page call made
    /// while one is open (or that opens one) would hang; it ends instead
    /// with [`DriverError::DialogOpen`] the moment a dialog is open in its
    /// tab, and with [`DriverError::NoSuchTab`] if its tab goes away under
    /// it.
    async fn run<T>(
        &self,
        action: String,
        op: impl AsyncFnOnce(&mut CdpSession) -> Result<T>,
    ) -> Result<T> {
        self.calls.run(action, true, op).await
    }

    /// [`run`](Self::run) for calls that do not touch the page (tabs, the
    /// console, dialogs), so an open dialog does not stop them.
    async fn run_free<T>(
        &self,
        action: String,
        op: impl AsyncFnOnce(&mut CdpSession) -> Result<T>,
    ) -> Result<T> {
        self.calls.run(action, false, op).await
    }
}

#[async_trait]
impl Driver for CdpDriver {
    fn capabilities(&self) -> Capabilities {
        let capabilities = Capabilities::full("cdp");
        if self.options().network_log {
            capabilities
        } else {
            capabilities.without(
                Capability::NetworkLog,
                driver_core::backend::network::NOT_KEPT,
            )
        }
    }

    async fn navigate(&self, url: &str) -> Result<Navigation> {
        self.run(format!("navigate to {url}"), async |session| {
            let id = session.current_session().await?;
            session
                .renewed_around(&id, async |page| page.navigate(url).await)
                .await
        })
        .await
    }

    async fn eval(&self, expression: &str) -> Result<serde_json::Value> {
        self.run("evaluate a script".to_owned(), async |session| {
            let id = session.current_session().await?;
            session.page(&id).evaluate(expression).await
        })
        .await
    }

    async fn eval_in_frame(&self, frame: &[u32], expression: &str) -> Result<serde_json::Value> {
        self.run("evaluate a script in a frame".to_owned(), async |session| {
            let id = session.current_session().await?;
            session
                .page(&id)
                .evaluate_in_frame(frame, World::Page, expression)
                .await
        })
        .await
    }

    async fn eval_isolated(&self, frame: &[u32], expression: &str) -> Result<serde_json::Value> {
        self.run("evaluate a script".to_owned(), async |session| {
            let id = session.current_session().await?;
            session
                .page(&id)
                .evaluate_in_frame(frame, World::Isolated, expression)
                .await
        })
        .await
    }

    async fn devtools(&self, method: &str, params: serde_json::Value) -> Result<serde_json::Value> {
        self.run(format!("send {method}"), async |session| {
            let id = session.current_session().await?;
            if method.starts_with("Browser.") {
                // The browser's own domain answers on the browser's
                // connection, for this session's context only.
                let mut params = params;
                if let (Some(object), Some(context)) = (params.as_object_mut(), &session.context) {
                    object.insert("browserContextId".to_owned(), serde_json::json!(context));
                }
                return Ok(session
                    .client
                    .call_raw(None, method.to_owned(), params)
                    .await?);
            }
            Ok(session
                .client
                .call_raw(Some(&id), method.to_owned(), params)
                .await?)
        })
        .await
    }

    async fn network_log(&self) -> Result<Vec<Request>> {
        if !self.options().network_log {
            return Err(DriverError::Unsupported {
                backend: "cdp",
                feature: Capability::NetworkLog,
                reason: driver_core::backend::network::NOT_KEPT,
            });
        }
        self.run_free("read the network log".to_owned(), async |session| {
            let id = session.current_session().await?;
            session.catch_up().await;
            Ok(session.registry.requests_of_tab(&id))
        })
        .await
    }

    async fn requests_in_flight(&self) -> Result<Option<usize>> {
        self.run_free("count the requests in flight".to_owned(), async |session| {
            let id = session.current_session().await?;
            Ok(Some(session.registry.requests_in_flight(&id)))
        })
        .await
    }

    async fn type_text(&self, text: &str) -> Result<()> {
        self.run("type".to_owned(), async |session| {
            let id = session.current_session().await?;
            session.page(&id).type_text(text).await
        })
        .await
    }

    async fn current_tab(&self) -> Result<TabId> {
        self.run_free("find the current tab".to_owned(), async |session| {
            session.current_session().await?;
            session
                .current
                .clone()
                .ok_or_else(|| DriverError::NoSuchTab { id: String::new() })
        })
        .await
    }

    async fn click(&self, selector: &str) -> Result<()> {
        self.run(format!("click {selector:?}"), async |session| {
            let id = session.current_session().await?;
            session.page(&id).click(selector).await
        })
        .await
    }

    async fn click_at(&self, x: f64, y: f64) -> Result<()> {
        driver_core::check_point(x, y)?;
        self.run(format!("click at ({x}, {y})"), async |session| {
            let id = session.current_session().await?;
            session.page(&id).click_at(x, y).await
        })
        .await
    }

    async fn click_with(&self, x: f64, y: f64, click: driver_core::Click) -> Result<()> {
        driver_core::check_point(x, y)?;
        self.run(format!("click at ({x}, {y})"), async |session| {
            let id = session.current_session().await?;
            session.page(&id).click_with(x, y, click).await
        })
        .await
    }

    async fn send_keys(&self, selector: &str, text: &str) -> Result<()> {
        self.run(format!("type into {selector:?}"), async |session| {
            let id = session.current_session().await?;
            session.page(&id).send_keys(selector, text).await
        })
        .await
    }

    async fn press(&self, key: KeyPress) -> Result<()> {
        self.run(format!("press {key}"), async |session| {
            let id = session.current_session().await?;
            session.page(&id).press_key(key).await
        })
        .await
    }

    async fn screenshot(&self, options: ScreenshotOptions) -> Result<Vec<u8>> {
        self.run("take a screenshot".to_owned(), async |session| {
            let id = session.current_session().await?;
            session.page(&id).screenshot(options).await
        })
        .await
    }

    async fn text(&self, selector: &str) -> Result<String> {
        self.run(format!("read the text of {selector:?}"), async |session| {
            let id = session.current_session().await?;
            session.page(&id).read(selector, "text").await
        })
        .await
    }

    async fn value(&self, selector: &str) -> Result<String> {
        self.run(format!("read the value of {selector:?}"), async |session| {
            let id = session.current_session().await?;
            session.page(&id).read(selector, "value").await
        })
        .await
    }

    async fn wait_for(&self, selector: &str, condition: WaitFor) -> Result<()> {
        self.run(format!("wait for {selector:?}"), async |session| {
            let id = session.current_session().await?;
            session.page(&id).wait_for(selector, condition).await
        })
        .await
    }

    async fn back(&self) -> Result<Navigation> {
        self.run("go back".to_owned(), async |session| {
            let id = session.current_session().await?;
            session
                .renewed_around(&id, async |page| page.history(-1).await)
                .await
        })
        .await
    }

    async fn forward(&self) -> Result<Navigation> {
        self.run("go forward".to_owned(), async |session| {
            let id = session.current_session().await?;
            session
                .renewed_around(&id, async |page| page.history(1).await)
                .await
        })
        .await
    }

    async fn reload(&self) -> Result<Navigation> {
        self.run("reload".to_owned(), async |session| {
            let id = session.current_session().await?;
            session.page(&id).reload().await
        })
        .await
    }

    async fn tabs(&self) -> Result<Vec<Tab>> {
        self.run_free("list tabs".to_owned(), async |session| session.tabs().await)
            .await
    }

    async fn open_tab(&self, url: Option<&str>) -> Result<Tab> {
        self.run_free("open a tab".to_owned(), async |session| {
            let id = session.open_tab().await?;
            if let Some(url) = url {
                let session_id = session.current_session().await?;
                session.page(&session_id).navigate(url).await?;
            }
            session.tab(&id).await
        })
        .await
    }

    async fn switch_tab(&self, id: &TabId) -> Result<()> {
        self.run_free(format!("switch to tab {id}"), async |session| {
            if session.session_of(id).is_none() {
                return Err(DriverError::NoSuchTab { id: id.0.clone() });
            }
            session.make_current(id).await;
            Ok(())
        })
        .await
    }

    async fn close_tab(&self, id: &TabId) -> Result<()> {
        self.run_free(format!("close tab {id}"), async |session| {
            session.close_tab(id).await
        })
        .await
    }

    async fn viewport(&self) -> Result<Viewport> {
        self.run("read the viewport".to_owned(), async |session| {
            let id = session.current_session().await?;
            let size = session
                .page(&id)
                .evaluate("({width: innerWidth, height: innerHeight})")
                .await?;
            driver_core::backend::locate::viewport_of(&size["width"], &size["height"])
        })
        .await
    }

    async fn set_viewport(&self, viewport: Viewport) -> Result<()> {
        viewport.check()?;
        self.run("resize the viewport".to_owned(), async |session| {
            session.set_viewport(viewport).await
        })
        .await
    }

    async fn console(&self) -> Result<Vec<ConsoleEntry>> {
        self.run_free("read the console".to_owned(), async |session| {
            session.catch_up().await;
            Ok(session.drain_console())
        })
        .await
    }

    async fn downloads(&self) -> Result<Vec<Download>> {
        self.run_free("read the refused downloads".to_owned(), async |session| {
            session.catch_up().await;
            Ok(session.drain_downloads())
        })
        .await
    }

    async fn move_mouse(&self, x: f64, y: f64) -> Result<()> {
        driver_core::check_point(x, y)?;
        self.run(format!("move the mouse to ({x}, {y})"), async |session| {
            let id = session.current_session().await?;
            session.page(&id).mouse_event(input::move_event(x, y)).await
        })
        .await
    }

    async fn wheel(&self, x: f64, y: f64, dx: f64, dy: f64) -> Result<()> {
        driver_core::check_scroll(x, y, dx, dy)?;
        self.run(format!("scroll at ({x}, {y})"), async |session| {
            let id = session.current_session().await?;
            let page = session.page(&id);
            // A wheel before the page's latest frame is lost: wait for one.
            let _ = page
                .evaluate_in_frame(&[], World::Isolated, input::PAINTED_FRAME)
                .await;
            page.mouse_event(input::wheel_event(x, y, dx, dy)).await
        })
        .await
    }

    async fn dialog(&self) -> Result<Option<Dialog>> {
        self.run_free("look for a dialog".to_owned(), async |session| {
            session.current_session().await?;
            Ok(session
                .current
                .as_ref()
                .and_then(|tab| session.registry.dialog_of(tab)))
        })
        .await
    }

    async fn answer_dialog(&self, accept: bool, prompt_text: Option<&str>) -> Result<()> {
        self.run_free("answer the dialog".to_owned(), async |session| {
            let id = session.current_session().await?;
            let Some(tab) = session.current.clone() else {
                return Err(DriverError::NoDialog);
            };
            if session.registry.dialog_of(&tab).is_none() {
                return Err(DriverError::NoDialog);
            }
            let answered = session.registry.dialogs_opened(&tab);
            let mut params = HandleJavaScriptDialogParams::new(accept);
            params.prompt_text = prompt_text.map(str::to_owned);
            session.client.order(Some(&id), params).await?;
            // Chrome says when it is closed; the page may open the next at
            // once, which must not be taken for closed.
            session
                .registry
                .dialog_closed(&tab, answered, DIALOG_CLOSE_LIMIT)
                .await;
            Ok(())
        })
        .await
    }

    async fn catch_file_choosers(&self, on: bool) -> Result<()> {
        self.run("catch file choosers".to_owned(), async |session| {
            let id = session.current_session().await?;
            if let Some(tab) = &session.current {
                session.registry.clear_chooser(tab);
            }
            session
                .client
                .call_raw(
                    Some(&id),
                    "Page.setInterceptFileChooserDialog",
                    serde_json::json!({ "enabled": on }),
                )
                .await?;
            Ok(())
        })
        .await
    }

    async fn take_file_chooser(&self) -> Result<Option<driver_core::FileChooser>> {
        self.run_free("take the file chooser".to_owned(), async |session| {
            session.current_session().await?;
            let Some(tab) = session.current.clone() else {
                return Ok(None);
            };
            session.catch_up().await;
            Ok(session.registry.take_chooser(&tab, CHOOSER_PATIENCE).await)
        })
        .await
    }

    async fn memory(&self) -> Result<Option<driver_core::Memory>> {
        self.run_free("read the memory".to_owned(), async |session| {
            session.memory().await
        })
        .await
    }

    async fn cancel(&self) {
        self.calls.cancel().await;
    }

    async fn close(&self) -> Result<()> {
        self.calls.close().await;
        Ok(())
    }
}
