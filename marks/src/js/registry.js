// @ts-check
// registry.js: the numbering's page half. One registry per document:
// element -> local id and back, kept on the window under a non-enumerable
// key so it survives between calls (in tabwright's own script world where
// the backend has one, out of the page's reach). The Rust side maps
// (frame, document, local id) to the numbers a model sees.

/**
 * @typedef {object} Registry
 * @property {string} doc      this document's identity: a new document (a
 *                             navigation, a reload) has a new one
 * @property {number} next     the next local id
 * @property {WeakMap<Element, number>} ids
 * @property {Map<number, WeakRef<Element>>} elements
 * @property {Pending | null} pending  the walk that waits for pictures
 *   (pixels.js), if one does
 * @property {WeakMap<Text, number>} texts  text nodes' ids, for the
 *   pictures' verdicts to be kept by (pixels.js)
 * @property {number} nextText
 * @property {number} changes  how often the page changed in a way that can
 *   change what it paints (pixels.js's `watch`)
 * @property {number} changedAt  when its document last mutated (`performance.now()`)
 * @property {WeakSet<Node>} watched  the documents and shadow roots watched
 * @property {boolean} judged  whether pictures have judged this document's
 *   text (pixels.js): then what a call works out later (a name an action
 *   checks) is judged as they judged it
 * @property {WeakSet<Text>} unseen  the text the last pictures found not
 *   seen
 * @property {WeakMap<Text, [string, string]>} kept  what the last pictures
 *   found seen of the text they found seen in part (`keptOf`): its text
 *   then, and what of it was seen
 * @property {{name: string, views: WeakRef<Window>[]} | null} painted  the
 *   highlights a probe has text taken out by, while it runs (pixels.js)
 * @property {WeakSet<Element>} holders  the fields a secret was typed into
 *   (or reached while one was typed): their value reads as hidden, however
 *   it is edited since, until the model types a plain value over it
 * @property {boolean} held  whether any element of the document ever held
 *   a secret (the walk asks of each text only then)
 */

const KEY = "__tabwrightMarks";
/** @type {Registry} */
const registry = (() => {
  const kept = /** @type {any} */ (window)[KEY];
  if (kept && kept.doc !== undefined && kept.texts !== undefined && kept.holders !== undefined) return kept;
  /** @type {Registry} */
  const fresh = {
    doc: Math.random().toString(36).slice(2, 10),
    next: 1,
    ids: new WeakMap(),
    elements: new Map(),
    pending: null,
    texts: new WeakMap(),
    nextText: 1,
    changes: 0,
    changedAt: 0,
    watched: new WeakSet(),
    judged: false,
    unseen: new WeakSet(),
    kept: new WeakMap(),
    painted: null,
    holders: new WeakSet(),
    held: false,
  };
  Object.defineProperty(window, KEY, { value: fresh, enumerable: false, configurable: true });
  return fresh;
})();

/**
 * The local id of an element, given one the first time it is asked for.
 * @param {Element} element
 * @returns {number}
 */
const idOf = (element) => {
  let id = registry.ids.get(element);
  if (id === undefined) {
    id = registry.next++;
    registry.ids.set(element, id);
    registry.elements.set(id, new WeakRef(element));
  }
  return id;
};

/** What a field that holds a secret reads as. */
const HIDDEN = "••••";

/**
 * Whether a secret was typed into an element, or into a field or editable
 * region around it.
 * @param {Element} element
 */
const holdsSecret = (element) => {
  for (let at = /** @type {Element | null} */ (element); at; at = at.parentElement) {
    if (registry.holders.has(at)) return true;
  }
  return false;
};

/**
 * The element a local id was given to, if it is still alive.
 * @param {number} id
 * @returns {Element | null}
 */
const elementOf = (id) => {
  const ref = registry.elements.get(id);
  return (ref && ref.deref()) || null;
};
