//! `run`'s cost: its engine is a process of its own, started per script.

use std::time::{Duration, Instant};

use driver_core::Options;
use guard::{AllowedOrigin, Guard, Policy};
use serde_json::json;
use tabwright_tests::site::Site;
use tabwright_tests::Backend;

use crate::measure::summary;

/// A script returning at once, one making a tool call, and the loops the
/// engine cannot interrupt, each with what of it outlived the answer.
pub async fn script_costs(backend: Backend, runs: usize) -> Result<(), String> {
    use ::tools::{Group, Pack, PackOptions};
    let site = Site::with_fixtures().await;
    let policy = Policy {
        allowed_origins: vec![AllowedOrigin::parse(&site.origin()).map_err(|e| e.to_string())?],
        ..Policy::default()
    };
    let pack = Pack::new(
        backend.guarded(Options::default(), Guard::new(policy)),
        PackOptions {
            groups: vec![Group::Core, Group::Code],
            ..PackOptions::default()
        },
    );
    let run = |script: &'static str, timeout: u32| {
        let pack = &pack;
        async move {
            let started = Instant::now();
            let output = pack
                .call("run", json!({ "script": script, "timeout": timeout }))
                .await;
            (started.elapsed(), output)
        }
    };
    let opened = pack
        .call("open", json!({ "url": site.url("/fx/todo.html") }))
        .await;
    if opened.is_error {
        return Err(opened.text);
    }
    let (mut bare, mut called) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        let (took, output) = run("return 1;", 30).await;
        if output.is_error {
            return Err(output.text);
        }
        bare.push(took);
        let (took, output) = run("return (await tw.tabs()).length;", 30).await;
        if output.is_error {
            return Err(output.text);
        }
        called.push(took);
    }
    println!(
        "{:<12}run, returns at once: {}   run, one tool call: {}",
        backend.name(),
        summary(&mut bare),
        summary(&mut called)
    );
    for (what, script) in [
        (
            "promise storm",
            "const f = () => { Promise.resolve().then(f); Promise.resolve().then(f); }; f(); await new Promise(() => {});",
        ),
        (
            "reverse of 2**53-1",
            "Array.prototype.reverse.call({length: 2 ** 53 - 1});",
        ),
    ] {
        let (took, output) = run(script, 1).await;
        let said = output.text.lines().next().unwrap_or_default().to_owned();
        // What of the engine is left: this process's children running
        // QuickJS, and the CPU they take over the next second.
        let (left, cpu) = engines_left().await;
        println!(
            "{:<12}{what}, 1 s limit: answered after {:.2} s ({said}); engines left {left}, their CPU over 1 s after: {:.0} ms",
            "",
            took.as_secs_f64(),
            cpu.as_secs_f64() * 1000.0
        );
    }
    pack.close().await;
    Ok(())
}

/// The children of this process that are script engines and still run,
/// and the CPU they take in the second after.
async fn engines_left() -> (usize, Duration) {
    let engines = || -> Vec<(i32, u64)> {
        let me = std::process::id().to_string();
        std::fs::read_dir("/proc")
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|entry| {
                let pid: i32 = entry.file_name().to_str()?.parse().ok()?;
                let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
                let after = stat.rsplit_once(") ")?.1.to_owned();
                let fields: Vec<&str> = after.split_whitespace().collect();
                let environ = std::fs::read(entry.path().join("environ")).unwrap_or_default();
                let engine = String::from_utf8_lossy(&environ).contains("TABWRIGHT_SCRIPT_ENGINE");
                (fields.get(1) == Some(&me.as_str()) && fields.first() != Some(&"Z") && engine)
                    .then(|| {
                        let ticks = fields.get(11)?.parse::<u64>().ok()?
                            + fields.get(12)?.parse::<u64>().ok()?;
                        Some((pid, ticks))
                    })
                    .flatten()
            })
            .collect()
    };
    let before = engines();
    tokio::time::sleep(Duration::from_secs(1)).await;
    let after = engines();
    let spent: u64 = after
        .iter()
        .map(|(pid, ticks)| {
            let was = before.iter().find(|(p, _)| p == pid).map_or(0, |(_, t)| *t);
            ticks.saturating_sub(was)
        })
        .sum();
    // Ticks are hundredths of a second on Linux.
    (after.len(), Duration::from_millis(spent * 10))
}
