//! A long session: one pack, 2,000 tool calls over the fixture site and the
//! hostile pages in a loop, as a model that never stops would make them.
//! What it says: the memory of the browser's process tree and of this
//! process (which holds the pack) after the first round past call 100 and
//! after the last round, and the
//! slowest call (none may take longer than the per-call timeout and the
//! settling cap).

use std::time::{Duration, Instant};

use driver_core::{Driver, Options};
use guard::{AllowedOrigin, Guard, Policy};
use serde_json::{json, Value};
use tabwright_tests::backend::Marker;
use tabwright_tests::site::Site;
use tabwright_tests::Backend;
use tools::{Pack, PackOptions};

use crate::measure::{millis, pss_rss};

/// How many calls the session makes, unless `--calls` says.
pub const CALLS: usize = 2_000;

/// When the first memory reading is taken.
pub const WARM: usize = 100;

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
pub async fn long_session(
    backend: Backend,
    total: usize,
    chrome_args: &[String],
) -> Result<(), String> {
    let site = Site::with_fixtures().await;
    let mut allowed = vec![AllowedOrigin::parse(&site.origin()).map_err(|e| e.to_string())?];
    if let Some(other) = site.other_origin() {
        allowed.push(AllowedOrigin::parse(&other).map_err(|e| e.to_string())?);
    }
    let marker = Marker::new();
    let mut extra_args = vec![marker.flag()];
    extra_args.extend(chrome_args.iter().cloned());
    // A DevTools port for the bench to ask the browser through (the one
    // tabwright starts has none of its own).
    extra_args.push("--remote-debugging-port=0".to_owned());
    let options = Options {
        timeout: TIMEOUT,
        extra_args,
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
    let mut shown_at = 250;
    let mut slowest = (Duration::ZERO, String::new());
    let mut errors = 0usize;
    let mut warm: Option<(u64, (u64, u64))> = None;
    let started = Instant::now();
    // Memory is read between rounds, where the same page is showing, so
    // that the two readings compare like with like: after the first round
    // that ends past call WARM, and after the round that reaches `total`.
    while calls < total {
        for (path, press) in ROUND {
            // (Firefox's remote agent spends about 3 ms on each pushState:
            // the hostile history's 10,000 would outlast the call.)
            let url = match (*path, backend) {
                ("/hostile/history.html", Backend::Firefox) => {
                    site.url("/hostile/history.html?n=2000")
                }
                _ => site.url(path),
            };
            let mut steps: Vec<(&str, Value)> = vec![("open", json!({ "url": url }))];
            steps.push(("snapshot", json!({})));
            steps.push(("scroll", json!({ "direction": "down" })));
            steps.push(("scroll", json!({ "direction": "up" })));
            for (tool, arguments) in steps {
                let output = timed(&pack, tool, arguments, &mut slowest).await;
                errors += usize::from(output.is_error);
                calls += 1;
                let Some(needle) = press.filter(|_| tool == "snapshot") else {
                    continue;
                };
                if let Some(number) = tools::element_number(&output.text, needle) {
                    let clicked =
                        timed(&pack, "click", json!({ "element": number }), &mut slowest).await;
                    errors += usize::from(clicked.is_error);
                    calls += 1;
                }
            }
        }
        // This process's memory along the way (one reading each time).
        if calls >= shown_at {
            println!(
                "  at call {calls}: this process {} MiB",
                pss_rss(&[me]).0 / 1024
            );
            shown_at += 250;
        }
        if calls >= WARM && warm.is_none() {
            warm = Some((calls as u64, readings(&marker, me).await));
        }
    }
    let end = readings(&marker, me).await;
    let session = pack.driver().memory().await.ok().flatten();
    println!("  by process at the end: {}", by_process(&marker));
    // What of the growth the browser gives back when told memory is short
    // (as the system would tell it): what it held because it could, not
    // what it cannot let go of.
    let pressed = match marker.profile_dir() {
        Some(profile) => match tabwright_tests::devtools::DevTools::of_profile(&profile).await {
            Ok(devtools) => devtools
                .call(
                    None,
                    "Memory.simulatePressureNotification",
                    json!({ "level": "critical" }),
                )
                .await
                .map(|_| ())
                .map_err(|error| error.to_string()),
            Err(error) => Err(error),
        },
        None => Err("no profile".to_owned()),
    };
    tokio::time::sleep(Duration::from_secs(3)).await;
    let relieved = readings(&marker, me).await;
    let (warm_at, (warm_tree, warm_own)) = warm.unwrap_or((calls as u64, end));
    pack.close().await;
    let growth = |at: u64, now: u64| (now as f64 / at.max(1) as f64 - 1.0) * 100.0;
    println!(
        "{}: long session, {calls} calls in {:.0} s ({errors} answered with an error, as pages like these ask for)",
        backend.name(),
        started.elapsed().as_secs_f64()
    );
    println!(
        "  PSS of the browser's process tree: {} MiB at call {warm_at}, {} MiB at call {calls} ({:+.1} %)",
        warm_tree / 1024,
        end.0 / 1024,
        growth(warm_tree, end.0)
    );
    println!(
        "  PSS of this process (the pack): {} MiB at call {warm_at}, {} MiB at call {calls} ({:+.1} %)",
        warm_own / 1024,
        end.1 / 1024,
        growth(warm_own, end.1)
    );
    match pressed {
        Ok(()) => println!(
            "  after a memory-pressure signal: {} MiB ({:+.1} % from call {warm_at})",
            relieved.0 / 1024,
            growth(warm_tree, relieved.0)
        ),
        Err(error) => println!("  (no memory-pressure signal: {error})"),
    }
    if let Some(session) = session {
        println!(
            "  the session's own reading at the end: {session}, {} tabs moved to a fresh renderer",
            session.renewed
        );
    }
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

/// PSS of the browser's tree (with chromedriver) and of this process, in
/// KiB: the median of five readings a second apart (one reading moves by
/// a third with garbage collection).
async fn readings(marker: &Marker, me: u32) -> (u64, u64) {
    let [tree, own] =
        crate::measure::median_of_five(|| [pss_rss(&marker.tree_and_driver()).0, pss_rss(&[me]).0])
            .await;
    (tree, own)
}

/// The browser's processes at the end, each with its kind and PSS.
fn by_process(marker: &Marker) -> String {
    let mut parts: Vec<(u64, String)> = marker
        .tree_and_driver()
        .into_iter()
        .map(|pid| {
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            // Chrome's children rewrite their command line as one string.
            let kind = String::from_utf8_lossy(&cmdline)
                .split(['\0', ' '])
                .find_map(|arg| arg.strip_prefix("--type=").map(str::to_owned))
                .unwrap_or_else(|| "browser".to_owned());
            (pss_rss(&[pid]).0, kind)
        })
        .collect();
    parts.sort_unstable_by_key(|part| std::cmp::Reverse(part.0));
    parts
        .iter()
        .map(|(pss, kind)| format!("{kind} {} MiB", pss / 1024))
        .collect::<Vec<_>>()
        .join(", ")
}
