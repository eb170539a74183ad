//! What a driver call does to one tab ([`Page`]: the connection, the
//! registry and the tab's flat CDP session): navigate and wait for the load,
//! evaluate, click and type with real input events, take screenshots.

use driver_core::backend::devtools::names;
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

use crate::client::{decode, Client, Event};
use crate::registry::{SharedRegistry, World};

use driver_core::backend::devtools::frames;
use driver_core::backend::input;
use driver_core::backend::paint;
use driver_core::backend::screencast;
use driver_core::backend::tree;

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
                    url: url.into(),
                    net_error: message,
                },
                other => other,
            })?;
        if let Some(net_error) = navigated.error_text {
            return Err(DriverError::NavigationFailed {
                url: url.into(),
                net_error,
            });
        }
        match navigated.loader_id {
            Some(loader) => wait_for_load(&mut events, session, Some(loader.as_ref())).await,
            // No new document: a same-document (fragment) navigation.
            None => Ok(Navigation {
                status: None,
                url: self.current_url().await?.into(),
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
                .call_raw(Some(session), names::PAGE_GET_NAVIGATION_HISTORY, json!({}))
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
        frames::evaluate(self.client.socket(), self.session, None, expression).await
    }

    /// Evaluates in a world of the frame at `path` (`window.frames` indices
    /// from the top), found as driver-core's DevTools layer finds it for
    /// both backends.
    pub(crate) async fn evaluate_in_frame(
        &self,
        path: &[u32],
        world: World,
        expression: &str,
    ) -> Result<serde_json::Value> {
        let target = self.target(path)?;
        frames::evaluate_in(
            self.client.socket(),
            self.registry,
            (self.session, &target),
            path,
            world,
            expression,
        )
        .await
    }

    /// The tab's target id (its main frame's), for a call that names the
    /// frame at `path`.
    fn target(&self, path: &[u32]) -> Result<String> {
        self.registry
            .read(|registry| {
                registry
                    .by_session(self.session)
                    .map(|tab| tab.id.0.clone())
            })
            .ok_or_else(|| DriverError::FrameUnreachable {
                path: format!("{path:?}"),
                reason: "its tab is gone".to_owned(),
            })
    }

    /// Pictures the tab's paint as `probe` asks (driver-core's
    /// `backend::paint`). `cast_free`: as for [`Self::screenshot`].
    pub(crate) async fn paint_probe(
        &self,
        probe: &driver_core::PaintProbe,
        cast_free: bool,
    ) -> Result<driver_core::PaintPictures> {
        let target = self.target(&[])?;
        paint::probe(
            self.client.socket(),
            self.registry,
            (self.session, &target),
            probe,
            cast_free,
        )
        .await
    }

    /// Hands over what `handover` asks in the tab (driver-core's
    /// `backend::tree`).
    pub(crate) async fn hand_over(
        &self,
        handover: &driver_core::Handover,
    ) -> Result<serde_json::Value> {
        let target = self.target(&handover.frame)?;
        tree::hand_over(
            self.client.socket(),
            self.registry,
            (self.session, &target),
            handover,
        )
        .await
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
            .call_raw(Some(self.session), names::INPUT_DISPATCH_MOUSE_EVENT, event)
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
                .call_raw(Some(self.session), names::INPUT_DISPATCH_KEY_EVENT, event)
                .await?;
        }
        Ok(())
    }

    /// A screenshot of the viewport or the whole page. `cast_free`: no live
    /// view holds the tab's screencast, so a viewport may be taken as one
    /// frame of it ([`Self::drawn_frame`]).
    pub(crate) async fn screenshot(
        &self,
        options: ScreenshotOptions,
        cast_free: bool,
    ) -> Result<Vec<u8>> {
        if cast_free && !options.full_page {
            if let Some(frame) = self.drawn_frame(options.format).await {
                return Ok(frame);
            }
        }
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
                    .call_raw(Some(session), names::PAGE_GET_LAYOUT_METRICS, json!({}))
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

    /// The viewport as one screencast frame ([`screencast::one_frame`]),
    /// or `None` to capture it.
    async fn drawn_frame(&self, format: ScreenshotFormat) -> Option<Vec<u8>> {
        let drawn = self.evaluate_in_frame(&[], World::Isolated, screencast::DRAWN);
        screencast::one_frame(self.client.socket(), self.session, format, drawn).await
    }
}

/// Follows a tab's events until the main frame has committed a new document
/// (with `loader`, if known) and fired `load`, or navigated within the same
/// document. Events are read in order, so a `load` of the previous document
/// still in flight is never taken for the new one.
async fn wait_for_load(
    events: &mut mpsc::UnboundedReceiver<Arc<Event>>,
    session: &str,
    loader: Option<&str>,
) -> Result<Navigation> {
    let mut committed: Option<(String, String)> = None; // (loader, url)
    let mut statuses: Vec<(String, u16)> = Vec::new(); // (loader, status)
    while let Some(event) = events.recv().await {
        if event.session.as_deref() != Some(session) {
            continue;
        }
        let params = &event.params;
        match event.method.as_str() {
            names::NETWORK_RESPONSE_RECEIVED if params["type"] == "Document" => {
                if let (Some(id), Some(status)) = (
                    params["loaderId"].as_str(),
                    params["response"]["status"].as_u64(),
                ) {
                    statuses.push((id.to_owned(), status as u16));
                }
            }
            names::PAGE_FRAME_NAVIGATED if params["frame"]["parentId"].is_null() => {
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
                        return Ok(Navigation {
                            status: None,
                            url: url.into(),
                        });
                    }
                    committed = Some((id.to_owned(), url));
                }
            }
            names::PAGE_NAVIGATED_WITHIN_DOCUMENT if committed.is_none() && loader.is_none() => {
                return Ok(Navigation {
                    status: None,
                    url: params["url"].as_str().unwrap_or_default().into(),
                });
            }
            names::PAGE_LOAD_EVENT_FIRED => {
                if let Some((id, url)) = &committed {
                    let status = statuses
                        .iter()
                        .rev()
                        .find(|(loader, _)| loader == id)
                        .map(|(_, status)| *status);
                    return Ok(Navigation {
                        status,
                        url: url.clone().into(),
                    });
                }
            }
            names::INSPECTOR_TARGET_CRASHED => {
                return Err(DriverError::NavigationFailed {
                    url: committed.map(|(_, url)| url).unwrap_or_default().into(),
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
