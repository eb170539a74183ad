//! [`FxSession`]: one Firefox session, what its calls stand on: the
//! browser, the current tab, what its events said ([`Heard`]: console,
//! dialogs, tabs' order), and scripts over WebDriver BiDi (`script.evaluate`,
//! in the page's realm or in a sandbox of tabwright's own, which the page
//! does not see, each frame a context of its own). The calls themselves,
//! as a `BrowserSession` (so driver-core's `SessionDriver` makes
//! [`FirefoxDriver`] of it), are in `firefox_calls.rs`; frames and input
//! routing in `firefox_frames.rs`; pictures in `firefox_pictures.rs`.

use std::sync::Arc;

use driver_core::backend::devtools::Event;
use driver_core::backend::BrowserSession;
use driver_core::backend::CONSOLE_LIMIT;
use driver_core::{
    Capability, ConsoleEntry, ConsoleLevel, Dialog, Download, DownloadOutcome, DriverError,
    Navigation, Result, TabId, Viewport,
};
use serde_json::{json, Value};

use crate::firefox::Firefox;
use crate::firefox_network::Requests;

/// A `Driver` over Firefox.
pub type FirefoxDriver = driver_core::backend::SessionDriver<FxSession>;

/// The sandbox tabwright's scripts run in, in every document.
pub(crate) const SANDBOX: &str = "tabwright";

/// The key a thrown error's message comes back under from `evaluate`'s
/// wrapper: a name no page value has by chance.
const THROWN: &str = "__tabwrightThrown";

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
    pub(crate) viewport: Viewport,
    pub(crate) heard: Arc<parking_lot::Mutex<Heard>>,
    /// Why the remote end lost the session, once it said so.
    pub(crate) lost: Option<String>,
    /// The nodes DevTools node ids stand for (`firefox_devtools.rs`): the
    /// context each is in and its shared reference, kept until the next
    /// document query.
    pub(crate) nodes: Vec<(String, String)>,
}

/// What the browser's events said: the console, and the open dialog (by
/// the context it is in).
#[derive(Default)]
pub(crate) struct Heard {
    pub(crate) console: std::collections::VecDeque<ConsoleEntry>,
    pub(crate) dialog: Option<(String, Dialog)>,
    /// Downloads pages began since they were last asked for (each refused).
    pub(crate) downloads: Vec<Download>,
    /// Dialogs opened so far: which one `dialog` is.
    pub(crate) dialogs: u64,
    /// Top-level contexts in the order they were made: the tabs' order.
    pub(crate) made: Vec<String>,
    /// Contexts whose document began to go away (a navigation), counted.
    pub(crate) navigations: u64,
    /// The pages' requests: fetches in flight, each tab's log.
    pub(crate) requests: Requests,
    /// Whether file choosers are caught, and the one caught: its context,
    /// its field's shared reference, whether it takes many files.
    pub(crate) catching_choosers: bool,
    pub(crate) chooser: Option<(String, String, bool)>,
}

impl Heard {
    pub(crate) fn hear(&mut self, event: &Event) {
        let params = &event.params;
        self.requests.hear(&event.method, params);
        match event.method.as_str() {
            "log.entryAdded" => {
                let level = match (params["type"].as_str(), params["level"].as_str()) {
                    (Some("javascript"), _) => ConsoleLevel::PageError,
                    (_, Some("error")) => ConsoleLevel::Error,
                    (_, Some("warn")) => ConsoleLevel::Warning,
                    (_, Some("debug")) => ConsoleLevel::Debug,
                    _ => ConsoleLevel::Info,
                };
                if self.console.len() >= CONSOLE_LIMIT {
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
            // Every download is denied (`browser.setDownloadBehavior`):
            // one a page begins is reported refused.
            "browsingContext.downloadWillBegin" if self.downloads.len() < CONSOLE_LIMIT => {
                self.downloads.push(Download {
                    url: params["url"].as_str().unwrap_or_default().into(),
                    filename: params["suggestedFilename"]
                        .as_str()
                        .unwrap_or_default()
                        .into(),
                    outcome: DownloadOutcome::Refused,
                });
            }
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
            "input.fileDialogOpened" if self.catching_choosers => {
                if let (Some(context), Some(field)) = (
                    params["context"].as_str(),
                    params["element"]["sharedId"].as_str(),
                ) {
                    self.chooser = Some((
                        context.to_owned(),
                        field.to_owned(),
                        params["multiple"].as_bool().unwrap_or(false),
                    ));
                }
            }
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
        // The value as JSON text; what it throws as `{thrown: message}`,
        // an error's name first as Chrome says it (Firefox cannot describe
        // some exceptions itself).
        let wrapped = |body: String| {
            format!(
                "(async () => {{ let value; try {{ value = await (async () => {body})(); }} \
                 catch (error) {{ return JSON.stringify({{ {THROWN}: String(error && error.message !== undefined ? (error.name ? error.name + ': ' : '') + error.message : error) }}); }} \
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
        unless_thrown(&answer, "the script threw")?;
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
    pub(crate) async fn outlived(
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
    pub(crate) async fn navigated(&self) -> Result<Navigation> {
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
    pub(crate) async fn act(&self, context: &str, sources: Vec<Value>) -> Result<()> {
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
    pub(crate) async fn top_contexts(&self) -> Result<Vec<String>> {
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

    /// `expression` in the frame at `path` (its page's realm, or the
    /// sandbox), a crash of the tab's own page answered as one.
    pub(crate) async fn eval_at(
        &mut self,
        path: &[u32],
        sandbox: bool,
        expression: &str,
    ) -> Result<Value> {
        let context = self.context_at(path).await?;
        let answer = self.evaluate(&context, sandbox, expression).await;
        if !path.is_empty() {
            return answer;
        }
        self.after_crash(answer).await
    }

    /// A call's answer, where it found the current tab's page crashed
    /// (Firefox then shows a page of its own in place of the tab's, one of
    /// the parent process, where no script runs): as on Chrome, the tab is
    /// closed, another (or a new blank one) becomes current, and the call
    /// answers `TabCrashed`.
    pub(crate) async fn after_crash<T>(&mut self, answer: Result<T>) -> Result<T> {
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

/// A script's answer that threw, as the error it is (`otherwise` where
/// Firefox gives no text).
pub(crate) fn unless_thrown(answer: &Value, otherwise: &str) -> Result<()> {
    if answer["type"] != "exception" {
        return Ok(());
    }
    Err(DriverError::Script {
        message: answer["exceptionDetails"]["text"]
            .as_str()
            .unwrap_or(otherwise)
            .into(),
    })
}

/// This backend's name.
pub(crate) const BACKEND: &str = "firefox";
