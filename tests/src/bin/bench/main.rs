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
//!   that re-renders after the click), type→snapshot, screenshot and
//!   snapshot, as a model waits for them (settling included), and where
//!   each one's time goes;
//! - tokens: scripted sequences on the fixture site (a form filled field by
//!   field, a menu, a paged table, a to-do list), the tokens of all their
//!   answers with change lists against whole pages, each sequence's checks
//!   made on what the answers said; `find` on the 5,000-link page; and a
//!   small page's `snapshot` and `screenshot`;
//! - tasks: the tasks on real UI kits (a date picker, menus, suggestions,
//!   spinners, trees, tabs…), run by a scripted policy reading only the
//!   tools' text: successes and tokens per task;
//! - sessions: one idle browser's memory and what launch flags would cut
//!   from it; the shared browser's memory with 1, 10 and 50 sessions (CDP),
//!   and with a browser per session (WebDriver, to ten);
//! - scripts: `run` as a model calls it: a script that returns at once
//!   (its engine's process started, run and ended), one that makes a tool
//!   call, and loops the engine cannot interrupt (a promise storm, a
//!   built-in looping in C) with a 1 s limit: when the answer came, and
//!   what of the engine was left running after it;
//! - watching: an action with a trace against one without (and what the
//!   trace writes), and the CPU of an animated page with a live view
//!   against the same page unwatched;
//! - a long session (`--only long`, not part of the default run): one pack,
//!   2,000 calls over the fixture site and the hostile pages in a loop, its
//!   memory after the first round past call 100 and at the end (medians of
//!   five readings), the session's own reading, and its slowest call;
//! - a soak (`--only soak`, not part of the default run): 20 sessions of one
//!   browser, 200 calls each at once (`--sessions N`, `--calls N`):
//!   calls per second, latency, memory, and what is left afterwards.

mod drivers;
mod guard;
mod long;
mod measure;
mod scripts;
mod sessions;
mod snapshot;
mod tasks;
mod tokens;
mod tools;
mod watching;

use tabwright_tests::site::Site;
use tabwright_tests::Backend;

fn main() -> Result<(), String> {
    // `run`'s scripts run in this program started again.
    ::tools::serve_if_asked();
    tokio::runtime::Runtime::new()
        .map_err(|error| error.to_string())?
        .block_on(bench())
}

async fn bench() -> Result<(), String> {
    let mut wanted = "all".to_owned();
    let mut runs = 20usize;
    let mut calls: Option<usize> = None;
    let mut soakers = sessions::SOAK_SESSIONS;
    let mut only: Option<String> = None;
    let mut chrome_args: Vec<String> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--backend" => wanted = args.next().unwrap_or_default(),
            "--only" => only = args.next(),
            "--calls" => calls = args.next().and_then(|n| n.parse().ok()),
            // A Chrome flag to measure the long session and the soak with.
            "--chrome-arg" => chrome_args.extend(args.next()),
            "--sessions" => {
                soakers = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(soakers)
                    .max(1)
            }
            "--runs" => {
                runs = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(runs)
                    .max(3)
            }
            other => {
                return Err(format!(
                    "unknown argument {other:?}; usage: bench [--backend NAME|all] [--runs N] [--calls N] [--sessions N] [--chrome-arg FLAG] [--only {}]",
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
    // The long session and the soak are asked for by name: they take minutes.
    let wants = |part: &str| match only.as_deref() {
        Some(only) => only == part,
        None => !LONG_RUNNING.contains(&part),
    };
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
        drivers::drivers(&site, &backends, runs).await?;
    }
    if wants("guard") {
        println!();
        println!("the guard's cost: a page with 100 uncached images, loaded {} times each way (median / worst)", runs.div_ceil(2));
        for &backend in &backends {
            println!(
                "{:<12}{}",
                backend.name(),
                guard::guard_cost(backend, &site, runs.div_ceil(2)).await?
            );
        }
        println!(
            "egress proxy throughput: {}",
            guard::proxy_throughput(&site).await?
        );
    }
    if wants("snapshot") {
        println!();
        for &backend in &backends {
            snapshot::snapshot_costs(backend, runs).await?;
        }
    }
    if wants("tools") {
        println!();
        println!(
            "the tool pack, as a model calls it (settling and the snapshot included); median / worst"
        );
        println!(
            "{:<12}{:>24}{:>24}{:>24}{:>24}{:>24}{:>24}",
            "backend",
            "open→snapshot",
            "click→snapshot",
            "click→re-render",
            "type→snapshot",
            "screenshot",
            "snapshot"
        );
        for &backend in &backends {
            tools::tool_costs(backend, runs).await?;
        }
        println!("\nWhere the time goes (medians, ms; `act` is the call less the parts measured):");
        print!("{}", tools::phase_table());
    }
    if wants("tokens") {
        println!();
        for &backend in &backends {
            tokens::token_costs(backend, runs).await?;
        }
    }
    if wants("tasks") {
        println!();
        for &backend in &backends {
            // A few episodes each: every one opens its page afresh.
            tasks::task_costs(backend, runs.div_ceil(4)).await?;
        }
    }
    if wants("sessions") {
        println!();
        sessions::sessions(&site, &backends).await?;
    }
    if wants("scripts") {
        println!();
        for &backend in &backends {
            scripts::script_costs(backend, runs).await?;
        }
    }
    if wants("watching") {
        println!();
        for &backend in &backends {
            watching::watching(backend, runs).await?;
        }
    }
    if wants("long") {
        let calls = calls.unwrap_or(long::CALLS).max(long::WARM + 1);
        for &backend in &backends {
            long::long_session(backend, calls, &chrome_args).await?;
        }
    }
    if wants("soak") {
        let calls = calls.unwrap_or(sessions::SOAK_CALLS).max(1);
        sessions::soak(soakers, calls, &chrome_args).await?;
    }
    Ok(())
}

/// What `--only` can pick.
const PARTS: [&str; 11] = [
    "drivers", "guard", "snapshot", "tools", "tokens", "tasks", "sessions", "scripts", "watching",
    "long", "soak",
];

/// Parts run only when asked for by name.
const LONG_RUNNING: [&str; 2] = ["long", "soak"];
