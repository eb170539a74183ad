//! A Firefox session's pictures: the viewport in the format asked, and
//! the whole page within the pixel budget, in strips where BiDi cannot
//! take it in one.

use driver_core::backend::strips::Strips;
use driver_core::{Capability, DriverError, Result, ScreenshotFormat};
use serde_json::{json, Value};

use crate::firefox_session::FxSession;

/// The height of one strip of a full-page picture taken in strips, in CSS
/// pixels.
const STRIP: f64 = 4_096.0;

impl FxSession {
    /// A picture BiDi takes (`browsingContext.captureScreenshot` with
    /// `params`), decoded.
    pub(crate) async fn capture(&self, params: Value) -> Result<Vec<u8>> {
        let shot = self
            .call("browsingContext.captureScreenshot", params)
            .await?;
        use base64::Engine;
        base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().unwrap_or_default())
            .map_err(|error| DriverError::Protocol(format!("the picture is not base64: {error}")))
    }

    /// The whole page within the pixel budget, as `FullPage` plans it:
    /// BiDi neither scales a picture nor takes one over 65,535 pixels a
    /// side, so a page that must be shrunk or cut is taken in strips of
    /// [`STRIP`] CSS pixels and shrunk as they come ([`Strips`]).
    pub(crate) async fn full_page(&self, format: ScreenshotFormat) -> Result<Vec<u8>> {
        let size = self
            .evaluate(
                &self.current,
                true,
                "({ width: Math.max(document.documentElement.scrollWidth, innerWidth), \
                   height: Math.max(document.documentElement.scrollHeight, innerHeight) })",
            )
            .await?;
        let plan = driver_core::FullPage::plan(
            size["width"].as_f64().unwrap_or(1.0),
            size["height"].as_f64().unwrap_or(1.0),
        );
        let clip = |y: f64, height: f64, format: ScreenshotFormat| {
            json!({ "context": self.current, "origin": "document", "format": image_format(format),
                    "clip": { "type": "box", "x": 0, "y": y, "width": plan.width, "height": height } })
        };
        if !plan.scaled() && plan.height <= STRIP {
            return self.capture(clip(0.0, plan.height, format)).await;
        }
        let jpeg = match format {
            ScreenshotFormat::Png => None,
            ScreenshotFormat::Jpeg(quality) => Some(quality),
            ScreenshotFormat::Webp(_) => return Err(Self::unsupported(
                Capability::LossyScreenshots,
                "a page too large for one picture is put together here, in PNG or JPEG, not WebP",
            )),
        };
        let mut strips = Strips::new(
            (plan.width * plan.scale).floor() as u32,
            (plan.height * plan.scale).floor() as u32,
        );
        let mut top = 0.0;
        while top < plan.height {
            let height = STRIP.min(plan.height - top);
            let strip = self
                .capture(clip(top, height, ScreenshotFormat::Png))
                .await?;
            strips.push(&strip)?;
            top += height;
        }
        strips.finish(jpeg)
    }
}

/// BiDi's `ImageFormat` for a picture in `format` (its quality from 0 to 1).
pub(crate) fn image_format(format: ScreenshotFormat) -> Value {
    match format {
        ScreenshotFormat::Png => json!({ "type": "image/png" }),
        ScreenshotFormat::Jpeg(quality) => {
            json!({ "type": "image/jpeg", "quality": f64::from(quality.min(100)) / 100.0 })
        }
        ScreenshotFormat::Webp(quality) => {
            json!({ "type": "image/webp", "quality": f64::from(quality.min(100)) / 100.0 })
        }
    }
}
