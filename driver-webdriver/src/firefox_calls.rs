//! [`FxSession`] as a `BrowserSession`: the entry of each call a
//! `FirefoxDriver` makes (navigation, scripts, input, pictures, tabs,
//! dialogs), its start, recovery and capabilities. What the calls stand on
//! is in `firefox_session.rs` (the session, scripts, events), frames and
//! input routing in `firefox_frames.rs`, pictures in `firefox_pictures.rs`.

use std::sync::Arc;

use async_trait::async_trait;
use driver_core::backend::supervisor::BoxFuture;
use driver_core::backend::BrowserSession;
use driver_core::{
    Capabilities, Capability, Click, ConsoleEntry, Dialog, Download, DriverError, FileChooser,
    KeyPress, Navigation, Options, Request, Result, ScreenshotOptions, Tab, TabId, Viewport,
};
use serde_json::{json, Value};

use crate::actions;
use crate::firefox::Firefox;
use crate::firefox_frames::HOOKS;
use crate::firefox_pictures::image_format;
use crate::firefox_session::{FxSession, Heard, BACKEND, SANDBOX};

/// The largest response body the network log keeps (encoded).
const BODY_LIMIT: u64 = 10_000_000;

/// How long a file chooser a click opens may take to be heard.
const CHOOSER_PATIENCE: std::time::Duration = std::time::Duration::from_millis(500);

/// How long a tab has to answer after a call ran out of time before it is
/// taken for one whose page still spins.
const RESPONSIVE_WITHIN: std::time::Duration = std::time::Duration::from_secs(1);

/// Firefox's network error in a navigation's failure (`NS_ERROR_…`), as
/// Chrome names it (`net::ERR_…`), which the tools' sentences know, with
/// Firefox's own name after it.
fn net_error(message: &str) -> String {
    let Some(start) = message.find("NS_ERROR_") else {
        return message.to_owned();
    };
    let name: String = message[start..]
        .chars()
        .take_while(|c| c.is_ascii_uppercase() || *c == '_' || c.is_ascii_digit())
        .collect();
    let chrome = match name.as_str() {
        "NS_ERROR_CONNECTION_REFUSED" => "net::ERR_CONNECTION_REFUSED",
        "NS_ERROR_UNKNOWN_HOST" => "net::ERR_NAME_NOT_RESOLVED",
        "NS_ERROR_NET_TIMEOUT" => "net::ERR_TIMED_OUT",
        "NS_ERROR_NET_RESET" => "net::ERR_CONNECTION_RESET",
        "NS_ERROR_NET_INTERRUPT" => "net::ERR_CONNECTION_CLOSED",
        "NS_ERROR_PROXY_CONNECTION_REFUSED" => "net::ERR_PROXY_CONNECTION_FAILED",
        "NS_ERROR_UNKNOWN_PROXY_HOST" => "net::ERR_PROXY_CONNECTION_FAILED",
        "NS_BINDING_ABORTED" => "net::ERR_ABORTED",
        _ => return name,
    };
    format!("{chrome} ({name})")
}

/// The page's `navigator.webdriver` reads `false`, as in a browser a
/// person runs (Firefox's remote agent makes it `true`, and no preference
/// turns that off any more): its getter becomes Firefox's own `Boolean`
/// bound to no argument, named and sized as the getter was, so it still
/// reads as native code. Run in the page's realm before any script of the
/// page's.
const NOT_AUTOMATED: &str =
    "try { const was = Object.getOwnPropertyDescriptor(Navigator.prototype, 'webdriver'); \
    if (was && was.get) { const get = Function.prototype.bind.call(Boolean, null); \
    Object.defineProperty(get, 'name', { value: was.get.name }); \
    Object.defineProperty(get, 'length', { value: was.get.length }); \
    Object.defineProperty(Navigator.prototype, 'webdriver', { get, set: undefined, \
    enumerable: was.enumerable, configurable: was.configurable }); } } catch (_) {}";

/// A preload for the sandbox that runs `source` once in each document:
/// at its start, as BiDi runs it, and again where Firefox keeps the window
/// (and so the realm and the sandbox) of a frame's first blank document
/// for the same-origin document that replaces it, where BiDi runs nothing:
/// there once the new document is parsed (its `readystatechange`, heard on
/// the window it keeps), the first moment the sandbox can reach it.
fn per_document(source: &str) -> String {
    format!(
        "() => {{ const once = () => {{ if (globalThis.__tabwrightDocument === document) return; \
         globalThis.__tabwrightDocument = document;\n{source}\n}}; \
         once(); window.addEventListener('readystatechange', once, true); }}"
    )
}

/// A start that failed on a command this Firefox does not know (an older
/// release, such as ESR 140, lacks some of BiDi that tabwright stands on:
/// refusing downloads, keeping response bodies), said as what to do about
/// it rather than as a call to try again.
fn too_old(error: DriverError) -> DriverError {
    match error {
        DriverError::Protocol(message) if message.contains("unknown command") => {
            let command = message.split(':').next().unwrap_or_default().trim();
            DriverError::Launch {
                reason: format!(
                    "this Firefox does not know the WebDriver BiDi command `{command}`, which tabwright needs; install Firefox ESR 153 or newer (Debian: apt-get update, then apt-get install firefox-esr)"
                ),
            }
        }
        error => error,
    }
}

/// What a session's Firefox is told before its first call (bodies kept
/// for a network log, downloads denied, the events heard, the preloads);
/// returns its tab.
async fn prepare(firefox: &Firefox, options: &Options) -> Result<String> {
    // With a network log, response bodies are kept for it (each up to
    // a cap), to be read as `Network.getResponseBody` reads them.
    if options.network_log {
        firefox
            .call(
                "network.addDataCollector",
                json!({ "dataTypes": ["response"], "maxEncodedDataSize": BODY_LIMIT }),
            )
            .await?;
    }
    // Where a tab's top-level documents may come from is judged before
    // each request leaves: every request is held, the rest let go at once.
    if options.pages_go.is_some() {
        firefox
            .call(
                "network.addIntercept",
                json!({ "phases": ["beforeRequestSent"] }),
            )
            .await?;
    }
    // No download lands: Firefox refuses every one.
    firefox
        .call(
            "browser.setDownloadBehavior",
            json!({ "downloadBehavior": { "type": "denied" } }),
        )
        .await?;
    firefox
        .call(
            "session.subscribe",
            json!({ "events": ["log.entryAdded", "browsingContext.userPromptOpened",
                               "browsingContext.userPromptClosed", "browsingContext.contextCreated",
                               "browsingContext.contextDestroyed", "browsingContext.navigationStarted",
                               "browsingContext.downloadWillBegin", "input.fileDialogOpened",
                               "network.beforeRequestSent",
                               "network.responseCompleted", "network.fetchError"] }),
        )
        .await?;
    firefox
        .call(
            "script.addPreloadScript",
            json!({ "functionDeclaration":
                    format!("() => {{\n{}\n{NOT_AUTOMATED}\n}}", driver_core::listeners_js()) }),
        )
        .await?;
    firefox
        .call(
            "script.addPreloadScript",
            json!({ "functionDeclaration": HOOKS, "sandbox": SANDBOX }),
        )
        .await?;
    if !options.preloads.is_empty() {
        firefox
            .call(
                "script.addPreloadScript",
                json!({ "functionDeclaration": per_document(&options.preloads.source()),
                        "sandbox": SANDBOX }),
            )
            .await?;
    }
    let tree = firefox
        .call("browsingContext.getTree", json!({ "maxDepth": 0 }))
        .await?;
    Ok(tree["contexts"][0]["context"]
        .as_str()
        .unwrap_or_default()
        .to_owned())
}

#[async_trait]
impl BrowserSession for FxSession {
    async fn start(options: Options) -> Result<Self> {
        let firefox = Firefox::start(&options).await?;
        let heard: Arc<parking_lot::Mutex<Heard>> = Arc::default();
        heard.lock().requests.keep = options.network_log;
        let hearing = Arc::clone(&heard);
        let pages_go = options.pages_go.clone();
        firefox.socket().listen(Arc::new(move |socket, event| {
            let mut heard = hearing.lock();
            heard.hear(event);
            let Some(gate) = &pages_go else {
                return;
            };
            if event.method != "network.beforeRequestSent" {
                return;
            }
            // Firefox leaves the page where it was: settling, which saw the
            // navigation begin, is told it brings no new page (as a download).
            if let Some(context) = heard.requests.judge(socket, gate, &event.params) {
                socket.send_soon(
                    None,
                    "script.evaluate",
                    json!({ "expression": "window[Symbol.for('tabwright.download')] = performance.now()",
                            "target": { "context": context, "sandbox": SANDBOX },
                            "awaitPromise": false }),
                );
            }
        }));
        // (A remote end's session ends only when asked to.)
        let current = match prepare(&firefox, &options).await {
            Ok(current) => current,
            Err(error) => {
                firefox.close().await;
                return Err(too_old(error));
            }
        };
        Ok(Self {
            firefox,
            current,
            viewport: Viewport {
                width: options.width,
                height: options.height,
            },
            heard,
            lost: None,
            nodes: Vec::new(),
        })
    }

    fn capabilities(options: &Options, _session: Option<&Self>) -> Capabilities {
        let bidi = "WebDriver BiDi has no word for it (Firefox speaks no DevTools)";
        let mut capabilities = Capabilities::full(BACKEND);
        if options.endpoint.is_some() {
            // The probe's sheet is the profile's own, which a Firefox
            // started at a remote end does not have.
            capabilities = capabilities.without(
                Capability::PaintProbe,
                "a Firefox at a remote end starts in a profile of its own, without the sheet the pictures need",
            );
        }
        capabilities
            .without(
                Capability::CompositedPictures,
                "BiDi's pictures are painted apart from Firefox's compositor, which alone draws backdrop filters and hides a backface turned away",
            )
            .without(Capability::DevTools, bidi)
            .without(
                Capability::PageTools,
                "Firefox offers no page tools (WebMCP)",
            )
            .without(Capability::Screencast, "Firefox has no screencast")
            .without(
                Capability::SharedBrowser,
                "each session has a Firefox of its own: in one Firefox shared by user contexts, a page that spins holds up every BiDi command that reaches all tabs, so one session's page would stall the others",
            )
            .without(
                Capability::CountedWords,
                "the words CSS counts are read from Chromium's accessibility tree, which Firefox has not (the page's counters are counted by tabwright's script instead, in the decimal, alphabetic and roman styles)",
            )
            .without(
                Capability::HtmlDrag,
                "Firefox's WebDriver input fires no HTML drag-and-drop events (w3c/webdriver#1488), so an element marked draggable cannot be picked up; a drag by mouse events (a slider, a canvas) works",
            )
            .without(
                Capability::StopScripts,
                "BiDi cannot stop a script, and a page process that spins holds up every BiDi command that reaches all tabs (a new tab's included): the browser is ended instead",
            )
            .as_asked(options)
    }

    fn gone(&mut self) -> Option<String> {
        self.lost.clone().or_else(|| self.firefox.gone_reason())
    }

    /// The browser going away ends any call; with `needs_page`, so does a
    /// dialog the current tab opens (an action waits on it otherwise, as
    /// the page's script does).
    fn interruption(&mut self, needs_page: bool) -> BoxFuture<'static, DriverError> {
        let socket = self.firefox.socket().clone();
        let remote = self.firefox.remote().is_some();
        let mut events = socket.events();
        let (heard, current) = (Arc::clone(&self.heard), self.current.clone());
        Box::pin(async move {
            let open = |heard: &Heard| {
                heard
                    .dialog
                    .as_ref()
                    .filter(|(context, _)| needs_page && *context == current)
                    .map(|(_, dialog)| DriverError::DialogOpen {
                        kind: dialog.kind,
                        message: dialog.message.clone(),
                    })
            };
            if let Some(error) = open(&heard.lock()) {
                return error;
            }
            while events.recv().await.is_some() {
                if let Some(error) = open(&heard.lock()) {
                    return error;
                }
            }
            let reason = socket.gone_reason().unwrap_or_default();
            DriverError::BrowserGone {
                reason: if remote {
                    crate::firefox_remote::lost(&reason)
                } else {
                    reason
                },
            }
        })
    }

    /// A page whose script still spins keeps every script out of its tab,
    /// and BiDi cannot stop it; nor can the tab be left for another: every
    /// command that reaches all tabs (a new tab's, a subscription) waits on
    /// the spinning process, and killing that process wedges the browser
    /// (checked with Firefox ESR 153). So a tab that does not answer within
    /// a second ends the session (`StopScripts` is unsupported). A remote
    /// end is asked whether it still has the session: a Grid whose node
    /// died keeps the socket to it open, and says so only when asked.
    async fn recover(&mut self) -> bool {
        if !self.firefox.socket().is_open() {
            return false;
        }
        let answers = tokio::time::timeout(
            RESPONSIVE_WITHIN,
            self.evaluate(&self.current.clone(), true, "1"),
        )
        .await;
        if matches!(answers, Ok(Ok(_))) {
            return true;
        }
        if let Some(remote) = self.firefox.remote() {
            self.lost = remote.lost().await;
        }
        false
    }

    async fn shutdown(self) {
        self.firefox.close().await;
    }

    async fn navigate(&mut self, url: &str) -> Result<Navigation> {
        self.call(
            "browsingContext.navigate",
            json!({ "context": self.current, "url": url, "wait": "complete" }),
        )
        .await
        .map_err(|error| match error {
            DriverError::Protocol(message) => DriverError::NavigationFailed {
                url: url.into(),
                net_error: net_error(&message),
            },
            other => other,
        })?;
        self.navigated().await
    }

    async fn history(&mut self, delta: i32) -> Result<Navigation> {
        self.call(
            "browsingContext.traverseHistory",
            json!({ "context": self.current, "delta": delta }),
        )
        .await
        .map_err(|_| DriverError::NoHistory {
            direction: if delta < 0 { "earlier" } else { "later" },
        })?;
        let navigation = self.navigated().await?;
        // Firefox keeps the blank page a tab began with as an entry; it is
        // no page of the tab's history.
        if delta < 0 && navigation.url == "about:blank" {
            let _ = self
                .call(
                    "browsingContext.traverseHistory",
                    json!({ "context": self.current, "delta": -delta }),
                )
                .await;
            return Err(DriverError::NoHistory {
                direction: "earlier",
            });
        }
        Ok(navigation)
    }

    async fn reload(&mut self) -> Result<Navigation> {
        self.call(
            "browsingContext.reload",
            json!({ "context": self.current, "wait": "complete" }),
        )
        .await?;
        self.navigated().await
    }

    async fn eval(&mut self, expression: &str) -> Result<Value> {
        let answer = self
            .evaluate(&self.current.clone(), false, expression)
            .await;
        self.after_crash(answer).await
    }

    async fn eval_in_frame(&mut self, frame: &[u32], expression: &str) -> Result<Value> {
        self.eval_at(frame, false, expression).await
    }

    async fn eval_isolated(&mut self, frame: &[u32], expression: &str) -> Result<Value> {
        self.eval_at(frame, true, expression).await
    }

    async fn click(&mut self, x: f64, y: f64, click: Click) -> Result<()> {
        let (context, x, y) = self.at_point(x, y).await?;
        self.act(&context, actions::click(x, y, click)).await
    }

    async fn move_mouse(&mut self, x: f64, y: f64) -> Result<()> {
        let (context, x, y) = self.at_point(x, y).await?;
        self.call(
            "input.performActions",
            json!({ "context": context, "actions": [actions::mouse(x, y, &[])] }),
        )
        .await
        .map(|_| ())
    }

    async fn wheel(&mut self, x: f64, y: f64, dx: f64, dy: f64) -> Result<()> {
        let (context, x, y) = self.at_point(x, y).await?;
        self.act(&context, vec![actions::wheel(x, y, dx, dy)]).await
    }

    async fn type_text(&mut self, text: &str) -> Result<()> {
        let Some(keys) = actions::typed(text) else {
            return Ok(());
        };
        let context = self.focused().await?;
        self.act(&context, vec![keys]).await
    }

    async fn press(&mut self, key: KeyPress) -> Result<()> {
        let context = self.focused().await?;
        self.act(&context, vec![actions::key(key)]).await
    }

    async fn screenshot(&mut self, options: ScreenshotOptions) -> Result<Vec<u8>> {
        if options.full_page {
            return self.full_page(options.format).await;
        }
        self.capture(json!({ "context": self.current, "origin": "viewport",
                             "format": image_format(options.format) }))
            .await
    }

    async fn set_viewport(&mut self, viewport: Viewport) -> Result<()> {
        self.firefox
            .viewport(&self.current, viewport.width, viewport.height)
            .await?;
        self.viewport = viewport;
        Ok(())
    }

    async fn hand_over(&mut self, handover: &driver_core::Handover) -> Result<Value> {
        self.handover(handover).await
    }

    async fn paint_probe(
        &mut self,
        probe: &driver_core::PaintProbe,
    ) -> Result<driver_core::PaintPictures> {
        self.probe(probe).await
    }

    const DEVTOOLS_IN_OWN_WORDS: &'static [&'static str] = crate::firefox_devtools::IN_BIDI;

    /// File choosers are heard as BiDi's `input.fileDialogOpened`, which
    /// names the field (one a script made and never put in the document
    /// too); the page sees nothing.
    async fn catch_file_choosers(&mut self, on: bool) -> Result<()> {
        let mut heard = self.heard.lock();
        heard.catching_choosers = on;
        heard.chooser = None;
        Ok(())
    }

    /// The chooser caught in the current tab (or one of its frames), waited
    /// for half a second at most.
    async fn take_file_chooser(&mut self) -> Result<Option<FileChooser>> {
        let deadline = tokio::time::Instant::now() + CHOOSER_PATIENCE;
        loop {
            let caught = self.heard.lock().chooser.take();
            if let Some((context, field, multiple)) = caught {
                return Ok(Some(FileChooser {
                    backend_node_id: self.node_id(&context, &field),
                    multiple,
                }));
            }
            if tokio::time::Instant::now() >= deadline {
                return Ok(None);
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }

    /// The DevTools commands the tool pack's groups send, in BiDi's words
    /// (`firefox_devtools.rs`); no other.
    async fn devtools(&mut self, method: &str, params: Value) -> Result<Value> {
        self.as_devtools(method, params).await
    }

    async fn network_log(&mut self) -> Result<Vec<Request>> {
        Ok(self.heard.lock().requests.log(&self.current))
    }

    async fn requests_in_flight(&mut self) -> Result<Option<usize>> {
        Ok(Some(self.heard.lock().requests.in_flight(&self.current)))
    }

    async fn current_tab(&mut self) -> Result<TabId> {
        Ok(TabId(self.current.clone()))
    }

    async fn tabs(&mut self) -> Result<Vec<Tab>> {
        let mut tabs = Vec::new();
        for context in self.top_contexts().await? {
            let read = self
                .evaluate(
                    &context,
                    true,
                    "({title: document.title, url: location.href})",
                )
                .await
                .unwrap_or_default();
            tabs.push(Tab {
                current: context == self.current,
                id: TabId(context),
                title: read["title"].as_str().unwrap_or_default().into(),
                url: read["url"].as_str().unwrap_or_default().into(),
            });
        }
        Ok(tabs)
    }

    async fn open_tab(&mut self) -> Result<TabId> {
        let made = self
            .call("browsingContext.create", json!({ "type": "tab" }))
            .await?;
        let context = made["context"].as_str().unwrap_or_default().to_owned();
        self.firefox
            .viewport(&context, self.viewport.width, self.viewport.height)
            .await?;
        self.current = context.clone();
        Ok(TabId(context))
    }

    async fn switch_tab(&mut self, id: &TabId) -> Result<()> {
        if !self.top_contexts().await?.contains(&id.0) {
            return Err(DriverError::NoSuchTab { id: id.0.clone() });
        }
        self.call("browsingContext.activate", json!({ "context": id.0 }))
            .await?;
        self.current = id.0.clone();
        Ok(())
    }

    async fn close_tab(&mut self, id: &TabId) -> Result<()> {
        let open = self.top_contexts().await?;
        if !open.contains(&id.0) {
            return Err(DriverError::NoSuchTab { id: id.0.clone() });
        }
        // The last tab gives way to a blank one first (Firefox keeps its
        // last tab open).
        if open.len() == 1 {
            self.open_tab().await?;
        } else if id.0 == self.current {
            if let Some(other) = open.iter().find(|context| **context != id.0) {
                self.current = other.clone();
            }
        }
        self.call("browsingContext.close", json!({ "context": id.0 }))
            .await?;
        Ok(())
    }

    async fn console(&mut self) -> Result<Vec<ConsoleEntry>> {
        Ok(std::mem::take(&mut self.heard.lock().console).into())
    }

    async fn downloads(&mut self) -> Result<Vec<Download>> {
        Ok(std::mem::take(&mut self.heard.lock().downloads))
    }

    async fn dialog(&mut self) -> Result<Option<Dialog>> {
        let heard = self.heard.lock();
        Ok(heard
            .dialog
            .as_ref()
            .filter(|(context, _)| *context == self.current)
            .map(|(_, dialog)| dialog.clone()))
    }

    async fn answer_dialog(&mut self, accept: bool, prompt_text: Option<&str>) -> Result<()> {
        let (Some((context, _)), answered) = ({
            let heard = self.heard.lock();
            (heard.dialog.clone(), heard.dialogs)
        }) else {
            return Err(DriverError::NoDialog);
        };
        let mut params = json!({ "context": context, "accept": accept });
        if let Some(text) = prompt_text {
            params["userText"] = json!(text);
        }
        self.call("browsingContext.handleUserPrompt", params)
            .await?;
        // Forgotten unless the page opened another meanwhile (one alert
        // after another: the next may be heard before this answer).
        let mut heard = self.heard.lock();
        if heard.dialogs == answered {
            heard.dialog = None;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_an_older_firefox_lacks_says_what_to_install() {
        let said = too_old(DriverError::Protocol(
            "browser.setDownloadBehavior: unknown command: browser.setDownloadBehavior".into(),
        ))
        .to_string();
        assert!(said.contains("`browser.setDownloadBehavior`"), "{said}");
        assert!(said.contains("Firefox ESR 153 or newer"), "{said}");
        let other = too_old(DriverError::Protocol("no such frame".into())).to_string();
        assert_eq!(other, "protocol error: no such frame");
    }
}
