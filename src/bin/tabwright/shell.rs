//! `tabwright shell`: the tools for a person at a prompt, with line editing
//! and history (rustyline). Each line is one tool call, written the short
//! way (`click 3`, `type 7 hello`) or as JSON (`click {"x": 10, "y": 20}`).

use std::path::PathBuf;

use rustyline::error::ReadlineError;
use serde_json::{json, Value};
use tools::Pack;

const HELP: &str = "\
Commands (one tool call per line; `TOOL {json}` also works, and a tool alone takes no arguments):
  open URL [new]            snapshot [full] [scope N]     console
  click N | click X Y       type N TEXT | type TEXT        press KEYS (Enter, Control+a …)
  select N OPTION…          hover N | hover X Y            scroll up|down|left|right [PX] | scroll N
  back | forward            tabs [switch N | close [N] | new [URL]]
  screenshot [numbers] [jpeg] [full] [FILE]               wait TEXT | wait gone TEXT | wait SECONDS
  dialog accept [TEXT] | dialog dismiss                  close | help | quit";

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

/// Reads one line of the shell's language.
pub fn parse(line: &str) -> Result<Line, String> {
    let line = line.trim();
    let (tool, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let rest = rest.trim();
    let words: Vec<&str> = rest.split_whitespace().collect();
    let call = |tool: &str, arguments: Value| {
        Ok(Line::Call {
            tool: tool.to_owned(),
            arguments,
            save_to: None,
        })
    };
    if rest.starts_with('{') {
        let arguments = serde_json::from_str(rest).map_err(|error| format!("bad JSON: {error}"))?;
        return call(tool, arguments);
    }
    let number = |word: &str| word.parse::<u32>().ok();
    let float = |word: &str| word.parse::<f64>().ok();
    match (tool, words.as_slice()) {
        ("", _) => Ok(Line::Nothing),
        ("help" | "?", _) => Ok(Line::Help),
        ("quit" | "exit", _) => Ok(Line::Quit),
        ("open", [url]) => call("open", json!({ "url": url })),
        ("open", [url, "new"]) => call("open", json!({ "url": url, "new_tab": true })),
        ("snapshot", []) => call("snapshot", json!({})),
        ("snapshot", ["full"]) => call("snapshot", json!({ "full_page": true })),
        ("snapshot", ["scope", n]) if number(n).is_some() => {
            call("snapshot", json!({ "scope": number(n) }))
        }
        ("click" | "hover", [n]) if number(n).is_some() => {
            call(tool, json!({ "element": number(n) }))
        }
        ("click" | "hover", [x, y]) if float(x).is_some() && float(y).is_some() => {
            call(tool, json!({ "x": float(x), "y": float(y) }))
        }
        ("type", [n, ..]) if number(n).is_some() && words.len() > 1 => {
            let text = rest[n.len()..].trim_start();
            call("type", json!({ "element": number(n), "text": text }))
        }
        ("type", [_, ..]) => call("type", json!({ "text": rest })),
        ("press", [_, ..]) => call("press", json!({ "keys": rest })),
        ("select", [n, options @ ..]) if number(n).is_some() && !options.is_empty() => call(
            "select",
            json!({ "element": number(n), "options": options }),
        ),
        ("scroll", [n]) if number(n).is_some() => call("scroll", json!({ "element": number(n) })),
        ("scroll", [direction]) => call("scroll", json!({ "direction": direction })),
        ("scroll", [direction, px]) if float(px).is_some() => call(
            "scroll",
            json!({ "direction": direction, "pixels": float(px) }),
        ),
        // Any tool that needs none, without arguments (`back`, `cookies`,
        // `requests`); those with a short form above need theirs.
        (name, [])
            if name.chars().all(|c| c.is_ascii_lowercase() || c == '_')
                && !matches!(
                    name,
                    "open"
                        | "click"
                        | "hover"
                        | "type"
                        | "press"
                        | "select"
                        | "scroll"
                        | "wait"
                        | "dialog"
                ) =>
        {
            call(tool, json!({}))
        }
        ("tabs", []) => call("tabs", json!({})),
        ("tabs", ["switch", n]) if number(n).is_some() => {
            call("tabs", json!({ "action": "switch", "tab": number(n) }))
        }
        ("tabs", ["close"]) => call("tabs", json!({ "action": "close" })),
        ("tabs", ["close", n]) if number(n).is_some() => {
            call("tabs", json!({ "action": "close", "tab": number(n) }))
        }
        ("tabs", ["new"]) => call("tabs", json!({ "action": "new" })),
        ("tabs", ["new", url]) => call("tabs", json!({ "action": "new", "url": url })),
        ("screenshot", _) => {
            let mut arguments = json!({});
            let mut save_to = None;
            for word in &words {
                match *word {
                    "numbers" => arguments["numbers"] = json!(true),
                    "jpeg" | "png" => arguments["format"] = json!(word),
                    "full" => arguments["full_page"] = json!(true),
                    file => save_to = Some(PathBuf::from(file)),
                }
            }
            Ok(Line::Call {
                tool: "screenshot".to_owned(),
                arguments,
                save_to,
            })
        }
        ("wait", [seconds]) if float(seconds).is_some() => {
            call("wait_for", json!({ "seconds": float(seconds) }))
        }
        ("wait", ["gone", ..]) => call("wait_for", json!({ "gone": rest["gone".len()..].trim() })),
        ("wait", [_, ..]) => call("wait_for", json!({ "text": rest })),
        ("dialog", ["accept"]) => call("dialog", json!({ "accept": true })),
        ("dialog", ["accept", ..]) => call(
            "dialog",
            json!({ "accept": true, "text": rest["accept".len()..].trim() }),
        ),
        ("dialog", ["dismiss"]) => call("dialog", json!({ "accept": false })),
        _ => Err(format!("cannot read {line:?}; type help for the commands")),
    }
}

/// Runs the prompt until `quit` or end of input.
pub async fn run(pack: &Pack) -> Result<(), String> {
    let (lines_tx, mut lines) = tokio::sync::mpsc::channel::<String>(1);
    let (ready_tx, ready) = std::sync::mpsc::channel::<()>();
    // rustyline blocks; it reads on its own thread, one line per answer.
    let reader = std::thread::spawn(move || -> Result<(), String> {
        let mut editor = rustyline::DefaultEditor::new().map_err(|error| error.to_string())?;
        loop {
            match editor.readline("tabwright> ") {
                Ok(line) => {
                    let _ = editor.add_history_entry(line.as_str());
                    if lines_tx.blocking_send(line).is_err() || ready.recv().is_err() {
                        return Ok(());
                    }
                }
                Err(ReadlineError::Interrupted | ReadlineError::Eof) => return Ok(()),
                Err(error) => return Err(error.to_string()),
            }
        }
    });
    println!("tabwright shell: type help for the commands, quit to leave.");
    let mut shots = 0;
    while let Some(line) = lines.recv().await {
        match parse(&line) {
            Ok(Line::Quit) => break,
            Ok(Line::Nothing) => {}
            Ok(Line::Help) => println!("{HELP}"),
            Ok(Line::Call {
                tool,
                arguments,
                save_to,
            }) => {
                let output = pack.call(&tool, arguments).await;
                println!("{}", output.text);
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

    fn call(line: &str) -> (String, Value) {
        match parse(line) {
            Ok(Line::Call {
                tool, arguments, ..
            }) => (tool, arguments),
            other => panic!("{line:?} gave {other:?}"),
        }
    }

    #[test]
    fn short_forms_become_tool_calls() {
        assert_eq!(
            call("open https://example.com/"),
            ("open".into(), json!({"url": "https://example.com/"}))
        );
        assert_eq!(call("click 3"), ("click".into(), json!({"element": 3})));
        assert_eq!(
            call("click 10 20.5"),
            ("click".into(), json!({"x": 10.0, "y": 20.5}))
        );
        assert_eq!(
            call("type 7 hello  world"),
            ("type".into(), json!({"element": 7, "text": "hello  world"}))
        );
        assert_eq!(
            call("type hello"),
            ("type".into(), json!({"text": "hello"}))
        );
        assert_eq!(
            call("press Control+a Delete"),
            ("press".into(), json!({"keys": "Control+a Delete"}))
        );
        assert_eq!(
            call("select 4 Red Blue"),
            (
                "select".into(),
                json!({"element": 4, "options": ["Red", "Blue"]})
            )
        );
        assert_eq!(
            call("scroll down"),
            ("scroll".into(), json!({"direction": "down"}))
        );
        assert_eq!(call("scroll 12"), ("scroll".into(), json!({"element": 12})));
        assert_eq!(
            call("tabs switch 2"),
            ("tabs".into(), json!({"action": "switch", "tab": 2}))
        );
        assert_eq!(
            call("wait gone Loading…"),
            ("wait_for".into(), json!({"gone": "Loading…"}))
        );
        assert_eq!(
            call("wait 1.5"),
            ("wait_for".into(), json!({"seconds": 1.5}))
        );
        assert_eq!(
            call("dialog accept Ada"),
            ("dialog".into(), json!({"accept": true, "text": "Ada"}))
        );
        assert_eq!(
            call(r#"click {"x": 1, "y": 2}"#),
            ("click".into(), json!({"x": 1, "y": 2}))
        );
    }

    #[test]
    fn screenshots_name_their_file() {
        match parse("screenshot numbers jpeg shot.jpg") {
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
    }

    #[test]
    fn nonsense_is_answered_not_fatal() {
        assert_eq!(parse(""), Ok(Line::Nothing));
        assert_eq!(parse("quit"), Ok(Line::Quit));
        assert!(parse("click").is_err());
        assert!(parse("open {not json").is_err());
    }
}
