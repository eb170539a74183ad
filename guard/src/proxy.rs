//! The egress proxy the browser is forced through.
//!
//! An HTTP/1.1 proxy (hyper) on 127.0.0.1 and a port the system picks. It
//! takes `CONNECT host:port` (HTTPS, and WebSockets, which Chrome always
//! tunnels through a proxy) and absolute-form requests (`GET http://…`). For
//! every one, on every kept-alive connection, it asks the [`Guard`] where the
//! request may go, dials exactly the address the guard judged, and relays.
//! A refusal is answered `403` with the reason in an `X-Tabwright-Refused`
//! header, and recorded.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{combinators::BoxBody, BodyExt, Empty, Full};
use hyper::body::Incoming;
use hyper::header::{HeaderValue, HOST};
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode, Uri};
use hyper_util::rt::TokioIo;
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;
use url::Host;

use crate::{Guard, Reason};

/// How long dialling an upstream address may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long resolving a name may take.
const RESOLVE_TIMEOUT: Duration = Duration::from_secs(5);
/// The header that carries a refusal's reason back to the browser (and tests).
pub const REFUSED_HEADER: &str = "x-tabwright-refused";

type Body = BoxBody<Bytes, hyper::Error>;

/// A running egress proxy. Dropping it stops it.
#[derive(Debug)]
pub struct EgressProxy {
    address: SocketAddr,
    accept: JoinHandle<()>,
}

impl EgressProxy {
    /// Binds 127.0.0.1 on a free port and starts serving.
    pub async fn start(guard: Guard) -> std::io::Result<Self> {
        let listener = TcpListener::bind(("127.0.0.1", 0)).await?;
        let address = listener.local_addr()?;
        let accept = tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    continue;
                };
                let guard = guard.clone();
                tokio::spawn(async move {
                    let service = service_fn(move |request| handle(guard.clone(), request));
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
        Ok(Self { address, accept })
    }

    /// Where the proxy listens.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// The proxy as Chrome's `--proxy-server` wants it.
    pub fn url(&self) -> String {
        format!("http://{}", self.address)
    }
}

impl Drop for EgressProxy {
    fn drop(&mut self) {
        self.accept.abort();
    }
}

async fn handle(guard: Guard, request: Request<Incoming>) -> Result<Response<Body>, Infallible> {
    let response = if request.method() == Method::CONNECT {
        tunnel(guard, request).await
    } else {
        forward(guard, request).await
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
    let upstream = dial(&addresses, &target).await?;
    tokio::spawn(async move {
        match hyper::upgrade::on(request).await {
            Ok(upgraded) => {
                let mut client = TokioIo::new(upgraded);
                let mut upstream = upstream;
                let _ = tokio::io::copy_bidirectional(&mut client, &mut upstream).await;
            }
            Err(error) => tracing::debug!(%error, "CONNECT upgrade failed"),
        }
    });
    Ok(Response::new(empty()))
}

/// `GET http://host:port/path`: judge, dial, send in origin form, relay the
/// answer. Each request gets its own upstream connection, so a kept-alive
/// browser connection can never carry a request to a host it was not judged
/// for.
async fn forward(
    guard: Guard,
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
    let upstream = dial(&addresses, &target).await?;

    let (mut parts, body) = request.into_parts();
    parts.uri = origin_form(&uri);
    parts.headers.remove("proxy-connection");
    parts.headers.remove("proxy-authorization");
    if !parts.headers.contains_key(HOST) {
        if let Ok(value) = HeaderValue::from_str(authority.as_str()) {
            parts.headers.insert(HOST, value);
        }
    }
    let (mut sender, connection) = hyper::client::conn::http1::Builder::new()
        .preserve_header_case(true)
        .title_case_headers(true)
        .handshake(TokioIo::new(upstream))
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
    let response = sender
        .send_request(Request::from_parts(parts, body))
        .await
        .map_err(|error| plain(StatusCode::BAD_GATEWAY, &format!("{target}: {error}")))?;
    Ok(response.map(|body| body.boxed()))
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

/// Connects to the first of the judged addresses that answers.
async fn dial(addresses: &[SocketAddr], target: &str) -> Result<TcpStream, Response<Body>> {
    let mut last_error = String::from("no address");
    for address in addresses {
        match tokio::time::timeout(CONNECT_TIMEOUT, TcpStream::connect(address)).await {
            Ok(Ok(stream)) => return Ok(stream),
            Ok(Err(error)) => last_error = error.to_string(),
            Err(_) => last_error = "timed out".to_owned(),
        }
    }
    Err(plain(
        StatusCode::BAD_GATEWAY,
        &format!("cannot connect to {target}: {last_error}"),
    ))
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
    guard.refusals().record(target, reason);
    let mut response = plain(
        StatusCode::FORBIDDEN,
        &format!("tabwright refused {target}: {text}"),
    );
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
