//! Case packages (issue 33): "Export for a colleague" and "Open a case package".
//!
//! A case package is an evidence bundle (one ZIP, written by [`crate::evidence`]'s writer,
//! signed and summed the same way) whose manifest says `"kind": "case-package"` and which also
//! carries what a colleague needs to go on with the work, under `case/` (`case_package/contents.rs`):
//! `case.json` (the case id, name, description, notebook, who sent it), `requests.jsonl` (each
//! request's history row with its cost text and key label as facts, its capture record and
//! every header; its exact bytes are the bundle's `responses/` file it names, its token the
//! bundle's `timestamps/` file), `posts.jsonl` (each post's stored record, filing, note and
//! tags, each attributed), `checks.jsonl` and `media.jsonl` (each item's stored record; its
//! file is the bundle's `media/` file).
//!
//! * [`export`] (`case_package/write.rs`): the investigation gathered as for a bundle, its
//!   `case/` files added, sealed with this installation's key; the custody log records it.
//! * [`open`] (`case_package/open.rs`): the package verified first with the evidence verifier
//!   (any file that does not match its sum, a signature that does not hold, a broken custody
//!   log or an invalid timestamp token refuses it, saying which), then read again file by file,
//!   each re-hashed against the signed manifest, each response's bytes against its capture's
//!   SHA-256 and each media file against its name, and imported (`sightline_store`'s
//!   `receive_case`): a new case continues the received custody log with an import entry; a
//!   case already held (the same case id) is merged by request and post ids, both people's
//!   notes and tags kept and attributed, every difference listed as a [`CaseConflict`],
//!   nothing overwritten, the merge recorded in the log. No API key is needed on this path.
//!   Removals travel too (layout 2): a tag taken off or a note removed or written over is
//!   carried with its post (what, when, by whom); a merge takes off here what the colleague
//!   removed after it came here ([`CaseRemoved`], each in the custody log) and brings back
//!   nothing removed here; a note removed on one side and rewritten on the other is a
//!   [`ConflictKind::NoteRemoved`] difference, the rewritten note kept. Posts and requests
//!   taken out of the case travel the same way (`case.json`'s `unfiled`); a post the
//!   colleague took out that carries a note or tag written here stays, a
//!   [`ConflictKind::PostRemoved`] difference.
//!
//! * [`preview`] (`case_package/preview.rs`): the same checks and what the package holds (who
//!   signed it, when, its case and counts, the case here it would merge into), writing nothing.
//!
//! Received requests never count in this installation's Spend or budgets (they get no ledger
//! row), while keeping their original cost and key label.

use std::path::Path;

use serde::Serialize;
use sightline_api::CancelToken;
use ts_rs::TS;

use crate::errors::CommandError;
use crate::evidence::verify::BundleCheck;
use crate::state::AppState;

mod contents;
mod open;
mod preview;
mod write;

pub use open::refusal;
pub use preview::{preview, CasePreview};
pub use write::file_name;

/// A case package's file extension (it is a ZIP, as an evidence bundle is).
pub const EXTENSION: &str = "zip";
/// The manifest's `kind` of a case package (an evidence bundle has none).
pub const KIND: &str = "case-package";
/// The version of the `case/` files' layout, in the manifest's `case.format_version`. 2: each
/// tag carries when it was put on and each post its removals (tags taken off, notes removed or
/// written over), so a merge respects them. A package of layout 1 is still opened (its tags read
/// as put on before times were kept, no removals); a Sightline that reads only layout 1 refuses
/// a layout-2 package rather than merge it without its removals.
pub const CASE_FORMAT_VERSION: u32 = 2;

/// Who did something to a case: the collector's name ("Collected by" in their Settings, may be
/// empty) and their signing key's fingerprint.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct Collector {
    /// Their name, as they gave it ("" when they named none).
    pub name: String,
    /// Their signing key's fingerprint.
    pub fingerprint: String,
}

/// Which part of a case a package's step is at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub enum CaseStage {
    /// Writing the package.
    Writing,
    /// Checking every hash and the signature before anything is imported.
    Verifying,
    /// Reading the package's files again, each re-hashed.
    Reading,
    /// Writing what it holds into this installation's store.
    Importing,
}

/// How far an export or an open is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CaseProgress {
    /// The stage.
    pub stage: CaseStage,
    /// Steps done in this stage.
    pub done: u32,
    /// Steps in this stage.
    pub total: u32,
    /// The file being written or read.
    pub file: String,
}

/// How "Export for a colleague" ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(
    tag = "outcome",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
#[ts(export)]
pub enum CaseExportOutcome {
    /// The package is at `path`.
    Written {
        /// Where it was written.
        path: String,
        /// The case's id, the same in every installation that holds it.
        case_id: String,
        /// Requests it carries.
        requests: u32,
        /// Responses it carries, each as received.
        responses: u32,
        /// Posts it carries.
        posts: u32,
        /// Media files it carries.
        media_files: u32,
        /// Its size, in bytes.
        bytes: u64,
        /// SHA-256 of its `manifest.json`.
        manifest_sha256: String,
        /// The fingerprint of the key that signed it (this installation's).
        signed_by: String,
    },
    /// Stopped by the user; nothing is left behind.
    Cancelled,
}

/// What a merge found differing, shown to the user; nothing of it was overwritten.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub enum ConflictKind {
    /// A post's note: this installation's is kept, theirs beside it.
    Note,
    /// A post's note one side removed while the other rewrote it: the rewritten note is kept
    /// (the side that removed it shows an empty text).
    NoteRemoved,
    /// A post the colleague took out of the case, kept here because this installation wrote a
    /// note or put a tag on it (`ours`: that note, or the tags).
    PostRemoved,
    /// A still-there check of the same time with different lines: both kept.
    Check,
    /// The notebook: this installation's is kept, theirs is in the list.
    Notebook,
    /// The description: this installation's is kept.
    Description,
    /// The name: this installation's is kept.
    Name,
}

/// One difference between this installation's case and a received one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CaseConflict {
    /// What differs.
    pub kind: ConflictKind,
    /// The post it is about (a note), when it is about one.
    pub post_id: Option<String>,
    /// What this installation holds (kept).
    pub ours: String,
    /// Who wrote what this installation holds; `None`: this installation.
    pub ours_by: Option<Collector>,
    /// What the package holds (kept beside it, attributed).
    pub theirs: String,
    /// Who wrote it.
    pub theirs_by: Collector,
}

/// What a removal took off a post.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub enum RemovedWhat {
    /// A tag.
    Tag,
    /// The post's note (removed, or written over with the colleague's).
    Note,
    /// A post taken out of the case (`post_id` and `text`: its id).
    Post,
    /// A request taken out of the case (`post_id` and `text`: its request id).
    Request,
}

/// Something taken off a post here by a merge because the colleague had removed it there
/// after it came here; the custody log records each.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CaseRemoved {
    /// A tag or the note.
    pub what: RemovedWhat,
    /// The post (a request taken out: its request id).
    pub post_id: String,
    /// The tag, or the note's text as it was here (a post or request: its id).
    pub text: String,
    /// A note the colleague wrote over: theirs is the note here now (else none is).
    pub written_over: bool,
    /// Who removed it; `None`: this installation (its own removal, coming back).
    pub by: Option<Collector>,
    /// When they removed it (RFC 3339 UTC).
    pub removed_at: String,
}

/// What opening a package did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CaseOpened {
    /// The investigation it went into (new, or the one holding its case id).
    pub investigation_id: i64,
    /// The case's id.
    pub case_id: String,
    /// The investigation's name here (a new case whose name was taken gets a suffix).
    pub name: String,
    /// Merged into a case this installation already held.
    pub merged: bool,
    /// Who signed the package.
    pub from: Collector,
    /// When the package was made, as its signed manifest says (RFC 3339 UTC).
    pub signed_at: String,
    /// SHA-256 of the whole package file.
    pub package_sha256: String,
    /// Requests added, and those already held (the same request id).
    pub requests_added: u32,
    /// Requests already held.
    pub requests_held: u32,
    /// Posts added to the case, and those already in it.
    pub posts_added: u32,
    /// Posts already in the case.
    pub posts_held: u32,
    /// Notes added (a post's note where it had none here).
    pub notes_added: u32,
    /// Tags added.
    pub tags_added: u32,
    /// Still-there checks added.
    pub checks_added: u32,
    /// Media files added to this computer's media folder.
    pub media_files_added: u32,
    /// Entries of the sender's custody log received (kept as received, verifiable).
    pub custody_entries_received: u32,
    /// Everything that differed, each kept on both sides.
    pub conflicts: Vec<CaseConflict>,
    /// What was taken off here because the colleague had removed it.
    pub removed: Vec<CaseRemoved>,
}

/// How "Open a case package" ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(
    tag = "outcome",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
#[ts(export)]
pub enum CaseOpenOutcome {
    /// Verified and imported.
    Opened {
        /// What it did.
        opened: Box<CaseOpened>,
        /// The package's check (every line holds), as "Verify a bundle" shows it.
        check: Box<BundleCheck>,
    },
    /// Not imported: the package failed a check. Nothing was written.
    Refused {
        /// Why, in plain words (the first check that failed).
        why: String,
        /// The whole check, as "Verify a bundle" shows it.
        check: Box<BundleCheck>,
    },
    /// Stopped by the user; nothing was written.
    Cancelled,
}

/// "Export for a colleague": writes investigation `investigation_id` as a case package at
/// `path`, sealed with this installation's key; the custody log records the export (the
/// package carries the log with that entry).
pub async fn export(
    state: &AppState,
    investigation_id: i64,
    path: &Path,
    progress: &mut (dyn FnMut(CaseProgress) + Send),
    cancel: &CancelToken,
) -> Result<CaseExportOutcome, CommandError> {
    write::export(state, investigation_id, path, progress, cancel).await
}

/// "Open a case package": verifies the package at `path`, then imports it (a new case) or
/// merges it (a case already held here). Needs no API key.
pub async fn open(
    state: &AppState,
    path: &Path,
    progress: impl FnMut(CaseProgress) + Send + 'static,
    cancel: &CancelToken,
) -> Result<CaseOpenOutcome, CommandError> {
    open::open(state, path, progress, cancel).await
}

/// The differences still standing in investigation `investigation_id` from packages merged
/// into it (a colleague's note differing from the one kept here), for the case's screen.
pub async fn conflicts(
    state: &AppState,
    investigation_id: i64,
) -> Result<Vec<CaseConflict>, CommandError> {
    open::standing_conflicts(state, investigation_id).await
}
