//! A browser's own DevTools socket, for what is done beside a backend's
//! protocol: the browser-level WebSocket Chrome announces in its profile's
//! `DevToolsActivePort`, spoken one command at a time (no events are
//! followed). The WebDriver backend stops a spinning script through it;
//! the tests crash tabs and list targets through it. The CDP backend has
//! its own client, which follows events (`driver-cdp`'s `client`).

use std::path::Path;

use async_tungstenite::tungstenite::Message;
use futures::StreamExt;
use serde_json::{json, Value};

type Socket = async_tungstenite::WebSocketStream<async_tungstenite::tokio::ConnectStream>;

/// The browser-level DevTools socket URL of a browser on this machine,
/// from its profile's `DevToolsActivePort`.
pub async fn local_socket(profile: &Path) -> Result<String, String> {
    let announced = tokio::fs::read_to_string(profile.join("DevToolsActivePort"))
        .await
        .map_err(|error| format!("no DevToolsActivePort: {error}"))?;
    let mut lines = announced.lines();
    let (Some(port), Some(path)) = (lines.next(), lines.next()) else {
        return Err(format!("unexpected DevToolsActivePort: {announced:?}"));
    };
    Ok(format!("ws://127.0.0.1:{}{}", port.trim(), path.trim()))
}

/// A connection to a browser's DevTools socket.
pub struct DevToolsSocket {
    socket: Socket,
    next: u64,
}

impl DevToolsSocket {
    /// Connects to a DevTools WebSocket URL.
    pub async fn connect(url: &str) -> Result<Self, String> {
        let (socket, _) = async_tungstenite::tokio::connect_async(url)
            .await
            .map_err(|error| format!("cannot reach {url}: {error}"))?;
        Ok(Self { socket, next: 1 })
    }

    /// Connects to the browser running on `profile` (on this machine).
    pub async fn of_profile(profile: &Path) -> Result<Self, String> {
        Self::connect(&local_socket(profile).await?).await
    }

    /// Sends a command (to a flat session, or the browser) without waiting
    /// for its answer; returns its id.
    pub async fn send(
        &mut self,
        session: Option<&str>,
        method: &str,
        params: Value,
    ) -> Result<u64, String> {
        let id = self.next;
        self.next += 1;
        let mut message = json!({ "id": id, "method": method, "params": params });
        if let Some(session) = session {
            message["sessionId"] = json!(session);
        }
        self.socket
            .send(Message::text(message.to_string()))
            .await
            .map_err(|error| error.to_string())?;
        Ok(id)
    }

    /// Sends a command and reads until its answer: its `result`, or its
    /// `error` as the error. Answers to commands sent without waiting, and
    /// events, are passed over.
    pub async fn call(
        &mut self,
        session: Option<&str>,
        method: &str,
        params: Value,
    ) -> Result<Value, String> {
        let id = self.send(session, method, params).await?;
        while let Some(Ok(message)) = self.socket.next().await {
            let Ok(text) = message.into_text() else {
                continue;
            };
            let answer: Value = serde_json::from_str(text.as_str()).unwrap_or_default();
            if answer["id"] == id {
                return match answer.get("error") {
                    Some(error) => Err(format!("{method}: {error}")),
                    None => Ok(answer["result"].clone()),
                };
            }
        }
        Err("the DevTools socket closed".to_owned())
    }

    /// Closes the connection.
    pub async fn close(mut self) {
        let _ = self.socket.close(None).await;
    }
}
