//! The numbers of one tab: which element of which frame's document each
//! number points at, what the model was told it is, and which numbers have
//! been retired with the documents the tab left.
//!
//! # Look-alikes keep their numbers
//!
//! A page that re-renders a list replaces its elements with new ones that a
//! person could not tell from the old: same role, name and state, in the
//! same place among the same text. Such an element takes the number of the
//! one it replaced, so the model's number still means what it saw and a
//! change list has nothing to say. Only where that is certain: the old
//! element is gone from the page, and no other element of the old reading
//! or of the new one stands in the same place with the same look. Its place
//! is the text of its row (the box around it that holds text besides its
//! own: a list item's label, a table row's cells; read for elements with
//! no name or a name of no letter or digit, whose look says least) and the nearest text before that row;
//! for an element with no row, the nearest text before and after it. A reordered list, a changed neighbour, two identical rows: new
//! numbers, as for any new element.

use std::collections::{HashMap, HashSet};

use driver_core::PageText;

/// Where a number points: a frame (by path), that frame's document, and the
/// element's local id there; and, once a snapshot described it, its role
/// and name as the model read them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Pointee {
    pub(crate) path: Vec<u32>,
    pub(crate) doc: String,
    pub(crate) local: u32,
    pub(crate) seen_as: Option<(String, PageText)>,
    /// Where the box's next part lies, for a scroll box the model was told
    /// holds more (`None` for every other element).
    pub(crate) onward: Option<Onward>,
}

/// Which way a scroll box's next part lies, as its line said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Onward {
    /// Below (what a list's box holds, as a rule).
    Down,
    /// To the right, where nothing is below (a strip of cards).
    Right,
}

impl Onward {
    /// Where a scroll box's next part lies: below first; `None` when
    /// nothing lies below or to the right.
    pub(crate) fn of(state: &crate::ScrollState) -> Option<Self> {
        use crate::Beyond::Nothing;
        if state.below != Nothing || state.read_below != Nothing {
            Some(Self::Down)
        } else if state.right != Nothing {
            Some(Self::Right)
        } else {
            None
        }
    }
}

impl Pointee {
    /// The name the model was shown for it (empty where no snapshot
    /// described it).
    pub(crate) fn meant(&self) -> PageText {
        self.seen_as
            .as_ref()
            .map(|(_, name)| name.clone())
            .unwrap_or_default()
    }
}

/// A frame's document: its path of `window.frames` indices and its id.
pub(crate) type Document = (Vec<u32>, String);

/// The numbering of one tab.
#[derive(Debug, Default)]
pub(crate) struct TabMarks {
    next: u32,
    /// Per frame document: local id → number.
    numbers: HashMap<Document, HashMap<u32, u32>>,
    pub(crate) targets: HashMap<u32, Pointee>,
    /// The top document the last snapshot saw, and the numbers it showed.
    pub(crate) doc: Option<String>,
    pub(crate) shown: HashSet<u32>,
    /// Numbers up to this one belonged to documents the tab has left and
    /// are forgotten (a long session must not keep every page it saw).
    pub(crate) retired: u32,
    /// The lines of the last snapshot of the whole top document (not a
    /// scope, a search or a reading), to know look-alikes by.
    pub(crate) last: Vec<Seen>,
}

/// A line of a snapshot as the numbering remembers it: text (a heading,
/// a line, a frame's edge), or an element by number and by its line
/// without the number (its role, name, state and value).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Seen {
    Text(String),
    /// Its number, its look, its row's text (see `Element::row`).
    Element(u32, String, String),
}

/// What an element is known by among the lines of a snapshot: its look,
/// its row, and the nearest text before (outside its row) and after it
/// (for an element with no row).
type Place<'a> = (&'a str, &'a str, &'a str, &'a str);

/// The elements of `lines` by place; a place two elements share is
/// nobody's (`None`).
fn places(lines: &[Seen]) -> HashMap<Place<'_>, Option<u32>> {
    // The text lines before each line, nearest last.
    let mut texts: Vec<&str> = Vec::new();
    let mut before = Vec::with_capacity(lines.len());
    for line in lines {
        before.push(texts.len());
        if let Seen::Text(line) = line {
            texts.push(line);
        }
    }
    let mut after = vec![""; lines.len()];
    let mut text = "";
    for (index, line) in lines.iter().enumerate().rev() {
        after[index] = text;
        if let Seen::Text(line) = line {
            text = line;
        }
    }
    let mut places: HashMap<Place<'_>, Option<u32>> = HashMap::new();
    for (index, line) in lines.iter().enumerate() {
        if let Seen::Element(number, look, row) = line {
            let place = if row.is_empty() {
                let before = before[index].checked_sub(1).map_or("", |at| texts[at]);
                (look.as_str(), "", before, after[index])
            } else {
                // Before its row: the nearest text that is not part of it.
                let outside = texts[..before[index]]
                    .iter()
                    .rev()
                    .find(|text| !row.contains(**text))
                    .copied()
                    .unwrap_or("");
                (look.as_str(), row.as_str(), outside, "")
            };
            places
                .entry(place)
                .and_modify(|shared| *shared = None)
                .or_insert(Some(*number));
        }
    }
    places
}

/// The elements of `new` that stand where one of `old` stood, looking the
/// same, and replace it: (the new number, the old one). `gone`: the old
/// element is no longer in the page; `fresh`: the new one was numbered just
/// now.
pub(crate) fn look_alikes(
    old: &[Seen],
    new: &[Seen],
    gone: impl Fn(u32) -> bool,
    fresh: impl Fn(u32) -> bool,
) -> Vec<(u32, u32)> {
    let before = places(old);
    let mut pairs: Vec<(u32, u32)> = places(new)
        .into_iter()
        .filter_map(|(place, now)| {
            let (now, was) = (now?, (*before.get(&place)?)?);
            (fresh(now) && gone(was)).then_some((now, was))
        })
        .collect();
    pairs.sort_unstable();
    pairs
}

impl TabMarks {
    /// The number the next new element gets.
    pub(crate) fn next_number(&self) -> u32 {
        self.next + 1
    }

    /// The element numbered `fresh` takes the number `old` instead: it
    /// replaced that one, a look-alike in its place (see the module docs).
    /// Not across frames or documents.
    pub(crate) fn inherit(&mut self, fresh: u32, old: u32) -> bool {
        let (Some(now), Some(was)) = (self.targets.get(&fresh), self.targets.get(&old)) else {
            return false;
        };
        if now.path != was.path || now.doc != was.doc {
            return false;
        }
        let document = (was.path.clone(), was.doc.clone());
        let (gone, local) = (was.local, now.local);
        if let Some(frame) = self.numbers.get_mut(&document) {
            frame.remove(&gone);
            frame.insert(local, old);
        }
        if let Some(target) = self.targets.remove(&fresh) {
            self.targets.insert(old, target);
        }
        true
    }

    /// Forgets the numbers of every document but `keep`'s (the documents a
    /// snapshot of a new page just read): what the tab has left behind.
    pub(crate) fn retire_all_but(&mut self, keep: &HashSet<Document>) {
        self.numbers.retain(|document, _| keep.contains(document));
        let before = self.targets.len();
        self.targets
            .retain(|_, target| keep.contains(&(target.path.clone(), target.doc.clone())));
        if self.targets.len() < before {
            self.retired = self.next;
        }
    }

    /// The numbers of elements of one frame's document, by local id: the
    /// ones they had, new ones for those seen for the first time.
    pub(crate) fn number_all(
        &mut self,
        path: &[u32],
        doc: &str,
        locals: impl Iterator<Item = u32>,
    ) -> Vec<u32> {
        let frame = self
            .numbers
            .entry((path.to_vec(), doc.to_owned()))
            .or_default();
        locals
            .map(|local| {
                *frame.entry(local).or_insert_with(|| {
                    self.next += 1;
                    let target = Pointee {
                        path: path.to_vec(),
                        doc: doc.to_owned(),
                        local,
                        seen_as: None,
                        onward: None,
                    };
                    self.targets.insert(self.next, target);
                    self.next
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(line: &str) -> Seen {
        Seen::Text(line.to_owned())
    }

    fn element(number: u32, look: &str, row: &str) -> Seen {
        Seen::Element(number, look.to_owned(), row.to_owned())
    }

    /// A to-do list: per item a checkbox, its label, a delete button.
    fn list(items: &[(&str, u32, u32)]) -> Vec<Seen> {
        let mut lines = vec![text("h1 todos")];
        for (label, checkbox, delete) in items {
            lines.push(element(*checkbox, " checkbox unchecked", label));
            lines.push(text(label));
            lines.push(element(*delete, " button", label));
        }
        lines.push(text(&format!("{} items left", items.len())));
        lines
    }

    fn pairs(old: &[Seen], new: &[Seen], first_fresh: u32) -> Vec<(u32, u32)> {
        let present: HashSet<u32> = new
            .iter()
            .filter_map(|line| match line {
                Seen::Element(number, ..) => Some(*number),
                Seen::Text(_) => None,
            })
            .collect();
        look_alikes(
            old,
            new,
            |was| !present.contains(&was),
            |now| now >= first_fresh,
        )
    }

    #[test]
    fn a_list_rendered_again_keeps_its_numbers() {
        let old = list(&[("A", 1, 2), ("B", 3, 4)]);
        let new = list(&[("A", 11, 12), ("B", 13, 14), ("C", 15, 16)]);
        assert_eq!(pairs(&old, &new, 11), [(11, 1), (12, 2), (13, 3), (14, 4)]);
    }

    #[test]
    fn a_reordered_or_filtered_list_keeps_no_number_that_moved() {
        let old = list(&[("A", 1, 2), ("B", 3, 4), ("C", 5, 6)]);
        // Reversed: every item stands after other text now.
        let new = list(&[("C", 11, 12), ("B", 13, 14), ("A", 15, 16)]);
        assert_eq!(pairs(&old, &new, 11), []);
        // A filtered out: B and C follow other text than before.
        let new = list(&[("B", 13, 14), ("C", 15, 16)]);
        assert_eq!(pairs(&old, &new, 11), [(15, 5), (16, 6)]);
    }

    #[test]
    fn two_candidates_or_a_changed_look_get_new_numbers() {
        let old = list(&[("Same", 1, 2), ("Same", 3, 4)]);
        let new = list(&[("Same", 11, 12), ("Same", 13, 14)]);
        assert_eq!(pairs(&old, &new, 11), []);
        // A ticked checkbox is not the one the model read.
        let old = list(&[("A", 1, 2)]);
        let mut new = list(&[("A", 11, 12)]);
        new[1] = element(11, " checkbox checked", "A");
        assert_eq!(pairs(&old, &new, 11), [(12, 2)]);
        // An element still in the page keeps its own number; nothing takes it.
        let new = list(&[("A", 1, 12)]);
        assert_eq!(pairs(&old, &new, 11), [(12, 2)]);
    }

    #[test]
    fn without_a_row_both_neighbours_must_match() {
        let old = vec![text("Before"), element(1, " button", ""), text("After")];
        let new = vec![text("Before"), element(11, " button", ""), text("Changed")];
        assert_eq!(pairs(&old, &new, 11), []);
        let new = vec![text("Before"), element(11, " button", ""), text("After")];
        assert_eq!(pairs(&old, &new, 11), [(11, 1)]);
    }
}
