//! A browser's own DevTools socket, reached through the `DevToolsActivePort`
//! file in its profile: what a test uses to do to a browser what no driver
//! call does (crash a tab's renderer, list every target).

use std::path::Path;

use async_tungstenite::tungstenite::Message;
use futures::StreamExt;
use serde_json::{json, Value};

type Socket = async_tungstenite::WebSocketStream<async_tungstenite::tokio::ConnectStream>;

/// A connection to a browser's DevTools.
pub struct DevTools {
    socket: Socket,
    next: u64,
}

impl DevTools {
    /// Connects to the browser whose process is `pid` (its profile is in
    /// its command line).
    pub async fn of_process(pid: u32) -> Result<Self, String> {
        let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).map_err(|e| e.to_string())?;
        let profile = cmdline
            .split(|byte| *byte == 0)
            .filter_map(|arg| std::str::from_utf8(arg).ok())
            .find_map(|arg| arg.strip_prefix("--user-data-dir="))
            .ok_or("no --user-data-dir")?
            .to_owned();
        Self::of_profile(Path::new(&profile)).await
    }

    /// Connects to the browser running on `profile`.
    pub async fn of_profile(profile: &Path) -> Result<Self, String> {
        let announced = std::fs::read_to_string(profile.join("DevToolsActivePort"))
            .map_err(|error| format!("no DevToolsActivePort: {error}"))?;
        let mut lines = announced.lines();
        let (Some(port), Some(path)) = (lines.next(), lines.next()) else {
            return Err(format!("unexpected DevToolsActivePort: {announced:?}"));
        };
        let url = format!("ws://127.0.0.1:{}{}", port.trim(), path.trim());
        let (socket, _) = async_tungstenite::tokio::connect_async(url.as_str())
            .await
            .map_err(|error| format!("cannot reach {url}: {error}"))?;
        Ok(Self { socket, next: 1 })
    }

    /// Sends a command (to a flat session, or the browser) and returns its
    /// answer's `result`.
    pub async fn call(
        &mut self,
        session: Option<&str>,
        method: &str,
        params: Value,
    ) -> Result<Value, String> {
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
        while let Some(Ok(message)) = self.socket.next().await {
            let Ok(text) = message.into_text() else {
                continue;
            };
            let answer: Value = serde_json::from_str(text.as_str()).unwrap_or_default();
            if answer["id"] == id {
                return match answer.get("error") {
                    Some(error) => Err(error.to_string()),
                    None => Ok(answer["result"].clone()),
                };
            }
        }
        Err("the DevTools socket closed".to_owned())
    }

    /// Every page target, with its URL and browser context.
    pub async fn pages(&mut self) -> Result<Vec<Value>, String> {
        let targets = self.call(None, "Target.getTargets", json!({})).await?;
        Ok(targets["targetInfos"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .into_iter()
            .filter(|target| target["type"] == "page")
            .collect())
    }

    /// Crashes the renderer of the page whose URL ends with `url_end`.
    pub async fn crash_page(&mut self, url_end: &str) -> Result<(), String> {
        let page = self
            .pages()
            .await?
            .into_iter()
            .find(|page| {
                page["url"]
                    .as_str()
                    .is_some_and(|url| url.ends_with(url_end))
            })
            .ok_or_else(|| format!("no page at …{url_end}"))?;
        let attached = self
            .call(
                None,
                "Target.attachToTarget",
                json!({ "targetId": page["targetId"], "flatten": true }),
            )
            .await?;
        let session = attached["sessionId"]
            .as_str()
            .ok_or("no session")?
            .to_owned();
        // The renderer dies before it can answer.
        let _ = tokio::time::timeout(
            std::time::Duration::from_secs(2),
            self.call(Some(&session), "Page.crash", json!({})),
        )
        .await;
        Ok(())
    }
}
