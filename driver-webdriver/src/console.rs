//! The console: chromedriver's browser log, read as the page logged it.

use serde_json::{json, Value};

use driver_core::{Capability, ConsoleEntry, ConsoleLevel, DriverError, Result, TabId};

use crate::session::WdSession;

impl WdSession {
    /// The browser log since the last call (chromedriver's `goog:loggingPrefs`).
    pub(crate) async fn console(&mut self) -> Result<Vec<ConsoleEntry>> {
        let entries = self
            .log(
                "browser",
                Capability::Console,
                "this WebDriver end has no browser log (chromedriver's se/log)",
            )
            .await?;
        let tab = TabId(self.current.clone());
        Ok(entries
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            // Chrome's own notes on failed loads (a missing favicon, a refused
            // request) are not the page's console; the CDP backend, which
            // reads the page's console API, does not see them either.
            .filter(|entry| entry["source"] != "network")
            .map(|entry| {
                let raw = entry["message"].as_str().unwrap_or_default();
                let text = console_text(raw);
                let level = match entry["level"].as_str().unwrap_or_default() {
                    "SEVERE" if text.contains("Uncaught") => ConsoleLevel::PageError,
                    "SEVERE" => ConsoleLevel::Error,
                    "WARNING" => ConsoleLevel::Warning,
                    "DEBUG" | "FINE" | "FINER" | "FINEST" => ConsoleLevel::Debug,
                    _ => ConsoleLevel::Info,
                };
                ConsoleEntry {
                    level,
                    text: text.into(),
                    tab: tab.clone(),
                }
            })
            .collect())
    }
}

impl WdSession {
    /// What chromedriver recorded in one of its logs (`kind`: browser,
    /// performance) since the last read; an end without logs answers
    /// `Unsupported` for `feature`, with `reason`.
    pub(crate) async fn log(
        &self,
        kind: &str,
        feature: Capability,
        reason: &'static str,
    ) -> Result<Value> {
        self.raw(http::Method::POST, "se/log", Some(json!({ "type": kind })))
            .await
            .map_err(|error| match error {
                DriverError::Protocol(_) => DriverError::Unsupported {
                    backend: "webdriver",
                    feature,
                    reason,
                },
                other => other,
            })
    }
}

/// A chromedriver console line, `URL LINE:COLUMN "text" 42`, as the text a
/// page logged: `text 42`.
fn console_text(raw: &str) -> String {
    let rest = raw
        .split_once(' ')
        .and_then(|(_, rest)| {
            let (position, rest) = rest.split_once(' ')?;
            position.contains(':').then_some(rest)
        })
        .unwrap_or(raw);
    // The values the page logged, if the rest is nothing but JSON values
    // (what chromedriver writes for logged values; an uncaught error is
    // plain text).
    let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<Value>();
    let values: Vec<Value> = stream.by_ref().map_while(std::result::Result::ok).collect();
    if values.is_empty()
        || !rest[stream.byte_offset().min(rest.len())..]
            .trim()
            .is_empty()
    {
        return rest.to_owned();
    }
    values
        .iter()
        .map(|value| match value {
            Value::String(text) => text.clone(),
            other => other.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn console_lines_read_as_the_page_logged_them() {
        assert_eq!(
            console_text(r#"http://127.0.0.1:4/console 3:14 "hello" 42"#),
            "hello 42"
        );
        assert_eq!(
            console_text("http://127.0.0.1:4/console 7:30 Uncaught Error: uncaught boom"),
            "Uncaught Error: uncaught boom"
        );
        assert_eq!(
            console_text(r#"http://x/ 1:1 "a \"quoted\" word""#),
            r#"a "quoted" word"#
        );
        // Escapes for line separators are the page's characters again (the
        // pack then makes them spaces).
        assert_eq!(
            console_text(r#"http://x/ 1:1 "a\u2028b" 7"#),
            "a\u{2028}b 7"
        );
        assert_eq!(
            console_text("http://x/ 1:1 42 is the answer"),
            "42 is the answer"
        );
    }
}
