// @ts-check
// semantics.js: what an element is to a person and to assistive
// technology: its role, its accessible name, and whether a person could act
// on it at all. Apart from the walk (walk.js), which decides what is read in
// which order.

/** Roles whose elements a person acts on. */
const INTERACTIVE_ROLES = new Set([
  "button", "link", "checkbox", "radio", "switch", "tab", "menuitem", "menuitemcheckbox",
  "menuitemradio", "option", "textbox", "searchbox", "combobox", "slider", "spinbutton",
  "treeitem", "gridcell", "listbox",
]);
/** Input types that are their own role (a date field, a colour well). */
const VALUE_TYPES = ["date", "time", "color", "month", "week", "datetime-local"];
/** The longest hidden text that still names an icon-only control. */
const HIDDEN_NAME_LIMIT = 40;
/** Elements whose content is never page text. */
const SKIP_TAGS = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "HEAD", "META", "LINK", "TITLE"]);

/** @param {string | null | undefined} text */
const clean = (text) => (text || "").replace(/\s+/g, " ").trim();

const labelOf = perElement((element) => element.closest("label"));

/**
 * The element's ARIA role: explicit, or implied by its tag.
 * @param {Element} element
 * @returns {string | null}
 */
const roleOf = (element) => {
  const explicit = (element.getAttribute("role") || "").trim().split(/\s+/)[0];
  if (explicit) return explicit;
  const tag = element.tagName;
  const type = (element.getAttribute("type") || "").toLowerCase();
  switch (tag) {
    case "A": return element.hasAttribute("href") ? "link" : null;
    case "BUTTON": return "button";
    case "SUMMARY": return "button";
    case "SELECT": {
      const select = /** @type {HTMLSelectElement} */ (element);
      return select.multiple || select.size > 1 ? "listbox" : "combobox";
    }
    case "TEXTAREA": return "textbox";
    case "INPUT":
      switch (type) {
        case "hidden": return null;
        case "button": case "submit": case "reset": case "image": return "button";
        case "checkbox": return "checkbox";
        case "radio": return "radio";
        case "range": return "slider";
        case "number": return "spinbutton";
        case "search": return "searchbox";
        case "file": return "button";
        case "email": case "tel": case "url": case "text": case "password": case "": return "textbox";
        default: return type; // date, time, color, month, week, datetime-local
      }
    case "H1": case "H2": case "H3": case "H4": case "H5": case "H6": return "heading";
    case "IMG": return "img";
  }
  const html = /** @type {HTMLElement} */ (element);
  if (html.isContentEditable && (!element.parentElement || !element.parentElement.isContentEditable)) return "textbox";
  return null;
};

/**
 * The text of a subtree, for names: what a person sees of it (`hides`
 * isHidden, text indented away left out), or with `hides` a11yHidden what
 * assistive technology reads of it (clipped and off-screen text in).
 * @param {Element} root
 * @param {(element: Element) => boolean} hides
 */
const textOf = (root, hides) => {
  let text = "";
  /** @param {Node} node */
  const walk = (node) => {
    if (node.nodeType === 3) {
      if (hides === a11yHidden || !node.parentElement || !textHidden(node.parentElement)) text += node.nodeValue;
      return;
    }
    if (node.nodeType !== 1) return;
    const element = /** @type {Element} */ (node);
    if (SKIP_TAGS.has(element.tagName)) return;
    if (element.tagName === "SELECT" || element.tagName === "TEXTAREA" || element.tagName === "INPUT") return;
    if (hides(element)) return;
    if (element.tagName === "IMG") { text += " " + (element.getAttribute("alt") || "") + " "; return; }
    if (element.shadowRoot) eachChild(element.shadowRoot, walk);
    eachChild(element, walk);
    if (BLOCK_DISPLAY.test(layoutOf(element).display)) text += " ";
  };
  walk(root);
  return clean(text);
};
/** @param {Element} root */
const visibleText = (root) => textOf(root, isHidden);
/** @param {Element} root */
const a11yText = (root) => textOf(root, a11yHidden);

/**
 * The text of the elements an attribute names by id (aria-labelledby).
 * @param {Element} element
 * @param {string} attribute
 */
const byIds = (element, attribute) => {
  const ids = (element.getAttribute(attribute) || "").split(/\s+/).filter(Boolean);
  const root = /** @type {Document | ShadowRoot} */ (element.getRootNode());
  return clean(ids.map((id) => {
    const target = root.getElementById ? root.getElementById(id) : document.getElementById(id);
    return target ? visibleText(target) || a11yText(target) : "";
  }).join(" "));
};

/**
 * The accessible name, in the order the ARIA spec weighs them (roughly).
 * @param {Element} element
 * @param {string} role
 */
const nameOf = (element, role) => {
  const labelled = byIds(element, "aria-labelledby");
  if (labelled) return labelled;
  const aria = clean(element.getAttribute("aria-label"));
  if (aria) return aria;
  const input = /** @type {HTMLInputElement} */ (element);
  if (input.labels && input.labels.length) {
    const label = clean(Array.from(input.labels).map(visibleText).join(" "));
    if (label) return label;
  }
  if (element.tagName === "IMG") return clean(element.getAttribute("alt"));
  if (element.tagName === "INPUT" && ["button", "submit", "reset"].includes(input.type)) {
    return clean(input.value) || (input.type === "submit" ? "Submit" : input.type === "reset" ? "Reset" : "");
  }
  if (element.tagName === "INPUT" && input.type === "image") return clean(input.alt || input.value);
  if (role === "dialog" || role === "alertdialog") return clean(element.getAttribute("title"));
  const isField = role === "textbox" || role === "searchbox" || role === "combobox" || role === "spinbutton" || role === "listbox" || role === "slider";
  if (!isField) {
    // What a person sees of it, or, for an icon-only control, the words
    // it carries for assistive technology (an off-screen "Close"): a
    // label's few words, never a hidden paragraph, which is no icon's name
    // and could be text planted for a model.
    const seen = visibleText(element);
    const heard = seen ? "" : a11yText(element);
    const text = seen || (heard.length <= HIDDEN_NAME_LIMIT ? heard : "");
    if (text) return text.length > 120 ? text.slice(0, 117) + "..." : text;
  }
  const title = clean(element.getAttribute("title"));
  if (title) return title;
  const placeholder = clean(element.getAttribute("placeholder") || element.getAttribute("aria-placeholder"));
  if (placeholder) return placeholder;
  // A button with only an icon: say what it is made of.
  const img = element.querySelector && element.querySelector("img[alt], svg title");
  if (img) return clean(img.getAttribute("alt") || img.textContent);
  return "";
};

/**
 * Elements whose onclick a page script set as a property: visible only in
 * the page's own world, so where this runs in a world of its own the caller
 * asks the page's world which they are (their places in document order) and
 * passes them in.
 * @type {Set<Element>}
 */
const propertyHandlers = new Set();
if (Array.isArray(options.handlers) && options.handlers.length) {
  const all = document.getElementsByTagName("*");
  for (const index of options.handlers) if (all[index]) propertyHandlers.add(all[index]);
}
/** @param {Element} element */
const hasClickHandler = (element) =>
  typeof (/** @type {HTMLElement} */ (element)).onclick === "function" || propertyHandlers.has(element) ||
  element.hasAttribute("onclick") || element.hasAttribute("ng-click") || element.hasAttribute("@click") ||
  element.hasAttribute("v-on:click");

/**
 * Why a person could act on this element (its role, or `clickable`,
 * `generic`, `draggable` for what has none), or null.
 * @param {Element} element
 * @returns {string | null}
 */
const interactive = (element) => {
  const role = roleOf(element);
  if (role && role !== "heading" && role !== "img" && (INTERACTIVE_ROLES.has(role) || VALUE_TYPES.includes(role))) return role;
  if (element.tagName === "INPUT" && (/** @type {HTMLInputElement} */ (element)).type !== "hidden") return role || "textbox";
  const html = /** @type {HTMLElement} */ (element);
  if (html.tabIndex >= 0 && element.hasAttribute("tabindex")) return role && role !== "heading" ? role : "generic";
  if (hasClickHandler(element)) return role && role !== "heading" && role !== "img" ? role : "clickable";
  // Made to be dragged (a card, a list item to re-order): a person acts
  // on it with the mouse, so it gets a number to drag by.
  if (element.getAttribute("draggable") === "true") return role && role !== "heading" && role !== "img" ? role : "draggable";
  if (styleOf(element).cursor === "pointer") {
    // Only the outermost pointer target: its children inherit the cursor.
    const parent = parentOf(element);
    if (!parent || styleOf(parent).cursor !== "pointer") return "clickable";
  }
  return null;
};
