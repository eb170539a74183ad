//! A browser's own DevTools socket, reached through the `DevToolsActivePort`
//! file in its profile: what a test uses to do to a browser what no driver
//! call does (crash a tab's renderer, list every target).

use std::path::Path;

use driver_core::backend::devtools::DevToolsSocket;
use serde_json::{json, Value};

/// A connection to a browser's DevTools.
pub struct DevTools {
    socket: DevToolsSocket,
}

/// Its commands are the socket's (`call`, `send`).
impl std::ops::Deref for DevTools {
    type Target = DevToolsSocket;

    fn deref(&self) -> &DevToolsSocket {
        &self.socket
    }
}

impl std::ops::DerefMut for DevTools {
    fn deref_mut(&mut self) -> &mut DevToolsSocket {
        &mut self.socket
    }
}

impl DevTools {
    /// Connects to the browser whose process is `pid` (its profile is in
    /// its command line).
    pub async fn of_process(pid: u32) -> Result<Self, String> {
        let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).map_err(|e| e.to_string())?;
        let profile = cmdline
            .split(|byte| *byte == 0)
            .filter_map(|arg| std::str::from_utf8(arg).ok())
            .find_map(|arg| arg.strip_prefix("--user-data-dir="))
            .ok_or("no --user-data-dir")?
            .to_owned();
        Self::of_profile(Path::new(&profile)).await
    }

    /// Connects to the browser running on `profile`.
    pub async fn of_profile(profile: &Path) -> Result<Self, String> {
        Ok(Self {
            socket: DevToolsSocket::of_profile(profile).await?,
        })
    }

    /// Every page target, with its URL and browser context.
    pub async fn pages(&mut self) -> Result<Vec<Value>, String> {
        let targets = self
            .call(None, "Target.getTargets", json!({}))
            .await
            .map_err(|error| error.to_string())?;
        Ok(targets["targetInfos"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .into_iter()
            .filter(|target| target["type"] == "page")
            .collect())
    }

    /// Crashes the renderer of the page whose URL ends with `url_end`.
    pub async fn crash_page(&mut self, url_end: &str) -> Result<(), String> {
        let page = self
            .pages()
            .await?
            .into_iter()
            .find(|page| {
                page["url"]
                    .as_str()
                    .is_some_and(|url| url.ends_with(url_end))
            })
            .ok_or_else(|| format!("no page at …{url_end}"))?;
        let attached = self
            .call(
                None,
                "Target.attachToTarget",
                json!({ "targetId": page["targetId"], "flatten": true }),
            )
            .await
            .map_err(|error| error.to_string())?;
        let session = attached["sessionId"]
            .as_str()
            .ok_or("no session")?
            .to_owned();
        // The renderer dies before it can answer.
        let _ = tokio::time::timeout(
            std::time::Duration::from_secs(2),
            self.call(Some(&session), "Page.crash", json!({})),
        )
        .await;
        Ok(())
    }
}
