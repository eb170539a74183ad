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

/**
 * @typedef {{k: "h", level: number, text: string, y: number}
 *   | {k: "t", text: string, y: number}
 *   | {k: "e", id: number}
 *   | {k: "f", path: number[], src: string, box: Box, offset: Point}} Item
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
 */

/** What a page could make endless is cut before it travels. */
const LINE_LIMIT = 20000;
const TITLE_LIMIT = 1000;
/** @param {string} text @param {number} limit */
const cut = (text, limit) => (text.length > limit ? text.slice(0, limit - 1) + "…" : text);

// A search (options.find): what it asks for, in lower case.
const find = options.find || null;
const findText = find && find.text ? String(find.text).toLowerCase() : "";
const findRole = find && find.role ? String(find.role) : "";
/** @param {string | null | undefined} text */
const holds = (text) => !findText || (text || "").toLowerCase().includes(findText);
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

/** @returns {SnapshotAnswer | {error: "loading" | "gone"}} */
const snapshot = () => {
  /** @type {Item[]} */
  const items = [];
  /** @type {ElementRecord[]} */
  const elements = [];
  /** @type {Beyond[]} */
  const beyond = [];
  // The line being gathered, and the top of its first text (null while it
  // holds only spaces and cell separators, which make no line alone).
  let line = "";
  /** @type {number | null} */
  let lineY = null;
  // In a search, a line's text nodes are gathered unjudged, and judged
  // (hidden or not) only if the line holds what is searched for.
  /** @type {(Text | string)[]} */
  let pending = [];
  const flush = () => {
    if (find) {
      const gathered = line;
      const nodes = pending;
      line = "";
      lineY = null;
      pending = [];
      if (findRole || !holds(gathered)) return;
      let seen = "";
      /** @type {Element[]} */
      const holders = [];
      for (const part of nodes) {
        if (typeof part === "string") { seen += part; continue; }
        const parent = /** @type {Element} */ (part.parentElement);
        const label = labelOf(parent);
        if (label && label.control && shownRect(label.control)) continue;
        if (!textSeen(part)) continue;
        seen += part.nodeValue;
        if (holders[holders.length - 1] !== parent) holders.push(parent);
      }
      const text = cut(clean(seen), LINE_LIMIT);
      if (text && holds(text)) {
        /** @type {Item} */
        const item = { k: "t", text, y: 0 };
        items.push(item);
        written.push({ item, elements: holders });
      }
      return;
    }
    const text = cut(clean(line), LINE_LIMIT);
    if (text && lineY !== null) {
      /** @type {Item} */
      const item = { k: "t", text, y: lineY };
      items.push(item);
      if (lineElements.length) written.push({ item, elements: lineElements });
    }
    line = "";
    lineY = null;
    lineElements = [];
  };

  // The elements whose text each line holds, to find the lines an opaque
  // box lies on (`occluded`).
  /** @type {Element[]} */
  let lineElements = [];
  /** @type {{item: Item, elements: Element[]}[]} */
  const written = [];

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
    const cx = box.x - frameOffset.x + box.w / 2, cy = box.y - frameOffset.y + box.h / 2;
    if (cx >= 0 && cy >= 0 && cx < innerWidth && cy < innerHeight) centres.push({ element, record, cx, cy });
    elements.push(record);
    items.push({ k: "e", id });
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
   * @param {Node} node
   * @param {Point} frameOffset
   * @param {Window} win
   * @param {number[]} path
   * @param {boolean} quiet  inside an aria-hidden subtree: controls are
   *   listed, text is not read
   */
  const walk = (node, frameOffset, win, path, quiet = false) => {
    /** @param {Node} child */
    const into = (child) => walk(child, frameOffset, win, path, quiet);
    if (node.nodeType === 3) {
      if (quiet) return;
      const text = /** @type {Text} */ (node);
      const parent = text.parentElement;
      if (!parent) return;
      const value = text.nodeValue || "";
      if (!value.trim()) {
        if (value) line += " ";
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
      if (!options.full && (far(box) || scrolledAway(parent))) return;
      // A label's words are its control's name, not text of their own.
      const label = labelOf(parent);
      if (label && label.control && shownRect(label.control)) return;
      if (!textSeen(text)) return;
      if (lineY === null) lineY = box.y;
      if (lineElements[lineElements.length - 1] !== parent) lineElements.push(parent);
      line += value;
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
    if (element.hasAttribute("hidden") || element.hasAttribute("inert")) return;
    if (!quiet && element.getAttribute("aria-hidden") === "true") {
      // Seen, but not for assistive technology: its controls (a spinner's
      // arrows) are listed, its text (icon glyphs) is not read.
      if (layoutOf(element).display === "none") return;
      walk(element, frameOffset, win, path, true);
      return;
    }
    if (element.tagName === "IFRAME" || element.tagName === "FRAME") {
      const frame = /** @type {HTMLIFrameElement} */ (element);
      if (isHidden(frame)) return;
      flush();
      const inner = contentOffset(frame, frameOffset);
      /** @type {Document | null} */
      let doc = null;
      try { doc = frame.contentDocument; } catch (error) { doc = null; }
      const index = frameIndex(frame, win);
      if (doc && doc.documentElement && frame.contentWindow) {
        walk(doc.documentElement, inner, frame.contentWindow, path.concat([index]), quiet);
      } else if (!quiet) {
        items.push({ k: "f", path: path.concat([index]), src: frame.getAttribute("src") || "",
                     box: boxOf(frame, frameOffset), offset: inner });
      }
      return;
    }
    // A heading is a line of structure, unless it is itself a control: an
    // accordion's header with role=tab, a heading with a click handler or
    // a pointer of its own (not one that is merely focusable). Then it is
    // numbered, and named by its own text.
    const heading = roleOf(element) === "heading" && interactive(element) !== "clickable";
    if (heading) {
      flush();
      const box = boxOf(element, frameOffset);
      const outside = quiet || (!options.full && far(box)) || (find && (findRole || !holds(element.textContent)));
      if (!outside) {
        if (isHidden(element)) return;
        const text = visibleText(element);
        const level = /^H[1-6]$/.test(element.tagName) ? Number(element.tagName[1]) : Number(element.getAttribute("aria-level") || 2);
        if (text && (!find || holds(text))) items.push({ k: "h", level, text, y: box.y });
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
    if (ownRole === "dialog" || ownRole === "alertdialog" || (element.tagName === "DIALOG" && (/** @type {HTMLDialogElement} */ (element)).open)) {
      if (isHidden(element)) return;
      flush();
      describe(element, ownRole || "dialog", frameOffset);
      if (element.shadowRoot) walk(element.shadowRoot, frameOffset, win, path, quiet);
      eachChild(element, into);
      flush();
      return;
    }
    const role = interactive(element);
    if (role && !labelOfListed(element, role)) {
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
        else {
          if (element.shadowRoot) walk(element.shadowRoot, frameOffset, win, path, quiet);
          eachChild(element, into);
        }
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
    if (quiet) {
      if (element.shadowRoot) walk(element.shadowRoot, frameOffset, win, path, quiet);
      eachChild(element, into);
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
          line += " (image: " + alt + ") ";
        }
      }
    }
    if ((element.tagName === "TD" || element.tagName === "TH") && (/** @type {HTMLTableCellElement} */ (element)).cellIndex > 0) {
      line += " | ";
      if (find) pending.push(" | ");
    }
    if (element.shadowRoot) walk(element.shadowRoot, frameOffset, win, path, quiet);
    eachChild(element, into);
    if (block) flush();
  };

  if (!document.documentElement) return { error: "loading" };
  const root = options.scope ? elementOf(options.scope) : document.body || document.documentElement;
  if (!root || !root.isConnected) return { error: "gone" };
  walk(root, offset, window, options.path || []);
  flush();
  coverage(centres);
  const covered = occluded(written);
  const shownItems = covered.size ? items.filter((item) => !covered.has(item)) : items;
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
    elements,
    beyond,
  };
};

/**
 * The lines of text that an opaque box lies over, whole, so a person sees
 * the box and not the text (a paragraph under a same-coloured panel).
 * Only a positioned box (or the top layer) can lie over text a page lays
 * out, so a line is hit-tested only where one holds it.
 * @param {{item: Item, elements: Element[]}[]} written
 * @returns {Set<Item>}
 */
const occluded = (written) => {
  /** @type {Set<Item>} */
  const covered = new Set();
  /** @type {Element[]} */
  const lids = [];
  eachLooked((layout, element) => {
    if (layout.position === "static" || isHidden(element)) return;
    const behind = styleOf(element);
    const paint = rgba(behind.backgroundColor);
    if ((paint && paint[3] >= 0.9) || behind.backgroundImage !== "none" || element.tagName === "IMG") lids.push(element);
  });
  if (!lids.length) return covered;
  for (const { item, elements } of written) {
    const hidden = elements.every((element) => {
      const rect = rectOf(element);
      const lid = lids.find((other) => {
        if (other.ownerDocument !== element.ownerDocument || other.contains(element) || element.contains(other)) return false;
        const over = rectOf(other);
        return rect.left >= over.left && rect.right <= over.right && rect.top >= over.top && rect.bottom <= over.bottom;
      });
      if (!lid) return false;
      const x = rect.left + rect.width / 2, y = rect.top + rect.height / 2;
      if (x >= 0 && y >= 0 && x < innerWidth && y < innerHeight) {
        const root = /** @type {Document | ShadowRoot} */ (element.getRootNode());
        const hit = root.elementFromPoint(x, y);
        return Boolean(hit && (hit === lid || lid.contains(hit)));
      }
      // Beyond the viewport, where nothing can be hit-tested: a positioned
      // box is painted over text laid out in the flow, and over a
      // positioned one that comes before it.
      const flowing = layoutOf(element).position === "static";
      return flowing || Boolean(lid.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_PRECEDING);
    });
    if (hidden) covered.add(item);
  }
  return covered;
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
  eachLooked((layout, element) => {
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
