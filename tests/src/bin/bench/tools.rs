//! The tool pack, as a model calls it: open, click, type and screenshot,
//! settling and the snapshot included.

use std::time::Instant;

use driver_core::Options;
use guard::{AllowedOrigin, Guard, Policy};
use tabwright_tests::site::Site;
use tabwright_tests::Backend;

use crate::measure::summary;

const STATIC: &str = r#"<!doctype html><html><head><title>Static</title></head><body>
<h1>A static page</h1><p>Some text to read.</p><button>Does nothing</button>
<label>Name <input name="name"></label></body></html>"#;

/// What a model waits for, per tool call: `open` over the fixtures (not the
/// 5,000-link page), a click on a static page and on a page that re-renders
/// 50 ms after the click, typing into a field, a screenshot, a snapshot.
pub async fn tool_costs(backend: Backend, runs: usize) -> Result<(), String> {
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
    let phases: std::cell::RefCell<Vec<(&'static str, tools::Phases)>> = Default::default();
    let call = |tool: &'static str, arguments: serde_json::Value| {
        let pack = &pack;
        let phases = &phases;
        async move {
            let started = Instant::now();
            let output = pack.call(tool, arguments.clone()).await;
            if output.is_error {
                return Err(format!("{tool} {arguments}: {}", output.text));
            }
            let took = started.elapsed();
            if let Some(parts) = pack.last_phases() {
                let kind = match tool {
                    "click" if arguments.to_string().contains("\"element\"") => "click",
                    other => other,
                };
                phases.borrow_mut().push((kind, parts));
            }
            Ok((took, output.text))
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
    let mut snapshots = Vec::new();
    for run in 0..runs {
        clicks.push(call("click", json!({ "element": button })).await?.0);
        let text = format!("Ada {run}");
        types.push(
            call("type", json!({ "element": field, "text": text }))
                .await?
                .0,
        );
        shots.push(call("screenshot", json!({})).await?.0);
        snapshots.push(call("snapshot", json!({})).await?.0);
    }

    let still = phases.borrow().len();
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
    // The per-phase medians: the still-page calls before the re-rendering
    // page's, whose clicks are reported apart.
    let all = phases.into_inner();
    let (plain, rendered) = all.split_at(still.min(all.len()));
    let mut rows: Vec<(String, Vec<tools::Phases>)> = Vec::new();
    for kind in ["open", "click", "type", "screenshot", "snapshot"] {
        rows.push((
            kind.to_owned(),
            plain
                .iter()
                .filter(|(k, _)| *k == kind)
                .map(|(_, p)| *p)
                .collect(),
        ));
    }
    rows.push((
        "click→re-render".to_owned(),
        rendered
            .iter()
            .filter(|(k, _)| *k == "click")
            .map(|(_, p)| *p)
            .collect(),
    ));
    PHASES.with(|table| {
        let mut table = table.borrow_mut();
        for (kind, samples) in rows {
            table.push(phase_row(backend.name(), &kind, &samples));
        }
    });
    println!(
        "{:<12}{:>24}{:>24}{:>24}{:>24}{:>24}{:>24}",
        backend.name(),
        summary(&mut opens),
        summary(&mut clicks),
        summary(&mut renders),
        summary(&mut types),
        summary(&mut shots),
        summary(&mut snapshots)
    );
    Ok(())
}

thread_local! {
    /// The per-phase rows of every backend's run, printed after the totals.
    static PHASES: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The per-phase table: the median of each part of each kind of call.
pub fn phase_table() -> String {
    let mut text = format!(
        "{:<12}{:<18}{:>9}{:>9}{:>9}{:>9}{:>9}{:>9}\n",
        "backend", "call", "total", "act", "settle", "read", "report", "render"
    );
    PHASES.with(|table| {
        for row in table.borrow().iter() {
            text.push_str(row);
            text.push('\n');
        }
    });
    text
}

fn phase_row(backend: &str, kind: &str, samples: &[tools::Phases]) -> String {
    let median = |part: fn(&tools::Phases) -> f64| {
        let mut values: Vec<f64> = samples.iter().map(part).collect();
        values.sort_by(f64::total_cmp);
        values.get(values.len() / 2).copied().unwrap_or(0.0)
    };
    format!(
        "{:<12}{:<18}{:>9.1}{:>9.1}{:>9.1}{:>9.1}{:>9.1}{:>9.1}",
        backend,
        kind,
        median(|p| p.total_ms),
        median(tools::Phases::act_ms),
        median(|p| p.settle_ms),
        median(|p| p.read_ms),
        median(|p| p.report_ms),
        median(|p| p.render_ms),
    )
}
