//! The database file's size by part, and compacting it.
//!
//! Sizes are read from SQLite's `dbstat` table (compiled into the bundled SQLite: libsqlite3-sys
//! builds it with `SQLITE_ENABLE_DBSTAT_VTAB`), one row per table or index with the bytes of
//! every page it owns, overflow pages included; each is put in one [`Part`] by its name
//! ([`part_of`]). Free pages (rows deleted, space SQLite reuses but does not give back) are
//! `PRAGMA freelist_count`. What no table, index or free list owns (the page SQLite reserves at
//! the 1 GiB mark in a file larger than that) is counted as [`Part::Other`], so the parts add up
//! to the file exactly. Reading `dbstat` reads every page of the file: about as long as reading
//! the file once, so it is never asked on the start-up's path.
//!
//! Compacting is SQLite's own `VACUUM`, in place: the live pages are copied into a temporary
//! file, then written back over the database in one transaction (through the write-ahead log),
//! and the log folded into the file. It is one transaction: a quit, a crash or a cancel before
//! it commits leaves the file as it was, and one after it leaves the compacted file (SQLite
//! replays the committed log at the next open). It is done in place rather than as
//! `VACUUM INTO` a new file and a rename, because the app's background workers each hold the
//! store's pool open on the file: a renamed file would leave them writing to the old one.
//! While it runs, writers wait for it (the busy timeout), as for any long write.

use std::collections::BTreeMap;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::{Result, Store, StoreError};

/// The parts of the archive the sizes are told in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Part {
    /// Posts, users and links as stored, with the facts analysis reads and its tallies.
    Posts,
    /// Responses as received: exact captured bytes, their headers, stored result bodies, the
    /// HTTP cache.
    Responses,
    /// The media queue and each kept file's record (the files themselves are in the media
    /// folder, counted by the app).
    Media,
    /// Every index, the full-text search's included.
    Indexes,
    /// History, the ledger, investigations, monitors and the rest.
    Other,
}

/// The part a table or index belongs to; `index` when `name` is an index (of any table).
pub(crate) fn part_of(name: &str, index: bool) -> Part {
    // The full-text indexes' shadow tables (posts_fts_data, history_fts_idx, …) are indexes.
    if index || name.starts_with("posts_fts") || name.starts_with("history_fts") {
        return Part::Indexes;
    }
    match name {
        "posts" | "users" | "links" | "link_sightings" => Part::Posts,
        "provenance" | "provenance_before" | "response_headers" | "results" | "http_cache" => {
            Part::Responses
        }
        "media_items" | "media_files" => Part::Media,
        // post_facts, post_entities, post_reposters, post_sightings; the tallies and activity
        // rollups analysis reads.
        _ if name.starts_with("post_")
            || name.ends_with("_tally")
            || name.starts_with("activity_") =>
        {
            Part::Posts
        }
        _ => Part::Other,
    }
}

/// The database file's bytes by part, as `dbstat` and the free list count them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatabaseSizes {
    /// Bytes of each part's pages; every part present, zero when it owns none.
    pub parts: BTreeMap<Part, u64>,
    /// Bytes of free pages: what compacting gives back.
    pub free_bytes: u64,
    /// The file's size as SQLite sees it (pages × page size): the parts and free bytes add up
    /// to it.
    pub file_bytes: u64,
    /// Bytes of one page.
    pub page_size: u64,
}

impl DatabaseSizes {
    /// Bytes still in use: the file without its free pages.
    pub fn live_bytes(&self) -> u64 {
        self.file_bytes - self.free_bytes
    }
}

/// The file's size and free bytes, from SQLite's page counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DatabaseFill {
    /// Pages × page size.
    pub file_bytes: u64,
    /// Free pages × page size: what compacting gives back.
    pub free_bytes: u64,
}

/// How far a compaction is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompactStep {
    /// Copying the live pages into a temporary file (`expected_bytes` of them).
    Copying {
        /// Bytes in use, which the copy holds at its end.
        expected_bytes: u64,
    },
    /// Writing the copy back over the file: `written_bytes` of `expected_bytes` so far.
    WritingBack {
        /// Bytes written back so far.
        written_bytes: u64,
        /// Bytes in use.
        expected_bytes: u64,
    },
}

/// What compacting did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compacted {
    /// Done: the file's size before and after.
    Done {
        /// Bytes before.
        before_bytes: u64,
        /// Bytes after.
        after_bytes: u64,
    },
    /// Stopped by its cancel before it committed: the file is as it was.
    Cancelled,
}

/// How often a compaction's progress is told (often in tests, whose files are small).
const TELL_EVERY: Duration = Duration::from_millis(if cfg!(test) { 5 } else { 250 });

/// SQLite virtual-machine steps between two looks at the cancel flag (a few milliseconds).
const STEPS_PER_LOOK: i32 = 10_000;

impl Store {
    /// The database file's bytes by part (see the module's doc). Reads every page: seconds for a
    /// large archive.
    pub async fn database_sizes(&self) -> Result<DatabaseSizes> {
        let mut conn = self.pool.acquire().await?;
        // One read transaction: the counts and the pages are of one state of the file.
        sqlx::query("BEGIN").execute(&mut *conn).await?;
        let read = read_sizes(&mut conn).await;
        let _ = sqlx::query("COMMIT").execute(&mut *conn).await;
        read
    }

    /// The file's size and its free pages' bytes, from SQLite's page counts (no page read).
    pub async fn database_fill(&self) -> Result<DatabaseFill> {
        let mut conn = self.pool.acquire().await?;
        let (page_size, pages, free) = page_counts(&mut conn).await?;
        Ok(DatabaseFill {
            file_bytes: pages * page_size,
            free_bytes: free * page_size,
        })
    }

    /// Where the database file is (`None` for an in-memory store).
    pub fn database_path(&self) -> Option<PathBuf> {
        let path = self.pool.connect_options().get_filename().to_owned();
        // An in-memory store's name (`file:sqlx-in-memory-…`) is no file.
        path.is_file().then_some(path)
    }

    /// Compacts the file in place (see the module's doc), telling `progress` as it goes and
    /// stopping once `cancelled` says so (asked every few milliseconds, from SQLite's thread). The temporary copy is made in SQLite's temporary folder
    /// ([`temporary_folder`]); the caller checks there is room there and beside the file.
    pub async fn compact(
        &self,
        mut progress: impl FnMut(CompactStep),
        mut cancelled: impl FnMut() -> bool + Send + 'static,
    ) -> Result<Compacted> {
        let path = self
            .database_path()
            .ok_or_else(|| StoreError::InvalidInput("an in-memory store has no file".into()))?;
        let before = self.database_fill().await?;
        let expected = before.file_bytes - before.free_bytes;
        let mut conn = self.pool.acquire().await?;
        // Whatever happens, this connection is not handed out again with the settings below.
        conn.close_on_drop();
        // The copy on disk, not in memory (the pool keeps temporary tables in memory).
        sqlx::query("PRAGMA temp_store = FILE")
            .execute(&mut *conn)
            .await?;
        // An empty log to start from, so its growth is the copy being written back.
        let _ = sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
            .execute(&mut *conn)
            .await;
        // Asked by SQLite as it works: the cancel's answer kept, to tell a stop from a failure.
        let stopped = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        {
            let stopped = stopped.clone();
            let mut handle = conn.lock_handle().await?;
            handle.set_progress_handler(STEPS_PER_LOOK, move || {
                let stop = cancelled();
                if stop {
                    stopped.store(true, std::sync::atomic::Ordering::Relaxed);
                }
                !stop
            });
        }
        let wal = with_suffix(&path, "-wal");
        let log_at_start = file_len(&wal);
        progress(CompactStep::Copying {
            expected_bytes: expected,
        });
        let vacuumed = {
            let vacuum = sqlx::query("VACUUM").execute(&mut *conn);
            tokio::pin!(vacuum);
            let mut ticker =
                tokio::time::interval_at(tokio::time::Instant::now() + TELL_EVERY, TELL_EVERY);
            loop {
                tokio::select! {
                    result = &mut vacuum => break result,
                    _ = ticker.tick() => {
                        let written = file_len(&wal).saturating_sub(log_at_start);
                        progress(if written == 0 {
                            CompactStep::Copying { expected_bytes: expected }
                        } else {
                            CompactStep::WritingBack {
                                written_bytes: written.min(expected),
                                expected_bytes: expected,
                            }
                        });
                    }
                }
            }
        };
        if let Ok(mut handle) = conn.lock_handle().await {
            handle.remove_progress_handler();
        }
        match vacuumed {
            Ok(_) => {}
            Err(_) if stopped.load(std::sync::atomic::Ordering::Relaxed) => {
                return Ok(Compacted::Cancelled)
            }
            Err(error) => return Err(error.into()),
        }
        progress(CompactStep::WritingBack {
            written_bytes: expected,
            expected_bytes: expected,
        });
        // The compacted pages are in the log: folding it in shrinks the file. A reader of the
        // pool may hold the fold back for a moment; the next checkpoint finishes it otherwise.
        for _ in 0..20 {
            let (busy, _, _): (i64, i64, i64) = sqlx::query_as("PRAGMA wal_checkpoint(TRUNCATE)")
                .fetch_one(&mut *conn)
                .await?;
            if busy == 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        drop(conn);
        let after = file_len(&path);
        Ok(Compacted::Done {
            before_bytes: before.file_bytes,
            after_bytes: after,
        })
    }

    /// Which of `sha256s` (kept files' names) the store has a record of, in `media_files`.
    pub async fn known_media_files(&self, sha256s: &[String]) -> Result<HashSet<String>> {
        let mut known = HashSet::new();
        // SQLite's bound on host parameters is 32,766; far fewer per query keeps each short.
        for chunk in sha256s.chunks(500) {
            let list = vec!["?"; chunk.len()].join(",");
            let sql = format!("SELECT sha256 FROM media_files WHERE sha256 IN ({list})");
            let mut query = sqlx::query_scalar::<_, String>(&sql);
            for sha256 in chunk {
                query = query.bind(sha256);
            }
            known.extend(query.fetch_all(&self.pool).await?);
        }
        Ok(known)
    }
}

/// The page size, the file's pages and its free pages.
async fn page_counts(conn: &mut sqlx::SqliteConnection) -> Result<(u64, u64, u64)> {
    let mut read = Vec::new();
    for pragma in [
        "PRAGMA page_size",
        "PRAGMA page_count",
        "PRAGMA freelist_count",
    ] {
        let (n,): (i64,) = sqlx::query_as(pragma).fetch_one(&mut *conn).await?;
        read.push(n.max(0) as u64);
    }
    Ok((read[0], read[1], read[2]))
}

async fn read_sizes(conn: &mut sqlx::SqliteConnection) -> Result<DatabaseSizes> {
    let (page_size, pages, free) = page_counts(&mut *conn).await?;
    let indexes: Vec<(String,)> =
        sqlx::query_as("SELECT name FROM sqlite_schema WHERE type = 'index'")
            .fetch_all(&mut *conn)
            .await?;
    let indexes: std::collections::HashSet<String> =
        indexes.into_iter().map(|(name,)| name).collect();
    // `aggregate = TRUE`: one row per table or index, its pages' bytes summed.
    let btrees: Vec<(String, i64)> =
        sqlx::query_as("SELECT name, pgsize FROM dbstat WHERE aggregate = TRUE")
            .fetch_all(&mut *conn)
            .await?;
    let file_bytes = pages * page_size;
    let free_bytes = free * page_size;
    let mut parts: BTreeMap<Part, u64> = [
        Part::Posts,
        Part::Responses,
        Part::Media,
        Part::Indexes,
        Part::Other,
    ]
    .into_iter()
    .map(|part| (part, 0))
    .collect();
    let mut owned = 0u64;
    for (name, bytes) in btrees {
        let bytes = bytes.max(0) as u64;
        owned += bytes;
        *parts
            .entry(part_of(&name, indexes.contains(&name)))
            .or_default() += bytes;
    }
    // The page reserved at the 1 GiB mark (and pointer-map pages, were auto-vacuum on) belong
    // to no table: counted with the rest, so the parts add up to the file.
    *parts.entry(Part::Other).or_default() += file_bytes.saturating_sub(owned + free_bytes);
    Ok(DatabaseSizes {
        parts,
        free_bytes,
        file_bytes,
        page_size,
    })
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

fn file_len(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

/// A disk's room: bytes free for this user, and the disk's size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DiskRoom {
    /// Bytes this user may still write.
    pub free_bytes: u64,
    /// The disk's size.
    pub total_bytes: u64,
}

/// The room on the disk holding `dir`; `None` where the system cannot be asked.
#[cfg(unix)]
pub fn disk_room(dir: &Path) -> Option<DiskRoom> {
    let stat = rustix::fs::statvfs(dir).ok()?;
    Some(DiskRoom {
        free_bytes: stat.f_bavail.saturating_mul(stat.f_frsize),
        total_bytes: stat.f_blocks.saturating_mul(stat.f_frsize),
    })
}

/// The room on the disk holding `dir`; `None` where the system cannot be asked.
#[cfg(not(unix))]
pub fn disk_room(_dir: &Path) -> Option<DiskRoom> {
    None
}

/// The folder SQLite writes its temporary files to on this system, as it picks it (unix:
/// `SQLITE_TMPDIR`, `TMPDIR`, then `/var/tmp`, `/usr/tmp`, `/tmp`, the first that is a folder);
/// elsewhere the system's temporary folder. A compaction's copy is made there.
pub fn temporary_folder() -> PathBuf {
    if cfg!(unix) {
        let named = ["SQLITE_TMPDIR", "TMPDIR"]
            .into_iter()
            .filter_map(std::env::var_os)
            .map(PathBuf::from);
        let fixed = ["/var/tmp", "/usr/tmp", "/tmp"]
            .into_iter()
            .map(PathBuf::from);
        named
            .chain(fixed)
            .find(|dir| dir.is_dir())
            .unwrap_or_else(|| PathBuf::from("."))
    } else {
        std::env::temp_dir()
    }
}

#[cfg(test)]
mod tests;
