//! Checks of a page's parts: text and values, waits, history, tabs and popups, the viewport, the console, an ordinary Chrome.

use super::*;

pub(super) async fn text_and_value(ctx: &Ctx) -> CheckResult {
    let driver = ctx.driver();
    step("navigate", driver.navigate(&ctx.site.url("/")).await)?;
    let text = step("text", driver.text("#para").await)?;
    ensure!(text == "Some bold text.", "#para reads {text:?}");
    match driver.value("#para").await {
        Err(DriverError::NotInteractable { .. }) => {}
        other => return Err(format!("the value of a paragraph gave {other:?}")),
    }
    step("navigate", driver.navigate(&ctx.site.url("/form")).await)?;
    let value = step("value", driver.value("#name").await)?;
    ensure!(value.is_empty(), "an empty input has value {value:?}");
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

pub(super) async fn wait_for_present_and_visible(ctx: &Ctx) -> CheckResult {
    let mut options = ctx.options();
    options.timeout = SHORT_TIMEOUT;
    let driver = ctx.backend.driver(options);
    step("navigate", driver.navigate(&ctx.site.url("/later")).await)?;
    step(
        "wait for #late",
        driver.wait_for("#late", WaitFor::Present).await,
    )?;
    step(
        "wait for #invisible to show",
        driver.wait_for("#invisible", WaitFor::Visible).await,
    )?;
    let started = Instant::now();
    match driver.wait_for("#never", WaitFor::Present).await {
        Err(error) if error.is_timeout() => {
            ensure!(
                started.elapsed() < 2 * SHORT_TIMEOUT,
                "the wait took {:?}",
                started.elapsed()
            );
        }
        other => {
            return Err(format!(
                "waiting for an element that never comes gave {other:?}"
            ))
        }
    }
    step("eval after a timed-out wait", driver.eval("1").await)?;
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

pub(super) async fn history(ctx: &Ctx) -> CheckResult {
    let driver = ctx.driver();
    step("navigate /", driver.navigate(&ctx.site.url("/")).await)?;
    // The page the tab started on is not history to go back to.
    match driver.back().await {
        Err(DriverError::NoHistory { direction }) => {
            ensure!(direction == "earlier", "direction {direction}")
        }
        other => return Err(format!("back from the first page gave {other:?}")),
    }
    let title = step("title", driver.eval("document.title").await)?;
    ensure!(
        title == "Home",
        "after a refused back the tab shows {title}"
    );
    step(
        "navigate /second",
        driver.navigate(&ctx.site.url("/second")).await,
    )?;
    let back = step("back", driver.back().await)?;
    ensure!(
        back.url == ctx.site.url("/"),
        "back went to {}",
        back.url.untrusted()
    );
    let title = step("title", driver.eval("document.title").await)?;
    ensure!(title == "Home", "back shows {title}");
    let forward = step("forward", driver.forward().await)?;
    ensure!(
        forward.url == ctx.site.url("/second"),
        "forward went to {}",
        forward.url.untrusted()
    );
    match driver.forward().await {
        Err(DriverError::NoHistory { direction }) => {
            ensure!(direction == "later", "direction {direction}")
        }
        other => return Err(format!("forward at the end of history gave {other:?}")),
    }
    step("set a marker", driver.eval("window.marker = 1").await)?;
    let reloaded = step("reload", driver.reload().await)?;
    ensure!(
        reloaded.status == Some(200),
        "reload status {:?}",
        reloaded.status
    );
    let marker = step("marker", driver.eval("window.marker === undefined").await)?;
    ensure!(marker == true, "the page was not reloaded");
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

pub(super) async fn tabs(ctx: &Ctx) -> CheckResult {
    let driver = ctx.driver();
    step("navigate", driver.navigate(&ctx.site.url("/")).await)?;
    let first = step("tabs", driver.tabs().await)?;
    ensure!(first.len() == 1 && first[0].current, "at start: {first:?}");
    let opened = step(
        "open a tab",
        driver.open_tab(Some(&ctx.site.url("/second"))).await,
    )?;
    let now = step("tabs", driver.tabs().await)?;
    ensure!(now.len() == 2, "two tabs expected: {now:?}");
    ensure!(
        now[1].id == opened.id && now[1].current,
        "the new tab is last and current: {now:?}"
    );
    ensure!(
        now[1].title == "Second" && now[1].url == ctx.site.url("/second"),
        "the new tab: {:?}",
        now[1]
    );
    let ids = step("tab ids", driver.tab_ids().await)?;
    ensure!(
        ids == now.iter().map(|tab| tab.id.clone()).collect::<Vec<_>>(),
        "tab_ids {ids:?} is not the ids of tabs() {now:?}"
    );
    let title = step("title", driver.eval("document.title").await)?;
    ensure!(title == "Second", "page calls act on the new tab: {title}");
    step("switch back", driver.switch_tab(&first[0].id).await)?;
    let title = step("title", driver.eval("document.title").await)?;
    ensure!(title == "Home", "after switching back: {title}");
    step("close the second tab", driver.close_tab(&opened.id).await)?;
    let left = step("tabs", driver.tabs().await)?;
    ensure!(
        left.len() == 1 && left[0].id == first[0].id,
        "after closing: {left:?}"
    );
    match driver.switch_tab(&opened.id).await {
        Err(DriverError::NoSuchTab { .. }) => {}
        other => return Err(format!("switching to a closed tab gave {other:?}")),
    }
    step("close the last tab", driver.close_tab(&first[0].id).await)?;
    let left = step("tabs", driver.tabs().await)?;
    ensure!(
        left.len() == 1 && left[0].current,
        "closing the last tab leaves a blank one: {left:?}"
    );
    step(
        "navigate in the new blank tab",
        driver.navigate(&ctx.site.url("/third")).await,
    )?;
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

/// Waits (up to 5 s) until `count` tabs are listed.
pub(super) async fn until_tabs(
    driver: &dyn Driver,
    count: usize,
) -> Result<Vec<driver_core::Tab>, String> {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let tabs = step("tabs", driver.tabs().await)?;
        let loaded = tabs
            .iter()
            .all(|tab| tab.url != "about:blank" && !tab.url.is_empty());
        if tabs.len() >= count && loaded {
            return Ok(tabs);
        }
        if Instant::now() > deadline {
            return Err(format!("expected {count} loaded tabs, have {tabs:?}"));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

pub(super) async fn popups_become_tabs(ctx: &Ctx) -> CheckResult {
    let driver = ctx.driver();
    step("navigate", driver.navigate(&ctx.site.url("/")).await)?;
    step(
        "click a target=_blank link",
        driver.click("#popup-link").await,
    )?;
    let tabs = until_tabs(driver.as_ref(), 2).await?;
    ensure!(tabs[0].current, "the opener stays current: {tabs:?}");
    ensure!(
        tabs[1].url == ctx.site.url("/second"),
        "the new tab shows {}",
        tabs[1].url.untrusted()
    );
    step(
        "click a window.open button",
        driver.click("#popup-button").await,
    )?;
    let tabs = until_tabs(driver.as_ref(), 3).await?;
    ensure!(
        tabs[2].url == ctx.site.url("/third"),
        "the popup shows {}",
        tabs[2].url.untrusted()
    );
    step("switch to the popup", driver.switch_tab(&tabs[2].id).await)?;
    let title = step("title", driver.eval("document.title").await)?;
    ensure!(title == "Third", "the popup's title is {title}");
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

pub(super) async fn viewport(ctx: &Ctx) -> CheckResult {
    let driver = ctx.driver();
    step("navigate", driver.navigate(&ctx.site.url("/")).await)?;
    let size = step("viewport", driver.viewport().await)?;
    ensure!(
        size == Viewport {
            width: 1280,
            height: 800
        },
        "default viewport {size:?}"
    );
    step(
        "resize",
        driver
            .set_viewport(Viewport {
                width: 800,
                height: 600,
            })
            .await,
    )?;
    let inner = step("inner size", driver.eval("[innerWidth, innerHeight]").await)?;
    ensure!(
        inner == serde_json::json!([800, 600]),
        "the page sees {inner}"
    );
    match driver
        .set_viewport(Viewport {
            width: 0,
            height: 600,
        })
        .await
    {
        Err(DriverError::InvalidArgument(_)) => {}
        other => return Err(format!("a zero-width viewport gave {other:?}")),
    }
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

pub(super) async fn console_and_page_errors(ctx: &Ctx) -> CheckResult {
    let driver = ctx.driver();
    step("navigate", driver.navigate(&ctx.site.url("/console")).await)?;
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut entries = Vec::new();
    while Instant::now() < deadline {
        match needs(
            driver.as_ref(),
            Capability::Console,
            "console",
            driver.console().await,
        )? {
            Needed::Value(more) => entries.extend(more),
            Needed::Unsupported(outcome) => return Ok(outcome),
        }
        if entries
            .iter()
            .any(|entry| entry.level == ConsoleLevel::PageError)
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let has = |level: ConsoleLevel, text: &str| {
        entries
            .iter()
            .any(|entry| entry.level == level && entry.text.untrusted().contains(text))
    };
    ensure!(
        has(ConsoleLevel::Info, "hello 42"),
        "console.log missing: {entries:?}"
    );
    ensure!(
        has(ConsoleLevel::Warning, "careful"),
        "console.warn missing: {entries:?}"
    );
    ensure!(
        has(ConsoleLevel::Error, "bad thing"),
        "console.error missing: {entries:?}"
    );
    ensure!(
        has(ConsoleLevel::PageError, "uncaught boom"),
        "the page error is missing: {entries:?}"
    );
    let again = step("console again", driver.console().await)?;
    ensure!(again.is_empty(), "the buffer was not drained: {again:?}");
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

pub(super) async fn ordinary_chrome(ctx: &Ctx) -> CheckResult {
    let driver = ctx.driver();
    step("navigate", driver.navigate(&ctx.site.url("/")).await)?;
    let agent = step("userAgent", driver.eval("navigator.userAgent").await)?;
    let agent = agent.as_str().unwrap_or_default();
    ensure!(
        (agent.contains("Chrome/") || agent.contains("Firefox/")) && !agent.contains("Headless"),
        "navigator.userAgent is {agent}"
    );
    let webdriver = step("webdriver", driver.eval("navigator.webdriver").await)?;
    ensure!(webdriver == false, "navigator.webdriver is {webdriver}");
    let sent = ctx.site.user_agents().await;
    ensure!(!sent.is_empty(), "the site saw no requests");
    ensure!(
        sent.iter().all(|agent| !agent.contains("Headless")),
        "the site saw {sent:?}"
    );
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}
