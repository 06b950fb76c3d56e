//! Declares the app's commands to Tauri, so the capability can grant them by name (and deny
//! everything else). The names come from `command-names.txt`, which the tests write from the
//! command tables (`src/surface.rs`): `build.rs` cannot expand the tables' macros itself.

fn main() {
    println!("cargo:rerun-if-changed=command-names.txt");
    let list = std::fs::read_to_string("command-names.txt").expect("read command-names.txt");
    // Tauri keeps the names for the whole build: they live as long as the build script.
    let list: &'static str = Box::leak(list.into_boxed_str());
    let commands: Vec<&'static str> = list
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .collect();
    let commands: &'static [&'static str] = Box::leak(commands.into_boxed_slice());
    tauri_build::try_build(
        tauri_build::Attributes::new()
            .app_manifest(tauri_build::AppManifest::new().commands(commands)),
    )
    .expect("failed to run tauri-build");
}
