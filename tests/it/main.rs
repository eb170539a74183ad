//! Integration tests: every conformance check on every backend, each a test
//! of its own so a failure names the check and the backend; and the CDP
//! backend against a browser it did not start.

// A failed expectation in a test is a test failure: panicking is the point.
#![allow(clippy::unwrap_used, clippy::expect_used)]

/// A scenario `async fn(Backend)` as one test per backend of the list:
/// `module::scenario::cdp`, `module::scenario::webdriver`, ….
macro_rules! on_backends {
    ($backends:tt; $($name:ident),+ $(,)?) => {
        $( on_backends!(@one $name $backends); )+
    };
    (@one $name:ident [$($backend:ident => $variant:ident),+]) => {
        mod $name {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $backend() {
                    super::$name(tabwright_tests::Backend::$variant).await;
                }
            )+
        }
    };
}

/// Scenarios on Chromium's two backends: `name::cdp`, `name::webdriver`.
macro_rules! both_backends {
    ($($name:ident),+ $(,)?) => {
        on_backends!([cdp => Cdp, webdriver => WebDriver]; $($name),+);
    };
}

/// Scenarios on every backend, Firefox too: `name::cdp`,
/// `name::webdriver`, `name::firefox`.
macro_rules! every_backend {
    ($($name:ident),+ $(,)?) => {
        on_backends!([cdp => Cdp, webdriver => WebDriver, firefox => Firefox]; $($name),+);
    };
}

mod accessible;
mod answers;
mod beyond;
mod cli;
mod coded;
mod conformance;
mod crates;
mod drawn;
mod egress;
mod firefox;
mod grid;
mod groups;
mod hostile;
mod kits;
mod landing;
mod marks;
mod memory;
mod numbers;
mod page_tools;
mod partly;
mod pictured;
mod proxy;
mod reading;
mod remote;
mod remote_guard;
mod scripts;
mod seen;
mod sessions;
mod sweep;
mod task;
mod tools;
mod trusted;
mod vendor;
mod widgets;

/// This test binary as the engine of `run`'s scripts: started again to
/// run only [`engine_serves`], which serves.
pub(crate) fn script_engine() -> ::tools::ScriptEngine {
    ::tools::ScriptEngine::test_binary("engine_serves")
}

/// Serves as a script's engine when this binary was started as one (see
/// [`script_engine`]); passes at once otherwise.
#[test]
fn engine_serves() {
    ::tools::serve_if_asked();
}
