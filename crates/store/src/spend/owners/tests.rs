//! Spend by monitor and by collection, and History's "sent by", on real database files: the
//! owner read from the request id, kept on the ledger row when the history row goes, and the
//! rows of a database from before migration 0012 given their owner.

use std::str::FromStr;

use chrono::{DateTime, TimeZone, Utc};
use rust_decimal::Decimal;

use crate::test_support::{billing, record, temp_store};
use crate::{
    collection_page_request_id, monitor_page_request_id, Billing, NewCollection, NewMonitor,
    OriginKind, RequestOrigin, SpendDimension, Store, Tz,
};

fn at(day: u32, hour: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, day, hour, 0, 0).unwrap()
}

fn dec(text: &str) -> Decimal {
    Decimal::from_str(text).unwrap()
}

async fn monitor(store: &Store, name: &str) -> i64 {
    let monitor = NewMonitor {
        name: name.into(),
        target_json: r#"{"kind":"search"}"#.into(),
        interval_minutes: 60,
        cap: 50,
        investigation_id: None,
    };
    store.create_monitor(&monitor, at(1, 0)).await.unwrap()
}

async fn collection(store: &Store, name: &str) -> i64 {
    let collection = NewCollection {
        name: name.into(),
        source_json: r#"{"kind":"search"}"#.into(),
        until_json: r#"{"kind":"end"}"#.into(),
        investigation_id: None,
    };
    store
        .create_collection(&collection, at(1, 0))
        .await
        .unwrap()
}

async fn billed(store: &Store, request_id: &str, when: DateTime<Utc>, billing: Billing) -> i64 {
    let mut request = record(request_id, when);
    request.billing = Some(billing);
    store.record_request(&request).await.unwrap();
    store
        .history_by_request_id(request_id)
        .await
        .unwrap()
        .unwrap()
        .id
}

fn unreadable() -> Billing {
    Billing {
        cost: None,
        cost_text: Some("n/a".into()),
        usage_count: 3,
        service: "x".into(),
        currency: "USD".into(),
    }
}

#[tokio::test]
async fn spend_is_told_by_monitor_and_by_collection_exactly() {
    let (store, _dir) = temp_store().await;
    let climate = monitor(&store, "Climate").await;
    let floods = monitor(&store, "Floods").await;
    let elections = collection(&store, "Élections 2026").await;
    let first = monitor_page_request_id(climate, 1, 0, 0);
    billed(&store, &first, at(2, 9), billing("0.000105", 7, "x")).await;
    // A second page, and a later try of a page: each the monitor's own.
    let second = monitor_page_request_id(climate, 1, 1, 0);
    let second_id = billed(&store, &second, at(2, 9), billing("0.0000003", 1, "x")).await;
    let retry = monitor_page_request_id(climate, 2, 0, 1);
    billed(&store, &retry, at(3, 9), billing("0.1", 1, "x")).await;
    let flood = monitor_page_request_id(floods, 7, 0, 0);
    billed(&store, &flood, at(2, 10), billing("0.0000015", 5, "x")).await;
    let page = collection_page_request_id(elections, 0, 0);
    billed(&store, &page, at(2, 11), billing("0.003", 10, "x")).await;
    let cut = collection_page_request_id(elections, 1, 0);
    billed(&store, &cut, at(2, 12), unreadable()).await;
    // The user's own search is no monitor's or collection's.
    billed(&store, "user-1", at(2, 9), billing("5", 1, "x")).await;

    let tz = Tz::UTC;
    let monitors = store
        .spend_breakdown(SpendDimension::Monitor, tz, None)
        .await
        .unwrap();
    let lines: Vec<_> = monitors
        .lines
        .iter()
        .map(|l| (l.key.clone(), l.label.as_deref(), l.cost, l.requests))
        .collect();
    assert_eq!(
        lines,
        [
            (climate.to_string(), Some("Climate"), dec("0.1001053"), 3),
            (floods.to_string(), Some("Floods"), dec("0.0000015"), 1),
        ]
    );
    assert_eq!(monitors.total, dec("0.1001068"));
    assert_eq!(monitors.unreadable, 0);

    let collections = store
        .spend_breakdown(SpendDimension::Collection, tz, None)
        .await
        .unwrap();
    assert_eq!(collections.lines.len(), 1);
    let line = &collections.lines[0];
    assert_eq!(line.label.as_deref(), Some("Élections 2026"));
    assert_eq!((line.cost, line.requests), (dec("0.003"), 2));
    // The answer whose cost was no number is unknown: beside the sum, never in it.
    assert_eq!(collections.unreadable, 1);
    assert_eq!(collections.total, dec("0.003"));

    // A range of days counts its own days only.
    let day = Some((at(2, 0).date_naive(), at(2, 0).date_naive()));
    let one_day = store
        .spend_breakdown(SpendDimension::Monitor, tz, day)
        .await
        .unwrap();
    assert_eq!(one_day.total, dec("0.0001068"));
    assert_eq!(one_day.lines[0].cost, dec("0.0001053"));

    // A deleted history row leaves its money with its monitor; a deleted monitor its money
    // under its id, without a name.
    assert!(store.delete_history(second_id).await.unwrap());
    assert!(store.delete_monitor(climate).await.unwrap());
    let after = store
        .spend_breakdown(SpendDimension::Monitor, tz, None)
        .await
        .unwrap();
    assert_eq!(after.total, monitors.total);
    assert_eq!(after.lines[0].key, climate.to_string());
    assert_eq!(after.lines[0].label, None);
    assert_eq!(after.lines[0].cost, dec("0.1001053"));
}

#[tokio::test]
async fn history_names_the_monitor_or_collection_that_sent_a_request() {
    let (store, _dir) = temp_store().await;
    let climate = monitor(&store, "Climate").await;
    let elections = collection(&store, "Élections 2026").await;
    let sent = monitor_page_request_id(climate, 4, 2, 1);
    store
        .record_request(&record(&sent, at(2, 9)))
        .await
        .unwrap();
    let page = collection_page_request_id(elections, 3, 0);
    store
        .record_request(&record(&page, at(2, 10)))
        .await
        .unwrap();
    // Ids that only look alike are the user's.
    for id in ["user-1", "monitor-x-run-1", "collection-12"] {
        store.record_request(&record(id, at(2, 8))).await.unwrap();
    }

    let origin = |id: &str| {
        let store = &store;
        let id = id.to_owned();
        async move {
            let entry = store.history_by_request_id(&id).await.unwrap().unwrap();
            entry.origin
        }
    };
    assert_eq!(
        origin(&sent).await,
        Some(RequestOrigin {
            kind: OriginKind::Monitor,
            id: climate,
            name: Some("Climate".into()),
        })
    );
    assert_eq!(
        origin(&page).await,
        Some(RequestOrigin {
            kind: OriginKind::Collection,
            id: elections,
            name: Some("Élections 2026".into()),
        })
    );
    for id in ["user-1", "monitor-x-run-1", "collection-12"] {
        assert_eq!(origin(id).await, None, "{id}");
    }
    // The list says it too, and a deleted collection's rows keep its id.
    assert!(store.delete_collection(elections).await.unwrap());
    let rows = store.history(&Default::default()).await.unwrap();
    let row = rows.iter().find(|r| r.request_id == page).unwrap();
    assert_eq!(
        row.origin,
        Some(RequestOrigin {
            kind: OriginKind::Collection,
            id: elections,
            name: None,
        })
    );
}

#[tokio::test]
async fn an_archive_from_before_0012_has_its_spend_by_monitor() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sightline.db");
    let old = Store::open_at_version(&path, 11).await.unwrap();
    let monitor_id: i64 = sqlx::query_scalar(
        "INSERT INTO monitors (name, target_json, interval_minutes, cap, state, created_at,
             updated_at) VALUES ('Climate', '{}', 60, 50, 'active', 0, 0) RETURNING id",
    )
    .fetch_one(&old.pool)
    .await
    .unwrap();
    for (n, request_id) in [
        monitor_page_request_id(monitor_id, 1, 0, 0),
        "user-1".to_owned(),
    ]
    .iter()
    .enumerate()
    {
        let history_id: i64 = sqlx::query_scalar(
            "INSERT INTO history (request_id, started_at, operation, params_json, mode, status,
                 cost_nanos, usage_count, service, currency)
             VALUES (?, ?, 'twitter_search', '{}', 'live', 'ok', 105000, 7, 'x', 'USD')
             RETURNING id",
        )
        .bind(request_id)
        .bind(1_700_000_000_000_i64 + n as i64)
        .fetch_one(&old.pool)
        .await
        .unwrap();
        sqlx::query(
            "INSERT INTO ledger (history_id, at, service, operation, key_label, cost_nanos,
                 usage_count, currency) VALUES (?, ?, 'x', 'twitter_search', '', 105000, 7, 'USD')",
        )
        .bind(history_id)
        .bind(1_700_000_000_000_i64 + n as i64)
        .execute(&old.pool)
        .await
        .unwrap();
    }
    old.close().await;

    let store = Store::open(&path).await.unwrap();
    let monitors = store
        .spend_breakdown(SpendDimension::Monitor, Tz::UTC, None)
        .await
        .unwrap();
    assert_eq!(monitors.lines.len(), 1);
    assert_eq!(monitors.lines[0].label.as_deref(), Some("Climate"));
    assert_eq!(monitors.total, dec("0.000105"));
    // The owner is part of the append-only row.
    let changed = sqlx::query("UPDATE ledger SET monitor_id = NULL")
        .execute(&store.pool)
        .await;
    assert!(changed.is_err());
}
