//! Firefox over WebDriver BiDi (issue 48, begun): Debian's `firefox-esr`
//! started by `driver_webdriver::firefox::Firefox`, held to the guard's
//! proxy, its sandbox a world of tabwright's own, its pictures real, and
//! nothing of it left once closed. What is true is what the servers heard,
//! the picture's bytes and the process table, not what the browser said.

use std::time::Duration;

use driver_core::Options;
use driver_webdriver::firefox::Firefox;
use guard::{AllowedOrigin, EgressProxy, Guard, Policy};
use serde_json::{json, Value};
use wiremock::matchers::path;
use wiremock::{Mock, MockServer, ResponseTemplate};

async fn serve(server: &MockServer, route: &str, body: &str) {
    Mock::given(path(route))
        .respond_with(
            ResponseTemplate::new(200).set_body_raw(body.to_owned(), "text/html; charset=utf-8"),
        )
        .mount(server)
        .await;
}

/// A Firefox behind a guard that allows `site` alone, its proxy, and its
/// first tab's context.
async fn started(site: &MockServer) -> (Guard, EgressProxy, Firefox, String) {
    let guard = Guard::new(Policy {
        allowed_origins: vec![AllowedOrigin::parse(&site.uri()).expect("an origin")],
        ..Policy::default()
    });
    let proxy = EgressProxy::start(guard.clone()).await.expect("the proxy");
    let options = Options {
        proxy: Some(proxy.url()),
        timeout: Duration::from_secs(20),
        ..Options::default()
    };
    let firefox = Firefox::start(&options).await.expect("Firefox starts");
    let tree = firefox
        .call("browsingContext.getTree", json!({}))
        .await
        .expect("its tabs");
    let context = tree["contexts"][0]["context"]
        .as_str()
        .expect("a tab")
        .to_owned();
    (guard, proxy, firefox, context)
}

/// Opens `url` in the context and waits for its load.
async fn navigate(firefox: &Firefox, context: &str, url: &str) -> driver_core::Result<Value> {
    firefox
        .call(
            "browsingContext.navigate",
            json!({ "context": context, "url": url, "wait": "complete" }),
        )
        .await
}

/// `expression`'s value in the context, in the page's realm or a sandbox.
async fn evaluate(
    firefox: &Firefox,
    context: &str,
    sandbox: Option<&str>,
    expression: &str,
) -> Value {
    let mut target = json!({ "context": context });
    if let Some(sandbox) = sandbox {
        target["sandbox"] = json!(sandbox);
    }
    let answer = firefox
        .call(
            "script.evaluate",
            json!({ "expression": expression, "target": target, "awaitPromise": true }),
        )
        .await
        .expect("evaluated");
    answer["result"]["value"].clone()
}

#[tokio::test(flavor = "multi_thread")]
async fn firefox_starts_held_to_the_guard_and_leaves_nothing() {
    if driver_webdriver::firefox::firefox_path().is_none() {
        panic!("no Firefox: `cargo xtask test` installs Debian's firefox-esr");
    }
    let site = MockServer::start().await;
    let private = MockServer::start().await;
    serve(
        &site,
        "/fox",
        "<!doctype html><title>Fox page</title><h1 style='font-size:60px'>Hello</h1>",
    )
    .await;
    serve(&private, "/secret", "<!doctype html><title>Secret</title>").await;
    let (guard, proxy, firefox, context) = started(&site).await;
    let (pid, profile) = (
        firefox.pid().expect("started here"),
        firefox.profile().expect("started here").to_owned(),
    );

    // Through the proxy: the probe only the proxy answers is reached.
    let _ = navigate(&firefox, &context, &proxy.probe_url()).await;
    assert!(
        proxy.probed(),
        "Firefox did not go through the guard's proxy"
    );

    // An allowed loopback page, read in the page's realm.
    navigate(&firefox, &context, &format!("{}/fox", site.uri()))
        .await
        .expect("the page opens");
    assert_eq!(
        evaluate(&firefox, &context, None, "document.title").await,
        json!("Fox page")
    );

    // A world of tabwright's own: what it sets, the page does not see.
    assert_eq!(
        evaluate(
            &firefox,
            &context,
            Some("tw"),
            "window.twMark = 1; typeof window.twMark"
        )
        .await,
        json!("number")
    );
    assert_eq!(
        evaluate(&firefox, &context, None, "typeof window.twMark").await,
        json!("undefined")
    );

    // Another loopback server, not allowed: the guard refuses, and it
    // hears nothing.
    let _ = navigate(&firefox, &context, &format!("{}/secret", private.uri())).await;
    assert!(
        private
            .received_requests()
            .await
            .unwrap_or_default()
            .is_empty(),
        "the private server was reached"
    );
    assert!(
        guard.refusals().all().iter().any(|refusal| refusal
            .target
            .contains(&private.address().port().to_string())),
        "the guard lists no refusal of the private server"
    );

    // A picture of the page, a real PNG of the window's size.
    navigate(&firefox, &context, &format!("{}/fox", site.uri()))
        .await
        .expect("the page opens again");
    let shot = firefox
        .call(
            "browsingContext.captureScreenshot",
            json!({ "context": context }),
        )
        .await
        .expect("a picture");
    use base64::Engine;
    let png = base64::engine::general_purpose::STANDARD
        .decode(shot["data"].as_str().expect("its data"))
        .expect("base64");
    let decoder = png::Decoder::new(std::io::Cursor::new(&png));
    let info = decoder.read_info().expect("a PNG");
    assert!(info.info().width >= 800, "{} wide", info.info().width);

    // Firefox fetches nothing by itself: every refusal is the page's.
    tokio::time::sleep(std::time::Duration::from_secs(5)).await;
    let own: Vec<String> = guard
        .refusals()
        .all()
        .iter()
        .map(|refusal| refusal.target.clone())
        .filter(|target| !target.contains(&private.address().port().to_string()))
        .collect();
    assert!(own.is_empty(), "Firefox reached out by itself to {own:?}");

    // Closed: no process of it, no profile.
    firefox.close().await;
    assert!(
        !std::path::Path::new(&format!("/proc/{pid}")).exists()
            || std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .is_ok_and(|stat| stat.contains(") Z ")),
        "Firefox is still running"
    );
    assert!(!profile.exists(), "the profile was left behind");
}

/// The walker, as marks joins it, runs unchanged in a BiDi sandbox: it
/// reads the page's heading, text, controls and a list's numbers, in the
/// viewport tabwright asked for. (What the Driver over Firefox will stand
/// on; the page is the truth.) On a runtime of one thread: nothing in
/// starting or closing Firefox blocks it.
#[tokio::test]
async fn the_walker_reads_a_page_in_firefox() {
    let site = MockServer::start().await;
    serve(
        &site,
        "/fox",
        "<!doctype html><title>Fox page</title><h1>Hello</h1><p>Some text here.</p>\
         <button>Press me</button><a href='/x'>A link</a><input aria-label='Name'>\
         <ol><li>One</li><li>Two</li></ol>",
    )
    .await;
    let (_guard, _proxy, firefox, context) = started(&site).await;
    let options = Options::default();
    navigate(&firefox, &context, &format!("{}/fox", site.uri()))
        .await
        .expect("the page opens");
    let request = r#"{"op": "snapshot", "full": true, "scope": null}"#;
    let expression = format!("JSON.stringify(({})({request}, 200))", *marks::WALKER_JS);
    let answer = evaluate(&firefox, &context, Some("tw"), &expression).await;
    let read: Value =
        serde_json::from_str(answer.as_str().expect("the walker's JSON")).expect("JSON");
    assert_eq!(read["title"], json!("Fox page"), "{read:#}");
    assert_eq!(
        (
            read["viewport"]["w"].as_u64(),
            read["viewport"]["h"].as_u64()
        ),
        (
            Some(u64::from(options.width)),
            Some(u64::from(options.height))
        ),
        "{read:#}"
    );
    let texts: Vec<&str> = read["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|item| item["text"].as_str())
        .collect();
    assert_eq!(
        texts,
        ["Hello", "Some text here.", "1. One", "2. Two"],
        "{read:#}"
    );
    let elements: Vec<(&str, &str)> = read["elements"]
        .as_array()
        .expect("elements")
        .iter()
        .map(|element| {
            (
                element["role"].as_str().unwrap_or_default(),
                element["name"].as_str().unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        elements,
        [
            ("button", "Press me"),
            ("link", "A link"),
            ("textbox", "Name")
        ],
        "{read:#}"
    );
    firefox.close().await;
}

/// The tool pack over Firefox (`FirefoxDriver` behind the guard): a model's
/// open, click, type, keys, back, a dialog and a second tab work as on
/// Chrome, and the page heard each action (its own log is the truth).
#[tokio::test(flavor = "multi_thread")]
async fn the_tools_drive_firefox() {
    let site = MockServer::start().await;
    serve(
        &site,
        "/form",
        r#"<!doctype html><title>Form</title><h1>Sign up</h1>
<label>Name <input id="name"></label>
<button onclick="document.getElementById('log').textContent = 'Hello ' + document.getElementById('name').value">Greet</button>
<button onclick="document.getElementById('log').textContent = confirm('Sure?') ? 'sure' : 'not sure'">Ask</button>
<p id="log">Nothing yet.</p>
<a href="/next">Next page</a>"#,
    )
    .await;
    serve(
        &site,
        "/next",
        "<!doctype html><title>Next</title><p>The next page.</p>",
    )
    .await;
    let guard = Guard::new(Policy {
        allowed_origins: vec![AllowedOrigin::parse(&site.uri()).expect("an origin")],
        ..Policy::default()
    });
    let options = Options {
        timeout: Duration::from_secs(20),
        ..Options::default()
    };
    let driver = guard::GuardedDriver::new(
        guard,
        options,
        Box::new(|options| Box::new(driver_webdriver::FirefoxDriver::new(options))),
    );
    let pack = tools::Pack::new(driver, tools::PackOptions::default());
    let call = |tool: &'static str, arguments: Value| {
        let pack = &pack;
        async move {
            let output = pack.call(tool, arguments.clone()).await;
            assert!(!output.is_error, "{tool} {arguments}: {}", output.text);
            output.text
        }
    };
    let page = call("open", json!({ "url": format!("{}/form", site.uri()) })).await;
    assert!(page.contains("# Sign up"), "{page}");
    let name = tools::element_number(&page, "textbox \"Name\"").expect("the field");
    let greet = tools::element_number(&page, "button \"Greet\"").expect("the button");
    call("type", json!({ "element": name, "text": "Ada" })).await;
    let greeted = call("click", json!({ "element": greet })).await;
    assert!(greeted.contains("Hello Ada"), "{greeted}");
    // A dialog the page opens: said, and answered.
    let ask = tools::element_number(&page, "button \"Ask\"").expect("the button");
    let asked = pack.call("click", json!({ "element": ask })).await;
    assert!(asked.text.contains("Sure?"), "{}", asked.text);
    let answered = call("dialog", json!({ "accept": true })).await;
    assert!(answered.contains("sure"), "{answered}");
    // A link, then back.
    let next = tools::element_number(&page, "link \"Next page\"").expect("the link");
    let followed = call("click", json!({ "element": next })).await;
    assert!(followed.contains("The next page."), "{followed}");
    let back = call("back", json!({})).await;
    assert!(back.contains("# Sign up"), "{back}");
    pack.close().await;
}
