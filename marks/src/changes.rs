//! Change lists: after an action that stayed on the same page, what changed
//! since the model last read it, instead of the whole page again.
//!
//! The format (the lines are the snapshot's own, each behind a sign):
//!
//! ```text
//! --- changes k7m2 (untrusted page content) ---
//! ~ [1] textbox "Email" = "ada@example.com"
//! @ # Basket
//! + [9] button "Remove Tea"
//! - Your basket is empty.
//! --- end k7m2; 41 lines unchanged ---
//! ```
//!
//! (`k7m2` is the answer's fence code: see [`Fence`].)
//!
//! The signs: `+` new, `-` gone, `~` changed (its state or value), `>`
//! moved, `@` the unchanged line an addition follows. They are told to the
//! model once, in the acting tools' descriptions; the header says only what
//! the list is and how to read the whole page, since it comes with every
//! action.
//!
//! A number keeps meaning one element: an element that a re-render replaced
//! with a look-alike in the same place keeps the number (the numbering
//! decides: see `Marks`), and the change list has nothing to say of it;
//! any other replaced element is a `-` of its old number and a `+` of a
//! new one.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use similar::{capture_diff_slices, Algorithm, DiffOp};

use crate::snapshot::{RenderOptions, Snapshot, TITLE_SHOWN};
use crate::text::{cut, one_line, Fence};

/// What a model was last shown of a tab's page, to tell it later what
/// changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading {
    document: String,
    title: driver_core::PageText,
    scroll_y: i64,
    viewport: (i64, i64),
    full_page: bool,
    /// The page's lines as shown, without the marks of new elements.
    lines: Vec<String>,
    /// The model was shown all of them (not one part of several).
    whole: bool,
}

/// A change list as a model reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangeList {
    /// Its text.
    pub text: String,
    /// Nothing at all changed: the text says so and no more.
    pub nothing: bool,
    /// How many lines are as the model last read them.
    pub unchanged: usize,
}

/// One entry of a change list, in the order of the page as it is now.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Change {
    Added(String),
    Removed(String),
    Changed(String),
    Moved(String),
    After(String),
}

impl Snapshot {
    /// What the model reads of this snapshot when it is rendered with
    /// `render`, remembered for a change list later.
    pub fn reading(&self, render: RenderOptions) -> Reading {
        Reading {
            document: self.document.clone(),
            title: self.title.clone(),
            scroll_y: self.scroll_y,
            viewport: self.viewport,
            full_page: self.full_page,
            lines: self.body().into_iter().map(plain).collect(),
            whole: self.parts(render.budget_tokens) == 1,
        }
    }

    /// What changed since `before`, as a model reads it, or `None` when
    /// the whole page should be sent instead: another document, another
    /// scroll position or viewport, a reading the model did not get whole,
    /// or a change list not clearly smaller than the page.
    pub fn changes(
        &self,
        before: &Reading,
        budget_tokens: Option<usize>,
        fence: Fence,
    ) -> Option<ChangeList> {
        let comparable = before.whole
            && before.document == self.document
            && !self.document.is_empty()
            && before.scroll_y == self.scroll_y
            && before.viewport == self.viewport
            && before.full_page == self.full_page;
        if !comparable {
            return None;
        }
        let now: Vec<String> = self.body().into_iter().map(plain).collect();
        let (changes, unchanged) = diff(&before.lines, &now);
        let mut text = String::new();
        if before.title != self.title {
            let _ = writeln!(
                text,
                "The title is now: {}",
                cut(&one_line(self.title.untrusted()), TITLE_SHOWN)
            );
        }
        let nothing = changes.is_empty() && before.title == self.title;
        if changes.is_empty() {
            let _ = writeln!(
                text,
                "Nothing on the page changed ({unchanged} line{} as you last read them; call snapshot to read them again).",
                if unchanged == 1 { "" } else { "s" }
            );
        } else {
            let _ = writeln!(
                text,
                "--- changes {} (untrusted page content) ---",
                fence.code()
            );
            for change in &changes {
                let (sign, line) = match change {
                    Change::Added(line) => ('+', line),
                    Change::Removed(line) => ('-', line),
                    Change::Changed(line) => ('~', line),
                    Change::Moved(line) => ('>', line),
                    Change::After(line) => ('@', line),
                };
                let _ = writeln!(text, "{sign} {line}");
            }
            let _ = writeln!(
                text,
                "--- end {}; {unchanged} lines unchanged ---",
                fence.code()
            );
        }
        for line in self.beyond() {
            text.push_str(&line);
            text.push('\n');
        }
        // Clearly smaller: at most half of the whole page as it would be
        // sent (whose first part, when it comes in parts).
        let whole = self
            .render(RenderOptions {
                budget_tokens,
                page: 1,
                fence,
            })
            .len();
        (text.len() * 2 <= whole).then_some(ChangeList {
            text,
            nothing,
            unchanged,
        })
    }
}

/// A line as shown, without the mark of a new element (page text never
/// starts with `*[`: such a line is escaped).
fn plain(line: String) -> String {
    match line.strip_prefix('*') {
        Some(rest) if rest.starts_with('[') => rest.to_owned(),
        _ => line,
    }
}

/// The element number a line is about, if it is an element's line.
fn number_of(line: &str) -> Option<u32> {
    line.strip_prefix('[')?.split_once(']')?.0.parse().ok()
}

/// The change list from `old` to `new`, and how many lines stayed as they
/// were. Lines are matched in order (a longest common subsequence); then a
/// removed and an added line of the same element are one element changed
/// (or moved, if its line is the same), and a text line removed in one
/// place and added in another has moved.
// (Over 100 lines: the change list's one pass over two readings, line by line.)
fn diff(old: &[String], new: &[String]) -> (Vec<Change>, usize) {
    let ops = capture_diff_slices(Algorithm::Myers, old, new);
    let mut unchanged = 0;
    // Per hunk (a run of changed lines), in the order of the new page: the
    // lines it removed, then those it added; and where it starts.
    let mut hunks: Vec<(usize, Vec<Change>)> = Vec::new();
    for op in &ops {
        let (old_range, new_range) = match *op {
            DiffOp::Equal { len, .. } => {
                unchanged += len;
                continue;
            }
            DiffOp::Delete {
                old_index,
                old_len,
                new_index,
            } => (old_index..old_index + old_len, new_index..new_index),
            DiffOp::Insert {
                old_index,
                new_index,
                new_len,
            } => (old_index..old_index, new_index..new_index + new_len),
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => (
                old_index..old_index + old_len,
                new_index..new_index + new_len,
            ),
        };
        let mut hunk: Vec<Change> = old[old_range]
            .iter()
            .cloned()
            .map(Change::Removed)
            .collect();
        hunk.extend(new[new_range.clone()].iter().cloned().map(Change::Added));
        hunks.push((new_range.start, hunk));
    }
    // Pair what was removed with what was added: an element by its number
    // (changed, or moved if its line is the same), a text line by its text
    // (moved).
    let mut removed_numbers: HashMap<u32, String> = HashMap::new();
    let mut removed_text: HashMap<String, usize> = HashMap::new();
    for change in hunks.iter().flat_map(|(_, hunk)| hunk) {
        if let Change::Removed(line) = change {
            match number_of(line) {
                Some(number) => {
                    removed_numbers.insert(number, line.clone());
                }
                None => *removed_text.entry(line.clone()).or_default() += 1,
            }
        }
    }
    let mut paired_numbers: HashSet<u32> = HashSet::new();
    let mut moved_text: HashMap<String, usize> = HashMap::new();
    for change in hunks.iter_mut().flat_map(|(_, hunk)| hunk.iter_mut()) {
        let Change::Added(line) = change else {
            continue;
        };
        if let Some(number) = number_of(line) {
            if let Some(was) = removed_numbers.get(&number) {
                paired_numbers.insert(number);
                *change = if was == line {
                    Change::Moved(line.clone())
                } else {
                    Change::Changed(line.clone())
                };
            }
        } else if let Some(count) = removed_text.get_mut(line.as_str()).filter(|n| **n > 0) {
            *count -= 1;
            *moved_text.entry(line.clone()).or_default() += 1;
            *change = Change::Moved(line.clone());
        }
    }
    // Focus moves from one element to another: the one that gains it says
    // so, and the one that lost it (its line otherwise the same) need not.
    let gained_focus = hunks.iter().flat_map(|(_, hunk)| hunk).any(|change| {
        matches!(change, Change::Changed(line) | Change::Added(line) if line.ends_with(" focused") || line.contains(" focused "))
    });
    if gained_focus {
        for (_, hunk) in &mut hunks {
            hunk.retain(|change| match change {
                Change::Changed(line) => {
                    let number = number_of(line);
                    let was = number.and_then(|number| removed_numbers.get(&number));
                    !was.is_some_and(|was| lost_focus_only(was, line))
                }
                _ => true,
            });
        }
    }
    let mut changes = Vec::new();
    for (start, mut hunk) in hunks {
        hunk.retain(|change| match change {
            Change::Removed(line) => match number_of(line) {
                Some(number) => !paired_numbers.contains(&number),
                None => match moved_text.get_mut(line.as_str()) {
                    Some(count) if *count > 0 => {
                        *count -= 1;
                        false
                    }
                    _ => true,
                },
            },
            _ => true,
        });
        // Where something was put, the unchanged line before says where.
        let placed = hunk
            .iter()
            .any(|change| matches!(change, Change::Added(_) | Change::Moved(_)));
        if placed && start > 0 && !changed_at(&ops, start - 1) {
            changes.push(Change::After(new[start - 1].clone()));
        }
        changes.extend(hunk);
    }
    (changes, unchanged)
}

/// Whether `now` is `was` with nothing but its focus gone.
fn lost_focus_only(was: &str, now: &str) -> bool {
    was.replacen(" focused", "", 1) == now && was != now
}

/// Whether the new page's line `at` is part of a change (not an unchanged
/// line).
fn changed_at(ops: &[DiffOp], at: usize) -> bool {
    !ops.iter().any(|op| match *op {
        DiffOp::Equal { new_index, len, .. } => (new_index..new_index + len).contains(&at),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_owned).collect()
    }

    fn shown(changes: &[Change]) -> String {
        changes
            .iter()
            .map(|change| match change {
                Change::Added(line) => format!("+ {line}"),
                Change::Removed(line) => format!("- {line}"),
                Change::Changed(line) => format!("~ {line}"),
                Change::Moved(line) => format!("> {line}"),
                Change::After(line) => format!("@ {line}"),
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn additions_say_where_removals_say_what() {
        let (changes, unchanged) = diff(
            &lines("# To do\n[1] button \"Add\"\nNothing yet."),
            &lines("# To do\n[1] button \"Add\"\n[2] checkbox \"Tea\" unchecked"),
        );
        assert_eq!(
            shown(&changes),
            "@ [1] button \"Add\"\n- Nothing yet.\n+ [2] checkbox \"Tea\" unchecked"
        );
        assert_eq!(unchanged, 2);
    }

    #[test]
    fn an_element_with_a_new_state_is_changed_not_replaced() {
        let (changes, _) = diff(
            &lines("[1] textbox \"Email\" focused\n[2] textbox \"Name\""),
            &lines("[1] textbox \"Email\" = \"ada\"\n[2] textbox \"Name\" focused"),
        );
        assert_eq!(
            shown(&changes),
            "~ [1] textbox \"Email\" = \"ada\"\n~ [2] textbox \"Name\" focused"
        );
    }

    #[test]
    fn focus_moving_on_is_said_once() {
        let (changes, _) = diff(
            &lines("[1] textbox \"Email\" = \"ada\" focused\n[2] button \"Send\""),
            &lines("[1] textbox \"Email\" = \"ada\"\n[2] button \"Send\" focused"),
        );
        assert_eq!(shown(&changes), "~ [2] button \"Send\" focused");
        // Lost with nowhere to go, it is said.
        let (changes, _) = diff(
            &lines("[1] textbox \"Email\" focused"),
            &lines("[1] textbox \"Email\""),
        );
        assert_eq!(shown(&changes), "~ [1] textbox \"Email\"");
    }

    #[test]
    fn a_reordered_list_is_moves() {
        let (changes, _) = diff(
            &lines("# List\n[1] link \"A\"\n[2] link \"B\"\n[3] link \"C\""),
            &lines("# List\n[3] link \"C\"\n[2] link \"B\"\n[1] link \"A\""),
        );
        let text = shown(&changes);
        assert!(!text.contains("- "), "{text}");
        assert!(!text.contains("+ "), "{text}");
        assert!(text.contains("> [3] link \"C\""), "{text}");
    }

    #[test]
    fn a_look_alike_re_render_is_new_numbers() {
        let (changes, _) = diff(&lines("[1] button \"Save\""), &lines("[4] button \"Save\""));
        assert_eq!(
            shown(&changes),
            "- [1] button \"Save\"\n+ [4] button \"Save\""
        );
    }

    #[test]
    fn moved_text_is_not_also_removed() {
        let (changes, _) = diff(&lines("Alpha\nBeta\nGamma"), &lines("Gamma\nAlpha\nBeta"));
        let text = shown(&changes);
        assert_eq!(text.matches("Gamma").count(), 1, "{text}");
        assert!(text.contains("> Gamma"), "{text}");
    }
}
