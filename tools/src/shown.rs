//! A string a page controls (a URL, a title, a message) in a line of the
//! answer's own: on one line and cut short. Below `output` and `error`,
//! which both write such lines, and above nothing of the crate's.

/// The most characters of a URL, a title or a message a page controls that
/// a line of an answer shows (the page content has its own budget).
pub(crate) const SHOWN: usize = 300;

/// A string a page controls, as a line of an answer shows it.
pub(crate) fn shown(text: &str) -> String {
    marks::cut(&marks::one_line(text), SHOWN).into_owned()
}
