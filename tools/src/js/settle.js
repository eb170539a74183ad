// @ts-check
// settle.js: waits until the page has finished reacting to an action.
//
// Evaluated as `(SOURCE)(quietMs, capMs, actionMs, names)`, after hooks.js
// (`names` as it was given), in tabwright's
// own script world where the backend has one (the page can neither see nor
// break it there: a page that replaces MutationObserver changes nothing),
// else in the page's. Resolves to
//   { settled: true,  waited }                    the page is quiet, or
//   { settled: false, waited, busy, requests }    the cap came first: what
//                                                 was still going on, as
//                                                 codes (settle.rs words them)
//
// "Quiet" means all of:
//   - the document has loaded (readyState "complete");
//   - what hooks.js reports from the page's world is done: short timers,
//     fetch bodies being read, and (where the backend does not watch
//     requests itself, which the caller then checks) fetches and XHRs;
//   - the DOM's structure and text have not changed for `quietMs`, nor
//     for FRAMES_QUIET painted frames when the change was the action's
//     doing (attribute and style churn, such as an animation, does not
//     count, but see the next);
//   - after an action, no animation it started is still running: a menu
//     sliding open, a date picker fading out (CSS transitions and
//     animations of finite length, and inline styles or classes a script
//     is changing frame by frame, held to the same time and frames), for
//     at most ANIMATION_GRACE_MS, so a page that animates forever costs
//     each action that much and no more;
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
// actions. A document watched for the first time must be still for
// `quietMs` (what it did before is not known); after that, static pages
// answer at once: nothing is pending and the DOM has been still for long.
(
  /**
   * @param {number} quietMs
   * @param {number} capMs
   * @param {number} actionMs  how long ago the action began; -1: no action,
   *   the page is only read
   * @param {HookNames} names
   * @returns {Promise<SettleAnswer>}
   */
  function (quietMs, capMs, actionMs, names) {
  const afterAction = actionMs >= 0;
  const KEY = Symbol.for(names.settle);
  const HOOKS = Symbol.for(names.key);
  const CHANNEL = names.channel;
  // When the browser last saw a download begin in this tab: set in this
  // world by a backend that sees download events (CDP), as the time on
  // this document's clock.
  const DOWNLOAD = Symbol.for("tabwright.download");
  const SUBMIT_GRACE_MS = 1000;
  const ANIMATION_GRACE_MS = 1000;
  // Quiet takes this many painted frames after the last change as well as
  // `quietMs`: what a page does in steps a frame apart (a render, then an
  // opening started in the next frame) is one reaction, however slow the
  // machine draws its frames. Where no frame is drawn for FRAMELESS_MS (a
  // tab in the background), time alone counts.
  const FRAMES_QUIET = 3;
  const FRAMELESS_MS = 100;
  // Schemes whose navigations bring a document; mailto: and the like go to
  // another program.
  const DOCUMENTS = ["http:", "https:", "about:", "data:", "blob:", "file:"];

  // The watchers of one window's current document, installed the first
  // time it is seen. (A frame's first about:blank document hands its window
  // on to the page that replaces it, hence the check of the document.)
  /**
   * @param {Window & typeof globalThis} win
   * @returns {SettleState}
   */
  const watch = (win) => {
    const doc = win.document;
    const own = /** @type {any} */ (win);
    /** @type {SettleState | undefined} */
    const known = own[KEY];
    if (known && known.doc === doc) return known;
    /** @type {SettleState} */
    const state = {
      // Nothing is known of what the document did before it was watched:
      // it must be seen still for a while, as after a change.
      doc, lastChange: performance.now(), early: null, navigating: false, navigatingSince: 0,
      // When an inline style or a class last changed (a script's animation).
      lastStyle: 0,
      // What hooks.js last said of the page's world.
      hooks: { requests: 0, reads: 0, timers: 0, submitted: null },
      // A call gave up while `navigating`: the next call does not wait on it.
      navigationReported: false,
      // The navigation that began last goes to another program (mailto:).
      external: false,
      // When a form submission that will navigate this document was made,
      // and the submit event.
      submitted: null,
      roots: [], rootsAt: -1, observe: () => {},
    };
    Object.defineProperty(win, KEY, { value: state, configurable: true });

    win.addEventListener(CHANNEL, (event) => {
      try { state.hooks = JSON.parse(/** @type {CustomEvent} */ (event).detail); } catch { /* not the hooks' */ }
    });
    win.dispatchEvent(new win.CustomEvent(CHANNEL + "?"));
    // What the early hooks saw from the document's start: still since its
    // last change, not since now. (A page that forged it is read as still
    // for longer, which costs it waiting less, never an answer.)
    const changed = state.hooks.changed;
    if (typeof changed === "number" && Number.isFinite(changed) && changed < state.lastChange) {
      state.lastChange = changed;
      const frames = state.hooks.changedFrames;
      if (typeof frames === "number" && Number.isFinite(frames)) {
        state.early = { at: changed, frames: Math.max(0, Math.min(FRAMES_QUIET, Math.floor(frames))) };
      }
    }

    // A mutation observer on the document does not see into shadow trees:
    // each open shadow root found (`rootsOf`) is observed too.
    const changes = new win.MutationObserver(() => { state.lastChange = performance.now(); });
    // Inline styles a script changes frame by frame, and classes: what
    // kits toggle to run an opening in steps (a popup added at opacity 0,
    // then "enter-start", then "enter-active" a frame or two later, its
    // animation only named in the last).
    const styles = new win.MutationObserver(() => { state.lastStyle = performance.now(); });
    state.observe = (tree) => {
      changes.observe(tree, { subtree: true, childList: true, characterData: true });
      styles.observe(tree, { subtree: true, attributes: true, attributeFilter: ["style", "class"] });
    };
    state.observe(doc);

    // Before a navigation starts, the page is asked whether to leave (also
    // for one the Navigation API below does not tell this page of, such as
    // one a cross-origin frame starts) -- and Chrome asks for a mailto: link
    // too, which leaves the page where it is: the API says where that goes.
    win.addEventListener("beforeunload", () => {
      state.submitted = null;
      if (state.external) {
        state.external = false;
        return;
      }
      state.navigating = true;
      state.navigatingSince = performance.now();
    });
    const navigation = /** @type {any} */ (win).navigation;
    if (navigation) {
      navigation.addEventListener("navigate", (/** @type {any} */ event) => {
        state.submitted = null; // the submission's navigation (or another) began
        state.hooks.submitted = null;
        if (event.destination.sameDocument || event.downloadRequest) return;
        state.external = !DOCUMENTS.includes(new URL(event.destination.url).protocol);
        if (!state.external) {
          state.navigating = true;
          state.navigatingSince = performance.now();
        }
      });
    }

    // A submission navigates this document unless it targets another
    // window or frame, or is a dialog's; whether the page cancels it is
    // read later, from the event, after the page's own handlers ran.
    /**
     * @param {HTMLFormElement} form
     * @param {HTMLElement | null} submitter
     */
    const submits = (form, submitter) => {
      /** @param {string} name */
      const attribute = (name) =>
        (submitter && submitter.hasAttribute("form" + name) ? submitter.getAttribute("form" + name) : null) ??
        form.getAttribute(name);
      const target = (attribute("target") ?? doc.querySelector("base[target]")?.getAttribute("target") ?? "")
        .trim().toLowerCase();
      const method = (attribute("method") ?? "").trim().toLowerCase();
      return method !== "dialog" && (target === "" || target === "_self");
    };
    win.addEventListener("submit", (event) => {
      const submit = /** @type {SubmitEvent} */ (event);
      if (submit.target instanceof win.HTMLFormElement && submits(submit.target, submit.submitter)) {
        state.submitted = { at: performance.now(), event };
      }
    }, true);
    return state;
  };

  // This window and the same-origin frames in it, at any depth, each with
  // its watchers. A cross-origin frame refuses to be read and is passed over.
  /**
   * @param {Window & typeof globalThis} win
   * @param {SettleState[]} into
   * @returns {SettleState[]}
   */
  const watched = (win, into = []) => {
    into.push(watch(win));
    for (let i = 0; i < win.frames.length; i++) {
      /** @type {Window & typeof globalThis} */
      let frame;
      try {
        frame = /** @type {Window & typeof globalThis} */ (win.frames[i]);
        if (!frame.document) continue;
      } catch {
        continue;
      }
      watched(frame, into);
    }
    return into;
  };

  for (const state of watched(window)) {
    if (state.navigationReported) {
      state.navigating = false;
      state.navigationReported = false;
    }
  }
  // The open shadow roots of a document, at any depth: looked for again
  // only after the DOM changed, each new one watched from then on (web
  // components keep their parts, and their animations, in them).
  /** @param {SettleState} state */
  const rootsOf = (state) => {
    if (state.rootsAt === state.lastChange) return state.roots;
    state.rootsAt = state.lastChange;
    const known = new Set(state.roots);
    /** @type {ShadowRoot[]} */
    const roots = [];
    /** @param {Document | ShadowRoot} tree */
    const look = (tree) => {
      for (const element of Array.from(tree.querySelectorAll("*"))) {
        const root = element.shadowRoot;
        if (!root) continue;
        roots.push(root);
        if (!known.has(root)) state.observe(root);
        look(root);
      }
    };
    look(state.doc);
    state.roots = roots;
    return roots;
  };

  // Whether a CSS transition or animation of finite length is running in
  // a document or its shadow trees (an endless one, such as a spinner, is
  // no action's doing). Chromium's document.getAnimations() leaves out
  // what runs in a shadow tree: each root is asked as well.
  /** @param {SettleState} state */
  const animating = (state) => {
    /** @param {Document | ShadowRoot} tree */
    const runs = (tree) => tree.getAnimations().some((animation) => {
      if (animation.playState !== "running" || !animation.effect) return false;
      return Number.isFinite(animation.effect.getComputedTiming().endTime);
    });
    try {
      return runs(state.doc) || rootsOf(state).some(runs);
    } catch {
      return false;
    }
  };

  // Where this runs in the page's world, the page's own timer function
  // (hooks.js wraps the one the page sees, and this script's polling is not
  // the page's doing); in a world of its own, its own.
  /** @type {HookState | undefined} */
  const hooked = /** @type {any} */ (window)[HOOKS];
  /** @param {() => void} callback @param {number} delay */
  const later = (callback, delay) => ((hooked && hooked.setTimer) || setTimeout).call(window, callback, delay);
  /** @param {() => void} callback */
  const nextFrame = (callback) => ((hooked && hooked.frame) || requestAnimationFrame).call(window, callback);

  return new Promise((resolve) => {
    const start = performance.now();
    // Frames drawn since this call began, and when the last one was.
    let frames = 0;
    let frameAt = start;
    let ended = false;
    const tick = () => {
      frames++;
      frameAt = performance.now();
      if (!ended) nextFrame(tick);
    };
    nextFrame(tick);
    /**
     * The frame count to hold a change at `at` to: now's for one this call
     * sees happen; the start's for one since the action began (the page's
     * reaction to it, still under way perhaps); none for an older one.
     * @param {number} at
     */
    const frameOf = (at) => {
      if (at >= start) return frames;
      return afterAction && at >= start - actionMs ? 0 : -FRAMES_QUIET;
    };
    /**
     * Whether a change at `at` is still too recent: within `quietMs`, or
     * fewer than FRAMES_QUIET frames ago while frames are being drawn.
     * @param {number} at  when it was
     * @param {number} frame  the frame count when this call first saw it
     * @param {number} now
     */
    const recent = (at, frame, now) =>
      now - at < quietMs || (frames - frame < FRAMES_QUIET && now - frameAt < FRAMELESS_MS);
    /**
     * The frame count of this call at which it first saw each document's
     * last change and last style change: kept by the call, not the
     * document, since a count means nothing to the next call (which holds
     * a change from before its action to no frames at all).
     * @type {Map<SettleState, {change: number, changeFrame: number, style: number, styleFrame: number}>}
     */
    const seen = new Map();
    /**
     * This call's mark of a document, brought up to its last changes.
     * @param {SettleState} state
     */
    const markOf = (state) => {
      let mark = seen.get(state);
      if (!mark) {
        mark = { change: NaN, changeFrame: 0, style: NaN, styleFrame: 0 };
        seen.set(state, mark);
      }
      if (mark.change !== state.lastChange) {
        mark.change = state.lastChange;
        mark.changeFrame = frameOf(state.lastChange);
        // The early hooks' change, with the frames painted since it
        // counted already (a page that loaded during the navigation).
        if (state.early && state.early.at === state.lastChange && mark.changeFrame === 0) {
          mark.changeFrame = -state.early.frames;
        }
      }
      if (mark.style !== state.lastStyle) {
        mark.style = state.lastStyle;
        mark.styleFrame = frameOf(state.lastStyle);
      }
      return mark;
    };
    const check = () => {
      const now = performance.now();
      const states = watched(window);
      /** @type {Set<BusyCode>} */
      const pending = new Set();
      const requests = states.reduce((sum, state) => sum + state.hooks.requests + state.hooks.reads, 0);
      if (requests > 0) pending.add("requests");
      for (const state of states) {
        if (state.doc.readyState !== "complete") pending.add("loading");
        // A navigation that became a download ends there: the page stays.
        const download = /** @type {any} */ (window)[DOWNLOAD];
        if (state.navigating && typeof download === "number" && download >= state.navigatingSince) {
          state.navigating = false;
        }
        if (state.navigating) pending.add("navigating");
        const submitted = state.submitted;
        if ((submitted && !(submitted.event && submitted.event.defaultPrevented) &&
             now - submitted.at < SUBMIT_GRACE_MS) ||
            (typeof state.hooks.submitted === "number" && now - state.hooks.submitted < SUBMIT_GRACE_MS)) {
          pending.add("submitted");
        }
        if (state.hooks.timers > 0) pending.add("timers");
        const mark = markOf(state);
        if (recent(state.lastChange, mark.changeFrame, now)) pending.add("changing");
        if (afterAction && now - start < ANIMATION_GRACE_MS &&
            (recent(state.lastStyle, mark.styleFrame, now) || animating(state))) {
          pending.add("animating");
        }
      }
      if (pending.size === 0) {
        ended = true;
        return resolve({ settled: true, waited: Math.round(now - start) });
      }
      if (now - start >= capMs) {
        ended = true;
        for (const state of states) state.navigationReported = state.navigating;
        return resolve({ settled: false, waited: Math.round(now - start), busy: [...pending], requests });
      }
      // Held only by the DOM's quiet time: look again the moment it ends,
      // not at the next poll.
      let next = 10;
      if (pending.size === 1 && pending.has("changing")) {
        const ends = Math.max(...states.map((state) => state.lastChange)) + quietMs - now;
        if (ends > 0) next = Math.min(next, Math.ceil(ends));
      }
      later(check, next);
    };
    // After an action, let its own consequences be scheduled first: one
    // frame, or a short timeout where frames do not run (a background tab).
    // Asked only to read the page, look at once.
    let started = false;
    const begin = () => {
      if (started) return;
      started = true;
      // What changes in shadow trees counts from now on.
      try { for (const state of watched(window)) rootsOf(state); } catch { /* a tree refused */ }
      check();
    };
    if (!afterAction) {
      begin();
    } else {
      nextFrame(begin);
      later(begin, 20);
    }
  });
}
)
