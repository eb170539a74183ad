//! The numbers of one tab: which element of which frame's document each
//! number points at, what the model was told it is, and which numbers have
//! been retired with the documents the tab left.

use std::collections::{HashMap, HashSet};

/// Where a number points: a frame (by path), that frame's document, and the
/// element's local id there; and, once a snapshot described it, its role
/// and name as the model read them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Target {
    pub(crate) path: Vec<u32>,
    pub(crate) doc: String,
    pub(crate) local: u32,
    pub(crate) seen_as: Option<(String, String)>,
}

/// A frame's document: its path of `window.frames` indices and its id.
pub(crate) type Document = (Vec<u32>, String);

/// The numbering of one tab.
#[derive(Debug, Default)]
pub(crate) struct TabMarks {
    next: u32,
    /// Per frame document: local id → number.
    numbers: HashMap<Document, HashMap<u32, u32>>,
    pub(crate) targets: HashMap<u32, Target>,
    /// The top document the last snapshot saw, and the numbers it showed.
    pub(crate) doc: Option<String>,
    pub(crate) shown: HashSet<u32>,
    /// Numbers up to this one belonged to documents the tab has left and
    /// are forgotten (a long session must not keep every page it saw).
    pub(crate) retired: u32,
}

impl TabMarks {
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
                    let target = Target {
                        path: path.to_vec(),
                        doc: doc.to_owned(),
                        local,
                        seen_as: None,
                    };
                    self.targets.insert(self.next, target);
                    self.next
                })
            })
            .collect()
    }
}
