//! [`Watch`]: what a person watching a session sees of it live: the latest
//! picture of its current tab, and its last calls with the answers the
//! model read. A pack given one (`PackOptions::watch`) fills it after each
//! call; on CDP the pictures come from the screencast (pass
//! [`Watch::frame_callback`] as `Options::on_frame`), elsewhere from a
//! small screenshot after each call.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use driver_core::{FrameCallback, ScreencastFrame};

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

    pub(crate) fn set_frame(&self, jpeg: Vec<u8>) {
        let number = self.frames.fetch_add(1, Ordering::Relaxed) + 1;
        *self
            .frame
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = Some((number, Arc::new(jpeg)));
    }

    /// The latest picture and its number, if there is one.
    pub fn latest(&self) -> Option<(u64, Arc<Vec<u8>>)> {
        self.frame
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .clone()
    }

    /// Whether its pictures come from a screencast (CDP) rather than a
    /// screenshot after each call.
    pub fn is_screencast(&self) -> bool {
        self.screencast.load(Ordering::Relaxed)
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
