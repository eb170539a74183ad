//! The [`Driver`] trait and the plain values that cross it.

use std::fmt;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

use crate::{Capabilities, KeyPress, PageText, Result};

/// One browser session, driven by one agent, one call at a time.
///
/// # Contract
///
/// Every backend honours these, and the conformance suite checks them:
///
/// - **Lazy start.** Constructing a driver costs nothing; the browser starts
///   (or the remote end is connected) on the first call that needs it.
/// - **Serialised calls.** Calls take `&self` and may be made from many tasks,
///   but a backend runs them one at a time: a session is one current page, and
///   two overlapping navigations of one page are a race whatever the callers
///   meant.
/// - **Bounded.** No call outlives the per-call timeout of its options; a page
///   that never finishes loading or spins in a script fails the call with
///   [`DriverError::Timeout`](crate::DriverError::Timeout) and leaves the
///   driver usable.
/// - **Current tab.** Page calls act on the current tab. A tab the page opens
///   (`window.open`, `target=_blank`) is listed by [`Driver::tabs`] but does not
///   become current until [`Driver::switch_tab`] says so.
/// - **Close.** [`Driver::close`] is idempotent, works on a driver that never
///   started, ends every process the driver started and deletes its temporary
///   profile; dropping a driver without closing it does the same, best effort.
///   A driver connected to a remote browser only disconnects.
/// - **No downloads.** Every download a page starts is refused and reported
///   by [`Driver::downloads`].
/// - **Honest capabilities.** What a backend cannot do it reports in
///   [`Driver::capabilities`] and answers with
///   [`DriverError::Unsupported`](crate::DriverError::Unsupported).
///
/// # Why each call is here
///
/// The tool pack (`tools`) and the snapshot (`marks`) are built from the
/// page-level calls: [`eval_isolated`](Driver::eval_isolated) reads the page
/// and acts on numbered elements out of the page's reach,
/// [`eval`](Driver::eval) and [`eval_in_frame`](Driver::eval_in_frame) run
/// what must run among the page's own scripts (settling's hooks, a user's
/// script), [`click_at`](Driver::click_at), [`move_mouse`](Driver::move_mouse),
/// [`wheel`](Driver::wheel), [`type_text`](Driver::type_text) and
/// [`press`](Driver::press) give the real input events a page expects, and
/// navigation, tabs, viewport, console, downloads and dialogs are the rest of
/// what an agent does. The selector calls ([`click`](Driver::click),
/// [`send_keys`](Driver::send_keys), [`text`](Driver::text),
/// [`value`](Driver::value), [`wait_for`](Driver::wait_for)) and
/// [`reload`](Driver::reload) are for library users who drive pages by CSS
/// selector; the pack does not use them, the conformance suite holds both
/// backends to them.
#[async_trait]
pub trait Driver: Send + Sync {
    /// What this backend can and cannot do. Cheap, never starts the browser.
    fn capabilities(&self) -> Capabilities;

    /// Opens `url` in the current tab and waits for it to load.
    ///
    /// Returns the HTTP status of the main document (after redirects) and the
    /// URL the tab ended on. A network failure (refused connection, unknown
    /// host, a proxy refusal) is
    /// [`DriverError::NavigationFailed`](crate::DriverError::NavigationFailed)
    /// with Chrome's net error; an HTTP error status is not an error.
    async fn navigate(&self, url: &str) -> Result<Navigation>;

    /// Evaluates a JavaScript expression in the current tab's main frame and
    /// returns its value as JSON. A promise is awaited. A thrown exception is
    /// [`DriverError::Script`](crate::DriverError::Script) carrying its
    /// message; `undefined` is `null`.
    async fn eval(&self, expression: &str) -> Result<serde_json::Value>;

    /// Evaluates an expression in a frame of the current tab, named by its
    /// path of `window.frames` indices from the top (`[]` is the top frame,
    /// `[1, 0]` the first frame inside the top's second). This is how a
    /// cross-origin frame, which the page's own scripts cannot read, is read.
    async fn eval_in_frame(&self, frame: &[u32], expression: &str) -> Result<serde_json::Value>;

    /// Evaluates an expression in a frame (a path as for
    /// [`eval_in_frame`](Driver::eval_in_frame)) in a script world of
    /// tabwright's own: it sees the page's DOM but none of the page's
    /// JavaScript, and the page can neither see nor change what runs there
    /// (its globals, its overrides of built-ins). What tabwright runs in the
    /// page for itself (the snapshot, the numbering, settling's checks)
    /// runs here. A backend without such worlds lists
    /// [`Capability::IsolatedWorld`](crate::Capability::IsolatedWorld) as
    /// unsupported and runs it in the page's own world, as this default
    /// does.
    async fn eval_isolated(&self, frame: &[u32], expression: &str) -> Result<serde_json::Value> {
        self.eval_in_frame(frame, expression).await
    }

    /// Keeps `source` to run in tabwright's own world (see
    /// [`eval_isolated`](Self::eval_isolated)) of every new document,
    /// frames included, before anything reads it: what it defines is there
    /// when a call looks, rather than sent whole into each document. It
    /// reaches the tabs opened from now on: all of them when the browser
    /// has not started yet (it starts on the first call), and those of a
    /// browser started again after one was lost; a tab open already keeps
    /// what it had. A backend without such worlds keeps nothing, as this
    /// default does: a caller looks for what the script defines and sends
    /// it itself where it is missing.
    fn preload(&self, source: &str) {
        let _ = source;
    }

    /// Clicks the centre of the first element matching a CSS selector, after
    /// scrolling it into view, with real mouse events.
    async fn click(&self, selector: &str) -> Result<()>;

    /// Clicks at a point of the viewport, in CSS pixels from its top left.
    async fn click_at(&self, x: f64, y: f64) -> Result<()>;

    /// Clicks at a viewport point as `click` says: another button, a
    /// double or triple click, keys held. The default takes a plain click
    /// only.
    async fn click_with(&self, x: f64, y: f64, click: crate::Click) -> Result<()> {
        if click == crate::Click::default() {
            return self.click_at(x, y).await;
        }
        Err(crate::DriverError::InvalidArgument(
            "this backend makes plain clicks only: one press of the left button, nothing held"
                .to_owned(),
        ))
    }

    /// Moves the mouse to a point of the viewport without pressing a button,
    /// so hover menus open and tooltips show.
    async fn move_mouse(&self, x: f64, y: f64) -> Result<()>;

    /// Turns the mouse wheel over a point of the viewport: scrolls whatever
    /// is under it (the page, or a scrollable box) by `dx`, `dy` CSS pixels.
    async fn wheel(&self, x: f64, y: f64, dx: f64, dy: f64) -> Result<()>;

    /// Focuses the first element matching a CSS selector and types `text` into
    /// it as key events, after what it already holds.
    async fn send_keys(&self, selector: &str, text: &str) -> Result<()>;

    /// Types `text` as key events into whatever has focus.
    async fn type_text(&self, text: &str) -> Result<()>;

    /// Presses one key (with modifiers) on whatever has focus.
    async fn press(&self, key: KeyPress) -> Result<()>;

    /// Takes a screenshot of the viewport or of the whole page.
    async fn screenshot(&self, options: ScreenshotOptions) -> Result<Vec<u8>>;

    /// The rendered text (`innerText`) of the first element matching a selector.
    async fn text(&self, selector: &str) -> Result<String>;

    /// The current `value` of the first form control matching a selector.
    async fn value(&self, selector: &str) -> Result<String>;

    /// Waits until an element matching a selector is present (or visible), up
    /// to the per-call timeout.
    async fn wait_for(&self, selector: &str, condition: WaitFor) -> Result<()>;

    /// Goes back one entry in the current tab's history. The page a tab
    /// starts on (see [`is_start_page`]) does not count: going back to it
    /// is [`DriverError::NoHistory`](crate::DriverError::NoHistory), as at the
    /// start of history.
    async fn back(&self) -> Result<Navigation>;

    /// Goes forward one entry in the current tab's history.
    async fn forward(&self) -> Result<Navigation>;

    /// Reloads the current tab.
    async fn reload(&self) -> Result<Navigation>;

    /// The current tab's id (cheap: no page is asked). `marks` keys its
    /// numbering by it.
    async fn current_tab(&self) -> Result<TabId>;

    /// The open tabs, oldest first, with the current one flagged.
    async fn tabs(&self) -> Result<Vec<Tab>>;

    /// The ids of the open tabs, oldest first: what [`tabs`](Driver::tabs)
    /// lists, without titles and URLs, for a caller that only wants to know
    /// what opened or closed (cheaper on a backend that must visit every tab
    /// to read its title; the pack asks after every action).
    async fn tab_ids(&self) -> Result<Vec<TabId>> {
        Ok(self.tabs().await?.into_iter().map(|tab| tab.id).collect())
    }

    /// Opens a new tab (on `url`, or blank) and makes it current.
    async fn open_tab(&self, url: Option<&str>) -> Result<Tab>;

    /// Makes another tab current.
    async fn switch_tab(&self, id: &TabId) -> Result<()>;

    /// Closes a tab. Closing the current one makes the most recent remaining
    /// tab current; closing the last one leaves a blank tab in its place.
    async fn close_tab(&self, id: &TabId) -> Result<()>;

    /// The current tab's viewport size, in CSS pixels.
    async fn viewport(&self) -> Result<Viewport>;

    /// Resizes the viewport of every tab.
    async fn set_viewport(&self, viewport: Viewport) -> Result<()>;

    /// How many fetches and XHRs of the current tab (its frames, cross-site
    /// ones included) are in flight, as the protocol sees them: what
    /// settling waits for without wrapping the page's own `fetch`. `None`
    /// where the backend cannot see requests
    /// ([`Capability::RequestTracking`](crate::Capability::RequestTracking)
    /// unsupported), as this default says.
    async fn requests_in_flight(&self) -> Result<Option<usize>> {
        Ok(None)
    }

    /// Sends one Chrome DevTools Protocol command to the current tab and
    /// returns its answer: what the optional tools (PDF, device emulation,
    /// cookies, a file input's files) need, on any backend that speaks to a
    /// Chrome (the CDP backend; chromedriver through its CDP bridge). A
    /// guarded driver passes only commands that cannot move traffic around
    /// the guard. A backend without it lists
    /// [`Capability::DevTools`](crate::Capability::DevTools) as unsupported,
    /// as this default answers.
    async fn devtools(&self, method: &str, params: serde_json::Value) -> Result<serde_json::Value> {
        let _ = (method, params);
        Err(crate::DriverError::Unsupported {
            backend: self.capabilities().backend,
            feature: crate::Capability::DevTools,
            reason: "this backend sends no DevTools commands",
        })
    }

    /// The requests of the current tab's page since it was opened (the
    /// last [`NETWORK_LOG_KEPT`] of them), oldest first: what the `requests`
    /// tool lists. A backend that sees no network events lists
    /// [`Capability::NetworkLog`](crate::Capability::NetworkLog) as
    /// unsupported, as this default answers.
    async fn network_log(&self) -> Result<Vec<Request>> {
        Err(crate::DriverError::Unsupported {
            backend: self.capabilities().backend,
            feature: crate::Capability::NetworkLog,
            reason: "this backend sees no network events",
        })
    }

    /// The console messages and uncaught page errors of every tab since the
    /// previous call (the buffer is drained).
    async fn console(&self) -> Result<Vec<ConsoleEntry>>;

    /// What became of the downloads pages started, since the previous call
    /// (drained): refused unless [`Options::downloads`](crate::Options::downloads)
    /// names a folder; then each is reported when it starts and when it
    /// is saved, or cancelled for being larger than the cap.
    async fn downloads(&self) -> Result<Vec<Download>>;

    /// The JavaScript dialog (alert, confirm, prompt, beforeunload) open in
    /// the current tab, if any. While one is open, calls that need the page
    /// fail at once with
    /// [`DriverError::DialogOpen`](crate::DriverError::DialogOpen) instead of
    /// hanging.
    async fn dialog(&self) -> Result<Option<Dialog>>;

    /// Accepts or dismisses the current tab's dialog; `prompt_text` is typed
    /// into a prompt before accepting.
    /// [`DriverError::NoDialog`](crate::DriverError::NoDialog) if none is
    /// open.
    async fn answer_dialog(&self, accept: bool, prompt_text: Option<&str>) -> Result<()>;

    /// Catches the file choosers of the current tab's page (`on`), or
    /// lets them open again: while caught, a chooser the page opens (a
    /// file field clicked, or `input.click()` from a script, on a field
    /// that may not even be in the document) is not shown, and is kept for
    /// [`take_file_chooser`](Self::take_file_chooser). Nothing of it is
    /// visible to the page. The default: unsupported (a backend that hears
    /// no DevTools events).
    async fn catch_file_choosers(&self, on: bool) -> Result<()> {
        let _ = on;
        Err(crate::DriverError::Unsupported {
            backend: self.capabilities().backend,
            feature: crate::Capability::DevTools,
            reason: "this backend hears no DevTools events",
        })
    }

    /// The file chooser caught in the current tab since catching began
    /// (waiting a moment for one the last input opened), taken: the next
    /// call answers `None` until another opens. The default: `None`.
    async fn take_file_chooser(&self) -> Result<Option<FileChooser>> {
        Ok(None)
    }

    /// Pictures the current tab's viewport once per step of `probe`,
    /// each after the step's scripts ran in tabwright's world and the
    /// page drew a frame, with the probe's sheet given (out of the page's
    /// sight) to the documents it names; the probe's `after` scripts run
    /// last, whatever happened. Nothing of it reaches the page's own world:
    /// no element, attribute, event or computed style of an element
    /// changes. How `marks` tells what a person sees of the page's text
    /// (see [`PaintProbe`](crate::PaintProbe)). A backend that cannot lists
    /// [`Capability::PaintProbe`](crate::Capability::PaintProbe) as
    /// unsupported, as this default answers.
    async fn paint_probe(&self, probe: &crate::PaintProbe) -> Result<crate::PaintPictures> {
        let _ = probe;
        Err(crate::DriverError::Unsupported {
            backend: self.capabilities().backend,
            feature: crate::Capability::PaintProbe,
            reason: "this backend takes no pictures of the page's paint",
        })
    }

    /// Gives tabwright's world of a frame's document the elements the
    /// page's world lists, each with its closed shadow root and, if asked,
    /// its node in Chromium's accessibility tree (see
    /// [`Handover`](crate::Handover)); answers what `receive` answered.
    /// Nothing of it reaches the page's own world but the evaluation of
    /// the list. A backend that cannot lists
    /// [`Capability::BrowserTree`](crate::Capability::BrowserTree) as
    /// unsupported, as this default answers.
    async fn hand_over(&self, handover: &crate::Handover) -> Result<serde_json::Value> {
        let _ = handover;
        Err(crate::DriverError::Unsupported {
            backend: self.capabilities().backend,
            feature: crate::Capability::BrowserTree,
            reason: "this backend reads no closed shadow roots and no accessibility tree",
        })
    }

    /// Ends the call under way, if any, at once with
    /// [`DriverError::Cancelled`](crate::DriverError::Cancelled), stopping what it was doing in the page
    /// (a load, a wait, a script) as its timeout would; calls made after
    /// this is called are not affected; it returns once the call has ended.
    /// For a caller that gave up on a call. The default does nothing: the
    /// call runs to its end or its deadline.
    async fn cancel(&self) {}

    /// The session's share of its browser's memory, with its budget, read
    /// now (a few milliseconds; it waits for the call under way, if any).
    /// `None` where it cannot be measured: a browser on another machine,
    /// or no `/proc` to read. The default: `None`.
    async fn memory(&self) -> Result<Option<crate::Memory>> {
        Ok(None)
    }

    /// Ends the session. See the contract above.
    async fn close(&self) -> Result<()>;
}

/// An expression: the HTTP status the current document came with (navigation
/// timing's `responseStatus`), or 0 if it had none, or if the page has broken
/// the API that says (a page must not make a navigation fail). It defines
/// [`Navigation::status`] where a protocol has no status of its own
/// (WebDriver), and the status line of a snapshot.
pub const DOCUMENT_STATUS: &str = "(() => { try { \
    const status = Number(performance.getEntriesByType('navigation')[0]?.responseStatus); \
    return Number.isInteger(status) && status >= 100 && status <= 999 ? status : 0; \
    } catch { return 0; } })()";

/// Where a navigation ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Navigation {
    /// HTTP status of the main document, when there was an HTTP response
    /// (`about:blank` and history entries restored from cache may have none).
    pub status: Option<u16>,
    /// The URL the tab shows after redirects.
    pub url: PageText,
}

/// Whether `address` (a document's URL as the browser reports it) is the
/// browser's own error page, shown in place of a page whose request was
/// refused or failed: Chrome's `chrome-error:`, Firefox's
/// `about:neterror`.
pub fn is_error_page(address: &str) -> bool {
    address.starts_with("chrome-error:") || address.starts_with("about:neterror")
}

/// A backend's identifier for a tab: stable while the tab lives.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct TabId(pub String);

impl fmt::Display for TabId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// One open tab.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tab {
    /// The backend's identifier.
    pub id: TabId,
    /// The document title (may be empty).
    pub title: PageText,
    /// The URL the tab shows.
    pub url: PageText,
    /// Whether page calls act on this tab.
    pub current: bool,
}

/// A viewport size in CSS pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Viewport {
    /// Width in CSS pixels.
    pub width: u32,
    /// Height in CSS pixels.
    pub height: u32,
}

impl Viewport {
    /// Refuses a size no browser window can take (0, or over 10,000 px).
    pub fn check(self) -> Result<Self> {
        if (1..=10_000).contains(&self.width) && (1..=10_000).contains(&self.height) {
            Ok(self)
        } else {
            Err(crate::DriverError::InvalidArgument(format!(
                "a {}x{} viewport: width and height must be from 1 to 10000",
                self.width, self.height
            )))
        }
    }
}

/// Refuses a point that cannot be in a viewport (negative, NaN, infinite).
pub fn check_point(x: f64, y: f64) -> Result<()> {
    if x.is_finite() && y.is_finite() && x >= 0.0 && y >= 0.0 {
        Ok(())
    } else {
        Err(crate::DriverError::InvalidArgument(format!(
            "({x}, {y}) is not a point in the viewport"
        )))
    }
}

/// Checks a wheel turn over a point: the point as [`check_point`], and the
/// amounts finite. Both backends call it before asking the browser.
pub fn check_scroll(x: f64, y: f64, dx: f64, dy: f64) -> Result<()> {
    check_point(x, y)?;
    if dx.is_finite() && dy.is_finite() {
        Ok(())
    } else {
        Err(crate::DriverError::InvalidArgument(format!(
            "scroll amounts must be finite numbers, not ({dx}, {dy})"
        )))
    }
}

/// Image format of a screenshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum ScreenshotFormat {
    /// Lossless; what a vision model reading small text wants.
    #[default]
    Png,
    /// Lossy, with a quality from 0 to 100.
    Jpeg(u8),
    /// Lossy, with a quality from 0 to 100.
    Webp(u8),
}

/// What a screenshot covers and how it is encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ScreenshotOptions {
    /// The encoding; PNG by default.
    pub format: ScreenshotFormat,
    /// The whole page instead of the viewport.
    pub full_page: bool,
}

/// What [`Driver::wait_for`] waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum WaitFor {
    /// The element is in the DOM.
    Present,
    /// The element is in the DOM and has a box a person could see.
    Visible,
}

/// Severity of a console entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ConsoleLevel {
    /// `console.debug`.
    Debug,
    /// `console.log` and `console.info`.
    Info,
    /// `console.warn`.
    Warning,
    /// `console.error`.
    Error,
    /// An uncaught exception or unhandled rejection.
    PageError,
}

/// How many requests of one page [`Driver::network_log`] keeps.
pub const NETWORK_LOG_KEPT: usize = 1_000;

/// One request of a page, as the network log keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Request {
    /// The backend's id for it (CDP's `requestId`), to read its body by.
    pub id: String,
    /// GET, POST, … (a page's `fetch` may name its own).
    pub method: PageText,
    /// Where it went (the first URL, before redirects).
    pub url: PageText,
    /// What asked for it: Document, Stylesheet, Image, Script, XHR, Fetch, …
    pub kind: String,
    /// The response's HTTP status, once it came.
    pub status: Option<u16>,
    /// The response's MIME type, once it came (the server's word).
    pub mime: Option<PageText>,
    /// Bytes received on the wire, once it finished.
    pub size: Option<u64>,
    /// Milliseconds from sending it to its end (finished or failed).
    pub millis: Option<f64>,
    /// Chrome's net error when it failed (`net::ERR_…`).
    pub failure: Option<String>,
    /// The request's headers, as sent (the page chooses most of them).
    pub request_headers: Vec<(PageText, PageText)>,
    /// The response's headers (the server's words).
    pub response_headers: Vec<(PageText, PageText)>,
    /// The request's body, when it had one Chrome kept (form posts, JSON).
    pub post_data: Option<PageText>,
}

impl Request {
    /// A request just sent: nothing of its response known yet.
    pub fn begun(
        id: String,
        method: PageText,
        url: PageText,
        kind: String,
        request_headers: Vec<(PageText, PageText)>,
        post_data: Option<PageText>,
    ) -> Self {
        Self {
            id,
            method,
            url,
            kind,
            status: None,
            mime: None,
            size: None,
            millis: None,
            failure: None,
            request_headers,
            response_headers: Vec::new(),
            post_data,
        }
    }
}

/// A download a page started, and what became of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Download {
    /// Where it came from.
    pub url: PageText,
    /// The file name the page suggested.
    pub filename: PageText,
    /// What became of it, as of this report.
    pub outcome: DownloadOutcome,
}

/// What became of a download.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum DownloadOutcome {
    /// Refused: downloads are off (the default).
    Refused,
    /// Begun, into the downloads folder; a later report says how it ended.
    Started,
    /// Saved whole.
    Saved {
        /// Where it is.
        path: std::path::PathBuf,
        /// Its size in bytes.
        bytes: u64,
    },
    /// Cancelled, and what had arrived deleted: it was larger than the cap.
    TooLarge {
        /// The cap, in bytes.
        limit: u64,
    },
    /// It failed or the page cancelled it.
    Failed,
}

/// Where downloads may land, and how large each may be: see
/// [`Options::downloads`](crate::Options::downloads).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Downloads {
    /// The folder they are saved in.
    pub dir: std::path::PathBuf,
    /// The largest a download may be, in bytes; a larger one is cancelled.
    pub max_bytes: u64,
}

/// A console message or an uncaught page error.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsoleEntry {
    /// How severe it is.
    pub level: ConsoleLevel,
    /// The message text (arguments joined by spaces).
    pub text: PageText,
    /// The tab it came from.
    pub tab: TabId,
}

/// A file chooser a page opened while choosers were caught
/// ([`Driver::catch_file_choosers`]): the file field it is for, as
/// DevTools names it across its sessions, for `DOM.setFileInputFiles`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileChooser {
    /// The field's `backendNodeId`.
    pub backend_node_id: i64,
    /// Whether it takes more than one file.
    pub multiple: bool,
}

impl FileChooser {
    /// The chooser a `Page.fileChooserOpened` event tells of, if it names
    /// its field.
    pub fn of_event(params: &serde_json::Value) -> Option<Self> {
        Some(Self {
            backend_node_id: params["backendNodeId"].as_i64()?,
            multiple: params["mode"] == "selectMultiple",
        })
    }
}

/// A JavaScript dialog a page opened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dialog {
    /// Which function opened it.
    pub kind: DialogKind,
    /// The text the page shows in it.
    pub message: PageText,
    /// A prompt's pre-filled answer (empty otherwise).
    pub default_prompt: PageText,
}

/// Which kind of dialog is open.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub enum DialogKind {
    /// `alert()`: only OK.
    Alert,
    /// `confirm()`: OK or Cancel.
    Confirm,
    /// `prompt()`: a line of text, then OK or Cancel.
    Prompt,
    /// "Leave site?" before the page unloads.
    BeforeUnload,
    /// The backend cannot tell (W3C WebDriver reports the text only).
    Unknown,
}

impl fmt::Display for DialogKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Alert => "alert",
            Self::Confirm => "confirm",
            Self::Prompt => "prompt",
            Self::BeforeUnload => "beforeunload",
            Self::Unknown => "dialog",
        })
    }
}

/// Whether `url` is a page the browser starts a tab on (`about:blank`,
/// Chrome's new-tab pages, the empty `data:,` a session's profile starts
/// on) rather than one anybody opened: history before the first real page.
pub fn is_start_page(url: &str) -> bool {
    if url == "data:," {
        return true;
    }
    let scheme = url.split_once(':').map_or("", |(scheme, _)| scheme);
    matches!(
        scheme.to_ascii_lowercase().as_str(),
        "about" | "chrome" | "chrome-search" | "chrome-untrusted"
    )
}

#[cfg(test)]
mod tests {
    use super::is_start_page;

    #[test]
    fn start_pages_are_the_browsers_own() {
        for url in [
            "about:blank",
            "chrome://new-tab-page-third-party/",
            "chrome-search://local-ntp/",
            "data:,",
        ] {
            assert!(is_start_page(url), "{url}");
        }
        for url in [
            "https://example.com/",
            "http://127.0.0.1:8080/about:blank",
            "blob:https://example.com/1",
            "data:,words",
        ] {
            assert!(!is_start_page(url), "{url}");
        }
    }
}
