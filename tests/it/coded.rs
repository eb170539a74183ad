//! `run`, a script of tool calls, on both backends against real pages: a
//! loop over the numbered elements, branches on answers, a secret typed by
//! name and never returned, a URL the guard refuses inside a script, each
//! limit (time during a call, calls, memory), and a script cancelled
//! mid-way. How a script ends without a page (a throw's line, what it can
//! reach) is tested over the fake driver in `tools`.

use std::time::Duration;

use driver_core::{Driver, Options};
use serde_json::json;
use tabwright_tests::Backend;
use tools::{Group, PackOptions, Secret};

use crate::tools::Session;

const SECRET: &str = "correct horse 42";

async fn start(backend: Backend) -> Session {
    let pack = PackOptions {
        groups: vec![Group::Core, Group::Code, Group::Script],
        script_engine: crate::script_engine(),
        secrets: vec![Secret {
            name: "PASSWORD".to_owned(),
            value: SECRET.to_owned(),
        }],
        ..PackOptions::default()
    };
    let options = Options {
        timeout: Duration::from_secs(15),
        ..Options::default()
    };
    Session::start_packed(backend, pack, options).await
}

/// Six to-dos added and four ticked by one script, against the same by
/// twelve calls (open, six types, a snapshot to find the boxes, four
/// clicks): the same page afterwards, and fewer tokens in one answer.
async fn loops_and_branches(backend: Backend) {
    let mut s = start(backend).await;
    let url = s.url("/fx/todo.html");
    let script = format!(
        r#"const page = await tw.open({{url: "{url}"}});
if (!page.includes("What needs to be done?")) throw new Error("not the to-do page");
const field = (await tw.elements()).find((e) => e.role === "textbox");
for (const title of ["milk", "eggs", "bread", "tea", "jam", "rice"]) {{
  await tw.type({{element: field.number, text: title, submit: true}});
}}
let ticked = 0;
for (const e of await tw.elements()) {{
  if (e.role === "checkbox" && e.checked === false && !e.name.includes("Mark all") && ticked < 4) {{
    const answer = await tw.click({{element: e.number}});
    if (answer.includes("nothing on the page changed")) throw new Error("a tick did nothing");
    ticked += 1;
  }}
}}
return {{ticked, left: (await tw.elements()).filter((e) => e.checked === false).length}};"#
    );
    let answer = s.pack.call("run", json!({ "script": script })).await;
    assert!(!answer.is_error, "{}", answer.text);
    assert!(answer.text.contains("\"ticked\": 4"), "{}", answer.text);
    assert!(answer.text.contains("Its calls (14,"), "{}", answer.text);
    assert!(
        answer.text.contains("The page after the script's 14 calls"),
        "{}",
        answer.text
    );
    assert!(answer.text.contains("2 items left"), "{}", answer.text);
    let state = s.pack.driver().eval("todoState()").await.expect("state");
    assert_eq!(
        state,
        json!("milk (done), eggs (done), bread (done), tea (done), jam, rice")
    );

    // The same by twelve calls, as a model would make them.
    let page = s.ok("open", json!({ "url": url })).await;
    let field = Session::number(&page, "textbox");
    let tokens = |text: &str| {
        tiktoken_rs::cl100k_base()
            .expect("the cl100k table")
            .encode_with_special_tokens(text)
            .len()
    };
    let mut by_calls = tokens(&page.text);
    let mut last = page;
    for title in ["milk", "eggs", "bread", "tea", "jam", "rice"] {
        last = s
            .ok(
                "type",
                json!({ "element": field, "text": title, "submit": true }),
            )
            .await;
        by_calls += tokens(&last.text);
    }
    let snapshot = s.ok("snapshot", json!({})).await;
    by_calls += tokens(&snapshot.text);
    let boxes: Vec<u32> = snapshot
        .text
        .lines()
        .filter(|line| line.contains("checkbox") && !line.contains("Mark all"))
        .filter_map(|line| tools::element_number(line, "checkbox"))
        .take(4)
        .collect();
    for number in boxes {
        last = s.ok("click", json!({ "element": number })).await;
        by_calls += tokens(&last.text);
    }
    assert!(last.text.contains("2 items left"), "{}", last.text);
    let script_tokens = tokens(&answer.text);
    eprintln!(
        "run: one answer of {script_tokens} cl100k tokens for what twelve calls answered in {by_calls}"
    );
    assert!(
        script_tokens < by_calls,
        "the script's answer ({script_tokens} tokens) is no shorter than the calls' ({by_calls})"
    );
    s.pack.close().await;
}

/// A secret typed by name reaches the field and never the script's
/// answer, however the script asks for it back; a URL the guard refuses is
/// refused inside a script as outside.
async fn guarded(backend: Backend) {
    let s = start(backend).await;
    let url = s.url("/fx/echo.html");
    let script = format!(
        r#"await tw.open({{url: "{url}"}});
const field = (await tw.elements()).find((e) => e.role === "textbox");
const typed = await tw.type({{element: field.number, text: "{{{{secret:PASSWORD}}}}"}});
let value = "";
try {{ value = await tw.evaluate({{expression: "[...document.getElementById('secret').value].reverse().join(' ')"}}); }} catch (e) {{ value = e.message; }}
const seen = (await tw.elements()).find((e) => e.number === field.number).value;
let refused = "";
try {{ await tw.open({{url: "http://10.20.30.40/admin"}}); }} catch (e) {{ refused = e.message; }}
return {{typed, value, seen, refused}};"#
    );
    let answer = s.pack.call("run", json!({ "script": script })).await;
    assert!(!answer.is_error, "{}", answer.text);
    assert!(!answer.text.contains(SECRET), "{}", answer.text);
    assert!(!answer.text.contains("horse"), "{}", answer.text);
    assert!(answer.text.contains("••••"), "{}", answer.text);
    // The page's own script is not run where a secret was typed.
    assert!(
        answer.text.contains("a secret was typed on this page"),
        "{}",
        answer.text
    );
    assert!(!answer.text.contains("2 4"), "{}", answer.text);
    assert!(answer.text.contains("refused"), "{}", answer.text);
    assert!(answer.text.contains("10.20.30.40"), "{}", answer.text);
    let field = s
        .pack
        .driver()
        .eval("document.getElementById('secret').value")
        .await
        .expect("the field");
    assert_eq!(field, json!(SECRET), "the secret was not typed");
    let url = s
        .pack
        .driver()
        .eval("location.href")
        .await
        .expect("the URL");
    assert!(
        url.as_str()
            .is_some_and(|url| url.ends_with("/fx/echo.html")),
        "{url}"
    );
    s.pack.close().await;
}

/// A script's time runs out during a call (stopped there, not after it),
/// its calls and memory run out, and a script cancelled mid-way leaves
/// the pack free at once.
async fn stopped(backend: Backend) {
    let mut s = start(backend).await;
    let url = s.url("/fx/todo.html");
    // The browser started first: on a busy machine its start alone can
    // take the script's 2 s, and the time must run out during the wait.
    s.ok("open", json!({ "url": url })).await;
    let started = std::time::Instant::now();
    let timed = s
        .pack
        .call(
            "run",
            json!({
                "script": format!("await tw.open({{url: \"{url}\"}});\nawait tw.wait_for({{text: \"never on the page\"}});"),
                "timeout": 2,
            }),
        )
        .await;
    assert!(timed.is_error, "{}", timed.text);
    assert!(
        timed.text.contains("ran longer than its 2 s"),
        "{}",
        timed.text
    );
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    // The other limits, with a page behind the calls.
    let calls = s
        .pack
        .call(
            "run",
            json!({ "script": "for (;;) { await tw.console(); }" }),
        )
        .await;
    assert!(calls.is_error, "{}", calls.text);
    assert!(
        calls.text.contains("more than 200 tool calls"),
        "{}",
        calls.text
    );
    let memory = s
        .pack
        .call(
            "run",
            json!({ "script": "await tw.tabs(); const all = []; for (;;) all.push('x'.repeat(65536) + all.length);" }),
        )
        .await;
    assert!(memory.is_error, "{}", memory.text);
    assert!(memory.text.contains("more than 64 MiB"), "{}", memory.text);
    let cancelled = s
        .pack
        .call_until(
            "run",
            json!({ "script": "for (;;) { await tw.snapshot(); await tw.wait_for({text: \"never on the page\"}); }" }),
            tokio::time::sleep(Duration::from_millis(1500)),
        )
        .await;
    assert!(
        cancelled.is_error && cancelled.text.starts_with("Stopped"),
        "{}",
        cancelled.text
    );
    let next = s.ok("snapshot", json!({})).await;
    assert!(
        next.text.contains("What needs to be done?"),
        "{}",
        next.text
    );
    s.pack.close().await;
}

/// A page that copies the first three characters of a field into
/// another as they are typed, and an editable note.
const PIECES: &str = r#"<!doctype html><html><head><title>Pieces</title></head><body>
<label>Code <input id="code" type="text"></label>
<label>Echo <input id="echo" type="text"></label>
<label>Other <input id="other" type="text"></label>
<div id="note" contenteditable="true" role="textbox" aria-label="Note" style="min-height: 2em"></div>
<script>
const code = document.getElementById('code');
code.addEventListener('input', () => { document.getElementById('echo').value = code.value.slice(0, 3); });
</script>
</body></html>"#;

/// A secret typed into a plain text field and cut down with keys to
/// pieces shorter than any scrub matches, each read back (the issue's
/// attack, in one script): every read shows the field, and the page's copy
/// of it, as holding a secret, while the browser's own field does hold
/// each piece; typing plain text over the field makes it readable again.
async fn secret_pieces_never_read_back(backend: Backend) {
    let mut s = start(backend).await;
    s.site.page("/pieces", PIECES).await;
    let url = s.url("/pieces");
    s.ok("open", json!({ "url": url })).await;
    let script = r#"const number = (name) => tw.elements().then((all) => all.find((e) => e.name === name).number);
const values = async () => (await tw.elements()).filter((e) => e.role === "textbox").map((e) => e.name + "=" + e.value);
const code = await number("Code");
await tw.type({element: code, text: "{{secret:PASSWORD}}"});
const seen = [await values()];
await tw.press({keys: "End " + "Backspace ".repeat(13)});
seen.push(await values());
await tw.press({keys: "Home Delete"});
seen.push(await values());
await tw.type({element: await number("Note"), text: "{{secret:PASSWORD}}"});
await tw.press({keys: "Backspace ".repeat(12)});
seen.push(await values());
return seen;"#;
    let answer = s.ok("run", json!({ "script": script })).await;
    // The browser holds the pieces: the reads were real.
    let field = s
        .pack
        .driver()
        .eval("[document.getElementById('code').value, document.getElementById('echo').value, document.getElementById('note').innerText.trim()]")
        .await
        .expect("the fields");
    assert_eq!(field, json!(["or", "or", "corr"]), "{}", answer.text);
    for piece in ["cor", "or\"", "=or", "corr", "horse", "se 42"] {
        assert!(!answer.text.contains(piece), "{piece}: {}", answer.text);
    }
    assert!(answer.text.contains("Code=••••"), "{}", answer.text);
    assert!(answer.text.contains("Echo=••••"), "{}", answer.text);
    assert!(answer.text.contains("Note=••••"), "{}", answer.text);
    let snapshot = s.ok("snapshot", json!({})).await;
    assert!(!snapshot.text.contains("corr"), "{}", snapshot.text);
    assert!(!snapshot.text.contains("\"or\""), "{}", snapshot.text);
    // Copied through the clipboard into another field and cut down there
    // to one character: still read as a secret's.
    let snapshot = s.ok("snapshot", json!({})).await;
    let other = Session::number(&snapshot, "textbox \"Other\"");
    let code = Session::number(&snapshot, "textbox \"Code\"");
    s.ok("click", json!({ "element": code })).await;
    s.ok("press", json!({ "keys": "Control+a Control+c" }))
        .await;
    s.ok("click", json!({ "element": other })).await;
    s.ok("press", json!({ "keys": "Control+v End Backspace" }))
        .await;
    let pasted = s
        .pack
        .driver()
        .eval("document.getElementById('other').value")
        .await
        .expect("the field");
    // (The browser's own clipboard carried a piece: the truth below.)
    assert_eq!(pasted, json!("o"), "the paste did not happen");
    let read = s.ok("snapshot", json!({})).await;
    assert!(
        read.text.contains("textbox \"Other\" = \"••••\""),
        "{}",
        read.text
    );
    // A picture shows that the field holds a secret, never what: the field
    // is covered in the tool's picture, not in the browser's own.
    let rect = s
        .pack
        .driver()
        .eval("(() => { const r = document.getElementById('code').getBoundingClientRect(); return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)]; })()")
        .await
        .expect("the field's box");
    let (x, y) = (
        rect[0].as_u64().expect("x") as usize,
        rect[1].as_u64().expect("y") as usize,
    );
    let pixel = |png: &[u8]| {
        let (pixels, channels, width, _) =
            tabwright_tests::conformance::decoded_png(png).expect("a PNG");
        let at = (y * width + x) * channels;
        [pixels[at], pixels[at + 1], pixels[at + 2]]
    };
    let shot = s.ok("screenshot", json!({ "format": "png" })).await;
    assert_eq!(
        pixel(&shot.images[0].data),
        [128, 128, 128],
        "{}",
        shot.text
    );
    let own = s
        .pack
        .driver()
        .screenshot(driver_core::ScreenshotOptions::default())
        .await
        .expect("a picture");
    assert_ne!(pixel(&own), [128, 128, 128], "the field is grey on its own");
    let left = s
        .pack
        .driver()
        .eval("document.querySelectorAll('tabwright-covers, tabwright-marks').length")
        .await
        .expect("the page");
    assert_eq!(left, json!(0), "a cover stayed on the page");
    // The model's own words, typed over the whole field, read as they are.
    let code = Session::number(&snapshot, "textbox \"Code\"");
    let typed = s
        .ok("type", json!({ "element": code, "text": "plain words" }))
        .await;
    assert!(
        typed.text.contains("\"Code\" = \"plain words\""),
        "{}",
        typed.text
    );
    assert!(!typed.text.contains("But ["), "{}", typed.text);
    assert!(!answer.text.contains("But ["), "{}", answer.text);
    s.pack.close().await;
}

both_backends!(
    loops_and_branches,
    guarded,
    stopped,
    secret_pieces_never_read_back
);
