//! What a model pays to read: scripted multi-step sequences on the fixture
//! site, answered with change lists against whole pages; `find` on the
//! 5,000-link page; and the two small-page calls measured against Playwright
//! MCP (`snapshot`, `screenshot`).
//!
//! The sequences' checks read only the answers, as a model would: a
//! [`Reader`] keeps the page as the answers describe it (a whole page
//! replaces it, a change list edits it), and each check asks that page.
//! With `BENCH_SHOW` set, every answer of the sequences is printed to
//! stderr, to see where the tokens go.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use driver_core::Options;
use guard::{AllowedOrigin, Guard, Policy};
use serde_json::{json, Value};
use tabwright_tests::site::Site;
use tabwright_tests::Backend;
use tools::{Answers, Pack, PackOptions};

use crate::measure::summary;

/// A small page, for the calls measured against Playwright MCP.
const SMALL: &str = r#"<!doctype html><html><head><title>Small</title></head><body>
<h1>A small page</h1><p>Some text to read, and a form.</p>
<label>Name <input name="name"></label><button>Send</button>
<a href="/elsewhere">Elsewhere</a></body></html>"#;

/// One step of a sequence: a tool call, whose element is named by a piece
/// of its line in the page as the reader knows it; then a check on that
/// page: a piece that must be on it (`+`) or must not (`-`).
struct Step {
    tool: &'static str,
    element: Option<&'static str>,
    arguments: Value,
    check: &'static [&'static str],
}

const fn step(
    tool: &'static str,
    element: Option<&'static str>,
    check: &'static [&'static str],
) -> Step {
    Step {
        tool,
        element,
        arguments: Value::Null,
        check,
    }
}

/// The sequences: a name, the page, and the steps.
fn sequences() -> Vec<(&'static str, &'static str, Vec<Step>)> {
    let typed = |element: &'static str, text: &str, check: &'static [&'static str]| Step {
        tool: "type",
        element: Some(element),
        arguments: json!({ "text": text }),
        check,
    };
    vec![
        (
            "fill a form field by field",
            "/fx/app.html",
            vec![
                typed(
                    "\"Name\"",
                    "Ada Lovelace",
                    &["+\"Name\" = \"Ada Lovelace\""],
                ),
                typed(
                    "\"Email\"",
                    "ada@example.com",
                    &["+\"Email\" = \"ada@example.com\""],
                ),
                typed("\"Phone\"", "+44 20 7946 0000", &["+\"Phone\" = \"+44"]),
                typed("\"Company\"", "Analytical Engines", &["+= \"Analytical"]),
                Step {
                    tool: "select",
                    element: Some("\"Country\""),
                    arguments: json!({ "options": ["Japan"] }),
                    check: &["+\"Japan\" (selected)"],
                },
                step(
                    "click",
                    Some("\"Send the newsletter\""),
                    &["+\"Send the newsletter\" checked"],
                ),
                step(
                    "click",
                    Some("\"Save customer\""),
                    &["+Saved Ada Lovelace <ada@example.com>"],
                ),
            ],
        ),
        (
            "open and close a menu",
            "/fx/app.html",
            vec![
                step("click", Some("\"Account\""), &["+\"Profile\"", "+expanded"]),
                step(
                    "click",
                    Some("\"Account\""),
                    &["-\"Profile\"", "+collapsed"],
                ),
                step("click", Some("\"Account\""), &["+\"Sign out\""]),
                step("click", Some("\"Account\""), &["-\"Sign out\""]),
            ],
        ),
        (
            "page through a table",
            "/fx/app.html",
            vec![
                step(
                    "click",
                    Some("\"Next page\""),
                    &["+Barbara", "-Edsger", "+Page 2 of 3"],
                ),
                step(
                    "click",
                    Some("\"Next page\""),
                    &["+Radia", "-Barbara", "+Page 3 of 3"],
                ),
                step("click", Some("\"Previous page\""), &["+Barbara", "-Radia"]),
                step(
                    "click",
                    Some("\"Previous page\""),
                    &["+Edsger", "+Page 1 of 3"],
                ),
            ],
        ),
        (
            "a to-do list",
            "/fx/app.html",
            vec![
                typed("\"New task\"", "Buy tea", &["+= \"Buy tea\""]),
                step(
                    "click",
                    Some("\"Add task\""),
                    &["+\"Remove Buy tea\"", "+1 of 3 done"],
                ),
                step(
                    "click",
                    Some("checkbox \"Buy tea\""),
                    &["+\"Buy tea\" checked", "+2 of 3 done"],
                ),
                step(
                    "click",
                    Some("\"Remove Order more plums\""),
                    &["-Order more plums", "+2 of 2 done"],
                ),
                step("click", Some("\"Reverse order\""), &["+\"Remove Buy tea\""]),
                step(
                    "click",
                    Some("\"Refresh list\""),
                    &["+\"Remove Call the bakery\""],
                ),
                step(
                    "click",
                    Some("\"Remove Buy tea\""),
                    &["-Buy tea", "+1 of 1 done"],
                ),
            ],
        ),
        ("a TodoMVC-like app", "/fx/todo.html", todo_steps()),
    ]
}

/// The TodoMVC sequence: add six items, tick four. The app renders its
/// whole list again on every change, and its checkboxes have no names: a
/// checkbox is named by the line after it (`before:Buy milk`).
fn todo_steps() -> Vec<Step> {
    const ITEMS: [&str; 6] = [
        "Buy milk",
        "Walk the dog",
        "Read a book",
        "Call mum",
        "Pay the rent",
        "Water the plants",
    ];
    const LEFT: [&str; 6] = [
        "+1 item left",
        "+2 items left",
        "+3 items left",
        "+4 items left",
        "+5 items left",
        "+6 items left",
    ];
    const TICKED: [(&str, &str); 4] = [
        ("before:Buy milk", "+5 items left"),
        ("before:Read a book", "+4 items left"),
        ("before:Pay the rent", "+3 items left"),
        ("before:Water the plants", "+2 items left"),
    ];
    let mut steps: Vec<Step> = ITEMS
        .iter()
        .zip(LEFT)
        .map(|(item, left)| Step {
            tool: "type",
            element: Some("\"What needs to be done?\""),
            arguments: json!({ "text": item, "submit": true }),
            check: Box::leak(Box::new([left])),
        })
        .collect();
    for (checkbox, left) in TICKED {
        steps.push(step("click", Some(checkbox), Box::leak(Box::new([left]))));
    }
    steps
}

/// The page as the answers describe it.
#[derive(Default)]
struct Reader {
    lines: Vec<String>,
}

impl Reader {
    /// Takes in an answer: a whole page replaces what is known, a change
    /// list edits it.
    fn read(&mut self, answer: &str) {
        let code = marks::fence_code(answer).unwrap_or_default();
        if let Some(start) = answer.find(&format!("--- page content {code}")) {
            let body = answer[start..]
                .split_once('\n')
                .map_or("", |(_, body)| body);
            let end = body
                .find(&format!("--- end {code} ---"))
                .unwrap_or(body.len());
            self.lines = body[..end]
                .lines()
                .filter(|line| !line.is_empty())
                .map(|line| line.trim_start_matches('*').to_owned())
                .collect();
            return;
        }
        let Some(start) = answer.find(&format!("--- changes {code}")) else {
            return; // "nothing changed", or an answer with no page
        };
        let body = answer[start..]
            .split_once('\n')
            .map_or("", |(_, body)| body);
        for line in body.lines() {
            if line.starts_with(&format!("--- end {code}")) {
                break;
            }
            let (sign, rest) = line.split_at(line.len().min(2));
            match sign {
                "+ " => self.lines.push(rest.to_owned()),
                "- " => {
                    if let Some(at) = self.lines.iter().position(|known| known == rest) {
                        self.lines.remove(at);
                    }
                }
                "~ " | "> " => {
                    // The element's old line (by its number), or the text
                    // line that moved.
                    let old = match rest.split_once(']') {
                        Some((number, _)) if rest.starts_with('[') => {
                            let prefix = format!("{number}]");
                            self.lines
                                .iter()
                                .position(|known| known.starts_with(&prefix))
                        }
                        _ => self.lines.iter().position(|known| known == rest),
                    };
                    if let Some(at) = old {
                        self.lines.remove(at);
                    }
                    self.lines.push(rest.to_owned());
                }
                _ => {}
            }
        }
    }

    fn holds(&self, piece: &str) -> bool {
        self.lines.iter().any(|line| line.contains(piece))
    }
}

/// Runs each sequence with whole pages and with change lists; prints the
/// tokens of every answer (characters / 4) of each, and whether the checks
/// held on what the answers said.
pub async fn token_costs(backend: Backend, runs: usize) -> Result<(), String> {
    let site = Site::with_fixtures().await;
    site.page("/small", SMALL).await;
    println!(
        "{}: tokens of every answer of a sequence (characters / 4), whole pages against change lists",
        backend.name()
    );
    let mut totals = (0usize, 0usize);
    for (name, page, steps) in sequences() {
        let mut tokens = BTreeMap::new();
        for answers in [Answers::Full, Answers::Changes] {
            let pack = pack(backend, &site, answers)?;
            let spent = run_sequence(&pack, &site, page, &steps)
                .await
                .map_err(|problem| format!("{name} ({answers:?}): {problem}"))?;
            pack.close().await;
            tokens.insert(format!("{answers:?}"), spent);
        }
        let (full, changes) = (tokens["Full"], tokens["Changes"]);
        totals.0 += full;
        totals.1 += changes;
        println!(
            "  {name:<28} {full:>6} → {changes:>5} tokens ({:.2}×; every check held)",
            changes as f64 / full.max(1) as f64
        );
    }
    println!(
        "  {:<28} {:>6} → {:>5} tokens ({:.2}×)",
        "all",
        totals.0,
        totals.1,
        totals.1 as f64 / totals.0.max(1) as f64
    );
    find_cost(backend, &site, runs).await?;
    read_costs(backend, &site).await?;
    small_page_costs(backend, &site, runs).await
}

/// A long documentation page: a site's navigation, banner and footer
/// around an article of `sections` sections, each a heading, paragraphs
/// with links, a list, a table and some code.
pub fn long_article(sections: usize) -> String {
    let mut page = String::from(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>The manual</title></head><body>\n<header><a href=\"/\">Widgets</a> <input placeholder=\"Search the docs\"> <button>Search</button></header>\n<nav><ul>",
    );
    for n in 1..=sections {
        page.push_str(&format!("<li><a href=\"#s{n}\">Section {n}</a></li>"));
    }
    page.push_str("</ul></nav>\n<main><h1>The manual</h1>\n");
    for n in 1..=sections {
        page.push_str(&format!(
            "<section id=\"s{n}\"><h2>Section {n}: configuring part {n}</h2>\n\
             <p>Part {n} reads its settings from <code>widgets-{n}.toml</code> when it starts; see \
             <a href=\"/ref/{n}\">the reference for part {n}</a> for every key, and \
             <a href=\"/faq/{n}\">the questions people ask</a> before you change one.</p>\n\
             <p>A value set on the command line wins over the file, and the file over the defaults, \
             which suit a small machine; a larger one may want more workers.</p>\n\
             <ul><li>workers: how many threads part {n} runs</li><li>queue: how long its queue may grow</li>\
             <li>log: where it writes, <a href=\"/log/{n}\">its format</a></li></ul>\n\
             <table><tr><th>Key</th><th>Default</th><th>Range</th></tr>\
             <tr><td>workers</td><td>4</td><td>1–64</td></tr><tr><td>queue</td><td>1000</td><td>10–100000</td></tr></table>\n\
             <pre>[part{n}]\nworkers = 8\nqueue = 5000</pre></section>\n"
        ));
    }
    page.push_str("</main>\n<aside><h2>Related</h2><a href=\"/a\">Plugins</a> <a href=\"/b\">Recipes</a></aside>\n<footer><a href=\"/legal\">Legal</a> <a href=\"/privacy\">Privacy</a> © 2026</footer></body></html>");
    page
}

/// `read` against `snapshot {"full_page": true}` on long fixture articles:
/// the tokens of each (characters / 4), all of the text in one part.
async fn read_costs(backend: Backend, site: &Site) -> Result<(), String> {
    site.page("/manual", &long_article(40)).await;
    let pack = pack(backend, site, Answers::Changes)?;
    for page in ["/fx/article.html", "/fx/docs.html", "/manual"] {
        pack.call("open", json!({ "url": site.url(page) })).await;
        let whole = pack
            .call(
                "snapshot",
                json!({ "full_page": true, "max_tokens": 50000 }),
            )
            .await;
        let read = pack.call("read", json!({ "max_tokens": 50000 })).await;
        let all = pack
            .call("read", json!({ "whole_page": true, "max_tokens": 50000 }))
            .await;
        if whole.is_error || read.is_error || all.is_error {
            return Err(format!("{}\n{}\n{}", whole.text, read.text, all.text));
        }
        let (whole, read, all) = (
            whole.text.len() / 4,
            read.text.len() / 4,
            all.text.len() / 4,
        );
        println!(
            "  read {page:<18} {read:>6} tokens; the whole page {all:>6}; snapshot full_page {whole:>6} ({:.2}× and {:.2}×)",
            read as f64 / whole.max(1) as f64,
            all as f64 / whole.max(1) as f64
        );
    }
    pack.close().await;
    Ok(())
}

fn pack(backend: Backend, site: &Site, answers: Answers) -> Result<Pack, String> {
    let policy = Policy {
        allowed_origins: vec![AllowedOrigin::parse(&site.origin()).map_err(|e| e.to_string())?],
        ..Policy::default()
    };
    Ok(Pack::new(
        backend.guarded(Options::default(), Guard::new(policy)),
        PackOptions {
            answers,
            ..PackOptions::default()
        },
    ))
}

/// Opens the page and runs the steps; the tokens of every answer.
async fn run_sequence(
    pack: &Pack,
    site: &Site,
    page: &str,
    steps: &[Step],
) -> Result<usize, String> {
    let mut reader = Reader::default();
    let opened = pack.call("open", json!({ "url": site.url(page) })).await;
    let mut spent = opened.text.len() / 4;
    reader.read(&opened.text);
    for step in steps {
        let mut arguments = match &step.arguments {
            Value::Null => json!({}),
            other => other.clone(),
        };
        if let Some(needle) = step.element {
            let known = match needle.strip_prefix("before:") {
                // The element on the line before this text.
                Some(text) => reader
                    .lines
                    .iter()
                    .position(|line| line == text)
                    .and_then(|at| at.checked_sub(1))
                    .map(|at| reader.lines[at].clone())
                    .unwrap_or_default(),
                None => reader.lines.join("\n"),
            };
            let needle = needle.strip_prefix("before:").map_or(needle, |_| "[");
            let number = tools::element_number(&known, needle)
                .ok_or(format!("no {needle} on the page as the answers tell it"))?;
            arguments["element"] = json!(number);
        }
        let answer = pack.call(step.tool, arguments.clone()).await;
        if answer.is_error {
            return Err(format!("{} {arguments}: {}", step.tool, answer.text));
        }
        spent += answer.text.len() / 4;
        if std::env::var_os("BENCH_SHOW").is_some() {
            eprintln!("=== {} {arguments}\n{}", step.tool, answer.text);
        }
        reader.read(&answer.text);
        for check in step.check {
            let (wanted, piece) = check.split_at(1);
            if reader.holds(piece) != (wanted == "+") {
                return Err(format!(
                    "after {} {arguments}: expected {check:?} on the page as the answers tell it:\n{}",
                    step.tool,
                    reader.lines.join("\n")
                ));
            }
        }
    }
    Ok(spent)
}

/// `find` on the 5,000-link page: its tokens and its time end to end.
async fn find_cost(backend: Backend, site: &Site, runs: usize) -> Result<(), String> {
    let pack = pack(backend, site, Answers::Changes)?;
    pack.call("open", json!({ "url": site.url("/fx/links.html") }))
        .await;
    let mut times = Vec::new();
    let mut tokens = 0;
    for run in 0..runs {
        let wanted = format!("Entry {}", 4000 + run);
        let started = Instant::now();
        let found = pack.call("find", json!({ "text": wanted })).await;
        times.push(started.elapsed());
        if found.is_error || !found.text.contains(&format!("\"{wanted}\" ->")) {
            return Err(format!("find {wanted}: {}", found.text));
        }
        tokens = found.text.len() / 4;
    }
    pack.close().await;
    println!(
        "  find one link on the 5,000-link page: {tokens} tokens, {} (median / worst)",
        summary(&mut times)
    );
    Ok(())
}

/// The two calls where Playwright MCP was faster, on a small page.
async fn small_page_costs(backend: Backend, site: &Site, runs: usize) -> Result<(), String> {
    let pack = pack(backend, site, Answers::Changes)?;
    pack.call("open", json!({ "url": site.url("/small") }))
        .await;
    let mut snapshots: Vec<Duration> = Vec::new();
    let mut shots: Vec<Duration> = Vec::new();
    for _ in 0..runs {
        let started = Instant::now();
        let read = pack.call("snapshot", json!({})).await;
        snapshots.push(started.elapsed());
        let started = Instant::now();
        let shot = pack.call("screenshot", json!({})).await;
        shots.push(started.elapsed());
        if read.is_error || shot.is_error {
            return Err(format!("{}\n{}", read.text, shot.text));
        }
    }
    pack.close().await;
    println!(
        "  small page: snapshot {}, screenshot {} (median / worst)",
        summary(&mut snapshots),
        summary(&mut shots)
    );
    Ok(())
}
