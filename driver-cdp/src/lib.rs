//! tabwright's browser backend over the Chrome DevTools Protocol.
//!
//! [`CdpDriver`] starts Debian's Chromium (or any Chrome) itself, or connects
//! to one already running, and implements [`Driver`] over CDP with
//! chromiumoxide's WebSocket connection and generated protocol types.
//!
//! ```no_run
//! use tabwright_driver_cdp::{CdpDriver, Driver, DriverError, Options};
//!
//! # async fn run() -> Result<(), DriverError> {
//! let driver = CdpDriver::new(Options::default());
//! let page = driver.navigate("https://example.com/").await?;
//! println!("{} answered {:?}", page.url.untrusted(), page.status);
//! driver.close().await?;
//! # Ok(()) }
//! ```
//!
//! # Why CDP directly
//!
//! CDP is what Chrome DevTools speaks and what every automation library ends
//! up speaking. Talking it directly is one hop instead of two (no chromedriver
//! in between): on a 2-core machine an eval round trip takes 0.8–1.2 ms here
//! against 6–10 ms through chromedriver, a click 16–30 ms against 34–49 ms
//! (`cargo xtask bench`, medians over several runs). It also gives what
//! WebDriver cannot: every target's events (popups, console), the live view
//! (screencast).
//!
//! # Why not chromiumoxide's `Handler`
//!
//! Its navigation queue has a fixed 30 s deadline that outlives our
//! timeouts, and it ignores certificate errors. We keep its WebSocket
//! connection and protocol types and drive the session with a small client
//! of our own (the `client` module).
//!
//! # One browser, one profile, one lock
//!
//! A driver is one Chrome process tree with a temporary profile, which is what
//! keeps sessions from seeing each other's cookies. Calls take one lock, so
//! two callers never race on the same page. Chrome starts on the first call
//! and its whole process group ends on [`Driver::close`] or drop. An idle
//! headless Chrome with one page is 9–10 processes and 374–402 MiB PSS on a
//! 2-core machine (`cargo xtask bench --only drivers`); plan concurrency
//! against that.

mod calls;
mod chrome;
mod client;
mod downloads;
mod events;
mod memory;
mod network;
mod page;
mod registry;
mod renderers;
mod session;
mod shared;

pub use driver_core::{
    Capabilities, ConsoleEntry, Dialog, Download, Driver, DriverError, KeyPress, Navigation,
    Options, Request, Result, ScreenshotOptions, Tab, TabId, Viewport, WaitFor,
};

pub use session::CdpSession;
pub use shared::SharedBrowser;

/// A [`Driver`] over the Chrome DevTools Protocol (see the crate docs):
/// `CdpDriver::new(options)` starts (or connects to) Chrome on its first
/// call. It is driver-core's one generic driver over this backend's
/// [`CdpSession`].
pub type CdpDriver = driver_core::backend::SessionDriver<CdpSession>;
