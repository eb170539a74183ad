// @ts-check
// shapes.js: what clip paths, masks and transforms leave of an element,
// for visibility.js's judge: a clip path or a mask that shows nothing
// readable (insets, circles, polygons, paths, SVG references), and how an
// element's own transform (the translate, rotate and scale properties and
// `transform`) draws its axes. Joined after colours.js.

/**
 * A length of a basic shape in pixels (`%` of `size`), a computed
 * `calc()` of them too (`xywh()` and `rect()` compute to an inset of
 * `calc(100% - 1px)`): sums, differences, products and quotients of
 * pixels, percentages and numbers.
 * @param {string} word
 * @param {number} size
 */
const lengthOf = (word, size) => {
  if (!/^calc\(/.test(word)) return word.endsWith("%") ? (parseFloat(word) / 100) * size : parseFloat(word) || 0;
  const tokens = word.slice(4).match(/-?\d*\.?\d+(?:e-?\d+)?(?:px|%)?|[-+*/()]/gi) || [];
  let at = 0;
  /** @returns {number} */
  const sum = () => {
    let value = product();
    while (tokens[at] === "+" || tokens[at] === "-") value += tokens[at++] === "+" ? product() : -product();
    return value;
  };
  /** @returns {number} */
  const product = () => {
    let value = unit();
    while (tokens[at] === "*" || tokens[at] === "/") value = tokens[at++] === "*" ? value * unit() : value / unit();
    return value;
  };
  /** @returns {number} */
  const unit = () => {
    const token = tokens[at++] || "0";
    if (token === "(") { const value = sum(); at++; return value; }
    return token.endsWith("%") ? (parseFloat(token) / 100) * size : parseFloat(token) || 0;
  };
  const value = sum();
  return Number.isFinite(value) ? value : 0;
};

/**
 * A shape's arguments split at the spaces outside parentheses.
 * @param {string} text
 */
const argumentsOf = (text) => {
  /** @type {string[]} */
  const words = [];
  let depth = 0, word = "";
  for (const c of text.trim()) {
    if (c === "(") depth++;
    if (c === ")") depth--;
    if (/\s/.test(c) && depth === 0) {
      if (word) words.push(word);
      word = "";
    } else word += c;
  }
  if (word) words.push(word);
  return words;
};

/**
 * Whether a `clip-path` leaves nothing readable of `element`: an inset, a
 * circle, an ellipse or a polygon with less than THINNEST pixels along an
 * axis; a path that holds no point of a grid over the box; a reference to
 * an SVG <clipPath> whose shapes have no such size.
 * @param {string} clipPath
 * @param {Element} element
 */
const clipsAll = (clipPath, element) => {
  if (!clipPath || clipPath === "none") return false;
  const rect = rectOf(element);
  const width = rect.width, height = rect.height;
  const inset = /^inset\((.*)\)/.exec(clipPath);
  if (inset) {
    const words = argumentsOf(inset[1].split(/\s+round\s+/)[0]);
    const [top, right = top, bottom = top, left = right] = words;
    return width - lengthOf(left, width) - lengthOf(right, width) < THINNEST ||
      height - lengthOf(top, height) - lengthOf(bottom, height) < THINNEST;
  }
  const round = /^(circle|ellipse)\(\s*([^)]*)\)/.exec(clipPath);
  if (round) {
    const radii = round[2].split(/\s+at\s+/)[0].trim().split(/\s+/).filter(Boolean);
    if (!radii.length) return false;
    const diagonal = Math.hypot(width, height) / Math.SQRT2;
    const radius = (/** @type {string} */ word, /** @type {number} */ size) =>
      word === "closest-side" || word === "farthest-side" ? size / 2 : lengthOf(word, size);
    const rx = radius(radii[0], round[1] === "circle" ? diagonal : width);
    const ry = round[1] === "circle" ? rx : radius(radii[1] || radii[0], height);
    return 2 * Math.min(rx, ry) < THINNEST;
  }
  const polygon = /^polygon\(([^)]*)\)/.exec(clipPath);
  if (polygon) {
    const points = polygon[1].split(",").map((point) => point.trim().split(/\s+/)).filter((pair) => pair.length >= 2)
      .map(([x, y]) => [lengthOf(x, width), lengthOf(y, height)]);
    if (points.length < 3) return true;
    let area = 0;
    points.forEach(([x, y], i) => {
      const [nx, ny] = points[(i + 1) % points.length];
      area += x * ny - nx * y;
    });
    const xs = points.map((p) => p[0]), ys = points.map((p) => p[1]);
    return Math.abs(area) / 2 < THINNEST * THINNEST || Math.max(...xs) - Math.min(...xs) < THINNEST ||
      Math.max(...ys) - Math.min(...ys) < THINNEST;
  }
  const path = /^path\(\s*(?:[a-z]+\s*,\s*)?"([^"]*)"\s*\)/.exec(clipPath);
  if (path) return !pathHoldsGrid(path[1], width, height);
  const url = /^url\(\s*"?#([^")]+)"?\s*\)/.exec(clipPath);
  if (url) {
    const target = element.ownerDocument.getElementById(url[1]);
    if (!target || target.localName !== "clipPath") return false;
    const box = shapesBox(target);
    if (!box) return true;
    const scaled = target.getAttribute("clipPathUnits") === "objectBoundingBox";
    return (scaled ? box.width * width : box.width) < THINNEST || (scaled ? box.height * height : box.height) < THINNEST;
  }
  return false;
};

/**
 * Whether an SVG path (in a box of the size given) holds any point of a
 * grid over the box: one that holds none shows nothing a person can read.
 * @param {string} data
 * @param {number} width
 * @param {number} height
 */
const pathHoldsGrid = (data, width, height) => {
  const context = easelOf();
  if (!context || typeof Path2D !== "function") return true;
  let shape;
  try { shape = new Path2D(data); } catch (bad) { return true; }
  const steps = 12;
  for (let i = 0; i < steps; i++) {
    for (let j = 0; j < steps; j++) {
      if (context.isPointInPath(shape, ((i + 0.5) / steps) * width, ((j + 0.5) / steps) * height)) return true;
    }
  }
  return false;
};

/**
 * The box around the shapes inside an SVG element that defines (a
 * <clipPath>, a <mask>), or null when it holds none.
 * @param {Element} holder
 * @returns {{width: number, height: number} | null}
 */
const shapesBox = (holder) => {
  let left = Infinity, top = Infinity, right = -Infinity, bottom = -Infinity;
  for (const shape of Array.from(holder.querySelectorAll("*"))) {
    const graphic = /** @type {SVGGraphicsElement} */ (shape);
    if (typeof graphic.getBBox !== "function") continue;
    let box;
    try { box = graphic.getBBox(); } catch (unrendered) { continue; }
    left = Math.min(left, box.x); top = Math.min(top, box.y);
    right = Math.max(right, box.x + box.width); bottom = Math.max(bottom, box.y + box.height);
  }
  return right >= left && bottom >= top ? { width: right - left, height: bottom - top } : null;
};

/**
 * Whether a mask shows nothing: every layer drawn at no size (its
 * `mask-size`, of `sizes`, 0 along an axis), a gradient whose stops are
 * all (nearly) transparent or a picture with no pixel that shows, or a
 * reference to an SVG <mask> with no shapes in it.
 * @param {string} mask
 * @param {Element} element
 * @param {string} [sizes]
 */
const masksAll = (mask, element, sizes = "") => {
  if (!mask || mask === "none") return false;
  const sized = sizes ? splitLayers(sizes) : [];
  return splitLayers(mask).every((layer, index) => {
    const text = layer.trim();
    // A layer drawn at no size along an axis shows nothing.
    const size = sized.length ? argumentsOf(sized[index % sized.length]) : [];
    if (size.length && size.every((word) => /^[\d.]/.test(word)) && size.some((word) => parseFloat(word) === 0)) return true;
    if (/gradient\(/.test(text)) {
      const stops = coloursIn(text);
      return stops.length > 0 && stops.every((stop) => stop[3] < FAINTEST);
    }
    const local = /^url\(\s*"?#([^")]+)"?\s*\)$/.exec(text);
    if (local) {
      const target = element.ownerDocument.getElementById(local[1]);
      return Boolean(target && target.localName === "mask" && !shapesBox(target));
    }
    const url = /^url\(\s*"?([^")]*)"?\s*\)$/.exec(text);
    if (url) {
      const span = pictureSpan(url[1]);
      return Boolean(span && span.light[3] < FAINTEST && span.dark[3] < FAINTEST);
    }
    return false;
  });
};

/**
 * How an element's own transform (the `rotate` and `scale` properties,
 * then `transform`; `translate` moves, no more) draws it: its matrix, and
 * how much it shrinks along the axis it shrinks most (`leastStretch`).
 * Null where it has none.
 * @param {CSSStyleDeclaration} style
 * @returns {{matrix: DOMMatrix, squash: number} | null}
 */
const ownTransform = (style) => {
  const transform = style.transform, scale = style.scale, rotate = style.rotate;
  if ((transform === "none" || !transform) && (scale === "none" || !scale) && (rotate === "none" || !rotate)) return null;
  let matrix = new DOMMatrix();
  try {
    if (rotate && rotate !== "none") {
      const words = rotate.trim().split(/\s+/);
      const angle = parseFloat(words[words.length - 1]) * (words[words.length - 1].endsWith("turn") ? 360 : words[words.length - 1].endsWith("rad") ? 180 / Math.PI : 1);
      /** @type {Record<string, [number, number, number]>} */
      const axes = { x: [1, 0, 0], y: [0, 1, 0], z: [0, 0, 1] };
      const axis = words.length === 2 ? axes[words[0]] || [0, 0, 1] : words.length === 4 ? [Number(words[0]), Number(words[1]), Number(words[2])] : [0, 0, 1];
      matrix = matrix.rotateAxisAngle(axis[0], axis[1], axis[2], angle);
    }
    if (scale && scale !== "none") {
      const [sx, sy = sx, sz = "1"] = scale.trim().split(/\s+/);
      matrix = matrix.scale(parseFloat(sx), parseFloat(sy), parseFloat(sz));
    }
    if (transform && transform !== "none") matrix = matrix.multiply(new DOMMatrix(transform));
  } catch (unreadable) {
    return null;
  }
  return { matrix, squash: leastStretch(matrix.m11, matrix.m12, matrix.m21, matrix.m22) };
};

/**
 * How much a plane's linear map `a b c d` (as a `DOMMatrix`'s `a` to `d`)
 * shrinks what it draws along the axis it shrinks most: its least
 * singular value. A scale along an axis, a turn edge-on and a skew near a
 * right angle (which smears letters into a line) alike.
 * @param {number} a @param {number} b @param {number} c @param {number} d
 */
const leastStretch = (a, b, c, d) => {
  const sum = a * a + b * b + c * c + d * d, det = a * d - b * c;
  return Math.sqrt(Math.max(0, (sum - Math.sqrt(Math.max(0, sum * sum - 4 * det * det))) / 2));
};

