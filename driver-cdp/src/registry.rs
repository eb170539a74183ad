//! What the browser looks like right now, kept up to date from CDP events
//! (`events`): the page targets (tabs) in the order they opened, the flat
//! session attached to each, requests in flight, and per browser context
//! (one per session in a shared browser) its console, refused downloads,
//! viewport and live view. Frames, script worlds, dialogs and file
//! choosers are kept as the WebDriver backend's relay keeps them: in
//! driver-core's [`Targets`], inside this registry's lock.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::Mutex;

use serde::Deserialize;
use tokio::sync::watch;

use driver_core::backend::devtools::{waits, Targets, TargetsLock};
use driver_core::backend::network::merged;
use driver_core::{ConsoleEntry, Dialog, Download, FrameCallback, Request, TabId, Viewport};

use crate::client::Event;

pub(crate) use driver_core::backend::CONSOLE_LIMIT;

/// How many crashed tabs are remembered (to say "crashed", not "closed").
const CRASHES_KEPT: usize = 100;

/// A browser context: `None` for the browser's default one (a browser of
/// one session's own), or the id of one made for a session.
pub(crate) type ContextId = Option<String>;

/// What belongs to one browser context: its console, its refused
/// downloads, the viewport of its tabs, its live view.
#[derive(Default)]
pub(crate) struct PerContext {
    pub console: VecDeque<ConsoleEntry>,
    pub downloads: Vec<Download>,
    /// Where its downloads may land, if they may.
    pub download_policy: Option<driver_core::Downloads>,
    /// Whether its tabs keep a network log (`Options::network_log`).
    pub network_log: bool,
    /// Downloads under way, by Chrome's guid.
    pub downloading: HashMap<String, Download>,
    pub viewport: Option<Viewport>,
    pub on_frame: Option<FrameCallback>,
    /// The scripts for tabwright's world of its tabs' documents.
    pub preloads: driver_core::Preloads,
    /// Where its tabs' top-level documents may come from.
    pub pages_go: Option<driver_core::PagesGo>,
}

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
}

pub(crate) use driver_core::backend::devtools::{World, WORLD_NAME};

/// Requests older than this are not waited for: a long poll or a stream
/// that never ends must not hold up every action.
const REQUEST_PATIENCE: Duration = Duration::from_secs(30);

/// Shared between the event task and driver calls.
#[derive(Default)]
pub(crate) struct Registry {
    pub tabs: Vec<TabRecord>,
    /// Per browser context.
    pub by_context: HashMap<ContextId, PerContext>,
    /// Every frame seen attached (sub-frames included), by id: the session
    /// it lives in, so a download a frame starts is its tab's.
    pub frame_sessions: HashMap<String, String>,
    /// Tabs that crashed, most recent last.
    pub crashed: VecDeque<TabId>,
    /// Tabs whose renderer is being ended on purpose, to load their next
    /// page in a fresh one: their crash is not one.
    pub renewing: std::collections::HashSet<TabId>,
    /// Frames, script worlds, dialogs and file choosers, as driver-core's
    /// DevTools layer keeps them for both backends.
    pub targets: Targets,
    /// Fetches and XHRs in flight: (session, request id) -> when they began.
    pub requests: HashMap<(String, String), Instant>,
    /// Every request of each session's page, for the `requests` tool.
    pub network: crate::network::Logs,
    /// How many tabs have opened: a new one (a popup) comes to the front,
    /// and the current tab must be brought back before it takes input.
    pub tabs_opened: u64,
}

impl Registry {
    pub fn tab(&self, id: &TabId) -> Option<&TabRecord> {
        self.tabs.iter().find(|tab| &tab.id == id)
    }

    pub fn by_session(&self, session: &str) -> Option<&TabRecord> {
        self.tabs
            .iter()
            .find(|tab| tab.session.as_deref() == Some(session))
    }

    /// The tab a session serves: its own, or the one a cross-site frame's
    /// session lives in.
    pub fn tab_of_session(&self, session: &str) -> Option<&TabRecord> {
        self.by_session(self.targets.top_session(session))
    }

    /// The session of the tab `id`, if it is attached.
    pub fn session_of_tab(&self, id: &TabId) -> Option<&str> {
        self.tab(id)?.session.as_deref()
    }

    /// The dialog open in tab `id`, if any.
    pub fn dialog_in(&self, id: &TabId) -> Option<Dialog> {
        self.targets.dialog(self.session_of_tab(id)?).cloned()
    }

    /// How the registry names a tab's browser context: a context made for a
    /// session by its id, any other (the browser's default one, or one we
    /// did not make) as the default, `None`.
    pub fn known_context(&self, id: Option<&str>) -> ContextId {
        id.map(str::to_owned)
            .filter(|id| self.by_context.contains_key(&Some(id.clone())))
    }

    /// The state of a browser context.
    pub fn context(&mut self, context: &ContextId) -> &mut PerContext {
        self.by_context.entry(context.clone()).or_default()
    }

    /// Records a console entry of the tab on `session`.
    pub fn push_console(&mut self, session: &str, entry: impl FnOnce(TabId) -> ConsoleEntry) {
        let Some(tab) = self.tab_of_session(session) else {
            return;
        };
        let (id, context) = (tab.id.clone(), tab.context.clone());
        let console = &mut self.context(&context).console;
        if console.len() >= CONSOLE_LIMIT {
            console.pop_front();
        }
        console.push_back(entry(id));
    }

    /// Records that a tab crashed (and is gone).
    pub fn crash(&mut self, id: &str) {
        if self.renewing.contains(&TabId(id.to_owned())) {
            return;
        }
        if self.crashed.len() == CRASHES_KEPT {
            self.crashed.pop_front();
        }
        self.crashed.push_back(TabId(id.to_owned()));
        self.tabs.retain(|tab| tab.id.0 != id);
    }
}

/// A shared registry plus a counter that ticks on every change, so callers can
/// wait for "the tab is ready" or "the tab is gone" without polling.
#[derive(Clone)]
pub(crate) struct SharedRegistry {
    pub state: Arc<Mutex<Registry>>,
    changed: watch::Sender<u64>,
}

impl SharedRegistry {
    /// Follows one `Network.*` event into the log of its session, if its
    /// tab's context keeps one (nothing is copied for a session that does
    /// not: this runs for every request the browser makes).
    pub(crate) fn follow_network(&self, event: &Event) {
        let Some(session) = event.session.as_deref() else {
            return;
        };
        self.update(|registry| {
            let Some(tab) = registry.tab_of_session(session) else {
                return;
            };
            let context = tab.context.clone();
            if !registry.context(&context).network_log {
                return;
            }
            let main_frame = registry.by_session(session).map(|tab| tab.id.0.clone());
            registry
                .network
                .entry(session.to_owned())
                .or_default()
                .follow(&event.method, &event.params, main_frame.as_deref());
        });
    }

    /// The requests of the tab on `session` and of the cross-site frames
    /// in it, in the order they began.
    pub(crate) fn requests_of_tab(&self, session: &str) -> Vec<Request> {
        self.read(|registry| {
            merged(
                registry
                    .network
                    .iter()
                    .filter(|(owner, _)| registry.targets.serves(owner, session))
                    .map(|(_, log)| log),
            )
        })
    }

    pub fn new() -> Self {
        Self {
            state: Arc::new(Mutex::new(Registry::default())),
            changed: watch::channel(0).0,
        }
    }

    /// Runs `f` on the registry.
    pub fn read<T>(&self, f: impl FnOnce(&Registry) -> T) -> T {
        f(&self.state.lock())
    }

    /// How many dialogs have opened in tab `id`.
    pub fn dialogs_opened(&self, id: &TabId) -> u64 {
        waits::dialogs_opened(self, &id.0)
    }

    /// Waits (at most `patience`) until the dialog that was the `opened`th
    /// is closed: none is open, or a later one is (the shared wait).
    pub async fn dialog_closed(&self, id: &TabId, opened: u64, patience: Duration) {
        waits::dialog_closed(self, &id.0, opened, patience).await;
    }

    /// Takes the file chooser caught in tab `id`, waiting at most
    /// `patience` for one (the shared wait).
    pub async fn take_chooser(
        &self,
        id: &TabId,
        patience: Duration,
    ) -> Option<driver_core::FileChooser> {
        waits::take_chooser(self, &id.0, patience).await
    }

    /// Forgets the file chooser caught in tab `id`, if any.
    pub fn clear_chooser(&self, id: &TabId) {
        self.update(|registry| {
            if let Some(session) = registry.session_of_tab(id).map(str::to_owned) {
                registry.targets.take_chooser(&session);
            }
        });
    }

    /// The dialog open in tab `id`, if any.
    pub fn dialog_of(&self, id: &TabId) -> Option<Dialog> {
        self.read(|registry| registry.dialog_in(id))
    }

    /// Follows one event into the frames, worlds, dialogs and choosers;
    /// tells whoever waits if it changed them.
    pub fn observe(&self, event: &Event) {
        let changed = self.state.lock().targets.observe(event);
        if changed {
            self.changed.send_modify(|version| *version += 1);
        }
    }

    /// Changes the registry and tells whoever waits for a change.
    pub fn update(&self, f: impl FnOnce(&mut Registry)) {
        f(&mut self.state.lock());
        self.changed.send_modify(|version| *version += 1);
    }

    /// Gets a browser context ready for its tabs: the viewport they get,
    /// where its live view's frames go, and the scripts their documents
    /// get in tabwright's world, as `options` say.
    pub fn prepare(&self, context: &ContextId, options: &driver_core::Options) {
        let viewport = Viewport {
            width: options.width,
            height: options.height,
        };
        self.update(|registry| {
            let state = registry.context(context);
            state.viewport = Some(viewport);
            state.on_frame = options.on_frame.clone();
            state.preloads = options.preloads.clone();
            state.pages_go = options.pages_go.clone();
        });
    }

    /// Forgets a browser context that is gone.
    pub fn forget(&self, context: &ContextId) {
        self.update(|registry| {
            registry.by_context.remove(context);
        });
    }

    /// Sets the viewport for a context's tabs to come and returns the
    /// sessions of the ones there are.
    pub fn set_viewport(&self, context: &ContextId, viewport: Viewport) -> Vec<String> {
        let mut sessions = Vec::new();
        self.update(|registry| {
            registry.context(context).viewport = Some(viewport);
            sessions = registry
                .tabs
                .iter()
                .filter(|tab| &tab.context == context)
                .filter_map(|tab| tab.session.clone())
                .collect();
        });
        sessions
    }

    /// Whether tab `id` crashed.
    pub fn crashed(&self, id: &TabId) -> bool {
        self.read(|registry| registry.crashed.contains(id))
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

    /// How many fetches and XHRs the tab on `session` has in flight, in its
    /// own process and in its cross-site frames'.
    pub fn requests_in_flight(&self, session: &str) -> usize {
        self.read(|registry| {
            registry
                .requests
                .iter()
                .filter(|((owner, _), began)| {
                    began.elapsed() < REQUEST_PATIENCE && registry.targets.serves(owner, session)
                })
                .count()
        })
    }

    /// Takes a context's download attempts gathered so far.
    pub fn drain_downloads(&self, context: &ContextId) -> Vec<Download> {
        std::mem::take(&mut self.state.lock().context(context).downloads)
    }

    /// Takes a context's console entries gathered so far.
    pub fn drain_console(&self, context: &ContextId) -> Vec<ConsoleEntry> {
        std::mem::take(&mut self.state.lock().context(context).console).into()
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

impl TargetsLock for SharedRegistry {
    fn with_targets<T>(&self, f: impl FnOnce(&mut Targets) -> T) -> T {
        let out = f(&mut self.state.lock().targets);
        self.changed.send_modify(|version| *version += 1);
        out
    }

    fn read_targets<T>(&self, f: impl FnOnce(&Targets) -> T) -> T {
        f(&self.state.lock().targets)
    }

    fn changes(&self) -> watch::Receiver<u64> {
        self.changed.subscribe()
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
