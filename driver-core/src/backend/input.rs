//! Input as the DevTools protocol takes it (`Input.dispatchMouseEvent`,
//! `Input.dispatchKeyEvent` parameters): what the CDP backend sends for
//! every click and key, and what the WebDriver backend sends through
//! chromedriver's CDP bridge where W3C actions cannot do it (the wheel, a
//! page that broke chromedriver's scripting). One spelling for both.

use serde_json::{json, Value};

use crate::{Click, Key, KeyPress};

/// A move, a press and a release of the left button at a viewport point.
pub fn click_events(x: f64, y: f64) -> Vec<Value> {
    click_events_with(x, y, Click::default())
}

/// A move (unless the pointer is there already: `click.moved`), then each
/// press and release of `click` (the second pair of a double click counts
/// 2, which is what makes it one), the modifiers held on each.
pub fn click_events_with(x: f64, y: f64, click: Click) -> Vec<Value> {
    let modifiers = click.modifiers.cdp_mask();
    let button = |kind: &str, buttons: u8, count: u8| {
        json!({
            "type": kind, "x": x, "y": y,
            "button": click.button.cdp_name(), "buttons": buttons,
            "clickCount": count, "modifiers": modifiers,
        })
    };
    let mut events = if click.moved {
        Vec::new()
    } else {
        vec![move_event(x, y)]
    };
    for count in 1..=click.count.max(1) {
        events.push(button("mousePressed", click.button.buttons_bit(), count));
        events.push(button("mouseReleased", 0, count));
    }
    events
}

/// The mouse moved to a viewport point, no button held.
pub fn move_event(x: f64, y: f64) -> Value {
    json!({ "type": "mouseMoved", "x": x, "y": y, "buttons": 0 })
}

/// An expression that resolves once the page has painted a frame (two
/// animation frames: one to schedule, one to see it committed), or after
/// a second where frames do not run (a background tab). A wheel sent before
/// the compositor has the page's latest frame is lost (nothing scrolls:
/// seen on a busy machine right after a load), so a backend waits for this
/// first.
pub const PAINTED_FRAME: &str = "new Promise((done) => { \
    requestAnimationFrame(() => requestAnimationFrame(() => done(true))); \
    setTimeout(() => done(false), 1000); })";

/// The wheel turned over a viewport point by `dx`, `dy` CSS pixels.
pub fn wheel_event(x: f64, y: f64, dx: f64, dy: f64) -> Value {
    json!({ "type": "mouseWheel", "x": x, "y": y, "deltaX": dx, "deltaY": dy })
}

/// The key down and key up of one key press. With Control, Alt or Meta
/// held a key is a shortcut and types no text.
pub fn key_events(press: KeyPress) -> [Value; 2] {
    let key = press.key;
    let modifiers = press.modifiers;
    let text = key
        .text()
        .filter(|_| !(modifiers.ctrl || modifiers.alt || modifiers.meta));
    let up = json!({
        "type": "keyUp",
        "key": key.dom_key(),
        "code": key.dom_code(),
        "windowsVirtualKeyCode": key.key_code(),
        "nativeVirtualKeyCode": key.key_code(),
        "modifiers": modifiers.cdp_mask(),
    });
    let mut down = up.clone();
    down["type"] = json!(if text.is_some() {
        "keyDown"
    } else {
        "rawKeyDown"
    });
    if let Some(text) = &text {
        down["text"] = json!(text);
        down["unmodifiedText"] = json!(text);
    }
    [down, up]
}

/// The key presses that type `text`: a line break is Enter, a tab Tab.
pub fn typed(text: &str) -> impl Iterator<Item = KeyPress> + '_ {
    text.chars().map(|character| {
        KeyPress::from(match character {
            '\n' | '\r' => Key::Enter,
            '\t' => Key::Tab,
            other => Key::Char(other),
        })
    })
}
