//! A [`Driver`](crate::Driver) with no browser behind it (feature `fake`),
//! for unit tests of what sits above the trait: the numbering, the tools'
//! dispatch, their refusals and bounds. It is a [`BrowserSession`] behind
//! the same [`SessionDriver`] as the real backends, so the argument checks,
//! the capability checks and the supervision are the ones they get.
//!
//! It serves pages it is given ([`FakeDriver::page`]): a navigation to one
//! makes it current, and a snapshot of the walker (the marks script's
//! `snapshot`, `find` or `read` request) answers with its lines, as the
//! walker would. Any
//! other script answers as a settled page does; every call is recorded
//! ([`FakeDriver::calls`]) so a test can tell that a refused call never
//! reached the browser. A dialog can be opened on the page
//! ([`FakeDriver::open_dialog`]): every call that needs the page then fails
//! as a real one does.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use serde_json::{json, Value};

use crate::backend::{BrowserSession, SessionDriver};
use crate::{
    Capabilities, Capability, Click, ConsoleEntry, Dialog, Download, DriverError, KeyPress,
    Navigation, Options, Request, Result, ScreenshotOptions, Tab, TabId, Viewport,
};

/// A page the fake serves.
#[derive(Debug, Clone, Default)]
pub struct FakePage {
    /// Its address.
    pub url: String,
    /// Its title.
    pub title: String,
    /// Its document's identity: another one is another document (a
    /// navigation), the same one a page that changed in place.
    pub document: String,
    /// What a snapshot reads of it, in order.
    pub lines: Vec<FakeLine>,
}

/// A line of a fake page.
#[derive(Debug, Clone)]
pub enum FakeLine {
    /// A heading (level 1).
    Heading(String),
    /// A line of text.
    Text(String),
    /// An element: its local id in the document, its role and name, and
    /// the text of its row (see the marks crate's `Element::row`).
    Element {
        /// Its local id (another id is another element).
        id: u32,
        /// Its role.
        role: String,
        /// Its name.
        name: String,
        /// Its row's text; empty for none.
        row: String,
    },
}

#[derive(Debug, Default)]
struct State {
    pages: HashMap<String, FakePage>,
    current: FakePage,
    dialog: Option<Dialog>,
    calls: Vec<String>,
}

type Shared = Arc<Mutex<State>>;

/// A fake browser serving [`FakePage`]s, and a driver over it: see the
/// module docs. It derefs to the driver (a
/// [`SessionDriver`]`<`[`FakeSession`]`>`, a [`Driver`](crate::Driver));
/// [`driver`](Self::driver) makes another driver over the same fake, for
/// what a test hands its driver to while it keeps this one.
pub struct FakeDriver {
    state: Shared,
    driver: SessionDriver<FakeSession>,
}

/// Another handle on the same fake, with a driver of its own.
impl Clone for FakeDriver {
    fn clone(&self) -> Self {
        Self {
            driver: driver_over(&self.state),
            state: Arc::clone(&self.state),
        }
    }
}

impl Default for FakeDriver {
    fn default() -> Self {
        Self::new()
    }
}

impl std::ops::Deref for FakeDriver {
    type Target = SessionDriver<FakeSession>;

    fn deref(&self) -> &Self::Target {
        &self.driver
    }
}

impl FakeDriver {
    /// A fake on `about:blank`.
    pub fn new() -> Self {
        let state = Shared::default();
        with(&state, |state| {
            state.current = FakePage {
                url: "about:blank".to_owned(),
                document: "blank".to_owned(),
                ..FakePage::default()
            };
        });
        Self {
            driver: driver_over(&state),
            state,
        }
    }

    /// Another driver over this fake (its pages, its dialog, its record
    /// of calls).
    pub fn driver(&self) -> SessionDriver<FakeSession> {
        driver_over(&self.state)
    }

    /// Serves `page` at its URL (and, if it is the current page's URL,
    /// shows it now: the page changed in place or was re-rendered).
    pub fn page(&self, page: FakePage) {
        with(&self.state, |state| {
            if state.current.url == page.url {
                state.current = page.clone();
            }
            state.pages.insert(page.url.clone(), page);
        });
    }

    /// Opens a dialog on the page, as a script calling `alert` would.
    pub fn open_dialog(&self, dialog: Dialog) {
        with(&self.state, |state| state.dialog = Some(dialog));
    }

    /// The calls that reached the fake browser so far, by method name (a
    /// call the driver refused before asking it is not among them).
    pub fn calls(&self) -> Vec<String> {
        with(&self.state, |state| state.calls.clone())
    }
}

fn with<T>(state: &Shared, f: impl FnOnce(&mut State) -> T) -> T {
    let mut state = state
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    f(&mut state)
}

fn driver_over(state: &Shared) -> SessionDriver<FakeSession> {
    let state = Arc::clone(state);
    SessionDriver::with_start(Options::default(), move |_| {
        let state = Arc::clone(&state);
        Box::pin(async move { Ok(FakeSession { state }) })
    })
}

/// The fake's [`BrowserSession`]: every driver over one fake shares its
/// state.
pub struct FakeSession {
    state: Shared,
}

impl FakeSession {
    fn with<T>(&self, f: impl FnOnce(&mut State) -> T) -> T {
        with(&self.state, f)
    }

    fn record(&self, call: &str) {
        self.with(|state| state.calls.push(call.to_owned()));
    }

    fn blocked(&self) -> Result<()> {
        match self.with(|state| state.dialog.clone()) {
            Some(dialog) => Err(DriverError::DialogOpen {
                kind: dialog.kind,
                message: dialog.message,
            }),
            None => Ok(()),
        }
    }

    /// Where the current page is, as a navigation answers.
    fn here(&self) -> Navigation {
        Navigation {
            status: Some(200),
            url: self.with(|state| state.current.url.clone()).into(),
        }
    }

    /// What the walker answers for a snapshot of the current page.
    fn snapshot(&self) -> Value {
        let page = self.with(|state| state.current.clone());
        let mut items = Vec::new();
        let mut elements = Vec::new();
        for (index, line) in page.lines.iter().enumerate() {
            let y = 20 * index as i64;
            match line {
                FakeLine::Heading(text) => {
                    items.push(json!({ "k": "h", "level": 1, "text": text, "y": y }))
                }
                FakeLine::Text(text) => items.push(json!({ "k": "t", "text": text, "y": y })),
                FakeLine::Element {
                    id,
                    role,
                    name,
                    row,
                } => {
                    items.push(json!({ "k": "e", "id": id }));
                    let mut record = json!({
                        "id": id, "role": role, "name": name, "offscreen": false,
                        "box": { "x": 10, "y": y, "w": 100, "h": 18 },
                    });
                    if !row.is_empty() {
                        record["row"] = json!(row);
                    }
                    elements.push(record);
                }
            }
        }
        json!({
            "doc": page.document, "title": page.title, "url": page.url, "origin": "null",
            "status": 200, "viewport": { "w": 1280, "h": 800 }, "scroll": { "x": 0, "y": 0 },
            "page": { "w": 1280, "h": 800 }, "items": items, "elements": elements,
            "beyond": [], "read": null,
        })
    }
}

/// Why the fake cannot do what a browser's protocol gives.
const NO_BROWSER: &str = "the fake driver has no browser";

#[async_trait]
impl BrowserSession for FakeSession {
    async fn start(_options: Options) -> Result<Self> {
        Ok(Self {
            state: Shared::default(),
        })
    }

    fn capabilities(_options: &Options, _session: Option<&Self>) -> Capabilities {
        let mut capabilities = Capabilities::full("fake");
        for capability in [
            Capability::LossyScreenshots,
            Capability::FullPageScreenshots,
            Capability::Screencast,
            Capability::DownloadReports,
            Capability::IsolatedWorld,
            Capability::RequestTracking,
            Capability::SharedBrowser,
            Capability::DevTools,
            Capability::NetworkLog,
            Capability::PaintProbe,
            Capability::BrowserTree,
            Capability::PageTools,
            Capability::CountedWords,
            Capability::StopScripts,
            Capability::HtmlDrag,
            Capability::CompositedPictures,
            Capability::PicturesBeyondViewport,
        ] {
            capabilities = capabilities.without(capability, NO_BROWSER);
        }
        capabilities
    }

    fn gone(&mut self) -> Option<String> {
        None
    }

    async fn recover(&mut self) -> bool {
        true
    }

    async fn shutdown(self) {
        self.record("close");
    }

    async fn navigate(&mut self, url: &str) -> Result<Navigation> {
        self.record("navigate");
        self.blocked()?;
        self.with(|state| {
            state.current = state.pages.get(url).cloned().unwrap_or_else(|| FakePage {
                url: url.to_owned(),
                document: format!("doc of {url}"),
                ..FakePage::default()
            });
        });
        Ok(self.here())
    }

    async fn history(&mut self, delta: i32) -> Result<Navigation> {
        self.record(if delta < 0 { "back" } else { "forward" });
        Ok(self.here())
    }

    async fn reload(&mut self) -> Result<Navigation> {
        self.record("reload");
        Ok(self.here())
    }

    async fn eval(&mut self, expression: &str) -> Result<Value> {
        self.record("eval");
        self.blocked()?;
        if [r#""op":"snapshot""#, r#""op":"find""#, r#""op":"read""#]
            .iter()
            .any(|op| expression.contains(op))
        {
            return Ok(self.snapshot());
        }
        if expression.contains(r#""op":"#) {
            // Acting on an element is the browser's: the fake has none.
            return Ok(json!({ "error": "gone" }));
        }
        if expression == "location.href" {
            return Ok(json!(self.with(|state| state.current.url.clone())));
        }
        if expression.contains("innerWidth") {
            return Ok(json!({ "width": 1280, "height": 800 }));
        }
        Ok(json!({ "settled": true }))
    }

    async fn eval_in_frame(&mut self, _frame: &[u32], expression: &str) -> Result<Value> {
        self.eval(expression).await
    }

    async fn click(&mut self, _x: f64, _y: f64, _click: Click) -> Result<()> {
        self.record("click_at");
        self.blocked()
    }

    async fn move_mouse(&mut self, _x: f64, _y: f64) -> Result<()> {
        self.record("move_mouse");
        self.blocked()
    }

    async fn wheel(&mut self, _x: f64, _y: f64, _dx: f64, _dy: f64) -> Result<()> {
        self.record("wheel");
        self.blocked()
    }

    async fn type_text(&mut self, _text: &str) -> Result<()> {
        self.record("type_text");
        self.blocked()
    }

    async fn press(&mut self, _key: KeyPress) -> Result<()> {
        self.record("press");
        self.blocked()
    }

    async fn screenshot(&mut self, _options: ScreenshotOptions) -> Result<Vec<u8>> {
        self.record("screenshot");
        self.blocked()?;
        Ok(Vec::new())
    }

    async fn viewport(&mut self) -> Result<Viewport> {
        Ok(Viewport {
            width: 1280,
            height: 800,
        })
    }

    async fn set_viewport(&mut self, _viewport: Viewport) -> Result<()> {
        self.record("set_viewport");
        Ok(())
    }

    async fn devtools(&mut self, _method: &str, _params: Value) -> Result<Value> {
        Err(DriverError::Protocol(NO_BROWSER.to_owned()))
    }

    async fn network_log(&mut self) -> Result<Vec<Request>> {
        Err(DriverError::Protocol(NO_BROWSER.to_owned()))
    }

    async fn current_tab(&mut self) -> Result<TabId> {
        Ok(TabId("fake".to_owned()))
    }

    async fn tabs(&mut self) -> Result<Vec<Tab>> {
        let (title, url) =
            self.with(|state| (state.current.title.clone(), state.current.url.clone()));
        Ok(vec![Tab {
            id: TabId("fake".to_owned()),
            title: title.into(),
            url: url.into(),
            current: true,
        }])
    }

    async fn open_tab(&mut self) -> Result<TabId> {
        self.record("open_tab");
        Err(DriverError::Protocol(
            "the fake driver has one tab".to_owned(),
        ))
    }

    async fn switch_tab(&mut self, _id: &TabId) -> Result<()> {
        self.record("switch_tab");
        Ok(())
    }

    async fn close_tab(&mut self, _id: &TabId) -> Result<()> {
        self.record("close_tab");
        Ok(())
    }

    async fn console(&mut self) -> Result<Vec<ConsoleEntry>> {
        Ok(Vec::new())
    }

    async fn downloads(&mut self) -> Result<Vec<Download>> {
        Ok(Vec::new())
    }

    async fn dialog(&mut self) -> Result<Option<Dialog>> {
        Ok(self.with(|state| state.dialog.clone()))
    }

    async fn answer_dialog(&mut self, _accept: bool, _prompt_text: Option<&str>) -> Result<()> {
        self.record("answer_dialog");
        match self.with(|state| state.dialog.take()) {
            Some(_) => Ok(()),
            None => Err(DriverError::NoDialog),
        }
    }
}
