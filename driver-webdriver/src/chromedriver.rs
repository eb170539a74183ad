//! A chromedriver of our own: found on `PATH` (or Debian's
//! `/usr/bin/chromedriver`), started on a free loopback port in a process
//! group of its own, its log kept in a file for error messages.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use driver_core::{DriverError, Result};
use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;

/// Where chromedriver is looked for after `$TABWRIGHT_CHROMEDRIVER` and `PATH`.
const CANDIDATES: &[&str] = &["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"];

/// How much of the log an error message quotes.
const LOG_TAIL: usize = 1500;

/// A running chromedriver. Dropping it kills its process group.
#[derive(Debug)]
pub(crate) struct Chromedriver {
    child: Child,
    port: u16,
    log: PathBuf,
    _log_dir: tempfile::TempDir,
}

impl Chromedriver {
    /// Starts chromedriver and waits (up to `limit`) until it listens.
    pub fn start(limit: Duration) -> Result<Self> {
        use std::os::unix::process::CommandExt;
        let executable = find()?;
        let port = free_port()?;
        let log_dir = tempfile::Builder::new()
            .prefix("tabwright-chromedriver-")
            .tempdir()
            .map_err(|error| launch(format!("cannot make a log directory: {error}")))?;
        let log = log_dir.path().join("chromedriver.log");
        let mut command = Command::new(&executable);
        command
            .arg(format!("--port={port}"))
            .arg(format!("--log-path={}", log.display()))
            .arg("--allowed-ips=127.0.0.1")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0);
        let child = driver_core::backend::launch::spawn_tied(command)
            .map_err(|error| launch(format!("cannot run {}: {error}", executable.display())))?;
        let mut driver = Self {
            child,
            port,
            log,
            _log_dir: log_dir,
        };
        let deadline = Instant::now() + limit;
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            if driver.has_exited() || Instant::now() > deadline {
                return Err(launch(format!(
                    "chromedriver did not start listening on port {port}; its log: {}",
                    driver.log_tail()
                )));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        Ok(driver)
    }

    /// The WebDriver URL.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Its process id: the root of its browser's process tree.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Whether chromedriver has exited.
    pub fn has_exited(&mut self) -> bool {
        !matches!(self.child.try_wait(), Ok(None))
    }

    /// The end of chromedriver's log, for error messages.
    pub fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let start = text.len().saturating_sub(LOG_TAIL);
        let start = (start..text.len())
            .find(|i| text.is_char_boundary(*i))
            .unwrap_or(text.len());
        text[start..].trim().to_owned()
    }

    /// Kills chromedriver's process group and reaps it.
    pub fn kill(&mut self) {
        let _ = killpg(Pid::from_raw(self.child.id() as i32), Signal::SIGKILL);
        let _ = self.child.wait();
    }
}

impl Drop for Chromedriver {
    fn drop(&mut self) {
        self.kill();
    }
}

fn launch(reason: String) -> DriverError {
    DriverError::Launch { reason }
}

fn find() -> Result<PathBuf> {
    if let Some(path) = std::env::var_os("TABWRIGHT_CHROMEDRIVER") {
        return Ok(PathBuf::from(path));
    }
    let on_path = std::env::var_os("PATH")
        .map(|paths| {
            std::env::split_paths(&paths)
                .map(|dir| dir.join("chromedriver"))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    on_path
        .into_iter()
        .chain(CANDIDATES.iter().map(PathBuf::from))
        .find(|path| Path::new(path).is_file())
        .ok_or_else(|| {
            launch(
                "no chromedriver found on PATH or at /usr/bin/chromedriver; install Debian's \
                 `chromium-driver` package or give a remote WebDriver URL"
                    .to_owned(),
            )
        })
}

fn free_port() -> Result<u16> {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|address| address.port())
        .map_err(|error| launch(format!("cannot find a free port: {error}")))
}
