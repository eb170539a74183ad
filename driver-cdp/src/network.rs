//! The network log: every request of each tab's page (and of the cross-site
//! frames inside it), kept from its `Network.*` events, for the `requests`
//! tool. A new document in a tab's main frame starts its log afresh.

use std::collections::{HashMap, VecDeque};

use serde_json::Value;

use driver_core::{Request, NETWORK_LOG_KEPT};

use crate::client::RawEvent;
use crate::registry::{Registry, SharedRegistry};

/// One session's requests, oldest first, with when each began (CDP's
/// monotonic seconds).
#[derive(Debug, Default)]
pub(crate) struct Log {
    entries: VecDeque<(Request, f64)>,
}

impl Log {
    fn find(&mut self, id: &str) -> Option<&mut (Request, f64)> {
        self.entries
            .iter_mut()
            .rev()
            .find(|(entry, _)| entry.id == id)
    }
}

/// Follows one `Network.*` event into the log of its session.
pub(crate) fn follow(registry: &SharedRegistry, event: &RawEvent) {
    let Some(session) = event.session_id.as_deref() else {
        return;
    };
    let params = &event.params;
    let Some(id) = params["requestId"].as_str() else {
        return;
    };
    registry.update(|registry| match event.method.as_ref() {
        "Network.requestWillBeSent" => began(registry, session, id, params),
        "Network.responseReceived" => {
            if let Some((entry, _)) = log(registry, session).find(id) {
                let response = &params["response"];
                entry.status = response["status"]
                    .as_u64()
                    .and_then(|s| u16::try_from(s).ok());
                entry.mime = response["mimeType"].as_str().map(str::to_owned);
                entry.response_headers = headers(&response["headers"]);
            }
        }
        "Network.loadingFinished" | "Network.loadingFailed" => {
            if let Some((entry, start)) = log(registry, session).find(id) {
                if let Some(end) = params["timestamp"].as_f64() {
                    entry.millis = Some(((end - *start) * 1000.0).max(0.0));
                }
                entry.size = params["encodedDataLength"].as_f64().map(|size| size as u64);
                entry.failure = params["errorText"].as_str().map(str::to_owned);
            }
        }
        _ => {}
    });
}

fn began(registry: &mut Registry, session: &str, id: &str, params: &Value) {
    let request = &params["request"];
    let kind = params["type"].as_str().unwrap_or("Other").to_owned();
    // A document in the tab's own main frame is a new page: its log starts
    // again. (A tab's main frame has the tab's id.)
    let main_frame = registry
        .by_session(session)
        .is_some_and(|tab| params["frameId"].as_str() == Some(tab.id.0.as_str()));
    let log = log(registry, session);
    if params["redirectResponse"].is_object() {
        // The same request, sent on to where it was redirected: it stays
        // one entry, under the URL it was first sent to.
        return;
    }
    if kind == "Document" && main_frame {
        log.entries.clear();
    }
    if log.entries.len() >= NETWORK_LOG_KEPT {
        log.entries.pop_front();
    }
    let text = |value: &Value| value.as_str().unwrap_or_default().to_owned();
    log.entries.push_back((
        Request {
            id: id.to_owned(),
            method: text(&request["method"]),
            url: text(&request["url"]),
            kind,
            status: None,
            mime: None,
            size: None,
            millis: None,
            failure: None,
            request_headers: headers(&request["headers"]),
            response_headers: Vec::new(),
            post_data: request["postData"].as_str().map(str::to_owned),
        },
        params["timestamp"].as_f64().unwrap_or_default(),
    ));
}

fn log<'a>(registry: &'a mut Registry, session: &str) -> &'a mut Log {
    registry.network.entry(session.to_owned()).or_default()
}

fn headers(value: &Value) -> Vec<(String, String)> {
    value
        .as_object()
        .map(|object| {
            object
                .iter()
                .map(|(name, value)| {
                    let value = value
                        .as_str()
                        .map_or_else(|| value.to_string(), str::to_owned);
                    (name.clone(), value)
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The requests of the tab on `session` and of the cross-site frames in
/// it, in the order they began.
pub(crate) fn of_tab(registry: &SharedRegistry, session: &str) -> Vec<Request> {
    registry.read(|registry| {
        let mut all: Vec<&(Request, f64)> = registry
            .network
            .iter()
            .filter(|(owner, _)| registry.serves(owner, session))
            .flat_map(|(_, log)| log.entries.iter())
            .collect();
        all.sort_by(|a, b| a.1.total_cmp(&b.1));
        let skip = all.len().saturating_sub(NETWORK_LOG_KEPT);
        all.into_iter()
            .skip(skip)
            .map(|(entry, _)| entry.clone())
            .collect()
    })
}

/// Sessions' logs, by session.
pub(crate) type Logs = HashMap<String, Log>;
