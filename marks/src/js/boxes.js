// @ts-check
// boxes.js: where things are, in the top viewport's CSS pixels: an
// element's box, a frame's offset, and whether a box is within the scope a
// snapshot reads (the viewport and a margin).

/**
 * @typedef {{x: number, y: number}} Point
 * @typedef {{x: number, y: number, w: number, h: number}} Box
 */

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
const toBox = (rect, frameOffset) => ({
  x: Math.round(rect.left + frameOffset.x),
  y: Math.round(rect.top + frameOffset.y),
  w: Math.round(rect.width),
  h: Math.round(rect.height),
});
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
  return {
    x: rect.left + frameOffset.x + parseFloat(style.borderLeftWidth) + parseFloat(style.paddingLeft),
    y: rect.top + frameOffset.y + parseFloat(style.borderTopWidth) + parseFloat(style.paddingTop),
  };
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
