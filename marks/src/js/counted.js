// @ts-check
// counted.js: what CSS counts, as a person sees it drawn: a list item's
// marker (its number in its list's style, counted as HTML counts; a list
// style or a marker's own content made of words and that number), and
// the words the browser said a pseudo-element shows where a script cannot
// read them (a `counter()` of the page's own), handed over by DevTools
// (`Driver::hand_over`'s `generated`, asked by marks' COUNTED).
// Used by semantics.js's `generatedText`.

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
  parseFloat(style.fontSize) < 4 ||
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
    ordinal = listMarkerOf(element);
    if (!ordinal) return "";
  } else if (undrawnWords(getComputedStyle(element, "::marker"))) return "";
  const text = ordinal ? ordinal(ordinalOf(element)) : handedText || "";
  // A bullet is no word.
  return /[\p{L}\p{N}]/u.test(text) ? text : "";
};

