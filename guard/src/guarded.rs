//! [`GuardedDriver`]: any backend, launched behind the egress proxy.
//!
//! It starts the proxy on the first call (construction stays free), gives the
//! backend `Options::proxy` so Chrome is forced through it, and checks every
//! URL a caller asks to open with the URL gate first, so a refused address is
//! a clear [`DriverError::Refused`] before the browser is even asked.

use std::fmt;

use std::sync::Arc;

use async_trait::async_trait;

use driver_core::{
    Capabilities, ConsoleEntry, Dialog, Download, Driver, DriverError, KeyPress, Navigation,
    Options, Request, Result, ScreenshotOptions, Tab, TabId, Viewport, WaitFor,
};

use crate::{EgressProxy, Guard, Reason, Refusal};

/// Makes the backend's driver from the options (with the proxy filled in).
pub type MakeDriver = Box<dyn Fn(Options) -> Box<dyn Driver> + Send + Sync>;

/// A driver whose browser can reach only what the guard allows.
pub struct GuardedDriver {
    guard: Guard,
    options: Options,
    make: MakeDriver,
    /// The proxy and the browser behind it, while they run.
    started: parking_lot::Mutex<Option<Arc<Started>>>,
    /// Held while they start, so one call starts them.
    starting: tokio::sync::Mutex<()>,
}

/// A running proxy and the driver whose browser goes through it.
struct Started {
    proxy: EgressProxy,
    driver: Box<dyn Driver>,
}

impl fmt::Debug for GuardedDriver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GuardedDriver")
            .field("guard", &self.guard)
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl GuardedDriver {
    /// A guarded driver; `make` builds the backend (e.g. `CdpDriver::new`).
    pub fn new(guard: Guard, options: Options, make: MakeDriver) -> Self {
        Self {
            guard,
            options,
            make,
            started: parking_lot::Mutex::new(None),
            starting: tokio::sync::Mutex::new(()),
        }
    }

    /// The guard, with its record of refusals.
    pub fn guard(&self) -> &Guard {
        &self.guard
    }

    /// The options the browser is started with (before the proxy is added).
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Where this driver's egress proxy listens, once the browser started.
    pub fn proxy_address(&self) -> Option<std::net::SocketAddr> {
        self.started
            .lock()
            .as_ref()
            .map(|started| started.proxy.address())
    }

    /// Every request refused so far.
    pub fn refusals(&self) -> Vec<Refusal> {
        self.guard.refusals().all()
    }

    /// The proxy and the browser, started on the first call (and again
    /// after a close).
    async fn inner(&self) -> Result<Arc<Started>> {
        if let Some(started) = self.started.lock().clone() {
            return Ok(started);
        }
        let _starting = self.starting.lock().await;
        if let Some(started) = self.started.lock().clone() {
            return Ok(started);
        }
        if let Some(flag) = self
            .options
            .extra_args
            .iter()
            .find(|flag| around_the_guard(flag))
        {
            return Err(DriverError::Launch {
                reason: format!(
                    "the Chrome flag {flag} would take the browser's requests around the guard; leave it out (a guarded browser's proxy is the guard), or use tabwright::unguarded"
                ),
            });
        }
        let proxy = EgressProxy::start(self.guard.clone())
            .await
            .map_err(|error| DriverError::Launch {
                reason: format!("cannot start the guard's egress proxy: {error}"),
            })?;
        let mut options = self.options.clone();
        options.proxy = Some(proxy.url());
        // A task's origins hold the pages too: a tab's top-level document
        // from elsewhere, and a form posted to a page the task only reads
        // (which the proxy cannot tell from a link: it sees a tunnel's
        // host), are refused before the request leaves.
        if self.guard.policy().task.is_set() {
            let guard = self.guard.clone();
            options.pages_go = Some(Arc::new(move |url: &str, asked| {
                guard.page_may_go(url, asked)
            }));
        }
        let driver = (self.make)(options);
        if self.options.endpoint.is_some() {
            // A browser tabwright did not start: make sure its requests
            // come through the proxy before any page does.
            if let Err(error) = probe(driver.as_ref(), &proxy).await {
                let _ = driver.close().await;
                return Err(error);
            }
        }
        let started = Arc::new(Started { proxy, driver });
        *self.started.lock() = Some(Arc::clone(&started));
        Ok(started)
    }

    /// The URL gate: refuses before the browser is asked.
    async fn gate(&self, url: &str) -> Result<()> {
        self.guard
            .check_url(url)
            .await
            .map(|_| ())
            .map_err(|reason| refused(url.to_owned(), &reason))
    }

    /// A navigation the proxy refused on the way (a redirect to a local
    /// address, say) shows up in the browser as a failed load or the proxy's
    /// 403 page; say what it really was.
    fn explain(&self, before: u64, result: Result<Navigation>) -> Result<Navigation> {
        let refusals = self.guard.refusals().since(before);
        let main_document = |navigation_url: &str| {
            refusals
                .iter()
                .find(|refusal| refusal.target == navigation_url)
                .cloned()
        };
        match result {
            // A document refused before its request left (`pages_go`):
            // where the backend reports the browser's error page as loaded.
            Ok(navigation) if driver_core::is_error_page(navigation.url.untrusted()) => {
                match refusals.iter().find(|refusal| refusal.reason.is_task()) {
                    Some(refusal) => Err(refused(refusal.target.clone(), &refusal.reason)),
                    None => Ok(navigation),
                }
            }
            Ok(navigation) if navigation.status == Some(403) => {
                match main_document(navigation.url.untrusted()) {
                    Some(refusal) => Err(refused(refusal.target, &refusal.reason)),
                    None => Ok(navigation),
                }
            }
            // A server's own error answer is not a refusal, and the
            // browser's background requests (refused too) are not the
            // page's: the refusal of this address or its host comes first,
            // then any (a redirect's target is another address).
            Err(DriverError::NavigationFailed {
                url: failed,
                net_error,
            }) if !net_error.contains("ERR_HTTP_RESPONSE_CODE_FAILURE") => {
                let host = url::Url::parse(failed.untrusted())
                    .ok()
                    .and_then(|url| url.host_str().map(str::to_owned));
                let same_host = |target: &str| match (&host, target_host(target)) {
                    (Some(host), Some(target)) => *host == target,
                    _ => false,
                };
                let refusal = refusals
                    .iter()
                    .find(|refusal| failed == refusal.target)
                    .or_else(|| refusals.iter().find(|refusal| same_host(&refusal.target)))
                    .or_else(|| refusals.iter().find(|refusal| !background(&refusal.target)));
                match refusal {
                    Some(refusal) => Err(refused(refusal.target.clone(), &refusal.reason)),
                    None => Err(DriverError::NavigationFailed {
                        url: failed,
                        net_error,
                    }),
                }
            }
            other => other,
        }
    }
}

/// The host of a refused target: a URL, or the `host:port` of a tunnel.
fn target_host(target: &str) -> Option<String> {
    match url::Url::parse(target) {
        Ok(url) if url.has_host() => url.host_str().map(str::to_owned),
        _ => target
            .rsplit_once(':')
            .map(|(host, _)| host.trim_matches(['[', ']']).to_owned()),
    }
}

/// Whether a refused target is one of the browser's own background
/// services (sign-in, updates, safe browsing), which no page asked for.
fn background(target: &str) -> bool {
    target_host(target).is_some_and(|host| {
        ["google.com", "googleapis.com", "gstatic.com", "gvt1.com"]
            .iter()
            .any(|suffix| host == *suffix || host.ends_with(&format!(".{suffix}")))
    })
}

/// What a refusal is to the caller: a name that does not resolve is no site
/// at all (nothing was protected); anything else the guard refused.
fn refused(url: String, reason: &Reason) -> DriverError {
    let url = url.into();
    match reason {
        Reason::Unresolvable { host, .. } => DriverError::UnknownHost {
            url,
            host: host.as_str().into(),
        },
        Reason::OutsideTask { target } => DriverError::OutsideTask {
            url,
            origin: target.as_str().into(),
        },
        Reason::NotActedOn { target } => DriverError::NotActedOn {
            url,
            page: target.as_str().into(),
        },
        Reason::Resolved { .. }
        | Reason::Address(_)
        | Reason::OwnAddress { .. }
        | Reason::LocalName { .. }
        | Reason::BlockedDomain { .. }
        | Reason::Scheme { .. }
        | Reason::Malformed { .. } => DriverError::Refused {
            url,
            reason: reason.to_string(),
        },
    }
}

#[async_trait]
impl Driver for GuardedDriver {
    fn capabilities(&self) -> Capabilities {
        match self.started.lock().clone() {
            Some(started) => started.driver.capabilities(),
            None => (self.make)(self.options.clone()).capabilities(),
        }
    }

    async fn navigate(&self, url: &str) -> Result<Navigation> {
        self.gate(url).await?;
        let before = self.guard.refusals().next_seq();
        let result = self.inner().await?.driver.navigate(url).await;
        self.explain(before, result)
    }

    async fn eval(&self, expression: &str) -> Result<serde_json::Value> {
        self.inner().await?.driver.eval(expression).await
    }

    async fn eval_in_frame(&self, frame: &[u32], expression: &str) -> Result<serde_json::Value> {
        self.inner()
            .await?
            .driver
            .eval_in_frame(frame, expression)
            .await
    }

    async fn eval_isolated(&self, frame: &[u32], expression: &str) -> Result<serde_json::Value> {
        self.inner()
            .await?
            .driver
            .eval_isolated(frame, expression)
            .await
    }

    fn preload(&self, source: &str) {
        // The same list as the driver's it makes (or made) from them.
        self.options.preloads.add(source);
    }

    async fn requests_in_flight(&self) -> Result<Option<usize>> {
        self.inner().await?.driver.requests_in_flight().await
    }

    async fn type_text(&self, text: &str) -> Result<()> {
        self.inner().await?.driver.type_text(text).await
    }

    async fn current_tab(&self) -> Result<TabId> {
        self.inner().await?.driver.current_tab().await
    }

    async fn click(&self, selector: &str) -> Result<()> {
        self.inner().await?.driver.click(selector).await
    }

    async fn click_at(&self, x: f64, y: f64) -> Result<()> {
        self.inner().await?.driver.click_at(x, y).await
    }

    async fn click_with(&self, x: f64, y: f64, click: driver_core::Click) -> Result<()> {
        self.inner().await?.driver.click_with(x, y, click).await
    }

    async fn move_mouse(&self, x: f64, y: f64) -> Result<()> {
        self.inner().await?.driver.move_mouse(x, y).await
    }

    async fn wheel(&self, x: f64, y: f64, dx: f64, dy: f64) -> Result<()> {
        self.inner().await?.driver.wheel(x, y, dx, dy).await
    }

    async fn dialog(&self) -> Result<Option<Dialog>> {
        self.inner().await?.driver.dialog().await
    }

    async fn catch_file_choosers(&self, on: bool) -> Result<()> {
        self.inner().await?.driver.catch_file_choosers(on).await
    }

    async fn take_file_chooser(&self) -> Result<Option<driver_core::FileChooser>> {
        self.inner().await?.driver.take_file_chooser().await
    }

    async fn answer_dialog(&self, accept: bool, prompt_text: Option<&str>) -> Result<()> {
        self.inner()
            .await?
            .driver
            .answer_dialog(accept, prompt_text)
            .await
    }

    async fn send_keys(&self, selector: &str, text: &str) -> Result<()> {
        self.inner().await?.driver.send_keys(selector, text).await
    }

    async fn press(&self, key: KeyPress) -> Result<()> {
        self.inner().await?.driver.press(key).await
    }

    async fn screenshot(&self, options: ScreenshotOptions) -> Result<Vec<u8>> {
        self.inner().await?.driver.screenshot(options).await
    }

    async fn text(&self, selector: &str) -> Result<String> {
        self.inner().await?.driver.text(selector).await
    }

    async fn value(&self, selector: &str) -> Result<String> {
        self.inner().await?.driver.value(selector).await
    }

    async fn wait_for(&self, selector: &str, condition: WaitFor) -> Result<()> {
        self.inner()
            .await?
            .driver
            .wait_for(selector, condition)
            .await
    }

    async fn back(&self) -> Result<Navigation> {
        self.inner().await?.driver.back().await
    }

    async fn forward(&self) -> Result<Navigation> {
        self.inner().await?.driver.forward().await
    }

    async fn reload(&self) -> Result<Navigation> {
        self.inner().await?.driver.reload().await
    }

    async fn tabs(&self) -> Result<Vec<Tab>> {
        self.inner().await?.driver.tabs().await
    }

    async fn tab_ids(&self) -> Result<Vec<TabId>> {
        self.inner().await?.driver.tab_ids().await
    }

    async fn open_tab(&self, url: Option<&str>) -> Result<Tab> {
        if let Some(url) = url {
            self.gate(url).await?;
        }
        self.inner().await?.driver.open_tab(url).await
    }

    async fn switch_tab(&self, id: &TabId) -> Result<()> {
        self.inner().await?.driver.switch_tab(id).await
    }

    async fn close_tab(&self, id: &TabId) -> Result<()> {
        self.inner().await?.driver.close_tab(id).await
    }

    async fn viewport(&self) -> Result<Viewport> {
        self.inner().await?.driver.viewport().await
    }

    async fn set_viewport(&self, viewport: Viewport) -> Result<()> {
        self.inner().await?.driver.set_viewport(viewport).await
    }

    async fn console(&self) -> Result<Vec<ConsoleEntry>> {
        self.inner().await?.driver.console().await
    }

    async fn downloads(&self) -> Result<Vec<Download>> {
        self.inner().await?.driver.downloads().await
    }

    /// Only commands that cannot move the browser's traffic, or reach
    /// another session's context: see [`DEVTOOLS_ALLOWED`].
    async fn devtools(&self, method: &str, params: serde_json::Value) -> Result<serde_json::Value> {
        if !DEVTOOLS_ALLOWED.contains(&method) {
            return Err(DriverError::InvalidArgument(format!(
                "the DevTools command {method} is not one a guarded browser sends (allowed: {})",
                DEVTOOLS_ALLOWED.join(", ")
            )));
        }
        let mut params = params;
        if let Some(object) = params.as_object_mut() {
            // On a page's session the page's own context is meant; naming
            // another would read or change another session's cookies.
            object.remove("browserContextId");
        }
        self.inner().await?.driver.devtools(method, params).await
    }

    async fn network_log(&self) -> Result<Vec<Request>> {
        self.inner().await?.driver.network_log().await
    }

    /// The pictures `marks` judges the page's text by: scripts in
    /// tabwright's world and a style sheet of its own, which send nothing
    /// the proxy does not see.
    async fn paint_probe(
        &self,
        probe: &driver_core::PaintProbe,
    ) -> Result<driver_core::PaintPictures> {
        self.inner().await?.driver.paint_probe(probe).await
    }

    /// What the browser knows of elements no script reads, handed to
    /// tabwright's world: DevTools commands that fetch nothing.
    async fn hand_over(&self, handover: &driver_core::Handover) -> Result<serde_json::Value> {
        self.inner().await?.driver.hand_over(handover).await
    }

    /// The session's memory; `None` before its first call (asking starts
    /// nothing).
    async fn memory(&self) -> Result<Option<driver_core::Memory>> {
        let started = self.started.lock().clone();
        match started {
            Some(started) => started.driver.memory().await,
            None => Ok(None),
        }
    }

    async fn cancel(&self) {
        let started = self.started.lock().clone();
        if let Some(started) = started {
            started.driver.cancel().await;
        }
    }

    /// Closes the browser, then the proxy: its port is closed once the
    /// calls still under way are done. The next call starts both again.
    async fn close(&self) -> Result<()> {
        let _starting = self.starting.lock().await;
        let started = self.started.lock().take();
        match started {
            Some(started) => started.driver.close().await,
            None => Ok(()),
        }
    }
}

/// The DevTools commands a guarded driver passes on: reading and writing
/// cookies, printing, taking a picture, emulating a device (and granting
/// the permission to read its place), mouse input,
/// setting a file input's files and reading a request's body. None of them sends a request, changes where
/// requests go, or names another browser context; anything else (a new
/// context with its own proxy, request interception, a new target) would
/// be a way around the guard, and is refused.
pub const DEVTOOLS_ALLOWED: &[&str] = &[
    "Browser.grantPermissions",
    "DOM.getDocument",
    "DOM.querySelector",
    "DOM.setFileInputFiles",
    "Emulation.clearDeviceMetricsOverride",
    "Emulation.clearGeolocationOverride",
    "Emulation.setDeviceMetricsOverride",
    "Emulation.setEmitTouchEventsForMouse",
    "Emulation.setGeolocationOverride",
    "Emulation.setLocaleOverride",
    "Emulation.setTimezoneOverride",
    "Emulation.setTouchEmulationEnabled",
    "Emulation.setUserAgentOverride",
    "Input.dispatchMouseEvent",
    "Network.getAllCookies",
    "Network.getRequestPostData",
    "Network.getResponseBody",
    "Network.setCookies",
    "Page.captureScreenshot",
    "Page.printToPDF",
];

/// Fetches the proxy's probe URL from the browser's page: only a browser
/// whose requests go through this proxy reaches it (no resolver answers its
/// `.invalid` name). One that does not is refused, rather than run
/// unguarded.
async fn probe(driver: &dyn Driver, proxy: &EgressProxy) -> Result<()> {
    let url = proxy.probe_url();
    let fetch = format!(
        "fetch({url:?}, {{ mode: 'no-cors', cache: 'no-store' }}).then(() => true, () => false)"
    );
    match driver.eval(&fetch).await {
        Ok(_) if proxy.probed() => Ok(()),
        Ok(_) => Err(DriverError::Launch {
            reason: format!(
                "the remote browser's requests do not reach the guard's proxy at {}: either it ignores the proxy it was given, or it cannot reach that address (for a browser on another machine, let the proxy listen on an address it can reach, --guard-listen or Policy::listen, and admit it, --guard-clients or Policy::clients); it was not used",
                proxy.url()
            ),
        }),
        Err(error) => Err(error),
    }
}

/// Whether a Chrome flag would set where the browser's requests go, which
/// in a guarded browser only the guard may.
fn around_the_guard(flag: &str) -> bool {
    let name = flag.split('=').next().unwrap_or_default();
    [
        "--proxy-server",
        "--no-proxy-server",
        "--proxy-auto-detect",
        "--proxy-pac-url",
        "--proxy-bypass-list",
        "--host-resolver-rules",
        "--host-rules",
        "--winhttp-proxy-resolver",
    ]
    .contains(&name)
}

#[cfg(test)]
mod tests {
    use super::around_the_guard;

    #[test]
    fn flags_that_route_requests_are_the_guards_alone() {
        for flag in [
            "--proxy-server=direct://",
            "--no-proxy-server",
            "--proxy-bypass-list=*",
            "--host-resolver-rules=MAP * 10.0.0.1",
        ] {
            assert!(around_the_guard(flag), "{flag}");
        }
        for flag in ["--window-size=800,600", "--disable-gpu", "--proxy"] {
            assert!(!around_the_guard(flag), "{flag}");
        }
    }
}
