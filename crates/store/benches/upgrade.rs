//! Upgrade benchmark: `cargo bench -p sightline-store --bench upgrade`.
//!
//! Builds an archive of 1,000,000 posts as Sightline left it at migration 0007 (before the
//! analysis migrations), each post found by one of 10,000 searches of 100 posts, then opens a
//! copy of it as the app does at start-up, with a backups folder: SQLite's check, the copy
//! before the first migration that rewrites tables, each pending migration, the checkpoint. It
//! prints each step's time, the copy's size, the progress told (posts done of total, once a
//! second) and each migration's SQLite instructions per post (what `upgrade.rs` calibrates its
//! estimate with). It also times `PRAGMA quick_check` against `integrity_check` on the file,
//! and asserts nothing about time.
//!
//! The archive takes minutes to build. With `UPGRADE_BENCH_DB=<file>` it is built into that
//! file once and reused (each run upgrades a copy, in the same folder: the copy's room counts).

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use chrono::{TimeZone, Utc};
use sightline_store::backup::BackupOutcome;
use sightline_store::{Check, Store, Upgrade, UpgradeStep};
use sqlx::{Connection, SqliteConnection};

#[path = "common/posts.rs"]
mod posts;
use posts::{post, POSTS};

/// Posts a search found; the archive is 10,000 such searches.
const PER_SEARCH: usize = 100;

async fn build(path: &Path) {
    let clock = Instant::now();
    let store = Store::open_at_version(path, 7).await.unwrap();
    let start = Utc.with_ymd_and_hms(2025, 11, 1, 0, 0, 0).unwrap();
    let all: Vec<usize> = (0..POSTS).collect();
    for chunk in all.chunks(20_000) {
        let batch: Vec<_> = chunk.iter().map(|n| post(*n, start)).collect();
        store.archive_posts(Utc::now(), &batch).await.unwrap();
    }
    store.close().await;
    // The searches that found them, and their sightings, as 0007's tables hold them.
    let mut conn = SqliteConnection::connect(&format!("sqlite://{}", path.display()))
        .await
        .unwrap();
    let searches = POSTS / PER_SEARCH;
    sqlx::query(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
         INSERT INTO history (id, request_id, started_at, operation, params_json, key_label,
                              mode, status, result_count)
         SELECT i, 'search-' || i, 1760000000000 + i * 60000, 'twitter_search',
                '{\"query\":\"bench\"}', 'bench', 'live', 'ok', ? FROM n",
    )
    .bind(searches as i64)
    .bind(PER_SEARCH as i64)
    .execute(&mut conn)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO post_sightings (post_pk, history_id) SELECT pk, (pk - 1) / ? + 1 FROM posts",
    )
    .bind(PER_SEARCH as i64)
    .execute(&mut conn)
    .await
    .unwrap();
    sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
        .execute(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
    println!(
        "built: {POSTS} posts at migration 0007, {searches} searches, in {:.0} s",
        clock.elapsed().as_secs_f64()
    );
}

/// This process's CPU time so far (user and system), from /proc: a step's CPU time does not
/// grow when other work shares the machine, as its wall time does.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit(')')
        .next()
        .unwrap_or_default()
        .split_whitespace()
        .collect();
    let ticks = |n: usize| {
        fields
            .get(n)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(11) + ticks(12)) / 100.0 // USER_HZ is 100 on Linux
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / 1_048_576.0
}

async fn time_checks(path: &Path) {
    let mut conn = SqliteConnection::connect(&format!("sqlite://{}?mode=ro", path.display()))
        .await
        .unwrap();
    for pragma in ["quick_check", "integrity_check", "quick_check"] {
        let clock = Instant::now();
        let rows: Vec<(String,)> = sqlx::query_as(&format!("PRAGMA {pragma}"))
            .fetch_all(&mut conn)
            .await
            .unwrap();
        println!(
            "PRAGMA {pragma:<16} {:>6.1} s   ({})",
            clock.elapsed().as_secs_f64(),
            rows[0].0
        );
    }
    conn.close().await.unwrap();
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let dir = tempfile::tempdir().unwrap();
    let original = std::env::var_os("UPGRADE_BENCH_DB")
        .map_or_else(|| dir.path().join("at-0007.db"), std::path::PathBuf::from);
    if original.exists() {
        println!("reusing the archive at 0007 in {}", original.display());
    } else {
        build(&original).await;
    }
    let folder = original.parent().unwrap().to_owned();
    let work = folder.join("upgrade-bench-work.db");
    let backups = folder.join("upgrade-bench-backups");
    let _ = std::fs::remove_dir_all(&backups);
    std::fs::copy(&original, &work).unwrap();
    println!(
        "file: {:.0} MiB ({} posts)",
        mib(std::fs::metadata(&work).unwrap().len()),
        POSTS
    );
    time_checks(&work).await;

    let clock = Instant::now();
    let log: Arc<Mutex<Vec<(f64, UpgradeStep)>>> = Arc::default();
    // The CPU time at each step told, beside `log`.
    let cpu_log: Arc<Mutex<Vec<f64>>> = Arc::default();
    let cpu_sink = cpu_log.clone();
    let last_print = Arc::new(Mutex::new(-1.0f64));
    let sink = log.clone();
    // As the app opens it (crates/core/src/database.rs): checked first because migrations wait.
    let upgrade = Upgrade {
        check: Check::BeforeMigrating,
        backups: Some(backups.clone()),
        progress: Some(Arc::new(move |step: UpgradeStep| {
            let at = clock.elapsed().as_secs_f64();
            let mut last = last_print.lock().unwrap();
            let changed = sink
                .lock()
                .unwrap()
                .last()
                .is_none_or(|(_, before)| std::mem::discriminant(before) != std::mem::discriminant(&step)
                    || matches!((before, &step), (UpgradeStep::Migrating { version: a, .. }, UpgradeStep::Migrating { version: b, .. }) if a != b));
            if changed || at - *last >= 1.0 {
                *last = at;
                match &step {
                    UpgradeStep::Checking {
                        read_bytes,
                        total_bytes,
                    } => println!(
                        "{at:>7.1} s  checking: {read_bytes:?} of {total_bytes} bytes read"
                    ),
                    UpgradeStep::BackingUp {
                        written_bytes,
                        expected_bytes,
                        ..
                    } => println!(
                        "{at:>7.1} s  copying: {:.0} of {:.0} MiB",
                        mib(*written_bytes),
                        mib(*expected_bytes)
                    ),
                    UpgradeStep::Migrating {
                        version,
                        number,
                        count,
                        posts_done,
                        posts_total,
                        ..
                    } => {
                        println!(
                            "{at:>7.1} s  migration {version:04} ({number} of {count}): {} of {posts_total} posts",
                            posts_done.map_or("-".into(), |n| n.to_string())
                        )
                    }
                    UpgradeStep::Finishing => println!("{at:>7.1} s  finishing (checkpoint)"),
                }
            }
            sink.lock().unwrap().push((at, step));
            cpu_sink.lock().unwrap().push(cpu_seconds());
        })),
    };
    let store = Store::open_upgrading(&work, &upgrade).await.unwrap();
    let total = clock.elapsed().as_secs_f64();
    store.close().await;

    let log = log.lock().unwrap();
    let first_at =
        |pick: &dyn Fn(&UpgradeStep) -> bool| log.iter().find(|(_, s)| pick(s)).map(|(at, _)| *at);
    let last_at = |pick: &dyn Fn(&UpgradeStep) -> bool| {
        log.iter().rev().find(|(_, s)| pick(s)).map(|(at, _)| *at)
    };
    println!("\nsteps:");
    let copy_start = first_at(&|s| matches!(s, UpgradeStep::BackingUp { .. }));
    let copy_end = last_at(&|s| matches!(s, UpgradeStep::BackingUp { .. }));
    if let (Some(a), Some(b)) = (copy_start, copy_end) {
        println!("  check                 {a:>7.1} s");
        let made = log.iter().find_map(|(_, s)| match s {
            UpgradeStep::Migrating { backup, .. } => Some(backup.clone()),
            _ => None,
        });
        match made {
            Some(BackupOutcome::Made { bytes, file }) => println!(
                "  copy (VACUUM INTO)    {:>7.1} s   {:.0} MiB  {file}",
                b - a,
                mib(bytes)
            ),
            other => println!("  copy: {other:?}"),
        }
    }
    let versions: Vec<i64> = {
        let mut v: Vec<i64> = log
            .iter()
            .filter_map(|(_, s)| match s {
                UpgradeStep::Migrating { version, .. } => Some(*version),
                _ => None,
            })
            .collect();
        v.dedup();
        v
    };
    for version in versions {
        let of = |s: &UpgradeStep| matches!(s, UpgradeStep::Migrating { version: v, .. } if *v == version);
        let (a, b) = (first_at(&of).unwrap(), last_at(&of).unwrap());
        let cpu = {
            let cpu_log = cpu_log.lock().unwrap();
            let first = log.iter().position(|(_, s)| of(s)).unwrap();
            let last = log.iter().rposition(|(_, s)| of(s)).unwrap();
            cpu_log[last] - cpu_log[first]
        };
        let steps = log
            .iter()
            .rev()
            .find_map(|(_, s)| match s {
                UpgradeStep::Migrating {
                    version: v,
                    vm_steps,
                    ..
                } if *v == version => Some(*vm_steps),
                _ => None,
            })
            .unwrap();
        println!(
            "  migration {version:04}        {:>7.1} s   CPU {cpu:>6.1} s   {} SQLite instructions per post",
            b - a,
            steps / POSTS as u64
        );
    }
    if let Some(at) = first_at(&|s| matches!(s, UpgradeStep::Finishing)) {
        println!("  checkpoint            {:>7.1} s", total - at);
    }
    println!("  whole opening         {total:>7.1} s  (for {POSTS} posts)");
    // How far the estimate was from the time's share, at each tenth of a migration's time.
    println!("\nestimate against time (posts told, at each fifth of the migration's time):");
    for version in [8, 9] {
        let told: Vec<(f64, u64)> = log
            .iter()
            .filter_map(|(at, s)| match s {
                UpgradeStep::Migrating {
                    version: v,
                    posts_done: Some(done),
                    ..
                } if *v == version => Some((*at, *done)),
                _ => None,
            })
            .collect();
        if told.len() < 2 {
            continue;
        }
        let (a, b) = (told[0].0, told[told.len() - 1].0);
        let marks: Vec<String> = (1..=5)
            .map(|fifth| {
                let at = a + (b - a) * fifth as f64 / 5.0;
                let done = told.iter().take_while(|(t, _)| *t <= at).last().unwrap().1;
                format!("{}%", done * 100 / POSTS as u64)
            })
            .collect();
        println!("  {version:04}: {}", marks.join("  "));
    }
    let _ = std::fs::remove_file(&work);
    for suffix in ["-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", work.display()));
    }
    let _ = std::fs::remove_dir_all(&backups);
}
