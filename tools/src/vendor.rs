//! Executors for the browser tools the model vendors define and leave the
//! caller to carry out: Anthropic's `browser_toolset_20260801` and
//! OpenAI's `computer` tool. Each call is mapped onto the pack's own tools
//! and made through [`Pack::call`], so the guard, secrets, the handoff rule
//! and the trace hold as they do for MCP; only the shape of the call and of
//! its result is the vendor's.
//!
//! ```no_run
//! # async fn run(pack: tabwright_tools::Pack) {
//! use tabwright_tools::{Executor, Toolset};
//! let executor = Executor::new(&pack, Toolset::AnthropicBrowser);
//! let tool_use = serde_json::json!({
//!     "type": "tool_use", "id": "toolu_1", "name": "navigate",
//!     "input": { "url": "https://example.com/" }
//! });
//! let tool_result = executor.execute(&tool_use).await; // a `tool_result` block
//! # }
//! ```
//!
//! What maps to what is [`ANTHROPIC_MEMBERS`]; the README's table is made
//! from it.

use std::collections::HashMap;

use driver_core::{DownloadOutcome, Driver, TabId};
use serde_json::{json, Value};
use tokio::sync::Mutex;

use crate::actions::PRESSED_AT_MOST;
use crate::output::ToolOutput;
use crate::pack::Pack;
use crate::page_strings::inline;
use crate::page_values::PageAnswers;

mod arguments;
use arguments::{click_target, computer_action, element, modifiers, point, target_ref};

/// A vendor's tool family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Toolset {
    /// Anthropic's `browser_toolset_20260801`: one `tool_use` block in,
    /// one `tool_result` block out, with a `browser_state` block.
    AnthropicBrowser,
    /// OpenAI's Responses API `computer` tool: one `computer_call` item
    /// (its `actions`, run in order, stopped at the first that fails) in,
    /// one `computer_call_output` item with a screenshot out.
    OpenAiComputer,
}

impl Toolset {
    /// By the name the vendor gives it (or a short one): `browser_toolset_20260801`
    /// (`anthropic-browser`), `computer` (`openai-computer`).
    pub fn from_name(name: &str) -> Result<Self, String> {
        match name {
            "browser_toolset_20260801" | "anthropic-browser" => Ok(Self::AnthropicBrowser),
            "computer" | "openai-computer" | "computer_use_preview" => Ok(Self::OpenAiComputer),
            other => Err(format!(
                "{other:?} is not a toolset tabwright executes (browser_toolset_20260801, computer)"
            )),
        }
    }

    /// Whether the pack it runs over should answer with pictures (the
    /// computer tool is a vision tool; the browser toolset reads text).
    pub fn wants_vision(self) -> bool {
        self == Self::OpenAiComputer
    }
}

/// How one member of Anthropic's browser toolset is carried out.
#[derive(Debug, Clone, Copy)]
pub struct Member {
    /// The member's name.
    pub name: &'static str,
    /// The pack's tool it becomes, or `None`: no counterpart.
    pub tool: Option<&'static str>,
    /// The group that tool needs beyond core, if any.
    pub group: Option<crate::Group>,
    /// How, or why not.
    pub note: &'static str,
}

const fn member(
    name: &'static str,
    tool: Option<&'static str>,
    group: Option<crate::Group>,
    note: &'static str,
) -> Member {
    Member {
        name,
        tool,
        group,
        note,
    }
}

/// Every member of `browser_toolset_20260801`, in the vendor's order.
pub const ANTHROPIC_MEMBERS: [Member; 31] = {
    use crate::Group::{Files, Forms, Network, Script};
    [
        member("navigate", Some("open"), None, "a URL without a scheme gets https://; `back`, `forward` are the history tools, `reload` opens the current URL again"),
        member("list_tabs", Some("tabs"), None, "the result is the `browser_state` block"),
        member("new_tab", Some("tabs"), None, "`tabs` `new`"),
        member("switch_tab", Some("tabs"), None, "`tabs` `switch` to the tab the id names"),
        member("close_tab", Some("tabs"), None, "`tabs` `close`"),
        member("read_page", Some("snapshot"), None, "`ref_N` is element [N]; `filter: all` reads the whole page, `ref` a scope; `depth` is not needed (the snapshot is flat)"),
        member("get_page_text", Some("read"), None, "the main content as markdown"),
        member("read_console", Some("console"), None, "messages since the last read"),
        member("read_network", Some("requests"), Some(Network), "the network group, and `--network-log`"),
        member("find", Some("find"), None, "by words of the page (its names and text), not meaning; a query that matches nothing is tried again by its longest word"),
        member("form_input", Some("fill"), Some(Forms), "a boolean ticks or clears a checkbox"),
        member("file_upload", Some("upload"), Some(Files), "paths inside the uploads folder only; `document_ids` are not supported"),
        member("scroll_to", Some("scroll"), None, "`scroll` to the element"),
        member("screenshot", Some("screenshot"), None, "the viewport"),
        member("zoom", None, None, "no counterpart: tabwright takes no picture of a region; take a screenshot"),
        member("left_click", Some("click"), None, "a ref or a point, with the modifiers"),
        member("right_click", Some("click"), None, "`button: right`"),
        member("middle_click", Some("click"), None, "`button: middle`"),
        member("double_click", Some("click"), None, "`count: 2`"),
        member("triple_click", Some("click"), None, "`count: 3`"),
        member("hover", Some("hover"), None, "a ref or a point"),
        member("left_click_drag", Some("drag"), Some(Forms), "`drag` from the point `from` to the point `target`"),
        member("left_mouse_down", None, None, "no counterpart: a button held across calls is a state each call's settling and checks would not see; use left_click_drag"),
        member("left_mouse_up", None, None, "no counterpart, as left_mouse_down"),
        member("mouse_move", Some("hover"), None, "to the point"),
        member("scroll", Some("scroll"), None, "at the point, 100 px a notch (default 3)"),
        member("type", Some("type"), None, "into the focused element"),
        member("key", Some("press"), None, "the same chords (`ctrl+a`, `Return`); `repeat` repeats the sequence"),
        member("hold_key", None, None, "no counterpart: a key held for a time is not an input tabwright makes"),
        member("wait", Some("wait_for"), None, "`seconds`, at most 30"),
        member("javascript_exec", Some("evaluate"), Some(Script), "the script group; its value comes back fenced as page content"),
    ]
};

/// Runs a vendor's tool calls over a pack.
pub struct Executor<'a> {
    pack: &'a Pack,
    toolset: Toolset,
    known: Mutex<Known>,
}

/// What the executor has told the caller: tab ids, downloads reported.
#[derive(Default)]
struct Known {
    /// The caller's id of each tab (`tab_1`, …), stable while it is open.
    tabs: HashMap<TabId, String>,
    next_tab: u32,
    /// The tabs the last `browser_state` listed.
    listed: Vec<TabId>,
    /// Where the download reports were read up to.
    downloads_read: u64,
    /// Each download's id, by where it came from and its name.
    downloads: HashMap<(driver_core::PageText, driver_core::PageText), String>,
    next_download: u32,
}

impl<'a> Executor<'a> {
    /// An executor of `toolset` over `pack` (whose groups decide which
    /// members can be carried out; see [`tool_entry`](Self::tool_entry)).
    pub fn new(pack: &'a Pack, toolset: Toolset) -> Self {
        Self {
            pack,
            toolset,
            known: Mutex::new(Known::default()),
        }
    }

    /// The `tools[]` entry to send the vendor's API for what this executor
    /// carries out: Anthropic's toolset with the members this pack cannot
    /// carry out disabled, or OpenAI's computer tool at the viewport's size.
    pub fn tool_entry(&self) -> Value {
        match self.toolset {
            Toolset::AnthropicBrowser => self.anthropic_toolset(),
            Toolset::OpenAiComputer => {
                let options = self.pack.driver().options();
                json!({
                    "type": "computer",
                    "environment": "browser",
                    "display_width": options.width,
                    "display_height": options.height,
                })
            }
        }
    }

    fn anthropic_toolset(&self) -> Value {
        let mut configs = serde_json::Map::new();
        for member in ANTHROPIC_MEMBERS {
            configs.insert(
                member.name.to_owned(),
                json!({ "enabled": self.can(&member) }),
            );
        }
        json!({ "type": "browser_toolset_20260801", "configs": configs })
    }

    fn can(&self, member: &Member) -> bool {
        member
            .tool
            .is_some_and(|tool| self.pack.tools().iter().any(|def| def.name == tool))
    }

    /// Carries out one call: for Anthropic's toolset a `tool_use` block
    /// (answered with its `tool_result` block), for OpenAI's a
    /// `computer_call` item (answered with its `computer_call_output`).
    /// Never fails: a call that cannot be carried out is answered as an
    /// error the model reads.
    pub async fn execute(&self, call: &Value) -> Value {
        match self.toolset {
            Toolset::AnthropicBrowser => self.anthropic(call).await,
            Toolset::OpenAiComputer => self.computer(call).await,
        }
    }

    async fn anthropic(&self, call: &Value) -> Value {
        let id = call["id"].as_str().unwrap_or_default().to_owned();
        let name = call["name"].as_str().unwrap_or_default();
        let input = &call["input"];
        let answer = match self.anthropic_member(name, input).await {
            Ok(answer) => answer,
            Err(problem) => ToolOutput {
                text: problem,
                images: Vec::new(),
                is_error: true,
            },
        };
        let mut content: Vec<Value> = Vec::new();
        if !answer.text.is_empty() {
            content.push(json!({ "type": "text", "text": answer.text }));
        }
        for image in &answer.images {
            content.push(json!({
                "type": "image",
                "source": { "type": "base64", "media_type": image.mime_type, "data": image.base64() },
            }));
        }
        // A browser_state block only on a result that is not an error.
        if !answer.is_error {
            content.push(self.browser_state().await);
        }
        json!({
            "type": "tool_result",
            "tool_use_id": id,
            "content": content,
            "is_error": answer.is_error,
        })
    }

    // (Over 100 lines: one match over the toolset's members, an arm each.)
    async fn anthropic_member(&self, name: &str, input: &Value) -> Result<ToolOutput, String> {
        let Some(member) = ANTHROPIC_MEMBERS.iter().find(|member| member.name == name) else {
            return Err(format!(
                "{name:?} is not a member of browser_toolset_20260801"
            ));
        };
        if !self.can(member) {
            return Err(match (member.tool, member.group) {
                (None, _) => format!("{name} is not supported here: {}.", member.note),
                (Some(_), Some(group)) => format!(
                    "{name} is off in this session: it needs tabwright's {group} group (--caps)."
                ),
                (Some(_), None) => format!("{name} is off in this session."),
            });
        }
        if let Some(tab) = input["tab_id"].as_str() {
            if !matches!(name, "switch_tab" | "close_tab") {
                self.activate(tab).await?;
            }
        }
        let text = |key: &str| input[key].as_str().unwrap_or_default().to_owned();
        let (tool, arguments) = match name {
            "navigate" => {
                let url = text("url");
                match url.as_str() {
                    "back" | "forward" => (url.clone(), json!({})),
                    "reload" => {
                        let current = self
                            .pack
                            .driver()
                            .page_world("location.href")
                            .await
                            .ok()
                            .and_then(|href| href.text())
                            .unwrap_or_default();
                        ("open".to_owned(), json!({ "url": current }))
                    }
                    _ if url.contains("://") || url.starts_with("about:") => {
                        ("open".to_owned(), json!({ "url": url }))
                    }
                    _ => (
                        "open".to_owned(),
                        json!({ "url": format!("https://{url}") }),
                    ),
                }
            }
            "list_tabs" => {
                // The state block is the whole answer.
                return Ok(ToolOutput::text(String::new()));
            }
            "new_tab" => ("tabs".to_owned(), json!({ "action": "new" })),
            "switch_tab" | "close_tab" => {
                let (index, _) = self.tab_of(&text("tab_id")).await?;
                let action = if name == "switch_tab" {
                    "switch"
                } else {
                    "close"
                };
                ("tabs".to_owned(), json!({ "action": action, "tab": index }))
            }
            "read_page" => {
                let mut arguments = json!({});
                if input["filter"] == "all" {
                    arguments["full_page"] = true.into();
                }
                if let Some(reference) = input["ref"].as_str() {
                    arguments["scope"] = element(reference)?.into();
                }
                ("snapshot".to_owned(), arguments)
            }
            "get_page_text" => ("read".to_owned(), json!({})),
            "read_console" => ("console".to_owned(), json!({})),
            "read_network" => ("requests".to_owned(), json!({})),
            "find" => {
                let query = text("query");
                let found = self.pack.call("find", json!({ "text": query })).await;
                let longest = query
                    .split_whitespace()
                    .max_by_key(|word| word.chars().count())
                    .unwrap_or_default()
                    .to_owned();
                if found.is_error
                    || !found.text.contains("Nothing on the page matches")
                    || longest == query
                {
                    return Ok(referenced(found));
                }
                ("find".to_owned(), json!({ "text": longest }))
            }
            "form_input" => {
                let target = target_ref(&input["target"])?;
                let value = match &input["value"] {
                    Value::String(text) => text.clone(),
                    Value::Bool(on) => on.to_string(),
                    Value::Number(number) => number.to_string(),
                    _ => {
                        return Err(
                            "form_input's value is a string, a number or a boolean".to_owned()
                        )
                    }
                };
                (
                    "fill".to_owned(),
                    json!({ "fields": [{ "element": target, "value": value }] }),
                )
            }
            "file_upload" => {
                let target = target_ref(&input["target"])?;
                if input["document_ids"].is_array() && !input["paths"].is_array() {
                    return Err("file_upload takes paths here (inside the uploads folder); document_ids are not supported".to_owned());
                }
                (
                    "upload".to_owned(),
                    json!({ "element": target, "paths": input["paths"] }),
                )
            }
            "scroll_to" => (
                "scroll".to_owned(),
                json!({ "element": target_ref(&input["target"])? }),
            ),
            "screenshot" => ("screenshot".to_owned(), json!({})),
            "left_click" | "right_click" | "middle_click" | "double_click" | "triple_click" => {
                let mut arguments = click_target(&input["target"])?;
                match name {
                    "right_click" => arguments["button"] = "right".into(),
                    "middle_click" => arguments["button"] = "middle".into(),
                    "double_click" => arguments["count"] = 2.into(),
                    "triple_click" => arguments["count"] = 3.into(),
                    _ => {}
                }
                if let Some(chord) = input["modifiers"].as_str() {
                    arguments["modifiers"] = modifiers(chord)?.into();
                }
                ("click".to_owned(), arguments)
            }
            "hover" => ("hover".to_owned(), click_target(&input["target"])?),
            "mouse_move" => ("hover".to_owned(), point(&input["target"])?),
            "left_click_drag" => {
                let (from, to) = (point(&input["from"])?, point(&input["target"])?);
                (
                    "drag".to_owned(),
                    json!({ "from_x": from["x"], "from_y": from["y"], "x": to["x"], "y": to["y"] }),
                )
            }
            "scroll" => {
                let mut arguments = point(&input["target"])?;
                let notches = input["scroll_amount"].as_u64().unwrap_or(3).clamp(1, 10);
                arguments["direction"] = input["scroll_direction"].clone();
                arguments["pixels"] = (notches * 100).into();
                ("scroll".to_owned(), arguments)
            }
            "type" => ("type".to_owned(), json!({ "text": text("text") })),
            "key" => {
                let repeat = input["repeat"].as_u64().unwrap_or(1).clamp(1, 100);
                let chords = input["text"]
                    .as_str()
                    .map_or(0, |keys| keys.split_whitespace().count());
                // Checked before the repeated text is built.
                if chords.saturating_mul(usize::try_from(repeat).unwrap_or(1)) > PRESSED_AT_MOST {
                    return Err(format!(
                        "key: {chords} keys repeated {repeat} times is more than the {PRESSED_AT_MOST} keys one call presses; send fewer."
                    ));
                }
                let keys = vec![text("text"); usize::try_from(repeat).unwrap_or(1)].join(" ");
                ("press".to_owned(), json!({ "keys": keys }))
            }
            "wait" => {
                let seconds = input["duration"].as_f64().unwrap_or(1.0).clamp(0.0, 30.0);
                ("wait_for".to_owned(), json!({ "seconds": seconds }))
            }
            "javascript_exec" => ("evaluate".to_owned(), json!({ "expression": text("text") })),
            _ => return Err(format!("{name} is not supported here: {}.", member.note)),
        };
        Ok(referenced(self.pack.call(&tool, arguments).await))
    }

    /// Makes the tab the caller calls `tab` the current one.
    async fn activate(&self, tab: &str) -> Result<(), String> {
        let (index, current) = self.tab_of(tab).await?;
        if current {
            return Ok(());
        }
        let switched = self
            .pack
            .call("tabs", json!({ "action": "switch", "tab": index }))
            .await;
        if switched.is_error {
            return Err(switched.text);
        }
        Ok(())
    }

    /// The pack's number (1, 2, … oldest first) of the caller's tab id,
    /// and whether it is the current tab.
    async fn tab_of(&self, id: &str) -> Result<(u32, bool), String> {
        let tabs = self
            .pack
            .driver()
            .tabs()
            .await
            .map_err(|error| error.to_string())?;
        let known = self.known.lock().await;
        tabs.iter()
            .enumerate()
            .find(|(_, tab)| known.tabs.get(&tab.id).map(String::as_str) == Some(id))
            .and_then(|(at, tab)| Some((u32::try_from(at + 1).ok()?, tab.current)))
            .ok_or_else(|| format!("there is no open tab {id:?}; list_tabs shows the tabs"))
    }

    /// The `browser_state` block: every tab with its caller id, the active
    /// one marked, and what opened or downloaded since the last one.
    async fn browser_state(&self) -> Value {
        let tabs = self.pack.driver().tabs().await.unwrap_or_default();
        let mut known = self.known.lock().await;
        let mut entries = Vec::new();
        let mut changes = Vec::new();
        for tab in &tabs {
            let id = match known.tabs.get(&tab.id) {
                Some(id) => id.clone(),
                None => {
                    known.next_tab += 1;
                    let id = format!("tab_{}", known.next_tab);
                    known.tabs.insert(tab.id.clone(), id.clone());
                    // The first report lists the tabs there were; a tab
                    // later is one the call opened.
                    if known.next_tab > 1 || !known.listed.is_empty() {
                        changes.push(json!({ "type": "tab_opened", "tab_id": id }));
                    }
                    id
                }
            };
            let mut title = inline(&tab.title, 500);
            let mut url = inline(&tab.url, 2_000);
            self.pack.scrub(&mut title);
            self.pack.scrub(&mut url);
            entries.push(json!({
                "tab_id": id,
                "title": title,
                "url": url,
                "active": tab.current,
            }));
        }
        // Exactly one tab is active when any is open.
        if !entries.is_empty() && !entries.iter().any(|entry| entry["active"] == true) {
            if let Some(last) = entries.last_mut() {
                last["active"] = true.into();
            }
        }
        let open: Vec<TabId> = tabs.iter().map(|tab| tab.id.clone()).collect();
        known.tabs.retain(|tab, _| open.contains(tab));
        known.listed = open;
        let (downloads, next) = self.pack.downloads_since(known.downloads_read);
        known.downloads_read = next;
        for download in downloads {
            let key = (download.url.clone(), download.filename.clone());
            let id = match known.downloads.get(&key) {
                Some(id) => id.clone(),
                None => {
                    known.next_download += 1;
                    let id = format!("download_{}", known.next_download);
                    known.downloads.insert(key, id.clone());
                    id
                }
            };
            let url = inline(&download.url, 2_000);
            changes.push(match download.outcome {
                DownloadOutcome::Started => {
                    json!({ "type": "download_started", "download_id": id, "url": url })
                }
                DownloadOutcome::Saved { path, bytes } => json!({
                    "type": "download_completed", "download_id": id, "url": url,
                    "path": path.display().to_string(), "size_bytes": bytes,
                }),
                DownloadOutcome::Refused => json!({
                    "type": "download_failed", "download_id": id, "url": url,
                    "error": "refused: downloads are off (tabwright saves files only with --downloads DIR)",
                }),
                DownloadOutcome::TooLarge { limit } => json!({
                    "type": "download_failed", "download_id": id, "url": url,
                    "error": format!("larger than the {limit} bytes a download may be"),
                }),
                DownloadOutcome::Failed => json!({
                    "type": "download_failed", "download_id": id, "url": url, "error": "failed",
                }),
            });
        }
        let mut block = json!({ "type": "browser_state", "tabs": entries });
        // "Nothing to report" is an absent field, never an empty list.
        if !changes.is_empty() {
            block["state_changes"] = changes.into();
        }
        block
    }

    /// One `computer_call`: its actions in order, stopped at the first
    /// that fails, then a screenshot.
    async fn computer(&self, call: &Value) -> Value {
        let call_id = call["call_id"].as_str().unwrap_or_default().to_owned();
        let actions: Vec<Value> = match (&call["actions"], &call["action"]) {
            (Value::Array(actions), _) => actions.clone(),
            (_, action @ Value::Object(_)) => vec![action.clone()],
            _ => Vec::new(),
        };
        let mut failed = None;
        for (at, action) in actions.iter().enumerate() {
            let done = match computer_action(action) {
                Ok(Some((tool, arguments))) => self.pack.call(tool, arguments).await,
                Ok(None) => continue,
                Err(problem) => ToolOutput {
                    text: problem,
                    images: Vec::new(),
                    is_error: true,
                },
            };
            if done.is_error {
                failed = Some(format!(
                    "action {} ({}) failed: {}",
                    at + 1,
                    action["type"].as_str().unwrap_or("?"),
                    done.text
                ));
                break;
            }
        }
        let shot = self
            .pack
            .call("screenshot", json!({ "format": "png" }))
            .await;
        let image_url = shot
            .images
            .first()
            .map(|image| format!("data:{};base64,{}", image.mime_type, image.base64()));
        let mut output = json!({
            "type": "computer_call_output",
            "call_id": call_id,
            "output": { "type": "computer_screenshot", "image_url": image_url },
        });
        // The API's item has no field for a failure: the caller's loop
        // reads it here (and may tell the model), and the rest of the
        // batch was not run.
        if let Some(failed) = failed {
            output["error"] = failed.into();
        } else if shot.is_error {
            output["error"] = shot.text.into();
        }
        output
    }
}

/// An answer as a model using refs reads it: each element line's `[N]`
/// written `[ref_N]` (a line can begin with a mark only where tabwright
/// wrote one: a page's own leading marks are dropped before they are
/// shown), and links in a text (`[text][N]`) said once.
fn referenced(mut output: ToolOutput) -> ToolOutput {
    if output.is_error {
        return output;
    }
    let mut text = String::with_capacity(output.text.len() + 64);
    let mut links = false;
    for line in output.text.lines() {
        let sign = ["+ ", "~ ", "> ", "@ ", "- "]
            .iter()
            .find(|sign| line.starts_with(*sign))
            .map_or(0, |sign| sign.len());
        let star = usize::from(line[sign..].starts_with('*'));
        let at = sign + star;
        let mark = line[at..]
            .strip_prefix('[')
            .and_then(|rest| rest.split_once(']'))
            .filter(|(digits, _)| !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()));
        match mark {
            Some(_) => {
                text.push_str(&line[..=at]);
                text.push_str("ref_");
                text.push_str(&line[at + 1..]);
            }
            None => {
                links |= line.contains("][");
                text.push_str(line);
            }
        }
        text.push('\n');
    }
    text.pop();
    if links {
        text.push_str("\n(A link written [text][N] is ref_N.)");
    }
    output.text = text;
    output
}

impl Pack {
    /// The download reports answers carried since `from` (a sequence
    /// number), and where the next read starts.
    pub(crate) fn downloads_since(&self, from: u64) -> (Vec<driver_core::Download>, u64) {
        let kept = self
            .browser
            .downloads
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        (kept.since(from).cloned().collect(), kept.next_seq())
    }

    /// Scrubs `text` of the session's secrets, as an answer is.
    pub(crate) fn scrub(&self, text: &mut String) {
        self.browser.scrub(text);
    }
}

#[cfg(test)]
mod tests;
