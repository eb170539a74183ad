//! Input as a person gives it: the mouse (clicks, moves, the wheel) and the
//! keyboard (text, keys with modifiers), as W3C actions; as DevTools input
//! events through chromedriver's CDP bridge where actions cannot serve (the
//! wheel; a page that broke chromedriver's scripting, which its actions
//! need). The actions themselves are `actions.rs`'s, shared with Firefox.

use driver_core::backend::devtools::names;
use serde_json::{json, Value};

use driver_core::backend::input;
use driver_core::{DriverError, KeyPress, Result};

use crate::actions;
use crate::session::WdSession;

impl WdSession {
    /// A click as `click` says, as W3C actions: the modifiers go down on a
    /// keyboard source while the pointer waits, then the pointer presses
    /// (each press of a double click within the double-click time), then
    /// the modifiers come up.
    pub(crate) async fn click_with(
        &mut self,
        x: f64,
        y: f64,
        click: driver_core::Click,
    ) -> Result<()> {
        let sources = actions::click(x, y, click);
        let acted = self.all_actions(sources).await;
        let acted = self
            .or_by_bridge(
                acted,
                names::INPUT_DISPATCH_MOUSE_EVENT,
                input::click_events_with(x, y, click),
            )
            .await;
        self.unless_tab_gone(acted).await
    }

    pub(crate) async fn move_mouse(&mut self, x: f64, y: f64) -> Result<()> {
        // Nothing is pressed by a move: no actions to release after it.
        let acted = self.perform(vec![actions::mouse(x, y, &[])]).await;
        let acted = self
            .or_by_bridge(
                acted,
                names::INPUT_DISPATCH_MOUSE_EVENT,
                [input::move_event(x, y)],
            )
            .await;
        self.unless_tab_gone(acted).await
    }

    pub(crate) async fn wheel(&mut self, x: f64, y: f64, dx: f64, dy: f64) -> Result<()> {
        self.focus_current().await?;
        // A wheel sent before the compositor has the page's latest frame
        // scrolls nothing (on a busy machine, right after a load, on both
        // backends): wait for a painted frame first. The DevTools wheel
        // event goes through the CDP bridge where the remote end has one;
        // the W3C action is for the others.
        let _ = self.eval_isolated(&[], input::PAINTED_FRAME).await;
        let event = input::wheel_event(x, y, dx, dy);
        match self.cdp(names::INPUT_DISPATCH_MOUSE_EVENT, event).await {
            Err(DriverError::Protocol(_)) => {}
            other => return other.map(|_| ()),
        }
        let wheel = actions::wheel(x, y, dx, dy);
        self.actions(wheel).await
    }

    pub(crate) async fn type_text(&mut self, text: &str) -> Result<()> {
        let Some(keys) = actions::typed(text) else {
            return Ok(());
        };
        let acted = self.actions(keys).await;
        let events: Vec<Value> = input::typed(text).flat_map(input::key_events).collect();
        let acted = self
            .or_by_bridge(acted, names::INPUT_DISPATCH_KEY_EVENT, events)
            .await;
        self.unless_tab_gone(acted).await
    }

    pub(crate) async fn press(&mut self, press: KeyPress) -> Result<()> {
        let acted = self.actions(actions::key(press)).await;
        let acted = self
            .or_by_bridge(
                acted,
                names::INPUT_DISPATCH_KEY_EVENT,
                input::key_events(press),
            )
            .await;
        self.unless_tab_gone(acted).await
    }

    /// What W3C actions did, or, where they could not run because the page
    /// broke chromedriver's scripting, the same as DevTools input events
    /// through the CDP bridge.
    async fn or_by_bridge(
        &self,
        acted: Result<()>,
        command: &str,
        events: impl IntoIterator<Item = Value>,
    ) -> Result<()> {
        match acted {
            Err(DriverError::Unscriptable { .. }) => {
                for event in events {
                    self.cdp(command, event).await?;
                }
                Ok(())
            }
            other => other,
        }
    }

    pub(crate) async fn actions(&self, sequence: Value) -> Result<()> {
        self.all_actions(vec![sequence]).await
    }

    /// Several input sources' actions, tick by tick together, then
    /// released: the remote end forgets what was pressed, so a click that
    /// follows soon after at the same point is not counted a double click.
    /// (Not after a failure: with a dialog open, the release would have
    /// the remote end deal with the dialog.)
    async fn all_actions(&self, sources: Vec<Value>) -> Result<()> {
        self.perform(sources).await?;
        self.raw(http::Method::DELETE, "actions", None).await?;
        Ok(())
    }

    /// Several input sources' actions, tick by tick together, not released
    /// after (for what presses nothing).
    async fn perform(&self, sources: Vec<Value>) -> Result<()> {
        self.raw(
            http::Method::POST,
            "actions",
            Some(json!({ "actions": sources })),
        )
        .await
        .map(|_| ())
    }
}
