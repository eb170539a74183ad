//! `tabwright mcp --http ADDR`: MCP over streamable HTTP (rmcp's transport)
//! for many clients at once. Every MCP session (its `Mcp-Session-Id`) gets
//! a browser session of its own (on CDP a browser context in one shared
//! Chrome, with its own guard), made on its first tool call and closed when
//! the client ends the session or it sits idle for `--idle-timeout`.
//!
//! In front of rmcp, each request passes a gate: a bearer token when one is
//! set (required on any address but loopback), and `--max-sessions`, which
//! answers one session too many with a clear error instead of a browser.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{combinators::BoxBody, BodyExt, Full};
use hyper::body::Incoming;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tools::Pack;
use tower_service::Service;

use crate::mcp::McpServer;

/// How the HTTP server is run.
pub struct HttpOptions {
    /// Where it listens.
    pub listen: SocketAddr,
    /// How long an MCP session may sit idle before it (and its browser
    /// session) is closed.
    pub idle: Duration,
    /// How many MCP sessions may be open at once.
    pub max_sessions: usize,
    /// The bearer token every request must carry, if any.
    pub token: Option<String>,
}

type Body = BoxBody<Bytes, Infallible>;

/// Serves MCP over HTTP until `stop` resolves; `make_pack` gives each new
/// MCP session its pack (and so its browser session).
pub async fn serve(
    options: HttpOptions,
    make_pack: impl Fn() -> Pack + Send + Sync + 'static,
    stop: impl std::future::Future<Output = ()>,
) -> Result<(), String> {
    if !options.listen.ip().is_loopback() && options.token.is_none() {
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
    let mut sessions = LocalSessionManager::default();
    sessions.session_config.keep_alive = Some(options.idle);
    let sessions = Arc::new(sessions);
    let cancel = CancellationToken::new();
    let config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(allowed_hosts(address))
        .with_cancellation_token(cancel.clone());
    let service = StreamableHttpService::new(
        move || Ok(McpServer::for_session(make_pack())),
        Arc::clone(&sessions),
        config,
    );
    let gate = Arc::new(Gate {
        token: options.token,
        max_sessions: options.max_sessions,
        sessions,
    });
    eprintln!(
        "tabwright: MCP over streamable HTTP at http://{address}/mcp ({}; at most {} sessions, each closed after {} s idle)",
        if gate.token.is_some() {
            "every request needs the bearer token"
        } else {
            "loopback only, no token"
        },
        gate.max_sessions,
        options.idle.as_secs()
    );
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
                    if let Some(refusal) = gate.check(&request).await {
                        return Ok::<_, Infallible>(refusal);
                    }
                    let request = request.map(|body: Incoming| body.boxed());
                    service.call(request).await
                }
            });
            let served = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), handler)
                .await;
            if let Err(error) = served {
                tracing::debug!(%error, "an MCP connection ended");
            }
        });
    }
    // Ends every session: each closes its browser session as it goes.
    cancel.cancel();
    Ok(())
}

/// What each request must pass before rmcp sees it.
struct Gate {
    token: Option<String>,
    max_sessions: usize,
    sessions: Arc<LocalSessionManager>,
}

impl Gate {
    /// The answer to a request that may not pass, or `None`.
    async fn check(&self, request: &Request<Incoming>) -> Option<Response<Body>> {
        if let Some(token) = &self.token {
            let sent = request
                .headers()
                .get(hyper::header::AUTHORIZATION)
                .and_then(|value| value.to_str().ok())
                .and_then(|value| value.strip_prefix("Bearer "));
            if sent != Some(token.as_str()) {
                let mut refused = error_response(
                    StatusCode::UNAUTHORIZED,
                    "this tabwright server needs its bearer token (Authorization: Bearer …)",
                );
                refused.headers_mut().insert(
                    hyper::header::WWW_AUTHENTICATE,
                    hyper::header::HeaderValue::from_static("Bearer"),
                );
                return Some(refused);
            }
        }
        let opens_a_session = request.method() == hyper::Method::POST
            && !request.headers().contains_key("mcp-session-id");
        if opens_a_session && self.sessions.sessions.read().await.len() >= self.max_sessions {
            return Some(error_response(
                StatusCode::SERVICE_UNAVAILABLE,
                &format!(
                    "tabwright serves at most {} sessions at once and all are open; end one (or wait for an idle one to close) and try again",
                    self.max_sessions
                ),
            ));
        }
        None
    }
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

/// The `Host` headers rmcp accepts: loopback names, and the address the
/// server listens on (on 0.0.0.0 or ::, any: the token guards it then).
fn allowed_hosts(address: SocketAddr) -> Vec<String> {
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
