use std::path::Path;
use std::sync::{Arc, Mutex};

use chrono::Utc;

use super::*;
use crate::test_support::post;
use crate::Store;

/// A store at migration 0007 (before the analysis migrations) holding `posts` posts.
async fn archive_at_0007(path: &Path, posts: usize) {
    let store = Store::open_at_version(path, 7).await.unwrap();
    let posts: Vec<_> = (0..posts)
        .map(|n| {
            post(
                &format!("{}", 1_000 + n),
                &format!("post {n} #tag{}", n % 5),
                Utc::now(),
            )
        })
        .collect();
    store.archive_posts(Utc::now(), &posts).await.unwrap();
    store.close().await;
}

/// Every step told, in order.
fn recorder() -> (Upgrade, Arc<Mutex<Vec<UpgradeStep>>>, tempfile::TempDir) {
    let told = Arc::new(Mutex::new(Vec::new()));
    let sink = told.clone();
    let backups = tempfile::tempdir().unwrap();
    let upgrade = Upgrade {
        backups: Some(backups.path().join("backups")),
        progress: Some(Arc::new(move |step| sink.lock().unwrap().push(step))),
        ..Upgrade::default()
    };
    (upgrade, told, backups)
}

async fn versions(path: &Path) -> Vec<i64> {
    let mut conn = SqliteConnection::connect_with(&SqliteConnectOptions::new().filename(path))
        .await
        .unwrap();
    let rows: Vec<(i64,)> = sqlx::query_as("SELECT version FROM _sqlx_migrations ORDER BY version")
        .fetch_all(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
    rows.into_iter().map(|(v,)| v).collect()
}

async fn count(store: &Store, table: &str) -> i64 {
    sqlx::query_scalar(&format!("SELECT count(*) FROM {table}"))
        .fetch_one(&store.pool)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_database_from_a_newer_sightline_is_refused_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sightline.db");
    let store = Store::open(&path).await.unwrap();
    sqlx::query(
        "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time)
         VALUES (20991231, 'from the future', TRUE, x'00', 0)",
    )
    .execute(&store.pool)
    .await
    .unwrap();
    store.close().await;
    settle(&path).await;
    let before = digest(&path);

    let error = Store::open(&path).await.unwrap_err();
    match &error {
        StoreError::NewerSchema {
            unknown,
            latest_known: known,
        } => {
            assert_eq!(unknown, &[20991231]);
            assert_eq!(*known, latest_known());
        }
        other => panic!("{other:?}"),
    }
    assert!(error.to_string().contains("newer Sightline"), "{error}");
    settle(&path).await;
    assert_eq!(digest(&path), before, "the file was written");

    // Read-only, its records can still be read, and nothing can be written.
    let store = Store::open_read_only(&path).await.unwrap();
    assert_eq!(count(&store, "history").await, 0);
    let refused = store
        .set_archive_state("mark", &serde_json::json!("a write"))
        .await
        .unwrap_err();
    assert!(refused.is_read_only(), "{refused:?}");
    store.close().await;
    settle(&path).await;
    assert_eq!(digest(&path), before);
}

/// Copies what the write-ahead log holds into the file, so the file's bytes are its content.
async fn settle(path: &Path) {
    let mut conn = SqliteConnection::connect_with(&SqliteConnectOptions::new().filename(path))
        .await
        .unwrap();
    sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
        .execute(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
}

/// The SHA-256 of a file's bytes.
fn digest(path: &Path) -> Vec<u8> {
    use sha2::Digest;
    sha2::Sha256::digest(std::fs::read(path).unwrap()).to_vec()
}

/// Overwrites one page of the file (1-based) with bytes no SQLite page holds.
fn garble_page(path: &Path, page: u64) {
    use std::io::{Seek, SeekFrom, Write};
    let mut file = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    file.seek(SeekFrom::Start((page - 1) * 4096)).unwrap();
    let garbage: Vec<u8> = (0..4096u32).map(|i| (i * 7 + 13) as u8).collect();
    file.write_all(&garbage).unwrap();
    file.sync_all().unwrap();
}

#[tokio::test]
async fn a_damaged_page_is_found_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sightline.db");
    damaged_archive(&path, None).await;
    let error = Store::open(&path).await.unwrap_err();
    let StoreError::Damaged { report } = &error else {
        panic!("{error:?}");
    };
    assert!(!report.is_empty() && report[0] != "ok", "{report:?}");
    assert!(error.is_damage());
}

#[tokio::test]
async fn checked_only_before_migrating_a_damaged_file_opens_and_its_check_finds_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sightline.db");
    let page = damaged_archive(&path, None).await;
    let later = Upgrade {
        check: Check::BeforeMigrating,
        ..Upgrade::default()
    };
    // Up to date: opened at once, and the caller's own check finds the damage.
    let store = Store::open_upgrading(&path, &later).await.unwrap();
    // SQLite reports the damage, or stops at it as "malformed".
    match store.quick_check().await {
        Ok(report) => assert_ne!(report, ["ok"], "page {page} garbled"),
        Err(error) => assert!(error.is_damage(), "{error:?}"),
    }
    store.close().await;

    // With migrations pending, the check runs first and nothing is migrated.
    let path = dir.path().join("old.db");
    damaged_archive(&path, Some(7)).await;
    let error = Store::open_upgrading(&path, &later).await.unwrap_err();
    assert!(matches!(error, StoreError::Damaged { .. }), "{error:?}");
    assert_eq!(versions(&path).await, (1..=7).collect::<Vec<_>>());
}

/// The background check reads every page: with the pool's 32 MiB cache that memory would stay
/// held while the app idles. It runs on a connection of its own with a small cache, closed after.
#[tokio::test]
async fn the_check_leaves_no_page_cache_held_in_the_pool() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sightline.db");
    let store = Store::open(&path).await.unwrap();
    // About 16 MiB of pages for the check to read.
    sqlx::query(
        "CREATE TABLE filler AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n \
         WHERE i < 4000) SELECT i, randomblob(4000) AS bytes FROM n",
    )
    .execute(&store.pool)
    .await
    .unwrap();
    store.close().await;

    let store = Store::open(&path).await.unwrap();
    assert_eq!(store.quick_check().await.unwrap(), ["ok"]);
    // Every connection the pool can hand out: its own cache size, and little of it in use.
    let mut held = Vec::new();
    for _ in 0..4 {
        let mut conn = store.pool.acquire().await.unwrap();
        let (pages,): (i64,) = sqlx::query_as("PRAGMA cache_size")
            .fetch_one(&mut *conn)
            .await
            .unwrap();
        assert_eq!(pages, -32768);
        let used = cache_bytes_used(&mut conn).await;
        assert!(
            used < 4 << 20,
            "a pooled connection holds {used} bytes of pages"
        );
        held.push(conn);
    }
    drop(held);
    store.close().await;
}

/// The bytes of page cache one connection holds (SQLite's `SQLITE_DBSTATUS_CACHE_USED`).
async fn cache_bytes_used(conn: &mut SqliteConnection) -> i64 {
    use libsqlite3_sys as ffi;
    let mut handle = conn.lock_handle().await.unwrap();
    let db = handle.as_raw_handle().as_ptr();
    let (mut current, mut highest) = (0, 0);
    // SAFETY: `db` is this connection's open handle, held locked for the call.
    let status = unsafe {
        ffi::sqlite3_db_status(
            db,
            ffi::SQLITE_DBSTATUS_CACHE_USED,
            &mut current,
            &mut highest,
            0,
        )
    };
    assert_eq!(status, ffi::SQLITE_OK);
    i64::from(current)
}

/// An archive of 2,000 posts (at migration `at`, or the latest) with one of its pages garbled;
/// returns the page.
async fn damaged_archive(path: &Path, at: Option<i64>) -> u64 {
    let store = match at {
        Some(version) => Store::open_at_version(path, version).await.unwrap(),
        None => Store::open(path).await.unwrap(),
    };
    let posts: Vec<_> = (0..2_000)
        .map(|n| {
            post(
                &format!("{}", 1_000 + n),
                &format!("post number {n}"),
                Utc::now(),
            )
        })
        .collect();
    store.archive_posts(Utc::now(), &posts).await.unwrap();
    let (root,): (i64,) = sqlx::query_as("SELECT rootpage FROM sqlite_master WHERE name = 'posts'")
        .fetch_one(&store.pool)
        .await
        .unwrap();
    let (pages,): (i64,) = sqlx::query_as("PRAGMA page_count")
        .fetch_one(&store.pool)
        .await
        .unwrap();
    store.close().await;
    // Every page in the file, none left in the write-ahead log to stand in for a garbled one.
    settle(path).await;
    // A page in the middle of the posts (the root's children are on later pages), not one
    // SQLite reads to open the file: found by the check, not by luck.
    let page = (root as u64 + pages as u64) / 2;
    garble_page(path, page);
    page
}

#[tokio::test]
async fn a_file_that_is_no_database_is_damaged_too() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sightline.db");
    let store = Store::open(&path).await.unwrap();
    store.close().await;
    garble_page(&path, 1);
    let error = Store::open(&path).await.unwrap_err();
    assert!(matches!(error, StoreError::Damaged { .. }), "{error:?}");
}

#[tokio::test]
async fn an_upgrade_that_rewrites_tables_is_copied_first_and_told_in_posts() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sightline.db");
    archive_at_0007(&path, 3_000).await;
    let (upgrade, told, backups) = recorder();

    let store = Store::open_upgrading(&path, &upgrade).await.unwrap();
    assert_eq!(count(&store, "post_facts").await, 3_000);
    // The planner's statistics cover the tables the migrations filled.
    let analysed: Vec<String> = sqlx::query_scalar("SELECT DISTINCT tbl FROM sqlite_stat1")
        .fetch_all(&store.pool)
        .await
        .unwrap();
    for table in ["posts", "post_facts", "author_tally", "activity_by_kind"] {
        assert!(analysed.iter().any(|t| t == table), "{table}: {analysed:?}");
    }
    store.close().await;

    // One copy, named for the first migration that rewrites, holding the file as it was.
    let copies = backup::list(&backups.path().join("backups"), &path);
    assert_eq!(copies.len(), 1, "{copies:?}");
    assert_eq!(copies[0].before_version, 8);
    let name = copies[0]
        .path
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    assert!(name.starts_with("sightline-before-0008-"), "{name}");
    assert_eq!(versions(&copies[0].path).await, (1..=7).collect::<Vec<_>>());
    let copy = Store::open_read_only(&copies[0].path).await.unwrap();
    assert_eq!(count(&copy, "posts").await, 3_000);
    copy.close().await;

    let told = told.lock().unwrap().clone();
    // The check first, told as it starts and then as it goes: never the whole file before it
    // has ended.
    let checking = told
        .iter()
        .take_while(|step| matches!(step, UpgradeStep::Checking { .. }))
        .count();
    assert!(checking >= 1, "{told:?}");
    for step in &told[..checking] {
        assert!(
            matches!(step, UpgradeStep::Checking { read_bytes, total_bytes }
                if *total_bytes > 0 && read_bytes.is_none_or(|read| read < *total_bytes)),
            "{step:?}"
        );
    }
    assert!(
        matches!(told[checking], UpgradeStep::BackingUp { written_bytes: 0, expected_bytes, .. } if expected_bytes > 0)
    );
    let migrating: Vec<_> = told
        .iter()
        .filter_map(|step| match step {
            UpgradeStep::Migrating {
                version,
                number,
                count,
                posts_done,
                posts_total,
                backup,
                ..
            } => Some((
                *version,
                *number,
                *count,
                *posts_done,
                *posts_total,
                backup.clone(),
            )),
            _ => None,
        })
        .collect();
    let pending = MIGRATOR.iter().filter(|m| m.version > 7).count();
    assert!(migrating.iter().all(|m| m.2 == pending && m.4 == 3_000));
    assert!(migrating
        .iter()
        .all(|m| matches!(&m.5, BackupOutcome::Made { bytes, .. } if *bytes == copies[0].bytes)));
    // Each migration told from its start to its end; posts only grow; 0008 ends at every post.
    let of_0008: Vec<_> = migrating.iter().filter(|m| m.0 == 8).collect();
    assert_eq!(of_0008.first().unwrap().1, 1);
    assert_eq!(of_0008.last().unwrap().3, Some(3_000));
    assert!(of_0008.windows(2).all(|w| w[0].3 <= w[1].3));
    // "All" only once committed: an estimate stays under the total.
    let (last, before) = of_0008.split_last().unwrap();
    assert!(before.iter().all(|m| m.3.unwrap() < 3_000), "{before:?}");
    assert_eq!(last.3, Some(3_000));
    assert_eq!(told.last(), Some(&UpgradeStep::Finishing));
}

#[tokio::test]
async fn a_new_file_or_one_up_to_date_gets_no_copy() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sightline.db");
    let (upgrade, told, backups) = recorder();
    Store::open_upgrading(&path, &upgrade)
        .await
        .unwrap()
        .close()
        .await;
    Store::open_upgrading(&path, &upgrade)
        .await
        .unwrap()
        .close()
        .await;
    assert!(!backups.path().join("backups").exists());
    let told = told.lock().unwrap().clone();
    assert!(told
        .iter()
        .all(|step| !matches!(step, UpgradeStep::BackingUp { .. })));
    assert!(told.iter().all(|step| match step {
        UpgradeStep::Migrating {
            backup,
            posts_total,
            ..
        } => *backup == BackupOutcome::NotNeeded && *posts_total == 0,
        _ => true,
    }));
}

#[tokio::test]
async fn a_cut_upgrade_keeps_its_finished_migrations_and_redoes_the_cut_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sightline.db");
    archive_at_0007(&path, 500).await;
    // A table in 0009's way makes it fail half-way, after 0008 has committed: what a quit
    // during 0009 leaves, as far as the file is concerned (SQLite rolls the cut one back).
    let store = Store::open_at_version(&path, 7).await.unwrap();
    sqlx::query("CREATE TABLE entity_tally (x)")
        .execute(&store.pool)
        .await
        .unwrap();
    store.close().await;
    let error = Store::open(&path).await.unwrap_err();
    assert!(matches!(error, StoreError::Migrate(_)), "{error:?}");
    assert_eq!(versions(&path).await, (1..=8).collect::<Vec<_>>());

    let store = Store::open_at_version(&path, 8).await.unwrap();
    let tallies: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM sqlite_master WHERE name IN ('author_tally', 'lang_tally')",
    )
    .fetch_one(&store.pool)
    .await
    .unwrap();
    assert_eq!(tallies, 0, "the cut migration left part of its work");
    sqlx::query("DROP TABLE entity_tally")
        .execute(&store.pool)
        .await
        .unwrap();
    store.close().await;

    let (upgrade, told, _backups) = recorder();
    let store = Store::open_upgrading(&path, &upgrade).await.unwrap();
    let ran: Vec<i64> = told
        .lock()
        .unwrap()
        .iter()
        .filter_map(|step| match step {
            UpgradeStep::Migrating { version, .. } => Some(*version),
            _ => None,
        })
        .collect();
    assert!(!ran.contains(&8), "0008 ran again: {ran:?}");
    assert!(ran.contains(&9));
    let tallied: i64 = sqlx::query_scalar("SELECT sum(posts) FROM author_tally")
        .fetch_one(&store.pool)
        .await
        .unwrap();
    assert_eq!(tallied, 500);
}

#[tokio::test]
async fn an_upgrade_stopped_mid_statement_is_rolled_back_and_resumed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sightline.db");
    archive_at_0007(&path, 20_000).await;
    // Stopped as a quit stops it: the opening's task dropped while 0008 runs.
    let (started_tx, started_rx) = tokio::sync::oneshot::channel();
    let started_tx = Mutex::new(Some(started_tx));
    let upgrade = Upgrade {
        backups: None,
        progress: Some(Arc::new(move |step| {
            if matches!(step, UpgradeStep::Migrating { version: 8, .. }) {
                if let Some(tx) = started_tx.lock().unwrap().take() {
                    let _ = tx.send(());
                }
            }
        })),
        ..Upgrade::default()
    };
    let opening = {
        let path = path.clone();
        tokio::spawn(async move { Store::open_upgrading(&path, &upgrade).await })
    };
    started_rx.await.unwrap();
    opening.abort();
    assert!(opening.await.unwrap_err().is_cancelled());

    // The connection closes on its own thread; the next opening waits for its lock.
    let store = Store::open(&path).await.unwrap();
    assert_eq!(count(&store, "post_facts").await, 20_000);
    let tallied: i64 = sqlx::query_scalar("SELECT sum(posts) FROM author_tally")
        .fetch_one(&store.pool)
        .await
        .unwrap();
    assert_eq!(tallied, 20_000);
    store.close().await;
    assert_eq!(
        versions(&path).await,
        MIGRATOR.iter().map(|m| m.version).collect::<Vec<_>>()
    );
}

#[tokio::test]
async fn copies_are_kept_two_at_a_time_and_files_set_aside_are_never_deleted() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path();
    let path = data.join("demo.db");
    let backups = data.join("backups");
    for _ in 0..3 {
        archive_at_0007(&path, 10).await;
        let upgrade = Upgrade {
            backups: Some(backups.clone()),
            ..Upgrade::default()
        };
        Store::open_upgrading(&path, &upgrade)
            .await
            .unwrap()
            .close()
            .await;
        // Back to 0007 for the next round: the newest copy put back in place.
        let newest = backup::latest(&backups, &path).unwrap();
        backup::restore(&newest, &path, "replaced").unwrap();
    }
    let copies = backup::list(&backups, &path);
    assert_eq!(copies.len(), backup::KEEP);
    assert!(copies[0].made_at > copies[1].made_at);
    // Each restore set the database it replaced aside, with its log, beside it.
    let aside: Vec<String> = std::fs::read_dir(data)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("demo-replaced-"))
        .collect();
    assert_eq!(
        aside.iter().filter(|n| n.ends_with(".db")).count(),
        3,
        "{aside:?}"
    );
    // The restored file is the copy: at 0007, with its posts.
    assert_eq!(versions(&path).await, (1..=7).collect::<Vec<_>>());
    let store = Store::open(&path).await.unwrap();
    assert_eq!(count(&store, "posts").await, 10);
    store.close().await;
}

#[test]
fn a_copy_needs_room_for_itself_and_the_upgrade() {
    // 100 bytes of pages to copy, a 50-byte database: 150 must be free.
    assert_eq!(
        backup::no_room(100, 50, Some(149)),
        Some(BackupOutcome::NoRoom {
            needed_bytes: 150,
            free_bytes: 149
        })
    );
    assert_eq!(backup::no_room(100, 50, Some(150)), None);
    // Where the system cannot say, the copy is tried (and its failure reported).
    assert_eq!(backup::no_room(100, 50, None), None);
}

/// Each migration file holding a statement that writes rows already stored, or alters or
/// drops a table (outside its triggers, which run only on later writes), is in
/// [`REWRITES_TABLES`], and each listed file holds one.
#[test]
fn migrations_that_rewrite_are_listed() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
    for migration in MIGRATOR.iter() {
        let file = std::fs::read_dir(&folder)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| {
                p.file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with(&format!("{:04}_", migration.version))
            })
            .unwrap();
        let sql = std::fs::read_to_string(&file).unwrap();
        let rewrites = statements_outside_triggers(&sql).iter().any(|s| {
            let s = s.to_uppercase();
            (s.starts_with("INSERT") && (s.contains(" SELECT ") || s.contains("'REBUILD'")))
                || s.starts_with("UPDATE ")
                || s.starts_with("DELETE ")
                || s.starts_with("ALTER TABLE")
                || (s.starts_with("DROP TABLE") && !s.starts_with("DROP TABLE TEMP."))
        });
        let own_tables = FILLS_ITS_OWN_TABLES.contains(&migration.version);
        assert_eq!(
            rewrites,
            REWRITES_TABLES.contains(&migration.version) || own_tables,
            "{}: add it to REWRITES_TABLES, or take it out",
            file.display()
        );
        if own_tables {
            assert!(!REWRITES_TABLES.contains(&migration.version));
            // Each statement that writes rows fills a table the migration creates.
            let created: Vec<String> = statements_outside_triggers(&sql)
                .iter()
                .filter_map(|s| {
                    s.to_uppercase()
                        .strip_prefix("CREATE TABLE ")
                        .map(|rest| rest.split([' ', '(']).next().unwrap_or_default().to_owned())
                })
                .collect();
            for statement in statements_outside_triggers(&sql) {
                let s = statement.to_uppercase();
                if s.starts_with("CREATE") {
                    continue;
                }
                let target = s
                    .strip_prefix("INSERT INTO ")
                    .and_then(|rest| rest.split([' ', '(']).next());
                assert!(
                    target.is_some_and(|t| created.iter().any(|c| c == t)),
                    "{}: {statement} writes to a table it did not create",
                    file.display()
                );
            }
        }
    }
}

fn statements_outside_triggers(sql: &str) -> Vec<String> {
    let plain: String = sql
        .lines()
        .map(|line| line.split("--").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join(" ");
    let mut out = Vec::new();
    let mut in_trigger = false;
    for statement in plain.split(';') {
        let words = statement.split_whitespace().collect::<Vec<_>>().join(" ");
        let upper = words.to_uppercase();
        if upper.starts_with("CREATE TRIGGER") {
            in_trigger = true;
        }
        if in_trigger {
            if upper == "END" || upper.ends_with(" END") {
                in_trigger = false;
            }
            continue;
        }
        if !words.is_empty() {
            out.push(words);
        }
    }
    out
}

#[test]
fn the_bytes_read_so_far_count_a_files_pages_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pages");
    std::fs::write(&path, vec![7u8; 4 << 20]).unwrap();
    let Some(before) = read_so_far() else {
        return; // No /proc here: the check's progress is not told.
    };
    assert_eq!(std::fs::read(&path).unwrap().len(), 4 << 20);
    let read = read_so_far().unwrap() - before;
    // Other tests run beside this one and read too: at least the file, not a figure exactly.
    assert!(read >= 4 << 20, "{read}");
}
