//! The browser sessions of `tabwright mcp --http`, and the one count they
//! share against `--max-sessions`.
//!
//! Every browser session is kept under a handle: long and random, never
//! reused, bound to the bearer token that made it, passed back as the
//! `session` argument, closed by `close` or after `--idle-timeout`. A
//! request without a transport session (the 2026-07-28 revision is
//! stateless) gets one from an `open` that named none ([`Hub::mint`]). A
//! client on a revision with transport sessions (`Mcp-Session-Id`) gets
//! one for its MCP session at `initialize` ([`Hub::legacy`]), used by every
//! call of that MCP session that names none, and named in its first
//! answer: a client that opens a new MCP session for every call (some hosts
//! and gateways do) passes it and keeps its browser. When such an MCP
//! session ends, its browser session stays under its handle (unless no
//! call ever used it), until it sits idle too long or a new session needs
//! its place.
//!
//! A slot is taken where a session is made, under one lock, so no burst of
//! requests makes more sessions than the limit.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::RngCore;
use sha2::{Digest, Sha256};
use std::sync::Weak;
use subtle::ConstantTimeEq;
use tools::Pack;
use tools::Watch;

/// Who made a handle: the digest of the bearer token it came with (all
/// zeros on a server without tokens).
#[derive(Clone, Copy)]
pub struct Owner([u8; 32]);

impl Owner {
    /// The owner a request's token makes.
    pub fn of(token: Option<&str>) -> Self {
        match token {
            Some(token) => Self(Sha256::digest(token.as_bytes()).into()),
            None => Self([0; 32]),
        }
    }

    /// Whether `other` is the same owner (compared in constant time).
    pub fn is(&self, other: &Owner) -> bool {
        self.0.ct_eq(&other.0).into()
    }
}

/// The HTTP server's browser sessions. See the module docs.
pub struct Hub {
    make_pack: Box<dyn Fn(Arc<Watch>) -> Pack + Send + Sync>,
    /// Every session made, for the live view (gone ones pruned).
    watched: Mutex<Vec<Watched>>,
    made: std::sync::atomic::AtomicU64,
    slots: Arc<Slots>,
    /// How long a handle's session may sit unused before it is closed.
    pub idle: Duration,
    /// The tools' MCP definitions (every session's pack offers the same).
    pub definitions: Vec<serde_json::Value>,
    handles: Mutex<HashMap<String, Held>>,
    /// Where the live view is served (`http://ADDR`), for the links a
    /// handoff sends through the host.
    pub live_url: String,
    /// Short-lived keys to one session's live view, by key.
    views: Mutex<HashMap<String, View>>,
}

/// What a live-view key opens: one session's view, for its owner, until
/// it expires or its handoff ends.
#[derive(Clone, Copy)]
pub struct View {
    /// The session's number in the live view.
    pub id: u64,
    /// Who made the session.
    pub owner: Owner,
    until: Instant,
}

/// A session as the live view lists it.
pub struct Watched {
    /// A number for the live view (never the handle: that is a credential).
    pub id: u64,
    /// `MCP session` or `handle`.
    pub kind: &'static str,
    /// When it was made.
    pub made: Instant,
    /// What it shows.
    pub watch: Arc<Watch>,
    /// Who made it: the live view shows it to that token only.
    owner: Owner,
    alive: Weak<Pack>,
}

/// A session under a handle.
struct Held {
    pack: Arc<Pack>,
    owner: Owner,
    used: Instant,
    /// When the MCP session it was made for ended, if one did: from then
    /// on it gives its place to a new session that finds none free.
    detached: Option<Instant>,
    _slot: Slot,
}

/// Why no session could be made.
#[derive(Debug)]
pub struct Full {
    /// The limit that was reached.
    pub max: usize,
}

impl std::fmt::Display for Full {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "tabwright serves at most {} sessions at once and all are open; end one (the close tool, or end the MCP session) or wait for an idle one to close, then try again",
            self.max
        )
    }
}

/// The count of open sessions, legacy and handles alike.
struct Slots {
    max: usize,
    open: Mutex<usize>,
}

/// One taken place among the sessions; given back when dropped.
pub struct Slot(Arc<Slots>);

impl Slots {
    fn take(self: &Arc<Self>) -> Result<Slot, Full> {
        let mut open = self
            .open
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if *open >= self.max {
            return Err(Full { max: self.max });
        }
        *open += 1;
        Ok(Slot(Arc::clone(self)))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = self
            .0
            .open
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        *open = open.saturating_sub(1);
    }
}

/// An MCP session's browser session, under its handle. When the MCP
/// session's server goes, the browser session ends if no call used it,
/// and else stays for a client that comes back with the handle.
pub struct Legacy {
    /// The handle it is kept under.
    pub handle: String,
    /// The token the MCP session was opened with: a request with another
    /// is not served it, whatever `Mcp-Session-Id` it sends.
    pub owner: Owner,
    used: std::sync::atomic::AtomicBool,
    announced: std::sync::atomic::AtomicBool,
    hub: Weak<Hub>,
}

impl Legacy {
    /// Notes a call on it; true the first time (its answer names the
    /// handle).
    pub fn use_once(&self) -> bool {
        use std::sync::atomic::Ordering;
        self.used.store(true, Ordering::Release);
        !self.announced.swap(true, Ordering::AcqRel)
    }

    /// Gives it up at once if no call used it (its MCP session went on to
    /// another browser session, named by handle).
    pub fn give_up_if_unused(&self) {
        if !self.used.load(std::sync::atomic::Ordering::Acquire) {
            if let Some(hub) = self.hub.upgrade() {
                hub.end(&self.handle);
            }
        }
    }
}

impl Drop for Legacy {
    fn drop(&mut self) {
        let Some(hub) = self.hub.upgrade() else {
            return;
        };
        if self.used.load(std::sync::atomic::Ordering::Acquire) {
            hub.detach(&self.handle);
        } else {
            hub.end(&self.handle);
        }
    }
}

impl Hub {
    /// A hub making each session's pack with `make_pack`, whose tools'
    /// MCP definitions are `definitions`.
    pub fn new(
        make_pack: impl Fn(Arc<Watch>) -> Pack + Send + Sync + 'static,
        definitions: Vec<serde_json::Value>,
        max: usize,
        idle: Duration,
        live_url: String,
    ) -> Arc<Self> {
        Arc::new(Self {
            live_url,
            views: Mutex::new(HashMap::new()),
            definitions,
            make_pack: Box::new(make_pack),
            watched: Mutex::new(Vec::new()),
            made: std::sync::atomic::AtomicU64::new(0),
            slots: Arc::new(Slots {
                max,
                open: Mutex::new(0),
            }),
            idle,
            handles: Mutex::new(HashMap::new()),
        })
    }

    /// How many sessions are open.
    pub fn open(&self) -> usize {
        *self
            .slots
            .open
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Whether a new session would find a place: one free, or one whose
    /// client left.
    pub fn has_room(&self) -> bool {
        self.open() < self.max() || self.lock().values().any(|held| held.detached.is_some())
    }

    /// The most sessions served at once.
    pub fn max(&self) -> usize {
        self.slots.max
    }

    /// A browser session for a new MCP session opened by `owner`, under
    /// a handle of its own, if there is room.
    pub fn legacy(self: &Arc<Self>, owner: Owner) -> Result<Legacy, Full> {
        let (handle, _) = self.hold("MCP session", owner)?;
        Ok(Legacy {
            handle,
            owner,
            used: Default::default(),
            announced: Default::default(),
            hub: Arc::downgrade(self),
        })
    }

    /// A place among the sessions: a free one, or the one of the session
    /// whose MCP session ended longest ago (its client gone), ended now.
    fn place(&self) -> Result<Slot, Full> {
        loop {
            match self.slots.take() {
                Ok(slot) => return Ok(slot),
                Err(full) => {
                    let oldest = {
                        let handles = self.lock();
                        handles
                            .iter()
                            .filter_map(|(handle, held)| Some((held.detached?, handle.clone())))
                            .min()
                            .map(|(_, handle)| handle)
                    };
                    match oldest {
                        Some(handle) => {
                            tracing::info!(
                                "a session whose client left gave its place to a new one"
                            );
                            self.end(&handle);
                        }
                        None => return Err(full),
                    }
                }
            }
        }
    }

    /// Notes that the MCP session `handle` was made for has ended.
    fn detach(&self, handle: &str) {
        if let Some(held) = self.lock().get_mut(handle) {
            held.detached = Some(Instant::now());
        }
    }

    /// A new session's pack, listed for the live view.
    fn make(&self, kind: &'static str, owner: Owner) -> Arc<Pack> {
        let watch = Watch::new();
        let pack = Arc::new((self.make_pack)(Arc::clone(&watch)));
        let id = self.made.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        let mut watched = self
            .watched
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        watched.retain(|entry| entry.alive.strong_count() > 0);
        watched.push(Watched {
            id,
            kind,
            made: Instant::now(),
            watch,
            owner,
            alive: Arc::downgrade(&pack),
        });
        pack
    }

    /// The live view's number and watch of the session `pack` is, if it is
    /// one of this hub's.
    pub fn watch_of(&self, pack: &Arc<Pack>) -> Option<(u64, Arc<Watch>)> {
        let watched = self
            .watched
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        watched
            .iter()
            .find(|entry| std::ptr::eq(entry.alive.as_ptr(), Arc::as_ptr(pack)))
            .map(|entry| (entry.id, Arc::clone(&entry.watch)))
    }

    /// A new key to session `id`'s live view alone, for `owner`, good for
    /// `ttl`: what a handoff's link carries instead of the server's token.
    pub fn view_key(&self, id: u64, owner: Owner, ttl: Duration) -> String {
        let key = new_handle().replacen("tw_", "view_", 1);
        let mut views = self
            .views
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let now = Instant::now();
        views.retain(|_, view| view.until > now);
        views.insert(
            key.clone(),
            View {
                id,
                owner,
                until: now + ttl,
            },
        );
        key
    }

    /// What `key` opens, if it is a live one (compared in constant time).
    pub fn view(&self, key: &str) -> Option<View> {
        let views = self
            .views
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let now = Instant::now();
        views
            .iter()
            .find(|(known, view)| {
                view.until > now && bool::from(known.as_bytes().ct_eq(key.as_bytes()))
            })
            .map(|(_, view)| *view)
    }

    /// Ends `key` (its handoff is over).
    pub fn revoke(&self, key: &str) {
        self.views
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .remove(key);
    }

    /// The sessions `owner` made that are open now, for the live view:
    /// (id, kind, age, watch).
    pub fn watched(&self, owner: Owner) -> Vec<(u64, &'static str, Duration, Arc<Watch>)> {
        let mut watched = self
            .watched
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        watched.retain(|entry| entry.alive.strong_count() > 0);
        watched
            .iter()
            .filter(|entry| entry.owner.is(&owner))
            .map(|entry| {
                (
                    entry.id,
                    entry.kind,
                    entry.made.elapsed(),
                    Arc::clone(&entry.watch),
                )
            })
            .collect()
    }

    /// A new browser session under a new handle, owned by `owner`.
    pub fn mint(&self, owner: Owner) -> Result<(String, Arc<Pack>), Full> {
        let (handle, pack) = self.hold("handle", owner)?;
        // `close` retires the handle: a call queued behind it must not
        // start a browser nothing would close.
        pack.end_on_close();
        Ok((handle, pack))
    }

    /// A new browser session of `kind` under a new handle, owned by
    /// `owner`.
    fn hold(&self, kind: &'static str, owner: Owner) -> Result<(String, Arc<Pack>), Full> {
        let slot = self.place()?;
        let pack = self.make(kind, owner);
        let mut handles = self.lock();
        let handle = loop {
            let handle = new_handle();
            if !handles.contains_key(&handle) {
                break handle;
            }
        };
        handles.insert(
            handle.clone(),
            Held {
                pack: Arc::clone(&pack),
                owner,
                used: Instant::now(),
                detached: None,
                _slot: slot,
            },
        );
        Ok((handle, pack))
    }

    /// The session under `handle`, if it is open and `owner` made it.
    pub fn find(&self, handle: &str, owner: Owner) -> Option<Arc<Pack>> {
        let mut handles = self.lock();
        let held = handles.get_mut(handle)?;
        if !held.owner.is(&owner) {
            return None;
        }
        held.used = Instant::now();
        held.detached = None;
        Some(Arc::clone(&held.pack))
    }

    /// Notes that a call on `handle` just ended (its idle time starts now).
    pub fn touch(&self, handle: &str) {
        if let Some(held) = self.lock().get_mut(handle) {
            held.used = Instant::now();
        }
    }

    /// Ends the session under `handle`; its slot is free at once.
    pub fn end(&self, handle: &str) {
        let held = self.lock().remove(handle);
        if let Some(held) = held {
            close_later(held.pack);
        }
    }

    /// Closes the sessions unused for longer than the idle time (never one
    /// with a call under way).
    pub fn reap(&self) {
        let now = Instant::now();
        let idle: Vec<Held> = {
            let mut handles = self.lock();
            let stale: Vec<String> = handles
                .iter()
                .filter(|(_, held)| {
                    now.duration_since(held.used) > self.idle && Arc::strong_count(&held.pack) == 1
                })
                .map(|(handle, _)| handle.clone())
                .collect();
            stale
                .iter()
                .filter_map(|handle| handles.remove(handle))
                .collect()
        };
        for held in idle {
            tracing::info!("a session handle sat idle too long and was closed");
            close_later(held.pack);
        }
    }

    /// Ends every session under a handle (the server is stopping).
    pub async fn close_all(&self) {
        let all: Vec<Held> = self.lock().drain().map(|(_, held)| held).collect();
        for held in all {
            held.pack.end().await;
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Held>> {
        self.handles
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// `tw_` and 128 random bits in lower-case base32 (26 characters).
fn new_handle() -> String {
    const ALPHABET: &[u8; 32] = b"abcdefghijklmnopqrstuvwxyz234567";
    let mut bytes = [0u8; 16];
    rand::rng().fill_bytes(&mut bytes);
    let mut bits = u128::from_be_bytes(bytes);
    let mut handle = String::from("tw_");
    for _ in 0..26 {
        handle.push(char::from(ALPHABET[(bits & 31) as usize]));
        bits >>= 5;
    }
    handle
}

/// Ends a pack's browser session for good without making the caller
/// wait (a call still queued on it answers that it is closed).
fn close_later(pack: Arc<Pack>) {
    if let Ok(runtime) = tokio::runtime::Handle::try_current() {
        runtime.spawn(async move { pack.end().await });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_are_long_random_and_distinct() {
        let a = new_handle();
        let b = new_handle();
        assert_eq!(a.len(), 29);
        assert!(a.starts_with("tw_") && a != b);
    }

    #[test]
    fn an_owner_is_its_token() {
        assert!(Owner::of(Some("a")).is(&Owner::of(Some("a"))));
        assert!(!Owner::of(Some("a")).is(&Owner::of(Some("b"))));
        assert!(!Owner::of(Some("a")).is(&Owner::of(None)));
    }
}
