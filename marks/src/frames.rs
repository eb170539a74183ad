//! Reading a page across its frames: the top document (or a scope's), and
//! every cross-origin frame in it at any depth, read through the backend
//! and spliced in where each frame stands.

use driver_core::{Capability, Driver};

use crate::page::{self, Answer, Code, FrameAnswer, WireElement, WireItem, WirePoint};
use crate::request::{FrameFields, Handlers, Query, Reading, Request, Size};
use crate::snapshot::{Element, SnapshotOptions, MARGIN};
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
/// reading order, each with the index of its frame.
pub(crate) struct FramesRead {
    pub(crate) frames: Vec<FrameRead>,
    pub(crate) lines: Vec<(ReadLine, usize)>,
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
    crate::text::cut(&frame.url, 60).into_owned()
}

/// Reads one frame's document (the top one for an empty path).
pub(crate) async fn read_frame(
    driver: &dyn Driver,
    path: &[u32],
    request: Request,
) -> Result<Answer<FrameAnswer>, MarksError> {
    page::run::<FrameAnswer>(driver, path, &request).await
}

/// Reads the cross-origin frames the top document holds, at any depth, and
/// splices their items in where each frame stands (a stack of iterators,
/// innermost on top); a frame that cannot be read is a line saying why.
pub(crate) async fn read_frames(
    driver: &dyn Driver,
    top: &mut FrameAnswer,
    path: Vec<u32>,
    options: SnapshotOptions,
    asked: &Asked,
) -> FramesRead {
    let viewport = top.viewport;
    let mut frames = vec![FrameRead {
        path,
        doc: top.doc.clone(),
        elements: elements_of(top),
    }];
    let mut lines: Vec<(ReadLine, usize)> = Vec::new();
    // Each frame being read: its items, its index, its depth, and (for a
    // cross-origin frame) the origin whose words they are.
    let mut stack = vec![(
        std::mem::take(&mut top.items).into_iter(),
        0usize,
        0usize,
        None::<String>,
    )];
    while let Some((mut items, index, depth, origin)) = stack.pop() {
        let Some(item) = items.next() else {
            if let Some(origin) = origin {
                lines.push((ReadLine::FrameEnds(origin), index));
            }
            continue;
        };
        let WireItem::Frame {
            path: frame_path,
            src,
            offset,
            ..
        } = item
        else {
            lines.push((ReadLine::Item(item), index));
            stack.push((items, index, depth, origin));
            continue;
        };
        stack.push((items, index, depth, origin));
        if depth >= MAX_FRAME_DEPTH {
            let problem = "frames nested too deep".to_owned();
            lines.push((ReadLine::Unreachable(src, problem), index));
            continue;
        }
        let request = snapshot_request(
            options,
            None,
            &frame_path,
            offset,
            Some((viewport.w, viewport.h)),
            property_handlers(driver, &frame_path).await,
            asked,
        );
        match read_frame(driver, &frame_path, request).await {
            Ok(Answer::Done(mut frame)) => {
                let from = frame_origin(&frame);
                frames.push(FrameRead {
                    path: frame_path,
                    elements: elements_of(&mut frame),
                    doc: frame.doc,
                });
                lines.push((ReadLine::FrameBegins(from.clone()), frames.len() - 1));
                stack.push((
                    frame.items.into_iter(),
                    frames.len() - 1,
                    depth + 1,
                    Some(from),
                ));
            }
            Ok(Answer::Refused(refusal)) => {
                let problem = match refusal.error {
                    Code::Loading => "it is still loading".to_owned(),
                    other => format!("it answered {other:?}"),
                };
                lines.push((ReadLine::Unreachable(src, problem), index));
            }
            Err(error) => lines.push((ReadLine::Unreachable(src, error.to_string()), index)),
        }
    }
    FramesRead { frames, lines }
}

/// What the walker is asked for a snapshot (or a search, or a reading) of
/// one frame.
pub(crate) fn snapshot_request(
    options: SnapshotOptions,
    scope: Option<u32>,
    path: &[u32],
    offset: WirePoint,
    viewport: Option<(i64, i64)>,
    handlers: Option<Handlers>,
    asked: &Asked,
) -> Request {
    let frame = FrameFields {
        offset: Some(offset),
        viewport: viewport.map(|(w, h)| Size { w, h }),
        path: Some(path.to_vec()),
        margin: Some(MARGIN),
        handlers,
        listeners: Some(driver_core::listeners_key().to_owned()),
    };
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
pub(crate) async fn property_handlers(driver: &dyn Driver, path: &[u32]) -> Option<Handlers> {
    static FIND: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        format!(
            "(() => {{ const onclick = [], listened = []; \
            const all = document.getElementsByTagName('*'); \
            const kept = window[Symbol.for({key:?})]; \
            const record = kept && typeof kept.has === 'function' ? kept : null; \
            for (let i = 0; i < all.length; i++) {{ \
              if (typeof all[i].onclick === 'function') onclick.push(i); \
              if (record && record.has(all[i])) listened.push(i); }} \
            return {{ onclick, listened }}; }})()",
            key = driver_core::listeners_key()
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
    found
        .ok()
        .and_then(|found| serde_json::from_value(found).ok())
}
