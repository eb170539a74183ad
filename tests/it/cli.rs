//! The `tabwright` binary as people and MCP clients meet it: the demo end
//! to end, tool commands that a daemon keeps the session of (`open`,
//! `click 3`, `run script.js`), the shell fed from a pipe, and the MCP
//! server driven by the official MCP Python SDK (a client no one here
//! wrote), on both backends. `cargo xtask test` builds the binary and
//! installs the SDK first.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use tabwright_tests::site::Site;
use tabwright_tests::Backend;
use tokio::io::AsyncWriteExt;
use tokio::process::Command;

/// The longest any of these runs may take, on a loaded 2-core machine.
const LIMIT: Duration = Duration::from_secs(120);

/// `target/debug/tabwright`, beside this test binary's `deps/` folder.
pub(crate) fn binary() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let dir = exe
        .parent()
        .and_then(|deps| deps.parent())
        .expect("target/debug");
    let binary = dir.join("tabwright");
    assert!(
        binary.exists(),
        "{} is missing: build it first (cargo xtask test does)",
        binary.display()
    );
    binary
}

/// A folder of the test's own for the daemon that tool commands start
/// (`TABWRIGHT_RUNTIME_DIR`); dropped, it stops that daemon and waits for
/// it to end.
pub(crate) struct Daemon {
    dir: tempfile::TempDir,
}

impl Daemon {
    pub(crate) fn new() -> Self {
        Self {
            dir: tempfile::tempdir().expect("a folder"),
        }
    }

    /// The binary, talking to this daemon.
    pub(crate) fn command(&self) -> Command {
        let mut command = Command::new(binary());
        command.env("TABWRIGHT_RUNTIME_DIR", self.folder());
        command
    }

    /// The daemon's own folder, which it makes (0700) in the test's.
    fn folder(&self) -> std::path::PathBuf {
        self.dir.path().join("run")
    }

    /// Runs a command to its end: its stdout and exit code.
    async fn output(&self, args: &[&str]) -> (String, i32) {
        let mut command = self.command();
        command.args(args).stdin(Stdio::null());
        let output = tokio::time::timeout(LIMIT, command.output())
            .await
            .expect("the command finishes in time")
            .expect("the command runs");
        (
            String::from_utf8_lossy(&output.stdout).into_owned()
                + &String::from_utf8_lossy(&output.stderr),
            output.status.code().unwrap_or(-1),
        )
    }

    /// Runs a command that must succeed; its stdout.
    async fn ok(&self, args: &[&str]) -> String {
        let (out, code) = self.output(args).await;
        assert_eq!(code, 0, "{args:?}: {out}");
        out
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = std::process::Command::new(binary())
            .env("TABWRIGHT_RUNTIME_DIR", self.folder())
            .arg("stop")
            .output();
    }
}

fn backend_flag(backend: Backend) -> &'static str {
    backend.name()
}

/// Runs the binary to the end and returns its stdout; it must succeed.
pub(crate) async fn run(command: Command, input: Option<&str>) -> String {
    run_for_both(command, input).await.0
}

/// A client script of `mcp/` run with the MCP Python SDK 2.x (installed
/// under `mcp/sdk2` by `cargo xtask test`).
fn sdk2_client(script: &str) -> Command {
    let mut python = Command::new("python3");
    python
        .env(
            "PYTHONPATH",
            concat!(env!("CARGO_MANIFEST_DIR"), "/mcp/sdk2"),
        )
        .arg(format!("{}/mcp/{script}", env!("CARGO_MANIFEST_DIR")));
    python
}

/// Starts the binary with its stdin, stdout and stderr piped (killed if
/// the test drops it); returns it and its stdin.
fn spawn_piped(command: &mut Command) -> (tokio::process::Child, tokio::process::ChildStdin) {
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    let mut child = command.spawn().expect("the command starts");
    let stdin = child.stdin.take().expect("stdin");
    (child, stdin)
}

/// Runs the binary to the end and returns its stdout and stderr; it must
/// succeed.
async fn run_for_both(mut command: Command, input: Option<&str>) -> (String, String) {
    let (child, mut stdin) = spawn_piped(&mut command);
    if let Some(input) = input {
        stdin.write_all(input.as_bytes()).await.expect("input");
    }
    drop(stdin);
    let output = tokio::time::timeout(LIMIT, child.wait_with_output())
        .await
        .expect("the command finishes in time")
        .expect("the command runs");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(
        output.status.success(),
        "{command:?} failed ({}):\n{stdout}\n{stderr}",
        output.status
    );
    (stdout, stderr)
}

async fn demo(backend: Backend) {
    let screenshot = tempfile::Builder::new()
        .suffix(".png")
        .tempfile()
        .expect("a temporary file");
    let mut command = Command::new(binary());
    command
        .args(["--backend", backend_flag(backend), "demo", "--screenshot"])
        .arg(screenshot.path());
    let out = run(command, None).await;
    demo_went_as_told(&out);
    let png = std::fs::read(screenshot.path()).expect("the screenshot was saved");
    assert!(png.starts_with(b"\x89PNG"), "the screenshot is a PNG");
}

/// The demo on the second engine, asked for as a person would.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn demo_on_firefox() {
    let mut command = Command::new(binary());
    command.args(["demo", "--browser", "firefox"]);
    demo_went_as_told(&run(command, None).await);
}

/// What the demo must have printed: every step, and the guard's refusals.
fn demo_went_as_told(out: &str) {
    for expected in [
        "Thank you, Ada: one Assam, gift wrapped.",
        "A new tab opened: tab 2",
        "Why water temperature matters",
        "is open and blocks the page. It says:",
        "Empty your basket?",
        "Basket emptied.",
        "The guard refused 2 requests",
        "Refused to open http://169.254.169.254/",
        "saw 0 connections",
        "Demo finished",
    ] {
        assert!(
            out.contains(expected),
            "no {expected:?} in the demo:\n{out}"
        );
    }
}

async fn open(backend: Backend) {
    let site = Site::start().await;
    let profile = tempfile::tempdir().expect("a directory");
    let daemon = Daemon::new();
    let mut command = daemon.command();
    command
        .args(["--backend", backend_flag(backend), "--allow-origin"])
        .arg(site.origin())
        .arg("--profile-dir")
        .arg(profile.path())
        .args(["--viewport", "800x600", "--timeout", "20", "open"])
        .arg(site.url("/"));
    let out = run(command, None).await;
    assert!(out.contains("# Welcome home"), "{out}");
    assert!(out.contains("link \"Second page\""), "{out}");
    drop(daemon);
    // A profile directory the user names is kept, not deleted on close.
    assert!(
        profile.path().join("Default").is_dir(),
        "no Chrome profile in {}",
        profile.path().display()
    );

    // Without the origin allowed, the guard refuses and the exit code says so.
    let daemon = Daemon::new();
    let refused = daemon
        .command()
        .args(["--backend", backend_flag(backend), "open"])
        .arg(site.url("/"))
        .output()
        .await
        .expect("runs");
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stdout).contains("Refused to open"));
}

/// Settings from a config file and the environment, each as its flag:
/// the allowed origin and the user agent from the file, the viewport from
/// `TABWRIGHT_VIEWPORT`, a blocked site refused, the browser's path; a
/// flag on the command line wins.
async fn settings(backend: Backend) {
    let site = Site::start().await;
    site.page(
        "/agent",
        "<!doctype html><title>Agent</title><p id=ua></p><script>document.getElementById('ua').textContent = navigator.userAgent + ' ' + innerWidth + 'px';</script>",
    )
    .await;
    let folder = tempfile::tempdir().expect("a folder");
    let config = folder.path().join("tabwright.toml");
    std::fs::write(
        &config,
        format!(
            "allow-origin = [\"{}\"]\nuser-agent = \"TestAgent/1.0\"\ntimeout = 20\nbrowser-path = \"/usr/lib/chromium/chromium\"\nblock-site = [\"blocked.example\"]\nviewport = \"900x700\"\n",
            site.origin()
        ),
    )
    .expect("written");
    // The agent and the width the page sees, with `flags` added (each in
    // a daemon of its own: one runs with the settings that started it).
    let agent = async |flags: &[&str]| {
        let daemon = Daemon::new();
        let mut command = daemon.command();
        command
            .env("TABWRIGHT_VIEWPORT", "1000x700")
            .args(["--backend", backend_flag(backend)])
            .args(flags)
            .arg("--config")
            .arg(&config)
            .arg("open")
            .arg(site.url("/agent"));
        run(command, None).await
    };
    let out = agent(&[]).await;
    assert!(out.contains("TestAgent/1.0 1000px"), "{out}");
    let out = agent(&["--viewport", "640x480"]).await;
    assert!(out.contains("TestAgent/1.0 640px"), "{out}");
    let daemon = Daemon::new();
    let mut blocked = daemon.command();
    blocked
        .args(["--backend", backend_flag(backend), "--config"])
        .arg(&config)
        .args(["open", "http://www.blocked.example/"]);
    fails_saying(blocked, "blocked.example").await;
    let daemon = Daemon::new();
    let mut wrong = daemon.command();
    wrong
        .args([
            "--backend",
            backend_flag(backend),
            "--browser-path",
            "/nowhere/chrome",
        ])
        .arg("--allow-origin")
        .arg(site.origin())
        .arg("open")
        .arg(site.url("/agent"));
    fails_saying(wrong, "/nowhere/chrome").await;
}

/// Runs the binary to the end: it must fail, saying `says` on stdout.
async fn fails_saying(mut command: Command, says: &str) {
    let output = command.output().await.expect("runs");
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(
        !output.status.success() && said.contains(says),
        "{command:?}: {said}"
    );
}

/// A tool group, a secret or a task's origins that cannot be had stop the
/// start with a sentence saying why, before any browser starts.
#[tokio::test]
async fn bad_groups_and_secrets_stop_the_start() {
    for (args, says) in [
        (vec!["--caps", "core,bogus", "mcp"], "\"bogus\" is not a tool group (the groups: core, files, network, state, forms, emulation, script, person, code, page_tools)"),
        (vec!["--secret", "PASSWORD", "mcp"], "expected NAME=ENV_VAR"),
        (vec!["--secret", "PASSWORD=TABWRIGHT_TEST_UNSET", "mcp"], "the environment variable \"TABWRIGHT_TEST_UNSET\" is not set"),
        (vec!["--task-strict", "mcp"], "--task-strict keeps requests within the task's origins"),
        (vec!["--act-origin", "https://*.10.0.0.1", "mcp"], "--act-origin \"https://*.10.0.0.1\""),
    ] {
        let out = Command::new(binary())
            .args(&args)
            .env_remove("TABWRIGHT_TEST_UNSET")
            .stdin(std::process::Stdio::null())
            .output()
            .await
            .expect("runs");
        assert!(!out.status.success(), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}

async fn shell(backend: Backend) {
    let site = Site::start().await;
    let mut command = Command::new(binary());
    command
        .args(["--backend", backend_flag(backend), "--allow-origin"])
        .arg(site.origin())
        .arg("shell");
    let script = format!(
        "open {}\nclick 1\ntabs\nclick 999\nfly away\nback\nquit\n",
        site.url("/")
    );
    let out = run(command, Some(&script)).await;
    for expected in [
        "# Welcome home",
        "The second page",
        "1 tab open:",
        "There is no element 999",
        "there is no command \"fly\"",
        "Went back to",
    ] {
        assert!(out.contains(expected), "no {expected:?} in:\n{out}");
    }
}

/// Ctrl-C in `tabwright shell`: once stops the call under way (the shell
/// says it is still waiting first, and goes on answering after), twice
/// quits, leaving no browser.
async fn shell_ctrl_c(backend: Backend) {
    use tokio::io::AsyncBufReadExt;
    let site = Site::start().await;
    site.serve(
        "/never",
        wiremock::ResponseTemplate::new(200)
            .set_body_raw("<!doctype html><title>Late</title>", "text/html")
            .set_delay(Duration::from_secs(60)),
    )
    .await;
    let marker = tabwright_tests::backend::Marker::new();
    let mut command = Command::new(binary());
    command
        .args(["--backend", backend_flag(backend), "--allow-origin"])
        .arg(site.origin())
        .args(["--chrome-arg", &marker.flag(), "shell"]);
    let (mut child, mut stdin) = spawn_piped(&mut command);
    let (heard, mut lines) = tokio::sync::mpsc::unbounded_channel::<String>();
    let out = tokio::io::BufReader::new(child.stdout.take().expect("stdout"));
    let err = tokio::io::BufReader::new(child.stderr.take().expect("stderr"));
    tokio::spawn(forward(out.lines(), heard.clone()));
    tokio::spawn(forward(err.lines(), heard));
    let mut until = async |says: &str| {
        let mut seen = String::new();
        let found = tokio::time::timeout(LIMIT, async {
            while let Some(line) = lines.recv().await {
                seen.push_str(&line);
                seen.push('\n');
                if line.contains(says) {
                    return true;
                }
            }
            false
        })
        .await;
        assert_eq!(found, Ok(true), "never {says:?} in:\n{seen}");
    };
    let interrupt = |child: &tokio::process::Child| {
        let pid = nix::unistd::Pid::from_raw(child.id().expect("a pid") as i32);
        nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).expect("SIGINT");
    };
    let never = site.url("/never");
    for (url, says) in [
        (never.as_str(), "still under way"),
        ("", "Stopped: the call was cancelled"),
        (&site.url("/"), "# Welcome home"),
        (&never, "still under way"),
    ] {
        if url.is_empty() {
            interrupt(&child);
        } else {
            stdin
                .write_all(format!("open {url}\n").as_bytes())
                .await
                .expect("a line");
        }
        until(says).await;
    }
    interrupt(&child);
    until("Ctrl-C again to quit").await;
    interrupt(&child);
    let ended = tokio::time::timeout(LIMIT, child.wait()).await;
    assert!(
        matches!(&ended, Ok(Ok(status)) if status.success()),
        "{ended:?}"
    );
    let left = until_none(&marker).await;
    assert!(left.is_empty(), "browser processes left: {left:?}");
}

/// A person's browser (the project's own pack, on CDP) with the live view
/// of the server on `port` open (token `open-sesame`), and the view's
/// origin.
async fn live_viewer(port: u16) -> (tools::Pack, String) {
    let live = format!("http://127.0.0.1:{port}");
    let policy = guard::Policy {
        allowed_origins: vec![guard::AllowedOrigin::parse(&live).expect("origin")],
        ..guard::Policy::default()
    };
    let person = tools::Pack::new(
        Backend::Cdp.guarded(driver_core::Options::default(), guard::Guard::new(policy)),
        tools::PackOptions::default(),
    );
    let page = person
        .call(
            "open",
            serde_json::json!({ "url": format!("{live}/live?token=open-sesame") }),
        )
        .await;
    assert!(!page.is_error, "{}", page.text);
    (person, live)
}

/// Sends each line of a child's output on.
async fn forward<R: tokio::io::AsyncBufRead + Unpin>(
    mut lines: tokio::io::Lines<R>,
    heard: tokio::sync::mpsc::UnboundedSender<String>,
) {
    while let Ok(Some(line)) = lines.next_line().await {
        let _ = heard.send(line);
    }
}

/// `--trace DIR`: each session's calls, the answers as the model read
/// them (no secret), a picture after each action, files for the owner
/// only; `tabwright trace DIR` makes the page.
async fn traces(backend: Backend) {
    use std::os::unix::fs::PermissionsExt;
    const SECRET: &str = "Tr4ced-Value-77";
    let site = Site::with_fixtures().await;
    let folder = tempfile::tempdir().expect("a folder");
    let mut command = Command::new(binary());
    command
        .env("TABWRIGHT_TEST_SECRET", SECRET)
        .args(["--backend", backend_flag(backend), "--allow-origin"])
        .arg(site.origin())
        .args(["--secret", "PW=TABWRIGHT_TEST_SECRET", "--trace"])
        .arg(folder.path())
        .arg("shell");
    let script = format!(
        "open {}\ntype 1 {{{{secret:PW}}}}\nclick 2\nsnapshot\nquit\n",
        site.url("/fx/echo.html")
    );
    run(command, Some(&script)).await;
    let sessions: Vec<_> = std::fs::read_dir(folder.path())
        .expect("the trace folder")
        .map(|entry| entry.expect("an entry").path())
        .collect();
    assert_eq!(sessions.len(), 1, "{sessions:?}");
    let session = &sessions[0];
    let steps = tools::trace::read_steps(session).expect("the steps");
    let tools_called: Vec<&str> = steps.iter().map(|step| step.tool.as_str()).collect();
    assert_eq!(tools_called, ["open", "type", "click", "snapshot"]);
    assert!(steps[0].answer.contains("# Echo"), "{}", steps[0].answer);
    assert!(steps[1].picture.is_some() && steps[3].picture.is_none());
    let mut pages = Command::new(binary());
    pages.arg("trace").arg(folder.path());
    let printed = run(pages, None).await;
    assert!(printed.trim().ends_with("index.html"), "{printed}");
    let page = std::fs::read_to_string(session.join("index.html")).expect("the page");
    assert!(
        page.contains("What the model read") && page.contains("4. snapshot"),
        "{page}"
    );
    for entry in std::fs::read_dir(session).expect("the session folder") {
        let path = entry.expect("an entry").path();
        let mode = std::fs::metadata(&path)
            .expect("metadata")
            .permissions()
            .mode()
            & 0o777;
        assert_eq!(mode, 0o600, "{path:?}");
        let bytes = std::fs::read(&path).expect("a file");
        assert!(
            !String::from_utf8_lossy(&bytes).contains(SECRET),
            "{path:?} holds the secret"
        );
    }
    let mode = std::fs::metadata(session)
        .expect("metadata")
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(mode, 0o700);
}

async fn mcp_python_client(backend: Backend) {
    let site = Site::start().await;
    let client = concat!(env!("CARGO_MANIFEST_DIR"), "/mcp/client.py");
    let mut command = Command::new("python3");
    command
        .arg(client)
        .arg(binary())
        .arg(site.origin())
        .args(["--backend", backend_flag(backend)]);
    let out = run(command, None).await;
    assert!(out.contains("screenshot: image/png"), "{out}");
    assert!(out.trim_end().ends_with("ok"), "{out}");
}

/// At the most talkative log level (every protocol frame, which carries
/// what the page shows and what was typed), neither the answers nor the
/// logs hold a secret, nor six characters of it in a row.
async fn no_log_level_prints_a_secret(backend: Backend) {
    const SECRET: &str = "s3cr3t-Value-42";
    let site = Site::with_fixtures().await;
    let mut command = Command::new(binary());
    command
        .env("TABWRIGHT_LOG", "trace")
        .env("TABWRIGHT_TEST_SECRET", SECRET)
        .args(["--backend", backend_flag(backend), "--allow-origin"])
        .arg(site.origin())
        .args(["--secret", "PW=TABWRIGHT_TEST_SECRET", "shell"]);
    let script = format!(
        "open {}\ntype 1 {{{{secret:PW}}}}\nclick 2\nconsole\nquit\n",
        site.url("/fx/echo.html")
    );
    let (stdout, stderr) = run_for_both(command, Some(&script)).await;
    assert!(stdout.contains("You typed: ••••"), "{stdout}");
    // The filter is on (every crate's debug lines, the shell's own among
    // them); how much it holds is the backend's (WebDriver's HTTP), not
    // what the browser asks of its own services.
    assert!(
        stderr.contains(" DEBUG "),
        "trace logged nothing:\n{stderr}"
    );
    let lower = SECRET.to_lowercase();
    let chars: Vec<char> = lower.chars().collect();
    for (what, text) in [("stdout", &stdout), ("stderr", &stderr)] {
        let text = text.to_lowercase();
        for window in chars.windows(6) {
            let window: String = window.iter().collect();
            assert!(!text.contains(&window), "{window:?} is in {what}");
        }
    }
}

/// The processes whose parent is `pid`.
fn children_of(pid: i32) -> Vec<i32> {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter_map(|entry| entry.file_name().to_str()?.parse::<i32>().ok())
        .filter(|child| {
            std::fs::read_to_string(format!("/proc/{child}/stat"))
                .ok()
                .and_then(|stat| {
                    let after = stat.rsplit_once(") ")?.1.to_owned();
                    after.split_whitespace().nth(1)?.parse::<i32>().ok()
                })
                == Some(pid)
        })
        .collect()
}

both_backends!(
    demo,
    open,
    daemon_sessions,
    shell,
    shell_ctrl_c,
    settings,
    mcp_python_client,
    traces,
    no_log_level_prints_a_secret
);

mod daemon;
mod http;
use daemon::*;
use http::until_none;
