// @ts-check
// widgets.js: composite widgets, item by item. A menu, a list of options,
// a tab list, a tree, a toolbar, or something a script made clickable as a
// whole around items of its own (an autocomplete's suggestions with one
// listener on the list) holds what a person acts on: each item gets a
// number and a name, and the container is never one number that swallows
// them (a click on it would pick whatever is at its centre).

/**
 * Roles of containers whose items a person picks among (a menu's items, a
 * list's options, a tab list's tabs): never a number that swallows them.
 */
const COMPOSITES = new Set([
  "menu", "menubar", "listbox", "tree", "treegrid", "grid", "tablist", "radiogroup", "toolbar",
]);

/** The role a script-only list's items take from their container's. */
const ITEM_ROLES = /** @type {Record<string, string>} */ ({
  menu: "menuitem", menubar: "menuitem", listbox: "option", tree: "treeitem", tablist: "tab",
  radiogroup: "radio",
});

/**
 * A container's own name, for what it is: never the text of its items.
 * @param {Element} element
 */
const ownName = (element) =>
  byIds(element, "aria-labelledby") || clean(element.getAttribute("aria-label")) || clean(element.getAttribute("title"));

/**
 * Whether `role` is one a control has (a person acts on the element
 * itself), as opposed to a reason found elsewhere (a tabindex, a handler, a
 * pointer) or the role of a container.
 * @param {string} role
 */
const controlRole = (role) =>
  (INTERACTIVE_ROLES.has(role) && role !== "listbox") || VALUE_TYPES.includes(role) || role === "textbox";

/**
 * The items of a list a script made clickable as a whole: the `li`s of it
 * (or of the one wrapper it holds), each seen and with text; `null` unless
 * there are two or more.
 * @param {Element} element
 * @returns {Element[] | null}
 */
const listItems = (element) => {
  let list = element;
  for (let depth = 0; depth < 2 && list.childElementCount === 1 && list.firstElementChild; depth++) {
    list = list.firstElementChild;
  }
  const items = Array.from(list.children).filter((child) =>
    child.tagName === "LI" && shownRect(child) && visibleText(child));
  return items.length >= 2 ? items : null;
};

/**
 * What an interactive element holds that a person acts on instead of on
 * it whole: `null` for a plain control; `{}` when its parts are walked
 * (a composite's items, controls inside something a script made
 * clickable: `card` says whether it is small enough to be pressed as a
 * whole too, as a card is and a page-wide wrapper is not);
 * `{items, itemRole}` for a script-only list's items.
 * @param {Element} element
 * @param {string} role
 * @returns {{items?: Element[], itemRole: string, card?: boolean} | null}
 */
const parts = (element, role) => {
  if (element.tagName === "SELECT") return null;
  if (COMPOSITES.has(role) || role === "listbox") return { itemRole: ITEM_ROLES[role] || "clickable" };
  if (controlRole(role)) return null;
  const holdsControls = innerControls(element).some((inner) => shownRect(inner));
  // Pressed as a whole too only where it looks it (its own pointer), not
  // for a listener or a handler alone: frameworks put those on panels and
  // wrappers (to keep the focus, to close a popup) that nobody presses.
  // A named, focusable one (a drop zone holding its cards) is a target of
  // its own too.
  const named = (/** @type {HTMLElement} */ (element)).tabIndex >= 0 && Boolean(ownName(element));
  if (holdsControls) {
    return { itemRole: "clickable", card: named || (styleOf(element).cursor === "pointer" && !regionSized(element)) };
  }
  const items = listItems(element);
  return items ? { items, itemRole: ITEM_ROLES[roleOf(element) || ""] || "clickable" } : null;
};

/**
 * Whether an element is a region of the page rather than something to
 * press: the page itself, or more than a quarter of the viewport.
 * @param {Element} element
 */
const regionSized = (element) => {
  if (element === document.body || element === document.documentElement) return true;
  const rect = rectOf(element);
  return rect.width * rect.height > (innerWidth * innerHeight) / 4;
};

/**
 * The one real control a component's shadow root holds, that a person
 * sees (of a control's own role, not one a listener or a focus makes),
 * and its role; null where it holds none or more than one. (Asked once a
 * call for each host: every unnamed control inside asks it.)
 * @type {((element: Element) => {control: Element, role: string} | null) &
 *   { answers: Map<Element, {control: Element, role: string} | null> }}
 */
const realControlOf = perElement((element) => {
  const shadow = shadowOf(element);
  if (!shadow) return null;
  /** @type {{control: Element, role: string} | null} */
  let found = null;
  for (const inner of Array.from(shadow.querySelectorAll(CONTROLS))) {
    const role = interactive(inner);
    if (!role || WEAK_ROLES.has(role) || !shownRect(inner)) continue;
    if (found) return null;
    found = { control: inner, role };
  }
  return found;
});

/**
 * The name of the component whose one real control an element is
 * (`realControlOf`: its label, where a kit's label names the component,
 * not what its shadow root holds).
 * @param {Element} element
 */
const componentName = (element) => {
  // (A shadow root of a frame read in place is of that frame's realm.)
  const root = element.getRootNode();
  if (root.nodeType !== 11 || !("host" in root)) return "";
  const host = /** @type {ShadowRoot} */ (root).host;
  const real = realControlOf(host);
  if (!real || real.control !== element) return "";
  // (A label around the component, or for it, names it where the browser
  // does not say so: Gecko tells no label of a custom element.)
  const label = host.closest("label") ||
    (host.id ? (/** @type {Document | ShadowRoot} */ (host.getRootNode())).querySelector(`label[for="${CSS.escape(host.id)}"]`) : null);
  return nameOf(host, real.role) || (label ? visibleText(label) : "");
};

/**
 * A label a script or a pointer made clickable, whose control is listed
 * itself (shown, or shown through this label): the control's number is
 * what a person uses, the label is its name.
 * @param {Element} element
 * @param {string} role
 */
const labelOfListed = (element, role) => {
  if (element.tagName !== "LABEL" || controlRole(role)) return false;
  const control = (/** @type {HTMLLabelElement} */ (element)).control;
  return Boolean(control && interactive(control) && shownRect(control));
};

/** The most of a container's first words that name it. */
const CONTAINER_NAME_LIMIT = 60;

/**
 * A short name for something a script made clickable around controls of
 * its own (a card with a link in it), whose text is read as the page's:
 * its own name, its first heading, or its own first words; empty when it holds
 * nothing but those controls (a list item around a menu item, a calendar
 * cell around its day's link), which are the same thing to a person.
 * @param {Element} element
 */
const containerName = (element) => {
  const own = ownName(element);
  if (own) return own;
  const beside = cardWords(element);
  if (!beside) return "";
  const heading = element.querySelector("h1, h2, h3, h4, h5, h6, [role=heading]");
  // (Its first words are its own, not those of the controls it holds,
  // which are listed apart: a tag's remove button.)
  const text = heading && !hiddenByStyle(heading) ? visibleText(heading) : beside;
  return text.length > CONTAINER_NAME_LIMIT ? text.slice(0, CONTAINER_NAME_LIMIT - 1) + "…" : text;
};

/**
 * The words a card shows beside the controls it holds.
 * @type {(element: Element) => string}
 */
const cardWords = perElement((element) => {
  const controls = new Set(element.querySelectorAll(CONTROLS));
  return clean(textOf(element, (inner) => hiddenByStyle(inner) || ariaHidden(inner) || controls.has(inner)));
});

/** How many of a control's descendants are looked at for targets of their own. */
const INNER_LOOK_LIMIT = 60;

/**
 * What a person acts on inside a control, apart from the control: other
 * controls (a link in a card), and targets a script made of its own (a
 * tree item's expand arrow, with a pointer or a listener of its own).
 * @param {Element} element
 * @returns {Element[]}
 */
const innerControls = (element) => {
  const found = new Set(Array.from(element.querySelectorAll(CONTROLS)).filter((inner) => inner !== element));
  const all = element.getElementsByTagName("*");
  for (let i = 0; i < all.length && i < INNER_LOOK_LIMIT; i++) {
    const inner = all[i];
    if (found.has(inner)) continue;
    const role = interactive(inner);
    if (role && WEAK_ROLES.has(role)) found.add(inner);
  }
  return Array.from(found);
};

/**
 * Whether `inner`'s box lies within `outer`'s (a pixel of slack).
 * @param {Element} inner
 * @param {Element} outer
 */
const within = (inner, outer) => {
  const a = rectOf(inner), b = rectOf(outer);
  return a.left >= b.left - 1 && a.top >= b.top - 1 && a.right <= b.right + 1 && a.bottom <= b.bottom + 1;
};

/**
 * Whether an element draws nothing at all: no component, no words, nothing
 * inside it, and nothing beyond words either (`paintsBeyondText`: no
 * picture or field, background, border, shadow, outline, nor a box CSS
 * writes before or after it): a grid's column resize handle, a strip a
 * script listens to for drags.
 * @param {Element} element
 */
const drawsNothing = (element) =>
  element.namespaceURI === element.ownerDocument.documentElement.namespaceURI && !shadowOf(element) &&
  !element.firstElementChild && !(element.textContent || "").trim() && !paintsBeyondText(element, styleOf(element));

/** What share of a control's box a nameless target inside it covers to be the control again. */
const MOST_OF = 0.6;

/**
 * Whether a target a script made inside a control (nameless, or inside a
 * control of a role) is the control again: it lies within it and covers
 * most of it (a rating's row of stars, a slider's track), unlike a tree
 * item's arrow beside its words.
 * @param {Element} inner
 * @param {Element} outer
 */
const sameTarget = (inner, outer) => {
  const a = rectOf(inner), b = rectOf(outer);
  return within(inner, outer) && a.width * a.height >= MOST_OF * b.width * b.height;
};

/**
 * @typedef {{test?: string, id?: string, classes?: string, title?: string}} Clues
 */

/** The most of a page's own words a hint about an element carries. */
const CLUE_LIMIT = 48;
/** A name this short (a day of a month, a page number, a glyph) says little. */
const SHORT_NAME = 3;

/**
 * The classes of an element that tell what it is: without a kit's words
 * for every widget (`ui-widget`, `ui-corner-all`, `btn`), nor generated
 * ones (`css-1x2y3z`); the last two of the rest (kits add the most
 * specific class last: `ui-spinner-button ui-spinner-up`).
 * @param {string} className
 */
const telling = (className) => {
  const noise = /^(ui-widget|ui-corner-|ui-state-|ui-button$|ui-button-icon|ui-icon$|btn$|ant-btn$|css-|jsx-|sc-|active$|show$|open$|hover$|focus)/;
  const tokens = className.split(/\s+/).filter((token) => token && !noise.test(token) && !/\d{3,}|[A-Z0-9]{6,}/.test(token));
  return tokens.slice(-2).join(" ");
};

/** @param {string} text */
const clue = (text) => (text.length > CLUE_LIMIT ? text.slice(0, CLUE_LIMIT - 1) + "…" : text);

/**
 * Adds to an element's record what a person sees that its name does not
 * say: the words on a control named otherwise (a header button named
 * "Choose a month" that shows "Mar"), the tooltip of one with a short name
 * (a day "3" titled "2026-03-03"), and for one with no name at all what can
 * be known of it (its test id, id, classes, tooltip), so a model can still
 * tell it from its neighbours.
 * @param {Element} element
 * @param {ElementRecord} record
 */
const describeLooks = (element, record) => {
  const name = record.name;
  const field = record.value !== undefined || record.options !== undefined;
  if (!field && name && controlRole(record.role)) {
    // What a person sees on it, words hidden from assistive technology
    // too (a button named "Pay" that shows "Pay $500"), an icon font's
    // ligatures aside.
    const seen = textOf(element, (inner) => hiddenByStyle(inner) || (ariaHidden(inner) && iconGlyphs(inner)));
    if (seen && seen !== name && !name.toLowerCase().includes(seen.toLowerCase()) && seen.length <= CLUE_LIMIT) record.shows = seen;
  }
  const title = clean(element.getAttribute("title"));
  // A name of a letter or two, or one cut short where it is drawn (an
  // ellipsis, a clip: `keptOf`), is said with the tooltip a person reads.
  const short = name.length <= SHORT_NAME || name.endsWith("…");
  if (name && short && title && title !== name) record.title = clue(title);
  if (name) return;
  /** @type {Clues} */
  const clues = {};
  const test = element.getAttribute("data-testid") || element.getAttribute("data-test") || element.getAttribute("data-cy");
  if (test) clues.test = clue(clean(test));
  if (element.id && !/\d{3,}|^:r|^ui-id-/.test(element.id)) clues.id = clue(element.id);
  const classes = typeof element.className === "string" ? telling(element.className) : "";
  if (classes) clues.classes = clue(classes);
  if (title) clues.title = clue(title);
  if (Object.keys(clues).length) record.clues = clues;
};
