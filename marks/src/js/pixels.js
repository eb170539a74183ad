// @ts-check
// pixels.js: text in view judged by what the browser draws. Style decides
// only what is certainly not painted (visibility.js's `textMayShow`); every
// other text node in the viewport is a candidate ("run"), and pictures
// decide: `marks` pictures the viewport as drawn, then again with the
// candidates taken out of the paint by CSS custom highlights that the
// inspector sheet paints transparent (`paint`), and compares. A run whose
// pixels do not change is not seen. The page notices nothing: a highlight
// changes no element, no attribute, no computed style of any element and
// fires no event.
//
// So a walk that judges by pixels answers in two steps. Its first answer
// holds every candidate in its lines and names, with the runs' boxes
// (`runs`); the walk is kept (`registry.pending`) with what finishes it:
// `paint` takes groups of runs out of the paint for the pictures, and
// `finish` leaves out what the pictures found hidden and answers again
// (lines written again, names worked out again), from the same walk. Text
// beyond the viewport is judged by its style as before (painted.js).

/** Whether this walk takes text in view as candidates for pictures. */
const judging = Boolean(options.judge);
if (judging) {
  registry.judged = true;
  registry.unseen = new WeakSet();
  registry.kept = new WeakMap();
}
/**
 * How far beyond the top viewport's top and bottom edges the pictures
 * reach, in CSS pixels: as far as `options.pictured` allows where the top
 * document goes (the answer's `reach`); none in a walk of a frame of its
 * own.
 */
const reach = (() => {
  const wanted = judging && window.top === window ? Math.max(0, Math.floor(options.pictured || 0)) : 0;
  if (!wanted) return { above: 0, below: 0 };
  const root = document.documentElement;
  const height = Math.max(root ? root.scrollHeight : 0, document.body ? document.body.scrollHeight : 0);
  return {
    above: Math.min(wanted, Math.max(0, Math.floor(scrollY))),
    below: Math.min(wanted, Math.max(0, Math.floor(height - scrollY - innerHeight))),
  };
})();

/**
 * Set once no pictures could be taken: what is in view is judged by its
 * style after all, as beyond it.
 */
let judgedByStyle = false;

/** The candidates, each text node once, by its index. @type {Text[]} */
const pixelRuns = [];
/** @type {Map<Text, number>} */
const pixelIndex = new Map();
/**
 * Each candidate as the answer gives it: its id (`textIdOf`), its boxes
 * in the top viewport (x, y, width, height, one after another), its
 * letters (not counting spaces), and the path of the frame its document
 * is in.
 * @typedef {{i: number, r: number[], c: number, p: number[], in?: true, g?: true, o?: true, s?: true}} WireRun
 *   `in`: painted in rather than taken out (`takesOut`); `g`: painted in,
 *   its letters' ink a background clipped to them; `o`: reaching
 *   beyond what clips it (`beyondClip`); `s`: cut by edges that scroll
 *   wherever it is shown (`scrollCut`)
 * @type {WireRun[]}
 */
const pixelWire = [];
/**
 * What the pictures found of the candidates, once told (`judged`): the
 * hidden ones. `null` before: a candidate counts as seen.
 * @type {Set<Text> | null}
 */
let pixelHidden = null;

/**
 * Where each same-origin document the walk entered is: its offset in the
 * top viewport and its frame path (the walk's own document is `offset`
 * and the request's path).
 * @type {Map<Document, {offset: Point, path: number[]}>}
 */
const placeOfDocument = new Map();

/** @param {Document} doc */
const placeOf = (doc) => placeOfDocument.get(doc) || { offset, path: options.path || [] };

/**
 * A text node's boxes in the top viewport, flattened, if any part of it
 * lies in what the pictures show (the viewport, and as far as they
 * `reach` above and below it) and in its own frame's viewport; else
 * `null`.
 * @param {Text} node
 * @returns {number[] | null}
 */
const boxesInView = (node) => {
  const doc = node.ownerDocument;
  const view = doc.defaultView;
  const place = placeOf(doc);
  const frameWidth = view ? view.innerWidth : viewport.w;
  const frameHeight = view ? view.innerHeight : viewport.h;
  // (The top document's own viewport is the top viewport.)
  const own = doc === document ? reach : { above: 0, below: 0 };
  const parent = flatParentOf(node);
  // What its scrolling and clipping boxes draw of it now (not what lies
  // within the margin beyond their edges, which no picture shows).
  const shown = parent ? boundsOf(lookOf(parent)).shown : null;
  /** @type {number[]} */
  const boxes = [];
  let seen = false;
  for (const rect of textRects(node)) {
    const { x, y, w: width, h: height } = placedRect(rect, place.offset);
    if (rect.right > 0 && rect.bottom > -own.above && rect.left < frameWidth && rect.top < frameHeight + own.below &&
        x + width > 0 && y + height > -reach.above && x < viewport.w && y < viewport.h + reach.below &&
        !outsideEdges(rect, shown)) seen = true;
    boxes.push(Math.round(x * 10) / 10, Math.round(y * 10) / 10, Math.round(width * 10) / 10, Math.round(height * 10) / 10);
  }
  return seen ? boxes : null;
};

/** How far beyond the pictures an element's box must lie to hold no text they show. */
const FAR_SLACK = 100;

/**
 * Whether a text node lies so far above or below what the pictures show
 * (`reach` beyond the top viewport, and `FAR_SLACK` more) that they need
 * not measure it: its element's box says, where its content does not
 * overflow it (an inline box is its fragments' union). Measuring a text's
 * own boxes costs, and a full page holds thousands far from the pictures,
 * which go by their style as before.
 * @param {Text} node
 */
const farFromPictures = (node) => {
  const element = flatParentOf(node);
  if (!element) return false;
  const top = placeOf(node.ownerDocument).offset.y;
  const rect = rectOf(element);
  const far = rect.bottom + top < -reach.above - FAR_SLACK || rect.top + top > viewport.h + reach.below + FAR_SLACK;
  if (!far) return false;
  if (lookOf(element).display === "inline") return true;
  return element.scrollHeight <= element.clientHeight + 1;
};

/**
 * The events after which a page may paint otherwise with no change to its
 * document: scrolling, a new size, a resource or font loaded, focus and
 * hover moving, a field's value, a popover or details toggled, animations.
 */
const REPAINTS = ["scroll", "resize", "load", "error", "focusin", "focusout", "pointerover", "pointerout",
  "input", "change", "toggle", "transitionrun", "transitionend", "animationstart", "animationend",
  "animationiteration", "fullscreenchange"];

/**
 * Counts, in the registry, every change of a document (or shadow root)
 * that can change what the page paints, from now on: what the pictures
 * judged of its text holds while the count stays. Watched from
 * tabwright's world, where the page sees no observer and no listener.
 * @param {Document | ShadowRoot} root
 */
const watch = (root) => {
  if (registry.watched.has(root)) return;
  registry.watched.add(root);
  const changed = () => { registry.changes++; };
  // A document that mutates as it is read moves (`moving`); an event
  // alone (a key typed, the pointer moved) only changes it.
  const mutated = () => {
    changed();
    registry.changedAt = performance.now();
  };
  new MutationObserver(mutated).observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
  if (root.nodeType !== 9) return;
  const doc = /** @type {Document} */ (root);
  const view = doc.defaultView;
  if (view) for (const type of REPAINTS) view.addEventListener(type, changed, { capture: true, passive: true });
  if (doc.fonts) doc.fonts.addEventListener("loadingdone", changed);
};

/** A page that changed this recently (ms) is changing still. */
const STILL_FOR = 35;

/**
 * Whether the page moves by itself (an animation running, a video
 * playing, its document changing as it is read): what the pictures judged
 * may not hold a moment.
 * @param {Document} doc
 */
const moving = (doc) => {
  if (performance.now() - registry.changedAt < STILL_FOR) return true;
  try {
    if (doc.getAnimations().some((animation) => animation.playState === "running")) return true;
  } catch (old) { /* no Web Animations */ }
  return Array.from(doc.querySelectorAll("video")).some((video) => !(/** @type {HTMLVideoElement} */ (video)).paused);
};

/**
 * A text node's id in this document, given the first time it is asked.
 * @param {Text} node
 */
const textIdOf = (node) => {
  let id = registry.texts.get(node);
  if (id === undefined) {
    id = registry.nextText++;
    registry.texts.set(node, id);
  }
  return id;
};

/** Letters that are not spaces. */
const LETTERS = /\S/gu;

/**
 * Notes a text node in view as a candidate for the pictures, once.
 * @param {Text} node @param {number[]} boxes
 */
const noteRun = (node, boxes) => {
  if (pixelIndex.has(node)) return;
  pixelIndex.set(node, pixelRuns.length);
  pixelRuns.push(node);
  const letters = (node.nodeValue || "").match(LETTERS);
  /** @type {WireRun} */
  const wire = { i: textIdOf(node), r: boxes, c: letters ? letters.length : 0, p: placeOf(node.ownerDocument).path };
  if (!takesOut(node)) {
    wire.in = true;
    const parent = flatParentOf(node);
    if (parent && backgroundInLetters(parent)) wire.g = true;
  }
  if (beyondClip(node)) wire.o = true;
  if (scrollCut(node)) wire.s = true;
  pixelWire.push(wire);
};

/**
 * How a text node of a line is judged: "hidden" when it is certainly not
 * painted; "pixels" when it is in view and the pictures will judge it (it
 * is noted as a candidate, and counts as seen until they have); else, as
 * beyond the viewport or where no pictures are taken, by its style
 * (`textFate`). Once the pictures have spoken, a candidate is what they
 * said.
 * @param {Text} node
 * @returns {"seen" | "faint" | "hidden" | "pixels"}
 */
const runFate = (node) => {
  if (pixelHidden !== null && pixelIndex.has(node)) return pixelHidden.has(node) ? "hidden" : "seen";
  if (judging && pixelHidden === null && hasLetters(node) && !farFromPictures(node)) {
    if (!textMayShow(node)) return "hidden";
    const boxes = !paintSkipped(node) && highlightReaches(node) && boxesInView(node);
    if (boxes) {
      noteRun(node, boxes);
      return "pixels";
    }
  }
  return textFate(node);
};

/**
 * Whether the browser skips painting a text node for now, as far from
 * view (`content-visibility: auto`): a picture shows nothing of it, so its
 * style judges it, as what lies beyond the pictures.
 * @param {Text} node
 */
const paintSkipped = (node) => {
  const parent = flatParentOf(node);
  return parent !== null && typeof parent.checkVisibility === "function" &&
    !parent.checkVisibility(/** @type {any} */ ({ contentVisibilityAuto: true }));
};

/**
 * Whether a highlight takes a text node's paint out whole: not where its
 * element paints a background through its letters (gradient text), nor
 * letters seen by their shadow alone, which a highlight leaves, nor SVG
 * text where the engine's highlights leave its letters. Those are
 * painted in instead, in a colour of the pictures' own, which shows
 * whether their place is seen (nothing covers, clips or masks it); their
 * style then says how they read there.
 * @param {Text} node
 */
const takesOut = (node) => {
  const parent = flatParentOf(node);
  return parent !== null && !backgroundInLetters(parent) && !shadowOnly(parent) &&
    (parent.namespaceURI !== SVG_NS || HIGHLIGHTS_TAKE_SVG_OUT);
};

/**
 * Whether a highlight takes SVG text's letters out: Gecko's does; Blink's
 * paints its background there but leaves the letters drawn (Chromium 156),
 * so there SVG text is painted under.
 */
const HIGHLIGHTS_TAKE_SVG_OUT = typeof CSS !== "undefined" && CSS.supports("-moz-appearance", "none");

/**
 * Whether a highlight reaches text that stands right in a shadow root (as
 * a template writes it, in no element of the tree): Blink's does; Gecko's
 * leaves it drawn (Firefox 153), so there such text is judged by its
 * style, as beyond the pictures.
 * @param {Text} node
 */
const highlightReaches = (node) => !HIGHLIGHTS_TAKE_SVG_OUT || node.parentElement !== null;

/**
 * Whether a text node holds letters to see: spaces alone are judged by
 * the letters around them.
 * @param {Text} node
 */
const hasLetters = (node) => /\S/u.test(node.nodeValue || "");

/**
 * Whether the pictures are the compositor's (`composited: false`: Firefox
 * paints its pictures apart from its compositor, which alone draws
 * backdrop filters and hides a backface turned away): where not, text a
 * box with a backdrop filter lies over, and text a 3-D transform turns,
 * are judged by their style once the pictures have spoken
 * (`Gathered.finish`).
 */
const composited = options.composited !== false;

/**
 * The runs of `nodes` the compositor alone draws right: those a 3-D
 * transform turns (their element or an ancestor's: a backface turned
 * away), and those a box with a backdrop filter lies over at any point
 * they are judged at (`samplePoints`), hit-tested with every
 * `pointer-events` set aside (`withEveryPointer`, once per document);
 * beyond the viewport, where no hit test reaches, the positioned boxes
 * with one that the walk looked at, by their extents.
 * @param {Text[]} nodes
 * @returns {Text[]}
 */
const notComposited = (nodes) => {
  /** @type {Map<Document, Text[]>} */
  const byDocument = new Map();
  for (const node of nodes) {
    if (!node.isConnected) continue;
    const list = byDocument.get(node.ownerDocument);
    if (list) list.push(node);
    else byDocument.set(node.ownerDocument, [node]);
  }
  /** @type {Text[]} */
  const under = [];
  for (const [doc, list] of byDocument) {
    /** @type {Set<Document | ShadowRoot>} */
    const roots = new Set([doc]);
    for (const node of list) roots.add(/** @type {Document | ShadowRoot} */ (node.getRootNode()));
    withEveryPointer(Array.from(roots), () => {
      for (const node of list) {
        const parent = flatParentOf(node);
        if (!parent) continue;
        if (turnedIn3d(lookOf(parent))) {
          under.push(node);
          continue;
        }
        const root = /** @type {Document | ShadowRoot} */ (node.getRootNode());
        const covered = samplePoints(textRects(node)).some(([x, y]) => {
          if (!onScreen(doc, x, y)) return blurredAbove(doc, parent, x, y);
          for (const element of root.elementsFromPoint(x, y)) {
            if (holdsFlat(element, parent)) return false;
            const filter = lookOf(element).style.backdropFilter;
            if (filter && filter !== "none") return true;
          }
          return false;
        });
        if (covered) under.push(node);
      }
    });
  }
  return under;
};

/**
 * Whether an element or an ancestor is turned by a 3-D transform.
 * @param {Look} look
 */
const turnedIn3d = (look) => {
  for (let at = /** @type {Look | null} */ (look); at; at = at.up) {
    if (at.display === "inline") continue;
    const own = ownTransform(at.style);
    if (own && !own.matrix.is2D) return true;
  }
  return false;
};

/**
 * Whether a positioned box with a backdrop filter that the walk looked at
 * (not one `parent` holds) lies over the point `x, y` of `doc`'s
 * viewport, beyond it.
 * @param {Document} doc @param {Element} parent @param {number} x @param {number} y
 */
const blurredAbove = (doc, parent, x, y) => {
  let found = false;
  eachStacking((look, element) => {
    if (found || element.ownerDocument !== doc || holdsFlat(element, parent)) return;
    const filter = look.style.backdropFilter;
    if (!filter || filter === "none") return;
    const box = rectOf(element);
    found = x >= box.left && x <= box.right && y >= box.top && y <= box.bottom;
  });
  return found;
};

/**
 * The candidates a name being worked out (`Gathered.describe`) met, to
 * work it out again once the pictures have spoken; `null` when no name is.
 * @type {Text[] | null}
 */
let nameRuns = null;

/**
 * Whether the text of a text node goes into a name: as `runFate` judges
 * a line's, but beyond the viewport by its letters alone (`textHidden`: a
 * name is made of what assistive technology reads, less what no one sees
 * of it).
 * @param {Text} node @param {Element} parent
 */
const nameTextSeen = (node, parent) => {
  if (judgedByStyle) return !textHidden(parent);
  if (pixelHidden !== null && pixelIndex.has(node)) return !pixelHidden.has(node);
  if (registry.judged && hasLetters(node) && !farFromPictures(node) && textMayShow(node)) {
    const boxes = !paintSkipped(node) && highlightReaches(node) && boxesInView(node);
    if (boxes && judging && pixelHidden === null) {
      noteRun(node, boxes);
      if (nameRuns) nameRuns.push(node);
      return true;
    }
    // A call after the pictures (an action checking the name it was told)
    // judges the text as they did.
    if (boxes) return !registry.unseen.has(node);
  }
  return !textHidden(parent);
};

/**
 * Whether an element is hidden to a person as far as its style can say
 * where pictures judge its text: in view, only if it certainly is not
 * painted (`elementMayShow`); elsewhere, by the whole judge (`isHidden`).
 * @param {Element} element
 */
const hiddenByStyle = (element) => {
  if (!registry.judged || judgedByStyle) return isHidden(element);
  const place = placeOf(element.ownerDocument);
  const rect = rectOf(element);
  const { x, y, w, h } = placedRect(rect, place.offset);
  const inView = x + w > 0 && y + h > -reach.above && x < viewport.w && y < viewport.h + reach.below;
  return inView ? !elementMayShow(element) : isHidden(element);
};

/** @typedef {Window & typeof globalThis} View  a window, with its realm's CSS and classes */
/** @type {Set<View>} The windows a highlight of this walk is in. */
const highlighted = new Set();
/** A highlight drawn above every other a page may register. */
const TOP_PRIORITY = 2147483647;
/** The name of the highlight that paints runs in, after the one that takes them out. */
const PAINTED_IN = "i";
/** The name of the highlight that paints under runs (a background), after the one that takes them out. */
const PAINTED_UNDER = "s";

/**
 * A window's own registry of highlights, read through its getter rather
 * than as `view.CSS.highlights`: in Firefox's sandbox that expression,
 * once run for the top window, answered for a frame's window with the top
 * document's registry (a frame's highlight then replaced the top's, and
 * no text of the top came out of the paint).
 * @param {View} view
 * @returns {HighlightRegistry}
 */
const highlightsOf = (view) => {
  const css = view.CSS;
  const own = Object.getOwnPropertyDescriptor(css, "highlights");
  return own && own.get ? own.get.call(css) : css.highlights;
};

/**
 * Takes the candidates `ids` out of the paint, in every document they are
 * in, as the highlight `name` (which the inspector sheet paints
 * transparent), or paints them in (`name` + `PAINTED_IN`, in a colour the
 * sheet gives) where a highlight cannot take them out (`takesOut`), or
 * under them (`name` + `PAINTED_UNDER`, a background of that colour) where
 * it cannot colour them either (SVG text in Blink); an empty list takes
 * the highlights away.
 * @param {string} name @param {number[]} ids
 * @returns {{views: number, ids: number}}
 */
const paintRuns = (name, ids) => {
  const painted = name + PAINTED_IN, under = name + PAINTED_UNDER;
  for (const view of highlighted) unpaint(view, name);
  highlighted.clear();
  registry.painted = null;
  /** @type {Map<View, {out: Range[], in: Range[], under: Range[]}>} */
  const byView = new Map();
  for (const id of ids) {
    const node = pixelRuns[id];
    const view = node && node.isConnected ? /** @type {View | null} */ (node.ownerDocument.defaultView) : null;
    if (!node || !view) continue;
    const range = node.ownerDocument.createRange();
    range.selectNodeContents(node);
    let ranges = byView.get(view);
    if (!ranges) {
      ranges = { out: [], in: [], under: [] };
      byView.set(view, ranges);
    }
    const parent = flatParentOf(node);
    (!pixelWire[id].in ? ranges.out : parent && parent.namespaceURI === SVG_NS ? ranges.under : ranges.in).push(range);
  }
  for (const [view, ranges] of byView) {
    for (const [kind, list] of /** @type {[string, Range[]][]} */ ([[name, ranges.out], [painted, ranges.in], [under, ranges.under]])) {
      if (!list.length) continue;
      const highlight = new view.Highlight(...list);
      highlight.priority = TOP_PRIORITY;
      highlightsOf(view).set(kind, highlight);
    }
    highlighted.add(view);
  }
  if (highlighted.size) registry.painted = { name, views: Array.from(highlighted, (view) => new WeakRef(view)) };
  return { views: byView.size, ids: ids.length };
};

/**
 * Takes the highlights named `name` away from a window.
 * @param {View} view @param {string} name
 */
const unpaint = (view, name) => {
  try {
    const highlights = highlightsOf(view);
    highlights.delete(name);
    highlights.delete(name + PAINTED_IN);
    highlights.delete(name + PAINTED_UNDER);
  } catch (gone) { /* a frame that went */ }
};

// What a probe cut short (a dialog opened under it, its call ran out of
// time, the tab navigated away and came back from its cache) left taken
// out of the paint is put back by whatever call comes next into this
// document. The frame on screen may show it out still: the document
// counts as changed just now, so the next pictures are of frames drawn
// after this, each proved.
if (registry.painted) {
  const { name, views } = registry.painted;
  for (const ref of views) {
    const view = ref.deref();
    if (view) unpaint(/** @type {View} */ (view), name);
  }
  registry.painted = null;
  registry.changes++;
  registry.changedAt = performance.now();
}

/**
 * Where the walk of the last judging request waits for the pictures, in
 * this document's registry (see the file's head), called by `marks`
 * directly, not through the walker: `paint` takes runs out of the paint
 * (`paintRuns`), `finish` answers once the pictures have spoken
 * (`Gathered.finish`: the candidates not seen, or `null` where no
 * pictures could be taken; the faint controls with nothing drawn where
 * they are; the candidates the pictures could not judge, which moved
 * between them, judged by their style; the candidates painted in whose
 * place is seen, judged by how their letters read) and lets the walk go.
 * @typedef {object} Pending
 * @property {(name: string, ids: number[]) => {views: number, ids: number}} paint
 * @property {(hidden: number[] | null, bare: number[], undecided: number[], placed: number[], cut: [number, number[]][]) => SnapshotAnswer} finish
 */

