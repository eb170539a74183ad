//! The browser's events, followed by one task for as long as the
//! connection lives, and what each changes in the [`Registry`].
//!
//! New page targets (including popups and `target=_blank` tabs) are attached
//! paused (`waitForDebuggerOnStart`), given their per-tab settings, and only
//! then resumed, so not a single request of theirs runs before the viewport,
//! console and lifecycle events are in place.

use std::sync::Arc;
use std::time::Instant;

use chromiumoxide::cdp::browser_protocol::emulation::SetDeviceMetricsOverrideParams;
use chromiumoxide::cdp::browser_protocol::network::EnableParams as NetworkEnable;
use chromiumoxide::cdp::browser_protocol::page::{
    AddScriptToEvaluateOnNewDocumentParams, EnableParams as PageEnable,
};
use chromiumoxide::cdp::browser_protocol::target::SetAutoAttachParams;
use chromiumoxide::cdp::js_protocol::runtime::{
    EnableParams as RuntimeEnable, RunIfWaitingForDebuggerParams,
};
use futures::future::BoxFuture;
use serde_json::json;
use tokio::sync::mpsc;

use driver_core::{ConsoleEntry, ConsoleLevel, FrameCallback, TabId, Viewport};

use crate::client::{Client, RawEvent};
use crate::registry::{
    SharedRegistry, TabRecord, TargetInfo, World, CONSOLE_TEXT_LIMIT, WORLD_NAME,
};

/// Follows the browser's events for as long as the connection lives.
pub(crate) async fn follow_events(client: Client, registry: SharedRegistry) {
    let mut events: mpsc::UnboundedReceiver<Arc<RawEvent>> = client.events();
    while let Some(event) = events.recv().await {
        handle(&client, &registry, &event);
        registry.handled_one();
    }
}

/// What one event changes.
fn handle(client: &Client, registry: &SharedRegistry, event: &RawEvent) {
    let params = &event.params;
    let session = event.session_id.as_deref();
    match event.method.as_ref() {
        "Target.attachedToTarget" => on_attached(client, registry, event),
        "Target.targetInfoChanged" | "Target.targetCreated" => on_target_info(registry, event),
        "Target.targetDestroyed" => {
            if let Some(id) = params["targetId"].as_str() {
                registry.update(|registry| registry.tabs.retain(|tab| tab.id.0 != id));
            }
        }
        "Target.targetCrashed" => {
            if let Some(id) = params["targetId"].as_str() {
                tracing::info!(tab = id, "a tab crashed");
                registry.update(|registry| registry.crash(id));
            }
        }
        "Target.detachedFromTarget" => {
            if let Some(detached) = params["sessionId"].as_str() {
                on_detached(registry, detached)
            }
        }
        "Runtime.consoleAPICalled" => on_console(registry, event),
        "Runtime.exceptionThrown" => on_exception(registry, event),
        "Runtime.executionContextCreated" => on_context_created(registry, event),
        "Runtime.executionContextDestroyed" => on_context_destroyed(registry, event),
        "Runtime.executionContextsCleared" => {
            if let Some(session) = session {
                registry.update(|registry| {
                    registry
                        .contexts
                        .retain(|(owner, _, _), _| owner != session)
                });
            }
        }
        "Network.requestWillBeSent" => {
            registry.follow_network(event);
            on_request(registry, event);
        }
        "Network.responseReceived" => registry.follow_network(event),
        "Network.loadingFinished" | "Network.loadingFailed" => {
            registry.follow_network(event);
            if let (Some(session), Some(id)) = (session, params["requestId"].as_str()) {
                registry.update(|registry| {
                    registry
                        .requests
                        .remove(&(session.to_owned(), id.to_owned()));
                });
            }
        }
        "Page.frameNavigated" if params["frame"]["parentId"].is_null() => {
            // The old document's requests end with it (cancelled).
            if let Some(session) = session {
                registry
                    .update(|registry| registry.requests.retain(|(owner, _), _| owner != session));
            }
        }
        "Page.frameAttached" => {
            if let (Some(session), Some(frame)) = (session, params["frameId"].as_str()) {
                registry.update(|registry| {
                    registry
                        .frame_sessions
                        .insert(frame.to_owned(), session.to_owned());
                });
            }
        }
        "Page.frameDetached" => {
            if let Some(frame) = params["frameId"].as_str() {
                registry.update(|registry| {
                    registry.frame_sessions.remove(frame);
                });
            }
        }
        "Browser.downloadWillBegin" => crate::downloads::began(client, registry, event),
        "Browser.downloadProgress" => crate::downloads::progressed(client, registry, event),
        "Page.javascriptDialogOpening" => {
            if let Some(session) = session {
                let dialog = driver_core::backend::devtools::dialog_of(params);
                tracing::info!(kind = %dialog.kind, message = %dialog.message, "a dialog opened");
                registry.set_dialog(session, Some(dialog));
            }
        }
        "Page.fileChooserOpened" => {
            if let Some(session) = session {
                if let Some(chooser) = driver_core::FileChooser::of_event(params) {
                    registry.set_chooser(session, Some(chooser));
                }
            }
        }
        "Page.javascriptDialogClosed" => {
            if let Some(session) = session {
                registry.set_dialog(session, None);
            }
        }
        "Page.screencastFrame" => {
            let callback = session.and_then(|session| {
                registry.read(|registry| {
                    let context = registry.by_session(session)?.context.clone();
                    registry.by_context.get(&context)?.on_frame.clone()
                })
            });
            if let Some(callback) = callback {
                on_screencast_frame(client, &callback, event);
            }
        }
        _ => {}
    }
}

/// A target's URL or title changed (or it was created): the tab's record
/// follows.
fn on_target_info(registry: &SharedRegistry, event: &RawEvent) {
    let Some(info) = target_info(event) else {
        return;
    };
    registry.update(|registry| {
        if let Some(tab) = registry
            .tabs
            .iter_mut()
            .find(|tab| tab.id.0 == info.target_id)
        {
            tab.url = info.url;
            tab.title = info.title;
        }
    });
}

/// A session ended: the tab (or cross-site frame) it served is gone, and
/// what was kept of it.
fn on_detached(registry: &SharedRegistry, session: &str) {
    registry.update(|registry| {
        registry
            .tabs
            .retain(|tab| tab.session.as_deref() != Some(session));
        registry.frames.retain(|_, owner| owner != session);
        registry.frame_parents.remove(session);
        registry
            .contexts
            .retain(|(owner, _, _), _| owner != session);
        registry.requests.retain(|(owner, _), _| owner != session);
        registry.network.remove(session);
    });
}

/// A frame's script context came to be: the page's own world (where `eval`
/// runs), or tabwright's. The first of ours a document gets is the one used.
fn on_context_created(registry: &SharedRegistry, event: &RawEvent) {
    let context = &event.params["context"];
    let (Some(session), Some(frame), Some(id)) = (
        event.session_id.clone(),
        context["auxData"]["frameId"].as_str(),
        context["id"].as_i64(),
    ) else {
        return;
    };
    if context["auxData"]["isDefault"] == true {
        registry.update(|registry| {
            registry
                .contexts
                .insert((session, frame.to_owned(), World::Page), id);
        });
    } else if context["name"] == WORLD_NAME {
        registry.adopt_world(&session, frame, id);
    }
}

fn on_context_destroyed(registry: &SharedRegistry, event: &RawEvent) {
    if let (Some(session), Some(id)) = (
        event.session_id.as_deref(),
        event.params["executionContextId"].as_i64(),
    ) {
        registry.update(|registry| {
            registry
                .contexts
                .retain(|(owner, _, _), context| owner != session || *context != id)
        });
    }
}

/// A fetch or an XHR began: in flight until it finishes or fails. (Other
/// requests, a page's images or a beacon, are not what a page waits for
/// before it renders.)
fn on_request(registry: &SharedRegistry, event: &RawEvent) {
    let params = &event.params;
    if !matches!(params["type"].as_str(), Some("XHR" | "Fetch")) {
        return;
    }
    if let (Some(session), Some(id)) = (event.session_id.clone(), params["requestId"].as_str()) {
        registry.update(|registry| {
            registry
                .requests
                .entry((session, id.to_owned()))
                .or_insert_with(Instant::now);
        });
    }
}

fn target_info(event: &RawEvent) -> Option<TargetInfo> {
    serde_json::from_value(event.params["targetInfo"].clone()).ok()
}

/// A target was attached (paused): a tab is recorded, given its settings
/// and let run; a cross-site frame is recorded so it can be read; anything
/// else (workers) is let run untouched.
fn on_attached(client: &Client, registry: &SharedRegistry, event: &RawEvent) {
    let Some(info) = target_info(event) else {
        return;
    };
    let Some(session) = event.params["sessionId"].as_str().map(str::to_owned) else {
        return;
    };
    match info.kind.as_str() {
        "page" => attach_tab(client, registry, info, session),
        "iframe" => attach_frame(client, registry, &info, session, event.session_id.clone()),
        _ => client.send(Some(&session), "Runtime.runIfWaitingForDebugger", json!({})),
    }
}

/// Makes Chrome give every new document of a target tabwright's own world
/// (the script itself is empty: the world is what is wanted).
fn world_script() -> AddScriptToEvaluateOnNewDocumentParams {
    let mut script = AddScriptToEvaluateOnNewDocumentParams::new("");
    script.world_name = Some(WORLD_NAME.to_owned());
    script
}

/// Runs driver-core's early hooks in the page's own world of every new
/// document of a target, before its scripts.
fn early_hooks() -> AddScriptToEvaluateOnNewDocumentParams {
    AddScriptToEvaluateOnNewDocumentParams::new(driver_core::listeners_js())
}

/// The settings every attached target gets before it runs: cross-site
/// frames inside it attach as sessions of their own (flat), paused, so a
/// snapshot can read them too.
pub(crate) fn auto_attach() -> SetAutoAttachParams {
    let mut settings = SetAutoAttachParams::new(true, true);
    settings.flatten = Some(true);
    settings
}

/// The settings a target gets, one future each, to be sent together.
type Settings<'a> = Vec<BoxFuture<'a, Result<(), crate::client::CallError>>>;

/// A cross-site frame runs in a process of its own: its session is how its
/// document is read. Its target id is its frame id.
fn attach_frame(
    client: &Client,
    registry: &SharedRegistry,
    info: &TargetInfo,
    session: String,
    parent: Option<String>,
) {
    registry.update(|registry| {
        registry
            .frames
            .insert(info.target_id.clone(), session.clone());
        if let Some(parent) = parent {
            registry.frame_parents.insert(session.clone(), parent);
        }
    });
    let client = client.clone();
    tokio::spawn(async move {
        let s = Some(session.as_str());
        let setup: Settings<'_> = vec![
            Box::pin(client.order(s, PageEnable::default())),
            Box::pin(client.order(s, RuntimeEnable::default())),
            Box::pin(client.order(s, NetworkEnable::default())),
            Box::pin(client.order(s, world_script())),
            Box::pin(client.order(s, early_hooks())),
            Box::pin(client.order(s, auto_attach())),
            Box::pin(client.order(s, RunIfWaitingForDebuggerParams::default())),
        ];
        for result in futures::future::join_all(setup).await {
            if let Err(error) = result {
                tracing::debug!(?error, "a frame setting failed");
            }
        }
    });
}

/// A tab: recorded (not ready yet), given its settings, let run, then
/// marked ready.
fn attach_tab(client: &Client, registry: &SharedRegistry, info: TargetInfo, session: String) {
    let (context, viewport) = registry.read(|registry| {
        let context = registry.known_context(info.browser_context_id.as_deref());
        let viewport = registry
            .by_context
            .get(&context)
            .and_then(|context| context.viewport);
        (context, viewport)
    });
    registry.update(|registry| {
        match registry
            .tabs
            .iter_mut()
            .find(|tab| tab.id.0 == info.target_id)
        {
            Some(tab) => tab.session = Some(session.clone()),
            None => {
                registry.tabs_opened += 1;
                registry.tabs.push(TabRecord {
                    id: TabId(info.target_id.clone()),
                    session: Some(session.clone()),
                    ready: false,
                    url: info.url.clone(),
                    title: info.title.clone(),
                    context: context.clone(),
                    dialog: None,
                    dialogs_opened: 0,
                    chooser: None,
                });
            }
        }
    });
    let client = client.clone();
    let registry = registry.clone();
    tokio::spawn(async move {
        let s = Some(session.as_str());
        // Sent in this order, without waiting between them: Chrome handles a
        // session's commands in order, so the settings are in place before
        // the target runs, and a command that only answers once the target
        // runs (some do) cannot hold the others up.
        let mut setup: Settings<'_> = vec![
            Box::pin(client.order(s, PageEnable::default())),
            Box::pin(client.order(s, RuntimeEnable::default())),
            Box::pin(client.order(s, NetworkEnable::default())),
            Box::pin(client.order(s, world_script())),
            Box::pin(client.order(s, early_hooks())),
        ];
        if let Some(viewport) = viewport {
            setup.push(Box::pin(client.order(s, metrics(viewport))));
        }
        setup.push(Box::pin(client.order(s, auto_attach())));
        setup.push(Box::pin(
            client.order(s, RunIfWaitingForDebuggerParams::default()),
        ));
        for result in futures::future::join_all(setup).await {
            if let Err(error) = result {
                tracing::debug!(?error, "a per-tab setting failed");
            }
        }
        registry.update(|registry| {
            if let Some(tab) = registry
                .tabs
                .iter_mut()
                .find(|tab| tab.session.as_deref() == Some(session.as_str()))
            {
                tab.ready = true;
            }
        });
    });
}

/// The `Emulation.setDeviceMetricsOverride` params for a viewport.
pub(crate) fn metrics(viewport: Viewport) -> SetDeviceMetricsOverrideParams {
    SetDeviceMetricsOverrideParams::new(viewport.width, viewport.height, 1.0, false)
}

fn on_console(registry: &SharedRegistry, event: &RawEvent) {
    let Some(session) = event.session_id.as_deref() else {
        return;
    };
    let level = match event.params["type"].as_str().unwrap_or("log") {
        "debug" => ConsoleLevel::Debug,
        "warning" => ConsoleLevel::Warning,
        "error" | "assert" => ConsoleLevel::Error,
        _ => ConsoleLevel::Info,
    };
    let text = event.params["args"]
        .as_array()
        .map(|args| {
            args.iter()
                .map(remote_object_text)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default();
    push_entry(registry, session, level, text);
}

fn on_exception(registry: &SharedRegistry, event: &RawEvent) {
    let Some(session) = event.session_id.as_deref() else {
        return;
    };
    let details = &event.params["exceptionDetails"];
    let text = details["exception"]["description"]
        .as_str()
        .or_else(|| details["text"].as_str())
        .unwrap_or("uncaught exception")
        .to_owned();
    push_entry(registry, session, ConsoleLevel::PageError, text);
}

fn push_entry(registry: &SharedRegistry, session: &str, level: ConsoleLevel, mut text: String) {
    if let Some((cut, _)) = text.char_indices().nth(CONSOLE_TEXT_LIMIT) {
        text.truncate(cut);
    }
    registry.update(|registry| {
        registry.push_console(session, |tab| ConsoleEntry { level, text, tab });
    });
}

/// How a console argument reads: strings as themselves, other values as JSON
/// or their description.
fn remote_object_text(object: &serde_json::Value) -> String {
    match &object["value"] {
        serde_json::Value::String(text) => text.clone(),
        serde_json::Value::Null => object["unserializableValue"]
            .as_str()
            .or_else(|| object["description"].as_str())
            .unwrap_or(if object["type"] == "undefined" {
                "undefined"
            } else {
                "null"
            })
            .to_owned(),
        value => value.to_string(),
    }
}

fn on_screencast_frame(client: &Client, callback: &FrameCallback, event: &RawEvent) {
    use driver_core::backend::screencast;
    let Some(session) = event.session_id.clone() else {
        return;
    };
    if let Some(frame) = screencast::frame(&event.params) {
        callback(frame);
    }
    // Acknowledged after the callback returns, and paced (see
    // `screencast`).
    let at = screencast::ack_at(&session);
    let ack = screencast::ack_params(&event.params);
    let client = client.clone();
    tokio::spawn(async move {
        tokio::time::sleep_until(at.into()).await;
        client.send(Some(&session), "Page.screencastFrameAck", ack);
    });
}
