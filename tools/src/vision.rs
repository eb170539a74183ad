//! The vision-mode tools that differ from the text mode's: pointing at
//! pixels and typing into the focused element, each answered with a picture
//! (`after_vision`).

use driver_core::Driver;

use crate::arguments;
use crate::browser::done_if_interrupted;
use crate::output::{typed_line, Outcome};
use crate::short;
use crate::tab::Tab;
use crate::tool::{takes, Hints, Mode, Tool};
use crate::validate::{check_text_length, delta, direction_word};

/// Vision mode's core tools: the pointing ones, at a point of the picture.
/// The handlers are below; `table` says what each field means.
pub(crate) static TOOLS: &[Tool] = &[
    Tool {
        mode: Mode::Vision,
        short: Some(short::CLICK_AT),
        example: r#"`{"x": 640, "y": 200}`"#,
        ..Tool::action(
            "click",
            "Click",
            "Click a point of the viewport (the screenshot's pixels).",
            takes!(tab ClickPointArgs => click_point),
        )
    },
    Tool {
        mode: Mode::Vision,
        short: Some(short::TYPE_HERE),
        example: r#"`{"text": "hello", "submit": true}`"#,
        ..Tool::action(
            "type",
            "Type text",
            "Type into the focused element (click it first); submit presses Enter.",
            takes!(tab TypeTextArgs => type_here),
        )
    },
    Tool {
        mode: Mode::Vision,
        hints: Hints {
            idempotent: true,
            ..Hints::MOVE
        },
        short: Some(short::HOVER_AT),
        example: r#"`{"x": 640, "y": 200}`"#,
        ..Tool::action(
            "hover",
            "Hover",
            "Move the mouse to a point (opens menus, tooltips).",
            takes!(tab PointArgs => hover_point),
        )
    },
    Tool {
        mode: Mode::Vision,
        hints: Hints::MOVE,
        short: Some(short::SCROLL_AT),
        example: r#"`{"direction": "down", "x": 640, "y": 400}`"#,
        ..Tool::action(
            "scroll",
            "Scroll",
            "Scroll up, down, left or right at a point (default the middle).",
            takes!(tab ScrollAtArgs => scroll_at),
        )
    },
];

impl Tab<'_> {
    pub(crate) async fn click_point(&mut self, point: arguments::ClickPointArgs) -> Outcome {
        let click = arguments::click_kind(point.button, point.count, &point.modifiers)?;
        self.browser.on_screen("click", point.x, point.y).await?;
        done_if_interrupted(
            marks::press_at_with(&self.browser.driver, point.x, point.y, click).await,
        )?;
        self.after(arguments::clicked(
            click,
            &format!("at ({}, {})", point.x, point.y),
        ))
        .await
    }

    pub(crate) async fn hover_point(&mut self, point: arguments::PointArgs) -> Outcome {
        self.browser.on_screen("hover", point.x, point.y).await?;
        done_if_interrupted(self.browser.driver.move_mouse(point.x, point.y).await)?;
        self.after(format!("Moved the mouse to ({}, {}).", point.x, point.y))
            .await
    }

    pub(crate) async fn type_here(&mut self, args: arguments::TypeTextArgs) -> Outcome {
        check_text_length(&args.text)?;
        let typed = self.browser.secrets.fill_in("type", &args.text)?;
        self.type_focused(&typed, typed != args.text, args.submit)
            .await?;
        self.after(typed_line(None, &args.text, args.submit)).await
    }

    pub(crate) async fn scroll_at(&mut self, args: arguments::ScrollAtArgs) -> Outcome {
        let viewport = self.browser.driver.viewport().await?;
        let (x, y) = (
            args.x.unwrap_or(f64::from(viewport.width) / 2.0),
            args.y.unwrap_or(f64::from(viewport.height) / 2.0),
        );
        let (dx, dy) = delta(args.direction, args.pixels, viewport)?;
        self.browser.on_screen("scroll", x, y).await?;
        done_if_interrupted(self.browser.driver.wheel(x, y, dx, dy).await)?;
        self.after(format!("Scrolled {}.", direction_word(args.direction)))
            .await
    }
}
