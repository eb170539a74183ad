//! [`PaintProbe`]: what [`Driver::paint_probe`](crate::Driver::paint_probe)
//! is asked to picture.
//!
//! A person sees what the compositor draws, not what the page's style says.
//! The way to know whether some text is seen is to picture the page as it
//! is, then again with that text taken out of the paint, and compare: the
//! pixels that change are what a person sees of it (`marks` does the
//! comparing). Taking text out of the paint without the page noticing is
//! what this asks of a backend: scripts in tabwright's own world register
//! CSS custom highlights (`CSS.highlights`, which changes no element, fires
//! no event and no computed style of any element), and a style sheet the
//! page cannot see (DevTools' inspector sheet: not in `document.styleSheets`,
//! no mutation) paints those highlights transparent.

use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

/// A script for tabwright's own world of one frame's document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FrameScript {
    /// The frame, by its path of `window.frames` indices from the top
    /// (`[]`: the top document).
    pub frame: Vec<u32>,
    /// The expression, evaluated there with promises awaited.
    pub expression: String,
}

/// What to picture: a picture of the current tab's viewport (and as far
/// beyond it as [`area`](Self::area) says) per step,
/// each taken once the step's scripts have run and the page has drawn a
/// frame since.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaintProbe {
    /// Style rules for the documents of [`frames`](Self::frames), in a
    /// sheet the page cannot see: what paints the steps' highlights.
    pub sheet: String,
    /// The frames whose documents get the sheet.
    pub frames: Vec<Vec<u32>>,
    /// The steps, in order: each step's scripts, then one picture. A step
    /// with no scripts pictures the page as it is.
    pub steps: Vec<Vec<FrameScript>>,
    /// Scripts run once the pictures are taken, whether or not the steps
    /// went well: what puts the page's paint back as it was.
    pub after: Vec<FrameScript>,
    /// The page holds still (nothing animates, nothing changed since it
    /// was last drawn): the first picture is the frame on screen, with no
    /// wait for the page to draw another.
    pub still: bool,
    /// Every picture after a step's scripts is proved to show them (and
    /// on a page that moves, the first too): a marker is drawn over the
    /// page (DevTools' overlay, which the page does not see) after the
    /// scripts ran, a colour of its own per step, in the top left
    /// [`MARKER_SIZE`] pixels, and the picture is the first frame that
    /// shows it. Without it, the picture is the next frame the compositor
    /// sends once the scripts ran, which on a still page shows them, but
    /// may have been begun before them on a page that moves (a caret's
    /// blink is enough): a frame later, and sure. A probe right after
    /// another on the same tab waits, whatever this says, for the page to
    /// draw a frame before its first picture (what the last one put back
    /// may not be drawn yet).
    pub marked: bool,
    /// The part of the page to picture, in the top viewport's CSS pixels
    /// (x, y, width, height; above or below the viewport as far as the
    /// document goes): each picture is of it alone, transparent where
    /// the backend cannot picture it. `None`: the viewport.
    /// Only asked of a backend with
    /// [`Capability::PicturesBeyondViewport`](crate::Capability::PicturesBeyondViewport).
    #[serde(default)]
    pub area: Option<[i32; 4]>,
}

/// The side, in CSS pixels, of the square a marked probe draws at the
/// viewport's top left corner (see [`PaintProbe::marked`]): what is there
/// is the marker's, not the page's.
pub const MARKER_SIZE: u32 = 2;

/// The marker's colour in the picture of step `step` of a marked probe:
/// no two steps in a row share one.
pub fn marker_colour(step: usize) -> [u8; 3] {
    const COLOURS: [[u8; 3]; 3] = [[250, 3, 247], [5, 249, 11], [13, 17, 251]];
    COLOURS[step % COLOURS.len()]
}

/// The pictures of a [`PaintProbe`]: one PNG of the viewport per step, all
/// of one size (in CSS pixels where the backend can, else device pixels).
pub type PaintPictures = Vec<Vec<u8>>;

/// The name of the CSS custom highlight that takes text out of the paint:
/// drawn at random once per process, so a page can neither tell it for
/// tabwright's nor style it. Runs that cannot be taken out are painted in
/// as this name with `i` after it.
pub fn highlight_name() -> &'static str {
    static NAME: LazyLock<String> =
        LazyLock::new(|| format!("h{:012x}", crate::random_u64() & 0xffff_ffff_ffff));
    &NAME
}

/// The colour runs that cannot be taken out are painted in: a vivid one
/// drawn once per process, which a page cannot match on purpose.
fn painted_in() -> [u8; 3] {
    static COLOUR: LazyLock<[u8; 3]> = LazyLock::new(|| {
        let bits = crate::random_u64();
        // A saturated colour: one channel high, one low, one between.
        let between = (bits & 0xff) as u8;
        match (bits >> 8) % 6 {
            0 => [255, between, 0],
            1 => [between, 255, 0],
            2 => [0, 255, between],
            3 => [0, between, 255],
            4 => [between, 0, 255],
            _ => [255, 0, between],
        }
    });
    *COLOUR
}

/// The sheet a [`PaintProbe`] gives the page, the same for the whole
/// process: it paints the [`highlight_name`] highlight transparent (the
/// letters, their stroke, shadow and lines), the painted-in one in a
/// colour of its own, and the one painted under (SVG text, whose letters
/// Blink's highlights leave as drawn) with a background of that colour.
/// A backend that can give a sheet only as the browser starts (Firefox's
/// profile) gives this one.
pub fn paint_sheet() -> &'static str {
    static SHEET: LazyLock<String> = LazyLock::new(|| {
        let [r, g, b] = painted_in();
        format!(
            "::highlight({name}) {{ color: transparent !important; -webkit-text-fill-color: transparent !important; \
             -webkit-text-stroke-color: transparent !important; text-shadow: none !important; \
             text-decoration-color: transparent !important; background-color: transparent !important; }} \
             ::highlight({name}i) {{ color: rgb({r}, {g}, {b}) !important; -webkit-text-fill-color: rgb({r}, {g}, {b}) !important; \
             text-shadow: none !important; }} \
             ::highlight({name}s) {{ background-color: rgb({r}, {g}, {b}) !important; }}",
            name = highlight_name()
        )
    });
    &SHEET
}
