//! Text seen in part: a clip, a cover, a mask or a line clamp hides part
//! of a text node whose rest a person sees, and what it hides is not read
//! while what shows is, on every backend.
//!
//! Generated pages of cases, each one text node with a word at its head
//! and one at its tail, laid out and cut at random; the truth of each
//! word comes from the test's own pictures (the page shot as served,
//! then with those words hidden in place: the test wraps each in a span
//! of `visibility: hidden`, which keeps the layout), counted inside the
//! word's own box and its case's cell. In view, every way to cut; far
//! below it, in a full-page snapshot, the cuts a box's overflow makes
//! (where Chrome's pictures do not reach, its style says so).

use std::time::Duration;

use driver_core::{Capability, Driver, Options};
use marks::{Marks, RenderOptions, SnapshotOptions};
use tabwright_tests::site::Site;
use tabwright_tests::Backend;

use crate::pictured::{judged_snapshot, reading, seeds, shot, truth_in, Dice, Tally, Truth};

/// Cells in a row, and rows: all on the screen of a 1280×800 viewport.
const COLUMNS: usize = 3;
const ROWS: usize = 11;

/// How a case lays out its text (`{text}`) and cuts it: `{cut}` is where,
/// in CSS pixels from the text's start, `{wide}` a box some way wider.
/// Some hide the tail, some the head, some hide nothing.
const CASES: &[&str] = &[
    "<div style='width:{cut}px;overflow:hidden;white-space:nowrap'>{text}</div>",
    "<div style='width:{cut}px;overflow:hidden;white-space:nowrap;text-overflow:ellipsis'>{text}</div>",
    "<div style='width:{cut}px;overflow:clip;white-space:nowrap'>{text}</div>",
    "<div style='width:{wide}px;height:20px;overflow:hidden'>{text}</div>",
    "<p style='margin:0;width:{wide}px;display:-webkit-box;-webkit-line-clamp:1;-webkit-box-orient:vertical;overflow:hidden'>{text}</p>",
    "<div style='white-space:nowrap;clip-path:inset(0 calc(100% - {cut}px) 0 0)'>{text}</div>",
    "<div style='white-space:nowrap;mask-image:linear-gradient(to right, #000 {cut}px, transparent {cut}px)'>{text}</div>",
    "<div style='white-space:nowrap'>{text}</div><div style='position:absolute;left:{cut}px;top:0;right:0;bottom:0;background:#fff'></div>",
    "<div style='white-space:nowrap'>{text}</div><div style='position:absolute;left:{cut}px;top:0;right:0;bottom:0;background:rgba(255,255,255,0.35)'></div>",
    "<div style='white-space:nowrap'>{text}</div><div style='position:absolute;left:{cut}px;top:0;right:0;bottom:0;backdrop-filter:blur(10px)'></div>",
    "<div style='width:{wide}px;overflow:hidden;white-space:nowrap;text-indent:-{cut}px'>{text}</div>",
    "<div style='width:{cut}px;overflow:hidden;white-space:nowrap;direction:rtl'>{text}</div>",
    "<div style='white-space:nowrap'>{text}</div>",
    "<div style='width:{wide}px'>{text}</div>",
    "<div style='white-space:nowrap;letter-spacing:0.6em'>{text}</div>",
    "<div style='width:{wide}px;text-align:justify;text-align-last:justify'>{text}</div>",
];

/// Words between a case's head and its tail.
const FILLER: &[&str] = &[
    "and", "the", "rest", "of", "this", "line", "runs", "on", "past", "where", "it", "is", "cut",
    "with", "words", "enough",
];

/// A generated page of `cases` (a grid of them, `below` CSS pixels down
/// the page): its HTML and each case's two words (head, tail).
fn page(seed: u64, cases: &[&str], below: u32) -> (String, Vec<[String; 2]>) {
    let mut dice = Dice(seed.max(1));
    let mut cells = String::new();
    let mut words = Vec::new();
    for index in 0..COLUMNS * ROWS {
        let head = format!("Hd{index}k{}", dice.roll(900) + 100);
        let tail = format!("Tl{index}q{}", dice.roll(900) + 100);
        let filler: Vec<&str> = (0..6 + dice.roll(5)).map(|_| dice.pick(FILLER)).collect();
        let text = format!("{head} {} {tail}", filler.join(" "));
        let cut = 110 + dice.roll(120);
        let case = dice
            .pick(cases)
            .replace("{text}", &text)
            .replace("{cut}", &cut.to_string())
            .replace("{wide}", &(cut + 80).to_string());
        let size = 13 + dice.roll(5);
        cells.push_str(&format!(
            "<div class=\"cell\" style=\"font-size: {size}px\">{case}</div>\n"
        ));
        words.push([head, tail]);
    }
    let html = format!(
        "<!doctype html><html><head><title>Cut cases</title><meta charset=\"utf-8\"><style>\
         body {{ margin: 4px; font: 15px/20px sans-serif; color: #111; background: #fff; }}\
         .grid {{ display: grid; grid-template-columns: repeat({COLUMNS}, 410px); gap: 4px 8px; }}\
         .cell {{ position: relative; overflow: hidden; height: 64px; padding: 6px; box-sizing: border-box; }}\
         </style></head><body><div style=\"height: {below}px\"></div><div class=\"grid\">{cells}</div></body></html>"
    );
    (html, words)
}

/// The test's own finding of words in the page: `find(word)` is a range
/// over it in its text node.
const FIND: &str = "const find = (word) => { \
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT); \
    for (let node; (node = walker.nextNode());) { \
      const at = node.nodeValue.indexOf(word); \
      if (at >= 0) { const range = document.createRange(); range.setStart(node, at); range.setEnd(node, at + word.length); return range; } \
    } return null; };";

/// Each word's box, within its case's cell (whose overflow clips it), in
/// whole CSS pixels: `[x, y, width, height]`.
async fn boxes_of(driver: &dyn Driver, words: &[String]) -> Vec<[f64; 4]> {
    let list = serde_json::to_string(words).expect("json");
    let found = driver
        .eval(&format!(
            "(() => {{ {FIND} return {list}.map((word) => {{ \
               const range = find(word); const r = range.getBoundingClientRect(); \
               const cell = range.startContainer.parentElement.closest('.cell').getBoundingClientRect(); \
               const left = Math.max(r.left, cell.left), top = Math.max(r.top, cell.top); \
               const right = Math.min(r.right, cell.right), bottom = Math.min(r.bottom, cell.bottom); \
               return [Math.floor(left), Math.floor(top), Math.max(0, Math.ceil(right - left)), Math.max(0, Math.ceil(bottom - top))]; }}); }})()"
        ))
        .await
        .expect("the words' boxes");
    serde_json::from_value(found).expect("boxes")
}

/// The truth of each word (as `pictured::truth_in` says), from the page
/// (its viewport, or the `whole` of it) as served and with the words
/// hidden in place.
async fn truths(driver: &dyn Driver, words: &[String], whole: bool) -> Vec<Truth> {
    let boxes = boxes_of(driver, words).await;
    let served = shot(driver, whole).await;
    let list = serde_json::to_string(words).expect("json");
    driver
        .eval(&format!(
            "(() => {{ {FIND} for (const word of {list}) {{ \
               const span = document.createElement('span'); span.style.visibility = 'hidden'; \
               find(word).surroundContents(span); }} return true; }})()"
        ))
        .await
        .expect("the words hidden");
    let without = shot(driver, whole).await;
    boxes
        .iter()
        .map(|&rect| truth_in(&served, &without, rect))
        .collect()
}

/// The generated pages on one backend: no word the pictures show hidden
/// is read, and none they show seen is left out, by the snapshot and by
/// the reading; some of either kind on every page.
async fn cut_words_agree_with_the_pixels(backend: Backend) {
    let backdrops = |driver: &dyn Driver| {
        driver
            .capabilities()
            .supports(Capability::CompositedPictures)
    };
    agree(backend, 0, |case, driver| {
        backdrops(driver) || !case.contains("backdrop-filter")
    })
    .await;
}

/// The same far below the viewport, in full-page snapshots, with the
/// cuts a box's overflow makes.
async fn cut_words_far_below_agree_with_the_pixels(backend: Backend) {
    agree(backend, 1_600, |case, _| case.contains("overflow:")).await;
}

/// Pages of the `CASES` that `which` takes, `below` CSS pixels down: the
/// default snapshot where they are in view, else the full page.
async fn agree(backend: Backend, below: u32, which: impl Fn(&str, &dyn Driver) -> bool) {
    let site = Site::with_fixtures().await;
    let driver = backend.driver(Options {
        timeout: Duration::from_secs(20),
        ..Options::default()
    });
    let marks = Marks::new();
    let whole = below > 0;
    let cases: Vec<&str> = CASES
        .iter()
        .copied()
        .filter(|case| which(case, driver.as_ref()))
        .collect();
    // Besides two seeds of any kind, five that once found a wrong word
    // (a letter's edge at a clip, an ellipsis's width, a letter under it).
    let fixed = [
        0xc0ff_ee01,
        0x5ca1_ab1e,
        0x8c8f_453e_b87f_bd14,
        0x7ee3_c058_4d05_d8ce,
        0x7e9d_7989_6d1e_f3dc,
        0xde94_e491_8b38_b1a3,
        0x12a3_44b7_9b3c_9016,
    ];
    let mut tally = Tally::default();
    for seed in seeds("PARTLY_SEED", &fixed) {
        let (html, words) = page(seed, &cases, below);
        let route = format!("/cut-{seed:x}-{below}");
        site.page(&route, &html).await;
        driver
            .navigate(&site.url(&route))
            .await
            .expect("the page loads");
        let text = if whole {
            let options = SnapshotOptions {
                full_page: true,
                ..SnapshotOptions::default()
            };
            let snapshot = marks.snapshot(driver.as_ref(), options).await;
            snapshot
                .expect("a snapshot")
                .render(RenderOptions::default())
        } else {
            judged_snapshot(&marks, driver.as_ref()).await.1
        };
        let reading = reading(&marks, driver.as_ref()).await;
        let words: Vec<String> = words.concat();
        let truth = truths(driver.as_ref(), &words, whole).await;
        tally.check(words.iter().zip(truth.iter().copied()), &text, &reading);
        if let Some(wrong) = tally.take_wrong() {
            panic!("seed {seed:#x}: {wrong}\n{text}\n{html}");
        }
        for kind in [Truth::Seen, Truth::Hidden] {
            assert!(truth.contains(&kind), "seed {seed:#x}: no word {kind:?}");
        }
    }
    // The cuts are chosen clear of most words: few are cut through.
    assert!(
        tally.unclear * 4 <= tally.judged,
        "{} unclear of {}",
        tally.unclear,
        tally.judged + tally.unclear
    );
    driver.close().await.expect("close");
}

every_backend!(
    cut_words_agree_with_the_pixels,
    cut_words_far_below_agree_with_the_pixels
);
