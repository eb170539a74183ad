//! The `tabwright` binary as people and MCP clients meet it: the demo end
//! to end, `open`, the shell fed from a pipe, and the MCP server driven by
//! the official MCP Python SDK (a client no one here wrote), on both
//! backends. `cargo xtask test` builds the binary and installs the SDK first.

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

fn backend_flag(backend: Backend) -> &'static str {
    match backend {
        Backend::Cdp => "cdp",
        Backend::WebDriver => "webdriver",
    }
}

/// Runs the binary to the end and returns its stdout; it must succeed.
pub(crate) async fn run(mut command: Command, input: Option<&str>) -> String {
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    let mut child = command.spawn().expect("the command starts");
    let mut stdin = child.stdin.take().expect("stdin");
    if let Some(input) = input {
        stdin.write_all(input.as_bytes()).await.expect("input");
    }
    drop(stdin);
    let output = tokio::time::timeout(LIMIT, child.wait_with_output())
        .await
        .expect("the command finishes in time")
        .expect("the command runs");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{command:?} failed ({}):\n{stdout}\n{stderr}",
        output.status
    );
    stdout
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
        "is open and blocks the page: \"Empty your basket?\"",
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
    let mut command = Command::new(binary());
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
    // A profile directory the user names is kept, not deleted on close.
    assert!(
        profile.path().join("Default").is_dir(),
        "no Chrome profile in {}",
        profile.path().display()
    );

    // Without the origin allowed, the guard refuses and the exit code says so.
    let refused = Command::new(binary())
        .args(["--backend", backend_flag(backend), "open"])
        .arg(site.url("/"))
        .output()
        .await
        .expect("runs");
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stdout).contains("Refused to open"));
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
        "cannot read \"fly away\"",
        "Went back to",
    ] {
        assert!(out.contains(expected), "no {expected:?} in:\n{out}");
    }
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

both_backends!(demo, open, shell, mcp_python_client);
