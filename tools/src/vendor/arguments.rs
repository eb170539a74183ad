//! What a vendor's tool call says, read into a pack tool's arguments:
//! OpenAI's computer actions, Anthropic's targets, references and chords.

use serde_json::{json, Value};

/// One computer action as a pack tool call (`None`: nothing to do, such
/// as `screenshot`, which the output carries anyway).
pub(super) fn computer_action(action: &Value) -> Result<Option<(&'static str, Value)>, String> {
    let xy = || -> Result<Value, String> {
        match (action["x"].as_f64(), action["y"].as_f64()) {
            (Some(x), Some(y)) => Ok(json!({ "x": x, "y": y })),
            _ => Err(format!("{} needs x and y", action["type"])),
        }
    };
    let kind = action["type"].as_str().unwrap_or_default();
    Ok(Some(match kind {
        "click" => {
            let mut arguments = xy()?;
            match action["button"].as_str().unwrap_or("left") {
                "left" => {}
                "right" => arguments["button"] = "right".into(),
                "wheel" | "middle" => arguments["button"] = "middle".into(),
                other => {
                    return Err(format!(
                    "a click with the {other} button is not supported here (left, right, wheel)"
                ))
                }
            }
            ("click", arguments)
        }
        "double_click" => {
            let mut arguments = xy()?;
            arguments["count"] = 2.into();
            ("click", arguments)
        }
        "move" => ("hover", xy()?),
        "scroll" => {
            let mut arguments = xy()?;
            let (dx, dy) = (
                action["scroll_x"].as_f64().unwrap_or(0.0),
                action["scroll_y"].as_f64().unwrap_or(0.0),
            );
            let (direction, pixels) = if dy.abs() >= dx.abs() {
                (if dy < 0.0 { "up" } else { "down" }, dy.abs())
            } else {
                (if dx < 0.0 { "left" } else { "right" }, dx.abs())
            };
            if pixels == 0.0 {
                return Ok(None);
            }
            arguments["direction"] = direction.into();
            arguments["pixels"] = pixels.into();
            ("scroll", arguments)
        }
        "type" => (
            "type",
            json!({ "text": action["text"].as_str().unwrap_or_default() }),
        ),
        "keypress" => {
            let keys: Vec<&str> = action["keys"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            if keys.is_empty() {
                return Err("keypress needs keys".to_owned());
            }
            ("press", json!({ "keys": keys.join("+") }))
        }
        "wait" => ("wait_for", json!({ "seconds": 1 })),
        "screenshot" => return Ok(None),
        "drag" => {
            // From the path's first point to its last, in tabwright's own
            // steps between them.
            let points: Vec<&Value> = action["path"].as_array().into_iter().flatten().collect();
            let (Some(first), Some(last)) = (points.first(), points.last()) else {
                return Err("drag needs a path of at least two points".to_owned());
            };
            if points.len() < 2 {
                return Err("drag needs a path of at least two points".to_owned());
            }
            (
                "drag",
                json!({ "from_x": first["x"], "from_y": first["y"], "x": last["x"], "y": last["y"] }),
            )
        }
        other => {
            return Err(format!(
                "the action {other:?} is not one of the computer tool's"
            ))
        }
    }))
}

/// A click target: `{"type": "ref", "ref": "ref_7"}` or `{"type":
/// "coordinate", "x": …, "y": …}`, as click arguments.
pub(super) fn click_target(target: &Value) -> Result<Value, String> {
    match target["type"].as_str() {
        Some("ref") => Ok(json!({ "element": target_ref(target)? })),
        Some("coordinate") => point(target),
        _ => Err("target is {\"type\": \"ref\", \"ref\": \"ref_N\"} or {\"type\": \"coordinate\", \"x\": X, \"y\": Y}".to_owned()),
    }
}

pub(super) fn target_ref(target: &Value) -> Result<u32, String> {
    match target["ref"].as_str() {
        Some(reference) => element(reference),
        None => Err(
            "target must be an element reference: {\"type\": \"ref\", \"ref\": \"ref_N\"}"
                .to_owned(),
        ),
    }
}

pub(super) fn point(target: &Value) -> Result<Value, String> {
    match (target["x"].as_f64(), target["y"].as_f64()) {
        (Some(x), Some(y)) => Ok(json!({ "x": x, "y": y })),
        _ => Err("a point is {\"type\": \"coordinate\", \"x\": X, \"y\": Y}".to_owned()),
    }
}

/// `ref_7` (or `7`, `[7]`) as element 7.
pub(super) fn element(reference: &str) -> Result<u32, String> {
    reference
        .trim()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .trim_start_matches("ref_")
        .parse()
        .map_err(|_| {
            format!("{reference:?} is not an element reference (ref_N, from read_page or find)")
        })
}

/// A modifier chord (`ctrl+shift`, `cmd+alt`) as click modifiers.
pub(super) fn modifiers(chord: &str) -> Result<Vec<&'static str>, String> {
    chord
        .split('+')
        .filter(|key| !key.trim().is_empty())
        .map(|key| match key.trim().to_ascii_lowercase().as_str() {
            "ctrl" | "control" => Ok("Control"),
            "shift" => Ok("Shift"),
            "alt" | "option" => Ok("Alt"),
            "cmd" | "meta" | "command" | "super" | "win" => Ok("Meta"),
            other => Err(format!(
                "{other:?} is not a modifier (ctrl, shift, alt, cmd)"
            )),
        })
        .collect()
}
