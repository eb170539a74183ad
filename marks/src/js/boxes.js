// @ts-check
// boxes.js: where things are, in the top viewport's CSS pixels: an
// element's box, a frame's offset, whether a box is within the scope a
// snapshot reads (the viewport and a margin), and what a box that scrolls
// on its own holds beyond what it shows.

/**
 * @typedef {{x: number, y: number, s?: number}} Point  where a frame's
 *   content starts, and how much its pixels are scaled there (`s`: a
 *   transform on the frame; 1 where absent)
 * @typedef {{x: number, y: number, w: number, h: number}} Box
 */

// What a scrolling box holds within the margin beyond its edges is read,
// as the page's within the margin beyond the viewport.
scrollMargin = options.margin || 0;

/** @type {Point} This frame's position in the top viewport. */
const offset = options.offset || { x: 0, y: 0 };
/** The top viewport: a frame is told it, the top document reads its own. */
const viewport = {
  w: (window.top === window ? innerWidth : (options.viewport || {}).w) || innerWidth,
  h: (window.top === window ? innerHeight : (options.viewport || {}).h) || innerHeight,
};

/**
 * @param {{left: number, top: number, width: number, height: number}} rect
 * @param {Point} frameOffset
 * @returns {Box}
 */
const toBox = (rect, frameOffset) => {
  const placed = placedRect(rect, frameOffset);
  return { x: Math.round(placed.x), y: Math.round(placed.y), w: Math.round(placed.w), h: Math.round(placed.h) };
};

/**
 * A rect of a frame's viewport in the top viewport, unrounded: moved by
 * where the frame's content starts and scaled as its pixels are.
 * @param {{left: number, top: number, width: number, height: number}} rect
 * @param {Point} frameOffset
 * @returns {Box}
 */
const placedRect = (rect, frameOffset) => {
  const s = scaleOf(frameOffset);
  return { x: frameOffset.x + rect.left * s, y: frameOffset.y + rect.top * s, w: rect.width * s, h: rect.height * s };
};

/** How much a frame's pixels are scaled in the top viewport. @param {Point} point */
const scaleOf = (point) => (typeof point.s === "number" && point.s > 0 ? point.s : 1);

/**
 * A point of a frame's own viewport (`inner`, with its frame's scale) in
 * the viewport `outer` places that frame's document in.
 * @param {Point} outer @param {Point} inner
 * @returns {Point}
 */
const placedIn = (outer, inner) => {
  const s = scaleOf(outer);
  return { x: outer.x + inner.x * s, y: outer.y + inner.y * s, s: s * scaleOf(inner) };
};
/** @param {Element} element @param {Point} frameOffset */
const boxOf = (element, frameOffset) => toBox(rectOf(element), frameOffset);

/**
 * Above or below the viewport and the margin around it: text there is not
 * read. (An element with no box, such as display: none, reports one at the
 * viewport's corner: never far, so the full look finds out why.)
 * @param {Box} box
 */
const far = (box) => box.y + box.h < -(options.margin || 0) || box.y > viewport.h + (options.margin || 0);
/**
 * Out of view beside the viewport too (a wide table's last column stays
 * text; its buttons there are out of reach).
 * @param {Box} box
 */
const outOfView = (box) => far(box) || box.x + box.w < 0 || box.x > viewport.w;

/**
 * Where an iframe's content starts, in the top viewport.
 * @param {Element} frame
 * @param {Point} frameOffset
 * @returns {Point}
 */
const contentOffset = (frame, frameOffset) => {
  const rect = rectOf(frame);
  const style = styleOf(frame);
  // A transform that scales the frame scales its document's pixels: its
  // drawn width against its laid-out one.
  const laid = /** @type {HTMLElement} */ (frame).offsetWidth;
  const drawn = laid > 0 ? rect.width / laid : 1;
  const scale = Math.abs(drawn - 1) < 0.005 ? 1 : drawn;
  return placedIn(frameOffset, {
    x: rect.left + (parseFloat(style.borderLeftWidth) + parseFloat(style.paddingLeft)) * scale,
    y: rect.top + (parseFloat(style.borderTopWidth) + parseFloat(style.paddingTop)) * scale,
    s: scale,
  });
};

/**
 * A frame's index among its window's frames (`window.frames[i]`).
 * @param {HTMLIFrameElement | HTMLFrameElement} frame
 * @param {Window} win
 */
const frameIndex = (frame, win) => {
  for (let i = 0; i < win.length; i++) if (win[i] === frame.contentWindow) return i;
  return -1;
};

const SCROLLS = /^(auto|scroll|overlay)$/;

/**
 * Whether an element is a box that scrolls on its own (not the page) and
 * holds more than it shows along an axis it scrolls.
 * @param {Element} element
 */
const scrollsWithMore = (element) => {
  const doc = element.ownerDocument;
  if (element === doc.documentElement || element === doc.body || element === doc.scrollingElement) return false;
  const look = lookOf(element);
  if (look.overflow === "visible" || look.hidden) return false;
  const box = /** @type {HTMLElement} */ (element);
  if (!(box.clientHeight > 0 && box.clientWidth > 0)) return false;
  return (SCROLLS.test(look.style.overflowY) && box.scrollHeight > box.clientHeight + 1) ||
    (SCROLLS.test(look.style.overflowX) && box.scrollWidth > box.clientWidth + 1);
};

/** The most items of a scroll box whose boxes are read to count them. */
const SCROLL_ITEMS = 2000;

/**
 * How many of a scroll box's items lie wholly beyond what it shows, on
 * each side (its items: the children of the first element in it that
 * holds more than one), not counting those within the margin beyond its
 * top and bottom edges, which are read (out of view: `nearAbove`,
 * `nearBelow`); -1 where more lies that way but no item does (one long
 * text).
 * @typedef {{above: number, below: number, left: number, right: number, nearAbove?: number, nearBelow?: number}} ScrollState
 * @param {Element} element
 * @returns {ScrollState}
 */
const scrollState = (element) => {
  const box = /** @type {HTMLElement} */ (element);
  const rect = rectOf(element);
  const top = rect.top + box.clientTop, left = rect.left + box.clientLeft;
  const bottom = top + box.clientHeight, right = left + box.clientWidth;
  /** @type {Element} */
  let holder = element;
  for (let depth = 0; depth < 3 && holder.childElementCount === 1 && holder.firstElementChild; depth++) holder = holder.firstElementChild;
  let above = 0, below = 0, before = 0, after = 0, read = 0, nearAbove = 0, nearBelow = 0;
  const margin = options.margin || 0;
  for (let child = holder.firstElementChild; child && read < SCROLL_ITEMS; child = child.nextElementSibling, read++) {
    const item = rectOf(child);
    if (!hasArea(item) || isHidden(child)) continue;
    if (item.bottom <= top + 1) {
      if (item.bottom > top - margin) nearAbove++;
      else above++;
    } else if (item.top >= bottom - 1) {
      if (item.top < bottom + margin) nearBelow++;
      else below++;
    }
    if (item.right <= left + 1) before++;
    else if (item.left >= right - 1) after++;
  }
  // More beyond the margin, where nothing is read, and more within it.
  const more = {
    up: box.scrollTop > margin + 1,
    down: box.scrollTop + box.clientHeight + margin < box.scrollHeight - 1,
    left: Math.abs(box.scrollLeft) > 1,
    right: Math.abs(box.scrollLeft) + box.clientWidth < box.scrollWidth - 1,
  };
  const near = {
    up: box.scrollTop > 1,
    down: box.scrollTop + box.clientHeight < box.scrollHeight - 1,
  };
  /** @type {ScrollState} */
  const state = {
    above: above || (more.up ? -1 : 0),
    below: below || (more.down ? -1 : 0),
    left: before || (more.left ? -1 : 0),
    right: after || (more.right ? -1 : 0),
  };
  // -1: what lies there (no whole item) is read, out of view.
  if (nearAbove || (near.up && !above && !more.up)) state.nearAbove = nearAbove || -1;
  if (nearBelow || (near.down && !below && !more.down)) state.nearBelow = nearBelow || -1;
  return state;
};

/**
 * Whether the words drawn in an element are an icon font's (whose
 * ligatures draw "shopping_cart" as a picture of a cart).
 * @param {Element} element
 */
const iconGlyphs = (element) => /icon|symbol|glyph|awesome|fontello|ionicons/i.test(styleOf(element).fontFamily);
