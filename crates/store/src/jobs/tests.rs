//! Jobs on history rows: accepted with their cost, followed, finished once, resumed after a
//! restart, further charges on the ledger.

use super::*;
use crate::test_support::{billing, temp_store};
use crate::PendingRequest;
use chrono::TimeZone;
use rust_decimal::Decimal;
use std::str::FromStr;

fn at(h: u32, m: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 10, h, m, 0).unwrap()
}

async fn begun(store: &Store, request_id: &str) -> i64 {
    let pending = PendingRequest {
        request_id: request_id.into(),
        started_at: at(9, 0),
        operation: "forecast".into(),
        params_json: r#"{"query":"Will it rain?"}"#.into(),
        key_label: Some("work".into()),
        mode: "live".into(),
    };
    store.begin_request(&pending).await.unwrap().history_id()
}

const ACCEPTED: &str = r#"{"prediction_id":"p-1","status":"PENDING"}"#;
const DONE: &str = r#"{"prediction_id":"p-1","status":"COMPLETED","result":{"prediction":0.25}}"#;

#[tokio::test]
async fn an_accepted_job_keeps_its_id_and_cost_and_survives_a_restart() {
    let (store, dir) = temp_store().await;
    let id = begun(&store, "req-f").await;
    let cost = billing("0.01", 1, "forecast");
    assert!(store
        .accept_job("req-f", Some(&cost), ACCEPTED, None)
        .await
        .unwrap());
    let entry = store.history_entry(id).await.unwrap().unwrap();
    assert_eq!(entry.status, RequestStatus::Running);
    assert_eq!(entry.billing, Some(cost.clone()));
    assert_eq!(store.result(id).await.unwrap().unwrap().body, ACCEPTED);
    let ledger = store.ledger(crate::Tz::UTC, None).await.unwrap();
    assert_eq!(ledger.len(), 1);

    // The app stops: the job stays followed, a stream left running would not.
    store.close().await;
    let store = Store::open(dir.path().join("sightline.db")).await.unwrap();
    let stream = begun(&store, "req-stream").await;
    assert_eq!(store.recover_unfinished().await.unwrap(), 1);
    let stream = store.history_entry(stream).await.unwrap().unwrap();
    assert_eq!(stream.status, RequestStatus::Interrupted);
    let followed = store.followed_jobs("forecast").await.unwrap();
    assert_eq!(followed.len(), 1);
    assert_eq!(followed[0].history_id, id);
    assert_eq!(followed[0].body, ACCEPTED);
}

#[tokio::test]
async fn the_final_answer_finishes_the_row_once() {
    let (store, _dir) = temp_store().await;
    let id = begun(&store, "req-f").await;
    store
        .accept_job("req-f", None, ACCEPTED, None)
        .await
        .unwrap();
    let running = r#"{"prediction_id":"p-1","status":"RUNNING"}"#;
    assert!(store
        .update_job(id, running, &JobState::Open, at(9, 1))
        .await
        .unwrap());
    assert_eq!(store.result(id).await.unwrap().unwrap().body, running);
    assert!(store
        .update_job(id, DONE, &JobState::Completed, at(9, 2))
        .await
        .unwrap());
    // A second final answer (another poller, a resumed one) changes nothing.
    assert!(!store
        .update_job(id, "{}", &JobState::Completed, at(9, 3))
        .await
        .unwrap());
    let entry = store.history_entry(id).await.unwrap().unwrap();
    assert_eq!(entry.status, RequestStatus::Ok);
    assert_eq!(entry.duration_ms, 120_000);
    assert_eq!(entry.result_count, 1);
    assert_eq!(store.result(id).await.unwrap().unwrap().body, DONE);
    assert!(store.followed_jobs("forecast").await.unwrap().is_empty());
    // A job never accepted cannot be accepted once finished.
    assert!(!store
        .accept_job("req-f", None, ACCEPTED, None)
        .await
        .unwrap());
}

#[tokio::test]
async fn a_failed_job_is_an_error_with_the_services_words() {
    let (store, _dir) = temp_store().await;
    let id = begun(&store, "req-f").await;
    store
        .accept_job("req-f", None, ACCEPTED, None)
        .await
        .unwrap();
    let failed = JobState::Failed {
        message: "No forecaster answered.".into(),
    };
    store.update_job(id, "{}", &failed, at(9, 1)).await.unwrap();
    let entry = store.history_entry(id).await.unwrap().unwrap();
    assert_eq!(entry.status, RequestStatus::Error);
    assert_eq!(entry.error_class.as_deref(), Some(JOB_FAILED_CLASS));
    assert_eq!(
        entry.error_message.as_deref(),
        Some("No forecaster answered.")
    );
}

#[tokio::test]
async fn a_billed_poll_adds_its_own_ledger_row_exactly() {
    let (store, _dir) = temp_store().await;
    let id = begun(&store, "req-f").await;
    store
        .accept_job(
            "req-f",
            Some(&billing("0.01", 1, "forecast")),
            ACCEPTED,
            None,
        )
        .await
        .unwrap();
    store
        .add_charge(id, &billing("0.0001", 1, "forecast"))
        .await
        .unwrap();
    let entry = store.history_entry(id).await.unwrap().unwrap();
    let total = entry.billing.unwrap();
    assert_eq!(total.cost, Decimal::from_str("0.0101").ok());
    assert_eq!(total.usage_count, 2);
    let ledger = store.ledger(crate::Tz::UTC, None).await.unwrap();
    assert_eq!(ledger.len(), 2);
    assert!(ledger.iter().all(|row| row.history_id == Some(id)));
    assert!(store
        .add_charge(9999, &billing("0.01", 1, "x"))
        .await
        .is_err());
}
