// hooks.js: what settling must see among the page's own scripts.
//
// Evaluated in the page's world as `(SOURCE)(countRequests)`. Settling
// itself (settle.js) runs where tabwright's scripts run, in a world of its
// own where the backend has one, which cannot see the page's calls; these
// hooks can, and tell it what they see through one event on the window
// (`tabwright-settle`, a JSON detail), sent whenever it changes and when
// settle.js asks (`tabwright-settle?`):
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
// A page can see these wrappers and the event; what it can do with them is
// make settling wait, at most to its cap. Installed once per document, in
// every same-origin frame too.
(function (countRequests) {
  const KEY = Symbol.for('tabwright.hooks');
  const CHANNEL = 'tabwright-settle';

  const hook = (win) => {
    const doc = win.document;
    const known = win[KEY];
    if (known && known.doc === doc) return;
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
    const tell = () => {
      const detail = JSON.stringify({
        requests: state.requests, reads: state.reads, timers: state.timers.size,
        submitted: state.submitted,
      });
      try { dispatch.call(win, new CustomEvent(CHANNEL, { detail })); } catch { /* a page's own doing */ }
    };
    win.addEventListener(CHANNEL + '?', tell);

    const track = (promise, field) => {
      state[field]++;
      tell();
      const done = () => { state[field]--; tell(); };
      promise.then(done, done);
    };
    if (countRequests) {
      const fetch = win.fetch;
      win.fetch = function (...args) {
        const answer = fetch.apply(this, args);
        track(answer, 'requests');
        return answer;
      };
      const send = win.XMLHttpRequest.prototype.send;
      win.XMLHttpRequest.prototype.send = function (...args) {
        state.requests++;
        tell();
        this.addEventListener('loadend', () => { state.requests--; tell(); }, { once: true });
        try {
          return send.apply(this, args);
        } catch (error) {
          state.requests--; // it never started: no loadend will come
          tell();
          throw error;
        }
      };
    }
    // The body is read on after the headers; its count starts before the
    // fetch's ends (the page asks for it in the same turn the headers come).
    for (const name of ['text', 'json', 'arrayBuffer', 'blob', 'formData', 'bytes']) {
      const read = win.Response.prototype[name];
      if (typeof read !== 'function') continue;
      win.Response.prototype[name] = function (...args) {
        const answer = read.apply(this, args);
        track(answer, 'reads');
        return answer;
      };
    }

    const submit = win.HTMLFormElement.prototype.submit;
    win.HTMLFormElement.prototype.submit = function (...args) {
      state.submitted = win.performance.now();
      tell();
      return submit.apply(this, args);
    };

    const setTimer = state.setTimer;
    const clearTimer = win.clearTimeout;
    win.setTimeout = function (callback, delay, ...rest) {
      const generation = state.depth + 1;
      if (typeof callback !== 'function' || !(Number(delay || 0) <= 500) || generation > 2) {
        return setTimer.call(this, callback, delay, ...rest);
      }
      const id = setTimer.call(this, function (...args) {
        state.timers.delete(id);
        const outer = state.depth;
        state.depth = generation;
        try { return callback.apply(this, args); } finally { state.depth = outer; tell(); }
      }, delay, ...rest);
      state.timers.add(id);
      tell();
      return id;
    };
    win.clearTimeout = function (id) {
      if (state.timers.delete(id)) tell();
      return clearTimer.call(this, id);
    };

    // Frames, as timers: counted for two generations (a frame asked for
    // from a frame asked for from an action), so an animation loop is
    // waited for at most that long. Their ids are kept apart from timers'.
    const frame = state.frame;
    const cancelFrame = win.cancelAnimationFrame;
    win.requestAnimationFrame = function (callback) {
      const generation = state.depth + 1;
      if (typeof callback !== 'function' || generation > 2) return frame.call(this, callback);
      const key = {};
      const id = frame.call(this, function (...args) {
        state.timers.delete(key);
        state.frames.delete(id);
        const outer = state.depth;
        state.depth = generation;
        try { return callback.apply(this, args); } finally { state.depth = outer; tell(); }
      });
      state.timers.add(key);
      state.frames.set(id, key);
      tell();
      return id;
    };
    win.cancelAnimationFrame = function (id) {
      const key = state.frames.get(id);
      if (key) {
        state.frames.delete(id);
        state.timers.delete(key);
        tell();
      }
      return cancelFrame.call(this, id);
    };
  };

  const hookAll = (win) => {
    hook(win);
    for (let i = 0; i < win.frames.length; i++) {
      try {
        if (win.frames[i].document) hookAll(win.frames[i]);
      } catch {
        // A cross-origin frame: out of reach.
      }
    }
  };
  hookAll(window);
  return true;
})
