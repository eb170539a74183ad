//! A Firefox session's pictures: the viewport in the format asked, the
//! whole page within the pixel budget, in strips where BiDi cannot take it
//! in one, and the paint probe's.

use driver_core::backend::strips::Strips;
use driver_core::{Capability, DriverError, PaintPictures, PaintProbe, Result, ScreenshotFormat};
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

    /// Pictures what `probe` asks: each step's scripts run in the sandbox
    /// of their frames, then the viewport is pictured (or the `area`
    /// asked, within it or beyond it); the `after` scripts
    /// run whatever happened. The sheet is the profile's own
    /// (`userContent.css`, given as Firefox starts: the process's
    /// [`driver_core::paint_sheet`]), which every document has, frames of
    /// other sites included. BiDi's picture is painted from the document
    /// as it is when asked, not taken from a frame the compositor drew
    /// before, so it shows what the scripts just did: no wait for a frame
    /// and no marker (`still` and `marked` ask nothing more here).
    pub(crate) async fn probe(&mut self, probe: &PaintProbe) -> Result<PaintPictures> {
        if probe.sheet != driver_core::paint_sheet() {
            return Err(Self::unsupported(
                Capability::PaintProbe,
                "Firefox takes the paint probe's sheet from its profile as it starts, so only that sheet",
            ));
        }
        let pictured = self.probe_steps(probe).await;
        for script in &probe.after {
            let _ = self.eval_at(&script.frame, true, &script.expression).await;
        }
        pictured
    }

    /// The steps of `probe` and their pictures: of the viewport, or of the
    /// `area` of the document asked (BiDi paints any part of it, the
    /// smaller the sooner; the page hears no resize, no scroll and no
    /// observer's callback, checked with a page that records them).
    async fn probe_steps(&mut self, probe: &PaintProbe) -> Result<PaintPictures> {
        let asked = match probe.area {
            None => json!({ "context": self.current, "origin": "viewport",
                            "format": image_format(ScreenshotFormat::Png) }),
            Some([x, y, width, height]) => {
                let scrolled = self
                    .evaluate(&self.current, true, "[scrollX, scrollY]")
                    .await?;
                let at = |index: usize| scrolled[index].as_f64().unwrap_or_default();
                json!({ "context": self.current, "origin": "document",
                        "format": image_format(ScreenshotFormat::Png),
                        "clip": { "type": "box", "x": at(0) + f64::from(x), "y": at(1) + f64::from(y),
                                  "width": width, "height": height } })
            }
        };
        let mut pictures = Vec::with_capacity(probe.steps.len());
        for step in &probe.steps {
            for script in step {
                self.eval_at(&script.frame, true, &script.expression)
                    .await?;
            }
            pictures.push(self.capture(asked.clone()).await?);
        }
        Ok(pictures)
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
