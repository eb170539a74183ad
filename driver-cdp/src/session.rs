//! One running (or connected) browser: its process, profile, connection,
//! tabs, and how it starts and ends.

use std::time::Duration;

use serde::Deserialize;
use serde_json::json;
use tokio::task::JoinHandle;

use driver_core::backend::launch::{self, ChromeProcess, Profile};
use driver_core::backend::supervisor::{self, BoxFuture};
use driver_core::{DriverError, Options, Result, Tab, TabId, Viewport};

use crate::client::Client;
use crate::registry::{self, SharedRegistry, TabRecord, TargetInfo};

/// How long `Browser.close` may take before the process group is killed.
const CLOSE_GRACE: Duration = Duration::from_millis(1500);

/// How long a reader waits for the event task to record what has come in.
const CATCH_UP_LIMIT: Duration = Duration::from_millis(500);

/// How long the clean-up after a timed-out call may take.
const RECOVERY_LIMIT: Duration = Duration::from_secs(2);

/// A live browser session.
///
/// Field order matters for `Drop`: the process is killed before the
/// temporary profile is deleted, since Chrome writes into it until it dies.
pub(crate) struct Session {
    pub client: Client,
    pub registry: SharedRegistry,
    pub current: Option<TabId>,
    events: JoinHandle<()>,
    process: Option<ChromeProcess>,
    _profile: Option<Profile>,
    /// Tabs this driver opened in a remote browser, closed on disconnect.
    opened_remotely: Vec<TabId>,
    /// In a remote browser with a proxy: the browser context our tabs live
    /// in, created with that proxy (a context's proxy applies to its tabs).
    context: Option<String>,
    screencast: bool,
    /// The registry's count of opened tabs when the current one was last
    /// brought to the front.
    fronted: u64,
}

impl Session {
    /// Starts Chrome (or connects to `options.endpoint`) and attaches to its
    /// first tab.
    pub async fn start(options: &Options) -> Result<Self> {
        let (ws_url, process, profile) = match &options.endpoint {
            Some(endpoint) => (remote_ws_url(endpoint).await?, None, None),
            None => {
                let (url, process, profile) = launch_chrome(options).await?;
                (url, Some(process), Some(profile))
            }
        };
        let client = Client::connect(&ws_url).await?;
        let viewport = Viewport {
            width: options.width,
            height: options.height,
        };
        let registry = SharedRegistry::new(viewport);
        let events = tokio::spawn(registry::follow_events(
            client.clone(),
            registry.clone(),
            options.on_frame.clone(),
        ));
        let remote = process.is_none();
        let mut session = Self {
            client,
            registry,
            current: None,
            events,
            process,
            _profile: profile,
            opened_remotely: Vec::new(),
            context: None,
            screencast: options.on_frame.is_some(),
            fronted: 0,
        };
        session
            .attach_to_pages(remote, options.proxy.as_deref())
            .await?;
        Ok(session)
    }

    /// Turns on target discovery and auto-attach, then makes the first tab
    /// current (a new one in a remote browser, whose tabs are not ours).
    async fn attach_to_pages(&mut self, remote: bool, proxy: Option<&str>) -> Result<()> {
        if let (true, Some(proxy)) = (remote, proxy) {
            // A browser we did not start has its own flags; a context of our
            // own is the one place its proxy can still be set.
            #[derive(Deserialize)]
            #[serde(rename_all = "camelCase")]
            struct Created {
                browser_context_id: String,
            }
            let created: Created = decode(
                self.client
                    .call_raw(
                        None,
                        "Target.createBrowserContext",
                        json!({ "proxyServer": proxy, "proxyBypassList": "<-loopback>", "disposeOnDetach": true }),
                    )
                    .await?,
            )?;
            self.context = Some(created.browser_context_id);
        }
        let client = &self.client;
        client
            .call_raw(
                None,
                "Target.setDiscoverTargets",
                json!({ "discover": true }),
            )
            .await?;
        client
            .call_raw(None, "Target.setAutoAttach", registry::auto_attach())
            .await?;
        client
            .call_raw(
                None,
                "Browser.setDownloadBehavior",
                json!({ "behavior": "deny", "eventsEnabled": true }),
            )
            .await?;
        if let Some(context) = &self.context {
            client
                .call_raw(
                    None,
                    "Browser.setDownloadBehavior",
                    json!({ "behavior": "deny", "eventsEnabled": true, "browserContextId": context }),
                )
                .await?;
        }
        let first = if remote {
            let id = self.create_tab().await?;
            self.opened_remotely.push(id.clone());
            id
        } else {
            self.attach_existing_page().await?
        };
        self.wait_ready(&first).await;
        self.make_current(&first).await;
        Ok(())
    }

    /// Attaches to the page Chrome opened at start (auto-attach covers only
    /// targets created from now on).
    async fn attach_existing_page(&self) -> Result<TabId> {
        let page = self
            .targets()
            .await?
            .into_iter()
            .find(|info| info.kind == "page");
        match page {
            Some(page) => {
                if !page.attached {
                    self.client
                        .call_raw(
                            None,
                            "Target.attachToTarget",
                            json!({ "targetId": page.target_id, "flatten": true }),
                        )
                        .await?;
                }
                Ok(TabId(page.target_id))
            }
            None => self.create_tab().await,
        }
    }

    /// Creates a blank tab and returns its id once it is attached and ready.
    pub async fn create_tab(&self) -> Result<TabId> {
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Created {
            target_id: String,
        }
        let mut params = json!({ "url": "about:blank" });
        if let Some(context) = &self.context {
            params["browserContextId"] = json!(context);
        }
        let created: Created = decode(
            self.client
                .call_raw(None, "Target.createTarget", params)
                .await?,
        )?;
        let id = TabId(created.target_id);
        self.wait_ready(&id).await;
        Ok(id)
    }

    /// Waits until a tab is attached and its settings are applied.
    pub async fn wait_ready(&self, id: &TabId) {
        self.registry
            .wait_until(|registry| registry.tab(id).filter(|tab| tab.ready).map(|_| ()))
            .await;
    }

    /// Makes `id` current, moving the screencast along with it.
    pub async fn make_current(&mut self, id: &TabId) {
        if self.screencast {
            if let Some(old) = self.current.as_ref().and_then(|old| self.session_of(old)) {
                let _ = self
                    .client
                    .call_raw(Some(&old), "Page.stopScreencast", json!({}))
                    .await;
            }
        }
        self.current = Some(id.clone());
        self.fronted = self.registry.read(|registry| registry.tabs_opened);
        if let Some(session) = self.session_of(id) {
            let _ = self
                .client
                .call_raw(Some(&session), "Page.bringToFront", json!({}))
                .await;
            if self.screencast {
                let _ = self
                    .client
                    .call_raw(
                        Some(&session),
                        "Page.startScreencast",
                        json!({ "format": "jpeg", "quality": 70, "everyNthFrame": 1 }),
                    )
                    .await;
            }
        }
    }

    /// The flat session id of a tab, if the tab is still there (and is one
    /// of ours: in a remote browser with a proxy, only our context's tabs).
    pub fn session_of(&self, id: &TabId) -> Option<String> {
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

    fn is_ours(&self, tab: &TabRecord) -> bool {
        self.context.is_none() || tab.context == self.context
    }

    /// The session of the current tab. If the page closed it, the most recent
    /// remaining tab becomes current and the error says which tab is gone.
    pub async fn current_session(&mut self) -> Result<String> {
        let current = self.current.clone();
        if let Some(session) = current.as_ref().and_then(|id| self.session_of(id)) {
            // A tab opened since (a popup) came to the front: input sent to
            // a tab behind it waits seconds for a frame that never comes.
            let opened = self.registry.read(|registry| registry.tabs_opened);
            if opened != self.fronted {
                self.fronted = opened;
                let _ = self
                    .client
                    .call_raw(Some(&session), "Page.bringToFront", json!({}))
                    .await;
            }
            return Ok(session);
        }
        let fallback = self.latest_tab();
        match fallback {
            Some(id) => self.make_current(&id).await,
            None => {
                let id = self.create_tab().await?;
                self.make_current(&id).await;
            }
        }
        Err(DriverError::NoSuchTab {
            id: current.map(|id| id.0).unwrap_or_default(),
        })
    }

    /// The tabs, oldest first, with titles and URLs fresh from Chrome (the
    /// change events lag behind a document's `<title>`).
    pub async fn tabs(&self) -> Result<Vec<Tab>> {
        let targets = self.targets().await?;
        self.registry.refresh(
            targets
                .into_iter()
                .map(|info| (info.target_id, info.url, info.title)),
        );
        Ok(self.listed_tabs())
    }

    /// Every target Chrome has, as `Target.getTargets` lists them.
    async fn targets(&self) -> Result<Vec<TargetInfo>> {
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Targets {
            target_infos: Vec<TargetInfo>,
        }
        let targets: Targets = decode(
            self.client
                .call_raw(None, "Target.getTargets", json!({}))
                .await?,
        )?;
        Ok(targets.target_infos)
    }

    fn listed_tabs(&self) -> Vec<Tab> {
        self.registry.read(|registry| {
            registry
                .tabs
                .iter()
                .filter(|tab| self.is_ours(tab))
                .map(|tab: &TabRecord| Tab {
                    id: tab.id.clone(),
                    title: tab.title.clone(),
                    url: tab.url.clone(),
                    current: Some(&tab.id) == self.current.as_ref(),
                })
                .collect()
        })
    }

    /// Closes a tab and waits until Chrome reports it gone.
    pub async fn close_tab(&mut self, id: &TabId) -> Result<()> {
        if self.session_of(id).is_none() {
            return Err(DriverError::NoSuchTab { id: id.0.clone() });
        }
        self.client
            .call_raw(None, "Target.closeTarget", json!({ "targetId": id.0 }))
            .await?;
        self.registry
            .wait_until(|registry| registry.tab(id).is_none().then_some(()))
            .await;
        self.opened_remotely.retain(|opened| opened != id);
        if self.current.as_ref() == Some(id) {
            let next = self.latest_tab();
            let next = match next {
                Some(next) => next,
                None => {
                    let created = self.create_tab().await?;
                    if self.process.is_none() {
                        self.opened_remotely.push(created.clone());
                    }
                    created
                }
            };
            self.make_current(&next).await;
        }
        Ok(())
    }

    /// Opens a blank tab, makes it current, and returns its id.
    pub async fn open_tab(&mut self) -> Result<TabId> {
        let id = self.create_tab().await?;
        if self.process.is_none() {
            self.opened_remotely.push(id.clone());
        }
        self.make_current(&id).await;
        Ok(id)
    }

    /// One tab as [`Self::tabs`] would list it.
    pub async fn tab(&self, id: &TabId) -> Result<Tab> {
        self.tabs()
            .await?
            .into_iter()
            .find(|tab| &tab.id == id)
            .ok_or_else(|| DriverError::NoSuchTab { id: id.0.clone() })
    }

    /// Resizes every tab's viewport, and the tabs opened from now on.
    pub async fn set_viewport(&mut self, viewport: Viewport) -> Result<()> {
        let sessions = self.registry.set_viewport(viewport);
        for session in sessions {
            self.client
                .call_raw(
                    Some(&session),
                    "Emulation.setDeviceMetricsOverride",
                    registry::metrics(viewport),
                )
                .await?;
        }
        Ok(())
    }

    /// Waits until every event Chrome sent before now is recorded (briefly:
    /// they are already here, on their way to the event task).
    pub async fn catch_up(&self) {
        self.registry
            .caught_up(self.client.events_received(), CATCH_UP_LIMIT)
            .await;
    }

    /// The console entries since the last call.
    pub fn drain_console(&self) -> Vec<driver_core::ConsoleEntry> {
        self.registry.drain_console()
    }

    /// Whether the browser process we started has exited.
    pub fn process_exited(&mut self) -> bool {
        self.process.as_mut().is_some_and(ChromeProcess::has_exited)
    }

    /// Ends the session: closes Chrome (or, for a remote browser, the tabs we
    /// opened), kills what is left of its process group, and deletes the
    /// temporary profile (on drop).
    async fn end(mut self) {
        let close = async {
            if self.process.is_some() {
                let _ = self.client.call_raw(None, "Browser.close", json!({})).await;
            } else {
                for id in std::mem::take(&mut self.opened_remotely) {
                    let _ = self
                        .client
                        .call_raw(None, "Target.closeTarget", json!({ "targetId": id.0 }))
                        .await;
                }
            }
        };
        let _ = tokio::time::timeout(CLOSE_GRACE, close).await;
        if let Some(mut process) = self.process.take() {
            let _ = tokio::task::spawn_blocking(move || process.shutdown(CLOSE_GRACE)).await;
        }
    }
}

impl supervisor::Session for Session {
    fn gone(&mut self) -> Option<String> {
        self.client.gone_reason().or_else(|| {
            self.process_exited()
                .then(|| "the Chrome process exited".to_owned())
        })
    }

    /// What can end a call early: the connection closing, and for a page
    /// call a dialog opening in its tab, or the tab going away (a page may
    /// close its own window mid-click, and CDP never answers a command sent
    /// to a target that is gone). A current tab already gone when the call
    /// starts is the call's own business: it moves to another tab and says
    /// so (`current_session`).
    fn interruption(&mut self, needs_page: bool) -> BoxFuture<'static, DriverError> {
        let client = self.client.clone();
        let registry = self.registry.clone();
        let tab = self
            .current
            .clone()
            .filter(|tab| needs_page && registry.read(|registry| registry.tab(tab).is_some()));
        Box::pin(async move {
            let page = async {
                match tab {
                    Some(tab) => {
                        registry
                            .wait_until(|registry| match registry.tab(&tab) {
                                None => Some(DriverError::NoSuchTab { id: tab.0.clone() }),
                                Some(record) => {
                                    record.dialog.clone().map(|dialog| DriverError::DialogOpen {
                                        kind: dialog.kind,
                                        message: dialog.message,
                                    })
                                }
                            })
                            .await
                    }
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                biased;
                error = page => error,
                reason = client.until_gone() => DriverError::BrowserGone { reason },
            }
        })
    }

    /// Stops whatever script is spinning and whatever is still loading in
    /// the current tab, so the next call finds it usable.
    fn recover(&mut self) -> BoxFuture<'_, bool> {
        Box::pin(async move {
            let stop = async {
                let id = self.current.as_ref().and_then(|tab| self.session_of(tab))?;
                let client = &self.client;
                let _ = client
                    .call_raw(Some(&id), "Runtime.terminateExecution", json!({}))
                    .await;
                let _ = client
                    .call_raw(Some(&id), "Page.stopLoading", json!({}))
                    .await;
                Some(())
            };
            let _ = tokio::time::timeout(RECOVERY_LIMIT, stop).await;
            true
        })
    }

    fn shutdown(self) -> BoxFuture<'static, ()> {
        Box::pin(self.end())
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.events.abort();
    }
}

/// Starts Chrome with our flags and a fresh (or the configured) profile, and
/// reads its DevTools URL.
async fn launch_chrome(options: &Options) -> Result<(String, ChromeProcess, Profile)> {
    let options = options.clone();
    tokio::task::spawn_blocking(move || {
        let executable = launch::find_chrome(options.executable.as_deref())?;
        let major = launch::chrome_major_version(&executable);
        let profile = Profile::prepare(&options)?;
        let mut args = launch::chrome_flags(&options, profile.path(), major);
        // Port 0: Chrome picks a free port and prints it; nothing guessable.
        args.insert(0, "--remote-debugging-port=0".to_owned());
        args.push("about:blank".to_owned());
        let process = ChromeProcess::spawn(&executable, &args)?;
        let url = process.wait_for_devtools_url(options.timeout)?;
        Ok((url, process, profile))
    })
    .await
    .map_err(|error| DriverError::Launch {
        reason: format!("the launch task failed: {error}"),
    })?
}

/// The browser WebSocket URL of a remote endpoint: a `ws://` URL as it is, or
/// an `http://host:port` asked for its `/json/version`.
async fn remote_ws_url(endpoint: &str) -> Result<String> {
    if endpoint.starts_with("ws://") || endpoint.starts_with("wss://") {
        return Ok(endpoint.to_owned());
    }
    let base = url::Url::parse(endpoint).map_err(|error| {
        DriverError::InvalidArgument(format!(
            "the CDP endpoint {endpoint:?} is not a URL ({error}); give http://host:port or a ws:// DevTools URL"
        ))
    })?;
    let version_url = base.join("/json/version").map_err(|error| {
        DriverError::InvalidArgument(format!("the CDP endpoint {endpoint:?}: {error}"))
    })?;
    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Version {
        web_socket_debugger_url: String,
    }
    let unreachable = |error: reqwest::Error| DriverError::Launch {
        reason: format!("cannot reach the CDP endpoint {version_url}: {error}"),
    };
    let body = reqwest::get(version_url.clone())
        .await
        .map_err(unreachable)?
        .bytes()
        .await
        .map_err(unreachable)?;
    let version: Version = serde_json::from_slice(&body).map_err(|error| DriverError::Launch {
        reason: format!("{version_url} is not a DevTools endpoint: {error}"),
    })?;
    Ok(version.web_socket_debugger_url)
}

/// Decodes a command's JSON answer into the few fields we read.
pub(crate) fn decode<T: serde::de::DeserializeOwned>(value: serde_json::Value) -> Result<T> {
    serde_json::from_value(value)
        .map_err(|error| DriverError::Protocol(format!("unexpected answer from Chrome: {error}")))
}
