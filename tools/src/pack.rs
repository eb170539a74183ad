//! [`Pack`]: the tool pack's face: its tools, and one call at a time
//! dispatched to the tool (`actions`, `vision`), which reads the page back
//! (`after`).

use driver_core::{Driver, DriverError};
use guard::GuardedDriver;
use marks::Marks;
use serde_json::Value;
use tokio::sync::Mutex;

use crate::args::parse;
use crate::browser::Browser;
use crate::defs::{self, ToolDef};
use crate::error::ToolError;
use crate::options::{Group, PackOptions};
use crate::output::{Outcome, ToolOutput};
use crate::secrets::Secrets;
use crate::state::State;

/// The tool pack: a model's browser. See the crate docs.
pub struct Pack {
    browser: Browser,
    state: Mutex<State>,
    tools: Vec<ToolDef>,
}

impl Pack {
    /// A pack over a guarded browser (see `tabwright::browser`). The browser
    /// starts on the first call.
    pub fn new(driver: GuardedDriver, options: PackOptions) -> Self {
        let tools = tool_list(&options);
        Self {
            browser: Browser {
                driver,
                marks: Marks::new(),
                secrets: Secrets::new(&options.secrets),
                options,
            },
            state: Mutex::new(State::default()),
            tools,
        }
    }

    /// The browser under the pack.
    pub fn driver(&self) -> &GuardedDriver {
        &self.browser.driver
    }

    /// The tools this pack answers, in the order a model is shown them:
    /// the core tools of its mode, then those of each group it was given.
    pub fn tools(&self) -> &[ToolDef] {
        &self.tools
    }

    /// Runs one tool call. Never fails and never panics: every problem is an
    /// answer with `is_error` and a sentence saying what to do. Calls are
    /// served one at a time.
    pub async fn call(&self, name: &str, arguments: Value) -> ToolOutput {
        // A snapshot may be asked for with a larger budget of its own.
        let budget = arguments
            .get("max_tokens")
            .and_then(Value::as_u64)
            .map_or(0, |tokens| usize::try_from(tokens).unwrap_or(usize::MAX))
            .clamp(self.browser.options.budget_tokens, defs::MAX_TOKENS);
        let mut output = self.answer(name, arguments).await;
        // No secret leaves in an answer, whatever the page did with it.
        self.browser.secrets.scrub(&mut output.text);
        bound(&mut output.text, budget);
        if output.is_error {
            tracing::info!(tool = name, error = %output.text, "tool call failed");
        }
        output
    }

    async fn answer(&self, name: &str, arguments: Value) -> ToolOutput {
        let mut state = self.state.lock().await;
        let call = std::panic::AssertUnwindSafe(self.dispatch(&mut state, name, arguments));
        match futures_catch(call).await {
            Ok(Ok(output)) => output,
            Ok(Err(error)) => ToolOutput::error(&error),
            Err(panic) => {
                tracing::error!(tool = name, "a tool call panicked");
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
        let _ = self.browser.driver.close().await;
    }

    async fn dispatch(&self, state: &mut State, name: &str, arguments: Value) -> Outcome {
        let tool = self.find(name)?;
        self.refuse_under_dialog(state, tool).await?;
        let arguments = match arguments {
            Value::Null => Value::Object(Default::default()),
            other => other,
        };
        let browser = &self.browser;
        match (browser.options.vision, tool) {
            (_, "open") => browser.open(state, parse(tool, arguments)?).await,
            (_, "back" | "forward") => {
                parse::<defs::NoArgs>(tool, arguments)?;
                browser.history(state, tool).await
            }
            (_, "tabs") => browser.tabs(state, parse(tool, arguments)?).await,
            (_, "screenshot") => self.screenshot(state, parse(tool, arguments)?).await,
            (_, "wait_for") => browser.wait_for(state, parse(tool, arguments)?).await,
            (_, "console") => {
                parse::<defs::NoArgs>(tool, arguments)?;
                browser.console(state).await
            }
            (_, "dialog") => {
                let mut args: defs::DialogArgs = parse(tool, arguments)?;
                if let Some(text) = &args.text {
                    args.text = Some(browser.secrets.fill_in(tool, text)?);
                }
                browser.dialog(state, args).await
            }
            (_, "upload") => browser.upload(state, parse(tool, arguments)?).await,
            (_, "pdf") => browser.pdf(state, parse(tool, arguments)?).await,
            (_, "requests") => browser.requests(state, parse(tool, arguments)?).await,
            (_, "request") => browser.request(state, parse(tool, arguments)?).await,
            (_, "state_save") => browser.state_save(state, parse(tool, arguments)?).await,
            (_, "state_load") => browser.state_load(state, parse(tool, arguments)?).await,
            (_, "cookies") => {
                parse::<defs::NoArgs>(tool, arguments)?;
                browser.cookies(state).await
            }
            (_, "fill") => browser.fill(state, parse(tool, arguments)?).await,
            (_, "drag") => browser.drag(state, parse(tool, arguments)?).await,
            (_, "emulate") => browser.emulate(state, parse(tool, arguments)?).await,
            (_, "evaluate") => browser.evaluate(state, parse(tool, arguments)?).await,
            (_, "close") => {
                parse::<defs::NoArgs>(tool, arguments)?;
                browser.close(state).await
            }
            (_, "press") => browser.press(state, parse(tool, arguments)?).await,
            (false, "snapshot") => browser.snapshot(state, parse(tool, arguments)?).await,
            (false, "find") => browser.find_on_page(state, parse(tool, arguments)?).await,
            (false, "click") => browser.click(state, parse(tool, arguments)?).await,
            (false, "type") => browser.type_text(state, parse(tool, arguments)?).await,
            (false, "select") => browser.select(state, parse(tool, arguments)?).await,
            (false, "hover") => browser.hover(state, parse(tool, arguments)?).await,
            (false, "scroll") => browser.scroll(state, parse(tool, arguments)?).await,
            (true, "click") => browser.click_point(state, parse(tool, arguments)?).await,
            (true, "hover") => browser.hover_point(state, parse(tool, arguments)?).await,
            (true, "type") => browser.type_here(state, parse(tool, arguments)?).await,
            (true, "scroll") => browser.scroll_at(state, parse(tool, arguments)?).await,
            _ => Err(self.unknown(tool)),
        }
    }

    /// `screenshot`: of one element when the forms group is on and one is
    /// named, else as the core tool takes it.
    async fn screenshot(&self, state: &mut State, args: defs::ScreenshotArgs) -> Outcome {
        let forms = self.browser.options.groups.contains(&Group::Forms);
        match args.element {
            Some(_) if !forms => Err(ToolError::bad(
                "screenshot",
                "a picture of one element needs the forms tool group (start tabwright with --caps core,forms)",
            )),
            Some(number) => {
                if args.numbers || args.full_page || args.if_changed {
                    return Err(ToolError::bad(
                        "screenshot",
                        "with element, leave out numbers, full_page and if_changed",
                    ));
                }
                self.browser
                    .element_screenshot(number, args.format == Some(defs::ImageFormat::Jpeg))
                    .await
            }
            None => self.browser.screenshot(state, args).await,
        }
    }

    /// The tool called `name`, by its static name.
    fn find(&self, name: &str) -> Result<&'static str, ToolError> {
        self.tools()
            .iter()
            .find(|tool| tool.name == name)
            .map(|tool| tool.name)
            .ok_or_else(|| self.unknown(name))
    }

    fn unknown(&self, name: &str) -> ToolError {
        ToolError::UnknownTool {
            name: name.chars().take(100).collect(),
            known: self.tools().iter().map(|tool| tool.name).collect(),
        }
    }

    /// An action under an open dialog would not happen: say so, rather than
    /// report it done.
    async fn refuse_under_dialog(
        &self,
        state: &mut State,
        tool: &'static str,
    ) -> Result<(), ToolError> {
        if !state.dialog_open || matches!(tool, "dialog" | "tabs" | "console" | "close") {
            return Ok(());
        }
        match self.browser.driver.dialog().await? {
            Some(open) => Err(DriverError::DialogOpen {
                kind: open.kind,
                message: open.message,
            }
            .into()),
            None => {
                state.dialog_open = false;
                Ok(())
            }
        }
    }
}

/// The tools of a pack with these options: the core tools of its mode
/// (with `screenshot` of one element when the forms group is on), then
/// each group's, in the order the groups were given.
fn tool_list(options: &PackOptions) -> Vec<ToolDef> {
    let core = if options.vision {
        defs::vision_tools()
    } else {
        defs::text_tools()
    };
    let forms = options.groups.contains(&Group::Forms);
    let mut tools: Vec<ToolDef> = core
        .iter()
        .map(|tool| {
            if forms && tool.name == "screenshot" {
                defs::element_screenshot().clone()
            } else {
                tool.clone()
            }
        })
        .collect();
    let mut seen = Vec::new();
    for group in &options.groups {
        if seen.contains(group) {
            continue;
        }
        seen.push(*group);
        tools.extend(defs::group_tools(*group).iter().cloned());
    }
    tools
}

/// What an answer may hold beyond its snapshot's budget: the lines around
/// it (each page-controlled string in them cut), in characters.
const AROUND_THE_SNAPSHOT: usize = 8 * 1024;

/// Keeps an answer within the snapshot's budget (tokens counted as four
/// characters) and a margin for the lines around it, whatever a page put in
/// it; what is cut is said.
fn bound(text: &mut String, budget_tokens: usize) {
    let limit = budget_tokens * 4 + AROUND_THE_SNAPSHOT;
    if text.len() <= limit {
        return;
    }
    let at = (0..=limit)
        .rev()
        .find(|at| text.is_char_boundary(*at))
        .unwrap_or(0);
    text.truncate(at);
    text.push_str("\n(The answer was cut here: it was longer than an answer may be.)");
}

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
