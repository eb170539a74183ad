//! Navigating a tab: going to a URL, through history, reloading, and
//! reading where the tab ended up and with which HTTP status.

use serde_json::json;

use driver_core::{is_start_page, DriverError, Navigation, Result, DOCUMENT_STATUS};

use crate::errors::{net_error, sort};
use crate::session::Session;

impl Session {
    pub(crate) async fn navigate(&mut self, url: &str) -> Result<Navigation> {
        self.focus_current().await?;
        self.client
            .goto(url)
            .await
            .map_err(|error| match sort(error) {
                DriverError::Protocol(message) => match net_error(&message) {
                    Some(net_error) => DriverError::NavigationFailed {
                        url: url.to_owned(),
                        net_error,
                    },
                    None => DriverError::Protocol(message),
                },
                other => other,
            })?;
        self.arrived().await
    }

    /// Where the tab is now and the HTTP status of its document.
    pub(crate) async fn arrived(&self) -> Result<Navigation> {
        let found = self
            .client
            .execute(
                &format!("return [location.href, {DOCUMENT_STATUS}];"),
                vec![],
            )
            .await
            .map_err(sort)?;
        let status = found[1]
            .as_u64()
            .filter(|status| *status > 0)
            .map(|status| status as u16);
        Ok(Navigation {
            status,
            url: found[0].as_str().unwrap_or_default().to_owned(),
        })
    }

    /// Back (-1) or forward (+1). WebDriver does nothing at the end of
    /// history, so the document is tagged first: still tagged, same URL
    /// afterwards means there was nowhere to go.
    pub(crate) async fn history(&mut self, delta: i32) -> Result<Navigation> {
        self.focus_current().await?;
        let nowhere = || DriverError::NoHistory {
            direction: if delta < 0 { "earlier" } else { "later" },
        };
        // The page the tab started on is not a page to go back to. The
        // CDP bridge (chromedriver's) tells what lies behind without going
        // there; a remote end without it is found out by going.
        if delta < 0 {
            if let Ok(history) = self.cdp("Page.getNavigationHistory", json!({})).await {
                if let Some(index) = history["currentIndex"].as_u64() {
                    let behind = index
                        .checked_sub(1)
                        .and_then(|index| usize::try_from(index).ok())
                        .and_then(|index| history["entries"].get(index));
                    if behind.is_none_or(|entry| is_start_page(entry["url"].as_str().unwrap_or("")))
                    {
                        return Err(nowhere());
                    }
                }
            }
        }
        let before = self
            .client
            .execute(
                "window.__tabwrightStayed = true; return location.href;",
                vec![],
            )
            .await
            .map_err(sort)?;
        if delta < 0 {
            self.client.back().await.map_err(sort)?;
        } else {
            self.client.forward().await.map_err(sort)?;
        }
        let stayed = self
            .client
            .execute(
                "return window.__tabwrightStayed === true ? location.href : null;",
                vec![],
            )
            .await
            .map_err(sort)?;
        if stayed == before {
            return Err(nowhere());
        }
        let arrived = self.arrived().await?;
        if delta < 0 && is_start_page(&arrived.url) {
            self.client.forward().await.map_err(sort)?;
            return Err(nowhere());
        }
        Ok(arrived)
    }

    pub(crate) async fn reload(&mut self) -> Result<Navigation> {
        self.focus_current().await?;
        self.client.refresh().await.map_err(sort)?;
        self.arrived().await
    }
}
