// For the type checker only: locate.js (after visibility.js) is the body of
// `async function (operation, selector, extra) { ... }`.
declare const operation: "wait" | "text" | "value" | "focus" | "click";
declare const selector: string;
declare const extra: { visible?: boolean };
