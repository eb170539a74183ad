//! Many sessions: what one idle browser costs (and what launch flags would
//! cut), what each session in a shared browser adds, and a soak of many
//! sessions working at once.

use std::sync::Arc;
use std::time::{Duration, Instant};

use driver_cdp::SharedBrowser;
use driver_core::{Driver, Options};
use guard::{AllowedOrigin, Guard, GuardedDriver, Policy};
use serde_json::{json, Value};
use tabwright_tests::backend::Marker;
use tabwright_tests::devtools::DevTools;
use tabwright_tests::site::Site;
use tabwright_tests::Backend;
use tools::{Pack, PackOptions};

use crate::measure::{median_of_five, millis, pss_rss};

/// Flags that might cut an idle browser's memory, each measured alone
/// against the default launch. None of them weakens the guard (the proxy
/// and resolver rules stay) or site isolation (no process sharing between
/// sites).
const CANDIDATES: &[(&str, &[&str])] = &[
    ("--in-process-gpu", &["--in-process-gpu"]),
    ("--disable-gpu", &["--disable-gpu"]),
    (
        "no spare renderer",
        &["--disable-features=SpareRendererForSitePerProcess"],
    ),
    (
        "--enable-low-end-device-mode",
        &["--enable-low-end-device-mode"],
    ),
    ("--no-zygote", &["--no-zygote"]),
];

/// The session counts the scale table reads memory at.
const COUNTS: &[usize] = &[1, 10, 50];

/// How long an idle browser is left before its memory is read.
const SETTLE: Duration = Duration::from_secs(3);

/// The idle browser with each candidate flag, then the shared browser's
/// memory per session count (CDP) or each session's own browser
/// (WebDriver, to ten).
pub async fn sessions(site: &Site, backends: &[Backend]) -> Result<(), String> {
    if backends.contains(&Backend::Cdp) {
        idle_flags(site).await?;
        println!();
        shared_scale(site).await?;
    }
    if backends.contains(&Backend::WebDriver) {
        println!();
        own_browsers(site).await?;
    }
    Ok(())
}

/// One browser, one small page, left idle: PSS of its tree with the
/// default flags and with each candidate (median of three starts each).
async fn idle_flags(site: &Site) -> Result<(), String> {
    println!("one idle browser on a small page, PSS of its tree (median of 3 starts)");
    let baseline = idle_pss(site, &[]).await?;
    println!("  {:<32}{:>8} MiB", "as launched", baseline / 1024);
    for (name, flags) in CANDIDATES {
        let pss = idle_pss(site, flags).await?;
        let saved = baseline as i64 - pss as i64;
        println!(
            "  {name:<32}{:>8} MiB  (saves {} MiB)",
            pss / 1024,
            saved / 1024
        );
    }
    Ok(())
}

async fn idle_pss(site: &Site, flags: &[&str]) -> Result<u64, String> {
    let mut readings = Vec::new();
    for _ in 0..3 {
        let marker = Marker::new();
        let mut extra_args = vec![marker.flag()];
        extra_args.extend(flags.iter().map(|flag| (*flag).to_owned()));
        let driver = Backend::Cdp.driver(Options {
            extra_args,
            ..Options::default()
        });
        driver
            .navigate(&site.url("/"))
            .await
            .map_err(|error| format!("idle browser {flags:?}: {error}"))?;
        tokio::time::sleep(SETTLE).await;
        readings.push(pss_rss(&marker.tree()).0);
        driver.close().await.map_err(|error| error.to_string())?;
    }
    readings.sort_unstable();
    Ok(readings[readings.len() / 2])
}

/// Sessions of one shared browser, each on a small page: the tree's PSS
/// at each count, and what each session past the first added.
async fn shared_scale(site: &Site) -> Result<(), String> {
    println!("sessions in one browser (cdp, a browser context each), each on a small page");
    let marker = Marker::new();
    let shared = SharedBrowser::new(Options {
        extra_args: vec![marker.flag()],
        ..Options::default()
    });
    let mut sessions: Vec<GuardedDriver> = Vec::new();
    let mut first = 0u64;
    for &count in COUNTS {
        while sessions.len() < count {
            let session = shared_session(&shared, site, Options::default());
            session
                .navigate(&site.url("/"))
                .await
                .map_err(|error| format!("session {}: {error}", sessions.len() + 1))?;
            sessions.push(session);
        }
        tokio::time::sleep(SETTLE).await;
        let tree = marker.tree();
        let pss = pss_rss(&tree).0;
        if count == 1 {
            first = pss;
            println!(
                "  {count:>3} session : {:>6} MiB ({} processes)",
                pss / 1024,
                tree.len()
            );
        } else {
            println!(
                "  {count:>3} sessions: {:>6} MiB ({} processes; {:.1} MiB per session past the first)",
                pss / 1024,
                tree.len(),
                (pss - first.min(pss)) as f64 / 1024.0 / (count - 1) as f64
            );
        }
    }
    for session in sessions {
        session.close().await.map_err(|error| error.to_string())?;
    }
    shared.close().await;
    Ok(())
}

/// WebDriver has no browser contexts: a session is a browser (and a
/// chromedriver) of its own.
async fn own_browsers(site: &Site) -> Result<(), String> {
    println!("sessions on webdriver (a browser and a chromedriver each), each on a small page");
    let marker = Marker::new();
    let mut drivers = Vec::new();
    for &count in &[1usize, 10] {
        while drivers.len() < count {
            let driver = Backend::WebDriver.driver(Options {
                extra_args: vec![marker.flag()],
                ..Options::default()
            });
            driver
                .navigate(&site.url("/"))
                .await
                .map_err(|error| format!("webdriver session: {error}"))?;
            drivers.push(driver);
        }
        tokio::time::sleep(SETTLE).await;
        let tree = marker.tree_and_driver();
        println!(
            "  {count:>3} sessions: {:>6} MiB ({} processes)",
            pss_rss(&tree).0 / 1024,
            tree.len()
        );
    }
    for driver in drivers {
        driver.close().await.map_err(|error| error.to_string())?;
    }
    Ok(())
}

/// A session of `shared` behind a guard that allows the site alone.
fn shared_session(shared: &SharedBrowser, site: &Site, options: Options) -> GuardedDriver {
    let policy = Policy {
        allowed_origins: [Some(site.origin()), site.other_origin()]
            .into_iter()
            .flatten()
            .filter_map(|origin| AllowedOrigin::parse(&origin).ok())
            .collect(),
        ..Policy::default()
    };
    let shared = shared.clone();
    GuardedDriver::new(
        Guard::new(policy),
        options,
        Box::new(move |options| Box::new(shared.session(options))),
    )
}

/// The soak's sessions and calls per session.
pub const SOAK_SESSIONS: usize = 20;
pub const SOAK_CALLS: usize = 200;

/// When the warm reading is taken: once every session has made this many
/// calls.
const SOAK_WARM: usize = 40;

/// The pages a soak session visits in turn, and the element it presses on
/// each (by a piece of its line).
const SOAK_ROUND: &[(&str, Option<&str>)] = &[
    ("/fx/forms.html", Some("\"Create account\"")),
    ("/fx/spa.html", Some("Open the first message")),
    ("/fx/table.html", None),
    ("/fx/modal.html", Some("\"Accept all\"")),
    ("/fx/widgets.html", Some("\"Section #4\"")),
    ("/fx/icons.html", Some("\"Close panel\"")),
    ("/fx/links.html", None),
    ("/fx/article.html", None),
];

/// Many sessions of one shared browser, each a pack making `calls` tool
/// calls over the fixture site at once: throughput, latency, memory after
/// warm-up and at the end, and what is left once every session and the
/// browser are closed.
pub async fn soak(sessions: usize, calls: usize, chrome_args: &[String]) -> Result<(), String> {
    let site = Arc::new(Site::with_fixtures().await);
    let marker = Marker::new();
    let mut extra_args = vec![marker.flag()];
    extra_args.extend(chrome_args.iter().cloned());
    // A DevTools port for the bench to ask the browser through (the one
    // tabwright starts has none of its own).
    extra_args.push("--remote-debugging-port=0".to_owned());
    let shared = SharedBrowser::new(Options {
        extra_args,
        timeout: Duration::from_secs(20),
        ..Options::default()
    });
    let sockets_before = open_sockets();
    let started = Instant::now();
    let warmed = Arc::new(tokio::sync::Barrier::new(sessions + 1));
    // The warm reading taken, while every session waited: go on.
    let warm_read = Arc::new(tokio::sync::Barrier::new(sessions + 1));
    // Every session done with its calls, still open: the end reading.
    let done = Arc::new(tokio::sync::Barrier::new(sessions + 1));
    let read = Arc::new(tokio::sync::Barrier::new(sessions + 1));
    let mut workers = Vec::new();
    for index in 0..sessions {
        let pack = Pack::new(
            shared_session(
                &shared,
                &site,
                Options {
                    timeout: Duration::from_secs(20),
                    ..Options::default()
                },
            ),
            PackOptions::default(),
        );
        let site = Arc::clone(&site);
        let (warmed, warm_read) = (Arc::clone(&warmed), Arc::clone(&warm_read));
        let (done, read) = (Arc::clone(&done), Arc::clone(&read));
        workers.push(tokio::spawn(async move {
            let mut latencies = Vec::with_capacity(calls);
            let mut errors = 0usize;
            let mut waited = false;
            let mut step = index; // sessions start at different pages
            while latencies.len() < calls {
                let (path, press) = SOAK_ROUND[step % SOAK_ROUND.len()];
                step += 1;
                let mut plan: Vec<(&str, Value)> = vec![
                    ("open", json!({ "url": site.url(path) })),
                    ("snapshot", json!({})),
                ];
                plan.push(("scroll", json!({ "direction": "down" })));
                for (tool, arguments) in plan {
                    let began = Instant::now();
                    let output = pack.call(tool, arguments).await;
                    latencies.push(began.elapsed());
                    errors += usize::from(output.is_error);
                    let number = press
                        .filter(|_| tool == "snapshot")
                        .and_then(|needle| tools::element_number(&output.text, needle));
                    if let Some(number) = number {
                        let began = Instant::now();
                        let clicked = pack.call("click", json!({ "element": number })).await;
                        latencies.push(began.elapsed());
                        errors += usize::from(clicked.is_error);
                    }
                }
                if !waited && latencies.len() >= SOAK_WARM {
                    warmed.wait().await;
                    warm_read.wait().await;
                    waited = true;
                }
            }
            if !waited {
                warmed.wait().await;
                warm_read.wait().await;
            }
            done.wait().await;
            read.wait().await;
            pack.close().await;
            (latencies, errors)
        }));
    }
    // Both readings are taken while every session waits, each the median
    // of five a second apart.
    warmed.wait().await;
    let warm_at = started.elapsed();
    let warm_tree = marker.tree();
    let pause = Instant::now();
    let [warm_pss] = median_of_five(|| [pss_rss(&marker.tree()).0]).await;
    warm_read.wait().await;
    // The calls' time, less the pause for the reading.
    let paused = pause.elapsed();
    done.wait().await;
    let took = started.elapsed().saturating_sub(paused);
    let end_tree = marker.tree();
    let [end_pss] = median_of_five(|| [pss_rss(&marker.tree()).0]).await;
    read.wait().await;
    let mut latencies = Vec::new();
    let mut errors = 0usize;
    for worker in workers {
        let (mine, failed) = worker.await.map_err(|error| error.to_string())?;
        latencies.extend(mine);
        errors += failed;
    }
    // Every session is closed; the browser still runs: ask it what
    // contexts it still holds.
    let contexts = match shared.pid().await {
        Some(pid) => {
            let devtools = DevTools::of_process(pid).await?;
            let listed = devtools
                .call(None, "Target.getBrowserContexts", json!({}))
                .await
                .map_err(|error| error.to_string())?;
            listed["browserContextIds"].as_array().map_or(0, Vec::len)
        }
        None => 0,
    };
    let profile = marker.profile_dir();
    shared.close().await;
    let left = until_gone(&marker).await;
    let profile_left = profile.is_some_and(|profile| profile.exists());
    // Connections the browser held close as its end is noticed.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let sockets_after = open_sockets();

    latencies.sort_unstable();
    let at = |fraction: f64| {
        latencies
            .get(((latencies.len() as f64 * fraction) as usize).min(latencies.len() - 1))
            .copied()
            .unwrap_or_default()
    };
    let total = latencies.len();
    println!(
        "cdp: soak, {sessions} sessions × {calls} calls at once on one browser: {total} calls in {:.0} s, {:.1} calls/s ({errors} answered with an error)",
        took.as_secs_f64(),
        total as f64 / took.as_secs_f64()
    );
    println!(
        "  latency per call: p50 {}, p95 {}, worst {}",
        millis(at(0.50)),
        millis(at(0.95)),
        millis(at(1.0))
    );
    println!(
        "  PSS of the browser's tree (medians of five readings a second apart, every session waiting): {} MiB in {} processes after warm-up ({SOAK_WARM} calls a session, at {:.0} s), {} MiB in {} after the last call ({:+.1} %)",
        warm_pss / 1024,
        warm_tree.len(),
        warm_at.as_secs_f64(),
        end_pss / 1024,
        end_tree.len(),
        (end_pss as f64 / warm_pss.max(1) as f64 - 1.0) * 100.0
    );
    println!(
        "  left afterwards: {} browser contexts (sessions closed, browser up), {} Chrome processes, profile {}, {} more open sockets in this process",
        contexts,
        left.len(),
        if profile_left { "still on disk" } else { "removed" },
        sockets_after.saturating_sub(sockets_before)
    );
    Ok(())
}

/// Waits (up to ten seconds) for the marked processes to be gone; returns
/// those still there.
async fn until_gone(marker: &Marker) -> Vec<u32> {
    for _ in 0..100 {
        if marker.processes().is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    marker.tree()
}

/// Sockets this process holds open.
fn open_sockets() -> usize {
    std::fs::read_dir("/proc/self/fd").map_or(0, |entries| {
        entries
            .filter_map(Result::ok)
            .filter_map(|entry| std::fs::read_link(entry.path()).ok())
            .filter(|target| target.to_string_lossy().starts_with("socket:"))
            .count()
    })
}
