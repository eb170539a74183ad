// The shapes hooks.js and settle.js share, and what settle.js answers
// (`settle.rs` reads it). Checked with `tsc -p tools/src/js`.

/** The names the hooks leave in a page, drawn at random for each process. */
interface HookNames {
  /** `Symbol.for(key)`: the hooks' record on each window they hooked. */
  key: string;
  /** `Symbol.for(settle)`: settle.js's watchers on each window it watches. */
  settle: string;
  /** The event the hooks tell on (and, with "?" after it, are asked on). */
  channel: string;
  /** The early hooks' key: `Symbol.for(early + ".changed")` is when the
   *  document last changed, from its start ({at, stop}). */
  early: string;
}

/** What the hooks keep for one document of a window. */
interface HookState {
  doc: Document;
  requests: number;
  reads: number;
  /** Short timers and animation frames pending (frames by a key of their own). */
  timers: Set<unknown>;
  /** An animation frame's id → its key in `timers`. */
  frames: Map<number, object>;
  /** How many generations deep the callback running now is. */
  depth: number;
  /** When `form.submit()` was last called. */
  submitted: number | null;
  /** The page's own timer and frame functions, before the hooks. */
  setTimer: typeof setTimeout;
  frame: typeof requestAnimationFrame;
}

/** What the hooks tell (the event's JSON detail). */
interface HookReport {
  requests: number;
  reads: number;
  timers: number;
  submitted: number | null;
  /** When the document last changed before settling watched it, as the
   *  early hooks saw from its start (absent where they did not run). */
  changed?: number | null;
  /** The frames painted since that change, as the early hooks counted
   *  them (at most settle.js's FRAMES_QUIET). */
  changedFrames?: number | null;
}

/** What settle.js keeps for one document of a window. */
interface SettleState {
  doc: Document;
  lastChange: number;
  /** The last change before settling watched the document and the
   *  frames painted since, as the early hooks saw them. */
  early: { at: number; frames: number } | null;
  navigating: boolean;
  navigatingSince: number;
  lastStyle: number;
  hooks: HookReport;
  navigationReported: boolean;
  external: boolean;
  submitted: { at: number; event: SubmitEvent } | null;
  /** The open shadow roots found so far, each watched as the document is. */
  roots: ShadowRoot[];
  /** `lastChange` when the roots were last looked for (-1: never). */
  rootsAt: number;
  /** Watches a tree (the document, or a shadow root) for changes. */
  observe: (tree: Node) => void;
}

/** What kept a page from being quiet, as settle.js tells it. */
type BusyCode =
  | "requests"
  | "loading"
  | "navigating"
  | "submitted"
  | "timers"
  | "changing"
  | "animating";

/** settle.js's answer: codes only (settle.rs words them for the model). */
type SettleAnswer =
  | { settled: true; waited: number }
  | { settled: false; waited: number; busy: BusyCode[]; requests: number };
