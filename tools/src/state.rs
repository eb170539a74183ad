//! [`State`]: what the pack remembers between calls, to tell the model what
//! changed.

use std::collections::HashMap;

use driver_core::{ConsoleEntry, Journal, TabId};
use marks::Reading;

/// The most console entries kept for the `console` tool.
const CONSOLE_KEPT: usize = 500;

/// What the pack remembers between calls.
#[derive(Debug)]
pub(crate) struct State {
    /// The page tools last listed for each tab (a digest of names, origins
    /// and descriptions), so a change list lists them only when they change.
    pub(crate) page_tools_shown: std::collections::HashMap<driver_core::TabId, String>,
    /// Where the guard's refusals stood when they were last reported.
    pub(crate) refusals_seen: u64,
    /// Where they stood when this call began.
    pub(crate) refusals_at_call: u64,
    /// The page's console messages, numbered as they came.
    pub(crate) console: Journal<ConsoleEntry>,
    /// Where the `console` tool stopped reading.
    pub(crate) console_read: u64,
    /// The tabs after the previous call, oldest first.
    pub(crate) tabs: Vec<TabId>,
    /// The tabs when this call began.
    pub(crate) tabs_at_call: Vec<TabId>,
    /// The URL of the last page shown.
    pub(crate) url: Option<driver_core::PageText>,
    /// HTTP statuses of the documents the pack navigated to, by URL.
    pub(crate) statuses: HashMap<driver_core::PageText, u16>,
    /// A dialog was reported open and not yet answered.
    pub(crate) dialog_open: bool,
    /// What the model last read of each tab's page, for change lists.
    pub(crate) readings: HashMap<TabId, Reading>,
    /// The tab whose page the last answer showed.
    pub(crate) shown_tab: Option<TabId>,
    /// The last screenshot taken, for `if_changed`.
    pub(crate) last_picture: Option<Picture>,
    /// The backend's ids of the requests `requests` last listed, in its
    /// numbering.
    pub(crate) requests_listed: Vec<String>,
    /// Local storage `state_load` read for origins not yet open.
    pub(crate) pending_storage: std::collections::BTreeMap<String, Vec<(String, String)>>,
    /// The browser's own user agent, kept while a device's is emulated.
    pub(crate) user_agent: Option<driver_core::PageText>,
    /// The fences of the answer being made: a code drawn for each call.
    pub(crate) fence: marks::Fence,
    /// Where the time of the call under way went.
    pub(crate) phases: crate::phases::Phases,
    /// What the model read, by origin: where it may go under the task's
    /// origins (see `task`).
    pub(crate) provenance: crate::provenance::Provenance,
    /// A script for the page had the guard hold every request within the
    /// task's origins during this call: the answer says so.
    pub(crate) held_to_task: bool,
    /// When the call under way began: what the page did from then on is
    /// the action's doing, which settling waits out (`settle::Begin`).
    pub(crate) call_started: std::time::Instant,
}

/// A screenshot, as remembered: its tab, how it was taken, and a digest of
/// its bytes (the same pixels, encoded the same way, give the same bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Picture {
    pub(crate) tab: TabId,
    pub(crate) how: String,
    pub(crate) digest: u64,
}

/// A digest of a picture's bytes.
pub(crate) fn digest(data: &[u8]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    data.hash(&mut hasher);
    hasher.finish()
}

impl Default for State {
    fn default() -> Self {
        Self {
            page_tools_shown: HashMap::new(),
            refusals_seen: 0,
            refusals_at_call: 0,
            console: Journal::new(CONSOLE_KEPT),
            console_read: 0,
            tabs: Vec::new(),
            tabs_at_call: Vec::new(),
            url: None,
            statuses: HashMap::new(),
            dialog_open: false,
            readings: HashMap::new(),
            shown_tab: None,
            last_picture: None,
            requests_listed: Vec::new(),
            pending_storage: Default::default(),
            user_agent: None,
            fence: marks::Fence::new(),
            phases: Default::default(),
            provenance: Default::default(),
            held_to_task: false,
            call_started: std::time::Instant::now(),
        }
    }
}
