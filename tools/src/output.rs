//! What a tool call answers ([`ToolOutput`], [`Image`]) and the small
//! pieces of text every tool writes the same way.

use driver_core::{ConsoleEntry, ConsoleLevel, ScreenshotFormat};

use crate::error::ToolError;

/// A picture in a tool's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    /// `image/png`, `image/jpeg` or `image/webp`.
    pub mime_type: &'static str,
    /// The encoded bytes.
    pub data: Vec<u8>,
}

impl Image {
    /// The bytes in base64, as MCP and most model APIs carry images.
    pub fn base64(&self) -> String {
        use base64::Engine;
        base64::engine::general_purpose::STANDARD.encode(&self.data)
    }
}

/// What a tool call answers: text for the model, maybe pictures, and whether
/// it failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolOutput {
    /// What the model reads.
    pub text: String,
    /// Screenshots, if the tool takes them.
    pub images: Vec<Image>,
    /// The call failed; `text` says why and what to do.
    pub is_error: bool,
}

impl ToolOutput {
    pub(crate) fn text(text: String) -> Self {
        Self {
            text,
            images: Vec::new(),
            is_error: false,
        }
    }

    pub(crate) fn error(error: &ToolError, fence: marks::Fence) -> Self {
        Self {
            text: error.for_model_in(fence),
            images: Vec::new(),
            is_error: true,
        }
    }
}

/// What a tool's own code returns: an answer, or the error it becomes.
pub(crate) type Outcome = Result<ToolOutput, ToolError>;

/// A console entry as one line of an answer: its level, then its text, cut
/// at 500 characters.
pub(crate) fn console_line(entry: &ConsoleEntry) -> String {
    let level = match entry.level {
        ConsoleLevel::Debug => "debug",
        ConsoleLevel::Info => "log",
        ConsoleLevel::Warning => "warning",
        ConsoleLevel::Error => "error",
        ConsoleLevel::PageError => "uncaught",
    };
    format!(
        "[{level}] {}",
        crate::page_strings::inline(&entry.text, 500)
    )
}

/// Lines that hold page content, between this answer's fences. Each line
/// must start with tabwright's own words (a console line's `[level]`), the
/// page's part of it normalised onto that one line, as `console_line` makes
/// them.
pub(crate) fn fenced<'a>(
    fence: marks::Fence,
    what: &str,
    note: &str,
    lines: impl IntoIterator<Item = &'a str>,
) -> String {
    let mut text = fence.start_of(what, note);
    text.push('\n');
    for line in lines {
        text.push_str(line);
        text.push('\n');
    }
    text.push_str(&fence.end());
    text
}

/// The MIME type of a screenshot format.
pub(crate) fn mime(format: ScreenshotFormat) -> &'static str {
    match format {
        ScreenshotFormat::Png => "image/png",
        ScreenshotFormat::Jpeg(_) => "image/jpeg",
        ScreenshotFormat::Webp(_) => "image/webp",
    }
}

/// The lines of an answer as its text.
pub(crate) fn join(lines: Vec<String>) -> String {
    lines.join("\n").trim().to_owned()
}

/// The line an answer to `type` starts with.
pub(crate) fn typed_line(element: Option<u32>, text: &str, submit: bool) -> String {
    let into = element.map_or("the focused element".to_owned(), |n| format!("[{n}]"));
    format!(
        "Typed {text:?} into {into}{}.",
        if submit { " and pressed Enter" } else { "" }
    )
}

/// Strings as a model reads a list of them: quoted, comma-separated.
pub(crate) fn quote_list(items: &[impl crate::page_strings::Words]) -> String {
    items
        .iter()
        .map(crate::page_strings::shown)
        .collect::<Vec<_>>()
        .join(", ")
}

/// A size for people: bytes, KB or MB.
pub(crate) fn size(bytes: u64) -> String {
    match bytes {
        0..1_000 => format!("{bytes} B"),
        1_000..1_000_000 => format!("{:.1} KB", bytes as f64 / 1e3),
        _ => format!("{:.1} MB", bytes as f64 / 1e6),
    }
}
