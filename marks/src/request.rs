//! What `marks` asks the walker, typed: `Request` is `js/main.js`'s
//! `WalkerRequest`, one variant a request, serialised as the script reads
//! it (its `op` first). The answers are typed in `page`; the script's side
//! of both is checked by `tsc`, and `tests/it/scripts.rs` holds the two
//! sides of the requests to each other (every variant, serialised here,
//! must type-check there as a `WalkerRequest`).

use serde::Serialize;

use crate::page::WirePoint;

/// What every request into a frame may carry (`FrameFields`): where the
/// frame is in the top viewport, and what the page's own world saw.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub(crate) struct FrameFields {
    /// This frame's position in the top viewport.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) offset: Option<WirePoint>,
    /// The top viewport, for a frame (a frame cannot read it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) viewport: Option<Size>,
    /// This frame's `window.frames` path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) path: Option<Vec<u32>>,
    /// How far beyond the viewport counts as in view, in CSS pixels.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) margin: Option<i64>,
    /// Which elements have click handlers the walker's world cannot see.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) handlers: Option<Handlers>,
    /// The key of the early hooks' record (`driver_core::listeners_key`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) listeners: Option<String>,
    /// Take the text in view as candidates for pictures to judge, and keep
    /// the walk for them (`page::paint_call`, `page::finish`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) judge: Option<bool>,
    /// `false`: the pictures are not the compositor's
    /// (`Capability::CompositedPictures`), so text under a backdrop filter,
    /// and text a transform turns, are judged by their style.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) composited: Option<bool>,
    /// How far beyond the top viewport's top and bottom edges the pictures
    /// can reach (`Capability::PicturesBeyondViewport`): the margin's text
    /// is then judged by them too.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) pictured: Option<i64>,
}

/// A size in CSS pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub(crate) struct Size {
    pub(crate) w: i64,
    pub(crate) h: i64,
}

/// Elements with an `onclick` property, and with click listeners, by place
/// in document order, as the page's own world sees them; and how many
/// elements the early hooks list for a handover (`tree`, not sent back).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub(crate) struct Handlers {
    pub(crate) onclick: Vec<u32>,
    pub(crate) listened: Vec<u32>,
    #[serde(default, skip_serializing)]
    pub(crate) tree: u32,
    /// How many custom elements no hook saw given a root wait to be asked
    /// for one (see `frames::UNSEEN`).
    #[serde(default, skip_serializing)]
    pub(crate) unseen: u32,
    /// How many elements show words CSS counts (see `frames::COUNTED`),
    /// whose words the browser is asked for.
    #[serde(default, skip_serializing)]
    pub(crate) counted: u32,
}

/// What a search asks (`FindRequest.find`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct Query {
    /// Words the element's name, value or link, or a line, must hold.
    pub(crate) text: String,
    /// The role an element must have; empty for any.
    pub(crate) role: String,
}

/// What a reading reads (`ReadRequest.read`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Reading {
    /// The main content.
    Main,
    /// All of the page (or the scope).
    All,
}

/// What an action asks of the element besides readying it (`act.js`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum ActAction {
    /// Nothing more.
    None,
    /// Take the keyboard focus.
    Focus,
    /// Mark the file field it stands for.
    File,
    /// Choose options.
    Select,
}

/// How an element is readied (`ActFields`, besides what names it).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub(crate) struct ActHow {
    /// `false`: do not scroll it into view.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) scroll: Option<bool>,
    /// (focus) Empty the field first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) clear: Option<bool>,
    /// (focus) For typing text: refused on a control keys would press.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) text: Option<bool>,
    /// Wait until its box stays put over two frames.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) steady: Option<bool>,
    /// Note its box for `hovered` to hold against, instead.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) note: Option<bool>,
    /// Arm the record of what the action's events reach.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) record: Option<bool>,
    /// The pointer will press it: refused on a disabled control, which
    /// hears no press (a person's click on one does nothing).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) press: Option<bool>,
    /// (with record) No text the keys type may go into another element:
    /// a secret is typed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) guard: Option<bool>,
    /// (file) Marks the file field with this token.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) token: Option<String>,
    /// (select) Labels or values to choose.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) values: Option<Vec<String>>,
    /// (focus, text) The text to type: a field whose value is picked (a
    /// date, a colour, a slider) is given it as a person's pick gives it,
    /// where it is a value of its kind.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) value: Option<String>,
}

/// A numbered element readied for an action (`ActRequest`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Act {
    /// Its local id.
    pub(crate) id: u32,
    /// The document it was numbered in.
    pub(crate) doc: String,
    pub(crate) action: ActAction,
    /// What the model read it as: acting on something else is refused.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) role: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) name: Option<driver_core::PageText>,
    #[serde(flatten)]
    pub(crate) how: ActHow,
}

/// A numbered box drawn over the page (`MarkRequest.marks`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub(crate) struct MarkBox {
    pub(crate) n: u32,
    pub(crate) x: i64,
    pub(crate) y: i64,
    pub(crate) w: i64,
    pub(crate) h: i64,
}

/// A request into the walker: see the module docs.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub(crate) enum Request {
    /// A snapshot: the whole page (`full`), or the viewport and a margin;
    /// of the element `scope` (a local id) alone, if given.
    Snapshot {
        #[serde(flatten)]
        frame: FrameFields,
        full: bool,
        scope: Option<u32>,
    },
    /// A search of the whole page.
    Find {
        #[serde(flatten)]
        frame: FrameFields,
        find: Query,
    },
    /// A reading of the text.
    Read {
        #[serde(flatten)]
        frame: FrameFields,
        read: Reading,
        full: bool,
        scope: Option<u32>,
    },
    /// Readies a numbered element.
    Act(Act),
    /// After the pointer's move: is the element still what lies there.
    Hovered {
        id: u32,
        x: f64,
        y: f64,
        name: Option<driver_core::PageText>,
        noted: bool,
        settle: Option<String>,
    },
    /// What the events of the action just done reached, and what typing
    /// left in the fields it reached.
    Reached {
        id: u32,
        doc: String,
        holds: Option<Holds>,
    },
    /// The numbered element at a viewport point (in the frame `frame`
    /// says, at its offset).
    At {
        x: f64,
        y: f64,
        #[serde(flatten)]
        frame: FrameFields,
    },
    /// Where a cross-origin frame is now.
    FrameBox { frame: Vec<u32> },
    /// Draws numbered boxes over the page.
    Mark { marks: Vec<MarkBox> },
    /// Takes them away.
    Unmark,
    /// A secret was typed in the document (or a frame of it); with
    /// `focused`, into its focused field, which holds it from now on.
    Hold { focused: bool },
    /// Whether a secret was ever typed in the document or a frame of it.
    Held,
    /// Covers the fields that hold a secret (taken away by `Unmark`).
    Cover,
    /// Before keys are pressed: what has the focus, its record armed.
    ArmKeys,
    /// Which frame of the document (by its index) has the focus, if one
    /// does: keys go into its document.
    Focus,
    /// Where pressing an element (by local id in `doc`; `None`: what has
    /// the focus) sends its form; `enter`: pressed by Enter.
    Sends {
        id: Option<u32>,
        doc: Option<String>,
        enter: bool,
    },
}

/// What typing left in the fields its keys reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Holds {
    /// A secret: each such field's value reads as hidden from now on.
    Secret,
    /// The model's own words, typed over the whole value: the field no
    /// longer holds a secret.
    Plain,
}

/// One request of each kind, serialised as the walker gets it: what
/// `tests/it/scripts.rs` type-checks against the script's
/// `WalkerRequest`. Not for use beyond that.
#[doc(hidden)]
pub fn samples() -> Vec<serde_json::Value> {
    let frame = FrameFields {
        offset: Some(WirePoint {
            x: 1.0,
            y: 2.0,
            s: None,
        }),
        viewport: Some(Size { w: 800, h: 600 }),
        path: Some(vec![0, 1]),
        margin: Some(400),
        handlers: Some(Handlers::default()),
        listeners: Some("key".to_owned()),
        judge: Some(true),
        composited: Some(false),
        pictured: Some(200),
    };
    let act = |how: ActHow| {
        Request::Act(Act {
            id: 7,
            doc: "d1".to_owned(),
            action: ActAction::Select,
            role: Some("combobox".to_owned()),
            name: Some("Seat".into()),
            how,
        })
    };
    let requests = [
        Request::Snapshot {
            frame: frame.clone(),
            full: true,
            scope: Some(3),
        },
        Request::Snapshot {
            frame: FrameFields::default(),
            full: false,
            scope: None,
        },
        Request::Find {
            frame: frame.clone(),
            find: Query {
                text: "pay".to_owned(),
                role: String::new(),
            },
        },
        Request::Read {
            frame: frame.clone(),
            read: Reading::Main,
            full: true,
            scope: None,
        },
        act(ActHow {
            scroll: Some(false),
            clear: Some(true),
            text: Some(true),
            steady: Some(true),
            note: Some(true),
            record: Some(true),
            press: Some(true),
            guard: Some(true),
            token: Some("t".to_owned()),
            values: Some(vec!["Middle".to_owned()]),
            value: Some("2026-12-24".to_owned()),
        }),
        act(ActHow::default()),
        Request::Hovered {
            id: 7,
            x: 3.5,
            y: 4.5,
            name: None,
            noted: true,
            settle: Some("s".to_owned()),
        },
        Request::Reached {
            id: 7,
            doc: "d".to_owned(),
            holds: Some(Holds::Secret),
        },
        Request::At {
            x: 10.0,
            y: 20.0,
            frame,
        },
        Request::FrameBox { frame: vec![1] },
        Request::Mark {
            marks: vec![MarkBox {
                n: 1,
                x: 0,
                y: 0,
                w: 10,
                h: 10,
            }],
        },
        Request::Unmark,
        Request::Hold { focused: true },
        Request::Held,
        Request::Cover,
        Request::ArmKeys,
        Request::Focus,
        Request::Sends {
            id: Some(1),
            doc: Some("d".to_owned()),
            enter: true,
        },
    ];
    requests
        .iter()
        .filter_map(|request| serde_json::to_value(request).ok())
        .collect()
}
