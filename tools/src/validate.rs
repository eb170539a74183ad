//! Reading a model's arguments: parsed against the tool's struct, never
//! trusted, and every problem said as a sentence the model can act on.

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::arguments::Direction;
use crate::error::ToolError;

/// Typing is key events, about a millisecond each: a longer text would
/// outlast the call's timeout.
const MAX_TYPED: usize = 5_000;

/// The arguments of `tool`, which must be a JSON object of its shape. A
/// whole number sent as a string where a number is asked for (`"element":
/// "12"`, as models often write it) is read as the number.
pub(crate) fn parse<T: DeserializeOwned + JsonSchema>(
    tool: &'static str,
    mut arguments: Value,
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
    numbers_from_strings(&mut arguments, &crate::schema::schema_of::<T>());
    // Which argument is wrong, not only how: `element: invalid type: …`.
    serde_path_to_error::deserialize(arguments).map_err(|error| {
        let path = error.path().to_string();
        let problem = error.into_inner();
        // An unknown field names itself.
        let named = problem.to_string().starts_with("unknown field");
        if path.is_empty() || path == "." || named {
            ToolError::bad(tool, problem.to_string())
        } else {
            ToolError::bad(tool, format!("{path}: {problem}"))
        }
    })
}

/// Turns strings that hold a number into numbers wherever `schema` asks
/// for an integer (a whole number only) or a number, in nested objects and
/// arrays too. Anything else is left for the parser to refuse.
fn numbers_from_strings(value: &mut Value, schema: &Value) {
    match value {
        Value::String(text) => {
            let text = text.trim();
            let number = if allows(schema, "integer") {
                text.parse::<i64>().ok().map(Value::from)
            } else if allows(schema, "number") {
                text.parse::<f64>()
                    .ok()
                    .filter(|number| number.is_finite())
                    .map(Value::from)
            } else {
                None
            };
            if let Some(number) = number {
                *value = number;
            }
        }
        Value::Object(fields) => {
            let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
                return;
            };
            for (name, field) in fields.iter_mut() {
                if let Some(field_schema) = properties.get(name) {
                    numbers_from_strings(field, field_schema);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = schema.get("items") {
                for item in items {
                    numbers_from_strings(item, item_schema);
                }
            }
        }
        _ => {}
    }
}

/// Whether `schema` allows the JSON type `kind` (`"type": "integer"` or
/// `"type": ["integer", "null"]`).
fn allows(schema: &Value, kind: &str) -> bool {
    match schema.get("type") {
        Some(Value::String(one)) => one == kind,
        Some(Value::Array(many)) => many.iter().any(|one| one == kind),
        _ => false,
    }
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
pub(crate) enum Aim {
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
) -> Result<Aim, ToolError> {
    match (element, x, y) {
        (Some(number), None, None) => Ok(Aim::Element(number)),
        (None, Some(x), Some(y)) => Ok(Aim::Point(x, y)),
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::parse;
    use crate::arguments::{ClickArgs, TypeArgs};

    #[test]
    fn whole_numbers_sent_as_strings_are_numbers() {
        let click: ClickArgs = parse("click", json!({ "element": "12" })).expect("read");
        assert_eq!(click.element, Some(12));
        let click: ClickArgs = parse("click", json!({ "x": " 10.5", "y": "20" })).expect("read");
        assert_eq!((click.x, click.y), (Some(10.5), Some(20.0)));
        // The text to type stays text, whatever it holds.
        let typed: TypeArgs = parse("type", json!({ "element": "3", "text": "12" })).expect("read");
        assert_eq!((typed.element, typed.text.as_str()), (Some(3), "12"));
    }

    #[test]
    fn anything_else_is_still_refused_in_a_sentence() {
        for element in [json!("twelve"), json!("1.5"), json!("-3"), json!("")] {
            let refused = parse::<ClickArgs>("click", json!({ "element": element }));
            let error = refused.expect_err("refused").for_model();
            assert!(error.contains("click"), "{error}");
        }
    }
}
