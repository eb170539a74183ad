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
pub mod http;
pub mod site;

pub use backend::Backend;
