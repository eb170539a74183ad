//! What a person sees of the text in view, judged by the pixels the
//! browser draws.
//!
//! Style rules cannot say what is seen: each round of hiding techniques
//! found half the next one outside them (a webfont whose glyphs are blank,
//! covers no rule knew, a dialog's backdrop), while the rules began to hide
//! text and controls a person does see. The engine knows what it painted.
//! So the walker keeps style for what is certainly not painted (the
//! pre-filter: not rendered, no box, faded to nothing, clipped away) and
//! hands every other text node in the viewport here as a candidate
//! ([`WireRun`]). The viewport is pictured as drawn, then again with the
//! candidates taken out of the paint ([`Driver::paint_probe`]: CSS custom
//! highlights the inspector sheet paints transparent, which the page cannot
//! notice), and a candidate is seen where its own pixels change enough to
//! be read ([`legible`]). Fonts, filters, covers, clips, masks, blend modes
//! and backdrops are then one case.
//!
//! Text that overlaps other text (a row of `█` drawn over a sentence) is
//! taken out in a picture of its own ([`groups`]), so that what changes in
//! its boxes is its own doing; where two candidates' boxes touch a little,
//! each is measured where it alone lies.

use driver_core::{highlight_name, paint_sheet, Driver, FrameScript, PaintProbe};

use crate::page::WireRun;

/// A pixel whose colour changes by at least this much (of 255, on its
/// most changed channel) when a run is taken out is one the run paints:
/// about the least contrast a person reads text by (1.15 near white).
const CHANGED: i32 = 16;
/// A run is read where the pixels it changes form at least this many
/// sharp edges (a blurred smear has none), or six per letter for a short
/// run: a letter of a small font at 16 px has a dozen or more.
const EDGES: u32 = 24;
const EDGES_PER_LETTER: u32 = 6;
/// An edge is a step between neighbouring pixels of at least this share of
/// the run's strongest change: letters blurred by up to about two and a
/// half pixels keep such steps (and are read, with some effort), by three
/// or more they lose them.
const EDGE_SHARE: f64 = 0.15;
/// Ink that spans less than this (CSS pixels) either way, or letters
/// given less than [`NARROWEST_LETTER`] along their line on average, cannot
/// be read.
const LOWEST_LINE: f64 = 4.0;
const NARROWEST_LETTER: f64 = 1.5;
/// A run whose boxes are less high than this (CSS pixels) is drawn in a
/// font under 5 px, which cannot be read (the style's `SMALLEST_TEXT`):
/// the browser's fonts give a 5 px font a line box of 5.6 px or more, a
/// 4.5 px one of 5 px.
const LOWEST_BOX: f64 = 5.5;
/// Where the page script numbers its checks of words CSS writes from
/// (painted.js's `GENERATED_CHECKS`): apart from elements' local ids.
const GENERATED_CHECKS: u32 = 1 << 30;
/// The most pictures of text taken out a judgement takes: text overlapping
/// text beyond that many layers is measured where it alone lies.
const MOST_GROUPS: usize = 4;
/// Two runs whose boxes share more than this part of the smaller one's
/// area are taken out in pictures of their own.
const OVERLAP: f64 = 0.3;

/// The candidates of one walk (a frame the walker ran in): where it ran,
/// its document, how often that had changed (`None`: it moves by itself),
/// and its runs by their index.
pub(crate) struct Walked<'a> {
    /// The path of the frame the walker ran in.
    pub(crate) path: &'a [u32],
    pub(crate) doc: &'a str,
    pub(crate) epoch: Option<u64>,
    pub(crate) runs: &'a [WireRun],
    /// Controls too faint to see that a click reaches: local id and box.
    pub(crate) ghosts: &'a [(u32, f64, f64, f64, f64)],
}

/// A run to judge: the walk it is of, its index there, and itself.
type Candidate<'a> = (usize, u32, &'a WireRun);

/// A faint control to judge: the walk it is of, its local id, and its box.
type Ghost = (usize, u32, [f64; 4]);

/// What the pictures found of one walk: its runs not seen (by index),
/// its faint controls (by local id) with nothing drawn where they are, its
/// runs they could not judge, and its runs painted in whose place is seen.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Verdict {
    pub(crate) hidden: Vec<u32>,
    pub(crate) bare: Vec<u32>,
    /// Runs the pictures could not judge (they moved between them), to be
    /// judged by their style.
    pub(crate) undecided: Vec<u32>,
    /// Runs painted in whose place the pictures show seen: how their
    /// letters read there, their style says.
    pub(crate) placed: Vec<u32>,
    /// Runs seen in part: each with the stretches of its boxes the
    /// pictures show but nothing of it changed in (`Owners::unseen`), as
    /// `[x, y, w, h]` one after another: the words there are left out.
    pub(crate) cut: Vec<(u32, Vec<f64>)>,
}

/// What the pictures found of a tab's text, kept while it holds: per
/// document (the frame path the walker ran in, and the document's id),
/// how often it had changed then, and per run (by its id) its boxes and
/// whether it was seen, whole or in part. A still page (nothing changed,
/// the boxes the same) needs no pictures.
#[derive(Debug, Default)]
pub(crate) struct Memory {
    documents: std::collections::HashMap<(Vec<u32>, String), Kept>,
}

#[derive(Debug)]
struct Kept {
    epoch: u64,
    runs: std::collections::HashMap<u32, (Vec<f64>, Found)>,
    /// Faint controls: box, and whether nothing is drawn there.
    ghosts: std::collections::HashMap<u32, ([f64; 4], bool)>,
}

impl Memory {
    /// A run's verdict, if kept: while its document has not changed and
    /// its boxes are the same.
    fn recall(&self, walk: &Walked<'_>, run: &WireRun) -> Option<&Found> {
        let kept = self.kept(walk)?;
        let (boxes, found) = kept.runs.get(&run.i)?;
        (*boxes == run.r).then_some(found)
    }

    /// Whether a faint control's verdict is kept: `Some(bare)` as for
    /// [`recall`](Self::recall).
    fn recall_ghost(&self, walk: &Walked<'_>, ghost: &(u32, f64, f64, f64, f64)) -> Option<bool> {
        let kept = self.kept(walk)?;
        let (rect, bare) = kept.ghosts.get(&ghost.0)?;
        (*rect == [ghost.1, ghost.2, ghost.3, ghost.4]).then_some(*bare)
    }

    /// What is kept of a walk's document, while it has not changed.
    fn kept(&self, walk: &Walked<'_>) -> Option<&Kept> {
        let kept = self
            .documents
            .get(&(walk.path.to_vec(), walk.doc.to_owned()))?;
        (Some(kept.epoch) == walk.epoch).then_some(kept)
    }

    /// Keeps what was found of a walk, if its document holds still.
    fn keep(&mut self, walk: &Walked<'_>, verdict: &Verdict) {
        let key = (walk.path.to_vec(), walk.doc.to_owned());
        let Some(epoch) = walk.epoch else {
            self.documents.remove(&key);
            return;
        };
        let runs = walk
            .runs
            .iter()
            .enumerate()
            .map(|(index, run)| {
                let index = index as u32;
                let found = if verdict.hidden.contains(&index) {
                    Found::Hidden
                } else if verdict.undecided.contains(&index) {
                    Found::Undecided
                } else {
                    Found::Seen {
                        placed: verdict.placed.contains(&index),
                        cut: verdict
                            .cut
                            .iter()
                            .find(|(cut, _)| *cut == index)
                            .map(|(_, stretches)| stretches.clone()),
                    }
                };
                (run.i, (run.r.clone(), found))
            })
            .collect();
        let ghosts = walk
            .ghosts
            .iter()
            .map(|&(id, x, y, w, h)| (id, ([x, y, w, h], verdict.bare.contains(&id))))
            .collect();
        self.documents.insert(
            key,
            Kept {
                epoch,
                runs,
                ghosts,
            },
        );
    }

    /// Forgets every document but those walked now (the tab navigated).
    fn keep_only(&mut self, walks: &[Walked<'_>]) {
        self.documents.retain(|(path, doc), _| {
            walks
                .iter()
                .any(|walk| walk.path == path.as_slice() && walk.doc == doc)
        });
    }
}

/// What the pictures found of one run.
#[derive(Debug, Clone, PartialEq)]
enum Found {
    Hidden,
    /// Left to its style (see [`Verdict::undecided`]): judged by it again
    /// at each read, as the first was.
    Undecided,
    /// Seen: `placed` where painted in (its style says how its letters
    /// read there, see [`Verdict::placed`]), and but for `cut`'s stretches
    /// of its boxes (see [`Verdict::cut`]).
    Seen {
        placed: bool,
        cut: Option<Vec<f64>>,
    },
}

/// Why text in view could not be judged by its pixels (it is then judged
/// by its style, as beyond the viewport).
#[derive(Debug)]
pub(crate) struct Unjudged(pub(crate) String);

/// Judges every candidate of `walks` by the pixels drawn in `view` (the
/// viewport, and as far beyond it as the pictures reach), and every faint control by what is drawn
/// where it is: for each walk, what no person sees. What was found before
/// and still holds (`memory`) is not pictured again.
pub(crate) async fn judge(
    driver: &dyn Driver,
    walks: &[Walked<'_>],
    view: View,
    memory: &parking_lot::Mutex<Memory>,
) -> Result<Vec<Verdict>, Unjudged> {
    let mut verdicts = vec![Verdict::default(); walks.len()];
    let mut runs: Vec<Candidate<'_>> = Vec::new();
    let mut ghosts: Vec<Ghost> = Vec::new();
    {
        let memory = memory.lock();
        for (walk, walked) in walks.iter().enumerate() {
            for (index, run) in walked.runs.iter().enumerate() {
                let verdict = &mut verdicts[walk];
                let index = index as u32;
                match memory.recall(walked, run) {
                    Some(Found::Hidden) => verdict.hidden.push(index),
                    Some(Found::Undecided) => verdict.undecided.push(index),
                    Some(Found::Seen { placed, cut }) => {
                        if *placed {
                            verdict.placed.push(index);
                        }
                        if let Some(stretches) = cut {
                            verdict.cut.push((index, stretches.clone()));
                        }
                    }
                    None => runs.push((walk, index, run)),
                }
            }
            for ghost in walked.ghosts {
                match memory.recall_ghost(walked, ghost) {
                    Some(true) => verdicts[walk].bare.push(ghost.0),
                    Some(false) => {}
                    None => ghosts.push((walk, ghost.0, [ghost.1, ghost.2, ghost.3, ghost.4])),
                }
            }
        }
    }
    if !runs.is_empty() || !ghosts.is_empty() {
        // A busy machine can draw no frame in time: pictured once more
        // before the text is left to its style.
        let candidates = (&runs[..], &ghosts[..]);
        if pictured(driver, walks, view, candidates, &mut verdicts)
            .await
            .is_err()
        {
            pictured(driver, walks, view, candidates, &mut verdicts).await?;
        }
        confirm_hidden(driver, walks, view, &runs, &mut verdicts).await;
    }
    let mut memory = memory.lock();
    memory.keep_only(walks);
    for (walk, verdict) in walks.iter().zip(&verdicts) {
        memory.keep(walk, verdict);
    }
    Ok(verdicts)
}

/// Pictures the runs of `runs` that `verdicts` found hidden once more, by
/// themselves, and keeps hidden only those this probe finds hidden too. A
/// picture taken while the page was still drawing (a busy machine, a
/// frame begun before the text was painted) shows nothing change, and
/// what a person does see must not be left out for it; hidden text is
/// rare, so the second probe costs only where some is. A run that moved
/// between the pictures goes by its style; one the second probe cannot
/// picture stays as the first found it.
async fn confirm_hidden(
    driver: &dyn Driver,
    walks: &[Walked<'_>],
    view: View,
    runs: &[Candidate<'_>],
    verdicts: &mut [Verdict],
) {
    let found: Vec<Candidate<'_>> = runs
        .iter()
        .filter(|(walk, index, _)| verdicts[*walk].hidden.contains(index))
        .copied()
        .collect();
    if found.is_empty() {
        return;
    }
    let mut again = vec![Verdict::default(); walks.len()];
    if pictured(driver, walks, view, (&found, &[]), &mut again)
        .await
        .is_err()
    {
        return;
    }
    for &(walk, index, _) in &found {
        if again[walk].hidden.contains(&index) {
            continue;
        }
        verdicts[walk].hidden.retain(|hidden| *hidden != index);
        if again[walk].undecided.contains(&index) {
            verdicts[walk].undecided.push(index);
        }
        if again[walk].placed.contains(&index) {
            verdicts[walk].placed.push(index);
        }
        if let Some(cut) = again[walk].cut.iter().find(|(cut, _)| *cut == index) {
            verdicts[walk].cut.push(cut.clone());
        }
    }
}

/// Judges `runs` (each with its walk and its index there) by pictures,
/// and `ghosts` (each with its walk, local id and box) by what is drawn
/// where they are, adding what no one sees to `found`.
async fn pictured(
    driver: &dyn Driver,
    walks: &[Walked<'_>],
    view: View,
    (runs, ghosts): (&[Candidate<'_>], &[Ghost]),
    found: &mut [Verdict],
) -> Result<(), Unjudged> {
    // Where the backend pictures any part of the page, only the box
    // around what is judged: a larger picture costs its time.
    let view = view.around(
        runs.iter()
            .flat_map(|(_, _, run)| boxes(run))
            .chain(ghosts.iter().map(|(_, _, rect)| *rect)),
    );
    let groups = groups(runs.iter().map(|(_, _, run)| *run));
    let mut documents: Vec<Vec<u32>> = runs.iter().map(|(_, _, run)| run.p.clone()).collect();
    documents.sort();
    documents.dedup();
    let script = |walk: &Walked<'_>, ids: Vec<u32>| FrameScript {
        frame: walk.path.to_vec(),
        expression: crate::page::paint_call(highlight_name(), &ids),
    };
    let mut steps: Vec<Vec<FrameScript>> = vec![Vec::new()];
    for group in &groups {
        steps.push(
            walks
                .iter()
                .enumerate()
                .map(|(index, walk)| {
                    let ids = group
                        .iter()
                        .filter(|&&run| runs[run].0 == index)
                        .map(|&run| runs[run].1)
                        .collect();
                    script(walk, ids)
                })
                .collect(),
        );
    }
    let restore: Vec<FrameScript> = walks.iter().map(|walk| script(walk, Vec::new())).collect();
    // A page that moves by itself is pictured once more as drawn, and a
    // pixel counts only where the two pictures as drawn agree: what moved
    // between them is no run's doing.
    let moves = walks.iter().any(|walk| walk.epoch.is_none());
    if moves {
        steps.push(restore.clone());
    }
    let mut probe = PaintProbe {
        sheet: paint_sheet().to_owned(),
        frames: documents,
        steps,
        after: restore,
        still: !moves,
        area: view.area(),
        // A page that moves sends frames begun before the scripts after
        // them, and a frame may be drawn between the scripts of two
        // frames' documents: only a marker proves a picture shows them
        // all. So with text over text taken out in turns: a frame begun
        // before a turn's scripts shows the turn before, whose text over
        // this turn's is out, which then seems this turn's doing (a
        // sentence under a row of blocks was read so, under load). (A
        // caret's blink on a still page is a frame that shows no change
        // at all, which `stale` finds.)
        marked: moves || walks.len() > 1 || groups.len() > 1,
    };
    let (changes, bare, inkless) = loop {
        let pictures = driver
            .paint_probe(&probe)
            .await
            .map_err(|error| Unjudged(error.to_string()))?;
        let pictures = pictures
            .iter()
            .map(|png| Picture::decode(png))
            .collect::<Result<Vec<_>, _>>()?;
        let (changes, behind) = changes(&pictures, &groups, runs, view, moves)?;
        // On a page that held still, the frame after taking text out is
        // taken to show it out; one begun before (a caret's blink, a slide
        // that had not begun) shows next to no change, or a group's the
        // last group's state. Then the pictures are taken again, each
        // proved by a marker.
        if !probe.marked && (stale(&changes) || behind) {
            probe.marked = true;
            continue;
        }
        let scale = Scale::of(&pictures[0], view);
        // (The text the steps took out, where words CSS writes are judged.)
        let taken: Vec<[f64; 4]> = if ghosts.iter().any(|(_, id, _)| *id >= GENERATED_CHECKS) {
            runs.iter().flat_map(|(_, _, run)| boxes(run)).collect()
        } else {
            Vec::new()
        };
        let bare: Vec<(usize, u32)> = ghosts
            .iter()
            .filter(|(_, id, rect)| {
                if *id >= GENERATED_CHECKS {
                    !words_drawn_on(&pictures, scale, rect, &taken)
                } else {
                    !drawn_on(&pictures[0], scale, rect)
                }
            })
            .map(|&(walk, id, _)| (walk, id))
            .collect();
        // Gradient letters whose background draws nothing where they stand.
        let inkless: Vec<usize> = groups
            .iter()
            .zip(&pictures[1..])
            .flat_map(|(group, painted)| group.iter().map(move |&run| (run, painted)))
            .filter(|&(run, painted)| {
                let wire = runs[run].2;
                wire.clipped_ink
                    && !boxes(wire)
                        .iter()
                        .any(|rect| clipped_ink_drawn(&pictures[0], painted, scale, rect))
            })
            .map(|(run, _)| run)
            .collect();
        break (changes, bare, inkless);
    };
    for (run, changes, unseen) in changes {
        let (walk, index, wire) = runs[run];
        // Most of it moved between the pictures as drawn (a page fading
        // in, a slide under way): its pixels cannot say; its style does.
        // Letters painted in are seen where their place is: how they read
        // there, their style says.
        // So is a run the pictures' top or bottom edge cuts, of which
        // too little shows to read: the rest is a scroll away.
        if changes.moved * 2 > changes.owned {
            found[walk].undecided.push(index);
        } else if !legible(wire, &changes) {
            if cut_by_fold(wire, view) {
                found[walk].undecided.push(index);
            } else {
                found[walk].hidden.push(index);
            }
        } else if inkless.contains(&run) {
            found[walk].hidden.push(index);
        } else {
            if wire.painted_in {
                found[walk].placed.push(index);
            }
            if !unseen.is_empty() || wire.beyond {
                found[walk].cut.push((index, unseen));
            }
        }
    }
    for (walk, id) in bare {
        found[walk].bare.push(id);
    }
    Ok(())
}

/// A run (by its index in the candidates) as the pictures measured it:
/// what changed of its pixels, and the stretches of its boxes where
/// nothing of it did (`Owners::unseen`).
type Measured = (usize, Changes, Vec<f64>);

/// Whether the pictures without the runs look like a frame begun before
/// they were taken out: nine tenths of the runs' pixels, or more, belong
/// to runs of which nothing changed.
fn stale(changes: &[Measured]) -> bool {
    // (What moved, or the pictures cannot show, says nothing.)
    let owned: u64 = changes
        .iter()
        .map(|(_, c, _)| u64::from(c.owned - c.moved))
        .sum();
    let unchanged: u64 = changes
        .iter()
        .filter(|(_, c, _)| c.pixels == 0)
        .map(|(_, c, _)| u64::from(c.owned - c.moved))
        .sum();
    owned > 0 && unchanged * 10 >= owned * 9
}

/// What taking each run out of the paint changed of its own pixels (by
/// its index in `runs`), and the stretches of its boxes where nothing of
/// it changed (`Owners::unseen`, for a run that changed at all), from the
/// probe's pictures: the page as drawn, then one without each group, then
/// (where the page `moves`) as drawn again. And whether a group's picture
/// looks like the one before it (`Owners::same`) though some of its runs
/// changed: a frame begun before the group's scripts, showing the last
/// group taken out where its runs' boxes overlap this one's.
fn changes(
    pictures: &[Picture],
    groups: &[Vec<usize>],
    runs: &[Candidate<'_>],
    view: View,
    moves: bool,
) -> Result<(Vec<Measured>, bool), Unjudged> {
    let Some((drawn, taken)) = pictures.split_first() else {
        return Err(Unjudged("no picture came".to_owned()));
    };
    if taken.len() < groups.len() {
        return Err(Unjudged("a picture is missing".to_owned()));
    }
    if pictures.iter().any(|picture| {
        (picture.width, picture.height, picture.channels)
            != (drawn.width, drawn.height, drawn.channels)
    }) {
        return Err(Unjudged("the pictures differ in size".to_owned()));
    }
    let again = if moves { taken.last() } else { None };
    let scale = Scale::of(drawn, view);
    let mut found = Vec::with_capacity(runs.len());
    let mut behind = false;
    for (index, (group, without)) in groups.iter().zip(taken).enumerate() {
        let owners = Owners::of(group.iter().map(|&run| (run, runs[run].2)), drawn, scale);
        let first = found.len();
        for &run in group {
            let changes = owners.changes(run, drawn, without, again);
            let unseen = if changes.pixels > 0 {
                owners.unseen(run, (runs[run].2, changes.peak), (drawn, without, again))
            } else {
                Vec::new()
            };
            found.push((run, changes, unseen));
        }
        let changed = found[first..]
            .iter()
            .any(|(_, changes, _)| changes.pixels > 0);
        if index > 0 && changed && owners.same(without, &taken[index - 1]) {
            behind = true;
        }
    }
    Ok((found, behind))
}

/// The candidates in groups to take out of the paint together: no two of
/// a group overlap by more than [`OVERLAP`] (so what changes in a run's
/// boxes is its own doing), at most [`MOST_GROUPS`] groups, by index.
fn groups<'a>(runs: impl Iterator<Item = &'a WireRun>) -> Vec<Vec<usize>> {
    let mut groups: Vec<(Vec<usize>, Vec<[f64; 4]>)> = Vec::new();
    for (index, run) in runs.enumerate() {
        let rects = boxes(run);
        let fits = |(_, taken): &(Vec<usize>, Vec<[f64; 4]>)| {
            !rects
                .iter()
                .any(|rect| taken.iter().any(|other| overlap(rect, other) > OVERLAP))
        };
        let at = match groups.iter().position(fits) {
            Some(at) => at,
            None if groups.len() < MOST_GROUPS => {
                groups.push((Vec::new(), Vec::new()));
                groups.len() - 1
            }
            None => groups.len() - 1,
        };
        groups[at].0.push(index);
        groups[at].1.extend(rects);
    }
    groups.into_iter().map(|(members, _)| members).collect()
}

/// A run's boxes, as `[x, y, width, height]`.
fn boxes(run: &WireRun) -> Vec<[f64; 4]> {
    run.r
        .chunks_exact(4)
        .map(|chunk| [chunk[0], chunk[1], chunk[2], chunk[3]])
        .collect()
}

/// How much of the smaller of two boxes they share.
fn overlap(a: &[f64; 4], b: &[f64; 4]) -> f64 {
    let width = (a[0] + a[2]).min(b[0] + b[2]) - a[0].max(b[0]);
    let height = (a[1] + a[3]).min(b[1] + b[3]) - a[1].max(b[1]);
    if width <= 0.0 || height <= 0.0 {
        return 0.0;
    }
    let smaller = (a[2] * a[3]).min(b[2] * b[3]);
    if smaller <= 0.0 {
        0.0
    } else {
        width * height / smaller
    }
}

mod drawn;
mod pixels;
use drawn::{clipped_ink_drawn, drawn_on, words_drawn_on};
pub(crate) use pixels::View;
use pixels::*;

#[cfg(test)]
mod tests {
    use super::*;

    fn run(rects: &[[f64; 4]]) -> WireRun {
        WireRun {
            i: 1,
            r: rects.iter().flatten().copied().collect(),
            c: 10,
            p: Vec::new(),
            painted_in: false,
            clipped_ink: false,
            beyond: false,
            scroll_cut: false,
        }
    }

    #[test]
    fn text_over_text_is_taken_out_in_a_picture_of_its_own() {
        let sentence = run(&[[0.0, 0.0, 200.0, 20.0]]);
        let cover = run(&[[0.0, 2.0, 200.0, 20.0]]);
        let beside = run(&[[200.0, 0.0, 100.0, 20.0]]);
        let next_line = run(&[[0.0, 18.0, 200.0, 20.0]]);
        let grouped = groups([&sentence, &cover, &beside, &next_line].into_iter());
        assert_eq!(grouped, vec![vec![0, 2, 3], vec![1]]);
    }

    #[test]
    fn small_or_squashed_text_is_not_legible() {
        let strong = Changes {
            pixels: 500,
            peak: 200,
            edges: 800,
            width: 100.0,
            height: 14.0,
            ..Changes::default()
        };
        assert!(legible(&run(&[[0.0, 0.0, 100.0, 16.0]]), &strong));
        assert!(!legible(&run(&[[0.0, 0.0, 100.0, 1.0]]), &strong));
        assert!(!legible(&run(&[[0.0, 0.0, 5.0, 8.0]]), &strong));
        let smear = Changes {
            pixels: 5000,
            peak: 30,
            edges: 5,
            width: 100.0,
            height: 16.0,
            ..Changes::default()
        };
        assert!(!legible(&run(&[[0.0, 0.0, 100.0, 16.0]]), &smear));
        let sliver = Changes {
            width: 2.0,
            ..strong
        };
        assert!(!legible(&run(&[[0.0, 0.0, 100.0, 16.0]]), &sliver));
        assert!(!legible(&run(&[[0.0, 0.0, 100.0, 16.0]]), &smear));
    }

    #[test]
    fn a_run_the_fold_cuts_is_only_partly_pictured() {
        let view = View::new(1280.0, 800.0, [0, 0], false);
        assert!(cut_by_fold(&run(&[[20.0, 795.0, 100.0, 18.0]]), view));
        assert!(cut_by_fold(&run(&[[20.0, -6.0, 100.0, 18.0]]), view));
        assert!(!cut_by_fold(&run(&[[20.0, 700.0, 100.0, 18.0]]), view));
        // Beyond the sides there is nothing to scroll to.
        assert!(!cut_by_fold(&run(&[[-50.0, 700.0, 100.0, 18.0]]), view));
        // Pictures that reach 200 px beyond show it whole.
        let reaching = View::new(1280.0, 800.0, [200, 200], true);
        assert!(!cut_by_fold(&run(&[[20.0, 795.0, 100.0, 18.0]]), reaching));
        assert!(cut_by_fold(&run(&[[20.0, 990.0, 100.0, 18.0]]), reaching));
        // A scrolling box's edge, as the page script found it.
        let scrolled = WireRun {
            scroll_cut: true,
            ..run(&[[20.0, 300.0, 100.0, 18.0]])
        };
        assert!(cut_by_fold(&scrolled, view));
    }

    #[test]
    fn a_run_cut_off_halfway_is_unseen_past_the_cut() {
        // Letters (a dark stroke every third column) along a 80 px box,
        // drawn only left of x = 50 (a clip), and taken out.
        let (width, height) = (100, 20);
        let picture = |letters_to: usize| {
            let strokes = (5..15)
                .flat_map(|row| (10..letters_to).step_by(3).map(move |column| (column, row)));
            Picture::white_but(width, height, strokes)
        };
        let (drawn, without) = (picture(50), picture(0));
        let wire = run(&[[10.0, 4.0, 80.0, 12.0]]);
        let view = View::new(100.0, 20.0, [0, 0], false);
        let owners = Owners::of([(0, &wire)].into_iter(), &drawn, Scale::of(&drawn, view));
        let unseen = owners.unseen(0, (&wire, 255), (&drawn, &without, None));
        assert_eq!(unseen, vec![50.0, 4.0, 40.0, 12.0]);
        // Drawn whole, nothing of it is unseen (the room between strokes is
        // no stretch).
        let whole = owners.unseen(0, (&wire, 255), (&picture(90), &without, None));
        assert!(whole.is_empty(), "{whole:?}");
        // A letter the clip cut to its faint edge (two pixels) is the
        // stretch's; a letter's whole stroke beside it is not.
        let mut edged = picture(50);
        for row in 9..11 {
            edged.samples[(row * width + 51) * 3..][..3].copy_from_slice(&[0, 0, 0]);
        }
        let unseen = owners.unseen(0, (&wire, 255), (&edged, &without, None));
        assert_eq!(unseen, vec![50.0, 4.0, 40.0, 12.0]);
    }

    #[test]
    fn pictures_are_of_what_is_judged_where_the_backend_clips() {
        let rects = [[10.2, 30.0, 100.0, 18.0], [40.0, 820.0, 50.0, 18.0]];
        let clipping = View::new(1280.0, 800.0, [0, 100], true).around(rects.into_iter());
        assert_eq!(clipping.area(), Some([10, 30, 101, 808]));
        // Chrome pictures the viewport whole.
        let viewport = View::new(1280.0, 800.0, [0, 0], false).around(rects.into_iter());
        assert_eq!(viewport.area(), None);
        assert_eq!((viewport.width, viewport.height), (1280.0, 800.0));
        // Nothing is asked beyond the document (a page narrower than the
        // viewport, its scroll bar beside it): it would come back cut.
        let wide = [[5.0, 13.0, 1275.0, 20.0]];
        let narrow = View::new(1280.0, 800.0, [0, 0], true)
            .within(1268.0, 3000.0)
            .around(wide.into_iter());
        assert_eq!(narrow.area(), Some([5, 13, 1263, 20]));
    }
}
