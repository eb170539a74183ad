//! The crates as a registry would take them: every crate that is published
//! says what a registry shows (description, licence, repository, readme,
//! keywords, categories, the Rust it needs), every dependency between them
//! has a version, and no dependency needs a newer Rust than the workspace
//! says it builds with (Clippy's `incompatible_msrv` holds the code itself
//! to it; `cargo package` in CI packs each crate).

use serde_json::Value;

fn metadata() -> Value {
    let output = std::process::Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--locked"])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("JSON")
}

/// `1.89.0` as (1, 89).
fn version(text: &str) -> (u64, u64) {
    let mut parts = text.split('.').map(|part| part.parse().unwrap_or(0));
    (parts.next().unwrap_or(0), parts.next().unwrap_or(0))
}

#[test]
fn published_crates_carry_what_a_registry_needs() {
    let metadata = metadata();
    let members: Vec<&Value> = metadata["packages"]
        .as_array()
        .expect("packages")
        .iter()
        .filter(|package| {
            metadata["workspace_members"]
                .as_array()
                .expect("members")
                .contains(&package["id"])
        })
        .collect();
    let published: Vec<&&Value> = members
        .iter()
        .filter(|package| package["publish"] != serde_json::json!([]))
        .collect();
    assert_eq!(published.len(), 7, "the facade and six crates");
    for package in published {
        let name = package["name"].as_str().unwrap_or_default();
        for field in [
            "description",
            "license",
            "repository",
            "readme",
            "rust_version",
        ] {
            assert!(
                package[field]
                    .as_str()
                    .is_some_and(|value| !value.is_empty()),
                "{name} has no {field}"
            );
        }
        for field in ["keywords", "categories"] {
            assert!(
                package[field]
                    .as_array()
                    .is_some_and(|list| !list.is_empty()),
                "{name} has no {field}"
            );
        }
        for dependency in package["dependencies"].as_array().expect("dependencies") {
            if dependency["path"].is_string() && dependency["kind"].is_null() {
                assert_ne!(
                    dependency["req"], "*",
                    "{name}'s dependency {} has no version",
                    dependency["name"]
                );
            }
        }
    }
}

#[test]
fn no_dependency_needs_a_newer_rust_than_the_workspace() {
    let metadata = metadata();
    let packages = metadata["packages"].as_array().expect("packages");
    let ours = packages
        .iter()
        .find(|package| package["name"] == "tabwright")
        .and_then(|package| package["rust_version"].as_str())
        .map(version)
        .expect("the facade says its Rust");
    let newer: Vec<String> = packages
        .iter()
        .filter_map(|package| {
            let needs = package["rust_version"].as_str()?;
            (version(needs) > ours)
                .then(|| format!("{} {} needs {needs}", package["name"], package["version"]))
        })
        .collect();
    assert!(
        newer.is_empty(),
        "newer than the workspace's {ours:?}: {newer:?}"
    );
}
