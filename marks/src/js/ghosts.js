// @ts-check
// ghosts.js: controls the pictures judge by what is drawn where they are
// (pixels.js hands their boxes over with the runs): one too faint to see
// itself, named by what is drawn beneath it; one named by its words,
// shown only where something is drawn in its box, or at its edge.

/** Roles whose name a person reads in the words drawn inside them. */
const NAMED_BY_WORDS = new Set(["link", "button", "tab", "menuitem", "option", "treeitem"]);

/** How far around a control that paints more than its words the pictures look for its edge (CSS pixels). */
const EDGE_AROUND = 2;

/**
 * Where the pictures judge a control named by its words (of a role named
 * by its content, not a field nor a picture, not named apart from its
 * words by `aria-label` or `aria-labelledby`, holding letters) shown:
 * only where something is drawn there. Its own box where it paints
 * nothing but its words (a link whose words are in no colour is nothing
 * to see); where it paints more (a background, a border), its box and a
 * little around it, where its edge shows against what lies beside it (a
 * button painted in the colour of the page, its words in that colour
 * too, is nothing to see either), where those are flat boxes
 * (`paintOf`). Null for a control named otherwise, or that draws more.
 * @param {Element} element @param {string} role @param {Box} box
 * @returns {[number, number, number, number] | null}
 */
const wordsGhost = (element, role, box) => {
  if (!NAMED_BY_WORDS.has(role) || element.hasAttribute("aria-label") || element.hasAttribute("aria-labelledby") ||
    !/\S/.test(element.textContent || "")) return null;
  const paint = paintOf(element);
  if (paint === "words") return [box.x, box.y, box.w, box.h];
  if (paint === null) return null;
  return [box.x - EDGE_AROUND, box.y - EDGE_AROUND, box.w + 2 * EDGE_AROUND, box.h + 2 * EDGE_AROUND];
};

/** The most elements `paintOf` looks at in a control. */
const MOST_WORD_BOXES = 12;

/**
 * What a control and what it holds paint: "words" where nothing but their
 * words (no background, border, shadow or outline, no picture, drawing or
 * field, no words CSS adds); "flat" where besides them only flat boxes
 * (colours, borders, shadows: no picture, drawing or field, no background
 * image, nothing CSS adds); null where more (a control that draws an
 * icon, even one hard to make out, is listed: the page meant it to be
 * seen), or where it holds more than a few elements (taken to paint
 * something).
 * @param {Element} element
 * @returns {"words" | "flat" | null}
 */
const paintOf = (element) => {
  const inside = element.querySelectorAll("*");
  if (inside.length >= MOST_WORD_BOXES) return null;
  const all = [element, ...Array.from(inside)];
  if (all.every((each) => !paintsBeyondText(each, lookOf(each).style))) return "words";
  return all.every(paintsFlat) ? "flat" : null;
};

/**
 * Whether an element paints nothing but words and flat boxes (`paintOf`).
 * @param {Element} each
 */
const paintsFlat = (each) => {
  if (DRAWS_ITS_OWN.test(each.tagName) || lookOf(each).style.backgroundImage !== "none") return false;
  const view = each.ownerDocument.defaultView || window;
  return ["::before", "::after"].every((pseudo) => /^(none|normal)?$/.test(view.getComputedStyle(each, pseudo).content));
};

/**
 * The name of a control too faint to see that a click on its box reaches
 * (`ghost`) and that has none of its own: what is drawn beneath it.
 * @param {Element} element @param {Shown | null} shown
 */
const faintName = (element, shown) => (shown && shown.ghost ? drawnBeneath(element, shown.rect) : "");

/**
 * Whether a box (in the top viewport) lies wholly where the pictures
 * show it.
 * @param {Box} box
 */
const wholePictured = (box) => box.x >= 0 && box.x + box.w <= viewport.w &&
  box.y >= -reach.above && box.y + box.h <= viewport.h + reach.below;
