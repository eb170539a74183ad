//! The network log, from chromedriver's performance log: each entry one
//! DevTools event of a tab (its `webview`, the tab's target id, which is
//! also its window handle), followed into that tab's log.

use serde_json::Value;

use driver_core::backend::network::merged;
use driver_core::{Capability, DriverError, Request, Result};

use crate::session::WdSession;

pub(crate) use driver_core::backend::network::NOT_KEPT;

impl WdSession {
    /// Reads what chromedriver recorded since the last read into the tabs'
    /// logs (which also keeps its buffer short).
    pub(crate) async fn drain_network(&mut self) -> Result<()> {
        if self.network.is_none() {
            return Ok(());
        }
        let entries = self
            .log(
                "performance",
                Capability::NetworkLog,
                "this WebDriver end has no performance log (chromedriver's se/log)",
            )
            .await?;
        let Some(logs) = self.network.as_mut() else {
            return Ok(());
        };
        for entry in entries.as_array().map(Vec::as_slice).unwrap_or_default() {
            let Some(message) = entry["message"]
                .as_str()
                .and_then(|text| serde_json::from_str::<Value>(text).ok())
            else {
                continue;
            };
            let (Some(tab), Some(method)) = (
                message["webview"].as_str(),
                message["message"]["method"].as_str(),
            ) else {
                continue;
            };
            if method.starts_with("Network.") {
                logs.entry(tab.to_owned()).or_default().follow(
                    method,
                    &message["message"]["params"],
                    Some(tab),
                );
            }
        }
        // Closed tabs' logs go with them.
        let known = &self.known;
        logs.retain(|tab, _| known.contains(tab));
        Ok(())
    }

    /// The current tab's requests.
    pub(crate) async fn network_log(&mut self) -> Result<Vec<Request>> {
        if self.network.is_none() {
            return Err(DriverError::Unsupported {
                backend: "webdriver",
                feature: Capability::NetworkLog,
                reason: NOT_KEPT,
            });
        }
        self.drain_network().await?;
        let current = self.current.clone();
        Ok(self
            .network
            .as_ref()
            .map(|logs| merged(logs.get(&current)))
            .unwrap_or_default())
    }
}
