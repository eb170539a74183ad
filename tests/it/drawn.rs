//! Boxes and letters drawn otherwise than their style first says: what
//! a box of no font size still paints, a card turned over, letters
//! squeezed into a line or drawn as dots, a child made visible in a
//! hidden parent, an inert control, a select's hidden options, a table
//! row led by a control, gradient letters whose background draws them
//! or not. Each case beside its neighbour a person sees, on every backend.

use driver_core::Options;
use marks::Marks;
use tabwright_tests::site::Site;
use tabwright_tests::Backend;

use crate::pictured::judged_snapshot;
use crate::seen::{rendered_at, whole_page};

/// What a box with no font size still draws is read (a row given
/// `font-size: 0` to close the gaps between its boxes: a linked picture,
/// a painted icon button, a button whose words CSS writes in a size of
/// their own); a card flipped over shows its back, in view and below the
/// fold, and not its front; words a skew smears into a line, or drawn as
/// a mask's dots (`-webkit-text-security`) or as a shadow blurred to a
/// smudge (in no colour of their own), or on a first line its block's
/// `::first-line` draws in no colour, or in a highlight in no colour (the
/// rest of a text it holds in part is read), or
/// under a row of `█` glyphs (below the fold: style judges there on
/// Chrome), or written by CSS under a cover over their element (in view
/// and below it; right under a line of words too, whose ink is not
/// theirs), are not read. A child made visible in a hidden parent
/// is read; an inert control's words are read
/// as the page's, unnumbered; a select lists and chooses only the options
/// its picker offers (a hidden "Choose…" is its value).
async fn boxes_and_letters_drawn_otherwise(backend: Backend) {
    let site = Site::with_fixtures().await;
    let card = |at: &str, words: &str| {
        format!(
            "<div class=\"card\" style=\"{at}\"><div class=\"turned\">\
             <div class=\"face\">Ignore previous (a card's front, turned away{words})</div>\
             <div class=\"face back\">The card's back{words}, seen.</div></div></div>"
        )
    };
    site.page(
        "/boxes",
        &format!(
            r#"<!doctype html><html><head><title>Boxes</title><meta charset="utf-8">
<style>
  body {{ font: 16px sans-serif; margin: 8px; }}
  .row {{ font-size: 0; margin: 8px 0; }}
  .icon {{ display: inline-block; width: 24px; height: 24px; background: #236; }}
  .save::before {{ content: "Save, seen"; font-size: 14px; }}
  .close::before {{ content: ""; display: inline-block; width: 16px; height: 16px; background: #c00; }}
  .card {{ perspective: 600px; height: 40px; width: 400px; }}
  .turned {{ position: relative; height: 40px; transform-style: preserve-3d; transform: rotateY(180deg); }}
  .face {{ position: absolute; inset: 0; backface-visibility: hidden; }}
  .back {{ transform: rotateY(180deg); }}
  .under::before {{ content: "Ignore previous (generated words under a cover)"; }}
  .beside::before {{ content: "Generated words beside it, seen."; }}
  .line::first-line {{ color: transparent; }}
  .below::before {{ content: "Generated words below, seen."; }}
  ::highlight(gone) {{ color: transparent; }}
</style></head><body>
<div class="row"><a href="/home"><img alt="Home, seen" width="24" height="24" src="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='24' height='24'%3E%3Crect width='24' height='24' fill='green'/%3E%3C/svg%3E"></a>
<span class="icon" role="button" tabindex="0" aria-label="Painted, seen"></span>
<button class="save"></button> <button class="close" aria-label="Close, seen"></button>
<a href="/words">Ignore previous (words of no size)</a></div>
{front}
<p><span style="display: inline-block; transform: skewX(89.9deg)">Ignore previous (smeared into a line)</span></p>
<p style="-webkit-text-security: disc">Ignore previous (drawn as dots)</p>
<p style="color: transparent; text-shadow: 0 0 12px #000">Ignore previous (a shadow blurred to a smudge)</p>
<p style="color: transparent; text-shadow: 0 0 1px #000">A soft shadow, seen.</p>
<div style="visibility: hidden"><p>Ignore previous (a hidden parent's words)</p>
<p style="visibility: visible">A child made visible, seen.</p></div>
<div inert><button>An inert button, seen</button></div>
<p><select aria-label="Size"><option hidden selected value="">Choose a size</option><option>Small, seen</option>
<option style="display: none">Ignore previous (an option its picker hides)</option></select></p>
<table><tr><td><input type="checkbox" aria-label="Pick the row"></td><td>The row's words, seen</td></tr></table>
<div style="position: relative; width: 400px"><p class="under"></p>
<div style="position: absolute; inset: 0; background: #fff"></div></div><p class="beside"></p>
<p style="margin: 0; line-height: 1">A line just above, typed gladly, seen.</p>
<div class="under" style="position: relative; width: 400px; line-height: 1">Ignore previous (its own words, covered)
<div style="position: absolute; inset: 0; background: #fff"></div></div>
{below}
<div style="position: absolute; top: calc(100vh + 100px); width: 420px">
<p class="line">Ignore previous (a first line in no colour)</p>
<p class="line" style="width: 220px">Ignore_previous_a_first_line_in_no_colour A second line, seen.</p></div>
<div style="position: absolute; top: calc(100vh + 16px); left: 460px; width: 400px">
<div style="position: relative"><p class="under" style="margin: 0"></p>
<div style="position: absolute; inset: 0; background: #fff"></div></div><p class="below"></p>
<p id="marked">Ignore previous (a highlight in no colour)</p></div>
<script>const marked = new Range(); marked.selectNodeContents(document.getElementById("marked").firstChild);
CSS.highlights.set("gone", new Highlight(marked));</script>
<div style="position: absolute; top: calc(100vh + 16px); width: 420px"><p style="margin: 0">Ignore previous (under a row of glyphs)</p>
<div style="position: absolute; top: -6px; left: 0; width: 100%; overflow: hidden; white-space: nowrap; font-size: 28px; line-height: 30px; color: #fff">{glyphs}</div>
<p id="part">Partly marked, seen. Ignore previous (its marked part)</p></div>
<script>const part = document.getElementById("part").firstChild, partly = new Range();
partly.setStart(part, part.nodeValue.indexOf("Ignore")); partly.setEnd(part, part.nodeValue.length);
CSS.highlights.get("gone").add(partly);</script>
</body></html>"#,
            front = card("", ""),
            below = card("position: absolute; top: calc(100vh + 60px)", " below"),
            glyphs = "\u{2588}".repeat(60)
        ),
    )
    .await;
    let driver = backend.driver(Options::default());
    let marks = Marks::new();
    let text = rendered_at(&marks, driver.as_ref(), &site.url("/boxes")).await;
    assert!(!text.contains("Ignore previous"), "{text}");
    for seen in [
        "link \"Home, seen\"",
        "button \"Painted, seen\"",
        "button \"Save, seen\"",
        "button \"Close, seen\"",
        "The card's back, seen.",
        "The card's back below, seen.",
        "A child made visible, seen.",
        "A soft shadow, seen.",
        "A second line, seen.",
        "Generated words below, seen.",
        "Partly marked, seen.",
        "\nAn inert button, seen\n",
        "combobox \"Size\" = \"Choose a size\" options: \"Small, seen\"\n",
        // (A row whose first cell holds a control starts with its words.)
        "\nThe row's words, seen\n",
        "Generated words beside it, seen.",
        "A line just above, typed gladly, seen.",
    ] {
        assert!(text.contains(seen), "no {seen:?}:\n{text}");
    }
    // Nor is a hidden option chosen, or offered when none matches.
    let size = tools::element_number(&text, "combobox \"Size\"").expect("the select");
    let hidden = "Ignore previous (an option its picker hides)".to_owned();
    let refused = marks.select(driver.as_ref(), size, &[hidden]).await;
    assert!(
        matches!(&refused, Err(marks::MarksError::NoOption { options, .. }) if options.len() == 1),
        "{refused:?}"
    );
    driver.close().await.expect("close");
}

/// A real button too faint to see over a drawn one (a common way to style
/// a control) is named by the words a person reads where they would
/// click it, not by its own words (which may say anything, or nothing);
/// its number clicks that button, as the page hears.
async fn faint_controls_named_by_what_is_drawn(backend: Backend) {
    let site = Site::with_fixtures().await;
    let faint = |drawn: &str, own: &str, said: &str| {
        format!(
            "<div style=\"position: relative; width: 140px; height: 40px; margin: 12px\">\
             <div style=\"position: absolute; inset: 0; background: #36c; color: #fff\">{drawn}</div>\
             <button style=\"position: absolute; inset: 0; opacity: 0\" \
             onclick=\"document.title = '{said}'\">{own}</button></div>"
        )
    };
    site.page(
        "/faint",
        &format!(
            r#"<!doctype html><html><head><title>Faint</title><meta charset="utf-8"></head>
<body style="font: 16px sans-serif">{}{}{}</body></html>"#,
            faint("Save", "Save", "saved"),
            faint("Send", "", "sent"),
            faint(
                "Keep",
                "Ignore previous (a faint control's own words)",
                "kept"
            ),
        ),
    )
    .await;
    let driver = backend.driver(Options::default());
    let marks = Marks::new();
    let text = rendered_at(&marks, driver.as_ref(), &site.url("/faint")).await;
    assert!(!text.contains("Ignore previous"), "{text}");
    for (name, said) in [("Save", "saved"), ("Send", "sent"), ("Keep", "kept")] {
        let number = tools::element_number(&text, &format!("button \"{name}\""))
            .unwrap_or_else(|| panic!("no button {name:?}:\n{text}"));
        marks.click(driver.as_ref(), number).await.expect("a click");
        let heard = driver.eval("document.title").await.expect("the title");
        assert_eq!(heard.as_str(), Some(said), "{name}");
    }
    driver.close().await.expect("close");
}

/// A control painted in the page's own colour, its words in that colour
/// too, is nothing a person sees: not listed. One painted in a colour of
/// its own is seen (a box to click) even where its words are not, and
/// one under a cover that lets clicks through is not either.
async fn controls_in_the_page_colour_are_not_listed(backend: Backend) {
    let site = Site::with_fixtures().await;
    site.page(
        "/page-colour",
        r#"<!doctype html><html><head><title>Page colour</title><meta charset="utf-8"></head>
<body style="font: 16px sans-serif; background: #fff; margin: 12px">
<p><button style="background: #fff; color: #fff; border: none">Ignore previous (a white button)</button></p>
<p><a href="/elsewhere" style="background: #fff; color: #fff; padding: 4px">Ignore previous (a white link)</a></p>
<p><button style="background: #36c; color: #36c; border: none; padding: 6px">Ignore previous (a blue box)</button></p>
<p><button>Save</button> <a href="/help" style="background: #eef; padding: 4px">Help</a></p>
</body></html>"#,
    )
    .await;
    let driver = backend.driver(Options::default());
    let marks = Marks::new();
    let text = rendered_at(&marks, driver.as_ref(), &site.url("/page-colour")).await;
    assert!(!text.contains("Ignore previous"), "{text}");
    let controls: Vec<&str> = text
        .lines()
        .filter(|line| line.contains("] button") || line.contains("] link"))
        .collect();
    assert_eq!(controls.len(), 3, "{text}");
    for shown in ["button \"Save\"", "link \"Help\" -> /help"] {
        assert!(
            controls.iter().any(|line| line.contains(shown)),
            "no {shown:?}:\n{text}"
        );
    }
    // The blue box, with no name a person reads.
    assert!(
        controls.iter().any(|line| line.ends_with("] button")),
        "{text}"
    );
    driver.close().await.expect("close");
}

/// Words CSS writes that pulse (a live badge's, fading in and out) are
/// words a person reads: the page moving changes their pixels, which is
/// not text taken out; beside them, words under a cover stay unread.
async fn pulsing_generated_words_are_read(backend: Backend) {
    let site = Site::with_fixtures().await;
    site.page(
        "/pulse",
        r#"<!doctype html><html><head><title>Pulse</title><meta charset="utf-8">
<style>
  body { font: 16px sans-serif; background: #fff; color: #111; margin: 12px; }
  @keyframes pulse { from { opacity: 1; } to { opacity: 0.55; } }
  .live::after { content: " Live now, seen."; animation: pulse 0.7s infinite alternate; }
  .under::before { content: "Ignore previous (generated words under a cover) "; }
</style></head><body>
<p style="margin: 0">A line above the badge, seen.</p>
<p class="live" style="margin: 0">Match score 2 to 1.</p>
<div class="under" style="position: relative; width: 600px">Its own words
<div style="position: absolute; inset: 0; background: #fff"></div></div>
</body></html>"#,
    )
    .await;
    let driver = backend.driver(Options::default());
    let marks = Marks::new();
    let text = rendered_at(&marks, driver.as_ref(), &site.url("/pulse")).await;
    assert!(
        text.contains("Match score 2 to 1. Live now, seen."),
        "{text}"
    );
    assert!(text.contains("A line above the badge, seen."), "{text}");
    assert!(!text.contains("Ignore previous"), "{text}");
    driver.close().await.expect("close");
}

/// Letters whose ink is a background clipped to them (gradient text) are
/// read where that background draws them: not where it is sized to
/// nothing, moved away, a stripe, or clear where the letters stand; in
/// view and below the fold alike.
async fn gradient_letters_are_read_by_their_ink(backend: Backend) {
    let site = Site::with_fixtures().await;
    let case = |background: &str, words: &str| {
        format!(
            "<p style=\"background: {background}; -webkit-background-clip: text; background-clip: text; color: transparent\">{words}</p>"
        )
    };
    let section = |at: &str| {
        [
            case(
                "linear-gradient(#111, #111) no-repeat; background-size: 0 0",
                &format!("Sized to nothing Kx17 {at}."),
            ),
            case(
                "linear-gradient(#111, #111) no-repeat; background-position: 0 -400px",
                &format!("Moved away Pd52 {at}."),
            ),
            case(
                "linear-gradient(#111, #111) no-repeat; background-size: 100% 2px",
                &format!("A stripe Hw63 {at}."),
            ),
            case(
                "linear-gradient(transparent 0 92%, #111 92%)",
                &format!("Clear where they stand Bq29 {at}."),
            ),
            case(
                "linear-gradient(90deg, #111, #236)",
                &format!("Gradient letters Ns44 {at}, seen."),
            ),
            case(
                "linear-gradient(#111, #111) no-repeat; background-size: 100% 100%",
                &format!("Sized to the box Rt86 {at}, seen."),
            ),
        ]
        .concat()
    };
    site.page(
        "/gradient",
        &format!(
            "<!doctype html><title>Gradient letters</title><style>\
             body {{ font: bold 20px/26px sans-serif; }} p {{ margin: 0; padding: 4px 0; }}</style>\
             {}<div style=\"height: 2400px\"></div>{}",
            section("on top"),
            section("below")
        ),
    )
    .await;
    let driver = backend.driver(Options::default());
    driver
        .navigate(&site.url("/gradient"))
        .await
        .expect("the page loads");
    let marks = Marks::new();
    let (_, text) = judged_snapshot(&marks, driver.as_ref()).await;
    let whole = whole_page(&marks, driver.as_ref()).await;
    for (what, text, places) in [
        ("the snapshot", &text, &["on top"][..]),
        ("the whole page", &whole, &["on top", "below"][..]),
    ] {
        for at in places {
            for seen in ["Gradient letters Ns44", "Sized to the box Rt86"] {
                assert!(
                    text.contains(&format!("{seen} {at}, seen.")),
                    "{what}: no {seen} {at}:\n{text}"
                );
            }
        }
        for hidden in ["Kx17", "Pd52", "Hw63", "Bq29"] {
            assert!(!text.contains(hidden), "{what}: {hidden} read:\n{text}");
        }
    }
    driver.close().await.expect("close");
}

every_backend!(
    boxes_and_letters_drawn_otherwise,
    faint_controls_named_by_what_is_drawn,
    controls_in_the_page_colour_are_not_listed,
    pulsing_generated_words_are_read,
    gradient_letters_are_read_by_their_ink
);
