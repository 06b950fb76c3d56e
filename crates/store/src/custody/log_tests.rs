//! The custody log on real SQLite files: the table refuses edits, deletions and entries that do
//! not follow the chain; appends from many writers at once stay one chain; every change to an
//! investigation is recorded, in the transaction of the change; a deleted investigation's log
//! stays and its id is not reused; investigations made before the log begin with one entry.

use chrono::{DateTime, Duration, TimeZone, Utc};

use super::{check_chain, CustodyAction, CustodyEntry, GENESIS_HASH};
use crate::investigations::{CheckItem, CheckOutcome, InvestigationChanges, InvestigationItem};
use crate::test_support::{billing, database_at, post, record, temp_store};
use crate::{NewMonitor, PageItem, PendingRequest, RequestRecord, RunOwner, Store};

fn at(minute: i64) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 27, 9, 0, 0).unwrap() + Duration::minutes(minute)
}

fn search(request_id: &str, ids: &[&str]) -> RequestRecord {
    RequestRecord {
        billing: Some(billing("0.0003", ids.len() as i64, "x")),
        posts: ids
            .iter()
            .enumerate()
            .map(|(n, id)| post(id, "harbour smoke", at(-(n as i64))))
            .collect(),
        ..record(request_id, at(0))
    }
}

async fn log(store: &Store, id: i64) -> Vec<CustodyEntry> {
    let entries = store.custody_log(id).await.unwrap();
    assert!(check_chain(&entries).is_unbroken(), "{entries:#?}");
    entries
}

/// The log's actions and ids after its first `skip` entries.
async fn actions(store: &Store, id: i64, skip: usize) -> Vec<(CustodyAction, Vec<String>)> {
    log(store, id)
        .await
        .into_iter()
        .skip(skip)
        .map(|e| (e.action, e.ids))
        .collect()
}

fn ids(texts: &[&str]) -> Vec<String> {
    texts.iter().map(|t| t.to_string()).collect()
}

async fn refused(store: &Store, sql: &str) -> String {
    sqlx::query(sql)
        .execute(&store.pool)
        .await
        .unwrap_err()
        .to_string()
}

#[tokio::test]
async fn the_table_refuses_changes_deletions_and_entries_off_the_chain() {
    let (store, _dir) = temp_store().await;
    let id = store
        .create_investigation("Harbour", "", at(0))
        .await
        .unwrap();
    let first = log(&store, id).await.remove(0);

    let update = refused(&store, "UPDATE custody_log SET detail = 'nothing happened'").await;
    assert!(update.contains("entries cannot be changed"), "{update}");
    let delete = refused(&store, "DELETE FROM custody_log").await;
    assert!(delete.contains("entries cannot be deleted"), "{delete}");

    let insert = |seq: i64, prev: &str, hash: &str| {
        format!(
            "INSERT INTO custody_log VALUES ({id}, {seq}, 1, '', 'created', '[]', '', '{prev}', '{hash}')"
        )
    };
    // Skipping a number, linking to the wrong entry, a made-up hash: each refused.
    for sql in [
        insert(3, &first.hash, &first.hash),
        insert(2, GENESIS_HASH, &first.hash),
        insert(2, &first.hash, &"f".repeat(64)),
        insert(1, GENESIS_HASH, &first.hash),
    ] {
        let error = refused(&store, &sql).await;
        assert!(error.contains("must follow the last one"), "{error}");
    }
    assert_eq!(log(&store, id).await, vec![first]);
}

#[tokio::test]
async fn appends_from_many_writers_at_once_make_one_chain() {
    let (store, _dir) = temp_store().await;
    let id = store
        .create_investigation("Harbour", "", at(0))
        .await
        .unwrap();
    let writers: Vec<_> = (0..24)
        .map(|n| {
            let store = store.clone();
            tokio::spawn(async move {
                store
                    .record_custody(
                        id,
                        CustodyAction::BundleExported,
                        Vec::new(),
                        &format!("{n}"),
                        at(n),
                    )
                    .await
                    .unwrap()
            })
        })
        .collect();
    for writer in writers {
        writer.await.unwrap();
    }
    let entries = log(&store, id).await;
    assert_eq!(entries.len(), 25);
    assert_eq!(
        entries.iter().map(|e| e.seq).collect::<Vec<_>>(),
        (1..=25).collect::<Vec<_>>()
    );
}

#[tokio::test]
async fn each_entry_names_the_collector_of_its_time() {
    let (store, _dir) = temp_store().await;
    let id = store
        .create_investigation("Harbour", "", at(0))
        .await
        .unwrap();
    store.set_collector(Some(" Jane Doe "));
    let clone = store.clone();
    clone
        .update_investigation(
            id,
            &InvestigationChanges {
                name: Some("Harbour fire".into()),
                ..Default::default()
            },
            at(1),
        )
        .await
        .unwrap();
    let entries = log(&store, id).await;
    assert_eq!(entries[0].collector, "");
    assert_eq!(entries[1].collector, "Jane Doe");
    assert_eq!(entries[1].action, CustodyAction::Renamed);
    assert_eq!(
        entries[1].detail,
        "from \u{201c}Harbour\u{201d} to \u{201c}Harbour fire\u{201d}"
    );
}

#[tokio::test]
async fn the_investigations_own_changes_are_recorded() {
    let (store, _dir) = temp_store().await;
    let id = store
        .create_investigation("Harbour", "smoke", at(0))
        .await
        .unwrap();
    let created = log(&store, id).await;
    assert_eq!(created.len(), 1);
    assert_eq!(created[0].action, CustodyAction::Created);
    assert_eq!(created[0].detail, "named \u{201c}Harbour\u{201d}");
    assert_eq!(created[0].prev_hash, GENESIS_HASH);

    let changes = InvestigationChanges {
        name: Some("Harbour".into()),
        description: Some("smoke and fire".into()),
        notebook: Some("# Timeline".into()),
    };
    store
        .update_investigation(id, &changes, at(1))
        .await
        .unwrap();
    // The same again changes nothing, and records nothing.
    store
        .update_investigation(id, &changes, at(2))
        .await
        .unwrap();
    store
        .set_investigation_archived(id, true, at(3))
        .await
        .unwrap();
    store
        .set_investigation_archived(id, true, at(4))
        .await
        .unwrap();
    store
        .set_investigation_archived(id, false, at(5))
        .await
        .unwrap();
    let entries = log(&store, id).await;
    let actions: Vec<_> = entries.iter().map(|e| e.action).collect();
    assert_eq!(
        actions,
        [
            CustodyAction::Created,
            CustodyAction::DescriptionChanged,
            CustodyAction::NotebookChanged,
            CustodyAction::Archived,
            CustodyAction::Restored
        ]
    );
    // A user's text is summed up, not copied: its length and SHA-256.
    let notebook_hash = super::hex(&<sha2::Sha256 as sha2::Digest>::digest(b"# Timeline"));
    assert_eq!(
        entries[2].detail,
        format!("now 10 characters, SHA-256 {notebook_hash}")
    );
    assert_eq!(entries[1].at, at(1).timestamp_millis());
}

#[tokio::test]
async fn filing_by_hand_and_taking_out_are_recorded_with_the_ids_they_touch() {
    let (store, _dir) = temp_store().await;
    let id = store
        .create_investigation("Harbour", "", at(0))
        .await
        .unwrap();
    let found = store
        .record_request(&search("r1", &["101", "102"]))
        .await
        .unwrap()
        .history_id();
    let alone = store
        .record_request(&search("r2", &["201"]))
        .await
        .unwrap()
        .history_id();

    let request = InvestigationItem::Request { history_id: found };
    let post = |id: &str| InvestigationItem::Post { post_id: id.into() };
    store
        .add_to_investigation(id, &[request.clone(), post("201"), post("101")], at(1))
        .await
        .unwrap();
    // Filed already: nothing new to record.
    store
        .add_to_investigation(id, &[request.clone(), post("201")], at(2))
        .await
        .unwrap();
    assert_eq!(
        actions(&store, id, 1).await,
        [
            (
                CustodyAction::RequestFiled,
                ids(&[&format!("request:{found}")])
            ),
            (CustodyAction::PostAdded, ids(&["post:101", "post:102"])),
            (CustodyAction::PostAdded, ids(&["post:201"])),
        ]
    );
    let _ = alone;

    store
        .remove_from_investigation(id, &[post("201")], at(3))
        .await
        .unwrap();
    store
        .remove_from_investigation(id, &[request], at(4))
        .await
        .unwrap();
    let removed = actions(&store, id, 4).await;
    assert_eq!(
        removed,
        [
            (CustodyAction::PostRemoved, ids(&["post:201"])),
            (
                CustodyAction::RequestRemoved,
                ids(&[&format!("request:{found}")])
            ),
            // 101 was also added on its own: it stays.
            (CustodyAction::PostRemoved, ids(&["post:102"])),
        ]
    );
}

#[tokio::test]
async fn notes_and_tags_are_recorded_per_change() {
    let (store, _dir) = temp_store().await;
    let id = store
        .create_investigation("Harbour", "", at(0))
        .await
        .unwrap();
    store.record_request(&search("r1", &["101"])).await.unwrap();
    store
        .add_to_investigation(
            id,
            &[InvestigationItem::Post {
                post_id: "101".into(),
            }],
            at(1),
        )
        .await
        .unwrap();
    let tags = |list: &[&str]| list.iter().map(|t| t.to_string()).collect::<Vec<_>>();
    store
        .set_investigation_post(
            id,
            "101",
            Some("first sighting"),
            Some(&tags(&["fire", "port"])),
        )
        .await
        .unwrap();
    store
        .set_investigation_post(
            id,
            "101",
            Some("first sighting"),
            Some(&tags(&["fire", "witness"])),
        )
        .await
        .unwrap();
    store
        .set_investigation_post(id, "101", Some(""), None)
        .await
        .unwrap();
    let entries = log(&store, id).await;
    let recorded: Vec<_> = entries[2..]
        .iter()
        .map(|e| (e.action, e.detail.as_str()))
        .collect();
    assert_eq!(
        recorded[1..],
        [
            (CustodyAction::TagAdded, "\u{201c}fire\u{201d}"),
            (CustodyAction::TagAdded, "\u{201c}port\u{201d}"),
            (CustodyAction::TagRemoved, "\u{201c}port\u{201d}"),
            (CustodyAction::TagAdded, "\u{201c}witness\u{201d}"),
            (CustodyAction::NoteChanged, "now empty"),
        ]
    );
    assert_eq!(recorded[0].0, CustodyAction::NoteChanged);
    assert!(recorded[0].1.starts_with("now 14 characters, SHA-256 "));
    assert!(entries[2..].iter().all(|e| e.ids == ["post:101"]));
}

#[tokio::test]
async fn requests_filed_by_the_active_investigation_a_check_and_a_monitor_are_recorded() {
    let (store, _dir) = temp_store().await;
    let id = store
        .create_investigation("Harbour", "", at(0))
        .await
        .unwrap();
    store.set_active_investigation(Some(id)).await.unwrap();
    let sent = store
        .record_request(&search("r1", &["101", "102"]))
        .await
        .unwrap()
        .history_id();
    // Begun, then recorded: filed when it began, its posts when it is recorded.
    let pending = PendingRequest {
        request_id: "r2".into(),
        started_at: at(1),
        operation: "search".into(),
        params_json: "{}".into(),
        key_label: None,
        mode: "demo".into(),
    };
    let begun = store.begin_request(&pending).await.unwrap().history_id();
    store.record_request(&search("r2", &["103"])).await.unwrap();
    store.set_active_investigation(None).await.unwrap();

    let checked = store
        .begin_filed_request(
            &PendingRequest {
                request_id: "r3".into(),
                ..pending.clone()
            },
            crate::Filing::Check {
                investigation_id: id,
            },
        )
        .await
        .unwrap()
        .history_id();
    store.record_request(&search("r3", &["101"])).await.unwrap();

    let monitor = store
        .create_monitor(
            &NewMonitor {
                name: "Smoke".into(),
                target_json: "{}".into(),
                interval_minutes: 15,
                cap: 20,
                investigation_id: Some(id),
            },
            at(2),
        )
        .await
        .unwrap();
    let run = store
        .start_run(RunOwner::Monitor(monitor), (None, None), at(2))
        .await
        .unwrap();
    let page = store
        .record_request(&search("m1", &["104"]))
        .await
        .unwrap()
        .history_id();
    let item = PageItem {
        id: "104".into(),
        created_at: at(2),
    };
    store
        .record_monitor_page(monitor, run, page, &[item], None, at(3))
        .await
        .unwrap();

    let entries = log(&store, id).await;
    let recorded: Vec<_> = entries[1..]
        .iter()
        .map(|e| (e.action, e.ids.clone(), e.detail.clone()))
        .collect();
    let req = |h: i64| vec![format!("request:{h}")];
    assert_eq!(
        recorded,
        [
            (
                CustodyAction::RequestFiled,
                req(sent),
                "sent while it was the active investigation".into()
            ),
            (
                CustodyAction::PostAdded,
                ids(&["post:101", "post:102"]),
                format!("2 posts, found by request {sent}")
            ),
            (
                CustodyAction::RequestFiled,
                req(begun),
                "sent while it was the active investigation".into()
            ),
            (
                CustodyAction::PostAdded,
                ids(&["post:103"]),
                format!("1 post, found by request {begun}")
            ),
            (
                CustodyAction::RequestFiled,
                req(checked),
                "sent by a still-there check; it files none of the posts it fetches".into()
            ),
            (
                CustodyAction::RequestFiled,
                req(page),
                format!("a page of monitor {monitor}")
            ),
            (
                CustodyAction::PostAdded,
                ids(&["post:104"]),
                format!("1 post, found by request {page}")
            ),
        ]
    );
}

#[tokio::test]
async fn a_check_run_and_actions_outside_the_store_are_recorded() {
    let (store, _dir) = temp_store().await;
    let id = store
        .create_investigation("Harbour", "", at(0))
        .await
        .unwrap();
    let other = store.create_investigation("Quay", "", at(0)).await.unwrap();
    let items = [
        CheckItem {
            post_id: "101".into(),
            outcome: CheckOutcome::Unchanged,
            changes: Vec::new(),
        },
        CheckItem {
            post_id: "102".into(),
            outcome: CheckOutcome::Gone,
            changes: Vec::new(),
        },
    ];
    let report = store
        .save_investigation_check(id, at(1), rust_decimal::Decimal::new(3, 4), &[7, 8], &items)
        .await
        .unwrap();
    store
        .record_custody(
            id,
            CustodyAction::BundleExported,
            ids(&["file:harbour.zip"]),
            "12 posts",
            at(2),
        )
        .await
        .unwrap();
    store
        .record_custody(
            id,
            CustodyAction::WaczExported,
            ids(&["file:harbour.wacz"]),
            "12 posts",
            at(3),
        )
        .await
        .unwrap();
    store
        .set_investigation_archived(other, true, at(3))
        .await
        .unwrap();
    let logs = store
        .record_custody_everywhere(
            CustodyAction::KeyRotated,
            ids(&["key:abcd"]),
            "rotated",
            at(4),
        )
        .await
        .unwrap();
    assert_eq!(logs, 2, "archived investigations too");

    let entries = log(&store, id).await;
    assert_eq!(entries[1].action, CustodyAction::CheckRun);
    assert_eq!(
        entries[1].ids,
        ids(&[
            &format!("check:{}", report.summary.id),
            "request:7",
            "request:8"
        ])
    );
    assert_eq!(
        entries[1].detail,
        "2 posts checked: 1 unchanged, 0 changed, 1 gone"
    );
    assert_eq!(
        entries[2..].iter().map(|e| e.action).collect::<Vec<_>>(),
        [
            CustodyAction::BundleExported,
            CustodyAction::WaczExported,
            CustodyAction::KeyRotated
        ]
    );
    assert_eq!(
        log(&store, other).await.last().unwrap().action,
        CustodyAction::KeyRotated
    );
    let missing = store
        .record_custody(999, CustodyAction::BundleExported, Vec::new(), "", at(5))
        .await;
    assert!(missing.is_err());
}

#[tokio::test]
async fn a_deleted_investigation_keeps_its_log_and_its_id() {
    let (store, _dir) = temp_store().await;
    let first = store
        .create_investigation("Harbour", "", at(0))
        .await
        .unwrap();
    let last = store.create_investigation("Quay", "", at(0)).await.unwrap();
    store.delete_investigation(last).await.unwrap();
    let kept = log(&store, last).await;
    assert_eq!(kept.len(), 2);
    assert_eq!(kept[1].action, CustodyAction::Deleted);
    assert!(
        kept[1].detail.contains("this log is kept"),
        "{}",
        kept[1].detail
    );
    // A new investigation never continues the deleted one's log.
    let next = store.create_investigation("Quay", "", at(1)).await.unwrap();
    assert!(next > last && next > first);
    assert_eq!(log(&store, next).await.len(), 1);
    // Nor can a row claim the id by hand.
    let error = refused(
        &store,
        &format!("INSERT INTO investigations (id, name, created_at, updated_at) VALUES ({last}, 'x', 0, 0)"),
    )
    .await;
    assert!(
        error.contains("belongs to a deleted investigation"),
        "{error}"
    );
}

#[tokio::test]
async fn investigations_made_before_the_log_begin_with_one_entry_saying_so() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sightline.db");
    let old = database_at(&path, 13).await;
    for name in ["Harbour", "Quay"] {
        sqlx::query("INSERT INTO investigations (name, created_at, updated_at) VALUES (?, 0, 0)")
            .bind(name)
            .execute(&old)
            .await
            .unwrap();
    }
    old.close().await;
    let before = Utc::now().timestamp_millis();
    let store = Store::open(&path).await.unwrap();
    for id in [1, 2] {
        let entries = log(&store, id).await;
        assert_eq!(entries.len(), 1);
        assert_eq!(entries[0].action, CustodyAction::LogStarted);
        assert_eq!(entries[0].collector, "");
        assert!(
            entries[0].at >= before,
            "the log begins at the upgrade, not before"
        );
        assert!(entries[0].detail.contains("before was not recorded"));
    }
    store
        .update_investigation(
            1,
            &InvestigationChanges {
                notebook: Some("n".into()),
                ..Default::default()
            },
            at(0),
        )
        .await
        .unwrap();
    assert_eq!(log(&store, 1).await.len(), 2);
}
