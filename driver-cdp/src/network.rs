//! The network log: every request of each tab's page (and of the cross-site
//! frames inside it), kept from its `Network.*` events for the `requests`
//! tool, by the log both backends share.
//!
//! The registry keeps the logs (`Registry::network`) and follows the events
//! into them (`SharedRegistry::follow_network`); this module names their
//! shape, and depends on nothing of the backend's.

use std::collections::HashMap;

use driver_core::backend::network::NetworkLog;

/// Sessions' logs, by session.
pub(crate) type Logs = HashMap<String, NetworkLog>;
