//! The egress proxy over real sockets: a test client speaks HTTP to it, a
//! wiremock server plays the allowed upstream, and canaries count every
//! connection that must not happen.

use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use guard::{AllowedOrigin, EgressProxy, Guard, Policy, StaticResolver};
use tabwright_tests::http::{exchange, get};
use tokio::io::{AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use wiremock::matchers::any;
use wiremock::{Mock, MockServer, ResponseTemplate};

/// A listener that counts connections and answers 200 "leaked".
async fn canary(address: &str) -> (SocketAddr, Arc<AtomicUsize>) {
    let listener = TcpListener::bind(address).await.unwrap();
    let local = listener.local_addr().unwrap();
    let count = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&count);
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            counter.fetch_add(1, Ordering::SeqCst);
            let _ = stream
                .write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nleaked")
                .await;
        }
    });
    (local, count)
}

async fn upstream() -> MockServer {
    let server = MockServer::start().await;
    Mock::given(any())
        .respond_with(ResponseTemplate::new(200).set_body_string("upstream says hi"))
        .mount(&server)
        .await;
    server
}

async fn connect(proxy: &EgressProxy) -> BufReader<TcpStream> {
    BufReader::new(TcpStream::connect(proxy.address()).await.unwrap())
}

struct Setup {
    proxy: EgressProxy,
    guard: Guard,
    upstream: MockServer,
}

async fn setup(resolver: StaticResolver) -> Setup {
    let upstream = upstream().await;
    let policy = Policy {
        allowed_origins: vec![AllowedOrigin::parse(&upstream.uri()).unwrap()],
        ..Policy::default()
    };
    let guard = Guard::with_resolver(policy, Arc::new(resolver));
    let proxy = EgressProxy::start(guard.clone()).await.unwrap();
    Setup {
        proxy,
        guard,
        upstream,
    }
}

#[tokio::test]
async fn absolute_form_to_the_allowed_origin_and_refusal_elsewhere_on_one_connection() {
    let (canary_address, canary_count) = canary("127.0.0.1:0").await;
    let setup = setup(StaticResolver::new()).await;
    let upstream = setup.upstream.address().to_string();
    let mut client = connect(&setup.proxy).await;

    let (status, refused, body) = exchange(
        &mut client,
        &get(&format!("http://{upstream}/a"), &upstream),
    )
    .await;
    assert_eq!(
        (status, refused, body.as_str()),
        (200, None, "upstream says hi")
    );

    // The same kept-alive connection, another host: judged again.
    let canary_url = format!("http://{canary_address}/b");
    let (status, refused, body) =
        exchange(&mut client, &get(&canary_url, &canary_address.to_string())).await;
    assert_eq!(status, 403);
    assert!(
        refused
            .as_deref()
            .unwrap_or_default()
            .contains("127.0.0.1 is loopback"),
        "{refused:?}"
    );
    assert!(body.contains("tabwright refused"), "{body}");

    // And back to the allowed one, still on the same connection.
    let (status, ..) = exchange(
        &mut client,
        &get(&format!("http://{upstream}/c"), &upstream),
    )
    .await;
    assert_eq!(status, 200);

    assert_eq!(canary_count.load(Ordering::SeqCst), 0);
    let refusals = setup.guard.refusals().all();
    assert_eq!(refusals.len(), 1);
    assert_eq!(refusals[0].target, canary_url);
}

#[tokio::test]
async fn connect_tunnels_to_the_allowed_origin_only() {
    let (canary_address, canary_count) = canary("127.0.0.1:0").await;
    let setup = setup(StaticResolver::new()).await;
    let upstream = setup.upstream.address().to_string();

    let mut client = connect(&setup.proxy).await;
    let (status, ..) = exchange(
        &mut client,
        &format!("CONNECT {upstream} HTTP/1.1\r\nHost: {upstream}\r\n\r\n"),
    )
    .await;
    assert_eq!(status, 200);
    // Now the bytes go straight through to the upstream.
    let (status, _, body) = exchange(&mut client, &get("/through-the-tunnel", &upstream)).await;
    assert_eq!((status, body.as_str()), (200, "upstream says hi"));

    let mut client = connect(&setup.proxy).await;
    let (status, refused, _) = exchange(
        &mut client,
        &format!("CONNECT {canary_address} HTTP/1.1\r\nHost: {canary_address}\r\n\r\n"),
    )
    .await;
    assert_eq!(status, 403);
    assert!(refused.unwrap_or_default().contains("loopback"));

    for bad in [
        "CONNECT nohost HTTP/1.1\r\n\r\n",
        "CONNECT [::1]:80 HTTP/1.1\r\nHost: x\r\n\r\n",
    ] {
        let mut client = connect(&setup.proxy).await;
        let (status, ..) = exchange(&mut client, bad).await;
        assert!(status == 400 || status == 403, "{bad:?} gave {status}");
    }
    assert_eq!(canary_count.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn the_proxy_cannot_be_pointed_at_itself() {
    let setup = setup(StaticResolver::new()).await;
    let own = setup.proxy.address().to_string();
    let mut client = connect(&setup.proxy).await;
    let (status, refused, _) = exchange(&mut client, &get(&format!("http://{own}/"), &own)).await;
    assert_eq!(status, 403, "{refused:?}");
}

#[tokio::test]
async fn dns_rebinding_cannot_win() {
    // The name first resolves to the allowed upstream (standing in for a
    // public site: no outside address is reachable here), then to another
    // loopback address on the same port, where a canary listens.
    let setup_upstream = upstream().await;
    let port = setup_upstream.address().port();
    let (canary_address, canary_count) = canary(&format!("127.0.0.2:{port}")).await;
    let allowed: IpAddr = "127.0.0.1".parse().unwrap();
    let resolver = StaticResolver::new().answer(
        "rebind.test",
        vec![
            vec![allowed],
            vec![canary_address.ip()],
            vec![canary_address.ip()],
        ],
    );
    let policy = Policy {
        allowed_origins: vec![AllowedOrigin::parse(&setup_upstream.uri()).unwrap()],
        ..Policy::default()
    };
    let guard = Guard::with_resolver(policy, Arc::new(resolver));
    let proxy = EgressProxy::start(guard.clone()).await.unwrap();
    let host = format!("rebind.test:{port}");
    let mut client = connect(&proxy).await;
    let (status, _, body) =
        exchange(&mut client, &get(&format!("http://{host}/first"), &host)).await;
    assert_eq!((status, body.as_str()), (200, "upstream says hi"));
    let (status, refused, _) =
        exchange(&mut client, &get(&format!("http://{host}/second"), &host)).await;
    assert_eq!(status, 403);
    assert!(refused
        .unwrap_or_default()
        .contains("rebind.test resolves to 127.0.0.2 is loopback"));
    let mut tunnel = connect(&proxy).await;
    let (status, ..) = exchange(
        &mut tunnel,
        &format!("CONNECT {host} HTTP/1.1\r\nHost: {host}\r\n\r\n"),
    )
    .await;
    assert_eq!(status, 403);
    assert_eq!(canary_count.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn requests_not_meant_for_a_proxy_are_turned_away() {
    let setup = setup(StaticResolver::new()).await;
    let mut client = connect(&setup.proxy).await;
    let (status, ..) = exchange(&mut client, "GET /relative HTTP/1.1\r\nHost: x\r\n\r\n").await;
    assert_eq!(status, 400);
    let mut client = connect(&setup.proxy).await;
    let (status, refused, _) = exchange(&mut client, &get("http://localhost/", "localhost")).await;
    assert_eq!(status, 403);
    assert!(refused.unwrap_or_default().contains("local name"));
}

/// A corporate proxy, as the upstream-proxy tests need one: it answers
/// `CONNECT host:port` with a tunnel when the credentials are `ada:secret`
/// (407 otherwise), and records each request line with its credentials.
async fn corporate_proxy() -> (SocketAddr, Arc<std::sync::Mutex<Vec<String>>>) {
    use tokio::io::AsyncReadExt;
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let record = Arc::clone(&seen);
    tokio::spawn(async move {
        while let Ok((mut client, _)) = listener.accept().await {
            let record = Arc::clone(&record);
            tokio::spawn(async move {
                let mut head = Vec::new();
                while !head.ends_with(b"\r\n\r\n") {
                    match client.read_u8().await {
                        Ok(byte) => head.push(byte),
                        Err(_) => return,
                    }
                }
                let head = String::from_utf8_lossy(&head).into_owned();
                let line = head.lines().next().unwrap_or_default().to_owned();
                let authorised = head.contains("Proxy-Authorization: Basic YWRhOnNlY3JldA==");
                record.lock().unwrap().push(format!(
                    "{line} {}",
                    if authorised { "(ada)" } else { "(nobody)" }
                ));
                if !authorised {
                    let _ = client
                        .write_all(b"HTTP/1.1 407 Proxy Authentication Required\r\n\r\n")
                        .await;
                    return;
                }
                let target = line
                    .split_whitespace()
                    .nth(1)
                    .unwrap_or_default()
                    .to_owned();
                let Ok(mut upstream) = TcpStream::connect(target).await else {
                    let _ = client.write_all(b"HTTP/1.1 502 Bad Gateway\r\n\r\n").await;
                    return;
                };
                let _ = client
                    .write_all(b"HTTP/1.1 200 Connection established\r\n\r\n")
                    .await;
                let _ = tokio::io::copy_bidirectional(&mut client, &mut upstream).await;
            });
        }
    });
    (address, seen)
}

/// Behind an upstream proxy the guard still judges every address itself
/// and asks the proxy for exactly the address it judged (an IP, never the
/// name), so a name that rebinds to a local address cannot win through the
/// proxy; a proxy that refuses the credentials is a clear error.
#[tokio::test]
async fn an_upstream_proxy_is_asked_for_the_judged_address() {
    let site = upstream().await;
    let port = site.address().port();
    let (canary_address, canary_count) = canary(&format!("127.0.0.2:{port}")).await;
    let resolver = StaticResolver::new().answer(
        "site.test",
        vec![
            vec!["127.0.0.1".parse().unwrap()],
            vec![canary_address.ip()],
        ],
    );
    let (corporate, seen) = corporate_proxy().await;
    let policy = |credentials: &str| Policy {
        allowed_origins: vec![AllowedOrigin::parse(&site.uri()).unwrap()],
        upstream: Some(
            guard::UpstreamProxy::parse(
                &format!("http://{corporate}"),
                Some(credentials.to_owned()),
            )
            .unwrap(),
        ),
        ..Policy::default()
    };
    let guard = Guard::with_resolver(policy("ada:secret"), Arc::new(resolver));
    let proxy = EgressProxy::start(guard).await.unwrap();
    let host = format!("site.test:{port}");
    let mut client = connect(&proxy).await;
    let (status, _, body) = exchange(&mut client, &get(&format!("http://{host}/"), &host)).await;
    assert_eq!((status, body.as_str()), (200, "upstream says hi"));
    let mut again = connect(&proxy).await;
    let (status, refused, _) =
        exchange(&mut again, &get(&format!("http://{host}/next"), &host)).await;
    assert_eq!(status, 403, "{refused:?}");
    assert_eq!(
        *seen.lock().unwrap(),
        [format!("CONNECT 127.0.0.1:{port} HTTP/1.1 (ada)")],
        "the proxy is asked for the judged address only"
    );
    assert_eq!(canary_count.load(Ordering::SeqCst), 0);

    let resolver =
        StaticResolver::new().answer("site.test", vec![vec!["127.0.0.1".parse().unwrap()]]);
    let guard = Guard::with_resolver(policy("ada:wrong"), Arc::new(resolver));
    let proxy = EgressProxy::start(guard).await.unwrap();
    let mut client = connect(&proxy).await;
    let (status, _, body) = exchange(&mut client, &get(&format!("http://{host}/"), &host)).await;
    assert_eq!(status, 502, "{body}");
    assert!(
        body.contains("refused the tunnel") && body.contains("407"),
        "{body}"
    );
}

/// A real browser behind the upstream proxy: pages load through it, and
/// nothing reaches it that the guard refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_browser_behind_an_upstream_proxy() {
    use driver_core::Driver;
    let site = tabwright_tests::site::Site::start().await;
    let (corporate, seen) = corporate_proxy().await;
    let policy = Policy {
        allowed_origins: vec![AllowedOrigin::parse(&site.origin()).unwrap()],
        upstream: Some(
            guard::UpstreamProxy::parse(
                &format!("http://{corporate}"),
                Some("ada:secret".to_owned()),
            )
            .unwrap(),
        ),
        ..Policy::default()
    };
    let driver =
        tabwright_tests::Backend::Cdp.guarded(driver_core::Options::default(), Guard::new(policy));
    let opened = driver
        .navigate(&site.url("/"))
        .await
        .expect("the page loads");
    assert!(opened.url.untrusted().ends_with('/'), "{opened:?}");
    let heading = driver
        .eval("document.querySelector('h1').textContent")
        .await
        .expect("read");
    assert_eq!(heading, serde_json::json!("Welcome home"));
    let refused = driver.navigate("http://10.255.255.1/").await;
    assert!(refused.is_err(), "{refused:?}");
    driver.close().await.expect("closed");
    let seen = seen.lock().unwrap().clone();
    let port = site.origin().rsplit(':').next().unwrap().to_owned();
    assert!(
        !seen.is_empty()
            && seen
                .iter()
                .all(|line| line == &format!("CONNECT 127.0.0.1:{port} HTTP/1.1 (ada)")),
        "{seen:?}"
    );
}
