//! Where a tab's top-level documents may come from, and where documents
//! may be sent ([`Options::pages_go`](crate::Options::pages_go)), judged in
//! Chrome before a request leaves.
//!
//! The egress proxy sees only a tunnel's host for HTTPS, so it cannot tell
//! a page's navigation from its images, nor a form posted from a link
//! followed. DevTools' `Fetch` domain, enabled on the browser's own
//! session, holds every document's request of every tab (one a page opens
//! included, from its first request, and each hop of a redirect) until it
//! is let go. A request whose frame is a tab's top frame (the frame's id is
//! a page target's) is judged by the gate of its browser context, and so
//! is a frame's document sent with a body (a form posted into it), by the
//! gate of the tab it is in; every other one (a frame's own page) goes on.

use serde_json::{json, Value};

use super::{names, DevToolsSocket};
use crate::{Asked, PagesGo, Result};

/// Holds every document's request for judging, browser-wide (the same
/// patterns again change nothing).
pub async fn hold(socket: &DevToolsSocket) -> Result<()> {
    socket
        .call(
            None,
            names::FETCH_ENABLE,
            json!({ "patterns": [{ "urlPattern": "*", "resourceType": "Document",
                                   "requestStage": "Request" }] }),
        )
        .await?;
    Ok(())
}

/// Lets every document's request go unheld again.
pub async fn release(socket: &DevToolsSocket) -> Result<()> {
    socket.call(None, names::FETCH_DISABLE, json!({})).await?;
    Ok(())
}

/// Whose gate judges a held request.
#[derive(Debug, Clone, Copy)]
pub enum Held<'a> {
    /// A tab's own document: the tab's browser context (by its id, `None`
    /// for the default one).
    Tab(Option<&'a str>),
    /// A document sent into a frame (by the frame's id): the gate of the
    /// tab it is in.
    Frame(&'a str),
}

/// Judges one held request (`Fetch.requestPaused`'s `params`) on a task
/// of its own: `gate_of` gives the gate that judges it, if its session has
/// one. A request is refused only where a gate says no; whatever else
/// happens, it goes on.
pub fn judge(
    socket: &DevToolsSocket,
    params: &Value,
    gate_of: impl FnOnce(Held<'_>) -> Option<PagesGo> + Send + 'static,
) {
    let socket = socket.clone();
    let (Some(request), Some(frame)) = (params["requestId"].as_str(), params["frameId"].as_str())
    else {
        return;
    };
    let (request, frame) = (request.to_owned(), frame.to_owned());
    let url = params["request"]["url"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let asked = Asked::by(params["request"]["method"].as_str().unwrap_or("GET"));
    tokio::spawn(async move {
        // (`Target.getTargetInfo` does not know a tab a page just opened;
        // the list does.)
        let targets = socket
            .call(None, names::TARGET_GET_TARGETS, json!({}))
            .await
            .unwrap_or_default();
        let tab = targets["targetInfos"].as_array().and_then(|targets| {
            targets
                .iter()
                .find(|target| target["targetId"] == frame.as_str() && target["type"] == "page")
        });
        let gate = match tab {
            Some(tab) => gate_of(Held::Tab(tab["browserContextId"].as_str())),
            None if asked == Asked::Sent => gate_of(Held::Frame(&frame)),
            None => None,
        };
        let refused = gate.is_some_and(|gate| !gate(&url, asked));
        let (method, params) = if refused {
            (
                names::FETCH_FAIL_REQUEST,
                json!({ "requestId": request, "errorReason": "BlockedByClient" }),
            )
        } else {
            (
                names::FETCH_CONTINUE_REQUEST,
                json!({ "requestId": request }),
            )
        };
        let _ = socket.send(None, method, params).await;
    });
}
