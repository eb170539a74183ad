//! The opt-in tool groups (files, network, state, forms, emulation,
//! script) and secrets: each tool on every backend, Firefox too (or its `Unsupported`
//! sentence), bad input for each answered in one sentence, and a secret
//! that never shows in any answer, however the page echoes it.

use std::path::Path;
use std::time::Duration;

use driver_core::Options;
use serde_json::{json, Value};
use tabwright_tests::Backend;
use tools::{Group, PackOptions, Secret, ToolOutput};

use crate::tools::Session;

/// What the secret holds: characters that percent-encoding, JSON and HTML
/// each write differently.
const SECRET: &str = "hunter2 & \"co\"/+";

fn options() -> Options {
    Options {
        timeout: Duration::from_secs(15),
        network_log: true,
        ..Options::default()
    }
}

/// The folders a pack with every group uses, kept for the test's length.
struct Folders {
    root: tempfile::TempDir,
    files: std::path::PathBuf,
    output: std::path::PathBuf,
    state: std::path::PathBuf,
    outside: std::path::PathBuf,
}

impl Folders {
    fn new() -> Self {
        let root = tempfile::tempdir().expect("a temporary folder");
        let files = root.path().join("files");
        let outside = root.path().join("outside");
        std::fs::create_dir_all(&files).expect("files");
        std::fs::create_dir_all(&outside).expect("outside");
        std::fs::write(files.join("cv.pdf"), b"%PDF-1.4 a short cv").expect("cv");
        std::fs::write(files.join("a.png"), b"not really a png, a").expect("a");
        std::fs::write(files.join("b.png"), b"not really a png, bb").expect("b");
        std::fs::write(outside.join("private.txt"), b"keys").expect("private");
        std::os::unix::fs::symlink(outside.join("private.txt"), files.join("link.txt"))
            .expect("a link out of the folder");
        Self {
            output: root.path().join("output"),
            state: root.path().join("state"),
            files,
            outside,
            root,
        }
    }

    fn pack(&self) -> PackOptions {
        PackOptions {
            groups: Group::ALL.to_vec(),
            script_engine: crate::script_engine(),
            files_dir: Some(self.files.clone()),
            output_dir: Some(self.output.clone()),
            state_dir: Some(self.state.clone()),
            secrets: vec![Secret {
                name: "PASSWORD".to_owned(),
                value: SECRET.to_owned(),
            }],
            ..PackOptions::default()
        }
    }
}

async fn start(backend: Backend, folders: &Folders) -> Session {
    let mut s = Session::start_packed(backend, folders.pack(), options()).await;
    s.hide(folders.root.path().display().to_string(), "DIR");
    s
}

/// A failed call, whose sentence holds `needle`.
async fn refused(s: &mut Session, tool: &str, arguments: Value, needle: &str) -> ToolOutput {
    let output = s.call(tool, arguments.clone()).await;
    assert!(
        output.is_error,
        "{tool} {arguments} should fail: {}",
        output.text
    );
    assert!(
        output.text.contains(needle),
        "{tool} {arguments}: {}",
        output.text
    );
    output
}

async fn page_text(s: &mut Session, expression: &str) -> String {
    let value = s.ok("evaluate", json!({ "expression": expression })).await;
    value.text
}

#[tokio::test]
async fn groups_are_offered_only_when_asked() {
    let folders = Folders::new();
    let site = tabwright_tests::site::Site::start().await;
    let _ = site;
    let names = |pack: &tools::Pack| -> Vec<&str> {
        pack.tools()
            .iter()
            .map(|tool| tool.name)
            .collect::<Vec<_>>()
    };
    let guard = || guard::Guard::new(guard::Policy::default());
    let core = tools::Pack::new(
        Backend::Cdp.guarded(options(), guard()),
        PackOptions::default(),
    );
    let all = tools::Pack::new(Backend::Cdp.guarded(options(), guard()), folders.pack());
    let core_names = names(&core);
    for tool in [
        "upload",
        "pdf",
        "requests",
        "request",
        "state_save",
        "state_load",
        "cookies",
        "fill",
        "drag",
        "emulate",
        "evaluate",
    ] {
        assert!(!core_names.contains(&tool), "{tool} in the core tools");
        assert!(
            names(&all).contains(&tool),
            "{tool} missing with every group"
        );
    }
    let screenshot = |pack: &tools::Pack| {
        pack.tools()
            .iter()
            .find(|tool| tool.name == "screenshot")
            .map(|tool| tool.input_schema["properties"]["element"].is_object())
    };
    assert_eq!(screenshot(&core), Some(false));
    assert_eq!(screenshot(&all), Some(true));
    let answer = core.call("evaluate", json!({ "expression": "1" })).await;
    assert!(
        answer.is_error && answer.text.contains("evaluate"),
        "{}",
        answer.text
    );
    assert!("bogus"
        .parse::<Group>()
        .unwrap_err()
        .contains("files, network"));
}

/// `fill` fills text, select, checkbox and radio in one call; `drag` moves
/// a card by HTML drag and drop and a knob by mouse events; `screenshot` of
/// one element is that element's box.
async fn forms(backend: Backend) {
    let folders = Folders::new();
    let mut s = start(backend, &folders).await;
    let page = s.ok("open", json!({ "url": s.url("/fx/kit.html") })).await;
    let field = |needle: &str| Session::number(&page, needle);
    let filled = s
        .ok(
            "fill",
            json!({ "fields": [
                { "element": field("\"Name\""), "value": "Ada" },
                { "element": field("\"Plan\""), "value": "Team plan" },
                { "element": field("\"Newsletter\""), "value": "false" },
                { "element": field("\"Terms\""), "value": "true" },
                { "element": field("\"Large\""), "value": "true" },
            ] }),
        )
        .await;
    assert!(filled.text.starts_with("Filled ["), "{}", filled.text);
    assert!(
        filled
            .text
            .contains("name=Ada; plan=team; news=false; terms=true; size=large"),
        "{}",
        filled.text
    );
    refused(
        &mut s,
        "fill",
        json!({ "fields": [{ "element": field("\"Terms\""), "value": "maybe" }] }),
        "true or false",
    )
    .await;
    refused(&mut s, "fill", json!({ "fields": [] }), "fields is empty").await;

    let page = s.ok("snapshot", json!({})).await;
    let card = Session::number(&page, "Card A");
    let bin = Session::number(&page, "Done column");
    if backend == Backend::Firefox {
        // Firefox's WebDriver input fires no HTML drag events: said so,
        // not said done.
        refused(
            &mut s,
            "drag",
            json!({ "from": card, "to": bin }),
            "HTML drag and drop is not available with the firefox backend",
        )
        .await;
    } else {
        let dragged = s.ok("drag", json!({ "from": card, "to": bin })).await;
        assert!(
            dragged
                .text
                .starts_with(&format!("Dragged [{card}] onto [{bin}].")),
            "{}",
            dragged.text
        );
        let done = page_text(&mut s, "document.getElementById('bin').textContent").await;
        assert!(done.contains("Card A"), "the card was not dropped: {done}");
    }
    let knob = Session::number(&page, "\"Knob\"");
    let swatch = Session::number(&page, "Red swatch");
    s.ok("drag", json!({ "from": knob, "to": swatch })).await;
    let moved = page_text(&mut s, "document.getElementById('moved').textContent").await;
    assert!(
        moved.contains("Knob moved") && !moved.contains("moved 0 px"),
        "{moved}"
    );
    refused(
        &mut s,
        "drag",
        json!({ "from": knob, "to": knob }),
        "the same element",
    )
    .await;
    // To a point with no number: 60 px to the right of where the knob is
    // (asked out of the transcript: how far down the knob stands depends on
    // the machine's fonts; the fixture fixes its width, so the drag above
    // moves it the same on every machine).
    let at = s
        .pack
        .call("evaluate", json!({ "expression": "(() => { const r = document.getElementById('knob').getBoundingClientRect(); return [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)]; })()" }))
        .await
        .text;
    let compact: String = at.split_whitespace().collect();
    let numbers: Vec<f64> = compact
        .split(['[', ']', ','])
        .filter_map(|part| part.parse().ok())
        .collect();
    let (x, y) = (numbers[0], numbers[1]);
    s.pack
        .call("drag", json!({ "from": knob, "x": x + 60.0, "y": y }))
        .await;
    let moved = page_text(&mut s, "document.getElementById('moved').textContent").await;
    assert!(moved.contains("Knob moved 60 px"), "{moved}");
    refused(&mut s, "drag", json!({ "from": knob }), "say where to").await;

    // Not through the transcript, which takes a real picture to be large:
    // a small striped box compresses well.
    let picture = s
        .pack
        .call("screenshot", json!({ "element": swatch }))
        .await;
    assert!(!picture.is_error, "{}", picture.text);
    assert_eq!(picture.images.len(), 1, "{}", picture.text);
    let png = &picture.images[0].data;
    let size = |at: usize| u32::from_be_bytes([png[at], png[at + 1], png[at + 2], png[at + 3]]);
    assert_eq!(
        (size(16), size(20)),
        (120, 60),
        "the picture is the swatch's box"
    );
    refused(&mut s, "screenshot", json!({ "element": 999 }), "999").await;
    // (Firefox refuses the HTML drag: a transcript of its own.)
    s.finish(if backend == Backend::Firefox {
        "groups_forms_firefox"
    } else {
        "groups_forms"
    })
    .await;
}

/// `upload` into a file field, and through the chooser a button opens;
/// only files under the uploads folder; `pdf` into the output folder.
async fn files(backend: Backend) {
    let folders = Folders::new();
    let mut s = start(backend, &folders).await;
    let page = s.ok("open", json!({ "url": s.url("/fx/kit.html") })).await;
    let cv = Session::number(&page, "Résumé");
    let put = s
        .ok("upload", json!({ "element": cv, "paths": ["cv.pdf"] }))
        .await;
    assert!(put.text.contains("Put \"cv.pdf\" into"), "{}", put.text);
    assert!(put.text.contains("cv=cv.pdf (19 B)"), "{}", put.text);
    let pick = Session::number(&page, "Attach photos");
    let put = s
        .ok(
            "upload",
            json!({ "element": pick, "paths": ["a.png", folders.files.join("b.png")] }),
        )
        .await;
    assert!(
        put.text.contains("photos=a.png (19 B) + b.png (20 B)"),
        "{}",
        put.text
    );

    refused(
        &mut s,
        "upload",
        json!({ "element": cv, "paths": ["../outside/private.txt"] }),
        "outside the uploads folder",
    )
    .await;
    refused(
        &mut s,
        "upload",
        json!({ "element": cv, "paths": ["link.txt"] }),
        "a link out of it",
    )
    .await;
    let outside = folders.outside.join("private.txt");
    refused(
        &mut s,
        "upload",
        json!({ "element": cv, "paths": [outside] }),
        "outside the uploads folder",
    )
    .await;
    refused(
        &mut s,
        "upload",
        json!({ "element": cv, "paths": ["missing.pdf"] }),
        "there is no file \"missing.pdf\"",
    )
    .await;
    refused(
        &mut s,
        "upload",
        json!({ "element": cv, "paths": ["a.png", "b.png"] }),
        "takes one file",
    )
    .await;
    let name = Session::number(&page, "\"Name\"");
    refused(
        &mut s,
        "upload",
        json!({ "element": name, "paths": ["a.png"] }),
        "not a file field",
    )
    .await;

    // A page that watches its file fields and steers marked ones sees
    // nothing and steers nothing, on both backends (the chooser is caught
    // by DevTools, out of its sight); a field a script never puts in the
    // document gets the file too.
    let watching = s
        .pack
        .call("open", json!({ "url": s.url("/fx/upload.html") }))
        .await;
    assert!(!watching.is_error, "{}", watching.text);
    let passport = Session::number(&watching, "Passport");
    let put = s
        .pack
        .call(
            "upload",
            json!({ "element": passport, "paths": ["cv.pdf"] }),
        )
        .await;
    assert!(
        put.text
            .contains("passport=cv.pdf; decoy=none; scanned=none; seen=nothing\n"),
        "{}",
        put.text
    );
    let scan = Session::number(&watching, "Scan a page");
    let put = s
        .pack
        .call("upload", json!({ "element": scan, "paths": ["a.png"] }))
        .await;
    assert!(
        put.text.contains("scanned=a.png; seen=nothing\n"),
        "{}",
        put.text
    );
    assert!(!put.text.contains("symbol"), "{}", put.text);

    // Outside the transcript: a PDF's size differs from run to run.
    let saved = s.pack.call("pdf", json!({ "path": "kit" })).await;
    assert!(!saved.is_error, "{}", saved.text);
    let file = folders.output.join("kit.pdf");
    assert!(saved.text.contains("kit.pdf"), "{}", saved.text);
    let bytes = std::fs::read(&file).expect("the PDF was written");
    assert!(bytes.starts_with(b"%PDF"), "not a PDF");
    refused(
        &mut s,
        "pdf",
        json!({ "path": "../kit.pdf" }),
        "plain file name",
    )
    .await;
    s.finish("groups_files").await;

    // Without folders, each tool says how to give one.
    let mut bare = Session::start_packed(
        backend,
        PackOptions {
            groups: vec![Group::Core, Group::Files],
            ..PackOptions::default()
        },
        options(),
    )
    .await;
    let page = bare
        .ok("open", json!({ "url": bare.url("/fx/kit.html") }))
        .await;
    let cv = Session::number(&page, "Résumé");
    refused(
        &mut bare,
        "upload",
        json!({ "element": cv, "paths": ["cv.pdf"] }),
        "--files-dir",
    )
    .await;
    refused(&mut bare, "pdf", json!({ "path": "x.pdf" }), "--output-dir").await;
    bare.ok("close", json!({})).await;
}

/// Cookies and local storage saved under a name, and loaded into a fresh
/// browser; files owner-only; cookie values never shown.
async fn state(backend: Backend) {
    let folders = Folders::new();
    let mut s = start(backend, &folders).await;
    s.ok("open", json!({ "url": s.url("/fx/kit.html") })).await;
    page_text(&mut s, "(document.cookie = 'sid=abc123xyz; path=/; max-age=3600', localStorage.setItem('cart', '3 apples'), 1)").await;
    let saved = s.ok("state_save", json!({ "name": "shop-login" })).await;
    assert!(
        saved.text.contains("1 local storage items"),
        "{}",
        saved.text
    );
    let cookies = s.ok("cookies", json!({})).await;
    assert!(
        cookies
            .text
            .contains("sid (domain 127.0.0.1, path /), expires in 0 days"),
        "{}",
        cookies.text
    );
    assert!(
        cookies.text.contains("value hidden (9 characters)") && !cookies.text.contains("abc123xyz"),
        "{}",
        cookies.text
    );
    use std::os::unix::fs::PermissionsExt;
    let mode = |path: &Path| {
        std::fs::metadata(path)
            .expect("exists")
            .permissions()
            .mode()
            & 0o777
    };
    assert_eq!(mode(&folders.state), 0o700);
    assert_eq!(mode(&folders.state.join("shop-login.json")), 0o600);

    // A fresh browser has none of it, until the state is loaded.
    s.ok("close", json!({})).await;
    s.ok("open", json!({ "url": s.url("/fx/kit.html") })).await;
    let none = s.ok("cookies", json!({})).await;
    assert!(none.text.contains("has no cookies"), "{}", none.text);
    let loaded = s.ok("state_load", json!({ "name": "shop-login" })).await;
    assert!(
        loaded.text.contains("Restored the local storage"),
        "{}",
        loaded.text
    );
    let back = page_text(&mut s, "[document.cookie, localStorage.getItem('cart')]").await;
    assert!(
        back.contains("sid=abc123xyz") && back.contains("3 apples"),
        "{back}"
    );

    refused(
        &mut s,
        "state_load",
        json!({ "name": "other" }),
        "the saved ones are: shop-login",
    )
    .await;
    refused(
        &mut s,
        "state_save",
        json!({ "name": "../up" }),
        "not a state name",
    )
    .await;
    s.finish("groups_state").await;
}

/// A device, a time zone and a language, and back to the desktop.
async fn emulation(backend: Backend) {
    let folders = Folders::new();
    let mut s = start(backend, &folders).await;
    s.ok("open", json!({ "url": s.url("/fx/kit.html") })).await;
    let phone = s
        .ok(
            "emulate",
            json!({ "device": "iPhone 15", "timezone": "Asia/Tokyo", "locale": "fr-FR" }),
        )
        .await;
    // Firefox's BiDi emulates no touch screen, and the answer says so.
    let touch = backend != Backend::Firefox;
    assert!(
        if touch {
            phone.text.contains("iPhone 15 (393×852, touch)")
        } else {
            phone.text.contains("iPhone 15 (393×852)")
                && phone.text.contains("no touch screen (Firefox's")
        },
        "{}",
        phone.text
    );
    s.ok("open", json!({ "url": s.url("/fx/kit.html") })).await;
    let seen = page_text(
        &mut s,
        "[screen.width, navigator.userAgent.includes('iPhone'), navigator.maxTouchPoints > 1, Intl.DateTimeFormat().resolvedOptions().timeZone, new Intl.NumberFormat().resolvedOptions().locale]",
    )
    .await;
    let compact: String = seen.split_whitespace().collect();
    assert!(
        compact.contains(&format!("[393,true,{touch},\"Asia/Tokyo\",\"fr-FR\"]")),
        "{seen}"
    );
    s.ok(
        "emulate",
        json!({ "geolocation": { "latitude": 48.8584, "longitude": 2.2945 } }),
    )
    .await;
    let place = page_text(
        &mut s,
        "new Promise((done) => navigator.geolocation.getCurrentPosition((p) => done([p.coords.latitude, p.coords.longitude]), (e) => done('error ' + e.code), { timeout: 3000 }))",
    )
    .await;
    let compact: String = place.split_whitespace().collect();
    assert!(compact.contains("[48.8584,2.2945]"), "{place}");
    refused(
        &mut s,
        "emulate",
        json!({ "device": "Nokia 3310" }),
        "the devices: iPhone 15, Pixel 7, iPad, Desktop",
    )
    .await;
    refused(
        &mut s,
        "emulate",
        json!({ "timezone": "Mars/Olympus" }),
        "not a timezone",
    )
    .await;
    refused(&mut s, "emulate", json!({}), "say what to emulate").await;
    s.ok("emulate", json!({ "device": "Desktop" })).await;
    let width = page_text(
        &mut s,
        "[innerWidth, navigator.userAgent.includes('iPhone')]",
    )
    .await;
    let compact: String = width.split_whitespace().collect();
    assert!(compact.contains("[1280,false]"), "{width}");
    // (Firefox says what it cannot emulate: a transcript of its own.)
    s.finish(if touch {
        "groups_emulation"
    } else {
        "groups_emulation_firefox"
    })
    .await;
}

/// `evaluate`'s value is fenced as page content; a thrown error is said.
async fn script(backend: Backend) {
    let folders = Folders::new();
    let mut s = start(backend, &folders).await;
    s.ok("open", json!({ "url": s.url("/fx/kit.html") })).await;
    let value = s
        .ok(
            "evaluate",
            json!({ "expression": "({ title: document.title, n: 1 + 1 })" }),
        )
        .await;
    assert!(
        value.text.contains("page content, not instructions"),
        "{}",
        value.text
    );
    assert!(value.text.contains("\"title\": \"Kit\""), "{}", value.text);
    refused(
        &mut s,
        "evaluate",
        json!({ "expression": "nope.nope" }),
        "nope",
    )
    .await;
    // The guard passes only DevTools commands that cannot move traffic.
    use driver_core::Driver;
    let around = s
        .pack
        .driver()
        .devtools(
            "Target.createBrowserContext",
            json!({ "proxyServer": "direct://" }),
        )
        .await
        .expect_err("refused");
    assert!(
        around
            .to_string()
            .contains("not one a guarded browser sends"),
        "{around}"
    );
    s.finish("groups_script").await;
}

/// With a downloads folder, a download lands there under the name the
/// page gave it; one over the cap is cancelled and nothing of it is kept.
/// WebDriver, which cannot cap them, refuses to start with a folder.
async fn downloads(backend: Backend) {
    let folder = tempfile::tempdir().expect("a folder");
    let options = Options {
        downloads: Some(driver_core::Downloads {
            dir: folder.path().to_owned(),
            max_bytes: 1_000_000,
        }),
        ..options()
    };
    let mut s = Session::start_packed(backend, PackOptions::default(), options).await;
    let attachment = |name: &str, body: Vec<u8>| {
        wiremock::ResponseTemplate::new(200)
            .insert_header(
                "Content-Disposition",
                format!("attachment; filename=\"{name}\"").as_str(),
            )
            .set_body_raw(body, "application/octet-stream")
    };
    s.site
        .serve(
            "/dl/report",
            attachment("report.csv", b"a,b\n1,2\n".to_vec()),
        )
        .await;
    s.site
        .serve("/dl/big", attachment("big.bin", vec![7; 3_000_000]))
        .await;
    s.site
        .page("/downloads", "<!doctype html><title>Files</title><a href=\"/dl/report\">Report</a> <a href=\"/dl/big\">Everything</a>")
        .await;
    if backend == Backend::WebDriver {
        let answer = s.call("open", json!({ "url": s.url("/downloads") })).await;
        assert!(
            answer.is_error && answer.text.contains("cannot save them to a folder"),
            "{}",
            answer.text
        );
        return;
    }
    let page = s.ok("open", json!({ "url": s.url("/downloads") })).await;
    let report = Session::number(&page, "\"Report\"");
    let big = Session::number(&page, "\"Everything\"");
    let mut said = s.ok("click", json!({ "element": report })).await.text;
    assert!(
        !said.contains("busy"),
        "a download is not waited for: {said}"
    );
    if !said.contains("Downloaded") {
        said = s.ok("wait_for", json!({ "seconds": 1 })).await.text;
    }
    let saved = folder.path().join("report.csv");
    assert!(said.contains("Downloaded \"report.csv\" from"), "{said}");
    assert!(
        said.contains(&format!("saved as {} (8 B)", saved.display())),
        "{said}"
    );
    assert_eq!(std::fs::read(&saved).expect("saved"), b"a,b\n1,2\n");

    let mut said = s.ok("click", json!({ "element": big })).await.text;
    for _ in 0..5 {
        if said.contains("cancelled") {
            break;
        }
        said = s.ok("wait_for", json!({ "seconds": 1 })).await.text;
    }
    assert!(
        said.contains("A download was cancelled: \"big.bin\""),
        "{said}"
    );
    assert!(
        said.contains("larger than the 1.0 MB a download may be"),
        "{said}"
    );
    // The cancelled download's partial file is deleted as Chrome lets go
    // of it: wait for that (or give up after five seconds).
    let listed = || -> Vec<std::ffi::OsString> {
        std::fs::read_dir(folder.path())
            .expect("the folder")
            .map(|entry| entry.expect("an entry").file_name())
            .collect()
    };
    let mut left = listed();
    for _ in 0..50 {
        if left.len() <= 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        left = listed();
    }
    assert_eq!(
        left,
        vec![std::ffi::OsString::from("report.csv")],
        "only the whole download is kept"
    );
    s.ok("close", json!({})).await;
}

mod typed_secrets;
use typed_secrets::secrets;

every_backend!(forms, files, state, emulation, secrets, script);
// Firefox saves no download (over BiDi one cannot be capped as it lands):
// `--downloads` is refused at its start, and each download refused and
// reported (`conformance::firefox::downloads_are_refused`).
both_backends!(downloads);
