//! Names and roles as Chromium computes them: every numbered element of the
//! fixture pages (and the UI kits' pages) against the browser's own
//! accessibility tree (`Accessibility.getFullAXTree`), on both backends,
//! with the differences that are meant written down in [`intended`].

use std::collections::HashMap;
use std::time::Duration;

use driver_core::{Driver, Options};
use marks::{Marks, SnapshotOptions};
use serde_json::{json, Value};
use tabwright_tests::site::Site;
use tabwright_tests::Backend;

/// The fixture pages compared: every one without frames (a frame's tree is
/// a tree of its own), the UI kits' pages and the composite widgets.
const PAGES: &[&str] = &[
    "/fx/forms.html",
    "/fx/kit.html",
    "/fx/echo.html",
    "/fx/table.html",
    "/fx/nav.html",
    "/fx/modal.html",
    "/fx/shadow.html",
    "/fx/frame-inner.html",
    "/fx/long.html",
    "/fx/reach.html",
    "/fx/spa.html",
    "/fx/pointer.html",
    "/fx/editable.html",
    "/fx/hidden.html",
    "/fx/overlay.html",
    "/fx/article.html",
    "/fx/select.html",
    "/fx/icons.html",
    "/fx/widgets.html",
    "/fx/boxes.html",
    "/fx/app.html",
    "/fx/composite.html",
    "/fx/unseen.html",
    "/fx/names.html",
    "/fx/internals.html",
    "/fx/generated.html",
    "/kits/jquery-ui.html",
    "/kits/antd.html",
    "/kits/bootstrap.html",
    "/kits/jstree.html",
];

/// What Chromium says of one element: its role and name.
#[derive(Debug, Clone)]
struct Accessible {
    role: String,
    name: String,
    ignored: bool,
}

/// Chromium's accessibility tree of the page, by the number tabwright gave
/// each node's element (marked on the elements for the comparison).
async fn chromium_says(driver: &dyn Driver) -> HashMap<u32, Accessible> {
    let tree = driver
        .devtools("Accessibility.getFullAXTree", json!({}))
        .await
        .expect("the accessibility tree");
    let document = driver
        .devtools("DOM.getDocument", json!({ "depth": -1, "pierce": true }))
        .await
        .expect("the DOM");
    let mut numbers = HashMap::new();
    collect_numbers(&document["root"], &mut numbers);
    let mut said = HashMap::new();
    for node in tree["nodes"].as_array().into_iter().flatten() {
        let Some(number) = node["backendDOMNodeId"]
            .as_u64()
            .and_then(|id| numbers.get(&id))
        else {
            continue;
        };
        said.insert(
            *number,
            Accessible {
                role: node["role"]["value"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned(),
                name: node["name"]["value"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned(),
                ignored: node["ignored"].as_bool().unwrap_or(false),
            },
        );
    }
    said
}

/// Every DOM node's `data-tw-number`, by its backend node id.
fn collect_numbers(node: &Value, numbers: &mut HashMap<u64, u32>) {
    if let (Some(id), Some(attributes)) = (
        node["backendNodeId"].as_u64(),
        node["attributes"].as_array(),
    ) {
        for pair in attributes.chunks(2) {
            if pair[0] == "data-tw-number" {
                if let Some(number) = pair
                    .get(1)
                    .and_then(Value::as_str)
                    .and_then(|n| n.parse().ok())
                {
                    numbers.insert(id, number);
                }
            }
        }
    }
    for key in ["children", "shadowRoots"] {
        for child in node[key].as_array().into_iter().flatten() {
            collect_numbers(child, numbers);
        }
    }
    if let Some(content) = node.get("contentDocument") {
        collect_numbers(content, numbers);
    }
}

/// Why tabwright's reading of an element differs from Chromium's, where it
/// is meant to; `None` when they agree.
fn intended(
    ours: &marks::Element,
    chromium: Option<&Accessible>,
) -> Result<Option<&'static str>, String> {
    let Some(chromium) = chromium.filter(|node| !node.ignored) else {
        // Chromium prunes or ignores it (an aria-hidden arrow, a pointer
        // target inside another control), but a person sees and clicks it.
        return Ok(Some("seen and clicked, though not in Chromium's tree"));
    };
    let role_agrees = chromium.role == ours.role
        || matches!(
            (chromium.role.as_str(), ours.role.as_str()),
            ("Date", "date")
                | ("DateTime", "datetime-local")
                | ("InputTime", "time")
                | ("ColorWell", "color")
                | ("DisclosureTriangle", "button")
        );
    let why_role = if role_agrees {
        None
    } else {
        match (chromium.role.as_str(), ours.role.as_str()) {
            (_, "clickable" | "draggable") => Some("a script-only click or drag target"),
            ("generic" | "group" | "region" | "list", "scrollbox") => {
                Some("a box that scrolls is numbered to be scrolled by")
            }
            ("generic", "textbox") if ours.value.is_some() => {
                Some("an editable region is a text field")
            }
            ("generic" | "none", "link") => Some("an anchor a script listens to is a link"),
            _ => {
                return Err(format!(
                    "role {:?}, Chromium says {:?}",
                    ours.role, chromium.role
                ))
            }
        }
    };
    let spaced = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let (name, theirs) = (spaced(ours.name.untrusted()), spaced(&chromium.name));
    let visible: String = theirs
        .chars()
        .filter(|c| !('\u{E000}'..='\u{F8FF}').contains(c))
        .collect();
    let glyphs = visible.trim().chars().count();
    let why_name = if name == theirs || (why_role.is_some() && theirs.is_empty()) {
        None
    } else if name.ends_with("...") && theirs.starts_with(name.trim_end_matches("...")) {
        Some("a long name is cut")
    } else if visible.trim() == name || (glyphs <= 1 && (!name.is_empty() || ours.clue.is_some())) {
        Some("an icon font's glyph (private use, or generated content) names nothing")
    } else if ours.role == "generic" && theirs.is_empty() {
        Some("a focusable box is named by what it shows")
    } else if name.is_empty() && theirs.chars().count() > 40 {
        Some("hidden text longer than a label names nothing")
    } else if !name.is_empty() && theirs.ends_with(&format!(" {name}")) {
        Some("an inner control's icon label is that control's")
    } else {
        return Err(format!(
            "name {:?}, Chromium says {:?}",
            ours.name, chromium.name
        ));
    };
    Ok(why_role.or(why_name))
}

async fn names_and_roles_agree_with_chromium(backend: Backend) {
    let site = Site::with_kits().await;
    let driver = backend.driver(Options {
        timeout: Duration::from_secs(20),
        ..Options::default()
    });
    let marks = Marks::new();
    let mut unexplained = Vec::new();
    let mut meant = Vec::new();
    let mut compared = 0;
    for page in PAGES {
        driver
            .navigate(&site.url(page))
            .await
            .expect("the page loads");
        let snapshot = marks
            .snapshot(
                driver.as_ref(),
                SnapshotOptions {
                    full_page: true,
                    scope: None,
                },
            )
            .await
            .expect("a snapshot");
        let pairs: Vec<(u32, u32)> = snapshot
            .elements
            .values()
            .map(|element| (element.number, element.local))
            .collect();
        driver
            .eval_isolated(
                &[],
                &format!(
                    "(() => {{ const registry = window.__tabwrightMarks; for (const [number, id] of {}) {{ \
                     const ref = registry.elements.get(id); const element = ref && ref.deref(); \
                     if (element) element.setAttribute('data-tw-number', String(number)); }} return true; }})()",
                    serde_json::to_string(&pairs).expect("json")
                ),
            )
            .await
            .expect("the elements are marked");
        let said = chromium_says(driver.as_ref()).await;
        for element in snapshot.elements.values() {
            compared += 1;
            match intended(element, said.get(&element.number)) {
                Ok(None) => {}
                Ok(Some(why)) => meant.push(format!("{page} [{}]: {why}", element.number)),
                Err(difference) => {
                    unexplained.push(format!("{page} [{}]: {difference}", element.number))
                }
            }
        }
    }
    driver.close().await.expect("closed");
    assert!(compared > 200, "only {compared} elements compared");
    assert!(
        unexplained.is_empty(),
        "{} of {compared} elements differ from Chromium's tree unexplained:\n{}\n(meant: {})",
        unexplained.len(),
        unexplained.join("\n"),
        meant.join("; ")
    );
    // Most agree exactly; the meant differences are few.
    assert!(
        meant.len() * 5 < compared,
        "{} of {compared} differ, if as meant:\n{}",
        meant.len(),
        meant.join("\n")
    );
}

both_backends!(names_and_roles_agree_with_chromium);
