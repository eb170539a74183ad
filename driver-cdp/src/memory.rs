//! A session's memory on a browser this process started: which renderers
//! are its tabs', what they and its share of the browser hold, and moving
//! a tab whose renderer has grown past its part of the budget to a fresh
//! renderer at the tab's next navigation.
//!
//! Chrome does not say which process renders a tab; a trace started from
//! the tab's own DevTools session does (its first event lists the tab's
//! frames, each with its process). Tracing is the whole browser's, so one
//! trace runs at a time, and a tab's renderers are kept until its site
//! changes or one of them ends, so that ordinary calls trace nothing.
//!
//! A renderer keeps most of what it once held for as long as it lives,
//! whatever it shows next: a tab that showed a 100,000-element page keeps
//! a gigabyte. At the tab's next navigation such a renderer is crashed on
//! purpose and the navigation loads in a fresh one: the tab, its number,
//! its history (kept by the browser) and its storage stay; what goes is
//! the page being left, as a navigation drops it anyway (back then loads
//! from the network instead of the back-forward cache).

use driver_core::backend::devtools::names;
use std::collections::HashSet;
use std::time::Duration;

use chromiumoxide::cdp::browser_protocol::page::CrashParams;
use serde::Deserialize;
use serde_json::json;

use driver_core::backend::procfs;
use driver_core::{renew_threshold_kib, Memory, Result, TabId};

use crate::chrome::Chrome;
use crate::client::Client;
use crate::page::Page;
use crate::renderers::Mapped;
use crate::session::CdpSession;

impl Chrome {
    /// A tab's frames and the processes rendering them, from a trace
    /// started from its DevTools session `flat` (one at a time).
    pub async fn trace_frames(&self, flat: &str) -> Result<Vec<TracedFrame>> {
        let _one = self.tracing.lock().await;
        trace_frames(&self.client, flat).await
    }
}

/// How long a trace that tells a tab's renderers may take.
const TRACE_LIMIT: Duration = Duration::from_secs(3);

/// How long a renderer crashed on purpose may take to go.
const CRASH_LIMIT: Duration = Duration::from_secs(3);

/// A browser process as `/proc` shows it.
struct Process {
    pid: u32,
    renderer: bool,
}

impl CdpSession {
    /// The session's memory now, if the browser is one this process
    /// started (its processes can be read).
    pub(crate) async fn measure_memory(&mut self) -> Result<Option<Memory>> {
        let Some(processes) = self.processes() else {
            return Ok(None);
        };
        let ours: HashSet<u32> = if self.owns_browser {
            processes
                .iter()
                .filter(|process| process.renderer)
                .map(|process| process.pid)
                .collect()
        } else {
            let mut ours = HashSet::new();
            for tab in self.our_tabs() {
                ours.extend(self.renderers_of(&tab).await?.all);
            }
            ours
        };
        let mut memory = Memory {
            budget_kib: self.budget_kib,
            renewed: self.renderers.renewed,
            ..Memory::default()
        };
        let mut shared = 0;
        // Other sessions' renderers are not read at all.
        for process in &processes {
            if !process.renderer {
                shared += procfs::pss_kib(process.pid).unwrap_or(0);
            } else if ours.contains(&process.pid) {
                memory.renderers_kib += procfs::pss_kib(process.pid).unwrap_or(0);
            }
        }
        memory.browser_share_kib = shared / self.browser.sessions().max(1) as u64;
        Ok(Some(memory))
    }

    /// Before a navigation of `tab`: if its renderer holds more than its
    /// part of the budget and renders no other tab, crashes it so that the
    /// navigation loads in a fresh one. Whatever goes wrong leaves the tab
    /// as it was.
    async fn renew_if_grown(&mut self, tab: &TabId, flat: &str) {
        let Some(budget) = self.budget_kib else {
            return;
        };
        let threshold = renew_threshold_kib(budget);
        let Some(processes) = self.processes() else {
            return;
        };
        // The cheap look first: no renderer at all is that large.
        let large: HashSet<u32> = processes
            .iter()
            .filter(|process| process.renderer)
            .filter(|process| procfs::rss_kib(process.pid).is_some_and(|rss| rss > threshold))
            .map(|process| process.pid)
            .collect();
        if large.is_empty() {
            return;
        }
        // In a browser many sessions share, large renderers are common and
        // a trace costs every session: only what is already known of this
        // tab is used (the session's memory readings learn it).
        let mine = if self.owns_browser {
            match self.renderers_of(tab).await {
                Ok(mine) => mine,
                Err(_) => return,
            }
        } else {
            match self.known_renderers(tab) {
                Some(mine) => mine,
                None => return,
            }
        };
        // Crashing the page ends the renderer of its main frame.
        let Some(&grown) = mine.main.iter().find(|pid| {
            large.contains(pid) && procfs::pss_kib(**pid).is_some_and(|pss| pss > threshold)
        }) else {
            return;
        };
        for other in self.our_tabs() {
            if &other == tab {
                continue;
            }
            let theirs = if self.owns_browser {
                self.renderers_of(&other).await.ok()
            } else {
                self.known_renderers(&other)
            };
            if theirs.is_none_or(|theirs| theirs.all.contains(&grown)) {
                return;
            }
        }
        tracing::info!(tab = %tab, pid = grown, "moving a grown tab to a fresh renderer");
        self.registry.update(|registry| {
            registry.renewing.insert(tab.clone());
        });
        let mut events = self.client.events();
        let client = self.client.clone();
        let crash_in = flat.to_owned();
        // The renderer never answers the command that ends it.
        tokio::spawn(async move {
            let _ = tokio::time::timeout(
                CRASH_LIMIT,
                client.order(Some(&crash_in), CrashParams::default()),
            )
            .await;
        });
        let crashed = async {
            while let Some(event) = events.recv().await {
                if event.method == names::INSPECTOR_TARGET_CRASHED
                    && event.session.as_deref() == Some(flat)
                {
                    return;
                }
            }
        };
        if tokio::time::timeout(CRASH_LIMIT, crashed).await.is_ok() {
            self.renderers.renewed += 1;
        }
        self.renderers.mapped.remove(tab);
    }

    /// A navigation of the tab whose DevTools session is `flat`, in a
    /// fresh renderer if its own has grown past its part of the budget.
    pub(crate) async fn renewed_around<T>(
        &mut self,
        flat: &str,
        navigation: impl AsyncFnOnce(Page<'_>) -> Result<T>,
    ) -> Result<T> {
        let Some(tab) = self.current.clone() else {
            return navigation(self.page(flat)).await;
        };
        self.renew_if_grown(&tab, flat).await;
        let navigated = navigation(self.page(flat)).await;
        // From here a crash of the tab counts as one again.
        self.registry.update(|registry| {
            registry.renewing.remove(&tab);
        });
        navigated
    }

    /// The browser's processes, if this process started it.
    fn processes(&self) -> Option<Vec<Process>> {
        let root = self.browser.pid()?;
        let processes: Vec<Process> = procfs::tree(root)
            .into_iter()
            .filter_map(|pid| {
                Some(Process {
                    pid,
                    renderer: procfs::kind(pid)? == "renderer",
                })
            })
            .collect();
        (!processes.is_empty()).then_some(processes)
    }

    /// The renderers of a tab's frames: known while the tab stays on one
    /// site and they live, traced otherwise.
    async fn renderers_of(&mut self, tab: &TabId) -> Result<Mapped> {
        if let Some(known) = self.known_renderers(tab) {
            return Ok(known);
        }
        let site = self.site_of_tab(tab);
        let Some(flat) = self.session_of(tab) else {
            return Ok(Mapped::default());
        };
        let frames = self.browser.trace_frames(&flat).await?;
        let pids = |main: bool| {
            let mut pids: Vec<u32> = frames
                .iter()
                .filter(|frame| !main || frame.frame == tab.0)
                .map(|frame| frame.process_id)
                .collect();
            pids.sort_unstable();
            pids.dedup();
            pids
        };
        let mapped = Mapped {
            site,
            all: pids(false),
            main: pids(true),
        };
        self.renderers.mapped.insert(tab.clone(), mapped.clone());
        Ok(mapped)
    }
}

impl CdpSession {
    /// What is known of a tab's renderers, if it still holds: the tab is on
    /// the site it was traced on, and they all live.
    fn known_renderers(&self, tab: &TabId) -> Option<Mapped> {
        let known = self.renderers.mapped.get(tab)?;
        let alive = known
            .all
            .iter()
            .all(|pid| std::path::Path::new(&format!("/proc/{pid}")).exists());
        (known.site == self.site_of_tab(tab) && alive).then(|| known.clone())
    }

    fn site_of_tab(&self, tab: &TabId) -> String {
        self.registry
            .read(|registry| registry.tab(tab).map(|record| site_of(&record.url)))
            .unwrap_or_default()
    }
}

/// A frame as the trace lists it.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct TracedFrame {
    pub frame: String,
    pub process_id: u32,
}

/// What decides which renderer a page lands in, near enough: its scheme
/// and host.
fn site_of(url: &str) -> String {
    url::Url::parse(url)
        .map(|url| format!("{}://{}", url.scheme(), url.host_str().unwrap_or("")))
        .unwrap_or_default()
}

/// The trace that tells a tab's frames and their processes: started and
/// ended at once from the tab's DevTools session.
pub(crate) async fn trace_frames(client: &Client, flat: &str) -> Result<Vec<TracedFrame>> {
    #[derive(Deserialize)]
    struct Started {
        frames: Vec<TracedFrame>,
    }
    let mut events = client.events();
    client
        .call_raw(
            Some(flat),
            names::TRACING_START,
            json!({
                "traceConfig": {
                    "includedCategories": ["disabled-by-default-devtools.timeline"],
                    "excludedCategories": ["*"],
                },
                "transferMode": "ReportEvents",
            }),
        )
        .await?;
    client
        .call_raw(Some(flat), names::TRACING_END, json!({}))
        .await?;
    let mut frames = Vec::new();
    let collect = async {
        while let Some(event) = events.recv().await {
            if event.session.as_deref() != Some(flat) {
                continue;
            }
            match event.method.as_str() {
                names::TRACING_DATA_COLLECTED => {
                    let Some(values) = event.params["value"].as_array() else {
                        continue;
                    };
                    for value in values {
                        if value["name"] == "TracingStartedInBrowser" {
                            if let Ok(started) =
                                serde_json::from_value::<Started>(value["args"]["data"].clone())
                            {
                                frames.extend(started.frames);
                            }
                        }
                    }
                }
                names::TRACING_TRACING_COMPLETE => return,
                _ => {}
            }
        }
    };
    let _ = tokio::time::timeout(TRACE_LIMIT, collect).await;
    Ok(frames)
}
