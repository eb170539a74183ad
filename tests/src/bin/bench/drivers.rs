//! The driver calls themselves: cold start, navigate, eval, click,
//! screenshot, and the memory of one idle page.

use std::time::{Duration, Instant};

use driver_core::{Options, ScreenshotOptions};
use tabwright_tests::backend::Marker;
use tabwright_tests::site::Site;
use tabwright_tests::Backend;

use crate::measure::{memory_of, summary, time};

/// The driver calls themselves, per backend.
pub async fn drivers(site: &Site, backends: &[Backend], runs: usize) -> Result<(), String> {
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
