//! The tool pack on both backends, as a model meets it: every tool's answer
//! and every error text in insta transcripts, settling on a page that
//! re-renders, dialogs that never block, and a table of malformed and
//! hostile calls each answered with a clear error while the session stays
//! usable.

use std::time::Duration;

use driver_core::{Driver, Options};
use serde_json::{json, Value};
use tabwright_tests::Backend;
use tools::PackOptions;

mod session;
pub use session::Session;

impl Session {
    /// Closes the session and checks its transcript: one transcript for
    /// both backends, which answer alike (kept with this file's snapshots).
    pub async fn finish(mut self, name: &str) {
        self.ok("close", json!({})).await;
        insta::assert_snapshot!(name.to_owned(), self.transcript);
    }
}

/// Every text-mode tool once, in the order a model might use them.
async fn every_tool(backend: Backend) {
    let mut s = Session::start(backend, false).await;
    let form = s.ok("open", json!({ "url": s.url("/signup") })).await;
    let name = Session::number(&form, "\"Name\"");
    let go = Session::number(&form, "\"Check\"");
    s.ok("type", json!({ "element": name, "text": "Ada" }))
        .await;
    s.ok(
        "type",
        json!({ "element": name, "text": " Lovelace", "append": true }),
    )
    .await;
    s.ok("click", json!({ "element": go })).await;
    s.ok("press", json!({ "keys": "Shift+Tab Control+a" }))
        .await;
    s.ok("type", json!({ "text": "ada@example.com", "submit": true }))
        .await;
    s.ok("click", json!({ "x": 700, "y": 5 })).await;
    s.ok("snapshot", json!({ "scope": go })).await;

    let select = s
        .ok("open", json!({ "url": s.url("/fx/select.html") }))
        .await;
    let size = Session::number(&select, "combobox");
    s.ok("select", json!({ "element": size, "options": ["Large"] }))
        .await;

    let hover = s.ok("open", json!({ "url": s.url("/hover") })).await;
    let account = Session::number(&hover, "\"Account\"");
    s.ok("hover", json!({ "element": account })).await;

    s.ok("open", json!({ "url": s.url("/fx/long.html") })).await;
    s.ok("scroll", json!({ "direction": "down" })).await;
    s.ok("scroll", json!({ "direction": "up", "pixels": 10000 }))
        .await;
    s.ok(
        "snapshot",
        json!({ "full_page": true, "max_tokens": 20, "part": 2 }),
    )
    .await;
    s.ok("snapshot", json!({ "full_page": true, "part": 3 }))
        .await;
    s.ok("back", json!({})).await;
    s.ok("forward", json!({})).await;

    let popups = s.ok("open", json!({ "url": s.url("/popups") })).await;
    let link = Session::number(&popups, "new tab");
    s.ok("click", json!({ "element": link })).await;
    s.ok("tabs", json!({ "action": "switch", "tab": 2 })).await;
    s.ok("tabs", json!({})).await;
    s.ok("tabs", json!({ "action": "close", "tab": 2 })).await;
    s.ok("tabs", json!({ "action": "new", "url": s.url("/second") }))
        .await;
    s.ok("tabs", json!({ "action": "close" })).await;

    let shot = s.ok("screenshot", json!({})).await;
    assert_eq!(shot.images[0].mime_type, "image/png");
    let marked = s
        .ok("screenshot", json!({ "numbers": true, "format": "jpeg" }))
        .await;
    assert_eq!(marked.images[0].mime_type, "image/jpeg");

    // The page shows a line 0.3 s after it loads (before the watchers that
    // settling installs, so not waited for) and another 2 s after: what
    // `open` and the first wait read depends on how loaded the machine is,
    // so they stay out of the transcript; the wait for the second line ends
    // with both there on any machine.
    let opened = s.pack.call("open", json!({ "url": s.url("/later") })).await;
    assert!(!opened.is_error, "{}", opened.text);
    let waited = s.pack.call("wait_for", json!({ "text": "here now" })).await;
    assert!(
        waited.text.contains("\"here now\" is on the page."),
        "{}",
        waited.text
    );
    s.ok("wait_for", json!({ "text": "not yet" })).await;
    s.ok("wait_for", json!({ "seconds": 0.1 })).await;

    let logs = s.ok("open", json!({ "url": s.url("/logs") })).await;
    let log = Session::number(&logs, "\"Log\"");
    s.ok("click", json!({ "element": log })).await;
    s.ok("console", json!({})).await;
    s.ok("console", json!({})).await;

    s.ok("open", json!({ "url": s.url("/tracker") })).await;
    s.finish("every_tool").await;
}

/// Dialogs never block: the action says a dialog is open, other calls say
/// to answer it, `dialog` answers, and the page goes on.
async fn dialogs(backend: Backend) {
    let mut s = Session::start(backend, false).await;
    let page = s.ok("open", json!({ "url": s.url("/dialogs") })).await;
    let alert = Session::number(&page, "\"Alert\"");
    let confirm = Session::number(&page, "\"Confirm\"");
    let prompt = Session::number(&page, "\"Prompt\"");
    s.call("dialog", json!({ "accept": true })).await;
    let opened = s.ok("click", json!({ "element": alert })).await;
    assert!(opened.text.contains("Hello there"), "{}", opened.text);
    let blocked = s.call("snapshot", json!({})).await;
    assert!(
        blocked.text.contains("Answer it with dialog"),
        "{}",
        blocked.text
    );
    let refused = s.call("type", json!({ "text": "x" })).await;
    assert!(
        refused.text.contains("Answer it with dialog"),
        "{}",
        refused.text
    );
    s.call("click", json!({ "element": confirm })).await;
    s.ok("dialog", json!({ "accept": true })).await;
    s.ok("click", json!({ "element": confirm })).await;
    let dismissed = s.ok("dialog", json!({ "accept": false })).await;
    assert!(dismissed.text.contains("\nno\n") || dismissed.text.contains("no\n---"));
    s.ok("click", json!({ "element": prompt })).await;
    let answered = s
        .ok("dialog", json!({ "accept": true, "text": "Ada" }))
        .await;
    assert!(answered.text.contains("Ada"), "{}", answered.text);
    s.finish("dialogs").await;
}

/// Settling: a click whose page re-renders a moment later, one whose page
/// fetches before it renders, and one whose page reads a slow body before
/// it renders, are read after the render; a click on a link, or on a button
/// that submits a form, is read on the page it leads to, with its HTTP
/// status, and a link in a frame on the frame's next page; a download does
/// not hold up the actions after it.
async fn settling(backend: Backend) {
    let mut s = Session::start(backend, false).await;
    for (page, press, then) in [
        ("/fx/spa.html", "Open the first message", "Hello from Ada"),
        ("/fetches", "\"Load\"", "Loaded: 42 rows"),
        ("/xhr", "\"Fetch\"", "Fetched: 42 rows"),
        ("/streams", "\"Stream\"", "Streamed: 7 pages"),
        ("/", "\"Second page\"", "The second page"),
        ("/orders", "\"Search\"", "The second page"),
        ("/orders", "\"Submit by script\"", "The third page"),
        ("/orders", "\"Submit in a frame\"", "The third page"),
        ("/files", "\"An old report\"", "Status: 404"),
        ("/framed", "\"Next inside\"", "Inside, later"),
        ("/fx/steps.html", "\"Pick a date\"", "Pick a day"),
    ] {
        let opened = s.ok("open", json!({ "url": s.url(page) })).await;
        let target = Session::number(&opened, press);
        let clicked = s.ok("click", json!({ "element": target })).await;
        assert!(clicked.text.contains(then), "{}", clicked.text);
    }

    // A navigation that ends in a download leaves the page as it was, which
    // the page cannot see. Where the backend sees the download begin (CDP)
    // it is not waited for at all; elsewhere it is waited for once (the
    // transcript would hold the time it took, so these calls stay out of
    // it), not by every action after it.
    let opened = s.pack.call("open", json!({ "url": s.url("/files") })).await;
    let report = Session::number(&opened, "\"The report\"");
    let count = Session::number(&opened, "\"Count\"");
    let fetched = s.pack.call("click", json!({ "element": report })).await;
    let reported = backend
        .driver(Options::default())
        .capabilities()
        .supports(driver_core::Capability::DownloadReports);
    assert!(
        !reported
            || (fetched.text.contains("A download was refused") && !fetched.text.contains("busy")),
        "{}",
        fetched.text
    );
    let counted = s.pack.call("click", json!({ "element": count })).await;
    assert!(
        counted.text.contains("Counted") && !counted.text.contains("busy"),
        "{}",
        counted.text
    );
    // A mailto: link goes to another program: nothing to wait for at all.
    let mail = Session::number(&counted, "\"Mail the office\"");
    let mailed = s.pack.call("click", json!({ "element": mail })).await;
    assert!(
        mailed.text.contains("Page: Files") && !mailed.text.contains("busy"),
        "{}",
        mailed.text
    );
    s.finish("settling").await;
}

/// Vision mode: pointing tools answered with a small picture and the
/// console lines since the last action.
async fn vision(backend: Backend) {
    let mut s = Session::start(backend, true).await;
    let names: Vec<&str> = s.pack.tools().iter().map(|tool| tool.name).collect();
    assert!(!names.contains(&"snapshot") && names.contains(&"click"));
    let opened = s.ok("open", json!({ "url": s.url("/logs") })).await;
    assert_eq!(opened.images[0].mime_type, "image/jpeg");
    // The Log button is the first thing on the page.
    let clicked = s.ok("click", json!({ "x": 20, "y": 18 })).await;
    assert!(
        clicked.text.contains("[error] button broke"),
        "{}",
        clicked.text
    );
    assert_eq!(clicked.images.len(), 1);
    s.ok("scroll", json!({ "direction": "down" })).await;
    s.ok("open", json!({ "url": s.url("/form") })).await;
    s.ok("click", json!({ "x": 60, "y": 18 })).await;
    s.ok("type", json!({ "text": "Ada", "submit": true })).await;
    let rejected = s.call("click", json!({ "element": 1 })).await;
    assert!(rejected.is_error);
    s.finish("vision").await;
}

/// Clicks as people make them: double and triple, right and middle, with
/// keys held; by number and at a point; each one what the page saw.
async fn clicks(backend: Backend) {
    let mut s = Session::start(backend, false).await;
    let page = s.ok("open", json!({ "url": s.url("/clicks") })).await;
    let target = Session::number(&page, "\"Target\"");
    let log = async |s: &mut Session| -> String {
        let logged = s
            .pack
            .driver()
            .eval("(() => { const log = document.getElementById('log'); const seen = log.textContent.trim(); log.textContent = ''; return seen; })()")
            .await
            .expect("the log");
        logged.as_str().unwrap_or_default().to_owned()
    };
    for (arguments, said, seen) in [
        (json!({ "element": target }), "Clicked [", "click:0#1"),
        (
            json!({ "element": target, "count": 2 }),
            "Double-clicked [",
            "click:0#1 click:0#2 dblclick:0#2",
        ),
        (
            json!({ "element": target, "count": 3 }),
            "Triple-clicked [",
            "click:0#1 click:0#2 dblclick:0#2 click:0#3",
        ),
        (
            json!({ "element": target, "button": "right" }),
            "Right-clicked [",
            "contextmenu:2#0 auxclick:2#1",
        ),
        (
            json!({ "element": target, "button": "middle" }),
            "Middle-clicked [",
            "auxclick:1#1",
        ),
        (
            json!({ "element": target, "modifiers": ["Control", "Shift"] }),
            "with Control+Shift held",
            "click:0#1+ctrl+shift",
        ),
        (
            json!({ "x": 60, "y": 40, "count": 2, "modifiers": ["Alt"] }),
            "Double-clicked at (60, 40) with Alt held",
            "click:0#1+alt click:0#2+alt dblclick:0#2+alt",
        ),
    ] {
        let answer = s.ok("click", arguments.clone()).await;
        assert!(answer.text.contains(said), "{arguments}: {}", answer.text);
        assert_eq!(log(&mut s).await, seen, "{arguments}");
    }
    let refused = s
        .pack
        .call("click", json!({ "element": target, "count": 4 }))
        .await;
    assert!(
        refused.is_error && refused.text.contains("count 4"),
        "{}",
        refused.text
    );
    s.pack.close().await;
}

/// Malformed and hostile calls: each gets one clear sentence, none panics or
/// hangs, and the session answers normally after every one of them.
async fn bad_input(backend: Backend) {
    let mut s = Session::start(backend, false).await;
    let page = s
        .ok("open", json!({ "url": s.url("/fx/select.html") }))
        .await;
    let select = Session::number(&page, "combobox");
    let long_name = "x".repeat(10_000);
    let long_text = "y".repeat(20_000);
    let cases: Vec<(&str, Value)> = vec![
        ("navigate", json!({ "url": "https://example.com/" })),
        ("", json!({})),
        (&long_name, json!({})),
        ("open", json!({})),
        ("open", json!({ "url": 42 })),
        ("open", json!({ "url": "" })),
        ("open", json!({ "url": "not a url" })),
        ("open", json!({ "url": "javascript:alert(1)" })),
        ("open", json!({ "url": "file:///etc/passwd" })),
        ("open", json!({ "url": "data:text/html,<h1>hi</h1>" })),
        ("open", json!({ "url": "chrome://settings" })),
        ("open", json!({ "url": "http://127.0.0.1:1/" })),
        (
            "open",
            json!({ "url": "http://169.254.169.254/latest/meta-data/" }),
        ),
        ("open", json!({ "url": "http://localhost:8080/" })),
        ("open", json!({ "url": "http://[::1]/" })),
        ("open", json!({ "url": "http://10.0.0.1/" })),
        ("open", json!({ "url": "http://0x7f000001/" })),
        ("open", json!({ "url": "http://[::ffff:127.0.0.1]/" })),
        ("open", json!({ "url": "http://printer.local/" })),
        // A mistyped name: no such site, which is not the guard's doing.
        ("open", json!({ "url": "http://shop.example.invalid/" })),
        ("open", json!({ "url": s.url("/"), "bogus": 1 })),
        ("open", json!([1, 2])),
        ("open", json!("http://example.com/")),
        ("click", json!({})),
        ("click", json!({ "element": 9999 })),
        ("click", json!({ "element": -1 })),
        ("click", json!({ "element": "3" })),
        ("click", json!({ "element": 1.5 })),
        ("click", json!({ "x": 10 })),
        ("click", json!({ "x": -5, "y": 10 })),
        ("click", json!({ "x": 1e12, "y": 1e12 })),
        ("click", json!({ "element": select, "x": 1, "y": 2 })),
        ("type", json!({ "element": select })),
        ("type", json!({ "element": 9999, "text": "x" })),
        ("type", json!({ "element": select, "text": long_text })),
        ("press", json!({ "keys": "" })),
        ("press", json!({ "keys": "NoSuchKey" })),
        ("press", json!({ "keys": "Control+" })),
        ("press", json!({ "keys": "a ".repeat(60) })),
        ("select", json!({ "element": select, "options": ["Nope"] })),
        ("select", json!({ "element": select, "options": [] })),
        ("select", json!({ "element": 9999, "options": ["Large"] })),
        ("hover", json!({})),
        ("hover", json!({ "element": 9999 })),
        ("scroll", json!({})),
        ("scroll", json!({ "direction": "sideways" })),
        ("scroll", json!({ "direction": "down", "pixels": -5 })),
        (
            "scroll",
            json!({ "direction": "down", "element": select, "x": 5, "y": 5 }),
        ),
        ("scroll", json!({ "direction": "down", "x": 5 })),
        ("scroll", json!({ "element": 9999 })),
        ("forward", json!({})),
        ("back", json!({ "steps": 2 })),
        ("back", json!({})),
        ("tabs", json!({ "action": "switch" })),
        ("tabs", json!({ "action": "switch", "tab": 0 })),
        ("tabs", json!({ "action": "switch", "tab": 99 })),
        ("tabs", json!({ "action": "close", "tab": 99 })),
        ("tabs", json!({ "action": "fly" })),
        ("tabs", json!({ "tab": 2 })),
        (
            "tabs",
            json!({ "action": "new", "url": "http://127.0.0.1:1/" }),
        ),
        ("screenshot", json!({ "format": "gif" })),
        ("screenshot", json!({ "numbers": true, "full_page": true })),
        ("wait_for", json!({})),
        ("wait_for", json!({ "seconds": -1 })),
        ("wait_for", json!({ "seconds": "soon" })),
        ("wait_for", json!({ "text": "a", "gone": "b" })),
        ("wait_for", json!({ "text": "  " })),
        ("dialog", json!({})),
        ("dialog", json!({ "accept": true })),
        ("snapshot", json!({ "scope": 9999 })),
        ("snapshot", json!({ "max_tokens": -1 })),
        ("console", json!({ "all": true })),
        ("close", json!({ "now": true })),
    ];
    assert!(cases.len() >= 50, "{} cases", cases.len());
    for (tool, arguments) in cases {
        let shown = if tool.len() > 40 {
            "(a 10,000-character name)"
        } else {
            tool
        };
        let output = s.pack.call(tool, arguments.clone()).await;
        assert!(
            output.is_error,
            "{shown} {arguments} did not fail: {}",
            output.text
        );
        assert!(
            output.text.ends_with('.') && !output.text.contains('\n') && output.text.len() < 600,
            "not one clear sentence: {}",
            output.text
        );
        let arguments = arguments.to_string();
        let arguments: String = if arguments.len() > 80 {
            format!("{}… ({} characters)", &arguments[..60], arguments.len())
        } else {
            arguments
        };
        let entry = format!("> {shown} {arguments}\n{}\n\n", output.text);
        s.transcript.push_str(&s.redact(&entry));
        // Still usable: the page answers as before.
        let after = s.pack.call("snapshot", json!({})).await;
        assert!(
            !after.is_error && after.text.contains("\"Size\""),
            "after {shown}: {}",
            after.text
        );
    }

    // Numbers from a page the tab has left, and a covered element.
    let old = s
        .ok("open", json!({ "url": s.url("/fx/overlay.html") }))
        .await;
    let covered = Session::number(&old, "covered by");
    s.call("click", json!({ "element": covered })).await;
    s.ok("open", json!({ "url": s.url("/second") })).await;
    let stale = s.call("click", json!({ "element": covered })).await;
    assert!(stale.is_error && stale.text.contains("take a new snapshot"));
    s.finish("bad_input").await;
}

/// A page that spins, one that never finishes loading, a tab the page
/// closes, and a browser that dies: each call answers within the timeout
/// with what happened, and the next call works.
async fn trouble(backend: Backend) {
    let marker = tabwright_tests::backend::Marker::new();
    let options = Options {
        timeout: Duration::from_secs(5),
        extra_args: vec![marker.flag()],
        ..Options::default()
    };
    let mut s = Session::start_with(backend, false, options).await;
    s.ok("open", json!({ "url": s.url("/") })).await;

    let started = std::time::Instant::now();
    let spun = s.call("open", json!({ "url": s.url("/spins") })).await;
    assert!(
        spun.is_error && spun.text.contains("took longer than 5 s"),
        "{}",
        spun.text
    );
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    s.ok("open", json!({ "url": s.url("/second") })).await;

    let hung = s
        .call("open", json!({ "url": s.url("/never-loads") }))
        .await;
    assert!(
        hung.is_error && hung.text.contains("took longer"),
        "{}",
        hung.text
    );
    s.ok("open", json!({ "url": s.url("/") })).await;

    // The page closes its own tab (a window a script opened may).
    let opener = s.ok("open", json!({ "url": s.url("/popups") })).await;
    let open = Session::number(&opener, "Open the closer");
    s.ok("click", json!({ "element": open })).await;
    let closer = s.ok("tabs", json!({ "action": "switch", "tab": 2 })).await;
    let close = Session::number(&closer, "Close this tab");
    let closed = s.ok("click", json!({ "element": close })).await;
    assert!(closed.text.contains("Popups"), "{}", closed.text);
    s.ok("tabs", json!({})).await;
    insta::assert_snapshot!("trouble", s.transcript.clone());

    // The browser dies under the session. How that surfaces (which call
    // notices) depends on timing, so it is asserted, not snapshotted.
    let tree = marker.tree();
    assert!(!tree.is_empty(), "the browser's processes are found");
    tabwright_tests::backend::kill(&tree);
    let gone = s.call("snapshot", json!({})).await;
    assert!(gone.is_error, "{}", gone.text);
    let back = s.call("open", json!({ "url": s.url("/second") })).await;
    let back = if back.is_error {
        // The call that notices the dead browser reports it; the next one starts afresh.
        s.ok("open", json!({ "url": s.url("/second") })).await
    } else {
        back
    };
    assert!(back.text.contains("The second page"), "{}", back.text);
    s.ok("close", json!({})).await;
    assert!(marker.tree().is_empty(), "the fresh browser is closed too");
}

/// Console errors are counted by position, not by the size of a capped
/// log: the second click's 600 errors are reported as the first's were, and
/// the console tool says what it did not keep.
async fn long_logs(backend: Backend) {
    let mut s = Session::start(backend, false).await;
    let page = s.ok("open", json!({ "url": s.url("/loud") })).await;
    let fail = Session::number(&page, "Fail 600 times");
    for _ in 0..2 {
        let clicked = s.ok("click", json!({ "element": fail })).await;
        assert!(
            clicked.text.contains("The page logged 600 new errors"),
            "{}",
            clicked.text
        );
    }
    let console = s.ok("console", json!({})).await;
    assert!(
        console
            .text
            .starts_with("500 console messages since you last asked")
            && console.text.contains("(700 earlier messages were not kept")
            && console.text.contains("[error] failure 599"),
        "{}",
        &console.text[..console.text.len().min(600)]
    );
    let again = s.ok("console", json!({})).await;
    assert_eq!(again.text, "No console messages since you last asked.");
    // By level: the error alone, and what was left out said.
    let page = s.ok("open", json!({ "url": s.url("/logs") })).await;
    let log = Session::number(&page, "\"Log\"");
    s.ok("click", json!({ "element": log })).await;
    let errors = s.ok("console", json!({ "level": "error" })).await;
    assert!(
        errors
            .text
            .starts_with("1 console message since you last asked (1 of a lower level left out)")
            && errors.text.contains("[error] button broke")
            && !errors.text.contains("clicked"),
        "{}",
        errors.text
    );
    let bad = s.call("console", json!({ "level": "loud" })).await;
    assert!(bad.is_error, "{}", bad.text);
}

/// A call given up on (a wait for text that never comes, a page that never
/// finishes loading, a script that spins) ends at once and leaves the pack
/// free: the next call answers well before the cancelled one's timeout,
/// with the page usable.
async fn cancelled_calls(backend: Backend) {
    let mut s = Session::start(backend, false).await;
    s.ok("open", json!({ "url": s.url("/") })).await;
    let give_up = || tokio::time::sleep(Duration::from_millis(700));
    for (tool, arguments) in [
        ("wait_for", json!({ "text": "never on the page" })),
        ("open", json!({ "url": s.url("/never-loads") })),
        ("open", json!({ "url": s.url("/spins") })),
    ] {
        let started = std::time::Instant::now();
        let output = s.pack.call_until(tool, arguments.clone(), give_up()).await;
        assert!(
            output.is_error && output.text.starts_with("Stopped"),
            "{tool}: {}",
            output.text
        );
        let next = s.pack.call("snapshot", json!({})).await;
        let took = started.elapsed();
        assert!(!next.is_error, "after {tool} {arguments}: {}", next.text);
        // Far below the 15 s the cancelled call could have taken.
        assert!(
            took < Duration::from_secs(6),
            "{tool} {arguments}: {took:?}"
        );
    }
    s.pack.close().await;
}

/// A watched pack (what the live view shows): its last calls with the
/// answers as read, and a picture of the tab, from the screencast.
async fn watched(backend: Backend) {
    let watch = tools::Watch::new();
    let options = Options {
        timeout: Duration::from_secs(15),
        on_frame: Some(watch.frame_callback()),
        ..Options::default()
    };
    let pack_options = PackOptions {
        watch: Some(std::sync::Arc::clone(&watch)),
        ..PackOptions::default()
    };
    let mut s = Session::start_packed(backend, pack_options, options).await;
    // A person looks (as the live view does when it lists the sessions).
    watch.looked_at();
    let page = s.ok("open", json!({ "url": s.url("/") })).await;
    s.ok(
        "click",
        json!({ "element": Session::number(&page, "Second page") }),
    )
    .await;
    let recent = watch.recent();
    let tools_called: Vec<&str> = recent.iter().map(|step| step.tool.as_str()).collect();
    assert_eq!(tools_called, ["open", "click"]);
    assert!(
        recent[1].answer.contains("The second page"),
        "{}",
        recent[1].answer
    );
    let mut picture = None;
    for _ in 0..40 {
        picture = watch.latest();
        if picture.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let (_, jpeg) = picture.expect("a picture of the tab");
    assert_eq!(&jpeg[..2], b"\xff\xd8");
    // Both backends have the screencast here (WebDriver over the browser's
    // DevTools socket); a screenshot after each action stands in for it
    // only on a remote end without one.
    assert_eq!(
        watch.is_screencast(),
        s.pack
            .driver()
            .capabilities()
            .supports(driver_core::Capability::Screencast)
    );
    s.pack.close().await;

    // Without a watch no person can see the tab: a handoff says so at once.
    let unwatched = PackOptions {
        groups: vec![tools::Group::Core, tools::Group::Person],
        ..PackOptions::default()
    };
    let mut s = Session::start_packed(backend, unwatched, Options::default()).await;
    s.ok("open", json!({ "url": s.url("/") })).await;
    let refused = s.call("handoff", json!({ "reason": "Log in" })).await;
    assert!(
        refused.is_error && refused.text.contains("no live view"),
        "{}",
        refused.text
    );
    s.pack.close().await;
}

both_backends!(
    every_tool,
    clicks,
    dialogs,
    settling,
    vision,
    bad_input,
    trouble,
    long_logs,
    cancelled_calls,
    watched
);
