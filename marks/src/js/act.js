// @ts-check
// act.js: acting on numbered elements, and pointing. Each answers with data
// and codes, never sentences (marks and tools write what a model reads):
//
//   act        readies a numbered element (scrolled into view; for a
//              pointer, steady in place and aimed where a hit test finds
//              it) and does one small thing with it: ActAnswer, or
//              {error: ActCode, ...}
//   at         the numbered element at a viewport point, or a frame to ask
//   frame_box  where a cross-origin frame is now
//
// record.js, joined after it, holds `hovered` (after the pointer arrived:
// whether the element is still what lies under it), `reached` (what the
// pointer's and the keys' events reached since the element was readied),
// `mark`/`unmark` (numbered boxes for a Set-of-Marks picture), and what
// holds a secret.

/**
 * @typedef {"navigated" | "gone" | "hidden" | "changed" | "disabled" | "not_select"
 *   | "no_option" | "frame_file" | "unsteady" | "no_text" | "not_its_kind"} ActCode
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
 * @property {boolean} [editor_keys] (focus, text) a code editor's hidden input: its editor's own keys select all
 *   (clear) or go to the end (added to), which its textarea, holding a window of the file at most, cannot
 * @property {boolean} [picked]      (focus, text) a picked field took the text as its value: no keys
 * @property {boolean} [rich]        (focus, clear) an editable that holds something, whose selection is
 *   deleted before the typing: an editor typed over as a whole keeps an empty line after the text
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
  if (element.tagName === "TEXTAREA") return held ? (field.value ? HIDDEN : "") : textareaValue(element);
  if (element.tagName === "INPUT") {
    if (["checkbox", "radio", "file", "submit", "button", "reset", "image"].includes(field.type)) return null;
    return field.type === "password" || held ? (field.value ? HIDDEN : "") : seenValue(element, field.value);
  }
  if (!html.isContentEditable) return null;
  return held ? (html.innerText.trim() ? HIDDEN : "") : valueLines(seenEditable(html));
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
  if (hitWithin(hit, element)) return true;
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
    px = inner.x + px * scaleOf(inner); py = inner.y + py * scaleOf(inner);
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
    forgetLayout();
    const now = rectOf(target);
    if (sameBox(now, before)) return true;
    if (performance.now() > limit) return false;
    before = now;
  }
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
    const role = request.role || "";
    // (A card is named as the snapshot named it: by its heading or its own
    // first words.)
    const holding = WEAK_ROLES.has(role) ? parts(element, role) : null;
    const now = holding && holding.card ? containerName(element) : listedName(element, role);
    if (now !== request.name) return { error: "changed", now };
  }
  if (request.scroll !== false) intoView(element, before);
  // Boxes read before the scroll are stale now.
  forgetLayout();
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
    box, x: Math.round(frameOffset.x + aimed.x * scaleOf(frameOffset)), y: Math.round(frameOffset.y + aimed.y * scaleOf(frameOffset)),
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
      const pick = request.text === true && typeof request.value === "string" ? picked(element, request.value) : null;
      if (pick === false) return { error: "not_its_kind" };
      if (request.text === true && pick === null && pressedByKeys(element)) return { error: "no_text" };
      const html = /** @type {HTMLElement} */ (element);
      html.focus();
      if (pick) {
        Object.assign(result, { picked: true, focused: true, value: valueOf(element) });
        break;
      }
      if (editorOf(element)) {
        result.editor_keys = true;
      } else if (typeof field.setSelectionRange === "function" && request.clear !== true) {
        try { const end = field.value.length; field.setSelectionRange(end, end); } catch (ignored) { /* no caret */ }
      } else if (html.isContentEditable && request.clear !== true && request.text === true) {
        // Added to the end, as to a field's value (an editor keeps its
        // caret where it last was, at the start of a file never clicked).
        const selection = /** @type {Selection} */ (window.getSelection());
        selection.removeAllRanges();
        selection.addRange(endOf(html));
      }
      if (request.clear === true) {
        // What it holds is selected, for the typing to replace as a
        // person's does (a page that checks its input sees real key events,
        // not a value set behind its back).
        // (A code editor's hidden input is selected by its editor's keys:
        // `editor_keys`.)
        if ("value" in element && element.tagName !== "SELECT" && typeof field.select === "function" && !editorOf(element)) {
          field.select();
        } else if (html.isContentEditable) {
          const range = document.createRange();
          range.selectNodeContents(html);
          const selection = /** @type {Selection} */ (window.getSelection());
          selection.removeAllRanges();
          selection.addRange(range);
          // (An empty one is typed into: Backspace there may take a chip
          // or a line before it.)
          if ((html.textContent || "").length > 0) result.rich = true;
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
      // Only what its picker offers, as the snapshot lists it: a hidden
      // option is no person's choice (a "Choose…", a filtered-out one).
      const choices = Array.from(select.options).filter(offered);
      for (const option of choices) {
        const hit = wanted.includes(clean(option.label || option.text)) || wanted.includes(option.value);
        if (hit) matched.push(clean(option.label || option.text));
        if (select.multiple) option.selected = hit;
        else if (hit && matched.length === 1) option.selected = true;
      }
      if (matched.length === 0) {
        return { error: "no_option", options: choices.map((o) => clean(o.label || o.text)) };
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
      const s = scaleOf(inner);
      if (!innerDoc) {
        return { frame: path.concat([index]), x: (x - inner.x) / s, y: (y - inner.y) / s,
                 offset: placedIn(frameOffset, inner) };
      }
      path = path.concat([index]);
      frameOffset = placedIn(frameOffset, inner);
      x = (x - inner.x) / s; y = (y - inner.y) / s;
      doc = innerDoc;
      continue;
    }
    // The nearest ancestor a person would call the thing they clicked.
    for (let node = /** @type {Element | null} */ (hit); node; node = parentOf(node)) {
      const role = interactive(node);
      if (role) {
        return { id: idOf(node), doc: registry.doc, role, name: nameOf(node, role), box: boxOf(node, placedIn(offset, frameOffset)) };
      }
    }
    return { role: "none", tag: hit.tagName.toLowerCase(), name: visibleText(hit).slice(0, 80) };
  }
};

/**
 * Whether pressing a control sends its form: a submit button.
 * @param {Element} element
 */
const submitButton = (element) => {
  const type = (/** @type {HTMLInputElement} */ (element)).type;
  return element.tagName === "BUTTON" ? type === "submit" : element.tagName === "INPUT" && (type === "submit" || type === "image");
};

/**
 * Where pressing an element would send its form, as the browser sends it:
 * `[method, url]`, or null where nothing is sent to an address (no form,
 * a `dialog` form). A press (a click, Space) sends from a submit button;
 * Enter also from a field of a form, by the form's first submit button.
 * Read from the attributes: a field named `action` or `method` stands in
 * the form's properties of those names.
 * @param {SendsRequest} request
 * @returns {{sends: [string, string] | null} | {error: "navigated"}}
 */
const sends = (request) => {
  /** @type {Element | null} */
  let element = null;
  if (typeof request.id === "number") {
    if (request.doc !== registry.doc) return { error: "navigated" };
    element = elementOf(request.id);
  } else {
    element = deepActive(document);
    while (element && (element.tagName === "IFRAME" || element.tagName === "FRAME")) {
      /** @type {Document | null} */
      let inner = null;
      try { inner = (/** @type {HTMLIFrameElement} */ (element)).contentDocument; } catch (other) { inner = null; }
      element = inner ? deepActive(inner) : null;
    }
  }
  if (!element) return { sends: null };
  const pressed = submitButton(element);
  if (!pressed && request.enter !== true) return { sends: null };
  const form = /** @type {HTMLFormElement | null | undefined} */ ((/** @type {HTMLInputElement} */ (element)).form);
  if (!form || form.tagName !== "FORM") return { sends: null };
  const doc = form.ownerDocument;
  const by = pressed ? element : Array.from(doc.querySelectorAll("button, input"))
    .find((control) => (/** @type {HTMLInputElement} */ (control)).form === form && submitButton(control)) || null;
  /** @param {string} name */
  const attribute = (name) => by && by.hasAttribute("form" + name) ? by.getAttribute("form" + name) : form.getAttribute(name);
  const method = (attribute("method") || "").trim().toLowerCase();
  if (method === "dialog") return { sends: null };
  let url = "";
  try { url = new URL(attribute("action") || doc.URL, doc.baseURI).href; } catch (bad) { return { sends: null }; }
  return { sends: [method === "post" ? "post" : "get", url] };
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
