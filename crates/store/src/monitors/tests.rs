//! Monitors, collections and their run log on a real SQLite file: new posts stored unseen
//! once per monitor, seen only when marked, counts that survive reopening; due monitors listed
//! once however late; a collection's pages each recorded once with its cursor and items; each
//! run's cost equal to the ledger rows of exactly its requests.

use chrono::{Duration, TimeZone, Utc};
use rust_decimal::Decimal;
use std::str::FromStr;

use crate::collections::{CollectionState, NewCollection};
use crate::monitors::{FoundPost, MonitorState, NewMonitor, PageItem, RunEnd};
use crate::runs::{ArchivedInvestigation, PageFiling, RunOutcome, RunOwner};
use crate::test_support::{billing, post, record, temp_store};
use crate::{RequestRecord, Store};

fn at(minute: i64) -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 23, 9, 0, 0).unwrap() + Duration::minutes(minute)
}

fn done(
    window_end: Option<chrono::DateTime<Utc>>,
    next_run_at: chrono::DateTime<Utc>,
) -> RunEnd<'static> {
    RunEnd {
        outcome: RunOutcome::Done,
        error: None,
        window_end,
        next_run_at,
    }
}

fn draft(name: &str) -> NewMonitor {
    NewMonitor {
        name: name.into(),
        target_json: r##"{"kind":"search","request":{"query":"#flood"}}"##.into(),
        interval_minutes: 15,
        cap: 20,
        investigation_id: None,
    }
}

/// Records a billed search finding `ids`; its history id.
async fn billed_page(store: &Store, request_id: &str, ids: &[&str], cost: &str) -> i64 {
    let mut page: RequestRecord = record(request_id, at(0));
    page.billing = Some(billing(cost, ids.len() as i64, "twitter"));
    page.posts = ids
        .iter()
        .enumerate()
        .map(|(n, id)| post(id, "water rising", at(n as i64)))
        .collect();
    store.record_request(&page).await.unwrap().history_id()
}

fn items(ids: &[&str]) -> Vec<PageItem> {
    ids.iter()
        .enumerate()
        .map(|(n, id)| PageItem {
            id: (*id).into(),
            created_at: at(n as i64),
        })
        .collect()
}

#[tokio::test]
async fn new_posts_are_unseen_once_and_stay_so_until_marked_across_a_reopen() {
    let (store, dir) = temp_store().await;
    let id = store.create_monitor(&draft("Floods"), at(0)).await.unwrap();
    assert_eq!(store.due_monitors(at(0)).await.unwrap(), vec![id]);

    let run = store
        .start_run(RunOwner::Monitor(id), (None, Some(at(0))), at(0))
        .await
        .unwrap();
    let first = billed_page(&store, "m1", &["1", "2", "3"], "0.0009").await;
    let new = store
        .record_monitor_page(id, run, first, &items(&["1", "2", "3"]), None, at(0))
        .await
        .unwrap();
    assert_eq!(new.new_items, ["1", "2", "3"]);
    assert_eq!(new.filing, PageFiling::NoInvestigation);
    assert!(store.monitor(id).await.unwrap().unwrap().running);
    store
        .finish_monitor_run(id, run, &done(Some(at(0)), at(15)), at(0))
        .await
        .unwrap();

    // The second run finds two it had, and one new: only that one is new.
    let run2 = store
        .start_run(RunOwner::Monitor(id), (Some(at(0)), Some(at(15))), at(15))
        .await
        .unwrap();
    let second = billed_page(&store, "m2", &["3", "2", "4"], "0.0009").await;
    let new = store
        .record_monitor_page(id, run2, second, &items(&["3", "2", "4"]), None, at(15))
        .await
        .unwrap();
    assert_eq!(new.new_items, ["4"]);
    store
        .finish_monitor_run(id, run2, &done(Some(at(15)), at(30)), at(15))
        .await
        .unwrap();

    // The count survives closing and reopening the database.
    let path = dir.path().join("sightline.db");
    store.close().await;
    let store = Store::open(&path).await.unwrap();
    let monitor = store.monitor(id).await.unwrap().unwrap();
    assert_eq!(monitor.unseen, 4);
    assert!(!monitor.running);
    assert_eq!(monitor.window_end, Some(at(15)));
    assert_eq!(store.unseen_counts().await.unwrap(), vec![(id, 4)]);

    // Marking seen is explicit: the ones named, then the rest.
    let (page, total) = store.monitor_posts(id, true, None, 0, 10).await.unwrap();
    assert_eq!(total, 4);
    assert_eq!(page[0].post.id, "4", "newest first");
    let ids = |found: &[FoundPost]| found.iter().map(|f| f.post.id.clone()).collect::<Vec<_>>();
    let second_page = ids(&page[2..]);
    let after = Some(page[1].post.id.as_str());
    let (keyed, _) = store.monitor_posts(id, true, after, 2, 10).await.unwrap();
    assert_eq!(ids(&keyed), second_page);
    assert_eq!(
        store
            .mark_monitor_seen(id, Some(&["4".to_owned()]))
            .await
            .unwrap(),
        1
    );
    // Paged by key, a post of the first page marked seen shifts nothing on the next; by
    // offset, the next page would have skipped an unseen post.
    let (keyed, total) = store.monitor_posts(id, true, after, 2, 10).await.unwrap();
    assert_eq!((ids(&keyed), total), (second_page.clone(), 3));
    let (by_offset, _) = store.monitor_posts(id, true, None, 2, 10).await.unwrap();
    assert_eq!(ids(&by_offset), second_page[1..]);
    // A post the monitor does not hold: the offset counts.
    let (gone, _) = store
        .monitor_posts(id, true, Some("0"), 2, 10)
        .await
        .unwrap();
    assert_eq!(ids(&gone), second_page[1..]);
    assert_eq!(store.monitor(id).await.unwrap().unwrap().unseen, 3);
    assert_eq!(store.mark_all_monitors_seen().await.unwrap(), 3);
    assert!(store.unseen_counts().await.unwrap().is_empty());
    let (all, total) = store.monitor_posts(id, false, None, 0, 10).await.unwrap();
    assert_eq!((all.len(), total), (4, 4));
    assert!(all.iter().all(|found| found.seen));

    // Each run's cost is the ledger's, exactly; the log is newest first.
    let runs = store.runs(RunOwner::Monitor(id), 10).await.unwrap();
    assert_eq!(runs.len(), 2);
    assert_eq!(
        (runs[0].id, runs[0].new_items, runs[0].requests),
        (run2, 1, 1)
    );
    assert_eq!(runs[0].cost, Decimal::from_str("0.0009").unwrap());
    assert_eq!(runs[1].new_items, 3);
}

#[tokio::test]
async fn a_monitor_long_overdue_is_due_once_and_paused_ones_never() {
    let (store, _dir) = temp_store().await;
    let late = store.create_monitor(&draft("Late"), at(0)).await.unwrap();
    let paused = store.create_monitor(&draft("Paused"), at(0)).await.unwrap();
    store
        .set_monitor_state(
            paused,
            MonitorState::Paused,
            Some("Paused by you."),
            None,
            at(0),
        )
        .await
        .unwrap();
    // Days later, the late one is listed once; its run sets the next time from now.
    let days_later = at(60 * 24 * 3);
    assert_eq!(store.due_monitors(days_later).await.unwrap(), vec![late]);
    let run = store
        .start_run(
            RunOwner::Monitor(late),
            (None, Some(days_later)),
            days_later,
        )
        .await
        .unwrap();
    store
        .finish_monitor_run(
            late,
            run,
            &RunEnd {
                outcome: RunOutcome::Done,
                error: None,
                window_end: Some(days_later),
                next_run_at: days_later + Duration::minutes(15),
            },
            days_later,
        )
        .await
        .unwrap();
    assert!(store.due_monitors(days_later).await.unwrap().is_empty());
    assert_eq!(
        store.next_monitor_due().await.unwrap(),
        Some(days_later + Duration::minutes(15))
    );

    // A budget block pauses it for the budget with its reason, and ends the run; the blocked
    // attempt sent nothing, so the last run stays the one before.
    let blocked_at = days_later + Duration::minutes(15);
    let run = store
        .start_run(RunOwner::Monitor(late), (None, None), blocked_at)
        .await
        .unwrap();
    store
        .pause_monitor_after_run(
            late,
            run,
            RunOutcome::BudgetBlocked,
            "Over budget.",
            blocked_at,
        )
        .await
        .unwrap();
    let monitor = store.monitor(late).await.unwrap().unwrap();
    assert_eq!(monitor.state, MonitorState::BudgetPaused);
    assert_eq!(monitor.state_reason.as_deref(), Some("Over budget."));
    assert_eq!(monitor.last_run_at, Some(days_later));
    assert!(store
        .open_run(RunOwner::Monitor(late))
        .await
        .unwrap()
        .is_none());
    assert!(store.due_monitors(blocked_at).await.unwrap().is_empty());
    let listed = store.budget_paused_monitors().await.unwrap();
    assert_eq!(listed.iter().map(|m| m.id).collect::<Vec<_>>(), vec![late]);

    // Resumed for the budget: active, due at once, its reason gone. One the user paused is
    // never resumed this way.
    let later = blocked_at + Duration::minutes(30);
    assert!(store.resume_budget_paused(late, later).await.unwrap());
    let monitor = store.monitor(late).await.unwrap().unwrap();
    assert_eq!(monitor.state, MonitorState::Active);
    assert_eq!(monitor.state_reason, None);
    assert_eq!(store.due_monitors(later).await.unwrap(), vec![late]);
    assert!(!store.resume_budget_paused(paused, later).await.unwrap());
    assert_eq!(
        store.monitor(paused).await.unwrap().unwrap().state,
        MonitorState::Paused
    );

    // Deleting keeps history: only the monitor and its log go.
    assert!(store.delete_monitor(late).await.unwrap());
    assert!(store.monitor(late).await.unwrap().is_none());
    assert!(store
        .runs(RunOwner::Monitor(late), 10)
        .await
        .unwrap()
        .is_empty());
}

#[tokio::test]
async fn a_collection_records_each_page_once_with_its_cursor_and_counts_items_once() {
    let (store, dir) = temp_store().await;
    let new = NewCollection {
        name: "Reposters".into(),
        source_json: r#"{"kind":"reposters","request":{"id":"1"}}"#.into(),
        until_json: r#"{"kind":"end"}"#.into(),
        investigation_id: None,
    };
    let id = store.create_collection(&new, at(0)).await.unwrap();
    assert_eq!(store.running_collections().await.unwrap(), vec![id]);
    let run = store
        .start_run(RunOwner::Collection(id), (None, None), at(0))
        .await
        .unwrap();
    let p1 = billed_page(&store, "c1", &["a", "b"], "0.0006").await;
    assert_eq!(
        store
            .record_collection_page(
                id,
                run,
                p1,
                &["a".into(), "b".into()],
                Some("next-1"),
                at(1)
            )
            .await
            .unwrap()
            .new_items,
        ["a", "b"]
    );
    // A page overlapping the first counts only what is new.
    let p2 = billed_page(&store, "c2", &["b", "c"], "0.0006").await;
    assert_eq!(
        store
            .record_collection_page(
                id,
                run,
                p2,
                &["b".into(), "c".into()],
                Some("next-2"),
                at(2)
            )
            .await
            .unwrap()
            .new_items,
        ["c"]
    );
    store.bump_collection_attempt(id).await.unwrap();
    store
        .set_collection_state(
            id,
            CollectionState::Paused,
            Some("Paused by you."),
            false,
            at(3),
        )
        .await
        .unwrap();

    // Reopened (a restart): it continues from the last page saved.
    let path = dir.path().join("sightline.db");
    store.close().await;
    let store = Store::open(&path).await.unwrap();
    let stored = store.collection(id).await.unwrap().unwrap();
    assert_eq!(stored.state, CollectionState::Paused);
    assert_eq!(stored.cursor.as_deref(), Some("next-2"));
    assert_eq!((stored.pages, stored.items, stored.attempt), (2, 3, 1));
    assert_eq!(stored.cost, Decimal::from_str("0.0012").unwrap());
    assert_eq!(store.collection_items(id).await.unwrap(), ["a", "b", "c"]);
    assert!(store.running_collections().await.unwrap().is_empty());
    assert_eq!(store.collections().await.unwrap().len(), 1);
    assert!(store.delete_collection(id).await.unwrap());
    assert!(store.collections().await.unwrap().is_empty());
}

/// The one rule for archived investigations, on both ways a request is filed: the active
/// investigation (in the record's transaction) and a monitor's or a collection's (in its
/// page's transaction). Nothing is filed under an archived one; the page, its new posts, its
/// run-log line and its charge are kept all the same.
#[tokio::test]
async fn nothing_is_filed_under_an_archived_investigation_on_either_path() {
    let (store, _dir) = temp_store().await;
    let case = store
        .create_investigation("Floods", "", at(0))
        .await
        .unwrap();
    let filed = |store: &Store| {
        let store = store.clone();
        async move {
            let summary = store.investigation(case).await.unwrap().unwrap();
            (summary.request_count, summary.post_count)
        }
    };

    // The active path: filed while open; once archived it is no longer active.
    store.set_active_investigation(Some(case)).await.unwrap();
    billed_page(&store, "active-1", &["1"], "0.0003").await;
    assert_eq!(filed(&store).await, (1, 1));
    store
        .set_investigation_archived(case, true, at(1))
        .await
        .unwrap();
    assert_eq!(store.active_investigation().await.unwrap(), None);
    billed_page(&store, "active-2", &["2"], "0.0003").await;
    assert_eq!(filed(&store).await, (1, 1));

    // A monitor's path: filed with its page while open, refused once archived.
    store
        .set_investigation_archived(case, false, at(2))
        .await
        .unwrap();
    let monitor = NewMonitor {
        investigation_id: Some(case),
        ..draft("Floods")
    };
    let id = store.create_monitor(&monitor, at(2)).await.unwrap();
    let owner = RunOwner::Monitor(id);
    assert_eq!(store.archived_investigation_of(owner).await.unwrap(), None);
    let run = store.start_run(owner, (None, None), at(2)).await.unwrap();
    let page = billed_page(&store, "m-1", &["3"], "0.0003").await;
    let recorded = store
        .record_monitor_page(id, run, page, &items(&["3"]), None, at(2))
        .await
        .unwrap();
    assert_eq!(
        recorded.filing,
        PageFiling::Filed {
            investigation_id: case
        }
    );
    assert_eq!(filed(&store).await, (2, 2));

    store
        .set_investigation_archived(case, true, at(3))
        .await
        .unwrap();
    let archived = ArchivedInvestigation {
        id: case,
        name: "Floods".into(),
    };
    assert_eq!(
        store.archived_investigation_of(owner).await.unwrap(),
        Some(archived.clone())
    );
    // Archived between a page's send and its record: the page is kept, not filed.
    let page = billed_page(&store, "m-2", &["4"], "0.0003").await;
    let recorded = store
        .record_monitor_page(id, run, page, &items(&["4"]), None, at(3))
        .await
        .unwrap();
    assert_eq!(recorded.new_items, ["4"]);
    assert_eq!(recorded.filing, PageFiling::Refused(archived.clone()));
    assert_eq!(filed(&store).await, (2, 2));
    let line = &store.runs(owner, 1).await.unwrap()[0];
    assert_eq!((line.requests, line.new_items), (2, 2));
    assert_eq!(line.cost, Decimal::from_str("0.0006").unwrap());

    // A collection's path, the same.
    let collection = NewCollection {
        name: "Floods".into(),
        source_json: r##"{"kind":"search","request":{"query":"#flood"}}"##.into(),
        until_json: r#"{"kind":"end"}"#.into(),
        investigation_id: Some(case),
    };
    let cid = store.create_collection(&collection, at(4)).await.unwrap();
    let owner = RunOwner::Collection(cid);
    assert_eq!(
        store.archived_investigation_of(owner).await.unwrap(),
        Some(archived.clone())
    );
    let run = store.start_run(owner, (None, None), at(4)).await.unwrap();
    let page = billed_page(&store, "c-1", &["5"], "0.0003").await;
    let recorded = store
        .record_collection_page(cid, run, page, &["5".into()], None, at(4))
        .await
        .unwrap();
    assert_eq!(recorded.filing, PageFiling::Refused(archived));
    assert_eq!(filed(&store).await, (2, 2));

    // Every charge reached the ledger, filed or not.
    let total: Decimal = store
        .ledger(crate::Tz::UTC, None)
        .await
        .unwrap()
        .iter()
        .map(|row| row.cost.unwrap())
        .sum();
    assert_eq!(total, Decimal::from_str("0.0015").unwrap());
}

/// A monitor's last run and "running now" read the run log by the outcome's stored words: for
/// every outcome, a finished run counts as the last run exactly when it sent something, and
/// an unfinished one is "running now" only while its outcome is `running`.
#[tokio::test]
async fn last_run_and_running_name_every_outcome_by_its_stored_word() {
    let (store, _dir) = temp_store().await;
    for (n, outcome) in RunOutcome::ALL.into_iter().enumerate() {
        let finished = store
            .create_monitor(&draft(&format!("finished {n}")), at(0))
            .await
            .unwrap();
        let run = store
            .start_run(RunOwner::Monitor(finished), (None, None), at(1))
            .await
            .unwrap();
        store.finish_run(run, outcome, None, at(2)).await.unwrap();
        let monitor = store.monitor(finished).await.unwrap().unwrap();
        let expected = (!outcome.sent_nothing()).then_some(at(1));
        assert_eq!(monitor.last_run_at, expected, "finished {outcome:?}");
        assert!(!monitor.running, "finished {outcome:?}");

        let open = store
            .create_monitor(&draft(&format!("open {n}")), at(0))
            .await
            .unwrap();
        let run = store
            .start_run(RunOwner::Monitor(open), (None, None), at(1))
            .await
            .unwrap();
        store.set_run_outcome(run, outcome).await.unwrap();
        let monitor = store.monitor(open).await.unwrap().unwrap();
        assert_eq!(
            monitor.running,
            outcome == RunOutcome::Running,
            "open {outcome:?}"
        );
    }
    let sent_nothing: Vec<RunOutcome> = RunOutcome::ALL
        .into_iter()
        .filter(|outcome| outcome.sent_nothing())
        .collect();
    assert_eq!(
        sent_nothing,
        [
            RunOutcome::BudgetBlocked,
            RunOutcome::NeedsConfirmation,
            RunOutcome::Skipped
        ]
    );
}
