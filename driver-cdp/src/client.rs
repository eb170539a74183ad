//! [`Client`]: driver-core's DevTools connection, with chromiumoxide's
//! generated protocol types for the commands this backend sends.
//!
//! The connection is the one both backends share
//! (`driver_core::backend::devtools::DevToolsSocket`); what this adds is
//! typing: a command's name and the shape of its answer come from
//! chromiumoxide's generated types (`Client::call`, `Client::order`),
//! except where a raw call is the point (`Client::call_raw`: a command
//! passed on by name, or one whose answer Chrome extends faster than the
//! types). Why not chromiumoxide's own `Handler`: it waits for navigations
//! in a queue of its own with a fixed 30 s deadline (so a timed-out
//! navigation blocks the next one), answers certificate errors by ignoring
//! them, and routes events only to per-page listeners; tabwright needs
//! every call bounded by its own timeout, certificates checked, and events
//! from every target in one place.

use std::sync::Arc;

use chromiumoxide::types::Command;
use tokio::sync::mpsc;

pub(crate) use driver_core::backend::devtools::{CallError, Event};
use driver_core::backend::devtools::{DevToolsSocket, Listener};
use driver_core::DriverError;

/// A handle on one CDP connection. Cheap to clone.
#[derive(Clone)]
pub(crate) struct Client {
    socket: DevToolsSocket,
}

impl Client {
    /// Connects to a DevTools WebSocket URL.
    pub async fn connect(ws_url: &str) -> Result<Self, DriverError> {
        let socket =
            DevToolsSocket::connect(ws_url)
                .await
                .map_err(|reason| DriverError::Launch {
                    reason: format!("cannot connect to the DevTools socket: {reason}"),
                })?;
        Ok(Self { socket })
    }

    /// A client on a connection (the handle a listener is given).
    pub fn over(socket: DevToolsSocket) -> Self {
        Self { socket }
    }

    /// The connection under it.
    pub fn socket(&self) -> &DevToolsSocket {
        &self.socket
    }

    /// Hands every event to `listener`, on the task that reads the
    /// socket, before any later answer is delivered.
    pub fn listen(&self, listener: Listener) {
        self.socket.listen(listener);
    }

    /// Sends a typed command (to a target's flat session, or to the browser
    /// when `session` is `None`) and decodes the answer.
    pub async fn call<C: Command>(
        &self,
        session: Option<&str>,
        command: C,
    ) -> Result<C::Response, CallError> {
        let method = command.identifier();
        let unknown = |error: &dyn std::fmt::Display| CallError::Protocol {
            method: method.to_string(),
            message: format!("answered in an unknown shape: {error}"),
        };
        let params = serde_json::to_value(&command).map_err(|error| unknown(&error))?;
        let value = self.call_raw(session, method.as_ref(), params).await?;
        C::response_from_value(value).map_err(|error| unknown(&error))
    }

    /// Sends a typed command whose answer is nothing to read (a setting, an
    /// acknowledgement).
    pub async fn order<C: Command>(
        &self,
        session: Option<&str>,
        command: C,
    ) -> Result<(), CallError> {
        self.call(session, command).await.map(|_| ())
    }

    /// Sends a command whose answer nobody waits for, from a task of its
    /// own: an event handler must not wait.
    pub fn send(&self, session: Option<&str>, method: &str, params: serde_json::Value) {
        self.socket.send_soon(session, method, params);
    }

    /// Sends a command by name with JSON params.
    pub async fn call_raw(
        &self,
        session: Option<&str>,
        method: impl AsRef<str>,
        params: serde_json::Value,
    ) -> Result<serde_json::Value, CallError> {
        self.socket.call(session, method.as_ref(), params).await
    }

    /// Every event from now on, from every session, in order.
    pub fn events(&self) -> mpsc::UnboundedReceiver<Arc<Event>> {
        self.socket.events()
    }

    /// Why the connection ended, if it has.
    pub fn gone_reason(&self) -> Option<String> {
        self.socket.gone_reason()
    }

    /// Resolves when the connection ends, with the reason.
    pub async fn until_gone(&self) -> String {
        self.socket.until_gone().await
    }
}

/// Decodes a command's JSON answer into the few fields we read.
pub(crate) fn decode<T: serde::de::DeserializeOwned>(
    value: serde_json::Value,
) -> Result<T, DriverError> {
    serde_json::from_value(value)
        .map_err(|error| DriverError::Protocol(format!("unexpected answer from Chrome: {error}")))
}
