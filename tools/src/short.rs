//! Short forms of tool calls, for a person at `tabwright shell`: `click 3`,
//! `type 7 hello`, `wait gone Loading`. Each tool's form is part of its
//! entry in the tool table; [`read`] reads a line with the forms of the
//! tools a pack offers, and [`help`] lists them.

use serde_json::{json, Value};

use crate::tool::{Form, Read, Tool};

/// A tool call read from a short form.
#[derive(Debug, Clone, PartialEq)]
pub struct ShortCall {
    /// The tool.
    pub tool: &'static str,
    /// Its arguments.
    pub arguments: Value,
    /// Where to save a picture the call answers with, if the line named a
    /// file (`screenshot shot.png`).
    pub file: Option<String>,
}

fn number(word: &str) -> Option<u32> {
    word.parse().ok()
}

fn float(word: &str) -> Option<f64> {
    word.parse::<f64>().ok().filter(|value| value.is_finite())
}

fn plain(arguments: Value) -> Option<Read> {
    Some((arguments, None))
}

/// Reads `line` with the short forms of `tools`. `Ok(None)`: the line
/// names no tool (help, quit and the like are the shell's own).
pub(crate) fn read(tools: &[&'static Tool], line: &str) -> Result<Option<ShortCall>, String> {
    let line = line.trim();
    let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let rest = rest.trim();
    let named =
        |tool: &&&Tool| tool.short.map_or(tool.name, |form| form.word) == word || tool.name == word;
    let Some(tool) = tools.iter().find(named) else {
        return Ok(None);
    };
    let call = |arguments, file| {
        Ok(Some(ShortCall {
            tool: tool.name,
            arguments,
            file,
        }))
    };
    if rest.starts_with('{') {
        let arguments = serde_json::from_str(rest).map_err(|error| format!("bad JSON: {error}"))?;
        return call(arguments, None);
    }
    let words: Vec<&str> = rest.split_whitespace().collect();
    if let Some(form) = tool.short {
        if let Some((arguments, file)) = (form.read)(&words, rest) {
            return call(arguments, file);
        }
        return Err(format!("write it as: {} {}", form.word, form.usage));
    }
    if words.is_empty() {
        return call(json!({}), None);
    }
    Err(format!(
        "{} has no short form: write {} {{JSON arguments}}",
        tool.name, tool.name
    ))
}

/// One line per tool of `tools`: how to write it.
pub(crate) fn help(tools: &[&'static Tool]) -> String {
    let mut lines = Vec::new();
    for tool in tools {
        match tool.short {
            Some(form) => lines.push(format!("  {} {}", form.word, form.usage)),
            None => lines.push(format!("  {}", tool.name)),
        }
    }
    lines.join("\n")
}

pub(crate) const OPEN: Form = Form {
    word: "open",
    usage: "URL [new]",
    read: |words, _| match words {
        [url] => plain(json!({ "url": url })),
        [url, "new"] => plain(json!({ "url": url, "new_tab": true })),
        _ => None,
    },
};

pub(crate) const SNAPSHOT: Form = Form {
    word: "snapshot",
    usage: "[full] [scope N] [part N]",
    read: |words, _| flag_and_numbers(words, ("full", "full_page"), &["scope", "part"]),
};

pub(crate) const READ: Form = Form {
    word: "read",
    usage: "[all] [element N] [part N]",
    read: |words, _| flag_and_numbers(words, ("all", "whole_page"), &["element", "part"]),
};

/// Reads words such as `full scope 3 part 2`, in any order: the word of
/// `flag` sets its argument true, and each word of `numbered` takes the
/// number after it as the argument of that name.
fn flag_and_numbers(words: &[&str], flag: (&str, &str), numbered: &[&str]) -> Option<Read> {
    let (flag_word, flag_argument) = flag;
    let mut arguments = json!({});
    let mut rest = words;
    while let Some((first, after)) = rest.split_first() {
        match after {
            _ if *first == flag_word => {
                arguments[flag_argument] = json!(true);
                rest = after;
            }
            [n, more @ ..] if numbered.contains(first) => {
                arguments[*first] = json!(number(n)?);
                rest = more;
            }
            _ => return None,
        }
    }
    plain(arguments)
}

pub(crate) const FIND: Form = Form {
    word: "find",
    usage: "WORDS [role ROLE] | role ROLE",
    read: |words, rest| match words {
        [] => None,
        ["role", role] => plain(json!({ "role": role })),
        [.., "role", role] => {
            let text = rest[..rest.rfind("role").unwrap_or(rest.len())].trim();
            plain(json!({ "text": text, "role": role }))
        }
        _ => plain(json!({ "text": rest })),
    },
};

pub(crate) const CLICK: Form = Form {
    word: "click",
    usage: "N | X Y",
    read: |words, _| element_or_point(words),
};

pub(crate) const HOVER: Form = Form {
    word: "hover",
    usage: "N | X Y",
    read: |words, _| element_or_point(words),
};

/// `click` in vision mode.
pub(crate) const CLICK_AT: Form = Form {
    word: "click",
    usage: "X Y",
    read: |words, _| point(words),
};

/// `hover` in vision mode.
pub(crate) const HOVER_AT: Form = Form {
    word: "hover",
    usage: "X Y",
    read: |words, _| point(words),
};

fn point(words: &[&str]) -> Option<Read> {
    match words {
        [x, y] => plain(json!({ "x": float(x)?, "y": float(y)? })),
        _ => None,
    }
}

fn element_or_point(words: &[&str]) -> Option<Read> {
    match words {
        [n] => plain(json!({ "element": number(n)? })),
        [x, y] => plain(json!({ "x": float(x)?, "y": float(y)? })),
        _ => None,
    }
}

pub(crate) const TYPE: Form = Form {
    word: "type",
    usage: "N TEXT | TEXT",
    read: |words, rest| match words {
        [] => None,
        [n, _, ..] if number(n).is_some() => {
            let text = rest[n.len()..].trim_start();
            plain(json!({ "element": number(n)?, "text": text }))
        }
        _ => plain(json!({ "text": rest })),
    },
};

/// `type` in vision mode.
pub(crate) const TYPE_HERE: Form = Form {
    word: "type",
    usage: "TEXT",
    read: |words, rest| (!words.is_empty()).then(|| (json!({ "text": rest }), None)),
};

pub(crate) const PRESS: Form = Form {
    word: "press",
    usage: "KEYS (Enter, Tab, Control+a …)",
    read: |words, rest| (!words.is_empty()).then(|| (json!({ "keys": rest }), None)),
};

pub(crate) const SELECT: Form = Form {
    word: "select",
    usage: "N OPTION…",
    read: |words, _| match words {
        [n, options @ ..] if !options.is_empty() => {
            plain(json!({ "element": number(n)?, "options": options }))
        }
        _ => None,
    },
};

pub(crate) const SCROLL: Form = Form {
    word: "scroll",
    usage: "up|down|left|right [PX] | N",
    read: |words, _| match words {
        [n] if number(n).is_some() => plain(json!({ "element": number(n)? })),
        [direction] => plain(json!({ "direction": direction })),
        [direction, px] => plain(json!({ "direction": direction, "pixels": float(px)? })),
        _ => None,
    },
};

/// `scroll` in vision mode.
pub(crate) const SCROLL_AT: Form = Form {
    word: "scroll",
    usage: "up|down|left|right [PX]",
    read: |words, _| match words {
        [direction] => plain(json!({ "direction": direction })),
        [direction, px] => plain(json!({ "direction": direction, "pixels": float(px)? })),
        _ => None,
    },
};

pub(crate) const TABS: Form = Form {
    word: "tabs",
    usage: "[switch N | close [N] | new [URL]]",
    read: |words, _| match words {
        [] => plain(json!({})),
        ["switch", n] => plain(json!({ "action": "switch", "tab": number(n)? })),
        ["close"] => plain(json!({ "action": "close" })),
        ["close", n] => plain(json!({ "action": "close", "tab": number(n)? })),
        ["new"] => plain(json!({ "action": "new" })),
        ["new", url] => plain(json!({ "action": "new", "url": url })),
        _ => None,
    },
};

pub(crate) const SCREENSHOT: Form = Form {
    word: "screenshot",
    usage: "[numbers] [jpeg] [full] [N] [FILE]",
    read: |words, _| {
        let mut arguments = json!({});
        let mut file = None;
        for word in words {
            match *word {
                "numbers" => arguments["numbers"] = json!(true),
                "jpeg" | "png" => arguments["format"] = json!(word),
                "full" => arguments["full_page"] = json!(true),
                n if number(n).is_some() => arguments["element"] = json!(number(n)?),
                other => file = Some(other.to_owned()),
            }
        }
        Some((arguments, file))
    },
};

pub(crate) const WAIT: Form = Form {
    word: "wait",
    usage: "TEXT | gone TEXT | SECONDS",
    read: |words, rest| match words {
        [] => None,
        [seconds] if float(seconds).is_some() => plain(json!({ "seconds": float(seconds)? })),
        ["gone", _, ..] => plain(json!({ "gone": rest["gone".len()..].trim() })),
        _ => plain(json!({ "text": rest })),
    },
};

pub(crate) const DIALOG: Form = Form {
    word: "dialog",
    usage: "accept [TEXT] | dismiss",
    read: |words, rest| match words {
        ["accept"] => plain(json!({ "accept": true })),
        ["accept", ..] => plain(json!({ "accept": true, "text": rest["accept".len()..].trim() })),
        ["dismiss"] => plain(json!({ "accept": false })),
        _ => None,
    },
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::{Group, PackOptions};
    use crate::table::offered;

    fn call(line: &str) -> (String, Value) {
        let tools = offered(&PackOptions {
            groups: Group::ALL.to_vec(),
            ..PackOptions::default()
        });
        match read(&tools, line) {
            Ok(Some(call)) => (call.tool.to_owned(), call.arguments),
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
        assert_eq!(
            call("find checkout"),
            ("find".into(), json!({"text": "checkout"}))
        );
        assert_eq!(
            call("find pay now role button"),
            ("find".into(), json!({"text": "pay now", "role": "button"}))
        );
        assert_eq!(call("cookies"), ("cookies".into(), json!({})));
        assert_eq!(
            call("snapshot full part 2"),
            ("snapshot".into(), json!({"full_page": true, "part": 2}))
        );
        assert_eq!(
            call("read element 4 all"),
            ("read".into(), json!({"element": 4, "whole_page": true}))
        );
    }

    #[test]
    fn screenshots_name_their_file() {
        let tools = offered(&PackOptions::default());
        let read = read(&tools, "screenshot numbers jpeg shot.jpg");
        let Ok(Some(call)) = read else {
            panic!("{read:?}");
        };
        assert_eq!(call.tool, "screenshot");
        assert_eq!(call.arguments, json!({"numbers": true, "format": "jpeg"}));
        assert_eq!(call.file.as_deref(), Some("shot.jpg"));
    }

    #[test]
    fn a_tool_missing_its_words_says_how_to_write_it() {
        let tools = offered(&PackOptions::default());
        let refused = read(&tools, "click");
        assert!(
            matches!(&refused, Err(text) if text.contains("click N | X Y")),
            "{refused:?}"
        );
        assert!(read(&tools, "open {not json").is_err());
        assert_eq!(read(&tools, "hello"), Ok(None));
        assert!(help(&tools).contains("find WORDS"), "{}", help(&tools));
    }
}
