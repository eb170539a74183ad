// @ts-check
// visibility.js: what a person sees of an element and of its text. One
// judge, shared by the snapshot's numbering and reading (marks) and the
// selector calls (locate.js), so what the snapshot leaves out is what a
// selector call will not press.
//
// Where the backend can picture the paint, text in the viewport is judged
// by its pixels (marks' pixels.js and seen.rs): for it this file is only
// the pre-filter, `textMayShow`, which rules out what is certainly not
// painted (not rendered, no box, faded to nothing, clipped away) and hands
// the rest on as candidates. What follows judges the rest: text beyond the
// viewport, a backend without pictures, and the selector calls.
//
// Hidden means hidden to the eye, judged by what the browser paints rather
// than by a list of CSS tricks:
//
// - not rendered: the hidden attribute, display, content-visibility, a
//   closed <details>, the fallback inside <canvas>, <video>, <progress> and
//   the like, a shadow host's children that no slot shows, SVG that only
//   defines (<defs>, <clipPath>, <mask>, …);
// - not drawn readably: an opacity or a filter's opacity that leaves less
//   than a tenth through every ancestor; a transform, per axis and through
//   every ancestor (the `scale`, `rotate` and `translate` properties too, 3-D
//   turns, a backface turned away, perspective), that squashes letters
//   below two pixels; a font that draws the letters without ink or under
//   two pixels (a webfont's blank glyphs, a size adjusted to nothing); a
//   clip path or a mask that shows nothing; a filter that blurs or
//   flattens the letters into what they sit on;
// - cut away: a clipping box thinner than three pixels, or wholly outside
//   what its ancestors' overflow boxes show, or off the page;
// - unreadable against what is behind it: every colour is resolved by the
//   browser itself (painted on a 1×1 canvas and read back, whatever its
//   syntax: oklch(), lab(), color(), color-mix()), and letters are compared
//   with the backdrop composed from every layer under them (colours with
//   their alpha, gradients by their stops, images by their pixels where
//   they can be read, the canvas colour the page's colour scheme gives),
//   through their blend mode and filters; stroked or shadowed letters count
//   by their stroke and shadow;
// - painted over: what lies on top of a text run is found by hit-testing
//   its own boxes (`paintedOver`), every element's pointer-events set aside
//   for the test, and judged by what it paints there (a background, an
//   image's or canvas's pixels, an SVG shape's fill, a blurring backdrop
//   filter, a positioned ::before or ::after); what hit-testing cannot see
//   (box shadows, outlines) and text beyond the viewport are judged from
//   the boxes of the positioned elements (`lidsOver`).
//
// Over-hiding is the same fault as under-hiding: text in `inert` or
// `aria-hidden` regions is drawn and is read; light text on a dark
// backdrop of any colour syntax or scheme is read.
//
// The judge is seven files, joined in this order at the start of a page
// script, before the script that uses it, inside one function (so each
// call judges the page afresh): this one (an element's look), shown.js
// (what is rendered and where, text as its element's look has it), colours.js,
// shapes.js (clip paths, masks, transforms), letters.js (reading letters
// against their backdrop), lines.js (a first line or a highlight
// restyled) and paint.js (what paints over what). A walk over
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

/**
 * An element's box in the viewport; for one of `display: contents`, which
 * has none (the browser answers zeros), the box around what it holds,
 * which is drawn in its parent's.
 */
const rectOf = perElement((element) => {
  const rect = element.getBoundingClientRect();
  if (rect.width !== 0 || rect.height !== 0 || rect.x !== 0 || rect.y !== 0 || lookOf(element).display !== "contents") return rect;
  const range = element.ownerDocument.createRange();
  range.selectNodeContents(shadowOf(element) || element);
  return range.getBoundingClientRect();
});

/**
 * Calls `visit` with each child node of `node`.
 * @param {Node} node
 * @param {(child: ChildNode) => void} visit
 */
const eachChild = (node, visit) => {
  for (let child = node.firstChild; child; child = child.nextSibling) visit(child);
};

/**
 * What DevTools handed to tabwright's world (`Driver::hand_over`, asked by
 * marks): the closed shadow roots of the hosts the page's world listed,
 * the accessibility facts of the last handover, by element, and (if any
 * were asked) the words the elements' pseudo-elements show, counters
 * counted. Kept on this world's window under the key marks' receiving
 * functions write, out of the page's reach; empty where nothing was
 * handed over.
 * @type {{roots: WeakMap<Element, ShadowRoot>, facts: WeakMap<Element, any>,
 *   generated?: WeakMap<Element, {marker: string, before: string, after: string}>}}
 */
const handed = /** @type {any} */ (window).__tabwrightHanded || { roots: new WeakMap(), facts: new WeakMap() };

/**
 * An element's shadow root: its open one, or the closed one handed over.
 * @param {Element} element
 * @returns {ShadowRoot | null}
 */
const shadowOf = (element) => element.shadowRoot || handed.roots.get(element) || null;

/**
 * The slot that shows a shadow host's child: its `assignedSlot`, which is
 * null for a closed root's slots, or else the slot of a closed root handed
 * over that shows it.
 * @param {Node} node
 * @returns {HTMLSlotElement | null}
 */
const slotOf = (node) => {
  const slot = /** @type {Element | Text} */ (node).assignedSlot;
  if (slot) return slot;
  const parent = node.parentElement;
  const root = parent && !parent.shadowRoot ? handed.roots.get(parent) : undefined;
  if (!root) return null;
  for (const candidate of Array.from(root.querySelectorAll("slot"))) {
    if (candidate.assignedNodes().includes(/** @type {ChildNode} */ (node))) return candidate;
  }
  return null;
};

/**
 * The element a node is drawn inside: the slot that shows it, for a
 * shadow host's child; its parent element; or the host of the shadow root
 * it is the top of (the flat tree, as the browser renders it).
 * @param {Node} node
 * @returns {Element | null}
 */
const flatParentOf = (node) => {
  const slotted = slotOf(node);
  if (slotted) return slotted;
  if (node.parentElement) return node.parentElement;
  // Not `instanceof ShadowRoot`: an element of a same-origin frame's
  // document belongs to that frame's realm, whose classes are not ours.
  const root = node.getRootNode();
  return root !== node && /** @type {ShadowRoot} */ (root).host ? /** @type {ShadowRoot} */ (root).host : null;
};

/**
 * The element's parent in the flat tree (see `flatParentOf`).
 * @param {Element} element
 * @returns {Element | null}
 */
const parentOf = (element) => flatParentOf(element);

/**
 * Whether `node` is a shadow host's child that no slot of its shadow tree
 * shows: the browser does not render it.
 * @param {Node} node
 */
const unslotted = (node) => {
  const parent = node.parentElement;
  return Boolean(parent && shadowOf(parent) && !slotOf(node));
};

/**
 * Whether `outer` is `inner` or holds it, across shadow boundaries.
 * @param {Element} outer
 * @param {Element} inner
 */
const holdsFlat = (outer, inner) => {
  for (let at = /** @type {Element | null} */ (inner); at; at = parentOf(at)) if (at === outer) return true;
  return false;
};

/** A textarea this thin (CSS px) along an axis draws nothing a person reads. */
const INPUT_THINNEST = 3;
/** How far up from a hidden textarea its editor is looked for. */
const EDITOR_DEPTH = 3;
/** The least box (CSS px) an editor a person types into has: a line of a few words. */
const EDITOR_LEAST = { width: 40, height: 16 };

/**
 * The editor a textarea takes the typing for, where it is a code editor's
 * hidden input (Ace, Monaco and CodeMirror 5 draw their own lines and keep
 * a textarea of a pixel or so, or one a box of a few pixels at most clips
 * away, under the caret): the nearest of its ancestors with a box a person types into.
 * Null for any other field.
 * @param {Element} element
 * @returns {Element | null}
 */
const editorOf = (element) => element.tagName === "TEXTAREA" ? editorOfTextarea(element) : null;

/** @type {(element: Element) => Element | null} */
const editorOfTextarea = perElement((element) => {
  // (Rendered, to be focused and typed into: not a value kept out of sight.)
  if ((/** @type {HTMLElement} */ (element)).tabIndex < 0 || !element.getClientRects().length ||
      getComputedStyle(element).visibility !== "visible") return null;
  // (Thin itself, or clipped away by a dot of a box around it: not a field
  // a collapsed section hides, whose box is as wide as the section.)
  const own = rectOf(element);
  const around = element.parentElement ? rectOf(element.parentElement) : own;
  if (Math.min(own.width, own.height) > INPUT_THINNEST &&
      !(Math.max(around.width, around.height) <= INPUT_THINNEST && clippedAway(element))) return null;
  let at = element.parentElement;
  for (let depth = 0; at && depth < EDITOR_DEPTH; depth++, at = at.parentElement) {
    const rect = rectOf(at);
    if (rect.width >= EDITOR_LEAST.width && rect.height >= EDITOR_LEAST.height) return at;
  }
  return null;
});

/**
 * Whether what a hit test at a point of an element answered is the
 * element, as a click there would take it: the element, what it holds
 * (slotted content too), its editor (`editorOf`), or the host of a shadow
 * tree the element is part of (a component's slotted words answer as their
 * host; a root's hit test sees no further).
 * @param {Element} hit @param {Element} element
 */
const hitWithin = (hit, element) => {
  if (holdsFlat(element, hit)) return true;
  // (A code editor's hidden input takes what a click on its editor does.)
  const editor = editorOf(element);
  if (editor && holdsFlat(editor, hit)) return true;
  for (let root = element.getRootNode(); root instanceof ShadowRoot; root = root.host.getRootNode()) {
    if (root.host === hit) return true;
  }
  return false;
};

/** The displays that start a line of their own. */
const BLOCK_DISPLAY = /^(block|flex|grid|list-item|table|table-row|table-caption|flow-root)$/;

/** @param {DOMRect | {width: number, height: number}} rect */
const hasArea = (rect) => rect.width > 0 && rect.height > 0;

/** Less than this much of an element's opacity left, and it is not seen. */
const FAINTEST = 0.1;
/**
 * Text drawn at a font size under this (CSS pixels) cannot be read: its
 * capitals stand under 3.5 px (a 4 px font is a grey smudge on the screen,
 * a 5 px one is read with effort).
 */
const SMALLEST_TEXT = 5;
/** Letters whose tallest ink stands under this (CSS pixels) cannot be read: a 5 px font's. */
const SMALLEST_INK = 3.5;
/** A box squashed so that a 16 px font's letters in it stand under this is a line, no shape. */
const FLATTEST = 2;
/** Letters given less room than this along their line, on average (CSS pixels), overlap into a smear. */
const NARROWEST_LETTER = 1.5;
/** Text whose contrast with what it sits on is below this is not seen (1 is none). */
const LEAST_CONTRAST = 1.15;
/** A clipping box thinner than this (CSS pixels) along an axis shows nothing readable. */
const THINNEST = 3;
/** A `clip` of no area at all (`rect(0 0 0 0)`, commas or none). */
const CLIPPED_TO_NOTHING = /rect\(\s*0(px)?,?\s+0(px)?,?\s+0(px)?,?\s+0(px)?\s*\)/;
/** A frame drawn smaller than this along an axis shows nothing readable. */
const SMALLEST_FRAME = 8;
/** What paints over text with at least this much opacity hides it. */
const OPAQUE = 0.9;
/** A blur of at least this many pixels, or this share of the letters' size, makes them unreadable. */
const BLURRED_PX = 2.5;
const BLURRED_SHARE = 0.2;

/** Elements that paint a picture (or another document) over their box. */
const PICTURE_TAGS = new Set(["IMG", "CANVAS", "VIDEO", "IFRAME", "OBJECT", "EMBED"]);
/** Elements whose children are fallback content, never drawn. */
const FALLBACK_TAGS = new Set(["CANVAS", "VIDEO", "AUDIO", "PROGRESS", "METER", "IFRAME", "FRAME", "OBJECT", "EMBED"]);
/** Of FALLBACK_TAGS, the gauges: they draw their value (a bar), read as a picture's words are. */
const GAUGE_TAGS = new Set(["PROGRESS", "METER"]);
/** SVG elements that define what others draw: their content is never drawn itself. */
const SVG_UNDRAWN = new Set(["defs", "clipPath", "mask", "pattern", "symbol", "marker", "linearGradient",
  "radialGradient", "filter", "metadata", "title", "desc", "style", "script"]);
const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * Whether a style clips its background to its letters (`background-clip:
 * text`, prefixed or not).
 * @param {CSSStyleDeclaration} style
 */
const clipsToText = (style) => (style.backgroundClip || style.webkitBackgroundClip || "").includes("text");

/** @typedef {{left: number, top: number, right: number, bottom: number}} Edges */
/**
 * What lies behind an element's text: the span of colours composed from
 * every layer down to an opaque one (or the canvas), the element that
 * paints the top opaque layer (null for the canvas), and whether a layer
 * on the way could not be read.
 * @typedef {{span: Span, by: Element | null, unknown: boolean}} Backdrop
 */
/**
 * What an element's ancestors' overflow boxes let it be seen in: `clip`,
 * for good (`overflow: hidden`, `clip`); `scroll`, now and within
 * `scrollMargin` of the edges (`auto`, `scroll`: a person scrolls the box
 * to see the rest, and what lies just beyond its edge is read, as the
 * page's just beyond the viewport is); `shown`, what is drawn now through
 * both; null where none is.
 * @typedef {{clip: Edges | null, scroll: Edges | null, shown: Edges | null}} Bounds
 */

/** @type {Bounds} */
const UNBOUNDED = { clip: null, scroll: null, shown: null };

/**
 * How far beyond a scrolling box's edges its content counts as read (the
 * snapshot's margin beyond the viewport, given by marks; none for the
 * selector calls).
 */
let scrollMargin = 0;

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
    // overflow does not apply to an inline box; it does to an SVG
    // viewport (an `<svg>` in a line, a nested one, a `foreignObject`),
    // which clips what it holds though its display is inline.
    /** @type {string} */
    this.overflow = this.display === "inline" && element.namespaceURI !== SVG_NS ? "visible" : style.overflow;
    const visibility = style.visibility;
    // Visibility is inherited, so its computed value is the element's
    // own say: a child made visible in a hidden parent is drawn. What has
    // no box hides all it holds.
    /** @type {boolean} Its own visibility draws nothing of it. */
    this.invisible = visibility === "hidden" || visibility === "collapse";
    const gone = this.display === "none";
    // (Most elements have no attributes at all, and then none is asked.)
    const attributed = element.hasAttributes();
    const hiddenAttribute = attributed && element.hasAttribute("hidden");
    /** @type {boolean} Inside an `aria-hidden` subtree (`ariaHidden`). */
    this.aria = (up !== null && up.aria) || (attributed && element.getAttribute("aria-hidden") === "true");
    /** @type {boolean} Inside an `inert` subtree: drawn, but no person can act on it. */
    this.inert = (up !== null && up.inert) || (attributed && element.hasAttribute("inert"));
    /** @type {boolean} Hidden from assistive technology with all it holds. */
    this.a11yAll = (up !== null && up.a11yAll) || this.aria || hiddenAttribute || gone;
    /** @type {boolean} Hidden from assistive technology too (`a11yHidden`). */
    this.a11y = this.a11yAll || this.invisible;
    /** @type {number | undefined} The opacity left of it through its ancestors (`opacity`). */
    this.opacityLeft = undefined;
    /** @type {number} Its font size, in CSS pixels (-1: not read yet). */
    this.fontSize = -1;
    /** @type {Backdrop | undefined} */
    this.backdrop = undefined;
    /** @type {number} How much its and its ancestors' transforms shrink letters (-1: not read yet). */
    this.letterScale = -1;
    /** @type {boolean | undefined} */
    this.indent = undefined;
    /** @type {Bounds | undefined} */
    this.bounds = undefined;
    /** @type {"seen" | "faint" | "hidden" | undefined} */
    this.textFate = undefined;
    /** @type {string | undefined} Its computed filter (`filter`). */
    this.filterValue = undefined;
    /** @type {{name: string, amount: number}[] | undefined} Its own filter's steps. */
    this.filterSteps = undefined;
    /** @type {string | undefined} Its computed mix-blend-mode (`blend`). */
    this.blendValue = undefined;
    /** @type {boolean | undefined} A filter or blend mode that changes its letters (`effectsOf`). */
    this.effects = undefined;
    /** @type {boolean | undefined} A filter on it or an ancestor (`filteredUp`). */
    this.filtered = undefined;
    /** @type {Lid[] | undefined} Its positioned ::before and ::after boxes that paint. */
    this.pseudoLids = undefined;
    const tag = element.tagName;
    /**
     * Which of its children it draws, known once for all of them.
     * @type {"all" | "summary" | "none" | "slotted"}
     */
    this.draws =
      // A closed <details> shows only its summary.
      tag === "DETAILS" && !(/** @type {HTMLDetailsElement} */ (element)).open ? "summary" :
      // Fallback content is never drawn.
      FALLBACK_TAGS.has(tag) ? "none" :
      // A host draws its shadow tree and what its slots show.
      shadowOf(element) ? "slotted" : "all";
    /** @type {boolean} Not rendered, by what is known without reading more. */
    this.unrendered = hiddenAttribute || gone || (up !== null && up.draws !== "all" && !up.drawsChild(tag, element)) ||
      (element.namespaceURI === SVG_NS && SVG_UNDRAWN.has(element.localName));
    /** @type {boolean | undefined} (`hidden`) */
    this.hiddenKnown = undefined;
    /** @type {boolean | undefined} (`notRendered`) */
    this.notRenderedKnown = undefined;
    /** @type {boolean | undefined} (`lettersClipBackground`) */
    this.clipsKnown = undefined;
    /** @type {boolean | undefined} (`hiddenBesidesFaint`) */
    this.besidesFaintKnown = undefined;
    /** @type {boolean | undefined} Drawn in a box fixed to the viewport (`pinnedToView`). */
    this.pinned = undefined;
    /** @type {boolean} Its own transform draws it elsewhere (known once its letters were judged). */
    this.transformed = false;
    /** @type {Look | null | undefined} The box of negative z-index it is painted in (`sinkOf`; undefined: not asked yet). */
    this.sink = undefined;
    if (this.position !== "static") stackingLooks.push(this);
  }

  /**
   * Whether it draws a child its `draws` does not draw whole. A slotted
   * child's flat parent is its slot, and a shadow tree's top element has
   * no parent element: what reaches a host with a parent element is one
   * of its children that no slot shows.
   * @param {string} tag  the child's tag name
   * @param {Element} child
   */
  drawsChild(tag, child) {
    if (this.draws === "summary") return tag === "SUMMARY";
    if (this.draws === "slotted") return child.parentElement === null;
    return this.draws === "all";
  }

  /**
   * Not rendered, it or an ancestor (`mayShow`): what no picture can
   * show, known without judging how it is drawn.
   * @returns {boolean}
   */
  get notRendered() {
    return this.invisible || this.boxless;
  }

  /**
   * Not rendered with all it holds, it or an ancestor (no box; see
   * `notRendered`, less visibility).
   * @returns {boolean}
   */
  get boxless() {
    if (this.notRenderedKnown === undefined) {
      this.notRenderedKnown = this.unrendered || (this.up !== null && this.up.boxless);
    }
    return this.notRenderedKnown;
  }

  /**
   * Hidden for another reason than how faint it and its ancestors are
   * (`shownRect`'s transparent controls): not rendered, clipped, masked,
   * of no size, pushed away.
   * @returns {boolean}
   */
  get hiddenBesidesFaint() {
    return this.invisible || this.besidesFaintWith;
  }

  /**
   * `hiddenBesidesFaint` with all it holds (less its visibility).
   * @returns {boolean}
   */
  get besidesFaintWith() {
    if (this.besidesFaintKnown === undefined) {
      this.besidesFaintKnown = this.unrendered || (this.up !== null && this.up.besidesFaintWith) ||
        this.judge(this.style, true);
    }
    return this.besidesFaintKnown;
  }

  /**
   * Whether it or an ancestor paints its background through its letters
   * (`background-clip: text`): taking the letters out of the paint
   * leaves that background's letter shapes (`backgroundInLetters`).
   * @returns {boolean}
   */
  get lettersClipBackground() {
    if (this.clipsKnown === undefined) {
      this.clipsKnown = clipsToText(this.style) || (this.up !== null && this.up.lettersClipBackground);
    }
    return this.clipsKnown;
  }

  /**
   * Hidden to a person (`isHidden`): judged when first asked, since
   * beyond the scope a snapshot reads an element's display is all that is
   * asked of most.
   * @returns {boolean}
   */
  get hidden() {
    return this.invisible || this.hiddenWith;
  }

  /**
   * Hidden with all it holds (`hidden`, less its visibility).
   * @returns {boolean}
   */
  get hiddenWith() {
    if (this.hiddenKnown === undefined) {
      this.hiddenKnown = this.unrendered || (this.up !== null && this.up.hiddenWith) || this.judge(this.style);
    }
    return this.hiddenKnown;
  }

  /**
   * The opacity left of it through its ancestors, its filter's opacity()
   * too.
   * @returns {number}
   */
  get opacity() {
    if (this.opacityLeft === undefined) {
      let opacity = parseFloat(this.style.opacity);
      if (!Number.isFinite(opacity)) opacity = 1;
      if (this.filter() !== "none") {
        for (const step of this.filters()) if (step.name === "opacity") opacity *= step.amount;
      }
      this.opacityLeft = this.up ? opacity * this.up.opacity : opacity;
    }
    return this.opacityLeft;
  }

  /** Its font size, in CSS pixels. */
  size() {
    if (this.fontSize < 0) this.fontSize = parseFloat(this.style.fontSize) || 0;
    return this.fontSize;
  }

  /** Its computed filter, read once. */
  filter() {
    if (this.filterValue === undefined) this.filterValue = this.style.filter;
    return this.filterValue;
  }

  /** Its computed mix-blend-mode, read once. */
  blend() {
    if (this.blendValue === undefined) this.blendValue = this.style.mixBlendMode;
    return this.blendValue;
  }

  /** Its own filter's steps. */
  filters() {
    if (this.filterSteps === undefined) this.filterSteps = filterSteps(this.filter());
    return this.filterSteps;
  }

  /**
   * Hidden by what only its own style says (once its parent, attributes
   * and display are not): faded out through its ancestors, shrunk to
   * nothing, clipped or masked away, pushed off the page. The ones that
   * only matter in some cases are read only then.
   * @param {CSSStyleDeclaration} style
   */
  judge(style, opacityAside = false) {
    const element = this.element;
    if (!opacityAside && this.opacity < FAINTEST) return true;
    // A leaf whose font is of no size draws no words; one that paints
    // nothing else draws nothing (a slot or a shadow host draws what is
    // slotted or its shadow tree, in their own fonts; a picture, a field
    // or a painted box, `font-size: 0` set on a row to close the gaps
    // between its boxes, still shows).
    if (element.firstElementChild === null && !shadowOf(element) && element.localName !== "slot" && this.size() === 0 &&
        !paintsBeyondText(element, style)) return true;
    if (clipsAll(style.clipPath, element)) return true;
    const mask = style.maskImage || style.webkitMaskImage;
    if (mask && mask !== "none" && masksAll(mask, element, style.maskSize || style.webkitMaskSize)) return true;
    const position = this.position;
    // clip applies to absolutely positioned boxes only.
    if ((position === "absolute" || position === "fixed") && style.clip !== "auto" &&
        CLIPPED_TO_NOTHING.test(style.clip)) return true;
    const clips = this.overflow !== "visible";
    if (clips || position !== "static") {
      // Only what clips or is positioned can be shrunk or pushed away
      // without a transform (which moves what is drawn, not the layout:
      // `drawnAway` judges by what is drawn, where it matters).
      const box = rectOf(element);
      const thin = clips && (box.width < THINNEST || box.height < THINNEST);
      if (thin || offPage(box)) return true;
    }
    return false;
  }
}
