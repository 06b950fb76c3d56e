//! Copies of the database file: the one made before an upgrade that rewrites tables, the last
//! ones kept, and a file set aside (never deleted) when the user restores a copy or starts
//! afresh.
//!
//! A copy is `VACUUM INTO '<backups>/<name>-before-<version>-<time>.db'`: a consistent
//! snapshot, written while nothing else uses the file, without its free pages. It is written
//! under a `.partial` name and renamed when whole, so a copy cut short is never taken for one.
//! It is made only when the disk keeps room for the upgrade after it: the copy's size plus the
//! database's own size free (the migration writes its new tables through the write-ahead log).

use std::path::{Path, PathBuf};

use chrono::{DateTime, NaiveDateTime, Utc};
use serde::Serialize;
use sqlx::SqliteConnection;
use ts_rs::TS;

use super::{Upgrade, UpgradeStep};

/// Copies kept per database: the newest two.
pub const KEEP: usize = 2;

/// How a copy's time is written into its name (sortable, no `:` for other systems' sake).
const STAMP: &str = "%Y-%m-%dT%H%M%S%.3fZ";

/// What became of the copy before an upgrade.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(tag = "outcome", rename_all = "snake_case")]
#[ts(export)]
pub enum BackupOutcome {
    /// No pending migration rewrites tables, or the database held nothing yet.
    NotNeeded,
    /// Made.
    Made {
        /// The copy's file name.
        file: String,
        /// Its size.
        bytes: u64,
    },
    /// Not made: the disk has too little room for the copy and the upgrade both.
    NoRoom {
        /// Room the copy and the upgrade need.
        needed_bytes: u64,
        /// Room the disk has.
        free_bytes: u64,
    },
    /// Not made: writing it failed (SQLite's or the system's words).
    Failed {
        /// Why, in words.
        reason: String,
    },
}

/// A copy found in the backups folder.
#[derive(Debug, Clone, PartialEq)]
pub struct BackupFile {
    /// Where the copy is.
    pub path: PathBuf,
    /// When it was made (read from its name).
    pub made_at: DateTime<Utc>,
    /// The migration it was made before: the copy holds the schema before it.
    pub before_version: i64,
    /// Its size.
    pub bytes: u64,
}

/// The database's name without `.db`: `sightline`, `demo`.
fn stem(db: &Path) -> String {
    db.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "database".into())
}

/// Copies the database into `dir` before migration `before`, when there is room; prunes older
/// copies of it to [`KEEP`]. Never fails the opening: a copy not made says why.
pub(super) async fn make(
    conn: &mut SqliteConnection,
    db: &Path,
    dir: &Path,
    before: i64,
    upgrade: &Upgrade,
) -> BackupOutcome {
    match write(conn, db, dir, before, upgrade).await {
        Ok(outcome) => {
            if let BackupOutcome::NoRoom { .. } = outcome {
                tracing::warn!(?outcome, "no copy of the database before its upgrade");
            }
            outcome
        }
        Err(error) => {
            tracing::warn!(%error, "the copy of the database before its upgrade failed");
            BackupOutcome::Failed {
                reason: error.to_string(),
            }
        }
    }
}

async fn write(
    conn: &mut SqliteConnection,
    db: &Path,
    dir: &Path,
    before: i64,
    upgrade: &Upgrade,
) -> crate::Result<BackupOutcome> {
    let (pages,): (i64,) = sqlx::query_as("PRAGMA page_count")
        .fetch_one(&mut *conn)
        .await?;
    let (free_pages,): (i64,) = sqlx::query_as("PRAGMA freelist_count")
        .fetch_one(&mut *conn)
        .await?;
    let (page_size,): (i64,) = sqlx::query_as("PRAGMA page_size")
        .fetch_one(&mut *conn)
        .await?;
    let expected = ((pages - free_pages).max(0) * page_size) as u64;
    std::fs::create_dir_all(dir)?;
    if let Some(no_room) = no_room(expected, database_bytes(db), free_space(dir)) {
        return Ok(no_room);
    }
    let name = format!(
        "{}-before-{before:04}-{}.db",
        stem(db),
        Utc::now().format(STAMP)
    );
    let file = dir.join(&name);
    let partial = dir.join(format!("{name}.partial"));
    remove_partials(dir, db);
    let Some(target) = partial.to_str() else {
        return Ok(BackupOutcome::Failed {
            reason: format!("the folder {} cannot be named to SQLite", dir.display()),
        });
    };
    let tell = |written: u64| {
        upgrade.tell(UpgradeStep::BackingUp {
            written_bytes: written,
            expected_bytes: expected,
            file: file.display().to_string(),
        })
    };
    tell(0);
    let copying = sqlx::query("VACUUM INTO ?")
        .bind(target)
        .execute(&mut *conn);
    let copied = super::telling(copying, || {
        tell(std::fs::metadata(&partial).map_or(0, |m| m.len()));
    })
    .await;
    if let Err(error) = copied {
        let _ = std::fs::remove_file(&partial);
        return Err(error.into());
    }
    // Whole on disk before it counts as a copy.
    std::fs::File::open(&partial)?.sync_all()?;
    std::fs::rename(&partial, &file)?;
    let bytes = std::fs::metadata(&file)?.len();
    tell(bytes);
    prune(dir, db);
    Ok(BackupOutcome::Made {
        file: file.display().to_string(),
        bytes,
    })
}

/// The rule: a copy of `expected` bytes is made when the disk keeps, besides it, as much free
/// as the database takes (`database`, with its log), for the upgrade's own writes.
pub(super) fn no_room(expected: u64, database: u64, free: Option<u64>) -> Option<BackupOutcome> {
    let free = free?;
    let needed = expected.saturating_add(database);
    (free < needed).then_some(BackupOutcome::NoRoom {
        needed_bytes: needed,
        free_bytes: free,
    })
}

/// The database file with its write-ahead log, in bytes.
fn database_bytes(db: &Path) -> u64 {
    companions(db)
        .iter()
        .filter_map(|file| std::fs::metadata(file).ok())
        .map(|m| m.len())
        .sum()
}

/// The database file and the two SQLite keeps beside it in WAL mode.
fn companions(db: &Path) -> [PathBuf; 3] {
    let with = |suffix: &str| {
        let mut name = db.as_os_str().to_owned();
        name.push(suffix);
        PathBuf::from(name)
    };
    [db.to_owned(), with("-wal"), with("-shm")]
}

/// Bytes free for this user on the disk holding `dir`; `None` where it cannot be asked.
#[cfg(unix)]
fn free_space(dir: &Path) -> Option<u64> {
    let stat = rustix::fs::statvfs(dir).ok()?;
    Some(stat.f_bavail.saturating_mul(stat.f_frsize))
}

#[cfg(not(unix))]
fn free_space(_dir: &Path) -> Option<u64> {
    None
}

/// The copies of `db` in `dir`, newest first.
pub fn list(dir: &Path, db: &Path) -> Vec<BackupFile> {
    let prefix = format!("{}-before-", stem(db));
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<BackupFile> = entries
        .filter_map(|entry| entry.ok())
        .filter_map(|entry| {
            let name = entry.file_name().to_str()?.to_owned();
            let rest = name.strip_prefix(&prefix)?.strip_suffix(".db")?;
            let (version, stamp) = rest.split_once('-')?;
            let made_at = NaiveDateTime::parse_from_str(stamp, STAMP).ok()?.and_utc();
            Some(BackupFile {
                path: entry.path(),
                made_at,
                before_version: version.parse().ok()?,
                bytes: entry.metadata().ok()?.len(),
            })
        })
        .collect();
    found.sort_by_key(|copy| std::cmp::Reverse(copy.made_at));
    found
}

/// The newest copy of `db` in `dir`, if any.
pub fn latest(dir: &Path, db: &Path) -> Option<BackupFile> {
    list(dir, db).into_iter().next()
}

/// Deletes the copies of `db` beyond the newest [`KEEP`] (copies only: never a database).
fn prune(dir: &Path, db: &Path) {
    for old in list(dir, db).into_iter().skip(KEEP) {
        if let Err(error) = std::fs::remove_file(&old.path) {
            tracing::warn!(%error, file = %old.path.display(), "an old copy was not deleted");
        }
    }
}

/// A copy cut short by a quit (its `.partial` file) is of no use: deleted before a new one.
fn remove_partials(dir: &Path, db: &Path) {
    let prefix = format!("{}-before-", stem(db));
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(|entry| entry.ok()) {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with(&prefix) && name.ends_with(".db.partial") {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Moves the database file (and its write-ahead log and index, which belong with it) aside in
/// its folder as `<name>-<label>-<time>.db`; returns the new name. Nothing is deleted. The
/// store must be closed.
pub fn set_aside(db: &Path, label: &str) -> std::io::Result<PathBuf> {
    let aside = db.with_file_name(format!(
        "{}-{label}-{}.db",
        stem(db),
        Utc::now().format(STAMP)
    ));
    for (from, to) in companions(db).iter().zip(companions(&aside)) {
        match std::fs::rename(from, &to) {
            Ok(()) => {}
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
            Err(error) => return Err(error),
        }
    }
    Ok(aside)
}

/// Puts a copy of `backup` in place of the database, which is first set aside under `label`
/// (its new name returned). The copy stays in the backups folder. The store must be closed.
pub fn restore(backup: &BackupFile, db: &Path, label: &str) -> std::io::Result<PathBuf> {
    let incoming = db.with_extension("db.restoring");
    std::fs::copy(&backup.path, &incoming)?;
    std::fs::File::open(&incoming)?.sync_all()?;
    let aside = set_aside(db, label)?;
    std::fs::rename(&incoming, db)?;
    Ok(aside)
}
