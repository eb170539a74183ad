//! A Firefox session's frames: which context a frame is, where input at a
//! point or from the keyboard goes (Firefox dispatches BiDi's input in the
//! process of the context it is given, so a frame of another site must be
//! given its own), and the handover of what no script of tabwright's can
//! find by itself (closed shadow roots, `ElementInternals`), from what the
//! sandbox's early hooks kept ([`HOOKS`]).

use driver_core::{Capability, DriverError, Handover, Result, HANDED_AT_MOST};
use serde_json::{json, Value};

use crate::firefox_session::{unless_thrown, FxSession, SANDBOX};

/// How deep frames in frames are followed to find where input goes.
const MAX_FRAME_DEPTH: usize = 8;

/// In tabwright's world of a document: the frame element at (`X_`, `Y_`)
/// of its viewport, as its index among `window.frames` and the point in
/// the frame's own viewport (past its border and padding), or `null`.
/// Input given to a frame of the same site is placed by Firefox where the
/// frame lies unscaled and then hit-tested from the top, transforms and
/// all; one of another site (another process) gets it at the point as
/// given: there the point is in the frame's own pixels, which a transform
/// on the frame scales (its drawn width against its laid-out one). A site
/// is told apart by its host's last two labels (or its address).
const FRAME_AT: &str = "(() => { const element = document.elementFromPoint(X_, Y_); \
    if (!element || !(element instanceof HTMLIFrameElement || element instanceof HTMLFrameElement)) return null; \
    const index = Array.prototype.indexOf.call(Array.from({ length: frames.length }, (_, i) => frames[i]), element.contentWindow); \
    if (index < 0) return null; \
    const box = element.getBoundingClientRect(), style = getComputedStyle(element); \
    const site = (host) => /^[0-9.]+$|^\\[/.test(host) ? host : host.split('.').slice(-2).join('.'); \
    let apart = false; try { apart = site(new URL(element.src, location.href).hostname) !== site(location.hostname); } catch (_) { apart = false; } \
    const scale = apart && element.offsetWidth > 0 && Math.abs(box.width / element.offsetWidth - 1) >= 0.005 ? box.width / element.offsetWidth : 1; \
    return { index, x: (X_ - box.left) / scale - element.clientLeft - parseFloat(style.paddingLeft), \
             y: (Y_ - box.top) / scale - element.clientTop - parseFloat(style.paddingTop) }; })()";

/// In tabwright's world of a document: the index among `window.frames` of
/// the frame element that has the focus, or `null`.
const FOCUSED_FRAME: &str = "(() => { const element = document.activeElement; \
    if (!element || !(element instanceof HTMLIFrameElement || element instanceof HTMLFrameElement)) return null; \
    const index = Array.from({ length: frames.length }, (_, i) => frames[i]).indexOf(element.contentWindow); \
    return index < 0 ? null : index; })()";

/// A preload for the sandbox, before any script of the page's: the page's
/// `attachShadow` and `attachInternals` become proxies of themselves
/// (reading as native code) that keep, in the sandbox, what each call made:
/// a closed shadow root, an element's `ElementInternals`. What Chrome's
/// DevTools hands over, Firefox's sandbox holds itself. The proxies'
/// handlers are objects of the page's realm (a sandbox object's traps
/// are out of its sight), whose functions are the sandbox's; what they
/// wrap may be the page's own proxy (driver-core's early hooks), which the
/// sandbox sees only through its waiver, and what they keep is kept as the
/// sandbox sees the page (through its own views, which no page script
/// changes).
pub(crate) const HOOKS: &str = "() => { const page = window.wrappedJSObject; \
    if (!page || globalThis.__tabwrightKept) return; \
    const kept = { roots: new WeakMap(), internals: new WeakMap() }; \
    Object.defineProperty(globalThis, '__tabwrightKept', { value: kept }); \
    const hook = (owner, name, into) => { const original = owner && owner[name]; \
      if (typeof original !== 'function') return; \
      const handler = new page.Object(); \
      handler.apply = function (target, self, args) { \
        const made = Reflect.apply(XPCNativeWrapper.unwrap(target), self, XPCNativeWrapper.unwrap(args)); \
        try { into.set(XPCNativeWrapper(self), XPCNativeWrapper(made)); } catch (_) {} return made; }; \
      owner[name] = new page.Proxy(original, handler); }; \
    hook(page.Element.prototype, 'attachShadow', kept.roots); \
    hook(page.HTMLElement && page.HTMLElement.prototype, 'attachInternals', kept.internals); }";

/// In the sandbox, called with the elements handed over: gives `receive`
/// (`RECEIVE_`) the facts of each (from its `ElementInternals`, where
/// `ACCESSIBLE_`: its role, label and states, named and typed as
/// Chromium's tree gives them) and each element with its closed root (or
/// the one Firefox shows a privileged script, for a root no hook saw), as
/// [`Handover`](driver_core::Handover) says.
const HAND_OVER: &str = "function (...elements) { const kept = globalThis.__tabwrightKept; \
    const facts = [], nodes = []; \
    const named = [['checked', 'ariaChecked'], ['selected', 'ariaSelected'], ['expanded', 'ariaExpanded'], \
      ['pressed', 'ariaPressed'], ['disabled', 'ariaDisabled'], ['required', 'ariaRequired'], ['level', 'ariaLevel'], \
      ['valuenow', 'ariaValueNow'], ['valuetext', 'ariaValueText']]; const told = ['checked', 'pressed', 'valuetext']; \
    for (const element of elements) { \
      const internals = kept && kept.internals.get(element); let fact = null; \
      if (ACCESSIBLE_ && internals) { const states = {}; \
        for (const [name, property] of named) { const value = internals[property]; \
          if (value === null || value === undefined) continue; \
          states[name] = name === 'level' || name === 'valuenow' ? Number(value) : told.includes(name) ? value : value === 'true'; } \
        const role = internals.role || '', name = internals.ariaLabel || ''; \
        if (role || name || Object.keys(states).length) \
          fact = { role, name, from: name ? 'attribute' : '', ignored: false, states }; } \
      facts.push(fact); nodes.push(element, (kept && kept.roots.get(element)) || element.openOrClosedShadowRoot || undefined); } \
    return (RECEIVE_).call(this, facts, ...nodes); }";

impl FxSession {
    /// The context of the frame at `path` (`window.frames` indices) in the
    /// current tab: each child context in document order.
    pub(crate) async fn context_at(&self, path: &[u32]) -> Result<String> {
        if path.is_empty() {
            return Ok(self.current.clone());
        }
        let tree = self
            .call("browsingContext.getTree", json!({ "root": self.current }))
            .await?;
        let mut node = tree["contexts"][0].clone();
        for index in path {
            node = node["children"][*index as usize].clone();
            if node.is_null() {
                return Err(DriverError::FrameUnreachable {
                    path: format!("{path:?}"),
                    reason: "there is no such frame".to_owned(),
                });
            }
        }
        Ok(node["context"].as_str().unwrap_or_default().to_owned())
    }

    /// The context whose document an event at (`x`, `y`) of the viewport
    /// reaches, and the point in its own viewport. Firefox dispatches
    /// BiDi's input in the process of the context it is given, so a click
    /// over a frame of another site (another process) must be given to the
    /// frame's context: the page is asked, frame by frame, in tabwright's
    /// world, what lies at the point.
    pub(crate) async fn at_point(&self, x: f64, y: f64) -> Result<(String, f64, f64)> {
        let mut found = (self.current.clone(), x, y);
        let mut tree: Option<Value> = None;
        for _ in 0..MAX_FRAME_DEPTH {
            let (context, x, y) = &found;
            // A document that cannot be asked (it is going away) keeps
            // the input where it was found so far.
            let inner = self
                .evaluate(
                    context,
                    true,
                    &FRAME_AT
                        .replace("X_", &x.to_string())
                        .replace("Y_", &y.to_string()),
                )
                .await
                .unwrap_or_default();
            let (Some(index), Some(x), Some(y)) = (
                inner["index"].as_u64(),
                inner["x"].as_f64(),
                inner["y"].as_f64(),
            ) else {
                break;
            };
            let Some(child) = self.child(&mut tree, context, index).await? else {
                break;
            };
            found = (child, x, y);
        }
        Ok(found)
    }

    /// The context whose document has the focus: where keys go, a frame's
    /// of another site included (see [`at_point`](Self::at_point)).
    pub(crate) async fn focused(&self) -> Result<String> {
        let mut context = self.current.clone();
        let mut tree: Option<Value> = None;
        for _ in 0..MAX_FRAME_DEPTH {
            let index = self
                .evaluate(&context, true, FOCUSED_FRAME)
                .await
                .unwrap_or_default();
            let Some(index) = index.as_u64() else {
                break;
            };
            let Some(child) = self.child(&mut tree, &context, index).await? else {
                break;
            };
            context = child;
        }
        Ok(context)
    }

    /// Child number `index` of `context` in the current tab's tree
    /// (`tree`, asked for once).
    pub(crate) async fn child(
        &self,
        tree: &mut Option<Value>,
        context: &str,
        index: u64,
    ) -> Result<Option<String>> {
        if tree.is_none() {
            *tree = Some(
                self.call("browsingContext.getTree", json!({ "root": self.current }))
                    .await?,
            );
        }
        fn find<'a>(node: &'a Value, context: &str) -> Option<&'a Value> {
            if node["context"] == context {
                return Some(node);
            }
            node["children"]
                .as_array()?
                .iter()
                .find_map(|child| find(child, context))
        }
        let root = tree.as_ref().map(|tree| &tree["contexts"][0]);
        Ok(root
            .and_then(|root| find(root, context))
            .and_then(|node| node["children"].get(usize::try_from(index).ok()?))
            .and_then(|child| child["context"].as_str())
            .map(str::to_owned))
    }

    /// A handover ([`Handover`]) in the frame it names: the page's realm
    /// lists the elements (as nodes BiDi can hand between realms), and the
    /// sandbox gives `receive` what its early hooks kept of each. The words
    /// CSS counts come from Chromium's accessibility tree alone: asked for,
    /// they are `Unsupported`.
    pub(crate) async fn handover(&self, handover: &Handover) -> Result<Value> {
        if handover.generated {
            return Err(FxSession::unsupported(
                Capability::CountedWords,
                "the words CSS counts are read from Chromium's accessibility tree, which Firefox has not",
            ));
        }
        let context = self.context_at(&handover.frame).await?;
        let listed = self
            .call(
                "script.evaluate",
                json!({ "expression": handover.elements, "target": { "context": context },
                        "awaitPromise": true, "serializationOptions": { "maxDomDepth": 0 } }),
            )
            .await?;
        unless_thrown(&listed, "the list threw")?;
        let nodes: Vec<Value> = listed["result"]["value"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|node| node["sharedId"].as_str())
            .take(HANDED_AT_MOST)
            .map(|shared| json!({ "sharedId": shared }))
            .collect();
        let function = HAND_OVER
            .replace(
                "ACCESSIBLE_",
                if handover.accessible { "true" } else { "false" },
            )
            .replace("RECEIVE_", &handover.receive);
        let answer = self
            .call(
                "script.callFunction",
                json!({ "functionDeclaration": function, "arguments": nodes, "awaitPromise": true,
                        "target": { "context": context, "sandbox": SANDBOX } }),
            )
            .await?;
        unless_thrown(&answer, "the handover threw")?;
        Ok(local(&answer["result"]))
    }
}

/// A BiDi remote value as plain JSON (what `receive` returns is small:
/// numbers, strings, lists, objects of them).
fn local(remote: &Value) -> Value {
    match remote["type"].as_str() {
        Some("number" | "string" | "boolean") => remote["value"].clone(),
        Some("array") => Value::Array(
            remote["value"]
                .as_array()
                .into_iter()
                .flatten()
                .map(local)
                .collect(),
        ),
        Some("object") => Value::Object(
            remote["value"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|pair| Some((pair[0].as_str()?.to_owned(), local(&pair[1]))))
                .collect(),
        ),
        _ => Value::Null,
    }
}
