// @ts-check
// partly.js: text seen in part. The pictures (pixels.js, `marks`' seen.rs)
// find a run seen where its own pixels change; where they also find
// stretches of its boxes pictured but unchanged (a box's edge cuts the line
// off, an ellipsis, a line clamp, a mask or a cover over half a sentence),
// or where the run reaches beyond the boxes that clip it, the words there
// are left out (`keptOf`), and what is left is the run's text in lines and
// names (`seenTextOf`). And an editable's own lines (`editableLines`), and
// its end, where typing adds to it (`endOf`, act.js's).

/**
 * What the pictures found seen of the candidates seen in part (`keptOf`),
 * once told; `null` before.
 * @type {Map<Text, string> | null}
 */
let pixelKept = null;

/** Words, as a person's reading splits them (spaces apart). */
const WORDS = typeof Intl !== "undefined" && Intl.Segmenter ? new Intl.Segmenter(undefined, { granularity: "word" }) : null;

/**
 * A text node's words, each with where it begins in the text.
 * @param {string} text
 * @returns {{at: number, word: string}[]}
 */
const wordsOf = (text) => {
  if (!WORDS) return Array.from(text.matchAll(/\S+/gu), (match) => ({ at: match.index || 0, word: match[0] }));
  return Array.from(WORDS.segment(text))
    .filter((segment) => /\S/u.test(segment.segment))
    .map((segment) => ({ at: segment.index, word: segment.segment }));
};

/**
 * What a person sees of a text node the pictures found seen in part:
 * its text less the words that lie wholly in `stretches` (x, y, width,
 * height one after another, in the top viewport: where its boxes are
 * pictured but nothing of it changed when it was taken out: clipped,
 * covered, cut by a line clamp), or wholly where no picture or scroll
 * shows them (beyond the boxes that clip it, or the page's top or left
 * edge), each run of them written as "…". A word that only a scrolling
 * box's edge keeps from view stays (a scroll away, as text below the
 * viewport is). `null` when no word is left out; empty when every word
 * is (an icon's word pushed out of its box names nothing seen).
 * @param {Text} node @param {number[]} stretches
 * @returns {string | null}
 */
const keptOf = (node, stretches) => {
  const text = node.nodeValue || "";
  const offset = placeOf(node.ownerDocument).offset;
  const parent = flatParentOf(node);
  const around = parent ? textBounds(lookOf(parent)) : null;
  const bounds = around && parent ? { ...around, clip: ellipsized(node, parent, around.clip) } : null;
  const view = node.ownerDocument.defaultView;
  // Where the pictures saw the text, they say whether a sliver the clip
  // lets show holds ink (no stretch covers it then); elsewhere a sliver
  // (the room above a line's letters, a letter's edge) is no word.
  const pictured = stretches.length > 0;
  // (Where no picture judges: a first line, or highlights, drawn
  // unreadably.)
  const lineEnd = parent && !pictured ? hiddenFirstLine(parent) : null;
  const highlighted = parent && !pictured ? hiddenHighlights(node, parent) : [];
  /** @param {DOMRect} rect  beyond what clips it, but for a sliver; or on a first line drawn unreadably */
  const nowhere = (rect) => {
    if (lineEnd !== null && rect.bottom <= lineEnd + 0.5) return true;
    const clip = bounds && bounds.clip;
    if (clip) {
      const width = Math.min(rect.right, clip.right) - Math.max(rect.left, clip.left);
      const height = Math.min(rect.bottom, clip.bottom) - Math.max(rect.top, clip.top);
      if (pictured ? width <= 1 || height <= 1
          : width <= sliverOf(rect, rect.width) || height <= Math.max(2, rect.height * 0.2)) return true;
    }
    return view !== null && (rect.right + view.scrollX < 0 || rect.bottom + view.scrollY < 0);
  };
  const range = node.ownerDocument.createRange();
  // A frame's own viewport is a scrolling box: what its edge cuts of a
  // line is a scroll away, whatever the pictures show of the line.
  const framed = view !== null && view.parent !== view;
  /** @param {DOMRect} rect  what of it the boxes that clip it let show lies in a stretch, but a sliver */
  const unseen = (rect) => {
    if (framed && view && (rect.top < -0.5 || rect.left < -0.5 || rect.bottom > view.innerHeight + 0.5 ||
        rect.right > view.innerWidth + 0.5)) return false;
    const clip = bounds && bounds.clip;
    const s = scaleOf(offset);
    const from = Math.max(rect.left, clip ? clip.left : -Infinity) * s + offset.x;
    const to = Math.min(rect.right, clip ? clip.right : Infinity) * s + offset.x;
    const middle = (rect.top + rect.height / 2) * s + offset.y;
    const sliver = sliverOf(rect, to - from);
    for (let at = 0; at + 3 < stretches.length; at += 4) {
      const [left, top, width, height] = stretches.slice(at, at + 4);
      const within = Math.min(to, left + width) - Math.max(from, left);
      if (within >= to - from - sliver && middle >= top && middle <= top + height) return true;
    }
    return false;
  };
  // Under an ellipsis a letter is drawn only if it fits wholly before it:
  // a word reaching under it is drawn in part if its first or its last
  // letter (whichever side its line begins on) does.
  const ellipsis = bounds && around && bounds.clip !== around.clip ? bounds.clip : null;
  /** @param {{left: number, right: number}} rect */
  const beforeEllipsis = (rect) => ellipsis !== null && rect.left >= ellipsis.left - 0.5 && rect.right <= ellipsis.right + 0.5;
  /** @param {number} at @param {string} word @param {DOMRect[]} rects */
  const underEllipsis = (at, word, rects) => {
    if (ellipsis === null || rects.every(beforeEllipsis)) return false;
    const letters = Array.from(word);
    /** @param {number} start @param {number} end */
    const fits = (start, end) => {
      range.setStart(node, start);
      range.setEnd(node, end);
      return Array.from(range.getClientRects()).some((rect) => hasArea(rect) && beforeEllipsis(rect));
    };
    const last = letters[letters.length - 1].length;
    return !fits(at, at + letters[0].length) && !fits(at + word.length - last, at + word.length);
  };
  /** @param {DOMRect} rect */
  const scrolledOut = (rect) => bounds !== null && outsideEdges(rect, bounds.shown) && !outsideEdges(rect, bounds.clip);
  let kept = "", from = 0, cutting = false, any = false, some = false, looked = 0;
  for (const { at, word } of wordsOf(text.slice(0, LINE_LIMIT))) {
    // A mark (a comma, a bar, a bullet) goes with the word before it: a
    // small one may change too few pixels to be seen on its own.
    /** @type {boolean} */
    let out = cutting;
    if (WORDLIKE.test(word)) {
      // A cost bound: past this many words the rest stays as it is (a
      // text that long is mostly cut by the line's limit anyway).
      if (++looked > MOST_WORDS) break;
      range.setStart(node, at);
      range.setEnd(node, at + word.length);
      const rects = Array.from(range.getClientRects()).filter(hasArea);
      out = (rects.length > 0 && (rects.every(unseen) || rects.every(nowhere) || underEllipsis(at, word, rects)) &&
        !rects.some(scrolledOut)) || highlighted.some(([from, to]) => from <= at && at + word.length <= to);
    }
    if (out && !cutting) kept += text.slice(from, at).trimEnd() + (kept || at ? " …" : "…");
    if (!out) kept += cutting ? " " + text.slice(at, at + word.length) : text.slice(from, at + word.length);
    cutting = out;
    any = any || out;
    some = some || !out;
    from = at + word.length;
  }
  if (!any) return null;
  return some ? (cutting ? kept : kept + text.slice(from)) : "";
};

/**
 * How little of a word's `width` (a box of it `rect`) is a sliver no
 * person reads: about a sixth of it, and less than a third of a line's
 * height (a whole narrow letter shows in that much).
 * @param {DOMRect} rect @param {number} width
 */
const sliverOf = (rect, width) => Math.max(2, Math.min(width * 0.15, rect.height * 0.3));

/**
 * `clip` less the ellipsis `text-overflow` draws at the end of a line of
 * `node` that overflows its block (the letters under it are not drawn):
 * as wide as the block's font draws "…", where a canvas no page sees can
 * measure it, else an em.
 * @param {Text} node @param {Element} parent @param {Edges | null} clip
 * @returns {Edges | null}
 */
const ellipsized = (node, parent, clip) => {
  if (clip === null) return clip;
  let block = /** @type {Element | null} */ (parent);
  while (block && /^(inline|contents)/.test(lookOf(block).style.display)) block = flatParentOf(block);
  if (!block) return clip;
  const style = lookOf(block).style;
  if (style.textOverflow !== "ellipsis" || style.overflowX === "visible") return clip;
  const rtl = style.direction === "rtl";
  if (!textRects(node).some((rect) => rtl ? rect.left < clip.left - 1 : rect.right > clip.right + 1)) return clip;
  const width = ellipsisWidth(style);
  return rtl ? { ...clip, left: clip.left + width } : { ...clip, right: clip.right - width };
};

/** @param {CSSStyleDeclaration} style */
const ellipsisWidth = (style) => {
  const size = parseFloat(style.fontSize) || 16;
  const context = inkCanvas(`${style.fontStyle} ${style.fontWeight} ${size}px ${style.fontFamily}`);
  return (context && context.measureText("\u2026").width) || size;
};

/** What makes a word: a letter or a digit. */
const WORDLIKE = /[\p{L}\p{N}]/u;
/** The most words of one text `keptOf` looks at. */
const MOST_WORDS = 4000;

/**
 * Whether a text node reaches beyond the boxes that clip it, or beyond
 * the page's top or left edge, by half a line's height or more (a line's
 * box overhanging a short box by a pixel or two holds no word): some of
 * its words may lie where nothing shows them (`keptOf`).
 * @param {Text} node
 */
const beyondClip = (node) => {
  const parent = flatParentOf(node);
  if (!parent) return false;
  const clip = textBounds(lookOf(parent)).clip;
  const view = node.ownerDocument.defaultView;
  return textRects(node).some((rect) => {
    const room = rect.height / 2;
    return (clip !== null && (rect.left < clip.left - room || rect.right > clip.right + room ||
        rect.top < clip.top - room || rect.bottom > clip.bottom + room)) ||
      (view !== null && (rect.left + view.scrollX < -room || rect.top + view.scrollY < -room));
  });
};

/**
 * Whether the edges that scroll cut every box of a text node they show:
 * a scrolling box's (where it shows less than what clips the text for
 * good) or a frame's viewport's. The part beyond them is a scroll away,
 * as below the fold: a line of which such an edge leaves only the
 * letters' tops is no more hidden than the lines wholly beyond it, which
 * style judges, though the pictures cannot read it (`cut_by_fold` in
 * `marks`). Not where those edges leave less room than a line's height.
 * @param {Text} node
 */
const scrollCut = (node) => {
  const parent = flatParentOf(node);
  if (!parent) return false;
  const { clip, shown } = textBounds(lookOf(parent));
  const view = node.ownerDocument.defaultView;
  /** @param {"left" | "right" | "top" | "bottom"} side @param {number} none */
  const scrolling = (side, none) => shown !== null && shown[side] !== (clip ? clip[side] : none) ? shown[side] : none;
  const edges = { left: scrolling("left", -Infinity), top: scrolling("top", -Infinity),
    right: scrolling("right", Infinity), bottom: scrolling("bottom", Infinity) };
  if (view !== null && view.parent !== view) {
    edges.left = Math.max(edges.left, 0);
    edges.top = Math.max(edges.top, 0);
    edges.right = Math.min(edges.right, view.innerWidth);
    edges.bottom = Math.min(edges.bottom, view.innerHeight);
  }
  // A box too small to show a line whole is no place a person reads by
  // scrolling (a box of a few pixels that scrolls hides its text).
  const high = Math.min(shown ? shown.bottom : Infinity, edges.bottom) - Math.max(shown ? shown.top : -Infinity, edges.top);
  const wide = Math.min(shown ? shown.right : Infinity, edges.right) - Math.max(shown ? shown.left : -Infinity, edges.left);
  const rects = textRects(node).filter((rect) => !outsideEdges(rect, shown));
  return rects.length > 0 && rects.every((rect) => high >= rect.height && wide >= rect.height &&
    (rect.left < edges.left - 0.5 || rect.top < edges.top - 0.5 || rect.right > edges.right + 0.5 || rect.bottom > edges.bottom + 0.5));
};

/**
 * What the boxes around a text node let it be seen in (`boundsOf`), its
 * own element's overflow too (`look` is that element's).
 * @param {Look} look
 * @returns {{clip: Edges | null, shown: Edges | null}}
 */
const textBounds = (look) => {
  let bounds = innerBounds.get(look);
  if (!bounds) {
    const around = boundsOf(look);
    bounds = look.overflow === "visible" ? around : {
      clip: narrowed(around.clip, look, ["hidden", "clip"]),
      shown: narrowed(narrowed(around.shown, look, ["hidden", "clip"]), look, ["auto", "scroll"]),
    };
    innerBounds.set(look, bounds);
  }
  return bounds;
};
/** `textBounds` of each look asked of in this call. @type {Map<Look, {clip: Edges | null, shown: Edges | null}>} */
const innerBounds = new Map();

/**
 * The text of a text node a person sees, where it is not left out whole:
 * where the pictures judge it, all of it or what they found seen of it
 * (`keptOf`), and a call after them (an action checking a name) reads it
 * as they did while its text is the same; elsewhere, as its style says
 * (`styleKept`).
 * @param {Text} node
 */
const seenTextOf = (node) => {
  const text = node.nodeValue || "";
  if (pixelKept && pixelKept.has(node)) return /** @type {string} */ (pixelKept.get(node));
  if (pixelIndex.has(node)) return text;
  const kept = registry.kept.get(node);
  if (kept && kept[0] === text) return kept[1];
  return styleKept(node) ?? text;
};

/**
 * What is kept of a text node its style judges (beyond what the pictures
 * show, or where none are taken): the words that lie wholly beyond the
 * boxes that clip it left out (`keptOf`), as certainly not painted;
 * `null` when none is. Its element's box, holding its text and inside
 * every clip, is enough to say none is (most text, measured no further).
 * @param {Text} node
 * @returns {string | null}
 */
const styleKept = (node) => {
  const parent = flatParentOf(node);
  if (!parent) return null;
  // A first line drawn unreadably that the text runs on below, or a
  // highlight drawn so over part of it.
  if (hiddenFirstLine(parent) !== null || hiddenHighlights(node, parent).length) return keptOf(node, []);
  const look = lookOf(parent);
  const clip = textBounds(look).clip;
  if (clip === null) return null;
  const box = rectOf(parent);
  const holds = look.display === "inline" ||
    (parent.scrollWidth <= parent.clientWidth + 1 && parent.scrollHeight <= parent.clientHeight + 1);
  if (holds && box.left >= clip.left - 1 && box.right <= clip.right + 1 && box.top >= clip.top - 1 && box.bottom <= clip.bottom + 1) return null;
  return beyondClip(node) ? keptOf(node, []) : null;
};

/**
 * What a person sees of a field's value (an input's or a textarea's): all
 * of it, or nothing where its letters are drawn in no colour, size or
 * font that shows (a password's dots where they are drawn as such). Its
 * style judges it as a text's (`textFateOf`): the pictures take no
 * field's value out, which is drawn inside the field where no highlight
 * reaches.
 * @param {Element} element @param {string} value
 */
const seenValue = (element, value) => {
  if (!value) return value;
  if (textFateOf(element) !== "seen" || valueOutOfBox(element, value)) return "";
  // Drawn as a password's dots, whatever its type.
  const security = lookOf(element).style.getPropertyValue("-webkit-text-security");
  if (security && security !== "none") return HIDDEN;
  const inked = element.ownerDocument !== document ||
    !drawsNoInk(lookOf(element).style, () => value.slice(0, 64), drawnTextSize(element));
  return inked ? value : "";
};

/**
 * Whether a field draws its value where its box shows none of it: the
 * box its value is drawn in (inside the padding, which clips it) too
 * narrow for a letter, or a value of one line indented out of it (the
 * indent moves where the line begins, and the value is aligned in what
 * is left of the box).
 * @param {Element} element @param {string} value
 */
const valueOutOfBox = (element, value) => {
  const style = lookOf(element).style;
  const px = (/** @type {string} */ length) => (length.endsWith("px") ? parseFloat(length) || 0 : 0);
  const size = parseFloat(style.fontSize) || 0;
  const inner = /** @type {HTMLElement} */ (element).clientWidth - px(style.paddingLeft) - px(style.paddingRight);
  if (inner < Math.min(THINNEST, size)) return true;
  const indent = px(style.textIndent);
  if (!indent || value.includes("\n")) return false;
  const rtl = style.direction === "rtl";
  const align = style.textAlign;
  const side = /center/.test(align) ? 0.5 : align === "end" || align === (rtl ? "left" : "right") ? 1 : 0;
  const context = inkCanvas(`${style.fontStyle} ${style.fontWeight} ${size}px ${style.fontFamily}`);
  const width = context ? context.measureText(value.slice(0, 200)).width : value.length * size;
  // From the start edge: the line begins at the indent, the value sits
  // in what is left of it.
  const from = indent + (inner - indent - width) * side;
  return Math.min(inner, from + width) - Math.max(0, from) < Math.min(width, size / 2);
};

/**
 * Whether a person sees a field's placeholder: its words are drawn in the
 * field (as its value is, where no highlight reaches) in the colour, size
 * and opacity its `::placeholder` style gives them, over what lies behind
 * the field. One in no colour, too small to read or in the field's own
 * background colour names nothing a person sees.
 * @param {Element} element
 */
const seenPlaceholder = (element) => {
  if (element.ownerDocument !== document) return true;
  // Indented away, blurred, in a font without ink: as the value would be.
  if (textFateOf(element) === "hidden") return false;
  const look = lookOf(element);
  const own = look.style;
  const style = getComputedStyle(element, "::placeholder");
  const size = drawnTextSize(element) * (parseFloat(style.fontSize) / (parseFloat(own.fontSize) || 1) || 1);
  if (size < SMALLEST_TEXT) return false;
  const fill = rgba(style.webkitTextFillColor || style.color) || TRANSPARENT;
  const opacity = parseFloat(style.opacity);
  const alpha = fill[3] * (Number.isFinite(opacity) ? opacity : 1);
  if (alpha * look.opacity < FAINTEST) return false;
  const letters = /** @type {RGBA} */ ([fill[0], fill[1], fill[2], Math.min(1, alpha)]);
  return spanColours(backdropOf(look).span).some((under) => contrastOf(over(letters, under), under) >= LEAST_CONTRAST);
};

/** The most text nodes of an editable element `seenEditable` judges. */
const MOST_EDITABLE_NODES = 2000;

/**
 * An editable element's lines (`innerText`, which keeps them), where it
 * holds a block a line, as code editors do, each line's own: an empty
 * line's `<br>` only holds it open (`innerText` adds a line break for it
 * beside the block's own, so one blank line would read as two).
 * @param {HTMLElement} element
 * @param {boolean} [drawn]  a code editor's drawn lines (`drawnLine`)
 */
const editableLines = (element, drawn = false) => {
  const children = Array.from(element.childNodes);
  const blocks = children.every((child) => child.nodeType === 1 ? BLOCK_DISPLAY.test(layoutOf(/** @type {Element} */ (child)).display)
    : child.nodeType !== 3 || !(child.nodeValue || "").trim());
  if (!blocks || children.length < 2) return element.innerText;
  return children.filter((child) => child.nodeType === 1).map((child) => {
    const line = drawn ? drawnLine(/** @type {HTMLElement} */ (child)) : (/** @type {HTMLElement} */ (child)).innerText;
    return child.lastChild && child.lastChild.nodeName === "BR" && line.endsWith("\n") ? line.slice(0, -1) : line;
  }).join("\n");
};

/**
 * A line a code editor draws, less its number where the editor lays that
 * over the line's margin (CodeMirror 5: a box positioned in the line).
 * @param {HTMLElement} line
 */
const drawnLine = (line) => {
  const parts = Array.from(line.children);
  const kept = parts.filter((part) => !(LINE_NUMBERS.test(part.textContent || "") && layoutOf(part).position === "absolute"));
  return kept.length < parts.length ? kept.map((part) => (/** @type {HTMLElement} */ (part)).innerText).join("") : line.innerText;
};

/**
 * What a person sees of an editable element's text (`editableLines`): less
 * the text of the nodes its style hides (letters of no colour, size or
 * font that shows), each taken out where it stands (found in any case:
 * `innerText` is as `text-transform` draws it).
 * @param {HTMLElement} element
 * @param {boolean} [drawn]  a code editor's drawn lines (`drawnLine`)
 */
const seenEditable = (element, drawn = false) => {
  let text = editableLines(element, drawn);
  const walker = element.ownerDocument.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  let at = 0;
  for (let node = walker.nextNode(), count = 0; node && count < MOST_EDITABLE_NODES; node = walker.nextNode(), count++) {
    const words = (node.nodeValue || "").trim().split(/\s+/u).filter(Boolean);
    if (!words.length) continue;
    const pattern = new RegExp(words.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\s+"), "giu");
    pattern.lastIndex = at;
    const found = pattern.exec(text);
    if (!found) continue;
    const start = found.index, end = start + found[0].length;
    if (textFate(/** @type {Text} */ (node)) === "seen") {
      at = end;
    } else {
      text = text.slice(0, start) + text.slice(end);
      at = start;
    }
  }
  return text;
};

/** How far into a code editor its lines are looked for. */
const LINES_DEPTH = 8;
/** The words of a gutter: line numbers alone. */
const LINE_NUMBERS = /^[\d\s]+$/;
/** What share of an editor part's words one child holds to be where its lines are. */
const HOLDS_ALL = 0.9;

/**
 * What a textarea shows, as lines: its value, or, where it is a code
 * editor's hidden input (`editorOf`), the lines the editor draws.
 * @param {Element} element
 */
const textareaValue = (element) => {
  const editor = editorOf(element);
  return valueLines(editor ? drawnLines(editor, element) : seenValue(element, (/** @type {HTMLTextAreaElement} */ (element)).value));
};

/**
 * A code editor's name (`editorOf`): its hidden input's label, or the
 * editor's own; never the words a kit gives the input to follow its caret
 * ("Cursor at row 3"), which would make it another element at every move.
 * @param {Element} element
 */
const editorName = (element) => {
  const labelled = byIds(element, "aria-labelledby");
  const labels = (/** @type {HTMLTextAreaElement} */ (element)).labels;
  const editor = editorOf(element);
  return labelled || (labels && labels.length ? clean(Array.from(labels).map((label) => label.textContent).join(" ")) : "") ||
    (editor ? ownName(editor) : "");
};

/**
 * The lines a code editor draws, as a person reads them (`seenEditable`):
 * the part that holds its words, past its hidden input, what it does not
 * draw (a box it measures letters in) and a gutter of line numbers, down
 * to where no one part holds them all (the lines themselves).
 * @param {Element} editor @param {Element} input
 */
const drawnLines = (editor, input) => {
  let at = /** @type {HTMLElement} */ (editor);
  for (let depth = 0; depth < LINES_DEPTH; depth++) {
    const parts = Array.from(at.children).filter((child) => child !== input && !isHidden(child) && !LINE_NUMBERS.test(child.textContent || ""));
    const sizes = parts.map((child) => (child.textContent || "").length);
    const all = sizes.reduce((sum, size) => sum + size, 0);
    const most = Math.max(0, ...sizes);
    if (!all || most < HOLDS_ALL * all) break;
    at = /** @type {HTMLElement} */ (parts[sizes.indexOf(most)]);
  }
  return seenEditable(at, true);
};

/**
 * Where text typed at the end of an editable goes: after its last words,
 * or before the break that holds its last line open (not after the last
 * block, where Firefox would begin a line of its own).
 * @param {HTMLElement} html
 */
const endOf = (html) => {
  const range = document.createRange();
  /** @type {Node} */
  let last = html;
  while (last.lastChild) last = last.lastChild;
  const walker = document.createTreeWalker(html, NodeFilter.SHOW_TEXT | NodeFilter.SHOW_ELEMENT);
  walker.currentNode = last;
  for (let node = /** @type {Node | null} */ (last); node && node !== html; node = walker.previousNode()) {
    const text = node.nodeType === 3 ? node.nodeValue || "" : "";
    if (/\S/.test(text)) {
      range.setStart(node, text.length);
      return range;
    }
    if (node.nodeName === "BR") {
      range.setStartBefore(node);
      return range;
    }
  }
  range.selectNodeContents(html);
  range.collapse(false);
  return range;
};
