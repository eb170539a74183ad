//! The task's origins (`guard::Task`: `--read-origin`, `--act-origin`):
//! what the model may act on, and where what it read may go.
//!
//! With no origin named, nothing here refuses anything. With origins
//! named:
//!
//! - The model opens only the task's origins (the guard's URL gate).
//! - A tool that acts on a page (a click, typing, a form, a page's tool, a
//!   script in the page) runs only where the element's document is of an
//!   act origin. On a page the task may only read, a click on a link is
//!   reading, and is let through.
//! - Pressing what sends a form (a submit button, Enter in a field) is
//!   judged by where the form goes: posted, it acts there; sent by `get`,
//!   it reads there on the page's origin and carries its fields to any
//!   other, where the task must act.
//! - What the model read is remembered by the origin it was read on: the
//!   words of it that carry data (numbers of four digits or more, e-mail
//!   addresses, words of letters and digits). What a call sends (a URL it
//!   opens, text it types or fills in, a page tool's input, a script) may
//!   carry such a word only back to the origin it was read on or to an act
//!   origin; a one-time code read in the mail does not go to a forum in a
//!   link.
//! - A script for the page (`evaluate`) can send what it reads or works
//!   out anywhere, whatever its words: from the first one on, the guard
//!   holds every request of the session within the task's origins, as
//!   `strict` does from the start, and cuts what a page keeps open
//!   elsewhere (the answer says so once).
//! - A page that goes to an origin outside the task's (a link, a script)
//!   is taken back, a tab it opens there is closed, and the answer says
//!   so; with `strict`, the guard refuses such requests before they leave.
//! - A paste (Control+V) is refused: the clipboard holds what was copied
//!   where no call says (a page's copy button), unjudged.
//!
//! Every refusal says which origin, why, and the flag that allows it: the
//! person widens the task, a page never can.

use driver_core::{Driver, PageText};
use serde_json::Value;
use url::Url;

use crate::error::ToolError;
use crate::output::ToolOutput;
use crate::page_values::{document_url, shows_error_page};
use crate::state::State;
use crate::tool::Tool;

/// Every string of a call's arguments (what it would send).
fn sent_strings(arguments: &Value, into: &mut Vec<String>) {
    match arguments {
        Value::String(text) => into.push(text.clone()),
        Value::Array(items) => items.iter().for_each(|item| sent_strings(item, into)),
        Value::Object(fields) => fields.values().for_each(|field| sent_strings(field, into)),
        _ => {}
    }
}

/// A tool's call refused for the task: which origin, why, how to allow it.
fn refused(tool: &'static str, why: String) -> ToolError {
    ToolError::Refused { tool, why }
}

mod keys;
use keys::{pastes, reading_keys};

impl crate::Pack {
    /// Refuses a call the task does not allow (see the module docs): an
    /// action on a page of an origin the task may only read, or what it
    /// sends carrying data read on another origin to one it may not go to.
    pub(crate) async fn hold_to_task(
        &self,
        state: &mut State,
        tool: &'static Tool,
        arguments: &Value,
    ) -> Result<(), ToolError> {
        let task = &self.browser.driver.guard().task();
        if !task.is_set() {
            return Ok(());
        }
        let driver = &self.browser.driver;
        if tool.name == "press"
            && arguments
                .get("keys")
                .and_then(Value::as_str)
                .is_some_and(pastes)
        {
            return Err(refused(tool.name, "a paste carries what the clipboard holds, copied where this task cannot tell (a page's copy button, another page), and this task keeps what it reads within its origins; type the text instead: what is typed is judged by where it was read".to_owned()));
        }
        if tool.name == "drag" {
            return self.hold_drag(arguments, task).await;
        }
        // Where a form the call sends goes, where that is another origin.
        let mut form_to = None;
        // Where what it sends goes: the URL it opens, or the document it
        // acts in (an element's frame, else the top document).
        let destination = match (tool.name, arguments.get("url").and_then(Value::as_str)) {
            // An origin outside the task the guard refuses itself, saying
            // so; what the URL carries is its path, query and fragment.
            ("open" | "tabs", Some(url)) => match Url::parse(url) {
                Ok(parsed) if task.may_read(&parsed) => {
                    let carried = &parsed[url::Position::BeforePath..];
                    return hold_flow(state, tool, task, carried, &parsed, false);
                }
                _ => return Ok(()),
            },
            ("open" | "tabs", None) => None,
            // Answering a dialog is no act of its own (the page asked);
            // what a prompt is given goes to the page, checked below.
            ("dialog", _) => document_url(driver, &[]).await,
            _ if tool.acts_on_page() => {
                let (page, form) = self.acted_on(tool, arguments, task).await?;
                form_to = form;
                Some(page)
            }
            _ => None,
        };
        let Some(destination) = destination else {
            return Ok(());
        };
        let mut sent = Vec::new();
        sent_strings(arguments, &mut sent);
        for text in &sent {
            hold_flow(state, tool, task, text, &destination, true)?;
            if let Some(form_to) = &form_to {
                hold_flow(state, tool, task, text, form_to, true)?;
            }
        }
        // A script in the page can send what it reads, or works out from
        // it, to any origin at any time (a timer, a socket the page keeps
        // open): no matching of words bounds that, so the guard holds
        // every request within the task from now on, as strict would.
        if tool.name == "evaluate" && driver.guard().hold_to_task() {
            state.held_to_task = true;
        }
        Ok(())
    }

    /// A drag acts where it drops (on an act origin, as any action does)
    /// and carries what it picks up: a selection's words, a link, a file.
    /// No matching of words sees that, so from one origin's page to
    /// another's it is refused.
    async fn hold_drag(&self, arguments: &Value, task: &guard::Task) -> Result<(), ToolError> {
        let from = self.drag_end(arguments, ["from", "from_x", "from_y"]).await;
        let to = self.drag_end(arguments, ["to", "x", "y"]).await;
        let (Some(from), Some(to)) = (from, to) else {
            return Err(refused(
                "drag",
                "the origin of the page it would pick up from or drop on cannot be read (a page of no origin, or one still loading), and this task acts only on its act origins; take a snapshot".to_owned(),
            ));
        };
        if !task.may_act(&to) {
            return Err(refused("drag", not_acted_on(task, &to)));
        }
        if from.origin() != to.origin() {
            return Err(refused(
                "drag",
                format!(
                    "it would carry what it picks up on {} to {}, and this task keeps what is read on one origin from reaching another; no check sees what a drag carries, so a drag stays within one origin's page",
                    from.origin().ascii_serialization(),
                    to.origin().ascii_serialization()
                ),
            ));
        }
        Ok(())
    }

    /// The document at one end of a drag, as a URL (see
    /// [`aimed`](Self::aimed)); `None` where it cannot be told.
    async fn drag_end(&self, arguments: &Value, keys: [&str; 3]) -> Option<Url> {
        let (_, frame, _) = self.aimed(arguments, keys).await?;
        document_url(&self.browser.driver, &frame).await
    }

    /// Where a call aims, by the arguments `[number, x, y]` name: the
    /// element by its number (one no snapshot gave is the top document's,
    /// and the call itself says it is unknown), or the point, where the
    /// frame drawn there is the one aimed at, whatever lies in it. Its
    /// number (at a point, the element there, numbered now), its frame's
    /// path, and the role it was read as (at a point, `link` or nothing);
    /// `None` where the point cannot be looked up.
    async fn aimed(
        &self,
        arguments: &Value,
        [number, x, y]: [&str; 3],
    ) -> Option<(Option<u32>, Vec<u32>, String)> {
        let driver = &self.browser.driver;
        match (
            arguments.get(number).and_then(Value::as_u64),
            arguments.get(x).and_then(Value::as_f64),
            arguments.get(y).and_then(Value::as_f64),
        ) {
            (Some(number), _, _) => {
                let number = u32::try_from(number).unwrap_or(u32::MAX);
                let (frame, role) = match driver.current_tab().await {
                    Ok(tab) => self.browser.marks.pointed(&tab, number),
                    Err(_) => None,
                }
                .unwrap_or_default();
                Some((Some(number), frame, role))
            }
            (None, Some(x), Some(y)) => {
                let (frame, found) = self.browser.marks.at(driver, x, y).await.ok()?;
                Some(match found {
                    Some((number, role, _)) => {
                        let link = crate::page_strings::is(&role, "link");
                        (
                            Some(number),
                            frame,
                            if link { "link" } else { "" }.to_owned(),
                        )
                    }
                    None => (None, frame, String::new()),
                })
            }
            _ => Some((None, Vec::new(), String::new())),
        }
    }

    /// The origin a tool that acts on a page acts in, as a URL: the
    /// element's document's (its frame's, for one in a frame; at a point,
    /// the frame drawn there), else the top document's; refused where the
    /// task may not act there (a click on a link and keys that only move
    /// about read, and pass). With it,
    /// where a form the call sends goes, if that is another origin (see
    /// [`form_sent`](Self::form_sent)).
    async fn acted_on(
        &self,
        tool: &'static Tool,
        arguments: &Value,
        task: &guard::Task,
    ) -> Result<(Url, Option<Url>), ToolError> {
        let driver = &self.browser.driver;
        // The element acted on: by its number, or what lies at the point
        // (a click at x,y on a link follows it, as one by number does).
        let (number, mut frame, role) = self
            .aimed(arguments, ["element", "x", "y"])
            .await
            .unwrap_or_default();
        // Keys with no element go where the focus is, into another site's
        // frame too: that document's origin is the one acted on.
        if number.is_none() && tool.name == "press" {
            frame = self.browser.marks.focused_frame(driver).await;
        }
        let Some(url) = document_url(driver, &frame).await else {
            return Err(refused(
                tool.name,
                "the origin of the page it would act on cannot be read (a page of no origin, or one still loading), and this task acts only on its act origins; take a snapshot".to_owned(),
            ));
        };
        // Following a link reads, and so do keys that only move
        // about; pressing anything else acts.
        let keys = arguments.get("keys").and_then(Value::as_str);
        let reads = task.may_read(&url)
            && ((tool.name == "click" && role == "link")
                || (tool.name == "press" && keys.is_some_and(reading_keys)));
        if !task.may_act(&url) && !reads {
            return Err(refused(tool.name, not_acted_on(task, &url)));
        }
        // (Asked for a link too: a submit button may call itself one.)
        let form = self.form_sent(tool, arguments, number, task, &url).await?;
        Ok((url, form))
    }

    /// Where a form the call would send goes, judged as what it is: a
    /// form posted acts where it goes; one sent by `get` reads there if
    /// that is this page's origin (as a link does), and carries what its
    /// fields hold if it is another. Refused where the task may not do
    /// that there; the address, where it is another origin. (A form a
    /// page's script sends is the page's own request, judged by origin.)
    async fn form_sent(
        &self,
        tool: &'static Tool,
        arguments: &Value,
        number: Option<u32>,
        task: &guard::Task,
        page: &Url,
    ) -> Result<Option<Url>, ToolError> {
        let keys = || {
            arguments
                .get("keys")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .split_whitespace()
                .filter_map(|key| key.parse::<driver_core::KeyPress>().ok())
                .map(|press| press.key)
                .collect::<Vec<_>>()
        };
        let submit = arguments.get("submit").and_then(Value::as_bool) == Some(true);
        // Which element is pressed, and whether by Enter: a click presses
        // its element; typing with submit, Enter on the field; a key, what
        // has the focus.
        let (element, enter) = match tool.name {
            "click" if number.is_some() => (number, false),
            "type" if submit => (number, true),
            "press" => {
                let keys = keys();
                if keys.contains(&driver_core::Key::Enter) {
                    (None, true)
                } else if keys.contains(&driver_core::Key::Space) {
                    (None, false)
                } else {
                    return Ok(None);
                }
            }
            _ => return Ok(None),
        };
        let sent = match self
            .browser
            .marks
            .sends(&self.browser.driver, element, enter)
            .await
        {
            Ok(Some((method, to))) => (method, to),
            // No form, or an element the action itself will say is gone.
            Ok(None)
            | Err(
                marks::MarksError::Unknown { .. }
                | marks::MarksError::Navigated { .. }
                | marks::MarksError::Gone { .. },
            ) => return Ok(None),
            // Where a form would go is not guessed (and what the page
            // said of it is not repeated here).
            Err(_) => {
                return Err(refused(
                    tool.name,
                    "where its form would go cannot be read now, and this task acts only where it may; take a snapshot and try again".to_owned(),
                ))
            }
        };
        #[allow(clippy::disallowed_methods)] // parsed and judged, not shown
        let Ok(to) = Url::parse(sent.1.untrusted()) else {
            return Ok(None);
        };
        if !matches!(to.scheme(), "http" | "https") {
            return Ok(None);
        }
        let elsewhere = to.origin() != page.origin();
        let allowed = if sent.0 == "post" || elsewhere {
            task.may_act(&to)
        } else {
            task.may_read(&to)
        };
        if !allowed {
            let how = if sent.0 == "post" {
                "posts its form to"
            } else {
                "sends what its form holds to"
            };
            let what = match tool.name {
                "click" => "pressing it",
                "type" => "Enter in that field",
                _ if enter => "Enter on what has the focus",
                _ => "Space on what has the focus",
            };
            return Err(refused(
                tool.name,
                format!(
                    "{what} {how} {}; {}",
                    crate::page_strings::address(to.as_str()),
                    not_acted_on(task, &to)
                ),
            ));
        }
        Ok(elsewhere.then_some(to))
    }

    /// After a call: remembers what its answer showed by the page's origin,
    /// and takes a page that went outside the task's origins back (saying
    /// so in the answer, whose page is then read again: what it showed of
    /// the refused page is not what the tab shows now).
    pub(crate) async fn keep_to_task(&self, state: &mut State, output: &mut ToolOutput) {
        let task = &self.browser.driver.guard().task();
        if !task.is_set() {
            return;
        }
        if std::mem::take(&mut state.held_to_task) {
            output.text.insert_str(0, HELD_TO_TASK);
        }
        let held = self.held_this_call(state);
        self.close_tabs_outside(task, held.as_ref(), state, &mut output.text)
            .await;
        let url = document_url(&self.browser.driver, &[]).await;
        let said = match &url {
            Some(url) if task.may_read(url) => {
                remember(state, url, &output.text);
                return;
            }
            Some(url) => self.take_back_went(url).await,
            None => match held {
                Some(held) => self.take_back_held(&held).await,
                None => return,
            },
        };
        let Some((said, back)) = said else {
            return;
        };
        if back {
            self.read_again(state, output).await;
        } else {
            // (What it showed is the error page, or a page outside the
            // task: neither is for the model to read.)
            output.text = what_it_did(&output.text);
            output.images.clear();
        }
        output.text.insert_str(0, &said);
        if let Some(url) = document_url(&self.browser.driver, &[]).await {
            if task.may_read(&url) {
                remember(state, &url, &output.text);
            }
        }
    }
}

/// Why a tool may not act on a page of `url`, and how the person can allow
/// it: the origin where the task does not act there at all, else (it acts
/// on other pages of it: `--act-origin https://shop.example/checkout`)
/// this page's place on it.
fn not_acted_on(task: &guard::Task, url: &Url) -> String {
    let origin = url.origin().ascii_serialization();
    let acts: Vec<String> = task.act.iter().map(ToString::to_string).collect();
    let acts = if acts.is_empty() {
        "none".to_owned()
    } else {
        acts.join(", ")
    };
    let (what, allow) = if task.acts_on_origin(url) {
        let page = format!("{origin}{}", url.path().trim_end_matches('/'));
        (
            format!(
                "{} is a page this task may read, not act on: it acts only on the pages named ({acts}), so that nothing changes elsewhere on the site that the task did not ask for",
                crate::page_strings::address(&page)
            ),
            page,
        )
    } else {
        let why = if task.may_read(url) {
            "an origin this task may read, not act on"
        } else {
            "outside this task's origins (a frame of another site's, say)"
        };
        (
            format!(
                "{} is {why} (it acts on {acts})",
                crate::page_strings::address(&origin)
            ),
            origin,
        )
    };
    format!(
        "{what}; do it on a page of those, or ask the person (ask_origin with act, where offered; they can allow it with --act-origin {})",
        crate::page_strings::address(&allow)
    )
}

/// What the answer of the call whose script had every request held within
/// the task says first.
const HELD_TO_TASK: &str = "Requests held within the task's origins: a script in the page can send what it reads anywhere, so from now on every request of this session's pages goes only to the task's origins, as under --task-strict (connections open to others were cut). Pages that need another origin's scripts or pictures may now lack them.\n";

/// What an answer says the call did: its lines before the page (its head,
/// `Page: `, or its first fence).
fn what_it_did(answer: &str) -> String {
    answer
        .lines()
        .take_while(|line| !line.starts_with("Page: ") && !line.starts_with("--- "))
        .map(|line| format!("{line}\n"))
        .collect()
}

/// Remembers the page words of an answer (its fenced lines, and its
/// title: in the answer's head outside the fences, the page's words too;
/// not its address, as often what the model opened, the user's words in a
/// query) as read on `url`'s origin.
fn remember(state: &mut State, url: &Url, text: &str) {
    let origin = url.origin().ascii_serialization();
    for line in page_lines(text) {
        state.provenance.read(&origin, line);
    }
    for line in text.lines().filter(|line| line.starts_with("Page: ")) {
        state.provenance.read(&origin, line);
    }
}

impl crate::Pack {
    /// The last page this call's tabs would have gone to outside the
    /// task's origins, or sent to where it only reads, which the browser
    /// refused before its request left (the guard's `page_may_go`), if any.
    fn held_this_call(&self, state: &State) -> Option<Held> {
        let refusals = self
            .browser
            .driver
            .guard()
            .refusals()
            .since(state.refusals_at_call);
        refusals
            .iter()
            .rev()
            .find_map(|refusal| match &refusal.reason {
                guard::Reason::OutsideTask { target } => Some(Held {
                    target: target.clone(),
                    sent: false,
                }),
                guard::Reason::NotActedOn { target } => Some(Held {
                    target: target.clone(),
                    sent: true,
                }),
                _ => None,
            })
    }

    /// Where this call's page was held (see [`Held`]) and Chrome shows its
    /// error page in the tab: takes it back to the page before. The
    /// sentence that says so, and whether it went back; `None` where the
    /// tab shows no error page (`about:blank` while strict refused a
    /// page's own request stays; Firefox leaves the page as it was).
    async fn take_back_held(&self, held: &Held) -> Option<(String, bool)> {
        if !shows_error_page(&self.browser.driver).await {
            return None;
        }
        let back = self.browser.driver.back().await.is_ok();
        let went = if held.sent {
            "would have sent a form to"
        } else {
            "would have gone to"
        };
        Some((
            format!(
                "The page {went} {}, {}; the browser refused it before anything was sent there, and {}. The person can allow it with {}.\n",
                crate::page_strings::address(&PageText::from(held.target.as_str())),
                held.why(),
                if back {
                    "the page was taken back to where it was, read below"
                } else {
                    "it could not be taken back: open a page of the task"
                },
                held.flag()
            ),
            back,
        ))
    }

    /// Where the page went to `url`, outside the task's origins: takes it
    /// back. The sentence that says so, and whether it went back.
    async fn take_back_went(&self, url: &Url) -> Option<(String, bool)> {
        let went = PageText::from(url.origin().ascii_serialization());
        let back = self.browser.driver.back().await.is_ok();
        Some((
            format!(
                "The page went to {}, outside this task's origins; {} (the person can allow it with --read-origin).\n",
                crate::page_strings::address(&went),
                if back {
                    "it was taken back, and is read below"
                } else {
                    "it could not be taken back: open a page of the task"
                }
            ),
            back,
        ))
    }

    /// Reads the page a take-back went to in place of the one the answer
    /// showed (the browser's error page, or a page outside the task): what
    /// the call said it did is kept, the page from its head (`Page: `) or
    /// its first fence on, and its pictures, are the fresh snapshot's.
    async fn read_again(&self, state: &mut State, output: &mut ToolOutput) {
        let fresh = self
            .answered(state, "snapshot", Value::Object(Default::default()))
            .await;
        output.text = format!("{}{}", what_it_did(&output.text), fresh.text);
        output.images = fresh.images;
    }

    /// Closes the tabs other than the current one whose page is outside
    /// the task's origins (a popup a page opened there), and a blank one
    /// opened in this call whose first page the browser refused (Firefox
    /// leaves it blank), saying so.
    async fn close_tabs_outside(
        &self,
        task: &guard::Task,
        held: Option<&Held>,
        state: &mut State,
        text: &mut String,
    ) {
        let Ok(tabs) = self.browser.driver.tabs().await else {
            return;
        };
        for tab in tabs.iter().filter(|tab| !tab.current) {
            #[allow(clippy::disallowed_methods)] // compared, not shown
            let went = match Url::parse(tab.url.untrusted()) {
                Ok(url) if matches!(url.scheme(), "http" | "https") && !task.may_read(&url) => {
                    Held {
                        target: url.origin().ascii_serialization(),
                        sent: false,
                    }
                }
                _ if tab.url.is_empty() || tab.url == "about:blank" => {
                    match (held, state.tabs_at_call.contains(&tab.id)) {
                        (Some(held), false) => held.clone(),
                        _ => continue,
                    }
                }
                _ => continue,
            };
            if self.browser.driver.close_tab(&tab.id).await.is_ok() {
                state.tabs.retain(|id| *id != tab.id);
                text.insert_str(
                    0,
                    &format!(
                        "A tab the page opened {} {}, {}, was closed (the person can allow it with {}).\n",
                        if went.sent { "to send a form to" } else { "for" },
                        crate::page_strings::address(&PageText::from(went.target.as_str())),
                        went.why(),
                        went.flag()
                    ),
                );
            }
        }
    }
}

/// A page a tab would have gone to, refused before its request left.
#[derive(Debug, Clone)]
struct Held {
    /// Its origin (outside the task's), or the page sent to.
    target: String,
    /// Whether a form was sent there (a page the task only reads), rather
    /// than a page asked for outside the task's origins.
    sent: bool,
}

impl Held {
    /// Why it was refused, as a phrase after its address.
    fn why(&self) -> &'static str {
        if self.sent {
            "a page this task may read, not act on"
        } else {
            "outside this task's origins"
        }
    }

    /// The flag that allows it.
    fn flag(&self) -> &'static str {
        if self.sent {
            "--act-origin"
        } else {
            "--read-origin"
        }
    }
}

/// Refuses `sent` going to `destination` if it carries data read on
/// an origin it may not go from to there.
fn hold_flow(
    state: &State,
    tool: &'static Tool,
    task: &guard::Task,
    sent: &str,
    destination: &Url,
    typed: bool,
) -> Result<(), ToolError> {
    let Some((origin, word)) = state.provenance.astray(sent, destination, task, typed) else {
        return Ok(());
    };
    let to = destination.origin().ascii_serialization();
    let (word, from, to) = (
        crate::page_strings::shown(&word),
        crate::page_strings::address(&origin),
        crate::page_strings::address(&to),
    );
    if task.may_act(destination) {
        // Strict: a page of an act origin wrote it.
        return Err(refused(
            tool.name,
            format!(
                "it would type {word} (read on {from}, an origin this task acts on) into {to}; under --task-strict what such a page shows is the page's, not the user's (an address a review wrote is not the user's address), so type what the user gave instead, or ask the person for this word alone (ask_origin with from and word, where offered; they can allow every word of it with --allow-flow {from}={to})"
            ),
        ));
    }
    Err(refused(
        tool.name,
        format!(
            "it would carry {word} (read on {from}) to {to}, which is not where it was read nor an origin the task acts on; what a page shows goes only back to its own origin or to the task's act origins, so leave it out, or ask the person for this word alone (ask_origin with from and word, where offered; they can allow every word of it with --allow-flow {from}={to}, or make {to} an origin the task acts on with --act-origin {to})"
        ),
    ))
}

/// The lines of an answer inside its fences: what the page wrote (not
/// tabwright's own lines, its addresses, titles and sentences).
fn page_lines(answer: &str) -> impl Iterator<Item = &str> {
    let mut inside = false;
    answer.lines().filter(move |line| {
        if line.starts_with("--- ") {
            inside = !line.starts_with("--- end ");
            return false;
        }
        inside
    })
}
