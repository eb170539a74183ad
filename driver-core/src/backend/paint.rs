//! A [`PaintProbe`] over the DevTools layer, the same for both backends
//! (the CDP backend's connection, the WebDriver backend's relay).
//!
//! The sheet goes into each document named as DevTools' inspector style
//! sheet (`CSS.createStyleSheet`): it styles the document like any sheet,
//! but it is not in `document.styleSheets`, adds no element and fires no
//! mutation. Each step's scripts run in tabwright's world; then the page
//! is pictured as the next frame its compositor draws, as a viewport
//! screenshot is ([`screencast::frame_after`]: the page must first begin a
//! frame and hand its paint on, so what the scripts changed is in it), or
//! where a live view holds the tab's screencast, by Chrome's capture. A
//! tab another hides is brought to the front first (`to_front`). A step
//! that gets no picture (a page that draws no frame: its main thread
//! busy) ends the probe with an error; the `after` scripts run
//! whatever happened. A probe of a part of the page beyond the viewport
//! has its pictures made by [`Beyond`].

use serde_json::{json, Value};

use super::beyond::Beyond;
use super::devtools::{frames, names, DevToolsSocket, TargetsLock, World};
use super::screencast;
use crate::{
    marker_colour, DriverError, FrameScript, PaintPictures, PaintProbe, Result, MARKER_SIZE,
};

/// The viewport's size, the document's, and the boxes of the frames the
/// top document holds (a frame's page is no part of the document's
/// layer, and another site's is drawn apart: `Beyond` leaves them
/// unknown).
const PAGE_AND_FRAMES: &str = "((root) => [innerWidth, innerHeight, root ? root.scrollWidth : 0, \
     root ? root.scrollHeight : 0, Array.from(document.querySelectorAll('iframe, frame, object, embed'), \
     (frame) => { const box = frame.getBoundingClientRect(); return [box.left, box.top, box.width, box.height]; })\
     ])(document.documentElement)";

/// Pictures what `probe` asks of the tab whose DevTools session is
/// `tab.0` and whose target is `tab.1`. `cast_free`: no live view holds
/// the tab's screencast, so a picture may be one frame of it.
pub async fn probe(
    socket: &DevToolsSocket,
    targets: &impl TargetsLock,
    tab: (&str, &str),
    probe: &PaintProbe,
    cast_free: bool,
) -> Result<PaintPictures> {
    let mut beyond = None;
    let pictured = async {
        to_front(socket, targets, tab).await?;
        for path in &probe.frames {
            give_sheet(socket, targets, tab, path, &probe.sheet).await?;
        }
        if let Some(area) = probe.area {
            let viewport = run(
                socket,
                targets,
                tab,
                &FrameScript {
                    frame: Vec::new(),
                    expression: PAGE_AND_FRAMES.to_owned(),
                },
            )
            .await?;
            let at = |index: usize| viewport[index].as_f64().unwrap_or_default();
            let frames = viewport[4]
                .as_array()
                .map(|frames| {
                    frames
                        .iter()
                        .filter_map(|rect| {
                            let rect: Vec<f64> =
                                rect.as_array()?.iter().filter_map(Value::as_f64).collect();
                            <[f64; 4]>::try_from(rect).ok()
                        })
                        .collect()
                })
                .unwrap_or_default();
            beyond = Some(
                Beyond::start(
                    socket,
                    tab.0,
                    area,
                    ((at(0), at(1)), (at(2), at(3))),
                    frames,
                )
                .await,
            );
        }
        // Beyond the viewport every picture is a frame drawn afresh
        // (`Beyond::reaches`).
        let fresh;
        let probe = match &beyond {
            Some(beyond) if beyond.reaches() => {
                fresh = PaintProbe {
                    still: false,
                    marked: true,
                    ..probe.clone()
                };
                &fresh
            }
            _ => probe,
        };
        if cast_free {
            return cast(socket, targets, tab, probe, beyond.as_mut()).await;
        }
        let mut pictures = Vec::with_capacity(probe.steps.len());
        for step in &probe.steps {
            for script in step {
                run(socket, targets, tab, script).await?;
            }
            let frame = picture(socket, targets, tab, cast_free).await?;
            pictures.push(match beyond.as_mut() {
                // (Of the page as this step left it: before the next.)
                Some(beyond) => beyond.picture(socket, tab.0, &frame).await?,
                None => frame,
            });
        }
        Ok(pictures)
    }
    .await;
    if let Some(beyond) = beyond {
        beyond.stop(socket, tab.0).await;
    }
    for script in &probe.after {
        let _ = if script.frame.is_empty() {
            frames::evaluate_soon(socket, targets, tab, World::Isolated, &script.expression).await
        } else {
            run(socket, targets, tab, script).await.map(|_| ())
        };
    }
    pictured
}

/// Brings the tab to the front where another tab hides it: a hidden tab
/// draws no frame (WebDriver leaves in front the tab a page opened while
/// the session reads the one it had). A person looks at the tab they
/// read; the page sees it shown, as then.
async fn to_front(
    socket: &DevToolsSocket,
    targets: &impl TargetsLock,
    tab: (&str, &str),
) -> Result<()> {
    let shown = FrameScript {
        frame: Vec::new(),
        expression: "document.visibilityState".to_owned(),
    };
    if run(socket, targets, tab, &shown).await?.as_str() == Some("hidden") {
        socket
            .call(Some(tab.0), names::PAGE_BRING_TO_FRONT, json!({}))
            .await?;
    }
    Ok(())
}

/// Gives the document of the frame at `path` the inspector sheet with
/// `text`, unless it has it (`CSS.createStyleSheet` answers the same sheet
/// for a document until it goes; the record of targets knows which
/// document has had it).
async fn give_sheet(
    socket: &DevToolsSocket,
    targets: &impl TargetsLock,
    (tab, target): (&str, &str),
    path: &[u32],
    text: &str,
) -> Result<()> {
    let found = if path.is_empty() {
        frames::FoundFrame {
            session: tab.to_owned(),
            frame: target.to_owned(),
        }
    } else {
        frames::frame_at(socket, targets, tab, target, path).await?
    };
    let session = targets
        .with_targets(|targets| targets.frame_session(&found.frame).map(str::to_owned))
        .unwrap_or(found.session);
    if targets.with_targets(|targets| targets.has_sheet(&session, &found.frame, text)) {
        return Ok(());
    }
    let on = Some(session.as_str());
    if !targets.with_targets(|targets| targets.styled(&session)) {
        socket.call(on, names::DOM_ENABLE, json!({})).await?;
        socket.call(on, names::CSS_ENABLE, json!({})).await?;
    }
    let sheet = socket
        .call(
            on,
            names::CSS_CREATE_STYLE_SHEET,
            json!({ "frameId": found.frame }),
        )
        .await?;
    let Some(id) = sheet["styleSheetId"].as_str() else {
        return Err(DriverError::Protocol(format!(
            "CSS.createStyleSheet answered {sheet}"
        )));
    };
    socket
        .call(
            on,
            names::CSS_SET_STYLE_SHEET_TEXT,
            json!({ "styleSheetId": id, "text": text }),
        )
        .await?;
    targets.with_targets(|targets| targets.sheet_given(&session, &found.frame, id, text));
    Ok(())
}

/// Runs one script in tabwright's world of its frame.
async fn run(
    socket: &DevToolsSocket,
    targets: &impl TargetsLock,
    tab: (&str, &str),
    script: &FrameScript,
) -> Result<Value> {
    frames::evaluate_in(
        socket,
        targets,
        tab,
        &script.frame,
        World::Isolated,
        &script.expression,
    )
    .await
}

/// The pictures: one screencast for all the steps. The first is the page
/// as it is on screen (on a still page; else the first frame drawn once
/// the page has begun one and handed its paint on); after a step's
/// scripts, the next frame the compositor sends, or with a marked probe
/// the first that shows the step's marker (see [`PaintProbe::marked`]).
async fn cast(
    socket: &DevToolsSocket,
    targets: &impl TargetsLock,
    tab: (&str, &str),
    probe: &PaintProbe,
    mut beyond: Option<&mut Beyond>,
) -> Result<PaintPictures> {
    // What a probe just before put back may not be drawn yet: the frame on
    // screen would show its text still taken out. Where the page moved, or
    // another probe ended just now, the first picture is a frame begun once
    // the page has drawn what it holds. (Should it still show the text out,
    // nothing the steps take out changes, which `stale` in marks finds.)
    let after_another = targets.with_targets(|targets| targets.probed_lately(tab.0, RECENT_PROBE));
    if !probe.still || after_another {
        drawn(socket, targets, tab).await?;
    }
    let marked = probe.marked;
    if marked {
        socket
            .call(Some(tab.0), names::OVERLAY_ENABLE, json!({}))
            .await?;
    }
    let mut events = socket.events();
    socket
        .call(
            Some(tab.0),
            names::PAGE_START_SCREENCAST,
            json!({ "format": "png" }),
        )
        .await?;
    let pictured = async {
        let mut pictures = Vec::with_capacity(probe.steps.len());
        for (index, step) in probe.steps.iter().enumerate() {
            for script in step {
                run(socket, targets, tab, script).await?;
            }
            // A marked probe proves every picture, the first too where the
            // page moves.
            let marker = (marked && (index > 0 || !probe.still)).then(|| marker_colour(index));
            if let Some([r, g, b]) = marker {
                let side = f64::from(MARKER_SIZE);
                let rect = json!({ "x": 0, "y": 0, "width": side, "height": side,
                                   "color": { "r": r, "g": g, "b": b, "a": 1 } });
                socket
                    .call(Some(tab.0), names::OVERLAY_HIGHLIGHT_RECT, rect)
                    .await?;
            }
            // Frames that came while the scripts ran show the page before
            // them.
            if !step.is_empty() {
                while let Ok(event) = events.try_recv() {
                    if let Some(params) = frame_of(&event, tab.0) {
                        acknowledge(socket, tab.0, params).await;
                    }
                }
            }
            let picture = tokio::time::timeout(screencast::SHOT_PATIENCE * 2, async {
                while let Some(event) = events.recv().await {
                    let Some(params) = frame_of(&event, tab.0) else {
                        continue;
                    };
                    acknowledge(socket, tab.0, params).await;
                    let Ok(png) = decoded(params) else {
                        continue;
                    };
                    if marker.is_none_or(|marker| first_pixel(&png) == Some(marker)) {
                        return Some(png);
                    }
                }
                None
            })
            .await
            .ok()
            .flatten()
            .ok_or_else(no_frame)?;
            pictures.push(match beyond.as_deref_mut() {
                // (Of the page as this step left it: before the next.)
                Some(beyond) => beyond.picture(socket, tab.0, &picture).await?,
                None => picture,
            });
        }
        Ok(pictures)
    }
    .await;
    let _ = socket
        .send(Some(tab.0), names::PAGE_STOP_SCREENCAST, json!({}))
        .await;
    if marked {
        let _ = socket
            .send(Some(tab.0), names::OVERLAY_HIDE_HIGHLIGHT, json!({}))
            .await;
    }
    targets.with_targets(|targets| targets.probed(tab.0));
    pictured
}

/// A probe this soon after another on the same tab proves its first
/// picture by a marker too.
const RECENT_PROBE: std::time::Duration = std::time::Duration::from_millis(40);

/// The colour of a PNG's top left pixel (its first row alone is decoded).
fn first_pixel(png: &[u8]) -> Option<[u8; 3]> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().ok()?;
    let channels = reader.output_color_type().0.samples();
    let row = reader.next_row().ok()??;
    let pixel = row.data().get(..channels)?;
    Some(match channels {
        1 | 2 => [pixel[0], pixel[0], pixel[0]],
        _ => [pixel[0], pixel[1], pixel[2]],
    })
}

/// A screencast frame of the tab's session, if `event` is one.
fn frame_of<'a>(event: &'a super::devtools::Event, session: &str) -> Option<&'a Value> {
    (event.session.as_deref() == Some(session) && event.method == names::PAGE_SCREENCAST_FRAME)
        .then_some(&event.params)
}

/// Acknowledges a screencast frame, so the next is sent.
async fn acknowledge(socket: &DevToolsSocket, session: &str, params: &Value) {
    let _ = socket
        .send(
            Some(session),
            names::PAGE_SCREENCAST_FRAME_ACK,
            screencast::ack_params(params),
        )
        .await;
}

/// A screencast frame's picture, decoded from its base64.
fn decoded(params: &Value) -> Result<Vec<u8>> {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD
        .decode(params["data"].as_str().unwrap_or_default())
        .map_err(|error| DriverError::Protocol(format!("the picture is not base64: {error}")))
}

/// Why there is no picture: a page that draws no frame.
fn no_frame() -> DriverError {
    DriverError::Protocol(
        "the page drew no frame to picture (it is hidden, or its main thread is busy)".to_owned(),
    )
}

/// Waits, in tabwright's world of the top document, until the page has
/// begun a frame and handed its paint on (`screencast::DRAWN`).
async fn drawn(
    socket: &DevToolsSocket,
    targets: &impl TargetsLock,
    tab: (&str, &str),
) -> Result<Value> {
    frames::evaluate_in(
        socket,
        targets,
        tab,
        &[],
        World::Isolated,
        screencast::DRAWN,
    )
    .await
}

/// The viewport as the page draws it: one screencast frame once the page
/// has begun a frame and handed its paint on, or Chrome's capture after
/// the same wait where a live view holds the screencast.
async fn picture(
    socket: &DevToolsSocket,
    targets: &impl TargetsLock,
    tab: (&str, &str),
    cast_free: bool,
) -> Result<Vec<u8>> {
    let drawn = drawn(socket, targets, tab);
    if cast_free {
        return screencast::frame_after(socket, tab.0, json!({ "format": "png" }), drawn, false)
            .await
            .ok_or_else(no_frame);
    }
    let ratio = tokio::time::timeout(screencast::SHOT_PATIENCE, drawn)
        .await
        .map_err(|_| no_frame())??;
    if ratio.as_f64().unwrap_or_default() <= 0.0 {
        return Err(no_frame());
    }
    let shot = socket
        .call(
            Some(tab.0),
            names::PAGE_CAPTURE_SCREENSHOT,
            json!({ "format": "png", "optimizeForSpeed": true }),
        )
        .await?;
    decoded(&shot)
}
