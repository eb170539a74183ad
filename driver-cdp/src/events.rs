//! The browser's events, handed to [`handle`] by the connection's listener
//! (on the task that reads the socket, so the registry is up to date with
//! everything Chrome said before any answer a call gets), and what each
//! changes in the [`Registry`](crate::registry::Registry).
//!
//! New page targets (including popups and `target=_blank` tabs) are attached
//! paused (`waitForDebuggerOnStart`), given their per-tab settings, and only
//! then resumed, so not a single request of theirs runs before the viewport,
//! console and lifecycle events are in place.

use driver_core::backend::devtools::names;
use driver_core::backend::devtools::pages_go::{self, Held};
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

use driver_core::backend::screencast;
use driver_core::{ConsoleEntry, ConsoleLevel, TabId, Viewport};

use crate::client::{Client, Event};
use crate::registry::{SharedRegistry, TabRecord, TargetInfo, WORLD_NAME};

/// What one event changes: the frames, worlds, dialogs and choosers as
/// driver-core's layer keeps them, then what only this backend keeps.
pub(crate) fn handle(client: &Client, registry: &SharedRegistry, event: &Event) {
    registry.observe(event);
    let params = &event.params;
    let session = event.session.as_deref();
    match event.method.as_str() {
        names::TARGET_ATTACHED_TO_TARGET => on_attached(client, registry, event),
        names::TARGET_TARGET_INFO_CHANGED | names::TARGET_TARGET_CREATED => {
            on_target_info(registry, event)
        }
        names::TARGET_TARGET_DESTROYED => {
            if let Some(id) = params["targetId"].as_str() {
                registry.update(|registry| registry.tabs.retain(|tab| tab.id.0 != id));
            }
        }
        names::TARGET_TARGET_CRASHED => {
            if let Some(id) = params["targetId"].as_str() {
                tracing::info!(tab = id, "a tab crashed");
                registry.update(|registry| registry.crash(id));
            }
        }
        names::TARGET_DETACHED_FROM_TARGET => {
            if let Some(detached) = params["sessionId"].as_str() {
                on_detached(registry, detached)
            }
        }
        names::FETCH_REQUEST_PAUSED if session.is_none() => {
            let registry = registry.clone();
            pages_go::judge(client.socket(), params, move |held| {
                registry.read(|registry| {
                    let context = match held {
                        Held::Tab(context) => registry.known_context(context),
                        Held::Frame(frame) => {
                            let session = registry.frame_sessions.get(frame)?;
                            registry.tab_of_session(session)?.context.clone()
                        }
                    };
                    registry.by_context.get(&context)?.pages_go.clone()
                })
            })
        }
        names::RUNTIME_CONSOLE_API_CALLED => on_console(registry, event),
        names::RUNTIME_EXCEPTION_THROWN => on_exception(registry, event),
        names::NETWORK_REQUEST_WILL_BE_SENT => {
            registry.follow_network(event);
            on_request(registry, event);
        }
        names::NETWORK_RESPONSE_RECEIVED => registry.follow_network(event),
        names::NETWORK_LOADING_FINISHED | names::NETWORK_LOADING_FAILED => {
            registry.follow_network(event);
            if let (Some(session), Some(id)) = (session, params["requestId"].as_str()) {
                registry.update(|registry| {
                    registry
                        .requests
                        .remove(&(session.to_owned(), id.to_owned()));
                });
            }
        }
        names::PAGE_FRAME_NAVIGATED if params["frame"]["parentId"].is_null() => {
            // The old document's requests end with it (cancelled).
            if let Some(session) = session {
                registry
                    .update(|registry| registry.requests.retain(|(owner, _), _| owner != session));
            }
        }
        names::PAGE_FRAME_ATTACHED => {
            if let (Some(session), Some(frame)) = (session, params["frameId"].as_str()) {
                registry.update(|registry| {
                    registry
                        .frame_sessions
                        .insert(frame.to_owned(), session.to_owned());
                });
            }
        }
        names::PAGE_FRAME_DETACHED => {
            if let Some(frame) = params["frameId"].as_str() {
                registry.update(|registry| {
                    registry.frame_sessions.remove(frame);
                });
            }
        }
        names::BROWSER_DOWNLOAD_WILL_BEGIN => crate::downloads::began(client, registry, event),
        names::BROWSER_DOWNLOAD_PROGRESS => crate::downloads::progressed(client, registry, event),
        names::PAGE_JAVASCRIPT_DIALOG_OPENING => {
            let dialog = driver_core::backend::devtools::dialog_of(params);
            tracing::info!(kind = %dialog.kind, message = ?dialog.message, "a dialog opened");
        }
        names::PAGE_SCREENCAST_FRAME => {
            let callback = session.and_then(|session| {
                registry.read(|registry| {
                    let context = registry.by_session(session)?.context.clone();
                    registry.by_context.get(&context)?.on_frame.clone()
                })
            });
            if let (Some(callback), Some(session)) = (callback, session) {
                screencast::on_frame(client.socket(), session, params, &callback);
            }
        }
        _ => {}
    }
}

/// A target's URL or title changed (or it was created): the tab's record
/// follows.
fn on_target_info(registry: &SharedRegistry, event: &Event) {
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
        registry.requests.retain(|(owner, _), _| owner != session);
        registry.network.remove(session);
    });
}

/// A fetch or an XHR began: in flight until it finishes or fails. (Other
/// requests, a page's images or a beacon, are not what a page waits for
/// before it renders.)
fn on_request(registry: &SharedRegistry, event: &Event) {
    let params = &event.params;
    if !matches!(params["type"].as_str(), Some("XHR" | "Fetch")) {
        return;
    }
    if let (Some(session), Some(id)) = (event.session.clone(), params["requestId"].as_str()) {
        registry.update(|registry| {
            registry
                .requests
                .entry((session, id.to_owned()))
                .or_insert_with(Instant::now);
        });
    }
}

fn target_info(event: &Event) -> Option<TargetInfo> {
    serde_json::from_value(event.params["targetInfo"].clone()).ok()
}

/// A target was attached (paused): a tab is recorded, given its settings
/// and let run; a cross-site frame is recorded so it can be read; anything
/// else (workers) is let run untouched.
fn on_attached(client: &Client, registry: &SharedRegistry, event: &Event) {
    let Some(info) = target_info(event) else {
        return;
    };
    let Some(session) = event.params["sessionId"].as_str().map(str::to_owned) else {
        return;
    };
    match info.kind.as_str() {
        "page" => attach_tab(client, registry, info, session),
        "iframe" => {
            // Its documents get what its tab's do.
            let preloads = event.session.as_deref().and_then(|parent| {
                registry.read(|registry| {
                    let context = &registry.tab_of_session(parent)?.context;
                    Some(registry.by_context.get(context)?.preloads.clone())
                })
            });
            attach_frame(client, session, preloads.unwrap_or_default())
        }
        _ => client.send(
            Some(&session),
            names::RUNTIME_RUN_IF_WAITING_FOR_DEBUGGER,
            json!({}),
        ),
    }
}

/// Makes Chrome give every new document of a target tabwright's own world,
/// with `source` run in it (`driver_core::Preloads`; the world alone is
/// wanted where there is none).
fn world_script(source: String) -> AddScriptToEvaluateOnNewDocumentParams {
    let mut script = AddScriptToEvaluateOnNewDocumentParams::new(source);
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
/// document is read (the registry's `Targets` recorded it). Its target id
/// is its frame id.
fn attach_frame(client: &Client, session: String, preloads: driver_core::Preloads) {
    let client = client.clone();
    tokio::spawn(async move {
        let s = Some(session.as_str());
        let setup: Settings<'_> = vec![
            Box::pin(client.order(s, PageEnable::default())),
            Box::pin(client.order(s, RuntimeEnable::default())),
            Box::pin(client.order(s, NetworkEnable::default())),
            Box::pin(client.order(s, world_script(preloads.source()))),
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
    let (context, viewport, preloads) = registry.read(|registry| {
        let context = registry.known_context(info.browser_context_id.as_deref());
        let state = registry.by_context.get(&context);
        let viewport = state.and_then(|state| state.viewport);
        let preloads = state.map(|state| state.preloads.clone());
        (context, viewport, preloads.unwrap_or_default())
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
            Box::pin(client.order(s, world_script(preloads.source()))),
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

fn on_console(registry: &SharedRegistry, event: &Event) {
    let Some(session) = event.session.as_deref() else {
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

fn on_exception(registry: &SharedRegistry, event: &Event) {
    let Some(session) = event.session.as_deref() else {
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

fn push_entry(registry: &SharedRegistry, session: &str, level: ConsoleLevel, text: String) {
    let text = driver_core::backend::console_text(text);
    registry.update(|registry| {
        registry.push_console(session, |tab| ConsoleEntry {
            level,
            text: text.into(),
            tab,
        });
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
