//! The network log: every request of each tab's page (and of the cross-site
//! frames inside it), kept from its `Network.*` events for the `requests`
//! tool, by the log both backends share.

use std::collections::HashMap;

use driver_core::backend::network::{merged, NetworkLog};
use driver_core::Request;

use crate::client::RawEvent;
use crate::registry::SharedRegistry;

/// Sessions' logs, by session.
pub(crate) type Logs = HashMap<String, NetworkLog>;

/// Follows one `Network.*` event into the log of its session, if its
/// tab's context keeps one (nothing is copied for a session that does not:
/// this runs for every request the browser makes).
pub(crate) fn follow(registry: &SharedRegistry, event: &RawEvent) {
    let Some(session) = event.session_id.as_deref() else {
        return;
    };
    registry.update(|registry| {
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
            .follow(event.method.as_ref(), &event.params, main_frame.as_deref());
    });
}

/// The requests of the tab on `session` and of the cross-site frames in
/// it, in the order they began.
pub(crate) fn of_tab(registry: &SharedRegistry, session: &str) -> Vec<Request> {
    registry.read(|registry| {
        merged(
            registry
                .network
                .iter()
                .filter(|(owner, _)| registry.serves(owner, session))
                .map(|(_, log)| log),
        )
    })
}
