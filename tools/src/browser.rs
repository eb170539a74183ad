//! [`Browser`], the browser-level context: what every tool acts through
//! (the guarded driver, the numbering of elements, the pack's options and
//! secrets) and the checks they share. It defines no tool: the core tools
//! that act on the browser as a whole are `tabs.rs`'s.
//!
//! A tool that acts on the page shown takes a `Tab` instead: this context
//! with the session's `State`, which is what reading the page back needs.

use std::time::Duration;

use driver_core::{Driver, DriverError};
use guard::GuardedDriver;
use marks::{Marks, MarksError};

use crate::error::ToolError;
use crate::options::PackOptions;
use crate::secrets::{PersonWords, Secrets};

/// The browser as the tools see it, shared by every call of a session.
/// Browser-level tools are its methods (here and in `network`, `storage`,
/// `emulation`, `person`); page tools are `Tab`'s.
pub(crate) struct Browser {
    pub(crate) driver: GuardedDriver,
    pub(crate) marks: Marks,
    pub(crate) options: PackOptions,
    pub(crate) secrets: Secrets,
    /// What a person typed during handoffs, hidden as whole words.
    pub(crate) typed_by_person: std::sync::RwLock<Vec<String>>,
    pub(crate) person_scrubber: std::sync::RwLock<Option<PersonWords>>,
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

impl Browser {
    /// Hides from every answer from now on what a person typed, as whole
    /// words of theirs (see [`PersonWords`]).
    pub(crate) fn hide_typed(&self, typed: &[String]) {
        if typed.is_empty() {
            return;
        }
        let mut all = self
            .typed_by_person
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        all.extend(typed.iter().cloned());
        let words = PersonWords::new(&all);
        *self
            .person_scrubber
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) =
            (!words.is_empty()).then_some(words);
    }

    /// A picture of the page: once a secret was typed in the session,
    /// with every field that holds one covered (a plain text field shows
    /// its value as it is drawn).
    pub(crate) async fn picture(
        &self,
        options: driver_core::ScreenshotOptions,
    ) -> Result<Vec<u8>, ToolError> {
        if self.secrets.any_typed() {
            Ok(marks::screenshot_covering_secrets(&self.driver, options).await?)
        } else {
            Ok(self.driver.screenshot(options).await?)
        }
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
