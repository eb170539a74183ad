// settle.js: waits until the page has finished reacting to an action.
//
// Evaluated as `(SOURCE)(quietMs, capMs)`; resolves to
//   { settled: true,  waited }                    the page is quiet, or
//   { settled: false, waited, why }               the cap came first.
//
// "Quiet" means all of:
//   - the document has loaded (readyState "complete");
//   - no fetch or XMLHttpRequest the page started is still in flight (a
//     fetch's body included, when the page reads it);
//   - no short timer (≤ 500 ms) the page set is still pending: a handler
//     that renders "in a moment" is waited for. Only two generations of
//     timers count, so a timer loop cannot hold the page open forever;
//   - the DOM's structure and text have not changed for `quietMs`
//     (attribute and style churn, such as an animation, does not count);
//   - no navigation of this document to another has started: a link click
//     unloads the page, and the caller then settles the new one. A
//     navigation that ends without a new document (a download, a 204) is
//     invisible from here, so one already reported as under way by an
//     earlier call is not waited for again;
//   - no form submitted here is still waiting to navigate: a submission
//     navigates in a task of its own, after the click that submitted it,
//     and until that task runs the page looks quiet (bounded by
//     SUBMIT_GRACE_MS, should the browser drop the submission).
//
// All of it holds in every same-origin frame too (a link clicked in a frame
// navigates the frame, not the page); a cross-origin frame is out of reach
// and not waited for.
//
// The watchers are installed once per document, the first time this runs
// (or sees the frame), and then see everything the page does between two
// actions. Static pages answer at once: nothing is pending and the DOM has
// been still for long.
(function (quietMs, capMs) {
  const KEY = Symbol.for('tabwright.settle');
  const SUBMIT_GRACE_MS = 1000;
  // Schemes whose navigations bring a document; mailto: and the like go to
  // another program.
  const DOCUMENTS = ['http:', 'https:', 'about:', 'data:', 'blob:', 'file:'];

  // The watchers of one window's current document, installed the first
  // time it is seen. (A frame's first about:blank document hands its window
  // on to the page that replaces it, hence the check of the document.)
  const watch = (win) => {
    const doc = win.document;
    let state = win[KEY];
    if (state && state.doc === doc) return state;
    state = {
      doc, requests: 0, timers: new Set(), lastChange: -Infinity, navigating: false, depth: 0,
      // A call gave up while `navigating`: the next call does not wait on it.
      navigationReported: false,
      // The navigation that began last goes to another program (mailto:).
      external: false,
      // When a form submission that will navigate this document was made,
      // and the submit event (null for form.submit(), which fires none).
      submitted: null,
      // The page's own timer function, so this script's polling is not counted.
      setTimer: win.setTimeout,
    };
    Object.defineProperty(win, KEY, { value: state, configurable: true });

    new win.MutationObserver(() => { state.lastChange = performance.now(); })
      .observe(doc, { subtree: true, childList: true, characterData: true });

    // Before a navigation starts, the page is asked whether to leave (also
    // for one the Navigation API below does not tell this page of, such as
    // one a cross-origin frame starts) -- and Chrome asks for a mailto: link
    // too, which leaves the page where it is: the API says where that goes.
    win.addEventListener('beforeunload', () => {
      state.submitted = null;
      if (state.external) {
        state.external = false;
        return;
      }
      state.navigating = true;
    });
    if (win.navigation) {
      win.navigation.addEventListener('navigate', (event) => {
        state.submitted = null; // the submission's navigation (or another) began
        if (event.destination.sameDocument || event.downloadRequest) return;
        state.external = !DOCUMENTS.includes(new URL(event.destination.url).protocol);
        if (!state.external) state.navigating = true;
      });
    }

    // A submission navigates this document unless it targets another
    // window or frame, or is a dialog's; whether the page cancels it is
    // read later, from the event, after the page's own handlers ran.
    const submits = (form, submitter) => {
      const attribute = (name) =>
        (submitter && submitter.hasAttribute('form' + name) ? submitter.getAttribute('form' + name) : null) ??
        form.getAttribute(name);
      const target = (attribute('target') ?? doc.querySelector('base[target]')?.getAttribute('target') ?? '')
        .trim().toLowerCase();
      const method = (attribute('method') ?? '').trim().toLowerCase();
      return method !== 'dialog' && (target === '' || target === '_self');
    };
    win.addEventListener('submit', (event) => {
      if (event.target instanceof win.HTMLFormElement && submits(event.target, event.submitter)) {
        state.submitted = { at: performance.now(), event };
      }
    }, true);
    const submit = win.HTMLFormElement.prototype.submit;
    win.HTMLFormElement.prototype.submit = function (...args) {
      if (submits(this, null)) state.submitted = { at: performance.now(), event: null };
      return submit.apply(this, args);
    };

    const track = (promise) => {
      state.requests++;
      const done = () => { state.requests--; };
      promise.then(done, done);
    };
    const fetch = win.fetch;
    win.fetch = function (...args) {
      const answer = fetch.apply(this, args);
      track(answer);
      return answer;
    };
    // A fetch answers with the headers; what a page renders comes after the
    // body, which is read on. (The body's count starts before the fetch's
    // ends: the page asks for it in the same turn the headers arrive.)
    for (const name of ['text', 'json', 'arrayBuffer', 'blob', 'formData', 'bytes']) {
      const read = win.Response.prototype[name];
      if (typeof read !== 'function') continue;
      win.Response.prototype[name] = function (...args) {
        const answer = read.apply(this, args);
        track(answer);
        return answer;
      };
    }
    const send = win.XMLHttpRequest.prototype.send;
    win.XMLHttpRequest.prototype.send = function (...args) {
      state.requests++;
      this.addEventListener('loadend', () => { state.requests--; }, { once: true });
      try {
        return send.apply(this, args);
      } catch (error) {
        state.requests--; // it never started: no loadend will come
        throw error;
      }
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
        try { return callback.apply(this, args); } finally { state.depth = outer; }
      }, delay, ...rest);
      state.timers.add(id);
      return id;
    };
    win.clearTimeout = function (id) {
      state.timers.delete(id);
      return clearTimer.call(this, id);
    };
    return state;
  };

  // This window and the same-origin frames in it, at any depth, each with
  // its watchers. A cross-origin frame refuses to be read and is passed over.
  const watched = (win, into = []) => {
    into.push(watch(win));
    for (let i = 0; i < win.frames.length; i++) {
      let frame;
      try {
        frame = win.frames[i];
        if (!frame.document) continue;
      } catch {
        continue;
      }
      watched(frame, into);
    }
    return into;
  };

  const top = watch(window);
  for (const state of watched(window)) {
    if (state.navigationReported) {
      state.navigating = false;
      state.navigationReported = false;
    }
  }

  return new Promise((resolve) => {
    const start = performance.now();
    const check = () => {
      const now = performance.now();
      const states = watched(window);
      const pending = new Set();
      const requests = states.reduce((sum, state) => sum + state.requests, 0);
      if (requests > 0) pending.add(requests + ' requests are in flight');
      for (const state of states) {
        if (state.doc.readyState !== 'complete') pending.add('the page is still loading');
        if (state.navigating) pending.add('a navigation is under way');
        const submitted = state.submitted;
        if (submitted && !(submitted.event && submitted.event.defaultPrevented) &&
            now - submitted.at < SUBMIT_GRACE_MS) {
          pending.add('a submitted form has not navigated yet');
        }
        if (state.timers.size > 0) pending.add('timers are pending');
        if (now - state.lastChange < quietMs) pending.add('the page is still changing');
      }
      if (pending.size === 0) return resolve({ settled: true, waited: Math.round(now - start) });
      if (now - start >= capMs) {
        for (const state of states) state.navigationReported = state.navigating;
        return resolve({ settled: false, waited: Math.round(now - start), why: [...pending].join(', ') });
      }
      top.setTimer.call(window, check, 10);
    };
    // Let the action's own consequences be scheduled first: one frame, or a
    // short timeout where frames do not run (a background tab).
    let started = false;
    const begin = () => { if (!started) { started = true; check(); } };
    requestAnimationFrame(begin);
    top.setTimer.call(window, begin, 20);
  });
})
