//! tabwright: a real, fast and guarded web browser for an AI agent.
//!
//! This is the facade crate users depend on. It re-exports the [`Driver`]
//! contract and the backends its features turn on:
//!
//! - `cdp` (default): [`CdpDriver`], Chrome over the DevTools Protocol;
//! - `webdriver`: the W3C WebDriver backend (chromedriver or a Selenium Grid).
//!
//! ```no_run
//! use tabwright::{Driver, Options};
//!
//! # async fn run() -> Result<(), tabwright::DriverError> {
//! let driver = tabwright::CdpDriver::new(Options::default());
//! let page = driver.navigate("https://example.com/").await?;
//! println!("HTTP {:?} at {}", page.status, page.url);
//! driver.close().await?;
//! # Ok(()) }
//! ```

pub use driver_core::*;

#[cfg(feature = "cdp")]
pub use driver_cdp::CdpDriver;
