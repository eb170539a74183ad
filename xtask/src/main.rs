//! `cargo xtask <job>`: what cargo alone cannot do.
//!
//! - `cargo xtask demo`: install the browser if missing, then run
//!   `tabwright demo` (a built-in site driven through the tools).
//! - `cargo xtask test`: make sure Debian's Chromium, chromedriver and
//!   Firefox ESR are installed (apt-get, saying so), the MCP Python SDK (pip, the MCP
//!   tests' client) and the tests' npm packages (`tests/npm`: the page
//!   scripts' type checker, a strict schema validator, UI kits) and
//!   geckodriver (`cargo install`, into `tests/cargo`: the Grid's Firefox
//!   nodes), build the `tabwright` binary, then run every test of the
//!   workspace, which drives a real browser through every backend (one
//!   test thread more than the cores, unless `RUST_TEST_THREADS` says).
//! - `cargo xtask conformance [--backend cdp|webdriver|firefox|all]`: the
//!   behaviour suite as a table of check × backend (Firefox installed too).
//! - `cargo xtask bench [--backend cdp|webdriver|firefox|all] [--runs N]
//!   [--only drivers|guard|snapshot|tools]`: the measurements, in a release
//!   build.
//! - `cargo xtask explore [--runs N]`: the tests that generate pages and
//!   take their truth from pictures (`seen`, `partly`), on fresh seeds, N
//!   times (10 unless said); says each seed that found a wrong word, to
//!   add to the test's fixed seeds once mended. The tests run only fixed
//!   seeds otherwise, so CI says what a run here says.
//!
//! It never downloads a browser: only Debian's packages, through apt-get.
//! Its dependencies are none, so it builds in a second.
//! Nothing else is fetched but the MCP SDK, from PyPI, the packages
//! `tests/npm/package-lock.json` names, from the npm registry, and
//! geckodriver's source, from crates.io.

use std::path::Path;
use std::process::{Command, ExitCode};

/// The binaries the demo and the tests need, and the Debian packages that
/// bring them.
const BROWSER_PACKAGES: &[(&str, &str)] = &[
    ("/usr/lib/chromium/chromium", "chromium"),
    ("/usr/bin/chromedriver", "chromium-driver"),
];

/// What the tests need besides: Java runs the Selenium Grid the Grid tests
/// drive (its jar comes from npm, with the other test packages).
const TEST_PACKAGES: &[(&str, &str)] = &[("/usr/bin/java", "openjdk-17-jre-headless")];

/// The second engine: Debian's Firefox ESR, which serves WebDriver BiDi
/// itself. The conformance table, the bench and the tests have a column
/// for it; the demo does not need it.
const FIREFOX_PACKAGES: &[(&str, &str)] = &[("/usr/bin/firefox-esr", "firefox-esr")];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((job, rest)) = args.split_first() else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let result = match job.as_str() {
        "test" => ensure_packages(&[BROWSER_PACKAGES, FIREFOX_PACKAGES, TEST_PACKAGES].concat())
            .and_then(|()| ensure_mcp_client())
            .and_then(|()| ensure_npm_packages())
            .and_then(|()| ensure_geckodriver())
            // The CLI tests run the binary itself. Built with the tests'
            // own features and targets, it shares every unit with the
            // test build below (built alone, with the binary's default
            // features, a third of the workspace would be built twice).
            .and_then(|()| {
                cargo(
                    &[
                        "build",
                        "--workspace",
                        "--all-features",
                        "--bins",
                        "--tests",
                    ],
                    &[],
                )
            })
            .and_then(|()| {
                // A failing test's message, not a backtrace, is what the
                // end of a CI log must show.
                let mut test = cargo_command(&["test", "--workspace", "--all-features"], rest);
                test.env("RUST_BACKTRACE", "0");
                // The tests spend much of their time waiting on a browser
                // (a page's timers, a timeout they test): one test more
                // than the cores keeps them busy (on 2 cores the suite
                // took 774 s instead of 991 s, and failed no more).
                if std::env::var_os("RUST_TEST_THREADS").is_none() {
                    let cores = std::thread::available_parallelism().map_or(1, usize::from);
                    test.env("RUST_TEST_THREADS", (cores + 1).to_string());
                }
                run(test)
            }),
        "demo" => ensure_browser().and_then(|()| {
            cargo(
                &[
                    "run",
                    "--quiet",
                    "--package",
                    "tabwright",
                    "--bin",
                    "tabwright",
                    "--",
                ],
                &[&["demo".to_owned()], rest].concat(),
            )
        }),
        "conformance" => ensure_browsers().and_then(|()| {
            cargo(
                &[
                    "run",
                    "--quiet",
                    "--package",
                    "tabwright-tests",
                    "--all-features",
                    "--bin",
                    "conformance",
                    "--",
                ],
                rest,
            )
        }),
        "bench" => ensure_browsers().and_then(|()| {
            cargo(
                &[
                    "run",
                    "--release",
                    "--quiet",
                    "--package",
                    "tabwright-tests",
                    "--all-features",
                    "--bin",
                    "bench",
                    "--",
                ],
                rest,
            )
        }),
        "explore" => ensure_browsers().and_then(|()| explore(rest)),
        "install-browser" => ensure_browser(),
        other => Err(format!("unknown job {other:?}\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

const USAGE: &str = "usage: cargo xtask <demo | test | conformance [--backend cdp|webdriver|all] | bench [--backend ...] [--runs N] [--only PART] | explore [--runs N] | install-browser>";

/// Installs Debian's chromium and chromium-driver if either is missing.
fn ensure_browser() -> Result<(), String> {
    ensure_packages(BROWSER_PACKAGES)
}

/// Chromium and Firefox: every engine the table and the bench have a
/// column for.
fn ensure_browsers() -> Result<(), String> {
    ensure_packages(&[BROWSER_PACKAGES, FIREFOX_PACKAGES].concat())
}

/// Installs with apt-get the packages whose binaries are missing.
fn ensure_packages(packages: &[(&str, &str)]) -> Result<(), String> {
    let missing: Vec<&str> = packages
        .iter()
        .filter(|(binary, _)| !Path::new(binary).exists())
        .map(|(_, package)| *package)
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    eprintln!(
        "xtask: installing Debian's {} with apt-get (the tests drive a real browser, and a Selenium Grid)",
        missing.join(" and ")
    );
    let sudo = !is_root();
    run(apt(sudo, &["update", "-qq"]))?;
    let mut install = vec!["install", "-y", "-qq", "--no-install-recommends"];
    install.extend(&missing);
    run(apt(sudo, &install))
}

/// The MCP tests drive `tabwright mcp` with the official MCP Python SDK
/// (PyPI's `mcp`), both its 1.x and 2.x lines: installed with pip if this
/// machine lacks them.
fn ensure_mcp_client() -> Result<(), String> {
    let present = Command::new("python3")
        .args(["-c", "import mcp"])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    if !present {
        eprintln!("xtask: installing the MCP Python SDK with pip (the MCP tests' client)");
        let mut pip = Command::new("python3");
        pip.args(["-m", "pip", "install", "--quiet", "mcp>=1.9,<2"]);
        run(pip)?;
    }
    // The SDK's 2.x line (its `Client` speaks the stateless 2026-07-28
    // revision), in a folder of its own beside the 1.x line hosts still
    // pin; the tests put it first on PYTHONPATH.
    let modern = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/mcp/sdk2");
    if modern.join("mcp/client/client.py").exists() {
        return Ok(());
    }
    eprintln!("xtask: installing the MCP Python SDK 2.x with pip into tests/mcp/sdk2");
    let mut pip = Command::new("python3");
    pip.args(["-m", "pip", "install", "--quiet", "--target"])
        .arg(&modern)
        .arg("mcp>=2.3,<3");
    run(pip)
}

/// What the tests take from the npm registry (`tests/npm/package.json`:
/// the type checker for the page scripts, a strict JSON Schema validator,
/// the MCP TypeScript SDK, UI kits): installed exactly as the lock file
/// says (`npm ci`) when `node_modules` is missing or older than the lock.
fn ensure_npm_packages() -> Result<(), String> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/npm");
    let lock = folder.join("package-lock.json");
    let installed = folder.join("node_modules/.package-lock.json");
    let modified = |path: &Path| {
        std::fs::metadata(path)
            .and_then(|meta| meta.modified())
            .ok()
    };
    if matches!((modified(&installed), modified(&lock)), (Some(installed), Some(lock)) if installed >= lock)
    {
        return Ok(());
    }
    eprintln!("xtask: installing the tests' npm packages (tests/npm) with npm ci");
    let mut npm = Command::new("npm");
    npm.args(["ci", "--no-audit", "--no-fund", "--loglevel=error"])
        .current_dir(&folder);
    run(npm)
}

/// The geckodriver the Grid tests' Firefox nodes run (Debian has none).
const GECKODRIVER: &str = "0.37.1";

/// Builds geckodriver from crates.io into `tests/cargo` when it is missing
/// or another version (about two minutes on two cores).
fn ensure_geckodriver() -> Result<(), String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/cargo");
    let binary = root.join("bin/geckodriver");
    let version = Command::new(&binary)
        .arg("--version")
        .output()
        .map(|output| String::from_utf8_lossy(&output.stdout).into_owned())
        .unwrap_or_default();
    if version.starts_with(&format!("geckodriver {GECKODRIVER}")) {
        return Ok(());
    }
    eprintln!("xtask: building geckodriver {GECKODRIVER} from crates.io into tests/cargo (the Grid's Firefox nodes)");
    let mut install = cargo_command(
        &[
            "install",
            "geckodriver",
            "--locked",
            "--quiet",
            "--version",
            GECKODRIVER,
            "--root",
        ],
        &[],
    );
    install.arg(&root);
    run(install)
}

fn apt(sudo: bool, args: &[&str]) -> Command {
    let mut command = if sudo {
        let mut command = Command::new("sudo");
        command.arg("apt-get");
        command
    } else {
        Command::new("apt-get")
    };
    command.args(args).env("DEBIAN_FRONTEND", "noninteractive");
    command
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
        .unwrap_or(false)
}

/// The generated pixel tests, each run on fresh seeds (the variables
/// `tests/it/pictured.rs` reads), `--runs` times.
fn explore(rest: &[String]) -> Result<(), String> {
    let runs = match rest {
        [] => 10,
        [flag, runs] if flag == "--runs" => runs
            .parse::<u32>()
            .map_err(|_| format!("--runs {runs:?}: a count"))?,
        _ => return Err(USAGE.to_owned()),
    };
    let mut failed = 0;
    for round in 1..=runs {
        eprintln!("xtask: explore, round {round} of {runs}");
        let mut test = cargo_command(
            &[
                "test",
                "--package",
                "tabwright-tests",
                "--all-features",
                "--test",
                "it",
                "--",
                "seen::generated_cases",
                "partly::",
            ],
            &[],
        );
        test.env("SEEN_SEED", "new,new")
            .env("PARTLY_SEED", "new,new")
            .env("RUST_BACKTRACE", "0");
        if run(test).is_err() {
            failed += 1;
        }
    }
    if failed == 0 {
        Ok(())
    } else {
        Err(format!(
            "{failed} of {runs} rounds found a wrong word (the seed is in each failure)"
        ))
    }
}

fn cargo(args: &[&str], rest: &[String]) -> Result<(), String> {
    run(cargo_command(args, rest))
}

fn cargo_command(args: &[&str], rest: &[String]) -> Command {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let mut command = Command::new(cargo);
    command.args(args).args(rest);
    command
}

fn run(mut command: Command) -> Result<(), String> {
    let status = command
        .status()
        .map_err(|error| format!("cannot run {command:?}: {error}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{command:?} failed ({status})"))
    }
}
