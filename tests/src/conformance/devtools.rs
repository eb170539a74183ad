//! Checks of what the DevTools socket adds: the screencast, downloads, dialogs, hover and wheel, commands and the network log, preloads, paint probes, handovers.

use super::*;

pub(super) async fn screencast(ctx: &Ctx) -> CheckResult {
    let frames = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&frames);
    let mut options = ctx.options();
    options.on_frame = Some(Arc::new(move |frame| {
        if frame.jpeg.starts_with(&[0xFF, 0xD8]) {
            counter.fetch_add(1, Ordering::Relaxed);
        }
    }));
    let driver = ctx.backend.driver(options);
    if let Some(reason) = driver.capabilities().reason(Capability::Screencast) {
        // Nothing to call: frames simply never come.
        return Ok(Verdict::Unsupported {
            capability: Capability::Screencast,
            reason: reason.to_owned(),
        });
    }
    step(
        "navigate",
        driver.navigate(&ctx.site.url("/animated")).await,
    )?;
    let deadline = Instant::now() + Duration::from_secs(5);
    while frames.load(Ordering::Relaxed) < 3 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let seen = frames.load(Ordering::Relaxed);
    ensure!(
        seen >= 3,
        "only {seen} JPEG frames of an animated page in 5 s"
    );
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

/// Every file under `dir` called `name`.
pub(super) fn files_named(dir: &std::path::Path, name: &str) -> Vec<std::path::PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .flat_map(|entry| {
            let path = entry.path();
            if path.is_dir() {
                files_named(&path, name)
            } else if entry.file_name().to_string_lossy().starts_with(name) {
                vec![path]
            } else {
                Vec::new()
            }
        })
        .collect()
}

pub(super) async fn downloads_are_refused(ctx: &Ctx) -> CheckResult {
    let (marker, driver) = marked(ctx);
    step(
        "navigate",
        driver.navigate(&ctx.site.url("/download")).await,
    )?;
    let profile = marker
        .profile_dir()
        .ok_or("no marked browser process found")?;
    step("click the download link", driver.click("#get").await)?;
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut reported = Vec::new();
    let unsupported = loop {
        match needs(
            driver.as_ref(),
            Capability::DownloadReports,
            "downloads",
            driver.downloads().await,
        )? {
            Needed::Value(seen) => reported.extend(seen),
            Needed::Unsupported(outcome) => break Some(outcome),
        }
        if !reported.is_empty() || Instant::now() > deadline {
            break None;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    ensure!(
        unsupported.is_some()
            || reported
                .iter()
                .any(|download| download.filename == "report.pdf"
                    && download.url.untrusted().ends_with("/report.pdf")),
        "the download attempt was not reported: {reported:?}"
    );
    let title = step("title", driver.eval("document.title").await)?;
    ensure!(title == "Download", "the page changed to {title}");
    // Give a download that slipped through time to land, then look.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let mut landed = files_named(&profile, "report");
    if let Some(home) = std::env::var_os("HOME") {
        landed.extend(files_named(
            &std::path::Path::new(&home).join("Downloads"),
            "report",
        ));
    }
    landed.extend(files_named(&std::env::temp_dir(), "report.pdf"));
    ensure!(landed.is_empty(), "the download landed: {landed:?}");
    step("close", driver.close().await)?;
    Ok(unsupported.unwrap_or(Verdict::Pass))
}

pub(super) async fn dialogs_never_block(ctx: &Ctx) -> CheckResult {
    let driver = ctx.driver();
    step("navigate", driver.navigate(&ctx.site.url("/dialogs")).await)?;
    let none = step("look for a dialog", driver.dialog().await)?;
    ensure!(none.is_none(), "a dialog before any was opened: {none:?}");
    match driver.answer_dialog(true, None).await {
        Err(DriverError::NoDialog) => {}
        other => return Err(format!("answering no dialog gave {other:?}")),
    }
    // The click that opens a dialog may end as soon as it is open (CDP) or
    // return normally (WebDriver); either way no call hangs.
    match driver.click("#alert").await {
        Ok(()) | Err(DriverError::DialogOpen { .. }) => {}
        Err(other) => return Err(format!("clicking #alert: {other}")),
    }
    match driver.eval("1 + 1").await {
        Err(DriverError::DialogOpen { message, .. }) if message == "Hello there" => {}
        other => return Err(format!("a script under an open alert gave {other:?}")),
    }
    let open = step("look for the dialog", driver.dialog().await)?;
    let Some(open) = open else {
        return Err("the open alert is not reported".to_owned());
    };
    ensure!(open.message == "Hello there", "the alert says {open:?}");
    ensure!(
        matches!(open.kind, DialogKind::Alert | DialogKind::Unknown),
        "an alert reported as {:?}",
        open.kind
    );
    let tabs = step("list tabs under a dialog", driver.tabs().await)?;
    ensure!(tabs.len() == 1, "tabs under a dialog: {tabs:?}");
    step("accept the alert", driver.answer_dialog(true, None).await)?;
    let sum = step("evaluate after the alert", driver.eval("1 + 1").await)?;
    ensure!(sum == 2, "1 + 1 = {sum}");

    for (button, accept, text, expected) in [
        ("#confirm", false, None, "no"),
        ("#confirm", true, None, "yes"),
        ("#prompt", true, Some("Ada"), "Ada"),
    ] {
        match driver.click(button).await {
            Ok(()) | Err(DriverError::DialogOpen { .. }) => {}
            Err(other) => return Err(format!("clicking {button}: {other}")),
        }
        step("answer", driver.answer_dialog(accept, text).await)?;
        let out = step("read #out", driver.text("#out").await)?;
        ensure!(
            out == expected,
            "{button} answered {accept} {text:?}: the page says {out:?}"
        );
    }
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

pub(super) async fn hover_and_wheel(ctx: &Ctx) -> CheckResult {
    let driver = ctx.driver();
    step("navigate", driver.navigate(&ctx.site.url("/dialogs")).await)?;
    // The div is 200×50 at the page's left edge, under three buttons.
    let top = step(
        "find the hover target",
        driver
            .eval("document.getElementById('hover-me').getBoundingClientRect().top")
            .await,
    )?;
    let top = top.as_f64().unwrap_or_default();
    step("move the mouse", driver.move_mouse(100.0, top + 25.0).await)?;
    let out = step("read #out", driver.text("#out").await)?;
    ensure!(out == "hovered", "after the hover #out says {out:?}");

    let box_top = step(
        "find the box",
        driver
            .eval("document.getElementById('box').getBoundingClientRect().top")
            .await,
    )?;
    let box_top = box_top.as_f64().unwrap_or_default();
    // The driver waits for a painted frame before a wheel, which made a
    // lost wheel rare on a busy machine (load 10 on 2 cores: from about
    // one run in two to one in twenty) but not impossible: Chromium can
    // still drop one there. A wheel that scrolled nothing at all is sent
    // once more; one that scrolled the wrong thing fails at once.
    let mut scrolled = false;
    for _ in 0..2 {
        step(
            "wheel over the box",
            driver.wheel(100.0, box_top + 50.0, 0.0, 300.0).await,
        )?;
        scrolled = until_true(
            driver.as_ref(),
            "document.getElementById('box').scrollTop > 0 && scrollY === 0",
        )
        .await;
        let nothing = driver
            .eval("document.getElementById('box').scrollTop === 0 && scrollY === 0")
            .await;
        if scrolled || !matches!(nothing, Ok(serde_json::Value::Bool(true))) {
            break;
        }
    }
    if !scrolled {
        let seen = driver
            .eval("[document.getElementById('box').scrollTop, scrollY, document.getElementById('box').getBoundingClientRect().top]")
            .await;
        return Err(format!(
            "the wheel over the box (at y {}) did not scroll the box alone: [box scrollTop, scrollY, box top] = {seen:?}",
            box_top + 50.0
        ));
    }
    step(
        "wheel over the page",
        driver.wheel(600.0, 400.0, 0.0, 500.0).await,
    )?;
    ensure!(
        until_true(driver.as_ref(), "scrollY > 0").await,
        "the wheel over the page did not scroll it"
    );
    match driver.wheel(10.0, 10.0, f64::NAN, 0.0).await {
        Err(DriverError::InvalidArgument(_)) => {}
        other => return Err(format!("a NaN scroll gave {other:?}")),
    }
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

/// Polls a page expression for up to two seconds: a wheel scroll lands a
/// frame or two after the event.
pub(super) async fn until_true(driver: &dyn Driver, expression: &str) -> bool {
    for _ in 0..40 {
        if let Ok(serde_json::Value::Bool(true)) = driver.eval(expression).await {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

/// A DevTools command reaches the current tab (its layout metrics, a PDF
/// of it), and the network log holds the page's own request, its status and type, where the
/// session keeps one.
pub(super) async fn devtools_and_network_log(ctx: &Ctx) -> CheckResult {
    let mut options = ctx.options();
    options.network_log = true;
    let driver = ctx.backend.driver(options);
    let home = ctx.site.url("/");
    step("navigate", driver.navigate(&home).await)?;
    // The log first: a backend without DevTools may still keep one.
    let log = match needs(
        driver.as_ref(),
        Capability::NetworkLog,
        "read the network log",
        driver.network_log().await,
    )? {
        Needed::Value(log) => log,
        Needed::Unsupported(outcome) => return Ok(outcome),
    };
    ensure!(
        log.iter().any(|request| request.url == home
            && request.kind == "Document"
            && request.status == Some(200)
            && request.method == "GET"),
        "the page's own request is not in the log: {log:?}"
    );
    // A command no backend answers in its own words (as Firefox answers
    // the few the tool pack's groups send): DevTools itself.
    let metrics = match needs(
        driver.as_ref(),
        Capability::DevTools,
        "read the layout metrics",
        driver
            .devtools("Page.getLayoutMetrics", serde_json::json!({}))
            .await,
    )? {
        Needed::Value(metrics) => metrics,
        Needed::Unsupported(outcome) => return Ok(outcome),
    };
    ensure!(
        metrics["cssLayoutViewport"]["clientWidth"]
            .as_f64()
            .is_some_and(|width| width > 0.0),
        "no layout metrics: {metrics}"
    );
    let printed = step(
        "print to PDF",
        driver
            .devtools("Page.printToPDF", serde_json::json!({}))
            .await,
    )?;
    ensure!(
        printed["data"]
            .as_str()
            .is_some_and(|data| data.starts_with("JVBER")),
        "not a PDF: {:.100}",
        printed.to_string()
    );
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

/// What a caller keeps for tabwright's world (`Driver::preload`, given
/// before the browser starts, as the tool pack gives its page scripts) has
/// run in every document the tab loads, frames included, at its start; the
/// page's own world does not see it.
pub(super) async fn preloads_reach_every_document(ctx: &Ctx) -> CheckResult {
    let driver = ctx.driver();
    driver.preload("globalThis.__kept = { url: document.URL, state: document.readyState };");
    ctx.site
        .page(
            "/framed",
            r#"<!doctype html><title>Framed</title><iframe src="/second"></iframe>"#,
        )
        .await;
    let kept = "typeof __kept === 'object' ? __kept : null";
    let seen = async |frame: &[u32], url: &str| -> Result<(), String> {
        let found = step(
            "read what was kept",
            driver.eval_isolated(frame, kept).await,
        )?;
        ensure!(
            found["url"] == url,
            "in {url} (frame {frame:?}) tabwright's world holds {found}"
        );
        // Firefox keeps the window (and the realm) of a frame's first
        // blank document for the same-origin document that replaces it,
        // and runs no preload there: its driver runs them once the new
        // document is parsed, the first moment it can reach it.
        let kept_window = ctx.backend == Backend::Firefox && !frame.is_empty();
        ensure!(
            found["state"] == "loading" || (kept_window && found["state"] == "interactive"),
            "it ran in {url} once the document was {}, not at its start",
            found["state"]
        );
        Ok(())
    };
    for path in ["/", "/second", "/framed"] {
        let url = ctx.site.url(path);
        step("navigate", driver.navigate(&url).await)?;
        seen(&[], &url).await?;
        let page = step(
            "look from the page",
            driver.eval("typeof window.__kept").await,
        )?;
        ensure!(page == "undefined", "the page's world sees it: {page}");
    }
    seen(&[0], &ctx.site.url("/second")).await?;
    step("close", driver.close().await)?;
    Ok(Verdict::Pass)
}

/// The pixels of a PNG's box (`x`, `y`, width, height) that are dark:
/// every channel below 100.
pub(super) fn dark_pixels(png: &[u8], [x, y, width, height]: [usize; 4]) -> Result<usize, String> {
    let (pixels, channels, columns, rows) = decoded_png(png)?;
    let mut dark = 0;
    for row in y..(y + height).min(rows) {
        for column in x..(x + width).min(columns) {
            let at = (row * columns + column) * channels;
            if pixels[at..at + channels.min(3)]
                .iter()
                .all(|&value| value < 100)
            {
                dark += 1;
            }
        }
    }
    Ok(dark)
}

/// A paint probe pictures the page as drawn, then after each step's
/// scripts (in tabwright's world, in the top document and in a frame's)
/// the page with that text taken out of the paint by the probe's sheet,
/// with and without markers; puts the paint back after; and the page
/// hears nothing of it: no mutation, no event, no new style sheet, no
/// computed style changed.
pub(super) async fn paint_probe_pictures_the_paint(ctx: &Ctx) -> CheckResult {
    let listen = r#"<script>
        window.heard = [];
        new MutationObserver((records) => heard.push(`mutation of ${records[0].target.nodeName}`))
          .observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
        // (The window's own focus comes and goes with the harness: WebDriver
        // brings its window forward, and Firefox tells the document too. An
        // element's focus is the page's.)
        const hear = (event) => { if (event.target !== window && event.target !== document) heard.push(event.type); };
        for (const type of ["focus", "blur", "resize", "scroll", "pointermove", "visibilitychange",
                            "selectionchange", "animationstart", "transitionrun"]) {
          addEventListener(type, hear, true);
          document.addEventListener(type, hear, true);
        }
        window.sheets = document.styleSheets.length;
        </script>"#;
    ctx.site
        .page(
            "/painted-inner",
            &format!(
                "<!doctype html><style>body {{ margin: 0; background: #fff }}</style>\
                 <div id=words style='position: absolute; left: 0; top: 0; \
                 font: bold 64px sans-serif; color: #000'>FRAME</div>{listen}"
            ),
        )
        .await;
    ctx.site
        .page(
            "/painted",
            &format!(
                "<!doctype html><title>Painted</title><style>body {{ margin: 0; background: #fff }} \
                 #words {{ position: absolute; left: 40px; top: 40px; font: bold 64px sans-serif; color: #000 }} \
                 iframe {{ position: absolute; left: 40px; top: 300px; width: 500px; height: 200px; border: 0 }}</style>\
                 <div id=words>WORDS</div><iframe src='/painted-inner'></iframe>{listen}"
            ),
        )
        .await;
    let driver = ctx.driver();
    step("navigate", driver.navigate(&ctx.site.url("/painted")).await)?;
    // The process's own sheet and highlight: a backend that gives a sheet
    // only as the browser starts (Firefox) has that one.
    let name = driver_core::highlight_name();
    let take_out = |frame: Vec<u32>| FrameScript {
        frame,
        expression: format!(
            "(() => {{ const range = new Range(); \
             range.selectNodeContents(document.getElementById('words')); \
             CSS.highlights.set('{name}', new Highlight(range)); return true; }})()"
        ),
    };
    let put_back = |frame: Vec<u32>| FrameScript {
        frame,
        expression: format!("CSS.highlights.delete('{name}')"),
    };
    const WORDS: [usize; 4] = [40, 40, 400, 80];
    const FRAME: [usize; 4] = [40, 300, 400, 80];
    for (still, marked) in [(true, false), (false, true)] {
        let probe = PaintProbe {
            sheet: driver_core::paint_sheet().to_owned(),
            frames: vec![vec![], vec![0]],
            steps: vec![vec![], vec![take_out(vec![])], vec![take_out(vec![0])]],
            after: vec![put_back(vec![]), put_back(vec![0])],
            still,
            marked,
            area: None,
        };
        let pictures = match needs(
            driver.as_ref(),
            Capability::PaintProbe,
            "paint probe",
            driver.paint_probe(&probe).await,
        )? {
            Needed::Value(pictures) => pictures,
            Needed::Unsupported(outcome) => return Ok(outcome),
        };
        ensure!(
            pictures.len() == 3,
            "{} pictures for three steps",
            pictures.len()
        );
        let mut dark = Vec::new();
        for picture in &pictures {
            ensure!(
                png_size(picture) == Some((1280, 800)),
                "a picture is {:?}, not the 1280x800 viewport",
                png_size(picture)
            );
            dark.push((dark_pixels(picture, WORDS)?, dark_pixels(picture, FRAME)?));
        }
        let expected = |(words, frame): (usize, usize), shown: (bool, bool)| {
            (words > 500) == shown.0
                && (words < 20) != shown.0
                && (frame > 500) == shown.1
                && (frame < 20) != shown.1
        };
        ensure!(
            expected(dark[0], (true, true))
                && expected(dark[1], (false, true))
                && expected(dark[2], (false, false)),
            "(still {still}, marked {marked}) dark pixels of the page's words and the frame's, \
             as drawn and after each step: {dark:?}"
        );
        let shot = step(
            "PNG after the probe",
            driver.screenshot(ScreenshotOptions::default()).await,
        )?;
        let back = (dark_pixels(&shot, WORDS)?, dark_pixels(&shot, FRAME)?);
        ensure!(
            back.0 > 500 && back.1 > 500,
            "after the probe the words are not painted back: {back:?} dark pixels"
        );
    }
    let style = "[heard, document.styleSheets.length - sheets, \
                 getComputedStyle(document.getElementById('words')).color]";
    for frame in [&[][..], &[0]] {
        let page = step(
            "what the page heard",
            driver.eval_in_frame(frame, style).await,
        )?;
        ensure!(
            page == serde_json::json!([[], 0, "rgb(0, 0, 0)"]),
            "the page (frame {frame:?}) noticed the probe: [heard, new sheets, colour] = {page}"
        );
    }
    Ok(Verdict::Pass)
}

/// A handover gives tabwright's world what no script there can read: a
/// closed shadow root (in the top document and in a frame's), and what
/// Chromium's accessibility tree says of a custom element whose role,
/// name and state only `ElementInternals` declares; an element that is in
/// no document yet is handed over as it is; the page's world sees nothing
/// of the roots.
pub(super) async fn hand_over_gives_closed_roots_and_the_tree(ctx: &Ctx) -> CheckResult {
    let components = r#"<div role=listbox><x-pick>Apple</x-pick></div><x-sealed></x-sealed>
        <script>
        customElements.define("x-pick", class extends HTMLElement {
          constructor() { super(); const inner = this.attachInternals();
            inner.role = "option"; inner.ariaLabel = "Apple pie"; inner.ariaSelected = "true"; } });
        customElements.define("x-sealed", class extends HTMLElement {
          constructor() { super(); this.attachShadow({ mode: "closed" }).innerHTML = "<b>sealed words</b>"; } });
        window.listed = () => [document.querySelector("x-pick"), document.querySelector("x-sealed"),
                               document.createElement("div")];
        </script>"#;
    ctx.site
        .page("/sealed-inner", &format!("<!doctype html>{components}"))
        .await;
    ctx.site
        .page(
            "/sealed",
            &format!("<!doctype html><title>Sealed</title>{components}<iframe src='/sealed-inner'></iframe>"),
        )
        .await;
    let driver = ctx.driver();
    step("navigate", driver.navigate(&ctx.site.url("/sealed")).await)?;
    let receive = "function (facts, ...nodes) { \
        return [facts, nodes.map((node) => node === undefined ? null : \
          node.nodeType === 11 ? node.innerHTML : node.localName)]; }";
    for frame in [vec![], vec![0]] {
        let handover = Handover {
            frame: frame.clone(),
            elements: "listed()".to_owned(),
            receive: receive.to_owned(),
            accessible: true,
            generated: false,
        };
        let handed = match needs(
            driver.as_ref(),
            Capability::BrowserTree,
            "hand over",
            driver.hand_over(&handover).await,
        )? {
            Needed::Value(handed) => handed,
            Needed::Unsupported(outcome) => return Ok(outcome),
        };
        let nodes = &handed[1];
        ensure!(
            *nodes
                == serde_json::json!([
                    "x-pick",
                    null,
                    "x-sealed",
                    "<b>sealed words</b>",
                    "div",
                    null
                ]),
            "in frame {frame:?} the elements and roots handed over are {nodes}"
        );
        let pick = &handed[0][0];
        ensure!(
            pick["role"] == "option"
                && pick["name"] == "Apple pie"
                && pick["from"] == "attribute"
                && pick["states"]["selected"] == true,
            "in frame {frame:?} Chromium's tree said of the option {pick}"
        );
    }
    let page = step(
        "the page's view",
        driver
            .eval("document.querySelector('x-sealed').shadowRoot === null")
            .await,
    )?;
    ensure!(page == true, "the closed root opened to the page");
    Ok(Verdict::Pass)
}
