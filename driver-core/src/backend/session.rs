//! [`BrowserSession`]: the narrow trait a backend implements, one live
//! browser session seen from the protocol's side.
//!
//! A backend does not implement [`Driver`](crate::Driver) itself: it
//! implements this, and [`SessionDriver`](super::SessionDriver) makes a
//! `Driver` of it, once for every backend (the fake included). What the
//! contract promises around a call (the lock, the lazy start, the deadline,
//! recovery, the checks of arguments, the name of the call in a timeout's
//! message, what can end a call early) is written there; what is here is
//! what differs by protocol. The selector calls, `click_at`, `tab_ids` and
//! opening a tab on a URL are made from the calls below, so a backend has
//! nothing to write for them.
//!
//! The methods take `&mut self`: the supervisor holds the session's lock
//! for the length of a call, so a backend never guards its own state
//! against a second call.

use std::time::Duration;

use async_trait::async_trait;
use serde_json::Value;

use super::supervisor::BoxFuture;
use crate::{
    Capabilities, Click, ConsoleEntry, Dialog, Download, DriverError, FileChooser, KeyPress,
    Memory, Navigation, Options, Request, Result, ScreenshotOptions, Tab, TabId, Viewport,
};

/// A backend's live browser session. See the module docs; each call's
/// meaning is the [`Driver`](crate::Driver) method of the same name.
#[async_trait]
pub trait BrowserSession: Send + Sized + 'static {
    /// Starts a session (a browser, or a connection to one) as `options`
    /// say.
    async fn start(options: Options) -> Result<Self>;

    /// What the backend can do with these options: `session` is the one
    /// running, if any (a remote end's abilities may be known only once
    /// its session started). Cheap; never starts anything.
    fn capabilities(options: &Options, session: Option<&Self>) -> Capabilities;

    // --- the session's life, as the supervisor handles it ---

    /// Why the browser is gone, if that can be told without asking it (its
    /// process exited, its connection closed); `None` while it lives.
    fn gone(&mut self) -> Option<String>;

    /// What may end a call early, as a future that resolves with the error
    /// to answer (the browser went away; with `needs_page`, a dialog opened
    /// in the current tab or the tab closed). The default: nothing does.
    fn interruption(&mut self, needs_page: bool) -> BoxFuture<'static, DriverError> {
        let _ = needs_page;
        Box::pin(std::future::pending())
    }

    /// After a call ran out of time or was cancelled: stop whatever kept
    /// the page busy so the next call finds it usable. Bounded by the
    /// backend. Returns whether the session is usable; if not, it is shut
    /// down and the next call starts a fresh one.
    async fn recover(&mut self) -> bool;

    /// Ends the session: every process it started ends and its temporary
    /// profile is deleted (a remote browser is only disconnected from).
    async fn shutdown(self);

    /// How often the session must hear from us to stay alive while no
    /// call comes (a remote end that ends idle sessions), if at all.
    fn keep_alive_every(&self) -> Option<Duration> {
        None
    }

    /// Tells the session we are still here (a cheap command). Only made
    /// while no call runs.
    async fn keep_alive(&mut self) {}

    /// What every call's result goes through before it is answered: where
    /// a backend learns more of an error than the protocol said (which
    /// dialog, which tab crashed). The default passes it on.
    async fn finish<T: Send + 'static>(&mut self, result: Result<T>) -> Result<T> {
        result
    }

    // --- the current tab's page ---

    /// Opens `url` in the current tab and waits for the load.
    async fn navigate(&mut self, url: &str) -> Result<Navigation>;

    /// Goes `delta` entries through the current tab's history (-1 back,
    /// +1 forward).
    async fn history(&mut self, delta: i32) -> Result<Navigation>;

    /// Reloads the current tab.
    async fn reload(&mut self) -> Result<Navigation>;

    /// Evaluates in the current tab's top frame, in the page's world.
    async fn eval(&mut self, expression: &str) -> Result<Value>;

    /// Evaluates in a frame (by `window.frames` path), in the page's world.
    async fn eval_in_frame(&mut self, frame: &[u32], expression: &str) -> Result<Value>;

    /// Evaluates in a frame, in tabwright's own world; a backend without
    /// one (its capabilities say so) runs it in the page's, as this
    /// default does.
    async fn eval_isolated(&mut self, frame: &[u32], expression: &str) -> Result<Value> {
        self.eval_in_frame(frame, expression).await
    }

    /// Clicks at a viewport point as `click` says.
    async fn click(&mut self, x: f64, y: f64, click: Click) -> Result<()>;

    /// Moves the mouse to a viewport point.
    async fn move_mouse(&mut self, x: f64, y: f64) -> Result<()>;

    /// Turns the wheel over a viewport point.
    async fn wheel(&mut self, x: f64, y: f64, dx: f64, dy: f64) -> Result<()>;

    /// Types `text` as key events into whatever has focus.
    async fn type_text(&mut self, text: &str) -> Result<()>;

    /// Presses one key with modifiers.
    async fn press(&mut self, key: KeyPress) -> Result<()>;

    /// A screenshot of the viewport or the whole page.
    async fn screenshot(&mut self, options: ScreenshotOptions) -> Result<Vec<u8>>;

    /// The current tab's viewport, in CSS pixels. The default asks the
    /// page.
    async fn viewport(&mut self) -> Result<Viewport> {
        let size = self
            .eval("({width: innerWidth, height: innerHeight})")
            .await?;
        super::locate::viewport_of(&size["width"], &size["height"])
    }

    /// Resizes the viewport of every tab.
    async fn set_viewport(&mut self, viewport: Viewport) -> Result<()>;

    /// Fetches and XHRs of the current tab in flight, if the backend sees
    /// them (its capabilities say so).
    async fn requests_in_flight(&mut self) -> Result<Option<usize>> {
        Ok(None)
    }

    /// One DevTools command to the current tab (only called when the
    /// capabilities list [`Capability::DevTools`](crate::Capability::DevTools),
    /// or the command is one of [`DEVTOOLS_IN_OWN_WORDS`](Self::DEVTOOLS_IN_OWN_WORDS)).
    async fn devtools(&mut self, method: &str, params: Value) -> Result<Value>;

    /// The DevTools commands a backend without DevTools answers all the
    /// same, in its own protocol's words (the tool pack's groups send a
    /// few).
    const DEVTOOLS_IN_OWN_WORDS: &'static [&'static str] = &[];

    /// Pictures the paint of the current tab as `probe` asks (only called
    /// when the capabilities list
    /// [`Capability::PaintProbe`](crate::Capability::PaintProbe)). The
    /// default: unsupported.
    async fn paint_probe(&mut self, probe: &crate::PaintProbe) -> Result<crate::PaintPictures> {
        let _ = probe;
        Err(DriverError::Unsupported {
            backend: Self::capabilities(&Options::default(), None).backend,
            feature: crate::Capability::PaintProbe,
            reason: "this backend takes no pictures of the page's paint",
        })
    }

    /// Hands over what `handover` asks in the current tab (only called when
    /// the capabilities list
    /// [`Capability::BrowserTree`](crate::Capability::BrowserTree)). The
    /// default: unsupported.
    async fn hand_over(&mut self, handover: &crate::Handover) -> Result<Value> {
        let _ = handover;
        Err(DriverError::Unsupported {
            backend: Self::capabilities(&Options::default(), None).backend,
            feature: crate::Capability::BrowserTree,
            reason: "this backend reads no closed shadow roots and no accessibility tree",
        })
    }

    /// The current page's requests (only called when the capabilities list
    /// [`Capability::NetworkLog`](crate::Capability::NetworkLog)).
    async fn network_log(&mut self) -> Result<Vec<Request>>;

    // --- tabs ---

    /// The current tab's id.
    async fn current_tab(&mut self) -> Result<TabId>;

    /// The open tabs, oldest first, the current one flagged.
    async fn tabs(&mut self) -> Result<Vec<Tab>>;

    /// The ids of the open tabs, oldest first. The default lists them.
    async fn tab_ids(&mut self) -> Result<Vec<TabId>> {
        Ok(self.tabs().await?.into_iter().map(|tab| tab.id).collect())
    }

    /// Opens a blank tab and makes it current.
    async fn open_tab(&mut self) -> Result<TabId>;

    /// Makes another tab current.
    async fn switch_tab(&mut self, id: &TabId) -> Result<()>;

    /// Closes a tab (see the contract for which becomes current).
    async fn close_tab(&mut self, id: &TabId) -> Result<()>;

    // --- what the browser reports ---

    /// Console entries since the last call (drained).
    async fn console(&mut self) -> Result<Vec<ConsoleEntry>>;

    /// Downloads since the last call (only called when the capabilities
    /// list [`Capability::DownloadReports`](crate::Capability::DownloadReports)).
    async fn downloads(&mut self) -> Result<Vec<Download>>;

    /// The dialog open in the current tab, if any.
    async fn dialog(&mut self) -> Result<Option<Dialog>>;

    /// Accepts or dismisses the current tab's dialog.
    async fn answer_dialog(&mut self, accept: bool, prompt_text: Option<&str>) -> Result<()>;

    /// Catches the current page's file choosers (or lets them open again).
    /// The default: unsupported, as a backend that hears no DevTools events.
    async fn catch_file_choosers(&mut self, on: bool) -> Result<()> {
        let _ = on;
        Err(DriverError::Unsupported {
            backend: Self::capabilities(&Options::default(), None).backend,
            feature: crate::Capability::DevTools,
            reason: "this backend hears no DevTools events",
        })
    }

    /// The file chooser caught in the current tab, taken. The default:
    /// none.
    async fn take_file_chooser(&mut self) -> Result<Option<FileChooser>> {
        Ok(None)
    }

    /// The session's share of its browser's memory, if it can be read.
    async fn memory(&mut self) -> Result<Option<Memory>> {
        Ok(None)
    }
}
