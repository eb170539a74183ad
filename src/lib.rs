//! tabwright: a real, fast and guarded web browser for an AI agent.
//!
//! This is the facade crate users depend on. [`browser`] gives you a
//! [`Driver`] whose every request goes through the address guard: nothing a
//! page does can reach this machine or its network, except origins you allow
//! by name. Features pick the backends (both may be on):
//!
//! - `cdp` (default): Chrome over the DevTools Protocol;
//! - `webdriver`: W3C WebDriver (chromedriver or a Selenium Grid);
//! - `firefox`: Firefox over WebDriver BiDi (Debian's `firefox-esr`).
//!
//! ```no_run
//! # #[cfg(feature = "cdp")]
//! # async fn run() -> Result<(), tabwright::DriverError> {
//! use tabwright::{Backend, Driver, Options, Policy};
//!
//! let browser = tabwright::browser(Backend::Cdp, Options::default(), Policy::default());
//! let page = browser.navigate("https://example.com/").await?;
//! // The URL is the page's word: `untrusted` when it is not shown to a model.
//! println!("HTTP {:?} at {}", page.status, page.url.untrusted());
//! // Refused before the browser is even asked:
//! assert!(browser.navigate("http://169.254.169.254/").await.unwrap_err().is_refused());
//! browser.close().await?;
//! # Ok(()) }
//! ```
//!
//! Many agents on one machine: a [`Browser`] serves many sessions, each
//! with its own cookies, tabs, numbering and guard policy; on CDP they share
//! one Chrome (a browser context each), on WebDriver and Firefox each has its
//! own.
//!
//! ```no_run
//! # #[cfg(feature = "cdp")]
//! # async fn run() -> Result<(), tabwright::DriverError> {
//! use tabwright::{Backend, Browser, Driver, Options, Policy};
//!
//! let browser = Browser::new(Backend::Cdp, Options::default());
//! let alice = browser.session(Policy::default());
//! let bob = browser.session(Policy::default());
//! alice.navigate("https://example.com/").await?; // Bob sees none of Alice's cookies
//! alice.close().await?; // ends Alice's context, not the browser
//! browser.close().await; // ends the browser
//! # Ok(()) }
//! ```
//!
//! A browser without the guard exists only under a name that says so:
//! [`unguarded`].

// What a user of a browser needs, by name: the trait, its values and
// errors, the options; not what only backends use (starting Chrome, page
// scripts, the supervisor), which stays in `driver_core::backend`.
pub use driver_core::{
    Capabilities, Capability, ConsoleEntry, ConsoleLevel, Dialog, DialogKind, Download,
    DownloadOutcome, Downloads, Driver, DriverError, FrameCallback, Key, KeyPress, Memory,
    Modifiers, Navigation, Options, Request, Result, ScreencastFrame, ScreenshotFormat,
    ScreenshotOptions, Tab, TabId, Viewport, WaitFor, DEFAULT_BUDGET_MB,
};
pub use guard::{
    AllowedOrigin, Guard, GuardedDriver, IpNet, Policy, Reason, Refusal, RefusedClient, Task,
    TaskOrigin, UpstreamProxy,
};

/// The tool pack (the `tabwright-tools` crate): the tools a model calls,
/// their schemas and their answers, over a browser from [`browser`].
pub use tools as pack;

// The Rust examples of the README and the library guide, compiled as the
// crate's own (not run: they start a browser).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExamples;

#[cfg(doctest)]
#[doc = include_str!("../docs/library.md")]
struct LibraryExamples;

/// A browser backend this build has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Backend {
    /// Chrome over the DevTools Protocol (feature `cdp`).
    #[cfg(feature = "cdp")]
    Cdp,
    /// Chrome over W3C WebDriver (feature `webdriver`): a chromedriver it
    /// starts, or the remote end in `Options::endpoint`.
    #[cfg(feature = "webdriver")]
    WebDriver,
    /// Firefox over WebDriver BiDi (feature `firefox`): a Firefox it
    /// starts (its own socket, no geckodriver), or a session of the remote
    /// end in `Options::endpoint` (geckodriver, a Selenium Grid's Firefox
    /// node).
    #[cfg(feature = "firefox")]
    Firefox,
}

impl Backend {
    /// How a guard makes a driver of this backend (each session its own
    /// browser; CDP's shared browser is [`Browser`]'s).
    fn own_browser(self) -> guard::MakeDriver {
        match self {
            #[cfg(feature = "cdp")]
            Backend::Cdp => Box::new(|options| Box::new(driver_cdp::CdpDriver::new(options))),
            #[cfg(feature = "webdriver")]
            Backend::WebDriver => {
                Box::new(|options| Box::new(driver_webdriver::WebDriverDriver::new(options)))
            }
            #[cfg(feature = "firefox")]
            Backend::Firefox => {
                Box::new(|options| Box::new(driver_webdriver::FirefoxDriver::new(options)))
            }
        }
    }
}

/// A guarded browser on `backend`: the egress proxy starts with the browser
/// (on the first call), and only `policy`'s allowed origins are exempt from
/// the address rules.
pub fn browser(backend: Backend, options: Options, policy: Policy) -> GuardedDriver {
    GuardedDriver::new(Guard::new(policy), options, backend.own_browser())
}

/// A browser for many sessions (see the crate docs). Cheap to make and to
/// clone; it starts nothing until a session's first call.
#[derive(Clone)]
pub struct Browser {
    backend: Backend,
    options: Options,
    #[cfg(feature = "cdp")]
    shared: driver_cdp::SharedBrowser,
}

impl Browser {
    /// A browser on `backend`, started with `options` when a session first
    /// needs it (on WebDriver and Firefox: each session starts its own with
    /// them).
    pub fn new(backend: Backend, options: Options) -> Self {
        Self {
            backend,
            #[cfg(feature = "cdp")]
            shared: driver_cdp::SharedBrowser::new(options.clone()),
            options,
        }
    }

    /// A session: its own cookies, storage, tabs and numbering, and its own
    /// guard with `policy` (an egress proxy of its own, so its allow-list is
    /// its alone). Calls of one session are serialised; sessions run at
    /// once. Closing it ends its tabs, not the browser.
    pub fn session(&self, policy: Policy) -> GuardedDriver {
        self.session_with(policy, self.options.clone())
    }

    /// [`session`](Self::session), its screencast frames (CDP) given to
    /// `on_frame` while `wanted` says so: what a live view shows.
    pub fn watched_session(
        &self,
        policy: Policy,
        on_frame: driver_core::FrameCallback,
        wanted: driver_core::FramesWanted,
    ) -> GuardedDriver {
        let mut options = self.options.clone();
        options.on_frame = Some(on_frame);
        options.frames_wanted = Some(wanted);
        self.session_with(policy, options)
    }

    fn session_with(&self, policy: Policy, options: Options) -> GuardedDriver {
        let make: guard::MakeDriver = match self.backend {
            #[cfg(feature = "cdp")]
            Backend::Cdp => {
                let shared = self.shared.clone();
                Box::new(move |options| Box::new(shared.session(options)))
            }
            #[allow(unreachable_patterns)]
            other => other.own_browser(),
        };
        GuardedDriver::new(Guard::new(policy), options, make)
    }

    /// Ends the shared browser (on WebDriver and Firefox there is none: each session
    /// ends its own). Sessions still open start it again on their next call.
    pub async fn close(&self) {
        #[cfg(feature = "cdp")]
        self.shared.close().await;
    }
}

/// Backends without the guard: the browser reaches whatever a page asks for,
/// this machine and its network included. For tools that bring their own
/// network isolation, and for testing the backends themselves.
pub mod unguarded {
    #[cfg(feature = "cdp")]
    pub use driver_cdp::CdpDriver;
    #[cfg(feature = "firefox")]
    pub use driver_webdriver::FirefoxDriver;
    #[cfg(feature = "webdriver")]
    pub use driver_webdriver::WebDriverDriver;
}
