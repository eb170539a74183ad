// Finds the first element matching a CSS selector and does one small thing
// with it. Returns a plain object: {error: "..."} when the element is missing
// or cannot be acted on, otherwise what the operation produced. Kept in one
// function so each driver call is one Runtime.evaluate round trip.
async function (operation, selector, extra) {
  const find = () => {
    try {
      return { element: document.querySelector(selector) };
    } catch (error) {
      return { error: "syntax" };
    }
  };

  // A box a person could see: rendered, not hidden, not zero-sized.
  const visibleBox = (element) => {
    const style = getComputedStyle(element);
    if (style.visibility === "hidden" || style.display === "none") return null;
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return null;
    return box;
  };

  const describe = (element) => {
    let text = element.tagName.toLowerCase();
    if (element.id) text += "#" + element.id;
    else if (typeof element.className === "string" && element.className.trim())
      text += "." + element.className.trim().split(/\s+/).join(".");
    return text;
  };

  if (operation === "wait") {
    for (;;) {
      const found = find();
      if (found.error) return found;
      if (found.element && (!extra.visible || visibleBox(found.element))) return {};
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  const found = find();
  if (found.error) return found;
  const element = found.element;
  if (!element) return { error: "missing" };

  switch (operation) {
    case "text":
      return { value: element.innerText ?? element.textContent ?? "" };
    case "value":
      if (!("value" in element)) return { error: "it has no value (not a form control)" };
      return { value: String(element.value) };
    case "focus": {
      if (element.disabled) return { error: "it is disabled" };
      if (!visibleBox(element)) return { error: "it is not visible" };
      element.scrollIntoView({ block: "center", inline: "center" });
      element.focus();
      // Type after what the field holds, as a person clicking at its end would.
      if (typeof element.setSelectionRange === "function") {
        try {
          const end = element.value.length;
          element.setSelectionRange(end, end);
        } catch (ignored) {
          // Inputs of type email or number have no selection range.
        }
      }
      if (document.activeElement !== element && !element.contains(document.activeElement)
          && !element.isContentEditable) {
        return { error: "it cannot take keyboard focus" };
      }
      return {};
    }
    case "click": {
      if (!visibleBox(element)) return { error: "it is not visible" };
      element.scrollIntoView({ block: "center", inline: "center" });
      const box = visibleBox(element);
      if (!box) return { error: "it is not visible" };
      const x = box.left + box.width / 2;
      const y = box.top + box.height / 2;
      // Real mouse events land on whatever is on top; say so rather than
      // click an overlay by mistake.
      // Ask the element's own root, so a shadow host does not count as
      // covering the elements inside it.
      const hit = element.getRootNode().elementFromPoint(x, y);
      if (hit && hit !== element && !element.contains(hit)) {
        return { error: "it is covered by " + describe(hit) };
      }
      return { x, y };
    }
    default:
      return { error: "unknown operation " + operation };
  }
}
