// @ts-check
// listeners.js: the early hooks. Run in the page's own world at the start
// of every document, before the page's scripts (CDP:
// Page.addScriptToEvaluateOnNewDocument; WebDriver: the same through
// chromedriver's CDP bridge), it records which elements a script gave a
// click, mouse or pointer listener: an anchor without href that a date
// picker listens to is still a control a person clicks, and nothing else
// in the page says so. The snapshot reads the record (from tabwright's own
// world, by asking the page's world which elements are in it).
//
// It also lists what the page made that no other world can read: the
// hosts of closed shadow roots (`attachShadow` in closed mode) and the
// elements given `ElementInternals` (a custom element's role, name and
// states live there), for DevTools to hand them to tabwright's world
// (`Driver::hand_over`). Both wrappers are Proxies of the originals too.
//
// It also notes when the document last changed (a MutationObserver from
// the document's start, until settling's own watchers take over), and how
// many frames were painted since.
//
// It only records: the wrapped addEventListener is a Proxy of the
// original (it calls it, with the same arguments, and reads as native
// code), the record a WeakSet on a non-enumerable symbol whose key
// (`__LISTENERS_KEY__`, filled in by driver-core) is drawn at random for
// each process. A page that forges the record makes more things
// clickable, never fewer.
(() => {
  const KEY = Symbol.for("__LISTENERS_KEY__");
  const win = /** @type {any} */ (window);
  if (win[KEY]) return;
  /** @type {WeakSet<EventTarget>} */
  const listened = new WeakSet();
  const PRESSES = new Set(["click", "dblclick", "mousedown", "mouseup", "pointerdown", "pointerup", "touchstart", "touchend"]);
  const prototype = EventTarget.prototype;
  const original = prototype.addEventListener;
  const wrapped = new Proxy(original, {
    apply(target, self, args) {
      try {
        if (self && self.nodeType === 1 && PRESSES.has(String(args[0]))) listened.add(self);
      } catch (ignored) {
        // Whatever the page passed, its call goes through.
      }
      return Reflect.apply(target, self, args);
    },
  });
  Object.defineProperty(prototype, "addEventListener", { value: wrapped, writable: true, configurable: true, enumerable: false });
  Object.defineProperty(win, KEY, { value: listened, enumerable: false, configurable: false });
  // When the document last changed, from its start: settling counts a page
  // still from its last change, where it would otherwise have to watch it
  // for a while first (it knows nothing of what came before it looked).
  // Settling's own watchers take over the first time it looks (`stop`).
  // It also counts the frames painted since that change, up to the three
  // settling waits for after one (settle.js's FRAMES_QUIET), so that a page
  // that loaded and painted while the navigation was still being answered
  // has had its frames: a few frame callbacks after each burst of changes,
  // none while the page is still, none once settling has taken over.
  const changed = { at: performance.now(), frames: 0, stop: () => {} };
  try {
    const frame = window.requestAnimationFrame.bind(window);
    let counting = false;
    let stopped = false;
    const count = () => {
      changed.frames++;
      counting = !stopped && changed.frames < 3;
      if (counting) frame(count);
    };
    const start = () => {
      if (counting || stopped) return;
      counting = true;
      frame(count);
    };
    const observer = new MutationObserver(() => {
      changed.at = performance.now();
      changed.frames = 0;
      start();
    });
    observer.observe(document, { subtree: true, childList: true, characterData: true });
    start();
    changed.stop = () => {
      stopped = true;
      observer.disconnect();
    };
  } catch (ignored) {
    // No observer: settling watches for a while, as without this record.
  }
  Object.defineProperty(win, Symbol.for("__LISTENERS_KEY__.changed"), { value: changed, enumerable: false, configurable: false });
  // The list, by weak reference (what the page drops is not kept alive),
  // each element once; pruned of what is gone when it grows.
  const tree = { hosts: /** @type {WeakRef<Element>[]} */ ([]), listed: new WeakSet() };
  /** @param {any} element */
  const list = (element) => {
    if (!element || element.nodeType !== 1 || tree.listed.has(element)) return;
    tree.listed.add(element);
    tree.hosts.push(new WeakRef(element));
    if (tree.hosts.length > 1024 && (tree.hosts.length & 1023) === 0) {
      tree.hosts = tree.hosts.filter((held) => held.deref() !== undefined);
    }
  };
  /**
   * @param {object} owner
   * @param {string} name
   * @param {(self: any, args: any[]) => boolean} lists
   */
  const listing = (owner, name, lists) => {
    const found = Object.getOwnPropertyDescriptor(owner, name);
    if (!found || typeof found.value !== "function") return;
    const wrapped = new Proxy(found.value, {
      apply(target, self, args) {
        const made = Reflect.apply(target, self, args);
        try {
          if (lists(self, args)) list(self);
        } catch (ignored) {
          // Whatever the page passed, what it made is its own.
        }
        return made;
      },
    });
    Object.defineProperty(owner, name, { value: wrapped, writable: found.writable, configurable: found.configurable, enumerable: found.enumerable });
  };
  listing(Element.prototype, "attachShadow", (_, args) => Boolean(args[0]) && args[0].mode === "closed");
  if (typeof HTMLElement === "function") listing(HTMLElement.prototype, "attachInternals", () => true);
  Object.defineProperty(win, Symbol.for("__LISTENERS_KEY__.tree"), { value: tree, enumerable: false, configurable: false });
})();
