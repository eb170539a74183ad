//! `run` over the fake driver: how a script ends (returned, thrown at a
//! line, each limit) and what it may reach. Scripts over a real page are
//! the integration tests' (`tests/it/scripts.rs`).

use serde_json::json;

use crate::fake_tests::{pack_with, ORIGIN};
use crate::{Group, Pack, PackOptions};

fn coded() -> Pack {
    pack_with(PackOptions {
        groups: vec![Group::Core, Group::Code],
        script_engine: engine(),
        ..PackOptions::default()
    })
    .0
}

/// This test binary as the scripts' engine: started again to run only
/// [`engine_serves`], which serves.
pub(crate) fn engine() -> crate::ScriptEngine {
    crate::ScriptEngine::test_binary("run_tests::engine_serves")
}

/// The same engine with `mark` on its command line (a second filter that
/// names no test), so a test can tell its own engines from those the
/// tests running beside it start.
fn engine_marked(mark: &str) -> crate::ScriptEngine {
    engine().with_arg(mark)
}

/// Serves as a script's engine when this binary was started as one (see
/// [`engine`]); passes at once otherwise.
#[test]
fn engine_serves() {
    crate::serve_if_asked();
}

async fn run(pack: &Pack, script: &str) -> crate::ToolOutput {
    pack.call("run", json!({ "script": script })).await
}

#[tokio::test]
async fn a_script_returns_json_and_logs_its_calls() {
    let pack = coded();
    let answer = run(
        &pack,
        &format!(
            r#"const page = await tw.open({{url: "{ORIGIN}/one"}});
const tabs = await tw.tabs();
return {{opened: page.includes("Page one"), tabs: tabs.split("\n").length > 0}};"#
        ),
    )
    .await;
    assert!(!answer.is_error, "{}", answer.text);
    assert!(
        answer.text.starts_with("The script returned, as JSON:"),
        "{}",
        answer.text
    );
    assert!(answer.text.contains("\"opened\": true"), "{}", answer.text);
    assert!(answer.text.contains("Its calls (2,"), "{}", answer.text);
    assert!(answer.text.contains("1. open {\"url\""), "{}", answer.text);
    assert!(answer.text.contains("2. tabs {}"), "{}", answer.text);
    assert!(
        answer.text.contains("The page after the script's 2 calls"),
        "{}",
        answer.text
    );
}

#[tokio::test]
async fn a_throw_names_the_scripts_line() {
    let pack = coded();
    let answer = run(&pack, "const a = 1;\nconst b = 2;\nnull.boom;\n").await;
    assert!(answer.is_error, "{}", answer.text);
    assert!(answer.text.contains("failed at line 3"), "{}", answer.text);
    assert!(answer.text.contains("TypeError"), "{}", answer.text);
    let syntax = run(&pack, "const = ;").await;
    assert!(syntax.is_error, "{}", syntax.text);
    assert!(syntax.text.contains("SyntaxError"), "{}", syntax.text);
    // A tool's failure throws, with the tool's answer as its message.
    let tool = run(&pack, "await tw.click({element: 'x'});").await;
    assert!(tool.is_error, "{}", tool.text);
    assert!(tool.text.contains("failed at line 1"), "{}", tool.text);
    assert!(
        tool.text
            .contains("1. click {\"element\":\"x\"} -> failed:"),
        "{}",
        tool.text
    );
    let caught = run(
        &pack,
        "try { await tw.click({element: 'x'}); } catch (e) { return e.name + ' ' + e.tool; }",
    )
    .await;
    assert!(!caught.is_error, "{}", caught.text);
    assert!(caught.text.contains("ToolError click"), "{}", caught.text);
}

#[tokio::test]
async fn each_limit_stops_the_script_and_says_so() {
    let pack = coded();
    let time = pack
        .call("run", json!({ "script": "for (;;) {}", "timeout": 1 }))
        .await;
    assert!(time.is_error, "{}", time.text);
    assert!(
        time.text.contains("ran longer than its 1 s"),
        "{}",
        time.text
    );
    let memory = run(
        &pack,
        "const all = []; for (;;) all.push('x'.repeat(1 << 16) + all.length);",
    )
    .await;
    assert!(memory.is_error, "{}", memory.text);
    assert!(memory.text.contains("more than 64 MiB"), "{}", memory.text);
    let calls = run(
        &pack,
        "for (;;) { try { await tw.console(); } catch (e) {} }",
    )
    .await;
    assert!(calls.is_error, "{}", calls.text);
    assert!(
        calls.text.contains("more than 200 tool calls"),
        "{}",
        calls.text
    );
    let bad = pack
        .call("run", json!({ "script": "return 1;", "timeout": 301 }))
        .await;
    assert!(bad.is_error && bad.text.contains("timeout"), "{}", bad.text);
}

#[tokio::test]
async fn a_script_reaches_nothing_but_its_tools() {
    let pack = coded();
    let answer = run(
        &pack,
        r#"return [typeof setTimeout, typeof fetch, typeof require, typeof __tabwright_call,
  typeof tw.run, typeof tw.handoff, typeof tw.click, typeof tw.elements,
  typeof XMLHttpRequest, typeof WebSocket, typeof std, typeof os];"#,
    )
    .await;
    assert!(!answer.is_error, "{}", answer.text);
    let compact: String = answer.text.split_whitespace().collect();
    assert!(
        compact.contains(r#"["undefined","undefined","undefined","undefined","undefined","undefined","function","function","undefined","undefined","undefined","undefined"]"#),
        "{}",
        answer.text
    );
    // A promise nothing settles ends the script rather than hanging it.
    let stuck = run(&pack, "await new Promise(() => {});").await;
    assert!(stuck.is_error, "{}", stuck.text);
    assert!(stuck.text.contains("nothing will settle"), "{}", stuck.text);
}

#[tokio::test]
async fn a_cancelled_script_stops_and_the_pack_goes_on() {
    let pack = coded();
    let cancelled = pack
        .call_until(
            "run",
            json!({ "script": "for (;;) {}" }),
            tokio::time::sleep(std::time::Duration::from_millis(300)),
        )
        .await;
    assert!(cancelled.is_error, "{}", cancelled.text);
    assert!(cancelled.text.contains("cancelled"), "{}", cancelled.text);
    let next = run(&pack, "return 42;").await;
    assert!(!next.is_error, "{}", next.text);
    assert!(next.text.contains("42"), "{}", next.text);
}

/// A value that cannot be written as JSON is said, with why, never read
/// as "returned nothing".
#[tokio::test]
async fn a_value_without_json_says_why() {
    let pack = coded();
    for (script, why) in [
        ("const a = {}; a.self = a; return a;", "no JSON form"),
        ("return 10n;", "no JSON form"),
        ("return 'x'.repeat(2 * 1024 * 1024);", "KiB"),
        (
            "let v = 1; for (let i = 0; i < 200; i++) v = [v]; return v;",
            "128 levels",
        ),
    ] {
        let answer = run(&pack, script).await;
        assert!(answer.is_error, "{script}: {}", answer.text);
        assert!(
            answer.text.contains("cannot be shown") && answer.text.contains(why),
            "{script}: {}",
            answer.text
        );
    }
    let nothing = run(&pack, "return undefined;").await;
    assert!(
        nothing.text.contains("returned nothing"),
        "{}",
        nothing.text
    );
}

/// The engines of this test process still running (not yet reaped ones
/// hold nothing): children whose command line names [`engine_serves`]
/// and `mark`.
fn engines_running(mark: &str) -> Vec<String> {
    let me = std::process::id().to_string();
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let path = entry.path();
        let Ok(status) = std::fs::read_to_string(path.join("status")) else {
            continue;
        };
        let field = |name: &str| {
            status
                .lines()
                .find_map(|line| line.strip_prefix(name))
                .map(str::trim)
                .unwrap_or_default()
                .to_owned()
        };
        let command = std::fs::read(path.join("cmdline")).unwrap_or_default();
        let command = String::from_utf8_lossy(&command);
        if field("PPid:") == me
            && !field("State:").starts_with('Z')
            && command.contains("engine_serves")
            && command.contains(mark)
        {
            found.push(format!("{} {}", path.display(), field("State:")));
        }
    }
    // (Before engines had processes, a script's thread outlived it here.)
    for task in std::fs::read_dir("/proc/self/task")
        .into_iter()
        .flatten()
        .flatten()
    {
        let name = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
        if name.trim() == "tabwright-run" {
            found.push(format!("thread {}", task.path().display()));
        }
    }
    found
}

/// Loops the engine cannot interrupt (a promise storm keeps its job
/// queue full; built-ins loop in C without asking) end at the deadline,
/// on cancel too, and nothing of them runs afterwards.
#[tokio::test]
async fn what_the_engine_cannot_interrupt_ends_with_its_process() {
    const MARK: &str = "uninterruptible";
    let pack = pack_with(PackOptions {
        groups: vec![Group::Core, Group::Code],
        script_engine: engine_marked(MARK),
        ..PackOptions::default()
    })
    .0;
    for script in [
        "const f = () => { Promise.resolve().then(f); Promise.resolve().then(f); }; f(); await new Promise(() => {});",
        "Array.prototype.reverse.call({length: 2 ** 53 - 1});",
        "Array.prototype.copyWithin.call({length: 2 ** 53 - 1}, 0, 1);",
        "Array.prototype.fill.call({length: 2 ** 53 - 1}, 0);",
        "Array.prototype.indexOf.call({length: 2 ** 53 - 1}, 1);",
    ] {
        let started = std::time::Instant::now();
        let answer = pack
            .call("run", json!({ "script": script, "timeout": 1 }))
            .await;
        assert!(answer.is_error, "{script}: {}", answer.text);
        assert!(
            answer.text.contains("ran longer than its 1 s")
                || answer.text.contains("more than 64 MiB"),
            "{script}: {}",
            answer.text
        );
        // (Bounded, not timed: a loaded machine may take a while.)
        assert!(
            started.elapsed() < std::time::Duration::from_secs(20),
            "{script}: {:?}",
            started.elapsed()
        );
        assert_eq!(engines_running(MARK), Vec::<String>::new(), "{script}");
    }
    let cancelled = pack
        .call_until(
            "run",
            json!({ "script": "Array.prototype.reverse.call({length: 2 ** 53 - 1});" }),
            tokio::time::sleep(std::time::Duration::from_millis(300)),
        )
        .await;
    assert!(cancelled.text.contains("cancelled"), "{}", cancelled.text);
    // The kill is sent as the call is dropped; the kernel takes a moment.
    let mut left = engines_running(MARK);
    for _ in 0..50 {
        if left.is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        left = engines_running(MARK);
    }
    assert_eq!(left, Vec::<String>::new());
    let next = run(&pack, "return 6 * 7;").await;
    assert!(next.text.contains("42"), "{}", next.text);
}
