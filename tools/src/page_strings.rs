//! A string a page controls (a URL, a title, a message, an element's id, a
//! file's name) in a line of the answer's own: normalised, on one line,
//! cut short and quoted (`marks::quoted`), so it can neither end the
//! sentence it stands in nor start a line. Below `output` and `error`,
//! which both write such lines, and above nothing of the crate's.

/// The most characters of a URL, a title or a message a page controls that
/// a line of an answer shows (the page content has its own budget).
pub(crate) const SHOWN: usize = 300;

/// A string a page controls (a title, a message, a name, a value), as a
/// line of an answer shows it: quoted.
pub(crate) fn shown(text: &str) -> String {
    marks::quote(&marks::cut(&marks::one_line(text), SHOWN))
}

/// An address or a path a page controls, as a line of an answer shows it:
/// itself where it is one plain word, else quoted (`marks::quoted`).
pub(crate) fn address(text: &str) -> String {
    marks::quoted(text, SHOWN)
}

/// A string a page controls inside a fence of its own: normalised, on one
/// line, cut short and escaped where it starts like one of the answer's
/// own lines, but not quoted (the fence says whose it is).
pub(crate) fn fenced(text: &str) -> String {
    marks::escape(&marks::cut(&marks::one_line(text), SHOWN))
}
