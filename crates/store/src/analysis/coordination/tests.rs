//! The reposters query's plan, asked of SQLite on a real file with every migration applied:
//! each reposters row finds its post by id and the post's facts by row, one lookup each, and
//! only then is the post checked against the scope. Commit b856233's bug: SQLite carried the
//! scope's post list over to the posts index and probed all of it for every reposters row
//! (`id=? AND rowid=?` under a list), so a 100-page search scope's read ran for minutes.

use chrono::{Duration, TimeZone, Utc};
use serde_json::json;
use sqlx::{QueryBuilder, Sqlite};

use super::push_reposters;
use crate::test_support::{post, record, temp_store};
use crate::{AnalysisScope, InvestigationItem, RecordOutcome, ScopeFilters, ScopeSource, Store};

/// As the benches' archive (`benches/common/archive.rs`), smaller: a search paged 100 times,
/// its posts also filed in an investigation, and reposters lists for some of them.
const PAGES: i64 = 100;
const PER_PAGE: i64 = 10;
const LISTS: i64 = 40;

fn scope(source: ScopeSource) -> AnalysisScope {
    AnalysisScope {
        source,
        from: None,
        to: None,
        filters: ScopeFilters::default(),
    }
}

/// Builds the archive; answers the search's first page and the investigation.
async fn archive(store: &Store) -> (i64, i64) {
    let start = Utc.with_ymd_and_hms(2026, 3, 1, 0, 0, 0).unwrap();
    let id = |n: i64| (10_000 + n).to_string();
    let mut parent = None;
    let mut first = None;
    for page in 0..PAGES {
        let mut rec = record(&format!("search-{page}"), start);
        rec.parent_id = parent;
        rec.posts = (page * PER_PAGE..(page + 1) * PER_PAGE)
            .map(|n| post(&id(n), "text", start + Duration::minutes(n)))
            .collect();
        let RecordOutcome::Recorded { history_id } = store.record_request(&rec).await.unwrap()
        else {
            panic!("recorded once")
        };
        parent = Some(history_id);
        first.get_or_insert(history_id);
    }
    for n in 0..LISTS {
        let mut list = record(&format!("reposters-{n}"), start);
        list.operation = "twitter_retweeters".into();
        list.params_json = json!({ "id": id(n * 7) }).to_string();
        let users: Vec<_> = (0..20)
            .map(|u| json!({ "id": u.to_string(), "username": format!("fan{u}") }))
            .collect();
        list.result_json = Some(json!({ "users": users }).to_string());
        store.record_request(&list).await.unwrap();
    }
    let case = store
        .create_investigation("Plan", "", Utc::now())
        .await
        .unwrap();
    let items: Vec<InvestigationItem> = (0..PAGES * PER_PAGE)
        .map(|n| InvestigationItem::Post { post_id: id(n) })
        .collect();
    store
        .add_to_investigation(case, &items, Utc::now())
        .await
        .unwrap();
    (first.unwrap(), case)
}

/// SQLite's plan for the query the store runs over `scope`, one line per step.
async fn plan(store: &Store, scope: &AnalysisScope) -> Vec<String> {
    let resolved = store.resolve_scope(scope).await.unwrap().unwrap();
    let mut sql = QueryBuilder::<Sqlite>::new("EXPLAIN QUERY PLAN ");
    push_reposters(&mut sql, &resolved);
    let rows: Vec<(i64, i64, i64, String)> =
        sql.build_query_as().fetch_all(&store.pool).await.unwrap();
    rows.into_iter().map(|(_, _, _, detail)| detail).collect()
}

/// The plan looks each reposters row's post up by id alone and its facts by row, and reads
/// neither whole. (The scope's own list of posts is built once, its plan SQLite's choice.)
fn assert_lookup_per_row(plan: &[String], what: &str) {
    let has = |line: &str| plan.iter().any(|step| step == line);
    assert!(
        has("SEARCH rp USING COVERING INDEX sqlite_autoindex_posts_1 (id=?)"),
        "{what}: each reposters row's post is not one lookup by id: {plan:#?}"
    );
    assert!(
        has("SEARCH pf USING INTEGER PRIMARY KEY (rowid=?)"),
        "{what}: each post's facts are not one lookup by row: {plan:#?}"
    );
    for table in ["rp", "pf"] {
        assert!(
            !plan
                .iter()
                .any(|step| step.starts_with(&format!("SCAN {table}"))),
            "{what}: {table} is read whole: {plan:#?}"
        );
    }
    assert!(
        !plan
            .iter()
            .any(|step| step.contains("rowid=?)") && step.contains("id=? AND")),
        "{what}: the scope's list is probed per reposters row: {plan:#?}"
    );
}

#[tokio::test]
async fn the_scopes_reposters_are_a_lookup_per_reposters_row() {
    let (store, _dir) = temp_store().await;
    let (search, case) = archive(&store).await;
    let scopes = [
        (
            "a 100-page search",
            scope(ScopeSource::Request { history_id: search }),
        ),
        (
            "an investigation",
            scope(ScopeSource::Investigation { id: case }),
        ),
    ];
    for (what, scope) in &scopes {
        assert_lookup_per_row(&plan(&store, scope).await, what);
    }
    // With the planner's statistics, as `PRAGMA optimize` leaves them at close.
    sqlx::query("ANALYZE").execute(&store.pool).await.unwrap();
    for (what, scope) in &scopes {
        assert_lookup_per_row(&plan(&store, scope).await, &format!("{what}, analysed"));
    }
    // And the query answers: every listed post is in the scope, each (post, reposter) once.
    let read = store
        .coordination_reposters(&scopes[0].1)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(read.len() as i64, LISTS * 20);
}
