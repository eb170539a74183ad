// @ts-check
// main.js: the walker's entry. The files of this folder (after driver-core's
// visibility.js) are joined, in the order `marks` lists them, into the body
// of one function:
//
//   (function (options, status) { "use strict"; ...files...; return dispatch(); })
//
// called as (WALKER)(request, status), where `status` is the document's
// HTTP status (driver-core's DOCUMENT_STATUS, read by the caller's
// expression) and the request is a WalkerRequest, made by `marks`'s
// `page::Request` (a test holds the two to each other). The function runs
// whole on every call, so what the files compute at their top level (a
// layout cache, the viewport) is fresh each time; only the registry
// (registry.js) outlives a call. What the walker refuses it answers as an
// object whose first key is `error` (`{ error: "gone" }`): `marks` tells a
// refusal by that before it reads the answer as what was asked.

/**
 * What every request into a frame may carry: where the frame is in the top
 * viewport, and what the page's own world saw.
 * @typedef {object} FrameFields
 * @property {Point} [offset]   this frame's position in the top viewport
 * @property {{w: number, h: number}} [viewport]  the top viewport, for a frame
 * @property {number[]} [path]  this frame's window.frames path
 * @property {number} [margin]  how far beyond the viewport counts as in view
 * @property {{onclick: number[], listened: number[]} | null} [handlers]  elements
 *   with an onclick property, and with click listeners, by place in document
 *   order, as the page's own world sees them
 * @property {string} [listeners]  the key of the early hooks' record
 *   (listeners.js), read directly where the walker runs in the page's own
 *   world
 * @property {boolean} [judge]  take the text in view as candidates for
 *   pictures to judge, and keep the walk for them (`registry.pending`,
 *   pixels.js)
 * @property {boolean} [composited]  `false`: the pictures are not the
 *   compositor's, so text under a backdrop filter, and text a transform
 *   turns, are judged by their style (pixels.js)
 * @property {number} [pictured]  how far beyond the top viewport's top and
 *   bottom edges the pictures can reach (pixels.js): text of the top
 *   document there is judged by them too
 */
/**
 * @typedef {FrameFields & {op: "snapshot", full: boolean, scope: number | null}} SnapshotRequest
 *   a snapshot (snapshot.js): the whole page, or the viewport and a margin;
 *   of the element `scope` alone, if given
 * @typedef {FrameFields & {op: "find", find: {text: string, role: string}}} FindRequest
 *   a search of the whole page (find.js)
 * @typedef {FrameFields & {op: "read", read: "main" | "all", full: boolean, scope: number | null}} ReadRequest
 *   a reading of the text (read.js)
 * @typedef {object} ActFields
 * @property {"act"} op
 * @property {number} id       the local id
 * @property {string} doc      the document it was given in
 * @property {"none" | "focus" | "file" | "select"} action
 * @property {string} [role]   what the model read it as
 * @property {string} [name]
 * @property {boolean} [scroll] false: do not scroll it into view
 * @property {boolean} [clear]  (focus) empty the field first
 * @property {boolean} [text]   (focus) for typing text: refused on a control keys would press
 * @property {boolean} [steady] wait until its box stays put over two frames
 * @property {boolean} [note]   note its box for `hovered` to hold against, instead
 * @property {boolean} [record] arm the record of what the action's events reach
 * @property {boolean} [press]  the pointer will press it: refused on a disabled control
 * @property {boolean} [guard]  (with record) no text the keys type may go into any
 *   other element than this one: a secret is typed
 * @property {string} [token]   (file) marks the file field
 * @property {string[]} [values]  (select) labels or values to choose
 * @property {string} [value]   (focus, text) the text: a field whose value is picked takes it as picked
 * @typedef {FrameFields & ActFields} ActRequest  readies a numbered element (act.js)
 * @typedef {FrameFields & {op: "hovered", id: number, x: number, y: number, name: string | null,
 *   noted: boolean, settle: string | null}} HoveredRequest
 *   after the pointer's move: is the element still what lies there;
 *   `noted`: check the box `act` noted held still; `settle`: the key of
 *   settling's record of a document
 * @typedef {FrameFields & {op: "reached", id: number, doc: string, holds: "secret" | "plain" | null}} ReachedRequest
 * @typedef {FrameFields & {op: "at", x: number, y: number}} AtRequest
 * @typedef {FrameFields & {op: "frame_box", frame: number[]}} FrameBoxRequest
 * @typedef {FrameFields & {op: "mark", marks: {n: number, x: number, y: number, w: number, h: number}[]}} MarkRequest
 * @typedef {FrameFields & {op: "unmark"}} UnmarkRequest
 * @typedef {FrameFields & {op: "hold", focused: boolean}} HoldRequest
 *   a secret was typed in this document (`focused`: into the focused
 *   field, without a number)
 * @typedef {FrameFields & {op: "held"}} HeldRequest
 * @typedef {FrameFields & {op: "arm_keys"}} ArmKeysRequest
 *   before keys are pressed: what has the focus, its record armed
 * @typedef {FrameFields & {op: "focus"}} FocusRequest
 *   which frame of the document has the focus (keys go into it), if one does
 * @typedef {FrameFields & {op: "sends", id: number | null, doc: string | null, enter: boolean}} SendsRequest
 *   where pressing an element (by local id; else what has the focus, in
 *   same-origin frames too: the caller runs it in the frame that has the
 *   focus) sends its form; `enter`: pressed by Enter
 * @typedef {FrameFields & {op: "cover"}} CoverRequest
 *   covers the fields that hold a secret, for a picture
 *   whether a secret was ever typed in this document or a frame of it
 * @typedef {SnapshotRequest | FindRequest | ReadRequest | ActRequest | HoveredRequest
 *   | ReachedRequest | AtRequest | FrameBoxRequest | MarkRequest | UnmarkRequest
 *   | HoldRequest | HeldRequest | CoverRequest | ArmKeysRequest | FocusRequest | SendsRequest} WalkerRequest
 */

/** Runs what the request asks. */
const dispatch = () => {
  const request = options;
  // A secret's guard belongs to one action: whatever comes next here but
  // its own `reached` (a snapshot after a dialog that cut the typing short)
  // ends it, so no later key is held back.
  if (request.op !== "reached") {
    const kept = /** @type {any} */ (window)[REACHED];
    if (kept) kept.guard = null;
  }
  switch (request.op) {
    case "snapshot": return snapshot(request);
    case "find": return find(request);
    case "read": return read(request);
    case "act": return act(request);
    case "hovered": return hovered(request);
    case "reached": return reached(request);
    case "at": return at(request);
    case "frame_box": return frameBox(request);
    case "mark": return mark(request);
    case "unmark": return unmark();
    case "hold": return hold(request);
    case "held": return { held: registry.held };
    case "cover": return cover();
    case "arm_keys": return armKeys();
    case "focus": return focusedFrame();
    case "sends": return sends(request);
    default: return { error: "unknown_op" };
  }
};
