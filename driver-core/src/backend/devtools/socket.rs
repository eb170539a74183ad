//! [`DevToolsSocket`]: the one DevTools connection both backends speak
//! through (the CDP backend for everything, the WebDriver backend beside
//! chromedriver), and the tests besides.
//!
//! Commands go out with an optional flat session id and their answers come
//! back by id. Events are handed, in the order they came, first to one
//! [`Listener`] on the task that reads the socket (the backend's record of
//! targets, frames and worlds, which is therefore up to date with
//! everything the browser said before any answer its callers get), then to
//! every subscriber of [`events`](DevToolsSocket::events) (a call waiting
//! for a load, say). An event no one knows is passed along as JSON like
//! any other: a browser newer than this code never ends the connection.
//!
//! WebDriver BiDi (Firefox's own socket, issue 48) frames its messages the
//! same way (`{id, method, params}` out; an answer by id, an event by
//! method), so this socket speaks it too, its errors read as BiDi writes
//! them.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use async_tungstenite::tokio::TokioAdapter;
use async_tungstenite::tungstenite::protocol::WebSocketConfig;
use async_tungstenite::tungstenite::Message;
use async_tungstenite::{WebSocketReceiver, WebSocketSender};
use futures::StreamExt;
use serde_json::{json, Value};
use tokio::sync::{mpsc, oneshot, watch};

use crate::DriverError;

type Stream = TokioAdapter<tokio::net::TcpStream>;

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

/// Called with each event, on the task that reads the socket, before any
/// later answer is delivered: return quickly, and send (never call) from
/// it.
pub type Listener = Arc<dyn Fn(&DevToolsSocket, &Event) + Send + Sync>;

/// What a command came back as when it failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallError {
    /// The browser answered with an error.
    Protocol {
        /// The command.
        method: String,
        /// The browser's message, with its code.
        message: String,
    },
    /// The connection is gone.
    Gone {
        /// Why.
        reason: String,
    },
}

impl CallError {
    /// Whether the browser's message holds `text`.
    pub fn says(&self, text: &str) -> bool {
        matches!(self, Self::Protocol { message, .. } if message.contains(text))
    }
}

impl std::fmt::Display for CallError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Protocol { method, message } => write!(f, "{method}: {message}"),
            Self::Gone { reason } => f.write_str(reason),
        }
    }
}

impl From<CallError> for DriverError {
    fn from(error: CallError) -> Self {
        match error {
            CallError::Gone { reason } => DriverError::BrowserGone { reason },
            CallError::Protocol { .. } => DriverError::Protocol(error.to_string()),
        }
    }
}

/// Why a connection ended when nobody said otherwise.
const CLOSED: &str = "the DevTools connection closed";

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

type Answer = oneshot::Sender<Result<Value, CallError>>;

/// Where commands go: a WebSocket, or the pipe to a browser tabwright
/// started (`--remote-debugging-pipe`: each message ends with a NUL).
enum Sink {
    Socket(WebSocketSender<Stream>),
    Pipe(tokio::net::unix::pipe::Sender),
}

impl Sink {
    async fn send_text(&mut self, text: String) -> Result<(), String> {
        match self {
            Self::Socket(socket) => socket
                .send(Message::text(text))
                .await
                .map_err(|error| error.to_string()),
            Self::Pipe(pipe) => {
                use tokio::io::AsyncWriteExt;
                let mut bytes = text.into_bytes();
                bytes.push(0);
                pipe.write_all(&bytes)
                    .await
                    .map_err(|error| error.to_string())
            }
        }
    }

    async fn close(&mut self) {
        match self {
            Self::Socket(socket) => {
                let _ = socket.close(None).await;
            }
            Self::Pipe(pipe) => {
                use tokio::io::AsyncWriteExt;
                let _ = pipe.shutdown().await;
            }
        }
    }
}

struct Shared {
    sink: tokio::sync::Mutex<Sink>,
    waiting: parking_lot::Mutex<HashMap<u64, (String, Answer)>>,
    next: AtomicU64,
    listener: parking_lot::RwLock<Option<Listener>>,
    subscribers: parking_lot::Mutex<Vec<mpsc::UnboundedSender<Arc<Event>>>>,
    /// Why the connection ended, once it has.
    gone: watch::Sender<Option<String>>,
}

/// The task reading the socket, stopped with the last handle: the
/// connection then ends as if the browser had closed it (whoever still
/// waits for an answer is told, and the socket is closed, so that the
/// browser lets go of the targets this connection attached).
struct Reader {
    task: tokio::task::AbortHandle,
    shared: std::sync::Weak<Shared>,
}

impl Drop for Reader {
    fn drop(&mut self) {
        self.task.abort();
        let Some(shared) = self.shared.upgrade() else {
            return;
        };
        shared.end(CLOSED.to_owned());
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                shared.sink.lock().await.close().await;
            });
        }
    }
}

impl Shared {
    fn new(sink: Sink) -> Arc<Self> {
        Arc::new(Self {
            sink: tokio::sync::Mutex::new(sink),
            waiting: parking_lot::Mutex::default(),
            next: AtomicU64::new(1),
            listener: parking_lot::RwLock::default(),
            subscribers: parking_lot::Mutex::default(),
            gone: watch::Sender::new(None),
        })
    }

    /// The connection ended (for `reason`, unless it had already): every
    /// caller still waiting is answered that it is gone.
    fn end(&self, reason: String) {
        self.gone.send_if_modified(|gone| {
            let first = gone.is_none();
            if first {
                *gone = Some(reason);
            }
            first
        });
        self.waiting.lock().clear();
        self.subscribers.lock().clear();
    }
}

impl DevToolsSocket {
    /// Connects to a DevTools WebSocket URL (`ws://host:port/devtools/…`).
    /// Messages have no size limit: a full-page screenshot is one.
    pub async fn connect(url: &str) -> Result<Self, String> {
        let cannot = |error: &dyn std::fmt::Display| format!("cannot reach {url}: {error}");
        let parsed = url::Url::parse(url).map_err(|error| cannot(&error))?;
        let (Some(host), Some(port)) = (parsed.host_str(), parsed.port_or_known_default()) else {
            return Err(cannot(&"it names no host"));
        };
        let tcp = tokio::net::TcpStream::connect((host.trim_matches(['[', ']']), port))
            .await
            .map_err(|error| cannot(&error))?;
        // Commands are small and each waits for its answer: no batching.
        let _ = tcp.set_nodelay(true);
        let config = WebSocketConfig::default()
            .max_message_size(None)
            .max_frame_size(None);
        let (socket, _) =
            async_tungstenite::tokio::client_async_with_config(url, tcp, Some(config))
                .await
                .map_err(|error| cannot(&error))?;
        let (sink, stream) = socket.split();
        let shared = Shared::new(Sink::Socket(sink));
        let reader = tokio::spawn(read(Arc::downgrade(&shared), stream));
        Ok(Self::reading(shared, &reader))
    }

    /// Speaks over the pipe to a browser tabwright started
    /// (`launch::ChromeProcess::spawn_piped`): commands into `to`, answers
    /// and events out of `from`.
    pub fn over_pipe(to: std::os::fd::OwnedFd, from: std::os::fd::OwnedFd) -> Result<Self, String> {
        use tokio::net::unix::pipe;
        let cannot = |error: std::io::Error| format!("cannot use the DevTools pipe: {error}");
        let sender = pipe::Sender::from_owned_fd(to).map_err(cannot)?;
        let receiver = pipe::Receiver::from_owned_fd(from).map_err(cannot)?;
        let shared = Shared::new(Sink::Pipe(sender));
        let reader = tokio::spawn(read_pipe(Arc::downgrade(&shared), receiver));
        Ok(Self::reading(shared, &reader))
    }

    fn reading(shared: Arc<Shared>, reader: &tokio::task::JoinHandle<()>) -> Self {
        Self {
            _reader: Some(Arc::new(Reader {
                task: reader.abort_handle(),
                shared: Arc::downgrade(&shared),
            })),
            shared,
        }
    }

    /// Connects to the browser running on `profile` (on this machine).
    pub async fn of_profile(profile: &std::path::Path) -> Result<Self, String> {
        Self::connect(&super::local_socket(profile).await?).await
    }

    /// Hands every event from now on to `listener` (replacing any before).
    pub fn listen(&self, listener: Listener) {
        *self.shared.listener.write() = Some(listener);
    }

    /// Every event from now on, in order (after the listener has seen
    /// it), until the returned receiver is dropped.
    pub fn events(&self) -> mpsc::UnboundedReceiver<Arc<Event>> {
        let (sender, receiver) = mpsc::unbounded_channel();
        self.shared.subscribers.lock().push(sender);
        receiver
    }

    /// Whether the connection still stands.
    pub fn is_open(&self) -> bool {
        self.gone_reason().is_none()
    }

    /// Why the connection ended, if it has.
    pub fn gone_reason(&self) -> Option<String> {
        self.shared.gone.borrow().clone()
    }

    /// Resolves when the connection ends, with the reason.
    pub async fn until_gone(&self) -> String {
        let mut gone = self.shared.gone.subscribe();
        let reason = gone
            .wait_for(Option::is_some)
            .await
            .map(|reason| reason.clone());
        reason.ok().flatten().unwrap_or_else(|| CLOSED.to_owned())
    }

    /// Sends a command (to a flat session, or the browser) without waiting
    /// for its answer.
    pub async fn send(
        &self,
        session: Option<&str>,
        method: &str,
        params: Value,
    ) -> Result<(), CallError> {
        let id = self.shared.next.fetch_add(1, Ordering::Relaxed);
        self.write(id, session, method, params).await
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
    /// `error`.
    pub async fn call(
        &self,
        session: Option<&str>,
        method: &str,
        params: Value,
    ) -> Result<Value, CallError> {
        let id = self.shared.next.fetch_add(1, Ordering::Relaxed);
        let (tell, answer) = oneshot::channel();
        self.shared
            .waiting
            .lock()
            .insert(id, (method.to_owned(), tell));
        if let Err(error) = self.write(id, session, method, params).await {
            self.shared.waiting.lock().remove(&id);
            return Err(error);
        }
        match answer.await {
            Ok(answer) => answer,
            Err(_) => Err(self.gone()),
        }
    }

    fn gone(&self) -> CallError {
        CallError::Gone {
            reason: self.gone_reason().unwrap_or_else(|| CLOSED.to_owned()),
        }
    }

    async fn write(
        &self,
        id: u64,
        session: Option<&str>,
        method: &str,
        params: Value,
    ) -> Result<(), CallError> {
        if !self.is_open() {
            return Err(self.gone());
        }
        let mut message = json!({ "id": id, "method": method, "params": params });
        if let Some(session) = session {
            message["sessionId"] = json!(session);
        }
        self.shared
            .sink
            .lock()
            .await
            .send_text(message.to_string())
            .await
            .map_err(|error| CallError::Gone {
                reason: format!("the DevTools connection failed: {error}"),
            })
    }

    /// Closes the connection (for every clone).
    pub async fn close(&self) {
        self.shared.end(CLOSED.to_owned());
        self.shared.sink.lock().await.close().await;
    }
}

/// Reads the socket until it closes: answers to their callers, events to
/// the listener and the subscribers; then fails whoever still waits.
async fn read(shared: std::sync::Weak<Shared>, mut stream: WebSocketReceiver<Stream>) {
    let reason = loop {
        let message = match stream.next().await {
            None => break CLOSED.to_owned(),
            Some(Err(error)) => break format!("the DevTools connection failed: {error}"),
            Some(Ok(message)) => message,
        };
        let Some(shared) = shared.upgrade() else {
            return;
        };
        let Ok(text) = message.into_text() else {
            continue;
        };
        deliver(&shared, text.as_str());
    };
    if let Some(shared) = shared.upgrade() {
        shared.end(reason);
    }
}

/// Reads the pipe until it closes, a message to each NUL, as [`read`]
/// reads the socket.
async fn read_pipe(shared: std::sync::Weak<Shared>, mut pipe: tokio::net::unix::pipe::Receiver) {
    use tokio::io::AsyncReadExt;
    let mut pending: Vec<u8> = Vec::new();
    let mut chunk = vec![0_u8; 64 * 1024];
    let reason = loop {
        let read = match pipe.read(&mut chunk).await {
            Ok(0) => break CLOSED.to_owned(),
            Err(error) => break format!("the DevTools connection failed: {error}"),
            Ok(read) => read,
        };
        let Some(shared) = shared.upgrade() else {
            return;
        };
        let start = pending.len();
        pending.extend_from_slice(&chunk[..read]);
        // Only the new bytes can hold a new end.
        let mut from = 0;
        let mut search = start;
        while let Some(end) = pending[search..].iter().position(|byte| *byte == 0) {
            let end = search + end;
            if let Ok(text) = std::str::from_utf8(&pending[from..end]) {
                deliver(&shared, text);
            }
            from = end + 1;
            search = from;
        }
        pending.drain(..from);
    };
    if let Some(shared) = shared.upgrade() {
        shared.end(reason);
    }
}

/// One message from the browser: an answer to its caller, or an event to
/// the listener and the subscribers.
fn deliver(shared: &Arc<Shared>, text: &str) {
    let Ok(mut message) = serde_json::from_str::<Value>(text) else {
        return;
    };
    if let Some(id) = message["id"].as_u64() {
        if let Some((method, tell)) = shared.waiting.lock().remove(&id) {
            let answer = match message.get("error") {
                // WebDriver BiDi's: `{type: "error", error: "no such frame",
                // message: …}`.
                Some(Value::String(error)) => Err(CallError::Protocol {
                    method,
                    message: format!(
                        "{error}: {}",
                        message["message"].as_str().unwrap_or_default()
                    ),
                }),
                Some(error) => {
                    let text = error["message"]
                        .as_str()
                        .map_or_else(|| error.to_string(), str::to_owned);
                    let message = match error["code"].as_i64() {
                        Some(code) => format!("{text} (code {code})"),
                        None => text,
                    };
                    Err(CallError::Protocol { method, message })
                }
                None => Ok(message["result"].take()),
            };
            let _ = tell.send(answer);
        }
        return;
    }
    let Some(method) = message["method"].as_str().map(str::to_owned) else {
        return;
    };
    let event = Arc::new(Event {
        session: message["sessionId"].as_str().map(str::to_owned),
        method,
        params: message["params"].take(),
    });
    let listener = shared.listener.read().clone();
    if let Some(listener) = listener {
        // The listener gets a handle that does not keep the reader alive
        // (it would never stop).
        let socket = DevToolsSocket {
            shared: Arc::clone(shared),
            _reader: None,
        };
        listener(&socket, &event);
    }
    shared
        .subscribers
        .lock()
        .retain(|subscriber| subscriber.send(Arc::clone(&event)).is_ok());
}
