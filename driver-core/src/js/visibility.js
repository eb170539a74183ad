// @ts-check
// visibility.js: what a person sees of an element. One test, shared by the
// snapshot's numbering (marks) and the selector calls (locate.js), so a
// button the snapshot leaves out is one a selector call will not press.
//
// It is the start of a page script, joined before the script that uses it
// inside one function, so each call judges the page afresh: every layout
// read is made at most once per call (`perElement`), since a walk over
// thousands of elements spends its time there (in Chromium about a
// microsecond per computed-style property and four per box).

/**
 * `read` answering each element once per call; its `answers` map holds
 * what it has answered so far.
 * @template T
 * @param {(element: Element) => T} read
 * @returns {((element: Element) => T) & { answers: Map<Element, T> }}
 */
const perElement = (read) => {
  /** @type {Map<Element, T>} */
  const answers = new Map();
  /** @param {Element} element */
  const answer = (element) => {
    let value = answers.get(element);
    if (value === undefined) {
      value = read(element);
      answers.set(element, value);
    }
    return value;
  };
  return Object.assign(answer, { answers });
};

/** @typedef {((element: Element) => boolean) & { answers: Map<Element, boolean> }} ElementTest */

const styleOf = perElement((element) => getComputedStyle(element));
/** The two properties asked of nearly every element. */
const layoutOf = perElement((element) => {
  const style = styleOf(element);
  return { display: style.display, position: style.position };
});
const rectOf = perElement((element) => element.getBoundingClientRect());

/**
 * Calls `visit` with each child node of `node`.
 * @param {Node} node
 * @param {(child: ChildNode) => void} visit
 */
const eachChild = (node, visit) => {
  for (let child = node.firstChild; child; child = child.nextSibling) visit(child);
};

/**
 * The element's parent, or the host of the shadow root it is the top of.
 * @param {Element} element
 * @returns {Element | null}
 */
const parentOf = (element) => {
  if (element.parentElement) return element.parentElement;
  // Not `instanceof ShadowRoot`: an element of a same-origin frame's
  // document belongs to that frame's realm, whose classes are not ours.
  return /** @type {ShadowRoot} */ (element.getRootNode()).host || null;
};

/** The displays that start a line of their own. */
const BLOCK_DISPLAY = /^(block|flex|grid|list-item|table|table-row|table-caption|flow-root)$/;

/** @param {DOMRect | {width: number, height: number}} rect */
const hasArea = (rect) => rect.width > 0 && rect.height > 0;

/**
 * The colour an element's text sits on: the nearest opaque background.
 * @param {Element | null} element
 * @returns {string}
 */
const backgroundOf = (element) => (!element ? "rgb(255, 255, 255)" : opaqueBehind(element));
const opaqueBehind = perElement((element) => {
  const color = styleOf(element).backgroundColor;
  if (!color || color === "transparent" || /rgba\(.*,\s*0\)$/.test(color)) {
    return backgroundOf(parentOf(element));
  }
  return color;
});

const scrolled = { x: window.scrollX, y: window.scrollY };
// A document that has only just replaced the previous one may have no
// root element yet.
const pageRight = Math.max(document.documentElement ? document.documentElement.scrollWidth : 0, innerWidth) + 100;

/**
 * Hidden to a person: not rendered, transparent, clipped away, pushed off
 * the page. (`aria-hidden` hides from assistive technology, not from
 * sight: a spinner's arrow marked so is still seen and clicked; its text is
 * left out of what is read, see `ariaHidden`.) Each element judges only
 * itself and asks its parent (who answers once), so a whole page costs one
 * look per element.
 * @type {ElementTest}
 */
const isHidden = perElement((element) => {
  let hidden = false;
  const parent = parentOf(element);
  if (element.hasAttribute("hidden") || element.hasAttribute("inert")) hidden = true;
  // A closed <details> shows only its summary.
  else if (parent && parent.tagName === "DETAILS" && !(/** @type {HTMLDetailsElement} */ (parent)).open &&
           element.tagName !== "SUMMARY") hidden = true;
  else {
    // Each property read off a computed style costs; the ones that only
    // matter in some cases are read only then.
    const style = styleOf(element);
    const { display, position } = layoutOf(element);
    const visibility = style.visibility;
    const overflow = style.overflow;
    const clipPath = style.clipPath;
    if (display === "none" || visibility === "hidden" || visibility === "collapse") hidden = true;
    else if (style.opacity === "0") hidden = true;
    else if (element.children.length === 0 && style.fontSize === "0px") hidden = true;
    else if ((clipPath !== "none" && /inset\(\s*(50|100)%/.test(clipPath)) ||
             // clip applies to absolutely positioned boxes only.
             ((position === "absolute" || position === "fixed") && style.clip !== "auto" &&
              /rect\(\s*0(px)?,?\s+0(px)?,?\s+0(px)?,?\s+0(px)?\s*\)/.test(style.clip))) hidden = true;
    else if (overflow !== "visible" || position !== "static") {
      // Only what clips or is positioned can be shrunk or pushed away.
      const box = rectOf(element);
      const tiny = overflow !== "visible" && ((box.width <= 1 && box.height <= 1) || box.width === 0 || box.height === 0);
      const offPage = box.right + scrolled.x < 0 || box.bottom + scrolled.y < 0 || box.left + scrolled.x > pageRight;
      if (tiny || offPage) hidden = true;
    }
  }
  if (!hidden && parent) hidden = isHidden(parent);
  return hidden;
});

/**
 * Text moved off-screen by text-indent (image replacement: a logo, an
 * icon button's word): the element's box, its background and its other
 * children still show, only its text does not. text-indent is inherited,
 * so the nearest block with one decides.
 * @type {ElementTest}
 */
const textHidden = perElement((element) => {
  const style = styleOf(element);
  if (BLOCK_DISPLAY.test(layoutOf(element).display) && style.textIndent !== "0px" &&
      parseFloat(style.textIndent) < -999) return true;
  const parent = parentOf(element);
  return parent ? textHidden(parent) : false;
});

/**
 * Hidden from assistive technology too, not only from sight: what no
 * accessible name is made of (text that is merely clipped, indented or
 * pushed off-screen still labels its control).
 * @type {ElementTest}
 */
const a11yHidden = perElement((element) => {
  if (element.getAttribute("aria-hidden") === "true" || element.hasAttribute("hidden")) return true;
  const style = styleOf(element);
  if (layoutOf(element).display === "none" || style.visibility === "hidden" || style.visibility === "collapse") return true;
  const parent = parentOf(element);
  return parent ? a11yHidden(parent) : false;
});

/**
 * Inside an `aria-hidden` subtree: seen, but not for assistive technology,
 * so its text is neither read as the page's nor used as a name (icons'
 * glyphs, decorative copies); its controls are still numbered.
 * @type {ElementTest}
 */
const ariaHidden = perElement((element) => {
  if (element.getAttribute("aria-hidden") === "true") return true;
  const parent = parentOf(element);
  return parent ? ariaHidden(parent) : false;
});

/**
 * Text the colour of what it sits on.
 * @param {Element} element
 */
const sameColourText = (element) => styleOf(element).color === backgroundOf(element);

/**
 * Whether a person sees the text of `node` (a text node): its element is
 * shown, the text not indented away nor the colour of its background.
 * @param {Text} node
 */
const textSeen = (node) => {
  const parent = node.parentElement;
  return Boolean(parent) && !isHidden(/** @type {Element} */ (parent)) && !ariaHidden(/** @type {Element} */ (parent)) &&
    !textHidden(/** @type {Element} */ (parent)) && !sameColourText(/** @type {Element} */ (parent));
};

/**
 * The box around the visible content of an element that has none itself
 * (a few levels down, a few dozen elements at most).
 * @param {Element} element
 * @returns {{left: number, top: number, right: number, bottom: number, width: number, height: number} | null}
 */
const contentRect = (element) => {
  let left = Infinity, top = Infinity, right = -Infinity, bottom = -Infinity;
  let budget = 50;
  /** @param {Element} node @param {number} depth */
  const visit = (node, depth) => {
    for (let child = node.firstElementChild; child && budget > 0; child = child.nextElementSibling) {
      budget--;
      const rect = rectOf(child);
      if (hasArea(rect) && !isHidden(child)) {
        left = Math.min(left, rect.left); top = Math.min(top, rect.top);
        right = Math.max(right, rect.right); bottom = Math.max(bottom, rect.bottom);
      } else if (depth < 3) {
        visit(child, depth + 1);
      }
    }
  };
  visit(element, 0);
  return right > left && bottom > top
    ? { left, top, right, bottom, width: right - left, height: bottom - top }
    : null;
};

/**
 * @typedef {{left: number, top: number, right: number, bottom: number, width: number, height: number}} Area
 * @typedef {{rect: Area, via: Element}} Shown
 */

/**
 * Where a person sees an element, and would click it: its own box, as a
 * rule; an inline box that holds only floated or positioned content (a logo
 * link around a floated image) has no size of its own, and then it is the
 * box around that content; a checkbox, radio or file input hidden for
 * styling is shown and clicked through its label. `null` when there is
 * nothing of it to see.
 * @type {((element: Element) => Shown | null) & { answers: Map<Element, Shown | null> }}
 */
const shownRect = perElement((element) => {
  if (!isHidden(element)) {
    const own = rectOf(element);
    if (hasArea(own)) return { rect: own, via: element };
    const content = contentRect(element);
    return content ? { rect: content, via: element } : null;
  }
  const input = /** @type {HTMLInputElement} */ (element);
  if (element.tagName === "INPUT" && ["checkbox", "radio", "file"].includes(input.type) && input.labels) {
    for (const label of input.labels) {
      if (!isHidden(label) && hasArea(rectOf(label))) return { rect: rectOf(label), via: label };
    }
  }
  return null;
});

/**
 * Forgets every layout read made so far in this call: the page changed
 * (a wait looks again), and what was read is stale.
 */
const forgetLayout = () => {
  for (const cache of [styleOf, layoutOf, rectOf, opaqueBehind, isHidden, textHidden, a11yHidden, ariaHidden, shownRect]) {
    cache.answers.clear();
  }
};
