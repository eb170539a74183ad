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
    match backend {
        Backend::Cdp => "cdp",
        Backend::WebDriver => "webdriver",
    }
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
    let png = std::fs::read(screenshot.path()).expect("the screenshot was saved");
    assert!(png.starts_with(b"\x89PNG"), "the screenshot is a PNG");
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
    assert!(stderr.len() > 10_000, "trace logged little:\n{stderr}");
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

/// Tool commands from a shell: the daemon the first starts keeps the
/// session across commands (a script from a file included), named sessions
/// are apart, exit codes say what happened, and the daemon ends when idle
/// with its browser.
async fn daemon_sessions(backend: Backend) {
    let site = Site::with_fixtures().await;
    let daemon = Daemon::new();
    let origin = site.origin();
    let todo = site.url("/fx/todo.html");
    let flags = [
        "--backend",
        backend_flag(backend),
        "--allow-origin",
        &origin,
        "--caps",
        "core,code",
    ];
    let opened = daemon.ok(&[&flags[..], &["open", &todo]].concat()).await;
    assert!(
        opened.contains("textbox \"What needs to be done?\""),
        "{opened}"
    );
    // Later commands need no flags: the session is the daemon's.
    daemon.ok(&["type", "1", "milk"]).await;
    let pressed = daemon.ok(&["press", "Enter"]).await;
    assert!(pressed.contains("1 item left"), "{pressed}");
    let script = tempfile::Builder::new()
        .suffix(".js")
        .tempfile()
        .expect("a file");
    std::fs::write(
        script.path(),
        "const field = (await tw.elements()).find((e) => e.role === \"textbox\");\nawait tw.type({element: field.number, text: \"eggs\", submit: true});\nreturn (await tw.elements()).filter((e) => e.role === \"checkbox\").length;\n",
    )
    .expect("written");
    let ran = daemon
        .ok(&["run", &script.path().display().to_string()])
        .await;
    assert!(ran.contains("The script returned"), "{ran}");
    assert!(ran.contains("2 items left"), "{ran}");
    // Another session has its own tabs: no to-do page in it.
    let other = daemon.ok(&["--session", "two", "tabs"]).await;
    assert!(
        other.contains("1 tab open") && !other.contains("Todos"),
        "{other}"
    );
    let mine = daemon.ok(&["snapshot"]).await;
    assert!(mine.contains("milk") && mine.contains("eggs"), "{mine}");
    let status = daemon.ok(&["status"]).await;
    assert!(status.contains("2 sessions: default, two"), "{status}");
    // A tool's error is exit code 1; a command not understood, 2; other
    // settings than the daemon's, 2.
    let (stale, code) = daemon.output(&["click", "999"]).await;
    assert_eq!(code, 1, "{stale}");
    assert!(stale.contains("There is no element 999"), "{stale}");
    let (unknown, code) = daemon.output(&["frobnicate", "3"]).await;
    assert_eq!(code, 2, "{unknown}");
    let (other, code) = daemon.output(&["--viewport", "640x480", "snapshot"]).await;
    assert_eq!(code, 2, "{other}");
    assert!(other.contains("other settings"), "{other}");
    let stopped = daemon.ok(&["stop"]).await;
    assert!(stopped.contains("ending"), "{stopped}");
    let (none, code) = daemon.output(&["status"]).await;
    assert_eq!(code, 1, "{none}");

    // Idle, it ends by itself, and its browser with it.
    let idle = Daemon::new();
    let mut command = idle.command();
    command
        .env("TABWRIGHT_IDLE", "2")
        .args(&flags[..])
        .args(["open", &todo]);
    run(command, None).await;
    let status = idle.ok(&["status"]).await;
    let pid: i32 = status
        .split_whitespace()
        .nth(2)
        .and_then(|pid| pid.parse().ok())
        .unwrap_or_else(|| panic!("no pid in {status}"));
    let children = children_of(pid);
    assert!(!children.is_empty(), "the daemon runs no browser");
    let began = std::time::Instant::now();
    while std::path::Path::new(&format!("/proc/{pid}")).exists() {
        assert!(
            began.elapsed() < Duration::from_secs(30),
            "the daemon {pid} is still there after 30 s"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    for child in children {
        let stat = std::fs::read_to_string(format!("/proc/{child}/stat")).unwrap_or_default();
        assert!(
            stat.is_empty() || stat.contains(") Z "),
            "the daemon's child {child} outlived it: {stat}"
        );
    }
    assert!(!idle.folder().join("daemon.sock").exists());
}

/// Flags written after a tool command's words (as people and coding agents
/// write them) are read as the command's settings, and the daemon it
/// starts runs with them: the next command with the same flags is served
/// by it, not refused as another daemon's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn flags_after_a_tool_command_are_its_settings() {
    let site = Site::with_fixtures().await;
    let daemon = Daemon::new();
    let origin = site.origin();
    let page = site.url("/fx/todo.html");
    let opened = daemon
        .ok(&["open", &page, "--allow-origin", &origin, "--caps", "core"])
        .await;
    assert!(opened.contains("What needs to be done?"), "{opened}");
    let again = daemon
        .ok(&["snapshot", "--allow-origin", &origin, "--caps", "core"])
        .await;
    assert!(again.contains("What needs to be done?"), "{again}");
}

/// A daemon folder others may enter, or another user's, means no daemon
/// can be reached: the tool commands, `status` and `stop` exit 2 (as
/// `docs/commands.md` says) and say why.
#[tokio::test]
async fn a_refused_daemon_folder_exits_2() {
    use std::os::unix::fs::PermissionsExt;
    let root = tempfile::tempdir().expect("a folder");
    let open = root.path().join("open");
    std::fs::create_dir(&open).expect("a folder");
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o755)).expect("its mode");
    for args in [vec!["status"], vec!["stop"], vec!["tabs"]] {
        let output = Command::new(binary())
            .env("TABWRIGHT_RUNTIME_DIR", &open)
            .args(&args)
            .output()
            .await
            .expect("tabwright runs");
        let said = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {said}");
        assert!(
            said.contains("may be entered by other users"),
            "{args:?}: {said}"
        );
    }
}

/// A command sent while the daemon is ending waits for it and is answered
/// by the next daemon (not refused after 20 s because the old one still
/// held the folder); `stop` returns once the daemon and its browser are
/// gone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_while_the_daemon_ends_is_answered_by_the_next() {
    let site = Site::with_fixtures().await;
    let daemon = Daemon::new();
    let origin = site.origin();
    let page = site.url("/fx/todo.html");
    let open = [
        "open",
        page.as_str(),
        "--allow-origin",
        &origin,
        "--caps",
        "core",
    ];
    daemon.ok(&open).await;
    let status = daemon.ok(&["status"]).await;
    let pid: i32 = status
        .split_whitespace()
        .nth(2)
        .and_then(|pid| pid.parse().ok())
        .unwrap_or_else(|| panic!("no pid in {status}"));
    let browsers = children_of(pid);
    assert!(!browsers.is_empty(), "the daemon runs no browser");
    let mut stop = daemon.command();
    stop.arg("stop").stdin(Stdio::null()).stdout(Stdio::piped());
    let stopping = stop.spawn().expect("stop runs");
    // The daemon takes its socket away first, then closes its browser.
    let socket = daemon.folder().join("daemon.sock");
    let began = std::time::Instant::now();
    while socket.exists() && began.elapsed() < Duration::from_secs(10) {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let during = daemon.ok(&open).await;
    assert!(during.contains("What needs to be done?"), "{during}");
    let stopped = tokio::time::timeout(LIMIT, stopping.wait_with_output())
        .await
        .expect("stop ends in time")
        .expect("stop runs");
    assert_eq!(stopped.status.code(), Some(0), "{stopped:?}");
    // By the time stop returned, the old daemon and its browser were gone.
    for gone in std::iter::once(pid).chain(browsers) {
        let stat = std::fs::read_to_string(format!("/proc/{gone}/stat")).unwrap_or_default();
        assert!(
            stat.is_empty() || stat.contains(") Z "),
            "{gone} outlived stop: {stat}"
        );
    }
    let status = daemon.ok(&["status"]).await;
    assert!(!status.contains(&pid.to_string()), "{status}");
}

/// The skill file a coding agent loads: the format's front matter, the
/// commands and rules in under 1,000 tokens, and what `tabwright skill`
/// prints.
#[tokio::test]
async fn the_skill_teaches_in_few_tokens() {
    let skill = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../skills/tabwright/SKILL.md"
    ))
    .expect("the skill file");
    assert!(
        skill.starts_with("---\nname: tabwright\ndescription: "),
        "{skill}"
    );
    let tokens = tiktoken_rs::cl100k_base()
        .expect("the cl100k table")
        .encode_with_special_tokens(&skill)
        .len();
    eprintln!("SKILL.md: {tokens} cl100k tokens");
    assert!(tokens < 1_000, "SKILL.md is {tokens} tokens");
    for taught in [
        "tabwright open",
        "tabwright click 3",
        "--session",
        "run ",
        "{{secret:",
        "Exit codes",
    ] {
        assert!(
            skill.contains(taught),
            "the skill does not teach {taught:?}"
        );
    }
    let printed = Daemon::new().ok(&["skill"]).await;
    assert_eq!(printed, skill);
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

/// Sets a cookie (`?set=NAME`) and shows the cookies the page has.
/// A page that offers a consequential tool of its own (WebMCP).
const BUY: &str = "<!doctype html><title>Buy</title><p id=log>Nothing bought.</p><script>\
    document.modelContext.registerTool({name: 'buy', description: 'Buys it',\
    annotations: {consequentialHint: true}, execute: async () => {\
    document.getElementById('log').textContent = 'BOUGHT'; return 'bought'; }});\
    </script>";

const REMEMBER: &str = "<!doctype html><title>Remember</title><script>\
    const name = new URLSearchParams(location.search).get('set');\
    if (name) document.cookie = 'who=' + name + '; path=/';\
    </script><p id=seen></p><script>document.getElementById('seen').textContent = \
    'cookie=' + document.cookie + ' .';</script>";

/// `tabwright mcp --http` on a free loopback port, the site allowed, with
/// the flags `more` adds; returns it once it listens, and its port.
async fn http_server(site: &Site, more: impl FnOnce(&mut Command)) -> (tokio::process::Child, u16) {
    let port = tabwright_tests::free_port();
    let mut command = Command::new(binary());
    command
        .args([
            "mcp",
            "--http",
            &format!("127.0.0.1:{port}"),
            "--allow-origin",
        ])
        .arg(site.origin());
    more(&mut command);
    (started(command, "MCP over streamable HTTP").await, port)
}

/// Starts a binary that says on stderr when it listens, and waits for it.
async fn started(mut command: Command, says: &str) -> tokio::process::Child {
    use tokio::io::AsyncBufReadExt;
    command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    let mut child = command.spawn().expect("the server starts");
    let stderr = child.stderr.take().expect("stderr");
    let mut lines = tokio::io::BufReader::new(stderr).lines();
    let heard = tokio::time::timeout(LIMIT, async {
        while let Ok(Some(line)) = lines.next_line().await {
            if line.contains(says) {
                return true;
            }
        }
        false
    })
    .await;
    assert_eq!(heard, Ok(true), "the server never said {says:?}");
    // Its later lines go nowhere, so it never blocks on a full pipe.
    // (With TABWRIGHT_TEST_SERVER_LOG set they are printed, for debugging.)
    let shown = std::env::var_os("TABWRIGHT_TEST_SERVER_LOG").is_some();
    tokio::spawn(async move {
        while let Ok(Some(line)) = lines.next_line().await {
            if shown {
                eprintln!("server: {line}");
            }
        }
    });
    child
}

/// Waits (10 s at most) until none of the marked processes runs.
async fn until_none(marker: &tabwright_tests::backend::Marker) -> Vec<u32> {
    for _ in 0..200 {
        if marker.processes().is_empty() {
            return Vec::new();
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    marker.processes()
}

/// `tabwright mcp --http`, driven by the official Python SDK's streamable
/// HTTP client as several clients at once: a browser session each in one
/// shared browser, one too many refused, an idle one closed, a request
/// without the token refused; SIGTERM ends the server and its browser.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_over_http_serves_many_clients() {
    let site = Site::start().await;
    site.page("/remember", REMEMBER).await;
    site.page("/buy", BUY).await;
    let marker = tabwright_tests::backend::Marker::new();
    let (mut server, port) = http_server(&site, |command| {
        command
            .args([
                "--caps",
                "core,page_tools",
                "--max-sessions",
                "3",
                // (Long enough that the first client to open its page
                // is not idle yet when the last one has, on a busy
                // machine.)
                "--idle-timeout",
                "10",
                "--timeout",
                "20",
            ])
            .args(["--token", "open-sesame", "--chrome-arg", &marker.flag()]);
    })
    .await;

    let client = concat!(env!("CARGO_MANIFEST_DIR"), "/mcp/http_client.py");
    let mut python = Command::new("python3");
    python
        .arg(client)
        .arg(format!("http://127.0.0.1:{port}/mcp"))
        .arg(site.origin())
        .args(["3", "10", "open-sesame"]);
    let out = run(python, None).await;
    for expected in [
        "ada: sees only its own cookie",
        "one too many: HTTP 503",
        "new MCP session per call: 7 calls, one browser",
        "handoff through the host: a link to that session alone",
        "page tool confirmed through the host: it ran",
        "idle session closed",
        "no token: HTTP 401",
    ] {
        assert!(out.contains(expected), "no {expected:?} in:\n{out}");
    }
    assert!(out.trim_end().ends_with("ok"), "{out}");
    // The server's own command line carries the marker too (it passes it
    // on to Chrome); every other marked process is a browser.
    let server_pid = server.id().expect("a pid");
    let browsers: Vec<u32> = marker
        .processes()
        .into_iter()
        .filter(|pid| *pid != server_pid)
        .collect();
    assert_eq!(browsers.len(), 1, "the sessions shared one browser");

    let pid = nix::unistd::Pid::from_raw(server_pid as i32);
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM).expect("SIGTERM");
    let ended = tokio::time::timeout(LIMIT, server.wait()).await;
    assert!(matches!(ended, Ok(Ok(_))), "{ended:?}");
    let left = until_none(&marker).await;
    assert!(left.is_empty(), "browser processes left: {left:?}");
}

/// `tabwright mcp --http` driven by the MCP Python SDK 2.x's `Client` in its
/// default mode, which speaks the stateless 2026-07-28 revision: three
/// twenty-step tasks at once under session handles, handles bound to their
/// token, a cancelled call that frees its session within a second,
/// progress, bursts past the limit, a foreign origin and a slow client
/// (`mcp/modern_client.py`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_stateless_clients_keep_their_browser() {
    let site = Site::start().await;
    site.page("/remember", REMEMBER).await;
    let marker = tabwright_tests::backend::Marker::new();
    let (mut server, port) = http_server(&site, |command| {
        command
            .args(["--max-sessions", "4", "--timeout", "20"])
            .args(["--token", "open-sesame,other-key"])
            .args(["--chrome-arg", &marker.flag()])
            // A DevTools port for the test to list Chrome's own tabs
            // through (the browser tabwright starts has none of its own).
            .args(["--chrome-arg=--remote-debugging-port=0"]);
    })
    .await;
    let mut python = sdk2_client("modern_client.py");
    python
        .arg(format!("http://127.0.0.1:{port}/mcp"))
        .arg(site.origin())
        .args(["4", "open-sesame", "other-key"]);
    let out = run(python, None).await;
    for expected in [
        "ada: 2",
        "grace: 2",
        "edsger: 2",
        "another token: refused",
        "live view: ",
        "handoff: done through the live view",
        "cancelled: the next call answered",
        "progress: ",
        "burst of 12 opens: 4 sessions",
        "burst of 12 initializes",
        "rebound host: HTTP 403",
        "headers: not framed",
        "another token: sees no session",
        "close racing calls: nothing made after it",
        "legacy session id with another token: refused",
        "tasks: a long wait polled to its answer",
        "foreign origin: HTTP 403",
        "slow client: let go",
    ] {
        assert!(out.contains(expected), "no {expected:?} in:\n{out}");
    }
    eprintln!("{out}");
    assert!(out.trim_end().ends_with("ok"), "{out}");
    // Every session is over (closed, raced by calls, deleted, refused):
    // Chrome's own list holds no tab of any of them, only its first one.
    let server_pid = server.id().expect("a pid");
    let browser = marker
        .processes()
        .into_iter()
        .find(|pid| *pid != server_pid)
        .expect("the shared browser");
    let mut devtools = tabwright_tests::devtools::DevTools::of_process(browser)
        .await
        .expect("its DevTools");
    let mut pages = Vec::new();
    for _ in 0..100 {
        pages = devtools.pages().await.expect("its targets");
        if pages.len() <= 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(pages.len() <= 1, "tabs left behind: {pages:#?}");
    server.kill().await.expect("the server stops");
}

/// The official MCP TypeScript SDK's client (from npm), over stdio and over
/// streamable HTTP (where it keeps an MCP session): annotations on every
/// tool, a page opened and clicked, an aborted call that frees the session
/// within a second, progress (`npm/mcp-client.mjs`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_typescript_client() {
    let site = Site::start().await;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/npm/mcp-client.mjs");
    let mut stdio = Command::new("node");
    stdio
        .arg(script)
        .arg("stdio")
        .arg(binary())
        .arg(site.origin())
        .arg(tabwright_tests::free_port().to_string());
    let (mut server, port) = http_server(&site, |command| {
        command.args(["--timeout", "20", "--token", "open-sesame"]);
    })
    .await;
    let mut http = Command::new("node");
    http.arg(script)
        .arg("http")
        .arg(format!("http://127.0.0.1:{port}/mcp"))
        .arg(site.origin())
        .arg("open-sesame");
    let (stdio, http) = tokio::join!(run(stdio, None), run(http, None));
    server.kill().await.expect("the server stops");
    assert!(stdio.contains("live view: Second"), "{stdio}");
    assert!(
        http.contains("reconnected: the handle kept the page"),
        "{http}"
    );
    for out in [&stdio, &http] {
        for expected in [
            "each with a title and four hints",
            "opened and clicked",
            "aborted: the next call answered",
            "progress: ",
        ] {
            assert!(out.contains(expected), "no {expected:?} in:\n{out}");
        }
        assert!(out.trim_end().ends_with("ok"), "{out}");
        eprintln!("{out}");
    }
}

/// SIGTERM ends a stdio server at once, its stdin still open (a thread
/// blocked reading it must not keep the process alive), with its browser.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_ends_a_stdio_server() {
    let site = Site::start().await;
    let marker = tabwright_tests::backend::Marker::new();
    let mut child = hung_client(&site, &marker).await;
    let server = marker
        .processes()
        .into_iter()
        .find(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|cmdline| cmdline.starts_with(binary().as_os_str().as_encoded_bytes()))
        })
        .expect("the server runs");
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(server as i32),
        nix::sys::signal::Signal::SIGTERM,
    )
    .expect("SIGTERM");
    // The client holds the server's stdin open all along.
    let mut ended = false;
    for _ in 0..100 {
        let state = std::fs::read_to_string(format!("/proc/{server}/stat")).unwrap_or_default();
        if state.is_empty() || state.split_whitespace().nth(2) == Some("Z") {
            ended = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(ended, "the server still runs 5 s after SIGTERM");
    child.kill().await.expect("the client is killed");
    let left = until_none(&marker).await;
    assert!(left.is_empty(), "browser processes left: {left:?}");
}

/// A password field that fills the whole window, and says what it holds.
const BIG_FIELD: &str = r#"<!doctype html><title>Sign in</title>
<style>body{margin:0} input{position:fixed;inset:0;width:100vw;height:100vh;font-size:40px}</style>
<input type="password" id="pw" aria-label="Password" oninput="document.title = 'Sign in: ' + this.value.length + ' characters'">"#;

/// A person takes over through the live view itself, in Chromium, driven
/// by the project's own pack: the page shows the handoff's reason, a click
/// on its picture lands on the page, what is typed into its box reaches a
/// password field, Done resumes the model's call with `done`; what the
/// person typed is in no answer and no trace.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_takes_over_in_the_live_view() {
    use tokio::io::AsyncBufReadExt;
    const TYPED: &str = "Hunter2-Blue-Sky";
    let site = Site::start().await;
    site.page("/sign-in", BIG_FIELD).await;
    let traces = tempfile::tempdir().expect("a folder");
    let (mut server, port) = http_server(&site, |command| {
        command
            .args(["--token", "open-sesame", "--trace"])
            .arg(traces.path());
    })
    .await;
    let mut python = sdk2_client("handoff_client.py");
    python
        .arg(format!("http://127.0.0.1:{port}/mcp"))
        .arg(site.url("/sign-in"))
        .arg("open-sesame")
        .stdout(Stdio::piped())
        .kill_on_drop(true);
    let mut model = python.spawn().expect("the client starts");
    let mut lines = tokio::io::BufReader::new(model.stdout.take().expect("stdout")).lines();
    let waiting = tokio::time::timeout(LIMIT, lines.next_line())
        .await
        .expect("the client says it waits")
        .expect("a line")
        .expect("a line");
    assert!(waiting.starts_with("waiting "), "{waiting}");

    // The person: a browser of the project's own, on the live view.
    let (person, _) = live_viewer(port).await;
    let shown = person
        .call(
            "wait_for",
            serde_json::json!({ "text": "Type the password" }),
        )
        .await;
    assert!(!shown.is_error, "{}", shown.text);
    let page = person.call("snapshot", serde_json::json!({})).await;
    let number = |needle: &str| {
        tools::element_number(&page.text, needle)
            .unwrap_or_else(|| panic!("no {needle} in:\n{}", page.text))
    };
    let (picture, field, send, done) = (
        number("id \"frame\""),
        number("id \"typed\""),
        number("button \"Type\""),
        number("button \"Done\""),
    );
    for (tool, arguments) in [
        ("click", serde_json::json!({ "element": picture })),
        (
            "type",
            serde_json::json!({ "element": field, "text": TYPED }),
        ),
        ("click", serde_json::json!({ "element": send })),
    ] {
        let output = person.call(tool, arguments.clone()).await;
        assert!(!output.is_error, "{tool} {arguments}: {}", output.text);
    }
    // (The inputs are carried out in order: Done comes after the text.)
    let pressed = person
        .call("click", serde_json::json!({ "element": done }))
        .await;
    assert!(!pressed.is_error, "{}", pressed.text);
    person.close().await;

    let mut rest = String::new();
    while let Ok(Some(line)) = tokio::time::timeout(LIMIT, lines.next_line())
        .await
        .expect("the client goes on")
    {
        rest.push_str(&line);
        rest.push('\n');
    }
    let _ = model.wait().await;
    server.kill().await.expect("the server stops");
    assert!(rest.contains("ANSWER Handoff done"), "{rest}");
    assert!(
        rest.contains("1 typed text") && rest.contains("1 click"),
        "{rest}"
    );
    // The page got what was typed: its title counts the characters.
    assert!(rest.contains("Sign in: 16 characters"), "{rest}");
    assert!(
        !rest.contains(TYPED),
        "the model read what the person typed:\n{rest}"
    );
    for entry in tabwright_tests::files_under(traces.path()) {
        let bytes = std::fs::read(&entry).expect("a file");
        assert!(
            !String::from_utf8_lossy(&bytes).contains(TYPED),
            "{entry:?} holds what the person typed"
        );
    }
}

/// The live view, read in Chromium by the project's own pack, as a person
/// reads it: it lists two sessions of two MCP clients at once, each with
/// its page and its memory; the picture of one changes after that
/// session's `open`, and the other's does not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_live_view_lists_sessions_and_follows_them() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    let site = Site::start().await;
    for (path, title) in [
        ("/one", "First page"),
        ("/two", "Second page"),
        ("/three", "Third page"),
    ] {
        site.page(
            path,
            &format!("<!doctype html><title>{title}</title><h1>{title}</h1>"),
        )
        .await;
    }
    let (mut server, port) = http_server(&site, |command| {
        command.args(["--token", "open-sesame"]);
    })
    .await;
    let mut python = sdk2_client("two_sessions.py");
    python
        .arg(format!("http://127.0.0.1:{port}/mcp"))
        .arg(site.origin())
        .arg("open-sesame")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .kill_on_drop(true);
    let mut models = python.spawn().expect("the clients start");
    let mut said = tokio::io::BufReader::new(models.stdout.take().expect("stdout")).lines();
    let mut told = models.stdin.take().expect("stdin");
    let mut next = async || {
        tokio::time::timeout(LIMIT, said.next_line())
            .await
            .expect("the clients go on")
            .expect("a line")
            .unwrap_or_default()
    };
    assert_eq!(next().await, "ready");

    let (person, live) = live_viewer(port).await;
    let listed = person
        .call("wait_for", serde_json::json!({ "text": "Second page" }))
        .await;
    assert!(
        !listed.is_error,
        "{}\n{}",
        listed.text,
        person.call("snapshot", serde_json::json!({})).await.text
    );
    let page = person.call("snapshot", serde_json::json!({})).await;
    for expected in [
        "Session 1",
        "Session 2",
        "First page",
        "Second page",
        "MiB of 2048",
    ] {
        assert!(
            page.text.contains(expected),
            "no {expected:?} in:\n{}",
            page.text
        );
    }
    // What the page shows its picture from: each session's latest frame,
    // by number, with the title it shows.
    let listed = async || {
        let (status, body) =
            tabwright_tests::http::fetch(&format!("{live}/live/sessions?token=open-sesame"))
                .await
                .expect("the list");
        assert_eq!(status, 200, "{body}");
        let listed: serde_json::Value = serde_json::from_str(&body).expect("JSON");
        listed["sessions"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|session| {
                (
                    session["title"].as_str().unwrap_or_default().to_owned(),
                    session["frame"].as_u64().unwrap_or_default(),
                )
            })
            .collect::<Vec<_>>()
    };
    // The screencasts start once the view is looked at: their first
    // frames come, then none while the pages stand still.
    let mut before = listed().await;
    for _ in 0..50 {
        tokio::time::sleep(Duration::from_millis(300)).await;
        let now = listed().await;
        let settled = now == before && now.iter().all(|(_, frame)| *frame > 0);
        before = now;
        if settled {
            break;
        }
    }
    let first = before
        .iter()
        .position(|(title, _)| title == "First page")
        .unwrap_or_else(|| panic!("{before:?}"));
    told.write_all(b"/three\n").await.expect("told");
    assert_eq!(next().await, "opened");
    let shown = person
        .call("wait_for", serde_json::json!({ "text": "Third page" }))
        .await;
    assert!(!shown.is_error, "{}", shown.text);
    let mut after = listed().await;
    for _ in 0..50 {
        if after[first].1 != before[first].1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        after = listed().await;
    }
    assert_eq!(after[first].0, "Third page", "{after:?}");
    assert_ne!(
        after[first].1, before[first].1,
        "the picture changed: {before:?} {after:?}"
    );
    assert_eq!(
        after[1 - first],
        before[1 - first],
        "the other session's page and picture stay"
    );
    person.close().await;
    drop(told);
    let _ = tokio::time::timeout(LIMIT, models.wait()).await;
    server.kill().await.expect("the server stops");
}

/// An MCP client (`mcp/hang_client.py`) running a server whose browser is
/// marked, once it says the browser is up; it then waits for ever.
async fn hung_client(
    site: &Site,
    marker: &tabwright_tests::backend::Marker,
) -> tokio::process::Child {
    use tokio::io::AsyncBufReadExt;
    let client = concat!(env!("CARGO_MANIFEST_DIR"), "/mcp/hang_client.py");
    let mut python = Command::new("python3");
    python
        .arg(client)
        .arg(binary())
        .arg(site.origin())
        .args(["--chrome-arg", &marker.flag()])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true);
    let mut child = python.spawn().expect("the client starts");
    let stdout = child.stdout.take().expect("stdout");
    let mut lines = tokio::io::BufReader::new(stdout).lines();
    let ready = tokio::time::timeout(LIMIT, lines.next_line()).await;
    assert!(
        matches!(&ready, Ok(Ok(Some(line))) if line == "ready"),
        "{ready:?}"
    );
    child
}

/// An MCP client that dies (killed, its pipes closed) leaves no browser
/// behind: the server sees its stdin close, closes the browser, exits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dead_client_leaves_no_browser() {
    let site = Site::start().await;
    let marker = tabwright_tests::backend::Marker::new();
    let mut child = hung_client(&site, &marker).await;
    assert!(!marker.processes().is_empty(), "the browser runs");
    child.kill().await.expect("the client is killed");
    let left = until_none(&marker).await;
    assert!(left.is_empty(), "browser processes left: {left:?}");
}

/// A server killed outright (SIGKILL: no close, no drop) still leaves no
/// browser behind: Chrome is started to die with the process that started
/// it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_server_leaves_no_browser() {
    let site = Site::start().await;
    let marker = tabwright_tests::backend::Marker::new();
    let mut child = hung_client(&site, &marker).await;
    // The marked processes: the client, the server, the browser.
    let client_pid = child.id().expect("a pid");
    let server = marker
        .processes()
        .into_iter()
        .find(|pid| {
            std::fs::read(format!("/proc/{pid}/cmdline"))
                .is_ok_and(|cmdline| cmdline.starts_with(binary().as_os_str().as_encoded_bytes()))
        })
        .expect("the server runs");
    assert_ne!(server, client_pid);
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(server as i32),
        nix::sys::signal::Signal::SIGKILL,
    )
    .expect("SIGKILL");
    child.kill().await.expect("the client is killed");
    let left = until_none(&marker).await;
    assert!(left.is_empty(), "browser processes left: {left:?}");
}
