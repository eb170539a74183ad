//! [`Operator`]: what every tool acts through (the guarded driver, the
//! numbering of its tabs and the pack's options), and the checks they share.

use std::time::Duration;

use driver_core::{Driver, DriverError};
use guard::GuardedDriver;
use marks::{Marks, MarksError};

use crate::error::ToolError;
use crate::options::PackOptions;
use crate::secrets::Secrets;

/// The browser as the tools see it. The tools are its methods, in
/// `actions` and `vision`; reading the page back after them is in `after`.
pub(crate) struct Operator {
    pub(crate) driver: GuardedDriver,
    pub(crate) marks: Marks,
    pub(crate) options: PackOptions,
    pub(crate) secrets: Secrets,
    /// What a person typed during handoffs, hidden as secrets are.
    pub(crate) typed_by_person: std::sync::RwLock<Vec<crate::options::Secret>>,
    pub(crate) person_scrubber: std::sync::RwLock<Option<Secrets>>,
    /// The session is over for good (see [`crate::Pack::end`]): no call
    /// starts a browser again.
    pub(crate) ended: std::sync::atomic::AtomicBool,
    /// Whether `close` ends the session for good (see
    /// [`crate::Pack::end_on_close`]).
    pub(crate) close_ends: std::sync::atomic::AtomicBool,
    /// Every download report the answers carried, in order (the most
    /// recent [`DOWNLOADS_KEPT`]), for callers that report them in a form
    /// of their own (`vendor`'s `browser_state`).
    pub(crate) downloads: std::sync::Mutex<driver_core::Journal<driver_core::Download>>,
}

/// How many download reports a session keeps.
pub(crate) const DOWNLOADS_KEPT: usize = 200;

impl Operator {
    /// Hides from every answer from now on what a person typed (texts of
    /// four characters or more; shorter ones would hide ordinary words).
    pub(crate) fn hide_typed(&self, typed: &[String]) {
        let fresh: Vec<crate::options::Secret> = typed
            .iter()
            .filter(|text| text.chars().count() >= 4)
            .map(|text| crate::options::Secret {
                name: "typed by a person".to_owned(),
                value: text.clone(),
            })
            .collect();
        if fresh.is_empty() {
            return;
        }
        let mut all = self
            .typed_by_person
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        all.extend(fresh);
        *self
            .person_scrubber
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(Secrets::new(&all));
    }

    /// Scrubs `text` of every secret and of what a person typed.
    pub(crate) fn scrub(&self, text: &mut String) {
        self.secrets.scrub(text);
        if let Some(person) = self
            .person_scrubber
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .as_ref()
        {
            person.scrub(text);
        }
    }

    /// A point a model gives must be on screen: a click off it would land on
    /// nothing, or fail deep in the backend with a message about the protocol.
    pub(crate) async fn on_screen(
        &self,
        tool: &'static str,
        x: f64,
        y: f64,
    ) -> Result<(), ToolError> {
        driver_core::check_point(x, y)?;
        let viewport = self.driver.viewport().await?;
        if x >= f64::from(viewport.width) || y >= f64::from(viewport.height) {
            return Err(ToolError::bad(
                tool,
                format!(
                    "({x}, {y}) is outside the viewport, which is {}×{} CSS pixels",
                    viewport.width, viewport.height
                ),
            ));
        }
        Ok(())
    }

    /// The browser's per-call timeout.
    pub(crate) fn driver_timeout(&self) -> Duration {
        self.driver.options().timeout
    }
}

/// An action that opened a dialog, or made the page close its own tab, did
/// happen: the answer reports the dialog, or the tab now current (and what
/// the action would have told is not known).
pub(crate) fn done_if_interrupted<T: Default, E: Into<ToolError>>(
    result: Result<T, E>,
) -> Result<T, ToolError> {
    match result.map_err(Into::into) {
        Err(ToolError::Driver(DriverError::DialogOpen { .. } | DriverError::NoSuchTab { .. }))
        | Err(ToolError::Marks(MarksError::Driver(
            DriverError::DialogOpen { .. } | DriverError::NoSuchTab { .. },
        ))) => Ok(T::default()),
        other => other,
    }
}
