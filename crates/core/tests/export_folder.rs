//! "The export folder, else ask": the one rule every save follows (exports, evidence bundles,
//! the analysis's files and pictures). A folder in Settings gets a new dated file of the right
//! extension, never one already there; with none, there is no preset and the window asks.

use sightline_core::export::preset_file;
use sightline_core::settings::AppSettings;

#[test]
fn a_set_folder_gets_a_new_file_and_no_folder_means_ask() {
    let none = AppSettings::default();
    assert!(none.export_folder.is_none());
    assert!(preset_file(&none, "sightline-network", "gexf").is_none());

    let dir = tempfile::tempdir().unwrap();
    let settings = AppSettings {
        // Spaces around a pasted path are not part of it.
        export_folder: Some(format!("  {}  ", dir.path().display())),
        ..AppSettings::default()
    };
    let first = preset_file(&settings, "sightline-evidence-floods", "zip")
        .expect("a folder is set")
        .unwrap();
    assert_eq!(first.parent().unwrap(), dir.path());
    assert_eq!(first.extension().unwrap(), "zip");
    let name = first.file_name().unwrap().to_string_lossy().to_string();
    assert!(name.starts_with("sightline-evidence-floods-"), "{name}");
    std::fs::write(&first, b"taken").unwrap();
    let second = preset_file(&settings, "sightline-evidence-floods", "zip")
        .unwrap()
        .unwrap();
    assert_ne!(first, second, "a file already there is never replaced");

    let missing = AppSettings {
        export_folder: Some("/nonexistent-folder".into()),
        ..AppSettings::default()
    };
    let error = preset_file(&missing, "sightline-posts", "csv")
        .unwrap()
        .unwrap_err();
    assert!(error.message().contains("does not exist"), "{error:?}");
}
