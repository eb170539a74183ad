//! Where a `run` script runs: a process of its own, which is killed.
//!
//! QuickJS can be asked to stop (its interrupt handler), but not every
//! loop asks: a promise storm keeps its job queue full, and built-ins such
//! as `Array.prototype.reverse` on a huge array-like loop in C without a
//! check. A thread cannot be killed; a process can. So each script runs in
//! a child of this program (started again, told by [`ASKED`] to serve), with
//! OS limits it sets on itself before it reads the script (address space,
//! CPU seconds, no files, no core), and talks to the pack over its stdin
//! and stdout, a JSON line each way per tool call. The child is killed at
//! the deadline (after a grace for its own answer), on cancel and when the
//! call is dropped; it ends itself when the pack's end of the pipe closes.
//! Whatever the script does, nothing of it runs after that and its memory
//! is the kernel's again.
//!
//! A program that offers `run` calls [`serve_if_asked`] first thing in
//! `main` (the `tabwright` binary does); a pack elsewhere (a test binary)
//! names its engine with [`ScriptEngine::new`].

use std::ffi::OsString;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use driver_core::{PageText, PageValue};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
use tokio::sync::{mpsc, oneshot};

/// How long a script may run unless its call says otherwise.
pub(crate) const DEFAULT_SECONDS: u32 = 30;
/// The longest a script may be given.
pub(crate) const MAX_SECONDS: u32 = 300;
/// The most tool calls one script may make.
pub(crate) const MAX_CALLS: u32 = 200;
/// The most memory the script's engine may hold.
pub(crate) const MEMORY: usize = 64 * 1024 * 1024;
/// The most characters of what a script returns that are shown.
pub(crate) const RETURNED_SHOWN: usize = 4_000;

/// How a script ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) enum Ended {
    /// It returned this (JSON; `null` for nothing). The script's words,
    /// which may carry the page's: they reach the answer as the page's do.
    Returned(PageValue),
    /// It threw: the message, the script's line where known, and the
    /// tool whose failure it was, if it was one's (the script's words, as
    /// a value's).
    Threw {
        message: PageText,
        line: Option<u32>,
        tool: Option<PageText>,
    },
    /// It returned a value that has no JSON form to show, and why.
    Unshowable(String),
    /// A limit stopped it.
    Limit(Limit),
    /// The script could not be started (a syntax error is `Threw`).
    Broken(String),
}

/// A limit a script hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Limit {
    Time(u32),
    Memory,
    Calls,
}

impl Limit {
    /// The sentence a model reads.
    pub(crate) fn sentence(self) -> String {
        match self {
            Limit::Time(seconds) => format!(
                "The script was stopped: it ran longer than its {seconds} s (give timeout, at most {MAX_SECONDS}, or split the work)."
            ),
            Limit::Memory => format!(
                "The script was stopped: it held more than {} MiB of memory.",
                MEMORY / (1024 * 1024)
            ),
            Limit::Calls => format!(
                "The script was stopped: it made more than {MAX_CALLS} tool calls; split the work into several scripts."
            ),
        }
    }
}

/// The environment variable that starts this program as a script engine.
const ASKED: &str = "TABWRIGHT_SCRIPT_ENGINE";

/// Whether this program serves as a script engine when asked (it called
/// [`serve_if_asked`]).
static SERVES: AtomicBool = AtomicBool::new(false);

/// The deepest the script's stack may grow.
const STACK: usize = 1024 * 1024;

/// The address space an engine may add to what it holds when it starts:
/// the engine's 64 MiB, its two threads' stacks and the allocator's arenas,
/// with room to spare.
const ADDRESS_HEADROOM: u64 = 768 * 1024 * 1024;

/// The longest line either side reads: a call's arguments, or the
/// numbered elements of a page.
const LINE_LIMIT: usize = 64 * 1024 * 1024;

/// How long after its deadline an engine has to say so itself before it
/// is killed.
const GRACE: Duration = Duration::from_millis(500);

/// The program `run` starts a script's engine with.
#[derive(Debug, Clone, Default)]
pub struct ScriptEngine {
    /// `None`: this program, which must call [`serve_if_asked`].
    program: Option<PathBuf>,
    args: Vec<OsString>,
}

impl ScriptEngine {
    /// This program (the default): its `main` must call
    /// [`serve_if_asked`] before anything else.
    pub fn this_program() -> Self {
        Self::default()
    }

    /// `program` started with `args`, whose code calls [`serve_if_asked`]
    /// (a test binary, for instance: `args` then name the one test that
    /// does).
    pub fn new(program: impl Into<PathBuf>, args: impl IntoIterator<Item = OsString>) -> Self {
        Self {
            program: Some(program.into()),
            args: args.into_iter().collect(),
        }
    }

    /// A test binary as the engine, started again to run only the test
    /// named `test` (its full path, as `cargo test -- --exact` takes it),
    /// which calls [`serve_if_asked`].
    pub fn test_binary(test: &str) -> Self {
        let binary = std::env::current_exe().unwrap_or_default();
        Self::new(
            binary,
            [test, "--exact", "--nocapture", "--test-threads=1", "-q"].map(OsString::from),
        )
    }

    /// The same engine with `arg` added to its command line (a test tells
    /// its own engines apart by it).
    #[cfg(test)]
    pub(crate) fn with_arg(mut self, arg: &str) -> Self {
        self.args.push(OsString::from(arg));
        self
    }

    /// The command that starts the engine, or why there is none.
    fn command(&self) -> Result<tokio::process::Command, String> {
        let program = match &self.program {
            Some(program) => program.clone(),
            None if SERVES.load(Ordering::Acquire) => std::env::current_exe()
                .map_err(|error| format!("this program's path is unknown ({error})"))?,
            None => {
                return Err("this program does not serve as tabwright's script engine (its main must call tabwright_tools::serve_if_asked first, or the pack must name an engine)".to_owned())
            }
        };
        let mut command = tokio::process::Command::new(program);
        command
            .args(&self.args)
            .env_clear()
            .env(ASKED, "1")
            .current_dir("/")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .kill_on_drop(true);
        Ok(command)
    }
}

/// Serves as a script engine and exits when this process was started as
/// one; returns at once otherwise. Call it first thing in `main`, before
/// any thread or runtime is started.
pub fn serve_if_asked() {
    SERVES.store(true, Ordering::Release);
    if std::env::var_os(ASKED).is_none() {
        return;
    }
    let code = match serve() {
        Ok(()) => 0,
        Err(_) => 3,
    };
    std::process::exit(code);
}

/// What the pack sends first: the script and what it may call.
#[derive(Serialize, Deserialize)]
struct Start {
    script: String,
    tools: Vec<String>,
    /// How long it may run from when it is read.
    milliseconds: u64,
    /// The time limit as the model gave it, for the sentence.
    seconds: u32,
}

/// What the engine sends the pack.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Message {
    /// A tool call; the answer comes back as one line of [`reply_json`].
    Call { tool: String, arguments: Value },
    /// `tw.elements()`.
    Elements,
    /// The script is over.
    Done(Ended),
}

/// The engine's side: limits first, then the script, then the end.
fn serve() -> std::io::Result<()> {
    use nix::sys::resource::{setrlimit, Resource};
    let held = address_space().unwrap_or(0);
    let limits = [
        (Resource::RLIMIT_AS, held + ADDRESS_HEADROOM),
        (Resource::RLIMIT_CORE, 0),
        (Resource::RLIMIT_FSIZE, 0),
        (Resource::RLIMIT_NOFILE, 16),
    ];
    for (resource, limit) in limits {
        setrlimit(resource, limit, limit).map_err(std::io::Error::from)?;
    }
    let input = std::io::stdin();
    let Some(line) = read_line(&mut input.lock(), LINE_LIMIT)? else {
        return Ok(());
    };
    let start: Start = serde_json::from_slice(&line).map_err(std::io::Error::other)?;
    // The CPU the script may take, whatever the pack does: its time and a
    // second (the soft limit's signal ends the process; the hard one, a
    // second later, kills it).
    let cpu = u64::from(start.seconds) + 1;
    setrlimit(Resource::RLIMIT_CPU, cpu, cpu + 1).map_err(std::io::Error::from)?;
    watch_the_pack();
    let channel = Arc::new(Mutex::new(Channel {
        input,
        output: std::io::stdout(),
    }));
    let deadline = Instant::now() + Duration::from_millis(start.milliseconds);
    // QuickJS wants a deep native stack for its own limit to be the one
    // that stops recursion.
    let ended = std::thread::Builder::new()
        .name("tabwright-run".to_owned())
        .stack_size(4 * STACK)
        .spawn({
            let channel = Arc::clone(&channel);
            move || {
                let ask = move |message: &Message| -> Option<Vec<u8>> {
                    let mut channel = channel.lock().ok()?;
                    channel.ask(message)
                };
                execute(&start, Arc::new(ask), deadline)
            }
        })?
        .join()
        .unwrap_or_else(|_| Ended::Broken("its engine failed".to_owned()));
    let mut channel = channel
        .lock()
        .map_err(|_| std::io::Error::other("the channel was poisoned"))?;
    channel.send(&Message::Done(ended))
}

/// The pipes to the pack.
struct Channel {
    input: std::io::Stdin,
    output: std::io::Stdout,
}

impl Channel {
    fn send(&mut self, message: &Message) -> std::io::Result<()> {
        let mut line = serde_json::to_vec(message).map_err(std::io::Error::other)?;
        line.push(b'\n');
        let mut output = self.output.lock();
        output.write_all(&line)?;
        output.flush()
    }

    /// Sends `message` and reads the pack's one-line answer (`None`: the
    /// pack is gone).
    fn ask(&mut self, message: &Message) -> Option<Vec<u8>> {
        self.send(message).ok()?;
        read_line(&mut self.input.lock(), LINE_LIMIT).ok().flatten()
    }
}

/// Ends this process when the pack's end of its stdin closes (the pack
/// died without killing it), whatever the script is doing.
fn watch_the_pack() {
    let _ = std::thread::Builder::new()
        .name("tabwright-run-watch".to_owned())
        .stack_size(64 * 1024)
        .spawn(|| {
            use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
            use std::os::fd::AsFd;
            let stdin = std::io::stdin();
            loop {
                // No POLLIN: data waiting is the script's to read; only the
                // other end closing (POLLHUP, always reported) wakes this.
                let mut fds = [PollFd::new(stdin.as_fd(), PollFlags::empty())];
                match poll(&mut fds, PollTimeout::NONE) {
                    Ok(_) => {
                        let gone = fds[0].revents().is_some_and(|events| {
                            events.intersects(PollFlags::POLLHUP | PollFlags::POLLERR)
                        });
                        if gone {
                            std::process::exit(0);
                        }
                    }
                    Err(nix::errno::Errno::EINTR) => {}
                    Err(_) => std::process::exit(0),
                }
            }
        });
}

/// The address space this process holds now, in bytes.
fn address_space() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmSize:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// One line (without its newline), at most `limit` bytes; `None` at the
/// end of the input.
fn read_line(input: &mut impl BufRead, limit: usize) -> std::io::Result<Option<Vec<u8>>> {
    let mut line = Vec::new();
    let read = std::io::Read::take(&mut *input, u64::try_from(limit).unwrap_or(u64::MAX) + 1)
        .read_until(b'\n', &mut line)?;
    a_line(line, read, limit)
}

/// The same, read from the engine's stdout.
async fn read_line_async(
    input: &mut (impl tokio::io::AsyncBufRead + Unpin),
    limit: usize,
) -> std::io::Result<Option<Vec<u8>>> {
    use tokio::io::AsyncReadExt;
    let mut line = Vec::new();
    let read = input
        .take(u64::try_from(limit).unwrap_or(u64::MAX) + 1)
        .read_until(b'\n', &mut line)
        .await?;
    a_line(line, read, limit)
}

/// What a bounded read of `read` bytes into `line` gave: the line without
/// its newline, `None` at the end of the input, an error past `limit`.
fn a_line(mut line: Vec<u8>, read: usize, limit: usize) -> std::io::Result<Option<Vec<u8>>> {
    if read == 0 {
        return Ok(None);
    }
    if line.last() == Some(&b'\n') {
        line.pop();
    } else if line.len() > limit {
        return Err(std::io::Error::other("a line longer than allowed"));
    }
    Ok(Some(line))
}

/// What the script asks of the pack, on the pack's side.
pub(crate) enum Ask {
    /// A tool call: its name and arguments, and where the answer goes
    /// (`Err`: the call failed, with the answer's text).
    Call {
        tool: String,
        arguments: Value,
        reply: oneshot::Sender<Result<String, String>>,
    },
    /// The numbered elements, as JSON (`Err`: why they cannot be read).
    Elements {
        reply: oneshot::Sender<Result<Value, String>>,
    },
    /// The script is over, and its engine with it.
    Done(Ended),
}

/// A script running in its engine; dropping it kills the engine.
pub(crate) struct Running {
    pub(crate) asks: mpsc::UnboundedReceiver<Ask>,
    bridge: tokio::task::AbortHandle,
}

impl Drop for Running {
    fn drop(&mut self) {
        // The bridge owns the child, killed when it is dropped.
        self.bridge.abort();
    }
}

/// Starts `script` in an engine of its own, with `tools` as the functions
/// of `tw`, stopped at `deadline`.
pub(crate) fn start(
    engine: &ScriptEngine,
    script: String,
    tools: Vec<&'static str>,
    deadline: Instant,
    seconds: u32,
) -> Running {
    let (sender, asks) = mpsc::unbounded_channel();
    let start = Start {
        script,
        tools: tools.into_iter().map(str::to_owned).collect(),
        milliseconds: u64::try_from(
            deadline
                .saturating_duration_since(Instant::now())
                .as_millis(),
        )
        .unwrap_or(u64::MAX),
        seconds,
    };
    let command = engine.command();
    let bridge = tokio::spawn(async move {
        let ended = match command {
            Ok(command) => converse(command, start, &sender, deadline, seconds).await,
            Err(why) => Ended::Broken(why),
        };
        let _ = sender.send(Ask::Done(ended));
    });
    Running {
        asks,
        bridge: bridge.abort_handle(),
    }
}

/// The pack's side of one engine: starts it, passes its asks on, and
/// waits for it to end.
async fn converse(
    mut command: tokio::process::Command,
    start: Start,
    asks: &mpsc::UnboundedSender<Ask>,
    deadline: Instant,
    seconds: u32,
) -> Ended {
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(error) => return Ended::Broken(format!("its engine could not be started ({error})")),
    };
    let (Some(mut input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
        return Ended::Broken("its engine has no pipes".to_owned());
    };
    let mut output = tokio::io::BufReader::new(output);
    let ended = async {
        let mut line = serde_json::to_vec(&start).ok()?;
        line.push(b'\n');
        input.write_all(&line).await.ok()?;
        loop {
            let line = match read_line_async(&mut output, LINE_LIMIT).await {
                Ok(Some(line)) => line,
                Ok(None) => return None,
                Err(_) => {
                    return Some(Ended::Broken(format!(
                        "it sent more than {} MiB at once",
                        LINE_LIMIT >> 20
                    )))
                }
            };
            // (A test binary serving as the engine writes lines of its own.)
            let Ok(message) = serde_json::from_slice::<Message>(&line) else {
                continue;
            };
            let reply = match message {
                Message::Done(ended) => return Some(ended),
                Message::Call { tool, arguments } => {
                    let (reply, answer) = oneshot::channel();
                    asks.send(Ask::Call {
                        tool,
                        arguments,
                        reply,
                    })
                    .ok()?;
                    reply_json(answer.await.unwrap_or_else(|_| Err(GONE.to_owned())))
                }
                Message::Elements => {
                    let (reply, answer) = oneshot::channel();
                    asks.send(Ask::Elements { reply }).ok()?;
                    match answer.await {
                        Ok(Ok(elements)) => serde_json::json!({ "ok": elements }).to_string(),
                        Ok(Err(error)) => reply_json(Err(error)),
                        Err(_) => reply_json(Err(GONE.to_owned())),
                    }
                }
            };
            input.write_all(reply.as_bytes()).await.ok()?;
            input.write_all(b"\n").await.ok()?;
        }
    };
    // Past the deadline and its grace, the engine is killed whatever it
    // is doing.
    let ended = tokio::time::timeout_at((deadline + GRACE).into(), ended).await;
    let ended = match ended {
        Ok(Some(ended)) => Some(ended),
        Ok(None) | Err(_) => None,
    };
    drop(input);
    // Ended or not, it does not outlive the call: waited for briefly, then
    // killed, and reaped either way.
    let status = match tokio::time::timeout(GRACE, child.wait()).await {
        Ok(status) => status.ok(),
        Err(_) => {
            let _ = child.kill().await;
            None
        }
    };
    match ended {
        // A call the pack stopped at the deadline throws in the script,
        // whose own clock started a moment later: the time is still what
        // ended it.
        Some(Ended::Threw { .. }) if Instant::now() >= deadline => {
            Ended::Limit(Limit::Time(seconds))
        }
        Some(ended) => ended,
        None if Instant::now() >= deadline => Ended::Limit(Limit::Time(seconds)),
        None => Ended::Broken(match status {
            Some(status) => format!("its engine ended without an answer ({status})"),
            None => "its engine ended without an answer".to_owned(),
        }),
    }
}

/// What a tool call answers when the pack is gone (the call cancelled).
const GONE: &str = "the session is gone";

/// The answer a tool call gives the script, as JSON text it parses.
fn reply_json(answer: Result<String, String>) -> String {
    match answer {
        Ok(text) => serde_json::json!({ "ok": text }),
        Err(text) => serde_json::json!({ "error": text }),
    }
    .to_string()
}

/// Carries a message to the pack and brings back its answer's line
/// (`None`: the pack is gone).
type Asker = dyn Fn(&Message) -> Option<Vec<u8>> + Sync + Send;

/// What stopped the engine, as its interrupt handler saw it.
#[derive(Default)]
struct Why {
    time: AtomicBool,
    calls: AtomicBool,
}

/// Runs the script to its end, in the engine's process.
// (Over 100 lines: the engine's side of one script: its limits set, the script run, each call and the answer written.)
fn execute(start: &Start, ask: Arc<Asker>, deadline: Instant) -> Ended {
    use rquickjs::{Context, Function, Runtime};

    let seconds = start.seconds;
    let runtime = match Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => return Ended::Broken(error.to_string()),
    };
    runtime.set_memory_limit(MEMORY);
    runtime.set_max_stack_size(STACK);
    let why = Arc::new(Why::default());
    runtime.set_interrupt_handler(Some(Box::new({
        let why = Arc::clone(&why);
        move || {
            if Instant::now() >= deadline {
                why.time.store(true, Ordering::Release);
                return true;
            }
            why.calls.load(Ordering::Acquire)
        }
    })));
    let context = match Context::full(&runtime) {
        Ok(context) => context,
        Err(error) => return Ended::Broken(error.to_string()),
    };
    let calls = Arc::new(AtomicU32::new(0));
    let ended = context.with(|ctx| {
        let call = Function::new(ctx.clone(), {
            let why = Arc::clone(&why);
            move |tool: String, arguments: String| -> String {
                if calls.fetch_add(1, Ordering::AcqRel) >= MAX_CALLS {
                    why.calls.store(true, Ordering::Release);
                    return reply_json(Err("the script made too many tool calls".to_owned()));
                }
                let message = if tool == "elements" {
                    Message::Elements
                } else {
                    Message::Call {
                        tool,
                        arguments: serde_json::from_str(&arguments).unwrap_or(Value::Null),
                    }
                };
                ask(&message)
                    .and_then(|reply| String::from_utf8(reply).ok())
                    .unwrap_or_else(|| reply_json(Err(GONE.to_owned())))
            }
        });
        let call = match call {
            Ok(call) => call,
            Err(error) => return Ended::Broken(error.to_string()),
        };
        if let Err(error) = ctx.globals().set("__tabwright_call", call) {
            return Ended::Broken(error.to_string());
        }
        let source = format!(
            "{}\n{OPENING}{}\n}})()",
            prelude(&start.tools),
            start.script
        );
        let mut options = rquickjs::context::EvalOptions::default();
        options.global = true;
        options.strict = false;
        options.filename = Some("script".to_owned());
        let promise: rquickjs::Result<rquickjs::Promise<'_>> =
            ctx.eval_with_options(source, options);
        let outcome = promise.and_then(|promise| {
            // No timers and no I/O: the job queue alone drives the script,
            // and it runs dry only when the script waits on nothing.
            promise.finish::<rquickjs::Value<'_>>()
        });
        match outcome {
            Ok(value) => match to_json(&ctx, value) {
                Ok(json) => Ended::Returned(PageValue::new(json)),
                Err(why) => Ended::Unshowable(why),
            },
            Err(rquickjs::Error::WouldBlock) => Ended::Threw {
                message: "the script waits on a promise that nothing will settle".into(),
                line: None,
                tool: None,
            },
            Err(rquickjs::Error::Exception) => {
                let thrown = ctx.catch();
                thrown_as_ended(&thrown, prelude_lines(&start.tools))
            }
            Err(error) => Ended::Broken(error.to_string()),
        }
    });
    // A limit shows as an exception from inside the engine; say which.
    let limit = if why.calls.load(Ordering::Acquire) {
        Some(Limit::Calls)
    } else if why.time.load(Ordering::Acquire) || Instant::now() >= deadline {
        // (A call the deadline stopped throws before the engine is
        // interrupted: the time is still what ended the script.)
        Some(Limit::Time(seconds))
    } else {
        match &ended {
            Ended::Threw { message, .. }
                if crate::page_strings::holds(message, "out of memory") =>
            {
                Some(Limit::Memory)
            }
            _ => None,
        }
    };
    limit.map_or(ended, Ended::Limit)
}

/// The line the script's own text begins after: the prelude takes lines
/// of its own, so a line the engine reports is the script's once this
/// many are taken off.
const OPENING: &str = "(async function () {\n";

/// The JavaScript before the script: `tw`, made of the tools' names, with
/// the bridge hidden in it and taken off the global object.
fn prelude(tools: &[String]) -> String {
    let names = serde_json::to_string(tools).unwrap_or_else(|_| "[]".to_owned());
    format!(
        r#"(function (bridge) {{
"use strict";
const ask = (tool, args) => {{
  if (args !== undefined && (args === null || typeof args !== "object" || Array.isArray(args))) {{
    throw new TypeError("tw." + tool + " takes one object of arguments, as the tool does");
  }}
  const reply = JSON.parse(bridge(tool, JSON.stringify(args === undefined ? {{}} : args)));
  if ("error" in reply) {{
    const error = new Error(reply.error);
    error.name = "ToolError";
    error.tool = tool;
    throw error;
  }}
  return reply.ok;
}};
const tw = {{}};
for (const name of {names}) {{
  tw[name] = async (args) => ask(name, args);
}}
tw.elements = async () => ask("elements", {{}});
globalThis.tw = Object.freeze(tw);
}})(globalThis.__tabwright_call);
delete globalThis.__tabwright_call;"#
    )
}

/// How many lines come before the script's first (see [`OPENING`]).
fn prelude_lines(tools: &[String]) -> u32 {
    let lines = prelude(tools).lines().count() + OPENING.lines().count();
    u32::try_from(lines).unwrap_or(u32::MAX)
}

/// The most bytes of JSON a script's value may make.
const RETURNED_JSON_LIMIT: usize = 1 << 20;

/// What a script returned, as JSON (`undefined` and functions as `null`),
/// or why it cannot be shown: no JSON form (a cycle, a BigInt), larger
/// than [`RETURNED_JSON_LIMIT`], nested deeper than JSON is read here.
fn to_json<'js>(ctx: &rquickjs::Ctx<'js>, value: rquickjs::Value<'js>) -> Result<Value, String> {
    if value.is_undefined() {
        return Ok(Value::Null);
    }
    let text = match ctx.json_stringify(value) {
        Ok(Some(text)) => text.to_string().map_err(|error| error.to_string())?,
        Ok(None) => return Ok(Value::Null),
        Err(rquickjs::Error::Exception) => {
            let thrown = ctx.catch();
            let why = thrown
                .as_exception()
                .and_then(rquickjs::Exception::message)
                .unwrap_or_else(|| "it has no JSON form".to_owned());
            return Err(format!("it has no JSON form ({})", marks::one_line(&why)));
        }
        Err(error) => return Err(error.to_string()),
    };
    if text.len() > RETURNED_JSON_LIMIT {
        return Err(format!(
            "its JSON is {} KiB, more than the {} KiB a script may return",
            text.len() >> 10,
            RETURNED_JSON_LIMIT >> 10
        ));
    }
    serde_json::from_str(&text).map_err(|error| {
        if error.to_string().contains("recursion limit") {
            "it nests deeper than the 128 levels JSON is read to".to_owned()
        } else {
            format!("its JSON does not read back ({error})")
        }
    })
}

/// What the script threw, with its line where the stack says it.
fn thrown_as_ended(thrown: &rquickjs::Value<'_>, before: u32) -> Ended {
    if let Some(exception) = thrown.as_exception() {
        let name = exception
            .get::<_, String>("name")
            .unwrap_or_else(|_| "Error".to_owned());
        let message = exception.message().unwrap_or_default();
        let line = exception
            .stack()
            .and_then(|stack| script_line(&stack, before));
        let tool = (name == "ToolError")
            .then(|| exception.get::<_, String>("tool").ok())
            .flatten()
            .map(PageText::from);
        let message = if name == "Error" || name == "ToolError" {
            message
        } else {
            format!("{name}: {message}")
        };
        return Ended::Threw {
            message: message.into(),
            line,
            tool,
        };
    }
    let message = thrown
        .as_string()
        .and_then(|text| text.to_string().ok())
        .unwrap_or_else(|| "the script threw a value that is not an Error".to_owned());
    Ended::Threw {
        message: message.into(),
        line: None,
        tool: None,
    }
}

/// The innermost frame of a stack (`at … (script:12:5)`) in the
/// script's own text (not the prelude's `before` lines), as the script's
/// line.
fn script_line(stack: &str, before: u32) -> Option<u32> {
    stack.lines().find_map(|frame| {
        let at = frame.find("script:")? + "script:".len();
        let digits: String = frame[at..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        digits
            .parse::<u32>()
            .ok()?
            .checked_sub(before)
            .filter(|line| *line > 0)
    })
}
