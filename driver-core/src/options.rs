//! [`Options`]: how a driver starts its browser. The default is what most
//! callers want and is the safe choice.

use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Default viewport width: wide enough that sites serve their desktop layout.
pub const DEFAULT_WIDTH: u32 = 1280;
/// Default viewport height: a laptop screen, so "on screen" means what a person sees.
pub const DEFAULT_HEIGHT: u32 = 800;
/// Default cap on one driver call.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// One frame of a live view: a JPEG of the viewport, sent only when it changed.
#[derive(Debug, Clone)]
pub struct ScreencastFrame {
    /// JPEG bytes.
    pub jpeg: Vec<u8>,
    /// Width of the frame in device pixels.
    pub width: u32,
    /// Height of the frame in device pixels.
    pub height: u32,
}

/// Called with each screencast frame. It runs on the driver's event task:
/// return quickly and never call back into the driver from it.
pub type FrameCallback = Arc<dyn Fn(ScreencastFrame) + Send + Sync>;

/// Asked twice a second while there is a screencast: whether anyone wants
/// its frames now. While not, the screencast is stopped, and Chrome draws
/// nothing for it.
pub type FramesWanted = Arc<dyn Fn() -> bool + Send + Sync>;

/// Judges a document before its request leaves ([`Options::pages_go`]):
/// given the URL (each hop of a redirect) and how it is asked for, `true`
/// lets it load, `false` refuses it (the browser shows its blocked-request
/// error in place). It runs on the driver's event task: return quickly,
/// and never call back into the driver from it.
pub type PagesGo = Arc<dyn Fn(&str, Asked) -> bool + Send + Sync>;

/// How a document is asked for, as [`PagesGo`] is told.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Asked {
    /// A tab's next page, fetched (`GET`): a link followed, a script's
    /// `location`, a tab opened.
    Read,
    /// A document sent something (`POST` or any method but `GET` and
    /// `HEAD`): a form posted, in a tab or in a frame.
    Sent,
}

impl Asked {
    /// How a request of `method` asks for its document.
    pub fn by(method: &str) -> Self {
        if method.eq_ignore_ascii_case("GET") || method.eq_ignore_ascii_case("HEAD") {
            Self::Read
        } else {
            Self::Sent
        }
    }
}

/// Scripts run in tabwright's own world of every new document, before a
/// call looks in it ([`Driver::preload`](crate::Driver::preload)): what a
/// later call would otherwise send whole, the first time, into every
/// document. One list, shared by every clone of the [`Options`] holding
/// it, so a browser started (or restarted) later, and a tab opened later,
/// have what was added before.
#[derive(Clone, Default)]
pub struct Preloads(Arc<std::sync::RwLock<Vec<Arc<str>>>>);

impl Preloads {
    /// Adds `source` (once: a script already there is not added again).
    pub fn add(&self, source: &str) {
        let mut kept = self
            .0
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if !kept.iter().any(|known| &**known == source) {
            kept.push(Arc::from(source));
        }
    }

    fn kept(&self) -> std::sync::RwLockReadGuard<'_, Vec<Arc<str>>> {
        self.0
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Whether nothing was added.
    pub fn is_empty(&self) -> bool {
        self.kept().is_empty()
    }

    /// The scripts as one, each in a block of its own so one that throws
    /// does not keep the next from running; empty when there are none.
    pub fn source(&self) -> String {
        self.kept()
            .iter()
            .map(|script| format!("try {{\n{script}\n}} catch (_) {{}}\n"))
            .collect()
    }
}

impl fmt::Debug for Preloads {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Preloads({} scripts)", self.kept().len())
    }
}

/// How a driver starts (or finds) its browser.
///
/// `Options::default()` is a headless 1280x800 Chromium found on this machine,
/// with a fresh temporary profile deleted on close and a 30 s cap on every
/// call. Change only what you need:
///
/// ```
/// use tabwright_driver_core::Options;
/// let options = Options { headed: true, ..Options::default() };
/// assert_eq!(options.width, 1280);
/// ```
#[derive(Clone)]
pub struct Options {
    /// The Chrome or Chromium binary. `None` looks, in order, at
    /// `$TABWRIGHT_CHROME`, Debian's real binary `/usr/lib/chromium/chromium`
    /// (the `/usr/bin/chromium` wrapper adds flags and API keys we don't
    /// want), then `google-chrome`, `chromium` and friends on `PATH` and the
    /// usual install paths.
    pub executable: Option<PathBuf>,

    /// Show a browser window. Off by default: headless is what a server
    /// wants, and a visible window steals focus on every navigation.
    pub headed: bool,

    /// Viewport width in CSS pixels. Default 1280.
    pub width: u32,

    /// Viewport height in CSS pixels. Default 800. It matters more than
    /// usual: a snapshot lists what is on screen, so a short viewport means
    /// more scrolling.
    pub height: u32,

    /// A persistent profile directory. `None` (the default) gives each
    /// session a fresh temporary profile deleted on close, which is what keeps
    /// one session's cookies from another's. Two browsers on one directory
    /// fight over its lock.
    pub profile_dir: Option<PathBuf>,

    /// The cap on a single driver call. Default 30 s. A call that hits it
    /// fails with a timeout error and the driver stays usable.
    pub timeout: Duration,

    /// Extra Chrome command-line flags (with their leading dashes), applied
    /// after the defaults so they win. Default none.
    pub extra_args: Vec<String>,

    /// Connect to a browser that is already running instead of starting one.
    /// For the CDP backend, `http://host:port` (the `--remote-debugging-port`)
    /// or a `ws://` DevTools URL; for the WebDriver backend, the remote end's
    /// URL (a chromedriver or a Selenium Grid). Closing the driver then only
    /// disconnects. Default `None`: start our own.
    pub endpoint: Option<String>,

    /// How often a session at a remote WebDriver end is kept alive while
    /// it waits for calls: a Selenium Grid ends a session that sent no
    /// WebDriver command for its session timeout (300 s by default), and
    /// a model may think for longer. Default 60 s.
    pub keep_alive: Duration,

    /// An HTTP proxy that every request of the browser must go through,
    /// loopback included: `http://127.0.0.1:PORT`. The driver also turns off
    /// Chrome's own DNS, so nothing bypasses it. This is how the guard's
    /// egress proxy is wired in (the `tabwright` facade sets it for you);
    /// `None`, the default here, leaves the browser's network unrestricted.
    pub proxy: Option<String>,

    /// Called with a JPEG each time the viewport changes: a live view of a
    /// headless browser. Chrome sends a frame only when something changed and
    /// waits for each acknowledgement, so an idle page costs nothing and a
    /// slow consumer drops frames instead of queueing them. Default `None`.
    pub on_frame: Option<FrameCallback>,

    /// Whether [`on_frame`](Self::on_frame)'s frames are wanted now (a
    /// person has the live view open). `None`, the default: always.
    pub frames_wanted: Option<FramesWanted>,

    /// Where downloads land, and how large each may be. `None`, the
    /// default, refuses every download: nothing a page sends lands on
    /// disk. A backend that cannot cap them (WebDriver) refuses to start
    /// with it.
    pub downloads: Option<crate::Downloads>,

    /// Keep the network log ([`Driver::network_log`](crate::Driver::network_log)):
    /// a copy of every request's headers (CDP, from events it receives
    /// anyway), or chromedriver recording every tab's network events (its
    /// performance log). It costs on every request, so it is off unless
    /// asked for; the tools' `--caps network` asks. Default `false`.
    pub network_log: bool,

    /// Let pages offer tools of their own (WebMCP: Chromium started with
    /// `--enable-features=WebMCP`), which tabwright lists and calls in its
    /// own script world. Off by default; the tools' `--caps page_tools`
    /// asks. Without it [`Capability::PageTools`](crate::Capability::PageTools)
    /// is unsupported. Sessions sharing one browser share its features.
    pub page_tools: bool,

    /// The session's memory budget in MiB: its renderers and its share of
    /// the browser (see [`Memory`](crate::Memory)). A tab whose renderer
    /// holds a quarter of it moves to a fresh renderer at its next
    /// navigation (the CDP backend, on a browser it started), and a
    /// session still over it after that is told so in the answer. `None`
    /// keeps no budget. Default 2,048 MiB.
    pub memory_budget_mb: Option<u64>,

    /// The scripts kept for tabwright's world of every new document (see
    /// [`Preloads`]). Empty by default; the tool pack adds its page
    /// scripts.
    pub preloads: Preloads,

    /// Where a tab's top-level document may come from, and where a
    /// document may be sent to (see [`PagesGo`]): a link the page follows,
    /// a form it posts (into a frame too), a script's `location`, a tab it
    /// opens, each redirect on the way, judged before the request leaves;
    /// a frame's own page and what a page fetches are not asked. `None`,
    /// the default: anywhere the proxy lets through. The guard sets it
    /// when a task names its origins. It costs: Chrome
    /// then routes each request of a page through DevTools' interception,
    /// Firefox each through BiDi (a page of 100 images loads about a third
    /// slower).
    pub pages_go: Option<PagesGo>,
}

impl Options {
    /// With [`endpoint`](Self::endpoint), refuses what names something on
    /// this machine that a browser started elsewhere (or already running)
    /// cannot use, rather than starting without it: a profile folder and a
    /// browser binary. Both backends ask before they connect.
    pub fn refuse_local_only(&self) -> crate::Result<()> {
        let Some(endpoint) = &self.endpoint else {
            return Ok(());
        };
        let refused = if self.profile_dir.is_some() {
            "a profile folder (--profile-dir)"
        } else if self.executable.is_some() {
            "a browser binary (--browser-path)"
        } else {
            return Ok(());
        };
        Err(crate::DriverError::Launch {
            reason: format!(
                "{refused} is on this machine, and the browser at {endpoint} is not started from it: leave it out, or drive a browser tabwright starts"
            ),
        })
    }
}

impl Default for Options {
    fn default() -> Self {
        Self {
            executable: None,
            headed: false,
            width: DEFAULT_WIDTH,
            height: DEFAULT_HEIGHT,
            profile_dir: None,
            timeout: DEFAULT_TIMEOUT,
            extra_args: Vec::new(),
            endpoint: None,
            keep_alive: Duration::from_secs(60),
            proxy: None,
            on_frame: None,
            frames_wanted: None,
            downloads: None,
            network_log: false,
            page_tools: false,
            memory_budget_mb: Some(crate::DEFAULT_BUDGET_MB),
            preloads: Preloads::default(),
            pages_go: None,
        }
    }
}

impl fmt::Debug for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Options")
            .field("executable", &self.executable)
            .field("headed", &self.headed)
            .field("width", &self.width)
            .field("height", &self.height)
            .field("profile_dir", &self.profile_dir)
            .field("timeout", &self.timeout)
            .field("extra_args", &self.extra_args)
            .field("endpoint", &self.endpoint)
            .field("keep_alive", &self.keep_alive)
            .field("proxy", &self.proxy)
            .field("downloads", &self.downloads)
            .field("network_log", &self.network_log)
            .field("page_tools", &self.page_tools)
            .field("memory_budget_mb", &self.memory_budget_mb)
            .field("preloads", &self.preloads)
            .field(
                "on_frame",
                &self.on_frame.as_ref().map(|_| "Fn(ScreencastFrame)"),
            )
            .field(
                "frames_wanted",
                &self.frames_wanted.as_ref().map(|_| "Fn() -> bool"),
            )
            .field(
                "pages_go",
                &self.pages_go.as_ref().map(|_| "Fn(&str, Asked) -> bool"),
            )
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::{Options, Preloads};

    #[test]
    fn preloads_are_shared_by_clones_and_kept_once() {
        let options = Options::default();
        let later = options.clone();
        assert!(later.preloads.is_empty());
        options.preloads.add("globalThis.a = 1;");
        options.preloads.add("globalThis.b = 2;");
        options.preloads.add("globalThis.a = 1;");
        // A clone made before sees what was added after.
        let source = later.preloads.source();
        assert_eq!(source.matches("globalThis.a = 1;").count(), 1);
        assert!(source.find("globalThis.a").unwrap() < source.find("globalThis.b").unwrap());
        // Each in a block of its own: one that throws spares the next.
        assert_eq!(source.matches("try {").count(), 2);
        assert_eq!(Preloads::default().source(), "");
    }
}
