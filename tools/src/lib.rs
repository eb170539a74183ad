//! The model-facing tool pack: the tools a model calls to use a browser,
//! their JSON Schemas, and the text and pictures it reads back.
//!
//! [`Pack`] wraps a guarded browser (`tabwright::browser`, any backend) and
//! answers [`Pack::call`]`(name, arguments)` with a [`ToolOutput`]: text,
//! optional images, and whether it failed. Its definitions ([`Pack::tools`],
//! made from one table of tools) export as MCP, OpenAI and Anthropic tools
//! ([`ToolDef`], [`definitions`]), each with a title and the hints a host
//! uses to decide whether to ask a person first ([`Hints`]).
//!
//! ```no_run
//! # async fn run(browser: guard::GuardedDriver) {
//! use tabwright_tools::{Pack, PackOptions};
//! use serde_json::json;
//!
//! let pack = Pack::new(browser, PackOptions::default());
//! let page = pack.call("open", json!({ "url": "https://example.com/" })).await;
//! println!("{}", page.text); // the snapshot: text with [N] numbers
//! let after = pack.call("click", json!({ "element": 1 })).await;
//! assert!(!after.is_error, "{}", after.text);
//! # }
//! ```
//!
//! # What an answer holds
//!
//! An acting tool (click, type, press, select, hover, scroll, back, forward,
//! dialog, open, switching tabs) answers with one line saying what it did,
//! one line for anything else the model must know (the URL changed, a tab
//! opened or closed, a dialog is open, a download or requests were refused by
//! the guard, the page logged errors, the page was still busy), then the page
//! as a snapshot (see `marks`). In vision mode ([`PackOptions::vision`]) the
//! snapshot is replaced by a screenshot and the console lines since the last
//! action.
//!
//! # Settling
//!
//! After an action the pack waits for what it caused, and no longer: a
//! navigation it started, the document's load, no fetch/XHR in flight, no
//! short timer pending, and the DOM still for 40 ms, all under a cap (3 s).
//! A static page answers at once; a single-page app is read after it renders.
//! There is no fixed sleep (see `settle.js`).
//!
//! # Groups and secrets
//!
//! [`Pack::tools`] are the core tools, plus those of each [`Group`] named
//! in [`PackOptions::groups`] (files, network, state, forms, emulation,
//! script). A [`Secret`] is typed where the model writes
//! `{{secret:NAME}}`, and every answer has its value (and the forms a page
//! may echo it in) replaced by `••••`.
//!
//! # Never stuck
//!
//! A dialog never blocks a call: the answer says which dialog is open and
//! what it says, and the `dialog` tool answers it. Every failure (unknown
//! tool, wrong arguments, stale number, hung page, closed tab, crashed
//! browser) is one sentence saying what happened and what to do next
//! ([`ToolError::for_model`]); the call never panics (a bug that would is
//! caught and answered) and never outlasts the browser's per-call timeout.

mod actions;
mod after;
mod arguments;
mod browser;
mod emulation;
mod engine;
mod error;
mod files;
mod forms;
mod network;
mod options;
mod output;
mod pack;
mod page_strings;
mod page_tools;
mod page_values;
mod person;
mod phases;
mod provenance;
mod run;
mod schema;
mod screenshot;
mod script;
mod secrets;
mod settle;
mod short;
mod state;
mod storage;
mod tab;
mod table;
mod tabs;
mod task;
mod tool;
pub mod trace;
mod validate;
mod vendor;
mod vision;
mod watch;

pub use engine::{serve_if_asked, ScriptEngine};
/// The longest any call may run: a handoff waiting for its person (every
/// other call's time limit is shorter).
pub const LONGEST_CALL: std::time::Duration = person::HANDOFF_LIMIT;
pub use error::ToolError;
pub use options::{Answers, Group, PackOptions, Secret};
pub use output::{Image, ToolOutput};
pub use pack::Pack;
pub use phases::Phases;
pub use secrets::Scrubber;
pub use short::ShortCall;
pub use table::{definitions, Export, INSTRUCTIONS};
pub use tool::{Hints, ToolDef};
pub use trace::{Step, Trace};
pub use vendor::{Executor, Member, Toolset, ANTHROPIC_MEMBERS};
pub use watch::{PersonInput, Watch};

/// The number of the first element whose snapshot line holds `needle`,
/// read off the text the way a model reads it (`[N] role "name" …`, or
/// `*[N]` when new): `element_number(&page.text, "\"Sign in\"")`.
pub fn element_number(snapshot: &str, needle: &str) -> Option<u32> {
    snapshot
        .lines()
        .filter(|line| line.contains(needle))
        .find_map(|line| {
            let line = line.trim_start();
            // A change list's lines: added, changed, moved, or the line
            // before an addition; a removed element has no number to use.
            let line = ["+ ", "~ ", "> ", "@ "]
                .iter()
                .find_map(|sign| line.strip_prefix(sign))
                .unwrap_or(line);
            let rest = line.trim_start_matches('*').strip_prefix('[')?;
            rest.split_once(']')?.0.parse().ok()
        })
}

#[cfg(test)]
mod fake_tests;
#[cfg(test)]
mod run_tests;

#[cfg(test)]
mod tests {
    use super::element_number;

    #[test]
    fn numbers_are_read_off_element_lines() {
        let text = "# Sign in\n[1] textbox \"Email\"\n*[12] button \"Sign in\"\nSign in below.";
        assert_eq!(element_number(text, "\"Sign in\""), Some(12));
        assert_eq!(element_number(text, "Email"), Some(1));
        assert_eq!(element_number(text, "below"), None);
        let changes =
            "- [3] button \"Gone\"\n~ [4] textbox \"Name\" focused\n+ [5] button \"Gone\"";
        assert_eq!(element_number(changes, "Name"), Some(4));
        assert_eq!(element_number(changes, "Gone"), Some(5));
    }
}
