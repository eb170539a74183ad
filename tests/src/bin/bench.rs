//! Benchmarks; filled in below.
fn main() {}
