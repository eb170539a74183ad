//! [`Tab`], the tab-level context: what a tool that acts on the page shown
//! works with, the browser-level context and the session's state (what the
//! model last read of each tab, the fences of the answer under way).
//!
//! Page tools are its methods: the core ones in `actions` (text mode) and
//! `vision` (points), the groups' in `files`, `forms` and `script`; reading
//! the page back after them is in `after`.

use crate::browser::Browser;
use crate::state::State;

/// A call on the page shown: see the module docs. Its fields are borrowed
/// apart (`self.browser.driver` while `self.state` changes), which is why
/// it does not dereference to the browser.
pub(crate) struct Tab<'a> {
    pub(crate) browser: &'a Browser,
    pub(crate) state: &'a mut State,
}

impl Browser {
    /// The tab-level context of a call: this browser and the session's
    /// state, for a tool that acts on the page shown (or answers with it).
    pub(crate) fn tab<'a>(&'a self, state: &'a mut State) -> Tab<'a> {
        Tab {
            browser: self,
            state,
        }
    }
}
