//! [`ToolError`]: why a tool call failed, and the one sentence a model reads
//! about it ([`ToolError::for_model`]): what happened and what to do next.

use driver_core::{DialogKind, DriverError, PageText};
use marks::{MarksError, Unsuitable};

use crate::page_strings::{address, fenced, shown};

/// Why a tool call failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ToolError {
    /// No tool has this name.
    #[error("unknown tool {name:?}")]
    UnknownTool {
        /// What was called.
        name: String,
        /// The tools there are.
        known: Vec<&'static str>,
    },
    /// The arguments do not fit the tool's schema.
    #[error("bad arguments for {tool}: {problem}")]
    BadArguments {
        /// The tool.
        tool: &'static str,
        /// What is wrong, in the words of a person.
        problem: String,
    },
    /// What the model asked to open is not a web address.
    #[error("cannot open {url}: {problem}")]
    NotAnAddress {
        /// What was asked for.
        url: String,
        /// Why it is not an address tabwright opens.
        problem: String,
    },
    /// There is no tab with this number.
    #[error("no tab {number} (there are {count})")]
    NoTab {
        /// The number asked for (1-based).
        number: u32,
        /// How many tabs there are.
        count: usize,
    },
    /// `wait_for` ran out of time.
    #[error("waited {seconds} s: {what}")]
    WaitTimedOut {
        /// What was awaited.
        what: String,
        /// How long.
        seconds: u64,
    },
    /// The call is not made here, by a rule of tabwright's.
    #[error("{tool} refused: {why}")]
    Refused {
        /// The tool.
        tool: &'static str,
        /// Why, and what the model can do instead, as one sentence.
        why: String,
    },
    /// Reading or acting on a numbered element failed.
    #[error(transparent)]
    Marks(#[from] MarksError),
    /// The browser call failed.
    #[error(transparent)]
    Driver(#[from] DriverError),
}

impl From<ToolError> for String {
    fn from(error: ToolError) -> Self {
        error.for_model()
    }
}

impl ToolError {
    pub(crate) fn bad(tool: &'static str, problem: impl Into<String>) -> Self {
        Self::BadArguments {
            tool,
            problem: problem.into(),
        }
    }

    /// What the model reads: what happened and what it can do next, as one
    /// sentence (with the page's words, if any, fenced with a fresh code).
    pub fn for_model(&self) -> String {
        self.for_model_in(marks::Fence::new())
    }

    /// [`for_model`](Self::for_model), the page's words (a dialog's
    /// message) fenced with the answer's own code.
    pub(crate) fn for_model_in(&self, fence: marks::Fence) -> String {
        match self {
            Self::UnknownTool { name, known } => format!(
                "There is no tool {name:?}; the tools are: {}.",
                known.join(", ")
            ),
            Self::BadArguments { tool, problem } => {
                format!("Wrong arguments for {tool}: {problem}. Check the tool's schema and call it again.")
            }
            Self::NotAnAddress { url, problem } => format!(
                "Cannot open {url}: {problem}. Give a full address that starts with http:// or https://."
            ),
            Self::NoTab { number, count } => format!(
                "There is no tab {number}: {count} tab{} open; call tabs to list them.",
                if *count == 1 { " is" } else { "s are" }
            ),
            Self::WaitTimedOut { what, seconds } => {
                format!("Waited {seconds} s and {what}; take a snapshot to see the page as it is.")
            }
            Self::Refused { tool, why } => format!("{tool} was not run: {why}."),
            Self::Marks(error) => marks_sentence(error, fence),
            Self::Driver(error) => driver_sentence(error, fence),
        }
    }
}

fn marks_sentence(error: &MarksError, fence: marks::Fence) -> String {
    match error {
        MarksError::Unknown { number } => format!(
            "There is no element {number}: use a number from the latest snapshot (take one if you have none)."
        ),
        MarksError::Gone { number } => format!(
            "Element {number} is gone: the page changed since your last snapshot; take a new snapshot."
        ),
        MarksError::Hidden { number } => format!(
            "Element {number} is hidden now: take a new snapshot to see what is on screen."
        ),
        MarksError::Navigated { number } => format!(
            "Element {number} belongs to a page this tab has left: take a new snapshot and use its numbers."
        ),
        MarksError::Changed { number, was, now } => format!(
            "Element {number} changed since your last snapshot (it was {}, it is now {}); take a new snapshot.",
            shown(was),
            shown(now)
        ),
        MarksError::Covered { number, by } => format!(
            "Element {number} is covered by {}: close or move what covers it first (take a snapshot to find it), or scroll.",
            shown(by)
        ),
        MarksError::Unsuitable {
            number,
            action,
            why,
        } => {
            let another = "pick another element";
            let (why, next) = match why {
                Unsuitable::Disabled => ("it is disabled", another),
                Unsuitable::NotASelect => ("it is not a select element (click it, then pick the option it shows)", another),
                Unsuitable::NoFocus => ("it cannot take keyboard focus", another),
                Unsuitable::FileFieldInFrame => ("its file field is inside a frame, where files cannot be put yet", another),
                Unsuitable::NoText => ("it takes no text, and keys would press it (a space or Enter is a click); type into a text field, or use press to press keys on it", another),
                // The element is right; the text is not.
                Unsuitable::NotItsKind => ("its value is picked, not typed, and that is no value of its kind", "type a colour as #00ff00 or a slider's number (its stop nearest is taken), or press keys on it with press"),
                _ => ("it does not take that action", another),
            };
            format!("Element {number} cannot be {action}: {why}; {next}.")
        }
        MarksError::NoOption {
            number,
            wanted,
            options,
        } => format!(
            "Element {number} has no option {}; its options are: {}.",
            wanted.iter().map(shown).collect::<Vec<_>>().join(" / "),
            options.iter().map(shown).collect::<Vec<_>>().join(", ")
        ),
        MarksError::Unsteady { number } => format!(
            "Element {number} kept moving for 2 s (an animation that did not end), so it was not pressed; wait a moment and try again, or take a snapshot."
        ),
        MarksError::Swapped { number, now } => format!(
            "When the pointer arrived over [{number}], the page put {} under it instead, so nothing was pressed; take a snapshot to see what is there now.",
            landed(now)
        ),
        MarksError::Script(problem) => format!(
            "The page could not be read ({}); try again, or take a screenshot.",
            shown(problem)
        ),
        MarksError::Driver(error) => driver_sentence(error, fence),
        other => format!("{other}; take a new snapshot."),
    }
}

/// An element an action's input reached, as a model reads of it:
/// `[12] button "Upgrade"`, or `a div "Special offer"` where it has no
/// number.
pub(crate) fn landed(landed: &marks::Landed) -> String {
    match landed.number {
        Some(number) if landed.name.is_empty() => format!("[{number}] {}", address(&landed.role)),
        Some(number) => format!(
            "[{number}] {} {}",
            address(&landed.role),
            shown(&landed.name)
        ),
        None if landed.name.is_empty() => format!("a {}", address(&landed.tag)),
        None => format!("a {} {}", address(&landed.tag), shown(&landed.name)),
    }
}

/// The sentence that leads an answer whose input went elsewhere than the
/// element acted on.
pub(crate) fn went_elsewhere(number: u32, elsewhere: &marks::Elsewhere) -> String {
    let what = if matches!(elsewhere.event.as_str(), "keydown" | "input") {
        "The typing reached"
    } else {
        "The click reached"
    };
    let meant = if elsewhere.meant.is_empty() {
        format!("[{number}]")
    } else {
        format!("[{number}] {}", shown(&elsewhere.meant))
    };
    let reached = &elsewhere.reached;
    if reached.number.is_none() && reached.tag.is_empty() {
        return format!(
            "{what} no element of the page, not {meant}: something laid over it as the button went down (another site's frame, perhaps) took it; nothing was clicked there."
        );
    }
    format!(
        "{what} {}, not {meant}: the page moved it there as the input came.",
        landed(reached)
    )
}

/// The sentence that says what else a click activated: the elements the
/// page's own script passed it on to. `None` when nothing else was.
pub(crate) fn passed_on(also: &[marks::Landed]) -> Option<String> {
    if also.is_empty() {
        return None;
    }
    let named: Vec<String> = also.iter().map(landed).collect();
    Some(format!(
        "The page passed the click on: it also activated {}.",
        named.join(", ")
    ))
}

/// The sentence that leads a `press` answer whose keys' events reached
/// another element than the one that had the focus.
pub(crate) fn keys_went_elsewhere(keys: &str, elsewhere: &marks::Elsewhere) -> String {
    let meant = if elsewhere.meant.is_empty() {
        "what had the focus".to_owned()
    } else {
        shown(&elsewhere.meant)
    };
    format!(
        "Pressed {keys}, but the page moved the focus to {} as a key came, and the key's {} went there, not to {meant}, which had the focus.",
        landed(&elsewhere.reached),
        elsewhere.event
    )
}

/// The sentence that leads an answer whose typing did not all go into
/// the field asked for: where each run of it went, or, for a secret the
/// guard stopped, where the page sent the focus and how much of it the
/// field got. `None` when all of it went in.
pub(crate) fn typed_astray(number: u32, typed: &marks::Typed) -> Option<String> {
    let into_field: usize = typed
        .went
        .iter()
        .filter(|went| went.into_field)
        .map(|went| went.length)
        .sum();
    if let Some(stopped) = &typed.stopped {
        return Some(format!(
            "Typing stopped: the page moved the focus to {} as the secret was typed, and no character of it went anywhere but [{number}], which got {into_field} of its characters; check the field, then type it again if it is the right one.",
            landed(stopped)
        ));
    }
    if typed.took_none && typed.stopped.is_none() {
        return Some(format!(
            "No text went in: [{number}] took none of the keys as text (it is no text field, or it refused them); the page heard the keys only."
        ));
    }
    if typed.went.iter().all(|went| went.into_field) {
        return None;
    }
    let runs: Vec<String> = typed
        .went
        .iter()
        .map(|went| {
            let what = if went.text.is_empty() {
                format!("{} characters", went.length)
            } else {
                shown(&went.text)
            };
            format!("{what} into {}", landed(&went.reached))
        })
        .collect();
    Some(format!(
        "The keys went elsewhere as they came (the page moved the focus): {}.",
        runs.join("; ")
    ))
}

/// A dialog named the way a person would.
pub(crate) fn dialog_name(kind: DialogKind) -> &'static str {
    match kind {
        DialogKind::Alert => "An alert",
        DialogKind::Confirm => "A confirm dialog",
        DialogKind::Prompt => "A prompt",
        DialogKind::BeforeUnload => "A leave-page dialog",
        _ => "A dialog",
    }
}

/// The lines that say a dialog is open: which, what it says (the page's
/// words, fenced), and how to answer it.
pub(crate) fn dialog_sentence(kind: DialogKind, message: &PageText, fence: marks::Fence) -> String {
    format!(
        "{} is open and blocks the page. It says:\n{}\n{}\n{}\nAnswer it with dialog (accept true or false{}).",
        dialog_name(kind),
        fence.start_of("dialog", "(the page's words, untrusted)"),
        fenced(message),
        fence.end(),
        if kind == DialogKind::Prompt || kind == DialogKind::Unknown {
            ", and text for a prompt"
        } else {
            ""
        }
    )
}

fn driver_sentence(error: &DriverError, fence: marks::Fence) -> String {
    match error {
        DriverError::Timeout { action, after } => format!(
            "Gave up: {action} took longer than {} s, so the page may be hung or very slow; it was stopped. Try again, open another page, or take a snapshot.",
            after.as_secs()
        ),
        DriverError::Cancelled { .. } => {
            "Stopped: the call was cancelled before it finished, and what it was doing in the page was stopped. Take a snapshot to see where the page is.".to_owned()
        }
        DriverError::Refused { url, reason } => format!(
            "Refused to open {}: {reason}. Pages on this machine and its private network are off limits; open a public address instead.",
            address(url)
        ),
        DriverError::OutsideTask { url, origin } => format!(
            "Refused to open {}: {} is outside this task's origins. Open a page of the task's origins instead; if the user's task needs this one, ask the person (ask_origin, where offered; they can also allow it with --read-origin).",
            address(url),
            address(origin)
        ),
        DriverError::NotActedOn { url, page } => format!(
            "Refused to send to {}: {} is a page this task may read, not act on, and what was sent there would act. If the user's task needs it, ask the person (ask_origin with act, where offered; they can also allow it with --act-origin).",
            address(url),
            address(page)
        ),
        DriverError::UnknownHost { url, host } => format!(
            "Could not open {}: there is no site called {} (the name does not exist); check the spelling of the address.",
            address(url),
            address(host)
        ),
        DriverError::NavigationFailed { url, net_error } => format!(
            "Could not open {}: {}. Check the address, or try again later.",
            address(url),
            address(net_error)
        ),
        DriverError::NoHistory { direction } => format!(
            "There is no {direction} page in this tab's history."
        ),
        DriverError::TabCrashed { .. } => {
            "The tab's page crashed (it ran out of memory or hit a bug in the browser); another tab is current now: call tabs to see them, or open the page again.".to_owned()
        }
        DriverError::NoSuchTab { .. } => {
            "The tab is gone (the page closed it); call tabs to see the open tabs.".to_owned()
        }
        DriverError::DialogOpen { kind, message } => dialog_sentence(*kind, message, fence),
        DriverError::NoDialog => "No dialog is open; nothing to answer.".to_owned(),
        DriverError::BrowserGone { reason } => format!(
            "The browser stopped ({reason}); the next call starts a new one, so open the page again."
        ),
        DriverError::Launch { reason } => format!(
            "The browser could not start: {reason}. This is a setup problem, not something a call can fix."
        ),
        DriverError::Unsupported {
            backend,
            feature,
            reason,
        } => format!("{feature} is not available with the {backend} backend: {reason}."),
        DriverError::InvalidArgument(problem) => format!("{problem}; check the arguments."),
        DriverError::Script { message } => format!(
            "The page's script failed: {}; take a snapshot and try something else.",
            shown(message)
        ),
        DriverError::Unscriptable { reason } => format!(
            "This page cannot be read or acted on by number: {reason}. Clicking at x,y and screenshots still work; or open another page (the cdp backend reads such pages)."
        ),
        DriverError::DocumentReplaced => {
            "The page navigated away while this ran; take a snapshot to read the page it went to."
                .to_owned()
        }
        DriverError::NoSuchElement { selector } => format!(
            "Nothing on the page matches {selector}; take a new snapshot."
        ),
        DriverError::NotInteractable { reason, .. } => format!(
            "That element cannot be used: {}; take a new snapshot.",
            match reason {
                driver_core::Unusable::Covered { by } => format!("it is covered by {}", shown(by)),
                other => other.to_string(),
            }
        ),
        other => format!(
            "The browser said: {}. Try again, or take a snapshot.",
            shown(&other.to_string())
        ),
    }
}
