//! What the project checks with tools from the npm registry (installed by
//! `cargo xtask test` into `tests/npm`): every page script (the selector
//! helper's, the walker's, settling's) type-checks and passes the lint
//! checks of `tsc` (`// @ts-check` with JSDoc types; strict, no unused
//! names or parameters, no fall-through, no unreachable code, every path
//! returning), and every tool schema, in every
//! export, compiles in a strict JSON Schema validator (ajv, draft 2020-12).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_path_buf()
}

/// The folder of the tests' npm packages, which must be installed.
fn npm() -> PathBuf {
    let folder = root().join("tests/npm");
    assert!(
        folder.join("node_modules").is_dir(),
        "{} has no node_modules: cargo xtask test installs them (npm ci)",
        folder.display()
    );
    folder
}

/// Runs a command that must succeed; its stdout.
fn succeeds(command: &mut Command) -> String {
    let output = command.output().expect("the command runs");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "{command:?} failed:\n{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

#[test]
fn the_page_scripts_type_check() {
    let tsc = npm().join("node_modules/typescript/bin/tsc");
    for project in ["driver-core/src/js", "marks/src/js", "tools/src/js"] {
        succeeds(
            Command::new("node")
                .arg(&tsc)
                .arg("-p")
                .arg(root().join(project)),
        );
    }
}

#[test]
fn every_schema_compiles_in_strict_mode() {
    let binary = crate::cli::binary();
    let folder = tempfile::tempdir().expect("a folder");
    let mut files = Vec::new();
    for (format, vision) in [
        ("mcp", false),
        ("mcp", true),
        ("openai-chat", false),
        ("openai-responses", false),
        ("anthropic", false),
    ] {
        let mut command = Command::new(&binary);
        // Every group, from the list itself: a group added later is checked
        // without a line here.
        let every = tools::Group::ALL.map(tools::Group::name).join(",");
        command.args(["tools", "--format", format, "--caps", &every]);
        if vision {
            command.arg("--vision");
        }
        let printed = succeeds(&mut command);
        let file = folder.path().join(format!("{format}-{vision}.json"));
        std::fs::write(&file, printed).expect("written");
        files.push(file);
    }
    let said = succeeds(
        Command::new("node")
            .arg(npm().join("strict-schemas.mjs"))
            .args(&files)
            .current_dir(npm()),
    );
    assert!(said.contains(" 0 did not"), "{said}");
}

/// The requests `marks` sends the walker are the script's `WalkerRequest`:
/// one of each kind, serialised by the Rust types, type-checks there (no
/// field the script does not declare, none it needs missing).
#[test]
fn the_walker_takes_what_marks_sends() {
    let tsc = npm().join("node_modules/typescript/bin/tsc");
    let folder = tempfile::tempdir().expect("a folder");
    let requests = serde_json::to_string_pretty(&marks::request::samples()).expect("json");
    std::fs::write(
        folder.path().join("requests.ts"),
        format!("export const requests: WalkerRequest[] = {requests};\n"),
    )
    .expect("written");
    let js = root().join("marks/src/js");
    let config: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(js.join("tsconfig.json")).expect("read"))
            .expect("the walker's tsconfig");
    let mut files: Vec<String> = config["files"]
        .as_array()
        .expect("its files")
        .iter()
        .filter_map(|file| file.as_str())
        .map(|file| js.join(file).display().to_string())
        .collect();
    files.push("requests.ts".to_owned());
    let checked = serde_json::json!({
        "compilerOptions": config["compilerOptions"],
        "files": files,
    });
    std::fs::write(
        folder.path().join("tsconfig.json"),
        serde_json::to_string_pretty(&checked).expect("json"),
    )
    .expect("written");
    succeeds(Command::new("node").arg(&tsc).arg("-p").arg(folder.path()));
}
