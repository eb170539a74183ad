//! [`SharedBrowser`]: one Chrome for many sessions, each in a browser
//! context of its own (separate cookies, storage, cache, tabs, numbering,
//! console and dialogs; its requests through its own proxy, so each session
//! can have its own guard and allow-list).
//!
//! A tab in one browser costs a few tens of MiB; a browser per session
//! costs hundreds (`cargo xtask bench --only sessions` measures both). Calls
//! of one session are serialised; calls of different sessions run at once,
//! and one session's hung page, dialog or slow navigation never holds up
//! another's (each waits only on its own tabs). Closing a session ends its
//! context and nothing else; a renderer that crashes takes one tab of one
//! session with it. The browser starts with the first session and is
//! started again for the next if it dies.

use std::sync::Arc;

use tokio::net::TcpListener;
use tokio::sync::Mutex;
use tokio::task::JoinHandle;

use driver_core::{DriverError, Options, Result};

use crate::chrome::Chrome;
use crate::session::CdpSession;
use crate::CdpDriver;

/// A browser for many sessions. Cheap to clone (an `Arc` inside); it starts
/// nothing until a session's first call.
#[derive(Clone)]
pub struct SharedBrowser {
    inner: Arc<Inner>,
}

struct Inner {
    options: Options,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    browser: Option<Arc<Chrome>>,
    dead_end: Option<DeadEnd>,
}

impl SharedBrowser {
    /// A shared browser started with `options` (its `proxy` is not used:
    /// every session brings its own) on the first session's first call, or
    /// connected to `options.endpoint`.
    pub fn new(options: Options) -> Self {
        Self {
            inner: Arc::new(Inner {
                options,
                state: Mutex::new(State::default()),
            }),
        }
    }

    /// A session: a driver whose tabs live in a browser context of their
    /// own in this browser, its requests through `options.proxy` (a guard's
    /// egress proxy, set by the guard). Its per-call timeout, viewport and
    /// live view are its own; the browser's flags and binary are this
    /// shared browser's.
    pub fn session(&self, options: Options) -> CdpDriver {
        let shared = self.clone();
        CdpDriver::with_start(options, move |options| {
            let shared = shared.clone();
            Box::pin(async move {
                let browser = shared.browser().await?;
                CdpSession::start_in(browser, &options).await
            })
        })
    }

    /// The running browser, started (again) if there is none or it died.
    async fn browser(&self) -> Result<Arc<Chrome>> {
        let mut state = self.inner.state.lock().await;
        if let Some(browser) = state
            .browser
            .as_ref()
            .filter(|browser| browser.gone().is_none())
        {
            return Ok(Arc::clone(browser));
        }
        if let Some(dead) = state.browser.take() {
            dead.close().await;
        }
        let mut options = self.inner.options.clone();
        if options.endpoint.is_none() {
            // The browser's own default context, where no session lives,
            // reaches nothing: its proxy is a port that answers no one.
            let dead_end = DeadEnd::start().await?;
            options.proxy = Some(dead_end.url());
            state.dead_end = Some(dead_end);
        } else {
            options.proxy = None;
        }
        let browser = Arc::new(Chrome::start(&options).await?);
        state.browser = Some(Arc::clone(&browser));
        Ok(browser)
    }

    /// The process id of the browser, if it runs and this process started
    /// it (for measuring it, and for tests).
    pub async fn pid(&self) -> Option<u32> {
        let state = self.inner.state.lock().await;
        state.browser.as_ref().and_then(|browser| browser.pid())
    }

    /// Ends the browser (a connected one is only disconnected from). Its
    /// sessions' next calls start it again.
    pub async fn close(&self) {
        let mut state = self.inner.state.lock().await;
        if let Some(browser) = state.browser.take() {
            browser.close().await;
        }
        state.dead_end = None;
    }
}

/// A proxy address that leads nowhere: a loopback port that accepts a
/// connection and closes it at once.
struct DeadEnd {
    port: u16,
    task: JoinHandle<()>,
}

impl DeadEnd {
    async fn start() -> Result<Self> {
        let listener =
            TcpListener::bind(("127.0.0.1", 0))
                .await
                .map_err(|error| DriverError::Launch {
                    reason: format!("cannot open the default context's dead-end proxy: {error}"),
                })?;
        let port = listener
            .local_addr()
            .map_err(|error| DriverError::Launch {
                reason: format!("the dead-end proxy has no address: {error}"),
            })?
            .port();
        let task = tokio::spawn(async move {
            while let Ok((connection, _)) = listener.accept().await {
                drop(connection);
            }
        });
        Ok(Self { port, task })
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

impl Drop for DeadEnd {
    fn drop(&mut self) {
        self.task.abort();
    }
}
