// @ts-check
// find.js: a search, a consumer of the walk (walk.js) by way of the
// snapshot's visitor (snapshot.js). The whole page, keeping only the
// elements whose role is `role` (if given) and whose name, value or link
// target holds `text` (if given, lower case, as a model reads it), and
// the lines of text that hold it. Nothing else is looked at closely: a
// line's text nodes are gathered unjudged and judged (hidden or not) only
// if the line holds what is searched for, and an element is described
// only if the words it could be named by might match. That keeps a search
// of a long page fast.

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

/**
 * A search's tests, for `describe` and the snapshot's headings.
 * @typedef {object} Search
 * @property {(element: Element, role: string) => boolean} mightMatch
 *   whether an element could match, before its name is worked out
 * @property {(text: string | null | undefined) => boolean} holds
 *   whether a text holds what is searched for
 * @property {(text: string | null | undefined) => boolean} mayHold
 *   whether a text of the page may read so once drawn: it holds it, or
 *   it backwards (a text drawn mirrored, `drawnMirrored`)
 * @property {boolean} lines  whether lines of text can match at all (not
 *   when a role is searched for)
 */

/**
 * A search's tests, for what it asks (see the file's head).
 * @param {{text?: string, role?: string}} query
 * @returns {Search}
 */
const searchOf = (query) => {
  const findText = query.text ? asRead(String(query.text)).trim() : "";
  const findRole = query.role ? String(query.role) : "";
  /** @param {string} needle @param {string | null | undefined} text */
  const within = (needle, text) => {
    if (!needle || !text) return !needle;
    if (text.toLowerCase().includes(needle)) return true;
    return !PLAIN.test(text) && asRead(text).includes(needle);
  };
  /** @param {string | null | undefined} text */
  const holds = (text) => within(findText, text);
  const backwards = mirror(findText);
  /** @param {string | null | undefined} text */
  const mayHold = (text) => within(findText, text) || within(backwards, text);
  /**
   * Whether an element could match before its name is worked out: the
   * words it could be named by are all in these (a cheap, loose test).
   * @param {Element} element @param {string} role
   */
  const mightMatch = (element, role) => {
    if (findRole && role !== findRole) return false;
    if (!findText) return true;
    if (mayHold(element.textContent)) return true;
    for (const name of ["aria-label", "title", "placeholder", "alt", "href", "value", "aria-labelledby"]) {
      if (element.hasAttribute(name) && (name === "aria-labelledby" || holds(element.getAttribute(name)))) return true;
    }
    const field = /** @type {HTMLInputElement} */ (element);
    if ("value" in element && holds(String(field.value))) return true;
    if (field.labels && field.labels.length) return true;
    return Boolean(element.querySelector && element.querySelector("img[alt], svg title"));
  };
  return { holds, mayHold, mightMatch, lines: !findRole };
};

/**
 * A search's lines: text nodes gathered unjudged, and judged only where
 * the line they make holds what is searched for.
 * @param {Gathered} gathered @param {Search} search
 * @returns {Lines}
 */
const searchLines = (gathered, search) => {
  /** @type {(Text | LinePart)[]} */
  let pending = [];
  return {
    text: (text) => {
      pending.push(text);
      gathered.line += text.nodeValue || "";
    },
    blank: (value) => {
      if (!value) return;
      gathered.add(" ");
      pending.push(" ");
    },
    image: (alt, element, _at, kind) => {
      // Judged only if it is what is searched for.
      if (search.holds(alt) && !hiddenByStyle(element)) {
        gathered.line += " (" + kind + ": " + alt + ") ";
        pending.push(" (" + kind + ": " + alt + ") ");
      }
    },
    generated: (element, which, at) => {
      // Read only if the line may hold what is searched for.
      const text = generatedText(element, which);
      if (!text.trim() || hiddenByStyle(element)) return;
      gathered.line += text;
      pending.push(generatedPart(text, element, which, judging ? at.offset : null));
    },
    separator: (separator) => {
      gathered.add(separator);
      pending.push(separator);
    },
    flush: () => {
      const gatheredText = gathered.line;
      const nodes = pending;
      gathered.clearLine();
      pending = [];
      if (!search.lines || !search.mayHold(gatheredText)) return;
      let seen = "";
      /** @type {LinePart[]} */
      const parts = [];
      for (const part of nodes) {
        if (typeof part === "string" || "parent" in part) {
          seen += typeof part === "string" ? part : runText(part);
          parts.push(gathered.checked(part));
          continue;
        }
        const parent = /** @type {Element} */ (flatParentOf(part));
        if (namesListed(labelOf(parent))) continue;
        if (ariaHidden(parent) && iconGlyphs(parent)) continue;
        const fate = runFate(part);
        if (fate === "hidden") continue;
        const run = runOf(part, parent, fate);
        seen += runText(run);
        parts.push(run);
      }
      const text = cut(clean(seen), LINE_LIMIT);
      if (text && search.holds(text)) {
        /** @type {Item} */
        const item = { k: "t", text, y: 0 };
        gathered.items.push(item);
        gathered.written.push({ item, parts, keep: search.holds });
      }
    },
  };
};

/**
 * A search of this frame's whole document.
 * @param {FindRequest} request
 * @returns {SnapshotAnswer | {error: "loading" | "gone"}}
 */
const find = (request) => {
  if (judging) watch(document);
  const root = startOf(null);
  if (root === null) return { error: "loading" };
  if (root === "gone") return { error: "gone" };
  const search = searchOf(request.find);
  const gathered = new Gathered({ full: true, search, reading: false });
  const lines = searchLines(gathered, search);
  walkTree(root, { offset, win: window, path: request.path || [] }, pageVisitor(gathered, lines));
  lines.flush();
  return gathered.answer(null);
};
