//! `cargo xtask bench [--backend cdp|all] [--runs N]`: what a driver call
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
//!   and RSS (which counts shared pages in every process).

use std::time::{Duration, Instant};

use driver_core::{Options, ScreenshotOptions};
use tabwright_tests::backend::Marker;
use tabwright_tests::site::Site;
use tabwright_tests::Backend;

#[tokio::main]
async fn main() -> Result<(), String> {
    let mut wanted = "all".to_owned();
    let mut runs = 20usize;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--backend" => wanted = args.next().unwrap_or_default(),
            "--runs" => {
                runs = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(runs)
                    .max(3)
            }
            other => {
                return Err(format!(
                    "unknown argument {other:?}; usage: bench [--backend NAME|all] [--runs N]"
                ))
            }
        }
    }
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
    println!(
        "{:<12}{:>22}{:>22}{:>22}{:>22}{:>22}{:>26}",
        "backend", "cold start", "navigate", "eval", "click", "screenshot", "memory PSS / RSS"
    );
    for backend in backends {
        let row = measure(backend, &site, runs).await?;
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
    let memory = memory_of(&marker.tree());
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
