//! Recording requests: one transaction, once per request id, streams begun and finished,
//! billing recorded early, recovery after a crash, a full disk.

use super::*;
use crate::history::HistoryQuery;
use crate::test_support::{billing, link, nearly_full_store, post, record, temp_store};
use chrono::TimeZone;

fn at(h: u32, m: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 10, h, m, 0).unwrap()
}

/// A live request of `operation` about to be sent with key "work".
fn pending(request_id: &str, started_at: DateTime<Utc>, operation: &str) -> PendingRequest {
    PendingRequest {
        request_id: request_id.into(),
        started_at,
        operation: operation.into(),
        params_json: "{}".into(),
        key_label: Some("work".into()),
        mode: "live".into(),
    }
}

#[tokio::test]
async fn records_and_reopens_a_result_exactly() {
    let (store, _dir) = temp_store().await;
    let mut r = record("req-1", at(9, 0));
    r.billing = Some(billing("0.006", 20, "x"));
    r.result_count = 20;
    let out = store.record_request(&r).await.unwrap();
    let RecordOutcome::Recorded { history_id } = out else {
        panic!("expected a new row, got {out:?}")
    };
    let reopened = store.result(history_id).await.unwrap().unwrap();
    assert_eq!(reopened.body, r#"[{"id":"1"}]"#);
    assert_eq!(reopened.entry.request_id, "req-1");
    assert_eq!(reopened.entry.started_at, at(9, 0));
    assert_eq!(reopened.entry.billing, Some(billing("0.006", 20, "x")));
    assert_eq!(reopened.entry.key_label.as_deref(), Some("work"));
    assert!(reopened.entry.has_result);
}

#[tokio::test]
async fn a_full_disk_keeps_the_row_and_its_cost_without_the_result() {
    let dir = tempfile::tempdir().unwrap();
    let store = nearly_full_store(dir.path(), 24).await;
    let mut r = record("req-full", at(9, 0));
    r.billing = Some(billing("0.012", 40, "x"));
    r.result_count = 40;
    // 2 MB of answer and forty posts cannot fit in 24 more pages.
    r.result_json = Some(format!(r#"{{"tweets":"{}"}}"#, "x".repeat(2_000_000)));
    r.posts = (0..40)
        .map(|i| post(&format!("p{i}"), "flood warning", at(8, 0)))
        .collect();

    let error = store.write_request(&r, &[]).await.unwrap_err();
    assert!(error.is_disk_full(), "{error}");
    let out = store.record_request(&r).await.unwrap();
    let RecordOutcome::RecordedWithoutResult { history_id } = out else {
        panic!("expected the row without its result, got {out:?}")
    };
    let entry = &store.history(&HistoryQuery::default()).await.unwrap()[0];
    assert_eq!(entry.id, history_id);
    assert_eq!(entry.status, RequestStatus::Ok);
    assert_eq!(entry.error_class.as_deref(), Some(DISK_FULL_CLASS));
    assert_eq!(entry.billing, Some(billing("0.012", 40, "x")));
    assert!(!entry.has_result);
    let totals = store.spend_totals(chrono_tz::UTC, at(12, 0)).await.unwrap();
    assert_eq!(totals.all_time.to_string(), "0.012");
    assert!(store.result(history_id).await.unwrap().is_none());
    assert_eq!(store.integrity_check().await.unwrap(), ["ok"]);

    // A failure with nothing to leave out is not retried: the error reaches the caller.
    let mut tiny = record("req-tiny", at(9, 5));
    tiny.result_json = None;
    tiny.params_json = format!(r#"{{"query":"{}"}}"#, "y".repeat(2_000_000));
    let error = store.record_request(&tiny).await.unwrap_err();
    assert!(error.is_disk_full(), "{error}");

    // A failed commit leaves no transaction behind on the (only) connection: the next
    // write that fits goes through.
    let mut small = record("req-small", at(9, 10));
    small.billing = Some(billing("0.001", 1, "x"));
    let out = store.record_request(&small).await.unwrap();
    assert!(matches!(out, RecordOutcome::Recorded { .. }), "{out:?}");
    let totals = store.spend_totals(chrono_tz::UTC, at(12, 0)).await.unwrap();
    assert_eq!(totals.all_time.to_string(), "0.013");
}

#[tokio::test]
async fn a_repeated_request_id_is_not_recorded_twice() {
    let (store, _dir) = temp_store().await;
    let mut r = record("same", at(9, 0));
    r.billing = Some(billing("0.004", 1, "ai"));
    let first = store.record_request(&r).await.unwrap();
    let second = store.record_request(&r).await.unwrap();
    assert_eq!(
        second,
        RecordOutcome::AlreadyRecorded {
            history_id: first.history_id()
        }
    );
    assert_eq!(
        store.history_count(&HistoryQuery::default()).await.unwrap(),
        1
    );
    let ledger_rows: i64 = sqlx::query_scalar("SELECT count(*) FROM ledger")
        .fetch_one(&store.pool)
        .await
        .unwrap();
    assert_eq!(ledger_rows, 1, "money must not be counted twice");
}

#[tokio::test]
async fn begin_then_finish_a_cancelled_stream_keeps_partial_results() {
    let (store, _dir) = temp_store().await;
    let pending = PendingRequest {
        params_json: r#"{"prompt":"x","streaming":true}"#.into(),
        ..pending("stream-1", at(10, 0), "ai_search")
    };
    let begun = store.begin_request(&pending).await.unwrap();
    assert!(matches!(begun, RecordOutcome::Recorded { .. }));
    // A replay of the same command must learn the id is taken.
    assert_eq!(
        store.begin_request(&pending).await.unwrap(),
        RecordOutcome::AlreadyRecorded {
            history_id: begun.history_id()
        }
    );
    let running = store
        .history_entry(begun.history_id())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(running.status, RequestStatus::Running);

    let mut done = record("stream-1", at(10, 0));
    done.operation = "ai_search".into();
    done.status = RequestStatus::Cancelled;
    done.result_json = Some(r#"{"search":[{"title":"t"}]}"#.into());
    done.billing = Some(billing("0.004", 1, "ai"));
    let finished = store.record_request(&done).await.unwrap();
    assert_eq!(
        finished,
        RecordOutcome::Recorded {
            history_id: begun.history_id()
        }
    );
    let reopened = store.result(begun.history_id()).await.unwrap().unwrap();
    assert_eq!(reopened.entry.status, RequestStatus::Cancelled);
    assert_eq!(reopened.body, r#"{"search":[{"title":"t"}]}"#);
    // Finishing again is refused.
    assert!(matches!(
        store.record_request(&done).await.unwrap(),
        RecordOutcome::AlreadyRecorded { .. }
    ));
}

#[tokio::test]
async fn unfinished_requests_are_marked_interrupted_on_recovery() {
    let (store, _dir) = temp_store().await;
    let pending = pending("crashed", at(11, 0), "ai_search");
    let id = store.begin_request(&pending).await.unwrap().history_id();
    assert_eq!(store.recover_unfinished().await.unwrap(), 1);
    let entry = store.history_entry(id).await.unwrap().unwrap();
    assert_eq!(entry.status, RequestStatus::Interrupted);
    assert!(entry.error_message.is_some());
    assert_eq!(store.recover_unfinished().await.unwrap(), 0);
}

/// A request closed as interrupted by a start-up's recovery (another run of the app opened the
/// file while it was on its way) whose answer comes after all: the answer is paid for, so it
/// finishes the row with its status, result, cost and posts instead of being dropped.
#[tokio::test]
async fn an_answer_that_comes_after_recovery_finishes_its_request() {
    let (store, _dir) = temp_store().await;
    let pending = pending("late", at(11, 30), "twitter_search");
    let id = store.begin_request(&pending).await.unwrap().history_id();
    assert_eq!(store.recover_unfinished().await.unwrap(), 1);

    let mut answer = record("late", at(11, 30));
    answer.billing = Some(billing("0.006", 20, "x"));
    answer.result_count = 1;
    answer.posts = vec![post("p-late", "flood warning", at(11, 0))];
    assert_eq!(
        store.record_request(&answer).await.unwrap(),
        RecordOutcome::Recorded { history_id: id }
    );
    let finished = store.result(id).await.unwrap().unwrap();
    assert_eq!(finished.entry.status, RequestStatus::Ok);
    assert_eq!(finished.entry.error_class, None);
    assert_eq!(finished.entry.error_message, None);
    assert_eq!(finished.entry.duration_ms, 420);
    assert_eq!(finished.entry.billing, Some(billing("0.006", 20, "x")));
    assert_eq!(finished.body, r#"[{"id":"1"}]"#);
    let totals = store.spend_totals(chrono_tz::UTC, at(12, 0)).await.unwrap();
    assert_eq!(totals.all_time.to_string(), "0.006");
    let found = store
        .posts(&crate::PostQuery {
            history_ids: vec![id],
            ..crate::PostQuery::default()
        })
        .await
        .unwrap();
    assert_eq!(found.len(), 1);

    // Finished now: a second record, or a later recovery, leaves it as it is.
    assert_eq!(
        store.record_request(&answer).await.unwrap(),
        RecordOutcome::AlreadyRecorded { history_id: id }
    );
    assert_eq!(store.recover_unfinished().await.unwrap(), 0);
    let totals = store.spend_totals(chrono_tz::UTC, at(12, 0)).await.unwrap();
    assert_eq!(totals.all_time.to_string(), "0.006", "paid once");
}

/// A request the app itself finished as interrupted (a cut stream keeping what arrived) is
/// finished: recording its id again changes nothing.
#[tokio::test]
async fn a_request_finished_as_interrupted_is_not_written_again() {
    let (store, _dir) = temp_store().await;
    let mut cut = record("cut", at(11, 45));
    cut.status = RequestStatus::Interrupted;
    cut.error_message = Some("The stream was cut.".into());
    let id = store.record_request(&cut).await.unwrap().history_id();
    let again = RequestRecord {
        status: RequestStatus::Ok,
        error_message: None,
        ..cut
    };
    assert_eq!(
        store.record_request(&again).await.unwrap(),
        RecordOutcome::AlreadyRecorded { history_id: id }
    );
    let entry = store.history_entry(id).await.unwrap().unwrap();
    assert_eq!(entry.status, RequestStatus::Interrupted);
}

#[tokio::test]
async fn stream_billing_recorded_at_start_is_counted_once_and_survives_a_crash() {
    let (store, _dir) = temp_store().await;
    let pending = pending("s", at(12, 0), "ai_search");
    assert!(!store
        .record_billing("s", &billing("0.004", 1, "ai"))
        .await
        .unwrap());
    let id = store.begin_request(&pending).await.unwrap().history_id();
    assert!(store
        .record_billing("s", &billing("0.004", 1, "ai"))
        .await
        .unwrap());
    let ledger = || async {
        sqlx::query_as::<_, (i64, i64)>("SELECT count(*), COALESCE(sum(cost_nanos), 0) FROM ledger")
            .fetch_one(&store.pool)
            .await
            .unwrap()
    };
    // Recorded twice (e.g. a retried event): still one ledger row.
    store
        .record_billing("s", &billing("0.004", 1, "ai"))
        .await
        .unwrap();
    assert_eq!(ledger().await, (1, 4_000_000));

    // The app dies here; on restart the row is interrupted but the money is kept.
    store.recover_unfinished().await.unwrap();
    let entry = store.history_entry(id).await.unwrap().unwrap();
    assert_eq!(entry.status, RequestStatus::Interrupted);
    assert_eq!(entry.billing, Some(billing("0.004", 1, "ai")));
    assert_eq!(ledger().await, (1, 4_000_000));

    // Or, without a crash, finishing with or without billing never adds it twice.
    let pending2 = PendingRequest {
        request_id: "s2".into(),
        ..pending
    };
    let id2 = store.begin_request(&pending2).await.unwrap().history_id();
    store
        .record_billing("s2", &billing("0.004", 1, "ai"))
        .await
        .unwrap();
    let mut done = record("s2", at(12, 0));
    done.billing = None;
    done.status = RequestStatus::Cancelled;
    store.record_request(&done).await.unwrap();
    assert_eq!(ledger().await, (2, 8_000_000));
    let entry = store.history_entry(id2).await.unwrap().unwrap();
    assert_eq!(entry.billing, Some(billing("0.004", 1, "ai")));
}

#[tokio::test]
async fn running_status_is_refused_for_finished_records() {
    let (store, _dir) = temp_store().await;
    let mut r = record("r", at(9, 0));
    r.status = RequestStatus::Running;
    assert!(matches!(
        store.record_request(&r).await,
        Err(StoreError::InvalidInput(_))
    ));
}

#[tokio::test]
async fn a_cost_past_nine_decimals_is_recorded_not_refused() {
    let (store, _dir) = temp_store().await;
    let mut r = record("r", at(9, 0));
    r.billing = Some(billing("0.0000000015", 1, "x"));
    store.record_request(&r).await.unwrap();
    let entry = store.history_by_request_id("r").await.unwrap().unwrap();
    let cost = entry.billing.unwrap().cost.unwrap();
    assert_eq!(
        cost.to_string(),
        "0.000000002",
        "half-even to the nano-dollar"
    );
}

#[tokio::test]
async fn a_failure_midway_leaves_no_partial_rows() {
    let (store, _dir) = temp_store().await;
    // Make the very last write of a record fail, after history, result, ledger and posts.
    sqlx::query(
        "CREATE TRIGGER fail_last BEFORE INSERT ON link_sightings
         BEGIN SELECT RAISE(ABORT, 'injected failure'); END",
    )
    .execute(&store.pool)
    .await
    .unwrap();
    let mut r = record("r", at(9, 0));
    r.billing = Some(billing("0.004", 1, "ai"));
    r.posts = vec![post("p1", "hello", at(8, 0))];
    r.links = vec![link("https://example.org/a")];
    let err = store.record_request(&r).await.unwrap_err();
    assert!(err.to_string().contains("injected failure"), "{err}");
    let counts: (i64, i64, i64, i64) = sqlx::query_as(
        "SELECT (SELECT count(*) FROM history), (SELECT count(*) FROM ledger),
                (SELECT count(*) FROM results), (SELECT count(*) FROM posts)",
    )
    .fetch_one(&store.pool)
    .await
    .unwrap();
    assert_eq!(counts, (0, 0, 0, 0));
}
