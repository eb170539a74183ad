//! The `tabwright` binary: the tool pack as an MCP server (`mcp`), for a
//! person at a prompt (`shell`), once (`open URL`), and a demo (`demo`).

mod demo;
mod mcp;
mod shell;

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::{Parser, Subcommand, ValueEnum};
use tabwright::{AllowedOrigin, Backend, Options, Policy};
use tools::{Pack, PackOptions};

/// A fast, guarded web browser for AI agents.
#[derive(Debug, Parser)]
#[command(name = "tabwright", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    #[command(flatten)]
    browser: BrowserArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve the tools over MCP on stdin/stdout (for Claude, Cursor, …).
    Mcp,
    /// Open a URL and print the snapshot a model would read.
    Open {
        /// The page to open.
        url: String,
    },
    /// The same tools for a person at a prompt: `open URL`, `click 3`, …
    Shell,
    /// Serve a small built-in site on 127.0.0.1 and drive it through the
    /// tools as a model would, printing every call and answer.
    Demo {
        /// Where to save the numbered screenshot (default: the temporary
        /// directory).
        #[arg(long)]
        screenshot: Option<PathBuf>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum BackendArg {
    /// Chrome DevTools Protocol (default).
    Cdp,
    /// W3C WebDriver through chromedriver (or --webdriver-url).
    Webdriver,
}

/// What every subcommand's browser is started with.
#[derive(Debug, Clone, clap::Args)]
struct BrowserArgs {
    /// Which protocol drives the browser.
    #[arg(long, value_enum, default_value = "cdp", global = true)]
    backend: BackendArg,
    /// Drive an already running Chrome (http://host:port or ws://…) over CDP.
    #[arg(long, value_name = "URL", global = true)]
    cdp_endpoint: Option<String>,
    /// Drive a remote WebDriver end (chromedriver, Selenium Grid).
    #[arg(long, value_name = "URL", global = true)]
    webdriver_url: Option<String>,
    /// Show the browser window.
    #[arg(long, global = true)]
    headed: bool,
    /// Let pages reach this origin although it is on this machine or its
    /// network (scheme://host:port; repeatable).
    #[arg(long, value_name = "ORIGIN", global = true)]
    allow_origin: Vec<String>,
    /// Keep the browser profile (cookies, logins) in this directory.
    #[arg(long, value_name = "DIR", global = true)]
    profile_dir: Option<PathBuf>,
    /// The viewport size, e.g. 1280x800.
    #[arg(long, value_name = "WxH", default_value = "1280x800", global = true)]
    viewport: String,
    /// Vision mode: pointing tools that answer with screenshots.
    #[arg(long, global = true)]
    vision: bool,
    /// The longest one browser call may take, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0, global = true)]
    timeout: f64,
}

impl BrowserArgs {
    /// The pack these flags describe, with `extra` origins also allowed.
    fn pack(&self, extra: &[String]) -> Result<Pack, String> {
        let (width, height) = self
            .viewport
            .split_once(['x', 'X', '×'])
            .and_then(|(w, h)| Some((w.trim().parse().ok()?, h.trim().parse().ok()?)))
            .ok_or_else(|| {
                format!(
                    "--viewport {:?}: expected WIDTHxHEIGHT, e.g. 1280x800",
                    self.viewport
                )
            })?;
        if !(self.timeout.is_finite() && self.timeout > 0.0 && self.timeout <= 3600.0) {
            return Err(format!(
                "--timeout {}: expected seconds between 0 and 3600",
                self.timeout
            ));
        }
        let mut allowed_origins = Vec::new();
        for origin in self.allow_origin.iter().chain(extra) {
            let parsed = AllowedOrigin::parse(origin)
                .map_err(|reason| format!("--allow-origin {origin:?}: {reason}"))?;
            allowed_origins.push(parsed);
        }
        let backend = match (self.backend, &self.cdp_endpoint, &self.webdriver_url) {
            (_, Some(_), Some(_)) => {
                return Err("give --cdp-endpoint or --webdriver-url, not both".to_owned())
            }
            (BackendArg::Webdriver, Some(_), _) => {
                return Err("--cdp-endpoint is for the cdp backend".to_owned())
            }
            (BackendArg::Cdp, _, Some(_)) | (BackendArg::Webdriver, _, _) => Backend::WebDriver,
            (BackendArg::Cdp, _, None) => Backend::Cdp,
        };
        let options = Options {
            headed: self.headed,
            width,
            height,
            profile_dir: self.profile_dir.clone(),
            timeout: Duration::from_secs_f64(self.timeout),
            endpoint: self.cdp_endpoint.clone().or(self.webdriver_url.clone()),
            ..Options::default()
        };
        let policy = Policy {
            allowed_origins,
            ..Policy::default()
        };
        let browser = tabwright::browser(backend, options, policy);
        Ok(Pack::new(
            browser,
            PackOptions {
                vision: self.vision,
                ..PackOptions::default()
            },
        ))
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("TABWRIGHT_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .init();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("tabwright: cannot start the async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(cli)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(problem) => {
            eprintln!("tabwright: {problem}");
            ExitCode::FAILURE
        }
    }
}

/// Resolves on SIGINT or SIGTERM, so the browser is closed (and its
/// temporary profile removed) rather than orphaned when the process is told
/// to stop.
async fn stop_signal() {
    use tokio::signal::unix::{signal, SignalKind};
    match (
        signal(SignalKind::interrupt()),
        signal(SignalKind::terminate()),
    ) {
        (Ok(mut interrupt), Ok(mut terminate)) => {
            tokio::select! {
                _ = interrupt.recv() => {}
                _ = terminate.recv() => {}
            }
        }
        _ => std::future::pending().await,
    }
}

async fn run(cli: Cli) -> Result<(), String> {
    match cli.command {
        Command::Mcp => {
            let pack = Arc::new(cli.browser.pack(&[])?);
            let served = mcp::McpServer::new(pack.clone()).serve_stdio();
            tokio::select! {
                result = served => result,
                () = stop_signal() => {
                    pack.close().await;
                    Ok(())
                }
            }
        }
        Command::Open { url } => {
            let pack = cli.browser.pack(&[])?;
            let output = pack.call("open", serde_json::json!({ "url": url })).await;
            pack.close().await;
            println!("{}", output.text);
            if output.is_error {
                return Err("the page could not be opened".to_owned());
            }
            Ok(())
        }
        Command::Shell => {
            let pack = cli.browser.pack(&[])?;
            let result = tokio::select! {
                result = shell::run(&pack) => result,
                () = stop_signal() => Ok(()),
            };
            pack.close().await;
            result
        }
        Command::Demo { screenshot } => demo::run(&cli.browser, screenshot).await,
    }
}
