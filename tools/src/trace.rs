//! [`Trace`]: what a session did, written as it happens, for a person to
//! read afterwards (`tabwright trace DIR` makes it a page).
//!
//! One folder per pack under the trace folder (`0700`): `trace.jsonl`, one
//! JSON object per call, appended and flushed as each call ends, so a crash
//! loses at most the call under way; and `NNNN.jpg`, a small picture of the
//! viewport after each action. Every file is `0600`. A step holds the call
//! (its arguments with secrets scrubbed), the exact answer the model read,
//! how long it took, what the guard refused and what the page logged
//! meanwhile.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The name of a session's trace file in its folder.
pub const TRACE_FILE: &str = "trace.jsonl";

/// The version of the trace format this build writes and reads; the first
/// line of every trace says which it was written in.
pub const TRACE_VERSION: u64 = 1;

/// The most bytes of a trace file `read_steps` reads: a longer one is
/// refused, not read until memory runs out.
pub const TRACE_READ_LIMIT: u64 = 256 << 20;

/// The trace file of `folder`, read: opened without following a link and
/// without waiting on a pipe, refused unless it is a regular file, and at
/// most [`TRACE_READ_LIMIT`] bytes.
fn read_trace_file(folder: &Path) -> std::io::Result<String> {
    use std::io::Read;
    let file = OpenOptions::new()
        .read(true)
        // A link in the last part refused; a pipe not waited on.
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(folder.join(TRACE_FILE))?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(std::io::Error::other(format!(
            "{TRACE_FILE} is not a regular file"
        )));
    }
    if meta.len() > TRACE_READ_LIMIT {
        return Err(std::io::Error::other(format!(
            "{TRACE_FILE} is {} MiB, more than the {} MiB a page is made of",
            meta.len() >> 20,
            TRACE_READ_LIMIT >> 20
        )));
    }
    let mut text = String::new();
    file.take(TRACE_READ_LIMIT).read_to_string(&mut text)?;
    Ok(text)
}

/// One call, as the trace keeps it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Step {
    /// Its number in the session, from 1.
    pub step: u64,
    /// When it began, in milliseconds since the Unix epoch.
    pub at_ms: u64,
    /// The tool.
    pub tool: String,
    /// Its arguments, secrets scrubbed.
    pub arguments: Value,
    /// What the model read.
    pub answer: String,
    /// Whether the call failed.
    pub is_error: bool,
    /// How long it took, in milliseconds.
    pub ms: u64,
    /// The picture after it (a file in the folder), for an action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub picture: Option<String>,
    /// What the guard refused during it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refused: Vec<String>,
    /// What the page logged during it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub console: Vec<String>,
    /// Where its time went.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phases: Option<crate::phases::Phases>,
}

impl Step {
    /// Passes every string of the step through `scrub`: its tool, every
    /// key and value of its arguments however deep, its answer, its
    /// picture's name, what the guard refused and what the page logged.
    /// The one scrub a record gets before it is written or shown, so a
    /// field added later cannot be forgotten by a caller.
    pub fn scrub_with(&mut self, scrub: &impl Fn(&mut String)) {
        let Self {
            step: _,
            at_ms: _,
            tool,
            arguments,
            answer,
            is_error: _,
            ms: _,
            picture,
            refused,
            console,
            phases: _,
        } = self;
        scrub(tool);
        scrub_value(arguments, scrub);
        scrub(answer);
        if let Some(picture) = picture {
            scrub(picture);
        }
        refused.iter_mut().chain(console.iter_mut()).for_each(scrub);
    }
}

/// Passes every string in `value` (keys too) through `scrub`.
pub(crate) fn scrub_value(value: &mut Value, scrub: &impl Fn(&mut String)) {
    match value {
        Value::String(text) => scrub(text),
        Value::Array(items) => items.iter_mut().for_each(|item| scrub_value(item, scrub)),
        Value::Object(map) => {
            let entries = std::mem::take(map);
            for (mut key, mut item) in entries {
                scrub(&mut key);
                scrub_value(&mut item, scrub);
                map.insert(key, item);
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

/// A session's trace being written. See the module docs.
pub struct Trace {
    folder: PathBuf,
    file: Mutex<File>,
}

impl Trace {
    /// Starts a session's trace in a new folder under `root` (made if
    /// missing).
    pub fn create(root: &Path) -> std::io::Result<Self> {
        std::fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(root)?;
        static MADE: AtomicU64 = AtomicU64::new(0);
        let seconds = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |since| since.as_secs());
        let folder = root.join(format!(
            "session-{seconds}-{}-{}",
            std::process::id(),
            MADE.fetch_add(1, Ordering::Relaxed) + 1
        ));
        std::fs::DirBuilder::new().mode(0o700).create(&folder)?;
        let mut file = owner_only(&folder.join(TRACE_FILE))?;
        let header = serde_json::json!({
            "trace": TRACE_VERSION,
            "tabwright": env!("CARGO_PKG_VERSION"),
        });
        writeln!(file, "{header}")?;
        Ok(Self {
            folder,
            file: Mutex::new(file),
        })
    }

    /// The session's folder.
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// Keeps a picture of step `step`; answers its file name.
    pub(crate) fn picture(&self, step: u64, jpeg: &[u8]) -> Option<String> {
        let name = format!("{step:04}.jpg");
        let mut file = owner_only(&self.folder.join(&name)).ok()?;
        file.write_all(jpeg).ok()?;
        Some(name)
    }

    /// Appends a step, flushed at once.
    pub(crate) fn write(&self, step: &Step) {
        let Ok(mut line) = serde_json::to_string(step) else {
            return;
        };
        line.push('\n');
        let mut file = self
            .file
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Err(error) = file.write_all(line.as_bytes()).and_then(|()| file.flush()) {
            tracing::warn!(%error, "a trace step could not be written");
        }
    }
}

/// A new file only its owner may read or write, appended to.
fn owner_only(path: &Path) -> std::io::Result<File> {
    OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .open(path)
}

/// The steps of a session's trace folder, as written (a line cut short by
/// a crash is left out). A trace of a later format than this build reads
/// is refused, saying which it needs.
pub fn read_steps(folder: &Path) -> std::io::Result<Vec<Step>> {
    let text = read_trace_file(folder)?;
    let mut lines = text.lines();
    let header: Value = lines
        .next()
        .and_then(|line| serde_json::from_str(line).ok())
        .unwrap_or(Value::Null);
    match header["trace"].as_u64() {
        Some(version) if version <= TRACE_VERSION => {}
        Some(version) => {
            // The header is the file's word: quoted, on one line, no
            // control character reaches a terminal.
            let writer = marks::quoted(header["tabwright"].as_str().unwrap_or("?"), 40);
            return Err(std::io::Error::other(format!(
                "this trace is in format {version}, written by tabwright {writer}; this tabwright reads format {TRACE_VERSION} and older: use tabwright {writer} or later"
            )));
        }
        None => {
            return Err(std::io::Error::other(
                "this is not a tabwright trace (its first line names no trace format)",
            ))
        }
    }
    Ok(lines
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect())
}

/// A session's trace as one HTML page: a filmstrip of the steps, each with
/// its call, what the model read, its timing, refusals and console lines,
/// and the picture after it. Everything from the page is escaped.
pub fn page(folder: &Path) -> std::io::Result<String> {
    let mut steps = read_steps(folder)?;
    // A picture is a file of the folder's own, or none: never another
    // address (a remote one would be fetched on opening the page).
    for step in &mut steps {
        if let Some(picture) = step.picture.take() {
            step.picture = own_picture(folder, &picture).then_some(picture);
        }
    }
    let mut html = String::from(
        "<!doctype html><meta charset=utf-8>\
         <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src 'self' file:; style-src 'unsafe-inline'\">\
         <title>tabwright trace</title>\
         <style>body{font:14px system-ui;margin:1em}\
         .strip{display:flex;gap:6px;overflow-x:auto;padding-bottom:8px}\
         .strip a{flex:none;text-align:center;font-size:12px;color:#333;text-decoration:none}\
         .strip img{display:block;height:70px;border:1px solid #ccc}\
         .step{border-top:1px solid #ddd;padding:8px 0}.error{color:#a00}\
         pre{white-space:pre-wrap;background:#f6f6f6;padding:6px;max-height:24em;overflow:auto}\
         img.after{max-width:640px;border:1px solid #ccc}</style>",
    );
    html.push_str(&format!(
        "<h1>Trace of {}</h1><p>{} steps</p><div class=strip>",
        escape(&folder.display().to_string()),
        steps.len()
    ));
    for step in &steps {
        html.push_str(&format!("<a href=\"#s{0}\">", step.step));
        if let Some(picture) = &step.picture {
            html.push_str(&format!("<img src=\"{}\" alt=\"\">", escape(picture)));
        }
        html.push_str(&format!("{} {}</a>", step.step, escape(&step.tool)));
    }
    html.push_str("</div>");
    for step in &steps {
        html.push_str(&format!(
            "<div class=step id=s{}><h3{}>{}. {} <small>{} ms</small></h3><pre>{}</pre>",
            step.step,
            if step.is_error { " class=error" } else { "" },
            step.step,
            escape(&step.tool),
            step.ms,
            escape(&step.arguments.to_string())
        ));
        html.push_str(&format!(
            "<p>What the model read:</p><pre>{}</pre>",
            escape(&step.answer)
        ));
        for (what, lines) in [
            ("Refused by the guard", &step.refused),
            ("Console", &step.console),
        ] {
            if !lines.is_empty() {
                html.push_str(&format!(
                    "<p>{what}:</p><pre>{}</pre>",
                    escape(&lines.join("\n"))
                ));
            }
        }
        if let Some(picture) = &step.picture {
            html.push_str(&format!(
                "<img class=after src=\"{}\" alt=\"the page after it\">",
                escape(picture)
            ));
        }
        html.push_str("</div>");
    }
    Ok(html)
}

/// The most characters of one string, items of one list or fields of one
/// object a step's arguments keep, and how deep: a trace and a live view
/// hold what a call was asked, bounded as an answer is.
const ARGUMENT_STRING: usize = 2_000;
const ARGUMENT_ITEMS: usize = 100;
const ARGUMENT_DEPTH: usize = 16;

/// A call's arguments as a trace keeps them: each string cut to
/// [`ARGUMENT_STRING`] characters, lists and objects to
/// [`ARGUMENT_ITEMS`] entries, nesting to [`ARGUMENT_DEPTH`] levels (what
/// is cut says so).
pub(crate) fn bounded(value: &Value, depth: usize) -> Value {
    match value {
        Value::String(text) => Value::String(marks::cut(text, ARGUMENT_STRING).into_owned()),
        _ if depth >= ARGUMENT_DEPTH => Value::String("…".to_owned()),
        Value::Array(items) => {
            let mut kept: Vec<Value> = items
                .iter()
                .take(ARGUMENT_ITEMS)
                .map(|item| bounded(item, depth + 1))
                .collect();
            if items.len() > ARGUMENT_ITEMS {
                kept.push(Value::String(format!(
                    "… {} more",
                    items.len() - ARGUMENT_ITEMS
                )));
            }
            Value::Array(kept)
        }
        Value::Object(fields) => {
            let mut kept: serde_json::Map<String, Value> = fields
                .iter()
                .take(ARGUMENT_ITEMS)
                .map(|(key, item)| (marks::cut(key, 100).into_owned(), bounded(item, depth + 1)))
                .collect();
            if fields.len() > ARGUMENT_ITEMS {
                kept.insert(
                    "…".to_owned(),
                    Value::String(format!("{} more", fields.len() - ARGUMENT_ITEMS)),
                );
            }
            Value::Object(kept)
        }
        other => other.clone(),
    }
}

/// Whether `name` is a picture this folder holds itself: a plain file
/// name (letters, digits, `.`, `-`, `_`; not starting with a dot) of an
/// image, that is a regular file here (not a link).
fn own_picture(folder: &Path, name: &str) -> bool {
    let plain = !name.is_empty()
        && name.len() <= 64
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'));
    let image = [".jpg", ".jpeg", ".png", ".webp"]
        .iter()
        .any(|extension| name.ends_with(extension));
    plain
        && image
        && std::fs::symlink_metadata(folder.join(name)).is_ok_and(|meta| meta.file_type().is_file())
}

/// Writes a session's trace page as `index.html` in its folder and
/// answers its path. The page is written to a new file beside it (made
/// exclusively, owner-only) and renamed over `index.html`, so a link
/// planted there is replaced, never written through.
pub fn write_page(folder: &Path) -> std::io::Result<PathBuf> {
    let html = page(folder)?;
    let path = folder.join("index.html");
    let fresh = folder.join(format!(".index-{:016x}.html", driver_core::random_u64()));
    let written = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&fresh)
        .and_then(|mut file| file.write_all(html.as_bytes()))
        .and_then(|()| std::fs::rename(&fresh, &path));
    if written.is_err() {
        let _ = std::fs::remove_file(&fresh);
    }
    written.map(|()| path)
}

/// Text for HTML: its markup characters as entities, and what no one
/// should see raw in a page (controls, line and format characters) folded
/// as page text is.
fn escape(text: &str) -> String {
    let text: String = text
        .chars()
        .map(|c| match c {
            '\n' | '\t' => c,
            c if marks::fate(c) == marks::Fate::Kept => c,
            _ => ' ',
        })
        .collect();
    let text = text.as_str();
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trace_says_its_format_and_a_later_one_is_refused() {
        let root = tempfile::tempdir().expect("a folder");
        let trace = Trace::create(root.path()).expect("a trace");
        trace.write(&Step {
            step: 1,
            at_ms: 0,
            tool: "open".to_owned(),
            arguments: serde_json::json!({ "url": "https://example.com/" }),
            answer: "Opened".to_owned(),
            is_error: false,
            ms: 5,
            picture: None,
            refused: Vec::new(),
            console: Vec::new(),
            phases: None,
        });
        let steps = read_steps(trace.folder()).expect("the steps");
        assert_eq!(steps.len(), 1);
        let later = root.path().join("later");
        std::fs::create_dir(&later).expect("a folder");
        std::fs::write(
            later.join(TRACE_FILE),
            "{\"trace\": 99, \"tabwright\": \"9.0.0\"}\n",
        )
        .expect("a file");
        let refused = read_steps(&later).expect_err("a later format");
        assert!(refused.to_string().contains("format 99"), "{refused}");
    }

    /// A step keeps a bounded copy of its arguments, however large.
    #[test]
    fn arguments_are_kept_bounded() {
        let huge = serde_json::json!({
            "text": "x".repeat(5_000_000),
            "list": (0..10_000).collect::<Vec<u32>>(),
        });
        let kept = bounded(&huge, 0).to_string();
        assert!(kept.len() < 10_000, "{} bytes kept", kept.len());
        let mut deep = serde_json::json!("bottom");
        for _ in 0..200 {
            deep = serde_json::json!([deep]);
        }
        assert!(bounded(&deep, 0).to_string().len() < 100);
    }

    /// A step whose fields a page or a hand wrote to attack the reader.
    fn hostile_step(picture: &str) -> Step {
        Step {
            step: 1,
            at_ms: 0,
            tool: "open\u{1b}[2J".to_owned(),
            arguments: serde_json::json!({ "url": "https://example.com/" }),
            answer: "<script>alert(1)</script>\u{1b}]0;owned\u{7}".to_owned(),
            is_error: false,
            ms: 5,
            picture: Some(picture.to_owned()),
            refused: Vec::new(),
            console: Vec::new(),
            phases: None,
        }
    }

    /// The page of a trace makes no request and runs nothing: a picture
    /// that is not a file of the folder's own is left out, whatever its
    /// form; the policy allows nothing else; no control byte is written.
    #[test]
    fn a_trace_page_is_inert() {
        let root = tempfile::tempdir().expect("a folder");
        let trace = Trace::create(root.path()).expect("a trace");
        let own = trace.picture(1, b"jpeg bytes").expect("a picture");
        for picture in [
            "https://evil.example/x.png",
            "//evil.example/x.png",
            "javascript:alert(1)",
            "data:image/png;base64,AAAA",
            "../outside.png",
            "link.png",
            ".hidden.png",
            own.as_str(),
        ] {
            trace.write(&hostile_step(picture));
        }
        std::os::unix::fs::symlink("/etc/hostname", trace.folder().join("link.png"))
            .expect("a link");
        let html = page(trace.folder()).expect("the page");
        assert!(html.contains("Content-Security-Policy"), "{html}");
        assert!(html.contains("default-src 'none'"), "{html}");
        for absent in [
            "evil",
            "javascript:",
            "data:image",
            "outside",
            "link.png",
            ".hidden",
            "<script>",
            "\u{1b}",
            "\u{7}",
        ] {
            assert!(!html.contains(absent), "{absent:?} in the page:\n{html}");
        }
        assert!(html.contains(&format!("src=\"{own}\"")), "{html}");
    }

    /// `tabwright trace` follows no link and waits on no pipe: a link
    /// planted as `index.html` is replaced, not written through; a trace
    /// file that is a pipe, a device or a link is refused at once; a
    /// header's control bytes never reach a terminal.
    #[test]
    fn a_trace_folder_is_read_and_written_without_following() {
        let root = tempfile::tempdir().expect("a folder");
        let trace = Trace::create(root.path()).expect("a trace");
        trace.write(&hostile_step("none.png"));
        let target = root.path().join("precious.txt");
        std::fs::write(&target, "keep me").expect("a file");
        std::os::unix::fs::symlink(&target, trace.folder().join("index.html")).expect("a link");
        let written = write_page(trace.folder()).expect("the page");
        assert_eq!(std::fs::read_to_string(&target).expect("kept"), "keep me");
        assert!(std::fs::symlink_metadata(&written)
            .expect("the page")
            .file_type()
            .is_file());
        for (name, make) in [
            ("fifo", "mkfifo"),
            ("zero", "link to /dev/zero"),
            ("linked", "link to a trace"),
        ] {
            let folder = root.path().join(name);
            std::fs::create_dir(&folder).expect("a folder");
            let file = folder.join(TRACE_FILE);
            match make {
                "mkfifo" => {
                    let made = std::process::Command::new("mkfifo")
                        .arg(&file)
                        .status()
                        .expect("mkfifo runs");
                    assert!(made.success());
                }
                "link to /dev/zero" => {
                    std::os::unix::fs::symlink("/dev/zero", &file).expect("a link")
                }
                _ => std::os::unix::fs::symlink(trace.folder().join(TRACE_FILE), &file)
                    .expect("a link"),
            }
            let refused = read_steps(&folder).expect_err(make);
            assert!(!refused.to_string().is_empty(), "{make}");
        }
        let later = root.path().join("later");
        std::fs::create_dir(&later).expect("a folder");
        std::fs::write(
            later.join(TRACE_FILE),
            "{\"trace\": 99, \"tabwright\": \"9\\u001b[31m\"}\n",
        )
        .expect("a file");
        let refused = read_steps(&later).expect_err("a later format").to_string();
        assert!(!refused.contains('\u{1b}'), "{refused:?}");
    }

    /// A secret in every string of a step, in each form the guard may see
    /// it in, is in no file of the trace once the step is scrubbed.
    #[test]
    fn every_field_of_a_step_is_scrubbed() {
        let secret = "hunter2 & sesame";
        let forms = [
            secret.to_owned(),
            "hunter2%20%26%20sesame".to_owned(),
            "hunter2+%26+sesame".to_owned(),
        ];
        let secrets = crate::secrets::Secrets::new(&[crate::options::Secret {
            name: "PASSWORD".to_owned(),
            value: secret.to_owned(),
        }]);
        let all = |prefix: &str| -> Vec<String> {
            forms
                .iter()
                .map(|form| format!("{prefix} {form}"))
                .collect()
        };
        let mut step = Step {
            step: 1,
            at_ms: 0,
            tool: format!("open {secret}"),
            arguments: serde_json::json!({
                "url": format!("https://example.com/?p={}", forms[1]),
                secret: [{ "deep": forms[2] }, forms[0]],
            }),
            answer: all("answer").join("\n"),
            is_error: false,
            ms: 5,
            picture: Some(format!("{secret}.jpg")),
            refused: all("http://evil.example/?q="),
            console: all("log"),
            phases: None,
        };
        step.scrub_with(&|text| secrets.scrub(text));
        let root = tempfile::tempdir().expect("a folder");
        let trace = Trace::create(root.path()).expect("a trace");
        trace.write(&step);
        let written = std::fs::read_to_string(trace.folder().join(TRACE_FILE)).expect("the file");
        for form in &forms {
            assert!(!written.contains(form.as_str()), "{form} in {written}");
        }
        assert!(!written.contains("hunter2"), "{written}");
        let read = read_steps(trace.folder()).expect("the steps");
        assert_eq!(read[0].refused.len(), 3);
    }
}
