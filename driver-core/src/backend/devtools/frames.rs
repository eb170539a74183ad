//! Finding a frame by its path and a script world in it, and evaluating
//! there: one way, for both backends.
//!
//! A frame is named by its path of `window.frames` indices from the top
//! (`[]` the top frame, `[1, 0]` the first frame inside the top's second).
//! Each step finds the `iframe` element in the frame so far (asked in
//! tabwright's world, which the page cannot fool), asks which frame it
//! holds, and follows it into its own session if it is a cross-site frame
//! (attached now if it is not yet). A world is named by its context's
//! unique id, which no other document's context can share.

use super::names;
use serde_json::{json, Value};

use super::socket::{CallError, DevToolsSocket};
use super::targets::{Targets, World};
use super::{document_gone, evaluated, frame_element, WORLD_NAME};
use crate::{DriverError, Result};

/// Where a backend keeps its [`Targets`], under its own lock.
pub trait TargetsLock: Send + Sync {
    /// Runs `f` on the record (briefly: it is the lock the socket's
    /// listener takes for every event).
    fn with_targets<T>(&self, f: impl FnOnce(&mut Targets) -> T) -> T;

    /// Runs `f` on the record to read it: no change to tell anyone of.
    fn read_targets<T>(&self, f: impl FnOnce(&Targets) -> T) -> T {
        self.with_targets(|targets| f(targets))
    }

    /// Told of every change to the record (see [`waits`](super::waits)).
    fn changes(&self) -> tokio::sync::watch::Receiver<u64>;
}

/// A frame found by its path: the session its document lives in, and its
/// id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundFrame {
    /// The flat session.
    pub session: String,
    /// The frame's id.
    pub frame: String,
}

/// A frame path as an error names it.
fn unreachable(path: &[u32], reason: &str) -> DriverError {
    DriverError::FrameUnreachable {
        path: format!("{path:?}"),
        reason: reason.to_owned(),
    }
}

/// The frame at `path` in the tab whose session is `tab` and whose id (its
/// main frame's) is `target`.
pub async fn frame_at(
    socket: &DevToolsSocket,
    targets: &impl TargetsLock,
    tab: &str,
    target: &str,
    path: &[u32],
) -> Result<FoundFrame> {
    let mut here = FoundFrame {
        session: tab.to_owned(),
        frame: target.to_owned(),
    };
    for index in path {
        let (session, world) = world_in(socket, targets, &here, World::Isolated, path).await?;
        here.session = session;
        let found = evaluate_raw(
            socket,
            &here.session,
            Some(&world),
            &frame_element(*index),
            false,
        )
        .await?;
        let Some(object) = found["result"]["objectId"].as_str() else {
            return Err(unreachable(path, "the frame is gone"));
        };
        let node = socket
            .call(
                Some(&here.session),
                names::DOM_DESCRIBE_NODE,
                json!({ "objectId": object }),
            )
            .await;
        let _ = socket
            .send(
                Some(&here.session),
                names::RUNTIME_RELEASE_OBJECT,
                json!({ "objectId": object }),
            )
            .await;
        let node = node.map_err(|error| unreachable(path, &error.to_string()))?;
        let Some(child) = node["node"]["frameId"].as_str() else {
            return Err(unreachable(path, "the frame has no document"));
        };
        here.frame = child.to_owned();
    }
    Ok(here)
}

/// A world of `frame`: its session (a cross-site frame's own, attached
/// now if need be) and its context's unique id. tabwright's world is made
/// now in a document that has none yet; the page's must be there.
pub async fn world_in(
    socket: &DevToolsSocket,
    targets: &impl TargetsLock,
    frame: &FoundFrame,
    world: World,
    path: &[u32],
) -> Result<(String, String)> {
    let own =
        targets.with_targets(|targets| targets.frame_session(&frame.frame).map(str::to_owned));
    let session = own.unwrap_or_else(|| frame.session.clone());
    if let Some(known) = known(targets, &session, &frame.frame, world) {
        return Ok((session, known));
    }
    if world == World::Page {
        return Err(unreachable(path, "its document has no script context yet"));
    }
    let create =
        json!({ "frameId": frame.frame, "worldName": WORLD_NAME, "grantUniveralAccess": false });
    let session = match socket
        .call(
            Some(&session),
            names::PAGE_CREATE_ISOLATED_WORLD,
            create.clone(),
        )
        .await
    {
        Ok(_) => session,
        // A cross-site frame's document lives in its own process, reached
        // as a target of its own (its id is the frame's).
        Err(error) if error.says("No frame for given id") => {
            let own = attach(socket, &frame.frame)
                .await
                .map_err(|error| unreachable(path, &error.to_string()))?;
            targets.with_targets(|targets| targets.frame_attached(&frame.frame, &own, &session));
            socket
                .call(Some(&own), names::PAGE_CREATE_ISOLATED_WORLD, create)
                .await
                .map_err(|error| unreachable(path, &error.to_string()))?;
            own
        }
        Err(error) => return Err(unreachable(path, &error.to_string())),
    };
    // The world's creation event came before the answer, and the record
    // follows events before answers are delivered.
    match known(targets, &session, &frame.frame, world) {
        Some(made) => Ok((session, made)),
        None => Err(unreachable(path, "its world was made but never announced")),
    }
}

fn known(targets: &impl TargetsLock, session: &str, frame: &str, world: World) -> Option<String> {
    targets.with_targets(|targets| {
        targets
            .context(session, frame, world)
            .map(|context| context.unique.clone())
    })
}

/// Attaches to a target (a tab, or a frame in a process of its own) as a
/// flat session with its runtime events on; returns the session.
pub async fn attach(socket: &DevToolsSocket, target: &str) -> Result<String> {
    let attached = socket
        .call(
            None,
            names::TARGET_ATTACH_TO_TARGET,
            json!({ "targetId": target, "flatten": true }),
        )
        .await?;
    let session = attached["sessionId"]
        .as_str()
        .ok_or_else(|| DriverError::Protocol(format!("Target.attachToTarget answered {attached}")))?
        .to_owned();
    socket
        .send(Some(&session), names::RUNTIME_ENABLE, json!({}))
        .await?;
    Ok(session)
}

/// Evaluates `expression` in a world of the frame at `path` of a tab (its
/// session `tab`, its id `target`), promises awaited, its value as JSON.
/// The page's world of the top frame needs no lookup.
pub async fn evaluate_in(
    socket: &DevToolsSocket,
    targets: &impl TargetsLock,
    (tab, target): (&str, &str),
    path: &[u32],
    world: World,
    expression: &str,
) -> Result<Value> {
    if path.is_empty() && world == World::Page {
        return evaluate(socket, tab, None, expression).await;
    }
    let frame = frame_at(socket, targets, tab, target, path).await?;
    let (session, context) = world_in(socket, targets, &frame, world, path).await?;
    evaluate(socket, &session, Some(&context), expression).await
}

/// Sends `expression` to be evaluated in a world of the top frame of a tab
/// (its session `tab`, its id `target`) without waiting for its answer,
/// where the world is known (else it waits, as [`evaluate_in`]): for what
/// must happen before the next command to the tab, whose answer nobody
/// reads. Commands to a session are carried out in the order sent.
pub async fn evaluate_soon(
    socket: &DevToolsSocket,
    targets: &impl TargetsLock,
    (tab, target): (&str, &str),
    world: World,
    expression: &str,
) -> Result<()> {
    let Some(context) = known(targets, tab, target, world) else {
        return evaluate_in(socket, targets, (tab, target), &[], world, expression)
            .await
            .map(|_| ());
    };
    let params = json!({ "expression": expression, "uniqueContextId": context });
    socket
        .send(Some(tab), names::RUNTIME_EVALUATE, params)
        .await
        .map_err(Into::into)
}

/// Evaluates in a context (by unique id; `None`: the session's top frame,
/// the page's world), promises awaited, its value as JSON.
pub async fn evaluate(
    socket: &DevToolsSocket,
    session: &str,
    context: Option<&str>,
    expression: &str,
) -> Result<Value> {
    let answer = evaluate_raw(socket, session, context, expression, true).await?;
    evaluated(&answer)
}

/// `Runtime.evaluate`, its answer as it came (by value, promises
/// awaited; or by reference). A document that went away under it (a
/// navigation) is [`DriverError::DocumentReplaced`].
pub async fn evaluate_raw(
    socket: &DevToolsSocket,
    session: &str,
    context: Option<&str>,
    expression: &str,
    by_value: bool,
) -> Result<Value> {
    let mut params = json!({
        "expression": expression,
        "returnByValue": by_value,
        "awaitPromise": by_value,
        "userGesture": true,
    });
    if let Some(context) = context {
        params["uniqueContextId"] = json!(context);
    }
    socket
        .call(Some(session), names::RUNTIME_EVALUATE, params)
        .await
        .map_err(|error| match error {
            CallError::Protocol { ref message, .. } if document_gone(message) => {
                DriverError::DocumentReplaced
            }
            other => other.into(),
        })
}
