//! [`DriverError`]: what can go wrong in a driver call, sorted so callers can
//! branch on it.

use std::time::Duration;

/// Why an element a selector found cannot be acted on
/// ([`DriverError::NotInteractable`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Unusable {
    /// Nothing of it is seen: the same test the snapshot's numbering makes.
    Hidden,
    /// A disabled control.
    Disabled,
    /// It cannot take keyboard focus.
    NoFocus,
    /// It has no value: not a form control.
    NotAControl,
    /// Something else is on top of its centre.
    Covered {
        /// What, as a person would point it out: `div#overlay` (its id and
        /// classes the page's).
        by: crate::PageText,
    },
}

impl std::fmt::Display for Unusable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Hidden => f.write_str("it is not visible"),
            Self::Disabled => f.write_str("it is disabled"),
            Self::NoFocus => f.write_str("it cannot take keyboard focus"),
            Self::NotAControl => f.write_str("it has no value (not a form control)"),
            Self::Covered { by } => write!(f, "it is covered by {by:?}"),
        }
    }
}

/// The result of a driver call.
pub type Result<T, E = DriverError> = std::result::Result<T, E>;

/// Why a driver call failed.
///
/// Backends sort their protocol errors into these variants at the crate
/// boundary, so the tool layer can tell a model what to do next ("take a new
/// snapshot", "the browser restarted") without reading message text.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DriverError {
    /// The call did not finish within the per-call timeout.
    #[error("{action} timed out after {}", human(*.after))]
    Timeout {
        /// What was being done, e.g. `navigate to http://…`.
        action: String,
        /// The limit that was hit.
        after: Duration,
    },

    /// The call was cancelled under way (its caller gave up on it); what it
    /// was doing in the page was stopped.
    #[error("{action} was cancelled")]
    Cancelled {
        /// What was being done.
        action: String,
    },

    /// No element matches the selector.
    #[error("no element matches {selector:?}")]
    NoSuchElement {
        /// The CSS selector that matched nothing.
        selector: String,
    },

    /// The element exists but cannot be acted on (hidden, zero-size, disabled).
    #[error("element {selector:?} cannot be {action}: {reason}")]
    NotInteractable {
        /// The CSS selector.
        selector: String,
        /// What was tried, e.g. `clicked`.
        action: &'static str,
        /// Why it could not be.
        reason: Unusable,
    },

    /// The navigation did not produce a page (network error, refused by a
    /// proxy, aborted).
    #[error("could not open {url:?}: {net_error}")]
    NavigationFailed {
        /// The URL asked for (a link's or a redirect's: the page's).
        url: crate::PageText,
        /// Chrome's net error, e.g. `net::ERR_CONNECTION_REFUSED`.
        net_error: String,
    },

    /// The host name does not resolve: no such site (a mistyped name, most
    /// likely). Not a refusal: nothing was protected.
    #[error("could not open {url:?}: the name {host:?} does not resolve")]
    UnknownHost {
        /// The URL asked for (a link's or a redirect's: the page's).
        url: crate::PageText,
        /// The name that does not resolve.
        host: crate::PageText,
    },

    /// The guard refused to let the browser reach that address.
    #[error("refused {url:?}: {reason}")]
    Refused {
        /// What was asked for (a link's, a redirect's, a request's: the
        /// page's).
        url: crate::PageText,
        /// Why, as the guard put it.
        reason: String,
    },

    /// The guard refused it because it is outside the origins the task
    /// names (`guard::Task`), not to protect this machine.
    #[error("refused {url:?}: {origin:?} is outside this task's origins")]
    OutsideTask {
        /// What was asked for (the page's, as for `Refused`).
        url: crate::PageText,
        /// Its origin.
        origin: crate::PageText,
    },

    /// The guard refused to send a document (a form posted, a page's
    /// `POST` reloaded) to a page the task may read but not act on.
    #[error("refused {url:?}: {page:?} is a page this task may read, not act on")]
    NotActedOn {
        /// What was asked for (the page's, as for `Refused`).
        url: crate::PageText,
        /// The page sent to, without its query.
        page: crate::PageText,
    },

    /// There is no history entry in that direction.
    #[error("there is no {direction} page in this tab's history")]
    NoHistory {
        /// `"earlier"` or `"later"`.
        direction: &'static str,
    },

    /// The tab does not exist (closed by the page, or never did).
    #[error("no tab {id}")]
    NoSuchTab {
        /// The tab asked for.
        id: String,
    },

    /// The tab's page crashed (its renderer died: out of memory, or a bug);
    /// the tab is gone, another is current.
    #[error("tab {id} crashed")]
    TabCrashed {
        /// The tab that crashed.
        id: String,
    },

    /// A frame could not be reached (gone, or in a process the backend
    /// cannot attach to).
    #[error("the frame at {path} cannot be read: {reason}")]
    FrameUnreachable {
        /// The frame's path of `window.frames` indices.
        path: String,
        /// Why.
        reason: String,
    },

    /// The document a script ran in was replaced before the script finished:
    /// the page navigated (a link, a form, `location`) while it ran. The new
    /// document is there to be read; this is not a timeout.
    #[error("the page navigated away before the script finished")]
    DocumentReplaced,

    /// The page broke what the backend's own scripting relies on (it
    /// replaced JavaScript built-ins a WebDriver end's script runner uses):
    /// no script can be run in it, though input and screenshots still work.
    #[error("scripts cannot run in this page: {reason}")]
    Unscriptable {
        /// What was seen.
        reason: String,
    },

    /// A script threw.
    #[error("script threw: {message:?}")]
    Script {
        /// The exception's message as the page reported it.
        message: crate::PageText,
    },

    /// The browser could not be started.
    #[error("could not start the browser: {reason}")]
    Launch {
        /// What went wrong, with the path or flag involved.
        reason: String,
    },

    /// The browser (or the driver process in front of it) is gone: killed,
    /// crashed, or the connection dropped. The next call starts a fresh one.
    #[error("the browser is gone ({reason}); the next call starts a new one")]
    BrowserGone {
        /// What was observed.
        reason: String,
    },

    /// A JavaScript dialog is open in the tab and blocks the page until it
    /// is answered ([`Driver::answer_dialog`](crate::Driver::answer_dialog)).
    #[error("a {kind} dialog is open: {message:?}")]
    DialogOpen {
        /// Which kind.
        kind: crate::DialogKind,
        /// Its text.
        message: crate::PageText,
    },

    /// There is no dialog to answer.
    #[error("no dialog is open")]
    NoDialog,

    /// This backend cannot do that; see [`crate::Driver::capabilities`].
    #[error("{feature} is not supported by the {backend} backend: {reason}")]
    Unsupported {
        /// The backend's name.
        backend: &'static str,
        /// What was asked for.
        feature: crate::Capability,
        /// Why the backend cannot.
        reason: &'static str,
    },

    /// An argument no browser could accept (an empty selector, a zero viewport).
    #[error("invalid argument: {0}")]
    InvalidArgument(String),

    /// The protocol answered with something unexpected.
    #[error("protocol error: {0}")]
    Protocol(String),
}

impl DriverError {
    /// The call hit its timeout.
    pub fn is_timeout(&self) -> bool {
        matches!(self, Self::Timeout { .. })
    }

    /// The browser is gone and the session must start over.
    pub fn is_browser_gone(&self) -> bool {
        matches!(self, Self::BrowserGone { .. })
    }

    /// The guard refused the address.
    pub fn is_refused(&self) -> bool {
        matches!(
            self,
            Self::Refused { .. } | Self::OutsideTask { .. } | Self::NotActedOn { .. }
        )
    }

    /// A dialog blocks the page.
    pub fn is_dialog_open(&self) -> bool {
        matches!(self, Self::DialogOpen { .. })
    }

    /// A shorthand for [`DriverError::Timeout`].
    pub fn timeout(action: impl Into<String>, after: Duration) -> Self {
        Self::Timeout {
            action: action.into(),
            after,
        }
    }
}

fn human(duration: Duration) -> String {
    if duration.as_millis().is_multiple_of(1000) {
        format!("{} s", duration.as_secs())
    } else {
        format!("{} ms", duration.as_millis())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_carry_the_offending_value() {
        let error = DriverError::timeout("navigate to http://x/", Duration::from_secs(30));
        assert_eq!(
            error.to_string(),
            "navigate to http://x/ timed out after 30 s"
        );
        let error = DriverError::NoSuchElement {
            selector: "#nope".into(),
        };
        assert_eq!(error.to_string(), "no element matches \"#nope\"");
        assert!(DriverError::timeout("x", Duration::from_millis(1500))
            .to_string()
            .ends_with("1500 ms"));
    }
}
