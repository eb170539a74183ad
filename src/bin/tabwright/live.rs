//! The live view of `tabwright mcp --http`: on the same listener as `/mcp`,
//! behind the same gate (the `Host` and `Origin` rules, the bearer token,
//! here also as `?token=`, since a browser opening the page sends no
//! header). A token sees, and may act in, only the sessions made with it.
//! No answer may be framed by another page or read by one as a picture or
//! script (`frame-ancestors 'none'`, `X-Frame-Options`, `nosniff`,
//! `Cross-Origin-Resource-Policy`). It only shows, except during a
//! handoff:
//!
//! - `GET /live`: the page, which polls the two below;
//! - `GET /live/sessions`: the open sessions as JSON (a number each, never
//!   the handle; its kind, age, current URL and title, its last calls with
//!   the answers the model read);
//! - `GET /live/frame/N`: session N's latest picture (JPEG), from Chrome's
//!   screencast, or where there is none (a remote WebDriver end without a
//!   DevTools socket) the screenshot after its last action. Only
//!   the newest is kept, so a slow viewer skips frames and nothing queues;
//! - `POST /live/input/N`: during a handoff, a person's click, text, key,
//!   scroll, Done or Give up (a [`tools::PersonInput`]); the only thing the
//!   page can do, and only while the agent has handed the tab over.

use std::convert::Infallible;

use bytes::Bytes;
use http_body_util::{combinators::BoxBody, BodyExt, Full};
use hyper::{Response, StatusCode};
use serde_json::{json, Value};

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tools::Watch;

use crate::hub::{Hub, Owner};

type Body = BoxBody<Bytes, Infallible>;

/// Who asks the live view: an owner, and with a handoff's key the one
/// session it may see.
#[derive(Clone, Copy)]
pub struct Viewer {
    /// Whose sessions.
    pub owner: Owner,
    /// Only this session (a handoff's key).
    pub only: Option<u64>,
}

impl Viewer {
    /// The sessions of `listing` this viewer sees.
    fn sessions(
        self,
        listing: &(impl Listing + ?Sized),
    ) -> Vec<(u64, &'static str, Duration, Arc<Watch>)> {
        listing
            .watched(self.owner)
            .into_iter()
            .filter(|(id, ..)| self.only.is_none_or(|only| only == *id))
            .collect()
    }
}

/// The sessions a live view lists: (number, kind, age, what it shows).
pub trait Listing: Send + Sync {
    /// The sessions `owner` made that are open now.
    fn watched(&self, owner: Owner) -> Vec<(u64, &'static str, Duration, Arc<Watch>)>;
}

impl Listing for Hub {
    fn watched(&self, owner: Owner) -> Vec<(u64, &'static str, Duration, Arc<Watch>)> {
        Hub::watched(self, owner)
    }
}

/// The one session of a stdio server.
pub struct One {
    /// What it shows.
    pub watch: Arc<Watch>,
    /// When it began.
    pub made: Instant,
}

impl Listing for One {
    /// A stdio server has one owner: whoever is on loopback.
    fn watched(&self, _: Owner) -> Vec<(u64, &'static str, Duration, Arc<Watch>)> {
        vec![(1, "stdio", self.made.elapsed(), Arc::clone(&self.watch))]
    }
}

/// Serves the live view of `listing` on `listen` (loopback only: there is
/// no token to ask for) until the process ends; refuses a `Host` that is
/// not one of its own names and any other `Origin`, before any route.
pub async fn serve_alone(listen: SocketAddr, listing: Arc<dyn Listing>) -> Result<(), String> {
    if !listen.ip().is_loopback() {
        return Err(format!(
            "--live {listen}: the live view of a stdio server listens on loopback only (it has no token); use mcp --http for one behind a token"
        ));
    }
    let listener = TcpListener::bind(listen)
        .await
        .map_err(|error| format!("cannot listen on {listen}: {error}"))?;
    let address = listener
        .local_addr()
        .map_err(|error| format!("the listener has no address: {error}"))?;
    eprintln!("tabwright: a live view of this session at http://{address}/live");
    let own = crate::http::own_origins(address, &[]);
    let hosts = crate::http::allowed_hosts(address);
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                continue;
            };
            let listing = Arc::clone(&listing);
            let own = own.clone();
            let hosts = hosts.clone();
            tokio::spawn(async move {
                let handler = hyper::service::service_fn(
                    move |request: hyper::Request<hyper::body::Incoming>| {
                        let listing = Arc::clone(&listing);
                        let foreign = crate::http::foreign_origin(&own, request.headers())
                            .is_some()
                            || !crate::http::host_allowed(&hosts, request.headers());
                        async move {
                            if foreign {
                                return Ok::<_, Infallible>(reply(
                                    StatusCode::FORBIDDEN,
                                    "text/plain",
                                    b"not served".to_vec(),
                                ));
                            }
                            let (parts, body) = request.into_parts();
                            let read = tokio::time::timeout(
                                Duration::from_secs(10),
                                http_body_util::Limited::new(body, 64 * 1024).collect(),
                            )
                            .await;
                            let Ok(Ok(body)) = read else {
                                return Ok(reply(
                                    StatusCode::BAD_REQUEST,
                                    "text/plain",
                                    b"no body".to_vec(),
                                ));
                            };
                            Ok(answer(
                                listing.as_ref(),
                                Viewer {
                                    owner: Owner::of(None),
                                    only: None,
                                },
                                &parts.method,
                                parts.uri.path(),
                                &body.to_bytes(),
                            ))
                        }
                    },
                );
                let _ = hyper::server::conn::http1::Builder::new()
                    .timer(TokioTimer::new())
                    .header_read_timeout(Duration::from_secs(10))
                    .serve_connection(TokioIo::new(stream), handler)
                    .await;
            });
        }
    });
    Ok(())
}

/// The answer to a `/live…` request (`body`: a POST's).
/// Only `owner`'s sessions are listed, shown or given input.
pub fn answer(
    hub: &(impl Listing + ?Sized),
    viewer: Viewer,
    method: &hyper::Method,
    path: &str,
    body: &[u8],
) -> Response<Body> {
    let path = path.trim_end_matches('/');
    if method == hyper::Method::POST {
        return input(hub, viewer, path, body);
    }
    if path == "/live" {
        return reply(
            StatusCode::OK,
            "text/html; charset=utf-8",
            PAGE.as_bytes().to_vec(),
        );
    }
    if path == "/live/sessions" {
        return reply(
            StatusCode::OK,
            "application/json",
            sessions(hub, viewer).to_string().into_bytes(),
        );
    }
    if let Some(number) = path.strip_prefix("/live/frame/") {
        let picture = number.parse::<u64>().ok().and_then(|number| {
            viewer
                .sessions(hub)
                .into_iter()
                .find(|(id, ..)| *id == number)
                .and_then(|(_, _, _, watch)| watch.latest())
        });
        return match picture {
            Some((frame, jpeg)) => {
                let mut response = reply(StatusCode::OK, "image/jpeg", jpeg.as_ref().clone());
                if let Ok(value) = hyper::header::HeaderValue::from_str(&frame.to_string()) {
                    response.headers_mut().insert("x-frame", value);
                }
                response
            }
            None => reply(
                StatusCode::NOT_FOUND,
                "text/plain",
                b"no picture yet".to_vec(),
            ),
        };
    }
    reply(StatusCode::NOT_FOUND, "text/plain", b"not here".to_vec())
}

/// A person's input during a handoff: `POST /live/input/N` with a
/// [`tools::PersonInput`] as JSON.
fn input(hub: &(impl Listing + ?Sized), viewer: Viewer, path: &str, body: &[u8]) -> Response<Body> {
    let Some(number) = path
        .strip_prefix("/live/input/")
        .and_then(|number| number.parse::<u64>().ok())
    else {
        return reply(StatusCode::NOT_FOUND, "text/plain", b"not here".to_vec());
    };
    let Ok(person) = serde_json::from_slice::<tools::PersonInput>(body) else {
        return reply(
            StatusCode::BAD_REQUEST,
            "text/plain",
            b"not an input".to_vec(),
        );
    };
    let Some((_, _, _, watch)) = viewer
        .sessions(hub)
        .into_iter()
        .find(|(id, ..)| *id == number)
    else {
        return reply(
            StatusCode::NOT_FOUND,
            "text/plain",
            b"no such session".to_vec(),
        );
    };
    if watch.person(person) {
        reply(StatusCode::NO_CONTENT, "text/plain", Vec::new())
    } else {
        reply(
            StatusCode::CONFLICT,
            "text/plain",
            b"no handoff is under way in this session".to_vec(),
        )
    }
}

/// The open sessions, as the page shows them.
fn sessions(hub: &(impl Listing + ?Sized), viewer: Viewer) -> Value {
    let list: Vec<Value> = viewer
        .sessions(hub)
        .into_iter()
        .map(|(id, kind, age, watch)| {
            watch.looked_at();
            let recent = watch.recent();
            // From the browser, never from an answer's text (which holds
            // what a page or a response body wrote).
            let (url, title) = watch.page().unzip();
            json!({
                "id": id,
                "kind": kind,
                "age_s": age.as_secs(),
                "url": url,
                "title": title,
                "frame": watch.latest().map(|(frame, _)| frame),
                "screencast": watch.is_screencast(),
                "memory_mib": watch.memory().map(|memory| json!({
                    "total": memory.total_kib() / 1024,
                    "renderers": memory.renderers_kib / 1024,
                    "browser_share": memory.browser_share_kib / 1024,
                    "budget": memory.budget_kib.map(|kib| kib / 1024),
                    "renewed": memory.renewed,
                })),
                "handoff": watch.handoff().map(|(reason, left)| json!({
                    "reason": reason,
                    "left_s": left.as_secs(),
                })),
                "calls": recent.iter().map(|step| json!({
                    "step": step.step,
                    "tool": step.tool,
                    "arguments": step.arguments,
                    "ms": step.ms,
                    "is_error": step.is_error,
                    "answer": step.answer.chars().take(4000).collect::<String>(),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({ "sessions": list })
}

fn reply(status: StatusCode, kind: &'static str, body: Vec<u8>) -> Response<Body> {
    let mut response = Response::new(Full::new(Bytes::from(body)).boxed());
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static(kind),
    );
    headers.insert(
        hyper::header::CACHE_CONTROL,
        hyper::header::HeaderValue::from_static("no-store"),
    );
    // The page only ever talks to its own origin, and no other page may
    // frame it (its Done button and clickable picture).
    headers.insert(
        "content-security-policy",
        hyper::header::HeaderValue::from_static(
            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
        ),
    );
    lock_headers(headers);
    response
}

/// The headers every answer of the server carries, whatever route made
/// it: not to be framed, sniffed into another type, or read by another
/// site as a picture or script.
pub fn lock_headers(headers: &mut hyper::HeaderMap) {
    use hyper::header::HeaderValue;
    headers.insert("x-frame-options", HeaderValue::from_static("DENY"));
    headers.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        "cross-origin-resource-policy",
        HeaderValue::from_static("same-origin"),
    );
    headers.insert("referrer-policy", HeaderValue::from_static("no-referrer"));
}

/// The live view's page: the session list, the chosen session's picture
/// and its calls. Everything a page or a model wrote is set as text, never
/// as markup.
const PAGE: &str = r#"<!doctype html><meta charset=utf-8><title>tabwright: live</title>
<style>
body{font:14px system-ui;margin:0;display:flex;height:100vh}
#list{width:260px;border-right:1px solid #ddd;overflow:auto}
#list div{padding:8px;border-bottom:1px solid #eee;cursor:pointer}
#list div.on{background:#eef4ff}
#main{flex:1;display:flex;overflow:hidden}
#picture{flex:1;padding:8px;overflow:auto}#picture img{max-width:100%;border:1px solid #ccc}
#calls{width:420px;border-left:1px solid #ddd;overflow:auto;padding:8px}
pre{white-space:pre-wrap;background:#f6f6f6;padding:6px;font-size:12px;max-height:18em;overflow:auto}
.error{color:#a00}small{color:#666}
</style>
<div id=list></div><div id=main><div id=picture><p id=note>No session chosen.</p>
<div id=handoff hidden><p><b>The agent hands this tab to you:</b> <span id=reason></span> <small id=left></small></p>
<p>Click and scroll on the picture; type here: <input id=typed size=30> <button id=send>Type</button>
<button data-key=Enter>Enter</button> <button data-key=Tab>Tab</button> <button data-key=Backspace>Backspace</button> <button data-key=Escape>Escape</button>
&nbsp; <button id=done><b>Done</b></button> <button id=giveup>Give up</button></p></div>
<img id=frame alt=""></div><div id=calls></div></div>
<script>
const params = new URLSearchParams(location.search), token = params.get("token"), key = params.get("key");
const q = token ? "?token=" + encodeURIComponent(token) : key ? "?key=" + encodeURIComponent(key) : "";
let chosen = null, shown = null, handing = false;
function text(tag, content, cls) { const e = document.createElement(tag); e.textContent = content; if (cls) e.className = cls; return e; }
async function tick() {
  let data;
  try { data = await (await fetch("/live/sessions" + q)).json(); } catch (e) { return; }
  const list = document.getElementById("list"); list.replaceChildren();
  if (!data.sessions.length) list.append(text("p", "No session is open."));
  if (chosen === null && data.sessions.length) chosen = data.sessions[0].id;
  for (const s of data.sessions) {
    const row = text("div", ""); if (s.id === chosen) row.className = "on";
    const mem = s.memory_mib ? ", " + s.memory_mib.total + " MiB" + (s.memory_mib.budget ? " of " + s.memory_mib.budget : "") : "";
    row.append(text("b", "Session " + s.id), text("small", " " + s.kind + ", " + s.age_s + " s" + mem), document.createElement("br"),
      text("span", (s.title || "") + " "), text("small", s.url || ""));
    row.onclick = () => { chosen = s.id; shown = null; tick(); };
    list.append(row);
  }
  const s = data.sessions.find(x => x.id === chosen);
  handing = !!(s && s.handoff);
  document.getElementById("handoff").hidden = !handing;
  if (handing) { document.getElementById("reason").textContent = s.handoff.reason; document.getElementById("left").textContent = "(" + s.handoff.left_s + " s left)"; }
  const note = document.getElementById("note"), img = document.getElementById("frame");
  if (!s) { note.textContent = "No session chosen."; img.removeAttribute("src"); return; }
  note.textContent = handing ? "Live picture of the current tab: click and scroll on it."
    : s.screencast ? "Live picture of the current tab (screencast; read-only)."
    : "This session has no screencast (Firefox, or a remote WebDriver end without DevTools): the picture is the screenshot after the last action (read-only).";
  if (s.frame !== null && s.frame !== shown) { shown = s.frame; img.src = "/live/frame/" + s.id + q + (q ? "&" : "?") + "n=" + s.frame; }
  const calls = document.getElementById("calls"); calls.replaceChildren();
  for (const c of s.calls.slice().reverse()) {
    calls.append(text("div", c.step + ". " + c.tool + " " + JSON.stringify(c.arguments) + " (" + c.ms + " ms)", c.is_error ? "error" : ""),
      text("pre", c.answer));
  }
}
async function person(input) {
  if (chosen === null) return;
  await fetch("/live/input/" + chosen + q, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(input) });
}
const img = document.getElementById("frame");
img.onclick = (e) => { if (!handing) return; const r = img.getBoundingClientRect(); person({ type: "click", fx: (e.clientX - r.left) / r.width, fy: (e.clientY - r.top) / r.height }); };
img.onwheel = (e) => { if (!handing) return; e.preventDefault(); const r = img.getBoundingClientRect(); person({ type: "scroll", fx: (e.clientX - r.left) / r.width, fy: (e.clientY - r.top) / r.height, dy: e.deltaY }); };
document.getElementById("send").onclick = () => { const t = document.getElementById("typed"); if (t.value) person({ type: "text", text: t.value }); t.value = ""; };
for (const b of document.querySelectorAll("[data-key]")) b.onclick = () => person({ type: "key", key: b.dataset.key });
document.getElementById("done").onclick = () => person({ type: "done" });
document.getElementById("giveup").onclick = () => person({ type: "give_up" });
tick(); setInterval(tick, 700);
</script>"#;
