//! Integration tests: every conformance check on every backend, each a test
//! of its own so a failure names the check and the backend; and the CDP
//! backend against a browser it did not start.

// A failed expectation in a test is a test failure: panicking is the point.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod conformance;
mod egress;
mod marks;
mod proxy;
mod remote;
