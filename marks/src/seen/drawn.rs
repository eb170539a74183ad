//! Whether anything is drawn in a box: a faint control's, or where CSS
//! writes words (no highlight takes those out of the paint, so they are
//! judged by what is drawn where they lie).

use super::pixels::{Picture, Scale};
use super::LOWEST_LINE;

/// A faint control is seen where what is drawn in its box spans at least
/// this much on some channel: a border, a picture, letters.
const DRAWN: i32 = 24;

/// The pixels of a box of a picture (CSS pixels of the top viewport), as
/// their indices in it, row by row.
fn box_pixels(picture: &Picture, scale: Scale, rect: [f64; 4]) -> impl Iterator<Item = usize> + '_ {
    let (columns, rows) = scale.span(picture, rect);
    rows.flat_map(move |row| {
        columns
            .clone()
            .map(move |column| row * picture.width + column)
    })
}

/// Whether anything is drawn in a box of a picture: its pixels differ by
/// at least [`DRAWN`] on some channel (a flat background draws nothing a
/// person could click), or some of them the picture cannot show.
pub(super) fn drawn_on(picture: &Picture, scale: Scale, rect: &[f64; 4]) -> bool {
    let colours = picture.channels.clamp(1, 3);
    let mut least = [u8::MAX; 3];
    let mut most = [0u8; 3];
    for at in box_pixels(picture, scale, *rect) {
        if !picture.known(at) {
            return true;
        }
        let start = at * picture.channels;
        for channel in 0..colours {
            let value = picture.samples[start + channel];
            least[channel] = least[channel].min(value);
            most[channel] = most[channel].max(value);
        }
    }
    (0..colours).any(|channel| i32::from(most[channel]) - i32::from(least[channel]) >= DRAWN)
}

/// Whether words CSS writes are drawn in their box in the first picture:
/// pixels of another colour than the box's most common one (by at least
/// [`DRAWN`]) that span at least [`LOWEST_LINE`] each way, as letters a
/// person reads do (a speck of a letter's tail below a cover is not
/// words); or some of them the picture cannot show. A pixel within the
/// boxes of the text the steps took out (`taken`) that changed in a later
/// picture is not counted: it is that text's ink (a line above or below
/// whose letters reach into the box), not the words', which no step takes
/// out. (Elsewhere a change is the page moving: words that pulse are
/// words.)
pub(super) fn words_drawn_on(
    pictures: &[Picture],
    scale: Scale,
    rect: &[f64; 4],
    taken: &[[f64; 4]],
) -> bool {
    let picture = &pictures[0];
    let others: Vec<&Picture> = pictures[1..]
        .iter()
        .filter(|other| {
            other.samples.len() == picture.samples.len() && other.channels == picture.channels
        })
        .collect();
    let [x, y, w, h] = *rect;
    let spans: Vec<_> = taken
        .iter()
        .filter(|[tx, ty, tw, th]| *tx < x + w && tx + tw > x && *ty < y + h && ty + th > y)
        .map(|&taken| scale.span(picture, taken))
        .collect();
    let theirs = |at: usize| {
        let (row, column) = (at / picture.width, at % picture.width);
        spans
            .iter()
            .any(|(columns, rows)| columns.contains(&column) && rows.contains(&row))
            && others.iter().any(|other| picture.change(other, at) != 0)
    };
    // The words' own pixels: what no step changed.
    let own = |at: usize| !theirs(at);
    if box_pixels(picture, scale, *rect).any(|at| !picture.known(at)) {
        return true;
    }
    ink_spans_a_letter(picture, scale, rect, own, own)
}

/// Whether letters whose ink is a background clipped to them (gradient
/// text, which no highlight takes out: it is painted in) are drawn in a
/// box: of the pixels painting them in changed (where their letters
/// stand), those the first picture shows apart from the colour around
/// them span a letter's height and width. A background sized to nothing,
/// moved away, or drawn as a hairline draws no letters, wherever they
/// stand; or some of them the picture cannot show.
pub(super) fn clipped_ink_drawn(
    drawn: &Picture,
    painted: &Picture,
    scale: Scale,
    rect: &[f64; 4],
) -> bool {
    if box_pixels(drawn, scale, *rect).any(|at| !drawn.known(at)) {
        return true;
    }
    let letter = |at: usize| drawn.change(painted, at) >= DRAWN;
    ink_spans_a_letter(drawn, scale, rect, |at| !letter(at), letter)
}

/// Whether the pixels of a box of a picture that `ink` takes, of another
/// colour than the most common one among those `ground` takes (by at
/// least [`DRAWN`]), span at least [`LOWEST_LINE`] each way, as letters a
/// person reads do (a speck of a letter's tail below a cover is not
/// words).
fn ink_spans_a_letter(
    picture: &Picture,
    scale: Scale,
    rect: &[f64; 4],
    ground: impl Fn(usize) -> bool,
    ink: impl Fn(usize) -> bool,
) -> bool {
    let colours = picture.channels.clamp(1, 3);
    let colour = |at: usize| {
        let start = at * picture.channels;
        picture.samples[start..start + colours]
            .iter()
            .fold(0u32, |packed, sample| packed << 8 | u32::from(*sample))
    };
    // The box's own colour: the most common, from a few thousand of its
    // pixels at most (a large box's words are few of them).
    let (columns, rows) = scale.span(picture, *rect);
    let step = (columns.len() * rows.len() / 4096).max(1);
    let mut tally = std::collections::HashMap::<u32, usize>::new();
    for at in box_pixels(picture, scale, *rect)
        .filter(|&at| ground(at))
        .step_by(step)
    {
        *tally.entry(colour(at)).or_default() += 1;
    }
    let Some(ground) = tally
        .into_iter()
        .max_by_key(|&(_, count)| count)
        .map(|(c, _)| c)
    else {
        return false;
    };
    let apart = |a: u32, b: u32| {
        (0..colours).any(|channel| {
            let shift = 8 * channel;
            ((a >> shift & 0xff) as i32 - (b >> shift & 0xff) as i32).abs() >= DRAWN
        })
    };
    let (mut rows, mut columns) = ((usize::MAX, 0), (usize::MAX, 0));
    for at in box_pixels(picture, scale, *rect).filter(|&at| ink(at) && apart(colour(at), ground)) {
        let (row, column) = (at / picture.width, at % picture.width);
        rows = (rows.0.min(row), rows.1.max(row));
        columns = (columns.0.min(column), columns.1.max(column));
    }
    let spans = |(first, last): (usize, usize), per_css: f64| {
        first <= last && (last - first + 1) as f64 / per_css >= LOWEST_LINE
    };
    spans(rows, scale.y) && spans(columns, scale.x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seen::pixels::View;

    /// A white 40 × 20 picture with black pixels at `ink` (column, row).
    fn picture(ink: impl IntoIterator<Item = (usize, usize)>) -> Picture {
        Picture::white_but(40, 20, ink)
    }

    fn block(columns: std::ops::Range<usize>, rows: std::ops::Range<usize>) -> Vec<(usize, usize)> {
        rows.flat_map(|row| columns.clone().map(move |column| (column, row)))
            .collect()
    }

    #[test]
    fn words_are_ink_the_steps_left_that_spans_a_letter() {
        let scale = Scale::of(&picture([]), View::new(40.0, 20.0, [0, 0], false));
        let words = [0.0, 8.0, 40.0, 12.0];
        // Letters of the words: ink 6 × 6 pixels.
        let letters = picture(block(10..16, 12..18));
        assert!(words_drawn_on(&[letters], scale, &words, &[]));
        // A speck of a letter's tail below a cover: not words (though
        // something is drawn there).
        let speck = picture(block(10..12, 18..19));
        assert!(drawn_on(&speck, scale, &words));
        assert!(!words_drawn_on(&[speck], scale, &words, &[]));
        // The tails of the line above, which a step took out of the paint,
        // are that line's ink, not the words'.
        let tails = block(4..30, 8..13);
        let line = [[0.0, 0.0, 40.0, 13.0]];
        let above = picture(tails.clone());
        assert!(words_drawn_on(
            &[picture(tails.clone())],
            scale,
            &words,
            &line
        ));
        assert!(!words_drawn_on(&[above, picture([])], scale, &words, &line));
        let both = [tails.clone(), block(10..16, 12..18)].concat();
        assert!(words_drawn_on(
            &[picture(both), picture(block(10..16, 12..18))],
            scale,
            &words,
            &line
        ));
        // Ink that changes where no text was taken out is the page moving
        // (words that pulse): still the words'.
        assert!(words_drawn_on(
            &[picture(tails), picture([])],
            scale,
            &words,
            &[]
        ));
        // Nothing at all.
        assert!(!words_drawn_on(&[picture([])], scale, &words, &[]));
    }

    #[test]
    fn gradient_letters_are_their_ink_where_they_stand() {
        let scale = Scale::of(&picture([]), View::new(40.0, 20.0, [0, 0], false));
        let words = [0.0, 4.0, 40.0, 14.0];
        // Where the letters stand: what painting them in changes.
        let stand = block(6..30, 6..16);
        let blank = || picture([]);
        // Their background drawn through them: letters.
        assert!(clipped_ink_drawn(
            &picture(stand.clone()),
            &blank(),
            scale,
            &words
        ));
        // Painted in, they show where they stand; as drawn, nothing there
        // (a background sized to nothing, moved away): no letters.
        assert!(!clipped_ink_drawn(&blank(), &picture(stand), scale, &words));
        // A stripe of it two pixels high: no letters either.
        assert!(!clipped_ink_drawn(
            &picture(block(6..30, 6..8)),
            &blank(),
            scale,
            &words
        ));
    }
}
