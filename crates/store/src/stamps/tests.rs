//! The stamp queue against real SQLite files: queued with the capture's record, the next due
//! row, stored tokens never edited, a failure's hold on every waiting capture, and "Stamp now"
//! for an investigation's captures.

use std::collections::BTreeMap;

use chrono::{DateTime, TimeZone, Utc};
use sha2::{Digest, Sha256};

use super::*;
use crate::investigations::InvestigationItem;
use crate::test_support::{post, record, temp_store};
use crate::NewProvenance;

const TSA: &str = "http://127.0.0.1:3180/tsr";

fn at(minute: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 27, 21, minute, 0).unwrap()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A capture of `body` at `when`, queued for `stamp_with` when it is set; its history id.
async fn capture(
    store: &Store,
    id: &str,
    body: &str,
    when: DateTime<Utc>,
    stamp_with: Option<&str>,
) -> i64 {
    let mut r = record(id, when);
    r.posts = vec![post(&format!("p-{id}"), body, when)];
    r.provenance = Some(NewProvenance {
        captured_at: when,
        service_url: "http://127.0.0.1:8787".into(),
        response_url: "http://127.0.0.1:8787/twitter/search".into(),
        http_status: 200,
        billing_headers: BTreeMap::new(),
        response_headers: None,
        app_version: "0.1.0".into(),
        sha256: hex(&Sha256::digest(body.as_bytes())),
        body: body.as_bytes().to_vec(),
        from_cache: false,
        stamp_with: stamp_with.map(str::to_owned),
    });
    store.record_request(&r).await.unwrap().history_id()
}

fn token(minute: u32) -> NewStampToken {
    NewStampToken {
        reply_der: vec![0x30, 0x03, 0x02, 0x01, minute as u8],
        stamped_at: at(minute),
        authority: "CN=Test TSA".into(),
        certificates_pem: "-----BEGIN CERTIFICATE-----\n...\n".into(),
    }
}

async fn state(store: &Store, id: i64) -> StampState {
    store.capture_stamps(&[id]).await.unwrap().remove(0).stamp
}

#[tokio::test]
async fn a_capture_recorded_while_a_tsa_is_set_is_queued_with_it_and_others_are_not() {
    let (store, _dir) = temp_store().await;
    let queued = capture(&store, "a", "{\"a\":1}", at(1), Some(TSA)).await;
    let plain = capture(&store, "b", "{\"b\":2}", at(2), None).await;

    assert_eq!(
        state(&store, queued).await,
        StampState::Waiting {
            tsa_url: TSA.into(),
            next_try_at: at(1),
            attempts: 0,
            problem: None,
        }
    );
    assert_eq!(state(&store, plain).await, StampState::NotAsked);
    assert_eq!(
        store.next_stamp(at(1)).await.unwrap(),
        NextStamp::Due(DueStamp {
            history_id: queued,
            sha256: hex(&Sha256::digest(b"{\"a\":1}")),
            attempts: 0,
        })
    );
    // Ids with no capture are left out.
    assert_eq!(
        store.capture_stamps(&[queued, 9999]).await.unwrap().len(),
        1
    );
}

#[tokio::test]
async fn a_stored_token_is_kept_as_received_and_never_edited() {
    let (store, _dir) = temp_store().await;
    let id = capture(&store, "a", "{}", at(1), Some(TSA)).await;
    assert!(store.stamp_done(id, TSA, &token(3)).await.unwrap());
    // A second answer for the same capture changes nothing.
    assert!(!store.stamp_done(id, TSA, &token(9)).await.unwrap());

    assert_eq!(
        state(&store, id).await,
        StampState::Stamped {
            tsa_url: TSA.into(),
            stamped_at: at(3),
            authority: "CN=Test TSA".into(),
        }
    );
    let tokens = store.stamp_tokens(&[id]).await.unwrap();
    assert_eq!(tokens.len(), 1);
    assert_eq!(tokens[0].reply_der, token(3).reply_der);
    assert_eq!(tokens[0].sha256, hex(&Sha256::digest(b"{}")));
    assert_eq!(store.next_stamp(at(59)).await.unwrap(), NextStamp::Idle);

    // No statement may change a stamped token.
    let edit = sqlx::query("UPDATE stamps SET token = x'00' WHERE history_id = ?")
        .bind(id)
        .execute(&store.pool)
        .await;
    assert!(
        edit.unwrap_err().to_string().contains("never edited"),
        "a stamped token was edited"
    );
    // A failure reported late cannot undo it either.
    store
        .stamp_attempt_failed(id, TSA, "late", false, at(5))
        .await
        .unwrap();
    assert!(matches!(
        state(&store, id).await,
        StampState::Stamped { .. }
    ));
}

#[tokio::test]
async fn a_failed_attempt_holds_every_waiting_capture_and_a_refusal_is_final() {
    let (store, _dir) = temp_store().await;
    let first = capture(&store, "a", "1", at(1), Some(TSA)).await;
    let second = capture(&store, "b", "2", at(2), Some(TSA)).await;

    // Unreachable: it waits, and so does the other, until the hold ends.
    store
        .stamp_attempt_failed(
            first,
            TSA,
            "The authority could not be reached.",
            true,
            at(10),
        )
        .await
        .unwrap();
    assert_eq!(
        store.next_stamp(at(9)).await.unwrap(),
        NextStamp::At(at(10))
    );
    let NextStamp::Due(due) = store.next_stamp(at(10)).await.unwrap() else {
        panic!("nothing due after the hold");
    };
    assert_eq!((due.history_id, due.attempts), (first, 1));
    assert_eq!(
        state(&store, first).await,
        StampState::Waiting {
            tsa_url: TSA.into(),
            next_try_at: at(10),
            attempts: 1,
            problem: Some("The authority could not be reached.".into()),
        }
    );

    // Refused: failed for good (until the user asks), the others held all the same.
    store
        .stamp_attempt_failed(
            first,
            TSA,
            "The authority refused the request.",
            false,
            at(20),
        )
        .await
        .unwrap();
    assert_eq!(
        state(&store, first).await,
        StampState::Failed {
            tsa_url: TSA.into(),
            attempts: 2,
            problem: "The authority refused the request.".into(),
        }
    );
    assert_eq!(
        store.next_stamp(at(19)).await.unwrap(),
        NextStamp::At(at(20))
    );
    let NextStamp::Due(due) = store.next_stamp(at(20)).await.unwrap() else {
        panic!("the other capture is not due");
    };
    assert_eq!(due.history_id, second);
}

#[tokio::test]
async fn stamp_now_queues_an_investigations_captures_and_retries_its_failed_ones() {
    let (store, _dir) = temp_store().await;
    let case = store.create_investigation("Case", "", at(0)).await.unwrap();
    let filed = capture(&store, "a", "filed", at(1), None).await;
    let refused = capture(&store, "b", "refused", at(2), Some(TSA)).await;
    let stamped = capture(&store, "c", "stamped", at(3), Some(TSA)).await;
    // Brought a post the case holds on its own (its earliest capture).
    let brought = capture(&store, "d", "brought", at(4), None).await;
    let elsewhere = capture(&store, "e", "elsewhere", at(5), None).await;
    store
        .add_to_investigation(
            case,
            &[
                InvestigationItem::Request { history_id: filed },
                InvestigationItem::Request {
                    history_id: refused,
                },
                InvestigationItem::Request {
                    history_id: stamped,
                },
                InvestigationItem::Post {
                    post_id: "p-d".into(),
                },
            ],
            at(6),
        )
        .await
        .unwrap();
    store
        .stamp_attempt_failed(refused, TSA, "refused", false, at(2))
        .await
        .unwrap();
    store.stamp_done(stamped, TSA, &token(7)).await.unwrap();
    assert_eq!(
        store.investigation_stamp_counts(case).await.unwrap(),
        StampCounts {
            stamped: 1,
            waiting: 0,
            failed: 1,
            not_asked: 2,
        }
    );

    let other = "https://tsa.example/tsr";
    assert_eq!(
        store.stamp_investigation(case, other, at(8)).await.unwrap(),
        3
    );
    assert_eq!(
        store.investigation_stamp_counts(case).await.unwrap(),
        StampCounts {
            stamped: 1,
            waiting: 3,
            failed: 0,
            not_asked: 0,
        }
    );
    for id in [filed, refused, brought] {
        assert_eq!(
            state(&store, id).await,
            StampState::Waiting {
                tsa_url: other.into(),
                next_try_at: at(8),
                attempts: 0,
                problem: (id == refused).then(|| "refused".to_owned()),
            },
            "capture {id}"
        );
    }
    assert!(matches!(
        state(&store, stamped).await,
        StampState::Stamped { .. }
    ));
    assert_eq!(state(&store, elsewhere).await, StampState::NotAsked);
}

#[tokio::test]
async fn deleting_a_capture_deletes_its_stamp() {
    let (store, _dir) = temp_store().await;
    let id = capture(&store, "a", "{}", at(1), Some(TSA)).await;
    store.stamp_done(id, TSA, &token(2)).await.unwrap();
    let other = capture(&store, "b", "[]", at(2), Some(TSA)).await;
    assert!(store.delete_history(id).await.unwrap());
    assert!(store.delete_history(other).await.unwrap());
    assert!(store.stamp_tokens(&[id]).await.unwrap().is_empty());
    assert_eq!(store.next_stamp(at(3)).await.unwrap(), NextStamp::Idle);
}
