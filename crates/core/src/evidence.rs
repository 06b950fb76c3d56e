//! The evidence bundle: one ZIP that carries an investigation (or a selection) with everything
//! needed to check it later, and the check itself.
//!
//! * [`write_bundle`] writes `responses/` (every body exactly as received), `posts.jsonl`,
//!   `posts.csv` (spreadsheet-safe, `evidence/spreadsheet.rs`), `notes.md`, `provenance.jsonl`,
//!   `report.html` (one offline, script-free page, `evidence/report.rs`), `manifest.json` and
//!   `SHA256SUMS` (for `sha256sum -c`), reporting progress and stopping on a cancel without
//!   leaving a half-written file;
//! * [`verify`] re-hashes a bundle and says, file by file, what still matches;
//! * [`gather`] reads what a bundle holds from the store (an investigation, or a selection).
//!
//! It lives in the core, not the store: a bundle joins several stores' reads (history, archive,
//! provenance, investigations, the ledger), the display zone and the app's version, and writes a
//! file with progress and cancel, which is the application's business.

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::{BufWriter, Seek, Write};
use std::path::{Path, PathBuf};

use chrono::{DateTime, SecondsFormat, Utc};
use rust_decimal::Decimal;
use serde::Serialize;
use sha2::{Digest, Sha256};
use sightline_api::CancelToken;
use sightline_store::zone_names::local_seconds;
use sightline_store::{HistoryEntry, StoredPost, Tz};
use ts_rs::TS;
use zip::write::SimpleFileOptions;
use zip::ZipWriter;

use crate::errors::CommandError;

pub mod gather;
mod notes;
mod report;
mod spreadsheet;
pub mod verify;
mod zip_read;

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
    /// Every request the bundle carries, with its capture.
    pub requests: Vec<BundleRequest>,
    /// Every post, with its note and tags.
    pub posts: Vec<BundlePost>,
    /// What its requests cost, from the ledger.
    pub cost: BundleCost,
    /// The display zone: local times in the bundle are in it, each labelled with it.
    pub zone: Tz,
    /// The version of Sightline that wrote the bundle.
    pub app_version: String,
    /// When the bundle was gathered.
    pub created_at: DateTime<Utc>,
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
    },
    /// Stopped by the user; nothing is left behind.
    Cancelled,
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

/// Hashes and counts what passes through to the ZIP entry.
struct Hashing<'w, W: Write> {
    inner: &'w mut W,
    digest: Sha256,
    bytes: u64,
}

impl<'w, W: Write> Hashing<'w, W> {
    fn new(inner: &'w mut W) -> Self {
        Self {
            inner,
            digest: Sha256::new(),
            bytes: 0,
        }
    }

    fn finish(self, path: &str) -> BundleFile {
        BundleFile {
            path: path.to_owned(),
            bytes: self.bytes,
            sha256: hex(&self.digest.finalize()),
        }
    }
}

impl<W: Write> Write for Hashing<'_, W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.digest.update(&buf[..n]);
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// The ZIP being written, with the list of what went in.
struct Writer<W: Write + Seek> {
    zip: ZipWriter<W>,
    files: Vec<BundleFile>,
    /// Every entry's time: when the bundle was made, in the display zone (ZIP times have none).
    modified: zip::DateTime,
}

impl<W: Write + Seek> Writer<W> {
    fn file(
        &mut self,
        path: &str,
        write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        let options = SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .last_modified_time(self.modified)
            .large_file(false);
        self.zip.start_file(path, options)?;
        let mut out = std::io::BufWriter::with_capacity(64 * 1024, Hashing::new(&mut self.zip));
        write(&mut out)?;
        let hashing = out.into_inner().map_err(|e| e.into_error())?;
        self.files.push(hashing.finish(path));
        Ok(())
    }
}

fn io_error(path: &Path, error: impl std::fmt::Display) -> CommandError {
    CommandError::file(format!(
        "The evidence bundle could not be written to {}: {error}",
        path.display()
    ))
}

/// Writes `bundle` as a ZIP at `path`, calling `progress` as it goes. The ZIP is written under
/// a temporary name beside `path` and renamed at the end, so a cancel or a failure leaves
/// nothing; a cancel is seen between any two files or posts.
pub async fn write_bundle(
    bundle: &Bundle,
    bodies: &impl ResponseBodies,
    path: &Path,
    progress: &mut (dyn FnMut(BundleProgress) + Send),
    cancel: &CancelToken,
) -> Result<BundleOutcome, CommandError> {
    let partial = partial_path(path);
    let result = write_to(bundle, bodies, &partial, progress, cancel).await;
    match result {
        Ok(Some((files, responses))) => {
            std::fs::rename(&partial, path).map_err(|error| {
                let _ = std::fs::remove_file(&partial);
                io_error(path, error)
            })?;
            let bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
            Ok(BundleOutcome::Written {
                path: path.display().to_string(),
                files,
                posts: count(bundle.posts.len()),
                responses,
                bytes,
            })
        }
        Ok(None) => {
            let _ = std::fs::remove_file(&partial);
            Ok(BundleOutcome::Cancelled)
        }
        Err(error) => {
            let _ = std::fs::remove_file(&partial);
            Err(error)
        }
    }
}

/// `.<name>.partial` beside the bundle: hidden, and never mistaken for a finished one.
fn partial_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "bundle.zip".into());
    path.with_file_name(format!(".{name}.partial"))
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Posts written between two progress reports (and cancel checks).
const POST_STEP: usize = 250;

/// Writes one file's content into the ZIP.
type FileWriter<'b> = Box<dyn Fn(&mut dyn Write) -> std::io::Result<()> + 'b>;

/// Writes everything; `Ok(None)` when cancelled, else the number of files and of responses.
async fn write_to(
    bundle: &Bundle,
    bodies: &impl ResponseBodies,
    partial: &Path,
    progress: &mut (dyn FnMut(BundleProgress) + Send),
    cancel: &CancelToken,
) -> Result<Option<(u32, u32)>, CommandError> {
    let fail = |error: std::io::Error| io_error(partial, error);
    let file = File::create(partial).map_err(fail)?;
    let mut writer = Writer {
        zip: ZipWriter::new(BufWriter::with_capacity(256 * 1024, file)),
        files: Vec::new(),
        modified: zip_time(bundle.created_at, bundle.zone),
    };
    // Responses, then the posts in steps (for posts.jsonl, then posts.csv), then five files.
    let post_steps = bundle.posts.len().div_ceil(POST_STEP);
    let total = count(bundle.requests.len() + 2 * post_steps + 5);
    let mut done = 0u32;
    progress(BundleProgress {
        done,
        total,
        file: String::new(),
    });
    let mut step = |done: &mut u32, file: &str| {
        *done += 1;
        progress(BundleProgress {
            done: *done,
            total,
            file: file.to_owned(),
        });
    };

    let mut body_files: Vec<Option<String>> = Vec::with_capacity(bundle.requests.len());
    for (index, request) in bundle.requests.iter().enumerate() {
        if cancel.is_cancelled() {
            return Ok(None);
        }
        let name = match bodies.body(request.entry.id).await? {
            Some(bytes) => {
                let name = response_file_name(index, request);
                writer
                    .file(&name, |out| out.write_all(&bytes))
                    .map_err(fail)?;
                Some(name)
            }
            None => None,
        };
        step(&mut done, name.as_deref().unwrap_or("responses/"));
        body_files.push(name);
    }
    let responses = count(body_files.iter().flatten().count());

    // posts.jsonl, then posts.csv, each streamed into its entry in steps, so a cancel is seen
    // in time and no copy of either is held in memory.
    let captures = bundle.captures();
    let written = writer.file(POSTS_JSONL, |out| {
        for chunk in bundle.posts.chunks(POST_STEP) {
            stop_if(cancel)?;
            for post in chunk {
                post_line(post, out)?;
            }
            step(&mut done, POSTS_JSONL);
        }
        Ok(())
    });
    if stopped(written, cancel).map_err(fail)? {
        return Ok(None);
    }
    let written = writer.file(POSTS_CSV, |out| {
        let mut csv = spreadsheet::PostsCsv::new(bundle.zone, out)?;
        for chunk in bundle.posts.chunks(POST_STEP) {
            stop_if(cancel)?;
            for post in chunk {
                let capture = post
                    .found_by
                    .and_then(|id| captures.get(&id).copied().flatten());
                csv.row(post, capture)?;
            }
            step(&mut done, POSTS_CSV);
        }
        csv.finish()
    });
    if stopped(written, cancel).map_err(fail)? {
        return Ok(None);
    }

    let others: [(&str, FileWriter); 3] = [
        (NOTES_MD, Box::new(|out| notes::write(bundle, out))),
        (
            PROVENANCE_JSONL,
            Box::new(|out| provenance_lines(bundle, &body_files, out)),
        ),
        (
            REPORT_HTML,
            Box::new(|out| report::write(bundle, &body_files, out)),
        ),
    ];
    for (name, write) in others {
        if cancel.is_cancelled() {
            return Ok(None);
        }
        writer.file(name, |out| write(out)).map_err(fail)?;
        step(&mut done, name);
    }

    let listed = writer.files.clone();
    writer
        .file(MANIFEST_JSON, |out| {
            manifest(bundle, responses, &listed, out)
        })
        .map_err(fail)?;
    step(&mut done, MANIFEST_JSON);
    let summed = writer.files.clone();
    writer
        .file(SHA256SUMS, |out| {
            for file in &summed {
                writeln!(out, "{}  {}", file.sha256, file.path)?;
            }
            Ok(())
        })
        .map_err(fail)?;
    step(&mut done, SHA256SUMS);

    if cancel.is_cancelled() {
        return Ok(None);
    }
    let files = count(writer.files.len());
    let out = writer.zip.finish().map_err(|e| fail(e.into()))?;
    let file = out.into_inner().map_err(|e| fail(e.into_error()))?;
    file.sync_all().map_err(fail)?;
    Ok(Some((files, responses)))
}

/// `t` in `zone` as a ZIP entry's time (two-second steps, years 1980 to 2107).
fn zip_time(t: DateTime<Utc>, zone: Tz) -> zip::DateTime {
    use chrono::{Datelike, Timelike};
    let local = t.with_timezone(&zone);
    let narrow = |n: u32| u8::try_from(n).unwrap_or(0);
    zip::DateTime::from_date_and_time(
        u16::try_from(local.year()).unwrap_or(1980),
        narrow(local.month()),
        narrow(local.day()),
        narrow(local.hour()),
        narrow(local.minute()),
        narrow(local.second().min(58)),
    )
    .unwrap_or_default()
}

/// Stops a file being written when the export is cancelled.
fn stop_if(cancel: &CancelToken) -> std::io::Result<()> {
    if cancel.is_cancelled() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::Interrupted,
            "cancelled",
        ));
    }
    Ok(())
}

/// Whether a file stopped because of a cancel (`Ok(true)`), was written, or failed.
fn stopped(written: std::io::Result<()>, cancel: &CancelToken) -> std::io::Result<bool> {
    match written {
        Ok(()) => Ok(false),
        Err(error) if error.kind() == std::io::ErrorKind::Interrupted && cancel.is_cancelled() => {
            Ok(true)
        }
        Err(error) => Err(error),
    }
}

/// One line of `posts.jsonl`: the archived post, its raw record as the service sent it, and
/// the investigation's note and tags.
fn post_line(post: &BundlePost, out: &mut dyn Write) -> std::io::Result<()> {
    #[derive(Serialize)]
    struct Line<'p> {
        #[serde(flatten)]
        post: &'p StoredPost,
        raw: serde_json::Value,
        note: &'p str,
        tags: &'p [String],
        found_by_history_id: Option<i64>,
    }
    let raw = serde_json::from_str(&post.post.raw_json)
        .unwrap_or_else(|_| serde_json::Value::String(post.post.raw_json.clone()));
    serde_json::to_writer(
        &mut *out,
        &Line {
            post: &post.post,
            raw,
            note: &post.note,
            tags: &post.tags,
            found_by_history_id: post.found_by,
        },
    )?;
    out.write_all(b"\n")
}

/// `provenance.jsonl`: one record per request, as captured; a request made before provenance
/// was kept says so, with no hash.
fn provenance_lines(
    bundle: &Bundle,
    body_files: &[Option<String>],
    out: &mut dyn Write,
) -> std::io::Result<()> {
    #[derive(Serialize)]
    struct Line<'r> {
        history_id: i64,
        request_id: &'r str,
        operation: &'r str,
        parameters: serde_json::Value,
        request_status: &'r str,
        started_at_utc: String,
        captured_at_ms: Option<i64>,
        captured_at_utc: Option<String>,
        captured_at_local: Option<String>,
        service_address: Option<&'r str>,
        response_url: Option<&'r str>,
        http_status: Option<u16>,
        from_cache: Option<bool>,
        billing_headers: Option<&'r BTreeMap<String, String>>,
        app_version: Option<&'r str>,
        sha256: Option<&'r str>,
        body_file: Option<&'r str>,
        /// `false` for a response here only because it brought posts added on their own
        /// (its cost is not the bundle's).
        in_cost: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        note: Option<&'static str>,
    }
    for (request, body_file) in bundle.requests.iter().zip(body_files) {
        let entry = &request.entry;
        let capture = request.capture.as_ref();
        let captured_at = capture.map(|c| c.captured_at);
        let line = Line {
            history_id: entry.id,
            request_id: &entry.request_id,
            operation: &entry.operation,
            parameters: serde_json::from_str(&entry.params_json)
                .unwrap_or_else(|_| serde_json::Value::String(entry.params_json.clone())),
            request_status: entry.status.as_str(),
            started_at_utc: utc_iso(entry.started_at),
            captured_at_ms: captured_at.map(|t| t.timestamp_millis()),
            captured_at_utc: captured_at.map(utc_iso),
            captured_at_local: captured_at.map(|t| local_seconds(t, bundle.zone)),
            service_address: capture.map(|c| c.service_address.as_str()),
            response_url: capture.map(|c| c.response_url.as_str()),
            http_status: capture.map(|c| c.http_status),
            from_cache: capture.map(|c| c.from_cache),
            billing_headers: capture.map(|c| &c.billing_headers),
            app_version: capture.map(|c| c.app_version.as_str()),
            sha256: capture.map(|c| c.sha256.as_str()),
            body_file: body_file.as_deref(),
            in_cost: !request.only_brought_posts,
            note: capture
                .is_none()
                .then_some("captured before provenance was kept"),
        };
        serde_json::to_writer(&mut *out, &line)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// Identifies a file as a bundle, and its layout's version.
pub const FORMAT: &str = "sightline-evidence-bundle";
/// The layout's version, raised when files or their fields change meaning.
pub const FORMAT_VERSION: u32 = 1;

/// `manifest.json`: who made the bundle, when, of what, and every other file with its size and
/// hash (`SHA256SUMS` lists the same files plus this one).
fn manifest(
    bundle: &Bundle,
    responses: u32,
    files: &[BundleFile],
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let manifest = serde_json::json!({
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "app": "Sightline",
        "app_version": bundle.app_version,
        "created_at_utc": utc_iso(bundle.created_at),
        "created_at_local": local_seconds(bundle.created_at, bundle.zone),
        "display_zone": bundle.zone.name(),
        "investigation": {
            "id": bundle.investigation_id,
            "name": bundle.name,
            "description": bundle.description,
        },
        "counts": {
            "requests": bundle.requests.len(),
            "responses": responses,
            "posts": bundle.posts.len(),
        },
        "cost": {
            "total": bundle.cost.total.to_string(),
            "currency": bundle.cost.currency,
        },
        "files": files,
    });
    serde_json::to_writer_pretty(&mut *out, &manifest)?;
    out.write_all(b"\n")
}
