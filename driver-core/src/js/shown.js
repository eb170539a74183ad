// @ts-check
// shown.js: the judge's questions, joined after visibility.js (which
// reads an element's look): every element looked at in a call, where its
// boxes are bounded (clips, scrolling), what of its text shows, and the
// box a person sees and a click reaches (`shownRect`).

/** @type {Map<Element, Look>} Every element looked at in this call. */
const looks = new Map();
/**
 * The looks of the elements that paint over the flow: positioned, or
 * found transformed. What can lie over text is among them, so the paint
 * pass asks these, never every look.
 * @type {Look[]}
 */
const stackingLooks = [];

/**
 * The element's look, taken once per call.
 * @param {Element} element
 * @returns {Look}
 */
const lookOf = (element) => {
  let look = looks.get(element);
  if (look === undefined) {
    look = new Look(element);
    looks.set(element, look);
  }
  return look;
};

/** @param {Element} element */
const styleOf = (element) => lookOf(element).style;
/**
 * The properties asked of nearly every element.
 * @param {Element} element
 * @returns {{display: string, position: string, overflow: string}}
 */
const layoutOf = (element) => lookOf(element);

/**
 * Calls `visit` with every element looked at so far in this call, and
 * its look.
 * @param {(look: Look, element: Element) => void} visit
 */
const eachLooked = (visit) => looks.forEach(visit);

/**
 * Calls `visit` with every element looked at so far that paints over the
 * flow (see `stackingLooks`), and its look.
 * @param {(look: Look, element: Element) => void} visit
 */
const eachStacking = (visit) => stackingLooks.forEach((look) => visit(look, look.element));

const scrolled = { x: window.scrollX, y: window.scrollY };
// A document that has only just replaced the previous one may have no
// root element yet.
const pageRight = Math.max(document.documentElement ? document.documentElement.scrollWidth : 0, innerWidth) + 100;

/**
 * Whether a box, as drawn, lies wholly beyond the page's edges (moved by a
 * position, a margin or a transform), where no scrolling shows it.
 * @param {DOMRect} box
 */
const offPage = (box) => box.right + scrolled.x < 0 || box.bottom + scrolled.y < 0 || box.left + scrolled.x > pageRight;

/**
 * Hidden to a person: see the file's head. (`aria-hidden` and `inert`
 * hide from assistive technology and from the hand, not from sight.)
 * @param {Element} element
 */
const isHidden = (element) => lookOf(element).hidden;

/**
 * Hidden from assistive technology too, not only from sight: what no
 * accessible name is made of (text that is merely clipped, indented or
 * pushed off-screen still labels its control).
 * @param {Element} element
 */
const a11yHidden = (element) => lookOf(element).a11y;

/**
 * Inside an `aria-hidden` subtree: seen, but not for assistive technology,
 * so its text is no name (icons' glyphs, decorative copies); its controls
 * are still numbered and its text still read.
 * @param {Element} element
 */
const ariaHidden = (element) => lookOf(element).aria;

/**
 * Inside an `inert` subtree: seen, and read, but no person can act on it.
 * @param {Element} element
 */
const inertHere = (element) => lookOf(element).inert;

/**
 * An element's computed font size, in CSS pixels.
 * @param {Element} element
 */
const fontSizeOf = (element) => lookOf(element).size();

/**
 * What an element's ancestors' overflow boxes let it be seen in (see
 * `Bounds`), per axis: the intersection of the padding boxes of those that
 * clip along it.
 * @param {Look} look
 * @returns {Bounds}
 */
const boundsOf = (look) => {
  if (look.bounds === undefined) {
    const up = look.up;
    // The top layer is drawn apart from its ancestors: their overflow
    // clips none of it (it is positioned fixed, as such).
    if (!up || up.element === document.documentElement || up.element === document.body ||
        (look.position === "fixed" && inTopLayer(look.element))) {
      look.bounds = UNBOUNDED;
    } else {
      const above = boundsOf(up);
      look.bounds = up.overflow === "visible" ? above : {
        clip: narrowed(above.clip, up, ["hidden", "clip"]),
        scroll: narrowed(above.scroll, up, ["auto", "scroll"], scrollMargin),
        shown: narrowed(narrowed(above.shown, up, ["hidden", "clip"]), up, ["auto", "scroll"]),
      };
    }
  }
  return look.bounds;
};

/**
 * `edges` narrowed to the padding box of `look`'s element along each axis
 * whose overflow is one of `kinds`.
 * @param {Edges | null} edges @param {Look} look @param {string[]} kinds
 * @returns {Edges | null}
 */
const narrowed = (edges, look, kinds, margin = 0) => {
  const alongX = kinds.includes(look.style.overflowX);
  const alongY = kinds.includes(look.style.overflowY);
  if (!alongX && !alongY) return edges;
  const rect = rectOf(look.element);
  const box = /** @type {HTMLElement} */ (look.element);
  const left = rect.left + box.clientLeft, top = rect.top + box.clientTop;
  const own = {
    left: alongX ? left - margin : -Infinity,
    right: alongX ? left + (box.clientWidth || rect.width) + margin : Infinity,
    top: alongY ? top - margin : -Infinity,
    bottom: alongY ? top + (box.clientHeight || rect.height) + margin : Infinity,
  };
  if (!edges) return own;
  return {
    left: Math.max(edges.left, own.left), right: Math.min(edges.right, own.right),
    top: Math.max(edges.top, own.top), bottom: Math.min(edges.bottom, own.bottom),
  };
};

/**
 * Whether a box lies wholly outside `edges` (or `edges` leave nothing).
 * @param {{left: number, top: number, right: number, bottom: number}} rect @param {Edges | null} edges
 */
const outsideEdges = (rect, edges) => {
  if (!edges) return false;
  return rect.right <= edges.left || rect.left >= edges.right || rect.bottom <= edges.top || rect.top >= edges.bottom ||
    edges.right - edges.left < 1 || edges.bottom - edges.top < 1;
};

/**
 * Whether an element's box lies wholly outside `edges`.
 * @param {Element} element @param {Edges | null} edges
 */
const outside = (element, edges) => outsideEdges(rectOf(element), edges);

/**
 * Whether an element lies wholly outside what its ancestors' overflow
 * boxes show for good (a line cut off by a box that cannot scroll, a word
 * pushed out of a one-pixel box).
 * @param {Element} element
 */
const clippedAway = (element) => outside(element, boundsOf(lookOf(element)).clip);

/**
 * Whether an element lies wholly outside what its scrolling ancestors show
 * now: scrolled away, as text below the viewport is; a person scrolls the
 * box to see it.
 * @param {Element} element
 */
const scrolledAway = (element) => outside(element, boundsOf(lookOf(element)).scroll);

/** @type {Map<Text, DOMRect[]>} The boxes of each text node asked of in this call. */
const textBoxes = new Map();

/**
 * The boxes a text node's letters are drawn in (one per line it spans).
 * @param {Text} node
 * @returns {DOMRect[]}
 */
const textRects = (node) => {
  let rects = textBoxes.get(node);
  if (rects === undefined) {
    const parent = node.parentNode;
    if (parent instanceof Element && parent.namespaceURI === SVG_NS && parent.childNodes.length === 1) {
      // An SVG text's own box: Gecko scales a range's boxes in a drawing
      // twice (a view box at 1% makes 14 px letters a box of 0.2 px).
      const box = parent.getBoundingClientRect();
      rects = hasArea(box) ? [box] : [];
    } else {
      const range = node.ownerDocument.createRange();
      range.selectNodeContents(node);
      rects = Array.from(range.getClientRects()).filter(hasArea);
    }
    textBoxes.set(node, rects);
  }
  return rects;
};

/**
 * Whether every box of a text node lies outside `edges`, where its
 * element's box is not wholly inside them (then its own boxes say: the
 * lines of a paragraph a scrolling box shows half of).
 * @param {Text} node
 * @param {Element} parent
 * @param {Edges | null} edges
 */
const textOutside = (node, parent, edges) => {
  if (!edges) return false;
  const rect = rectOf(parent);
  if (rect.left >= edges.left && rect.right <= edges.right && rect.top >= edges.top && rect.bottom <= edges.bottom) return false;
  if (outsideEdges(rect, edges)) return true;
  const rects = textRects(node);
  return rects.length > 0 && rects.every((box) => outsideEdges(box, edges));
};

/**
 * Whether an element is drawn in a box fixed to the viewport: it or an
 * ancestor is `position: fixed`, and nothing above that box gives it a
 * containing block that scrolls (a transform, filter, perspective or
 * containment does). Such a box never scrolls into view.
 * @param {Look} look
 * @returns {boolean}
 */
const pinnedToView = (look) => {
  if (look.pinned === undefined) {
    if (look.position !== "fixed") {
      look.pinned = look.up !== null && pinnedToView(look.up);
    } else {
      look.pinned = true;
      for (let at = look.up; at; at = at.up) {
        const style = at.style;
        if (style.transform !== "none" || style.filter !== "none" || style.perspective !== "none" ||
            (style.backdropFilter || "none") !== "none" || /paint|layout|strict|content/.test(style.contain) ||
            /transform|perspective|filter/.test(style.willChange)) {
          look.pinned = false;
          break;
        }
      }
    }
  }
  return look.pinned;
};

/**
 * The edges, in its document's viewport, beyond which no scrolling shows
 * what an element draws: the page's top, left and right edges, or, in a
 * box fixed to the viewport, the viewport's. (A frame's document's own.)
 * @param {Element} element
 * @returns {[number, number, number, number]} left, top, right, bottom
 */
const pageEdgesOf = (element) => {
  const doc = element.ownerDocument;
  const view = doc === document ? window : doc.defaultView;
  if (!view) return [-Infinity, -Infinity, Infinity, Infinity];
  if (pinnedToView(lookOf(element))) return [0, 0, view.innerWidth, view.innerHeight];
  if (view === window) return [-scrolled.x, -scrolled.y, pageRight - scrolled.x, Infinity];
  const right = Math.max(doc.documentElement ? doc.documentElement.scrollWidth : 0, view.innerWidth) + 100;
  return [-view.scrollX, -view.scrollY, right - view.scrollX, Infinity];
};

/**
 * Whether every box of a text node lies where no scrolling shows it:
 * beyond the page's top, left or right edge (moved by a margin, a
 * position or a transform: an off-canvas menu), or, in a box fixed to the
 * viewport, beyond the viewport's edges.
 * @param {Text} node
 * @param {Element} parent  the element it is drawn in
 */
const textOffPage = (node, parent) => {
  const [left, top, right, bottom] = pageEdgesOf(parent);
  const rect = rectOf(parent);
  if (hasArea(rect) && rect.left >= left && rect.top >= top && rect.right <= right && rect.bottom <= bottom) return false;
  const rects = textRects(node);
  return rects.length > 0 && rects.every((box) => box.right <= left || box.bottom <= top || box.left >= right || box.top >= bottom);
};

/**
 * Whether a text node lies outside what its scrolling ancestors show now.
 * @param {Text} node
 * @param {Element} parent  the element it is drawn in
 */
const textScrolledAway = (node, parent) => textOutside(node, parent, boundsOf(lookOf(parent)).scroll);

/**
 * Whether transforms draw an element too small to read along an axis (a
 * `scaleY(0.02)`, a `scale: 0.01`, a box turned edge-on): its letters, at
 * its font size (at least 16 px: an icon's font may be of no size), under
 * FLATTEST. Its own text is judged so already; this holds for a
 * control's name and an icon alike.
 * @param {Element} element
 */
const squashed = (element) => {
  const look = lookOf(element);
  return letterScaleOf(look) * Math.max(look.size(), 16) < FLATTEST;
};

/**
 * Whether what an element draws is out of sight although nothing in its
 * style says hidden: pushed off the page (by its or an ancestor's
 * transform, too), or in a subtree the browser skips drawing
 * (`content-visibility: hidden`, a closed <details>; `checkVisibility`
 * knows, and is quick where a page has none).
 * @param {Element} element
 * @returns {boolean}
 */
const drawnAway = (element) => {
  // A box of `display: contents` has none of its own: what it holds is
  // drawn in its parent's, whose say this is.
  if (lookOf(element).display === "contents") {
    const parent = parentOf(element);
    return parent !== null && drawnAway(parent);
  }
  return offPage(rectOf(element)) ||
    (typeof element.checkVisibility === "function" && !element.checkVisibility());
};

/**
 * How a person sees the text of `node` (a text node), by its element's
 * look: "hidden" (its element hidden, clipped away or not drawn, the
 * node itself not slotted, its letters unreadable), "faint" (hardly
 * different from the backdrop its ancestors paint: `paintedOver` judges
 * that again where the text is on screen), or "seen".
 * @param {Text} node
 * @returns {"seen" | "faint" | "hidden"}
 */
const textFate = (node) => {
  const parent = flatParentOf(node);
  if (!parent || unslotted(node)) return "hidden";
  if (parent.tagName === "DETAILS" && !(/** @type {HTMLDetailsElement} */ (parent)).open) return "hidden";
  // (checkVisibility answers for the elements inside, not for the text.)
  if (styleOf(parent).contentVisibility === "hidden" || lettersMasked(parent)) return "hidden";
  if (isHidden(parent) || drawnAway(parent) || textOutside(node, parent, boundsOf(lookOf(parent)).clip) ||
      textOffPage(node, parent) || firstLineHides(node, parent) || highlightHides(node, parent) ||
      lettersCramped(node, parent)) return "hidden";
  return textFateOf(parent);
};

/**
 * Whether a text node's letters are drawn in too little room to read: no
 * box of any area, or less than NARROWEST_LETTER a letter along its lines
 * (letters a negative spacing piles on each other, an SVG text squeezed
 * to a length, a font shrunk by its own size adjustment, whose lines
 * shrink with it). What the pixels measure of text in view, measured on
 * its boxes where no picture reaches. An inline element holding the text
 * alone answers by its own box, which is known already.
 * @param {Text} node
 * @param {Element} parent  the element it is drawn in
 */
const lettersCramped = (node, parent) => {
  const letters = node.data.length - (node.data.match(/\s/g) || []).length;
  if (letters === 0) return false;
  // A line's box is longer along it than across, however it is written
  // or turned (a box turned a quarter is tall).
  /** @param {DOMRect[]} rects */
  const roomy = (rects) => rects.reduce((along, rect) => along + Math.max(rect.width, rect.height), 0) >=
    letters * NARROWEST_LETTER;
  if (lookOf(parent).display.startsWith("inline") && parent.childNodes.length === 1 && roomy([rectOf(parent)])) return false;
  const rects = textRects(node);
  return rects.length === 0 || !roomy(rects);
};

/**
 * Whether an element's letters are drawn as a mask's dots, discs or
 * squares (`-webkit-text-security`, as a password field draws its value):
 * its words are not what is drawn.
 * @param {Element} element
 */
const lettersMasked = (element) => {
  const mask = styleOf(element).getPropertyValue("-webkit-text-security");
  return mask !== "" && mask !== "none";
};

/**
 * Whether the browser may paint a text node at all: the cheap test of
 * what is certainly not painted, which is all that style decides where
 * the pixels drawn judge the rest (marks' pixels.js). Not so when it is
 * not rendered (its element or an ancestor, a shadow host's child no slot
 * shows, the inside of a closed <details> or of a subtree the browser
 * skips), faded to nothing (an opacity of 0 through its ancestors), pushed
 * off the page, wholly outside the boxes its ancestors clip to, of no
 * size, drawn as a mask's dots, or squeezed by transforms below a
 * readable letter along an axis (whatever dots or smear it draws are no
 * words a person reads).
 * @param {Text} node
 */
const textMayShow = (node) => {
  const parent = flatParentOf(node);
  if (!parent || unslotted(node)) return false;
  if (parent.tagName === "DETAILS" && !(/** @type {HTMLDetailsElement} */ (parent)).open) return false;
  if (styleOf(parent).contentVisibility === "hidden" || lettersMasked(parent)) return false;
  if (!elementMayShow(parent) || drawnAway(parent) || squashed(parent)) return false;
  if (textOutside(node, parent, boundsOf(lookOf(parent)).clip) || textOffPage(node, parent)) return false;
  return textRects(node).length > 0;
};

/**
 * Whether the browser may paint an element (its box, what it holds):
 * rendered, it and its ancestors, and not faded to nothing. See
 * `textMayShow`.
 * @param {Element} element
 */
const elementMayShow = (element) => {
  const look = lookOf(element);
  if (look.notRendered) return false;
  if (look.opacity > 0) return true;
  // The top layer (an open popover, a modal dialog, what is full screen)
  // is drawn apart from its ancestors: their opacity does not fade it.
  for (let at = /** @type {Look | null} */ (look); at; at = at.up) {
    if (parseFloat(at.style.opacity) === 0) return false;
    if (inTopLayer(at.element)) return true;
  }
  return false;
};

/**
 * Whether an element is drawn in the top layer, apart from its ancestors.
 * @param {Element} element
 */
const inTopLayer = (element) => {
  try {
    return element.matches(":popover-open, :modal, :fullscreen");
  } catch (old) {
    return false;
  }
};

/**
 * Whether a person sees the text of `node` (a text node), judged by its
 * element's look alone (see `textFate`; faint text is not seen).
 * @param {Text} node
 */
const textSeen = (node) => textFate(node) === "seen";

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
 * @typedef {{rect: Area, via: Element, ghost?: true}} Shown  `ghost`: a
 *   control too faint to see that a click on its box reaches (a
 *   transparent real checkbox over a drawn one): what is drawn there
 *   says whether a person sees something to click (marks' pixels)
 */

/** Where a click is tried on a control too faint to see. */
const GHOST_AIMS = [[0.5, 0.5], [0.25, 0.5], [0.75, 0.5], [0.5, 0.25], [0.5, 0.75]], MIDDLE = [[0.5, 0.5]];
/** Roles whose elements a click acts on, for `clickReaches`. */
const CLICKED_ROLES = /^(button|checkbox|radio|switch|link|menuitem|menuitemcheckbox|menuitemradio|option|tab|treeitem|gridcell)$/;

/**
 * Whether an element is a control a click acts on: a form control, a
 * link, or something with a control's role.
 * @param {Element} element
 */
const clickedControl = (element) => {
  const tag = element.tagName;
  if (tag === "INPUT") return (/** @type {HTMLInputElement} */ (element)).type !== "hidden";
  if (tag === "BUTTON" || tag === "SELECT" || tag === "TEXTAREA") return true;
  if (tag === "A") return element.hasAttribute("href");
  return CLICKED_ROLES.test(element.getAttribute("role") || "");
};

/**
 * What a hit test at a point answers, asked of an element's own root (so
 * a shadow host does not count as covering what is inside it); where that
 * root says nothing (Gecko's shadow root, over what lies outside it), its
 * document's answer. @param {Element} element @param {number} x @param {number} y
 */
const hitAt = (element, x, y) => {
  const root = /** @type {Document | ShadowRoot} */ (element.getRootNode());
  const hit = typeof root.elementFromPoint === "function" ? root.elementFromPoint(x, y) : null;
  return hit || (root === element.ownerDocument ? null : element.ownerDocument.elementFromPoint(x, y));
};

/**
 * Whether a click on a point of `rect` (an element's own box, in its
 * frame's viewport) reaches `element` (it, what it holds, or a label of
 * it), hit-tested as the click would be. Beyond the viewport, where no
 * hit test reaches, it does, as any control there is listed: what is drawn
 * there judges it (and a click brings it into view and tests again); asked
 * at `aims` of its own (`MIDDLE`), it does not. @param {Element} element
 * @param {DOMRect | Area} rect @param {number[][]} [aims]
 */
const clickReaches = (element, rect, aims = GHOST_AIMS) => {
  const root = /** @type {Document | ShadowRoot} */ (element.getRootNode());
  const view = element.ownerDocument.defaultView;
  if (!view || typeof root.elementFromPoint !== "function") return false;
  const labels = (/** @type {HTMLInputElement} */ (element)).labels;
  let beyond = true;
  for (const [fx, fy] of aims) {
    const x = rect.left + rect.width * fx, y = rect.top + rect.height * fy;
    if (x < 0 || y < 0 || x >= view.innerWidth || y >= view.innerHeight) continue;
    beyond = false;
    const hit = root.elementFromPoint(x, y);
    if (hit && (hitWithin(hit, element) ||
        (labels && Array.from(labels).some((label) => label === hit || label.contains(hit))))) return true;
  }
  return beyond && aims === GHOST_AIMS;
};

/**
 * Scrolls what shows of an element to the view's middle, unless a click at
 * its middle reaches it where it is (no person scrolls a carousel's clipped
 * strip to press its arrow). @param {Element} element @param {Shown} shown
 */
const intoView = (element, shown) => {
  if (element.ownerDocument === document && clickReaches(element, shown.rect, MIDDLE)) return;
  shown.via.scrollIntoView({ block: "center", inline: "center" });
};

/**
 * Where a person sees an element, and would click it: its own box, as a
 * rule; an inline box that holds only floated or positioned content (a logo
 * link around a floated image) has no size of its own, and then it is the
 * box around that content; a checkbox, radio or file input hidden for
 * styling is shown and clicked through its label, a code editor's input
 * through its editor. `null` when there is
 * nothing of it to see (clipped away by its ancestors' boxes too).
 * @type {((element: Element) => Shown | null) & { answers: Map<Element, Shown | null> }}
 */
const shownRect = perElement((element) => {
  // A code editor's hidden input is shown as the editor it types into.
  const editor = editorOf(element);
  if (editor) return shownRect(editor) && { rect: /** @type {Shown} */ (shownRect(editor)).rect, via: editor };
  if (!isHidden(element)) {
    const own = rectOf(element);
    if (hasArea(own)) return clippedAway(element) || drawnAway(element) || squashed(element) ? null : { rect: own, via: element };
    const content = contentRect(element);
    return content && !squashed(element) ? { rect: content, via: element } : null;
  }
  const input = /** @type {HTMLInputElement} */ (element);
  if (element.tagName === "INPUT" && ["checkbox", "radio", "file"].includes(input.type) && input.labels) {
    for (const label of input.labels) {
      if (!isHidden(label) && hasArea(rectOf(label)) && !clippedAway(label) && !drawnAway(label)) return { rect: rectOf(label), via: label };
    }
  }
  // Too faint to see, but what a click there reaches: shown where it is,
  // if what is drawn there shows a person something to click.
  if (clickedControl(element) && !lookOf(element).hiddenBesidesFaint) {
    const own = rectOf(element);
    if (hasArea(own) && !clippedAway(element) && !drawnAway(element) && clickReaches(element, own)) {
      return { rect: own, via: element, ghost: true };
    }
  }
  return null;
});

/**
 * Forgets every layout read made so far in this call: the page changed
 * (a wait looks again), and what was read is stale.
 */
const forgetLayout = () => {
  looks.clear();
  stackingLooks.length = 0;
  rectOf.answers.clear();
  shownRect.answers.clear();
  textBoxes.clear();
  lineRules.clear();
  highlightedTexts.clear();
};
