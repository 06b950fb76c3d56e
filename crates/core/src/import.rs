//! Importing files of posts collected by other tools, or exported by Sightline: twarc2 raw
//! API pages and flattened lines, 4CAT's CSV and NDJSON, Zeeschuimer's NDJSON and Sightline's
//! own JSON Lines.
//!
//! The whole file is hashed first (its SHA-256 names it in every mark and custody entry), its
//! format detected from its first lines, then it is read a batch of up to 5,000 lines at
//! a time on a thread of its own while the last batch is written, so reading and SQLite's work
//! overlap and memory stays bounded (two batches wait at most). Each batch is one transaction
//! (`sightline_store`'s imports): its posts, every line's outcome and where the next batch
//! starts, so a cancel or a quit loses nothing and a resume records no line twice.
//!
//! * `import/detect.rs`: a file's format, and what one JSON line holds in it;
//! * `import/read.rs`: lines and CSV records from any line on, in batches;
//! * `import/v2.rs`, `graphql.rs`, `fourcat.rs`: each tool's records as the service's post
//!   record, so an imported post is stored, searched and analysed as a fetched one;
//! * `import/record.rs`: the pieces of a post record they share.

use std::path::{Path, PathBuf};

use chrono::Utc;
use serde::Serialize;
use sha2::{Digest, Sha256};
use sightline_api::cancel::CancelToken;
use sightline_api::model::Post;
use sightline_store::{ImportFormat, ImportState, NewImport, Store, StoredImport};
use tokio::sync::mpsc;
use ts_rs::TS;

use crate::errors::CommandError;

mod detect;
mod fourcat;
mod graphql;
mod read;
mod record;
mod v2;

/// What a line (or one post of a twarc2 page) holds, before the store says whether a post is
/// new.
pub(crate) enum Item {
    Post(Box<Post>),
    NotAPost(String),
    Unreadable(String),
}

/// Where an import stands.
#[derive(Serialize, TS, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum ImportPhase {
    /// The whole file is being hashed, before any line is read.
    Hashing,
    /// Lines are being read and stored.
    Reading,
}

/// An import's progress, sent while it runs.
#[derive(Serialize, TS, Clone, Debug, PartialEq)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct ImportProgress {
    /// The import, once it is recorded (after hashing).
    pub import_id: Option<i64>,
    /// Hashing or reading.
    pub phase: ImportPhase,
    /// The file's name.
    pub file_name: String,
    /// The format, once detected.
    pub format: Option<ImportFormat>,
    /// Bytes hashed, or read.
    pub bytes_done: i64,
    /// The file's size.
    pub file_size: i64,
    /// Lines read.
    pub lines_done: i64,
    /// Posts imported.
    pub imported: i64,
    /// Posts already held.
    pub already_held: i64,
    /// Items that were not posts.
    pub not_a_post: i64,
    /// Lines that could not be read.
    pub unreadable: i64,
}

/// A file could not be opened or read.
fn file_error(path: &Path, error: impl std::fmt::Display) -> CommandError {
    CommandError::file(format!("{} could not be read: {error}", path.display()))
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// The format of the file at `path`, from its first lines.
pub fn detect(path: &Path) -> Result<ImportFormat, CommandError> {
    let file = std::fs::File::open(path).map_err(|e| file_error(path, e))?;
    detect::detect(file)
        .map_err(|e| file_error(path, e))?
        .ok_or_else(|| {
            CommandError::file(format!(
                "{} is not a file Sightline can import: it reads twarc2 pages or flattened \
                 lines, 4CAT CSV or NDJSON, Zeeschuimer NDJSON and its own JSON Lines export.",
                file_name(path)
            ))
        })
}

/// SHA-256 of the whole file and its size, reporting bytes hashed; `None` when cancelled.
async fn hash_file(
    path: &Path,
    progress: &mut (dyn FnMut(i64) + Send),
    cancel: &CancelToken,
) -> Result<Option<(String, i64)>, CommandError> {
    let (tx, mut rx) = mpsc::channel::<i64>(4);
    let owned = path.to_path_buf();
    let stop = cancel.clone();
    let worker = tokio::task::spawn_blocking(move || -> std::io::Result<Option<(String, i64)>> {
        use std::io::Read;
        let mut file = std::fs::File::open(&owned)?;
        let mut hasher = Sha256::new();
        let mut buffer = vec![0; 1 << 20];
        let mut done = 0i64;
        loop {
            if stop.is_cancelled() {
                return Ok(None);
            }
            let n = file.read(&mut buffer)?;
            if n == 0 {
                break;
            }
            hasher.update(&buffer[..n]);
            done += n as i64;
            if done % (32 << 20) < n as i64 {
                let _ = tx.try_send(done);
            }
        }
        // The last count always arrives: a small file is hashed within one step.
        let _ = tx.blocking_send(done);
        Ok(Some((crate::evidence::hex(&hasher.finalize()), done)))
    });
    while let Some(done) = rx.recv().await {
        progress(done);
    }
    worker
        .await
        .map_err(|e| CommandError::internal(format!("the file's hashing stopped: {e}")))?
        .map_err(|e| file_error(path, e))
}

/// Imports the file at `path` into the archive, its posts filed in `investigation_id` when
/// given: hashed, detected, then read to the end or until cancelled. The import as it ended
/// (done, cancelled, or failed with why); `None` when cancelled while hashing (nothing kept).
pub async fn start(
    store: &Store,
    path: &Path,
    investigation_id: Option<i64>,
    progress: &mut (dyn FnMut(ImportProgress) + Send),
    cancel: &CancelToken,
) -> Result<Option<StoredImport>, CommandError> {
    let format = detect(path)?;
    let name = file_name(path);
    let size = std::fs::metadata(path)
        .map_err(|e| file_error(path, e))?
        .len() as i64;
    let mut report = |done| {
        progress(ImportProgress {
            import_id: None,
            phase: ImportPhase::Hashing,
            file_name: name.clone(),
            format: Some(format),
            bytes_done: done,
            file_size: size,
            lines_done: 0,
            imported: 0,
            already_held: 0,
            not_a_post: 0,
            unreadable: 0,
        })
    };
    let Some((sha256, size)) = hash_file(path, &mut report, cancel).await? else {
        return Ok(None);
    };
    let new = NewImport {
        file_name: name,
        file_sha256: sha256,
        file_size: size,
        format,
        investigation_id,
    };
    let import = store.start_import(&new, Utc::now()).await?;
    run(store, path.to_path_buf(), import, progress, cancel)
        .await
        .map(Some)
}

/// Resumes an import that was cancelled, failed or cut by a quit, from the line after its
/// last recorded batch. The file is hashed again and refused if it is not the same file.
pub async fn resume(
    store: &Store,
    import_id: i64,
    path: &Path,
    progress: &mut (dyn FnMut(ImportProgress) + Send),
    cancel: &CancelToken,
) -> Result<Option<StoredImport>, CommandError> {
    let Some(import) = store.import(import_id).await? else {
        return Err(CommandError::not_found(format!(
            "There is no import {import_id}."
        )));
    };
    let name = file_name(path);
    let mut report = |done| {
        progress(ImportProgress {
            import_id: Some(import_id),
            phase: ImportPhase::Hashing,
            file_name: name.clone(),
            format: Some(import.format),
            bytes_done: done,
            file_size: import.file_size,
            lines_done: import.lines_done,
            imported: import.imported,
            already_held: import.already_held,
            not_a_post: import.not_a_post,
            unreadable: import.unreadable,
        })
    };
    let Some((sha256, _)) = hash_file(path, &mut report, cancel).await? else {
        return Ok(None);
    };
    if sha256 != import.file_sha256 {
        return Err(CommandError::file(format!(
            "{name} is not the file this import began with: its SHA-256 is {sha256}, the \
             import's file had {}. Choose that file to resume.",
            import.file_sha256
        )));
    }
    let import = store.resume_import(import_id).await?;
    run(store, path.to_path_buf(), import, progress, cancel)
        .await
        .map(Some)
}

type Batches = mpsc::Receiver<std::io::Result<sightline_store::ImportBatch>>;

/// Reads batches on a thread of its own, at most two waiting: it stops when the receiver is
/// dropped (a cancel, a failure).
fn read_in_background(path: PathBuf, import: &StoredImport) -> Batches {
    let (tx, rx) = mpsc::channel(2);
    let (format, lines_done, offset_done) = (import.format, import.lines_done, import.offset_done);
    tokio::task::spawn_blocking(move || {
        let mut reader = match read::Reader::open(&path, format, lines_done, offset_done) {
            Ok(reader) => reader,
            Err(error) => {
                let _ = tx.blocking_send(Err(error));
                return;
            }
        };
        loop {
            let next = reader.next_batch().transpose();
            let Some(next) = next else { return };
            let failed = next.is_err();
            if tx.blocking_send(next).is_err() || failed {
                return;
            }
        }
    });
    rx
}

/// Reads the rest of the file into the store, batch by batch, until its end or a cancel.
async fn run(
    store: &Store,
    path: PathBuf,
    mut import: StoredImport,
    progress: &mut (dyn FnMut(ImportProgress) + Send),
    cancel: &CancelToken,
) -> Result<StoredImport, CommandError> {
    let mut batches = read_in_background(path.clone(), &import);
    let report = |import: &StoredImport, progress: &mut (dyn FnMut(ImportProgress) + Send)| {
        progress(ImportProgress {
            import_id: Some(import.id),
            phase: ImportPhase::Reading,
            file_name: import.file_name.clone(),
            format: Some(import.format),
            bytes_done: import.offset_done,
            file_size: import.file_size,
            lines_done: import.lines_done,
            imported: import.imported,
            already_held: import.already_held,
            not_a_post: import.not_a_post,
            unreadable: import.unreadable,
        })
    };
    report(&import, progress);
    loop {
        let next = tokio::select! {
            biased;
            () = cancel.cancelled() => None,
            next = batches.recv() => Some(next),
        };
        let batch = match next {
            None => {
                drop(batches);
                return Ok(store.cancel_import(import.id, Utc::now()).await?);
            }
            Some(None) => break,
            Some(Some(Err(error))) => {
                let why = format!("{} could not be read: {error}", path.display());
                return Ok(store
                    .finish_import(import.id, ImportState::Failed, Some(&why), Utc::now())
                    .await?);
            }
            Some(Some(Ok(batch))) => batch,
        };
        let counts = match store
            .record_import_batch(import.id, &batch, Utc::now())
            .await
        {
            Ok(counts) => counts,
            Err(error) => {
                let failed = CommandError::from(error);
                let why = failed.message().to_owned();
                store
                    .finish_import(import.id, ImportState::Failed, Some(&why), Utc::now())
                    .await?;
                return Err(failed);
            }
        };
        import.lines_done = batch.lines_done;
        import.offset_done = batch.offset_done;
        import.imported += counts.imported;
        import.already_held += counts.already_held;
        import.not_a_post += counts.not_a_post;
        import.unreadable += counts.unreadable;
        report(&import, progress);
    }
    Ok(store
        .finish_import(import.id, ImportState::Done, None, Utc::now())
        .await?)
}

/// Writes an import's outcomes, line by line, as CSV at `path`.
pub async fn outcomes_csv(store: &Store, import_id: i64, path: &Path) -> Result<(), CommandError> {
    let file = std::fs::File::create(path)
        .map_err(|e| CommandError::file(format!("{} could not be written: {e}", path.display())))?;
    let mut out = std::io::BufWriter::new(file);
    store.import_lines_csv(import_id, &mut out).await?;
    use std::io::Write;
    out.flush()
        .map_err(|e| CommandError::file(format!("{} could not be written: {e}", path.display())))?;
    Ok(())
}
