//! The conversation tree: stored replies and quotes, and what is missing.

use super::*;

fn tree_post(
    id: &str,
    author: &str,
    at: DateTime<Utc>,
    reply_count: i64,
    raw: serde_json::Value,
) -> NewPost {
    let mut raw = raw;
    raw["id"] = json!(id);
    NewPost {
        id: id.into(),
        conversation_id: Some("100".into()),
        author_id: None,
        author_username: author.into(),
        author_name: author.to_uppercase(),
        author_verified: false,
        text: format!("text of {id}"),
        lang: Some("en".into()),
        created_at: at,
        like_count: 0,
        retweet_count: 0,
        reply_count,
        quote_count: 0,
        view_count: None,
        bookmark_count: 0,
        hashtags: vec![],
        url: None,
        raw_json: raw.to_string(),
        nested: false,
    }
}

#[tokio::test]
async fn the_conversation_tree_holds_replies_and_quotes_and_says_what_is_missing() {
    let (store, _dir) = temp_store().await;
    let t = |m: i64| utc(2026, 5, 1, 0) + Duration::minutes(m);
    let reply = |to: &str| json!({"in_reply_to_status_id": to, "in_reply_to_screen_name": "x"});
    let posts = vec![
        // 100 replies to 99, which is not stored; it counts 5 replies, 2 are held.
        tree_post("100", "root", t(0), 5, reply("99")),
        tree_post("101", "ann", t(2), 1, reply("100")),
        tree_post("102", "bob", t(1), 0, reply("100")),
        tree_post("103", "cat", t(3), 0, reply("101")),
        tree_post("104", "dan", t(4), 0, json!({"quoted_status_id": "101"})),
        tree_post("200", "eve", t(5), 0, json!({})),
    ];
    store.archive_posts(Utc::now(), &posts).await.unwrap();
    // Asked from deep inside, the tree starts at the highest stored post.
    let tree = store.conversation_tree("103").await.unwrap().unwrap();
    assert_eq!(tree.root_id, "100");
    assert_eq!(tree.root_parent_missing.as_deref(), Some("99"));
    let order: Vec<(&str, Option<&str>, u32, TreeRelation)> = tree
        .nodes
        .iter()
        .map(|n| (n.id.as_str(), n.parent_id.as_deref(), n.depth, n.relation))
        .collect();
    assert_eq!(
        order,
        vec![
            ("100", None, 0, TreeRelation::Root),
            ("102", Some("100"), 1, TreeRelation::Reply),
            ("101", Some("100"), 1, TreeRelation::Reply),
            ("103", Some("101"), 2, TreeRelation::Reply),
            ("104", Some("101"), 2, TreeRelation::Quote),
        ]
    );
    let root = &tree.nodes[0];
    // The service counts the whole thread below a post: 101, 102 and 103 (a reply to 101).
    assert_eq!((root.reply_count, root.replies_held), (5, 3));
    assert_eq!(root.author_username, "root");
    assert_eq!(
        tree.missing,
        vec![MissingReplies {
            post_id: "100".into(),
            missing: 2,
            within: None,
            asked: false,
            fetch: true,
        }],
        "101 counts 1 reply and holds it; 104 quotes it, which is not a reply"
    );
    assert!(store.conversation_tree("404").await.unwrap().is_none());
}

/// A replies request for `post_id` that asked for `count` and got `returned`, sent at `at`.
fn replies_asked(
    post_id: &str,
    count: i64,
    returned: i64,
    at: DateTime<Utc>,
) -> crate::RequestRecord {
    crate::RequestRecord {
        operation: "twitter_replies_post".into(),
        params_json: json!({"post_id": post_id, "count": count, "query": ""}).to_string(),
        result_count: returned,
        ..record(&format!("replies-{post_id}-{}", at.timestamp_millis()), at)
    }
}

/// The tree the issue met: a post counting 3 replies, two of them to it and one to one of
/// those, all held. Nothing is missing, and nothing is offered for a fetch.
#[tokio::test]
async fn replies_to_replies_count_as_the_service_counts_them() {
    let (store, _dir) = temp_store().await;
    let t = |m: i64| utc(2026, 5, 1, 0) + Duration::minutes(m);
    let reply = |to: &str| json!({"in_reply_to_status_id": to, "in_reply_to_screen_name": "x"});
    let posts = vec![
        tree_post("100", "root", t(0), 3, json!({})),
        tree_post("101", "ann", t(1), 1, reply("100")),
        tree_post("102", "bob", t(2), 0, reply("100")),
        tree_post("103", "cat", t(3), 0, reply("101")),
    ];
    store.archive_posts(Utc::now(), &posts).await.unwrap();
    let tree = store.conversation_tree("100").await.unwrap().unwrap();
    let held: Vec<(&str, i64, i64)> = tree
        .nodes
        .iter()
        .map(|n| (n.id.as_str(), n.reply_count, n.replies_held))
        .collect();
    assert_eq!(
        held,
        vec![("100", 3, 3), ("101", 1, 1), ("103", 0, 0), ("102", 0, 0)]
    );
    assert_eq!(tree.missing, vec![], "every reply counted is held");
}

/// A thread the service was asked for after its count was taken, that came back without the
/// replies it counts, is not offered again (a fetch would pay for nothing new), nor are the
/// threads below it when that answer held all the service would give; once the post is seen
/// again (a new count), it is.
#[tokio::test]
async fn a_thread_asked_for_since_its_count_is_not_offered_again() {
    let (store, _dir) = temp_store().await;
    let t = |m: i64| utc(2026, 5, 1, 0) + Duration::minutes(m);
    let reply = |to: &str| json!({"in_reply_to_status_id": to, "in_reply_to_screen_name": "x"});
    let seen = utc(2026, 5, 2, 0);
    let posts = vec![
        // 100's thread counts 4, holds 2; 101's counts 2, holds 1 (within 100's).
        tree_post("100", "root", t(0), 4, json!({})),
        tree_post("101", "ann", t(1), 2, reply("100")),
        tree_post("103", "cat", t(3), 0, reply("101")),
    ];
    store.archive_posts(seen, &posts).await.unwrap();
    let missing = |tree: &ConversationTree| -> Vec<(String, i64, Option<String>, bool, bool)> {
        let mut list: Vec<_> = tree
            .missing
            .iter()
            .map(|m| {
                (
                    m.post_id.clone(),
                    m.missing,
                    m.within.clone(),
                    m.asked,
                    m.fetch,
                )
            })
            .collect();
        list.sort();
        list
    };
    let tree = store.conversation_tree("100").await.unwrap().unwrap();
    assert_eq!(
        missing(&tree),
        vec![
            ("100".into(), 2, None, false, true),
            ("101".into(), 1, Some("100".into()), false, false),
        ],
        "100's thread holds 101's: only 100 is fetched"
    );

    // Asked for 100's thread before the count was taken: that says nothing of it.
    store
        .record_request(&replies_asked("100", 4, 2, seen - Duration::hours(1)))
        .await
        .unwrap();
    let tree = store.conversation_tree("100").await.unwrap().unwrap();
    assert!(tree.missing.iter().any(|m| m.post_id == "100" && m.fetch));

    // Asked since for one reply only, and one came: the others may still come.
    store
        .record_request(&replies_asked("100", 1, 1, seen + Duration::minutes(30)))
        .await
        .unwrap();
    let tree = store.conversation_tree("100").await.unwrap().unwrap();
    assert!(tree.missing.iter().any(|m| m.post_id == "100" && m.fetch));

    // Asked since, for 4, and 2 came (the ones held): all it would give. Nothing is offered.
    store
        .record_request(&replies_asked("100", 4, 2, seen + Duration::hours(1)))
        .await
        .unwrap();
    let tree = store.conversation_tree("100").await.unwrap().unwrap();
    assert_eq!(
        missing(&tree),
        vec![
            ("100".into(), 2, None, true, false),
            ("101".into(), 1, Some("100".into()), true, false),
        ]
    );

    // 101 seen again with a new count, after that answer: its thread is worth asking for.
    let newer = vec![tree_post("101", "ann", t(1), 3, reply("100"))];
    store
        .archive_posts(seen + Duration::hours(2), &newer)
        .await
        .unwrap();
    let tree = store.conversation_tree("100").await.unwrap().unwrap();
    assert_eq!(
        missing(&tree),
        vec![
            ("100".into(), 2, None, true, false),
            ("101".into(), 2, Some("100".into()), false, true),
        ]
    );
}
