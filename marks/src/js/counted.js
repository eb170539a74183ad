// @ts-check
// counted.js: what CSS counts, as a person sees it drawn: a list item's
// marker (its number in its list's style, counted as HTML counts; a list
// style or a marker's own content made of words and that number), and
// the words the browser said a pseudo-element shows where a script cannot
// read them (a `counter()` of the page's own), handed over by DevTools
// (`Driver::hand_over`'s `generated`, asked by marks' COUNTED), else
// counted here as the page counts; and the words a pseudo-element's
// `content` writes. Used by semantics.js's `generatedText`. And a text
// the page forces against its letters' direction, which is drawn
// mirrored (`drawnMirrored`, `mirror`: painted.js's runs).

/**
 * The words the browser says an element's `::marker`, `::before` or
 * `::after` shows, where marks asked it (a `counter()` in it, a marker of
 * its own: `Driver::hand_over`'s `generated`); undefined where it did not.
 * @param {Element} element @param {"marker" | "before" | "after"} which
 * @returns {string | undefined}
 */
const handedWords = (element, which) => {
  const words = handed.generated && handed.generated.get(element);
  return words ? words[which] : undefined;
};

/** Whether a pseudo-element's style draws no words a person reads. @param {CSSStyleDeclaration} style */
const undrawnWords = (style) =>
  style.display === "none" || style.visibility === "hidden" || Number(style.opacity) < 0.1 ||
  parseFloat(style.fontSize) < SMALLEST_TEXT ||
  ((/^rgba\(.*,\s*0\)$/.test(style.color) || style.color === "transparent") && !clipsToText(style));

/** Further than this beyond an edge (CSS pixels), a box is put out of sight. */
const PUT_AWAY = 999;

/**
 * Whether the words of an element's `::before` or `::after` (of `style`)
 * are drawn where or how no person reads them, as its style says (no
 * picture can take generated words out): in letters hardly different
 * from what lies behind them (their own background, else the element's
 * backdrop), through the element's opacity and theirs; positioned,
 * clipped to nothing or pushed far beyond an edge; or, in view, under a
 * cover over the whole of their element (`paintedOver`: hit tests, asked
 * last and only of words with letters or digits, not an icon's glyph).
 * @param {Element} element @param {CSSStyleDeclaration} style
 */
const pseudoUnseen = (element, style) => pseudoStyledAway(element, style) ||
  (/[\p{L}\p{N}]/u.test(style.content) && paintedOver(element, rectOf(element)));

/**
 * `pseudoUnseen` by the generated words' style alone.
 * @param {Element} element @param {CSSStyleDeclaration} style
 */
const pseudoStyledAway = (element, style) => {
  if (style.position === "absolute" || style.position === "fixed") {
    if (CLIPPED_TO_NOTHING.test(style.clip)) return true;
    if (["left", "top", "right", "bottom"].some((side) => parseFloat(style.getPropertyValue(side)) <= -PUT_AWAY)) return true;
  }
  if (parseFloat(style.textIndent) <= -PUT_AWAY) return true;
  const look = lookOf(element);
  const fill = rgba(style.webkitTextFillColor || style.color) || TRANSPARENT;
  /** @type {RGBA[]} */
  let colours = [fill];
  // Letters its own background is clipped to are drawn in that.
  if (fill[3] < FAINTEST && clipsToText(style)) {
    const clipped = clippedColours(style);
    if (clipped === "gradient") return false;
    colours = clipped;
  }
  // A shadow or stroke outlines the letters: read as drawn.
  if ((style.textShadow && style.textShadow !== "none") || parseFloat(style.webkitTextStrokeWidth) > 0) return false;
  const own = rgba(style.backgroundColor);
  const opaque = own !== null && own[3] >= OPAQUE && !clipsToText(style);
  if (!opaque && backdropOf(look).unknown) return false;
  const behind = opaque ? [/** @type {RGBA} */ (own)] : spanColours(backdropOf(look).span);
  const opacity = parseFloat(style.opacity);
  const faded = (Number.isFinite(opacity) ? opacity : 1) * look.opacity;
  return !colours.some((colour) => {
    const alpha = Math.min(1, colour[3] * faded);
    const letters = /** @type {RGBA} */ ([colour[0], colour[1], colour[2], alpha]);
    return alpha >= FAINTEST && behind.some((under) => contrastOf(over(letters, under), under) >= LEAST_CONTRAST);
  });
};

/**
 * Whether something paints over an element's box (in view) at its centre
 * and near each corner: a picture under it, or the words CSS writes in
 * it, are not seen. Beyond the viewport, no.
 * @param {Element} element @param {DOMRect} rect
 */
const paintedOver = (element, rect) => {
  const root = /** @type {Document | ShadowRoot} */ (element.getRootNode());
  const points = coverPoints(element.ownerDocument, rect);
  return points.length > 0 && points.every(([x, y]) => paintedAt(root, element, x, y, true).covered);
};

/**
 * The list styles a list item's number is written in here, as Chromium
 * writes its marker (`3. `, `c. `, `iii. `); every other style's marker is
 * a bullet (no words) or asked of the browser (marks' `COUNTED`).
 * @type {Record<string, (n: number) => string>}
 */
const ORDINALS = {
  decimal: (n) => String(n),
  "decimal-leading-zero": (n) => (n >= 0 && n < 10 ? "0" + n : n < 0 && n > -10 ? "-0" + -n : String(n)),
  "lower-alpha": (n) => alphabetic(n),
  "lower-latin": (n) => alphabetic(n),
  "upper-alpha": (n) => alphabetic(n).toUpperCase(),
  "upper-latin": (n) => alphabetic(n).toUpperCase(),
  "lower-roman": (n) => roman(n),
  "upper-roman": (n) => roman(n).toUpperCase(),
};
/** `a` … `z`, `aa` …; a number below 1 in decimal. @param {number} n */
const alphabetic = (n) => {
  if (n < 1) return String(n);
  let text = "";
  for (let left = n; left > 0; left = Math.floor((left - 1) / 26)) text = String.fromCharCode(97 + ((left - 1) % 26)) + text;
  return text;
};
/** `i` … `mmmcmxcix`; outside 1–3999 in decimal. @param {number} n */
const roman = (n) => {
  if (n < 1 || n > 3999) return String(n);
  const steps = /** @type {[number, string][]} */ ([[1000, "m"], [900, "cm"], [500, "d"], [400, "cd"], [100, "c"], [90, "xc"],
    [50, "l"], [40, "xl"], [10, "x"], [9, "ix"], [5, "v"], [4, "iv"], [1, "i"]]);
  let text = "";
  let left = n;
  for (const [value, letters] of steps) while (left >= value) { text += letters; left -= value; }
  return text;
};
/** Per list, how its items' markers are written, worked out once a call. @type {Map<Element | null, ((n: number) => string) | null>} */
const listMarkers = new Map();
/**
 * How a list item's marker is written, given its number: in a style of
 * `ORDINALS` (`3. `), a list style given as a string (`"→ "`), or a
 * marker's own `content` made of strings and the item's number
 * (`writtenMarker`); null where it draws none here: a bullet, no marker,
 * other words (asked of the browser), a marker not drawn. Read from the
 * list's first item for all of them (a list's items are styled alike; an
 * item styled in another list style by a sheet is asked of the browser).
 * @param {Element} item
 */
const listMarkerOf = (item) => {
  const list = item.parentElement;
  if (listMarkers.has(list)) return /** @type {((n: number) => string) | null} */ (listMarkers.get(list));
  const first = (list && Array.from(list.children).find((child) => child.tagName === "LI")) || item;
  const type = getComputedStyle(first).listStyleType;
  const ordinal = /** @type {((n: number) => string) | undefined} */ (ORDINALS[type]);
  const string = type.startsWith('"') ? writtenMarker(type, 0) : null;
  const marker = getComputedStyle(first, "::marker");
  const content = marker.content;
  /** @type {((n: number) => string) | null} */
  let drawn = null;
  if (undrawnWords(marker)) drawn = null;
  else if (content !== "normal") drawn = writtenMarker(content, 1) === null ? null : (n) => writtenMarker(content, n) || "";
  else if (ordinal) drawn = (n) => ordinal(n) + ". ";
  else if (string !== null) drawn = () => string;
  listMarkers.set(list, drawn);
  return drawn;
};
/** Per list, whether its items' markers show the page's own counters, worked out once a call. @type {Map<Element | null, boolean>} */
const countedMarkers = new Map();
/**
 * Whether a list item's marker shows a counter of the page's own (not
 * the item's number alone), as its list's first item's says (a list's
 * items are styled alike).
 * @param {Element} item
 */
const pageCounted = (item) => {
  const list = item.parentElement;
  let counted = countedMarkers.get(list);
  if (counted === undefined) {
    const first = (list && Array.from(list.children).find((child) => child.tagName === "LI")) || item;
    counted = /counters?\(\s*(?!list-item\b)/.test(getComputedStyle(first, "::marker").content);
    countedMarkers.set(list, counted);
  }
  return counted;
};
/** A string, or `counter(list-item)` in a style `ORDINALS` knows, in a computed `content`. */
const MARKER_PART = /\s*(?:"((?:[^"\\]|\\[\s\S])*)"|counter\(\s*list-item\s*(?:,\s*([a-z-]+)\s*)?\))\s*/y;
/**
 * The words a computed `content` (or a list style given as a string)
 * writes in a list item's marker, where they are strings and the item's
 * number `n` alone (`"Step " counter(list-item) ": "`); null where they
 * hold anything else (another counter, a picture, an attribute).
 * @param {string} value @param {number} n
 */
const writtenMarker = (value, n) => {
  let text = "";
  MARKER_PART.lastIndex = 0;
  while (MARKER_PART.lastIndex < value.length) {
    const at = MARKER_PART.lastIndex;
    const part = MARKER_PART.exec(value);
    if (!part || MARKER_PART.lastIndex === at) return null;
    if (part[1] !== undefined) {
      text += part[1].replace(/\\([0-9a-fA-F]{1,6}\s?|[\s\S])/g, (_, escaped) =>
        /^[0-9a-fA-F]/.test(escaped) ? String.fromCodePoint(parseInt(escaped, 16)) : escaped);
    } else {
      const style = ORDINALS[part[2] || "decimal"];
      if (!style) return null;
      text += style(n);
    }
  }
  return text;
};
/** The numbers of a list's items, worked out once a call. @type {Map<Element, Map<Element, number>>} */
const ordinalsKnown = new Map();
/**
 * A list item's number as HTML counts it: from its `ol`'s `start` (or,
 * reversed, its count of items), down a `reversed` one, each `value`
 * starting the count anew; 1, 2, … in any other list.
 * @param {Element} item
 */
const ordinalOf = (item) => {
  const list = item.parentElement;
  if (!list) return 1;
  let known = ordinalsKnown.get(list);
  if (!known) {
    known = new Map();
    const items = Array.from(list.children).filter((child) => child.tagName === "LI");
    const ol = list.tagName === "OL" ? /** @type {HTMLOListElement} */ (list) : null;
    const down = Boolean(ol && ol.reversed);
    let next = ol && ol.hasAttribute("start") ? ol.start : down ? items.length : 1;
    for (const each of items) {
      const value = parseInt(each.getAttribute("value") || "", 10);
      if (!Number.isNaN(value)) next = value;
      known.set(each, next);
      next += down ? -1 : 1;
    }
    ordinalsKnown.set(list, known);
  }
  return known.get(item) ?? 1;
};
/**
 * The words a list item's `::marker` shows, as a person sees them: its
 * number in its list's style (`3. `), or what the browser said it shows
 * (a marker of its own, a style not in `ORDINALS`); nothing for a bullet,
 * an item with no marker, or a marker not drawn.
 * @param {Element} element
 */
const markerText = (element) => {
  const handedText = handedWords(element, "marker");
  if (element.tagName !== "LI" && handedText === undefined) return "";
  if (!/list-item/.test(layoutOf(element).display)) return "";
  let ordinal = null;
  if (handedText === undefined) {
    // A marker of the page's own counters (not the item's number alone),
    // counted here.
    if (pageCounted(element)) {
      const marker = getComputedStyle(element, "::marker");
      const words = undrawnWords(marker) ? "" : contentWords(element, "::marker", marker.content, marker);
      return /[\p{L}\p{N}]/u.test(words) ? words : "";
    }
    ordinal = listMarkerOf(element);
    if (!ordinal) return "";
  } else if (undrawnWords(getComputedStyle(element, "::marker"))) return "";
  const text = ordinal ? ordinal(ordinalOf(element)) : handedText || "";
  // A bullet is no word.
  return /[\p{L}\p{N}]/u.test(text) ? text : "";
};


/**
 * @typedef {{name: string, origin: Element, value: number}} Counter
 */
/** Per document, the counters in scope at each element, as CSS counts them (`countedIn`). @type {Map<Document, Map<Element, Counter[]>>} */
const pageCounters = new Map();
/**
 * A computed `counter-reset`, `counter-increment` or `counter-set` as
 * names and numbers (`by` where a name has none).
 * @param {string} value @param {number} by
 * @returns {[string, number][]}
 */
const counterChanges = (value, by) => {
  /** @type {[string, number][]} */
  const changes = [];
  for (const token of (value || "none").trim().split(/\s+/)) {
    if (/^-?\d+$/.test(token) && changes.length) changes[changes.length - 1][1] = parseInt(token, 10);
    else if (token !== "none" && !/^-?\d+$/.test(token)) changes.push([token.replace(/^reversed\((.*)\)$/, "$1"), by]);
  }
  return changes;
};
/**
 * Applies an element's (or its `::before`'s) counter properties to the
 * counters in scope there: resets first (a counter its previous sibling
 * or itself began gives way), then increments, then sets.
 * @param {Counter[]} counters @param {Element} element @param {CSSStyleDeclaration} style
 */
const countHere = (counters, element, style) => {
  const last = (/** @type {string} */ name) => counters.filter((counter) => counter.name === name).pop();
  const begin = (/** @type {string} */ name, /** @type {number} */ value) => {
    const inner = last(name);
    if (inner && (inner.origin === element || inner.origin.parentElement === element.parentElement)) {
      counters.splice(counters.lastIndexOf(inner), 1);
    }
    counters.push({ name, origin: element, value });
  };
  for (const [name, value] of counterChanges(style.counterReset, 0)) begin(name, value);
  for (const [name, by] of counterChanges(style.counterIncrement, 1)) {
    if (!last(name)) begin(name, 0);
    /** @type {Counter} */ (last(name)).value += by;
  }
  for (const [name, value] of counterChanges(style.counterSet, 0)) {
    if (!last(name)) begin(name, 0);
    /** @type {Counter} */ (last(name)).value = value;
  }
};
/**
 * The counters in scope at an element as the page counts them, worked
 * out once a call for its whole document (where the browser hands no
 * counted words over): an element has its parent's, those its previous
 * sibling began, each at the value the element before it in the page
 * left it at, then its own and its `::before`'s changes.
 * @param {Element} element
 * @returns {Counter[]}
 */
const countedIn = (element) => {
  const doc = element.ownerDocument;
  let sets = pageCounters.get(doc);
  if (!sets) {
    sets = new Map();
    pageCounters.set(doc, sets);
    /** @type {Element | null} */
    let previous = null;
    const walker = doc.createTreeWalker(doc.documentElement, NodeFilter.SHOW_ELEMENT);
    for (let node = /** @type {Element | null} */ (walker.currentNode); node; node = /** @type {Element | null} */ (walker.nextNode())) {
      const parent = node.parentElement;
      const counters = ((parent && sets.get(parent)) || []).map((counter) => ({ ...counter }));
      const sibling = node.previousElementSibling || parent;
      for (const counter of (sibling && sets.get(sibling)) || []) {
        if (!counters.some((own) => own.name === counter.name)) counters.push({ ...counter });
      }
      for (const counter of (previous && sets.get(previous)) || []) {
        const same = counters.find((own) => own.name === counter.name && own.origin === counter.origin);
        if (same) same.value = counter.value;
      }
      countHere(counters, node, getComputedStyle(node));
      countHere(counters, node, getComputedStyle(node, "::before"));
      sets.set(node, counters);
      previous = node;
    }
  }
  return sets.get(element) || [];
};
/**
 * What a `counter(name, style)` or `counters(name, "joint", style)` in an
 * element's `::before`, `::after` or `::marker` shows (`args`: what the
 * parentheses hold), as the page counts (`countedIn`; after an element's
 * content, its counters as its last descendant left them). A list item's
 * `list-item` counter is its number.
 * @param {Element} element @param {string} which @param {boolean} all @param {string} args
 */
const counterWords = (element, which, all, args) => {
  const parts = args.match(/"(?:[^"\\]|\\[\s\S])*"|'(?:[^'\\]|\\[\s\S])*'|[^,\s]+/g) || [];
  const name = parts[0] || "";
  const joint = all ? (parts[1] || '""').slice(1, -1) : "";
  const style = ORDINALS[(all ? parts[2] : parts[1]) || "decimal"];
  let counters = countedIn(element).filter((counter) => counter.name === name);
  if (which === "::after") {
    let end = element;
    while (end.lastElementChild) end = end.lastElementChild;
    const left = countedIn(end);
    counters = counters.map((counter) => left.find((own) => own.name === name && own.origin === counter.origin) || counter);
  }
  if (!counters.length && name === "list-item" && element.tagName === "LI") return (style || String)(ordinalOf(element));
  if (!style) return "";
  const values = counters.length ? counters.map((counter) => counter.value) : [0];
  return all ? values.map(style).join(joint) : style(values[values.length - 1]);
};

/**
 * The mark an `open-quote` or `close-quote` draws: of the page's `quotes`
 * pair for how deep the element sits in quotations (its `q` ancestors),
 * else English marks, double outside, single within.
 * @param {Element} element @param {CSSStyleDeclaration} style @param {boolean} open
 */
const quoteOf = (element, style, open) => {
  let depth = 0;
  for (let up = element.parentElement; up && depth < 8; up = up.parentElement) if (up.tagName === "Q") depth++;
  const given = /** @type {string[]} */ ([]);
  for (const [, mark] of (style.quotes || "").matchAll(/"((?:[^"\\]|\\.)*)"/g)) given.push(mark.replace(/\\(.)/g, "$1"));
  if (given.length >= 2) {
    const pair = Math.min(depth, Math.floor(given.length / 2) - 1) * 2;
    return given[open ? pair : pair + 1];
  }
  if (style.quotes === "none") return "";
  return depth ? (open ? "\u2018" : "\u2019") : (open ? "\u201C" : "\u201D");
};

/**
 * The words a computed `content` writes in an element's pseudo-element
 * (`which`): its strings, attributes, quotes and counters (as the page
 * counts them: `counterWords`), up to the alternative text after a `/`;
 * not an icon font's glyph, nor words its font draws without ink.
 * @param {Element} element @param {string} which @param {string} content
 * @param {CSSStyleDeclaration} style  the pseudo-element's
 */
const contentWords = (element, which, content, style) => {
  let text = "";
  let at = 0;
  while (at < content.length) {
    const c = content[at];
    if (c === " ") { at++; continue; }
    if (c === "/") break;
    if (c === '"' || c === "'") {
      at++;
      while (at < content.length && content[at] !== c) {
        if (content[at] === "\\") {
          const hex = /^[0-9a-fA-F]{1,6} ?/.exec(content.slice(at + 1));
          if (hex) {
            text += String.fromCodePoint(Math.min(parseInt(hex[0], 16) || 0xfffd, 0x10ffff));
            at += 1 + hex[0].length;
          } else {
            text += content[at + 1] || "";
            at += 2;
          }
          continue;
        }
        text += content[at++];
      }
      at++;
      continue;
    }
    const word = /^[a-z-]+/.exec(content.slice(at));
    if (!word) { at++; continue; }
    at += word[0].length;
    if (content[at] === "(") {
      const close = content.indexOf(")", at);
      const inner = content.slice(at + 1, close < 0 ? content.length : close).trim();
      if (word[0] === "attr") text += element.getAttribute(inner.split(/[\s,]/)[0]) || "";
      else if (word[0] === "counter" || word[0] === "counters") text += counterWords(element, which, word[0] === "counters", inner);
      at = close < 0 ? content.length : close + 1;
      continue;
    }
    if (word[0] === "open-quote" || word[0] === "close-quote") text += quoteOf(element, style, word[0] === "open-quote");
  }
  // An icon font's glyph (a private-use code point) is a picture, not a word.
  const words = text.replace(/\p{Co}/gu, "");
  // Nor are words a font draws without ink (`drawsNoInk`).
  if (element.ownerDocument === document && drawsNoInk(style, () => words, parseFloat(style.fontSize))) return "";
  return words;
};

/**
 * Words in a box of their own (floated, out of the flow, a block on a line
 * of its own: not an item of a flex or grid box, laid along the others)
 * are apart from the element's text, as a person sees them.
 * @param {Element} element @param {CSSStyleDeclaration} style @param {string} which @param {string} words
 */
const apart = (element, style, which, words) =>
  words && (style.cssFloat !== "none" || /^(absolute|fixed)$/.test(style.position) ||
    (!style.display.startsWith("inline") && !/flex|grid/.test(lookOf(element).style.display)))
    ? (which === "::before" ? words + " " : " " + words) : words;

/** Letters right to left by their nature (Hebrew, Arabic, Syriac, Thaana, N'Ko…). */
const RIGHT_TO_LEFT = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/u;
/** Letters left to right by their nature: any other letter. */
const LEFT_TO_RIGHT = /(?![\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF])\p{L}/u;
const GRAPHEMES = typeof Intl !== "undefined" && Intl.Segmenter ? new Intl.Segmenter(undefined, { granularity: "grapheme" }) : null;

/**
 * Whether a text is drawn mirrored: the element it lies in, or an inline
 * one around it, forces a direction (`unicode-bidi: bidi-override`, a
 * `<bdo>`) against its letters' own (Latin forced right to left draws
 * "olleH" as "Hello"; a reader of the direction forced reads the rest as
 * written). Only a text the forcing element holds alone: words of
 * several runs would be drawn in turned order too, which a line of runs
 * does not tell.
 * @param {Text} node @param {Element} parent
 */
const drawnMirrored = (node, parent) => {
  /** @type {Element | null} */
  let element = parent;
  for (let depth = 0; element && depth < 8; depth++) {
    const look = lookOf(element);
    const bidi = look.style.unicodeBidi;
    if (bidi === "bidi-override" || bidi === "isolate-override") {
      const text = node.nodeValue || "";
      if (element.textContent !== text) return false;
      const rtl = look.style.direction === "rtl";
      return rtl ? LEFT_TO_RIGHT.test(text) && !RIGHT_TO_LEFT.test(text) : RIGHT_TO_LEFT.test(text) && !LEFT_TO_RIGHT.test(text);
    }
    // An embedding or a block of its own ends what forcing reaches.
    if (bidi !== "normal" || !look.display.startsWith("inline")) return false;
    element = flatParentOf(element);
  }
  return false;
};

/** A text's letters in the opposite order, each with its marks. @param {string} text */
const mirror = (text) => (GRAPHEMES ? Array.from(GRAPHEMES.segment(text), (part) => part.segment) : Array.from(text)).reverse().join("");

/**
 * How a text's letters are cased as drawn (`text-transform`, which
 * Chromium's own tree reads too), where not as written.
 * @param {Element} parent @returns {string | undefined}
 */
const casingOf = (parent) => {
  const transform = styleOf(parent).textTransform;
  return transform === "uppercase" || transform === "lowercase" || transform === "capitalize" ? transform : undefined;
};

/**
 * A text cased as `casing` draws it (a word's first letter raised after
 * anything but a letter, digit or apostrophe; `after`, what is drawn just
 * before the text, where its first word began there).
 * @param {string} text @param {string | undefined} casing @param {string} [after]
 */
const asCased = (text, casing, after = "") =>
  casing === "uppercase" ? text.toUpperCase()
    : casing === "lowercase" ? text.toLowerCase()
      : casing === "capitalize"
        ? (after + text).replace(/(^|[^\p{L}\p{N}'’])(\p{Ll})/gu, (_, before, letter) => before + letter.toUpperCase()).slice(after.length)
        : text;

/**
 * The letter or digit drawn just before a text node in its block, where
 * its first word goes on from words before it (`foo<b>bar</b>` is one
 * word to capitalise); "" after a space, a block's edge or nothing.
 * @param {Text} node @returns {string}
 */
const joinedBefore = (node) => {
  /** @param {Node} at */
  const blockOf = (at) => {
    let element = at.parentElement;
    while (element && styleOf(element).display.startsWith("inline")) element = element.parentElement;
    return element;
  };
  const block = blockOf(node);
  const walker = document.createTreeWalker(block || document, NodeFilter.SHOW_TEXT);
  walker.currentNode = node;
  const before = walker.previousNode();
  const last = before && blockOf(before) === block ? (before.nodeValue || "").slice(-1) : "";
  return /[\p{L}\p{N}'’]/u.test(last) ? last : "";
};
