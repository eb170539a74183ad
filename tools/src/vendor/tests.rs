use super::ANTHROPIC_MEMBERS;

/// The README's table of the members, as [`ANTHROPIC_MEMBERS`] says.
fn members_table() -> String {
    let mut table = String::from("| member | tabwright | how, or why not |\n|---|---|---|\n");
    for member in ANTHROPIC_MEMBERS {
        let tool = match (member.tool, member.group) {
            (None, _) => "(none)".to_owned(),
            (Some(tool), None) => format!("`{tool}`"),
            (Some(tool), Some(group)) => format!("`{tool}` ({group} group)"),
        };
        table.push_str(&format!(
            "| `{}` | {tool} | {} |\n",
            member.name, member.note
        ));
    }
    table
}

/// A `key` action whose keys and `repeat` make more than one call
/// presses is refused before its text is built.
#[tokio::test]
async fn a_key_repeated_past_the_limit_is_refused_first() {
    let (pack, _) = crate::fake_tests::pack_with(crate::PackOptions::default());
    let executor = super::Executor::new(&pack, super::Toolset::AnthropicBrowser);
    let long = "a ".repeat(1_000_000);
    for input in [
        serde_json::json!({ "text": "a b c d e f g h i j", "repeat": 100 }),
        serde_json::json!({ "text": long }),
    ] {
        let result = executor
            .execute(&serde_json::json!({ "type": "tool_use", "id": "t", "name": "key", "input": input }))
            .await;
        assert_eq!(result["is_error"], true, "{result}");
        assert!(result.to_string().contains("50 keys"), "{result}");
    }
}

#[test]
fn the_readme_shows_the_members_table() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md"))
        .unwrap_or_default();
    let table = members_table();
    assert!(
        readme.contains(&table),
        "the README's table of the browser toolset's members is not ANTHROPIC_MEMBERS; put this in its place:\n\n{table}"
    );
}

#[test]
fn references_are_read_in_every_spelling() {
    assert_eq!(super::element("ref_7"), Ok(7));
    assert_eq!(super::element("[12]"), Ok(12));
    assert!(super::element("ref_x").is_err());
    assert_eq!(super::modifiers("ctrl+shift"), Ok(vec!["Control", "Shift"]));
    assert!(super::modifiers("hyper").is_err());
}

#[test]
fn element_lines_read_as_references() {
    let output = crate::output::ToolOutput::text(
        "Clicked [3].\n--- changes ---\n~ [3] button \"Go\"\n+ *[14] link \"Next\"\nSee [1] here\n[x] not one".to_owned(),
    );
    let text = super::referenced(output).text;
    assert!(text.contains("~ [ref_3] button"), "{text}");
    assert!(text.contains("+ *[ref_14] link"), "{text}");
    assert!(text.contains("See [1] here"), "{text}");
    assert!(text.contains("[x] not one"), "{text}");
}
