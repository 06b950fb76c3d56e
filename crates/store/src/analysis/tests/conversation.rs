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
    assert_eq!((root.reply_count, root.replies_held), (5, 2));
    assert_eq!(root.author_username, "root");
    assert_eq!(
        tree.missing,
        vec![MissingReplies {
            post_id: "100".into(),
            missing: 3
        }],
        "101 counts 1 reply and holds it"
    );
    assert!(store.conversation_tree("404").await.unwrap().is_none());
}
