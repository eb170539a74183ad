//! Where what a page's scripts return and what DevTools answers of a page
//! come in: as [`PageValue`], JSON whose strings the page chose. The
//! driver's own calls (`eval`, `eval_isolated`, `eval_in_frame`,
//! `devtools`) answer plain JSON; clippy refuses them in this crate but
//! here, so every value a page gave arrives typed, its numbers and
//! booleans read freely, its strings as `PageText` that reach an answer
//! only through `page_strings`. Below everything of the crate that asks a
//! page, above nothing of it.

use driver_core::{Driver, DriverError, PageValue};
use serde_json::Value;

/// A driver, asked for values a page gives.
pub(crate) trait PageAnswers {
    /// `expression`'s value in tabwright's own world of the frame at
    /// `frame` (`[]`: the top document).
    async fn own_world(&self, frame: &[u32], expression: &str) -> Result<PageValue, DriverError>;

    /// `expression`'s value in the page's own world of the top document.
    async fn page_world(&self, expression: &str) -> Result<PageValue, DriverError>;

    /// DevTools' answer to `method`.
    async fn devtools_answer(&self, method: &str, params: Value) -> Result<PageValue, DriverError>;
}

#[allow(clippy::disallowed_methods)] // the door in
impl<D: Driver + ?Sized> PageAnswers for D {
    async fn own_world(&self, frame: &[u32], expression: &str) -> Result<PageValue, DriverError> {
        self.eval_isolated(frame, expression)
            .await
            .map(PageValue::new)
    }

    async fn page_world(&self, expression: &str) -> Result<PageValue, DriverError> {
        self.eval(expression).await.map(PageValue::new)
    }

    async fn devtools_answer(&self, method: &str, params: Value) -> Result<PageValue, DriverError> {
        self.devtools(method, params).await.map(PageValue::new)
    }
}

/// Whether the top document is the browser's own error page (Chrome's, in
/// place of a page whose request was refused or failed).
pub(crate) async fn shows_error_page(driver: &dyn Driver) -> bool {
    let Ok(address) = driver.own_world(&[], "location.href").await else {
        return false;
    };
    #[allow(clippy::disallowed_methods)] // compared, not shown
    let error = address
        .untrusted()
        .as_str()
        .is_some_and(driver_core::is_error_page);
    error
}

/// Where the document an element is in (the top document's for no
/// element) lies, as the browser reports it in tabwright's world: its
/// origin and path, as a URL (no query: the task's origins are judged by
/// origin and path). A frame of `srcdoc` or `about:blank` has the origin
/// and path of the document that made it; `None` for an opaque one
/// (`data:`, a sandbox) or where it cannot be read.
pub(crate) async fn document_url(driver: &dyn Driver, frame: &[u32]) -> Option<url::Url> {
    let origin = driver.own_world(frame, DOCUMENT_PLACE).await.ok()?;
    #[allow(clippy::disallowed_methods)] // parsed and compared, not shown
    let origin = url::Url::parse(origin.untrusted().as_str()?).ok();
    origin
}

/// The expression [`document_url`] asks: `location.origin` and the path of
/// the nearest document up the frames that has one of its own (a frame of
/// `about:blank` or `srcdoc` shares its maker's origin, and so its page).
const DOCUMENT_PLACE: &str = "(() => { let place = window; \
    try { while (!/^https?:$/.test(place.location.protocol) && place !== place.parent) { place = place.parent; } } catch (_) {} \
    let path = '/'; try { if (/^https?:$/.test(place.location.protocol)) { path = place.location.pathname; } } catch (_) {} \
    return location.origin === 'null' ? 'null' : location.origin + path; })()";
