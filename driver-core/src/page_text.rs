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

use std::fmt;

use serde::{Deserialize, Serialize};

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
    /// For logs, errors and tests: the words as a Rust string literal,
    /// quoted, every control and invisible character escaped.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}
