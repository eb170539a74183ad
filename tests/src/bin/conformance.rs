//! Runs the conformance suite and prints a table of check × backend.
//!
//! `conformance [--backend cdp|webdriver|firefox|all]`; exits non-zero if
//! any check fails.

use std::process::ExitCode;

use tabwright_tests::conformance::{self, Verdict};
use tabwright_tests::Backend;

#[tokio::main]
async fn main() -> ExitCode {
    let mut wanted = "all".to_owned();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--backend" => wanted = args.next().unwrap_or_default(),
            other => {
                eprintln!(
                    "unknown argument {other:?}; usage: conformance [--backend cdp|webdriver|firefox|all]"
                );
                return ExitCode::from(2);
            }
        }
    }
    let backends: Vec<Backend> = if wanted == "all" {
        Backend::ALL.to_vec()
    } else {
        match Backend::by_name(&wanted) {
            Some(backend) => vec![backend],
            None => {
                let known: Vec<&str> = Backend::ALL.iter().map(|b| b.name()).collect();
                eprintln!("unknown backend {wanted:?}; this build has {known:?} (or all)");
                return ExitCode::from(2);
            }
        }
    };
    let checks = conformance::all();
    let width = checks
        .iter()
        .map(|check| check.name.len())
        .max()
        .unwrap_or(10);
    print!("{:width$}", "check");
    for backend in &backends {
        print!("  {:<12}", backend.name());
    }
    println!();
    let mut failures = Vec::new();
    let (mut passed, mut unsupported) = (0, 0);
    for check in &checks {
        print!("{:width$}", check.name);
        for &backend in &backends {
            let cell = match conformance::run(backend, check).await {
                Ok(Verdict::Pass) => {
                    passed += 1;
                    "pass".to_owned()
                }
                Ok(Verdict::Unsupported { capability, reason }) => {
                    unsupported += 1;
                    failures.push(format!(
                        "{} on {}: unsupported ({capability}): {reason}",
                        check.name,
                        backend.name()
                    ));
                    "unsupported".to_owned()
                }
                Err(why) => {
                    failures.push(format!(
                        "{} on {}: FAILED: {why}",
                        check.name,
                        backend.name()
                    ));
                    "FAIL".to_owned()
                }
            };
            print!("  {cell:<12}");
        }
        println!();
    }
    for line in &failures {
        println!("  {line}");
    }
    let failed = failures.len() - unsupported;
    println!("conformance: {passed} passed, {failed} failed, {unsupported} unsupported");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
