//! The forms group: `fill` (many fields, one answer), `drag`, and
//! `screenshot` of one element.

use std::fmt::Write as _;

use base64::Engine;
use driver_core::Driver;
use serde_json::json;

use crate::after::Expected;
use crate::arguments;
use crate::browser::done_if_interrupted;
use crate::error::ToolError;
use crate::options::Group;
use crate::output::{Image, Outcome, ToolOutput};
use crate::page_values::PageAnswers;
use crate::short;
use crate::tab::Tab;
use crate::tool::{takes, Hints, Tool};

/// The forms group: many fields at once, drags, one element's picture. The
/// handlers are below; `table` says what each field means.
pub(crate) static TOOLS: &[Tool] = &[
    Tool {
        group: Group::Forms,
        hints: Hints { idempotent: true, ..Hints::ACT },
        example: r#"`{"fields": [{"element": 1, "value": "Ada"}, {"element": 4, "value": "true"}]}`"#,
        ..Tool::action(
            "fill",
            "Fill a form",
            "Fill many fields at once: text fields, selects, checkboxes, radio buttons.",
            takes!(tab FillArgs => fill),
        )
    },
    Tool {
        group: Group::Forms,
        example: r#"`{"from": 9, "to": 11}`, `{"from": 12, "x": 400, "y": 300}`, `{"from_x": 90, "from_y": 40, "x": 400, "y": 300}`"#,
        ..Tool::action(
            "drag",
            "Drag",
            "Drag an element (or from a point from_x,from_y) onto another or to a point x,y, the mouse held down.",
            takes!(tab DragArgs => drag),
        )
    },
    Tool {
        group: Group::Forms,
        widens_core: true,
        short: Some(short::SCREENSHOT),
        example: r#"`{"element": 13, "format": "png"}`"#,
        ..Tool::reader(
            "screenshot",
            "Screenshot",
            "A picture of the viewport, the full page or one element, with each element's number drawn on it if asked.",
            takes!(tab ScreenshotArgs => screenshot),
        )
    },
];

/// The most fields one `fill` takes.
const MAX_FIELDS: usize = 50;

/// Mouse steps between a drag's start and its end: enough for pages that
/// follow the pointer (and for the browser to start a drag and drop).
const DRAG_STEPS: u32 = 10;

impl Tab<'_> {
    // (Over 100 lines: one arm per kind of field, each what it fills and what it reads back.)
    pub(crate) async fn fill(&mut self, args: arguments::FillArgs) -> Outcome {
        if args.fields.is_empty() {
            return Err(ToolError::bad(
                "fill",
                "fields is empty: give at least one {element, value}",
            ));
        }
        if args.fields.len() > MAX_FIELDS {
            return Err(ToolError::bad(
                "fill",
                format!("at most {MAX_FIELDS} fields at a time"),
            ));
        }
        let mut done = Vec::new();
        let mut expected = Vec::new();
        for field in &args.fields {
            crate::validate::check_text_length(&field.value)?;
            let value = self.browser.secrets.fill_in("fill", &field.value)?;
            let number = field.element;
            let answer = self
                .browser
                .marks
                .locate(&self.browser.driver, number, true)
                .await?;
            let kind = answer.input_type.as_deref().unwrap_or_default();
            let did = match (answer.tag.as_str(), kind) {
                ("SELECT", _) => {
                    let chosen = self
                        .browser
                        .marks
                        .select(&self.browser.driver, number, std::slice::from_ref(&value))
                        .await?;
                    let chosen = crate::page_strings::joined(&chosen, ", ");
                    let said = format!("[{number}] = {}", crate::page_strings::shown(&chosen));
                    expected.push(Expected {
                        number,
                        value: chosen,
                    });
                    said
                }
                ("INPUT", "checkbox" | "radio") => {
                    let wanted = truth(&value).ok_or_else(|| {
                        ToolError::bad(
                            "fill",
                            format!(
                                "[{number}] is a {kind}: its value must be true or false, not {:?}",
                                field.value
                            ),
                        )
                    })?;
                    if kind == "radio" && !wanted {
                        return Err(ToolError::bad(
                            "fill",
                            format!("[{number}] is a radio button: choose another one of its group instead of false"),
                        ));
                    }
                    if answer.checked != Some(wanted) {
                        done_if_interrupted(
                            self.browser.marks.click(&self.browser.driver, number).await,
                        )?;
                    }
                    format!(
                        "[{number}] {}",
                        if wanted { "checked" } else { "unchecked" }
                    )
                }
                _ => {
                    let typed = done_if_interrupted(
                        self.browser
                            .marks
                            .type_into(
                                &self.browser.driver,
                                number,
                                &value,
                                true,
                                value != field.value,
                            )
                            .await,
                    )?;
                    if let Some(astray) = crate::error::typed_astray(number, &typed) {
                        // The rest is not filled: the page took the focus,
                        // or the field took no text.
                        let filled = if done.is_empty() {
                            String::new()
                        } else {
                            format!("Filled {}. ", done.join(", "))
                        };
                        return self
                            .after(format!(
                                "{filled}{astray} The fields after [{number}] were not filled."
                            ))
                            .await;
                    }
                    // (A field a secret went into reads as hidden.)
                    if value == field.value && typed.before.is_some_and(|before| before != "••••")
                    {
                        expected.push(Expected {
                            number,
                            value: typed.picked.clone().unwrap_or_else(|| value.clone().into()),
                        });
                    }
                    format!("[{number}] = {:?}", field.value)
                }
            };
            done.push(did);
        }
        self.after_expecting(format!("Filled {}.", done.join(", ")), &expected)
            .await
    }

    pub(crate) async fn drag(&mut self, args: arguments::DragArgs) -> Outcome {
        if args.to.is_none() && args.x.is_none() && args.y.is_none() {
            return Err(ToolError::bad(
                "drag",
                "say where to: to (an element number) or x and y",
            ));
        }
        let target = crate::validate::target("drag", args.to, args.x, args.y)?;
        let source =
            crate::validate::target("drag", args.from, args.from_x, args.from_y).map_err(|_| {
                ToolError::bad(
                    "drag",
                    "say what to pick up: from (an element number) or from_x and from_y",
                )
            })?;
        if let (crate::validate::Aim::Element(to), crate::validate::Aim::Element(from)) =
            (&target, &source)
        {
            if to == from {
                return Err(ToolError::bad("drag", "from and to are the same element"));
            }
        }
        let (start, what) = match source {
            crate::validate::Aim::Element(from) => {
                let located = self
                    .browser
                    .marks
                    .locate(&self.browser.driver, from, true)
                    .await?;
                self.can_pick_up((located.x, located.y)).await?;
                ((located.x, located.y), format!("[{from}]"))
            }
            crate::validate::Aim::Point(x, y) => {
                self.browser.on_screen("drag", x, y).await?;
                ((x, y), format!("from ({x}, {y})"))
            }
        };
        let (end, onto) = match target {
            crate::validate::Aim::Element(to) => {
                // The target is read with the source in view: scrolling it
                // into the middle could move the source off screen.
                let answer = self
                    .browser
                    .marks
                    .locate(&self.browser.driver, to, false)
                    .await?;
                ((answer.x, answer.y), format!("onto [{to}]"))
            }
            crate::validate::Aim::Point(x, y) => {
                self.browser.on_screen("drag", x, y).await?;
                ((x, y), format!("to ({x}, {y})"))
            }
        };
        let viewport = self.browser.driver.viewport().await?;
        if end.0 < 0.0
            || end.1 < 0.0
            || end.0 >= f64::from(viewport.width)
            || end.1 >= f64::from(viewport.height)
        {
            return Err(ToolError::bad(
                "drag",
                format!(
                    "{what} and where it goes are not on screen together; scroll so both show, or make the window larger"
                ),
            ));
        }
        let end = (end.0.round(), end.1.round());
        let mouse = |kind: &str, (x, y): (f64, f64), buttons: u8| json!({ "type": kind, "x": x, "y": y, "button": "left", "buttons": buttons, "clickCount": 1 });
        self.browser
            .driver
            .devtools_answer("Input.dispatchMouseEvent", mouse("mouseMoved", start, 0))
            .await?;
        self.browser
            .driver
            .devtools_answer("Input.dispatchMouseEvent", mouse("mousePressed", start, 1))
            .await?;
        for step in 1..=DRAG_STEPS {
            let t = f64::from(step) / f64::from(DRAG_STEPS);
            let at = (
                start.0 + (end.0 - start.0) * t,
                start.1 + (end.1 - start.1) * t,
            );
            done_if_interrupted(
                self.browser
                    .driver
                    .devtools_answer("Input.dispatchMouseEvent", mouse("mouseMoved", at, 1))
                    .await
                    .map(|_| ()),
            )?;
        }
        done_if_interrupted(
            self.browser
                .driver
                .devtools_answer("Input.dispatchMouseEvent", mouse("mouseReleased", end, 0))
                .await
                .map(|_| ()),
        )?;
        self.after(format!("Dragged {what} {onto}.")).await
    }

    /// Refuses to drag the element whose centre is at `at` where it is
    /// picked up by HTML drag and drop (`draggable`) and the backend fires
    /// no such events: the drag would be said done with nothing dropped.
    async fn can_pick_up(&self, at: (f64, f64)) -> Result<(), ToolError> {
        let Err(cannot) = self
            .browser
            .driver
            .capabilities()
            .check(driver_core::Capability::HtmlDrag)
        else {
            return Ok(());
        };
        let draggable = self
            .browser
            .driver
            .own_world(
                &[],
                &format!(
                    "!!document.elementFromPoint({}, {})?.closest('[draggable=\"true\"]')",
                    at.0, at.1
                ),
            )
            .await?;
        if draggable == true {
            return Err(cannot.into());
        }
        Ok(())
    }

    /// A picture of one element: its box on screen, scrolled into view.
    pub(crate) async fn element_screenshot(&self, number: u32, jpeg: bool) -> Outcome {
        let answer = self
            .browser
            .marks
            .locate(&self.browser.driver, number, true)
            .await?;
        let scroll = self
            .browser
            .driver
            .own_world(&[], "[scrollX, scrollY]")
            .await?;
        let (Some(scroll_x), Some(scroll_y)) = (scroll.at(0).as_f64(), scroll.at(1).as_f64())
        else {
            return Err(ToolError::bad(
                "screenshot",
                "the page's scroll position could not be read; try again",
            ));
        };
        let rect = answer.rect;
        let (x, y, width, height) = (
            rect.x as f64,
            rect.y as f64,
            rect.width as f64,
            rect.height as f64,
        );
        if width < 1.0 || height < 1.0 {
            return Err(ToolError::bad(
                "screenshot",
                format!("[{number}] has no visible size"),
            ));
        }
        let format = if jpeg { "jpeg" } else { "png" };
        let mut params = json!({
            "format": format,
            "clip": { "x": x + scroll_x, "y": y + scroll_y, "width": width, "height": height, "scale": 1 },
        });
        if jpeg {
            params["quality"] = json!(80);
        }
        // A field that holds a secret shows that it does, never what.
        let covering = self.browser.secrets.any_typed();
        if covering {
            marks::cover_secrets(&self.browser.driver).await?;
        }
        let taken = self
            .browser
            .driver
            .devtools_answer("Page.captureScreenshot", params)
            .await;
        if covering {
            marks::uncover(&self.browser.driver).await;
        }
        let taken = taken?;
        #[allow(clippy::disallowed_methods)] // decoded as bytes, never shown
        let data = taken
            .get("data")
            .untrusted()
            .as_str()
            .and_then(|data| base64::engine::general_purpose::STANDARD.decode(data).ok())
            .ok_or_else(|| {
                ToolError::bad("screenshot", "the browser took no picture; try again")
            })?;
        let mut text = String::new();
        let _ = write!(
            text,
            "A picture of [{number}] ({}×{} CSS pixels).",
            width.round(),
            height.round()
        );
        Ok(ToolOutput {
            text,
            images: vec![Image {
                mime_type: if jpeg { "image/jpeg" } else { "image/png" },
                data,
            }],
            is_error: false,
        })
    }
}

/// A checkbox's wanted state, as a model may write it.
fn truth(value: &str) -> Option<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" | "checked" | "1" | "x" => Some(true),
        "false" | "no" | "off" | "unchecked" | "0" | "" => Some(false),
        _ => None,
    }
}
