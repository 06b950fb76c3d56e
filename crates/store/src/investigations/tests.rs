//! Investigations against real SQLite files: the lifecycle, active filing inside the record
//! transaction, filing by hand, notes, tags, filters, suggestions, cost from the ledger and
//! stored checks.

use chrono::{DateTime, Duration, TimeZone, Utc};
use rust_decimal::Decimal;
use std::str::FromStr;

use crate::investigations::{
    CheckItem, CheckOutcome, FieldChange, InvestigationChanges, InvestigationItem,
    InvestigationPostQuery,
};
use crate::test_support::{billing, post, record, temp_store};
use crate::{HistoryQuery, PendingRequest, RequestRecord, Store, Tz};

fn at(hour: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 10, hour, 0, 0).unwrap()
}

fn dec(s: &str) -> Decimal {
    Decimal::from_str(s).unwrap()
}

/// A billed search at `when` that found posts `ids`.
fn search(request_id: &str, when: DateTime<Utc>, cost: &str, ids: &[&str]) -> RequestRecord {
    RequestRecord {
        billing: Some(billing(cost, ids.len() as i64, "x")),
        posts: ids
            .iter()
            .enumerate()
            .map(|(n, id)| {
                post(
                    id,
                    &format!("post {id} about lighthouses"),
                    when - Duration::minutes(n as i64),
                )
            })
            .collect(),
        ..record(request_id, when)
    }
}

async fn recorded(store: &Store, r: &RequestRecord) -> i64 {
    store.record_request(r).await.unwrap().history_id()
}

fn request(history_id: i64) -> InvestigationItem {
    InvestigationItem::Request { history_id }
}

fn post_item(id: &str) -> InvestigationItem {
    InvestigationItem::Post { post_id: id.into() }
}

async fn post_ids(store: &Store, id: i64, q: InvestigationPostQuery) -> (Vec<String>, i64) {
    let page = store.investigation_posts(id, &q).await.unwrap();
    (
        page.posts.into_iter().map(|p| p.post.id).collect(),
        page.total,
    )
}

#[tokio::test]
async fn create_rename_archive_and_delete_keeping_the_ledger() {
    let (store, _dir) = temp_store().await;
    let id = store
        .create_investigation("  Harbour fire ", "who saw it first", at(1))
        .await
        .unwrap();
    let made = store.investigation(id).await.unwrap().unwrap();
    assert_eq!(made.name, "Harbour fire");
    assert_eq!(made.description, "who saw it first");
    assert!(!made.archived);

    // Names are unique without regard to case.
    assert!(store
        .investigation_name_taken("HARBOUR FIRE", None)
        .await
        .unwrap());
    assert!(!store
        .investigation_name_taken("harbour fire", Some(id))
        .await
        .unwrap());
    let clash = store.create_investigation("harbour FIRE", "", at(1)).await;
    assert!(clash.unwrap_err().to_string().contains("already exists"));

    let changes = InvestigationChanges {
        notebook: Some("# Timeline\n- 09:00 first post".into()),
        ..InvestigationChanges::default()
    };
    assert!(store
        .update_investigation(id, &changes, at(2))
        .await
        .unwrap());
    let detail = store
        .investigation_detail(id, Tz::UTC)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(detail.notebook, "# Timeline\n- 09:00 first post");
    assert_eq!(
        detail.summary.name, "Harbour fire",
        "a field left out stays"
    );

    // Archived ones leave the default list, and cannot be (or stay) active.
    store.set_active_investigation(Some(id)).await.unwrap();
    assert!(store
        .set_investigation_archived(id, true, at(3))
        .await
        .unwrap());
    assert_eq!(store.active_investigation().await.unwrap(), None);
    assert!(store.investigations(false).await.unwrap().is_empty());
    assert_eq!(store.investigations(true).await.unwrap().len(), 1);
    assert!(store.set_active_investigation(Some(id)).await.is_err());
    store
        .set_investigation_archived(id, false, at(4))
        .await
        .unwrap();

    // Deleting it drops the filing only: history and the ledger keep everything.
    let h = recorded(&store, &search("r1", at(5), "0.003", &["1", "2", "3"])).await;
    store
        .add_to_investigation(id, &[request(h)], at(5))
        .await
        .unwrap();
    let spent = store.ledger(Tz::UTC, None).await.unwrap();
    assert!(store.delete_investigation(id).await.unwrap());
    assert!(!store.delete_investigation(id).await.unwrap());
    assert_eq!(store.ledger(Tz::UTC, None).await.unwrap(), spent);
    assert!(store.history_entry(h).await.unwrap().is_some());
    assert_eq!(store.investigation(id).await.unwrap(), None);
}

#[tokio::test]
async fn the_active_investigation_files_each_request_and_its_posts_as_recorded() {
    let (store, _dir) = temp_store().await;
    let case = store.create_investigation("Case", "", at(1)).await.unwrap();
    let before = recorded(&store, &search("before", at(1), "0.001", &["1"])).await;
    store.set_active_investigation(Some(case)).await.unwrap();
    assert_eq!(store.active_investigation().await.unwrap(), Some(case));

    // A plain request: filed with the posts it found, in its own transaction.
    let plain = recorded(&store, &search("plain", at(2), "0.002", &["2", "3"])).await;

    // A streamed one: filed when it begins, its posts when it is finished.
    let pending = PendingRequest {
        request_id: "stream".into(),
        started_at: at(3),
        operation: "ai_search".into(),
        params_json: "{}".into(),
        key_label: None,
        mode: "live".into(),
    };
    let streamed = store.begin_request(&pending).await.unwrap().history_id();
    let filed = HistoryQuery {
        investigation_id: Some(case),
        ..HistoryQuery::default()
    };
    let ids: Vec<i64> = store
        .history(&filed)
        .await
        .unwrap()
        .iter()
        .map(|e| e.id)
        .collect();
    assert_eq!(ids, vec![streamed, plain], "filed while it runs");
    // The user switches away mid-stream: the answer stays with the case it was sent under.
    store.set_active_investigation(None).await.unwrap();
    let finished = RequestRecord {
        operation: "ai_search".into(),
        ..search("stream", at(3), "0.01", &["4"])
    };
    assert_eq!(recorded(&store, &finished).await, streamed);

    let summary = store.investigation(case).await.unwrap().unwrap();
    assert_eq!(summary.request_count, 2);
    assert_eq!(summary.post_count, 3);
    assert!(!ids.contains(&before));
    assert_eq!(store.history_count(&filed).await.unwrap(), 2);
    let (posts, _) = post_ids(&store, case, InvestigationPostQuery::default()).await;
    assert_eq!(posts, vec!["4", "2", "3"], "newest post first");
    // After it stopped being active, nothing more is filed.
    recorded(&store, &search("after", at(4), "0.001", &["5"])).await;
    assert_eq!(
        store
            .investigation(case)
            .await
            .unwrap()
            .unwrap()
            .request_count,
        2
    );
}

#[tokio::test]
async fn adding_and_removing_by_hand() {
    let (store, _dir) = temp_store().await;
    let case = store.create_investigation("Case", "", at(1)).await.unwrap();
    let a = recorded(&store, &search("a", at(2), "0.002", &["1", "2"])).await;
    let b = recorded(&store, &search("b", at(3), "0.002", &["2", "3"])).await;
    recorded(&store, &search("c", at(4), "0.001", &["9"])).await;

    // A request brings its posts; a post can come on its own; repeats change nothing.
    let change = store
        .add_to_investigation(case, &[request(a), post_item("9")], at(5))
        .await
        .unwrap();
    assert_eq!((change.requests, change.posts), (1, 3));
    let again = store
        .add_to_investigation(case, &[request(a)], at(5))
        .await
        .unwrap();
    assert_eq!((again.requests, again.posts), (0, 0));
    store
        .add_to_investigation(case, &[request(b)], at(5))
        .await
        .unwrap();
    let memberships = store
        .investigation_memberships(&[request(a), post_item("3"), post_item("404")])
        .await
        .unwrap();
    let held: Vec<Vec<i64>> = memberships
        .into_iter()
        .map(|m| m.investigation_ids)
        .collect();
    assert_eq!(held, vec![vec![case], vec![case], vec![]]);

    // Taking out `b` takes out post 3 (only b found it) but keeps 2 (a found it too).
    let (_, total) = post_ids(&store, case, InvestigationPostQuery::default()).await;
    assert_eq!(total, 4);
    let out = store
        .remove_from_investigation(case, &[request(b)], at(6))
        .await
        .unwrap();
    assert_eq!((out.requests, out.posts), (1, 1));
    let (mut posts, _) = post_ids(&store, case, InvestigationPostQuery::default()).await;
    posts.sort();
    assert_eq!(posts, vec!["1", "2", "9"]);

    // A post with a note stays when its request goes; a post added on its own stays too.
    store
        .set_investigation_post(case, "1", Some("key witness"), None)
        .await
        .unwrap();
    store
        .add_to_investigation(case, &[post_item("2")], at(7))
        .await
        .unwrap();
    store
        .remove_from_investigation(case, &[request(a)], at(7))
        .await
        .unwrap();
    let (mut posts, _) = post_ids(&store, case, InvestigationPostQuery::default()).await;
    posts.sort();
    assert_eq!(posts, vec!["1", "2", "9"]);
    store
        .remove_from_investigation(case, &[post_item("9")], at(8))
        .await
        .unwrap();
    assert_eq!(
        store.investigation(case).await.unwrap().unwrap().post_count,
        2
    );
    assert_eq!(
        store
            .investigation(case)
            .await
            .unwrap()
            .unwrap()
            .request_count,
        0
    );
}

#[tokio::test]
async fn notes_tags_filters_and_suggestions() {
    let (store, _dir) = temp_store().await;
    let case = store.create_investigation("Case", "", at(1)).await.unwrap();
    let mut found = search("a", at(5), "0.004", &["1", "2", "3", "4"]);
    found.posts[0].author_username = "Grace".into();
    found.posts[1].text = "a ferry left the harbour".into();
    let a = recorded(&store, &found).await;
    store
        .add_to_investigation(case, &[request(a)], at(6))
        .await
        .unwrap();
    let tags = |list: &[&str]| list.iter().map(|t| t.to_string()).collect::<Vec<_>>();

    // Tags: trimmed, once per spelling without case, first spelling kept.
    assert!(store
        .set_investigation_post(
            case,
            "1",
            Some(" seen first "),
            Some(&tags(&["Source", " source ", "boat"]))
        )
        .await
        .unwrap());
    store
        .set_investigation_post(case, "2", None, Some(&tags(&["boat"])))
        .await
        .unwrap();
    store
        .set_investigation_post(case, "3", None, Some(&tags(&["bogus"])))
        .await
        .unwrap();
    assert!(!store
        .set_investigation_post(case, "999", Some("x"), None)
        .await
        .unwrap());
    let page = store
        .investigation_posts(case, &InvestigationPostQuery::default())
        .await
        .unwrap();
    let first = page.posts.iter().find(|p| p.post.id == "1").unwrap();
    assert_eq!(first.note, "seen first");
    assert_eq!(first.tags.len(), 2);
    assert!(first.tags.contains(&"Source".to_string()));
    assert_eq!(first.found_by, Some(a));
    assert_eq!(first.capture, None, "recorded without provenance");

    let counts = store.investigation_tag_counts(case).await.unwrap();
    assert_eq!((counts[0].tag.as_str(), counts[0].count), ("boat", 2));
    assert_eq!(
        store
            .investigation_tag_suggestions(case, "BO", 10)
            .await
            .unwrap(),
        vec!["boat", "bogus"]
    );
    assert_eq!(
        store
            .investigation_tag_suggestions(case, "s", 10)
            .await
            .unwrap(),
        vec!["Source"]
    );
    assert!(store
        .investigation_tag_suggestions(case, "%", 10)
        .await
        .unwrap()
        .is_empty());

    let q = |f: fn(&mut InvestigationPostQuery)| {
        let mut q = InvestigationPostQuery::default();
        f(&mut q);
        q
    };
    assert_eq!(
        post_ids(&store, case, q(|q| q.tag = Some("BOAT".into()))).await,
        (vec!["1".into(), "2".into()], 2)
    );
    assert_eq!(
        post_ids(&store, case, q(|q| q.text = Some("ferry".into()))).await,
        (vec!["2".into()], 1)
    );
    assert_eq!(
        post_ids(&store, case, q(|q| q.text = Some("--".into()))).await,
        (vec![], 0)
    );
    assert_eq!(
        post_ids(&store, case, q(|q| q.author = Some("@grace".into()))).await,
        (vec!["1".into()], 1)
    );
    // Posts are a minute apart, newest first: 1 at 05:00, 2 at 04:59, ...
    let (ids, total) = post_ids(
        &store,
        case,
        q(|q| {
            q.from = Some(at(5) - Duration::minutes(2));
            q.to = Some(at(5));
        }),
    )
    .await;
    assert_eq!((ids, total), (vec!["2".into(), "3".into()], 2));
    let (ids, total) = post_ids(
        &store,
        case,
        q(|q| {
            q.limit = 2;
            q.offset = 2;
        }),
    )
    .await;
    assert_eq!((ids, total), (vec!["3".into(), "4".into()], 4));
}

#[tokio::test]
async fn cost_is_the_sum_of_the_ledger_rows_of_exactly_its_requests() {
    let (store, _dir) = temp_store().await;
    let case = store.create_investigation("Case", "", at(1)).await.unwrap();
    let day_one = Utc.with_ymd_and_hms(2026, 3, 10, 23, 30, 0).unwrap();
    let day_two = Utc.with_ymd_and_hms(2026, 3, 11, 8, 0, 0).unwrap();
    let a = recorded(&store, &search("a", day_one, "0.000300001", &["1"])).await;
    let b = recorded(&store, &search("b", day_two, "0.1", &["2"])).await;
    let mut web = search("c", day_two, "0.005", &[]);
    web.operation = "web_search".into();
    let c = recorded(&store, &web).await;
    recorded(&store, &search("outside", day_two, "7", &["3"])).await;
    store
        .add_to_investigation(case, &[request(a), request(b), request(c)], at(1))
        .await
        .unwrap();

    let cost = store.investigation_cost(case, Tz::UTC).await.unwrap();
    assert_eq!(cost.total, dec("0.105300001"));
    let ledger_sum: Decimal = store
        .ledger(Tz::UTC, None)
        .await
        .unwrap()
        .iter()
        .filter(|row| [a, b, c].contains(&row.history_id.unwrap_or(0)))
        .map(|row| row.cost.unwrap())
        .sum();
    assert_eq!(cost.total, ledger_sum);
    let days: Vec<(&str, Decimal, i64)> = cost
        .by_day
        .iter()
        .map(|d| (d.day.as_str(), d.cost, d.requests))
        .collect();
    assert_eq!(
        days,
        vec![
            ("2026-03-10", dec("0.000300001"), 1),
            ("2026-03-11", dec("0.105"), 2)
        ]
    );
    // Days are those of the zone asked for: 23:30 UTC is already the 11th in Paris.
    let paris = store
        .investigation_cost(case, "Europe/Paris".parse().unwrap())
        .await
        .unwrap();
    assert_eq!(paris.by_day.len(), 1);
    assert_eq!(paris.by_day[0].day, "2026-03-11");
    let ops: Vec<(&str, Decimal)> = cost
        .by_operation
        .iter()
        .map(|o| (o.operation.as_str(), o.cost))
        .collect();
    assert_eq!(
        ops,
        vec![
            ("twitter_search", dec("0.100300001")),
            ("web_search", dec("0.005"))
        ]
    );
    assert_eq!(
        store.investigation(case).await.unwrap().unwrap().cost,
        cost.total
    );
}

#[tokio::test]
async fn checks_are_stored_dated_with_their_lines() {
    let (store, _dir) = temp_store().await;
    let case = store.create_investigation("Case", "", at(1)).await.unwrap();
    assert_eq!(store.investigation_checks(case, 0).await.unwrap(), vec![]);
    let items = vec![
        CheckItem {
            post_id: "1".into(),
            outcome: CheckOutcome::Unchanged,
            changes: vec![],
        },
        CheckItem {
            post_id: "2".into(),
            outcome: CheckOutcome::Changed,
            changes: vec![FieldChange {
                field: "like_count".into(),
                before: "3".into(),
                after: "5".into(),
            }],
        },
        CheckItem {
            post_id: "3".into(),
            outcome: CheckOutcome::Gone,
            changes: vec![],
        },
    ];
    let first = store
        .save_investigation_check(case, at(2), dec("0.003"), &[7, 8], &items)
        .await
        .unwrap();
    assert_eq!(
        (
            first.summary.unchanged,
            first.summary.changed,
            first.summary.gone
        ),
        (1, 1, 1)
    );
    assert_eq!(first.summary.history_ids, vec![7, 8]);
    assert_eq!(first.items[0].outcome, CheckOutcome::Gone, "gone first");
    assert_eq!(first.items[1].changes[0].after, "5");
    let second = store
        .save_investigation_check(case, at(3), dec("0.001"), &[9], &items[..1])
        .await
        .unwrap();
    let listed = store.investigation_checks(case, 0).await.unwrap();
    assert_eq!(
        listed.iter().map(|c| c.id).collect::<Vec<_>>(),
        vec![second.summary.id, first.summary.id]
    );
    let detail = store
        .investigation_detail(case, Tz::UTC)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(detail.latest_check, Some(second.summary));
    assert_eq!(
        store
            .investigation_check_report(first.summary.id)
            .await
            .unwrap(),
        Some(first)
    );
}
