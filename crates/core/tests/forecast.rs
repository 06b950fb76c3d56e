//! Forecasts without a window, against a sandbox on loopback and real SQLite files: asked and
//! billed once, followed to the answer, stopped without losing the job, resumed after a restart
//! and recorded once.

use crate::support::send;

use send::send;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use sightline_api::model::ForecastState;
use sightline_api::request::ForecastRequest;
use sightline_core::environment::Environment;
use sightline_core::errors::CommandError;
use sightline_core::forecast::{self, Backoff, Following, ForecastUpdate, OnUpdate};
use sightline_core::keychain::{MemoryStore, SecretStore};
use sightline_core::state::AppState;
use sightline_sandbox::Sandbox;
use sightline_store::RequestStatus;

const FAST: Backoff = Backoff {
    first: Duration::from_millis(50),
    max: Duration::from_millis(200),
};

async fn sandbox(job: Duration) -> Sandbox {
    Sandbox::builder()
        .seed(9)
        .pace_ms(0)
        .forecast_duration(job)
        .start()
        .await
        .unwrap()
}

async fn app(sandbox: &Sandbox, data: &std::path::Path, secrets: Arc<dyn SecretStore>) -> AppState {
    let environment = Environment {
        base_url: Some(sandbox.base_url().into()),
        ..Environment::default()
    };
    let state = AppState::new(data.to_owned(), environment, secrets).unwrap();
    if state.keys().active.is_none() {
        sightline_core::keys::add(&state, "work", sandbox.demo_key())
            .await
            .unwrap();
    }
    state
}

/// Every update, kept for the test to read.
fn recorder() -> (OnUpdate, Arc<Mutex<Vec<ForecastUpdate>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let sink = seen.clone();
    let on_update: OnUpdate = Arc::new(move |update| sink.lock().unwrap().push(update));
    (on_update, seen)
}

fn question() -> ForecastRequest {
    ForecastRequest {
        query: Some("Will the EU adopt the flood directive before March 2027?".into()),
        ..ForecastRequest::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forecast_is_billed_once_followed_to_its_answer_and_reopens_offline() {
    let sb = sandbox(Duration::from_millis(400)).await;
    let data = tempfile::tempdir().unwrap();
    let state = app(&sb, data.path(), Arc::new(MemoryStore::default())).await;
    let session = state.session().await.unwrap();

    let (started, key) = forecast::ask(&state, &session, &question(), send("f-1"))
        .await
        .unwrap();
    assert_eq!(started.billing.as_ref().unwrap().cost_words(), "0.01");
    // The job's id is on disk before anything polls.
    let row = session
        .store
        .history_entry(started.history_id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(row.status, RequestStatus::Running);
    let stored = session
        .store
        .result(started.history_id)
        .await
        .unwrap()
        .unwrap();
    assert!(stored.body.contains(&started.prediction_id));

    let following = Arc::new(Following::default());
    let (on_update, seen) = recorder();
    let task = forecast::follow(
        session.clone(),
        key,
        following.clone(),
        started.history_id,
        started.prediction_id.clone(),
        FAST,
        on_update,
    )
    .unwrap();
    tokio::time::timeout(Duration::from_secs(10), task)
        .await
        .expect("polling stops once the job ends")
        .unwrap();
    assert!(!following.is_following(started.history_id));

    let seen = seen.lock().unwrap().clone();
    let last = seen.last().unwrap();
    assert_eq!(last.status, ForecastState::Completed);
    assert!(!last.following);
    assert!(seen.iter().any(|u| u.status == ForecastState::Running));
    let p = last
        .job
        .as_ref()
        .unwrap()
        .result
        .as_ref()
        .unwrap()
        .prediction;

    let row = session
        .store
        .result(started.history_id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(row.entry.status, RequestStatus::Ok);
    assert!(row.body.contains("\"COMPLETED\""));
    assert!(row.body.contains(&p.to_string()));
    let ledger = session
        .store
        .ledger(sightline_store::Tz::UTC, None)
        .await
        .unwrap();
    assert_eq!(ledger.len(), 1, "the POST only");
    assert_eq!(sb.billed().responses().len(), 1);

    // The same request id again sends nothing and names the same forecast.
    let (again, _) = forecast::ask(&state, &session, &question(), send("f-1"))
        .await
        .unwrap();
    assert_eq!(again.history_id, started.history_id);
    assert_eq!(again.prediction_id, started.prediction_id);
    assert_eq!(sb.billed().responses().len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_questions_and_refused_asks_are_plain_errors() {
    let sb = sandbox(Duration::from_millis(400)).await;
    let data = tempfile::tempdir().unwrap();
    let state = app(&sb, data.path(), Arc::new(MemoryStore::default())).await;
    let session = state.session().await.unwrap();
    let past = ForecastRequest {
        title: Some("Flood directive adopted".into()),
        cutoff: Some("2020-01-01T00:00:00Z".into()),
        ..ForecastRequest::default()
    };
    let err = forecast::ask(&state, &session, &past, send("bad"))
        .await
        .unwrap_err();
    let CommandError::Invalid { fields, .. } = err else {
        panic!("expected a field error, got {err:?}");
    };
    assert_eq!(fields[0].field, "cutoff");
    assert!(sb.billed().responses().is_empty());
    assert!(session
        .store
        .history_by_request_id("bad")
        .await
        .unwrap()
        .is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_job_stays_pending_and_a_restart_resumes_it_and_records_it_once() {
    let sb = sandbox(Duration::from_millis(1500)).await;
    let data = tempfile::tempdir().unwrap();
    let secrets: Arc<dyn SecretStore> = Arc::new(MemoryStore::default());
    let history_id = {
        let state = app(&sb, data.path(), secrets.clone()).await;
        let session = state.session().await.unwrap();
        let (started, key) = forecast::ask(&state, &session, &question(), send("f-restart"))
            .await
            .unwrap();
        let following = Arc::new(Following::default());
        let (on_update, seen) = recorder();
        let task = forecast::follow(
            session.clone(),
            key,
            following.clone(),
            started.history_id,
            started.prediction_id,
            FAST,
            on_update,
        )
        .unwrap();
        // Watch it start, then stop following, as closing the app would.
        tokio::time::sleep(Duration::from_millis(150)).await;
        assert!(following.stop(started.history_id));
        tokio::time::timeout(Duration::from_secs(2), task)
            .await
            .expect("a stop ends the follower")
            .unwrap();
        assert!(!seen.lock().unwrap().last().unwrap().following);
        let row = session
            .store
            .history_entry(started.history_id)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(row.status, RequestStatus::Running, "stopping loses nothing");
        session.store.close().await;
        started.history_id
    };

    // The next start: the store's recovery leaves the job running, and every such job is
    // followed again — twice over here, as two windows might, and still recorded once.
    let state = app(&sb, data.path(), secrets).await;
    let following = Arc::new(Following::default());
    let (on_update, seen) = recorder();
    let resumed = forecast::resume_all(&state, following.clone(), FAST, on_update.clone())
        .await
        .unwrap();
    assert_eq!(resumed, 1);
    let again = forecast::resume_all(&state, following.clone(), FAST, on_update)
        .await
        .unwrap();
    assert_eq!(again, 0, "a job already followed is not followed twice");
    for _ in 0..100 {
        if !following.is_following(history_id) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let store = state.store().await.unwrap();
    let row = store.result(history_id).await.unwrap().unwrap();
    assert!(
        matches!(row.entry.status, RequestStatus::Ok | RequestStatus::Error),
        "{:?}",
        row.entry.status
    );
    let finals = seen
        .lock()
        .unwrap()
        .iter()
        .filter(|u| u.status.is_final())
        .count();
    assert_eq!(finals, 1);
    assert_eq!(
        store
            .ledger(sightline_store::Tz::UTC, None)
            .await
            .unwrap()
            .len(),
        1
    );
    assert_eq!(sb.billed().responses().len(), 1);
    assert!(store.followed_jobs("forecast").await.unwrap().is_empty());
}

/// After a restart, a forecast resumed at start-up is followed: asked to follow it again, the
/// core says so (it does not say the job stopped), and the job is not followed twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn following_again_a_job_resumed_at_start_up_says_it_is_followed() {
    let sb = sandbox(Duration::from_secs(30)).await;
    let data = tempfile::tempdir().unwrap();
    let secrets: Arc<dyn SecretStore> = Arc::new(MemoryStore::default());
    let history_id = {
        let state = app(&sb, data.path(), secrets.clone()).await;
        let session = state.session().await.unwrap();
        let (started, _) = forecast::ask(&state, &session, &question(), send("f-again"))
            .await
            .unwrap();
        session.store.close().await;
        started.history_id
    };

    let state = app(&sb, data.path(), secrets).await;
    let following = Arc::new(Following::default());
    let (on_update, _) = recorder();
    let resumed = forecast::resume_all(&state, following.clone(), FAST, on_update.clone())
        .await
        .unwrap();
    assert_eq!(resumed, 1);
    assert!(following.is_following(history_id));
    let again = forecast::resume(&state, following.clone(), history_id, FAST, on_update)
        .await
        .unwrap();
    assert!(again, "the job is pending and followed");
    assert!(following.is_following(history_id));
    assert!(following.stop(history_id), "one follower, stopped once");
    assert!(!following.stop(history_id));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_demo_mode_a_job_running_when_the_app_closed_finishes_after_it_reopens() {
    let data = tempfile::tempdir().unwrap();
    let demo = || {
        let environment = Environment {
            force_demo: true,
            ..Environment::default()
        };
        AppState::new(
            data.path().to_owned(),
            environment,
            Arc::new(MemoryStore::default()),
        )
        .unwrap()
    };
    let (history_id, first_url) = {
        let state = demo();
        let session = state.session().await.unwrap();
        let (started, _key) = forecast::ask(&state, &session, &question(), send("demo-restart"))
            .await
            .unwrap();
        assert!(data
            .path()
            .join(sightline_core::session::DEMO_JOBS_FILE)
            .exists());
        let url = session.client.config().base_url.to_string();
        session.store.close().await;
        // The app closes mid-job: its demo service stops with it.
        (started.history_id, url)
    };

    let state = demo();
    let following = Arc::new(Following::default());
    let (on_update, seen) = recorder();
    let resumed = forecast::resume_all(&state, following.clone(), FAST, on_update)
        .await
        .unwrap();
    assert_eq!(resumed, 1);
    let session = state.session().await.unwrap();
    assert_ne!(
        session.client.config().base_url.to_string(),
        first_url,
        "a new demo service"
    );
    for _ in 0..200 {
        if !following.is_following(history_id) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(!following.is_following(history_id), "the job ended");

    let seen = seen.lock().unwrap().clone();
    let finals: Vec<_> = seen.iter().filter(|u| u.status.is_final()).collect();
    assert_eq!(finals.len(), 1, "{seen:?}");
    let job = finals[0]
        .job
        .as_ref()
        .expect("the new service knew the job");
    assert_eq!(job.prediction_id, finals[0].prediction_id);
    let row = session.store.result(history_id).await.unwrap().unwrap();
    assert!(
        matches!(row.entry.status, RequestStatus::Ok | RequestStatus::Error),
        "{:?}",
        row.entry.status
    );
    assert!(
        !row.entry
            .error_message
            .unwrap_or_default()
            .contains("no longer knows"),
        "the job was not lost"
    );
    let ledger = session
        .store
        .ledger(sightline_store::Tz::UTC, None)
        .await
        .unwrap();
    assert_eq!(ledger.len(), 1, "billed once, for the POST");
}
