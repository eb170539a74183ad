//! Starting Chrome the same way for every backend: which binary, which flags,
//! which profile, and how to end every process it made.
//!
//! The CDP backend starts Chrome itself through [`ChromeProcess`]; the
//! WebDriver backend hands [`chrome_flags`] and [`Profile`] to chromedriver.
//! Both get the same quiet, ordinary-looking browser:
//!
//! - headless unless asked otherwise, a fixed window size, a profile of its own;
//! - no background traffic of Chrome's own (sync, component updates, metrics,
//!   network time), no QUIC, no extensions;
//! - presents itself as ordinary Chrome: no `HeadlessChrome` in the user agent
//!   and `navigator.webdriver` false, because news and finance sites answer
//!   headless browsers with HTTP 403;
//! - downloads refused by profile preference.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{mpsc, Arc, OnceLock};
use std::time::{Duration, Instant};

use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use parking_lot::Mutex;

use crate::{DriverError, Options, Result};

/// Binaries tried, in order, when [`Options::executable`] is unset. Debian's
/// real binary comes before its `/usr/bin/chromium` wrapper script, which adds
/// extension flags and Google API keys (and so traffic).
const CANDIDATES: &[&str] = &[
    "/usr/lib/chromium/chromium",
    "google-chrome-stable",
    "google-chrome",
    "chromium",
    "chromium-browser",
    "chrome",
    "/opt/google/chrome/chrome",
    "/usr/lib/chromium-browser/chromium-browser",
    "/snap/bin/chromium",
];

/// How many of Chrome's last stderr lines are kept for error messages.
const STDERR_LINES_KEPT: usize = 40;

/// How long a graceful shutdown may take before the process group is killed.
pub const SHUTDOWN_GRACE: Duration = Duration::from_millis(1500);

/// Finds the Chrome binary: the explicit one, `$TABWRIGHT_CHROME`, or the
/// first of the usual names on `PATH` and install paths.
pub fn find_chrome(explicit: Option<&Path>) -> Result<PathBuf> {
    if let Some(path) = explicit {
        return if path.is_file() {
            Ok(path.to_owned())
        } else {
            Err(DriverError::Launch {
                reason: format!(
                    "the configured executable {} does not exist",
                    path.display()
                ),
            })
        };
    }
    if let Some(path) = std::env::var_os("TABWRIGHT_CHROME") {
        return find_chrome(Some(Path::new(&path)));
    }
    CANDIDATES
        .iter()
        .find_map(|name| which(name))
        .ok_or_else(|| DriverError::Launch {
            reason: "no Chrome or Chromium found on PATH or in the usual places; \
                     install Debian's `chromium` package or set Options::executable"
                .to_owned(),
        })
}

fn which(name: &str) -> Option<PathBuf> {
    let path = Path::new(name);
    if path.is_absolute() {
        return path.is_file().then(|| path.to_owned());
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

/// The major version of a Chrome binary (`156` for "Chromium 156.0.8078.108"),
/// asked once per binary and remembered: it costs Chrome's start-up time.
pub fn chrome_major_version(executable: &Path) -> Option<u32> {
    type Known = Vec<(PathBuf, Option<u32>)>;
    static CACHE: OnceLock<Mutex<Known>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some((_, version)) = cache.lock().iter().find(|(path, _)| path == executable) {
        return *version;
    }
    let version = Command::new(executable)
        .arg("--version")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()
        .and_then(|out| parse_major_version(&String::from_utf8_lossy(&out.stdout)));
    cache.lock().push((executable.to_owned(), version));
    version
}

fn parse_major_version(banner: &str) -> Option<u32> {
    banner
        .split_whitespace()
        .find(|word| word.chars().next().is_some_and(|c| c.is_ascii_digit()))
        .and_then(|version| version.split('.').next())
        .and_then(|major| major.parse().ok())
}

/// The user agent of ordinary desktop Chrome of that major version on Linux,
/// in the reduced form Chrome itself sends (`Chrome/156.0.0.0`).
pub fn ordinary_user_agent(major: u32) -> String {
    format!(
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) \
         Chrome/{major}.0.0.0 Safari/537.36"
    )
}

/// The flags every backend starts Chrome with, `options.extra_args` last so
/// they win. `user_data_dir` is the profile; `major` the browser's version, for
/// the user agent. The caller adds the initial URL and its own transport flag
/// (`--remote-debugging-port`, or chromedriver's).
pub fn chrome_flags(options: &Options, user_data_dir: &Path, major: Option<u32>) -> Vec<String> {
    let mut flags: Vec<String> = [
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-quic",
        "--disable-extensions",
        "--disable-default-apps",
        "--disable-domain-reliability",
        "--disable-client-side-phishing-detection",
        "--disable-breakpad",
        "--disable-crash-reporter",
        "--metrics-recording-only",
        "--password-store=basic",
        "--use-mock-keychain",
        "--mute-audio",
        // A tab that is not in front must keep running its timers and
        // rendering: an agent reads tabs it does not "look at".
        "--disable-background-timer-throttling",
        "--disable-backgrounding-occluded-windows",
        "--disable-renderer-backgrounding",
        "--disable-hang-monitor",
        // Not --disable-ipc-flooding-protection (which automation tools
        // often pass): the protection is what stops a page that calls
        // history.pushState 10,000 times from keeping the browser busy for
        // seconds after it (past 200 in 10 s, the page's own call throws).
        // Containers give /dev/shm 64 MB; Chrome crashes tabs when it fills.
        "--disable-dev-shm-usage",
        // No back/forward cache: a history navigation is then an ordinary
        // load with a load event, like every other. No omnibox popup pages:
        // Chrome 156 makes two (a renderer of their own) for every window,
        // so for every session's browser context, and no one sees them.
        // No new frame host for every document (RenderDocument): a load
        // within a site keeps the tab's frame, some 9 ms less per page on
        // this Chromium; each page still gets a document and worlds of its
        // own, and each site its own process. The frame keeps where the
        // pointer rests, so a page loaded under it is hovered, as under a
        // mouse held still.
        "--disable-features=NetworkTimeServiceQuerying,Translate,MediaRouter,BackForwardCache,\
         OptimizationHints,InterestFeedContentSuggestions,CertificateTransparencyComponentUpdater,\
         AutofillServerCommunication,DialMediaRouteProvider,WebUIOmniboxPopup,WebUIOmniboxAimPopup,\
         RenderDocument",
        // The browser's own Google services (account checks, component
        // downloads) pointed at names that resolve nowhere: no request of
        // the browser's then passes for a page's, refused outside a task.
        "--gaia-url=https://gaia.invalid/",
        "--google-apis-url=https://apis.invalid/",
        "--lso-url=https://lso.invalid/",
        "--component-updater=url-source=https://update.invalid/service/update2/json",
        // navigator.webdriver stays false.
        "--disable-blink-features=AutomationControlled",
        "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    ]
    .iter()
    .map(|flag| (*flag).to_owned())
    .collect();
    if !options.headed {
        flags.push("--headless=new".to_owned());
        flags.push("--hide-scrollbars".to_owned());
    }
    if nix::unistd::geteuid().is_root() {
        // Chrome refuses to run its sandbox as root.
        flags.push("--no-sandbox".to_owned());
    }
    if let Some(major) = major {
        flags.push(format!("--user-agent={}", ordinary_user_agent(major)));
    }
    if let Some(proxy) = &options.proxy {
        flags.extend(proxy_flags(proxy));
    }
    flags.push(format!(
        "--window-size={},{}",
        options.width, options.height
    ));
    flags.push(format!("--user-data-dir={}", user_data_dir.display()));
    let page_tools = options
        .page_tools
        .then(|| "--enable-features=WebMCP".to_owned());
    for extra in page_tools.iter().chain(&options.extra_args) {
        // Chrome reads only the last --disable-features (and the last
        // --enable-features): a later list joins the one before rather
        // than bringing back what it turns off or dropping what it turns on.
        let list = ["--disable-features=", "--enable-features="]
            .into_iter()
            .find(|prefix| extra.starts_with(prefix));
        let joined = list.and_then(|prefix| {
            let more = extra.strip_prefix(prefix).filter(|more| !more.is_empty())?;
            let earlier = flags.iter_mut().find(|flag| flag.starts_with(prefix))?;
            earlier.push(',');
            earlier.push_str(more);
            Some(())
        });
        if joined.is_none() {
            flags.push(extra.clone());
        }
    }
    flags
}

/// The flags that force every request through `proxy`: loopback is not
/// bypassed (`<-loopback>` removes Chrome's implicit bypass of localhost,
/// 127.0.0.0/8 and link-local), and Chrome resolves no name itself, so
/// nothing that skips the proxy (WebRTC, prefetch of DNS) can look one up.
pub fn proxy_flags(proxy: &str) -> Vec<String> {
    // The one host Chrome must still reach itself: the proxy's (on another
    // machine's address when the guard listens there for a remote browser).
    let host = proxy
        .split_once("://")
        .map_or(proxy, |(_, rest)| rest)
        .rsplit_once(':')
        .map_or("127.0.0.1", |(host, _)| host);
    vec![
        format!("--proxy-server={proxy}"),
        "--proxy-bypass-list=<-loopback>".to_owned(),
        format!("--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE {host}"),
    ]
}

/// The profile preferences every session gets: downloads blocked, no network
/// prediction, WebRTC only through a proxy, no DNS over HTTPS, and a clean exit
/// type so Chrome never offers to restore a crashed session, and an empty
/// page to start on: with none named (chromedriver names none), Chrome's
/// new tab page loads the default search engine's own (Debian's:
/// start.duckduckgo.com), a request no page made, which a strict task
/// would refuse and report as the page's. (Not `about:blank`: Chrome then
/// keeps the window's focus from the pages a session opens after it,
/// `document.hasFocus()` false, and an editor ignores a selection made in
/// a page without the focus.)
pub fn profile_preferences() -> serde_json::Value {
    serde_json::json!({
        "session": { "restore_on_startup": 4, "startup_urls": ["data:,"] },
        "download_restrictions": 3,
        "download": { "prompt_for_download": false },
        "net": { "network_prediction_options": 2 },
        "webrtc": { "ip_handling_policy": "disable_non_proxied_udp" },
        "dns_over_https": { "mode": "off" },
        "profile": { "exit_type": "Normal", "exited_cleanly": true },
        "credentials_enable_service": false,
        "safebrowsing": { "enabled": false },
        "search": { "suggest_enabled": false },
    })
}

/// A Chrome profile directory: a temporary one deleted when this is dropped,
/// or the user's persistent one, left in place.
#[derive(Debug)]
pub enum Profile {
    /// A fresh directory, deleted on drop.
    Temporary(tempfile::TempDir),
    /// A directory the user named; kept.
    Persistent(PathBuf),
}

impl Profile {
    /// Makes the profile `options` asks for and writes our preferences into
    /// it (merged into any the persistent profile already has).
    pub fn prepare(options: &Options) -> Result<Self> {
        let profile = match &options.profile_dir {
            Some(dir) => {
                std::fs::create_dir_all(dir).map_err(|error| DriverError::Launch {
                    reason: format!("cannot create profile directory {}: {error}", dir.display()),
                })?;
                Profile::Persistent(dir.clone())
            }
            None => Profile::Temporary(
                tempfile::Builder::new()
                    .prefix("tabwright-profile-")
                    .tempdir()
                    .map_err(|error| DriverError::Launch {
                        reason: format!("cannot create a temporary profile: {error}"),
                    })?,
            ),
        };
        profile.write_preferences()?;
        Ok(profile)
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        match self {
            Profile::Temporary(dir) => dir.path(),
            Profile::Persistent(dir) => dir,
        }
    }

    fn write_preferences(&self) -> Result<()> {
        let default_dir = self.path().join("Default");
        let file = default_dir.join("Preferences");
        let io_error = |error: std::io::Error| DriverError::Launch {
            reason: format!("cannot write {}: {error}", file.display()),
        };
        std::fs::create_dir_all(&default_dir).map_err(io_error)?;
        let mut preferences = std::fs::read(&file)
            .ok()
            .and_then(|bytes| serde_json::from_slice::<serde_json::Value>(&bytes).ok())
            .filter(serde_json::Value::is_object)
            .unwrap_or_else(|| serde_json::json!({}));
        merge(&mut preferences, profile_preferences());
        std::fs::write(&file, preferences.to_string()).map_err(io_error)
    }
}

fn merge(into: &mut serde_json::Value, from: serde_json::Value) {
    match (into, from) {
        (serde_json::Value::Object(into), serde_json::Value::Object(from)) => {
            for (key, value) in from {
                merge(into.entry(key).or_insert(serde_json::Value::Null), value);
            }
        }
        (into, from) => *into = from,
    }
}

/// A Chrome we started, in a process group of its own so that ending the
/// group ends every process Chrome forked (zygotes, renderers, GPU, network
/// service). Dropping it kills the group and reaps the browser process.
#[derive(Debug)]
pub struct ChromeProcess {
    child: Child,
    devtools_url: Mutex<mpsc::Receiver<String>>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
}

impl ChromeProcess {
    /// Starts `executable` with `args`, its stderr drained by a thread that
    /// remembers the last lines (for error messages) and picks out the
    /// `DevTools listening on ws://…` line.
    pub fn spawn(executable: &Path, args: &[String]) -> Result<Self> {
        Self::spawn_with(executable, args, |_| {})
    }

    /// [`spawn`](Self::spawn) with these environment variables besides
    /// this process's.
    pub fn spawn_with_env(
        executable: &Path,
        args: &[String],
        env: &[(&str, &str)],
    ) -> Result<Self> {
        Self::spawn_with(executable, args, |command| {
            command.envs(env.iter().copied());
        })
    }

    /// Starts `executable` with `args` driven over a pipe: `args` asks for
    /// `--remote-debugging-pipe`, and Chrome reads commands from its file
    /// descriptor 3 and writes answers and events to 4 (each message ends
    /// with a NUL). No port is opened, so no other process can drive it.
    /// Returns the process, the end to write commands to and the end to
    /// read from.
    #[allow(unsafe_code)]
    pub fn spawn_piped(
        executable: &Path,
        args: &[String],
    ) -> Result<(Self, std::os::fd::OwnedFd, std::os::fd::OwnedFd)> {
        use std::os::fd::AsRawFd;
        use std::os::unix::process::CommandExt;
        let pipe = || {
            nix::unistd::pipe2(nix::fcntl::OFlag::O_CLOEXEC).map_err(|error| DriverError::Launch {
                reason: format!("cannot make the DevTools pipe: {error}"),
            })
        };
        let (commands_in, commands_out) = pipe()?;
        let (answers_in, answers_out) = pipe()?;
        let (read_end, write_end) = (commands_in.as_raw_fd(), answers_out.as_raw_fd());
        let process = Self::spawn_with(executable, args, |command| {
            // SAFETY: the closure runs in the child between fork and exec,
            // where only async-signal-safe calls are allowed: fcntl(2) and
            // dup2(2) are system calls that neither allocate nor take locks.
            // The two ends are copied above 10 first, so that neither is 3
            // or 4 already (dup2 onto itself would keep close-on-exec); the
            // copies onto 3 and 4 are not closed on exec, the rest are.
            unsafe {
                command.pre_exec(move || {
                    let read = libc::fcntl(read_end, libc::F_DUPFD_CLOEXEC, 10);
                    let write = libc::fcntl(write_end, libc::F_DUPFD_CLOEXEC, 10);
                    if read < 0 || write < 0 || libc::dup2(read, 3) < 0 || libc::dup2(write, 4) < 0
                    {
                        return Err(std::io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
        })?;
        // The child's ends are the child's now.
        drop((commands_in, answers_out));
        Ok((process, commands_out, answers_in))
    }

    fn spawn_with(
        executable: &Path,
        args: &[String],
        prepare: impl FnOnce(&mut Command),
    ) -> Result<Self> {
        use std::os::unix::process::CommandExt;
        let mut command = Command::new(executable);
        command
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .process_group(0);
        prepare(&mut command);
        let mut child = spawn_tied(command).map_err(|error| DriverError::Launch {
            reason: format!("cannot run {}: {error}", executable.display()),
        })?;
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let (url_sender, devtools_url) = mpsc::channel();
        if let Some(stderr) = child.stderr.take() {
            let tail = Arc::clone(&stderr_tail);
            std::thread::Builder::new()
                .name("chrome-stderr".to_owned())
                .spawn(move || drain_stderr(stderr, &tail, &url_sender))
                .map_err(|error| DriverError::Launch {
                    reason: format!("cannot start the stderr reader: {error}"),
                })?;
        }
        Ok(Self {
            child,
            devtools_url: Mutex::new(devtools_url),
            stderr_tail,
        })
    }

    /// The operating system's id of the browser process (also its group id).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Waits (blocking) for the browser to print its DevTools (Chrome) or
    /// WebDriver BiDi (Firefox) WebSocket URL.
    pub fn wait_for_devtools_url(&self, timeout: Duration) -> Result<String> {
        self.devtools_url
            .lock()
            .recv_timeout(timeout)
            .map_err(|error| DriverError::Launch {
                reason: match error {
                    mpsc::RecvTimeoutError::Timeout => format!(
                        "the browser printed no DevTools or BiDi URL within {} ms; its last output: {}",
                        timeout.as_millis(),
                        self.stderr_tail()
                    ),
                    mpsc::RecvTimeoutError::Disconnected => {
                        format!(
                            "the browser exited at start; its last output: {}",
                            self.stderr_tail()
                        )
                    }
                },
            })
    }

    /// Chrome's last stderr lines, joined, for error messages.
    pub fn stderr_tail(&self) -> String {
        let tail = self.stderr_tail.lock();
        if tail.is_empty() {
            "(nothing)".to_owned()
        } else {
            tail.iter().cloned().collect::<Vec<_>>().join(" | ")
        }
    }

    /// Whether the browser process has exited.
    pub fn has_exited(&mut self) -> bool {
        !matches!(self.child.try_wait(), Ok(None))
    }

    /// Waits up to `grace` for the browser to exit by itself (after a
    /// `Browser.close`), then kills the whole process group and reaps.
    pub fn shutdown(&mut self, grace: Duration) {
        let deadline = Instant::now() + grace;
        while Instant::now() < deadline && !self.has_exited() {
            std::thread::sleep(Duration::from_millis(20));
        }
        self.kill();
    }

    /// Kills the process group at once and reaps the browser process.
    pub fn kill(&mut self) {
        let group = Pid::from_raw(self.child.id() as i32);
        // ESRCH (no such group) means everything is already gone.
        let _ = killpg(group, Signal::SIGKILL);
        let _ = self.child.wait();
    }
}

impl Drop for ChromeProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Kills every process whose command line names `profile` as its
/// `--user-data-dir`: the Chrome that chromedriver started for us, which
/// lives in a process group of chromedriver's choosing. Returns how many.
pub fn kill_chrome_using(profile: &Path) -> usize {
    let flag = format!("--user-data-dir={}", profile.display());
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    let mut killed = 0;
    for pid in entries.filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<i32>().ok()) {
        let Ok(cmdline) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
            continue;
        };
        if cmdline
            .split(|byte| *byte == 0)
            .any(|arg| arg == flag.as_bytes())
        {
            let _ = nix::sys::signal::kill(Pid::from_raw(pid), Signal::SIGKILL);
            killed += 1;
        }
    }
    killed
}

fn drain_stderr(
    stderr: std::process::ChildStderr,
    tail: &Mutex<VecDeque<String>>,
    url_sender: &mpsc::Sender<String>,
) {
    for line in BufReader::new(stderr).lines() {
        let Ok(line) = line else { break };
        // (Firefox says where its WebDriver BiDi socket is the same way.)
        if let Some(url) = line
            .strip_prefix("DevTools listening on ")
            .or_else(|| line.strip_prefix("WebDriver BiDi listening on "))
        {
            let _ = url_sender.send(url.trim().to_owned());
        }
        let mut tail = tail.lock();
        if tail.len() == STDERR_LINES_KEPT {
            tail.pop_front();
        }
        tail.push_back(line);
    }
}

/// Starts `command` so that it dies with this process, however this one
/// ends (SIGKILL included, when no close or drop runs): Linux's parent-death
/// signal, set in the child before it runs its program. That signal follows
/// the *thread* that started the child, so every child is started from one
/// thread kept for the life of the process.
pub fn spawn_tied(command: Command) -> std::io::Result<Child> {
    type Request = (Command, mpsc::Sender<std::io::Result<Child>>);
    static SPAWNER: OnceLock<Mutex<mpsc::Sender<Request>>> = OnceLock::new();
    let spawner = SPAWNER.get_or_init(|| {
        let (requests, incoming) = mpsc::channel::<Request>();
        // Without the thread (none could be made), sending fails and the
        // caller starts the child itself, untied.
        let _ = std::thread::Builder::new()
            .name("tabwright-spawner".to_owned())
            .spawn(move || {
                for (mut command, answer) in incoming {
                    let _ = answer.send(spawn_dying_with_parent(&mut command));
                }
            });
        Mutex::new(requests)
    });
    let (answer, answered) = mpsc::channel();
    let sent = spawner.lock().send((command, answer));
    match sent {
        Ok(()) => answered
            .recv()
            .map_err(|_| std::io::Error::other("the spawner thread is gone"))?,
        // No spawner thread: start it from here, without the tie.
        Err(mpsc::SendError((mut command, _))) => command.spawn(),
    }
}

#[allow(unsafe_code)]
fn spawn_dying_with_parent(command: &mut Command) -> std::io::Result<Child> {
    use std::os::unix::process::CommandExt;
    let parent = nix::unistd::getpid();
    // SAFETY: the closure runs in the child between fork and exec, where
    // only async-signal-safe calls are allowed: prctl(2) and getppid(2) are
    // system calls that neither allocate nor take locks.
    unsafe {
        command.pre_exec(move || {
            nix::sys::prctl::set_pdeathsig(nix::sys::signal::Signal::SIGKILL)
                .map_err(std::io::Error::from)?;
            // The parent may have died before the signal was asked for.
            if nix::unistd::getppid() != parent {
                return Err(std::io::Error::other("the parent process is gone"));
            }
            Ok(())
        });
    }
    command.spawn()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_major_version_from_the_banner() {
        assert_eq!(parse_major_version("Chromium 156.0.8078.108 \n"), Some(156));
        assert_eq!(
            parse_major_version("Google Chrome 131.0.6778.85"),
            Some(131)
        );
        assert_eq!(parse_major_version("nonsense"), None);
    }

    #[test]
    fn extra_flags_come_last_so_they_win() {
        let options = Options {
            extra_args: vec!["--window-size=10,10".into()],
            ..Options::default()
        };
        let flags = chrome_flags(&options, Path::new("/tmp/p"), Some(156));
        assert_eq!(
            flags.last().map(String::as_str),
            Some("--window-size=10,10")
        );
        assert!(flags.contains(&"--headless=new".to_owned()));
        assert!(!flags.iter().any(|flag| flag.starts_with("--proxy-server")));
        let agent = flags.iter().find(|flag| flag.starts_with("--user-agent="));
        assert!(agent.is_some_and(|a| a.contains("Chrome/156.0.0.0") && !a.contains("Headless")));
        let guarded = Options {
            proxy: Some("http://127.0.0.1:9".into()),
            ..Options::default()
        };
        let flags = chrome_flags(&guarded, Path::new("/tmp/p"), None);
        for expected in [
            "--proxy-server=http://127.0.0.1:9",
            "--proxy-bypass-list=<-loopback>",
            "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
        ] {
            assert!(
                flags.contains(&expected.to_owned()),
                "{expected} missing from {flags:?}"
            );
        }
        let remote = proxy_flags("http://10.0.0.1:3128");
        for expected in [
            "--proxy-server=http://10.0.0.1:3128",
            "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 10.0.0.1",
        ] {
            assert!(
                remote.contains(&expected.to_owned()),
                "{expected} missing from {remote:?}"
            );
        }
    }

    #[test]
    fn a_callers_disabled_features_join_ours() {
        let options = Options {
            extra_args: vec!["--disable-features=SpareRendererForSitePerProcess".into()],
            ..Options::default()
        };
        let flags = chrome_flags(&options, Path::new("/tmp/p"), None);
        let disabled: Vec<&String> = flags
            .iter()
            .filter(|flag| flag.starts_with("--disable-features="))
            .collect();
        assert_eq!(disabled.len(), 1, "{flags:?}");
        assert!(disabled[0].contains("BackForwardCache"), "{}", disabled[0]);
        assert!(
            disabled[0].ends_with(",SpareRendererForSitePerProcess"),
            "{}",
            disabled[0]
        );
    }

    #[test]
    fn enabled_features_join_too() {
        let options = Options {
            page_tools: true,
            extra_args: vec!["--enable-features=Other".into()],
            ..Options::default()
        };
        let flags = chrome_flags(&options, Path::new("/tmp/p"), None);
        let enabled: Vec<&String> = flags
            .iter()
            .filter(|flag| flag.starts_with("--enable-features="))
            .collect();
        assert_eq!(enabled, ["--enable-features=WebMCP,Other"], "{flags:?}");
    }

    #[test]
    fn preferences_merge_into_an_existing_profile() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let default_dir = dir.path().join("Default");
        std::fs::create_dir_all(&default_dir).unwrap_or_else(|e| panic!("{e}"));
        std::fs::write(
            default_dir.join("Preferences"),
            r#"{"keep":1,"net":{"other":2}}"#,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let options = Options {
            profile_dir: Some(dir.path().to_owned()),
            ..Options::default()
        };
        let profile = Profile::prepare(&options).unwrap_or_else(|e| panic!("{e}"));
        let written: serde_json::Value = serde_json::from_slice(
            &std::fs::read(profile.path().join("Default/Preferences")).unwrap_or_default(),
        )
        .unwrap_or_default();
        assert_eq!(written["keep"], 1);
        assert_eq!(written["net"]["other"], 2);
        assert_eq!(written["net"]["network_prediction_options"], 2);
        assert_eq!(written["download_restrictions"], 3);
    }
}
