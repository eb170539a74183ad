//! [`Renderers`]: what a session knows of its tabs' renderers (kept in
//! the session, read and written by `memory`).

use std::collections::HashMap;

use driver_core::TabId;

/// What the session knows of its tabs' renderers.
#[derive(Default)]
pub(crate) struct Renderers {
    /// Per tab: the site it showed when traced, and its renderers.
    pub(crate) mapped: HashMap<TabId, Mapped>,
    /// Tabs moved to a fresh renderer so far.
    pub renewed: u32,
}

/// A tab's renderers, as a trace told them.
#[derive(Clone, Default)]
pub(crate) struct Mapped {
    /// The site the tab showed then.
    pub(crate) site: String,
    /// The renderers of all its frames.
    pub(crate) all: Vec<u32>,
    /// The renderers of its main frame: its document, and those it keeps
    /// in the back-forward cache.
    pub(crate) main: Vec<u32>,
}
