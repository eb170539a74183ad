//! `tabwright shell`: the tools for a person at a prompt, with line editing
//! and history (rustyline). Each line is one tool call, written the short
//! way (`click 3`, `type 7 hello`) or as JSON (`click {"x": 10, "y": 20}`).

use std::future::Future;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use rustyline::error::ReadlineError;
#[cfg(test)]
use serde_json::json;
use serde_json::Value;
use tools::Pack;

/// What a line asks for.
#[derive(Debug, PartialEq)]
pub enum Line {
    /// A tool call; a screenshot's picture goes to the file, if one is named.
    Call {
        tool: String,
        arguments: Value,
        save_to: Option<PathBuf>,
    },
    Help,
    Quit,
    Nothing,
}

/// Reads one line of the shell's language: the short forms of the pack's
/// tools (from its tool table), `TOOL {json}`, and the shell's own words.
pub fn parse(pack: &Pack, line: &str) -> Result<Line, String> {
    let line = line.trim();
    match line {
        "" => return Ok(Line::Nothing),
        "help" | "?" => return Ok(Line::Help),
        "quit" | "exit" => return Ok(Line::Quit),
        _ => {}
    }
    match pack.read_short(line)? {
        Some(call) => Ok(Line::Call {
            tool: call.tool.to_owned(),
            arguments: call.arguments,
            save_to: call.file.map(PathBuf::from),
        }),
        None => {
            let word = line.split_whitespace().next().unwrap_or_default();
            Err(format!(
                "there is no command {word:?}; type help for the commands"
            ))
        }
    }
}

/// The help text: every tool of the pack, written short.
fn help(pack: &Pack) -> String {
    format!(
        "Commands (one tool call per line; `TOOL {{json}}` also works):\n{}\n  help | quit",
        pack.short_help()
    )
}

/// How long a call runs before the shell says it is still waiting, and
/// how often it says so again.
const FIRST_WORD: Duration = Duration::from_secs(1);
const NEXT_WORD: Duration = Duration::from_secs(5);

/// Runs `call`, saying on stderr after a second (and every few seconds
/// after) that `tool` is still under way, so a person at a terminal does
/// not take a slow page for a hung one.
pub async fn with_progress<T>(tool: &str, call: impl Future<Output = T>) -> T {
    let started = Instant::now();
    tokio::pin!(call);
    let mut wait = FIRST_WORD;
    loop {
        tokio::select! {
            done = &mut call => return done,
            () = tokio::time::sleep(wait) => {
                eprintln!(
                    "tabwright: {tool} still under way ({} s; Ctrl-C stops it)",
                    started.elapsed().as_secs()
                );
                wait = NEXT_WORD;
            }
        }
    }
}

/// For the person at the terminal (not the model): a refused local page
/// can be allowed with `--allow-origin`.
pub fn hint_for_person(tool: &str, arguments: &Value, output: &tools::ToolOutput) {
    // A site on the block-list is refused on purpose: no hint.
    if tool != "open"
        || !output.is_error
        || !output.text.starts_with("Refused to open")
        || output.text.contains("(block-list entry")
    {
        return;
    }
    let origin = arguments["url"]
        .as_str()
        .and_then(|url| url::Url::parse(url).ok())
        .map(|url| url.origin().ascii_serialization())
        .filter(|origin| origin != "null");
    if let Some(origin) = origin {
        eprintln!(
            "tabwright: to let the browser open pages of {origin} (a local or private address), start it with --allow-origin {origin}"
        );
    }
}

/// Ctrl-C presses during calls, counted (at the prompt the line editor
/// reads them as keys).
fn interrupts() -> tokio::sync::watch::Receiver<u64> {
    let (count, presses) = tokio::sync::watch::channel(0u64);
    tokio::spawn(async move {
        use tokio::signal::unix::{signal, SignalKind};
        let Ok(mut interrupt) = signal(SignalKind::interrupt()) else {
            return;
        };
        while interrupt.recv().await.is_some() {
            count.send_modify(|count| *count += 1);
        }
    });
    presses
}

/// Runs the prompt until `quit`, end of input, or Ctrl-C twice: once
/// stops the call under way (or clears the line), twice quits.
pub async fn run(pack: &Pack) -> Result<(), String> {
    use std::sync::atomic::{AtomicBool, Ordering};
    let presses = interrupts();
    let (lines_tx, mut lines) = tokio::sync::mpsc::channel::<String>(1);
    let (ready_tx, ready) = std::sync::mpsc::channel::<()>();
    // Set when Ctrl-C stopped the last call: "Ctrl-C again to quit" was
    // said, so the next press quits, even if the call ended in between.
    let stopped = std::sync::Arc::new(AtomicBool::new(false));
    let stopped_seen = stopped.clone();
    // rustyline blocks; it reads on its own thread, one line per answer.
    let reader = std::thread::spawn(move || -> Result<(), String> {
        let mut editor = rustyline::DefaultEditor::new().map_err(|error| error.to_string())?;
        let mut interrupted = false;
        loop {
            match editor.readline("tabwright> ") {
                Ok(line) => {
                    interrupted = false;
                    let _ = editor.add_history_entry(line.as_str());
                    if lines_tx.blocking_send(line).is_err() || ready.recv().is_err() {
                        return Ok(());
                    }
                }
                Err(ReadlineError::Interrupted)
                    if !interrupted && !stopped_seen.load(Ordering::Acquire) =>
                {
                    interrupted = true;
                    println!("(Ctrl-C again, or quit, to leave)");
                    continue;
                }
                Err(ReadlineError::Interrupted | ReadlineError::Eof) => return Ok(()),
                Err(error) => return Err(error.to_string()),
            }
        }
    });
    println!("tabwright shell: type help for the commands, quit to leave.");
    let mut shots = 0;
    let mut first = true;
    // (A terminal's Ctrl-C at the prompt is a key the line editor reads; a
    // pipe's is a signal, counted here.)
    let piped = !std::io::IsTerminal::is_terminal(&std::io::stdin());
    // The count of presses when Ctrl-C last stopped a call.
    let mut stopped_at: Option<u64> = None;
    loop {
        let mut again = presses.clone();
        let line = tokio::select! {
            line = lines.recv() => line,
            _ = again.wait_for(|count| stopped_at.is_some_and(|at| *count > at)), if piped && stopped_at.is_some() => {
                // (The reader is waiting for a line that will not come.)
                return Ok(());
            }
        };
        let Some(line) = line else { break };
        stopped_at = None;
        stopped.store(false, Ordering::Release);
        match parse(pack, &line) {
            Ok(Line::Quit) => break,
            Ok(Line::Nothing) => {}
            Ok(Line::Help) => println!("{}", help(pack)),
            Ok(Line::Call {
                tool,
                arguments,
                save_to,
            }) => {
                if std::mem::take(&mut first) {
                    eprintln!("tabwright: starting the browser…");
                }
                let before = *presses.borrow();
                let mut once = presses.clone();
                let mut twice = presses.clone();
                let call = pack.call_until(&tool, arguments.clone(), async move {
                    let _ = once.wait_for(|count| *count > before).await;
                    eprintln!("tabwright: stopping the call (Ctrl-C again to quit)");
                });
                let output = tokio::select! {
                    output = with_progress(&tool, call) => output,
                    _ = twice.wait_for(|count| *count > before + 1) => break,
                };
                if *presses.borrow() > before {
                    stopped_at = Some(before + 1);
                    stopped.store(true, Ordering::Release);
                }
                println!("{}", output.text);
                hint_for_person(&tool, &arguments, &output);
                for image in &output.images {
                    shots += 1;
                    let extension = image.mime_type.trim_start_matches("image/");
                    let path = save_to.clone().unwrap_or_else(|| {
                        PathBuf::from(format!("tabwright-shot-{shots}.{extension}"))
                    });
                    match std::fs::write(&path, &image.data) {
                        Ok(()) => println!("(picture saved to {})", path.display()),
                        Err(error) => println!(
                            "(could not save the picture to {}: {error})",
                            path.display()
                        ),
                    }
                }
            }
            Err(problem) => println!("{problem}"),
        }
        if ready_tx.send(()).is_err() {
            break;
        }
    }
    drop(ready_tx);
    drop(lines);
    match reader.join() {
        Ok(result) => result,
        Err(_) => Err("the line reader stopped".to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pack() -> Pack {
        let browser = tabwright::browser(
            tabwright::Backend::Cdp,
            tabwright::Options::default(),
            tabwright::Policy::default(),
        );
        Pack::new(browser, tools::PackOptions::default())
    }

    #[test]
    fn lines_are_read_with_the_packs_short_forms() {
        let pack = pack();
        assert_eq!(
            parse(&pack, "click 3"),
            Ok(Line::Call {
                tool: "click".into(),
                arguments: json!({"element": 3}),
                save_to: None
            })
        );
        match parse(&pack, "screenshot numbers jpeg shot.jpg") {
            Ok(Line::Call {
                tool,
                arguments,
                save_to,
            }) => {
                assert_eq!(tool, "screenshot");
                assert_eq!(arguments, json!({"numbers": true, "format": "jpeg"}));
                assert_eq!(save_to, Some(PathBuf::from("shot.jpg")));
            }
            other => panic!("{other:?}"),
        }
        assert!(help(&pack).contains("find WORDS"), "{}", help(&pack));
    }

    #[test]
    fn nonsense_is_answered_not_fatal() {
        let pack = pack();
        assert_eq!(parse(&pack, ""), Ok(Line::Nothing));
        assert_eq!(parse(&pack, "quit"), Ok(Line::Quit));
        assert!(parse(&pack, "click").is_err());
        assert!(parse(&pack, "open {not json").is_err());
        assert!(parse(&pack, "frobnicate 3").is_err());
    }
}
