//! [`Handover`]: what [`Driver::hand_over`](crate::Driver::hand_over)
//! is asked to give tabwright's world.
//!
//! Some of what a person sees no script in tabwright's world can read: the
//! tree of a closed shadow root (its host's `shadowRoot` is null in every
//! world), and what a custom element declared through `ElementInternals`
//! (its role, name and states, kept in an object only the element's own
//! script holds). The browser knows both: DevTools describes a closed root
//! like any node, and Chromium's accessibility tree holds the element's
//! role, name and states as Chromium computed them. A handover takes the
//! elements the page's world lists (the early hooks' record of what called
//! `attachShadow` and `attachInternals`, see
//! [`listeners_js`](crate::listeners_js)) and gives each to tabwright's
//! world of the same document, with its closed shadow root and what the
//! accessibility tree says of it.
//!
//! Nor can a script read what CSS counts: a `counter()` in a `::before`,
//! a list item's `::marker` (its computed `content` names the counter, not
//! its value). Chromium's accessibility tree holds the words each
//! pseudo-element shows, counted; a handover can give them too
//! ([`Generated`]).

use serde::{Deserialize, Serialize};

/// What to hand over, in one frame's document.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Handover {
    /// The frame, by its path of `window.frames` indices from the top
    /// (`[]`: the top document).
    pub frame: Vec<u32>,
    /// An expression evaluated in the page's world whose value is an
    /// array of elements. Only a list of whom to ask about: what is handed
    /// over comes from the browser, whatever the page made the list say.
    /// At most [`HANDED_AT_MOST`] of them are taken.
    pub elements: String,
    /// A function declaration, called in tabwright's world of the same
    /// document as `receive(facts, ...nodes)`: `nodes` holds, for each
    /// element handed over in turn, the element and its closed shadow root
    /// (`undefined` where it has none); `facts` (JSON) holds, for each, its
    /// accessibility node as [`Accessible`] describes it (`null` where
    /// none was asked for or found). An element that went away before it
    /// could be handed over is left out of both. Its value is the call's.
    pub receive: String,
    /// Whether to read each element's accessibility node.
    pub accessible: bool,
    /// Whether to read the words each element's pseudo-elements show
    /// ([`Accessible::generated`]).
    pub generated: bool,
}

/// The most elements one handover takes.
pub const HANDED_AT_MOST: usize = 200;

/// An element's accessibility node as a handover gives it to `receive`
/// (as JSON): Chromium's computed role (`"option"`, `"checkbox"`;
/// `"generic"` or `"none"` for none), its name, the kind of source the
/// name came from (`from`: `"attribute"`, which includes
/// `ElementInternals`' `ariaLabel`, `"relatedElement"`, `"contents"`,
/// `"placeholder"`, …, empty where it has none), whether Chromium leaves it
/// out of the tree, and its states (`checked`, `selected`, `expanded`,
/// `pressed`, `disabled`, `level`, …) as the protocol spells them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Accessible {
    /// The role.
    pub role: String,
    /// The name.
    pub name: String,
    /// Where the name came from.
    pub from: String,
    /// Whether Chromium leaves the node out of the tree.
    pub ignored: bool,
    /// The states, by name.
    pub states: serde_json::Map<String, serde_json::Value>,
    /// Where the handover asked for them, the words its pseudo-elements
    /// show (the rest of the node is then empty unless it was asked for
    /// too).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generated: Option<Generated>,
}

/// The words an element's pseudo-elements show, as Chromium's
/// accessibility tree has them (its text nodes under each, joined):
/// counters counted, quotes and attributes in, what only assistive
/// technology hears (`content: "x" / "alt"`) as Chromium gives it. Empty
/// for one it does not have.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Generated {
    /// Its `::marker` (a list item's number or bullet: `"3. "`, `"• "`).
    pub marker: String,
    /// Its `::before`.
    pub before: String,
    /// Its `::after`.
    pub after: String,
}
