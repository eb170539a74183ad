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

/// The browser-level DevTools socket of a browser on this machine, from its
/// profile's `DevToolsActivePort`.
pub(crate) async fn local_socket(profile: &Path) -> Result<String, String> {
    let announced = tokio::fs::read_to_string(profile.join("DevToolsActivePort"))
        .await
        .map_err(|error| format!("no DevToolsActivePort: {error}"))?;
    let mut lines = announced.lines();
    let (Some(port), Some(path)) = (lines.next(), lines.next()) else {
        return Err(format!("unexpected DevToolsActivePort: {announced:?}"));
    };
    Ok(format!("ws://127.0.0.1:{}{}", port.trim(), path.trim()))
}

/// Stops whatever script runs in the tab `target` (a window handle, which
/// chromedriver makes the DevTools target id) and whatever it is loading,
/// over the browser-level DevTools socket at `socket_url`; with `close`,
/// closes the tab instead (with `replace`, after opening a blank one).
pub(crate) async fn stop(
    socket_url: &str,
    target: &str,
    close: bool,
    replace: bool,
) -> Result<(), String> {
    let (mut socket, _) = async_tungstenite::tokio::connect_async(socket_url)
        .await
        .map_err(|error| format!("cannot reach {socket_url}: {error}"))?;
    if close {
        // A browser left with no tab has no window WebDriver can switch
        // to or open one from: a blank tab takes the stuck one's place.
        if replace {
            call(
                &mut socket,
                5,
                None,
                "Target.createTarget",
                json!({ "url": "about:blank" }),
            )
            .await?;
        }
        call(
            &mut socket,
            1,
            None,
            "Target.closeTarget",
            json!({ "targetId": target }),
        )
        .await?;
    } else {
        let attached = call(
            &mut socket,
            1,
            None,
            "Target.attachToTarget",
            json!({ "targetId": target, "flatten": true }),
        )
        .await?;
        let Some(session) = attached["result"]["sessionId"].as_str().map(str::to_owned) else {
            return Err(format!("cannot attach to {target}: {}", attached["error"]));
        };
        // The answers are not waited for on their own: a page whose script
        // spins may answer late or never (the caller checks that the tab
        // answers, and closes it if not). A load still under way may start
        // a script that spins after the first stop (a call cancelled
        // early), so the script is stopped again once the load is (or
        // after 200 ms, if the page is too busy to say).
        send(
            &mut socket,
            2,
            Some(&session),
            "Runtime.terminateExecution",
            json!({}),
        )
        .await?;
        let stopped = call(
            &mut socket,
            3,
            Some(&session),
            "Page.stopLoading",
            json!({}),
        );
        let _ = tokio::time::timeout(std::time::Duration::from_millis(200), stopped).await;
        let last = call(
            &mut socket,
            4,
            Some(&session),
            "Runtime.terminateExecution",
            json!({}),
        );
        let _ = tokio::time::timeout(std::time::Duration::from_secs(1), last).await;
    }
    let _ = socket.close(None).await;
    Ok(())
}

type Socket = async_tungstenite::WebSocketStream<async_tungstenite::tokio::ConnectStream>;

/// Sends one command without waiting for its answer.
async fn send(
    socket: &mut Socket,
    id: u64,
    session: Option<&str>,
    method: &str,
    params: Value,
) -> Result<(), String> {
    let mut message = json!({ "id": id, "method": method, "params": params });
    if let Some(session) = session {
        message["sessionId"] = json!(session);
    }
    socket
        .send(Message::text(message.to_string()))
        .await
        .map_err(|error| error.to_string())
}

/// Sends one command and reads until its answer.
async fn call(
    socket: &mut Socket,
    id: u64,
    session: Option<&str>,
    method: &str,
    params: Value,
) -> Result<Value, String> {
    send(socket, id, session, method, params).await?;
    while let Some(Ok(message)) = socket.next().await {
        let Ok(text) = message.into_text() else {
            continue;
        };
        let answer: Value = serde_json::from_str(text.as_str()).unwrap_or_default();
        if answer["id"] == id {
            return Ok(answer);
        }
    }
    Err("the DevTools socket closed".to_owned())
}
