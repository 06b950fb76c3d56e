//! The custody log as the app feeds it: "Collected by" from Settings names each entry from the
//! moment it is saved; a key rotation reaches every investigation's log (archived ones too),
//! naming the new key and the old; an export recorded through `custody::record`; the log read
//! back with its chain checked (`custody::log`, the "Custody log" view's command).

use std::path::Path;
use std::sync::Arc;

use sightline_core::custody;
use sightline_core::environment::Environment;
use sightline_core::investigations;
use sightline_core::keychain::MemoryStore;
use sightline_core::signing;
use sightline_core::state::AppState;
use sightline_store::custody::{ChainCheck, CustodyAction};
use sightline_store::InvestigationChanges;

fn app(dir: &Path) -> AppState {
    let secrets = Arc::new(MemoryStore::default());
    AppState::new(dir.to_owned(), Environment::default(), secrets).unwrap()
}

#[tokio::test]
async fn the_collector_from_settings_names_each_entry_and_a_rotation_reaches_every_log() {
    let dir = tempfile::tempdir().unwrap();
    let state = app(dir.path());
    let store = state.store().await.unwrap();
    let harbour = investigations::create(&store, "Harbour", "")
        .await
        .unwrap()
        .id;
    let quay = investigations::create(&store, "Quay", "").await.unwrap().id;
    investigations::archive(&store, quay, true).await.unwrap();

    signing::set_collector(&state, Some("  Jane Doe ".into()))
        .await
        .unwrap();
    let rename = InvestigationChanges {
        name: Some("Harbour fire".into()),
        ..InvestigationChanges::default()
    };
    investigations::update(&store, harbour, &rename)
        .await
        .unwrap();

    let first = signing::identity(&state).await.unwrap().current.fingerprint;
    let rotated = signing::rotate(&state).await.unwrap();
    let new = rotated.current.fingerprint;
    assert_ne!(first, new);

    let entry = custody::record(
        &store,
        harbour,
        CustodyAction::BundleExported,
        vec!["file:harbour.zip".into()],
        "12 posts",
    )
    .await
    .unwrap();
    assert_eq!(entry.collector, "Jane Doe");

    let log = custody::log(&store, harbour).await.unwrap();
    let actions: Vec<_> = log.entries.iter().map(|e| e.action).collect();
    assert_eq!(
        actions,
        [
            CustodyAction::Created,
            CustodyAction::Renamed,
            CustodyAction::KeyRotated,
            CustodyAction::BundleExported
        ]
    );
    assert_eq!(log.entries[0].collector, "", "nobody was named yet");
    assert_eq!(log.entries[1].collector, "Jane Doe");
    let rotation = &log.entries[2];
    assert_eq!(rotation.ids, [format!("key:{new}")]);
    assert_eq!(
        rotation.detail,
        format!("signing key {first} replaced by {new}")
    );
    assert_eq!(
        log.check,
        ChainCheck::Unbroken {
            head_hash: log.entries[3].hash.clone(),
            count: 4
        }
    );
    assert!(log
        .check_words
        .starts_with("The custody log's chain is unbroken: 4 entries"));

    // The archived investigation's log has it too: its next export is signed by the new key.
    let archived = custody::log(&store, quay).await.unwrap();
    let last = archived.entries.last().unwrap();
    assert_eq!(last.action, CustodyAction::KeyRotated);
    assert_eq!(last.ids, rotation.ids);

    // A name cleared in Settings: entries name nobody again.
    signing::set_collector(&state, None).await.unwrap();
    investigations::archive(&store, harbour, true)
        .await
        .unwrap();
    let log = custody::log(&store, harbour).await.unwrap();
    assert_eq!(log.entries.last().unwrap().collector, "");
}

#[tokio::test]
async fn a_deleted_investigations_log_is_still_read_and_a_record_for_it_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let state = app(dir.path());
    let store = state.store().await.unwrap();
    let id = investigations::create(&store, "Harbour", "")
        .await
        .unwrap()
        .id;
    investigations::delete(&store, id).await.unwrap();
    let log = custody::log(&store, id).await.unwrap();
    assert_eq!(log.entries.len(), 2);
    assert_eq!(log.entries[1].action, CustodyAction::Deleted);
    assert!(log.check.is_unbroken());
    let refused = custody::record(&store, id, CustodyAction::BundleExported, Vec::new(), "").await;
    assert!(refused.is_err());
}
