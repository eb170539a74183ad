//! [`Supervisor`]: what every driver call goes through, whatever the
//! protocol, so that the contract's promises are kept in one place.
//!
//! A call takes the session's lock (calls are serialised), starts the
//! browser if there is none yet (lazy start), runs under one deadline that
//! covers the wait for the lock, the start and the call itself (bounded
//! calls), and sorts out what a failure leaves behind: a browser found dead
//! is cleared away after its call reports it, so the next call starts a
//! fresh one; a call that ran out of time has the session recover (stop the
//! spinning script or the hanging load) or, if it cannot, be replaced.
//! A call cancelled under way ([`Supervisor::cancel`]) ends at once and the
//! session is recovered the same way, so the next call finds the page
//! usable.
//!
//! A backend brings its [`BrowserSession`]: how to tell the browser is
//! gone, what may end a call early (a dialog opening, the tab going away),
//! how to recover, how to shut down. [`SessionDriver`](super::SessionDriver)
//! is what runs a backend's calls through a supervisor.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Weak};
use std::time::Duration;

use tokio::sync::{watch, Mutex};
use tokio::time::{timeout_at, Instant};

use super::BrowserSession;
use crate::{DriverError, Options, Result};

/// A boxed future that can cross threads.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// How a supervisor starts a session from the driver's options.
type Start<S> = Box<dyn Fn(Options) -> BoxFuture<'static, Result<S>> + Send + Sync>;

/// Runs a backend's calls by the contract's rules. See the module docs.
pub struct Supervisor<S> {
    options: Options,
    start: Start<S>,
    state: Arc<Mutex<Option<S>>>,
    /// How many sessions were started: a keeper serves only its own.
    started: Arc<std::sync::atomic::AtomicU64>,
    /// Bumped by [`Supervisor::cancel`]; a call ends when it changes.
    cancels: watch::Sender<u64>,
}

impl<S: BrowserSession> Supervisor<S> {
    /// A supervisor that will start its session with `start` on the first
    /// call.
    pub fn new(
        options: Options,
        start: impl Fn(Options) -> BoxFuture<'static, Result<S>> + Send + Sync + 'static,
    ) -> Self {
        Self {
            options,
            start: Box::new(start),
            state: Arc::new(Mutex::new(None)),
            started: Arc::default(),
            cancels: watch::Sender::new(0),
        }
    }

    /// Ends the calls under way, waiting for the session or acting on it,
    /// with [`DriverError::Cancelled`], and recovers the session as after a
    /// timeout (its script or load stopped). Calls made after this is
    /// called are not affected. Returns once the call under way has ended
    /// and the page is stopped (within the call's own timeout).
    pub async fn cancel(&self) {
        self.cancels.send_modify(|generation| *generation += 1);
        // The lock is fair: this gets it right after the cancelled call,
        // before any call made after. Whether or not a call was acting when
        // the cancel came (its caller may have been between two), the page
        // may be busy with what it started: it is recovered as after a
        // timeout (cheap when nothing runs).
        let Ok(mut state) = tokio::time::timeout(self.options.timeout, self.state.lock()).await
        else {
            return;
        };
        let _ = recover_or_end(&mut state).await;
    }

    /// The options the session is started with.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Runs one call: `action` names it in a timeout's message; `needs_page`
    /// says it acts on the current tab's page (so a dialog or a closing tab
    /// ends it at once).
    pub async fn run<T>(
        &self,
        action: String,
        needs_page: bool,
        op: impl AsyncFnOnce(&mut S) -> Result<T>,
    ) -> Result<T> {
        let limit = self.options.timeout;
        let deadline = Instant::now() + limit;
        let mut cancels = self.cancels.subscribe();
        cancels.mark_unchanged();
        let mut state = tokio::select! {
            biased;
            _ = cancels.changed() => return Err(DriverError::Cancelled { action }),
            locked = timeout_at(deadline, self.state.lock()) => locked.map_err(|_| {
                DriverError::timeout(format!("{action} (waiting for the previous call)"), limit)
            })?,
        };
        if let Some(reason) = state.as_mut().and_then(S::gone) {
            if let Some(dead) = state.take() {
                dead.shutdown().await;
            }
            return Err(DriverError::BrowserGone { reason });
        }
        if state.is_none() {
            let started = timeout_at(deadline, (self.start)(self.options.clone()))
                .await
                .map_err(|_| DriverError::timeout("starting the browser", limit))??;
            let number = self
                .started
                .fetch_add(1, std::sync::atomic::Ordering::AcqRel)
                + 1;
            if let Some(every) = started.keep_alive_every() {
                keep_alive(
                    Arc::downgrade(&self.state),
                    Arc::clone(&self.started),
                    number,
                    every,
                );
            }
            *state = Some(started);
        }
        let Some(session) = state.as_mut() else {
            return Err(DriverError::Protocol("no session after start".to_owned()));
        };
        let interrupted = session.interruption(needs_page);
        let result = tokio::select! {
            biased;
            error = interrupted => Err(error),
            _ = cancels.changed() => Err(DriverError::Cancelled { action }),
            outcome = timeout_at(deadline, op(session)) => match outcome {
                // A remote end's own timeout is this call's timeout.
                Ok(Err(DriverError::Timeout { .. })) | Err(_) => {
                    Err(DriverError::timeout(action, limit))
                }
                Ok(other) => other,
            },
        };
        match &result {
            Err(DriverError::BrowserGone { .. }) => {
                if let Some(dead) = state.take() {
                    dead.shutdown().await;
                }
            }
            // (A cancelled call is recovered from by `cancel`.)
            Err(DriverError::Timeout { action, .. }) => {
                if let Err(gone) = recover_or_end(&mut state).await {
                    // Not "it was stopped": it could not be, and the
                    // session it hung is gone (or was lost before).
                    return Err(DriverError::BrowserGone {
                        reason: gone.unwrap_or_else(|| format!(
                            "{action} hung and could not be stopped, so that browser session was ended"
                        )),
                    });
                }
            }
            _ => {}
        }
        result
    }

    /// Ends the session, if there is one; idempotent.
    pub async fn close(&self) {
        let mut state = self.state.lock().await;
        if let Some(session) = state.take() {
            session.shutdown().await;
        }
    }
}

/// Recovers the session (stops what keeps its page busy); one that stays
/// unusable is shut down, so the next call starts a fresh one. Returns
/// `Ok` if it was usable, else why it is gone if the session knows (a
/// remote end that lost it), as `Err`.
async fn recover_or_end<S: BrowserSession>(state: &mut Option<S>) -> Result<(), Option<String>> {
    let usable = match state.as_mut() {
        Some(session) => session.recover().await,
        None => true,
    };
    if usable {
        return Ok(());
    }
    let mut gone = None;
    if let Some(mut stuck) = state.take() {
        gone = stuck.gone();
        stuck.shutdown().await;
    }
    Err(gone)
}

/// Keeps session number `number` in `state` alive every `every` while it
/// idles, until another session replaces it or the supervisor is dropped.
fn keep_alive<S: BrowserSession>(
    state: Weak<Mutex<Option<S>>>,
    started: Arc<std::sync::atomic::AtomicU64>,
    number: u64,
    every: Duration,
) {
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return;
    };
    runtime.spawn(async move {
        loop {
            tokio::time::sleep(every).await;
            let Some(state) = state.upgrade() else {
                return;
            };
            if started.load(std::sync::atomic::Ordering::Acquire) != number {
                return;
            }
            // A call under way is activity enough.
            let Ok(mut guard) = state.try_lock() else {
                continue;
            };
            match guard.as_mut() {
                Some(session) => session.keep_alive().await,
                None => return,
            }
        }
    });
}
