//! The guard for a browser on another machine. The other machine is a
//! network namespace joined to this one by a veth pair: a Chromium with its
//! DevTools port, or a chromedriver, runs in it; tabwright runs here, its
//! proxy listening on this side's veth address for that machine alone. A
//! third namespace, not among the guard's clients, tries the proxy too.
//!
//! Needs root (`ip netns`); where namespaces cannot be made, each test says
//! why and passes without running. Run alone with
//! `cargo test -p tabwright-tests --test it -- remote_guard`.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

use driver_core::{Driver, DriverError, Options};
use guard::{AllowedOrigin, Guard, GuardedDriver, IpNet, Policy};
use tabwright_tests::canary::Canary;
use tabwright_tests::netns::{Netns, Relay};
use tabwright_tests::site::Site;
use tabwright_tests::Backend;
use wiremock::ResponseTemplate;

/// How long a remote browser may take to start and answer.
const START: Duration = Duration::from_secs(20);

/// The flags a remote browser is started with by its owner (not by
/// tabwright): quiet, headless, its own profile.
const CHROME_FLAGS: &[&str] = &[
    "--headless=new",
    "--no-sandbox",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
];

/// A browser on the other machine, and what reaches it from here.
struct Remote {
    endpoint: String,
    /// The path that answers once the remote end is up.
    ready: &'static str,
    _relay: Relay,
    _process: tokio::process::Child,
    _profile: tempfile::TempDir,
}

impl Remote {
    /// Chromium with its DevTools port, in `ns`.
    async fn chrome(ns: &Netns) -> Result<Self, String> {
        let profile = tempfile::tempdir().map_err(|e| e.to_string())?;
        let port = 9222;
        let mut command = ns.command("/usr/lib/chromium/chromium");
        command
            .args(CHROME_FLAGS)
            .arg(format!("--remote-debugging-port={port}"))
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        Self::start(ns, command, port, profile, "/json/version").await
    }

    /// chromedriver, in `ns`: a remote WebDriver end.
    async fn chromedriver(ns: &Netns) -> Result<Self, String> {
        let profile = tempfile::tempdir().map_err(|e| e.to_string())?;
        let port = 9515;
        let mut command = ns.command("chromedriver");
        // As an owner exposes one to a network: any Host header, and
        // connections from anywhere (the relay's come from its loopback).
        command
            .arg(format!("--port={port}"))
            .args(["--allowed-origins=*", "--allowed-ips="])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        Self::start(ns, command, port, profile, "/status").await
    }

    /// Starts `command` in `ns`, listening on `port` there, and waits until
    /// `ready` answers through a relay from here.
    async fn start(
        ns: &Netns,
        mut command: tokio::process::Command,
        port: u16,
        profile: tempfile::TempDir,
        ready: &'static str,
    ) -> Result<Self, String> {
        let process = command.spawn().map_err(|e| format!("{command:?}: {e}"))?;
        let relay = ns.relay(port).map_err(|e| format!("relay: {e}"))?;
        let remote = Self {
            endpoint: format!("http://{}", relay.address),
            ready,
            _relay: relay,
            _process: process,
            _profile: profile,
        };
        remote.until_up().await?;
        Ok(remote)
    }

    /// The remote end `backend` drives, in `ns`.
    async fn of(backend: Backend, ns: &Netns) -> Self {
        match backend {
            Backend::Cdp => Self::chrome(ns).await,
            Backend::WebDriver => Self::chromedriver(ns).await,
            Backend::Firefox => Err("no remote Firefox in these tests yet".to_owned()),
        }
        .unwrap_or_else(|problem| panic!("the remote browser: {problem}"))
    }

    /// Waits until the remote end answers through the relay.
    async fn until_up(&self) -> Result<(), String> {
        let path = self.ready;
        let deadline = tokio::time::Instant::now() + START;
        let mut last = String::new();
        while tokio::time::Instant::now() < deadline {
            match tabwright_tests::http::fetch(&format!("{}{path}", self.endpoint)).await {
                Ok((200, _)) => return Ok(()),
                Ok((status, body)) => last = format!("HTTP {status}: {body}"),
                Err(error) => last = error,
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Err(format!("{}{path} did not answer: {last}", self.endpoint))
    }
}

/// Makes the namespaces, or says why the test cannot run here.
fn namespaces() -> Option<(Netns, Netns)> {
    match (Netns::create(), Netns::create()) {
        (Ok(remote), Ok(stranger)) => Some((remote, stranger)),
        (Err(why), _) | (_, Err(why)) => {
            eprintln!("remote_guard skipped: network namespaces cannot be made here ({why})");
            None
        }
    }
}

/// A page on the allowed origin that tries to reach the three canaries:
/// the remote machine's loopback, its own address, and this machine's
/// loopback; with an image, a fetch, a WebSocket, a frame and a redirect.
fn reaching(targets: &[String]) -> String {
    let mut page = String::from("<!doctype html><title>Reaching</title><h1>Reaching</h1>");
    for (index, target) in targets.iter().enumerate() {
        let ws = target.replace("http://", "ws://");
        page.push_str(&format!(
            "<img src=\"{target}/img.png\"><iframe src=\"{target}/frame\"></iframe>\
             <img src=\"/redirect/{index}\">\
             <script>fetch('{target}/fetch').catch(() => 0); try {{ new WebSocket('{ws}/ws'); }} catch (e) {{}}</script>"
        ));
    }
    page
}

async fn remote_stays_guarded(backend: Backend) {
    let Some((remote_ns, stranger_ns)) = namespaces() else {
        return;
    };
    let site = Site::start().await;
    // Canaries: on the remote machine's loopback and own address, and on
    // this machine's loopback.
    let remote_loopback = Canary::from_std(
        remote_ns
            .listen(SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 0))
            .expect("a listener on the remote loopback"),
    )
    .expect("a canary");
    let remote_own = Canary::from_std(
        remote_ns
            .listen(SocketAddr::new(remote_ns.address(), 0))
            .expect("a listener on the remote address"),
    )
    .expect("a canary");
    let here = Canary::start().await.expect("a canary");
    let targets = vec![
        format!("http://127.0.0.1:{}", remote_loopback.port()),
        format!("http://{}:{}", remote_ns.ip, remote_own.port()),
        here.origin(),
    ];
    site.page("/reaching", &reaching(&targets)).await;
    for (index, target) in targets.iter().enumerate() {
        site.serve(
            &format!("/redirect/{index}"),
            ResponseTemplate::new(302).insert_header("location", format!("{target}/redirected")),
        )
        .await;
    }

    let remote = Remote::of(backend, &remote_ns).await;

    let policy = Policy {
        allowed_origins: vec![AllowedOrigin::parse(&site.origin()).expect("origin")],
        listen: Some(IpAddr::V4(remote_ns.host_ip)),
        clients: vec![IpNet::from(remote_ns.address())],
        ..Policy::default()
    };
    let options = Options {
        endpoint: Some(remote.endpoint.clone()),
        timeout: START,
        ..Options::default()
    };
    let guard = Guard::new(policy);
    let driver: GuardedDriver = backend.guarded(options, guard.clone());

    // A page on the allowed origin loads (on this machine's loopback:
    // where the proxy dials from).
    let page = driver
        .navigate(&site.url("/reaching"))
        .await
        .unwrap_or_else(|error| panic!("{}: the allowed page: {error}", backend.name()));
    assert_eq!(page.status, Some(200), "{page:?}");
    let proxy = driver.proxy_address().expect("the proxy runs");
    assert_eq!(proxy.ip(), IpAddr::V4(remote_ns.host_ip), "{proxy}");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    for (name, canary) in [
        ("the remote machine's loopback", &remote_loopback),
        ("the remote machine's own address", &remote_own),
        ("this machine's loopback", &here),
    ] {
        assert_eq!(
            canary.connections(),
            0,
            "{}: {name} was reached",
            backend.name()
        );
    }
    let refusals = guard.refusals().all();
    for target in &targets {
        let host = target.trim_start_matches("http://");
        assert!(
            refusals.iter().any(|refusal| refusal.target.contains(host)),
            "{}: no refusal for {target} in {refusals:?}",
            backend.name()
        );
    }

    // A machine that is not among the clients cannot use the proxy: its
    // connection is closed before a byte is read, and recorded.
    let asked = stranger_ns.exchange(
        proxy,
        b"GET http://example.com/ HTTP/1.1\r\nHost: example.com\r\n\r\n",
    );
    assert!(
        asked.as_ref().map_or(true, Vec::is_empty),
        "the stranger got an answer: {asked:?}"
    );
    assert!(
        guard
            .refused_clients()
            .iter()
            .any(|stranger| stranger.from.ip() == stranger_ns.address()),
        "{:?}",
        guard.refused_clients()
    );

    // Closing the session leaves the remote browser running and closes the
    // session's proxy port.
    driver.close().await.expect("close");
    remote
        .until_up()
        .await
        .expect("the remote browser still runs");
    let after = remote_ns.exchange(proxy, b"GET http://example.com/ HTTP/1.1\r\n\r\n");
    assert!(
        matches!(&after, Err(error) if error.kind() == std::io::ErrorKind::ConnectionRefused),
        "the proxy port is still open: {after:?}"
    );
    drop(remote);
}

/// A remote browser that cannot reach the proxy (it listens on this
/// machine's loopback) fails at the start with a clear error, rather than
/// browsing unguarded.
async fn unreachable_guard_fails_closed(backend: Backend) {
    let Some((remote_ns, _stranger)) = namespaces() else {
        return;
    };
    let remote = Remote::of(backend, &remote_ns).await;
    let options = Options {
        endpoint: Some(remote.endpoint.clone()),
        timeout: START,
        ..Options::default()
    };
    let driver = backend.guarded(options, Guard::new(Policy::default()));
    let started = driver.navigate("about:blank").await;
    assert!(
        matches!(&started, Err(DriverError::Launch { reason }) if reason.contains("do not reach the guard's proxy")),
        "{}: {started:?}",
        backend.name()
    );
    driver.close().await.expect("close");
    remote
        .until_up()
        .await
        .expect("the remote browser still runs");
}

both_backends!(remote_stays_guarded, unreachable_guard_fails_closed);
