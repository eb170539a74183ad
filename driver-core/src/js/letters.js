// @ts-check
// letters.js: whether a person can read the letters an element draws, for
// visibility.js's judge: the backdrop its ancestors paint under them, how
// much transforms shrink them, and their colour (fill, stroke, shadow)
// against the backdrop through opacity, filters and blend modes. Where the
// text is on screen, paint.js judges it again against what is really
// painted under it. Joined after shapes.js.

/**
 * What lies behind an element's text, from its own background down
 * through its ancestors' to the first opaque layer, or the document's
 * canvas (see `Backdrop`).
 * @param {Look} look
 * @returns {Backdrop}
 */
const backdropOf = (look) => {
  if (look.backdrop === undefined) {
    // Most elements paint no background at all: theirs is their parent's.
    // (One clipped to its letters is theirs, not behind them.)
    const colour = look.style.backgroundColor;
    if (((colour === "rgba(0, 0, 0, 0)" || colour === "transparent") && look.style.backgroundImage === "none") ||
        clipsToText(look.style)) {
      look.backdrop = look.up ? backdropOf(look.up) : { span: spanOf([canvasOf(look.element.ownerDocument)]), by: null, unknown: false };
      return look.backdrop;
    }
    const { spans, unknown } = backgroundLayers(look.style);
    const own = composeOver(spans.slice(1), spans[0]);
    if (spanOpaque(own) && !unknown) {
      look.backdrop = { span: own, by: look.element, unknown: false };
    } else if (unknown) {
      look.backdrop = { span: own, by: look.element, unknown: true };
    } else {
      const below = look.up ? backdropOf(look.up) : { span: spanOf([canvasOf(look.element.ownerDocument)]), by: null, unknown: false };
      const transparent = own.light[3] === 0 && own.dark[3] === 0;
      look.backdrop = transparent ? below : { span: composeOver([own], below.span), by: below.by, unknown: below.unknown };
    }
  }
  return look.backdrop;
};

/**
 * How much an element's and its ancestors' transforms shrink the letters
 * drawn in it (1: not at all): along the axis they shrink most (a skew
 * near a right angle smears letters into a line); for a box turned or
 * pushed away in depth, the share of its area still drawn; 0 for a
 * backface turned to the viewer. An inline box cannot be transformed.
 * @param {Look} look
 * @returns {number}
 */
const letterScaleOf = (look) => {
  if (look.letterScale < 0) {
    let scale = 1;
    if (look.display !== "inline") {
      const own = ownTransform(look.style);
      if (own) {
        if (look.position === "static") {
          look.transformed = true;
          stackingLooks.push(look);
        }
        scale = own.squash;
        const html = /** @type {HTMLElement} */ (look.element);
        const laid = (html.offsetWidth || 0) * (html.offsetHeight || 0);
        if (scale > 0 && laid > 0 && !own.matrix.is2D) {
          const drawn = rectOf(look.element);
          const share = (drawn.width * drawn.height) / laid;
          if (share < 1) scale = Math.min(scale, Math.sqrt(share));
        }
      }
      if (look.style.backfaceVisibility === "hidden" && facesAway(look)) scale = 0;
    }
    look.letterScale = look.up ? scale * parentLetterScale(look) : scale;
  }
  return look.letterScale;
};

/**
 * Whether an element's front faces away from the viewer: its transform
 * and those of the ancestors whose 3-D space it shares (each parent that
 * keeps `transform-style: preserve-3d`) turn it round. A card's back,
 * turned once by itself and once with its flipped card, faces the viewer.
 * @param {Look} look
 */
const facesAway = (look) => {
  let matrix = new DOMMatrix();
  for (let at = /** @type {Look | null} */ (look); at; at = at.up) {
    const own = at.display === "inline" ? null : ownTransform(at.style);
    if (own) matrix = own.matrix.multiply(matrix);
    if (!at.up || at.up.style.transformStyle !== "preserve-3d") break;
  }
  return matrix.m33 < 0;
};

/**
 * The letter scale of an element's parent. A transformed element (by any
 * of the four properties) is a containing block, so the browser's
 * `offsetParent` stops at the nearest one; where the element's offset
 * parent is found up a path of plain parents (it is retargeted across
 * shadow trees), nothing between is transformed, and each look between
 * takes the offset parent's scale without reading its style. A long list
 * of links costs one question per item, not three style reads.
 * @param {Look} look  an element with a parent
 * @returns {number}
 */
const parentLetterScale = (look) => {
  const up = /** @type {Look} */ (look.up);
  if (up.letterScale >= 0) return up.letterScale;
  const anchor = offsetParentLook(look);
  if (anchor === null) return letterScaleOf(up);
  const scale = letterScaleOf(anchor);
  for (let at = up; at !== anchor; at = /** @type {Look} */ (at.up)) at.letterScale = scale;
  return scale;
};

/**
 * The look of an element's offset parent, if the path to it is one of
 * plain parents (no slot, no shadow root crossed), or null.
 * @param {Look} look
 * @returns {Look | null}
 */
const offsetParentLook = (look) => {
  const anchor = "offsetParent" in look.element ? /** @type {HTMLElement} */ (look.element).offsetParent : null;
  if (!anchor) return null;
  for (let at = look; at.up !== null; at = at.up) {
    if (at.up.element !== at.element.parentElement) return null;
    if (at.up.element === anchor) return at.up;
  }
  return null;
};

/**
 * The size an element's letters are drawn at, in CSS pixels: its font
 * size, zoomed and shrunk by its and its ancestors' transforms. An inline
 * box with no box at all draws none of them.
 * @param {Element} element
 */
const drawnTextSize = (element) => {
  const look = lookOf(element);
  const size = look.size();
  // An SVG drawing's letters are scaled by its screen transform (its
  // view box's, its groups', and every transform above the drawing).
  if (element.namespaceURI === SVG_NS && "getScreenCTM" in element) return size * svgScaleOf(/** @type {SVGGraphicsElement} */ (element));
  if (look.display === "inline" && !hasArea(rectOf(element))) return 0;
  const zoom = /** @type {Element & {currentCSSZoom?: number}} */ (element).currentCSSZoom;
  return size * (typeof zoom === "number" ? zoom : 1) * letterScaleOf(look);
};

/**
 * How much an SVG element is scaled as drawn, along its narrower axis:
 * its screen transform's (1 where it has none).
 * @param {SVGGraphicsElement} element
 */
const svgScaleOf = (element) => {
  const matrix = element.getScreenCTM();
  return matrix ? leastStretch(matrix.a, matrix.b, matrix.c, matrix.d) : 1;
};

/**
 * Whether an SVG text's letters are squeezed to nothing along its line
 * (`textLength` with `lengthAdjust="spacingAndGlyphs"`): under a pixel a
 * letter as drawn, though its font is of a size to read.
 * @param {Element} element
 */
const svgSqueezed = (element) => {
  if (element.namespaceURI !== SVG_NS || !("getNumberOfChars" in element)) return false;
  const text = /** @type {SVGTextContentElement} */ (element);
  const letters = text.getNumberOfChars();
  if (letters < 3) return false;
  let width = 0;
  try { width = text.getBBox().width; } catch (_) { return false; }
  return (width * svgScaleOf(text)) / letters < 1;
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
 * Whether a person can read the text of an element although the element
 * shows: see `textFateOf`. Faint text counts as not read.
 * @param {Element} element
 */
const textHidden = (element) => textFateOf(element) !== "seen";

/**
 * How the text drawn in an element reads to a person, judged from its own
 * style and its ancestors': "hidden" (indented away, smaller than two
 * pixels as drawn, blurred away), "faint" (its letters, through their
 * alpha, blend mode and filters, hardly differ from the backdrop its
 * ancestors paint), or "seen". "Faint" is the ancestors' word only: where
 * the text is on screen, `paintedOver` judges it again against what is
 * really painted under it.
 * @param {Element} element
 * @returns {"seen" | "faint" | "hidden"}
 */
const textFateOf = (element) => {
  const look = lookOf(element);
  if (look.textFate === undefined) look.textFate = judgeText(look, null);
  return look.textFate;
};

/**
 * Whether an element or any of its ancestors has a filter (read for its
 * opacity anyway), or it or its parent a blend mode (most pages have
 * neither: then judging letters reads no ancestor again).
 * @param {Look} look
 * @returns {boolean}
 */
const effectsOf = (look) => {
  if (look.effects === undefined) {
    look.effects = filteredUp(look) || look.blend() !== "normal" || (look.up !== null && look.up.blend() !== "normal");
  }
  return look.effects;
};

/**
 * Whether an element or any of its ancestors has a filter.
 * @param {Look} look
 * @returns {boolean}
 */
const filteredUp = (look) => {
  if (look.filtered === undefined) look.filtered = look.filter() !== "none" || (look.up !== null && filteredUp(look.up));
  return look.filtered;
};

/**
 * Whether the text drawn in an element shows a background through its
 * letters (`background-clip: text`, on it or an ancestor).
 * @param {Element} element
 */
const backgroundInLetters = (element) => lookOf(element).lettersClipBackground;

/**
 * Whether the text drawn in an element is seen by its shadow alone: a
 * shadow, and letters with no fill.
 * @param {Element} element
 */
const shadowOnly = (element) => {
  const style = lookOf(element).style;
  if (!style.textShadow || style.textShadow === "none") return false;
  const fill = resolveColour(style.webkitTextFillColor || style.color);
  return fill !== null && fill[3] === 0;
};

/**
 * The colours a text's letters are drawn in: their fill, and (`outlines`)
 * a stroke or a shadow that outlines them (either makes them readable).
 * @param {Look} look
 * @param {boolean} outlines
 * @returns {RGBA[] | "gradient"}
 */
const letterColours = (look, outlines) => {
  const style = look.style;
  const element = look.element;
  /** @type {RGBA[]} */
  const found = [];
  if (element.namespaceURI === SVG_NS) {
    const fill = style.fill;
    if (/url\(/.test(fill)) return "gradient";
    const alpha = parseFloat(style.fillOpacity);
    const colour = fill === "none" ? TRANSPARENT : rgba(fill) || TRANSPARENT;
    found.push([colour[0], colour[1], colour[2], colour[3] * (Number.isFinite(alpha) ? alpha : 1)]);
    const stroke = style.stroke;
    if (stroke && stroke !== "none" && parseFloat(style.strokeWidth) > 0) {
      if (/url\(/.test(stroke)) return "gradient";
      const colour = rgba(stroke) || TRANSPARENT;
      const strokeAlpha = parseFloat(style.strokeOpacity);
      found.push([colour[0], colour[1], colour[2], colour[3] * (Number.isFinite(strokeAlpha) ? strokeAlpha : 1)]);
    }
    return found;
  }
  // The fill is the colour the letters are drawn in (its computed value
  // is the colour where none is set); a transparent one shows the
  // background through the letters (a gradient's, for text the
  // background is clipped to).
  const fill = rgba(style.webkitTextFillColor || style.color) || TRANSPARENT;
  if (fill[3] < FAINTEST && look.lettersClipBackground) {
    // The background of the element that clips it to its letters (it,
    // or an ancestor whose text they are) shows through them.
    for (let at = /** @type {Look | null} */ (look); at; at = at.up) {
      if (clipsToText(at.style)) return clippedColours(at.style, rectOf(at.element));
    }
  }
  found.push(fill);
  if (!outlines) return found;
  if (parseFloat(style.webkitTextStrokeWidth) > 0) found.push(rgba(style.webkitTextStrokeColor) || TRANSPARENT);
  const shadow = style.textShadow;
  if (shadow && shadow !== "none") found.push(...sharpShadows(shadow, parseFloat(style.fontSize), (x, y) => shadowLands(look, x, y)));
  return found;
};

/**
 * Whether a shadow moved `x`, `y` off its letters is drawn where it can be
 * seen: within the boxes that clip them and on the page. (The letters'
 * own place is what the pictures prove; a shadow moved out of a box that
 * clips it shows nothing, wherever its letters are.)
 * @param {Look} look @param {number} x @param {number} y
 */
const shadowLands = (look, x, y) => {
  if (x === 0 && y === 0) return true;
  const own = rectOf(look.element);
  const moved = /** @type {DOMRect} */ (/** @type {unknown} */ ({ left: own.left + x, right: own.right + x, top: own.top + y, bottom: own.bottom + y }));
  return !outsideEdges(moved, boundsOf(look).clip) && !offPage(moved);
};

/**
 * The colours a background clipped to the letters draws them in: its
 * gradients' stops (of the layers that draw over them: `drawsOver`) and
 * its colour beneath them (none: the letters are not drawn); "gradient"
 * (not known, so seen) where a layer is a picture.
 * @param {CSSStyleDeclaration} style
 * @param {DOMRect} [box]  the box the background is drawn in, where known
 * @returns {RGBA[] | "gradient"}
 */
const clippedColours = (style, box) => {
  const image = style.backgroundImage;
  const layers = image === "none" ? [] : splitLayers(image);
  if (!layers.every((layer) => /^\s*(?:-webkit-)?(?:repeating-)?(?:linear|radial|conic)-gradient\(/.test(layer))) return "gradient";
  const sizes = splitLayers(style.backgroundSize), positions = splitLayers(style.backgroundPosition);
  const repeats = splitLayers(style.backgroundRepeat);
  /** @type {RGBA[]} */
  const found = [];
  layers.forEach((layer, i) => {
    /** @param {string[]} list */
    const of = (list) => list[i % list.length].trim().split(/\s+/);
    if (drawsOver(of(sizes), of(positions), of(repeats), box)) found.push(...coloursIn(layer));
  });
  const under = rgba(style.backgroundColor);
  if (under && under[3] > 0) found.push(under);
  return found.length > 0 ? found : [TRANSPARENT];
};

/**
 * Whether a background layer of this computed size, position and repeat
 * draws over letters a person reads: along an axis it does not repeat, a
 * layer less than SMALLEST_INK across (sized to nothing, a stripe, a
 * hairline) draws no letters, nor one moved out of `box`.
 * @param {string[]} size @param {string[]} position @param {string[]} repeat
 * @param {DOMRect} [box]
 */
const drawsOver = (size, position, repeat, box) => {
  const [repeatX, repeatY] = repeat.length > 1 ? repeat
    : repeat[0] === "repeat-x" ? ["repeat", "no-repeat"] : repeat[0] === "repeat-y" ? ["no-repeat", "repeat"] : [repeat[0], repeat[0]];
  const extents = box ? [box.width, box.height] : [Infinity, Infinity];
  return [repeatX, repeatY].every((repeats, axis) => {
    if (repeats !== "no-repeat") return true;
    const across = /^[\d.]+px$/.test(size[axis] || "") ? parseFloat(size[axis]) : Infinity;
    if (across < SMALLEST_INK) return false;
    const at = /^-?[\d.]+px$/.test(position[axis] || "") ? parseFloat(position[axis]) : 0;
    return at < extents[axis] && (across === Infinity ? at > -extents[axis] : at + across > 0);
  });
};

/**
 * The lower-case family names of the document's own fonts (its
 * `@font-face` rules and `FontFace`s), read once per call.
 * @type {Set<string> | null}
 */
let ownFamilies = null;

/**
 * Whether a `font-family` value names a font of the document's own, by
 * the value, once per call.
 * @type {Map<string, boolean>}
 */
const ownFamily = new Map();

/** @param {string} family */
const bareFamily = (family) => family.trim().replace(/^["']|["']$/g, "").toLowerCase();

/**
 * The ink a canvas draws a character with in its current font: its width
 * and height in CSS pixels, from the glyph's outline.
 * @param {OffscreenCanvasRenderingContext2D} context @param {string} character
 */
const inkOf = (context, character) => {
  const measured = context.measureText(character);
  return [
    measured.actualBoundingBoxLeft + measured.actualBoundingBoxRight,
    measured.actualBoundingBoxAscent + measured.actualBoundingBoxDescent,
  ];
};

/** @type {OffscreenCanvasRenderingContext2D | null | undefined} */
let inkContext;
/** The font last set on `inkContext` (setting one parses it). */
let inkFont = "";
/**
 * The canvas no page sees (an `OffscreenCanvas`: no element, no event),
 * set to draw in `font`; `null` where there is none.
 * @param {string} font
 */
const inkCanvas = (font) => {
  if (inkContext === undefined) {
    try { inkContext = new OffscreenCanvas(1, 1).getContext("2d"); } catch (_) { inkContext = null; }
  }
  if (inkContext && font !== inkFont) {
    inkContext.font = font;
    inkFont = font;
  }
  return inkContext;
};

/**
 * Each font's characters' ink, as `inkOf` measures it: a page's text in
 * one font has a few dozen characters, measured once each.
 * @type {Map<string, Map<string, number[]>>}
 */
const inks = new Map();

/**
 * Whether the font an element's own letters are set in draws them with no
 * ink a person reads (see `drawsNoInk`), drawn at `size`.
 * @param {Look} look @param {number} size  the size they are drawn at
 */
const inkless = (look, size) => {
  const element = look.element;
  if (element.ownerDocument !== document) return false;
  return drawsNoInk(look.style, () => {
    let text = "";
    for (let child = element.firstChild; child && text.length < 64; child = child.nextSibling) {
      if (child.nodeType === Node.TEXT_NODE) text += child.nodeValue;
    }
    return text;
  }, size);
};

/**
 * Whether letters of `style` (an element's, or a pseudo-element's whose
 * words CSS writes) draw `words()` with no ink a person reads: a font of
 * the document's own whose glyphs are blank, or one scaled to nothing
 * (`size-adjust` in its `@font-face`, or `font-size-adjust`), so that
 * drawn at `size` its letters are under SMALLEST_INK tall. Asked of a
 * canvas no page sees (an `OffscreenCanvas`: no element, no event) in the
 * document's fonts, and only where the style's families name one of them
 * or it adjusts its size (the words are read only then): the browser's
 * own fonts draw what they have. Where it cannot be asked, the letters
 * count.
 * @param {CSSStyleDeclaration} style @param {() => string} words
 * @param {number} size  the size they are drawn at
 */
const drawsNoInk = (style, words, size) => {
  if (typeof OffscreenCanvas !== "function") return false;
  const family = style.fontFamily;
  let ours = ownFamily.get(family);
  if (ours === undefined) {
    if (ownFamilies === null) {
      ownFamilies = new Set();
      try {
        for (const face of document.fonts) ownFamilies.add(bareFamily(face.family));
      } catch (_) { /* no fonts to ask of */ }
    }
    const own = /** @type {Set<string>} */ (ownFamilies);
    ours = own.size > 0 && family.split(",").some((name) => own.has(bareFamily(name)));
    ownFamily.set(family, ours);
  }
  const adjustment = style.fontSizeAdjust;
  const adjusted = adjustment && adjustment !== "none" ? /[\d.]+/.exec(adjustment) : null;
  if (!ours && !adjusted) return false;
  const text = words();
  const fontSize = parseFloat(style.fontSize);
  if (!(fontSize > 0)) return false;
  const font = `${style.fontStyle} ${style.fontWeight} ${fontSize}px ${family}`;
  const context = inkCanvas(font);
  if (!context) return false;
  let measured = inks.get(font);
  if (!measured) inks.set(font, (measured = new Map()));
  const known = /** @type {Map<string, number[]>} */ (measured);
  /**
   * A character's ink and kind: [width, height, 1 for a letter or digit,
   * 0 for other marks, -1 for a space].
   * @param {string} character
   */
  const ink = (character) => {
    let found = known.get(character);
    if (!found) {
      if (/\s/u.test(character)) {
        found = [0, 0, -1];
      } else {
        found = [...inkOf(context, character), /[\p{L}\p{N}]/u.test(character) ? 1 : 0];
      }
      known.set(character, found);
    }
    return found;
  };
  // Blank: no character of it draws ink. Too small: its tallest letter or
  // digit is under SMALLEST_INK as drawn (punctuation alone is small by
  // nature).
  let inked = false;
  let spaces = true;
  let tallest = -1;
  for (const character of text.slice(0, 64)) {
    const [width, height, kind] = ink(character);
    if (kind < 0) continue;
    spaces = false;
    if (width >= 0.5 || height >= 0.5) inked = true;
    if (kind > 0 && height > tallest) tallest = height;
  }
  if (spaces) return false;
  if (!inked) return true;
  if (tallest < 0) return false;
  const [, xHeight] = adjusted ? ink("x") : [0, 0];
  const adjust = adjusted && xHeight > 0 ? (parseFloat(adjusted[0]) * fontSize) / xHeight : 1;
  return tallest * (size / fontSize) * adjust < SMALLEST_INK;
};

/**
 * Judges a text's look (see `textFateOf`), against `behind` where it is
 * known from what is painted, else against the backdrop its ancestors
 * paint.
 * @param {Look} look
 * @param {{span: Span, by: Element | null} | null} behind
 * @returns {"seen" | "faint" | "hidden"}
 */
const judgeText = (look, behind) => {
  if (indentedAway(look)) return "hidden";
  const size = drawnTextSize(look.element);
  if (size < SMALLEST_TEXT || inkless(look, size) || svgSqueezed(look.element)) return "hidden";
  const backdrop = behind || backdropOf(look);
  if (!behind && /** @type {Backdrop} */ (backdrop).unknown) return "seen";
  // The common case: no filter nor blend mode up the tree, and the fill
  // alone reads clearly.
  if (!effectsOf(look)) {
    const fill = letterColours(look, false);
    if (fill === "gradient") return "seen";
    const alpha = look.opacity / (backdrop.by ? lookOf(backdrop.by).opacity : 1);
    if (fill.some((letters) => letters[3] * alpha >= FAINTEST &&
        spanColours(backdrop.span).some((under) => contrastOf(over([letters[0], letters[1], letters[2], Math.min(1, letters[3] * alpha)], under), under) >= LEAST_CONTRAST))) {
      return "seen";
    }
  }
  const drawn = letterColours(look, true);
  if (drawn === "gradient") return "seen";
  // Through the ancestors up to what paints the backdrop, the letters'
  // own opacity, filters and blend mode apply to them alone; above it, to
  // both.
  let alpha = 1;
  /** @type {{name: string, amount: number}[]} */
  const own = [];
  /** @type {{name: string, amount: number}[]} */
  const shared = [];
  let mode = "normal";
  let blur = 0;
  let below = true;
  for (let at = /** @type {Look | null} */ (look); at; at = at.up) {
    if (at.element === backdrop.by) below = false;
    const steps = at.filter() === "none" ? [] : at.filters();
    blur = Math.hypot(blur, blurOf(steps));
    if (below) {
      own.push(...steps);
      const opacity = parseFloat(at.style.opacity);
      if (Number.isFinite(opacity) && at.element !== backdrop.by) alpha *= opacity;
      if (mode === "normal" && at.blend() !== "normal") mode = at.blend();
    } else {
      shared.push(...steps);
    }
  }
  if (blur >= Math.max(BLURRED_PX, BLURRED_SHARE * size)) return "hidden";
  const ground = spanColours(backdrop.span).map((colour) => filtered(colour, shared));
  for (const letters of drawn) {
    if (letters[3] * alpha < FAINTEST) continue;
    const tinted = filtered(letters, own);
    for (const under of ground) {
      const source = blended(mode, under, tinted);
      const seen = over([source[0], source[1], source[2], Math.min(1, source[3] * alpha)], under);
      if (contrastOf(filtered(seen, shared), under) >= LEAST_CONTRAST) return "seen";
    }
  }
  return "faint";
};

