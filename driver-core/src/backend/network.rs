//! The network log both backends keep from Chrome's `Network.*` events (the
//! CDP backend from its own socket, the WebDriver backend from chromedriver's
//! performance log): one [`NetworkLog`] per target, a request an entry.

use crate::backend::devtools::names;
use std::collections::VecDeque;

use serde_json::Value;

use crate::{PageText, Request, NETWORK_LOG_KEPT};

/// Why a session made without `Options::network_log` has no log, on any
/// backend.
pub const NOT_KEPT: &str = crate::capabilities::NETWORK_NOT_KEPT;

/// One target's requests, oldest first, each with when it began (Chrome's
/// monotonic seconds).
#[derive(Debug, Default)]
pub struct NetworkLog {
    entries: VecDeque<(Request, f64)>,
}

impl NetworkLog {
    /// Follows one `Network.*` event. `main_frame` is the id of the
    /// target's main frame, if it is a tab (a tab's main frame has the
    /// tab's id): a document loading there is a new page, and the log
    /// starts again with it.
    pub fn follow(&mut self, method: &str, params: &Value, main_frame: Option<&str>) {
        let Some(id) = params["requestId"].as_str() else {
            return;
        };
        match method {
            names::NETWORK_REQUEST_WILL_BE_SENT => self.began(id, params, main_frame),
            names::NETWORK_RESPONSE_RECEIVED => {
                if let Some((entry, _)) = self.find(id) {
                    let response = &params["response"];
                    entry.status = response["status"]
                        .as_u64()
                        .and_then(|status| u16::try_from(status).ok());
                    entry.mime = response["mimeType"].as_str().map(PageText::from);
                    entry.response_headers = headers(&response["headers"]);
                }
            }
            names::NETWORK_LOADING_FINISHED | names::NETWORK_LOADING_FAILED => {
                if let Some((entry, start)) = self.find(id) {
                    if let Some(end) = params["timestamp"].as_f64() {
                        entry.millis = Some(((end - *start) * 1000.0).max(0.0));
                    }
                    entry.size = params["encodedDataLength"].as_f64().map(|size| size as u64);
                    entry.failure = params["errorText"].as_str().map(str::to_owned);
                }
            }
            _ => {}
        }
    }

    fn find(&mut self, id: &str) -> Option<&mut (Request, f64)> {
        self.entries
            .iter_mut()
            .rev()
            .find(|(entry, _)| entry.id == id)
    }

    fn began(&mut self, id: &str, params: &Value, main_frame: Option<&str>) {
        if params["redirectResponse"].is_object() {
            // The same request, sent on to where it was redirected: it
            // stays one entry, under the URL it was first sent to.
            return;
        }
        let request = &params["request"];
        let kind = params["type"].as_str().unwrap_or("Other").to_owned();
        if kind == "Document" && main_frame.is_some() && params["frameId"].as_str() == main_frame {
            self.entries.clear();
        }
        if self.entries.len() >= NETWORK_LOG_KEPT {
            self.entries.pop_front();
        }
        let text = |value: &Value| PageText::from(value.as_str().unwrap_or_default());
        self.entries.push_back((
            Request::begun(
                id.to_owned(),
                text(&request["method"]),
                text(&request["url"]),
                kind,
                headers(&request["headers"]),
                request["postData"].as_str().map(PageText::from),
            ),
            params["timestamp"].as_f64().unwrap_or_default(),
        ));
    }
}

/// The requests of several targets' logs (a tab and the cross-site frames
/// in it), in the order they began, the latest [`NETWORK_LOG_KEPT`].
pub fn merged<'a>(logs: impl IntoIterator<Item = &'a NetworkLog>) -> Vec<Request> {
    let mut all: Vec<&(Request, f64)> = logs
        .into_iter()
        .flat_map(|log| log.entries.iter())
        .collect();
    all.sort_by(|a, b| a.1.total_cmp(&b.1));
    let skip = all.len().saturating_sub(NETWORK_LOG_KEPT);
    all.into_iter()
        .skip(skip)
        .map(|(entry, _)| entry.clone())
        .collect()
}

fn headers(value: &Value) -> Vec<(PageText, PageText)> {
    value
        .as_object()
        .map(|object| {
            object
                .iter()
                .map(|(name, value)| {
                    let value = value
                        .as_str()
                        .map_or_else(|| value.to_string(), str::to_owned);
                    (PageText::from(name.as_str()), PageText::from(value))
                })
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_request_is_followed_to_its_end_and_a_new_page_starts_afresh() {
        let mut log = NetworkLog::default();
        let sent = |id: &str, kind: &str, url: &str, at: f64| {
            json!({ "requestId": id, "type": kind, "frameId": "TAB", "timestamp": at,
                    "request": { "method": "GET", "url": url, "headers": { "Accept": "*/*" } } })
        };
        log.follow(
            names::NETWORK_REQUEST_WILL_BE_SENT,
            &sent("1", "Document", "http://a/", 1.0),
            Some("TAB"),
        );
        log.follow(
            names::NETWORK_REQUEST_WILL_BE_SENT,
            &sent("2", "Fetch", "http://a/api", 1.5),
            Some("TAB"),
        );
        log.follow(
            names::NETWORK_RESPONSE_RECEIVED,
            &json!({ "requestId": "2", "response": { "status": 404, "mimeType": "text/plain", "headers": {} } }),
            Some("TAB"),
        );
        log.follow(
            names::NETWORK_LOADING_FINISHED,
            &json!({ "requestId": "2", "timestamp": 1.75, "encodedDataLength": 120.0 }),
            Some("TAB"),
        );
        let requests = merged([&log]);
        assert_eq!(requests.len(), 2);
        assert_eq!(requests[1].status, Some(404));
        assert_eq!(requests[1].size, Some(120));
        assert_eq!(requests[1].millis, Some(250.0));
        log.follow(
            names::NETWORK_REQUEST_WILL_BE_SENT,
            &sent("3", "Document", "http://b/", 2.0),
            Some("TAB"),
        );
        assert_eq!(merged([&log]).len(), 1, "a new page, a new log");
    }
}
