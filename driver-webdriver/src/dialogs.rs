//! JavaScript dialogs: which is open, and answering it.

use fantoccini::error::{CmdError, ErrorStatus};

use driver_core::{Dialog, DialogKind, DriverError, PageText, Result};

use crate::errors::sort;
use crate::session::WdSession;

/// The longest an answered dialog is waited for to be heard closed.
const DIALOG_CLOSE_LIMIT: std::time::Duration = std::time::Duration::from_millis(500);

impl WdSession {
    /// The dialog with this text open in the current tab, as the DevTools
    /// socket heard it open (with its kind, which chromedriver does not
    /// say), if it did.
    fn heard_dialog(&self, message: &PageText) -> Option<Dialog> {
        self.relay
            .as_ref()
            .and_then(|relay| relay.dialog(&self.current))
            .filter(|heard| heard.message == *message)
    }

    /// A call's result with the kind of the dialog that stopped it, where
    /// the DevTools socket heard it open.
    pub(crate) fn dialog_kind<T>(&self, result: Result<T>) -> Result<T> {
        match result {
            Err(DriverError::DialogOpen {
                kind: DialogKind::Unknown,
                message,
            }) => {
                let kind = self
                    .heard_dialog(&message)
                    .map_or(DialogKind::Unknown, |heard| heard.kind);
                Err(DriverError::DialogOpen { kind, message })
            }
            other => other,
        }
    }

    /// W3C WebDriver tells a dialog's text but not which function opened it.
    pub(crate) async fn dialog(&mut self) -> Result<Option<Dialog>> {
        // Under a dialog chromedriver may refuse even to list the windows;
        // the dialog is the current tab's all the same.
        match self.focus_current().await {
            Err(DriverError::DialogOpen { .. }) | Ok(()) => {}
            Err(other) => return Err(other),
        }
        match self.client.get_alert_text().await {
            // Which kind it is, the DevTools socket heard as it opened.
            Ok(message) => {
                let message = PageText::from(message);
                Ok(Some(self.heard_dialog(&message).unwrap_or(Dialog {
                    kind: DialogKind::Unknown,
                    message,
                    default_prompt: PageText::default(),
                })))
            }
            Err(CmdError::Standard(error)) if error.error == ErrorStatus::NoSuchAlert => Ok(None),
            Err(error) => Err(sort(error)),
        }
    }

    pub(crate) async fn answer_dialog(
        &mut self,
        accept: bool,
        prompt_text: Option<&str>,
    ) -> Result<()> {
        if self.dialog().await?.is_none() {
            return Err(DriverError::NoDialog);
        }
        if let Some(text) = prompt_text {
            self.client
                .send_alert_text(text)
                .await
                .map_err(|error| match sort(error) {
                    DriverError::Protocol(message) => DriverError::InvalidArgument(format!(
                        "this dialog takes no text ({message})"
                    )),
                    other => other,
                })?;
        }
        let opened = self
            .relay
            .as_ref()
            .map(|relay| relay.dialogs_opened(&self.current));
        let answered = if accept {
            self.client.accept_alert().await
        } else {
            self.client.dismiss_alert().await
        };
        let answered = match answered.map_err(sort) {
            // chromedriver answered this dialog, then met the next one the
            // page opened at once: answered all the same (the next is the
            // caller's to see).
            Err(DriverError::DialogOpen { .. }) => Ok(()),
            other => other,
        };
        // Scripts go over the DevTools socket, which must have heard the
        // dialog close first (the page may open the next at once, which is
        // not taken for this one).
        if let (Ok(()), Some(relay), Some(opened)) = (&answered, &self.relay, opened) {
            relay
                .dialog_closed(&self.current, opened, DIALOG_CLOSE_LIMIT)
                .await;
        }
        answered
    }
}
