//! The one thing WebDriver cannot do: stop a script that never returns.
//!
//! A page spinning in `while (true) {}` blocks its renderer, and chromedriver
//! with it: every later command first asks the page about pending
//! navigations and waits. The way out is the browser's own DevTools socket,
//! which Chrome announces in `DevToolsActivePort` in its profile: attach to
//! the tab and send `Runtime.terminateExecution`, which Chrome handles off the
//! renderer's main thread. Only for a Chrome whose profile is on this disk
//! (a chromedriver we started); a remote end is out of reach.

use serde_json::json;

use driver_core::backend::devtools::DevToolsSocket;

pub(crate) use driver_core::backend::devtools::local_socket;

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
    let mut socket = DevToolsSocket::connect(socket_url).await?;
    if close {
        // A browser left with no tab has no window WebDriver can switch
        // to or open one from: a blank tab takes the stuck one's place.
        if replace {
            socket
                .call(None, "Target.createTarget", json!({ "url": "about:blank" }))
                .await?;
        }
        socket
            .call(None, "Target.closeTarget", json!({ "targetId": target }))
            .await?;
    } else {
        let attached = socket
            .call(
                None,
                "Target.attachToTarget",
                json!({ "targetId": target, "flatten": true }),
            )
            .await
            .map_err(|error| format!("cannot attach to {target}: {error}"))?;
        let Some(session) = attached["sessionId"].as_str().map(str::to_owned) else {
            return Err(format!(
                "cannot attach to {target}: no session in {attached}"
            ));
        };
        // The answers are not waited for on their own: a page whose script
        // spins may answer late or never (the caller checks that the tab
        // answers, and closes it if not). A load still under way may start
        // a script that spins after the first stop (a call cancelled
        // early), so the script is stopped again once the load is (or
        // after 200 ms, if the page is too busy to say).
        socket
            .send(Some(&session), "Runtime.terminateExecution", json!({}))
            .await?;
        let stopped = socket.call(Some(&session), "Page.stopLoading", json!({}));
        let _ = tokio::time::timeout(std::time::Duration::from_millis(200), stopped).await;
        let last = socket.call(Some(&session), "Runtime.terminateExecution", json!({}));
        let _ = tokio::time::timeout(std::time::Duration::from_secs(1), last).await;
    }
    socket.close().await;
    Ok(())
}
