//! Integration tests: every conformance check on every backend, each a test
//! of its own so a failure names the check and the backend.

mod conformance;
