//! Every key change answers with the app's status as it then stands (`AppState::update_keys`,
//! their one home), so Settings and the mode badge show the change without asking again.

use std::sync::Arc;

use sightline_core::environment::Environment;
use sightline_core::keychain::MemoryStore;
use sightline_core::keys;
use sightline_core::session::Mode;
use sightline_core::state::AppState;

#[tokio::test]
async fn each_key_change_answers_the_status_as_it_now_stands() {
    let dir = tempfile::tempdir().unwrap();
    let state = AppState::new(
        dir.path().to_owned(),
        Environment::default(),
        Arc::new(MemoryStore::default()),
    )
    .unwrap();
    let key = sightline_sandbox::auth::demo_key(7);

    let added = keys::add(&state, "work", &key).await.unwrap();
    assert_eq!(
        added.active_key.as_deref(),
        Some("work"),
        "the first key is active"
    );
    assert_eq!(added.mode, Mode::Live);
    assert_eq!(added.keys.len(), 1);

    let second = keys::add(&state, "home", &key).await.unwrap();
    assert_eq!(second.keys.len(), 2);
    assert_eq!(second.active_key.as_deref(), Some("work"));

    let active = keys::set_active(&state, "home").await.unwrap();
    assert_eq!(active.active_key.as_deref(), Some("home"));

    let renamed = keys::rename(&state, "home", "house").await.unwrap();
    assert_eq!(renamed.active_key.as_deref(), Some("house"));
    assert!(renamed.keys.iter().any(|k| k.label == "house"));
    // Renamed to its own name: nothing changes, and the answer is still the status now.
    let same = keys::rename(&state, "house", "house").await.unwrap();
    assert_eq!(same.active_key.as_deref(), Some("house"));

    let demo = keys::use_demo(&state, true).await.unwrap();
    assert_eq!(demo.mode, Mode::Demo);
    let live = keys::use_demo(&state, false).await.unwrap();
    assert_eq!(live.mode, Mode::Live);

    let deleted = keys::delete(&state, "house").await.unwrap();
    assert_eq!(deleted.keys.len(), 1);
    assert_eq!(
        deleted.active_key.as_deref(),
        Some("work"),
        "the next key takes over"
    );
    assert_eq!(deleted.mode, state.status().mode);
}
