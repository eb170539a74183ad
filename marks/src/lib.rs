//! Set-of-Marks: what a model reads of a page, and the numbers it answers
//! with ("click 3", "type into 7").
//!
//! [`Marks`] runs one readable script (`snapshot.js`) in the page through any
//! [`Driver`]. The script walks the document in reading order (open shadow
//! roots and same-origin iframes in place), keeps the text a person can see,
//! and lists every element a person could act on: links, buttons, fields,
//! selects, checkboxes, summaries, contenteditables, elements with an
//! interactive role or a tabindex, click handlers and `cursor: pointer`
//! targets. A cross-origin iframe, which the page's scripts cannot read, is
//! read through the backend ([`Driver::eval_in_frame`]) and spliced into the
//! same snapshot and the same numbering; one that cannot be reached is listed
//! as such.
//!
//! # Numbers that cannot mis-target
//!
//! An element keeps its number for as long as it is in the page; a new
//! element gets a new number; no number is ever reused in a tab. Acting on a
//! number checks that it is still the same element in the same document:
//! gone, hidden or left behind by a navigation, it fails with
//! [`MarksError`], never clicks something else.
//!
//! # The text
//!
//! See [`Snapshot::render`]. Hidden text (display:none, visibility, opacity,
//! aria-hidden, zero-size, clipped, off-page, the colour of its background)
//! is left out, so text planted for a model and not a person never reaches
//! it; the page's words are fenced as untrusted content.

mod acting;
mod changes;
mod error;
mod frames;
mod numbering;
mod page;
mod snapshot;
mod text;

use std::collections::{BTreeMap, HashMap, HashSet};

use parking_lot::Mutex;

use driver_core::{Driver, TabId};
use serde_json::{json, Value};

pub use acting::{press_at, press_at_with, FileField, Located};
pub use changes::{ChangeList, Reading};
pub use error::{MarksError, Unsuitable};
pub use page::WALKER_JS;
pub use snapshot::{
    Checked, Clue, Element, Line, Rect, RenderOptions, SelectOption, Snapshot, SnapshotOptions,
    MARGIN,
};
pub use text::{cut, escape, fate, fence_code, one_line, page_text, quote, Fate, Fence};

use frames::{property_handlers, read_frame, read_frames, snapshot_request, FramesRead, ReadLine};
use numbering::{Document, TabMarks, Target};
use page::{Answer, Code, WireItem, WirePoint};

/// Numbers, snapshots and actions on numbered elements, per tab.
#[derive(Debug, Default)]
pub struct Marks {
    tabs: Mutex<HashMap<TabId, TabMarks>>,
}

impl Marks {
    /// A fresh numbering.
    pub fn new() -> Self {
        Self::default()
    }

    fn with_tab<T>(&self, tab: &TabId, f: impl FnOnce(&mut TabMarks) -> T) -> T {
        f(self.tabs.lock().entry(tab.clone()).or_default())
    }

    /// Takes a snapshot of the current tab: the top document (or the
    /// scope's), the cross-origin frames in it spliced in where they stand,
    /// then numbered.
    pub async fn snapshot(
        &self,
        driver: &dyn Driver,
        options: SnapshotOptions,
    ) -> Result<Snapshot, MarksError> {
        self.read(driver, options, None).await
    }

    /// Searches the whole page (frames included): the elements whose role
    /// is `role` (if given) and whose name, value or link target holds
    /// `text` (ignoring case; if given), and the lines of text that hold
    /// it, numbered as a snapshot numbers them. Only what might match is
    /// looked at closely, so a search of a long page costs a fraction of
    /// its full snapshot. The result is a [`Snapshot`] of the matches alone
    /// (`full_page`, every element in it).
    pub async fn find(
        &self,
        driver: &dyn Driver,
        text: &str,
        role: Option<&str>,
    ) -> Result<Snapshot, MarksError> {
        let query = json!({ "text": text, "role": role.unwrap_or_default() });
        let options = SnapshotOptions {
            full_page: true,
            scope: None,
        };
        self.read(driver, options, Some(query)).await
    }

    /// A snapshot, or with `find` a search (see [`find`](Self::find)).
    async fn read(
        &self,
        driver: &dyn Driver,
        options: SnapshotOptions,
        find: Option<Value>,
    ) -> Result<Snapshot, MarksError> {
        let tab = driver.current_tab().await?;
        let scope = match options.scope {
            Some(number) => Some((number, self.target(&tab, number)?)),
            None => None,
        };
        let path = scope
            .as_ref()
            .map(|(_, target)| target.path.clone())
            .unwrap_or_default();
        let request = snapshot_request(
            options,
            scope.as_ref().map(|(_, target)| target.local),
            &path,
            WirePoint::default(),
            None,
            property_handlers(driver, &path).await,
            find.as_ref(),
        );
        let mut top = match read_frame(driver, &path, request).await? {
            Answer::Done(top) => top,
            Answer::Refused(refusal) => {
                return Err(match (refusal.error, &scope) {
                    (Code::Gone, Some((number, _))) => MarksError::Gone { number: *number },
                    (Code::Loading, _) => {
                        MarksError::Script("the document is still loading".to_owned())
                    }
                    (other, _) => MarksError::Script(format!("the walker refused: {other:?}")),
                })
            }
        };
        if let Some((number, target)) = &scope {
            if target.doc != top.doc {
                return Err(MarksError::Navigated { number: *number });
            }
        }
        let searched = find.is_some();
        let read = read_frames(driver, &mut top, path, options, find.as_ref()).await;
        // A search, like a scope, reads part of the page: it numbers what
        // it found without taking the page for read.
        let (lines, elements) = self.number(&tab, &top.doc, scope.is_some() || searched, read);
        Ok(Snapshot {
            title: top.title,
            url: top.url,
            status: (top.status > 0).then_some(top.status),
            viewport: (top.viewport.w, top.viewport.h),
            scroll_y: top.scroll.y as i64,
            page_height: top.page.h,
            lines,
            elements,
            full_page: options.full_page,
            document: top.doc,
            tab,
        })
    }

    /// Numbers what the frames hold and turns their items into lines: an
    /// element keeps the number it had, a new one gets the next; an element
    /// listed twice (nested inside another it is part of) appears once,
    /// where it first stands. A snapshot of the whole page (not a scope)
    /// also says which elements are new since the last one of this document.
    fn number(
        &self,
        tab: &TabId,
        top_doc: &str,
        scoped: bool,
        read: FramesRead,
    ) -> (Vec<Line>, BTreeMap<u32, Element>) {
        let mut numbered = BTreeMap::new();
        let mut lines = Vec::new();
        self.with_tab(tab, |marks| {
            let same_page = marks.doc.as_deref() == Some(top_doc);
            if !same_page && !scoped {
                marks.doc = Some(top_doc.to_owned());
                marks.shown.clear();
                let documents: HashSet<Document> = read
                    .frames
                    .iter()
                    .map(|frame| (frame.path.clone(), frame.doc.clone()))
                    .collect();
                marks.retire_all_but(&documents);
            }
            // (frame index, local id) → number.
            let mut by_local: HashMap<(usize, u32), u32> = HashMap::new();
            for (index, frame) in read.frames.into_iter().enumerate() {
                let locals = frame.elements.iter().map(|element| element.local);
                let numbers = marks.number_all(&frame.path, &frame.doc, locals);
                for (mut element, number) in frame.elements.into_iter().zip(numbers) {
                    element.number = number;
                    if !element.offscreen {
                        if let Some(target) = marks.targets.get_mut(&number) {
                            target.seen_as = Some((element.role.clone(), element.name.clone()));
                        }
                    }
                    element.new =
                        same_page && !marks.shown.is_empty() && !marks.shown.contains(&number);
                    by_local.insert((index, element.local), number);
                    numbered.insert(number, element);
                }
            }
            for (line, index) in read.lines {
                lines.push(match line {
                    ReadLine::Item(WireItem::Heading { level, text, y }) => Line::Heading {
                        level,
                        text,
                        y: Some(y),
                    },
                    ReadLine::Item(WireItem::Text { text, y }) => Line::Text { text, y: Some(y) },
                    ReadLine::Item(WireItem::Element { id }) => match by_local.get(&(index, id)) {
                        Some(number) => Line::Element(*number),
                        None => continue,
                    },
                    ReadLine::Item(WireItem::Frame { .. }) => continue,
                    ReadLine::Unreachable(src, problem) => Line::Unreachable { src, problem },
                    ReadLine::FrameBegins(origin) => Line::FrameBegins { origin },
                    ReadLine::FrameEnds(origin) => Line::FrameEnds { origin },
                });
            }
            if !scoped {
                marks.shown.extend(numbered.keys().copied());
            }
        });
        let mut seen = HashSet::new();
        lines.retain(|line| match line {
            Line::Element(number) => seen.insert(*number),
            _ => true,
        });
        (lines, numbered)
    }

    fn target(&self, tab: &TabId, number: u32) -> Result<Target, MarksError> {
        self.with_tab(tab, |marks| match marks.targets.get(&number) {
            Some(target) => Ok(target.clone()),
            None if number > 0 && number <= marks.retired => Err(MarksError::Navigated { number }),
            None => Err(MarksError::Unknown { number }),
        })
    }

    /// Forgets the numbering of tabs that are gone (all but `open`).
    pub fn retain_tabs(&self, open: &[TabId]) {
        self.tabs.lock().retain(|tab, _| open.contains(tab));
    }
}
