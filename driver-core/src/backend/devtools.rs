//! A browser's own DevTools socket, for what is done beside a backend's
//! protocol: the browser-level WebSocket Chrome announces in its profile's
//! `DevToolsActivePort`, or the one a Selenium Grid relays for a session
//! (`se:cdp`). Commands are answered by id and events handed to one
//! listener, from a task that reads the socket for as long as a handle to
//! it lives. The WebDriver backend reaches through it what WebDriver has no
//! word for (tabwright's own script world, the screencast, download
//! events, stopping a page that spins); the tests crash tabs and list
//! targets through it. The CDP backend speaks CDP through chromiumoxide
//! (`driver-cdp`'s `client`).

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use async_tungstenite::tungstenite::Message;
use async_tungstenite::{WebSocketReceiver, WebSocketSender};
use futures::StreamExt;
use serde_json::{json, Value};
use tokio::sync::oneshot;

use crate::{Dialog, DialogKind, DriverError};

type Stream = async_tungstenite::tokio::ConnectStream;

/// The browser-level DevTools socket URL of a browser on this machine,
/// from its profile's `DevToolsActivePort`.
pub async fn local_socket(profile: &Path) -> Result<String, String> {
    let announced = tokio::fs::read_to_string(profile.join("DevToolsActivePort"))
        .await
        .map_err(|error| format!("no DevToolsActivePort: {error}"))?;
    let mut lines = announced.lines();
    let (Some(port), Some(path)) = (lines.next(), lines.next()) else {
        return Err(format!("unexpected DevToolsActivePort: {announced:?}"));
    };
    Ok(format!("ws://127.0.0.1:{}{}", port.trim(), path.trim()))
}

/// An event the browser sent: its flat session (`None`: the browser's
/// own), its method and its parameters.
#[derive(Debug, Clone)]
pub struct Event {
    /// The flat session it came from, if not the browser's.
    pub session: Option<String>,
    /// `Domain.event`.
    pub method: String,
    /// Its parameters.
    pub params: Value,
}

/// Called with each event, on the task that reads the socket: return
/// quickly, and send (never call) from it.
pub type Listener = Arc<dyn Fn(&DevToolsSocket, &Event) + Send + Sync>;

/// A connection to a browser's DevTools socket. Clones share it; the
/// socket closes when the last clone is dropped or [`close`](Self::close)
/// is called.
#[derive(Clone)]
pub struct DevToolsSocket {
    shared: Arc<Shared>,
    /// The reader's guard; `None` in the handle a listener is given, which
    /// must not keep the socket read for ever.
    _reader: Option<Arc<Reader>>,
}

struct Shared {
    sink: tokio::sync::Mutex<WebSocketSender<Stream>>,
    waiting: parking_lot::Mutex<HashMap<u64, oneshot::Sender<Result<Value, String>>>>,
    next: AtomicU64,
    listener: parking_lot::RwLock<Option<Listener>>,
    open: AtomicBool,
}

/// The task reading the socket, stopped with the last handle.
struct Reader(tokio::task::AbortHandle);

impl Drop for Reader {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl DevToolsSocket {
    /// Connects to a DevTools WebSocket URL.
    pub async fn connect(url: &str) -> Result<Self, String> {
        let (socket, _) = async_tungstenite::tokio::connect_async(url)
            .await
            .map_err(|error| format!("cannot reach {url}: {error}"))?;
        let (sink, stream) = socket.split();
        let shared = Arc::new(Shared {
            sink: tokio::sync::Mutex::new(sink),
            waiting: parking_lot::Mutex::default(),
            next: AtomicU64::new(1),
            listener: parking_lot::RwLock::default(),
            open: AtomicBool::new(true),
        });
        let reader = tokio::spawn(read(Arc::downgrade(&shared), stream));
        Ok(Self {
            shared,
            _reader: Some(Arc::new(Reader(reader.abort_handle()))),
        })
    }

    /// Connects to the browser running on `profile` (on this machine).
    pub async fn of_profile(profile: &Path) -> Result<Self, String> {
        Self::connect(&local_socket(profile).await?).await
    }

    /// Hands every event from now on to `listener` (replacing any before).
    pub fn listen(&self, listener: Listener) {
        *self.shared.listener.write() = Some(listener);
    }

    /// Whether the socket is still open.
    pub fn is_open(&self) -> bool {
        self.shared.open.load(Ordering::Acquire)
    }

    /// Sends a command (to a flat session, or the browser) without waiting
    /// for its answer; returns its id.
    pub async fn send(
        &self,
        session: Option<&str>,
        method: &str,
        params: Value,
    ) -> Result<u64, String> {
        let id = self.shared.next.fetch_add(1, Ordering::Relaxed);
        self.write(id, session, method, params).await?;
        Ok(id)
    }

    /// Sends a command from where no task can wait for it (a listener):
    /// it goes out on a task of its own, its answer unread.
    pub fn send_soon(&self, session: Option<&str>, method: &str, params: Value) {
        let socket = self.clone();
        let (session, method) = (session.map(str::to_owned), method.to_owned());
        tokio::spawn(async move {
            let _ = socket.send(session.as_deref(), &method, params).await;
        });
    }

    /// Sends a command and waits for its answer: its `result`, or its
    /// `error` as the error (the method named in it).
    pub async fn call(
        &self,
        session: Option<&str>,
        method: &str,
        params: Value,
    ) -> Result<Value, String> {
        let id = self.shared.next.fetch_add(1, Ordering::Relaxed);
        let (tell, answer) = oneshot::channel();
        self.shared.waiting.lock().insert(id, tell);
        if let Err(error) = self.write(id, session, method, params).await {
            self.shared.waiting.lock().remove(&id);
            return Err(error);
        }
        match answer.await {
            Ok(answer) => answer.map_err(|error| format!("{method}: {error}")),
            Err(_) => Err(format!("{method}: the DevTools socket closed")),
        }
    }

    async fn write(
        &self,
        id: u64,
        session: Option<&str>,
        method: &str,
        params: Value,
    ) -> Result<(), String> {
        if !self.is_open() {
            return Err("the DevTools socket closed".to_owned());
        }
        let mut message = json!({ "id": id, "method": method, "params": params });
        if let Some(session) = session {
            message["sessionId"] = json!(session);
        }
        self.shared
            .sink
            .lock()
            .await
            .send(Message::text(message.to_string()))
            .await
            .map_err(|error| error.to_string())
    }

    /// Closes the connection (for every clone).
    pub async fn close(&self) {
        self.shared.open.store(false, Ordering::Release);
        let _ = self.shared.sink.lock().await.close(None).await;
    }
}

/// Reads the socket until it closes: answers to their callers, events to
/// the listener; then fails whoever still waits.
async fn read(shared: std::sync::Weak<Shared>, mut stream: WebSocketReceiver<Stream>) {
    while let Some(Ok(message)) = stream.next().await {
        let Some(shared) = shared.upgrade() else {
            return;
        };
        let Ok(text) = message.into_text() else {
            continue;
        };
        let Ok(mut message) = serde_json::from_str::<Value>(text.as_str()) else {
            continue;
        };
        if let Some(id) = message["id"].as_u64() {
            let answer = match message.get("error") {
                Some(error) => Err(error
                    .get("message")
                    .and_then(Value::as_str)
                    .map_or_else(|| error.to_string(), str::to_owned)),
                None => Ok(message["result"].take()),
            };
            if let Some(tell) = shared.waiting.lock().remove(&id) {
                let _ = tell.send(answer);
            }
            continue;
        }
        let Some(method) = message["method"].as_str().map(str::to_owned) else {
            continue;
        };
        let listener = shared.listener.read().clone();
        if let Some(listener) = listener {
            let event = Event {
                session: message["sessionId"].as_str().map(str::to_owned),
                method,
                params: message["params"].take(),
            };
            // The listener gets a handle that does not keep the reader
            // alive (it would never stop).
            let socket = DevToolsSocket {
                shared: Arc::clone(&shared),
                _reader: None,
            };
            listener(&socket, &event);
        }
    }
    if let Some(shared) = shared.upgrade() {
        shared.open.store(false, Ordering::Release);
        shared.waiting.lock().clear();
    }
}

/// The name of tabwright's own script world in every document, whichever
/// backend makes it: the page's scripts can neither see nor change what
/// runs there.
pub const WORLD_NAME: &str = "tabwright";

/// An expression, for `Runtime.evaluate` without `returnByValue` in a
/// frame's document, whose object is the `iframe` (or `frame`) element
/// holding `window.frames[index]`, or `null`: how a frame path is followed
/// down to the frame's id (`DOM.describeNode` on the object).
pub fn frame_element(index: u32) -> String {
    format!(
        "Array.from(document.querySelectorAll('iframe, frame')).find((f) => f.contentWindow === window[{index}]) || null"
    )
}

/// Whether a DevTools error says the document (and its script context)
/// went away under the call: a navigation.
pub fn document_gone(message: &str) -> bool {
    message.contains("Execution context was destroyed")
        || message.contains("Cannot find context with specified id")
        || message.contains("Inspected target navigated or closed")
}

/// What `Runtime.evaluate` answered (with `returnByValue`), as a driver
/// call answers it: the value (`undefined` as `null`, an unserialisable
/// number as its string), or the exception's first line as
/// [`DriverError::Script`].
pub fn evaluated(answer: &Value) -> Result<Value, DriverError> {
    if let Some(details) = answer.get("exceptionDetails") {
        let message = details["exception"]["description"]
            .as_str()
            .or_else(|| details["exception"]["value"].as_str())
            .or_else(|| details["text"].as_str())
            .unwrap_or("unknown exception");
        // Chrome's description is the message plus a stack; the first line
        // is what a reader needs.
        let message = message.lines().next().unwrap_or(message).to_owned();
        return Err(DriverError::Script { message });
    }
    let result = &answer["result"];
    Ok(match result.get("value") {
        Some(value) => value.clone(),
        None => match result["unserializableValue"].as_str() {
            Some(special) => Value::String(special.to_owned()),
            None => Value::Null,
        },
    })
}

/// The dialog a `Page.javascriptDialogOpening` event tells of.
pub fn dialog_of(params: &Value) -> Dialog {
    let kind = match params["type"].as_str() {
        Some("alert") => DialogKind::Alert,
        Some("confirm") => DialogKind::Confirm,
        Some("prompt") => DialogKind::Prompt,
        Some("beforeunload") => DialogKind::BeforeUnload,
        _ => DialogKind::Unknown,
    };
    let text = |key: &str| params[key].as_str().unwrap_or_default().to_owned();
    Dialog {
        kind,
        message: text("message"),
        default_prompt: text("defaultPrompt"),
    }
}
