//! How the bench measures: medians and the worst of timed runs, and the
//! memory of a process tree.

use std::time::{Duration, Instant};

pub async fn time<F, Fut>(runs: usize, mut call: F) -> Result<String, driver_core::DriverError>
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

pub fn summary(samples: &mut [Duration]) -> String {
    samples.sort_unstable();
    let median = samples.get(samples.len() / 2).copied().unwrap_or_default();
    let worst = samples.last().copied().unwrap_or_default();
    format!("{} / {}", millis(median), millis(worst))
}

pub fn millis(duration: Duration) -> String {
    format!("{:.1} ms", duration.as_secs_f64() * 1000.0)
}

/// PSS and RSS of the processes, summed, in KiB, from
/// `/proc/PID/smaps_rollup` (PSS divides shared pages among the processes
/// sharing them: the honest sum).
pub fn pss_rss(pids: &[u32]) -> (u64, u64) {
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
    (pss, rss)
}

/// PSS and RSS of the processes, as a table cell.
pub fn memory_of(pids: &[u32]) -> String {
    let (pss, rss) = pss_rss(pids);
    format!("{} / {} MiB ({} procs)", pss / 1024, rss / 1024, pids.len())
}

/// The median of some counts (the lower middle of an even number).
pub fn median_of(samples: &mut [usize]) -> usize {
    samples.sort_unstable();
    samples
        .get(samples.len().saturating_sub(1) / 2)
        .copied()
        .unwrap_or_default()
}

/// The median of five readings a second apart, each of `N` values (one
/// memory reading moves by a third with garbage collection).
pub async fn median_of_five<const N: usize>(mut read: impl FnMut() -> [u64; N]) -> [u64; N] {
    let mut readings = Vec::with_capacity(5);
    for at in 0..5 {
        if at > 0 {
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
        readings.push(read());
    }
    std::array::from_fn(|value| {
        let mut column: Vec<u64> = readings.iter().map(|reading| reading[value]).collect();
        column.sort_unstable();
        column[column.len() / 2]
    })
}
