//! Waiting on the shared record of tabs, frames, dialogs and choosers
//! ([`Targets`]): the one way both backends wait for what the browser is
//! about to say, on the record's change signal ([`TargetsLock::changes`]),
//! never by polling.

use std::time::Duration;

use super::frames::TargetsLock;
use super::targets::Targets;
use crate::FileChooser;

/// Waits until `check` finds what it looks for in the record, looking
/// again after every change.
pub async fn until<T>(lock: &impl TargetsLock, mut check: impl FnMut(&Targets) -> Option<T>) -> T {
    let mut changes = lock.changes();
    loop {
        // (Marked seen before the look: a change after it wakes the wait.)
        changes.borrow_and_update();
        if let Some(found) = lock.read_targets(&mut check) {
            return found;
        }
        if changes.changed().await.is_err() {
            // Its sender lives as long as the record: nothing more comes.
            std::future::pending::<()>().await;
        }
    }
}

/// Waits (at most `patience`) until the tab `target`'s `opened`th dialog is
/// closed: none is open, or a later one is. A dialog answered over another
/// way (WebDriver's) closes before the record hears it close, and a script
/// sent meanwhile would be told it is still open.
pub async fn dialog_closed(lock: &impl TargetsLock, target: &str, opened: u64, patience: Duration) {
    let closed = until(lock, |targets| {
        targets
            .tab_session(target)
            .is_none_or(|session| targets.dialog_closed(session, opened))
            .then_some(())
    });
    let _ = tokio::time::timeout(patience, closed).await;
}

/// Takes the file chooser caught in the tab `target`, waiting at most
/// `patience` for one.
pub async fn take_chooser(
    lock: &impl TargetsLock,
    target: &str,
    patience: Duration,
) -> Option<FileChooser> {
    let caught = until(lock, |targets| {
        let session = targets.tab_session(target)?;
        targets.chooser(session).map(|_| session.to_owned())
    });
    let session = tokio::time::timeout(patience, caught).await.ok()?;
    lock.with_targets(|targets| targets.take_chooser(&session))
}

/// How many dialogs have opened in the tab `target`, as the record heard.
pub fn dialogs_opened(lock: &impl TargetsLock, target: &str) -> u64 {
    lock.read_targets(|targets| {
        targets
            .tab_session(target)
            .map_or(0, |session| targets.dialogs_opened(session))
    })
}
