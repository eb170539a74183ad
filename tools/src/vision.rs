//! The vision-mode tools that differ from the text mode's: pointing at
//! pixels and typing into the focused element, each answered with a picture
//! (`after_vision`).

use driver_core::Driver;

use crate::arguments;
use crate::operator::{done_if_interrupted, Operator};
use crate::output::{typed_line, Outcome};
use crate::state::State;
use crate::validate::{check_text_length, delta, direction_word};

impl Operator {
    pub(crate) async fn click_point(
        &self,
        state: &mut State,
        point: arguments::ClickPointArgs,
    ) -> Outcome {
        let click = arguments::click_kind(point.button, point.count, &point.modifiers)?;
        self.on_screen("click", point.x, point.y).await?;
        done_if_interrupted(marks::press_at_with(&self.driver, point.x, point.y, click).await)?;
        self.after(
            state,
            arguments::clicked(click, &format!("at ({}, {})", point.x, point.y)),
        )
        .await
    }

    pub(crate) async fn hover_point(
        &self,
        state: &mut State,
        point: arguments::PointArgs,
    ) -> Outcome {
        self.on_screen("hover", point.x, point.y).await?;
        done_if_interrupted(self.driver.move_mouse(point.x, point.y).await)?;
        self.after(
            state,
            format!("Moved the mouse to ({}, {}).", point.x, point.y),
        )
        .await
    }

    pub(crate) async fn type_here(
        &self,
        state: &mut State,
        args: arguments::TypeTextArgs,
    ) -> Outcome {
        check_text_length(&args.text)?;
        let typed = self.secrets.fill_in("type", &args.text)?;
        self.type_focused(&typed, args.submit).await?;
        self.after(state, typed_line(None, &args.text, args.submit))
            .await
    }

    pub(crate) async fn scroll_at(
        &self,
        state: &mut State,
        args: arguments::ScrollAtArgs,
    ) -> Outcome {
        let viewport = self.driver.viewport().await?;
        let (x, y) = (
            args.x.unwrap_or(f64::from(viewport.width) / 2.0),
            args.y.unwrap_or(f64::from(viewport.height) / 2.0),
        );
        let (dx, dy) = delta(args.direction, args.pixels, viewport)?;
        self.on_screen("scroll", x, y).await?;
        done_if_interrupted(self.driver.wheel(x, y, dx, dy).await)?;
        self.after(
            state,
            format!("Scrolled {}.", direction_word(args.direction)),
        )
        .await
    }
}
