//! Checks of a session's life: calls one at a time, timeouts, a browser gone, a crashed tab, closing and dropping.

use super::*;

pub(super) async fn calls_are_serialised(ctx: &Ctx) -> CheckResult {
    let driver: Arc<dyn Driver> = Arc::from(ctx.driver());
    step("navigate", driver.navigate(&ctx.site.url("/")).await)?;
    // Each call reads a counter, yields to the event loop, then writes it
    // back plus one: interleaved calls would lose increments.
    let increment = "(async () => { const seen = window.count || 0; \
                     await new Promise(r => setTimeout(r, 20)); window.count = seen + 1; return seen; })()";
    let calls = (0..6).map(|_| {
        let driver = Arc::clone(&driver);
        async move { driver.eval(increment).await }
    });
    let mut seen: Vec<i64> = Vec::new();
    for result in futures::future::join_all(calls).await {
        seen.push(step("increment", result)?.as_i64().unwrap_or(-1));
    }
    seen.sort_unstable();
    ensure!(
        seen == vec![0, 1, 2, 3, 4, 5],
        "overlapping calls saw counters {seen:?}"
    );
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

pub(super) async fn never_loading_page_times_out(ctx: &Ctx) -> CheckResult {
    let mut options = ctx.options();
    options.timeout = SHORT_TIMEOUT;
    let driver = ctx.backend.driver(options);
    step("warm up", driver.navigate(&ctx.site.url("/")).await)?;
    let started = Instant::now();
    match driver.navigate(&ctx.site.url("/never-loads")).await {
        Err(error) if error.is_timeout() => {}
        other => return Err(format!("a page that never loads gave {other:?}")),
    }
    ensure!(
        started.elapsed() < 2 * SHORT_TIMEOUT,
        "the timeout took {:?}",
        started.elapsed()
    );
    let next = step(
        "navigate after the timeout",
        driver.navigate(&ctx.site.url("/second")).await,
    )?;
    ensure!(
        next.status == Some(200),
        "the next navigation gave {next:?}"
    );
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

pub(super) async fn spinning_script_times_out(ctx: &Ctx) -> CheckResult {
    let mut options = ctx.options();
    options.timeout = SHORT_TIMEOUT;
    let driver = ctx.backend.driver(options);
    step("navigate", driver.navigate(&ctx.site.url("/")).await)?;
    // Where the backend cannot stop a script, the browser is ended instead
    // (said as such), and the next call starts a fresh one.
    let stops = driver.capabilities().supports(Capability::StopScripts);
    let stopped = |error: &DriverError| error.is_timeout() || (!stops && error.is_browser_gone());
    let started = Instant::now();
    match driver.eval("while (true) {}").await {
        Err(error) if stopped(&error) => {}
        other => return Err(format!("a spinning script gave {other:?}")),
    }
    ensure!(
        started.elapsed() < 2 * SHORT_TIMEOUT + Duration::from_secs(5),
        "the spinning script was answered after {:?}",
        started.elapsed()
    );
    let value = step("eval after the timeout", driver.eval("1 + 1").await)?;
    ensure!(value == 2, "1 + 1 gave {value}");
    match driver.navigate(&ctx.site.url("/spins")).await {
        Err(error) if stopped(&error) => {}
        other => return Err(format!("a page that spins while loading gave {other:?}")),
    }
    let next = step(
        "navigate after the spinning page",
        driver.navigate(&ctx.site.url("/second")).await,
    )?;
    ensure!(
        next.url == ctx.site.url("/second"),
        "ended on {}",
        next.url.untrusted()
    );
    step("close", driver.close().await)?;
    Ok(
        match driver.capabilities().reason(Capability::StopScripts) {
            None => Verdict::Pass,
            Some(reason) => Verdict::Unsupported {
                capability: Capability::StopScripts,
                reason: reason.to_owned(),
            },
        },
    )
}

pub(super) async fn browser_gone_then_fresh(ctx: &Ctx) -> CheckResult {
    let (marker, driver) = marked(ctx);
    step("navigate", driver.navigate(&ctx.site.url("/")).await)?;
    let pids = marker.processes();
    ensure!(!pids.is_empty(), "no marked browser process found");
    kill(&pids);
    let left = until_ended(&pids).await;
    ensure!(left.is_empty(), "the killed browser still runs: {left:?}");
    let started = Instant::now();
    match driver.eval("1").await {
        Err(error) if error.is_browser_gone() => {}
        other => {
            return Err(format!(
                "a call after the browser was killed gave {other:?}"
            ))
        }
    }
    ensure!(
        started.elapsed() < Duration::from_secs(3),
        "noticing took {:?}",
        started.elapsed()
    );
    let page = step(
        "navigate with a fresh browser",
        driver.navigate(&ctx.site.url("/second")).await,
    )?;
    ensure!(page.status == Some(200), "the fresh browser gave {page:?}");
    step("close", driver.close().await)?;
    ensure!(
        marker.processes().is_empty(),
        "processes left: {:?}",
        marker.processes()
    );
    Ok(Verdict::Pass)
}

/// A tab whose renderer crashed: the next call says so (not a lost
/// browser, not an endless protocol error, not a wait to the timeout),
/// the tab is left for another, and the call after works. Twice: once
/// found by a script in the page's world, once by one in tabwright's.
pub(super) async fn a_crashed_tab_is_left(ctx: &Ctx) -> CheckResult {
    // The test reaches the browser from outside: Chrome through a DevTools
    // port it asks for as a user may (tabwright's own browser has none),
    // Firefox by killing the processes its pages run in.
    let marker = Marker::new();
    let mut options = ctx.options();
    options.extra_args.push(marker.flag());
    let firefox = ctx.backend == Backend::Firefox;
    if !firefox {
        options
            .extra_args
            .push("--remote-debugging-port=0".to_owned());
    }
    let driver = ctx.backend.driver(options);
    step("navigate", driver.navigate(&ctx.site.url("/")).await)?;
    let mut devtools = if firefox {
        None
    } else {
        let profile = marker
            .profile_dir()
            .ok_or("no marked browser process found")?;
        Some(crate::devtools::DevTools::of_profile(&profile).await?)
    };
    for (round, isolated) in [("/", false), ("/second", true)] {
        match devtools.as_mut() {
            Some(devtools) => devtools.crash_page(round).await?,
            None => {
                let pages = marker.content_processes();
                ensure!(!pages.is_empty(), "no content process of Firefox found");
                kill(&pages);
            }
        }
        let started = Instant::now();
        loop {
            let answer = if isolated {
                driver.eval_isolated(&[], "1").await
            } else {
                driver.eval("1").await
            };
            match answer {
                Err(DriverError::TabCrashed { .. }) => break,
                Ok(_) if started.elapsed() < Duration::from_secs(5) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                other => return Err(format!("a call after the tab crashed gave {other:?}")),
            }
        }
        ensure!(
            started.elapsed() < Duration::from_secs(5),
            "noticing the crash took {:?}",
            started.elapsed()
        );
        let page = step(
            "navigate after the crash",
            driver.navigate(&ctx.site.url("/second")).await,
        )?;
        ensure!(page.status == Some(200), "after the crash: {page:?}");
        let title = step("title", driver.eval("document.title").await)?;
        ensure!(title == "Second", "after the crash the page is {title}");
    }
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

pub(super) async fn close_ends_everything(ctx: &Ctx) -> CheckResult {
    let (marker, driver) = marked(ctx);
    step("navigate", driver.navigate(&ctx.site.url("/")).await)?;
    step(
        "open a tab",
        driver.open_tab(Some(&ctx.site.url("/second"))).await,
    )?;
    let profile = marker
        .profile_dir()
        .ok_or("no marked browser process found")?;
    ensure!(
        profile.exists(),
        "the profile {} does not exist",
        profile.display()
    );
    let tree = marker.tree();
    ensure!(
        tree.len() > 2,
        "the browser's process tree is only {tree:?}"
    );
    step("close", driver.close().await)?;
    let left = until_ended(&tree).await;
    ensure!(
        left.is_empty(),
        "processes left after close: {left:?} of {tree:?}"
    );
    ensure!(
        !profile.exists(),
        "the temporary profile {} is still there",
        profile.display()
    );
    let zombies = unreaped(&tree);
    ensure!(zombies.is_empty(), "unreaped: {zombies:?}");
    Ok(Verdict::Pass)
}

pub(super) async fn drop_ends_everything(ctx: &Ctx) -> CheckResult {
    let (marker, driver) = marked(ctx);
    step("navigate", driver.navigate(&ctx.site.url("/")).await)?;
    let profile = marker
        .profile_dir()
        .ok_or("no marked browser process found")?;
    let tree = marker.tree();
    ensure!(
        tree.len() > 2,
        "the browser's process tree is only {tree:?}"
    );
    drop(driver);
    let left = until_ended(&tree).await;
    ensure!(
        left.is_empty(),
        "processes left after drop: {left:?} of {tree:?}"
    );
    ensure!(
        !profile.exists(),
        "the temporary profile {} is still there",
        profile.display()
    );
    Ok(Verdict::Pass)
}

/// Waits (up to 3 s: a killed process takes the kernel a moment to tear
/// down) until none of `pids` runs, and returns those still running.
pub(super) async fn until_ended(pids: &[u32]) -> Vec<u32> {
    let deadline = Instant::now() + Duration::from_secs(3);
    loop {
        let left = still_running(pids);
        if left.is_empty() || Instant::now() > deadline {
            return left;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

pub(super) async fn close_is_idempotent(ctx: &Ctx) -> CheckResult {
    let driver = ctx.driver();
    step("close before start", driver.close().await)?;
    step("navigate", driver.navigate(&ctx.site.url("/")).await)?;
    step("close", driver.close().await)?;
    step("close again", driver.close().await)?;
    Ok(Verdict::Pass)
}
