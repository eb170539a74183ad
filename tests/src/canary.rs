//! A server that must never be reached: it counts every connection made to
//! it. It listens on its own loopback port, which no policy in the tests
//! allows, so a count above zero means a request escaped the guard.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use tokio::io::AsyncWriteExt;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

/// A counting listener on 127.0.0.1.
pub struct Canary {
    port: u16,
    connections: Arc<AtomicUsize>,
    task: JoinHandle<()>,
}

impl Canary {
    /// Starts listening on a free port.
    pub async fn start() -> std::io::Result<Self> {
        Self::on(TcpListener::bind(("127.0.0.1", 0)).await?)
    }

    /// Counts the connections to a listener made elsewhere (in another
    /// network namespace, say).
    pub fn from_std(listener: std::net::TcpListener) -> std::io::Result<Self> {
        listener.set_nonblocking(true)?;
        Self::on(TcpListener::from_std(listener)?)
    }

    fn on(listener: TcpListener) -> std::io::Result<Self> {
        let port = listener.local_addr()?.port();
        let connections = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&connections);
        let task = tokio::spawn(async move {
            while let Ok((mut stream, _)) = listener.accept().await {
                counter.fetch_add(1, Ordering::SeqCst);
                // Answer like a web server would, so a leak is not masked
                // by an error.
                let _ = stream
                    .write_all(
                        b"HTTP/1.1 200 OK\r\nContent-Length: 6\r\nConnection: close\r\n\r\nleaked",
                    )
                    .await;
            }
        });
        Ok(Self {
            port,
            connections,
            task,
        })
    }

    /// The canary's port.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// `http://127.0.0.1:PORT`.
    pub fn origin(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// How many connections reached it.
    pub fn connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }
}

impl Drop for Canary {
    fn drop(&mut self) {
        self.task.abort();
    }
}
