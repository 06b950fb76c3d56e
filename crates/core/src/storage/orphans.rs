//! The media folder's orphaned files: a kept file no `media_files` row names (the app quit
//! between the file moved into place and its record written), and partial files a quit or
//! crash left mid-fetch. Rows are never deleted, so nothing else makes an orphan. Only files
//! untouched for [`SETTLED`] count: the media worker records a file right after moving it into
//! place, and a fetch writes its partial file as it goes, so a younger file may be one the
//! worker is about to record.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use sightline_store::Store;

use crate::errors::CommandError;
use crate::media::files::{is_sha256, MEDIA_DIR};

/// How long a file must have been left alone before it counts as orphaned.
pub(crate) const SETTLED: Duration = Duration::from_secs(60 * 60);

/// An orphaned file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Orphan {
    pub path: PathBuf,
    pub bytes: u64,
}

/// Every orphaned file in `data_dir`'s media folder: named by none of `stores` (every database
/// that shares the folder: each mode's).
pub(crate) async fn find(stores: &[Store], data_dir: &Path) -> Result<Vec<Orphan>, CommandError> {
    let root = data_dir.join(MEDIA_DIR);
    let listed = tokio::task::spawn_blocking(move || list(&root, SystemTime::now()))
        .await
        .map_err(|error| {
            CommandError::internal(format!("The media folder was not read: {error}"))
        })?;
    let mut orphans = listed.partials;
    for chunk in listed.kept.chunks(2_000) {
        let names: Vec<String> = chunk.iter().map(|(name, _)| name.clone()).collect();
        let mut known = std::collections::HashSet::new();
        for store in stores {
            known.extend(store.known_media_files(&names).await?);
        }
        orphans.extend(
            chunk
                .iter()
                .filter(|(name, _)| !known.contains(name))
                .map(|(_, orphan)| orphan.clone()),
        );
    }
    Ok(orphans)
}

/// Removes `data_dir`'s orphaned files; returns how many and their bytes. A file that cannot
/// be removed is left and not counted.
pub(crate) async fn remove(stores: &[Store], data_dir: &Path) -> Result<(u64, u64), CommandError> {
    let orphans = find(stores, data_dir).await?;
    let (mut files, mut bytes) = (0, 0);
    for orphan in orphans {
        match tokio::fs::remove_file(&orphan.path).await {
            Ok(()) => {
                files += 1;
                bytes += orphan.bytes;
            }
            Err(error) => {
                tracing::warn!(%error, "an orphaned media file was not removed");
            }
        }
    }
    Ok((files, bytes))
}

/// The settled files of the media folder at `root`: partial files, and kept files by name.
#[derive(Debug, Default)]
struct Listed {
    partials: Vec<Orphan>,
    kept: Vec<(String, Orphan)>,
}

fn list(root: &Path, now: SystemTime) -> Listed {
    let mut listed = Listed::default();
    let settled = |meta: &std::fs::Metadata| {
        meta.modified()
            .ok()
            .and_then(|at| now.duration_since(at).ok())
            .is_some_and(|age| age >= SETTLED)
    };
    let Ok(entries) = std::fs::read_dir(root) else {
        return listed;
    };
    for entry in entries.filter_map(|entry| entry.ok()) {
        let Ok(meta) = entry.metadata() else {
            continue;
        };
        let name = entry.file_name().to_string_lossy().into_owned();
        if meta.is_file() && name.ends_with(".partial") && settled(&meta) {
            listed.partials.push(Orphan {
                path: entry.path(),
                bytes: meta.len(),
            });
        } else if meta.is_dir() && name.len() == 2 {
            let Ok(files) = std::fs::read_dir(entry.path()) else {
                continue;
            };
            for file in files.filter_map(|file| file.ok()) {
                let name = file.file_name().to_string_lossy().into_owned();
                let Ok(meta) = file.metadata() else {
                    continue;
                };
                if meta.is_file() && is_sha256(&name) && settled(&meta) {
                    let orphan = Orphan {
                        path: file.path(),
                        bytes: meta.len(),
                    };
                    listed.kept.push((name, orphan));
                }
            }
        }
    }
    listed
}
