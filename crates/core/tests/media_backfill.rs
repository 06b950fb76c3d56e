//! "Keep the media of every archived post" turned on after posts were archived, against the
//! sandbox and a real SQLite file: the posts already archived have their media queued a page
//! at a time (each page its own transaction, with the place reached), a stop after a page
//! leaves the rest for later, and starting again goes on from there to the end, every post's
//! media queued once and nothing fetched.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use serde_json::Value;
use sightline_core::media::backfill::{self, BackfillStatus};
use sightline_core::pipeline;
use sightline_sandbox::Sandbox;
use sightline_store::{MediaBackfill, MediaState, PostQuery, Store};

use crate::support::live::Live;
use crate::support::search::search;
use crate::support::send::send;

/// Every archived post's media entries, by post id (the record's own list).
async fn entries(store: &Store) -> Vec<(String, usize)> {
    let posts = store
        .posts(&PostQuery {
            limit: 10_000,
            ..PostQuery::default()
        })
        .await
        .unwrap();
    let mut found: Vec<(String, usize)> = posts
        .into_iter()
        .filter_map(|post| {
            let record: Value = serde_json::from_str(&post.raw_json).unwrap();
            let listed = |at: &str| record.pointer(at).and_then(Value::as_array).map(Vec::len);
            let n = listed("/extended_entities/media")
                .filter(|n| *n > 0)
                .or_else(|| listed("/media"))
                .unwrap_or(0);
            (n > 0).then_some((post.id, n))
        })
        .collect();
    found.sort();
    found
}

/// The items queued, by post id.
async fn queued(store: &Store) -> Vec<(String, usize)> {
    let ids: Vec<String> = entries(store).await.into_iter().map(|(id, _)| id).collect();
    let mut by_post: Vec<(String, usize)> = Vec::new();
    for item in store.media_for_posts(&ids).await.unwrap() {
        assert_eq!((item.state, item.attempts), (MediaState::Waiting, 0));
        match by_post.last_mut() {
            Some((id, n)) if *id == item.post_id => *n += 1,
            _ => by_post.push((item.post_id, 1)),
        }
    }
    by_post.sort();
    by_post
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn archived_posts_have_their_media_queued_page_by_page_stopped_and_resumed() {
    let live = Live::start(Sandbox::builder().seed(9)).await;
    let state = &live.state;
    let store = state.store().await.unwrap();
    let session = state.session().await.unwrap();
    // Archived with the setting off and no investigation: nothing queued.
    pipeline::execute(
        state,
        &session,
        search(&live.sandbox, 100),
        send("b-1"),
        None,
    )
    .await
    .unwrap();
    let expected = entries(&store).await;
    assert!(expected.len() >= 10, "the sandbox's posts carry media");
    assert!(queued(&store).await.is_empty());
    let last = store.last_post_pk().await.unwrap();

    // Stopped once two pages of 20 are read: those pages' posts are queued, no other.
    let stop = AtomicBool::new(false);
    let heard = Mutex::new(Vec::<BackfillStatus>::new());
    let told = |status: &BackfillStatus| {
        let mut heard = heard.lock().unwrap();
        heard.push(*status);
        if heard.iter().filter(|s| s.read_to > 0).count() == 2 {
            stop.store(true, Ordering::Relaxed);
        }
    };
    let first = backfill::run(&store, &stop, (20, Duration::ZERO), &told)
        .await
        .unwrap();
    assert!(!first.running && !first.done, "{first:?}");
    assert_eq!(first.last_pk, last);
    let read: Vec<String> = store
        .archived_posts_after(0, 40)
        .await
        .unwrap()
        .into_iter()
        .map(|post| post.id)
        .collect();
    assert_eq!(
        first.read_to,
        store.archived_posts_after(0, 40).await.unwrap()[39].pk
    );
    let partly: Vec<(String, usize)> = expected
        .iter()
        .filter(|(id, _)| read.contains(id))
        .cloned()
        .collect();
    assert!(!partly.is_empty() && partly.len() < expected.len());
    assert_eq!(queued(&store).await, partly);
    assert_eq!(
        first.queued as usize,
        partly.iter().map(|(_, n)| n).sum::<usize>()
    );
    assert_eq!(
        store.media_backfill().await.unwrap(),
        MediaBackfill {
            after_pk: first.read_to,
            done: false
        }
    );
    // Progress was told after every page, never going back.
    let heard_first = heard.lock().unwrap().clone();
    assert!(heard_first.windows(2).all(|w| w[0].read_to <= w[1].read_to));

    // Started again: it goes on from there to the end; every post's media queued once.
    stop.store(false, Ordering::Relaxed);
    heard.lock().unwrap().clear();
    let quiet = |_: &BackfillStatus| {};
    let second = backfill::run(&store, &stop, (20, Duration::ZERO), &quiet)
        .await
        .unwrap();
    assert!(second.done && !second.running, "{second:?}");
    assert_eq!(second.read_to, last);
    assert_eq!(queued(&store).await, expected);
    let total: usize = expected.iter().map(|(_, n)| n).sum();
    assert_eq!(first.queued as usize + second.queued as usize, total);

    // From the start over again (a page read twice), nothing is queued twice.
    store
        .set_media_backfill(MediaBackfill::default())
        .await
        .unwrap();
    let again = backfill::run(&store, &stop, (20, Duration::ZERO), &quiet)
        .await
        .unwrap();
    assert_eq!((again.done, again.queued), (true, 0));
    assert_eq!(store.media_counts().await.unwrap().waiting as usize, total);
}
