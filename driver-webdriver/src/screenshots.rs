//! Screenshots: the viewport as one screencast frame where the session has
//! a DevTools relay, else WebDriver's PNG of it, and through chromedriver's
//! CDP bridge the rest (JPEG, WebP, the full page).

use base64::Engine;
use driver_core::backend::devtools::names;
use serde_json::json;

use driver_core::{Capability, DriverError, FullPage, Result, ScreenshotFormat, ScreenshotOptions};

use crate::errors::{bridge, sort};
use crate::session::WdSession;

impl WdSession {
    /// A screenshot of the current tab; a tab the page closed is noticed
    /// when it fails, as for every call ([`unless_tab_gone`](Self::unless_tab_gone)).
    pub(crate) async fn screenshot(&mut self, options: ScreenshotOptions) -> Result<Vec<u8>> {
        let shot = self.take_screenshot(options).await;
        self.unless_tab_gone(shot).await
    }

    async fn take_screenshot(&self, options: ScreenshotOptions) -> Result<Vec<u8>> {
        if let Some(relay) = self.relay.as_ref().filter(|_| !options.full_page) {
            if let Some(frame) = relay.one_frame(&self.current, options.format).await {
                return Ok(frame);
            }
        }
        if options == ScreenshotOptions::default() {
            // Chrome's fast encoder through the bridge where there is one
            // (a larger PNG, in a fraction of the time); WebDriver's own
            // PNG where not.
            let fast = json!({ "format": "png", "optimizeForSpeed": true });
            if let Ok(shot) = self.cdp(names::PAGE_CAPTURE_SCREENSHOT, fast).await {
                if let Ok(png) = base64::engine::general_purpose::STANDARD
                    .decode(shot["data"].as_str().unwrap_or_default())
                {
                    return Ok(png);
                }
            }
            return self.client.screenshot().await.map_err(sort);
        }
        // WebDriver has PNG of the viewport only; the rest goes through
        // chromedriver's CDP bridge.
        let (format, quality) = match options.format {
            ScreenshotFormat::Png => ("png", None),
            ScreenshotFormat::Jpeg(quality) => ("jpeg", Some(quality.min(100))),
            ScreenshotFormat::Webp(quality) => ("webp", Some(quality.min(100))),
        };
        let mut params = json!({ "format": format, "optimizeForSpeed": true });
        if let Some(quality) = quality {
            params["quality"] = json!(quality);
        }
        if options.full_page {
            let metrics = self
                .cdp(names::PAGE_GET_LAYOUT_METRICS, json!({}))
                .await
                .map_err(bridge(Capability::FullPageScreenshots))?;
            let size = &metrics["cssContentSize"];
            // Within the pixel budget (scaled, or cut), as the caption says.
            let plan = FullPage::plan(
                size["width"].as_f64().unwrap_or(1.0),
                size["height"].as_f64().unwrap_or(1.0),
            );
            params["clip"] = json!({
                "x": 0, "y": 0, "scale": plan.scale,
                "width": plan.width, "height": plan.height,
            });
            params["captureBeyondViewport"] = json!(true);
        }
        let feature = if options.full_page {
            Capability::FullPageScreenshots
        } else {
            Capability::LossyScreenshots
        };
        let shot = self
            .cdp(names::PAGE_CAPTURE_SCREENSHOT, params)
            .await
            .map_err(bridge(feature))?;
        base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().unwrap_or_default())
            .map_err(|error| {
                DriverError::Protocol(format!("the screenshot is not base64: {error}"))
            })
    }
}
