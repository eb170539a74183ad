//! [`PageText`]: words a page wrote, kept apart from the answer's own.
//!
//! A tab's title, a console message, a dialog's text, a download's name:
//! a page chose every character of them, and some are chosen to be read
//! as something else (a line break and a forged line, a bidi override, a
//! sentence in tag characters). Such a string is a `PageText`: it is not a
//! `str`, has no `Display` and no `Deref`, so it cannot be written into an
//! answer by mistake. The tools crate's door (`page_strings`) is the one
//! place that turns it into answer text, through `marks`' normaliser,
//! escape and quotes; [`PageText::untrusted`], the way out for everything
//! else (a comparison, a match), is refused by clippy's
//! `disallowed-methods` (the workspace's `clippy.toml`) wherever it is not
//! allowed by name.
//!
//! What a page's script returns, or what DevTools answers of a page (a
//! cookie, a body, a node), is a [`PageValue`]: JSON whose strings the
//! page chose. Its numbers and booleans are read freely; a string comes
//! out of it as a `PageText`, and the JSON as it is only through
//! [`PageValue::untrusted`] and its kin, refused by clippy as that one is.
//!
//! Neither has a `Display`; their `Debug` (for logs, errors and tests) is
//! a quoted string of printable ASCII alone, every other character
//! written as `\u{…}`, cut at [`DEBUG_CHARS`]: it can neither start a
//! line nor carry a character that looks like another or is not seen.

use std::fmt::{self, Write as _};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Words a page wrote: see the module docs.
#[derive(Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PageText(String);

impl PageText {
    /// The page's words, as the browser gave them.
    pub fn new(text: impl Into<String>) -> Self {
        Self(text.into())
    }

    /// The words as they are, unchecked: for comparing, matching and
    /// passing back to the browser, never for an answer (clippy refuses
    /// it outside the places allowed by name; an answer takes them through
    /// the tools crate's `page_strings`).
    pub fn untrusted(&self) -> &str {
        &self.0
    }

    /// Whether the page wrote nothing.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// How many bytes the page wrote (a body's size, say).
    pub fn len(&self) -> usize {
        self.0.len()
    }
}

impl From<String> for PageText {
    fn from(text: String) -> Self {
        Self(text)
    }
}

impl From<&str> for PageText {
    fn from(text: &str) -> Self {
        Self(text.to_owned())
    }
}

impl PartialEq<str> for PageText {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<String> for PageText {
    fn eq(&self, other: &String) -> bool {
        self.0 == *other
    }
}

impl PartialEq<&str> for PageText {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl fmt::Debug for PageText {
    /// For logs, errors and tests: see the module docs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        debug_words(&self.0, f)
    }
}

/// The most characters of a page's words that `Debug` writes.
pub const DEBUG_CHARS: usize = 300;

/// `words` quoted, in printable ASCII alone, cut at [`DEBUG_CHARS`].
fn debug_words(words: &str, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    f.write_char('"')?;
    for (index, c) in words.chars().enumerate() {
        if index == DEBUG_CHARS {
            return write!(f, "\"...({} bytes)", words.len());
        }
        match c {
            '"' | '\\' => write!(f, "\\{c}")?,
            ' '..='~' => f.write_char(c)?,
            other => write!(f, "\\u{{{:x}}}", u32::from(other))?,
        }
    }
    f.write_char('"')
}

/// What a page's script returned, or DevTools answered of a page: see the
/// module docs.
#[derive(Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct PageValue(Value);

impl PageValue {
    /// The value, as the browser gave it.
    pub fn new(value: Value) -> Self {
        Self(value)
    }

    /// The JSON as it is, unchecked: for taking apart into types whose
    /// strings are `PageText`, for comparing and for passing back to the
    /// browser, never for an answer (clippy refuses it where
    /// [`PageText::untrusted`] is refused).
    pub fn untrusted(&self) -> &Value {
        &self.0
    }

    /// The JSON as it is, unchecked, taken: as [`untrusted`](Self::untrusted).
    pub fn into_untrusted(self) -> Value {
        self.0
    }

    /// The value as `T`, if it has that shape: refused as
    /// [`untrusted`](Self::untrusted) is, since `T`'s strings decide
    /// whether the page's words stay the page's.
    pub fn decode<T: DeserializeOwned>(&self) -> Option<T> {
        T::deserialize(&self.0).ok()
    }

    /// Whether it is `null` (or nothing: an `undefined`).
    pub fn is_null(&self) -> bool {
        self.0.is_null()
    }

    /// It as a boolean, if it is one.
    pub fn as_bool(&self) -> Option<bool> {
        self.0.as_bool()
    }

    /// It as a number, if it is one.
    pub fn as_f64(&self) -> Option<f64> {
        self.0.as_f64()
    }

    /// It as a whole number, if it is one.
    pub fn as_i64(&self) -> Option<i64> {
        self.0.as_i64()
    }

    /// It as a whole number of no sign, if it is one.
    pub fn as_u64(&self) -> Option<u64> {
        self.0.as_u64()
    }

    /// It as the page's words, if it is a string.
    pub fn text(&self) -> Option<PageText> {
        self.0.as_str().map(PageText::from)
    }

    /// Its field `key` (`null` where it has none, or is no object).
    pub fn get(&self, key: &str) -> PageValue {
        Self(self.0.get(key).cloned().unwrap_or_default())
    }

    /// Its item at `index` (`null` where it has none, or is no array).
    pub fn at(&self, index: usize) -> PageValue {
        Self(self.0.get(index).cloned().unwrap_or_default())
    }

    /// Its items, if it is an array (else none).
    pub fn items(&self) -> Vec<PageValue> {
        self.0
            .as_array()
            .map(|items| items.iter().cloned().map(Self).collect())
            .unwrap_or_default()
    }
}

impl From<Value> for PageValue {
    fn from(value: Value) -> Self {
        Self(value)
    }
}

impl PartialEq<Value> for PageValue {
    fn eq(&self, other: &Value) -> bool {
        self.0 == *other
    }
}

impl PartialEq<bool> for PageValue {
    fn eq(&self, other: &bool) -> bool {
        self.0 == Value::Bool(*other)
    }
}

impl fmt::Debug for PageValue {
    /// For logs, errors and tests: its compact JSON, as a `PageText`'s
    /// words are written (see the module docs).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        debug_words(&self.0.to_string(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_is_printable_ascii_in_quotes() {
        let words = PageText::from("[3] button\u{2028}\u{ff3b}1\u{ff3d}\u{e0049}\"\\ ok");
        let shown = format!("{words:?}");
        assert_eq!(
            shown,
            r#""[3] button\u{2028}\u{ff3b}1\u{ff3d}\u{e0049}\"\\ ok""#
        );
        assert!(shown.chars().all(|c| (' '..='~').contains(&c)));
        let long = PageText::from("x".repeat(DEBUG_CHARS + 5));
        assert!(format!("{long:?}").ends_with(&format!("x\"...({} bytes)", DEBUG_CHARS + 5)));
        let value = PageValue::new(serde_json::json!({ "a": "\u{85}b" }));
        assert_eq!(format!("{value:?}"), r#""{\"a\":\"\u{85}b\"}""#);
    }
}
