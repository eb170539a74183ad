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
/// browser's start, which takes a few seconds on a loaded 2-core machine.
const SHORT_TIMEOUT: Duration = Duration::from_secs(5);

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
                    message.contains("boom") || message.contains("null"),
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
            ensure!(by == "div#overlay", "covered by {by}");
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
    match needs(
        driver.as_ref(),
        Capability::DevTools,
        "device metrics",
        scaled,
    )? {
        Needed::Value(_) => {}
        Needed::Unsupported(outcome) => return Ok(outcome),
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

async fn text_and_value(ctx: &Ctx) -> CheckResult {
    let driver = ctx.driver();
    step("navigate", driver.navigate(&ctx.site.url("/")).await)?;
    let text = step("text", driver.text("#para").await)?;
    ensure!(text == "Some bold text.", "#para reads {text:?}");
    match driver.value("#para").await {
        Err(DriverError::NotInteractable { .. }) => {}
        other => return Err(format!("the value of a paragraph gave {other:?}")),
    }
    step("navigate", driver.navigate(&ctx.site.url("/form")).await)?;
    let value = step("value", driver.value("#name").await)?;
    ensure!(value.is_empty(), "an empty input has value {value:?}");
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

async fn wait_for_present_and_visible(ctx: &Ctx) -> CheckResult {
    let mut options = ctx.options();
    options.timeout = SHORT_TIMEOUT;
    let driver = ctx.backend.driver(options);
    step("navigate", driver.navigate(&ctx.site.url("/later")).await)?;
    step(
        "wait for #late",
        driver.wait_for("#late", WaitFor::Present).await,
    )?;
    step(
        "wait for #invisible to show",
        driver.wait_for("#invisible", WaitFor::Visible).await,
    )?;
    let started = Instant::now();
    match driver.wait_for("#never", WaitFor::Present).await {
        Err(error) if error.is_timeout() => {
            ensure!(
                started.elapsed() < 2 * SHORT_TIMEOUT,
                "the wait took {:?}",
                started.elapsed()
            );
        }
        other => {
            return Err(format!(
                "waiting for an element that never comes gave {other:?}"
            ))
        }
    }
    step("eval after a timed-out wait", driver.eval("1").await)?;
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

async fn history(ctx: &Ctx) -> CheckResult {
    let driver = ctx.driver();
    step("navigate /", driver.navigate(&ctx.site.url("/")).await)?;
    // The page the tab started on is not history to go back to.
    match driver.back().await {
        Err(DriverError::NoHistory { direction }) => {
            ensure!(direction == "earlier", "direction {direction}")
        }
        other => return Err(format!("back from the first page gave {other:?}")),
    }
    let title = step("title", driver.eval("document.title").await)?;
    ensure!(
        title == "Home",
        "after a refused back the tab shows {title}"
    );
    step(
        "navigate /second",
        driver.navigate(&ctx.site.url("/second")).await,
    )?;
    let back = step("back", driver.back().await)?;
    ensure!(
        back.url == ctx.site.url("/"),
        "back went to {}",
        back.url.untrusted()
    );
    let title = step("title", driver.eval("document.title").await)?;
    ensure!(title == "Home", "back shows {title}");
    let forward = step("forward", driver.forward().await)?;
    ensure!(
        forward.url == ctx.site.url("/second"),
        "forward went to {}",
        forward.url.untrusted()
    );
    match driver.forward().await {
        Err(DriverError::NoHistory { direction }) => {
            ensure!(direction == "later", "direction {direction}")
        }
        other => return Err(format!("forward at the end of history gave {other:?}")),
    }
    step("set a marker", driver.eval("window.marker = 1").await)?;
    let reloaded = step("reload", driver.reload().await)?;
    ensure!(
        reloaded.status == Some(200),
        "reload status {:?}",
        reloaded.status
    );
    let marker = step("marker", driver.eval("window.marker === undefined").await)?;
    ensure!(marker == true, "the page was not reloaded");
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

async fn tabs(ctx: &Ctx) -> CheckResult {
    let driver = ctx.driver();
    step("navigate", driver.navigate(&ctx.site.url("/")).await)?;
    let first = step("tabs", driver.tabs().await)?;
    ensure!(first.len() == 1 && first[0].current, "at start: {first:?}");
    let opened = step(
        "open a tab",
        driver.open_tab(Some(&ctx.site.url("/second"))).await,
    )?;
    let now = step("tabs", driver.tabs().await)?;
    ensure!(now.len() == 2, "two tabs expected: {now:?}");
    ensure!(
        now[1].id == opened.id && now[1].current,
        "the new tab is last and current: {now:?}"
    );
    ensure!(
        now[1].title == "Second" && now[1].url == ctx.site.url("/second"),
        "the new tab: {:?}",
        now[1]
    );
    let ids = step("tab ids", driver.tab_ids().await)?;
    ensure!(
        ids == now.iter().map(|tab| tab.id.clone()).collect::<Vec<_>>(),
        "tab_ids {ids:?} is not the ids of tabs() {now:?}"
    );
    let title = step("title", driver.eval("document.title").await)?;
    ensure!(title == "Second", "page calls act on the new tab: {title}");
    step("switch back", driver.switch_tab(&first[0].id).await)?;
    let title = step("title", driver.eval("document.title").await)?;
    ensure!(title == "Home", "after switching back: {title}");
    step("close the second tab", driver.close_tab(&opened.id).await)?;
    let left = step("tabs", driver.tabs().await)?;
    ensure!(
        left.len() == 1 && left[0].id == first[0].id,
        "after closing: {left:?}"
    );
    match driver.switch_tab(&opened.id).await {
        Err(DriverError::NoSuchTab { .. }) => {}
        other => return Err(format!("switching to a closed tab gave {other:?}")),
    }
    step("close the last tab", driver.close_tab(&first[0].id).await)?;
    let left = step("tabs", driver.tabs().await)?;
    ensure!(
        left.len() == 1 && left[0].current,
        "closing the last tab leaves a blank one: {left:?}"
    );
    step(
        "navigate in the new blank tab",
        driver.navigate(&ctx.site.url("/third")).await,
    )?;
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

/// Waits (up to 5 s) until `count` tabs are listed.
async fn until_tabs(driver: &dyn Driver, count: usize) -> Result<Vec<driver_core::Tab>, String> {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let tabs = step("tabs", driver.tabs().await)?;
        let loaded = tabs
            .iter()
            .all(|tab| tab.url != "about:blank" && !tab.url.is_empty());
        if tabs.len() >= count && loaded {
            return Ok(tabs);
        }
        if Instant::now() > deadline {
            return Err(format!("expected {count} loaded tabs, have {tabs:?}"));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn popups_become_tabs(ctx: &Ctx) -> CheckResult {
    let driver = ctx.driver();
    step("navigate", driver.navigate(&ctx.site.url("/")).await)?;
    step(
        "click a target=_blank link",
        driver.click("#popup-link").await,
    )?;
    let tabs = until_tabs(driver.as_ref(), 2).await?;
    ensure!(tabs[0].current, "the opener stays current: {tabs:?}");
    ensure!(
        tabs[1].url == ctx.site.url("/second"),
        "the new tab shows {}",
        tabs[1].url.untrusted()
    );
    step(
        "click a window.open button",
        driver.click("#popup-button").await,
    )?;
    let tabs = until_tabs(driver.as_ref(), 3).await?;
    ensure!(
        tabs[2].url == ctx.site.url("/third"),
        "the popup shows {}",
        tabs[2].url.untrusted()
    );
    step("switch to the popup", driver.switch_tab(&tabs[2].id).await)?;
    let title = step("title", driver.eval("document.title").await)?;
    ensure!(title == "Third", "the popup's title is {title}");
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

async fn viewport(ctx: &Ctx) -> CheckResult {
    let driver = ctx.driver();
    step("navigate", driver.navigate(&ctx.site.url("/")).await)?;
    let size = step("viewport", driver.viewport().await)?;
    ensure!(
        size == Viewport {
            width: 1280,
            height: 800
        },
        "default viewport {size:?}"
    );
    step(
        "resize",
        driver
            .set_viewport(Viewport {
                width: 800,
                height: 600,
            })
            .await,
    )?;
    let inner = step("inner size", driver.eval("[innerWidth, innerHeight]").await)?;
    ensure!(
        inner == serde_json::json!([800, 600]),
        "the page sees {inner}"
    );
    match driver
        .set_viewport(Viewport {
            width: 0,
            height: 600,
        })
        .await
    {
        Err(DriverError::InvalidArgument(_)) => {}
        other => return Err(format!("a zero-width viewport gave {other:?}")),
    }
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

async fn console_and_page_errors(ctx: &Ctx) -> CheckResult {
    let driver = ctx.driver();
    step("navigate", driver.navigate(&ctx.site.url("/console")).await)?;
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut entries = Vec::new();
    while Instant::now() < deadline {
        match needs(
            driver.as_ref(),
            Capability::Console,
            "console",
            driver.console().await,
        )? {
            Needed::Value(more) => entries.extend(more),
            Needed::Unsupported(outcome) => return Ok(outcome),
        }
        if entries
            .iter()
            .any(|entry| entry.level == ConsoleLevel::PageError)
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let has = |level: ConsoleLevel, text: &str| {
        entries
            .iter()
            .any(|entry| entry.level == level && entry.text.untrusted().contains(text))
    };
    ensure!(
        has(ConsoleLevel::Info, "hello 42"),
        "console.log missing: {entries:?}"
    );
    ensure!(
        has(ConsoleLevel::Warning, "careful"),
        "console.warn missing: {entries:?}"
    );
    ensure!(
        has(ConsoleLevel::Error, "bad thing"),
        "console.error missing: {entries:?}"
    );
    ensure!(
        has(ConsoleLevel::PageError, "uncaught boom"),
        "the page error is missing: {entries:?}"
    );
    let again = step("console again", driver.console().await)?;
    ensure!(again.is_empty(), "the buffer was not drained: {again:?}");
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

async fn ordinary_chrome(ctx: &Ctx) -> CheckResult {
    let driver = ctx.driver();
    step("navigate", driver.navigate(&ctx.site.url("/")).await)?;
    let agent = step("userAgent", driver.eval("navigator.userAgent").await)?;
    let agent = agent.as_str().unwrap_or_default();
    ensure!(
        agent.contains("Chrome/") && !agent.contains("Headless"),
        "navigator.userAgent is {agent}"
    );
    let webdriver = step("webdriver", driver.eval("navigator.webdriver").await)?;
    ensure!(webdriver == false, "navigator.webdriver is {webdriver}");
    let sent = ctx.site.user_agents().await;
    ensure!(!sent.is_empty(), "the site saw no requests");
    ensure!(
        sent.iter().all(|agent| !agent.contains("Headless")),
        "the site saw {sent:?}"
    );
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

async fn calls_are_serialised(ctx: &Ctx) -> CheckResult {
    let driver: Arc<dyn Driver> = Arc::from(ctx.driver());
    step("navigate", driver.navigate(&ctx.site.url("/")).await)?;
    // Each call reads a counter, yields to the event loop, then writes it
    // back plus one: interleaved calls would lose increments.
    let increment = "(async () => { const seen = window.count || 0; \
                     await new Promise(r => setTimeout(r, 20)); window.count = seen + 1; return seen; })()";
    let calls = (0..6).map(|_| {
        let driver = Arc::clone(&driver);
        async move { driver.eval(increment).await }
    });
    let mut seen: Vec<i64> = Vec::new();
    for result in futures::future::join_all(calls).await {
        seen.push(step("increment", result)?.as_i64().unwrap_or(-1));
    }
    seen.sort_unstable();
    ensure!(
        seen == vec![0, 1, 2, 3, 4, 5],
        "overlapping calls saw counters {seen:?}"
    );
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

async fn never_loading_page_times_out(ctx: &Ctx) -> CheckResult {
    let mut options = ctx.options();
    options.timeout = SHORT_TIMEOUT;
    let driver = ctx.backend.driver(options);
    step("warm up", driver.navigate(&ctx.site.url("/")).await)?;
    let started = Instant::now();
    match driver.navigate(&ctx.site.url("/never-loads")).await {
        Err(error) if error.is_timeout() => {}
        other => return Err(format!("a page that never loads gave {other:?}")),
    }
    ensure!(
        started.elapsed() < 2 * SHORT_TIMEOUT,
        "the timeout took {:?}",
        started.elapsed()
    );
    let next = step(
        "navigate after the timeout",
        driver.navigate(&ctx.site.url("/second")).await,
    )?;
    ensure!(
        next.status == Some(200),
        "the next navigation gave {next:?}"
    );
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

async fn spinning_script_times_out(ctx: &Ctx) -> CheckResult {
    let mut options = ctx.options();
    options.timeout = SHORT_TIMEOUT;
    let driver = ctx.backend.driver(options);
    step("navigate", driver.navigate(&ctx.site.url("/")).await)?;
    match driver.eval("while (true) {}").await {
        Err(error) if error.is_timeout() => {}
        other => return Err(format!("a spinning script gave {other:?}")),
    }
    let value = step("eval after the timeout", driver.eval("1 + 1").await)?;
    ensure!(value == 2, "1 + 1 gave {value}");
    match driver.navigate(&ctx.site.url("/spins")).await {
        Err(error) if error.is_timeout() => {}
        other => return Err(format!("a page that spins while loading gave {other:?}")),
    }
    let next = step(
        "navigate after the spinning page",
        driver.navigate(&ctx.site.url("/second")).await,
    )?;
    ensure!(
        next.url == ctx.site.url("/second"),
        "ended on {}",
        next.url.untrusted()
    );
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

async fn browser_gone_then_fresh(ctx: &Ctx) -> CheckResult {
    let (marker, driver) = marked(ctx);
    step("navigate", driver.navigate(&ctx.site.url("/")).await)?;
    let pids = marker.processes();
    ensure!(!pids.is_empty(), "no marked browser process found");
    kill(&pids);
    let left = until_ended(&pids).await;
    ensure!(left.is_empty(), "the killed browser still runs: {left:?}");
    let started = Instant::now();
    match driver.eval("1").await {
        Err(error) if error.is_browser_gone() => {}
        other => {
            return Err(format!(
                "a call after the browser was killed gave {other:?}"
            ))
        }
    }
    ensure!(
        started.elapsed() < Duration::from_secs(3),
        "noticing took {:?}",
        started.elapsed()
    );
    let page = step(
        "navigate with a fresh browser",
        driver.navigate(&ctx.site.url("/second")).await,
    )?;
    ensure!(page.status == Some(200), "the fresh browser gave {page:?}");
    step("close", driver.close().await)?;
    ensure!(
        marker.processes().is_empty(),
        "processes left: {:?}",
        marker.processes()
    );
    Ok(Verdict::Pass)
}

/// A tab whose renderer crashed: the next call says so (not a lost
/// browser, not an endless protocol error, not a wait to the timeout),
/// the tab is left for another, and the call after works. Twice: once
/// found by a script in the page's world, once by one in tabwright's.
async fn a_crashed_tab_is_left(ctx: &Ctx) -> CheckResult {
    // The test reaches the browser from outside, through a DevTools port
    // it asks for as a user may (tabwright's own browser has none).
    let marker = Marker::new();
    let mut options = ctx.options();
    options.extra_args.push(marker.flag());
    options
        .extra_args
        .push("--remote-debugging-port=0".to_owned());
    let driver = ctx.backend.driver(options);
    step("navigate", driver.navigate(&ctx.site.url("/")).await)?;
    let profile = marker
        .profile_dir()
        .ok_or("no marked browser process found")?;
    let mut devtools = crate::devtools::DevTools::of_profile(&profile).await?;
    for (round, isolated) in [("/", false), ("/second", true)] {
        devtools.crash_page(round).await?;
        let started = Instant::now();
        loop {
            let answer = if isolated {
                driver.eval_isolated(&[], "1").await
            } else {
                driver.eval("1").await
            };
            match answer {
                Err(DriverError::TabCrashed { .. }) => break,
                Ok(_) if started.elapsed() < Duration::from_secs(5) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                other => return Err(format!("a call after the tab crashed gave {other:?}")),
            }
        }
        ensure!(
            started.elapsed() < Duration::from_secs(5),
            "noticing the crash took {:?}",
            started.elapsed()
        );
        let page = step(
            "navigate after the crash",
            driver.navigate(&ctx.site.url("/second")).await,
        )?;
        ensure!(page.status == Some(200), "after the crash: {page:?}");
        let title = step("title", driver.eval("document.title").await)?;
        ensure!(title == "Second", "after the crash the page is {title}");
    }
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

async fn close_ends_everything(ctx: &Ctx) -> CheckResult {
    let (marker, driver) = marked(ctx);
    step("navigate", driver.navigate(&ctx.site.url("/")).await)?;
    step(
        "open a tab",
        driver.open_tab(Some(&ctx.site.url("/second"))).await,
    )?;
    let profile = marker
        .profile_dir()
        .ok_or("no marked browser process found")?;
    ensure!(
        profile.exists(),
        "the profile {} does not exist",
        profile.display()
    );
    let tree = marker.tree();
    ensure!(
        tree.len() > 2,
        "the browser's process tree is only {tree:?}"
    );
    step("close", driver.close().await)?;
    let left = until_ended(&tree).await;
    ensure!(
        left.is_empty(),
        "processes left after close: {left:?} of {tree:?}"
    );
    ensure!(
        !profile.exists(),
        "the temporary profile {} is still there",
        profile.display()
    );
    let zombies = unreaped(&tree);
    ensure!(zombies.is_empty(), "unreaped: {zombies:?}");
    Ok(Verdict::Pass)
}

async fn drop_ends_everything(ctx: &Ctx) -> CheckResult {
    let (marker, driver) = marked(ctx);
    step("navigate", driver.navigate(&ctx.site.url("/")).await)?;
    let profile = marker
        .profile_dir()
        .ok_or("no marked browser process found")?;
    let tree = marker.tree();
    ensure!(
        tree.len() > 2,
        "the browser's process tree is only {tree:?}"
    );
    drop(driver);
    let left = until_ended(&tree).await;
    ensure!(
        left.is_empty(),
        "processes left after drop: {left:?} of {tree:?}"
    );
    ensure!(
        !profile.exists(),
        "the temporary profile {} is still there",
        profile.display()
    );
    Ok(Verdict::Pass)
}

/// Waits (up to 3 s: a killed process takes the kernel a moment to tear
/// down) until none of `pids` runs, and returns those still running.
async fn until_ended(pids: &[u32]) -> Vec<u32> {
    let deadline = Instant::now() + Duration::from_secs(3);
    loop {
        let left = still_running(pids);
        if left.is_empty() || Instant::now() > deadline {
            return left;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn close_is_idempotent(ctx: &Ctx) -> CheckResult {
    let driver = ctx.driver();
    step("close before start", driver.close().await)?;
    step("navigate", driver.navigate(&ctx.site.url("/")).await)?;
    step("close", driver.close().await)?;
    step("close again", driver.close().await)?;
    Ok(Verdict::Pass)
}

async fn screencast(ctx: &Ctx) -> CheckResult {
    let frames = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&frames);
    let mut options = ctx.options();
    options.on_frame = Some(Arc::new(move |frame| {
        if frame.jpeg.starts_with(&[0xFF, 0xD8]) {
            counter.fetch_add(1, Ordering::Relaxed);
        }
    }));
    let driver = ctx.backend.driver(options);
    if let Some(reason) = driver.capabilities().reason(Capability::Screencast) {
        // Nothing to call: frames simply never come.
        return Ok(Verdict::Unsupported {
            capability: Capability::Screencast,
            reason: reason.to_owned(),
        });
    }
    step(
        "navigate",
        driver.navigate(&ctx.site.url("/animated")).await,
    )?;
    let deadline = Instant::now() + Duration::from_secs(5);
    while frames.load(Ordering::Relaxed) < 3 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let seen = frames.load(Ordering::Relaxed);
    ensure!(
        seen >= 3,
        "only {seen} JPEG frames of an animated page in 5 s"
    );
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

/// Every file under `dir` called `name`.
fn files_named(dir: &std::path::Path, name: &str) -> Vec<std::path::PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .flat_map(|entry| {
            let path = entry.path();
            if path.is_dir() {
                files_named(&path, name)
            } else if entry.file_name().to_string_lossy().starts_with(name) {
                vec![path]
            } else {
                Vec::new()
            }
        })
        .collect()
}

async fn downloads_are_refused(ctx: &Ctx) -> CheckResult {
    let (marker, driver) = marked(ctx);
    step(
        "navigate",
        driver.navigate(&ctx.site.url("/download")).await,
    )?;
    let profile = marker
        .profile_dir()
        .ok_or("no marked browser process found")?;
    step("click the download link", driver.click("#get").await)?;
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut reported = Vec::new();
    let unsupported = loop {
        match needs(
            driver.as_ref(),
            Capability::DownloadReports,
            "downloads",
            driver.downloads().await,
        )? {
            Needed::Value(seen) => reported.extend(seen),
            Needed::Unsupported(outcome) => break Some(outcome),
        }
        if !reported.is_empty() || Instant::now() > deadline {
            break None;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    ensure!(
        unsupported.is_some()
            || reported
                .iter()
                .any(|download| download.filename == "report.pdf"
                    && download.url.untrusted().ends_with("/report.pdf")),
        "the download attempt was not reported: {reported:?}"
    );
    let title = step("title", driver.eval("document.title").await)?;
    ensure!(title == "Download", "the page changed to {title}");
    // Give a download that slipped through time to land, then look.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let mut landed = files_named(&profile, "report");
    if let Some(home) = std::env::var_os("HOME") {
        landed.extend(files_named(
            &std::path::Path::new(&home).join("Downloads"),
            "report",
        ));
    }
    landed.extend(files_named(&std::env::temp_dir(), "report.pdf"));
    ensure!(landed.is_empty(), "the download landed: {landed:?}");
    step("close", driver.close().await)?;
    Ok(unsupported.unwrap_or(Verdict::Pass))
}

async fn dialogs_never_block(ctx: &Ctx) -> CheckResult {
    let driver = ctx.driver();
    step("navigate", driver.navigate(&ctx.site.url("/dialogs")).await)?;
    let none = step("look for a dialog", driver.dialog().await)?;
    ensure!(none.is_none(), "a dialog before any was opened: {none:?}");
    match driver.answer_dialog(true, None).await {
        Err(DriverError::NoDialog) => {}
        other => return Err(format!("answering no dialog gave {other:?}")),
    }
    // The click that opens a dialog may end as soon as it is open (CDP) or
    // return normally (WebDriver); either way no call hangs.
    match driver.click("#alert").await {
        Ok(()) | Err(DriverError::DialogOpen { .. }) => {}
        Err(other) => return Err(format!("clicking #alert: {other}")),
    }
    match driver.eval("1 + 1").await {
        Err(DriverError::DialogOpen { message, .. }) if message == "Hello there" => {}
        other => return Err(format!("a script under an open alert gave {other:?}")),
    }
    let open = step("look for the dialog", driver.dialog().await)?;
    let Some(open) = open else {
        return Err("the open alert is not reported".to_owned());
    };
    ensure!(open.message == "Hello there", "the alert says {open:?}");
    ensure!(
        matches!(open.kind, DialogKind::Alert | DialogKind::Unknown),
        "an alert reported as {:?}",
        open.kind
    );
    let tabs = step("list tabs under a dialog", driver.tabs().await)?;
    ensure!(tabs.len() == 1, "tabs under a dialog: {tabs:?}");
    step("accept the alert", driver.answer_dialog(true, None).await)?;
    let sum = step("evaluate after the alert", driver.eval("1 + 1").await)?;
    ensure!(sum == 2, "1 + 1 = {sum}");

    for (button, accept, text, expected) in [
        ("#confirm", false, None, "no"),
        ("#confirm", true, None, "yes"),
        ("#prompt", true, Some("Ada"), "Ada"),
    ] {
        match driver.click(button).await {
            Ok(()) | Err(DriverError::DialogOpen { .. }) => {}
            Err(other) => return Err(format!("clicking {button}: {other}")),
        }
        step("answer", driver.answer_dialog(accept, text).await)?;
        let out = step("read #out", driver.text("#out").await)?;
        ensure!(
            out == expected,
            "{button} answered {accept} {text:?}: the page says {out:?}"
        );
    }
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

async fn hover_and_wheel(ctx: &Ctx) -> CheckResult {
    let driver = ctx.driver();
    step("navigate", driver.navigate(&ctx.site.url("/dialogs")).await)?;
    // The div is 200×50 at the page's left edge, under three buttons.
    let top = step(
        "find the hover target",
        driver
            .eval("document.getElementById('hover-me').getBoundingClientRect().top")
            .await,
    )?;
    let top = top.as_f64().unwrap_or_default();
    step("move the mouse", driver.move_mouse(100.0, top + 25.0).await)?;
    let out = step("read #out", driver.text("#out").await)?;
    ensure!(out == "hovered", "after the hover #out says {out:?}");

    let box_top = step(
        "find the box",
        driver
            .eval("document.getElementById('box').getBoundingClientRect().top")
            .await,
    )?;
    let box_top = box_top.as_f64().unwrap_or_default();
    // The driver waits for a painted frame before a wheel, which made a
    // lost wheel rare on a busy machine (load 10 on 2 cores: from about
    // one run in two to one in twenty) but not impossible: Chromium can
    // still drop one there. A wheel that scrolled nothing at all is sent
    // once more; one that scrolled the wrong thing fails at once.
    let mut scrolled = false;
    for _ in 0..2 {
        step(
            "wheel over the box",
            driver.wheel(100.0, box_top + 50.0, 0.0, 300.0).await,
        )?;
        scrolled = until_true(
            driver.as_ref(),
            "document.getElementById('box').scrollTop > 0 && scrollY === 0",
        )
        .await;
        let nothing = driver
            .eval("document.getElementById('box').scrollTop === 0 && scrollY === 0")
            .await;
        if scrolled || !matches!(nothing, Ok(serde_json::Value::Bool(true))) {
            break;
        }
    }
    if !scrolled {
        let seen = driver
            .eval("[document.getElementById('box').scrollTop, scrollY, document.getElementById('box').getBoundingClientRect().top]")
            .await;
        return Err(format!(
            "the wheel over the box (at y {}) did not scroll the box alone: [box scrollTop, scrollY, box top] = {seen:?}",
            box_top + 50.0
        ));
    }
    step(
        "wheel over the page",
        driver.wheel(600.0, 400.0, 0.0, 500.0).await,
    )?;
    ensure!(
        until_true(driver.as_ref(), "scrollY > 0").await,
        "the wheel over the page did not scroll it"
    );
    match driver.wheel(10.0, 10.0, f64::NAN, 0.0).await {
        Err(DriverError::InvalidArgument(_)) => {}
        other => return Err(format!("a NaN scroll gave {other:?}")),
    }
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

/// Polls a page expression for up to two seconds: a wheel scroll lands a
/// frame or two after the event.
async fn until_true(driver: &dyn Driver, expression: &str) -> bool {
    for _ in 0..40 {
        if let Ok(serde_json::Value::Bool(true)) = driver.eval(expression).await {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

/// A DevTools command reaches the current tab (a PDF of it), and the
/// network log holds the page's own request, its status and type, where the
/// session keeps one.
async fn devtools_and_network_log(ctx: &Ctx) -> CheckResult {
    let mut options = ctx.options();
    options.network_log = true;
    let driver = ctx.backend.driver(options);
    let home = ctx.site.url("/");
    step("navigate", driver.navigate(&home).await)?;
    let printed = match needs(
        driver.as_ref(),
        Capability::DevTools,
        "print to PDF",
        driver
            .devtools("Page.printToPDF", serde_json::json!({}))
            .await,
    )? {
        Needed::Value(printed) => printed,
        Needed::Unsupported(outcome) => return Ok(outcome),
    };
    ensure!(
        printed["data"]
            .as_str()
            .is_some_and(|data| data.starts_with("JVBER")),
        "not a PDF: {:.100}",
        printed.to_string()
    );
    let log = match needs(
        driver.as_ref(),
        Capability::NetworkLog,
        "read the network log",
        driver.network_log().await,
    )? {
        Needed::Value(log) => log,
        Needed::Unsupported(outcome) => return Ok(outcome),
    };
    ensure!(
        log.iter().any(|request| request.url == home
            && request.kind == "Document"
            && request.status == Some(200)
            && request.method == "GET"),
        "the page's own request is not in the log: {log:?}"
    );
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

/// What a caller keeps for tabwright's world (`Driver::preload`, given
/// before the browser starts, as the tool pack gives its page scripts) has
/// run in every document the tab loads, frames included, at its start; the
/// page's own world does not see it.
async fn preloads_reach_every_document(ctx: &Ctx) -> CheckResult {
    let driver = ctx.driver();
    driver.preload("globalThis.__kept = { url: document.URL, state: document.readyState };");
    ctx.site
        .page(
            "/framed",
            r#"<!doctype html><title>Framed</title><iframe src="/second"></iframe>"#,
        )
        .await;
    let kept = "typeof __kept === 'object' ? __kept : null";
    let seen = async |frame: &[u32], url: &str| -> Result<(), String> {
        let found = step(
            "read what was kept",
            driver.eval_isolated(frame, kept).await,
        )?;
        ensure!(
            found["url"] == url,
            "in {url} (frame {frame:?}) tabwright's world holds {found}"
        );
        ensure!(
            found["state"] == "loading",
            "it ran in {url} once the document was {}, not at its start",
            found["state"]
        );
        Ok(())
    };
    for path in ["/", "/second", "/framed"] {
        let url = ctx.site.url(path);
        step("navigate", driver.navigate(&url).await)?;
        seen(&[], &url).await?;
        let page = step(
            "look from the page",
            driver.eval("typeof window.__kept").await,
        )?;
        ensure!(page == "undefined", "the page's world sees it: {page}");
    }
    seen(&[0], &ctx.site.url("/second")).await?;
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

/// The pixels of a PNG's box (`x`, `y`, width, height) that are dark:
/// every channel below 100.
fn dark_pixels(png: &[u8], [x, y, width, height]: [usize; 4]) -> Result<usize, String> {
    let (pixels, channels, columns, rows) = decoded_png(png)?;
    let mut dark = 0;
    for row in y..(y + height).min(rows) {
        for column in x..(x + width).min(columns) {
            let at = (row * columns + column) * channels;
            if pixels[at..at + channels.min(3)]
                .iter()
                .all(|&value| value < 100)
            {
                dark += 1;
            }
        }
    }
    Ok(dark)
}

/// A paint probe pictures the page as drawn, then after each step's
/// scripts (in tabwright's world, in the top document and in a frame's)
/// the page with that text taken out of the paint by the probe's sheet,
/// with and without markers; puts the paint back after; and the page
/// hears nothing of it: no mutation, no event, no new style sheet, no
/// computed style changed.
async fn paint_probe_pictures_the_paint(ctx: &Ctx) -> CheckResult {
    let listen = r#"<script>
        window.heard = [];
        new MutationObserver((records) => heard.push(`mutation of ${records[0].target.nodeName}`))
          .observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
        // (The window's own focus comes and goes with the harness: WebDriver
        // brings its window forward. An element's focus is the page's.)
        const hear = (event) => { if (event.target !== window) heard.push(event.type); };
        for (const type of ["focus", "blur", "resize", "scroll", "pointermove", "visibilitychange",
                            "selectionchange", "animationstart", "transitionrun"]) {
          addEventListener(type, hear, true);
          document.addEventListener(type, hear, true);
        }
        window.sheets = document.styleSheets.length;
        </script>"#;
    ctx.site
        .page(
            "/painted-inner",
            &format!(
                "<!doctype html><style>body {{ margin: 0; background: #fff }}</style>\
                 <div id=words style='position: absolute; left: 0; top: 0; \
                 font: bold 64px sans-serif; color: #000'>FRAME</div>{listen}"
            ),
        )
        .await;
    ctx.site
        .page(
            "/painted",
            &format!(
                "<!doctype html><title>Painted</title><style>body {{ margin: 0; background: #fff }} \
                 #words {{ position: absolute; left: 40px; top: 40px; font: bold 64px sans-serif; color: #000 }} \
                 iframe {{ position: absolute; left: 40px; top: 300px; width: 500px; height: 200px; border: 0 }}</style>\
                 <div id=words>WORDS</div><iframe src='/painted-inner'></iframe>{listen}"
            ),
        )
        .await;
    let driver = ctx.driver();
    step("navigate", driver.navigate(&ctx.site.url("/painted")).await)?;
    let take_out = |frame: Vec<u32>| FrameScript {
        frame,
        expression: "(() => { const range = new Range(); \
                     range.selectNodeContents(document.getElementById('words')); \
                     CSS.highlights.set('conformance', new Highlight(range)); return true; })()"
            .to_owned(),
    };
    let put_back = |frame: Vec<u32>| FrameScript {
        frame,
        expression: "CSS.highlights.delete('conformance')".to_owned(),
    };
    const WORDS: [usize; 4] = [40, 40, 400, 80];
    const FRAME: [usize; 4] = [40, 300, 400, 80];
    for (still, marked) in [(true, false), (false, true)] {
        let probe = PaintProbe {
            sheet: "::highlight(conformance) { color: transparent; }".to_owned(),
            frames: vec![vec![], vec![0]],
            steps: vec![vec![], vec![take_out(vec![])], vec![take_out(vec![0])]],
            after: vec![put_back(vec![]), put_back(vec![0])],
            still,
            marked,
        };
        let pictures = match needs(
            driver.as_ref(),
            Capability::PaintProbe,
            "paint probe",
            driver.paint_probe(&probe).await,
        )? {
            Needed::Value(pictures) => pictures,
            Needed::Unsupported(outcome) => return Ok(outcome),
        };
        ensure!(
            pictures.len() == 3,
            "{} pictures for three steps",
            pictures.len()
        );
        let mut dark = Vec::new();
        for picture in &pictures {
            ensure!(
                png_size(picture) == Some((1280, 800)),
                "a picture is {:?}, not the 1280x800 viewport",
                png_size(picture)
            );
            dark.push((dark_pixels(picture, WORDS)?, dark_pixels(picture, FRAME)?));
        }
        let expected = |(words, frame): (usize, usize), shown: (bool, bool)| {
            (words > 500) == shown.0
                && (words < 20) != shown.0
                && (frame > 500) == shown.1
                && (frame < 20) != shown.1
        };
        ensure!(
            expected(dark[0], (true, true))
                && expected(dark[1], (false, true))
                && expected(dark[2], (false, false)),
            "(still {still}, marked {marked}) dark pixels of the page's words and the frame's, \
             as drawn and after each step: {dark:?}"
        );
        let shot = step(
            "PNG after the probe",
            driver.screenshot(ScreenshotOptions::default()).await,
        )?;
        let back = (dark_pixels(&shot, WORDS)?, dark_pixels(&shot, FRAME)?);
        ensure!(
            back.0 > 500 && back.1 > 500,
            "after the probe the words are not painted back: {back:?} dark pixels"
        );
    }
    let style = "[heard, document.styleSheets.length - sheets, \
                 getComputedStyle(document.getElementById('words')).color]";
    for frame in [&[][..], &[0]] {
        let page = step(
            "what the page heard",
            driver.eval_in_frame(frame, style).await,
        )?;
        ensure!(
            page == serde_json::json!([[], 0, "rgb(0, 0, 0)"]),
            "the page (frame {frame:?}) noticed the probe: [heard, new sheets, colour] = {page}"
        );
    }
    Ok(Verdict::Pass)
}

/// A handover gives tabwright's world what no script there can read: a
/// closed shadow root (in the top document and in a frame's), and what
/// Chromium's accessibility tree says of a custom element whose role,
/// name and state only `ElementInternals` declares; an element that is in
/// no document yet is handed over as it is; the page's world sees nothing
/// of the roots.
async fn hand_over_gives_closed_roots_and_the_tree(ctx: &Ctx) -> CheckResult {
    let components = r#"<div role=listbox><x-pick>Apple</x-pick></div><x-sealed></x-sealed>
        <script>
        customElements.define("x-pick", class extends HTMLElement {
          constructor() { super(); const inner = this.attachInternals();
            inner.role = "option"; inner.ariaLabel = "Apple pie"; inner.ariaSelected = "true"; } });
        customElements.define("x-sealed", class extends HTMLElement {
          constructor() { super(); this.attachShadow({ mode: "closed" }).innerHTML = "<b>sealed words</b>"; } });
        window.listed = () => [document.querySelector("x-pick"), document.querySelector("x-sealed"),
                               document.createElement("div")];
        </script>"#;
    ctx.site
        .page("/sealed-inner", &format!("<!doctype html>{components}"))
        .await;
    ctx.site
        .page(
            "/sealed",
            &format!("<!doctype html><title>Sealed</title>{components}<iframe src='/sealed-inner'></iframe>"),
        )
        .await;
    let driver = ctx.driver();
    step("navigate", driver.navigate(&ctx.site.url("/sealed")).await)?;
    let receive = "function (facts, ...nodes) { \
        return [facts, nodes.map((node) => node === undefined ? null : \
          node.nodeType === 11 ? node.innerHTML : node.localName)]; }";
    for frame in [vec![], vec![0]] {
        let handover = Handover {
            frame: frame.clone(),
            elements: "listed()".to_owned(),
            receive: receive.to_owned(),
            accessible: true,
        };
        let handed = match needs(
            driver.as_ref(),
            Capability::BrowserTree,
            "hand over",
            driver.hand_over(&handover).await,
        )? {
            Needed::Value(handed) => handed,
            Needed::Unsupported(outcome) => return Ok(outcome),
        };
        let nodes = &handed[1];
        ensure!(
            *nodes
                == serde_json::json!([
                    "x-pick",
                    null,
                    "x-sealed",
                    "<b>sealed words</b>",
                    "div",
                    null
                ]),
            "in frame {frame:?} the elements and roots handed over are {nodes}"
        );
        let pick = &handed[0][0];
        ensure!(
            pick["role"] == "option"
                && pick["name"] == "Apple pie"
                && pick["from"] == "attribute"
                && pick["states"]["selected"] == true,
            "in frame {frame:?} Chromium's tree said of the option {pick}"
        );
    }
    let page = step(
        "the page's view",
        driver
            .eval("document.querySelector('x-sealed').shadowRoot === null")
            .await,
    )?;
    ensure!(page == true, "the closed root opened to the page");
    Ok(Verdict::Pass)
}
