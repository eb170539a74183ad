//! JavaScript dialogs: which is open, and answering it.

use fantoccini::error::{CmdError, ErrorStatus};

use driver_core::{Dialog, DialogKind, DriverError, Result};

use crate::errors::sort;
use crate::session::Session;

impl Session {
    /// W3C WebDriver tells a dialog's text but not which function opened it.
    pub(crate) async fn dialog(&mut self) -> Result<Option<Dialog>> {
        self.focus_current().await?;
        match self.client.get_alert_text().await {
            Ok(message) => Ok(Some(Dialog {
                kind: DialogKind::Unknown,
                message,
                default_prompt: String::new(),
            })),
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
        let answered = if accept {
            self.client.accept_alert().await
        } else {
            self.client.dismiss_alert().await
        };
        answered.map_err(sort)
    }
}
