// @ts-check
// walk.js: the snapshot. Walks one frame's document in reading order (open
// shadow roots and same-origin iframes in place) and answers what a person
// could see and act on there:
//
//   SnapshotAnswer: { doc, title, url, status, viewport: {w, h},
//     scroll: {x, y}, page: {w, h}, items, elements, beyond }
//
// `items` are the page in reading order: headings, lines of text, elements
// (by local id) and cross-origin frames (by window.frames path, for the
// backend to read in that frame and splice in). `beyond` holds the elements
// outside the scope asked for (the viewport and a margin, unless the whole
// page is wanted): counted, not described, in a compact form, since a long
// page has thousands of them.
//
// With `options.find` it is a search of the whole page: only the elements
// whose role is `find.role` (if given) and whose name, value or link target
// holds `find.text` (lower case; if given), and the lines of text that hold
// it; nothing else is looked at closely, which keeps a search of a long page
// fast.
//
// With `options.read` it is a reading of the text (the `read` tool): the
// page's main content (or the scope, or with "all" the whole page) as
// blocks of text (paragraphs, headings, list items, quotes, preformatted
// text, table cells) whose links stand inline, by local id, where they
// are in the text; the controls of a form are left out. The text is judged
// exactly as a snapshot judges it, so a reading and a search agree on what
// text there is.

/**
 * @typedef {{k: "h", level: number, text: string, y: number}
 *   | {k: "t", text: string, y: number}
 *   | {k: "e", id: number}
 *   | {k: "f", path: number[], src: string, box: Box, offset: Point}
 *   | ({k: "b", parts: (string | number)[], more: boolean} & Block)} Item
 * @typedef {object} Block  what a reading's block of text is
 * @property {"p" | "h" | "li" | "quote" | "pre" | "cell"} kind
 * @property {number} level  a heading's level
 * @property {number} depth  a list item's depth (1 for a top-level list)
 * @property {number} n      an ordered list item's number (0: a bullet)
 * @property {number} table  a cell's table, row and column, to lay rows out
 * @property {number} row
 * @property {number} col
 * @typedef {{root: string, left: string[]}} ReadingAnswer  what a reading
 *   read (main, article, body, scope or frame) and the landmarks it left out
 * @typedef {{label: string, value: string, selected: boolean}} OptionRecord
 * @typedef {object} ElementRecord
 * @property {number} id
 * @property {string} role
 * @property {string} name
 * @property {Box} box
 * @property {boolean} offscreen
 * @property {string} [value]
 * @property {boolean | "mixed"} [checked]
 * @property {boolean} [selected]
 * @property {boolean} [expanded]
 * @property {boolean} [disabled]
 * @property {boolean} [required]
 * @property {boolean} [focused]
 * @property {string} [covered]
 * @property {string} [href]
 * @property {OptionRecord[]} [options]
 * @property {string} [type]
 * @property {number} [level]   a tree item's depth
 * @property {string} [shows]   what a person sees on it, where its name says something else
 * @property {string} [title]   its tooltip, where its name is too short to say much
 * @property {Clues} [clues]    what can be known of an element with no name
 * @property {ScrollState} [scroll]  a scroll box's items beyond what it shows
 * @property {string} [row]     the text around it in the page, to know a
 *   look-alike a re-render put in its place by (see `rowOf`)
 * @typedef {[number, string, number, number, number, number]} Beyond
 * @typedef {object} SnapshotAnswer
 * @property {string} doc
 * @property {string} title
 * @property {string} url
 * @property {string} origin
 * @property {number} status
 * @property {{w: number, h: number}} viewport
 * @property {Point} scroll
 * @property {{w: number, h: number}} page
 * @property {Item[]} items
 * @property {ElementRecord[]} elements
 * @property {Beyond[]} beyond
 * @property {ReadingAnswer | null} read
 */

/** What a page could make endless is cut before it travels. */
const LINE_LIMIT = 20000;
const TITLE_LIMIT = 1000;
/** @param {string} text @param {number} limit */
const cut = (text, limit) => (text.length > limit ? text.slice(0, limit - 1) + "…" : text);

// Text as a model reads it, in lower case, for a search to match: what
// the answer blanks or drops of page text (marks' `page_text`: controls and
// separators become spaces, as does a default-ignorable letter; format,
// private-use, unassigned and other default-ignorable characters go), and
// each run of spaces one space, as a person sees it.
const BLANKS = /[\p{Cc}\p{Zl}\p{Zp}\p{Zs}\u2800]|(?=\p{Lo})\p{Default_Ignorable_Code_Point}/gu;
const UNSEEN = /[\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Default_Ignorable_Code_Point}]/gu;
/** @param {string} text */
const asRead = (text) => text.replace(BLANKS, " ").replace(UNSEEN, "").replace(/\s+/g, " ").toLowerCase();
/** Plain printable ASCII: nothing for `asRead` to change but the case. */
const PLAIN = /^[\x20-\x7e]*$/;

// A search (options.find): what it asks for, as a model reads it.
const find = options.find || null;
const findText = find && find.text ? asRead(String(find.text)).trim() : "";
const findRole = find && find.role ? String(find.role) : "";
/** @param {string | null | undefined} text */
const holds = (text) => {
  if (!findText || !text) return !findText;
  if (text.toLowerCase().includes(findText)) return true;
  return !PLAIN.test(text) && asRead(text).includes(findText);
};
// A reading (options.read): "main" (the main content) or "all".
const reading = options.read === "main" || options.read === "all";
/** @type {Block} */
const PARAGRAPH = { kind: "p", level: 0, depth: 0, n: 0, table: 0, row: 0, col: 0 };
/** What makes a reading's list, and its inline code. */
const LIST_TAGS = new Set(["UL", "OL", "MENU"]);
const CODE_TAGS = new Set(["CODE", "KBD", "SAMP"]);
/** What a reading leaves out: the controls of a form, which are not text. */
const FORM_TAGS = new Set(["INPUT", "SELECT", "TEXTAREA", "BUTTON", "OPTION"]);
const FORM_ROLES = new Set(["button", "textbox", "searchbox", "checkbox", "radio", "switch", "combobox",
  "listbox", "option", "slider", "spinbutton", "menuitem", "menuitemcheckbox", "menuitemradio", "tab"]);
/**
 * The landmark an element is, of those a reading of the main content
 * leaves out (the site's navigation, banner, footer, asides, search), or
 * null. A header or footer is the page's only outside an article or a
 * section, as for assistive technology.
 * @param {Element} element
 * @returns {string | null}
 */
const aroundContent = (element) => {
  const role = element.getAttribute("role");
  if (role === "navigation" || element.tagName === "NAV") return "navigation";
  if (role === "complementary" || element.tagName === "ASIDE") return "aside";
  if (role === "search" || element.tagName === "SEARCH") return "search";
  const inside = () => Boolean(element.parentElement && element.parentElement.closest("article, aside, main, nav, section, [role=main], [role=article]"));
  if (role === "banner" || (element.tagName === "HEADER" && !role && !inside())) return "banner";
  if (role === "contentinfo" || (element.tagName === "FOOTER" && !role && !inside())) return "footer";
  return null;
};
/**
 * Where a reading of the main content starts: the page's main landmark,
 * else its only article, else the body.
 * @returns {{root: Element | null, what: string}}
 */
const mainContent = () => {
  const body = document.body || document.documentElement;
  const shown = (/** @type {Element} */ element) => !isHidden(element);
  const main = Array.from(document.querySelectorAll("main, [role=main]")).filter(shown);
  if (main.length === 1) return { root: main[0], what: "main" };
  const articles = Array.from(document.querySelectorAll("article, [role=article]"))
    .filter((article) => shown(article) && !(article.parentElement && article.parentElement.closest("article, [role=article]")));
  if (articles.length === 1) return { root: articles[0], what: "article" };
  return { root: body, what: "body" };
};

/**
 * Whether an element could match before its name is worked out: the words
 * it could be named by are all in these (a cheap, loose test).
 * @param {Element} element
 * @param {string} role
 */
const mightMatch = (element, role) => {
  if (findRole && role !== findRole) return false;
  if (!findText) return true;
  if (holds(element.textContent)) return true;
  for (const name of ["aria-label", "title", "placeholder", "alt", "href", "value", "aria-labelledby"]) {
    if (element.hasAttribute(name) && (name === "aria-labelledby" || holds(element.getAttribute(name)))) return true;
  }
  const field = /** @type {HTMLInputElement} */ (element);
  if ("value" in element && holds(String(field.value))) return true;
  if (field.labels && field.labels.length) return true;
  return Boolean(element.querySelector && element.querySelector("img[alt], svg title"));
};

/** How much of the text around an element identifies its row. */
const ROW_LIMIT = 300;
/** The most children, and a fourth of the text nodes, a row may have. */
const ROW_PARTS = 24;
/** For how many elements of a snapshot the rows are read. */
const ROWS_KEPT = 5000;
/**
 * The text of the nearest box around an element that holds text besides
 * its own (a list item's label, a table row's cells): what a person tells
 * the element's row by. Every character counts, seen or not: it is an
 * identity, never shown. Empty where the box is too far up or too big to
 * say (more than ROW_LIMIT characters, more than ROW_PARTS children, or
 * many nodes to read).
 * @param {Element} element
 * @returns {string}
 */
const rowOf = (element) => {
  /** @param {Node} root */
  const textIn = (root) => {
    let text = "";
    let nodes = 0;
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      text += node.nodeValue;
      if (text.length > ROW_LIMIT * 2 || ++nodes > ROW_PARTS * 4) return null;
    }
    return clean(text);
  };
  const own = textIn(element);
  let box = element.parentElement;
  for (let depth = 0; box && depth < 4; depth++, box = box.parentElement) {
    // A box of many parts (a list, the page) is no one element's row.
    if (box === document.body || box === document.documentElement || box.childElementCount > ROW_PARTS) return "";
    const text = textIn(box);
    if (text === null || text.length > ROW_LIMIT) return "";
    if (text !== own) return text;
  }
  return "";
};

/** @returns {SnapshotAnswer | {error: "loading" | "gone"}} */
const snapshot = () => {
  /** @type {Item[]} */
  const items = [];
  /** @type {ElementRecord[]} */
  const elements = [];
  /** @type {Beyond[]} */
  const beyond = [];
  // The line being gathered, as text and as its parts (each text node a
  // run the paint pass judges once the walk has seen the whole page), and
  // the top of its first text (null while it holds only spaces and cell
  // separators, which make no line alone).
  let line = "";
  /** @type {LinePart[]} */
  let lineParts = [];
  /** @type {number | null} */
  let lineY = null;
  /** @param {string} text */
  const add = (text) => {
    line += text;
    lineParts.push(text);
  };
  /** @param {Text} node @param {Element} parent @param {boolean} faint */
  const addRun = (node, parent, faint) => {
    line += node.nodeValue || "";
    lineParts.push({ node, parent, faint, dropped: false });
  };
  // In a search, a line's text nodes are gathered unjudged, and judged
  // (hidden or not) only if the line holds what is searched for.
  /** @type {(Text | string)[]} */
  let pending = [];
  // A reading's block: what it is, the parts gathered so far (text with
  // its parts, and links by local id), and the blocks that have been
  // written once already (what follows in one is more of it: a list
  // item's second paragraph).
  /** @type {Block} */
  let current = PARAGRAPH;
  /** @type {({text: string, parts: LinePart[]} | number)[]} */
  let pieces = [];
  /** @type {WeakSet<Block>} */
  const flushed = new WeakSet();
  const flushBlock = () => {
    if (line) pieces.push({ text: line, parts: lineParts });
    const pre = current.kind === "pre";
    /** @type {(string | number)[]} */
    const kept = [];
    /** @type {{index: number, parts: LinePart[]}[]} */
    const judged = [];
    for (const part of pieces) {
      if (typeof part === "number") kept.push(part);
      else if (part.text) {
        if (part.parts.some(isRun)) judged.push({ index: kept.length, parts: part.parts });
        kept.push(blockText(part.text, pre));
      }
    }
    if (lineY !== null && kept.some((part) => typeof part === "number" || part.trim())) {
      /** @type {Item} */
      const item = { k: "b", ...current, parts: kept, more: current !== PARAGRAPH && flushed.has(current) };
      items.push(item);
      if (judged.length) written.push({ item, pieces: judged, pre });
      flushed.add(current);
    }
    line = "";
    lineParts = [];
    lineY = null;
    pieces = [];
  };
  /**
   * Reads `body` as the inside of a block of the kind given.
   * @param {Block} kind @param {() => void} body
   */
  const inBlock = (kind, body) => {
    flush();
    const outer = current;
    current = kind;
    body();
    flush();
    current = outer;
  };
  // How deep in lists the walk is, and the tables and rows met so far.
  let lists = 0;
  /** @type {WeakMap<Element, number>} */
  const serials = new WeakMap();
  let serial = 0;
  /** @param {Element | null} element */
  const serialOf = (element) => {
    if (!element) return 0;
    if (!serials.has(element)) serials.set(element, ++serial);
    return /** @type {number} */ (serials.get(element));
  };
  /**
   * The block an element begins in a reading, if it begins one.
   * @param {Element} element
   * @returns {Block | null}
   */
  const blockOf = (element) => {
    switch (element.tagName) {
      case "LI": {
        const list = element.parentElement;
        let n = 0;
        if (list && list.tagName === "OL") {
          n = (/** @type {HTMLOListElement} */ (list)).start;
          for (let before = element.previousElementSibling; before; before = before.previousElementSibling) {
            if (before.tagName === "LI") n++;
          }
        }
        return { ...PARAGRAPH, kind: "li", depth: Math.max(1, lists), n };
      }
      case "PRE": return { ...PARAGRAPH, kind: "pre" };
      case "BLOCKQUOTE": return { ...PARAGRAPH, kind: "quote" };
      case "TD": case "TH": {
        const cell = /** @type {HTMLTableCellElement} */ (element);
        return { ...PARAGRAPH, kind: "cell", table: serialOf(cell.closest("table")), row: serialOf(cell.parentElement), col: cell.cellIndex };
      }
      default: return null;
    }
  };
  // What a reading of the main content passed over, and whether it looks
  // for what to pass over (it reads the body, for want of a main landmark).
  /** @type {string[]} */
  const left = [];
  let skipping = false;
  const flush = () => {
    if (reading) return flushBlock();
    if (find) {
      const gathered = line;
      const nodes = pending;
      line = "";
      lineParts = [];
      lineY = null;
      pending = [];
      if (findRole || !holds(gathered)) return;
      let seen = "";
      /** @type {LinePart[]} */
      const parts = [];
      for (const part of nodes) {
        if (typeof part === "string") { seen += part; parts.push(part); continue; }
        const parent = /** @type {Element} */ (flatParentOf(part));
        const label = labelOf(parent);
        if (label && label.control && shownRect(label.control)) continue;
        if (ariaHidden(parent) && iconGlyphs(parent)) continue;
        const fate = textFate(part);
        if (fate === "hidden") continue;
        seen += part.nodeValue;
        parts.push({ node: part, parent, faint: fate === "faint", dropped: false });
      }
      const text = cut(clean(seen), LINE_LIMIT);
      if (text && holds(text)) {
        /** @type {Item} */
        const item = { k: "t", text, y: 0 };
        items.push(item);
        written.push({ item, parts, find: true });
      }
      return;
    }
    const text = cut(clean(line), LINE_LIMIT);
    if (text && lineY !== null) {
      /** @type {Item} */
      const item = { k: "t", text, y: lineY };
      items.push(item);
      if (lineParts.some(isRun)) written.push({ item, parts: lineParts });
    }
    line = "";
    lineParts = [];
    lineY = null;
  };

  // The lines written, with their runs, for the paint pass to judge; and
  // the frames read, with what they hold, which it judges beyond the
  // screen.
  /** @type {Written[]} */
  const written = [];
  /** @type {{frame: Element, items: Item[]}[]} */
  const frames = [];

  /** @type {WeakSet<Element>} What is listed already, as part of something else. */
  const listedAs = new WeakSet();

  // Elements whose centre may lie under something else, checked once the
  // walk has seen what is positioned.
  /** @type {{element: Element, record: ElementRecord, cx: number, cy: number}[]} */
  const centres = [];

  /**
   * Outside the scope asked for, an element is only counted ("12 more
   * below") if it renders at all: its number is kept, its name and state
   * are not worked out, and the finer hiding tricks are not looked for.
   * @param {Element} element @param {string} role @param {Box} box
   */
  const count = (element, role, box) => {
    if (typeof element.checkVisibility === "function" &&
        !element.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return;
    beyond.push([idOf(element), role, box.x, box.y, box.w, box.h]);
  };

  /**
   * Lists an element a person could act on, unless there is nothing of it
   * to see; named by its accessible name unless `name` is given.
   * @param {Element} element @param {string} role @param {Point} frameOffset
   * @param {string} [name]
   */
  const describe = (element, role, frameOffset, name) => {
    if (listedAs.has(element)) return;
    // Drawn, but no person can act on it.
    if (inertHere(element)) return;
    if (find && !mightMatch(element, role)) return;
    const rough = boxOf(element, frameOffset);
    if (far(rough) && !options.full) return count(element, role, rough);
    const shown = shownRect(element);
    if (!shown) return;
    const box = toBox(shown.rect, frameOffset);
    const offscreen = outOfView(box) || scrolledAway(shown.via);
    if (offscreen && !options.full) return count(element, role, box);
    const id = idOf(element);
    /** @type {ElementRecord} */
    const record = { id, role, name: name === undefined ? nameOf(element, role) : name, box, offscreen };
    const tag = element.tagName;
    const field = /** @type {HTMLInputElement} */ (element);
    if (tag === "INPUT" || tag === "TEXTAREA") {
      if (["checkbox", "radio"].includes(field.type)) record.checked = field.checked;
      else if (field.type === "password") record.value = field.value ? "••••" : "";
      else if (!["file", "submit", "button", "reset", "image"].includes(field.type)) record.value = field.value;
      // The type says more than the role only for plain text boxes.
      if (tag === "INPUT" && role === "textbox" && !["text", ""].includes(field.type)) record.type = field.type;
    } else if (tag === "SELECT") {
      const select = /** @type {HTMLSelectElement} */ (element);
      record.options = Array.from(select.options).map((option) => ({
        label: clean(option.label || option.text), value: option.value, selected: option.selected,
      }));
      record.value = Array.from(select.selectedOptions).map((option) => clean(option.label || option.text)).join(", ");
    } else if ((/** @type {HTMLElement} */ (element)).isContentEditable) {
      record.value = clean((/** @type {HTMLElement} */ (element)).innerText);
    }
    /** @param {string} name */
    const aria = (name) => element.getAttribute(name);
    if (aria("aria-checked")) record.checked = aria("aria-checked") === "true" ? true : aria("aria-checked") === "mixed" ? "mixed" : false;
    if (aria("aria-selected") === "true") record.selected = true;
    if (aria("aria-expanded")) record.expanded = aria("aria-expanded") === "true";
    // Where a tree item sits: inside which folder, as a person sees by its
    // indent.
    if (role === "treeitem" && Number(aria("aria-level")) > 0) record.level = Number(aria("aria-level"));
    if (tag === "DETAILS" || (tag === "SUMMARY" && element.parentElement && element.parentElement.tagName === "DETAILS")) {
      record.expanded = (/** @type {HTMLDetailsElement} */ (tag === "DETAILS" ? element : element.parentElement)).open;
    }
    if (field.disabled || aria("aria-disabled") === "true") record.disabled = true;
    if (field.required || aria("aria-required") === "true") record.required = true;
    const root = /** @type {Document | ShadowRoot} */ (element.getRootNode());
    if (document.activeElement === element || root.activeElement === element) record.focused = true;
    if (tag === "A" && element.hasAttribute("href")) record.href = /** @type {string} */ (element.getAttribute("href"));
    describeLooks(element, record);
    if (find && !holds(record.name) && !holds(record.value) && !holds(record.href)) return;
    // An element with no name is told from its look-alikes by its row (a
    // named one by its name and the text either side: reading rows costs
    // the walk a third more on a page of thousands of links).
    if (!find && !reading && !record.name && elements.length < ROWS_KEPT) {
      const row = rowOf(element);
      if (row) record.row = row;
    }
    const cx = box.x - frameOffset.x + box.w / 2, cy = box.y - frameOffset.y + box.h / 2;
    // (A reading says nothing of what covers a link: no hit test for it.)
    if (!reading && cx >= 0 && cy >= 0 && cx < innerWidth && cy < innerHeight) centres.push({ element, record, cx, cy });
    elements.push(record);
    if (!reading) items.push({ k: "e", id });
  };

  /**
   * Lists a box that scrolls and holds more than it shows (a results list,
   * a chat log), by its own name only, with how many of its items lie
   * beyond what it shows on each side: a person sees its scrollbar.
   * @param {Element} element @param {Point} frameOffset
   */
  const describeScrollBox = (element, frameOffset) => {
    const before = elements.length;
    const name = byIds(element, "aria-labelledby") || clean(element.getAttribute("aria-label")) || clean(element.getAttribute("title"));
    describe(element, "scrollbox", frameOffset, name);
    if (elements.length > before) elements[elements.length - 1].scroll = scrollState(element);
  };

  /**
   * Lists the items of a list a script made clickable as a whole (an
   * autocomplete's suggestions, a menu of `li`s with one listener on the
   * list): each item is what a person clicks, a number of its own, named by
   * its text, with the role its container implies.
   * @param {Element[]} list
   * @param {string} role
   * @param {Point} frameOffset
   */
  const describeItems = (list, role, frameOffset) => {
    for (const item of list) describe(item, role, frameOffset);
  };

  /**
   * Walks what an element holds as the browser draws it: a shadow host's
   * shadow tree (its children where a slot shows them), a slot's assigned
   * nodes (or its fallback), anything else's children.
   * @param {Element} element @param {(child: Node) => void} into
   */
  const inside = (element, into) => {
    if (element.shadowRoot) {
      eachChild(element.shadowRoot, into);
      return;
    }
    if (element.localName === "slot" && typeof (/** @type {HTMLSlotElement} */ (element)).assignedNodes === "function") {
      const assigned = (/** @type {HTMLSlotElement} */ (element)).assignedNodes();
      if (assigned.length) {
        assigned.forEach(into);
        return;
      }
    }
    eachChild(element, into);
  };

  /**
   * @param {Node} node
   * @param {Point} frameOffset
   * @param {Window} win
   * @param {number[]} path
   */
  const walk = (node, frameOffset, win, path) => {
    /** @param {Node} child */
    const into = (child) => walk(child, frameOffset, win, path);
    if (node.nodeType === 3) {
      const text = /** @type {Text} */ (node);
      const parent = text.parentElement;
      const drawnIn = flatParentOf(text);
      if (!parent || !drawnIn) return;
      const value = text.nodeValue || "";
      if (!value.trim()) {
        if (reading && current.kind === "pre") add(value);
        else if (value) add(" ");
        if (find && value) pending.push(" ");
        return;
      }
      if (find) {
        pending.push(text);
        line += value;
        return;
      }
      // Outside the scope asked for (the viewport and a margin, and what
      // a scrolling box shows now), text is left out unread.
      const box = boxOf(parent, frameOffset);
      if (!options.full && (far(box) || textScrolledAway(text, parent))) return;
      // A label's words are its control's name, not text of their own.
      const label = labelOf(drawnIn);
      if (label && label.control && shownRect(label.control)) return;
      // An icon font's ligature words ("shopping_cart") draw a picture.
      if (ariaHidden(drawnIn) && iconGlyphs(drawnIn)) return;
      const fate = textFate(text);
      if (fate === "hidden") return;
      if (lineY === null) lineY = box.y;
      addRun(text, drawnIn, fate === "faint");
      return;
    }
    if (node.nodeType === 11) {
      eachChild(node, into);
      return;
    }
    if (node.nodeType !== 1) return;
    const element = /** @type {HTMLElement} */ (node);
    if (SKIP_TAGS.has(element.tagName)) return;
    // Whatever is hidden by attribute is passed over unread; the other
    // ways to hide are looked for only where something would be read.
    // (`inert` and `aria-hidden` hide from the hand and from assistive
    // technology, not from the eye: what they hold is read, and only
    // `describe` leaves an inert control unnumbered.)
    if (element.hasAttribute("hidden")) return;
    // Fallback content is never drawn, nor SVG that only defines.
    if (FALLBACK_TAGS.has(element.tagName) && element.tagName !== "IFRAME" && element.tagName !== "FRAME") return;
    if (element.namespaceURI === SVG_NS && SVG_UNDRAWN.has(element.localName)) return;
    if (skipping) {
      const landmark = aroundContent(element);
      if (landmark) {
        if (!isHidden(element)) left.push(landmark);
        return;
      }
    }
    if (element.tagName === "IFRAME" || element.tagName === "FRAME") {
      const frame = /** @type {HTMLIFrameElement} */ (element);
      // A frame drawn too small, or painted over, shows nothing of its
      // document.
      if (isHidden(frame) || !frameShown(frame) || frameCovered(frame)) return;
      flush();
      const inner = contentOffset(frame, frameOffset);
      /** @type {Document | null} */
      let doc = null;
      try { doc = frame.contentDocument; } catch (error) { doc = null; }
      const index = frameIndex(frame, win);
      const from = items.length;
      if (doc && doc.documentElement && frame.contentWindow) {
        walk(doc.documentElement, inner, frame.contentWindow, path.concat([index]));
        flush();
      } else {
        items.push({ k: "f", path: path.concat([index]), src: frame.getAttribute("src") || "",
                     box: boxOf(frame, frameOffset), offset: inner });
      }
      frames.push({ frame, items: items.slice(from) });
      return;
    }
    // A heading is a line of structure, unless it is itself a control: an
    // accordion's header with role=tab, a heading with a click handler or
    // a pointer of its own (not one that is merely focusable). Then it is
    // numbered, and named by its own text.
    const heading = roleOf(element) === "heading" && interactive(element) !== "clickable";
    if (heading && reading) {
      // A reading's heading holds its links where they stand.
      if (isHidden(element)) return;
      const level = /^H[1-6]$/.test(element.tagName) ? Number(element.tagName[1]) : Number(element.getAttribute("aria-level") || 2);
      inBlock({ ...PARAGRAPH, kind: "h", level }, () => {
        inside(element, into);
      });
      return;
    }
    if (heading) {
      flush();
      const box = boxOf(element, frameOffset);
      const outside = (!options.full && far(box)) || (find && (findRole || !holds(element.textContent)));
      if (!outside) {
        if (isHidden(element)) return;
        const runs = headingRuns(element);
        // Text its ancestors' backdrop makes faint is judged again against
        // what is painted under it.
        const text = visibleText(element) || clean(joinParts(runs));
        const level = /^H[1-6]$/.test(element.tagName) ? Number(element.tagName[1]) : Number(element.getAttribute("aria-level") || 2);
        if (text && (!find || holds(text))) {
          /** @type {Item} */
          const item = { k: "h", level, text, y: box.y };
          items.push(item);
          if (runs.length) written.push({ item, parts: runs, find: Boolean(find) });
        }
      }
      // A control inside a heading is still an element.
      element.querySelectorAll(CONTROLS).forEach((inner) => {
        const role = interactive(inner);
        if (role) describe(inner, role, frameOffset);
      });
      return;
    }
    // A dialog is numbered (to scope a snapshot to it) and read through.
    const ownRole = element.getAttribute("role");
    if (!reading && (ownRole === "dialog" || ownRole === "alertdialog" || (element.tagName === "DIALOG" && (/** @type {HTMLDialogElement} */ (element)).open))) {
      if (isHidden(element)) return;
      flush();
      describe(element, ownRole || "dialog", frameOffset);
      inside(element, into);
      flush();
      return;
    }
    const role = interactive(element);
    if (reading && role) {
      // A reading writes a link where it stands in the text, by its name,
      // and leaves out a form's controls; what else a script made
      // clickable is read as text.
      if (role === "link") {
        const before = elements.length;
        describe(element, role, frameOffset);
        if (elements.length > before) {
          const record = elements[elements.length - 1];
          if (lineY === null) lineY = record.box.y;
          pieces.push({ text: line, parts: lineParts }, record.id);
          line = "";
          lineParts = [];
        }
        return;
      }
      if ((FORM_TAGS.has(element.tagName) || FORM_ROLES.has(role)) && element.tagName !== "SUMMARY") return;
    } else if (role && !labelOfListed(element, role)) {
      flush();
      const holding = parts(element, role);
      if (holding) {
        // A menu, a list of options, a tab list, a toolbar, or something a
        // script made clickable around controls or items of its own: its
        // parts are what a person acts on, each numbered, never one number
        // that swallows them (their roles say what they are part of);
        // something a script made clickable around controls keeps its
        // number where it looks pressable as a whole (a card), named short
        // (its label, its heading, its first words), its text read as the
        // page's.
        const name = holding.card ? containerName(element) : "";
        if (name) {
          describe(element, role, frameOffset, name);
          // What inside it is the same control again (named the same, in
          // its box) is not listed twice.
          for (const inner of innerControls(element)) {
            if (within(inner, element) && nameOf(inner, interactive(inner) || "generic") === name) listedAs.add(inner);
          }
        }
        if (holding.items) describeItems(holding.items, holding.itemRole, frameOffset);
        else inside(element, into);
        flush();
        return;
      }
      describe(element, role, frameOffset);
      // Its own text is its name; but act-able things inside it (a
      // link in a clickable card) are elements of their own, unless one is
      // the same control again (a tab's link, the button of a button).
      const inner = element.firstElementChild ? innerControls(element) : [];
      if (inner.length) {
        const name = nameOf(element, role);
        for (const part of inner) {
          const partRole = interactive(part) || roleOf(part) || "generic";
          if (nameOf(part, partRole) === name && within(part, element)) continue;
          describe(part, partRole, frameOffset);
        }
      }
      return;
    }
    const { display } = layoutOf(element);
    if (display === "none") return;
    const block = BLOCK_DISPLAY.test(display) || element.tagName === "BR";
    if (block) flush();
    if (element.tagName === "IMG") {
      const alt = clean(element.getAttribute("alt"));
      if (find) {
        // Judged only if it is what is searched for.
        if (alt && holds(alt) && !isHidden(element)) {
          line += " (image: " + alt + ") ";
          pending.push(" (image: " + alt + ") ");
        }
      } else {
        const box = boxOf(element, frameOffset);
        if (alt && (options.full || !far(box)) && !isHidden(element)) {
          if (lineY === null) lineY = box.y;
          add(" (image: " + alt + ") ");
        }
      }
    }
    if (!reading && (element.tagName === "TD" || element.tagName === "TH") && (/** @type {HTMLTableCellElement} */ (element)).cellIndex > 0) {
      add(" | ");
      if (find) pending.push(" | ");
    }
    // A box that scrolls and holds more than it shows is numbered, to be
    // scrolled by, and says how much lies beyond what it shows.
    if (!reading && !find && scrollsWithMore(element)) {
      flush();
      describeScrollBox(element, frameOffset);
    }
    const readInside = () => inside(element, into);
    const kind = reading ? blockOf(element) : null;
    if (kind) return inBlock(kind, readInside);
    // Code in a line of text, between backticks as markdown writes it.
    if (reading && CODE_TAGS.has(element.tagName) && current.kind !== "pre" && !block) {
      add("`");
      readInside();
      add("`");
      return;
    }
    const list = reading && LIST_TAGS.has(element.tagName);
    if (list) lists++;
    readInside();
    if (list) lists--;
    if (block) flush();
  };

  if (!document.documentElement) return { error: "loading" };
  /** @type {Element | null} */
  let root = document.body || document.documentElement;
  let what = options.path && options.path.length ? "frame" : "body";
  if (options.scope) {
    root = elementOf(options.scope);
    what = "scope";
  } else if (options.read === "main" && what === "body") {
    ({ root, what } = mainContent());
    skipping = what === "body";
  }
  if (!root || !root.isConnected) return { error: "gone" };
  walk(root, offset, window, options.path || []);
  flush();
  coverage(centres);
  const painted = paintPass(written, centres, frames);
  const shownItems = painted.items.size || painted.elements.size
    ? items.filter((item) => !painted.items.has(item) && !(item.k === "e" && painted.elements.has(item.id)))
    : items;
  const shownElements = painted.elements.size ? elements.filter((record) => !painted.elements.has(record.id)) : elements;
  const page = document.documentElement;
  return {
    doc: registry.doc,
    title: cut(document.title, TITLE_LIMIT),
    url: location.href,
    origin: location.origin,
    status: httpStatus,
    viewport,
    scroll: { x: Math.round(scrollX), y: Math.round(scrollY) },
    page: { w: page.scrollWidth, h: page.scrollHeight },
    items: shownItems,
    elements: shownElements,
    beyond,
    read: reading ? { root: what, left } : null,
  };
};

/**
 * A text node as a line holds it: the element it is drawn in, whether its
 * ancestors' backdrop makes it faint (to be judged again against what is
 * painted under it), and whether the paint pass left it out.
 * @typedef {{node: Text, parent: Element, faint: boolean, dropped: boolean}} Run
 * @typedef {string | Run} LinePart
 * @typedef {{item: Item, parts: LinePart[], find?: boolean}
 *   | {item: Item, pieces: {index: number, parts: LinePart[]}[], pre: boolean}} Written
 */

/**
 * A heading's text as runs (each text node a person may see, by its
 * element's look), with spaces between, for the paint pass.
 * @param {Element} heading
 * @returns {LinePart[]}
 */
const headingRuns = (heading) => {
  /** @type {LinePart[]} */
  const parts = [];
  /** @param {Node} node */
  const visit = (node) => {
    if (node.nodeType === 3) {
      const text = /** @type {Text} */ (node);
      const parent = flatParentOf(text);
      if (!parent || !(text.nodeValue || "").trim()) return;
      const fate = textFate(text);
      if (fate !== "hidden") parts.push({ node: text, parent, faint: fate === "faint", dropped: false }, " ");
      return;
    }
    if (node.nodeType !== 1 && node.nodeType !== 11) return;
    const element = /** @type {Element} */ (node);
    if (node.nodeType === 1 && (SKIP_TAGS.has(element.tagName) || isHidden(element))) return;
    if (node.nodeType === 1 && element.shadowRoot) eachChild(element.shadowRoot, visit);
    else if (node.nodeType === 1 && element.localName === "slot") {
      const assigned = (/** @type {HTMLSlotElement} */ (element)).assignedNodes();
      if (assigned.length) assigned.forEach(visit);
      else eachChild(element, visit);
    } else eachChild(node, visit);
  };
  visit(heading);
  return parts;
};

/** @param {LinePart} part @returns {part is Run} */
const isRun = (part) => typeof part !== "string";

/** @param {LinePart[]} parts */
const joinParts = (parts) => parts.map((part) => (typeof part === "string" ? part : part.dropped ? "" : part.node.nodeValue || "")).join("");

/** @param {string} text @param {boolean} pre */
const blockText = (text, pre) => cut(pre ? text : text.replace(/\s+/g, " "), LINE_LIMIT);

/**
 * The paint pass: once the walk has seen the page, judges every text run
 * written by what the browser paints. On screen, each run's boxes are
 * hit-tested (`paintedAt`, every element's pointer-events set aside where
 * one that lets the pointer through could lie over text): a run that
 * something paints over at every point, or that reads faint against what
 * is really painted under it, is left out; beyond the screen, what the
 * positioned boxes' extents and the ancestors' backdrop say. An element
 * whose centre lies under something that paints over it but lets clicks
 * through is left out too (a person sees the cover, not the element).
 * Lines are written again without what was left out.
 * A frame beyond the screen that a positioned box lies over whole is left
 * out with all it holds (one on screen was judged by hit tests already).
 * @param {Written[]} written
 * @param {{element: Element, record: ElementRecord, cx: number, cy: number}[]} centres
 * @param {{frame: Element, items: Item[]}[]} frames
 * @returns {{items: Set<Item>, elements: Set<number>}}
 */
const paintPass = (written, centres, frames) => {
  /** @type {Run[]} */
  const runs = [];
  for (const entry of written) {
    const lists = "pieces" in entry ? entry.pieces.map((piece) => piece.parts) : [entry.parts];
    for (const parts of lists) for (const part of parts) if (isRun(part)) runs.push(part);
  }
  /** @type {Set<Item>} */
  const droppedItems = new Set();
  /** @type {Set<number>} */
  const droppedElements = new Set();
  if (!runs.length && !centres.length && !frames.length) return { items: droppedItems, elements: droppedElements };
  const lids = lidsOver();
  for (const { frame, items } of frames) {
    const rect = rectOf(frame);
    if (onScreen(frame.ownerDocument, rect.left + rect.width / 2, rect.top + rect.height / 2)) continue;
    if (!lids.some((lid) => lidCovers(lid, rect, frame))) continue;
    for (const item of items) {
      droppedItems.add(item);
      if (item.k === "e") droppedElements.add(item.id);
    }
  }
  // Something positioned that lets the pointer through (and whatever it
  // holds, which inherits that) is seen only with pointer-events set aside.
  let passing = false;
  eachStacking((look) => {
    if (!passing && look.style.pointerEvents === "none") passing = true;
  });
  /** @type {Set<Document | ShadowRoot>} */
  const roots = new Set();
  const judge = () => {
    for (const run of runs) {
      const rects = textRects(run.node);
      if (!rects.length) {
        if (run.faint) run.dropped = true;
        continue;
      }
      const doc = run.parent.ownerDocument;
      const root = /** @type {Document | ShadowRoot} */ (run.node.getRootNode());
      const points = samplePoints(rects).filter(([x, y]) => onScreen(doc, x, y));
      if (!points.length) {
        const box = {
          left: Math.min(...rects.map((r) => r.left)), top: Math.min(...rects.map((r) => r.top)),
          right: Math.max(...rects.map((r) => r.right)), bottom: Math.max(...rects.map((r) => r.bottom)),
        };
        if (run.faint || lids.some((lid) => lidCovers(lid, box, run.parent))) run.dropped = true;
        continue;
      }
      let seen = false;
      for (const [x, y] of points) {
        const { covered, under } = paintedAt(root, run.parent, x, y);
        if (covered) continue;
        const point = { left: x - 0.5, top: y - 0.5, right: x + 0.5, bottom: y + 0.5 };
        if (lids.some((lid) => (lid.kind === "shadow" || lid.kind === "outline") && lidCovers(lid, point, run.parent))) continue;
        const fate = under ? judgeText(lookOf(run.parent), under) : run.faint ? "faint" : "seen";
        if (fate === "seen") {
          seen = true;
          break;
        }
      }
      if (!seen) run.dropped = true;
    }
    if (!passing) return;
    for (const { element, record, cx, cy } of centres) {
      if (record.covered) continue;
      const root = /** @type {Document | ShadowRoot} */ (element.getRootNode());
      if (paintedAt(root, element, cx, cy, true).covered) droppedElements.add(record.id);
    }
  };
  if (passing) {
    for (const run of runs) {
      roots.add(/** @type {Document | ShadowRoot} */ (run.node.getRootNode()));
      roots.add(run.node.ownerDocument);
    }
    for (const { element } of centres) {
      roots.add(/** @type {Document | ShadowRoot} */ (element.getRootNode()));
      roots.add(element.ownerDocument);
    }
    withEveryPointer(Array.from(roots), judge);
  } else {
    judge();
  }
  for (const entry of written) {
    if ("pieces" in entry) {
      let changed = false;
      for (const piece of entry.pieces) {
        if (!piece.parts.some((part) => isRun(part) && part.dropped) || entry.item.k !== "b") continue;
        entry.item.parts[piece.index] = blockText(joinParts(piece.parts), entry.pre);
        changed = true;
      }
      if (changed && entry.item.k === "b" && !entry.item.parts.some((part) => typeof part === "number" || part.trim())) droppedItems.add(entry.item);
    } else if (entry.parts.some((part) => isRun(part) && part.dropped) && (entry.item.k === "t" || entry.item.k === "h")) {
      const text = cut(clean(joinParts(entry.parts)), LINE_LIMIT);
      if (!text || (entry.find && !holds(text))) droppedItems.add(entry.item);
      else entry.item.text = text;
    }
  }
  return { items: droppedItems, elements: droppedElements };
};

/**
 * Something on top of an element's centre (a banner, a backdrop): says
 * what, on its record. Bar odd margins and transforms, only a positioned
 * box or the top layer can lie over another, so a centre is hit-tested only
 * under one of those (a hit test costs more the more the page holds); a
 * click checks again where it lands.
 * @param {{element: Element, record: ElementRecord, cx: number, cy: number}[]} centres
 */
const coverage = (centres) => {
  /** @type {Element[]} */
  const positioned = [];
  eachStacking((layout, element) => {
    if (layout.position !== "static") positioned.push(element);
  });
  // A modal dialog's backdrop, or an element in fullscreen, lies over
  // the whole rest of its document.
  /** @type {Map<Document, boolean>} */
  const overAll = new Map();
  /** @param {Document} doc */
  const underTopLayer = (doc) => {
    if (!overAll.has(doc)) {
      let modal = false;
      try { modal = doc.querySelector(":modal") !== null; } catch (unsupported) { modal = false; }
      overAll.set(doc, modal || Boolean(doc.fullscreenElement));
    }
    return overAll.get(doc);
  };
  for (const { element, record, cx, cy } of centres) {
    const under = underTopLayer(element.ownerDocument) || positioned.some((other) => {
      if (other === element || other.ownerDocument !== element.ownerDocument ||
          other.contains(element) || element.contains(other)) return false;
      const rect = rectOf(other);
      return cx >= rect.left && cx <= rect.right && cy >= rect.top && cy <= rect.bottom;
    });
    if (!under) continue;
    const hit = (/** @type {Document | ShadowRoot} */ (element.getRootNode())).elementFromPoint(cx, cy);
    const labels = (/** @type {HTMLInputElement} */ (element)).labels;
    if (hit && hit !== element && !element.contains(hit) && !hit.contains(element) &&
        !(labels && Array.from(labels).some((label) => label.contains(hit)))) {
      record.covered = hit.tagName.toLowerCase() + (hit.id ? "#" + hit.id : "");
    }
  }
};
