//! The display zone follows Settings: saved, it is the zone `time_zone()` gives Spend, budgets
//! and exports, it is read back at the next start, and "System" goes back to the system's zone.
//! Its own test binary: the zone is process-wide, so no other test may change it meanwhile.

use std::sync::Arc;

use sightline_core::environment::Environment;
use sightline_core::keychain::MemoryStore;
use sightline_core::settings::AppSettings;
use sightline_core::state::AppState;
use sightline_core::zone::{display_zone, system_zone, time_zone, DisplayZone};

fn open(dir: &std::path::Path) -> AppState {
    AppState::new(
        dir.to_owned(),
        Environment::default(),
        Arc::new(MemoryStore::default()),
    )
    .unwrap()
}

#[tokio::test]
async fn the_chosen_zone_is_used_kept_across_a_restart_and_system_goes_back() {
    let dir = tempfile::tempdir().unwrap();
    let state = open(dir.path());
    assert_eq!(time_zone(), system_zone(), "no setting follows the system");

    let kolkata = AppSettings {
        display_zone: Some("Asia/Kolkata".into()),
        ..AppSettings::default()
    };
    assert!(kolkata.validate().is_ok());
    state.save_settings(kolkata).await.unwrap();
    assert_eq!(time_zone().name(), "Asia/Kolkata");
    assert_eq!(
        display_zone(),
        DisplayZone {
            zone: "Asia/Kolkata".into(),
            system: system_zone().name().into()
        }
    );
    drop(state);

    // A new start reads the zone from settings.json before anything asks for a day.
    let state = open(dir.path());
    assert_eq!(time_zone().name(), "Asia/Kolkata");

    state.save_settings(AppSettings::default()).await.unwrap();
    assert_eq!(time_zone(), system_zone());
    assert_eq!(display_zone().zone, system_zone().name());
}
