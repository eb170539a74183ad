//! [`Phases`]: where a call's time went, for the trace and the bench.

use serde::{Deserialize, Serialize};

/// How long each part of a tool call took, in milliseconds. The acting
/// part (`act_ms`) is what is left of the whole: what the tool did in the
/// page before the page was read back.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Phases {
    /// Waiting for the page to settle after the action (or before a read).
    pub settle_ms: f64,
    /// Reading the page: the page script and the protocol round trips.
    pub read_ms: f64,
    /// Gathering what else changed: tabs, downloads, refusals, console.
    pub report_ms: f64,
    /// Rendering the answer: the snapshot or change list as text.
    pub render_ms: f64,
    /// The whole call.
    pub total_ms: f64,
}

impl Phases {
    /// The action itself: the whole less the parts measured.
    pub fn act_ms(&self) -> f64 {
        (self.total_ms - self.settle_ms - self.read_ms - self.report_ms - self.render_ms).max(0.0)
    }
}

/// Milliseconds since `started`.
pub(crate) fn since(started: std::time::Instant) -> f64 {
    started.elapsed().as_secs_f64() * 1000.0
}
