// @ts-check
// locate.js: the selector calls' page script. Joined after visibility.js
// into the body of `async function (operation, selector, extra)`: finds the
// first element matching a CSS selector and does one small thing with it,
// in one round trip. It answers with data and codes, never sentences
// (driver-core's `locate` module turns them into errors):
//
//   {error: "syntax"}        not a CSS selector
//   {error: "missing"}       nothing matches
//   {error: "hidden"}        nothing of it is seen (the snapshot's own test)
//   {error: "disabled"}      a disabled control
//   {error: "no_focus"}      it cannot take keyboard focus
//   {error: "no_value"}      not a form control
//   {error: "covered", by}   something else is on top of its centre
//   {x, y} | {value} | {}    what the operation produced

/**
 * @typedef {{error: "syntax" | "missing" | "hidden" | "disabled" | "no_focus" | "no_value"}
 *   | {error: "covered", by: string}
 *   | {error: "unknown_operation"}} LocateRefusal
 * @typedef {{x: number, y: number} | {value: string} | {}} LocateAnswer
 */

/** @returns {{element: Element | null} | {error: "syntax"}} */
const find = () => {
  try {
    return { element: document.querySelector(selector) };
  } catch (error) {
    return { error: "syntax" };
  }
};

/**
 * An element as a person would point it out: tag, id or classes.
 * @param {Element} element
 */
const describeElement = (element) => {
  let text = element.tagName.toLowerCase();
  if (element.id) text += "#" + element.id;
  else if (typeof element.className === "string" && element.className.trim())
    text += "." + element.className.trim().split(/\s+/).join(".");
  return text;
};

/** @returns {Promise<LocateRefusal | LocateAnswer>} */
const locate = async () => {
  if (operation === "wait") {
    for (;;) {
      const found = find();
      if ("error" in found) return found;
      if (found.element && (!extra.visible || shownRect(found.element))) return {};
      await new Promise((resolve) => setTimeout(resolve, 50));
      // A new look at the page: what was read before the wait is stale.
      forgetLayout();
    }
  }
  const found = find();
  if ("error" in found) return found;
  const element = found.element;
  if (!element) return { error: "missing" };
  const control = /** @type {HTMLInputElement} */ (element);

  switch (operation) {
    case "text":
      return { value: (/** @type {HTMLElement} */ (element)).innerText ?? element.textContent ?? "" };
    case "value":
      if (!("value" in element)) return { error: "no_value" };
      return { value: String(control.value) };
    case "focus": {
      if (control.disabled) return { error: "disabled" };
      if (!shownRect(element)) return { error: "hidden" };
      intoView(element, /** @type {Shown} */ (shownRect(element)));
      (/** @type {HTMLElement} */ (element)).focus({ preventScroll: true });
      // Type after what the field holds, as a person clicking at its end would.
      if (typeof control.setSelectionRange === "function") {
        try {
          const end = control.value.length;
          control.setSelectionRange(end, end);
        } catch (ignored) {
          // Inputs of type email or number have no selection range.
        }
      }
      const active = document.activeElement;
      if (active !== element && !element.contains(active) && !(/** @type {HTMLElement} */ (element)).isContentEditable) {
        return { error: "no_focus" };
      }
      return {};
    }
    case "click": {
      if (!shownRect(element)) return { error: "hidden" };
      const shown = /** @type {Shown} */ (shownRect(element));
      intoView(element, shown);
      forgetLayout();
      const now = shownRect(element);
      if (!now) return { error: "hidden" };
      const x = now.rect.left + now.rect.width / 2;
      const y = now.rect.top + now.rect.height / 2;
      // Real mouse events land on whatever is on top; say so rather than
      // click an overlay by mistake. Ask the element's own root, so a
      // shadow host does not count as covering the elements inside it.
      const hit = hitAt(element, x, y);
      const labels = control.labels ? Array.from(control.labels) : [];
      if (hit && !hitWithin(hit, element) && !labels.some((label) => label.contains(hit))) {
        return { error: "covered", by: describeElement(hit) };
      }
      return { x, y };
    }
    default:
      return { error: "unknown_operation" };
  }
};
