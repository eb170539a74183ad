//! One session: a set of tabs, one of them current, in a browser of its own
//! or in a browser context of its own in a shared browser; and what a call
//! does to its tabs.

use std::sync::Arc;

use chromiumoxide::cdp::browser_protocol::browser::BrowserContextId;
use chromiumoxide::cdp::browser_protocol::page::{
    BringToFrontParams, StartScreencastFormat, StartScreencastParams, StopScreencastParams,
};
use chromiumoxide::cdp::browser_protocol::target::{
    AttachToTargetParams, CloseTargetParams, CreateTargetParams,
};

use driver_core::backend::screencast;
use driver_core::{DriverError, Options, Result, Tab, TabId, Viewport};

use crate::chrome::Chrome;
use crate::client::Client;
use crate::events;
use crate::registry::{SharedRegistry, TabRecord};

/// One CDP browser session (what a [`CdpDriver`](crate::CdpDriver)
/// drives): its browser, its context and tabs, the current one. Made by the
/// driver on its first call; nothing of it is public but its trait.
pub struct CdpSession {
    pub(crate) browser: Arc<Chrome>,
    pub(crate) client: Client,
    pub(crate) registry: SharedRegistry,
    pub(crate) current: Option<TabId>,
    /// The browser context the session's tabs live in: one of its own in a
    /// shared browser (made with its guard's proxy), or in a remote browser
    /// with a proxy (a context's proxy is the one place it can still be set).
    /// `None`: the browser's default context.
    pub(crate) context: Option<String>,
    /// Whether ending the session ends the browser (one started for it).
    pub(crate) owns_browser: bool,
    /// Tabs this session opened in a browser it neither started nor has a
    /// context of its own in: closed when it ends.
    opened: Vec<TabId>,
    /// The screencast, when the session has a live view: which tab it
    /// pictures, and whether it runs (only while someone looks).
    pub(crate) cast: Option<screencast::SharedCast>,
    /// The registry's count of opened tabs when the current one was last
    /// brought to the front.
    fronted: u64,
    /// The session's memory budget (`Options::memory_budget_mb`), in KiB.
    pub(crate) budget_kib: Option<u64>,
    /// What it knows of its tabs' renderers.
    pub(crate) renderers: crate::renderers::Renderers,
}

impl CdpSession {
    /// The tab on the flat DevTools session `flat`, to act on.
    pub(crate) fn page<'a>(&'a self, flat: &'a str) -> crate::page::Page<'a> {
        crate::page::Page::new(&self.client, &self.registry, flat)
    }

    /// Starts Chrome (or connects to `options.endpoint`) for this session
    /// alone, and attaches to its first tab.
    pub(crate) async fn start_alone(options: &Options) -> Result<Self> {
        let browser = Arc::new(Chrome::start(options).await?);
        let owns_browser = browser.is_ours();
        // A browser we did not start has its own flags: a context of our own
        // is the one place its proxy can still be set.
        let context = match (&options.proxy, owns_browser) {
            (Some(proxy), false) => Some(browser.create_context(Some(proxy)).await?),
            _ => None,
        };
        Self::open(browser, context, owns_browser, options).await
    }

    /// A session in a browser others share: a browser context of its own,
    /// its requests through `options.proxy` (this session's guard).
    pub(crate) async fn start_in(browser: Arc<Chrome>, options: &Options) -> Result<Self> {
        let context = browser.create_context(options.proxy.as_deref()).await?;
        Self::open(browser, Some(context), false, options).await
    }

    /// Gets the session's context ready and makes its first tab current: the
    /// tab Chrome opened at start in a browser of the session's own, a new
    /// one otherwise.
    async fn open(
        browser: Arc<Chrome>,
        context: Option<String>,
        owns_browser: bool,
        options: &Options,
    ) -> Result<Self> {
        browser.registry.prepare(&context, options);
        if options.pages_go.is_some() {
            browser.hold_pages().await?;
        }
        let network_log = options.network_log;
        browser.registry.update(|registry| {
            registry.context(&context).network_log = network_log;
        });
        if let Some(downloads) = &options.downloads {
            browser
                .set_downloads(context.as_deref(), Some(&downloads.dir))
                .await?;
            let policy = downloads.clone();
            browser.registry.update(|registry| {
                registry.context(&context).download_policy = Some(policy);
            });
        }
        let mut session = Self {
            client: browser.client.clone(),
            registry: browser.registry.clone(),
            browser,
            current: None,
            context,
            owns_browser,
            opened: Vec::new(),
            cast: options
                .on_frame
                .is_some()
                .then(screencast::SharedCast::default),
            fronted: 0,
            budget_kib: options.memory_budget_mb.map(|mb| mb.saturating_mul(1024)),
            renderers: crate::renderers::Renderers::default(),
        };
        if let Some(cast) = &session.cast {
            tokio::spawn(screencast::follow_looks(
                Arc::downgrade(cast),
                options.frames_wanted.clone(),
                toggle(session.client.clone()),
            ));
        }
        let first = if owns_browser {
            session.attach_existing_page().await?
        } else {
            session.create_own_tab().await?
        };
        session.wait_ready(&first).await;
        session.make_current(&first).await;
        // Counted from here: a session that failed to open never ends.
        session.browser.joined();
        Ok(session)
    }

    /// Attaches to the page Chrome opened at start (auto-attach covers only
    /// targets created from now on).
    async fn attach_existing_page(&self) -> Result<TabId> {
        let page = self
            .browser
            .targets()
            .await?
            .into_iter()
            .find(|info| info.kind == "page");
        match page {
            Some(page) => {
                if !page.attached {
                    let mut attach = AttachToTargetParams::new(page.target_id.clone());
                    attach.flatten = Some(true);
                    self.client.order(None, attach).await?;
                }
                Ok(TabId(page.target_id))
            }
            None => self.create_tab().await,
        }
    }

    /// Creates a blank tab and returns its id once it is attached and ready.
    pub(crate) async fn create_tab(&self) -> Result<TabId> {
        let mut params = CreateTargetParams::new("about:blank");
        params.browser_context_id = self.context.clone().map(BrowserContextId::new);
        let created = self.client.call(None, params).await?;
        let id = TabId(created.target_id.into());
        self.wait_ready(&id).await;
        Ok(id)
    }

    /// Waits until a tab is attached and its settings are applied.
    pub(crate) async fn wait_ready(&self, id: &TabId) {
        self.registry
            .wait_until(|registry| registry.tab(id).filter(|tab| tab.ready).map(|_| ()))
            .await;
    }

    /// Makes `id` current, moving the screencast (if one runs) along with
    /// it.
    pub(crate) async fn make_current(&mut self, id: &TabId) {
        self.current = Some(id.clone());
        self.fronted = self.registry.read(|registry| registry.tabs_opened);
        let flat = self.session_of(id);
        if let Some(session) = &flat {
            let _ = self
                .client
                .order(Some(session), BringToFrontParams::default())
                .await;
        }
        if let Some(cast) = &self.cast {
            screencast::move_to(cast, flat, &toggle(self.client.clone())).await;
        }
    }

    /// The flat session id of a tab, if the tab is still there (and is one
    /// of ours: in a remote browser with a proxy, only our context's tabs).
    pub(crate) fn session_of(&self, id: &TabId) -> Option<String> {
        self.registry.read(|registry| {
            registry
                .tab(id)
                .filter(|tab| self.is_ours(tab))
                .and_then(|tab| tab.session.clone())
        })
    }

    /// The most recently opened of our tabs.
    fn latest_tab(&self) -> Option<TabId> {
        self.registry.read(|registry| {
            registry
                .tabs
                .iter()
                .rev()
                .find(|tab| self.is_ours(tab))
                .map(|tab| tab.id.clone())
        })
    }

    /// The session's tabs.
    pub(crate) fn our_tabs(&self) -> Vec<TabId> {
        self.registry.read(|registry| {
            registry
                .tabs
                .iter()
                .filter(|tab| self.is_ours(tab))
                .map(|tab| tab.id.clone())
                .collect()
        })
    }

    fn is_ours(&self, tab: &TabRecord) -> bool {
        self.context.is_none() || tab.context == self.context
    }

    /// The session of the current tab. If the page closed it, the most recent
    /// remaining tab becomes current and the error says which tab is gone.
    pub(crate) async fn current_session(&mut self) -> Result<String> {
        let current = self.current.clone();
        if let Some(session) = current.as_ref().and_then(|id| self.session_of(id)) {
            // A tab opened since (a popup) came to the front: input sent to
            // a tab behind it waits seconds for a frame that never comes.
            let opened = self.registry.read(|registry| registry.tabs_opened);
            if opened != self.fronted {
                self.fronted = opened;
                let _ = self
                    .client
                    .order(Some(&session), BringToFrontParams::default())
                    .await;
            }
            return Ok(session);
        }
        let fallback = self.latest_tab();
        match fallback {
            Some(id) => self.make_current(&id).await,
            None => {
                let id = self.create_own_tab().await?;
                self.make_current(&id).await;
            }
        }
        let id = current.unwrap_or_else(|| TabId(String::new()));
        if self.registry.crashed(&id) {
            return Err(DriverError::TabCrashed { id: id.0 });
        }
        Err(DriverError::NoSuchTab { id: id.0 })
    }

    /// The tabs, oldest first, with titles and URLs fresh from Chrome (the
    /// change events lag behind a document's `<title>`).
    pub(crate) async fn fresh_tabs(&self) -> Result<Vec<Tab>> {
        let targets = self.browser.targets().await?;
        self.registry.refresh(
            targets
                .into_iter()
                .map(|info| (info.target_id, info.url, info.title)),
        );
        Ok(self.listed_tabs())
    }

    fn listed_tabs(&self) -> Vec<Tab> {
        self.registry.read(|registry| {
            registry
                .tabs
                .iter()
                .filter(|tab| self.is_ours(tab))
                .map(|tab: &TabRecord| Tab {
                    id: tab.id.clone(),
                    title: tab.title.clone().into(),
                    url: tab.url.clone().into(),
                    current: Some(&tab.id) == self.current.as_ref(),
                })
                .collect()
        })
    }

    /// Closes a tab and waits until Chrome reports it gone.
    pub(crate) async fn close_own_tab(&mut self, id: &TabId) -> Result<()> {
        if self.session_of(id).is_none() {
            return Err(DriverError::NoSuchTab { id: id.0.clone() });
        }
        self.client
            .order(None, CloseTargetParams::new(id.0.clone()))
            .await?;
        self.registry
            .wait_until(|registry| registry.tab(id).is_none().then_some(()))
            .await;
        self.opened.retain(|opened| opened != id);
        if self.current.as_ref() == Some(id) {
            let next = self.latest_tab();
            let next = match next {
                Some(next) => next,
                None => self.create_own_tab().await?,
            };
            self.make_current(&next).await;
        }
        Ok(())
    }

    /// Opens a blank tab, makes it current, and returns its id.
    pub(crate) async fn open_own_tab(&mut self) -> Result<TabId> {
        let id = self.create_own_tab().await?;
        self.make_current(&id).await;
        Ok(id)
    }

    /// A new blank tab, remembered to be closed when the session ends if
    /// the session neither ends the browser nor has a context that takes its
    /// tabs along.
    async fn create_own_tab(&mut self) -> Result<TabId> {
        let id = self.create_tab().await?;
        if !self.owns_browser && self.context.is_none() {
            self.opened.push(id.clone());
        }
        Ok(id)
    }

    /// Resizes the viewport of the session's tabs, and of those it opens
    /// from now on.
    pub(crate) async fn resize(&mut self, viewport: Viewport) -> Result<()> {
        let sessions = self.registry.set_viewport(&self.context, viewport);
        for session in sessions {
            self.client
                .order(Some(&session), events::metrics(viewport))
                .await?;
        }
        Ok(())
    }

    /// The session's console entries since the last call.
    pub(crate) fn drain_console(&self) -> Vec<driver_core::ConsoleEntry> {
        self.registry.drain_console(&self.context)
    }

    /// The session's refused downloads since the last call.
    pub(crate) fn drain_downloads(&self) -> Vec<driver_core::Download> {
        self.registry.drain_downloads(&self.context)
    }

    /// Ends the session: the browser, if it was started for this session
    /// (its process group killed, its temporary profile deleted); else the
    /// session's context with its tabs, or the tabs it opened.
    pub(crate) async fn end(mut self) {
        self.browser.left();
        if self.owns_browser {
            self.browser.close().await;
        } else if let Some(context) = self.context.take() {
            self.browser.dispose_context(&context).await;
        } else {
            for id in std::mem::take(&mut self.opened) {
                let _ = self
                    .client
                    .order(None, CloseTargetParams::new(id.0.clone()))
                    .await;
            }
        }
    }
}

/// The screencast's switch for a CDP session: starts or stops it on a
/// tab's DevTools session.
fn toggle(client: Client) -> screencast::Toggle {
    Arc::new(move |tab: Option<String>, on: bool| {
        let client = client.clone();
        Box::pin(async move {
            let Some(tab) = tab else { return };
            let _ = if on {
                let cast = StartScreencastParams {
                    format: Some(StartScreencastFormat::Jpeg),
                    quality: Some(screencast::QUALITY),
                    every_nth_frame: Some(1),
                    ..StartScreencastParams::default()
                };
                client.order(Some(&tab), cast).await
            } else {
                client
                    .order(Some(&tab), StopScreencastParams::default())
                    .await
            };
        })
    })
}
