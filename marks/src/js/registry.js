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
 */

const KEY = "__tabwrightMarks";
/** @type {Registry} */
const registry = (() => {
  const kept = /** @type {any} */ (window)[KEY];
  if (kept && kept.doc !== undefined) return kept;
  /** @type {Registry} */
  const fresh = {
    doc: Math.random().toString(36).slice(2, 10),
    next: 1,
    ids: new WeakMap(),
    elements: new Map(),
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

/**
 * The element a local id was given to, if it is still alive.
 * @param {number} id
 * @returns {Element | null}
 */
const elementOf = (id) => {
  const ref = registry.elements.get(id);
  return (ref && ref.deref()) || null;
};
