//! The two monitor rules the window's commands lean on: one monitor found by its id (or "no
//! longer exists"), and what the window is told when monitors change (which one, and the unseen
//! counts as they stand), for each change the user makes (`monitors::changes`).

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

/// Which monitor each change told the window of (`None`: several).
fn told<T>(change: &monitors::changes::Changed<T>) -> Option<i64> {
    change.told.as_ref().expect("the window is told").monitor_id
}

#[tokio::test]
async fn each_change_the_user_makes_tells_the_window_which_monitor_and_the_counts() {
    use monitors::changes;
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("sightline.db")).await.unwrap();
    let created = changes::create(&store, &draft("floods")).await.unwrap();
    let id = created.answer.id;
    assert_eq!(told(&created), Some(id));

    let updated = changes::update(&store, id, &draft("fires")).await.unwrap();
    assert_eq!(
        (updated.answer.name.as_str(), told(&updated)),
        ("fires", Some(id))
    );
    assert_eq!(told(&changes::pause(&store, id).await.unwrap()), Some(id));
    assert_eq!(told(&changes::resume(&store, id).await.unwrap()), Some(id));
    assert_eq!(told(&changes::skip(&store, id).await.unwrap()), Some(id));
    let seen = changes::mark_seen(&store, id, None).await.unwrap();
    assert_eq!(told(&seen), Some(id));
    assert_eq!(
        seen.told.as_ref().unwrap().unseen,
        seen.answer,
        "the counts as they stand"
    );

    let all = changes::mark_all_seen(&store).await.unwrap();
    assert_eq!(told(&all), None, "every monitor changed");
    assert_eq!(all.told.as_ref().unwrap().unseen, all.answer);

    assert_eq!(told(&changes::delete(&store, id).await.unwrap()), Some(id));
    // A change refused tells the window nothing: it is an error.
    let gone = changes::pause(&store, id).await.unwrap_err();
    assert!(matches!(gone, CommandError::NotFound { .. }), "{gone:?}");
}
