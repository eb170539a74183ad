//! The vendors' own browser tools carried out by tabwright: a recorded
//! sequence of Anthropic `browser_toolset_20260801` calls replayed through
//! `tabwright exec` (results and `browser_state` checked, the guard's
//! refusal and the members without a counterpart answered as errors), and
//! OpenAI `computer` batches through the library's executor, run in order
//! and stopped at the first failure, on both backends.

use std::time::Duration;

use driver_core::{Driver, Options};
use guard::{AllowedOrigin, Guard, Policy};
use serde_json::{json, Value};
use tabwright_tests::site::Site;
use tabwright_tests::Backend;
use tokio::io::AsyncWriteExt;
use tools::{Executor, Group, Pack, PackOptions, Toolset};

use crate::cli::binary;

const RECORDED: &str = include_str!("../fixtures/vendor/anthropic-browser.jsonl");

fn backend_flag(backend: Backend) -> &'static str {
    backend.name()
}

/// The text blocks of a `tool_result`, joined.
fn text_of(result: &Value) -> String {
    result["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|block| block["type"] == "text")
        .filter_map(|block| block["text"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs an `exec` command with `input` on its stdin until it ends (within
/// `patience`), checks it ended well, and answers its JSON result lines.
async fn exec_results(
    command: &mut tokio::process::Command,
    input: &[u8],
    patience: Duration,
) -> Vec<Value> {
    let mut child = command
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("exec starts");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input).await.expect("the calls");
    drop(stdin);
    let output = tokio::time::timeout(patience, child.wait_with_output())
        .await
        .expect("exec ends with its input")
        .expect("exec runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect()
}

fn state_of(result: &Value) -> Option<&Value> {
    result["content"]
        .as_array()?
        .iter()
        .find(|block| block["type"] == "browser_state")
}

async fn anthropic_replayed(backend: Backend) {
    let site = Site::with_fixtures().await;
    let mut command = tokio::process::Command::new(binary());
    command
        .args(["--backend", backend_flag(backend), "--allow-origin"])
        .arg(site.origin())
        .args([
            "--caps",
            "core,forms,script",
            "exec",
            "--toolset",
            "browser_toolset_20260801",
        ]);
    let results = exec_results(
        &mut command,
        RECORDED.replace("SITE", &site.origin()).as_bytes(),
        Duration::from_secs(120),
    )
    .await;
    assert_eq!(
        results.len(),
        RECORDED.lines().count(),
        "one result per call"
    );
    let by_id = |id: &str| -> &Value {
        results
            .iter()
            .find(|result| result["tool_use_id"] == id)
            .unwrap_or_else(|| panic!("no result for {id}"))
    };
    for result in &results {
        assert_eq!(result["type"], "tool_result", "{result}");
        // A browser_state block exactly on the results that are no error.
        assert_eq!(
            state_of(result).is_some(),
            result["is_error"] == false,
            "{result}"
        );
    }
    let opened = by_id("toolu_01");
    assert!(
        text_of(opened).contains("[ref_1] textbox \"What needs to be done?\""),
        "{opened}"
    );
    let state = state_of(opened).expect("a state");
    assert_eq!(state["tabs"][0]["tab_id"], "tab_1");
    assert_eq!(state["tabs"][0]["active"], true);
    assert_eq!(state["tabs"][0]["title"], "Todos");
    assert!(state.get("state_changes").is_none(), "{state}");
    assert!(text_of(by_id("toolu_02")).contains("[ref_1] textbox"));
    assert!(text_of(by_id("toolu_05")).contains("1 item left"));
    assert!(text_of(by_id("toolu_06")).contains("[ref_9] checkbox unchecked"));
    let ticked = text_of(by_id("toolu_07"));
    assert!(
        ticked.contains("checked") && !ticked.contains("[ref_9] checkbox unchecked"),
        "{ticked}"
    );
    assert!(text_of(by_id("toolu_08")).contains("milk"));
    let new_tab = state_of(by_id("toolu_09")).expect("a state");
    assert_eq!(
        new_tab["state_changes"][0],
        json!({ "type": "tab_opened", "tab_id": "tab_2" })
    );
    assert_eq!(new_tab["tabs"][1]["active"], true);
    let listed = state_of(by_id("toolu_11")).expect("a state");
    assert_eq!(listed["tabs"].as_array().map(Vec::len), Some(2), "{listed}");
    assert!(listed["tabs"][1]["url"]
        .as_str()
        .unwrap_or_default()
        .ends_with("/fx/article.html"));
    assert!(listed.get("state_changes").is_none(), "{listed}");
    let switched = state_of(by_id("toolu_12")).expect("a state");
    assert_eq!(switched["tabs"][0]["active"], true, "{switched}");
    let closed = state_of(by_id("toolu_13")).expect("a state");
    assert_eq!(closed["tabs"].as_array().map(Vec::len), Some(1), "{closed}");
    assert_eq!(closed["tabs"][0]["tab_id"], "tab_1");
    let refused = by_id("toolu_14");
    assert_eq!(refused["is_error"], true);
    assert!(
        text_of(refused).contains("Refused to open http://10.20.30.40/admin"),
        "{refused}"
    );
    assert_eq!(by_id("toolu_15")["is_error"], false);
    assert_eq!(by_id("toolu_16")["is_error"], false);
    for (id, member) in [("toolu_17", "zoom"), ("toolu_18", "hold_key")] {
        let unsupported = by_id(id);
        assert_eq!(unsupported["is_error"], true);
        assert!(
            text_of(unsupported).contains(&format!("{member} is not supported here")),
            "{unsupported}"
        );
    }
    assert!(text_of(by_id("toolu_19")).contains("\"Todos\""));
    let picture = by_id("toolu_20");
    let image = picture["content"]
        .as_array()
        .and_then(|blocks| blocks.iter().find(|block| block["type"] == "image"))
        .expect("an image block");
    assert_eq!(image["source"]["media_type"], "image/png");
    assert!(image["source"]["data"]
        .as_str()
        .is_some_and(|data| data.len() > 1000));
    // A query in words the page does not hold is tried again by its
    // longest word.
    let found = text_of(by_id("toolu_21"));
    assert!(found.contains("link \"Completed\""), "{found}");
}

/// A pack for the computer tool: vision mode, the forms group (drag).
async fn computer_pack(backend: Backend, site: &Site) -> Pack {
    let policy = Policy {
        allowed_origins: vec![AllowedOrigin::parse(&site.origin()).expect("origin")],
        ..Policy::default()
    };
    let options = Options {
        timeout: Duration::from_secs(15),
        ..Options::default()
    };
    Pack::new(
        backend.guarded(options, Guard::new(policy)),
        PackOptions {
            vision: true,
            groups: vec![Group::Core, Group::Forms],
            ..PackOptions::default()
        },
    )
}

async fn openai_batches(backend: Backend) {
    let site = Site::with_fixtures().await;
    let pack = computer_pack(backend, &site).await;
    let opened = pack
        .call("open", json!({ "url": site.url("/fx/todo.html") }))
        .await;
    assert!(!opened.is_error, "{}", opened.text);
    let executor = Executor::new(&pack, Toolset::OpenAiComputer);
    assert_eq!(executor.tool_entry()["display_width"], 1280);
    let field = pack
        .driver()
        .eval("(() => { const r = document.querySelector('.new-todo').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()")
        .await
        .expect("the field's box");
    let (x, y) = (
        field[0].as_f64().unwrap_or(0.0),
        field[1].as_f64().unwrap_or(0.0),
    );
    let output = executor
        .execute(&json!({
            "type": "computer_call",
            "call_id": "call_1",
            "actions": [
                { "type": "click", "x": x, "y": y, "button": "left" },
                { "type": "type", "text": "milk" },
                { "type": "keypress", "keys": ["ENTER"] },
                { "type": "type", "text": "eggs" },
                { "type": "keypress", "keys": ["Return"] },
                { "type": "scroll", "x": 400, "y": 300, "scroll_x": 0, "scroll_y": 200 },
                { "type": "wait" },
                { "type": "screenshot" }
            ]
        }))
        .await;
    assert_eq!(output["type"], "computer_call_output", "{output}");
    assert_eq!(output["call_id"], "call_1");
    assert!(output.get("error").is_none(), "{output}");
    let url = output["output"]["image_url"].as_str().unwrap_or_default();
    assert!(
        url.starts_with("data:image/png;base64,") && url.len() > 2000,
        "{output}"
    );
    let state = pack.driver().eval("todoState()").await.expect("state");
    assert_eq!(state, json!("milk, eggs"));

    // The batch stops at the first action that fails: the click after the
    // bad one is not made.
    let output = executor
        .execute(&json!({
            "type": "computer_call",
            "call_id": "call_2",
            "actions": [
                { "type": "click", "x": 5000, "y": 5000 },
                { "type": "click", "x": x, "y": y }
            ]
        }))
        .await;
    let error = output["error"].as_str().unwrap_or_default();
    assert!(error.starts_with("action 1 (click) failed"), "{output}");
    assert!(output["output"]["image_url"].as_str().is_some(), "{output}");
    let unknown = executor
        .execute(&json!({ "type": "computer_call", "call_id": "call_3", "action": { "type": "teleport" } }))
        .await;
    assert!(
        unknown["error"]
            .as_str()
            .is_some_and(|error| error.contains("teleport")),
        "{unknown}"
    );
    pack.close().await;
}

both_backends!(anthropic_replayed, openai_batches);

/// A line of `exec` input that is not UTF-8 is answered as an error, and
/// the lines after it are read: the process and its browser go on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exec_answers_a_line_that_is_not_utf8() {
    let mut command = tokio::process::Command::new(binary());
    command.args(["exec", "--toolset", "browser_toolset_20260801"]);
    let results = exec_results(
        &mut command,
        b"{\"a\": \"\xff\xfe\"}\n{ not json\n",
        Duration::from_secs(60),
    )
    .await;
    assert_eq!(results.len(), 2, "{results:?}");
    assert_eq!(results[0]["error"], "the line is not UTF-8", "{results:?}");
    assert!(
        results[1]["error"]
            .as_str()
            .is_some_and(|error| error.starts_with("the line is not JSON")),
        "{results:?}"
    );
}
