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

mod changes;
mod error;
mod snapshot;

use std::collections::{BTreeMap, HashMap, HashSet};

use parking_lot::Mutex;

use driver_core::{
    Capability, Driver, ScreenshotFormat, ScreenshotOptions, TabId, DOCUMENT_STATUS,
};
use serde::Deserialize;
use serde_json::{json, Value};

pub use changes::{Reading, CHANGES_END, CHANGES_START};
pub use error::MarksError;
pub use snapshot::{
    cut, Element, Line, Rect, RenderOptions, SelectOption, Snapshot, CONTENT_END, CONTENT_START,
    MARGIN,
};

/// The page-side walker; see the file for what it returns.
pub const SNAPSHOT_JS: &str = include_str!("snapshot.js");

/// How deep cross-origin frames are followed inside each other.
const MAX_FRAME_DEPTH: usize = 5;

/// What to snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SnapshotOptions {
    /// The whole page, not only the viewport and a margin.
    pub full_page: bool,
    /// Only the subtree of this numbered element (an open dialog, say).
    pub scope: Option<u32>,
}

/// Where a number points: a frame (by path), that frame's document, and the
/// element's local id there; and, once a snapshot described it, its role
/// and name as the model read them.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Target {
    path: Vec<u32>,
    doc: String,
    local: u32,
    seen_as: Option<(String, String)>,
}

/// The numbering of one tab.
#[derive(Debug, Default)]
struct TabMarks {
    next: u32,
    /// Per frame document (path, document id): local id → number.
    numbers: HashMap<(Vec<u32>, String), HashMap<u32, u32>>,
    targets: HashMap<u32, Target>,
    /// The top document the last snapshot saw, and the numbers it showed.
    doc: Option<String>,
    shown: HashSet<u32>,
    /// Numbers up to this one belonged to documents the tab has left and
    /// are forgotten (a long session must not keep every page it saw).
    retired: u32,
}

impl TabMarks {
    /// Forgets the numbers of every document but `keep`'s (the documents a
    /// snapshot of a new page just read): what the tab has left behind.
    fn retire_all_but(&mut self, keep: &HashSet<(Vec<u32>, String)>) {
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
    fn number_all(
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

/// One frame's document as a snapshot read it: where it is, and its
/// elements.
struct FrameRead {
    path: Vec<u32>,
    doc: String,
    elements: Vec<Element>,
}

/// The snapshot script's answer for one frame.
#[derive(Debug, Deserialize)]
struct RawFrame {
    #[serde(default)]
    error: Option<String>,
    #[serde(default)]
    doc: String,
    #[serde(default)]
    title: String,
    #[serde(default)]
    url: String,
    #[serde(default)]
    status: u16,
    #[serde(default)]
    viewport: Size,
    #[serde(default)]
    scroll: Point,
    #[serde(default)]
    page: Size,
    #[serde(default)]
    items: Vec<RawItem>,
    #[serde(default)]
    elements: Vec<Element>,
    /// Elements outside the scope asked for: id, role, x, y, width, height.
    #[serde(default)]
    beyond: Vec<(u32, String, i64, i64, i64, i64)>,
}

impl RawFrame {
    /// All its elements, the ones beyond the scope as counted, not described.
    fn all_elements(&mut self) -> Vec<Element> {
        let mut elements = std::mem::take(&mut self.elements);
        elements.extend(
            self.beyond
                .drain(..)
                .map(|(local, role, x, y, width, height)| Element {
                    local,
                    role,
                    rect: Rect {
                        x,
                        y,
                        width,
                        height,
                    },
                    offscreen: true,
                    ..Element::default()
                }),
        );
        elements
    }
}

#[derive(Debug, Default, Clone, Copy, Deserialize)]
struct Size {
    w: i64,
    h: i64,
}

#[derive(Debug, Default, Clone, Copy, Deserialize, serde::Serialize)]
struct Point {
    x: f64,
    y: f64,
}

#[derive(Debug, Deserialize)]
#[serde(tag = "k")]
enum RawItem {
    #[serde(rename = "h")]
    Heading {
        level: u8,
        text: String,
        y: Option<i64>,
    },
    #[serde(rename = "t")]
    Text { text: String, y: Option<i64> },
    #[serde(rename = "e")]
    Element { id: u32 },
    #[serde(rename = "f")]
    Frame {
        path: Vec<u32>,
        src: String,
        offset: Point,
    },
}

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
        let request = json!({
            "op": "snapshot",
            "margin": MARGIN,
            "full": options.full_page,
            "scope": scope.as_ref().map(|(_, target)| target.local),
            "path": path,
            "handlers": property_handlers(driver, &path).await,
            "find": find,
        });
        let mut top: RawFrame = decode(run(driver, &path, request).await?)?;
        if let Some(error) = &top.error {
            return Err(MarksError::Script(error.clone()));
        }
        if let Some((number, target)) = &scope {
            if target.doc != top.doc {
                return Err(MarksError::Navigated { number: *number });
            }
        }
        let searched = find.is_some();
        let read = read_frames(driver, &mut top, path, options, find).await;
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
                let documents: HashSet<(Vec<u32>, String)> = read
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
                    RawLine::Item(RawItem::Heading { level, text, y }) => {
                        Line::Heading { level, text, y }
                    }
                    RawLine::Item(RawItem::Text { text, y }) => Line::Text { text, y },
                    RawLine::Item(RawItem::Element { id }) => match by_local.get(&(index, id)) {
                        Some(number) => Line::Element(*number),
                        None => continue,
                    },
                    RawLine::Item(RawItem::Frame { .. }) => continue,
                    RawLine::Unreachable(src, problem) => Line::Unreachable { src, problem },
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

    /// Finds a numbered element, scrolls it into view, and returns where to
    /// press it (top-viewport coordinates) after `action` ran on it.
    async fn ready(
        &self,
        driver: &dyn Driver,
        number: u32,
        action: &str,
        extra: Value,
    ) -> Result<(f64, f64, Value), MarksError> {
        let tab = driver.current_tab().await?;
        let target = self.target(&tab, number)?;
        let mut options =
            json!({ "op": "act", "id": target.local, "doc": target.doc, "action": action });
        if let Some((role, name)) = &target.seen_as {
            // What the model read of it: acting on something else (a node a
            // re-render reused, a forged registry) is refused.
            options["role"] = json!(role);
            options["name"] = json!(name);
        }
        if let (Some(options), Some(extra)) = (options.as_object_mut(), extra.as_object()) {
            options.extend(extra.clone());
        }
        let answer = run(driver, &target.path, options).await?;
        match answer["error"].as_str() {
            None => {}
            Some("gone") => return Err(MarksError::Gone { number }),
            Some("hidden") => return Err(MarksError::Hidden { number }),
            Some("navigated") => return Err(MarksError::Navigated { number }),
            Some("changed") => {
                return Err(MarksError::Changed {
                    number,
                    was: target.seen_as.map(|(_, name)| name).unwrap_or_default(),
                    now: answer["now"].as_str().unwrap_or_default().to_owned(),
                })
            }
            Some("no option") => {
                let options = answer["options"]
                    .as_array()
                    .map(|list| {
                        list.iter()
                            .filter_map(|o| o.as_str().map(str::to_owned))
                            .collect()
                    })
                    .unwrap_or_default();
                return Err(MarksError::NoOption {
                    number,
                    wanted: extra["values"]
                        .as_array()
                        .map(|list| {
                            list.iter()
                                .filter_map(|v| v.as_str().map(str::to_owned))
                                .collect()
                        })
                        .unwrap_or_default(),
                    options,
                });
            }
            Some(reason) => {
                return Err(MarksError::Unsuitable {
                    number,
                    action: match action {
                        "focus" => "typed into",
                        "select" => "selected in",
                        _ => "used",
                    },
                    reason: reason.to_owned(),
                })
            }
        }
        let mut x = coordinate(&answer, "x")?;
        let mut y = coordinate(&answer, "y")?;
        if !target.path.is_empty() {
            // A cross-origin frame answers in its own viewport: add where the
            // frame sits now.
            let placed = run(
                driver,
                &[],
                json!({ "op": "frame_box", "frame": target.path }),
            )
            .await?;
            x += coordinate(&placed["offset"], "x")?;
            y += coordinate(&placed["offset"], "y")?;
        }
        Ok((x, y, answer))
    }

    /// Clicks a numbered element with real mouse events at its centre.
    pub async fn click(&self, driver: &dyn Driver, number: u32) -> Result<(), MarksError> {
        let (x, y, answer) = self.ready(driver, number, "none", json!({})).await?;
        if let Some(by) = answer["covered"].as_str() {
            return Err(MarksError::Covered {
                number,
                by: by.to_owned(),
            });
        }
        driver.click_at(x, y).await?;
        Ok(())
    }

    /// Moves the mouse over a numbered element (scrolled into view first),
    /// so hover menus open and tooltips show.
    pub async fn hover(&self, driver: &dyn Driver, number: u32) -> Result<(), MarksError> {
        let (x, y, _) = self.ready(driver, number, "none", json!({})).await?;
        driver.move_mouse(x, y).await?;
        Ok(())
    }

    /// Types into a numbered field: focuses it (emptied first if `clear`),
    /// then key events.
    pub async fn type_into(
        &self,
        driver: &dyn Driver,
        number: u32,
        text: &str,
        clear: bool,
    ) -> Result<(), MarksError> {
        let (_, _, answer) = self
            .ready(driver, number, "focus", json!({ "clear": clear }))
            .await?;
        if answer["focused"] != true {
            return Err(MarksError::Unsuitable {
                number,
                action: "typed into",
                reason: "it cannot take keyboard focus".to_owned(),
            });
        }
        driver.type_text(text).await?;
        Ok(())
    }

    /// Selects options of a numbered select by label or value; returns the
    /// labels selected.
    pub async fn select(
        &self,
        driver: &dyn Driver,
        number: u32,
        values: &[String],
    ) -> Result<Vec<String>, MarksError> {
        let (_, _, answer) = self
            .ready(driver, number, "select", json!({ "values": values }))
            .await?;
        Ok(answer["selected"]
            .as_array()
            .map(|list| {
                list.iter()
                    .filter_map(|v| v.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default())
    }

    /// Readies a numbered element for an action of the caller's own:
    /// scrolled into view, and described: its centre and box in the
    /// viewport (`x`, `y`, `box` {x, y, w, h}), `tag`, `type`, `checked`,
    /// and whatever `action` adds (`"file"` marks the file field it stands
    /// for with the attribute `data-tabwright-upload` set to `token`, and
    /// answers `file`, or no `file` when it has none).
    pub async fn locate(
        &self,
        driver: &dyn Driver,
        number: u32,
        action: &str,
        extra: Value,
    ) -> Result<Value, MarksError> {
        let (x, y, mut answer) = self.ready(driver, number, action, extra).await?;
        // The centre as the caller must use it (a cross-origin frame's
        // offset added); the box moved with it.
        let (dx, dy) = (x - coordinate(&answer, "x")?, y - coordinate(&answer, "y")?);
        let shifted = (
            coordinate(&answer["box"], "x")? + dx,
            coordinate(&answer["box"], "y")? + dy,
        );
        answer["x"] = json!(x);
        answer["y"] = json!(y);
        answer["box"]["x"] = json!(shifted.0);
        answer["box"]["y"] = json!(shifted.1);
        Ok(answer)
    }

    /// Scrolls a numbered element into the middle of the viewport.
    pub async fn scroll_to(&self, driver: &dyn Driver, number: u32) -> Result<(), MarksError> {
        self.ready(driver, number, "none", json!({}))
            .await
            .map(|_| ())
    }

    /// The numbered element at a point of the viewport (numbering it if it
    /// had no number yet), or `None` when nothing actionable is there.
    pub async fn element_at(
        &self,
        driver: &dyn Driver,
        x: f64,
        y: f64,
    ) -> Result<Option<(u32, String, String)>, MarksError> {
        let tab = driver.current_tab().await?;
        let mut path = Vec::new();
        let mut answer = run(driver, &[], json!({ "op": "at", "x": x, "y": y })).await?;
        for _ in 0..MAX_FRAME_DEPTH {
            let Some(frame) = answer["frame"].as_array() else {
                break;
            };
            path = frame
                .iter()
                .filter_map(|index| index.as_u64().map(|i| i as u32))
                .collect();
            let request = json!({ "op": "at", "x": answer["x"], "y": answer["y"], "path": path, "offset": answer["offset"] });
            answer = run(driver, &path, request).await?;
        }
        let (Some(local), Some(doc)) = (answer["id"].as_u64(), answer["doc"].as_str()) else {
            return Ok(None);
        };
        let number = self.with_tab(&tab, |marks| {
            marks.number_all(&path, doc, std::iter::once(local as u32))[0]
        });
        Ok(Some((
            number,
            answer["role"].as_str().unwrap_or_default().to_owned(),
            answer["name"].as_str().unwrap_or_default().to_owned(),
        )))
    }

    /// A screenshot of the viewport with each numbered element's box and
    /// number drawn on it, the same numbers as the snapshot it returns.
    pub async fn marked_screenshot(
        &self,
        driver: &dyn Driver,
        format: ScreenshotFormat,
    ) -> Result<(Vec<u8>, Snapshot), MarksError> {
        let snapshot = self.snapshot(driver, SnapshotOptions::default()).await?;
        let marks: Vec<Value> = snapshot
            .elements
            .values()
            .filter(|element| {
                !element.offscreen && element.rect.y + element.rect.height > 0 && element.rect.y < snapshot.viewport.1
            })
            .map(|element| {
                json!({ "n": element.number, "x": element.rect.x, "y": element.rect.y, "w": element.rect.width, "h": element.rect.height })
            })
            .collect();
        run(driver, &[], json!({ "op": "mark", "marks": marks })).await?;
        let picture = driver
            .screenshot(ScreenshotOptions {
                format,
                full_page: false,
            })
            .await;
        let _ = run(driver, &[], json!({ "op": "unmark" })).await;
        Ok((picture?, snapshot))
    }
}

enum RawLine {
    Item(RawItem),
    Unreachable(String, String),
}

/// The frames a snapshot read (the top one first) and their items in
/// reading order, each with the index of its frame.
struct FramesRead {
    frames: Vec<FrameRead>,
    lines: Vec<(RawLine, usize)>,
}

/// Reads the cross-origin frames the top document holds, at any depth, and
/// splices their items in where each frame stands (a stack of iterators,
/// innermost on top); a frame that cannot be read is a line saying why.
async fn read_frames(
    driver: &dyn Driver,
    top: &mut RawFrame,
    path: Vec<u32>,
    options: SnapshotOptions,
    find: Option<Value>,
) -> FramesRead {
    let viewport = top.viewport;
    let mut frames = vec![FrameRead {
        path,
        doc: top.doc.clone(),
        elements: top.all_elements(),
    }];
    let mut lines: Vec<(RawLine, usize)> = Vec::new();
    let mut stack = vec![(std::mem::take(&mut top.items).into_iter(), 0usize, 0usize)];
    while let Some((mut items, index, depth)) = stack.pop() {
        let Some(item) = items.next() else { continue };
        let RawItem::Frame {
            path: frame_path,
            src,
            offset,
        } = item
        else {
            lines.push((RawLine::Item(item), index));
            stack.push((items, index, depth));
            continue;
        };
        stack.push((items, index, depth));
        if depth >= MAX_FRAME_DEPTH {
            let problem = "frames nested too deep".to_owned();
            lines.push((RawLine::Unreachable(src, problem), index));
            continue;
        }
        let request = json!({
            "op": "snapshot",
            "margin": MARGIN,
            "full": options.full_page,
            "offset": offset,
            "viewport": { "w": viewport.w, "h": viewport.h },
            "path": frame_path,
            "handlers": property_handlers(driver, &frame_path).await,
            "find": find,
        });
        match run(driver, &frame_path, request)
            .await
            .and_then(decode::<RawFrame>)
        {
            Ok(mut frame) if frame.error.is_none() => {
                frames.push(FrameRead {
                    path: frame_path,
                    elements: frame.all_elements(),
                    doc: frame.doc,
                });
                stack.push((frame.items.into_iter(), frames.len() - 1, depth + 1));
            }
            Ok(frame) => lines.push((
                RawLine::Unreachable(src, frame.error.unwrap_or_default()),
                index,
            )),
            Err(error) => lines.push((RawLine::Unreachable(src, error.to_string()), index)),
        }
    }
    FramesRead { frames, lines }
}

/// Answers as one JSON string, which both protocols carry far faster than a
/// structure of thousands of objects (half the time of a 5,000-link
/// snapshot went on that), unless the page has given the built-in types a
/// `toJSON` (old libraries did), which would garble the string: then as a
/// structure.
const AS_JSON: &str = "((answer) => [Object, Array, String, Number, Boolean].some((type) => \
     typeof type.prototype.toJSON === 'function') ? answer : JSON.stringify(answer))";

/// Where the walker runs in a world of its own it cannot see a click
/// handler a page script set as a property (`button.onclick = …`): the
/// page's world is asked which elements have one, by their places in
/// document order. Only a hint; if the page breaks the question, none.
async fn property_handlers(driver: &dyn Driver, path: &[u32]) -> Value {
    const FIND: &str = "(() => { const found = []; const all = document.getElementsByTagName('*'); \
        for (let i = 0; i < all.length; i++) if (typeof all[i].onclick === 'function') found.push(i); \
        return found; })()";
    if !driver.capabilities().supports(Capability::IsolatedWorld) {
        return Value::Null;
    }
    let found = if path.is_empty() {
        driver.eval(FIND).await
    } else {
        driver.eval_in_frame(path, FIND).await
    };
    found.ok().filter(Value::is_array).unwrap_or(Value::Null)
}

/// What the walker is kept as in tabwright's own world, once per document,
/// so that a call sends a line, not the whole script (the page cannot reach
/// it there). Where the backend has no such world it is sent whole every
/// time: a page could replace a function left in its own world.
const WALKER: &str = "__tabwrightWalker";

/// Runs the page script in a frame (the top document for an empty path),
/// in tabwright's world where the backend has one.
async fn run(driver: &dyn Driver, path: &[u32], options: Value) -> Result<Value, MarksError> {
    let answer = if driver.capabilities().supports(Capability::IsolatedWorld) {
        let call = format!("{AS_JSON}({WALKER}({options}, {DOCUMENT_STATUS}))");
        let kept = format!("typeof {WALKER} === 'function' ? {call} : null");
        match driver.eval_isolated(path, &kept).await? {
            Value::Null => {
                let defined = format!("(globalThis.{WALKER} = ({SNAPSHOT_JS}), {call})");
                driver.eval_isolated(path, &defined).await?
            }
            answer => answer,
        }
    } else {
        let whole = format!("{AS_JSON}(({SNAPSHOT_JS})({options}, {DOCUMENT_STATUS}))");
        driver.eval_isolated(path, &whole).await?
    };
    match answer {
        Value::String(json) => {
            serde_json::from_str(&json).map_err(|error| MarksError::Script(error.to_string()))
        }
        other => Ok(other),
    }
}

/// A coordinate in a page script's answer: a finite number, or an error
/// (never a default: a click at (0, 0) would land on whatever is there).
fn coordinate(answer: &Value, key: &str) -> Result<f64, MarksError> {
    answer[key]
        .as_f64()
        .filter(|value| value.is_finite())
        .ok_or_else(|| {
            MarksError::Script(format!(
                "the page script answered without a usable {key}: {:.200}",
                answer.to_string()
            ))
        })
}

fn decode<T: serde::de::DeserializeOwned>(value: Value) -> Result<T, MarksError> {
    serde_json::from_value(value).map_err(|error| MarksError::Script(error.to_string()))
}
