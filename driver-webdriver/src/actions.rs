//! W3C input actions as JSON: the same sources for classic WebDriver
//! (`POST /actions`, `session.rs`'s remote end) and WebDriver BiDi
//! (`input.performActions`, Firefox), built here once.

use driver_core::backend::input;
use driver_core::{Click, KeyPress, Modifiers};
use serde_json::{json, Value};

/// The WebDriver key values of the modifiers held.
pub(crate) fn held_keys(modifiers: Modifiers) -> Vec<char> {
    [
        (modifiers.ctrl, '\u{E009}'),
        (modifiers.shift, '\u{E008}'),
        (modifiers.alt, '\u{E00A}'),
        (modifiers.meta, '\u{E03D}'),
    ]
    .into_iter()
    .filter(|(on, _)| *on)
    .map(|(_, key)| key)
    .collect()
}

/// A mouse action sequence: move to (x, y) of the viewport, then `then`.
pub(crate) fn mouse(x: f64, y: f64, then: &[Value]) -> Value {
    let mut actions = vec![json!({
        "type": "pointerMove", "duration": 0, "origin": "viewport",
        "x": x.floor() as i64, "y": y.floor() as i64,
    })];
    actions.extend_from_slice(then);
    json!({
        "type": "pointer",
        "id": "mouse",
        "parameters": { "pointerType": "mouse" },
        "actions": actions,
    })
}

/// A click as `click` says: the modifiers go down on a keyboard source
/// while the pointer waits, then the pointer presses (each press of a
/// double click within the double-click time), then the modifiers come up.
pub(crate) fn click(x: f64, y: f64, click: Click) -> Vec<Value> {
    let button = click.button.webdriver_number();
    let held = held_keys(click.modifiers);
    let pause = json!({ "type": "pause", "duration": 0 });
    let mut pointer: Vec<Value> = held.iter().map(|_| pause.clone()).collect();
    pointer.push(json!({
        "type": "pointerMove", "duration": 0, "origin": "viewport",
        "x": x.floor() as i64, "y": y.floor() as i64,
    }));
    for _ in 0..click.count.max(1) {
        pointer.push(json!({ "type": "pointerDown", "button": button }));
        pointer.push(json!({ "type": "pointerUp", "button": button }));
    }
    let pressing = pointer.len() - held.len();
    let mut keys: Vec<Value> = held
        .iter()
        .map(|key| json!({ "type": "keyDown", "value": key.to_string() }))
        .collect();
    keys.extend((0..pressing).map(|_| pause.clone()));
    keys.extend(
        held.iter()
            .rev()
            .map(|key| json!({ "type": "keyUp", "value": key.to_string() })),
    );
    pointer.extend(held.iter().map(|_| pause.clone()));
    let mut sources = vec![json!({
        "type": "pointer",
        "id": "mouse",
        "parameters": { "pointerType": "mouse" },
        "actions": pointer,
    })];
    if !held.is_empty() {
        sources.push(json!({ "type": "key", "id": "keyboard", "actions": keys }));
    }
    sources
}

/// The wheel turned by (dx, dy) over (x, y) of the viewport.
pub(crate) fn wheel(x: f64, y: f64, dx: f64, dy: f64) -> Value {
    json!({
        "type": "wheel",
        "id": "wheel",
        "actions": [{
            "type": "scroll", "duration": 0, "origin": "viewport",
            "x": x.floor() as i64, "y": y.floor() as i64,
            "deltaX": dx.round() as i64, "deltaY": dy.round() as i64,
        }],
    })
}

/// `text` typed, a key down and up per character (none for no text).
pub(crate) fn typed(text: &str) -> Option<Value> {
    let mut actions = Vec::new();
    for press in input::typed(text) {
        let value = press.key.webdriver_char().to_string();
        actions.push(json!({ "type": "keyDown", "value": value }));
        actions.push(json!({ "type": "keyUp", "value": value }));
    }
    (!actions.is_empty()).then(|| json!({ "type": "key", "id": "keyboard", "actions": actions }))
}

/// One key pressed with its modifiers held.
pub(crate) fn key(press: KeyPress) -> Value {
    let held = held_keys(press.modifiers);
    let key = press.key.webdriver_char().to_string();
    let mut actions: Vec<Value> = held
        .iter()
        .map(|modifier| json!({ "type": "keyDown", "value": modifier.to_string() }))
        .collect();
    actions.push(json!({ "type": "keyDown", "value": key }));
    actions.push(json!({ "type": "keyUp", "value": key }));
    actions.extend(
        held.iter()
            .rev()
            .map(|modifier| json!({ "type": "keyUp", "value": modifier.to_string() })),
    );
    json!({ "type": "key", "id": "keyboard", "actions": actions })
}
