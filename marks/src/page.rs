//! The page half of the numbering: the walker script (`js/`, joined after
//! driver-core's visibility test), how it is run in a frame, and what it
//! answers, as strict types. A field the script renamed or dropped is an
//! error here, never an empty value; the script answers with data and
//! codes ([`Code`]), and the words a model reads are written in `tools`.

use std::sync::LazyLock;

use driver_core::{Capability, Driver, PageText, DOCUMENT_STATUS, VISIBILITY_JS};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value;

use crate::snapshot::{Beyond, Checked, Clue, Element, Rect, ScrollState, SelectOption};
use crate::MarksError;

/// The walker's files, in the order they are joined (each may use what the
/// ones before it define): see `js/main.js`.
const FILES: [&str; 17] = [
    include_str!("js/registry.js"),
    include_str!("js/semantics.js"),
    include_str!("js/counted.js"),
    include_str!("js/widgets.js"),
    include_str!("js/boxes.js"),
    include_str!("js/walk.js"),
    include_str!("js/gathered.js"),
    include_str!("js/painted.js"),
    include_str!("js/pixels.js"),
    include_str!("js/ghosts.js"),
    include_str!("js/partly.js"),
    include_str!("js/snapshot.js"),
    include_str!("js/find.js"),
    include_str!("js/read.js"),
    include_str!("js/act.js"),
    include_str!("js/record.js"),
    include_str!("js/main.js"),
];

/// The walker, as one function expression `(function (options, httpStatus)
/// {…})`: the visibility test and the files above, joined once.
pub static WALKER_JS: LazyLock<String> = LazyLock::new(|| {
    let mut script = String::from("(function (options, httpStatus) {\n\"use strict\";\n");
    script.push_str(VISIBILITY_JS);
    for file in FILES {
        script.push_str(file);
    }
    script.push_str("\nreturn dispatch();\n})");
    script
});

/// Answers as one JSON string, which both protocols carry far faster than a
/// structure of thousands of objects (half the time of a 5,000-link
/// snapshot went on that), unless the page has given the built-in types a
/// `toJSON` (old libraries did), which would garble the string: then as a
/// structure. An operation that waits (a pointer action waiting for its
/// element to hold still) answers a promise, and its value goes the same
/// way.
const AS_JSON: &str = "((answer) => { const json = (value) => [Object, Array, String, Number, Boolean].some((type) => \
     typeof type.prototype.toJSON === 'function') ? value : JSON.stringify(value); \
     return answer && typeof answer.then === 'function' ? answer.then(json) : json(answer); })";

/// What the walker is kept as in tabwright's own world, once per document,
/// so that a call sends a line, not the whole script (the page cannot reach
/// it there). Where the backend has no such world it is sent whole every
/// time: a page could replace a function left in its own world.
const KEPT: &str = "__tabwrightWalker";

/// The walker kept as [`KEPT`] from a document's start, for
/// `Driver::preload`: a first read then finds it there.
pub(crate) static PRELOAD: LazyLock<String> =
    LazyLock::new(|| format!("globalThis.{KEPT} = {};", *WALKER_JS));

/// Runs the walker with `request` in a frame (the top document for an
/// empty path), in tabwright's world where the backend has one, and reads
/// its answer as `T`, or the code it refused with.
pub(crate) async fn run<T: DeserializeOwned>(
    driver: &dyn Driver,
    path: &[u32],
    request: &crate::request::Request,
) -> Result<Answer<T>, MarksError> {
    let script: &str = &WALKER_JS;
    let options = serde_json::to_string(request)
        .map_err(|error| MarksError::Script(format!("a request did not serialise: {error}")))?;
    let answer = if driver.capabilities().supports(Capability::IsolatedWorld) {
        let call = format!("{AS_JSON}({KEPT}({options}, {DOCUMENT_STATUS}))");
        let kept = format!("typeof {KEPT} === 'function' ? {call} : null");
        match driver.eval_isolated(path, &kept).await? {
            Value::Null => {
                let defined = format!("(globalThis.{KEPT} = {script}, {call})");
                driver.eval_isolated(path, &defined).await?
            }
            answer => answer,
        }
    } else {
        let whole = format!("{AS_JSON}({script}({options}, {DOCUMENT_STATUS}))");
        driver.eval_isolated(path, &whole).await?
    };
    match answer {
        Value::String(json) => read_json(&json),
        other => read(other),
    }
}

/// Where the walker's registry is kept on a document's window in
/// tabwright's world (`js/registry.js`'s `KEY`).
const REGISTRY: &str = "__tabwrightMarks";

/// The expression that has the walk waiting in a document for pictures
/// take the candidates `runs` out of the paint as the highlight `name`
/// (none: puts them back): `js/pixels.js`'s `Pending.paint`, called
/// directly (not the whole walker).
pub(crate) fn paint_call(name: &str, runs: &[u32]) -> String {
    let (name, runs) = (
        serde_json::Value::from(name),
        serde_json::to_string(runs).unwrap_or_else(|_| "[]".to_owned()),
    );
    format!(
        "(() => {{ const pending = globalThis.{REGISTRY} && {REGISTRY}.pending; \
         return pending ? pending.paint({name}, {runs}) : null; }})()"
    )
}

/// Finishes the walk waiting in the frame at `path` with what the
/// pictures found (`None`: no pictures could be taken), and reads its
/// answer as [`run`] does.
pub(crate) async fn finish(
    driver: &dyn Driver,
    path: &[u32],
    verdict: Option<&crate::seen::Verdict>,
) -> Result<Answer<FrameAnswer>, MarksError> {
    let list = |ids: &[u32]| serde_json::to_string(ids).unwrap_or_else(|_| "[]".to_owned());
    let (hidden, bare, undecided, placed, cut) = match verdict {
        Some(verdict) => (
            list(&verdict.hidden),
            list(&verdict.bare),
            list(&verdict.undecided),
            list(&verdict.placed),
            serde_json::to_string(&verdict.cut).unwrap_or_else(|_| "[]".to_owned()),
        ),
        None => (
            "null".to_owned(),
            "[]".to_owned(),
            "[]".to_owned(),
            "[]".to_owned(),
            "[]".to_owned(),
        ),
    };
    let call = format!(
        "{AS_JSON}((() => {{ const pending = globalThis.{REGISTRY} && {REGISTRY}.pending; \
         return pending ? pending.finish({hidden}, {bare}, {undecided}, {placed}, {cut}) : {{ error: 'gone' }}; }})())"
    );
    match driver.eval_isolated(path, &call).await? {
        Value::String(json) => read_json(&json),
        other => read(other),
    }
}

/// Reads an answer sent as one JSON string straight into `T`: a 5,000-link
/// snapshot is some 700 KB, and going through a `Value` first (then back
/// to text for an error) cost a tenth of the call. A refusal is told by
/// its first key (the walker writes `{ error: … }` first, as
/// `js/main.js` says); an answer that is not a whole `T` is read
/// again as a `Value`, so that a refusal written otherwise is still one.
fn read_json<T: DeserializeOwned>(json: &str) -> Result<Answer<T>, MarksError> {
    if !json.starts_with("{\"error\":") {
        if let Ok(done) = serde_json::from_str(json) {
            return Ok(Answer::Done(done));
        }
    }
    let answer: Value = serde_json::from_str(json)
        .map_err(|error| MarksError::Script(format!("the walker's answer is no JSON: {error}")))?;
    read(answer)
}

/// A walker's answer: what was asked, or the code it refused with.
pub(crate) enum Answer<T> {
    Done(T),
    Refused(Refusal),
}

/// Reads an answer strictly: an `error` field is a refusal, anything else
/// must be a whole `T`.
fn read<T: DeserializeOwned>(answer: Value) -> Result<Answer<T>, MarksError> {
    if answer.get("error").is_some() {
        return serde_json::from_value(answer)
            .map(Answer::Refused)
            .map_err(|error| MarksError::Script(format!("an unknown refusal: {error}")));
    }
    let shown = answer.to_string();
    serde_json::from_value(answer)
        .map(Answer::Done)
        .map_err(|error| {
            MarksError::Script(format!(
                "the walker answered in a shape this build does not know ({error}): {}",
                crate::text::cut(&shown, 200)
            ))
        })
}

/// Why the walker did not do what it was asked: codes only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Code {
    /// The document has no root element yet.
    Loading,
    /// The element (or a scope's) is no longer in the page.
    Gone,
    /// Nothing of it is seen.
    Hidden,
    /// The number belongs to another document of this frame.
    Navigated,
    /// Its name is not the one the model read.
    Changed,
    /// A disabled control.
    Disabled,
    /// `select` on something that is not a select.
    NotSelect,
    /// None of the options asked for.
    NoOption,
    /// Its file field is inside a frame.
    FrameFile,
    /// Nothing is at that point.
    Nothing,
    /// It kept moving (an animation that did not end in time).
    Unsteady,
    /// Text typed into a control keys press.
    NoText,
    /// Text that is no value of a picked field's kind (a colour, a range).
    NotItsKind,
}

/// A refusal, with what it says besides its code.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Refusal {
    pub(crate) error: Code,
    /// (changed) its name now.
    pub(crate) now: Option<PageText>,
    /// (no option) the options there are.
    pub(crate) options: Option<Vec<PageText>>,
}

/// A box as the walker writes it.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct WireBox {
    pub(crate) x: f64,
    pub(crate) y: f64,
    pub(crate) w: f64,
    pub(crate) h: f64,
}

impl WireBox {
    pub(crate) fn rect(self) -> Rect {
        Rect {
            x: self.x.round() as i64,
            y: self.y.round() as i64,
            width: self.w.round() as i64,
            height: self.h.round() as i64,
        }
    }
}

/// A point as the walker writes it. Where it places a frame's document,
/// `s` is how much a transform on the frame scales that document's pixels
/// (none: not at all).
#[derive(Debug, Default, Clone, Copy, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct WirePoint {
    pub(crate) x: f64,
    pub(crate) y: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) s: Option<f64>,
}

impl WirePoint {
    /// How much the frame it places is scaled (1: not at all).
    pub(crate) fn scale(&self) -> f64 {
        self.s.filter(|s| s.is_finite() && *s > 0.0).unwrap_or(1.0)
    }
}

/// A width and height as the walker writes them.
#[derive(Debug, Default, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct WireSize {
    pub(crate) w: i64,
    pub(crate) h: i64,
}

/// One frame's snapshot (`gathered.js`'s SnapshotAnswer).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FrameAnswer {
    pub(crate) doc: String,
    pub(crate) title: PageText,
    pub(crate) url: PageText,
    pub(crate) origin: String,
    pub(crate) status: u16,
    pub(crate) viewport: WireSize,
    pub(crate) scroll: WirePoint,
    pub(crate) page: WireSize,
    pub(crate) items: Vec<WireItem>,
    pub(crate) elements: Vec<WireElement>,
    /// Elements outside the scope asked for: id, role, x, y, width, height.
    pub(crate) beyond: Vec<(u32, String, i64, i64, i64, i64)>,
    /// A reading's: what it read and what it left out (none otherwise).
    pub(crate) read: Option<WireReading>,
    /// The text in view, for pictures to judge: then the walk waits for
    /// them (`js/pixels.js`).
    pub(crate) runs: Option<Vec<WireRun>>,
    /// With `runs`: controls too faint to see that a click reaches (local
    /// id, x, y, width, height in the top viewport), for the pictures to
    /// say whether anything is drawn where they are.
    #[serde(default)]
    pub(crate) ghosts: Vec<(u32, f64, f64, f64, f64)>,
    /// With `runs`: how often the document had changed in a way that can
    /// change what it paints (`None`: it moves by itself). What pictures
    /// judged of a run holds while this stays and its boxes do.
    #[serde(default)]
    pub(crate) epoch: Option<u64>,
    /// With `runs`: how far above and below the viewport the pictures are
    /// to reach (what the walker was told it may, where the document goes).
    #[serde(default)]
    pub(crate) reach: Option<[u32; 2]>,
}

/// A text node in view, as pictures judge it (`pixels.js`'s WireRun).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct WireRun {
    /// Its id in its document (the walker's).
    pub(crate) i: u32,
    /// Its boxes in the top viewport: x, y, width, height, one after
    /// another.
    pub(crate) r: Vec<f64>,
    /// Its letters, spaces not counted.
    pub(crate) c: u32,
    /// The frame path of its document.
    pub(crate) p: Vec<u32>,
    /// Painted in (a colour of the pictures' own) rather than taken out,
    /// where a highlight cannot take it out: gradient text, letters seen
    /// by their shadow alone.
    #[serde(default, rename = "in")]
    pub(crate) painted_in: bool,
    /// Painted in, and its letters' ink is a background clipped to them
    /// (gradient text): seen only where that ink is drawn.
    #[serde(default, rename = "g")]
    pub(crate) clipped_ink: bool,
    /// Reaches beyond the boxes that clip it (or the page's top or left
    /// edge), where no picture shows it: its words there are left out
    /// once it is found seen.
    #[serde(default, rename = "o")]
    pub(crate) beyond: bool,
    /// Cut, wherever it is shown, by the edge of a box that scrolls or of
    /// a frame's viewport: the rest of it is a scroll away.
    #[serde(default, rename = "s")]
    pub(crate) scroll_cut: bool,
}

/// What a reading read (`gathered.js`'s ReadingAnswer).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct WireReading {
    pub(crate) root: crate::ContentRoot,
    pub(crate) left: Vec<String>,
}

/// A reading's block of text (`read.js`'s Block, with its parts).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct WireBlock {
    kind: crate::BlockKind,
    level: u8,
    depth: u32,
    n: u32,
    table: u32,
    row: u32,
    col: u32,
    parts: Vec<WirePart>,
    more: bool,
}

impl WireBlock {
    /// The block, its links numbered by `number` (a link not numbered is
    /// left out).
    pub(crate) fn into_block(self, number: impl Fn(u32) -> Option<u32>) -> crate::Block {
        crate::Block {
            kind: self.kind,
            level: self.level,
            depth: self.depth,
            n: self.n,
            table: self.table,
            row: self.row,
            col: self.col,
            more: self.more,
            parts: self
                .parts
                .into_iter()
                .filter_map(|part| match part {
                    WirePart::Text(text) => Some(crate::Part::Text(text)),
                    WirePart::Link(local) => number(local).map(crate::Part::Link),
                })
                .collect(),
        }
    }
}

/// One part of a reading's block: text, or a link by local id.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(crate) enum WirePart {
    Text(String),
    Link(u32),
}

/// One item of the page in reading order (`gathered.js`'s Item).
#[derive(Debug, Deserialize)]
#[serde(tag = "k", deny_unknown_fields)]
pub(crate) enum WireItem {
    #[serde(rename = "h")]
    Heading { level: u8, text: String, y: i64 },
    #[serde(rename = "t")]
    Text { text: String, y: i64 },
    #[serde(rename = "e")]
    Element { id: u32 },
    #[serde(rename = "b")]
    Block(WireBlock),
    #[serde(rename = "f")]
    Frame {
        path: Vec<u32>,
        src: String,
        #[allow(dead_code)] // where the frame is: read again when acting
        #[serde(rename = "box")]
        frame_box: WireBox,
        offset: WirePoint,
    },
}

/// A checkbox's state as the walker writes it: a boolean or `"mixed"`.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub(crate) enum WireChecked {
    State(bool),
    Mixed(MixedWord),
}

/// The one word a checked state may be besides true and false.
#[derive(Debug, Clone, Copy, Deserialize)]
pub(crate) enum MixedWord {
    #[serde(rename = "mixed")]
    Mixed,
}

/// An element as the walker describes it (`gathered.js`'s ElementRecord).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct WireElement {
    pub(crate) id: u32,
    pub(crate) role: String,
    pub(crate) name: PageText,
    /// Sent as `[x, y, w, h]` (serde reads a struct from an array too).
    #[serde(rename = "box")]
    pub(crate) rect: WireBox,
    /// Sent only when true.
    #[serde(default)]
    pub(crate) offscreen: bool,
    pub(crate) value: Option<PageText>,
    pub(crate) checked: Option<WireChecked>,
    pub(crate) selected: Option<bool>,
    pub(crate) expanded: Option<bool>,
    pub(crate) disabled: Option<bool>,
    pub(crate) readonly: Option<bool>,
    pub(crate) pressed: Option<bool>,
    pub(crate) required: Option<bool>,
    pub(crate) focused: Option<bool>,
    pub(crate) covered: Option<PageText>,
    pub(crate) href: Option<PageText>,
    pub(crate) options: Option<Vec<WireOption>>,
    #[serde(rename = "type")]
    pub(crate) input_type: Option<String>,
    pub(crate) level: Option<u32>,
    pub(crate) shows: Option<PageText>,
    pub(crate) title: Option<PageText>,
    pub(crate) clues: Option<WireClues>,
    pub(crate) row: Option<String>,
    pub(crate) scroll: Option<WireScroll>,
}

/// What a scroll box holds beyond what it shows (`boxes.js`'s
/// ScrollState): items per side, -1 for more that is no whole item.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct WireScroll {
    above: i64,
    below: i64,
    left: i64,
    right: i64,
    /// Items within the margin beyond the top and bottom edges, read; -1
    /// for text there that is no whole item.
    #[serde(default, rename = "nearAbove")]
    near_above: i64,
    #[serde(default, rename = "nearBelow")]
    near_below: i64,
}

impl WireScroll {
    fn into_state(self) -> ScrollState {
        let side = |count: i64| match count {
            0 => Beyond::Nothing,
            n if n < 0 => Beyond::More,
            n => Beyond::Items(u32::try_from(n).unwrap_or(u32::MAX)),
        };
        ScrollState {
            above: side(self.above),
            below: side(self.below),
            left: side(self.left),
            right: side(self.right),
            read_above: side(self.near_above),
            read_below: side(self.near_below),
        }
    }
}

/// What can be known of an element with no name (`widgets.js`'s Clues).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct WireClues {
    pub(crate) test: Option<String>,
    pub(crate) id: Option<String>,
    pub(crate) classes: Option<String>,
    pub(crate) title: Option<String>,
}

impl WireElement {
    /// The element as a snapshot holds it (numbered later).
    pub(crate) fn into_element(self) -> Element {
        Element {
            number: 0,
            local: self.id,
            role: self.role,
            name: self.name,
            value: self.value,
            checked: self.checked.map(|checked| match checked {
                WireChecked::State(true) => Checked::Checked,
                WireChecked::State(false) => Checked::Unchecked,
                WireChecked::Mixed(MixedWord::Mixed) => Checked::Mixed,
            }),
            selected: self.selected,
            expanded: self.expanded,
            disabled: self.disabled,
            readonly: self.readonly,
            pressed: self.pressed,
            required: self.required,
            focused: self.focused,
            covered: self.covered,
            href: self.href,
            options: self.options.map(|options| {
                options
                    .into_iter()
                    .map(|option| SelectOption {
                        label: option.label,
                        value: option.value,
                        selected: option.selected,
                    })
                    .collect()
            }),
            input_type: self.input_type,
            level: self.level,
            shows: self.shows,
            title: self.title,
            row: self.row.unwrap_or_default(),
            clue: self.clues.and_then(|clues| {
                // The one that says most: a test id, an id, a tooltip, classes.
                clues
                    .test
                    .map(Clue::TestId)
                    .or(clues.id.map(Clue::Id))
                    .or(clues.title.map(Clue::Title))
                    .or(clues.classes.map(Clue::Classes))
            }),
            scroll: self.scroll.map(WireScroll::into_state),
            rect: self.rect.rect(),
            offscreen: self.offscreen,
            new: false,
        }
    }
}

/// One option of a select.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct WireOption {
    pub(crate) label: PageText,
    pub(crate) value: PageText,
    pub(crate) selected: bool,
}

/// A numbered element readied for an action (`act.js`'s ActAnswer).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ActAnswer {
    #[serde(rename = "box")]
    pub(crate) rect: WireBox,
    pub(crate) x: f64,
    pub(crate) y: f64,
    /// The point aimed at in its own frame's viewport.
    pub(crate) lx: f64,
    pub(crate) ly: f64,
    pub(crate) covered: Option<PageText>,
    pub(crate) tag: String,
    #[serde(rename = "type")]
    pub(crate) input_type: Option<String>,
    pub(crate) checked: Option<bool>,
    pub(crate) value: Option<PageText>,
    pub(crate) focused: Option<bool>,
    pub(crate) selected_all: Option<bool>,
    pub(crate) editor_keys: Option<bool>,
    pub(crate) rich: Option<bool>,
    pub(crate) picked: Option<bool>,
    pub(crate) file: Option<WireFileField>,
    pub(crate) selected: Option<Vec<PageText>>,
}

/// The file field an element stands for.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct WireFileField {
    pub(crate) multiple: bool,
    pub(crate) files: Vec<PageText>,
    pub(crate) path: Option<String>,
}

/// What is at a viewport point (`act.js`'s `at`).
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(crate) enum AtAnswer {
    /// A cross-origin frame, to ask in turn.
    Frame {
        frame: Vec<u32>,
        x: f64,
        y: f64,
        offset: WirePoint,
    },
    /// A numbered (or numberable) element.
    Element {
        id: u32,
        doc: String,
        role: PageText,
        name: PageText,
        #[allow(dead_code)] // the caller snapshots it if it wants more
        #[serde(rename = "box")]
        rect: WireBox,
    },
    /// Something no person would act on.
    Nothing {
        #[allow(dead_code)]
        role: PageText,
        #[allow(dead_code)]
        tag: PageText,
        #[allow(dead_code)]
        name: PageText,
    },
}

/// Where a cross-origin frame is now (`act.js`'s `frameBox`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FrameBoxAnswer {
    pub(crate) offset: WirePoint,
}

/// An element as a model would be told of it (`act.js`'s Seen): its
/// local id where it (or an ancestor) is something to act on.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct WireSeen {
    pub(crate) id: Option<u32>,
    pub(crate) role: PageText,
    pub(crate) name: PageText,
    pub(crate) tag: PageText,
}

/// After the pointer arrived (`act.js`'s `hovered`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct HoveredAnswer {
    pub(crate) still: bool,
    pub(crate) now: Option<WireSeen>,
    /// The local id of what the page re-rendered the element as, where it
    /// did (the same name, in its place).
    pub(crate) replaced: Option<u32>,
    /// Its box moved while the pointer came (the fast path's check): ready
    /// it again, waiting for it to hold still.
    #[serde(default)]
    pub(crate) moved: bool,
}

/// What an action's events reached (`act.js`'s ReachedAnswer).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReachedAnswer {
    pub(crate) events: Vec<WireReached>,
    /// Where each run of typed text went, when any went astray.
    pub(crate) pieces: Vec<WirePiece>,
    /// Where the first key a secret's guard stopped was headed.
    pub(crate) blocked: Option<WireSeen>,
    /// Whether any element took text (an `input` event).
    pub(crate) took: bool,
    /// The other elements the page passed a click on to.
    pub(crate) also: Vec<WireSeen>,
    /// For pressed keys: where the page moved the focus while a key was
    /// on its way, and the event that went there.
    pub(crate) moved: Option<WireMoved>,
}

/// A focus the page moved while a key was on its way.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct WireMoved {
    #[serde(rename = "type")]
    pub(crate) kind: String,
    pub(crate) seen: WireSeen,
}

/// A run of typed text and the element it went into.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct WirePiece {
    /// The text (empty for a secret's).
    pub(crate) text: String,
    /// Its length in characters.
    pub(crate) length: usize,
    /// Whether it went into the element typed into.
    pub(crate) inside: bool,
    pub(crate) seen: WireSeen,
}

/// One event an action's input caused, and what it reached.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct WireReached {
    #[serde(rename = "type")]
    pub(crate) kind: String,
    pub(crate) inside: bool,
    pub(crate) seen: WireSeen,
}

/// What has the focus before keys are pressed (`arm_keys`); no id when
/// nothing does, or a frame.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ArmKeysAnswer {
    pub(crate) id: Option<u32>,
    #[serde(default)]
    pub(crate) doc: String,
    #[serde(default)]
    pub(crate) role: String,
    #[serde(default)]
    pub(crate) name: PageText,
}

/// Where pressing an element sends its form (`sends`): method and URL.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SendsAnswer {
    pub(crate) sends: Option<(String, PageText)>,
}

/// Whether a secret was typed in a document (`held`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct HeldAnswer {
    pub(crate) held: bool,
}

/// How many fields holding a secret a picture has covered (`cover`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CoverAnswer {
    #[allow(dead_code)] // a picture is taken whether or not any was
    pub(crate) covered: u32,
}

/// An answer with nothing in it (`mark`, `unmark`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Empty {}

/// Whether `value` is a finite coordinate (never a default: a click at
/// (0, 0) would land on whatever is there).
pub(crate) fn finite(value: f64, what: &str) -> Result<f64, MarksError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(MarksError::Script(format!(
            "the page script answered without a usable {what}"
        )))
    }
}
