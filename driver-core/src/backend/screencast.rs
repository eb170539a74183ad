//! The screencast behind a live view, as both backends run it over the
//! DevTools layer (the CDP backend's connection, the WebDriver backend's
//! relay): on the current tab only, only while someone looks, its frames
//! paced.
//!
//! A screencast makes Chrome draw every frame of an animated page, about
//! 40 % of a core looked at or not, so it runs only while
//! [`Options::frames_wanted`](crate::Options::frames_wanted) says someone
//! looks ([`follow_looks`]). Chrome sends the next frame only once the last
//! is acknowledged and keeps a few in flight, so it is the
//! acknowledgements that are paced ([`ack_at`]): five frames a second per
//! tab, plenty for a view that polls about once a second (faster cost more
//! than a core: `cargo xtask bench --only watching`).
//!
//! A screenshot of the viewport is one frame of a screencast where no live
//! view runs one ([`one_frame`]): Chrome's capture waits for a forced
//! redraw to be shown before it copies, a screencast's first frame does not.

use crate::backend::devtools::names;
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Weak};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::backend::devtools::DevToolsSocket;
use crate::backend::supervisor::BoxFuture;
use crate::{FrameCallback, FramesWanted, ScreencastFrame};

/// How often a screencast asks whether anyone looks.
pub const LOOK_CHECK: Duration = Duration::from_millis(500);

/// The least time between two frames of a tab.
pub const GAP: Duration = Duration::from_millis(200);

/// The JPEG quality of a frame: good enough to read a page by.
pub const QUALITY: i64 = 70;

/// `Page.startScreencast`'s parameters: every frame that changed (the
/// acknowledgements pace them), as a JPEG of [`QUALITY`].
pub fn start_params() -> Value {
    json!({ "format": "jpeg", "quality": QUALITY, "everyNthFrame": 1 })
}

/// Where a session's screencast stands.
#[derive(Debug, Default)]
pub struct Cast {
    /// The current tab's DevTools session.
    pub tab: Option<String>,
    /// Whether the screencast runs.
    pub on: bool,
}

/// The page script a one-frame screencast waits on before it starts
/// ([`one_frame`]): a frame begun and its paint handed on (the task after
/// an animation frame), so what the page changed before the call is in the
/// next frame drawn. It gives the device pixel ratio, or 0 for a page that
/// draws no frame (hidden, or a frame held up for 200 ms).
pub const DRAWN: &str = "new Promise((done) => { \
    if (document.visibilityState !== 'visible') return done(0); \
    const late = setTimeout(() => done(0), 200); \
    requestAnimationFrame(() => setTimeout(() => { clearTimeout(late); done(devicePixelRatio); })); })";

/// How long a one-frame screencast may take, the page script included,
/// before the screenshot is taken the slow way.
pub const SHOT_PATIENCE: Duration = Duration::from_millis(400);

/// A screenshot of the viewport as the next frame the compositor draws: a
/// screencast of the tab's DevTools `session` on `socket` for one frame,
/// started once the page has answered [`DRAWN`] (`drawn`, evaluated in
/// tabwright's world).
///
/// As fresh as `Page.captureScreenshot`, which forces a redraw and waits
/// until it is shown before it copies the surface: three frames at 60 Hz
/// after a frame just drawn (50 ms), where this takes about one and a
/// half. The same pixels (`conformance::screenshots_are_fresh`). `None`,
/// to capture it instead, for what a frame does not give as the capture
/// would: WebP; a page drawn at a device pixel ratio other than 1 (frames
/// are in CSS pixels); a page that draws no frame, or runs no script (its
/// main thread busy: the capture may still picture it); a frame that does
/// not come within [`SHOT_PATIENCE`]. Not while a live view's screencast
/// runs on the same session: starting and stopping would take it over.
pub async fn one_frame(
    socket: &DevToolsSocket,
    session: &str,
    format: crate::ScreenshotFormat,
    drawn: impl std::future::Future<Output = crate::Result<Value>>,
) -> Option<Vec<u8>> {
    let params = match format {
        crate::ScreenshotFormat::Png => json!({ "format": "png" }),
        crate::ScreenshotFormat::Jpeg(quality) => {
            json!({ "format": "jpeg", "quality": quality.min(100) })
        }
        crate::ScreenshotFormat::Webp(_) => return None,
    };
    frame_after(socket, session, params, drawn, true).await
}

/// The first frame of a screencast of the tab's DevTools `session` on
/// `socket` (started with `params`), started once the page has answered
/// [`DRAWN`] (`drawn`, evaluated in tabwright's world), decoded from its
/// base64. `one_ratio`: only for a page drawn at a device pixel ratio of 1
/// (a frame is in CSS pixels, a screenshot in the device's). `None` for a
/// page that draws no frame, or a frame that does not come within
/// [`SHOT_PATIENCE`]. See [`one_frame`].
pub async fn frame_after(
    socket: &DevToolsSocket,
    session: &str,
    params: Value,
    drawn: impl std::future::Future<Output = crate::Result<Value>>,
    one_ratio: bool,
) -> Option<Vec<u8>> {
    use base64::Engine;
    let deadline = tokio::time::Instant::now() + SHOT_PATIENCE;
    let ratio = tokio::time::timeout_at(deadline, drawn).await.ok()?.ok()?;
    let ratio = ratio.as_f64().unwrap_or_default();
    if ratio <= 0.0 || (one_ratio && ratio != 1.0) {
        return None;
    }
    let mut events = socket.events();
    socket
        .call(Some(session), names::PAGE_START_SCREENCAST, params)
        .await
        .ok()?;
    let frame = tokio::time::timeout_at(deadline, async {
        while let Some(event) = events.recv().await {
            if event.session.as_deref() == Some(session)
                && event.method == names::PAGE_SCREENCAST_FRAME
            {
                return Some(event);
            }
        }
        None
    })
    .await
    .ok()
    .flatten();
    // Stopped unacknowledged: no later frame is sent.
    let _ = socket
        .call(Some(session), names::PAGE_STOP_SCREENCAST, json!({}))
        .await;
    base64::engine::general_purpose::STANDARD
        .decode(frame?.params["data"].as_str()?)
        .ok()
}

/// A session's screencast, shared with the task that follows the looks.
pub type SharedCast = Arc<parking_lot::Mutex<Cast>>;

/// Starts or stops the screencast of a tab's DevTools session (`None`:
/// no tab yet, nothing to do).
pub type Toggle = Arc<dyn Fn(Option<String>, bool) -> BoxFuture<'static, ()> + Send + Sync>;

/// Runs the screencast while `wanted` says someone looks (always, without
/// it) and stops it otherwise, until the session's `cast` is dropped.
pub async fn follow_looks(
    cast: Weak<parking_lot::Mutex<Cast>>,
    wanted: Option<FramesWanted>,
    toggle: Toggle,
) {
    loop {
        let Some(cast) = cast.upgrade() else {
            return;
        };
        let want = wanted.as_ref().is_none_or(|wanted| wanted());
        let change = {
            let mut cast = cast.lock();
            (cast.on != want).then(|| {
                cast.on = want;
                cast.tab.clone()
            })
        };
        drop(cast);
        if let Some(tab) = change {
            toggle(tab, want).await;
        }
        tokio::time::sleep(LOOK_CHECK).await;
    }
}

/// Makes `tab` the one the screencast shows, moving it there if it runs.
pub async fn move_to(cast: &SharedCast, tab: Option<String>, toggle: &Toggle) {
    let (old, on) = {
        let mut cast = cast.lock();
        (std::mem::replace(&mut cast.tab, tab.clone()), cast.on)
    };
    if on && old != tab {
        toggle(old, false).await;
        toggle(tab, true).await;
    }
}

/// The frame a `Page.screencastFrame` event carries, if it is whole.
pub fn frame(params: &Value) -> Option<ScreencastFrame> {
    use base64::Engine;
    let jpeg = base64::engine::general_purpose::STANDARD
        .decode(params["data"].as_str()?)
        .ok()?;
    let metadata = &params["metadata"];
    Some(ScreencastFrame {
        jpeg,
        width: metadata["deviceWidth"].as_f64().unwrap_or_default() as u32,
        height: metadata["deviceHeight"].as_f64().unwrap_or_default() as u32,
    })
}

/// When the frame a tab's DevTools `session` just sent may be acknowledged:
/// [`GAP`] after the last acknowledgement planned for it.
pub fn ack_at(session: &str) -> Instant {
    static NEXT: LazyLock<parking_lot::Mutex<HashMap<String, Instant>>> =
        LazyLock::new(Default::default);
    let now = Instant::now();
    let mut next = NEXT.lock();
    next.retain(|_, at| now.saturating_duration_since(*at) < Duration::from_secs(10));
    let at = next.get(session).map_or(now, |at| (*at).max(now)) + GAP;
    next.insert(session.to_owned(), at);
    at
}

/// `Page.screencastFrameAck`'s parameters for a frame event.
pub fn ack_params(params: &Value) -> Value {
    json!({ "sessionId": params["sessionId"].clone() })
}

/// The switch of the screencasts of tabs' sessions on `socket`.
pub fn toggle(socket: &DevToolsSocket) -> Toggle {
    let socket = socket.clone();
    Arc::new(move |tab: Option<String>, on: bool| {
        let socket = socket.clone();
        Box::pin(async move {
            let Some(tab) = tab else { return };
            let (method, params) = if on {
                (names::PAGE_START_SCREENCAST, start_params())
            } else {
                (names::PAGE_STOP_SCREENCAST, json!({}))
            };
            let _ = socket.send(Some(&tab), method, params).await;
        })
    })
}

/// A `Page.screencastFrame` event of a tab's `session`: its frame handed
/// to `callback`, then acknowledged, paced ([`ack_at`]).
pub fn on_frame(socket: &DevToolsSocket, session: &str, params: &Value, callback: &FrameCallback) {
    if let Some(frame) = frame(params) {
        callback(frame);
    }
    let at = ack_at(session);
    let ack = ack_params(params);
    let (socket, session) = (socket.clone(), session.to_owned());
    tokio::spawn(async move {
        tokio::time::sleep_until(at.into()).await;
        let _ = socket
            .send(Some(&session), names::PAGE_SCREENCAST_FRAME_ACK, ack)
            .await;
    });
}
