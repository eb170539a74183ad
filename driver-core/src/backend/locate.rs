//! The page script behind the selector calls, which both backends run, so
//! that "missing", "hidden" and "covered by an overlay" mean the same on CDP
//! and on WebDriver.

/// `async function (operation, selector, extra)`: finds the first match of a
/// CSS selector and does one small thing with it (`click` returns the point
/// to press, `focus`, `text`, `value`, `wait`), or returns `{error: ...}`:
/// `"missing"`, `"syntax"` (not a selector), or a sentence saying why the
/// element cannot be acted on. One call is one round trip.
pub const LOCATE: &str = include_str!("locate.js");

/// Turns a `{error}` answer of [`LOCATE`] into the driver error callers
/// branch on; `None` when there was no error.
pub fn locate_error(
    answer: &serde_json::Value,
    operation: &str,
    selector: &str,
) -> Option<crate::DriverError> {
    use crate::DriverError;
    let error = answer["error"].as_str()?;
    Some(match error {
        "missing" => DriverError::NoSuchElement {
            selector: selector.to_owned(),
        },
        "syntax" => {
            DriverError::InvalidArgument(format!("{selector:?} is not a valid CSS selector"))
        }
        reason => DriverError::NotInteractable {
            selector: selector.to_owned(),
            action: match operation {
                "click" => "clicked",
                "focus" => "typed into",
                _ => "read",
            },
            reason: reason.to_owned(),
        },
    })
}
