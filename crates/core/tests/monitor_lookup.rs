//! The two monitor rules the window's commands lean on: one monitor found by its id (or "no
//! longer exists"), and what the window is told when monitors change (which one, and the unseen
//! counts as they stand).

use sightline_api::request::TwitterSearchRequest;
use sightline_core::errors::CommandError;
use sightline_core::monitors::{self, MonitorDraft, MonitorTarget};
use sightline_store::Store;

fn draft(name: &str) -> MonitorDraft {
    MonitorDraft {
        name: name.into(),
        target: MonitorTarget::Search {
            request: TwitterSearchRequest::new(format!("#{name}")),
        },
        interval_minutes: 15,
        cap: 20,
        investigation_id: None,
    }
}

#[tokio::test]
async fn a_monitor_is_found_by_its_id_and_a_deleted_one_is_gone() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("sightline.db")).await.unwrap();
    let floods = monitors::create(&store, &draft("floods")).await.unwrap();
    let fires = monitors::create(&store, &draft("fires")).await.unwrap();

    assert_eq!(monitors::get(&store, fires.id).await.unwrap().name, "fires");
    assert_eq!(
        monitors::get(&store, floods.id).await.unwrap().name,
        "floods"
    );

    monitors::delete(&store, floods.id).await.unwrap();
    let gone = monitors::get(&store, floods.id).await.unwrap_err();
    assert!(matches!(gone, CommandError::NotFound { .. }), "{gone:?}");
    assert_eq!(gone.message(), "That monitor no longer exists.");
}

#[tokio::test]
async fn a_change_names_the_monitor_and_the_unseen_counts_now() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("sightline.db")).await.unwrap();
    let floods = monitors::create(&store, &draft("floods")).await.unwrap();

    let one = monitors::changed(&store, Some(floods.id)).await.unwrap();
    assert_eq!(one.monitor_id, Some(floods.id));
    assert_eq!(one.unseen, monitors::unseen(&store).await.unwrap());
    assert_eq!(one.unseen.total, 0);

    let several = monitors::changed(&store, None).await.unwrap();
    assert_eq!(several.monitor_id, None);
}
