//! The pages the suite serves to the browser, on 127.0.0.1 and a port the
//! operating system picks, through wiremock.

use std::time::Duration;

use wiremock::matchers::{method, path, path_regex};
use wiremock::{Mock, MockServer, ResponseTemplate};

/// How long a "never" response waits: far beyond any per-call timeout the
/// suite sets, short enough that a forgotten server ends.
const NEVER: Duration = Duration::from_secs(600);

/// A fixture web site on loopback.
pub struct Site {
    /// Always there until the site is dropped (see `Drop`).
    server: Option<MockServer>,
    other: Option<MockServer>,
}

impl Drop for Site {
    /// Drops the servers on a thread of their own: a mock server checks
    /// its expectations as it is dropped, blocking on a lock, and on a
    /// runtime thread whose task has spent its cooperative budget (a test
    /// that mounted many pages) that lock's wake-up waits on the very task
    /// that blocks on it, for ever.
    fn drop(&mut self) {
        let servers = (self.server.take(), self.other.take());
        let _ = std::thread::spawn(move || drop(servers)).join();
    }
}

/// The snapshot fixtures, served at `/fx/NAME` (`{OTHER}` in a page stands
/// for a second loopback origin, `{OTHER_SITE}` for that server as another
/// site, for cross-origin and cross-site frames).
pub const FIXTURES: &[(&str, &str)] = &[
    ("forms.html", include_str!("../fixtures/forms.html")),
    ("docs.html", include_str!("../fixtures/docs.html")),
    ("todo.html", include_str!("../fixtures/todo.html")),
    ("kit.html", include_str!("../fixtures/kit.html")),
    ("upload.html", include_str!("../fixtures/upload.html")),
    ("echo.html", include_str!("../fixtures/echo.html")),
    ("table.html", include_str!("../fixtures/table.html")),
    ("nav.html", include_str!("../fixtures/nav.html")),
    ("modal.html", include_str!("../fixtures/modal.html")),
    ("shadow.html", include_str!("../fixtures/shadow.html")),
    (
        "frame-inner.html",
        include_str!("../fixtures/frame-inner.html"),
    ),
    (
        "iframe-same.html",
        include_str!("../fixtures/iframe-same.html"),
    ),
    (
        "iframe-cross.html",
        include_str!("../fixtures/iframe-cross.html"),
    ),
    (
        "iframe-cross-site.html",
        include_str!("../fixtures/iframe-cross-site.html"),
    ),
    (
        "iframe-scaled.html",
        include_str!("../fixtures/iframe-scaled.html"),
    ),
    ("long.html", include_str!("../fixtures/long.html")),
    ("reach.html", include_str!("../fixtures/reach.html")),
    ("spa.html", include_str!("../fixtures/spa.html")),
    ("pointer.html", include_str!("../fixtures/pointer.html")),
    ("editable.html", include_str!("../fixtures/editable.html")),
    ("hidden.html", include_str!("../fixtures/hidden.html")),
    ("overlay.html", include_str!("../fixtures/overlay.html")),
    ("article.html", include_str!("../fixtures/article.html")),
    ("select.html", include_str!("../fixtures/select.html")),
    ("links.html", include_str!("../fixtures/links.html")),
    ("icons.html", include_str!("../fixtures/icons.html")),
    ("widgets.html", include_str!("../fixtures/widgets.html")),
    ("boxes.html", include_str!("../fixtures/boxes.html")),
    ("app.html", include_str!("../fixtures/app.html")),
    ("composite.html", include_str!("../fixtures/composite.html")),
    ("names.html", include_str!("../fixtures/names.html")),
    ("unseen.html", include_str!("../fixtures/unseen.html")),
    ("painted.html", include_str!("../fixtures/painted.html")),
    ("pixels.html", include_str!("../fixtures/pixels.html")),
    ("internals.html", include_str!("../fixtures/internals.html")),
    ("carousel.html", include_str!("../fixtures/carousel.html")),
    ("parts.html", include_str!("../fixtures/parts.html")),
    ("generated.html", include_str!("../fixtures/generated.html")),
    (
        "generated-places.html",
        include_str!("../fixtures/generated-places.html"),
    ),
    ("blank.html", include_str!("../fixtures/blank.html")),
    ("steps.html", include_str!("../fixtures/steps.html")),
    ("dark.html", include_str!("../fixtures/dark.html")),
    ("traps.html", include_str!("../fixtures/traps.html")),
    ("presented.html", include_str!("../fixtures/presented.html")),
    ("forged.html", include_str!("../fixtures/forged.html")),
    (
        "forged-frame.html",
        include_str!("../fixtures/forged-frame.html"),
    ),
];

/// A font whose every glyph (printable ASCII) is blank but keeps its
/// width: text set in it takes its place and shows nothing (served at
/// `/fx/fonts/blank.ttf`, and inline as `{BLANK_FONT}` in a fixture).
/// Made with fontTools' `FontBuilder` (empty outlines, advance 550/1000).
pub const BLANK_FONT: &[u8] = include_bytes!("../fixtures/fonts/blank.ttf");

/// [`BLANK_FONT`] as base64, for a `data:` URL.
pub fn blank_font_base64() -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(BLANK_FONT)
}

/// Pages written to break a browser tool (served at `/hostile/NAME`).
pub const HOSTILE: &[(&str, &str)] = &[
    (
        "errors.html",
        include_str!("../fixtures/hostile/errors.html"),
    ),
    (
        "overrides.html",
        include_str!("../fixtures/hostile/overrides.html"),
    ),
    (
        "forged.html",
        include_str!("../fixtures/hostile/forged.html"),
    ),
    (
        "huge-dom.html",
        include_str!("../fixtures/hostile/huge-dom.html"),
    ),
    (
        "alerts.html",
        include_str!("../fixtures/hostile/alerts.html"),
    ),
    (
        "popups.html",
        include_str!("../fixtures/hostile/popups.html"),
    ),
    (
        "history.html",
        include_str!("../fixtures/hostile/history.html"),
    ),
    (
        "huge-text.html",
        include_str!("../fixtures/hostile/huge-text.html"),
    ),
    (
        "deep-shadow.html",
        include_str!("../fixtures/hostile/deep-shadow.html"),
    ),
    ("churn.html", include_str!("../fixtures/hostile/churn.html")),
];

/// Pages that use real UI kits from the npm registry (served at
/// `/kits/NAME`), whose files the site serves from `tests/npm` at `/npm/…`.
pub const KITS: &[(&str, &str)] = &[
    (
        "jquery-ui.html",
        include_str!("../fixtures/kits/jquery-ui.html"),
    ),
    ("antd.html", include_str!("../fixtures/kits/antd.html")),
    (
        "bootstrap.html",
        include_str!("../fixtures/kits/bootstrap.html"),
    ),
    ("jstree.html", include_str!("../fixtures/kits/jstree.html")),
    (
        "ag-grid.html",
        include_str!("../fixtures/kits/ag-grid.html"),
    ),
    (
        "material.html",
        include_str!("../fixtures/kits/material.html"),
    ),
    (
        "codemirror.html",
        include_str!("../fixtures/kits/codemirror.html"),
    ),
    ("ace.html", include_str!("../fixtures/kits/ace.html")),
    (
        "codemirror5.html",
        include_str!("../fixtures/kits/codemirror5.html"),
    ),
    ("monaco.html", include_str!("../fixtures/kits/monaco.html")),
    (
        "shoelace.html",
        include_str!("../fixtures/kits/shoelace.html"),
    ),
    ("mui.html", include_str!("../fixtures/kits/mui.html")),
    (
        "tom-select.html",
        include_str!("../fixtures/kits/tom-select.html"),
    ),
];

/// Serves the files of `tests/npm/node_modules` at `/npm/PATH`: the UI
/// kits' scripts and styles, as the registry shipped them.
struct NpmFiles;

impl wiremock::Respond for NpmFiles {
    fn respond(&self, request: &wiremock::Request) -> ResponseTemplate {
        let relative = request.url.path().trim_start_matches("/npm/");
        if relative
            .split('/')
            .any(|part| part == ".." || part.is_empty())
        {
            return ResponseTemplate::new(404);
        }
        let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("npm/node_modules")
            .join(relative);
        let kind = match file.extension().and_then(|extension| extension.to_str()) {
            Some("js" | "mjs") => "text/javascript",
            Some("css") => "text/css",
            Some("png") => "image/png",
            Some("gif") => "image/gif",
            Some("svg") => "image/svg+xml",
            Some("woff2") => "font/woff2",
            _ => "application/octet-stream",
        };
        match std::fs::read(&file) {
            Ok(bytes) => ResponseTemplate::new(200)
                .insert_header("Cache-Control", "max-age=3600")
                .set_body_raw(bytes, kind),
            Err(_) => ResponseTemplate::new(404),
        }
    }
}

fn html(body: &str) -> ResponseTemplate {
    ResponseTemplate::new(200).set_body_raw(body.as_bytes().to_vec(), "text/html; charset=utf-8")
}

const HOME: &str = r#"<!doctype html><html><head><title>Home</title></head><body>
<h1 id="heading">Welcome home</h1>
<p id="para">Some <b>bold</b> text.</p>
<a id="to-second" href="/second">Second page</a>
<a id="popup-link" href="/second" target="_blank">Second page in a new tab</a>
<button id="popup-button" onclick="window.open('/third')">Open a window</button>
</body></html>"#;

const SECOND: &str = r#"<!doctype html><html><head><title>Second</title></head><body>
<h1>The second page</h1><a id="home" href="/">Home</a></body></html>"#;

const THIRD: &str = r#"<!doctype html><html><head><title>Third</title></head><body>
<h1>The third page</h1></body></html>"#;

const FORM: &str = r#"<!doctype html><html><head><title>Form</title></head><body>
<form id="form" onsubmit="event.preventDefault(); document.getElementById('out').textContent = 'submitted ' + this.name.value;">
  <input id="name" name="name" value="">
  <input id="other" name="other">
  <button id="go" type="button" onclick="document.getElementById('out').textContent = 'clicked'">Go</button>
  <button id="submit" type="submit">Submit</button>
  <button id="hidden" type="button" style="display:none">Hidden</button>
  <button id="covered" type="button">Covered</button>
</form>
<div style="position:fixed; left:0; top:300px; width:400px; height:200px; background:#ccc" id="overlay">overlay</div>
<p id="out"></p>
<ul id="keys"></ul>
<script>
  const covered = document.getElementById('covered');
  covered.style.position = 'fixed'; covered.style.left = '10px'; covered.style.top = '350px';
  document.addEventListener('keydown', (e) => {
    const li = document.createElement('li');
    li.textContent = (e.ctrlKey ? 'Control+' : '') + (e.shiftKey ? 'Shift+' : '') + e.key;
    document.getElementById('keys').appendChild(li);
  });
</script>
</body></html>"#;

const LATER: &str = r#"<!doctype html><html><head><title>Later</title></head><body>
<div id="invisible" style="display:none">not yet</div>
<script>
  setTimeout(() => { const p = document.createElement('p'); p.id = 'late'; p.textContent = 'here now'; document.body.appendChild(p); }, 300);
  // Well after the first, so that waiting for it is a real wait.
  setTimeout(() => { document.getElementById('invisible').style.display = 'block'; }, 2000);
</script>
</body></html>"#;

const CONSOLE: &str = r#"<!doctype html><html><head><title>Console</title></head><body>
<script>
  console.log('hello', 42);
  console.warn('careful');
  console.error('bad thing');
  setTimeout(() => { throw new Error('uncaught boom'); }, 0);
</script>
</body></html>"#;

/// A page 200,000 px tall: more than any one picture should hold.
const TALL: &str = r#"<!doctype html><html><head><title>Tall</title></head><body style="margin:0"><div style="height:200000px;background:linear-gradient(#fff,#036)">A tall page.</div></body></html>"#;

const LONG: &str = r#"<!doctype html><html><head><title>Long</title></head><body style="margin:0">
<div style="height:3000px; background:linear-gradient(#fff,#000)">tall</div></body></html>"#;

const NEVER_LOADS: &str = r#"<!doctype html><html><head><title>Never loads</title></head><body>
<p>Waiting for an image that never comes.</p><img src="/never.png"></body></html>"#;

const SPINS: &str = r#"<!doctype html><html><head><title>Spins</title></head><body>
<p>This page spins forever.</p><script>while (true) {}</script></body></html>"#;

const ANIMATED: &str = r#"<!doctype html><html><head><title>Animated</title></head><body>
<div id="box" style="width:100px;height:100px;background:red"></div>
<script>let n = 0; setInterval(() => { n++; document.getElementById('box').style.marginLeft = (n % 200) + 'px'; }, 30);</script>
</body></html>"#;

const HUNDRED: &str = r#"<!doctype html><html><head><title>Hundred</title></head><body>
<script>
  const run = Math.random();
  for (let i = 0; i < 100; i++) document.write('<img width="8" height="8" src="/img/' + i + '.png?' + run + '">');
</script></body></html>"#;

const DIALOGS: &str = r#"<!doctype html><html><head><title>Dialogs</title></head><body style="margin:0">
<button id="alert" onclick="alert('Hello there')">Alert</button>
<button id="confirm" onclick="out.textContent = confirm('Sure?') ? 'yes' : 'no'">Confirm</button>
<button id="prompt" onclick="out.textContent = prompt('Name?', 'anon')">Prompt</button>
<div id="hover-me" style="width:200px;height:50px;background:#eef" onmouseenter="out.textContent = 'hovered'">Hover me</div>
<div id="box" style="width:200px;height:100px;overflow:auto"><div style="height:1000px">tall inside</div></div>
<p id="out"></p>
<div style="height:3000px">tall page</div>
</body></html>"#;

/// A 1x1 transparent PNG.
const TINY_PNG: &[u8] = &[
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
    0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x00, 0x01, 0x00, 0x00,
    0x05, 0x00, 0x01, 0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE,
    0x42, 0x60, 0x82,
];

impl Site {
    /// Starts the site with every fixture page mounted.
    pub async fn start() -> Self {
        let server = MockServer::start().await;
        let pages: [(&str, ResponseTemplate); 14] = [
            ("/", html(HOME)),
            ("/second", html(SECOND)),
            ("/third", html(THIRD)),
            ("/form", html(FORM)),
            ("/later", html(LATER)),
            ("/console", html(CONSOLE)),
            ("/long", html(LONG)),
            ("/tall", html(TALL)),
            ("/never-loads", html(NEVER_LOADS)),
            ("/spins", html(SPINS)),
            ("/animated", html(ANIMATED)),
            ("/dialogs", html(DIALOGS)),
            (
                "/missing",
                ResponseTemplate::new(404).set_body_raw(b"<h1>Not here</h1>".to_vec(), "text/html"),
            ),
            (
                "/redirect",
                ResponseTemplate::new(302).insert_header("Location", "/second"),
            ),
        ];
        for (route, response) in pages {
            Mock::given(method("GET"))
                .and(path(route))
                .respond_with(response)
                .mount(&server)
                .await;
        }
        // A page of 100 images, each a fresh (uncached) request: what the
        // guard's benchmark loads.
        Mock::given(method("GET"))
            .and(path("/hundred"))
            .respond_with(html(HUNDRED))
            .mount(&server)
            .await;
        Mock::given(method("GET"))
            .and(path_regex("^/img/"))
            .respond_with(ResponseTemplate::new(200).set_body_raw(TINY_PNG.to_vec(), "image/png"))
            .mount(&server)
            .await;
        Mock::given(method("GET"))
            .and(path("/report.pdf"))
            .respond_with(
                ResponseTemplate::new(200)
                    .insert_header("Content-Disposition", "attachment; filename=\"report.pdf\"")
                    .set_body_raw(b"%PDF-1.4 not really".to_vec(), "application/pdf"),
            )
            .mount(&server)
            .await;
        Mock::given(method("GET"))
            .and(path("/download"))
            .respond_with(html(r#"<!doctype html><title>Download</title><a id="get" href="/report.pdf">the report</a>"#))
            .mount(&server)
            .await;
        Mock::given(method("GET"))
            .and(path("/never.png"))
            .respond_with(ResponseTemplate::new(200).set_delay(NEVER))
            .mount(&server)
            .await;
        Self {
            server: Some(server),
            other: None,
        }
    }

    /// The site plus a second origin, both serving the snapshot fixtures.
    pub async fn with_fixtures() -> Self {
        let mut site = Self::start().await;
        let other = MockServer::start().await;
        for server in [site.main(), &other] {
            for (name, body) in FIXTURES {
                // Another port is another origin; `localhost` instead of
                // 127.0.0.1 is another site, which Chrome puts in a process
                // of its own.
                let body = body
                    .replace(
                        "{OTHER_SITE}",
                        &other.uri().replace("127.0.0.1", "localhost"),
                    )
                    .replace("{OTHER}", &other.uri())
                    .replace("{BLANK_FONT}", &blank_font_base64());
                Mock::given(method("GET"))
                    .and(path(format!("/fx/{name}")))
                    .respond_with(html(&body))
                    .mount(server)
                    .await;
            }
            Mock::given(method("GET"))
                .and(path("/fx/fonts/blank.ttf"))
                .respond_with(
                    ResponseTemplate::new(200).set_body_raw(BLANK_FONT.to_vec(), "font/ttf"),
                )
                .mount(server)
                .await;
        }
        for (name, body) in HOSTILE {
            Mock::given(method("GET"))
                .and(path(format!("/hostile/{name}")))
                .respond_with(html(body))
                .mount(site.main())
                .await;
        }
        site.other = Some(other);
        site
    }

    /// The site with the UI kit pages (`/kits/NAME`) and the npm files they
    /// load (`/npm/…`); the packages must be installed (`cargo xtask test`
    /// does).
    pub async fn with_kits() -> Self {
        let site = Self::with_fixtures().await;
        let installed = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("npm/node_modules");
        assert!(
            installed.is_dir(),
            "{} is missing: cargo xtask test installs the UI kits (npm ci)",
            installed.display()
        );
        Mock::given(method("GET"))
            .and(path_regex("^/npm/"))
            .respond_with(NpmFiles)
            .mount(site.main())
            .await;
        for (name, body) in KITS {
            Mock::given(method("GET"))
                .and(path(format!("/kits/{name}")))
                .respond_with(html(body))
                .mount(site.main())
                .await;
        }
        site
    }

    /// The second origin's `http://127.0.0.1:PORT`, with fixtures.
    pub fn other_origin(&self) -> Option<String> {
        self.other.as_ref().map(MockServer::uri)
    }

    /// Serves `body` as HTML at `route` from now on.
    pub async fn page(&self, route: &str, body: &str) {
        self.serve(route, html(body)).await;
    }

    /// Serves `body` as HTML at `route` of the second origin (see
    /// [`other_origin`](Self::other_origin)) from now on; nothing without one.
    pub async fn other_page(&self, route: &str, body: &str) {
        if let Some(other) = &self.other {
            Mock::given(path(route.to_owned()))
                .respond_with(html(body))
                .mount(other)
                .await;
        }
    }

    /// Serves `response` at `route` (GET or POST) from now on.
    pub async fn serve(&self, route: &str, response: ResponseTemplate) {
        Mock::given(path(route.to_owned()))
            .respond_with(response)
            .mount(self.main())
            .await;
    }

    /// The absolute URL of a path on this site.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.main().uri())
    }

    /// The origin (`http://127.0.0.1:PORT`).
    pub fn origin(&self) -> String {
        self.main().uri()
    }

    /// The site's own server.
    fn main(&self) -> &MockServer {
        // (Taken only by `Drop`.)
        self.server
            .as_ref()
            .unwrap_or_else(|| unreachable!("the site's server is there until it is dropped"))
    }

    /// How many requests for `path` the site has seen.
    pub async fn hits(&self, path: &str) -> usize {
        self.main()
            .received_requests()
            .await
            .unwrap_or_default()
            .iter()
            .filter(|request| request.url.path() == path)
            .count()
    }

    /// The `User-Agent` headers of every request the site has seen.
    pub async fn user_agents(&self) -> Vec<String> {
        self.main()
            .received_requests()
            .await
            .unwrap_or_default()
            .iter()
            .filter_map(|request| request.headers.get("user-agent"))
            .filter_map(|value| value.to_str().ok().map(str::to_owned))
            .collect()
    }
}
