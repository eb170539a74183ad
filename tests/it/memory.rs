//! A session's memory: measured on both backends, held to its budget, and
//! a tab whose renderer grew moved to a fresh one at its next navigation
//! without the tab, its history or another session noticing.

use std::time::Duration;

use driver_cdp::SharedBrowser;
use driver_core::{Driver, Options};
use guard::{AllowedOrigin, Guard, GuardedDriver, Policy};
use serde_json::json;
use tabwright_tests::site::Site;
use tabwright_tests::Backend;
use tools::{Pack, PackOptions};

/// A page whose renderer holds about 200 MiB while it is shown.
const HEAVY: &str = "<!doctype html><title>Heavy</title><p id=seen>heavy</p><script>\
    window.kept = Array.from({length: 200}, (_, i) => new Uint8Array(1 << 20).fill(i + 1));\
    </script>";

const LIGHT: &str = "<!doctype html><title>Light</title><p id=seen>light</p>";

fn options(budget_mb: u64) -> Options {
    Options {
        timeout: Duration::from_secs(20),
        memory_budget_mb: Some(budget_mb),
        ..Options::default()
    }
}

fn policy(site: &Site) -> Policy {
    Policy {
        allowed_origins: vec![AllowedOrigin::parse(&site.origin()).expect("origin")],
        ..Policy::default()
    }
}

async fn site() -> Site {
    let site = Site::start().await;
    site.page("/heavy", HEAVY).await;
    site.page("/light", LIGHT).await;
    site
}

/// Both backends measure a session: its renderers and its share of the
/// browser, with the budget it was given.
async fn memory_is_measured(backend: Backend) {
    let site = site().await;
    let driver = backend.guarded(options(4096), Guard::new(policy(&site)));
    assert_eq!(
        driver.memory().await.expect("memory"),
        None,
        "nothing runs yet"
    );
    driver.navigate(&site.url("/light")).await.expect("light");
    let memory = driver
        .memory()
        .await
        .expect("memory")
        .expect("a local browser is measured");
    assert!(memory.renderers_kib > 1024, "{memory:?}");
    assert!(memory.browser_share_kib > 1024, "{memory:?}");
    assert_eq!(memory.budget_kib, Some(4096 * 1024));
    assert!(!memory.over_budget());
    driver.close().await.expect("close");
}

both_backends!(memory_is_measured);

/// A tab whose renderer grew past a quarter of the budget loads its next
/// page in a fresh renderer: the same tab, its history kept (back goes to
/// the heavy page again), no crash reported; the renderer it left is gone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_grown_renderer_is_renewed_at_the_next_navigation() {
    let site = site().await;
    // A quarter of 400 MiB: the heavy page's renderer is over it, the
    // light page's is not.
    let driver = Backend::Cdp.guarded(options(400), Guard::new(policy(&site)));
    driver.navigate(&site.url("/light")).await.expect("light");
    driver.navigate(&site.url("/heavy")).await.expect("heavy");
    let tab = driver.current_tab().await.expect("tab");
    let grown = driver.memory().await.expect("memory").expect("measured");
    assert_eq!(grown.renewed, 0);
    assert!(grown.renderers_kib > 100 * 1024, "{grown:?}");
    driver
        .navigate(&site.url("/light"))
        .await
        .expect("light again");
    assert_eq!(tabwright_tests::seen_text(&driver).await, "light");
    let renewed = driver.memory().await.expect("memory").expect("measured");
    assert_eq!(renewed.renewed, 1, "{renewed:?}");
    assert!(
        renewed.renderers_kib < grown.renderers_kib / 2,
        "the fresh renderer is small: {grown:?} then {renewed:?}"
    );
    assert_eq!(
        driver.current_tab().await.expect("tab"),
        tab,
        "the same tab"
    );
    assert_eq!(driver.tabs().await.expect("tabs").len(), 1);
    let back = driver.back().await.expect("back");
    assert!(back.url.untrusted().ends_with("/heavy"), "{back:?}");
    assert_eq!(tabwright_tests::seen_text(&driver).await, "heavy");
    let back = driver.back().await.expect("back again");
    assert!(back.url.untrusted().ends_with("/light"), "{back:?}");
    driver.close().await.expect("close");
}

/// In a shared browser the renewed renderer is one session's own: the
/// other session's page goes on as it was, and each session is told only
/// its own renderers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn renewing_one_session_leaves_another_alone() {
    let site = site().await;
    let shared = SharedBrowser::new(options(400));
    let session = |shared: &SharedBrowser| {
        let shared = shared.clone();
        GuardedDriver::new(
            Guard::new(policy(&site)),
            options(400),
            Box::new(move |options| Box::new(shared.session(options))),
        )
    };
    let (grower, other) = (session(&shared), session(&shared));
    other.navigate(&site.url("/light")).await.expect("other");
    other
        .eval("window.mark = 'still here'")
        .await
        .expect("mark");
    grower.navigate(&site.url("/heavy")).await.expect("heavy");
    let grown = grower.memory().await.expect("memory").expect("measured");
    let apart = other.memory().await.expect("memory").expect("measured");
    assert!(
        apart.renderers_kib < grown.renderers_kib / 2,
        "each session counts its own renderers: {grown:?} vs {apart:?}"
    );
    grower.navigate(&site.url("/light")).await.expect("light");
    let renewed = grower.memory().await.expect("memory").expect("measured");
    assert_eq!(renewed.renewed, 1, "{renewed:?}");
    assert_eq!(
        other.eval("window.mark").await.expect("mark"),
        json!("still here")
    );
    grower.close().await.expect("close");
    other.close().await.expect("close");
    shared.close().await;
}

/// A session over its budget after loading a page is told so in the
/// answer, with what to do.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_over_its_budget_is_told_so() {
    let site = site().await;
    let pack = Pack::new(
        Backend::Cdp.guarded(options(150), Guard::new(policy(&site))),
        PackOptions::default(),
    );
    let light = pack
        .call("open", json!({ "url": site.url("/light") }))
        .await;
    assert!(!light.is_error, "{}", light.text);
    let heavy = pack
        .call("open", json!({ "url": site.url("/heavy") }))
        .await;
    assert!(!heavy.is_error, "{}", heavy.text);
    assert!(
        heavy.text.contains("over its budget of 150 MiB"),
        "{}",
        heavy.text
    );
    let memory = pack.memory().expect("read after open");
    assert!(memory.over_budget(), "{memory:?}");
    pack.close().await;
}
