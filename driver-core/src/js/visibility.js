// @ts-check
// visibility.js: what a person sees of an element and of its text. One
// test, shared by the snapshot's numbering and reading (marks) and the
// selector calls (locate.js), so what the snapshot leaves out is what a
// selector call will not press.
//
// Hidden means hidden to the eye, whatever the trick: not rendered (the
// hidden attribute, display, content-visibility, a closed <details>),
// invisible (visibility, an opacity or a filter's opacity that, through
// every ancestor, leaves less than a tenth), shrunk to nothing (a
// zero-sized clipping box, a transform's scale), clipped away (clip,
// clip-path shapes that show nothing, an ancestor's overflow box, per
// axis), pushed off the page; and for text, drawn so it cannot be read:
// indented away, transparent (its colour or its fill), in a colour hardly
// different from what it sits on, or smaller than two pixels. Text under an
// opaque box is the walker's to judge (walk.js), once it knows what lies
// on top.
//
// It is the start of a page script, joined before the script that uses it
// inside one function, so each call judges the page afresh. A walk over
// thousands of elements spends its time reading styles and boxes (in
// Chromium a few tenths of a microsecond per keyword property, about one
// per colour or transform, two to three per box), so each element is
// looked at once per call, into one record (`Look`) that its children
// build on, and what only some questions need is read only when one is
// asked.

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

/** Less than this much of an element's opacity left, and it is not seen. */
const FAINTEST = 0.1;
/** Text smaller than this, in CSS pixels as drawn, cannot be read. */
const SMALLEST_TEXT = 2;
/** Text whose contrast with what it sits on is below this is not seen (1 is none). */
const LEAST_CONTRAST = 1.15;

/**
 * A computed colour's red, green, blue (0–255) and alpha (0–1), or null
 * for one not written as rgb() or rgba() (what Chromium computes for the
 * others, oklch() and the like, is not judged).
 * @param {string} color
 * @returns {[number, number, number, number] | null}
 */
const rgba = (color) => {
  let channels = colours.get(color);
  if (channels === undefined) {
    channels = parseColour(color);
    colours.set(color, channels);
  }
  return channels;
};
/** @type {Map<string, [number, number, number, number] | null>} */
const colours = new Map();
/**
 * @param {string} color
 * @returns {[number, number, number, number] | null}
 */
/**
 * @param {string} color
 * @returns {[number, number, number, number] | null}
 */
const parseColour = (color) => {
  if (color === "transparent") return [0, 0, 0, 0];
  const found = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/.exec(color);
  if (!found) return null;
  const alpha = found[4] === undefined ? 1 : found[4].endsWith("%") ? parseFloat(found[4]) / 100 : parseFloat(found[4]);
  return [Number(found[1]), Number(found[2]), Number(found[3]), alpha];
};

/**
 * The relative luminance of an sRGB colour (WCAG).
 * @param {[number, number, number, number]} color
 */
const luminance = ([r, g, b]) => {
  const channel = (/** @type {number} */ value) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
};

/**
 * Whether a `clip-path` shows nothing of `element`: insets that meet along
 * an axis, a circle or ellipse of no radius, a polygon with no area.
 * @param {string} clipPath
 * @param {Element} element
 */
const clipsAll = (clipPath, element) => {
  if (!clipPath || clipPath === "none") return false;
  const inset = /^inset\(([^)]*)\)/.exec(clipPath);
  if (inset) {
    const rect = rectOf(element);
    /** @param {string} side @param {number} size the length a percentage is of */
    const share = (side, size) => (side.endsWith("%") ? parseFloat(side) : size > 0 ? (parseFloat(side) / size) * 100 : 0);
    const words = inset[1].split(/\s+round\s+/)[0].trim().split(/\s+/);
    const [top, right = top, bottom = top, left = right] = words;
    return share(top, rect.height) + share(bottom, rect.height) >= 100 || share(left, rect.width) + share(right, rect.width) >= 100;
  }
  if (/^(circle|ellipse)\(\s*0(px|%)?[\s)]/.test(clipPath)) return true;
  const polygon = /^polygon\(([^)]*)\)/.exec(clipPath);
  if (polygon) {
    const points = polygon[1].split(",").map((point) => point.trim()).filter(Boolean);
    return new Set(points).size <= 1 || points.length < 3;
  }
  return false;
};

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

/** @typedef {{left: number, top: number, right: number, bottom: number}} Edges */
/** @typedef {{colour: string, by: Element | null}} Backdrop */
/**
 * What an element's ancestors' overflow boxes let it be seen in: `clip`,
 * for good (`overflow: hidden`, `clip`); `scroll`, now (`auto`,
 * `scroll`: a person scrolls the box to see the rest); null where none is.
 * @typedef {{clip: Edges | null, scroll: Edges | null}} Bounds
 */

/** @type {Bounds} */
const UNBOUNDED = { clip: null, scroll: null };
/** @type {Backdrop} */
const PAGE_WHITE = { colour: "rgb(255, 255, 255)", by: null };

/**
 * One look at an element: what its computed style says of it, read once
 * per call, on top of its parent's look (a whole page costs one look per
 * element). What only some questions need (its font size, backdrop,
 * transform, indent, overflow bounds, how its text reads) is read when
 * first asked.
 */
class Look {
  /** @param {Element} element */
  constructor(element) {
    const parent = parentOf(element);
    /** @type {Look | null} */
    const up = parent ? lookOf(parent) : null;
    const style = getComputedStyle(element);
    this.element = element;
    /** @type {Look | null} */
    this.up = up;
    this.style = style;
    /** @type {string} */
    this.display = style.display;
    /** @type {string} */
    this.position = style.position;
    // overflow does not apply to an inline box.
    /** @type {string} */
    this.overflow = this.display === "inline" ? "visible" : style.overflow;
    const visibility = style.visibility;
    const gone = this.display === "none" || visibility === "hidden" || visibility === "collapse";
    // (Most elements have no attributes at all, and then none is asked.)
    const attributed = element.hasAttributes();
    const hiddenAttribute = attributed && element.hasAttribute("hidden");
    /** @type {boolean} Inside an `aria-hidden` subtree (`ariaHidden`). */
    this.aria = (up !== null && up.aria) || (attributed && element.getAttribute("aria-hidden") === "true");
    /** @type {boolean} Hidden from assistive technology too (`a11yHidden`). */
    this.a11y = (up !== null && up.a11y) || this.aria || hiddenAttribute || gone;
    /** The opacity left of it through its ancestors. */
    this.opacity = 1;
    /** @type {number} Its font size, in CSS pixels (-1: not read yet). */
    this.fontSize = -1;
    /** @type {Backdrop | undefined} */
    this.backdrop = undefined;
    /** @type {number} The scale of its and its ancestors' transforms (-1: not read yet). */
    this.transformScale = -1;
    /** @type {boolean | undefined} */
    this.indent = undefined;
    /** @type {Bounds | undefined} */
    this.bounds = undefined;
    /** @type {boolean | undefined} */
    this.textHidden = undefined;
    /** @type {boolean} Hidden to a person (`isHidden`). */
    this.hidden = (up !== null && up.hidden) || hiddenAttribute || gone || (attributed && element.hasAttribute("inert")) ||
      // A closed <details> shows only its summary.
      (parent !== null && parent.tagName === "DETAILS" && !(/** @type {HTMLDetailsElement} */ (parent)).open &&
       element.tagName !== "SUMMARY") ||
      this.judge(style);
  }

  /** Its font size, in CSS pixels. */
  size() {
    if (this.fontSize < 0) this.fontSize = parseFloat(this.style.fontSize) || 0;
    return this.fontSize;
  }

  /**
   * Hidden by what only its own style says (once its parent, attributes
   * and display are not): faded out through its ancestors, shrunk to
   * nothing, clipped away, pushed off the page. The ones that only matter
   * in some cases are read only then.
   * @param {CSSStyleDeclaration} style
   */
  judge(style) {
    const element = this.element;
    let opacity = parseFloat(style.opacity);
    if (!Number.isFinite(opacity)) opacity = 1;
    const filter = style.filter;
    if (filter !== "none") {
      const found = /opacity\(\s*([\d.]+)(%?)\s*\)/.exec(filter);
      if (found) opacity *= found[2] ? parseFloat(found[1]) / 100 : parseFloat(found[1]);
    }
    this.opacity = this.up ? opacity * this.up.opacity : opacity;
    if (this.opacity < FAINTEST) return true;
    if (element.firstElementChild === null && this.size() === 0) return true;
    if (clipsAll(style.clipPath, element)) return true;
    const position = this.position;
    // clip applies to absolutely positioned boxes only.
    if ((position === "absolute" || position === "fixed") && style.clip !== "auto" &&
        /rect\(\s*0(px)?,?\s+0(px)?,?\s+0(px)?,?\s+0(px)?\s*\)/.test(style.clip)) return true;
    const clips = this.overflow !== "visible";
    if (clips || position !== "static") {
      // Only what clips or is positioned can be shrunk or pushed away
      // without a transform (which moves what is drawn, not the layout:
      // `drawnAway` judges by what is drawn, where it matters).
      const box = rectOf(element);
      const tiny = clips && ((box.width <= 1 && box.height <= 1) || box.width === 0 || box.height === 0);
      if (tiny || offPage(box)) return true;
    }
    return false;
  }
}

/** @type {Map<Element, Look>} Every element looked at in this call. */
const looks = new Map();

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
 * Hidden to a person: see the file's head. (`aria-hidden` hides from
 * assistive technology, not from sight: a spinner's arrow marked so is
 * still seen and clicked; its text is left out of what is read, see
 * `ariaHidden`.)
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
 * so its text is neither read as the page's nor used as a name (icons'
 * glyphs, decorative copies); its controls are still numbered.
 * @param {Element} element
 */
const ariaHidden = (element) => lookOf(element).aria;

/**
 * An element's computed font size, in CSS pixels.
 * @param {Element} element
 */
const fontSizeOf = (element) => lookOf(element).size();

/**
 * The nearest opaque background colour behind an element's text, as
 * computed, and the element it is painted by (null for the page's white).
 * Images and gradients are not looked at here (a read for every element
 * would cost): `imageBetween` is asked when the colour alone would hide
 * the text.
 * @param {Look} look
 * @returns {Backdrop}
 */
const backdropOf = (look) => {
  if (look.backdrop === undefined) {
    const colour = look.style.backgroundColor;
    const own = rgba(colour);
    look.backdrop = own && own[3] >= 0.9 ? { colour, by: look.element } : look.up ? backdropOf(look.up) : PAGE_WHITE;
  }
  return look.backdrop;
};

/**
 * Whether a background image or gradient is painted behind an element's
 * text, by it or an ancestor up to `by` (the top where null).
 * @param {Element | null} element
 * @param {Element | null} by
 */
const imageBetween = (element, by) => {
  for (let at = element; at; at = at === by ? null : parentOf(at)) {
    if (styleOf(at).backgroundImage !== "none") return true;
  }
  return false;
};

/**
 * The scale of an element's transform, times its ancestors' (the larger of
 * the two axes', so a rotation or a skew never makes it look small). An
 * inline box cannot be transformed.
 * @param {Look} look
 * @returns {number}
 */
const transformScaleOf = (look) => {
  if (look.transformScale < 0) {
    let scale = 1;
    const transform = look.display === "inline" ? "none" : look.style.transform;
    if (transform !== "none") {
      const found = /^matrix(?:3d)?\(\s*([-\d.e]+)[,\s]+([-\d.e]+)[,\s]+([-\d.e]+)[,\s]+([-\d.e]+)/.exec(transform);
      if (found) {
        const [a, b, c, d] = found.slice(1).map(Number);
        scale = Math.max(Math.hypot(a, b), Math.hypot(c, d));
      }
    }
    look.transformScale = look.up ? scale * transformScaleOf(look.up) : scale;
  }
  return look.transformScale;
};

/**
 * The size an element's letters are drawn at, in CSS pixels: its font
 * size, zoomed and scaled by its and its ancestors' transforms. An inline
 * box's own box is as tall as its letters as drawn (its line height does
 * not stretch it, and no style sets its height), so there that box says,
 * with no transform read up the tree.
 * @param {Element} element
 */
const drawnTextSize = (element) => {
  const look = lookOf(element);
  const size = look.size();
  if (look.display === "inline") {
    // (No box at all: none of it is drawn.)
    const box = rectOf(element);
    return hasArea(box) ? box.height : 0;
  }
  const zoom = /** @type {Element & {currentCSSZoom?: number}} */ (element).currentCSSZoom;
  return size * (typeof zoom === "number" ? zoom : 1) * transformScaleOf(look);
};

/**
 * Whether the block an element's text is laid out in indents it off the
 * page (text-indent applies to a block's first line, inline boxes and all).
 * @param {Look} look
 * @returns {boolean}
 */
const indentedAway = (look) => {
  if (look.indent === undefined) {
    if (BLOCK_DISPLAY.test(look.display)) {
      const indent = look.style.textIndent;
      look.indent = indent !== "0px" && parseFloat(indent) < -999;
    } else {
      look.indent = look.up ? indentedAway(look.up) : false;
    }
  }
  return look.indent;
};

/**
 * Text of an element a person cannot read although the element shows (its
 * box, its background, its other children): indented away (image
 * replacement: a logo, an icon button's word), transparent (its colour, or
 * its fill where no gradient shows through it), drawn in a colour hardly
 * different from what it sits on, or smaller than two pixels as drawn.
 * Colour, fill and size are inherited, so an element's own computed values
 * say; an indent only moves the text of the block it is set on.
 * @param {Element} element
 */
const textHidden = (element) => {
  const look = lookOf(element);
  if (look.textHidden === undefined) look.textHidden = judgeText(look);
  return look.textHidden;
};

/** @param {Look} look */
const judgeText = (look) => {
  if (indentedAway(look)) return true;
  if (drawnTextSize(look.element) < SMALLEST_TEXT) return true;
  // The fill is the colour the letters are drawn in (its computed value
  // is the colour where none is set); a transparent one shows the
  // background through the letters (a gradient's, for text the
  // background is clipped to), not nothing.
  const style = look.style;
  const drawn = style.webkitTextFillColor || style.color;
  const behind = backdropOf(look);
  const seen = legible(drawn, behind.colour);
  if (seen === "clear") return false;
  // Letters that cannot be read show a gradient the background is clipped
  // to; letters faint on a colour may stand out on an image over it.
  if (style.backgroundClip === "text" && style.backgroundImage !== "none") return false;
  return seen === "transparent" || !imageBetween(look.element, behind.by);
};

/**
 * How letters drawn in `drawn` on `behind` (computed colours) read:
 * transparent, too close to what they sit on, or clear. Pages draw most of
 * their text in a few colours on a few backgrounds, so each pair is judged
 * once.
 * @type {(drawn: string, behind: string) => "clear" | "transparent" | "faint"}
 */
const legible = (() => {
  /** @type {Map<string, "clear" | "transparent" | "faint">} */
  const judged = new Map();
  return (drawn, behind) => {
    const key = drawn + "|" + behind;
    let answer = judged.get(key);
    if (answer === undefined) {
      answer = "clear";
      const color = rgba(drawn);
      const backdrop = rgba(behind);
      if (color && color[3] < FAINTEST) answer = "transparent";
      else if (color && backdrop) {
        const [a, b] = [luminance(color), luminance(backdrop)];
        if ((Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) < LEAST_CONTRAST) answer = "faint";
      }
      judged.set(key, answer);
    }
    return answer;
  };
})();

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
    if (!up || up.element === document.documentElement || up.element === document.body) {
      look.bounds = UNBOUNDED;
    } else {
      const above = boundsOf(up);
      look.bounds = up.overflow === "visible" ? above : {
        clip: narrowed(above.clip, up, ["hidden", "clip"]),
        scroll: narrowed(above.scroll, up, ["auto", "scroll"]),
      };
    }
  }
  return look.bounds;
};

/**
 * `edges` narrowed to the padding box of `look`'s element along each axis
 * whose overflow is one of `kinds`.
 * @param {Edges | null} edges
 * @param {Look} look
 * @param {string[]} kinds
 * @returns {Edges | null}
 */
const narrowed = (edges, look, kinds) => {
  const alongX = kinds.includes(look.style.overflowX);
  const alongY = kinds.includes(look.style.overflowY);
  if (!alongX && !alongY) return edges;
  const rect = rectOf(look.element);
  const box = /** @type {HTMLElement} */ (look.element);
  const left = rect.left + box.clientLeft, top = rect.top + box.clientTop;
  const own = {
    left: alongX ? left : -Infinity,
    right: alongX ? left + (box.clientWidth || rect.width) : Infinity,
    top: alongY ? top : -Infinity,
    bottom: alongY ? top + (box.clientHeight || rect.height) : Infinity,
  };
  if (!edges) return own;
  return {
    left: Math.max(edges.left, own.left), right: Math.min(edges.right, own.right),
    top: Math.max(edges.top, own.top), bottom: Math.min(edges.bottom, own.bottom),
  };
};

/**
 * Whether an element's box lies wholly outside `edges` (or `edges` leave
 * nothing).
 * @param {Element} element
 * @param {Edges | null} edges
 */
const outside = (element, edges) => {
  if (!edges) return false;
  const rect = rectOf(element);
  return rect.right <= edges.left || rect.left >= edges.right || rect.bottom <= edges.top || rect.top >= edges.bottom ||
    edges.right - edges.left < 1 || edges.bottom - edges.top < 1;
};

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

/**
 * Whether what an element draws is out of sight although nothing in its
 * style says hidden: pushed off the page (by its or an ancestor's
 * transform, too), or in a subtree the browser skips drawing
 * (`content-visibility: hidden`, a closed <details>; `checkVisibility`
 * knows, and is quick where a page has none).
 * @param {Element} element
 */
const drawnAway = (element) => offPage(rectOf(element)) ||
  (typeof element.checkVisibility === "function" && !element.checkVisibility());

/**
 * Whether a person sees the text of `node` (a text node): its element is
 * shown and not clipped away, the text drawn so it can be read, and (a
 * text node right inside a closed <details>) shown at all.
 * @param {Text} node
 */
const textSeen = (node) => {
  const parent = node.parentElement;
  if (!parent) return false;
  if (parent.tagName === "DETAILS" && !(/** @type {HTMLDetailsElement} */ (parent)).open) return false;
  // (checkVisibility answers for the elements inside, not for the text.)
  if (styleOf(parent).contentVisibility === "hidden") return false;
  return !isHidden(parent) && !ariaHidden(parent) && !textHidden(parent) && !clippedAway(parent) && !drawnAway(parent);
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
 * nothing of it to see (clipped away by its ancestors' boxes too).
 * @type {((element: Element) => Shown | null) & { answers: Map<Element, Shown | null> }}
 */
const shownRect = perElement((element) => {
  if (!isHidden(element)) {
    const own = rectOf(element);
    if (hasArea(own)) return clippedAway(element) || drawnAway(element) ? null : { rect: own, via: element };
    const content = contentRect(element);
    return content ? { rect: content, via: element } : null;
  }
  const input = /** @type {HTMLInputElement} */ (element);
  if (element.tagName === "INPUT" && ["checkbox", "radio", "file"].includes(input.type) && input.labels) {
    for (const label of input.labels) {
      if (!isHidden(label) && hasArea(rectOf(label)) && !clippedAway(label) && !drawnAway(label)) return { rect: rectOf(label), via: label };
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
  rectOf.answers.clear();
  shownRect.answers.clear();
};
