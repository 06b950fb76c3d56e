//! The history list: filters, paging, pins, deletes, paging chains and the text index.

use super::*;
use crate::analysis::{AnalysisScope, ScopeFilters, ScopeSource};
use crate::record::PendingRequest;
use crate::test_support::{billing, first_release_db, post, record, temp_store};
use chrono::TimeZone;

fn at(h: u32, m: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 10, h, m, 0).unwrap()
}

#[tokio::test]
async fn history_filters_order_and_paging() {
    let (store, _dir) = temp_store().await;
    let mut a = record("a", at(8, 0));
    a.params_json = r#"{"query":"solar eclipse"}"#.into();
    let mut b = record("b", at(9, 0));
    b.operation = "web_search".into();
    b.params_json = r#"{"query":"100%_sure"}"#.into();
    let mut c = record("c", at(10, 0));
    c.status = RequestStatus::Error;
    c.error_class = Some("rate_limited".into());
    c.error_message = Some("Too many requests".into());
    c.result_json = None;
    for r in [&a, &b, &c] {
        store.record_request(r).await.unwrap();
    }
    let ids = |v: Vec<HistoryEntry>| v.into_iter().map(|e| e.request_id).collect::<Vec<_>>();

    let all = store.history(&HistoryQuery::default()).await.unwrap();
    assert_eq!(ids(all.clone()), ["c", "b", "a"]);
    assert!(!all[0].has_result);

    let q = HistoryQuery {
        operation: Some("web_search".into()),
        ..Default::default()
    };
    assert_eq!(ids(store.history(&q).await.unwrap()), ["b"]);

    let q = HistoryQuery {
        status: Some(RequestStatus::Error),
        ..Default::default()
    };
    assert_eq!(ids(store.history(&q).await.unwrap()), ["c"]);

    let q = HistoryQuery {
        from: Some(at(8, 30)),
        to: Some(at(10, 0)),
        ..Default::default()
    };
    assert_eq!(ids(store.history(&q).await.unwrap()), ["b"]);

    let q = HistoryQuery {
        text: Some("ECLIPSE".into()),
        ..Default::default()
    };
    assert_eq!(ids(store.history(&q).await.unwrap()), ["a"]);
    // LIKE wildcards in the user's text are literal.
    let q = HistoryQuery {
        text: Some("0%_s".into()),
        ..Default::default()
    };
    assert_eq!(ids(store.history(&q).await.unwrap()), ["b"]);
    let q = HistoryQuery {
        text: Some("_".into()),
        ..Default::default()
    };
    assert_eq!(ids(store.history(&q).await.unwrap()), ["b"]);

    let q = HistoryQuery {
        limit: 1,
        offset: 1,
        ..Default::default()
    };
    assert_eq!(ids(store.history(&q).await.unwrap()), ["b"]);
    assert_eq!(store.history_count(&q).await.unwrap(), 3);
}

#[tokio::test]
async fn pin_unpin_and_delete_keep_the_money() {
    let (store, _dir) = temp_store().await;
    let mut r = record("p", at(9, 0));
    r.billing = Some(billing("0.25", 1, "ai"));
    let id = store.record_request(&r).await.unwrap().history_id();
    store.record_request(&record("q", at(9, 5))).await.unwrap();

    assert!(store.set_pinned(id, true).await.unwrap());
    let pinned = HistoryQuery {
        pinned_only: true,
        ..Default::default()
    };
    assert_eq!(store.history(&pinned).await.unwrap().len(), 1);
    assert!(store.set_pinned(id, false).await.unwrap());
    assert!(store.history(&pinned).await.unwrap().is_empty());
    assert!(!store.set_pinned(12345, true).await.unwrap());

    assert!(store.delete_history(id).await.unwrap());
    assert!(store.result(id).await.unwrap().is_none());
    assert!(!store.delete_history(id).await.unwrap());
    let kept: (i64, Option<i64>) = sqlx::query_as("SELECT cost_nanos, history_id FROM ledger")
        .fetch_one(&store.pool)
        .await
        .unwrap();
    assert_eq!(kept, (250_000_000, None));
}

/// A paging chain as the app sees it: each page names the one before (`parent_id`), and a
/// request's analysis covers its page and every later one. Deleting a middle page splits the
/// chain: what was after it stands alone, and the first page no longer reaches it.
#[tokio::test]
async fn paging_chains_hold_their_pages_and_split_where_a_page_is_deleted() {
    let (store, _dir) = temp_store().await;
    let mut p1 = record("page-1", at(9, 0));
    p1.operation = "twitter_user_posts".into();
    p1.next_cursor = Some("c2".into());
    p1.posts = vec![post("101", "first page", at(8, 0))];
    let id1 = store.record_request(&p1).await.unwrap().history_id();
    let mut p2 = record("page-2", at(9, 1));
    p2.operation = "twitter_user_posts".into();
    p2.cursor = Some("c2".into());
    p2.next_cursor = Some("c3".into());
    p2.parent_id = Some(id1);
    p2.posts = vec![post("102", "second page", at(7, 0))];
    let id2 = store.record_request(&p2).await.unwrap().history_id();
    let mut p3 = record("page-3", at(9, 2));
    p3.operation = "twitter_user_posts".into();
    p3.cursor = Some("c3".into());
    p3.parent_id = Some(id2);
    p3.posts = vec![post("103", "third page", at(6, 0))];
    let id3 = store.record_request(&p3).await.unwrap().history_id();

    let entry = |id| {
        let store = &store;
        async move { store.history_entry(id).await.unwrap().unwrap() }
    };
    let posts_from = |history_id| {
        let store = &store;
        async move {
            let scope = AnalysisScope {
                source: ScopeSource::Request { history_id },
                from: None,
                to: None,
                filters: ScopeFilters::default(),
            };
            store
                .analysis_summary(&scope)
                .await
                .unwrap()
                .unwrap()
                .post_count
        }
    };
    assert_eq!(entry(id1).await.parent_id, None);
    assert_eq!(entry(id2).await.parent_id, Some(id1));
    assert_eq!(entry(id2).await.cursor.as_deref(), Some("c2"));
    assert_eq!(entry(id3).await.parent_id, Some(id2));
    assert_eq!(
        posts_from(id1).await,
        3,
        "the first page reaches every later one"
    );
    assert_eq!(posts_from(id2).await, 2);
    assert_eq!(posts_from(id3).await, 1);

    // Deleting the middle page breaks the chain into what is left on each side.
    assert!(store.delete_history(id2).await.unwrap());
    assert_eq!(
        entry(id3).await.parent_id,
        None,
        "the last page now starts a chain"
    );
    assert_eq!(entry(id3).await.cursor.as_deref(), Some("c3"));
    assert_eq!(
        posts_from(id1).await,
        1,
        "the first page no longer reaches the last"
    );
    assert_eq!(posts_from(id3).await, 1);
}

#[tokio::test]
async fn lookup_by_request_id() {
    let (store, _dir) = temp_store().await;
    store
        .record_request(&record("abc", at(9, 0)))
        .await
        .unwrap();
    assert!(store.history_by_request_id("abc").await.unwrap().is_some());
    assert!(store.history_by_request_id("nope").await.unwrap().is_none());
}

#[test]
fn trigram_expressions_cover_the_text() {
    assert_eq!(trigram_expression("ab"), None);
    assert_eq!(trigram_expression("abc").unwrap(), r#""abc""#);
    assert_eq!(trigram_expression("abcd").unwrap(), r#""abc" AND "bcd""#);
    assert_eq!(trigram_expression("aaaa").unwrap(), r#""aaa""#);
    assert_eq!(
        trigram_expression(r#"a"b%_é"#).unwrap(),
        r#""a""b" AND """b%" AND "b%_" AND "%_é""#
    );
}

#[tokio::test]
async fn text_search_by_index_equals_a_scan() {
    let (store, _dir) = temp_store().await;
    let params = [
        r#"{"query":"Solar Eclipse 2026","count":20}"#,
        r#"{"query":"solar wind"}"#,
        r#"{"query":"100%_sure","note":"say \"hi\""}"#,
        r#"{"query":"Zürich café","lang":"de"}"#,
        r#"{"query":"ZÜRICH CAFÉ"}"#,
        r#"{"prompt":"eclipse photography tips","streaming":true}"#,
        r#"{"url":"https://example.org/a_b"}"#,
    ];
    for (i, p) in params.iter().enumerate() {
        let mut r = record(&format!("r{i}"), at(9, i as u32));
        r.params_json = (*p).into();
        store.record_request(&r).await.unwrap();
    }
    let needles = [
        "eclipse",
        "ECLIPSE",
        "solar",
        "lar ",
        "0%_s",
        "%",
        "_",
        "a_b",
        "\\",
        r#""hi""#,
        "zürich",
        "Zürich",
        "ZÜRICH",
        "café",
        "CAFÉ",
        "query",
        "nothing here",
        "ip",
        "e",
        r#"":"#,
        "2026",
    ];
    for needle in needles {
        let q = HistoryQuery {
            text: Some(needle.into()),
            ..Default::default()
        };
        let expected: Vec<String> = sqlx::query_scalar(
            "SELECT request_id FROM history WHERE params_json LIKE ? ESCAPE '\\'
             ORDER BY started_at DESC, id DESC",
        )
        .bind(like_pattern(needle))
        .fetch_all(&store.pool)
        .await
        .unwrap();
        let plan = store.text_plan(&q).await.unwrap();
        assert_eq!(
            matches!(plan, TextPlan::Index(_)),
            needle.chars().count() >= 3,
            "{needle}"
        );
        let found: Vec<String> = store
            .history(&q)
            .await
            .unwrap()
            .into_iter()
            .map(|e| e.request_id)
            .collect();
        assert_eq!(found, expected, "{needle}");
        assert_eq!(
            store.history_count(&q).await.unwrap(),
            expected.len() as i64,
            "{needle}"
        );
        // The walk gives the same rows as the index.
        let mut sql = QueryBuilder::<Sqlite>::new("SELECT h.request_id");
        push_history_filters(&mut sql, &q, TextPlan::Scan);
        sql.push(" ORDER BY h.started_at DESC, h.id DESC");
        let walked: Vec<String> = sql
            .build_query_scalar()
            .fetch_all(&store.pool)
            .await
            .unwrap();
        assert_eq!(walked, expected, "{needle}");
    }
}

#[tokio::test]
async fn the_text_index_follows_finished_and_deleted_requests() {
    let (store, _dir) = temp_store().await;
    let pending = PendingRequest {
        request_id: "s".into(),
        started_at: at(10, 0),
        operation: "ai_search".into(),
        params_json: r#"{"prompt":"draft question"}"#.into(),
        key_label: None,
        mode: "live".into(),
    };
    let id = store.begin_request(&pending).await.unwrap().history_id();
    let search = |text: &str| HistoryQuery {
        text: Some(text.into()),
        ..Default::default()
    };
    assert_eq!(store.history_count(&search("draft")).await.unwrap(), 1);
    let mut done = record("s", at(10, 0));
    done.params_json = r#"{"prompt":"final question"}"#.into();
    store.record_request(&done).await.unwrap();
    assert_eq!(store.history_count(&search("draft")).await.unwrap(), 0);
    assert_eq!(store.history_count(&search("final")).await.unwrap(), 1);
    store.delete_history(id).await.unwrap();
    assert_eq!(store.history_count(&search("final")).await.unwrap(), 0);
    sqlx::query("INSERT INTO history_fts (history_fts) VALUES ('integrity-check')")
        .execute(&store.pool)
        .await
        .unwrap();
}

#[tokio::test]
async fn the_text_index_is_built_for_existing_history() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.db");
    let old = first_release_db(&path).await;
    for i in 0..50 {
        sqlx::query(
            "INSERT INTO history (request_id, started_at, operation, params_json, mode, status)
             VALUES (?, ?, 'web_search', ?, 'live', 'ok')",
        )
        .bind(format!("old-{i}"))
        .bind(1_700_000_000_000_i64 + i)
        .bind(format!(r#"{{"query":"topic number {i}"}}"#))
        .execute(&old)
        .await
        .unwrap();
    }
    old.close().await;
    let store = Store::open(&path).await.unwrap();
    let q = HistoryQuery {
        text: Some("number 4".into()),
        ..Default::default()
    };
    assert!(matches!(
        store.text_plan(&q).await.unwrap(),
        TextPlan::Index(_)
    ));
    let found: Vec<String> = store
        .history(&q)
        .await
        .unwrap()
        .into_iter()
        .map(|e| e.request_id)
        .collect();
    assert_eq!(
        found,
        [
            "old-49", "old-48", "old-47", "old-46", "old-45", "old-44", "old-43", "old-42",
            "old-41", "old-40", "old-4"
        ]
    );
}
