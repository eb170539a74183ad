//! [`Pack`]: dispatch of tool calls onto a guarded browser, and the text and
//! pictures each call answers with.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::time::Duration;

use driver_core::{
    ConsoleEntry, ConsoleLevel, Driver, DriverError, KeyPress, ScreenshotFormat, ScreenshotOptions,
    TabId,
};
use guard::GuardedDriver;
use marks::{Marks, MarksError, RenderOptions, Snapshot, SnapshotOptions};
use serde::de::DeserializeOwned;
use serde_json::Value;
use tokio::sync::Mutex;

use crate::defs::{self, Direction, ImageFormat, TabAction, ToolDef};
use crate::error::{dialog_sentence, ToolError};
use crate::settle::{settle, Settled};

/// How a [`Pack`] behaves. `PackOptions::default()` is the text mode most
/// models want.
#[derive(Debug, Clone)]
pub struct PackOptions {
    /// Vision mode: pointing tools answered with screenshots instead of
    /// snapshots. Default `false`.
    pub vision: bool,
    /// The most tokens (characters / 4) of snapshot text one answer carries;
    /// the rest is read in parts. Default 6,000: a screenful of a busy page
    /// fits with room to spare.
    pub budget_tokens: usize,
    /// The longest an action waits for the page to settle. Default 3 s; a
    /// page still busy then is read as it is, and the answer says so.
    pub settle_cap: Duration,
    /// How long the DOM must be still to count as settled. Default 40 ms:
    /// two to three frames.
    pub quiet: Duration,
    /// The encoding of vision-mode screenshots. Default JPEG at quality 60:
    /// about a tenth of a PNG's size, still legible.
    pub vision_format: ScreenshotFormat,
}

impl Default for PackOptions {
    fn default() -> Self {
        Self {
            vision: false,
            budget_tokens: 6_000,
            settle_cap: Duration::from_secs(3),
            quiet: Duration::from_millis(40),
            vision_format: ScreenshotFormat::Jpeg(60),
        }
    }
}

/// A picture in a tool's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    /// `image/png`, `image/jpeg` or `image/webp`.
    pub mime_type: &'static str,
    /// The encoded bytes.
    pub data: Vec<u8>,
}

impl Image {
    /// The bytes in base64, as MCP and most model APIs carry images.
    pub fn base64(&self) -> String {
        use base64::Engine;
        base64::engine::general_purpose::STANDARD.encode(&self.data)
    }
}

/// What a tool call answers: text for the model, maybe pictures, and whether
/// it failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolOutput {
    /// What the model reads.
    pub text: String,
    /// Screenshots, if the tool takes them.
    pub images: Vec<Image>,
    /// The call failed; `text` says why and what to do.
    pub is_error: bool,
}

impl ToolOutput {
    fn text(text: String) -> Self {
        Self {
            text,
            images: Vec::new(),
            is_error: false,
        }
    }

    fn error(error: &ToolError) -> Self {
        Self {
            text: error.for_model(),
            images: Vec::new(),
            is_error: true,
        }
    }
}

/// What the pack remembers between calls, to tell the model what changed.
#[derive(Debug, Default)]
struct State {
    /// Guard refusals already reported.
    refusals_seen: usize,
    /// Console entries not yet read with the `console` tool.
    console: Vec<ConsoleEntry>,
    /// The tabs after the previous call, oldest first.
    tabs: Vec<TabId>,
    /// The URL of the last page shown.
    url: Option<String>,
    /// HTTP statuses of the documents the pack navigated to, by URL.
    statuses: HashMap<String, u16>,
    /// A dialog was reported open and not yet answered.
    dialog_open: bool,
}

/// The most console entries kept for the `console` tool.
const CONSOLE_KEPT: usize = 500;

/// How long a tab that just opened may take to report its URL.
const NEW_TAB_WAIT: Duration = Duration::from_secs(1);

/// The longest `wait_for` waits.
const WAIT_LIMIT: Duration = Duration::from_secs(30);

/// The tool pack: a model's browser. See the crate docs.
pub struct Pack {
    driver: GuardedDriver,
    marks: Marks,
    options: PackOptions,
    state: Mutex<State>,
}

type Outcome = Result<ToolOutput, ToolError>;

impl Pack {
    /// A pack over a guarded browser (see `tabwright::browser`). The browser
    /// starts on the first call.
    pub fn new(driver: GuardedDriver, options: PackOptions) -> Self {
        Self {
            driver,
            marks: Marks::new(),
            options,
            state: Mutex::new(State::default()),
        }
    }

    /// The browser under the pack.
    pub fn driver(&self) -> &GuardedDriver {
        &self.driver
    }

    /// The tools this pack answers, in the order a model is shown them.
    pub fn tools(&self) -> &'static [ToolDef] {
        if self.options.vision {
            defs::vision_tools()
        } else {
            defs::text_tools()
        }
    }

    /// Runs one tool call. Never fails and never panics: every problem is an
    /// answer with `is_error` and a sentence saying what to do. Calls are
    /// served one at a time.
    pub async fn call(&self, name: &str, arguments: Value) -> ToolOutput {
        let mut state = self.state.lock().await;
        let call = std::panic::AssertUnwindSafe(self.dispatch(&mut state, name, arguments));
        match futures_catch(call).await {
            Ok(Ok(output)) => output,
            Ok(Err(error)) => {
                tracing::info!(tool = name, %error, "tool call failed");
                ToolOutput::error(&error)
            }
            Err(panic) => {
                tracing::error!(tool = name, panic, "a tool call panicked");
                ToolOutput {
                    text: format!("The {name} call failed inside tabwright (a bug: {panic}); try again or take a snapshot."),
                    images: Vec::new(),
                    is_error: true,
                }
            }
        }
    }

    /// Closes the browser.
    pub async fn close(&self) {
        let _ = self.driver.close().await;
    }

    async fn dispatch(&self, state: &mut State, name: &str, arguments: Value) -> Outcome {
        let Some(tool) = self.tools().iter().find(|tool| tool.name == name) else {
            return Err(ToolError::UnknownTool {
                name: name.chars().take(100).collect(),
                known: self.tools().iter().map(|tool| tool.name).collect(),
            });
        };
        let tool = tool.name;
        // An action under an open dialog would not happen: say so, rather
        // than report it done.
        if state.dialog_open && !matches!(tool, "dialog" | "tabs" | "console" | "close") {
            match self.driver.dialog().await? {
                Some(open) => {
                    return Err(DriverError::DialogOpen {
                        kind: open.kind,
                        message: open.message,
                    }
                    .into())
                }
                None => state.dialog_open = false,
            }
        }
        let arguments = match arguments {
            Value::Null => Value::Object(Default::default()),
            other => other,
        };
        match (self.options.vision, tool) {
            (_, "open") => self.open(state, parse(tool, arguments)?).await,
            (_, "back") | (_, "forward") => {
                parse::<defs::NoArgs>(tool, arguments)?;
                self.history(state, tool).await
            }
            (_, "tabs") => self.tabs(state, parse(tool, arguments)?).await,
            (_, "screenshot") => self.screenshot(parse(tool, arguments)?).await,
            (_, "wait_for") => self.wait_for(state, parse(tool, arguments)?).await,
            (_, "console") => {
                parse::<defs::NoArgs>(tool, arguments)?;
                self.console(state).await
            }
            (_, "dialog") => self.dialog(state, parse(tool, arguments)?).await,
            (_, "close") => {
                parse::<defs::NoArgs>(tool, arguments)?;
                self.driver.close().await?;
                *state = State::default();
                Ok(ToolOutput::text(
                    "Closed the browser; the next call starts a fresh one.".to_owned(),
                ))
            }
            (_, "press") => self.press(state, parse(tool, arguments)?).await,
            (false, "snapshot") => self.snapshot(state, parse(tool, arguments)?).await,
            (false, "click") => self.click(state, parse(tool, arguments)?).await,
            (false, "type") => self.type_text(state, parse(tool, arguments)?).await,
            (false, "select") => self.select(state, parse(tool, arguments)?).await,
            (false, "hover") => self.hover(state, parse(tool, arguments)?).await,
            (false, "scroll") => self.scroll(state, parse(tool, arguments)?).await,
            (true, "click") => {
                let point: defs::PointArgs = parse(tool, arguments)?;
                self.on_screen(tool, point.x, point.y).await?;
                acted(self.driver.click_at(point.x, point.y).await)?;
                self.after(state, format!("Clicked at ({}, {}).", point.x, point.y))
                    .await
            }
            (true, "hover") => {
                let point: defs::PointArgs = parse(tool, arguments)?;
                self.on_screen(tool, point.x, point.y).await?;
                acted(self.driver.move_mouse(point.x, point.y).await)?;
                self.after(
                    state,
                    format!("Moved the mouse to ({}, {}).", point.x, point.y),
                )
                .await
            }
            (true, "type") => {
                let args: defs::TypeTextArgs = parse(tool, arguments)?;
                check_text_length(&args.text)?;
                self.type_focused(&args.text, args.submit).await?;
                self.after(state, typed_line(None, &args.text, args.submit))
                    .await
            }
            (true, "scroll") => {
                let args: defs::ScrollAtArgs = parse(tool, arguments)?;
                let viewport = self.driver.viewport().await?;
                let (x, y) = (
                    args.x.unwrap_or(f64::from(viewport.width) / 2.0),
                    args.y.unwrap_or(f64::from(viewport.height) / 2.0),
                );
                let (dx, dy) = delta(args.direction, args.pixels, viewport)?;
                self.on_screen(tool, x, y).await?;
                acted(self.driver.wheel(x, y, dx, dy).await)?;
                self.after(
                    state,
                    format!("Scrolled {}.", direction_word(args.direction)),
                )
                .await
            }
            _ => Err(ToolError::UnknownTool {
                name: tool.to_owned(),
                known: self.tools().iter().map(|tool| tool.name).collect(),
            }),
        }
    }

    // ---- the tools -----------------------------------------------------------

    async fn open(&self, state: &mut State, args: defs::OpenArgs) -> Outcome {
        let url = args.url.trim();
        if url.is_empty() {
            return Err(ToolError::bad("open", "url is empty"));
        }
        check_address(url)?;
        let (status, at) = if args.new_tab {
            let tab = self.driver.open_tab(Some(url)).await?;
            (None, tab.url)
        } else {
            let navigation = self.driver.navigate(url).await?;
            (navigation.status, navigation.url)
        };
        if let Some(status) = status {
            state.statuses.insert(at.clone(), status);
        }
        // The model asked for this URL: "URL changed" would be noise.
        state.url = Some(at.clone());
        let did = match (args.new_tab, status) {
            (true, _) => format!("Opened {at} in a new tab."),
            (false, Some(status)) if status >= 400 => {
                format!("Opened {at}: the server answered HTTP {status}.")
            }
            (false, _) => format!("Opened {at}."),
        };
        self.after(state, did).await
    }

    async fn snapshot(&self, state: &mut State, args: defs::SnapshotArgs) -> Outcome {
        let options = SnapshotOptions {
            full_page: args.full_page,
            scope: args.scope,
        };
        let render = RenderOptions {
            budget_tokens: Some(
                args.max_tokens
                    .map_or(self.options.budget_tokens, |tokens| tokens as usize),
            ),
            page: args.part.unwrap_or(1) as usize,
        };
        self.read(state, String::new(), options, render).await
    }

    async fn click(&self, state: &mut State, args: defs::ClickArgs) -> Outcome {
        match target("click", args.element, args.x, args.y)? {
            Target::Element(number) => {
                acted(self.marks.click(&self.driver, number).await)?;
                self.after(state, format!("Clicked [{number}].")).await
            }
            Target::Point(x, y) => {
                self.on_screen("click", x, y).await?;
                acted(self.driver.click_at(x, y).await)?;
                self.after(state, format!("Clicked at ({x}, {y}).")).await
            }
        }
    }

    async fn type_text(&self, state: &mut State, args: defs::TypeArgs) -> Outcome {
        check_text_length(&args.text)?;
        match args.element {
            Some(number) => {
                self.marks
                    .type_into(&self.driver, number, &args.text, !args.append)
                    .await?;
                if args.submit {
                    acted(
                        self.driver
                            .press(KeyPress::from(driver_core::Key::Enter))
                            .await,
                    )?;
                }
            }
            None => self.type_focused(&args.text, args.submit).await?,
        }
        self.after(state, typed_line(args.element, &args.text, args.submit))
            .await
    }

    async fn type_focused(&self, text: &str, submit: bool) -> Result<(), ToolError> {
        acted(self.driver.type_text(text).await)?;
        if submit {
            acted(
                self.driver
                    .press(KeyPress::from(driver_core::Key::Enter))
                    .await,
            )?;
        }
        Ok(())
    }

    async fn press(&self, state: &mut State, args: defs::PressArgs) -> Outcome {
        let presses = args
            .keys
            .split_whitespace()
            .map(|key| {
                key.parse::<KeyPress>()
                    .map_err(|_| ToolError::bad("press", format!("{key:?} is not a key name (try Enter, Tab, Escape, ArrowDown, a, Control+a)")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        if presses.is_empty() {
            return Err(ToolError::bad("press", "keys is empty"));
        }
        if presses.len() > 50 {
            return Err(ToolError::bad("press", "at most 50 keys at a time"));
        }
        for press in presses {
            acted(self.driver.press(press).await)?;
        }
        self.after(state, format!("Pressed {}.", args.keys.trim()))
            .await
    }

    async fn select(&self, state: &mut State, args: defs::SelectArgs) -> Outcome {
        if args.options.is_empty() {
            return Err(ToolError::bad(
                "select",
                "options is empty: name at least one option",
            ));
        }
        let chosen = self
            .marks
            .select(&self.driver, args.element, &args.options)
            .await?;
        self.after(
            state,
            format!("Selected {} in [{}].", quote_list(&chosen), args.element),
        )
        .await
    }

    async fn hover(&self, state: &mut State, args: defs::HoverArgs) -> Outcome {
        match target("hover", args.element, args.x, args.y)? {
            Target::Element(number) => {
                acted(self.marks.hover(&self.driver, number).await)?;
                self.after(state, format!("The mouse is over [{number}]."))
                    .await
            }
            Target::Point(x, y) => {
                self.on_screen("hover", x, y).await?;
                acted(self.driver.move_mouse(x, y).await)?;
                self.after(state, format!("The mouse is at ({x}, {y})."))
                    .await
            }
        }
    }

    async fn scroll(&self, state: &mut State, args: defs::ScrollArgs) -> Outcome {
        match (args.element, args.direction) {
            (Some(number), None) => {
                self.marks.scroll_to(&self.driver, number).await?;
                self.after(state, format!("Scrolled [{number}] into view."))
                    .await
            }
            (None, Some(direction)) => {
                let viewport = self.driver.viewport().await?;
                let (dx, dy) = delta(direction, args.pixels, viewport)?;
                match (args.x, args.y) {
                    (Some(x), Some(y)) => {
                        self.on_screen("scroll", x, y).await?;
                        acted(self.driver.wheel(x, y, dx, dy).await)?
                    }
                    (None, None) => {
                        self.driver
                            .eval(&format!(
                                "window.scrollBy({{ left: {dx}, top: {dy}, behavior: 'instant' }})"
                            ))
                            .await?;
                    }
                    _ => return Err(ToolError::bad("scroll", "give both x and y, or neither")),
                }
                self.after(state, format!("Scrolled {}.", direction_word(direction)))
                    .await
            }
            (Some(_), Some(_)) => Err(ToolError::bad(
                "scroll",
                "give either direction or element, not both",
            )),
            (None, None) => Err(ToolError::bad(
                "scroll",
                "give a direction (up, down, left, right) or an element number",
            )),
        }
    }

    async fn history(&self, state: &mut State, tool: &'static str) -> Outcome {
        let navigation = if tool == "back" {
            self.driver.back().await?
        } else {
            self.driver.forward().await?
        };
        if let Some(status) = navigation.status {
            state.statuses.insert(navigation.url.clone(), status);
        }
        state.url = Some(navigation.url.clone());
        let word = if tool == "back" { "back" } else { "forward" };
        self.after(state, format!("Went {word} to {}.", navigation.url))
            .await
    }

    async fn tabs(&self, state: &mut State, args: defs::TabsArgs) -> Outcome {
        let tabs = self.driver.tabs().await?;
        let pick = |number: u32| {
            usize::try_from(number)
                .ok()
                .and_then(|n| n.checked_sub(1))
                .and_then(|index| tabs.get(index))
                .ok_or(ToolError::NoTab {
                    number,
                    count: tabs.len(),
                })
        };
        match args.action {
            TabAction::List => {
                if args.tab.is_some() || args.url.is_some() {
                    return Err(ToolError::bad(
                        "tabs",
                        "list takes no tab or url (did you mean switch or new?)",
                    ));
                }
                state.tabs = tabs.iter().map(|tab| tab.id.clone()).collect();
                Ok(ToolOutput::text(tab_list(&tabs)))
            }
            TabAction::Switch => {
                let Some(number) = args.tab else {
                    return Err(ToolError::bad(
                        "tabs",
                        "switch needs tab: the tab's number in the list",
                    ));
                };
                let tab = pick(number)?;
                self.driver.switch_tab(&tab.id).await?;
                state.url = Some(tab.url.clone());
                self.after(state, format!("Switched to tab {number}."))
                    .await
            }
            TabAction::Close => {
                let closing = match args.tab {
                    Some(number) => (number, pick(number)?.id.clone()),
                    None => {
                        let index = tabs.iter().position(|tab| tab.current).unwrap_or(0);
                        (index as u32 + 1, tabs[index].id.clone())
                    }
                };
                self.driver.close_tab(&closing.1).await?;
                state.tabs.retain(|id| id != &closing.1);
                self.after(state, format!("Closed tab {}.", closing.0))
                    .await
            }
            TabAction::New => {
                if let Some(url) = &args.url {
                    check_address(url)?;
                }
                let tab = self.driver.open_tab(args.url.as_deref()).await?;
                state.url = Some(tab.url.clone());
                state.tabs.push(tab.id);
                self.after(state, "Opened a new tab.".to_owned()).await
            }
        }
    }

    async fn screenshot(&self, args: defs::ScreenshotArgs) -> Outcome {
        let format = match args.format {
            Some(ImageFormat::Png) => ScreenshotFormat::Png,
            Some(ImageFormat::Jpeg) => ScreenshotFormat::Jpeg(80),
            None if self.options.vision => self.options.vision_format,
            None => ScreenshotFormat::Png,
        };
        let (data, what) = if args.numbers {
            if args.full_page {
                return Err(ToolError::bad(
                    "screenshot",
                    "numbers are drawn on the viewport only; leave out full_page",
                ));
            }
            let (data, snapshot) = self.marks.marked_screenshot(&self.driver, format).await?;
            let count = snapshot.elements.values().filter(|e| !e.offscreen).count();
            (data, format!(", with {count} element numbers drawn"))
        } else {
            let options = ScreenshotOptions {
                format,
                full_page: args.full_page,
            };
            (self.driver.screenshot(options).await?, String::new())
        };
        let viewport = self.driver.viewport().await?;
        let mut text = format!(
            "Screenshot of the {} ({}×{} CSS pixels{what}).",
            if args.full_page {
                "full page"
            } else {
                "viewport"
            },
            viewport.width,
            viewport.height
        );
        if let Ok(url) = self.driver.eval("location.href").await {
            let _ = write!(text, " URL: {}", url.as_str().unwrap_or_default());
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

    async fn wait_for(&self, state: &mut State, args: defs::WaitForArgs) -> Outcome {
        let limit = WAIT_LIMIT.min(self.driver_timeout());
        match (args.text, args.gone, args.seconds) {
            (None, None, Some(seconds)) => {
                if !(seconds.is_finite() && seconds >= 0.0) {
                    return Err(ToolError::bad(
                        "wait_for",
                        "seconds must be a number from 0 to 30",
                    ));
                }
                let wait = Duration::from_secs_f64(seconds).min(WAIT_LIMIT);
                tokio::time::sleep(wait).await;
                self.after(state, format!("Waited {} s.", wait.as_secs_f64()))
                    .await
            }
            (Some(text), None, None) => {
                self.until_text(&text, true, limit).await?;
                self.after(state, format!("{text:?} is on the page.")).await
            }
            (None, Some(text), None) => {
                self.until_text(&text, false, limit).await?;
                self.after(state, format!("{text:?} is no longer on the page."))
                    .await
            }
            _ => Err(ToolError::bad(
                "wait_for",
                "give exactly one of text, gone or seconds",
            )),
        }
    }

    async fn until_text(
        &self,
        text: &str,
        present: bool,
        limit: Duration,
    ) -> Result<(), ToolError> {
        if text.trim().is_empty() {
            return Err(ToolError::bad("wait_for", "the text is empty"));
        }
        let needle = serde_json::to_string(text).unwrap_or_default();
        let check = format!(
            "(document.body ? document.body.innerText : '').includes({needle}) === {present}"
        );
        let start = tokio::time::Instant::now();
        loop {
            match self.driver.eval(&check).await {
                Ok(Value::Bool(true)) => return Ok(()),
                Ok(_) => {}
                Err(error) if error.is_dialog_open() || error.is_browser_gone() => {
                    return Err(error.into())
                }
                Err(_) => {} // between documents
            }
            if start.elapsed() >= limit {
                return Err(ToolError::WaitTimedOut {
                    what: if present {
                        format!("{text:?} did not appear")
                    } else {
                        format!("{text:?} is still there")
                    },
                    seconds: limit.as_secs(),
                });
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    async fn console(&self, state: &mut State) -> Outcome {
        self.gather_console(state).await;
        let entries = std::mem::take(&mut state.console);
        if entries.is_empty() {
            return Ok(ToolOutput::text(
                "No console messages since you last asked.".to_owned(),
            ));
        }
        let mut text = format!(
            "{} console message{} since you last asked (page output, untrusted):\n",
            entries.len(),
            if entries.len() == 1 { "" } else { "s" }
        );
        for entry in &entries {
            let _ = writeln!(text, "{}", console_line(entry));
        }
        Ok(ToolOutput::text(text.trim_end().to_owned()))
    }

    async fn dialog(&self, state: &mut State, args: defs::DialogArgs) -> Outcome {
        let open = self.driver.dialog().await?;
        let Some(open) = open else {
            return Err(DriverError::NoDialog.into());
        };
        self.driver
            .answer_dialog(args.accept, args.text.as_deref())
            .await?;
        state.dialog_open = false;
        let did = format!(
            "{} {} {:?}{}.",
            if args.accept { "Accepted" } else { "Dismissed" },
            crate::error::dialog_name(open.kind).to_lowercase(),
            open.message,
            match &args.text {
                Some(text) if args.accept => format!(" with {text:?}"),
                _ => String::new(),
            }
        );
        self.after(state, did).await
    }

    // ---- after an action -----------------------------------------------------

    /// Settles, then answers with what the model needs: the page (or, in
    /// vision mode, a picture of it) and a line for each thing that changed.
    async fn after(&self, state: &mut State, did: String) -> Outcome {
        if self.options.vision {
            return self.after_vision(state, did).await;
        }
        let render = RenderOptions {
            budget_tokens: Some(self.options.budget_tokens),
            page: 1,
        };
        self.read(state, did, SnapshotOptions::default(), render)
            .await
    }

    /// Settles, gathers what changed, and renders a snapshot.
    async fn read(
        &self,
        state: &mut State,
        did: String,
        options: SnapshotOptions,
        render: RenderOptions,
    ) -> Outcome {
        let mut lines = vec![did];
        let snapshot = match self.settled_snapshot(state, &mut lines, options).await? {
            Some(snapshot) => snapshot,
            None => return Ok(ToolOutput::text(join(lines))),
        };
        if state.url.as_deref() != Some(&snapshot.url) {
            if state.url.is_some() {
                lines.push(format!("The URL changed: now {}.", snapshot.url));
            }
            state.url = Some(snapshot.url.clone());
        }
        lines.push(String::new());
        lines.push(snapshot.render(render));
        Ok(ToolOutput::text(join(lines)))
    }

    /// Settles and snapshots, adding status lines; `None` when a dialog
    /// blocks the page (its line is added).
    async fn settled_snapshot(
        &self,
        state: &mut State,
        lines: &mut Vec<String>,
        options: SnapshotOptions,
    ) -> Result<Option<Snapshot>, ToolError> {
        // A tab that closed is noticed by the call after (which then moves
        // to the most recent tab left), so a few tries.
        let mut tab_closed = false;
        let mut settled = settle(&self.driver, self.options.quiet, self.options.settle_cap).await;
        for _ in 0..3 {
            if !matches!(settled, Err(DriverError::NoSuchTab { .. })) {
                break;
            }
            tab_closed = true;
            settled = settle(&self.driver, self.options.quiet, self.options.settle_cap).await;
        }
        let settled = match settled {
            Err(DriverError::DialogOpen { kind, message }) => {
                self.report_changes(state, lines, tab_closed).await;
                state.dialog_open = true;
                lines.push(dialog_sentence(kind, &message));
                return Ok(None);
            }
            other => other?,
        };
        if let Settled::Busy { after, why } = settled {
            lines.push(format!(
                "The page was still busy after {:.1} s ({why}); this is how it looks now.",
                after.as_secs_f64()
            ));
        }
        let mut snapshot = self.marks.snapshot(&self.driver, options).await;
        // A navigation that began only after the page looked settled leaves
        // the snapshot reading a document that is not there yet, or goes
        // away under it: settle the new one and read again.
        for _ in 0..2 {
            if !matches!(
                snapshot,
                Err(MarksError::Script(_)) | Err(MarksError::Driver(DriverError::Script { .. }))
            ) {
                break;
            }
            settle(&self.driver, self.options.quiet, self.options.settle_cap).await?;
            snapshot = self.marks.snapshot(&self.driver, options).await;
        }
        let snapshot = match snapshot {
            Err(MarksError::Driver(DriverError::DialogOpen { kind, message })) => {
                self.report_changes(state, lines, tab_closed).await;
                state.dialog_open = true;
                lines.push(dialog_sentence(kind, &message));
                return Ok(None);
            }
            other => other?,
        };
        self.report_changes(state, lines, tab_closed).await;
        let mut snapshot = snapshot;
        snapshot.status = state.statuses.get(&snapshot.url).copied();
        Ok(Some(snapshot))
    }

    async fn after_vision(&self, state: &mut State, did: String) -> Outcome {
        let mut lines = vec![did];
        let before = state.console.len();
        let settled = settle(&self.driver, self.options.quiet, self.options.settle_cap).await;
        let blocked = match settled {
            Err(DriverError::DialogOpen { kind, message }) => {
                state.dialog_open = true;
                Some(dialog_sentence(kind, &message))
            }
            Err(error) => return Err(error.into()),
            Ok(Settled::Busy { after, why }) => {
                lines.push(format!(
                    "The page was still busy after {:.1} s ({why}).",
                    after.as_secs_f64()
                ));
                None
            }
            Ok(Settled::Quiet) => None,
        };
        self.report_changes(state, &mut lines, false).await;
        let fresh: Vec<String> = state.console[before.min(state.console.len())..]
            .iter()
            .map(console_line)
            .collect();
        if !fresh.is_empty() {
            lines.push("Console since the last action (page output, untrusted):".to_owned());
            lines.extend(fresh);
        }
        if let Some(blocked) = blocked {
            lines.push(blocked);
            return Ok(ToolOutput::text(join(lines)));
        }
        let format = self.options.vision_format;
        let data = self
            .driver
            .screenshot(ScreenshotOptions {
                format,
                full_page: false,
            })
            .await?;
        if let Ok(url) = self.driver.eval("location.href").await {
            let url = url.as_str().unwrap_or_default().to_owned();
            if state.url.as_deref() != Some(url.as_str()) {
                lines.push(format!("Now at {url}."));
                state.url = Some(url);
            }
        }
        Ok(ToolOutput {
            text: join(lines),
            images: vec![Image {
                mime_type: mime(format),
                data,
            }],
            is_error: false,
        })
    }

    /// Adds a line for each thing the model must know of: tabs opened or
    /// closed, downloads and requests refused, new console errors.
    async fn report_changes(&self, state: &mut State, lines: &mut Vec<String>, tab_closed: bool) {
        if tab_closed {
            lines.push("The tab you were in was closed by the page.".to_owned());
        }
        if let Ok(tabs) = self.tabs_settled(state).await {
            let ids: Vec<TabId> = tabs.iter().map(|tab| tab.id.clone()).collect();
            if !state.tabs.is_empty() {
                for (index, tab) in tabs.iter().enumerate() {
                    if !state.tabs.contains(&tab.id) && !tab.current {
                        // Its title may still be on its way: the URL only.
                        let what = if tab.url.is_empty() {
                            String::new()
                        } else {
                            format!(" ({})", tab.url)
                        };
                        lines.push(format!(
                            "A new tab opened: tab {}{what}; call tabs with action switch and tab {} to read it.",
                            index + 1,
                            index + 1
                        ));
                    }
                }
                let closed = state.tabs.iter().filter(|id| !ids.contains(id)).count();
                if closed > 0 && !tab_closed {
                    lines.push(format!(
                        "{closed} tab{} closed; {} open now.",
                        if closed == 1 { " was" } else { "s were" },
                        tabs.len()
                    ));
                }
            }
            state.tabs = ids;
        }
        if let Ok(downloads) = self.driver.downloads().await {
            for download in downloads {
                lines.push(format!(
                    "A download was refused: {:?} from {} (tabwright saves no files).",
                    download.filename, download.url
                ));
            }
        }
        let refusals = self.driver.guard().refusals();
        let total = refusals.len();
        // Names that do not resolve are not the guard protecting anything:
        // the request would fail without it too.
        let fresh: Vec<_> = refusals
            .since(state.refusals_seen)
            .into_iter()
            .filter(|refusal| refusal.reason.is_protection())
            .collect();
        state.refusals_seen = total;
        if !fresh.is_empty() {
            let shown: Vec<String> = fresh
                .iter()
                .take(3)
                .map(|refusal| format!("{} ({})", refusal.target, refusal.reason))
                .collect();
            lines.push(format!(
                "The guard refused {} request{} from this page to this machine or its network: {}{}.",
                fresh.len(),
                if fresh.len() == 1 { "" } else { "s" },
                shown.join(", "),
                if fresh.len() > 3 { ", …" } else { "" }
            ));
        }
        let errors_before = state
            .console
            .iter()
            .filter(|entry| is_error(entry.level))
            .count();
        self.gather_console(state).await;
        let errors = state
            .console
            .iter()
            .filter(|entry| is_error(entry.level))
            .count()
            - errors_before;
        if errors > 0 && !self.options.vision {
            lines.push(format!(
                "The page logged {errors} new error{}; call console to read {}.",
                if errors == 1 { "" } else { "s" },
                if errors == 1 { "it" } else { "them" }
            ));
        }
    }

    /// The tabs, after giving a tab that just opened a moment to know its
    /// URL (a popup starts on about:blank).
    async fn tabs_settled(&self, state: &State) -> Result<Vec<driver_core::Tab>, DriverError> {
        let deadline = tokio::time::Instant::now() + NEW_TAB_WAIT;
        loop {
            let tabs = self.driver.tabs().await?;
            let unsettled = tabs.iter().any(|tab| {
                !state.tabs.is_empty()
                    && !state.tabs.contains(&tab.id)
                    && matches!(tab.url.as_str(), "" | "about:blank")
            });
            if !unsettled || tokio::time::Instant::now() >= deadline {
                return Ok(tabs);
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }

    async fn gather_console(&self, state: &mut State) {
        if let Ok(entries) = self.driver.console().await {
            state.console.extend(entries);
            let excess = state.console.len().saturating_sub(CONSOLE_KEPT);
            state.console.drain(..excess);
        }
    }

    /// A point a model gives must be on screen: a click off it would land on
    /// nothing, or fail deep in the backend with a message about the protocol.
    async fn on_screen(&self, tool: &'static str, x: f64, y: f64) -> Result<(), ToolError> {
        driver_core::check_point(x, y)?;
        let viewport = self.driver.viewport().await?;
        if x >= f64::from(viewport.width) || y >= f64::from(viewport.height) {
            return Err(ToolError::bad(
                tool,
                format!(
                    "({x}, {y}) is outside the viewport, which is {}×{} CSS pixels",
                    viewport.width, viewport.height
                ),
            ));
        }
        Ok(())
    }

    fn driver_timeout(&self) -> Duration {
        self.driver.options().timeout
    }
}

// ---- helpers -----------------------------------------------------------------

/// Runs a future, turning a panic into an `Err` with its message.
async fn futures_catch<F: std::future::Future>(
    future: std::panic::AssertUnwindSafe<F>,
) -> Result<F::Output, String> {
    use futures::FutureExt;
    future.catch_unwind().await.map_err(|panic| {
        panic
            .downcast_ref::<&str>()
            .map(|text| (*text).to_owned())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".to_owned())
    })
}

/// Not a web address at all (as opposed to one the guard refuses): the model
/// needs a different sentence.
fn check_address(url: &str) -> Result<(), ToolError> {
    match guard::parse_openable(url) {
        Err(reason @ (guard::Reason::Malformed { .. } | guard::Reason::Scheme { .. })) => {
            Err(ToolError::NotAnAddress {
                url: url.chars().take(200).collect(),
                problem: reason.to_string(),
            })
        }
        _ => Ok(()),
    }
}

/// Typing is key events, about a millisecond each: a longer text would
/// outlast the call's timeout.
const MAX_TYPED: usize = 5_000;

fn check_text_length(text: &str) -> Result<(), ToolError> {
    let length = text.chars().count();
    if length > MAX_TYPED {
        return Err(ToolError::bad(
            "type",
            format!("the text is {length} characters; type at most {MAX_TYPED} at a time"),
        ));
    }
    Ok(())
}

fn parse<T: DeserializeOwned>(tool: &'static str, arguments: Value) -> Result<T, ToolError> {
    if !arguments.is_object() {
        return Err(ToolError::bad(
            tool,
            format!(
                "the arguments must be a JSON object, not {}",
                kind_of(&arguments)
            ),
        ));
    }
    serde_json::from_value(arguments).map_err(|error| ToolError::bad(tool, error.to_string()))
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// An action that opened a dialog, or made the page close its own tab, did
/// happen: the answer reports the dialog, or the tab now current.
fn acted<E: Into<ToolError>>(result: Result<(), E>) -> Result<(), ToolError> {
    match result.map_err(Into::into) {
        Err(ToolError::Driver(DriverError::DialogOpen { .. } | DriverError::NoSuchTab { .. }))
        | Err(ToolError::Marks(MarksError::Driver(
            DriverError::DialogOpen { .. } | DriverError::NoSuchTab { .. },
        ))) => Ok(()),
        other => other,
    }
}

enum Target {
    Element(u32),
    Point(f64, f64),
}

fn target(
    tool: &'static str,
    element: Option<u32>,
    x: Option<f64>,
    y: Option<f64>,
) -> Result<Target, ToolError> {
    match (element, x, y) {
        (Some(number), None, None) => Ok(Target::Element(number)),
        (None, Some(x), Some(y)) => Ok(Target::Point(x, y)),
        (Some(_), _, _) => Err(ToolError::bad(
            tool,
            "give an element number or x and y, not both",
        )),
        (None, None, None) => Err(ToolError::bad(
            tool,
            "give an element number (from the snapshot) or x and y",
        )),
        (None, _, _) => Err(ToolError::bad(tool, "a point needs both x and y")),
    }
}

fn delta(
    direction: Direction,
    pixels: Option<f64>,
    viewport: driver_core::Viewport,
) -> Result<(f64, f64), ToolError> {
    let along = |size: u32| f64::from(size) * 0.8;
    let amount = match pixels {
        Some(pixels) if !(pixels.is_finite() && pixels > 0.0 && pixels <= 100_000.0) => {
            return Err(ToolError::bad(
                "scroll",
                "pixels must be a positive number up to 100000",
            ))
        }
        Some(pixels) => Some(pixels),
        None => None,
    };
    Ok(match direction {
        Direction::Up => (0.0, -amount.unwrap_or(along(viewport.height))),
        Direction::Down => (0.0, amount.unwrap_or(along(viewport.height))),
        Direction::Left => (-amount.unwrap_or(along(viewport.width)), 0.0),
        Direction::Right => (amount.unwrap_or(along(viewport.width)), 0.0),
    })
}

fn direction_word(direction: Direction) -> &'static str {
    match direction {
        Direction::Up => "up",
        Direction::Down => "down",
        Direction::Left => "left",
        Direction::Right => "right",
    }
}

fn typed_line(element: Option<u32>, text: &str, submit: bool) -> String {
    let into = element.map_or("the focused element".to_owned(), |n| format!("[{n}]"));
    format!(
        "Typed {text:?} into {into}{}.",
        if submit { " and pressed Enter" } else { "" }
    )
}

fn quote_list(items: &[String]) -> String {
    items
        .iter()
        .map(|item| format!("{item:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn tab_list(tabs: &[driver_core::Tab]) -> String {
    let mut text = format!(
        "{} tab{} open:\n",
        tabs.len(),
        if tabs.len() == 1 { "" } else { "s" }
    );
    for (index, tab) in tabs.iter().enumerate() {
        let _ = writeln!(
            text,
            "{}. {:?} {}{}",
            index + 1,
            tab.title,
            tab.url,
            if tab.current { " (current)" } else { "" }
        );
    }
    text.trim_end().to_owned()
}

fn is_error(level: ConsoleLevel) -> bool {
    matches!(level, ConsoleLevel::Error | ConsoleLevel::PageError)
}

fn console_line(entry: &ConsoleEntry) -> String {
    let level = match entry.level {
        ConsoleLevel::Debug => "debug",
        ConsoleLevel::Info => "log",
        ConsoleLevel::Warning => "warning",
        ConsoleLevel::Error => "error",
        ConsoleLevel::PageError => "uncaught",
    };
    let text: String = entry.text.chars().take(500).collect();
    format!("[{level}] {}", text.replace('\n', " "))
}

fn mime(format: ScreenshotFormat) -> &'static str {
    match format {
        ScreenshotFormat::Png => "image/png",
        ScreenshotFormat::Jpeg(_) => "image/jpeg",
        ScreenshotFormat::Webp(_) => "image/webp",
    }
}

fn join(lines: Vec<String>) -> String {
    lines.join("\n").trim().to_owned()
}
