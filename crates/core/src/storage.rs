//! Settings → Storage: what the data folder holds, by part, and the disk's room.
//!
//! The database's parts (posts with their analysis facts, responses as received, the media's
//! records, indexes, free pages) are read from SQLite's `dbstat` by the store
//! ([`Store::database_sizes`]); the media folder's files and every other file in the data
//! folder (logs, copies in `backups/`, settings, the other mode's database, the write-ahead log)
//! are summed from the disk. The parts add up to the folder's size on disk: "other" is what the
//! rest leaves. Measuring reads every page of the database, seconds for a large archive, so it
//! runs only when asked (Settings → Storage opens), on the async runtime, and says when it was
//! measured and how long it took.
//!
//! The disk is "low" ([`DiskSpace::low`]) when less than [`LOW_FLOOR`] is free, or less than
//! the database's own size: below that an upgrade can no longer keep its copy before changing
//! the file, Compact cannot run, and a large import or collection can fill the disk mid-way.
//! Compacting is `storage/compact.rs`; the media folder's orphaned files `storage/orphans.rs`.

use std::path::{Path, PathBuf};
use std::time::Instant;

use chrono::{DateTime, Utc};
use serde::Serialize;
use sightline_store::{disk_room, Part, Store};
use ts_rs::TS;

use crate::database::gate::database_path;
use crate::errors::CommandError;
use crate::media::files::MEDIA_DIR;
use crate::session::Mode;
use crate::state::AppState;

mod compact;
mod orphans;

pub use compact::{compact, compact_store, CompactOutcome, CompactProgress, CompactStage};

/// Below this much free room the disk is low, however large it is: 1 GiB, a few minutes of a
/// fast collection with its media, and the room SQLite needs to fold a large write-ahead log.
pub const LOW_FLOOR: u64 = 1 << 30;

/// A part of the data folder, as Settings → Storage names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub enum StoragePart {
    /// Posts, users and links, with the facts and tallies analysis reads.
    Posts,
    /// Responses as received (exact captured bytes and headers, result bodies, the cache).
    Responses,
    /// The media folder's files and their records.
    Media,
    /// Every index of the database, the full-text search's included.
    Indexes,
    /// Free pages inside the database: what Compact gives back.
    Free,
    /// The rest: history, the ledger, investigations, logs, copies before upgrades, settings.
    Other,
}

/// One part's size.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct PartSize {
    /// Which part.
    pub part: StoragePart,
    /// Its bytes.
    pub bytes: u64,
}

/// The room on the data folder's disk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct DiskSpace {
    /// Bytes free for this user.
    pub free_bytes: u64,
    /// The disk's size.
    pub total_bytes: u64,
    /// Less free than `warn_below_bytes`.
    pub low: bool,
    /// The line: [`LOW_FLOOR`] or the database's size, the larger.
    pub warn_below_bytes: u64,
    /// The data folder.
    pub folder: String,
}

/// What the data folder holds, by part.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct StorageReport {
    /// When it was measured.
    #[ts(type = "string")]
    pub measured_at: DateTime<Utc>,
    /// How long measuring took, in milliseconds.
    pub took_ms: u64,
    /// Each part, in the order shown; they add up to `total_bytes`.
    pub parts: Vec<PartSize>,
    /// The data folder's size on disk.
    pub total_bytes: u64,
    /// The database file's size.
    pub database_bytes: u64,
    /// Files in the media folder no record refers to (a quit between a file kept and its
    /// record written, a fetch cut short), counted in the media part; Compact removes them.
    pub orphaned_files: u64,
    /// Their bytes.
    pub orphaned_bytes: u64,
    /// The disk's room.
    pub disk: DiskSpace,
}

/// Measures the current mode's database and the data folder (see the module's doc).
pub async fn report(state: &AppState) -> Result<StorageReport, CommandError> {
    let owners = MediaOwners::of(state).await?;
    let measured = measure(&owners.current, &state.data_dir, owners.all.as_deref()).await;
    owners.close().await;
    measured
}

/// The disk's room for the current mode's data folder (see [`disk`]).
pub async fn disk_now(state: &AppState) -> Result<DiskSpace, CommandError> {
    Ok(disk(&state.store().await?, &state.data_dir))
}

/// Measures `store`'s database and the data folder `data_dir` (see the module's doc); media
/// files named by none of `media_stores` are orphaned (none when `None`: a database sharing the
/// folder could not be read).
pub async fn measure(
    store: &Store,
    data_dir: &Path,
    media_stores: Option<&[Store]>,
) -> Result<StorageReport, CommandError> {
    let started = Instant::now();
    let db = store
        .database_path()
        .ok_or_else(|| CommandError::internal("The archive is not a file."))?;
    let sizes = store.database_sizes().await?;
    let folder = data_dir.to_owned();
    let files = tokio::task::spawn_blocking(move || folder_sizes(&folder))
        .await
        .map_err(|error| CommandError::internal(format!("Measuring stopped: {error}")))?;
    let orphans = match media_stores {
        Some(stores) => orphans::find(stores, data_dir).await?,
        None => Vec::new(),
    };
    let media_rows = sizes.parts[&Part::Media];
    let named = [
        (StoragePart::Posts, sizes.parts[&Part::Posts]),
        (StoragePart::Responses, sizes.parts[&Part::Responses]),
        (StoragePart::Media, media_rows + files.media),
        (StoragePart::Indexes, sizes.parts[&Part::Indexes]),
        (StoragePart::Free, sizes.free_bytes),
    ];
    let counted: u64 = named.iter().map(|(_, bytes)| bytes).sum();
    // The database's other tables, its write-ahead log, and every file outside it and the media
    // folder: what the folder holds beyond the named parts.
    let other = files.total.saturating_sub(counted);
    let total = counted + other;
    let mut parts: Vec<PartSize> = named
        .into_iter()
        .map(|(part, bytes)| PartSize { part, bytes })
        .collect();
    parts.push(PartSize {
        part: StoragePart::Other,
        bytes: other,
    });
    Ok(StorageReport {
        measured_at: Utc::now(),
        took_ms: started.elapsed().as_millis() as u64,
        parts,
        total_bytes: total,
        database_bytes: file_len(&db),
        orphaned_files: orphans.len() as u64,
        orphaned_bytes: orphans.iter().map(|orphan| orphan.bytes).sum(),
        disk: disk_space(data_dir, file_len(&db)),
    })
}

/// The disk's room for `store`'s data folder, and whether it is low (cheap: asked at start-up
/// and every few minutes for the warning).
pub fn disk(store: &Store, data_dir: &Path) -> DiskSpace {
    let database = store.database_path().map_or(0, |db| file_len(&db));
    disk_space(data_dir, database)
}

fn disk_space(data_dir: &Path, database_bytes: u64) -> DiskSpace {
    let room = disk_room(data_dir);
    let warn_below = LOW_FLOOR.max(database_bytes);
    DiskSpace {
        free_bytes: room.map_or(0, |room| room.free_bytes),
        total_bytes: room.map_or(0, |room| room.total_bytes),
        // A system that cannot be asked is not said to be low.
        low: room.is_some_and(|room| room.free_bytes < warn_below),
        warn_below_bytes: warn_below,
        folder: data_dir.display().to_string(),
    }
}

/// Every mode's database, which share the media folder: the current mode's store, and the
/// others' as the app holds them or opened read-only for the look (closed by [`Self::close`]).
pub(crate) struct MediaOwners {
    pub current: Store,
    /// All of them; `None` when one exists but could not be opened (newer, damaged, busy).
    pub all: Option<Vec<Store>>,
    opened: Vec<Store>,
}

impl MediaOwners {
    pub async fn of(state: &AppState) -> Result<Self, CommandError> {
        let current = state.store().await?;
        let mode = state.mode();
        let mut all = Some(vec![current.clone()]);
        let mut opened = Vec::new();
        for other in [Mode::Live, Mode::Demo].into_iter().filter(|m| *m != mode) {
            let held = state.stores.lock().await.get(&other).cloned();
            let store = match held {
                Some(store) => Some(store),
                None => {
                    let path = database_path(other, &state.data_dir);
                    if !path.exists() {
                        continue;
                    }
                    match Store::open_read_only(&path).await {
                        Ok(store) => {
                            opened.push(store.clone());
                            Some(store)
                        }
                        Err(error) => {
                            tracing::warn!(%error, "a database sharing the media folder was not read");
                            None
                        }
                    }
                }
            };
            match (store, all.as_mut()) {
                (Some(store), Some(list)) => list.push(store),
                _ => all = None,
            }
        }
        Ok(Self {
            current,
            all,
            opened,
        })
    }

    pub async fn close(self) {
        for store in self.opened {
            store.close().await;
        }
    }
}

/// Bytes on disk under the data folder: in all, and in the media folder.
#[derive(Debug, Default)]
struct FolderSizes {
    total: u64,
    media: u64,
}

fn folder_sizes(data_dir: &Path) -> FolderSizes {
    let media = files_under(&data_dir.join(MEDIA_DIR));
    FolderSizes {
        total: files_under(data_dir),
        media,
    }
}

/// The bytes of every file under `dir`, its folders walked (links not followed).
fn files_under(dir: &Path) -> u64 {
    let mut total = 0;
    let mut folders: Vec<PathBuf> = vec![dir.to_owned()];
    while let Some(folder) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.filter_map(|entry| entry.ok()) {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                folders.push(entry.path());
            } else if kind.is_file() {
                total += entry.metadata().map_or(0, |m| m.len());
            }
        }
    }
    total
}

fn file_len(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

#[cfg(test)]
mod tests;
