//! tabwright's browser backend over W3C WebDriver.
//!
//! [`WebDriverDriver`] speaks WebDriver through fantoccini, either to a
//! chromedriver it starts itself (found on `PATH` or at Debian's
//! `/usr/bin/chromedriver`, on a free port, its log kept for error messages)
//! or to any remote end the user names: a chromedriver elsewhere, or a
//! Selenium Grid 4 hub. Scale-out is pointing at a grid, not a pool of ours.
//!
//! ```no_run
//! use tabwright_driver_webdriver::{Driver, DriverError, Options, WebDriverDriver};
//!
//! # async fn run() -> Result<(), DriverError> {
//! let grid = WebDriverDriver::new(Options {
//!     endpoint: Some("http://grid.internal:4444".into()),
//!     ..Options::default()
//! });
//! let page = grid.navigate("https://example.com/").await?;
//! grid.close().await?;
//! # Ok(()) }
//! ```
//!
//! # What it does differently from CDP
//!
//! The behaviour is the CDP backend's, held to the same conformance suite.
//! What WebDriver has no word for it reaches over the browser's own
//! DevTools socket beside it (`relay`): the profile's `DevToolsActivePort`
//! for a chromedriver of its own, or a Selenium Grid's `se:cdp` relay
//! (its host rewritten to the address the Grid was reached at). Over it:
//! tabwright's own script world, the screencast for a live view, reports
//! of refused downloads, a dialog's kind, and stopping a page that spins.
//! Besides:
//!
//! - the HTTP status comes from the page's own Navigation Timing entry
//!   (`responseStatus`), which Chromium fills in;
//! - JPEG, WebP and full-page screenshots go through chromedriver's CDP
//!   bridge (`goog/cdp/execute`); an end without it answers `Unsupported`;
//! - console messages come from chromedriver's browser log;
//! - each session is a browser of its own (WebDriver has no browser
//!   contexts), requests in flight are watched from the page, and a
//!   remote end with no DevTools relay has no isolated world, screencast
//!   or download reports: [`Driver::capabilities`] says so.
//!
//! It is slower than CDP: every call is an HTTP request to chromedriver,
//! which then speaks CDP itself.

mod chromedriver;
mod console;
mod dialogs;
mod errors;
mod input;
mod navigation;
mod network;
mod relay;
mod screenshots;
mod scripts;
mod session;
mod tabs;

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;

use async_trait::async_trait;

use driver_core::backend::supervisor::Supervisor;
pub use driver_core::{
    Capabilities, Capability, ConsoleEntry, Dialog, Download, Driver, DriverError, KeyPress,
    Navigation, Options, Result, ScreenshotOptions, Tab, TabId, Viewport, WaitFor,
};

use session::WdSession;

/// Why this backend reports no downloads where it has no DevTools socket.
const NO_DOWNLOAD_REPORTS: &str = "WebDriver reports no download events, and this session has no DevTools socket beside it (a remote end without Selenium Grid's se:cdp); downloads are still refused, by profile preference";

/// Whether the session has the browser's DevTools socket beside WebDriver
/// (`relay`): not known before it starts.
const RELAY_UNKNOWN: u8 = 0;
const RELAY_UP: u8 = 1;
const RELAY_NONE: u8 = 2;

/// A [`Driver`] over W3C WebDriver. See the crate docs.
pub struct WebDriverDriver {
    calls: Supervisor<WdSession>,
    /// Whether the latest session has the DevTools relay.
    relay: Arc<AtomicU8>,
}

impl WebDriverDriver {
    /// A driver that starts chromedriver and Chrome (or connects to
    /// `options.endpoint`) on its first call.
    pub fn new(options: Options) -> Self {
        let relay = Arc::new(AtomicU8::new(RELAY_UNKNOWN));
        let told = Arc::clone(&relay);
        Self {
            calls: Supervisor::new(options, move |options| {
                let told = Arc::clone(&told);
                Box::pin(async move {
                    let session = WdSession::start(&options).await?;
                    let has = if session.relay.is_some() {
                        RELAY_UP
                    } else {
                        RELAY_NONE
                    };
                    told.store(has, Ordering::Release);
                    Ok(session)
                })
            }),
            relay,
        }
    }

    /// Whether the session has (or, not started yet, will have) the
    /// browser's DevTools socket: a chromedriver of ours always does; a
    /// remote end only if it offers a relay, known once its session starts.
    fn relayed(&self) -> bool {
        match self.relay.load(Ordering::Acquire) {
            RELAY_UP => true,
            RELAY_NONE => false,
            _ => self.calls.options().endpoint.is_none(),
        }
    }

    /// Runs one call through the supervisor (WebDriver has no way to end a
    /// call early: an open dialog is the remote end's own error).
    async fn run<T>(
        &self,
        action: String,
        op: impl AsyncFnOnce(&mut WdSession) -> Result<T>,
    ) -> Result<T> {
        self.calls
            .run(action, true, async |session| {
                let result = op(session).await;
                let result = session.dialog_kind(result);
                session.after_crash(result).await
            })
            .await
    }
}

#[async_trait]
impl Driver for WebDriverDriver {
    fn capabilities(&self) -> Capabilities {
        let capabilities = Capabilities::full("webdriver");
        let capabilities = if self.calls.options().network_log {
            capabilities
        } else {
            capabilities.without(Capability::NetworkLog, network::NOT_KEPT)
        };
        let capabilities = if self.relayed() {
            capabilities
        } else {
            capabilities
                .without(
                    Capability::Screencast,
                    "WebDriver has no screencast, and this session has no DevTools socket beside it (a remote end without Selenium Grid's se:cdp)",
                )
                .without(Capability::DownloadReports, NO_DOWNLOAD_REPORTS)
                .without(
                    Capability::IsolatedWorld,
                    "WebDriver runs scripts in the page's own world, where the page can see and change them, and this session has no DevTools socket beside it (a remote end without Selenium Grid's se:cdp)",
                )
        };
        capabilities
            .without(
                Capability::RequestTracking,
                "WebDriver has no network events; the page's own fetch and XHR are watched instead",
            )
            .without(
                Capability::SharedBrowser,
                "WebDriver has no browser contexts: each session has a browser (and a chromedriver) of its own",
            )
    }

    async fn navigate(&self, url: &str) -> Result<Navigation> {
        self.run(format!("navigate to {url}"), async |session| {
            session.navigate(url).await
        })
        .await
    }

    async fn eval(&self, expression: &str) -> Result<serde_json::Value> {
        self.run("evaluate a script".to_owned(), async |session| {
            session.eval(expression).await
        })
        .await
    }

    async fn eval_in_frame(&self, frame: &[u32], expression: &str) -> Result<serde_json::Value> {
        self.run("evaluate a script in a frame".to_owned(), async |session| {
            session.eval_in_frame(frame, expression).await
        })
        .await
    }

    async fn eval_isolated(&self, frame: &[u32], expression: &str) -> Result<serde_json::Value> {
        self.run(
            "evaluate a script in tabwright's world".to_owned(),
            async |session| session.eval_isolated(frame, expression).await,
        )
        .await
    }

    async fn type_text(&self, text: &str) -> Result<()> {
        self.run("type".to_owned(), async |session| {
            session.type_text(text).await
        })
        .await
    }

    async fn current_tab(&self) -> Result<TabId> {
        self.run("find the current tab".to_owned(), async |session| {
            session.current_tab().await
        })
        .await
    }

    async fn click(&self, selector: &str) -> Result<()> {
        self.run(format!("click {selector:?}"), async |session| {
            session.click(selector).await
        })
        .await
    }

    async fn click_at(&self, x: f64, y: f64) -> Result<()> {
        driver_core::check_point(x, y)?;
        self.run(format!("click at ({x}, {y})"), async |session| {
            session.click_at(x, y).await
        })
        .await
    }

    async fn click_with(&self, x: f64, y: f64, click: driver_core::Click) -> Result<()> {
        driver_core::check_point(x, y)?;
        self.run(format!("click at ({x}, {y})"), async |session| {
            session.click_with(x, y, click).await
        })
        .await
    }

    async fn tab_ids(&self) -> Result<Vec<TabId>> {
        self.run("list tabs".to_owned(), async |session| {
            session.tab_ids().await
        })
        .await
    }

    async fn move_mouse(&self, x: f64, y: f64) -> Result<()> {
        driver_core::check_point(x, y)?;
        self.run(format!("move the mouse to ({x}, {y})"), async |session| {
            session.move_mouse(x, y).await
        })
        .await
    }

    async fn wheel(&self, x: f64, y: f64, dx: f64, dy: f64) -> Result<()> {
        driver_core::check_scroll(x, y, dx, dy)?;
        self.run(format!("scroll at ({x}, {y})"), async |session| {
            session.wheel(x, y, dx, dy).await
        })
        .await
    }

    async fn dialog(&self) -> Result<Option<Dialog>> {
        self.run("look for a dialog".to_owned(), async |session| {
            session.dialog().await
        })
        .await
    }

    async fn answer_dialog(&self, accept: bool, prompt_text: Option<&str>) -> Result<()> {
        self.run("answer the dialog".to_owned(), async |session| {
            session.answer_dialog(accept, prompt_text).await
        })
        .await
    }

    async fn catch_file_choosers(&self, on: bool) -> Result<()> {
        self.run(
            "catch file choosers".to_owned(),
            async |session| match &session.relay {
                Some(relay) => relay.catch_choosers(&session.current, on).await,
                None => Err(DriverError::Unsupported {
                    backend: "webdriver",
                    feature: Capability::DevTools,
                    reason: "a remote end without a DevTools socket hears no file chooser",
                }),
            },
        )
        .await
    }

    async fn take_file_chooser(&self) -> Result<Option<driver_core::FileChooser>> {
        self.run(
            "take the file chooser".to_owned(),
            async |session| match &session.relay {
                Some(relay) => {
                    relay
                        .take_chooser(&session.current, std::time::Duration::from_millis(500))
                        .await
                }
                None => Ok(None),
            },
        )
        .await
    }

    async fn send_keys(&self, selector: &str, text: &str) -> Result<()> {
        self.run(format!("type into {selector:?}"), async |session| {
            session.send_keys(selector, text).await
        })
        .await
    }

    async fn press(&self, key: KeyPress) -> Result<()> {
        self.run(format!("press {key}"), async |session| {
            session.press(key).await
        })
        .await
    }

    async fn screenshot(&self, options: ScreenshotOptions) -> Result<Vec<u8>> {
        self.run("take a screenshot".to_owned(), async |session| {
            session.screenshot(options).await
        })
        .await
    }

    async fn text(&self, selector: &str) -> Result<String> {
        self.run(format!("read the text of {selector:?}"), async |session| {
            session.read(selector, "text").await
        })
        .await
    }

    async fn value(&self, selector: &str) -> Result<String> {
        self.run(format!("read the value of {selector:?}"), async |session| {
            session.read(selector, "value").await
        })
        .await
    }

    async fn wait_for(&self, selector: &str, condition: WaitFor) -> Result<()> {
        self.run(format!("wait for {selector:?}"), async |session| {
            session.wait_for(selector, condition).await
        })
        .await
    }

    async fn back(&self) -> Result<Navigation> {
        self.run("go back".to_owned(), async |session| {
            session.history(-1).await
        })
        .await
    }

    async fn forward(&self) -> Result<Navigation> {
        self.run("go forward".to_owned(), async |session| {
            session.history(1).await
        })
        .await
    }

    async fn reload(&self) -> Result<Navigation> {
        self.run("reload".to_owned(), async |session| session.reload().await)
            .await
    }

    async fn tabs(&self) -> Result<Vec<Tab>> {
        self.run("list tabs".to_owned(), async |session| session.tabs().await)
            .await
    }

    async fn open_tab(&self, url: Option<&str>) -> Result<Tab> {
        self.run("open a tab".to_owned(), async |session| {
            let id = session.open_tab().await?;
            if let Some(url) = url {
                session.navigate(url).await?;
            }
            session.tab(&id).await
        })
        .await
    }

    async fn switch_tab(&self, id: &TabId) -> Result<()> {
        self.run(format!("switch to tab {id}"), async |session| {
            session.switch_tab(id).await
        })
        .await
    }

    async fn close_tab(&self, id: &TabId) -> Result<()> {
        self.run(format!("close tab {id}"), async |session| {
            session.close_tab(id).await
        })
        .await
    }

    async fn viewport(&self) -> Result<Viewport> {
        self.run("read the viewport".to_owned(), async |session| {
            session.viewport().await
        })
        .await
    }

    async fn set_viewport(&self, viewport: Viewport) -> Result<()> {
        viewport.check()?;
        self.run("resize the viewport".to_owned(), async |session| {
            session.set_viewport_size(viewport).await
        })
        .await
    }

    async fn console(&self) -> Result<Vec<ConsoleEntry>> {
        self.run("read the console".to_owned(), async |session| {
            session.console().await
        })
        .await
    }

    async fn devtools(&self, method: &str, params: serde_json::Value) -> Result<serde_json::Value> {
        self.run(format!("send {method}"), async |session| {
            // Files named on this machine reach a remote end's browser
            // only through its file endpoint, which answers their paths
            // there.
            let params = if method == "DOM.setFileInputFiles" && session.is_remote() {
                session.files_to_remote(params).await?
            } else {
                params
            };
            session
                .cdp(method, params)
                .await
                .map_err(|error| match error {
                    DriverError::Protocol(message) if message.contains("unknown command") => {
                        DriverError::Unsupported {
                            backend: "webdriver",
                            feature: Capability::DevTools,
                            reason: "this WebDriver end has no CDP bridge (goog/cdp/execute)",
                        }
                    }
                    other => other,
                })
        })
        .await
    }

    async fn network_log(&self) -> Result<Vec<driver_core::Request>> {
        if !self.calls.options().network_log {
            return Err(DriverError::Unsupported {
                backend: "webdriver",
                feature: Capability::NetworkLog,
                reason: network::NOT_KEPT,
            });
        }
        self.run("read the network log".to_owned(), async |session| {
            session.network_log().await
        })
        .await
    }

    async fn downloads(&self) -> Result<Vec<Download>> {
        self.calls
            .run(
                "read the downloads".to_owned(),
                false,
                async |session| match &session.relay {
                    Some(relay) => Ok(relay.downloads()),
                    None => Err(DriverError::Unsupported {
                        backend: "webdriver",
                        feature: Capability::DownloadReports,
                        reason: NO_DOWNLOAD_REPORTS,
                    }),
                },
            )
            .await
    }

    async fn memory(&self) -> Result<Option<driver_core::Memory>> {
        self.calls
            .run("read the memory".to_owned(), false, async |session| {
                Ok(session.memory())
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
