//! The behaviour suite every tabwright backend is held to.
//!
//! [`conformance`] holds the checks, written once against `&dyn Driver`;
//! [`site`] serves the pages they browse on 127.0.0.1; [`backend`] makes a
//! driver of each backend and finds the processes it started. The checks run
//! three ways: as the `it` integration tests (one test per check and backend),
//! as `cargo xtask conformance` (a table of check × backend), and the
//! benchmarks in `src/bin/bench.rs` reuse the site.

pub mod backend;
pub mod canary;
pub mod conformance;
pub mod devtools;
pub mod grid;
pub mod http;
pub mod netns;
pub mod site;
pub mod tasks;

pub use backend::Backend;

/// A loopback port that was free a moment ago: nothing listens there (for
/// tests of refused connections), or something of the test's own may.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|address| address.port())
        .unwrap_or_else(|error| panic!("no free loopback port: {error}"))
}

/// An answer with its fence code (drawn afresh for every answer) shown as
/// `CODE`, so transcripts compare: on the fence lines only, where the code
/// stands.
pub fn redact_fences(text: &str) -> String {
    let Some(code) = marks::fence_code(text) else {
        return text.to_owned();
    };
    let code = code.to_owned();
    text.lines()
        .map(|line| {
            if line.starts_with("--- ") {
                line.replace(&format!(" {code} "), " CODE ")
                    .replace(&format!(" {code};"), " CODE;")
            } else {
                line.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
        + if text.ends_with('\n') { "\n" } else { "" }
}

/// Every file under `folder`, however deep.
pub fn files_under(folder: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(folder).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(files_under(&path));
        } else {
            files.push(path);
        }
    }
    files
}

/// The text of the page's `#seen` element: what a test page shows of
/// itself (its cookie, its storage, which page it is).
pub async fn seen_text(driver: &dyn driver_core::Driver) -> String {
    match driver
        .eval("document.getElementById('seen').textContent")
        .await
    {
        Ok(text) => text.as_str().unwrap_or_default().to_owned(),
        Err(error) => panic!("the page does not read: {error}"),
    }
}
