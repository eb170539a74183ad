//! The core `screenshot` tool's handler: of the viewport or the whole
//! page (tiled where it is taller than one picture), or of one element
//! with the forms group; a picture the same as the last one said so.

use std::fmt::Write as _;

use driver_core::{Driver, FullPage, ScreenshotFormat, ScreenshotOptions};

use crate::arguments::{self, ImageFormat};
use crate::error::ToolError;
use crate::output::{mime, Image, Outcome, ToolOutput};
use crate::page_strings::address;
use crate::page_values::PageAnswers;
use crate::state::{digest, Picture};
use crate::tab::Tab;

impl Tab<'_> {
    /// `screenshot`: of one element when the forms group is on and one is
    /// named, else of the viewport or the page.
    pub(crate) async fn screenshot(&mut self, args: arguments::ScreenshotArgs) -> Outcome {
        let Some(number) = args.element else {
            return self.page_screenshot(args).await;
        };
        if !self
            .browser
            .options
            .groups
            .contains(&crate::options::Group::Forms)
        {
            return Err(ToolError::bad(
                "screenshot",
                "a picture of one element needs the forms tool group (start tabwright with --caps core,forms)",
            ));
        }
        if args.numbers || args.full_page || args.if_changed {
            return Err(ToolError::bad(
                "screenshot",
                "with element, leave out numbers, full_page and if_changed",
            ));
        }
        self.element_screenshot(number, args.format == Some(ImageFormat::Jpeg))
            .await
    }

    // (Over 100 lines: the viewport, the whole page in tiles and the same-picture check in one place.)
    async fn page_screenshot(&mut self, args: arguments::ScreenshotArgs) -> Outcome {
        let format = match args.format {
            Some(ImageFormat::Png) => ScreenshotFormat::Png,
            Some(ImageFormat::Jpeg) => ScreenshotFormat::Jpeg(80),
            None if self.browser.options.vision => self.browser.options.vision_format,
            None => ScreenshotFormat::Png,
        };
        let (data, what) = if args.numbers {
            if args.full_page {
                return Err(ToolError::bad(
                    "screenshot",
                    "numbers are drawn on the viewport only; leave out full_page",
                ));
            }
            let (data, snapshot) = self
                .browser
                .marks
                .marked_screenshot(
                    &self.browser.driver,
                    format,
                    self.browser.secrets.any_typed(),
                )
                .await?;
            let count = snapshot.elements.values().filter(|e| !e.offscreen).count();
            (data, format!(", with {count} element numbers drawn"))
        } else {
            let options = ScreenshotOptions {
                format,
                full_page: args.full_page,
            };
            (self.browser.picture(options).await?, String::new())
        };
        // The same picture as the last one of this tab, taken the same way:
        // said in a line, without the picture, if the model asked so.
        let tab = self.browser.driver.current_tab().await?;
        let picture = Picture {
            tab,
            how: format!("{format:?} {} {}", args.full_page, args.numbers),
            digest: digest(&data),
        };
        let unchanged = self.state.last_picture.as_ref() == Some(&picture);
        self.state.last_picture = Some(picture);
        if args.if_changed && unchanged {
            return Ok(ToolOutput::text(
                "The page looks exactly as in your last screenshot of this tab: no new picture."
                    .to_owned(),
            ));
        }
        // The viewport and the URL in one read (a page no script runs in
        // still has a viewport).
        let read = self
            .browser
            .driver
            .own_world(
                &[],
                "({width: innerWidth, height: innerHeight, url: location.href, \
                 page: document.documentElement && {width: document.documentElement.scrollWidth, \
                 height: document.documentElement.scrollHeight}})",
            )
            .await
            .ok()
            .filter(|read| {
                read.get("width").as_f64().is_some() && read.get("height").as_f64().is_some()
            });
        // What a full-page picture holds of the page: the plan the backend
        // took it by (the page's size is the same content size it read).
        let whole = read.as_ref().filter(|_| args.full_page).and_then(|read| {
            let page = read.get("page");
            Some(FullPage::plan(
                page.get("width").as_f64()?.max(read.get("width").as_f64()?),
                page.get("height").as_f64()?,
            ))
        });
        let (width, height, url) = match read {
            Some(read) => (
                read.get("width").as_f64().unwrap_or_default(),
                read.get("height").as_f64().unwrap_or_default(),
                read.get("url").text(),
            ),
            None => {
                let viewport = self.browser.driver.viewport().await?;
                (f64::from(viewport.width), f64::from(viewport.height), None)
            }
        };
        let mut text = match whole {
            Some(plan) => format!("Screenshot of the full page ({}).", plan.describe()),
            None => format!(
                "Screenshot of the {} ({width}×{height} CSS pixels{what}).",
                if args.full_page {
                    "full page"
                } else {
                    "viewport"
                },
            ),
        };
        if let Some(url) = url {
            let _ = write!(text, " URL: {}", address(&url));
        }
        Ok(ToolOutput {
            text,
            images: vec![Image {
                mime_type: mime(format),
                data,
            }],
            is_error: false,
        })
    }
}
