// @ts-check
// act.js: acting on numbered elements, and pointing. Each answers with data
// and codes, never sentences (marks and tools write what a model reads):
//
//   act        readies a numbered element (scrolled into view; for a
//              pointer, steady in place and aimed where a hit test finds
//              it) and does one small thing with it: ActAnswer, or
//              {error: ActCode, ...}
//   hovered    after the pointer arrived: whether the element is still what
//              lies under it (a page can swap another in on pointerover)
//   reached    what the pointer's and the keys' events reached since the
//              element was readied (listeners of tabwright's own world,
//              at capture): ReachedAnswer
//   at         the numbered element at a viewport point, or a frame to ask
//   frame_box  where a cross-origin frame is now
//   mark       draws numbered boxes over the page (a Set-of-Marks picture)
//   unmark     takes them away

/**
 * @typedef {"navigated" | "gone" | "hidden" | "changed" | "disabled" | "not_select"
 *   | "no_option" | "frame_file" | "unsteady" | "no_text"} ActCode
 * @typedef {{id: number | null, role: string, name: string, tag: string}} Seen
 *   an element as a model would be told of it: by its number (its
 *   nearest actionable ancestor's local id), or by its tag
 * @typedef {{events: {type: string, inside: boolean, seen: Seen}[],
 *   pieces: {text: string, length: number, inside: boolean, seen: Seen}[], blocked: Seen | null,
 *   took: boolean, also: Seen[], moved: {type: string, seen: Seen} | null}} ReachedAnswer
 *   what the action's events reached; for typing that went astray, where each
 *   run of its text went (a secret's text left out), and where the first key
 *   a secret's guard stopped was headed, whether any element took text, and
 *   what else the page passed a click on to; for pressed keys, where the page
 *   moved the focus while a key was on its way
 * @typedef {object} ActAnswer
 * @property {Box} box        where it is now, in this frame's top viewport
 * @property {number} x       its centre
 * @property {number} y
 * @property {string | null} covered  what lies on its centre, if something else does
 * @property {string} tag
 * @property {string | null} type
 * @property {boolean | null} checked
 * @property {string | null} value   a field's value (a password's as ••••)
 * @property {number} lx            the point aimed at, in its own frame's viewport
 * @property {number} ly
 * @property {boolean} [focused]     (focus) whether it took the focus
 * @property {boolean} [selected_all] (focus, clear) what it held is selected, to be typed over
 * @property {{multiple: boolean, files: string[], path: string | null}} [file]  (file) the file field it
 *   stands for: whether it takes several files, the names of those it holds, and a selector of it
 *   by position from the document's root (none inside a shadow tree)
 * @property {string[]} [selected]   (select) the labels now selected
 */

/**
 * An element as a person would point it out: tag and id.
 * @param {Element} element
 */
const pointedOut = (element) => element.tagName.toLowerCase() + (element.id ? "#" + element.id : "");

/**
 * A field's value as an answer carries it: a password's hidden, and one
 * a secret was typed into.
 * @param {Element} element
 * @returns {string | null}
 */
const valueOf = (element) => {
  const field = /** @type {HTMLInputElement} */ (element);
  if (element.tagName === "SELECT") {
    const select = /** @type {HTMLSelectElement} */ (element);
    return Array.from(select.selectedOptions).map((option) => clean(option.label || option.text)).join(", ");
  }
  const html = /** @type {HTMLElement} */ (element);
  const held = holdsSecret(element);
  if (element.tagName === "TEXTAREA") return held ? (field.value ? HIDDEN : "") : valueLines(field.value);
  if (element.tagName === "INPUT") {
    if (["checkbox", "radio", "file", "submit", "button", "reset", "image"].includes(field.type)) return null;
    return field.type === "password" || held ? (field.value ? HIDDEN : "") : field.value;
  }
  if (!html.isContentEditable) return null;
  return held ? (html.innerText.trim() ? HIDDEN : "") : valueLines(html.innerText);
};

/**
 * Where a person presses an element: on it, or, where it holds a target of
 * its own that is the same control (a tree item's title, which a script
 * listens to, in a row as wide as the tree), on that target, so the click
 * lands on what the page listens to and not on the empty end of a row.
 * @param {Element} element
 * @param {string} [given]  the role the model read it as
 * @returns {Element}
 */
const pressTarget = (element, given) => {
  const role = given || interactive(element) || "generic";
  const name = nameOf(element, role);
  if (!element.firstElementChild) return element;
  // A role whose children ARIA makes presentational (a tab, a button, an
  // option) around one real control (jQuery UI's accordion makes every
  // other child a tab, a button inside it): a person presses that control.
  if (PRESENTATIONAL_CHILDREN.has(role)) {
    const real = Array.from(element.querySelectorAll(REAL_CONTROLS)).filter((inner) => inner !== element && shownRect(inner));
    if (real.length === 1) return real[0];
  }
  if (!name) return element;
  for (const inner of innerControls(element)) {
    const innerRole = interactive(inner);
    if (innerRole && WEAK_ROLES.has(innerRole) && within(inner, element) && shownRect(inner) &&
        nameOf(inner, innerRole) === name) return inner;
  }
  return element;
};

/**
 * A selector of an element of the document by its position alone
 * (`:root > :nth-child(2) > …`): nothing is written into the page to find
 * it by. Null inside a shadow tree.
 * @param {Element} element
 * @returns {string | null}
 */
const positionPath = (element) => {
  if (element.getRootNode() !== document) return null;
  /** @type {string[]} */
  const steps = [];
  let at = element;
  while (at !== document.documentElement) {
    const parent = at.parentElement;
    if (!parent) return null;
    steps.unshift(`:nth-child(${Array.prototype.indexOf.call(parent.children, at) + 1})`);
    at = parent;
  }
  return [":root", ...steps].join(" > ");
};

/** Roles whose children ARIA makes presentational. */
const PRESENTATIONAL_CHILDREN = new Set(["button", "checkbox", "img", "menuitemcheckbox", "menuitemradio", "meter",
  "option", "progressbar", "radio", "scrollbar", "separator", "slider", "switch", "tab"]);
/** The controls a browser acts on by itself, whatever a page's roles say. */
const REAL_CONTROLS = "a[href], button, input:not([type=hidden]), select, textarea";

/**
 * The element deepest under a point of a document's viewport, through
 * shadow roots (open ones, and closed ones handed over).
 * @param {Document} doc
 * @param {number} x
 * @param {number} y
 * @returns {Element | null}
 */
const deepHit = (doc, x, y) => {
  let hit = doc.elementFromPoint(x, y);
  for (let shadow = hit && shadowOf(hit); hit && shadow; shadow = shadowOf(hit)) {
    const inner = shadow.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  return hit;
};

/**
 * Whether a hit at a point is the element, as a person's hand would take
 * it: the element or something inside it (its own shadow tree too), the
 * host of a component the element is part of (the hit cannot see further
 * in), or a point of its own label, unless that point is on another
 * control.
 * @param {Element | null} hit
 * @param {Element} element
 */
const reaches = (hit, element) => {
  if (!hit) return false;
  if (holdsFlat(element, hit)) return true;
  for (let root = element.getRootNode(); /** @type {ShadowRoot} */ (root).host; root = /** @type {ShadowRoot} */ (root).host.getRootNode()) {
    if (/** @type {ShadowRoot} */ (root).host === hit) return true;
  }
  const field = /** @type {HTMLInputElement} */ (element);
  const labels = field.labels ? Array.from(field.labels) : [];
  const around = labelOf(element);
  if (around && !labels.includes(around)) labels.push(around);
  for (const label of labels) {
    if (!holdsFlat(label, hit)) continue;
    // Another control inside the label takes the click for itself.
    for (let at = /** @type {Element | null} */ (hit); at && at !== label; at = parentOf(at)) {
      if (at !== element && (at.matches(REAL_CONTROLS) || CONTROL_ROLES.has(at.getAttribute("role") || ""))) return false;
    }
    return true;
  }
  return false;
};
/**
 * What a press at a point of an element's document lands on in the
 * documents above it, up to this world's own: each same-origin frame the
 * element sits in must be what its parent's hit test finds there, or the
 * press goes to the parent's element (one it slid over the frame). Null
 * when nothing above takes it.
 * @param {Element} element
 * @param {number} x  in the element's document's viewport
 * @param {number} y
 * @returns {Element | null}
 */
const coverAbove = (element, x, y) => {
  let px = x, py = y;
  for (let win = /** @type {Window | null} */ (element.ownerDocument.defaultView); win && win !== window; win = win.parent) {
    const frame = win.frameElement;
    if (!frame) return null;
    const inner = contentOffset(frame, { x: 0, y: 0 });
    px += inner.x; py += inner.y;
    const doc = frame.ownerDocument;
    if (!onScreen(doc, px, py)) return null;
    const hit = deepHit(doc, px, py);
    if (hit && hit !== frame) return hit;
  }
  return null;
};

/** Roles of controls that take a click for themselves. */
const CONTROL_ROLES = new Set(["button", "checkbox", "radio", "switch", "link", "menuitem", "option", "tab"]);

/** Where on a box a click may aim, best first: its centre, then around it. */
const AIMS = [[0.5, 0.5], [0.5, 0.3], [0.5, 0.7], [0.3, 0.5], [0.7, 0.5], [0.2, 0.2], [0.8, 0.2], [0.2, 0.8], [0.8, 0.8]];

/**
 * Where to press an element shown in `rect` (its document's viewport):
 * the first point of AIMS whose hit test reaches it, or its centre with
 * what covers it there.
 * @param {Element} element
 * @param {{left: number, top: number, width: number, height: number}} rect
 * @returns {{x: number, y: number, covered: Element | null}}
 */
const aim = (element, rect) => {
  const doc = element.ownerDocument;
  const centre = { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
  /** @type {Element | null} */
  let first = null;
  for (const [fx, fy] of AIMS) {
    const x = rect.left + fx * rect.width, y = rect.top + fy * rect.height;
    if (!onScreen(doc, x, y)) continue;
    const hit = coverAbove(element, x, y) || deepHit(doc, x, y);
    if (reaches(hit, element)) return { x, y, covered: null };
    if (!first) first = hit;
  }
  return { ...centre, covered: first };
};

/** How long an element may keep moving before a pointer action gives up, in ms. */
const STEADY_LIMIT = 2000;

/**
 * The next animation frame (or, in a tab that draws none, a tenth of a
 * second).
 * @returns {Promise<void>}
 */
const nextFrame = () => new Promise((done) => {
  const timer = setTimeout(done, 100);
  requestAnimationFrame(() => { clearTimeout(timer); done(); });
});

/**
 * Whether two boxes are the same to half a pixel: an element that holds
 * still.
 * @param {DOMRect} a
 * @param {DOMRect} b
 */
const sameBox = (a, b) => Math.abs(a.left - b.left) < 0.5 && Math.abs(a.top - b.top) < 0.5 &&
  Math.abs(a.width - b.width) < 0.5 && Math.abs(a.height - b.height) < 0.5;

/**
 * Waits until an element's box is the same over two animation frames (a
 * still page pays one frame): what slides in, or a row a folder pushes
 * down, is pressed where it comes to rest. False if it kept moving past
 * STEADY_LIMIT.
 * @param {Element} target
 */
const steady = async (target) => {
  const limit = performance.now() + STEADY_LIMIT;
  let before = rectOf(target);
  for (;;) {
    await nextFrame();
    rectOf.answers.clear();
    shownRect.answers.clear();
    const now = rectOf(target);
    if (sameBox(now, before)) return true;
    if (performance.now() > limit) return false;
    before = now;
  }
};

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
    rectOf.answers.clear();
    shownRect.answers.clear();
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
  // passed the click on to.
  /** @type {Element[]} */
  const passed = [];
  for (const clicked of record.clicks.slice(1)) {
    if (!inside(clicked) && clicked !== record.seen.get("click") && !passed.includes(clicked)) passed.push(clicked);
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
 * Finds a numbered element by local id (in this document or a same-origin
 * frame below it) and readies it: scrolled into view, with its box and
 * whether something covers it; for a pointer (`request.steady`), once it
 * holds still.
 * @param {ActRequest} request
 * @returns {ActAnswer | {error: ActCode, now?: string, options?: string[]}
 *   | Promise<ActAnswer | {error: ActCode, now?: string, options?: string[]}>}
 */
const act = (request) => {
  if (request.doc !== registry.doc) return { error: "navigated" };
  const element = elementOf(Number(request.id));
  if (!element || !element.isConnected) return { error: "gone" };
  // The same judgement as the snapshot's: what it listed, a click finds.
  const before = shownRect(element);
  if (!before) return { error: "hidden" };
  // Still what the model read: a node a re-render filled with other
  // content is not the element it was told of.
  if (typeof request.name === "string") {
    const now = listedName(element, request.role || "");
    if (now !== request.name) return { error: "changed", now };
  }
  if (request.scroll !== false) before.via.scrollIntoView({ block: "center", inline: "center" });
  // Boxes read before the scroll are stale now.
  rectOf.answers.clear();
  shownRect.answers.clear();
  // Offsets of the same-origin frames between here and this document.
  let frameOffset = { x: 0, y: 0 };
  /** @type {(Element | null)[]} */
  const chain = [];
  for (let win = /** @type {Window | null} */ (element.ownerDocument.defaultView); win && win !== window; win = win.parent) chain.unshift(win.frameElement);
  for (const frame of chain) {
    if (frame) frameOffset = contentOffset(frame, frameOffset);
  }
  const target = pressTarget(element, request.role);
  if (request.note === true) {
    // A pointer action on the fast path: its box is noted here and held
    // against where it is once the pointer's move has cost the page a
    // frame (`hovered`), so a still page pays that one frame only.
    const ready = readied(element, target, frameOffset, request);
    if (!("error" in ready)) {
      const record = recordOf(element.ownerDocument.defaultView || window);
      record.noted = { element, target, rect: rectOf(target) };
      if (request.record === true) arm(element, request.guard === true);
    }
    return ready;
  }
  if (request.steady === true) {
    // A pointer action: pressed where it comes to rest, then armed to say
    // what the events reached.
    return steady(target).then((still) => {
      if (!still) return { error: "unsteady" };
      const ready = readied(element, target, frameOffset, request);
      if (!("error" in ready) && request.record === true) arm(element, request.guard === true);
      return ready;
    });
  }
  return readied(element, target, frameOffset, request);
};

/**
 * Aims at a readied element and does what `request.action` asks of it.
 * @param {Element} element
 * @param {Element} target  where to press it (see `pressTarget`)
 * @param {Point} frameOffset
 * @param {ActRequest} request
 * @returns {ActAnswer | {error: ActCode, now?: string, options?: string[]}}
 */
const readied = (element, target, frameOffset, request) => {
  const shown = shownRect(target);
  if (!shown) return { error: "hidden" };
  // A disabled control hears no press: a click would do nothing.
  if (request.press === true && element.matches(":disabled")) return { error: "disabled" };
  const box = toBox(shown.rect, frameOffset);
  const aimed = aim(element, shown.rect);
  const field = /** @type {HTMLInputElement} */ (element);
  if (request.record === true && request.steady !== true) arm(element, request.guard === true);
  /** @type {ActAnswer} */
  const result = {
    // The point itself, to the nearest pixel: a box rounded first moves it
    // by up to a pixel and can leave it on a half.
    box, x: Math.round(frameOffset.x + aimed.x), y: Math.round(frameOffset.y + aimed.y),
    lx: aimed.x, ly: aimed.y,
    covered: aimed.covered ? pointedOut(aimed.covered) : null, tag: element.tagName,
    type: typeof field.type === "string" ? field.type : null,
    checked: typeof field.checked === "boolean" ? field.checked : null,
    value: valueOf(element),
  };
  switch (request.action) {
    case "focus": {
      if (field.disabled) return { error: "disabled" };
      // Text typed into a control that keys press (a button, a link, a
      // box) would press it: a space or Enter in the text is a click.
      if (request.text === true && pressedByKeys(element)) return { error: "no_text" };
      const html = /** @type {HTMLElement} */ (element);
      html.focus();
      if (typeof field.setSelectionRange === "function" && request.clear !== true) {
        try { const end = field.value.length; field.setSelectionRange(end, end); } catch (ignored) { /* no caret */ }
      }
      if (request.clear === true) {
        // What it holds is selected, for the typing to replace as a
        // person's does (a page that checks its input sees real key events,
        // not a value set behind its back).
        if ("value" in element && element.tagName !== "SELECT" && typeof field.select === "function") {
          field.select();
        } else if (html.isContentEditable) {
          const range = document.createRange();
          range.selectNodeContents(html);
          const selection = /** @type {Selection} */ (window.getSelection());
          selection.removeAllRanges();
          selection.addRange(range);
        }
        result.selected_all = true;
      }
      const root = /** @type {Document | ShadowRoot} */ (element.getRootNode());
      result.focused = root.activeElement === element || element.contains(root.activeElement);
      break;
    }
    case "file": {
      // The file field itself, the one a label is for, or one inside.
      /** @type {HTMLInputElement | null} */
      let input = null;
      const control = /** @type {HTMLLabelElement} */ (element).control;
      if (element.tagName === "INPUT" && field.type === "file") input = field;
      else if (control && (/** @type {HTMLInputElement} */ (control)).type === "file") input = /** @type {HTMLInputElement} */ (control);
      else input = element.querySelector ? element.querySelector("input[type=file]") : null;
      if (input) {
        if (input.disabled) return { error: "disabled" };
        if (input.ownerDocument !== document) return { error: "frame_file" };
        // Only where the page's world must find it (no DevTools events to
        // catch the chooser with): a mark the page can see.
        if (request.token) input.setAttribute("data-tabwright-upload", String(request.token));
        result.file = {
          multiple: input.multiple,
          files: Array.from(input.files || []).map((file) => file.name),
          path: positionPath(input),
        };
      }
      break;
    }
    case "select": {
      if (element.tagName !== "SELECT") return { error: "not_select" };
      const select = /** @type {HTMLSelectElement} */ (element);
      const wanted = (request.values || []).map(clean);
      /** @type {string[]} */
      const matched = [];
      for (const option of Array.from(select.options)) {
        const hit = wanted.includes(clean(option.label || option.text)) || wanted.includes(option.value);
        if (hit) matched.push(clean(option.label || option.text));
        if (select.multiple) option.selected = hit;
        else if (hit && matched.length === 1) option.selected = true;
      }
      if (matched.length === 0) {
        return { error: "no_option", options: Array.from(select.options).map((o) => clean(o.label || o.text)) };
      }
      element.dispatchEvent(new Event("input", { bubbles: true }));
      element.dispatchEvent(new Event("change", { bubbles: true }));
      result.selected = matched;
      result.value = valueOf(element);
      break;
    }
  }
  return result;
};

/**
 * The element at a viewport point: descends into same-origin frames; for
 * a cross-origin frame says which, for the caller to ask it.
 * @param {AtRequest} request
 * @returns {{error: "nothing"}
 *   | {frame: number[], x: number, y: number, offset: Point}
 *   | {id: number, doc: string, role: string, name: string, box: Box}
 *   | {role: "none", tag: string, name: string}}
 */
const at = (request) => {
  let x = Number(request.x), y = Number(request.y);
  let doc = document;
  let frameOffset = { x: 0, y: 0 };
  let path = request.path || [];
  for (;;) {
    let hit = doc.elementFromPoint(x, y);
    for (let shadow = hit && shadowOf(hit); hit && shadow; shadow = shadowOf(hit)) {
      const inner = shadow.elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    if (!hit) return { error: "nothing" };
    if (hit.tagName === "IFRAME" || hit.tagName === "FRAME") {
      const frame = /** @type {HTMLIFrameElement} */ (hit);
      const inner = contentOffset(frame, { x: 0, y: 0 });
      /** @type {Document | null} */
      let innerDoc = null;
      try { innerDoc = frame.contentDocument; } catch (error) { innerDoc = null; }
      const index = frameIndex(frame, /** @type {Window} */ (doc.defaultView));
      if (!innerDoc) {
        return { frame: path.concat([index]), x: x - inner.x, y: y - inner.y,
                 offset: { x: frameOffset.x + inner.x, y: frameOffset.y + inner.y } };
      }
      path = path.concat([index]);
      frameOffset = { x: frameOffset.x + inner.x, y: frameOffset.y + inner.y };
      x -= inner.x; y -= inner.y;
      doc = innerDoc;
      continue;
    }
    // The nearest ancestor a person would call the thing they clicked.
    for (let node = /** @type {Element | null} */ (hit); node; node = parentOf(node)) {
      const role = interactive(node);
      if (role) {
        return { id: idOf(node), doc: registry.doc, role, name: nameOf(node, role), box: boxOf(node, { x: frameOffset.x + offset.x, y: frameOffset.y + offset.y }) };
      }
    }
    return { role: "none", tag: hit.tagName.toLowerCase(), name: visibleText(hit).slice(0, 80) };
  }
};

/**
 * The current box of a cross-origin frame, by path, for offsets.
 * @param {FrameBoxRequest} request
 * @returns {{offset: Point} | {error: "gone"}}
 */
const frameBox = (request) => {
  /** @type {Window} */
  let win = window;
  let frameOffset = { x: 0, y: 0 };
  for (const index of request.frame || []) {
    const frames = win.document.querySelectorAll("iframe, frame");
    const frame = /** @type {HTMLIFrameElement | undefined} */ (Array.from(frames).find((candidate) => (/** @type {HTMLIFrameElement} */ (candidate)).contentWindow === win[index]));
    if (!frame) return { error: "gone" };
    frameOffset = contentOffset(frame, frameOffset);
    /** @type {Window | null} */
    let next = null;
    try { next = frame.contentDocument ? frame.contentWindow : null; } catch (error) { next = null; }
    if (!next) return { offset: frameOffset };
    win = next;
  }
  return { offset: frameOffset };
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
 * What has the focus in a document, through open shadow roots.
 * @param {Document} doc
 * @returns {Element | null}
 */
const deepActive = (doc) => {
  let at = doc.activeElement;
  while (at && at.shadowRoot && at.shadowRoot.activeElement) at = at.shadowRoot.activeElement;
  return at;
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
