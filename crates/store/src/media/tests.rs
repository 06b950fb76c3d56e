use chrono::{DateTime, Duration, TimeZone, Utc};

use super::{
    MediaCounts, MediaFailure, MediaKept, MediaKind, MediaState, NewMediaFile, NewMediaItem,
    NextMedia, PDQ_BYTES,
};
use crate::test_support::temp_store;
use crate::Store;

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

fn sha(n: u8) -> String {
    format!("{n:02x}").repeat(32)
}

/// A hash with `bits` of its first bits set.
fn pdq(bits: usize) -> [u8; PDQ_BYTES] {
    let mut hash = [0u8; PDQ_BYTES];
    for bit in 0..bits {
        hash[bit / 8] |= 1 << (bit % 8);
    }
    hash
}

fn file(n: u8, hash: Option<[u8; PDQ_BYTES]>) -> NewMediaFile {
    NewMediaFile {
        sha256: sha(n),
        size: 1000 + u64::from(n),
        content_type: "image/jpeg".into(),
        pdq: hash,
        pdq_quality: hash.map(|_| 100),
        width: Some(640),
        height: Some(480),
    }
}

fn kept(file: NewMediaFile) -> MediaKept {
    MediaKept {
        fetched_at: at(1),
        http_status: 200,
        response_headers: vec![("content-type".into(), "image/jpeg".into())],
        file,
        poster: None,
    }
}

/// Queues one photo per post and keeps it as `file`; returns nothing (ids follow the order).
async fn keep(store: &Store, post: &str, file: NewMediaFile) {
    store.queue_media(&[photo(post, 0)], at(0)).await.unwrap();
    let item = store.media_for_posts(&[post.into()]).await.unwrap()[0].clone();
    assert!(store.record_media_kept(item.id, &kept(file)).await.unwrap());
}

#[tokio::test]
async fn a_queued_item_is_due_once_kept_with_its_file_and_never_queued_twice() {
    let (store, _dir) = temp_store().await;
    let queued = store
        .queue_media(&[photo("10", 0), photo("10", 1)], at(0))
        .await
        .unwrap();
    assert_eq!(queued, 2);
    // The same post and position again: left as it is.
    assert_eq!(
        store.queue_media(&[photo("10", 0)], at(5)).await.unwrap(),
        0
    );

    let NextMedia::Due(first) = store.next_media_due(at(0)).await.unwrap() else {
        panic!("an item is due");
    };
    assert_eq!((first.post_id.as_str(), first.position), ("10", 0));
    assert_eq!(first.state, MediaState::Waiting);

    assert!(store
        .record_media_kept(first.id, &kept(file(1, Some(pdq(3)))))
        .await
        .unwrap());
    // Recorded once: a second answer for the same item changes nothing.
    assert!(!store
        .record_media_kept(first.id, &kept(file(2, None)))
        .await
        .unwrap());

    let items = store.media_for_posts(&["10".into()]).await.unwrap();
    assert_eq!(items.len(), 2);
    let kept_item = &items[0];
    assert_eq!(kept_item.state, MediaState::Kept);
    assert_eq!(kept_item.attempts, 1);
    assert_eq!(kept_item.http_status, Some(200));
    assert_eq!(
        kept_item.response_headers,
        Some(vec![("content-type".into(), "image/jpeg".into())])
    );
    let stored = kept_item.file.clone().unwrap();
    assert_eq!(stored.sha256, sha(1));
    assert_eq!(stored.pdq, Some(super::hex(&pdq(3))));
    assert_eq!((stored.width, stored.height), (Some(640), Some(480)));
    assert_eq!(store.media_file(&sha(2)).await.unwrap(), None);
    assert_eq!(items[1].state, MediaState::Waiting);
}

#[tokio::test]
async fn a_failure_waits_gives_up_or_is_too_large_and_a_gone_link_keeps_its_time() {
    let (store, _dir) = temp_store().await;
    store
        .queue_media(&[photo("1", 0), photo("2", 0), photo("3", 0)], at(0))
        .await
        .unwrap();
    let ids: Vec<i64> = store
        .media_for_posts(&["1".into(), "2".into(), "3".into()])
        .await
        .unwrap()
        .iter()
        .map(|i| i.id)
        .collect();

    let retry = MediaFailure {
        at: at(1),
        reason: "The server did not answer in time.".into(),
        http_status: None,
        response_headers: None,
        retry_at: Some(at(10)),
        too_large: false,
    };
    assert!(store.record_media_failed(ids[0], &retry).await.unwrap());
    assert!(store
        .record_media_gone(ids[1], 410, &[("server".into(), "sandbox".into())], at(2))
        .await
        .unwrap());
    let too_large = MediaFailure {
        retry_at: None,
        too_large: true,
        http_status: Some(200),
        reason: "Larger than 100 MB.".into(),
        ..retry.clone()
    };
    assert!(store.record_media_failed(ids[2], &too_large).await.unwrap());

    // Only the retried item waits, and not before its time.
    assert_eq!(
        store.next_media_due(at(5)).await.unwrap(),
        NextMedia::At(at(10))
    );
    let NextMedia::Due(due) = store.next_media_due(at(10)).await.unwrap() else {
        panic!("due at its time");
    };
    assert_eq!((due.id, due.attempts), (ids[0], 1));
    assert_eq!(due.reason.as_deref(), Some(retry.reason.as_str()));

    let gone = store.media_item(ids[1]).await.unwrap().unwrap();
    assert_eq!(gone.state, MediaState::Gone);
    assert_eq!(
        (gone.http_status, gone.fetched_at),
        (Some(410), Some(at(2)))
    );
    // A final state is final: no later answer rewrites it.
    assert!(!store.record_media_failed(ids[1], &retry).await.unwrap());

    let given_up = MediaFailure {
        retry_at: None,
        ..retry
    };
    assert!(store.record_media_failed(ids[0], &given_up).await.unwrap());
    assert_eq!(store.next_media_due(at(99)).await.unwrap(), NextMedia::Idle);
    assert_eq!(
        store.media_counts().await.unwrap(),
        MediaCounts {
            gone: 1,
            failed: 1,
            too_large: 1,
            ..MediaCounts::default()
        }
    );
}

#[tokio::test]
async fn exact_and_near_copies_are_found_with_their_posts_and_far_ones_are_not() {
    let (store, _dir) = temp_store().await;
    keep(&store, "1", file(1, Some(pdq(0)))).await;
    keep(&store, "2", file(1, Some(pdq(0)))).await; // the same bytes
    keep(&store, "3", file(3, Some(pdq(20)))).await; // 20 bits away
    keep(&store, "4", file(4, Some(pdq(90)))).await; // 90 bits away
    keep(&store, "5", file(5, None)).await; // no picture
                                            // The same hash, but too flat a picture for its hash to mean anything.
    let flat = NewMediaFile {
        pdq_quality: Some(10),
        ..file(6, Some(pdq(0)))
    };
    keep(&store, "6", flat).await;

    let found = store.media_matches(&sha(1), 31).await.unwrap();
    assert_eq!(found.file.unwrap().sha256, sha(1));
    assert_eq!(found.exact_post_ids, ["1", "2"]);
    assert_eq!(found.near.len(), 1);
    assert_eq!(found.near[0].file.sha256, sha(3));
    assert_eq!(found.near[0].distance, 20);
    assert_eq!(found.near[0].post_ids, ["3"]);

    let from_flat = store.media_matches(&sha(6), 256).await.unwrap();
    assert_eq!(from_flat.exact_post_ids, ["6"]);
    assert!(from_flat.near.is_empty(), "{from_flat:?}");
    assert!(store
        .media_matches(&sha(5), 256)
        .await
        .unwrap()
        .near
        .is_empty());
    assert_eq!(store.media_matches(&sha(9), 31).await.unwrap().file, None);

    let counts = store.media_counts().await.unwrap();
    assert_eq!((counts.kept, counts.files), (6, 5));
}

#[tokio::test]
async fn the_most_shared_pictures_of_a_scope_group_exact_and_near_copies() {
    let (store, _dir) = temp_store().await;
    for post in ["1", "2", "3"] {
        keep(&store, post, file(1, Some(pdq(0)))).await;
    }
    keep(&store, "4", file(4, Some(pdq(10)))).await; // near 1
    keep(&store, "5", file(5, Some(pdq(200)))).await;
    keep(&store, "6", file(6, Some(pdq(200)))).await; // exact hash, other bytes
    keep(&store, "7", file(7, Some(pdq(120)))).await; // alone

    let scope: Vec<String> = (1..=7).map(|n| n.to_string()).collect();
    let shared = store.most_shared_media(&scope, 31, 10).await.unwrap();
    assert_eq!(shared.len(), 2);
    assert_eq!(shared[0].sha256, sha(1));
    assert_eq!(shared[0].files, [sha(1), sha(4)]);
    assert_eq!(shared[0].post_ids, ["1", "2", "3", "4"]);
    assert_eq!(shared[1].files, [sha(5), sha(6)]);
    assert_eq!(shared[1].post_ids, ["5", "6"]);

    // Counted within the scope only.
    let part = store
        .most_shared_media(&["1".into(), "5".into(), "7".into()], 31, 10)
        .await
        .unwrap();
    assert!(part.is_empty(), "{part:?}");
}

#[tokio::test]
async fn an_investigation_shows_media_safely_until_switched_to_full_view() {
    let (store, _dir) = temp_store().await;
    let id = store.create_investigation("Case", "", at(0)).await.unwrap();
    let read =
        |store: Store| async move { store.investigations(true).await.unwrap()[0].media_full_view };
    assert!(!read(store.clone()).await, "safe view by default");
    assert!(store.set_media_full_view(id, true).await.unwrap());
    assert!(read(store.clone()).await);
    assert!(!store.set_media_full_view(id + 1, true).await.unwrap());
}

#[tokio::test]
async fn the_sql_distance_counts_differing_bits_and_is_null_for_anything_but_two_hashes() {
    let (store, _dir) = temp_store().await;
    let ask = |a: Vec<u8>, b: Vec<u8>| {
        let store = store.clone();
        async move {
            sqlx::query_scalar::<_, Option<i64>>("SELECT sightline_pdq_distance(?, ?)")
                .bind(a)
                .bind(b)
                .fetch_one(&store.pool)
                .await
                .unwrap()
        }
    };
    assert_eq!(ask(pdq(0).to_vec(), pdq(37).to_vec()).await, Some(37));
    assert_eq!(ask(pdq(256).to_vec(), pdq(0).to_vec()).await, Some(256));
    assert_eq!(ask(pdq(3).to_vec(), vec![0; 31]).await, None);
    let text: Option<i64> = sqlx::query_scalar("SELECT sightline_pdq_distance(?, 'abc')")
        .bind(pdq(0).to_vec())
        .fetch_one(&store.pool)
        .await
        .unwrap();
    assert_eq!(text, None);
}
