//! The core tools that act on the browser as a whole rather than on the
//! page shown: `tabs`, `console` and `close`, with their entries of the
//! tool table.

use std::fmt::Write as _;

use driver_core::Driver;

use crate::arguments::{self, TabAction};
use crate::browser::Browser;
use crate::error::ToolError;
use crate::output::{console_line, fenced, Outcome, ToolOutput};
use crate::page_strings::{address, shown};
use crate::short;
use crate::state::State;
use crate::tool::{takes, Hints, Returns, Tool};
use crate::validate::check_address;

/// The core tools that act on the browser as a whole. The handlers are below;
/// `table` says what each field means.
pub(crate) static TOOLS: &[Tool] = &[
    Tool {
        loads_pages: true,
        hints: Hints::MOVE,
        under_dialog: true,
        returns: Returns::Itself,
        short: Some(short::TABS),
        example: r#"`{}`, `{"action": "switch", "tab": 2}`, `{"action": "new", "url": "…"}`"#,
        ..Tool::action(
            "tabs",
            "Tabs",
            "List the tabs (1, 2, … as they opened), or switch to, close or open one.",
            takes!(browser TabsArgs => tabs),
        )
    },
    Tool {
        // It reads what came since the last time: asked twice, it answers
        // differently.
        hints: Hints {
            idempotent: false,
            ..Hints::READ
        },
        under_dialog: true,
        example: r#"`{}` or `{"level": "warning"}`"#,
        ..Tool::reader(
            "console",
            "Console",
            "The console messages and uncaught page errors since you last asked.",
            takes!(browser ConsoleArgs => console),
        )
    },
    Tool {
        ends_browser: true,
        hints: Hints {
            idempotent: true,
            open_world: false,
            ..Hints::ACT
        },
        under_dialog: true,
        returns: Returns::Itself,
        ..Tool::action(
            "close",
            "Close the browser",
            "Close the browser (its tabs, cookies and storage); the next call starts a fresh one.",
            takes!(browser NoArgs => close),
        )
    },
];

// The core tools that act on the browser as a whole.
impl Browser {
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
                remember_tabs(state, &self.driver.guard().task(), &tabs);
                let mut text = tab_list(&tabs);
                // What the current page offers of its own, as its reading
                // lists it (the other tabs' pages are asked on switching).
                if let Some(current) = tabs.iter().find(|tab| tab.current) {
                    if let Some(listed) =
                        self.tab(state).page_tools_listing(&current.id, true).await
                    {
                        text.push_str("\nThe current tab's page offers tools of its own:\n");
                        text.push_str(&listed);
                    }
                }
                Ok(ToolOutput::text(text))
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
                self.tab(state)
                    .after_whole(format!("Switched to tab {number}."))
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
                self.tab(state)
                    .after_whole(format!("Closed tab {}.", closing.0))
                    .await
            }
            TabAction::New => {
                if let Some(url) = &args.url {
                    check_address(url)?;
                }
                let tab = self.driver.open_tab(args.url.as_deref()).await?;
                state.url = Some(tab.url.clone());
                state.tabs.push(tab.id);
                self.tab(state)
                    .after_whole("Opened a new tab.".to_owned())
                    .await
            }
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
}

/// A task's memory of what was read where (see `task`): each tab's title,
/// as the list shows it, was read on that tab's origin (a code in the
/// mail's title is the mail's, whatever tab is current).
fn remember_tabs(state: &mut State, task: &guard::Task, tabs: &[driver_core::Tab]) {
    if !task.is_set() {
        return;
    }
    for tab in tabs {
        #[allow(clippy::disallowed_methods)] // remembered by origin, not shown
        let (title, address) = (tab.title.untrusted(), tab.url.untrusted());
        if let Ok(url) = url::Url::parse(address) {
            state
                .provenance
                .read(&url.origin().ascii_serialization(), title);
        }
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
