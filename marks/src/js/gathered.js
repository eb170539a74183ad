// @ts-check
// gathered.js: what a walk gathers, whichever consumer leads it (snapshot,
// find, read), and the answer made of it: the page's items in reading
// order, the elements a person could act on (each described once, the
// same way for all three), the elements beyond the scope (counted, not
// described), the lines of text with their runs for the paint pass, and
// the frames read.

/**
 * @typedef {{k: "h", level: number, text: string, y: number}
 *   | {k: "t", text: string, y: number}
 *   | {k: "e", id: number}
 *   | {k: "f", path: number[], src: string, box: Box, offset: Point}
 *   | ({k: "b", parts: (string | number)[], more: boolean} & Block)} Item
 * @typedef {{root: string, left: string[]}} ReadingAnswer  what a reading
 *   read (main, article, body, scope or frame) and the landmarks it left out
 * @typedef {{label: string, value: string, selected: boolean}} OptionRecord
 * @typedef {object} ElementRecord
 * @property {number} id
 * @property {string} role
 * @property {string} name
 * @property {[number, number, number, number]} box  x, y, width, height: an array, not
 *   a Box (a page's thousands of records travel as one string, and each key costs)
 * @property {true} [offscreen]  out of view (absent: in view)
 * @property {string} [value]
 * @property {boolean | "mixed"} [checked]
 * @property {boolean} [selected]
 * @property {boolean} [expanded]
 * @property {boolean} [disabled]
 * @property {boolean} [readonly]
 * @property {boolean} [pressed]
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
 * @property {WireRun[]} [runs]  the text in view, for pictures to judge
 *   (pixels.js): then the walk waits for `judged`
 * @property {[number, number, number, number, number][]} [ghosts]  with
 *   `runs`: controls too faint to see that a click reaches (local id, x,
 *   y, width, height), for the pictures to say whether anything is drawn
 *   where they are
 * @property {number | null} [epoch]  with `runs`: how often the page had
 *   changed (`registry.changes`), or null if it moves by itself: the
 *   pictures' verdicts hold while it stays
 * @property {[number, number]} [reach]  with `runs`: how far above and below
 *   the viewport the pictures are to reach (`pictured`, where the document
 *   goes)
 */

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

/**
 * What a person reads where they would click a control too faint to see
 * (a transparent real button over a drawn one): the words of what is
 * drawn beneath it at its centre, where that is a box of about its size
 * (not the card or page around it), else nothing.
 * @param {Element} element @param {Area} rect  its box, in its frame's viewport
 */
const drawnBeneath = (element, rect) => {
  const root = /** @type {Document | ShadowRoot} */ (element.getRootNode());
  if (typeof root.elementsFromPoint !== "function") return "";
  const stack = root.elementsFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
  const beneath = stack.find((hit) => hit !== element && !element.contains(hit));
  if (!beneath || beneath.contains(element)) return "";
  const box = beneath.getBoundingClientRect();
  if (box.width * box.height > 4 * Math.max(1, rect.width * rect.height)) return "";
  const words = visibleText(beneath);
  return words.length > 120 ? words.slice(0, 117) + "..." : words;
};

/**
 * Whether a select's picker offers an option: not hidden (the attribute,
 * or no box for it or its group).
 * @param {HTMLOptionElement} option
 */
const offered = (option) => !option.hidden && layoutOf(option).display !== "none" &&
  !(option.parentElement && option.parentElement.tagName === "OPTGROUP" && layoutOf(option.parentElement).display === "none");

/** What a walk has gathered so far: see the file's head. */
class Gathered {
  /**
   * @param {{full: boolean, search: Search | null, reading: boolean}} how
   *   `full`: the whole page, not the viewport and a margin; `search`: a
   *   search's tests; `reading`: for a reading (links stand in the text,
   *   no row or hit test is needed)
   */
  constructor(how) {
    this.full = how.full;
    this.search = how.search;
    this.reading = how.reading;
    /** @type {Item[]} */
    this.items = [];
    /** @type {ElementRecord[]} */
    this.elements = [];
    /** @type {Beyond[]} */
    this.beyond = [];
    /** The lines written, with their runs, for the paint pass to judge. @type {Written[]} */
    this.written = [];
    /** The frames read, with what they hold. @type {{frame: Element, items: Item[]}[]} */
    this.frames = [];
    /** Elements whose centre may lie under something else, checked once the
     *  walk has seen what is positioned.
     *  @type {{element: Element, record: ElementRecord, cx: number, cy: number}[]} */
    this.centres = [];
    /** What is listed already, as part of something else. @type {WeakSet<Element>} */
    this.listedAs = new WeakSet();
    /** Elements named (in part) by candidates for the pictures, to name
     *  again once they have spoken (see pixels.js).
     *  @type {{element: Element, record: ElementRecord, runs: Text[]}[]} */
    this.named = [];
    /** Controls too faint to see that a click reaches, by local id and
     *  box in the top viewport, for the pictures to judge what is drawn
     *  where they are. @type {[number, number, number, number, number][]} */
    this.ghosts = [];
    /**
     * The controls shown by their words alone among `ghosts`, by id: one
     * under a cover is listed as covered, whatever is drawn where it is.
     * @type {Map<number, ElementRecord>}
     */
    this.byWords = new Map();
    /** Words CSS writes, handed to the pictures among `ghosts`, by id. @type {Map<number, Run>} */
    this.generated = new Map();
    // The line being gathered, as text and as its parts (each text node a
    // run the paint pass judges once the walk has seen the whole page), and
    // the top of its first text (null while it holds only spaces and cell
    // separators, which make no line alone).
    this.line = "";
    /** @type {LinePart[]} */
    this.lineParts = [];
    /** @type {number | null} */
    this.lineY = null;
  }

  /** @param {string} text */
  add(text) {
    this.line += text;
    this.lineParts.push(text);
  }

  /**
   * @param {Text} node @param {Element} parent
   * @param {"seen" | "faint" | "pixels"} fate  how it was judged (`runFate`)
   */
  addRun(node, parent, fate) {
    const run = runOf(node, parent, fate);
    this.line += runText(run);
    this.lineParts.push(run);
  }

  /**
   * Words CSS writes in `element` (`generatedPart`).
   * @param {string} text @param {Element} element @param {string} which @param {Point} offset
   */
  addGenerated(text, element, which, offset) {
    this.line += text;
    this.lineParts.push(this.checked(generatedPart(text, element, which, judging ? offset : null)));
  }

  /**
   * A line's part, the words CSS writes whose place is known handed to the
   * pictures (as `ghosts` are: seen only where something is drawn there).
   * @param {LinePart} part
   */
  checked(part) {
    if (typeof part === "string" || !part.place) return part;
    const id = GENERATED_CHECKS + this.generated.size;
    this.generated.set(id, part);
    this.ghosts.push([id, ...part.place]);
    return part;
  }

  /** Starts a new line, the gathered one put aside. */
  clearLine() {
    this.line = "";
    this.lineParts = [];
    this.lineY = null;
  }

  /** Writes the gathered line as a line of text, if it holds any. */
  writeLine() {
    const text = cut(clean(this.line), LINE_LIMIT);
    if (text && this.lineY !== null) {
      /** @type {Item} */
      const item = { k: "t", text, y: this.lineY };
      this.items.push(item);
      if (this.lineParts.some(isRun)) this.written.push({ item, parts: this.lineParts });
    }
    this.clearLine();
  }

  /**
   * Outside the scope asked for, an element is only counted ("12 more
   * below") if it renders at all: its number is kept, its name and state
   * are not worked out, and the finer hiding tricks are not looked for.
   * @param {Element} element @param {string} role @param {Box} box
   */
  count(element, role, box) {
    if (typeof element.checkVisibility === "function" &&
        !element.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return;
    this.beyond.push([idOf(element), role, box.x, box.y, box.w, box.h]);
  }

  /**
   * Lists an element a person could act on, unless there is nothing of it
   * to see; named by its accessible name unless `name` is given. Returns
   * its record if it was listed.
   * @param {Element} element @param {string} role @param {Point} frameOffset
   * @param {string} [name]
   * @returns {ElementRecord | null}
   */
  describe(element, role, frameOffset, name) {
    const search = this.search;
    if (this.listedAs.has(element)) return null;
    // Drawn, but no person can act on it.
    if (inertHere(element)) return null;
    if (search && !search.mightMatch(element, role)) return null;
    const rough = boxOf(element, frameOffset);
    if (far(rough) && !this.full) {
      this.count(element, role, rough);
      return null;
    }
    const shown = shownRect(element);
    if (!shown) return null;
    const box = toBox(shown.rect, frameOffset);
    // Too faint to see itself: shown if what is drawn where a click on it
    // lands, or at its edge (a drawn box's border around a clear checkbox),
    // shows something (pixels.js), or where no pictures judge.
    if (shown.ghost && judging) {
      this.ghosts.push([idOf(element), box.x - EDGE_AROUND, box.y - EDGE_AROUND, box.w + 2 * EDGE_AROUND, box.h + 2 * EDGE_AROUND]);
    }
    const offscreen = outOfView(box) || scrolledAway(shown.via);
    if (offscreen && !this.full) {
      this.count(element, role, box);
      return null;
    }
    // Named by its words, where the pictures show all of it: shown only
    // if something is drawn there (words in no colour draw nothing).
    const ghostBox = !shown.ghost && judging && wholePictured(box) ? wordsGhost(element, role, box) : null;
    const byWords = ghostBox !== null;
    if (ghostBox) this.ghosts.push([idOf(element), ...ghostBox]);
    const id = idOf(element);
    nameRuns = name === undefined ? [] : null;
    /** @type {ElementRecord} */
    // (The name an action checks the element against: `listedName`.)
    const record = { id, role, name: name === undefined ? listedName(element, role) : name, box: [box.x, box.y, box.w, box.h] };
    // A grid's cell of no name around a control a person sees (a row's
    // checkbox) is that control's place: the control is listed, not it.
    if (!record.name && (role === "gridcell" || role === "cell") &&
      Array.from(element.querySelectorAll(CONTROLS)).some((inner) => shownRect(inner) !== null)) return null;
    if (offscreen) record.offscreen = true;
    if (byWords) this.byWords.set(id, record);
    const tag = element.tagName;
    const field = /** @type {HTMLInputElement} */ (element);
    if (tag === "INPUT" || tag === "TEXTAREA") {
      if (["checkbox", "radio"].includes(field.type)) record.checked = field.indeterminate ? "mixed" : field.checked;
      else if (field.type === "password" || holdsSecret(element)) record.value = field.value ? HIDDEN : "";
      else if (tag === "TEXTAREA") record.value = textareaValue(element);
      else if (!["file", "submit", "button", "reset", "image"].includes(field.type)) record.value = seenValue(element, field.value);
      // The type says more than the role only for plain text boxes.
      if (tag === "INPUT" && role === "textbox" && !["text", ""].includes(field.type)) record.type = field.type;
    } else if (tag === "SELECT") {
      const select = /** @type {HTMLSelectElement} */ (element);
      // The options its picker offers: not one hidden there (a "Choose…"
      // kept as the value shown until one is picked, a filtered-out one).
      record.options = Array.from(select.options).filter(offered).map((option) => ({
        label: clean(option.label || option.text), value: option.value, selected: option.selected,
      }));
      record.value = Array.from(select.selectedOptions).map((option) => clean(option.label || option.text)).join(", ");
    } else if ((/** @type {HTMLElement} */ (element)).isContentEditable) {
      const text = (/** @type {HTMLElement} */ (element)).innerText;
      record.value = holdsSecret(element) ? (text.trim() ? HIDDEN : "") : valueLines(seenEditable(/** @type {HTMLElement} */ (element)));
    }
    const facts = factsOf(element);
    /**
     * An ARIA state: the attribute, or what ElementInternals declared,
     * as Chromium's tree has it.
     * @param {string} name
     */
    const aria = (name) => {
      const own = element.getAttribute(name);
      if (own !== null || !facts) return own;
      const state = facts.states[name.slice(5)];
      return state === undefined || state === null ? null : String(state);
    };
    if (aria("aria-checked")) record.checked = aria("aria-checked") === "true" ? true : aria("aria-checked") === "mixed" ? "mixed" : false;
    if (aria("aria-selected") === "true") record.selected = true;
    if (aria("aria-expanded")) record.expanded = aria("aria-expanded") === "true";
    // Where a tree item sits: inside which folder, as a person sees by its
    // indent.
    if (role === "treeitem" && Number(aria("aria-level")) > 0) record.level = Number(aria("aria-level"));
    if (tag === "DETAILS" || (tag === "SUMMARY" && element.parentElement && element.parentElement.tagName === "DETAILS")) {
      record.expanded = (/** @type {HTMLDetailsElement} */ (tag === "DETAILS" ? element : element.parentElement)).open;
    }
    // (A control in a disabled fieldset is disabled too: `:disabled` knows.)
    if (field.disabled || element.matches(":disabled") || aria("aria-disabled") === "true") record.disabled = true;
    if (field.required || aria("aria-required") === "true") record.required = true;
    // A field that cannot be typed in, and a toggle button pressed in.
    if (((tag === "INPUT" || tag === "TEXTAREA") && field.readOnly) || aria("aria-readonly") === "true") record.readonly = true;
    if (aria("aria-pressed") === "true") record.pressed = true;
    // Where a drawn slider or spin button stands: its words, or its number.
    const ranged = ["slider", "spinbutton", "scrollbar"].includes(role) && record.value === undefined;
    const stands = ranged ? aria("aria-valuetext") || aria("aria-valuenow") : null;
    if (stands) record.value = clean(stands);
    const root = /** @type {Document | ShadowRoot} */ (element.getRootNode());
    if (document.activeElement === element || root.activeElement === element) record.focused = true;
    if (tag === "A" && element.hasAttribute("href")) record.href = /** @type {string} */ (element.getAttribute("href"));
    describeLooks(element, record);
    if (nameRuns && nameRuns.length) this.named.push({ element, record, runs: nameRuns });
    nameRuns = null;
    if (search && !search.holds(record.name) && !search.holds(record.value) && !search.holds(record.href)) return null;
    // An element with no name, or a name of no letter or digit (a "×" its
    // CSS writes), is told from its look-alikes by its row (a named one by
    // its name and the text either side: reading rows costs the walk a
    // third more on a page of thousands of links).
    if (!search && !this.reading && !/[\p{L}\p{N}]/u.test(record.name) && this.elements.length < ROWS_KEPT) {
      const row = rowOf(element);
      if (row) record.row = row;
    }
    const s = scaleOf(frameOffset);
    const cx = (box.x - frameOffset.x + box.w / 2) / s, cy = (box.y - frameOffset.y + box.h / 2) / s;
    // (A reading says nothing of what covers a link: no hit test for it.)
    if (!this.reading && cx >= 0 && cy >= 0 && cx < innerWidth && cy < innerHeight) this.centres.push({ element, record, cx, cy });
    this.elements.push(record);
    if (!this.reading) this.items.push({ k: "e", id });
    return record;
  }

  /**
   * Lists a box that scrolls and holds more than it shows (a results list,
   * a chat log), by its own name only, with how many of its items lie
   * beyond what it shows on each side: a person sees its scrollbar.
   * @param {Element} element @param {Point} frameOffset
   */
  describeScrollBox(element, frameOffset) {
    const record = this.describe(element, "scrollbox", frameOffset, scrollBoxName(element));
    if (record) record.scroll = scrollState(element);
  }

  /**
   * A frame the walk reached (see walk.js): read in place where it can
   * be (same-origin), else left for the backend to read in that frame and
   * splice in.
   * @param {HTMLIFrameElement} frame @param {At} at @param {At} inner
   * @param {(() => void) | null} walkInside
   * @param {() => void} flush  ends the line (or block) gathered
   */
  frame(frame, at, inner, walkInside, flush) {
    flush();
    const from = this.items.length;
    if (walkInside) {
      try {
        const doc = frame.contentDocument;
        if (doc) {
          placeOfDocument.set(doc, { offset: inner.offset, path: inner.path });
          if (judging) watch(doc);
        }
      } catch (crossOrigin) { /* read by the backend */ }
      walkInside();
      flush();
    } else {
      this.items.push({ k: "f", path: inner.path, src: frame.getAttribute("src") || "",
                        box: boxOf(frame, at.offset), offset: inner.offset });
    }
    this.frames.push({ frame, items: this.items.slice(from) });
  }

  /**
   * The answer: what was gathered, once the paint pass has left out what
   * no person sees (see painted.js).
   * @param {ReadingAnswer | null} read
   * @returns {SnapshotAnswer}
   */
  answer(read) {
    coverage(this.centres);
    const painted = paintPass(this.written, this.centres, this.frames);
    if (!pixelRuns.length && !this.ghosts.length) return this.assemble(read, painted);
    registry.pending = {
      paint: paintRuns,
      finish: (hidden, bare, undecided, placed, cut) => {
        registry.pending = null;
        return this.finish(read, painted, hidden, bare, undecided, placed, cut);
      },
    };
    const answer = this.assemble(read, painted);
    answer.runs = pixelWire;
    answer.ghosts = this.ghosts;
    if (reach.above || reach.below) answer.reach = [reach.above, reach.below];
    const documents = [document, ...placeOfDocument.keys()];
    answer.epoch = documents.some(moving) ? null : registry.changes;
    return answer;
  }

  /**
   * The answer once the pictures have spoken (`hidden`: the candidates
   * not seen) or could not be taken (`null`: the candidates are judged by
   * their style, as beyond the viewport): the lines that lost a run
   * written again, the elements named by one named again.
   * @param {ReadingAnswer | null} read
   * @param {{items: Set<Item>, elements: Set<number>}} painted  what the paint pass left out
   * @param {number[] | null} hidden
   * @param {number[]} bare  the faint controls (`ghosts`) where nothing is
   *   drawn to see
   * @param {number[]} undecided  candidates the pictures could not judge,
   *   to judge by their style
   * @param {number[]} placed  candidates painted in whose place is seen:
   *   seen if their letters read (`textHidden`)
   * @param {[number, number[]][]} cut  candidates seen in part, each with
   *   the stretches of its boxes where nothing of it is seen (`keptOf`)
   * @returns {SnapshotAnswer}
   */
  finish(read, painted, hidden, bare, undecided, placed, cut) {
    for (const id of bare) {
      const generated = this.generated.get(id);
      if (generated) generated.dropped = true;
      const record = this.byWords.get(id);
      if (!record || !record.covered) painted.elements.add(id);
    }
    if (hidden === null) judgedByStyle = true;
    /** @param {number[]} indices */
    const runsOf = (indices) => indices.map((index) => pixelRuns[index]).filter(Boolean);
    // What the compositor alone draws right, where the pictures are not
    // its, goes by its style too, unless the pictures found it hidden.
    const found = new Set(hidden || []);
    const uncomposited = hidden !== null && !composited
      ? notComposited(pixelRuns.filter((_, index) => !found.has(index)))
      : [];
    /** @type {Set<Text>} Candidates judged by their style, as beyond the viewport. */
    const byStyle = new Set(hidden === null ? pixelRuns : [...runsOf(undecided), ...uncomposited]);
    pixelHidden = new Set(runsOf(hidden || []));
    for (const node of runsOf(placed)) {
      const parent = flatParentOf(node);
      if (!parent || textHidden(parent)) pixelHidden.add(node);
    }
    for (const node of byStyle) {
      const parent = flatParentOf(node);
      if (!parent || textFate(node) !== "seen") pixelHidden.add(node);
    }
    /** @type {Map<Text, string>} */
    const partly = new Map();
    for (const [index, stretches] of cut || []) {
      const node = pixelRuns[index];
      if (!node || !node.isConnected || pixelHidden.has(node) || byStyle.has(node)) continue;
      const kept = keptOf(node, stretches);
      if (kept !== null) partly.set(node, kept);
    }
    pixelKept = partly;
    registry.kept = new WeakMap(Array.from(partly, ([node, kept]) => [node, [node.nodeValue || "", kept]]));
    for (const entry of this.written) {
      const lists = "pieces" in entry ? entry.pieces.map((piece) => piece.parts) : [entry.parts];
      for (const parts of lists) for (const part of parts) {
        if (!isRun(part) || !part.pixel) continue;
        if (byStyle.has(part.node)) {
          // The paint pass judges it again, against what is painted under it.
          const fate = textFate(part.node);
          part.pixel = false;
          part.faint = fate === "faint";
          part.dropped = fate === "hidden";
          const kept = part.dropped ? null : styleKept(part.node);
          if (kept !== null) part.kept = kept;
        } else if (pixelHidden.has(part.node)) {
          part.dropped = true;
        } else if (partly.has(part.node)) {
          part.kept = partly.get(part.node);
        }
      }
    }
    if (byStyle.size) paintPass(this.written, [], []).items.forEach((item) => painted.items.add(item));
    recompose(this.written, painted.items);
    const unseen = /** @type {Set<Text>} */ (pixelHidden);
    registry.unseen = new WeakSet(unseen);
    for (const { element, record, runs } of this.named) {
      if (hidden !== null && !runs.some((node) => unseen.has(node) || byStyle.has(node) || partly.has(node))) continue;
      record.name = nameOf(element, record.role);
      delete record.shows;
      delete record.title;
      delete record.clues;
      describeLooks(element, record);
    }
    return this.assemble(read, painted);
  }

  /**
   * The answer of what was gathered, less what was left out.
   * @param {ReadingAnswer | null} read
   * @param {{items: Set<Item>, elements: Set<number>}} painted
   * @returns {SnapshotAnswer}
   */
  assemble(read, painted) {
    const items = painted.items.size || painted.elements.size
      ? this.items.filter((item) => !painted.items.has(item) && !(item.k === "e" && painted.elements.has(item.id)))
      : this.items;
    const elements = painted.elements.size ? this.elements.filter((record) => !painted.elements.has(record.id)) : this.elements;
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
      items,
      elements,
      beyond: this.beyond,
      read,
    };
  }
}

/**
 * Where a walk starts: the scope asked for (an element by local id), or
 * the body. `null` while the document has no root element yet; `"gone"`
 * for a scope that is no longer there.
 * @param {number | null | undefined} scope
 * @returns {Element | null | "gone"}
 */
const startOf = (scope) => {
  if (!document.documentElement) return null;
  const root = scope ? elementOf(scope) : document.body || document.documentElement;
  return root && root.isConnected ? root : "gone";
};

/**
 * A scroll box's name: its own label only (what it holds is listed apart).
 * @param {Element} element
 */
const scrollBoxName = (element) =>
  byIds(element, "aria-labelledby") || clean(element.getAttribute("aria-label")) || clean(element.getAttribute("title"));

/**
 * The name an element was listed by, as the snapshot worked it out: what
 * an action checks the element against (the same computation, or a scroll
 * box's label would be held against all the text it holds).
 * @param {Element} element @param {string} role
 */
const listedName = (element, role) => role === "scrollbox" ? scrollBoxName(element) : editorOf(element) ? editorName(element)
  : nameOf(element, role) || componentName(element) || faintName(element, shownRect(element));
