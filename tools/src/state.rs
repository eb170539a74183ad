//! [`State`]: what the pack remembers between calls, to tell the model what
//! changed.

use std::collections::HashMap;

use driver_core::{ConsoleEntry, TabId};

/// What the pack remembers between calls.
#[derive(Debug, Default)]
pub(crate) struct State {
    /// Guard refusals already reported.
    pub(crate) refusals_seen: usize,
    /// Console entries not yet read with the `console` tool.
    pub(crate) console: Vec<ConsoleEntry>,
    /// The tabs after the previous call, oldest first.
    pub(crate) tabs: Vec<TabId>,
    /// The URL of the last page shown.
    pub(crate) url: Option<String>,
    /// HTTP statuses of the documents the pack navigated to, by URL.
    pub(crate) statuses: HashMap<String, u16>,
    /// A dialog was reported open and not yet answered.
    pub(crate) dialog_open: bool,
}
