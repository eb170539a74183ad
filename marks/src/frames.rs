//! Reading a page across its frames: the top document (or a scope's), and
//! every cross-origin frame in it at any depth, read through the backend
//! and spliced in where each frame stands.

use std::collections::HashMap;

use driver_core::{Capability, Driver};

use crate::page::{self, Answer, Code, FrameAnswer, WireElement, WireItem, WirePoint};
use crate::request::{FrameFields, Handlers, Query, Reading, Request, Size};
use crate::snapshot::{Element, SnapshotOptions, MARGIN, PICTURED_FULL};
use crate::MarksError;

/// How deep cross-origin frames are followed inside each other.
pub(crate) const MAX_FRAME_DEPTH: usize = 5;

/// What a walk of the page is for.
#[derive(Debug, Clone)]
pub(crate) enum Asked {
    /// A snapshot.
    Page,
    /// A search.
    Find(Query),
    /// A reading of the text: the main content, or with `whole` all of the
    /// page (or the scope).
    Read { whole: bool },
}

/// One frame's document as a snapshot read it: where it is, and its
/// elements.
pub(crate) struct FrameRead {
    pub(crate) path: Vec<u32>,
    pub(crate) doc: String,
    pub(crate) elements: Vec<Element>,
}

/// A line of the page before it is numbered: an item of a frame's
/// answer, or a frame that could not be read and why.
pub(crate) enum ReadLine {
    Item(WireItem),
    Unreachable(String, String),
    /// A cross-origin frame's content begins (its origin) or ends.
    FrameBegins(String),
    FrameEnds(String),
}

/// The frames a snapshot read (the top one first) and their items in
/// reading order, each with the index of its frame; and why the text in
/// view was judged by its style, if it was.
pub(crate) struct FramesRead {
    pub(crate) frames: Vec<FrameRead>,
    pub(crate) lines: Vec<(ReadLine, usize)>,
    pub(crate) unjudged: Option<String>,
}

/// All of a frame's elements: those described, and those beyond the scope
/// as counted, not described.
fn elements_of(answer: &mut FrameAnswer) -> Vec<Element> {
    let described = std::mem::take(&mut answer.elements)
        .into_iter()
        .map(WireElement::into_element);
    let counted = answer
        .beyond
        .drain(..)
        .map(|(local, role, x, y, width, height)| Element {
            local,
            role,
            rect: crate::Rect {
                x,
                y,
                width,
                height,
            },
            offscreen: true,
            ..Element::default()
        });
    described.chain(counted).collect()
}

/// Whose words a cross-origin frame holds: its origin, or for an opaque
/// one (a sandboxed frame, a `data:` document) the start of its address.
fn frame_origin(frame: &FrameAnswer) -> String {
    if frame.origin != "null" && !frame.origin.is_empty() {
        return frame.origin.clone();
    }
    crate::text::cut(frame.url.untrusted(), 60).into_owned()
}

/// Reads one frame's document (the top one for an empty path).
pub(crate) async fn read_frame(
    driver: &dyn Driver,
    path: &[u32],
    request: Request,
) -> Result<Answer<FrameAnswer>, MarksError> {
    page::run::<FrameAnswer>(driver, path, &request).await
}

/// A cross-origin frame as it was read: its answer, or why it could not
/// be.
type FrameResult = Result<FrameAnswer, String>;

/// Reads the cross-origin frames the top document holds, at any depth;
/// with `memory` (what pictures found before), has the pictures judge the text in view of every frame
/// read (see `seen`) and the walks finished with what they found; then
/// splices the frames' items in where each frame stands (a stack of
/// iterators, innermost on top); a frame that cannot be read is a line
/// saying why.
pub(crate) async fn read_frames(
    driver: &dyn Driver,
    top: &mut FrameAnswer,
    path: Vec<u32>,
    options: SnapshotOptions,
    asked: &Asked,
    memory: Option<&parking_lot::Mutex<crate::seen::Memory>>,
) -> Result<FramesRead, MarksError> {
    let mut inner = read_inner(driver, top, options, asked, memory.is_some()).await;
    let unjudged = match memory {
        Some(memory) => judge_frames(driver, top, &path, &mut inner, memory).await?,
        None => None,
    };
    let mut read = splice(top, path, inner);
    read.unjudged = unjudged;
    Ok(read)
}

/// Every cross-origin frame at any depth inside `top`, read (with
/// `judge`, its walk kept for the pictures), by path.
async fn read_inner(
    driver: &dyn Driver,
    top: &FrameAnswer,
    options: SnapshotOptions,
    asked: &Asked,
    judge: bool,
) -> HashMap<Vec<u32>, FrameResult> {
    let viewport = top.viewport;
    let mut read = HashMap::new();
    let mut waiting: Vec<(Vec<u32>, WirePoint, usize)> = frames_in(top, 0);
    while let Some((frame_path, offset, depth)) = waiting.pop() {
        if read.contains_key(&frame_path) {
            continue;
        }
        if depth > MAX_FRAME_DEPTH {
            read.insert(frame_path, Err("frames nested too deep".to_owned()));
            continue;
        }
        let handlers = property_handlers(driver, &frame_path).await;
        let frame = frame_fields(
            &frame_path,
            offset,
            Some((viewport.w, viewport.h)),
            handlers,
            judge.then_some(driver),
        );
        let request = snapshot_request(options, None, frame, asked);
        let answer = match read_frame(driver, &frame_path, request).await {
            Ok(Answer::Done(frame)) => {
                waiting.extend(frames_in(&frame, depth));
                Ok(frame)
            }
            Ok(Answer::Refused(refusal)) => Err(match refusal.error {
                Code::Loading => "it is still loading".to_owned(),
                other => format!("it answered {other:?}"),
            }),
            Err(error) => Err(error.to_string()),
        };
        read.insert(frame_path, answer);
    }
    read
}

/// The cross-origin frames an answer lists, with where their documents
/// are and how deep they lie.
fn frames_in(answer: &FrameAnswer, depth: usize) -> Vec<(Vec<u32>, WirePoint, usize)> {
    answer
        .items
        .iter()
        .filter_map(|item| match item {
            WireItem::Frame { path, offset, .. } => Some((path.clone(), *offset, depth + 1)),
            _ => None,
        })
        .collect()
}

/// Has the pictures judge the text in view of the top document and of
/// every frame read, and finishes each walk that waits with what they
/// found (by its style, where no pictures could be taken).
async fn judge_frames(
    driver: &dyn Driver,
    top: &mut FrameAnswer,
    path: &[u32],
    inner: &mut HashMap<Vec<u32>, FrameResult>,
    memory: &parking_lot::Mutex<crate::seen::Memory>,
) -> Result<Option<String>, MarksError> {
    let waiting: Vec<Vec<u32>> = std::iter::once(path.to_vec())
        .chain(
            inner
                .iter()
                .filter(|(_, answer)| answer.as_ref().is_ok_and(|frame| frame.runs.is_some()))
                .map(|(frame_path, _)| frame_path.clone()),
        )
        .filter(|frame_path| frame_path != path || top.runs.is_some())
        .collect();
    if waiting.is_empty() {
        return Ok(None);
    }
    let answer_of = |frame_path: &Vec<u32>| -> Option<&FrameAnswer> {
        if frame_path == path {
            Some(&*top)
        } else {
            inner
                .get(frame_path)
                .and_then(|answer| answer.as_ref().ok())
        }
    };
    let walks: Vec<crate::seen::Walked<'_>> = waiting
        .iter()
        .filter_map(|frame_path| {
            let answer = answer_of(frame_path)?;
            Some(crate::seen::Walked {
                path: frame_path,
                doc: &answer.doc,
                epoch: answer.epoch,
                runs: answer.runs.as_deref()?,
                ghosts: &answer.ghosts,
            })
        })
        .collect();
    let view = crate::seen::View::new(
        top.viewport.w as f64,
        top.viewport.h as f64,
        top.reach.unwrap_or_default(),
        driver
            .capabilities()
            .supports(Capability::PicturesBeyondViewport),
    )
    .framed(
        driver
            .capabilities()
            .supports(Capability::CompositedPictures),
    )
    .within(
        top.page.w as f64 - top.scroll.x,
        top.page.h as f64 - top.scroll.y,
    );
    let (verdicts, unjudged): (Vec<Option<crate::seen::Verdict>>, _) =
        match crate::seen::judge(driver, &walks, view, memory).await {
            Ok(found) => (found.into_iter().map(Some).collect(), None),
            Err(why) => (vec![None; walks.len()], Some(why.0)),
        };
    let finishing: Vec<(Vec<u32>, Option<crate::seen::Verdict>)> = walks
        .iter()
        .map(|walk| walk.path.to_vec())
        .zip(verdicts)
        .collect();
    for (frame_path, verdict) in finishing {
        if verdict.as_ref().is_some_and(|verdict| {
            verdict.hidden.is_empty()
                && verdict.bare.is_empty()
                && verdict.undecided.is_empty()
                && verdict.placed.is_empty()
                && verdict.cut.is_empty()
        }) {
            continue;
        }
        let finished = match page::finish(driver, &frame_path, verdict.as_ref()).await? {
            Answer::Done(finished) => finished,
            Answer::Refused(_) => {
                return Err(MarksError::Script(
                    "the page changed while its text was judged".to_owned(),
                ))
            }
        };
        if frame_path == path {
            *top = finished;
        } else {
            inner.insert(frame_path, Ok(finished));
        }
    }
    Ok(unjudged)
}

/// The lines of the top document with the frames' spliced in where each
/// stands.
fn splice(
    top: &mut FrameAnswer,
    path: Vec<u32>,
    mut inner: HashMap<Vec<u32>, FrameResult>,
) -> FramesRead {
    let mut frames = vec![FrameRead {
        path,
        doc: top.doc.clone(),
        elements: elements_of(top),
    }];
    let mut lines: Vec<(ReadLine, usize)> = Vec::new();
    // Each frame being read: its items, its index, and (for a cross-origin
    // frame) the origin whose words they are.
    let mut stack = vec![(
        std::mem::take(&mut top.items).into_iter(),
        0usize,
        None::<String>,
    )];
    while let Some((mut items, index, origin)) = stack.pop() {
        let Some(item) = items.next() else {
            if let Some(origin) = origin {
                lines.push((ReadLine::FrameEnds(origin), index));
            }
            continue;
        };
        let WireItem::Frame {
            path: frame_path,
            src,
            ..
        } = item
        else {
            lines.push((ReadLine::Item(item), index));
            stack.push((items, index, origin));
            continue;
        };
        stack.push((items, index, origin));
        match inner.remove(&frame_path) {
            Some(Ok(mut frame)) => {
                let from = frame_origin(&frame);
                frames.push(FrameRead {
                    path: frame_path,
                    elements: elements_of(&mut frame),
                    doc: frame.doc,
                });
                lines.push((ReadLine::FrameBegins(from.clone()), frames.len() - 1));
                stack.push((frame.items.into_iter(), frames.len() - 1, Some(from)));
            }
            Some(Err(problem)) => lines.push((ReadLine::Unreachable(src, problem), index)),
            None => lines.push((
                ReadLine::Unreachable(src, "it was not read".to_owned()),
                index,
            )),
        }
    }
    FramesRead {
        frames,
        lines,
        unjudged: None,
    }
}

/// What every read of one frame tells the walker: where the frame is
/// (its path, its offset in the top viewport, the top viewport for a frame
/// below it), which elements have click handlers its world cannot see,
/// and whether pictures judge the text in view.
pub(crate) fn frame_fields(
    path: &[u32],
    offset: WirePoint,
    viewport: Option<(i64, i64)>,
    handlers: Option<Handlers>,
    judge: Option<&dyn Driver>,
) -> FrameFields {
    let capabilities = judge.map(|driver| driver.capabilities());
    let supports = |capability| {
        capabilities
            .as_ref()
            .is_some_and(|capabilities| capabilities.supports(capability))
    };
    let composited = supports(Capability::CompositedPictures);
    let beyond = supports(Capability::PicturesBeyondViewport);
    FrameFields {
        offset: Some(offset),
        viewport: viewport.map(|(w, h)| Size { w, h }),
        path: Some(path.to_vec()),
        margin: Some(MARGIN),
        handlers,
        listeners: Some(driver_core::listeners_key().to_owned()),
        judge: judge.is_some().then_some(true),
        composited: (judge.is_some() && !composited).then_some(false),
        pictured: beyond.then_some(MARGIN),
    }
}

/// What the walker is asked for a snapshot (or a search, or a reading) of
/// one frame.
pub(crate) fn snapshot_request(
    options: SnapshotOptions,
    scope: Option<u32>,
    mut frame: FrameFields,
    asked: &Asked,
) -> Request {
    // The whole page is pictured further, as far as its bound.
    if options.full_page && !matches!(asked, Asked::Find(_)) {
        frame.pictured = frame.pictured.map(|_| PICTURED_FULL);
    }
    match asked {
        Asked::Page => Request::Snapshot {
            frame,
            full: options.full_page,
            scope,
        },
        Asked::Find(query) => Request::Find {
            frame,
            find: query.clone(),
        },
        Asked::Read { whole } => Request::Read {
            frame,
            read: if *whole { Reading::All } else { Reading::Main },
            full: options.full_page,
            scope,
        },
    }
}

/// Where the walker runs in a world of its own it cannot see a click
/// handler a page script set as a property (`button.onclick = …`) or a
/// listener it added (recorded by the early hooks, `driver_core::listeners_js`):
/// the page's world is asked which elements have one, by their places in
/// document order. Only a hint; if the page breaks the question, none.
///
/// Nor can it read a closed shadow root or what a custom element declared
/// through `ElementInternals`: where the early hooks list such elements,
/// they are handed over to it ([`Driver::hand_over`]) with their closed
/// roots and what Chromium's accessibility tree says of them.
pub(crate) async fn property_handlers(driver: &dyn Driver, path: &[u32]) -> Option<Handlers> {
    static FIND: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        format!(
            "(() => {{ const onclick = [], listened = []; \
            const all = document.getElementsByTagName('*'); \
            const kept = window[Symbol.for({key:?})]; \
            const record = kept && typeof kept.has === 'function' ? kept : null; \
            {tree} {unseen} {counted} let unseenCount = 0; \
            for (let i = 0; i < all.length; i++) {{ \
              if (typeof all[i].onclick === 'function') onclick.push(i); \
              if (record && record.has(all[i])) listened.push(i); \
              if (unseenCount < {most} && isUnseen(all[i])) unseenCount++; }} \
            return {{ onclick, listened, tree: listed.length, unseen: unseenCount, \
              counted: (() => {{ try {{ return counted().length; }} catch (error) {{ return 0; }} }})() }}; }})()",
            key = driver_core::listeners_key(),
            tree = listed_for_handover(),
            unseen = UNSEEN,
            counted = COUNTED,
            most = UNSEEN_ROOTS_ASKED,
        )
    });
    if !driver.capabilities().supports(Capability::IsolatedWorld) {
        return None;
    }
    let found = if path.is_empty() {
        driver.eval(&FIND).await
    } else {
        driver.eval_in_frame(path, &FIND).await
    };
    let handlers: Handlers = found
        .ok()
        .and_then(|found| serde_json::from_value(found).ok())?;
    let capabilities = driver.capabilities();
    if (handlers.tree > 0 || handlers.unseen > 0 || handlers.counted > 0)
        && capabilities.supports(Capability::BrowserTree)
    {
        let counted = capabilities.supports(Capability::CountedWords);
        hand_over(driver, path, &handlers, counted).await;
    }
    Some(handlers)
}

/// A statement for the page's world that makes `listed`: the connected
/// elements the early hooks list for a handover (closed shadow roots'
/// hosts, elements given `ElementInternals`).
fn listed_for_handover() -> String {
    format!(
        "const tree = window[Symbol.for({key:?})]; \
         const listed = tree && Array.isArray(tree.hosts) ? tree.hosts.map((held) => held.deref()) \
           .filter((element) => element && element.isConnected) : [];",
        key = format!("{}.tree", driver_core::listeners_key()),
    )
}

/// The most custom elements of a document asked about at once for a
/// closed root no script made.
const UNSEEN_ROOTS_ASKED: usize = 64;

/// A statement for the page's world, after [`listed_for_handover`]'s, that
/// makes `isUnseen`: whether an element is a custom element never asked
/// about whose root, if any, no script sees and no hook saw made (a closed
/// root the parser made from `<template shadowrootmode="closed">`), for
/// DevTools to find the root of, once each.
const UNSEEN: &str =
    "const asked = tree && tree.listed ? (tree.asked || (tree.asked = new WeakSet())) : null; \
    const isUnseen = (element) => asked !== null && element.localName.includes('-') \
      && element.shadowRoot === null && !tree.listed.has(element) && !asked.has(element);";

/// A statement for the page's world that makes `counted`: the elements
/// (at most [`driver_core::HANDED_AT_MOST`]) whose `::before`, `::after`
/// or `::marker` a readable sheet gives words no script can read: a
/// `counter()` or `counters()`, a marker's own `content`, a list style
/// the walker does not number itself (`js/semantics.js`'s `ORDINALS`: the
/// elements the rule names and their list items). The
/// browser is asked for their words ([`driver_core::Generated`]).
const COUNTED: &str = "const counted = () => { \
    const pseudo = /::?(?:before|after|marker)\\b/i, pseudoAll = /::?(?:before|after|marker)\\b/gi; \
    const plain = /^(?:|disc|circle|square|none|decimal|decimal-leading-zero|lower-alpha|upper-alpha|lower-latin|upper-latin|lower-roman|upper-roman|inherit|initial|unset|revert|revert-layer)$/; \
    const hosts = []; \
    const host = (list) => list.split(',').map((part) => { const bare = part.replace(pseudoAll, '').trim(); \
      return bare === '' || /[>+~]$/.test(bare) ? bare + ' *' : bare; }).join(','); \
    const read = (rules) => { for (const rule of Array.from(rules)) { \
      if (typeof rule.selectorText === 'string') { \
        const content = rule.style.content || '', listed = rule.style.listStyleType || ''; \
        if ((pseudo.test(rule.selectorText) && /counters?\\(/.test(content)) \
            || (/::marker\\b/i.test(rule.selectorText) && content !== '' && content !== 'normal')) \
          hosts.push(host(rule.selectorText)); \
        if (!plain.test(listed)) hosts.push(host(rule.selectorText), \
          rule.selectorText.split(',').map((part) => part.trim() + ' > li').join(',')); \
        if (rule.cssRules && rule.cssRules.length) read(rule.cssRules); \
      } else if (rule.styleSheet) { try { read(rule.styleSheet.cssRules); } catch (error) {} } \
      else if (rule.cssRules) read(rule.cssRules); } }; \
    for (const sheet of [...Array.from(document.styleSheets), ...Array.from(document.adoptedStyleSheets || [])]) { \
      try { read(sheet.cssRules); } catch (error) {} } \
    const found = new Set(); \
    for (const selector of hosts) { try { for (const element of document.querySelectorAll(selector)) { \
      if (found.size >= 200) break; found.add(element); } } catch (error) {} } \
    return Array.from(found); };";

/// Hands the elements the early hooks list in the frame at `path` over to
/// the walker's world (see [`property_handlers`]); the words CSS counts
/// only where the browser can give them (`counted`). Where it cannot be
/// done, the walker reads what it reads without it.
async fn hand_over(driver: &dyn Driver, path: &[u32], handlers: &Handlers, counted: bool) {
    if handlers.tree > 0 {
        let handover = driver_core::Handover {
            frame: path.to_vec(),
            elements: format!("(() => {{ {} return listed; }})()", listed_for_handover()),
            receive: RECEIVE.to_owned(),
            accessible: true,
            generated: false,
        };
        let _ = driver.hand_over(&handover).await;
    }
    // The custom elements no hook saw given a root: their closed roots, if
    // DevTools finds any, kept for good; nothing else of them (what the
    // walker reads of a light-DOM element stays its own).
    if handlers.unseen > 0 {
        let handover = driver_core::Handover {
            frame: path.to_vec(),
            // Each noted as asked as it is handed over.
            elements: format!(
                "(() => {{ {} {UNSEEN} const unseen = []; \
                 const every = document.getElementsByTagName('*'); \
                 for (let i = 0; i < every.length && unseen.length < {UNSEEN_ROOTS_ASKED}; i++) \
                   if (isUnseen(every[i])) {{ asked.add(every[i]); unseen.push(every[i]); }} \
                 return unseen; }})()",
                listed_for_handover(),
            ),
            receive: RECEIVE_ROOTS.to_owned(),
            accessible: false,
            generated: false,
        };
        let _ = driver.hand_over(&handover).await;
    }
    // The words CSS counts, fresh each read (what was counted before may
    // have changed); kept apart from the facts above.
    if handlers.counted > 0 && counted {
        let handover = driver_core::Handover {
            frame: path.to_vec(),
            elements: format!("(() => {{ {COUNTED} return counted(); }})()"),
            receive: RECEIVE_GENERATED.to_owned(),
            accessible: false,
            generated: true,
        };
        let _ = driver.hand_over(&handover).await;
    }
}

/// A function that receives a handover in tabwright's world: `$body`
/// after the record of what was handed (`__tabwrightHanded`, which
/// driver-core's `visibility.js` reads as `handed`) is found on this
/// world's window, or made there.
macro_rules! receiver {
    ($body:literal) => {
        concat!(
            "function (facts, ...nodes) { \
             let kept = window.__tabwrightHanded; \
             if (!kept) { kept = { roots: new WeakMap(), facts: new WeakMap() }; \
               Object.defineProperty(window, '__tabwrightHanded', { value: kept, configurable: true }); } ",
            $body,
            " }"
        )
    };
}

/// What receives the words of the pseudo-elements of elements that show
/// words CSS counts: kept by element until the next such handover, under
/// the key driver-core's `visibility.js` reads them by (`handed`).
const RECEIVE_GENERATED: &str = receiver!(
    "kept.generated = new WeakMap(); \
    facts.forEach((fact, i) => { if (fact && fact.generated) kept.generated.set(nodes[2 * i], fact.generated); }); \
    return facts.length;"
);

/// What receives the roots of custom elements no hook saw given one: each
/// found kept by host, as [`RECEIVE`] keeps them.
const RECEIVE_ROOTS: &str = receiver!(
    "let found = 0; \
    facts.forEach((_, i) => { const host = nodes[2 * i], root = nodes[2 * i + 1]; \
      if (root) { kept.roots.set(host, root); found++; } }); \
    return found;"
);

/// What receives a handover in the walker's world: the closed roots kept
/// by host for good, the accessibility facts of this handover alone, under
/// the key driver-core's `visibility.js` reads them by (`handed`).
const RECEIVE: &str = receiver!(
    "kept.facts = new WeakMap(); \
    facts.forEach((fact, i) => { const host = nodes[2 * i], root = nodes[2 * i + 1]; \
      if (root) kept.roots.set(host, root); if (fact) kept.facts.set(host, fact); }); \
    return facts.length;"
);

#[cfg(test)]
mod tests {
    #[test]
    fn a_handover_is_received_where_the_judge_reads_it() {
        // driver-core's visibility.js reads the closed roots and facts
        // under the key the receiving function writes.
        assert!(super::RECEIVE.contains("window.__tabwrightHanded"));
        assert!(super::RECEIVE_ROOTS.contains("window.__tabwrightHanded"));
        assert!(driver_core::VISIBILITY_JS.contains("window).__tabwrightHanded"));
    }
}
