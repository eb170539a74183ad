//! `tabwright mcp --http ADDR`: MCP over streamable HTTP (rmcp's transport)
//! for many clients at once. Browser sessions come from a [`Hub`]: one per
//! MCP session (its `Mcp-Session-Id`, for clients on revisions with
//! transport sessions), or one per handle for stateless requests (the
//! 2026-07-28 revision), each closed when its client ends it or it sits idle
//! for `--idle-timeout`; both count against `--max-sessions` where they are
//! made.
//!
//! Every request, whatever its route (`/mcp`, the live view's, one that
//! exists nowhere), passes one gate before any route is chosen: a `Host`
//! that is one of the server's own names (DNS rebinding), a bearer token
//! when any is set (required on any address but loopback; compared in
//! constant time), an `Origin` that is the server's own or listed, a body
//! read whole within a time limit, and for an `initialize` a place among
//! `--max-sessions` (taken one at a time, so a burst gets no transport
//! session past the limit). The gate names the request's owner (its
//! token's digest) for what comes after it: the live view shows a token
//! only its own sessions, and an MCP session serves only the token that
//! opened it. Every answer carries headers that keep it out of other
//! sites' frames and `<img>`s.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{combinators::BoxBody, BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use subtle::ConstantTimeEq;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tools::Pack;
use tower_service::Service;

use crate::hub::{Hub, Owner};
use crate::mcp::McpServer;

/// How long a client may take to send a request's headers, or its body.
const READ_LIMIT: Duration = Duration::from_secs(10);
/// The largest request body read (a tool call's arguments are small).
const BODY_LIMIT: usize = 4 * 1024 * 1024;

/// How the HTTP server is run.
pub struct HttpOptions {
    /// Where it listens.
    pub listen: SocketAddr,
    /// How long a session may sit idle before it (and its browser
    /// session) is closed.
    pub idle: Duration,
    /// How many sessions may be open at once.
    pub max_sessions: usize,
    /// The bearer tokens a request may carry (none: no token needed). Each
    /// is a client of its own: a session handle works only with the token
    /// that made it.
    pub tokens: Vec<String>,
    /// More `Host` values to accept (the names a reverse proxy forwards).
    pub allowed_hosts: Vec<String>,
    /// More `Origin` values to accept (`scheme://host[:port]`), besides the
    /// server's own.
    pub allowed_origins: Vec<String>,
    /// The tools' MCP definitions (every session's pack offers the same).
    pub definitions: Vec<serde_json::Value>,
}

type Body = BoxBody<Bytes, Infallible>;

/// Serves MCP over HTTP until `stop` resolves; `make_pack` gives each new
/// session its pack (and so its browser session).
// (Over 100 lines: the server's one loop: accept, the gate before every route, the routes.)
pub async fn serve(
    options: HttpOptions,
    make_pack: impl Fn(Arc<tools::Watch>) -> Pack + Send + Sync + 'static,
    stop: impl std::future::Future<Output = ()>,
) -> Result<(), String> {
    if !options.listen.ip().is_loopback() && options.tokens.is_empty() {
        return Err(format!(
            "--http {}: a server on an address other than loopback needs a bearer token (--token or TABWRIGHT_TOKEN)",
            options.listen
        ));
    }
    let listener = TcpListener::bind(options.listen)
        .await
        .map_err(|error| format!("cannot listen on {}: {error}", options.listen))?;
    let address = listener
        .local_addr()
        .map_err(|error| format!("the listener has no address: {error}"))?;
    let hub = Hub::new(
        make_pack,
        options.definitions,
        options.max_sessions,
        options.idle,
        format!("http://{address}"),
    );
    let mut sessions = LocalSessionManager::default();
    sessions.session_config.keep_alive = Some(options.idle);
    let cancel = CancellationToken::new();
    let mut hosts = allowed_hosts(address);
    if !hosts.is_empty() {
        hosts.extend(options.allowed_hosts.iter().cloned());
    }
    let config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(hosts.clone())
        .with_cancellation_token(cancel.clone());
    let made_for = Arc::clone(&hub);
    let tasks = Arc::new(crate::mcp::Tasks::default());
    let service = StreamableHttpService::new(
        move || {
            Ok(McpServer::over_http(
                Arc::clone(&made_for),
                Arc::clone(&tasks),
            ))
        },
        Arc::new(sessions),
        config,
    );
    let gate = Arc::new(Gate {
        tokens: options.tokens,
        origins: own_origins(address, &options.allowed_origins),
        hosts: hosts.clone(),
        hub: Arc::clone(&hub),
        initializing: Arc::new(tokio::sync::Mutex::new(())),
    });
    eprintln!(
        "tabwright: MCP over streamable HTTP at http://{address}/mcp, a live view of its sessions at http://{address}/live ({}; at most {} sessions, each closed after {} s idle)",
        if gate.tokens.is_empty() {
            "loopback only, no token"
        } else {
            "every request needs a bearer token"
        },
        hub.max(),
        options.idle.as_secs()
    );
    let reaper = {
        let hub = Arc::clone(&hub);
        let every = (options.idle / 4).clamp(Duration::from_millis(250), Duration::from_secs(30));
        tokio::spawn(async move {
            let mut ticks = tokio::time::interval(every);
            loop {
                ticks.tick().await;
                hub.reap();
            }
        })
    };
    tokio::pin!(stop);
    loop {
        let (stream, _) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    tracing::debug!(%error, "accept failed");
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let service = service.clone();
        let gate = Arc::clone(&gate);
        tokio::spawn(async move {
            let handler = hyper::service::service_fn(move |request| {
                let mut service = service.clone();
                let gate = Arc::clone(&gate);
                async move {
                    let mut response = match gate.admit(request).await {
                        Ok(admitted) if is_live(&admitted.request) => {
                            let (parts, body) = admitted.request.into_parts();
                            let body = body
                                .collect()
                                .await
                                .map(|body| body.to_bytes())
                                .unwrap_or_default();
                            crate::live::answer(
                                gate.hub.as_ref(),
                                admitted.viewer,
                                &parts.method,
                                parts.uri.path(),
                                &body,
                            )
                        }
                        Ok(admitted) => {
                            // An initialize holds its place in line until
                            // rmcp has answered it (and its browser session
                            // is counted).
                            let response = service.call(admitted.request).await;
                            drop(admitted.initializing);
                            match response {
                                Ok(response) => response,
                                Err(never) => match never {},
                            }
                        }
                        Err(refusal) => refusal,
                    };
                    crate::live::lock_headers(response.headers_mut());
                    Ok::<_, Infallible>(response)
                }
            });
            let served = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(READ_LIMIT)
                .serve_connection(TokioIo::new(stream), handler)
                .await;
            if let Err(error) = served {
                tracing::debug!(%error, "an MCP connection ended");
            }
        });
    }
    reaper.abort();
    // Ends every MCP session (each closes its browser session as it goes)
    // and every session under a handle.
    cancel.cancel();
    hub.close_all().await;
    Ok(())
}

/// What each request must pass before any route sees it.
struct Gate {
    tokens: Vec<String>,
    /// The `Origin` values accepted, lower case.
    origins: Vec<String>,
    /// The `Host` values accepted, lower case (none: any, on an
    /// unspecified address, where the token guards the server).
    hosts: Vec<String>,
    hub: Arc<Hub>,
    /// Taken by each `initialize` until it is answered.
    initializing: Arc<tokio::sync::Mutex<()>>,
}

/// A request the gate let through.
struct Admitted {
    /// As the route gets it: its body read whole, its [`Owner`] among its
    /// extensions.
    request: Request<Body>,
    /// Whose it is, and for a handoff's key the one session it opens.
    viewer: crate::live::Viewer,
    /// For an `initialize`, its place in line.
    initializing: Option<tokio::sync::OwnedMutexGuard<()>>,
}

impl Gate {
    /// The request as a route gets it, or the answer to one that may not
    /// pass.
    async fn admit(&self, request: Request<Incoming>) -> Result<Admitted, Response<Body>> {
        if !host_allowed(&self.hosts, request.headers()) {
            return Err(error_response(
                StatusCode::FORBIDDEN,
                "this tabwright server answers only to its own host names (start it with --allowed-hosts to add one)",
            ));
        }
        let mut owner = Owner::of(None);
        // A handoff's link opens one session's live view with a key of its
        // own, short-lived, in place of the server's token.
        let view = is_live(&request)
            .then(|| query_value(&request, "key"))
            .flatten()
            .and_then(|key| self.hub.view(&key));
        if let Some(view) = view {
            owner = view.owner;
        } else if !self.tokens.is_empty() {
            let header = bearer(request.headers());
            // A browser opening the live view sends no header: its token
            // comes in the address.
            let query = is_live(&request)
                .then(|| query_value(&request, "token"))
                .flatten();
            let sent = header.map(str::to_owned).or(query).unwrap_or_default();
            // Every token is compared, each in constant time.
            let known = self.tokens.iter().fold(false, |known, token| {
                known | bool::from(token.as_bytes().ct_eq(sent.as_bytes()))
            });
            owner = Owner::of(Some(&sent));
            if !known {
                let mut refused = error_response(
                    StatusCode::UNAUTHORIZED,
                    "this tabwright server needs its bearer token (Authorization: Bearer …)",
                );
                refused.headers_mut().insert(
                    hyper::header::WWW_AUTHENTICATE,
                    hyper::header::HeaderValue::from_static("Bearer"),
                );
                return Err(refused);
            }
        }
        if let Some(origin) = foreign_origin(&self.origins, request.headers()) {
            return Err(error_response(
                StatusCode::FORBIDDEN,
                &format!(
                    "requests from the web origin {:?} are not served (start tabwright with --allowed-origins to allow one)",
                    origin.chars().take(100).collect::<String>()
                ),
            ));
        }
        let (mut parts, body) = request.into_parts();
        parts.extensions.insert(owner);
        let only = view.map(|view| view.id);
        let read = tokio::time::timeout(READ_LIMIT, Limited::new(body, BODY_LIMIT).collect()).await;
        let body = match read {
            Ok(Ok(collected)) => collected.to_bytes(),
            Ok(Err(_)) => {
                return Err(error_response(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "the request body is too large or broke off",
                ))
            }
            Err(_) => {
                return Err(error_response(
                    StatusCode::REQUEST_TIMEOUT,
                    &format!(
                        "the request body took longer than {} s to arrive",
                        READ_LIMIT.as_secs()
                    ),
                ))
            }
        };
        let opens_a_session = parts.method == hyper::Method::POST
            && !is_live_path(parts.uri.path())
            && !parts.headers.contains_key("mcp-session-id")
            && serde_json::from_slice::<serde_json::Value>(&body)
                .is_ok_and(|message| message["method"] == "initialize");
        let mut initializing = None;
        if opens_a_session {
            // One at a time: each sees the count the one before it left.
            let place = Arc::clone(&self.initializing).lock_owned().await;
            if !self.hub.has_room() {
                return Err(error_response(
                    StatusCode::SERVICE_UNAVAILABLE,
                    &format!(
                        "tabwright serves at most {} sessions at once and all are open; end one (or wait for an idle one to close) and try again",
                        self.hub.max()
                    ),
                ));
            }
            initializing = Some(place);
        }
        Ok(Admitted {
            request: Request::from_parts(parts, Full::new(body).boxed()),
            viewer: crate::live::Viewer { owner, only },
            initializing,
        })
    }
}

/// Whether a request's `Host` is one of `hosts` (any, where `hosts` is
/// empty). A request without one is refused.
pub fn host_allowed(hosts: &[String], headers: &hyper::HeaderMap) -> bool {
    if hosts.is_empty() {
        return true;
    }
    let Some(host) = headers
        .get(hyper::header::HOST)
        .and_then(|host| host.to_str().ok())
    else {
        return false;
    };
    let host = host.trim().to_ascii_lowercase();
    hosts
        .iter()
        .any(|allowed| allowed.to_ascii_lowercase() == host)
}

/// The value of `name` in a request's query, if it has one.
fn query_value<B>(request: &Request<B>, name: &str) -> Option<String> {
    url::form_urlencoded::parse(request.uri().query().unwrap_or("").as_bytes())
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.into_owned())
}

/// Whether a path is the live view's (`/live…`).
fn is_live_path(path: &str) -> bool {
    path == "/live" || path.starts_with("/live/")
}

/// Whether a request is for the live view (`/live…`).
fn is_live<B>(request: &Request<B>) -> bool {
    let path = request.uri().path();
    match *request.method() {
        hyper::Method::GET => path == "/live" || path.starts_with("/live/"),
        // A person's input during a handoff.
        hyper::Method::POST => path.starts_with("/live/input/"),
        _ => false,
    }
}

/// The bearer token in a request's headers, if any.
pub fn bearer(headers: &hyper::HeaderMap) -> Option<&str> {
    headers
        .get(hyper::header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
}

/// The request's `Origin`, normalised, when it is not one of `origins`
/// (a request without one is not from a web page).
pub fn foreign_origin(origins: &[String], headers: &hyper::HeaderMap) -> Option<String> {
    let origin = headers
        .get(hyper::header::ORIGIN)?
        .to_str()
        .unwrap_or("")
        .trim_end_matches('/')
        .to_lowercase();
    (!origins.contains(&origin)).then_some(origin)
}

/// The origins a request may come from: the server's own address under
/// each loopback name, and those listed.
pub fn own_origins(address: SocketAddr, listed: &[String]) -> Vec<String> {
    let port = address.port();
    let mut origins = vec![
        format!("http://127.0.0.1:{port}"),
        format!("http://localhost:{port}"),
        format!("http://[::1]:{port}"),
        format!("http://{address}"),
    ];
    origins.extend(
        listed
            .iter()
            .map(|origin| origin.trim_end_matches('/').to_lowercase()),
    );
    origins
}

/// A JSON-RPC error answer, which MCP clients show as it is.
fn error_response(status: StatusCode, message: &str) -> Response<Body> {
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": { "code": -32000, "message": message },
    });
    let mut response = Response::new(Full::new(Bytes::from(body.to_string())).boxed());
    *response.status_mut() = status;
    response.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("application/json"),
    );
    response
}

/// The `Host` headers accepted: loopback names, and the address the
/// server listens on (on 0.0.0.0 or ::, any: the token guards it then).
pub fn allowed_hosts(address: SocketAddr) -> Vec<String> {
    let mut hosts = vec![
        "localhost".to_owned(),
        "127.0.0.1".to_owned(),
        "::1".to_owned(),
        format!("localhost:{}", address.port()),
        format!("127.0.0.1:{}", address.port()),
        format!("[::1]:{}", address.port()),
    ];
    if address.ip().is_unspecified() {
        return Vec::new();
    }
    hosts.push(address.ip().to_string());
    hosts.push(address.to_string());
    hosts
}
