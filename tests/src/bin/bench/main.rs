//! `cargo xtask bench [--backend cdp|all] [--runs N] [--only PART]`: what a driver call
//! costs on this machine, as medians (and the worst) of repeated runs against
//! the fixture site on loopback.
//!
//! - cold start: a new driver to the first page loaded (browser start included);
//! - navigate: a small local page, browser warm;
//! - eval: one `1` round trip;
//! - click: a button by selector (locate, scroll, mouse press and release);
//! - screenshot: a 1280x800 PNG of the viewport;
//! - memory: the browser's whole process tree with one idle page, as PSS
//!   (shared pages divided among the processes sharing them: the honest sum)
//!   and RSS (which counts shared pages in every process);
//! - snapshots: build time on the 5,000-link page and size per fixture;
//! - the tool pack: open→snapshot, click→snapshot (static page, and a page
//!   that re-renders after the click), type→snapshot, screenshot, as a model
//!   waits for them (settling included).

use std::time::{Duration, Instant};

use driver_core::{Options, ScreenshotOptions};
use guard::{AllowedOrigin, EgressProxy, Guard, Policy};
use tabwright_tests::backend::Marker;
use tabwright_tests::http;
use tabwright_tests::site::Site;
use tabwright_tests::Backend;

#[tokio::main]
async fn main() -> Result<(), String> {
    let mut wanted = "all".to_owned();
    let mut runs = 20usize;
    let mut only: Option<String> = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--backend" => wanted = args.next().unwrap_or_default(),
            "--only" => only = args.next(),
            "--runs" => {
                runs = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(runs)
                    .max(3)
            }
            other => {
                return Err(format!(
                    "unknown argument {other:?}; usage: bench [--backend NAME|all] [--runs N] [--only {}]",
                    PARTS.join("|")
                ))
            }
        }
    }
    if let Some(part) = only.as_deref().filter(|part| !PARTS.contains(part)) {
        return Err(format!(
            "unknown part {part:?}; the parts: {}",
            PARTS.join(", ")
        ));
    }
    let wants = |part: &str| only.as_deref().is_none_or(|only| only == part);
    let backends: Vec<Backend> = if wanted == "all" {
        Backend::ALL.to_vec()
    } else {
        vec![Backend::by_name(&wanted).ok_or(format!("unknown backend {wanted:?}"))?]
    };
    let site = Site::start().await;
    println!(
        "{runs} runs each (cold start: {} runs); median / worst",
        runs.div_ceil(4)
    );
    if wants("drivers") {
        drivers(&site, &backends, runs).await?;
    }
    if wants("guard") {
        println!();
        println!("the guard's cost: a page with 100 uncached images, loaded {} times each way (median / worst)", runs.div_ceil(2));
        for &backend in &backends {
            println!(
                "{:<12}{}",
                backend.name(),
                guard_cost(backend, &site, runs.div_ceil(2)).await?
            );
        }
        println!(
            "egress proxy throughput: {}",
            proxy_throughput(&site).await?
        );
    }
    if wants("snapshot") {
        println!();
        for &backend in &backends {
            snapshot_costs(backend, runs).await?;
        }
    }
    if wants("tools") {
        println!();
        println!(
            "the tool pack, as a model calls it (settling and the snapshot included); median / worst"
        );
        println!(
            "{:<12}{:>24}{:>24}{:>24}{:>24}{:>24}",
            "backend",
            "open→snapshot",
            "click→snapshot",
            "click→re-render",
            "type→snapshot",
            "screenshot"
        );
        for &backend in &backends {
            tool_costs(backend, runs).await?;
        }
    }
    Ok(())
}

/// What `--only` can pick.
const PARTS: [&str; 4] = ["drivers", "guard", "snapshot", "tools"];

/// The driver calls themselves, per backend.
async fn drivers(site: &Site, backends: &[Backend], runs: usize) -> Result<(), String> {
    println!(
        "{:<12}{:>22}{:>22}{:>22}{:>22}{:>22}{:>26}",
        "backend", "cold start", "navigate", "eval", "click", "screenshot", "memory PSS / RSS"
    );
    for &backend in backends {
        let row = measure(backend, site, runs).await?;
        println!(
            "{:<12}{:>22}{:>22}{:>22}{:>22}{:>22}{:>26}",
            backend.name(),
            row.cold_start,
            row.navigate,
            row.eval,
            row.click,
            row.screenshot,
            row.memory
        );
    }
    Ok(())
}

const STATIC: &str = r#"<!doctype html><html><head><title>Static</title></head><body>
<h1>A static page</h1><p>Some text to read.</p><button>Does nothing</button>
<label>Name <input name="name"></label></body></html>"#;

/// What a model waits for, per tool call: `open` over the fixtures (not the
/// 5,000-link page), a click on a static page and on a page that re-renders
/// 50 ms after the click, typing into a field, a screenshot.
async fn tool_costs(backend: Backend, runs: usize) -> Result<(), String> {
    use serde_json::json;
    use tools::{Pack, PackOptions};
    let site = Site::with_fixtures().await;
    site.page("/static", STATIC).await;
    let mut allowed = vec![AllowedOrigin::parse(&site.origin()).map_err(|e| e.to_string())?];
    if let Some(other) = site.other_origin() {
        allowed.push(AllowedOrigin::parse(&other).map_err(|e| e.to_string())?);
    }
    let policy = Policy {
        allowed_origins: allowed,
        ..Policy::default()
    };
    let pack = Pack::new(
        backend.guarded(Options::default(), Guard::new(policy)),
        PackOptions::default(),
    );
    let call = |tool: &'static str, arguments: serde_json::Value| {
        let pack = &pack;
        async move {
            let started = Instant::now();
            let output = pack.call(tool, arguments.clone()).await;
            if output.is_error {
                return Err(format!("{tool} {arguments}: {}", output.text));
            }
            Ok((started.elapsed(), output.text))
        }
    };
    let number = |text: &str, needle: &str| -> Result<u32, String> {
        tools::element_number(text, needle).ok_or(format!("no {needle}"))
    };
    // Warm up: the browser starts on the first call.
    call("open", json!({ "url": site.url("/static") })).await?;

    let mut opens = Vec::new();
    for _ in 0..runs.div_ceil(4) {
        for (name, _) in tabwright_tests::site::FIXTURES {
            if matches!(*name, "frame-inner.html" | "links.html") {
                continue;
            }
            let url = site.url(&format!("/fx/{name}"));
            opens.push(call("open", json!({ "url": url })).await?.0);
        }
    }

    let (_, text) = call("open", json!({ "url": site.url("/static") })).await?;
    let button = number(&text, "Does nothing")?;
    let field = number(&text, "textbox")?;
    let mut clicks = Vec::new();
    let mut types = Vec::new();
    let mut shots = Vec::new();
    for run in 0..runs {
        clicks.push(call("click", json!({ "element": button })).await?.0);
        let text = format!("Ada {run}");
        types.push(
            call("type", json!({ "element": field, "text": text }))
                .await?
                .0,
        );
        shots.push(call("screenshot", json!({})).await?.0);
    }

    let (_, mut text) = call("open", json!({ "url": site.url("/fx/spa.html") })).await?;
    let mut renders = Vec::new();
    for _ in 0..runs {
        let target =
            number(&text, "Open the first message").or_else(|_| number(&text, "Back to inbox"))?;
        let (took, after) = call("click", json!({ "element": target })).await?;
        if !(after.contains("Hello from Ada") || after.contains("2 unread")) {
            return Err(format!("the re-render was not waited for:\n{after}"));
        }
        renders.push(took);
        text = after;
    }
    pack.close().await;
    println!(
        "{:<12}{:>24}{:>24}{:>24}{:>24}{:>24}",
        backend.name(),
        summary(&mut opens),
        summary(&mut clicks),
        summary(&mut renders),
        summary(&mut types),
        summary(&mut shots)
    );
    Ok(())
}

/// Snapshot build time on the 5,000-link page (in the page, and end to end
/// through the driver), and the size of every fixture's snapshot in tokens
/// (counted as characters / 4).
async fn snapshot_costs(backend: Backend, runs: usize) -> Result<(), String> {
    use marks::Marks;
    let site = Site::with_fixtures().await;
    let driver = backend.driver(Options::default());
    let marks = Marks::new();
    driver
        .navigate(&site.url("/fx/links.html"))
        .await
        .map_err(|e| e.to_string())?;
    let in_page = |full: bool| {
        format!(
            "(() => {{ const started = performance.now(); \
             const found = ({})({{ op: 'snapshot', margin: 200, full: {full} }}, 0); \
             return [performance.now() - started, found.elements.length]; }})()",
            marks::SNAPSHOT_JS
        )
    };
    // The default scope (what a model gets unless it asks for more), then
    // the full page; in the page alone, then end to end (the script sent,
    // run, its answer decoded, numbered and rendered).
    for full_page in [false, true] {
        let script = in_page(full_page);
        let mut page_time = Vec::new();
        let mut whole = Vec::new();
        for _ in 0..runs {
            let measured = driver.eval(&script).await.map_err(|e| e.to_string())?;
            page_time.push(Duration::from_secs_f64(
                measured[0].as_f64().unwrap_or_default() / 1000.0,
            ));
            let started = Instant::now();
            snapshot_text(&marks, driver.as_ref(), full_page).await?;
            whole.push(started.elapsed());
        }
        println!(
            "{}: snapshot of 5,000 links, {}: in the page {}, end to end {}",
            backend.name(),
            if full_page {
                "full page"
            } else {
                "default scope"
            },
            summary(&mut page_time),
            summary(&mut whole)
        );
    }
    print!(
        "{}: snapshot tokens (chars/4), default scope / full page (page content alone):",
        backend.name()
    );
    for (name, _) in tabwright_tests::site::FIXTURES {
        if *name == "frame-inner.html" {
            continue;
        }
        driver
            .navigate(&site.url(&format!("/fx/{name}")))
            .await
            .map_err(|e| e.to_string())?;
        // Numbers are never reused in a tab, so after the 5,000-link page they
        // have four digits; a model opening this page first would see 1, 2, 3.
        let marks = Marks::new();
        let mut sizes = Vec::new();
        for full_page in [false, true] {
            let text = snapshot_text(&marks, driver.as_ref(), full_page).await?;
            sizes.push(text.len() / 4);
            if full_page {
                // The page's own lines, without the title, URL and fences
                // (an MCP response carries those around any format).
                let body = text
                    .split_once(marks::CONTENT_START)
                    .and_then(|(_, rest)| rest.split_once(marks::CONTENT_END))
                    .map_or(0, |(body, _)| body.trim().len());
                sizes.push(body / 4);
            }
        }
        print!(
            " {} {}/{} ({} content);",
            name.trim_end_matches(".html"),
            sizes[0],
            sizes[1],
            sizes[2]
        );
    }
    println!();
    driver.close().await.map_err(|e| e.to_string())?;
    Ok(())
}

/// A snapshot of the current page, rendered as a model reads it.
async fn snapshot_text(
    marks: &marks::Marks,
    driver: &dyn driver_core::Driver,
    full_page: bool,
) -> Result<String, String> {
    let options = marks::SnapshotOptions {
        full_page,
        scope: None,
    };
    let snapshot = marks
        .snapshot(driver, options)
        .await
        .map_err(|error| error.to_string())?;
    Ok(snapshot.render(marks::RenderOptions::default()))
}

/// Load time of the 100-image page without and with the guard.
async fn guard_cost(backend: Backend, site: &Site, runs: usize) -> Result<String, String> {
    let page = site.url("/hundred");
    let load = |driver: Box<dyn driver_core::Driver>| {
        let page = page.clone();
        async move {
            driver
                .navigate(&site.url("/"))
                .await
                .map_err(|e| e.to_string())?;
            let mut samples = Vec::new();
            for _ in 0..runs {
                let started = Instant::now();
                driver.navigate(&page).await.map_err(|e| e.to_string())?;
                samples.push(started.elapsed());
            }
            driver.close().await.map_err(|e| e.to_string())?;
            samples.sort_unstable();
            Ok::<_, String>(samples)
        }
    };
    let plain = load(backend.driver(Options::default())).await?;
    let policy = Policy {
        allowed_origins: vec![AllowedOrigin::parse(&site.origin()).map_err(|e| e.to_string())?],
        ..Policy::default()
    };
    let guarded = load(Box::new(
        backend.guarded(Options::default(), Guard::new(policy)),
    ))
    .await?;
    let median = |samples: &[Duration]| samples.get(samples.len() / 2).copied().unwrap_or_default();
    let ratio = median(&guarded).as_secs_f64() / median(&plain).as_secs_f64().max(1e-9);
    Ok(format!(
        "without the guard {} / {}, through the guard {} / {}: x{ratio:.2} ({:+.0}%)",
        millis(median(&plain)),
        millis(plain.last().copied().unwrap_or_default()),
        millis(median(&guarded)),
        millis(guarded.last().copied().unwrap_or_default()),
        (ratio - 1.0) * 100.0
    ))
}

/// Requests per second the proxy relays: 8 kept-alive client connections
/// asking for a tiny image in a loop for 2 seconds.
async fn proxy_throughput(site: &Site) -> Result<String, String> {
    let policy = Policy {
        allowed_origins: vec![AllowedOrigin::parse(&site.origin()).map_err(|e| e.to_string())?],
        ..Policy::default()
    };
    let proxy = EgressProxy::start(Guard::new(policy))
        .await
        .map_err(|e| e.to_string())?;
    let address = proxy.address();
    let target = site.url("/img/0.png");
    let host = site.origin().trim_start_matches("http://").to_owned();
    let until = Instant::now() + Duration::from_secs(2);
    let clients = (0..8).map(|_| {
        let (target, host) = (target.clone(), host.clone());
        tokio::spawn(async move {
            let Ok(stream) = tokio::net::TcpStream::connect(address).await else {
                return 0usize;
            };
            let mut stream = tokio::io::BufReader::new(stream);
            let mut done = 0;
            while Instant::now() < until {
                let (status, ..) = http::exchange(&mut stream, &http::get(&target, &host)).await;
                if status != 200 {
                    break;
                }
                done += 1;
            }
            done
        })
    });
    let mut total = 0;
    for client in clients {
        total += client.await.unwrap_or(0);
    }
    Ok(format!(
        "{:.0} requests/s (8 client connections; every request judged, upstream connections reused only to the address judged)",
        total as f64 / 2.0
    ))
}

struct Row {
    cold_start: String,
    navigate: String,
    eval: String,
    click: String,
    screenshot: String,
    memory: String,
}

async fn measure(backend: Backend, site: &Site, runs: usize) -> Result<Row, String> {
    let fail = |what: &str| {
        let what = what.to_owned();
        move |error: driver_core::DriverError| format!("{}: {what}: {error}", backend.name())
    };
    let mut cold = Vec::new();
    for _ in 0..runs.div_ceil(4) {
        let driver = backend.driver(Options::default());
        let started = Instant::now();
        driver
            .navigate(&site.url("/"))
            .await
            .map_err(fail("cold start"))?;
        cold.push(started.elapsed());
        driver.close().await.map_err(fail("close"))?;
    }

    let marker = Marker::new();
    let options = Options {
        extra_args: vec![marker.flag()],
        ..Options::default()
    };
    let driver = backend.driver(options);
    driver
        .navigate(&site.url("/"))
        .await
        .map_err(fail("warm up"))?;
    let navigate = time(runs, || async {
        driver.navigate(&site.url("/second")).await.map(|_| ())
    })
    .await
    .map_err(fail("navigate"))?;
    let eval = time(runs * 5, || async { driver.eval("1").await.map(|_| ()) })
        .await
        .map_err(fail("eval"))?;
    driver
        .navigate(&site.url("/form"))
        .await
        .map_err(fail("form"))?;
    let click = time(runs, || async { driver.click("#go").await })
        .await
        .map_err(fail("click"))?;
    let screenshot = time(runs.div_ceil(2), || async {
        driver
            .screenshot(ScreenshotOptions::default())
            .await
            .map(|_| ())
    })
    .await
    .map_err(fail("screenshot"))?;
    driver
        .navigate(&site.url("/"))
        .await
        .map_err(fail("idle page"))?;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let memory = memory_of(&marker.tree_and_driver());
    driver.close().await.map_err(fail("close"))?;
    Ok(Row {
        cold_start: summary(&mut cold),
        navigate,
        eval,
        click,
        screenshot,
        memory,
    })
}

async fn time<F, Fut>(runs: usize, mut call: F) -> Result<String, driver_core::DriverError>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<(), driver_core::DriverError>>,
{
    let mut samples = Vec::with_capacity(runs);
    for _ in 0..runs {
        let started = Instant::now();
        call().await?;
        samples.push(started.elapsed());
    }
    Ok(summary(&mut samples))
}

fn summary(samples: &mut [Duration]) -> String {
    samples.sort_unstable();
    let median = samples.get(samples.len() / 2).copied().unwrap_or_default();
    let worst = samples.last().copied().unwrap_or_default();
    format!("{} / {}", millis(median), millis(worst))
}

fn millis(duration: Duration) -> String {
    format!("{:.1} ms", duration.as_secs_f64() * 1000.0)
}

/// PSS and RSS of the processes, summed, from `/proc/PID/smaps_rollup`.
fn memory_of(pids: &[u32]) -> String {
    let (mut pss, mut rss) = (0u64, 0u64);
    for pid in pids {
        let Ok(rollup) = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")) else {
            continue;
        };
        for line in rollup.lines() {
            let kib = |prefix: &str| {
                line.strip_prefix(prefix)
                    .and_then(|rest| rest.split_whitespace().next())
                    .and_then(|n| n.parse::<u64>().ok())
            };
            if let Some(value) = kib("Pss:") {
                pss += value;
            } else if let Some(value) = kib("Rss:") {
                rss += value;
            }
        }
    }
    format!("{} / {} MiB ({} procs)", pss / 1024, rss / 1024, pids.len())
}
