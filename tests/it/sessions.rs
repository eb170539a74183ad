//! Many sessions in one browser (CDP: a browser context each) and a browser
//! per session (WebDriver): what one session does, another never sees,
//! waits for or loses.

use std::sync::Arc;
use std::time::Duration;

use driver_cdp::SharedBrowser;
use driver_core::{Driver, DriverError, Options};
use guard::{AllowedOrigin, Guard, GuardedDriver, Policy};
use tabwright_tests::backend::Marker;
use tabwright_tests::canary::Canary;
use tabwright_tests::devtools::DevTools;
use tabwright_tests::site::Site;

/// Sets a cookie and a local-storage entry, and shows both.
const REMEMBER: &str = "<!doctype html><title>Remember</title><script>\
    if (location.search === '?set') { document.cookie = 'who=alice; path=/'; localStorage.setItem('who', 'alice'); }\
    </script><p id=seen></p><script>document.getElementById('seen').textContent = \
    'cookie=' + document.cookie + ' storage=' + (localStorage.getItem('who') || '');</script>";

/// A page that tries to reach the canary in several ways.
fn reaching(canary: &Canary) -> String {
    let target = canary.origin();
    format!(
        "<!doctype html><title>Reaching</title>\
         <img src=\"{target}/img.png\"><iframe src=\"{target}/frame\"></iframe>\
         <script>fetch('{target}/fetch').catch(() => 0); new WebSocket('{}/ws');\
         navigator.sendBeacon('{target}/beacon', 'x');</script>",
        target.replace("http://", "ws://")
    )
}

fn options() -> Options {
    Options {
        timeout: Duration::from_secs(15),
        ..Options::default()
    }
}

fn policy(site: &Site) -> Policy {
    Policy {
        allowed_origins: vec![AllowedOrigin::parse(&site.origin()).expect("origin")],
        ..Policy::default()
    }
}

/// A session of a shared browser, behind a guard of its own.
fn session(shared: &SharedBrowser, policy: Policy) -> GuardedDriver {
    let shared = shared.clone();
    GuardedDriver::new(
        Guard::new(policy),
        options(),
        Box::new(move |options| Box::new(shared.session(options))),
    )
}

/// Cookies and storage are a session's own; each session has its own
/// guard (one allows the site, the other does not), and the per-context
/// proxy keeps every request of a session's pages behind its guard.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_are_isolated_and_guarded_each_on_its_own() {
    let site = Site::start().await;
    site.page("/remember", REMEMBER).await;
    let canary = Canary::start().await.expect("a canary");
    site.page("/reaching", &reaching(&canary)).await;
    let marker = Marker::new();
    let shared = SharedBrowser::new(Options {
        extra_args: vec![marker.flag()],
        ..options()
    });
    let alice = session(&shared, policy(&site));
    let bob = session(&shared, policy(&site));
    let stranger = session(&shared, Policy::default());

    alice
        .navigate(&site.url("/remember?set"))
        .await
        .expect("Alice's page");
    assert_eq!(
        tabwright_tests::seen_text(&alice).await,
        "cookie=who=alice storage=alice"
    );
    bob.navigate(&site.url("/remember"))
        .await
        .expect("Bob's page");
    assert_eq!(
        tabwright_tests::seen_text(&bob).await,
        "cookie= storage=",
        "Bob sees none of Alice's"
    );
    // Nor through DevTools: a session's cookies as `state_save` reads
    // them are its context's alone.
    let listed = |cookies: serde_json::Value| cookies["cookies"].to_string();
    let alices = alice
        .devtools("Network.getAllCookies", serde_json::json!({}))
        .await
        .expect("Alice's cookies");
    assert!(listed(alices).contains("alice"), "Alice's own cookie");
    let bobs = bob
        .devtools("Network.getAllCookies", serde_json::json!({}))
        .await
        .expect("Bob's cookies");
    assert!(
        !listed(bobs.clone()).contains("alice"),
        "Bob read Alice's cookie: {bobs}"
    );
    let refused = stranger.navigate(&site.url("/remember")).await;
    assert!(
        matches!(refused, Err(DriverError::Refused { .. })),
        "a session whose guard allows nothing local: {refused:?}"
    );

    // One browser for all three.
    assert_eq!(
        marker.processes().len(),
        1,
        "the sessions share one browser process"
    );
    // Every request of a session's page goes through its own guard.
    bob.navigate(&site.url("/reaching"))
        .await
        .expect("the page");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(3);
    while bob.refusals().len() < 4 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        canary.connections(),
        0,
        "a session's page reached the canary"
    );
    assert!(bob.refusals().len() >= 4, "{:?}", bob.refusals());
    assert!(alice.refusals().is_empty(), "{:?}", alice.refusals());

    // Tabs are a session's own.
    let tabs = alice.tabs().await.expect("Alice's tabs");
    assert_eq!(tabs.len(), 1, "{tabs:?}");
    assert_eq!(tabs[0].title, "Remember");

    // Closing a session ends its context, not the browser or the others.
    alice.close().await.expect("close");
    bob.navigate(&site.url("/remember"))
        .await
        .expect("Bob goes on");
    assert_eq!(marker.processes().len(), 1);
    alice
        .navigate(&site.url("/remember"))
        .await
        .expect("Alice starts afresh");
    assert_eq!(
        tabwright_tests::seen_text(&alice).await,
        "cookie= storage=",
        "a fresh context"
    );
    shared.close().await;
    let left = marker.processes();
    assert!(left.is_empty(), "processes left: {left:?}");
}

/// One session spinning in a script, or under a dialog, or in a page that
/// never loads, holds up no other: their calls answer while it waits.
/// Each session's task is its own in one browser: the page of a session
/// whose task names origins follows a link elsewhere nowhere (its request
/// refused before it leaves), another session's follows it; and once the
/// first session ended (the browser let documents go unheld), a third
/// with a task is held again. The truth is what the other origin heard.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_sessions_task_is_its_own() {
    use wiremock::{matchers, Mock, MockServer, ResponseTemplate};
    let (home, away) = (MockServer::start().await, MockServer::start().await);
    let page = |body: String| ResponseTemplate::new(200).set_body_raw(body, "text/html");
    Mock::given(matchers::path("/"))
        .respond_with(page(format!(
            "<!doctype html><title>Home</title><a id=out href=\"{}/landing\">Out</a>",
            away.uri()
        )))
        .mount(&home)
        .await;
    Mock::given(matchers::any())
        .respond_with(page("<!doctype html><title>Landed</title>".to_owned()))
        .mount(&away)
        .await;
    let allowed: Vec<AllowedOrigin> = [&home, &away]
        .iter()
        .map(|server| AllowedOrigin::parse(&server.uri()).expect("origin"))
        .collect();
    let free = Policy {
        allowed_origins: allowed,
        ..Policy::default()
    };
    let tasked = Policy {
        task: guard::Task {
            read: vec![guard::TaskOrigin::parse(&home.uri()).expect("origin")],
            ..guard::Task::default()
        },
        ..free.clone()
    };
    let landed = || async {
        away.received_requests()
            .await
            .unwrap_or_default()
            .iter()
            .filter(|request| request.url.path() == "/landing")
            .count()
    };
    let home_page = format!("{}/", home.uri());
    let shared = SharedBrowser::new(options());
    let alice = session(&shared, tasked.clone());
    let bob = session(&shared, free);
    assert!(!follow(&alice, &home_page)
        .await
        .to_string()
        .contains("/landing"));
    assert_eq!(landed().await, 0, "a session with a task was held");
    assert!(follow(&bob, &home_page)
        .await
        .to_string()
        .contains("/landing"));
    assert_eq!(landed().await, 1, "a session without one was not");
    alice.close().await.expect("close");
    assert!(follow(&bob, &home_page)
        .await
        .to_string()
        .contains("/landing"));
    let carol = session(&shared, tasked);
    assert!(!follow(&carol, &home_page)
        .await
        .to_string()
        .contains("/landing"));
    assert_eq!(landed().await, 2, "a task's session is held again");
    bob.close().await.expect("close");
    carol.close().await.expect("close");
    shared.close().await;
}

/// Opens `home`, follows its link out, and says where the page is then.
async fn follow(driver: &GuardedDriver, home: &str) -> serde_json::Value {
    driver.navigate(home).await.expect("home");
    driver
        .eval("document.getElementById('out').click()")
        .await
        .expect("the click");
    tokio::time::sleep(Duration::from_millis(700)).await;
    driver.eval("location.href").await.unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_session_never_waits_for_another() {
    let site = Site::start().await;
    let shared = SharedBrowser::new(options());
    let stuck = Arc::new(session(&shared, policy(&site)));
    let free = session(&shared, policy(&site));
    stuck.navigate(&site.url("/")).await.expect("a page");
    free.navigate(&site.url("/")).await.expect("a page");

    // The script tells the site as it begins to spin (a beacon goes out
    // though the page then never yields); the free session starts after.
    let spinning = tokio::spawn({
        let stuck = Arc::clone(&stuck);
        async move {
            stuck
                .eval("navigator.sendBeacon('/spin-begins'); while (true) {}")
                .await
        }
    });
    for _ in 0..100 {
        if site.hits("/spin-begins").await > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(site.hits("/spin-begins").await > 0, "the spin never began");
    for path in ["/second", "/third", "/dialogs"] {
        free.navigate(&site.url(path))
            .await
            .expect("the free session");
        let title = free.eval("document.title").await.expect("its page");
        assert!(title.is_string(), "{title}");
    }
    assert!(
        !spinning.is_finished(),
        "the free session's calls came after the spinning one ended"
    );
    let spun = spinning.await.expect("the task");
    assert!(
        matches!(&spun, Err(error) if error.is_timeout()),
        "{spun:?}"
    );

    // A dialog in one session: the other's calls go on.
    stuck
        .navigate(&site.url("/dialogs"))
        .await
        .expect("the stopped session goes on");
    stuck.click("#alert").await.ok();
    assert!(stuck.dialog().await.expect("the dialog").is_some());
    free.navigate(&site.url("/"))
        .await
        .expect("not held up by a dialog");
    stuck.answer_dialog(true, None).await.expect("answered");
    shared.close().await;
}

/// A crashed renderer takes one tab of one session: that session is told,
/// the others go on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crash_is_one_sessions_alone() {
    let site = Site::start().await;
    site.page(
        "/crash-me",
        "<!doctype html><title>Doomed</title><p>soon gone</p>",
    )
    .await;
    // A DevTools port for the test to crash a renderer through, as a user
    // may ask for one (the browser tabwright starts has none).
    let shared = SharedBrowser::new(Options {
        extra_args: vec!["--remote-debugging-port=0".to_owned()],
        ..options()
    });
    let doomed = session(&shared, policy(&site));
    let other = session(&shared, policy(&site));
    doomed
        .navigate(&site.url("/crash-me"))
        .await
        .expect("a page");
    other.navigate(&site.url("/")).await.expect("a page");
    let pid = shared.pid().await.expect("the browser runs");
    let mut devtools = DevTools::of_process(pid).await.expect("its DevTools");
    devtools.crash_page("/crash-me").await.expect("crashed");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    let told = loop {
        match doomed.eval("1").await {
            Err(DriverError::TabCrashed { .. }) => break true,
            Err(DriverError::NoSuchTab { .. }) | Ok(_)
                if tokio::time::Instant::now() < deadline =>
            {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            other => panic!("after the crash: {other:?}"),
        }
    };
    assert!(told);
    assert_eq!(
        other
            .eval("document.title")
            .await
            .expect("the other session"),
        "Home"
    );
    doomed
        .navigate(&site.url("/second"))
        .await
        .expect("the crashed session goes on in a new tab");
    shared.close().await;
}

/// WebDriver has no browser contexts: each session is a browser of its
/// own, as isolated.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn webdriver_sessions_are_browsers_of_their_own() {
    let site = Site::start().await;
    site.page("/remember", REMEMBER).await;
    let marker = Marker::new();
    let make = |marker: &Marker| {
        GuardedDriver::new(
            Guard::new(policy(&site)),
            Options {
                extra_args: vec![marker.flag()],
                ..options()
            },
            Box::new(|options| Box::new(driver_webdriver::WebDriverDriver::new(options))),
        )
    };
    let alice = make(&marker);
    let bob = make(&marker);
    assert!(!alice
        .capabilities()
        .supports(driver_core::Capability::SharedBrowser));
    alice
        .navigate(&site.url("/remember?set"))
        .await
        .expect("Alice's page");
    bob.navigate(&site.url("/remember"))
        .await
        .expect("Bob's page");
    assert_eq!(tabwright_tests::seen_text(&bob).await, "cookie= storage=");
    assert_eq!(marker.processes().len(), 2, "a browser each");
    alice.close().await.expect("close");
    bob.close().await.expect("close");
}
