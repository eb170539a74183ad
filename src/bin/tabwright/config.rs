//! Settings from a file and from the environment, for every flag:
//! `--config FILE` (TOML; JSON if the name ends in `.json`; or
//! `TABWRIGHT_CONFIG`) whose keys are the flags' long names, and
//! `TABWRIGHT_<FLAG>` variables (`TABWRIGHT_TIMEOUT=20`,
//! `TABWRIGHT_ALLOW_ORIGIN=http://127.0.0.1:8080`). The command line wins,
//! then the environment, then the file; each becomes the flag it names,
//! so it is checked as the flag is.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::parser::ValueSource;

/// One setting's values, as the flag takes them.
#[derive(Debug, PartialEq)]
enum Setting {
    /// A switch, on or off.
    Switch(bool),
    /// One value or several (a repeatable flag).
    Values(Vec<String>),
}

/// `argv` with what the environment and the config file set, for every
/// flag the command line leaves out, appended as flags.
pub fn with_settings(
    command: &clap::Command,
    argv: Vec<OsString>,
) -> Result<Vec<OsString>, String> {
    with_settings_from(command, argv, |name| std::env::var(name).ok())
}

/// A tool's command with global flags written after its words
/// (`tabwright open URL --allow-origin X`, as people and coding agents
/// write them), with those flags moved before the command's name, where
/// clap reads them. Only flags the top level knows move, each with its
/// value; after a bare `--`, everything is the command's own words. Any
/// other command line is given back as it is.
pub fn hoist_tool_flags(command: &clap::Command, argv: Vec<OsString>) -> Vec<OsString> {
    let Ok(matches) = command.clone().try_get_matches_from(&argv) else {
        return argv;
    };
    let Some((name, given)) = matches.subcommand() else {
        return argv;
    };
    if command.find_subcommand(name).is_some() {
        return argv;
    }
    let words = 1 + given.get_many::<OsString>("").map_or(0, Iterator::count);
    let Some(split) = argv.len().checked_sub(words) else {
        return argv;
    };
    let globals: Vec<&clap::Arg> = command
        .get_arguments()
        .filter(|arg| {
            arg.get_long()
                .is_some_and(|long| !matches!(long, "help" | "version"))
        })
        .collect();
    let mut head: Vec<OsString> = argv[..split].to_vec();
    let mut own: Vec<OsString> = vec![argv[split].clone()];
    let mut rest = argv[split + 1..].iter();
    while let Some(word) = rest.next() {
        let text = word.to_string_lossy();
        if text == "--" {
            own.push(word.clone());
            own.extend(rest.by_ref().cloned());
            break;
        }
        let flag = text
            .strip_prefix("--")
            .map(|flag| flag.split_once('=').map_or(flag, |(name, _)| name));
        let Some(arg) =
            flag.and_then(|flag| globals.iter().find(|arg| arg.get_long() == Some(flag)))
        else {
            own.push(word.clone());
            continue;
        };
        head.push(word.clone());
        if arg.get_action().takes_values() && !text.contains('=') {
            if let Some(value) = rest.next() {
                head.push(value.clone());
            }
        }
    }
    head.extend(own);
    head
}

// (Over 100 lines: every source of settings in order of precedence (flags, environment, file), each checked as a flag.)
fn with_settings_from(
    command: &clap::Command,
    argv: Vec<OsString>,
    env: impl Fn(&str) -> Option<String>,
) -> Result<Vec<OsString>, String> {
    // A command line clap refuses is left for clap to explain.
    let Ok(matches) = command.clone().try_get_matches_from(&argv) else {
        return Ok(argv);
    };
    let Some((name, given)) = matches.subcommand() else {
        return Ok(argv);
    };
    // A tool's command (`tabwright click 3`) is an external subcommand:
    // the global flags are its settings, set before its words.
    let subcommand = command.find_subcommand(name);
    let words = match subcommand {
        Some(_) => 0,
        None => 1 + given.get_many::<OsString>("").map_or(0, Iterator::count),
    };
    let file = match given.get_one::<PathBuf>("config").cloned() {
        Some(path) => Some(path),
        None => env("TABWRIGHT_CONFIG").map(PathBuf::from),
    };
    let table = match &file {
        Some(path) => read(path)?,
        None => Vec::new(),
    };
    // Every key names a flag of some subcommand (a file may serve several).
    let known = |key: &str| {
        let flag = key.replace('_', "-");
        command
            .get_arguments()
            .chain(
                command
                    .get_subcommands()
                    .flat_map(|sub| sub.get_arguments()),
            )
            .any(|arg| arg.get_long() == Some(flag.as_str()))
    };
    if let Some((key, _)) = table.iter().find(|(key, _)| !known(key)) {
        return Err(format!(
            "{}: there is no flag --{key} (the keys are the flags' long names)",
            file.as_deref()
                .map(|path| path.display().to_string())
                .unwrap_or_default()
        ));
    }
    let mut extra: Vec<OsString> = Vec::new();
    for arg in command
        .get_arguments()
        .filter(|arg| arg.is_global_set())
        .chain(subcommand.into_iter().flat_map(|sub| sub.get_arguments()))
    {
        let Some(long) = arg.get_long() else { continue };
        let id = arg.get_id().as_str();
        let on_command_line =
            |source: Option<ValueSource>| source == Some(ValueSource::CommandLine);
        if matches!(long, "help" | "version" | "config")
            || on_command_line(
                given
                    .try_get_raw(id)
                    .ok()
                    .and_then(|_| given.value_source(id)),
            )
            || on_command_line(
                matches
                    .try_get_raw(id)
                    .ok()
                    .and_then(|_| matches.value_source(id)),
            )
        {
            continue;
        }
        let variable = format!("TABWRIGHT_{}", long.replace('-', "_").to_ascii_uppercase());
        let own = arg.get_env().map(|own| own.to_string_lossy().into_owned());
        // A flag with a variable of its own (--token) reads it itself.
        if own.as_deref().and_then(&env).is_some() {
            continue;
        }
        let switch = !arg.get_action().takes_values();
        let setting = match own.is_none().then(|| env(&variable)).flatten() {
            Some(value) if switch => {
                Some(Setting::Switch(truthy(&value).ok_or_else(|| {
                    format!("{variable}={value:?}: expected true or false")
                })?))
            }
            Some(value) => Some(Setting::Values(vec![value])),
            None => table
                .iter()
                .find(|(key, _)| key.replace('_', "-") == long)
                .map(|(_, setting)| setting.clone_for(switch))
                .transpose()
                .map_err(|problem| format!("{long} in the config file: {problem}"))?,
        };
        match setting {
            Some(Setting::Switch(true)) => extra.push(format!("--{long}").into()),
            Some(Setting::Switch(false)) | None => {}
            Some(Setting::Values(values)) => {
                for value in values {
                    extra.push(format!("--{long}").into());
                    extra.push(value.into());
                }
            }
        }
    }
    let at = argv.len().saturating_sub(words);
    let mut argv = argv;
    let tail = argv.split_off(at);
    Ok(argv.into_iter().chain(extra).chain(tail).collect())
}

impl Setting {
    /// The setting as a flag of this kind takes it.
    fn clone_for(&self, switch: bool) -> Result<Setting, String> {
        match (self, switch) {
            (Setting::Switch(on), true) => Ok(Setting::Switch(*on)),
            (Setting::Values(values), true) => match values.as_slice() {
                [one] => truthy(one)
                    .map(Setting::Switch)
                    .ok_or_else(|| format!("{one:?}: expected true or false")),
                _ => Err("expected true or false".to_owned()),
            },
            (Setting::Switch(on), false) => Ok(Setting::Values(vec![on.to_string()])),
            (Setting::Values(values), false) => Ok(Setting::Values(values.clone())),
        }
    }
}

fn truthy(value: &str) -> Option<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Some(true),
        "0" | "false" | "no" | "off" | "" => Some(false),
        _ => None,
    }
}

/// The file's settings, key by key, in its order.
fn read(path: &std::path::Path) -> Result<Vec<(String, Setting)>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| format!("cannot read the config file {}: {error}", path.display()))?;
    let json = path
        .extension()
        .is_some_and(|extension| extension == "json");
    let value: serde_json::Value = if json {
        serde_json::from_str(&text).map_err(|error| format!("{}: {error}", path.display()))?
    } else {
        toml::from_str(&text).map_err(|error| format!("{}: {error}", path.display()))?
    };
    let serde_json::Value::Object(table) = value else {
        return Err(format!("{}: expected a table of settings", path.display()));
    };
    table
        .into_iter()
        .map(|(key, value)| {
            let setting = match value {
                serde_json::Value::Bool(on) => Setting::Switch(on),
                serde_json::Value::Array(items) => Setting::Values(
                    items
                        .into_iter()
                        .map(|item| scalar(&key, item))
                        .collect::<Result<_, _>>()?,
                ),
                other => Setting::Values(vec![scalar(&key, other)?]),
            };
            Ok((key, setting))
        })
        .collect()
}

fn scalar(key: &str, value: serde_json::Value) -> Result<String, String> {
    match value {
        serde_json::Value::String(text) => Ok(text),
        serde_json::Value::Number(number) => Ok(number.to_string()),
        serde_json::Value::Bool(on) => Ok(on.to_string()),
        other => Err(format!("{key}: {other} is not a value a flag takes")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{CommandFactory, Parser};

    fn argv(words: &[&str]) -> Vec<OsString> {
        words.iter().map(OsString::from).collect()
    }

    /// Global flags written after a tool's words are read as if written
    /// before its name; a tool's own words, and what follows `--`, stay.
    #[test]
    fn flags_after_a_tool_command_are_read() {
        let command = crate::Cli::command();
        let hoisted = |words: &[&str]| -> Vec<String> {
            hoist_tool_flags(&command, argv(words))
                .into_iter()
                .map(|word| word.to_string_lossy().into_owned())
                .collect()
        };
        assert_eq!(
            hoisted(&[
                "tabwright",
                "open",
                "http://x/",
                "--allow-origin",
                "http://x",
                "--headed"
            ]),
            [
                "tabwright",
                "--allow-origin",
                "http://x",
                "--headed",
                "open",
                "http://x/"
            ]
        );
        assert_eq!(
            hoisted(&[
                "tabwright",
                "--caps",
                "core",
                "type",
                "3",
                "--caps=core,forms",
                "hi"
            ]),
            [
                "tabwright",
                "--caps",
                "core",
                "--caps=core,forms",
                "type",
                "3",
                "hi"
            ]
        );
        assert_eq!(
            hoisted(&["tabwright", "type", "3", "--", "--headed"]),
            ["tabwright", "type", "3", "--", "--headed"]
        );
        assert_eq!(
            hoisted(&["tabwright", "type", "3", "--not-a-flag", "--help"]),
            ["tabwright", "type", "3", "--not-a-flag", "--help"]
        );
        // A command of tabwright's own is left to clap.
        assert_eq!(
            hoisted(&["tabwright", "mcp", "--http", "127.0.0.1:0"]),
            ["tabwright", "mcp", "--http", "127.0.0.1:0"]
        );
        let cli = crate::Cli::parse_from(hoist_tool_flags(
            &command,
            argv(&[
                "tabwright",
                "open",
                "http://x/",
                "--allow-origin",
                "http://x",
            ]),
        ));
        assert_eq!(cli.browser.allow_origin.len(), 1);
    }

    #[test]
    fn flags_win_then_the_environment_then_the_file() {
        let dir = tempfile::tempdir().expect("a folder");
        let file = dir.path().join("tabwright.toml");
        std::fs::write(
            &file,
            "timeout = 12\nheaded = true\nallow-origin = [\"http://127.0.0.1:1\", \"http://127.0.0.1:2\"]\nviewport = \"800x600\"\nidle_timeout = 9\n",
        )
        .expect("written");
        let command = crate::Cli::command();
        let config = file.to_string_lossy().into_owned();
        let env = |name: &str| (name == "TABWRIGHT_VIEWPORT").then(|| "1024x700".to_owned());
        let out = with_settings_from(
            &command,
            argv(&["tabwright", "--timeout", "5", "--config", &config, "mcp"]),
            env,
        )
        .expect("read");
        let out: Vec<String> = out
            .iter()
            .map(|arg| arg.to_string_lossy().into_owned())
            .collect();
        let tail = out[6..].join(" ");
        assert!(!tail.contains("--timeout"), "the flag wins: {tail}");
        assert!(tail.contains("--viewport 1024x700"), "{tail}");
        assert!(!tail.contains("800x600"), "{tail}");
        assert!(tail.contains("--headed"), "{tail}");
        assert!(
            tail.contains("--allow-origin http://127.0.0.1:1 --allow-origin http://127.0.0.1:2"),
            "{tail}"
        );
        assert!(tail.contains("--idle-timeout 9"), "{tail}");
        let parsed = crate::Cli::try_parse_from(&out).expect("clap takes it");
        assert_eq!(parsed.browser.timeout, 5.0);
        // A key of another subcommand's is no error, and is not applied.
        let shell = with_settings_from(
            &command,
            argv(&["tabwright", "--config", &config, "shell"]),
            |_| None,
        )
        .expect("read");
        assert!(!shell.iter().any(|arg| arg == "--idle-timeout"));
    }

    #[test]
    fn an_unknown_key_or_a_bad_value_is_named() {
        let dir = tempfile::tempdir().expect("a folder");
        let file = dir.path().join("bad.json");
        std::fs::write(&file, r#"{"timout": 3}"#).expect("written");
        let config = file.to_string_lossy().into_owned();
        let error = with_settings_from(
            &crate::Cli::command(),
            argv(&["tabwright", "--config", &config, "shell"]),
            |_| None,
        )
        .expect_err("refused");
        assert!(error.contains("no flag --timout"), "{error}");
        let error = with_settings_from(
            &crate::Cli::command(),
            argv(&["tabwright", "shell"]),
            |name| (name == "TABWRIGHT_HEADED").then(|| "maybe".to_owned()),
        )
        .expect_err("refused");
        assert!(error.contains("TABWRIGHT_HEADED"), "{error}");
    }
}
