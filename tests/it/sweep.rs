//! The sweep: every numbered element of a few fixture pages, and every
//! tool that takes a number and fits it (`click` on all, `type` on the
//! fields), on a fresh copy of the page each time. An answer that says an
//! element was clicked or typed into must match what the page heard: a
//! trusted `click` (or `input`) whose target, or an element around it, the
//! page's own words name so (its labels, `aria-label`, title, alt text,
//! placeholder, value or text; a component whose insides the page cannot
//! read is taken at its word). The truth is what the page heard, read in
//! its own world, not tabwright's judge.

use driver_core::Driver;
use serde_json::{json, Value};
use tabwright_tests::Backend;

use crate::tools::Session;

/// The fixture pages swept.
const PAGES: &[&str] = &[
    "/fx/forms.html",
    "/fx/composite.html",
    "/fx/internals.html",
    "/fx/widgets.html",
    "/fx/kit.html",
    "/fx/todo.html",
    "/fx/pointer.html",
    "/fx/traps.html",
    "/fx/shadow.html",
];

/// The most elements of one page swept.
const PER_PAGE: usize = 24;

/// The roles of the elements swept (and those with none: a clickable the
/// snapshot names alone).
const CHECKED_ROLES: &[&str] = &[
    "button",
    "link",
    "checkbox",
    "radio",
    "textbox",
    "searchbox",
    "combobox",
    "option",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "tab",
    "switch",
    "treeitem",
    "gridcell",
    "slider",
    "spinbutton",
];

/// Roles that take typed text.
const FIELDS: &[&str] = &["textbox", "searchbox", "combobox", "spinbutton"];

/// Records what the page hears, in its own world: for its latest trusted
/// click and input, the words that name the target and the elements around
/// it (labels, `aria-label`, title, alt text, placeholder, value, text),
/// and whether one of them is a component whose insides it cannot read.
const LISTEN: &str = r#"(() => {
  window.__sweepHeard = {};
  const words = (target) => {
    const texts = [];
    let opaque = false;
    let at = target;
    for (let depth = 0; at && depth < 8; depth += 1) {
      if (at.nodeType === 1) {
        if (at.localName.includes('-') || at.shadowRoot) opaque = true;
        for (const name of ['aria-label', 'title', 'alt', 'placeholder']) {
          if (at.getAttribute(name)) texts.push(at.getAttribute(name));
        }
        if (typeof at.value === 'string') texts.push(at.value);
        // A reset or submit button without a value shows its type's word.
        if (at.localName === 'input' && !at.value) texts.push(at.type);
        if (at.labels) for (const label of at.labels) texts.push(label.textContent);
        const labelledBy = at.getAttribute('aria-labelledby');
        if (labelledBy) for (const id of labelledBy.split(/\s+/)) {
          const label = document.getElementById(id);
          if (label) texts.push(label.textContent);
        }
        texts.push((at.innerText || at.textContent || '').slice(0, 300));
      }
      at = at.parentNode && at.parentNode.nodeType === 11 ? at.parentNode.host : at.parentElement;
    }
    return { texts, opaque };
  };
  for (const type of ['click', 'input']) {
    window.addEventListener(type, (e) => { if (e.isTrusted) window.__sweepHeard[type] = words(e.target); }, true);
  }
  return true;
})()"#;

/// An element line of a snapshot: its number, role and name.
#[derive(Debug, Clone, PartialEq)]
struct Line {
    number: u32,
    role: String,
    name: String,
}

/// The element lines of an answer with a role of [`CHECKED_ROLES`] or none.
fn element_lines(text: &str) -> Vec<Line> {
    let mut lines = Vec::new();
    for line in text.lines() {
        let line = line.trim_start().trim_start_matches('*');
        let Some(rest) = line.strip_prefix('[') else {
            continue;
        };
        let Some((number, rest)) = rest.split_once("] ") else {
            continue;
        };
        let Ok(number) = number.parse::<u32>() else {
            continue;
        };
        // A clickable with no role of its own is its name alone.
        let (role, quoted) = match rest.strip_prefix('"') {
            Some(quoted) => ("", quoted),
            None => match rest.split_once(" \"") {
                Some((role, quoted)) if CHECKED_ROLES.contains(&role) => (role, quoted),
                _ => continue,
            },
        };
        // The name runs to the first quote no backslash escapes.
        let mut name = String::new();
        let mut chars = quoted.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => name.extend(chars.next()),
                '"' => break,
                other => name.push(other),
            }
        }
        if !name.is_empty() {
            lines.push(Line {
                number,
                role: role.to_owned(),
                name,
            });
        }
    }
    lines
}

/// Whether the words around the target the page heard for `event` name
/// `line` (`Some(true)`), or cannot, the target being a component whose
/// insides the page cannot read (`Some(false)` only when they could and
/// do not); `None` when the page heard no such event, or has no record
/// (the action navigated).
async fn heard_at(s: &Session, event: &str, line: &Line) -> Option<Result<(), String>> {
    let heard = s
        .pack
        .driver()
        .eval(&format!(
            "window.__sweepHeard === undefined ? null : (window.__sweepHeard.{event} || false)"
        ))
        .await
        .expect("the page's record");
    if heard.is_null() {
        return None;
    }
    if heard == json!(false) {
        return Some(Err(format!("the page heard no {event}")));
    }
    let flat = |text: &str| {
        text.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    let name = flat(line.name.trim_end_matches('…'));
    let texts: Vec<String> = heard["texts"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(flat)
        .collect();
    if texts.iter().any(|text| text.contains(&name)) || heard["opaque"] == true {
        Some(Ok(()))
    } else {
        Some(Err(format!(
            "the page heard its {event} on an element named by {texts:?}"
        )))
    }
}

/// Every claim of every answer is what the page heard.
async fn no_answer_claims_what_the_page_did_not_hear(backend: Backend) {
    let mut s = Session::start(backend, false).await;
    let mut checked = 0;
    for page in PAGES {
        let url = s.url(page);
        let opened = s.ok("open", json!({ "url": url })).await;
        let lines: Vec<Line> = element_lines(&opened.text)
            .into_iter()
            .take(PER_PAGE)
            .collect();
        assert!(!lines.is_empty(), "{page}: {}", opened.text);
        for line in &lines {
            let fits: &[&str] = if FIELDS.contains(&line.role.as_str()) {
                &["click", "type"]
            } else {
                &["click"]
            };
            for tool in fits {
                // A fresh copy of the page, the same element on it.
                let fresh = s.ok("open", json!({ "url": url })).await;
                let Some(now) = element_lines(&fresh.text)
                    .into_iter()
                    .find(|other| other.role == line.role && other.name == line.name)
                else {
                    continue;
                };
                s.pack.driver().eval(LISTEN).await.expect("listening");
                let (arguments, claim, event) = if *tool == "click" {
                    (
                        json!({ "element": now.number }),
                        format!("Clicked [{}]", now.number),
                        "click",
                    )
                } else {
                    (
                        json!({ "element": now.number, "text": "7" }),
                        format!("Typed \"7\" into [{}]", now.number),
                        "input",
                    )
                };
                let answer = s.call(tool, arguments).await;
                // A dialog the action opened is answered, for the next.
                if answer.text.contains("dialog") {
                    let _ = s.call("dialog", json!({ "accept": true })).await;
                }
                let first = answer.text.lines().next().unwrap_or_default();
                // The claim: "Clicked [N]." or "Clicked [N]: …", "Typed … into [N]…".
                let claimed = first
                    .strip_prefix(claim.as_str())
                    .is_some_and(|rest| *tool == "type" || rest.starts_with(['.', ':']));
                if answer.is_error || !claimed {
                    continue;
                }
                // (A click that navigated leaves no record to ask.)
                if let Some(heard) = heard_at(&s, event, &now).await {
                    checked += 1;
                    if let Err(elsewhere) = heard {
                        panic!(
                            "{page}: the answer claims {claim} {now:?}, and {elsewhere}:\n{}",
                            answer.text
                        );
                    }
                }
            }
        }
    }
    assert!(checked >= 60, "only {checked} claims checked");
    // A disabled button hears no press: said, and nothing pressed.
    let forms = s
        .ok("open", json!({ "url": s.url("/fx/forms.html") }))
        .await;
    let later = Session::number(&forms, "button \"Later\"");
    let refused = s.call("click", json!({ "element": later })).await;
    assert!(
        refused.is_error && refused.text.contains("cannot be clicked: it is disabled"),
        "{}",
        refused.text
    );
}

both_backends!(no_answer_claims_what_the_page_did_not_hear);
