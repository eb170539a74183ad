//! The pictures the judge reads: decoded, scaled to the page's pixels,
//! and which text run owns which changed pixel; whether a run's own
//! changes are legible.

use std::sync::LazyLock;

use super::*;

/// The least contrast (as WCAG measures it) between a pixel as drawn and
/// without a run for the run to have drawn it: a step of [`CHANGED`]
/// near white is about 1.15; dark grey letters (`#111`) on Firefox's dark
/// canvas (`#1c1b22`) differ by 1.10 at most, and read as nothing.
const PIXEL_CONTRAST: f64 = 1.12;
/// A change of colour this large (of 255, on a channel) is seen by its hue
/// alone, whatever the lightness.
const HUE_CHANGE: i32 = 64;

/// A picture, decoded: its pixels as the PNG holds them (grey, grey and
/// alpha, RGB or RGBA, eight bits a sample).
pub(crate) struct Picture {
    pub(crate) width: usize,
    pub(crate) height: usize,
    pub(crate) channels: usize,
    pub(crate) samples: Vec<u8>,
}

#[cfg(test)]
impl Picture {
    /// A white RGB picture, black at each of `ink` (column, row).
    pub(crate) fn white_but(
        width: usize,
        height: usize,
        ink: impl IntoIterator<Item = (usize, usize)>,
    ) -> Self {
        let mut samples = vec![255u8; width * height * 3];
        for (column, row) in ink {
            samples[(row * width + column) * 3..][..3].copy_from_slice(&[0, 0, 0]);
        }
        Self {
            width,
            height,
            channels: 3,
            samples,
        }
    }
}

impl Picture {
    pub(crate) fn decode(png: &[u8]) -> Result<Self, Unjudged> {
        let bad = |error: png::DecodingError| Unjudged(format!("a picture is no PNG: {error}"));
        let mut decoder = png::Decoder::new(std::io::Cursor::new(png));
        decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
        let mut reader = decoder.read_info().map_err(bad)?;
        let mut samples = vec![0; reader.output_buffer_size().unwrap_or_default()];
        let info = reader.next_frame(&mut samples).map_err(bad)?;
        samples.truncate(info.buffer_size());
        Ok(Self {
            width: info.width as usize,
            height: info.height as usize,
            channels: info.color_type.samples(),
            samples,
        })
    }

    /// Whether the pixel at `at` differs between two pictures (of one
    /// kind) as a person tells colours apart: by at least [`CHANGED`] on a
    /// channel, and either in lightness (a contrast of [`PIXEL_CONTRAST`])
    /// or in hue by [`HUE_CHANGE`]. Near black, a step of [`CHANGED`] is
    /// less contrast than near white: dark grey letters on a dark canvas
    /// differ by it, and read as nothing.
    /// (`change`: [`change`](Self::change) of the pixel, already known.)
    pub(crate) fn discernible(&self, other: &Picture, at: usize, change: i32) -> bool {
        change >= HUE_CHANGE
            || (change >= CHANGED && {
                let (a, b) = (self.luminance(at), other.luminance(at));
                (a.max(b) + 0.05) / (a.min(b) + 0.05) >= PIXEL_CONTRAST
            })
    }

    /// The relative luminance of the pixel at `at` (sRGB, 0 to 1).
    fn luminance(&self, at: usize) -> f64 {
        static LINEAR: LazyLock<[f64; 256]> = LazyLock::new(|| {
            std::array::from_fn(|value| {
                let value = value as f64 / 255.0;
                if value <= 0.04045 {
                    value / 12.92
                } else {
                    ((value + 0.055) / 1.055).powf(2.4)
                }
            })
        });
        let start = at * self.channels;
        let sample = |channel: usize| {
            LINEAR[usize::from(self.samples[start + channel.min(self.channels.clamp(1, 3) - 1)])]
        };
        0.2126 * sample(0) + 0.7152 * sample(1) + 0.0722 * sample(2)
    }

    /// Whether the pixel at `at` shows the page: a backend leaves a part
    /// it cannot picture transparent (Chrome's, beyond the viewport, where
    /// a layer of its own may lie), which no run's change can be told in.
    pub(crate) fn known(&self, at: usize) -> bool {
        !matches!(self.channels, 2 | 4) || self.samples[at * self.channels + self.channels - 1] != 0
    }

    /// How much the pixel at `at` differs between two pictures (of one
    /// kind), on its most changed colour channel.
    pub(crate) fn change(&self, other: &Picture, at: usize) -> i32 {
        let colours = self.channels.clamp(1, 3);
        let start = at * self.channels;
        let (a, b) = (
            &self.samples[start..start + colours],
            &other.samples[start..start + colours],
        );
        a.iter()
            .zip(b)
            .map(|(a, b)| (i32::from(*a) - i32::from(*b)).abs())
            .max()
            .unwrap_or_default()
    }
}

/// What the pictures show, in the top viewport's CSS pixels: the part of
/// the page from `left`, `top` (above the viewport where negative), of
/// `width`×`height`; and whether the backend pictures any such part
/// (`clips`), or the viewport alone.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct View {
    pub(crate) left: f64,
    pub(crate) top: f64,
    pub(crate) width: f64,
    pub(crate) height: f64,
    pub(crate) clips: bool,
    /// The backend's pictures are frames of the viewport, a part of it
    /// cut from one: within the viewport, the viewport is asked.
    pub(crate) framed: bool,
    /// The viewport's width and height.
    pub(crate) viewport: [f64; 2],
}

impl View {
    /// A viewport of `width`×`height`, pictured as far as `reach` (above,
    /// below) says beyond it; any part of that where `clips`.
    pub(crate) fn new(width: f64, height: f64, reach: [u32; 2], clips: bool) -> Self {
        let (above, below) = (f64::from(reach[0]), f64::from(reach[1]));
        Self {
            left: 0.0,
            top: -above,
            width,
            height: height + above + below,
            clips,
            framed: false,
            viewport: [width, height],
        }
    }

    /// The same, its pictures frames of the viewport where `framed`
    /// (`Capability::CompositedPictures`: what the compositor draws).
    pub(crate) fn framed(self, framed: bool) -> Self {
        Self { framed, ..self }
    }

    /// Where the backend pictures any part, no farther right or down than
    /// the document reaches (`right`, `bottom`, in the top viewport): a
    /// picture asked beyond it comes back cut to it (a page narrower than
    /// the viewport, whose scroll bar takes the rest), and would be taken
    /// to be scaled.
    pub(crate) fn within(self, right: f64, bottom: f64) -> Self {
        if !self.clips || right <= self.left || bottom <= self.top {
            return self;
        }
        Self {
            width: self.width.min(right - self.left),
            height: self.height.min(bottom - self.top),
            ..self
        }
    }

    /// The part of it `rects` (x, y, width, height in the top viewport)
    /// lie in, in whole pixels, where the backend pictures any part: a
    /// smaller picture takes less time.
    pub(crate) fn around(self, rects: impl Iterator<Item = [f64; 4]>) -> Self {
        if !self.clips {
            return self;
        }
        let (mut left, mut top, mut right, mut bottom) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for [x, y, w, h] in rects {
            (left, top) = (left.min(x), top.min(y));
            (right, bottom) = (right.max(x + w), bottom.max(y + h));
        }
        let left = left.max(self.left).floor();
        let top = top.max(self.top).floor();
        let right = right.min(self.left + self.width).ceil();
        let bottom = bottom.min(self.top + self.height).ceil();
        if right <= left || bottom <= top {
            return self;
        }
        if self.framed && top >= 0.0 && bottom <= self.viewport[1] {
            return Self {
                left: 0.0,
                top: 0.0,
                width: self.viewport[0],
                height: self.viewport[1],
                clips: false,
                ..self
            };
        }
        Self {
            left,
            top,
            width: right - left,
            height: bottom - top,
            clips: true,
            ..self
        }
    }

    /// What the backend is asked to picture: `None`, the viewport.
    pub(crate) fn area(&self) -> Option<[i32; 4]> {
        self.clips.then_some([
            self.left as i32,
            self.top as i32,
            self.width as i32,
            self.height as i32,
        ])
    }
}

/// From CSS pixels of the top viewport to a picture's.
#[derive(Clone, Copy)]
pub(crate) struct Scale {
    pub(crate) x: f64,
    pub(crate) y: f64,
    /// Where the picture begins, in the top viewport's CSS pixels.
    pub(crate) left: f64,
    pub(crate) top: f64,
}

impl Scale {
    pub(crate) fn of(picture: &Picture, view: View) -> Self {
        let ratio = |pixels: usize, css: f64| if css > 0.0 { pixels as f64 / css } else { 1.0 };
        Self {
            x: ratio(picture.width, view.width),
            y: ratio(picture.height, view.height),
            left: view.left,
            top: view.top,
        }
    }

    /// The picture's column of a CSS pixel's `x` in the top viewport.
    pub(crate) fn column(&self, x: f64) -> f64 {
        (x - self.left) * self.x
    }

    /// The picture's row of a CSS pixel's `y` in the top viewport.
    pub(crate) fn row(&self, y: f64) -> f64 {
        (y - self.top) * self.y
    }

    /// The columns and rows of a picture a box (x, y, width, height in
    /// CSS pixels of the top viewport) covers, within the picture.
    pub(crate) fn span(
        &self,
        picture: &Picture,
        [x, y, w, h]: [f64; 4],
    ) -> (std::ops::Range<usize>, std::ops::Range<usize>) {
        let clamp = |value: f64, most: usize| value.max(0.0).min(most as f64) as usize;
        (
            clamp(self.column(x).floor(), picture.width)
                ..clamp(self.column(x + w).ceil(), picture.width),
            clamp(self.row(y).floor(), picture.height)
                ..clamp(self.row(y + h).ceil(), picture.height),
        )
    }
}

/// Which run of a group each pixel belongs to: where two runs' boxes meet,
/// to neither. Kept for the part of the picture the group's boxes span.
pub(crate) struct Owners {
    /// The span's left and top edges, its width and height, in the
    /// picture's pixels.
    pub(crate) left: usize,
    pub(crate) top: usize,
    pub(crate) width: usize,
    pub(crate) height: usize,
    /// The picture's width.
    pub(crate) stride: usize,
    /// The side of the marker's square at the top left (a marked probe's,
    /// `driver_core::MARKER_SIZE`), in the picture's pixels: no run's.
    pub(crate) marker: usize,
    /// From CSS pixels to the picture's.
    pub(crate) scale: Scale,
    /// Per pixel of the span: 0 none, `run + 1`, or [`Owners::SHARED`].
    pub(crate) owner: Vec<u32>,
    /// Each run's pixels, as rows of spans in the picture: (y, x from, x to).
    pub(crate) spans: std::collections::HashMap<usize, Vec<(usize, usize, usize)>>,
}

impl Owners {
    const SHARED: u32 = u32::MAX;

    pub(crate) fn of<'a>(
        runs: impl Iterator<Item = (usize, &'a WireRun)>,
        picture: &Picture,
        scale: Scale,
    ) -> Self {
        let mut spans = std::collections::HashMap::new();
        let (mut left, mut top, mut right, mut bottom) = (usize::MAX, usize::MAX, 0, 0);
        for (run, wire) in runs {
            let mut own = Vec::new();
            for rect in boxes(wire) {
                let (
                    std::ops::Range {
                        start: from,
                        end: to,
                    },
                    std::ops::Range {
                        start: first,
                        end: last,
                    },
                ) = scale.span(picture, rect);
                if from >= to || first >= last {
                    continue;
                }
                (left, right) = (left.min(from), right.max(to));
                (top, bottom) = (top.min(first), bottom.max(last));
                own.extend((first..last).map(|row| (row, from, to)));
            }
            spans.insert(run, own);
        }
        let (width, height) = (right.saturating_sub(left), bottom.saturating_sub(top));
        let mut owners = Self {
            left: left.min(right),
            top: top.min(bottom),
            width,
            height,
            stride: picture.width,
            marker: (f64::from(driver_core::MARKER_SIZE) * scale.x.max(scale.y)).ceil() as usize,
            scale,
            owner: vec![0; width * height],
            spans,
        };
        for (run, own) in &owners.spans {
            let mine = *run as u32 + 1;
            for &(row, from, to) in own {
                let base = (row - owners.top) * width;
                for column in from..to {
                    let cell = &mut owners.owner[base + column - owners.left];
                    *cell = match *cell {
                        0 => mine,
                        same if same == mine => mine,
                        _ => Self::SHARED,
                    };
                }
            }
        }
        owners
    }

    /// Whose the pixel at (`row`, `column`) of the picture is: 0 no run's,
    /// `run + 1`, or [`Owners::SHARED`]; `None` outside the span and in
    /// the marker's square.
    fn owner_at(&self, row: usize, column: usize) -> Option<u32> {
        let inside = !(row < self.marker && column < self.marker)
            && row >= self.top
            && column >= self.left
            && row < self.top + self.height
            && column < self.left + self.width;
        inside.then(|| self.owner[(row - self.top) * self.width + column - self.left])
    }

    /// Whether the pixel at (`row`, `column`) of the picture is `mine`
    /// alone.
    pub(crate) fn owns(&self, mine: u32, row: usize, column: usize) -> bool {
        self.owner_at(row, column) == Some(mine)
    }

    /// Whether two pictures are the same in every box of the group.
    pub(crate) fn same(&self, one: &Picture, other: &Picture) -> bool {
        self.spans.values().flatten().all(|&(row, from, to)| {
            (from..to).all(|column| one.change(other, row * self.stride + column) == 0)
        })
    }

    /// Whether the pixel at (`row`, `column`) of the picture lies in
    /// `mine`'s boxes, alone or with another run's (where both were taken
    /// out together).
    fn covers(&self, mine: u32, row: usize, column: usize) -> bool {
        matches!(self.owner_at(row, column), Some(owner) if owner == mine || owner == Self::SHARED)
    }

    /// What changed of `run`'s own pixels between the picture as drawn
    /// and the one without it; with `again` (the page pictured once more
    /// as drawn), only where the two as drawn agree.
    pub(crate) fn changes(
        &self,
        run: usize,
        drawn: &Picture,
        without: &Picture,
        again: Option<&Picture>,
    ) -> Changes {
        let mine = run as u32 + 1;
        let stride = self.stride;
        let still = |row: usize, column: usize| {
            drawn.known(row * stride + column)
                && again.is_none_or(|again| drawn.change(again, row * stride + column) < CHANGED)
        };
        let own = |row: usize, column: usize| self.owns(mine, row, column) && still(row, column);
        let mut changes = Changes::default();
        let (mut left, mut right, mut top, mut bottom) = (usize::MAX, 0, usize::MAX, 0);
        let spans = self.spans.get(&run).map(Vec::as_slice).unwrap_or_default();
        // The strongest change first: edges are steps of a share of it.
        for &(row, from, to) in spans {
            for column in from..to {
                if !self.owns(mine, row, column) {
                    continue;
                }
                changes.owned += 1;
                if !still(row, column) {
                    changes.moved += 1;
                    continue;
                }
                {
                    let change = drawn.change(without, row * stride + column);
                    changes.peak = changes.peak.max(change);
                    if drawn.discernible(without, row * stride + column, change) {
                        changes.pixels += 1;
                        (left, right) = (left.min(column), right.max(column + 1));
                        (top, bottom) = (top.min(row), bottom.max(row + 1));
                    }
                }
            }
        }
        if changes.pixels == 0 {
            return changes;
        }
        changes.width = (right - left) as f64 / self.scale.x;
        changes.height = (bottom - top) as f64 / self.scale.y;
        let step = (f64::from(changes.peak) * EDGE_SHARE).max(f64::from(CHANGED)) as i32;
        for &(row, from, to) in spans {
            for column in from..to {
                if !own(row, column) {
                    continue;
                }
                let here = drawn.change(without, row * stride + column);
                for (next_row, next_column) in [(row, column + 1), (row + 1, column)] {
                    if own(next_row, next_column) {
                        let there = drawn.change(without, next_row * stride + next_column);
                        if (here - there).abs() >= step {
                            changes.edges += 1;
                        }
                    }
                }
            }
        }
        changes
    }

    /// The stretches of `run`'s boxes (`wire`'s) that the picture shows
    /// but where nothing of it changed to read when it was taken out:
    /// whole columns of its boxes with no pixel that moved and none whose
    /// change has a sharp edge (as [`legible`] counts them, by `peak`, the
    /// run's strongest change: a blur behind a cover smears letters into
    /// soft changes), at least [`UNSEEN_STRETCH`] wide, taking in at
    /// either end a letter's faint edge ([`FAINT_INK`]). What a clip, a
    /// cover, a mask or a line clamp hides of a run a person sees the rest
    /// of. Flattened `[x, y, w, h]` in the top viewport's CSS pixels. A
    /// pixel its box shares with another run's counts (both were taken out
    /// together: unchanged, it is neither's); a column beyond the picture
    /// belongs to no stretch, nor a box the picture's top or bottom edge
    /// cuts.
    pub(crate) fn unseen(
        &self,
        run: usize,
        (wire, peak): (&WireRun, i32),
        (drawn, without, again): (&Picture, &Picture, Option<&Picture>),
    ) -> Vec<f64> {
        let mine = run as u32 + 1;
        let stride = self.stride;
        let faint = (FAINT_INK * self.scale.x * self.scale.y).round() as u32;
        let step = (f64::from(peak) * EDGE_SHARE).max(f64::from(CHANGED)) as i32;
        let change = |row: usize, column: usize| drawn.change(without, row * stride + column);
        // A pixel of a letter to read: changed, and a step from a neighbour.
        let sharp = |row: usize, column: usize| {
            let here = change(row, column);
            drawn.discernible(without, row * stride + column, here)
                && [
                    (row, column + 1),
                    (row + 1, column),
                    (row, column.wrapping_sub(1)),
                    (row.wrapping_sub(1), column),
                ]
                .into_iter()
                .any(|(row, column)| {
                    row < drawn.height
                        && column < drawn.width
                        && (here - change(row, column)).abs() >= step
                })
        };
        let clamp = |value: f64, most: usize| value.max(0.0).min(most as f64) as usize;
        // Each box in the picture's pixels: columns, then rows.
        let spans: Vec<[usize; 4]> = boxes(wire)
            .iter()
            .map(|[x, y, w, h]| {
                [
                    clamp(self.scale.column(*x).floor(), drawn.width),
                    clamp(self.scale.column(x + w).ceil(), drawn.width),
                    clamp(self.scale.row(*y).floor(), drawn.height),
                    clamp(self.scale.row(y + h).ceil(), drawn.height),
                ]
            })
            .collect();
        // Only the boxes the picture shows (a long text has thousands).
        let shown: Vec<usize> = (0..spans.len())
            .filter(|&index| {
                let [from, to, first, last] = spans[index];
                from < to && first < last
            })
            .collect();
        let rects = boxes(wire);
        let mut stretches = Vec::new();
        for &index in &shown {
            let [from, to, first, last] = spans[index];
            let [_, y, _, h] = rects[index];
            // A box the pictures' top or bottom edge cuts (the fold) shows
            // only part of its letters: the rest is a scroll away.
            let height = drawn.height as f64;
            if self.scale.row(y + h * 0.2) < 0.0 || self.scale.row(y + h * 0.8) > height {
                continue;
            }
            // Where the line above or below overlaps this one, its letters
            // are its own.
            let overlapping: Vec<[usize; 4]> = shown
                .iter()
                .filter(|&&other| other != index)
                .map(|&other| spans[other])
                .filter(|[left, right, top, bottom]| {
                    *left < to && from < *right && *top < last && first < *bottom
                })
                .collect();
            let elsewhere = |row: usize, column: usize| {
                overlapping.iter().any(|[from, to, first, last]| {
                    (*from..*to).contains(&column) && (*first..*last).contains(&row)
                })
            };
            // A column's pixels of this run: `None` where none is, else how
            // many changed to read (one moved counts as `most`), counted up
            // to `most`.
            let ink = |column: usize, most: u32| {
                let mut count: Option<u32> = None;
                for row in first..last {
                    if !self.covers(mine, row, column) || elsewhere(row, column) {
                        continue;
                    }
                    let seen = count.get_or_insert(0);
                    let moved = !drawn.known(row * stride + column)
                        || again.is_some_and(|again| {
                            drawn.change(again, row * stride + column) >= CHANGED
                        });
                    if moved {
                        *seen = most;
                    } else if sharp(row, column) {
                        *seen += 1;
                    }
                    if *seen >= most {
                        break;
                    }
                }
                count
            };
            // Whether each column is the run's and nothing of it there
            // changed to read.
            let blank: Vec<Option<bool>> = (from..to)
                .map(|column| ink(column, 1).map(|count| count == 0))
                .collect();
            // A letter's faint edge (a clip cut it to a few pixels, an
            // ellipsis's dots) is no more to read than the stretch beside it.
            let faint_at = |at: usize| match blank[at] {
                Some(true) => Some(0),
                Some(false) => ink(from + at, faint + 1),
                None => None,
            };
            // Narrower than most of a line's height, it is the room between
            // two words.
            let narrowest = UNSEEN_STRETCH.max(h * 0.8);
            let mut found: Vec<(usize, usize)> = Vec::new();
            let mut column = 0;
            while column < blank.len() {
                if blank[column] != Some(true) {
                    column += 1;
                    continue;
                }
                let (mut left, mut right) = (column, column);
                while right < blank.len() && blank[right] == Some(true) {
                    right += 1;
                }
                column = right;
                if ((right - left) as f64) / self.scale.x < narrowest {
                    continue;
                }
                let floor = found.last().map_or(0, |&(_, end)| end);
                let mut spent = 0;
                while left > floor {
                    match faint_at(left - 1) {
                        Some(count) if spent + count <= faint => {
                            spent += count;
                            left -= 1;
                        }
                        _ => break,
                    }
                }
                if let Some(&(begun, end)) = found.last() {
                    if end == left {
                        found.pop();
                        left = begun;
                    }
                }
                spent = 0;
                while right < blank.len() {
                    match faint_at(right) {
                        Some(count) if spent + count <= faint => {
                            spent += count;
                            right += 1;
                        }
                        _ => break,
                    }
                }
                found.push((left, right));
                column = right;
            }
            let round = |value: f64| (value * 10.0).round() / 10.0;
            for (left, right) in found {
                let x = (from + left) as f64 / self.scale.x + self.scale.left;
                let width = (right - left) as f64 / self.scale.x;
                stretches.extend([round(x), round(y), round(width), round(h)]);
            }
        }
        stretches
    }
}

/// The narrowest stretch of a run's box, in CSS pixels, that
/// [`Owners::unseen`] tells (and no narrower than most of the line's
/// height: a short word and the spaces around it).
const UNSEEN_STRETCH: f64 = 4.0;

/// The most pixels to read (per CSS pixel squared) a stretch of
/// [`Owners::unseen`] takes in at either end: a letter a clip cuts to
/// its faint edge, an ellipsis's dots, are nothing a person reads.
const FAINT_INK: f64 = 6.0;

/// What taking a run out of the paint changed of its own pixels.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Changes {
    /// The run's own pixels.
    pub(crate) owned: u32,
    /// Of those, the pixels that changed between the two pictures as
    /// drawn (a page that moves): they say nothing of the run.
    pub(crate) moved: u32,
    /// Pixels changed by at least [`CHANGED`].
    pub(crate) pixels: u32,
    /// The largest change.
    pub(crate) peak: i32,
    /// Sharp steps between neighbouring pixels (see [`EDGE_SHARE`]).
    pub(crate) edges: u32,
    /// How wide and high the pixels changed by [`CHANGED`] spread, in
    /// CSS pixels.
    pub(crate) width: f64,
    pub(crate) height: f64,
}

/// Whether the pictures' top or bottom edge (the viewport's, or as far
/// as they reach beyond it) cuts one of a run's boxes, or the edges of a
/// box that scrolls or of a frame's viewport cut every box of it they
/// show: they show only part of it.
pub(crate) fn cut_by_fold(run: &WireRun, view: View) -> bool {
    run.scroll_cut
        || boxes(run)
            .iter()
            .any(|[_, y, _, h]| *y < view.top || y + h > view.top + view.height)
}

/// Whether a run whose pixels changed so can be read: drawn large enough
/// to read (its boxes, and what changed of them), and its letters' pixels
/// changed with sharp edges.
pub(crate) fn legible(run: &WireRun, changes: &Changes) -> bool {
    let letters = f64::from(run.c.max(1));
    let rects = boxes(run);
    // Across its line (a line turned on end is higher than wide); a mark
    // or two may be narrower than high whichever way it stands.
    let tallest = rects
        .iter()
        .map(|[_, _, w, h]| if run.c <= 2 { w.max(*h) } else { w.min(*h) })
        .fold(0.0, f64::max);
    let length: f64 = rects.iter().map(|[_, _, w, h]| w.max(*h)).sum();
    if tallest < LOWEST_BOX || length / letters < NARROWEST_LETTER {
        return false;
    }
    // A mark or two (a period after a link, a button's "-"): whatever of
    // it is drawn is what there is to see.
    if run.c <= 2 {
        return changes.pixels >= 2;
    }
    // What changed must span a few letters' room at least, not a smear
    // of them squeezed into a sliver.
    let room = letters.min(3.0) * NARROWEST_LETTER;
    if changes.width.max(changes.height) < room || changes.width.min(changes.height) < LOWEST_LINE {
        return false;
    }
    let edges = EDGES.min(EDGES_PER_LETTER * run.c);
    changes.pixels >= 4 && changes.edges >= edges
}
