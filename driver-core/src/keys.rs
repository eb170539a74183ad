//! Keys a model can press: named keys, single characters, and modifiers,
//! parsed from the spelling people write (`"Enter"`, `"Control+A"`,
//! `"Shift+Tab"`).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::DriverError;

/// A key on a keyboard.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Key {
    /// Enter (Return).
    Enter,
    /// Tab.
    Tab,
    /// Escape.
    Escape,
    /// Backspace.
    Backspace,
    /// Delete (forward delete).
    Delete,
    /// The up arrow.
    ArrowUp,
    /// The down arrow.
    ArrowDown,
    /// The left arrow.
    ArrowLeft,
    /// The right arrow.
    ArrowRight,
    /// Home.
    Home,
    /// End.
    End,
    /// Page Up.
    PageUp,
    /// Page Down.
    PageDown,
    /// The space bar.
    Space,
    /// Any other single character, typed as itself.
    Char(char),
}

impl Key {
    /// The DOM `KeyboardEvent.key` value.
    pub fn dom_key(self) -> String {
        match self {
            Key::Space => " ".to_owned(),
            Key::Char(c) => c.to_string(),
            named => format!("{named:?}"),
        }
    }

    /// The DOM `KeyboardEvent.code` value (US layout).
    pub fn dom_code(self) -> String {
        match self {
            Key::Char(c) if c.is_ascii_alphabetic() => format!("Key{}", c.to_ascii_uppercase()),
            Key::Char(c) if c.is_ascii_digit() => format!("Digit{c}"),
            Key::Char(_) => String::new(),
            named => format!("{named:?}"),
        }
    }

    /// The legacy `keyCode` Chrome still derives some behaviour from.
    pub fn key_code(self) -> u32 {
        match self {
            Key::Enter => 13,
            Key::Tab => 9,
            Key::Escape => 27,
            Key::Backspace => 8,
            Key::Delete => 46,
            Key::ArrowUp => 38,
            Key::ArrowDown => 40,
            Key::ArrowLeft => 37,
            Key::ArrowRight => 39,
            Key::Home => 36,
            Key::End => 35,
            Key::PageUp => 33,
            Key::PageDown => 34,
            Key::Space => 32,
            Key::Char(c) if c.is_ascii_alphanumeric() => c.to_ascii_uppercase() as u32,
            Key::Char(_) => 0,
        }
    }

    /// The text the key inserts, if any (Enter inserts a carriage return).
    pub fn text(self) -> Option<String> {
        match self {
            Key::Enter => Some("\r".to_owned()),
            Key::Space => Some(" ".to_owned()),
            Key::Char(c) => Some(c.to_string()),
            _ => None,
        }
    }

    /// The Unicode code point WebDriver uses for this key (its "normalised
    /// key value" table), or the character itself.
    pub fn webdriver_char(self) -> char {
        match self {
            Key::Enter => '\u{E007}',
            Key::Tab => '\u{E004}',
            Key::Escape => '\u{E00C}',
            Key::Backspace => '\u{E003}',
            Key::Delete => '\u{E017}',
            Key::ArrowUp => '\u{E013}',
            Key::ArrowDown => '\u{E015}',
            Key::ArrowLeft => '\u{E012}',
            Key::ArrowRight => '\u{E014}',
            Key::Home => '\u{E011}',
            Key::End => '\u{E010}',
            Key::PageUp => '\u{E00E}',
            Key::PageDown => '\u{E00F}',
            Key::Space => ' ',
            Key::Char(c) => c,
        }
    }
}

/// Modifier keys held during a key press.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Modifiers {
    /// Alt (Option).
    pub alt: bool,
    /// Control.
    pub ctrl: bool,
    /// Meta (Command, Windows).
    pub meta: bool,
    /// Shift.
    pub shift: bool,
}

impl Modifiers {
    /// The CDP bit mask: Alt=1, Ctrl=2, Meta=4, Shift=8.
    pub fn cdp_mask(self) -> i64 {
        i64::from(self.alt)
            | i64::from(self.ctrl) << 1
            | i64::from(self.meta) << 2
            | i64::from(self.shift) << 3
    }
}

/// A mouse button.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MouseButton {
    /// The main button.
    #[default]
    Left,
    /// The wheel, pressed (opens a link in a new tab).
    Middle,
    /// The context-menu button.
    Right,
}

impl MouseButton {
    /// Its name in `Input.dispatchMouseEvent`.
    pub fn cdp_name(self) -> &'static str {
        match self {
            Self::Left => "left",
            Self::Middle => "middle",
            Self::Right => "right",
        }
    }

    /// Its bit in `MouseEvent.buttons` (and CDP's `buttons`).
    pub fn buttons_bit(self) -> u8 {
        match self {
            Self::Left => 1,
            Self::Right => 2,
            Self::Middle => 4,
        }
    }

    /// Its number in W3C pointer actions (and `MouseEvent.button`).
    pub fn webdriver_number(self) -> u8 {
        match self {
            Self::Left => 0,
            Self::Middle => 1,
            Self::Right => 2,
        }
    }
}

/// How a click is made: the button, how many presses in a row (2 is a
/// double click, 3 a triple), and the keys held meanwhile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Click {
    /// Which button.
    pub button: MouseButton,
    /// Presses in a row, 1 to 3.
    pub count: u8,
    /// Held while it clicks.
    pub modifiers: Modifiers,
    /// The pointer is at the point already (it was moved there, and what
    /// lies under it was checked): press without moving it first, which
    /// would cost the page a frame. The WebDriver backend moves it anyway:
    /// chromedriver does not keep a pointer's place between two action
    /// chains (seen: the press landed elsewhere).
    pub moved: bool,
}

impl Default for Click {
    /// One press of the left button, nothing held.
    fn default() -> Self {
        Self {
            button: MouseButton::Left,
            count: 1,
            modifiers: Modifiers::default(),
            moved: false,
        }
    }
}

/// A key with the modifiers held while it is pressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyPress {
    /// The key.
    pub key: Key,
    /// What is held.
    pub modifiers: Modifiers,
}

impl From<Key> for KeyPress {
    fn from(key: Key) -> Self {
        Self {
            key,
            modifiers: Modifiers::default(),
        }
    }
}

impl FromStr for KeyPress {
    type Err = DriverError;

    /// Parses `"Enter"`, `"a"`, `"Control+Shift+Tab"`, `"Ctrl+a"`; names are
    /// case-insensitive and `+` joins modifiers to the key.
    fn from_str(spec: &str) -> Result<Self, Self::Err> {
        let bad = || {
            DriverError::InvalidArgument(format!(
                "unknown key {spec:?}: use a key name such as Enter, Tab, Escape, Backspace, \
                 ArrowDown, PageDown, or one character, optionally after Control+, Alt+, Shift+ or Meta+"
            ))
        };
        // A lone "+" is the plus key, and "Control++" is Control with plus.
        let (mods, key) = match spec.strip_suffix("++") {
            Some(rest) => (rest, "+"),
            None if spec == "+" => ("", "+"),
            None => match spec.rsplit_once('+') {
                Some((mods, key)) => (mods, key),
                None => ("", spec),
            },
        };
        let mut modifiers = Modifiers::default();
        for name in mods.split('+').filter(|part| !part.is_empty()) {
            match name.to_ascii_lowercase().as_str() {
                "control" | "ctrl" => modifiers.ctrl = true,
                "alt" | "option" => modifiers.alt = true,
                "shift" => modifiers.shift = true,
                "meta" | "cmd" | "command" | "super" => modifiers.meta = true,
                _ => return Err(bad()),
            }
        }
        let mut chars = key.chars();
        let key = match (chars.next(), chars.next()) {
            (Some(' '), None) => Key::Space,
            (Some(c), None) => Key::Char(c),
            _ => match key.to_ascii_lowercase().as_str() {
                "enter" | "return" => Key::Enter,
                "tab" => Key::Tab,
                "escape" | "esc" => Key::Escape,
                "backspace" => Key::Backspace,
                "delete" | "del" => Key::Delete,
                "arrowup" | "up" => Key::ArrowUp,
                "arrowdown" | "down" => Key::ArrowDown,
                "arrowleft" | "left" => Key::ArrowLeft,
                "arrowright" | "right" => Key::ArrowRight,
                "home" => Key::Home,
                "end" => Key::End,
                "pageup" => Key::PageUp,
                "pagedown" => Key::PageDown,
                "space" => Key::Space,
                _ => return Err(bad()),
            },
        };
        Ok(Self { key, modifiers })
    }
}

impl fmt::Display for KeyPress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = self.modifiers;
        for (held, name) in [
            (m.ctrl, "Control"),
            (m.alt, "Alt"),
            (m.shift, "Shift"),
            (m.meta, "Meta"),
        ] {
            if held {
                write!(f, "{name}+")?;
            }
        }
        match self.key {
            Key::Char(c) => write!(f, "{c}"),
            named => write!(f, "{named:?}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_what_people_write() {
        let cases = [
            ("Enter", "Enter"),
            ("enter", "Enter"),
            ("a", "a"),
            ("Ctrl+a", "Control+a"),
            ("Control+Shift+Tab", "Control+Shift+Tab"),
            ("Shift+ArrowDown", "Shift+ArrowDown"),
            ("+", "+"),
            ("Control++", "Control++"),
            ("Space", "Space"),
            ("Meta+Backspace", "Meta+Backspace"),
        ];
        for (input, shown) in cases {
            let press: KeyPress = input.parse().unwrap_or_else(|e| panic!("{input}: {e}"));
            assert_eq!(press.to_string(), shown, "{input}");
        }
    }

    #[test]
    fn refuses_what_no_keyboard_has() {
        for input in ["", "Hyper+a", "Enterr", "Control+", "ab"] {
            let error = input.parse::<KeyPress>().unwrap_err();
            assert!(matches!(error, DriverError::InvalidArgument(_)), "{input}");
        }
    }

    #[test]
    fn cdp_modifier_mask() {
        let press: KeyPress = "Control+Shift+x".parse().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(press.modifiers.cdp_mask(), 2 | 8);
    }
}
