//! [`WdSession`] as a [`BrowserSession`]: the entry point of each call.
//! The work is in the module named for its job (`navigation`, `scripts`,
//! `input`, `tabs`, `dialogs`, `console`, `network`, `screenshots`), whose
//! inherent methods these name as `WdSession::job(self, …)`; the driver
//! around them (`driver_core::backend::SessionDriver`) supervises, names
//! and checks every call.

use async_trait::async_trait;
use driver_core::backend::devtools::names;
use serde_json::Value;

use driver_core::backend::BrowserSession;
use driver_core::{
    Capabilities, Capability, Click, ConsoleEntry, Dialog, Download, DriverError, FileChooser,
    KeyPress, Memory, Navigation, Options, Request, Result, ScreenshotOptions, Tab, TabId,
    Viewport,
};

use crate::session::WdSession;

/// Why this backend reports no downloads where it has no DevTools socket.
const NO_DOWNLOAD_REPORTS: &str = "WebDriver reports no download events, and this session has no DevTools socket beside it (a remote end without Selenium Grid's se:cdp); downloads are still refused, by profile preference";

/// How long a file chooser the last input opened may take to be heard of.
const CHOOSER_PATIENCE: std::time::Duration = std::time::Duration::from_millis(500);

#[async_trait]
impl BrowserSession for WdSession {
    async fn start(options: Options) -> Result<Self> {
        WdSession::start(&options).await
    }

    /// Everything, but what WebDriver has no word for; and where the
    /// session has no DevTools socket beside it (a remote end without a
    /// relay, known once its session started; a chromedriver of ours
    /// always has one), what only that socket gives.
    fn capabilities(options: &Options, session: Option<&Self>) -> Capabilities {
        let relayed = match session {
            Some(session) => session.relay.is_some(),
            None => options.endpoint.is_none(),
        };
        let capabilities = Capabilities::full("webdriver").as_asked(options);
        let capabilities = if relayed {
            capabilities
        } else {
            capabilities
                .without(
                    Capability::Screencast,
                    "WebDriver has no screencast, and this session has no DevTools socket beside it (a remote end without Selenium Grid's se:cdp)",
                )
                .without(Capability::DownloadReports, NO_DOWNLOAD_REPORTS)
                .without(
                    Capability::PaintProbe,
                    "judging text by its pixels needs the browser's DevTools socket, and this session has none beside WebDriver (a remote end without Selenium Grid's se:cdp)",
                )
                .without(
                    Capability::BrowserTree,
                    "closed shadow roots and the accessibility tree are read over the browser's DevTools socket, and this session has none beside WebDriver (a remote end without Selenium Grid's se:cdp)",
                )
                .without(
                    Capability::PageTools,
                    "a page's tools are listed and called from tabwright's own script world, over the browser's DevTools socket, and this session has none beside WebDriver (a remote end without Selenium Grid's se:cdp)",
                )
                .without(
                    Capability::IsolatedWorld,
                    "WebDriver runs scripts in the page's own world, where the page can see and change them, and this session has no DevTools socket beside it (a remote end without Selenium Grid's se:cdp)",
                )
                .without(
                    Capability::CountedWords,
                    "the words CSS counts are read from Chromium's accessibility tree, over the browser's DevTools socket, and this session has none beside WebDriver (a remote end without Selenium Grid's se:cdp)",
                )
                .without(
                    Capability::StopScripts,
                    "WebDriver cannot stop a script that spins, and this session has no DevTools socket beside it (a remote end without Selenium Grid's se:cdp): the session is ended instead",
                )
                .without(
                    Capability::HtmlDrag,
                    "a drag is made over the browser's DevTools socket, and this session has none beside WebDriver (a remote end without Selenium Grid's se:cdp)",
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

    fn gone(&mut self) -> Option<String> {
        self.chromedriver_exited()
            .then(|| "chromedriver exited".to_owned())
    }

    async fn recover(&mut self) -> bool {
        WdSession::recover(self).await
    }

    async fn shutdown(self) {
        self.end().await;
    }

    fn keep_alive_every(&self) -> Option<std::time::Duration> {
        self.is_remote().then_some(self.keep_alive)
    }

    async fn keep_alive(&mut self) {
        WdSession::keep_alive(self).await;
    }

    /// WebDriver says a dialog is open, not which kind (the relay heard
    /// it), and that a tab crashed, not what became of it (closed over
    /// the relay, another made current).
    async fn finish<T: Send + 'static>(&mut self, result: Result<T>) -> Result<T> {
        let result = self.dialog_kind(result);
        self.after_crash(result).await
    }

    async fn navigate(&mut self, url: &str) -> Result<Navigation> {
        WdSession::navigate(self, url).await
    }

    async fn history(&mut self, delta: i32) -> Result<Navigation> {
        WdSession::history(self, delta).await
    }

    async fn reload(&mut self) -> Result<Navigation> {
        WdSession::reload(self).await
    }

    async fn eval(&mut self, expression: &str) -> Result<Value> {
        WdSession::eval(self, expression).await
    }

    async fn eval_in_frame(&mut self, frame: &[u32], expression: &str) -> Result<Value> {
        WdSession::eval_in_frame(self, frame, expression).await
    }

    async fn eval_isolated(&mut self, frame: &[u32], expression: &str) -> Result<Value> {
        WdSession::eval_isolated(self, frame, expression).await
    }

    async fn click(&mut self, x: f64, y: f64, click: Click) -> Result<()> {
        self.click_with(x, y, click).await
    }

    async fn move_mouse(&mut self, x: f64, y: f64) -> Result<()> {
        WdSession::move_mouse(self, x, y).await
    }

    async fn wheel(&mut self, x: f64, y: f64, dx: f64, dy: f64) -> Result<()> {
        WdSession::wheel(self, x, y, dx, dy).await
    }

    async fn type_text(&mut self, text: &str) -> Result<()> {
        WdSession::type_text(self, text).await
    }

    async fn press(&mut self, key: KeyPress) -> Result<()> {
        WdSession::press(self, key).await
    }

    async fn paint_probe(
        &mut self,
        probe: &driver_core::PaintProbe,
    ) -> Result<driver_core::PaintPictures> {
        let Some(relay) = &self.relay else {
            return Err(DriverError::Unsupported {
                backend: "webdriver",
                feature: Capability::PaintProbe,
                reason: "this session has no DevTools socket beside WebDriver",
            });
        };
        let pictures = relay.paint_probe(&self.current, probe).await;
        self.unless_tab_gone(pictures).await
    }

    async fn hand_over(&mut self, handover: &driver_core::Handover) -> Result<serde_json::Value> {
        let Some(relay) = &self.relay else {
            return Err(DriverError::Unsupported {
                backend: "webdriver",
                feature: Capability::BrowserTree,
                reason: "this session has no DevTools socket beside WebDriver",
            });
        };
        let handed = relay.hand_over(&self.current, handover).await;
        self.unless_tab_gone(handed).await
    }

    async fn screenshot(&mut self, options: ScreenshotOptions) -> Result<Vec<u8>> {
        WdSession::screenshot(self, options).await
    }

    async fn viewport(&mut self) -> Result<Viewport> {
        WdSession::viewport(self).await
    }

    async fn set_viewport(&mut self, viewport: Viewport) -> Result<()> {
        self.set_viewport_size(viewport).await
    }

    async fn devtools(&mut self, method: &str, params: Value) -> Result<Value> {
        // Files named on this machine reach a remote end's browser only
        // through its file endpoint, which answers their paths there.
        let params = if method == names::DOM_SET_FILE_INPUT_FILES && self.is_remote() {
            self.files_to_remote(params).await?
        } else {
            params
        };
        self.cdp(method, params).await.map_err(|error| match error {
            DriverError::Protocol(message) if message.contains("unknown command") => {
                DriverError::Unsupported {
                    backend: "webdriver",
                    feature: Capability::DevTools,
                    reason: "this WebDriver end has no CDP bridge (goog/cdp/execute)",
                }
            }
            other => other,
        })
    }

    async fn network_log(&mut self) -> Result<Vec<Request>> {
        WdSession::network_log(self).await
    }

    async fn current_tab(&mut self) -> Result<TabId> {
        WdSession::current_tab(self).await
    }

    async fn tabs(&mut self) -> Result<Vec<Tab>> {
        WdSession::tabs(self).await
    }

    async fn tab_ids(&mut self) -> Result<Vec<TabId>> {
        WdSession::tab_ids(self).await
    }

    async fn open_tab(&mut self) -> Result<TabId> {
        WdSession::open_tab(self).await
    }

    async fn switch_tab(&mut self, id: &TabId) -> Result<()> {
        WdSession::switch_tab(self, id).await
    }

    async fn close_tab(&mut self, id: &TabId) -> Result<()> {
        WdSession::close_tab(self, id).await
    }

    async fn console(&mut self) -> Result<Vec<ConsoleEntry>> {
        WdSession::console(self).await
    }

    async fn downloads(&mut self) -> Result<Vec<Download>> {
        match &self.relay {
            Some(relay) => Ok(relay.downloads()),
            None => Err(DriverError::Unsupported {
                backend: "webdriver",
                feature: Capability::DownloadReports,
                reason: NO_DOWNLOAD_REPORTS,
            }),
        }
    }

    async fn dialog(&mut self) -> Result<Option<Dialog>> {
        WdSession::dialog(self).await
    }

    async fn answer_dialog(&mut self, accept: bool, prompt_text: Option<&str>) -> Result<()> {
        WdSession::answer_dialog(self, accept, prompt_text).await
    }

    async fn catch_file_choosers(&mut self, on: bool) -> Result<()> {
        match &self.relay {
            Some(relay) => relay.catch_choosers(&self.current, on).await,
            None => Err(DriverError::Unsupported {
                backend: "webdriver",
                feature: Capability::DevTools,
                reason: "a remote end without a DevTools socket hears no file chooser",
            }),
        }
    }

    async fn take_file_chooser(&mut self) -> Result<Option<FileChooser>> {
        match &self.relay {
            Some(relay) => relay.take_chooser(&self.current, CHOOSER_PATIENCE).await,
            None => Ok(None),
        }
    }

    async fn memory(&mut self) -> Result<Option<Memory>> {
        Ok(WdSession::memory(self))
    }
}
