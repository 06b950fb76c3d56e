//! What the screens' first views ask of SQLite, asked of it on a real file with every migration
//! applied (`EXPLAIN QUERY PLAN`): none reads a big table or index whole. With 10,000,000
//! posts and 1,000,000 history rows (`benches/scale.rs`), one whole read is seconds after a
//! restart, when every page comes from disk.

use chrono::{Duration, TimeZone, Utc};
use sqlx::{QueryBuilder, Sqlite};

use crate::archive::read::{count_query, posts_page_query as archive_page_query, Plan};
use crate::archive::PostSort;
use crate::history::{history_count_query, history_page_query, TextPlan};
use crate::investigations::read::{posts_count_query, posts_page_query};
use crate::test_support::{post, record, temp_store};
use crate::{
    HistoryQuery, InvestigationItem, InvestigationPostQuery, PendingRequest, PostQuery,
    RequestStatus, Store,
};

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

/// Tables of counts kept by triggers (one row per operation and status, per investigation):
/// a count read off them reads a row or a few, however many it counts.
const COUNTS: [&str; 2] = ["history_counts", "investigation_post_counts"];

/// Every step of `plan` reads one of [`COUNTS`]: nothing of the rows counted, not even a
/// range of an index (a million entries of one investigation is a range, not a scan).
fn assert_reads_counts_only(plan: &[String], what: &str) {
    let reads = |step: &&String| {
        (step.starts_with("SCAN ") || step.starts_with("SEARCH ")) && *step != "SCAN CONSTANT ROW"
    };
    let of_counts = |step: &&String| {
        step.split(' ')
            .nth(1)
            .is_some_and(|table| COUNTS.contains(&table))
    };
    assert!(
        plan.iter().filter(reads).all(|step| of_counts(&step)),
        "{what} reads more than its counts: {plan:#?}"
    );
    assert!(plan.iter().any(|step| reads(&step)), "{what}: {plan:#?}");
}

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
async fn historys_count_reads_its_counts_not_its_rows() {
    let (store, _dir) = temp_store().await;
    let at = Utc.with_ymd_and_hms(2025, 3, 1, 12, 0, 0).unwrap();
    for n in 0..6 {
        let mut rec = record(&format!("r{n}"), at + Duration::minutes(n));
        if n % 3 == 0 {
            rec.operation = "twitter_user".into();
        }
        if n == 5 {
            rec.status = RequestStatus::Error;
        }
        store.record_request(&rec).await.unwrap();
    }
    for q in [
        HistoryQuery::default(),
        HistoryQuery {
            operation: Some("twitter_search".into()),
            ..HistoryQuery::default()
        },
        HistoryQuery {
            status: Some(RequestStatus::Ok),
            ..HistoryQuery::default()
        },
        HistoryQuery {
            operation: Some("twitter_search".into()),
            status: Some(RequestStatus::Error),
            ..HistoryQuery::default()
        },
    ] {
        let text = store.text_plan(&q).await.unwrap();
        let steps = plan(&store, &mut history_count_query(&q, text)).await;
        assert_reads_counts_only(&steps, &format!("History's count ({q:?})"));
        assert_eq!(
            store.history_count(&q).await.unwrap(),
            counted(&store, &q).await,
            "{q:?}"
        );
    }
    // Any other filter counts the rows themselves.
    let pinned = HistoryQuery {
        pinned_only: true,
        ..HistoryQuery::default()
    };
    assert_eq!(store.history_count(&pinned).await.unwrap(), 0);
}

/// History's count as `count(*)` over its rows, filtered by operation and status.
async fn counted(store: &Store, q: &HistoryQuery) -> i64 {
    sqlx::query_scalar(
        "SELECT count(*) FROM history WHERE (?1 IS NULL OR operation = ?1)
           AND (?2 IS NULL OR status = ?2)",
    )
    .bind(q.operation.clone())
    .bind(q.status.map(RequestStatus::as_str))
    .fetch_one(&store.pool)
    .await
    .unwrap()
}

#[tokio::test]
async fn historys_counts_follow_every_insert_finish_and_delete() {
    let (store, _dir) = temp_store().await;
    let at = Utc.with_ymd_and_hms(2025, 3, 1, 12, 0, 0).unwrap();
    let ok = HistoryQuery {
        status: Some(RequestStatus::Ok),
        ..HistoryQuery::default()
    };
    let running = HistoryQuery {
        status: Some(RequestStatus::Running),
        ..HistoryQuery::default()
    };
    // Begun (running), then finished (ok): moved from one status to the other.
    let pending = PendingRequest {
        request_id: "stream".into(),
        started_at: at,
        operation: "twitter_search".into(),
        params_json: "{}".into(),
        key_label: None,
        mode: "live".into(),
    };
    store.begin_request(&pending).await.unwrap();
    assert_eq!(store.history_count(&running).await.unwrap(), 1);
    store.record_request(&record("stream", at)).await.unwrap();
    assert_eq!(store.history_count(&running).await.unwrap(), 0);
    assert_eq!(store.history_count(&ok).await.unwrap(), 1);
    // Recorded again: still one request.
    let outcome = store.record_request(&record("stream", at)).await.unwrap();
    let id = outcome.history_id();
    store.record_request(&record("other", at)).await.unwrap();
    assert_eq!(
        store.history_count(&HistoryQuery::default()).await.unwrap(),
        2
    );
    assert!(store.delete_history(id).await.unwrap());
    assert_eq!(
        store.history_count(&HistoryQuery::default()).await.unwrap(),
        1
    );
    assert_eq!(store.history_count(&ok).await.unwrap(), 1);
    let rows: i64 = sqlx::query_scalar("SELECT count(*) FROM history_counts")
        .fetch_one(&store.pool)
        .await
        .unwrap();
    assert_eq!(rows, 1, "a count fallen to nothing is no row");
}

#[tokio::test]
async fn an_investigations_count_reads_its_counts_not_its_posts() {
    let (store, _dir) = temp_store().await;
    let at = Utc.with_ymd_and_hms(2025, 3, 1, 12, 0, 0).unwrap();
    let posts: Vec<_> = (0..12)
        .map(|n| post(&format!("p{n}"), "a post", at + Duration::minutes(n)))
        .collect();
    store.archive_posts(at, &posts).await.unwrap();
    let case = store.create_investigation("Case", "", at).await.unwrap();
    let other = store.create_investigation("Other", "", at).await.unwrap();
    let items = |range: std::ops::Range<usize>| -> Vec<InvestigationItem> {
        range
            .map(|n| InvestigationItem::Post {
                post_id: format!("p{n}"),
            })
            .collect()
    };
    store
        .add_to_investigation(case, &items(0..10), at)
        .await
        .unwrap();
    // Filed again (an upsert that finds it there): counted once.
    store
        .add_to_investigation(case, &items(5..12), at)
        .await
        .unwrap();
    store
        .add_to_investigation(other, &items(0..3), at)
        .await
        .unwrap();
    store
        .remove_from_investigation(case, &items(0..2), at)
        .await
        .unwrap();

    let everything = InvestigationPostQuery::default();
    let steps = plan(&store, &mut posts_count_query(case, &everything).unwrap()).await;
    assert_reads_counts_only(&steps, "an investigation's count of its posts");
    let page = store.investigation_posts(case, &everything).await.unwrap();
    assert_eq!(page.total, 10);
    let summary = store.investigation(case).await.unwrap().unwrap();
    assert_eq!(summary.post_count, 10);
    assert_eq!(
        store
            .investigation(other)
            .await
            .unwrap()
            .unwrap()
            .post_count,
        3
    );
    // A filter counts the posts themselves.
    let after = InvestigationPostQuery {
        from: Some(at + Duration::minutes(10)),
        ..InvestigationPostQuery::default()
    };
    assert_eq!(
        store.investigation_posts(case, &after).await.unwrap().total,
        2
    );

    // Deleted with its posts (a cascade): no count left behind.
    assert!(store.delete_investigation(case).await.unwrap());
    let rows: Vec<(i64, i64)> =
        sqlx::query_as("SELECT investigation_id, posts FROM investigation_post_counts")
            .fetch_all(&store.pool)
            .await
            .unwrap();
    assert_eq!(rows, vec![(other, 3)]);
}

#[tokio::test]
async fn the_whole_archives_network_reads_its_tallies_and_no_post() {
    use crate::analysis::edges::HeaviestEdges;
    use crate::analysis::network::{repost_edges_query, tallied_edges_query, ARCHIVE_AUTHORS};
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
    // The nodes' posts and handles: seeks into the tallies and handles, no post read.
    let steps = plan(&store, &mut QueryBuilder::new(ARCHIVE_AUTHORS)).await;
    assert!(steps.iter().all(|s| !s.contains("posts")), "{steps:#?}");
    assert!(
        steps.iter().any(|s| s.starts_with("SEARCH h ")),
        "{steps:#?}"
    );
}

#[tokio::test]
async fn historys_pages_follow_the_row_before_them() {
    let (store, _dir) = temp_store().await;
    let at = Utc.with_ymd_and_hms(2025, 3, 1, 12, 0, 0).unwrap();
    // Three rows to a minute: pages break between rows of the same time.
    for n in 0..25 {
        let mut rec = record(&format!("r{n}"), at + Duration::minutes(n / 3));
        if n % 4 == 0 {
            rec.operation = "twitter_user".into();
        }
        store.record_request(&rec).await.unwrap();
    }
    for operation in [None, Some("twitter_search".to_owned())] {
        let q = HistoryQuery {
            operation,
            limit: 4,
            ..HistoryQuery::default()
        };
        let all = store
            .history(&HistoryQuery {
                limit: 100,
                ..q.clone()
            })
            .await
            .unwrap();
        let mut paged = Vec::new();
        let mut after = None;
        // Bounded: a page that ignored the row before it would come back forever.
        for _ in 0..20 {
            let page = store
                .history(&HistoryQuery { after, ..q.clone() })
                .await
                .unwrap();
            let Some(last) = page.last() else { break };
            after = Some(last.id);
            paged.extend(page);
        }
        assert_eq!(paged, all, "{:?}", q.operation);
        assert!(all.len() >= 18);
    }

    // A page after a row reads the index from that row on, not every row before it.
    let q = HistoryQuery {
        limit: 4,
        offset: 8,
        after: Some(9),
        ..HistoryQuery::default()
    };
    let steps = plan(
        &store,
        &mut history_page_query(&q, TextPlan::None, Some((0, 9))),
    )
    .await;
    assert_no_scan(&steps, "a page of History after a row");

    // The row paged from is gone: the offset places the page.
    let keyed = store.history(&q).await.unwrap();
    let by_offset = HistoryQuery {
        after: None,
        ..q.clone()
    };
    let by_offset = store.history(&by_offset).await.unwrap();
    assert_ne!(keyed, by_offset);
    assert!(keyed.iter().all(|row| row.id < 9));
    assert!(store.delete_history(9).await.unwrap());
    assert_eq!(store.history(&q).await.unwrap(), by_offset);
}

#[tokio::test]
async fn the_archives_pages_start_at_the_post_before_them() {
    let (store, _dir) = temp_store().await;
    for (sort, range) in [
        (PostSort::Newest, "created_at<?"),
        (PostSort::Relevance, "created_at<?"),
        (PostSort::Oldest, "created_at>?"),
    ] {
        let q = PostQuery {
            sort,
            after: Some("p7".into()),
            ..PostQuery::default()
        };
        let steps = plan(
            &store,
            &mut archive_page_query(&q, Plan::Browse, Some((0, 7))),
        )
        .await;
        assert_eq!(
            steps,
            [format!("SEARCH p USING INDEX posts_created ({range})")],
            "a page of the archive after a post, {sort:?}"
        );
    }
}

#[tokio::test]
async fn an_investigations_pages_follow_the_post_before_them() {
    let (store, _dir) = temp_store().await;
    let at = Utc.with_ymd_and_hms(2025, 3, 1, 12, 0, 0).unwrap();
    // Two posts to a minute: pages break between posts of the same time.
    let posts: Vec<_> = (0..15)
        .map(|n| post(&format!("p{n}"), "a post", at + Duration::minutes(n / 2)))
        .collect();
    store.archive_posts(at, &posts).await.unwrap();
    let case = store.create_investigation("Case", "", at).await.unwrap();
    let items: Vec<InvestigationItem> = (0..15)
        .map(|n| InvestigationItem::Post {
            post_id: format!("p{n}"),
        })
        .collect();
    store.add_to_investigation(case, &items, at).await.unwrap();

    let ids = |page: &crate::InvestigationPostPage| -> Vec<String> {
        page.posts.iter().map(|p| p.post.id.clone()).collect()
    };
    let all = store
        .investigation_posts(case, &InvestigationPostQuery::default())
        .await
        .unwrap();
    let mut paged = Vec::new();
    let mut after = None;
    // Bounded: a page that ignored the post before it would come back forever.
    for _ in 0..20 {
        let q = InvestigationPostQuery {
            limit: 4,
            after: after.clone(),
            ..InvestigationPostQuery::default()
        };
        let page = store.investigation_posts(case, &q).await.unwrap();
        let Some(last) = page.posts.last() else { break };
        after = Some(last.post.id.clone());
        paged.extend(ids(&page));
    }
    assert_eq!(paged, ids(&all));
    assert_eq!(paged.len(), 15);

    // A page after a post starts the investigation's index at that post.
    let q = InvestigationPostQuery {
        limit: 4,
        after: Some("p7".into()),
        ..InvestigationPostQuery::default()
    };
    let steps = plan(
        &store,
        &mut posts_page_query(case, &q, Some((0, 7))).unwrap(),
    )
    .await;
    assert!(
        steps
            .iter()
            .any(|s| s.contains("(created_at,post_pk)<(?,?)")),
        "a page of an investigation's posts after a post: {steps:#?}"
    );

    // The post paged from is no longer filed: the offset places the page.
    store
        .remove_from_investigation(case, &items[7..8], at)
        .await
        .unwrap();
    let q = InvestigationPostQuery { offset: 4, ..q };
    let by_offset = InvestigationPostQuery {
        after: None,
        ..q.clone()
    };
    assert_eq!(
        ids(&store.investigation_posts(case, &q).await.unwrap()),
        ids(&store.investigation_posts(case, &by_offset).await.unwrap())
    );
}

/// Every `SCAN` of `plan` reads a subquery's rows, one of `own` (a CTE, a JSON parameter) or
/// one of [`SMALL`]: no table or index of the archive whole.
fn assert_scans_only_its_own(plan: &[String], what: &str, own: &[&str]) {
    let whole = |step: &&String| {
        step.strip_prefix("SCAN ").is_some_and(|rest| {
            let table = rest.split(' ').next().unwrap_or_default();
            !SMALL.contains(&rest) && !own.contains(&table) && !table.starts_with("(subquery")
        })
    };
    assert!(
        !plan.iter().any(|step| whole(&step)),
        "{what} reads a table or index whole: {plan:#?}"
    );
}

#[tokio::test]
async fn spend_for_a_year_reads_no_ledger_whole() {
    use crate::spend::owners::owner_sql;
    use crate::spend::{sum_pieces_sql, RECENT_BILLING, UNREADABLE_IN_RANGE};
    use crate::SpendDimension;

    let (store, _dir) = temp_store().await;
    // The series and breakdowns: roll-up ranges, running totals at the bounds, the ledger
    // only between a bound off the quarter hour and the quarter hour before it.
    for dim in [
        SpendDimension::Service,
        SpendDimension::Operation,
        SpendDimension::KeyLabel,
    ] {
        let mut sql = QueryBuilder::<Sqlite>::new(sum_pieces_sql(dim).unwrap());
        let steps = plan(&store, &mut sql).await;
        assert_scans_only_its_own(
            &steps,
            &format!("Spend by {dim:?}"),
            &["p", "sums", "json_each"],
        );
        assert!(
            steps
                .iter()
                .any(|s| s.contains("INDEX ledger_at (at>? AND at<?)")),
            "{steps:#?}"
        );
    }
    for (dim, owners) in [
        (SpendDimension::Monitor, "monitors"),
        (SpendDimension::Collection, "collections"),
    ] {
        let mut sql = QueryBuilder::<Sqlite>::new(owner_sql(dim, owners));
        let steps = plan(&store, &mut sql).await;
        assert_scans_only_its_own(&steps, &format!("Spend by {dim:?}"), &[]);
    }
    for sql in [UNREADABLE_IN_RANGE, RECENT_BILLING] {
        let steps = plan(&store, &mut QueryBuilder::<Sqlite>::new(sql)).await;
        assert_scans_only_its_own(&steps, sql, &[]);
    }
}

#[tokio::test]
async fn the_users_and_links_pages_follow_the_row_before_them() {
    use crate::archive::read::{links_page_query, users_page_query};
    use crate::test_support::link;
    use crate::{LinkQuery, NewUser, UserQuery};

    let (store, _dir) = temp_store().await;
    let at = Utc.with_ymd_and_hms(2025, 3, 1, 12, 0, 0).unwrap();
    // Seven requests of three users and three links each: pages break inside one answer, whose
    // rows share their time.
    for n in 0..7 {
        let mut rec = record(&format!("r{n}"), at + Duration::minutes(n));
        rec.users = (0..3)
            .map(|k| NewUser {
                id: format!("u{n}-{k}"),
                username: format!("user_{}", 9 - k),
                name: format!("User {n} {k}"),
                verified: false,
                followers_count: None,
                description: None,
                raw_json: "{}".into(),
            })
            .collect();
        rec.links = (0..3)
            .map(|k| link(&format!("https://example.org/{n}/{k}")))
            .collect();
        store.record_request(&rec).await.unwrap();
    }

    let all_users = store
        .users(&UserQuery {
            limit: 100,
            ..UserQuery::default()
        })
        .await
        .unwrap();
    assert_eq!(all_users.len(), 21);
    // Newest first; within one answer, the service's order.
    let first: Vec<&str> = all_users[..3].iter().map(|u| u.id.as_str()).collect();
    assert_eq!(first, ["u6-0", "u6-1", "u6-2"]);
    let mut paged = Vec::new();
    let mut after = None;
    // Bounded: a page that ignored the row before it would come back forever.
    for _ in 0..20 {
        let q = UserQuery {
            limit: 4,
            after,
            ..UserQuery::default()
        };
        let page = store.users(&q).await.unwrap();
        let Some(last) = page.last() else { break };
        after = Some(last.id.clone());
        paged.extend(page);
    }
    assert_eq!(paged, all_users);

    let all_links = store
        .links(&LinkQuery {
            limit: 100,
            ..LinkQuery::default()
        })
        .await
        .unwrap();
    assert_eq!(all_links.len(), 21);
    let first: Vec<&str> = all_links[..3].iter().map(|l| l.link.as_str()).collect();
    assert_eq!(
        first,
        [
            "https://example.org/6/0",
            "https://example.org/6/1",
            "https://example.org/6/2"
        ]
    );
    let mut paged = Vec::new();
    let mut after = None;
    for _ in 0..20 {
        let q = LinkQuery {
            limit: 4,
            after,
            ..LinkQuery::default()
        };
        let page = store.links(&q).await.unwrap();
        let Some(last) = page.last() else { break };
        after = Some(last.id);
        paged.extend(page);
    }
    assert_eq!(paged, all_links);

    // A page after a row reads the index from that row on, in its order: no sort of every row.
    let steps = plan(
        &store,
        &mut users_page_query(&UserQuery::default(), Some((0, 1))),
    )
    .await;
    assert_no_scan(&steps, "a page of users after a row");
    assert!(
        !steps.iter().any(|s| s.contains("TEMP B-TREE")),
        "{steps:#?}"
    );
    let steps = plan(
        &store,
        &mut links_page_query(&LinkQuery::default(), Some((0, 1))),
    )
    .await;
    assert_no_scan(&steps, "a page of links after a row");
    assert!(
        !steps.iter().any(|s| s.contains("TEMP B-TREE")),
        "{steps:#?}"
    );

    // The link paged from is gone: the offset places the page.
    let q = LinkQuery {
        limit: 4,
        offset: 8,
        after: Some(all_links[1].id),
        ..LinkQuery::default()
    };
    assert_eq!(store.links(&q).await.unwrap(), all_links[2..6]);
    sqlx::query("DELETE FROM links WHERE id = ?")
        .bind(all_links[1].id)
        .execute(&store.pool)
        .await
        .unwrap();
    let rest: Vec<_> = all_links
        .iter()
        .filter(|l| l.id != all_links[1].id)
        .collect();
    let page = store.links(&q).await.unwrap();
    assert_eq!(page.iter().collect::<Vec<_>>(), rest[8..12]);
}
