//! A request's scope is the results it showed: the posts they quote or repost are archived and
//! traced to the request, but not counted in it; the migration reads the same rule off the
//! posts stored before it.

use super::*;
use crate::test_support::post;

/// A result that quotes `quoted` (both its id fields, as the service writes them).
fn quoting(id: &str, quoted: &NewPost, tag: &str) -> NewPost {
    let mut p = post(id, &format!("look #{tag}"), utc(2026, 5, 1, 9));
    p.raw_json = json!({"id": id, "quoted_status_id": quoted.id, "quote": {"id": quoted.id},
        "entities": {"hashtags": [{"text": tag}]}})
    .to_string();
    p
}

fn tagged(id: &str, tag: &str) -> NewPost {
    let mut p = post(id, &format!("about #{tag}"), utc(2026, 5, 1, 8));
    p.raw_json = json!({"id": id, "entities": {"hashtags": [{"text": tag}]}}).to_string();
    p
}

fn request_scope(history_id: i64) -> AnalysisScope {
    AnalysisScope {
        source: ScopeSource::Request { history_id },
        ..archive_scope()
    }
}

#[tokio::test]
async fn a_request_scope_counts_its_results_not_the_posts_they_quote() {
    let (store, _dir) = temp_store().await;
    // Shown: 10 (quoting 1), 11 (quoting 2) and 2 itself. Found only inside: 1.
    let inner_only = tagged("1", "inside");
    let inner_and_shown = tagged("2", "both");
    let mut r = record("r1", Utc::now());
    r.posts = vec![
        quoting("10", &inner_only, "outer"),
        NewPost {
            nested: true,
            ..inner_only.clone()
        },
        quoting("11", &inner_and_shown, "outer"),
        NewPost {
            nested: true,
            ..inner_and_shown.clone()
        },
        inner_and_shown.clone(),
    ];
    let history_id = match store.record_request(&r).await.unwrap() {
        crate::RecordOutcome::Recorded { history_id } => history_id,
        other => panic!("{other:?}"),
    };

    let scope = request_scope(history_id);
    let summary = store.analysis_summary(&scope).await.unwrap().unwrap();
    assert_eq!(summary.post_count, 3, "10, 11 and 2; not 1");
    let top = store.analysis_top(&scope, 10).await.unwrap().unwrap();
    assert_eq!(
        keys(&top.hashtags),
        (vec![("outer".to_owned(), 2), ("both".to_owned(), 1)], 2)
    );

    // The quoted post is archived and its provenance leads to the request all the same.
    let found_by = store.post_found_by("1").await.unwrap();
    assert_eq!(
        found_by.iter().map(|h| h.id).collect::<Vec<_>>(),
        [history_id]
    );
    let whole = store
        .analysis_summary(&archive_scope())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(whole.post_count, 4);

    // Written again (an interrupted request finished later), a shown post stays shown.
    store.record_request(&r).await.unwrap();
    let again = store.analysis_summary(&scope).await.unwrap().unwrap();
    assert_eq!(again.post_count, 3);
}

#[tokio::test]
async fn the_migration_reads_older_sightings_the_same_way() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    let pool = first_release_db(&path).await;
    sqlx::query(
        "INSERT INTO history (id, request_id, started_at, operation, params_json, mode, status, result_count)
         VALUES (1, 'old', 0, 'twitter_search', '{\"query\":\"x\"}', 'live', 'ok', 2)",
    )
    .execute(&pool)
    .await
    .unwrap();
    // 10 quotes 1 and 11 reposts 2: two results, two posts found inside them.
    for (pk, id, raw) in [
        (1, "1", json!({"id": "1"})),
        (2, "2", json!({"id": "2"})),
        (10, "10", json!({"id": "10", "quoted_status_id": "1"})),
        (
            11,
            "11",
            json!({"id": "11", "retweet": {"id": "2", "user": {"username": "Bo"}}}),
        ),
    ] {
        sqlx::query(
            "INSERT INTO posts (pk, id, author_username, author_name, author_verified, text, created_at,
                 like_count, retweet_count, reply_count, quote_count, bookmark_count, hashtags,
                 raw_json, first_seen, last_seen)
             VALUES (?, ?, 'ada', 'Ada', 0, 'old', 1000, 0, 0, 0, 0, 0, '', ?, 0, 0)",
        )
        .bind(pk)
        .bind(id)
        .bind(raw.to_string())
        .execute(&pool)
        .await
        .unwrap();
        sqlx::query("INSERT INTO post_sightings (post_pk, history_id) VALUES (?, 1)")
            .bind(pk)
            .execute(&pool)
            .await
            .unwrap();
    }
    pool.close().await;

    let store = Store::open(&path).await.unwrap();
    let summary = store
        .analysis_summary(&request_scope(1))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(summary.post_count, 2, "10 and 11, the request's results");
}
