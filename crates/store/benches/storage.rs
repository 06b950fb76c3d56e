//! Storage benchmark (Settings → Storage): `cargo bench -p sightline-store --bench storage`.
//!
//! Times the database's sizes by part (SQLite's `dbstat`, which reads every page) on the
//! benches' 1,000,000-post archive (`common/archive.rs`), twice (the first after the file was
//! last touched by another process, the second with the file in the system's cache), prints
//! the parts and the bytes per million posts, then times a compaction (`VACUUM` in place) of
//! it. Asserts nothing about time.
//!
//! `STORAGE_BENCH_DB=<file>`: the archive is built into that file once and reused (default: a
//! temporary folder). `STORAGE_BENCH_READ_ONLY=<file>`: only measures that archive, opened
//! read-only (another bench's, e.g. the 10,000,000-post one; `STORAGE_BENCH_POSTS` its posts,
//! default 10,000,000), never compacting or migrating it.

use std::time::Instant;

use sightline_store::{CompactStep, Compacted, DatabaseSizes, Store};

// `built` (reusing another bench's archive by its rows) is not needed here.
#[allow(dead_code)]
#[path = "common/archive.rs"]
mod archive;
#[path = "common/posts.rs"]
mod posts;

fn mb(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

async fn time_sizes(store: &Store, label: &str) -> DatabaseSizes {
    let clock = Instant::now();
    let sizes = store.database_sizes().await.unwrap();
    println!(
        "sizes by part ({label}): {:.2} s",
        clock.elapsed().as_secs_f64()
    );
    sizes
}

fn print(sizes: &DatabaseSizes, posts: u64) {
    println!(
        "file {} ({} per million posts), free {}",
        mb(sizes.file_bytes),
        mb(sizes.file_bytes * 1_000_000 / posts.max(1)),
        mb(sizes.free_bytes)
    );
    for (part, bytes) in &sizes.parts {
        println!("  {part:?}: {}", mb(*bytes));
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    if let Some(path) = std::env::var_os("STORAGE_BENCH_READ_ONLY") {
        let store = Store::open_read_only(&path).await.unwrap();
        let first = time_sizes(&store, "first").await;
        time_sizes(&store, "again").await;
        let posts = std::env::var("STORAGE_BENCH_POSTS")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(10_000_000);
        print(&first, posts);
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = std::env::var_os("STORAGE_BENCH_DB")
        .map_or_else(|| dir.path().join("bench.db"), std::path::PathBuf::from);
    let kept = path.exists();
    let store = Store::open(&path).await.unwrap();
    if !kept {
        archive::build(&store).await;
    }
    store.checkpoint().await.unwrap();
    let first = time_sizes(&store, "first").await;
    time_sizes(&store, "again").await;
    print(&first, posts::POSTS as u64);
    let clock = Instant::now();
    let mut writing_back_at = None;
    let done = store
        .compact(
            |step| {
                if matches!(step, CompactStep::WritingBack { .. }) && writing_back_at.is_none() {
                    writing_back_at = Some(clock.elapsed());
                }
            },
            || false,
        )
        .await
        .unwrap();
    let Compacted::Done {
        before_bytes,
        after_bytes,
    } = done
    else {
        panic!("{done:?}");
    };
    println!(
        "compacted {} -> {} in {:.1} s (writing back from {:.1} s)",
        mb(before_bytes),
        mb(after_bytes),
        clock.elapsed().as_secs_f64(),
        writing_back_at.unwrap_or_default().as_secs_f64()
    );
    store.close().await;
}
