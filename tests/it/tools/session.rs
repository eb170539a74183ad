//! The session the integration tests share: a pack over the fixture site
//! (with the pages below added), allowed to reach it alone, and its
//! transcript.

use std::time::Duration;

use driver_core::Options;
use guard::{AllowedOrigin, Guard, Policy};
use serde_json::Value;
use tabwright_tests::site::Site;
use tabwright_tests::Backend;
use tools::{Pack, PackOptions, ToolOutput};

const HOVER: &str = r#"<!doctype html><html><head><title>Account</title></head><body>
<button onmouseenter="document.getElementById('sub').style.display = 'block'">Account</button>
<div id="sub" style="display:none"><a href="/settings">Settings</a></div>
</body></html>"#;

const FORM: &str = r#"<!doctype html><html><head><title>Sign up</title></head><body>
<form onsubmit="event.preventDefault(); document.getElementById('out').textContent = 'Signed up ' + this.name.value + ' <' + this.email.value + '>';">
  <label>Name <input name="name"></label>
  <label>Email <input name="email" type="email"></label>
  <button type="button" onclick="document.getElementById('out').textContent = 'Checked'">Check</button>
  <button type="submit">Sign up</button>
</form>
<p id="out"></p>
</body></html>"#;

const POPUPS: &str = r#"<!doctype html><html><head><title>Popups</title></head><body>
<a href="/second" target="_blank">The second page, in a new tab</a>
<button onclick="window.open('/closer')">Open the closer</button>
</body></html>"#;

const CLOSER: &str = r#"<!doctype html><html><head><title>Closer</title></head><body>
<button onclick="window.close()">Close this tab</button>
</body></html>"#;

const LOGS: &str = r#"<!doctype html><html><head><title>Logs</title></head><body>
<button onclick="console.error('button broke'); console.log('clicked', 2)">Log</button>
</body></html>"#;

/// A page that logs more than the pack keeps for the console tool.
const LOUD: &str = r#"<!doctype html><html><head><title>Loud</title></head><body>
<button onclick="for (let i = 0; i < 600; i++) console.error('failure ' + i)">Fail 600 times</button>
</body></html>"#;

/// An XHR whose answer is rendered: on CDP waited for from the protocol's
/// network events, not by wrapping the page's XMLHttpRequest.
const XHR: &str = r#"<!doctype html><html><head><title>XHR</title></head><body>
<button onclick="const x = new XMLHttpRequest(); x.onload = () => { document.getElementById('out').textContent = 'Fetched: ' + x.responseText; }; x.open('GET', '/slow-data'); x.send();">Fetch</button>
<p id="out">Nothing yet.</p>
</body></html>"#;

const FETCHES: &str = r#"<!doctype html><html><head><title>Fetches</title></head><body>
<button onclick="fetch('/slow-data').then(r => r.text()).then(t => { document.getElementById('out').textContent = 'Loaded: ' + t; })">Load</button>
<p id="out">Nothing yet.</p>
</body></html>"#;

/// A response whose body comes well after its headers (a stream, here made
/// in the page: its 600 ms timer is too long to be waited for by itself).
const STREAMS: &str = r#"<!doctype html><html><head><title>Streams</title></head><body>
<button onclick="const body = new ReadableStream({ start(c) { setTimeout(() => { c.enqueue(new TextEncoder().encode('7 pages')); c.close(); }, 600); } }); new Response(body).text().then(t => { document.getElementById('out').textContent = 'Streamed: ' + t; })">Stream</button>
<p id="out">Nothing yet.</p>
</body></html>"#;

/// Forms that navigate when submitted: by their button, by script, and in
/// the next animation frame (the one settling's first check runs in, so that
/// check comes before the submission's navigation begins).
const ORDERS: &str = r#"<!doctype html><html><head><title>Orders</title></head><body>
<form action="/second"><input name="q" value="tea" aria-label="Query"><button>Search</button></form>
<form action="/third" id="scripted"></form>
<button onclick="document.getElementById('scripted').submit()">Submit by script</button>
<button onclick="requestAnimationFrame(() => document.getElementById('scripted').requestSubmit())">Submit in a frame</button>
</body></html>"#;

/// A same-origin frame whose link leads, slowly, to another page in the frame.
const FRAMED: &str = r#"<!doctype html><html><head><title>Framed</title></head><body>
<h1>Around the frame</h1><iframe src="/framed-inner" width="400" height="200"></iframe>
</body></html>"#;

const FRAMED_INNER: &str =
    r#"<!doctype html><html><body><a href="/framed-next">Next inside</a></body></html>"#;

/// A link to a download and one to a mail program (navigations that leave
/// no new document) beside a button, and a link to a page that is not there.
const FILES: &str = r#"<!doctype html><html><head><title>Files</title></head><body>
<a href="/report.pdf">The report</a>
<a href="mailto:reports@example.com">Mail the office</a>
<a href="/missing">An old report</a>
<button onclick="document.getElementById('out').textContent = 'Counted'">Count</button>
<p id="out"></p>
</body></html>"#;

/// A button that logs each mouse event it gets: its type, button, click
/// count and the keys held.
const CLICKS: &str = r#"<!doctype html><html><head><title>Clicks</title></head><body>
<button id="target" style="width:240px;height:90px">Target</button>
<p id="log"></p>
<script>
const target = document.getElementById('target');
const log = (e) => {
  const held = ['ctrl', 'shift', 'alt', 'meta'].filter((key) => e[key + 'Key']);
  document.getElementById('log').textContent += ' ' + e.type + ':' + e.button + '#' + e.detail + held.map((key) => '+' + key).join('');
};
for (const type of ['click', 'dblclick', 'contextmenu', 'auxclick']) target.addEventListener(type, log);
target.addEventListener('contextmenu', (e) => e.preventDefault());
target.addEventListener('auxclick', (e) => e.preventDefault());
</script>
</body></html>"#;

const TRACKER: &str = r#"<!doctype html><html><head><title>Tracker</title></head><body>
<p>Reaching elsewhere.</p><img src="http://127.0.0.1:59999/pixel.gif" alt="">
</body></html>"#;

/// A pack over a guarded browser allowed to reach the test site only.
pub struct Session {
    pub site: Site,
    pub pack: Pack,
    pub(super) transcript: String,
    /// Text that differs between runs (a temporary folder), and what the
    /// transcript shows instead.
    hidden: Vec<(String, String)>,
}

impl Session {
    pub async fn start(backend: Backend, vision: bool) -> Self {
        let options = Options {
            timeout: Duration::from_secs(15),
            ..Options::default()
        };
        Self::start_with(backend, vision, options).await
    }

    pub async fn start_with(backend: Backend, vision: bool, options: Options) -> Self {
        let pack_options = PackOptions {
            vision,
            ..PackOptions::default()
        };
        Self::start_packed(backend, pack_options, options).await
    }

    pub async fn start_packed(
        backend: Backend,
        pack_options: PackOptions,
        options: Options,
    ) -> Self {
        Self::on_site(Site::with_fixtures().await, backend, pack_options, options).await
    }

    /// A session on `site` (with this module's pages added), allowed to
    /// reach it alone.
    pub async fn on_site(
        site: Site,
        backend: Backend,
        pack_options: PackOptions,
        options: Options,
    ) -> Self {
        site.page("/hover", HOVER).await;
        site.page("/signup", FORM).await;
        site.page("/popups", POPUPS).await;
        site.page("/closer", CLOSER).await;
        site.page("/logs", LOGS).await;
        site.page("/loud", LOUD).await;
        site.page("/fetches", FETCHES).await;
        site.page("/xhr", XHR).await;
        site.page("/streams", STREAMS).await;
        site.page("/orders", ORDERS).await;
        site.page("/files", FILES).await;
        site.page("/framed", FRAMED).await;
        site.page("/framed-inner", FRAMED_INNER).await;
        site.serve(
            "/framed-next",
            wiremock::ResponseTemplate::new(200)
                .set_body_raw(
                    "<!doctype html><html><body><h2>Inside, later</h2></body></html>",
                    "text/html",
                )
                .set_delay(Duration::from_millis(400)),
        )
        .await;
        site.page("/tracker", TRACKER).await;
        site.page("/clicks", CLICKS).await;
        site.serve(
            "/slow-data",
            wiremock::ResponseTemplate::new(200)
                .set_body_string("42 rows")
                .set_delay(Duration::from_millis(300)),
        )
        .await;
        let mut allowed = vec![AllowedOrigin::parse(&site.origin()).expect("origin")];
        if let Some(other) = site.other_origin() {
            allowed.push(AllowedOrigin::parse(&other).expect("origin"));
        }
        let policy = Policy {
            allowed_origins: allowed,
            ..Policy::default()
        };
        let pack = Pack::new(backend.guarded(options, Guard::new(policy)), pack_options);
        Self {
            site,
            pack,
            transcript: String::new(),
            hidden: Vec::new(),
        }
    }

    /// Shows `text` as `instead` in the transcript from now on.
    pub fn hide(&mut self, text: impl Into<String>, instead: &str) {
        self.hidden.push((text.into(), instead.to_owned()));
    }

    pub(super) fn redact(&self, text: &str) -> String {
        let mut text =
            tabwright_tests::redact_fences(text).replace(&self.site.origin(), "http://SITE");
        for (hidden, instead) in &self.hidden {
            text = text.replace(hidden.as_str(), instead);
        }
        if let Some(other) = self.site.other_origin() {
            text = text.replace(&other, "http://OTHER");
        }
        text
    }

    /// Calls a tool and writes the call and its answer to the transcript.
    pub async fn call(&mut self, tool: &str, arguments: Value) -> ToolOutput {
        let output = self.pack.call(tool, arguments.clone()).await;
        let mut entry = format!("> {tool} {}\n", self.redact(&arguments.to_string()));
        if output.is_error {
            entry.push_str("ERROR ");
        }
        entry.push_str(&self.redact(&output.text));
        entry.push('\n');
        for image in &output.images {
            assert!(image.data.len() > 1000, "a real picture");
            entry.push_str(&format!("[{} picture]\n", image.mime_type));
        }
        self.transcript.push_str(&entry);
        self.transcript.push('\n');
        output
    }

    /// Like [`call`](Self::call), and the call must succeed.
    pub async fn ok(&mut self, tool: &str, arguments: Value) -> ToolOutput {
        let output = self.call(tool, arguments.clone()).await;
        assert!(!output.is_error, "{tool} {arguments}: {}", output.text);
        output
    }

    /// What the session's backend can do.
    pub fn capabilities(&self) -> driver_core::Capabilities {
        use driver_core::Driver as _;
        self.pack.driver().capabilities()
    }

    pub fn url(&self, path: &str) -> String {
        self.site.url(path)
    }

    /// The number of the element whose line holds `needle`.
    pub fn number(output: &ToolOutput, needle: &str) -> u32 {
        tools::element_number(&output.text, needle)
            .unwrap_or_else(|| panic!("no element {needle} in:\n{}", output.text))
    }
}
