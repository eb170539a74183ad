//! The tests' own pictures, the truth the pixel tests hold the judge to
//! (`seen`, `partly`): a page shot as served and with the words in
//! question hidden by the test itself, and what changed in a box; and the
//! snapshot and reading a test compares with them.

use driver_core::{Driver, ScreenshotOptions};
use marks::{Marks, RenderOptions, Snapshot, SnapshotOptions};

/// A small random number generator (xorshift), seeded, so a failing case
/// can be made again.
pub(crate) struct Dice(pub(crate) u64);

impl Dice {
    pub(crate) fn roll(&mut self, sides: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % sides as u64) as usize
    }

    pub(crate) fn pick<'a>(&mut self, choices: &[&'a str]) -> &'a str {
        choices[self.roll(choices.len())]
    }
}

/// What the test's own pictures say of a case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Truth {
    Seen,
    Hidden,
    /// Between the two: not held against the judge.
    Unclear,
}

/// A picture as RGB rows.
pub(crate) struct Shot {
    width: usize,
    rgb: Vec<u8>,
}

fn decode(png: &[u8]) -> Shot {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buffer = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut buffer).expect("a frame");
    let channels = info.color_type.samples();
    let rgb = buffer[..info.buffer_size()]
        .chunks_exact(channels)
        .flat_map(|pixel| {
            [
                pixel[0],
                pixel[1.min(channels - 1)],
                pixel[2.min(channels - 1)],
            ]
        })
        .collect();
    Shot {
        width: info.width as usize,
        rgb,
    }
}

/// A default snapshot, judged by the pixels (the backend must take them),
/// and its text.
pub(crate) async fn judged_snapshot(marks: &Marks, driver: &dyn Driver) -> (Snapshot, String) {
    let snapshot = marks
        .snapshot(driver, SnapshotOptions::default())
        .await
        .expect("a snapshot");
    assert_eq!(snapshot.unjudged, None, "the pixels judged");
    let text = snapshot.render(RenderOptions::default());
    (snapshot, text)
}

/// A picture of the viewport (or with `whole`, of the whole page) as the
/// page is now (two frames on).
pub(crate) async fn shot(driver: &dyn Driver, whole: bool) -> Shot {
    driver
        .eval("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        .await
        .expect("a frame");
    decode(
        &driver
            .screenshot(ScreenshotOptions {
                full_page: whole,
                ..ScreenshotOptions::default()
            })
            .await
            .expect("a picture"),
    )
}

/// What a box (`[x, y, width, height]`, CSS pixels) of two pictures says
/// of the text the second took away: seen where thirty pixels or more
/// change by a quarter of the range over at least 4 px of height, hidden
/// where two or fewer do.
pub(crate) fn truth_in(served: &Shot, without: &Shot, [x, y, w, h]: [f64; 4]) -> Truth {
    let height = served.rgb.len() / (served.width * 3);
    let mut strong = 0u32;
    let (mut top, mut bottom) = (usize::MAX, 0usize);
    for row in (y.max(0.0) as usize)..((y + h).max(0.0) as usize).min(height) {
        for column in (x.max(0.0) as usize)..((x + w).max(0.0) as usize).min(served.width) {
            let at = (row * served.width + column) * 3;
            let change = (0..3)
                .map(|c| (i32::from(served.rgb[at + c]) - i32::from(without.rgb[at + c])).abs())
                .max()
                .unwrap_or_default();
            if change >= 64 {
                strong += 1;
                top = top.min(row);
                bottom = bottom.max(row);
            }
        }
    }
    if strong >= 30 && bottom >= top + 3 {
        Truth::Seen
    } else if strong <= 2 {
        Truth::Hidden
    } else {
        Truth::Unclear
    }
}

/// The seeds a generated test draws its pages from: `fixed` (the same
/// every run, so a run here says what a run in CI says), then the
/// variable's, comma-separated hex (a seed a failure named), where `new`
/// draws a fresh one. `cargo xtask explore` runs the generated tests with
/// fresh seeds, many times over: finding what the fixed seeds miss is its
/// job, not CI's.
pub(crate) fn seeds(variable: &str, fixed: &[u64]) -> Vec<u64> {
    let asked = std::env::var(variable).unwrap_or_default();
    let more = asked
        .split(',')
        .map(str::trim)
        .filter(|seed| !seed.is_empty())
        .map(|seed| match seed {
            "new" => driver_core::random_u64(),
            seed => u64::from_str_radix(seed.trim_start_matches("0x"), 16)
                .unwrap_or_else(|_| panic!("{variable}: {seed:?} is no hex seed")),
        });
    fixed.iter().copied().chain(more).collect()
}

/// The reading of the whole page, as the model reads it.
pub(crate) async fn reading(marks: &Marks, driver: &dyn Driver) -> String {
    marks
        .read_text(driver, None, true)
        .await
        .expect("a reading")
        .render_reading(RenderOptions::default())
}

/// The words a test held against their truths: how many each way, and
/// what the snapshot's text or the reading said wrong.
#[derive(Default)]
pub(crate) struct Tally {
    pub(crate) judged: usize,
    pub(crate) unclear: usize,
    pub(crate) wrong: Vec<String>,
}

impl Tally {
    /// Holds the snapshot's `text` and the `reading` against each word's
    /// truth: a word seen must be in both, one hidden in neither.
    pub(crate) fn check<'a>(
        &mut self,
        words: impl Iterator<Item = (&'a String, Truth)>,
        text: &str,
        reading: &str,
    ) {
        for (word, truth) in words {
            let (said, read) = (
                text.contains(word.as_str()),
                reading.contains(word.as_str()),
            );
            match truth {
                Truth::Seen if !said || !read => self.wrong.push(format!("{word}: seen, left out")),
                Truth::Hidden if said || read => self.wrong.push(format!("{word}: hidden, read")),
                Truth::Unclear => self.unclear += 1,
                _ => self.judged += 1,
            }
        }
    }

    /// What was wrong since the last time asked, as one line.
    pub(crate) fn take_wrong(&mut self) -> Option<String> {
        (!self.wrong.is_empty()).then(|| std::mem::take(&mut self.wrong).join("; "))
    }
}
