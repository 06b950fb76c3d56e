//! "Export as web archive": an investigation as a WACZ 1.1.1 file, the format ReplayWeb.page
//! opens and `wacz validate` checks.
//!
//! * `archive/data.warc.gz` (`wacz/warc.rs`): a `warcinfo` record saying who collected the
//!   case, with which installation, tool and system, and how each record was made; for every
//!   captured response, a `request` record (method, the URL that answered, the headers Sightline
//!   sends and a POST's body; never the `Authorization` header, which carries the key) and a
//!   `response` record (status, every header as received, the exact bytes received), linked by
//!   `WARC-Concurrent-To`; each post's evidence card as a `resource` record (`wacz/card.rs`,
//!   inert HTML). Captures made before Sightline kept every response header (migration 0017)
//!   have only their billing headers in their `response` record; `warcinfo` says which. The
//!   records are made in `wacz/exchange.rs` and `warcinfo` in `wacz/info.rs`.
//! * the posts' pictures and videos (`wacz/media.rs`): each kept file as a `response` record
//!   for its source address with the status and headers received and the exact bytes kept
//!   (streamed from the media folder, never held whole), so a replay of that address shows
//!   it; a gone link as its status with no body; a video's still as a `resource` record.
//! * `indexes/index.cdxj` and `pages/pages.jsonl` (one page per card) (`wacz/index.rs`).
//! * `datapackage.json` and `datapackage-digest.json`, signed (`wacz/package.rs`: the signing
//!   spec's ECDSA with a key derived from this installation's Ed25519 identity, and the
//!   identity's own signatures beside it).
//!
//! Written under a temporary name and renamed at the end, with progress and cancel as the
//! evidence bundle's export, so a cancel or a failure leaves nothing.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Seek, Write};
use std::path::{Path, PathBuf};

use chrono::{DateTime, SecondsFormat, Utc};
use serde::Serialize;
use sha2::{Digest, Sha256};
use sightline_api::CancelToken;
use ts_rs::TS;
use zip::write::SimpleFileOptions;
use zip::ZipWriter;

use crate::errors::CommandError;
use crate::evidence::write::count;
use crate::evidence::{hex, Bundle, BundleProgress, CaptureRecord, ResponseBodies};
use crate::signing::Signer;
use crate::state::AppState;
use sightline_store::custody::CustodyAction;

mod card;
mod exchange;
pub mod index;
mod info;
mod media;
pub mod package;
pub mod warc;

use exchange::exchange;
use index::Entry;
use info::warcinfo;
use warc::{Kind, Record, WarcFile};

/// The WARC file's name inside the archive.
pub const WARC_NAME: &str = "data.warc.gz";
/// Its path.
pub const WARC_PATH: &str = "archive/data.warc.gz";
/// The index's path.
pub const INDEX_PATH: &str = "indexes/index.cdxj";
/// The page list's path.
pub const PAGES_PATH: &str = "pages/pages.jsonl";
/// The manifest's path.
pub const DATAPACKAGE: &str = "datapackage.json";
/// The manifest's signed hash.
pub const DATAPACKAGE_DIGEST: &str = "datapackage-digest.json";

/// A card's address: under `.invalid`, a name reserved never to resolve (RFC 2606), so it
/// names the card in the archive and can reach nothing outside it.
pub const CARD_ORIGIN: &str = "https://sightline.invalid";

/// Posts written between two progress reports (and cancel checks).
const POST_STEP: usize = 250;

/// Who makes the archive, besides its content.
pub struct Collector<'a> {
    /// This installation's signing identity.
    pub signer: &'a Signer,
    /// "Collected by", from Settings.
    pub name: Option<String>,
    /// The operating system, in words.
    pub os: String,
}

/// How an export ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(
    tag = "outcome",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
#[ts(export)]
pub enum WaczOutcome {
    /// The archive is at `path`.
    Written {
        /// Where it was written.
        path: String,
        /// Post cards in it.
        posts: u32,
        /// Responses in it, each with its request.
        responses: u32,
        /// Its size, in bytes.
        bytes: u64,
        /// The fingerprint of the installation key that signed it.
        signed_by: String,
    },
    /// Stopped by the user; nothing is left behind.
    Cancelled,
}

/// The archive's file name without its extension.
pub fn file_name(bundle: &Bundle) -> String {
    format!(
        "sightline-web-archive-{}",
        crate::export::file_stem(&bundle.name, "selection")
    )
}

/// A post card's URL in the archive.
pub fn card_url(bundle: &Bundle, post_id: &str) -> String {
    match bundle.investigation_id {
        Some(id) => format!("{CARD_ORIGIN}/investigations/{id}/posts/{post_id}"),
        None => format!("{CARD_ORIGIN}/selection/posts/{post_id}"),
    }
}

/// The investigation `investigation_id` as the app exports it: everything it holds, gathered
/// from `store` now, in the display zone.
pub async fn gather(
    store: &sightline_store::Store,
    investigation_id: i64,
) -> Result<Bundle, CommandError> {
    crate::evidence::gather::investigation(
        store,
        investigation_id,
        crate::zone::time_zone(),
        crate::provenance::APP_VERSION,
    )
    .await
}

/// The app's export: writes `bundle` at `path` signed with this installation's identity, under
/// the collector named in Settings, and records it in the investigation's custody log once the
/// file is written.
pub async fn export(
    state: &AppState,
    store: &sightline_store::Store,
    bundle: &Bundle,
    path: &Path,
    progress: &mut (dyn FnMut(BundleProgress) + Send),
    cancel: &CancelToken,
) -> Result<WaczOutcome, CommandError> {
    let signer = crate::signing::signer(state).await?;
    let collector = Collector {
        signer: &signer,
        name: state.settings().collected_by,
        os: crate::evidence::seal::os_in_words(),
    };
    let media = crate::media::files::MediaFolder::new(&state.data_dir);
    let bodies = crate::evidence::gather::StoredBodies(store, &media);
    let outcome = write_wacz(bundle, &bodies, &collector, path, progress, cancel).await?;
    if let (WaczOutcome::Written { path, bytes, .. }, Some(id)) =
        (&outcome, bundle.investigation_id)
    {
        let name = Path::new(path)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let sha256 = crate::evidence::seal::file_sha256(Path::new(path))
            .map_err(|error| io_error(Path::new(path), error))?;
        crate::custody::record(
            store,
            id,
            CustodyAction::WaczExported,
            vec![format!("file:{name}")],
            &format!("web archive {name}, {bytes} bytes, sha256 {sha256}"),
        )
        .await?;
    }
    Ok(outcome)
}

fn io_error(path: &Path, error: impl std::fmt::Display) -> CommandError {
    CommandError::file(format!(
        "The web archive could not be written to {}: {error}",
        path.display()
    ))
}

/// `.<name>.partial` beside the archive.
fn partial_path(path: &Path) -> PathBuf {
    crate::evidence::write::partial_beside(path, "archive.wacz")
}

/// Writes `bundle` as a WACZ at `path`, calling `progress` as it goes; a cancel is seen
/// between any two responses or steps of posts.
pub async fn write_wacz(
    bundle: &Bundle,
    bodies: &impl ResponseBodies,
    collector: &Collector<'_>,
    path: &Path,
    progress: &mut (dyn FnMut(BundleProgress) + Send),
    cancel: &CancelToken,
) -> Result<WaczOutcome, CommandError> {
    let partial = partial_path(path);
    let result = write_to(bundle, bodies, collector, &partial, progress, cancel).await;
    match result {
        Ok(Some((posts, responses))) => {
            std::fs::rename(&partial, path).map_err(|error| {
                let _ = std::fs::remove_file(&partial);
                io_error(path, error)
            })?;
            Ok(WaczOutcome::Written {
                path: path.display().to_string(),
                posts,
                responses,
                bytes: std::fs::metadata(path).map(|m| m.len()).unwrap_or(0),
                signed_by: collector.signer.public_key().fingerprint(),
            })
        }
        Ok(None) => {
            let _ = std::fs::remove_file(&partial);
            Ok(WaczOutcome::Cancelled)
        }
        Err(error) => {
            let _ = std::fs::remove_file(&partial);
            Err(error)
        }
    }
}

/// Hashes and counts what passes through to a ZIP entry.
struct Hashing<W: Write> {
    inner: W,
    digest: Sha256,
    bytes: u64,
}

impl<W: Write> Write for Hashing<W> {
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

/// Writes one whole file into the ZIP and says what it is.
fn entry<W: Write + Seek>(
    zip: &mut ZipWriter<W>,
    path: &str,
    stored: bool,
    bytes: &[u8],
    modified: zip::DateTime,
) -> std::io::Result<package::Resource> {
    let method = if stored {
        zip::CompressionMethod::Stored
    } else {
        zip::CompressionMethod::Deflated
    };
    let options = SimpleFileOptions::default()
        .compression_method(method)
        .last_modified_time(modified);
    zip.start_file(path, options)?;
    zip.write_all(bytes)?;
    Ok(resource(
        path,
        &hex(&Sha256::digest(bytes)),
        bytes.len() as u64,
    ))
}

fn resource(path: &str, sha256: &str, bytes: u64) -> package::Resource {
    package::Resource {
        name: path.rsplit('/').next().unwrap_or(path).to_owned(),
        path: path.to_owned(),
        hash: format!("sha256:{sha256}"),
        bytes,
    }
}

/// Writes everything; `Ok(None)` when cancelled, else the posts and responses written.
async fn write_to(
    bundle: &Bundle,
    bodies: &impl ResponseBodies,
    collector: &Collector<'_>,
    partial: &Path,
    progress: &mut (dyn FnMut(BundleProgress) + Send),
    cancel: &CancelToken,
) -> Result<Option<(u32, u32)>, CommandError> {
    let fail = |error: std::io::Error| io_error(partial, error);
    let file = File::create(partial).map_err(fail)?;
    let mut zip = ZipWriter::new(BufWriter::with_capacity(256 * 1024, file));
    let created = bundle.created_at;
    let modified = zip_time(created);

    let post_steps = bundle.posts.len().div_ceil(POST_STEP);
    let total = count(bundle.requests.len() + post_steps + 5);
    let mut done = 0u32;
    progress(BundleProgress {
        done,
        total,
        file: WARC_PATH.into(),
    });
    let mut step = |done: &mut u32, file: &str| {
        *done += 1;
        progress(BundleProgress {
            done: *done,
            total,
            file: file.to_owned(),
        });
    };

    // The WARC is stored, not deflated: its records are gzip members a replayer seeks into.
    let options = SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Stored)
        .last_modified_time(modified)
        .large_file(true);
    zip.start_file(WARC_PATH, options)
        .map_err(|e| fail(e.into()))?;
    let (warc_sha256, warc_bytes, responses, mut lines, pages) = {
        let mut out = Hashing {
            inner: BufWriter::with_capacity(256 * 1024, &mut zip),
            digest: Sha256::new(),
            bytes: 0,
        };
        let mut warc = WarcFile::default();
        let mut lines: Vec<String> = Vec::with_capacity(bundle.requests.len() + bundle.posts.len());
        let unkept = bundle
            .requests
            .iter()
            .filter(|r| r.capture.is_none())
            .count();
        // Read first: `warcinfo` says which records carry every header and which do not.
        let mut received = HashMap::new();
        for request in bundle.requests.iter().filter(|r| r.capture.is_some()) {
            if let Some(headers) = bodies.headers(request.entry.id).await? {
                received.insert(request.entry.id, headers);
            }
        }
        let billing_only = bundle
            .requests
            .iter()
            .filter(|r| r.capture.is_some() && !received.contains_key(&r.entry.id))
            .count();
        warc.write(&warcinfo(bundle, collector, unkept, billing_only), &mut out)
            .map_err(fail)?;

        let mut responses = 0usize;
        for request in &bundle.requests {
            if cancel.is_cancelled() {
                return Ok(None);
            }
            if let Some(capture) = &request.capture {
                if let Some(body) = bodies.body(request.entry.id).await? {
                    let headers = received.get(&request.entry.id).map(Vec::as_slice);
                    exchange(
                        request, capture, headers, &body, &mut warc, &mut out, &mut lines,
                    )
                    .map_err(fail)?;
                    responses += 1;
                }
            }
            step(&mut done, WARC_PATH);
        }
        if cancel.is_cancelled() {
            return Ok(None);
        }
        media::write(bundle, bodies, &mut warc, &mut out, &mut lines).map_err(fail)?;
        step(&mut done, WARC_PATH);

        let captures: HashMap<i64, Option<&CaptureRecord>> = bundle.captures();
        let mut pages = vec![index::pages_header()];
        for chunk in bundle.posts.chunks(POST_STEP) {
            if cancel.is_cancelled() {
                return Ok(None);
            }
            for post in chunk {
                let capture = post
                    .found_by
                    .and_then(|id| captures.get(&id).copied().flatten());
                let url = card_url(bundle, &post.post.id);
                let record = Record {
                    kind: Kind::Resource,
                    id: warc::record_id(),
                    date: created,
                    target: Some(url.clone()),
                    content_type: "text/html; charset=utf-8".into(),
                    payload_from: Some(0),
                    fields: vec![("WARC-Sightline-Post-Id".into(), post.post.id.clone())],
                    block: card::page(post, capture, bundle.zone),
                };
                let written = warc.write(&record, &mut out).map_err(fail)?;
                let entry = Entry {
                    url: &url,
                    date: created,
                    mime: Some("text/html"),
                    status: None,
                    method: None,
                };
                lines.push(index::cdxj_line(&entry, &written, WARC_NAME));
                pages.push(index::page_line(
                    &post.post.id,
                    &url,
                    &card::title(post),
                    created,
                ));
            }
            step(&mut done, WARC_PATH);
        }
        out.flush().map_err(fail)?;
        let Hashing { digest, bytes, .. } = out;
        (hex(&digest.finalize()), bytes, responses, lines, pages)
    };
    let mut resources = vec![resource(WARC_PATH, &warc_sha256, warc_bytes)];

    index::sort(&mut lines);
    let mut cdxj = lines.join("\n").into_bytes();
    cdxj.push(b'\n');
    resources.push(entry(&mut zip, INDEX_PATH, false, &cdxj, modified).map_err(fail)?);
    step(&mut done, INDEX_PATH);
    let mut jsonl = pages.join("\n").into_bytes();
    jsonl.push(b'\n');
    resources.push(entry(&mut zip, PAGES_PATH, false, &jsonl, modified).map_err(fail)?);
    step(&mut done, PAGES_PATH);

    if cancel.is_cancelled() {
        return Ok(None);
    }
    let created_text = created_text(created);
    let software = format!("Sightline {}", bundle.app_version);
    let about = package::About {
        title: &bundle.name,
        description: &bundle.description,
        created: &created_text,
        software: &software,
        main_page: bundle.posts.first().map(|p| {
            (
                card_url(bundle, &p.post.id),
                created.to_rfc3339_opts(SecondsFormat::Millis, true),
            )
        }),
        collection: collection(bundle, collector),
    };
    let datapackage = package::datapackage(&about, &resources);
    entry(&mut zip, DATAPACKAGE, false, &datapackage, modified).map_err(fail)?;
    step(&mut done, DATAPACKAGE);
    let digest = package::digest(&datapackage, &created_text, &software, collector.signer);
    entry(&mut zip, DATAPACKAGE_DIGEST, false, &digest, modified).map_err(fail)?;
    step(&mut done, DATAPACKAGE_DIGEST);

    let out = zip.finish().map_err(|e| fail(e.into()))?;
    let file = out.into_inner().map_err(|e| fail(e.into_error()))?;
    file.sync_all().map_err(fail)?;
    Ok(Some((count(bundle.posts.len()), count(responses))))
}

/// Sightline's account of the collection, in `datapackage.json` and (as fields) `warcinfo`.
fn collection(bundle: &Bundle, collector: &Collector<'_>) -> serde_json::Value {
    serde_json::json!({
        "investigationId": bundle.investigation_id,
        "collectedBy": collector.name,
        "installationKeyFingerprint": collector.signer.public_key().fingerprint(),
        "tool": format!("Sightline {}", bundle.app_version),
        "operatingSystem": collector.os,
        "displayZone": bundle.zone.name(),
        "posts": bundle.posts.len(),
        "requests": bundle.requests.len(),
    })
}

/// When the archive was made, as `datapackage.json` and `signedData` say it (to the second,
/// the form `wacz validate` compares them in).
pub fn created_text(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// `t` as a ZIP entry's time, in UTC (a WACZ's times are all UTC).
fn zip_time(t: DateTime<Utc>) -> zip::DateTime {
    use chrono::{Datelike, Timelike};
    let narrow = |n: u32| u8::try_from(n).unwrap_or(0);
    zip::DateTime::from_date_and_time(
        u16::try_from(t.year()).unwrap_or(1980),
        narrow(t.month()),
        narrow(t.day()),
        narrow(t.hour()),
        narrow(t.minute()),
        narrow(t.second().min(58)),
    )
    .unwrap_or_default()
}
