//! What watching a session costs: a call with `--trace` against one
//! without, and the CPU a live view takes on an animated page (the
//! browser's and this process's), against the same page unwatched.

use std::time::{Duration, Instant};

use driver_core::Options;
use guard::{AllowedOrigin, Guard, Policy};
use serde_json::json;
use tabwright_tests::backend::Marker;
use tabwright_tests::site::Site;
use tabwright_tests::Backend;
use tools::{Pack, PackOptions, Watch};

use crate::measure::summary;

/// A page that never stops moving: a box sliding, a counter ticking.
const ANIMATED: &str = r#"<!doctype html><title>Animated</title>
<style>@keyframes slide{from{transform:translateX(0)}to{transform:translateX(600px)}}
#box{width:120px;height:120px;background:#36c;animation:slide 2s linear infinite alternate}</style>
<div id=box></div><p id=n>0</p><button onclick="this.textContent='Pressed'">Press</button>
<script>let n=0;(function tick(){document.getElementById('n').textContent=++n;requestAnimationFrame(tick)})()</script>"#;

/// How long the CPU is read over, each way.
const WATCHED_FOR: Duration = Duration::from_secs(10);

/// Prints both measurements for `backend`.
pub async fn watching(backend: Backend, runs: usize) -> Result<(), String> {
    let site = Site::start().await;
    site.page("/ticking", ANIMATED).await;
    let allowed = AllowedOrigin::parse(&site.origin()).map_err(|e| e.to_string())?;
    let policy = || Policy {
        allowed_origins: vec![allowed.clone()],
        ..Policy::default()
    };
    // Per call with and without a trace: a click and a scroll, alternated.
    let traces = tempfile::tempdir().map_err(|e| e.to_string())?;
    let mut costs = Vec::new();
    for traced in [false, true] {
        let pack = Pack::new(
            backend.guarded(Options::default(), Guard::new(policy())),
            PackOptions {
                trace_dir: traced.then(|| traces.path().to_owned()),
                ..PackOptions::default()
            },
        );
        let page = pack
            .call("open", json!({ "url": site.url("/ticking") }))
            .await;
        let press = tools::element_number(&page.text, "\"Press\"")
            .ok_or_else(|| format!("no Press button in {}", page.text))?;
        let mut samples = Vec::new();
        for _ in 0..runs {
            for (tool, arguments) in [
                ("click", json!({ "element": press })),
                ("scroll", json!({ "direction": "down" })),
            ] {
                let started = Instant::now();
                let output = pack.call(tool, arguments).await;
                if output.is_error {
                    return Err(format!("{tool}: {}", output.text));
                }
                samples.push(started.elapsed());
            }
        }
        pack.close().await;
        costs.push(summary(&mut samples));
    }
    let written: u64 = tabwright_tests::files_under(traces.path())
        .iter()
        .filter_map(|path| std::fs::metadata(path).ok())
        .map(|metadata| metadata.len())
        .sum();
    println!(
        "{}: an action (click or scroll, on an animated page) {} without a trace, {} with one; {} KB written for {} actions",
        backend.name(),
        costs[0],
        costs[1],
        written / 1000,
        runs * 2
    );

    // The CPU of an animated page, unwatched and with a live view that
    // fetches the picture as the page does (every 0.7 s).
    let mut cpu = Vec::new();
    for (watched, looking) in [(false, false), (true, false), (true, true)] {
        let marker = Marker::new();
        let watch = Watch::new();
        let mut options = Options {
            extra_args: vec![marker.flag()],
            ..Options::default()
        };
        if watched {
            options.on_frame = Some(watch.frame_callback());
            options.frames_wanted = Some(watch.frames_wanted());
        }
        let pack = Pack::new(
            backend.guarded(options, Guard::new(policy())),
            PackOptions {
                watch: watched.then(|| watch.clone()),
                ..PackOptions::default()
            },
        );
        let page = pack
            .call("open", json!({ "url": site.url("/ticking") }))
            .await;
        if page.is_error {
            return Err(page.text);
        }
        tokio::time::sleep(Duration::from_secs(1)).await;
        let pids = || {
            let mut pids = marker.tree_and_driver();
            pids.push(std::process::id());
            pids
        };
        let (before, started) = (cpu_ticks(&pids()), Instant::now());
        let mut frames = 0u64;
        let mut last = None;
        while started.elapsed() < WATCHED_FOR {
            if looking {
                watch.looked_at();
                if let Some((number, jpeg)) = watch.latest() {
                    if last != Some(number) {
                        frames += 1;
                        last = Some(number);
                        std::hint::black_box(jpeg.len());
                    }
                }
            }
            tokio::time::sleep(Duration::from_millis(700)).await;
        }
        let used = cpu_ticks(&pids()).saturating_sub(before);
        let seconds = started.elapsed().as_secs_f64();
        pack.close().await;
        // Clock ticks are 1/100 s on Linux.
        cpu.push((
            used as f64 / 100.0 / seconds * 100.0,
            frames,
            watch.latest().map(|(n, _)| n),
        ));
    }
    println!(
        "{}: CPU of an animated page (browser and this process, one core = 100 %): {:.0} % unwatched, {:.0} % with a live view nobody looks at, {:.0} % looked at ({} pictures fetched, {} made)",
        backend.name(),
        cpu[0].0,
        cpu[1].0,
        cpu[2].0,
        cpu[2].1,
        cpu[2].2.unwrap_or(0)
    );
    Ok(())
}

/// User and system CPU of the processes, in clock ticks.
fn cpu_ticks(pids: &[u32]) -> u64 {
    pids.iter()
        .filter_map(|pid| std::fs::read_to_string(format!("/proc/{pid}/stat")).ok())
        .filter_map(|stat| {
            let rest = stat.get(stat.rfind(')')? + 2..)?.to_owned();
            let fields: Vec<&str> = rest.split_whitespace().collect();
            // utime and stime: fields 14 and 15 of stat, 12 and 13 here.
            Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
        })
        .sum()
}
