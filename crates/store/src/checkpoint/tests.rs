use std::path::Path;
use std::time::{Duration, Instant};

use super::{LOG_KEPT_BYTES, WRITER_BACKSTOP_PAGES};
use crate::Store;

fn size(path: &Path) -> u64 {
    std::fs::metadata(path).map(|m| m.len()).unwrap_or(0)
}

/// Writes about `mib` MiB in one write transaction, as the store's writes are made.
async fn write_mib(store: &Store, mib: usize) {
    let mut tx = store.begin_write().await.unwrap();
    sqlx::query("CREATE TABLE IF NOT EXISTS filler (text TEXT)")
        .execute(&mut *tx)
        .await
        .unwrap();
    for _ in 0..mib * 256 {
        sqlx::query("INSERT INTO filler VALUES (hex(randomblob(2000)))")
            .execute(&mut *tx)
            .await
            .unwrap();
    }
    tx.commit().await.unwrap();
}

#[tokio::test]
async fn the_writer_leaves_the_log_to_the_checkpointer_up_to_the_backstop() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("backstop.db")).await.unwrap();
    let mut tx = store.begin_write().await.unwrap();
    let pages: i64 = sqlx::query_scalar("PRAGMA wal_autocheckpoint")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    let kept: i64 = sqlx::query_scalar("PRAGMA journal_size_limit")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(pages.to_string(), WRITER_BACKSTOP_PAGES);
    assert_eq!(kept.to_string(), LOG_KEPT_BYTES);
    store.close().await;
}

#[tokio::test]
async fn a_commit_is_folded_into_the_file_soon_after_without_another_write() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("folded.db");
    let store = Store::open(&path).await.unwrap();
    let before = size(&path);
    // 8 MiB: past SQLite's own 1,000-page checkpoint, under the writer's backstop, so only the
    // checkpointer can move it into the file while the store stays open.
    write_mib(&store, 8).await;
    let waited = Instant::now();
    while size(&path) < before + 8 * 1024 * 1024 {
        assert!(
            waited.elapsed() < Duration::from_secs(20),
            "the log was not folded in: the file is {} bytes, {} before the write",
            size(&path),
            before
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // It goes on after a first fold: a second write is folded in as well.
    let folded = size(&path);
    write_mib(&store, 4).await;
    let waited = Instant::now();
    while size(&path) < folded + 4 * 1024 * 1024 {
        assert!(
            waited.elapsed() < Duration::from_secs(20),
            "the second write was not folded in"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    store.close().await;
}
