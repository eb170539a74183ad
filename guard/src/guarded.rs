//! [`GuardedDriver`]: any backend, launched behind the egress proxy.
//!
//! It starts the proxy on the first call (construction stays free), gives the
//! backend `Options::proxy` so Chrome is forced through it, and checks every
//! URL a caller asks to open with the URL gate first, so a refused address is
//! a clear [`DriverError::Refused`] before the browser is even asked.

use std::fmt;

use async_trait::async_trait;
use tokio::sync::OnceCell;

use driver_core::{
    Capabilities, ConsoleEntry, Dialog, Download, Driver, DriverError, KeyPress, Navigation,
    Options, Result, ScreenshotOptions, Tab, TabId, Viewport, WaitFor,
};

use crate::{EgressProxy, Guard, Reason, Refusal};

/// Makes the backend's driver from the options (with the proxy filled in).
pub type MakeDriver = Box<dyn Fn(Options) -> Box<dyn Driver> + Send + Sync>;

/// A driver whose browser can reach only what the guard allows.
pub struct GuardedDriver {
    guard: Guard,
    options: Options,
    make: MakeDriver,
    started: OnceCell<(EgressProxy, Box<dyn Driver>)>,
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
            started: OnceCell::new(),
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

    /// Every request refused so far.
    pub fn refusals(&self) -> Vec<Refusal> {
        self.guard.refusals().all()
    }

    async fn inner(&self) -> Result<&dyn Driver> {
        let (_, driver) = self
            .started
            .get_or_try_init(|| async {
                let proxy = EgressProxy::start(self.guard.clone())
                    .await
                    .map_err(|error| DriverError::Launch {
                        reason: format!("cannot start the guard's egress proxy: {error}"),
                    })?;
                let mut options = self.options.clone();
                options.proxy = Some(proxy.url());
                let driver = (self.make)(options);
                Ok::<_, DriverError>((proxy, driver))
            })
            .await?;
        Ok(driver.as_ref())
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
            Ok(navigation) if navigation.status == Some(403) => {
                match main_document(&navigation.url) {
                    Some(refusal) => Err(refused(refusal.target, &refusal.reason)),
                    None => Ok(navigation),
                }
            }
            Err(DriverError::NavigationFailed {
                url: failed,
                net_error,
            }) => match refusals.first() {
                Some(refusal) => Err(refused(refusal.target.clone(), &refusal.reason)),
                None => Err(DriverError::NavigationFailed {
                    url: failed,
                    net_error,
                }),
            },
            other => other,
        }
    }
}

/// What a refusal is to the caller: a name that does not resolve is no site
/// at all (nothing was protected); anything else the guard refused.
fn refused(url: String, reason: &Reason) -> DriverError {
    match reason {
        Reason::Unresolvable { host, .. } => DriverError::UnknownHost {
            url,
            host: host.clone(),
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
        match self.started.get() {
            Some((_, driver)) => driver.capabilities(),
            None => (self.make)(self.options.clone()).capabilities(),
        }
    }

    async fn navigate(&self, url: &str) -> Result<Navigation> {
        self.gate(url).await?;
        let before = self.guard.refusals().next_seq();
        let result = self.inner().await?.navigate(url).await;
        self.explain(before, result)
    }

    async fn eval(&self, expression: &str) -> Result<serde_json::Value> {
        self.inner().await?.eval(expression).await
    }

    async fn eval_in_frame(&self, frame: &[u32], expression: &str) -> Result<serde_json::Value> {
        self.inner().await?.eval_in_frame(frame, expression).await
    }

    async fn eval_isolated(&self, frame: &[u32], expression: &str) -> Result<serde_json::Value> {
        self.inner().await?.eval_isolated(frame, expression).await
    }

    async fn requests_in_flight(&self) -> Result<Option<usize>> {
        self.inner().await?.requests_in_flight().await
    }

    async fn type_text(&self, text: &str) -> Result<()> {
        self.inner().await?.type_text(text).await
    }

    async fn current_tab(&self) -> Result<TabId> {
        self.inner().await?.current_tab().await
    }

    async fn click(&self, selector: &str) -> Result<()> {
        self.inner().await?.click(selector).await
    }

    async fn click_at(&self, x: f64, y: f64) -> Result<()> {
        self.inner().await?.click_at(x, y).await
    }

    async fn move_mouse(&self, x: f64, y: f64) -> Result<()> {
        self.inner().await?.move_mouse(x, y).await
    }

    async fn wheel(&self, x: f64, y: f64, dx: f64, dy: f64) -> Result<()> {
        self.inner().await?.wheel(x, y, dx, dy).await
    }

    async fn dialog(&self) -> Result<Option<Dialog>> {
        self.inner().await?.dialog().await
    }

    async fn answer_dialog(&self, accept: bool, prompt_text: Option<&str>) -> Result<()> {
        self.inner().await?.answer_dialog(accept, prompt_text).await
    }

    async fn send_keys(&self, selector: &str, text: &str) -> Result<()> {
        self.inner().await?.send_keys(selector, text).await
    }

    async fn press(&self, key: KeyPress) -> Result<()> {
        self.inner().await?.press(key).await
    }

    async fn screenshot(&self, options: ScreenshotOptions) -> Result<Vec<u8>> {
        self.inner().await?.screenshot(options).await
    }

    async fn text(&self, selector: &str) -> Result<String> {
        self.inner().await?.text(selector).await
    }

    async fn value(&self, selector: &str) -> Result<String> {
        self.inner().await?.value(selector).await
    }

    async fn wait_for(&self, selector: &str, condition: WaitFor) -> Result<()> {
        self.inner().await?.wait_for(selector, condition).await
    }

    async fn back(&self) -> Result<Navigation> {
        self.inner().await?.back().await
    }

    async fn forward(&self) -> Result<Navigation> {
        self.inner().await?.forward().await
    }

    async fn reload(&self) -> Result<Navigation> {
        self.inner().await?.reload().await
    }

    async fn tabs(&self) -> Result<Vec<Tab>> {
        self.inner().await?.tabs().await
    }

    async fn tab_ids(&self) -> Result<Vec<TabId>> {
        self.inner().await?.tab_ids().await
    }

    async fn open_tab(&self, url: Option<&str>) -> Result<Tab> {
        if let Some(url) = url {
            self.gate(url).await?;
        }
        self.inner().await?.open_tab(url).await
    }

    async fn switch_tab(&self, id: &TabId) -> Result<()> {
        self.inner().await?.switch_tab(id).await
    }

    async fn close_tab(&self, id: &TabId) -> Result<()> {
        self.inner().await?.close_tab(id).await
    }

    async fn viewport(&self) -> Result<Viewport> {
        self.inner().await?.viewport().await
    }

    async fn set_viewport(&self, viewport: Viewport) -> Result<()> {
        self.inner().await?.set_viewport(viewport).await
    }

    async fn console(&self) -> Result<Vec<ConsoleEntry>> {
        self.inner().await?.console().await
    }

    async fn downloads(&self) -> Result<Vec<Download>> {
        self.inner().await?.downloads().await
    }

    async fn close(&self) -> Result<()> {
        match self.started.get() {
            Some((_, driver)) => driver.close().await,
            None => Ok(()),
        }
    }
}
