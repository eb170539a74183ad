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
/** Of SKIP_TAGS, the sources a page's style may display as text (a demo showing its own code). */
const SOURCE_TAGS = new Set(["SCRIPT", "STYLE"]);
/**
 * Whether an element's content is never drawn as words: one of SKIP_TAGS,
 * but for a script or style sheet the page's style displays.
 * @param {Element} element
 */
const unread = (element) => SKIP_TAGS.has(element.tagName) &&
  !(SOURCE_TAGS.has(element.tagName) && layoutOf(element).display !== "none");

/** Roles whose elements inside a control are not part of its name. */
const NOT_OF_THE_NAME = new Set([
  "menu", "menubar", "listbox", "tree", "treegrid", "grid", "tablist", "group", "treeitem",
  "menuitem", "option",
]);

/** @param {string | null | undefined} text */
const clean = (text) => (text || "").replace(/\s+/g, " ").trim();

/**
 * What a picture or a gauge shows, said in its line as "(kind: words)":
 * an image's alternative text; a meter's or a progress bar's fill, as a
 * share of its range (a progress bar of no value is busy). `null`: it
 * says nothing.
 * @param {Element} element
 * @returns {[string, string] | null}
 */
const picturedWords = (element) => {
  if (element.tagName === "IMG") {
    const alt = clean(element.getAttribute("alt"));
    return alt ? ["image", alt] : null;
  }
  if (!GAUGE_TAGS.has(element.tagName)) return null;
  const gauge = /** @type {HTMLMeterElement} */ (element);
  const kind = element.tagName.toLowerCase();
  if (kind === "progress" && !element.hasAttribute("value")) return [kind, "busy"];
  const min = kind === "meter" ? gauge.min : 0;
  const share = gauge.max > min ? (gauge.value - min) / (gauge.max - min) : 0;
  return [kind, Math.round(Math.min(1, Math.max(0, share)) * 100) + "%"];
};

/** The most characters of a field's value read. */
const VALUE_LIMIT = 20000;

/**
 * A field's value as a person reads it, its lines kept (a text area, an
 * editable region, a code editor's file): each line's trailing spaces
 * dropped, its indent kept, blank lines at either end dropped, cut short.
 * @param {string | null | undefined} text
 */
const valueLines = (text) => {
  const lines = (text || "").replace(/\r\n?/g, "\n").replace(/\u00a0/g, " ").split("\n")
    .map((line) => line.replace(/\s+$/u, ""));
  while (lines.length && !lines[0].trim()) lines.shift();
  while (lines.length && !lines[lines.length - 1].trim()) lines.pop();
  const joined = lines.join("\n");
  return joined.length > VALUE_LIMIT ? joined.slice(0, VALUE_LIMIT - 1) + "…" : joined;
};

/**
 * The label an element is drawn inside, in the flat tree: across a slot
 * (a web component's own <label> around the words a page slots into it)
 * as well as in the same tree.
 */
const labelOf = perElement((element) => {
  for (let at = /** @type {Element | null} */ (element); at; at = parentOf(at)) {
    if (at.tagName === "LABEL") return /** @type {HTMLLabelElement} */ (at);
  }
  return null;
});

/**
 * Whether a label's words name a control that is listed (they are its
 * name, not text of their own); a gauge's or an output's label is text.
 * @param {HTMLLabelElement | null} label
 */
const namesListed = (label) => {
  const control = label && label.control;
  if (control && interactive(control) && shownRect(control)) return true;
  // (Or a component's one real control inside it: `componentName`.)
  return Boolean(label) && Array.from(/** @type {HTMLLabelElement} */ (label).querySelectorAll("*")).some((inner) => realControlOf(inner) !== null);
};

/** The attributes that make a presentational role be set aside. */
const GLOBAL_ARIA = ["aria-label", "aria-labelledby", "aria-describedby", "aria-controls", "aria-live", "aria-owns"];

/**
 * Whether a `presentation`/`none` role does not hold: the element is
 * focusable (natively, by tabindex, or editable) or carries a global ARIA
 * attribute.
 * @param {Element} element
 */
const presentationSetAside = (element) => {
  const tag = element.tagName;
  if (element.hasAttribute("tabindex") || (/** @type {HTMLElement} */ (element)).isContentEditable) return true;
  if ((tag === "A" || tag === "AREA") && element.hasAttribute("href")) return true;
  if (["BUTTON", "INPUT", "SELECT", "TEXTAREA", "SUMMARY"].includes(tag) && !(/** @type {HTMLButtonElement} */ (element)).disabled) return true;
  return GLOBAL_ARIA.some((name) => element.hasAttribute(name));
};

/**
 * What Chromium's accessibility tree said of an element when it was last
 * handed over (`Driver::hand_over`, before each snapshot of a page whose
 * early hooks list it, as an element given `ElementInternals` or a closed
 * shadow root): an action checks its element as the snapshot read it.
 * @param {Element} element
 * @returns {{role: string, name: string, from: string, ignored: boolean, states: Record<string, unknown>} | undefined}
 */
const factsOf = (element) => handed.facts.get(element);

/** Roles the accessibility tree gives what has none of its own. */
const NO_ROLE = new Set(["generic", "none", "presentation"]);

/**
 * The element's ARIA role: explicit, implied by its tag, or (for a custom
 * element) declared through `ElementInternals`, as Chromium computed it.
 * @param {Element} element
 * @returns {string | null}
 */
const roleOf = (element) => {
  const explicit = (element.getAttribute("role") || "").trim().split(/\s+/)[0];
  // ARIA's conflict rule: a presentational role on an element a person can
  // focus, or that names itself for assistive technology, is set aside
  // (a link marked role=presentation is still a link).
  if (explicit && !((explicit === "presentation" || explicit === "none") && presentationSetAside(element))) return explicit;
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
  const facts = factsOf(element);
  if (facts && !facts.ignored && /^[a-z]+$/.test(facts.role) && !NO_ROLE.has(facts.role)) return facts.role;
  const html = /** @type {HTMLElement} */ (element);
  if (html.isContentEditable && (!element.parentElement || !element.parentElement.isContentEditable)) return "textbox";
  return null;
};

/** A selector that names a `::before` or `::after`. */
const PSEUDO_TEXT = /::?(?:before|after)\b/i;
/**
 * The elements a selector list names the `::before` or `::after` of: each
 * of its selectors with the pseudo-element taken out (`.x > ::before`:
 * `.x > *`).
 * @param {string} list
 */
const pseudoHosts = (list) => {
  /** @type {string[]} */
  const parts = [];
  let depth = 0;
  let start = 0;
  for (let at = 0; at <= list.length; at++) {
    const c = list[at];
    if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth--;
    else if ((c === "," && depth === 0) || at === list.length) {
      const part = list.slice(start, at);
      start = at + 1;
      if (!PSEUDO_TEXT.test(part)) continue;
      const host = part.replace(new RegExp(PSEUDO_TEXT.source, "gi"), "").trim();
      parts.push(host === "" || /[>+~]$/.test(host) ? host + " *" : host);
    }
  }
  return parts.join(",");
};
/** A `content` value that may hold words: a string not empty, an attribute, quotes, a counter. */
const WORDS_CONTENT = /"[^"]|'[^']|attr\(|quote|counters?\(/;
/**
 * The elements of a document or shadow root whose `::before` or `::after`
 * its style sheets may give words (a rule naming the pseudo-element whose
 * `content` holds a string, an attribute or quotes; `q`, whose quotes the
 * browser's own sheet writes), or null where that cannot be told (a sheet
 * of another origin, a selector this cannot take apart): then every
 * element is asked. So a page whose sheets write no words costs nothing.
 * @param {Node} root
 * @returns {Set<Element> | null}
 */
const generators = (root) => {
  const holder = /** @type {Document | ShadowRoot} */ (root);
  if (typeof holder.querySelectorAll !== "function") return null;
  /** @type {CSSStyleSheet[]} */
  const sheets = [...Array.from(holder.styleSheets || []), ...Array.from(holder.adoptedStyleSheets || [])];
  const selectors = ["q"];
  /** @param {CSSRuleList} rules @returns {boolean} whether all could be read */
  const read = (rules) => {
    for (const rule of Array.from(rules)) {
      const style = /** @type {CSSStyleRule} */ (rule);
      if (typeof style.selectorText === "string") {
        const selector = style.selectorText;
        if (PSEUDO_TEXT.test(selector) && WORDS_CONTENT.test(style.style.content || "")) {
          if (/[&]|:host|::slotted|::part/.test(selector)) return false;
          selectors.push(pseudoHosts(selector));
        }
        if (style.cssRules && style.cssRules.length && !read(style.cssRules)) return false;
      } else if ("styleSheet" in rule) {
        // An imported sheet (another origin's throws, and every element is asked).
        const imported = /** @type {CSSImportRule} */ (rule).styleSheet;
        if (imported && !read(imported.cssRules)) return false;
      } else if ("cssRules" in rule && !read(/** @type {CSSGroupingRule} */ (rule).cssRules)) return false;
    }
    return true;
  };
  try {
    for (const sheet of sheets) {
      if (!read(sheet.cssRules)) return null;
    }
    return new Set(Array.from(holder.querySelectorAll(selectors.join(","))));
  } catch (error) {
    return null;
  }
};
/** Per root, `generators`' answer, worked out once a call. @type {Map<Node, Set<Element> | null>} */
const generatorsKnown = new Map();
/** Whether an element's `::before` or `::after` may hold words. @param {Element} element */
const mayGenerate = (element) => {
  const root = element.getRootNode();
  let known = generatorsKnown.get(root);
  if (known === undefined) {
    known = generators(root);
    generatorsKnown.set(root, known);
  }
  return known === null || known.has(element);
};

/**
 * The text CSS writes into an element's `::marker`, `::before` or
 * `::after`, as a person sees it: its strings, the attributes it shows
 * (`attr()`) and its quotes, in order; what it counts (`counter()`, a list
 * item's number) as the browser counted it, where marks asked it, else
 * as the page's counters count here (`counterWords`); cased as its
 * `text-transform` draws them; nothing
 * where the pseudo-element is not drawn (no display, hidden, faded,
 * transparent, too small to read). What follows a ` / ` is the
 * alternative text for assistive technology, not what is drawn. One
 * computed style per pseudo-element asked about; the walk asks only where
 * it reads.
 * @param {Element} element @param {"::before" | "::after" | "::marker"} which
 */
const generatedText = (element, which) => {
  if (which === "::marker") return markerText(element);
  if (!mayGenerate(element)) return "";
  const style = getComputedStyle(element, which);
  const content = style.content;
  if (!content || content === "none" || content === "normal") return "";
  if (undrawnWords(style) || (element.ownerDocument === document && pseudoUnseen(element, style))) return "";
  if (/counters?\(/.test(content)) {
    const counted = handedWords(element, which === "::before" ? "before" : "after");
    if (counted !== undefined) return apart(element, style, which, counted.replace(/\p{Co}/gu, ""));
  }
  return apart(element, style, which, asCased(contentWords(element, which, content, style), style.textTransform));
};

/**
 * The text of a subtree, for names: what a person sees of it (`hides`
 * isHidden, text indented away left out), or with `hides` a11yHidden what
 * assistive technology reads of it (clipped and off-screen text in);
 * where it has no words, the labels (`aria-label`) of its parts.
 * @param {Element} root
 * @param {(element: Element) => boolean} hides
 * @param {(node: Text) => boolean} [heard]  which text nodes count, as
 *   assistive technology reads them (with a11yHidden, all where not given)
 */
const textOf = (root, hides, heard) => {
  let text = "", labels = "";
  /** @param {Node} node */
  const walk = (node) => {
    if (node.nodeType === 3) {
      if (hides === a11yHidden || heard) {
        if (!heard || heard(/** @type {Text} */ (node))) text += node.parentElement ? asCased(node.nodeValue || "", casingOf(node.parentElement), text.slice(-1)) : node.nodeValue;
      } else if (!node.parentElement || nameTextSeen(/** @type {Text} */ (node), node.parentElement)) {
        const seen = node.parentElement ? asCased(seenTextOf(/** @type {Text} */ (node)), casingOf(node.parentElement), text.slice(-1)) : seenTextOf(/** @type {Text} */ (node));
        text += node.parentElement && drawnMirrored(/** @type {Text} */ (node), node.parentElement) ? mirror(seen) : seen;
      }
      return;
    }
    if (node.nodeType !== 1) return;
    const element = /** @type {Element} */ (node);
    if (unread(element)) return;
    if (element.tagName === "SELECT" || element.tagName === "TEXTAREA" || element.tagName === "INPUT") return;
    if (hides(element)) return;
    // A submenu, a group of child items or an item inside an item is not
    // part of its name.
    if (element !== root && NOT_OF_THE_NAME.has(roleOf(element) || "")) return;
    // A part labelled of its own (a labelled SVG icon in a link) gives its
    // label where the subtree has no words of its own (beside words, an
    // icon's label, "caret-down", says nothing).
    const label = element === root ? "" : clean(element.getAttribute("aria-label"));
    if (label) { labels += " " + label; return; }
    if (element.tagName === "IMG") { text += " " + (element.getAttribute("alt") || "") + " "; return; }
    // As the browser draws it: a host's shadow tree, whose slots show
    // the host's children (Chromium names a control by its label's
    // slotted words); a slot's fallback where nothing is slotted.
    const shadow = shadowOf(element);
    text += generatedText(element, "::before");
    if (shadow) eachChild(shadow, walk);
    else if (element.localName === "slot" && typeof (/** @type {HTMLSlotElement} */ (element)).assignedNodes === "function" &&
             (/** @type {HTMLSlotElement} */ (element)).assignedNodes().length) {
      (/** @type {HTMLSlotElement} */ (element)).assignedNodes().forEach(walk);
    } else eachChild(element, walk);
    text += generatedText(element, "::after");
    if (BLOCK_DISPLAY.test(layoutOf(element).display)) text += " ";
  };
  walk(root);
  return clean(text) || clean(labels);
};
/**
 * What a person sees of a subtree's text, as a name: inside a control that
 * assistive technology hears, its `aria-hidden` parts (icon glyphs) are
 * left out; a control that is itself inside an `aria-hidden` subtree is
 * named by what is seen of it.
 * @param {Element} root
 */
const visibleText = (root) => {
  if (ariaHidden(root)) return textOf(root, hiddenByStyle);
  return textOf(root, (element) => hiddenByStyle(element) || ariaHidden(element));
};
/** @param {Element} root */
const a11yText = (root) => textOf(root, a11yHidden);
/**
 * What assistive technology reads of a subtree that is put out of a
 * person's sight (clipped to nothing, moved off the page, of no size: how
 * a page gives an icon-only control words to be heard), or that something
 * covers; less words drawn in place, at their size, in no colour, font or
 * opacity a person reads: those hide from sight, and are no icon's name.
 * @param {Element} root
 */
const heardText = (root) => textOf(root, a11yHidden, (node) => {
  const parent = flatParentOf(node);
  if (!parent) return true;
  // Clipped, shrunk or pushed away by its own style or an ancestor's (not
  // faded: that is drawn in place).
  if (isHidden(parent)) return lookOf(parent).opacity >= FAINTEST;
  const rects = textRects(node);
  if (!rects.length) return true;
  // Pushed off the page, or out of the boxes that clip it (its own too),
  // where less than a letter of it shows.
  const look = lookOf(parent);
  const bounds = boundsOf(look).clip;
  const clip = look.overflow === "visible" ? bounds : narrowed(bounds, look, ["hidden", "clip"]);
  const page = pageEdgesOf(parent);
  const left = Math.max(clip ? clip.left : -Infinity, page[0]);
  const top = Math.max(clip ? clip.top : -Infinity, page[1]);
  const right = Math.min(clip ? clip.right : Infinity, page[2]);
  const bottom = Math.min(clip ? clip.bottom : Infinity, page[3]);
  if (rects.every((box) => Math.min(box.right, right) - Math.max(box.left, left) < THINNEST ||
      Math.min(box.bottom, bottom) - Math.max(box.top, top) < THINNEST)) return true;
  // Letters that read, kept from sight by something over them (a banner,
  // a backdrop): what the control says once that is gone.
  return textFate(node) === "seen";
});

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
    if (!target) return "";
    // A hidden element named as the label is read whole, as assistive
    // technology reads it: a label's few words, never a paragraph.
    const text = visibleText(target) || a11yText(target);
    if (text || !a11yHidden(target)) return text;
    // (What it holds is hidden with it; only what hides itself is left out.)
    const hidden = textOf(target, (element) => element !== target &&
      (element.hasAttribute("hidden") || element.getAttribute("aria-hidden") === "true" || lookOf(element).display === "none"), () => true);
    return hidden.length <= HIDDEN_NAME_LIMIT ? hidden : "";
  }).join(" "));
};

/**
 * The words of a subtree a person does not see but assistive technology
 * hears (`heardText`), where they are a label's few: none past
 * HIDDEN_NAME_LIMIT, which is no label and could be text planted for a
 * model.
 * @param {Element} root
 */
const shortHeard = (root) => {
  const heard = heardText(root);
  return heard.length <= HIDDEN_NAME_LIMIT ? heard : "";
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
  // A label declared through ElementInternals (or labelling elements set
  // there), as Chromium computed it.
  const facts = factsOf(element);
  if (facts && facts.name && (facts.from === "attribute" || facts.from === "relatedElement")) return clean(facts.name);
  const input = /** @type {HTMLInputElement} */ (element);
  if (input.labels && input.labels.length) {
    // A label put out of sight (a field whose hint shows where a label
    // would) is heard: its few words name the field.
    const label = clean(Array.from(input.labels).map((each) => visibleText(each) || shortHeard(each)).join(" "));
    if (label) return label;
  }
  if (element.tagName === "IMG") return clean(element.getAttribute("alt"));
  if (element.tagName === "INPUT" && ["button", "submit", "reset"].includes(input.type)) {
    // Its words are drawn in it as a field's value is: what it shows.
    return seenValue(element, clean(input.value) || (input.type === "submit" ? "Submit" : input.type === "reset" ? "Reset" : ""));
  }
  if (element.tagName === "INPUT" && input.type === "image") return clean(input.alt || input.value);
  if (role === "dialog" || role === "alertdialog") return clean(element.getAttribute("title"));
  const isField = role === "textbox" || role === "searchbox" || role === "combobox" || role === "spinbutton" || role === "listbox" || role === "slider";
  if (!isField) {
    // What a person sees of it, or, for an icon-only control, the words
    // it carries for assistive technology (an off-screen "Close"): a
    // label's few words, never a hidden paragraph, which is no icon's name
    // and could be text planted for a model.
    const text = visibleText(element) || shortHeard(element);
    if (text) return text.length > 120 ? text.slice(0, 117) + "..." : text;
  }
  const title = clean(element.getAttribute("title"));
  if (title) return title;
  // A placeholder drawn so that nobody sees it names nothing.
  const placeholder = clean(element.getAttribute("placeholder") || element.getAttribute("aria-placeholder"));
  if (placeholder && (!element.hasAttribute("placeholder") || seenPlaceholder(element))) return placeholder;
  // A button with only an icon: say what it is made of.
  const img = element.querySelector && element.querySelector("img[alt], svg title");
  if (img) return clean(img.getAttribute("alt") || img.textContent);
  return "";
};

/**
 * Elements a page script gave a click handler: an `onclick` property, or
 * a click, mouse or pointer listener (recorded in the page's own world by
 * driver-core's early hooks, which the backends install before the page's
 * scripts run). Both are visible only in the page's world, so where this
 * runs in a world of its own the caller asks the page's world which they
 * are (their places in document order) and passes them in; where it runs
 * in the page's world it reads the record itself. Only a hint: a page that
 * forges them makes more things clickable, never fewer.
 * @param {number[] | undefined} places
 * @returns {Set<Element>}
 */
const elementsAt = (places) => {
  /** @type {Set<Element>} */
  const found = new Set();
  if (!Array.isArray(places) || !places.length) return found;
  const all = document.getElementsByTagName("*");
  for (const index of places) if (all[index]) found.add(all[index]);
  return found;
};
const propertyHandlers = elementsAt(options.handlers ? options.handlers.onclick : undefined);
const listenedElements = elementsAt(options.handlers ? options.handlers.listened : undefined);
/** @type {WeakSet<Element> | null} The early hooks' record, in the page's world. */
const pageListeners = (() => {
  if (typeof options.listeners !== "string") return null;
  const kept = /** @type {any} */ (window)[Symbol.for(options.listeners)];
  return kept && typeof kept.has === "function" ? kept : null;
})();
/** @param {Element} element */
const hasClickHandler = (element) =>
  typeof (/** @type {HTMLElement} */ (element)).onclick === "function" || propertyHandlers.has(element) ||
  element.hasAttribute("onclick") || element.hasAttribute("ng-click") || element.hasAttribute("@click") ||
  element.hasAttribute("v-on:click");
/** @param {Element} element */
const listenedTo = (element) =>
  listenedElements.has(element) || Boolean(pageListeners && pageListeners.has(element));

/** Roles of regions of a page, never of something to press. */
const STRUCTURE_ROLES = new Set([
  "tabpanel", "article", "feed", "log", "main", "navigation", "banner", "contentinfo",
  "complementary", "presentation", "none", "list", "listitem", "table", "row", "rowgroup",
]);
/** What is interactive for a weak reason: a tabindex, a handler, a pointer. */
const WEAK_ROLES = new Set(["generic", "clickable", "draggable"]);
/** Elements that are controls a person acts on whatever holds them. */
const CONTROLS = "a[href], button, input:not([type=hidden]), select, textarea, [contenteditable=''], [contenteditable=true], " +
  "[role=button], [role=link], [role=menuitem], [role=menuitemcheckbox], [role=menuitemradio], [role=option], " +
  "[role=tab], [role=treeitem], [role=checkbox], [role=radio], [role=switch], [role=gridcell], [role=combobox], " +
  "[role=textbox], [role=searchbox], [role=slider], [role=spinbutton]";
/** The most text an element that only has a listener (no pointer, no role) may hold and be a control. */
const LISTENED_TEXT_LIMIT = 80;

/**
 * Whether a person would act on the whole of an element that a script
 * listens to (and that has nothing else saying it is a control): a small
 * thing with a few words, not a region of the page (a page's "click
 * outside to close" listener is on a wrapper of everything).
 * @param {Element} element
 */
const smallEnoughToPress = (element) => {
  if (regionSized(element)) return false;
  const text = element.textContent || "";
  return text.trim().length <= LISTENED_TEXT_LIMIT && !element.querySelector("h1, h2, h3, h4, h5, h6, p, li, table");
};

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
  if (html.tabIndex >= 0 && element.hasAttribute("tabindex")) {
    // A focusable region (a tab's panel, a scrolling box) is read through,
    // not pressed.
    if ((role && STRUCTURE_ROLES.has(role)) || (!role && scrollsWithMore(element))) return null;
    return role && role !== "heading" ? role : "generic";
  }
  // An anchor a script listens to is a link, as browsers expose it (a date
  // picker's arrows, a carousel's dots), whatever its href.
  if (element.tagName === "A" && !role && (hasClickHandler(element) || listenedTo(element))) return "link";
  // A <label> is read as the words it is: pressing it presses its
  // control, which has a number of its own (a script listening to a
  // floating label does not make it a second control).
  if (element.tagName === "LABEL" && !role) return null;
  const pressed = pressable(element, role);
  // What a script listens to, or styled as pressable, that lets every
  // click through (`pointer-events: none`, a floating label over its
  // field) is not what a person presses: the click reaches what is below.
  // (Read only then: most elements are none of these.)
  return pressed !== null && styleOf(element).pointerEvents === "none" ? null : pressed;
};

/**
 * Why a person would press an element that has no pressable role: a
 * script listens to it, it is made to be dragged, or it is styled as
 * pressable. Null if none.
 * @param {Element} element
 * @param {string | null} role
 * @returns {string | null}
 */
const pressable = (element, role) => {
  if (hasClickHandler(element) || (listenedTo(element) && smallEnoughToPress(element))) {
    return role && role !== "heading" && role !== "img" ? role : "clickable";
  }
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
