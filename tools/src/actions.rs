//! The core page tools (text mode's, and those of both modes): what each
//! call does on the page shown, as methods of the tab-level context
//! ([`Tab`]), before the page is read back (`after`); and their entries of
//! the tool table.

use std::time::Duration;

use driver_core::{Driver, DriverError, KeyPress};
use marks::{MarksError, RenderOptions, SnapshotOptions};
use serde_json::Value;

use crate::after::Expected;
use crate::arguments::{self, Direction};
use crate::browser::done_if_interrupted;
use crate::error::ToolError;
use crate::options::Answers;
use crate::output::{join, quote_list, typed_line, Outcome, ToolOutput};
use crate::page_strings::{address, shown};
use crate::page_values::PageAnswers;
use crate::short;
use crate::tab::Tab;
use crate::tool::{takes, Hints, Mode, Returns, Takes, Tool};
use crate::validate::{check_address, check_text_length, delta, direction_word, target, Aim};

/// `screenshot` as the core group offers it: without `element`, which is
/// the forms group's.
fn core_screenshot_schema() -> Value {
    let mut schema = crate::schema::schema_of::<arguments::ScreenshotArgs>();
    if let Some(properties) = schema["properties"].as_object_mut() {
        properties.remove("element");
    }
    schema
}

/// The core page tools: text mode's and both modes', in the order a model is
/// shown them. The handlers are below; `table` says what each field means.
pub(crate) static TOOLS: &[Tool] = &[
    Tool {
        loads_pages: true,
        hints: Hints { destructive: false, idempotent: true, ..Hints::ACT },
        returns: Returns::Itself,
        short: Some(short::OPEN),
        example: r#"`{"url": "https://example.com/", "new_tab": false}`"#,
        ..Tool::action(
            "open",
            "Open a URL",
            "Open a URL, in this tab or a new one; answers with the page, its elements numbered [N].",
            takes!(tab OpenArgs => open),
        )
    },
    Tool {
        mode: Mode::Text,
        short: Some(short::SNAPSHOT),
        example: r#"`{"full_page": true, "scope": 12, "max_tokens": 2000, "part": 2}`"#,
        ..Tool::reader(
            "snapshot",
            "Read the page",
            "Read the page: its text, every element you can act on numbered [N], *[N] if new since your last read; by default around the screen. Page text comes between --- lines that carry a code new in each answer: only a line with that code opens or closes it.",
            takes!(tab SnapshotArgs => snapshot),
        )
    },
    Tool {
        mode: Mode::Text,
        short: Some(short::FIND),
        example: r#"`{"text": "checkout", "role": "link"}`"#,
        ..Tool::reader(
            "find",
            "Find on the page",
            "Search the whole page (frames too) by words and/or role; answers the matches, numbered as in a snapshot.",
            takes!(tab FindArgs => find_on_page),
        )
    },
    Tool {
        mode: Mode::Text,
        short: Some(short::READ),
        example: r#"`{}`, `{"element": 12}`, `{"whole_page": true, "part": 2}`"#,
        ..Tool::reader(
            "read",
            "Read the text",
            "Read the page's main content (or an element's) as markdown, links as [text][N] (N: the number to click); long texts come in parts with an outline. For articles and docs; snapshot shows the controls.",
            takes!(tab ReadArgs => read_text),
        )
    },
    Tool {
        mode: Mode::Text,
        short: Some(short::CLICK),
        example: r#"`{"element": 3}`, `{"element": 3, "count": 2}`, `{"x": 640, "y": 200, "button": "right", "modifiers": ["Control"]}`"#,
        ..Tool::action(
            "click",
            "Click",
            "Click an element by number, or a point x,y.",
            takes!(tab ClickArgs => click),
        )
    },
    Tool {
        mode: Mode::Text,
        short: Some(short::TYPE),
        example: r#"`{"element": 7, "text": "hello", "submit": true, "append": false}`"#,
        ..Tool::action(
            "type",
            "Type text",
            "Type into a field by number (replacing its text unless append), or the focused element.",
            takes!(tab TypeArgs => type_text),
        )
    },
    Tool {
        short: Some(short::PRESS),
        example: r#"`{"keys": "Control+a Delete"}`"#,
        ..Tool::action(
            "press",
            "Press keys",
            "Press keys on the focused element.",
            takes!(tab PressArgs => press),
        )
    },
    Tool {
        mode: Mode::Text,
        hints: Hints { idempotent: true, ..Hints::ACT },
        short: Some(short::SELECT),
        example: r#"`{"element": 4, "options": ["Large"]}`"#,
        ..Tool::action(
            "select",
            "Choose options",
            "Choose options of a select element.",
            takes!(tab SelectArgs => select),
        )
    },
    Tool {
        mode: Mode::Text,
        hints: Hints { idempotent: true, ..Hints::MOVE },
        short: Some(short::HOVER),
        example: r#"`{"element": 5}`"#,
        ..Tool::action(
            "hover",
            "Hover",
            "Move the mouse over an element by number, or to x,y (opens menus, tooltips).",
            takes!(tab HoverArgs => hover),
        )
    },
    Tool {
        mode: Mode::Text,
        hints: Hints::MOVE,
        short: Some(short::SCROLL),
        example: r#"`{"direction": "down"}`, `{"element": 40}`, `{"element": 14, "direction": "down"}`"#,
        ..Tool::action(
            "scroll",
            "Scroll",
            "Scroll the page or a box, or until an element is on screen.",
            takes!(tab ScrollArgs => scroll),
        )
    },
    Tool {
        loads_pages: true,
        hints: Hints::MOVE,
        ..Tool::action(
            "back",
            "Go back",
            "Go back in this tab's history.",
            takes!(tab NoArgs => back),
        )
    },
    Tool {
        loads_pages: true,
        hints: Hints::MOVE,
        ..Tool::action(
            "forward",
            "Go forward",
            "Go forward in this tab's history.",
            takes!(tab NoArgs => forward),
        )
    },
    Tool {
        short: Some(short::SCREENSHOT),
        example: r#"`{"numbers": true, "format": "jpeg", "full_page": false, "if_changed": true}`"#,
        ..Tool::reader(
            "screenshot",
            "Screenshot",
            "A picture of the viewport or the full page, numbers drawn on it if asked.",
            Takes {
                schema: core_screenshot_schema,
                ..takes!(tab ScreenshotArgs => screenshot)
            },
        )
    },
    Tool {
        hints: Hints::READ,
        short: Some(short::WAIT),
        example: r#"`{"text": "Order placed"}`, `{"gone": "Loading"}`, `{"seconds": 2}`"#,
        ..Tool::action(
            "wait_for",
            "Wait",
            "Wait until a text is on the page or gone, or some seconds.",
            takes!(tab WaitForArgs => wait_for),
        )
    },
    Tool {
        under_dialog: true,
        short: Some(short::DIALOG),
        example: r#"`{"accept": true, "text": "Ada"}`"#,
        ..Tool::action(
            "dialog",
            "Answer a dialog",
            "Answer the open alert, confirm, prompt or leave-page dialog.",
            takes!(tab DialogArgs => dialog),
        )
    },
];

/// The longest `wait_for` waits.
const WAIT_LIMIT: Duration = Duration::from_secs(30);

/// The most keys one `press` takes; a vendor's `key` action is checked
/// against it before its repeated text is built.
pub(crate) const PRESSED_AT_MOST: usize = 50;

impl Tab<'_> {
    pub(crate) async fn open(&mut self, args: arguments::OpenArgs) -> Outcome {
        let url = args.url.trim();
        if url.is_empty() {
            return Err(ToolError::bad("open", "url is empty"));
        }
        check_address(url)?;
        let (status, at) = if args.new_tab {
            let tab = self.browser.driver.open_tab(Some(url)).await?;
            (None, tab.url)
        } else {
            let navigation = self.browser.driver.navigate(url).await?;
            (navigation.status, navigation.url)
        };
        if let Some(status) = status {
            self.state.statuses.insert(at.clone(), status);
        }
        // The model asked for this URL: "URL changed" would be noise.
        self.state.url = Some(at.clone());
        // A saved state's local storage for this site, loaded before it
        // was open: written now, and the page read again with it.
        if self.browser.restore_storage(self.state).await?.is_some() {
            self.browser.driver.reload().await?;
        }
        let at = address(&at);
        let did = match (args.new_tab, status) {
            (true, _) => format!("Opened {at} in a new tab."),
            (false, Some(status)) if status >= 400 => {
                format!("Opened {at}: the server answered HTTP {status}.")
            }
            (false, _) => format!("Opened {at}."),
        };
        self.after_whole(did).await
    }

    pub(crate) async fn snapshot(&mut self, args: arguments::SnapshotArgs) -> Outcome {
        let options = SnapshotOptions {
            full_page: args.full_page,
            scope: args.scope,
        };
        let render = self.render_options("snapshot", args.max_tokens, args.part)?;
        self.read(String::new(), options, render, Answers::Full, &[])
            .await
    }

    pub(crate) async fn read_text(&mut self, args: arguments::ReadArgs) -> Outcome {
        let render = self.render_options("read", args.max_tokens, args.part)?;
        let mut lines = Vec::new();
        let Some(text) = self
            .settled_text(&mut lines, args.element, args.whole_page)
            .await?
        else {
            return Ok(ToolOutput::text(join(lines)));
        };
        if !lines.is_empty() {
            lines.push(String::new());
        }
        lines.push(text.render_reading(render));
        Ok(ToolOutput::text(join(lines)))
    }

    /// How a text in parts is rendered: at most `max_tokens` (within the
    /// bound; the pack's budget if not given), part `part`.
    fn render_options(
        &self,
        tool: &'static str,
        max_tokens: Option<u32>,
        part: Option<u32>,
    ) -> Result<RenderOptions, ToolError> {
        if max_tokens.is_some_and(|tokens| tokens as usize > arguments::MAX_TOKENS) {
            return Err(ToolError::bad(
                tool,
                format!("max_tokens may be at most {}", arguments::MAX_TOKENS),
            ));
        }
        Ok(RenderOptions {
            budget_tokens: Some(
                max_tokens.map_or(self.browser.options.budget_tokens, |tokens| tokens as usize),
            ),
            page: part.unwrap_or(1) as usize,
            fence: self.state.fence,
        })
    }

    pub(crate) async fn find_on_page(&mut self, args: arguments::FindArgs) -> Outcome {
        let text = args.text.as_deref().map(str::trim).unwrap_or_default();
        let role = args
            .role
            .as_deref()
            .map(str::trim)
            .filter(|role| !role.is_empty());
        if text.is_empty() && role.is_none() {
            return Err(ToolError::bad(
                "find",
                "give text (words to look for), a role (button, link, textbox, …), or both",
            ));
        }
        let asked = match (text.is_empty(), role) {
            (false, Some(role)) => format!("{} with role {}", quote_asked(text), quote_asked(role)),
            (false, None) => quote_asked(text),
            (true, Some(role)) => format!("role {}", quote_asked(role)),
            (true, None) => String::new(),
        };
        let mut lines = Vec::new();
        let Some(found) = self.settled_find(&mut lines, text, role).await? else {
            return Ok(ToolOutput::text(join(lines)));
        };
        if !lines.is_empty() {
            lines.push(String::new());
        }
        lines.push(found.render_found(
            &asked,
            Some(self.browser.options.budget_tokens),
            self.state.fence,
        ));
        Ok(ToolOutput::text(join(lines)))
    }

    pub(crate) async fn click(&mut self, args: arguments::ClickArgs) -> Outcome {
        let click = arguments::click_kind(args.button, args.count, &args.modifiers)?;
        match target("click", args.element, args.x, args.y)? {
            Aim::Element(number) => {
                let done = done_if_interrupted(
                    self.browser
                        .marks
                        .click_with(&self.browser.driver, number, click)
                        .await,
                )?;
                let mut did = match &done.elsewhere {
                    Some(elsewhere) => crate::error::went_elsewhere(number, elsewhere),
                    None => arguments::clicked(click, &format!("[{number}]")),
                };
                if let Some(passed) = crate::error::passed_on(&done.also) {
                    did.push(' ');
                    did.push_str(&passed);
                }
                self.after(did).await
            }
            Aim::Point(x, y) => {
                self.browser.on_screen("click", x, y).await?;
                done_if_interrupted(marks::press_at_with(&self.browser.driver, x, y, click).await)?;
                self.after(arguments::clicked(click, &format!("at ({x}, {y})")))
                    .await
            }
        }
    }

    pub(crate) async fn type_text(&mut self, args: arguments::TypeArgs) -> Outcome {
        check_text_length(&args.text)?;
        let typed = self.browser.secrets.fill_in("type", &args.text)?;
        let mut expected = Vec::new();
        let mut went = None;
        let mut cut_short = false;
        match args.element {
            Some(number) => {
                let result = self
                    .browser
                    .marks
                    .type_into(
                        &self.browser.driver,
                        number,
                        &typed,
                        !args.append,
                        typed != args.text,
                    )
                    .await;
                let dialog = matches!(
                    &result,
                    Err(MarksError::Driver(DriverError::DialogOpen { .. }))
                );
                let done = done_if_interrupted(result)?;
                if dialog {
                    // The keys after it reached no page: said, not claimed.
                    cut_short = true;
                    went = Some(format!(
                        "Typing into [{number}] was cut short: a dialog opened as the keys came, and the keys after it were not typed; answer the dialog, then read the field."
                    ));
                }
                let astray = crate::error::typed_astray(number, &done);
                let whole = astray.is_none();
                // Nothing went in, or a secret was stopped: said alone.
                cut_short |= done.took_none || done.stopped.is_some();
                went = went.or(astray).or_else(|| {
                    done.elsewhere
                        .as_ref()
                        .map(|elsewhere| crate::error::went_elsewhere(number, elsewhere))
                });
                // (What went astray is said; the field is not then held to
                // all of it.)
                let before = done.before.filter(|_| whole);
                if args.submit {
                    done_if_interrupted(
                        self.browser
                            .driver
                            .press(KeyPress::from(driver_core::Key::Enter))
                            .await,
                    )?;
                } else if let Some(before) =
                    before.filter(|before| before != "••••" && typed == args.text)
                {
                    // What it should hold now; after Enter a page may clear
                    // or leave it, which is no refusal.
                    let value = if let Some(picked) = done.picked.clone() {
                        picked
                    } else if args.append {
                        crate::page_strings::joined(&[before, typed.clone().into()], "")
                    } else {
                        typed.clone().into()
                    };
                    expected.push(Expected { number, value });
                }
            }
            None => {
                self.type_focused(&typed, typed != args.text, args.submit)
                    .await?;
            }
        }
        let did = match went {
            Some(went) if cut_short => went,
            Some(went) => format!(
                "{went} {}",
                typed_line(args.element, &args.text, args.submit)
            ),
            None => typed_line(args.element, &args.text, args.submit),
        };
        self.after_expecting(did, &expected).await
    }

    /// Types into whatever has the focus; with `secret`, the field it was
    /// and the one it is after hold a secret from now on.
    pub(crate) async fn type_focused(
        &self,
        text: &str,
        secret: bool,
        submit: bool,
    ) -> Result<(), ToolError> {
        // (Where the page cannot be asked, a dialog opened: the pieces rule
        // still hides what a field shows of it.)
        if secret {
            let _ = marks::hold_focused(&self.browser.driver).await;
        }
        done_if_interrupted(self.browser.driver.type_text(text).await)?;
        if secret {
            let _ = marks::hold_focused(&self.browser.driver).await;
        }
        if submit {
            done_if_interrupted(
                self.browser
                    .driver
                    .press(KeyPress::from(driver_core::Key::Enter))
                    .await,
            )?;
        }
        Ok(())
    }

    pub(crate) async fn press(&mut self, args: arguments::PressArgs) -> Outcome {
        // Counted before a key is parsed: a long text is refused at once.
        if args.keys.split_whitespace().nth(PRESSED_AT_MOST).is_some() {
            return Err(ToolError::bad(
                "press",
                format!("at most {PRESSED_AT_MOST} keys at a time"),
            ));
        }
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
        // What had the focus, for the answer to say where the keys went if
        // the page moved it as they came.
        let armed = self.browser.marks.arm_keys(&self.browser.driver).await;
        for press in presses {
            done_if_interrupted(self.browser.driver.press(press).await)?;
        }
        let keys = args.keys.trim();
        let elsewhere = match &armed {
            Some(armed) => {
                self.browser
                    .marks
                    .keys_reached(&self.browser.driver, armed)
                    .await
            }
            None => None,
        };
        let did = match elsewhere {
            Some(elsewhere) => crate::error::keys_went_elsewhere(keys, &elsewhere),
            None => format!("Pressed {keys}."),
        };
        self.after(did).await
    }

    pub(crate) async fn select(&mut self, args: arguments::SelectArgs) -> Outcome {
        if args.options.is_empty() {
            return Err(ToolError::bad(
                "select",
                "options is empty: name at least one option",
            ));
        }
        let chosen = self
            .browser
            .marks
            .select(&self.browser.driver, args.element, &args.options)
            .await?;
        let expected = [Expected {
            number: args.element,
            value: crate::page_strings::joined(&chosen, ", "),
        }];
        self.after_expecting(
            format!("Selected {} in [{}].", quote_list(&chosen), args.element),
            &expected,
        )
        .await
    }

    pub(crate) async fn hover(&mut self, args: arguments::HoverArgs) -> Outcome {
        match target("hover", args.element, args.x, args.y)? {
            Aim::Element(number) => {
                done_if_interrupted(self.browser.marks.hover(&self.browser.driver, number).await)?;
                self.after(format!("The mouse is over [{number}].")).await
            }
            Aim::Point(x, y) => {
                self.browser.on_screen("hover", x, y).await?;
                done_if_interrupted(self.browser.driver.move_mouse(x, y).await)?;
                self.after(format!("The mouse is at ({x}, {y}).")).await
            }
        }
    }

    pub(crate) async fn scroll(&mut self, args: arguments::ScrollArgs) -> Outcome {
        match (args.element, args.direction) {
            (Some(number), None) => {
                // A scroll box on screen named alone: its next part, as
                // the line that said it holds more invited.
                let tab = self.browser.driver.current_tab().await?;
                if let Some(onward) = self.browser.marks.onward(&tab, number) {
                    let located = self
                        .browser
                        .marks
                        .locate(&self.browser.driver, number, false)
                        .await?;
                    let viewport = self.browser.driver.viewport().await?;
                    if (0.0..f64::from(viewport.width)).contains(&located.x)
                        && (0.0..f64::from(viewport.height)).contains(&located.y)
                    {
                        let direction = match onward {
                            marks::Onward::Right => Direction::Right,
                            marks::Onward::Down => Direction::Down,
                        };
                        return self
                            .scroll_box(number, direction, args.pixels, Some(located))
                            .await;
                    }
                }
                self.browser
                    .marks
                    .scroll_to(&self.browser.driver, number)
                    .await?;
                self.after(format!("Scrolled [{number}] into view.")).await
            }
            (None, Some(direction)) => {
                let viewport = self.browser.driver.viewport().await?;
                let (dx, dy) = delta(direction, args.pixels, viewport)?;
                match (args.x, args.y) {
                    (Some(x), Some(y)) => {
                        self.browser.on_screen("scroll", x, y).await?;
                        done_if_interrupted(self.browser.driver.wheel(x, y, dx, dy).await)?
                    }
                    (None, None) => {
                        self.browser
                            .driver
                            .own_world(
                                &[],
                                &format!(
                                "window.scrollBy({{ left: {dx}, top: {dy}, behavior: 'instant' }})"
                            ),
                            )
                            .await?;
                    }
                    _ => return Err(ToolError::bad("scroll", "give both x and y, or neither")),
                }
                self.after(format!("Scrolled {}.", direction_word(direction)))
                    .await
            }
            (Some(number), Some(direction)) => {
                if args.x.is_some() || args.y.is_some() {
                    return Err(ToolError::bad(
                        "scroll",
                        "give an element or a point to scroll at, not both",
                    ));
                }
                self.scroll_box(number, direction, args.pixels, None).await
            }
            (None, None) => Err(ToolError::bad(
                "scroll",
                "give a direction (up, down, left, right) or an element number",
            )),
        }
    }

    /// Scrolls inside a numbered box (a scroll box, a list) as a person
    /// does: the wheel over it, by most of its own size; `located`, where
    /// it was just found on screen, else it is brought into view first.
    async fn scroll_box(
        &mut self,
        number: u32,
        direction: Direction,
        pixels: Option<f64>,
        located: Option<marks::Located>,
    ) -> Outcome {
        let located = match located {
            Some(located) => located,
            None => {
                self.browser
                    .marks
                    .locate(&self.browser.driver, number, true)
                    .await?
            }
        };
        let size = driver_core::Viewport {
            width: u32::try_from(located.rect.width.max(1)).unwrap_or(1),
            height: u32::try_from(located.rect.height.max(1)).unwrap_or(1),
        };
        let (dx, dy) = delta(direction, pixels, size)?;
        done_if_interrupted(
            self.browser
                .driver
                .wheel(located.x, located.y, dx, dy)
                .await,
        )?;
        self.after(format!(
            "Scrolled [{number}] {}.",
            direction_word(direction)
        ))
        .await
    }

    pub(crate) async fn back(&mut self, _: arguments::NoArgs) -> Outcome {
        self.history(true).await
    }

    pub(crate) async fn forward(&mut self, _: arguments::NoArgs) -> Outcome {
        self.history(false).await
    }

    async fn history(&mut self, back: bool) -> Outcome {
        let navigation = if back {
            self.browser.driver.back().await?
        } else {
            self.browser.driver.forward().await?
        };
        if let Some(status) = navigation.status {
            self.state.statuses.insert(navigation.url.clone(), status);
        }
        self.state.url = Some(navigation.url.clone());
        let word = if back { "back" } else { "forward" };
        self.after_whole(format!("Went {word} to {}.", address(&navigation.url)))
            .await
    }

    pub(crate) async fn wait_for(&mut self, args: arguments::WaitForArgs) -> Outcome {
        let limit = WAIT_LIMIT.min(self.browser.driver_timeout());
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
                self.after(format!("Waited {} s.", wait.as_secs_f64()))
                    .await
            }
            (Some(text), None, None) => {
                self.until_text(&text, true, limit).await?;
                self.after(format!("{text:?} is on the page.")).await
            }
            (None, Some(text), None) => {
                self.until_text(&text, false, limit).await?;
                self.after(format!("{text:?} is no longer on the page."))
                    .await
            }
            _ => Err(ToolError::bad(
                "wait_for",
                "give exactly one of text, gone or seconds",
            )),
        }
    }

    pub(crate) async fn until_text(
        &self,
        text: &str,
        present: bool,
        limit: Duration,
    ) -> Result<(), ToolError> {
        if text.trim().is_empty() {
            return Err(ToolError::bad("wait_for", "the text is empty"));
        }
        // Matched as a person reads it: a run of spaces, line breaks or
        // no-break spaces (a code editor draws its spaces as those) is one.
        let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let needle = serde_json::to_string(&words).unwrap_or_default();
        let check = format!(
            "(document.body ? document.body.innerText : '').replace(/\\s+/g, ' ').includes({needle}) === {present}"
        );
        let start = tokio::time::Instant::now();
        loop {
            match self.browser.driver.own_world(&[], &check).await {
                Ok(found) if found == true => return Ok(()),
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

    pub(crate) async fn dialog(&mut self, mut args: arguments::DialogArgs) -> Outcome {
        if let Some(text) = &args.text {
            args.text = Some(self.browser.secrets.fill_in("dialog", text)?);
        }
        let open = self.browser.driver.dialog().await?;
        let Some(open) = open else {
            return Err(DriverError::NoDialog.into());
        };
        self.browser
            .driver
            .answer_dialog(args.accept, args.text.as_deref())
            .await?;
        self.state.dialog_open = false;
        let did = format!(
            "{} {} {}{}.",
            if args.accept { "Accepted" } else { "Dismissed" },
            crate::error::dialog_name(open.kind).to_lowercase(),
            shown(&open.message),
            match &args.text {
                Some(text) if args.accept => format!(" with {text:?}"),
                _ => String::new(),
            }
        );
        self.after(did).await
    }
}

/// What a model searched for, quoted and cut to a readable length.
fn quote_asked(text: &str) -> String {
    format!("{:?}", marks::cut(text, 100))
}
