//! The behaviour every backend must show, written once against `&dyn Driver`.
//!
//! Each check starts its own driver (so one check's browser state never
//! leaks into another's), drives it against the fixture [`Site`], and says
//! `Pass`, `Unsupported` (only where the backend's `capabilities()` says so,
//! with its reason) or fails with what it saw.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::future::BoxFuture;

use driver_core::{
    Capability, ConsoleLevel, DialogKind, Driver, DriverError, FrameScript, Handover, Key,
    KeyPress, Options, PaintProbe, ScreenshotFormat, ScreenshotOptions, Unusable, Viewport,
    WaitFor, FULL_PAGE_PIXELS,
};

use crate::backend::{kill, still_running, unreaped, Backend, Marker};
use crate::site::Site;

/// How a check ended, when it did not fail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The backend behaved.
    Pass,
    /// The backend cannot do what the check needs: its call answered
    /// `Unsupported` for exactly the capability the backend lists as
    /// unsupported, with this reason. [`run`] accepts it only then.
    Unsupported {
        /// What the check needs.
        capability: Capability,
        /// Why the backend cannot.
        reason: String,
    },
}

/// A check's result: an outcome, or what went wrong.
pub type CheckResult = Result<Verdict, String>;

/// One named check.
pub struct Check {
    /// Its name, as in the table and the test names.
    pub name: &'static str,
    /// The check itself.
    pub run: for<'a> fn(&'a Ctx) -> BoxFuture<'a, CheckResult>,
}

/// What a check gets: the backend under test and a site to browse.
pub struct Ctx {
    /// The backend under test.
    pub backend: Backend,
    /// Pages on loopback.
    pub site: Site,
}

/// The per-call timeout of the checks that test timeouts: it also bounds the
/// browser's start, which takes a few seconds on a loaded 2-core machine
/// (Firefox's start again after a spinning script once took more than 5).
const SHORT_TIMEOUT: Duration = Duration::from_secs(8);

/// The per-call timeout checks use unless they test timeouts: short enough
/// that a hang fails the check quickly, long enough for a loaded machine.
const CHECK_TIMEOUT: Duration = Duration::from_secs(15);

impl Ctx {
    /// A context with a freshly started site.
    pub async fn new(backend: Backend) -> Self {
        Self {
            backend,
            site: Site::start().await,
        }
    }

    /// The options a check starts from.
    pub fn options(&self) -> Options {
        Options {
            timeout: CHECK_TIMEOUT,
            ..Options::default()
        }
    }

    /// A driver with the check options.
    pub fn driver(&self) -> Box<dyn Driver> {
        self.backend.driver(self.options())
    }
}

macro_rules! ensure {
    ($condition:expr, $($message:tt)+) => {
        if !$condition {
            return Err(format!($($message)+));
        }
    };
}

mod devtools;
mod lifecycle;
mod pages;
use devtools::*;
use lifecycle::*;
use pages::*;

/// A driver whose browser carries a marker flag, so the check can find its
/// processes and profile.
fn marked(ctx: &Ctx) -> (Marker, Box<dyn Driver>) {
    let marker = Marker::new();
    let mut options = ctx.options();
    options.extra_args.push(marker.flag());
    let driver = ctx.backend.driver(options);
    (marker, driver)
}

/// Turns a driver error into a check failure that says what was being done.
fn step<T>(what: &str, result: Result<T, DriverError>) -> Result<T, String> {
    result.map_err(|error| format!("{what}: {error}"))
}

/// Every check, in the order the table shows them. The integration tests
/// list their own tests by hand; a test there compares the two lists.
pub fn all() -> Vec<Check> {
    macro_rules! checks {
        ($($name:ident),+ $(,)?) => {
            vec![$(Check { name: stringify!($name), run: |ctx| Box::pin($name(ctx)) }),+]
        };
    }
    checks![
        lazy_start,
        navigate_reports_status_and_final_url,
        navigate_failure_names_the_net_error,
        eval_returns_json,
        eval_exception_carries_its_message,
        eval_across_a_navigation,
        click_and_type,
        missing_and_hidden_elements,
        key_presses,
        screenshots,
        screenshots_are_fresh,
        text_and_value,
        wait_for_present_and_visible,
        history,
        tabs,
        popups_become_tabs,
        viewport,
        console_and_page_errors,
        ordinary_chrome,
        calls_are_serialised,
        never_loading_page_times_out,
        spinning_script_times_out,
        browser_gone_then_fresh,
        a_crashed_tab_is_left,
        close_ends_everything,
        drop_ends_everything,
        close_is_idempotent,
        screencast,
        downloads_are_refused,
        dialogs_never_block,
        hover_and_wheel,
        devtools_and_network_log,
        preloads_reach_every_document,
        paint_probe_pictures_the_paint,
        hand_over_gives_closed_roots_and_the_tree,
    ]
}

/// Finds a check by name.
pub fn by_name(name: &str) -> Option<Check> {
    all().into_iter().find(|check| check.name == name)
}

/// Runs one check against one backend with its own site. An `Unsupported`
/// outcome stands only for a capability the backend itself lists as
/// unsupported; for any other it is a failure.
pub async fn run(backend: Backend, check: &Check) -> CheckResult {
    let ctx = Ctx::new(backend).await;
    let outcome = (check.run)(&ctx).await?;
    if let Verdict::Unsupported { capability, reason } = &outcome {
        let listed = backend.driver(Options::default()).capabilities();
        if listed.supports(*capability) {
            return Err(format!(
                "answered that {capability} is unsupported ({reason}), which {} claims to support",
                backend.name()
            ));
        }
    }
    Ok(outcome)
}

/// What a call that needs a capability gave.
enum Needed<T> {
    /// Its value: the backend supports the capability.
    Value(T),
    /// The backend lists the capability as unsupported and the call said so.
    Unsupported(Verdict),
}

/// Where the backend supports `capability`, the call's value; where it lists
/// it as unsupported, the call must have answered `Unsupported` for exactly
/// that capability.
fn needs<T>(
    driver: &dyn Driver,
    capability: Capability,
    what: &str,
    result: Result<T, DriverError>,
) -> Result<Needed<T>, String> {
    if driver.capabilities().supports(capability) {
        return step(what, result).map(Needed::Value);
    }
    match result {
        Err(DriverError::Unsupported {
            feature, reason, ..
        }) if feature == capability => Ok(Needed::Unsupported(Verdict::Unsupported {
            capability,
            reason: reason.to_owned(),
        })),
        Err(other) => Err(format!(
            "{what}: {capability} is listed as unsupported, yet the call failed with {other}"
        )),
        Ok(_) => Err(format!(
            "{what}: {capability} is listed as unsupported, yet the call succeeded"
        )),
    }
}

async fn lazy_start(ctx: &Ctx) -> CheckResult {
    let (marker, driver) = marked(ctx);
    // Not a wait for something to happen: the time a browser started in the
    // background on construction would need to show up.
    tokio::time::sleep(Duration::from_millis(300)).await;
    ensure!(
        marker.processes().is_empty(),
        "a browser started before the first call"
    );
    step("close a driver that never started", driver.close().await)?;
    step(
        "navigate after close",
        driver.navigate(&ctx.site.url("/")).await,
    )?;
    ensure!(
        !marker.processes().is_empty(),
        "no browser process after the first call"
    );
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

async fn navigate_reports_status_and_final_url(ctx: &Ctx) -> CheckResult {
    let driver = ctx.driver();
    let home = step("navigate", driver.navigate(&ctx.site.url("/")).await)?;
    ensure!(
        home.status == Some(200),
        "status of / was {:?}",
        home.status
    );
    ensure!(
        home.url == ctx.site.url("/"),
        "final URL of / was {}",
        home.url.untrusted()
    );
    let missing = step(
        "navigate to a 404",
        driver.navigate(&ctx.site.url("/missing")).await,
    )?;
    ensure!(
        missing.status == Some(404),
        "status of /missing was {:?}",
        missing.status
    );
    let redirected = step(
        "navigate through a redirect",
        driver.navigate(&ctx.site.url("/redirect")).await,
    )?;
    ensure!(
        redirected.url == ctx.site.url("/second"),
        "a 302 to /second ended on {}",
        redirected.url.untrusted()
    );
    ensure!(
        redirected.status == Some(200),
        "status after the redirect was {:?}",
        redirected.status
    );
    let fragment = step(
        "navigate to a fragment",
        driver.navigate(&ctx.site.url("/second#part")).await,
    )?;
    ensure!(
        fragment.url.untrusted().ends_with("/second#part"),
        "fragment navigation ended on {}",
        fragment.url.untrusted()
    );
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

async fn navigate_failure_names_the_net_error(ctx: &Ctx) -> CheckResult {
    // A port that was free a moment ago: nothing listens there.
    let port = crate::free_port();
    let driver = ctx.driver();
    match driver.navigate(&format!("http://127.0.0.1:{port}/")).await {
        Err(DriverError::NavigationFailed { net_error, .. }) => {
            ensure!(
                net_error.contains("ERR_CONNECTION_REFUSED"),
                "net error was {net_error}"
            );
        }
        other => return Err(format!("a refused connection gave {other:?}")),
    }
    // The driver is still usable.
    step(
        "navigate after a failure",
        driver.navigate(&ctx.site.url("/")).await,
    )?;
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

async fn eval_returns_json(ctx: &Ctx) -> CheckResult {
    let driver = ctx.driver();
    step("navigate", driver.navigate(&ctx.site.url("/")).await)?;
    let cases = [
        ("1 + 1", serde_json::json!(2)),
        ("document.title", serde_json::json!("Home")),
        (
            "({a: [1, 'two', null], b: true})",
            serde_json::json!({"a": [1, "two", null], "b": true}),
        ),
        ("undefined", serde_json::Value::Null),
        (
            "new Promise(r => setTimeout(() => r('later'), 50))",
            serde_json::json!("later"),
        ),
    ];
    for (expression, expected) in cases {
        let value = step(expression, driver.eval(expression).await)?;
        ensure!(
            value == expected,
            "{expression} gave {value}, expected {expected}"
        );
    }
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

async fn eval_exception_carries_its_message(ctx: &Ctx) -> CheckResult {
    let driver = ctx.driver();
    step("navigate", driver.navigate(&ctx.site.url("/")).await)?;
    for expression in [
        "throw new Error('boom at the top')",
        "Promise.reject(new Error('boom at the top'))",
        "(() => { null.boom; })()",
    ] {
        match driver.eval(expression).await {
            Err(DriverError::Script { message }) => {
                ensure!(
                    message.untrusted().contains("boom") || message.untrusted().contains("null"),
                    "{expression}: the message was {message:?}"
                );
            }
            other => return Err(format!("{expression} gave {other:?}")),
        }
    }
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

/// A navigation under a running script ends the script with its own error
/// (not a timeout, and without stopping the navigation); a wait for an
/// element goes on in the document that replaces the one it began in.
async fn eval_across_a_navigation(ctx: &Ctx) -> CheckResult {
    let driver = ctx.driver();
    step("navigate", driver.navigate(&ctx.site.url("/")).await)?;
    let pending = "(setTimeout(() => location.assign('/second'), 50), new Promise(() => {}))";
    match driver.eval(pending).await {
        Err(DriverError::DocumentReplaced) => {}
        other => return Err(format!("a script outlived by its document gave {other:?}")),
    }
    step(
        "wait for the next page's link",
        driver.wait_for("#home", WaitFor::Present).await,
    )?;
    let title = step("read the title", driver.eval("document.title").await)?;
    ensure!(title == "Second", "the navigation ended on {title}");

    step("navigate back", driver.navigate(&ctx.site.url("/")).await)?;
    step(
        "schedule a navigation",
        driver
            .eval("setTimeout(() => location.assign('/second'), 300), null")
            .await,
    )?;
    step(
        "wait across the navigation",
        driver.wait_for("#home", WaitFor::Present).await,
    )?;
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

async fn click_and_type(ctx: &Ctx) -> CheckResult {
    let driver = ctx.driver();
    step("navigate", driver.navigate(&ctx.site.url("/form")).await)?;
    step("click #go", driver.click("#go").await)?;
    let out = step("read #out", driver.text("#out").await)?;
    ensure!(out == "clicked", "after the click #out says {out:?}");
    step("type", driver.send_keys("#name", "Ada Lovelace").await)?;
    let value = step("read #name", driver.value("#name").await)?;
    ensure!(value == "Ada Lovelace", "#name holds {value:?}");
    step("type more", driver.send_keys("#name", "!").await)?;
    let value = step("read #name", driver.value("#name").await)?;
    ensure!(
        value == "Ada Lovelace!",
        "typing appends: #name holds {value:?}"
    );
    step("press Enter", driver.press(Key::Enter.into()).await)?;
    let out = step("read #out", driver.text("#out").await)?;
    ensure!(
        out == "submitted Ada Lovelace!",
        "Enter submits the form: #out says {out:?}"
    );
    step(
        "navigate to a link page",
        driver.navigate(&ctx.site.url("/")).await,
    )?;
    step("click a link", driver.click("#to-second").await)?;
    step(
        "wait for the second page",
        driver.wait_for("a#home", WaitFor::Present).await,
    )?;
    let title = step("title", driver.eval("document.title").await)?;
    ensure!(
        title == "Second",
        "after clicking a link the title is {title}"
    );
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

async fn missing_and_hidden_elements(ctx: &Ctx) -> CheckResult {
    let driver = ctx.driver();
    step("navigate", driver.navigate(&ctx.site.url("/form")).await)?;
    match driver.click("#nothing-here").await {
        Err(DriverError::NoSuchElement { selector }) => {
            ensure!(selector == "#nothing-here", "the error names {selector:?}");
        }
        other => return Err(format!("clicking a missing element gave {other:?}")),
    }
    match driver.click("#hidden").await {
        Err(DriverError::NotInteractable {
            reason: Unusable::Hidden,
            ..
        }) => {}
        other => return Err(format!("clicking a hidden element gave {other:?}")),
    }
    match driver.click("#covered").await {
        Err(DriverError::NotInteractable {
            reason: Unusable::Covered { by },
            ..
        }) => {
            ensure!(by == "div#overlay", "covered by {by:?}");
        }
        other => return Err(format!("clicking a covered element gave {other:?}")),
    }
    match driver.click("[[[").await {
        Err(DriverError::InvalidArgument(message)) => {
            ensure!(message.contains("[[["), "bad selector: {message}");
        }
        other => return Err(format!("a malformed selector gave {other:?}")),
    }
    match driver.send_keys("#nothing-here", "x").await {
        Err(DriverError::NoSuchElement { .. }) => {}
        other => return Err(format!("typing into a missing element gave {other:?}")),
    }
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

async fn key_presses(ctx: &Ctx) -> CheckResult {
    let driver = ctx.driver();
    step("navigate", driver.navigate(&ctx.site.url("/form")).await)?;
    step("type", driver.send_keys("#name", "abc").await)?;
    step("Backspace", driver.press(Key::Backspace.into()).await)?;
    let value = step("value", driver.value("#name").await)?;
    ensure!(value == "ab", "after Backspace #name holds {value:?}");
    step("ArrowLeft", driver.press(Key::ArrowLeft.into()).await)?;
    step("type X", driver.press(Key::Char('X').into()).await)?;
    let value = step("value", driver.value("#name").await)?;
    ensure!(value == "aXb", "ArrowLeft then X gives {value:?}");
    step("Tab", driver.press(Key::Tab.into()).await)?;
    let focused = step("focus", driver.eval("document.activeElement.id").await)?;
    ensure!(focused == "other", "Tab moved focus to {focused}");
    let shift_tab: KeyPress = "Shift+Tab".parse().map_err(|e| format!("{e}"))?;
    step("Shift+Tab", driver.press(shift_tab).await)?;
    let focused = step("focus", driver.eval("document.activeElement.id").await)?;
    ensure!(focused == "name", "Shift+Tab moved focus to {focused}");
    let select_all: KeyPress = "Control+a".parse().map_err(|e| format!("{e}"))?;
    step("Control+a", driver.press(select_all).await)?;
    step("Escape", driver.press(Key::Escape.into()).await)?;
    step("ArrowDown", driver.press(Key::ArrowDown.into()).await)?;
    let keys = step("keys seen", driver.text("#keys").await)?;
    let keys: Vec<&str> = keys.lines().collect();
    // Typing a capital X is Shift+X where the backend holds Shift for it
    // (WebDriver), plain X where it sends the character (CDP): both are X.
    let keys: Vec<&str> = keys
        .into_iter()
        .map(|key| if key == "Shift+X" { "X" } else { key })
        .collect();
    for expected in [
        "Backspace",
        "ArrowLeft",
        "X",
        "Tab",
        "Shift+Tab",
        "Control+a",
        "Escape",
        "ArrowDown",
    ] {
        ensure!(
            keys.contains(&expected),
            "the page saw keys {keys:?}, not {expected}"
        );
    }
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

fn png_size(png: &[u8]) -> Option<(u32, u32)> {
    if png.len() < 24 || &png[..8] != b"\x89PNG\r\n\x1a\n" {
        return None;
    }
    let width = u32::from_be_bytes(png[16..20].try_into().ok()?);
    let height = u32::from_be_bytes(png[20..24].try_into().ok()?);
    Some((width, height))
}

/// A PNG decoded: its pixels (8 bits a channel), channels per pixel,
/// width and height.
pub fn decoded_png(png: &[u8]) -> Result<(Vec<u8>, usize, usize, usize), String> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder
        .read_info()
        .map_err(|error| format!("the PNG does not decode: {error}"))?;
    let mut pixels = vec![0; reader.output_buffer_size().unwrap_or_default()];
    let frame = reader
        .next_frame(&mut pixels)
        .map_err(|error| format!("the PNG does not decode: {error}"))?;
    Ok((
        pixels,
        frame.color_type.samples(),
        frame.width as usize,
        frame.height as usize,
    ))
}

/// The colour of a PNG's pixel at `x`, `y`.
fn png_pixel(png: &[u8], x: u32, y: u32) -> Result<[u8; 3], String> {
    let (pixels, channels, width, height) = decoded_png(png)?;
    let at = (y as usize * width + x as usize) * channels;
    match pixels.get(at..at + 3) {
        Some(&[red, green, blue]) => Ok([red, green, blue]),
        _ => Err(format!("({x}, {y}) is outside the {width}x{height} PNG")),
    }
}

/// A screenshot pictures what the page changed just before it, however
/// soon after: colours set one after another, each pictured at once. And
/// a page drawn at twice its CSS pixels is pictured in its device pixels.
async fn screenshots_are_fresh(ctx: &Ctx) -> CheckResult {
    ctx.site
        .page("/plain", "<!doctype html><title>Plain</title>")
        .await;
    let driver = ctx.driver();
    step("navigate", driver.navigate(&ctx.site.url("/plain")).await)?;
    for round in 0..24u8 {
        let colour = match round % 3 {
            0 => [200, 40, 40],
            1 => [40, 160, 40],
            _ => [40, 40, 200],
        };
        let [red, green, blue] = colour;
        // At moments spread over a few frames.
        tokio::time::sleep(Duration::from_millis(u64::from(round) * 13 % 41)).await;
        step(
            "paint",
            driver
                .eval(&format!(
                    "document.documentElement.style.background = 'rgb({red}, {green}, {blue})'"
                ))
                .await,
        )?;
        let shot = step("PNG", driver.screenshot(ScreenshotOptions::default()).await)?;
        let seen = png_pixel(&shot, 640, 400)?;
        ensure!(
            seen == colour,
            "screenshot {round} shows {seen:?}, not the colour {colour:?} the page took just before"
        );
    }
    let scaled = driver
        .devtools(
            "Emulation.setDeviceMetricsOverride",
            serde_json::json!({ "width": 400, "height": 300, "deviceScaleFactor": 2, "mobile": false }),
        )
        .await;
    // (A backend without DevTools may answer this one in its own words.)
    if scaled.is_err() {
        if let Needed::Unsupported(outcome) = needs(
            driver.as_ref(),
            Capability::DevTools,
            "device metrics",
            scaled,
        )? {
            return Ok(outcome);
        }
    }
    let shot = step(
        "PNG at twice the pixels",
        driver.screenshot(ScreenshotOptions::default()).await,
    )?;
    let size = png_size(&shot);
    ensure!(
        size == Some((800, 600)),
        "a 400x300 viewport drawn at 2 device pixels a CSS pixel is pictured {size:?}, not 800x600"
    );
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

async fn screenshots(ctx: &Ctx) -> CheckResult {
    let driver = ctx.driver();
    step("navigate", driver.navigate(&ctx.site.url("/long")).await)?;
    let png = step("PNG", driver.screenshot(ScreenshotOptions::default()).await)?;
    let size = png_size(&png);
    ensure!(
        size == Some((1280, 800)),
        "the viewport PNG is {size:?}, not 1280x800"
    );
    let full = driver
        .screenshot(ScreenshotOptions {
            full_page: true,
            ..Default::default()
        })
        .await;
    let full = match needs(
        driver.as_ref(),
        Capability::FullPageScreenshots,
        "full-page PNG",
        full,
    )? {
        Needed::Value(full) => full,
        Needed::Unsupported(outcome) => return Ok(outcome),
    };
    let size = png_size(&full);
    ensure!(
        size.is_some_and(|(_, height)| height >= 3000),
        "the full-page PNG is {size:?}, the page is 3000 px tall"
    );
    // A page far larger than a picture should hold: within the budget,
    // as the shared plan says.
    step("navigate", driver.navigate(&ctx.site.url("/tall")).await)?;
    let tall = step(
        "full-page PNG of a tall page",
        driver
            .screenshot(ScreenshotOptions {
                full_page: true,
                ..Default::default()
            })
            .await,
    )?;
    let size = png_size(&tall);
    ensure!(
        size.is_some_and(|(width, height)| {
            f64::from(width) * f64::from(height) <= FULL_PAGE_PIXELS * 1.01
                && (10_000..=16_384).contains(&height)
        }),
        "the full-page PNG of a 200,000 px page is {size:?}, not its top at half size"
    );
    let lossy = |format| {
        driver.screenshot(ScreenshotOptions {
            format,
            full_page: false,
        })
    };
    let jpeg = lossy(ScreenshotFormat::Jpeg(60)).await;
    let jpeg = match needs(driver.as_ref(), Capability::LossyScreenshots, "JPEG", jpeg)? {
        Needed::Value(jpeg) => jpeg,
        Needed::Unsupported(outcome) => return Ok(outcome),
    };
    ensure!(
        jpeg.starts_with(&[0xFF, 0xD8, 0xFF]),
        "the JPEG does not start like one"
    );
    ensure!(
        jpeg.len() < png.len(),
        "JPEG ({}) is not smaller than PNG ({})",
        jpeg.len(),
        png.len()
    );
    let webp = step("WebP", lossy(ScreenshotFormat::Webp(60)).await)?;
    ensure!(
        webp.starts_with(b"RIFF") && webp.get(8..12) == Some(b"WEBP"),
        "the WebP does not start like one"
    );
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}
