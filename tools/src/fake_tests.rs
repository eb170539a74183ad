//! The pack's own logic over a driver with no browser behind it
//! (`driver_core::fake::FakeDriver`): what it refuses before the browser
//! is asked (arguments, bounds, an unknown tool), how an open dialog stops
//! what needs the page and lets through what does not, and what a number
//! from a page the tab left answers. The browser's part is the integration
//! tests'.

use driver_core::fake::{FakeDriver, FakeLine, FakePage};
use driver_core::{Dialog, DialogKind, Options};
use guard::{AllowedOrigin, Guard, GuardedDriver, Policy};
use serde_json::json;

use crate::{Pack, PackOptions};

pub(crate) const ORIGIN: &str = "http://127.0.0.1:9";

/// A pack over a fake that serves two pages, and the fake.
pub(crate) fn pack() -> (Pack, FakeDriver) {
    pack_with(PackOptions::default())
}

/// The same, with these options.
pub(crate) fn pack_with(options: PackOptions) -> (Pack, FakeDriver) {
    let fake = FakeDriver::new();
    for (path, document, button) in [("/one", "one", "Send"), ("/two", "two", "Cancel")] {
        fake.page(FakePage {
            url: format!("{ORIGIN}{path}"),
            title: format!("Page {document}"),
            document: document.to_owned(),
            lines: vec![
                FakeLine::Heading(format!("Page {document}")),
                FakeLine::Element {
                    id: 1,
                    role: "button".to_owned(),
                    name: button.to_owned(),
                    row: String::new(),
                },
            ],
        });
    }
    let policy = Policy {
        allowed_origins: vec![AllowedOrigin::parse(ORIGIN).expect("an origin")],
        ..Policy::default()
    };
    let served = fake.clone();
    let driver = GuardedDriver::new(
        Guard::new(policy),
        Options::default(),
        Box::new(move |_| Box::new(served.driver())),
    );
    (Pack::new(driver, options), fake)
}

/// The calls that reached the page (not the ones any call makes to learn
/// the tab and the dialog).
fn page_calls(fake: &FakeDriver) -> Vec<String> {
    fake.calls()
        .into_iter()
        .filter(|call| call != "eval")
        .collect()
}

#[tokio::test]
async fn bad_arguments_never_reach_the_browser() {
    let (pack, fake) = pack();
    for (tool, arguments, said) in [
        ("click", json!({ "element": 1, "force": true }), "force"),
        ("click", json!({ "element": "one" }), "element"),
        ("click", json!({}), "element"),
        ("type", json!({ "element": 1 }), "text"),
        ("snapshot", json!({ "max_tokens": 1_000_000 }), "max_tokens"),
        ("read", json!({ "max_tokens": 1_000_000 }), "max_tokens"),
        (
            "open",
            json!({ "url": "javascript:alert(1)" }),
            "javascript",
        ),
        ("navigate", json!({ "url": "x" }), "no tool"),
    ] {
        let answer = pack.call(tool, arguments.clone()).await;
        assert!(answer.is_error, "{tool} {arguments}: {}", answer.text);
        assert!(
            answer.text.contains(said),
            "{tool} {arguments}: {}",
            answer.text
        );
    }
    assert_eq!(page_calls(&fake), Vec::<String>::new());
}

#[tokio::test]
async fn a_point_off_the_viewport_is_refused_before_the_click() {
    let (pack, fake) = pack();
    let opened = pack
        .call("open", json!({ "url": format!("{ORIGIN}/one") }))
        .await;
    assert!(!opened.is_error, "{}", opened.text);
    for (x, y) in [(5000.0, 10.0), (10.0, -1.0), (1280.0, 0.0)] {
        let answer = pack.call("click", json!({ "x": x, "y": y })).await;
        assert!(answer.is_error, "({x}, {y}): {}", answer.text);
        assert!(
            answer.text.contains("viewport"),
            "({x}, {y}): {}",
            answer.text
        );
    }
    assert!(!page_calls(&fake).contains(&"click_at".to_owned()));
    let inside = pack.call("click", json!({ "x": 640, "y": 400 })).await;
    assert!(!inside.is_error, "{}", inside.text);
    assert!(page_calls(&fake).contains(&"click_at".to_owned()));
}

#[tokio::test]
async fn an_open_dialog_stops_what_needs_the_page_only() {
    let (pack, fake) = pack();
    pack.call("open", json!({ "url": format!("{ORIGIN}/one") }))
        .await;
    fake.open_dialog(Dialog {
        kind: DialogKind::Confirm,
        message: "Delete everything?".into(),
        default_prompt: Default::default(),
    });
    let blocked = pack.call("snapshot", json!({})).await;
    assert!(
        blocked.text.contains("Delete everything?"),
        "{}",
        blocked.text
    );
    let before = page_calls(&fake).len();
    let refused = pack.call("click", json!({ "x": 640, "y": 400 })).await;
    assert!(refused.is_error, "{}", refused.text);
    assert!(
        refused.text.contains("Delete everything?"),
        "{}",
        refused.text
    );
    assert_eq!(
        page_calls(&fake).len(),
        before,
        "the click reached the page"
    );
    // What works under a dialog does.
    let tabs = pack.call("tabs", json!({})).await;
    assert!(!tabs.is_error, "{}", tabs.text);
    let answered = pack.call("dialog", json!({ "accept": false })).await;
    assert!(!answered.is_error, "{}", answered.text);
    let clicked = pack.call("click", json!({ "x": 640, "y": 400 })).await;
    assert!(!clicked.is_error, "{}", clicked.text);
}

#[tokio::test]
async fn a_number_from_a_page_left_behind_says_so() {
    let (pack, _fake) = pack();
    let one = pack
        .call("open", json!({ "url": format!("{ORIGIN}/one") }))
        .await;
    let send = crate::element_number(&one.text, "\"Send\"").expect("numbered");
    let two = pack
        .call("open", json!({ "url": format!("{ORIGIN}/two") }))
        .await;
    let cancel = crate::element_number(&two.text, "\"Cancel\"").expect("numbered");
    assert_ne!(send, cancel, "a number was given twice");
    let stale = pack.call("click", json!({ "element": send })).await;
    assert!(stale.is_error, "{}", stale.text);
    assert!(stale.text.contains(&send.to_string()), "{}", stale.text);
    assert!(stale.text.contains("snapshot"), "{}", stale.text);
    let unknown = pack.call("click", json!({ "element": 999 })).await;
    assert!(
        unknown.is_error && unknown.text.contains("999"),
        "{}",
        unknown.text
    );
}

/// Where the driver cannot list a page's tools, `page_tool` says so from
/// its capabilities, and asks the page nothing.
#[tokio::test]
async fn page_tools_missing_are_said_by_the_capabilities() {
    let (pack, fake) = pack_with(PackOptions {
        groups: vec![crate::Group::Core, crate::Group::PageTools],
        ..PackOptions::default()
    });
    pack.call("open", json!({ "url": format!("{ORIGIN}/one") }))
        .await;
    let before = fake.calls().len();
    let answer = pack.call("page_tool", json!({ "name": "buy" })).await;
    assert!(
        answer.is_error
            && answer
                .text
                .contains("tools a page offers of its own (WebMCP)"),
        "{}",
        answer.text
    );
    assert!(
        !fake.calls()[before..]
            .iter()
            .any(|call| call == "eval_isolated"),
        "{:?}",
        fake.calls()
    );
}
