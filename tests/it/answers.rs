//! Cheap answers: change lists after actions on the same page, `find`,
//! screenshots only when the picture changed, numbers sent as strings, and
//! scroll boxes that say what they hold beyond what they show.

use std::time::Duration;

use driver_core::Options;
use serde_json::json;
use tabwright_tests::Backend;
use tools::{Answers, PackOptions};

use crate::tools::Session;

fn options() -> Options {
    Options {
        timeout: Duration::from_secs(15),
        ..Options::default()
    }
}

/// Actions on one page that add, remove, re-order and re-state elements,
/// and a re-render that puts the same text under new elements (which keep
/// the numbers of the look-alikes they replaced): each answer is what
/// changed, and a number never points at another element.
async fn change_lists(backend: Backend) {
    let mut s = Session::start_packed(backend, PackOptions::default(), options()).await;
    let page = s.ok("open", json!({ "url": s.url("/fx/app.html") })).await;
    assert!(page.text.contains("Page: Greengrocer"), "{}", page.text);
    let name = Session::number(&page, "\"Name\"");
    let email = Session::number(&page, "\"Email\"");
    let account = Session::number(&page, "\"Account\"");

    // Re-stated: a value and the focus.
    let typed = s
        .ok("type", json!({ "element": name, "text": "Ada" }))
        .await;
    assert!(typed.text.contains("--- changes "), "{}", typed.text);
    assert!(!typed.text.contains("Page:"), "{}", typed.text);
    assert!(
        typed
            .text
            .contains(&format!("~ [{name}] textbox \"Name\" = \"Ada\" focused")),
        "{}",
        typed.text
    );
    s.ok(
        "type",
        json!({ "element": email, "text": "ada@example.com" }),
    )
    .await;

    // Added and removed: a menu opens and closes.
    let opened = s.ok("click", json!({ "element": account })).await;
    assert!(opened.text.contains("expanded"), "{}", opened.text);
    let profile = Session::number(&opened, "\"Profile\"");
    assert!(
        opened
            .text
            .contains(&format!("+ [{profile}] link \"Profile\"")),
        "{}",
        opened.text
    );
    let closed = s.ok("click", json!({ "element": account })).await;
    assert!(
        closed
            .text
            .contains(&format!("- [{profile}] link \"Profile\"")),
        "{}",
        closed.text
    );

    // A task added, then checked.
    let task = Session::number(&page, "\"New task\"");
    s.ok("type", json!({ "element": task, "text": "Buy tea" }))
        .await;
    let add = Session::number(&page, "\"Add task\"");
    let added = s.ok("click", json!({ "element": add })).await;
    let tea = Session::number(&added, "\"Remove Buy tea\"");
    assert!(added.text.contains("+ "), "{}", added.text);
    assert!(added.text.contains("1 of 3 done"), "{}", added.text);
    let boxes: Vec<u32> = added
        .text
        .lines()
        .filter(|line| line.contains("checkbox") && line.contains("unchecked"))
        .filter_map(|line| tools::element_number(line, "checkbox"))
        .collect();
    let tea_box = *boxes.last().expect("the new task's checkbox");
    let checked = s.ok("click", json!({ "element": tea_box })).await;
    assert!(
        checked.text.contains(&format!("~ [{tea_box}] checkbox")),
        "{}",
        checked.text
    );
    assert!(checked.text.contains("2 of 3 done"), "{}", checked.text);

    // Re-ordered: the same numbers, moved.
    let reverse = Session::number(&page, "\"Reverse order\"");
    let reversed = s.ok("click", json!({ "element": reverse })).await;
    assert!(
        reversed
            .text
            .contains(&format!("> [{tea}] button \"Remove Buy tea\"")),
        "{}",
        reversed.text
    );

    // A re-render with the same text under new elements, each where its
    // look-alike stood: the numbers stay, the change list says nothing of
    // them, and the old number acts on the same item.
    let refresh = Session::number(&page, "\"Refresh list\"");
    let refreshed = s.ok("click", json!({ "element": refresh })).await;
    assert!(
        !refreshed.text.contains("\n- ") && !refreshed.text.contains("\n+ "),
        "{}",
        refreshed.text
    );
    let removed = s.ok("click", json!({ "element": tea })).await;
    assert!(
        removed
            .text
            .contains(&format!("- [{tea}] button \"Remove Buy tea\"")),
        "{}",
        removed.text
    );

    // A page of the table replaced: rows out, rows in.
    let next = Session::number(&page, "\"Next page\"");
    let paged = s.ok("click", json!({ "element": next })).await;
    assert!(paged.text.contains("Page 2 of 3"), "{}", paged.text);
    assert!(paged.text.contains("Barbara"), "{}", paged.text);

    // Asked for, the whole page.
    let whole = s.ok("snapshot", json!({})).await;
    assert!(whole.text.contains("Page: Greengrocer"), "{}", whole.text);
    assert!(!whole.text.contains("--- changes "), "{}", whole.text);
    s.finish("change_lists").await;
}

/// `--answers full`: every action answers with the whole page.
async fn full_answers_when_asked(backend: Backend) {
    let packed = PackOptions {
        answers: Answers::Full,
        ..PackOptions::default()
    };
    let mut s = Session::start_packed(backend, packed, options()).await;
    let page = s.ok("open", json!({ "url": s.url("/fx/app.html") })).await;
    let name = Session::number(&page, "\"Name\"");
    let typed = s
        .ok("type", json!({ "element": name, "text": "Ada" }))
        .await;
    assert!(typed.text.contains("Page: Greengrocer"), "{}", typed.text);
    assert!(!typed.text.contains("--- changes "), "{}", typed.text);
    s.ok("close", json!({})).await;
}

/// `find` searches the whole page, frames and all, for names, values,
/// link targets and visible text; what it finds is numbered for acting on;
/// what a person cannot see is not found.
async fn find(backend: Backend) {
    let mut s = Session::start_packed(backend, PackOptions::default(), options()).await;
    s.site
        .page(
            "/entry/4321",
            "<!doctype html><title>Entry 4321</title><h1>Entry 4321</h1>",
        )
        .await;
    s.ok("open", json!({ "url": s.url("/fx/links.html") }))
        .await;
    let found = s.ok("find", json!({ "text": "entry 4321" })).await;
    assert!(
        tabwright_tests::redact_fences(&found.text).contains("1 match CODE for \"entry 4321\""),
        "{}",
        found.text
    );
    assert!(
        found.text.contains("link \"Entry 4321\" -> /entry/4321"),
        "{}",
        found.text
    );
    assert!(
        found.text.len() < 400,
        "{} characters: {}",
        found.text.len(),
        found.text
    );
    let entry = Session::number(&found, "\"Entry 4321\"");
    let clicked = s.call("click", json!({ "element": entry })).await;
    assert!(clicked.text.contains("/entry/4321"), "{}", clicked.text);

    s.ok("open", json!({ "url": s.url("/fx/app.html") })).await;
    let plums = s.ok("find", json!({ "text": "PLUMS" })).await;
    for expected in [
        "3 matches CODE for \"PLUMS\"",
        "checkbox \"Order more plums\" unchecked",
        "button \"Remove Order more plums\"",
        "Plums are in season until October.",
    ] {
        assert!(
            tabwright_tests::redact_fences(&plums.text).contains(expected),
            "no {expected:?} in {}",
            plums.text
        );
    }
    let boxes = s.ok("find", json!({ "role": "checkbox" })).await;
    assert!(
        tabwright_tests::redact_fences(&boxes.text)
            .contains("3 matches CODE for role \"checkbox\""),
        "{}",
        boxes.text
    );
    let remove = s
        .ok("find", json!({ "text": "bakery", "role": "button" }))
        .await;
    let bakery = Session::number(&remove, "\"Remove Call the bakery\"");
    let removed = s.ok("click", json!({ "element": bakery })).await;
    assert!(removed.text.contains("0 of 1 done"), "{}", removed.text);
    let none = s.ok("find", json!({ "text": "bakery" })).await;
    assert!(
        none.text.contains("Nothing on the page matches"),
        "{}",
        none.text
    );

    s.ok("open", json!({ "url": s.url("/fx/hidden.html") }))
        .await;
    let hidden = s.ok("find", json!({ "text": "ignore previous" })).await;
    assert!(
        hidden.text.contains("Nothing on the page matches"),
        "{}",
        hidden.text
    );
    let hidden = s.ok("find", json!({ "text": "hidden button" })).await;
    assert!(
        hidden.text.contains("Nothing on the page matches"),
        "{}",
        hidden.text
    );

    s.ok("open", json!({ "url": s.url("/fx/iframe-cross.html") }))
        .await;
    let framed = s.ok("find", json!({ "role": "button" })).await;
    assert!(!framed.text.contains("Nothing"), "{}", framed.text);

    let refused = s.call("find", json!({})).await;
    assert!(refused.is_error, "{}", refused.text);
    s.finish("find").await;
}

/// `screenshot {"if_changed": true}`: no picture while the page looks the
/// same; a picture again once it changed.
async fn screenshot_if_changed(backend: Backend) {
    let mut s = Session::start_packed(backend, PackOptions::default(), options()).await;
    let page = s.ok("open", json!({ "url": s.url("/fx/app.html") })).await;
    let first = s.ok("screenshot", json!({ "if_changed": true })).await;
    assert_eq!(first.images.len(), 1, "{}", first.text);
    let same = s.ok("screenshot", json!({ "if_changed": true })).await;
    assert!(same.images.is_empty(), "{}", same.text);
    assert!(
        same.text.contains("exactly as in your last screenshot"),
        "{}",
        same.text
    );
    let account = Session::number(&page, "\"Account\"");
    s.ok("click", json!({ "element": account })).await;
    let changed = s.ok("screenshot", json!({ "if_changed": true })).await;
    assert_eq!(changed.images.len(), 1, "{}", changed.text);
    // Without if_changed, always a picture.
    let again = s.ok("screenshot", json!({})).await;
    assert_eq!(again.images.len(), 1, "{}", again.text);
    s.ok("close", json!({})).await;
}

/// A number sent as a string (`"element": "12"`) is the number; anything
/// else is still refused with a sentence.
async fn numbers_as_strings(backend: Backend) {
    let mut s = Session::start_packed(backend, PackOptions::default(), options()).await;
    let page = s.ok("open", json!({ "url": s.url("/fx/app.html") })).await;
    let name = Session::number(&page, "\"Name\"");
    let typed = s
        .ok("type", json!({ "element": name.to_string(), "text": "42" }))
        .await;
    assert!(typed.text.contains("= \"42\""), "{}", typed.text);
    let refused = s
        .call("click", json!({ "element": "the name field" }))
        .await;
    assert!(refused.is_error, "{}", refused.text);
    assert!(refused.text.contains("click"), "{}", refused.text);
    s.ok("close", json!({})).await;
}

/// A list in a box that scrolls: the box is numbered and says how many of
/// its items lie below what it shows (the scrolled-away ones are not
/// read), and `scroll` with its number and a direction scrolls it as a
/// person's wheel does, bringing the next items in; its number alone
/// brings its next part.
async fn scroll_boxes(backend: Backend) {
    let mut s = Session::start_packed(backend, PackOptions::default(), options()).await;
    let items: String = (1..=20)
        .map(|n| format!("<li style=\"height: 20px\">Result {n}</li>"))
        .collect();
    s.site
        .page(
            "/results",
            &format!("<!doctype html><html><head><title>Results</title></head><body><h1>Search</h1><div aria-label=\"Results\" style=\"height: 100px; overflow: auto\"><ul style=\"margin: 0\">{items}</ul></div><div aria-label=\"Flights\" tabindex=\"0\" style=\"height: 40px; overflow: auto\"><p style=\"height: 200px\">Flight 1</p></div></body></html>"),
        )
        .await;
    let page = s.ok("open", json!({ "url": s.url("/results") })).await;
    let number = Session::number(&page, "scroll box \"Results\"");
    // Five rows show; the next ten lie within the margin beyond the box's
    // edge, read as the page's own below the fold are; five more are
    // counted.
    assert!(
        page.text.contains(&format!(
            "[{number}] scroll box \"Results\": the next 10 items below are read, out of view; 5 more items below"
        )),
        "{}",
        page.text
    );
    assert!(page.text.contains("Result 15"), "{}", page.text);
    // (One focusable for the keyboard, as kits' grids make them, is one.)
    assert!(
        page.text.contains("scroll box \"Flights\""),
        "{}",
        page.text
    );
    assert!(!page.text.contains("Result 16"), "{}", page.text);
    let scrolled = s
        .ok("scroll", json!({ "element": number, "direction": "down" }))
        .await;
    assert!(
        scrolled
            .text
            .contains(&format!("Scrolled [{number}] down.")),
        "{}",
        scrolled.text
    );
    // Scrolled: what lies beyond the margin below comes into what is
    // read, and the box says what of it is above.
    let now = s.ok("snapshot", json!({})).await;
    assert!(now.text.contains("Result 17"), "{}", now.text);
    assert!(now.text.contains("items above"), "{}", now.text);
    // Its number alone, the box on screen: its next part, as its line
    // invites, down to the last result.
    let onward = s.ok("scroll", json!({ "element": number })).await;
    assert!(
        onward.text.contains(&format!("Scrolled [{number}] down."))
            && onward.text.contains("Result 20"),
        "{}",
        onward.text
    );
    s.ok("close", json!({})).await;
}

/// A line the edge of a box that scrolls (or of a frame's viewport) cuts
/// so that only its letters' tops show is read as the lines wholly beyond
/// that edge are (a scroll away), not dropped between them; a box too
/// small to show a line is no such edge.
async fn lines_a_scrolling_edge_cuts(backend: Backend) {
    let mut s = Session::start_packed(backend, PackOptions::default(), options()).await;
    let rows = |word: &str| -> String {
        (1..=7)
            .map(|n| format!("<div>{word} row {n}</div>"))
            .collect()
    };
    let style = "style=\"margin: 0; font: 16px/20px sans-serif\"";
    s.site
        .page(
            "/inner",
            &format!(
                "<!doctype html><html><body {style}>{}</body></html>",
                rows("Framed")
            ),
        )
        .await;
    // 86 px: four rows, and six pixels of the fifth's top.
    s.site
        .page(
            "/cut",
            &format!(
                "<!doctype html><html><head><title>Cut</title></head><body {style}>\
                 <div style=\"width: 400px; height: 86px; overflow: auto\">{}</div>\
                 <iframe src=\"/inner\" style=\"width: 400px; height: 86px; border: 0\"></iframe>\
                 <div style=\"height: 3px; overflow: scroll\">Tiny box words</div>\
                 </body></html>",
                rows("Boxed")
            ),
        )
        .await;
    let page = s.ok("open", json!({ "url": s.url("/cut") })).await;
    for word in ["Boxed", "Framed"] {
        for n in 1..=7 {
            assert!(
                page.text.contains(&format!("{word} row {n}")),
                "{word} row {n}: {}",
                page.text
            );
        }
    }
    // A box that scrolls but shows three pixels of a line hides it: no
    // scroll there shows a person the line.
    assert!(!page.text.contains("Tiny box"), "{}", page.text);
    s.ok("close", json!({})).await;
}

/// Sections the browser skips painting while far from view
/// (`content-visibility: auto`) are read in a full-page snapshot: a
/// picture shows nothing of them, so their style judges them.
async fn skipped_sections_are_read(backend: Backend) {
    let mut s = Session::start_packed(backend, PackOptions::default(), options()).await;
    let sections: String = (0..12)
        .map(|n| {
            format!(
                "<section style=\"content-visibility: auto; contain-intrinsic-size: auto 500px\">\
                 <h2>Part {n}</h2><p>Words of part {n}.</p><div style=\"height: 400px\"></div></section>"
            )
        })
        .collect();
    s.site
        .page(
            "/skipped",
            &format!("<!doctype html><html><head><title>Skipped</title></head><body>{sections}</body></html>"),
        )
        .await;
    s.ok("open", json!({ "url": s.url("/skipped") })).await;
    let whole = s.ok("snapshot", json!({ "full_page": true })).await;
    for n in 0..12 {
        assert!(
            whole.text.contains(&format!("Words of part {n}.")),
            "part {n}: {}",
            whole.text
        );
    }
}

every_backend!(lines_a_scrolling_edge_cuts, skipped_sections_are_read);

both_backends!(
    change_lists,
    full_answers_when_asked,
    find,
    screenshot_if_changed,
    numbers_as_strings,
    scroll_boxes
);
