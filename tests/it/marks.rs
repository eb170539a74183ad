//! Snapshots on both backends: the text a model reads of each fixture page
//! (insta; both backends must produce the very same text), stable numbers,
//! stale numbers failing loudly, Set-of-Marks pictures, and pointing.

use std::time::Duration;

use driver_core::{Driver, Options};
use marks::{Marks, MarksError, RenderOptions, SnapshotOptions};
use tabwright_tests::site::Site;
use tabwright_tests::Backend;

struct Page {
    site: Site,
    driver: Box<dyn Driver>,
    marks: Marks,
}

async fn start(backend: Backend) -> Page {
    let site = Site::with_fixtures().await;
    let driver = backend.driver(Options {
        timeout: Duration::from_secs(20),
        ..Options::default()
    });
    Page {
        site,
        driver,
        marks: Marks::new(),
    }
}

async fn open(backend: Backend, fixture: &str) -> Page {
    let page = start(backend).await;
    page.driver
        .navigate(&page.site.url(&format!("/fx/{fixture}")))
        .await
        .expect("the fixture loads");
    page
}

/// A page served from `html`, and its default snapshot as a model reads it.
async fn read_html(backend: Backend, html: &str) -> (Page, String) {
    let page = start(backend).await;
    page.site.page("/served", html).await;
    let text = page.visit("/served").await.render(RenderOptions::default());
    (page, text)
}

impl Page {
    /// Navigates to a path of the site and takes a default snapshot.
    async fn visit(&self, path: &str) -> marks::Snapshot {
        self.driver
            .navigate(&self.site.url(path))
            .await
            .expect("the page loads");
        self.marks
            .snapshot(self.driver.as_ref(), SnapshotOptions::default())
            .await
            .expect("a snapshot")
    }

    /// A default snapshot of the page as it is.
    async fn snapshot(&self) -> marks::Snapshot {
        self.marks
            .snapshot(self.driver.as_ref(), SnapshotOptions::default())
            .await
            .expect("a snapshot")
    }

    async fn text(&self, options: SnapshotOptions) -> String {
        let snapshot = self
            .marks
            .snapshot(self.driver.as_ref(), options)
            .await
            .expect("a snapshot");
        snapshot.render(RenderOptions::default())
    }
}

/// Port numbers differ from run to run; the text must not.
fn redact(text: &str, site: &Site) -> String {
    let mut text = tabwright_tests::redact_fences(text).replace(&site.origin(), "http://SITE");
    if let Some(other) = site.other_origin() {
        text = text.replace(&other, "http://OTHER");
    }
    text
}

async fn fixture(backend: Backend, name: &str, options: SnapshotOptions) {
    // `navigate` returns after the load event: the fixtures' scripts (inline,
    // with no timers of their own) have built the page by then.
    let page = open(backend, &format!("{name}.html")).await;
    let text = redact(&page.text(options).await, &page.site);
    let snapshot_name = if options.full_page {
        format!("{name}_full")
    } else {
        name.to_owned()
    };
    insta::assert_snapshot!(snapshot_name, text);
    page.driver.close().await.expect("close");
}

macro_rules! fixtures {
    ($($name:ident: $file:literal, $full:expr;)+) => {
        mod cdp {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::fixture(super::Backend::Cdp, $file, super::SnapshotOptions { full_page: $full, scope: None }).await;
                }
            )+
        }
        mod webdriver {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::fixture(super::Backend::WebDriver, $file, super::SnapshotOptions { full_page: $full, scope: None }).await;
                }
            )+
        }
    };
}

fixtures! {
    forms: "forms", false;
    table: "table", false;
    nav: "nav", false;
    modal: "modal", false;
    shadow: "shadow", false;
    iframe_same: "iframe-same", false;
    iframe_cross: "iframe-cross", false;
    long_default: "long", false;
    long_full: "long", true;
    reach_default: "reach", false;
    reach_full: "reach", true;
    spa: "spa", false;
    pointer: "pointer", false;
    editable: "editable", false;
    hidden: "hidden", false;
    overlay: "overlay", false;
    article: "article", false;
    select: "select", false;
    links: "links", false;
    icons: "icons", false;
    widgets: "widgets", false;
    boxes: "boxes", false;
    app: "app", false;
    composite: "composite", false;
    unseen: "unseen", true;
    names: "names", false;
}

every_backend!(
    numbers_are_stable_and_new_ones_are_marked,
    stale_numbers_fail_loudly,
    acting_through_numbers,
    cross_origin_frames_share_the_numbering,
    cross_site_frames_share_the_numbering,
    scaled_frames_are_read_and_clicked,
    the_planted_instruction_never_appears,
    scope_and_budget,
    text_reaching_into_view_is_read,
    pages_that_redefine_built_ins_are_read,
    what_a_modal_dialog_covers_is_said,
    marks_are_drawn_where_the_elements_are,
    pointing_at_pixels,
    what_the_snapshot_lists_a_click_reaches,
    controls_in_clipping_boxes_are_clicked_after_a_scroll,
    a_node_filled_with_other_content_is_not_acted_on,
);

fn number_of(snapshot: &marks::Snapshot, name: &str) -> u32 {
    snapshot
        .elements
        .values()
        .find(|element| element.name == name)
        .map(|element| element.number)
        .unwrap_or_else(|| panic!("no element named {name:?} in {:?}", snapshot.elements))
}

async fn numbers_are_stable_and_new_ones_are_marked(backend: Backend) {
    let page = open(backend, "spa.html").await;
    let first = page
        .marks
        .snapshot(page.driver.as_ref(), SnapshotOptions::default())
        .await
        .unwrap();
    let second = page
        .marks
        .snapshot(page.driver.as_ref(), SnapshotOptions::default())
        .await
        .unwrap();
    assert_eq!(
        first.elements.keys().collect::<Vec<_>>(),
        second.elements.keys().collect::<Vec<_>>()
    );
    assert!(second.elements.values().all(|element| !element.new));
    page.driver
        .eval("document.getElementById('app').insertAdjacentHTML('beforeend', '<button>Archive</button>')")
        .await
        .unwrap();
    let third = page
        .marks
        .snapshot(page.driver.as_ref(), SnapshotOptions::default())
        .await
        .unwrap();
    let archive = number_of(&third, "Archive");
    assert!(
        archive > *first.elements.keys().max().unwrap(),
        "a new element gets a new number"
    );
    assert!(third.elements[&archive].new, "and is marked new");
    assert!(third
        .render(RenderOptions::default())
        .contains(&format!("*[{archive}] button \"Archive\"")));
    assert_eq!(
        number_of(&third, "Open the first message"),
        number_of(&first, "Open the first message")
    );
    page.driver.close().await.unwrap();
}

async fn stale_numbers_fail_loudly(backend: Backend) {
    let page = open(backend, "spa.html").await;
    let driver = page.driver.as_ref();
    let first = page
        .marks
        .snapshot(driver, SnapshotOptions::default())
        .await
        .unwrap();
    let open_button = number_of(&first, "Open the first message");
    // Removal: the app replaces its view.
    page.marks.click(driver, open_button).await.unwrap();
    driver
        .wait_for("#back", driver_core::WaitFor::Present)
        .await
        .unwrap();
    assert!(matches!(
        page.marks.click(driver, open_button).await,
        Err(MarksError::Gone { .. })
    ));
    // Hiding.
    let second = page
        .marks
        .snapshot(driver, SnapshotOptions::default())
        .await
        .unwrap();
    let back = number_of(&second, "Back to inbox");
    driver
        .eval("document.getElementById('back').style.display = 'none'")
        .await
        .unwrap();
    let hidden = page.marks.click(driver, back).await;
    assert!(
        matches!(hidden, Err(MarksError::Hidden { .. })),
        "{hidden:?}"
    );
    // Navigation.
    driver
        .navigate(&page.site.url("/fx/table.html"))
        .await
        .unwrap();
    let left = page.marks.click(driver, back).await;
    assert!(
        matches!(left, Err(MarksError::Navigated { .. })),
        "{left:?}"
    );
    assert!(left.unwrap_err().is_stale_ref());
    // A number never given.
    assert!(matches!(
        page.marks.click(driver, 9999).await,
        Err(MarksError::Unknown { number: 9999 })
    ));
    // The new page numbers on from where the old one stopped: no reuse.
    let table = page
        .marks
        .snapshot(driver, SnapshotOptions::default())
        .await
        .unwrap();
    assert!(table.elements.keys().all(|number| *number > back));
    driver.close().await.unwrap();
}

async fn acting_through_numbers(backend: Backend) {
    let page = open(backend, "select.html").await;
    let driver = page.driver.as_ref();
    let snapshot = page
        .marks
        .snapshot(driver, SnapshotOptions::default())
        .await
        .unwrap();
    let size = number_of(&snapshot, "Size");
    let chosen = page
        .marks
        .select(driver, size, &["Large".to_owned()])
        .await
        .unwrap();
    assert_eq!(chosen, vec!["Large".to_owned()]);
    assert_eq!(driver.text("#chosen").await.unwrap(), "Size: l");
    let none = page.marks.select(driver, size, &["Huge".to_owned()]).await;
    assert!(
        matches!(&none, Err(MarksError::NoOption { options, .. }) if options.len() == 3),
        "{none:?}"
    );

    let snapshot = page.visit("/fx/forms.html").await;
    let name = number_of(&snapshot, "Full name");
    page.marks
        .type_into(driver, name, "Grace Hopper", true, false)
        .await
        .unwrap();
    assert_eq!(
        driver
            .eval("document.querySelector('[name=name]').value")
            .await
            .unwrap(),
        "Grace Hopper"
    );
    let later = number_of(&snapshot, "Later");
    let disabled = page.marks.type_into(driver, later, "x", false, false).await;
    assert!(
        disabled.is_err(),
        "typing into a disabled button: {disabled:?}"
    );

    let snapshot = page.visit("/fx/overlay.html").await;
    let covered = page
        .marks
        .click(driver, number_of(&snapshot, "Buy now"))
        .await;
    assert!(
        matches!(&covered, Err(MarksError::Covered { by, .. }) if by == "div#banner"),
        "{covered:?}"
    );
    page.marks
        .click(driver, number_of(&snapshot, "OK"))
        .await
        .unwrap();
    driver.close().await.unwrap();
}

async fn cross_origin_frames_share_the_numbering(backend: Backend) {
    frame_scenario(backend, "iframe-cross.html").await;
}

/// A frame on another site runs in a process of its own (site isolation).
async fn cross_site_frames_share_the_numbering(backend: Backend) {
    frame_scenario(backend, "iframe-cross-site.html").await;
}

async fn frame_scenario(backend: Backend, fixture: &str) {
    let page = open(backend, fixture).await;
    let driver = page.driver.as_ref();
    let snapshot = page
        .marks
        .snapshot(driver, SnapshotOptions::default())
        .await
        .unwrap();
    let press = number_of(&snapshot, "Press me");
    let outer = number_of(&snapshot, "Outer button");
    assert_ne!(press, outer);
    page.marks.click(driver, press).await.unwrap();
    let again = page
        .marks
        .snapshot(driver, SnapshotOptions::default())
        .await
        .unwrap();
    assert_eq!(
        number_of(&again, "Pressed"),
        press,
        "the click landed inside the cross-origin frame"
    );
    driver.close().await.unwrap();
}

/// Frames a transform draws at 0.6 of their size, one of the page's origin
/// and one of another site: their words are read whole where they are
/// drawn, and a click lands on what was numbered.
async fn scaled_frames_are_read_and_clicked(backend: Backend) {
    let page = open(backend, "iframe-scaled.html").await;
    let driver = page.driver.as_ref();
    let snapshot = page.snapshot().await;
    let text = snapshot.render(RenderOptions::default());
    assert_eq!(
        text.matches("Inside the frame.\n").count(),
        2,
        "both frames read whole: {text}"
    );
    let pressers: Vec<u32> = snapshot
        .elements
        .values()
        .filter(|element| element.name == "Press me")
        .map(|element| element.number)
        .collect();
    assert_eq!(pressers.len(), 2, "{text}");
    for &number in &pressers {
        page.marks.click(driver, number).await.unwrap();
    }
    let again = page.text(SnapshotOptions::default()).await;
    assert_eq!(again.matches("button \"Pressed\"").count(), 2, "{again}");
    driver.close().await.unwrap();
}

async fn the_planted_instruction_never_appears(backend: Backend) {
    let page = open(backend, "hidden.html").await;
    for full_page in [false, true] {
        let text = page
            .text(SnapshotOptions {
                full_page,
                scope: None,
            })
            .await;
        assert!(!text.to_lowercase().contains("ignore previous"), "{text}");
        assert!(text.contains("This paragraph is visible."), "{text}");
        assert!(!text.contains("Hidden button"), "{text}");
    }
    page.driver.close().await.unwrap();
}

/// A modal `<dialog>` covers the page with its backdrop: what lies behind
/// is listed as covered, what is in the dialog is not.
async fn what_a_modal_dialog_covers_is_said(backend: Backend) {
    let (page, text) = read_html(
        backend,
        "<!doctype html><title>Modal</title><button>Behind the dialog</button>\
         <dialog id=\"ask\"><p>Sure?</p><button>Yes</button></dialog>\
         <script>document.getElementById('ask').showModal();</script>",
    )
    .await;
    assert!(
        text.contains("button \"Behind the dialog\" covered by dialog#ask"),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|line| line.contains("button \"Yes\"") && !line.contains("covered")),
        "{text}"
    );
    page.driver.close().await.expect("close");
}

/// Old libraries (Prototype.js 1.6) gave arrays and strings a `toJSON` that
/// garbles `JSON.stringify`, and a page may break the API that tells its
/// HTTP status; the snapshot still reads such a page.
async fn pages_that_redefine_built_ins_are_read(backend: Backend) {
    let (page, text) = read_html(
        backend,
        "<!doctype html><title>Old library</title><h1>Still readable</h1>\
         <button>Press</button><script>\
         Array.prototype.toJSON = function () { return JSON.stringify(this.slice()); };\
         String.prototype.toJSON = function () { return '\"' + this + '\"'; };\
         performance.getEntriesByType = () => { throw new Error('not today'); };</script>",
    )
    .await;
    assert!(
        text.contains("# Still readable") && text.contains("button \"Press\""),
        "{text}"
    );
    page.driver.close().await.expect("close");
}

/// Scrolled into the middle of a tall block whose top is far above, the
/// default snapshot reads the block's text, the fixed banner, and counts
/// what is above and below (only what renders).
async fn text_reaching_into_view_is_read(backend: Backend) {
    let page = open(backend, "reach.html").await;
    page.driver
        .eval(
            "(() => { const tall = document.getElementById('tall'); \
             window.scrollTo(0, tall.offsetTop + 1500 - innerHeight / 2); return scrollY; })()",
        )
        .await
        .expect("scrolled");
    let text = redact(&page.text(SnapshotOptions::default()).await, &page.site);
    insta::assert_snapshot!("reach_scrolled", text);
    page.driver.close().await.expect("close");
}

async fn scope_and_budget(backend: Backend) {
    let page = open(backend, "modal.html").await;
    let driver = page.driver.as_ref();
    let whole = page
        .marks
        .snapshot(driver, SnapshotOptions::default())
        .await
        .unwrap();
    let dialog = whole
        .elements
        .values()
        .find(|element| element.role == "dialog")
        .map(|element| element.number)
        .expect("the dialog is numbered");
    let inside = page
        .marks
        .snapshot(
            driver,
            SnapshotOptions {
                full_page: false,
                scope: Some(dialog),
            },
        )
        .await
        .unwrap();
    let text = inside.render(RenderOptions::default());
    assert!(
        text.contains("Accept all") && text.contains("We use cookies"),
        "{text}"
    );
    assert!(
        !text.contains("Continue shopping") && !text.contains("basket has 3"),
        "{text}"
    );
    assert_eq!(
        number_of(&inside, "Accept all"),
        number_of(&whole, "Accept all"),
        "a scoped snapshot keeps the numbers"
    );
    page.driver
        .navigate(&page.site.url("/fx/links.html"))
        .await
        .unwrap();
    let links = page
        .marks
        .snapshot(
            driver,
            SnapshotOptions {
                full_page: true,
                scope: None,
            },
        )
        .await
        .unwrap();
    assert_eq!(links.elements.len(), 5000, "every link is numbered");
    let capped = links.render(RenderOptions {
        budget_tokens: Some(2000),
        page: 1,
        ..RenderOptions::default()
    });
    assert!(
        capped.len() <= 2000 * 4 + 600,
        "{} characters",
        capped.len()
    );
    assert!(capped.contains("This is part 1 of"), "{capped}");
    let last = links.render(RenderOptions {
        budget_tokens: Some(2000),
        page: 1000,
        ..RenderOptions::default()
    });
    assert!(last.contains("Entry 5000"), "the last part ends the list");
    page.driver.close().await.unwrap();
}

async fn marks_are_drawn_where_the_elements_are(backend: Backend) {
    let page = open(backend, "table.html").await;
    let driver = page.driver.as_ref();
    let plain = driver.screenshot(Default::default()).await.unwrap();
    let (marked, snapshot) = page
        .marks
        .marked_screenshot(driver, driver_core::ScreenshotFormat::Png, false)
        .await
        .unwrap();
    assert_ne!(plain, marked, "the marks changed the picture");
    assert!(!snapshot.elements.is_empty());
    // The overlay is gone afterwards (pictured frames on, until the page
    // shows as it was or a bound passes: on a busy machine the frame a
    // screenshot takes at once may be one drawn before the marks went,
    // two frames on too).
    let mut after = Vec::new();
    for _ in 0..20 {
        driver
            .eval("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
            .await
            .unwrap();
        after = driver.screenshot(Default::default()).await.unwrap();
        if after.len() == plain.len() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(after.len(), plain.len(), "the page is as it was");
    let left = driver
        .eval("document.querySelectorAll('tabwright-marks').length")
        .await
        .unwrap();
    assert_eq!(left, 0);
    driver.close().await.unwrap();
}

async fn pointing_at_pixels(backend: Backend) {
    let page = open(backend, "forms.html").await;
    let driver = page.driver.as_ref();
    let snapshot = page
        .marks
        .snapshot(driver, SnapshotOptions::default())
        .await
        .unwrap();
    let target = snapshot
        .elements
        .values()
        .find(|element| element.name == "Create account")
        .unwrap();
    let x = (target.rect.x + target.rect.width / 2) as f64;
    let y = (target.rect.y + target.rect.height / 2) as f64;
    let (number, role, name) = page
        .marks
        .element_at(driver, x, y)
        .await
        .unwrap()
        .expect("something is there");
    assert_eq!(
        (number, role.untrusted(), name.untrusted()),
        (target.number, "button", "Create account")
    );
    driver.close().await.unwrap();
}

/// On pages whose controls sites build in ways that fooled the snapshot
/// (icon-only buttons, headers that are tabs, links with no box of their
/// own, inputs hidden behind their labels): every control is listed, named
/// as its `data-k` says, and a click on its number reaches it.
async fn what_the_snapshot_lists_a_click_reaches(backend: Backend) {
    let page = start(backend).await;
    let driver = page.driver.as_ref();
    for (fixture, expected) in [
        (
            "icons.html",
            &[
                "Close",
                "Close panel",
                "Cart",
                "Search",
                "Dismiss",
                "Menu",
                "Share",
                "Settings",
                "Back to top",
                // The link whose only text is a hidden paragraph: unnamed.
                "",
            ][..],
        ),
        (
            "widgets.html",
            &[
                "Section #1",
                "Section #4",
                "Monthly",
                "Yearly",
                "What does it cost?",
                "Show the small print",
                "More options",
            ][..],
        ),
        (
            "boxes.html",
            &[
                "Acme",
                "Shop",
                "About us",
                "Remember me",
                "I agree to the terms",
                "Small",
                "Large",
                "Upload a photo",
            ][..],
        ),
    ] {
        let snapshot = page.visit(&format!("/fx/{fixture}")).await;
        let text = snapshot.render(RenderOptions::default());
        let listed: Vec<(u32, String)> = snapshot
            .elements
            .values()
            .filter(|element| !element.offscreen && element.role != "dialog")
            .map(|element| (element.number, element.name.untrusted().to_owned()))
            .collect();
        let names: Vec<&str> = listed.iter().map(|(_, name)| name.as_str()).collect();
        assert_eq!(names, expected, "{fixture}: what is listed, named\n{text}");
        for (number, name) in &listed {
            page.marks
                .click(driver, *number)
                .await
                .unwrap_or_else(|error| {
                    panic!("{fixture}: clicking [{number}] {name:?}: {error}\n{text}")
                });
            let pressed = driver
                .eval("(window.pressed || []).pop() ?? null")
                .await
                .expect("what was pressed");
            assert_eq!(
                pressed, **name,
                "{fixture}: a click on [{number}] {name:?} reached {pressed}"
            );
        }
    }
    page.driver.close().await.expect("close");
}

/// Controls in boxes that clip (`overflow: hidden`) are clicked wherever
/// the snapshot found them: below the fold, where the click first scrolls
/// them into view, and a clear real checkbox over a drawn one that a scroll
/// moves. What the page heard is the truth.
async fn controls_in_clipping_boxes_are_clicked_after_a_scroll(backend: Backend) {
    let (page, text) = read_html(
        backend,
        r##"<!doctype html><html><head><style>
  body { margin: 0; font: 16px sans-serif; }
  .cell { position: relative; overflow: hidden; height: 32px; width: 400px; border-radius: 6px; }
  .cell p { margin: 0; padding: 7px 0 7px 28px; }
</style></head><body>
<div style="height: calc(100vh - 40px)">Top of the page.</div>
<div class="cell"><div style="position: absolute; left: 2px; top: 8px; width: 14px; height: 14px; border: 2px solid #333"></div><input type="checkbox" aria-label="Drawn box" style="opacity: 0; position: absolute; left: 0; top: 6px; width: 20px; height: 20px; margin: 0"><p>A drawn box over a real one</p></div>
<div style="height: 60px"></div>
<div class="cell"><button onclick="(window.pressed ||= []).push('Clipped button')">Clipped button</button></div>
<div class="cell"><a href="#clipped" onclick="(window.pressed ||= []).push('Clipped link')">Clipped link</a></div>
<div style="height: 100vh"></div>
</body></html>"##,
    )
    .await;
    let snapshot = page.snapshot().await;
    let driver = page.driver.as_ref();
    for name in ["Clipped button", "Clipped link"] {
        page.marks
            .click(driver, number_of(&snapshot, name))
            .await
            .unwrap_or_else(|error| panic!("clicking {name:?}: {error}\n{text}"));
        let pressed = driver
            .eval("(window.pressed || []).pop() ?? null")
            .await
            .expect("what was pressed");
        assert_eq!(pressed, name, "a click on {name:?} reached {pressed}");
    }
    // The page scrolled; the checkbox a click lands on moves once more.
    page.marks
        .click(driver, number_of(&snapshot, "Drawn box"))
        .await
        .unwrap_or_else(|error| panic!("clicking the drawn box: {error}\n{text}"));
    let checked = driver
        .eval("document.querySelector('input').checked")
        .await
        .expect("read");
    assert_eq!(checked, serde_json::json!(true), "the box was not ticked");
    page.driver.close().await.expect("close");
}

/// A re-render that reuses a node for other content (a list re-ordered by
/// rewriting its rows) leaves the number on the node: acting on it then
/// would press what the model never chose. It is refused and said.
async fn a_node_filled_with_other_content_is_not_acted_on(backend: Backend) {
    let (page, text) = read_html(
        backend,
        "<!doctype html><title>People</title>\
         <button onclick=\"out.textContent = 'removed ' + this.textContent\">Delete Alice</button>\
         <button onclick=\"out.textContent = 'removed ' + this.textContent\">Delete Bob</button>\
         <p id=out></p>",
    )
    .await;
    let driver = page.driver.as_ref();
    let alice = tools::element_number(&text, "Delete Alice").expect("Alice's button");
    driver
        .eval("const [a, b] = document.querySelectorAll('button'); [a.textContent, b.textContent] = [b.textContent, a.textContent];")
        .await
        .expect("the rows are rewritten");
    let clicked = page.marks.click(driver, alice).await;
    assert!(
        matches!(&clicked, Err(MarksError::Changed { was, now, .. }) if was == "Delete Alice" && now == "Delete Bob"),
        "{clicked:?}"
    );
    assert!(clicked.unwrap_err().is_stale_ref());
    let out = driver.eval("out.textContent").await.expect("the page");
    assert_eq!(out, "", "nothing was pressed");
    page.driver.close().await.expect("close");
}
