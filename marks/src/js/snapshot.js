// @ts-check
// snapshot.js: the snapshot, a consumer of the walk (walk.js). What a
// person could see and act on in one frame's document, in reading order:
// headings, lines of text, elements (by local id) and cross-origin frames
// (by `window.frames` path, for the backend to read in that frame and
// splice in). Outside the scope asked for (the viewport and a margin,
// unless the whole page is wanted) elements are counted, not described,
// and text is left out unread. A search (find.js) is a snapshot of the
// whole page that keeps only what matches: it brings its own way with
// lines (`Lines`) and its tests (`gathered.search`).

/**
 * How a consumer of the page's lines takes text: judged as it comes (a
 * snapshot), or gathered and judged only where a line matches (a search).
 * @typedef {object} Lines
 * @property {(text: Text, drawnIn: Element, at: At) => void} text
 * @property {(value: string) => void} blank
 * @property {(alt: string, element: Element, at: At, kind: string) => void} image
 *   what a picture shows (an image's alternative text, a gauge's fill:
 *   `picturedWords`), said as `kind`
 * @property {(element: Element, which: "::before" | "::after" | "::marker", at: At) => void} generated
 *   the text CSS writes before or after what an element holds
 * @property {(separator: string) => void} separator  between two cells of a row
 * @property {() => void} flush  ends the line gathered
 */

/** Per document or shadow root: each id, and the elements `aria-labelledby` names it for. */
const labelledIndex = new Map();
/** How far up from a run of words its labelling element is looked for. */
const LABEL_DEPTH = 3;
/** The most characters a label's words have (more is text that names a control too). */
const LABEL_LIMIT = 80;

/**
 * Whether the words drawn in an element are all a listed control's name
 * through `aria-labelledby` (a kit's label before its combobox, a span a
 * field points at): said once, as the control's name. A heading, or an
 * element whose words are more than the name holds, stays text.
 * @param {Element} drawnIn
 */
const labelsListed = (drawnIn) => {
  let at = /** @type {Element | null} */ (drawnIn);
  for (let depth = 0; at && depth < LABEL_DEPTH; depth++, at = parentOf(at)) {
    if (at.id && labelFor(at)) return true;
  }
  return false;
};

/** @type {(element: Element) => boolean} */
const labelFor = perElement((element) => {
  if (/^H[1-6]$/.test(element.tagName) || element.getAttribute("role") === "heading") return false;
  const words = clean(element.textContent);
  if (!words || words.length > LABEL_LIMIT) return false;
  const root = /** @type {Document | ShadowRoot} */ (element.getRootNode());
  let index = labelledIndex.get(root);
  if (!index) {
    index = new Map();
    for (const control of root.querySelectorAll("[aria-labelledby]")) {
      for (const id of (control.getAttribute("aria-labelledby") || "").split(/\s+/)) {
        if (id) index.set(id, (index.get(id) || []).concat([control]));
      }
    }
    labelledIndex.set(root, index);
  }
  return (index.get(element.id) || []).some((/** @type {Element} */ control) => {
    const role = control !== element && !holdsFlat(control, element) && interactive(control);
    return Boolean(role) && shownRect(control) !== null && nameOf(control, /** @type {string} */ (role)).includes(words);
  });
});

/** Cards whose words are all their name, this call: said once, as the name. */
const namedByWords = new Set();
/** Code editors whose lines are their hidden input's value (`editorOf`), this call; null until asked. */
let editors = /** @type {Set<Element> | null} */ (null);

/**
 * The card or code editor an element is part of, whose words are said
 * as a name or a value: `card`, `editor`, or null.
 * @param {Element} element
 */
const saidAs = (element) => {
  if (!editors) {
    editors = new Set();
    for (const field of document.getElementsByTagName("textarea")) {
      const editor = editorOf(field);
      if (editor && shownRect(field)) editors.add(editor);
    }
  }
  if (!editors.size && !namedByWords.size) return null;
  for (let at = /** @type {Element | null} */ (element); at; at = parentOf(at)) {
    if (editors.has(at)) return "editor";
    if (namedByWords.has(at)) return "card";
  }
  return null;
};

/**
 * A snapshot's lines: text inside the scope, judged as it comes.
 * @param {Gathered} gathered
 * @returns {Lines}
 */
const snapshotLines = (gathered) => ({
  text: (text, drawnIn, at) => {
    const parent = text.parentElement || drawnIn;
    // Outside the scope asked for (the viewport and a margin, and what a
    // scrolling box shows now), text is left out unread.
    const box = boxOf(parent, at.offset);
    if (!gathered.full && (far(box) || textScrolledAway(text, parent))) return;
    // A label's words are its control's name, not text of their own.
    if (namesListed(labelOf(drawnIn)) || labelsListed(drawnIn) || saidAs(drawnIn)) return;
    // An icon font's ligature words ("shopping_cart") draw a picture.
    if (ariaHidden(drawnIn) && iconGlyphs(drawnIn)) return;
    const fate = runFate(text);
    if (fate === "hidden") return;
    if (gathered.lineY === null) gathered.lineY = box.y;
    gathered.addRun(text, drawnIn, fate);
  },
  blank: (value) => {
    if (value) gathered.add(" ");
  },
  image: (alt, element, at, kind) => {
    const box = boxOf(element, at.offset);
    if ((gathered.full || !far(box)) && !hiddenByStyle(element) && pictureSeen(element)) {
      if (gathered.lineY === null) gathered.lineY = box.y;
      gathered.add(" (" + kind + ": " + alt + ") ");
    }
  },
  generated: (element, which, at) => {
    // Read where the element's text would be, judged by style (a
    // highlight cannot take generated text out of the paint).
    // The words first: most elements have none, and then no box is read.
    const text = generatedText(element, which);
    if (!text.trim()) return;
    const box = boxOf(element, at.offset);
    if ((!gathered.full && far(box)) || hiddenByStyle(element)) return;
    if (gathered.lineY === null) gathered.lineY = box.y;
    gathered.addGenerated(text, element, which, at.offset);
  },
  // (A row whose first cells hold no words, a checkbox's cell, starts
  // with its first words: a line never starts with a separator.)
  separator: (separator) => { if (/\S/.test(gathered.line)) gathered.add(separator); },
  flush: () => gathered.writeLine(),
});

/**
 * Whether a person sees a picture, where its alternative text is said: it
 * is drawn at least THINNEST pixels along each axis (a tracking pixel is
 * no picture), and, in view, not painted over at its centre and near each
 * corner (a play button or a caption over it leaves it seen).
 * @param {Element} element
 */
const pictureSeen = (element) => {
  const rect = rectOf(element);
  if (rect.width < THINNEST || rect.height < THINNEST) return false;
  return !paintedOver(element, rect);
};

/**
 * The visitor of a snapshot (or, with a search's `lines`, of a search).
 * @param {Gathered} gathered @param {Lines} lines
 * @returns {Visitor}
 */
const pageVisitor = (gathered, lines) => {
  const search = gathered.search;
  /** @type {Visitor} */
  const visit = {
    text: lines.text,
    blank: lines.blank,
    generated: lines.generated,
    passOver: () => false,
    frame: (frame, at, inner, walkInside) => gathered.frame(frame, at, inner, walkInside, lines.flush),
    element: (element, at, inside) => {
      const frameOffset = at.offset;
      // A heading is a line of structure, unless it is itself a control:
      // an accordion's header with role=tab, a heading with a click
      // handler or a pointer of its own (not one that is merely
      // focusable). Then it is numbered, and named by its own text.
      if (roleOf(element) === "heading" && interactive(element) !== "clickable") {
        lines.flush();
        heading(element, frameOffset);
        return;
      }
      // A dialog is numbered (to scope a snapshot to it) and read through.
      const ownRole = element.getAttribute("role");
      if (ownRole === "dialog" || ownRole === "alertdialog" || (element.tagName === "DIALOG" && (/** @type {HTMLDialogElement} */ (element)).open)) {
        if (hiddenByStyle(element)) return;
        lines.flush();
        gathered.describe(element, ownRole || "dialog", frameOffset);
        inside();
        lines.flush();
        return;
      }
      // A control in an `inert` subtree is drawn but does nothing: its
      // words are read as the page's, unnumbered.
      const role = interactive(element);
      // (A code editor is one field to a person: a script's targets in it,
      // its gutter, are not listed beside it.)
      if (role && WEAK_ROLES.has(role) && saidAs(element) === "editor") return;
      // (Nor is a script's target that draws nothing: nobody sees it.)
      if (role && WEAK_ROLES.has(role) && drawsNothing(element) && !nameOf(element, role)) return;
      if (role && !inertHere(element) && !labelOfListed(element, role)) {
        lines.flush();
        control(element, role, frameOffset, inside);
        return;
      }
      const { display } = layoutOf(element);
      if (display === "none") return;
      const block = BLOCK_DISPLAY.test(display) || element.tagName === "BR";
      if (block) lines.flush();
      const pictured = picturedWords(element);
      if (pictured) lines.image(pictured[1], element, at, pictured[0]);
      if ((element.tagName === "TD" || element.tagName === "TH") && (/** @type {HTMLTableCellElement} */ (element)).cellIndex > 0) {
        lines.separator(" | ");
      }
      // A box that scrolls and holds more than it shows is numbered, to
      // be scrolled by, and says how much lies beyond what it shows.
      if (!search && scrollsWithMore(element)) {
        lines.flush();
        gathered.describeScrollBox(element, frameOffset);
      }
      // (An inert control's words stand apart, as its box does, and so
      // does a ruby's annotation, drawn above its base.)
      const apart = role || display === "ruby-text";
      if (apart) lines.separator(" ");
      inside();
      if (apart) lines.separator(" ");
      if (block) lines.flush();
    },
  };

  /**
   * A heading as a line of structure, its text judged against what is
   * painted under it; a control inside it is still an element.
   * @param {Element} element @param {Point} frameOffset
   */
  const heading = (element, frameOffset) => {
    const box = boxOf(element, frameOffset);
    const outside = (!gathered.full && far(box)) || (search && (!search.lines || !search.mayHold(element.textContent)));
    if (!outside) {
      if (hiddenByStyle(element)) return;
      const runs = headingRuns(element);
      // Text its ancestors' backdrop makes faint is judged again against
      // what is painted under it.
      const text = visibleText(element) || clean(joinParts(runs));
      const level = /^H[1-6]$/.test(element.tagName) ? Number(element.tagName[1]) : Number(element.getAttribute("aria-level") || 2);
      if (text && (!search || search.holds(text))) {
        /** @type {Item} */
        const item = { k: "h", level, text, y: box.y };
        gathered.items.push(item);
        if (runs.length) gathered.written.push(search ? { item, parts: runs, keep: search.holds } : { item, parts: runs });
      }
    }
    element.querySelectorAll(CONTROLS).forEach((inner) => {
      const role = interactive(inner);
      if (role) gathered.describe(inner, role, frameOffset);
    });
  };

  /**
   * A control, or something made of controls.
   * @param {HTMLElement} element @param {string} role @param {Point} frameOffset
   * @param {() => void} inside
   */
  const control = (element, role, frameOffset, inside) => {
    // A component whose shadow root holds its one real control (a kit's
    // checkbox, switch or button around a native one) is that control,
    // named by the component where it has no name of its own
    // (`componentName`).
    const real = WEAK_ROLES.has(role) ? realControlOf(element) : null;
    if (real) {
      gathered.describe(real.control, real.role, frameOffset);
      // (What else it shows is read, the control not listed again.)
      gathered.listedAs.add(real.control);
      inside();
      lines.flush();
      return;
    }
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
        gathered.describe(element, role, frameOffset, name);
        // Words that are all of its name (a tag beside its remove button)
        // are said once, as the name.
        if (name === cardWords(element)) namedByWords.add(element);
        // What inside it is the same control again (named the same, in
        // its box) is not listed twice.
        for (const inner of innerControls(element)) {
          if (within(inner, element) && nameOf(inner, interactive(inner) || "generic") === name) gathered.listedAs.add(inner);
        }
      }
      if (holding.items) {
        // Each item of a list a script made clickable as a whole (an
        // autocomplete's suggestions, a menu of `li`s with one listener
        // on the list) is what a person clicks, named by its text, with
        // the role its container implies.
        for (const item of holding.items) gathered.describe(item, holding.itemRole, frameOffset);
      } else {
        inside();
      }
      lines.flush();
      return;
    }
    gathered.describe(element, role, frameOffset);
    // Its own text is its name; but act-able things inside it (a link in
    // a clickable card) are elements of their own, unless one is the same
    // control again (a tab's link, the button of a button).
    const inner = element.firstElementChild ? innerControls(element) : [];
    if (inner.length) {
      const name = nameOf(element, role);
      for (const part of inner) {
        const partRole = interactive(part) || roleOf(part) || "generic";
        const partName = nameOf(part, partRole);
        if ((partName === name && within(part, element)) ||
            ((!partName || !WEAK_ROLES.has(role)) && WEAK_ROLES.has(partRole) && sameTarget(part, element))) continue;
        gathered.describe(part, partRole, frameOffset);
      }
    }
  };

  return visit;
};

/**
 * A snapshot of this frame's document (or of the element `scope`).
 * @param {SnapshotRequest} request
 * @returns {SnapshotAnswer | {error: "loading" | "gone"}}
 */
const snapshot = (request) => {
  if (judging) watch(document);
  const root = startOf(request.scope);
  if (root === null) return { error: "loading" };
  if (root === "gone") return { error: "gone" };
  const gathered = new Gathered({ full: request.full, search: null, reading: false });
  const lines = snapshotLines(gathered);
  walkTree(root, { offset, win: window, path: request.path || [] }, pageVisitor(gathered, lines));
  lines.flush();
  return gathered.answer(null);
};
