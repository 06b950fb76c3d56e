//! Queueing media to keep, through the real pipeline against the sandbox and a real SQLite
//! file: a search filed in the active investigation queues its posts' media (each entry once,
//! nothing fetched), one sent outside any investigation queues nothing unless Settings keeps
//! every archived post's media, and a post filed by hand queues its own.

use serde_json::Value;
use sightline_core::investigations;
use sightline_core::pipeline;
use sightline_core::settings::AppSettings;
use sightline_sandbox::Sandbox;
use sightline_store::{InvestigationItem, MediaState, PostQuery, Store};

use crate::support::live::Live;
use crate::support::search::search;
use crate::support::send::send;

/// The media entries the records of request `history_id`'s posts list, by post id, read
/// straight from the JSON (X's `extended_entities.media`, else the flat `media`).
async fn entries_found(store: &Store, history_id: i64) -> Vec<(String, usize)> {
    let query = PostQuery {
        history_ids: vec![history_id],
        limit: 1000,
        ..PostQuery::default()
    };
    let mut found: Vec<(String, usize)> = store
        .posts(&query)
        .await
        .unwrap()
        .into_iter()
        .map(|post| {
            let record: Value = serde_json::from_str(&post.raw_json).unwrap();
            let listed = |at: &str| record.pointer(at).and_then(Value::as_array).map(Vec::len);
            let n = listed("/extended_entities/media")
                .filter(|n| *n > 0)
                .or_else(|| listed("/media"))
                .unwrap_or(0);
            (post.id, n)
        })
        .filter(|(_, n)| *n > 0)
        .collect();
    found.sort();
    found
}

/// The media items queued, by post id, each post's count of items.
async fn queued(store: &Store, post_ids: &[String]) -> Vec<(String, usize)> {
    let items = store.media_for_posts(post_ids).await.unwrap();
    assert!(
        items
            .iter()
            .all(|item| item.state == MediaState::Waiting && item.attempts == 0),
        "queued, never fetched"
    );
    let mut by_post: Vec<(String, usize)> = Vec::new();
    for item in items {
        match by_post.last_mut() {
            Some((id, n)) if *id == item.post_id => *n += 1,
            _ => by_post.push((item.post_id, 1)),
        }
    }
    by_post.sort();
    by_post
}

async fn all_ids(store: &Store, history_id: i64) -> Vec<String> {
    let query = PostQuery {
        history_ids: vec![history_id],
        limit: 1000,
        ..PostQuery::default()
    };
    let posts = store.posts(&query).await.unwrap();
    posts.into_iter().map(|post| post.id).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_search_filed_in_an_investigation_queues_its_posts_media_once() {
    let live = Live::start(Sandbox::builder().seed(9)).await;
    let state = &live.state;
    let store = state.store().await.unwrap();
    let session = state.session().await.unwrap();

    // Outside any investigation, with the setting off: nothing is queued.
    let request = search(&live.sandbox, 100);
    let outside = pipeline::execute(state, &session, request.clone(), send("m-1"), None)
        .await
        .unwrap();
    let ids = all_ids(&store, outside.history_id).await;
    assert!(queued(&store, &ids).await.is_empty());
    assert_eq!(store.media_counts().await.unwrap().waiting, 0);

    // In the active investigation: every filed post's media entries, once each.
    let case = investigations::create(&store, "Floods", "")
        .await
        .unwrap()
        .id;
    store.set_active_investigation(Some(case)).await.unwrap();
    let filed = pipeline::execute(state, &session, request.clone(), send("m-2"), None)
        .await
        .unwrap();
    let expected = entries_found(&store, filed.history_id).await;
    assert!(expected.len() >= 3, "the sandbox's posts carry media");
    let ids = all_ids(&store, filed.history_id).await;
    assert_eq!(queued(&store, &ids).await, expected);

    // The same posts found again queue nothing more.
    let waiting = store.media_counts().await.unwrap().waiting;
    pipeline::execute(state, &session, request, send("m-3"), None)
        .await
        .unwrap();
    assert_eq!(store.media_counts().await.unwrap().waiting, waiting);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_every_archived_post_kept_a_search_outside_any_case_queues_its_media() {
    let live = Live::start(Sandbox::builder().seed(9)).await;
    let state = &live.state;
    let settings = AppSettings {
        media_keep_all_archived: true,
        ..state.settings()
    };
    state.save_settings(settings).await.unwrap();
    let store = state.store().await.unwrap();
    let session = state.session().await.unwrap();
    let outcome = pipeline::execute(
        state,
        &session,
        search(&live.sandbox, 100),
        send("k-1"),
        None,
    )
    .await
    .unwrap();
    let expected = entries_found(&store, outcome.history_id).await;
    assert!(!expected.is_empty());
    let ids = all_ids(&store, outcome.history_id).await;
    assert_eq!(queued(&store, &ids).await, expected);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_post_filed_by_hand_queues_its_media_and_a_request_filed_by_hand_its_posts() {
    let live = Live::start(Sandbox::builder().seed(9)).await;
    let state = &live.state;
    let store = state.store().await.unwrap();
    let session = state.session().await.unwrap();
    let outcome = pipeline::execute(
        state,
        &session,
        search(&live.sandbox, 100),
        send("h-1"),
        None,
    )
    .await
    .unwrap();
    let expected = entries_found(&store, outcome.history_id).await;
    let ids = all_ids(&store, outcome.history_id).await;
    assert!(queued(&store, &ids).await.is_empty());

    let case = investigations::create(&store, "By hand", "")
        .await
        .unwrap()
        .id;
    let (first, _) = expected[0].clone();
    let post = InvestigationItem::Post {
        post_id: first.clone(),
    };
    investigations::add(&store, case, &[post]).await.unwrap();
    assert_eq!(queued(&store, &ids).await, vec![expected[0].clone()]);

    let request = InvestigationItem::Request {
        history_id: outcome.history_id,
    };
    investigations::add(&store, case, &[request]).await.unwrap();
    assert_eq!(queued(&store, &ids).await, expected);
}
