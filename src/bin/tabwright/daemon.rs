//! `tabwright serve`, a daemon that keeps browser sessions for commands
//! run one at a time from a shell (`tabwright open URL`, `tabwright click
//! 3`, `tabwright run script.js`), and the client side of those commands.
//!
//! The daemon listens on a Unix socket in a folder of the user's own
//! (`$TABWRIGHT_RUNTIME_DIR`, else `$XDG_RUNTIME_DIR/tabwright`, else
//! `/tmp/tabwright-UID`), made 0700 and refused if anyone else owns it or
//! can enter it. A command sends one request (a line of JSON) per
//! connection and reads one answer; the first command finds no daemon and
//! starts one with its own settings. Sessions are named (`--session`), each
//! a browser session of its own (on CDP a context in one shared browser).
//! The daemon ends when no command came for its idle time, on `tabwright
//! stop` or a signal, and takes its sessions and browser with it.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{UnixListener, UnixStream};
use tools::Pack;

/// The most a request may hold (a script, say).
const REQUEST_LIMIT: u64 = 4 * 1024 * 1024;

/// How long a command waits for a daemon it started to listen.
const START_WAIT: Duration = Duration::from_secs(20);

/// A command's exit code when the tool answered with an error.
pub const TOOL_FAILED: u8 = 1;
/// A command's exit code when it was not understood, or no daemon could
/// be reached.
pub const USAGE: u8 = 2;

/// The daemon's folder: its socket, lock and log.
#[derive(Debug, Clone)]
pub struct Place {
    dir: PathBuf,
}

impl Place {
    /// The user's folder, made if missing; refused if another user owns
    /// it or may enter it.
    pub fn find() -> Result<Self, String> {
        let dir = match std::env::var_os("TABWRIGHT_RUNTIME_DIR") {
            Some(dir) => PathBuf::from(dir),
            None => match std::env::var_os("XDG_RUNTIME_DIR") {
                Some(runtime) => PathBuf::from(runtime).join("tabwright"),
                None => std::env::temp_dir()
                    .join(format!("tabwright-{}", nix::unistd::getuid().as_raw())),
            },
        };
        match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
            Ok(()) => {}
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(error) => return Err(format!("cannot make {}: {error}", dir.display())),
        }
        let metadata = std::fs::symlink_metadata(&dir)
            .map_err(|error| format!("cannot read {}: {error}", dir.display()))?;
        if !metadata.is_dir() || metadata.uid() != nix::unistd::getuid().as_raw() {
            return Err(format!(
                "{} is not a folder of this user's: tabwright keeps its socket only in one (set TABWRIGHT_RUNTIME_DIR)",
                dir.display()
            ));
        }
        if metadata.mode() & 0o077 != 0 {
            return Err(format!(
                "{} may be entered by other users (mode {:o}): make it 0700, or set TABWRIGHT_RUNTIME_DIR",
                dir.display(),
                metadata.mode() & 0o777
            ));
        }
        Ok(Self { dir })
    }

    fn socket(&self) -> PathBuf {
        self.dir.join("daemon.sock")
    }

    fn lock(&self) -> PathBuf {
        self.dir.join("daemon.lock")
    }

    /// Where a daemon a command started writes its log.
    pub fn log(&self) -> PathBuf {
        self.dir.join("daemon.log")
    }
}

/// What makes a session's pack: the daemon's settings.
pub struct Maker {
    pub browser: tabwright::Browser,
    pub policy: tabwright::Policy,
    pub pack: tools::PackOptions,
}

/// The daemon's sessions, by name.
struct Sessions {
    maker: Maker,
    open: tokio::sync::Mutex<HashMap<String, Arc<Pack>>>,
    /// When the last request came, and how many are under way.
    last: std::sync::Mutex<(Instant, usize)>,
    stop: tokio::sync::Notify,
    settings: String,
}

impl Sessions {
    async fn get(&self, name: &str) -> Arc<Pack> {
        let mut open = self.open.lock().await;
        if let Some(pack) = open.get(name).filter(|pack| !pack.is_ended()) {
            return Arc::clone(pack);
        }
        let driver = self.maker.browser.session(self.maker.policy.clone());
        let pack = Arc::new(Pack::new(driver, self.maker.pack.clone()));
        // `close` retires the session: its next command starts a new one.
        pack.end_on_close();
        open.insert(name.to_owned(), Arc::clone(&pack));
        pack
    }

    fn busy(&self, by: isize) {
        let mut last = self
            .last
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        last.0 = Instant::now();
        last.1 = last.1.saturating_add_signed(by);
    }

    fn idle_for(&self) -> Option<Duration> {
        let last = self
            .last
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        (last.1 == 0).then(|| last.0.elapsed())
    }
}

/// Runs the daemon until it is idle for `idle`, stopped, or `signal`
/// resolves; returns at once (`Ok`) if another daemon holds the folder.
pub async fn serve(
    place: &Place,
    maker: Maker,
    settings: String,
    idle: Duration,
    signal: impl std::future::Future<Output = ()>,
) -> Result<(), String> {
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(place.lock())
        .map_err(|error| format!("cannot open {}: {error}", place.lock().display()))?;
    let Some(_held) = take_over(place, lock).await else {
        // Another daemon serves this folder (two commands raced to start
        // one): it answers them both.
        return Ok(());
    };
    let socket = place.socket();
    let _ = std::fs::remove_file(&socket);
    let listener = UnixListener::bind(&socket)
        .map_err(|error| format!("cannot listen on {}: {error}", socket.display()))?;
    std::fs::set_permissions(&socket, std::fs::Permissions::from_mode(0o600))
        .map_err(|error| format!("cannot restrict {}: {error}", socket.display()))?;
    let sessions = Arc::new(Sessions {
        maker,
        open: Default::default(),
        last: std::sync::Mutex::new((Instant::now(), 0)),
        stop: tokio::sync::Notify::new(),
        settings,
    });
    tracing::info!(socket = %socket.display(), "tabwright daemon listening");
    tokio::pin!(signal);
    let tick = (idle / 4).clamp(Duration::from_millis(100), Duration::from_secs(5));
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let Ok((stream, _)) = accepted else { continue };
                let sessions = Arc::clone(&sessions);
                tokio::spawn(async move { answer(stream, sessions).await });
            }
            () = tokio::time::sleep(tick) => {
                if sessions.idle_for().is_some_and(|quiet| quiet >= idle) {
                    tracing::info!("tabwright daemon idle: ending");
                    break;
                }
            }
            () = sessions.stop.notified() => break,
            () = &mut signal => break,
        }
    }
    // No new command reaches it while its sessions end.
    drop(listener);
    let _ = std::fs::remove_file(&socket);
    let packs: Vec<Arc<Pack>> = sessions
        .open
        .lock()
        .await
        .drain()
        .map(|(_, pack)| pack)
        .collect();
    for pack in packs {
        pack.end().await;
    }
    sessions.maker.browser.close().await;
    Ok(())
}

/// The folder's lock, once this daemon may serve it: at once when no
/// daemon holds it; after the one that holds it has ended, when that one
/// is ending (its socket gone: a command that came meanwhile started this
/// one, and is answered once it listens); `None` when another daemon
/// serves (its socket answers), or still ends after [`START_WAIT`].
async fn take_over(
    place: &Place,
    mut lock: std::fs::File,
) -> Option<nix::fcntl::Flock<std::fs::File>> {
    let began = Instant::now();
    loop {
        match nix::fcntl::Flock::lock(lock, nix::fcntl::FlockArg::LockExclusiveNonblock) {
            Ok(held) => return Some(held),
            Err((file, _)) => lock = file,
        }
        if UnixStream::connect(place.socket()).await.is_ok() || began.elapsed() > START_WAIT {
            return None;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Answers one connection's request.
async fn answer(stream: UnixStream, sessions: Arc<Sessions>) {
    let (reader, mut writer) = stream.into_split();
    let mut reader = BufReader::new(reader.take(REQUEST_LIMIT));
    let mut line = String::new();
    if reader.read_line(&mut line).await.is_err() {
        return;
    }
    let reply = match serde_json::from_str::<Value>(&line) {
        Ok(request) => {
            sessions.busy(1);
            // A command that goes away (Ctrl-C) cancels its call.
            let gone = async move {
                let mut rest = Vec::new();
                let _ = reader.read_to_end(&mut rest).await;
            };
            let reply = handle(&sessions, &request, gone).await;
            sessions.busy(-1);
            reply
        }
        Err(error) => usage(format!("the request is not JSON ({error})")),
    };
    let mut text = reply.to_string();
    text.push('\n');
    let _ = writer.write_all(text.as_bytes()).await;
    let _ = writer.shutdown().await;
}

fn usage(text: String) -> Value {
    json!({ "text": text, "is_error": true, "usage": true })
}

async fn handle(
    sessions: &Sessions,
    request: &Value,
    gone: impl std::future::Future<Output = ()>,
) -> Value {
    let name = request["session"].as_str().unwrap_or("default");
    let settings = request["settings"].as_str().unwrap_or_default();
    if request["ask"] == "stop" {
        sessions.stop.notify_one();
        return json!({
            "text": "The tabwright daemon is ending; its sessions close.",
            "is_error": false,
            "pid": std::process::id(),
        });
    }
    if request["ask"] == "status" {
        let open = sessions.open.lock().await;
        let mut names: Vec<&String> = open.keys().collect();
        names.sort();
        return json!({
            "text": format!(
                "tabwright daemon {} serving {} session{}{}.",
                std::process::id(),
                names.len(),
                if names.len() == 1 { "" } else { "s" },
                if names.is_empty() {
                    String::new()
                } else {
                    format!(": {}", names.iter().map(|name| name.as_str()).collect::<Vec<_>>().join(", "))
                }
            ),
            "is_error": false,
            "pid": std::process::id(),
        });
    }
    if settings != sessions.settings && request["defaults"] != true {
        return usage(
            "The tabwright daemon runs with other settings than this command gives: `tabwright stop` ends it (its sessions close), or leave the flags off to use it as it is.".to_owned(),
        );
    }
    if !valid_name(name) {
        return usage(format!(
            "--session {name:?}: a name of letters, digits, '-' and '_', at most 64"
        ));
    }
    let pack = sessions.get(name).await;
    if request["line"] == "commands" {
        return json!({ "text": format!("The tools, written short (`TOOL {{json}}` also works; `run FILE.js` sends a script):\n{}", pack.short_help()), "is_error": false });
    }
    let (tool, arguments, file) = match (&request["line"], &request["tool"]) {
        (Value::String(line), _) => match pack.read_short(line) {
            Ok(Some(call)) => (call.tool.to_owned(), call.arguments, call.file),
            Ok(None) => {
                let word = line.split_whitespace().next().unwrap_or_default();
                return usage(format!(
                    "tabwright has no command {word:?}; `tabwright commands` lists the tools and their short forms"
                ));
            }
            Err(problem) => return usage(problem),
        },
        (_, Value::String(tool)) => (tool.clone(), request["arguments"].clone(), None),
        _ => return usage("the request names no tool".to_owned()),
    };
    let output = pack.call_until(&tool, arguments, gone).await;
    let images: Vec<Value> = output
        .images
        .iter()
        .map(|image| json!({ "mime_type": image.mime_type, "data": image.base64() }))
        .collect();
    json!({
        "text": output.text,
        "is_error": output.is_error,
        "images": images,
        "file": file,
    })
}

fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// What a command asks the daemon.
pub enum Ask {
    /// A line in the shell's short forms (`click 3`).
    Line(String),
    /// A tool call with its arguments.
    Call { tool: String, arguments: Value },
    /// The daemon's pid and sessions.
    Status,
    /// End the daemon.
    Stop,
}

/// A command's request, as the daemon reads it.
pub struct Request {
    pub session: String,
    /// The settings it would start a daemon with.
    pub settings: String,
    /// It gave no setting of its own: any daemon's will do.
    pub defaults: bool,
    pub ask: Ask,
}

/// Sends a command to the daemon, starting one (with `start`) if none
/// listens; prints the answer and says what the exit code should be.
pub async fn command(
    place: &Place,
    request: Request,
    start: impl FnOnce() -> Result<(), String>,
) -> u8 {
    let mut body = json!({
        "session": request.session,
        "settings": request.settings,
        "defaults": request.defaults,
    });
    match request.ask {
        Ask::Line(line) => body["line"] = line.into(),
        Ask::Call { tool, arguments } => {
            body["tool"] = tool.into();
            body["arguments"] = arguments;
        }
        Ask::Status => body["ask"] = "status".into(),
        Ask::Stop => body["ask"] = "stop".into(),
    }
    let ends_daemon = matches!(body["ask"].as_str(), Some("stop" | "status"));
    let stream = match UnixStream::connect(place.socket()).await {
        Ok(stream) => stream,
        Err(_) if ends_daemon => {
            println!("No tabwright daemon is running.");
            return if body["ask"] == "stop" {
                0
            } else {
                TOOL_FAILED
            };
        }
        Err(_) => match started(place, start).await {
            Ok(stream) => stream,
            Err(problem) => {
                eprintln!("tabwright: {problem}");
                return USAGE;
            }
        },
    };
    let reply = match exchange(stream, &body).await {
        Ok(reply) => reply,
        Err(problem) => {
            eprintln!(
                "tabwright: the daemon did not answer ({problem}); its log: {}",
                place.log().display()
            );
            return USAGE;
        }
    };
    let text = reply["text"].as_str().unwrap_or_default();
    if body["ask"] == "stop" {
        // Stopped means gone: the daemon holds its lock until it exits,
        // its sessions and browser closed.
        println!("{text}");
        let pid = reply["pid"]
            .as_i64()
            .and_then(|pid| i32::try_from(pid).ok());
        return if ended(place, pid).await {
            0
        } else {
            TOOL_FAILED
        };
    }
    if reply["usage"] == true {
        eprintln!("tabwright: {text}");
        return USAGE;
    }
    println!("{text}");
    for (at, image) in reply["images"].as_array().into_iter().flatten().enumerate() {
        let file = reply["file"].as_str().map(PathBuf::from);
        match save_picture(image, file, at) {
            Ok(path) => println!("(The picture is saved in {}.)", path.display()),
            Err(problem) => eprintln!("tabwright: the picture could not be saved: {problem}"),
        }
    }
    if reply["is_error"] == true {
        TOOL_FAILED
    } else {
        0
    }
}

/// Waits (a while) until the daemon has exited: its process is gone (the
/// next daemon, started by a command meanwhile, may hold the lock at once),
/// or, where its pid is not known, its lock is free.
async fn ended(place: &Place, pid: Option<i32>) -> bool {
    let began = Instant::now();
    while began.elapsed() < START_WAIT {
        let free = match pid {
            Some(pid) => gone(pid),
            None => std::fs::OpenOptions::new()
                .write(true)
                .open(place.lock())
                .ok()
                .is_none_or(|file| {
                    nix::fcntl::Flock::lock(file, nix::fcntl::FlockArg::LockExclusiveNonblock)
                        .is_ok()
                }),
        };
        if free {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    eprintln!(
        "tabwright: the daemon is still ending after {} s",
        START_WAIT.as_secs()
    );
    false
}

/// Whether a process has exited (a zombie no one reaped yet counts).
fn gone(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(") ")
            .is_some_and(|(_, after)| after.starts_with('Z') || after.starts_with('X')),
    }
}

/// Starts a daemon and waits until it listens.
async fn started(
    place: &Place,
    start: impl FnOnce() -> Result<(), String>,
) -> Result<UnixStream, String> {
    start()?;
    let began = Instant::now();
    loop {
        if let Ok(stream) = UnixStream::connect(place.socket()).await {
            return Ok(stream);
        }
        if began.elapsed() > START_WAIT {
            return Err(format!(
                "the daemon did not start within {} s; its log: {}",
                START_WAIT.as_secs(),
                place.log().display()
            ));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn exchange(stream: UnixStream, body: &Value) -> Result<Value, String> {
    let (reader, mut writer) = stream.into_split();
    let mut text = body.to_string();
    text.push('\n');
    writer
        .write_all(text.as_bytes())
        .await
        .map_err(|error| error.to_string())?;
    // The writing half stays open: closing it would tell the daemon this
    // command went away, and cancel the call.
    let mut reader = BufReader::new(reader);
    let mut line = String::new();
    reader
        .read_line(&mut line)
        .await
        .map_err(|error| error.to_string())?;
    drop(writer);
    serde_json::from_str(&line).map_err(|error| format!("not JSON: {error}"))
}

/// Writes a picture from an answer to `file`, or a file of its own in the
/// temporary folder.
fn save_picture(image: &Value, file: Option<PathBuf>, at: usize) -> Result<PathBuf, String> {
    use base64::Engine;
    let data = base64::engine::general_purpose::STANDARD
        .decode(image["data"].as_str().unwrap_or_default())
        .map_err(|error| error.to_string())?;
    let extension = match image["mime_type"].as_str() {
        Some("image/jpeg") => "jpg",
        Some("image/webp") => "webp",
        _ => "png",
    };
    let (path, mut out) = match file {
        Some(path) => {
            let out = std::fs::File::create(&path).map_err(|error| error.to_string())?;
            (path, out)
        }
        // A name no one can guess, made new (never through a link another
        // user planted in the shared temporary folder), owner-only.
        None => {
            use std::os::unix::fs::OpenOptionsExt;
            let path = std::env::temp_dir().join(format!(
                "tabwright-{:016x}-{at}.{extension}",
                driver_core::random_u64()
            ));
            let out = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(&path)
                .map_err(|error| format!("cannot make {}: {error}", path.display()))?;
            (path, out)
        }
    };
    out.write_all(&data).map_err(|error| error.to_string())?;
    Ok(path)
}

/// Starts `tabwright serve` in the background with these arguments (the
/// command's own settings), its output in the daemon's log; it outlives
/// the command, in a process group of its own (a Ctrl-C at the terminal
/// is the command's alone).
pub fn spawn_daemon(place: &Place, arguments: &[std::ffi::OsString]) -> Result<(), String> {
    use std::os::unix::process::CommandExt;
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(place.log())
        .map_err(|error| format!("cannot write {}: {error}", place.log().display()))?;
    let err = log.try_clone().map_err(|error| error.to_string())?;
    let exe = std::env::current_exe().map_err(|error| error.to_string())?;
    std::process::Command::new(exe)
        .args(arguments)
        .arg("serve")
        .stdin(std::process::Stdio::null())
        .stdout(log)
        .stderr(err)
        .process_group(0)
        .spawn()
        .map_err(|error| format!("cannot start the daemon: {error}"))?;
    Ok(())
}

/// Reads a script for `run`: a file, or standard input for `-`.
pub fn read_script(path: &Path) -> Result<String, String> {
    if path == Path::new("-") {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|error| format!("cannot read the script from standard input: {error}"))?;
        return Ok(text);
    }
    std::fs::read_to_string(path)
        .map_err(|error| format!("cannot read the script {}: {error}", path.display()))
}
