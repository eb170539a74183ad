//! Other "machines" for the tests of remote browsers: a Linux network
//! namespace joined to this one by a veth pair, each end with an address of
//! a /30 of its own. A namespace has its own loopback and addresses, so a
//! browser in it is on another machine as far as addresses go.
//!
//! What runs in one: a process (`ip netns exec`), a listener (bound from a
//! thread that joined the namespace: the socket stays there), and a relay
//! from the namespace's veth address to a port on its loopback (new headless
//! Chrome's DevTools port listens on loopback only).

use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::os::fd::AsFd;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::Arc;

use nix::sched::{setns, CloneFlags};

/// A network namespace and the veth pair that joins it to this one.
pub struct Netns {
    name: String,
    host_link: String,
    /// This namespace's end of the pair, as seen from the other side.
    pub host_ip: Ipv4Addr,
    /// The namespace's own address.
    pub ip: Ipv4Addr,
}

impl Netns {
    /// A new namespace joined to this one, or why one cannot be made here
    /// (no `ip`, or not permitted: the tests that need one then skip).
    pub fn create() -> Result<Self, String> {
        static NEXT: AtomicU8 = AtomicU8::new(0);
        let index = NEXT.fetch_add(1, Ordering::Relaxed);
        if index >= 60 {
            return Err("too many namespaces in one test process".to_owned());
        }
        let pid = std::process::id();
        if index == 0 {
            sweep();
        }
        let name = format!("tw-{pid}-{index}");
        let host_link = link_name("twh", pid, index);
        let ns_link = link_name("twn", pid, index);
        // 10.231.X.Y/30 per namespace: X from the process, Y from the index.
        let third = u8::try_from(pid % 250).unwrap_or(0);
        let base = index * 4;
        let host_ip = Ipv4Addr::new(10, 231, third, base + 1);
        let ip = Ipv4Addr::new(10, 231, third, base + 2);
        ip_cmd(&["netns", "add", &name])?;
        let made = Self {
            name: name.clone(),
            host_link: host_link.clone(),
            host_ip,
            ip,
        };
        ip_cmd(&[
            "link", "add", &host_link, "type", "veth", "peer", "name", &ns_link,
        ])?;
        ip_cmd(&["link", "set", &ns_link, "netns", &name])?;
        ip_cmd(&["addr", "add", &format!("{host_ip}/30"), "dev", &host_link])?;
        ip_cmd(&["link", "set", &host_link, "up"])?;
        made.exec_ip(&["link", "set", "lo", "up"])?;
        made.exec_ip(&["addr", "add", &format!("{ip}/30"), "dev", &ns_link])?;
        made.exec_ip(&["link", "set", &ns_link, "up"])?;
        made.exec_ip(&["route", "add", "default", "via", &host_ip.to_string()])?;
        Ok(made)
    }

    /// The namespace's name (for `ip netns exec`).
    pub fn name(&self) -> &str {
        &self.name
    }

    fn exec_ip(&self, args: &[&str]) -> Result<(), String> {
        let mut all = vec!["netns", "exec", &self.name, "ip"];
        all.extend_from_slice(args);
        ip_cmd(&all)
    }

    /// A command that runs in the namespace.
    pub fn command(&self, program: &str) -> tokio::process::Command {
        let mut command = tokio::process::Command::new("ip");
        command
            .args(["netns", "exec", &self.name, program])
            .stdin(Stdio::null())
            .kill_on_drop(true);
        command
    }

    /// Runs `work` on a thread that has joined the namespace: sockets it
    /// makes are the namespace's.
    pub fn within<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> std::io::Result<T> + Send + 'static,
    ) -> std::io::Result<T> {
        let path = format!("/var/run/netns/{}", self.name);
        std::thread::spawn(move || {
            let file = std::fs::File::open(&path)?;
            setns(file.as_fd(), CloneFlags::CLONE_NEWNET).map_err(std::io::Error::from)?;
            work()
        })
        .join()
        .map_err(|_| std::io::Error::other("the namespace's thread panicked"))?
    }

    /// A listener in the namespace at `address`.
    pub fn listen(&self, address: SocketAddr) -> std::io::Result<TcpListener> {
        self.within(move || TcpListener::bind(address))
    }

    /// Relays connections to the namespace's own address (a port the
    /// system picks) to its loopback, port `inside`, until the relay is
    /// dropped.
    pub fn relay(&self, inside: u16) -> std::io::Result<Relay> {
        let ip = self.ip;
        let path = format!("/var/run/netns/{}", self.name);
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        let (ready, told) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let bound = std::fs::File::open(&path)
                .and_then(|file| {
                    setns(file.as_fd(), CloneFlags::CLONE_NEWNET).map_err(std::io::Error::from)
                })
                .and_then(|()| TcpListener::bind((ip, 0)))
                .and_then(|listener| listener.set_nonblocking(true).map(|()| listener));
            let listener = match bound {
                Ok(listener) => listener,
                Err(error) => {
                    let _ = ready.send(Err(error));
                    return;
                }
            };
            let _ = ready.send(listener.local_addr());
            while !stopped.load(Ordering::SeqCst) {
                match listener.accept() {
                    Ok((client, _)) => {
                        // Made on this thread, so in the namespace.
                        if let Ok(server) = TcpStream::connect((Ipv4Addr::LOCALHOST, inside)) {
                            let _ = client.set_nonblocking(false);
                            splice(client, server);
                        }
                    }
                    Err(_) => std::thread::sleep(std::time::Duration::from_millis(20)),
                }
            }
        });
        let address = told
            .recv()
            .map_err(|_| std::io::Error::other("the relay's thread ended"))??;
        Ok(Relay { address, stop })
    }

    /// Opens a connection to `address` from inside the namespace, sends
    /// `bytes`, and returns what came back before the other side closed
    /// (or an error: refused, reset).
    pub fn exchange(&self, address: SocketAddr, bytes: &'static [u8]) -> std::io::Result<Vec<u8>> {
        self.within(move || {
            let mut stream =
                TcpStream::connect_timeout(&address, std::time::Duration::from_secs(5))?;
            stream.set_read_timeout(Some(std::time::Duration::from_secs(5)))?;
            stream.write_all(bytes)?;
            let mut answer = Vec::new();
            stream.read_to_end(&mut answer)?;
            Ok(answer)
        })
    }

    /// The namespace's address as an `IpAddr`.
    pub fn address(&self) -> IpAddr {
        IpAddr::V4(self.ip)
    }
}

impl Drop for Netns {
    fn drop(&mut self) {
        // Deleting the namespace deletes its end of the pair, and so the pair.
        let _ = ip_cmd(&["netns", "del", &self.name]);
        let _ = ip_cmd(&["link", "del", &self.host_link]);
    }
}

/// A link's name (at most 15 bytes) for a namespace of process `pid`.
fn link_name(prefix: &str, pid: u32, index: u8) -> String {
    format!("{prefix}{}x{index}", pid % 100_000)
}

/// Deletes the namespaces (and links) of test processes that are gone:
/// what a killed run left behind.
fn sweep() {
    let Ok(entries) = std::fs::read_dir("/var/run/netns") else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let mut parts = name.strip_prefix("tw-").unwrap_or_default().split('-');
        let (Some(Ok(pid)), Some(Ok(index))) = (
            parts.next().map(str::parse::<u32>),
            parts.next().map(str::parse::<u8>),
        ) else {
            continue;
        };
        if std::path::Path::new(&format!("/proc/{pid}")).exists() {
            continue;
        }
        let _ = ip_cmd(&["netns", "del", &name]);
        let _ = ip_cmd(&["link", "del", &link_name("twh", pid, index)]);
    }
}

/// A relay into a namespace's loopback; dropping it stops it.
pub struct Relay {
    /// Where it listens: the namespace's address.
    pub address: SocketAddr,
    stop: Arc<AtomicBool>,
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

/// Copies bytes both ways between two streams until either side closes.
fn splice(client: TcpStream, server: TcpStream) {
    let (Ok(mut client_in), Ok(mut server_in)) = (client.try_clone(), server.try_clone()) else {
        return;
    };
    let (mut client_out, mut server_out) = (client, server);
    std::thread::spawn(move || {
        let _ = std::io::copy(&mut client_in, &mut server_out);
        let _ = server_out.shutdown(std::net::Shutdown::Write);
    });
    std::thread::spawn(move || {
        let _ = std::io::copy(&mut server_in, &mut client_out);
        let _ = client_out.shutdown(std::net::Shutdown::Write);
    });
}

fn ip_cmd(args: &[&str]) -> Result<(), String> {
    let output = Command::new("ip")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|error| format!("ip {}: {error}", args.join(" ")))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "ip {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&output.stderr).trim()
        ))
    }
}
