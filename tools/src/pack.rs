//! [`Pack`]: its options, what a call answers, and the dispatch of a call to
//! its tool (the tools are in `actions`, reading the page back in `after`).

use std::collections::HashMap;
use std::time::Duration;

use driver_core::{ConsoleEntry, Driver, DriverError, ScreenshotFormat, TabId};
use guard::GuardedDriver;
use marks::{Marks, MarksError};
use serde::de::DeserializeOwned;
use serde_json::Value;
use tokio::sync::Mutex;

use crate::actions::{delta, direction_word, typed_line};
use crate::defs::{self, ToolDef};
use crate::error::ToolError;

/// How a [`Pack`] behaves. `PackOptions::default()` is the text mode most
/// models want.
#[derive(Debug, Clone)]
pub struct PackOptions {
    /// Vision mode: pointing tools answered with screenshots instead of
    /// snapshots. Default `false`.
    pub vision: bool,
    /// The most tokens (characters / 4) of snapshot text one answer carries;
    /// the rest is read in parts. Default 6,000: a screenful of a busy page
    /// fits with room to spare.
    pub budget_tokens: usize,
    /// The longest an action waits for the page to settle. Default 3 s; a
    /// page still busy then is read as it is, and the answer says so.
    pub settle_cap: Duration,
    /// How long the DOM must be still to count as settled. Default 40 ms:
    /// two to three frames.
    pub quiet: Duration,
    /// The encoding of vision-mode screenshots. Default JPEG at quality 60:
    /// about a tenth of a PNG's size, still legible.
    pub vision_format: ScreenshotFormat,
}

impl Default for PackOptions {
    fn default() -> Self {
        Self {
            vision: false,
            budget_tokens: 6_000,
            settle_cap: Duration::from_secs(3),
            quiet: Duration::from_millis(40),
            vision_format: ScreenshotFormat::Jpeg(60),
        }
    }
}

/// A picture in a tool's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    /// `image/png`, `image/jpeg` or `image/webp`.
    pub mime_type: &'static str,
    /// The encoded bytes.
    pub data: Vec<u8>,
}

impl Image {
    /// The bytes in base64, as MCP and most model APIs carry images.
    pub fn base64(&self) -> String {
        use base64::Engine;
        base64::engine::general_purpose::STANDARD.encode(&self.data)
    }
}

/// What a tool call answers: text for the model, maybe pictures, and whether
/// it failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolOutput {
    /// What the model reads.
    pub text: String,
    /// Screenshots, if the tool takes them.
    pub images: Vec<Image>,
    /// The call failed; `text` says why and what to do.
    pub is_error: bool,
}

impl ToolOutput {
    pub(crate) fn text(text: String) -> Self {
        Self {
            text,
            images: Vec::new(),
            is_error: false,
        }
    }

    fn error(error: &ToolError) -> Self {
        Self {
            text: error.for_model(),
            images: Vec::new(),
            is_error: true,
        }
    }
}

/// What the pack remembers between calls, to tell the model what changed.
#[derive(Debug, Default)]
pub(crate) struct State {
    /// Guard refusals already reported.
    pub(crate) refusals_seen: usize,
    /// Console entries not yet read with the `console` tool.
    pub(crate) console: Vec<ConsoleEntry>,
    /// The tabs after the previous call, oldest first.
    pub(crate) tabs: Vec<TabId>,
    /// The URL of the last page shown.
    pub(crate) url: Option<String>,
    /// HTTP statuses of the documents the pack navigated to, by URL.
    pub(crate) statuses: HashMap<String, u16>,
    /// A dialog was reported open and not yet answered.
    pub(crate) dialog_open: bool,
}

/// The tool pack: a model's browser. See the crate docs.
pub struct Pack {
    pub(crate) driver: GuardedDriver,
    pub(crate) marks: Marks,
    pub(crate) options: PackOptions,
    state: Mutex<State>,
}

pub(crate) type Outcome = Result<ToolOutput, ToolError>;

impl Pack {
    /// A pack over a guarded browser (see `tabwright::browser`). The browser
    /// starts on the first call.
    pub fn new(driver: GuardedDriver, options: PackOptions) -> Self {
        Self {
            driver,
            marks: Marks::new(),
            options,
            state: Mutex::new(State::default()),
        }
    }

    /// The browser under the pack.
    pub fn driver(&self) -> &GuardedDriver {
        &self.driver
    }

    /// The tools this pack answers, in the order a model is shown them.
    pub fn tools(&self) -> &'static [ToolDef] {
        if self.options.vision {
            defs::vision_tools()
        } else {
            defs::text_tools()
        }
    }

    /// Runs one tool call. Never fails and never panics: every problem is an
    /// answer with `is_error` and a sentence saying what to do. Calls are
    /// served one at a time.
    pub async fn call(&self, name: &str, arguments: Value) -> ToolOutput {
        let mut state = self.state.lock().await;
        let call = std::panic::AssertUnwindSafe(self.dispatch(&mut state, name, arguments));
        match futures_catch(call).await {
            Ok(Ok(output)) => output,
            Ok(Err(error)) => {
                tracing::info!(tool = name, %error, "tool call failed");
                ToolOutput::error(&error)
            }
            Err(panic) => {
                tracing::error!(tool = name, panic, "a tool call panicked");
                ToolOutput {
                    text: format!("The {name} call failed inside tabwright (a bug: {panic}); try again or take a snapshot."),
                    images: Vec::new(),
                    is_error: true,
                }
            }
        }
    }

    /// Closes the browser.
    pub async fn close(&self) {
        let _ = self.driver.close().await;
    }

    async fn dispatch(&self, state: &mut State, name: &str, arguments: Value) -> Outcome {
        let Some(tool) = self.tools().iter().find(|tool| tool.name == name) else {
            return Err(ToolError::UnknownTool {
                name: name.chars().take(100).collect(),
                known: self.tools().iter().map(|tool| tool.name).collect(),
            });
        };
        let tool = tool.name;
        // An action under an open dialog would not happen: say so, rather
        // than report it done.
        if state.dialog_open && !matches!(tool, "dialog" | "tabs" | "console" | "close") {
            match self.driver.dialog().await? {
                Some(open) => {
                    return Err(DriverError::DialogOpen {
                        kind: open.kind,
                        message: open.message,
                    }
                    .into())
                }
                None => state.dialog_open = false,
            }
        }
        let arguments = match arguments {
            Value::Null => Value::Object(Default::default()),
            other => other,
        };
        match (self.options.vision, tool) {
            (_, "open") => self.open(state, parse(tool, arguments)?).await,
            (_, "back") | (_, "forward") => {
                parse::<defs::NoArgs>(tool, arguments)?;
                self.history(state, tool).await
            }
            (_, "tabs") => self.tabs(state, parse(tool, arguments)?).await,
            (_, "screenshot") => self.screenshot(parse(tool, arguments)?).await,
            (_, "wait_for") => self.wait_for(state, parse(tool, arguments)?).await,
            (_, "console") => {
                parse::<defs::NoArgs>(tool, arguments)?;
                self.console(state).await
            }
            (_, "dialog") => self.dialog(state, parse(tool, arguments)?).await,
            (_, "close") => {
                parse::<defs::NoArgs>(tool, arguments)?;
                self.driver.close().await?;
                *state = State::default();
                Ok(ToolOutput::text(
                    "Closed the browser; the next call starts a fresh one.".to_owned(),
                ))
            }
            (_, "press") => self.press(state, parse(tool, arguments)?).await,
            (false, "snapshot") => self.snapshot(state, parse(tool, arguments)?).await,
            (false, "click") => self.click(state, parse(tool, arguments)?).await,
            (false, "type") => self.type_text(state, parse(tool, arguments)?).await,
            (false, "select") => self.select(state, parse(tool, arguments)?).await,
            (false, "hover") => self.hover(state, parse(tool, arguments)?).await,
            (false, "scroll") => self.scroll(state, parse(tool, arguments)?).await,
            (true, "click") => {
                let point: defs::PointArgs = parse(tool, arguments)?;
                self.on_screen(tool, point.x, point.y).await?;
                acted(self.driver.click_at(point.x, point.y).await)?;
                self.after(state, format!("Clicked at ({}, {}).", point.x, point.y))
                    .await
            }
            (true, "hover") => {
                let point: defs::PointArgs = parse(tool, arguments)?;
                self.on_screen(tool, point.x, point.y).await?;
                acted(self.driver.move_mouse(point.x, point.y).await)?;
                self.after(
                    state,
                    format!("Moved the mouse to ({}, {}).", point.x, point.y),
                )
                .await
            }
            (true, "type") => {
                let args: defs::TypeTextArgs = parse(tool, arguments)?;
                check_text_length(&args.text)?;
                self.type_focused(&args.text, args.submit).await?;
                self.after(state, typed_line(None, &args.text, args.submit))
                    .await
            }
            (true, "scroll") => {
                let args: defs::ScrollAtArgs = parse(tool, arguments)?;
                let viewport = self.driver.viewport().await?;
                let (x, y) = (
                    args.x.unwrap_or(f64::from(viewport.width) / 2.0),
                    args.y.unwrap_or(f64::from(viewport.height) / 2.0),
                );
                let (dx, dy) = delta(args.direction, args.pixels, viewport)?;
                self.on_screen(tool, x, y).await?;
                acted(self.driver.wheel(x, y, dx, dy).await)?;
                self.after(
                    state,
                    format!("Scrolled {}.", direction_word(args.direction)),
                )
                .await
            }
            _ => Err(ToolError::UnknownTool {
                name: tool.to_owned(),
                known: self.tools().iter().map(|tool| tool.name).collect(),
            }),
        }
    }
}

// ---- helpers -----------------------------------------------------------------

/// Runs a future, turning a panic into an `Err` with its message.
async fn futures_catch<F: std::future::Future>(
    future: std::panic::AssertUnwindSafe<F>,
) -> Result<F::Output, String> {
    use futures::FutureExt;
    future.catch_unwind().await.map_err(|panic| {
        panic
            .downcast_ref::<&str>()
            .map(|text| (*text).to_owned())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".to_owned())
    })
}

pub(crate) fn parse<T: DeserializeOwned>(
    tool: &'static str,
    arguments: Value,
) -> Result<T, ToolError> {
    if !arguments.is_object() {
        return Err(ToolError::bad(
            tool,
            format!(
                "the arguments must be a JSON object, not {}",
                kind_of(&arguments)
            ),
        ));
    }
    serde_json::from_value(arguments).map_err(|error| ToolError::bad(tool, error.to_string()))
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// An action that opened a dialog, or made the page close its own tab, did
/// happen: the answer reports the dialog, or the tab now current.
pub(crate) fn acted<E: Into<ToolError>>(result: Result<(), E>) -> Result<(), ToolError> {
    match result.map_err(Into::into) {
        Err(ToolError::Driver(DriverError::DialogOpen { .. } | DriverError::NoSuchTab { .. }))
        | Err(ToolError::Marks(MarksError::Driver(
            DriverError::DialogOpen { .. } | DriverError::NoSuchTab { .. },
        ))) => Ok(()),
        other => other,
    }
}

/// Typing is key events, about a millisecond each: a longer text would
/// outlast the call's timeout.
const MAX_TYPED: usize = 5_000;

pub(crate) fn check_text_length(text: &str) -> Result<(), ToolError> {
    let length = text.chars().count();
    if length > MAX_TYPED {
        return Err(ToolError::bad(
            "type",
            format!("the text is {length} characters; type at most {MAX_TYPED} at a time"),
        ));
    }
    Ok(())
}
