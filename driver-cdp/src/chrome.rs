//! One Chrome the backend drives: its process and profile when we started
//! it, the DevTools connection, and what its events say (the registry). A
//! browser of one session's own, or one that several sessions share, each
//! in a browser context of its own.

use chromiumoxide::cdp::browser_protocol::browser::{
    BrowserContextId, CloseParams, SetDownloadBehaviorBehavior, SetDownloadBehaviorParams,
};
use chromiumoxide::cdp::browser_protocol::target::{
    CreateBrowserContextParams, DisposeBrowserContextParams, SetDiscoverTargetsParams,
};
use driver_core::backend::devtools::{names, pages_go, DevToolsSocket};
use parking_lot::Mutex;
use serde::Deserialize;
use serde_json::json;

use driver_core::backend::launch::{self, ChromeProcess, Profile};
use driver_core::{DriverError, Options, Result};

use crate::client::{decode, Client};
use crate::events;
use crate::registry::{SharedRegistry, TargetInfo};

/// A running (or connected) browser.
///
/// Field order matters for `Drop`: the process is killed before the
/// temporary profile is deleted, since Chrome writes into it until it dies.
pub(crate) struct Chrome {
    pub client: Client,
    pub registry: SharedRegistry,
    process: Mutex<Option<ChromeProcess>>,
    /// How many sessions live in it (a share of its memory is each's).
    sessions: std::sync::atomic::AtomicUsize,
    /// Tracing is the whole browser's: one trace at a time (`memory`).
    pub(crate) tracing: tokio::sync::Mutex<()>,
    /// Held while documents are held for judging or let go browser-wide
    /// (`hold_pages`, `release_pages`), so one session's release never
    /// follows another's hold.
    holding: tokio::sync::Mutex<()>,
    _profile: Option<Profile>,
}

impl Chrome {
    /// Starts Chrome with `options` (or connects to `options.endpoint`) and
    /// follows its events: every target is discovered and attached, and
    /// downloads in its default context are refused.
    pub async fn start(options: &Options) -> Result<Self> {
        options.refuse_local_only()?;
        let (client, process, profile) = match &options.endpoint {
            Some(endpoint) => (
                Client::connect(&remote_ws_url(endpoint).await?).await?,
                None,
                None,
            ),
            None => {
                let (client, process, profile) = launch_chrome(options).await?;
                (client, Some(process), Some(profile))
            }
        };
        let registry = SharedRegistry::new();
        // The tab Chrome opened at start may be attached as soon as
        // auto-attach is on: its context must be ready for it by then.
        registry.prepare(&None, options);
        // Events are handled as they are read, before any answer after
        // them (with a handle on the socket that does not keep it open).
        client.listen(std::sync::Arc::new({
            let registry = registry.clone();
            move |socket, event| events::handle(&Client::over(socket.clone()), &registry, event)
        }));
        let browser = Self {
            client,
            registry,
            process: Mutex::new(process),
            sessions: std::sync::atomic::AtomicUsize::new(0),
            tracing: tokio::sync::Mutex::new(()),
            holding: tokio::sync::Mutex::new(()),
            _profile: profile,
        };
        let client = &browser.client;
        client
            .order(None, SetDiscoverTargetsParams::new(true))
            .await?;
        client.order(None, events::auto_attach()).await?;
        browser.set_downloads(None, None).await?;
        Ok(browser)
    }

    /// Whether this process started the browser (and so ends it).
    pub fn is_ours(&self) -> bool {
        self.process.lock().is_some()
    }

    /// Why the browser is gone, if it is: the connection closed, or the
    /// process we started exited.
    pub fn gone(&self) -> Option<String> {
        self.client.gone_reason().or_else(|| {
            self.process
                .lock()
                .as_mut()
                .is_some_and(ChromeProcess::has_exited)
                .then(|| "the Chrome process exited".to_owned())
        })
    }

    /// Sets what becomes of downloads in a browser context (`None`: the
    /// default one): refused (`dir` `None`), or landing in `dir`, each
    /// under a name of Chrome's (its guid) until it is whole. Either way
    /// their events say what happened.
    pub async fn set_downloads(
        &self,
        context: Option<&str>,
        dir: Option<&std::path::Path>,
    ) -> Result<()> {
        let mut params = SetDownloadBehaviorParams::new(SetDownloadBehaviorBehavior::Deny);
        params.events_enabled = Some(true);
        if let Some(dir) = dir {
            std::fs::create_dir_all(dir).map_err(|error| DriverError::Launch {
                reason: format!(
                    "cannot make the downloads folder {}: {error}",
                    dir.display()
                ),
            })?;
            params.behavior = SetDownloadBehaviorBehavior::AllowAndName;
            params.download_path = Some(dir.to_string_lossy().into_owned());
        }
        params.browser_context_id = context.map(BrowserContextId::new);
        self.client.order(None, params).await?;
        Ok(())
    }

    /// Makes a browser context: separate cookies, storage and cache, its
    /// requests through `proxy` (loopback included), downloads refused; it
    /// goes when our connection does.
    pub async fn create_context(&self, proxy: Option<&str>) -> Result<String> {
        let params = CreateBrowserContextParams {
            dispose_on_detach: Some(true),
            proxy_server: proxy.map(str::to_owned),
            proxy_bypass_list: proxy.map(|_| "<-loopback>".to_owned()),
            ..CreateBrowserContextParams::default()
        };
        let created = self.client.call(None, params).await?;
        let context: String = created.browser_context_id.into();
        self.set_downloads(Some(&context), None).await?;
        Ok(context)
    }

    /// Ends a browser context and every tab in it.
    pub async fn dispose_context(&self, context: &str) {
        let _ = self
            .client
            .order(None, DisposeBrowserContextParams::new(context.to_owned()))
            .await;
        self.registry.forget(&Some(context.to_owned()));
        self.release_pages().await;
    }

    /// Holds every tab's top-level documents for judging, browser-wide
    /// (`driver_core::backend::devtools::pages_go`), once a session's
    /// context has its gate.
    pub async fn hold_pages(&self) -> Result<()> {
        let _holding = self.holding.lock().await;
        pages_go::hold(self.client.socket()).await
    }

    /// Lets documents go unheld again once no session has a gate: holding
    /// them costs every request of every page a detour in the browser.
    pub async fn release_pages(&self) {
        let _holding = self.holding.lock().await;
        let gated = self.registry.read(|registry| {
            registry
                .by_context
                .values()
                .any(|context| context.pages_go.is_some())
        });
        if !gated {
            let _ = pages_go::release(self.client.socket()).await;
        }
    }

    /// Every target Chrome has, as `Target.getTargets` lists them.
    pub async fn targets(&self) -> Result<Vec<TargetInfo>> {
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Targets {
            target_infos: Vec<TargetInfo>,
        }
        let targets: Targets = decode(
            self.client
                .call_raw(None, names::TARGET_GET_TARGETS, json!({}))
                .await?,
        )?;
        Ok(targets.target_infos)
    }

    /// Ends the browser if we started it: `Browser.close`, then the process
    /// group is killed and reaped (the profile goes on drop). A browser we
    /// connected to keeps running.
    pub async fn close(&self) {
        let process = self.process.lock().take();
        if let Some(mut process) = process {
            let _ = tokio::time::timeout(
                launch::SHUTDOWN_GRACE,
                self.client.order(None, CloseParams::default()),
            )
            .await;
            let _ =
                tokio::task::spawn_blocking(move || process.shutdown(launch::SHUTDOWN_GRACE)).await;
        }
    }

    /// A session began in this browser.
    pub fn joined(&self) {
        self.sessions
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    /// A session in this browser ended.
    pub fn left(&self) {
        let _ = self.sessions.fetch_update(
            std::sync::atomic::Ordering::Relaxed,
            std::sync::atomic::Ordering::Relaxed,
            |count| count.checked_sub(1),
        );
    }

    /// How many sessions live in this browser.
    pub fn sessions(&self) -> usize {
        self.sessions.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The process ids of the browser we started (its process group), for
    /// tests and measurements; none for a connected one.
    pub fn pid(&self) -> Option<u32> {
        self.process.lock().as_ref().map(ChromeProcess::pid)
    }
}

/// Starts Chrome with our flags and a fresh (or the configured) profile,
/// driven over a pipe (`--remote-debugging-pipe`): it opens no DevTools
/// port, so no other process of this machine can drive it around the
/// guard. Answers once it has answered a first command.
async fn launch_chrome(options: &Options) -> Result<(Client, ChromeProcess, Profile)> {
    let timeout = options.timeout;
    let options = options.clone();
    let (process, profile, to, from) = tokio::task::spawn_blocking(move || {
        let executable = launch::find_chrome(options.executable.as_deref())?;
        let major = launch::chrome_major_version(&executable);
        let profile = Profile::prepare(&options)?;
        let mut args = launch::chrome_flags(&options, profile.path(), major);
        args.insert(0, "--remote-debugging-pipe".to_owned());
        args.push("about:blank".to_owned());
        let (process, to, from) = ChromeProcess::spawn_piped(&executable, &args)?;
        Ok::<_, DriverError>((process, profile, to, from))
    })
    .await
    .map_err(|error| DriverError::Launch {
        reason: format!("the launch task failed: {error}"),
    })??;
    let socket = DevToolsSocket::over_pipe(to, from).map_err(|reason| DriverError::Launch {
        reason: format!("cannot speak to Chrome: {reason}"),
    })?;
    let answered =
        tokio::time::timeout(timeout, socket.call(None, "Browser.getVersion", json!({}))).await;
    match answered {
        Ok(Ok(_)) => Ok((Client::over(socket), process, profile)),
        Ok(Err(error)) => Err(DriverError::Launch {
            reason: format!(
                "Chrome did not answer at start ({error}); its last output: {}",
                process.stderr_tail()
            ),
        }),
        Err(_) => Err(DriverError::Launch {
            reason: format!(
                "Chrome did not answer within {} ms of its start; its last output: {}",
                timeout.as_millis(),
                process.stderr_tail()
            ),
        }),
    }
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
