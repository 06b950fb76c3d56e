//! What the screens' first views ask of SQLite, asked of it on a real file with every migration
//! applied (`EXPLAIN QUERY PLAN`): none reads a big table or index whole. With 10,000,000
//! posts and 1,000,000 history rows (`benches/scale.rs`), one whole read is seconds after a
//! restart, when every page comes from disk.

use chrono::{Duration, TimeZone, Utc};
use sqlx::{QueryBuilder, Sqlite};

use crate::archive::read::count_query;
use crate::test_support::{post, temp_store};
use crate::{PostQuery, Store};

/// SQLite's plan for `sql`, one line per step.
async fn plan(store: &Store, sql: &mut QueryBuilder<'_, Sqlite>) -> Vec<String> {
    let mut explain = QueryBuilder::<Sqlite>::new("EXPLAIN QUERY PLAN ");
    explain.push(sql.sql());
    // The plan does not depend on the values bound; the statement only needs as many.
    let bound = sql.sql().matches('?').count();
    let mut query = sqlx::query_as::<_, (i64, i64, i64, String)>(explain.sql());
    for _ in 0..bound {
        query = query.bind(0i64);
    }
    let rows = query.fetch_all(&store.pool).await.unwrap();
    rows.into_iter().map(|(_, _, _, detail)| detail).collect()
}

/// Tables that stay small however big the archive: one row per language, per day, per
/// setting... Reading one of them whole is fine.
const SMALL: [&str; 2] = ["CONSTANT ROW", "lang_tally"];

/// No step of `plan` reads a big table or an index of one from end to end.
fn assert_no_scan(plan: &[String], what: &str) {
    let whole = |step: &&String| {
        step.strip_prefix("SCAN ")
            .is_some_and(|table| !SMALL.contains(&table))
    };
    assert!(
        !plan.iter().any(|step| whole(&step)),
        "{what} reads a table or index whole: {plan:#?}"
    );
}

#[tokio::test]
async fn the_archives_count_of_every_post_reads_no_post() {
    let (store, _dir) = temp_store().await;
    let at = Utc.with_ymd_and_hms(2025, 3, 1, 12, 0, 0).unwrap();
    let mut posts: Vec<_> = (0..30)
        .map(|n| post(&format!("p{n}"), "a post", at + Duration::minutes(n)))
        .collect();
    // Posts with no language are counted too, and one seen again is still one post.
    for p in posts.iter_mut().take(4) {
        p.lang = None;
    }
    store.archive_posts(at, &posts).await.unwrap();
    store.archive_posts(at, &posts[..10]).await.unwrap();

    let everything = PostQuery::default();
    assert_eq!(store.posts_count(&everything).await.unwrap(), 30);
    let steps = plan(&store, &mut count_query(&everything)).await;
    assert_no_scan(&steps, "the Archive's count of every post");

    // A filtered count still counts what matches.
    let english = PostQuery {
        lang: Some("en".into()),
        ..PostQuery::default()
    };
    assert_eq!(store.posts_count(&english).await.unwrap(), 26);
}

#[tokio::test]
async fn the_whole_archives_network_reads_its_tallies_and_no_post() {
    use crate::analysis::edges::HeaviestEdges;
    use crate::analysis::network::{repost_edges_query, tallied_edges_query};
    use crate::{AnalysisScope, EdgeKind, NetworkQuery, ScopeFilters, ScopeSource};

    let (store, _dir) = temp_store().await;
    let at = Utc.with_ymd_and_hms(2025, 3, 1, 12, 0, 0).unwrap();
    let posts: Vec<_> = (0..30)
        .map(|n| {
            let mut p = post(&format!("p{n}"), "a post", at + Duration::minutes(n));
            p.raw_json = serde_json::json!({
                "id": p.id,
                "in_reply_to_screen_name": format!("to{}", n % 3),
                "quote": {"id": "q", "user": {"username": format!("q{}", n % 2)}},
                "entities": {"user_mentions": [{"screen_name": format!("m{}", n % 4)}]},
            })
            .to_string();
            p
        })
        .collect();
    store.archive_posts(at, &posts).await.unwrap();
    let whole = AnalysisScope {
        source: ScopeSource::Archive {
            query: PostQuery::default(),
        },
        from: None,
        to: None,
        filters: ScopeFilters::default(),
    };
    let network = store
        .analysis_network(&whole, &NetworkQuery::default())
        .await
        .unwrap()
        .unwrap();
    assert!(network.edges.len() >= 3 + 2 + 4);

    let heaviest = HeaviestEdges {
        min_weight: 1,
        limit: 5_000,
    };
    for kind in [EdgeKind::Reply, EdgeKind::Quote, EdgeKind::Mention] {
        let steps = plan(&store, &mut tallied_edges_query(kind, heaviest)).await;
        assert_no_scan(&steps, &format!("the whole archive's {kind:?} edges"));
        // Walked in the order shown, stopping at the limit: no sort of every edge.
        assert!(
            !steps.iter().any(|s| s.contains("TEMP B-TREE")),
            "{kind:?}: {steps:#?}"
        );
    }
    // Reposts are not tallied (each reposter counts once a post): the timeline's are read off
    // the index of the reposts alone, never every post's facts. The reposters lists are read
    // whole (a row per user of each list fetched, not per post).
    let steps = plan(&store, &mut repost_edges_query(heaviest)).await;
    assert!(
        steps
            .iter()
            .any(|s| s == "SCAN f USING COVERING INDEX post_facts_repost_edges"),
        "{steps:#?}"
    );
    assert!(
        !steps.iter().any(|s| s == "SCAN f" || s == "SCAN p"),
        "{steps:#?}"
    );
}
