//! The lines a snapshot is written in: an element's line and its value's,
//! the frame lines around a cross-origin frame's, and an answer's parts.

use std::fmt::Write as _;

use super::*;

/// Writes the part `options.page` asks for (1-based; 0 counts as 1) of
/// `pages` between the answer's fences, and then, for a text in parts,
/// which part it is and how to ask for the next (`what`: "snapshot", "text").
pub(crate) fn write_part(
    text: &mut String,
    pages: &[Vec<String>],
    options: RenderOptions,
    what: &str,
) {
    let count = pages.len().max(1);
    let index = options.page.max(1).min(count) - 1;
    text.push_str(&options.fence.start());
    text.push('\n');
    for line in pages.get(index).into_iter().flatten() {
        text.push_str(line);
        text.push('\n');
    }
    text.push_str(&options.fence.end());
    text.push('\n');
    if options.page > count {
        let _ = writeln!(
            text,
            "There is no part {}: the {what} has {count} part{}, and this is the last.",
            options.page,
            plural(count)
        );
    } else if count > 1 {
        let more = if index + 1 < count {
            format!("; ask for part {} for more", index + 2)
        } else {
            String::new()
        };
        let _ = writeln!(
            text,
            "This is part {} of {count} of the {what}{more}.",
            index + 1
        );
    }
}

/// Splits lines into pages of at most `budget` tokens (characters / 4),
/// never splitting a line.
pub(crate) fn paginate(lines: &[String], budget: Option<usize>) -> Vec<Vec<String>> {
    let Some(budget) = budget else {
        return vec![lines.to_vec()];
    };
    let limit = budget.max(16) * 4;
    let mut pages: Vec<Vec<String>> = vec![Vec::new()];
    let mut size = 0;
    for line in lines {
        let mut line = line.clone();
        if line.len() > limit {
            let cut = (0..=limit.saturating_sub(3))
                .rev()
                .find(|i| line.is_char_boundary(*i))
                .unwrap_or(0);
            line.truncate(cut);
            line.push_str("...");
        }
        if size + line.len() + 1 > limit && size > 0 {
            pages.push(Vec::new());
            size = 0;
        }
        size += line.len() + 1;
        if let Some(page) = pages.last_mut() {
            page.push(line);
        }
    }
    pages
}

/// The most lines of a field's value shown under it.
pub(crate) const VALUE_LINES: usize = 500;

/// A field's value of many lines, as lines of its own under the field's
/// line: each behind `  | `, its indent kept and its text as any page
/// text is shown (so none can pass for a line of the answer's own), at
/// most [`VALUE_LINES`]. None for a value of one line.
pub(crate) fn value_lines(element: &Element) -> Vec<String> {
    let Some(value) = element
        .value
        .as_ref()
        .map(PageText::untrusted)
        .filter(|_| element.options.is_none())
    else {
        return Vec::new();
    };
    let count = value.lines().count();
    if count < 2 {
        return Vec::new();
    }
    let mut lines: Vec<String> = value
        .lines()
        .take(VALUE_LINES)
        .map(|line| {
            let shown = crate::text::page_text(line);
            let indent = shown.len() - shown.trim_start().len();
            let text = one_line(&shown);
            if text.is_empty() {
                "  |".to_owned()
            } else {
                format!("  | {}{text}", " ".repeat(indent.min(40)))
            }
        })
        .collect();
    if count > VALUE_LINES {
        lines.push(format!("  | … {} more lines", count - VALUE_LINES));
    }
    lines
}

// (Over 100 lines: one element's line, its parts in the order the format gives them.)
pub(crate) fn element_line(element: &Element) -> String {
    let mut line = String::new();
    if element.new {
        line.push('*');
    }
    let _ = write!(line, "[{}]", element.number);
    if let Some(scroll) = &element.scroll {
        line.push_str(" scroll box");
        if !element.name.is_empty() {
            let _ = write!(line, " {}", quote(element.name.untrusted()));
        }
        let _ = write!(line, ": {}", scroll.said());
        return line;
    }
    // A script-only click target has no role a model could learn more
    // from: a bare number and name say "you can click this" in fewer tokens.
    if element.name.is_empty() || !matches!(element.role.as_str(), "clickable" | "generic") {
        let _ = write!(line, " {}", element.role);
    }
    if let Some(kind) = &element.input_type {
        let _ = write!(line, " ({})", plain_word(kind));
    }
    if !element.name.is_empty() {
        let _ = write!(line, " {}", quote(element.name.untrusted()));
    }
    if let Some(shows) = &element.shows {
        let _ = write!(line, " showing {}", quote(shows.untrusted()));
    }
    // A select's value is its selected options, marked in the list below
    // (where the chosen one is not offered, a hidden "Choose…", it is said
    // as a value); an empty field shows no value at all; a value of many
    // lines (a text area, a code editor) follows on lines of its own
    // (`value_lines`).
    let listed = element
        .options
        .as_ref()
        .is_some_and(|options| options.iter().any(|option| option.selected));
    if let (Some(value), false) = (&element.value, listed) {
        let count = value.untrusted().lines().count();
        if count > 1 {
            let _ = write!(line, " = {count} lines:");
        } else if !value.is_empty() {
            let _ = write!(line, " = {}", quote(value.untrusted()));
        }
    }
    match element.checked {
        Some(Checked::Checked) => line.push_str(" checked"),
        Some(Checked::Unchecked) => line.push_str(" unchecked"),
        Some(Checked::Mixed) => line.push_str(" mixed"),
        None => {}
    }
    for (on, word) in [
        (element.selected, "selected"),
        (element.pressed, "pressed"),
        (element.disabled, "disabled"),
        (element.readonly, "read-only"),
        (element.required, "required"),
        (element.focused, "focused"),
    ] {
        if on == Some(true) {
            let _ = write!(line, " {word}");
        }
    }
    match element.expanded {
        Some(true) => line.push_str(" expanded"),
        Some(false) => line.push_str(" collapsed"),
        None => {}
    }
    if let Some(level) = element.level {
        let _ = write!(line, " level {level}");
    }
    if let Some(by) = &element.covered {
        let _ = write!(line, " covered by {}", quoted(by.untrusted(), 200));
    }
    if let Some(title) = &element.title {
        let _ = write!(line, " (title {})", quote(title.untrusted()));
    }
    if element.name.is_empty() {
        match &element.clue {
            Some(Clue::TestId(test)) => {
                let _ = write!(line, " (no name; test id {})", quote(test));
            }
            Some(Clue::Id(id)) => {
                let _ = write!(line, " (no name; id {})", quote(id));
            }
            Some(Clue::Title(title)) => {
                let _ = write!(line, " (no name; title {})", quote(title));
            }
            Some(Clue::Classes(classes)) => {
                let _ = write!(line, " (no name; class {})", quote(classes));
            }
            None => {}
        }
    }
    if let Some(href) = &element.href {
        let _ = write!(line, " -> {}", quoted(href.untrusted(), HREF_SHOWN));
    }
    if let Some(options) = &element.options {
        let listed: Vec<String> = options
            .iter()
            .map(|option| {
                if option.selected {
                    format!("{} (selected)", quote(option.label.untrusted()))
                } else {
                    quote(option.label.untrusted())
                }
            })
            .collect();
        let _ = write!(line, " options: {}", listed.join(", "));
    }
    line
}

/// The most of a link's target an element line shows, in characters.
pub(crate) const HREF_SHOWN: usize = 500;

/// A word the page chose from a small set (an input's type) as a line
/// shows it: itself where it is a plain word, else quoted.
pub(crate) fn plain_word(word: &str) -> String {
    if !word.is_empty()
        && word.len() <= 20
        && word.bytes().all(|b| b.is_ascii_lowercase() || b == b'-')
    {
        word.to_owned()
    } else {
        quote(word)
    }
}

/// A frame's origin as its lines show it: itself where it is one
/// (`https://ads.example:8443`), else quoted (an opaque frame's address,
/// which its page wrote).
pub(crate) fn origin_shown(origin: &str) -> String {
    let plain = origin.split_once("://").is_some_and(|(scheme, rest)| {
        !scheme.is_empty()
            && scheme.bytes().all(|b| b.is_ascii_lowercase())
            && !rest.is_empty()
            && rest
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'[' | b']'))
    });
    if plain {
        origin.to_owned()
    } else {
        quote(&cut(&one_line(origin), 80))
    }
}

/// The most of a title the head shows, in characters.
pub(crate) const TITLE_SHOWN: usize = 200;
/// The most of a URL the head shows, in characters.
pub(crate) const URL_SHOWN: usize = 2_000;

pub(crate) fn plural(count: usize) -> &'static str {
    if count == 1 {
        ""
    } else {
        "s"
    }
}

/// The line before a cross-origin frame's lines.
pub(crate) fn frame_begins(origin: &str) -> String {
    format!(
        "[frame from {}: another site's content]",
        origin_shown(origin)
    )
}

/// Ends a cross-origin frame's lines: its closing line, or, where none of
/// its lines was written (all out of scope, or nothing to read), its
/// opening line taken back, so the frame says nothing.
pub(crate) fn frame_ends(lines: &mut Vec<String>, origin: &str) {
    if lines.last() == Some(&frame_begins(origin)) {
        lines.pop();
    } else {
        lines.push(format!("[end of the frame from {}]", origin_shown(origin)));
    }
}

/// The line of a frame that could not be read, and why.
pub(crate) fn unreachable_frame(src: &str, problem: &str) -> String {
    format!(
        "[frame {} could not be read: {}]",
        quote(src),
        one_line(problem)
    )
}

/// Whether a rendered line is one around a cross-origin frame's lines (a
/// page's own line never starts with `[`: see [`escape`]).
pub(crate) fn frame_line(line: &str) -> bool {
    line.starts_with("[frame from ") || line.starts_with("[end of the frame from ")
}
