//! [`Browser`]: what every tool acts through (the guarded driver, the
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
pub(crate) struct Browser {
    pub(crate) driver: GuardedDriver,
    pub(crate) marks: Marks,
    pub(crate) options: PackOptions,
    pub(crate) secrets: Secrets,
}

impl Browser {
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
pub(crate) fn acted<T: Default, E: Into<ToolError>>(result: Result<T, E>) -> Result<T, ToolError> {
    match result.map_err(Into::into) {
        Err(ToolError::Driver(DriverError::DialogOpen { .. } | DriverError::NoSuchTab { .. }))
        | Err(ToolError::Marks(MarksError::Driver(
            DriverError::DialogOpen { .. } | DriverError::NoSuchTab { .. },
        ))) => Ok(T::default()),
        other => other,
    }
}
