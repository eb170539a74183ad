//! After an action: settle the page, gather what changed, and answer with
//! the page (a snapshot, or in vision mode a picture) and a line for each
//! thing the model must know.

use std::time::Duration;

use driver_core::{ConsoleLevel, DownloadOutcome, Driver, DriverError, ScreenshotOptions, TabId};
use marks::{MarksError, RenderOptions, Snapshot, SnapshotOptions};

use crate::browser::Browser;
use crate::error::{dialog_sentence, ToolError};
use crate::options::Answers;
use crate::output::{console_line, fenced, join, mime, size, Image, Outcome, ToolOutput};
use crate::page_strings::{address, shown};
use crate::page_values::PageAnswers;
use crate::phases::since;
use crate::settle::{settle, Begin, Settled};
use crate::state::State;
use crate::tab::Tab;

/// What a read of the page looks for.
#[derive(Debug, Clone, Copy)]
enum PageRead<'a> {
    /// The page (or a part of it), as a snapshot.
    Page(SnapshotOptions),
    /// What matches a search.
    Find {
        text: &'a str,
        role: Option<&'a str>,
    },
    /// The text, to read.
    Text { scope: Option<u32>, whole: bool },
}

/// What an answer says when the page closed the tab it was in.
const CLOSED_UNDER_YOU: &str = "The tab you were in was closed by the page.";

/// How long a tab that just opened may take to report its URL.
const NEW_TAB_WAIT: Duration = Duration::from_secs(1);

impl Tab<'_> {
    /// Settles, then answers with what the model needs: the page (or, in
    /// vision mode, a picture of it) and a line for each thing that changed.
    /// On the page the model last read, the page is what changed on it
    /// (unless the pack answers in full).
    pub(crate) async fn after(&mut self, did: String) -> Outcome {
        self.after_reading(did, Answers::Changes, &[]).await
    }

    /// As [`after`](Self::after), and then checks that each field holds
    /// what the action typed or chose into it: where one does not (the
    /// page refused or rewrote it), the answer's first line says what it
    /// holds.
    pub(crate) async fn after_expecting(&mut self, did: String, expected: &[Expected]) -> Outcome {
        self.after_reading(did, Answers::Changes, expected).await
    }

    /// As [`after`](Self::after), with the whole page: after a navigation
    /// or a tab switch, where a change list would not be what the model
    /// expects.
    pub(crate) async fn after_whole(&mut self, did: String) -> Outcome {
        self.after_reading(did, Answers::Full, &[]).await
    }

    async fn after_reading(
        &mut self,
        did: String,
        answers: Answers,
        expected: &[Expected],
    ) -> Outcome {
        if self.browser.options.vision {
            return self.after_vision(did).await;
        }
        let render = RenderOptions {
            budget_tokens: Some(self.browser.options.budget_tokens),
            page: 1,
            fence: self.state.fence,
        };
        let answers = match self.browser.options.answers {
            Answers::Full => Answers::Full,
            Answers::Changes => answers,
        };
        self.read(did, SnapshotOptions::default(), render, answers, expected)
            .await
    }

    /// Settles, gathers what changed, and renders a snapshot, or what
    /// changed since the model last read this page when `answers` allows
    /// and that is clearly shorter; the first line is `did`, with what the
    /// fields `expected` hold where they do not hold what they should.
    pub(crate) async fn read(
        &mut self,
        did: String,
        options: SnapshotOptions,
        render: RenderOptions,
        answers: Answers,
        expected: &[Expected],
    ) -> Outcome {
        let acted = !did.is_empty();
        let mut lines = vec![did];
        let begin = if acted {
            Begin::AfterAction(self.state.call_started)
        } else {
            Begin::Now
        };
        let snapshot = match self.settled_snapshot(&mut lines, options, begin).await {
            Ok(Some(snapshot)) => snapshot,
            Ok(None) => return Ok(ToolOutput::text(join(lines))),
            // The action happened; the page cannot be read afterwards.
            Err(error @ ToolError::Marks(MarksError::Driver(DriverError::Unscriptable { .. })))
                if acted =>
            {
                lines.push(error.for_model_in(self.state.fence));
                return Ok(ToolOutput::text(join(lines)));
            }
            Err(error) => return Err(error),
        };
        let url = snapshot.url.clone();
        if self.state.url.as_ref() != Some(&url) {
            if self.state.url.is_some() {
                lines.push(format!("The URL changed: now {}.", address(&url)));
            }
            self.state.url = Some(url);
        }
        lines.push(String::new());
        let rendering = std::time::Instant::now();
        // A change list only for the tab the model was last shown: if the
        // page moved it to another (its tab closed), the whole page.
        let same_tab = self.state.shown_tab.as_ref() == Some(&snapshot.tab);
        let changes = match (answers, self.state.readings.get(&snapshot.tab)) {
            (Answers::Changes, Some(before)) if same_tab => {
                snapshot.changes(before, render.budget_tokens, render.fence)
            }
            _ => None,
        };
        self.state.shown_tab = Some(snapshot.tab.clone());
        if let Some(watch) = &self.browser.options.watch {
            // What a person watching is told the tab shows: the page's own
            // address and title, never a line of some answer's text.
            let (mut url, mut title) = (
                crate::page_strings::inline(&snapshot.url, 2_000),
                crate::page_strings::inline(&snapshot.title, 500),
            );
            self.browser.scrub(&mut url);
            self.browser.scrub(&mut title);
            watch.set_page(url, title);
        }
        if let Some(refused) = refused_values(&snapshot, expected) {
            lines[0] = format!("{} {refused}", lines[0]);
        }
        let whole = changes.is_none();
        match changes {
            // Nothing at all changed: the first line says so, and no more.
            Some(nothing) if nothing.nothing && acted => {
                lines.pop();
                let did = lines[0].trim_end_matches('.').to_owned();
                lines[0] = format!(
                    "{did}: nothing on the page changed ({} line{} as you last read them).",
                    nothing.unchanged,
                    if nothing.unchanged == 1 { "" } else { "s" }
                );
            }
            Some(changes) => lines.push(changes.text),
            None => lines.push(snapshot.render(render)),
        }
        // The page's own tools, when the model may call them: with the
        // whole page, or when they changed.
        if self
            .browser
            .options
            .groups
            .contains(&crate::options::Group::PageTools)
        {
            if let Some(listed) = self.page_tools_listing(&snapshot.tab, whole).await {
                lines.push(listed);
            }
        }
        // What the model now knows of the page: all of it, unless it read
        // one element's part (a scope), after which the next action shows
        // the whole page again.
        if options.scope.is_none() {
            self.state
                .readings
                .insert(snapshot.tab.clone(), snapshot.reading(render));
        } else {
            self.state.readings.remove(&snapshot.tab);
        }
        self.state.phases.render_ms += since(rendering);
        Ok(ToolOutput::text(join(lines)))
    }

    /// Settles and snapshots, adding status lines; `None` when a dialog
    /// blocks the page (its line is added).
    pub(crate) async fn settled_snapshot(
        &mut self,
        lines: &mut Vec<String>,
        options: SnapshotOptions,
        begin: Begin,
    ) -> Result<Option<Snapshot>, ToolError> {
        self.settled_look(lines, PageRead::Page(options), begin)
            .await
    }

    /// Settles and reads the page's text (`marks::Marks::read_text`).
    pub(crate) async fn settled_text(
        &mut self,
        lines: &mut Vec<String>,
        scope: Option<u32>,
        whole: bool,
    ) -> Result<Option<Snapshot>, ToolError> {
        self.settled_look(lines, PageRead::Text { scope, whole }, Begin::Now)
            .await
    }

    /// Settles and searches the page (`marks::Marks::find`), as
    /// [`settled_snapshot`](Self::settled_snapshot) reads it.
    pub(crate) async fn settled_find(
        &mut self,
        lines: &mut Vec<String>,
        text: &str,
        role: Option<&str>,
    ) -> Result<Option<Snapshot>, ToolError> {
        self.settled_look(lines, PageRead::Find { text, role }, Begin::Now)
            .await
    }

    async fn settled_look(
        &mut self,
        lines: &mut Vec<String>,
        look: PageRead<'_>,
        begin: Begin,
    ) -> Result<Option<Snapshot>, ToolError> {
        // A tab that closed is noticed by the call after (which then moves
        // to the most recent tab left), so a few tries.
        let mut tab_closed = false;
        let (quiet, cap) = (self.browser.options.quiet, self.browser.options.settle_cap);
        let started = std::time::Instant::now();
        let mut settled = settle(&self.browser.driver, quiet, cap, begin).await;
        for _ in 0..3 {
            if !matches!(settled, Err(DriverError::NoSuchTab { .. })) {
                break;
            }
            tab_closed = true;
            settled = settle(&self.browser.driver, quiet, cap, begin).await;
        }
        self.state.phases.settle_ms += since(started);
        let settled = match settled {
            Err(DriverError::DialogOpen { kind, message }) => {
                self.report_changes(lines, tab_closed).await;
                self.state.dialog_open = true;
                lines.push(dialog_sentence(kind, &message, self.state.fence));
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
        let started = std::time::Instant::now();
        let mut snapshot = self.browser.look(look).await;
        self.state.phases.read_ms += since(started);
        // A navigation that began only after the page looked settled leaves
        // the snapshot reading a document that is not there yet, or goes
        // away under it: settle the new one and read again.
        for _ in 0..2 {
            if !matches!(
                snapshot,
                Err(MarksError::Script(_))
                    | Err(MarksError::Driver(
                        DriverError::Script { .. } | DriverError::DocumentReplaced
                    ))
            ) {
                break;
            }
            let started = std::time::Instant::now();
            settle(
                &self.browser.driver,
                quiet,
                cap,
                Begin::AfterAction(self.state.call_started),
            )
            .await?;
            self.state.phases.settle_ms += since(started);
            let started = std::time::Instant::now();
            snapshot = self.browser.look(look).await;
            self.state.phases.read_ms += since(started);
        }
        let snapshot = match snapshot {
            Err(MarksError::Driver(DriverError::DialogOpen { kind, message })) => {
                self.report_changes(lines, tab_closed).await;
                self.state.dialog_open = true;
                lines.push(dialog_sentence(kind, &message, self.state.fence));
                return Ok(None);
            }
            other => other?,
        };
        let started = std::time::Instant::now();
        self.report_changes(lines, tab_closed).await;
        self.state.phases.report_ms += since(started);
        let mut snapshot = snapshot;
        for element in snapshot.elements.values_mut() {
            if let Some(value) = element.value.as_mut() {
                self.browser.secrets.hide_piece(value);
            }
        }
        // The page knows its own status whatever navigated to it; the pack's
        // record of what it opened covers a page that does not say.
        snapshot.status = snapshot
            .status
            .or_else(|| self.state.statuses.get(&snapshot.url).copied());
        Ok(Some(snapshot))
    }

    pub(crate) async fn after_vision(&mut self, did: String) -> Outcome {
        let mut lines = vec![did];
        let before = self.state.console.next_seq();
        let settled = settle(
            &self.browser.driver,
            self.browser.options.quiet,
            self.browser.options.settle_cap,
            Begin::AfterAction(self.state.call_started),
        )
        .await;
        let blocked = match settled {
            Err(DriverError::DialogOpen { kind, message }) => {
                self.state.dialog_open = true;
                Some(dialog_sentence(kind, &message, self.state.fence))
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
        self.report_changes(&mut lines, false).await;
        let fresh: Vec<String> = self.state.console.since(before).map(console_line).collect();
        if !fresh.is_empty() {
            lines.push(fenced(
                self.state.fence,
                "console",
                "since the last action (the page's output, untrusted)",
                fresh.iter().map(String::as_str),
            ));
        }
        if let Some(blocked) = blocked {
            lines.push(blocked);
            return Ok(ToolOutput::text(join(lines)));
        }
        let format = self.browser.options.vision_format;
        let data = self
            .browser
            .picture(ScreenshotOptions {
                format,
                full_page: false,
            })
            .await?;
        if let Ok(url) = self.browser.driver.own_world(&[], "location.href").await {
            let url = url.text().unwrap_or_default();
            if self.state.url.as_ref() != Some(&url) {
                lines.push(format!("Now at {}.", address(&url)));
                self.state.url = Some(url);
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
    pub(crate) async fn report_changes(&mut self, lines: &mut Vec<String>, tab_closed: bool) {
        self.report_tabs(lines, tab_closed).await;
        self.report_downloads(lines).await;
        self.report_refusals(lines);
        self.report_console(lines).await;
    }

    /// Tabs that opened (named, with how to read them) or closed. The ids
    /// say what opened or closed; titles and URLs are read only when a tab
    /// opened, to name it.
    async fn report_tabs(&mut self, lines: &mut Vec<String>, tab_closed: bool) {
        let Ok(ids) = self.browser.driver.tab_ids().await else {
            if tab_closed {
                lines.push(CLOSED_UNDER_YOU.to_owned());
            }
            return;
        };
        // The tab the last answer showed went without a tabs call while
        // others stayed (not a browser started afresh): the page closed it,
        // whichever of the backend's calls noticed first.
        let stayed = ids.iter().any(|id| self.state.tabs.contains(id));
        let shown_gone = stayed
            && self
                .state
                .shown_tab
                .as_ref()
                .is_some_and(|shown| self.state.tabs.contains(shown) && !ids.contains(shown));
        let tab_closed = tab_closed || shown_gone;
        if tab_closed {
            lines.push(CLOSED_UNDER_YOU.to_owned());
        }
        let opened =
            !self.state.tabs.is_empty() && ids.iter().any(|id| !self.state.tabs.contains(id));
        let tabs = if opened {
            self.tabs_settled().await.ok()
        } else {
            None
        };
        let ids: Vec<TabId> = match &tabs {
            Some(tabs) => tabs.iter().map(|tab| tab.id.clone()).collect(),
            None => ids,
        };
        for (index, tab) in tabs.iter().flatten().enumerate() {
            if !self.state.tabs.contains(&tab.id) && !tab.current {
                // Its title may still be on its way: the URL only.
                let what = if tab.url.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", address(&tab.url))
                };
                lines.push(format!(
                    "A new tab opened: tab {}{what}; call tabs with action switch and tab {} to read it.",
                    index + 1,
                    index + 1
                ));
            }
        }
        self.browser.marks.retain_tabs(&ids);
        let closed = self
            .state
            .tabs
            .iter()
            .filter(|id| !ids.contains(id))
            .count();
        if closed > 0 && !tab_closed {
            lines.push(format!(
                "{closed} tab{} closed; {} open now.",
                if closed == 1 { " was" } else { "s were" },
                ids.len()
            ));
        }
        self.state.tabs = ids;
    }

    /// What became of downloads since the last call: refused, started,
    /// saved (where, how large) or cancelled for their size. One that began
    /// and ended since the last call is said once, as it ended.
    async fn report_downloads(&self, lines: &mut Vec<String>) {
        let Ok(downloads) = self.browser.driver.downloads().await else {
            return;
        };
        {
            let mut kept = self
                .browser
                .downloads
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            for download in &downloads {
                kept.push(download.clone());
            }
        }
        for (index, download) in downloads.iter().enumerate() {
            let (name, from) = (shown(&download.filename), address(&download.url));
            let line = match &download.outcome {
                DownloadOutcome::Refused => format!(
                    "A download was refused: {name} from {from} (downloads are off; tabwright saves no files unless started with --downloads DIR)."
                ),
                DownloadOutcome::Started => {
                    let ended = downloads[index + 1..].iter().any(|later| {
                        later.url == download.url && later.filename == download.filename
                    });
                    if ended {
                        continue;
                    }
                    format!("A download began: {name} from {from}; the answer after it ends says where it is.")
                }
                DownloadOutcome::Saved { path, bytes } => format!(
                    "Downloaded {name} from {from}: saved as {} ({}).",
                    address(&path.display().to_string()),
                    size(*bytes)
                ),
                DownloadOutcome::TooLarge { limit } => format!(
                    "A download was cancelled: {name} from {from} is larger than the {} a download may be (--max-download-mb); nothing was kept.",
                    size(*limit)
                ),
                DownloadOutcome::Failed => format!("A download failed: {name} from {from}."),
            };
            lines.push(line);
        }
    }

    /// Requests the guard refused since the last call, the first three
    /// named. Names that do not resolve are not the guard protecting
    /// anything: the request would fail without it too.
    fn report_refusals(&mut self, lines: &mut Vec<String>) {
        let (refused, next) = self
            .browser
            .driver
            .guard()
            .refusals()
            .read(self.state.refusals_seen);
        self.state.refusals_seen = next;
        let fresh: Vec<_> = refused
            .into_iter()
            .filter(|refusal| refusal.reason.is_protection())
            .collect();
        let (task, protected): (Vec<_>, Vec<_>) = fresh
            .into_iter()
            .partition(|refusal| refusal.reason.is_task());
        let (sent, outside): (Vec<_>, Vec<_>) = task
            .into_iter()
            .partition(|refusal| matches!(refusal.reason, guard::Reason::NotActedOn { .. }));
        // Each refusal of an address says why; those of the task share one
        // reason each, said once with what the person can do.
        for (refused, to, allow) in [
            (protected, "to this machine or its network", None),
            (
                outside,
                "to origins outside this task",
                Some("an origin with --read-origin (--act-origin to act there)"),
            ),
            (
                sent,
                "sending to pages this task may read, not act on",
                Some("acting there with --act-origin"),
            ),
        ] {
            if refused.is_empty() {
                continue;
            }
            let shown: Vec<String> = refused
                .iter()
                .take(3)
                .map(|refusal| match allow {
                    None => format!("{} ({})", address(&refusal.target), refusal.reason),
                    Some(_) => address(&refusal.target),
                })
                .collect();
            lines.push(format!(
                "The guard refused {} request{} from this page {to}: {}{}{}.",
                refused.len(),
                if refused.len() == 1 { "" } else { "s" },
                shown.join(", "),
                if refused.len() > 3 { ", …" } else { "" },
                allow
                    .map(|allow| format!("; the person can allow {allow}"))
                    .unwrap_or_default()
            ));
        }
    }

    /// Console errors the page logged since the last call, counted as they
    /// arrive (however many the pack keeps for the `console` tool).
    async fn report_console(&mut self, lines: &mut Vec<String>) {
        let errors = self.browser.gather_console(self.state).await;
        if errors > 0 && !self.browser.options.vision {
            lines.push(format!(
                "The page logged {errors} new error{}; call console to read {}.",
                if errors == 1 { "" } else { "s" },
                if errors == 1 { "it" } else { "them" }
            ));
        }
    }

    /// The tabs, after giving a tab that just opened a moment to know its
    /// URL (a popup starts on about:blank).
    async fn tabs_settled(&self) -> Result<Vec<driver_core::Tab>, DriverError> {
        let deadline = tokio::time::Instant::now() + NEW_TAB_WAIT;
        loop {
            let tabs = self.browser.driver.tabs().await?;
            let unsettled = tabs.iter().any(|tab| {
                !self.state.tabs.is_empty()
                    && !self.state.tabs.contains(&tab.id)
                    && (tab.url.is_empty() || tab.url == "about:blank")
            });
            if !unsettled || tokio::time::Instant::now() >= deadline {
                return Ok(tabs);
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }
}

impl Browser {
    /// Reads the page as `look` says.
    async fn look(&self, look: PageRead<'_>) -> Result<Snapshot, MarksError> {
        match look {
            PageRead::Page(options) => self.marks.snapshot(&self.driver, options).await,
            PageRead::Find { text, role } => self.marks.find(&self.driver, text, role).await,
            PageRead::Text { scope, whole } => {
                self.marks.read_text(&self.driver, scope, whole).await
            }
        }
    }

    /// Takes what the browser logged since it was last asked into the
    /// pack's journal; returns how many of those were errors.
    pub(crate) async fn gather_console(&self, state: &mut State) -> usize {
        let Ok(entries) = self.driver.console().await else {
            return 0;
        };
        let errors = entries.iter().filter(|entry| is_error(entry.level)).count();
        for entry in entries {
            state.console.push(entry);
        }
        errors
    }
}

/// What a field should hold after an action typed or chose into it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Expected {
    /// The field's number.
    pub(crate) number: u32,
    /// What it should hold: what was typed (after what it held, if
    /// appended), or the labels chosen.
    pub(crate) value: driver_core::PageText,
}

/// The sentence for the fields that do not hold what they should (the
/// page refused or rewrote what was typed), or `None` when they all do, or
/// cannot be read (gone with a navigation, a password's hidden value).
fn refused_values(snapshot: &Snapshot, expected: &[Expected]) -> Option<String> {
    let squeeze = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut refused = Vec::new();
    let mut spin = false;
    for wanted in expected {
        let Some(element) = snapshot.elements.get(&wanted.number) else {
            continue;
        };
        if element.offscreen || element.input_type.as_deref() == Some("password") {
            continue;
        }
        let holds = element.value.clone().unwrap_or_default();
        #[allow(clippy::disallowed_methods)] // compared, not shown
        if squeeze(holds.untrusted()) == squeeze(wanted.value.untrusted()) {
            continue;
        }
        // A date typed in the form a person types it (12/24/2026) is held
        // in the field's own (2026-12-24): the same numbers.
        #[allow(clippy::disallowed_methods)] // compared, not shown
        if DATED.contains(&element.role.as_str())
            && same_numbers(holds.untrusted(), wanted.value.untrusted())
        {
            continue;
        }
        spin |= element.role == "spinbutton";
        refused.push(format!(
            "[{}] holds {}, not {}",
            wanted.number,
            shown(&holds),
            shown(&wanted.value)
        ));
    }
    if refused.is_empty() {
        return None;
    }
    Some(format!(
        "But {}: the page changed or refused what was put in{}.",
        refused.join("; "),
        if spin {
            " (a spin button may need its arrow buttons or the arrow keys)"
        } else {
            ""
        }
    ))
}

/// The roles of fields that hold a date or a time in a form of their own.
const DATED: &[&str] = &["date", "time", "month", "week", "datetime-local"];

/// Whether two texts hold the same numbers, in any order (`12/24/2026`
/// and `2026-12-24`), and some.
fn same_numbers(one: &str, other: &str) -> bool {
    let numbers = |text: &str| {
        let mut numbers: Vec<u64> = text
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|part| part.parse().ok())
            .collect();
        numbers.sort_unstable();
        numbers
    };
    let numbers_one = numbers(one);
    !numbers_one.is_empty() && numbers_one == numbers(other)
}

fn is_error(level: ConsoleLevel) -> bool {
    matches!(level, ConsoleLevel::Error | ConsoleLevel::PageError)
}

#[cfg(test)]
mod tests {
    use super::same_numbers;

    #[test]
    fn a_date_is_known_by_its_numbers() {
        assert!(same_numbers("2026-12-24", "12/24/2026"));
        assert!(same_numbers("14:30", "14.30"));
        assert!(!same_numbers("2026-12-24", "12/25/2026"));
        assert!(!same_numbers("", "2026"));
        assert!(!same_numbers("", ""));
    }
}
