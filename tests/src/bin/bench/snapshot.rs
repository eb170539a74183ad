//! What a snapshot costs: its build time on the 5,000-link page, and the
//! size of every fixture's.

use std::time::{Duration, Instant};

use driver_core::Options;
use tabwright_tests::site::Site;
use tabwright_tests::Backend;

use crate::measure::summary;

/// Snapshot build time on the 5,000-link page (in the page, and end to end
/// through the driver), and the size of every fixture's snapshot in tokens
/// (counted as characters / 4).
pub async fn snapshot_costs(backend: Backend, runs: usize) -> Result<(), String> {
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
            marks::WALKER_JS.as_str()
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
    // A page about three viewports long, judged afresh each time: every
    // run pictures the viewport and the margin below it (on Chrome, its
    // document's layer replayed), where a still page would recall them.
    let lines: String = (0..65)
        .map(|line| {
            format!("<p>Line {line} of an article long enough to scroll, its words plain.</p>")
        })
        .collect();
    site.page(
        "/long",
        &format!("<!doctype html><title>Long</title><body style=\"font: 16px sans-serif\">{lines}</body>"),
    )
    .await;
    driver
        .navigate(&site.url("/long"))
        .await
        .map_err(|e| e.to_string())?;
    let mut judged = Vec::new();
    for _ in 0..runs {
        marks.forget_pictures();
        let started = Instant::now();
        snapshot_text(&marks, driver.as_ref(), false).await?;
        judged.push(started.elapsed());
    }
    println!(
        "{}: snapshot of a page three viewports long, its pictures taken afresh: {}",
        backend.name(),
        summary(&mut judged)
    );
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
                let code = marks::fence_code(&text).unwrap_or_default();
                let body = text
                    .split_once(&format!("--- page content {code}"))
                    .and_then(|(_, rest)| rest.split_once('\n'))
                    .and_then(|(_, rest)| rest.split_once(&format!("--- end {code} ---")))
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
