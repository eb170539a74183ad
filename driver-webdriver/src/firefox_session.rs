//! [`FxSession`]: a [`Firefox`] as a `BrowserSession`, so that
//! driver-core's `SessionDriver` makes a `Driver` of it
//! ([`FirefoxDriver`]): issue 48's second part, begun.
//!
//! Everything goes over WebDriver BiDi: navigation
//! (`browsingContext.navigate`, `traverseHistory`, `reload`), scripts
//! (`script.evaluate`, in the page's realm or in a sandbox of tabwright's
//! own, which the page does not see, each frame a context of its own),
//! input (`input.performActions`, the same action sources as classic
//! WebDriver's, `actions.rs`), pictures (`browsingContext.captureScreenshot`),
//! tabs (top-level contexts), dialogs and console messages (events, heard
//! as they come). What BiDi has no word for (DevTools, the paint probe, the
//! accessibility tree, the network log, a screencast, page tools) the
//! capabilities say, and those calls answer `Unsupported`.

use std::sync::Arc;

use async_trait::async_trait;
use driver_core::backend::devtools::Event;
use driver_core::backend::supervisor::BoxFuture;
use driver_core::backend::BrowserSession;
use driver_core::{
    Capabilities, Capability, Click, ConsoleEntry, ConsoleLevel, Dialog, Download, DriverError,
    KeyPress, Navigation, Options, Request, Result, ScreenshotOptions, Tab, TabId, Viewport,
};
use serde_json::{json, Value};

use crate::actions;
use crate::firefox::Firefox;

/// A `Driver` over Firefox.
pub type FirefoxDriver = driver_core::backend::SessionDriver<FxSession>;

/// The sandbox tabwright's scripts run in, in every document.
pub(crate) const SANDBOX: &str = "tabwright";

/// The key a thrown error's message comes back under from `evaluate`'s
/// wrapper: a name no page value has by chance.
const THROWN: &str = "__tabwrightThrown";

/// How long a tab has to answer after a call ran out of time before it is
/// taken for one whose page still spins.
const RESPONSIVE_WITHIN: std::time::Duration = std::time::Duration::from_secs(1);

/// How long a script's answer may follow its document's navigation.
const OUTLIVED_AFTER: std::time::Duration = std::time::Duration::from_millis(500);

/// What Firefox answers a script for a tab whose page crashed: the tab
/// shows a page of the parent process instead.
const CRASHED: &str = "not supported for parent process browsing contexts";

/// One Firefox session: the browser, the tab calls go to, and what its
/// events said.
pub struct FxSession {
    pub(crate) firefox: Firefox,
    pub(crate) current: String,
    /// The viewport every tab is given (new ones too).
    viewport: Viewport,
    heard: Arc<parking_lot::Mutex<Heard>>,
}

/// What the browser's events said: the console, and the open dialog (by
/// the context it is in).
#[derive(Default)]
struct Heard {
    console: std::collections::VecDeque<ConsoleEntry>,
    dialog: Option<(String, Dialog)>,
    /// Dialogs opened so far: which one `dialog` is.
    dialogs: u64,
    /// Top-level contexts in the order they were made: the tabs' order.
    made: Vec<String>,
    /// Contexts whose document began to go away (a navigation), counted.
    navigations: u64,
}

impl Heard {
    fn hear(&mut self, event: &Event) {
        let params = &event.params;
        match event.method.as_str() {
            "log.entryAdded" => {
                let level = match (params["type"].as_str(), params["level"].as_str()) {
                    (Some("javascript"), _) => ConsoleLevel::PageError,
                    (_, Some("error")) => ConsoleLevel::Error,
                    (_, Some("warn")) => ConsoleLevel::Warning,
                    (_, Some("debug")) => ConsoleLevel::Debug,
                    _ => ConsoleLevel::Info,
                };
                if self.console.len() >= driver_core::backend::CONSOLE_LIMIT {
                    self.console.pop_front();
                }
                self.console.push_back(ConsoleEntry {
                    level,
                    text: driver_core::backend::console_text(
                        params["text"].as_str().unwrap_or_default().to_owned(),
                    )
                    .into(),
                    tab: TabId(
                        params["source"]["context"]
                            .as_str()
                            .unwrap_or_default()
                            .to_owned(),
                    ),
                });
            }
            "browsingContext.userPromptOpened" => {
                self.dialogs += 1;
                let kind = driver_core::backend::devtools::dialog_kind(params["type"].as_str());
                self.dialog = Some((
                    params["context"].as_str().unwrap_or_default().to_owned(),
                    Dialog {
                        kind,
                        message: params["message"].as_str().unwrap_or_default().into(),
                        default_prompt: params["defaultValue"].as_str().unwrap_or_default().into(),
                    },
                ));
            }
            "browsingContext.userPromptClosed" => self.dialog = None,
            "browsingContext.contextCreated" if params["parent"].is_null() => {
                if let Some(context) = params["context"].as_str() {
                    self.made.push(context.to_owned());
                }
            }
            "browsingContext.contextDestroyed" => {
                let gone = params["context"].as_str().unwrap_or_default();
                self.made.retain(|context| context != gone);
            }
            "browsingContext.navigationStarted" => self.navigations += 1,
            _ => {}
        }
    }
}

impl FxSession {
    /// A BiDi command's result.
    pub(crate) async fn call(&self, method: &str, params: Value) -> Result<Value> {
        self.firefox.call(method, params).await
    }

    /// `expression`'s JSON value in `context`, in the page's realm or the
    /// sandbox; a statement list (a `return`, a `throw`) is run as a
    /// function's body.
    pub(crate) async fn evaluate(
        &self,
        context: &str,
        sandbox: bool,
        expression: &str,
    ) -> Result<Value> {
        let mut target = json!({ "context": context });
        if sandbox {
            target["sandbox"] = json!(SANDBOX);
        }
        // The value as JSON text; what it throws as `{thrown: message}`
        // (Firefox cannot describe some exceptions itself).
        let wrapped = |body: String| {
            format!(
                "(async () => {{ let value; try {{ value = await (async () => {body})(); }} \
                 catch (error) {{ return JSON.stringify({{ {THROWN}: String(error && error.message !== undefined ? error.message : error) }}); }} \
                 const json = JSON.stringify(value); return json === undefined ? 'null' : json; }})()"
            )
        };
        let mut answer = self
            .outlived(
                context,
                self.call(
                    "script.evaluate",
                    json!({ "expression": wrapped(format!("(\n{expression}\n)")), "target": target,
                            "awaitPromise": true }),
                ),
            )
            .await;
        if threw_syntax(&answer) {
            answer = self
                .call(
                    "script.evaluate",
                    json!({ "expression": wrapped(format!("{{\n{expression}\n}}")), "target": target,
                            "awaitPromise": true }),
                )
                .await;
        }
        let answer = answer?;
        if answer["type"] == "exception" {
            let text = answer["exceptionDetails"]["text"]
                .as_str()
                .unwrap_or("the script threw");
            return Err(DriverError::Script {
                message: text.into(),
            });
        }
        let json = answer["result"]["value"].as_str().unwrap_or("null");
        let value: Value =
            serde_json::from_str(json).map_err(|error| DriverError::Protocol(error.to_string()))?;
        match value.get(THROWN).and_then(Value::as_str) {
            Some(message) if value.as_object().is_some_and(|object| object.len() == 1) => {
                Err(DriverError::Script {
                    message: message.into(),
                })
            }
            _ => Ok(value),
        }
    }

    /// What `call` (a script in `context`) answered, or, where the
    /// context's document goes away first and no answer follows soon,
    /// that it did (Firefox leaves a script whose realm went unanswered).
    async fn outlived(
        &self,
        context: &str,
        call: impl std::future::Future<Output = Result<Value>>,
    ) -> Result<Value> {
        let mut events = self.firefox.socket().events();
        let left = async {
            while let Some(event) = events.recv().await {
                if event.method == "browsingContext.navigationStarted"
                    && event.params["context"] == context
                {
                    tokio::time::sleep(OUTLIVED_AFTER).await;
                    return;
                }
            }
            std::future::pending::<()>().await;
        };
        tokio::select! {
            answer = call => answer,
            () = left => Err(DriverError::DocumentReplaced),
        }
    }

    /// Where the current tab is now, after a navigation.
    async fn navigated(&self) -> Result<Navigation> {
        let url = self
            .evaluate(&self.current, true, "location.href")
            .await?
            .as_str()
            .unwrap_or_default()
            .to_owned();
        let status = self
            .evaluate(&self.current, true, driver_core::DOCUMENT_STATUS)
            .await
            .ok()
            .and_then(|status| status.as_u64())
            .and_then(|status| u16::try_from(status).ok())
            .filter(|status| *status > 0);
        Ok(Navigation {
            status,
            url: url.into(),
        })
    }

    /// Runs input action sources in `context` (the current tab's or one of
    /// its frames'), then releases them.
    async fn act(&self, context: &str, sources: Vec<Value>) -> Result<()> {
        self.call(
            "input.performActions",
            json!({ "context": context, "actions": sources }),
        )
        .await?;
        self.call("input.releaseActions", json!({ "context": context }))
            .await?;
        Ok(())
    }

    /// The browser's top-level contexts (its tabs), in the order they
    /// were made.
    async fn top_contexts(&self) -> Result<Vec<String>> {
        let tree = self
            .call("browsingContext.getTree", json!({ "maxDepth": 0 }))
            .await?;
        let mut contexts: Vec<String> = tree["contexts"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|context| context["context"].as_str().map(str::to_owned))
            .collect();
        let made = self.heard.lock().made.clone();
        contexts.sort_by_key(|context| made.iter().position(|known| known == context));
        Ok(contexts)
    }

    /// A call's answer, where it found the current tab's page crashed
    /// (Firefox then shows a page of its own in place of the tab's, one of
    /// the parent process, where no script runs): as on Chrome, the tab is
    /// closed, another (or a new blank one) becomes current, and the call
    /// answers `TabCrashed`.
    async fn after_crash<T>(&mut self, answer: Result<T>) -> Result<T> {
        let Err(DriverError::Protocol(message)) = &answer else {
            return answer;
        };
        if !message.contains(CRASHED) {
            return answer;
        }
        let crashed = TabId(self.current.clone());
        let _ = self.close_tab(&crashed).await;
        Err(DriverError::TabCrashed { id: crashed.0 })
    }

    pub(crate) fn unsupported(feature: Capability, reason: &'static str) -> DriverError {
        DriverError::Unsupported {
            backend: BACKEND,
            feature,
            reason,
        }
    }
}

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

/// Whether an evaluation failed as a syntax error (a statement list asked
/// as an expression).
fn threw_syntax(answer: &Result<Value>) -> bool {
    answer.as_ref().is_ok_and(|answer| {
        answer["type"] == "exception"
            && answer["exceptionDetails"]["text"]
                .as_str()
                .is_some_and(|text| text.contains("SyntaxError"))
    })
}

/// This backend's name.
const BACKEND: &str = "firefox";

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

#[async_trait]
impl BrowserSession for FxSession {
    async fn start(options: Options) -> Result<Self> {
        let firefox = Firefox::start(&options).await?;
        let heard: Arc<parking_lot::Mutex<Heard>> = Arc::default();
        let hearing = Arc::clone(&heard);
        firefox
            .socket()
            .listen(Arc::new(move |_, event| hearing.lock().hear(event)));
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
                                   "browsingContext.contextDestroyed", "browsingContext.navigationStarted"] }),
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
                json!({ "functionDeclaration": crate::firefox_frames::HOOKS, "sandbox": SANDBOX }),
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
        let current = tree["contexts"][0]["context"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        Ok(Self {
            firefox,
            current,
            viewport: Viewport {
                width: options.width,
                height: options.height,
            },
            heard,
        })
    }

    fn capabilities(options: &Options, _session: Option<&Self>) -> Capabilities {
        let bidi = "WebDriver BiDi has no word for it (Firefox speaks no DevTools)";
        Capabilities::full(BACKEND)
            .without(Capability::DevTools, bidi)
            .without(Capability::PaintProbe, bidi)
            .without(
                Capability::PageTools,
                "Firefox offers no page tools (WebMCP)",
            )
            .without(Capability::Screencast, "Firefox has no screencast")
            .without(
                Capability::NetworkLog,
                "not yet kept from BiDi's network events",
            )
            .without(
                Capability::RequestTracking,
                "not yet kept from BiDi's network events",
            )
            .without(Capability::DownloadReports, "not yet heard from BiDi")
            .without(Capability::SharedBrowser, "one Firefox per session, as yet")
            .without(
                Capability::CountedWords,
                "the words CSS counts are read from Chromium's accessibility tree, which Firefox has not",
            )
            .without(
                Capability::StopScripts,
                "BiDi cannot stop a script, and a page process that spins holds up every BiDi command that reaches all tabs (a new tab's included): the browser is ended instead",
            )
            .as_asked(options)
    }

    fn gone(&mut self) -> Option<String> {
        self.firefox.socket().gone_reason()
    }

    /// The browser going away ends any call; with `needs_page`, so does a
    /// dialog the current tab opens (an action waits on it otherwise, as
    /// the page's script does).
    fn interruption(&mut self, needs_page: bool) -> BoxFuture<'static, DriverError> {
        let socket = self.firefox.socket().clone();
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
            DriverError::BrowserGone {
                reason: socket.gone_reason().unwrap_or_default(),
            }
        })
    }

    /// A page whose script still spins keeps every script out of its tab,
    /// and BiDi cannot stop it; nor can the tab be left for another: every
    /// command that reaches all tabs (a new tab's, a subscription) waits on
    /// the spinning process, and killing that process wedges the browser
    /// (checked with Firefox ESR 153). So a tab that does not answer within
    /// [`RESPONSIVE_WITHIN`] ends the session (`StopScripts` is unsupported).
    async fn recover(&mut self) -> bool {
        if !self.firefox.socket().is_open() {
            return false;
        }
        let answers = tokio::time::timeout(
            RESPONSIVE_WITHIN,
            self.evaluate(&self.current.clone(), true, "1"),
        )
        .await;
        matches!(answers, Ok(Ok(_)))
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
        let context = self.context_at(frame).await?;
        let answer = self.evaluate(&context, false, expression).await;
        if !frame.is_empty() {
            return answer;
        }
        self.after_crash(answer).await
    }

    async fn eval_isolated(&mut self, frame: &[u32], expression: &str) -> Result<Value> {
        let context = self.context_at(frame).await?;
        let answer = self.evaluate(&context, true, expression).await;
        if !frame.is_empty() {
            return answer;
        }
        self.after_crash(answer).await
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
                             "format": crate::firefox_pictures::image_format(options.format) }))
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

    async fn devtools(&mut self, _method: &str, _params: Value) -> Result<Value> {
        Err(Self::unsupported(
            Capability::DevTools,
            "WebDriver BiDi has no word for it (Firefox speaks no DevTools)",
        ))
    }

    async fn network_log(&mut self) -> Result<Vec<Request>> {
        Err(Self::unsupported(
            Capability::NetworkLog,
            "not yet kept from BiDi's network events",
        ))
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
        Ok(Vec::new())
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
