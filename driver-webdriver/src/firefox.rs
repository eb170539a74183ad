//! [`Firefox`]: a Firefox started by tabwright and spoken to over WebDriver
//! BiDi, its own socket (no geckodriver for a local browser), or one a
//! remote WebDriver end starts (`firefox_remote.rs`).
//!
//! Firefox takes its settings from the profile, not its command line: a
//! fresh profile per browser gets a `user.js` that sends every request to
//! the session's proxy (loopback ones too, which Firefox otherwise sends
//! straight: `network.proxy.allow_hijacking_localhost`) and turns off what
//! Firefox fetches by itself (updates, telemetry, experiments, safe
//! browsing, captive portal checks), as Chrome's quiet flags do. The
//! browser says where its socket is on stderr (`WebDriver BiDi listening
//! on ws://…`); a client connects to its `/session` path and starts a
//! session with `session.new`. Messages go through driver-core's
//! `DevToolsSocket`, which frames BiDi as it frames DevTools.

use std::path::{Path, PathBuf};
use std::time::Duration;

use driver_core::backend::devtools::DevToolsSocket;
use driver_core::backend::launch::ChromeProcess;
use driver_core::{DriverError, Options, Result};
use serde_json::{json, Value};

use crate::firefox_remote::Remote;

/// A Firefox and its BiDi session: one tabwright started (its process
/// group ended when this is dropped, its own profile removed with it), or
/// one a remote WebDriver end started for a session of ours.
pub struct Firefox {
    socket: DevToolsSocket,
    place: Place,
}

/// Where a [`Firefox`] runs.
enum Place {
    /// Here: its process and its profile.
    Here {
        process: ChromeProcess,
        profile: Profile,
    },
    /// At a remote WebDriver end (geckodriver, a Selenium Grid's Firefox
    /// node), in a classic session whose BiDi socket this speaks.
    Remote(Remote),
}

/// A browser's profile folder: one of its own, removed with it, or the one
/// the options name (`Options::profile_dir`), kept.
enum Profile {
    Own(tempfile::TempDir),
    Given(PathBuf),
}

impl Profile {
    fn path(&self) -> &Path {
        match self {
            Profile::Own(folder) => folder.path(),
            Profile::Given(folder) => folder,
        }
    }
}

/// What Firefox is started with besides this process's environment:
/// without it, Firefox ignores `services.settings.server` and asks
/// Mozilla's Remote Settings server for its collections, about twenty
/// times a second (seen at the guard's proxy on Firefox ESR 153).
const ENVIRONMENT: &[(&str, &str)] = &[("MOZ_REMOTE_SETTINGS_DEVTOOLS", "1")];

/// The preferences every profile gets, besides the proxy's: nothing
/// fetched that no page asked for.
const QUIET: &[(&str, &str)] = &[
    ("app.update.auto", "false"),
    ("app.update.enabled", "false"),
    ("app.normandy.enabled", "false"),
    ("app.shield.optoutstudies.enabled", "false"),
    ("browser.safebrowsing.malware.enabled", "false"),
    ("browser.safebrowsing.phishing.enabled", "false"),
    ("browser.safebrowsing.downloads.enabled", "false"),
    ("browser.safebrowsing.provider.mozilla.updateURL", "\"\""),
    ("browser.search.update", "false"),
    ("browser.newtabpage.enabled", "false"),
    ("browser.startup.homepage_override.mstone", "\"ignore\""),
    ("browser.shell.checkDefaultBrowser", "false"),
    ("datareporting.healthreport.uploadEnabled", "false"),
    ("datareporting.policy.dataSubmissionEnabled", "false"),
    ("toolkit.telemetry.enabled", "false"),
    ("toolkit.telemetry.unified", "false"),
    ("extensions.update.enabled", "false"),
    ("extensions.getAddons.cache.enabled", "false"),
    ("network.captive-portal-service.enabled", "false"),
    ("network.connectivity-service.enabled", "false"),
    ("network.dns.disablePrefetch", "true"),
    ("network.http.speculative-parallel-limit", "0"),
    ("network.prefetch-next", "false"),
    (
        "services.settings.server",
        "\"data:,#remote-settings-dummy/v1\"",
    ),
    ("messaging-system.rsexperimentloader.enabled", "false"),
    ("browser.download.useDownloadDir", "false"),
    ("remote.prefs.recommended", "true"),
    // No content processes started ahead of need (three, under Fission):
    // a session's pages get theirs as they come.
    ("dom.ipc.processPrelaunch.enabled", "false"),
];

/// The browser to start: `TABWRIGHT_FIREFOX`, else Debian's `firefox-esr`,
/// else `firefox` on the path.
pub fn firefox_path() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("TABWRIGHT_FIREFOX") {
        return Some(PathBuf::from(path));
    }
    let path = std::env::var_os("PATH")?;
    ["firefox-esr", "firefox"].into_iter().find_map(|name| {
        std::env::split_paths(&path)
            .map(|folder| folder.join(name))
            .find(|candidate| candidate.is_file())
    })
}

/// The preferences (each value a JavaScript literal) of a browser whose
/// requests all go to `proxy` (an `http://host:port` URL), or none, with
/// `agent` as its user agent if given.
fn prefs(proxy: Option<&str>, agent: Option<&str>) -> Result<Vec<(String, String)>> {
    let mut prefs: Vec<(String, String)> = QUIET
        .iter()
        .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
        .collect();
    if let Some(agent) = agent {
        prefs.push((
            "general.useragent.override".to_owned(),
            serde_json::to_string(agent).unwrap_or_default(),
        ));
    }
    if let Some(proxy) = proxy {
        let parsed = url::Url::parse(proxy).map_err(|error| DriverError::Launch {
            reason: format!("the proxy {proxy:?} is no URL: {error}"),
        })?;
        let (Some(host), Some(port)) = (parsed.host_str(), parsed.port_or_known_default()) else {
            return Err(DriverError::Launch {
                reason: format!("the proxy {proxy:?} names no host and port"),
            });
        };
        let host = serde_json::to_string(host).unwrap_or_default();
        for (name, value) in [
            ("network.proxy.type", "1".to_owned()),
            ("network.proxy.http", host.clone()),
            ("network.proxy.http_port", port.to_string()),
            ("network.proxy.ssl", host),
            ("network.proxy.ssl_port", port.to_string()),
            ("network.proxy.share_proxy_settings", "true".to_owned()),
            ("network.proxy.no_proxies_on", "\"\"".to_owned()),
            ("network.proxy.allow_hijacking_localhost", "true".to_owned()),
            ("network.proxy.socks_remote_dns", "false".to_owned()),
            // WebRTC's connections go through the proxy too (a TURN
            // server over TCP), or not at all: no UDP around it, and no
            // address of this machine offered to the page's peer.
            ("media.peerconnection.ice.proxy_only", "true".to_owned()),
            ("media.peerconnection.ice.no_host", "true".to_owned()),
            (
                "media.peerconnection.ice.default_address_only",
                "true".to_owned(),
            ),
        ] {
            prefs.push((name.to_owned(), value));
        }
    }
    Ok(prefs)
}

/// The `user.js` of a profile with [`prefs`], and the one that has
/// Firefox read the profile's own sheet ([`give_paint_sheet`]).
fn user_js(proxy: Option<&str>, agent: Option<&str>) -> Result<String> {
    let mut prefs = prefs(proxy, agent)?;
    prefs.push((
        "toolkit.legacyUserProfileCustomizations.stylesheets".to_owned(),
        "true".to_owned(),
    ));
    Ok(prefs
        .iter()
        .map(|(name, value)| format!("user_pref({name:?}, {value});\n"))
        .collect())
}

/// The lines that begin and end tabwright's part of a profile's
/// `userContent.css`.
const SHEET_BEGINS: &str = "/* tabwright: what its paint probe needs */";
const SHEET_ENDS: &str = "/* tabwright: end */";

/// Gives the profile at `profile` the paint probe's sheet
/// ([`driver_core::paint_sheet`]) as its `chrome/userContent.css`: a
/// user's sheet that Firefox applies to every document, frames of other
/// sites included, and that no page sees (not in `document.styleSheets`,
/// no element, no mutation). Firefox reads it once, as it starts; a sheet
/// the profile had is kept, tabwright's part of it replaced.
fn give_paint_sheet(profile: &Path) -> std::io::Result<()> {
    let folder = profile.join("chrome");
    std::fs::create_dir_all(&folder)?;
    let path = folder.join("userContent.css");
    let had = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(error) => return Err(error),
    };
    let kept = match (had.find(SHEET_BEGINS), had.find(SHEET_ENDS)) {
        (Some(begins), Some(ends)) if begins < ends => {
            format!("{}{}", &had[..begins], &had[ends + SHEET_ENDS.len()..])
        }
        _ => had,
    };
    let kept = kept.trim_end();
    let gap = if kept.is_empty() { "" } else { "\n" };
    std::fs::write(
        path,
        format!(
            "{kept}{gap}{SHEET_BEGINS}\n{}\n{SHEET_ENDS}\n",
            driver_core::paint_sheet()
        ),
    )
}

impl Firefox {
    /// Starts Firefox as `options` say (its executable, profile, proxy,
    /// window size, timeout, headless or not; a `--user-agent=` among the
    /// extra arguments becomes Firefox's own setting), and a BiDi session
    /// in it; with an `endpoint`, a session of a WebDriver end there
    /// (geckodriver, or a Selenium Grid with Firefox nodes) with the same
    /// settings. Saved downloads are Chrome's, and refused.
    pub async fn start(options: &Options) -> Result<Self> {
        if options.downloads.is_some() {
            return Err(DriverError::Launch {
                reason: "saved downloads need the cdp backend: over BiDi a download cannot be capped as it lands, so Firefox refuses every one".to_owned(),
            });
        }
        let firefox = match &options.endpoint {
            Some(endpoint) => {
                options.refuse_local_only()?;
                let (remote, socket) =
                    Remote::start(options, endpoint, remote_capabilities(options)?).await?;
                Self {
                    socket,
                    place: Place::Remote(remote),
                }
            }
            None => Self::start_here(options).await?,
        };
        match firefox.focused_tab(options).await {
            Ok(()) => Ok(firefox),
            // (A remote end's session ends only when asked to.)
            Err(error) => {
                firefox.close().await;
                Err(error)
            }
        }
    }

    /// The tab a headless Firefox starts with never has the focus (no
    /// focus event fires in it, `document.hasFocus()` is false, so a date
    /// picker that opens on focus never does); one made over BiDi has it.
    /// The first gives way to one made now, given the viewport (the
    /// window's size on the command line is not the viewport's).
    async fn focused_tab(&self, options: &Options) -> Result<()> {
        let tree = self.call("browsingContext.getTree", json!({})).await?;
        let first = tree["contexts"][0]["context"].as_str().map(str::to_owned);
        let made = self
            .call("browsingContext.create", json!({ "type": "tab" }))
            .await?;
        let context = made["context"].as_str().unwrap_or_default();
        self.viewport(context, options.width, options.height)
            .await?;
        if let Some(first) = first {
            self.call("browsingContext.close", json!({ "context": first }))
                .await?;
        }
        Ok(())
    }

    /// A Firefox started here, in a profile with [`prefs`], and a BiDi
    /// session in it.
    async fn start_here(options: &Options) -> Result<Self> {
        let executable = match &options.executable {
            Some(path) => path.clone(),
            None => firefox_path().ok_or_else(|| DriverError::Launch {
                reason: "no Firefox found: install Debian's firefox-esr, or set TABWRIGHT_FIREFOX"
                    .to_owned(),
            })?,
        };
        let profile = match &options.profile_dir {
            Some(folder) => Profile::Given(folder.clone()),
            None => Profile::Own(
                tempfile::Builder::new()
                    .prefix("tabwright-firefox-")
                    .tempdir()
                    .map_err(|error| DriverError::Launch {
                        reason: format!("cannot make a profile folder: {error}"),
                    })?,
            ),
        };
        std::fs::create_dir_all(profile.path()).map_err(|error| DriverError::Launch {
            reason: format!("cannot make the profile folder: {error}"),
        })?;
        let agent = options
            .extra_args
            .iter()
            .find_map(|arg| arg.strip_prefix("--user-agent="));
        std::fs::write(
            profile.path().join("user.js"),
            user_js(options.proxy.as_deref(), agent)?,
        )
        .map_err(|error| DriverError::Launch {
            reason: format!("cannot write the profile's settings: {error}"),
        })?;
        give_paint_sheet(profile.path()).map_err(|error| DriverError::Launch {
            reason: format!("cannot write the profile's sheet: {error}"),
        })?;
        let mut args = arguments(profile.path(), options.headed);
        // Extra command-line arguments go to Firefox as they are.
        args.splice(
            args.len() - 1..args.len() - 1,
            options
                .extra_args
                .iter()
                .filter(|arg| !arg.starts_with("--user-agent="))
                .cloned(),
        );
        let process = ChromeProcess::spawn_with_env(&executable, &args, ENVIRONMENT)?;
        let wait = options.timeout.max(Duration::from_secs(10));
        // (Blocking, off the runtime's threads: a current-thread runtime
        // has no other.)
        let (process, url) = tokio::task::spawn_blocking(move || {
            let url = process.wait_for_devtools_url(wait);
            (process, url)
        })
        .await
        .map_err(|error| DriverError::Launch {
            reason: format!("the wait for Firefox failed: {error}"),
        })?;
        let url = url?;
        let socket = DevToolsSocket::connect(&format!("{}/session", url.trim_end_matches('/')))
            .await
            .map_err(|reason| DriverError::Launch { reason })?;
        let firefox = Self {
            socket,
            place: Place::Here { process, profile },
        };
        firefox
            .call(
                "session.new",
                json!({ "capabilities": { "alwaysMatch": session_capabilities() } }),
            )
            .await?;
        Ok(firefox)
    }

    /// Sets the viewport of `context` (a tab) to `width`×`height`.
    pub async fn viewport(&self, context: &str, width: u32, height: u32) -> Result<()> {
        self.call(
            "browsingContext.setViewport",
            json!({ "context": context, "viewport": { "width": width, "height": height } }),
        )
        .await
        .map(|_| ())
    }

    /// Sends a BiDi command and waits for its result.
    pub async fn call(&self, method: &str, params: Value) -> Result<Value> {
        match self.socket.call(None, method, params).await {
            Ok(answer) => Ok(answer),
            Err(error) => Err(self.lost(error.into())),
        }
    }

    /// Why the socket closed, if it did, as the model should read it.
    pub fn gone_reason(&self) -> Option<String> {
        let reason = self.socket.gone_reason()?;
        Some(match &self.place {
            Place::Here { .. } => reason,
            Place::Remote(_) => crate::firefox_remote::lost(&reason),
        })
    }

    /// `error`, saying the session was lost where a remote end's socket
    /// closed (its node stopped, or it ended the session).
    fn lost(&self, error: DriverError) -> DriverError {
        match (&self.place, error) {
            (Place::Remote(_), DriverError::BrowserGone { reason }) => DriverError::BrowserGone {
                reason: crate::firefox_remote::lost(&reason),
            },
            (_, error) => error,
        }
    }

    /// The socket, for its events.
    pub fn socket(&self) -> &DevToolsSocket {
        &self.socket
    }

    /// The profile folder of a Firefox started here (removed when this is
    /// dropped, unless the options named it).
    pub fn profile(&self) -> Option<&Path> {
        match &self.place {
            Place::Here { profile, .. } => Some(profile.path()),
            Place::Remote(_) => None,
        }
    }

    /// The process id of a Firefox started here.
    pub fn pid(&self) -> Option<u32> {
        match &self.place {
            Place::Here { process, .. } => Some(process.pid()),
            Place::Remote(_) => None,
        }
    }

    /// The remote end's session, for a Firefox there.
    pub(crate) fn remote(&self) -> Option<&Remote> {
        match &self.place {
            Place::Here { .. } => None,
            Place::Remote(remote) => Some(remote),
        }
    }

    /// Ends the session and the browser, and removes the profile (or asks
    /// the remote end to end its session).
    pub async fn close(self) {
        let Self { socket, place } = self;
        match place {
            Place::Here {
                mut process,
                profile,
            } => {
                let _ = tokio::time::timeout(
                    Duration::from_secs(2),
                    socket.call(None, "browser.close", json!({})),
                )
                .await;
                socket.close().await;
                let _ = tokio::task::spawn_blocking(move || {
                    process.shutdown(Duration::from_secs(2));
                    drop(profile);
                })
                .await;
            }
            Place::Remote(remote) => {
                socket.close().await;
                remote.end().await;
            }
        }
    }
}

/// The capabilities of a Firefox session at a remote end: the BiDi socket,
/// and the preferences, environment and arguments a Firefox started here
/// gets (headless unless `headed`; a `--user-agent=` becomes Firefox's
/// own setting, other extra arguments go to Firefox as they are).
pub(crate) fn remote_capabilities(options: &Options) -> Result<serde_json::Map<String, Value>> {
    let agent = options
        .extra_args
        .iter()
        .find_map(|arg| arg.strip_prefix("--user-agent="));
    let prefs: serde_json::Map<String, Value> = prefs(options.proxy.as_deref(), agent)?
        .into_iter()
        .map(|(name, value)| {
            // Each value is a JavaScript literal: a boolean, a number or a
            // string in JSON's quotes.
            let value = serde_json::from_str(&value).unwrap_or(Value::String(value));
            (name, value)
        })
        .collect();
    let args: Vec<&str> = (!options.headed)
        .then_some("-headless")
        .into_iter()
        .chain(
            options
                .extra_args
                .iter()
                .map(String::as_str)
                .filter(|arg| !arg.starts_with("--user-agent=")),
        )
        .collect();
    let env: serde_json::Map<String, Value> = ENVIRONMENT
        .iter()
        .map(|(name, value)| ((*name).to_owned(), json!(value)))
        .collect();
    let mut capabilities = session_capabilities();
    capabilities.insert("browserName".to_owned(), json!("firefox"));
    capabilities.insert("webSocketUrl".to_owned(), json!(true));
    capabilities.insert(
        "moz:firefoxOptions".to_owned(),
        json!({ "args": args, "prefs": prefs, "env": env }),
    );
    Ok(capabilities)
}

/// What every Firefox session asks for: no insecure certificates, and a
/// page's dialog left open until the model answers it.
fn session_capabilities() -> serde_json::Map<String, Value> {
    let mut capabilities = serde_json::Map::new();
    capabilities.insert("acceptInsecureCerts".to_owned(), json!(false));
    capabilities.insert(
        "unhandledPromptBehavior".to_owned(),
        json!({ "default": "ignore" }),
    );
    capabilities
}

/// Firefox's command line: headless unless `headed`, its own profile, no remote control
/// by another instance, BiDi on a free port.
fn arguments(profile: &Path, headed: bool) -> Vec<String> {
    let headless = (!headed).then(|| "--headless".to_owned());
    headless
        .into_iter()
        .chain([
            "--no-remote".to_owned(),
            "--profile".to_owned(),
            profile.display().to_string(),
            "--remote-debugging-port".to_owned(),
            "0".to_owned(),
            "about:blank".to_owned(),
        ])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_remote_firefox_gets_the_profiles_settings() {
        let options = Options {
            proxy: Some("http://127.0.0.1:4321".to_owned()),
            extra_args: vec!["--user-agent=Agent 7".to_owned(), "-safe-mode".to_owned()],
            ..Options::default()
        };
        let asked = remote_capabilities(&options).expect("capabilities");
        assert_eq!(asked["browserName"], "firefox");
        assert_eq!(asked["webSocketUrl"], true);
        let firefox = &asked["moz:firefoxOptions"];
        assert_eq!(firefox["args"], json!(["-headless", "-safe-mode"]));
        assert_eq!(firefox["prefs"]["network.proxy.http"], "127.0.0.1");
        assert_eq!(firefox["prefs"]["network.proxy.http_port"], 4321);
        assert_eq!(
            firefox["prefs"]["network.proxy.allow_hijacking_localhost"],
            true
        );
        assert_eq!(firefox["prefs"]["general.useragent.override"], "Agent 7");
        assert_eq!(firefox["prefs"]["network.proxy.no_proxies_on"], "");
        assert_eq!(firefox["env"]["MOZ_REMOTE_SETTINGS_DEVTOOLS"], "1");
    }

    #[test]
    fn a_profile_sends_everything_to_the_proxy() {
        let prefs = user_js(Some("http://127.0.0.1:4321"), Some("Agent \"7\"")).expect("prefs");
        for line in [
            "user_pref(\"network.proxy.type\", 1);",
            "user_pref(\"network.proxy.http\", \"127.0.0.1\");",
            "user_pref(\"network.proxy.ssl_port\", 4321);",
            "user_pref(\"network.proxy.allow_hijacking_localhost\", true);",
            "user_pref(\"network.proxy.no_proxies_on\", \"\");",
        ] {
            assert!(prefs.contains(line), "no {line}:\n{prefs}");
        }
        assert!(prefs.contains("user_pref(\"general.useragent.override\", \"Agent \\\"7\\\"\");"));
        assert!(!user_js(None, None)
            .expect("prefs")
            .contains("network.proxy.type"));
        assert!(user_js(Some("not a url"), None).is_err());
    }

    #[test]
    fn a_profile_keeps_its_own_sheet_beside_the_probes() {
        let profile = tempfile::tempdir().expect("a folder");
        let path = profile.path().join("chrome/userContent.css");
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("chrome");
        std::fs::write(&path, "a { color: red }\n").expect("a user's sheet");
        give_paint_sheet(profile.path()).expect("given");
        give_paint_sheet(profile.path()).expect("given again");
        let sheet = std::fs::read_to_string(&path).expect("read");
        assert!(sheet.starts_with("a { color: red }\n"), "{sheet}");
        assert_eq!(
            sheet.matches(driver_core::paint_sheet()).count(),
            1,
            "{sheet}"
        );
        assert!(user_js(None, None)
            .expect("prefs")
            .contains("\"toolkit.legacyUserProfileCustomizations.stylesheets\", true"));
    }
}
