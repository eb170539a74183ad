// @ts-check
// lines.js: parts of a text restyled apart from its element, which the
// element's computed style does not hold: a block's first line
// (`::first-line`) and a page's custom highlights (`::highlight()`);
// where such a style draws the letters unreadably, the text is not seen
// (letters.js judges the rest of a text's look).

/** Displays of the block containers `::first-line` styles. */
const LINE_BLOCKS = /^(block|list-item|inline-block|table-cell|table-caption|flow-root)$/;
/** @type {WeakMap<Look, {style: CSSStyleDeclaration, bottom: number} | null>} Each block's restyled first line, by its look (a call's). */
const firstLines = new WeakMap();

/** @type {Map<Node, boolean>} Whether a root's style sheets may restyle a first line (this call's). */
const lineRules = new Map();

/**
 * Whether the style sheets of a document or shadow root may hold a
 * `::first-line` rule: one names it, or one cannot be read (another
 * site's).
 * @param {Document | ShadowRoot} root
 */
const mayRestyleLines = (root) => {
  let found = lineRules.get(root);
  if (found === undefined) {
    /** @param {CSSRuleList} rules @returns {boolean} */
    const names = (rules) => Array.from(rules).some((rule) => {
      const grouped = /** @type {CSSGroupingRule} */ (rule).cssRules;
      const selector = /** @type {CSSStyleRule} */ (rule).selectorText;
      // (An imported sheet's rules are its own sheet's.)
      const imported = /** @type {CSSImportRule} */ (rule).styleSheet;
      return (typeof selector === "string" && selector.includes("first-line")) || (grouped !== undefined && names(grouped)) ||
        (imported !== undefined && imported !== null && names(imported.cssRules));
    });
    const sheets = [...Array.from(root.styleSheets || []), ...(root.adoptedStyleSheets || [])];
    found = sheets.some((sheet) => {
      try { return names(sheet.cssRules); } catch (_) { return true; }
    });
    lineRules.set(root, found);
  }
  return found;
};

/**
 * A block's first line where `::first-line` restyles it (its colour, size
 * or shadow its own): that style, and where the line ends below; null
 * where it is styled as the block.
 * @param {Look} look
 */
const firstLineOf = (look) => {
  let found = firstLines.get(look);
  if (found !== undefined) return found;
  found = null;
  // (A first line's style costs as much as its element's: asked only
  // where the style sheets may hold a rule for one.)
  if (!mayRestyleLines(/** @type {Document | ShadowRoot} */ (look.element.getRootNode()))) {
    firstLines.set(look, found);
    return found;
  }
  const line = getComputedStyle(look.element, "::first-line"), own = look.style;
  if (line.color !== own.color || line.fontSize !== own.fontSize || line.textShadow !== own.textShadow ||
      line.webkitTextFillColor !== own.webkitTextFillColor) {
    const walker = look.element.ownerDocument.createTreeWalker(look.element, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      const rects = textRects(/** @type {Text} */ (text));
      if (rects.length) { found = { style: line, bottom: rects[0].bottom }; break; }
    }
    // (No text drawn with an area: the line's letters are drawn too small.)
    if (!found) found = { style: line, bottom: Infinity };
  }
  firstLines.set(look, found);
  return found;
};

/**
 * Where a block's `::first-line` style (which its element's computed style
 * does not hold) draws a text's element unreadably, where that line ends
 * below; null where it does not. The element must take its colour from
 * the block; it is judged in the line's colours and size over the
 * backdrop its ancestors paint (seen where filters or blend modes apply,
 * or the backdrop is not known).
 * @param {Element} parent
 * @returns {number | null}
 */
const hiddenFirstLine = (parent) => {
  const own = lookOf(parent);
  let block = own;
  while (!LINE_BLOCKS.test(block.display)) {
    // (A colour set in its own style attribute is not the line's.)
    const inline = /** @type {HTMLElement} */ (block.element).style;
    if (!block.up || !/^(inline|contents)$/.test(block.display) || (inline && inline.color)) return null;
    block = block.up;
  }
  const line = firstLineOf(block);
  if (!line || (block !== own && own.style.color !== block.style.color) || effectsOf(own)) return null;
  const ownSize = parseFloat(own.style.fontSize);
  const size = ownSize > 0 ? (parseFloat(line.style.fontSize) * drawnTextSize(parent)) / ownSize : 0;
  if (size < SMALLEST_TEXT) return line.bottom;
  return drawnUnreadably(line.style, own, size) ? line.bottom : null;
};

/**
 * Whether letters of `size` drawn in the colours of `style` (a part's own:
 * a first line's, a highlight's), in an element of look `own`, do not read
 * against the backdrop its ancestors paint (false where that is not known).
 * @param {CSSStyleDeclaration} style @param {Look} own @param {number} size
 */
const drawnUnreadably = (style, own, size) => {
  const drawn = [rgba(style.webkitTextFillColor || style.color) || TRANSPARENT, ...sharpShadows(style.textShadow, size)];
  if (parseFloat(style.webkitTextStrokeWidth) > 0) drawn.push(rgba(style.webkitTextStrokeColor) || TRANSPARENT);
  const backdrop = backdropOf(own);
  if (backdrop.unknown) return false;
  const alpha = own.opacity / (backdrop.by ? lookOf(backdrop.by).opacity : 1);
  return !drawn.some((letters) => letters[3] * alpha >= FAINTEST && spanColours(backdrop.span).some((under) =>
    contrastOf(over([letters[0], letters[1], letters[2], Math.min(1, letters[3] * alpha)], under), under) >= LEAST_CONTRAST));
};

/** The most text nodes the highlights of one call are mapped over (a bound on cost). */
const HIGHLIGHTED_MOST = 20000;
/** @type {Map<Document, Map<Text, {name: string, from: number, to: number}[]>>} Each document's highlighted texts (this call's). */
const highlightedTexts = new Map();

/**
 * The texts a document's custom highlights (`CSS.highlights`) hold, each
 * with the stretches (from, to: offsets in it) and the highlight's name,
 * mapped once per call (empty where the page has none: nothing asked).
 * @param {Document} doc
 */
const highlightedIn = (doc) => {
  let found = highlightedTexts.get(doc);
  if (found) return found;
  found = new Map();
  highlightedTexts.set(doc, found);
  const view = /** @type {(Window & {CSS?: {highlights?: Map<string, Set<AbstractRange>>}}) | null} */ (doc.defaultView);
  const highlights = view && view.CSS && view.CSS.highlights;
  if (!highlights || !highlights.size) return found;
  const map = found;
  let mapped = 0;
  // (forEach, not an iterator: Firefox's sandbox sees the page's maps
  // through a wrapper that iterates no other way.)
  try {
    highlights.forEach((ranges, name) => ranges.forEach((range) => {
      try {
        const live = doc.createRange();
        live.setStart(range.startContainer, range.startOffset);
        live.setEnd(range.endContainer, range.endOffset);
        const around = live.commonAncestorContainer;
        const walker = doc.createTreeWalker(around, NodeFilter.SHOW_TEXT);
        // From where the range starts to where it ends, no further.
        const start = live.startContainer;
        let text = around.nodeType === 3 ? around : null;
        if (!text && start.nodeType === 3) {
          walker.currentNode = start;
          text = start;
        } else if (!text) {
          text = walker.nextNode();
        }
        for (; text && mapped < HIGHLIGHTED_MOST; text = around.nodeType === 3 ? null : walker.nextNode()) {
          if (live.comparePoint(text, 0) === 1) break;
          if (!live.intersectsNode(text)) continue;
          const length = (text.nodeValue || "").length;
          const from = live.startContainer === text ? live.startOffset : 0;
          const to = live.endContainer === text ? live.endOffset : length;
          if (to <= from) continue;
          mapped++;
          const stretches = map.get(/** @type {Text} */ (text)) || [];
          stretches.push({ name, from, to });
          map.set(/** @type {Text} */ (text), stretches);
        }
      } catch (_) { /* a range in another tree holds no text of this one */ }
    }));
  } catch (_) { /* a map this world cannot read: not judged */ }
  return found;
};

/**
 * The stretches of a text (from, to: offsets in it) that a custom
 * highlight whose `::highlight()` style draws its element's letters
 * unreadably holds.
 * @param {Text} node @param {Element} parent
 * @returns {[number, number][]}
 */
const hiddenHighlights = (node, parent) => {
  const stretches = highlightedIn(node.ownerDocument).get(node);
  if (!stretches) return [];
  const own = lookOf(parent);
  if (effectsOf(own)) return [];
  /** @type {Map<string, boolean>} */
  const unreadable = new Map();
  /** @type {[number, number][]} */
  const found = [];
  for (const { name, from, to } of stretches) {
    let hides = unreadable.get(name);
    if (hides === undefined) {
      hides = drawnUnreadably(getComputedStyle(parent, "::highlight(" + CSS.escape(name) + ")"), own, drawnTextSize(parent));
      unreadable.set(name, hides);
    }
    if (hides) found.push([from, to]);
  }
  return found;
};

/**
 * Whether a text lies wholly in highlights drawn unreadably
 * (`hiddenHighlights`); one they hold in part is seen in part (marks'
 * partly.js).
 * @param {Text} node @param {Element} parent
 */
const highlightHides = (node, parent) => {
  const length = (node.nodeValue || "").length;
  return hiddenHighlights(node, parent).some(([from, to]) => from === 0 && to >= length);
};

/**
 * Whether a text lies wholly on a first line drawn unreadably
 * (`hiddenFirstLine`); one that runs on below it is seen in part
 * (marks' partly.js).
 * @param {Text} node @param {Element} parent
 */
const firstLineHides = (node, parent) => {
  const bottom = hiddenFirstLine(parent);
  return bottom !== null && textRects(node).every((rect) => rect.top < bottom - 1);
};
