use std::collections::BTreeMap;
use std::path::Path;

use chrono::{DateTime, TimeZone, Utc};
use sha2::{Digest, Sha256};
use sqlx::sqlite::{SqliteConnectOptions, SqlitePoolOptions};

use super::*;
use crate::test_support::{post, record, temp_store};
use crate::RequestStatus;

fn at(hour: u32, minute: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 23, hour, minute, 12)
        .unwrap()
}

/// A response received at `captured_at`, with bytes that are not all UTF-8.
fn received(body: &[u8], captured_at: DateTime<Utc>) -> NewProvenance {
    NewProvenance {
        captured_at,
        service_url: "http://127.0.0.1:8787".into(),
        response_url: "http://127.0.0.1:8787/twitter/search?query=rust".into(),
        http_status: 200,
        billing_headers: BTreeMap::from([
            ("x-service-cost-usd".to_owned(), "1.5E-4".to_owned()),
            ("x-service-usage-count".to_owned(), "1".to_owned()),
        ]),
        response_headers: None,
        app_version: "0.1.0".into(),
        sha256: hex(&Sha256::digest(body)),
        body: body.to_vec(),
        from_cache: false,
        stamp_with: None,
    }
}

async fn record_with(store: &Store, id: &str, body: &[u8], when: DateTime<Utc>) -> i64 {
    let mut r = record(id, when);
    r.provenance = Some(received(body, when + chrono::Duration::milliseconds(345)));
    store.record_request(&r).await.unwrap().history_id()
}

#[tokio::test]
async fn a_response_is_kept_byte_for_byte_with_every_field() {
    let (store, _dir) = temp_store().await;
    let body = b"{\"text\":\"caf\xc3\xa9 \xff\"}".repeat(50);
    let id = record_with(&store, "a", &body, at(18, 4)).await;

    let Provenance::Captured { record: p } = store.provenance(id).await.unwrap() else {
        panic!("no provenance for a recorded response");
    };
    assert_eq!(p.history_id, id);
    assert_eq!(
        p.captured_at.timestamp_millis(),
        at(18, 4).timestamp_millis() + 345
    );
    assert_eq!(p.service_url, "http://127.0.0.1:8787");
    assert_eq!(p.operation, "twitter_search");
    assert_eq!(p.params_json, r#"{"query":"rust lang","count":20}"#);
    assert_eq!(p.http_status, 200);
    assert_eq!(p.billing_headers["x-service-cost-usd"], "1.5E-4");
    assert_eq!(p.app_version, "0.1.0");
    assert_eq!(p.sha256, hex(&Sha256::digest(&body)));
    assert_eq!(p.body_size, body.len() as i64);
    assert!(!p.from_cache);

    assert_eq!(store.provenance_body(id).await.unwrap().unwrap(), body);
    let check = store.verify_provenance(id).await.unwrap().unwrap();
    assert!(check.matches, "{check:?}");
    assert_eq!(check.recomputed, p.sha256);

    let stored: i64 =
        sqlx::query_scalar("SELECT length(body) FROM provenance WHERE history_id = ?")
            .bind(id)
            .fetch_one(&store.pool)
            .await
            .unwrap();
    assert!(stored < body.len() as i64 / 4, "kept compressed: {stored}");
}

#[tokio::test]
async fn provenance_is_never_edited_and_leaves_with_its_history_row() {
    let (store, _dir) = temp_store().await;
    let id = record_with(&store, "a", b"[]", at(9, 0)).await;
    for change in [
        "UPDATE provenance SET sha256 = replace(sha256, 'a', 'b')",
        "UPDATE provenance SET body = x'00'",
        "UPDATE provenance SET captured_at = 0",
    ] {
        let refused = sqlx::query(change).execute(&store.pool).await;
        let error = refused.expect_err(change).to_string();
        assert!(error.contains("never edited"), "{error}");
    }
    assert!(store.verify_provenance(id).await.unwrap().unwrap().matches);

    sqlx::query("DELETE FROM history WHERE id = ?")
        .bind(id)
        .execute(&store.pool)
        .await
        .unwrap();
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM provenance")
        .fetch_one(&store.pool)
        .await
        .unwrap();
    assert_eq!(left, 0);
}

#[tokio::test]
async fn altered_stored_bytes_no_longer_match() {
    let (store, _dir) = temp_store().await;
    let id = record_with(&store, "a", b"[{\"id\":\"1\"}]", at(9, 0)).await;
    // Only someone going around the app can alter a row: drop the guard as they would.
    sqlx::query("DROP TRIGGER provenance_never_edited")
        .execute(&store.pool)
        .await
        .unwrap();
    let altered = compress(b"[{\"id\":\"2\"}]").unwrap();
    sqlx::query("UPDATE provenance SET body = ? WHERE history_id = ?")
        .bind(altered)
        .bind(id)
        .execute(&store.pool)
        .await
        .unwrap();
    let check = store.verify_provenance(id).await.unwrap().unwrap();
    assert!(!check.matches);
    assert_ne!(check.recorded, check.recomputed);

    sqlx::query("UPDATE provenance SET body = x'0102' WHERE history_id = ?")
        .bind(id)
        .execute(&store.pool)
        .await
        .unwrap();
    assert!(!store.verify_provenance(id).await.unwrap().unwrap().matches);
}

#[tokio::test]
async fn rows_say_captured_or_not_received_in_one_batch() {
    let (store, _dir) = temp_store().await;
    let ok = record_with(&store, "ok", b"[]", at(9, 0)).await;
    let mut failed = record("failed", at(9, 1));
    failed.status = RequestStatus::Error;
    failed.result_json = None;
    let failed = store.record_request(&failed).await.unwrap().history_id();

    let lines = store.history_captures(&[failed, ok, 999]).await.unwrap();
    assert_eq!(lines.len(), 2, "a missing row is left out");
    let of = |id: i64| lines.iter().find(|l| l.history_id == id).unwrap();
    assert!(matches!(
        &of(ok).capture,
        CaptureState::Captured { capture } if capture.sha256 == hex(&Sha256::digest(b"[]"))
    ));
    assert_eq!(of(failed).capture, CaptureState::NotReceived);
    assert_eq!(
        store.provenance(failed).await.unwrap(),
        Provenance::NotReceived
    );
    assert_eq!(store.verify_provenance(failed).await.unwrap(), None);
    assert_eq!(store.provenance_body(failed).await.unwrap(), None);
}

#[tokio::test]
async fn a_post_shows_the_earliest_response_that_brought_it() {
    let (store, _dir) = temp_store().await;
    let mut first = record("first", at(9, 0));
    first.posts = vec![post("1", "hello", at(8, 0)), post("2", "again", at(8, 0))];
    first.provenance = Some(received(b"first", at(9, 0)));
    let first = store.record_request(&first).await.unwrap().history_id();
    let mut later = record("later", at(10, 0));
    later.posts = vec![post("2", "again", at(8, 0)), post("3", "new", at(8, 0))];
    later.provenance = Some(received(b"later", at(10, 0)));
    let later = store.record_request(&later).await.unwrap().history_id();
    let mut unknown = record("unknown", at(11, 0));
    unknown.posts = vec![post("4", "old", at(8, 0))];
    store.record_request(&unknown).await.unwrap();

    let ids: Vec<String> = ["3", "2", "1", "4", "5"].map(String::from).into();
    let captures = store.post_captures(&ids).await.unwrap();
    let history: Vec<Option<i64>> = captures
        .iter()
        .map(|c| c.capture.as_ref().map(|s| s.history_id))
        .collect();
    assert_eq!(
        captures
            .iter()
            .map(|c| c.post_id.as_str())
            .collect::<Vec<_>>(),
        ["3", "2", "1", "4"],
        "in the order asked, unknown posts left out"
    );
    assert_eq!(history, [Some(later), Some(first), Some(first), None]);
}

/// A database as migration 0004 left it, with two requests in its history.
async fn database_at_0004(path: &Path) {
    let folder = path.with_extension("migrations");
    std::fs::create_dir_all(&folder).unwrap();
    for (name, sql) in [
        (
            "0001_init.sql",
            include_str!("../../migrations/0001_init.sql"),
        ),
        (
            "0002_spend_daily.sql",
            include_str!("../../migrations/0002_spend_daily.sql"),
        ),
        (
            "0003_history_fts.sql",
            include_str!("../../migrations/0003_history_fts.sql"),
        ),
        (
            "0004_posts_fts_hashsize.sql",
            include_str!("../../migrations/0004_posts_fts_hashsize.sql"),
        ),
    ] {
        std::fs::write(folder.join(name), sql).unwrap();
    }
    let pool = SqlitePoolOptions::new()
        .connect_with(
            SqliteConnectOptions::new()
                .filename(path)
                .create_if_missing(true)
                .foreign_keys(true),
        )
        .await
        .unwrap();
    sqlx::migrate::Migrator::new(folder.as_path())
        .await
        .unwrap()
        .run(&pool)
        .await
        .unwrap();
    for id in ["old-1", "old-2"] {
        sqlx::query(
            "INSERT INTO history (request_id, started_at, operation, params_json, mode, status)
             VALUES (?, 0, 'twitter_search', '{}', 'live', 'ok')",
        )
        .bind(id)
        .execute(&pool)
        .await
        .unwrap();
    }
    pool.close().await;
}

#[tokio::test]
async fn rows_older_than_provenance_say_so_and_never_get_a_hash() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sightline.db");
    database_at_0004(&path).await;

    let store = Store::open(&path).await.unwrap();
    let old: Vec<i64> = sqlx::query_scalar("SELECT id FROM history ORDER BY id")
        .fetch_all(&store.pool)
        .await
        .unwrap();
    assert_eq!(old.len(), 2);
    for id in &old {
        assert_eq!(
            store.provenance(*id).await.unwrap(),
            Provenance::BeforeProvenance
        );
        assert_eq!(store.verify_provenance(*id).await.unwrap(), None);
    }
    let lines = store.history_captures(&old).await.unwrap();
    assert!(lines
        .iter()
        .all(|l| l.capture == CaptureState::BeforeProvenance));

    // Deleting the newest old row frees its id for the next request: that one is new.
    sqlx::query("DELETE FROM history WHERE id = ?")
        .bind(old[1])
        .execute(&store.pool)
        .await
        .unwrap();
    let mut failed = record("new", at(9, 0));
    failed.status = RequestStatus::Error;
    failed.result_json = None;
    let new = store.record_request(&failed).await.unwrap().history_id();
    assert_eq!(new, old[1], "SQLite re-used the id");
    assert_eq!(
        store.provenance(new).await.unwrap(),
        Provenance::NotReceived
    );
}

#[tokio::test]
async fn every_response_header_is_kept_in_order_never_edited_and_leaves_with_its_row() {
    let (store, _dir) = temp_store().await;
    let when = at(10, 0);
    let headers: Vec<(String, String)> = [
        ("content-type", "application/json"),
        ("x-sightline-original-transfer-encoding", "chunked"),
        ("set-cookie", "b=2"),
        ("set-cookie", "a=1"),
        ("x-service-cost-usd", "1.5E-4"),
    ]
    .iter()
    .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
    .collect();
    let mut r = record("a", when);
    r.provenance = Some(NewProvenance {
        response_headers: Some(headers.clone()),
        ..received(b"[]", when)
    });
    let id = store.record_request(&r).await.unwrap().history_id();
    // A capture made before headers were kept, recorded as such.
    let old = record_with(&store, "b", b"[]", at(10, 1)).await;

    assert_eq!(store.response_headers(id).await.unwrap(), Some(headers));
    assert_eq!(store.response_headers(old).await.unwrap(), None);

    let refused = sqlx::query("UPDATE response_headers SET headers = '[]'")
        .execute(&store.pool)
        .await;
    let error = refused.expect_err("an edit").to_string();
    assert!(error.contains("never edited"), "{error}");
    let not_json =
        sqlx::query("INSERT INTO response_headers (history_id, headers) VALUES (?, '{}')")
            .bind(old)
            .execute(&store.pool)
            .await;
    assert!(not_json.is_err(), "only a JSON array is kept");

    sqlx::query("DELETE FROM history WHERE id = ?")
        .bind(id)
        .execute(&store.pool)
        .await
        .unwrap();
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM response_headers")
        .fetch_one(&store.pool)
        .await
        .unwrap();
    assert_eq!(left, 0);
}
