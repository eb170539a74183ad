//! [`Watch`]: what a person watching a session sees of it live: the latest
//! picture of its current tab, and its last calls with the answers the
//! model read. A pack given one (`PackOptions::watch`) fills it after each
//! call; the pictures come from Chrome's screencast (pass
//! [`Watch::frame_callback`] as `Options::on_frame`), or where the backend
//! has none (Firefox, or a remote WebDriver end without DevTools) from a small
//! screenshot after each action, taken only while a person looks.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use std::time::{Duration, Instant};

use driver_core::{FrameCallback, ScreencastFrame};
use tokio::sync::mpsc;

use crate::trace::Step;

/// How many calls a watch keeps.
const RECENT: usize = 30;

/// A session's live picture and last calls. See the module docs.
#[derive(Default)]
pub struct Watch {
    /// The latest picture (JPEG) and its number; a slow viewer skips to
    /// the newest, nothing queues.
    frame: Mutex<Option<(u64, Arc<Vec<u8>>)>>,
    frames: AtomicU64,
    recent: Mutex<VecDeque<Step>>,
    /// Whether the pictures come from a screencast (else from screenshots).
    pub(crate) screencast: std::sync::atomic::AtomicBool,
    /// A handoff under way: why, until when, and where a person's input
    /// goes.
    handoff: Mutex<Option<Handoff>>,
    /// When a person last looked (the live view read it).
    looked: Mutex<Option<Instant>>,
    /// The session's memory, as last read (after a page loaded).
    memory: Mutex<Option<driver_core::Memory>>,
    /// The address and title of the page the model was last shown, as the
    /// browser gave them.
    page: Mutex<Option<(String, String)>>,
}

/// How long after a person last looked a watch still takes pictures
/// where they cost a screenshot (the live page asks every 0.7 s).
const LOOKING: Duration = Duration::from_secs(10);

/// A handoff under way, as a watch holds it.
struct Handoff {
    reason: String,
    until: Instant,
    inputs: mpsc::UnboundedSender<PersonInput>,
}

/// What a person does in the live view during a handoff. Points are
/// fractions of the picture's width and height (0 to 1), whatever size
/// the page shows it at.
#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum PersonInput {
    /// A click at a point.
    Click {
        /// Across, 0 to 1.
        fx: f64,
        /// Down, 0 to 1.
        fy: f64,
    },
    /// Text typed into what has focus.
    Text {
        /// The text.
        text: String,
    },
    /// A key (`Enter`, `Tab`, `Control+a`…).
    Key {
        /// The key, as `press` takes it.
        key: String,
    },
    /// The wheel over a point.
    Scroll {
        /// Across, 0 to 1.
        fx: f64,
        /// Down, 0 to 1.
        fy: f64,
        /// How far down (negative: up), in CSS pixels.
        dy: f64,
    },
    /// The person is done: the model may go on.
    Done,
    /// The person gives up.
    GiveUp,
}

impl std::fmt::Debug for Watch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watch")
            .field("frames", &self.frames.load(Ordering::Relaxed))
            .finish_non_exhaustive()
    }
}

impl Watch {
    /// An empty watch.
    pub fn new() -> Arc<Self> {
        Arc::new(Self::default())
    }

    /// The callback that feeds it screencast frames (`Options::on_frame`).
    pub fn frame_callback(self: &Arc<Self>) -> FrameCallback {
        let watch = Arc::downgrade(self);
        Arc::new(move |frame: ScreencastFrame| {
            if let Some(watch) = watch.upgrade() {
                watch
                    .screencast
                    .store(true, std::sync::atomic::Ordering::Relaxed);
                watch.set_frame(frame.jpeg);
            }
        })
    }

    /// The question the driver asks before it keeps a screencast running
    /// (`Options::frames_wanted`): whether a person looked lately, or has
    /// the session in a handoff.
    pub fn frames_wanted(self: &Arc<Self>) -> driver_core::FramesWanted {
        let watch = Arc::downgrade(self);
        Arc::new(move || {
            watch
                .upgrade()
                .is_some_and(|watch| watch.is_looked_at() || watch.handoff().is_some())
        })
    }

    pub(crate) fn set_frame(&self, jpeg: Vec<u8>) {
        let number = self.frames.fetch_add(1, Ordering::Relaxed) + 1;
        *self
            .frame
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = Some((number, Arc::new(jpeg)));
    }

    /// Notes that a person is looking (the live view read this watch).
    pub fn looked_at(&self) {
        *self
            .looked
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(Instant::now());
    }

    /// Whether a person looked lately: only then is a screenshot after an
    /// action worth its cost (a screencast costs nothing while the page
    /// stands still).
    pub(crate) fn is_looked_at(&self) -> bool {
        self.looked
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .is_some_and(|looked| looked.elapsed() < LOOKING)
    }

    /// The latest picture and its number, if there is one.
    pub fn latest(&self) -> Option<(u64, Arc<Vec<u8>>)> {
        self.frame
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }

    /// Whether its pictures come from a screencast rather than a
    /// screenshot after each call.
    pub fn is_screencast(&self) -> bool {
        self.screencast.load(Ordering::Relaxed)
    }

    /// The handoff under way, if any: the reason and the time left.
    pub fn handoff(&self) -> Option<(String, Duration)> {
        self.lock_handoff().as_ref().map(|handoff| {
            (
                handoff.reason.clone(),
                handoff.until.saturating_duration_since(Instant::now()),
            )
        })
    }

    /// Passes a person's input to the handoff under way; `false` if there
    /// is none.
    pub fn person(&self, input: PersonInput) -> bool {
        self.lock_handoff()
            .as_ref()
            .is_some_and(|handoff| handoff.inputs.send(input).is_ok())
    }

    /// Starts a handoff: the person's inputs come out of the receiver.
    pub(crate) fn begin(
        &self,
        reason: String,
        until: Instant,
    ) -> mpsc::UnboundedReceiver<PersonInput> {
        let (inputs, received) = mpsc::unbounded_channel();
        *self.lock_handoff() = Some(Handoff {
            reason,
            until,
            inputs,
        });
        received
    }

    pub(crate) fn end(&self) {
        *self.lock_handoff() = None;
    }

    fn lock_handoff(&self) -> std::sync::MutexGuard<'_, Option<Handoff>> {
        self.handoff
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub(crate) fn set_memory(&self, memory: driver_core::Memory) {
        *self
            .memory
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(memory);
    }

    /// The session's memory as last read (after a page loaded), if it
    /// can be measured.
    pub fn memory(&self) -> Option<driver_core::Memory> {
        *self
            .memory
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The address and title of the page the model was last shown (from
    /// the browser, never from an answer's text), once there is one.
    pub fn page(&self) -> Option<(String, String)> {
        self.page
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }

    pub(crate) fn set_page(&self, url: String, title: String) {
        *self
            .page
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = Some((url, title));
    }

    pub(crate) fn push(&self, step: Step) {
        let mut recent = self
            .recent
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if recent.len() == RECENT {
            recent.pop_front();
        }
        recent.push_back(step);
    }

    /// The last calls, oldest first.
    pub fn recent(&self) -> Vec<Step> {
        self.recent
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .iter()
            .cloned()
            .collect()
    }
}
