//! What the guard costs: page loads through the egress proxy, and its
//! throughput.

use std::time::{Duration, Instant};

use driver_core::Options;
use guard::{AllowedOrigin, EgressProxy, Guard, Policy, Task, TaskOrigin};
use tabwright_tests::http;
use tabwright_tests::site::Site;
use tabwright_tests::Backend;

use crate::measure::millis;

/// Load time of the 100-image page without and with the guard.
pub async fn guard_cost(backend: Backend, site: &Site, runs: usize) -> Result<String, String> {
    let page = site.url("/hundred");
    let load = |driver: Box<dyn driver_core::Driver>| {
        let page = page.clone();
        async move {
            driver
                .navigate(&site.url("/"))
                .await
                .map_err(|e| e.to_string())?;
            let mut samples = Vec::new();
            for _ in 0..runs {
                let started = Instant::now();
                driver.navigate(&page).await.map_err(|e| e.to_string())?;
                samples.push(started.elapsed());
            }
            driver.close().await.map_err(|e| e.to_string())?;
            samples.sort_unstable();
            Ok::<_, String>(samples)
        }
    };
    let plain = load(backend.driver(Options::default())).await?;
    let policy = Policy {
        allowed_origins: vec![AllowedOrigin::parse(&site.origin()).map_err(|e| e.to_string())?],
        ..Policy::default()
    };
    // A task naming the site as the origin it reads: each page's document
    // is held in the browser and judged before its request leaves.
    let tasked = Policy {
        task: Task {
            read: vec![TaskOrigin::parse(&site.origin()).map_err(|e| e.to_string())?],
            ..Task::default()
        },
        ..policy.clone()
    };
    let guarded = load(Box::new(
        backend.guarded(Options::default(), Guard::new(policy)),
    ))
    .await?;
    let held = load(Box::new(
        backend.guarded(Options::default(), Guard::new(tasked)),
    ))
    .await?;
    let median = |samples: &[Duration]| samples.get(samples.len() / 2).copied().unwrap_or_default();
    let ratio = median(&guarded).as_secs_f64() / median(&plain).as_secs_f64().max(1e-9);
    Ok(format!(
        "without the guard {} / {}, through the guard {} / {}: x{ratio:.2} ({:+.0}%); with a task's origins {} / {}",
        millis(median(&plain)),
        millis(plain.last().copied().unwrap_or_default()),
        millis(median(&guarded)),
        millis(guarded.last().copied().unwrap_or_default()),
        (ratio - 1.0) * 100.0,
        millis(median(&held)),
        millis(held.last().copied().unwrap_or_default()),
    ))
}

/// Requests per second the proxy relays: 8 kept-alive client connections
/// asking for a tiny image in a loop for 2 seconds.
pub async fn proxy_throughput(site: &Site) -> Result<String, String> {
    let policy = Policy {
        allowed_origins: vec![AllowedOrigin::parse(&site.origin()).map_err(|e| e.to_string())?],
        ..Policy::default()
    };
    let proxy = EgressProxy::start(Guard::new(policy))
        .await
        .map_err(|e| e.to_string())?;
    let address = proxy.address();
    let target = site.url("/img/0.png");
    let host = site.origin().trim_start_matches("http://").to_owned();
    let until = Instant::now() + Duration::from_secs(2);
    let clients = (0..8).map(|_| {
        let (target, host) = (target.clone(), host.clone());
        tokio::spawn(async move {
            let Ok(stream) = tokio::net::TcpStream::connect(address).await else {
                return 0usize;
            };
            let mut stream = tokio::io::BufReader::new(stream);
            let mut done = 0;
            while Instant::now() < until {
                let (status, ..) = http::exchange(&mut stream, &http::get(&target, &host)).await;
                if status != 200 {
                    break;
                }
                done += 1;
            }
            done
        })
    });
    let mut total = 0;
    for client in clients {
        total += client.await.unwrap_or(0);
    }
    Ok(format!(
        "{:.0} requests/s (8 client connections; every request judged, upstream connections reused only to the address judged)",
        total as f64 / 2.0
    ))
}
