//! The evidence bundle: one ZIP that carries an investigation (or a selection) with everything
//! needed to check it later, and the check itself.
//!
//! * [`write_bundle`] (`evidence/write.rs`) writes `responses/` (every body exactly as
//!   received), `posts.jsonl`, `posts.csv` (spreadsheet-safe, `evidence/spreadsheet.rs`),
//!   each kept picture and video once under `media/<sha256>.<ext>` and every media item's
//!   capture record in `media.jsonl` ([`media`]), `notes.md`, `provenance.jsonl`
//!   (`evidence/lines.rs`), `report.html` (one offline, script-free page with the Berkeley
//!   Protocol's collection fields per post and its media in safe view, `evidence/report.rs`),
//!   `custody.jsonl` (an investigation's custody log), each capture's
//!   timestamp token under `timestamps/`, `signing-key.pem`, `VERIFY.txt` (how to check it all
//!   without Sightline, `evidence/instructions.rs`), `manifest.json` (`evidence/manifest.rs`),
//!   `manifest.sig` (this installation's Ed25519 signature over the manifest's exact bytes),
//!   `manifest.json.tsr` (a token over the manifest, when an authority is set and answers) and
//!   `SHA256SUMS` (for `sha256sum -c`), reporting progress and stopping on a cancel without
//!   leaving a half-written file;
//! * [`seal`] says who seals a bundle (the signer, collector, system, timestamp authority) and
//!   [`seal::export`] runs an export for the app: seals it, records it in the custody log and
//!   in the store's `bundle_exports`;
//! * [`verify`] re-hashes a bundle and says, file by file, what still matches;
//! * [`gather`] reads what a bundle holds from the store (an investigation, or a selection,
//!   with its posts' media).
//!
//! The layout is `FORMAT_VERSION` 3, described file by file in `VERIFY.txt` and
//! `evidence/manifest.rs`.
//!
//! It lives in the core, not the store: a bundle joins several stores' reads (history, archive,
//! provenance, investigations, the ledger), the display zone and the app's version, and writes a
//! file with progress and cancel, which is the application's business.

use std::collections::{BTreeMap, HashMap};

use chrono::{DateTime, SecondsFormat, Utc};
use rust_decimal::Decimal;
use serde::Serialize;
use sightline_store::{HistoryEntry, MediaItemRecord, PostImportMark, StoredPost, Tz};
use ts_rs::TS;

use crate::errors::CommandError;

pub mod gather;
mod instructions;
mod lines;
mod manifest;
pub mod media;
mod notes;
mod report;
pub mod seal;
mod spreadsheet;
pub mod verify;
pub(crate) mod write;
mod zip_read;

pub use manifest::{FORMAT, FORMAT_VERSION};
pub use seal::{CaptureToken, Seal, StampState};
pub use write::write_bundle;

#[cfg(test)]
mod tests;

/// What a bundle holds, gathered before writing (bodies are read one at a time while writing).
#[derive(Debug, Clone)]
pub struct Bundle {
    /// The investigation's id, `None` for a hand-picked selection.
    pub investigation_id: Option<i64>,
    /// The investigation's name, or the selection's; the bundle's file and report are named by it.
    pub name: String,
    /// The investigation's description, as written.
    pub description: String,
    /// The investigation's Markdown notebook, as written.
    pub notebook: String,
    /// The investigation's custody log, its last entry the export of this bundle; `None` for
    /// a hand-picked selection (which has no log).
    pub custody: Option<CustodyLog>,
    /// Every request the bundle carries, with its capture.
    pub requests: Vec<BundleRequest>,
    /// Every post, with its note and tags.
    pub posts: Vec<BundlePost>,
    /// The posts' pictures and videos, each with what became of it (kept, gone, ...), in post
    /// order then position.
    pub media: Vec<MediaItemRecord>,
    /// What its requests cost, from the ledger.
    pub cost: BundleCost,
    /// The display zone: local times in the bundle are in it, each labelled with it.
    pub zone: Tz,
    /// The version of Sightline that wrote the bundle.
    pub app_version: String,
    /// When the bundle was gathered.
    pub created_at: DateTime<Utc>,
    /// What a case package adds (its kind and its `case/` files); `None` for an evidence
    /// bundle.
    pub package: Option<PackagePart>,
}

/// What a case package ([`crate::case_package`]) adds to a bundle: the manifest's `kind` and
/// its own part, and files written before the manifest, listed and summed like every other.
#[derive(Debug, Clone)]
pub struct PackagePart {
    /// The manifest's `kind`.
    pub kind: &'static str,
    /// The manifest's `case` object.
    pub manifest: serde_json::Value,
    /// Each file's path in the ZIP and its bytes.
    pub files: Vec<(String, Vec<u8>)>,
}

impl Bundle {
    /// Each request's capture by history id, for the posts it found.
    pub fn captures(&self) -> HashMap<i64, Option<&CaptureRecord>> {
        self.requests
            .iter()
            .map(|r| (r.entry.id, r.capture.as_ref()))
            .collect()
    }

    /// The bundle's file name without its extension: `sightline-evidence-` and the
    /// investigation's name as a file name ("selection" for a hand-picked one with no name).
    pub fn file_name(&self) -> String {
        format!(
            "sightline-evidence-{}",
            crate::export::file_stem(&self.name, "selection")
        )
    }
}

/// One request (a history row) and the record of its response, when one was kept.
#[derive(Debug, Clone)]
pub struct BundleRequest {
    /// The request's History row: what was asked, when, its status and cost.
    pub entry: HistoryEntry,
    /// `None` when the request was made before provenance was kept.
    pub capture: Option<CaptureRecord>,
    /// Not one of the bundle's own requests: here only because it brought posts added on their
    /// own, so each post carries its capture. Its cost is not in the bundle's.
    pub only_brought_posts: bool,
    /// Its capture's trusted timestamp: the token, or why there is none yet.
    pub stamp: StampState,
}

/// An investigation's custody log as the bundle carries it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustodyLog {
    /// The log as JSON Lines, one entry a line, oldest first.
    pub jsonl: Vec<u8>,
    /// Entries in it.
    pub entries: u64,
    /// The last entry's hash, lower-case hex (the head of the chain).
    pub head_hash: String,
    /// How each entry's hash is made, in words (for `VERIFY.txt`).
    pub hash_rule: String,
}

/// A response's provenance, as recorded when it arrived.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CaptureRecord {
    /// When the response was received, to the millisecond.
    pub captured_at: DateTime<Utc>,
    /// The service address the request was sent to.
    pub service_address: String,
    /// The URL that answered (never holds the key).
    pub response_url: String,
    /// The HTTP status the service answered with.
    pub http_status: u16,
    /// A 304: the body is the stored copy the service pointed back to.
    pub from_cache: bool,
    /// The response's billing headers, names and values exactly as received.
    pub billing_headers: BTreeMap<String, String>,
    /// The version of Sightline that received the response.
    pub app_version: String,
    /// SHA-256 of the body's exact bytes, lower-case hex.
    pub sha256: String,
    /// Whether the body is a stream (server-sent events) rather than one document.
    pub streamed: bool,
}

/// A post in the bundle, with what the investigation added to it.
#[derive(Debug, Clone)]
pub struct BundlePost {
    /// The post as stored in the archive.
    pub post: StoredPost,
    /// The investigation's note on it (empty: none).
    pub note: String,
    /// The investigation's tags on it.
    pub tags: Vec<String>,
    /// The history row of the response that brought it, when known.
    pub found_by: Option<i64>,
    /// The import that brought it, when an import did: it has no capture of its own unless a
    /// request found it too (`also_captured`), and is said so wherever the bundle shows it.
    pub imported: Option<PostImportMark>,
}

/// What the bundle's requests cost, from the ledger, exact.
#[derive(Debug, Clone, Default)]
pub struct BundleCost {
    /// Every request's cost, summed.
    pub total: Decimal,
    /// The ledger's currency (the service's, e.g. `USD`).
    pub currency: String,
    /// Days in the display zone, oldest first.
    pub by_day: Vec<CostLine>,
    /// By kind of request.
    pub by_operation: Vec<CostLine>,
}

#[derive(Debug, Clone, PartialEq)]
/// One line of a cost breakdown: a day or a kind of request.
pub struct CostLine {
    /// The day (`YYYY-MM-DD`) or the operation's name.
    pub label: String,
    /// What that line's requests cost.
    pub cost: Decimal,
    /// How many requests it counts.
    pub requests: i64,
}

/// Where a bundle body comes from: the store's provenance table, or anything else in tests.
pub trait ResponseBodies {
    /// The exact bytes received for a history row, or `None` when none were kept.
    fn body(
        &self,
        history_id: i64,
    ) -> impl std::future::Future<Output = Result<Option<Vec<u8>>, CommandError>> + Send;

    /// Every header of that response as received, in order, or `None` when only its billing
    /// headers were kept (captured before Sightline kept them all).
    fn headers(
        &self,
        history_id: i64,
    ) -> impl std::future::Future<Output = Result<Option<Vec<(String, String)>>, CommandError>> + Send;

    /// Where the kept media file with this SHA-256 is on this computer, or `None` when it is
    /// not there.
    fn media_path(&self, sha256: &str) -> Option<std::path::PathBuf>;
}

/// How far a bundle is: `done` of `total` steps (one per response, one per post, one per
/// other file), and the file being written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct BundleProgress {
    /// Steps done.
    pub done: u32,
    /// Steps in all.
    pub total: u32,
    /// The file in the bundle being written now.
    pub file: String,
}

/// How a bundle export ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(
    tag = "outcome",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
#[ts(export)]
pub enum BundleOutcome {
    /// The bundle is at `path`.
    Written {
        /// Where the bundle was written.
        path: String,
        /// Files in it, counting the manifest and `SHA256SUMS`.
        files: u32,
        /// Posts it carries.
        posts: u32,
        /// Responses it carries, each as received.
        responses: u32,
        /// The bundle's size, in bytes.
        bytes: u64,
        /// SHA-256 of its `manifest.json`, lower-case hex.
        manifest_sha256: String,
        /// The fingerprint of the key that signed the manifest (this installation's).
        signed_by: String,
        /// Whether a timestamp authority stamped the manifest, or why not.
        manifest_stamp: ManifestStamp,
    },
    /// Stopped by the user; nothing is left behind.
    Cancelled,
}

/// Whether the manifest got a trusted timestamp at export.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(
    tag = "state",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
#[ts(export)]
pub enum ManifestStamp {
    /// `manifest.json.tsr` holds the authority's token over the manifest.
    Stamped {
        /// The time in the token (the authority's clock), RFC 3339 UTC.
        stamped_at: String,
        /// The authority, as it names itself.
        authority: String,
    },
    /// No token: the bundle is complete, only its manifest's time is not attested.
    NotStamped {
        /// Why, in words ("no timestamp authority is set", or what the authority answered).
        why: String,
    },
}

/// Every post, one JSON line each. This and the names below are the bundle's fixed files
/// besides `responses/`, in the order they are written.
pub const POSTS_JSONL: &str = "posts.jsonl";
/// The posts for a spreadsheet, ids kept whole.
pub const POSTS_CSV: &str = "posts.csv";
/// The notebook and each post's note and tags, as Markdown.
pub const NOTES_MD: &str = "notes.md";
/// Each response's capture record, one JSON line each.
pub const PROVENANCE_JSONL: &str = "provenance.jsonl";
/// The offline report: one script-free page.
pub const REPORT_HTML: &str = "report.html";
/// Who made the bundle, when, of what, and every other file with its size and hash.
pub const MANIFEST_JSON: &str = "manifest.json";
/// Every file's SHA-256, for `sha256sum -c`.
pub const SHA256SUMS: &str = "SHA256SUMS";
/// The investigation's custody log, one entry a line.
pub const CUSTODY_JSONL: &str = "custody.jsonl";
/// The public key (PEM SubjectPublicKeyInfo) that signed the manifest.
pub const SIGNING_KEY_PEM: &str = "signing-key.pem";
/// How to check the bundle without Sightline.
pub const VERIFY_TXT: &str = "VERIFY.txt";
/// The Ed25519 signature over `manifest.json`'s exact bytes, base64 on one line.
pub const MANIFEST_SIG: &str = "manifest.sig";
/// A timestamp authority's token over `manifest.json`, when one was asked at export.
pub const MANIFEST_TSR: &str = "manifest.json.tsr";
/// The folder of the captures' tokens and the certificates they carry.
pub const TIMESTAMPS_DIR: &str = "timestamps/";

/// One file written into the bundle, as the manifest lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BundleFile {
    /// Its path inside the ZIP.
    pub path: String,
    /// Its size, in bytes.
    pub bytes: u64,
    /// SHA-256 of its bytes, lower-case hex.
    pub sha256: String,
}

/// `2026-11-23T18:04:12.345Z`
pub fn utc_iso(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// `2026-11-23 18:04:12 UTC`
pub fn utc_words(t: DateTime<Utc>) -> String {
    t.format("%Y-%m-%d %H:%M:%S UTC").to_string()
}

/// Lower-case hex of a digest.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The file name of a request's body in `responses/`: its place in the bundle, operation and
/// request id, with the extension its content calls for.
pub fn response_file_name(index: usize, request: &BundleRequest) -> String {
    let entry = &request.entry;
    let operation = entry.operation.replace('_', "-");
    let id: String = entry
        .request_id
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect();
    let streamed = request.capture.as_ref().is_some_and(|c| c.streamed);
    // A crawled page is kept exactly as received but named as text, so a browser shows its
    // HTML as text and loads nothing from it.
    let extension = if streamed {
        "sse"
    } else if entry.operation == "web_crawl" {
        if entry.params_json.contains(r#""format":"html""#) {
            "html.txt"
        } else {
            "txt"
        }
    } else {
        "json"
    };
    format!("responses/{:04}-{operation}-{id}.{extension}", index + 1)
}

/// The file of a capture's token: `timestamps/` and the response file's name without its
/// folder and last extension (`responses/0001-x-req-7.json` → `timestamps/0001-x-req-7.tsr`).
pub fn token_file_name(response_file: &str) -> String {
    let name = response_file.rsplit('/').next().unwrap_or(response_file);
    let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
    format!("{TIMESTAMPS_DIR}{stem}.tsr")
}
