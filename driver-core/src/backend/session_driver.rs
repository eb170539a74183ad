//! [`SessionDriver`]: the one [`Driver`] every backend is, made from its
//! [`BrowserSession`].
//!
//! Written once here, for the CDP and WebDriver backends and the fake
//! alike: every call goes through the [`Supervisor`] (lock, lazy start,
//! deadline, recovery), is named for a timeout's message, has its
//! arguments checked before anything is sent, says whether it needs the
//! page (an open dialog or a closed tab then ends it at once, where the
//! backend can tell), and answers `Unsupported` for what the session's
//! capabilities rule out. The selector calls are made here from the
//! session's own calls (the page script `locate` in tabwright's world, then
//! a click or keys), so that "missing", "hidden" and "covered" are judged
//! the same way on every backend.
//!
//! Adding a `Driver` method touches the trait, this file, and the
//! sessions that do it differently from [`BrowserSession`]'s default.

use std::sync::Arc;

use async_trait::async_trait;
use serde_json::{json, Value};

use super::locate::{locate_error, locate_point, LOCATE};
use super::supervisor::{BoxFuture, Supervisor};
use super::BrowserSession;
use crate::{
    Capabilities, Capability, Click, ConsoleEntry, Dialog, Download, Driver, DriverError,
    FileChooser, KeyPress, Memory, Navigation, Options, Request, Result, ScreenshotFormat,
    ScreenshotOptions, Tab, TabId, Viewport, WaitFor,
};

/// A [`Driver`] over a backend's [`BrowserSession`]. See the module docs.
pub struct SessionDriver<S> {
    calls: Supervisor<S>,
    /// What the running session said it can do, once one has started.
    started: Arc<parking_lot::Mutex<Option<Capabilities>>>,
}

impl<S: BrowserSession> SessionDriver<S> {
    /// A driver whose session starts (with [`BrowserSession::start`]) on
    /// its first call.
    pub fn new(options: Options) -> Self {
        Self::with_start(options, |options| Box::pin(S::start(options)))
    }

    /// A driver whose session `start` makes, on its first call and again
    /// after one is lost (a session in a browser others share, say).
    pub fn with_start(
        options: Options,
        start: impl Fn(Options) -> BoxFuture<'static, Result<S>> + Send + Sync + 'static,
    ) -> Self {
        let started: Arc<parking_lot::Mutex<Option<Capabilities>>> = Arc::default();
        let told = Arc::clone(&started);
        let start = move |options: Options| {
            let told = Arc::clone(&told);
            let starting = start(options.clone());
            let started: BoxFuture<'static, Result<S>> = Box::pin(async move {
                let session = starting.await?;
                *told.lock() = Some(S::capabilities(&options, Some(&session)));
                Ok(session)
            });
            started
        };
        Self {
            calls: Supervisor::new(options, start),
            started,
        }
    }

    /// The options this driver was made with.
    pub fn options(&self) -> &Options {
        self.calls.options()
    }

    /// Runs one call: `action` names it in a timeout's message; `needs_page`
    /// says it acts on the current tab's page.
    async fn run<T: Send + 'static>(
        &self,
        action: String,
        needs_page: bool,
        op: impl AsyncFnOnce(&mut S) -> Result<T>,
    ) -> Result<T> {
        self.calls
            .run(action, needs_page, async |session| {
                let result = op(session).await;
                session.finish(result).await
            })
            .await
    }

    /// A call on the current tab's page.
    async fn on_page<T: Send + 'static>(
        &self,
        action: impl Into<String>,
        op: impl AsyncFnOnce(&mut S) -> Result<T>,
    ) -> Result<T> {
        self.run(action.into(), true, op).await
    }

    /// A call that does not touch the page (tabs, the console, dialogs), so
    /// an open dialog does not end it.
    async fn off_page<T: Send + 'static>(
        &self,
        action: impl Into<String>,
        op: impl AsyncFnOnce(&mut S) -> Result<T>,
    ) -> Result<T> {
        self.run(action.into(), false, op).await
    }

    /// Runs the selector helper ([`LOCATE`]) on the current page, in
    /// tabwright's world where the backend has one: its answer, or the
    /// error it names.
    async fn locate(
        session: &mut S,
        operation: &str,
        selector: &str,
        extra: Value,
    ) -> Result<Value> {
        let expression = format!(
            "({LOCATE})({}, {}, {extra})",
            json!(operation),
            json!(selector)
        );
        let found = session.eval_isolated(&[], &expression).await?;
        match locate_error(&found, operation, selector) {
            Some(error) => Err(error),
            None => Ok(found),
        }
    }

    /// Reads an element's `innerText` or `value` by selector.
    async fn read(&self, selector: &str, what: &'static str) -> Result<String> {
        check_selector(selector)?;
        self.on_page(
            format!("read the {what} of {selector:?}"),
            async |session| {
                let found = Self::locate(session, what, selector, Value::Null).await?;
                Ok(found["value"].as_str().unwrap_or_default().to_owned())
            },
        )
        .await
    }
}

/// Refuses an empty selector before anything is sent.
fn check_selector(selector: &str) -> Result<()> {
    if selector.trim().is_empty() {
        return Err(DriverError::InvalidArgument(
            "the selector is empty".to_owned(),
        ));
    }
    Ok(())
}

/// Whether an error of a wait means the document it waited in went away
/// (a navigation): the wait goes on in the next one.
fn document_went(error: &DriverError) -> bool {
    match error {
        DriverError::DocumentReplaced => true,
        DriverError::Script { message } => message.untrusted().contains("context"),
        DriverError::Protocol(message) => message.contains("context"),
        _ => false,
    }
}

#[async_trait]
impl<S: BrowserSession> Driver for SessionDriver<S> {
    fn capabilities(&self) -> Capabilities {
        match self.started.lock().clone() {
            Some(known) => known,
            None => S::capabilities(self.options(), None),
        }
    }

    async fn navigate(&self, url: &str) -> Result<Navigation> {
        self.on_page(format!("navigate to {url}"), async |session| {
            session.navigate(url).await
        })
        .await
    }

    async fn eval(&self, expression: &str) -> Result<Value> {
        self.on_page("evaluate a script", async |session| {
            session.eval(expression).await
        })
        .await
    }

    async fn eval_in_frame(&self, frame: &[u32], expression: &str) -> Result<Value> {
        self.on_page("evaluate a script in a frame", async |session| {
            session.eval_in_frame(frame, expression).await
        })
        .await
    }

    async fn eval_isolated(&self, frame: &[u32], expression: &str) -> Result<Value> {
        self.on_page("evaluate a script", async |session| {
            session.eval_isolated(frame, expression).await
        })
        .await
    }

    fn preload(&self, source: &str) {
        // Shared with the options every session starts from: a backend
        // gives it to each tab it attaches.
        self.options().preloads.add(source);
    }

    async fn click(&self, selector: &str) -> Result<()> {
        check_selector(selector)?;
        self.on_page(format!("click {selector:?}"), async |session| {
            let point = Self::locate(session, "click", selector, Value::Null).await?;
            let (x, y) = locate_point(&point, selector)?;
            session.click(x, y, Click::default()).await
        })
        .await
    }

    async fn click_at(&self, x: f64, y: f64) -> Result<()> {
        self.click_with(x, y, Click::default()).await
    }

    async fn click_with(&self, x: f64, y: f64, click: Click) -> Result<()> {
        crate::check_point(x, y)?;
        self.on_page(format!("click at ({x}, {y})"), async |session| {
            session.click(x, y, click).await
        })
        .await
    }

    async fn move_mouse(&self, x: f64, y: f64) -> Result<()> {
        crate::check_point(x, y)?;
        self.on_page(format!("move the mouse to ({x}, {y})"), async |session| {
            session.move_mouse(x, y).await
        })
        .await
    }

    async fn wheel(&self, x: f64, y: f64, dx: f64, dy: f64) -> Result<()> {
        crate::check_scroll(x, y, dx, dy)?;
        self.on_page(format!("scroll at ({x}, {y})"), async |session| {
            session.wheel(x, y, dx, dy).await
        })
        .await
    }

    async fn send_keys(&self, selector: &str, text: &str) -> Result<()> {
        check_selector(selector)?;
        self.on_page(format!("type into {selector:?}"), async |session| {
            Self::locate(session, "focus", selector, Value::Null).await?;
            session.type_text(text).await
        })
        .await
    }

    async fn type_text(&self, text: &str) -> Result<()> {
        self.on_page("type", async |session| session.type_text(text).await)
            .await
    }

    async fn press(&self, key: KeyPress) -> Result<()> {
        self.on_page(format!("press {key}"), async |session| {
            session.press(key).await
        })
        .await
    }

    async fn screenshot(&self, options: ScreenshotOptions) -> Result<Vec<u8>> {
        let capabilities = self.capabilities();
        if options.full_page {
            capabilities.check(Capability::FullPageScreenshots)?;
        }
        if options.format != ScreenshotFormat::Png {
            capabilities.check(Capability::LossyScreenshots)?;
        }
        self.on_page("take a screenshot", async |session| {
            session.screenshot(options).await
        })
        .await
    }

    async fn text(&self, selector: &str) -> Result<String> {
        self.read(selector, "text").await
    }

    async fn value(&self, selector: &str) -> Result<String> {
        self.read(selector, "value").await
    }

    async fn wait_for(&self, selector: &str, condition: WaitFor) -> Result<()> {
        check_selector(selector)?;
        let extra = json!({ "visible": condition == WaitFor::Visible });
        self.on_page(format!("wait for {selector:?}"), async |session| loop {
            // The helper waits in the page; a navigation replaces the
            // document it waits in, and the wait goes on in the new one
            // (the call's deadline bounds the whole wait).
            match Self::locate(session, "wait", selector, extra.clone()).await {
                Err(error) if document_went(&error) => continue,
                other => return other.map(|_| ()),
            }
        })
        .await
    }

    async fn back(&self) -> Result<Navigation> {
        self.on_page("go back", async |session| session.history(-1).await)
            .await
    }

    async fn forward(&self) -> Result<Navigation> {
        self.on_page("go forward", async |session| session.history(1).await)
            .await
    }

    async fn reload(&self) -> Result<Navigation> {
        self.on_page("reload", async |session| session.reload().await)
            .await
    }

    async fn current_tab(&self) -> Result<TabId> {
        self.off_page("find the current tab", async |session| {
            session.current_tab().await
        })
        .await
    }

    async fn tabs(&self) -> Result<Vec<Tab>> {
        self.off_page("list tabs", async |session| session.tabs().await)
            .await
    }

    async fn tab_ids(&self) -> Result<Vec<TabId>> {
        self.off_page("list tabs", async |session| session.tab_ids().await)
            .await
    }

    async fn open_tab(&self, url: Option<&str>) -> Result<Tab> {
        self.off_page("open a tab", async |session| {
            let id = session.open_tab().await?;
            if let Some(url) = url {
                session.navigate(url).await?;
            }
            session
                .tabs()
                .await?
                .into_iter()
                .find(|tab| tab.id == id)
                .ok_or(DriverError::NoSuchTab { id: id.0 })
        })
        .await
    }

    async fn switch_tab(&self, id: &TabId) -> Result<()> {
        self.off_page(format!("switch to tab {id}"), async |session| {
            session.switch_tab(id).await
        })
        .await
    }

    async fn close_tab(&self, id: &TabId) -> Result<()> {
        self.off_page(format!("close tab {id}"), async |session| {
            session.close_tab(id).await
        })
        .await
    }

    async fn viewport(&self) -> Result<Viewport> {
        self.on_page("read the viewport", async |session| {
            session.viewport().await
        })
        .await
    }

    async fn set_viewport(&self, viewport: Viewport) -> Result<()> {
        viewport.check()?;
        self.on_page("resize the viewport", async |session| {
            session.set_viewport(viewport).await
        })
        .await
    }

    async fn requests_in_flight(&self) -> Result<Option<usize>> {
        if !self.capabilities().supports(Capability::RequestTracking) {
            return Ok(None);
        }
        self.off_page("count the requests in flight", async |session| {
            session.requests_in_flight().await
        })
        .await
    }

    async fn devtools(&self, method: &str, params: Value) -> Result<Value> {
        if !S::DEVTOOLS_IN_OWN_WORDS.contains(&method) {
            self.capabilities().check(Capability::DevTools)?;
        }
        self.on_page(format!("send {method}"), async |session| {
            session.devtools(method, params).await
        })
        .await
    }

    async fn paint_probe(&self, probe: &crate::PaintProbe) -> Result<crate::PaintPictures> {
        self.capabilities().check(Capability::PaintProbe)?;
        self.on_page("picture what the page paints", async |session| {
            session.paint_probe(probe).await
        })
        .await
    }

    async fn hand_over(&self, handover: &crate::Handover) -> Result<serde_json::Value> {
        self.capabilities().check(Capability::BrowserTree)?;
        self.on_page("read what the browser knows of the page", async |session| {
            session.hand_over(handover).await
        })
        .await
    }

    async fn network_log(&self) -> Result<Vec<Request>> {
        self.capabilities().check(Capability::NetworkLog)?;
        self.off_page("read the network log", async |session| {
            session.network_log().await
        })
        .await
    }

    async fn console(&self) -> Result<Vec<ConsoleEntry>> {
        self.off_page("read the console", async |session| session.console().await)
            .await
    }

    async fn downloads(&self) -> Result<Vec<Download>> {
        self.capabilities().check(Capability::DownloadReports)?;
        self.off_page("read the downloads", async |session| {
            session.downloads().await
        })
        .await
    }

    async fn dialog(&self) -> Result<Option<Dialog>> {
        self.off_page("look for a dialog", async |session| session.dialog().await)
            .await
    }

    async fn answer_dialog(&self, accept: bool, prompt_text: Option<&str>) -> Result<()> {
        self.off_page("answer the dialog", async |session| {
            session.answer_dialog(accept, prompt_text).await
        })
        .await
    }

    async fn catch_file_choosers(&self, on: bool) -> Result<()> {
        self.on_page("catch file choosers", async |session| {
            session.catch_file_choosers(on).await
        })
        .await
    }

    async fn take_file_chooser(&self) -> Result<Option<FileChooser>> {
        self.off_page("take the file chooser", async |session| {
            session.take_file_chooser().await
        })
        .await
    }

    async fn cancel(&self) {
        self.calls.cancel().await;
    }

    async fn memory(&self) -> Result<Option<Memory>> {
        self.off_page("read the memory", async |session| session.memory().await)
            .await
    }

    async fn close(&self) -> Result<()> {
        self.calls.close().await;
        Ok(())
    }
}
