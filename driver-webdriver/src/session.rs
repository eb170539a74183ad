//! One WebDriver session: the chromedriver (when we started it), the profile,
//! the fantoccini client, and what each driver call does over it.

use std::time::Duration;

use base64::Engine;
use fantoccini::error::{CmdError, ErrorStatus};
use fantoccini::wd::{TimeoutConfiguration, WebDriverCompatibleCommand, WindowHandle};
use fantoccini::{Client, ClientBuilder};
use serde_json::{json, Value};

use driver_core::launch::{self, Profile};
use driver_core::page_js::{locate_error, DOCUMENT_STATUS, LOCATE};
use driver_core::{
    is_start_page, ConsoleEntry, ConsoleLevel, Dialog, DialogKind, DriverError, Key, KeyPress,
    Navigation, Options, Result, ScreenshotFormat, ScreenshotOptions, Tab, TabId, Viewport,
    WaitFor,
};

use crate::chromedriver::Chromedriver;

/// How much earlier than our own deadline chromedriver's script and page-load
/// timeouts fire, so that it answers "timeout" itself and stays usable.
const REMOTE_TIMEOUT_MARGIN: Duration = Duration::from_millis(500);

/// A command fantoccini has no method for, sent as it is.
#[derive(Debug)]
struct Raw {
    method: http::Method,
    /// Appended to `/session/{id}/`.
    path: &'static str,
    body: Option<Value>,
}

impl WebDriverCompatibleCommand for Raw {
    fn endpoint(
        &self,
        base: &url::Url,
        session: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base.join(&format!(
            "session/{}/{}",
            session.unwrap_or_default(),
            self.path
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (
            self.method.clone(),
            self.body.as_ref().map(Value::to_string),
        )
    }
}

/// A live session.
pub(crate) struct Session {
    client: Client,
    /// Window handles in the order they were first seen (oldest first).
    known: Vec<String>,
    current: String,
    chromedriver: Option<Chromedriver>,
    profile: Option<Profile>,
    /// The script timeout the remote end was given.
    script_limit: Duration,
}

impl Session {
    /// Starts chromedriver (or uses `options.endpoint`) and opens a session
    /// whose Chrome has our flags.
    pub async fn start(options: &Options) -> Result<Self> {
        let (url, chromedriver, profile, capabilities) = match &options.endpoint {
            Some(endpoint) => (endpoint.clone(), None, None, capabilities(options, None)?),
            None => {
                let limit = options.timeout;
                let prepared = options.clone();
                let (chromedriver, profile) = tokio::task::spawn_blocking(move || {
                    let profile = Profile::prepare(&prepared)?;
                    let chromedriver = Chromedriver::start(limit)?;
                    Ok::<_, DriverError>((chromedriver, profile))
                })
                .await
                .map_err(|error| DriverError::Launch {
                    reason: format!("the launch task failed: {error}"),
                })??;
                let capabilities = capabilities(options, Some(&profile))?;
                (
                    chromedriver.url(),
                    Some(chromedriver),
                    Some(profile),
                    capabilities,
                )
            }
        };
        let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(capabilities)
            .connect(&url)
            .await
            .map_err(|error| DriverError::Launch {
                reason: format!(
                    "cannot open a WebDriver session at {url}: {error}{}",
                    chromedriver
                        .as_ref()
                        .map(|driver| format!("; chromedriver's log: {}", driver.log_tail()))
                        .unwrap_or_default()
                ),
            })?;
        let current = client.window().await.map_err(sort)?;
        let mut session = Self {
            client,
            known: vec![current.clone().into()],
            current: current.into(),
            chromedriver,
            profile,
            script_limit: remote_limit(options),
        };
        // Belt and braces with the profile preference: deny downloads
        // through chromedriver's CDP bridge where the remote end has one.
        let _ = session
            .cdp("Browser.setDownloadBehavior", json!({ "behavior": "deny" }))
            .await;
        session
            .set_viewport_size(Viewport {
                width: options.width,
                height: options.height,
            })
            .await?;
        Ok(session)
    }

    /// Whether the chromedriver we started has exited.
    pub fn chromedriver_exited(&mut self) -> bool {
        self.chromedriver
            .as_mut()
            .is_some_and(Chromedriver::has_exited)
    }

    /// Ends the session: chromedriver quits Chrome; then chromedriver and any
    /// Chrome still using our profile are killed, and the profile deleted.
    pub async fn shutdown(mut self) {
        let _ = tokio::time::timeout(Duration::from_secs(3), self.client.clone().close()).await;
        self.kill();
    }

    fn kill(&mut self) {
        if let Some(mut chromedriver) = self.chromedriver.take() {
            chromedriver.kill();
        }
        if let Some(profile) = &self.profile {
            launch::kill_chrome_using(profile.path());
        }
    }

    /// Sends a CDP command through chromedriver's bridge
    /// (`goog/cdp/execute`), to the current tab.
    async fn cdp(&self, command: &str, params: Value) -> Result<Value> {
        self.raw(
            http::Method::POST,
            "goog/cdp/execute",
            Some(json!({ "cmd": command, "params": params })),
        )
        .await
    }

    async fn raw(
        &self,
        method: http::Method,
        path: &'static str,
        body: Option<Value>,
    ) -> Result<Value> {
        self.client
            .issue_cmd(Raw { method, path, body })
            .await
            .map_err(sort)
    }

    // ---- navigation -------------------------------------------------------

    pub async fn navigate(&mut self, url: &str) -> Result<Navigation> {
        self.focus_current().await?;
        self.client
            .goto(url)
            .await
            .map_err(|error| match sort(error) {
                DriverError::Protocol(message) => match net_error(&message) {
                    Some(net_error) => DriverError::NavigationFailed {
                        url: url.to_owned(),
                        net_error,
                    },
                    None => DriverError::Protocol(message),
                },
                other => other,
            })?;
        self.arrived().await
    }

    /// Where the tab is now and the HTTP status of its document.
    async fn arrived(&self) -> Result<Navigation> {
        let found = self
            .client
            .execute(
                &format!("return [location.href, {DOCUMENT_STATUS}];"),
                vec![],
            )
            .await
            .map_err(sort)?;
        let status = found[1]
            .as_u64()
            .filter(|status| *status > 0)
            .map(|status| status as u16);
        Ok(Navigation {
            status,
            url: found[0].as_str().unwrap_or_default().to_owned(),
        })
    }

    /// Back (-1) or forward (+1). WebDriver does nothing at the end of
    /// history, so the document is tagged first: still tagged, same URL
    /// afterwards means there was nowhere to go.
    pub async fn history(&mut self, delta: i32) -> Result<Navigation> {
        self.focus_current().await?;
        let nowhere = || DriverError::NoHistory {
            direction: if delta < 0 { "earlier" } else { "later" },
        };
        // The page the tab started on is not a page to go back to. The
        // CDP bridge (chromedriver's) tells what lies behind without going
        // there; a remote end without it is found out by going.
        if delta < 0 {
            if let Ok(history) = self.cdp("Page.getNavigationHistory", json!({})).await {
                if let Some(index) = history["currentIndex"].as_u64() {
                    let behind = index
                        .checked_sub(1)
                        .and_then(|index| usize::try_from(index).ok())
                        .and_then(|index| history["entries"].get(index));
                    if behind.is_none_or(|entry| is_start_page(entry["url"].as_str().unwrap_or("")))
                    {
                        return Err(nowhere());
                    }
                }
            }
        }
        let before = self
            .client
            .execute(
                "window.__tabwrightStayed = true; return location.href;",
                vec![],
            )
            .await
            .map_err(sort)?;
        if delta < 0 {
            self.client.back().await.map_err(sort)?;
        } else {
            self.client.forward().await.map_err(sort)?;
        }
        let stayed = self
            .client
            .execute(
                "return window.__tabwrightStayed === true ? location.href : null;",
                vec![],
            )
            .await
            .map_err(sort)?;
        if stayed == before {
            return Err(nowhere());
        }
        let arrived = self.arrived().await?;
        if delta < 0 && is_start_page(&arrived.url) {
            self.client.forward().await.map_err(sort)?;
            return Err(nowhere());
        }
        Ok(arrived)
    }

    pub async fn reload(&mut self) -> Result<Navigation> {
        self.focus_current().await?;
        self.client.refresh().await.map_err(sort)?;
        self.arrived().await
    }

    // ---- scripts ------------------------------------------------------------

    /// Evaluates an expression (or, if it is not one, statements) with
    /// promises awaited, as the CDP backend's `Runtime.evaluate` does.
    pub async fn eval(&mut self, expression: &str) -> Result<Value> {
        self.focus_current().await?;
        let as_expression = format!("async () => (\n{expression}\n)");
        match self.run_async(&as_expression).await {
            // Statements (`throw …`, `while …`) are not an expression.
            Err(DriverError::Script { message }) if message.contains("SyntaxError") => {
                self.run_async(&format!("async () => {{\n{expression}\n}}"))
                    .await
            }
            other => other,
        }
    }

    /// Evaluates in the frame at `path` (`window.frames` indices), then
    /// returns to the top frame whatever happened.
    pub async fn eval_in_frame(&mut self, path: &[u32], expression: &str) -> Result<Value> {
        if path.is_empty() {
            return self.eval(expression).await;
        }
        self.focus_current().await?;
        let mut entered = Ok(());
        for index in path {
            let index = u16::try_from(*index).unwrap_or(u16::MAX);
            if let Err(error) = self.client.clone().enter_frame(index).await {
                entered = Err(DriverError::FrameUnreachable {
                    path: format!("{path:?}"),
                    reason: sort(error).to_string(),
                });
                break;
            }
        }
        let result = match entered {
            Ok(()) => {
                let as_expression = format!("async () => (\n{expression}\n)");
                self.run_async(&as_expression).await
            }
            Err(error) => Err(error),
        };
        self.raw(http::Method::POST, "frame", Some(json!({ "id": null })))
            .await?;
        result
    }

    pub async fn current_tab(&mut self) -> Result<TabId> {
        self.focus_current().await?;
        Ok(TabId(self.current.clone()))
    }

    /// Executes an asynchronous script. chromedriver answers "script
    /// timeout" at once when the document unloads under the script (a
    /// navigation), and geckodriver a JavaScript error saying so; both are
    /// told apart from a real timeout, which comes only at the limit.
    async fn execute_async(&self, script: &str, args: Vec<Value>) -> Result<Value> {
        let started = std::time::Instant::now();
        let answer = self.client.execute_async(script, args).await;
        answer.map_err(|error| match sort(error) {
            DriverError::Timeout { .. } if started.elapsed() < self.script_limit / 2 => {
                DriverError::DocumentReplaced
            }
            DriverError::Script { message } if message.contains("unloaded") => {
                DriverError::DocumentReplaced
            }
            other => other,
        })
    }

    async fn run_async(&self, function: &str) -> Result<Value> {
        let script = format!(
            "const done = arguments[arguments.length - 1];\n\
             Promise.resolve().then({function}).then(\n\
               (value) => done({{ value: value === undefined ? null : value }}),\n\
               (error) => done({{ error: (error && error.stack && String(error.stack).split('\\n')[0]) || String(error) }}));"
        );
        let answer = self.execute_async(&script, vec![]).await?;
        match answer.get("error").and_then(Value::as_str) {
            Some(message) => Err(DriverError::Script {
                message: message.to_owned(),
            }),
            None => Ok(answer.get("value").cloned().unwrap_or(Value::Null)),
        }
    }

    async fn locate(&mut self, operation: &str, selector: &str, extra: Value) -> Result<Value> {
        if selector.trim().is_empty() {
            return Err(DriverError::InvalidArgument(
                "the selector is empty".to_owned(),
            ));
        }
        self.focus_current().await?;
        let script = format!(
            "const done = arguments[arguments.length - 1];\n\
             ({LOCATE})(arguments[0], arguments[1], arguments[2]).then(done, (error) => done({{ error: String(error) }}));"
        );
        let found = self
            .execute_async(&script, vec![json!(operation), json!(selector), extra])
            .await?;
        match locate_error(&found, operation, selector) {
            Some(error) => Err(error),
            None => Ok(found),
        }
    }

    pub async fn read(&mut self, selector: &str, what: &str) -> Result<String> {
        let found = self.locate(what, selector, Value::Null).await?;
        Ok(found["value"].as_str().unwrap_or_default().to_owned())
    }

    pub async fn wait_for(&mut self, selector: &str, condition: WaitFor) -> Result<()> {
        let visible = condition == WaitFor::Visible;
        loop {
            // A navigation replaces the document waited in: wait in the new
            // one (the call's deadline bounds the whole wait).
            match self
                .locate("wait", selector, json!({ "visible": visible }))
                .await
            {
                Err(DriverError::DocumentReplaced) => continue,
                other => return other.map(|_| ()),
            }
        }
    }

    // ---- input ----------------------------------------------------------------

    pub async fn click(&mut self, selector: &str) -> Result<()> {
        let point = self.locate("click", selector, Value::Null).await?;
        let (x, y) = (
            point["x"].as_f64().unwrap_or_default(),
            point["y"].as_f64().unwrap_or_default(),
        );
        self.click_at(x, y).await
    }

    pub async fn click_at(&mut self, x: f64, y: f64) -> Result<()> {
        self.focus_current().await?;
        self.actions(mouse(
            x,
            y,
            &[
                json!({ "type": "pointerDown", "button": 0 }),
                json!({ "type": "pointerUp", "button": 0 }),
            ],
        ))
        .await
    }

    pub async fn move_mouse(&mut self, x: f64, y: f64) -> Result<()> {
        self.focus_current().await?;
        self.actions(mouse(x, y, &[])).await
    }

    pub async fn wheel(&mut self, x: f64, y: f64, dx: f64, dy: f64) -> Result<()> {
        self.focus_current().await?;
        // chromedriver's wheel action at times scrolled nothing on a loaded
        // machine (the conformance check failed about 1 run in 7 with busy
        // loops beside it; a hit test first made it rarer, not gone). The
        // DevTools wheel event, which the CDP backend sends and which never
        // failed so, goes through the CDP bridge where the remote end has
        // one; the W3C action is for the others.
        let event = json!({ "type": "mouseWheel", "x": x, "y": y, "deltaX": dx, "deltaY": dy });
        match self.cdp("Input.dispatchMouseEvent", event).await {
            Err(DriverError::Protocol(_)) => {}
            other => return other.map(|_| ()),
        }
        let wheel = json!({
            "type": "wheel",
            "id": "wheel",
            "actions": [{
                "type": "scroll", "duration": 0, "origin": "viewport",
                "x": x.floor() as i64, "y": y.floor() as i64,
                "deltaX": dx.round() as i64, "deltaY": dy.round() as i64,
            }],
        });
        self.actions(wheel).await
    }

    // ---- dialogs ----------------------------------------------------------------

    /// W3C WebDriver tells a dialog's text but not which function opened it.
    pub async fn dialog(&mut self) -> Result<Option<Dialog>> {
        self.focus_current().await?;
        match self.client.get_alert_text().await {
            Ok(message) => Ok(Some(Dialog {
                kind: DialogKind::Unknown,
                message,
                default_prompt: String::new(),
            })),
            Err(CmdError::Standard(error)) if error.error == ErrorStatus::NoSuchAlert => Ok(None),
            Err(error) => Err(sort(error)),
        }
    }

    pub async fn answer_dialog(&mut self, accept: bool, prompt_text: Option<&str>) -> Result<()> {
        if self.dialog().await?.is_none() {
            return Err(DriverError::NoDialog);
        }
        if let Some(text) = prompt_text {
            self.client
                .send_alert_text(text)
                .await
                .map_err(|error| match sort(error) {
                    DriverError::Protocol(message) => DriverError::InvalidArgument(format!(
                        "this dialog takes no text ({message})"
                    )),
                    other => other,
                })?;
        }
        let answered = if accept {
            self.client.accept_alert().await
        } else {
            self.client.dismiss_alert().await
        };
        answered.map_err(sort)
    }

    pub async fn send_keys(&mut self, selector: &str, text: &str) -> Result<()> {
        self.locate("focus", selector, Value::Null).await?;
        self.type_text(text).await
    }

    pub async fn type_text(&mut self, text: &str) -> Result<()> {
        self.focus_current().await?;
        let mut actions = Vec::new();
        for character in text.chars() {
            let key = match character {
                '\n' | '\r' => Key::Enter,
                '\t' => Key::Tab,
                other => Key::Char(other),
            };
            let value = key.webdriver_char().to_string();
            actions.push(json!({ "type": "keyDown", "value": value }));
            actions.push(json!({ "type": "keyUp", "value": value }));
        }
        if actions.is_empty() {
            return Ok(());
        }
        self.actions(json!({ "type": "key", "id": "keyboard", "actions": actions }))
            .await
    }

    pub async fn press(&mut self, press: KeyPress) -> Result<()> {
        self.focus_current().await?;
        let modifiers = press.modifiers;
        let held: Vec<char> = [
            (modifiers.ctrl, '\u{E009}'),
            (modifiers.shift, '\u{E008}'),
            (modifiers.alt, '\u{E00A}'),
            (modifiers.meta, '\u{E03D}'),
        ]
        .into_iter()
        .filter(|(on, _)| *on)
        .map(|(_, key)| key)
        .collect();
        let key = press.key.webdriver_char().to_string();
        let mut actions: Vec<Value> = held
            .iter()
            .map(|modifier| json!({ "type": "keyDown", "value": modifier.to_string() }))
            .collect();
        actions.push(json!({ "type": "keyDown", "value": key }));
        actions.push(json!({ "type": "keyUp", "value": key }));
        actions.extend(
            held.iter()
                .rev()
                .map(|modifier| json!({ "type": "keyUp", "value": modifier.to_string() })),
        );
        self.actions(json!({ "type": "key", "id": "keyboard", "actions": actions }))
            .await
    }

    async fn actions(&self, sequence: Value) -> Result<()> {
        self.raw(
            http::Method::POST,
            "actions",
            Some(json!({ "actions": [sequence] })),
        )
        .await?;
        self.raw(http::Method::DELETE, "actions", None).await?;
        Ok(())
    }

    // ---- screenshots ------------------------------------------------------------

    pub async fn screenshot(&mut self, options: ScreenshotOptions) -> Result<Vec<u8>> {
        self.focus_current().await?;
        if options == ScreenshotOptions::default() {
            return self.client.screenshot().await.map_err(sort);
        }
        // WebDriver has PNG of the viewport only; the rest goes through
        // chromedriver's CDP bridge.
        let (format, quality) = match options.format {
            ScreenshotFormat::Png => ("png", None),
            ScreenshotFormat::Jpeg(quality) => ("jpeg", Some(quality.min(100))),
            ScreenshotFormat::Webp(quality) => ("webp", Some(quality.min(100))),
        };
        let mut params = json!({ "format": format });
        if let Some(quality) = quality {
            params["quality"] = json!(quality);
        }
        if options.full_page {
            let metrics = self
                .cdp("Page.getLayoutMetrics", json!({}))
                .await
                .map_err(bridge)?;
            let size = &metrics["cssContentSize"];
            params["clip"] = json!({
                "x": 0, "y": 0, "scale": 1,
                "width": size["width"].as_f64().unwrap_or(1.0).ceil(),
                "height": size["height"].as_f64().unwrap_or(1.0).ceil(),
            });
            params["captureBeyondViewport"] = json!(true);
        }
        let shot = self
            .cdp("Page.captureScreenshot", params)
            .await
            .map_err(bridge)?;
        base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().unwrap_or_default())
            .map_err(|error| {
                DriverError::Protocol(format!("the screenshot is not base64: {error}"))
            })
    }

    // ---- tabs -------------------------------------------------------------------

    /// The current tab; if the page closed it, the most recent tab becomes
    /// current and the error names the one that is gone.
    async fn focus_current(&mut self) -> Result<()> {
        let handles = self.handles().await?;
        if handles.contains(&self.current) {
            return Ok(());
        }
        let gone = std::mem::take(&mut self.current);
        match self.known.last().cloned() {
            Some(latest) => self.switch(&latest).await?,
            None => {
                let created = self.client.new_window(true).await.map_err(sort)?;
                let handle: String = created.handle.into();
                self.known.push(handle.clone());
                self.switch(&handle).await?;
            }
        }
        Err(DriverError::NoSuchTab { id: gone })
    }

    /// The window handles, oldest first, remembering new ones.
    async fn handles(&mut self) -> Result<Vec<String>> {
        let handles: Vec<String> = self
            .client
            .windows()
            .await
            .map_err(sort)?
            .into_iter()
            .map(Into::into)
            .collect();
        self.known.retain(|known| handles.contains(known));
        for handle in &handles {
            if !self.known.contains(handle) {
                self.known.push(handle.clone());
            }
        }
        Ok(self.known.clone())
    }

    async fn switch(&mut self, handle: &str) -> Result<()> {
        self.client
            .switch_to_window(WindowHandle::try_from(handle.to_owned()).map_err(|_| {
                DriverError::NoSuchTab {
                    id: handle.to_owned(),
                }
            })?)
            .await
            .map_err(sort)?;
        self.current = handle.to_owned();
        Ok(())
    }

    /// Every tab with its title and URL (WebDriver reads those only of the
    /// tab it is in, so it visits each and comes back).
    pub async fn tabs(&mut self) -> Result<Vec<Tab>> {
        let _ = self.focus_current().await;
        let current = self.current.clone();
        let mut tabs = Vec::new();
        for handle in self.handles().await? {
            self.switch(&handle).await?;
            // A tab under a dialog cannot be asked its title: leave it blank
            // rather than fail the whole list.
            let title = match self.client.title().await.map_err(sort) {
                Err(DriverError::DialogOpen { .. }) => String::new(),
                other => other?,
            };
            let url = self
                .client
                .current_url()
                .await
                .map(|url| url.to_string())
                .unwrap_or_default();
            tabs.push(Tab {
                current: handle == current,
                id: TabId(handle),
                title,
                url,
            });
        }
        self.switch(&current).await?;
        Ok(tabs)
    }

    /// One WebDriver call, where [`tabs`](Self::tabs) visits every window.
    pub async fn tab_ids(&mut self) -> Result<Vec<TabId>> {
        Ok(self.handles().await?.into_iter().map(TabId).collect())
    }

    pub async fn open_tab(&mut self) -> Result<TabId> {
        let created = self.client.new_window(true).await.map_err(sort)?;
        let handle: String = created.handle.into();
        self.handles().await?;
        self.switch(&handle).await?;
        Ok(TabId(handle))
    }

    pub async fn tab(&mut self, id: &TabId) -> Result<Tab> {
        self.tabs()
            .await?
            .into_iter()
            .find(|tab| &tab.id == id)
            .ok_or_else(|| DriverError::NoSuchTab { id: id.0.clone() })
    }

    pub async fn switch_tab(&mut self, id: &TabId) -> Result<()> {
        if !self.handles().await?.contains(&id.0) {
            return Err(DriverError::NoSuchTab { id: id.0.clone() });
        }
        self.switch(&id.0).await
    }

    pub async fn close_tab(&mut self, id: &TabId) -> Result<()> {
        if !self.handles().await?.contains(&id.0) {
            return Err(DriverError::NoSuchTab { id: id.0.clone() });
        }
        let back_to = self.current.clone();
        if self.known.len() == 1 {
            // chromedriver ends the session with its last window: open the
            // blank tab that takes its place first.
            let created = self.client.new_window(true).await.map_err(sort)?;
            self.known.push(created.handle.into());
        }
        self.switch(&id.0).await?;
        self.client.close_window().await.map_err(sort)?;
        let left = self.handles().await?;
        if back_to != id.0 && left.contains(&back_to) {
            return self.switch(&back_to).await;
        }
        match left.last() {
            Some(latest) => {
                let latest = latest.clone();
                self.switch(&latest).await
            }
            None => {
                let created = self.client.new_window(true).await.map_err(sort)?;
                let handle: String = created.handle.into();
                self.known.push(handle.clone());
                self.switch(&handle).await
            }
        }
    }

    // ---- viewport and console ---------------------------------------------------

    pub async fn viewport(&mut self) -> Result<Viewport> {
        self.focus_current().await?;
        let size = self
            .client
            .execute("return [innerWidth, innerHeight];", vec![])
            .await
            .map_err(sort)?;
        Ok(Viewport {
            width: size[0].as_u64().unwrap_or_default() as u32,
            height: size[1].as_u64().unwrap_or_default() as u32,
        })
    }

    /// Sizes the window so that the viewport (not the window) has the size
    /// asked for: set, measure the difference the browser's frame makes, set
    /// again.
    pub async fn set_viewport_size(&mut self, viewport: Viewport) -> Result<()> {
        self.client
            .set_window_size(viewport.width, viewport.height)
            .await
            .map_err(sort)?;
        let inner = self.viewport().await?;
        if inner != viewport {
            let width = viewport.width + viewport.width.saturating_sub(inner.width);
            let height = viewport.height + viewport.height.saturating_sub(inner.height);
            self.client
                .set_window_size(width, height)
                .await
                .map_err(sort)?;
        }
        Ok(())
    }

    /// The browser log since the last call (chromedriver's `goog:loggingPrefs`).
    pub async fn console(&mut self) -> Result<Vec<ConsoleEntry>> {
        let entries = self
            .raw(
                http::Method::POST,
                "se/log",
                Some(json!({ "type": "browser" })),
            )
            .await
            .map_err(|error| match error {
                DriverError::Protocol(_) => DriverError::Unsupported {
                    backend: "webdriver",
                    feature: "console",
                    reason: "this WebDriver end has no browser log (chromedriver's se/log)",
                },
                other => other,
            })?;
        let tab = TabId(self.current.clone());
        Ok(entries
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            // Chrome's own notes on failed loads (a missing favicon, a refused
            // request) are not the page's console; the CDP backend, which
            // reads the page's console API, does not see them either.
            .filter(|entry| entry["source"] != "network")
            .map(|entry| {
                let raw = entry["message"].as_str().unwrap_or_default();
                let text = console_text(raw);
                let level = match entry["level"].as_str().unwrap_or_default() {
                    "SEVERE" if text.contains("Uncaught") => ConsoleLevel::PageError,
                    "SEVERE" => ConsoleLevel::Error,
                    "WARNING" => ConsoleLevel::Warning,
                    "DEBUG" | "FINE" | "FINER" | "FINEST" => ConsoleLevel::Debug,
                    _ => ConsoleLevel::Info,
                };
                ConsoleEntry {
                    level,
                    text,
                    tab: tab.clone(),
                }
            })
            .collect())
    }

    /// After a timeout: stop a spinning script and a hanging load through
    /// the browser's own DevTools socket (chromedriver itself is stuck behind
    /// the page), where the profile is ours to read. If chromedriver still
    /// does not answer, the stuck tab is closed, which releases it, and the
    /// most recent other tab (or a new blank one) becomes current. Returns
    /// whether the session is usable.
    pub async fn recover(&mut self) -> bool {
        let Some(profile) = self
            .profile
            .as_ref()
            .map(|profile| profile.path().to_owned())
        else {
            return true;
        };
        let stuck = self.current.clone();
        if let Err(problem) = crate::devtools::stop(&profile, &stuck, false).await {
            tracing::debug!(%problem, "could not stop the tab after a timeout");
        }
        if self.answers().await {
            return true;
        }
        if let Err(problem) = crate::devtools::stop(&profile, &stuck, true).await {
            tracing::debug!(%problem, "could not close the stuck tab");
            return false;
        }
        let _ = self.focus_current().await;
        self.answers().await
    }

    /// Whether chromedriver answers a trivial script promptly.
    async fn answers(&self) -> bool {
        matches!(
            tokio::time::timeout(PROBE_LIMIT, self.client.execute("return 1", vec![])).await,
            Ok(Ok(_))
        )
    }
}

/// How long chromedriver may take to answer `return 1` after a recovery.
const PROBE_LIMIT: Duration = Duration::from_millis(1500);

impl Drop for Session {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The script and page-load timeouts the remote end is given.
fn remote_limit(options: &Options) -> Duration {
    options
        .timeout
        .saturating_sub(REMOTE_TIMEOUT_MARGIN)
        .max(REMOTE_TIMEOUT_MARGIN)
}

/// The W3C capabilities for a session with our Chrome flags. With a local
/// profile, its path; for a remote end (whose disk we cannot see), the
/// preferences go in the capabilities instead.
fn capabilities(
    options: &Options,
    profile: Option<&Profile>,
) -> Result<serde_json::Map<String, Value>> {
    let mut chrome = serde_json::Map::new();
    let args = match profile {
        Some(profile) => {
            let binary = launch::find_chrome(options.executable.as_deref())?;
            let major = launch::chrome_major_version(&binary);
            chrome.insert("binary".to_owned(), json!(binary));
            launch::chrome_flags(options, profile.path(), major)
        }
        None => {
            chrome.insert("prefs".to_owned(), launch::profile_preferences());
            launch::chrome_flags(options, std::path::Path::new(""), None)
                .into_iter()
                .filter(|flag| !flag.starts_with("--user-data-dir="))
                .collect()
        }
    };
    chrome.insert("args".to_owned(), json!(args));
    chrome.insert(
        "excludeSwitches".to_owned(),
        json!(["enable-automation", "enable-logging"]),
    );
    let remote_limit = remote_limit(options);
    let timeouts =
        TimeoutConfiguration::new(Some(remote_limit), Some(remote_limit), Some(Duration::ZERO));
    let mut capabilities = serde_json::Map::new();
    capabilities.insert("browserName".to_owned(), json!("chrome"));
    capabilities.insert("pageLoadStrategy".to_owned(), json!("normal"));
    capabilities.insert("unhandledPromptBehavior".to_owned(), json!("ignore"));
    capabilities.insert(
        "timeouts".to_owned(),
        serde_json::to_value(&timeouts).unwrap_or(Value::Null),
    );
    capabilities.insert("goog:loggingPrefs".to_owned(), json!({ "browser": "ALL" }));
    capabilities.insert("goog:chromeOptions".to_owned(), Value::Object(chrome));
    Ok(capabilities)
}

/// A chromedriver console line, `URL LINE:COLUMN "text" 42`, as the text a
/// page logged: `text 42`.
fn console_text(raw: &str) -> String {
    let rest = raw
        .split_once(' ')
        .and_then(|(_, rest)| {
            let (position, rest) = rest.split_once(' ')?;
            position.contains(':').then_some(rest)
        })
        .unwrap_or(raw);
    let values: Vec<Value> = serde_json::Deserializer::from_str(rest)
        .into_iter::<Value>()
        .map_while(std::result::Result::ok)
        .collect();
    let parsed: usize = values
        .iter()
        .map(|value| value.to_string().len())
        .sum::<usize>()
        + values.len().saturating_sub(1);
    if values.is_empty() || parsed < rest.trim().len() {
        return rest.to_owned();
    }
    values
        .iter()
        .map(|value| match value {
            Value::String(text) => text.clone(),
            other => other.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Chrome's net error in a chromedriver message, e.g. `net::ERR_CONNECTION_REFUSED`.
fn net_error(message: &str) -> Option<String> {
    let start = message.find("net::ERR_")?;
    Some(
        message[start..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
            .collect(),
    )
}

/// A CDP-bridge failure: an end without the bridge cannot do this.
fn bridge(error: DriverError) -> DriverError {
    match error {
        DriverError::Protocol(_) => DriverError::Unsupported {
            backend: "webdriver",
            feature: "lossy or full-page screenshots",
            reason:
                "this WebDriver end has no CDP bridge (goog/cdp/execute); only PNG of the viewport",
        },
        other => other,
    }
}

/// A mouse action sequence: move to (x, y) of the viewport, then `then`.
fn mouse(x: f64, y: f64, then: &[Value]) -> Value {
    let mut actions = vec![json!({
        "type": "pointerMove", "duration": 0, "origin": "viewport",
        "x": x.floor() as i64, "y": y.floor() as i64,
    })];
    actions.extend_from_slice(then);
    json!({
        "type": "pointer",
        "id": "mouse",
        "parameters": { "pointerType": "mouse" },
        "actions": actions,
    })
}

/// The text of the dialog an "unexpected alert open" error is about: the
/// error data's `text`, else what chromedriver puts in its message
/// (`unexpected alert open: {Alert text : hello}`).
fn alert_text(data: &Option<Value>, message: &str) -> String {
    if let Some(text) = data.as_ref().and_then(|data| data["text"].as_str()) {
        return text.to_owned();
    }
    message
        .split_once("{Alert text : ")
        .and_then(|(_, rest)| rest.rsplit_once('}'))
        .map(|(text, _)| text.to_owned())
        .unwrap_or_default()
}

/// Sorts a fantoccini error into the variant callers branch on.
pub(crate) fn sort(error: CmdError) -> DriverError {
    match error {
        CmdError::Standard(webdriver) => {
            let message = webdriver.message.to_string();
            let gone = [
                "chrome not reachable",
                "disconnected",
                "session deleted",
                "not connected to DevTools",
                "target crashed",
                "tab crashed",
            ];
            if gone.iter().any(|sign| message.contains(sign)) {
                return DriverError::BrowserGone { reason: message };
            }
            match webdriver.error {
                ErrorStatus::InvalidSessionId => DriverError::BrowserGone { reason: message },
                ErrorStatus::NoSuchWindow => DriverError::NoSuchTab { id: message },
                ErrorStatus::Timeout | ErrorStatus::ScriptTimeout => {
                    DriverError::timeout(message, Duration::ZERO)
                }
                ErrorStatus::JavascriptError => DriverError::Script {
                    message: message
                        .strip_prefix("javascript error: ")
                        .unwrap_or(&message)
                        .to_owned(),
                },
                ErrorStatus::NoSuchElement => DriverError::NoSuchElement { selector: message },
                ErrorStatus::UnexpectedAlertOpen => DriverError::DialogOpen {
                    kind: DialogKind::Unknown,
                    message: alert_text(&webdriver.data, &message),
                },
                _ => DriverError::Protocol(message),
            }
        }
        CmdError::Failed(error) => DriverError::BrowserGone {
            reason: format!("the WebDriver server is unreachable: {error}"),
        },
        CmdError::FailedC(error) => DriverError::BrowserGone {
            reason: format!("the WebDriver server is unreachable: {error}"),
        },
        CmdError::Lost(error) => DriverError::BrowserGone {
            reason: format!("the connection to the WebDriver server was lost: {error}"),
        },
        other => DriverError::Protocol(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn console_lines_read_as_the_page_logged_them() {
        assert_eq!(
            console_text(r#"http://127.0.0.1:4/console 3:14 "hello" 42"#),
            "hello 42"
        );
        assert_eq!(
            console_text("http://127.0.0.1:4/console 7:30 Uncaught Error: uncaught boom"),
            "Uncaught Error: uncaught boom"
        );
        assert_eq!(
            console_text(r#"http://x/ 1:1 "a \"quoted\" word""#),
            r#"a "quoted" word"#
        );
    }

    #[test]
    fn alert_text_comes_from_data_or_message() {
        assert_eq!(alert_text(&Some(json!({"text": "hi"})), "whatever"), "hi");
        assert_eq!(
            alert_text(
                &None,
                "unexpected alert open: {Alert text : Delete {all}?}\n  (Session info)"
            ),
            "Delete {all}?"
        );
        assert_eq!(alert_text(&None, "unexpected alert open"), "");
    }

    #[test]
    fn net_errors_are_picked_out() {
        assert_eq!(
            net_error("unknown error: net::ERR_CONNECTION_REFUSED\n  (Session info: chrome=156)")
                .as_deref(),
            Some("net::ERR_CONNECTION_REFUSED")
        );
        assert_eq!(net_error("unknown error: something else"), None);
    }
}
