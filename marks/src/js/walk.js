// @ts-check
// walk.js: the one traversal. Walks a frame's document in reading order as
// the browser draws it (open shadow trees where their hosts stand, a
// slot's assigned nodes where the slot is, same-origin frames in place,
// what an element owns by `aria-owns` after its own children) and hands
// what it meets to a visitor: a snapshot (snapshot.js), a search
// (find.js) or a reading (read.js). Each consumer decides what to make of
// an element and whether to go inside it; what is never drawn (scripts,
// templates, `hidden`, a canvas's fallback, SVG that only defines) is
// passed over here, for all of them.

/** What a page could make endless is cut before it travels. */
const LINE_LIMIT = 20000;
const TITLE_LIMIT = 1000;
/** @param {string} text @param {number} limit */
const cut = (text, limit) => (text.length > limit ? text.slice(0, limit - 1) + "…" : text);

/**
 * Where the walk is: the frame's offset in the top viewport, its window,
 * and its path of `window.frames` indices from the top.
 * @typedef {{offset: Point, win: Window, path: number[]}} At
 */

/**
 * What a walk hands its visitor, in reading order.
 * @typedef {object} Visitor
 * @property {(text: Text, drawnIn: Element, at: At) => void} text
 *   a text node that holds more than spaces, and the element it is drawn in
 * @property {(value: string) => void} blank  a text node of spaces only
 * @property {(element: Element) => boolean} passOver  whether to leave out
 *   an element whole, unread (asked before anything else of it)
 * @property {(frame: HTMLIFrameElement, at: At, inner: At, walkInside: (() => void) | null) => void} frame
 *   a frame that shows something, where it is (`at`) and where its
 *   document is (`inner`); `walkInside` walks that document in place
 *   (`null`: it is cross-origin, out of reach from here)
 * @property {(element: HTMLElement, at: At, inside: () => void) => void} element
 *   any other element that may be drawn; `inside` walks what it holds
 * @property {(element: Element, which: "::before" | "::after" | "::marker", at: At) => void} generated
 *   where CSS may write text before or after what an element holds
 *   (`generatedText` reads it, if the visitor wants it there)
 */

/**
 * Walks what an element holds as the browser draws it: a shadow host's
 * shadow tree (its children where a slot shows them), a slot's assigned
 * nodes (or its fallback), anything else's children.
 * @param {Element} element @param {(child: Node) => void} into
 */
const drawnChildren = (element, into) => {
  const shadow = shadowOf(element);
  if (shadow) {
    if (judging) watch(shadow);
    eachChild(shadow, into);
    return;
  }
  if (element.localName === "slot" && typeof (/** @type {HTMLSlotElement} */ (element)).assignedNodes === "function") {
    const assigned = (/** @type {HTMLSlotElement} */ (element)).assignedNodes();
    if (assigned.length) {
      assigned.forEach(into);
      return;
    }
  }
  eachChild(element, into);
};

/**
 * The elements an element owns by `aria-owns` (ids in its own tree) that
 * no walk has met yet, in the order it names them: read after its own
 * children, as Chromium's tree places them (a popup list kept at the end
 * of the page is read under the field it belongs to). One that came
 * earlier in the page was read where it stands, and is not read twice.
 * @param {Element} element
 * @returns {Element[]}
 */
const ownedBy = (element) => {
  const ids = (element.getAttribute("aria-owns") || "").split(/\s+/).filter(Boolean);
  if (!ids.length) return [];
  const root = /** @type {Document | ShadowRoot} */ (element.getRootNode());
  /** @type {Element[]} */
  const owned = [];
  for (const id of ids.slice(0, OWNED_AT_MOST)) {
    const found = root.getElementById ? root.getElementById(id) : null;
    if (found && found !== element && !walked.has(found) && !holdsFlat(found, element)) owned.push(found);
  }
  return owned;
};
/** The most elements one `aria-owns` brings along. */
const OWNED_AT_MOST = 50;
/** The elements a walk has met, so none is met twice. @type {WeakSet<Element>} */
const walked = new WeakSet();

/**
 * Walks `node` and what it draws, handing each part to `visit`.
 * @param {Node} node @param {At} at @param {Visitor} visit
 */
const walkTree = (node, at, visit) => {
  /** @param {Node} child */
  const into = (child) => walkTree(child, at, visit);
  if (node.nodeType === 3) {
    const text = /** @type {Text} */ (node);
    // (Text right in a shadow root, as a template writes it, is drawn in
    // its host.)
    const drawnIn = flatParentOf(text);
    if (!drawnIn) return;
    // An editable region a secret was typed into is read as its value
    // (hidden), never as text.
    if (registry.held && holdsSecret(text.parentElement || drawnIn)) return;
    const value = text.nodeValue || "";
    if (value.trim()) visit.text(text, drawnIn, at);
    else visit.blank(value);
    return;
  }
  if (node.nodeType === 11) {
    eachChild(node, into);
    return;
  }
  if (node.nodeType !== 1) return;
  const element = /** @type {HTMLElement} */ (node);
  if (unread(element)) return;
  // Whatever is hidden by attribute is passed over unread; the other ways
  // to hide are looked for only where something would be read. (`inert`
  // and `aria-hidden` hide from the hand and from assistive technology,
  // not from the eye: what they hold is read.)
  if (element.hasAttribute("hidden")) return;
  const frameTag = element.tagName === "IFRAME" || element.tagName === "FRAME";
  // Fallback content is never drawn, nor SVG that only defines. (The
  // element itself is looked at: a canvas or a video positioned over
  // words covers them where no picture can tell, as a box does.)
  if (FALLBACK_TAGS.has(element.tagName) && !frameTag) {
    lookOf(element);
    // A gauge draws its value: it is visited, as a picture is, but not
    // what it holds.
    if (GAUGE_TAGS.has(element.tagName) && !visit.passOver(element)) {
      visit.element(element, at, () => {});
    }
    return;
  }
  if (element.namespaceURI === SVG_NS && SVG_UNDRAWN.has(element.localName)) return;
  if (visit.passOver(element)) return;
  if (frameTag) {
    const frame = /** @type {HTMLIFrameElement} */ (element);
    // A frame drawn too small, or painted over, shows nothing of its
    // document.
    if (isHidden(frame) || !frameShown(frame) || frameCovered(frame)) return;
    /** @type {Document | null} */
    let doc = null;
    try { doc = frame.contentDocument; } catch (error) { doc = null; }
    const win = frame.contentWindow;
    const inner = { offset: contentOffset(frame, at.offset), win: win || at.win, path: at.path.concat([frameIndex(frame, at.win)]) };
    const root = doc && doc.documentElement;
    visit.frame(frame, at, inner, root && win ? () => walkTree(root, inner, visit) : null);
    return;
  }
  if (walked.has(element)) return;
  walked.add(element);
  visit.element(element, at, () => {
    visit.generated(element, "::marker", at);
    visit.generated(element, "::before", at);
    drawnChildren(element, into);
    for (const owned of ownedBy(element)) into(owned);
    visit.generated(element, "::after", at);
  });
};

/**
 * Whether a frame shows its document: drawn (after its ancestors' clipping
 * and transforms) at least SMALLEST_FRAME pixels along each axis.
 * @param {Element} frame
 */
const frameShown = (frame) => {
  const shown = shownRect(frame);
  if (!shown) return false;
  let { left, top, right, bottom } = shown.rect;
  const clip = boundsOf(lookOf(frame)).clip;
  if (clip) {
    left = Math.max(left, clip.left); right = Math.min(right, clip.right);
    top = Math.max(top, clip.top); bottom = Math.min(bottom, clip.bottom);
  }
  return right - left >= SMALLEST_FRAME && bottom - top >= SMALLEST_FRAME;
};
