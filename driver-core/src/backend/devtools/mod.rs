//! The one DevTools layer both backends speak through: a connection
//! ([`DevToolsSocket`]), the record its events keep of tabs, frames and
//! script worlds ([`Targets`]), and one way to find a frame by its path
//! and a world in it and to evaluate there ([`frames`]).
//!
//! The CDP backend speaks CDP through it alone (chromiumoxide's generated
//! types give its commands' names and shapes); the WebDriver backend
//! reaches through it what WebDriver has no word for (tabwright's own
//! script world, the screencast, download events, stopping a page that
//! spins), on the browser's own socket beside chromedriver; the tests
//! crash tabs and list targets through it. The method and event names the
//! backends share are written here once.

pub mod frames;
pub mod names;
pub mod pages_go;
mod socket;
mod targets;
pub mod waits;

pub use frames::{FoundFrame, TargetsLock};
pub use socket::{CallError, DevToolsSocket, Event, Listener};
pub use targets::{Context, Targets, World};

use std::path::Path;

use serde_json::{json, Value};

use crate::{Dialog, DialogKind, DriverError};

/// Tells settling, in tabwright's world (`world`, a context's unique id)
/// of a tab's top document (its `session`), that a download began: the
/// navigation it waits for became this download, and brings no new page.
pub fn tell_download(socket: &DevToolsSocket, session: &str, world: &str) {
    socket.send_soon(
        Some(session),
        names::RUNTIME_EVALUATE,
        json!({
            "expression": "globalThis[Symbol.for('tabwright.download')] = performance.now()",
            "uniqueContextId": world,
        }),
    );
}

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

/// The name of tabwright's own script world in every document, whichever
/// backend makes it: the page's scripts can neither see nor change what
/// runs there.
pub const WORLD_NAME: &str = "tabwright";

/// An expression, for `Runtime.evaluate` without `returnByValue` in a
/// frame's document, whose object is the `iframe` (or `frame`) element
/// holding `window.frames[index]`, or `null`: how a frame path is followed
/// down to the frame's id (`DOM.describeNode` on the object).
pub fn frame_element(index: u32) -> String {
    format!(
        "Array.from(document.querySelectorAll('iframe, frame')).find((f) => f.contentWindow === window[{index}]) || null"
    )
}

/// Whether a DevTools error says the document (and its script context)
/// went away under the call: a navigation.
pub fn document_gone(message: &str) -> bool {
    message.contains("Execution context was destroyed")
        || message.contains("Cannot find context with specified id")
        || message.contains("uniqueContextId not found")
        || message.contains("Inspected target navigated or closed")
}

/// What `Runtime.evaluate` answered (with `returnByValue`), as a driver
/// call answers it: the value (`undefined` as `null`, an unserialisable
/// number as its string), or the exception's first line as
/// [`DriverError::Script`].
pub fn evaluated(answer: &Value) -> Result<Value, DriverError> {
    if let Some(details) = answer.get("exceptionDetails") {
        let message = details["exception"]["description"]
            .as_str()
            .or_else(|| details["exception"]["value"].as_str())
            .or_else(|| details["text"].as_str())
            .unwrap_or("unknown exception");
        // Chrome's description is the message plus a stack; the first line
        // is what a reader needs.
        let message = message.lines().next().unwrap_or(message).to_owned();
        return Err(DriverError::Script {
            message: message.into(),
        });
    }
    let result = &answer["result"];
    Ok(match result.get("value") {
        Some(value) => value.clone(),
        None => match result["unserializableValue"].as_str() {
            Some(special) => Value::String(special.to_owned()),
            None => Value::Null,
        },
    })
}

/// A dialog's kind as DevTools and WebDriver BiDi both spell it.
pub fn dialog_kind(kind: Option<&str>) -> DialogKind {
    match kind {
        Some("alert") => DialogKind::Alert,
        Some("confirm") => DialogKind::Confirm,
        Some("prompt") => DialogKind::Prompt,
        Some("beforeunload") => DialogKind::BeforeUnload,
        _ => DialogKind::Unknown,
    }
}

/// The dialog a `Page.javascriptDialogOpening` event tells of.
pub fn dialog_of(params: &Value) -> Dialog {
    let kind = dialog_kind(params["type"].as_str());
    let text = |key: &str| params[key].as_str().unwrap_or_default().to_owned();
    Dialog {
        kind,
        message: text("message").into(),
        default_prompt: text("defaultPrompt").into(),
    }
}
