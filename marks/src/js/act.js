// @ts-check
// act.js: acting on numbered elements, and pointing. Each answers with data
// and codes, never sentences (marks and tools write what a model reads):
//
//   act        readies a numbered element (scrolled into view) and does one
//              small thing with it: ActAnswer, or {error: ActCode, ...}
//   at         the numbered element at a viewport point, or a frame to ask
//   frame_box  where a cross-origin frame is now
//   mark       draws numbered boxes over the page (a Set-of-Marks picture)
//   unmark     takes them away

/**
 * @typedef {"navigated" | "gone" | "hidden" | "changed" | "disabled" | "not_select"
 *   | "no_option" | "frame_file"} ActCode
 * @typedef {object} ActAnswer
 * @property {Box} box        where it is now, in this frame's top viewport
 * @property {number} x       its centre
 * @property {number} y
 * @property {string | null} covered  what lies on its centre, if something else does
 * @property {string} tag
 * @property {string | null} type
 * @property {boolean | null} checked
 * @property {string | null} value   a field's value (a password's as ••••)
 * @property {boolean} [focused]     (focus) whether it took the focus
 * @property {boolean} [selected_all] (focus, clear) what it held is selected, to be typed over
 * @property {{multiple: boolean}} [file]  (file) the file field it stands for
 * @property {string[]} [selected]   (select) the labels now selected
 */

/**
 * An element as a person would point it out: tag and id.
 * @param {Element} element
 */
const pointedOut = (element) => element.tagName.toLowerCase() + (element.id ? "#" + element.id : "");

/**
 * A field's value as an answer carries it: a password's hidden.
 * @param {Element} element
 * @returns {string | null}
 */
const valueOf = (element) => {
  const field = /** @type {HTMLInputElement} */ (element);
  if (element.tagName === "SELECT") {
    const select = /** @type {HTMLSelectElement} */ (element);
    return Array.from(select.selectedOptions).map((option) => clean(option.label || option.text)).join(", ");
  }
  if (element.tagName === "INPUT" || element.tagName === "TEXTAREA") {
    if (["checkbox", "radio", "file", "submit", "button", "reset", "image"].includes(field.type)) return null;
    return field.type === "password" ? (field.value ? "••••" : "") : field.value;
  }
  const html = /** @type {HTMLElement} */ (element);
  return html.isContentEditable ? clean(html.innerText) : null;
};

/**
 * Where a person presses an element: on it, or, where it holds a target of
 * its own that is the same control (a tree item's title, which a script
 * listens to, in a row as wide as the tree), on that target, so the click
 * lands on what the page listens to and not on the empty end of a row.
 * @param {Element} element
 * @returns {Element}
 */
const pressTarget = (element) => {
  const name = nameOf(element, options.role || interactive(element) || "generic");
  if (!name || !element.firstElementChild) return element;
  for (const inner of innerControls(element)) {
    const role = interactive(inner);
    if (role && WEAK_ROLES.has(role) && within(inner, element) && shownRect(inner) &&
        nameOf(inner, role) === name) return inner;
  }
  return element;
};

/**
 * Finds a numbered element by local id (in this document or a same-origin
 * frame below it) and readies it: scrolled into view, with its box and
 * whether something covers it.
 * @returns {ActAnswer | {error: ActCode, now?: string, options?: string[]}}
 */
const act = () => {
  if (options.doc !== registry.doc) return { error: "navigated" };
  const element = elementOf(Number(options.id));
  if (!element || !element.isConnected) return { error: "gone" };
  // The same judgement as the snapshot's: what it listed, a click finds.
  const before = shownRect(element);
  if (!before) return { error: "hidden" };
  // Still what the model read: a node a re-render filled with other
  // content is not the element it was told of.
  if (typeof options.name === "string") {
    const now = nameOf(element, options.role || "");
    if (now !== options.name) return { error: "changed", now };
  }
  if (options.scroll !== false) before.via.scrollIntoView({ block: "center", inline: "center" });
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
  const shown = shownRect(pressTarget(element));
  if (!shown) return { error: "hidden" };
  const box = toBox(shown.rect, frameOffset);
  const cx = shown.rect.left + shown.rect.width / 2;
  const cy = shown.rect.top + shown.rect.height / 2;
  const hit = (/** @type {Document | ShadowRoot} */ (element.getRootNode())).elementFromPoint(cx, cy);
  const field = /** @type {HTMLInputElement} */ (element);
  const labels = field.labels ? Array.from(field.labels) : [];
  /** @type {string | null} */
  let covered = null;
  if (hit && hit !== element && !element.contains(hit) && !labels.some((label) => label.contains(hit))) {
    covered = pointedOut(hit);
  }
  /** @type {ActAnswer} */
  const result = {
    // The centre itself, to the nearest pixel: a box rounded first moves it
    // by up to a pixel and can leave it on a half.
    box, x: Math.round(frameOffset.x + cx), y: Math.round(frameOffset.y + cy), covered, tag: element.tagName,
    type: typeof field.type === "string" ? field.type : null,
    checked: typeof field.checked === "boolean" ? field.checked : null,
    value: valueOf(element),
  };
  switch (options.action) {
    case "focus": {
      if (field.disabled) return { error: "disabled" };
      const html = /** @type {HTMLElement} */ (element);
      html.focus();
      if (typeof field.setSelectionRange === "function" && options.clear !== true) {
        try { const end = field.value.length; field.setSelectionRange(end, end); } catch (ignored) { /* no caret */ }
      }
      if (options.clear === true) {
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
        input.setAttribute("data-tabwright-upload", String(options.token));
        result.file = { multiple: input.multiple };
      }
      break;
    }
    case "select": {
      if (element.tagName !== "SELECT") return { error: "not_select" };
      const select = /** @type {HTMLSelectElement} */ (element);
      const wanted = (options.values || []).map(clean);
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
 * @returns {{error: "nothing"}
 *   | {frame: number[], x: number, y: number, offset: Point}
 *   | {id: number, doc: string, role: string, name: string, box: Box}
 *   | {role: "none", tag: string, name: string}}
 */
const at = () => {
  let x = Number(options.x), y = Number(options.y);
  let doc = document;
  let frameOffset = { x: 0, y: 0 };
  let path = options.path || [];
  for (;;) {
    let hit = doc.elementFromPoint(x, y);
    while (hit && hit.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x, y);
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
 * @returns {{offset: Point} | {error: "gone"}}
 */
const frameBox = () => {
  /** @type {Window} */
  let win = window;
  let frameOffset = { x: 0, y: 0 };
  for (const index of options.frame || []) {
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
 * @returns {{}}
 */
const mark = () => {
  unmark();
  const host = document.createElement("tabwright-marks");
  host.style.cssText = "position:fixed;left:0;top:0;width:0;height:0;z-index:2147483647;pointer-events:none;";
  const shadow = host.attachShadow({ mode: "closed" });
  for (const mark of options.marks || []) {
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
  document.querySelectorAll("tabwright-marks").forEach((host) => host.remove());
  return {};
};
