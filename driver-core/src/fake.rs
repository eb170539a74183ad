//! A [`Driver`] with no browser behind it (feature `fake`), for unit tests
//! of what sits above the trait: the numbering, the tools' dispatch, their
//! refusals and bounds.
//!
//! It serves pages it is given ([`FakeDriver::page`]): a navigation to one
//! makes it current, and a snapshot of the walker (the marks script's
//! `snapshot` operation) answers with its lines, as the walker would. Any
//! other script answers as a settled page does; every call is recorded
//! ([`FakeDriver::calls`]) so a test can tell that a refused call never
//! reached the browser. A dialog can be opened on the page
//! ([`FakeDriver::open_dialog`]): every call that needs the page then fails
//! as a real one does.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use serde_json::{json, Value};

use crate::{
    Capabilities, Capability, ConsoleEntry, Dialog, Download, Driver, DriverError, KeyPress,
    Navigation, Result, ScreenshotOptions, Tab, TabId, Viewport, WaitFor,
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

/// A driver that serves [`FakePage`]s: see the module docs. A clone is
/// the same fake (one state), so a test keeps one while what it tests owns
/// another.
#[derive(Debug, Default, Clone)]
pub struct FakeDriver {
    state: Arc<Mutex<State>>,
}

impl FakeDriver {
    /// A fake on `about:blank`.
    pub fn new() -> Self {
        let driver = Self::default();
        driver.with(|state| {
            state.current = FakePage {
                url: "about:blank".to_owned(),
                document: "blank".to_owned(),
                ..FakePage::default()
            };
        });
        driver
    }

    fn with<T>(&self, f: impl FnOnce(&mut State) -> T) -> T {
        let mut state = self
            .state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        f(&mut state)
    }

    /// Serves `page` at its URL (and, if it is the current page's URL,
    /// shows it now: the page changed in place or was re-rendered).
    pub fn page(&self, page: FakePage) {
        self.with(|state| {
            if state.current.url == page.url {
                state.current = page.clone();
            }
            state.pages.insert(page.url.clone(), page);
        });
    }

    /// Opens a dialog on the page, as a script calling `alert` would.
    pub fn open_dialog(&self, dialog: Dialog) {
        self.with(|state| state.dialog = Some(dialog));
    }

    /// The calls made so far, by method name.
    pub fn calls(&self) -> Vec<String> {
        self.with(|state| state.calls.clone())
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

#[async_trait]
impl Driver for FakeDriver {
    fn capabilities(&self) -> Capabilities {
        const WHY: &str = "the fake driver has no browser";
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
        ] {
            capabilities = capabilities.without(capability, WHY);
        }
        capabilities
    }

    async fn navigate(&self, url: &str) -> Result<Navigation> {
        self.record("navigate");
        self.blocked()?;
        self.with(|state| {
            state.current = state.pages.get(url).cloned().unwrap_or_else(|| FakePage {
                url: url.to_owned(),
                document: format!("doc of {url}"),
                ..FakePage::default()
            });
        });
        Ok(Navigation {
            status: Some(200),
            url: url.to_owned(),
        })
    }

    async fn eval(&self, expression: &str) -> Result<Value> {
        self.record("eval");
        self.blocked()?;
        if expression.contains(r#""op":"snapshot""#) {
            return Ok(self.snapshot());
        }
        if expression.contains(r#""op":"#) {
            // Acting on an element is the browser's: the fake has none.
            return Ok(json!({ "error": "gone" }));
        }
        if expression == "location.href" {
            return Ok(json!(self.with(|state| state.current.url.clone())));
        }
        Ok(json!({ "settled": true }))
    }

    async fn eval_in_frame(&self, _frame: &[u32], expression: &str) -> Result<Value> {
        self.eval(expression).await
    }

    async fn click(&self, _selector: &str) -> Result<()> {
        self.record("click");
        self.blocked()
    }

    async fn click_at(&self, _x: f64, _y: f64) -> Result<()> {
        self.record("click_at");
        self.blocked()
    }

    async fn move_mouse(&self, _x: f64, _y: f64) -> Result<()> {
        self.record("move_mouse");
        self.blocked()
    }

    async fn wheel(&self, _x: f64, _y: f64, _dx: f64, _dy: f64) -> Result<()> {
        self.record("wheel");
        self.blocked()
    }

    async fn send_keys(&self, _selector: &str, _text: &str) -> Result<()> {
        self.record("send_keys");
        self.blocked()
    }

    async fn type_text(&self, _text: &str) -> Result<()> {
        self.record("type_text");
        self.blocked()
    }

    async fn press(&self, _key: KeyPress) -> Result<()> {
        self.record("press");
        self.blocked()
    }

    async fn screenshot(&self, _options: ScreenshotOptions) -> Result<Vec<u8>> {
        self.record("screenshot");
        self.blocked()?;
        Ok(Vec::new())
    }

    async fn text(&self, _selector: &str) -> Result<String> {
        self.record("text");
        Ok(String::new())
    }

    async fn value(&self, _selector: &str) -> Result<String> {
        self.record("value");
        Ok(String::new())
    }

    async fn wait_for(&self, _selector: &str, _condition: WaitFor) -> Result<()> {
        self.record("wait_for");
        Ok(())
    }

    async fn back(&self) -> Result<Navigation> {
        self.record("back");
        let url = self.with(|state| state.current.url.clone());
        Ok(Navigation {
            status: Some(200),
            url,
        })
    }

    async fn forward(&self) -> Result<Navigation> {
        self.record("forward");
        self.back().await
    }

    async fn reload(&self) -> Result<Navigation> {
        self.record("reload");
        self.back().await
    }

    async fn current_tab(&self) -> Result<TabId> {
        Ok(TabId("fake".to_owned()))
    }

    async fn tabs(&self) -> Result<Vec<Tab>> {
        let (title, url) =
            self.with(|state| (state.current.title.clone(), state.current.url.clone()));
        Ok(vec![Tab {
            id: TabId("fake".to_owned()),
            title,
            url,
            current: true,
        }])
    }

    async fn open_tab(&self, _url: Option<&str>) -> Result<Tab> {
        self.record("open_tab");
        Err(DriverError::Protocol(
            "the fake driver has one tab".to_owned(),
        ))
    }

    async fn switch_tab(&self, _id: &TabId) -> Result<()> {
        self.record("switch_tab");
        Ok(())
    }

    async fn close_tab(&self, _id: &TabId) -> Result<()> {
        self.record("close_tab");
        Ok(())
    }

    async fn viewport(&self) -> Result<Viewport> {
        Ok(Viewport {
            width: 1280,
            height: 800,
        })
    }

    async fn set_viewport(&self, _viewport: Viewport) -> Result<()> {
        self.record("set_viewport");
        Ok(())
    }

    async fn console(&self) -> Result<Vec<ConsoleEntry>> {
        Ok(Vec::new())
    }

    async fn downloads(&self) -> Result<Vec<Download>> {
        Ok(Vec::new())
    }

    async fn dialog(&self) -> Result<Option<Dialog>> {
        Ok(self.with(|state| state.dialog.clone()))
    }

    async fn answer_dialog(&self, _accept: bool, _prompt_text: Option<&str>) -> Result<()> {
        self.record("answer_dialog");
        match self.with(|state| state.dialog.take()) {
            Some(_) => Ok(()),
            None => Err(DriverError::Protocol("no dialog is open".to_owned())),
        }
    }

    async fn close(&self) -> Result<()> {
        self.record("close");
        Ok(())
    }
}
