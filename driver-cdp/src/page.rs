//! What a driver call does to one tab ([`Page`]: the connection, the
//! registry and the tab's flat CDP session): navigate and wait for the load,
//! evaluate, click and type with real input events, take screenshots.

use std::sync::Arc;

use base64::Engine;
use chromiumoxide::cdp::browser_protocol::page::{
    CaptureScreenshotFormat, CaptureScreenshotParams, NavigateParams, NavigateToHistoryEntryParams,
    ReloadParams, Viewport as ClipViewport,
};
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::mpsc;

use driver_core::{
    DriverError, FullPage, KeyPress, Navigation, Result, ScreenshotFormat, ScreenshotOptions,
};

use crate::chrome::decode;
use crate::client::{CallError, Client, RawEvent};
use crate::registry::{SharedRegistry, World, WORLD_NAME};

use driver_core::backend::{devtools, input};

/// One tab as a driver call acts on it: the connection, the registry, and
/// the tab's flat DevTools session.
#[derive(Clone, Copy)]
pub(crate) struct Page<'a> {
    client: &'a Client,
    registry: &'a SharedRegistry,
    session: &'a str,
}

impl<'a> Page<'a> {
    /// The tab on the flat DevTools `session`.
    pub(crate) fn new(client: &'a Client, registry: &'a SharedRegistry, session: &'a str) -> Self {
        Self {
            client,
            registry,
            session,
        }
    }

    /// Navigates the tab and waits for the new document's `load`.
    pub(crate) async fn navigate(&self, url: &str) -> Result<Navigation> {
        let (client, session) = (self.client, self.session);
        let mut events = client.events();
        let navigated = client
            .call(Some(session), NavigateParams::new(url))
            .await
            .map_err(|error| match DriverError::from(error) {
                DriverError::Protocol(message) => DriverError::NavigationFailed {
                    url: url.to_owned(),
                    net_error: message,
                },
                other => other,
            })?;
        if let Some(net_error) = navigated.error_text {
            return Err(DriverError::NavigationFailed {
                url: url.to_owned(),
                net_error,
            });
        }
        match navigated.loader_id {
            Some(loader) => wait_for_load(&mut events, session, Some(loader.as_ref())).await,
            // No new document: a same-document (fragment) navigation.
            None => Ok(Navigation {
                status: None,
                url: self.current_url().await?,
            }),
        }
    }

    /// Goes `delta` entries through the tab's history (-1 back, +1 forward).
    pub(crate) async fn history(&self, delta: i64) -> Result<Navigation> {
        let (client, session) = (self.client, self.session);
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Entry {
            id: i64,
            url: String,
        }
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct History {
            current_index: i64,
            entries: Vec<Entry>,
        }
        let history: History = decode(
            client
                .call_raw(Some(session), "Page.getNavigationHistory", json!({}))
                .await?,
        )?;
        let target = history.current_index + delta;
        let Some(entry) = usize::try_from(target)
            .ok()
            .and_then(|index| history.entries.get(index))
            .filter(|entry| delta > 0 || !driver_core::is_start_page(&entry.url))
        else {
            return Err(DriverError::NoHistory {
                direction: if delta < 0 { "earlier" } else { "later" },
            });
        };
        let mut events = client.events();
        client
            .order(Some(session), NavigateToHistoryEntryParams::new(entry.id))
            .await?;
        wait_for_load(&mut events, session, None).await
    }

    /// Reloads the tab and waits for the load.
    pub(crate) async fn reload(&self) -> Result<Navigation> {
        let (client, session) = (self.client, self.session);
        let mut events = client.events();
        client.order(Some(session), ReloadParams::default()).await?;
        wait_for_load(&mut events, session, None).await
    }

    async fn current_url(&self) -> Result<String> {
        let value = self.evaluate("location.href").await?;
        Ok(value.as_str().unwrap_or_default().to_owned())
    }

    /// Evaluates an expression in the main frame and returns its JSON value.
    pub(crate) async fn evaluate(&self, expression: &str) -> Result<serde_json::Value> {
        evaluate_in_context(self.client, self.session, None, expression).await
    }

    /// Evaluates in a world of the frame at `path` (`window.frames` indices
    /// from the top).
    pub(crate) async fn evaluate_in_frame(
        &self,
        path: &[u32],
        world: World,
        expression: &str,
    ) -> Result<serde_json::Value> {
        let (client, registry, session) = (self.client, self.registry, self.session);
        if path.is_empty() && world == World::Page {
            return self.evaluate(expression).await;
        }
        let (session, frame) = frame_at(client, registry, session, path).await?;
        let context = match world {
            World::Isolated => isolated_context(client, registry, &session, &frame).await?,
            World::Page => registry
                .context_of(&session, &frame, World::Page)
                .ok_or_else(|| unreachable(path, "its document has no script context yet"))?,
        };
        evaluate_in_context(client, &session, Some(context), expression).await
    }

    /// Clicks at a viewport point as `click` says.
    pub(crate) async fn click_with(&self, x: f64, y: f64, click: driver_core::Click) -> Result<()> {
        for event in input::click_events_with(x, y, click) {
            self.mouse_event(event).await?;
        }
        Ok(())
    }

    /// Sends one `Input.dispatchMouseEvent` (a move or a wheel turn).
    pub(crate) async fn mouse_event(&self, event: Value) -> Result<()> {
        self.client
            .call_raw(Some(self.session), "Input.dispatchMouseEvent", event)
            .await?;
        Ok(())
    }

    /// Types `text` as key events into whatever has focus.
    pub(crate) async fn type_text(&self, text: &str) -> Result<()> {
        for press in input::typed(text) {
            self.press_key(press).await?;
        }
        Ok(())
    }

    /// Presses one key with modifiers.
    pub(crate) async fn press_key(&self, press: KeyPress) -> Result<()> {
        for event in input::key_events(press) {
            self.client
                .call_raw(Some(self.session), "Input.dispatchKeyEvent", event)
                .await?;
        }
        Ok(())
    }

    /// A screenshot of the viewport or the whole page.
    pub(crate) async fn screenshot(&self, options: ScreenshotOptions) -> Result<Vec<u8>> {
        let (client, session) = (self.client, self.session);
        let (format, quality) = match options.format {
            ScreenshotFormat::Png => (CaptureScreenshotFormat::Png, None),
            ScreenshotFormat::Jpeg(quality) => {
                (CaptureScreenshotFormat::Jpeg, Some(quality.min(100)))
            }
            ScreenshotFormat::Webp(quality) => {
                (CaptureScreenshotFormat::Webp, Some(quality.min(100)))
            }
        };
        let mut params = CaptureScreenshotParams {
            format: Some(format),
            quality: quality.map(i64::from),
            // Chrome's fast encoder: a larger file, in a fraction of the
            // time its best compression takes (the PNG of a 1280×800
            // viewport was most of a screenshot's 50 ms).
            optimize_for_speed: Some(true),
            ..Default::default()
        };
        if options.full_page {
            #[derive(Deserialize)]
            #[serde(rename_all = "camelCase")]
            struct Size {
                width: f64,
                height: f64,
            }
            #[derive(Deserialize)]
            #[serde(rename_all = "camelCase")]
            struct Metrics {
                css_content_size: Size,
            }
            let metrics: Metrics = decode(
                client
                    .call_raw(Some(session), "Page.getLayoutMetrics", json!({}))
                    .await?,
            )?;
            // Within the pixel budget (scaled, or cut), as the caption says.
            let plan = FullPage::plan(
                metrics.css_content_size.width,
                metrics.css_content_size.height,
            );
            params.clip = Some(ClipViewport {
                x: 0.0,
                y: 0.0,
                width: plan.width,
                height: plan.height,
                scale: plan.scale,
            });
            params.capture_beyond_viewport = Some(true);
        }
        let shot = client.call(Some(session), params).await?;
        let data: &str = shot.data.as_ref();
        base64::engine::general_purpose::STANDARD
            .decode(data)
            .map_err(|error| {
                DriverError::Protocol(format!("the screenshot is not base64: {error}"))
            })
    }
}

/// Follows a tab's events until the main frame has committed a new document
/// (with `loader`, if known) and fired `load`, or navigated within the same
/// document. Events are read in order, so a `load` of the previous document
/// still in flight is never taken for the new one.
async fn wait_for_load(
    events: &mut mpsc::UnboundedReceiver<Arc<RawEvent>>,
    session: &str,
    loader: Option<&str>,
) -> Result<Navigation> {
    let mut committed: Option<(String, String)> = None; // (loader, url)
    let mut statuses: Vec<(String, u16)> = Vec::new(); // (loader, status)
    while let Some(event) = events.recv().await {
        if event.session_id.as_deref() != Some(session) {
            continue;
        }
        let params = &event.params;
        match event.method.as_ref() {
            "Network.responseReceived" if params["type"] == "Document" => {
                if let (Some(id), Some(status)) = (
                    params["loaderId"].as_str(),
                    params["response"]["status"].as_u64(),
                ) {
                    statuses.push((id.to_owned(), status as u16));
                }
            }
            "Page.frameNavigated" if params["frame"]["parentId"].is_null() => {
                let frame = &params["frame"];
                let id = frame["loaderId"].as_str().unwrap_or_default();
                if loader.is_none_or(|loader| loader == id) {
                    let url = format!(
                        "{}{}",
                        frame["url"].as_str().unwrap_or_default(),
                        frame["urlFragment"].as_str().unwrap_or_default()
                    );
                    if params["type"] == "BackForwardCacheRestore" {
                        // A page restored whole fires no load event.
                        return Ok(Navigation { status: None, url });
                    }
                    committed = Some((id.to_owned(), url));
                }
            }
            "Page.navigatedWithinDocument" if committed.is_none() && loader.is_none() => {
                return Ok(Navigation {
                    status: None,
                    url: params["url"].as_str().unwrap_or_default().to_owned(),
                });
            }
            "Page.loadEventFired" => {
                if let Some((id, url)) = &committed {
                    let status = statuses
                        .iter()
                        .rev()
                        .find(|(loader, _)| loader == id)
                        .map(|(_, status)| *status);
                    return Ok(Navigation {
                        status,
                        url: url.clone(),
                    });
                }
            }
            "Inspector.targetCrashed" => {
                return Err(DriverError::NavigationFailed {
                    url: committed.map(|(_, url)| url).unwrap_or_default(),
                    net_error: "the tab crashed".to_owned(),
                })
            }
            _ => {}
        }
    }
    Err(DriverError::BrowserGone {
        reason: "the DevTools connection closed during navigation".to_owned(),
    })
}

/// The session a frame's document lives in, and the frame's id: each step
/// of the path finds the iframe element in the current frame (asked in
/// tabwright's world, which the page cannot fool), asks which frame it
/// holds, and follows it into the process of its own if it is cross-site.
async fn frame_at(
    client: &Client,
    registry: &SharedRegistry,
    tab: &str,
    path: &[u32],
) -> Result<(String, String)> {
    let mut session = tab.to_owned();
    let mut frame = registry
        .root_frame(tab)
        .ok_or_else(|| unreachable(path, "its tab is gone"))?;
    for index in path {
        let context = isolated_context(client, registry, &session, &frame).await?;
        let params = json!({
            "expression": devtools::frame_element(*index),
            "contextId": context,
            "returnByValue": false,
        });
        let found = client
            .call_raw(Some(&session), "Runtime.evaluate", params)
            .await?;
        let Some(object) = found["result"]["objectId"].as_str() else {
            return Err(unreachable(path, "the frame is gone"));
        };
        let node = client
            .call_raw(
                Some(&session),
                "DOM.describeNode",
                json!({ "objectId": object }),
            )
            .await?;
        let _ = client
            .call_raw(
                Some(&session),
                "Runtime.releaseObject",
                json!({ "objectId": object }),
            )
            .await;
        let Some(child) = node["node"]["frameId"].as_str() else {
            return Err(unreachable(path, "the frame has no document"));
        };
        // A cross-site frame runs in a process of its own, with a session of
        // its own; a same-site one lives in this one.
        if let Some(own) = registry.frame_session(child) {
            session = own;
        }
        frame = child.to_owned();
    }
    Ok((session, frame))
}

/// tabwright's world in a frame: the one Chrome made for the document
/// (every document gets one, `registry::WORLD_NAME`), or one made now for
/// a document that was there before.
async fn isolated_context(
    client: &Client,
    registry: &SharedRegistry,
    session: &str,
    frame: &str,
) -> Result<i64> {
    if let Some(id) = registry.context_of(session, frame, World::Isolated) {
        return Ok(id);
    }
    let created = client
        .call_raw(
            Some(session),
            "Page.createIsolatedWorld",
            json!({ "frameId": frame, "worldName": WORLD_NAME }),
        )
        .await?;
    let id = created["executionContextId"].as_i64().ok_or_else(|| {
        DriverError::Protocol(format!("Page.createIsolatedWorld answered {created}"))
    })?;
    Ok(registry.adopt_world(session, frame, id))
}

fn unreachable(path: &[u32], reason: &str) -> DriverError {
    DriverError::FrameUnreachable {
        path: format!("{path:?}"),
        reason: reason.to_owned(),
    }
}

async fn evaluate_in_context(
    client: &Client,
    session: &str,
    context: Option<i64>,
    expression: &str,
) -> Result<serde_json::Value> {
    let mut params = json!({
        "expression": expression,
        "returnByValue": true,
        "awaitPromise": true,
        "userGesture": true,
    });
    if let Some(context) = context {
        params["contextId"] = json!(context);
    }
    let answer = client
        .call_raw(Some(session), "Runtime.evaluate", params)
        .await
        .map_err(|error| match error {
            // The document (and its script context) went away under an
            // awaited promise: a navigation.
            CallError::Protocol { message } if devtools::document_gone(&message) => {
                DriverError::DocumentReplaced
            }
            other => other.into(),
        })?;
    devtools::evaluated(&answer)
}
