//! What the browser looks like right now, kept up to date from CDP events by
//! one task: the page targets (tabs) in the order they opened, the flat
//! session attached to each, and the console buffer.
//!
//! New page targets (including popups and `target=_blank` tabs) are attached
//! paused (`waitForDebuggerOnStart`), given their per-tab settings, and only
//! then resumed, so not a single request of theirs runs before the viewport,
//! console and lifecycle events are in place.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::Mutex;

use serde::Deserialize;
use serde_json::json;
use tokio::sync::{mpsc, watch};

use driver_core::{
    ConsoleEntry, ConsoleLevel, Dialog, DialogKind, Download, FrameCallback, ScreencastFrame,
    TabId, Viewport,
};

use crate::client::{Client, RawEvent};

/// Most console entries kept between two `console()` calls; older ones are
/// dropped so a page logging in a loop cannot grow memory without bound.
/// The pack reads them after every action, so this is how many one action
/// can log and still be counted.
const CONSOLE_LIMIT: usize = 10_000;

/// The longest console message kept, in characters (the pack shows 500).
const CONSOLE_TEXT_LIMIT: usize = 2_000;

/// One page target.
#[derive(Debug, Clone)]
pub(crate) struct TabRecord {
    pub id: TabId,
    pub session: Option<String>,
    /// Set once the per-tab settings are applied and the target resumed.
    pub ready: bool,
    pub url: String,
    pub title: String,
    /// The browser context the tab lives in.
    pub context: Option<String>,
    /// The JavaScript dialog blocking the tab, if one is open.
    pub dialog: Option<Dialog>,
    /// How many dialogs have opened in the tab: which one is open.
    pub dialogs_opened: u64,
}

/// The name of tabwright's own script world in every document: the page's
/// scripts can neither see nor change what runs there.
pub(crate) const WORLD_NAME: &str = "tabwright";

/// Which script world of a frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum World {
    /// The page's own.
    Page,
    /// tabwright's isolated world ([`WORLD_NAME`]).
    Tools,
}

/// Requests older than this are not waited for: a long poll or a stream
/// that never ends must not hold up every action.
const REQUEST_PATIENCE: Duration = Duration::from_secs(30);

/// Shared between the event task and driver calls.
#[derive(Default)]
pub(crate) struct Registry {
    pub tabs: Vec<TabRecord>,
    pub console: VecDeque<ConsoleEntry>,
    pub downloads: Vec<Download>,
    /// Cross-site frames attached as targets of their own: frame id -> session.
    pub frames: HashMap<String, String>,
    /// The session each cross-site frame's session was attached from.
    pub frame_parents: HashMap<String, String>,
    /// The execution context of each frame and world: (session, frame, world) -> id.
    pub contexts: HashMap<(String, String, World), i64>,
    /// Fetches and XHRs in flight: (session, request id) -> when they began.
    pub requests: HashMap<(String, String), Instant>,
    /// How many tabs have opened: a new one (a popup) comes to the front,
    /// and the current tab must be brought back before it takes input.
    pub tabs_opened: u64,
    pub viewport: Option<Viewport>,
}

impl Registry {
    pub fn tab(&self, id: &TabId) -> Option<&TabRecord> {
        self.tabs.iter().find(|tab| &tab.id == id)
    }

    /// Whether `owner` is `tab`'s session or that of a cross-site frame
    /// inside it, at any depth.
    fn serves<'a>(&'a self, mut owner: &'a str, tab: &str) -> bool {
        loop {
            if owner == tab {
                return true;
            }
            match self.frame_parents.get(owner) {
                Some(parent) => owner = parent,
                None => return false,
            }
        }
    }

    fn by_session(&self, session: &str) -> Option<&TabRecord> {
        self.tabs
            .iter()
            .find(|tab| tab.session.as_deref() == Some(session))
    }

    fn push_console(&mut self, entry: ConsoleEntry) {
        if self.console.len() >= CONSOLE_LIMIT {
            self.console.pop_front();
        }
        self.console.push_back(entry);
    }
}

/// A shared registry plus a counter that ticks on every change, so callers can
/// wait for "the tab is ready" or "the tab is gone" without polling.
#[derive(Clone)]
pub(crate) struct SharedRegistry {
    pub state: Arc<Mutex<Registry>>,
    changed: watch::Sender<u64>,
    /// How many events the event task has handled.
    handled: Arc<watch::Sender<u64>>,
}

impl SharedRegistry {
    pub fn new(viewport: Viewport) -> Self {
        let registry = Registry {
            viewport: Some(viewport),
            ..Registry::default()
        };
        Self {
            state: Arc::new(Mutex::new(registry)),
            changed: watch::channel(0).0,
            handled: Arc::new(watch::channel(0).0),
        }
    }

    /// Runs `f` on the registry.
    pub fn read<T>(&self, f: impl FnOnce(&Registry) -> T) -> T {
        f(&self.state.lock())
    }

    /// Records that the tab on `session` has `dialog` open (or none).
    pub fn set_dialog(&self, session: &str, dialog: Option<Dialog>) {
        self.update(|registry| {
            if let Some(tab) = registry
                .tabs
                .iter_mut()
                .find(|tab| tab.session.as_deref() == Some(session))
            {
                if dialog.is_some() {
                    tab.dialogs_opened += 1;
                }
                tab.dialog = dialog;
            }
        });
    }

    /// How many dialogs have opened in tab `id`.
    pub fn dialogs_opened(&self, id: &TabId) -> u64 {
        self.read(|registry| registry.tab(id).map_or(0, |tab| tab.dialogs_opened))
    }

    /// Waits (at most `patience`) until the dialog that was the `opened`th
    /// is closed: none is open, or a later one is.
    pub async fn dialog_closed(&self, id: &TabId, opened: u64, patience: Duration) {
        let closed = self.wait_until(|registry| {
            registry
                .tab(id)
                .is_none_or(|tab| tab.dialog.is_none() || tab.dialogs_opened != opened)
                .then_some(())
        });
        let _ = tokio::time::timeout(patience, closed).await;
    }

    /// The dialog open in tab `id`, if any.
    pub fn dialog_of(&self, id: &TabId) -> Option<Dialog> {
        self.read(|registry| registry.tab(id).and_then(|tab| tab.dialog.clone()))
    }

    fn update(&self, f: impl FnOnce(&mut Registry)) {
        f(&mut self.state.lock());
        self.changed.send_modify(|version| *version += 1);
    }

    /// Sets the viewport for tabs to come and returns the sessions of the
    /// tabs there are.
    pub fn set_viewport(&self, viewport: Viewport) -> Vec<String> {
        let mut sessions = Vec::new();
        self.update(|registry| {
            registry.viewport = Some(viewport);
            sessions = registry
                .tabs
                .iter()
                .filter_map(|tab| tab.session.clone())
                .collect();
        });
        sessions
    }

    /// Updates URLs and titles from a `Target.getTargets` answer.
    pub fn refresh(&self, infos: impl Iterator<Item = (String, String, String)>) {
        self.update(|registry| {
            for (id, url, title) in infos {
                if let Some(tab) = registry.tabs.iter_mut().find(|tab| tab.id.0 == id) {
                    tab.url = url;
                    tab.title = title;
                }
            }
        });
    }

    /// The execution context of a frame's world, if the frame lives in this
    /// session's process and the world is there yet.
    pub fn context_of(&self, session: &str, frame: &str, world: World) -> Option<i64> {
        self.read(|registry| {
            registry
                .contexts
                .get(&(session.to_owned(), frame.to_owned(), world))
                .copied()
        })
    }

    /// Records tabwright's world in a frame, made on demand, unless the one
    /// Chrome made for the document is known already (a document has one
    /// world of ours: two would split the numbering between them). Returns
    /// the one to use.
    pub fn adopt_world(&self, session: &str, frame: &str, id: i64) -> i64 {
        let mut adopted = id;
        self.update(|registry| {
            adopted = *registry
                .contexts
                .entry((session.to_owned(), frame.to_owned(), World::Tools))
                .or_insert(id);
        });
        adopted
    }

    /// How many fetches and XHRs the tab on `session` has in flight, in its
    /// own process and in its cross-site frames'.
    pub fn requests_in_flight(&self, session: &str) -> usize {
        self.read(|registry| {
            registry
                .requests
                .iter()
                .filter(|((owner, _), began)| {
                    began.elapsed() < REQUEST_PATIENCE && registry.serves(owner, session)
                })
                .count()
        })
    }

    /// The id of the frame at the root of a session: a tab's main frame
    /// (whose id is the tab's), or a cross-site frame's.
    pub fn root_frame(&self, session: &str) -> Option<String> {
        self.read(|registry| {
            registry
                .by_session(session)
                .map(|tab| tab.id.0.clone())
                .or_else(|| {
                    registry
                        .frames
                        .iter()
                        .find(|(_, owner)| owner.as_str() == session)
                        .map(|(frame, _)| frame.clone())
                })
        })
    }

    /// The session of a cross-site frame, if it is attached.
    pub fn frame_session(&self, frame: &str) -> Option<String> {
        self.read(|registry| registry.frames.get(frame).cloned())
    }

    /// Takes the download attempts gathered so far.
    pub fn drain_downloads(&self) -> Vec<Download> {
        std::mem::take(&mut self.state.lock().downloads)
    }

    /// Waits (at most `patience`) until the event task has handled `count`
    /// events: what Chrome sent before a caller asked is then recorded (a
    /// page's 2,000 console messages, say, still on their way to the task
    /// when the call that caused them returned).
    pub async fn caught_up(&self, count: u64, patience: Duration) {
        let mut handled = self.handled.subscribe();
        let _ = tokio::time::timeout(patience, handled.wait_for(|handled| *handled >= count)).await;
    }

    /// Takes the console entries gathered so far.
    pub fn drain_console(&self) -> Vec<ConsoleEntry> {
        std::mem::take(&mut self.state.lock().console).into()
    }

    /// Waits until `check` returns `Some`, re-checking after every change.
    pub async fn wait_until<T>(&self, mut check: impl FnMut(&Registry) -> Option<T>) -> T {
        let mut changes = self.changed.subscribe();
        loop {
            if let Some(found) = self.read(&mut check) {
                return found;
            }
            if changes.changed().await.is_err() {
                // The sender lives as long as `self`; unreachable in practice.
                std::future::pending::<()>().await;
            }
        }
    }
}

/// What CDP says of a target (`Target.getTargets`, `targetCreated`,
/// `attachedToTarget`).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TargetInfo {
    pub target_id: String,
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub attached: bool,
    #[serde(default)]
    pub url: String,
    #[serde(default)]
    pub title: String,
    pub browser_context_id: Option<String>,
}

/// Follows the browser's events for as long as the connection lives.
pub(crate) async fn follow_events(
    client: Client,
    registry: SharedRegistry,
    on_frame: Option<FrameCallback>,
) {
    let mut events: mpsc::UnboundedReceiver<Arc<RawEvent>> = client.events();
    while let Some(event) = events.recv().await {
        handle(&client, &registry, on_frame.as_ref(), &event);
        registry.handled.send_modify(|handled| *handled += 1);
    }
}

/// What one event changes.
fn handle(
    client: &Client,
    registry: &SharedRegistry,
    on_frame: Option<&FrameCallback>,
    event: &RawEvent,
) {
    let params = &event.params;
    let session = event.session_id.as_deref();
    match event.method.as_ref() {
        "Target.attachedToTarget" => on_attached(client, registry, event),
        "Target.targetInfoChanged" | "Target.targetCreated" => on_target_info(registry, event),
        "Target.targetDestroyed" | "Target.targetCrashed" => {
            if let Some(id) = params["targetId"].as_str() {
                registry.update(|registry| registry.tabs.retain(|tab| tab.id.0 != id));
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
        "Network.requestWillBeSent" => on_request(registry, event),
        "Network.loadingFinished" | "Network.loadingFailed" => {
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
        "Browser.downloadWillBegin" => on_download(registry, event),
        "Page.javascriptDialogOpening" => {
            if let Some(session) = session {
                let dialog = dialog_of(params);
                tracing::info!(kind = %dialog.kind, message = %dialog.message, "a dialog opened");
                registry.set_dialog(session, Some(dialog));
            }
        }
        "Page.javascriptDialogClosed" => {
            if let Some(session) = session {
                registry.set_dialog(session, None);
            }
        }
        "Page.screencastFrame" => {
            if let Some(callback) = on_frame {
                on_screencast_frame(client, callback, event);
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

/// A page tried a download (which the browser refuses): remembered for
/// `downloads()`.
fn on_download(registry: &SharedRegistry, event: &RawEvent) {
    let text = |key: &str| event.params[key].as_str().unwrap_or_default().to_owned();
    let download = Download {
        url: text("url"),
        filename: text("suggestedFilename"),
    };
    tracing::info!(url = %download.url, file = %download.filename, "refused a download");
    registry.update(|registry| {
        if registry.downloads.len() < CONSOLE_LIMIT {
            registry.downloads.push(download);
        }
    });
}

/// Reads `Page.javascriptDialogOpening`.
fn dialog_of(params: &serde_json::Value) -> Dialog {
    let kind = match params["type"].as_str() {
        Some("alert") => DialogKind::Alert,
        Some("confirm") => DialogKind::Confirm,
        Some("prompt") => DialogKind::Prompt,
        Some("beforeunload") => DialogKind::BeforeUnload,
        _ => DialogKind::Unknown,
    };
    let text = |key: &str| params[key].as_str().unwrap_or_default().to_owned();
    Dialog {
        kind,
        message: text("message"),
        default_prompt: text("defaultPrompt"),
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
        _ => {
            let client = client.clone();
            tokio::spawn(async move {
                let _ = client
                    .call_raw(Some(&session), "Runtime.runIfWaitingForDebugger", json!({}))
                    .await;
            });
        }
    }
}

/// Makes Chrome give every new document of a target tabwright's own world
/// (the script itself is empty: the world is what is wanted).
fn world_script() -> serde_json::Value {
    json!({ "source": "", "worldName": WORLD_NAME })
}

/// The settings every attached target gets before it runs: cross-site
/// frames inside it attach as sessions of their own (flat), paused, so a
/// snapshot can read them too.
pub(crate) fn auto_attach() -> serde_json::Value {
    json!({ "autoAttach": true, "waitForDebuggerOnStart": true, "flatten": true })
}

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
        let setup = vec![
            client.call_raw(s, "Page.enable", json!({})),
            client.call_raw(s, "Runtime.enable", json!({})),
            client.call_raw(s, "Network.enable", json!({})),
            client.call_raw(s, "Page.addScriptToEvaluateOnNewDocument", world_script()),
            client.call_raw(s, "Target.setAutoAttach", auto_attach()),
            client.call_raw(s, "Runtime.runIfWaitingForDebugger", json!({})),
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
    let viewport = registry.read(|registry| registry.viewport);
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
                    context: info.browser_context_id.clone(),
                    dialog: None,
                    dialogs_opened: 0,
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
        let mut setup = vec![
            client.call_raw(s, "Page.enable", json!({})),
            client.call_raw(s, "Runtime.enable", json!({})),
            client.call_raw(s, "Network.enable", json!({})),
            client.call_raw(s, "Page.addScriptToEvaluateOnNewDocument", world_script()),
        ];
        if let Some(viewport) = viewport {
            setup.push(client.call_raw(s, "Emulation.setDeviceMetricsOverride", metrics(viewport)));
        }
        setup.push(client.call_raw(s, "Target.setAutoAttach", auto_attach()));
        setup.push(client.call_raw(s, "Runtime.runIfWaitingForDebugger", json!({})));
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
pub(crate) fn metrics(viewport: Viewport) -> serde_json::Value {
    json!({
        "width": viewport.width,
        "height": viewport.height,
        "deviceScaleFactor": 1,
        "mobile": false,
    })
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
        if let Some(tab) = registry.by_session(session).map(|tab| tab.id.clone()) {
            registry.push_console(ConsoleEntry { level, text, tab });
        }
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
    use base64::Engine;
    let Some(session) = event.session_id.clone() else {
        return;
    };
    let frame_number = event.params["sessionId"].clone();
    if let Some(jpeg) = event.params["data"]
        .as_str()
        .and_then(|data| base64::engine::general_purpose::STANDARD.decode(data).ok())
    {
        let metadata = &event.params["metadata"];
        callback(ScreencastFrame {
            jpeg,
            width: metadata["deviceWidth"].as_f64().unwrap_or_default() as u32,
            height: metadata["deviceHeight"].as_f64().unwrap_or_default() as u32,
        });
    }
    // Acknowledge after the callback returns: Chrome sends the next frame
    // only then, so a slow consumer drops frames instead of queueing them.
    let client = client.clone();
    tokio::spawn(async move {
        let _ = client
            .call_raw(
                Some(&session),
                "Page.screencastFrameAck",
                json!({ "sessionId": frame_number }),
            )
            .await;
    });
}
