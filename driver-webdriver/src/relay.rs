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
//!   frame, cross-site ones included (a frame in a process of its own is
//!   attached as a target of its own). A world is known by its context's
//!   unique id, which no other document's context can share (context ids
//!   restart in each renderer);
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
//! chromedriver keeps its own DevTools connection; this one only adds.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};

use driver_core::backend::devtools::{self, DevToolsSocket, Event, WORLD_NAME};
use driver_core::backend::screencast::{self, SharedCast, Toggle};
use driver_core::{Dialog, Download, DownloadOutcome, DriverError, Options, Result};

/// The most refused downloads kept for the next report (a page can start
/// thousands; the report says what the first were).
const KEPT_DOWNLOADS: usize = 1_000;

/// What the relay knows from the browser's events.
#[derive(Default)]
struct State {
    /// Each tab's flat session, by target id (chromedriver's window handle).
    tabs: HashMap<String, String>,
    /// The flat session of each frame that runs in a process of its own.
    frames: HashMap<String, String>,
    /// tabwright's world in each (session, frame): its context's unique id.
    worlds: HashMap<(String, String), String>,
    /// The dialog open in a tab's session.
    dialogs: HashMap<String, Dialog>,
    /// Tabs' sessions whose renderer crashed.
    crashed: std::collections::HashSet<String>,
    /// Downloads refused since the last report.
    downloads: Vec<Download>,
    /// The file chooser caught in a tab's session and not yet taken.
    choosers: HashMap<String, driver_core::FileChooser>,
}

type Shared = Arc<parking_lot::Mutex<State>>;

/// A session's DevTools connection beside WebDriver. See the module docs.
pub(crate) struct Relay {
    socket: DevToolsSocket,
    state: Shared,
    /// Bumped when a dialog opens or a tab crashes, for calls that wait on
    /// the page.
    stops: tokio::sync::watch::Sender<u64>,
    cast: Option<SharedCast>,
}

impl Relay {
    /// Connects to the socket at `url`.
    pub(crate) async fn connect(
        url: &str,
        on_frame: Option<driver_core::FrameCallback>,
    ) -> std::result::Result<Self, String> {
        let socket = DevToolsSocket::connect(url).await?;
        let state = Shared::default();
        let stops = tokio::sync::watch::Sender::new(0);
        socket.listen(Arc::new({
            let state = Arc::clone(&state);
            let stops = stops.clone();
            move |socket, event| on_event(socket, &state, &stops, on_frame.as_ref(), event)
        }));
        Ok(Self {
            socket,
            state,
            stops,
            cast: None,
        })
    }

    /// Connects to the socket at `url` for a session: download events on
    /// (downloads stay refused, as the profile's preference has it), and
    /// with a live view (`Options::on_frame`) the screencast.
    pub(crate) async fn serve(url: &str, options: &Options) -> std::result::Result<Self, String> {
        let mut relay = Self::connect(url, options.on_frame.clone()).await?;
        relay
            .socket
            .call(
                None,
                "Browser.setDownloadBehavior",
                json!({ "behavior": "deny", "eventsEnabled": true }),
            )
            .await?;
        if options.on_frame.is_some() {
            let cast = SharedCast::default();
            tokio::spawn(screencast::follow_looks(
                Arc::downgrade(&cast),
                options.frames_wanted.clone(),
                toggle(&relay.socket),
            ));
            relay.cast = Some(cast);
        }
        Ok(relay)
    }

    /// The flat session of the tab `target`, attached now if it is not
    /// yet: its page, runtime and crash events on (their answers not waited for:
    /// a page that spins answers late, and what is sent after them waits
    /// its turn anyway).
    async fn tab(&self, target: &str) -> Result<String> {
        if let Some(session) = self.state.lock().tabs.get(target) {
            return Ok(session.clone());
        }
        let session = self.attach(target).await?;
        self.state
            .lock()
            .tabs
            .insert(target.to_owned(), session.clone());
        for domain in ["Page.enable", "Inspector.enable"] {
            let _ = self.socket.send(Some(&session), domain, json!({})).await;
        }
        Ok(session)
    }

    /// Attaches to a target (a tab, or a frame in a process of its own)
    /// with its runtime events on.
    async fn attach(&self, target: &str) -> Result<String> {
        let attached = self
            .socket
            .call(
                None,
                "Target.attachToTarget",
                json!({ "targetId": target, "flatten": true }),
            )
            .await
            .map_err(gone)?;
        let session = attached["sessionId"]
            .as_str()
            .ok_or_else(|| {
                DriverError::Protocol(format!("Target.attachToTarget answered {attached}"))
            })?
            .to_owned();
        let _ = self
            .socket
            .send(Some(&session), "Runtime.enable", json!({}))
            .await;
        Ok(session)
    }

    /// The tab `target` is current now: attached, and pictured if a
    /// screencast runs.
    pub(crate) async fn current(&self, target: &str) {
        let session = self.tab(target).await.ok();
        if let Some(cast) = &self.cast {
            screencast::move_to(cast, session, &toggle(&self.socket)).await;
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
        let work = async {
            let (session, world) = self.frame_world(&tab, target, path).await?;
            self.evaluate(&session, &world, expression, true).await
        };
        let mut stops = self.stops.subscribe();
        let stopped = async {
            loop {
                if let Some(stop) = self.stop_in(&tab) {
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
            answer = work => answer,
        }
    }

    /// What keeps the tab whose session is `tab` from answering, if
    /// anything: its renderer crashed, or a dialog is open.
    fn stop_in(&self, tab: &str) -> Option<DriverError> {
        let state = self.state.lock();
        if state.crashed.contains(tab) {
            // The session says which tab (`WdSession::after_crash`).
            return Some(DriverError::TabCrashed { id: String::new() });
        }
        state
            .dialogs
            .get(tab)
            .map(|dialog| DriverError::DialogOpen {
                kind: dialog.kind,
                message: dialog.message.clone(),
            })
    }

    /// The session and tabwright's world of the frame at `path` in the tab
    /// whose session is `tab`: each step finds the iframe element in the
    /// frame so far (asked in tabwright's world, which the page cannot
    /// fool) and the frame it holds.
    async fn frame_world(&self, tab: &str, target: &str, path: &[u32]) -> Result<(String, String)> {
        let (mut session, mut frame) = (tab.to_owned(), target.to_owned());
        for index in path {
            let (here, world) = self.world(&session, &frame, path).await?;
            session = here;
            let expression = devtools::frame_element(*index);
            let found = self
                .evaluate_raw(&session, &world, &expression, false)
                .await?;
            let Some(object) = found["result"]["objectId"].as_str() else {
                return Err(unreachable(path, "the frame is gone"));
            };
            let node = self
                .socket
                .call(
                    Some(&session),
                    "DOM.describeNode",
                    json!({ "objectId": object }),
                )
                .await;
            let _ = self
                .socket
                .send(
                    Some(&session),
                    "Runtime.releaseObject",
                    json!({ "objectId": object }),
                )
                .await;
            let node = node.map_err(|error| unreachable(path, &error))?;
            let Some(child) = node["node"]["frameId"].as_str() else {
                return Err(unreachable(path, "the frame has no document"));
            };
            frame = child.to_owned();
        }
        self.world(&session, &frame, path).await
    }

    /// tabwright's world in `frame`, made now if its document has none:
    /// in `session`, or, for a frame that runs in a process of its own, in
    /// that frame's session (attached now if need be). Returns the session
    /// and the world's unique context id.
    async fn world(&self, session: &str, frame: &str, path: &[u32]) -> Result<(String, String)> {
        let own = self.state.lock().frames.get(frame).cloned();
        let session = own.unwrap_or_else(|| session.to_owned());
        if let Some(world) = self.known_world(&session, frame) {
            return Ok((session, world));
        }
        let create =
            json!({ "frameId": frame, "worldName": WORLD_NAME, "grantUniveralAccess": false });
        let created = match self
            .socket
            .call(Some(&session), "Page.createIsolatedWorld", create.clone())
            .await
        {
            // A cross-site frame's document lives in its own process,
            // reached as a target of its own (its id is the frame's).
            Err(error) if error.contains("No frame for given id") => {
                let own = self
                    .attach(frame)
                    .await
                    .map_err(|error| unreachable(path, &error.to_string()))?;
                self.state
                    .lock()
                    .frames
                    .insert(frame.to_owned(), own.clone());
                let created = self
                    .socket
                    .call(Some(&own), "Page.createIsolatedWorld", create)
                    .await
                    .map_err(|error| unreachable(path, &error))?;
                return self.made(&own, frame, &created, path);
            }
            other => other.map_err(|error| unreachable(path, &error))?,
        };
        self.made(&session, frame, &created, path)
    }

    /// The world just made in `frame`: its context's unique id, which the
    /// context's creation event (sent before the answer) told.
    fn made(
        &self,
        session: &str,
        frame: &str,
        created: &Value,
        path: &[u32],
    ) -> Result<(String, String)> {
        match self.known_world(session, frame) {
            Some(world) => Ok((session.to_owned(), world)),
            None => Err(unreachable(
                path,
                &format!("its world was made ({created}) but never announced"),
            )),
        }
    }

    fn known_world(&self, session: &str, frame: &str) -> Option<String> {
        self.state
            .lock()
            .worlds
            .get(&(session.to_owned(), frame.to_owned()))
            .cloned()
    }

    /// `Runtime.evaluate` in a world, its answer as it came.
    async fn evaluate_raw(
        &self,
        session: &str,
        world: &str,
        expression: &str,
        by_value: bool,
    ) -> Result<Value> {
        let params = json!({
            "expression": expression,
            "uniqueContextId": world,
            "returnByValue": by_value,
            "awaitPromise": by_value,
            "userGesture": true,
        });
        self.socket
            .call(Some(session), "Runtime.evaluate", params)
            .await
            .map_err(|error| {
                if devtools::document_gone(&error) {
                    DriverError::DocumentReplaced
                } else {
                    gone(error)
                }
            })
    }

    async fn evaluate(
        &self,
        session: &str,
        world: &str,
        expression: &str,
        by_value: bool,
    ) -> Result<Value> {
        let answer = self
            .evaluate_raw(session, world, expression, by_value)
            .await?;
        devtools::evaluated(&answer)
    }

    /// The downloads refused since the last call (drained).
    pub(crate) fn downloads(&self) -> Vec<Download> {
        std::mem::take(&mut self.state.lock().downloads)
    }

    /// Catches the file choosers of the tab `target` (or lets them open
    /// again), on the relay's own session: the page sees nothing.
    pub(crate) async fn catch_choosers(&self, target: &str, on: bool) -> Result<()> {
        let session = self.tab(target).await?;
        self.state.lock().choosers.remove(&session);
        self.socket
            .call(
                Some(&session),
                "Page.setInterceptFileChooserDialog",
                json!({ "enabled": on }),
            )
            .await
            .map_err(gone)?;
        Ok(())
    }

    /// Takes the file chooser caught in the tab `target`, waiting at most
    /// `patience` for one.
    pub(crate) async fn take_chooser(
        &self,
        target: &str,
        patience: Duration,
    ) -> Result<Option<driver_core::FileChooser>> {
        let session = self.tab(target).await?;
        let until = tokio::time::Instant::now() + patience;
        loop {
            if let Some(chooser) = self.state.lock().choosers.remove(&session) {
                return Ok(Some(chooser));
            }
            if tokio::time::Instant::now() >= until {
                return Ok(None);
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// The dialog open in the tab `target`, as the browser told it (with
    /// its kind, which WebDriver does not say), if the relay saw it open.
    pub(crate) fn dialog(&self, target: &str) -> Option<Dialog> {
        let state = self.state.lock();
        let session = state.tabs.get(target)?;
        state.dialogs.get(session).cloned()
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
        if close {
            // A browser left with no tab has no window WebDriver can switch
            // to or open one from: a blank tab takes the stuck one's place.
            if replace {
                self.socket
                    .call(None, "Target.createTarget", json!({ "url": "about:blank" }))
                    .await?;
            }
            self.socket
                .call(None, "Target.closeTarget", json!({ "targetId": target }))
                .await?;
            self.state.lock().tabs.remove(target);
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
            .send(Some(&session), "Runtime.terminateExecution", json!({}))
            .await?;
        let stopped = self
            .socket
            .call(Some(&session), "Page.stopLoading", json!({}));
        let _ = tokio::time::timeout(Duration::from_millis(200), stopped).await;
        let last = self
            .socket
            .call(Some(&session), "Runtime.terminateExecution", json!({}));
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

/// The screencast's switch for a tab's flat session on this socket.
fn toggle(socket: &DevToolsSocket) -> Toggle {
    let socket = socket.clone();
    Arc::new(move |tab: Option<String>, on: bool| {
        let socket = socket.clone();
        Box::pin(async move {
            let Some(tab) = tab else { return };
            let (method, params) = if on {
                ("Page.startScreencast", screencast::start_params())
            } else {
                ("Page.stopScreencast", json!({}))
            };
            let _ = socket.send(Some(&tab), method, params).await;
        })
    })
}

/// What the browser tells: worlds made and gone, dialogs, crashes, screencast
/// frames, downloads, sessions that ended.
fn on_event(
    socket: &DevToolsSocket,
    state: &Shared,
    stops: &tokio::sync::watch::Sender<u64>,
    on_frame: Option<&driver_core::FrameCallback>,
    event: &Event,
) {
    let params = &event.params;
    let session = event.session.clone().unwrap_or_default();
    match event.method.as_str() {
        "Runtime.executionContextCreated" => {
            let context = &params["context"];
            if context["name"] == WORLD_NAME {
                if let (Some(frame), Some(unique)) = (
                    context["auxData"]["frameId"].as_str(),
                    context["uniqueId"].as_str(),
                ) {
                    state
                        .lock()
                        .worlds
                        .insert((session, frame.to_owned()), unique.to_owned());
                }
            }
        }
        "Runtime.executionContextDestroyed" => {
            if let Some(unique) = params["executionContextUniqueId"].as_str() {
                state.lock().worlds.retain(|_, world| world != unique);
            }
        }
        "Runtime.executionContextsCleared" => {
            state.lock().worlds.retain(|(of, _), _| *of != session);
        }
        "Page.javascriptDialogOpening" => {
            state
                .lock()
                .dialogs
                .insert(session, devtools::dialog_of(params));
            stops.send_modify(|stopped| *stopped += 1);
        }
        "Inspector.targetCrashed" => {
            tracing::info!(%session, "a tab's renderer crashed");
            state.lock().crashed.insert(session);
            stops.send_modify(|stopped| *stopped += 1);
        }
        "Page.javascriptDialogClosed" => {
            state.lock().dialogs.remove(&session);
        }
        "Page.fileChooserOpened" => {
            if let Some(chooser) = driver_core::FileChooser::of_event(params) {
                state.lock().choosers.insert(session, chooser);
            }
        }
        "Page.screencastFrame" => {
            if let (Some(callback), Some(frame)) = (on_frame, screencast::frame(params)) {
                callback(frame);
            }
            // Acknowledged after the callback returns, and paced.
            let at = screencast::ack_at(&session);
            let ack = screencast::ack_params(params);
            let socket = socket.clone();
            tokio::spawn(async move {
                tokio::time::sleep_until(at.into()).await;
                let _ = socket
                    .send(Some(&session), "Page.screencastFrameAck", ack)
                    .await;
            });
        }
        "Browser.downloadWillBegin" => {
            let text = |key: &str| params[key].as_str().unwrap_or_default().to_owned();
            let download = Download {
                url: text("url"),
                filename: text("suggestedFilename"),
                outcome: DownloadOutcome::Refused,
            };
            tracing::info!(url = %download.url, file = %download.filename, "a download refused");
            let mut state = state.lock();
            if state.downloads.len() < KEPT_DOWNLOADS {
                state.downloads.push(download);
            }
            // Settling waits for no page from the click that started it.
            let frame = text("frameId");
            let told = state.tabs.get(&frame).and_then(|tab| {
                Some((
                    tab.clone(),
                    state.worlds.get(&(tab.clone(), frame.clone()))?.clone(),
                ))
            });
            if let Some((tab, world)) = told {
                socket.send_soon(
                    Some(&tab),
                    "Runtime.evaluate",
                    json!({
                        "expression": "globalThis[Symbol.for('tabwright.download')] = performance.now()",
                        "uniqueContextId": world,
                    }),
                );
            }
        }
        "Target.detachedFromTarget" => {
            if let Some(gone) = params["sessionId"].as_str() {
                let mut state = state.lock();
                state.tabs.retain(|_, tab| tab != gone);
                state.frames.retain(|_, frame| frame != gone);
                state.worlds.retain(|(of, _), _| of != gone);
                state.dialogs.remove(gone);
                state.crashed.remove(gone);
            }
        }
        _ => {}
    }
}

/// A failure of the socket itself is a lost browser; anything else a
/// protocol error.
fn gone(error: String) -> DriverError {
    if error.contains("socket closed") {
        DriverError::BrowserGone {
            reason: format!("the browser's DevTools socket closed ({error})"),
        }
    } else {
        DriverError::Protocol(error)
    }
}

fn unreachable(path: &[u32], reason: &str) -> DriverError {
    DriverError::FrameUnreachable {
        path: format!("{path:?}"),
        reason: reason.to_owned(),
    }
}
