// tabwright's Set-of-Marks walker. Evaluated in one frame's document, it
// returns what a person could see and act on there, in reading order:
//
//   { doc, title, url, status, viewport: {w, h}, scroll: {x, y}, page: {w, h},
//     items: [ {k: "h", level, text, y} | {k: "t", text, y} | {k: "e", id}
//            | {k: "f", path, src, box} ],
//     elements: [ {id, role, name, ...state, box, offscreen} ],
//     beyond: [ [id, role, x, y, w, h] ] }
//
// `status` is the HTTP status the document came with (0 if there was none,
// as for about:blank), whatever navigated to it: a link, a form, a script.
//
// `beyond` holds the elements outside the scope asked for (the viewport and
// a margin, unless the whole page is wanted): counted, not described, and
// in a compact form, since a long page has thousands of them.
//
// Elements carry a local id, stable for as long as the element lives in this
// document: the Rust side maps (frame, local id) to the numbers a model
// sees. Same-origin iframes and open shadow roots are walked in place;
// a cross-origin iframe is returned as {k: "f"} with its window.frames index
// path, for the backend to walk in that frame and splice in.
//
// Called as (SNAPSHOT)(options, status) where options is
//   { op: "snapshot" | "act" | "at" | "frame_box" | "mark" | "unmark",
//     offset: {x, y}  (this frame's position in the top viewport),
//     path: [..]      (this frame's window.frames path),
//     margin, full    (snapshot: the margin around the viewport, and whether
//                      the whole page is wanted; if not, elements beyond the
//                      margin are counted but not described, and text there
//                      is not read),
//     find: {text, role}  (snapshot, whole page: only the elements whose
//                      role is `role` (if given) and whose name, value or
//                      link target holds `text` (lower case; if given), and
//                      the lines of text that hold it; nothing else is
//                      looked at closely, which keeps a search of a long
//                      page fast),
//     ... }
// and status is the document's HTTP status, read by the caller's expression
// (driver-core's DOCUMENT_STATUS, which the WebDriver backend uses too).
(function (options, status) {
  "use strict";

  // ---------------------------------------------------------------- state
  // One registry per document: element -> local id and back. Kept on the
  // window under a non-enumerable key, so it survives between calls.
  const KEY = "__tabwrightMarks";
  let state = window[KEY];
  if (!state || state.doc === undefined) {
    state = {
      doc: Math.random().toString(36).slice(2, 10),
      next: 1,
      ids: new WeakMap(),
      elements: new Map(),
    };
    Object.defineProperty(window, KEY, { value: state, enumerable: false, configurable: true });
  }
  const idOf = (element) => {
    let id = state.ids.get(element);
    if (id === undefined) {
      id = state.next++;
      state.ids.set(element, id);
      state.elements.set(id, new WeakRef(element));
    }
    return id;
  };

  // ----------------------------------------------------------- visibility
  const INTERACTIVE_ROLES = new Set([
    "button", "link", "checkbox", "radio", "switch", "tab", "menuitem", "menuitemcheckbox",
    "menuitemradio", "option", "textbox", "searchbox", "combobox", "slider", "spinbutton",
    "treeitem", "gridcell", "listbox",
  ]);
  // The longest hidden text that still names an icon-only control.
  const HIDDEN_NAME_LIMIT = 40;
  const SKIP_TAGS = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "HEAD", "META", "LINK", "TITLE"]);
  const BLOCK_DISPLAY = /^(block|flex|grid|list-item|table|table-row|table-caption|flow-root)$/;

  // Layout reads are what a walk over thousands of elements spends its time
  // on (in Chromium, about a microsecond per computed-style property and
  // four per box), so each is read at most once per call, and only where
  // the answer can change what the model reads. `perElement(read)` is
  // `read` answering each element once per call; its `answers` map holds
  // what it has answered so far.
  const perElement = (read) => {
    const answers = new Map();
    const answer = (element) => {
      let value = answers.get(element);
      if (value === undefined) {
        value = read(element);
        answers.set(element, value);
      }
      return value;
    };
    answer.answers = answers;
    return answer;
  };
  const styleOf = perElement((element) => getComputedStyle(element));
  // The two properties asked of nearly every element.
  const layoutOf = perElement((element) => {
    const style = styleOf(element);
    return { display: style.display, position: style.position };
  });
  const rectOf = perElement((element) => element.getBoundingClientRect());
  const eachChild = (node, visit) => {
    for (let child = node.firstChild; child; child = child.nextSibling) visit(child);
  };

  // The colour an element's text sits on: the nearest opaque background
  // (each element answers once, so a page costs one look per element).
  const backgroundOf = (element) => (!element || element.nodeType !== 1 ? "rgb(255, 255, 255)" : opaqueBehind(element));
  const opaqueBehind = perElement((element) => {
    const color = styleOf(element).backgroundColor;
    if (!color || color === "transparent" || /rgba\(.*,\s*0\)$/.test(color)) {
      return backgroundOf(element.parentElement || (element.getRootNode() && element.getRootNode().host));
    }
    return color;
  });

  const scrolled = { x: window.scrollX, y: window.scrollY };
  // A document that has only just replaced the previous one may have no
  // root element yet.
  const pageRight = Math.max(document.documentElement ? document.documentElement.scrollWidth : 0, innerWidth) + 100;

  // Hidden to a person: not rendered, transparent, aria-hidden, clipped
  // away, pushed off the page, or text the colour of its background.
  const isHidden = perElement((element) => {
    // Each element judges only itself and asks its parent (who answers
    // once), so a whole page costs one look per element.
    let hidden = false;
    if (element.getAttribute("aria-hidden") === "true" || element.hasAttribute("hidden") || element.hasAttribute("inert")) hidden = true;
    // A closed <details> shows only its summary.
    else if (element.parentElement && element.parentElement.tagName === "DETAILS" &&
             !element.parentElement.open && element.tagName !== "SUMMARY") hidden = true;
    else {
      // Each property read off a computed style costs; the ones that only
      // matter in some cases are read only then.
      const style = styleOf(element);
      const { display, position } = layoutOf(element);
      const visibility = style.visibility;
      const overflow = style.overflow;
      const clipPath = style.clipPath;
      if (display === "none" || visibility === "hidden" || visibility === "collapse") hidden = true;
      else if (style.opacity === "0") hidden = true;
      else if (element.children.length === 0 && style.fontSize === "0px") hidden = true;
      else if ((clipPath !== "none" && /inset\(\s*(50|100)%/.test(clipPath)) ||
               // clip applies to absolutely positioned boxes only.
               ((position === "absolute" || position === "fixed") && style.clip !== "auto" &&
                /rect\(\s*0(px)?,?\s+0(px)?,?\s+0(px)?,?\s+0(px)?\s*\)/.test(style.clip))) hidden = true;
      else if (overflow !== "visible" || position !== "static") {
        // Only what clips or is positioned can be shrunk or pushed away.
        const box = rectOf(element);
        const tiny = overflow !== "visible" && ((box.width <= 1 && box.height <= 1) || box.width === 0 || box.height === 0);
        const offPage = box.right + scrolled.x < 0 || box.bottom + scrolled.y < 0 || box.left + scrolled.x > pageRight;
        if (tiny || offPage) hidden = true;
      }
    }
    if (!hidden) {
      const parent = element.parentElement || (element.getRootNode() && element.getRootNode().host);
      if (parent) hidden = isHidden(parent);
    }
    return hidden;
  });

  // Text moved off-screen by text-indent (image replacement: a logo, an
  // icon button's word): the element's box, its background and its other
  // children still show, only its text does not. text-indent is inherited,
  // so the nearest block with one decides.
  const textHidden = perElement((element) => {
    const style = styleOf(element);
    if (BLOCK_DISPLAY.test(layoutOf(element).display) && style.textIndent !== "0px" &&
        parseFloat(style.textIndent) < -999) return true;
    const parent = element.parentElement || (element.getRootNode() && element.getRootNode().host);
    return parent ? textHidden(parent) : false;
  });

  // Hidden from assistive technology too, not only from sight: what no
  // accessible name is made of (text that is merely clipped, indented or
  // pushed off-screen still labels its control).
  const a11yHidden = perElement((element) => {
    if (element.getAttribute("aria-hidden") === "true" || element.hasAttribute("hidden")) return true;
    const style = styleOf(element);
    if (layoutOf(element).display === "none" || style.visibility === "hidden" || style.visibility === "collapse") return true;
    const parent = element.parentElement || (element.getRootNode() && element.getRootNode().host);
    return parent ? a11yHidden(parent) : false;
  });

  const labelOf = perElement((element) => element.closest("label"));

  const sameColourText = (element) => {
    const style = styleOf(element);
    return style.color === backgroundOf(element);
  };

  // ------------------------------------------------------------- semantics
  const roleOf = (element) => {
    const explicit = (element.getAttribute("role") || "").trim().split(/\s+/)[0];
    if (explicit) return explicit;
    const tag = element.tagName;
    const type = (element.getAttribute("type") || "").toLowerCase();
    switch (tag) {
      case "A": return element.hasAttribute("href") ? "link" : null;
      case "BUTTON": return "button";
      case "SUMMARY": return "button";
      case "SELECT": return element.multiple || element.size > 1 ? "listbox" : "combobox";
      case "TEXTAREA": return "textbox";
      case "INPUT":
        switch (type) {
          case "hidden": return null;
          case "button": case "submit": case "reset": case "image": return "button";
          case "checkbox": return "checkbox";
          case "radio": return "radio";
          case "range": return "slider";
          case "number": return "spinbutton";
          case "search": return "searchbox";
          case "file": return "button";
          case "email": case "tel": case "url": case "text": case "password": case "": return "textbox";
          default: return type; // date, time, color, month, week, datetime-local
        }
      case "H1": case "H2": case "H3": case "H4": case "H5": case "H6": return "heading";
      case "IMG": return "img";
    }
    if (element.isContentEditable && (!element.parentElement || !element.parentElement.isContentEditable)) return "textbox";
    return null;
  };

  const clean = (text) => (text || "").replace(/\s+/g, " ").trim();
  // What a page could make endless is cut before it travels: a line longer
  // than a model's whole budget, a title of megabytes.
  const LINE_LIMIT = 20000;
  const TITLE_LIMIT = 1000;
  const cut = (text, limit) => (text.length > limit ? text.slice(0, limit - 1) + "…" : text);

  // A search (options.find): what it asks for, in lower case.
  const find = options.find || null;
  const findText = find && find.text ? String(find.text).toLowerCase() : "";
  const findRole = find && find.role ? String(find.role) : "";
  const holds = (text) => !findText || (text || "").toLowerCase().includes(findText);
  // Whether an element could match before its name is worked out: the
  // words it could be named by are all in these (a cheap, loose test).
  const mightMatch = (element, role) => {
    if (findRole && role !== findRole) return false;
    if (!findText) return true;
    if (holds(element.textContent)) return true;
    for (const name of ["aria-label", "title", "placeholder", "alt", "href", "value", "aria-labelledby"]) {
      if (element.hasAttribute(name) && (name === "aria-labelledby" || holds(element.getAttribute(name)))) return true;
    }
    if ("value" in element && holds(String(element.value))) return true;
    if (element.labels && element.labels.length) return true;
    return Boolean(element.querySelector && element.querySelector("img[alt], svg title"));
  };

  // The text of a subtree, for names: what a person sees of it (`hides`
  // isHidden, text indented away left out), or with `hides` a11yHidden what
  // assistive technology reads of it (clipped and off-screen text in).
  const textOf = (root, hides) => {
    let text = "";
    const walk = (node) => {
      if (node.nodeType === 3) {
        if (hides === a11yHidden || !node.parentElement || !textHidden(node.parentElement)) text += node.nodeValue;
        return;
      }
      if (node.nodeType !== 1 || SKIP_TAGS.has(node.tagName)) return;
      if (node.tagName === "SELECT" || node.tagName === "TEXTAREA" || node.tagName === "INPUT") return;
      if (hides(node)) return;
      if (node.tagName === "IMG") { text += " " + (node.getAttribute("alt") || "") + " "; return; }
      if (node.shadowRoot) eachChild(node.shadowRoot, walk);
      eachChild(node, walk);
      if (BLOCK_DISPLAY.test(layoutOf(node).display)) text += " ";
    };
    walk(root);
    return clean(text);
  };
  const visibleText = (root) => textOf(root, isHidden);
  const a11yText = (root) => textOf(root, a11yHidden);

  const byIds = (element, attribute) => {
    const ids = (element.getAttribute(attribute) || "").split(/\s+/).filter(Boolean);
    const root = element.getRootNode();
    return clean(ids.map((id) => {
      const target = root.getElementById ? root.getElementById(id) : document.getElementById(id);
      return target ? visibleText(target) || a11yText(target) : "";
    }).join(" "));
  };

  // The accessible name, in the order the ARIA spec weighs them (roughly).
  const nameOf = (element, role) => {
    const labelled = byIds(element, "aria-labelledby");
    if (labelled) return labelled;
    const aria = clean(element.getAttribute("aria-label"));
    if (aria) return aria;
    if (element.labels && element.labels.length) {
      const label = clean(Array.from(element.labels).map(visibleText).join(" "));
      if (label) return label;
    }
    if (element.tagName === "IMG") return clean(element.getAttribute("alt"));
    if (element.tagName === "INPUT" && ["button", "submit", "reset"].includes(element.type)) {
      return clean(element.value) || (element.type === "submit" ? "Submit" : element.type === "reset" ? "Reset" : "");
    }
    if (element.tagName === "INPUT" && element.type === "image") return clean(element.alt || element.value);
    if (role === "dialog" || role === "alertdialog") return clean(element.getAttribute("title"));
    const isField = role === "textbox" || role === "searchbox" || role === "combobox" || role === "spinbutton" || role === "listbox" || role === "slider";
    if (!isField) {
      // What a person sees of it, or, for an icon-only control, the words
      // it carries for assistive technology (an off-screen "Close"): a
      // label's few words, never a hidden paragraph, which is no icon's name
      // and could be text planted for a model.
      const seen = visibleText(element);
      const heard = seen ? "" : a11yText(element);
      const text = seen || (heard.length <= HIDDEN_NAME_LIMIT ? heard : "");
      if (text) return text.length > 120 ? text.slice(0, 117) + "..." : text;
    }
    const title = clean(element.getAttribute("title"));
    if (title) return title;
    const placeholder = clean(element.getAttribute("placeholder") || element.getAttribute("aria-placeholder"));
    if (placeholder) return placeholder;
    // A button with only an icon: say what it is made of.
    const img = element.querySelector && element.querySelector("img[alt], svg title");
    if (img) return clean(img.getAttribute("alt") || img.textContent);
    return "";
  };

  // Elements whose onclick a page script set as a property: visible only in
  // the page's own world, so where this runs in a world of its own the
  // caller asks the page's world which they are (their places in document
  // order) and passes them in.
  const propertyHandlers = new Set();
  if (Array.isArray(options.handlers) && options.handlers.length) {
    const all = document.getElementsByTagName("*");
    for (const index of options.handlers) if (all[index]) propertyHandlers.add(all[index]);
  }
  const hasClickHandler = (element) =>
    typeof element.onclick === "function" || propertyHandlers.has(element) || element.hasAttribute("onclick") ||
    element.hasAttribute("ng-click") || element.hasAttribute("@click") || element.hasAttribute("v-on:click");

  // Why a person could act on this element, or null.
  const interactive = (element) => {
    const role = roleOf(element);
    if (role && role !== "heading" && role !== "img" && (INTERACTIVE_ROLES.has(role) || ["date", "time", "color", "month", "week", "datetime-local"].includes(role))) return role;
    if (element.tagName === "INPUT" && element.type !== "hidden") return role || "textbox";
    if (element.tabIndex >= 0 && element.hasAttribute("tabindex")) return role && role !== "heading" ? role : "generic";
    if (hasClickHandler(element)) return role && role !== "heading" && role !== "img" ? role : "clickable";
    // Made to be dragged (a card, a list item to re-order): a person acts
    // on it with the mouse, so it gets a number to drag by.
    if (element.getAttribute("draggable") === "true") return role && role !== "heading" && role !== "img" ? role : "draggable";
    if (styleOf(element).cursor === "pointer") {
      // Only the outermost pointer target: its children inherit the cursor.
      const parent = element.parentElement || (element.getRootNode() && element.getRootNode().host);
      if (!parent || styleOf(parent).cursor !== "pointer") return "clickable";
    }
    return null;
  };

  // ------------------------------------------------------------------ boxes
  const offset = options.offset || { x: 0, y: 0 };
  const viewport = { w: (window.top === window ? innerWidth : (options.viewport || {}).w) || innerWidth,
                     h: (window.top === window ? innerHeight : (options.viewport || {}).h) || innerHeight };

  const toBox = (rect, frameOffset) => ({
    x: Math.round(rect.left + frameOffset.x),
    y: Math.round(rect.top + frameOffset.y),
    w: Math.round(rect.width),
    h: Math.round(rect.height),
  });
  const boxOf = (element, frameOffset) => toBox(rectOf(element), frameOffset);

  const hasArea = (rect) => rect.width > 0 && rect.height > 0;

  // Where a person sees an element a snapshot lists, and would click it:
  // { rect, via } (via: the element whose box that is), or null when there
  // is nothing of it to see. Its own box, as a rule; an inline box that
  // holds only floated or positioned content (a logo link around a floated
  // image) has no size of its own, and then it is the box around that
  // content; a checkbox, radio or file input hidden for styling is shown
  // and clicked through its label.
  const shownRect = perElement((element) => {
    if (!isHidden(element)) {
      const own = rectOf(element);
      if (hasArea(own)) return { rect: own, via: element };
      const content = contentRect(element);
      return content ? { rect: content, via: element } : null;
    }
    if (element.tagName === "INPUT" && ["checkbox", "radio", "file"].includes(element.type) && element.labels) {
      for (const label of element.labels) {
        if (!isHidden(label) && hasArea(rectOf(label))) return { rect: rectOf(label), via: label };
      }
    }
    return null;
  });

  // The box around the visible content of an element that has none itself
  // (a few levels down, a few dozen elements at most).
  const contentRect = (element) => {
    let left = Infinity, top = Infinity, right = -Infinity, bottom = -Infinity;
    let budget = 50;
    const visit = (node, depth) => {
      for (let child = node.firstElementChild; child && budget > 0; child = child.nextElementSibling) {
        budget--;
        const rect = rectOf(child);
        if (hasArea(rect) && !isHidden(child)) {
          left = Math.min(left, rect.left); top = Math.min(top, rect.top);
          right = Math.max(right, rect.right); bottom = Math.max(bottom, rect.bottom);
        } else if (depth < 3) {
          visit(child, depth + 1);
        }
      }
    };
    visit(element, 0);
    return right > left && bottom > top
      ? { left, top, right, bottom, width: right - left, height: bottom - top }
      : null;
  };

  // Above or below the viewport and the margin around it (a box in the top
  // viewport): text there is not read. (An element with no box, such as
  // display: none, reports one at the viewport's corner: never far, so the
  // full look finds out why.)
  const far = (box) => box.y + box.h < -options.margin || box.y > viewport.h + options.margin;
  // An element is also out of view beside the viewport (a wide table's
  // last column stays text; its buttons there are out of reach).
  const outOfView = (box) => far(box) || box.x + box.w < 0 || box.x > viewport.w;

  // Where an iframe's content starts, in the top viewport.
  const contentOffset = (frame, frameOffset) => {
    const rect = rectOf(frame);
    const style = styleOf(frame);
    return {
      x: rect.left + frameOffset.x + parseFloat(style.borderLeftWidth) + parseFloat(style.paddingLeft),
      y: rect.top + frameOffset.y + parseFloat(style.borderTopWidth) + parseFloat(style.paddingTop),
    };
  };

  const frameIndex = (frame, win) => {
    for (let i = 0; i < win.length; i++) if (win[i] === frame.contentWindow) return i;
    return -1;
  };

  // -------------------------------------------------------------- snapshot
  const snapshot = () => {
    const items = [];
    const elements = [];
    const beyond = [];
    // The line being gathered, and the top of its first text (null while it
    // holds only spaces and cell separators, which make no line alone).
    let line = "";
    let lineY = null;
    // In a search, a line's text nodes are gathered unjudged, and judged
    // (hidden or not) only if the line holds what is searched for.
    let pending = [];
    const flush = () => {
      if (find) {
        const gathered = line;
        const nodes = pending;
        line = "";
        lineY = null;
        pending = [];
        if (findRole || !holds(gathered)) return;
        let seen = "";
        for (const part of nodes) {
          if (typeof part === "string") { seen += part; continue; }
          const parent = part.parentElement;
          const label = labelOf(parent);
          if (label && label.control && shownRect(label.control)) continue;
          if (isHidden(parent) || textHidden(parent) || sameColourText(parent)) continue;
          seen += part.nodeValue;
        }
        const text = cut(clean(seen), LINE_LIMIT);
        if (text && holds(text)) items.push({ k: "t", text, y: 0 });
        return;
      }
      const text = cut(clean(line), LINE_LIMIT);
      if (text && lineY !== null) items.push({ k: "t", text, y: lineY });
      line = "";
      lineY = null;
    };

    // Elements whose centre may lie under something else, checked once the
    // walk has seen what is positioned.
    const centres = [];

    // Lists an element a person could act on, unless it is hidden.
    // Outside the scope asked for, an element is only counted ("12 more
    // below") if it renders at all: its number is kept, its name and state
    // are not worked out, and the finer hiding tricks are not looked for.
    const count = (element, role, box) => {
      if (typeof element.checkVisibility === "function" &&
          !element.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return;
      beyond.push([idOf(element), role, box.x, box.y, box.w, box.h]);
    };

    // Lists an element a person could act on, unless there is nothing of
    // it to see.
    const describe = (element, role, frameOffset) => {
      if (find && !mightMatch(element, role)) return;
      const rough = boxOf(element, frameOffset);
      if (far(rough) && !options.full) return count(element, role, rough);
      const shown = shownRect(element);
      if (!shown) return;
      const box = toBox(shown.rect, frameOffset);
      const offscreen = outOfView(box);
      if (offscreen && !options.full) return count(element, role, box);
      const id = idOf(element);
      const record = { id, role, name: nameOf(element, role), box };
      const tag = element.tagName;
      if (tag === "INPUT" || tag === "TEXTAREA") {
        if (["checkbox", "radio"].includes(element.type)) record.checked = element.checked;
        else if (element.type === "password") record.value = element.value ? "••••" : "";
        else if (!["file", "submit", "button", "reset", "image"].includes(element.type)) record.value = element.value;
        // The type says more than the role only for plain text boxes.
        if (tag === "INPUT" && role === "textbox" && !["text", ""].includes(element.type)) record.type = element.type;
      } else if (tag === "SELECT") {
        record.options = Array.from(element.options).map((option) => ({
          label: clean(option.label || option.text), value: option.value, selected: option.selected,
        }));
        record.value = Array.from(element.selectedOptions).map((option) => clean(option.label || option.text)).join(", ");
      } else if (element.isContentEditable) {
        record.value = clean(element.innerText);
      }
      const aria = (name) => element.getAttribute(name);
      if (aria("aria-checked")) record.checked = aria("aria-checked") === "true" ? true : aria("aria-checked") === "mixed" ? "mixed" : false;
      if (aria("aria-selected") === "true") record.selected = true;
      if (aria("aria-expanded")) record.expanded = aria("aria-expanded") === "true";
      if (tag === "DETAILS" || (tag === "SUMMARY" && element.parentElement && element.parentElement.tagName === "DETAILS")) {
        record.expanded = (tag === "DETAILS" ? element : element.parentElement).open;
      }
      if (element.disabled || aria("aria-disabled") === "true") record.disabled = true;
      if (element.required || aria("aria-required") === "true") record.required = true;
      if (document.activeElement === element || (element.getRootNode().activeElement === element)) record.focused = true;
      if (tag === "A" && element.hasAttribute("href")) record.href = element.getAttribute("href");
      if (find && !holds(record.name) && !holds(record.value) && !holds(record.href)) return;
      const cx = box.x - frameOffset.x + box.w / 2, cy = box.y - frameOffset.y + box.h / 2;
      if (cx >= 0 && cy >= 0 && cx < innerWidth && cy < innerHeight) centres.push({ element, record, cx, cy });
      record.offscreen = offscreen;
      elements.push(record);
      items.push({ k: "e", id });
    };

    const walk = (node, frameOffset, win, path) => {
      if (node.nodeType === 3) {
        const parent = node.parentElement;
        if (!parent) return;
        if (!node.nodeValue.trim()) {
          if (node.nodeValue) line += " ";
          if (find && node.nodeValue) pending.push(" ");
          return;
        }
        if (find) {
          pending.push(node);
          line += node.nodeValue;
          return;
        }
        // Outside the scope asked for, text is left out unread.
        const box = boxOf(parent, frameOffset);
        if (!options.full && far(box)) return;
        // A label's words are its control's name, not text of their own.
        const label = labelOf(parent);
        if (label && label.control && shownRect(label.control)) return;
        if (isHidden(parent) || textHidden(parent) || sameColourText(parent)) return;
        if (lineY === null) lineY = box.y;
        line += node.nodeValue;
        return;
      }
      if (node.nodeType !== 1 && node.nodeType !== 11) return;
      if (node.nodeType === 11) {
        eachChild(node, (child) => walk(child, frameOffset, win, path));
        return;
      }
      if (SKIP_TAGS.has(node.tagName)) return;
      // Whatever is hidden by attribute is passed over unread; the other
      // ways to hide are looked for only where something would be read.
      if (node.getAttribute("aria-hidden") === "true" || node.hasAttribute("hidden") || node.hasAttribute("inert")) return;
      if (node.tagName === "IFRAME" || node.tagName === "FRAME") {
        if (isHidden(node)) return;
        flush();
        const inner = contentOffset(node, frameOffset);
        let doc = null;
        try { doc = node.contentDocument; } catch (error) { doc = null; }
        const index = frameIndex(node, win);
        if (doc && doc.documentElement) {
          walk(doc.documentElement, inner, node.contentWindow, path.concat([index]));
        } else {
          items.push({ k: "f", path: path.concat([index]), src: node.getAttribute("src") || "",
                       box: boxOf(node, frameOffset), offset: inner });
        }
        return;
      }
      // A heading is a line of structure, unless it is itself a control: an
      // accordion's header with role=tab, a heading with a click handler or
      // a pointer of its own (not one that is merely focusable). Then it is
      // numbered, and named by its own text.
      const heading = roleOf(node) === "heading" && interactive(node) !== "clickable";
      if (heading) {
        flush();
        const box = boxOf(node, frameOffset);
        const outside = (!options.full && far(box)) || (find && (findRole || !holds(node.textContent)));
        if (!outside) {
          if (isHidden(node)) return;
          const text = visibleText(node);
          const level = /^H[1-6]$/.test(node.tagName) ? Number(node.tagName[1]) : Number(node.getAttribute("aria-level") || 2);
          if (text && (!find || holds(text))) items.push({ k: "h", level, text, y: box.y });
        }
        // A link inside a heading is still an element.
        node.querySelectorAll("a[href], button").forEach((inner) => describe(inner, roleOf(inner), frameOffset));
        return;
      }
      // A dialog is numbered (to scope a snapshot to it) and read through.
      const ownRole = node.getAttribute("role");
      if (ownRole === "dialog" || ownRole === "alertdialog" || (node.tagName === "DIALOG" && node.open)) {
        if (isHidden(node)) return;
        flush();
        describe(node, ownRole || "dialog", frameOffset);
        if (node.shadowRoot) walk(node.shadowRoot, frameOffset, win, path);
        eachChild(node, (child) => walk(child, frameOffset, win, path));
        flush();
        return;
      }
      const role = interactive(node);
      if (role) {
        flush();
        describe(node, role, frameOffset);
        // Its own text is its name; but act-able things inside it (a
        // link in a clickable card) are elements of their own.
        const nested = node.firstElementChild
          ? node.querySelectorAll("a[href], button, input, select, textarea, [role=button], [role=link]")
          : [];
        nested.forEach((inner) => {
          if (inner !== node) describe(inner, interactive(inner) || roleOf(inner), frameOffset);
        });
        return;
      }
      const { display } = layoutOf(node);
      if (display === "none") return;
      const block = BLOCK_DISPLAY.test(display) || node.tagName === "BR";
      if (block) flush();
      if (node.tagName === "IMG") {
        const alt = clean(node.getAttribute("alt"));
        if (find) {
          // Judged only if it is what is searched for.
          if (alt && holds(alt) && !isHidden(node)) {
            line += " (image: " + alt + ") ";
            pending.push(" (image: " + alt + ") ");
          }
        } else {
          const box = boxOf(node, frameOffset);
          if (alt && (options.full || !far(box)) && !isHidden(node)) {
            if (lineY === null) lineY = box.y;
            line += " (image: " + alt + ") ";
          }
        }
      }
      if ((node.tagName === "TD" || node.tagName === "TH") && node.cellIndex > 0) {
        line += " | ";
        if (find) pending.push(" | ");
      }
      if (node.shadowRoot) walk(node.shadowRoot, frameOffset, win, path);
      eachChild(node, (child) => walk(child, frameOffset, win, path));
      if (block) flush();
    };

    if (!document.documentElement) return { error: "the document is still loading" };
    const root = options.scope ? findScope(options.scope) : document.body || document.documentElement;
    if (!root) return { error: "scope" };
    walk(root, offset, window, options.path || []);
    flush();
    // Something on top of an element's centre (a banner, a backdrop): say
    // what. Bar odd margins and transforms, only a positioned box or the top
    // layer can lie over another, so a centre is hit-tested only under one
    // of those (a hit test costs more the more the page holds); a click
    // checks again where it lands.
    const positioned = [];
    layoutOf.answers.forEach((layout, element) => {
      if (layout.position !== "static") positioned.push(element);
    });
    // A modal dialog's backdrop, or an element in fullscreen, lies over
    // the whole rest of its document.
    const overAll = new Map();
    const underTopLayer = (doc) => {
      if (!overAll.has(doc)) {
        let modal = false;
        try { modal = doc.querySelector(":modal") !== null; } catch (unsupported) { modal = false; }
        overAll.set(doc, modal || Boolean(doc.fullscreenElement));
      }
      return overAll.get(doc);
    };
    for (const { element, record, cx, cy } of centres) {
      const under = underTopLayer(element.ownerDocument) || positioned.some((other) => {
        if (other === element || other.ownerDocument !== element.ownerDocument ||
            other.contains(element) || element.contains(other)) return false;
        const rect = rectOf(other);
        return cx >= rect.left && cx <= rect.right && cy >= rect.top && cy <= rect.bottom;
      });
      if (!under) continue;
      const hit = element.getRootNode().elementFromPoint(cx, cy);
      if (hit && hit !== element && !element.contains(hit) && !hit.contains(element) &&
          !(element.labels && Array.from(element.labels).some((label) => label.contains(hit)))) {
        record.covered = hit.tagName.toLowerCase() + (hit.id ? "#" + hit.id : "");
      }
    }
    const page = document.documentElement;
    return {
      doc: state.doc,
      title: cut(document.title, TITLE_LIMIT),
      url: location.href,
      status,
      viewport,
      scroll: { x: Math.round(scrollX), y: Math.round(scrollY) },
      page: { w: page.scrollWidth, h: page.scrollHeight },
      items,
      elements,
      beyond,
    };
  };

  // A scope: a local id of an element to snapshot within.
  const findScope = (scope) => {
    const ref = state.elements.get(scope);
    return ref ? ref.deref() : null;
  };

  // --------------------------------------------------------------- acting
  // Finds a numbered element by local id (in this document or a same-origin
  // frame below it) and readies it: scrolled into view, with its box and
  // whether something covers it.
  const act = () => {
    if (options.doc !== state.doc) return { error: "navigated" };
    const ref = state.elements.get(options.id);
    const element = ref && ref.deref();
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
    const chain = [];
    for (let win = element.ownerDocument.defaultView; win && win !== window; win = win.parent) chain.unshift(win.frameElement);
    for (const frame of chain) {
      if (frame) frameOffset = contentOffset(frame, frameOffset);
    }
    const shown = shownRect(element);
    if (!shown) return { error: "hidden" };
    const box = toBox(shown.rect, frameOffset);
    const cx = shown.rect.left + shown.rect.width / 2;
    const cy = shown.rect.top + shown.rect.height / 2;
    const hit = element.getRootNode().elementFromPoint(cx, cy);
    const labels = element.labels ? Array.from(element.labels) : [];
    let covered = null;
    if (hit && hit !== element && !element.contains(hit) && !labels.some((label) => label.contains(hit))) {
      covered = hit.tagName.toLowerCase() + (hit.id ? "#" + hit.id : "");
    }
    const result = {
      box, x: box.x + box.w / 2, y: box.y + box.h / 2, covered, tag: element.tagName,
      type: typeof element.type === "string" ? element.type : null,
      checked: typeof element.checked === "boolean" ? element.checked : null,
    };
    switch (options.action) {
      case "focus":
        if (element.disabled) return { error: "disabled" };
        element.focus();
        if (typeof element.setSelectionRange === "function" && options.clear !== true) {
          try { const end = element.value.length; element.setSelectionRange(end, end); } catch (ignored) { /* no caret */ }
        }
        if (options.clear === true) {
          if ("value" in element && element.tagName !== "SELECT") {
            element.value = "";
            element.dispatchEvent(new Event("input", { bubbles: true }));
          } else if (element.isContentEditable) {
            element.textContent = "";
          }
        }
        result.focused = element.getRootNode().activeElement === element || element.contains(element.getRootNode().activeElement);
        break;
      case "file": {
        // The file field itself, the one a label is for, or one inside.
        let input = null;
        if (element.tagName === "INPUT" && element.type === "file") input = element;
        else if (element.control && element.control.type === "file") input = element.control;
        else input = element.querySelector ? element.querySelector("input[type=file]") : null;
        if (input) {
          if (input.disabled) return { error: "disabled" };
          if (input.ownerDocument !== document) return { error: "its file field is inside a frame, where files cannot be put yet" };
          input.setAttribute("data-tabwright-upload", String(options.token));
          result.file = { multiple: input.multiple };
        }
        break;
      }
      case "select": {
        if (element.tagName !== "SELECT") return { error: "not a select" };
        const wanted = options.values.map(clean);
        const matched = [];
        for (const option of element.options) {
          const hit = wanted.includes(clean(option.label || option.text)) || wanted.includes(option.value);
          if (hit) matched.push(clean(option.label || option.text));
          if (element.multiple) option.selected = hit;
          else if (hit && matched.length === 1) option.selected = true;
        }
        if (matched.length === 0) {
          return { error: "no option", options: Array.from(element.options).map((o) => clean(o.label || o.text)) };
        }
        element.dispatchEvent(new Event("input", { bubbles: true }));
        element.dispatchEvent(new Event("change", { bubbles: true }));
        result.selected = matched;
        break;
      }
    }
    return result;
  };

  // The element at a viewport point: descends into same-origin frames; for
  // a cross-origin frame says which, for the caller to ask it.
  const at = () => {
    let x = options.x, y = options.y;
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
        const inner = contentOffset(hit, { x: 0, y: 0 });
        let innerDoc = null;
        try { innerDoc = hit.contentDocument; } catch (error) { innerDoc = null; }
        const index = frameIndex(hit, doc.defaultView);
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
      for (let node = hit; node; node = node.parentElement || (node.getRootNode() && node.getRootNode().host)) {
        if (node.nodeType !== 1) continue;
        const role = interactive(node);
        if (role) {
          return { id: idOf(node), doc: state.doc, role, name: nameOf(node, role), box: boxOf(node, { x: frameOffset.x + offset.x, y: frameOffset.y + offset.y }) };
        }
      }
      return { role: "none", tag: hit.tagName.toLowerCase(), name: visibleText(hit).slice(0, 80) };
    }
  };

  // The current box of a cross-origin frame, by path, for offsets.
  const frameBox = () => {
    let win = window;
    let frameOffset = { x: 0, y: 0 };
    for (const index of options.frame) {
      const frames = win.document.querySelectorAll("iframe, frame");
      const frame = Array.from(frames).find((candidate) => candidate.contentWindow === win[index]);
      if (!frame) return { error: "gone" };
      frameOffset = contentOffset(frame, frameOffset);
      let next = null;
      try { next = frame.contentDocument ? frame.contentWindow : null; } catch (error) { next = null; }
      if (!next) return { offset: frameOffset };
      win = next;
    }
    return { offset: frameOffset };
  };

  // Draws numbered boxes over the page (in a closed shadow root, so the
  // page's styles cannot reach them), for a Set-of-Marks screenshot.
  const mark = () => {
    unmark();
    const host = document.createElement("tabwright-marks");
    host.style.cssText = "position:fixed;left:0;top:0;width:0;height:0;z-index:2147483647;pointer-events:none;";
    const shadow = host.attachShadow({ mode: "closed" });
    for (const mark of options.marks) {
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
  const unmark = () => {
    document.querySelectorAll("tabwright-marks").forEach((host) => host.remove());
    return {};
  };

  switch (options.op) {
    case "snapshot": return snapshot();
    case "act": return act();
    case "at": return at();
    case "frame_box": return frameBox();
    case "mark": return mark();
    case "unmark": return unmark();
    default: return { error: "unknown op " + options.op };
  }
})
