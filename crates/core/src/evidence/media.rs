//! The case's media in the bundle: each picture and video kept of its posts under `media/`,
//! named by the SHA-256 of its bytes (`media/<sha256>.<ext>`, once however many posts carry
//! it), listed in the manifest and `SHA256SUMS` like every other file; and `media.jsonl`, one
//! line per media item with its capture record: the address fetched, the HTTP status and
//! every response header as received, when, the size, type, SHA-256 and PDQ hash; a link that
//! had gone (404/410), a fetch given up, a file over the size limit or one still waiting is
//! recorded as such with its time, and has no file.
//!
//! A file is copied from this computer's media folder through a hash: one that no longer
//! hashes to its name (changed on disk) is left out and `media.jsonl` says so, so the bundle
//! never carries bytes under a hash they do not have.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fs::File;
use std::io::{Seek, Write};
use std::path::Path;

use serde::Serialize;
use sha2::{Digest, Sha256};
use sightline_store::zone_names::local_seconds;
use sightline_store::{MediaFile, MediaItemRecord, MediaKind, MediaState};
use zip::write::SimpleFileOptions;
use zip::ZipWriter;

use super::{hex, utc_iso, Bundle, BundleFile};

/// The folder of the media files.
pub const MEDIA_DIR: &str = "media/";
/// Each media item's capture record, one JSON line each.
pub const MEDIA_JSONL: &str = "media.jsonl";

/// The file name a kept file has in the bundle: `media/<sha256>.<ext>`, the extension the
/// content type calls for (`bin` for one not known).
pub fn media_file_name(file: &MediaFile) -> String {
    format!(
        "{MEDIA_DIR}{}.{}",
        file.sha256,
        extension(&file.content_type)
    )
}

/// The usual extension of a picture's or video's content type.
pub fn extension(content_type: &str) -> &'static str {
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    match essence.as_str() {
        "image/jpeg" | "image/jpg" | "image/pjpeg" => "jpg",
        "image/png" => "png",
        "image/gif" => "gif",
        "image/webp" => "webp",
        "image/avif" => "avif",
        "image/heic" => "heic",
        "video/mp4" => "mp4",
        "video/webm" => "webm",
        "video/quicktime" => "mov",
        "application/x-mpegurl" | "application/vnd.apple.mpegurl" => "m3u8",
        _ => "bin",
    }
}

/// What became of the case's media files in the bundle.
#[derive(Debug, Default)]
pub struct MediaWritten {
    /// Each file written, by SHA-256: its name in the bundle.
    pub files: HashMap<String, String>,
    /// Files kept by Sightline that are not in the bundle, by SHA-256: why, in words.
    pub left_out: BTreeMap<String, String>,
}

impl MediaWritten {
    /// The bundle file of a kept file, when it is in the bundle.
    pub fn file(&self, file: Option<&MediaFile>) -> Option<&str> {
        file.and_then(|f| self.files.get(&f.sha256))
            .map(String::as_str)
    }
}

/// The distinct files of the bundle's media (each item's file and a video's poster), in the
/// order first met.
pub fn distinct_files(bundle: &Bundle) -> Vec<&MediaFile> {
    let mut seen = BTreeSet::new();
    bundle
        .media
        .iter()
        .filter(|item| item.state == MediaState::Kept)
        .flat_map(|item| [item.file.as_ref(), item.poster.as_ref()])
        .flatten()
        .filter(|file| seen.insert(file.sha256.as_str()))
        .collect()
}

/// Copies one kept file into the ZIP as a stored entry (pictures and videos are compressed
/// already), through a hash: `Ok(Some(file))` when it went in with the hash it is named by,
/// `Ok(None)` (the entry taken back, `why` set) when the file is missing or no longer holds
/// those bytes.
pub(super) fn copy_file<W: Write + Seek>(
    zip: &mut ZipWriter<W>,
    modified: zip::DateTime,
    name: &str,
    file: &MediaFile,
    source: Option<&Path>,
    why: &mut Option<String>,
) -> std::io::Result<Option<BundleFile>> {
    let Some(source) = source else {
        *why = Some("its file is no longer in this computer's media folder".into());
        return Ok(None);
    };
    let mut input = match File::open(source) {
        Ok(input) => input,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            *why = Some("its file is no longer in this computer's media folder".into());
            return Ok(None);
        }
        Err(error) => return Err(error),
    };
    let size = input.metadata()?.len();
    let options = SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Stored)
        .last_modified_time(modified)
        .large_file(size >= u64::from(u32::MAX));
    zip.start_file(name, options)?;
    let mut digest = Sha256::new();
    let mut bytes = 0u64;
    let mut buffer = vec![0u8; 256 * 1024];
    loop {
        let n = std::io::Read::read(&mut input, &mut buffer)?;
        if n == 0 {
            break;
        }
        digest.update(&buffer[..n]);
        zip.write_all(&buffer[..n])?;
        bytes += n as u64;
    }
    let sha256 = hex(&digest.finalize());
    if sha256 != file.sha256 {
        zip.abort_file()?;
        *why = Some(format!(
            "its file in this computer's media folder no longer holds the bytes kept \
             (it hashes to {sha256})"
        ));
        return Ok(None);
    }
    Ok(Some(BundleFile {
        path: name.to_owned(),
        bytes,
        sha256,
    }))
}

/// A kept file as `media.jsonl` describes it.
#[derive(Serialize)]
struct FileLine<'f> {
    /// Its name in the bundle; `None` when it is not in it (see `left_out`).
    bundle_file: Option<&'f str>,
    sha256: &'f str,
    size: i64,
    content_type: &'f str,
    pdq: Option<&'f str>,
    pdq_quality: Option<i64>,
    width: Option<i64>,
    height: Option<i64>,
    first_kept_at_utc: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    left_out: Option<&'f str>,
}

fn file_line<'f>(file: &'f MediaFile, written: &'f MediaWritten) -> FileLine<'f> {
    FileLine {
        bundle_file: written.file(Some(file)),
        sha256: &file.sha256,
        size: file.size,
        content_type: &file.content_type,
        pdq: file.pdq.as_deref(),
        pdq_quality: file.pdq_quality,
        width: file.width,
        height: file.height,
        first_kept_at_utc: utc_iso(file.first_kept_at),
        left_out: written.left_out.get(&file.sha256).map(String::as_str),
    }
}

/// What a state means, in words, for a reader of `media.jsonl`.
pub fn state_words(item: &MediaItemRecord) -> String {
    let status = item
        .http_status
        .map(|s| format!(" (HTTP {s})"))
        .unwrap_or_default();
    let reason = item
        .reason
        .as_deref()
        .map(|r| format!(": {r}"))
        .unwrap_or_default();
    match item.state {
        MediaState::Kept => "fetched and kept".into(),
        MediaState::Gone => format!("the link had gone{status}; nothing was kept"),
        MediaState::Failed => format!("not kept: the fetch was given up{status}{reason}"),
        MediaState::TooLarge => {
            format!("not kept: larger than the size limit set in Sightline{reason}")
        }
        MediaState::Waiting => "not fetched yet when the bundle was made".into(),
    }
}

/// `media.jsonl`: one line per media item of the bundle's posts, in post order.
pub(super) fn write_lines(
    bundle: &Bundle,
    written: &MediaWritten,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    #[derive(Serialize)]
    struct Line<'i> {
        post_id: &'i str,
        position: i64,
        kind: MediaKind,
        source_url: &'i str,
        state: MediaState,
        in_words: String,
        http_status: Option<i64>,
        response_headers: Option<&'i [(String, String)]>,
        fetched_at_utc: Option<String>,
        fetched_at_local: Option<String>,
        queued_at_utc: String,
        attempts: i64,
        reason: Option<&'i str>,
        file: Option<FileLine<'i>>,
        poster_url: Option<&'i str>,
        poster: Option<FileLine<'i>>,
    }
    for item in &bundle.media {
        let kept = item.state == MediaState::Kept;
        let line = Line {
            post_id: &item.post_id,
            position: item.position,
            kind: item.kind,
            source_url: &item.source_url,
            state: item.state,
            in_words: state_words(item),
            http_status: item.http_status,
            response_headers: item.response_headers.as_deref(),
            fetched_at_utc: item.fetched_at.map(utc_iso),
            fetched_at_local: item.fetched_at.map(|t| local_seconds(t, bundle.zone)),
            queued_at_utc: utc_iso(item.queued_at),
            attempts: item.attempts,
            reason: item.reason.as_deref(),
            file: item
                .file
                .as_ref()
                .filter(|_| kept)
                .map(|f| file_line(f, written)),
            poster_url: item.poster_url.as_deref(),
            poster: item
                .poster
                .as_ref()
                .filter(|_| kept)
                .map(|f| file_line(f, written)),
        };
        serde_json::to_writer(&mut *out, &line)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// The media counts the manifest states.
pub(super) fn manifest_part(bundle: &Bundle, written: &MediaWritten) -> serde_json::Value {
    let count = |state: MediaState| bundle.media.iter().filter(|i| i.state == state).count();
    serde_json::json!({
        "file": MEDIA_JSONL,
        "folder": MEDIA_DIR,
        "items": bundle.media.len(),
        "kept": count(MediaState::Kept),
        "gone": count(MediaState::Gone),
        "failed": count(MediaState::Failed),
        "too_large": count(MediaState::TooLarge),
        "waiting": count(MediaState::Waiting),
        "files": written.files.len(),
        "files_left_out": written
            .left_out
            .iter()
            .map(|(sha256, why)| serde_json::json!({"sha256": sha256, "why": why}))
            .collect::<Vec<_>>(),
    })
}
