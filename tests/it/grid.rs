//! The WebDriver backend against a real Selenium Grid (a hub and two nodes
//! on loopback, `tabwright_tests::grid`), through the tool pack as a model
//! uses it: sessions on both nodes, a full Grid said as such, a spinning
//! page stopped through the session's `se:cdp` relay, a dead node read as a
//! lost session that the next call replaces, a flag that cannot apply
//! remotely refused at start, a file uploaded through the Grid's file
//! endpoint, what only DevTools gives (tabwright's own script world, a
//! live view's screencast, download reports) over the session's `se:cdp`
//! relay, an idle session kept alive past the Grid's session timeout, and
//! every slot free at the end.

use std::time::Duration;

use driver_core::{Capability, Driver as _, Options};
use guard::{AllowedOrigin, Guard, Policy};
use serde_json::json;
use tabwright_tests::grid::{Grid, HandStartedDriver, NodeBrowser};
use tabwright_tests::site::Site;
use tabwright_tests::Backend;
use tools::{Pack, PackOptions};

/// A file field that shows what the file it was given holds.
const UPLOAD: &str = r#"<!doctype html><title>Upload</title>
<label>CV <input type="file" id="cv" onchange="this.files[0].text().then(t => document.getElementById('read').textContent = 'read: ' + t)"></label>
<p id="read">nothing yet</p>"#;

fn pack(grid: &Grid, site: &Site, timeout: Duration, profile: Option<std::path::PathBuf>) -> Pack {
    packed(grid, site, timeout, profile, PackOptions::default())
}

fn packed(
    grid: &Grid,
    site: &Site,
    timeout: Duration,
    profile: Option<std::path::PathBuf>,
    pack_options: PackOptions,
) -> Pack {
    let options = Options {
        endpoint: Some(grid.url()),
        timeout,
        keep_alive: Duration::from_secs(2),
        profile_dir: profile,
        ..Options::default()
    };
    at_end(options, site, pack_options)
}

/// A pack whose session has a live view watching it.
fn watched(grid: &Grid, site: &Site, watch: &std::sync::Arc<tools::Watch>) -> Pack {
    let options = Options {
        endpoint: Some(grid.url()),
        timeout: Duration::from_secs(12),
        on_frame: Some(watch.frame_callback()),
        frames_wanted: Some(watch.frames_wanted()),
        ..Options::default()
    };
    let pack_options = PackOptions {
        watch: Some(std::sync::Arc::clone(watch)),
        ..PackOptions::default()
    };
    at_end(options, site, pack_options)
}

/// A pack on the remote end `options` name, allowed to reach `site` alone.
fn at_end(options: Options, site: &Site, pack_options: PackOptions) -> Pack {
    at_end_on(Backend::WebDriver, options, site, pack_options)
}

/// [`at_end`] on `backend`.
fn at_end_on(backend: Backend, options: Options, site: &Site, pack_options: PackOptions) -> Pack {
    let policy = Policy {
        allowed_origins: vec![AllowedOrigin::parse(&site.origin()).expect("origin")],
        ..Policy::default()
    };
    Pack::new(backend.guarded(options, Guard::new(policy)), pack_options)
}

/// The pack's next call, after its node died: it says the session was
/// lost and that the next call starts a new one.
async fn reads_lost(pack: &Pack) -> tools::ToolOutput {
    let lost = pack.call("snapshot", json!({})).await;
    assert!(
        lost.is_error
            && lost.text.contains("lost this session")
            && lost.text.contains("next call starts a new one"),
        "{}",
        lost.text
    );
    lost
}

/// A page that spins: the call fails saying `said`, and the next call
/// works.
async fn spins_then_works(pack: &Pack, site: &Site, said: &str) {
    let spun = pack
        .call("open", json!({ "url": site.url("/spins") }))
        .await;
    assert!(spun.is_error && spun.text.contains(said), "{}", spun.text);
    next_call_works(pack, site, &spun).await;
}

/// A pack's options for uploads from `files`.
fn uploads_from(files: &std::path::Path) -> PackOptions {
    PackOptions {
        groups: vec![tools::Group::Files],
        files_dir: Some(files.to_owned()),
        ..PackOptions::default()
    }
}

/// A file holding `letter`, put in `files` (the pack's uploads folder),
/// reaches the browser through the Grid's file endpoint: the page at
/// `/upload` reads what it holds.
async fn uploads(pack: &Pack, site: &Site, files: &std::path::Path, letter: &str) {
    std::fs::write(files.join("up.txt"), letter).expect("a file");
    let form = pack
        .call("open", json!({ "url": site.url("/upload") }))
        .await;
    assert!(!form.is_error, "{}", form.text);
    let field = tools::element_number(&form.text, "CV").expect("the file field");
    let put = pack
        .call("upload", json!({ "element": field, "paths": ["up.txt"] }))
        .await;
    assert!(!put.is_error, "{}", put.text);
    let read = pack
        .call("wait_for", json!({ "text": format!("read: {letter}") }))
        .await;
    assert!(!read.is_error, "{}", read.text);
}

/// After `failed`, the next call opens a page in the pack's session (or a
/// new one).
async fn next_call_works(pack: &Pack, site: &Site, failed: &tools::ToolOutput) {
    let after = pack
        .call("open", json!({ "url": site.url("/second") }))
        .await;
    assert!(
        !after.is_error && after.text.contains("The second page"),
        "after {}: {}",
        failed.text,
        after.text
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_real_grid() {
    let site = Site::start().await;
    site.page("/upload", UPLOAD).await;
    let (_, overrides) = tabwright_tests::site::HOSTILE
        .iter()
        .find(|(name, _)| *name == "overrides.html")
        .expect("the page that replaces the built-ins");
    site.page("/overrides", overrides).await;
    // A queue long enough for a node to start a browser on a busy machine
    // (4 s was not, beside a second run of the suite), and a session
    // timeout long enough for the first session's start there (8 s was
    // not, with two runs of the suite at once).
    let mut grid = Grid::start(2, Duration::from_secs(12), Duration::from_secs(14))
        .await
        .expect("a Grid");

    // One session on each node. (The first's timeout stays under the
    // Grid's session timeout: its spinning page below must be stopped
    // before the node ends the session.)
    let first = pack(&grid, &site, Duration::from_secs(12), None);
    let second = pack(&grid, &site, Duration::from_secs(20), None);
    for pack in [&first, &second] {
        let opened = pack.call("open", json!({ "url": site.url("/") })).await;
        assert!(
            !opened.is_error && opened.text.contains("Welcome home"),
            "{}",
            opened.text
        );
    }
    assert_eq!(grid.sessions().await, 2);

    // A client thinking for longer than the Grid's session timeout keeps
    // its session: it is kept alive while idle.
    tokio::time::sleep(Duration::from_secs(16)).await;
    let kept = second.call("snapshot", json!({})).await;
    assert!(
        !kept.is_error && kept.text.contains("Welcome home"),
        "{}",
        kept.text
    );

    // A third finds the Grid full: said as such, not as a hung page.
    let third = pack(&grid, &site, Duration::from_secs(25), None);
    let refused = third.call("open", json!({ "url": site.url("/") })).await;
    assert!(
        refused.is_error && refused.text.contains("Grid gave no browser"),
        "{}",
        refused.text
    );

    // A spinning page: stopped through the session's relay, in the same
    // session, and said so.
    spins_then_works(&first, &site, "it was stopped").await;

    // The first session's node dies: its next call reads as a lost
    // session, and the call after that gets a new one (on the other node,
    // once the first pack lets its slot go).
    first.close().await;
    until(|| async { grid.sessions().await == 1 }).await;
    assert!(grid.kill_a_busy_node().await, "no busy node to kill");
    reads_lost(&second).await;
    let again = second
        .call("open", json!({ "url": site.url("/third") }))
        .await;
    assert!(
        !again.is_error && again.text.contains("The third page"),
        "{}",
        again.text
    );
    second.close().await;

    // A file on this machine reaches the node's browser through the Grid's
    // file endpoint: the page reads what it holds.
    let files = tempfile::tempdir().expect("a folder");
    let uploader = packed(
        &grid,
        &site,
        Duration::from_secs(12),
        None,
        uploads_from(files.path()),
    );
    uploads(&uploader, &site, files.path(), "a letter from far away").await;
    uploader.close().await;

    // What only DevTools gives, over the session's se:cdp relay:
    // tabwright's own script world (a page that replaces the built-ins is
    // read and acted on all the same), a live view's screencast, and
    // download reports.
    let watch = tools::Watch::new();
    let relayed = watched(&grid, &site, &watch);
    watch.looked_at();
    let page = relayed
        .call("open", json!({ "url": site.url("/overrides") }))
        .await;
    let target = tools::element_number(&page.text, "Press me")
        .unwrap_or_else(|| panic!("not read past the overrides: {}", page.text));
    let pressed = relayed.call("click", json!({ "element": target })).await;
    assert!(pressed.text.contains("Target pressed"), "{}", pressed.text);
    let capabilities = relayed.driver().capabilities();
    for capability in [
        Capability::IsolatedWorld,
        Capability::Screencast,
        Capability::DownloadReports,
    ] {
        assert!(capabilities.supports(capability), "{capabilities:?}");
    }
    until(|| async {
        watch.looked_at();
        watch.is_screencast()
    })
    .await;
    let page = relayed
        .call("open", json!({ "url": site.url("/download") }))
        .await;
    let link = tools::element_number(&page.text, "the report").expect("the link");
    let clicked = relayed.call("click", json!({ "element": link })).await;
    assert!(
        clicked
            .text
            .contains("A download was refused: \"report.pdf\""),
        "{}",
        clicked.text
    );
    relayed.close().await;

    // What names something on this machine cannot reach a remote browser:
    // refused at start. A profile folder:
    let folder = tempfile::tempdir().expect("a folder");
    let local = pack(
        &grid,
        &site,
        Duration::from_secs(8),
        Some(folder.path().to_owned()),
    );
    let refused = local.call("open", json!({ "url": site.url("/") })).await;
    assert!(
        refused.is_error && refused.text.contains("--profile-dir"),
        "{}",
        refused.text
    );
    // Nor a browser binary: the Grid's node starts its own.
    let options = Options {
        endpoint: Some(grid.url()),
        executable: Some("/usr/bin/chromium".into()),
        ..Options::default()
    };
    let binary = at_end(options, &site, PackOptions::default());
    let refused = binary.call("open", json!({ "url": site.url("/") })).await;
    assert!(
        refused.is_error && refused.text.contains("--browser-path"),
        "{}",
        refused.text
    );
    third.close().await;

    until(|| async { grid.sessions().await == 0 }).await;
}

/// Waits (20 s at most) for `condition`.
async fn until<F: std::future::Future<Output = bool>>(condition: impl Fn() -> F) {
    for _ in 0..80 {
        if condition().await {
            return;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    panic!("the Grid never got there");
}

/// A remote end with no DevTools relay: the capabilities say what is
/// missing and why, and a page that spins, which nothing can stop there,
/// is never said to be stopped: the answer says the session was ended,
/// and the next call works in a new one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_remote_end_without_a_relay() {
    let site = Site::start().await;
    let end = HandStartedDriver::chromedriver()
        .await
        .expect("a chromedriver");
    let options = Options {
        endpoint: Some(end.url.clone()),
        timeout: Duration::from_secs(6),
        ..Options::default()
    };
    let pack = at_end(options, &site, PackOptions::default());
    let opened = pack.call("open", json!({ "url": site.url("/") })).await;
    assert!(
        !opened.is_error && opened.text.contains("Welcome home"),
        "{}",
        opened.text
    );
    let capabilities = pack.driver().capabilities();
    for capability in [
        Capability::IsolatedWorld,
        Capability::Screencast,
        Capability::DownloadReports,
    ] {
        let reason = capabilities.reason(capability).unwrap_or_default();
        assert!(reason.contains("se:cdp"), "{capability}: {reason:?}");
    }
    let spun = pack
        .call("open", json!({ "url": site.url("/spins") }))
        .await;
    assert!(
        spun.is_error
            && !spun.text.contains("it was stopped")
            && spun.text.contains("could not be stopped"),
        "{}",
        spun.text
    );
    next_call_works(&pack, &site, &spun).await;
    pack.close().await;
}

/// A page that says which browser reads it, and tries to reach the canary
/// (`CANARY`) as an image, a fetch and a beacon.
const WHICH: &str = r#"<!doctype html><title>Which browser</title>
<p id="which">unknown</p>
<img src="CANARY/img" alt="">
<script>
document.getElementById('which').textContent = /Firefox\//.test(navigator.userAgent) ? 'Read by Firefox' : /Chrome\//.test(navigator.userAgent) ? 'Read by Chromium' : 'Read by another';
fetch('CANARY/fetch').catch(() => {});
navigator.sendBeacon('CANARY/beacon', 'x');
</script>"#;

/// A Grid with a Chromium node and two Firefox nodes, through the tool
/// pack: a session asking for Firefox gets one (and one asking for Chromium
/// gets that), guarded (the canary hears nothing), kept alive past the
/// nodes' session timeout; a page that spins, which no WebDriver end can
/// stop in Firefox, ends that session and says so, and the next call gets
/// a new one on the other Firefox node; a dead node reads as a lost
/// session, and the call after a new node is up works again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_grid_with_firefox_nodes() {
    let site = Site::start().await;
    let canary = tabwright_tests::canary::Canary::start()
        .await
        .expect("a canary");
    site.page("/which", &WHICH.replace("CANARY", &canary.origin()))
        .await;
    let mut grid = Grid::start_with(
        &[
            NodeBrowser::Chromium,
            NodeBrowser::Firefox,
            NodeBrowser::Firefox,
        ],
        Duration::from_secs(20),
        Duration::from_secs(14),
    )
    .await
    .expect("a Grid");
    let on = |backend: Backend| {
        let options = Options {
            endpoint: Some(grid.url()),
            timeout: Duration::from_secs(15),
            keep_alive: Duration::from_secs(2),
            ..Options::default()
        };
        at_end_on(backend, options, &site, PackOptions::default())
    };
    let firefox = on(Backend::Firefox);
    let chromium = on(Backend::WebDriver);
    for (pack, browser) in [(&firefox, "Firefox"), (&chromium, "Chromium")] {
        let opened = pack
            .call("open", json!({ "url": site.url("/which") }))
            .await;
        assert!(
            !opened.is_error && opened.text.contains(&format!("Read by {browser}")),
            "{}",
            opened.text
        );
    }
    assert_eq!(grid.sessions().await, 2);
    chromium.close().await;
    assert_eq!(canary.connections(), 0, "a request escaped the guard");

    // Idle past the nodes' session timeout, the session is kept.
    tokio::time::sleep(Duration::from_secs(16)).await;
    let kept = firefox.call("snapshot", json!({})).await;
    assert!(
        !kept.is_error && kept.text.contains("Read by Firefox"),
        "{}",
        kept.text
    );

    // A file on this machine reaches the node's Firefox through the
    // Grid's file endpoint (the chooser heard over BiDi): the page reads
    // what it holds.
    site.page("/upload", UPLOAD).await;
    let files = tempfile::tempdir().expect("a folder");
    let uploader = at_end_on(
        Backend::Firefox,
        Options {
            endpoint: Some(grid.url()),
            timeout: Duration::from_secs(15),
            ..Options::default()
        },
        &site,
        uploads_from(files.path()),
    );
    uploads(&uploader, &site, files.path(), "a letter to a fox").await;
    uploader.close().await;

    // A page that spins: the session is ended and said so, and the next
    // call is in a new one, on the other Firefox node.
    spins_then_works(&firefox, &site, "could not be stopped").await;

    // The nodes holding sessions die (the new session's, and the first
    // one's, still busy with the spinning page): the next call reads as a
    // lost session, and once a Firefox node is up again the call after it
    // works.
    assert!(grid.kill_busy_nodes().await > 0, "no busy node to kill");
    let lost = reads_lost(&firefox).await;
    grid.add_node(NodeBrowser::Firefox).await.expect("a node");
    next_call_works(&firefox, &site, &lost).await;
    firefox.close().await;
    assert_eq!(canary.connections(), 0, "a request escaped the guard");
    until(|| async { grid.sessions().await == 0 }).await;
}
