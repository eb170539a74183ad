//! The egress proxy the browser is forced through.
//!
//! An HTTP/1.1 proxy (hyper) on 127.0.0.1 (or the policy's `listen`
//! address, for a browser on another machine, admitting only the policy's
//! clients) and a port the system picks. It
//! takes `CONNECT host:port` (HTTPS, and WebSockets, which Chrome always
//! tunnels through a proxy) and absolute-form requests (`GET http://…`). For
//! every one, on every kept-alive connection, it asks the [`Guard`] where the
//! request may go, dials exactly the address the guard judged, and relays.
//! A refusal is answered `403` with the reason in an `X-Tabwright-Refused`
//! header, and recorded.

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{combinators::BoxBody, BodyExt, Empty, Full};
use hyper::body::Incoming;
use hyper::client::conn::http1::SendRequest;
use hyper::header::{HeaderValue, HOST};
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode, Uri};
use hyper_util::rt::TokioIo;
use parking_lot::Mutex;
use tokio::net::{TcpListener, TcpStream};
use tokio::task::{JoinHandle, JoinSet};
use url::Host;

use crate::{Guard, Reason};

/// How long dialling an upstream address may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long resolving a name may take.
const RESOLVE_TIMEOUT: Duration = Duration::from_secs(5);
/// The header that carries a refusal's reason back to the browser (and tests).
pub const REFUSED_HEADER: &str = "x-tabwright-refused";

type Body = BoxBody<Bytes, hyper::Error>;

/// The host a probe asks for: under `.invalid`, which no resolver answers,
/// so only a browser that sends its requests to this proxy reaches it.
pub const PROBE_HOST: &str = "tabwright-probe.invalid";

/// A running egress proxy. Dropping it stops it: the listener and every
/// connection it accepted.
#[derive(Debug)]
pub struct EgressProxy {
    address: SocketAddr,
    accept: JoinHandle<()>,
    probe: Arc<Probe>,
}

/// This proxy's probe: a path of its own, and whether a request for it
/// arrived.
#[derive(Debug)]
struct Probe {
    path: String,
    arrived: AtomicBool,
}

impl EgressProxy {
    /// Binds the policy's `listen` address (127.0.0.1 by default) on a free
    /// port and starts serving the connections the guard admits.
    pub async fn start(guard: Guard) -> std::io::Result<Self> {
        let ip = guard
            .policy()
            .listen
            .unwrap_or(IpAddr::V4(Ipv4Addr::LOCALHOST));
        let listener = TcpListener::bind((ip, 0)).await?;
        let address = listener.local_addr()?;
        let upstreams = Upstreams::default();
        let probe = Arc::new(Probe {
            path: format!(
                "/{:016x}{:016x}",
                driver_core::random_u64(),
                driver_core::random_u64()
            ),
            arrived: AtomicBool::new(false),
        });
        let probed = Arc::clone(&probe);
        let accept = tokio::spawn(async move {
            // The connections live with this task: dropping the proxy ends
            // them too.
            let mut connections = JoinSet::new();
            loop {
                let accepted = tokio::select! {
                    accepted = listener.accept() => accepted,
                    Some(_) = connections.join_next(), if !connections.is_empty() => continue,
                };
                let Ok((stream, peer)) = accepted else {
                    continue;
                };
                // A stranger is turned away before a byte is read.
                if !guard.admits(peer) {
                    drop(stream);
                    continue;
                }
                let guard = guard.clone();
                let upstreams = upstreams.clone();
                let probe = Arc::clone(&probed);
                connections.spawn(async move {
                    let service = service_fn(move |request| {
                        handle(
                            guard.clone(),
                            upstreams.clone(),
                            Arc::clone(&probe),
                            request,
                        )
                    });
                    let served = hyper::server::conn::http1::Builder::new()
                        .preserve_header_case(true)
                        .title_case_headers(true)
                        .serve_connection(TokioIo::new(stream), service)
                        .with_upgrades()
                        .await;
                    if let Err(error) = served {
                        tracing::debug!(%error, "proxy connection ended");
                    }
                });
            }
        });
        Ok(Self {
            address,
            accept,
            probe,
        })
    }

    /// Where the proxy listens.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// The proxy as Chrome's `--proxy-server` wants it.
    pub fn url(&self) -> String {
        format!("http://{}", self.address)
    }

    /// A URL only this proxy answers (204): a browser that fetches it and
    /// [`probed`](Self::probed) then says so sends its requests here.
    pub fn probe_url(&self) -> String {
        format!("http://{PROBE_HOST}{}", self.probe.path)
    }

    /// Whether the probe URL was asked of this proxy.
    pub fn probed(&self) -> bool {
        self.probe.arrived.load(Ordering::SeqCst)
    }
}

impl Drop for EgressProxy {
    fn drop(&mut self) {
        self.accept.abort();
    }
}

async fn handle(
    guard: Guard,
    upstreams: Upstreams,
    probe: Arc<Probe>,
    request: Request<Incoming>,
) -> Result<Response<Body>, Infallible> {
    let uri = request.uri();
    if uri.host() == Some(PROBE_HOST) {
        // Answered here, never dialled: 204 for this proxy's own path.
        if uri.path() == probe.path {
            probe.arrived.store(true, Ordering::SeqCst);
            let mut answer = Response::new(empty());
            *answer.status_mut() = StatusCode::NO_CONTENT;
            answer
                .headers_mut()
                .insert("access-control-allow-origin", HeaderValue::from_static("*"));
            return Ok(answer);
        }
        return Ok(plain(StatusCode::NOT_FOUND, "not this proxy's probe"));
    }
    let response = if request.method() == Method::CONNECT {
        tunnel(guard, request).await
    } else {
        forward(guard, upstreams, request).await
    };
    Ok(response.unwrap_or_else(|response| response))
}

/// `CONNECT host:port`: judge, dial, answer 200, then splice the bytes.
async fn tunnel(
    guard: Guard,
    request: Request<Incoming>,
) -> Result<Response<Body>, Response<Body>> {
    let Some(authority) = request.uri().authority().cloned() else {
        return Err(plain(StatusCode::BAD_REQUEST, "CONNECT needs host:port"));
    };
    let target = authority.as_str().to_owned();
    let (host, port) = host_and_port(&authority, None).ok_or_else(|| {
        refuse(
            &guard,
            &target,
            Reason::Malformed {
                input: target.clone(),
                problem: "a tunnel needs host:port".to_owned(),
            },
        )
    })?;
    let addresses = vet(&guard, None, &host, port, &target).await?;
    let (upstream, _) = dial(&guard, &addresses, &target).await?;
    // A tunnel outside the task's origins (let through while they do not
    // hold every request) is cut once they do: what a page keeps open
    // cannot carry what it is handed afterwards.
    let outside = guard.policy().task.is_set() && !guard.task().may_reach(None, &host, port);
    tokio::spawn(async move {
        match hyper::upgrade::on(request).await {
            Ok(upgraded) => {
                let mut client = TokioIo::new(upgraded);
                let mut upstream = upstream;
                let spliced = tokio::io::copy_bidirectional(&mut client, &mut upstream);
                if outside {
                    // (Held first: a tunnel held before bytes arrive
                    // carries none of them.)
                    tokio::select! {
                        biased;
                        () = guard.held() => tracing::debug!(%target, "a tunnel outside the task's origins cut"),
                        _ = spliced => {}
                    }
                } else {
                    let _ = spliced.await;
                }
            }
            Err(error) => tracing::debug!(%error, "CONNECT upgrade failed"),
        }
    });
    Ok(Response::new(empty()))
}

/// `GET http://host:port/path`: judge, dial, send in origin form, relay the
/// answer. Every request is judged on its own, whatever connection it came
/// on, and goes out on an upstream connection to exactly the address judged
/// (a fresh one, or an idle one to that same address).
async fn forward(
    guard: Guard,
    upstreams: Upstreams,
    request: Request<Incoming>,
) -> Result<Response<Body>, Response<Body>> {
    let uri = request.uri().clone();
    let target = uri.to_string();
    let (Some(scheme), Some(authority)) = (uri.scheme_str(), uri.authority()) else {
        return Err(plain(
            StatusCode::BAD_REQUEST,
            "this is a proxy: requests must be in absolute form",
        ));
    };
    if scheme != "http" {
        return Err(refuse(
            &guard,
            &target,
            Reason::Scheme {
                scheme: scheme.to_owned(),
            },
        ));
    }
    let (host, port) = host_and_port(authority, Some(80)).ok_or_else(|| {
        refuse(
            &guard,
            &target,
            Reason::Malformed {
                input: target.clone(),
                problem: "bad authority".to_owned(),
            },
        )
    })?;
    let addresses = vet(&guard, Some("http"), &host, port, &target).await?;

    let (mut parts, body) = request.into_parts();
    parts.uri = origin_form(&uri);
    parts.headers.remove("proxy-connection");
    parts.headers.remove("proxy-authorization");
    if !parts.headers.contains_key(HOST) {
        if let Ok(value) = HeaderValue::from_str(authority.as_str()) {
            parts.headers.insert(HOST, value);
        }
    }
    let (mut sender, address) = match upstreams.take(&addresses) {
        Some(idle) => idle,
        None => {
            let (stream, address) = dial(&guard, &addresses, &target).await?;
            let (sender, connection) = hyper::client::conn::http1::Builder::new()
                .preserve_header_case(true)
                .title_case_headers(true)
                .handshake(TokioIo::new(stream))
                .await
                .map_err(|error| {
                    plain(
                        StatusCode::BAD_GATEWAY,
                        &format!("upstream handshake with {target} failed: {error}"),
                    )
                })?;
            tokio::spawn(async move {
                if let Err(error) = connection.await {
                    tracing::debug!(%error, "upstream connection ended");
                }
            });
            (sender, address)
        }
    };
    let response = sender
        .send_request(Request::from_parts(parts, body))
        .await
        .map_err(|error| plain(StatusCode::BAD_GATEWAY, &format!("{target}: {error}")))?;
    // Once this response has been read through, the connection may carry
    // another request, but only to this same judged address.
    let upstreams = upstreams.clone();
    tokio::spawn(async move {
        if sender.ready().await.is_ok() {
            upstreams.put(address, sender);
        }
    });
    Ok(response.map(|body| body.boxed()))
}

/// Upstream connections waiting for their next request, by the exact address
/// they were dialled to. A request reuses one only after its own host was
/// judged and resolved to that same address, so pooling never lets a request
/// reach an address the guard did not approve for it.
#[derive(Clone, Default)]
struct Upstreams(Arc<Mutex<IdleConnections>>);

/// Idle upstream connections by address, each with when it went idle.
type IdleConnections = HashMap<SocketAddr, Vec<(Instant, SendRequest<Incoming>)>>;

/// Idle upstream connections kept per address.
const IDLE_PER_ADDRESS: usize = 8;
/// How long an idle upstream connection is kept.
const IDLE_FOR: Duration = Duration::from_secs(30);

impl Upstreams {
    fn take(&self, addresses: &[SocketAddr]) -> Option<(SendRequest<Incoming>, SocketAddr)> {
        let mut idle = self.lock();
        for address in addresses {
            if let Some(waiting) = idle.get_mut(address) {
                while let Some((since, sender)) = waiting.pop() {
                    if since.elapsed() < IDLE_FOR && sender.is_ready() {
                        return Some((sender, *address));
                    }
                }
            }
        }
        None
    }

    fn put(&self, address: SocketAddr, sender: SendRequest<Incoming>) {
        let mut idle = self.lock();
        let waiting = idle.entry(address).or_default();
        waiting.retain(|(since, sender)| since.elapsed() < IDLE_FOR && !sender.is_closed());
        if waiting.len() < IDLE_PER_ADDRESS {
            waiting.push((Instant::now(), sender));
        }
    }

    fn lock(&self) -> parking_lot::MutexGuard<'_, IdleConnections> {
        self.0.lock()
    }
}

/// Asks the guard (with a bound on name resolution), recording a refusal.
async fn vet(
    guard: &Guard,
    scheme: Option<&str>,
    host: &Host<String>,
    port: u16,
    target: &str,
) -> Result<Vec<SocketAddr>, Response<Body>> {
    let verdict = tokio::time::timeout(RESOLVE_TIMEOUT, guard.vet(scheme, host, port))
        .await
        .unwrap_or_else(|_| {
            Err(Reason::Unresolvable {
                host: host.to_string(),
                problem: "the lookup timed out".to_owned(),
            })
        });
    verdict.map_err(|reason| refuse(guard, target, reason))
}

/// Connects to the first of the judged addresses that answers: directly,
/// or through the upstream proxy, asked for that address itself.
async fn dial(
    guard: &Guard,
    addresses: &[SocketAddr],
    target: &str,
) -> Result<(TcpStream, SocketAddr), Response<Body>> {
    let mut last_error = String::from("no address");
    for address in addresses {
        let connected = tokio::time::timeout(CONNECT_TIMEOUT, async {
            match &guard.policy().upstream {
                None => TcpStream::connect(address)
                    .await
                    .map_err(|error| error.to_string()),
                Some(upstream) => through(upstream, *address).await,
            }
        })
        .await;
        match connected {
            Ok(Ok(stream)) => return Ok((stream, *address)),
            Ok(Err(error)) => last_error = error,
            Err(_) => last_error = "timed out".to_owned(),
        }
    }
    Err(plain(
        StatusCode::BAD_GATEWAY,
        &format!("cannot connect to {target}: {last_error}"),
    ))
}

/// A tunnel to `address` through the upstream proxy: `CONNECT ip:port`,
/// answered 200, and the connection is then the address's.
async fn through(
    upstream: &crate::UpstreamProxy,
    address: SocketAddr,
) -> Result<TcpStream, String> {
    use base64::Engine;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let exchange = async {
        let mut stream = TcpStream::connect(upstream.address.as_str())
            .await
            .map_err(|error| format!("the upstream proxy {}: {error}", upstream.address))?;
        let mut request = format!("CONNECT {address} HTTP/1.1\r\nHost: {address}\r\n");
        if let Some(credentials) = &upstream.credentials {
            let encoded = base64::engine::general_purpose::STANDARD.encode(credentials);
            request.push_str(&format!("Proxy-Authorization: Basic {encoded}\r\n"));
        }
        request.push_str("\r\n");
        stream
            .write_all(request.as_bytes())
            .await
            .map_err(|error| format!("the upstream proxy {}: {error}", upstream.address))?;
        // The answer's head, byte by byte: what follows it is the tunnel's.
        let mut head = Vec::new();
        while !head.ends_with(b"\r\n\r\n") {
            if head.len() > 16 * 1024 {
                return Err(format!(
                    "the upstream proxy {} sent too long an answer",
                    upstream.address
                ));
            }
            let byte = stream.read_u8().await.map_err(|error| {
                format!("the upstream proxy {} closed: {error}", upstream.address)
            })?;
            head.push(byte);
        }
        let head = String::from_utf8_lossy(&head);
        let status = head
            .split_whitespace()
            .nth(1)
            .unwrap_or_default()
            .to_owned();
        if status != "200" {
            let line = head.lines().next().unwrap_or_default().to_owned();
            return Err(format!(
                "the upstream proxy {} refused the tunnel to {address}: {line}",
                upstream.address
            ));
        }
        Ok(stream)
    };
    tokio::time::timeout(CONNECT_TIMEOUT, exchange)
        .await
        .unwrap_or_else(|_| {
            Err(format!(
                "the upstream proxy {} did not answer",
                upstream.address
            ))
        })
}

/// The host (parsed as a browser parses one, `[v6]` brackets and all) and
/// the port, or `default_port` when there is none.
fn host_and_port(
    authority: &hyper::http::uri::Authority,
    default_port: Option<u16>,
) -> Option<(Host<String>, u16)> {
    let port = authority.port_u16().or(default_port)?;
    let host = Host::parse(authority.host()).ok()?;
    Some((host, port))
}

fn origin_form(uri: &Uri) -> Uri {
    uri.path_and_query()
        .map(|path| path.as_str())
        .unwrap_or("/")
        .parse()
        .unwrap_or_else(|_| Uri::from_static("/"))
}

fn refuse(guard: &Guard, target: &str, reason: Reason) -> Response<Body> {
    let text = reason.to_string();
    // A page a person (or a model) reads: a name that does not resolve is
    // no site at all, not something the guard kept out.
    let page = match &reason {
        Reason::Unresolvable { host, .. } => {
            format!("There is no site called {host}: the name does not resolve.")
        }
        _ => format!("tabwright refused {target}: {text}"),
    };
    guard.refusals().record(target, reason);
    let mut response = plain(StatusCode::FORBIDDEN, &page);
    if let Ok(value) = HeaderValue::from_str(&text.replace(['\r', '\n'], " ")) {
        response.headers_mut().insert(REFUSED_HEADER, value);
    }
    response
}

fn plain(status: StatusCode, text: &str) -> Response<Body> {
    let mut response = Response::new(
        Full::new(Bytes::from(text.to_owned()))
            .map_err(|never| match never {})
            .boxed(),
    );
    *response.status_mut() = status;
    response.headers_mut().insert(
        "content-type",
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

fn empty() -> Body {
    Empty::<Bytes>::new()
        .map_err(|never| match never {})
        .boxed()
}
