//! tabwright's browser backend over W3C WebDriver.
//!
//! [`WebDriverDriver`] speaks WebDriver through fantoccini, either to a
//! chromedriver it starts itself (found on `PATH` or at Debian's
//! `/usr/bin/chromedriver`, on a free port, its log kept for error messages)
//! or to any remote end the user names: a chromedriver elsewhere, or a
//! Selenium Grid 4 hub. Scale-out is pointing at a grid, not a pool of ours.
//!
//! ```no_run
//! use tabwright_driver_webdriver::{Driver, DriverError, Options, WebDriverDriver};
//!
//! # async fn run() -> Result<(), DriverError> {
//! let grid = WebDriverDriver::new(Options {
//!     endpoint: Some("http://grid.internal:4444".into()),
//!     ..Options::default()
//! });
//! let page = grid.navigate("https://example.com/").await?;
//! grid.close().await?;
//! # Ok(()) }
//! ```
//!
//! # What it does differently from CDP
//!
//! The behaviour is the CDP backend's, held to the same conformance suite.
//! What WebDriver has no word for it reaches over the browser's own
//! DevTools socket beside it (`relay`): the profile's `DevToolsActivePort`
//! for a chromedriver of its own, or a Selenium Grid's `se:cdp` relay
//! (its host rewritten to the address the Grid was reached at). Over it:
//! tabwright's own script world, the screencast for a live view, reports
//! of refused downloads, a dialog's kind, and stopping a page that spins.
//! Besides:
//!
//! - the HTTP status comes from the page's own Navigation Timing entry
//!   (`responseStatus`), which Chromium fills in;
//! - JPEG, WebP and full-page screenshots go through chromedriver's CDP
//!   bridge (`goog/cdp/execute`); an end without it answers `Unsupported`;
//! - console messages come from chromedriver's browser log;
//! - each session is a browser of its own (WebDriver has no browser
//!   contexts), requests in flight are watched from the page, and a
//!   remote end with no DevTools relay has no isolated world, screencast
//!   or download reports: [`Driver::capabilities`] says so.
//!
//! It is slower than CDP: every call is an HTTP request to chromedriver,
//! which then speaks CDP itself.
//!
//! # Firefox
//!
//! [`FirefoxDriver`] drives Firefox over WebDriver BiDi: a Firefox it
//! starts (its own BiDi socket, no geckodriver), or, with
//! `options.endpoint`, a session of a WebDriver end there (geckodriver, a
//! Selenium Grid's Firefox nodes) whose BiDi socket it speaks.

mod actions;
mod calls;
mod chromedriver;
mod console;
mod dialogs;
mod errors;
pub mod firefox;
mod firefox_calls;
mod firefox_devtools;
mod firefox_frames;
mod firefox_network;
mod firefox_pictures;
mod firefox_remote;
mod firefox_session;
mod input;
mod navigation;
mod network;
mod relay;
mod screenshots;
mod scripts;
mod session;
mod tabs;

pub use driver_core::{
    Capabilities, Capability, ConsoleEntry, Dialog, Download, Driver, DriverError, KeyPress,
    Navigation, Options, Result, ScreenshotOptions, Tab, TabId, Viewport, WaitFor,
};

pub use firefox_session::{FirefoxDriver, FxSession};
pub use session::WdSession;

/// A [`Driver`] over W3C WebDriver (see the crate docs):
/// `WebDriverDriver::new(options)` starts chromedriver and Chrome (or
/// connects to `options.endpoint`) on its first call. It is driver-core's
/// one generic driver over this backend's [`WdSession`].
pub type WebDriverDriver = driver_core::backend::SessionDriver<WdSession>;
