//! [`MarksError`]: what can go wrong when reading or acting on numbers.

use driver_core::{DriverError, PageText};

/// Why an element cannot take an action ([`MarksError::Unsuitable`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Unsuitable {
    /// A disabled control.
    Disabled,
    /// `select` on something that is not a select element.
    NotASelect,
    /// It cannot take keyboard focus.
    NoFocus,
    /// Its file field is inside a frame, where files cannot be put yet.
    FileFieldInFrame,
    /// Text typed into it would press it (a button, a link, a box).
    NoText,
    /// Its value is picked, and the text is no value of its kind (a
    /// colour, a slider's number).
    NotItsKind,
}

impl std::fmt::Display for Unsuitable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Disabled => "it is disabled",
            Self::NotASelect => "it is not a select element",
            Self::NoFocus => "it cannot take keyboard focus",
            Self::FileFieldInFrame => "its file field is inside a frame",
            Self::NoText => "it takes no text: keys would press it",
            Self::NotItsKind => "its value is picked, and that is no value of its kind",
        })
    }
}

/// Why a snapshot or an action on a numbered element failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MarksError {
    /// No element was ever given this number in this tab.
    #[error("there is no element {number}")]
    Unknown {
        /// The number asked for.
        number: u32,
    },
    /// The element was removed from the page.
    #[error("element {number} is gone: the page changed since the snapshot")]
    Gone {
        /// The number asked for.
        number: u32,
    },
    /// The element is still there but hidden now.
    #[error("element {number} is hidden now")]
    Hidden {
        /// The number asked for.
        number: u32,
    },
    /// The number belongs to a page the tab has since navigated away from.
    #[error("element {number} belongs to a page this tab has left")]
    Navigated {
        /// The number asked for.
        number: u32,
    },
    /// The element is not what the snapshot showed any more: its name
    /// changed (a re-render reused the node for other content).
    #[error("element {number} changed since the snapshot: it was {was:?}, it is {now:?}")]
    Changed {
        /// The number asked for.
        number: u32,
        /// Its name in the snapshot.
        was: PageText,
        /// Its name now.
        now: PageText,
    },
    /// Something else is on top of the element.
    #[error("element {number} is covered by {by:?}")]
    Covered {
        /// The number asked for.
        number: u32,
        /// What covers it, e.g. `div#cookie-banner`.
        by: PageText,
    },
    /// The element cannot take that action (not a select, disabled…).
    #[error("element {number} cannot be {action}: {why}")]
    Unsuitable {
        /// The number asked for.
        number: u32,
        /// What was tried: `typed into`, `selected in`, `used`.
        action: &'static str,
        /// Why not.
        why: Unsuitable,
    },
    /// None of the asked values is an option of the select.
    #[error("element {number} has no option {wanted:?}; its options are {options:?}")]
    NoOption {
        /// The number asked for.
        number: u32,
        /// What was asked.
        wanted: Vec<String>,
        /// What there is.
        options: Vec<PageText>,
    },
    /// The element kept moving (an animation, a list still filling) past
    /// the time a pointer action waits for it to hold still.
    #[error("element {number} kept moving")]
    Unsteady {
        /// The number asked for.
        number: u32,
    },
    /// When the pointer arrived over the element, the page put something
    /// else under it (on `pointerover`, say): nothing was pressed.
    #[error("when the pointer arrived over element {number}, another was under it")]
    Swapped {
        /// The number asked for.
        number: u32,
        /// What lay under the pointer instead.
        now: crate::Landed,
    },
    /// The snapshot script answered in a shape this build does not know.
    #[error("the snapshot script answered unexpectedly: {0}")]
    Script(String),
    /// The browser call failed.
    #[error(transparent)]
    Driver(#[from] DriverError),
}

impl MarksError {
    /// The number no longer (or never) points at a usable element: the
    /// model should take a new snapshot.
    pub fn is_stale_ref(&self) -> bool {
        matches!(
            self,
            Self::Unknown { .. }
                | Self::Gone { .. }
                | Self::Hidden { .. }
                | Self::Navigated { .. }
                | Self::Changed { .. }
        )
    }
}
