//! The backends the suite runs against, how to make a driver of each, and
//! how to find the processes a driver started (to check they end).

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use driver_core::{Driver, Options};

/// A backend under test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// `driver-cdp`.
    Cdp,
    /// `driver-webdriver`, with a chromedriver it starts.
    WebDriver,
    /// `driver-webdriver`'s Firefox over WebDriver BiDi.
    Firefox,
}

impl Backend {
    /// Every backend this build has: the columns of the conformance table
    /// and of the bench.
    pub const ALL: &'static [Backend] = &[Backend::Cdp, Backend::WebDriver, Backend::Firefox];

    /// The name used on the command line and in the table.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Cdp => "cdp",
            Backend::WebDriver => "webdriver",
            Backend::Firefox => "firefox",
        }
    }

    /// The backend called `name`.
    pub fn by_name(name: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .copied()
            .find(|backend| backend.name() == name)
    }

    /// A driver of this backend behind the guard: `guard`'s policy decides
    /// what the browser may reach.
    pub fn guarded(self, options: Options, guard: guard::Guard) -> guard::GuardedDriver {
        guard::GuardedDriver::new(
            guard,
            options,
            Box::new(move |options| self.driver(options)),
        )
    }

    /// A driver of this backend.
    pub fn driver(self, options: Options) -> Box<dyn Driver> {
        match self {
            Backend::Cdp => Box::new(driver_cdp::CdpDriver::new(options)),
            Backend::WebDriver => Box::new(driver_webdriver::WebDriverDriver::new(options)),
            Backend::Firefox => Box::new(driver_webdriver::FirefoxDriver::new(options)),
        }
    }
}

/// A flag Chrome ignores, added to a driver's command line so a test can find
/// exactly the processes of that driver among all others on the machine.
#[derive(Debug, Clone)]
pub struct Marker(String);

impl Marker {
    /// A marker unique in this process's life.
    pub fn new() -> Self {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        Marker(format!(
            "--tabwright-test-marker={}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ))
    }

    /// The flag to add to `Options::extra_args`.
    pub fn flag(&self) -> String {
        self.0.clone()
    }

    /// Live (not zombie) processes whose command line carries the marker.
    pub fn processes(&self) -> Vec<u32> {
        self.scan().into_iter().map(|(pid, _)| pid).collect()
    }

    /// The marked processes and all their descendants (renderers, zygotes,
    /// the GPU and network services): the whole browser tree.
    pub fn tree(&self) -> Vec<u32> {
        let processes = all_processes();
        let mut tree = self.processes();
        let mut index = 0;
        while index < tree.len() {
            let parent = tree[index];
            tree.extend(
                processes
                    .iter()
                    .filter(|process| process.parent == parent && !process.zombie)
                    .map(|process| process.pid),
            );
            index += 1;
        }
        tree
    }

    /// Firefox's web content processes in the marked browser's tree (a
    /// content process writes its command line as one string, which ends
    /// with its kind, `tab`): where its pages run.
    pub fn content_processes(&self) -> Vec<u32> {
        let tree = self.tree();
        all_processes()
            .into_iter()
            .filter(|process| tree.contains(&process.pid) && !process.zombie)
            .filter(|process| {
                process
                    .args
                    .last()
                    .is_some_and(|last| last == "tab" || last.ends_with(" tab"))
            })
            .map(|process| process.pid)
            .collect()
    }

    /// The whole browser tree plus the chromedriver that started it, if one
    /// did: what a WebDriver session costs.
    pub fn tree_and_driver(&self) -> Vec<u32> {
        let mut tree = self.tree();
        let processes = all_processes();
        let drivers: Vec<u32> = self
            .processes()
            .iter()
            .filter_map(|pid| processes.iter().find(|process| process.pid == *pid))
            .filter_map(|marked| {
                processes
                    .iter()
                    .find(|process| process.pid == marked.parent)
            })
            .filter(|parent| parent.name.contains("chromedriver"))
            .map(|parent| parent.pid)
            .collect();
        tree.extend(drivers);
        tree
    }

    /// The profile of the marked browser (Chrome's `--user-data-dir`,
    /// Firefox's `--profile`), if one is running.
    pub fn profile_dir(&self) -> Option<PathBuf> {
        self.scan().into_iter().find_map(|(_, args)| {
            args.iter()
                .find_map(|arg| arg.strip_prefix("--user-data-dir="))
                .map(PathBuf::from)
                .or_else(|| {
                    args.windows(2)
                        .find(|pair| pair[0] == "--profile")
                        .map(|pair| PathBuf::from(&pair[1]))
                })
        })
    }

    fn scan(&self) -> Vec<(u32, Vec<String>)> {
        all_processes()
            .into_iter()
            .filter(|process| !process.zombie && process.args.iter().any(|arg| arg == &self.0))
            .map(|process| (process.pid, process.args))
            .collect()
    }
}

struct Process {
    pid: u32,
    args: Vec<String>,
    zombie: bool,
    parent: u32,
    name: String,
}

fn all_processes() -> Vec<Process> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(|pid| {
            let raw = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
            let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
            let field = |name: &str| {
                status
                    .lines()
                    .find_map(|line| line.strip_prefix(name))
                    .map(|value| value.trim().to_owned())
                    .unwrap_or_default()
            };
            Some(Process {
                pid,
                args: raw
                    .split(|byte| *byte == 0)
                    .filter(|arg| !arg.is_empty())
                    .map(|arg| String::from_utf8_lossy(arg).into_owned())
                    .collect(),
                zombie: field("State:").starts_with('Z'),
                parent: field("PPid:").parse().unwrap_or_default(),
                name: field("Name:"),
            })
        })
        .collect()
}

/// Which of `pids` are zombies this process has not reaped: a closed driver
/// must reap its own browser. (Other tests' browsers, ending at the same
/// moment, are not this driver's business.)
pub fn unreaped(pids: &[u32]) -> Vec<u32> {
    let me = std::process::id();
    all_processes()
        .into_iter()
        .filter(|process| process.parent == me && process.zombie && pids.contains(&process.pid))
        .map(|process| process.pid)
        .collect()
}

impl Default for Marker {
    fn default() -> Self {
        Self::new()
    }
}

/// Kills `pids` outright (SIGKILL), as a crash would end them.
pub fn kill(pids: &[u32]) {
    for &pid in pids {
        let _ = nix::sys::signal::kill(
            nix::unistd::Pid::from_raw(pid as i32),
            nix::sys::signal::Signal::SIGKILL,
        );
    }
}

/// Which of `pids` are still running (zombies count as ended).
pub fn still_running(pids: &[u32]) -> Vec<u32> {
    pids.iter()
        .copied()
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/status"))
                .map(|status| {
                    !status
                        .lines()
                        .any(|line| line.starts_with("State:") && line.contains('Z'))
                })
                .unwrap_or(false)
        })
        .collect()
}
