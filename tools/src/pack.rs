//! [`Pack`]: the tool pack's face: its tools, and one call at a time
//! dispatched to the tool (`actions`, `vision`), which reads the page back
//! (`after`).

use driver_core::{Driver, DriverError};
use guard::GuardedDriver;
use marks::Marks;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::Value;
use tokio::sync::Mutex;

use crate::arguments::MAX_TOKENS;
use crate::browser::Browser;
use crate::error::ToolError;
use crate::options::PackOptions;
use crate::output::{Outcome, ToolOutput};
use crate::secrets::Secrets;
use crate::short::{self, ShortCall};
use crate::state::State;
use crate::table::offered;
use crate::tool::{Handler, Tool, ToolDef};

/// What a traced call notes before it runs.
struct Traced {
    arguments: Value,
    started: std::time::Instant,
    at: std::time::SystemTime,
    refusals: u64,
    console: u64,
}

/// Marks a call as the one holding the pack's state, until dropped.
struct Serving<'a>(&'a AtomicU64);

impl<'a> Serving<'a> {
    fn start(serving: &'a AtomicU64, id: u64) -> Self {
        serving.store(id, Ordering::Release);
        Self(serving)
    }
}

impl Drop for Serving<'_> {
    fn drop(&mut self) {
        self.0.store(0, Ordering::Release);
    }
}

/// The tool pack: a model's browser. See the crate docs.
pub struct Pack {
    pub(crate) browser: Browser,
    state: Mutex<State>,
    /// The tools it offers, from the tool table.
    pub(crate) tools: Vec<&'static Tool>,
    /// What a model is told of them.
    defs: Vec<ToolDef>,
    /// Numbers the calls, so a cancellation reaches only its own call.
    calls: AtomicU64,
    /// The number of the call that holds the state (0: none).
    serving: AtomicU64,
    /// The session's trace, when one is kept.
    trace: Option<crate::trace::Trace>,
    /// How many calls were traced or watched.
    steps: AtomicU64,
    /// The session's memory as last read, and when.
    memory: std::sync::Mutex<Option<(std::time::Instant, driver_core::Memory)>>,
    /// Where the last call's time went.
    phases: std::sync::Mutex<Option<crate::phases::Phases>>,
}

/// How often at most the session's memory is read after a page loads:
/// reading it costs a few milliseconds of `/proc` (and, in a browser many
/// sessions share, a trace when a tab moved to another site), which busy
/// sessions felt when every page paid it.
const WEIGH_EVERY: std::time::Duration = std::time::Duration::from_secs(10);

impl Pack {
    /// A pack over a guarded browser (see `tabwright::browser`). The browser
    /// starts on the first call.
    pub fn new(driver: GuardedDriver, mut options: PackOptions) -> Self {
        options.task_origins |= driver.guard().policy().task.is_set();
        let tools = offered(&options);
        let defs = tools.iter().map(|tool| tool.def(options.vision)).collect();
        let trace = options.trace_dir.as_deref().and_then(|root| {
            crate::trace::Trace::create(root)
                .inspect_err(|error| {
                    tracing::warn!(%error, root = %root.display(), "no trace can be written");
                })
                .ok()
        });
        // Before the browser starts: its tabs then have the page scripts
        // from their first document on.
        Marks::preload(&driver);
        crate::settle::preload(&driver);
        Self {
            browser: Browser {
                driver,
                marks: Marks::new().with_settle_record(crate::settle::record_key()),
                secrets: Secrets::new(&options.secrets),
                typed_by_person: Default::default(),
                downloads: std::sync::Mutex::new(driver_core::Journal::new(
                    crate::browser::DOWNLOADS_KEPT,
                )),
                person_scrubber: Default::default(),
                ended: Default::default(),
                close_ends: Default::default(),
                options,
            },
            state: Mutex::new(State::default()),
            tools,
            defs,
            calls: AtomicU64::new(0),
            serving: AtomicU64::new(0),
            trace,
            steps: AtomicU64::new(0),
            memory: std::sync::Mutex::new(None),
            phases: std::sync::Mutex::new(None),
        }
    }

    /// The browser under the pack.
    pub fn driver(&self) -> &GuardedDriver {
        &self.browser.driver
    }

    /// The tools this pack answers, in the order a model is shown them:
    /// the core tools of its mode, then those of each group it was given.
    pub fn tools(&self) -> &[ToolDef] {
        &self.defs
    }

    /// Runs one tool call. Never fails and never panics: every problem is an
    /// answer with `is_error` and a sentence saying what to do. Calls are
    /// served one at a time.
    pub async fn call(&self, name: &str, arguments: Value) -> ToolOutput {
        self.call_until(name, arguments, std::future::pending())
            .await
    }

    /// [`call`](Self::call), given up when `cancelled` resolves first: what
    /// the call was doing in the page is stopped (as its timeout would) and
    /// the pack is free for the next call at once, which finds the page
    /// usable. The answer then says the call was cancelled.
    pub async fn call_until(
        &self,
        name: &str,
        arguments: Value,
        cancelled: impl Future<Output = ()>,
    ) -> ToolOutput {
        let id = self.calls.fetch_add(1, Ordering::Relaxed) + 1;
        let call = self.call_numbered(id, name, arguments);
        tokio::pin!(call);
        tokio::select! {
            output = &mut call => return output,
            () = cancelled => {}
        }
        tracing::info!(tool = name, "tool call cancelled");
        // Only the call that holds the state is acting on the browser; one
        // still waiting for its turn just goes.
        if self.serving.load(Ordering::Acquire) == id {
            self.stop(call).await;
        }
        ToolOutput {
            text: "Stopped: the call was cancelled before it finished. Take a snapshot to see where the page is.".to_owned(),
            images: Vec::new(),
            is_error: true,
        }
    }

    /// Stops a call under way: it is polled on while its driver call ends
    /// and the page is stopped (the driver's recovery, never cut short);
    /// then it is dropped wherever it is.
    pub(crate) async fn stop<F: Future + ?Sized>(&self, call: std::pin::Pin<&mut F>) {
        let mut call = call;
        let stopped = self.browser.driver.cancel();
        tokio::pin!(stopped);
        let finished = tokio::select! {
            _ = &mut call => false,
            () = &mut stopped => true,
        };
        if !finished {
            stopped.await;
        }
    }

    /// While a person has the session, the model waits for the handoff's
    /// answer, and is told so at once rather than queued behind it.
    pub(crate) fn handed_over(&self, name: &str) -> Option<ToolOutput> {
        let (reason, left) = self.browser.options.watch.as_ref()?.handoff()?;
        let during = self.find(name).is_ok_and(|tool| tool.during_handoff);
        (!during).then(|| ToolOutput {
            text: format!(
                "A person has this session now (the handoff: {:?}, {} s left at most): wait for the handoff call's answer, then go on.",
                reason.chars().take(200).collect::<String>(),
                left.as_secs()
            ),
            images: Vec::new(),
            is_error: true,
        })
    }

    async fn call_numbered(&self, id: u64, name: &str, arguments: Value) -> ToolOutput {
        if let Some(refused) = self.handed_over(name) {
            return refused;
        }
        // A snapshot may be asked for with a larger budget of its own.
        let budget = arguments
            .get("max_tokens")
            .and_then(Value::as_u64)
            .map_or(0, |tokens| usize::try_from(tokens).unwrap_or(usize::MAX))
            .clamp(self.browser.options.budget_tokens, MAX_TOKENS);
        let mut output = self.answer(id, name, arguments).await;
        // No secret leaves in an answer, whatever the page did with it,
        // nor what a person typed during a handoff.
        self.browser.scrub(&mut output.text);
        bound(&mut output.text, budget);
        if output.is_error {
            tracing::info!(tool = name, error = %output.text, "tool call failed");
        }
        output
    }

    async fn answer(&self, id: u64, name: &str, arguments: Value) -> ToolOutput {
        let mut state = self.state.lock().await;
        // A call that waited behind the one that ended the session makes
        // nothing: no browser starts for a session nobody holds.
        if self.browser.ended.load(Ordering::Acquire) {
            return ToolOutput {
                text: "This browser session is closed (closed, or ended by the server); call open without a session to start a new one.".to_owned(),
                images: Vec::new(),
                is_error: true,
            };
        }
        let _serving = Serving::start(&self.serving, id);
        self.answer_in(&mut state, name, arguments).await
    }

    /// Answers a call with the state held: a call of the model's, or one a
    /// script makes (each traced as a step of its own).
    pub(crate) fn answer_in<'a>(
        &'a self,
        state: &'a mut State,
        name: &'a str,
        arguments: Value,
    ) -> std::pin::Pin<Box<dyn Future<Output = ToolOutput> + Send + 'a>> {
        Box::pin(self.answer_held(state, name, arguments))
    }

    async fn answer_held(&self, state: &mut State, name: &str, arguments: Value) -> ToolOutput {
        // Each answer's page content is fenced with a code of its own.
        state.fence = marks::Fence::new();
        state.phases = Default::default();
        let started = std::time::Instant::now();
        state.call_started = started;
        state.refusals_at_call = self.browser.driver.guard().refusals().next_seq();
        state.tabs_at_call = state.tabs.clone();
        let watched = self.trace.is_some() || self.browser.options.watch.is_some();
        let traced = watched.then(|| Traced {
            arguments: crate::trace::bounded(&arguments, 0),
            started: std::time::Instant::now(),
            at: std::time::SystemTime::now(),
            refusals: state.refusals_at_call,
            console: state.console.next_seq(),
        });
        let tool = self.find(name).ok();
        let mut output = match tool.map(|tool| tool.takes.handler) {
            Some(Handler::Pack(handler)) => handler(self, state, arguments).await,
            _ => self.answered(state, name, arguments).await,
        };
        // (After a page loads, a grown renderer is renewed.)
        if tool.is_some_and(|tool| tool.loads_pages) {
            self.weigh(&mut output).await;
        }
        if tool.is_some_and(|tool| !tool.ends_browser) {
            self.keep_to_task(state, &mut output).await;
        }
        state.phases.total_ms = crate::phases::since(started);
        *self
            .phases
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(state.phases);
        if let Some(traced) = traced {
            // (A picture after an action: not after a read, nor after
            // the browser's end.)
            let acted = tool.is_some_and(|tool| !tool.hints.read_only && !tool.ends_browser);
            self.record(state, traced, name, acted, &output).await;
        }
        output
    }

    /// Reads the session's memory after a page loaded, for the live view
    /// and library users; a session over its budget (with its grown
    /// renderers already renewed) is told so.
    async fn weigh(&self, output: &mut ToolOutput) {
        // Read again at once when the last reading came near the budget.
        let recent = self
            .memory
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .is_some_and(|(at, memory)| {
                let far = memory
                    .budget_kib
                    .is_none_or(|budget| memory.total_kib() < budget / 2);
                far && at.elapsed() < WEIGH_EVERY
            });
        if recent {
            return;
        }
        let Ok(Some(memory)) = self.browser.driver.memory().await else {
            return;
        };
        *self
            .memory
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) =
            Some((std::time::Instant::now(), memory));
        if let Some(watch) = &self.browser.options.watch {
            watch.set_memory(memory);
        }
        if let (true, Some(budget)) = (memory.over_budget(), memory.budget_kib) {
            output.text.push_str(&format!(
                "\nMemory: this session holds {} MiB, over its budget of {} MiB: close the tabs it no longer needs (tabs {{\"action\": \"close\", \"tab\": N}}), or open lighter pages.",
                memory.total_kib() / 1024,
                budget / 1024
            ));
        }
    }

    /// The session's memory (its renderers and its share of the browser)
    /// as last read, after a call that loaded a page (at most every 10 s);
    /// `None` before that, or where it cannot be measured (a remote
    /// browser). For a reading now, `driver().memory()`.
    pub fn memory(&self) -> Option<driver_core::Memory> {
        self.memory
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .map(|(_, memory)| memory)
    }

    /// Writes a call into the session's trace and its watch: the answer
    /// as the model reads it (scrubbed), a picture after an action, and
    /// what the guard refused and the page logged meanwhile.
    async fn record(
        &self,
        state: &mut State,
        traced: Traced,
        name: &str,
        acted: bool,
        output: &ToolOutput,
    ) {
        let ms = u64::try_from(traced.started.elapsed().as_millis()).unwrap_or(u64::MAX);
        let step = self.steps.fetch_add(1, Ordering::Relaxed) + 1;
        let watch = self.browser.options.watch.as_ref();
        let answer = output.text.clone();
        // A picture after an action: for the trace, and for a watch whose
        // pictures do not come from a screencast while a person looks.
        let wanted = self.trace.is_some()
            || watch.is_some_and(|watch| !watch.is_screencast() && watch.is_looked_at());
        let jpeg = if acted && wanted {
            self.browser
                .picture(driver_core::ScreenshotOptions {
                    format: driver_core::ScreenshotFormat::Jpeg(40),
                    full_page: false,
                })
                .await
                .ok()
        } else {
            None
        };
        let picture = match (&self.trace, &jpeg) {
            (Some(trace), Some(jpeg)) => trace.picture(step, jpeg),
            _ => None,
        };
        if let (Some(watch), Some(jpeg)) = (watch, jpeg) {
            if !watch.is_screencast() {
                watch.set_frame(jpeg);
            }
        }
        // What the call itself took from the console (gathering here would
        // take from the next action the errors it must announce).
        let console = state
            .console
            .since(traced.console)
            .map(crate::output::console_line)
            .collect();
        let refused = self
            .browser
            .driver
            .guard()
            .refusals()
            .since(traced.refusals)
            .iter()
            .map(|refusal| marks::cut(&refusal.to_string(), 500).into_owned())
            .collect();
        let mut step = crate::trace::Step {
            step,
            at_ms: traced
                .at
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |since| {
                    u64::try_from(since.as_millis()).unwrap_or(u64::MAX)
                }),
            tool: name.chars().take(100).collect(),
            arguments: traced.arguments,
            answer,
            is_error: output.is_error,
            ms,
            picture,
            refused,
            console,
            phases: Some(state.phases),
        };
        // One scrub for the whole record, the trace's file and the live
        // view alike: secrets, in every form, and what a person typed.
        step.scrub_with(&|text| self.browser.scrub(text));
        if let Some(trace) = &self.trace {
            trace.write(&step);
        }
        if let Some(watch) = watch {
            watch.push(step);
        }
    }

    /// Where the last call's time went (the page settling, being read,
    /// the answer rendered, and the action itself), for benchmarks and
    /// traces; `None` before the first call.
    pub fn last_phases(&self) -> Option<crate::phases::Phases> {
        *self
            .phases
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The trace folder of this session, when one is kept.
    pub fn trace_folder(&self) -> Option<&std::path::Path> {
        self.trace.as_ref().map(crate::trace::Trace::folder)
    }

    pub(crate) async fn answered(
        &self,
        state: &mut State,
        name: &str,
        arguments: Value,
    ) -> ToolOutput {
        let call = std::panic::AssertUnwindSafe(self.dispatch(state, name, arguments));
        match futures_catch(call).await {
            Ok(Ok(output)) => output,
            Ok(Err(error)) => ToolOutput::error(&error, state.fence),
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

    /// Ends the session for good: closes the browser once the call under
    /// way (if any) is done, and every later call, those already waiting
    /// included, answers that the session is closed and starts nothing.
    /// For a server's sessions, which no one can reach once ended.
    pub async fn end(&self) {
        self.browser.ended.store(true, Ordering::Release);
        let _state = self.state.lock().await;
        let _ = self.browser.driver.close().await;
    }

    /// Makes the `close` tool end the session for good (as
    /// [`end`](Self::end) does) instead of leaving the next call to start a
    /// fresh browser: for a session under a server's handle, which `close`
    /// retires.
    pub fn end_on_close(&self) {
        self.browser.close_ends.store(true, Ordering::Release);
    }

    /// Whether the session has ended for good.
    pub fn is_ended(&self) -> bool {
        self.browser.ended.load(Ordering::Acquire)
    }

    async fn dispatch(&self, state: &mut State, name: &str, arguments: Value) -> Outcome {
        let tool = self.find(name)?;
        self.refuse_under_dialog(state, tool).await?;
        let arguments = match arguments {
            Value::Null => Value::Object(Default::default()),
            other => other,
        };
        self.hold_to_task(state, tool, &arguments).await?;
        match tool.takes.handler {
            Handler::Tab(handler) => handler(self.browser.tab(state), tool.name, arguments).await,
            Handler::Browser(handler) => handler(&self.browser, state, tool.name, arguments).await,
            // (`run` inside a script: its tools do not offer it.)
            Handler::Pack(_) => Err(ToolError::bad(
                tool.name,
                "a script cannot run a script; call the tools from this one",
            )),
        }
    }

    /// The tool called `name` among those this pack offers.
    pub(crate) fn find(&self, name: &str) -> Result<&'static Tool, ToolError> {
        self.tools
            .iter()
            .find(|tool| tool.name == name)
            .copied()
            .ok_or_else(|| self.unknown(name))
    }

    fn unknown(&self, name: &str) -> ToolError {
        ToolError::UnknownTool {
            name: name.chars().take(100).collect(),
            known: self.tools.iter().map(|tool| tool.name).collect(),
        }
    }

    /// An action under an open dialog would not happen: say so, rather than
    /// report it done.
    async fn refuse_under_dialog(
        &self,
        state: &mut State,
        tool: &'static Tool,
    ) -> Result<(), ToolError> {
        if !state.dialog_open || tool.under_dialog {
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

    /// Reads a line of `tabwright shell` with the short forms of this
    /// pack's tools (`click 3`, `type 7 hello`, `TOOL {json}`); `Ok(None)`
    /// when the line names none of them.
    pub fn read_short(&self, line: &str) -> Result<Option<ShortCall>, String> {
        short::read(&self.tools, line)
    }

    /// How to write each of this pack's tools short, a line each.
    pub fn short_help(&self) -> String {
        short::help(&self.tools)
    }
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

/// The pack as `run`'s host: what a script's calls reach of it.
impl crate::tool::Host for Pack {
    fn browser(&self) -> &Browser {
        &self.browser
    }

    fn offered(&self) -> &[&'static Tool] {
        &self.tools
    }

    fn find(&self, name: &str) -> Result<&'static Tool, ToolError> {
        Pack::find(self, name)
    }

    fn handed_over(&self, name: &str) -> Option<ToolOutput> {
        Pack::handed_over(self, name)
    }

    fn answer_in<'a>(
        &'a self,
        state: &'a mut State,
        name: &'a str,
        arguments: Value,
    ) -> crate::tool::Answering<'a> {
        Pack::answer_in(self, state, name, arguments)
    }

    fn stop<'a>(
        &'a self,
        mut call: crate::tool::Answering<'a>,
    ) -> std::pin::Pin<Box<dyn Future<Output = ()> + Send + 'a>> {
        Box::pin(async move { Pack::stop(self, call.as_mut()).await })
    }
}
