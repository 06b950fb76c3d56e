//! The whole archive's network edges tallied by migration 0022's triggers, against a regrouping
//! of the posts' facts and entities (the query the network ran before the tallies), and the
//! whole archive's network read off them against the same network tallied in Rust from a pass
//! over every post (a range from 1970), after posts are stored, seen again with other replies,
//! quotes, mentions and times, deleted and edited in place; the backfill of a database from
//! before 0022.

use super::*;

/// Every edge as `(kind, source, target, weight, first, last)`.
type EdgeRow = (String, String, String, i64, i64, i64);

/// The tallies' edges, and the same grouped afresh from post_facts and post_entities.
async fn tally_and_regroup(store: &Store) -> (Vec<EdgeRow>, Vec<EdgeRow>) {
    let tally: Vec<EdgeRow> = sqlx::query_as(
        "SELECT kind, source, target, posts, first, last FROM edge_tally ORDER BY 1, 2, 3",
    )
    .fetch_all(&store.pool)
    .await
    .unwrap();
    let regroup: Vec<EdgeRow> = sqlx::query_as(
        "SELECT 'reply', author, reply_to_author, count(*), min(created_at), max(created_at)
         FROM post_facts WHERE reply_to_author IS NOT NULL AND reply_to_author <> author
         GROUP BY author, reply_to_author
         UNION ALL
         SELECT 'quote', author, quoted_author, count(*), min(created_at), max(created_at)
         FROM post_facts WHERE quoted_author IS NOT NULL AND quoted_author <> author
         GROUP BY author, quoted_author
         UNION ALL
         SELECT 'mention', author, value, count(*), min(created_at), max(created_at)
         FROM post_entities WHERE kind = 2 AND value <> author
         GROUP BY author, value
         ORDER BY 1, 2, 3",
    )
    .fetch_all(&store.pool)
    .await
    .unwrap();
    (tally, regroup)
}

/// The tallies equal a regrouping, and the weights table counts the tallied edges.
async fn assert_tallies_hold(store: &Store) {
    let (tally, regroup) = tally_and_regroup(store).await;
    for kind in ["reply", "quote", "mention"] {
        assert!(regroup.iter().any(|e| e.0 == kind), "{kind}");
    }
    assert_eq!(tally, regroup);
    let weights: Vec<(String, i64, i64)> =
        sqlx::query_as("SELECT kind, posts, edges FROM edge_weights ORDER BY 1, 2")
            .fetch_all(&store.pool)
            .await
            .unwrap();
    let mut counted: BTreeMap<(String, i64), i64> = BTreeMap::new();
    for (kind, _, _, weight, _, _) in &regroup {
        *counted.entry((kind.clone(), *weight)).or_default() += 1;
    }
    let counted: Vec<(String, i64, i64)> = counted
        .into_iter()
        .map(|((kind, weight), edges)| (kind, weight, edges))
        .collect();
    assert_eq!(weights, counted);
}

/// The queries the network is asked: everything, the heaviest few of a minimum weight, one
/// kind, two kinds, the single heaviest.
fn queries() -> Vec<NetworkQuery> {
    vec![
        NetworkQuery::default(),
        NetworkQuery {
            min_weight: 2,
            max_edges: 7,
            ..NetworkQuery::default()
        },
        NetworkQuery {
            kinds: vec![EdgeKind::Mention],
            ..NetworkQuery::default()
        },
        NetworkQuery {
            kinds: vec![EdgeKind::Reply, EdgeKind::Quote],
            min_weight: 3,
            ..NetworkQuery::default()
        },
        NetworkQuery {
            max_edges: 1,
            ..NetworkQuery::default()
        },
    ]
}

/// The whole archive's network off the tallies, and the same posts' network from a pass over
/// each of them (a range from 1970 is not read off the tallies).
async fn tallied_and_passed(store: &Store, query: &NetworkQuery) -> (Network, Network) {
    let tallied = store
        .analysis_network(&archive_scope(), query)
        .await
        .unwrap()
        .unwrap();
    let passed = store
        .analysis_network(&from_1970(), query)
        .await
        .unwrap()
        .unwrap();
    (tallied, passed)
}

/// The whole archive's network (off the tallies) equals every post's, tallied in Rust.
async fn assert_networks_equal(store: &Store) {
    for query in queries() {
        let (tallied, passed) = tallied_and_passed(store, &query).await;
        assert!(!tallied.edges.is_empty(), "{query:?}");
        assert_eq!(tallied, passed, "{query:?}");
    }
}

async fn assert_edges_hold(store: &Store) {
    assert_tallies_hold(store).await;
    assert_networks_equal(store).await;
}

/// Two corpora a season apart: replies, quotes and mentions among 14 accounts, some to the
/// author itself, most edges several posts heavy.
async fn stored_posts(store: &Store) -> Vec<NewPost> {
    let (mut posts, _) = corpus(5, utc(2026, 4, 1, 0), 300, 100);
    let (more, _) = corpus(9, utc(2026, 8, 1, 0), 300, 2_000);
    posts.extend(more);
    store.archive_posts(Utc::now(), &posts).await.unwrap();
    posts
}

#[tokio::test]
async fn edge_tallies_follow_posts_stored_seen_again_deleted_and_edited() {
    let (store, _dir) = temp_store().await;
    let mut posts = stored_posts(&store).await;
    let heaviest: i64 = sqlx::query_scalar("SELECT max(posts) FROM edge_tally")
        .fetch_one(&store.pool)
        .await
        .unwrap();
    assert!(
        heaviest >= 3,
        "edges of one post each would hide a wrong subtraction"
    );
    assert_edges_hold(&store).await;

    // Seen again: another account replied to, quoted and mentioned (some the author itself),
    // later or earlier than before, the handle spelt otherwise.
    for (n, p) in posts.iter_mut().enumerate().filter(|(n, _)| n % 4 == 0) {
        let mut raw: serde_json::Value = serde_json::from_str(&p.raw_json).unwrap();
        let other = format!("Acct{}", (n / 4) % 13);
        raw["in_reply_to_status_id"] = json!("1");
        raw["in_reply_to_screen_name"] = json!(other);
        if n % 8 == 0 {
            raw["quote"] = json!({"id": "2", "user": {"username": p.author_username}});
            raw["entities"]["user_mentions"] = json!([]);
        } else {
            raw["quote"] = json!({"id": "2", "user": {"username": other}});
            raw["entities"]["user_mentions"] =
                json!([{"screen_name": other}, {"screen_name": "acct1"}]);
        }
        p.raw_json = raw.to_string();
        p.author_username = p.author_username.to_uppercase();
        p.created_at += Duration::minutes(if n % 3 == 0 { 90 } else { -90 });
    }
    store.archive_posts(Utc::now(), &posts).await.unwrap();
    assert_edges_hold(&store).await;

    // Deleted (the app keeps every post; the triggers hold regardless): each edge's first and
    // last post among others, and every post of one account, whose edges then go.
    sqlx::query(
        "DELETE FROM posts WHERE pk IN (
             SELECT f.post_pk FROM edge_tally t JOIN post_facts f
                 ON f.author = t.source AND f.reply_to_author = t.target
                 AND f.created_at IN (t.first, t.last)
             WHERE t.kind = 'reply' AND t.posts > 1)
           OR pk % 7 = 0 OR lower(author_username) = 'acct5'",
    )
    .execute(&store.pool)
    .await
    .unwrap();
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM edge_tally WHERE source = 'acct5'")
        .fetch_one(&store.pool)
        .await
        .unwrap();
    assert_eq!(left, 0);
    assert_edges_hold(&store).await;

    // Facts edited in place (0008's triggers rewrite rows instead): other times (their copy
    // in post_entities too), accounts replied to and quoted.
    sqlx::query(
        "UPDATE post_facts SET created_at = created_at + 3600000 * (post_pk % 5),
             reply_to_author = CASE WHEN post_pk % 3 = 0 THEN 'acct2' ELSE reply_to_author END,
             quoted_author = CASE WHEN post_pk % 4 = 0 THEN NULL ELSE quoted_author END
         WHERE post_pk % 2 = 0",
    )
    .execute(&store.pool)
    .await
    .unwrap();
    sqlx::query(
        "UPDATE post_entities SET created_at =
             (SELECT f.created_at FROM post_facts f WHERE f.post_pk = post_entities.post_pk)
         WHERE post_pk % 2 = 0",
    )
    .execute(&store.pool)
    .await
    .unwrap();
    assert_edges_hold(&store).await;

    // Authors and mentions edited in place (0009's author tally and the copy of the entities
    // in post_facts, which the networks also read, are not kept for such edits: only the edge
    // tallies are checked): other authors, accounts mentioned, kinds and times.
    sqlx::query("UPDATE post_facts SET author = 'acct9' WHERE post_pk % 11 = 0")
        .execute(&store.pool)
        .await
        .unwrap();
    sqlx::query(
        "UPDATE post_entities SET value = value || '-' || (post_pk % 3),
             created_at = created_at - 60000 * (post_pk % 4)
         WHERE kind = 2 AND post_pk % 3 = 1",
    )
    .execute(&store.pool)
    .await
    .unwrap();
    sqlx::query("UPDATE post_entities SET kind = 1 WHERE kind = 2 AND post_pk % 5 = 2")
        .execute(&store.pool)
        .await
        .unwrap();
    sqlx::query("UPDATE post_entities SET kind = 2 WHERE kind = 1 AND post_pk % 5 = 3")
        .execute(&store.pool)
        .await
        .unwrap();
    assert_tallies_hold(&store).await;
}

#[tokio::test]
async fn the_whole_archives_network_reads_the_tallies() {
    let (store, _dir) = temp_store().await;
    stored_posts(&store).await;
    // A tally changed by hand shows in the whole archive's network, and not in a range's.
    sqlx::query(
        "UPDATE edge_tally SET posts = posts + 1000
         WHERE (kind, source, target) = (SELECT kind, source, target FROM edge_tally
                                         WHERE kind = 'mention' ORDER BY 2, 3 LIMIT 1)",
    )
    .execute(&store.pool)
    .await
    .unwrap();
    let (tallied, passed) = tallied_and_passed(&store, &NetworkQuery::default()).await;
    assert!(tallied.edges[0].weight > 1000);
    assert!(passed.edges[0].weight < 1000);
    assert_eq!(tallied.total_edges, passed.total_edges);
}

#[tokio::test]
async fn the_migration_tallies_the_edges_of_posts_stored_before_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    {
        let store = Store::open_at_version(&path, 21).await.unwrap();
        stored_posts(&store).await;
        store.close().await;
    }
    let store = Store::open(&path).await.unwrap();
    assert_edges_hold(&store).await;
}
