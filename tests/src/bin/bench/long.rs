//! A long session: one pack, 2,000 tool calls over the fixture site and the
//! hostile pages in a loop, as a model that never stops would make them.
//! What it says: the memory of the browser's process tree and of this
//! process (which holds the pack) at call 100 and at the end, and the
//! slowest call (none may take longer than the per-call timeout and the
//! settling cap).

use std::time::{Duration, Instant};

use driver_core::Options;
use guard::{AllowedOrigin, Guard, Policy};
use serde_json::{json, Value};
use tabwright_tests::backend::Marker;
use tabwright_tests::site::Site;
use tabwright_tests::Backend;
use tools::{Pack, PackOptions};

use crate::measure::{millis, pss_rss};

/// How many calls the session makes.
const CALLS: usize = 2_000;

/// When the first memory reading is taken.
const WARM: usize = 100;

/// The per-call timeout of the session.
const TIMEOUT: Duration = Duration::from_secs(10);

/// The pages the loop visits, and what it does on each: the element to
/// press (by a piece of its line), if any.
const ROUND: &[(&str, Option<&str>)] = &[
    ("/fx/forms.html", Some("\"Create account\"")),
    ("/fx/spa.html", Some("Open the first message")),
    ("/fx/table.html", None),
    ("/fx/modal.html", Some("\"Accept all\"")),
    ("/fx/widgets.html", Some("\"Section #4\"")),
    ("/fx/icons.html", Some("\"Close panel\"")),
    ("/hostile/errors.html", Some("\"Fail again\"")),
    ("/hostile/overrides.html", Some("\"Press me\"")),
    ("/hostile/forged.html", Some("\"Press me\"")),
    ("/hostile/huge-dom.html", Some("\"Press\"")),
    ("/hostile/history.html", Some("\"Push\"")),
    ("/hostile/huge-text.html", None),
    ("/hostile/deep-shadow.html", Some("Deep button")),
    ("/fx/links.html", None),
];

/// Runs the session and prints what it measured.
pub async fn long_session(backend: Backend) -> Result<(), String> {
    let site = Site::with_fixtures().await;
    let mut allowed = vec![AllowedOrigin::parse(&site.origin()).map_err(|e| e.to_string())?];
    if let Some(other) = site.other_origin() {
        allowed.push(AllowedOrigin::parse(&other).map_err(|e| e.to_string())?);
    }
    let marker = Marker::new();
    let options = Options {
        timeout: TIMEOUT,
        extra_args: vec![marker.flag()],
        ..Options::default()
    };
    let policy = Policy {
        allowed_origins: allowed,
        ..Policy::default()
    };
    let pack = Pack::new(
        backend.guarded(options, Guard::new(policy)),
        PackOptions::default(),
    );
    let me = std::process::id();
    let mut calls = 0usize;
    let mut slowest = (Duration::ZERO, String::new());
    let mut errors = 0usize;
    let mut warm: Option<(u64, u64)> = None;
    let started = Instant::now();
    'session: loop {
        for (path, press) in ROUND {
            let mut steps: Vec<(&str, Value)> = vec![("open", json!({ "url": site.url(path) }))];
            steps.push(("snapshot", json!({})));
            steps.push(("scroll", json!({ "direction": "down" })));
            steps.push(("scroll", json!({ "direction": "up" })));
            for (tool, arguments) in steps {
                let output = timed(&pack, tool, arguments, &mut slowest).await;
                errors += usize::from(output.is_error);
                calls += 1;
                if let Some(needle) = press {
                    if tool == "snapshot" {
                        if let Some(number) = tools::element_number(&output.text, needle) {
                            let clicked =
                                timed(&pack, "click", json!({ "element": number }), &mut slowest)
                                    .await;
                            errors += usize::from(clicked.is_error);
                            calls += 1;
                        }
                    }
                }
                if calls >= WARM && warm.is_none() {
                    warm = Some(readings(&marker, me));
                }
                if calls >= CALLS {
                    break 'session;
                }
            }
        }
    }
    let end = readings(&marker, me);
    let (warm_tree, warm_own) = warm.unwrap_or(end);
    pack.close().await;
    let growth = |at: u64, now: u64| (now as f64 / at.max(1) as f64 - 1.0) * 100.0;
    println!(
        "{}: long session, {calls} calls in {:.0} s ({errors} answered with an error, as pages like these ask for)",
        backend.name(),
        started.elapsed().as_secs_f64()
    );
    println!(
        "  PSS of the browser's process tree: {} MiB at call {WARM}, {} MiB at call {calls} ({:+.1} %)",
        warm_tree / 1024,
        end.0 / 1024,
        growth(warm_tree, end.0)
    );
    println!(
        "  PSS of this process (the pack): {} MiB at call {WARM}, {} MiB at call {calls} ({:+.1} %)",
        warm_own / 1024,
        end.1 / 1024,
        growth(warm_own, end.1)
    );
    println!("  slowest call: {} ({})", millis(slowest.0), slowest.1);
    Ok(())
}

/// One call, timed; the slowest so far is kept.
async fn timed(
    pack: &Pack,
    tool: &str,
    arguments: Value,
    slowest: &mut (Duration, String),
) -> tools::ToolOutput {
    let started = Instant::now();
    let shown = format!("{tool} {arguments}");
    let output = pack.call(tool, arguments).await;
    let took = started.elapsed();
    if took > slowest.0 {
        *slowest = (took, shown);
    }
    output
}

/// PSS of the browser's tree (with chromedriver) and of this process, in KiB.
fn readings(marker: &Marker, me: u32) -> (u64, u64) {
    (pss_rss(&marker.tree_and_driver()).0, pss_rss(&[me]).0)
}
