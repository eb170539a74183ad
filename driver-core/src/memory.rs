//! What a session's browser memory is: [`Memory`], read by
//! [`Driver::memory`](crate::Driver::memory), and the budget it is held to.

use std::fmt;

/// The default session budget, in MiB ([`Options::memory_budget_mb`](crate::Options::memory_budget_mb)).
pub const DEFAULT_BUDGET_MB: u64 = 2048;

/// A session's share of its browser's memory, in KiB of PSS (shared pages
/// divided among the processes sharing them, so that shares add up).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Memory {
    /// The renderers of the session's tabs (and their frames).
    pub renderers_kib: u64,
    /// The session's part of what its browser needs whatever the pages:
    /// the browser process, the GPU and utility processes, divided among
    /// the sessions sharing them (all of it in a browser of its own).
    pub browser_share_kib: u64,
    /// The budget the session is held to, if any.
    pub budget_kib: Option<u64>,
    /// How many times a tab was moved to a fresh renderer to stay within
    /// the budget, since the session started.
    pub renewed: u32,
}

impl Memory {
    /// Renderers plus the browser share.
    pub fn total_kib(&self) -> u64 {
        self.renderers_kib + self.browser_share_kib
    }

    /// Whether the session is over its budget.
    pub fn over_budget(&self) -> bool {
        self.budget_kib
            .is_some_and(|budget| self.total_kib() > budget)
    }
}

impl fmt::Display for Memory {
    /// `312 MiB (renderers 270, browser share 42)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} MiB (renderers {}, browser share {})",
            self.total_kib() / 1024,
            self.renderers_kib / 1024,
            self.browser_share_kib / 1024
        )
    }
}

/// When a tab's renderer is moved to a fresh process at its next
/// navigation: once it holds a quarter of the session's budget (a renderer
/// that once showed a heavy page keeps most of that memory for as long as
/// it lives, whatever it shows next).
pub fn renew_threshold_kib(budget_kib: u64) -> u64 {
    budget_kib / 4
}
