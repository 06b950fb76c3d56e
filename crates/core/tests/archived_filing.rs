//! One rule for archived investigations, on every way a request is filed: nothing is filed
//! under an archived investigation. The active investigation stops being active when it is
//! archived; a monitor or a collection set to file into one that is archived pauses before it
//! sends anything, saying why in words, and sends (and bills) nothing until the user restores
//! the investigation or chooses another. Against the sandbox on loopback and real SQLite files.

use crate::support::live;

use live::Live;

use crate::support::announce::Recorded;
use crate::support::monitor_runs::run_now;
use chrono::Utc;
use rust_decimal::Decimal;
use sightline_api::request::TwitterSearchRequest;
use sightline_core::collections::{
    self, CollectUntil, CollectionDraft, CollectionSource, Collector,
};
use sightline_core::monitors::{self, Monitor, MonitorDraft, MonitorTarget};
use sightline_sandbox::Sandbox;
use sightline_store::{CollectionState, MonitorState, RunOutcome, Store, Tz};

async fn live() -> Live {
    Live::start(Sandbox::builder().seed(16).faults(true)).await
}

fn watch(tag: &str, investigation_id: Option<i64>) -> MonitorDraft {
    MonitorDraft {
        name: format!("#{tag}"),
        target: MonitorTarget::Search {
            request: TwitterSearchRequest::new(format!("#{tag}")),
        },
        interval_minutes: 15,
        cap: 10,
        investigation_id,
    }
}

async fn filed_requests(store: &Store, investigation: i64) -> i64 {
    store
        .investigation(investigation)
        .await
        .unwrap()
        .unwrap()
        .request_count
}

async fn monitor_now(store: &Store, id: i64) -> Monitor {
    let all = monitors::list(store).await.unwrap();
    all.into_iter().find(|monitor| monitor.id == id).unwrap()
}

async fn ledger_total(store: &Store) -> Decimal {
    let rows = store.ledger(Tz::UTC, None).await.unwrap();
    rows.iter()
        .map(|row| row.cost.expect("a stated cost"))
        .sum()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_active_path_files_nothing_under_an_archived_investigation() {
    let Live {
        sandbox,
        state,
        _data,
    } = live().await;
    let store = state.store().await.unwrap();
    let announce = Recorded::default();
    let case = store
        .create_investigation("Floods", "", Utc::now())
        .await
        .unwrap();
    store.set_active_investigation(Some(case)).await.unwrap();
    let monitor = monitors::create(&store, &watch("AI", None)).await.unwrap();

    // Open: the run's request is filed under the active investigation.
    run_now(&state, &announce, monitor.id, false).await.unwrap();
    assert_eq!(filed_requests(&store, case).await, 1);

    // Archived: it is no longer active, and the next request is filed nowhere.
    store
        .set_investigation_archived(case, true, Utc::now())
        .await
        .unwrap();
    assert_eq!(store.active_investigation().await.unwrap(), None);
    run_now(&state, &announce, monitor.id, false).await.unwrap();
    assert_eq!(sandbox.billed().responses().len(), 2, "both runs were sent");
    assert_eq!(filed_requests(&store, case).await, 1);
    assert_eq!(ledger_total(&store).await, sandbox.billed().total());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_monitor_filing_into_an_archived_investigation_pauses_without_sending() {
    let Live {
        sandbox,
        state,
        _data,
    } = live().await;
    let store = state.store().await.unwrap();
    let announce = Recorded::default();
    let case = store
        .create_investigation("Floods", "", Utc::now())
        .await
        .unwrap();
    let monitor = monitors::create(&store, &watch("AI", Some(case)))
        .await
        .unwrap();

    // Open: the run's request is filed under the monitor's investigation.
    run_now(&state, &announce, monitor.id, false).await.unwrap();
    assert_eq!(filed_requests(&store, case).await, 1);
    assert_eq!(sandbox.billed().responses().len(), 1);

    // Archived: the next run sends nothing, files nothing, and pauses the monitor in words.
    store
        .set_investigation_archived(case, true, Utc::now())
        .await
        .unwrap();
    monitors::resume(&store, monitor.id).await.unwrap();
    run_now(&state, &announce, monitor.id, false).await.unwrap();
    assert_eq!(
        sandbox.billed().responses().len(),
        1,
        "nothing more was sent"
    );
    assert_eq!(filed_requests(&store, case).await, 1);
    let paused = monitor_now(&store, monitor.id).await;
    assert_eq!(paused.state, MonitorState::Paused);
    let reason = paused.state_reason.expect("a reason in words");
    assert!(
        reason.contains("\"Floods\" is archived"),
        "the reason names the investigation: {reason}"
    );
    let log = monitors::runs(&store, monitor.id, 10).await.unwrap();
    assert_eq!(log[0].outcome, RunOutcome::Paused);
    assert_eq!(log[0].requests, 0);
    assert_eq!(log[0].error.as_deref(), Some(reason.as_str()));
    assert!(store.due_monitors(Utc::now()).await.unwrap().is_empty());
    assert_eq!(ledger_total(&store).await, sandbox.billed().total());

    // Restored: resuming runs it again, filed as before.
    store
        .set_investigation_archived(case, false, Utc::now())
        .await
        .unwrap();
    monitors::resume(&store, monitor.id).await.unwrap();
    run_now(&state, &announce, monitor.id, false).await.unwrap();
    assert_eq!(sandbox.billed().responses().len(), 2);
    assert_eq!(filed_requests(&store, case).await, 2);
    let resumed = monitor_now(&store, monitor.id).await;
    assert_eq!(resumed.state, MonitorState::Active);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_collection_filing_into_an_archived_investigation_pauses_without_sending() {
    let Live {
        sandbox,
        state,
        _data,
    } = live().await;
    let store = state.store().await.unwrap();
    let announce = Recorded::default();
    let collector = Collector::default();
    let case = store
        .create_investigation("Floods", "", Utc::now())
        .await
        .unwrap();
    store
        .set_investigation_archived(case, true, Utc::now())
        .await
        .unwrap();
    let draft = CollectionDraft {
        name: String::new(),
        source: CollectionSource::Search {
            request: TwitterSearchRequest::new("#AI"),
        },
        until: CollectUntil::Count { items: 50 },
        investigation_id: Some(case),
    };
    let collection = collections::create(&store, &draft).await.unwrap();
    let after = collections::drive(&state, &collector, &announce, collection.id, false)
        .await
        .unwrap();
    assert_eq!(after.state, CollectionState::Paused);
    let reason = after.stop_reason.expect("a reason in words");
    assert!(reason.contains("\"Floods\" is archived"), "{reason}");
    assert_eq!(sandbox.billed().responses().len(), 0, "nothing was sent");
    assert_eq!(filed_requests(&store, case).await, 0);
    let log = collections::runs(&store, collection.id, 10).await.unwrap();
    assert_eq!(log[0].outcome, RunOutcome::Paused);

    // Restored: it pages on, each page filed.
    store
        .set_investigation_archived(case, false, Utc::now())
        .await
        .unwrap();
    let done = collections::drive(&state, &collector, &announce, collection.id, false)
        .await
        .unwrap();
    assert_eq!(done.state, CollectionState::Done);
    let sent = sandbox.billed().responses().len() as i64;
    assert!(sent >= 1);
    assert_eq!(filed_requests(&store, case).await, sent);
    assert_eq!(ledger_total(&store).await, sandbox.billed().total());
}
