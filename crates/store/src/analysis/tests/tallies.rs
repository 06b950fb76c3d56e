//! The whole archive's tallies (migration 0009) against a recount, after posts are stored, seen
//! again with other metrics, entities, language and spelling, and deleted.

use super::*;

/// Each tally as rows, sorted, and the same grouped afresh from post_facts and post_entities.
async fn tallies_and_recount(
    store: &Store,
) -> [(Vec<(String, i64, i64, i64)>, Vec<(String, i64, i64, i64)>); 3] {
    let rows = |sql: &'static str| {
        let pool = store.pool.clone();
        async move {
            let rows: Vec<(String, i64, i64, i64)> =
                sqlx::query_as(sql).fetch_all(&pool).await.unwrap();
            rows
        }
    };
    [
        (
            rows("SELECT author, posts, engagement, last_pk FROM author_tally ORDER BY 1").await,
            rows(
                "SELECT author, count(*), sum(engagement), max(post_pk) FROM post_facts
                 GROUP BY author ORDER BY 1",
            )
            .await,
        ),
        (
            rows("SELECT lang, posts, 0, 0 FROM lang_tally ORDER BY 1").await,
            rows(
                "SELECT lang, count(*), 0, 0 FROM post_facts WHERE lang IS NOT NULL
                 GROUP BY lang ORDER BY 1",
            )
            .await,
        ),
        (
            rows("SELECT kind || value, posts, 0, 0 FROM entity_tally ORDER BY 1").await,
            rows(
                "SELECT kind || value, count(*), 0, 0 FROM post_entities
                 GROUP BY kind, value ORDER BY 1",
            )
            .await,
        ),
    ]
}

async fn assert_tallies_hold(store: &Store) {
    for (tally, recount) in tallies_and_recount(store).await {
        assert!(!recount.is_empty());
        assert_eq!(tally, recount);
    }
    // Each account's handle (migration 0028) is its newest post's spelling.
    let handles = |sql: &'static str| {
        let pool = store.pool.clone();
        async move {
            let rows: Vec<(String, i64, String)> =
                sqlx::query_as(sql).fetch_all(&pool).await.unwrap();
            rows
        }
    };
    assert_eq!(
        handles("SELECT author, pk, handle FROM author_handles ORDER BY 1").await,
        handles(
            "SELECT f.author, max(f.post_pk), p.author_username FROM post_facts f
             JOIN posts p ON p.pk = f.post_pk GROUP BY f.author ORDER BY 1",
        )
        .await
    );
    // The whole archive's top lists (from the tallies) equal a narrower scope's pass over
    // every post's facts, labels included.
    let from_tallies = store
        .analysis_top(&archive_scope(), 1_000)
        .await
        .unwrap()
        .unwrap();
    let from_posts = store
        .analysis_top(&from_1970(), 1_000)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(from_tallies, from_posts);
}

#[tokio::test]
async fn tallies_follow_posts_stored_seen_again_and_deleted() {
    let (store, _dir) = temp_store().await;
    let (mut posts, _) = corpus(3, utc(2026, 5, 1, 0), 200, 100);
    store.archive_posts(Utc::now(), &posts).await.unwrap();
    assert_tallies_hold(&store).await;

    // Seen again: other metrics, other entities, no language, the handle spelt otherwise.
    for (n, p) in posts.iter_mut().enumerate().filter(|(n, _)| n % 7 == 0) {
        p.like_count += 100 + n as i64;
        p.lang = None;
        p.author_username = p.author_username.to_uppercase();
        p.raw_json = json!({"id": p.id, "entities": {
            "hashtags": [{"text": format!("Seen{}", n % 3)}],
            "urls": [{"expanded_url": "https://www.again.example/x"}]}})
        .to_string();
    }
    store.archive_posts(Utc::now(), &posts).await.unwrap();
    assert_tallies_hold(&store).await;

    // Deleted (the app keeps every post; the triggers hold regardless), among them each
    // account's newest post, whose handle labelled it.
    sqlx::query(
        "DELETE FROM posts WHERE pk IN (SELECT max(post_pk) FROM post_facts GROUP BY author)
             OR id IN ('101', '102', '150')",
    )
    .execute(&store.pool)
    .await
    .unwrap();
    assert_tallies_hold(&store).await;

    // Every post of one account gone: it leaves the tally.
    sqlx::query("DELETE FROM posts WHERE lower(author_username) = 'acct5'")
        .execute(&store.pool)
        .await
        .unwrap();
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM author_tally WHERE author = 'acct5'")
        .fetch_one(&store.pool)
        .await
        .unwrap();
    assert_eq!(left, 0);
    assert_tallies_hold(&store).await;
}

#[tokio::test]
async fn the_migration_labels_the_accounts_of_posts_stored_before_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    {
        let store = Store::open_at_version(&path, 27).await.unwrap();
        let (mut posts, _) = corpus(3, utc(2026, 5, 1, 0), 200, 100);
        store.archive_posts(Utc::now(), &posts).await.unwrap();
        // A later spelling of some handles: the newest post's is the label.
        for p in posts.iter_mut().filter(|p| p.id.ends_with('7')) {
            p.author_username = p.author_username.to_uppercase();
        }
        store.archive_posts(Utc::now(), &posts).await.unwrap();
        store.close().await;
    }
    let store = Store::open(&path).await.unwrap();
    let labelled: i64 = sqlx::query_scalar("SELECT count(*) FROM author_handles")
        .fetch_one(&store.pool)
        .await
        .unwrap();
    assert!(labelled > 0);
    assert_tallies_hold(&store).await;
}
