// @ts-check
// paint.js: what paints over what, for visibility.js's judge and the
// walker's paint pass. On screen, a point of a text run or an element is
// hit-tested (every element's pointer-events set aside for the test, so a
// cover that lets the pointer through still counts) and what lies on top
// is judged by what it paints there: a background, an image's, canvas's or
// video's pixel, an SVG shape's fill, another site's frame, a blurring
// backdrop filter, a positioned ::before or ::after; what lies under it is
// composed into the backdrop the letters are read against. Off screen, and
// for what no hit test sees (box shadows, outlines), the boxes positioned
// elements paint (`lidsOver`) are judged by their extents and paint order.
// Joined after letters.js.

/**
 * A box something paints over others with, in its document's viewport:
 * a positioned element's own box, its shadow's or outline's extent, or a
 * positioned ::before or ::after of it; opaque there, or blurring what is
 * under it.
 * `fixed` where it stays in place as the page scrolls.
 * @typedef {{left: number, top: number, right: number, bottom: number, by: Element,
 *   kind: "box" | "shadow" | "outline" | "pseudo", fixed?: boolean, flow?: boolean, under?: boolean}} Lid
 * `flow` for a box of the flow that paints whole (`paintsWhole`): true
 * where it paints in its turn among the flow's words, false with the
 * positioned boxes; either way, held here to lie over the flow's words
 * before it in the document only. `under` for a ::before at its element's
 * own level (no positive z-index), drawn first of what the element holds:
 * under a box inside it that is positioned or stacks.
 */

/**
 * An element's positioned ::before and ::after boxes that paint over what
 * lies under them (an opaque background, or a blurring backdrop filter).
 * @param {Element} element
 * @returns {Lid[]}
 */
const pseudoLidsOf = (element) => {
  const look = lookOf(element);
  if (look.pseudoLids === undefined) {
    /** @type {Lid[]} */
    const lids = [];
    for (const which of ["::before", "::after"]) {
      const style = getComputedStyle(element, which);
      const content = style.content;
      if (!content || content === "none" || content === "normal") continue;
      if (style.position !== "absolute" && style.position !== "fixed") continue;
      if (parseInt(style.zIndex, 10) < 0 || style.display === "none" || style.visibility === "hidden") continue;
      if ((parseFloat(style.opacity) || 0) * look.opacity < OPAQUE) continue;
      if (!paintsOpaque(style)) continue;
      // Its containing block: the viewport for a fixed one, else the
      // nearest positioned box from the element up.
      let base = { left: 0, top: 0 };
      if (style.position === "absolute") {
        for (let at = /** @type {Look | null} */ (look); at; at = at.up) {
          if (at.position !== "static" || at.element === element.ownerDocument.documentElement) {
            const rect = rectOf(at.element);
            const html = /** @type {HTMLElement} */ (at.element);
            base = { left: rect.left + (html.clientLeft || 0), top: rect.top + (html.clientTop || 0) };
            break;
          }
        }
      }
      const left = base.left + (parseFloat(style.left) || 0), top = base.top + (parseFloat(style.top) || 0);
      const width = parseFloat(style.width) + parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
      const height = parseFloat(style.height) + parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
      if (width > 0 && height > 0) {
        lids.push({ left, top, right: left + width, bottom: top + height, by: element, kind: "pseudo", fixed: style.position === "fixed",
          under: which === "::before" && !(parseInt(style.zIndex, 10) > 0) });
      }
    }
    look.pseudoLids = lids;
  }
  return look.pseudoLids;
};

/**
 * Whether a style paints its box opaquely or blurs what lies under it: an
 * opaque background colour, a gradient with no see-through stop, a
 * picture whose pixels all show (or that cannot be read), a backdrop
 * filter that blurs or flattens.
 * @param {CSSStyleDeclaration} style
 */
const paintsOpaque = (style) => {
  const colour = rgba(style.backgroundColor);
  if (colour && colour[3] >= OPAQUE) return true;
  const image = style.backgroundImage;
  if (image && image !== "none") {
    for (const layer of splitLayers(image)) {
      const url = /^url\(\s*"?([^")]*)"?\s*\)$/.exec(layer.trim());
      if (url) {
        const span = pictureSpan(url[1]);
        if (!span || (span.light[3] >= OPAQUE && span.dark[3] >= OPAQUE)) return true;
      } else if (/gradient\(/.test(layer)) {
        const stops = coloursIn(layer);
        if (stops.length && stops.every((stop) => stop[3] >= OPAQUE)) return true;
      }
    }
  }
  const backdrop = style.backdropFilter || style.getPropertyValue("-webkit-backdrop-filter");
  if (backdrop && backdrop !== "none") {
    const steps = filterSteps(backdrop);
    if (blurOf(steps) >= BLURRED_PX) return true;
    const grey = filtered([0, 0, 0, 1], steps), white = filtered([255, 255, 255, 1], steps);
    if (contrastOf(grey, white) < LEAST_CONTRAST) return true;
  }
  return false;
};

/**
 * Whether `element`, found on top at a point of its document's viewport,
 * paints over what is under it there: see `paintsOpaque`; an image's,
 * canvas's or video's pixel there that shows (or cannot be read); an SVG
 * shape's fill or stroke; another site's frame; a positioned ::before or
 * ::after box of its own.
 * @param {Element} element
 * @param {number} x
 * @param {number} y
 */
const paintsAt = (element, x, y) => {
  const look = lookOf(element);
  if (look.hidden || look.opacity < OPAQUE || !blendHides(look)) return false;
  if (paintsOpaque(look.style)) return true;
  const tag = element.tagName;
  if (tag === "IMG" || tag === "CANVAS" || tag === "VIDEO") {
    const rect = rectOf(element);
    const picture = /** @type {HTMLImageElement & HTMLCanvasElement & HTMLVideoElement} */ (element);
    const width = tag === "IMG" ? picture.naturalWidth : tag === "VIDEO" ? picture.videoWidth : picture.width;
    const height = tag === "IMG" ? picture.naturalHeight : tag === "VIDEO" ? picture.videoHeight : picture.height;
    if (!(width > 0 && height > 0) || !hasArea(rect)) return false;
    const px = ((x - rect.left) / rect.width) * width, py = ((y - rect.top) / rect.height) * height;
    const span = samplePicture(picture, Math.max(0, px - 0.5), Math.max(0, py - 0.5), 1, 1);
    return !span || span.light[3] >= 0.5;
  }
  if (tag === "IFRAME" || tag === "FRAME" || tag === "EMBED" || tag === "OBJECT") {
    /** @type {Document | null} */
    let inner = null;
    try { inner = /** @type {HTMLIFrameElement} */ (element).contentDocument; } catch (crossOrigin) { inner = null; }
    if (!inner || !inner.documentElement) return true;
    const root = getComputedStyle(inner.documentElement);
    const body = inner.body ? getComputedStyle(inner.body) : null;
    return paintsOpaque(root) || Boolean(body && paintsOpaque(body));
  }
  if (element.namespaceURI === SVG_NS && element.localName !== "svg" && element.localName !== "g") {
    const style = look.style;
    for (const [paint, alpha] of [[style.fill, style.fillOpacity], [style.stroke, style.strokeOpacity]]) {
      if (!paint || paint === "none") continue;
      if (/url\(/.test(paint)) return true;
      const colour = rgba(paint);
      if (colour && colour[3] * (parseFloat(alpha) || 0) >= OPAQUE) return true;
    }
    return false;
  }
  return pseudoLidsOf(element).some((lid) => x >= lid.left && x <= lid.right && y >= lid.top && y <= lid.bottom);
};

/**
 * Whether what an element paints hides what lies under it, given how its
 * blend mode mixes the two: with none, yes; with one, only where black and
 * white under its background come out alike (multiply with black, screen
 * with white). A tint that multiplies, or a mode that keeps the
 * backdrop's lightness (hue, saturation, color), lets the words under it
 * through; so does a blended picture or gradient, which cannot be told.
 * @param {Look} look
 */
const blendHides = (look) => {
  const mode = look.blend();
  if (!mode || mode === "normal") return true;
  if (mode === "hue" || mode === "saturation" || mode === "color") return false;
  const colour = rgba(look.style.backgroundColor);
  if (!colour || colour[3] < OPAQUE) return false;
  if (mode === "luminosity") return true;
  return contrastOf(blended(mode, [0, 0, 0, 1], colour), blended(mode, [255, 255, 255, 1], colour)) < LEAST_CONTRAST;
};

/**
 * Whether a box's own style paints something: a background, a border, a
 * shadow or an outline.
 * @param {CSSStyleDeclaration} style
 */
const boxPaints = (style) => {
  const colour = rgba(style.backgroundColor);
  if (colour === null || colour[3] > 0 || style.backgroundImage !== "none" || style.boxShadow !== "none") return true;
  if (style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0) return true;
  return ["top", "right", "bottom", "left"].some((side) =>
    parseFloat(style.getPropertyValue(`border-${side}-width`)) > 0 && style.getPropertyValue(`border-${side}-style`) !== "none");
};

/** The elements that draw a picture, a drawing or a field of their own. */
const DRAWS_ITS_OWN = /^(IMG|SVG|CANVAS|VIDEO|PICTURE|OBJECT|EMBED|IFRAME|INPUT|SELECT|TEXTAREA|METER|PROGRESS)$/i;

/**
 * Whether an element paints more than its text: a picture, drawing or
 * field, its box (`boxPaints`), or a `::before` or `::after` box with
 * words or paint of its own (an empty one that paints nothing, a
 * clearfix, does not count).
 * @param {Element} element @param {CSSStyleDeclaration} style
 */
const paintsBeyondText = (element, style) => {
  if (DRAWS_ITS_OWN.test(element.tagName) || boxPaints(style)) return true;
  const view = element.ownerDocument.defaultView || window;
  return ["::before", "::after"].some((pseudo) => {
    const own = view.getComputedStyle(element, pseudo);
    const content = own.content;
    if (!content || content === "none" || content === "normal") return false;
    return content !== '""' || boxPaints(own);
  });
};

/** The rule that makes every element answer a hit test, for the time of one. */
const EVERY_POINTER = "*, *::before, *::after { pointer-events: auto !important; }";

/**
 * Runs `test` with every element of the documents and shadow roots given
 * answering hit tests (pointer-events set aside: an overlay that lets
 * clicks through still hides what is under it), then puts them back. All
 * within one script run, so the page never sees the change.
 * @template T
 * @param {(Document | ShadowRoot)[]} roots
 * @param {() => T} test
 * @returns {T}
 */
const withEveryPointer = (roots, test) => {
  /** @type {{root: Document | ShadowRoot, sheets: CSSStyleSheet[]}[]} */
  const kept = [];
  try {
    for (const root of new Set(roots)) {
      const view = (/** @type {Document} */ (root.ownerDocument || root)).defaultView;
      if (!view || !("adoptedStyleSheets" in root)) continue;
      const sheet = new view.CSSStyleSheet();
      sheet.replaceSync(EVERY_POINTER);
      // (A copy: the list the root answers with is the live one.)
      const sheets = Array.from(root.adoptedStyleSheets);
      kept.push({ root, sheets });
      root.adoptedStyleSheets = [...sheets, sheet];
    }
  } catch (unsupported) {
    // Hit tests then see only what takes the pointer.
  }
  try {
    return test();
  } finally {
    // Last first: a root given twice gets back what it had before either.
    for (const { root, sheets } of kept.reverse()) root.adoptedStyleSheets = sheets;
  }
};

/**
 * What paints over a point of a text run or an element, and what lies
 * under it: hit-tests the point (in `root`'s viewport) and goes down the
 * stack to `own` (the element the text is drawn in, or the element
 * itself). Answers whether something on top paints there, and the
 * backdrop composed from what is painted under it (null where the point
 * is not on `own` at all). For an element (`whole`), what it holds is
 * part of it, never over it; over a text run, a positioned box inside
 * its element is.
 * @param {Document | ShadowRoot} root
 * @param {Element} own
 * @param {number} x
 * @param {number} y
 * @param {boolean} [whole]
 * @returns {{covered: Element | null, under: {span: Span, by: Element | null} | null}}
 */
const paintedAt = (root, own, x, y, whole = false) => {
  const stack = root.elementsFromPoint(x, y);
  /** @type {Element | null} */
  let covered = null;
  let i = 0;
  for (; i < stack.length; i++) {
    const element = stack[i];
    if (holdsFlat(element, own)) break;
    if (whole && holdsFlat(own, element)) continue;
    if (!covered && paintsAt(element, x, y)) covered = element;
  }
  // Its own and its ancestors' positioned ::before and ::after boxes lie
  // over its text; a ::before at its element's level, not over a box
  // between that is positioned or stacks (a kit's state layer under the
  // button it shades).
  if (!covered) {
    /** @param {Element} element */
    const raises = (element) => lookOf(element).position !== "static" || makesStacking(lookOf(element));
    let raised = whole && raises(own);
    for (let at = whole ? parentOf(own) : own; at && !covered; at = parentOf(at)) {
      if (pseudoLidsOf(at).some((lid) => !(lid.under && raised) &&
        x >= lid.left && x <= lid.right && y >= lid.top && y <= lid.bottom)) covered = at;
      raised = raised || raises(at);
    }
  }
  if (i >= stack.length) return { covered, under: null };
  // What is under the text, top first: own backgrounds down to an
  // opaque one.
  /** @type {Span[]} */
  const layers = [];
  /** @type {Element | null} */
  let by = null;
  for (let j = i; j < stack.length; j++) {
    const element = stack[j];
    const look = lookOf(element);
    if (look.hidden) continue;
    const { spans, unknown } = backgroundLayers(look.style);
    if (unknown) return { covered, under: null };
    const tag = element.tagName;
    if (tag === "IMG" || tag === "CANVAS" || tag === "VIDEO") {
      if (paintsAt(element, x, y)) return { covered, under: null };
    }
    const layer = composeOver(spans.slice(1), spans[0]);
    if (layer.light[3] === 0 && layer.dark[3] === 0) continue;
    layers.unshift(layer);
    if (spanOpaque(layer)) { by = element; break; }
  }
  const doc = own.ownerDocument;
  const span = composeOver(layers, spanOf([by ? TRANSPARENT : canvasOf(doc)]));
  return { covered, under: { span, by } };
};

/**
 * The points a text run or a box is judged at: the centres of up to three
 * of its boxes (its first, middle and last line).
 * @param {{left: number, top: number, width: number, height: number}[]} rects
 * @returns {[number, number][]}
 */
const samplePoints = (rects) => {
  const picked = rects.length <= 3 ? rects : [rects[0], rects[Math.floor(rects.length / 2)], rects[rects.length - 1]];
  return picked.map((rect) => [rect.left + rect.width / 2, rect.top + rect.height / 2]);
};

/**
 * Whether `x, y` lies within a document's viewport.
 * @param {Document} doc
 * @param {number} x
 * @param {number} y
 */
const onScreen = (doc, x, y) => {
  const view = doc.defaultView || window;
  return x >= 0 && y >= 0 && x < view.innerWidth && y < view.innerHeight;
};

/**
 * Where a box is asked whether something paints over it: its centre
 * first, then near each corner, those on screen (in `doc`'s viewport).
 * @param {Document} doc
 * @param {{left: number, top: number, width: number, height: number}} area
 * @returns {number[][]}
 */
const coverPoints = (doc, area) => [[0.5, 0.5], [0.15, 0.15], [0.85, 0.15], [0.15, 0.85], [0.85, 0.85]]
  .map(([fx, fy]) => [area.left + fx * area.width, area.top + fy * area.height])
  .filter(([x, y]) => onScreen(doc, x, y));

/**
 * Whether something paints over a frame on screen at its centre and near
 * each corner: then it shows nothing of its document.
 * @param {Element} frame
 */
const frameCovered = (frame) => {
  const shown = shownRect(frame);
  if (!shown) return false;
  const doc = frame.ownerDocument;
  const points = coverPoints(doc, shown.rect);
  if (!points.length) return false;
  const root = /** @type {Document | ShadowRoot} */ (frame.getRootNode());
  return withEveryPointer([doc, root], () => points.every(([x, y]) => paintedAt(root, frame, x, y, true).covered !== null));
};

/**
 * The boxes that positioned elements paint over others with, from the
 * elements looked at in this call: their own boxes where they paint
 * opaquely, their box shadows' and outlines' extents where those do (no
 * hit test sees a shadow or an outline), and their positioned ::before
 * and ::after boxes.
 * @returns {Lid[]}
 */
const lidsOver = () => {
  /** @type {Lid[]} */
  const lids = [];
  for (const root of [document.documentElement, document.body]) {
    if (root && looks.has(root)) lids.push(...pseudoLidsOf(root));
  }
  eachStacking((look, element) => {
    if (look.hidden || look.opacity < OPAQUE || !blendHides(look)) return;
    // A negative z-index paints it under the flow.
    if (parseInt(look.style.zIndex, 10) < 0) return;
    const rect = rectOf(element);
    if (hasArea(rect) && (paintsOpaque(look.style) || PICTURE_TAGS.has(element.tagName))) {
      lids.push({ left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom, by: element, kind: "box",
        fixed: look.position === "fixed" });
    }
    // A positioned drawing's shapes paint where they are filled.
    if (element.localName === "svg" && element.namespaceURI === SVG_NS) {
      for (const shape of Array.from(element.querySelectorAll("rect, path, circle, ellipse, polygon, image"))) {
        const box = rectOf(shape);
        if (hasArea(box) && !isHidden(shape) && paintsAt(shape, box.left + box.width / 2, box.top + box.height / 2)) {
          lids.push({ left: box.left, top: box.top, right: box.right, bottom: box.bottom, by: element, kind: "box" });
        }
      }
    }
    const shadow = look.style.boxShadow;
    if (shadow && shadow !== "none") {
      for (const one of splitLayers(shadow)) {
        const colour = coloursIn(one)[0];
        if (!colour || colour[3] < OPAQUE) continue;
        const lengths = one.replace(COLOUR_TOKEN, "").replace(/\binset\b/, "").trim().split(/\s+/).map(parseFloat);
        const [dx = 0, dy = 0, , spread = 0] = lengths;
        if (/\binset\b/.test(one)) {
          // An inset shadow spread across its whole box (its bands meet
          // along either axis) paints it, as an opaque background would
          // (under the box's own content).
          if ((spread - Math.abs(dx) >= rect.width / 2 || spread - Math.abs(dy) >= rect.height / 2) && hasArea(rect)) {
            lids.push({ left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom, by: element, kind: "box",
              fixed: look.position === "fixed" });
          }
          continue;
        }
        if (spread <= 0) continue;
        lids.push({ left: rect.left + dx - spread, top: rect.top + dy - spread, right: rect.right + dx + spread,
          bottom: rect.bottom + dy + spread, by: element, kind: "shadow" });
      }
    }
    if (look.style.outlineStyle !== "none") {
      const width = parseFloat(look.style.outlineWidth) || 0;
      const colour = rgba(look.style.outlineColor);
      if (width > 0 && colour && colour[3] >= OPAQUE) {
        const out = width + (parseFloat(look.style.outlineOffset) || 0);
        lids.push({ left: rect.left - out, top: rect.top - out, right: rect.right + out, bottom: rect.bottom + out, by: element, kind: "outline" });
      }
    }
    lids.push(...pseudoLidsOf(element));
    // A row of full-block glyphs (█) in an opaque colour paints its line
    // boxes solid, as a background would.
    if (blockGlyphs(look)) {
      for (const child of Array.from(element.childNodes)) {
        if (child.nodeType !== 3) continue;
        for (const box of textRects(/** @type {Text} */ (child))) {
          lids.push({ left: box.left, top: box.top, right: box.right, bottom: box.bottom, by: element, kind: "box",
            fixed: look.position === "fixed" });
        }
      }
    }
  });
  // Boxes of the flow that paint whole over what came before them (an
  // inline box's background is painted with its line, in turn, and takes
  // no transform: not one of them).
  looks.forEach((look, element) => {
    if (look.display === "inline" || look.position !== "static" || !look.up || look.transformed) return;
    if (!paintsOpaque(look.style)) return;
    const whole = paintsWhole(look);
    if (!whole || look.hidden || look.opacity < OPAQUE || !blendHides(look)) return;
    const rect = rectOf(element);
    if (hasArea(rect)) {
      lids.push({ left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom, by: element, kind: "box",
        flow: whole === "flow" });
    }
  });
  // What an ancestor's overflow box clips is not painted beyond it.
  return lids.map((lid) => {
    const clip = boundsOf(lookOf(lid.by)).clip;
    return clip ? { ...lid, left: Math.max(lid.left, clip.left), top: Math.max(lid.top, clip.top),
      right: Math.min(lid.right, clip.right), bottom: Math.min(lid.bottom, clip.bottom) } : lid;
  }).filter((lid) => lid.right > lid.left && lid.bottom > lid.top);
};

/**
 * Whether `own` is painted in a layer apart from the flow `by` is in: a
 * box around it, below what holds them both, is positioned or makes a
 * stacking context (painted after the flow's words).
 * @param {Element} own @param {Element} by
 */
const layeredApart = (own, by) => {
  for (let look = lookOf(own); look.up && !look.element.contains(by); look = look.up) {
    if (look.position !== "static" || makesStacking(look)) return true;
  }
  return false;
};

/**
 * How a box of the flow (not positioned) paints whole over what came
 * before it, if it does: "stacking" where it makes a stacking context (a
 * transform, a fade, a filter, a promise of one…), painted with the
 * positioned boxes; "flow" for a grid or flex item or an inline block,
 * painted whole in its turn among the flow's words; null for the rest,
 * whose backgrounds lie under every word of the flow.
 * @param {Look} look
 * @returns {"stacking" | "flow" | null}
 */
const paintsWhole = (look) => {
  if (makesStacking(look)) return "stacking";
  if (/^inline-(block|flex|grid|table)$/.test(look.display) || (look.up && /flex|grid/.test(look.up.display))) return "flow";
  return null;
};

/**
 * Whether an element's own words are full-block glyphs alone (█, which
 * fills its line's height), drawn in an opaque colour: a bar, not words.
 * @param {Look} look
 */
const blockGlyphs = (look) => {
  const words = Array.from(look.element.childNodes).filter((child) => child.nodeType === 3).map((child) => child.nodeValue).join("");
  if (!/^[\s\u2588]*\u2588[\s\u2588]*$/u.test(words)) return false;
  const fill = rgba(look.style.webkitTextFillColor || look.style.color);
  return fill !== null && fill[3] >= OPAQUE;
};

/**
 * Whether a box may make a stacking context, as CSS paints: the root; a
 * fixed or sticky box; a positioned one, or a flex or grid item, with a
 * z-index; opacity, a transform, a filter, a clip path, a mask, a blend,
 * isolation, containment or a promise of any of them (`will-change`).
 * It says yes where unsure: the search `sunkUnder` makes ends there.
 * @param {Look} look
 */
const makesStacking = (look) => {
  const style = look.style;
  if (!look.up || look.position === "fixed" || look.position === "sticky") return true;
  if (style.zIndex !== "auto" && (look.position !== "static" || /flex|grid/.test(look.up.display))) return true;
  if (parseFloat(style.opacity) < 1 || style.isolation === "isolate" || style.mixBlendMode !== "normal") return true;
  const none = ["transform", "translate", "rotate", "scale", "filter", "backdropFilter", "perspective", "clipPath",
    "maskImage", "webkitMaskImage"];
  // (A property this browser does not know reads as undefined.)
  if (none.some((name) => { const value = /** @type {any} */ (style)[name]; return value !== undefined && value !== "none" && value !== ""; })) return true;
  if (style.willChange && style.willChange !== "auto") return true;
  if (/paint|layout|strict|content/.test(style.contain || "") || /size/.test(style.containerType || "")) return true;
  return look.element.matches(":modal, :popover-open");
};

/**
 * The box of negative z-index a look is painted in (itself or the nearest
 * such ancestor), if any: worked out once per look, its z-index read only
 * where one applies (a positioned box, a flex or grid item).
 * @param {Look} look
 * @returns {Look | null}
 */
const sinkOf = (look) => {
  if (look.sink === undefined) {
    const placed = look.position !== "static" || (look.up !== null && /flex|grid/.test(look.up.display));
    look.sink = placed && parseInt(look.style.zIndex, 10) < 0 ? look : look.up ? sinkOf(look.up) : null;
  }
  return look.sink;
};

/**
 * Whether the text of `element` (its box `box`) is painted under a box of
 * the flow: a box of negative z-index (the element, or the nearest such
 * ancestor) is painted before the blocks around it, so an opaque
 * background of an ancestor that holds the text, up to the box that makes
 * the stacking context it joins (whose own background lies under it),
 * lies over it. (The body's background, where the page's root has none,
 * is the canvas under everything.) For what no picture judges.
 * @param {Element} element
 * @param {{left: number, top: number, right: number, bottom: number}} box
 */
const sunkUnder = (element, box) => {
  const look = sinkOf(lookOf(element));
  if (!look) return false;
  for (let above = look.up; above && !makesStacking(above); above = above.up) {
    const tag = above.element.tagName;
    if (tag === "BODY" && above.up && !rgba(above.up.style.backgroundColor)?.[3] && above.up.style.backgroundImage === "none") continue;
    if (!paintsOpaque(above.style)) continue;
    const rect = rectOf(above.element);
    if (box.left >= rect.left && box.right <= rect.right && box.top >= rect.top && box.bottom <= rect.bottom) return true;
  }
  return false;
};

/**
 * Whether a lid lies over a box drawn by `own` (text it holds, or itself):
 * it holds the box whole and paints after it. A box's own ::before or
 * ::after, and an ancestor's, or an ancestor's outline, lie over it; an
 * ancestor's background and shadow lie under it; a positioned box inside
 * it lies over its text; of the rest, a positioned box is painted over
 * what is laid out in the flow, and over a positioned one that comes
 * before it in the document.
 * @param {Lid} lid
 * @param {{left: number, top: number, right: number, bottom: number}} box
 * @param {Element} own
 */
const lidCovers = (lid, box, own) => {
  if (lid.by.ownerDocument !== own.ownerDocument) return false;
  // A fixed box over the whole height of the viewport lies over whatever
  // scrolls under it.
  const view = own.ownerDocument.defaultView || window;
  const everywhere = lid.fixed && lid.top <= 0 && lid.bottom >= view.innerHeight && box.bottom - box.top <= lid.bottom - lid.top;
  if (box.left < lid.left || box.right > lid.right) return false;
  if (!everywhere && (box.top < lid.top || box.bottom > lid.bottom)) return false;
  if (lid.by === own) return lid.kind === "pseudo";
  // A picture covers only where its pixels show.
  if (lid.kind === "box" && PICTURE_TAGS.has(lid.by.tagName) &&
      !paintsAt(lid.by, (box.left + box.right) / 2, (box.top + box.bottom) / 2)) return false;
  if (holdsFlat(lid.by, own)) return lid.kind === "pseudo" || lid.kind === "outline";
  if (holdsFlat(own, lid.by)) return true;
  const flowing = lookOf(own).position === "static";
  const after = Boolean(lid.by.compareDocumentPosition(own) & Node.DOCUMENT_POSITION_PRECEDING);
  if (lid.flow !== undefined) return after && !layeredApart(own, lid.by);
  return flowing || after;
};

