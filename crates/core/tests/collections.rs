//! Long collections against the sandbox on loopback and real SQLite files: a collection of
//! 300 posts paused, then resumed by a fresh app on the same data folder (a restart), ends with
//! exactly the posts the sandbox served, each once, every page billed once and on the ledger;
//! one cut again and again mid-page (the future dropped, as by a crash) still ends with each
//! post once; the budget stops it with its reason and nothing billed; the draft's rules.

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use crate::support::announce::Recorded;
use rust_decimal::Decimal;
use sightline_api::request::{TwitterRetweetersRequest, TwitterSearchRequest};
use sightline_core::collections::{
    self, CollectUntil, CollectionDraft, CollectionSource, Collector,
};
use sightline_core::environment::Environment;
use sightline_core::keychain::{MemoryStore, SecretStore};
use sightline_core::state::AppState;
use sightline_sandbox::{Fault, Sandbox};
use sightline_store::{
    BudgetLimits, CollectionState, HistoryQuery, RequestStatus, RunOutcome, Store, Tz,
};

async fn sandbox() -> Sandbox {
    Sandbox::builder()
        .seed(16)
        .port(0)
        .pace_ms(0)
        .faults(true)
        .start()
        .await
        .unwrap()
}

/// An app on `data`, as launched: a fresh state and store handle over the same files.
async fn launch(sandbox: &Sandbox, data: &Path, secrets: &Arc<dyn SecretStore>) -> AppState {
    let environment = Environment {
        base_url: Some(sandbox.base_url().into()),
        ..Environment::default()
    };
    AppState::new(data.to_owned(), environment, secrets.clone()).unwrap()
}

fn ai_posts(items: i64) -> CollectionDraft {
    CollectionDraft {
        name: String::new(),
        source: CollectionSource::Search {
            request: TwitterSearchRequest::new("#AI"),
        },
        until: CollectUntil::Count { items },
        investigation_id: None,
    }
}

/// Every post id in the answers History recorded (what the sandbox served and the app kept).
async fn served(store: &Store) -> Vec<String> {
    let query = HistoryQuery {
        limit: 1000,
        ..HistoryQuery::default()
    };
    let mut ids = Vec::new();
    for entry in store.history(&query).await.unwrap() {
        // A 304 re-used the body the service sent before (a page cut after it arrived).
        if !matches!(entry.status, RequestStatus::Ok | RequestStatus::NotModified) {
            continue;
        }
        let body = store.result(entry.id).await.unwrap().unwrap().body;
        let posts: Vec<serde_json::Value> = serde_json::from_str(&body).unwrap();
        ids.extend(
            posts
                .iter()
                .map(|post| post["id"].as_str().unwrap().to_owned()),
        );
    }
    ids
}

async fn ledger_total(store: &Store) -> Decimal {
    let rows = store.ledger(Tz::UTC, None).await.unwrap();
    rows.iter()
        .map(|row| row.cost.expect("a stated cost"))
        .sum()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn paused_then_resumed_after_a_restart_it_ends_with_each_served_post_once() {
    let sandbox = sandbox().await;
    let data = tempfile::tempdir().unwrap();
    let secrets: Arc<dyn SecretStore> = Arc::new(MemoryStore::default());
    let state = Arc::new(launch(&sandbox, data.path(), &secrets).await);
    sightline_core::keys::add(&state, "work", sandbox.demo_key())
        .await
        .unwrap();
    let store = state.store().await.unwrap();
    let collection = collections::create(&store, &ai_posts(300)).await.unwrap();
    assert_eq!(collection.name, "Search: #AI");
    assert_eq!(collection.state, CollectionState::Running);

    // The second page is slow: time to pause while it is on its way.
    sandbox.faults().push("/twitter", Fault::Stall { ms: 0 });
    sandbox.faults().push("/twitter", Fault::Stall { ms: 3000 });
    let collector = Arc::new(Collector::default());
    let announce = Arc::new(Recorded::default());
    let driving = {
        let (state, collector, announce) = (state.clone(), collector.clone(), announce.clone());
        tokio::spawn(async move {
            collections::drive(&state, &collector, announce.as_ref(), collection.id, false).await
        })
    };
    while store
        .collection(collection.id)
        .await
        .unwrap()
        .unwrap()
        .pages
        < 1
    {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Page 1 is saved; give the collector a moment to send page 2 (a pause before that stops
    // it at one page, which a loaded machine once did), then pause while page 2 is stalled.
    tokio::time::sleep(Duration::from_millis(400)).await;
    let asked = collector.pause(&state, collection.id).await.unwrap();
    assert_eq!(
        asked.state,
        CollectionState::Running,
        "it stops after its page"
    );
    let paused = driving.await.unwrap().unwrap();
    assert_eq!(paused.state, CollectionState::Paused);
    assert_eq!(paused.stop_reason.as_deref(), Some("Paused by you."));
    assert_eq!(paused.pages, 2);
    assert!(paused.items < 300);
    let estimate = paused.estimated_to_finish.expect("a rate is learned");
    assert!(estimate > Decimal::ZERO);
    let progress = announce.collections.lock().unwrap().clone();
    assert!(progress
        .iter()
        .any(|c| c.pages == 1 && c.state == CollectionState::Running));

    // A restart: a new app on the same folder resumes from the last page saved.
    drop(state);
    store.close().await;
    let state = launch(&sandbox, data.path(), &secrets).await;
    let store = state.store().await.unwrap();
    assert_eq!(collections::pause_left_running(&store).await.unwrap(), 0);
    let done = collections::drive(
        &state,
        &Collector::default(),
        &Recorded::default(),
        collection.id,
        false,
    )
    .await
    .unwrap();
    assert_eq!(done.state, CollectionState::Done);
    assert_eq!(done.items, 300);

    let served = served(&store).await;
    let distinct: BTreeSet<String> = served.iter().cloned().collect();
    let collected: BTreeSet<String> = store
        .collection_items(collection.id)
        .await
        .unwrap()
        .into_iter()
        .collect();
    assert_eq!(collected, distinct, "exactly the posts served");
    assert_eq!(collected.len(), 300);
    // Each page asked for what was left, plus the one post of the second it continued from.
    assert!(
        served.len() <= 300 + done.pages as usize,
        "{} served",
        served.len()
    );
    assert_eq!(
        sandbox.billed().responses().len() as i64,
        done.pages,
        "each page billed once"
    );
    assert_eq!(ledger_total(&store).await, sandbox.billed().total());
    assert_eq!(done.cost, sandbox.billed().total());
    let runs = collections::runs(&store, collection.id, 10).await.unwrap();
    assert_eq!(
        runs.iter().map(|run| run.outcome).collect::<Vec<_>>(),
        [RunOutcome::Done, RunOutcome::Paused]
    );
    assert_eq!(runs.iter().map(|run| run.new_items).sum::<i64>(), 300);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cut_again_and_again_mid_page_it_still_ends_with_each_post_once() {
    let sandbox = sandbox().await;
    let data = tempfile::tempdir().unwrap();
    let secrets: Arc<dyn SecretStore> = Arc::new(MemoryStore::default());
    let state = launch(&sandbox, data.path(), &secrets).await;
    sightline_core::keys::add(&state, "work", sandbox.demo_key())
        .await
        .unwrap();
    let store = state.store().await.unwrap();
    let collection = collections::create(&store, &ai_posts(250)).await.unwrap();
    drop(state);

    // Each launch gets a little further before the process "dies" (the future is dropped).
    let mut cut = Duration::from_millis(30);
    let done = loop {
        sandbox.faults().push("/twitter", Fault::Stall { ms: 40 });
        let state = launch(&sandbox, data.path(), &secrets).await;
        let (collector, announce) = (Collector::default(), Recorded::default());
        let driving = collections::drive(&state, &collector, &announce, collection.id, false);
        if let Ok(finished) = tokio::time::timeout(cut, driving).await {
            break finished.unwrap();
        }
        // The process is gone: its database connections with it.
        state.store().await.unwrap().close().await;
        cut += Duration::from_millis(20);
        assert!(cut < Duration::from_secs(5), "it never finished");
    };
    assert_eq!(done.state, CollectionState::Done);
    assert_eq!(done.items, 250);
    let collected = store.collection_items(collection.id).await.unwrap();
    let served: BTreeSet<String> = served(&store).await.into_iter().collect();
    assert_eq!(collected.into_iter().collect::<BTreeSet<_>>(), served);
    // A page recorded was never fetched again: each page has one answer in History (the
    // tries cut before theirs arrived are there as interrupted), billed at most once.
    let answered: Vec<String> = store
        .history(&HistoryQuery {
            limit: 1000,
            ..HistoryQuery::default()
        })
        .await
        .unwrap()
        .into_iter()
        .filter(|entry| matches!(entry.status, RequestStatus::Ok | RequestStatus::NotModified))
        .map(|entry| entry.request_id.rsplit_once("-try-").unwrap().0.to_owned())
        .collect();
    let pages: BTreeSet<&String> = answered.iter().collect();
    assert_eq!(answered.len(), pages.len(), "{answered:?}");
    assert_eq!(pages.len() as i64, done.pages);
    assert!(store.ledger(Tz::UTC, None).await.unwrap().len() as i64 <= done.pages);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_budget_stops_it_with_its_reason_and_nothing_billed() {
    let sandbox = sandbox().await;
    let data = tempfile::tempdir().unwrap();
    let secrets: Arc<dyn SecretStore> = Arc::new(MemoryStore::default());
    let state = launch(&sandbox, data.path(), &secrets).await;
    sightline_core::keys::add(&state, "work", sandbox.demo_key())
        .await
        .unwrap();
    let store = state.store().await.unwrap();
    let collector = Collector::default();
    let first = collections::create(&store, &ai_posts(50)).await.unwrap();
    collections::drive(&state, &collector, &Recorded::default(), first.id, false)
        .await
        .unwrap();
    let billed = sandbox.billed().responses().len();

    store
        .set_budget(&BudgetLimits {
            daily: Some(ledger_total(&store).await),
            monthly: None,
            warn_percent: 80,
        })
        .await
        .unwrap();
    let second = collections::create(&store, &ai_posts(500)).await.unwrap();
    let stopped = collections::drive(&state, &collector, &Recorded::default(), second.id, false)
        .await
        .unwrap();
    assert_eq!(stopped.state, CollectionState::StoppedByBudget);
    assert!(stopped.stop_reason.unwrap().contains("over your budget"));
    assert_eq!(stopped.pages, 0);
    assert_eq!(sandbox.billed().responses().len(), billed, "nothing billed");

    // Rules by field: reposters have no dates; a count is from 1.
    let bad = CollectionDraft {
        name: String::new(),
        source: CollectionSource::Reposters {
            request: TwitterRetweetersRequest {
                id: "1".into(),
                cursor: None,
            },
        },
        until: CollectUntil::Date {
            date: "2026-11-01".into(),
        },
        investigation_id: None,
    };
    let error = collections::create(&store, &bad).await.unwrap_err();
    assert!(error.message().contains("without dates"), "{error}");
}
