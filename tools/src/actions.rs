//! The text-mode tools: what each call does to the browser, before the page
//! is read back (`after`).

use std::fmt::Write as _;
use std::time::Duration;

use driver_core::{Driver, DriverError, FullPage, KeyPress, ScreenshotFormat, ScreenshotOptions};
use marks::{RenderOptions, SnapshotOptions};
use serde_json::Value;

use crate::after::Expected;
use crate::arguments::{self, ImageFormat, TabAction};
use crate::error::ToolError;
use crate::operator::{done_if_interrupted, Operator};
use crate::options::Answers;
use crate::output::{
    console_line, fenced, join, mime, quote_list, typed_line, Image, Outcome, ToolOutput,
};
use crate::page_strings::{address, shown};
use crate::state::{digest, Picture, State};
use crate::validate::{check_address, check_text_length, delta, direction_word, target, Aim};

/// The longest `wait_for` waits.
const WAIT_LIMIT: Duration = Duration::from_secs(30);

impl Operator {
    pub(crate) async fn open(&self, state: &mut State, args: arguments::OpenArgs) -> Outcome {
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
        // A saved state's local storage for this site, loaded before it
        // was open: written now, and the page read again with it.
        if self.restore_storage(state).await?.is_some() {
            self.driver.reload().await?;
        }
        let at = address(&at);
        let did = match (args.new_tab, status) {
            (true, _) => format!("Opened {at} in a new tab."),
            (false, Some(status)) if status >= 400 => {
                format!("Opened {at}: the server answered HTTP {status}.")
            }
            (false, _) => format!("Opened {at}."),
        };
        self.after_whole(state, did).await
    }

    pub(crate) async fn snapshot(
        &self,
        state: &mut State,
        args: arguments::SnapshotArgs,
    ) -> Outcome {
        let options = SnapshotOptions {
            full_page: args.full_page,
            scope: args.scope,
        };
        let render = self.render_options("snapshot", state, args.max_tokens, args.part)?;
        self.read(state, String::new(), options, render, Answers::Full, &[])
            .await
    }

    pub(crate) async fn read_text(&self, state: &mut State, args: arguments::ReadArgs) -> Outcome {
        let render = self.render_options("read", state, args.max_tokens, args.part)?;
        let mut lines = Vec::new();
        let Some(text) = self
            .settled_text(state, &mut lines, args.element, args.whole_page)
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
        state: &State,
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
                max_tokens.map_or(self.options.budget_tokens, |tokens| tokens as usize),
            ),
            page: part.unwrap_or(1) as usize,
            fence: state.fence,
        })
    }

    pub(crate) async fn find_on_page(
        &self,
        state: &mut State,
        args: arguments::FindArgs,
    ) -> Outcome {
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
        let Some(found) = self.settled_find(state, &mut lines, text, role).await? else {
            return Ok(ToolOutput::text(join(lines)));
        };
        if !lines.is_empty() {
            lines.push(String::new());
        }
        lines.push(found.render_found(&asked, Some(self.options.budget_tokens), state.fence));
        Ok(ToolOutput::text(join(lines)))
    }

    pub(crate) async fn click(&self, state: &mut State, args: arguments::ClickArgs) -> Outcome {
        let click = arguments::click_kind(args.button, args.count, &args.modifiers)?;
        match target("click", args.element, args.x, args.y)? {
            Aim::Element(number) => {
                let done =
                    done_if_interrupted(self.marks.click_with(&self.driver, number, click).await)?;
                let did = match &done.elsewhere {
                    Some(elsewhere) => crate::error::went_elsewhere(number, elsewhere),
                    None => arguments::clicked(click, &format!("[{number}]")),
                };
                self.after(state, did).await
            }
            Aim::Point(x, y) => {
                self.on_screen("click", x, y).await?;
                done_if_interrupted(marks::press_at_with(&self.driver, x, y, click).await)?;
                self.after(state, arguments::clicked(click, &format!("at ({x}, {y})")))
                    .await
            }
        }
    }

    pub(crate) async fn type_text(&self, state: &mut State, args: arguments::TypeArgs) -> Outcome {
        check_text_length(&args.text)?;
        let typed = self.secrets.fill_in("type", &args.text)?;
        let mut expected = Vec::new();
        let mut went = None;
        match args.element {
            Some(number) => {
                let done = done_if_interrupted(
                    self.marks
                        .type_into(&self.driver, number, &typed, !args.append)
                        .await,
                )?;
                went = done
                    .elsewhere
                    .map(|elsewhere| crate::error::went_elsewhere(number, &elsewhere));
                let before = done.before;
                if args.submit {
                    done_if_interrupted(
                        self.driver
                            .press(KeyPress::from(driver_core::Key::Enter))
                            .await,
                    )?;
                } else if let Some(before) = before.filter(|before| before != "••••") {
                    // What it should hold now; after Enter a page may clear
                    // or leave it, which is no refusal.
                    let value = if args.append {
                        format!("{before}{typed}")
                    } else {
                        typed.clone()
                    };
                    expected.push(Expected { number, value });
                }
            }
            None => self.type_focused(&typed, args.submit).await?,
        }
        let did = match went {
            Some(went) => format!(
                "{went} {}",
                typed_line(args.element, &args.text, args.submit)
            ),
            None => typed_line(args.element, &args.text, args.submit),
        };
        self.after_expecting(state, did, &expected).await
    }

    pub(crate) async fn type_focused(&self, text: &str, submit: bool) -> Result<(), ToolError> {
        done_if_interrupted(self.driver.type_text(text).await)?;
        if submit {
            done_if_interrupted(
                self.driver
                    .press(KeyPress::from(driver_core::Key::Enter))
                    .await,
            )?;
        }
        Ok(())
    }

    pub(crate) async fn press(&self, state: &mut State, args: arguments::PressArgs) -> Outcome {
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
            done_if_interrupted(self.driver.press(press).await)?;
        }
        self.after(state, format!("Pressed {}.", args.keys.trim()))
            .await
    }

    pub(crate) async fn select(&self, state: &mut State, args: arguments::SelectArgs) -> Outcome {
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
        let expected = [Expected {
            number: args.element,
            value: chosen.join(", "),
        }];
        self.after_expecting(
            state,
            format!("Selected {} in [{}].", quote_list(&chosen), args.element),
            &expected,
        )
        .await
    }

    pub(crate) async fn hover(&self, state: &mut State, args: arguments::HoverArgs) -> Outcome {
        match target("hover", args.element, args.x, args.y)? {
            Aim::Element(number) => {
                done_if_interrupted(self.marks.hover(&self.driver, number).await)?;
                self.after(state, format!("The mouse is over [{number}]."))
                    .await
            }
            Aim::Point(x, y) => {
                self.on_screen("hover", x, y).await?;
                done_if_interrupted(self.driver.move_mouse(x, y).await)?;
                self.after(state, format!("The mouse is at ({x}, {y})."))
                    .await
            }
        }
    }

    pub(crate) async fn scroll(&self, state: &mut State, args: arguments::ScrollArgs) -> Outcome {
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
                        done_if_interrupted(self.driver.wheel(x, y, dx, dy).await)?
                    }
                    (None, None) => {
                        self.driver
                            .eval_isolated(
                                &[],
                                &format!(
                                "window.scrollBy({{ left: {dx}, top: {dy}, behavior: 'instant' }})"
                            ),
                            )
                            .await?;
                    }
                    _ => return Err(ToolError::bad("scroll", "give both x and y, or neither")),
                }
                self.after(state, format!("Scrolled {}.", direction_word(direction)))
                    .await
            }
            (Some(number), Some(direction)) => {
                // Inside a numbered box (a scroll box, a list), as a person
                // scrolls it: the wheel over it, by most of its own size.
                if args.x.is_some() || args.y.is_some() {
                    return Err(ToolError::bad(
                        "scroll",
                        "give an element or a point to scroll at, not both",
                    ));
                }
                let located = self.marks.locate(&self.driver, number, true).await?;
                let size = driver_core::Viewport {
                    width: u32::try_from(located.rect.width.max(1)).unwrap_or(1),
                    height: u32::try_from(located.rect.height.max(1)).unwrap_or(1),
                };
                let (dx, dy) = delta(direction, args.pixels, size)?;
                done_if_interrupted(self.driver.wheel(located.x, located.y, dx, dy).await)?;
                self.after(
                    state,
                    format!("Scrolled [{number}] {}.", direction_word(direction)),
                )
                .await
            }
            (None, None) => Err(ToolError::bad(
                "scroll",
                "give a direction (up, down, left, right) or an element number",
            )),
        }
    }

    pub(crate) async fn back(&self, state: &mut State, _: arguments::NoArgs) -> Outcome {
        self.history(state, true).await
    }

    pub(crate) async fn forward(&self, state: &mut State, _: arguments::NoArgs) -> Outcome {
        self.history(state, false).await
    }

    async fn history(&self, state: &mut State, back: bool) -> Outcome {
        let navigation = if back {
            self.driver.back().await?
        } else {
            self.driver.forward().await?
        };
        if let Some(status) = navigation.status {
            state.statuses.insert(navigation.url.clone(), status);
        }
        state.url = Some(navigation.url.clone());
        let word = if back { "back" } else { "forward" };
        self.after_whole(
            state,
            format!("Went {word} to {}.", address(&navigation.url)),
        )
        .await
    }

    pub(crate) async fn tabs(&self, state: &mut State, args: arguments::TabsArgs) -> Outcome {
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
                self.after_whole(state, format!("Switched to tab {number}."))
                    .await
            }
            TabAction::Close => {
                let closing = match args.tab {
                    Some(number) => (number, pick(number)?.id.clone()),
                    None => {
                        let index = tabs.iter().position(|tab| tab.current).unwrap_or(0);
                        let number = index as u32 + 1;
                        (number, pick(number)?.id.clone())
                    }
                };
                self.driver.close_tab(&closing.1).await?;
                state.tabs.retain(|id| id != &closing.1);
                self.after_whole(state, format!("Closed tab {}.", closing.0))
                    .await
            }
            TabAction::New => {
                if let Some(url) = &args.url {
                    check_address(url)?;
                }
                let tab = self.driver.open_tab(args.url.as_deref()).await?;
                state.url = Some(tab.url.clone());
                state.tabs.push(tab.id);
                self.after_whole(state, "Opened a new tab.".to_owned())
                    .await
            }
        }
    }

    /// `screenshot`: of one element when the forms group is on and one is
    /// named, else of the viewport or the page.
    pub(crate) async fn screenshot(
        &self,
        state: &mut State,
        args: arguments::ScreenshotArgs,
    ) -> Outcome {
        let Some(number) = args.element else {
            return self.page_screenshot(state, args).await;
        };
        if !self.options.groups.contains(&crate::options::Group::Forms) {
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

    async fn page_screenshot(&self, state: &mut State, args: arguments::ScreenshotArgs) -> Outcome {
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
        // The same picture as the last one of this tab, taken the same way:
        // said in a line, without the picture, if the model asked so.
        let tab = self.driver.current_tab().await?;
        let picture = Picture {
            tab,
            how: format!("{format:?} {} {}", args.full_page, args.numbers),
            digest: digest(&data),
        };
        let unchanged = state.last_picture.as_ref() == Some(&picture);
        state.last_picture = Some(picture);
        if args.if_changed && unchanged {
            return Ok(ToolOutput::text(
                "The page looks exactly as in your last screenshot of this tab: no new picture."
                    .to_owned(),
            ));
        }
        // The viewport and the URL in one read (a page no script runs in
        // still has a viewport).
        let read = self
            .driver
            .eval_isolated(
                &[],
                "({width: innerWidth, height: innerHeight, url: location.href, \
                 page: document.documentElement && {width: document.documentElement.scrollWidth, \
                 height: document.documentElement.scrollHeight}})",
            )
            .await
            .ok()
            .filter(|read| read["width"].is_number() && read["height"].is_number());
        // What a full-page picture holds of the page: the plan the backend
        // took it by (the page's size is the same content size it read).
        let whole = read.as_ref().filter(|_| args.full_page).and_then(|read| {
            let page = &read["page"];
            Some(FullPage::plan(
                page["width"].as_f64()?.max(read["width"].as_f64()?),
                page["height"].as_f64()?,
            ))
        });
        let (width, height, url) = match read {
            Some(read) => (
                read["width"].as_f64().unwrap_or_default(),
                read["height"].as_f64().unwrap_or_default(),
                read["url"].as_str().map(str::to_owned),
            ),
            None => {
                let viewport = self.driver.viewport().await?;
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

    pub(crate) async fn wait_for(
        &self,
        state: &mut State,
        args: arguments::WaitForArgs,
    ) -> Outcome {
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

    pub(crate) async fn until_text(
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
            match self.driver.eval_isolated(&[], &check).await {
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

    pub(crate) async fn console(&self, state: &mut State, args: arguments::ConsoleArgs) -> Outcome {
        self.gather_console(state).await;
        let from = state.console_read;
        state.console_read = state.console.next_seq();
        let level = args.level.unwrap_or(arguments::LevelArg::Debug);
        let all = state.console.since(from).count();
        let entries: Vec<String> = state
            .console
            .since(from)
            .filter(|entry| level.admits(entry.level))
            .map(console_line)
            .collect();
        let dropped = state.console.dropped_since(from);
        let left_out = all - entries.len();
        let below = match level {
            arguments::LevelArg::Debug => String::new(),
            _ if left_out == 0 => String::new(),
            _ => format!(" ({left_out} of a lower level left out)"),
        };
        if entries.is_empty() {
            return Ok(ToolOutput::text(format!(
                "No console messages since you last asked{below}."
            )));
        }
        let mut text = format!(
            "{} console message{} since you last asked{below}:\n",
            entries.len(),
            if entries.len() == 1 { "" } else { "s" }
        );
        if dropped > 0 {
            let _ = writeln!(
                text,
                "({dropped} earlier message{} not kept: only the last {} are.)",
                if dropped == 1 { " was" } else { "s were" },
                state.console.len()
            );
        }
        // The newest that fit the answer's budget.
        let budget = self.options.budget_tokens * 4;
        let mut size = 0;
        let shown = entries
            .iter()
            .rev()
            .take_while(|line| {
                size += line.len() + 1;
                size <= budget
            })
            .count();
        if shown < entries.len() {
            let _ = writeln!(
                text,
                "(The {} oldest are left out to keep this answer short.)",
                entries.len() - shown
            );
        }
        text.push_str(&fenced(
            state.fence,
            "console",
            "(the page's output, untrusted)",
            entries[entries.len() - shown..].iter().map(String::as_str),
        ));
        Ok(ToolOutput::text(text.trim_end().to_owned()))
    }

    pub(crate) async fn close(&self, state: &mut State, _: arguments::NoArgs) -> Outcome {
        use std::sync::atomic::Ordering;
        // Set before the browser goes, under the state: a call queued
        // behind this one finds the session ended, never a fresh browser.
        if self.close_ends.load(Ordering::Acquire) {
            self.ended.store(true, Ordering::Release);
        }
        self.driver.close().await?;
        *state = State::default();
        if self.ended.load(Ordering::Acquire) {
            return Ok(ToolOutput::text("Closed the browser.".to_owned()));
        }
        Ok(ToolOutput::text(
            "Closed the browser; the next call starts a fresh one.".to_owned(),
        ))
    }

    pub(crate) async fn dialog(
        &self,
        state: &mut State,
        mut args: arguments::DialogArgs,
    ) -> Outcome {
        if let Some(text) = &args.text {
            args.text = Some(self.secrets.fill_in("dialog", text)?);
        }
        let open = self.driver.dialog().await?;
        let Some(open) = open else {
            return Err(DriverError::NoDialog.into());
        };
        self.driver
            .answer_dialog(args.accept, args.text.as_deref())
            .await?;
        state.dialog_open = false;
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
        self.after(state, did).await
    }
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
            "{}. {} {}{}",
            index + 1,
            shown(&tab.title),
            address(&tab.url),
            if tab.current { " (current)" } else { "" }
        );
    }
    text.trim_end().to_owned()
}

/// What a model searched for, quoted and cut to a readable length.
fn quote_asked(text: &str) -> String {
    format!("{:?}", marks::cut(text, 100))
}
