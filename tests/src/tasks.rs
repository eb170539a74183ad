//! Tasks on real UI kits (jQuery UI, Bootstrap, Ant Design and MUI on
//! React, jsTree, Shoelace's and Material Web's components, Tom Select,
//! AG Grid, CodeMirror; `fixtures/kits`, their files from `tests/npm`), each run by a
//! scripted policy that reads only the tools' text, as a model would: it
//! picks numbers by the names it reads and checks what the page says
//! happened. The `kits` tests hold every task to success on both backends;
//! `cargo xtask bench --only tasks` reports success and tokens per task.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use guard::{AllowedOrigin, Guard, Policy as GuardPolicy};
use serde_json::{json, Value};
use tools::{Pack, PackOptions};

use crate::site::Site;
use crate::Backend;

/// A model's view of a session: the tools' last answer, the numbers it can
/// read there (or in a fresh snapshot when the answer does not show the
/// element, as a model would ask for one), and what it has read so far.
pub struct Policy {
    pack: Pack,
    site_origin: String,
    last: String,
    /// Tokens of every answer read (characters / 4).
    pub tokens: usize,
    /// Tool calls made.
    pub calls: usize,
}

/// What a step of a task answers: nothing, or why the task failed.
pub type Step = Result<(), String>;

type Run = for<'a> fn(&'a mut Policy) -> Pin<Box<dyn Future<Output = Step> + Send + 'a>>;

/// One task: a page of a kit, and what a policy does there.
pub struct Task {
    /// What it is, for a person.
    pub name: &'static str,
    /// The kit page it starts on (`/kits/PAGE`).
    pub page: &'static str,
    /// The policy's steps.
    pub run: Run,
}

impl Policy {
    /// A pack on `site`'s pages (allowed to reach that origin alone).
    pub fn new(backend: Backend, site: &Site) -> Self {
        let options = driver_core::Options {
            timeout: Duration::from_secs(20),
            ..driver_core::Options::default()
        };
        let policy = GuardPolicy {
            // The site's own origin always parses; were it not to, the guard
            // would refuse the pages and every task would say so.
            allowed_origins: AllowedOrigin::parse(&site.origin()).into_iter().collect(),
            ..GuardPolicy::default()
        };
        let pack = Pack::new(
            backend.guarded(options, Guard::new(policy)),
            PackOptions::default(),
        );
        Self {
            pack,
            site_origin: site.origin(),
            last: String::new(),
            tokens: 0,
            calls: 0,
        }
    }

    /// Runs `task` from its page; its result.
    pub async fn run(&mut self, task: &Task) -> Step {
        let url = format!("{}/kits/{}", self.site_origin, task.page);
        self.call("open", json!({ "url": url })).await?;
        (task.run)(self).await
    }

    /// Calls a tool, which must succeed; its answer is the last one read.
    pub async fn call(&mut self, tool: &str, arguments: Value) -> Result<String, String> {
        let output = self.pack.call(tool, arguments.clone()).await;
        self.calls += 1;
        self.tokens += output.text.len() / 4;
        self.last = output.text.clone();
        if output.is_error {
            return Err(format!("{tool} {arguments} failed: {}", output.text));
        }
        Ok(output.text)
    }

    /// The last answer.
    pub fn last(&self) -> &str {
        &self.last
    }

    /// The number of the element whose line holds `needle`, in the last
    /// answer or, failing that, in a snapshot of the page.
    pub async fn number(&mut self, needle: &str) -> Result<u32, String> {
        if let Some(number) = tools::element_number(&self.last, needle) {
            return Ok(number);
        }
        let page = self.call("snapshot", json!({})).await?;
        tools::element_number(&page, needle)
            .ok_or_else(|| format!("no element {needle} on the page:\n{page}"))
    }

    /// Clicks the element whose line holds `needle`.
    pub async fn click(&mut self, needle: &str) -> Step {
        let number = self.number(needle).await?;
        self.call("click", json!({ "element": number })).await?;
        Ok(())
    }

    /// Moves the mouse over the element whose line holds `needle`.
    pub async fn hover(&mut self, needle: &str) -> Step {
        let number = self.number(needle).await?;
        self.call("hover", json!({ "element": number })).await?;
        Ok(())
    }

    /// Types `text` into the element whose line holds `needle`.
    pub async fn type_into(&mut self, needle: &str, text: &str) -> Step {
        let number = self.number(needle).await?;
        self.call("type", json!({ "element": number, "text": text }))
            .await?;
        Ok(())
    }

    /// The page says `what` (in the last answer, or a snapshot).
    pub async fn says(&mut self, what: &str) -> Step {
        if self.last.contains(what) {
            return Ok(());
        }
        let page = self.call("snapshot", json!({})).await?;
        if page.contains(what) {
            Ok(())
        } else {
            Err(format!("the page does not say {what:?}:\n{page}"))
        }
    }

    /// The last answer says `what`.
    pub fn answered(&self, what: &str) -> Step {
        if self.last.contains(what) {
            Ok(())
        } else {
            Err(format!("the answer does not say {what:?}:\n{}", self.last))
        }
    }

    /// Clicks the element of no role on the line right after (or, with
    /// `before`, right before) the one that holds `needle`: a tree's
    /// expand arrow, listed beside its item, unnamed or named by its
    /// icon's label.
    pub async fn click_beside(&mut self, needle: &str, before: bool) -> Step {
        let page = self.call("snapshot", json!({})).await?;
        let lines: Vec<&str> = page.lines().collect();
        let at = lines
            .iter()
            .position(|line| line.contains(needle))
            .ok_or_else(|| format!("no {needle} in:\n{page}"))?;
        let beside = if before {
            at.checked_sub(1).map(|at| lines[at])
        } else {
            lines.get(at + 1).copied()
        }
        .unwrap_or_default();
        let number = ["(no name", "] \""]
            .iter()
            .find_map(|kind| tools::element_number(beside, kind))
            .ok_or_else(|| format!("no element of no role beside {needle}:\n{page}"))?;
        self.call("click", json!({ "element": number })).await?;
        Ok(())
    }

    /// Clicks the nearest element whose line holds `what` above the line
    /// that holds `row` in a snapshot: a grid row's checkbox, listed before
    /// its cells and named alike in every row.
    pub async fn click_in_row(&mut self, what: &str, row: &str) -> Step {
        let page = self.call("snapshot", json!({})).await?;
        let lines: Vec<&str> = page.lines().collect();
        let at = lines
            .iter()
            .position(|line| line.contains(row))
            .ok_or_else(|| format!("no {row} in:\n{page}"))?;
        let number = lines[..at]
            .iter()
            .rev()
            .find(|line| line.contains(what))
            .and_then(|line| tools::element_number(line, what))
            .ok_or_else(|| format!("no {what} before {row}:\n{page}"))?;
        self.call("click", json!({ "element": number })).await?;
        Ok(())
    }

    /// Scrolls the box whose line holds `needle` down until a snapshot
    /// holds `wanted` (a virtual list renders rows as they scroll in), at
    /// most `turns` times.
    pub async fn scroll_until(&mut self, needle: &str, wanted: &str, turns: usize) -> Step {
        for _ in 0..turns {
            let page = self.call("snapshot", json!({})).await?;
            if page.contains(wanted) {
                return Ok(());
            }
            let number = tools::element_number(&page, needle)
                .ok_or_else(|| format!("no {needle} in:\n{page}"))?;
            self.call("scroll", json!({ "element": number, "direction": "down" }))
                .await?;
        }
        self.says(wanted).await
    }

    /// A code editor that types through a hidden textarea (the kits'
    /// `app.py`: Ace, CodeMirror 5, Monaco) reads back as that field's
    /// lines, each as drawn (the indents and the blank line kept, no line
    /// number), said once.
    pub async fn reads_app_py(&mut self) -> Step {
        // (Monaco comes by its own loader, after the page's load.)
        self.call("wait_for", json!({ "text": "def main():" }))
            .await?;
        self.says("textbox = 7 lines:").await?;
        self.says(
            "\n  | # settings\n  | HOST = \"example.org\"\n  | PORT = 8080\n  |\n  | def main():\n  |     print(HOST, PORT)\n  |     return 0\n",
        )
        .await?;
        if self.last.matches("def main():").count() != 1 {
            return Err(format!("the editor's lines are said twice:\n{}", self.last));
        }
        Ok(())
    }

    /// The same editor's file typed over, then a line added at its end:
    /// the editor's own model (the page's "Saved" line) is the truth.
    pub async fn edits_app_py(&mut self) -> Step {
        self.call("wait_for", json!({ "text": "def main():" }))
            .await?;
        self.type_into("textbox = 7 lines", "PORT = 9000\nDEBUG = True")
            .await?;
        self.says("Saved: 2 lines, last \"DEBUG = True\"").await?;
        self.says("\n  | PORT = 9000\n  | DEBUG = True\n").await?;
        let editor = self.number("textbox = 2 lines").await?;
        self.call(
            "type",
            json!({ "element": editor, "text": "\nmain()", "append": true }),
        )
        .await?;
        self.says("Saved: 3 lines, last \"main()\"").await
    }

    /// Closes the browser.
    pub async fn close(self) {
        self.pack.close().await;
    }
}

macro_rules! task {
    ($name:literal, $page:literal, |$p:ident| $body:block) => {
        Task {
            name: $name,
            page: $page,
            run: |$p| Box::pin(async move { $body }),
        }
    };
}

/// Every task, by kit.
pub static TASKS: &[Task] = &[
    task!("a date two months ahead", "jquery-ui.html", |p| {
        p.click("textbox \"Departure\"").await?;
        p.answered("March 2026")?;
        p.click("link \"Next\"").await?;
        p.click("link \"Next\"").await?;
        p.says("May 2026").await?;
        p.click("link \"14\"").await?;
        p.says("Departure 2026-05-14").await
    }),
    task!("a menu's third item", "jquery-ui.html", |p| {
        p.click("menuitem \"Hotels\"").await?;
        p.says("Menu Hotels").await
    }),
    task!("a submenu's item", "jquery-ui.html", |p| {
        p.hover("menuitem \"Flights\"").await?;
        p.click("menuitem \"Return\"").await?;
        p.says("Menu Return").await
    }),
    task!("the fifth suggestion", "jquery-ui.html", |p| {
        p.type_into("textbox \"Country\"", "Sou").await?;
        // They come 300 ms after typing: in the answer to it.
        p.answered("\"South Sudan\"")?;
        p.click("\"Southampton Island\"").await?;
        p.says("Country Southampton Island").await
    }),
    task!("a spinner's value", "jquery-ui.html", |p| {
        p.type_into("spinbutton \"Travellers\"", "-7").await?;
        p.answered("= \"-7\"")?;
        p.click("ui-spinner-up").await?;
        p.says("Travellers -6").await
    }),
    task!("a tab and a radio", "jquery-ui.html", |p| {
        p.click("tab \"Luggage\"").await?;
        p.says("One cabin bag is included.").await?;
        p.click("radio \"Business\"").await?;
        p.says("Class business").await
    }),
    task!("a date two months ahead", "antd.html", |p| {
        p.click("textbox \"Departure\"").await?;
        p.answered("showing \"Mar\"")?;
        p.click("button \"Next month").await?;
        p.click("button \"Next month").await?;
        p.says("showing \"May\"").await?;
        p.click("(title \"2026-05-14\")").await?;
        p.says("Departure 2026-05-14").await
    }),
    task!("a menu's third item", "antd.html", |p| {
        p.click("menuitem \"Hotels\"").await?;
        p.says("Menu Hotels").await
    }),
    task!("a submenu's item", "antd.html", |p| {
        p.click("menuitem \"Flights\"").await?;
        p.click("menuitem \"Return\"").await?;
        p.says("Menu Return").await
    }),
    task!("the fifth suggestion", "antd.html", |p| {
        p.type_into("combobox \"Country\"", "Sou").await?;
        p.says("\"Southampton Island\"").await?;
        p.click("\"Southampton Island\"").await?;
        p.says("Country Southampton Island").await
    }),
    task!("a spinner's value", "antd.html", |p| {
        p.type_into("spinbutton \"Travellers\"", "-7").await?;
        p.says("Travellers -7").await
    }),
    task!("a listbox's option", "antd.html", |p| {
        p.click("\"Choose a seat\"").await?;
        p.click("\"Aisle\"").await?;
        p.says("Seat Aisle").await
    }),
    task!("a tree's leaf", "antd.html", |p| {
        p.click_beside("treeitem \"docs\" collapsed", false).await?;
        p.click_beside("treeitem \"api\" collapsed", false).await?;
        p.click("treeitem \"tabs.md\"").await?;
        p.says("File tabs.md").await
    }),
    task!("a tab and a radio", "antd.html", |p| {
        p.click("tab \"Luggage\"").await?;
        p.says("Tab Luggage").await?;
        p.click("radio \"Business\"").await?;
        p.says("Class Business").await
    }),
    task!("a drop-down's third item", "bootstrap.html", |p| {
        p.click("button \"Destinations\"").await?;
        p.click("link \"Madeira\"").await?;
        p.says("Destination Madeira").await
    }),
    task!("tabs and an accordion", "bootstrap.html", |p| {
        p.click("tab \"Luggage\"").await?;
        p.says("Tab Luggage").await?;
        p.click("button \"Pets\"").await?;
        p.says("Small pets travel in the cabin.").await
    }),
    task!("a carousel's arrow", "bootstrap.html", |p| {
        p.click("button \"Next\"").await?;
        p.says("View of Porto").await
    }),
    task!("a radio button", "bootstrap.html", |p| {
        p.click("radio \"Business\"").await?;
        p.says("Class Business").await
    }),
    task!("a modal's close button", "bootstrap.html", |p| {
        p.click("button \"Read the terms\"").await?;
        p.says("Tickets cannot be changed.").await?;
        p.click("button \"Close\"").await?;
        p.says("Terms closed").await
    }),
    task!("a tree's leaf", "jstree.html", |p| {
        p.answered("treeitem \"docs\" collapsed level 1")?;
        p.click_beside("treeitem \"docs\" collapsed", true).await?;
        p.click_beside("treeitem \"api\" collapsed", true).await?;
        p.click("treeitem \"tabs.md\"").await?;
        p.says("File tabs.md").await
    }),
    task!("a tree's leaf after it opens", "shoelace.html", |p| {
        p.click("treeitem \"Documents\"").await?;
        p.says("File Documents").await?;
        p.call("press", json!({ "keys": "ArrowRight" })).await?;
        // The folder opens with an animation; the click comes right after.
        p.click("treeitem \"Report.pdf\"").await?;
        p.says("File Report.pdf").await
    }),
    task!("a select's third option", "shoelace.html", |p| {
        p.click("combobox \"Size\"").await?;
        p.click("option \"Large\"").await?;
        p.says("Size large").await
    }),
    task!("a checkbox in a component", "shoelace.html", |p| {
        p.click("checkbox \"Gift wrap\"").await?;
        p.says("Gift wrap on").await
    }),
    task!("a button in a drawer", "shoelace.html", |p| {
        p.click("\"Review the order\"").await?;
        p.click("\"Confirm the order\"").await?;
        p.says("Order confirmed").await
    }),
    task!("a select's second option", "mui.html", |p| {
        p.click("combobox \"Seat\"").await?;
        p.click("option \"Middle\"").await?;
        p.says("Seat Middle").await
    }),
    task!("the fourth suggestion", "mui.html", |p| {
        p.type_into("combobox \"Country\"", "Sou").await?;
        p.says("\"South Sudan\"").await?;
        p.click("option \"South Sudan\"").await?;
        p.says("Country South Sudan").await
    }),
    task!("a checkbox over a hidden input", "mui.html", |p| {
        p.click("checkbox \"Gift wrap\"").await?;
        p.says("Gift wrap on").await
    }),
    task!("a dialog's button", "mui.html", |p| {
        // MUI draws its buttons' words in capitals: read as drawn.
        p.click("button \"READ THE TERMS\"").await?;
        p.says("Tickets cannot be changed.").await?;
        p.click("button \"AGREE\"").await?;
        p.says("Terms agreed").await
    }),
    task!("two rows ticked in a grid", "ag-grid.html", |p| {
        p.click_in_row("checkbox", "gridcell \"TW103\"").await?;
        p.click_in_row("checkbox", "gridcell \"TW105\"").await?;
        p.says("Selected: TW103, TW105").await?;
        // A ticked row's box draws its tick over the clear input: still
        // the checkbox, and a click unticks it.
        p.click_in_row("checkbox", "gridcell \"TW103\"").await?;
        p.says("Selected: TW105").await
    }),
    task!(
        "a row the grid renders once scrolled to",
        "ag-grid.html",
        |p| {
            p.scroll_until("scroll box", "gridcell \"TW150\"", 12)
                .await?;
            p.click_in_row("checkbox", "gridcell \"TW150\"").await?;
            p.says("Selected: TW150").await
        }
    ),
    task!("a grid sorted by a column", "ag-grid.html", |p| {
        p.click("columnheader \"Price\"").await?;
        p.click("columnheader \"Price\"").await?;
        p.says("Sorted: price desc, first TW154").await
    }),
    task!(
        "a component's checkbox by its label",
        "material.html",
        |p| {
            p.click("checkbox \"Gift wrap\"").await?;
            p.says("Gift true").await?;
            p.click("checkbox \"Gift wrap\" checked").await?;
            p.says("Gift false").await
        }
    ),
    task!("a component's switch", "material.html", |p| {
        p.click("switch \"Wifi on board\"").await?;
        p.says("Wifi true").await
    }),
    task!("a chip pressed and released", "material.html", |p| {
        p.click("button \"Fast delivery\"").await?;
        p.says("Fast true").await?;
        // Pressed, its container's ::before shades it, under the button.
        p.click("button \"Fast delivery\" pressed").await?;
        p.says("Fast false").await?;
        p.click("button \"Pay\"").await?;
        p.says("Paid").await
    }),
    task!(
        "a code editor's file read back line by line",
        "codemirror.html",
        |p| {
            // Every line as the file holds it, blank ones once each.
            p.says(
            "textbox \"config.ini\" = 9 lines:\n  | [server]\n  | host = 10.0.0.5\n  | port = 8443\n  |\n  | [limits]\n  | max_body = 4mb\n  |\n  |\n  | timeout = 30s\n",
        )
        .await
        }
    ),
    task!("a code editor's file typed over", "codemirror.html", |p| {
        // Typed over as a whole, the editor keeps no line of the old file.
        p.type_into("textbox \"config.ini\"", "[server]\nport = 9000")
            .await?;
        p.says("Saved: 2 lines, last \"port = 9000\"").await
    }),
    task!(
        "a line added to a code editor's file",
        "codemirror.html",
        |p| {
            // Added at the end, as to a field's value, not where the caret was.
            let editor = p.number("textbox \"config.ini\"").await?;
            let text = "\nretries = 3";
            p.call(
                "type",
                json!({ "element": editor, "text": text, "append": true }),
            )
            .await?;
            p.says("Saved: 10 lines, last \"retries = 3\"").await
        }
    ),
    task!(
        "app.py read back through a hidden textarea",
        "ace.html",
        |p| { p.reads_app_py().await }
    ),
    task!("app.py edited through a hidden textarea", "ace.html", |p| {
        p.edits_app_py().await
    }),
    task!(
        "app.py read back through a clipped textarea",
        "codemirror5.html",
        |p| { p.reads_app_py().await }
    ),
    task!(
        "app.py edited through a clipped textarea",
        "codemirror5.html",
        |p| { p.edits_app_py().await }
    ),
    task!("app.py read back in VS Code's editor", "monaco.html", |p| {
        p.reads_app_py().await
    }),
    task!("app.py edited in VS Code's editor", "monaco.html", |p| {
        p.edits_app_py().await
    }),
    task!("a searched choice", "tom-select.html", |p| {
        p.type_into("combobox \"City\"", "fa").await?;
        p.click("option \"Faro\"").await?;
        p.says("City faro").await
    }),
    task!("two searched tags", "tom-select.html", |p| {
        p.type_into("combobox \"Stops\"", "ma").await?;
        p.click("option \"Madeira\"").await?;
        // The list stays open over the page's last line until Escape.
        p.call("press", json!({ "keys": "Escape" })).await?;
        p.says("Stops madeira").await?;
        p.type_into("combobox \"Stops\"", "sin").await?;
        p.click("option \"Sintra\"").await?;
        p.call("press", json!({ "keys": "Escape" })).await?;
        p.says("Stops madeira, sintra").await
    }),
];

/// The tasks on one kit page.
pub fn on(page: &str) -> impl Iterator<Item = &'static Task> + '_ {
    TASKS.iter().filter(move |task| task.page == page)
}
