// @ts-check
// colours.js: colours as the browser paints them, for visibility.js's
// judge. Any CSS colour (oklch(), lab(), color(), color-mix(), a system
// colour) resolved to sRGB with alpha by painting it on a 1×1 canvas and
// reading it back, once per distinct value; what a background paints (its
// colour, gradients by their stops, pictures by their pixels where they
// can be read); the canvas colour a colour scheme gives; and what filters
// and blend modes do to a colour. Joined after visibility.js (see there).

/** @typedef {[number, number, number, number]} RGBA  red, green, blue 0–255, alpha 0–1 */

/** @type {RGBA} */
const TRANSPARENT = [0, 0, 0, 0];
/** @type {RGBA} */
const WHITE = [255, 255, 255, 1];
/** Chromium's canvas colour under a dark colour scheme. */
/** @type {RGBA} */
const DARK_CANVAS = [18, 18, 18, 1];

/**
 * A 1×1 canvas the judge paints colours and samples pictures on (created
 * out of the document, so the page sees nothing), or null where there is
 * none.
 * @type {CanvasRenderingContext2D | null | undefined}
 */
let easel;
const easelOf = () => {
  if (easel === undefined) {
    try {
      const canvas = document.createElement("canvas");
      canvas.width = 1;
      canvas.height = 1;
      easel = canvas.getContext("2d", { willReadFrequently: true });
    } catch (unsupported) {
      easel = null;
    }
  }
  return easel;
};

const RGB_FORM = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/;

/**
 * A colour (a computed value, or any CSS colour) as sRGB with alpha, as
 * the browser resolves it: rgb() read directly, anything else (oklch(),
 * lab(), color(), color-mix(), a system colour) painted and read back.
 * Null for what is no colour at all.
 * @param {string} color
 * @returns {RGBA | null}
 */
const rgba = (color) => {
  let channels = colours.get(color);
  if (channels === undefined) {
    channels = resolveColour(color);
    colours.set(color, channels);
  }
  return channels;
};
/** @type {Map<string, RGBA | null>} */
const colours = new Map();
/**
 * @param {string} color
 * @returns {RGBA | null}
 */
const resolveColour = (color) => {
  if (color === "transparent") return TRANSPARENT;
  const found = RGB_FORM.exec(color);
  if (found) {
    const alpha = found[4] === undefined ? 1 : found[4].endsWith("%") ? parseFloat(found[4]) / 100 : parseFloat(found[4]);
    return [Number(found[1]), Number(found[2]), Number(found[3]), alpha];
  }
  const context = easelOf();
  if (!context) return null;
  context.clearRect(0, 0, 1, 1);
  context.fillStyle = "rgba(1, 2, 3, 0)";
  const unset = context.fillStyle;
  context.fillStyle = color;
  if (context.fillStyle === unset) return null;
  context.fillRect(0, 0, 1, 1);
  const [r, g, b, a] = context.getImageData(0, 0, 1, 1).data;
  return [r, g, b, a / 255];
};

/** The colours written in a computed value (a gradient's stops, a shadow's colour). */
const COLOUR_TOKEN = /(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color|color-mix|light-dark)\((?:[^()]|\([^()]*\))*\)|\btransparent\b/g;
/**
 * @param {string} value
 * @returns {RGBA[]}
 */
const coloursIn = (value) => {
  /** @type {RGBA[]} */
  const found = [];
  for (const token of value.match(COLOUR_TOKEN) || []) {
    const colour = rgba(token);
    if (colour) found.push(colour);
  }
  return found;
};

/**
 * The relative luminance of an sRGB colour (WCAG).
 * @param {RGBA} color
 */
const luminance = ([r, g, b]) => {
  const channel = (/** @type {number} */ value) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
};

/** @param {RGBA} a @param {RGBA} b */
const contrastOf = (a, b) => {
  const [x, y] = [luminance(a), luminance(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
};

/**
 * `top` painted over `bottom`.
 * @param {RGBA} top
 * @param {RGBA} bottom
 * @returns {RGBA}
 */
const over = (top, bottom) => {
  const alpha = top[3] + bottom[3] * (1 - top[3]);
  if (alpha <= 0) return TRANSPARENT;
  /** @param {number} i */
  const mix = (i) => (top[i] * top[3] + bottom[i] * bottom[3] * (1 - top[3])) / alpha;
  return [mix(0), mix(1), mix(2), alpha];
};

/**
 * A pair of colours standing for a set: its lightest and its darkest
 * (letters faint on both are faint on every colour between).
 * @typedef {{light: RGBA, dark: RGBA}} Span
 */
/**
 * @param {RGBA[]} list  at least one colour
 * @returns {Span}
 */
const spanOf = (list) => {
  let light = list[0], dark = list[0];
  for (const colour of list) {
    if (luminance(colour) > luminance(light)) light = colour;
    if (luminance(colour) < luminance(dark)) dark = colour;
  }
  return { light, dark };
};
/** @param {Span} span */
const spanColours = (span) => (span.light === span.dark ? [span.light] : [span.light, span.dark]);

/**
 * The canvas colour of a document, which shows where nothing else is
 * painted: dark under a dark colour scheme (the root's, or the page's
 * `<meta name="color-scheme">`), white otherwise.
 * @type {(doc: Document) => RGBA}
 */
const canvasOf = (() => {
  /** @type {Map<Document, RGBA>} */
  const known = new Map();
  return (doc) => {
    let colour = known.get(doc);
    if (colour === undefined) {
      let scheme = doc.documentElement ? getComputedStyle(doc.documentElement).colorScheme : "normal";
      if (!scheme || scheme === "normal") {
        const meta = doc.querySelector("meta[name=color-scheme]");
        scheme = meta ? meta.getAttribute("content") || "normal" : "normal";
      }
      const view = doc.defaultView || window;
      const dark = /\bdark\b/.test(scheme) &&
        (!/\blight\b/.test(scheme) || view.matchMedia("(prefers-color-scheme: dark)").matches);
      colour = dark ? DARK_CANVAS : WHITE;
      known.set(doc, colour);
    }
    return colour;
  };
})();

/**
 * The lightest and darkest pixels of a picture a page shows (a background
 * image), with their alpha, where they can be read without asking the
 * network: a `data:` URL, or one the page has loaded already (the memory
 * cache answers at once). Null where it cannot be read (another site's
 * picture, one not loaded).
 * @type {(url: string) => Span | null}
 */
const pictureSpan = (() => {
  /** @type {Map<string, Span | null>} */
  const known = new Map();
  return (url) => {
    if (known.has(url)) return /** @type {Span | null} */ (known.get(url));
    let span = null;
    try {
      const loaded = url.startsWith("data:") || performance.getEntriesByName(new URL(url, location.href).href).length > 0;
      if (loaded) {
        const picture = new Image();
        picture.src = url;
        if (picture.complete && picture.naturalWidth > 0) span = samplePicture(picture, 0, 0, picture.naturalWidth, picture.naturalHeight);
      }
    } catch (unreadable) {
      span = null;
    }
    known.set(url, span);
    return span;
  };
})();

/**
 * The lightest and darkest of a few pixels of a part of a picture (an
 * image, a canvas, a video frame), or null where the picture cannot be
 * read (another site's).
 * @param {CanvasImageSource} picture
 * @param {number} x  the part, in the picture's own pixels
 * @param {number} y
 * @param {number} w
 * @param {number} h
 * @returns {Span | null}
 */
const samplePicture = (picture, x, y, w, h) => {
  try {
    const canvas = document.createElement("canvas");
    const size = 4;
    canvas.width = size;
    canvas.height = size;
    const context = canvas.getContext("2d", { willReadFrequently: true });
    if (!context || !(w > 0) || !(h > 0)) return null;
    context.drawImage(picture, x, y, w, h, 0, 0, size, size);
    const data = context.getImageData(0, 0, size, size).data;
    /** @type {RGBA[]} */
    const pixels = [];
    for (let i = 0; i < data.length; i += 4) pixels.push([data[i], data[i + 1], data[i + 2], data[i + 3] / 255]);
    return spanOf(pixels);
  } catch (tainted) {
    return null;
  }
};

/**
 * The layers of an element's background, bottom first: its colour, then
 * each image (a gradient by its stops, a picture by its pixels, or
 * `unknown` where it cannot be read).
 * @param {CSSStyleDeclaration} style
 * @returns {{spans: Span[], unknown: boolean}}
 */
const backgroundLayers = (style) => {
  const colour = rgba(style.backgroundColor) || TRANSPARENT;
  /** @type {Span[]} */
  const spans = [{ light: colour, dark: colour }];
  const image = style.backgroundImage;
  let unknown = false;
  if (image && image !== "none") {
    // Listed top first; painted bottom first.
    for (const layer of splitLayers(image).reverse()) {
      const url = /^url\(\s*"?([^")]*)"?\s*\)$/.exec(layer.trim());
      if (url) {
        const span = pictureSpan(url[1]);
        if (span) spans.push(span);
        else unknown = true;
      } else if (/gradient\(/.test(layer)) {
        const stops = coloursIn(layer);
        if (stops.length) spans.push(spanOf(stops));
      } else if (layer.trim() !== "none") {
        unknown = true;
      }
    }
  }
  return { spans, unknown };
};

/**
 * A comma-separated list of layers, split at its top-level commas.
 * @param {string} value
 */
const splitLayers = (value) => {
  /** @type {string[]} */
  const layers = [];
  let depth = 0, start = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "," && depth === 0) { layers.push(value.slice(start, i)); start = i + 1; }
  }
  layers.push(value.slice(start));
  return layers;
};

/**
 * `layers` (bottom first) composed over `under`.
 * @param {Span[]} layers
 * @param {Span} under
 * @returns {Span}
 */
const composeOver = (layers, under) => {
  let span = under;
  for (const layer of layers) {
    /** @type {RGBA[]} */
    const mixed = [];
    for (const top of spanColours(layer)) for (const bottom of spanColours(span)) mixed.push(over(top, bottom));
    span = spanOf(mixed);
  }
  return span;
};

/** @param {Span} span */
const spanOpaque = (span) => span.light[3] >= 0.99 && span.dark[3] >= 0.99;

/**
 * A filter list as functions and amounts (`blur` in pixels, the rest as
 * fractions), in the order they apply.
 * @param {string} filter
 * @returns {{name: string, amount: number}[]}
 */
const filterSteps = (filter) => {
  /** @type {{name: string, amount: number}[]} */
  const steps = [];
  if (!filter || filter === "none") return steps;
  const step = /([a-z-]+)\(\s*([-\d.e]*)(px|%|deg)?[^)]*\)/g;
  for (let found = step.exec(filter); found; found = step.exec(filter)) {
    const name = found[1];
    let amount = found[2] === "" ? (name === "blur" ? 0 : 1) : parseFloat(found[2]);
    if (found[3] === "%") amount /= 100;
    steps.push({ name, amount });
  }
  return steps;
};

/**
 * A colour through filter steps (what each CSS filter function does to a
 * colour; blur and drop-shadow leave it).
 * @param {RGBA} colour
 * @param {{name: string, amount: number}[]} steps
 * @returns {RGBA}
 */
const filtered = (colour, steps) => {
  let [r, g, b, a] = [colour[0] / 255, colour[1] / 255, colour[2] / 255, colour[3]];
  const clamp = (/** @type {number} */ v) => Math.min(1, Math.max(0, v));
  for (const { name, amount } of steps) {
    switch (name) {
      case "brightness": [r, g, b] = [r * amount, g * amount, b * amount]; break;
      case "contrast": [r, g, b] = [r, g, b].map((v) => (v - 0.5) * amount + 0.5); break;
      case "invert": [r, g, b] = [r, g, b].map((v) => v * (1 - amount) + (1 - v) * amount); break;
      case "opacity": a *= amount; break;
      case "grayscale": {
        const grey = 0.2126 * r + 0.7152 * g + 0.0722 * b;
        const k = Math.min(1, amount);
        [r, g, b] = [r, g, b].map((v) => v * (1 - k) + grey * k);
        break;
      }
      case "saturate": {
        const grey = 0.2126 * r + 0.7152 * g + 0.0722 * b;
        [r, g, b] = [r, g, b].map((v) => grey + (v - grey) * amount);
        break;
      }
      case "sepia": {
        const k = Math.min(1, amount);
        const sepia = [0.393 * r + 0.769 * g + 0.189 * b, 0.349 * r + 0.686 * g + 0.168 * b, 0.272 * r + 0.534 * g + 0.131 * b];
        [r, g, b] = [r * (1 - k) + sepia[0] * k, g * (1 - k) + sepia[1] * k, b * (1 - k) + sepia[2] * k];
        break;
      }
      default: break;
    }
    [r, g, b] = [clamp(r), clamp(g), clamp(b)];
  }
  return [r * 255, g * 255, b * 255, a];
};

/**
 * How far the steps blur what they draw, in pixels (radii add as a
 * Gaussian's do).
 * @param {{name: string, amount: number}[]} steps
 */
const blurOf = (steps) => Math.sqrt(steps.reduce((sum, step) => sum + (step.name === "blur" ? step.amount * step.amount : 0), 0));

/**
 * The colour `source` is seen as when blended with `mode` onto `backdrop`
 * (the separable blend modes; the others read as normal).
 * @param {string} mode
 * @param {RGBA} backdrop
 * @param {RGBA} source
 * @returns {RGBA}
 */
const blended = (mode, backdrop, source) => {
  /** @type {(b: number, s: number) => number} */
  let f;
  switch (mode) {
    case "multiply": f = (b, s) => b * s; break;
    case "screen": f = (b, s) => b + s - b * s; break;
    case "overlay": f = (b, s) => (b <= 0.5 ? 2 * b * s : 1 - 2 * (1 - b) * (1 - s)); break;
    case "hard-light": f = (b, s) => (s <= 0.5 ? 2 * b * s : 1 - 2 * (1 - b) * (1 - s)); break;
    case "darken": f = Math.min; break;
    case "lighten": f = Math.max; break;
    case "difference": f = (b, s) => Math.abs(b - s); break;
    case "exclusion": f = (b, s) => b + s - 2 * b * s; break;
    case "color-dodge": f = (b, s) => (b === 0 ? 0 : s >= 1 ? 1 : Math.min(1, b / (1 - s))); break;
    case "color-burn": f = (b, s) => (b >= 1 ? 1 : s <= 0 ? 0 : 1 - Math.min(1, (1 - b) / s)); break;
    default: return source;
  }
  /** @param {number} i */
  const channel = (i) => f(backdrop[i] / 255, source[i] / 255) * 255;
  return [channel(0), channel(1), channel(2), source[3]];
};

/**
 * The colours of the shadows that draw letters a person reads: those
 * blurred less than a blur that makes letters of `size` unreadable (a
 * shadow blurred wide is a smudge, whatever its colour), and drawn where
 * `lands` says they can be seen, given their offset.
 * @param {string} shadow  a computed `text-shadow`: colour, offsets, blur
 * @param {number} size
 * @param {(x: number, y: number) => boolean} [lands]
 */
const sharpShadows = (shadow, size, lands) => {
  const most = Math.max(BLURRED_PX, BLURRED_SHARE * (Number.isFinite(size) ? size : 16));
  /** @type {RGBA[]} */
  const found = [];
  for (const part of splitLayers(shadow)) {
    const lengths = argumentsOf(part).filter((word) => /^-?[\d.]+(?:e-?\d+)?px$/.test(word));
    if ((parseFloat(lengths[2]) || 0) >= most) continue;
    if (lands && !lands(parseFloat(lengths[0]) || 0, parseFloat(lengths[1]) || 0)) continue;
    found.push(...coloursIn(part));
  }
  return found;
};
