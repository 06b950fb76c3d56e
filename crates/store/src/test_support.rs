//! Fixtures shared by the unit tests of several modules: stores on real files and sample
//! records, so no module's tests depend on another module's.

use std::path::Path;
use std::str::FromStr;

use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use sqlx::sqlite::{SqliteConnectOptions, SqlitePoolOptions};
use sqlx::SqlitePool;

use crate::{Billing, LinkSource, NewLink, NewPost, RequestRecord, RequestStatus, Store};

/// A store on a real file in a fresh temporary folder (kept alive by the returned guard).
pub async fn temp_store() -> (Store, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("sightline.db")).await.unwrap();
    (store, dir)
}

/// A store on one connection whose file may grow by only `spare_pages` more pages: past
/// them SQLite fails writes with SQLITE_FULL, exactly as it does on a full disk.
pub async fn nearly_full_store(dir: &Path, spare_pages: i64) -> Store {
    let path = dir.join("sightline.db");
    let store = Store::open(&path).await.unwrap();
    let pages: i64 = sqlx::query_scalar("PRAGMA page_count")
        .fetch_one(&store.pool)
        .await
        .unwrap();
    store.close().await;
    // In the connect options, so that a connection opened to replace a closed one (see
    // `WriteTx`) has the same limit.
    let options = SqliteConnectOptions::new()
        .filename(&path)
        .foreign_keys(true)
        .pragma("max_page_count", (pages + spare_pages).to_string());
    let pool = SqlitePoolOptions::new()
        .max_connections(1)
        .after_connect(|conn, _| Box::pin(crate::register_functions(conn)))
        .connect_with(options)
        .await
        .unwrap();
    Store::over(pool.clone(), pool)
}

/// A database file as the first release left it (only `0001_init.sql` applied), to test
/// that later migrations carry existing data over.
pub async fn first_release_db(path: &Path) -> SqlitePool {
    database_at(path, 1).await
}

/// A database file as the release with migrations up to `last` left it, to test that the
/// migrations after it carry existing data over. Applied through a migrations folder of its
/// own, written from this build's migrations, so `Store::open` later finds the same checksums
/// and applies only the rest.
pub async fn database_at(path: &Path, last: i64) -> SqlitePool {
    let folder = path.with_extension("migrations");
    std::fs::create_dir_all(&folder).unwrap();
    for migration in crate::MIGRATOR.iter().filter(|m| m.version <= last) {
        let name = migration.description.replace(' ', "_");
        let file = folder.join(format!("{:04}_{name}.sql", migration.version));
        std::fs::write(file, migration.sql.as_bytes()).unwrap();
    }
    let pool = SqlitePoolOptions::new()
        // Migrations from 0008 call `fold` (and 0014 the custody hash), as the store's own
        // connections register them.
        .after_connect(|conn, _| Box::pin(crate::register_functions(conn)))
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
    pool
}

/// A finished, unbilled `twitter_search` with a small result body and nothing archived.
pub fn record(request_id: &str, at: DateTime<Utc>) -> RequestRecord {
    RequestRecord {
        provenance: None,
        request_id: request_id.into(),
        started_at: at,
        operation: "twitter_search".into(),
        params_json: r#"{"query":"rust lang","count":20}"#.into(),
        key_label: Some("work".into()),
        mode: "live".into(),
        status: RequestStatus::Ok,
        error_class: None,
        error_message: None,
        duration_ms: 420,
        result_count: 0,
        billing: None,
        cursor: None,
        next_cursor: None,
        parent_id: None,
        result_json: Some(r#"[{"id":"1"}]"#.into()),
        posts: vec![],
        users: vec![],
        links: vec![],
    }
}

/// Billing in US dollars; `cost` is a decimal string (its text is not kept, as in rows from
/// before it was).
pub fn billing(cost: &str, units: i64, service: &str) -> Billing {
    Billing {
        cost: Some(Decimal::from_str(cost).unwrap()),
        cost_text: None,
        usage_count: units,
        service: service.into(),
        currency: "USD".into(),
    }
}

/// A post by @ada with ordinary metrics and a raw record holding its id and text.
pub fn post(id: &str, text: &str, created_at: DateTime<Utc>) -> NewPost {
    NewPost {
        id: id.into(),
        conversation_id: Some(id.into()),
        author_id: Some("u1".into()),
        author_username: "ada".into(),
        author_name: "Ada Lovelace".into(),
        author_verified: true,
        text: text.into(),
        lang: Some("en".into()),
        created_at,
        like_count: 10,
        retweet_count: 2,
        reply_count: 1,
        quote_count: 0,
        view_count: Some(1000),
        bookmark_count: 0,
        hashtags: vec![],
        url: Some(format!("https://x.com/ada/status/{id}")),
        raw_json: format!(r#"{{"id":"{id}","text":{}}}"#, serde_json::json!(text)),
        nested: false,
    }
}

/// A web link result without a score.
pub fn link(url: &str) -> NewLink {
    NewLink {
        source: LinkSource::Web,
        title: "Example page".into(),
        snippet: "An example snippet".into(),
        link: url.into(),
        score: None,
    }
}
