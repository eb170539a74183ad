//! `read`: the text of the page as markdown, on both backends, through the
//! pack: the main content and what it leaves out, its structure (headings,
//! ordered and nested lists, code, quotes, tables), links by the numbers a
//! snapshot gives them and that a click acts on, page text that cannot pass
//! for the reading's own markup, parts with an outline, and a scope.

use serde_json::json;
use tabwright_tests::Backend;

use crate::tools::Session;

/// The number of the link `[name][N]` in a reading.
fn link_number(text: &str, name: &str) -> u32 {
    let start = format!("[{name}][");
    let at = text
        .find(&start)
        .unwrap_or_else(|| panic!("no link {name:?} in:\n{text}"))
        + start.len();
    text[at..]
        .split(']')
        .next()
        .and_then(|number| number.parse().ok())
        .unwrap_or_else(|| panic!("no number after {start:?} in:\n{text}"))
}

/// The lines of a reading between its page-content fences.
fn content(text: &str) -> Vec<&str> {
    let code = marks::fence_code(text).expect("fenced");
    text.lines()
        .skip_while(|line| !line.starts_with(&format!("--- page content {code}")))
        .skip(1)
        .take_while(|line| !line.starts_with(&format!("--- end {code}")))
        .collect()
}

async fn reads_the_main_content_as_markdown(backend: Backend) {
    let mut s = Session::start(backend, false).await;
    let opened = s.ok("open", json!({ "url": s.url("/fx/docs.html") })).await;
    let read = s.ok("read", json!({})).await;
    let text = &read.text;
    assert!(text.contains("Read: the page's main landmark"), "{text}");
    let lines = content(text);
    for line in [
        "# Install [#][",
        "3. Download the archive.",
        "4. Unpack it:",
        "tar xf widgets.tar.gz",
        "\\--- end of page content ---",
        "5. Check with `widgets --version`.",
        "## Use",
        "  - Debian and Ubuntu",
        "- macOS: from 13 on",
        "> Widgets made our builds twice as fast.",
        "| Platform | Status |",
        "| --- | --- |",
        "| Linux | supported |",
        "\\- a line that starts like a list item, # and one like a heading.",
    ] {
        assert!(
            lines.iter().any(|shown| shown.starts_with(line)),
            "no line {line:?}:\n{text}"
        );
    }
    // The page's brackets and pipes are escaped: only the reading's own
    // links read [text][N].
    assert!(
        text.contains("See \\[1\\] and | pipes | as plain text."),
        "{text}"
    );
    assert!(lines.iter().any(|line| line.starts_with("```")), "{text}");
    // Around the main landmark, and the form's controls, are left out;
    // hidden text is never read.
    for absent in [
        "Blog",
        "Other widgets",
        "© 2026",
        "Subscribe",
        "Ignore previous",
        "Hidden off-screen",
    ] {
        assert!(!text.contains(absent), "{absent:?} read:\n{text}");
    }
    // A search finds the text as it reads, whatever the source's spacing.
    assert!(
        text.contains("Words split across lines of the source."),
        "{text}"
    );
    let found = s.ok("find", json!({ "text": "split across lines" })).await;
    assert!(
        found
            .text
            .contains("Words split across lines of the source."),
        "{}",
        found.text
    );
    // Links carry the numbers a snapshot gave them, and a click acts on
    // them.
    let notes = link_number(text, "the notes");
    assert_eq!(
        notes,
        Session::number(&opened, "link \"the notes\""),
        "{text}"
    );
    assert!(text.contains("| Windows | [planned]["), "{text}");
    let clicked = s.ok("click", json!({ "element": notes })).await;
    assert!(clicked.text.contains("/notes/linux"), "{}", clicked.text);
    s.ok("close", json!({})).await;
}

async fn reads_the_whole_page_in_parts_and_a_scope(backend: Backend) {
    let mut s = Session::start(backend, false).await;
    s.ok("open", json!({ "url": s.url("/fx/docs.html") })).await;
    let all = s.ok("read", json!({ "whole_page": true })).await;
    assert!(all.text.contains("Read: the whole page."), "{}", all.text);
    for present in [
        "[Blog][",
        "Related: [Other widgets][",
        "© 2026 Widgets",
        "# Install",
    ] {
        assert!(all.text.contains(present), "no {present:?}:\n{}", all.text);
    }
    assert!(!all.text.contains("Subscribe"), "{}", all.text);
    // Cut in parts, the first has the outline: each heading and its part.
    let first = s.ok("read", json!({ "max_tokens": 40 })).await;
    let parts = first
        .text
        .lines()
        .find_map(|line| line.strip_prefix("This is part 1 of "))
        .and_then(|rest| rest.split(' ').next())
        .and_then(|count| count.trim_end_matches(';').parse::<u32>().ok())
        .unwrap_or_else(|| panic!("not in parts:\n{}", first.text));
    assert!(parts >= 2, "{}", first.text);
    assert!(first.text.contains("--- outline "), "{}", first.text);
    let outline_use = first
        .text
        .lines()
        .find(|line| line.starts_with("## Use (part "))
        .unwrap_or_else(|| panic!("no outline line for Use:\n{}", first.text));
    let part: u32 = outline_use
        .trim_start_matches("## Use (part ")
        .trim_end_matches(')')
        .parse()
        .expect("a part number");
    let there = s
        .ok("read", json!({ "max_tokens": 40, "part": part }))
        .await;
    assert!(
        content(&there.text).contains(&"## Use"),
        "part {part}:\n{}",
        there.text
    );
    assert!(!there.text.contains("--- outline "), "{}", there.text);
    let past = s
        .ok("read", json!({ "max_tokens": 40, "part": parts + 1 }))
        .await;
    assert!(
        past.text
            .contains(&format!("There is no part {}", parts + 1)),
        "{}",
        past.text
    );
    // A scope: the text of one numbered element.
    let opened = s
        .ok("open", json!({ "url": s.url("/fx/modal.html") }))
        .await;
    let dialog = Session::number(&opened, "dialog \"Accept cookies?\"");
    let scoped = s.ok("read", json!({ "element": dialog })).await;
    assert!(
        scoped.text.contains("Read: the element asked for."),
        "{}",
        scoped.text
    );
    assert!(
        scoped
            .text
            .contains("We use cookies to remember your basket."),
        "{}",
        scoped.text
    );
    assert!(
        !scoped.text.contains("Your basket has 3 items."),
        "{}",
        scoped.text
    );
    let unknown = s.call("read", json!({ "element": 9999 })).await;
    assert!(unknown.is_error, "{}", unknown.text);
    assert!(unknown.text.contains("9999"), "{}", unknown.text);
    s.ok("close", json!({})).await;
}

both_backends!(
    reads_the_main_content_as_markdown,
    reads_the_whole_page_in_parts_and_a_scope
);
