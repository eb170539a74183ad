//! [`PackOptions`]: how a pack behaves.

use std::time::Duration;

use driver_core::ScreenshotFormat;

/// How a [`Pack`](crate::Pack) behaves. `PackOptions::default()` is the text
/// mode most models want.
#[derive(Debug, Clone)]
pub struct PackOptions {
    /// Vision mode: pointing tools answered with screenshots instead of
    /// snapshots. Default `false`.
    pub vision: bool,
    /// The most tokens (characters / 4) of snapshot text one answer carries;
    /// the rest is read in parts. Default 6,000: a screenful of a busy page
    /// fits with room to spare.
    pub budget_tokens: usize,
    /// The longest an action waits for the page to settle. Default 3 s; a
    /// page still busy then is read as it is, and the answer says so.
    pub settle_cap: Duration,
    /// How long the DOM must be still to count as settled. Default 40 ms:
    /// two to three frames.
    pub quiet: Duration,
    /// The encoding of vision-mode screenshots. Default JPEG at quality 60:
    /// about a tenth of a PNG's size, still legible.
    pub vision_format: ScreenshotFormat,
    /// What an action on the same page answers with: what changed since
    /// the model last read it (default), or the whole page every time.
    pub answers: Answers,
}

/// What an action that stays on the same page answers with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Answers {
    /// What changed since the model last read the page, unless the whole
    /// page is about as short; a navigation, a tab switch, a scroll or an
    /// explicit `snapshot` still gives the whole page.
    #[default]
    Changes,
    /// The whole page after every action.
    Full,
}

impl Default for PackOptions {
    fn default() -> Self {
        Self {
            vision: false,
            budget_tokens: 6_000,
            settle_cap: Duration::from_secs(3),
            quiet: Duration::from_millis(40),
            vision_format: ScreenshotFormat::Jpeg(60),
            answers: Answers::Changes,
        }
    }
}
