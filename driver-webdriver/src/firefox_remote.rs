//! [`Remote`]: a Firefox a remote WebDriver end starts for us (geckodriver,
//! or a Selenium Grid's Firefox node), driven over the BiDi socket of a
//! classic session (`webSocketUrl: true`, which geckodriver answers with
//! Firefox's own socket, and a Grid with its relay).
//!
//! The browser gets what one started here gets from its `user.js`: the
//! same preferences (every request to the guard's proxy, loopback too;
//! nothing fetched by itself), through `moz:firefoxOptions.prefs`, and the
//! same environment through its `env`. Classic WebDriver stays in use for
//! what BiDi cannot do in such a session: keeping it alive (a Grid counts
//! only classic commands as activity), asking whether the end still has it
//! (a Grid keeps the socket to a dead node open), and ending it (BiDi's
//! `browser.close` is refused in a classic session).

use std::time::Duration;

use driver_core::backend::devtools::DevToolsSocket;
use driver_core::{DriverError, Options, Result};
use fantoccini::{Client, ClientBuilder};
use serde_json::Value;

use crate::session::{grid_refusal, REMOTE_TIMEOUT_MARGIN};

/// How long the remote end has to say whether it still has the session.
const ASK_LIMIT: Duration = Duration::from_secs(3);

/// How long ending a remote session is waited for.
const END_WAIT: Duration = Duration::from_secs(2);

/// How long ending a remote session may take in all. Past it the session is
/// left to the remote end's own timeout: geckodriver cannot quit a Firefox
/// whose page spins (checked with geckodriver 0.37, Selenium Grid 4.48 and
/// Firefox ESR 153: the delete never answers; the node ends the session
/// at its session timeout and leaves that Firefox running).
const END_LIMIT: Duration = Duration::from_secs(60);

/// A classic session at a remote WebDriver end, whose Firefox a
/// [`Firefox`](crate::firefox::Firefox) speaks BiDi to.
pub(crate) struct Remote {
    client: Client,
    /// Where the end was reached.
    endpoint: String,
    /// Tells the end every `Options::keep_alive` that we are still here,
    /// while a call runs too: a Grid counts no BiDi message as activity,
    /// so a call longer than its session timeout would lose the session.
    keeper: tokio::task::JoinHandle<()>,
    /// Whether the session was ended ([`end`](Self::end)).
    ended: bool,
}

impl Drop for Remote {
    /// A session dropped without being ended is ended in the background,
    /// where a runtime runs: the end would hold its slot until its timeout.
    fn drop(&mut self) {
        self.keeper.abort();
        if self.ended {
            return;
        }
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            let client = self.client.clone();
            runtime.spawn(tokio::time::timeout(END_LIMIT, client.close()));
        }
    }
}

/// `reason`, said as a session the remote end lost.
pub(crate) fn lost(reason: &str) -> String {
    format!("the remote end lost this session (its node stopped or it ended the session): {reason}")
}

impl Remote {
    /// Opens a session with `capabilities` (a Firefox's) at `endpoint`, its
    /// start waited for as `options` say, and connects to its BiDi socket.
    pub(crate) async fn start(
        options: &Options,
        endpoint: &str,
        capabilities: serde_json::Map<String, Value>,
    ) -> Result<(Self, DevToolsSocket)> {
        let wait = options.timeout.saturating_sub(REMOTE_TIMEOUT_MARGIN);
        let mut builder =
            ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new());
        builder.capabilities(capabilities);
        let client = match tokio::time::timeout(wait, builder.connect(endpoint)).await {
            Ok(Ok(client)) => client,
            Ok(Err(error)) => {
                let said = error.to_string();
                return Err(DriverError::Launch {
                    reason: grid_refusal(&said, "Firefox").unwrap_or_else(|| {
                        format!("cannot open a Firefox session at {endpoint}: {said}")
                    }),
                });
            }
            Err(_) => {
                return Err(DriverError::Launch {
                    reason: format!(
                        "the WebDriver end at {endpoint} gave no Firefox session within {} s (a Selenium Grid whose slots are all busy queues the request): try again later, or give a longer --timeout",
                        wait.as_secs()
                    ),
                })
            }
        };
        let keeper = tokio::spawn(keep_alive(client.clone(), options.keep_alive));
        let remote = Self {
            client,
            endpoint: endpoint.to_owned(),
            keeper,
            ended: false,
        };
        let socket = remote
            .client
            .capabilities()
            .and_then(|capabilities| capabilities.get("webSocketUrl"))
            .and_then(Value::as_str)
            .and_then(|socket| socket_at(socket, endpoint));
        let Some(socket) = socket else {
            remote.end().await;
            return Err(DriverError::Launch {
                reason: format!("the WebDriver end at {endpoint} gave its Firefox session no BiDi socket (webSocketUrl): it needs geckodriver 0.31 or later, or Selenium Grid 4.12 or later"),
            });
        };
        match DevToolsSocket::connect(&socket).await {
            Ok(connected) => Ok((remote, connected)),
            Err(reason) => {
                remote.end().await;
                Err(DriverError::Launch {
                    reason: format!(
                        "cannot reach the Firefox session's BiDi socket at {socket}: {reason}"
                    ),
                })
            }
        }
    }

    /// Why the remote end no longer has the session, if it says so when
    /// asked (within [`ASK_LIMIT`]).
    pub(crate) async fn lost(&self) -> Option<String> {
        match tokio::time::timeout(ASK_LIMIT, self.client.windows()).await {
            Ok(Err(error)) => match crate::errors::sort(error) {
                // (The Grid's words are already said as a lost session.)
                DriverError::BrowserGone { reason } if reason.contains("lost this session") => {
                    Some(reason)
                }
                DriverError::BrowserGone { reason } => Some(lost(&reason)),
                _ => None,
            },
            _ => None,
        }
    }

    /// `DOM.setFileInputFiles` parameters whose files (paths here) the
    /// end's browser can open: sent through its file endpoint (a Grid's
    /// `se/file`), or as they are to an end on this machine that has none
    /// (geckodriver).
    pub(crate) async fn files_there(&self, params: Value) -> Result<Value> {
        match crate::session::files_to_remote(&self.client, params.clone()).await {
            Err(DriverError::Unsupported { .. }) if is_here(&self.endpoint) => Ok(params),
            other => other,
        }
    }

    /// Ends the session, waiting [`END_WAIT`] at most: a remote end that
    /// takes longer (its Firefox's page spins) is left to finish on its own,
    /// for [`END_LIMIT`] at most.
    pub(crate) async fn end(mut self) {
        self.ended = true;
        self.keeper.abort();
        let client = self.client.clone();
        let ending = tokio::spawn(tokio::time::timeout(END_LIMIT, client.close()));
        let _ = tokio::time::timeout(END_WAIT, ending).await;
    }
}

/// The BiDi socket's address the end answered (`socket`), reached from
/// here: as given (a Grid names its own relay, geckodriver Firefox's own
/// port), except that a loopback host named by an end on another machine
/// means that machine.
fn socket_at(socket: &str, endpoint: &str) -> Option<String> {
    let mut socket = url::Url::parse(socket).ok()?;
    let endpoint = url::Url::parse(endpoint).ok()?;
    if loopback(&socket) && !loopback(&endpoint) {
        socket.set_host(endpoint.host_str()).ok()?;
    }
    Some(socket.into())
}

/// Whether `url` names this machine (a loopback host).
fn is_here(url: &str) -> bool {
    url::Url::parse(url).is_ok_and(|url| loopback(&url))
}

fn loopback(url: &url::Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(name)) => name == "localhost",
        Some(url::Host::Ipv4(address)) => address.is_loopback(),
        Some(url::Host::Ipv6(address)) => address.is_loopback(),
        None => false,
    }
}

/// Tells the end of `client` every `every` (a second at least) that we are
/// still here (a classic command: a Grid counts only those as activity).
async fn keep_alive(client: Client, every: Duration) {
    loop {
        tokio::time::sleep(every.max(Duration::from_secs(1))).await;
        let _ = tokio::time::timeout(Duration::from_secs(5), client.windows()).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_socket_is_reached_where_the_end_is() {
        let grid = "ws://grid.internal:4444/session/1/se/bidi";
        assert_eq!(
            socket_at(grid, "http://grid.internal:4444").as_deref(),
            Some(grid)
        );
        assert_eq!(
            socket_at("ws://127.0.0.1:9222/session/1", "http://127.0.0.1:4444").as_deref(),
            Some("ws://127.0.0.1:9222/session/1")
        );
        assert_eq!(
            socket_at("ws://127.0.0.1:9222/session/1", "http://10.0.0.7:4444").as_deref(),
            Some("ws://10.0.0.7:9222/session/1")
        );
    }
}
