//! Opening the database file in steps, so that a file this build must not use is told apart
//! from one it can, and an upgrade is safe to quit and says how far it has come:
//!
//! 1. SQLite checks the file (`PRAGMA quick_check`: every page read, every record and b-tree
//!    checked, but not each index against its table, which `integrity_check` adds at 3½ times
//!    the cost; see [`check`]): at every opening, or only before migrating for a caller that
//!    checks the opened store in the background when [`crate::Store::check_due`] says
//!    ([`Check`]: after an unclean close, with no clean check recorded, or a week after the
//!    last). A check run
//!    here is recorded as the file's last clean check. A failed check, or a file SQLite calls
//!    malformed or not a database at all, is [`StoreError::Damaged`].
//! 2. The migrations the file records are compared with this build's: one this build does not
//!    know means a newer Sightline wrote it, [`StoreError::NewerSchema`]. Nothing has been
//!    written to the file by then.
//! 3. Before the first pending migration that rewrites or backfills tables
//!    ([`REWRITES_TABLES`]), the file is copied aside with `VACUUM INTO` when the disk has
//!    room ([`backup`]).
//! 4. The pending migrations are applied one at a time, each in its own transaction together
//!    with its row in `_sqlx_migrations` (sqlx's own `apply`, so the checksums stay what its
//!    migrator expects). Quit mid-way, the finished migrations stay and the cut one is rolled
//!    back by SQLite; the next opening runs it again from its start.
//!
//! Each step is told as it goes ([`UpgradeStep`]), for the start screen.

pub mod backup;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use sqlx::migrate::{Migrate, MigrateError, Migration};
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{ConnectOptions, Connection, SqliteConnection};
use ts_rs::TS;

use backup::BackupOutcome;

use crate::error::{Result, StoreError};
use crate::MIGRATOR;

/// Migrations that rewrite or backfill tables already holding data (0002 the spend roll-ups,
/// 0003 the history's text index, 0005 the provenance marks; 0008 and 0009 take facts and
/// tallies out of every post; 0010 rewrites the ledger; 0011 refolds the tags, handles and
/// hosts 0008 had folded in ASCII only; 0012 gives each ledger row its monitor or
/// collection; 0013 renames the archive's state table, the active investigation in it; 0014
/// begins the custody log of each investigation already made; 0018 adds the media full-view
/// switch to every investigation; 0020 gives every investigation its case id and adds the
/// attribution columns of case packages).
/// Before the first of them that is pending on a database holding data, a copy is made. A migration that only adds empty tables
/// or indexes needs none: SQLite rolls a failed one back whole. `migrations_that_rewrite_are_listed`
/// (in the tests) holds every migration file against this list.
pub const REWRITES_TABLES: &[i64] = &[2, 3, 5, 8, 9, 10, 11, 12, 13, 14, 18, 20];

/// Migrations that backfill only tables they create themselves (0021 the activity roll-ups,
/// 0022 the network's edge tallies, 0023 History's and the investigations' counts, 0026
/// Spend's running totals per hour, 0028 the accounts' handles): they change no row that was
/// there, and a failed one is rolled back whole, so they need no copy either (a copy of a
/// ten-million-post archive is gigabytes and a minute).
pub const FILLS_ITS_OWN_TABLES: &[i64] = &[21, 22, 23, 26, 28];

/// SQLite virtual machine instructions between two calls of the progress handler.
const STEPS_PER_CALL: i32 = 10_000;

/// How often the start screen is told the progress of a long step.
const TELL_EVERY: Duration = Duration::from_millis(100);

/// SQLite's work per post stored, in virtual machine instructions, for the migrations whose
/// work grows with the posts: measured on the 1,000,000-post archive of
/// `cargo bench -p sightline-store --bench upgrade` (posts with a few tags, mentions and links
/// each, as the service sends them). A migration's "posts done" is its instructions so far
/// divided by this: an estimate, exact only for posts shaped like those. SQLite's time per
/// instruction varies within a migration, so the count moves unevenly: on the bench, 0008 is
/// told at 24%, 31%, 36% and 64% of its posts at each fifth of its time.
fn steps_per_post(version: i64) -> Option<u64> {
    match version {
        8 => Some(STEPS_PER_POST_0008),
        9 => Some(STEPS_PER_POST_0009),
        11 => Some(STEPS_PER_POST_0011),
        21 => Some(STEPS_PER_POST_0021),
        22 => Some(STEPS_PER_POST_0022),
        _ => None,
    }
}
const STEPS_PER_POST_0008: u64 = 463;
const STEPS_PER_POST_0009: u64 = 39;
const STEPS_PER_POST_0011: u64 = 32;
const STEPS_PER_POST_0021: u64 = 58;
const STEPS_PER_POST_0022: u64 = 32;

/// What opening the database is doing, told as it goes.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(tag = "step", rename_all = "snake_case")]
#[ts(export)]
pub enum UpgradeStep {
    /// SQLite reads the whole file to check it: about `read_bytes` of its `total_bytes` read so
    /// far. `read_bytes` is what this process has read since the check began (nearly all of it
    /// the file's pages; [`read_so_far`]), kept under the total until the check ends; `None`
    /// where the system cannot tell it. SQLite's own progress handler cannot: the check walks
    /// the pages inside one of its instructions.
    Checking {
        /// Bytes read so far, about.
        read_bytes: Option<u64>,
        /// The file's size: its pages times the page size.
        total_bytes: u64,
    },
    /// The file is copied aside before a migration that rewrites tables: bytes written so far
    /// of those expected (the file's pages in use).
    BackingUp {
        /// Bytes of the copy written so far.
        written_bytes: u64,
        /// Bytes the copy will hold.
        expected_bytes: u64,
        /// The copy's file name.
        file: String,
    },
    /// Migration `number` of `count` pending. `posts_done` is estimated from the work SQLite has
    /// done (see `steps_per_post`), `None` for a migration whose work does not grow with posts;
    /// it stays under `posts_total` until the migration has committed, then equals it.
    Migrating {
        /// The migration's number (its file's prefix).
        version: i64,
        /// The migration's description, from its file name.
        description: String,
        /// Its place among the pending ones, from 1.
        number: usize,
        /// How many are pending.
        count: usize,
        /// Posts migrated so far, estimated.
        posts_done: Option<u64>,
        /// Posts the archive holds.
        posts_total: u64,
        /// What became of the copy made before the upgrade.
        backup: BackupOutcome,
        /// SQLite's instructions so far (for calibrating `steps_per_post`).
        #[serde(skip)]
        #[ts(skip)]
        vm_steps: u64,
    },
    /// The upgraded pages are copied from the write-ahead log into the file.
    Finishing,
}

/// When SQLite's check runs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Check {
    /// At every opening, before anything else.
    #[default]
    Always,
    /// Only before migrating: a caller that checks an opened store itself, in the background
    /// ([`crate::Store::quick_check`]) and only when [`crate::Store::check_due`] says, so a
    /// large archive's check neither holds up its start nor reads the file at every start.
    BeforeMigrating,
}

/// Where a copy goes before a rewriting migration, and who is told the progress.
#[derive(Clone, Default)]
pub struct Upgrade {
    /// When SQLite's check runs.
    pub check: Check,
    /// The folder for copies made before an upgrade; `None`: none is made.
    pub backups: Option<PathBuf>,
    /// Called with each step as it goes (often: keep it cheap).
    pub progress: Option<Arc<dyn Fn(UpgradeStep) + Send + Sync>>,
}

impl Upgrade {
    fn tell(&self, step: UpgradeStep) {
        if let Some(progress) = &self.progress {
            progress(step);
        }
    }
}

impl std::fmt::Debug for Upgrade {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Upgrade")
            .field("backups", &self.backups)
            .finish_non_exhaustive()
    }
}

/// Checks the file, refuses one from a newer Sightline, backs it up and migrates it, on one
/// connection of its own that is closed before the store's pool opens. True when the file was
/// checked (and found sound) here.
pub(crate) async fn prepare(
    options: &SqliteConnectOptions,
    path: &Path,
    upgrade: &Upgrade,
) -> Result<bool> {
    // A migration is slow by nature: sqlx would log its whole text as a slow statement.
    let options = options.clone().disable_statement_logging();
    let mut conn = SqliteConnection::connect_with(&options)
        .await
        .map_err(|error| as_damage(error.into()))?;
    // The migrations' triggers and refold call the store's fold function, and 0014 the
    // custody log's hash.
    crate::register_functions(&mut conn).await?;
    let result = steps(&mut conn, path, upgrade).await;
    let closed = conn.close().await;
    let checked = result.map_err(as_damage)?;
    closed?;
    Ok(checked)
}

/// A malformed file found at any step is reported as damage, with SQLite's words.
fn as_damage(error: StoreError) -> StoreError {
    if error.is_damage() && !matches!(error, StoreError::Damaged { .. }) {
        StoreError::Damaged {
            report: vec![error.to_string()],
        }
    } else {
        error
    }
}

/// The steps; true when the file was checked.
async fn steps(conn: &mut SqliteConnection, path: &Path, upgrade: &Upgrade) -> Result<bool> {
    let always = upgrade.check == Check::Always;
    if always {
        checked(conn, upgrade).await?;
    }
    let applied = applied_migrations(conn).await?;
    refuse_newer(&applied)?;
    let pending: Vec<&Migration> = MIGRATOR
        .iter()
        .filter(|m| !m.migration_type.is_down_migration() && !applied.contains_key(&m.version))
        .collect();
    if pending.is_empty() {
        return Ok(always);
    }
    // A damaged file is never migrated: whatever the caller checks later.
    let before_migrating = upgrade.check == Check::BeforeMigrating && !applied.is_empty();
    if before_migrating {
        checked(conn, upgrade).await?;
    }
    conn.ensure_migrations_table().await?;
    if let Some(version) = conn.dirty_version().await? {
        return Err(MigrateError::Dirty(version).into());
    }
    // A new file has nothing to copy or count.
    let holds_data = !applied.is_empty();
    let posts_total = if holds_data {
        let (n,): (i64,) = sqlx::query_as("SELECT count(*) FROM posts")
            .fetch_one(&mut *conn)
            .await?;
        n.max(0) as u64
    } else {
        0
    };
    let backup = match (&upgrade.backups, pending.iter().find(|m| rewrites(m))) {
        (Some(dir), Some(first)) if holds_data => {
            backup::make(conn, path, dir, first.version, upgrade).await
        }
        _ => BackupOutcome::NotNeeded,
    };
    if holds_data {
        // A backfill inserts into indexes in no order of theirs: with the store's 32 MiB page
        // cache, a large archive's index pages are spilled and read back again and again. This
        // connection, closed once the upgrade is done, may keep up to 256 MiB of them.
        sqlx::query("PRAGMA cache_size = -262144")
            .execute(&mut *conn)
            .await?;
    }
    let count = pending.len();
    for (index, migration) in pending.into_iter().enumerate() {
        let at = Position {
            number: index + 1,
            count,
            posts_total,
            backup: &backup,
        };
        apply(conn, migration, &at, upgrade).await?;
    }
    if holds_data {
        // The planner's statistics brought up to the upgraded tables (new ones, and those a
        // backfill filled, would otherwise be planned for as if empty or as they were), then
        // the migrations' pages, in the write-ahead log, copied into the file now, while the
        // start screen says so, rather than by the first write after it.
        upgrade.tell(UpgradeStep::Finishing);
        refresh_statistics(conn).await?;
        sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
            .execute(&mut *conn)
            .await?;
    }
    Ok(always || before_migrating)
}

/// `PRAGMA optimize` over every table (0x10000), analysing each that has changed much or was
/// never analysed (0x02). SQLite samples a bounded number of rows per index
/// (`analysis_limit`), so it takes about the same time at a million posts as at ten.
pub(crate) async fn refresh_statistics(conn: &mut SqliteConnection) -> Result<()> {
    sqlx::query("PRAGMA optimize(0x10002)")
        .execute(&mut *conn)
        .await?;
    Ok(())
}

async fn checked(conn: &mut SqliteConnection, upgrade: &Upgrade) -> Result<()> {
    let (total,): (i64,) = sqlx::query_as(
        "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()",
    )
    .fetch_one(&mut *conn)
    .await?;
    let total_bytes = u64::try_from(total).unwrap_or(0);
    let start = read_so_far();
    let tell = || {
        let read_bytes = start.and_then(|start| {
            let read = read_so_far()?.saturating_sub(start);
            Some(read.min(total_bytes * 99 / 100))
        });
        upgrade.tell(UpgradeStep::Checking {
            read_bytes,
            total_bytes,
        });
    };
    tell();
    let report = telling(check(conn), tell).await?;
    if report != ["ok"] {
        return Err(StoreError::Damaged { report });
    }
    Ok(())
}

/// A migration a copy is made before: one that rewrites tables, never one that fills only its
/// own.
fn rewrites(migration: &Migration) -> bool {
    REWRITES_TABLES.contains(&migration.version)
        && !FILLS_ITS_OWN_TABLES.contains(&migration.version)
}

/// `PRAGMA quick_check`'s report: `["ok"]`, or its first findings. On the 1,000,000-post
/// archive of the upgrade bench (881 MiB) it takes 1.9 s against `integrity_check`'s 6.9 s
/// (in the page cache, on a loaded 2-core machine).
pub async fn check(conn: &mut SqliteConnection) -> Result<Vec<String>> {
    let rows: Vec<(String,)> = sqlx::query_as("PRAGMA quick_check(20)")
        .fetch_all(&mut *conn)
        .await?;
    Ok(rows.into_iter().map(|(line,)| line).collect())
}

/// Runs `work`, calling `tell` every [`TELL_EVERY`] while it lasts (the start screen's progress
/// of a long step).
pub(crate) async fn telling<T>(work: impl std::future::Future<Output = T>, tell: impl Fn()) -> T {
    tokio::pin!(work);
    let mut ticker = tokio::time::interval(TELL_EVERY);
    loop {
        tokio::select! {
            done = &mut work => return done,
            _ = ticker.tick() => tell(),
        }
    }
}

/// Bytes this process has read through read system calls so far (`rchar` in /proc/self/io),
/// whatever the page cache held: while SQLite checks a file on the opening's own connection,
/// nearly all of them are its pages. `None` where there is no /proc.
pub(crate) fn read_so_far() -> Option<u64> {
    let io = std::fs::read_to_string("/proc/self/io").ok()?;
    io.lines()
        .find_map(|line| line.strip_prefix("rchar:"))
        .and_then(|value| value.trim().parse().ok())
}

/// The migrations the file records, by version with their checksums; none for a new file.
async fn applied_migrations(conn: &mut SqliteConnection) -> Result<HashMap<i64, Vec<u8>>> {
    let (exists,): (i64,) = sqlx::query_as(
        "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '_sqlx_migrations'",
    )
    .fetch_one(&mut *conn)
    .await?;
    if exists == 0 {
        return Ok(HashMap::new());
    }
    let rows: Vec<(i64, Vec<u8>)> =
        sqlx::query_as("SELECT version, checksum FROM _sqlx_migrations ORDER BY version")
            .fetch_all(&mut *conn)
            .await?;
    Ok(rows.into_iter().collect())
}

/// A version this build does not know was written by a newer Sightline; a known version with
/// other contents, by a build whose migration differs (sqlx's own "mismatch").
fn refuse_newer(applied: &HashMap<i64, Vec<u8>>) -> Result<()> {
    let mut unknown: Vec<i64> = applied
        .keys()
        .copied()
        .filter(|version| !MIGRATOR.version_exists(*version))
        .collect();
    if !unknown.is_empty() {
        unknown.sort_unstable();
        return Err(StoreError::NewerSchema {
            unknown,
            latest_known: latest_known(),
        });
    }
    for migration in MIGRATOR.iter() {
        if let Some(checksum) = applied.get(&migration.version) {
            if checksum.as_slice() != &*migration.checksum {
                return Err(MigrateError::VersionMismatch(migration.version).into());
            }
        }
    }
    Ok(())
}

/// The newest migration this build knows.
pub fn latest_known() -> i64 {
    MIGRATOR.iter().map(|m| m.version).max().unwrap_or(0)
}

struct Position<'a> {
    number: usize,
    count: usize,
    posts_total: u64,
    backup: &'a BackupOutcome,
}

/// Applies one migration in its own transaction, telling its progress every [`TELL_EVERY`]
/// from the instructions SQLite has run (its progress handler, on this connection only).
async fn apply(
    conn: &mut SqliteConnection,
    migration: &Migration,
    at: &Position<'_>,
    upgrade: &Upgrade,
) -> Result<()> {
    let vm_steps = Arc::new(AtomicU64::new(0));
    let counter = vm_steps.clone();
    conn.lock_handle()
        .await?
        .set_progress_handler(STEPS_PER_CALL, move || {
            counter.fetch_add(STEPS_PER_CALL as u64, Ordering::Relaxed);
            true
        });
    let tell = |finished: bool| {
        let steps = vm_steps.load(Ordering::Relaxed);
        let posts_done = if finished {
            Some(at.posts_total)
        } else {
            // An estimate never says "all" before the commit: at most 99 in 100.
            steps_per_post(migration.version)
                .map(|per| (steps / per).min(at.posts_total * 99 / 100))
        };
        upgrade.tell(UpgradeStep::Migrating {
            version: migration.version,
            description: migration.description.to_string(),
            number: at.number,
            count: at.count,
            posts_done,
            posts_total: at.posts_total,
            backup: at.backup.clone(),
            vm_steps: steps,
        });
    };
    tell(false);
    let result = telling(conn.apply(migration), || tell(false)).await;
    conn.lock_handle().await?.remove_progress_handler();
    result?;
    tell(true);
    // Said in the log for an archive upgraded, not for each migration of a new file.
    if at.posts_total > 0 {
        tracing::info!(
            version = migration.version,
            vm_steps = vm_steps.load(Ordering::Relaxed),
            posts = at.posts_total,
            "migration applied"
        );
    }
    Ok(())
}

/// Brings a database file up to `version` only, as a Sightline of that version left it (for
/// tests and benchmarks of upgrades: a file at 0007 to open with this build).
pub async fn migrate_to(path: &Path, version: i64) -> Result<()> {
    let options = crate::Store::file_options(path);
    let mut conn = SqliteConnection::connect_with(&options).await?;
    crate::register_functions(&mut conn).await?;
    conn.ensure_migrations_table().await?;
    let applied = applied_migrations(&mut conn).await?;
    for migration in MIGRATOR.iter() {
        if migration.version <= version
            && !migration.migration_type.is_down_migration()
            && !applied.contains_key(&migration.version)
        {
            conn.apply(migration).await?;
        }
    }
    conn.close().await?;
    Ok(())
}

#[cfg(test)]
mod tests;
