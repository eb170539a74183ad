// @ts-check
// record.js: what an action's events reached, across the frames of
// tabwright's world (the records `act` arms and `reached` reads), and what
// holds a secret: the marks drawn for a numbered screenshot, the cover over
// fields that hold one, the keys pressed, and which controls keys press.
// Joined after act.js (see main.js).

/**
 * @typedef {object} EventRecord
 * @property {boolean} armed
 * @property {Element | null} target
 * @property {Map<string, Element>} seen  the first element each kind of event reached
 * @property {{element: Element, target: Element, rect: DOMRect} | null} noted
 * @property {Set<Element>} inputs  every element an `input` reached
 * @property {{element: Element, text: string, at: number}[]} pieces  what the keys
 *   typed, in order (`at`, across the world's windows), by the element it went into
 * @property {Element | null} guard  the only element text may go into (a secret's)
 * @property {Element | null} blocked  where the first key the guard stopped was
 *   headed, once it stopped the keys
 * @property {Element[]} clicks  every element a click event reached, in order
 * @property {boolean} keys  armed for pressed keys
 * @property {Element | null} keyFocus  what had the focus as the last key went down
 * @property {{to: Element, type: string} | null} moved  where the page moved the
 *   focus while a key was on its way (between its keydown and its keypress or
 *   text), and the event that then went there
 */

/** The key tabwright's own world keeps its record of reached events under. */
const REACHED = "__tabwrightReached";
/** The events whose targets a pointer action or typing reports. */
const REPORTED = ["pointerdown", "mousedown", "mouseup", "click", "keydown", "keypress", "keyup", "input"];

/**
 * The record of what the pointer's and the keys' events reached in a
 * window, from listeners at capture on it (in tabwright's own world, out
 * of the page's reach), armed for one action at a time.
 * @param {Window} view
 * @returns {EventRecord}
 */
const recordOf = (view) => {
  const kept = /** @type {any} */ (view)[REACHED];
  if (kept) return kept;
  /** @type {EventRecord} */
  const record = {
    armed: false, target: null, seen: new Map(), noted: null, inputs: new Set(),
    pieces: [], guard: null, blocked: null, clicks: [], keys: false, keyFocus: null, moved: null,
  };
  Object.defineProperty(view, REACHED, { value: record, enumerable: false, configurable: true });
  for (const type of REPORTED) {
    view.addEventListener(type, (event) => {
      if (!record.armed) return;
      const element = eventElement(event);
      if (!element) return;
      if (type === "input") {
        // Every field the keys wrote into, for a secret's to be known, and
        // what went into each, in order.
        record.inputs.add(element);
        const data = /** @type {InputEvent} */ (event).data;
        if (typeof data === "string" && data) {
          const last = record.pieces[record.pieces.length - 1];
          if (last && last.element === element && last.at === typedPieces) last.text += data;
          else record.pieces.push({ element, text: data, at: ++typedPieces });
        }
      }
      // Every element a click reached: a page's script may pass one on
      // (`click()` on another control, a label pointing elsewhere).
      if (type === "click" && record.clicks.length < 16) record.clicks.push(element);
      if (!record.seen.has(type)) record.seen.set(type, element);
    }, { capture: true });
  }
  // Pressed keys: a focus the page moves while a key is on its way (in a
  // keydown handler) takes that key's keypress, text and click; a focus
  // the key's own default action moves (Tab) takes none of them.
  view.addEventListener("keydown", () => {
    if (record.armed && record.keys) record.keyFocus = deepActive(view.document);
  }, { capture: true });
  for (const type of ["keypress", "beforeinput"]) {
    view.addEventListener(type, () => {
      if (!record.armed || !record.keys || record.moved || !record.keyFocus) return;
      const now = deepActive(view.document);
      if (now && now !== record.keyFocus) record.moved = { to: now, type };
    }, { capture: true });
  }
  // A secret goes into the one field it was typed into, or nowhere: from
  // the first key the page sends elsewhere, no key reaches the page and no
  // text goes in (here, in tabwright's world, before the page's own
  // listeners on the element hear it).
  const guarded = (/** @type {Event} */ event) => {
    if (!record.armed || !record.guard) return;
    const element = eventElement(event);
    const guard = record.guard;
    if (!record.blocked && element && (element === guard || reaches(element, guard))) return;
    if (!record.blocked) record.blocked = element || guard;
    event.preventDefault();
    event.stopImmediatePropagation();
  };
  for (const type of ["keydown", "keypress", "beforeinput", "keyup"]) {
    view.addEventListener(type, guarded, { capture: true });
  }
  return record;
};

/** How many pieces of typed text all records have begun: their order. */
let typedPieces = 0;

/**
 * The windows of this world's documents: its own and every same-origin
 * frame's below it (at most 32), where a page may send an action's events
 * by moving the focus or the pointer's target across its frames.
 * @returns {Window[]}
 */
const worldViews = () => {
  /** @type {Window[]} */
  const views = [];
  /** @param {Window} view */
  const visit = (view) => {
    views.push(view);
    for (let i = 0; i < view.length && views.length < 32; i++) {
      /** @type {Window | null} */
      let inner = null;
      try { inner = view[i].document ? view[i] : null; } catch (error) { inner = null; }
      if (inner) visit(inner);
    }
  };
  visit(window);
  return views;
};

/**
 * The records of the action on `element`: its own window's first, then
 * every other window of this world's.
 * @param {Element | null} element
 * @returns {EventRecord[]}
 */
const recordsOf = (element) => {
  const own = (element && element.ownerDocument.defaultView) || window;
  return [own, ...worldViews().filter((view) => view !== own)].map(recordOf);
};

/**
 * The element an event is about: its first target, or a text node's parent.
 * @param {Event} event
 * @returns {Element | null}
 */
const eventElement = (event) => {
  const first = /** @type {Node | undefined} */ (event.composedPath()[0]);
  return first && first.nodeType === 1 ? /** @type {Element} */ (first)
    : first && first.nodeType === 3 ? first.parentElement : null;
};

/**
 * Arms the record of the window `element` is in for one action: what its
 * events reach from now on; with `guard`, no text may go elsewhere.
 * @param {Element} element @param {boolean} guard
 */
const arm = (element, guard) => {
  // Every window of the world's: the page may move the focus, and so the
  // keys and a secret's characters, to a field of another frame.
  for (const record of recordsOf(element)) {
    record.seen.clear();
    record.inputs.clear();
    record.pieces = [];
    record.clicks = [];
    record.keys = false;
    record.keyFocus = null;
    record.moved = null;
    record.guard = guard ? element : null;
    record.blocked = null;
    record.armed = true;
  }
};

/**
 * An element as a model would be told of it.
 * @param {Element} element
 * @returns {Seen}
 */
const seenAs = (element) => {
  for (let at = /** @type {Element | null} */ (element); at; at = parentOf(at)) {
    const role = interactive(at);
    if (role) return { id: idOf(at), role, name: nameOf(at, role), tag: at.tagName.toLowerCase() };
  }
  return { id: null, role: "", name: clean(element.textContent).slice(0, 80), tag: element.tagName.toLowerCase() };
};

/**
 * After the pointer arrived over a readied element (a frame, and the
 * timers that frame set going): whether what lies under it is still the
 * element, or what the page put there instead.
 * @param {HoveredRequest} request
 * @returns {Promise<{still: true, replaced?: number} | {still: false, now: Seen}
 *   | {still: false, moved: true} | {error: "gone"}>}
 */
const hovered = async (request) => {
  const element = elementOf(Number(request.id));
  const record = element ? recordOf(element.ownerDocument.defaultView || window) : null;
  const noted = request.noted === true && record && record.noted && record.noted.element === element
    ? record.noted : null;
  if (record) record.noted = null;
  if (noted) {
    // The move's frame has been drawn (the backend's move returns once
    // the page handled it): the timers it set, then whether the box held
    // still across it. One that moved is readied again the slow way.
    await new Promise((done) => setTimeout(done, 0));
    // What the page's handlers set going for the pointer's arrival (a
    // menu that moves its focus in a moment) is waited for, as settling
    // counts it: its short timers and frames, at most a tenth of a second.
    // Without that record, the pointer rests a frame as on the slow path.
    const settling = typeof request.settle === "string" && request.settle !== ""
      ? /** @type {any} */ (element ? element.ownerDocument.defaultView : window)[Symbol.for(request.settle)]
      : null;
    const counted = settling && settling.doc === (element ? element.ownerDocument : document) && settling.hooks;
    if (counted) {
      const until = performance.now() + 100;
      while (Number(settling.hooks.timers) > 0 && performance.now() < until) {
        await new Promise((done) => setTimeout(done, 4));
      }
    } else {
      await nextFrame();
      await new Promise((done) => setTimeout(done, 0));
    }
    forgetLayout();
    // (One the page replaced meanwhile is judged below, by what stands
    // where it was.)
    const now = rectOf(noted.target);
    if (noted.target.isConnected && !sameBox(now, noted.rect)) {
      return { still: false, moved: true };
    }
  } else {
    await new Promise((done) => {
      const later = () => setTimeout(done, 0);
      const timer = setTimeout(later, 50);
      requestAnimationFrame(() => { clearTimeout(timer); later(); });
    });
  }
  // (One the page replaced is still known by its reference, and its
  // document is where to look.)
  const doc = element ? element.ownerDocument : document;
  const x = Number(request.x), y = Number(request.y);
  // What the frames above it slid over it counts as what lies there.
  const hit = (element && element.isConnected && coverAbove(element, x, y)) || deepHit(doc, x, y);
  if (element && element.isConnected && (!hit || reaches(hit, element))) return { still: true };
  if (!hit) return { error: "gone" };
  const now = seenAs(hit);
  // Re-rendered in place (a menu that redraws the item the pointer
  // arrived on): the element the model read has left the page and what
  // stands where it was reads the same, which is what a person presses.
  if (element && !element.isConnected && typeof request.name === "string" && now.id !== null &&
      now.name === request.name) {
    return { still: true, replaced: now.id };
  }
  return { still: false, now };
};

/**
 * What the events of the action just done reached, and whether each was
 * the readied element (or inside it, or its label); the record is
 * disarmed.
 * @param {ReachedRequest} request
 * @returns {ReachedAnswer | {error: "navigated"}}
 */
const reached = (request) => {
  // Another document (the action navigated): its record knows nothing of
  // the action, and its ids are not the action's.
  if (request.doc !== registry.doc) return { error: "navigated" };
  const element = elementOf(Number(request.id));
  const view = element ? element.ownerDocument.defaultView : window;
  // The element's own window's record, with what the others heard.
  const records = recordsOf(element);
  const record = merged(records);
  for (const each of records) each.armed = false;
  /** @type {{type: string, inside: boolean, seen: Seen}[]} */
  const events = [];
  /** @param {Element} target */
  const inside = (target) => Boolean(element && (target === element || reaches(target, element) || holdsFlat(element, target)));
  // (What the click removed, a list it closed, was still reached: a
  // target taken out of the page since is judged where it was.)
  for (const type of REPORTED) {
    const target = record.seen.get(type);
    if (!target) continue;
    events.push({ type, inside: inside(target), seen: seenAs(target) });
  }
  // Where the typed text went, when any of it went elsewhere (a secret's
  // pieces are never said, only how many characters).
  const astray = record.pieces.some((piece) => !inside(piece.element));
  const pieces = astray || record.blocked
    ? record.pieces.map((piece) => ({
      text: request.holds === "secret" ? "" : piece.text,
      length: Array.from(piece.text).length, inside: inside(piece.element), seen: seenAs(piece.element),
    }))
    : [];
  const blocked = record.blocked ? seenAs(record.blocked) : null;
  const took = record.inputs.size > 0;
  // Clicks after the first that reached other elements: what the page
  // passed the click on to (not a stand-in it made and took away again, a
  // component's hidden submit button).
  /** @type {Element[]} */
  const passed = [];
  for (const clicked of record.clicks.slice(1)) {
    if (clicked.isConnected && !inside(clicked) && clicked !== record.seen.get("click") &&
        !passed.includes(clicked)) passed.push(clicked);
  }
  const also = passed.map(seenAs);
  const moved = record.moved ? { type: record.moved.type, seen: seenAs(record.moved.to) } : null;
  for (const each of records) {
    each.clicks = [];
    each.moved = null;
    each.keys = false;
    each.guard = null;
    each.blocked = null;
    each.pieces = [];
  }
  // What the typing left in the fields it reached: a secret (each field
  // holds one from now on), or, typed over the whole value, the model's
  // own words.
  if (request.holds === "secret") {
    if (element) registry.holders.add(element);
    for (const field of record.inputs) registry.holders.add(field);
    registry.held = true;
    watchCopies(view || window);
  } else if (request.holds === "plain" && element) {
    registry.holders.delete(element);
  }
  for (const each of records) {
    each.inputs.clear();
    each.seen.clear();
  }
  return { events, pieces, blocked, took, also, moved };
};

/**
 * One record of what an action's events reached in several windows: the
 * first's (the element's own window) first, then the others'; the typed
 * pieces in the order they were typed.
 * @param {EventRecord[]} records
 * @returns {EventRecord}
 */
const merged = (records) => {
  const [own, ...others] = records;
  const seen = new Map(own.seen);
  for (const other of others) {
    for (const [type, target] of other.seen) if (!seen.has(type)) seen.set(type, target);
  }
  return {
    ...own,
    seen,
    inputs: new Set(records.flatMap((each) => Array.from(each.inputs))),
    pieces: records.flatMap((each) => each.pieces).sort((a, b) => a.at - b.at),
    clicks: records.flatMap((each) => each.clicks),
    blocked: records.map((each) => each.blocked).find((blocked) => blocked) || null,
    moved: records.map((each) => each.moved).find((moved) => moved) || null,
  };
};

/**
 * Draws numbered boxes over the page (in a closed shadow root, so the
 * page's styles cannot reach them), for a Set-of-Marks screenshot.
 * @param {MarkRequest} request
 * @returns {{}}
 */
const mark = (request) => {
  unmark();
  const host = document.createElement("tabwright-marks");
  host.style.cssText = "position:fixed;left:0;top:0;width:0;height:0;z-index:2147483647;pointer-events:none;";
  const shadow = host.attachShadow({ mode: "closed" });
  for (const mark of request.marks || []) {
    const box = document.createElement("div");
    box.style.cssText = `position:fixed;left:${mark.x}px;top:${mark.y}px;width:${mark.w}px;height:${mark.h}px;` +
      "border:2px solid #e8005a;box-sizing:border-box;";
    const label = document.createElement("div");
    label.textContent = String(mark.n);
    label.style.cssText = `position:fixed;left:${Math.max(0, mark.x)}px;top:${Math.max(0, mark.y - 16)}px;` +
      "background:#e8005a;color:#fff;font:bold 12px/16px monospace;padding:0 3px;";
    shadow.append(box, label);
  }
  document.documentElement.appendChild(host);
  return {};
};

/** @returns {{}} */
const unmark = () => {
  document.querySelectorAll("tabwright-marks, tabwright-covers").forEach((host) => host.remove());
  return {};
};

/**
 * Covers every field of the document that holds a secret with an opaque
 * box (in the document's coordinates, so a full-page picture has them
 * too), for a picture to show that it holds one and nothing of it.
 * @returns {{covered: number}}
 */
const cover = () => {
  document.querySelectorAll("tabwright-covers").forEach((host) => host.remove());
  if (!registry.held) return { covered: 0 };
  const host = document.createElement("tabwright-covers");
  host.style.cssText = "position:absolute;left:0;top:0;width:0;height:0;z-index:2147483647;pointer-events:none;";
  const shadow = host.attachShadow({ mode: "closed" });
  let covered = 0;
  for (const field of document.querySelectorAll("input, textarea, [contenteditable]")) {
    if (!holdsSecret(field)) continue;
    const rect = field.getBoundingClientRect();
    if (rect.width <= 0 || rect.height <= 0) continue;
    const box = document.createElement("div");
    box.style.cssText = `position:absolute;left:${rect.left + scrollX}px;top:${rect.top + scrollY}px;` +
      `width:${rect.width}px;height:${rect.height}px;background:${COVER};`;
    shadow.append(box);
    covered++;
  }
  document.documentElement.appendChild(host);
  return { covered };
};

/** The colour a field holding a secret is covered with in pictures. */
const COVER = "rgb(128, 128, 128)";

/**
 * A secret was typed in this document, or in a frame of it: `held` says so
 * from now on (and `evaluate` is refused here); with `focused`, the
 * focused field (through open shadow roots) holds it, what typing without
 * a number wrote into.
 * @param {HoldRequest} request
 * @returns {{}}
 */
const hold = (request) => {
  registry.held = true;
  watchCopies(window);
  if (!request.focused) return {};
  const at = deepActive(document);
  if (at && at !== document.body && at !== document.documentElement) registry.holders.add(at);
  return {};
};

/** The key a window's watch for pasted and dropped text is kept under. */
const COPIES = "__tabwrightCopies";

/**
 * Once a secret was typed in a document, a field that text is pasted or
 * dropped into holds one too: the clipboard may carry the secret (or a
 * piece of it) out of the field it was typed into.
 * @param {Window} view
 */
const watchCopies = (view) => {
  if (/** @type {any} */ (view)[COPIES]) return;
  Object.defineProperty(view, COPIES, { value: true, enumerable: false, configurable: true });
  for (const type of ["paste", "drop"]) {
    view.addEventListener(type, (event) => {
      const first = /** @type {Node | undefined} */ (event.composedPath()[0]);
      const element = first && first.nodeType === 1 ? /** @type {Element} */ (first)
        : first ? first.parentElement : null;
      if (!element) return;
      const host = /** @type {HTMLElement} */ (element);
      const field = element.tagName === "INPUT" || element.tagName === "TEXTAREA" ? element
        : host.isContentEditable ? host.closest("[contenteditable]") || element : null;
      if (field) registry.holders.add(field);
    }, { capture: true });
  }
};

/**
 * Before keys are pressed: arms the record of the focused element's window
 * (through open shadow roots; not into a frame), for `reached` to say
 * which element each key's events reached.
 * @returns {{id: number, doc: string, role: string, name: string} | {id: null}}
 */
const armKeys = () => {
  const at = deepActive(document);
  if (!at || at === document.body || at === document.documentElement || at.tagName === "IFRAME") return { id: null };
  arm(at, false);
  recordOf(window).keys = true;
  const seen = seenAs(at);
  return { id: idOf(at), doc: registry.doc, role: seen.role, name: seen.name };
};

/**
 * Which frame of this document has the focus (its index among the
 * window's frames), through open shadow roots: keys pressed go into its
 * document, of whichever site.
 * @returns {{frame: number | null}}
 */
const focusedFrame = () => {
  const at = deepActive(document);
  const index = at && (at.tagName === "IFRAME" || at.tagName === "FRAME") ? frameIndex(/** @type {HTMLIFrameElement} */ (at), window) : -1;
  return { frame: index >= 0 ? index : null };
};

/**
 * What has the focus in a document, through open shadow roots.
 * @param {Document} doc
 * @returns {Element | null}
 */
const deepActive = (doc) => {
  let at = doc.activeElement;
  while (at && at.shadowRoot && at.shadowRoot.activeElement) at = at.shadowRoot.activeElement;
  return at;
};

/** Input types whose value a person picks (in a picker, on a slider) as much as types. */
const PICKED = ["date", "time", "datetime-local", "month", "week", "color", "range"];

/**
 * Gives a field whose value is picked (a date, a colour, a slider) `text`
 * as a pick in its picker does: the value, then `input` and `change`. Only
 * a value of its kind, by the browser's own check (a date as 2026-12-24; a
 * slider takes a number at its stop nearest): `null` for no such field (or
 * a date's text in another form, typed as keys, as a person types it into
 * its parts); `false` for text no colour or slider takes.
 * @param {Element} element @param {string} text
 */
const picked = (element, text) => {
  const field = /** @type {HTMLInputElement} */ (element);
  if (element.tagName !== "INPUT" || !PICKED.includes(field.type) || field.readOnly) return null;
  const wanted = text.trim(), before = field.value, typed = !["color", "range"].includes(field.type);
  if (field.type === "range" && (wanted === "" || !Number.isFinite(Number(wanted)))) return false;
  const set = /** @type {PropertyDescriptor} */ (Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")).set;
  if (!set) return null;
  set.call(field, wanted);
  if (field.type !== "range" && field.value.toLowerCase() !== wanted.toLowerCase()) {
    set.call(field, before);
    return typed ? null : false;
  }
  for (const type of ["input", "change"]) field.dispatchEvent(new Event(type, { bubbles: true }));
  return true;
};

/** The roles of controls that a key presses rather than types into. */
const PRESSED_ROLES = new Set(["button", "link", "checkbox", "radio", "switch", "tab", "menuitem",
  "menuitemcheckbox", "menuitemradio", "option", "treeitem"]);

/**
 * Whether keys press `element` rather than type into it: a button, a link,
 * a box to tick, by its tag or its role, unless it is editable itself.
 * @param {Element} element
 */
const pressedByKeys = (element) => {
  const html = /** @type {HTMLElement} */ (element);
  if (html.isContentEditable) return false;
  const tag = element.tagName;
  if (tag === "TEXTAREA" || tag === "SELECT") return false;
  if (tag === "INPUT") {
    return ["button", "submit", "reset", "image", "checkbox", "radio", "file", "color", "range"]
      .includes(/** @type {HTMLInputElement} */ (element).type);
  }
  if (tag === "BUTTON" || tag === "SUMMARY" || (tag === "A" && element.hasAttribute("href"))) return true;
  return PRESSED_ROLES.has(element.getAttribute("role") || "");
};
