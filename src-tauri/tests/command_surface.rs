//! The files made from the command tables (`src/surface.rs`) are current: the UI's typed map
//! (`ui/src/lib/bindings/commands.ts`), the capability that grants each command to the window,
//! and `command-names.txt` (which `build.rs` declares to Tauri). Running this test writes any
//! that changed and then fails, naming them, so a stale file never passes unnoticed: run it
//! again (it passes) and commit them. The UI reaches commands only through `call` in ipc.ts,
//! typed by that map, so a name or an argument that is wrong does not compile.

use std::path::{Path, PathBuf};

use sightline_lib::surface;

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Writes `text` to `path` when it differs; true when it did (the file was stale).
fn write_if_changed(path: &Path, text: &str) -> bool {
    if std::fs::read_to_string(path).ok().as_deref() == Some(text) {
        return false;
    }
    std::fs::write(path, text).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
    true
}

#[test]
fn the_files_made_from_the_command_tables_are_current() {
    let declarations = surface::declarations();
    let names: Vec<&str> = declarations.iter().map(|d| d.name).collect();
    assert!(names.len() >= 100, "only {} commands declared", names.len());
    let mut unique = names.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), names.len(), "a command is declared twice");

    let config = ts_rs::Config::from_env();
    let dir = manifest_dir();
    let bindings = std::env::var("TS_RS_EXPORT_DIR").expect("set in .cargo/config.toml");
    let files = [
        (
            dir.parent().unwrap().join(bindings).join("commands.ts"),
            surface::typescript(&declarations, &config),
        ),
        (
            dir.join("capabilities/default.json"),
            surface::capability(&names),
        ),
        (dir.join("command-names.txt"), surface::name_list(&names)),
    ];
    let stale: Vec<String> = files
        .iter()
        .filter(|(path, text)| write_if_changed(path, text))
        .map(|(path, _)| path.display().to_string())
        .collect();
    assert!(
        stale.is_empty(),
        "these were out of date with the command tables and are now rewritten; build and run \
         the tests again, and commit them:\n{}",
        stale.join("\n")
    );
}

#[test]
fn the_window_reaches_commands_only_through_the_typed_call() {
    let ui = manifest_dir().join("../ui/src");
    let mut files = Vec::new();
    sources(&ui, &mut files);
    assert!(
        files.len() > 20,
        "the UI's sources were not found under {}",
        ui.display()
    );
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let invokes = text.matches("invoke(").count() + text.matches("invoke<").count();
        let allowed = usize::from(file.ends_with("lib/ipc.ts"));
        assert!(
            invokes <= allowed,
            "{} calls `invoke` itself: go through `call` in ui/src/lib/ipc.ts",
            file.display()
        );
    }
}

/// Every TypeScript and Svelte file under `dir`, but the generated bindings and tests.
fn sources(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if path.is_dir() {
            if name != "bindings" {
                sources(&path, files);
            }
        } else if (name.ends_with(".ts") || name.ends_with(".svelte")) && !name.contains(".test.") {
            files.push(path);
        }
    }
}
