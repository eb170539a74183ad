//! The guard end to end in a real browser: a page on the one allowed origin
//! tries every way it has to reach a canary server on another loopback port.
//! Each test asserts that the canary saw no connection AND that the guard
//! recorded a refusal of it, with the right reason.

use std::time::{Duration, Instant};

use guard::{AllowedOrigin, Guard, Policy};
use tabwright_tests::canary::Canary;
use tabwright_tests::site::Site;
use tabwright_tests::Backend;
use wiremock::ResponseTemplate;

use driver_core::{Driver, DriverError, Options};

/// How long a page may take to try its request.
const SETTLE: Duration = Duration::from_secs(4);

struct Scene {
    site: Site,
    canary: Canary,
    browser: guard::GuardedDriver,
}

impl Scene {
    async fn new(backend: Backend) -> Self {
        let site = Site::start().await;
        let canary = Canary::start().await.expect("a canary port");
        let policy = Policy {
            allowed_origins: vec![AllowedOrigin::parse(&site.origin()).expect("the site's origin")],
            ..Policy::default()
        };
        let options = Options {
            timeout: Duration::from_secs(15),
            ..Options::default()
        };
        let browser = backend.guarded(options, Guard::new(policy));
        Self {
            site,
            canary,
            browser,
        }
    }

    /// Serves `body` (with `{C}` standing for the canary's origin and `{H}`
    /// for its host:port) at `/vector`.
    async fn vector(&self, body: &str) -> String {
        let body = body
            .replace("{C}", &self.canary.origin())
            .replace("{H}", &format!("127.0.0.1:{}", self.canary.port()));
        self.site.page("/vector", &body).await;
        self.site.url("/vector")
    }

    /// Waits until a refusal of the canary is recorded, then checks it and
    /// that the canary saw nothing.
    async fn assert_refused(&self, what: &str) {
        let port = format!(":{}", self.canary.port());
        let deadline = Instant::now() + SETTLE;
        let refusal = loop {
            let found = self
                .browser
                .refusals()
                .into_iter()
                .find(|refusal| refusal.target.contains(&port));
            if let Some(found) = found {
                break found;
            }
            assert!(
                Instant::now() < deadline,
                "{what}: no refusal of the canary recorded; refusals: {:?}; canary connections: {}",
                self.browser.refusals(),
                self.canary.connections()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        let reason = refusal.reason.to_string();
        assert!(
            reason.contains("127.0.0.1 is loopback") && reason.contains("127.0.0.0/8"),
            "{what}: the reason was {reason}"
        );
        assert_eq!(
            self.canary.connections(),
            0,
            "{what}: the canary was reached"
        );
    }
}

/// Ways out Firefox does not even try, so the guard has nothing to refuse:
/// WebRTC to a loopback address (Firefox offers no loopback candidate,
/// `media.peerconnection.ice.loopback` is off; every other ICE connection
/// goes through the guard's proxy, `media.peerconnection.ice.proxy_only`).
const FIREFOX_NEVER_TRIES: &[&str] = &["webrtc"];

/// A page that tries one way out as it loads.
async fn on_load(backend: Backend, body: &str, what: &str) {
    let scene = Scene::new(backend).await;
    let url = scene.vector(body).await;
    let _ = scene.browser.navigate(&url).await;
    if backend == Backend::Firefox && FIREFOX_NEVER_TRIES.contains(&what) {
        tokio::time::sleep(SETTLE / 2).await;
    } else {
        scene.assert_refused(what).await;
    }
    scene.browser.close().await.expect("close");
    assert_eq!(
        scene.canary.connections(),
        0,
        "{what}: the canary was reached after all"
    );
}

/// A page whose way out needs a click (popups need a user gesture).
async fn on_click(backend: Backend, body: &str, selector: &str, what: &str) {
    let scene = Scene::new(backend).await;
    let url = scene.vector(body).await;
    scene
        .browser
        .navigate(&url)
        .await
        .expect("the vector page loads");
    scene.browser.click(selector).await.expect("click");
    scene.assert_refused(what).await;
    scene.browser.close().await.expect("close");
}

/// One test per way out and backend: `egress::cdp::img`, `egress::webdriver::img`,
/// `egress::firefox::img`.
macro_rules! vectors {
    ($($name:ident: $body:expr;)+) => {
        mod cdp {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::on_load(super::Backend::Cdp, $body, stringify!($name)).await;
                }
            )+
        }
        mod webdriver {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::on_load(super::Backend::WebDriver, $body, stringify!($name)).await;
                }
            )+
        }
        mod firefox {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::on_load(super::Backend::Firefox, $body, stringify!($name)).await;
                }
            )+
        }
    };
}

every_backend!(
    anchor_ping,
    window_open,
    service_worker,
    redirect_to_the_canary_is_refused_with_the_hop,
    the_gate_refuses_before_the_browser_is_asked,
);

vectors! {
    img: r#"<img src="{C}/img">"#;
    script: r#"<script src="{C}/script.js"></script>"#;
    stylesheet: r#"<link rel="stylesheet" href="{C}/style.css">"#;
    font: r#"<style>@font-face { font-family: leak; src: url({C}/font.woff2); } p { font-family: leak; }</style><p>text</p>"#;
    iframe: r#"<iframe src="{C}/frame"></iframe>"#;
    fetch: r#"<script>fetch('{C}/fetch').catch(() => {});</script>"#;
    xhr: r#"<script>const x = new XMLHttpRequest(); x.open('GET', '{C}/xhr'); x.send();</script>"#;
    websocket: r#"<script>new WebSocket('ws://{H}/socket');</script>"#;
    event_source: r#"<script>new EventSource('{C}/events');</script>"#;
    send_beacon: r#"<script>navigator.sendBeacon('{C}/beacon', 'data');</script>"#;
    form_post: r#"<form method="post" action="{C}/form"><input name="a" value="b"></form><script>document.forms[0].submit();</script>"#;
    location: r#"<script>location = '{C}/location';</script>"#;
    meta_refresh: r#"<meta http-equiv="refresh" content="0;url={C}/refresh">"#;
    prefetch: r#"<link rel="prefetch" href="{C}/prefetch"><link rel="preconnect" href="{C}"><link rel="dns-prefetch" href="{C}"><img src="{C}/after-hints">"#;
    worker: r#"<script>new Worker(URL.createObjectURL(new Blob(["fetch('{C}/worker').catch(() => {})"], {type: 'text/javascript'})));</script>"#;
    webrtc: r#"<script>
        const pc = new RTCPeerConnection({iceServers: [{urls: 'turn:{H}?transport=tcp', username: 'u', credential: 'p'}], iceTransportPolicy: 'relay'});
        pc.createDataChannel('x');
        pc.createOffer().then((offer) => pc.setLocalDescription(offer));
    </script>"#;
}

async fn anchor_ping(backend: Backend) {
    let body = r#"<a id="go" href="/second" ping="{C}/ping">go</a>"#;
    if backend == Backend::Firefox {
        // Firefox sends no ping (`browser.send_pings` is off, and a page
        // cannot turn it on): the link is followed, the canary hears nothing.
        let scene = Scene::new(backend).await;
        let url = scene.vector(body).await;
        scene.browser.navigate(&url).await.expect("the page loads");
        scene.browser.click("#go").await.expect("click");
        tokio::time::sleep(SETTLE / 2).await;
        scene.browser.close().await.expect("close");
        assert_eq!(scene.canary.connections(), 0, "a ping reached the canary");
        return;
    }
    on_click(backend, body, "#go", "anchor_ping").await;
}

async fn window_open(backend: Backend) {
    on_click(
        backend,
        r#"<button id="go" onclick="window.open('{C}/popup')">open</button>"#,
        "#go",
        "window_open",
    )
    .await;
}

async fn service_worker(backend: Backend) {
    let scene = Scene::new(backend).await;
    let script = format!(
        "self.addEventListener('install', () => {{ fetch('{}/sw').catch(() => {{}}); }});",
        scene.canary.origin()
    );
    scene
        .site
        .serve(
            "/sw.js",
            ResponseTemplate::new(200).set_body_raw(script.into_bytes(), "text/javascript"),
        )
        .await;
    let url = scene
        .vector(r#"<script>navigator.serviceWorker.register('/sw.js');</script>"#)
        .await;
    scene
        .browser
        .navigate(&url)
        .await
        .expect("the vector page loads");
    scene.assert_refused("service_worker").await;
    scene.browser.close().await.expect("close");
}

async fn redirect_to_the_canary_is_refused_with_the_hop(backend: Backend) {
    let scene = Scene::new(backend).await;
    scene
        .site
        .serve(
            "/hop",
            ResponseTemplate::new(302).insert_header(
                "Location",
                format!("{}/after-redirect", scene.canary.origin()).as_str(),
            ),
        )
        .await;
    let error = scene
        .browser
        .navigate(&scene.site.url("/hop"))
        .await
        .expect_err("the redirect must not be followed");
    match &error {
        DriverError::Refused { url, reason } => {
            assert!(url.untrusted().ends_with("/after-redirect"), "{url:?}");
            assert!(reason.contains("loopback"), "{reason}");
        }
        other => panic!("a redirect to the canary gave {other:?}"),
    }
    scene.assert_refused("redirect").await;
    // The session goes on.
    scene
        .browser
        .navigate(&scene.site.url("/"))
        .await
        .expect("navigate after a refusal");
    scene.browser.close().await.expect("close");
}

async fn the_gate_refuses_before_the_browser_is_asked(backend: Backend) {
    let scene = Scene::new(backend).await;
    let canary = scene.canary.origin();
    let other_port_same_host = format!("{canary}/direct");
    let cases = [
        (other_port_same_host.as_str(), "loopback"),
        ("http://localhost/", "local name"),
        ("http://169.254.169.254/latest/meta-data/", "link-local"),
        ("http://2130706433/", "loopback"),
        ("http://[::ffff:127.0.0.1]/", "loopback"),
        ("file:///etc/passwd", "scheme"),
        ("javascript:alert(1)", "scheme"),
        ("view-source:http://example.com/", "scheme"),
        ("http://exa mple.com/", "not a valid URL"),
    ];
    for (url, why) in cases {
        match scene.browser.navigate(url).await {
            Err(DriverError::Refused { reason, .. }) => {
                assert!(reason.contains(why), "{url}: {reason}")
            }
            other => panic!("{url} gave {other:?}"),
        }
        match scene.browser.open_tab(Some(url)).await {
            Err(DriverError::Refused { .. }) => {}
            other => panic!("opening a tab on {url} gave {other:?}"),
        }
    }
    assert_eq!(scene.canary.connections(), 0);
    // The allowed origin works; another port on the same host does not.
    let page = scene
        .browser
        .navigate(&scene.site.url("/"))
        .await
        .expect("the allowed origin");
    assert_eq!(page.status, Some(200));
    scene.browser.close().await.expect("close");
}

/// A Chrome flag that would route the browser's requests (a proxy of its
/// own, no proxy, a bypass list, resolver rules) is refused before any
/// browser starts: in a guarded browser only the guard routes requests.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_around_the_guard_is_refused() {
    for backend in Backend::ALL {
        let options = Options {
            extra_args: vec!["--proxy-server=direct://".into()],
            ..Options::default()
        };
        let driver = backend.guarded(options, Guard::new(Policy::default()));
        let started = driver.navigate("about:blank").await;
        assert!(
            matches!(&started, Err(DriverError::Launch { reason }) if reason.contains("--proxy-server=direct://")),
            "{}: {started:?}",
            backend.name()
        );
        driver.close().await.expect("closes");
    }
}

/// The browser the CDP backend starts is driven over a pipe: no process of
/// this machine finds a DevTools port to drive it around the guard (no
/// `DevToolsActivePort` in its profile, no socket of its processes
/// listening). Read from `/proc`, not from the driver.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_browser_tabwright_starts_has_no_devtools_port() {
    let site = Site::start().await;
    let marker = tabwright_tests::backend::Marker::new();
    let options = Options {
        timeout: Duration::from_secs(15),
        extra_args: vec![marker.flag()],
        ..Options::default()
    };
    let policy = Policy {
        allowed_origins: vec![AllowedOrigin::parse(&site.origin()).expect("the site's origin")],
        ..Policy::default()
    };
    let browser = Backend::Cdp.guarded(options, Guard::new(policy));
    browser.navigate(&site.url("/")).await.expect("a page");
    let profile = marker.profile_dir().expect("the browser's profile");
    assert!(
        !profile.join("DevToolsActivePort").exists(),
        "{} announces a DevTools port",
        profile.display()
    );
    let mut sockets = std::collections::HashSet::new();
    for pid in marker.tree() {
        for entry in std::fs::read_dir(format!("/proc/{pid}/fd"))
            .into_iter()
            .flatten()
            .flatten()
        {
            if let Ok(target) = std::fs::read_link(entry.path()) {
                let target = target.to_string_lossy().into_owned();
                if let Some(inode) = target
                    .strip_prefix("socket:[")
                    .and_then(|rest| rest.strip_suffix(']'))
                {
                    sockets.insert(inode.to_owned());
                }
            }
        }
    }
    assert!(!sockets.is_empty(), "no socket of the browser's seen");
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        let listed = std::fs::read_to_string(table).unwrap_or_default();
        for line in listed.lines().skip(1) {
            let fields: Vec<&str> = line.split_whitespace().collect();
            // State 0A is LISTEN; the inode is the tenth field.
            if fields.get(3) == Some(&"0A") {
                assert!(
                    fields.get(9).is_none_or(|inode| !sockets.contains(*inode)),
                    "the browser listens: {line}"
                );
            }
        }
    }
    browser.close().await.expect("closed");
}
