// @ts-check
// main.js: the walker's entry. The files of this folder (after driver-core's
// visibility.js) are joined, in the order `marks` lists them, into the body
// of one function:
//
//   (function (options, status) { "use strict"; ...files...; return dispatch(); })
//
// called as (WALKER)(options, status), where `status` is the document's
// HTTP status (driver-core's DOCUMENT_STATUS, read by the caller's
// expression) and `options` is a WalkerOptions. The function runs whole on
// every call, so what the files compute at their top level (a layout
// cache, the viewport) is fresh each time; only the registry
// (registry.js) outlives a call.

/**
 * @typedef {object} WalkerOptions
 * @property {"snapshot" | "act" | "hovered" | "reached" | "at" | "frame_box" | "mark" | "unmark"} op
 * @property {Point} [offset]   this frame's position in the top viewport
 * @property {{w: number, h: number}} [viewport]  the top viewport, for a frame
 * @property {number[]} [path]  this frame's window.frames path
 * @property {number} [margin]  (snapshot) how far beyond the viewport is read
 * @property {boolean} [full]   (snapshot) the whole page
 * @property {number | null} [scope]  (snapshot) only inside this local id
 * @property {{text?: string, role?: string} | null} [find]  (snapshot) a search
 * @property {"main" | "all" | null} [read]  (snapshot) a reading of the text:
 *   the main content, or all of the page (or the scope)
 * @property {{onclick: number[], listened: number[]} | null} [handlers]  elements
 *   with an onclick property, and with click listeners, by place in document
 *   order, as the page's own world sees them
 * @property {string} [listeners]  (snapshot) the key of the early hooks'
 *   record (listeners.js), read directly where the walker runs in the
 *   page's own world
 * @property {number} [id]      (act) the local id
 * @property {string} [doc]     (act) the document it was given in
 * @property {string} [action]  (act) none, focus, file or select
 * @property {string} [role]    (act) what the model read it as
 * @property {string} [name]
 * @property {boolean} [scroll] (act) false: do not scroll it into view
 * @property {boolean} [clear]  (act, focus) empty the field first
 * @property {boolean} [steady] (act) wait until its box stays put over two frames
 * @property {boolean} [note]   (act) note its box for `hovered` to hold against, instead
 * @property {boolean} [noted]  (hovered) check the box `act` noted held still
 * @property {string | null} [settle]  (hovered) the key of settling's record of a document
 * @property {boolean} [record] (act) arm the record of what the action's events reach
 * @property {string} [token]   (act, file) marks the file field
 * @property {string[]} [values]  (act, select) labels or values to choose
 * @property {number} [x]       (at, hovered) a viewport point
 * @property {number} [y]
 * @property {number[]} [frame] (frame_box) a frame's path
 * @property {{n: number, x: number, y: number, w: number, h: number}[]} [marks]  (mark)
 */

/** Runs the operation `options.op` names. */
const dispatch = () => {
  switch (options.op) {
    case "snapshot": return snapshot();
    case "act": return act();
    case "hovered": return hovered();
    case "reached": return reached();
    case "at": return at();
    case "frame_box": return frameBox();
    case "mark": return mark();
    case "unmark": return unmark();
    default: return { error: "unknown_op" };
  }
};
