//! What each call does over CDP: [`CdpSession`] as a [`BrowserSession`].
//! The driver around it (`driver_core::backend::SessionDriver`) supervises,
//! names and checks every call; a page call here finds the current tab's
//! flat session and hands the work to its [`Page`](crate::page::Page).

use async_trait::async_trait;
use chromiumoxide::cdp::browser_protocol::page::{HandleJavaScriptDialogParams, StopLoadingParams};
use chromiumoxide::cdp::js_protocol::runtime::TerminateExecutionParams;
use driver_core::backend::devtools::names;
use serde_json::Value;

use driver_core::backend::supervisor::BoxFuture;
use driver_core::backend::{input, BrowserSession};
use driver_core::{
    Capabilities, Click, ConsoleEntry, Dialog, Download, DriverError, FileChooser, KeyPress,
    Memory, Navigation, Options, Request, Result, ScreenshotOptions, Tab, TabId, Viewport,
};

use crate::registry::World;
use crate::session::CdpSession;

/// How long a file chooser the last input opened may take to be heard of.
const CHOOSER_PATIENCE: std::time::Duration = std::time::Duration::from_millis(500);

/// How long an answered dialog may take to report itself closed.
const DIALOG_CLOSE_LIMIT: std::time::Duration = std::time::Duration::from_millis(500);

/// How long the clean-up after a timed-out call may take.
const RECOVERY_LIMIT: std::time::Duration = std::time::Duration::from_secs(2);

#[async_trait]
impl BrowserSession for CdpSession {
    async fn start(options: Options) -> Result<Self> {
        CdpSession::start_alone(&options).await
    }

    fn capabilities(options: &Options, _session: Option<&Self>) -> Capabilities {
        Capabilities::full("cdp").as_asked(options)
    }

    fn gone(&mut self) -> Option<String> {
        self.browser.gone()
    }

    /// What can end a call early: the connection closing, and for a page
    /// call a dialog opening in its tab, or the tab going away (a page may
    /// close its own window mid-click, and CDP never answers a command sent
    /// to a target that is gone). A current tab already gone when the call
    /// starts is the call's own business: it moves to another tab and says
    /// so (`current_session`).
    fn interruption(&mut self, needs_page: bool) -> BoxFuture<'static, DriverError> {
        let client = self.client.clone();
        let registry = self.registry.clone();
        let tab = self
            .current
            .clone()
            .filter(|tab| needs_page && registry.read(|registry| registry.tab(tab).is_some()));
        Box::pin(async move {
            let page =
                async {
                    match tab {
                        Some(tab) => {
                            registry
                                .wait_until(|registry| match registry.tab(&tab) {
                                    None => Some(DriverError::NoSuchTab { id: tab.0.clone() }),
                                    Some(_) => registry.dialog_in(&tab).map(|dialog| {
                                        DriverError::DialogOpen {
                                            kind: dialog.kind,
                                            message: dialog.message,
                                        }
                                    }),
                                })
                                .await
                        }
                        None => std::future::pending().await,
                    }
                };
            tokio::select! {
                biased;
                error = page => error,
                reason = client.until_gone() => DriverError::BrowserGone { reason },
            }
        })
    }

    /// Stops whatever script is spinning and whatever is still loading in
    /// the current tab, so the next call finds it usable.
    async fn recover(&mut self) -> bool {
        let stop = async {
            let id = self.current.as_ref().and_then(|tab| self.session_of(tab))?;
            let client = &self.client;
            let _ = client
                .order(Some(&id), TerminateExecutionParams::default())
                .await;
            let _ = client.order(Some(&id), StopLoadingParams::default()).await;
            Some(())
        };
        let _ = tokio::time::timeout(RECOVERY_LIMIT, stop).await;
        true
    }

    async fn shutdown(self) {
        self.end().await;
    }

    async fn navigate(&mut self, url: &str) -> Result<Navigation> {
        let id = self.current_session().await?;
        self.renewed_around(&id, async |page| page.navigate(url).await)
            .await
    }

    async fn history(&mut self, delta: i32) -> Result<Navigation> {
        let id = self.current_session().await?;
        self.renewed_around(&id, async |page| page.history(i64::from(delta)).await)
            .await
    }

    async fn reload(&mut self) -> Result<Navigation> {
        let id = self.current_session().await?;
        self.page(&id).reload().await
    }

    async fn eval(&mut self, expression: &str) -> Result<Value> {
        let id = self.current_session().await?;
        self.page(&id).evaluate(expression).await
    }

    async fn eval_in_frame(&mut self, frame: &[u32], expression: &str) -> Result<Value> {
        let id = self.current_session().await?;
        self.page(&id)
            .evaluate_in_frame(frame, World::Page, expression)
            .await
    }

    async fn eval_isolated(&mut self, frame: &[u32], expression: &str) -> Result<Value> {
        let id = self.current_session().await?;
        self.page(&id)
            .evaluate_in_frame(frame, World::Isolated, expression)
            .await
    }

    async fn click(&mut self, x: f64, y: f64, click: Click) -> Result<()> {
        let id = self.current_session().await?;
        self.page(&id).click_with(x, y, click).await
    }

    async fn move_mouse(&mut self, x: f64, y: f64) -> Result<()> {
        let id = self.current_session().await?;
        self.page(&id).mouse_event(input::move_event(x, y)).await
    }

    async fn wheel(&mut self, x: f64, y: f64, dx: f64, dy: f64) -> Result<()> {
        let id = self.current_session().await?;
        let page = self.page(&id);
        // A wheel before the page's latest frame is lost: wait for one.
        let _ = page
            .evaluate_in_frame(&[], World::Isolated, input::PAINTED_FRAME)
            .await;
        page.mouse_event(input::wheel_event(x, y, dx, dy)).await
    }

    async fn type_text(&mut self, text: &str) -> Result<()> {
        let id = self.current_session().await?;
        self.page(&id).type_text(text).await
    }

    async fn press(&mut self, key: KeyPress) -> Result<()> {
        let id = self.current_session().await?;
        self.page(&id).press_key(key).await
    }

    async fn screenshot(&mut self, options: ScreenshotOptions) -> Result<Vec<u8>> {
        let id = self.current_session().await?;
        let cast_free = self.cast.is_none();
        self.page(&id).screenshot(options, cast_free).await
    }

    async fn paint_probe(
        &mut self,
        probe: &driver_core::PaintProbe,
    ) -> Result<driver_core::PaintPictures> {
        let id = self.current_session().await?;
        let cast_free = self.cast.is_none();
        self.page(&id).paint_probe(probe, cast_free).await
    }

    async fn hand_over(&mut self, handover: &driver_core::Handover) -> Result<serde_json::Value> {
        let id = self.current_session().await?;
        self.page(&id).hand_over(handover).await
    }

    async fn set_viewport(&mut self, viewport: Viewport) -> Result<()> {
        self.resize(viewport).await
    }

    async fn requests_in_flight(&mut self) -> Result<Option<usize>> {
        let id = self.current_session().await?;
        Ok(Some(self.registry.requests_in_flight(&id)))
    }

    async fn devtools(&mut self, method: &str, params: Value) -> Result<Value> {
        let id = self.current_session().await?;
        if method.starts_with("Browser.") {
            // The browser's own domain answers on the browser's
            // connection, for this session's context only.
            let mut params = params;
            if let (Some(object), Some(context)) = (params.as_object_mut(), &self.context) {
                object.insert("browserContextId".to_owned(), serde_json::json!(context));
            }
            return Ok(self
                .client
                .call_raw(None, method.to_owned(), params)
                .await?);
        }
        Ok(self
            .client
            .call_raw(Some(&id), method.to_owned(), params)
            .await?)
    }

    async fn network_log(&mut self) -> Result<Vec<Request>> {
        let id = self.current_session().await?;
        Ok(self.registry.requests_of_tab(&id))
    }

    async fn current_tab(&mut self) -> Result<TabId> {
        self.current_session().await?;
        self.current
            .clone()
            .ok_or_else(|| DriverError::NoSuchTab { id: String::new() })
    }

    async fn tabs(&mut self) -> Result<Vec<Tab>> {
        self.fresh_tabs().await
    }

    async fn open_tab(&mut self) -> Result<TabId> {
        self.open_own_tab().await
    }

    async fn switch_tab(&mut self, id: &TabId) -> Result<()> {
        if self.session_of(id).is_none() {
            return Err(DriverError::NoSuchTab { id: id.0.clone() });
        }
        self.make_current(id).await;
        Ok(())
    }

    async fn close_tab(&mut self, id: &TabId) -> Result<()> {
        self.close_own_tab(id).await
    }

    async fn console(&mut self) -> Result<Vec<ConsoleEntry>> {
        Ok(self.drain_console())
    }

    async fn downloads(&mut self) -> Result<Vec<Download>> {
        Ok(self.drain_downloads())
    }

    async fn dialog(&mut self) -> Result<Option<Dialog>> {
        self.current_session().await?;
        Ok(self
            .current
            .as_ref()
            .and_then(|tab| self.registry.dialog_of(tab)))
    }

    async fn answer_dialog(&mut self, accept: bool, prompt_text: Option<&str>) -> Result<()> {
        let id = self.current_session().await?;
        let Some(tab) = self.current.clone() else {
            return Err(DriverError::NoDialog);
        };
        if self.registry.dialog_of(&tab).is_none() {
            return Err(DriverError::NoDialog);
        }
        let answered = self.registry.dialogs_opened(&tab);
        let mut params = HandleJavaScriptDialogParams::new(accept);
        params.prompt_text = prompt_text.map(str::to_owned);
        self.client.order(Some(&id), params).await?;
        // Chrome says when it is closed; the page may open the next at
        // once, which must not be taken for closed.
        self.registry
            .dialog_closed(&tab, answered, DIALOG_CLOSE_LIMIT)
            .await;
        Ok(())
    }

    async fn catch_file_choosers(&mut self, on: bool) -> Result<()> {
        let id = self.current_session().await?;
        if let Some(tab) = &self.current {
            self.registry.clear_chooser(tab);
        }
        self.client
            .call_raw(
                Some(&id),
                names::PAGE_SET_INTERCEPT_FILE_CHOOSER_DIALOG,
                serde_json::json!({ "enabled": on }),
            )
            .await?;
        Ok(())
    }

    async fn take_file_chooser(&mut self) -> Result<Option<FileChooser>> {
        self.current_session().await?;
        let Some(tab) = self.current.clone() else {
            return Ok(None);
        };
        Ok(self.registry.take_chooser(&tab, CHOOSER_PATIENCE).await)
    }

    async fn memory(&mut self) -> Result<Option<Memory>> {
        self.measure_memory().await
    }
}
