//! A conversation tree whose first post answers a post never fetched: the fetch offers that
//! post too (in its estimate, before anything is sent), fetches it through the pipeline with
//! the missing replies, and the tree then starts one level higher, at the exact cost billed.
//! A parent the service no longer has does not stop the fetch. Sandbox on loopback, real
//! SQLite files.

use crate::support::live;
use crate::support::send;

use chrono::Utc;
use live::Live;
use rust_decimal::Decimal;
use send::send;

use sightline_api::request::TwitterPostRequest;
use sightline_core::analysis;
use sightline_core::pipeline::{self, SendParams};
use sightline_sandbox::Sandbox;
use sightline_store::{NewPost, Store};

async fn ledger_total(store: &Store) -> Decimal {
    store
        .ledger(sightline_store::Tz::UTC, None)
        .await
        .unwrap()
        .iter()
        .map(|entry| entry.cost.expect("a stated cost"))
        .sum()
}

#[tokio::test]
async fn a_trees_missing_parent_is_offered_and_fetched_with_its_replies() {
    let live = Live::start(Sandbox::builder().seed(17)).await;
    let session = live.state.session().await.unwrap();
    let store = &session.store;

    // A reply two levels down a thread: its parent and that post's parent are not stored.
    let (reply, parent, grandparent) = {
        let world = live.sandbox.world();
        let post = world
            .posts
            .iter()
            .find(|post| {
                post.reply_to
                    .is_some_and(|p| world.posts[p as usize].reply_to.is_some())
            })
            .expect("the sandbox's threads go two levels deep");
        let parent = &world.posts[post.reply_to.unwrap() as usize];
        let grandparent = &world.posts[parent.reply_to.unwrap() as usize];
        (
            post.id.to_string(),
            parent.id.to_string(),
            grandparent.id.to_string(),
        )
    };
    pipeline::execute(
        &live.state,
        &session,
        TwitterPostRequest { id: reply.clone() },
        send("the-reply"),
        None,
    )
    .await
    .unwrap();

    let tree = analysis::conversation(store, &reply).await.unwrap();
    assert_eq!(tree.root_id, reply);
    assert_eq!(tree.root_parent_missing.as_deref(), Some(parent.as_str()));
    let estimate = analysis::conversation_estimate(store, &reply)
        .await
        .unwrap();
    assert_eq!(estimate.parent.as_deref(), Some(parent.as_str()));
    assert_eq!(
        estimate.requests,
        tree.missing.len() as i64 + 1,
        "one request for the parent, one per post with missing replies"
    );

    let before = ledger_total(store).await;
    let billed_before = live.sandbox.billed().total();
    let fetched = analysis::conversation_fetch(
        &live.state,
        &session,
        &reply,
        SendParams {
            request_id: "tree".into(),
            confirm_budget: true,
        },
    )
    .await
    .unwrap();
    assert_eq!(fetched.parent_found, Some(true));
    assert_eq!(fetched.requests, estimate.requests);
    assert!(store.post(&parent).await.unwrap().is_some());
    // The tree now starts at the parent, and offers the next level up.
    assert_eq!(fetched.tree.root_id, parent);
    assert_eq!(
        fetched.tree.root_parent_missing.as_deref(),
        Some(grandparent.as_str())
    );
    assert!(fetched.tree.nodes.iter().any(|node| node.id == reply));
    assert_eq!(
        fetched.cost,
        ledger_total(store).await - before,
        "the fetch's cost is what the ledger holds for it"
    );
    assert_eq!(fetched.cost, live.sandbox.billed().total() - billed_before);

    // A post whose parent the service no longer has: the fetch says so and does not fail.
    let orphan = NewPost {
        id: "9000000000000000001".into(),
        conversation_id: None,
        author_id: Some("1".into()),
        author_username: "ana".into(),
        author_name: "Ana".into(),
        author_verified: false,
        text: "answering a deleted post".into(),
        lang: Some("en".into()),
        created_at: Utc::now(),
        like_count: 0,
        retweet_count: 0,
        reply_count: 0,
        quote_count: 0,
        view_count: None,
        bookmark_count: 0,
        hashtags: Vec::new(),
        url: None,
        raw_json: serde_json::json!({
            "id": "9000000000000000001",
            "in_reply_to_status_id": "9000000000000000000",
            "in_reply_to_screen_name": "gone",
        })
        .to_string(),
        nested: false,
    };
    store.archive_posts(Utc::now(), &[orphan]).await.unwrap();
    let gone = analysis::conversation_fetch(
        &live.state,
        &session,
        "9000000000000000001",
        SendParams {
            request_id: "orphan".into(),
            confirm_budget: true,
        },
    )
    .await
    .unwrap();
    assert_eq!(
        (
            gone.parent_found,
            gone.new_replies,
            gone.replies_already_held
        ),
        (Some(false), 0, 0)
    );
    live.sandbox.shutdown().await;
}
