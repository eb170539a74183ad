// @ts-check
// painted.js: what the browser painted decides, once a walk has seen the
// page: the paint pass over every text run written (`paintPass`), what
// lies over an element's centre (`coverage`), and a heading's text as runs
// (`headingRuns`).

/**
 * A text node as a line holds it: the element it is drawn in, whether its
 * ancestors' backdrop makes it faint (to be judged again against what is
 * painted under it), whether pictures judge it (`pixel`: in view, see
 * pixels.js) rather than the paint pass, whether it was left out, and
 * what is kept of it where the pictures found part of it unseen (`kept`).
 * Words CSS writes in an element beyond the screen are a run too (`box`:
 * the element's, judged by the boxes painted over it; `node` a text of
 * those words in no document), and in view where their place is known
 * (`place`, `[x, y, w, h]` in the top viewport: judged by what the
 * pictures show drawn there).
 * A run the page forces to run against its letters' own direction is
 * drawn mirrored (`mirrored`: read in the order drawn); one its style
 * cases (`cased`, a `text-transform`) is read cased so.
 * @typedef {{node: Text, parent: Element, faint: boolean, dropped: boolean, pixel: boolean, kept?: string,
 *   mirrored?: true, cased?: string, after?: string, box?: {left: number, top: number, right: number, bottom: number},
 *   place?: [number, number, number, number]}} Run
 * @typedef {string | Run} LinePart
 * @typedef {{item: Item, parts: LinePart[], keep?: (text: string) => boolean}
 *   | {item: Item, pieces: {index: number, parts: LinePart[]}[], pre: boolean}} Written
 *   a line (or heading) written, with the test its text must still pass
 *   once what no one sees is left out (a search's), or a reading's block
 */

/**
 * A heading's text as runs (each text node a person may see, by its
 * element's look), with spaces between, for the paint pass.
 * @param {Element} heading
 * @returns {LinePart[]}
 */
const headingRuns = (heading) => {
  /** @type {LinePart[]} */
  const parts = [];
  /** @param {Node} node */
  const visit = (node) => {
    if (node.nodeType === 3) {
      const text = /** @type {Text} */ (node);
      const parent = flatParentOf(text);
      if (!parent || !(text.nodeValue || "").trim()) return;
      const fate = runFate(text);
      if (fate === "hidden") return;
      parts.push(runOf(text, parent, fate), " ");
      return;
    }
    if (node.nodeType !== 1 && node.nodeType !== 11) return;
    const element = /** @type {Element} */ (node);
    if (node.nodeType === 1 && (unread(element) || hiddenByStyle(element))) return;
    const shadow = node.nodeType === 1 ? shadowOf(element) : null;
    if (shadow) eachChild(shadow, visit);
    else if (node.nodeType === 1 && element.localName === "slot") {
      const assigned = (/** @type {HTMLSlotElement} */ (element)).assignedNodes();
      if (assigned.length) assigned.forEach(visit);
      else eachChild(element, visit);
    } else eachChild(node, visit);
  };
  visit(heading);
  return parts;
};

/**
 * A text node as a line holds it, judged so (`runFate`): where its style
 * judges it, what of it lies beyond the boxes that clip it left out
 * (`styleKept`); what the pictures judge is cut once they have spoken.
 * @param {Text} node @param {Element} parent
 * @param {"seen" | "faint" | "pixels"} fate
 * @returns {Run}
 */
const runOf = (node, parent, fate) => {
  /** @type {Run} */
  const run = { node, parent, faint: fate === "faint", dropped: false, pixel: fate === "pixels" };
  const kept = fate === "pixels" ? null : styleKept(node);
  if (kept !== null) run.kept = kept;
  if (drawnMirrored(node, parent)) run.mirrored = true;
  const casing = casingOf(parent);
  if (casing) run.cased = casing;
  if (casing === "capitalize") run.after = joinedBefore(node);
  return run;
};

/** The text of a line's run, as far as it is kept, in the order drawn. @param {Run} run */
const runText = (run) => {
  const text = asCased(run.dropped ? "" : run.kept !== undefined ? run.kept : run.node.nodeValue || "", run.cased, run.after);
  return run.mirrored ? mirror(text) : text;
};

/** @param {LinePart} part @returns {part is Run} */
const isRun = (part) => typeof part !== "string";

/** @param {LinePart[]} parts */
const joinParts = (parts) => parts.map((part) => (typeof part === "string" ? part : runText(part))).join("");

/** Whether a line's run was left out, or part of it. @param {LinePart} part */
const altered = (part) => isRun(part) && (part.dropped || part.kept !== undefined);

/** @param {string} text @param {boolean} pre */
const blockText = (text, pre) => cut(pre ? text : text.replace(/\s+/g, " "), LINE_LIMIT);

/**
 * The paint pass: once the walk has seen the page, judges every text run
 * written by what the browser paints. On screen, each run's boxes are
 * hit-tested (`paintedAt`, every element's pointer-events set aside where
 * one that lets the pointer through could lie over text): a run that
 * something paints over at every point, or that reads faint against what
 * is really painted under it, is left out; beyond the screen, what the
 * positioned boxes' extents and the ancestors' backdrop say. An element
 * whose centre lies under something that paints over it but lets clicks
 * through is left out too (a person sees the cover, not the element).
 * Lines are written again without what was left out.
 * A frame beyond the screen that a positioned box lies over whole is left
 * out with all it holds (one on screen was judged by hit tests already).
 * @param {Written[]} written
 * @param {{element: Element, record: ElementRecord, cx: number, cy: number}[]} centres
 * @param {{frame: Element, items: Item[]}[]} frames
 * @returns {{items: Set<Item>, elements: Set<number>}}
 */
const paintPass = (written, centres, frames) => {
  /** @type {Run[]} */
  const runs = [];
  for (const entry of written) {
    const lists = "pieces" in entry ? entry.pieces.map((piece) => piece.parts) : [entry.parts];
    for (const parts of lists) for (const part of parts) if (isRun(part) && !part.pixel) runs.push(part);
  }
  /** @type {Set<Item>} */
  const droppedItems = new Set();
  /** @type {Set<number>} */
  const droppedElements = new Set();
  if (!runs.length && !centres.length && !frames.length) return { items: droppedItems, elements: droppedElements };
  const lids = lidsOver();
  for (const { frame, items } of frames) {
    const rect = rectOf(frame);
    if (onScreen(frame.ownerDocument, rect.left + rect.width / 2, rect.top + rect.height / 2)) continue;
    if (!lids.some((lid) => lidCovers(lid, rect, frame))) continue;
    for (const item of items) {
      droppedItems.add(item);
      if (item.k === "e") droppedElements.add(item.id);
    }
  }
  // Something positioned that lets the pointer through (and whatever it
  // holds, which inherits that) is seen only with pointer-events set aside.
  let passing = false;
  eachStacking((look) => {
    if (!passing && look.style.pointerEvents === "none") passing = true;
  });
  /** @type {Set<Document | ShadowRoot>} */
  const roots = new Set();
  const opaqueBackdrops = backdropsOf();
  const judge = () => {
    for (const run of runs) {
      // Under an opaque popover backdrop, where no hit test reaches.
      if (opaqueBackdrops(run.parent.ownerDocument).length && !withinTopLayer(run.parent)) {
        run.dropped = true;
        continue;
      }
      // Generated words beyond the screen: under a box painted over their
      // element whole (not their own, which they are drawn on).
      const box = run.box;
      if (box) {
        if (lids.some((lid) => !(lid.by === run.parent && lid.kind === "pseudo") && lidCovers(lid, box, run.parent)) ||
          sunkUnder(run.parent, box)) run.dropped = true;
        continue;
      }
      const rects = textRects(run.node);
      if (!rects.length) {
        if (run.faint) run.dropped = true;
        continue;
      }
      const doc = run.parent.ownerDocument;
      // (Words right in a shadow root are hit-tested in their host's: Gecko's
      // shadow root finds no element where no element of it is drawn.)
      const root = /** @type {Document | ShadowRoot} */ ((run.node.parentElement ? run.node : run.parent).getRootNode());
      const points = samplePoints(rects).filter(([x, y]) => onScreen(doc, x, y));
      if (!points.length) {
        const box = {
          left: Math.min(...rects.map((r) => r.left)), top: Math.min(...rects.map((r) => r.top)),
          right: Math.max(...rects.map((r) => r.right)), bottom: Math.max(...rects.map((r) => r.bottom)),
        };
        if (run.faint || lids.some((lid) => lidCovers(lid, box, run.parent)) || sunkUnder(run.parent, box)) run.dropped = true;
        continue;
      }
      let seen = false;
      for (const [x, y] of points) {
        const { covered, under } = paintedAt(root, run.parent, x, y);
        if (covered) continue;
        const point = { left: x - 0.5, top: y - 0.5, right: x + 0.5, bottom: y + 0.5 };
        if (lids.some((lid) => (lid.kind === "shadow" || lid.kind === "outline") && lidCovers(lid, point, run.parent))) continue;
        const fate = under ? judgeText(lookOf(run.parent), under) : run.faint ? "faint" : "seen";
        if (fate === "seen") {
          seen = true;
          break;
        }
      }
      if (!seen) run.dropped = true;
    }
    if (!passing) return;
    for (const { element, record, cx, cy } of centres) {
      if (record.covered) continue;
      // A control shown through its label (a radio hidden for styling) is
      // what that label paints: its background covers no part of it.
      const shown = shownRect(element);
      // One too faint to see is judged by what is drawn where it is
      // (pixels.js): what paints over it there is its drawing (a tick
      // its wrapper's pseudo-element draws), not a cover.
      if (shown && shown.ghost && judging) continue;
      const own = shown ? shown.via : element;
      const root = /** @type {Document | ShadowRoot} */ (own.getRootNode());
      if (paintedAt(root, own, cx, cy, true).covered) droppedElements.add(record.id);
    }
  };
  if (passing) {
    for (const run of runs) {
      // (A generated run's words are in no document: its element's root.)
      roots.add(/** @type {Document | ShadowRoot} */ ((run.box ? run.parent : run.node).getRootNode()));
      roots.add(run.node.ownerDocument);
    }
    for (const { element } of centres) {
      roots.add(/** @type {Document | ShadowRoot} */ (element.getRootNode()));
      roots.add(element.ownerDocument);
    }
    withEveryPointer(Array.from(roots), judge);
  } else {
    judge();
  }
  recompose(written, droppedItems);
  return { items: droppedItems, elements: droppedElements };
};

/**
 * Writes again the lines (and a reading's blocks) that lost a run, adding
 * to `droppedItems` those left with nothing (or, for a search, with
 * nothing that still matches).
 * @param {Written[]} written @param {Set<Item>} droppedItems
 */
const recompose = (written, droppedItems) => {
  for (const entry of written) {
    if ("pieces" in entry) {
      let changed = false;
      for (const piece of entry.pieces) {
        if (!piece.parts.some(altered) || entry.item.k !== "b") continue;
        entry.item.parts[piece.index] = blockText(joinParts(piece.parts), entry.pre);
        changed = true;
      }
      if (changed && entry.item.k === "b" && !entry.item.parts.some((part) => typeof part === "number" || part.trim())) droppedItems.add(entry.item);
    } else if (entry.parts.some(altered) && (entry.item.k === "t" || entry.item.k === "h")) {
      const text = cut(clean(joinParts(entry.parts)), LINE_LIMIT);
      if (!text || (entry.keep && !entry.keep(text))) droppedItems.add(entry.item);
      else entry.item.text = text;
    }
  }
};

/**
 * The open popovers of a document whose `::backdrop` is opaque, asked
 * once per document: a popover's backdrop takes no hit test (a click goes
 * through it), but an opaque one hides the page beneath it from sight.
 * @returns {(doc: Document) => Element[]}
 */
const backdropsOf = () => {
  /** @type {Map<Document, Element[]>} */
  const known = new Map();
  return (doc) => {
    let found = known.get(doc);
    if (!found) {
      found = [];
      try {
        for (const open of doc.querySelectorAll(":popover-open")) {
          const colour = rgba(getComputedStyle(open, "::backdrop").backgroundColor);
          if (colour && colour[3] >= OPAQUE) found.push(open);
        }
      } catch (unsupported) { /* no popovers */ }
      known.set(doc, found);
    }
    return found;
  };
};

/**
 * Whether an element is in the top layer or inside what is.
 * @param {Element} element
 */
const withinTopLayer = (element) => {
  for (let at = /** @type {Element | null} */ (element); at; at = parentOf(at)) if (inTopLayer(at)) return true;
  return false;
};

/**
 * Something on top of an element's centre (a banner, a backdrop): says
 * what, on its record. Bar odd margins and transforms, only a positioned
 * box or the top layer can lie over another, so a centre is hit-tested only
 * under one of those (a hit test costs more the more the page holds); a
 * click checks again where it lands.
 * @param {{element: Element, record: ElementRecord, cx: number, cy: number}[]} centres
 */
const coverage = (centres) => {
  /** @type {Element[]} */
  const positioned = [];
  eachStacking((layout, element) => {
    if (layout.position !== "static") positioned.push(element);
  });
  // A modal dialog's backdrop, or an element in fullscreen, lies over
  // the whole rest of its document.
  /** @type {Map<Document, boolean>} */
  const overAll = new Map();
  /** @param {Document} doc */
  const underTopLayer = (doc) => {
    if (!overAll.has(doc)) {
      let modal = false;
      try { modal = doc.querySelector(":modal") !== null; } catch (unsupported) { modal = false; }
      overAll.set(doc, modal || Boolean(doc.fullscreenElement));
    }
    return overAll.get(doc);
  };
  const opaqueBackdrops = backdropsOf();
  for (const { element, record, cx, cy } of centres) {
    const doc = element.ownerDocument;
    const behind = opaqueBackdrops(doc);
    if (behind.length && !withinTopLayer(element)) {
      const popover = behind[behind.length - 1];
      record.covered = popover.tagName.toLowerCase() + (popover.id ? "#" + popover.id : "");
      continue;
    }
    const under = underTopLayer(element.ownerDocument) || positioned.some((other) => {
      if (other === element || other.ownerDocument !== element.ownerDocument ||
          other.contains(element) || element.contains(other)) return false;
      const rect = rectOf(other);
      return cx >= rect.left && cx <= rect.right && cy >= rect.top && cy <= rect.bottom;
    });
    // (One that lets clicks through, a carousel's arrow at its end, is not
    // under what a click reaches instead; one that does only as the whole
    // page does, under a modal's overlay, is.)
    if (!under || (getComputedStyle(element).pointerEvents === "none" && !pageLetsThrough(doc))) continue;
    const hit = hitAt(element, cx, cy);
    const labels = (/** @type {HTMLInputElement} */ (element)).labels;
    if (hit && !hitWithin(hit, element) && !hit.contains(element) &&
        !(labels && Array.from(labels).some((label) => label.contains(hit)))) {
      record.covered = hit.tagName.toLowerCase() + (hit.id ? "#" + hit.id : "");
    }
  }
};

/**
 * Whether a document's whole page lets clicks through (`pointer-events:
 * none` on its body, as kits' modals set it under their overlay).
 * @param {Document} doc
 */
const pageLetsThrough = (doc) => Boolean(doc.body) && getComputedStyle(/** @type {HTMLElement} */ (doc.body)).pointerEvents === "none";

/** Where checks of generated words by the pictures are numbered from: apart from elements' local ids. */
const GENERATED_CHECKS = 2 ** 30;

/**
 * Words CSS writes in an element, as a line holds them: beyond the screen,
 * where no hit test asked whether a cover lies over them, a run the paint
 * pass judges by the boxes painted over the element (those that come
 * after it in the page are not known yet when the walk meets it); where
 * the pictures judge (`offset`: the element's document's place in the top
 * viewport) and show the place of the words (`generatedPlace`), a run
 * seen only where something is drawn there (no highlight takes generated
 * words out of the paint); else the words.
 * @param {string} text @param {Element} element @param {string} which
 * @param {Point | null} offset
 * @returns {LinePart}
 */
const generatedPart = (text, element, which, offset) => {
  if (!/[\p{L}\p{N}]/u.test(text)) return text;
  const run = () => ({ node: element.ownerDocument.createTextNode(text), parent: element, faint: false, dropped: false, pixel: false });
  const place = offset && generatedPlace(text, element, which);
  const box = place && offset ? toBox(place, offset) : null;
  if (box && wholePictured(box)) return { ...run(), place: [box.x, box.y, box.w, box.h] };
  const rect = rectOf(element);
  if (onScreen(element.ownerDocument, rect.left + rect.width / 2, rect.top + rect.height / 2)) return text;
  return { ...run(), box: { left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom } };
};

/**
 * Where words CSS writes before or after an element's content lie, in its
 * viewport, as a box that holds them all, where that can be told, left to
 * right and not turned: drawn in the flow as text, beside the content's
 * first or last text on its line where they fit there (or lines do not
 * wrap) and nothing else comes between, else in the element's own box
 * where its content stays within it (moved by its offsets where it is
 * positioned relative); or positioned absolute, in the box the browser
 * gives it. Cut to what clips them.
 * @param {string} text @param {Element} element @param {string} which
 * @returns {{left: number, top: number, width: number, height: number} | null}
 */
const generatedPlace = (text, element, which) => {
  if (which === "::marker" || shadowOf(element)) return null;
  const style = getComputedStyle(element, which);
  if (style.cssFloat !== "none" || style.transform !== "none" || style.direction !== "ltr" ||
      style.writingMode !== "horizontal-tb") return null;
  /** @type {{edges: Edges, clipped: Element | null} | null} */
  let found = null;
  if (style.position === "absolute") found = positionedBox(text, element, style);
  else if (style.display === "inline" && (style.position === "static" || style.position === "relative")) {
    const edges = besideText(text, element, which === "::after", style) || wholeBox(element);
    const [x, y] = style.position === "relative" ? [parseFloat(style.left) || 0, parseFloat(style.top) || 0] : [0, 0];
    if (edges) found = { edges: { left: edges.left + x, right: edges.right + x, top: edges.top + y, bottom: edges.bottom + y }, clipped: element };
  }
  if (!found) return null;
  const { edges } = found;
  const look = found.clipped && lookOf(found.clipped);
  const clip = look && narrowed(boundsOf(look).clip, look, ["hidden", "clip"]);
  const cut = clip ? { left: Math.max(edges.left, clip.left), right: Math.min(edges.right, clip.right),
    top: Math.max(edges.top, clip.top), bottom: Math.min(edges.bottom, clip.bottom) } : edges;
  return { left: cut.left, top: cut.top, width: Math.max(0, cut.right - cut.left), height: Math.max(0, cut.bottom - cut.top) };
};

/**
 * An absolutely positioned pseudo-element's box: its offsets and size as
 * the browser resolves them for a box it drew, from its containing
 * block's padding box (or the page's origin), held a little wide for
 * words that run past it; with the element whose clips it is under (its
 * containing block: those between do not clip it; none for the page's,
 * whose edge is the viewport's). Null where its containing block is
 * turned, filtered or inline.
 * @param {string} text @param {Element} element @param {CSSStyleDeclaration} style
 * @returns {{edges: Edges, clipped: Element | null} | null}
 */
const positionedBox = (text, element, style) => {
  /** @type {Element | null} */
  let block = element;
  while (block) {
    const look = lookOf(block).style;
    if (look.position !== "static" || look.transform !== "none" || look.filter !== "none" ||
        look.perspective !== "none" || /paint|layout|strict|content/.test(look.contain)) break;
    block = flatParentOf(block);
  }
  const px = (/** @type {string} */ value) => parseFloat(value) || 0;
  const size = [style.left, style.top, style.width, style.height].map(parseFloat);
  if (size.some(Number.isNaN)) return null;
  const view = element.ownerDocument.defaultView || window;
  let origin = { x: -view.scrollX, y: -view.scrollY };
  if (block) {
    const look = lookOf(block).style;
    if (look.transform !== "none" || look.filter !== "none" || look.display.startsWith("inline")) return null;
    const rect = rectOf(block);
    origin = { x: rect.left + px(look.borderLeftWidth) - block.scrollLeft, y: rect.top + px(look.borderTopWidth) - block.scrollTop };
  }
  const left = origin.x + size[0] + px(style.marginLeft), top = origin.y + size[1] + px(style.marginTop);
  const width = size[2] + px(style.paddingLeft) + px(style.paddingRight) + px(style.borderLeftWidth) + px(style.borderRightWidth);
  const height = size[3] + px(style.paddingTop) + px(style.paddingBottom) + px(style.borderTopWidth) + px(style.borderBottomWidth);
  const font = parseFloat(style.fontSize) || 16;
  const right = Math.max(left + width, /^(nowrap|pre)$/.test(style.whiteSpace) ? left + px(style.paddingLeft) + wordsWidth(text, style) * 1.2 + font / 2 : 0);
  return { edges: { left, top, right, bottom: top + height + font / 2 }, clipped: block };
};

/**
 * How wide generated words are drawn in their own style: their letters
 * measured in their font (cased as drawn), and the spacing added to them.
 * @param {string} text @param {CSSStyleDeclaration} style
 */
const wordsWidth = (text, style) => {
  const size = parseFloat(style.fontSize) || 16;
  const cased = asCased(text, style.textTransform);
  const context = inkCanvas(`${style.fontStyle} ${style.fontWeight} ${size}px ${style.fontFamily}`);
  const measured = context ? context.measureText(cased).width : text.length * size;
  const spacing = (parseFloat(style.letterSpacing) || 0) * text.length + (parseFloat(style.wordSpacing) || 0) * (text.split(" ").length - 1);
  return measured + Math.max(0, spacing);
};

/**
 * An element's box, where what it holds lies within it: an inline one's
 * (it wraps its pieces), or one whose content does not overflow it, or
 * overflows it where it shows (its scroll size spans what overflows).
 * @param {Element} element
 * @returns {Edges | null}
 */
const wholeBox = (element) => {
  const html = /** @type {HTMLElement} */ (element);
  const look = lookOf(element).style;
  const rect = rectOf(element);
  const fits = look.display.startsWith("inline") ||
    (html.scrollWidth <= html.clientWidth + 1 && html.scrollHeight <= html.clientHeight + 1);
  if (fits) return { left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom };
  if (look.overflowX !== "visible" || look.overflowY !== "visible") return null;
  return { left: rect.left, top: rect.top, right: rect.left + Math.max(rect.width, html.scrollWidth),
    bottom: rect.top + Math.max(rect.height, html.scrollHeight) };
};

/**
 * Where generated words lie beside an element's first (or last, `after`)
 * text, on its line, where they fit there or lines do not wrap; null
 * where that cannot be told.
 * @param {string} text @param {Element} element @param {boolean} after
 * @param {CSSStyleDeclaration} style  the words' own
 * @returns {Edges | null}
 */
const besideText = (text, element, after, style) => {
  const beside = edgeText(element, after);
  const rects = beside ? textRects(beside) : [];
  if (!rects.length) return null;
  const line = after ? rects[rects.length - 1] : rects[0];
  const size = parseFloat(style.fontSize) || 16;
  // The words' own margins, borders and padding take room on the line
  // too; a margin that pulls them back is not followed.
  const sides = ["marginLeft", "borderLeftWidth", "paddingLeft", "paddingRight", "borderRightWidth", "marginRight"]
    .map((side) => parseFloat(/** @type {any} */ (style)[side]) || 0);
  if (sides.some((side) => side < 0)) return null;
  const measured = wordsWidth(text, style) + sides.reduce((sum, side) => sum + side, 0);
  let block = /** @type {Element | null} */ (element);
  while (block && /^(inline|contents)/.test(lookOf(block).style.display)) block = flatParentOf(block);
  if (!block) return null;
  // The line's room: the block's content box. Words that would not fit
  // beside the text run on to another line, where lines wrap.
  const outer = rectOf(block), look = lookOf(block).style;
  const start = outer.left + (parseFloat(look.borderLeftWidth) || 0) + (parseFloat(look.paddingLeft) || 0);
  const end = outer.right - (parseFloat(look.borderRightWidth) || 0) - (parseFloat(look.paddingRight) || 0);
  const wraps = !/^(nowrap|pre)$/.test(style.whiteSpace);
  if (wraps && (after ? line.right + measured > end + 1 : line.left - measured < start - 1)) return null;
  // (Held a little wide: letter spacing, a fallback font.) Their height
  // is the line's, grown by how much larger their letters are than the
  // text's: no further, or the ink of the lines above and below (a
  // descender, a capital) would pass for theirs.
  const width = measured * 1.2 + size / 2;
  const left = after ? line.right : line.left - width, right = after ? line.right + width : line.left;
  const holder = beside && beside.parentElement;
  const own = (holder && parseFloat(lookOf(holder).style.fontSize)) || size;
  const grown = Math.max(0, size - own);
  return { left: wraps ? Math.max(left, start) : left, right: wraps ? Math.min(right, end) : right,
    top: line.top - grown * 1.1, bottom: line.bottom + grown * 0.3 };
};

/**
 * The text an element's content starts (or ends, `last`) with, if text
 * is what comes first there (not a picture, a field or a box of its own).
 * @param {Element} element @param {boolean} last
 * @returns {Text | null}
 */
const edgeText = (element, last) => {
  /** @type {Node | null} */
  let node = last ? element.lastChild : element.firstChild;
  for (let steps = 0; node && steps < 200; steps++) {
    if (node.nodeType === 3) {
      const value = node.nodeValue || "";
      if (!value.trim()) {
        // (A kept line break there puts the words on a line of their own.)
        if (value.includes("\n") && keepsBreaks(node)) return null;
      } else {
        return (last ? /\n\s*$/ : /^\s*\n/).test(value) && keepsBreaks(node) ? null : /** @type {Text} */ (node);
      }
    } else if (node.nodeType === 1) {
      const inner = /** @type {Element} */ (node);
      const display = lookOf(inner).style.display;
      if (display !== "none") {
        if (display !== "inline" || shadowOf(inner) || REPLACED.has(inner.tagName)) return null;
        const child = last ? inner.lastChild : inner.firstChild;
        if (child) {
          node = child;
          continue;
        }
      }
    }
    while (node && node !== element && !(last ? node.previousSibling : node.nextSibling)) node = node.parentNode;
    if (!node || node === element) return null;
    node = last ? node.previousSibling : node.nextSibling;
  }
  return null;
};

/**
 * Whether a text's line breaks are drawn (`white-space` keeps them).
 * @param {Node} node
 */
const keepsBreaks = (node) => {
  const parent = flatParentOf(node);
  return !parent || !/^(normal|nowrap)$/.test(lookOf(parent).style.whiteSpace);
};

/** Elements drawn as a thing of their own, not text, even shown inline (a
 *  line break ends the line the words would be beside). */
const REPLACED = new Set(["IMG", "INPUT", "SELECT", "TEXTAREA", "BUTTON", "VIDEO", "CANVAS", "IFRAME", "OBJECT", "EMBED",
  "svg", "SVG", "BR"]);
