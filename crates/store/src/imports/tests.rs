use chrono::{DateTime, TimeZone, Utc};

use super::*;
use crate::test_support::{post, record, temp_store};
use crate::{custody::CustodyAction, Store};

fn at(minute: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 28, 4, minute, 0).unwrap()
}

fn new_import(investigation_id: Option<i64>) -> NewImport {
    NewImport {
        file_name: "tweets.jsonl".into(),
        file_sha256: "ab".repeat(32),
        file_size: 1234,
        format: ImportFormat::Twarc2Flat,
        investigation_id,
    }
}

fn line(n: i64, what: ImportLineItem) -> ImportLine {
    ImportLine {
        line: n,
        item: 0,
        what,
        source: Some(format!("line {n}")),
    }
}

fn a_post(id: &str) -> ImportLineItem {
    ImportLineItem::Post(Box::new(post(id, &format!("post {id}"), at(0))))
}

async fn outcomes(store: &Store, id: i64) -> Vec<(i64, ImportOutcome, Option<String>)> {
    store
        .import_lines(id, None, None, 100)
        .await
        .unwrap()
        .into_iter()
        .map(|row| (row.line, row.outcome, row.post_id))
        .collect()
}

#[tokio::test]
async fn a_batch_stores_new_posts_leaves_held_ones_and_keeps_every_outcome() {
    let (store, _dir) = temp_store().await;
    // A post fetched by a request before: held, with its own copy and capture.
    let mut fetched = record("r1", at(1));
    fetched.posts = vec![post("10", "as fetched", at(0))];
    store.record_request(&fetched).await.unwrap();

    let import = store.start_import(&new_import(None), at(2)).await.unwrap();
    assert_eq!(import.state, ImportState::Running);
    let batch = ImportBatch {
        lines: vec![
            line(1, a_post("10")),
            line(2, a_post("11")),
            line(3, ImportLineItem::NotAPost("a user, not a post".into())),
            line(4, ImportLineItem::Unreadable("not JSON".into())),
            line(5, a_post("11")),
        ],
        lines_done: 5,
        offset_done: 400,
    };
    let counts = store
        .record_import_batch(import.id, &batch, at(3))
        .await
        .unwrap();
    assert_eq!(
        counts,
        BatchCounts {
            imported: 1,
            already_held: 2,
            not_a_post: 1,
            unreadable: 1
        }
    );
    assert_eq!(
        outcomes(&store, import.id).await,
        vec![
            (1, ImportOutcome::AlreadyHeld, Some("10".into())),
            (2, ImportOutcome::Imported, Some("11".into())),
            (3, ImportOutcome::NotAPost, None),
            (4, ImportOutcome::Unreadable, None),
            (5, ImportOutcome::AlreadyHeld, Some("11".into())),
        ]
    );
    // The held post is as fetched; the new one is searchable like any other.
    assert_eq!(store.post("10").await.unwrap().unwrap().text, "as fetched");
    assert_eq!(store.post("11").await.unwrap().unwrap().text, "post 11");
    let marks = store
        .import_for_posts(&["10".into(), "11".into()])
        .await
        .unwrap();
    assert_eq!(marks.len(), 1, "only the post the import brought is marked");
    assert_eq!(marks[0].post_id, "11");
    assert_eq!(marks[0].line, 2);
    assert_eq!(marks[0].file_sha256, "ab".repeat(32));
    assert!(!marks[0].also_captured);
    // No ledger row, no capture.
    let ledger: i64 = sqlx::query_scalar("SELECT count(*) FROM ledger")
        .fetch_one(&store.pool)
        .await
        .unwrap();
    assert_eq!(ledger, 0);
    let stored = store.import(import.id).await.unwrap().unwrap();
    assert_eq!((stored.lines_done, stored.offset_done), (5, 400));
    assert_eq!(
        (
            stored.imported,
            stored.already_held,
            stored.not_a_post,
            stored.unreadable
        ),
        (1, 2, 1, 1)
    );
    assert_eq!(
        store.import_line_source(import.id, 4).await.unwrap(),
        Some("line 4".into())
    );

    // A line recorded once is never recorded again.
    let again = store.record_import_batch(import.id, &batch, at(4)).await;
    assert!(again.is_err());
}

#[tokio::test]
async fn a_cancelled_import_takes_no_batch_until_resumed() {
    let (store, _dir) = temp_store().await;
    let import = store.start_import(&new_import(None), at(2)).await.unwrap();
    let first = ImportBatch {
        lines: vec![line(1, a_post("1"))],
        lines_done: 1,
        offset_done: 10,
    };
    store
        .record_import_batch(import.id, &first, at(3))
        .await
        .unwrap();
    let cancelled = store.cancel_import(import.id, at(4)).await.unwrap();
    assert_eq!(cancelled.state, ImportState::Cancelled);
    let second = ImportBatch {
        lines: vec![line(2, a_post("2"))],
        lines_done: 2,
        offset_done: 20,
    };
    assert!(store
        .record_import_batch(import.id, &second, at(5))
        .await
        .is_err());
    let resumed = store.resume_import(import.id).await.unwrap();
    assert_eq!((resumed.lines_done, resumed.offset_done), (1, 10));
    store
        .record_import_batch(import.id, &second, at(6))
        .await
        .unwrap();
    let done = store
        .finish_import(import.id, ImportState::Done, None, at(7))
        .await
        .unwrap();
    assert_eq!((done.state, done.imported), (ImportState::Done, 2));
    assert!(store.resume_import(import.id).await.is_err());
}

#[tokio::test]
async fn posts_are_filed_in_the_investigation_with_one_custody_entry_a_batch() {
    let (store, _dir) = temp_store().await;
    let case = store.create_investigation("Case", "", at(0)).await.unwrap();
    let import = store
        .start_import(&new_import(Some(case)), at(1))
        .await
        .unwrap();
    let batch = ImportBatch {
        lines: vec![line(1, a_post("1")), line(2, a_post("2"))],
        lines_done: 2,
        offset_done: 20,
    };
    store
        .record_import_batch(import.id, &batch, at(2))
        .await
        .unwrap();
    let log = store.custody_log(case).await.unwrap();
    let last = log.last().unwrap();
    assert_eq!(last.action, CustodyAction::PostAdded);
    assert_eq!(last.ids, vec!["post:1", "post:2"]);
    assert!(
        last.detail.contains("imported from tweets.jsonl"),
        "{}",
        last.detail
    );
    assert!(last.detail.contains("not captured by Sightline"));
    let filed: i64 =
        sqlx::query_scalar("SELECT count(*) FROM investigation_posts WHERE investigation_id = ?")
            .bind(case)
            .fetch_one(&store.pool)
            .await
            .unwrap();
    assert_eq!(filed, 2);

    // Archived, it takes no import.
    store
        .set_investigation_archived(case, true, at(3))
        .await
        .unwrap();
    assert!(store
        .start_import(&new_import(Some(case)), at(4))
        .await
        .is_err());
}

#[tokio::test]
async fn the_outcomes_csv_keeps_ids_whole_and_defuses_formulas() {
    let (store, _dir) = temp_store().await;
    let import = store.start_import(&new_import(None), at(1)).await.unwrap();
    let batch = ImportBatch {
        lines: vec![
            line(1, a_post("1234567890123456789")),
            line(2, ImportLineItem::Unreadable("=cut short".into())),
        ],
        lines_done: 2,
        offset_done: 20,
    };
    store
        .record_import_batch(import.id, &batch, at(2))
        .await
        .unwrap();
    let mut out = Vec::new();
    store.import_lines_csv(import.id, &mut out).await.unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "line,item,outcome,post_id,reason\n\
         1,0,imported,\t1234567890123456789,\n\
         2,0,unreadable,,'=cut short\n"
    );
}
