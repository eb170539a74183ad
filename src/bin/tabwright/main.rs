//! The `tabwright` binary: the tool pack as an MCP server (`mcp`), for a
//! person at a prompt (`shell`), as commands from a shell that a daemon
//! keeps the session of (`open URL`, `click 3`, `serve`), and a demo
//! (`demo`).

mod config;
mod daemon;
mod demo;
mod http;
mod hub;
mod live;
mod logs;
mod mcp;
mod settings;
mod shell;

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use clap::{Parser, Subcommand, ValueEnum};
use settings::{secret, BrowserArgs};
use tools::{Pack, PackOptions, Secret};

/// A fast, guarded web browser for AI agents, served over MCP (or at a
/// prompt).
///
/// Pages reach the public web only: nothing a page does reaches this
/// machine or its local network unless --allow-origin names the origin.
#[derive(Debug, Parser)]
#[command(name = "tabwright", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    #[command(flatten)]
    browser: BrowserArgs,
    /// The daemon's session a tool's command acts in (`tabwright --session
    /// shop click 3`); each name is a browser session of its own.
    #[arg(
        long,
        value_name = "NAME",
        default_value = "default",
        env = "TABWRIGHT_SESSION",
        global = true
    )]
    session: String,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve the tools over MCP: on stdin/stdout (for Claude, Cursor, …), or
    /// over streamable HTTP for many clients at once (--http).
    Mcp(McpArgs),
    /// Keep browser sessions for tool commands run from a shell (`tabwright
    /// open URL`, then `tabwright click 3`): a daemon on a socket of this
    /// user's, started by the first such command with its settings, ended
    /// when idle, by `tabwright stop` or a signal.
    Serve {
        /// End after this many seconds without a command.
        #[arg(
            long,
            value_name = "SECONDS",
            default_value_t = 600,
            env = "TABWRIGHT_IDLE"
        )]
        idle: u64,
    },
    /// End the daemon and its sessions.
    Stop,
    /// The daemon's process and its sessions.
    Status,
    /// Print the SKILL.md that teaches a coding agent these commands.
    Skill,
    /// Carry out a model vendor's own browser tool calls: read them as JSON
    /// lines on stdin (Anthropic `tool_use` blocks, or OpenAI
    /// `computer_call` items), write each result as a JSON line on stdout
    /// (`tool_result`, `computer_call_output`), in one browser session.
    Exec {
        /// browser_toolset_20260801 (Anthropic) or computer (OpenAI).
        #[arg(long, value_name = "NAME")]
        toolset: String,
        /// Print the `tools[]` entry to send the vendor's API (the members
        /// this session can carry out enabled), and exit.
        #[arg(long)]
        print_toolset: bool,
    },
    /// Any tool, in the short forms of `tabwright shell` (`open URL`,
    /// `click 3`, `type 7 milk`, `run script.js`, `TOOL {json}`): sent to
    /// the daemon, which keeps the session between commands. Exit code 0
    /// when the tool succeeded, 1 when it answered an error, 2 when the
    /// command was not understood or no daemon could be reached.
    #[command(external_subcommand)]
    Tool(Vec<OsString>),
    /// The same tools for a person at a prompt: `open URL`, `click 3`, …
    Shell,
    /// Serve a small built-in site on 127.0.0.1 and drive it through the
    /// tools as a model would, printing every call and answer.
    Demo {
        /// Where to save the numbered screenshot (default: the temporary
        /// directory).
        #[arg(long)]
        screenshot: Option<PathBuf>,
    },
    /// Make a page of the traces under a folder (--trace): for each
    /// session, index.html beside its trace, a filmstrip of its steps with
    /// what the model read at each. Prints the pages' paths.
    Trace {
        /// A folder given to --trace, or one session's folder in it.
        folder: PathBuf,
    },
    /// Print the tool definitions a model is shown (with --caps and
    /// --vision as given), as JSON for an MCP client or a model API.
    Tools {
        /// Which API's form.
        #[arg(long, value_enum, default_value = "mcp")]
        format: ExportArg,
    },
    /// Print a completion script for a shell (bash, zsh, fish, elvish,
    /// powershell): e.g. `source <(tabwright completions bash)`.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

/// The forms `tabwright tools` prints the definitions in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ExportArg {
    /// MCP `tools/list` entries, with titles and annotations.
    Mcp,
    /// OpenAI Chat Completions `tools`, in strict mode.
    OpenaiChat,
    /// OpenAI Responses API `tools`, in strict mode.
    OpenaiResponses,
    /// Anthropic Messages API `tools`.
    Anthropic,
}

/// How `tabwright mcp` serves.
#[derive(Debug, Clone, clap::Args)]
struct McpArgs {
    /// Serve MCP over streamable HTTP at this address (e.g. 127.0.0.1:8931)
    /// instead of stdio: every MCP session gets a browser session of its
    /// own (on CDP a browser context in one shared browser).
    #[arg(long, value_name = "ADDR")]
    http: Option<std::net::SocketAddr>,
    /// Over stdio: serve a live view of the session at this loopback
    /// address (e.g. 127.0.0.1:8932): its picture and calls, read-only.
    /// (`--http` serves one at /live on its own address.)
    #[arg(long, value_name = "ADDR")]
    live: Option<std::net::SocketAddr>,
    /// Close an MCP session (and its browser session) after this many
    /// seconds without a request.
    #[arg(long, value_name = "SECONDS", default_value_t = 600)]
    idle_timeout: u64,
    /// The most MCP sessions served at once; one more is answered with an
    /// error.
    #[arg(long, value_name = "N", default_value_t = 16)]
    max_sessions: usize,
    /// The bearer token every HTTP request must carry (required to listen
    /// on an address other than loopback). Repeat it (or separate with
    /// commas) for several clients: a session handle works only with the
    /// token that made it.
    #[arg(
        long = "token",
        value_name = "TOKEN",
        env = "TABWRIGHT_TOKEN",
        value_delimiter = ',',
        hide_env_values = true
    )]
    tokens: Vec<String>,
    /// Also accept this `Host` (a name a reverse proxy forwards, with or
    /// without its port; repeatable).
    #[arg(long = "allowed-hosts", value_name = "HOST", value_delimiter = ',')]
    allowed_hosts: Vec<String>,
    /// Also serve requests from this web origin (scheme://host[:port];
    /// repeatable); any other `Origin` is refused.
    #[arg(long = "allowed-origins", value_name = "ORIGIN", value_delimiter = ',')]
    allowed_origins: Vec<String>,
}

fn main() {
    // Started again as a `run` script's engine: that, and nothing else.
    tools::serve_if_asked();
    let argv = {
        use clap::CommandFactory;
        let argv = config::hoist_tool_flags(&Cli::command(), std::env::args_os().collect());
        match config::with_settings(&Cli::command(), argv) {
            Ok(argv) => argv,
            Err(problem) => {
                eprintln!("tabwright: {problem}");
                std::process::exit(2);
            }
        }
    };
    let cli = Cli::parse_from(argv);
    // No log line holds a secret, whatever its level (the protocol's frames
    // at trace carry what the page shows): each is scrubbed as an answer is.
    // (A bad --secret is reported once the run starts.)
    let secrets: Vec<Secret> = cli
        .browser
        .secret
        .iter()
        .filter_map(|spec| secret(spec).ok())
        .collect();
    let scrubber = Arc::new(tools::Scrubber::new(&secrets));
    tracing_subscriber::fmt()
        .with_writer(move || logs::ScrubbedStderr::new(Arc::clone(&scrubber)))
        // Hosts save a server's stderr to files: colour only for a terminal.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("TABWRIGHT_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .init();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("tabwright: cannot start the async runtime: {error}");
            std::process::exit(1);
        }
    };
    let code = match runtime.block_on(run(cli)) {
        Ok(()) => 0,
        Err(problem) => {
            eprintln!("tabwright: {problem}");
            1
        }
    };
    // A thread blocked reading stdin (the stdio server's) would keep the
    // runtime, and the process, alive until stdin closes: what had to be
    // closed (the browser, its profile) is closed, so nothing else is
    // waited for.
    runtime.shutdown_timeout(Duration::from_millis(100));
    std::process::exit(code)
}

/// `tabwright exec`: a vendor's tool calls from stdin, results to stdout,
/// a JSON line each, until stdin ends.
async fn exec(args: &BrowserArgs, toolset: &str, print_toolset: bool) -> Result<(), String> {
    use tokio::io::AsyncBufReadExt;
    let toolset = tools::Toolset::from_name(toolset)?;
    let settings = args.settings(&[])?;
    let options = PackOptions {
        vision: settings.pack.vision || toolset.wants_vision(),
        ..settings.pack
    };
    let browser = tabwright::browser(settings.backend, settings.options, settings.policy);
    let pack = Pack::new(browser, options);
    let executor = tools::Executor::new(&pack, toolset);
    if print_toolset {
        println!("{}", executor.tool_entry());
        return Ok(());
    }
    // Lines as bytes: one that is not UTF-8 is answered, and the next read.
    let mut lines = tokio::io::BufReader::new(tokio::io::stdin()).split(b'\n');
    let served = async {
        while let Some(bytes) = lines
            .next_segment()
            .await
            .map_err(|error| format!("cannot read stdin: {error}"))?
        {
            let Ok(line) = String::from_utf8(bytes) else {
                println!(
                    "{}",
                    serde_json::json!({ "type": "error", "error": "the line is not UTF-8" })
                );
                continue;
            };
            if line.trim().is_empty() {
                continue;
            }
            let result = match serde_json::from_str::<serde_json::Value>(&line) {
                Ok(call) => executor.execute(&call).await,
                Err(error) => {
                    serde_json::json!({ "type": "error", "error": format!("the line is not JSON: {error}") })
                }
            };
            println!("{result}");
        }
        Ok::<(), String>(())
    };
    let result = tokio::select! {
        result = served => result,
        () = stop_signal() => Ok(()),
    };
    pack.close().await;
    result
}

/// What `tabwright skill` prints: the skill file coding agents load.
const SKILL: &str = include_str!("../../../skills/tabwright/SKILL.md");

/// The daemon's folder. One that is refused (another user's, or one
/// others may enter) means no daemon can be reached: exit 2, as the docs
/// say, not a tool's error.
fn place_or_exit() -> daemon::Place {
    match daemon::Place::find() {
        Ok(place) => place,
        Err(problem) => {
            eprintln!("tabwright: {problem}");
            std::process::exit(2);
        }
    }
}

/// Ends the process with a command's exit code (after the runtime's work
/// is done: nothing of it is left to close).
fn exit_with(code: u8) -> Result<(), String> {
    if code == 0 {
        return Ok(());
    }
    std::process::exit(i32::from(code));
}

/// `tabwright TOOL …`: one tool call in the daemon's session, which a
/// daemon started with this command's settings keeps.
async fn tool_command(cli: &Cli, words: Vec<std::ffi::OsString>) -> Result<(), String> {
    let words: Vec<String> = words
        .into_iter()
        .map(|word| word.to_string_lossy().into_owned())
        .collect();
    // The settings are checked here, before any daemon starts with them.
    cli.browser.settings(&[])?;
    let place = place_or_exit();
    let ask = match words.as_slice() {
        [run, path] if run == "run" && !path.trim_start().starts_with('{') => daemon::Ask::Call {
            tool: "run".to_owned(),
            arguments: serde_json::json!({ "script": daemon::read_script(std::path::Path::new(path))? }),
        },
        _ => daemon::Ask::Line(words.join(" ")),
    };
    let defaults = {
        use clap::Parser;
        Cli::try_parse_from(["tabwright", "status"])
            .map(|bare| format!("{:?}", bare.browser))
            .unwrap_or_default()
    };
    let settings = format!("{:?}", cli.browser);
    let request = daemon::Request {
        session: cli.session.clone(),
        defaults: settings == defaults,
        settings,
        ask,
    };
    // The daemon is started with this command's own flags (what comes
    // before its words, once flags written after them are moved there),
    // and reads the same config and variables.
    let argv: Vec<std::ffi::OsString> = {
        use clap::CommandFactory;
        config::hoist_tool_flags(&Cli::command(), std::env::args_os().collect())
            .into_iter()
            .skip(1)
            .collect()
    };
    let flags = argv[..argv.len().saturating_sub(words.len())].to_vec();
    let code = daemon::command(&place, request, || daemon::spawn_daemon(&place, &flags)).await;
    exit_with(code)
}

/// `tabwright trace FOLDER`: a page for each session's trace in it.
fn trace_pages(folder: &std::path::Path) -> Result<(), String> {
    let sessions: Vec<PathBuf> = if folder.join(tools::trace::TRACE_FILE).exists() {
        vec![folder.to_owned()]
    } else {
        let mut found: Vec<PathBuf> = std::fs::read_dir(folder)
            .map_err(|error| format!("cannot read {}: {error}", folder.display()))?
            .filter_map(Result::ok)
            // A session is a folder of its own, not a link elsewhere.
            .filter(|entry| entry.file_type().is_ok_and(|kind| kind.is_dir()))
            .map(|entry| entry.path())
            .filter(|path| path.join(tools::trace::TRACE_FILE).exists())
            .collect();
        found.sort();
        found
    };
    if sessions.is_empty() {
        return Err(format!(
            "{} holds no trace (give the folder passed to --trace, or one session's folder in it)",
            folder.display()
        ));
    }
    for session in sessions {
        let path = tools::trace::write_page(&session).map_err(|error| {
            format!(
                "cannot make the page of the trace in {}: {error}",
                session.display()
            )
        })?;
        println!("{}", path.display());
    }
    Ok(())
}

/// Resolves on SIGINT or SIGTERM, or when the process that started this
/// one is gone, so the browser is closed (and its temporary profile
/// removed) rather than orphaned.
async fn stop_signal() {
    stop_signal_but(false).await
}

/// [`stop_signal`], leaving Ctrl-C (SIGINT) alone if `keep_interrupt`:
/// the shell uses it to cancel the call in progress.
async fn stop_signal_but(keep_interrupt: bool) {
    use tokio::signal::unix::{signal, SignalKind};
    if keep_interrupt {
        match signal(SignalKind::terminate()) {
            Ok(mut terminate) => {
                tokio::select! {
                    _ = terminate.recv() => {}
                    () = parent_gone() => tracing::info!("the parent process is gone"),
                }
            }
            Err(_) => parent_gone().await,
        }
        return;
    }
    tokio::select! {
        () = terminated() => {}
        () = parent_gone() => tracing::info!("the parent process is gone"),
    }
}

/// SIGINT or SIGTERM (never, where they cannot be listened for). The
/// daemon stops on these alone: its parent (the command that started it)
/// is meant to go first.
async fn terminated() {
    use tokio::signal::unix::{signal, SignalKind};
    match (
        signal(SignalKind::interrupt()),
        signal(SignalKind::terminate()),
    ) {
        (Ok(mut interrupt), Ok(mut terminate)) => {
            tokio::select! {
                _ = interrupt.recv() => {}
                _ = terminate.recv() => {}
            }
        }
        _ => std::future::pending().await,
    }
}

/// How often the parent process is looked for.
const PARENT_CHECK: Duration = Duration::from_secs(1);

/// Resolves when the process that started this one has exited (this one
/// is then handed to another parent).
async fn parent_gone() {
    let parent = nix::unistd::getppid();
    loop {
        tokio::time::sleep(PARENT_CHECK).await;
        if nix::unistd::getppid() != parent {
            return;
        }
    }
}

/// `tabwright mcp --http`: a shared browser, a session of it per MCP
/// session, until told to stop; then every session and the browser end.
async fn serve_http(
    args: &BrowserArgs,
    mcp: &McpArgs,
    listen: std::net::SocketAddr,
) -> Result<(), String> {
    let settings = args.settings(&[])?;
    let browser = tabwright::Browser::new(settings.backend, settings.options);
    // A live view is served: a person can take over (the handoff tool).
    let mut pack = settings.pack;
    if !pack.groups.contains(&tools::Group::Person) {
        pack.groups.push(tools::Group::Person);
    }
    let policy = settings.policy;
    let options = http::HttpOptions {
        listen,
        idle: Duration::from_secs(mcp.idle_timeout.max(1)),
        max_sessions: mcp.max_sessions.max(1),
        tokens: mcp
            .tokens
            .iter()
            .filter(|token| !token.is_empty())
            .cloned()
            .collect(),
        allowed_hosts: mcp.allowed_hosts.clone(),
        allowed_origins: mcp.allowed_origins.clone(),
        definitions: match tools::definitions(&pack, tools::Export::Mcp) {
            serde_json::Value::Array(definitions) => definitions,
            _ => Vec::new(),
        },
    };
    let sessions = browser.clone();
    let served = http::serve(
        options,
        move |watch: Arc<tools::Watch>| {
            let driver = sessions.watched_session(
                policy.clone(),
                watch.frame_callback(),
                watch.frames_wanted(),
            );
            let options = PackOptions {
                watch: Some(watch),
                ..pack.clone()
            };
            Pack::new(driver, options)
        },
        stop_signal(),
    )
    .await;
    // The sessions close their contexts as they go; the browser last.
    tokio::time::sleep(Duration::from_millis(300)).await;
    browser.close().await;
    served
}

// (Over 100 lines: one arm per command.)
async fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Mcp(mcp) => match mcp.http {
            None => {
                let pack = Arc::new(match mcp.live {
                    None => cli.browser.pack(&[])?,
                    Some(listen) => {
                        let settings = cli.browser.settings(&[])?;
                        let watch = tools::Watch::new();
                        let mut options = settings.options;
                        options.on_frame = Some(watch.frame_callback());
                        options.frames_wanted = Some(watch.frames_wanted());
                        let browser =
                            tabwright::browser(settings.backend, options, settings.policy);
                        let one = live::One {
                            watch: Arc::clone(&watch),
                            made: std::time::Instant::now(),
                        };
                        live::serve_alone(listen, Arc::new(one)).await?;
                        let mut groups = settings.pack.groups.clone();
                        if !groups.contains(&tools::Group::Person) {
                            groups.push(tools::Group::Person);
                        }
                        Pack::new(
                            browser,
                            PackOptions {
                                watch: Some(watch),
                                groups,
                                ..settings.pack
                            },
                        )
                    }
                });
                let served = mcp::McpServer::new(pack.clone()).serve_stdio();
                tokio::select! {
                    result = served => result,
                    () = stop_signal() => {
                        pack.close().await;
                        Ok(())
                    }
                }
            }
            Some(listen) => serve_http(&cli.browser, &mcp, listen).await,
        },
        Command::Serve { idle } => {
            let place = place_or_exit();
            let settings = cli.browser.settings(&[])?;
            let maker = daemon::Maker {
                browser: tabwright::Browser::new(settings.backend, settings.options),
                policy: settings.policy,
                pack: settings.pack,
            };
            daemon::serve(
                &place,
                maker,
                format!("{:?}", cli.browser),
                Duration::from_secs(idle.max(1)),
                terminated(),
            )
            .await
        }
        Command::Stop | Command::Status => {
            let place = place_or_exit();
            let ask = match cli.command {
                Command::Stop => daemon::Ask::Stop,
                _ => daemon::Ask::Status,
            };
            let request = daemon::Request {
                session: cli.session.clone(),
                settings: format!("{:?}", cli.browser),
                defaults: true,
                ask,
            };
            exit_with(daemon::command(&place, request, || Ok(())).await)
        }
        Command::Exec {
            ref toolset,
            print_toolset,
        } => exec(&cli.browser, toolset, print_toolset).await,
        Command::Skill => {
            print!("{}", SKILL);
            Ok(())
        }
        Command::Tool(ref words) => tool_command(&cli, words.clone()).await,
        Command::Shell => {
            let pack = cli.browser.pack(&[])?;
            let result = tokio::select! {
                result = shell::run(&pack) => result,
                () = stop_signal_but(true) => Ok(()),
            };
            pack.close().await;
            result
        }
        Command::Demo { screenshot } => demo::run(&cli.browser, screenshot).await,
        Command::Trace { folder } => trace_pages(&folder),
        Command::Completions { shell } => {
            use clap::CommandFactory;
            clap_complete::generate(
                shell,
                &mut Cli::command(),
                "tabwright",
                &mut std::io::stdout(),
            );
            Ok(())
        }
        Command::Tools { format } => {
            let settings = cli.browser.settings(&[])?;
            let export = match format {
                ExportArg::Mcp => tools::Export::Mcp,
                ExportArg::OpenaiChat => tools::Export::OpenAiChat,
                ExportArg::OpenaiResponses => tools::Export::OpenAiResponses,
                ExportArg::Anthropic => tools::Export::Anthropic,
            };
            let definitions = tools::definitions(&settings.pack, export);
            let text = serde_json::to_string_pretty(&definitions)
                .map_err(|error| format!("the definitions could not be written: {error}"))?;
            println!("{text}");
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// The long flags every command takes (the global ones), as clap has
    /// them.
    fn global_flags() -> Vec<String> {
        super::Cli::command()
            .get_arguments()
            .filter(|arg| arg.is_global_set())
            .filter_map(|arg| arg.get_long().map(|long| format!("--{long}")))
            .collect()
    }

    /// The `--flag`s a piece of the docs names.
    fn named_flags(text: &str) -> Vec<String> {
        let mut flags = Vec::new();
        for (at, _) in text.match_indices("`--") {
            let flag: String = text[at + 1..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            if !flags.contains(&flag) {
                flags.push(flag);
            }
        }
        flags
    }

    fn doc(path: &str) -> String {
        std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR")))
            .unwrap_or_else(|error| panic!("{path}: {error}"))
    }

    /// The flags' reference in docs/configuration.md is clap's: it names
    /// every flag every command takes, and names none that is not one.
    #[test]
    fn the_flags_reference_is_clap_s() {
        let docs = doc("docs/configuration.md");
        let section = docs
            .split("## Flags")
            .nth(1)
            .and_then(|rest| rest.split("\n## ").next())
            .expect("a Flags section");
        // Chrome's own flags the section names (how to start a browser
        // for --cdp-endpoint), not tabwright's.
        let chrome_s = ["--remote-debugging-port"];
        let named: Vec<String> = named_flags(section)
            .into_iter()
            .filter(|flag| !chrome_s.contains(&flag.as_str()))
            .collect();
        let flags = global_flags();
        // A flag's other spelling (`--browser` for `--backend`) may be named
        // beside it.
        let spellings: Vec<String> = super::Cli::command()
            .get_arguments()
            .filter(|arg| arg.is_global_set())
            .flat_map(|arg| arg.get_all_aliases().unwrap_or_default())
            .map(|alias| format!("--{alias}"))
            .collect();
        let unnamed: Vec<&String> = flags.iter().filter(|flag| !named.contains(flag)).collect();
        let unknown: Vec<&String> = named
            .iter()
            .filter(|flag| !flags.contains(flag) && !spellings.contains(flag))
            .collect();
        assert!(
            unnamed.is_empty() && unknown.is_empty(),
            "docs/configuration.md's Flags section does not name {unnamed:?}, and names {unknown:?}, which no command takes"
        );
    }

    /// Every list of the tool groups (the docs', `--caps`' help) names
    /// each group of `Group::ALL`, in its order.
    #[test]
    fn every_list_of_groups_is_the_groups() {
        let all: Vec<&str> = tools::Group::ALL.iter().map(|group| group.name()).collect();
        let listed = format!("--caps {}", all.join(","));
        for path in ["docs/configuration.md", "docs/tools.md"] {
            assert!(
                doc(path).contains(&listed),
                "{path} does not list the groups as `{listed}`"
            );
        }
        let help = super::Cli::command()
            .get_arguments()
            .find(|arg| arg.get_long() == Some("caps"))
            .and_then(|arg| arg.get_help().map(ToString::to_string))
            .expect("--caps has help");
        let mut from = 0;
        for group in all {
            let at = help[from..]
                .find(group)
                .unwrap_or_else(|| panic!("--caps' help does not name {group} in order: {help}"));
            from += at + group.len();
        }
    }
}
