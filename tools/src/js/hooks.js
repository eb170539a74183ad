// @ts-check
// hooks.js: what settling must see among the page's own scripts.
//
// Evaluated in the page's world as `(SOURCE)(countRequests, names)`.
// Settling itself (settle.js) runs where tabwright's scripts run, in a
// world of its own where the backend has one, which cannot see the page's
// calls; these hooks can, and tell it what they see through one event on
// the window (`names.channel`, a JSON detail), sent whenever it changes and
// when settle.js asks (`names.channel + "?"`):
//
//   - timers: short timers (<= 500 ms) and animation frames the page asked
//     for and that have not run: a handler that renders "in a moment", or a
//     popup that starts its opening animation in the next frame, is waited
//     for. Only two generations count, so a timer or frame loop cannot hold
//     the page open forever;
//   - reads: a fetch's body still being read (what a page renders comes
//     after `r.text()`, which the protocol does not see for a body made in
//     the page);
//   - requests (only with `countRequests`, where the backend does not see
//     requests itself): fetches and XHRs in flight;
//   - submitted: when `form.submit()` was last called (it fires no submit
//     event, and navigates a task later).
//
// Installed once per document, in every same-origin frame too. What it
// leaves in the page says nothing of tabwright: the key of its record and
// the event's name are drawn at random for each process (`names`), and each
// wrapper is a Proxy of the function it wraps, so it keeps its name and
// length and reads as native code, as listeners.js's does. A page can still
// break the hooks; what it gains is settling waiting less, at most to its
// cap, never an answer that fails.
(
  /**
   * @param {boolean} countRequests
   * @param {HookNames} names
   */
  function (countRequests, names) {
    const KEY = Symbol.for(names.key);
    const CHANNEL = names.channel;

    /**
     * Wraps `object[name]` in a Proxy whose calls go through `apply`.
     * @template {object} T
     * @param {T} object
     * @param {keyof T} name
     * @param {(original: Function, self: any, args: any[]) => any} apply
     */
    const wrap = (object, name, apply) => {
      const original = /** @type {Function} */ (/** @type {unknown} */ (object[name]));
      if (typeof original !== "function") return;
      const wrapped = new Proxy(original, {
        apply(target, self, args) {
          return apply(target, self, args);
        },
      });
      // As the page had it: enumerable, writable and configurable alike.
      const had = Object.getOwnPropertyDescriptor(object, name);
      const kept = had ? { enumerable: had.enumerable, configurable: had.configurable, writable: had.writable } : {};
      Object.defineProperty(object, name, { writable: true, configurable: true, enumerable: true, ...kept, value: wrapped });
    };

    /** @param {Window & typeof globalThis} win */
    const hook = (win) => {
      const doc = win.document;
      const page = /** @type {any} */ (win);
      /** @type {HookState | undefined} */
      const known = page[KEY];
      if (known && known.doc === doc) return;
      /** @type {HookState} */
      const state = {
        doc, requests: 0, reads: 0, timers: new Set(), frames: new Map(), depth: 0, submitted: null,
        // The page's own timer and frame functions, for settle.js's polling
        // where it runs in this world (its timers are not the page's).
        setTimer: win.setTimeout,
        frame: win.requestAnimationFrame,
      };
      Object.defineProperty(win, KEY, { value: state, configurable: true });
      const CustomEvent = win.CustomEvent;
      const dispatch = win.EventTarget.prototype.dispatchEvent;
      // When the document last changed before it was watched, as the early
      // hooks saw it; once told, their observer stops (settle.js's own
      // watchers see what comes after).
      const early = /** @type {{at: number, frames: number, stop: () => void} | undefined} */ (page[Symbol.for(names.early + ".changed")]);
      /** @param {"at" | "frames"} field */
      const fromEarly = (field) => (early && typeof early[field] === "number" ? early[field] : null);
      const tell = () => {
        const detail = JSON.stringify({
          requests: state.requests, reads: state.reads, timers: state.timers.size,
          submitted: state.submitted, changed: fromEarly("at"), changedFrames: fromEarly("frames"),
        });
        try { dispatch.call(win, new CustomEvent(CHANNEL, { detail })); } catch { /* a page's own doing */ }
      };
      win.addEventListener(CHANNEL + "?", () => {
        tell();
        if (early && typeof early.stop === "function") {
          try { early.stop(); } catch { /* a page's own doing */ }
        }
      });

      /**
       * @param {Promise<unknown>} promise
       * @param {"requests" | "reads"} field
       */
      const track = (promise, field) => {
        state[field]++;
        tell();
        const done = () => { state[field]--; tell(); };
        promise.then(done, done);
      };
      if (countRequests) {
        wrap(win, "fetch", (fetch, self, args) => {
          const answer = Reflect.apply(fetch, self, args);
          track(answer, "requests");
          return answer;
        });
        wrap(win.XMLHttpRequest.prototype, "send", (send, self, args) => {
          state.requests++;
          tell();
          self.addEventListener("loadend", () => { state.requests--; tell(); }, { once: true });
          try {
            return Reflect.apply(send, self, args);
          } catch (error) {
            state.requests--; // it never started: no loadend will come
            tell();
            throw error;
          }
        });
      }
      // The body is read on after the headers; its count starts before the
      // fetch's ends (the page asks for it in the same turn the headers come).
      for (const name of /** @type {const} */ (["text", "json", "arrayBuffer", "blob", "formData", "bytes"])) {
        wrap(win.Response.prototype, name, (read, self, args) => {
          const answer = Reflect.apply(read, self, args);
          track(answer, "reads");
          return answer;
        });
      }

      wrap(win.HTMLFormElement.prototype, "submit", (submit, self, args) => {
        state.submitted = win.performance.now();
        tell();
        return Reflect.apply(submit, self, args);
      });

      /**
       * A callback run as the next generation of what the page asked for
       * in an action: what it asks for in turn counts one generation
       * further.
       * @param {Function} callback
       * @param {number} generation
       * @param {() => void} ran
       */
      const counted = (callback, generation, ran) =>
        /** @this {unknown} @param {unknown[]} args */
        function (...args) {
          ran();
          const outer = state.depth;
          state.depth = generation;
          try { return Reflect.apply(callback, this, args); } finally { state.depth = outer; tell(); }
        };

      const setTimer = state.setTimer;
      wrap(win, "setTimeout", (original, self, args) => {
        const [callback, delay, ...rest] = args;
        const generation = state.depth + 1;
        if (typeof callback !== "function" || !(Number(delay || 0) <= 500) || generation > 2) {
          return Reflect.apply(original, self, args);
        }
        /** @type {number} */
        const id = Reflect.apply(setTimer, self, [counted(callback, generation, () => state.timers.delete(id)), delay, ...rest]);
        state.timers.add(id);
        tell();
        return id;
      });
      wrap(win, "clearTimeout", (original, self, args) => {
        if (state.timers.delete(args[0])) tell();
        return Reflect.apply(original, self, args);
      });

      // Frames, as timers: counted for two generations (a frame asked for
      // from a frame asked for from an action), so an animation loop is
      // waited for at most that long. Their ids are kept apart from timers'.
      const frame = state.frame;
      wrap(win, "requestAnimationFrame", (original, self, args) => {
        const [callback] = args;
        const generation = state.depth + 1;
        if (typeof callback !== "function" || generation > 2) return Reflect.apply(original, self, args);
        const key = {};
        /** @type {number} */
        const id = Reflect.apply(frame, self, [counted(callback, generation, () => {
          state.timers.delete(key);
          state.frames.delete(id);
        })]);
        state.timers.add(key);
        state.frames.set(id, key);
        tell();
        return id;
      });
      wrap(win, "cancelAnimationFrame", (original, self, args) => {
        const key = state.frames.get(args[0]);
        if (key) {
          state.frames.delete(args[0]);
          state.timers.delete(key);
          tell();
        }
        return Reflect.apply(original, self, args);
      });
    };

    /** @param {Window & typeof globalThis} win */
    const hookAll = (win) => {
      hook(win);
      for (let i = 0; i < win.frames.length; i++) {
        try {
          const frame = /** @type {Window & typeof globalThis} */ (win.frames[i]);
          if (frame.document) hookAll(frame);
        } catch {
          // A cross-origin frame: out of reach.
        }
      }
    };
    hookAll(window);
    return true;
  }
)
