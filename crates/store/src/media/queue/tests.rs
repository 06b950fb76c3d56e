use chrono::{DateTime, Duration, TimeZone, Utc};

use super::super::{MediaFailure, MediaKind, MediaState, NewMediaItem, NextMedia};
use super::MediaBackfill;
use crate::test_support::{post, record, temp_store};
use crate::{PostQuery, RecordOutcome};

fn at(minute: i64) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 28, 1, 0, 0).unwrap() + Duration::minutes(minute)
}

fn photo(post: &str, position: u32) -> NewMediaItem {
    NewMediaItem {
        post_id: post.into(),
        position,
        kind: MediaKind::Photo,
        source_url: format!("http://127.0.0.1:1/media/{post}-{position}.jpg"),
        poster_url: None,
    }
}

fn waiting_posts(items: &[super::super::MediaItemRecord]) -> Vec<(String, i64)> {
    items
        .iter()
        .filter(|item| item.state == MediaState::Waiting)
        .map(|item| (item.post_id.clone(), item.position))
        .collect()
}

#[tokio::test]
async fn a_requests_media_are_queued_with_its_record_and_only_when_it_is_recorded() {
    let (store, _dir) = temp_store().await;
    let mut found = record("r1", at(0));
    found.posts = vec![post("1", "flood", at(0)), post("2", "river", at(0))];
    let media = [photo("1", 0), photo("1", 1), photo("2", 0)];
    let outcome = store
        .record_request_with_media(&found, &media)
        .await
        .unwrap();
    assert!(matches!(outcome, RecordOutcome::Recorded { .. }));
    let ids = ["1".to_owned(), "2".to_owned()];
    let queued = store.media_for_posts(&ids).await.unwrap();
    assert_eq!(
        waiting_posts(&queued),
        [("1".into(), 0), ("1".into(), 1), ("2".into(), 0)]
    );
    assert!(queued
        .iter()
        .all(|item| item.queued_at == item.next_try_at.unwrap()));

    // The same request again is already recorded: nothing is queued for it a second time.
    let again = store
        .record_request_with_media(&found, &[photo("2", 5)])
        .await
        .unwrap();
    assert!(matches!(again, RecordOutcome::AlreadyRecorded { .. }));
    assert_eq!(store.media_for_posts(&ids).await.unwrap().len(), 3);
    assert_eq!(store.media_counts().await.unwrap().waiting, 3);
}

#[tokio::test]
async fn media_that_cannot_be_queued_never_cost_the_request_its_record() {
    let (store, _dir) = temp_store().await;
    sqlx::query(
        "CREATE TRIGGER refuse_media BEFORE INSERT ON media_items
         BEGIN SELECT RAISE(ABORT, 'no media today'); END",
    )
    .execute(&store.pool)
    .await
    .unwrap();
    let mut found = record("r1", at(0));
    found.posts = vec![post("1", "flood", at(0))];
    let outcome = store
        .record_request_with_media(&found, &[photo("1", 0)])
        .await
        .unwrap();
    let history_id = match outcome {
        RecordOutcome::Recorded { history_id } => history_id,
        other => panic!("{other:?}"),
    };
    let posts = store
        .posts(&PostQuery {
            history_ids: vec![history_id],
            ..PostQuery::default()
        })
        .await
        .unwrap();
    assert_eq!(posts.len(), 1, "the post is kept");
    assert_eq!(store.media_counts().await.unwrap().waiting, 0);
}

#[tokio::test]
async fn retry_failed_sends_only_failed_items_back_due_now() {
    let (store, _dir) = temp_store().await;
    let items = [photo("1", 0), photo("2", 0), photo("3", 0)];
    store.queue_media(&items, at(0)).await.unwrap();
    let ids: Vec<i64> = store
        .media_for_posts(&["1".into(), "2".into(), "3".into()])
        .await
        .unwrap()
        .iter()
        .map(|item| item.id)
        .collect();
    let given_up = MediaFailure {
        at: at(1),
        reason: "Given up after 8 tries. The server did not answer in time.".into(),
        http_status: None,
        response_headers: None,
        retry_at: None,
        too_large: false,
    };
    assert!(store.record_media_failed(ids[0], &given_up).await.unwrap());
    let too_large = MediaFailure {
        too_large: true,
        ..given_up.clone()
    };
    assert!(store.record_media_failed(ids[1], &too_large).await.unwrap());
    assert!(store
        .record_media_gone(ids[2], 404, &[], at(1))
        .await
        .unwrap());
    let counts = store.media_counts().await.unwrap();
    assert_eq!((counts.failed, counts.too_large, counts.gone), (1, 1, 1));
    assert_eq!(store.next_media_due(at(2)).await.unwrap(), NextMedia::Idle);

    assert_eq!(store.retry_failed_media(at(30)).await.unwrap(), 1);
    let counts = store.media_counts().await.unwrap();
    assert_eq!(
        (counts.waiting, counts.failed, counts.too_large, counts.gone),
        (1, 0, 1, 1)
    );
    let NextMedia::Due(due) = store.next_media_due(at(30)).await.unwrap() else {
        panic!("the retried item is due at once");
    };
    // Its tries are kept (the worker gives it up again after one more failure).
    assert_eq!((due.id, due.attempts), (ids[0], 1));
    assert_eq!(store.retry_failed_media(at(31)).await.unwrap(), 0);
}

#[tokio::test]
async fn the_backfill_reads_archived_posts_in_pages_and_keeps_where_it_got_to() {
    let (store, _dir) = temp_store().await;
    assert_eq!(store.last_post_pk().await.unwrap(), 0);
    assert_eq!(
        store.media_backfill().await.unwrap(),
        MediaBackfill::default()
    );
    let mut found = record("r1", at(0));
    found.posts = (1..=5)
        .map(|n| post(&n.to_string(), "flood", at(0)))
        .collect();
    store.record_request(&found).await.unwrap();
    let last = store.last_post_pk().await.unwrap();

    let first = store.archived_posts_after(0, 2).await.unwrap();
    assert_eq!(
        first.iter().map(|p| p.id.as_str()).collect::<Vec<_>>(),
        ["1", "2"]
    );
    assert!(first[0].raw_json.contains(r#""id":"1""#));
    let progress = MediaBackfill {
        after_pk: first[1].pk,
        done: false,
    };
    let queued = store
        .queue_media_backfill(&[photo("1", 0), photo("2", 0)], progress, at(1))
        .await
        .unwrap();
    assert_eq!(queued, 2);
    assert_eq!(store.media_backfill().await.unwrap(), progress);

    let rest = store
        .archived_posts_after(progress.after_pk, 10)
        .await
        .unwrap();
    assert_eq!(
        rest.iter().map(|p| p.id.as_str()).collect::<Vec<_>>(),
        ["3", "4", "5"]
    );
    assert_eq!(rest.last().unwrap().pk, last);
    assert!(store
        .archived_posts_after(last, 10)
        .await
        .unwrap()
        .is_empty());
    // A page queued again (a resumed run re-reading it) queues nothing twice.
    let done = MediaBackfill {
        after_pk: last,
        done: true,
    };
    let again = store
        .queue_media_backfill(&[photo("1", 0), photo("3", 0)], done, at(2))
        .await
        .unwrap();
    assert_eq!(again, 1);
    assert_eq!(store.media_backfill().await.unwrap(), done);
    store
        .set_media_backfill(MediaBackfill::default())
        .await
        .unwrap();
    assert_eq!(store.media_backfill().await.unwrap().after_pk, 0);
}
