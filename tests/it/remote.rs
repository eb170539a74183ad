//! The CDP backend connected to a Chrome it did not start: by the
//! `http://host:port` of `--remote-debugging-port`, and by the `ws://` URL.
//! Closing the driver must leave that browser running.

use std::time::Duration;

use driver_cdp::{CdpDriver, Driver, Options};
use driver_core::launch::{self, ChromeProcess, Profile};
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connects_by_http_and_ws_and_leaves_the_browser_running() {
    let site = Site::start().await;
    let (mut chrome, _profile, ws) = start_chrome();
    let port = ws
        .trim_start_matches("ws://")
        .split(['/', ':'])
        .nth(1)
        .expect("a port in the DevTools URL")
        .to_owned();

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
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port();
    let driver = CdpDriver::new(Options {
        endpoint: Some(format!("http://127.0.0.1:{port}")),
        ..Options::default()
    });
    let error = driver
        .navigate("about:blank")
        .await
        .expect_err("nothing listens there");
    assert!(
        matches!(error, driver_core::DriverError::Launch { .. }),
        "{error:?}"
    );
    assert!(error.to_string().contains(&port.to_string()), "{error}");
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
