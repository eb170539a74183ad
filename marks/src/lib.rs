//! Set-of-Marks: what a model reads of a page, and the numbers it answers
//! with ("click 3", "type into 7").
//!
//! [`Marks`] runs one readable script (`snapshot.js`) in the page through any
//! [`Driver`]. The script walks the document in reading order (shadow roots,
//! closed ones handed over by the browser ([`Driver::hand_over`]), and
//! same-origin iframes in place), keeps the text a person can see,
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
//! element gets a new number, unless it replaced a look-alike a person
//! could not tell from it, in the same place (a list rendered again: see
//! `numbering`), whose number it takes; no number is ever given to a second
//! element while its first is in the page. Acting on a
//! number checks that it is still the same element in the same document:
//! gone, hidden or left behind by a navigation, it fails with
//! [`MarksError`], never clicks something else.
//!
//! # The text
//!
//! See [`Snapshot::render`]. Text a person does not see is left out, so
//! text planted for a model and not a person never reaches it: in the
//! viewport judged by the pixels the browser draws (`seen`: the page
//! pictured as drawn and with the text taken out of the paint), beyond it
//! and where a backend cannot picture the paint by style. The page's words
//! are fenced as untrusted content.

mod acting;
mod changes;
mod error;
mod frames;
mod numbering;
mod page;
mod reading;
#[doc(hidden)]
pub mod request;
mod seen;
mod snapshot;
mod text;

use std::collections::{BTreeMap, HashMap, HashSet};

use parking_lot::Mutex;

use driver_core::{Capability, Driver, TabId};

pub use acting::{
    cover_secrets, hold_focused, holds_secret, press_at, press_at_with,
    screenshot_covering_secrets, uncover, Acted, Elsewhere, FileField, KeysArmed, Landed, Located,
    Typed, Went,
};
pub use changes::{ChangeList, Reading};
pub use error::{MarksError, Unsuitable};
pub use page::WALKER_JS;
pub use snapshot::{
    Beyond, Block, BlockKind, Checked, Clue, ContentRoot, Element, Line, MainContent, Part, Rect,
    RenderOptions, ScrollState, SelectOption, Snapshot, SnapshotOptions, MARGIN,
};
pub use text::{cut, escape, fate, fence_code, one_line, page_text, quote, quoted, Fate, Fence};

use frames::{
    frame_fields, property_handlers, read_frame, read_frames, snapshot_request, Asked, FramesRead,
    ReadLine,
};
pub use numbering::Onward;
use numbering::{look_alikes, Document, Pointee, Seen, TabMarks};
use page::{Answer, Code, WireItem, WirePoint};

/// Numbers, snapshots and actions on numbered elements, per tab.
#[derive(Debug, Default)]
pub struct Marks {
    tabs: Mutex<HashMap<TabId, TabMarks>>,
    /// Where settling keeps what it knows of a document in tabwright's
    /// world (the page's pending short timers among it), if it runs.
    settle_key: Option<String>,
    /// What the pictures found of each tab's text, kept while the page
    /// holds still (`seen`).
    seen: Mutex<HashMap<TabId, std::sync::Arc<Mutex<seen::Memory>>>>,
}

impl Marks {
    /// A fresh numbering.
    pub fn new() -> Self {
        Self::default()
    }

    /// Tells a pointer action where settling keeps its record of each
    /// document in tabwright's world (the key of a `Symbol.for`): the
    /// pointer then rests over an element only while the page has short
    /// timers or frames pending (what its hover handlers set going), not a
    /// fixed frame.
    pub fn with_settle_record(mut self, key: String) -> Self {
        self.settle_key = Some(key);
        self
    }

    /// Has `driver` keep the walker in tabwright's world of every document
    /// its tabs load ([`Driver::preload`]), so the first read of a new page
    /// sends a line rather than the whole script (some 200 KB, a tenth of
    /// a small page's `open`). Best given before the browser starts: tabs
    /// open already keep what they had.
    pub fn preload(driver: &dyn Driver) {
        driver.preload(&page::PRELOAD);
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
        self.read(driver, options, Asked::Page).await
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
        let query = request::Query {
            text: text.to_owned(),
            role: role.unwrap_or_default().to_owned(),
        };
        let options = SnapshotOptions {
            full_page: true,
            scope: None,
        };
        self.read(driver, options, Asked::Find(query)).await
    }

    /// Reads the text of the page (frames included), for
    /// [`Snapshot::render_reading`]: its main content (its `main`
    /// landmark, else its only article, else the body less the
    /// navigation, banner, footer, asides and search around it), or the
    /// element `scope`, or with `whole` all of the page, as blocks of text
    /// (paragraphs, headings, list items, quotes, preformatted text, table
    /// cells) whose links stand where they are in the text, numbered as a
    /// snapshot numbers them. A form's controls are left out. The text is
    /// judged as a snapshot judges it: what a person cannot see is not read.
    pub async fn read_text(
        &self,
        driver: &dyn Driver,
        scope: Option<u32>,
        whole: bool,
    ) -> Result<Snapshot, MarksError> {
        let options = SnapshotOptions {
            full_page: true,
            scope,
        };
        self.read(driver, options, Asked::Read { whole }).await
    }

    /// A snapshot, a search (see [`find`](Self::find)) or a reading (see
    /// [`read_text`](Self::read_text)).
    async fn read(
        &self,
        driver: &dyn Driver,
        options: SnapshotOptions,
        asked: Asked,
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
        let judge = driver.capabilities().supports(Capability::PaintProbe);
        let handlers = property_handlers(driver, &path).await;
        let frame = frame_fields(
            &path,
            WirePoint::default(),
            None,
            handlers,
            judge.then_some(driver),
        );
        let request = snapshot_request(
            options,
            scope.as_ref().map(|(_, target)| target.local),
            frame,
            &asked,
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
        let partial = scope.is_some() || !matches!(asked, Asked::Page);
        let memory = judge.then(|| self.seen.lock().entry(tab.clone()).or_default().clone());
        let mut read =
            read_frames(driver, &mut top, path, options, &asked, memory.as_deref()).await?;
        let content = top.read.take().map(|read| MainContent {
            root: read.root,
            left_out: read.left,
        });
        let unjudged = read.unjudged.take();
        // A search or a reading, like a scope, reads part of the page: it
        // numbers what it found without taking the page for read.
        let (lines, elements) = self.number(&tab, &top.doc, partial, read);
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
            content,
            unjudged,
        })
    }

    /// Numbers what the frames hold and turns their items into lines: an
    /// element keeps the number it had, a new one gets the next; an element
    /// listed twice (nested inside another it is part of) appears once,
    /// where it first stands. A snapshot of the whole page (not a scope)
    /// also says which elements are new since the last one of this document.
    // (Over 100 lines: numbering in one pass over a snapshot's lines and elements, look-alikes kept on the way.)
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
                marks.last.clear();
                let documents: HashSet<Document> = read
                    .frames
                    .iter()
                    .map(|frame| (frame.path.clone(), frame.doc.clone()))
                    .collect();
                marks.retire_all_but(&documents);
            }
            let first_fresh = marks.next_number();
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
                            target.onward = element.scroll.as_ref().and_then(Onward::of);
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
                    ReadLine::Item(WireItem::Block(block)) => Line::Block(
                        block.into_block(|local| by_local.get(&(index, local)).copied()),
                    ),
                    ReadLine::Unreachable(src, problem) => Line::Unreachable { src, problem },
                    ReadLine::FrameBegins(origin) => Line::FrameBegins { origin },
                    ReadLine::FrameEnds(origin) => Line::FrameEnds { origin },
                });
            }
            let mut seen = HashSet::new();
            lines.retain(|line| match line {
                Line::Element(number) => seen.insert(*number),
                _ => true,
            });
            if !scoped {
                // A page too long to remember is renumbered as before.
                let mut now = if lines.len() <= REMEMBERED_LINES {
                    remembered(&lines, &numbered)
                } else {
                    Vec::new()
                };
                let pairs = look_alikes(
                    &marks.last,
                    &now,
                    |was| !numbered.contains_key(&was),
                    |number| number >= first_fresh,
                );
                let mut kept = HashMap::new();
                for (fresh, old) in pairs {
                    if marks.inherit(fresh, old) {
                        kept.insert(fresh, old);
                    }
                }
                if !kept.is_empty() {
                    let renumber = |number: &mut u32| {
                        *number = kept.get(number).copied().unwrap_or(*number);
                    };
                    for line in &mut lines {
                        if let Line::Element(number) = line {
                            renumber(number);
                        }
                    }
                    for seen in &mut now {
                        if let Seen::Element(number, ..) = seen {
                            renumber(number);
                        }
                    }
                    for (fresh, old) in &kept {
                        if let Some(mut element) = numbered.remove(fresh) {
                            // The number was shown before: not new.
                            element.number = *old;
                            element.new = false;
                            numbered.insert(*old, element);
                        }
                    }
                }
                marks.last = now;
                marks.shown.extend(numbered.keys().copied());
            }
        });
        (lines, numbered)
    }

    fn target(&self, tab: &TabId, number: u32) -> Result<Pointee, MarksError> {
        self.with_tab(tab, |marks| match marks.targets.get(&number) {
            Some(target) => Ok(target.clone()),
            None if number > 0 && number <= marks.retired => Err(MarksError::Navigated { number }),
            None => Err(MarksError::Unknown { number }),
        })
    }

    /// Where a number points on `tab`'s page, as far as the model was
    /// told: the frame its element is in (by path of `window.frames`
    /// indices; empty for the top document or a frame of its origin) and
    /// the role a snapshot described it with (empty if none did). `None`
    /// for a number the tab does not know.
    pub fn pointed(&self, tab: &TabId, number: u32) -> Option<(Vec<u32>, String)> {
        self.with_tab(tab, |marks| {
            marks.targets.get(&number).map(|target| {
                let role = target
                    .seen_as
                    .as_ref()
                    .map(|(role, _)| role.clone())
                    .unwrap_or_default();
                (target.path.clone(), role)
            })
        })
    }

    /// Where the next part of the scroll box `number` on `tab` lies, as
    /// the snapshot that numbered it said: `None` for an element that is
    /// no scroll box, or one holding nothing more below or to the right.
    pub fn onward(&self, tab: &TabId, number: u32) -> Option<Onward> {
        self.with_tab(tab, |marks| {
            marks.targets.get(&number).and_then(|target| target.onward)
        })
    }

    /// Forgets what the pictures found of every tab's text: the next
    /// snapshot judges what it reads afresh, as after a change nobody saw.
    pub fn forget_pictures(&self) {
        self.seen.lock().clear();
    }

    /// Forgets the numbering of tabs that are gone (all but `open`).
    pub fn retain_tabs(&self, open: &[TabId]) {
        self.tabs.lock().retain(|tab, _| open.contains(tab));
        self.seen.lock().retain(|tab, _| open.contains(tab));
    }
}

/// The most lines of a snapshot remembered to know look-alikes by: a
/// longer page (a list of thousands) keeps no memory of its lines, and its
/// re-rendered elements get new numbers.
const REMEMBERED_LINES: usize = 5_000;

/// A snapshot's lines as the numbering remembers them, to know look-alikes
/// by at the next (see `numbering`).
fn remembered(lines: &[Line], elements: &BTreeMap<u32, Element>) -> Vec<Seen> {
    lines
        .iter()
        .filter_map(|line| match line {
            Line::Element(number) => {
                let element = elements.get(number)?;
                let shown = snapshot::element_line(element);
                let look = shown.split_once(']').map_or("", |(_, look)| look);
                Some(Seen::Element(*number, look.to_owned(), element.row.clone()))
            }
            Line::Heading { level, text, .. } => Some(Seen::Text(format!("h{level} {text}"))),
            Line::Text { text, .. } => Some(Seen::Text(text.clone())),
            Line::FrameBegins { origin } => Some(Seen::Text(format!("frame {origin}"))),
            Line::FrameEnds { origin } => Some(Seen::Text(format!("end {origin}"))),
            Line::Unreachable { src, .. } => Some(Seen::Text(format!("unreachable {src}"))),
            Line::Block(_) => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use driver_core::fake::{FakeDriver, FakeLine, FakePage};

    use super::*;

    /// A to-do list at one address: per item a checkbox (unnamed, told by
    /// its row) and the item's label.
    fn list(document: &str, items: &[(u32, &str)]) -> FakePage {
        let mut lines = vec![FakeLine::Heading("todos".into())];
        for (id, label) in items {
            lines.push(FakeLine::Element {
                id: *id,
                role: "checkbox".into(),
                name: String::new(),
                row: (*label).into(),
            });
            lines.push(FakeLine::Text((*label).into()));
        }
        FakePage {
            url: "http://app.test/".into(),
            title: "Todos".into(),
            document: document.into(),
            lines,
        }
    }

    async fn numbers(marks: &Marks, driver: &FakeDriver) -> Vec<u32> {
        let snapshot = marks
            .snapshot(&**driver, SnapshotOptions::default())
            .await
            .expect("a snapshot");
        snapshot
            .lines
            .iter()
            .filter_map(|line| match line {
                Line::Element(number) => Some(*number),
                _ => None,
            })
            .collect()
    }

    #[tokio::test]
    async fn look_alikes_keep_numbers_and_a_new_document_retires_them() {
        let driver = FakeDriver::new();
        let marks = Marks::new();
        driver.page(list("one", &[(1, "A"), (2, "B")]));
        driver.navigate("http://app.test/").await.expect("served");
        let first = numbers(&marks, &driver).await;
        assert_eq!(first.len(), 2);
        // Rendered again: new elements where the old stood.
        driver.page(list("one", &[(3, "A"), (4, "B")]));
        assert_eq!(numbers(&marks, &driver).await, first);
        // Reordered: no number follows an item to another place.
        driver.page(list("one", &[(5, "B"), (6, "A")]));
        let reordered = numbers(&marks, &driver).await;
        assert!(
            reordered.iter().all(|number| !first.contains(number)),
            "{reordered:?}"
        );
        // Another document: the old numbers are retired, and say so.
        driver.page(list("two", &[(1, "A")]));
        let fresh = numbers(&marks, &driver).await;
        assert!(fresh.iter().all(|number| !reordered.contains(number)));
        match marks.click(&*driver, reordered[0]).await {
            Err(MarksError::Navigated { number }) => assert_eq!(number, reordered[0]),
            other => panic!("a retired number acted: {other:?}"),
        }
        match marks.click(&*driver, 999).await {
            Err(MarksError::Unknown { number: 999 }) => {}
            other => panic!("an unknown number acted: {other:?}"),
        }
    }
}
