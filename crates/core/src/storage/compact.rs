//! "Compact": the database's free pages given back to the disk (the store's in-place `VACUUM`,
//! one transaction: a quit, a crash or Cancel before its end leaves the file as it was), then
//! the media folder's orphaned files removed. Refused in words, before anything is written,
//! when the disk has too little room: SQLite writes the copy of the live pages to its temporary
//! folder, then as much again into the write-ahead log beside the database.

use std::path::Path;
use std::sync::Arc;

use serde::Serialize;
use sightline_api::CancelToken;
use sightline_store::{disk_room, temporary_folder, CompactStep, Compacted, Store};
use ts_rs::TS;

use super::{orphans, MediaOwners};
use crate::errors::CommandError;
use crate::state::AppState;

/// Room kept free beyond the copy and the log: SQLite's own journal and the app's other writes
/// while it runs.
const MARGIN: u64 = 64 << 20;

/// Where a compaction is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub enum CompactStage {
    /// Copying the live pages to a temporary file (no count of its own: SQLite tells none).
    Copying,
    /// Writing the copy back over the database: `doneBytes` of `totalBytes`.
    WritingBack,
}

/// A compaction's progress, sent to the window as it runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CompactProgress {
    /// Its stage.
    pub stage: CompactStage,
    /// Bytes written back so far (0 while copying).
    pub done_bytes: u64,
    /// Bytes in use, which the compacted file holds.
    pub total_bytes: u64,
}

/// How a compaction ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(
    tag = "outcome",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
#[ts(export)]
pub enum CompactOutcome {
    /// Done.
    Done {
        /// The database's size before.
        before_bytes: u64,
        /// Its size after.
        after_bytes: u64,
        /// Orphaned media files removed.
        orphaned_files: u64,
        /// Their bytes.
        orphaned_bytes: u64,
    },
    /// Stopped by Cancel: the database is as it was.
    Cancelled,
    /// Not started: a disk has too little room.
    NoRoom {
        /// The folder short of room.
        folder: String,
        /// Bytes it needs free.
        needed_bytes: u64,
        /// Bytes it has free.
        free_bytes: u64,
    },
}

/// Compacts the current mode's database and its data folder's media (see the module's doc).
pub async fn compact(
    state: &AppState,
    progress: impl FnMut(CompactProgress),
    cancel: &CancelToken,
) -> Result<CompactOutcome, CommandError> {
    if state.database.is_read_only(state.mode()) {
        return Err(CommandError::Invalid {
            message: "This archive is open read-only, so it cannot be compacted.".into(),
            fields: Vec::new(),
        });
    }
    let owners = MediaOwners::of(state).await?;
    let done = compact_store(
        &owners.current,
        &state.data_dir,
        owners.all.as_deref(),
        progress,
        cancel,
    )
    .await;
    owners.close().await;
    done
}

/// Compacts `store`, then removes the orphaned files of `data_dir`'s media folder that none of
/// `media_stores` names (none when `None`).
pub async fn compact_store(
    store: &Store,
    data_dir: &Path,
    media_stores: Option<&[Store]>,
    mut progress: impl FnMut(CompactProgress),
    cancel: &CancelToken,
) -> Result<CompactOutcome, CommandError> {
    let db = store
        .database_path()
        .ok_or_else(|| CommandError::internal("The archive is not a file."))?;
    let fill = store.database_fill().await?;
    let live = fill.file_bytes - fill.free_bytes;
    if let Some(no_room) = no_room(live, &temporary_folder(), db.parent().unwrap_or(data_dir)) {
        return Ok(no_room);
    }
    let token = Arc::new(cancel.clone());
    let compacted = store
        .compact(
            |step| {
                progress(match step {
                    CompactStep::Copying { expected_bytes } => CompactProgress {
                        stage: CompactStage::Copying,
                        done_bytes: 0,
                        total_bytes: expected_bytes,
                    },
                    CompactStep::WritingBack {
                        written_bytes,
                        expected_bytes,
                    } => CompactProgress {
                        stage: CompactStage::WritingBack,
                        done_bytes: written_bytes,
                        total_bytes: expected_bytes,
                    },
                })
            },
            move || token.is_cancelled(),
        )
        .await
        .map_err(|error| {
            let error = CommandError::from(error);
            if error.class() == "disk_full" {
                error
            } else {
                CommandError::database(format!(
                    "The archive could not be compacted: {}. It is as it was.",
                    error.message()
                ))
            }
        })?;
    let Compacted::Done {
        before_bytes,
        after_bytes,
    } = compacted
    else {
        return Ok(CompactOutcome::Cancelled);
    };
    let (orphaned_files, orphaned_bytes) = match media_stores {
        Some(stores) => orphans::remove(stores, data_dir).await?,
        None => (0, 0),
    };
    tracing::info!(
        before_bytes,
        after_bytes,
        orphaned_files,
        "the archive was compacted"
    );
    Ok(CompactOutcome::Done {
        before_bytes,
        after_bytes,
        orphaned_files,
        orphaned_bytes,
    })
}

/// The refusal when the temporary folder's disk cannot take the copy of `live` bytes, or the
/// database's disk the log of as many (both at once when they are one disk).
fn no_room(live: u64, temporary: &Path, database: &Path) -> Option<CompactOutcome> {
    let room = |folder: &Path| disk_room(folder).map(|room| room.free_bytes);
    refusal(
        live,
        (temporary, room(temporary)),
        (database, room(database)),
        same_disk(temporary, database),
    )
}

/// The rule of [`no_room`], given each folder's free bytes (`None`: the system cannot say, and
/// the compaction is tried; SQLite stops it whole if the disk fills).
pub(crate) fn refusal(
    live: u64,
    temporary: (&Path, Option<u64>),
    database: (&Path, Option<u64>),
    same_disk: bool,
) -> Option<CompactOutcome> {
    let need = live.saturating_add(MARGIN);
    let checks = if same_disk {
        vec![(database, need.saturating_add(live))]
    } else {
        vec![(temporary, need), (database, need)]
    };
    checks.into_iter().find_map(|((folder, free), needed)| {
        let free = free?;
        (free < needed).then(|| CompactOutcome::NoRoom {
            folder: folder.display().to_string(),
            needed_bytes: needed,
            free_bytes: free,
        })
    })
}

#[cfg(unix)]
fn same_disk(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev(),
        _ => true,
    }
}

#[cfg(not(unix))]
fn same_disk(_a: &Path, _b: &Path) -> bool {
    true
}
