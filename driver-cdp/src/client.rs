//! A small CDP client over chromiumoxide's WebSocket [`Connection`] and its
//! generated protocol types.
//!
//! Why not chromiumoxide's `Handler`: it waits for navigations in a queue of its
//! own with a fixed 30 s deadline (so a timed-out navigation blocks the next
//! one), answers certificate errors by ignoring them, and routes events only
//! to per-page listeners. tabwright needs every call bounded by its own
//! timeout, certificates checked, and events from every target in one place.
//! So this module owns the socket: commands go out with an optional flat
//! session id and come back through a oneshot; events are kept as raw JSON and
//! handed to subscribers, who read only the fields they need. An event newer
//! than chromiumoxide's generated types therefore never ends the session: it
//! is passed along like any other and ignored by whoever does not know it.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use chromiumoxide::types::{CallId, Command, EventMessage, Message, Method, MethodId};
use chromiumoxide::Connection;
use futures::StreamExt;
use serde::Deserialize;
use tokio::sync::{mpsc, oneshot, watch};

use driver_core::DriverError;

/// How many consecutive socket errors mean the connection is dead rather than
/// one odd message.
const MAX_CONSECUTIVE_ERRORS: usize = 16;

/// One CDP event, undecoded.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct RawEvent {
    pub method: MethodId,
    pub session_id: Option<String>,
    #[serde(default)]
    pub params: serde_json::Value,
}

impl Method for RawEvent {
    fn identifier(&self) -> MethodId {
        self.method.clone()
    }
}

impl EventMessage for RawEvent {
    fn session_id(&self) -> Option<&str> {
        self.session_id.as_deref()
    }
}

/// What a failed command came back as.
#[derive(Debug)]
pub(crate) enum CallError {
    /// Chrome answered with a protocol error.
    Protocol { message: String },
    /// The connection is gone.
    Gone(String),
    /// The answer did not decode.
    Decode(String),
}

impl From<CallError> for DriverError {
    fn from(error: CallError) -> Self {
        match error {
            CallError::Gone(reason) => DriverError::BrowserGone { reason },
            CallError::Protocol { message, .. } => DriverError::Protocol(message),
            CallError::Decode(message) => DriverError::Protocol(message),
        }
    }
}

struct Outgoing {
    method: MethodId,
    session: Option<String>,
    params: serde_json::Value,
    reply: oneshot::Sender<Result<serde_json::Value, CallError>>,
}

type Subscriber = mpsc::UnboundedSender<Arc<RawEvent>>;

/// A handle on one CDP connection. Cheap to clone; the socket is owned by a
/// task that ends when the connection closes or every handle is dropped.
#[derive(Clone)]
pub(crate) struct Client {
    commands: mpsc::UnboundedSender<Outgoing>,
    subscribe: mpsc::UnboundedSender<Subscriber>,
    gone: watch::Receiver<Option<String>>,
    /// How many events have come in so far.
    received: Arc<AtomicU64>,
}

impl Client {
    /// Connects to a DevTools WebSocket URL and starts the socket task.
    pub async fn connect(ws_url: &str) -> Result<Self, DriverError> {
        let connection = Connection::<RawEvent>::connect(ws_url)
            .await
            .map_err(|error| DriverError::Launch {
                reason: format!("cannot connect to the DevTools socket {ws_url}: {error}"),
            })?;
        let (commands, command_rx) = mpsc::unbounded_channel();
        let (subscribe, subscribe_rx) = mpsc::unbounded_channel();
        let (gone_tx, gone) = watch::channel(None);
        let received = Arc::new(AtomicU64::new(0));
        tokio::spawn(pump(
            connection,
            command_rx,
            subscribe_rx,
            gone_tx,
            Arc::clone(&received),
        ));
        Ok(Self {
            commands,
            subscribe,
            gone,
            received,
        })
    }

    /// Sends a typed command (to a target's flat session, or to the browser
    /// when `session` is `None`) and decodes the answer.
    pub async fn call<C: Command>(
        &self,
        session: Option<&str>,
        command: C,
    ) -> Result<C::Response, CallError> {
        let method = command.identifier();
        let params =
            serde_json::to_value(&command).map_err(|error| CallError::Decode(error.to_string()))?;
        let value = self.call_raw(session, method.clone(), params).await?;
        C::response_from_value(value).map_err(|error| {
            CallError::Decode(format!("{method} answered in an unknown shape: {error}"))
        })
    }

    /// Sends a typed command whose answer is nothing to read (a setting, an
    /// acknowledgement): its name and params from the generated type, its
    /// answer decoded as the type says.
    pub async fn order<C: Command>(
        &self,
        session: Option<&str>,
        command: C,
    ) -> Result<(), CallError> {
        self.call(session, command).await.map(|_| ())
    }

    /// Sends a command whose answer nobody waits for (an acknowledgement,
    /// a nudge), from a task of its own: an event handler must not wait.
    pub fn send(&self, session: Option<&str>, method: &'static str, params: serde_json::Value) {
        let client = self.clone();
        let session = session.map(str::to_owned);
        tokio::spawn(async move {
            let _ = client.call_raw(session.as_deref(), method, params).await;
        });
    }

    /// Sends a command by name with JSON params.
    pub async fn call_raw(
        &self,
        session: Option<&str>,
        method: impl Into<MethodId>,
        params: serde_json::Value,
    ) -> Result<serde_json::Value, CallError> {
        if let Some(reason) = self.gone_reason() {
            return Err(CallError::Gone(reason));
        }
        let (reply, answer) = oneshot::channel();
        let outgoing = Outgoing {
            method: method.into(),
            session: session.map(str::to_owned),
            params,
            reply,
        };
        if self.commands.send(outgoing).is_err() {
            return Err(CallError::Gone(self.gone_reason().unwrap_or_else(closed)));
        }
        answer
            .await
            .unwrap_or_else(|_| Err(CallError::Gone(self.gone_reason().unwrap_or_else(closed))))
    }

    /// Every event from now on, from every session.
    pub fn events(&self) -> mpsc::UnboundedReceiver<Arc<RawEvent>> {
        let (sender, receiver) = mpsc::unbounded_channel();
        let _ = self.subscribe.send(sender);
        receiver
    }

    /// How many events have come in so far: a subscriber that has handled
    /// this many has seen everything Chrome sent before now.
    pub fn events_received(&self) -> u64 {
        self.received.load(Ordering::Acquire)
    }

    /// Why the connection ended, if it has.
    pub fn gone_reason(&self) -> Option<String> {
        self.gone.borrow().clone()
    }

    /// Resolves when the connection ends, with the reason.
    pub async fn until_gone(&self) -> String {
        let mut gone = self.gone.clone();
        let reason = gone
            .wait_for(Option::is_some)
            .await
            .map(|reason| reason.clone());
        reason.ok().flatten().unwrap_or_else(closed)
    }
}

fn closed() -> String {
    "the DevTools connection closed".to_owned()
}

/// Owns the socket: sends queued commands, routes answers to their callers
/// and events to subscribers, and records why it ended.
async fn pump(
    mut connection: Connection<RawEvent>,
    mut commands: mpsc::UnboundedReceiver<Outgoing>,
    mut subscriptions: mpsc::UnboundedReceiver<Subscriber>,
    gone: watch::Sender<Option<String>>,
    received: Arc<AtomicU64>,
) {
    let mut pending: HashMap<CallId, oneshot::Sender<Result<serde_json::Value, CallError>>> =
        HashMap::new();
    let mut subscribers: Vec<Subscriber> = Vec::new();
    let mut consecutive_errors = 0;
    let reason = loop {
        tokio::select! {
            biased;
            outgoing = commands.recv() => {
                let Some(outgoing) = outgoing else { break "the driver was dropped".to_owned() };
                match connection.submit_command(outgoing.method, outgoing.session.map(Into::into), outgoing.params) {
                    Ok(id) => { pending.insert(id, outgoing.reply); }
                    Err(error) => { let _ = outgoing.reply.send(Err(CallError::Decode(error.to_string()))); }
                }
            }
            subscriber = subscriptions.recv() => {
                if let Some(subscriber) = subscriber { subscribers.push(subscriber); }
            }
            message = connection.next() => match message {
                None => break closed(),
                Some(Ok(Message::Response(response))) => {
                    consecutive_errors = 0;
                    if let Some(reply) = pending.remove(&response.id) {
                        let answer = match (response.result, response.error) {
                            (_, Some(error)) => Err(CallError::Protocol { message: format!("{} (code {})", error.message, error.code) }),
                            (Some(result), None) => Ok(result),
                            (None, None) => Ok(serde_json::Value::Null),
                        };
                        let _ = reply.send(answer);
                    }
                }
                Some(Ok(Message::Event(event))) => {
                    consecutive_errors = 0;
                    let event = Arc::new(event);
                    received.fetch_add(1, Ordering::Release);
                    subscribers.retain(|subscriber| subscriber.send(Arc::clone(&event)).is_ok());
                }
                Some(Err(error)) => {
                    // A message we could not parse at all is skipped; a run of
                    // failures means the socket itself is broken.
                    tracing::debug!(%error, "CDP socket error");
                    consecutive_errors += 1;
                    if consecutive_errors >= MAX_CONSECUTIVE_ERRORS {
                        break format!("the DevTools connection failed: {error}");
                    }
                }
            }
        }
    };
    tracing::debug!(%reason, "CDP connection ended");
    let _ = gone.send(Some(reason.clone()));
    for (_, reply) in pending.drain() {
        let _ = reply.send(Err(CallError::Gone(reason.clone())));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_newer_than_the_generated_types_still_parse() {
        // Neither the method nor the params are known to chromiumoxide's
        // generated types; as raw JSON they pass through like any other.
        let text = r#"{"method":"Network.somethingFrom2030","sessionId":"S1","params":{"brandNew":[1,2]}}"#;
        let message: Message<RawEvent> = serde_json::from_str(text).unwrap();
        let Message::Event(event) = message else {
            panic!("parsed as a response")
        };
        assert_eq!(event.method, "Network.somethingFrom2030");
        assert_eq!(event.session_id.as_deref(), Some("S1"));
        assert_eq!(event.params["brandNew"][1], 2);
        // And one chromiumoxide 0.9 fails to decode on Chromium 156.
        let text = r#"{"method":"Network.requestWillBeSentExtraInfo","params":{"requestId":"1","associatedCookies":[],"headers":{}}}"#;
        assert!(matches!(
            serde_json::from_str::<Message<RawEvent>>(text),
            Ok(Message::Event(_))
        ));
    }
}
