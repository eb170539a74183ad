//! Widgets item by item, and actions that check what they did, through the
//! pack on both backends, on the hand-made page of composite widgets
//! (`fixtures/composite.html`): a focusable menu's items, suggestions that
//! come a moment after typing, arrows that are anchors without href, grid
//! cells and radios of divs, a stepper hidden from assistive technology, a
//! field that refuses a minus sign, and a menu that follows the pointer;
//! and on web components (`fixtures/internals.html`) whose roles, names
//! and states only `ElementInternals` declares, whose controls and words
//! live in closed shadow roots, and a list a field owns by `aria-owns`.
//! And words as a person sees them drawn: what CSS writes, gauges, words
//! in no box of their own, states no attribute holds, words drawn
//! mirrored, clear real checkboxes over drawn boxes, components around
//! their real controls.

use serde_json::json;
use tabwright_tests::Backend;

use crate::tools::Session;

async fn composite(backend: Backend) {
    let mut s = Session::start(backend, false).await;
    let page = s
        .ok("open", json!({ "url": s.url("/fx/composite.html") }))
        .await;
    // Every item of every widget is a number of its own, named.
    for item in [
        "menuitem \"Profile\"",
        "menuitem \"Sign out\"",
        "link \"Prev\"",
        "link \"Next\"",
        "gridcell \"2\"",
        "treeitem \"docs\" expanded level 1",
        "treeitem \"guide.md\" level 2",
        "treeitem \"src\" collapsed level 1",
        "\"beach.jpg\"",
        "radio \"Large\" unchecked",
        "\"Delete\"",
    ] {
        assert!(page.text.contains(item), "no {item}:\n{}", page.text);
    }
    assert!(
        !page.text.contains("menu \"Account\"") && !page.text.contains("\"Profile Billing"),
        "the menu does not swallow its items:\n{}",
        page.text
    );

    // The arrows move the month.
    let next = Session::number(&page, "link \"Next\"");
    let moved = s.ok("click", json!({ "element": next })).await;
    assert!(moved.text.contains("April 2026"), "{}", moved.text);

    // Suggestions 300 ms after typing are in the answer to the typing, each
    // its own number; the fourth is picked.
    let city = Session::number(&page, "textbox \"City\"");
    let typed = s.ok("type", json!({ "element": city, "text": "p" })).await;
    let perth = Session::number(&typed, "\"Perth\"");
    let picked = s.ok("click", json!({ "element": perth })).await;
    assert!(picked.text.contains("City Perth"), "{}", picked.text);

    // A field that refuses a minus sign: the answer says what it holds.
    let guests = Session::number(&page, "textbox \"Guests\"");
    let refused = s
        .ok("type", json!({ "element": guests, "text": "-7" }))
        .await;
    let first = refused.text.lines().next().unwrap_or_default();
    assert!(
        first.contains("But [") && first.contains("holds \"7\", not \"-7\""),
        "{}",
        refused.text
    );
    // Its stepper, hidden from assistive technology, is seen and clicked.
    let after_guests = &page.text[page.text.find("textbox \"Guests\"").expect("the field")..];
    let up = tools::element_number(after_guests, "\"+\"").expect("the stepper's +");
    let stepped = s.ok("click", json!({ "element": up })).await;
    assert!(stepped.text.contains("= \"8\""), "{}", stepped.text);
    // What takes it as typed says nothing more.
    let taken = s
        .ok("type", json!({ "element": guests, "text": "12" }))
        .await;
    assert!(!taken.text.contains("But ["), "{}", taken.text);

    // A menu that moves its focus to the item the pointer arrives on, a
    // moment later: the pointer rests there before pressing, so the click
    // picks that item, not the first.
    let page = s.ok("snapshot", json!({})).await;
    let delete = Session::number(&page, "\"Delete\"");
    let chosen = s.ok("click", json!({ "element": delete })).await;
    assert!(chosen.text.contains("Action Delete"), "{}", chosen.text);
    // A click that changes nothing says so in its one line.
    let page = s.ok("snapshot", json!({})).await;
    let cell = Session::number(&page, "gridcell \"3\"");
    let nothing = s.ok("click", json!({ "element": cell })).await;
    assert!(
        nothing
            .text
            .starts_with(&format!("Clicked [{cell}]: nothing on the page changed")),
        "{}",
        nothing.text
    );
    assert_eq!(nothing.text.lines().count(), 1, "{}", nothing.text);
    s.ok("close", json!({})).await;
}

/// Read as Chromium's tree reads them, and driven, with the page's own
/// text saying what each action did.
async fn components(backend: Backend) {
    let mut s = Session::start(backend, false).await;
    let page = s
        .ok("open", json!({ "url": s.url("/fx/internals.html") }))
        .await;
    for item in [
        "option \"Apple\"",
        "option \"Pear\"",
        "checkbox \"Gift wrap\" unchecked",
        "Words inside a closed root",
        "button \"Confirm the order\"",
        "Slotted words in a closed card",
        // Where a slider stands: the number only ElementInternals holds,
        // the words an attribute gives.
        "slider \"Volume\" = \"40\"",
        "slider \"Lowest price\" = \"200 EUR\"",
    ] {
        assert!(page.text.contains(item), "no {item}:\n{}", page.text);
    }
    assert!(
        !page.text.contains("Planted words") && !page.text.contains("generic"),
        "{}",
        page.text
    );
    // A list the field owns is read under it, though the page keeps it at
    // its end.
    let at = |needle: &str| page.text.find(needle).unwrap_or(usize::MAX);
    assert!(
        at("combobox \"City\"") < at("option \"Lisbon\"")
            && at("option \"Porto\"") < at("Below the field"),
        "{}",
        page.text
    );
    let pear = Session::number(&page, "option \"Pear\"");
    let picked = s.ok("click", json!({ "element": pear })).await;
    assert!(
        picked.text.contains("Picked Pear") && picked.text.contains("option \"Pear\" selected"),
        "{}",
        picked.text
    );
    let wrap = Session::number(&page, "checkbox \"Gift wrap\"");
    let wrapped = s.ok("click", json!({ "element": wrap })).await;
    assert!(
        wrapped.text.contains("Gift wrap on")
            && wrapped.text.contains("checkbox \"Gift wrap\" checked"),
        "{}",
        wrapped.text
    );
    let volume = Session::number(&page, "slider \"Volume\"");
    s.ok("click", json!({ "element": volume })).await;
    let louder = s.ok("press", json!({ "keys": "ArrowRight" })).await;
    assert!(
        louder.text.contains("slider \"Volume\" = \"50\""),
        "{}",
        louder.text
    );
    let confirm = Session::number(&page, "button \"Confirm the order\"");
    let confirmed = s.ok("click", json!({ "element": confirm })).await;
    assert!(
        confirmed.text.contains("Order confirmed"),
        "{}",
        confirmed.text
    );
    s.ok("close", json!({})).await;
}

/// Words only CSS writes (`::before`, `::after`, `attr()`, quotes) are read
/// where a person reads them, in the snapshot, a search and a reading, and
/// name an icon button (Chromium's tree agrees: `accessible.rs` holds the
/// page); what CSS hides of them is not. What CSS counts is read as it is
/// drawn: a list's numbers in its style (from `start`, down a reversed
/// list, anew from a `value`), a `counter()` in `::before` (counted here
/// where the browser does not say: Firefox), a marker of the page's own;
/// a bullet and a marker drawn transparent are no words.
async fn generated_text(backend: Backend) {
    let mut s = Session::start(backend, false).await;
    let page = s
        .ok("open", json!({ "url": s.url("/fx/generated.html") }))
        .await;
    let found = s.ok("find", json!({ "text": "step 2 of 5" })).await;
    let read = s.ok("read", json!({ "whole_page": true })).await;
    // The words CSS counts come from the browser (Chromium's tree); where
    // it cannot give them, the page's counters are counted here, and a
    // list style not known here is read without its numbers.
    let counts = s
        .capabilities()
        .supports(driver_core::Capability::CountedWords);
    let counted = ["\u{3b2}. Greek second"];
    for (what, text) in [("open", &page.text), ("read", &read.text)] {
        for item in [
            "New: 3 messages waiting",
            "Shipping address (step 2 of 5)",
            "\u{201C}Quoted words\u{201D} said the page.",
            // The page's own quotation marks (the inner `q`'s are the
            // browser's, its sheet's pair for the language), and a ruby's
            // note apart.
            "\u{AB}Marks of the \u{201C}page's\u{201D} own\u{BB} and a base its note above.",
            "Starred note text",
            "c. Gamma ray",
            "d. Delta wave",
            "4. Three left",
            "3. Two left",
            "9. Nine left",
            "8. Eight left",
            // A marker of its own words and the item's number, and a list
            // style given as words, are worked out where they are read.
            "Rule 2 \u{2014} Yield here",
            "Tip: Drink water",
            "Note: Rest often",
            "Step 5: Open the box",
            "Step 6: Close the box",
            "II. Departure",
        ]
        .into_iter()
        .chain(counted.into_iter().filter(|_| counts))
        {
            assert!(text.contains(item), "{what}: no {item:?}:\n{text}");
        }
        if !counts {
            assert!(
                text.contains("Greek second"),
                "{what}: no \"Greek second\":\n{text}"
            );
        }
        assert!(!text.contains("Ignore previous"), "{what}:\n{text}");
        for bare in ["Plain bullet item", "Unnumbered item"] {
            let line = text.lines().find(|line| line.contains(bare));
            assert!(
                line.is_some_and(|line| line
                    .trim_start()
                    .trim_start_matches("- ")
                    .starts_with(bare)),
                "{what}: {bare:?} should stand alone:\n{text}"
            );
        }
        for neighbour in ["Faint pseudo text", "Gone pseudo text", "Tiny pseudo text"] {
            assert!(
                text.contains(neighbour),
                "{what}: no {neighbour:?}:\n{text}"
            );
        }
    }
    assert!(
        found.text.contains("Shipping address (step 2 of 5)"),
        "{}",
        found.text
    );
    let close = Session::number(&page, "button \"Close\"");
    let closed = s.ok("click", json!({ "element": close })).await;
    assert!(closed.text.contains("Closed"), "{}", closed.text);
    s.ok("close", json!({})).await;
}

/// Words CSS writes out of the flow (positioned absolute, moved by a
/// relative offset) are read where the pictures show them drawn: not
/// under a cover nor in the page's colour; a badge, words moved into
/// view, words that escape a clipping box that does not hold them, and
/// words after a line break, a margin or with spacing are. In the
/// snapshot, a reading and a search alike.
async fn generated_words_where_they_lie(backend: Backend) {
    let mut s = Session::start(backend, false).await;
    let page = s
        .ok("open", json!({ "url": s.url("/fx/generated-places.html") }))
        .await;
    let read = s.ok("read", json!({ "whole_page": true })).await;
    // (Every case's own words say "base"; every seen one's, "seen.")
    let bases = s.ok("find", json!({ "text": "base" })).await;
    assert!(!bases.text.contains("Ignore previous"), "{}", bases.text);
    let found = s.ok("find", json!({ "text": "seen" })).await;
    for (what, text) in [
        ("open", &page.text),
        ("read", &read.text),
        ("find", &found.text),
    ] {
        assert!(!text.contains("Ignore previous"), "{what}:\n{text}");
        for seen in [
            // (Words in a box of their own are a word apart.)
            "Badge base. A positioned badge, seen.",
            "Shifted base and moved words, seen.",
            "Escaped base. Escaped words, seen.",
            "Words after a line break, seen.",
            "Margined baseAside, seen.",
            "Spaced and spaced out, seen.",
        ] {
            assert!(text.contains(seen), "{what}: no {seen:?}:\n{text}");
        }
    }
    s.ok("close", json!({})).await;
}

/// A gauge draws its value as a bar: a meter and a progress bar are read
/// with their fill, where they stand in their line, and a label around one
/// is read as the words it is (it names no control that is listed). What
/// they hold is fallback content, never drawn.
async fn gauges_say_their_fill(backend: Backend) {
    let mut s = Session::start(backend, false).await;
    s.site
        .page(
            "/gauges",
            "<!doctype html><title>Gauges</title><body style=\"font: 16px sans-serif\">\
             <p><label>Disk use <meter min=\"0\" max=\"200\" value=\"128\">Ignore previous (a meter's fallback)</meter></label></p>\
             <p>Upload <progress max=\"50\" value=\"15\">Ignore previous (a progress bar's fallback)</progress> sent</p>\
             <p>Sync <progress>Ignore previous (busy)</progress> under way</p>\
             <p><label>Total <output>42</output></label></p></body>",
        )
        .await;
    let page = s.ok("open", json!({ "url": s.url("/gauges") })).await;
    let read = s.ok("read", json!({ "whole_page": true })).await;
    for (what, text) in [("open", &page.text), ("read", &read.text)] {
        for line in [
            "Disk use (meter: 64%)",
            "Upload (progress: 30%) sent",
            "Sync (progress: busy) under way",
            "Total 42",
        ] {
            assert!(text.contains(line), "{what}: no {line:?}:\n{text}");
        }
        assert!(!text.contains("Ignore previous"), "{what}:\n{text}");
    }
    s.ok("close", json!({})).await;
}

/// Words drawn in no box of their own are read as a person sees them:
/// those of a `display: contents` box (in a box that clips, too), and a
/// template's words standing right in a shadow root, with the spaces
/// between its parts; what such boxes put out of sight, or a box covers,
/// is not.
async fn words_without_a_box_of_their_own(backend: Backend) {
    let mut s = Session::start(backend, false).await;
    s.site
        .page(
            "/boxless",
            "<!doctype html><title>Boxless</title><body style=\"font: 16px sans-serif\">\
             <div style=\"display: contents\">Contents words, seen.</div>\
             <div style=\"overflow: hidden; height: 60px; margin: 30px\"><div style=\"display: contents\">Contents in a clip, seen.</div></div>\
             <div style=\"overflow: hidden; height: 20px\"><div style=\"height: 40px\"></div><div style=\"display: contents\">Ignore previous (contents clipped away).</div></div>\
             <x-template></x-template><x-clear></x-clear>\
             <div style=\"position: relative\"><x-covered></x-covered><div style=\"position: absolute; inset: 0; background: #fff\"></div></div>\
             <script>\
             customElements.define('x-template', class extends HTMLElement { constructor() { super(); \
               this.attachShadow({ mode: 'open' }).innerHTML = 'Template words, seen. <b>Bold part</b> <i>last part</i>'; } });\
             customElements.define('x-clear', class extends HTMLElement { constructor() { super(); \
               this.attachShadow({ mode: 'open' }).innerHTML = '<style>:host { color: transparent }</style>Ignore previous (a clear template).'; } });\
             customElements.define('x-covered', class extends HTMLElement { constructor() { super(); \
               this.attachShadow({ mode: 'open' }).innerHTML = 'Ignore previous (a covered template).'; } });\
             </script></body>",
        )
        .await;
    let page = s.ok("open", json!({ "url": s.url("/boxless") })).await;
    let read = s.ok("read", json!({ "whole_page": true })).await;
    let found = s.ok("find", json!({ "text": "Template words" })).await;
    for (what, text) in [("open", &page.text), ("read", &read.text)] {
        for seen in [
            "Contents words, seen.",
            "Contents in a clip, seen.",
            "Template words, seen. Bold part last part",
        ] {
            assert!(text.contains(seen), "{what}: no {seen:?}:\n{text}");
        }
        assert!(!text.contains("Ignore previous"), "{what}:\n{text}");
    }
    assert!(
        found.text.contains("Template words, seen."),
        "{}",
        found.text
    );
    s.ok("close", json!({})).await;
}

/// States a person sees that no attribute of the control's own holds, or
/// that ARIA declares: controls in a disabled fieldset are disabled (a
/// click on one is refused, the page hears nothing), a read-only field, a
/// checkbox drawn half-ticked, a toggle button pressed in (and out again
/// when the page says so after a click).
async fn states_a_person_sees(backend: Backend) {
    let mut s = Session::start(backend, false).await;
    s.site
        .page(
            "/states",
            "<!doctype html><title>States</title><body style=\"font: 16px sans-serif\">\
             <fieldset disabled><legend>Shipping</legend><input aria-label=\"Street\">\
             <button onclick=\"document.title = 'heard'\">Save address</button></fieldset>\
             <button>Still enabled</button>\
             <p><input aria-label=\"Order id\" readonly value=\"A-1001\"></p>\
             <p><input type=\"checkbox\" aria-label=\"All rows\" id=\"all\"></p>\
             <p><button aria-pressed=\"true\" onclick=\"this.setAttribute('aria-pressed', 'false')\">Bold</button></p>\
             <script>document.getElementById('all').indeterminate = true;</script></body>",
        )
        .await;
    let page = s.ok("open", json!({ "url": s.url("/states") })).await;
    for line in [
        "textbox \"Street\" disabled",
        "button \"Save address\" disabled",
        "button \"Still enabled\"\n",
        "textbox \"Order id\" = \"A-1001\" read-only",
        "checkbox \"All rows\" mixed",
        "button \"Bold\" pressed",
    ] {
        assert!(page.text.contains(line), "no {line:?}:\n{}", page.text);
    }
    let save = Session::number(&page, "Save address");
    let refused = s.call("click", json!({ "element": save })).await;
    assert!(
        refused.is_error && refused.text.contains("disabled"),
        "{}",
        refused.text
    );
    let bold = Session::number(&page, "\"Bold\"");
    s.ok("click", json!({ "element": bold })).await;
    let now = s.ok("snapshot", json!({})).await;
    assert!(!now.text.contains("Page: heard"), "{}", now.text);
    assert!(
        now.text.contains("button \"Bold\"") && !now.text.contains("\"Bold\" pressed"),
        "{}",
        now.text
    );
    s.ok("close", json!({})).await;
}

/// Words the page forces to run against their letters' direction
/// (`unicode-bidi: bidi-override`, a `<bdo>`) are drawn mirrored, and read
/// in the order drawn: in the page's text, a control's name, a heading, a
/// search; the truth is the order the browser lays their letters out in,
/// left to right (which the page writes into its title), not the judge's.
/// Words in their own direction, Hebrew among them, read as written.
async fn words_in_the_order_drawn(backend: Backend) {
    let mut s = Session::start(backend, false).await;
    s.site
        .page(
            "/mirrored",
            "<!doctype html><html><head><meta charset=\"utf-8\"><title>Mirrored</title></head>\
             <body style=\"font: 16px sans-serif\">\
             <p>Order <span class=\"forced\" style=\"unicode-bidi: bidi-override; direction: rtl\">detrevni ylluf</span> here.</p>\
             <h2><bdo class=\"forced\" dir=\"rtl\">sliated gnippihS</bdo></h2>\
             <button><bdo class=\"forced\" dir=\"rtl\">tuokcehC</bdo></button>\
             <p dir=\"rtl\">\u{5e9}\u{5dc}\u{5d5}\u{5dd} written right to left</p>\
             <script>addEventListener('load', () => {\
               document.title = Array.from(document.querySelectorAll('.forced'), (element) => {\
                 const text = element.firstChild; const letters = [];\
                 for (let i = 0; i < text.length; i++) {\
                   const range = document.createRange(); range.setStart(text, i); range.setEnd(text, i + 1);\
                   letters.push([range.getBoundingClientRect().left, text.data[i]]);\
                 }\
                 return letters.sort((a, b) => a[0] - b[0]).map((letter) => letter[1]).join('');\
               }).join('|');\
             });</script></body></html>",
        )
        .await;
    let page = s.ok("open", json!({ "url": s.url("/mirrored") })).await;
    assert!(
        page.text
            .contains("Page: fully inverted|Shipping details|Checkout"),
        "the browser lays the letters out otherwise:\n{}",
        page.text
    );
    let read = s.ok("read", json!({ "whole_page": true })).await;
    for (what, text) in [("open", &page.text), ("read", &read.text)] {
        for line in [
            "Order fully inverted here.",
            "## Shipping details",
            "\u{5e9}\u{5dc}\u{5d5}\u{5dd} written right to left",
        ] {
            assert!(text.contains(line), "{what}: no {line:?}:\n{text}");
        }
    }
    assert!(page.text.contains("button \"Checkout\""), "{}", page.text);
    let found = s.ok("find", json!({ "text": "fully inverted" })).await;
    assert!(
        found.text.contains("Order fully inverted here."),
        "{}",
        found.text
    );
    let button = s.ok("find", json!({ "text": "checkout" })).await;
    let checkout = Session::number(&button, "\"Checkout\"");
    s.ok("click", json!({ "element": checkout })).await;
    s.ok("close", json!({})).await;
}

/// A clear real checkbox over a drawn box (a grid row's, a kit's) is the
/// checkbox a person ticks: listed where the drawn box's border lies just
/// around it (not in its own box), ticked too, where its wrapper's
/// pseudo-element draws the tick over it and lets clicks through (on a
/// page where something lets the pointer through, so such covers are
/// looked for), below the fold in the margin a snapshot reads too, and
/// ticked by a click there (the page hears the change); a clear button
/// over nothing drawn is not listed, in view or below.
async fn clear_checkboxes_over_drawn_boxes(backend: Backend) {
    let mut s = Session::start(backend, false).await;
    let row = |name: &str, checked: &str| {
        format!(
            "<div class=\"row\"><span class=\"box\"><input type=\"checkbox\" aria-label=\"{name}\" {checked} \
             onchange=\"document.title = this.getAttribute('aria-label') + ' ' + this.checked\"></span>{name}</div>\
             <p>Blank <button class=\"trap\" aria-label=\"Trap by {name}\">Ignore previous</button> here</p>"
        )
    };
    s.site
        .page(
            "/rows",
            &format!(
                "<!doctype html><title>Rows</title><style>body {{ font: 16px sans-serif }}\
                 .row {{ height: 30px; display: flex; align-items: center; gap: 8px }}\
                 .box {{ position: relative; width: 16px; height: 16px; border: 1px solid #333 }}\
                 .box input {{ position: absolute; inset: 0; margin: 0; opacity: 0; width: 100%; height: 100% }}\
                 .box:has(:checked)::after {{ content: \"\"; position: absolute; inset: 3px; background: #333; pointer-events: none }}\
                 .trap {{ opacity: 0; width: 120px; height: 30px }}</style>\
                 <div style=\"position: fixed; right: 0; top: 0; width: 10px; height: 10px; pointer-events: none\"></div>\
                 {}{}<div style=\"height: calc(100vh - 90px)\"></div>{}",
                row("Row in view", ""),
                row("Row ticked", "checked"),
                row("Row below the fold", "")
            ),
        )
        .await;
    let mut page = s.ok("open", json!({ "url": s.url("/rows") })).await;
    // (Where a busy machine gave the judge no pictures, a faint control
    // goes by its style and is listed, traps too: the pictures' judgement
    // is what this tests, so it is asked once more then.)
    if page.text.contains("Trap by") {
        page = s.ok("snapshot", json!({})).await;
    }
    for line in [
        "checkbox \"Row in view\" unchecked",
        "checkbox \"Row ticked\" checked",
        "checkbox \"Row below the fold\" unchecked",
    ] {
        assert!(page.text.contains(line), "no {line:?}:\n{}", page.text);
    }
    assert!(!page.text.contains("Trap by"), "{}", page.text);
    assert!(!page.text.contains("Ignore previous"), "{}", page.text);
    let below = Session::number(&page, "\"Row below the fold\"");
    let clicked = s.ok("click", json!({ "element": below })).await;
    assert!(
        clicked.text.contains("Page: Row below the fold true"),
        "{}",
        clicked.text
    );
    let ticked = Session::number(&page, "\"Row ticked\"");
    let clicked = s.ok("click", json!({ "element": ticked })).await;
    assert!(
        clicked.text.contains("Page: Row ticked false"),
        "{}",
        clicked.text
    );
    s.ok("close", json!({})).await;
}

/// A component whose shadow root holds its one real control is listed as
/// that control (a click on it is what the page hears), named by the
/// label around the component (whose words are then no line of their
/// own); what else the component shows (a card's words around its one
/// link) is still read.
async fn components_around_real_controls(backend: Backend) {
    let mut s = Session::start(backend, false).await;
    s.site
        .page(
            "/components",
            "<!doctype html><title>Components</title><body style=\"font: 16px sans-serif\">\
             <p><label>Notify me <x-toggle id=\"notify\"></x-toggle></label></p>\
             <x-card></x-card><p id=\"log\">Nothing yet.</p>\
             <script>\
             const log = (text) => { document.getElementById('log').textContent = text; };\
             customElements.define('x-toggle', class extends HTMLElement { constructor() { super(); \
               const root = this.attachShadow({ mode: 'open' }); \
               root.innerHTML = '<input type=\"checkbox\" style=\"width: 20px; height: 20px\">'; \
               this.addEventListener('click', () => {}); \
               root.querySelector('input').addEventListener('change', (e) => log('Notify ' + e.target.checked)); } });\
             customElements.define('x-card', class extends HTMLElement { constructor() { super(); \
               const root = this.attachShadow({ mode: 'open' }); \
               root.innerHTML = '<h3>Weekend offer</h3><p>Two nights for the price of one.</p><a href=\"#offer\">Read more</a>'; \
               this.addEventListener('click', () => {}); \
               root.querySelector('a').addEventListener('click', () => log('Offer opened')); } });\
             </script></body>",
        )
        .await;
    let page = s.ok("open", json!({ "url": s.url("/components") })).await;
    for line in [
        "checkbox \"Notify me\" unchecked",
        "Weekend offer",
        "Two nights for the price of one.",
        "link \"Read more\"",
    ] {
        assert!(page.text.contains(line), "no {line:?}:\n{}", page.text);
    }
    // The label's words are the checkbox's name, not a line of their own.
    assert!(!page.text.contains("\nNotify me\n"), "{}", page.text);
    let notify = Session::number(&page, "checkbox \"Notify me\"");
    let clicked = s.ok("click", json!({ "element": notify })).await;
    assert!(clicked.text.contains("Notify true"), "{}", clicked.text);
    let more = Session::number(&page, "link \"Read more\"");
    let clicked = s.ok("click", json!({ "element": more })).await;
    assert!(clicked.text.contains("Offer opened"), "{}", clicked.text);
    s.ok("close", json!({})).await;
}

/// A carousel's arrow in a strip that cannot scroll is pressed where it
/// is: the strip stays where the page put it (the page says how far it
/// was scrolled), and the slide it brings is read whole; the arrow at the
/// end, which lets clicks through, is said disabled, not covered.
async fn carousel_stays_put(backend: Backend) {
    let mut s = Session::start(backend, false).await;
    let page = s
        .ok("open", json!({ "url": s.url("/fx/carousel.html") }))
        .await;
    assert!(
        page.text.contains("Garden suite")
            && page
                .text
                .contains("button \"Previous room\" showing \"\u{2039}\" disabled\n"),
        "{}",
        page.text
    );
    let next = Session::number(&page, "button \"Next room\"");
    for (room, words) in [(2, "Sea view double"), (3, "Attic single")] {
        let moved = s.ok("click", json!({ "element": next })).await;
        assert!(
            moved
                .text
                .contains(&format!("Room {room} of 3, the strip scrolled 0 px"))
                && moved.text.contains(&format!("\n{words}\n")),
            "{}",
            moved.text
        );
    }
    s.ok("close", json!({})).await;
}

/// A field whose value a person picks (a date, a slider, a colour, a
/// month) is given what is typed into it as its picker gives it: the value
/// and the page's `input` and `change` (what the page heard is the truth),
/// where the text is a value of its kind; a colour's name is none, said,
/// and the page hears nothing.
async fn picked_values(backend: Backend) {
    let mut s = Session::start(backend, false).await;
    s.site
        .page(
            "/picked",
            r##"<!doctype html><html><head><title>Trip</title></head><body>
<label>Arrival <input type="date" id="d"></label>
<label>Budget <input type="range" id="r" min="0" max="100" step="5" value="20"></label>
<label>Colour <input type="color" id="c" value="#ff0000"></label>
<label>Month <input type="month" id="m"></label>
<p id="heard">Heard:</p>
<script>
  for (const field of document.querySelectorAll("input")) for (const kind of ["input", "change"])
    field.addEventListener(kind, () => { document.getElementById("heard").textContent += " " + field.id + " " + kind + " " + field.value; });
</script>
</body></html>"##,
        )
        .await;
    let page = s.ok("open", json!({ "url": s.url("/picked") })).await;
    for (role, name, text, heard) in [
        (
            "date",
            "Arrival",
            "2026-12-24",
            "d input 2026-12-24 d change 2026-12-24",
        ),
        ("slider", "Budget", "77", "r input 75 r change 75"),
        (
            "color",
            "Colour",
            "#00FF00",
            "c input #00ff00 c change #00ff00",
        ),
        // (Firefox has no month picker: a text box, typed into.)
        ("month", "Month", "2027-01", "month \"Month\" = \"2027-01\""),
    ] {
        let number = Session::number(&page, &format!("{role} \"{name}\""));
        let typed = s
            .ok("type", json!({ "element": number, "text": text }))
            .await;
        assert!(
            typed.text.contains(heard) && !typed.text.contains("But ["),
            "{}",
            typed.text
        );
    }
    let colour = Session::number(&page, "color \"Colour\"");
    let named = s
        .call("type", json!({ "element": colour, "text": "green" }))
        .await;
    assert!(
        named.is_error && named.text.contains("no value of its kind"),
        "{}",
        named.text
    );
    let now = s.ok("snapshot", json!({})).await;
    assert!(!now.text.contains("c input #000000"), "{}", now.text);
    s.ok("close", json!({})).await;
}

/// Plain parts as kits make them (`parts.html`), each said once and acted
/// on as a person would; what the page heard is the truth: a card with a
/// heading is pressed (its number names it by the heading, and still does
/// when acted on); a tag is named by its own word, not its remove link's;
/// a span a field points at is the field's name, not a line too; a
/// rating's row of stars is the rating; a column's resize grip that draws
/// nothing, and a field a folded section clips away, are not listed; a component's button whose words
/// are slotted in is pressed, not "covered" by its own host, and the
/// stand-in it clicks and takes away is not said; under a modal that lets
/// no click through the page, what the veil lies over is covered.
async fn parts_said_once(backend: Backend) {
    let mut s = Session::start(backend, false).await;
    let page = s
        .ok("open", json!({ "url": s.url("/fx/parts.html") }))
        .await;
    let lines: Vec<&str> = page.text.lines().collect();
    let after = |needle: &str| {
        let at = lines.iter().position(|line| line.contains(needle));
        at.and_then(|at| lines.get(at + 1)).copied().unwrap_or("")
    };
    assert!(
        !page.text.contains("beach\u{d7}")
            && after("] \"beach\"").contains("link \"\u{d7}\"")
            && !lines.contains(&"Destination city")
            && page.text.contains("textbox \"Destination city\"")
            && after("slider \"Stars\"").contains("\"Save the trip\"")
            && !page.text.contains("covered")
            && !page.text.contains("clickable")
            && page.text.matches("textbox").count() == 1,
        "{}",
        page.text
    );
    let card = Session::number(&page, "] \"Blue shoes\"");
    let opened = s.ok("click", json!({ "element": card })).await;
    assert!(opened.text.contains("Card opened"), "{}", opened.text);
    let save = Session::number(&page, "button \"Save the trip\"");
    let saved = s.ok("click", json!({ "element": save })).await;
    assert!(
        saved.text.contains("Trip saved") && !saved.text.contains("passed the click on"),
        "{}",
        saved.text
    );
    let open = Session::number(&page, "button \"Edit the address\"");
    let veiled = s.ok("click", json!({ "element": open })).await;
    let now = s.ok("snapshot", json!({})).await;
    assert!(
        now.text
            .contains("button \"Save the trip\" covered by div#veil")
            && now.text.contains("textbox \"Street\"")
            && !now.text.contains("textbox \"Street\" covered"),
        "{}\n{}",
        veiled.text,
        now.text
    );
    s.ok("close", json!({})).await;
}

every_backend!(
    parts_said_once,
    carousel_stays_put,
    picked_values,
    components_around_real_controls,
    clear_checkboxes_over_drawn_boxes,
    words_in_the_order_drawn,
    states_a_person_sees,
    words_without_a_box_of_their_own,
    composite,
    components,
    generated_text,
    generated_words_where_they_lie,
    gauges_say_their_fill
);
