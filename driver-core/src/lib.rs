//! The contract every tabwright browser backend implements.
//!
//! A [`Driver`] is one browser session seen from one agent: a handful of tabs,
//! one of them current, driven one call at a time. Everything a model does to a
//! page (open it, read it, click, type, go back, switch tabs) is built from the
//! calls on this trait, and the two backends (`driver-cdp` over the DevTools
//! Protocol, `driver-webdriver` over W3C WebDriver) are held to the same
//! behaviour by one conformance suite.
//!
//! # Why one trait, and who implements it
//!
//! The tool layer above must not care which protocol moves the browser: a user
//! picks CDP for speed and live view, WebDriver to run on a Selenium grid. So the
//! trait (some forty calls: what a session of a browser is asked) says only
//! what both can honour, states its contract (lazy start, serialised calls,
//! idempotent close) once here, and lets a backend declare what it cannot do
//! through [`Driver::capabilities`] rather than fake it. A backend does not
//! implement `Driver` itself: it implements `backend::BrowserSession` (its
//! protocol's half) and is driven by the generic `backend::SessionDriver`,
//! which checks the arguments, labels the errors and bounds every call; the
//! guard's `GuardedDriver` is the one hand-written `Driver` besides.
//!
//! This crate depends on no browser crate: a program that only consumes the
//! trait (or a test that fakes it) builds without chromiumoxide or fantoccini.
//! What the backends share besides the contract (starting Chrome, the page
//! script behind the selector calls, the supervisor that wraps every call)
//! is in [`backend`], behind the `backend` feature, which only backends turn
//! on.
//!
//! ```no_run
//! use std::sync::Arc;
//! use tabwright_driver_core::{Driver, DriverError};
//!
//! async fn title(driver: Arc<dyn Driver>, url: &str) -> Result<String, DriverError> {
//!     driver.navigate(url).await?;
//!     let title = driver.eval("document.title").await?;
//!     Ok(title.as_str().unwrap_or_default().to_owned())
//! }
//! ```

#[cfg(feature = "backend")]
pub mod backend;
mod capabilities;
mod driver;
mod error;
#[cfg(feature = "fake")]
pub mod fake;
mod journal;
mod keys;
mod memory;
mod options;
mod page_text;
mod paint;
mod shots;
mod tree;

pub use capabilities::{Capabilities, Capability};
pub use driver::{
    check_point, check_scroll, is_error_page, is_start_page, ConsoleEntry, ConsoleLevel, Dialog,
    DialogKind, Download, DownloadOutcome, Downloads, Driver, FileChooser, Navigation, Request,
    ScreenshotFormat, ScreenshotOptions, Tab, TabId, Viewport, WaitFor, DOCUMENT_STATUS,
    NETWORK_LOG_KEPT,
};
pub use error::{DriverError, Result, Unusable};
pub use journal::Journal;
pub use keys::{Click, Key, KeyPress, Modifiers, MouseButton};
pub use memory::{renew_threshold_kib, Memory, DEFAULT_BUDGET_MB};
pub use options::{
    Asked, FrameCallback, FramesWanted, Options, PagesGo, Preloads, ScreencastFrame,
};
pub use page_text::{PageText, PageValue, DEBUG_CHARS};
pub use paint::{
    highlight_name, marker_colour, paint_sheet, FrameScript, PaintPictures, PaintProbe, MARKER_SIZE,
};
pub use shots::{FullPage, FULL_PAGE_PIXELS, LEAST_FULL_PAGE_SCALE, LONGEST_SIDE};
pub use tree::{Accessible, Generated, Handover, HANDED_AT_MOST};

/// A number no page can guess (the process's random hash keys, mixed with
/// the time): for marks, fence codes and probe paths. Not for credentials.
pub fn random_u64() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|since| since.as_nanos())
            .unwrap_or_default(),
    );
    hasher.finish()
}

/// The page script that judges what a person sees of an element and its
/// text, from what the browser paints: one judge, which the snapshot's
/// numbering (`marks`) and the selector calls share, joined before the
/// script that uses it. Seven files in this order (see `visibility.js`).
pub const VISIBILITY_JS: &str = concat!(
    include_str!("js/visibility.js"),
    include_str!("js/shown.js"),
    include_str!("js/colours.js"),
    include_str!("js/shapes.js"),
    include_str!("js/letters.js"),
    include_str!("js/lines.js"),
    include_str!("js/paint.js"),
);

/// The early hooks every backend runs in the page's own world at the start
/// of every document, before the page's scripts: they record which elements
/// a script gave a click, mouse or pointer listener (under
/// `Symbol.for(listeners_key())`, a `WeakSet`), so the snapshot can number
/// an anchor without `href` that a date picker listens to; and they list
/// the hosts of closed shadow roots and the elements given
/// `ElementInternals` (under `Symbol.for(listeners_key() + ".tree")`), for
/// a [`Handover`]. They only record. See the file.
pub fn listeners_js() -> &'static str {
    static SOURCE: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        include_str!("js/listeners.js").replace(LISTENERS_KEY_SLOT, listeners_key())
    });
    &SOURCE
}

/// Where the key goes in `js/listeners.js`.
const LISTENERS_KEY_SLOT: &str = "__LISTENERS_KEY__";

/// The key of the early hooks' record ([`listeners_js`]): drawn at random
/// once per process, so that what a page can read of the hooks does not
/// say tabwright.
pub fn listeners_key() -> &'static str {
    static KEY: std::sync::LazyLock<String> =
        std::sync::LazyLock::new(|| format!("{:016x}", random_u64()));
    &KEY
}
