//! [`Requests`]: what a Firefox session hears of its pages' requests
//! (BiDi's `network` events): the fetches and XHRs each tab has in flight,
//! which settling waits for (`Capability::RequestTracking`), and, where the
//! session keeps one (`Options::network_log`), each tab's network log
//! (`Capability::NetworkLog`).

use std::collections::{HashMap, VecDeque};

use driver_core::backend::devtools::DevToolsSocket;
use driver_core::{Asked, PageText, PagesGo, Request, NETWORK_LOG_KEPT};
use serde_json::{json, Value};

/// The requests heard, by tab.
#[derive(Default)]
pub(crate) struct Requests {
    /// Whether each tab's log is kept.
    pub(crate) keep: bool,
    /// Each frame's parent context (a tab has none).
    parents: HashMap<String, String>,
    /// Fetches and XHRs in flight: the request's id, and the tab.
    in_flight: HashMap<String, String>,
    /// Each tab's log, oldest first.
    logs: HashMap<String, VecDeque<Request>>,
    /// When each logged request was sent (BiDi's milliseconds).
    sent: HashMap<String, f64>,
}

/// The most requests in flight remembered, should their ends never be
/// heard (a tab closed under them).
const IN_FLIGHT_KEPT: usize = 10_000;

impl Requests {
    /// Takes in one event of the browser's.
    pub(crate) fn hear(&mut self, method: &str, params: &Value) {
        match method {
            "browsingContext.contextCreated" => {
                if let (Some(context), Some(parent)) =
                    (params["context"].as_str(), params["parent"].as_str())
                {
                    self.parents.insert(context.to_owned(), parent.to_owned());
                }
            }
            "browsingContext.contextDestroyed" => {
                let gone = params["context"].as_str().unwrap_or_default();
                self.parents.remove(gone);
                self.logs.remove(gone);
                self.in_flight.retain(|_, tab| tab != gone);
            }
            "network.beforeRequestSent" => self.sent_one(params),
            "network.responseCompleted" | "network.fetchError" => self.ended(method, params),
            _ => {}
        }
    }

    /// How many fetches and XHRs the tab `tab` (its frames included) has
    /// in flight.
    pub(crate) fn in_flight(&self, tab: &str) -> usize {
        self.in_flight
            .values()
            .filter(|owner| *owner == tab)
            .count()
    }

    /// The tab's log, oldest first.
    pub(crate) fn log(&self, tab: &str) -> Vec<Request> {
        self.logs
            .get(tab)
            .map(|log| log.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// Lets a request BiDi holds (`network.beforeRequestSent` with
    /// `isBlocked`, where `network.addIntercept` asks for every request)
    /// go on, unless it would load a tab's top-level document (a
    /// navigation of a context with no parent), or send a document into a
    /// frame, that `gate` refuses; returns the context of a tab whose
    /// navigation was refused.
    pub(crate) fn judge(
        &self,
        socket: &DevToolsSocket,
        gate: &PagesGo,
        params: &Value,
    ) -> Option<String> {
        if params["isBlocked"] != Value::Bool(true) {
            return None;
        }
        let id = params["request"]["request"].as_str()?;
        let context = params["context"].as_str();
        let top = context.is_some_and(|context| !self.parents.contains_key(context));
        let url = params["request"]["url"].as_str().unwrap_or_default();
        let asked = Asked::by(params["request"]["method"].as_str().unwrap_or("GET"));
        // A tab's page, and a document sent into a frame (a form posted
        // there); a frame's own page goes on.
        let judged = params["navigation"].is_string() && (top || asked == Asked::Sent);
        let refused = judged && !gate(url, asked);
        let method = if refused {
            "network.failRequest"
        } else {
            "network.continueRequest"
        };
        socket.send_soon(None, method, json!({ "request": id }));
        (refused && top).then(|| context.unwrap_or_default().to_owned())
    }

    /// The tab a context belongs to.
    fn tab_of(&self, context: &str) -> String {
        let mut tab = context;
        for _ in 0..32 {
            match self.parents.get(tab) {
                Some(parent) => tab = parent,
                None => break,
            }
        }
        tab.to_owned()
    }

    fn sent_one(&mut self, params: &Value) {
        let request = &params["request"];
        let (Some(id), Some(context)) = (request["request"].as_str(), params["context"].as_str())
        else {
            return;
        };
        let tab = self.tab_of(context);
        let initiator = request["initiatorType"].as_str().unwrap_or_default();
        if matches!(initiator, "fetch" | "xmlhttprequest") && self.in_flight.len() < IN_FLIGHT_KEPT
        {
            self.in_flight.insert(id.to_owned(), tab.clone());
        }
        if !self.keep || params["redirectCount"].as_u64().unwrap_or(0) > 0 {
            return;
        }
        let destination = request["destination"].as_str().unwrap_or_default();
        let log = self.logs.entry(tab.clone()).or_default();
        // A tab's new page begins a new log.
        if destination == "document" && context == tab {
            log.clear();
        }
        if log.len() == NETWORK_LOG_KEPT {
            if let Some(old) = log.pop_front() {
                self.sent.remove(&old.id);
            }
        }
        log.push_back(Request::begun(
            id.to_owned(),
            text(&request["method"]),
            text(&request["url"]),
            kind(destination, initiator).to_owned(),
            headers(&request["headers"]),
            None,
        ));
        if let Some(at) = params["timestamp"].as_f64() {
            self.sent.insert(id.to_owned(), at);
        }
    }

    fn ended(&mut self, method: &str, params: &Value) {
        let Some(id) = params["request"]["request"].as_str() else {
            return;
        };
        self.in_flight.remove(id);
        let Some(context) = params["context"].as_str() else {
            return;
        };
        let tab = self.tab_of(context);
        let sent = self.sent.remove(id);
        let Some(logged) = self
            .logs
            .get_mut(&tab)
            .and_then(|log| log.iter_mut().rev().find(|logged| logged.id == id))
        else {
            return;
        };
        logged.millis = sent
            .zip(params["timestamp"].as_f64())
            .map(|(sent, ended)| (ended - sent).max(0.0));
        if method == "network.fetchError" {
            logged.failure = params["errorText"].as_str().map(str::to_owned);
            return;
        }
        let response = &params["response"];
        logged.status = response["status"]
            .as_u64()
            .and_then(|status| u16::try_from(status).ok());
        logged.mime = response["mimeType"].as_str().map(PageText::from);
        logged.size = response["bytesReceived"].as_u64();
        logged.response_headers = headers(&response["headers"]);
    }
}

/// A string the page (or its server) chose.
fn text(value: &Value) -> PageText {
    value.as_str().unwrap_or_default().into()
}

/// BiDi's headers (`[{name, value: {type, value}}]`) as pairs: a value of
/// bytes no string holds comes in base64, its bytes read as HTTP's Latin-1.
fn headers(list: &Value) -> Vec<(PageText, PageText)> {
    list.as_array()
        .into_iter()
        .flatten()
        .map(|header| {
            let value = &header["value"];
            let value = if value["type"] == "base64" {
                use base64::Engine;
                base64::engine::general_purpose::STANDARD
                    .decode(value["value"].as_str().unwrap_or_default())
                    .unwrap_or_default()
                    .into_iter()
                    .map(char::from)
                    .collect::<String>()
                    .into()
            } else {
                text(&value["value"])
            };
            (text(&header["name"]), value)
        })
        .collect()
}

/// What asked for a request, as Chrome's DevTools names it (the `requests`
/// tool's words): from BiDi's destination, or its initiator where the
/// destination is empty (a fetch, an XHR).
fn kind(destination: &str, initiator: &str) -> &'static str {
    match (destination, initiator) {
        ("document" | "iframe" | "frame", _) => "Document",
        ("style", _) => "Stylesheet",
        ("image", _) => "Image",
        ("script", _) => "Script",
        ("font", _) => "Font",
        ("audio" | "video" | "track", _) => "Media",
        (_, "xmlhttprequest") => "XHR",
        (_, "fetch") => "Fetch",
        (_, "beacon") => "Ping",
        _ => "Other",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sent(id: &str, context: &str, destination: &str, initiator: &str) -> Value {
        json!({ "context": context, "redirectCount": 0, "timestamp": 1000.0,
                "request": { "request": id, "method": "GET", "url": format!("http://a.test/{id}"),
                             "destination": destination, "initiatorType": initiator,
                             "headers": [{ "name": "Accept", "value": { "type": "string", "value": "*/*" } },
                                         { "name": "X-Note", "value": { "type": "base64", "value": "YYU=" } }] } })
    }

    #[test]
    fn a_frames_fetch_is_its_tabs_until_it_ends() {
        let mut requests = Requests {
            keep: true,
            ..Requests::default()
        };
        requests.hear(
            "browsingContext.contextCreated",
            &json!({ "context": "frame", "parent": "tab" }),
        );
        requests.hear(
            "network.beforeRequestSent",
            &sent("1", "frame", "", "fetch"),
        );
        requests.hear(
            "network.beforeRequestSent",
            &sent("2", "tab", "image", "img"),
        );
        assert_eq!(requests.in_flight("tab"), 1);
        requests.hear(
            "network.responseCompleted",
            &json!({ "context": "frame", "timestamp": 1025.0, "request": { "request": "1" },
                     "response": { "status": 201, "mimeType": "application/json", "bytesReceived": 12,
                                   "headers": [] } }),
        );
        assert_eq!(requests.in_flight("tab"), 0);
        let log = requests.log("tab");
        assert_eq!(log.len(), 2);
        assert_eq!(
            (log[0].kind.as_str(), log[0].status, log[0].millis),
            ("Fetch", Some(201), Some(25.0))
        );
        assert_eq!(log[1].kind, "Image");
        assert_eq!(log[1].request_headers[0].1, "*/*");
        assert_eq!(log[1].request_headers[1].1.untrusted(), "a\u{85}");
        // The tab's next page begins a new log.
        requests.hear(
            "network.beforeRequestSent",
            &sent("3", "tab", "document", ""),
        );
        assert_eq!(requests.log("tab").len(), 1);
    }
}
