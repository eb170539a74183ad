//! The daemon behind the tool commands run from a shell: its sessions, its flags, its folder, its handover, and the skill that teaches it.

use super::*;

/// Tool commands from a shell: the daemon the first starts keeps the
/// session across commands (a script from a file included), named sessions
/// are apart, exit codes say what happened, and the daemon ends when idle
/// with its browser.
pub(super) async fn daemon_sessions(backend: Backend) {
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
pub(super) async fn flags_after_a_tool_command_are_its_settings() {
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
pub(super) async fn a_refused_daemon_folder_exits_2() {
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
pub(super) async fn a_command_while_the_daemon_ends_is_answered_by_the_next() {
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
pub(super) async fn the_skill_teaches_in_few_tokens() {
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
