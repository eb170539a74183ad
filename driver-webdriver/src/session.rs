//! One WebDriver session: the chromedriver (when we started it), the
//! profile, the fantoccini client; how it starts, recovers and ends. What
//! each driver call does over it is in the modules named for the job
//! (`navigation`, `scripts`, `input`, `tabs`, …).

use driver_core::backend::devtools::names;
use std::time::Duration;

use fantoccini::wd::{TimeoutConfiguration, WebDriverCompatibleCommand};
use fantoccini::{Client, ClientBuilder};
use serde_json::{json, Value};

use driver_core::backend::launch::{self, Profile};
use driver_core::{DriverError, Options, Result, Viewport};

use crate::chromedriver::Chromedriver;
use crate::errors::sort;

/// How long the clean-up after a timed-out call may take.
const RECOVERY_LIMIT: Duration = Duration::from_secs(12);

/// How long connecting to the browser's DevTools socket may take at start.
const RELAY_LIMIT: Duration = Duration::from_secs(5);

/// How much earlier than our own deadline chromedriver's script and page-load
/// timeouts fire, so that it answers "timeout" itself and stays usable.
pub(crate) const REMOTE_TIMEOUT_MARGIN: Duration = Duration::from_millis(500);

/// A command fantoccini has no method for, sent as it is.
#[derive(Debug)]
struct Raw {
    method: http::Method,
    /// Appended to `/session/{id}/`.
    path: &'static str,
    body: Option<Value>,
}

impl WebDriverCompatibleCommand for Raw {
    fn endpoint(
        &self,
        base: &url::Url,
        session: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base.join(&format!(
            "session/{}/{}",
            session.unwrap_or_default(),
            self.path
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (
            self.method.clone(),
            self.body.as_ref().map(Value::to_string),
        )
    }
}

/// One WebDriver session (what a [`WebDriverDriver`](crate::WebDriverDriver)
/// drives): the chromedriver we started, if we did, the profile, the
/// fantoccini client, the tabs. Made by the driver on its first call;
/// nothing of it is public but its trait.
pub struct WdSession {
    pub(crate) client: Client,
    /// Window handles in the order they were first seen (oldest first).
    pub(crate) known: Vec<String>,
    pub(crate) current: String,
    chromedriver: Option<Chromedriver>,
    profile: Option<Profile>,
    /// The browser-level DevTools socket: the profile's (a chromedriver of
    /// ours) or a remote end's relay (Selenium Grid's `se:cdp`, its host
    /// the one we reached the end at); `None` where there is neither.
    socket_url: Option<String>,
    /// The connection to it, where it could be made (see `relay`).
    pub(crate) relay: Option<crate::relay::Relay>,
    /// How often a remote end hears from an idle session.
    pub(crate) keep_alive: Duration,
    /// The script timeout the remote end was given.
    pub(crate) script_limit: Duration,
    /// Each tab's network log, by window handle (chromedriver's handle is
    /// the tab's target id), when the session keeps one.
    pub(crate) network:
        Option<std::collections::HashMap<String, driver_core::backend::network::NetworkLog>>,
    /// The windows given the early hooks (driver-core's `listeners_js`).
    pub(crate) hooked: std::collections::HashSet<String>,
    /// The session's memory budget (`Options::memory_budget_mb`), in KiB.
    budget_kib: Option<u64>,
}

impl WdSession {
    /// The memory of the session's browser (all of it is the session's:
    /// chromedriver starts one per session), if it runs on this machine.
    pub(crate) fn memory(&self) -> Option<driver_core::Memory> {
        use driver_core::backend::procfs;
        let root = self.chromedriver.as_ref()?.pid();
        let mut memory = driver_core::Memory {
            budget_kib: self.budget_kib,
            ..driver_core::Memory::default()
        };
        for pid in procfs::tree(root) {
            let pss = procfs::pss_kib(pid).unwrap_or(0);
            if procfs::kind(pid).as_deref() == Some("renderer") {
                memory.renderers_kib += pss;
            } else {
                memory.browser_share_kib += pss;
            }
        }
        Some(memory)
    }

    /// Starts chromedriver (or uses `options.endpoint`) and opens a session
    /// whose Chrome has our flags.
    // (Over 100 lines: a session's start in its order (chromedriver, capabilities, the session, the relay), each step's failure said where it happens.)
    pub(crate) async fn start(options: &Options) -> Result<Self> {
        if options.downloads.is_some() {
            // Allowed without their events, downloads could not be capped
            // or reported: refused outright rather than run uncapped.
            return Err(DriverError::Unsupported {
                backend: "webdriver",
                feature: driver_core::Capability::DownloadReports,
                reason: "the WebDriver backend refuses every download (reporting each where it has the browser's DevTools socket) and cannot save them to a folder under a cap; use the cdp backend for --downloads",
            });
        }
        options.refuse_local_only()?;
        let (url, chromedriver, profile, capabilities) = match &options.endpoint {
            Some(endpoint) => (endpoint.clone(), None, None, capabilities(options, None)?),
            None => {
                let limit = options.timeout;
                let prepared = options.clone();
                let (chromedriver, profile) = tokio::task::spawn_blocking(move || {
                    let profile = Profile::prepare(&prepared)?;
                    let chromedriver = Chromedriver::start(limit)?;
                    Ok::<_, DriverError>((chromedriver, profile))
                })
                .await
                .map_err(|error| DriverError::Launch {
                    reason: format!("the launch task failed: {error}"),
                })??;
                let capabilities = capabilities(options, Some(&profile))?;
                (
                    chromedriver.url(),
                    Some(chromedriver),
                    Some(profile),
                    capabilities,
                )
            }
        };
        // A Selenium Grid queues a request it has no free slot for (for
        // minutes): that is said as such, before the call's own deadline
        // would call it a hung page.
        let wait = options.timeout.saturating_sub(REMOTE_TIMEOUT_MARGIN);
        let mut builder =
            ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new());
        builder.capabilities(capabilities);
        let connecting = builder.connect(&url);
        let client = match tokio::time::timeout(wait, connecting).await {
            Ok(Ok(client)) => client,
            Ok(Err(error)) => {
                let refusal = options
                    .endpoint
                    .as_ref()
                    .and_then(|_| grid_refusal(&error.to_string(), "Chromium"));
                return Err(DriverError::Launch {
                    reason: match refusal {
                        Some(reason) => reason,
                        None => format!(
                            "cannot open a WebDriver session at {url}: {error}{}",
                            chromedriver
                                .as_ref()
                                .map(|driver| format!("; chromedriver's log: {}", driver.log_tail()))
                                .unwrap_or_default()
                        ),
                    },
                })
            }
            Err(_) => {
                return Err(DriverError::Launch {
                    reason: format!(
                        "the WebDriver end at {url} gave no browser session within {} s (a Selenium Grid whose slots are all busy queues the request): try again later, or give a longer --timeout",
                        wait.as_secs()
                    ),
                })
            }
        };
        let socket_url = match &profile {
            Some(profile) => driver_core::backend::devtools::local_socket(profile.path())
                .await
                .map_err(|problem| tracing::debug!(%problem, "no DevTools socket in the profile"))
                .ok(),
            None => client
                .capabilities()
                .and_then(|capabilities| capabilities.get("se:cdp"))
                .and_then(Value::as_str)
                .and_then(|relay| rewrite_relay(relay, &url)),
        };
        let relay = match &socket_url {
            Some(socket) => {
                match tokio::time::timeout(RELAY_LIMIT, crate::relay::Relay::serve(socket, options))
                    .await
                {
                    Ok(Ok(relay)) => Some(relay),
                    Ok(Err(problem)) => {
                        tracing::info!(%problem, "no DevTools relay: the pack's scripts run in the page's world");
                        None
                    }
                    Err(_) => {
                        tracing::info!(
                            socket,
                            "no DevTools relay: the socket did not answer in time"
                        );
                        None
                    }
                }
            }
            None => None,
        };
        let current = client.window().await.map_err(sort)?;
        let mut session = Self {
            client,
            known: vec![current.clone().into()],
            current: current.into(),
            chromedriver,
            profile,
            socket_url,
            relay,
            keep_alive: options.keep_alive,
            script_limit: remote_limit(options),
            network: options.network_log.then(Default::default),
            hooked: Default::default(),
            budget_kib: options.memory_budget_mb.map(|mb| mb.saturating_mul(1024)),
        };
        session.hook_current().await;
        if let Some(relay) = &session.relay {
            relay.current(&session.current).await;
        } else {
            // Belt and braces with the profile preference: deny downloads
            // through chromedriver's CDP bridge where the remote end has one.
            let _ = session
                .cdp(
                    names::BROWSER_SET_DOWNLOAD_BEHAVIOR,
                    json!({ "behavior": "deny" }),
                )
                .await;
        }
        session
            .set_viewport_size(Viewport {
                width: options.width,
                height: options.height,
            })
            .await?;
        Ok(session)
    }

    /// Ends the session: chromedriver quits Chrome; then chromedriver and any
    /// Chrome still using our profile are killed, and the profile deleted.
    pub(crate) async fn end(mut self) {
        if let Some(relay) = self.relay.take() {
            relay.close().await;
        }
        let _ = tokio::time::timeout(Duration::from_secs(3), self.client.clone().close()).await;
        self.kill();
    }

    fn kill(&mut self) {
        if let Some(mut chromedriver) = self.chromedriver.take() {
            chromedriver.kill();
        }
        if let Some(profile) = &self.profile {
            launch::kill_chrome_using(profile.path());
        }
    }

    /// Gives the current window the early hooks, once: in the page's world
    /// of each of its new documents before the page's scripts (through
    /// chromedriver's CDP bridge), and in the document it shows now. Where
    /// the remote end has no bridge, the snapshot goes without them.
    pub(crate) async fn hook_current(&mut self) {
        if !self.hooked.insert(self.current.clone()) {
            return;
        }
        let source = driver_core::listeners_js();
        let _ = self
            .cdp(
                names::PAGE_ADD_SCRIPT_TO_EVALUATE_ON_NEW_DOCUMENT,
                json!({ "source": source }),
            )
            .await;
        let _ = self
            .cdp(names::RUNTIME_EVALUATE, json!({ "expression": source }))
            .await;
    }

    /// Whether the browser runs at a remote end (not under a chromedriver
    /// and profile of ours), so files here are not there.
    pub(crate) fn is_remote(&self) -> bool {
        self.chromedriver.is_none() && self.profile.is_none()
    }

    /// `DOM.setFileInputFiles` parameters with each file sent to the remote
    /// end first ([`files_to_remote`]).
    pub(crate) async fn files_to_remote(&self, params: Value) -> Result<Value> {
        files_to_remote(&self.client, params).await
    }

    /// Sends a CDP command through chromedriver's bridge
    /// (`goog/cdp/execute`), to the current tab.
    pub(crate) async fn cdp(&self, command: &str, params: Value) -> Result<Value> {
        self.raw(
            http::Method::POST,
            "goog/cdp/execute",
            Some(json!({ "cmd": command, "params": params })),
        )
        .await
    }

    pub(crate) async fn raw(
        &self,
        method: http::Method,
        path: &'static str,
        body: Option<Value>,
    ) -> Result<Value> {
        self.client
            .issue_cmd(Raw { method, path, body })
            .await
            .map_err(sort)
    }

    /// After a timeout: stop a spinning script and a hanging load through
    /// the browser's own DevTools socket (chromedriver itself is stuck behind
    /// the page): the session's relay, or a connection made now. If
    /// chromedriver still does not answer, the stuck tab is closed, which
    /// releases it, and the most recent other tab (or a new blank one)
    /// becomes current. Returns whether the session is usable.
    async fn recover_now(&mut self) -> bool {
        let fresh;
        let relay = match (&self.relay, &self.socket_url) {
            (Some(relay), _) if relay.is_open() => relay,
            (_, Some(url)) => match crate::relay::Relay::connect(url, None, None).await {
                Ok(connected) => {
                    fresh = connected;
                    &fresh
                }
                Err(problem) => {
                    tracing::debug!(%problem, "no DevTools socket to stop the tab with");
                    return self.answers().await;
                }
            },
            // No way to reach the page past the remote end: usable only
            // if the end answers (its own timeout stopped the call).
            (_, None) => return self.answers().await,
        };
        let stuck = self.current.clone();
        if let Err(problem) = relay.stop(&stuck, false, false).await {
            tracing::debug!(%problem, "could not stop the tab after a timeout");
        }
        if self.answers().await {
            return true;
        }
        let alone = self.known.len() <= 1;
        if let Err(problem) = relay.stop(&stuck, true, alone).await {
            tracing::debug!(%problem, "could not close the stuck tab");
            return false;
        }
        let _ = self.focus_current().await;
        self.answers().await
    }

    /// Whether chromedriver answers a trivial script promptly.
    async fn answers(&self) -> bool {
        matches!(
            tokio::time::timeout(PROBE_LIMIT, self.client.execute("return 1", vec![])).await,
            Ok(Ok(_))
        )
    }
}

/// How long chromedriver may take to answer `return 1` after a recovery.
const PROBE_LIMIT: Duration = Duration::from_secs(4);

impl WdSession {
    /// Whether the chromedriver we started has exited.
    pub(crate) fn chromedriver_exited(&mut self) -> bool {
        self.chromedriver
            .as_mut()
            .is_some_and(Chromedriver::has_exited)
    }

    /// After a call ran out of time: the page stopped (see `recover_now`),
    /// within [`RECOVERY_LIMIT`]; whether the session is usable.
    pub(crate) async fn recover(&mut self) -> bool {
        tokio::time::timeout(RECOVERY_LIMIT, self.recover_now())
            .await
            .unwrap_or(false)
    }

    /// Tells a remote end we are still here: a classic command (a Grid
    /// counts only those as activity).
    pub(crate) async fn keep_alive(&mut self) {
        let _ = tokio::time::timeout(Duration::from_secs(5), self.client.windows()).await;
    }
}

impl Drop for WdSession {
    fn drop(&mut self) {
        self.kill();
    }
}

/// `DOM.setFileInputFiles` parameters (`files`: paths on this machine)
/// with each file sent to the remote end of `client` first (Selenium's
/// `se/file`: the file zipped, base64) and named by the path the end
/// answers; an end without the endpoint is refused, rather than the page
/// getting an empty file.
pub(crate) async fn files_to_remote(client: &Client, mut params: Value) -> Result<Value> {
    let Some(files) = params["files"].as_array().cloned() else {
        return Ok(params);
    };
    let mut remote = Vec::new();
    for file in files {
        let Some(path) = file.as_str() else {
            continue;
        };
        let zipped = zip_one(std::path::Path::new(path))?;
        let body = json!({ "file": base64::Engine::encode(&base64::engine::general_purpose::STANDARD, zipped) });
        let answer = client
            .issue_cmd(Raw {
                method: http::Method::POST,
                path: "se/file",
                body: Some(body),
            })
            .await
            .map_err(sort)
            .map_err(|error| match error {
                DriverError::Protocol(message)
                    if message.contains("unknown command")
                        || message.contains("Unable to find handler") =>
                {
                    DriverError::Unsupported {
                        backend: "webdriver",
                        feature: driver_core::Capability::DevTools,
                        reason: "this remote WebDriver end has no file endpoint (se/file), so a file on this machine cannot reach its browser",
                    }
                }
                other => other,
            })?;
        let Some(there) = answer.as_str() else {
            return Err(DriverError::Protocol(format!(
                "the remote end's file endpoint answered {answer}"
            )));
        };
        remote.push(Value::String(there.to_owned()));
    }
    params["files"] = Value::Array(remote);
    Ok(params)
}

/// A zip archive holding one file (stored), as Selenium's file endpoint
/// takes it.
fn zip_one(path: &std::path::Path) -> Result<Vec<u8>> {
    use std::io::Write;
    let unreadable = |error: &dyn std::fmt::Display| {
        DriverError::InvalidArgument(format!(
            "the file {} cannot be read: {error}",
            path.display()
        ))
    };
    let data = std::fs::read(path).map_err(|error| unreadable(&error))?;
    let name = path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_else(|| "upload".to_owned());
    let mut archive = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    archive
        .start_file(name, options)
        .map_err(|error| unreadable(&error))?;
    archive
        .write_all(&data)
        .map_err(|error| unreadable(&error))?;
    let written = archive.finish().map_err(|error| unreadable(&error))?;
    Ok(written.into_inner())
}

/// What a Selenium Grid says when it gives no session for a `browser`
/// one, as the reason to tell: a full Grid, or one with no node for it.
pub(crate) fn grid_refusal(error: &str, browser: &str) -> Option<String> {
    if error.contains("New session request timed out") || error.contains("request timed out") {
        return Some(format!(
            "the Selenium Grid gave no browser: every slot stayed busy until its queue timed out (the Grid said: {})",
            error.chars().take(300).collect::<String>()
        ));
    }
    if error.contains("No nodes support the capabilities") || error.contains("no node") {
        return Some(format!(
            "the Selenium Grid has no node for a {browser} session (the Grid said: {})",
            error.chars().take(300).collect::<String>()
        ));
    }
    None
}

/// A Grid's `se:cdp` address with its host and port replaced by the ones
/// the Grid was reached at (behind a router it names an internal node).
fn rewrite_relay(relay: &str, reached: &str) -> Option<String> {
    let mut relay = url::Url::parse(relay).ok()?;
    let reached = url::Url::parse(reached).ok()?;
    relay.set_host(reached.host_str()).ok()?;
    relay.set_port(reached.port_or_known_default()).ok()?;
    Some(relay.into())
}

/// The script and page-load timeouts the remote end is given.
fn remote_limit(options: &Options) -> Duration {
    options
        .timeout
        .saturating_sub(REMOTE_TIMEOUT_MARGIN)
        .max(REMOTE_TIMEOUT_MARGIN)
}

/// The W3C capabilities for a session with our Chrome flags. With a local
/// profile, its path; for a remote end (whose disk we cannot see), the
/// preferences go in the capabilities instead.
fn capabilities(
    options: &Options,
    profile: Option<&Profile>,
) -> Result<serde_json::Map<String, Value>> {
    let mut chrome = serde_json::Map::new();
    let args = match profile {
        Some(profile) => {
            let binary = launch::find_chrome(options.executable.as_deref())?;
            let major = launch::chrome_major_version(&binary);
            chrome.insert("binary".to_owned(), json!(binary));
            launch::chrome_flags(options, profile.path(), major)
        }
        None => {
            chrome.insert("prefs".to_owned(), launch::profile_preferences());
            launch::chrome_flags(options, std::path::Path::new(""), None)
                .into_iter()
                .filter(|flag| !flag.starts_with("--user-data-dir="))
                .collect()
        }
    };
    chrome.insert("args".to_owned(), json!(args));
    // chromedriver's own defaults a person's browser does not have: the
    // automation banner, its logging, and no popup blocker (a page opening
    // a window every 100 ms would fill the machine with renderers, where
    // Chrome, and the CDP backend, block all but those a click opens).
    chrome.insert(
        "excludeSwitches".to_owned(),
        json!([
            "enable-automation",
            "enable-logging",
            "disable-popup-blocking"
        ]),
    );
    let remote_limit = remote_limit(options);
    let timeouts =
        TimeoutConfiguration::new(Some(remote_limit), Some(remote_limit), Some(Duration::ZERO));
    let mut capabilities = serde_json::Map::new();
    capabilities.insert("browserName".to_owned(), json!("chrome"));
    capabilities.insert("pageLoadStrategy".to_owned(), json!("normal"));
    capabilities.insert("unhandledPromptBehavior".to_owned(), json!("ignore"));
    capabilities.insert(
        "timeouts".to_owned(),
        serde_json::to_value(&timeouts).unwrap_or(Value::Null),
    );
    if options.network_log {
        // The network log comes from chromedriver's performance log: the
        // network events of every tab, and nothing else.
        capabilities.insert(
            "goog:loggingPrefs".to_owned(),
            json!({ "browser": "ALL", "performance": "ALL" }),
        );
        chrome.insert(
            "perfLoggingPrefs".to_owned(),
            json!({ "enableNetwork": true, "enablePage": false }),
        );
    } else {
        capabilities.insert("goog:loggingPrefs".to_owned(), json!({ "browser": "ALL" }));
    }
    capabilities.insert("goog:chromeOptions".to_owned(), Value::Object(chrome));
    Ok(capabilities)
}
