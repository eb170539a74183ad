//! Navigating a tab: going to a URL, through history, reloading, and
//! reading where the tab ended up and with which HTTP status.

use driver_core::backend::devtools::names;
use serde_json::json;

use driver_core::{is_start_page, DriverError, Navigation, Result, DOCUMENT_STATUS};

use crate::errors::{net_error, sort};
use crate::session::WdSession;

impl WdSession {
    pub(crate) async fn navigate(&mut self, url: &str) -> Result<Navigation> {
        // The page being left is done with: what chromedriver recorded of
        // it is read now, so its buffer never grows long.
        let _ = self.drain_network().await;
        // A page that broke chromedriver's script runner keeps it from
        // navigating away (it runs a script in the page first): the CDP
        // bridge navigates without one.
        if let Err(error) = self.focus_current().await {
            if !matches!(error, DriverError::Unscriptable { .. }) {
                return Err(error);
            }
        }
        let went = self
            .client
            .goto(url)
            .await
            .map_err(|error| match sort(error) {
                DriverError::Protocol(message) => match net_error(&message) {
                    Some(net_error) => DriverError::NavigationFailed {
                        url: url.into(),
                        net_error,
                    },
                    None => DriverError::Protocol(message),
                },
                other => other,
            });
        match went {
            Err(DriverError::Unscriptable { .. }) => self.navigate_by_bridge(url).await,
            other => {
                other?;
                self.arrived().await
            }
        }
    }

    /// Navigates through chromedriver's CDP bridge and waits for the new
    /// document's load (the call's deadline bounds the wait).
    async fn navigate_by_bridge(&mut self, url: &str) -> Result<Navigation> {
        let answer = self
            .cdp(names::PAGE_NAVIGATE, json!({ "url": url }))
            .await?;
        if let Some(net_error) = answer["errorText"].as_str().filter(|text| !text.is_empty()) {
            return Err(DriverError::NavigationFailed {
                url: url.into(),
                net_error: net_error.to_owned(),
            });
        }
        loop {
            let loaded = self
                .client
                .execute("return document.readyState === 'complete';", vec![])
                .await
                .map_err(sort);
            if matches!(loaded, Ok(serde_json::Value::Bool(true))) {
                return self.arrived().await;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }

    /// Where the tab is now and the HTTP status of its document (unknown
    /// for a page that broke chromedriver's scripting: its URL then comes
    /// from the CDP bridge's history).
    pub(crate) async fn arrived(&self) -> Result<Navigation> {
        let found = self
            .client
            .execute(
                &format!("return [location.href, {DOCUMENT_STATUS}];"),
                vec![],
            )
            .await
            .map_err(sort);
        let found = match found {
            Err(DriverError::Unscriptable { .. }) => {
                let history = self
                    .cdp(names::PAGE_GET_NAVIGATION_HISTORY, json!({}))
                    .await?;
                let url = usize::try_from(history["currentIndex"].as_u64().unwrap_or_default())
                    .ok()
                    .and_then(|index| history["entries"][index]["url"].as_str())
                    .unwrap_or_default()
                    .to_owned();
                return Ok(Navigation {
                    status: None,
                    url: url.into(),
                });
            }
            other => other?,
        };
        let status = found[1]
            .as_u64()
            .filter(|status| *status > 0)
            .map(|status| status as u16);
        Ok(Navigation {
            status,
            url: found[0].as_str().unwrap_or_default().into(),
        })
    }

    /// Back (-1) or forward (+1). WebDriver does nothing at the end of
    /// history: the CDP bridge (chromedriver's) says what lies that way
    /// without going there; a remote end without it is found out by going,
    /// the document tagged first (still tagged, same URL afterwards means
    /// there was nowhere to go).
    pub(crate) async fn history(&mut self, delta: i32) -> Result<Navigation> {
        self.focus_current().await?;
        let nowhere = || DriverError::NoHistory {
            direction: if delta < 0 { "earlier" } else { "later" },
        };
        let known = self.history_entry(delta).await;
        if known == Some(false) {
            return Err(nowhere());
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
        if known == Some(true) {
            // chromedriver may answer a move within the document (an entry
            // pushState made) before the URL changes: wait for it.
            self.until_moved(&before).await;
            return self.arrived().await;
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
        if delta < 0 && is_start_page(arrived.url.untrusted()) {
            self.client.forward().await.map_err(sort)?;
            return Err(nowhere());
        }
        Ok(arrived)
    }

    /// Whether there is a history entry `delta` away that counts (not the
    /// page the tab started on), as the CDP bridge tells; `None` without it.
    async fn history_entry(&self, delta: i32) -> Option<bool> {
        let history = self
            .cdp(names::PAGE_GET_NAVIGATION_HISTORY, json!({}))
            .await
            .ok()?;
        let index = i64::try_from(history["currentIndex"].as_u64()?).ok()? + i64::from(delta);
        let entry = usize::try_from(index)
            .ok()
            .and_then(|index| history["entries"].get(index));
        Some(
            entry.is_some_and(|entry| {
                delta > 0 || !is_start_page(entry["url"].as_str().unwrap_or(""))
            }),
        )
    }

    /// Waits (a second at most) until the tab has left `before` (a URL as
    /// the page said it), or its document has been replaced.
    async fn until_moved(&self, before: &serde_json::Value) {
        for _ in 0..50 {
            let now = self
                .client
                .execute(
                    "return window.__tabwrightStayed === true ? location.href : null;",
                    vec![],
                )
                .await;
            if !matches!(&now, Ok(url) if url == before) {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }

    pub(crate) async fn reload(&mut self) -> Result<Navigation> {
        self.focus_current().await?;
        self.client.refresh().await.map_err(sort)?;
        self.arrived().await
    }
}
