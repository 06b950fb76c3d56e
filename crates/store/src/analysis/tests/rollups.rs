//! The whole archive's activity roll-ups (migration 0021) against a count of the posts: the
//! roll-up rows against a grouping of post_facts, and the activity, heatmap and summary read
//! from them against the same read from the posts' facts (a filter every post passes), for the
//! whole archive and within ranges on quarter hours (and one off them), in zones with whole-hour, half-hour and
//! three-quarter-hour offsets and DST changes, after posts are stored, seen again and deleted;
//! a zone whose offset is no whole quarter hour; the backfill of a database from before 0021.

use super::*;
use crate::analysis::aggregates;

/// The same posts as `scope` (the whole archive, perhaps within a range), counted post by
/// post: a filter on likes that every post passes narrows nothing but the way they are read.
fn post_by_post(scope: &AnalysisScope) -> AnalysisScope {
    let mut scope = scope.clone();
    if let ScopeSource::Archive { query } = &mut scope.source {
        query.min_likes = Some(0);
    }
    scope
}

/// The whole archive, and within ranges as the chart's brush snaps them (on the hour, on
/// Kolkata's and Kathmandu's midnight, open at one end) or not on a quarter hour at all.
fn scopes() -> Vec<AnalysisScope> {
    let at = |y, m, d, h, min| Utc.with_ymd_and_hms(y, m, d, h, min, 0).unwrap();
    let ranged = |from: Option<DateTime<Utc>>, to: Option<DateTime<Utc>>| AnalysisScope {
        from,
        to,
        ..archive_scope()
    };
    vec![
        archive_scope(),
        ranged(Some(at(2026, 3, 7, 5, 0)), Some(at(2026, 3, 9, 4, 0))),
        ranged(Some(at(2026, 9, 27, 18, 30)), None),
        ranged(None, Some(at(2026, 10, 1, 18, 15))),
        ranged(Some(at(2026, 3, 7, 0, 7)), Some(at(2026, 9, 28, 0, 0))),
    ]
}

/// Zones: UTC; New York (DST); Kolkata (+5:30); Kathmandu (+5:45); Lord Howe (+10:30, a
/// half-hour DST change); Chatham (+12:45, DST).
const ZONES: [&str; 6] = [
    "UTC",
    "America/New_York",
    "Asia/Kolkata",
    "Asia/Kathmandu",
    "Australia/Lord_Howe",
    "Pacific/Chatham",
];

/// Each roll-up's rows, and the same grouped afresh from post_facts.
async fn rollups_and_recount(
    store: &Store,
) -> [(Vec<(i64, String, i64, i64)>, Vec<(i64, String, i64, i64)>); 2] {
    let rows = |sql: &'static str| {
        let pool = store.pool.clone();
        async move {
            let rows: Vec<(i64, String, i64, i64)> =
                sqlx::query_as(sql).fetch_all(&pool).await.unwrap();
            rows
        }
    };
    [
        (
            rows("SELECT created_at, lang, posts, engagement FROM activity_by_lang ORDER BY 1, 2")
                .await,
            rows(
                "SELECT created_at / 900000 * 900000 AS q, COALESCE(lang, 'none') AS l, count(*),
                        sum(engagement)
                 FROM post_facts GROUP BY q, l ORDER BY 1, 2",
            )
            .await,
        ),
        (
            rows(
                "SELECT created_at, CAST(account_kind AS TEXT), posts, engagement FROM activity_by_kind
                 ORDER BY 1, 2",
            )
            .await,
            rows(
                "SELECT created_at / 900000 * 900000 AS q, CAST(account_kind AS TEXT), count(*), sum(engagement)
                 FROM post_facts GROUP BY q, account_kind ORDER BY 1, 2",
            )
            .await,
        ),
    ]
}

/// The roll-ups equal a recount, and every chart read from them equals the same chart counted
/// post by post, in every zone, bucket and stacking.
async fn assert_rollups_hold(store: &Store) {
    for (rollup, recount) in rollups_and_recount(store).await {
        assert!(!recount.is_empty());
        assert_eq!(rollup, recount);
    }
    for whole in scopes() {
        assert_charts_equal(store, &whole, &post_by_post(&whole)).await;
    }
}

/// Every chart of `whole` (read off the roll-ups where they hold it) equals that of `posts`.
async fn assert_charts_equal(store: &Store, whole: &AnalysisScope, posts: &AnalysisScope) {
    let range = (whole.from, whole.to);
    let summary = store.analysis_summary(whole).await.unwrap();
    assert!(summary.as_ref().unwrap().post_count > 0, "{range:?}");
    assert_eq!(
        summary,
        store.analysis_summary(posts).await.unwrap(),
        "{range:?}"
    );
    let (whole, posts) = (whole.clone(), posts.clone());
    for zone in ZONES {
        let tz: Tz = zone.parse().unwrap();
        assert_eq!(
            store.analysis_heatmap(&whole, tz).await.unwrap(),
            store.analysis_heatmap(&posts, tz).await.unwrap(),
            "{zone} {range:?}"
        );
        for stack_by in [StackBy::Language, StackBy::AccountKind] {
            for bucket in [
                None,
                Some(Bucket::Hour),
                Some(Bucket::Day),
                Some(Bucket::Week),
                Some(Bucket::Month),
            ] {
                assert_eq!(
                    store
                        .analysis_activity(&whole, stack_by, bucket, tz)
                        .await
                        .unwrap(),
                    store
                        .analysis_activity(&posts, stack_by, bucket, tz)
                        .await
                        .unwrap(),
                    "{zone} {stack_by:?} {bucket:?} {range:?}"
                );
            }
        }
    }
}

/// Posts across the DST changes of New York (8 March 2026), Chatham (27 September) and Lord
/// Howe (4 October), three to a quarter hour or so (three corpora side by side, a few seconds
/// apart), so that a roll-up row holds several posts of mixed languages and kinds.
async fn stored_posts(store: &Store) -> Vec<NewPost> {
    let mut posts = Vec::new();
    for (start, first_id) in [(utc(2026, 3, 6, 0), 1_000), (utc(2026, 9, 26, 0), 5_000)] {
        for side in 0..3_u64 {
            let (mut more, _) = corpus(7 + side, start, 300, first_id + side * 1_000);
            for (n, p) in more.iter_mut().enumerate() {
                p.created_at += Duration::seconds((n as i64 * 97 + side as i64 * 200) % 900);
            }
            posts.extend(more);
        }
    }
    store.archive_posts(Utc::now(), &posts).await.unwrap();
    posts
}

#[tokio::test]
async fn activity_from_rollups_equals_a_count_of_posts_stored_seen_again_and_deleted() {
    let (store, _dir) = temp_store().await;
    let mut posts = stored_posts(&store).await;
    let fullest: i64 = sqlx::query_scalar("SELECT max(posts) FROM activity_by_lang")
        .fetch_one(&store.pool)
        .await
        .unwrap();
    assert!(
        fullest >= 2,
        "rows of one post each would hide a wrong subtraction"
    );
    assert_rollups_hold(&store).await;

    // Seen again: other metrics, language, account kind and even time.
    for (n, p) in posts.iter_mut().enumerate().filter(|(n, _)| n % 7 == 0) {
        p.like_count += 100 + n as i64;
        p.lang = if n % 2 == 0 { None } else { Some("pt".into()) };
        p.created_at += Duration::minutes(20);
        p.raw_json = json!({"id": p.id, "user": {"verified": n % 3 == 0}}).to_string();
    }
    store.archive_posts(Utc::now(), &posts).await.unwrap();
    assert_rollups_hold(&store).await;

    // Deleted (the app keeps every post; the triggers hold regardless), among them every post
    // of one quarter hour's language, whose row then goes.
    sqlx::query("DELETE FROM posts WHERE pk % 5 = 0 OR id IN ('1001', '2001', '3001', '5150')")
        .execute(&store.pool)
        .await
        .unwrap();
    assert_rollups_hold(&store).await;
    let empty: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM activity_by_lang WHERE posts <= 0
         UNION ALL SELECT count(*) FROM activity_by_kind WHERE posts <= 0",
    )
    .fetch_one(&store.pool)
    .await
    .unwrap();
    assert_eq!(empty, 0);

    // The whole archive's charts, and a range on quarter hours, read the roll-ups: a row
    // changed by hand shows in them (and not in the same chart counted post by post); a range
    // off the quarter hour does not.
    sqlx::query("UPDATE activity_by_kind SET posts = posts + 1000")
        .execute(&store.pool)
        .await
        .unwrap();
    let tz: Tz = "Asia/Kolkata".parse().unwrap();
    for (n, scope) in scopes().iter().enumerate() {
        let read = store.analysis_heatmap(scope, tz).await.unwrap().unwrap();
        let posts = store
            .analysis_heatmap(&post_by_post(scope), tz)
            .await
            .unwrap()
            .unwrap();
        let off_the_quarter = n == 4;
        assert_eq!(read.total == posts.total, off_the_quarter, "scope {n}");
    }
}

#[test]
fn quarter_hours_fit_zones_since_1980_but_not_a_local_mean_time() {
    let at = |y, m, d| utc(y, m, d, 0).timestamp_millis();
    for zone in ZONES.iter().chain(&["Asia/Kathmandu", "Europe/London"]) {
        let tz: Tz = zone.parse().unwrap();
        let changes = aggregates::offsets(tz, at(2020, 1, 1), at(2026, 12, 31));
        assert!(aggregates::quarters_fit(&changes), "{zone}");
    }
    // Liberia kept Monrovia Mean Time (-0:44:30) until May 1972.
    let tz: Tz = "Africa/Monrovia".parse().unwrap();
    let changes = aggregates::offsets(tz, at(1971, 1, 1), at(1973, 1, 1));
    assert!(!aggregates::quarters_fit(&changes));
}

#[tokio::test]
async fn a_zone_off_the_quarter_hour_counts_the_posts_themselves() {
    let (store, _dir) = temp_store().await;
    let (posts, facts) = corpus(5, utc(1971, 12, 30, 0), 200, 100);
    store.archive_posts(Utc::now(), &posts).await.unwrap();
    // A roll-up row changed by hand: a chart that read it would be off.
    sqlx::query("UPDATE activity_by_kind SET posts = posts + 1000")
        .execute(&store.pool)
        .await
        .unwrap();
    let tz: Tz = "Africa/Monrovia".parse().unwrap();
    let map = store
        .analysis_heatmap(&archive_scope(), tz)
        .await
        .unwrap()
        .unwrap();
    let all: Vec<&Fact> = facts.iter().collect();
    assert_eq!(map.total, facts.len() as i64);
    assert_eq!(map.cells, recount_heatmap(&all, tz));
}

#[tokio::test]
async fn the_migration_backfills_rollups_of_posts_stored_before_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    {
        let store = Store::open_at_version(&path, 18).await.unwrap();
        stored_posts(&store).await;
        store.close().await;
    }
    let store = Store::open(&path).await.unwrap();
    assert_rollups_hold(&store).await;
}
