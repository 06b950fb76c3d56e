use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use chrono::Utc;

use super::*;
use crate::test_support::{post, temp_store};

/// 2,000 posts, then 3,000 rows of 10 kB in a table of their own, every other one deleted: a
/// file of about 30 MB with over 10 MB of free pages scattered through it.
async fn with_deleted_rows(store: &Store) {
    let posts: Vec<_> = (0..2_000)
        .map(|n| {
            post(
                &format!("{}", 1_000 + n),
                &format!("post {n} #tag"),
                Utc::now(),
            )
        })
        .collect();
    store.archive_posts(Utc::now(), &posts).await.unwrap();
    for sql in [
        "CREATE TABLE filler (n INTEGER PRIMARY KEY, b BLOB)",
        "WITH RECURSIVE k(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM k WHERE n < 3000) \
         INSERT INTO filler SELECT n, randomblob(10000) FROM k",
        "DELETE FROM filler WHERE n % 2 = 0",
    ] {
        sqlx::query(sql).execute(&store.pool).await.unwrap();
    }
    store.checkpoint().await.unwrap();
}

async fn count(store: &Store, sql: &str) -> i64 {
    sqlx::query_scalar(sql)
        .fetch_one(&store.pool)
        .await
        .unwrap()
}

fn file_len(store: &Store) -> u64 {
    std::fs::metadata(store.database_path().unwrap())
        .unwrap()
        .len()
}

#[test]
fn each_table_has_its_part() {
    assert_eq!(part_of("posts", false), Part::Posts);
    assert_eq!(part_of("post_facts", false), Part::Posts);
    assert_eq!(part_of("entity_tally", false), Part::Posts);
    assert_eq!(part_of("activity_by_lang", false), Part::Posts);
    assert_eq!(part_of("provenance", false), Part::Responses);
    assert_eq!(part_of("results", false), Part::Responses);
    assert_eq!(part_of("media_files", false), Part::Media);
    assert_eq!(part_of("posts_fts_data", false), Part::Indexes);
    assert_eq!(part_of("history_fts_idx", false), Part::Indexes);
    assert_eq!(part_of("idx_posts_created", true), Part::Indexes);
    assert_eq!(part_of("history", false), Part::Other);
    assert_eq!(part_of("ledger", false), Part::Other);
    assert_eq!(part_of("sqlite_schema", false), Part::Other);
}

#[tokio::test]
async fn the_parts_add_up_to_the_file() {
    let (store, _dir) = temp_store().await;
    with_deleted_rows(&store).await;
    let sizes = store.database_sizes().await.unwrap();
    let parts: u64 = sizes.parts.values().sum();
    assert_eq!(parts + sizes.free_bytes, sizes.file_bytes);
    // The write-ahead log was folded in: SQLite's size is the file's on disk.
    assert_eq!(sizes.file_bytes, file_len(&store));
    assert!(sizes.parts[&Part::Posts] > 0, "{sizes:?}");
    assert!(sizes.parts[&Part::Indexes] > 0, "{sizes:?}");
    // The 1,500 rows left of the filler are 15 MB of "other"; as much again is free.
    assert!(sizes.parts[&Part::Other] > 15_000_000, "{sizes:?}");
    assert!(sizes.free_bytes > 10_000_000, "{sizes:?}");
}

#[tokio::test]
async fn compacting_gives_back_the_free_pages_and_keeps_every_row() {
    let (store, _dir) = temp_store().await;
    with_deleted_rows(&store).await;
    let before = store.database_sizes().await.unwrap();
    let mut steps = Vec::new();
    let done = store
        .compact(|step| steps.push(step), || false)
        .await
        .unwrap();
    let Compacted::Done {
        before_bytes,
        after_bytes,
    } = done
    else {
        panic!("{done:?}");
    };
    assert_eq!(before_bytes, before.file_bytes);
    assert_eq!(after_bytes, file_len(&store));
    assert!(
        after_bytes + 10_000_000 < before_bytes,
        "{before_bytes} -> {after_bytes}"
    );
    let after = store.database_sizes().await.unwrap();
    assert_eq!(after.free_bytes, 0);
    assert_eq!(after.parts[&Part::Posts], before.parts[&Part::Posts]);
    assert_eq!(count(&store, "SELECT count(*) FROM posts").await, 2_000);
    assert_eq!(count(&store, "SELECT count(*) FROM filler").await, 1_500);
    assert_eq!(store.integrity_check().await.unwrap(), ["ok"]);
    assert!(matches!(steps.first(), Some(CompactStep::Copying { .. })));
    assert!(matches!(
        steps.last(),
        Some(CompactStep::WritingBack { written_bytes, expected_bytes }) if written_bytes == expected_bytes
    ));
    // The store goes on as before.
    store
        .archive_posts(Utc::now(), &[post("99", "after", Utc::now())])
        .await
        .unwrap();
    assert_eq!(count(&store, "SELECT count(*) FROM posts").await, 2_001);
}

#[tokio::test]
async fn a_cancel_mid_way_leaves_the_file_as_it_was() {
    let (store, _dir) = temp_store().await;
    with_deleted_rows(&store).await;
    let before = store.database_sizes().await.unwrap();
    let cancel = Arc::new(AtomicBool::new(false));
    let stop = cancel.clone();
    // Stopped as soon as it starts: SQLite is then inside the VACUUM's transaction.
    let done = store
        .compact(
            move |_| stop.store(true, Ordering::Relaxed),
            move || cancel.load(Ordering::Relaxed),
        )
        .await
        .unwrap();
    assert_eq!(done, Compacted::Cancelled);
    store.checkpoint().await.unwrap();
    assert_eq!(store.database_sizes().await.unwrap(), before);
    assert_eq!(file_len(&store), before.file_bytes);
    assert_eq!(count(&store, "SELECT count(*) FROM filler").await, 1_500);
    assert_eq!(store.integrity_check().await.unwrap(), ["ok"]);
    store
        .archive_posts(Utc::now(), &[post("99", "after", Utc::now())])
        .await
        .unwrap();
    assert_eq!(count(&store, "SELECT count(*) FROM posts").await, 2_001);
}

/// The files as a crash would leave them: copied while the compaction is under way (its copy
/// half written back into the log, nothing committed), then opened as the next start would.
#[tokio::test]
async fn a_crash_mid_way_leaves_the_file_as_it_was() {
    let (store, dir) = temp_store().await;
    with_deleted_rows(&store).await;
    let before = store.database_sizes().await.unwrap();
    let db = store.database_path().unwrap();
    let crashed = dir.path().join("crashed");
    std::fs::create_dir(&crashed).unwrap();
    let cancel = Arc::new(AtomicBool::new(false));
    let stop = cancel.clone();
    let (mut looks, mut copied) = (0, false);
    let done = store
        .compact(
            |_| {
                // The first step is told before SQLite starts; the next ones while it runs.
                looks += 1;
                if copied || looks < 2 {
                    return;
                }
                for suffix in ["", "-wal"] {
                    let from = with_suffix(&db, suffix);
                    if from.exists() {
                        std::fs::copy(&from, with_suffix(&crashed.join("sightline.db"), suffix))
                            .unwrap();
                    }
                }
                copied = true;
                stop.store(true, Ordering::Relaxed);
            },
            move || cancel.load(Ordering::Relaxed),
        )
        .await
        .unwrap();
    assert!(copied, "no look at the files while it ran: {done:?}");
    let reopened = Store::open(crashed.join("sightline.db")).await.unwrap();
    assert_eq!(reopened.integrity_check().await.unwrap(), ["ok"]);
    assert_eq!(count(&reopened, "SELECT count(*) FROM filler").await, 1_500);
    assert_eq!(count(&reopened, "SELECT count(*) FROM posts").await, 2_000);
    let sizes = reopened.database_sizes().await.unwrap();
    assert_eq!(sizes.free_bytes, before.free_bytes, "{sizes:?}");
}

#[tokio::test]
async fn kept_files_are_known_by_their_record() {
    let (store, _dir) = temp_store().await;
    let kept = "a".repeat(64);
    sqlx::query(
        "INSERT INTO media_files (sha256, size, content_type, first_kept_at) VALUES (?, 1, 'image/png', 0)",
    )
    .bind(&kept)
    .execute(&store.pool)
    .await
    .unwrap();
    let known = store
        .known_media_files(&[kept.clone(), "b".repeat(64)])
        .await
        .unwrap();
    assert_eq!(known, [kept].into_iter().collect());
}

#[test]
fn the_disk_has_room_and_a_size() {
    let room = disk_room(Path::new(".")).unwrap();
    assert!(room.total_bytes >= room.free_bytes && room.total_bytes > 0);
}

#[tokio::test]
async fn an_in_memory_store_has_no_file_to_compact() {
    let store = Store::open_in_memory().await.unwrap();
    assert_eq!(store.database_path(), None);
    assert!(store.compact(|_| {}, || false).await.is_err());
}
