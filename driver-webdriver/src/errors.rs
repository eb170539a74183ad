//! Sorting WebDriver's answers into the [`DriverError`] variants callers
//! branch on.

use std::time::Duration;

use fantoccini::error::{CmdError, ErrorStatus};
use serde_json::Value;

use driver_core::{Capability, DialogKind, DriverError};

/// Chrome's net error in a chromedriver message, e.g. `net::ERR_CONNECTION_REFUSED`.
pub(crate) fn net_error(message: &str) -> Option<String> {
    let start = message.find("net::ERR_")?;
    Some(
        message[start..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
            .collect(),
    )
}

/// A CDP-bridge failure: an end without the bridge cannot do what needs
/// `feature`.
pub(crate) fn bridge(feature: Capability) -> impl Fn(DriverError) -> DriverError {
    move |error| match error {
        DriverError::Protocol(_) => DriverError::Unsupported {
            backend: "webdriver",
            feature,
            reason:
                "this WebDriver end has no CDP bridge (goog/cdp/execute); only PNG of the viewport",
        },
        other => other,
    }
}

/// The text of the dialog an "unexpected alert open" error is about: the
/// error data's `text`, else what chromedriver puts in its message
/// (`unexpected alert open: {Alert text : hello}`).
pub(crate) fn alert_text(data: &Option<Value>, message: &str) -> String {
    if let Some(text) = data.as_ref().and_then(|data| data["text"].as_str()) {
        return text.to_owned();
    }
    message
        .split_once("{Alert text : ")
        .and_then(|(_, rest)| rest.rsplit_once('}'))
        .map(|(text, _)| text.to_owned())
        .unwrap_or_default()
}

/// Sorts a fantoccini error into the variant callers branch on.
pub(crate) fn sort(error: CmdError) -> DriverError {
    match error {
        CmdError::Standard(webdriver) => {
            let message = webdriver.message.to_string();
            let gone = [
                "chrome not reachable",
                "disconnected",
                "session deleted",
                "not connected to DevTools",
            ];
            if gone.iter().any(|sign| message.contains(sign)) {
                return DriverError::BrowserGone { reason: message };
            }
            // One tab's renderer, not the browser: the session says which
            // tab and leaves it (`WdSession::after_crash`), or ends if it
            // cannot.
            if message.contains("tab crashed") || message.contains("target crashed") {
                return DriverError::TabCrashed { id: String::new() };
            }
            // A Selenium Grid whose node died (or dropped the session)
            // answers this for every later command, for minutes: the
            // session is lost, and only a new one helps.
            let lost = [
                "Unable to execute request for an existing session",
                "Unable to find session with ID",
                "Cannot find session with id",
                "Session timed out",
            ];
            if lost.iter().any(|sign| message.contains(sign)) {
                return DriverError::BrowserGone {
                    reason: format!(
                        "the remote end lost this session (its node stopped or it timed out): {}",
                        message.chars().take(200).collect::<String>()
                    ),
                };
            }
            // chromedriver wraps every script in its own, which serialises
            // the answer with the page's JSON: a page that replaced it
            // leaves chromedriver without an answer it can read.
            if message.contains("call function result missing") {
                return DriverError::Unscriptable {
                    reason: "the page replaced JavaScript functions (such as JSON.stringify) \
                             that WebDriver's script runner relies on"
                        .to_owned(),
                };
            }
            match webdriver.error {
                ErrorStatus::InvalidSessionId => DriverError::BrowserGone { reason: message },
                ErrorStatus::NoSuchWindow => DriverError::NoSuchTab { id: message },
                ErrorStatus::Timeout | ErrorStatus::ScriptTimeout => {
                    DriverError::timeout(message, Duration::ZERO)
                }
                ErrorStatus::JavascriptError => DriverError::Script {
                    message: message
                        .strip_prefix("javascript error: ")
                        .unwrap_or(&message)
                        .into(),
                },
                ErrorStatus::NoSuchElement => DriverError::NoSuchElement { selector: message },
                ErrorStatus::UnexpectedAlertOpen => DriverError::DialogOpen {
                    kind: DialogKind::Unknown,
                    message: alert_text(&webdriver.data, &message).into(),
                },
                _ => DriverError::Protocol(message),
            }
        }
        CmdError::Failed(error) => DriverError::BrowserGone {
            reason: format!("the WebDriver server is unreachable: {error}"),
        },
        CmdError::FailedC(error) => DriverError::BrowserGone {
            reason: format!("the WebDriver server is unreachable: {error}"),
        },
        CmdError::Lost(error) => DriverError::BrowserGone {
            reason: format!("the connection to the WebDriver server was lost: {error}"),
        },
        // The same, as chromedriver answers most commands to such a
        // window: not even in W3C's shape.
        CmdError::NotW3C(answer) if answer.to_string().contains("tab crashed") => {
            DriverError::TabCrashed { id: String::new() }
        }
        other => DriverError::Protocol(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn alert_text_comes_from_data_or_message() {
        assert_eq!(alert_text(&Some(json!({"text": "hi"})), "whatever"), "hi");
        assert_eq!(
            alert_text(
                &None,
                "unexpected alert open: {Alert text : Delete {all}?}\n  (Session info)"
            ),
            "Delete {all}?"
        );
        assert_eq!(alert_text(&None, "unexpected alert open"), "");
    }

    #[test]
    fn net_errors_are_picked_out() {
        assert_eq!(
            net_error("unknown error: net::ERR_CONNECTION_REFUSED\n  (Session info: chrome=156)")
                .as_deref(),
            Some("net::ERR_CONNECTION_REFUSED")
        );
        assert_eq!(net_error("unknown error: something else"), None);
    }

    #[test]
    fn a_crashed_tab_is_a_tab_not_the_browser() {
        let bare = CmdError::NotW3C(json!("tab crashed"));
        assert!(matches!(sort(bare), DriverError::TabCrashed { .. }));
        let w3c = CmdError::Standard(fantoccini::error::WebDriver::new(
            ErrorStatus::UnknownError,
            "unknown error: tab crashed\n  (Session info: chrome=156)",
        ));
        assert!(matches!(sort(w3c), DriverError::TabCrashed { .. }));
        let gone = CmdError::Standard(fantoccini::error::WebDriver::new(
            ErrorStatus::UnknownError,
            "chrome not reachable",
        ));
        assert!(matches!(sort(gone), DriverError::BrowserGone { .. }));
    }
}
