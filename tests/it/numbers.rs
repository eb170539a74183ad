//! Numbers that survive a re-render without ever meaning another element,
//! on both backends, on a TodoMVC-like app (`fixtures/todo.html`) that
//! renders its whole list again on every change and whose checkboxes and
//! delete buttons have no names.
//!
//! A re-render that changes nothing a person could see keeps every number
//! and says nothing; then, after each way a list can change under a
//! model's numbers (reordered, filtered, an item deleted, identical items,
//! rendered again), every number the model read before is tried: it acts
//! on the very item it was next to, or fails as gone, never on another.

use serde_json::json;
use tabwright_tests::Backend;
use tools::{Group, PackOptions};

use crate::tools::Session;

/// The rows of the to-do list as a snapshot shows them: each item's label,
/// its checkbox's number and its delete button's number.
fn rows(text: &str) -> Vec<(String, u32, u32)> {
    let lines: Vec<&str> = text
        .lines()
        .map(|line| line.trim_start_matches("+ ").trim_start_matches('*'))
        .collect();
    let number =
        |line: &str| -> Option<u32> { line.strip_prefix('[')?.split_once(']')?.0.parse().ok() };
    let mut rows = Vec::new();
    for window in lines.windows(3) {
        // The delete button is named by the "×" its CSS writes.
        if window[0].contains("class \"toggle\"") && window[2].ends_with("button \"×\"") {
            if let (Some(checkbox), Some(delete)) = (number(window[0]), number(window[2])) {
                rows.push((window[1].to_owned(), checkbox, delete));
            }
        }
    }
    rows
}

async fn start(backend: Backend) -> Session {
    let packed = PackOptions {
        groups: vec![Group::Core, Group::Script],
        ..PackOptions::default()
    };
    let options = driver_core::Options {
        timeout: std::time::Duration::from_secs(15),
        ..driver_core::Options::default()
    };
    Session::start_packed(backend, packed, options).await
}

/// The app's own record of its items (`Title (done)`).
async fn state(s: &mut Session) -> String {
    let value = s
        .ok("evaluate", json!({ "expression": "todoState()" }))
        .await;
    // The value's one line, between its fences (whose code is new each time).
    value
        .text
        .lines()
        .find(|line| line.starts_with('"'))
        .unwrap_or_else(|| panic!("no value: {}", value.text))
        .trim_matches('"')
        .to_owned()
}

/// Opens the app afresh with these items.
async fn fresh(s: &mut Session, items: &[&str]) -> String {
    let opened = s.ok("open", json!({ "url": s.url("/fx/todo.html") })).await;
    let field = Session::number(&opened, "\"What needs to be done?\"");
    for item in items {
        s.ok(
            "type",
            json!({ "element": field, "text": item, "submit": true }),
        )
        .await;
    }
    s.ok("snapshot", json!({})).await.text
}

/// Tries every number of `before` (read before the change): a checkbox
/// must tick its own item or fail as gone, never tick another.
async fn stale_numbers_hold(s: &mut Session, before: &[(String, u32, u32)], change: &str) {
    for (label, checkbox, _) in before {
        let was = state(s).await;
        let answer = s.call("click", json!({ "element": checkbox })).await;
        let now = state(s).await;
        if answer.is_error {
            assert!(
                answer.text.contains("gone") || answer.text.contains("no element"),
                "after {change}: [{checkbox}] failed without saying it is gone: {}",
                answer.text
            );
            assert_eq!(was, now, "after {change}: a failed click changed the list");
            continue;
        }
        // Exactly this item's state flipped.
        let flipped: Vec<(&str, &str)> = was
            .split(", ")
            .zip(now.split(", "))
            .filter(|(a, b)| a != b)
            .collect();
        assert_eq!(
            flipped.len(),
            1,
            "after {change}: [{checkbox}] (next to {label:?}) changed {was:?} to {now:?}"
        );
        assert!(
            flipped[0].0.trim_end_matches(" (done)") == label,
            "after {change}: [{checkbox}], read next to {label:?}, ticked {:?}",
            flipped[0].0
        );
    }
}

async fn look_alikes_keep_their_numbers(backend: Backend) {
    let mut s = start(backend).await;
    let page = fresh(&mut s, &["Alpha", "Bravo", "Charlie"]).await;
    let before = rows(&page);
    assert_eq!(before.len(), 3, "{page}");
    let again = Session::number(
        &s.ok("snapshot", json!({})).await,
        "button \"Render again\"",
    );
    let answer = s.ok("click", json!({ "element": again })).await;
    // Only the button's focus changed: no line went or came.
    assert!(
        !answer.text.contains("\n- ") && !answer.text.contains("\n+ "),
        "a re-render nobody could see is no change:\n{}",
        answer.text
    );
    let after = rows(&s.ok("snapshot", json!({})).await.text);
    assert_eq!(after, before, "the numbers changed in a re-render");
    // Adding an item keeps every number of the items that did not move.
    let field = Session::number(&s.ok("snapshot", json!({})).await, "\"What needs");
    let added = s
        .ok(
            "type",
            json!({ "element": field, "text": "Delta", "submit": true }),
        )
        .await;
    for (label, checkbox, delete) in &before {
        for number in [checkbox, delete] {
            assert!(
                !added.text.contains(&format!("- [{number}]")),
                "{label}'s [{number}] was renumbered:\n{}",
                added.text
            );
        }
    }
    let now = rows(&s.ok("snapshot", json!({})).await.text);
    assert_eq!(now[..3], before[..], "{now:?}");
    // Ticking one keeps the others' numbers (the ticked one changed).
    let ticked = s.ok("click", json!({ "element": before[0].1 })).await;
    let now = rows(&s.ok("snapshot", json!({})).await.text);
    assert_eq!(now[1..3], before[1..3], "{}", ticked.text);
    s.ok("close", json!({})).await;
}

async fn stale_numbers_never_act_on_another_item(backend: Backend) {
    let mut s = start(backend).await;
    let items = ["Alpha", "Bravo", "Charlie", "Delta"];
    for (change, button) in [
        ("a reversed list", Some("button \"Reverse order\"")),
        ("a list rendered again", Some("button \"Render again\"")),
        ("a filter", Some("link \"Active\"")),
        ("a deleted item", None),
    ] {
        let page = fresh(&mut s, &items).await;
        let before = rows(&page);
        assert_eq!(before.len(), 4, "{page}");
        match button {
            Some(button) => {
                if change == "a filter" {
                    // Tick one first, so the filter leaves it out.
                    s.ok("click", json!({ "element": before[1].1 })).await;
                }
                let number = Session::number(&s.ok("snapshot", json!({})).await, button);
                s.ok("click", json!({ "element": number })).await;
            }
            None => {
                s.ok("click", json!({ "element": before[0].2 })).await;
            }
        }
        let tried: Vec<_> = match change {
            // The ticked item is tried too (it left the filtered list).
            "a filter" => before.clone(),
            "a deleted item" => before[1..].to_vec(),
            _ => before.clone(),
        };
        stale_numbers_hold(&mut s, &tried, change).await;
    }
    // Identical items: no number can say which, so none survives as one
    // of them; each old number acts on its own or fails.
    let page = fresh(&mut s, &["Same", "Same", "Other"]).await;
    let before = rows(&page);
    let again = Session::number(
        &s.ok("snapshot", json!({})).await,
        "button \"Render again\"",
    );
    s.ok("click", json!({ "element": again })).await;
    let now = s.ok("snapshot", json!({})).await.text;
    for (label, checkbox, _) in before.iter().filter(|(label, ..)| label == "Same") {
        assert!(
            !now.contains(&format!("[{checkbox}] ")),
            "{label}'s [{checkbox}] kept a number two items could claim:\n{now}"
        );
    }
    stale_numbers_hold(&mut s, &before, "identical items rendered again").await;
    s.ok("close", json!({})).await;
}

both_backends!(
    look_alikes_keep_their_numbers,
    stale_numbers_never_act_on_another_item
);
