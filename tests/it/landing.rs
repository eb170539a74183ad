//! Where a click lands: on the numbered element, once it holds still, and
//! said when it is not. Pages that swap another button in under the
//! pointer (as it arrives: refused before the press; as it goes down: the
//! answer says what the click reached), a checkbox's label with another
//! nearly invisible checkbox at its centre, a button that slides in, a
//! real button inside an element a library made a tab, and a web
//! component's checkbox labelled across its shadow boundary; on both
//! backends, through the pack.

use serde_json::json;
use tabwright_tests::Backend;

use crate::tools::Session;

/// The page's log line, from a fresh snapshot.
async fn log(s: &mut Session) -> String {
    let page = s.ok("snapshot", json!({})).await.text;
    page.lines()
        .find(|line| {
            [
                "Nothing",
                "Kept",
                "Upgraded",
                "Stayed",
                "Paid",
                "Newsletter",
                "Authorized",
                "Submitted",
                "Terms",
            ]
            .iter()
            .any(|start| line.starts_with(start))
        })
        .unwrap_or_default()
        .to_owned()
}

async fn clicks_land_where_they_say(backend: Backend) {
    let mut s = Session::start(backend, false).await;
    let page = s
        .ok("open", json!({ "url": s.url("/fx/traps.html") }))
        .await;

    // Swapped in as the pointer arrived: refused, nothing pressed.
    let keep = Session::number(&page, "\"Keep my plan\"");
    let refused = s.call("click", json!({ "element": keep })).await;
    assert!(refused.is_error, "{}", refused.text);
    assert!(
        refused.text.contains(&format!(
            "When the pointer arrived over [{keep}], the page put"
        )) && refused.text.contains("button \"Upgrade for $99\"")
            && refused.text.contains("nothing was pressed"),
        "{}",
        refused.text
    );
    assert_eq!(log(&mut s).await, "Nothing pressed yet.");

    // Swapped in as the button went down: the click went elsewhere, and
    // the answer leads with it.
    let page = s.ok("snapshot", json!({})).await;
    let stay = Session::number(&page, "\"Stay on the free plan\"");
    let reached = s.ok("click", json!({ "element": stay })).await;
    let first = reached.text.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("The click reached [")
            && first.contains("button \"Pay for a year\"")
            && first.contains(&format!("not [{stay}] \"Stay on the free plan\"")),
        "{}",
        reached.text
    );
    assert_eq!(log(&mut s).await, "Paid for a year");

    // Through its label, around the other checkbox at its centre.
    let page = s.ok("snapshot", json!({})).await;
    let news = Session::number(&page, "checkbox \"Send me the newsletter\"");
    let ticked = s.ok("click", json!({ "element": news })).await;
    assert!(
        ticked.text.starts_with(&format!("Clicked [{news}].")),
        "{}",
        ticked.text
    );
    assert_eq!(log(&mut s).await, "Newsletter on");

    // A button that slides in is pressed where it comes to rest, with no
    // pause between the two clicks.
    let page = s.ok("snapshot", json!({})).await;
    let show = Session::number(&page, "\"Show the form\"");
    let shown = s.ok("click", json!({ "element": show })).await;
    let submit = Session::number(&shown, "\"Submit the form\"");
    let submitted = s.ok("click", json!({ "element": submit })).await;
    assert!(
        submitted.text.starts_with(&format!("Clicked [{submit}].")),
        "{}",
        submitted.text
    );
    assert_eq!(log(&mut s).await, "Submitted the form");
    s.ok("close", json!({})).await;
}

async fn controls_inside_controls(backend: Backend) {
    let mut s = Session::start(backend, false).await;
    let page = s
        .ok("open", json!({ "url": s.url("/fx/presented.html") }))
        .await;
    // The button a library wrapped in a tab is what the tab's number
    // presses.
    let tab = Session::number(&page, "tab \"Submit\"");
    s.ok("click", json!({ "element": tab })).await;
    assert_eq!(log(&mut s).await, "Submitted");
    // The component's checkbox is named by its slotted words, which are
    // not loose text beside it, and it takes its click.
    let page = s.ok("snapshot", json!({})).await;
    let terms = Session::number(&page, "checkbox \"I accept the terms\" unchecked");
    assert!(
        !page.text.lines().any(|line| line == "I accept the terms"),
        "{}",
        page.text
    );
    let clicked = s.ok("click", json!({ "element": terms })).await;
    assert!(
        clicked.text.starts_with(&format!("Clicked [{terms}].")),
        "{}",
        clicked.text
    );
    assert_eq!(log(&mut s).await, "Terms accepted");
    s.ok("close", json!({})).await;
}

both_backends!(clicks_land_where_they_say, controls_inside_controls);
