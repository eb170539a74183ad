//! Settling: after an action, wait for what it caused, and no longer.
//!
//! The page-side half is `settle.js` (what "quiet" means is written there).
//! This half re-runs it when the document it ran in goes away, which is what
//! a navigation looks like from inside the page, so a click on a link is read
//! on the page it leads to, under one cap for the whole wait.

use std::time::{Duration, Instant};

use driver_core::{Driver, DriverError};

const SETTLE_JS: &str = include_str!("settle.js");

/// Between two tries while a new document replaces the old one.
const RETRY: Duration = Duration::from_millis(20);

/// How a settle ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Settled {
    /// The page is quiet.
    Quiet,
    /// The cap came first; says what was still going on.
    Busy { after: Duration, why: String },
}

/// Waits until the current tab is quiet (DOM still for `quiet`, no requests
/// or short timers pending, loaded, not navigating), at most `cap`.
pub(crate) async fn settle(
    driver: &dyn Driver,
    quiet: Duration,
    cap: Duration,
) -> Result<Settled, DriverError> {
    let start = Instant::now();
    loop {
        let left = cap.saturating_sub(start.elapsed());
        let expression = format!("({SETTLE_JS})({}, {})", quiet.as_millis(), left.as_millis());
        match driver.eval(&expression).await {
            Ok(answer) if answer["settled"] == true => return Ok(Settled::Quiet),
            Ok(answer) => {
                return Ok(Settled::Busy {
                    after: start.elapsed(),
                    why: answer["why"].as_str().unwrap_or("unknown").to_owned(),
                })
            }
            Err(error)
                if error.is_dialog_open()
                    || error.is_browser_gone()
                    || error.is_timeout()
                    || matches!(error, DriverError::NoSuchTab { .. }) =>
            {
                return Err(error)
            }
            // The document went away while we waited: a navigation. Settle
            // the one that replaces it.
            Err(error) => {
                tracing::debug!(%error, "settling again in the next document");
                if start.elapsed() >= cap {
                    return Ok(Settled::Busy {
                        after: start.elapsed(),
                        why: "a navigation had not finished".to_owned(),
                    });
                }
                tokio::time::sleep(RETRY).await;
            }
        }
    }
}
