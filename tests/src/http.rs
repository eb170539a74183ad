//! A deliberately small HTTP/1.1 client for talking to the egress proxy
//! byte for byte: the proxy tests need to send exactly what a browser sends
//! (absolute-form requests, CONNECT, several requests on one connection),
//! and the benchmark needs the same without a client library's own pooling.

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// A response: status, the guard's refusal header if any, and the body.
pub type Answer = (u16, Option<String>, String);

/// Sends one request on `stream` and reads the status, the refusal header
/// and the body.
pub async fn exchange(
    stream: &mut BufReader<TcpStream>,
    request: &str,
) -> (u16, Option<String>, String) {
    stream
        .get_mut()
        .write_all(request.as_bytes())
        .await
        .unwrap_or_default();
    let mut status_line = String::new();
    stream.read_line(&mut status_line).await.unwrap_or_default();
    let status = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let (mut length, mut refused) = (0usize, None);
    loop {
        let mut line = String::new();
        stream.read_line(&mut line).await.unwrap_or_default();
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(':').unwrap_or((line, ""));
        match name.to_ascii_lowercase().as_str() {
            "content-length" => length = value.trim().parse().unwrap_or(0),
            "x-tabwright-refused" => refused = Some(value.trim().to_owned()),
            _ => {}
        }
    }
    let mut body = vec![0; length];
    stream.read_exact(&mut body).await.unwrap_or_default();
    (status, refused, String::from_utf8_lossy(&body).into_owned())
}

/// A GET in absolute form (as sent to a proxy) or origin form.
pub fn get(target: &str, host: &str) -> String {
    format!("GET {target} HTTP/1.1\r\nHost: {host}\r\nContent-Length: 0\r\n\r\n")
}

/// `GET url` (plain `http://host:port/path`) on a connection of its own:
/// the status and the body, or why there was none.
pub async fn fetch(url: &str) -> Result<(u16, String), String> {
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| format!("not an http URL: {url}"))?;
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let path = if path.is_empty() { "/" } else { path };
    let mut stream = TcpStream::connect(authority)
        .await
        .map_err(|error| format!("{authority}: {error}"))?;
    let request = format!("GET {path} HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\n\r\n");
    stream
        .write_all(request.as_bytes())
        .await
        .map_err(|error| error.to_string())?;
    // The status line and headers, then the body by its length (a server
    // may keep the connection open whatever the request said).
    let mut reader = BufReader::new(stream);
    let mut status_line = String::new();
    reader
        .read_line(&mut status_line)
        .await
        .map_err(|error| error.to_string())?;
    let status = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|status| status.parse().ok())
        .ok_or_else(|| format!("no status in {status_line:?}"))?;
    let mut length: Option<usize> = None;
    loop {
        let mut line = String::new();
        let read = reader
            .read_line(&mut line)
            .await
            .map_err(|error| error.to_string())?;
        let line = line.trim_end();
        if read == 0 || line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().ok();
            }
        }
    }
    let mut body = Vec::new();
    match length {
        Some(length) => {
            body.resize(length, 0);
            reader
                .read_exact(&mut body)
                .await
                .map_err(|error| error.to_string())?;
        }
        None => {
            reader
                .read_to_end(&mut body)
                .await
                .map_err(|error| error.to_string())?;
        }
    }
    let body = String::from_utf8_lossy(&body).into_owned();
    Ok((status, body))
}
