//! The page script behind the selector calls, which both backends run, so
//! that "missing", "hidden" and "covered by an overlay" mean the same on CDP
//! and on WebDriver.

/// `async function (operation, selector, extra)`: finds the first match of a
/// CSS selector and does one small thing with it (`click` returns the point
/// to press, `focus`, `text`, `value`, `wait`), or returns `{error: CODE}`
/// (see `js/locate.js`). One call is one round trip. What "hidden" means is
/// the snapshot's own judge (`js/visibility.js` and the files after it),
/// joined in here.
pub const LOCATE: &str = concat!(
    "async function (operation, selector, extra) {\n",
    include_str!("../js/visibility.js"),
    include_str!("../js/shown.js"),
    include_str!("../js/colours.js"),
    include_str!("../js/shapes.js"),
    include_str!("../js/letters.js"),
    include_str!("../js/lines.js"),
    include_str!("../js/paint.js"),
    include_str!("../js/locate.js"),
    "\nreturn locate();\n}"
);

/// Turns a `{error}` answer of [`LOCATE`] into the driver error callers
/// branch on; `None` when there was no error.
pub fn locate_error(
    answer: &serde_json::Value,
    operation: &str,
    selector: &str,
) -> Option<crate::DriverError> {
    use crate::{DriverError, Unusable};
    let error = answer["error"].as_str()?;
    let reason = match error {
        "missing" => {
            return Some(DriverError::NoSuchElement {
                selector: selector.to_owned(),
            })
        }
        "syntax" => {
            return Some(DriverError::InvalidArgument(format!(
                "{selector:?} is not a valid CSS selector"
            )))
        }
        "hidden" => Unusable::Hidden,
        "disabled" => Unusable::Disabled,
        "no_focus" => Unusable::NoFocus,
        "no_value" => Unusable::NotAControl,
        "covered" => Unusable::Covered {
            by: answer["by"].as_str().unwrap_or("something").into(),
        },
        other => {
            return Some(DriverError::Script {
                message: format!("the selector script answered with an unknown code {other:?}")
                    .into(),
            })
        }
    };
    Some(DriverError::NotInteractable {
        selector: selector.to_owned(),
        action: match operation {
            "click" => "clicked",
            "focus" => "typed into",
            _ => "read",
        },
        reason,
    })
}

/// The point a `click` answer of [`LOCATE`] says to press. An answer without
/// one (a page that broke the helper's world) is an error, never a click at
/// the corner of the viewport.
pub fn locate_point(answer: &serde_json::Value, selector: &str) -> crate::Result<(f64, f64)> {
    let coordinate = |key: &str| answer[key].as_f64().filter(|value| value.is_finite());
    match (coordinate("x"), coordinate("y")) {
        (Some(x), Some(y)) => Ok((x, y)),
        _ => Err(crate::DriverError::Script {
            message: format!(
                "the page gave no point to press for {selector:?}: {:.200}",
                answer.to_string()
            )
            .into(),
        }),
    }
}

/// A viewport size as a page reports it (`[innerWidth, innerHeight]` or
/// `{width, height}`): both whole and positive, or an error.
pub fn viewport_of(
    width: &serde_json::Value,
    height: &serde_json::Value,
) -> crate::Result<crate::Viewport> {
    let size = |value: &serde_json::Value| {
        value
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .filter(|n| *n > 0)
    };
    match (size(width), size(height)) {
        (Some(width), Some(height)) => Ok(crate::Viewport { width, height }),
        _ => Err(crate::DriverError::Script {
            message: format!("the page gave no viewport size: {width} × {height}").into(),
        }),
    }
}
