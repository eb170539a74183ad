//! `tabwright mcp --http` and the live view: many clients, stateless ones, the SDKs' clients, signals, a person taking over, the sessions' list, clients that die.

use super::*;

/// Sets a cookie (`?set=NAME`) and shows the cookies the page has.
/// A page that offers a consequential tool of its own (WebMCP).
pub(super) const BUY: &str =
    "<!doctype html><title>Buy</title><p id=log>Nothing bought.</p><script>\
    document.modelContext.registerTool({name: 'buy', description: 'Buys it',\
    annotations: {consequentialHint: true}, execute: async () => {\
    document.getElementById('log').textContent = 'BOUGHT'; return 'bought'; }});\
    </script>";

pub(super) const REMEMBER: &str = "<!doctype html><title>Remember</title><script>\
    const name = new URLSearchParams(location.search).get('set');\
    if (name) document.cookie = 'who=' + name + '; path=/';\
    </script><p id=seen></p><script>document.getElementById('seen').textContent = \
    'cookie=' + document.cookie + ' .';</script>";

/// `tabwright mcp --http` on a free loopback port, the site allowed, with
/// the flags `more` adds; returns it once it listens, and its port.
pub(super) async fn http_server(
    site: &Site,
    more: impl FnOnce(&mut Command),
) -> (tokio::process::Child, u16) {
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
pub(super) async fn started(mut command: Command, says: &str) -> tokio::process::Child {
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
pub(super) async fn until_none(marker: &tabwright_tests::backend::Marker) -> Vec<u32> {
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
pub(super) async fn mcp_over_http_serves_many_clients() {
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
pub(super) async fn mcp_stateless_clients_keep_their_browser() {
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
pub(super) async fn mcp_typescript_client() {
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
pub(super) async fn sigterm_ends_a_stdio_server() {
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
pub(super) const BIG_FIELD: &str = r#"<!doctype html><title>Sign in</title>
<style>body{margin:0} input{position:fixed;inset:0;width:100vw;height:100vh;font-size:40px}</style>
<input type="password" id="pw" aria-label="Password" oninput="document.title = 'Sign in: ' + this.value.length + ' characters'">"#;

/// A person takes over through the live view itself, in Chromium, driven
/// by the project's own pack: the page shows the handoff's reason, a click
/// on its picture lands on the page, what is typed into its box reaches a
/// password field, Done resumes the model's call with `done`; what the
/// person typed is in no answer and no trace.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn a_person_takes_over_in_the_live_view() {
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
pub(super) async fn the_live_view_lists_sessions_and_follows_them() {
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
pub(super) async fn hung_client(
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
pub(super) async fn a_dead_client_leaves_no_browser() {
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
pub(super) async fn a_killed_server_leaves_no_browser() {
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
