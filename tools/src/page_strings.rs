//! The one door through which a string a page controls (a title, a URL, a
//! message, a file's name, a value) becomes text of an answer: normalised,
//! on one line, cut short, and quoted or escaped (`marks::quoted`,
//! `marks::escape`), so it can neither end the sentence it stands in nor
//! start a line. The driver's page values are `PageText`, which has no
//! other way into a string here: [`Words::words`] takes a [`Key`] only
//! this module can make, and `PageText::untrusted` is refused by clippy
//! outside the places allowed by name. Below `output` and `error`, which
//! both write such lines, and above nothing of the crate's.

use driver_core::{PageText, PageValue};

/// The most characters of a URL, a title or a message a page controls that
/// a line of an answer shows (the page content has its own budget).
pub(crate) const SHOWN: usize = 300;

/// What only this module can make: the key to a page's words.
pub(crate) struct Key(());

/// A string a page controls, of any of the types that carry one.
pub(crate) trait Words {
    /// The words as they are: for this module's door alone (`Key`).
    fn words(&self, key: Key) -> &str;
}

impl Words for str {
    fn words(&self, _: Key) -> &str {
        self
    }
}

impl Words for String {
    fn words(&self, _: Key) -> &str {
        self
    }
}

impl Words for PageText {
    #[allow(clippy::disallowed_methods)] // the door itself
    fn words(&self, _: Key) -> &str {
        self.untrusted()
    }
}

impl<T: Words + ?Sized> Words for &T {
    fn words(&self, key: Key) -> &str {
        (**self).words(key)
    }
}

/// A string a page controls (a title, a message, a name, a value), as a
/// line of an answer shows it: quoted.
pub(crate) fn shown(text: &(impl Words + ?Sized)) -> String {
    marks::quote(&marks::cut(&marks::one_line(text.words(Key(()))), SHOWN))
}

/// An address or a path a page controls, as a line of an answer shows it:
/// itself where it is one plain word, else quoted (`marks::quoted`).
pub(crate) fn address(text: &(impl Words + ?Sized)) -> String {
    marks::quoted(text.words(Key(())), SHOWN)
}

/// A string a page controls inside a fence of its own: normalised, on one
/// line, cut short and escaped where it starts like one of the answer's
/// own lines, but not quoted (the fence says whose it is).
pub(crate) fn fenced(text: &(impl Words + ?Sized)) -> String {
    marks::escape(&marks::cut(&marks::one_line(text.words(Key(()))), SHOWN))
}

/// A string a page controls inside a line of tabwright's own that marks
/// it as the page's (a console line after its `[level]`): normalised, on
/// one line, cut to `limit` characters, not quoted.
pub(crate) fn inline(text: &(impl Words + ?Sized), limit: usize) -> String {
    marks::one_line(&marks::cut(text.words(Key(())), limit))
}

/// Lines a page or its server wrote (a body, a tool's answer), inside a
/// fence of their own: cut to `limit` characters, then each line
/// normalised and escaped where it starts like one of the answer's own.
pub(crate) fn lines(text: &(impl Words + ?Sized), limit: usize) -> Vec<String> {
    marks::cut(text.words(Key(())), limit)
        .lines()
        .map(marks::escape)
        .collect()
}

/// A value a page gave (an `evaluate` result, what a script returned) as
/// JSON's own lines, inside a fence of their own: cut to `limit`
/// characters, each line normalised. Its strings are quoted and hold no
/// line break of their own (normalising turns U+2028 and its kind into
/// spaces), so a line starts only as JSON does; it is not escaped, which
/// would change the JSON.
pub(crate) fn json_lines(value: &PageValue, limit: usize) -> Vec<String> {
    #[allow(clippy::disallowed_methods)] // the door itself
    let json = serde_json::to_string_pretty(value.untrusted()).unwrap_or_default();
    marks::cut(&json, limit)
        .lines()
        .map(|line| marks::page_text(line).into_owned())
        .collect()
}

/// A page's words one after another, `between` each two: still the
/// page's.
pub(crate) fn joined(items: &[PageText], between: &str) -> PageText {
    let words: Vec<&str> = items.iter().map(|item| item.words(Key(()))).collect();
    PageText::from(words.join(between))
}

/// Whether a page's words hold `lower` (already lower case), ignoring
/// case: for matching, nothing of them is shown.
pub(crate) fn holds(text: &(impl Words + ?Sized), lower: &str) -> bool {
    text.words(Key(())).to_lowercase().contains(lower)
}

/// Whether a page's words are `lower` (lower case ASCII), ignoring case.
pub(crate) fn is(text: &(impl Words + ?Sized), lower: &str) -> bool {
    text.words(Key(())).eq_ignore_ascii_case(lower)
}

/// Whether a page's words are exactly `other`: for finding what the model
/// named, nothing of them is shown.
pub(crate) fn same(text: &(impl Words + ?Sized), other: &str) -> bool {
    text.words(Key(())) == other
}

/// A page's words on one line, as `inline` shows them but uncut: for
/// asking whether there are any.
pub(crate) fn one_line(text: &(impl Words + ?Sized)) -> String {
    marks::one_line(text.words(Key(())))
}
