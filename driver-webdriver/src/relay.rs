//! The browser's DevTools socket beside WebDriver: what WebDriver has no
//! word for, spoken to the same browser.
//!
//! chromedriver's Chrome announces its browser-level DevTools socket in the
//! profile (`DevToolsActivePort`), and a Selenium Grid relays one for each
//! session (the `se:cdp` capability, its host rewritten to the address the
//! Grid was reached at). One connection per session (a Grid node allows
//! only a few), with a flat DevTools session per tab, gives this backend
//! what the CDP backend has:
//!
//! - **tabwright's own script world** ([`Relay::eval_isolated`]): the pack's
//!   scripts run where the page can neither see nor change them, in every
//!   frame, cross-site ones included, found as the CDP backend finds them
//!   (driver-core's `devtools::frames`, over the same record of targets);
//! - **the screencast** for a live view (`Options::on_frame`), on the
//!   current tab, only while someone looks (`driver_core::backend::screencast`);
//! - **download reports**: downloads are refused with their events on, and
//!   each refusal is reported (and told to the tab's settling, which then
//!   waits for no new page);
//! - **stopping a page that spins** (`Runtime.terminateExecution`, handled
//!   off the renderer's busy thread), or closing its tab; closing a tab
//!   whose renderer crashed, which chromedriver refuses;
//! - **what ends a call at once**: a dialog opening (its kind, too, which
//!   WebDriver does not tell) or the tab's renderer crashing, either of
//!   which an evaluation would otherwise wait on to the call's timeout.
//!
//! chromedriver keeps its own DevTools connection; this one only adds. The
//! connection, the record of tabs, frames, worlds, dialogs and crashes,
//! and the way a frame and its world are found are driver-core's DevTools
//! layer, shared with the CDP backend; what is here is what only WebDriver
//! needs of them.

use driver_core::backend::devtools::names;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};

use driver_core::backend::devtools::{
    self, frames, pages_go, waits, CallError, DevToolsSocket, Event, Targets, TargetsLock, World,
};
use driver_core::backend::screencast::{self, SharedCast};
use driver_core::{Dialog, Download, DownloadOutcome, DriverError, Options, Result};

/// The most refused downloads kept for the next report (a page can start
/// thousands; the report says what the first were).
const KEPT_DOWNLOADS: usize = 1_000;

/// What the relay knows from the browser's events.
#[derive(Default)]
struct State {
    /// Tabs, frames, worlds, dialogs and crashes, as the shared layer keeps
    /// them.
    targets: Targets,
    /// Downloads refused since the last report.
    downloads: Vec<Download>,
}

/// The relay's state, shared with its socket's listener, and the signal
/// of every change to its record of targets (for the shared waits).
#[derive(Clone)]
struct Shared(
    Arc<parking_lot::Mutex<State>>,
    tokio::sync::watch::Sender<u64>,
);

impl Default for Shared {
    fn default() -> Self {
        Self(Arc::default(), tokio::sync::watch::Sender::new(0))
    }
}

impl Shared {
    fn lock(&self) -> parking_lot::MutexGuard<'_, State> {
        self.0.lock()
    }
}

impl TargetsLock for Shared {
    fn with_targets<T>(&self, f: impl FnOnce(&mut Targets) -> T) -> T {
        let out = f(&mut self.lock().targets);
        self.1.send_modify(|version| *version += 1);
        out
    }

    fn read_targets<T>(&self, f: impl FnOnce(&Targets) -> T) -> T {
        f(&self.lock().targets)
    }

    fn changes(&self) -> tokio::sync::watch::Receiver<u64> {
        self.1.subscribe()
    }
}

/// A session's DevTools connection beside WebDriver. See the module docs.
pub(crate) struct Relay {
    socket: DevToolsSocket,
    state: Shared,
    /// Bumped when a dialog opens or a tab crashes, for calls that wait on
    /// the page.
    stops: tokio::sync::watch::Sender<u64>,
    cast: Option<SharedCast>,
    /// The scripts for tabwright's world of each tab's documents
    /// (`Options::preloads`), given to a tab when it is attached.
    preloads: driver_core::Preloads,
}

impl Relay {
    /// Connects to the socket at `url`.
    pub(crate) async fn connect(
        url: &str,
        on_frame: Option<driver_core::FrameCallback>,
        pages_go: Option<driver_core::PagesGo>,
    ) -> std::result::Result<Self, String> {
        let socket = DevToolsSocket::connect(url).await?;
        let state = Shared::default();
        let stops = tokio::sync::watch::Sender::new(0);
        let hears = Hears { on_frame, pages_go };
        socket.listen(Arc::new({
            let state = state.clone();
            let stops = stops.clone();
            move |socket, event| on_event(socket, &state, &stops, &hears, event)
        }));
        Ok(Self {
            socket,
            state,
            stops,
            cast: None,
            preloads: driver_core::Preloads::default(),
        })
    }

    /// Connects to the socket at `url` for a session: download events on
    /// (downloads stay refused, as the profile's preference has it), and
    /// with a live view (`Options::on_frame`) the screencast.
    pub(crate) async fn serve(url: &str, options: &Options) -> std::result::Result<Self, String> {
        let mut relay =
            Self::connect(url, options.on_frame.clone(), options.pages_go.clone()).await?;
        relay.preloads = options.preloads.clone();
        // The browser is the session's alone: its every tab's top-level
        // documents are judged.
        if options.pages_go.is_some() {
            pages_go::hold(&relay.socket)
                .await
                .map_err(|error| error.to_string())?;
        }
        relay
            .socket
            .call(
                None,
                names::BROWSER_SET_DOWNLOAD_BEHAVIOR,
                json!({ "behavior": "deny", "eventsEnabled": true }),
            )
            .await
            .map_err(|error| error.to_string())?;
        if options.on_frame.is_some() {
            let cast = SharedCast::default();
            tokio::spawn(screencast::follow_looks(
                Arc::downgrade(&cast),
                options.frames_wanted.clone(),
                screencast::toggle(&relay.socket),
            ));
            relay.cast = Some(cast);
        }
        Ok(relay)
    }

    /// The flat session of the tab `target`, attached now if it is not
    /// yet: its page, runtime and crash events on (their answers not waited
    /// for: a page that spins answers late, and what is sent after them
    /// waits its turn anyway).
    async fn tab(&self, target: &str) -> Result<String> {
        let known = self
            .state
            .with_targets(|targets| targets.tab_session(target).map(str::to_owned));
        if let Some(session) = known {
            return Ok(session);
        }
        let session = frames::attach(&self.socket, target).await?;
        self.state
            .with_targets(|targets| targets.tab_attached(target, &session));
        for domain in [names::PAGE_ENABLE, names::INSPECTOR_ENABLE] {
            let _ = self.socket.send(Some(&session), domain, json!({})).await;
        }
        // Its documents from the next on get tabwright's world made at
        // their start, with the scripts kept for it: in place before this
        // answers, so a navigation sent next (on chromedriver's own
        // connection) finds it.
        if !self.preloads.is_empty() {
            let script =
                json!({ "source": self.preloads.source(), "worldName": devtools::WORLD_NAME });
            let _ = self
                .socket
                .call(
                    Some(&session),
                    names::PAGE_ADD_SCRIPT_TO_EVALUATE_ON_NEW_DOCUMENT,
                    script,
                )
                .await;
        }
        Ok(session)
    }

    /// The tab `target` is current now: attached, and pictured if a
    /// screencast runs.
    pub(crate) async fn current(&self, target: &str) {
        let session = self.tab(target).await.ok();
        if let Some(cast) = &self.cast {
            screencast::move_to(cast, session, &screencast::toggle(&self.socket)).await;
        }
    }

    /// Evaluates `expression` in tabwright's world of the frame at `path`
    /// (`window.frames` indices from the top) of the tab `target`, with
    /// promises awaited; a dialog opening in the tab, or its renderer
    /// crashing (which the evaluation would wait on for ever), ends it.
    pub(crate) async fn eval_isolated(
        &self,
        target: &str,
        path: &[u32],
        expression: &str,
    ) -> Result<Value> {
        let tab = self.tab(target).await?;
        let work = frames::evaluate_in(
            &self.socket,
            &self.state,
            (&tab, target),
            path,
            World::Isolated,
            expression,
        );
        self.unless_stopped(&tab, work).await
    }

    /// `work` on the tab whose session is `tab`, ended at once by a dialog
    /// opening in it or its renderer crashing, which a script would wait on
    /// for ever.
    async fn unless_stopped<T>(
        &self,
        tab: &str,
        work: impl std::future::Future<Output = Result<T>>,
    ) -> Result<T> {
        let mut stops = self.stops.subscribe();
        let stopped = async {
            loop {
                if let Some(stop) = self.stop_in(tab) {
                    return stop;
                }
                if stops.changed().await.is_err() {
                    return std::future::pending().await;
                }
            }
        };
        tokio::select! {
            biased;
            stop = stopped => Err(stop),
            answer = work => answer.map_err(|error| match error {
                DriverError::BrowserGone { reason } => gone(CallError::Gone { reason }),
                other => other,
            }),
        }
    }

    /// The viewport of the tab `target` as one screencast frame
    /// (`screencast::one_frame`); `None` to take it another way, always
    /// with a live view, whose screencast this would take over.
    pub(crate) async fn one_frame(
        &self,
        target: &str,
        format: driver_core::ScreenshotFormat,
    ) -> Option<Vec<u8>> {
        if self.cast.is_some() {
            return None;
        }
        let tab = self.tab(target).await.ok()?;
        let drawn = self.eval_isolated(target, &[], screencast::DRAWN);
        screencast::one_frame(&self.socket, &tab, format, drawn).await
    }

    /// Pictures the paint of the tab `target` as `probe` asks
    /// (driver-core's `backend::paint`), by Chrome's capture while a live
    /// view holds the screencast; a dialog opening ends it, as it ends an
    /// evaluation.
    pub(crate) async fn paint_probe(
        &self,
        target: &str,
        probe: &driver_core::PaintProbe,
    ) -> Result<driver_core::PaintPictures> {
        let tab = self.tab(target).await?;
        let work = driver_core::backend::paint::probe(
            &self.socket,
            &self.state,
            (&tab, target),
            probe,
            self.cast.is_none(),
        );
        self.unless_stopped(&tab, work).await
    }

    /// Hands over what `handover` asks in the tab `target` (driver-core's
    /// `backend::tree`); a dialog opening ends it, as it ends an
    /// evaluation.
    pub(crate) async fn hand_over(
        &self,
        target: &str,
        handover: &driver_core::Handover,
    ) -> Result<serde_json::Value> {
        let tab = self.tab(target).await?;
        let work = driver_core::backend::tree::hand_over(
            &self.socket,
            &self.state,
            (&tab, target),
            handover,
        );
        self.unless_stopped(&tab, work).await
    }

    /// What keeps the tab whose session is `tab` from answering, if
    /// anything: its renderer crashed, or a dialog is open.
    fn stop_in(&self, tab: &str) -> Option<DriverError> {
        self.state.with_targets(|targets| {
            if targets.crashed(tab) {
                // The session says which tab (`WdSession::after_crash`).
                return Some(DriverError::TabCrashed { id: String::new() });
            }
            targets.dialog(tab).map(|dialog| DriverError::DialogOpen {
                kind: dialog.kind,
                message: dialog.message.clone(),
            })
        })
    }

    /// The downloads refused since the last call (drained).
    pub(crate) fn downloads(&self) -> Vec<Download> {
        std::mem::take(&mut self.state.lock().downloads)
    }

    /// Catches the file choosers of the tab `target` (or lets them open
    /// again), on the relay's own session: the page sees nothing.
    pub(crate) async fn catch_choosers(&self, target: &str, on: bool) -> Result<()> {
        let session = self.tab(target).await?;
        self.state
            .with_targets(|targets| targets.take_chooser(&session));
        self.socket
            .call(
                Some(&session),
                names::PAGE_SET_INTERCEPT_FILE_CHOOSER_DIALOG,
                json!({ "enabled": on }),
            )
            .await
            .map_err(gone)?;
        Ok(())
    }

    /// Takes the file chooser caught in the tab `target`, waiting at most
    /// `patience` for one (the shared wait).
    pub(crate) async fn take_chooser(
        &self,
        target: &str,
        patience: Duration,
    ) -> Result<Option<driver_core::FileChooser>> {
        // (Attached first, so that the record knows the tab's session.)
        self.tab(target).await?;
        Ok(waits::take_chooser(&self.state, target, patience).await)
    }

    /// The dialog open in the tab `target`, as the browser told it (with
    /// its kind, which WebDriver does not say), if the relay saw it open.
    pub(crate) fn dialog(&self, target: &str) -> Option<Dialog> {
        self.state.with_targets(|targets| {
            let session = targets.tab_session(target)?;
            targets.dialog(session).cloned()
        })
    }

    /// How many dialogs have opened in the tab `target`, as the socket
    /// heard them.
    pub(crate) fn dialogs_opened(&self, target: &str) -> u64 {
        waits::dialogs_opened(&self.state, target)
    }

    /// Waits (at most `patience`) until the socket has heard the `opened`th
    /// dialog of the tab `target` close (the shared wait).
    pub(crate) async fn dialog_closed(&self, target: &str, opened: u64, patience: Duration) {
        waits::dialog_closed(&self.state, target, opened, patience).await;
    }

    /// Stops whatever script runs in the tab `target` and whatever it is
    /// loading; with `close`, closes the tab instead (with `replace`, after
    /// opening a blank one).
    pub(crate) async fn stop(
        &self,
        target: &str,
        close: bool,
        replace: bool,
    ) -> std::result::Result<(), String> {
        let failed = |error: CallError| error.to_string();
        if close {
            // A browser left with no tab has no window WebDriver can switch
            // to or open one from: a blank tab takes the stuck one's place.
            if replace {
                self.socket
                    .call(
                        None,
                        names::TARGET_CREATE_TARGET,
                        json!({ "url": "about:blank" }),
                    )
                    .await
                    .map_err(failed)?;
            }
            self.socket
                .call(
                    None,
                    names::TARGET_CLOSE_TARGET,
                    json!({ "targetId": target }),
                )
                .await
                .map_err(failed)?;
            return Ok(());
        }
        let session = self.tab(target).await.map_err(|error| error.to_string())?;
        // The answers are not waited for on their own: a page whose script
        // spins may answer late or never (the caller checks that the tab
        // answers, and closes it if not). A load still under way may start
        // a script that spins after the first stop (a call cancelled
        // early), so the script is stopped again once the load is (or
        // after 200 ms, if the page is too busy to say).
        self.socket
            .send(
                Some(&session),
                names::RUNTIME_TERMINATE_EXECUTION,
                json!({}),
            )
            .await
            .map_err(failed)?;
        let stopped = self
            .socket
            .call(Some(&session), names::PAGE_STOP_LOADING, json!({}));
        let _ = tokio::time::timeout(Duration::from_millis(200), stopped).await;
        let last = self.socket.call(
            Some(&session),
            names::RUNTIME_TERMINATE_EXECUTION,
            json!({}),
        );
        let _ = tokio::time::timeout(Duration::from_secs(1), last).await;
        Ok(())
    }

    /// Whether the connection still stands.
    pub(crate) fn is_open(&self) -> bool {
        self.socket.is_open()
    }

    pub(crate) async fn close(&self) {
        self.socket.close().await;
    }
}

/// What a session's listener hands its events to: the live view, and
/// the judge of its tabs' top-level documents.
struct Hears {
    on_frame: Option<driver_core::FrameCallback>,
    pages_go: Option<driver_core::PagesGo>,
}

/// What the browser tells: the shared record first (tabs, frames, worlds,
/// dialogs, crashes), then what only this relay does with it: calls told
/// of a dialog or a crash, screencast frames, refused downloads, documents
/// held for judging.
fn on_event(
    socket: &DevToolsSocket,
    state: &Shared,
    stops: &tokio::sync::watch::Sender<u64>,
    hears: &Hears,
    event: &Event,
) {
    state.with_targets(|targets| targets.observe(event));
    let params = &event.params;
    let session = event.session.clone().unwrap_or_default();
    match event.method.as_str() {
        // A dialog's opening stops the calls in its tab; its closing wakes
        // an answer waiting for it (`dialog_closed`).
        names::PAGE_JAVASCRIPT_DIALOG_OPENING | names::PAGE_JAVASCRIPT_DIALOG_CLOSED => {
            stops.send_modify(|stopped| *stopped += 1)
        }
        names::INSPECTOR_TARGET_CRASHED => {
            tracing::info!(%session, "a tab's renderer crashed");
            stops.send_modify(|stopped| *stopped += 1);
        }
        names::FETCH_REQUEST_PAUSED => {
            let gate = hears.pages_go.clone();
            // (One tab's gate: a frame sent to is in it.)
            pages_go::judge(socket, params, move |_| gate);
        }
        names::PAGE_SCREENCAST_FRAME => {
            if let Some(callback) = &hears.on_frame {
                screencast::on_frame(socket, &session, params, callback);
            }
        }
        names::BROWSER_DOWNLOAD_WILL_BEGIN => {
            let text = |key: &str| params[key].as_str().unwrap_or_default().to_owned();
            let download = Download {
                url: text("url").into(),
                filename: text("suggestedFilename").into(),
                outcome: DownloadOutcome::Refused,
            };
            tracing::info!(url = ?download.url, file = ?download.filename, "a download refused");
            let frame = text("frameId");
            let told = {
                let mut state = state.lock();
                if state.downloads.len() < KEPT_DOWNLOADS {
                    state.downloads.push(download);
                }
                let tab = state.targets.tab_session(&frame).map(str::to_owned);
                tab.and_then(|tab| {
                    let world = state.targets.context(&tab, &frame, World::Isolated)?;
                    Some((tab, world.unique.clone()))
                })
            };
            if let Some((tab, world)) = told {
                devtools::tell_download(socket, &tab, &world);
            }
        }
        _ => {}
    }
}

/// A failure of the socket itself is a lost browser; anything else a
/// protocol error.
fn gone(error: CallError) -> DriverError {
    match error {
        CallError::Gone { reason } => DriverError::BrowserGone {
            reason: format!("the browser's DevTools socket closed ({reason})"),
        },
        other => other.into(),
    }
}
