// @ts-check
// read.js: a reading of the text (the `read` tool), a consumer of the walk
// (walk.js). The page's main content (or the scope, or with "all" the
// whole page) as blocks of text (paragraphs, headings, list items,
// quotes, preformatted text, table cells) whose links stand inline, by
// local id, where they are in the text; the controls of a form are left
// out. Text is judged exactly as a snapshot judges it (snapshot.js's
// lines), so a reading and a search agree on what text there is.

/**
 * @typedef {object} Block  what a reading's block of text is
 * @property {"p" | "h" | "li" | "quote" | "pre" | "cell"} kind
 * @property {number} level  a heading's level
 * @property {number} depth  a list item's depth (1 for a top-level list)
 * @property {number} n      a list item's number, where its marker draws one (`4. `);
 *   0 for a bullet, none, or a marker of other words (which begin its text)
 * @property {number} table  a cell's table, row and column, to lay rows out
 * @property {number} row
 * @property {number} col
 */

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
 * The visitor of a reading, and the landmarks it left out.
 * @param {Gathered} gathered
 * @param {boolean} skipping  whether to leave out the landmarks around the
 *   content (it reads the body, for want of a main landmark)
 * @returns {{visit: Visitor, flush: () => void, left: string[]}}
 */
const readingVisitor = (gathered, skipping) => {
  const lines = snapshotLines(gathered);
  // The block being read: what it is, the parts gathered so far (text
  // with its parts, and links by local id), and the blocks that have been
  // written once already (what follows in one is more of it: a list
  // item's second paragraph).
  /** @type {Block} */
  let current = PARAGRAPH;
  /** @type {({text: string, parts: LinePart[]} | number)[]} */
  let pieces = [];
  /** @type {WeakSet<Block>} */
  const flushed = new WeakSet();
  const flush = () => {
    if (gathered.line) pieces.push({ text: gathered.line, parts: gathered.lineParts });
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
    if (gathered.lineY !== null && kept.some((part) => typeof part === "number" || part.trim())) {
      /** @type {Item} */
      const item = { k: "b", ...current, parts: kept, more: current !== PARAGRAPH && flushed.has(current) };
      gathered.items.push(item);
      if (judged.length) gathered.written.push({ item, pieces: judged, pre });
      flushed.add(current);
    }
    gathered.clearLine();
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
   * A list item's number where its marker draws it as one (`4. `), else 0.
   * @param {Element} element
   */
  const numbered = (element) => {
    const marker = markerText(element);
    return /^[1-9][0-9]*\. $/.test(marker) ? parseInt(marker, 10) : 0;
  };
  /**
   * The block an element begins in a reading, if it begins one.
   * @param {Element} element
   * @returns {Block | null}
   */
  const blockOf = (element) => {
    switch (element.tagName) {
      case "LI": {
        // A number as the list draws it is the line's own (`4. `); any
        // other marker's words (`c. `, a page's own) begin its text.
        const n = numbered(element);
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
  /** @type {string[]} */
  const left = [];
  /** @type {Visitor} */
  const visit = {
    text: lines.text,
    generated: (element, which, at) => {
      if (which !== "::marker" || numbered(element) === 0) lines.generated(element, which, at);
    },
    blank: (value) => {
      if (current.kind === "pre") gathered.add(value);
      else if (value) gathered.add(" ");
    },
    passOver: (element) => {
      if (!skipping) return false;
      const landmark = aroundContent(element);
      if (!landmark) return false;
      if (!isHidden(element)) left.push(landmark);
      return true;
    },
    frame: (frame, at, inner, walkInside) => gathered.frame(frame, at, inner, walkInside, flush),
    element: (element, at, inside) => {
      // A heading holds its links where they stand.
      if (roleOf(element) === "heading" && interactive(element) !== "clickable") {
        if (hiddenByStyle(element)) return;
        const level = /^H[1-6]$/.test(element.tagName) ? Number(element.tagName[1]) : Number(element.getAttribute("aria-level") || 2);
        inBlock({ ...PARAGRAPH, kind: "h", level }, inside);
        return;
      }
      const role = interactive(element);
      if (role) {
        // A link is written where it stands in the text, by its name; a
        // form's controls are left out; what else a script made clickable
        // is read as text.
        if (role === "link") {
          const record = gathered.describe(element, role, at.offset);
          if (record) {
            if (gathered.lineY === null) gathered.lineY = record.box[1];
            pieces.push({ text: gathered.line, parts: gathered.lineParts }, record.id);
            gathered.line = "";
            gathered.lineParts = [];
          }
          return;
        }
        if ((FORM_TAGS.has(element.tagName) || FORM_ROLES.has(role)) && element.tagName !== "SUMMARY") return;
      }
      const { display } = layoutOf(element);
      if (display === "none") return;
      const block = BLOCK_DISPLAY.test(display) || element.tagName === "BR";
      if (block) flush();
      const pictured = picturedWords(element);
      if (pictured) lines.image(pictured[1], element, at, pictured[0]);
      const kind = blockOf(element);
      if (kind) return inBlock(kind, inside);
      // Code in a line of text, between backticks as markdown writes it.
      if (CODE_TAGS.has(element.tagName) && current.kind !== "pre" && !block) {
        gathered.add("`");
        inside();
        gathered.add("`");
        return;
      }
      const list = LIST_TAGS.has(element.tagName);
      // (A ruby's annotation, drawn above its base, stands apart.)
      const annotation = display === "ruby-text";
      if (list) lists++;
      if (annotation) gathered.add(" ");
      inside();
      if (annotation) gathered.add(" ");
      if (list) lists--;
      if (block) flush();
    },
  };
  return { visit, flush, left };
};

/**
 * A reading of this frame's document: its main content, all of it, or
 * the element `scope`.
 * @param {ReadRequest} request
 * @returns {SnapshotAnswer | {error: "loading" | "gone"}}
 */
const read = (request) => {
  if (judging) watch(document);
  const start = startOf(request.scope);
  if (start === null) return { error: "loading" };
  if (start === "gone") return { error: "gone" };
  /** @type {Element | null} */
  let root = start;
  let what = request.scope ? "scope" : request.path && request.path.length ? "frame" : "body";
  if (what === "body" && request.read === "main") ({ root, what } = mainContent());
  if (!root || !root.isConnected) return { error: "gone" };
  const gathered = new Gathered({ full: request.full, search: null, reading: true });
  const reading = readingVisitor(gathered, request.read === "main" && what === "body");
  walkTree(root, { offset, win: window, path: request.path || [] }, reading.visit);
  reading.flush();
  return gathered.answer({ root: what, left: reading.left });
};
