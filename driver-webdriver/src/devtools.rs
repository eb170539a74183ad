//! The one thing WebDriver cannot do: stop a script that never returns.
//!
//! A page spinning in `while (true) {}` blocks its renderer, and chromedriver
//! with it: every later command first asks the page about pending
//! navigations and waits. The way out is the browser's own DevTools socket,
//! which Chrome announces in `DevToolsActivePort` in its profile: attach to
//! the tab and send `Runtime.terminateExecution`, which Chrome handles off the
//! renderer's main thread. Only for a Chrome whose profile is on this disk
//! (a chromedriver we started); a remote end is out of reach.

use std::path::Path;

use async_tungstenite::tungstenite::Message;
use futures::StreamExt;
use serde_json::{json, Value};

/// Stops whatever script runs in the tab `target` (a window handle, which
/// chromedriver makes the DevTools target id) and whatever it is loading;
/// with `close`, closes the tab instead.
pub(crate) async fn stop(profile: &Path, target: &str, close: bool) -> Result<(), String> {
    let announced = tokio::fs::read_to_string(profile.join("DevToolsActivePort"))
        .await
        .map_err(|error| format!("no DevToolsActivePort: {error}"))?;
    let mut lines = announced.lines();
    let (Some(port), Some(path)) = (lines.next(), lines.next()) else {
        return Err(format!("unexpected DevToolsActivePort: {announced:?}"));
    };
    let url = format!("ws://127.0.0.1:{}{}", port.trim(), path.trim());
    let (mut socket, _) = async_tungstenite::tokio::connect_async(url.as_str())
        .await
        .map_err(|error| format!("cannot reach {url}: {error}"))?;
    if close {
        let message =
            json!({ "id": 1, "method": "Target.closeTarget", "params": { "targetId": target } });
        socket
            .send(Message::text(message.to_string()))
            .await
            .map_err(|error| error.to_string())?;
        while let Some(Ok(message)) = socket.next().await {
            let Ok(text) = message.into_text() else {
                continue;
            };
            let answer: Value = serde_json::from_str(text.as_str()).unwrap_or_default();
            if answer["id"] == 1 {
                break;
            }
        }
        let _ = socket.close(None).await;
        return Ok(());
    }
    let attach = json!({ "id": 1, "method": "Target.attachToTarget", "params": { "targetId": target, "flatten": true } });
    socket
        .send(Message::text(attach.to_string()))
        .await
        .map_err(|error| error.to_string())?;
    let session = loop {
        let Some(Ok(message)) = socket.next().await else {
            return Err("the DevTools socket closed".to_owned());
        };
        let Ok(text) = message.into_text() else {
            continue;
        };
        let answer: Value = serde_json::from_str(text.as_str()).unwrap_or_default();
        if answer["id"] == 1 {
            match answer["result"]["sessionId"].as_str() {
                Some(session) => break session.to_owned(),
                None => return Err(format!("cannot attach to {target}: {}", answer["error"])),
            }
        }
    };
    for (id, method) in [(2, "Runtime.terminateExecution"), (3, "Page.stopLoading")] {
        socket
            .send(Message::text(
                json!({ "id": id, "sessionId": session, "method": method }).to_string(),
            ))
            .await
            .map_err(|error| error.to_string())?;
    }
    while let Some(Ok(message)) = socket.next().await {
        let Ok(text) = message.into_text() else {
            continue;
        };
        let answer: Value = serde_json::from_str(text.as_str()).unwrap_or_default();
        if answer["id"] == 3 {
            break;
        }
    }
    let _ = socket.close(None).await;
    Ok(())
}
