//! Reading a model's arguments: parsed against the tool's struct, never
//! trusted, and every problem said as a sentence the model can act on.

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::defs::Direction;
use crate::error::ToolError;

/// Typing is key events, about a millisecond each: a longer text would
/// outlast the call's timeout.
const MAX_TYPED: usize = 5_000;

/// The arguments of `tool`, which must be a JSON object of its shape.
pub(crate) fn parse<T: DeserializeOwned>(
    tool: &'static str,
    arguments: Value,
) -> Result<T, ToolError> {
    if !arguments.is_object() {
        return Err(ToolError::bad(
            tool,
            format!(
                "the arguments must be a JSON object, not {}",
                kind_of(&arguments)
            ),
        ));
    }
    serde_json::from_value(arguments).map_err(|error| ToolError::bad(tool, error.to_string()))
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Refuses a text too long to type within a call.
pub(crate) fn check_text_length(text: &str) -> Result<(), ToolError> {
    let length = text.chars().count();
    if length > MAX_TYPED {
        return Err(ToolError::bad(
            "type",
            format!("the text is {length} characters; type at most {MAX_TYPED} at a time"),
        ));
    }
    Ok(())
}

/// Not a web address at all (as opposed to one the guard refuses): the model
/// needs a different sentence.
pub(crate) fn check_address(url: &str) -> Result<(), ToolError> {
    match guard::parse_openable(url) {
        Err(reason @ (guard::Reason::Malformed { .. } | guard::Reason::Scheme { .. })) => {
            Err(ToolError::NotAnAddress {
                url: url.chars().take(200).collect(),
                problem: reason.to_string(),
            })
        }
        _ => Ok(()),
    }
}

/// What a pointing tool points at.
pub(crate) enum Target {
    /// A numbered element.
    Element(u32),
    /// A point of the viewport.
    Point(f64, f64),
}

/// An element number or a point, exactly one of them.
pub(crate) fn target(
    tool: &'static str,
    element: Option<u32>,
    x: Option<f64>,
    y: Option<f64>,
) -> Result<Target, ToolError> {
    match (element, x, y) {
        (Some(number), None, None) => Ok(Target::Element(number)),
        (None, Some(x), Some(y)) => Ok(Target::Point(x, y)),
        (Some(_), _, _) => Err(ToolError::bad(
            tool,
            "give an element number or x and y, not both",
        )),
        (None, None, None) => Err(ToolError::bad(
            tool,
            "give an element number (from the snapshot) or x and y",
        )),
        (None, _, _) => Err(ToolError::bad(tool, "a point needs both x and y")),
    }
}

/// How far to scroll: `pixels` that way, or most of a screen.
pub(crate) fn delta(
    direction: Direction,
    pixels: Option<f64>,
    viewport: driver_core::Viewport,
) -> Result<(f64, f64), ToolError> {
    let along = |size: u32| f64::from(size) * 0.8;
    let amount = match pixels {
        Some(pixels) if !(pixels.is_finite() && pixels > 0.0 && pixels <= 100_000.0) => {
            return Err(ToolError::bad(
                "scroll",
                "pixels must be a positive number up to 100000",
            ))
        }
        Some(pixels) => Some(pixels),
        None => None,
    };
    Ok(match direction {
        Direction::Up => (0.0, -amount.unwrap_or(along(viewport.height))),
        Direction::Down => (0.0, amount.unwrap_or(along(viewport.height))),
        Direction::Left => (-amount.unwrap_or(along(viewport.width)), 0.0),
        Direction::Right => (amount.unwrap_or(along(viewport.width)), 0.0),
    })
}

/// The word for a direction, as an answer says it.
pub(crate) fn direction_word(direction: Direction) -> &'static str {
    match direction {
        Direction::Up => "up",
        Direction::Down => "down",
        Direction::Left => "left",
        Direction::Right => "right",
    }
}
