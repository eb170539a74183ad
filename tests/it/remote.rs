//! Both backends connected to a browser they did not start. CDP: by the
//! `http://host:port` of `--remote-debugging-port`, and by the `ws://` URL.
//! WebDriver: a chromedriver started by hand, as a remote end. Closing the
//! driver must leave that browser (or remote end) running.

use std::time::Duration;

use driver_cdp::{CdpDriver, Driver, Options};
use driver_core::backend::launch::{self, ChromeProcess, Profile};
use tabwright_tests::grid::HandStartedDriver;
use tabwright_tests::site::Site;

/// Starts a Chrome the way a user would for remote debugging.
fn start_chrome() -> (ChromeProcess, Profile, String) {
    let options = Options::default();
    let executable = launch::find_chrome(None).expect("a Chrome to start");
    let profile = Profile::prepare(&options).expect("a profile");
    let mut args = launch::chrome_flags(
        &options,
        profile.path(),
        launch::chrome_major_version(&executable),
    );
    args.push("--remote-debugging-port=0".to_owned());
    args.push("about:blank".to_owned());
    let process = ChromeProcess::spawn(&executable, &args).expect("Chrome starts");
    let ws = process
        .wait_for_devtools_url(Duration::from_secs(20))
        .expect("a DevTools URL");
    (process, profile, ws)
}

/// The port of a `ws://127.0.0.1:PORT/devtools/browser/…` URL.
fn devtools_port(ws: &str) -> String {
    ws.trim_start_matches("ws://")
        .split(['/', ':'])
        .nth(1)
        .expect("a port in the DevTools URL")
        .to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connects_by_http_and_ws_and_leaves_the_browser_running() {
    let site = Site::start().await;
    let (mut chrome, _profile, ws) = start_chrome();
    let port = devtools_port(&ws);

    for endpoint in [format!("http://127.0.0.1:{port}"), ws.clone()] {
        let driver = CdpDriver::new(Options {
            endpoint: Some(endpoint.clone()),
            timeout: Duration::from_secs(15),
            ..Options::default()
        });
        let page = driver.navigate(&site.url("/")).await.expect("navigate");
        assert_eq!(page.status, Some(200), "through {endpoint}");
        let tabs = driver.tabs().await.expect("tabs");
        assert!(
            tabs.iter().any(|tab| tab.current && tab.title == "Home"),
            "{tabs:?}"
        );
        driver.close().await.expect("close");
        assert!(
            !chrome.has_exited(),
            "closing a remote driver ended the browser ({endpoint})"
        );
    }

    // The tabs the drivers opened are closed again; the user's first tab stays.
    let check = CdpDriver::new(Options {
        endpoint: Some(ws),
        ..Options::default()
    });
    let tabs = check.tabs().await.expect("tabs");
    assert_eq!(
        tabs.len(),
        2,
        "the user's tab and the checking driver's own: {tabs:?}"
    );
    check.close().await.expect("close");
    chrome.kill();
}

#[tokio::test]
async fn a_bad_endpoint_is_a_clear_error() {
    let port = tabwright_tests::free_port();
    let nobody = format!("http://127.0.0.1:{port}");
    let drivers: [Box<dyn Driver>; 2] = [
        Box::new(CdpDriver::new(Options {
            endpoint: Some(nobody.clone()),
            ..Options::default()
        })),
        Box::new(driver_webdriver::WebDriverDriver::new(Options {
            endpoint: Some(nobody),
            ..Options::default()
        })),
    ];
    for driver in drivers {
        let backend = driver.capabilities().backend;
        let error = driver
            .navigate("about:blank")
            .await
            .expect_err("nothing listens there");
        assert!(
            matches!(error, driver_core::DriverError::Launch { .. }),
            "{backend}: {error:?}"
        );
        assert!(
            error.to_string().contains(&port.to_string()),
            "{backend}: {error}"
        );
    }
    let driver = CdpDriver::new(Options {
        endpoint: Some("not a url".to_owned()),
        ..Options::default()
    });
    let error = driver.navigate("about:blank").await.expect_err("not a URL");
    assert!(
        matches!(error, driver_core::DriverError::InvalidArgument(_)),
        "{error:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn webdriver_connects_to_a_remote_end_and_leaves_it_running() {
    let site = Site::start().await;
    let mut remote = HandStartedDriver::chromedriver()
        .await
        .expect("a chromedriver");
    for round in 0..2 {
        let driver = driver_webdriver::WebDriverDriver::new(Options {
            endpoint: Some(remote.url.clone()),
            timeout: Duration::from_secs(20),
            ..Options::default()
        });
        let page = driver
            .navigate(&site.url("/second"))
            .await
            .expect("navigate");
        assert_eq!(page.status, Some(200), "round {round}");
        let title = driver.eval("document.title").await.expect("eval");
        assert_eq!(title, "Second");
        let opened = driver
            .open_tab(Some(&site.url("/third")))
            .await
            .expect("a tab");
        assert_eq!(opened.title, "Third");
        driver.close().await.expect("close");
        assert!(
            remote.running(),
            "closing the driver ended the remote end (round {round})"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guarded_cdp_session_in_a_remote_browser_goes_through_the_guard() {
    use guard::{AllowedOrigin, Guard, Policy};
    let site = Site::start().await;
    let canary = tabwright_tests::canary::Canary::start()
        .await
        .expect("a canary");
    let (mut chrome, _profile, ws) = start_chrome();
    let policy = Policy {
        allowed_origins: vec![AllowedOrigin::parse(&site.origin()).expect("origin")],
        ..Policy::default()
    };
    let guarded = tabwright_tests::Backend::Cdp.guarded(
        Options {
            endpoint: Some(ws),
            timeout: Duration::from_secs(15),
            ..Options::default()
        },
        Guard::new(policy),
    );
    let page = guarded
        .navigate(&site.url("/"))
        .await
        .expect("the allowed origin");
    assert_eq!(page.status, Some(200));
    // The browser itself has no proxy flag: only the context we opened does.
    let _ = guarded
        .eval(&format!(
            "fetch('{}/from-remote').catch(() => null)",
            canary.origin()
        ))
        .await;
    let deadline = std::time::Instant::now() + Duration::from_secs(4);
    while guarded.refusals().is_empty() && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(canary.connections(), 0, "the remote tab reached the canary");
    assert!(
        guarded
            .refusals()
            .iter()
            .any(|refusal| refusal.target.ends_with("/from-remote")),
        "{:?}",
        guarded.refusals()
    );
    let tabs = guarded.tabs().await.expect("tabs");
    assert_eq!(
        tabs.len(),
        1,
        "only the guarded context's tab is listed: {tabs:?}"
    );
    guarded.close().await.expect("close");
    assert!(!chrome.has_exited());
    chrome.kill();
}

/// The binary's remote flags: `--cdp-endpoint` drives a Chrome the user
/// started, `--webdriver-url` a chromedriver the user started (or, with
/// `--browser firefox`, a geckodriver); each is left running, and the guard
/// still allows only the origin given.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_binary_drives_remote_browsers() {
    let site = Site::start().await;
    let (mut chrome, _profile, ws) = start_chrome();
    let port = devtools_port(&ws);
    let mut remote = HandStartedDriver::chromedriver()
        .await
        .expect("a chromedriver");
    for (flag, endpoint) in [
        ("--cdp-endpoint", format!("http://127.0.0.1:{port}")),
        ("--webdriver-url", remote.url.clone()),
    ] {
        // A daemon of its own for each: they run with other settings.
        let daemon = crate::cli::Daemon::new();
        let mut command = daemon.command();
        command
            .args([flag, &endpoint, "--allow-origin"])
            .arg(site.origin())
            .arg("open")
            .arg(site.url("/second"));
        let out = crate::cli::run(command, None).await;
        assert!(out.contains("# The second page"), "{flag}: {out}");
        // Stopped, the daemon leaves the user's browser running.
        drop(daemon);
    }
    assert!(!chrome.has_exited(), "the user's Chrome was ended");
    assert!(remote.running(), "the user's chromedriver was ended");
    chrome.kill();

    // Firefox at a geckodriver the user started: the page is read, and
    // the geckodriver is left running.
    let mut gecko = HandStartedDriver::geckodriver()
        .await
        .expect("a geckodriver");
    let daemon = crate::cli::Daemon::new();
    let mut command = daemon.command();
    command
        .args(["--browser", "firefox", "--webdriver-url", &gecko.url])
        .arg("--allow-origin")
        .arg(site.origin())
        .arg("open")
        .arg(site.url("/second"));
    let out = crate::cli::run(command, None).await;
    assert!(out.contains("# The second page"), "firefox: {out}");
    drop(daemon);
    assert!(gecko.running(), "the user's geckodriver was ended");
}
