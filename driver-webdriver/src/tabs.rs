//! Tabs (WebDriver's windows): which is current, listing, opening,
//! switching and closing them, and the viewport's size.

use driver_core::backend::devtools::names;
use fantoccini::wd::WindowHandle;

use driver_core::{DriverError, Result, Tab, TabId, Viewport};

use crate::errors::sort;
use crate::session::WdSession;

impl WdSession {
    /// A call's result, after a tab's renderer crashed under it: chromedriver
    /// answers "tab crashed" to every command to that window, closing it
    /// included, so the tab is closed over the DevTools socket and another
    /// (or a new blank one) becomes current, as on CDP. Where the session
    /// has no socket, nothing can close it: the session is lost, and the
    /// next call starts a new one.
    pub(crate) async fn after_crash<T>(&mut self, result: Result<T>) -> Result<T> {
        let Err(DriverError::TabCrashed { .. }) = result else {
            return result;
        };
        let crashed = self.current.clone();
        let Some(relay) = &self.relay else {
            return Err(DriverError::BrowserGone {
                reason: "the tab's page crashed, and this remote end has no way to close it"
                    .to_owned(),
            });
        };
        let alone = self.known.len() <= 1;
        if let Err(problem) = relay.stop(&crashed, true, alone).await {
            return Err(DriverError::BrowserGone {
                reason: format!("the tab's page crashed, and it could not be closed ({problem})"),
            });
        }
        // The crashed one is gone: the latest other tab becomes current.
        let _ = self.focus_current().await;
        Err(DriverError::TabCrashed { id: crashed })
    }

    /// What a call on the current tab answered, its failure first checked
    /// against the tab being gone ([`focus_current`](Self::focus_current)):
    /// a tab the page closed fails the call, and then the latest tab becomes
    /// current and the error says which went. Asking the remote end for its
    /// windows only when a call failed spares every other call a round
    /// trip (a click made about ten). A dialog, a lost browser and a
    /// script's own error are not a lost tab.
    pub(crate) async fn unless_tab_gone<T>(&mut self, answer: Result<T>) -> Result<T> {
        match answer {
            Err(error)
                if !error.is_dialog_open()
                    && !error.is_browser_gone()
                    && !matches!(error, DriverError::Script { .. }) =>
            {
                self.focus_current().await?;
                Err(error)
            }
            other => other,
        }
    }

    /// The current tab; if the page closed it, the most recent tab becomes
    /// current and the error names the one that is gone.
    pub(crate) async fn focus_current(&mut self) -> Result<()> {
        let handles = self.handles().await?;
        if handles.contains(&self.current) {
            return Ok(());
        }
        let gone = std::mem::take(&mut self.current);
        match self.known.last().cloned() {
            Some(latest) => self.switch(&latest).await?,
            None => {
                let created = self.client.new_window(true).await.map_err(sort)?;
                let handle: String = created.handle.into();
                self.known.push(handle.clone());
                self.switch(&handle).await?;
            }
        }
        Err(DriverError::NoSuchTab { id: gone })
    }

    /// The window handles, oldest first, remembering new ones.
    pub(crate) async fn handles(&mut self) -> Result<Vec<String>> {
        let handles: Vec<String> = self
            .client
            .windows()
            .await
            .map_err(sort)?
            .into_iter()
            .map(Into::into)
            .collect();
        self.known.retain(|known| handles.contains(known));
        self.hooked.retain(|hooked| handles.contains(hooked));
        for handle in &handles {
            if !self.known.contains(handle) {
                self.known.push(handle.clone());
            }
        }
        Ok(self.known.clone())
    }

    /// Makes `handle` the current tab: WebDriver's window, and the one the
    /// DevTools socket attends to (its dialogs, its screencast).
    pub(crate) async fn switch(&mut self, handle: &str) -> Result<()> {
        self.visit(handle).await?;
        if let Some(relay) = &self.relay {
            relay.current(handle).await;
        }
        Ok(())
    }

    /// Makes `handle` WebDriver's window for a moment, to read or close it
    /// (`tabs`, `close_tab`): the DevTools socket does not follow, so a
    /// listing does not attach to every tab or move the screencast.
    async fn visit(&mut self, handle: &str) -> Result<()> {
        self.client
            .switch_to_window(WindowHandle::try_from(handle.to_owned()).map_err(|_| {
                DriverError::NoSuchTab {
                    id: handle.to_owned(),
                }
            })?)
            .await
            .map_err(sort)?;
        self.current = handle.to_owned();
        self.hook_current().await;
        Ok(())
    }

    /// Every tab with its title and URL (WebDriver reads those only of the
    /// tab it is in, so it visits each and comes back).
    pub(crate) async fn tabs(&mut self) -> Result<Vec<Tab>> {
        let _ = self.focus_current().await;
        let current = self.current.clone();
        let mut tabs = Vec::new();
        for handle in self.handles().await? {
            self.visit(&handle).await?;
            // A tab under a dialog cannot be asked its title (chromedriver
            // says so, or answers with nothing at all while dialogs come and
            // go): leave it blank rather than fail the whole list.
            let title = match self.client.title().await.map_err(sort) {
                Err(DriverError::DialogOpen { .. } | DriverError::Protocol(_)) => String::new(),
                other => other?,
            };
            let url = self
                .client
                .current_url()
                .await
                .map(|url| url.to_string())
                .unwrap_or_default();
            tabs.push(Tab {
                current: handle == current,
                id: TabId(handle),
                title: title.into(),
                url: url.into(),
            });
        }
        self.visit(&current).await?;
        Ok(tabs)
    }

    /// One WebDriver call, where [`tabs`](Self::tabs) visits every window.
    pub(crate) async fn tab_ids(&mut self) -> Result<Vec<TabId>> {
        Ok(self.handles().await?.into_iter().map(TabId).collect())
    }

    pub(crate) async fn open_tab(&mut self) -> Result<TabId> {
        let created = self.client.new_window(true).await.map_err(sort)?;
        let handle: String = created.handle.into();
        self.handles().await?;
        self.switch(&handle).await?;
        Ok(TabId(handle))
    }

    pub(crate) async fn switch_tab(&mut self, id: &TabId) -> Result<()> {
        if !self.handles().await?.contains(&id.0) {
            return Err(DriverError::NoSuchTab { id: id.0.clone() });
        }
        self.switch(&id.0).await
    }

    pub(crate) async fn close_tab(&mut self, id: &TabId) -> Result<()> {
        if !self.handles().await?.contains(&id.0) {
            return Err(DriverError::NoSuchTab { id: id.0.clone() });
        }
        let back_to = self.current.clone();
        if self.known.len() == 1 {
            // chromedriver ends the session with its last window: open the
            // blank tab that takes its place first.
            let created = self.client.new_window(true).await.map_err(sort)?;
            self.known.push(created.handle.into());
        }
        self.visit(&id.0).await?;
        self.client.close_window().await.map_err(sort)?;
        let left = self.handles().await?;
        if back_to != id.0 && left.contains(&back_to) {
            return self.switch(&back_to).await;
        }
        match left.last() {
            Some(latest) => {
                let latest = latest.clone();
                self.switch(&latest).await
            }
            None => {
                let created = self.client.new_window(true).await.map_err(sort)?;
                let handle: String = created.handle.into();
                self.known.push(handle.clone());
                self.switch(&handle).await
            }
        }
    }

    pub(crate) async fn viewport(&mut self) -> Result<Viewport> {
        self.focus_current().await?;
        let size = self
            .client
            .execute("return [innerWidth, innerHeight];", vec![])
            .await
            .map_err(sort);
        match size {
            Ok(size) => driver_core::backend::locate::viewport_of(&size[0], &size[1]),
            // A page no script runs in: the layout metrics, through the
            // CDP bridge, say the same.
            Err(DriverError::Unscriptable { .. }) => {
                let metrics = self
                    .cdp(names::PAGE_GET_LAYOUT_METRICS, serde_json::json!({}))
                    .await?;
                let layout = &metrics["cssLayoutViewport"];
                driver_core::backend::locate::viewport_of(
                    &layout["clientWidth"],
                    &layout["clientHeight"],
                )
            }
            Err(other) => Err(other),
        }
    }

    /// Sizes the window so that the viewport (not the window) has the size
    /// asked for: set, measure the difference the browser's frame makes, set
    /// again.
    pub(crate) async fn set_viewport_size(&mut self, viewport: Viewport) -> Result<()> {
        self.client
            .set_window_size(viewport.width, viewport.height)
            .await
            .map_err(sort)?;
        let inner = self.viewport().await?;
        if inner != viewport {
            let width = viewport.width + viewport.width.saturating_sub(inner.width);
            let height = viewport.height + viewport.height.saturating_sub(inner.height);
            self.client
                .set_window_size(width, height)
                .await
                .map_err(sort)?;
        }
        Ok(())
    }
}
