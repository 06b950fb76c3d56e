//! Writing a bundle: every file streamed into its ZIP entry through a hash, so the manifest
//! and `SHA256SUMS` list what was written without reading it back; the manifest signed and,
//! when an authority is set, stamped; a temporary file renamed at the end, so a cancel or a
//! failure leaves nothing.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Seek, Write};
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};
use sightline_api::CancelToken;
use sightline_store::Tz;
use zip::write::SimpleFileOptions;
use zip::ZipWriter;

use super::manifest::{self, TokenFiles, Written};
use super::media::{self, MediaWritten, MEDIA_JSONL};
use super::seal::{base64, Seal};
use super::{
    hex, instructions, lines, notes, report, spreadsheet, token_file_name, utc_iso, Bundle,
    BundleFile, BundleOutcome, BundleProgress, ManifestStamp, ResponseBodies, StampState,
    CUSTODY_JSONL, MANIFEST_JSON, MANIFEST_SIG, MANIFEST_TSR, NOTES_MD, POSTS_CSV, POSTS_JSONL,
    PROVENANCE_JSONL, REPORT_HTML, SHA256SUMS, SIGNING_KEY_PEM, TIMESTAMPS_DIR, VERIFY_TXT,
};
use crate::errors::CommandError;

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
    seal: &Seal<'_>,
    path: &Path,
    progress: &mut (dyn FnMut(BundleProgress) + Send),
    cancel: &CancelToken,
) -> Result<BundleOutcome, CommandError> {
    let partial = partial_path(path);
    let result = write_to(bundle, bodies, seal, &partial, progress, cancel).await;
    match result {
        Ok(Some(done)) => {
            std::fs::rename(&partial, path).map_err(|error| {
                let _ = std::fs::remove_file(&partial);
                io_error(path, error)
            })?;
            let bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
            Ok(BundleOutcome::Written {
                path: path.display().to_string(),
                files: done.files,
                posts: count(bundle.posts.len()),
                responses: done.responses,
                bytes,
                manifest_sha256: done.manifest_sha256,
                signed_by: seal.signer.public_key().fingerprint(),
                manifest_stamp: done.manifest_stamp,
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
pub(super) fn partial_path(path: &Path) -> PathBuf {
    partial_beside(path, "bundle.zip")
}

/// `.<name>.partial` beside `path` (`fallback` names it when `path` has no file name): where
/// a bundle or a web archive is written before it is renamed into place.
pub(crate) fn partial_beside(path: &Path, fallback: &str) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| fallback.into());
    path.with_file_name(format!(".{name}.partial"))
}

/// A count as the outcomes carry it (saturating: a count never wraps).
pub(crate) fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Posts written between two progress reports (and cancel checks).
const POST_STEP: usize = 250;

/// Writes one file's content into the ZIP.
type FileWriter<'b> = Box<dyn Fn(&mut dyn Write) -> std::io::Result<()> + 'b>;

/// What a finished write tells its caller.
struct Done {
    files: u32,
    responses: u32,
    manifest_sha256: String,
    manifest_stamp: ManifestStamp,
}

/// Writes everything; `Ok(None)` when cancelled.
async fn write_to(
    bundle: &Bundle,
    bodies: &impl ResponseBodies,
    seal: &Seal<'_>,
    partial: &Path,
    progress: &mut (dyn FnMut(BundleProgress) + Send),
    cancel: &CancelToken,
) -> Result<Option<Done>, CommandError> {
    let fail = |error: std::io::Error| io_error(partial, error);
    let file = File::create(partial).map_err(fail)?;
    let mut writer = Writer {
        zip: ZipWriter::new(BufWriter::with_capacity(256 * 1024, file)),
        files: Vec::new(),
        modified: zip_time(bundle.created_at, bundle.zone),
    };
    // Responses, then the posts in steps (for posts.jsonl, then posts.csv), then each media
    // file, then the fixed files: media.jsonl, notes, provenance, report, custody, tokens,
    // key, VERIFY.txt, manifest, its signature, its token, SHA256SUMS.
    let post_steps = bundle.posts.len().div_ceil(POST_STEP);
    let media_files = media::distinct_files(bundle);
    let total = count(bundle.requests.len() + 2 * post_steps + media_files.len() + 12);
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
                let name = super::response_file_name(index, request);
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
                lines::post_line(post, out)?;
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

    // Each kept picture and video once, by its hash, then every item's capture record.
    let mut media_written = MediaWritten::default();
    for file in media_files {
        if cancel.is_cancelled() {
            return Ok(None);
        }
        let name = media::media_file_name(file);
        let source = bodies.media_path(&file.sha256);
        let mut why = None;
        let copied = media::copy_file(
            &mut writer.zip,
            writer.modified,
            &name,
            file,
            source.as_deref(),
            &mut why,
        )
        .map_err(fail)?;
        match copied {
            Some(written) => {
                writer.files.push(written);
                media_written
                    .files
                    .insert(file.sha256.clone(), name.clone());
            }
            None => {
                let why = why.unwrap_or_else(|| "it could not be read".into());
                media_written.left_out.insert(file.sha256.clone(), why);
            }
        }
        step(&mut done, &name);
    }
    writer
        .file(MEDIA_JSONL, |out| {
            media::write_lines(bundle, &media_written, out)
        })
        .map_err(fail)?;
    step(&mut done, MEDIA_JSONL);

    let token_files = token_files(bundle, &body_files, seal);
    let others: [(&str, FileWriter); 3] = [
        (NOTES_MD, Box::new(|out| notes::write(bundle, out))),
        (
            PROVENANCE_JSONL,
            Box::new(|out| lines::provenance_lines(bundle, &body_files, out)),
        ),
        (
            REPORT_HTML,
            Box::new(|out| report::write(bundle, seal, &body_files, &media_written, out)),
        ),
    ];
    for (name, write) in others {
        if cancel.is_cancelled() {
            return Ok(None);
        }
        writer.file(name, |out| write(out)).map_err(fail)?;
        step(&mut done, name);
    }
    if let Some(log) = &bundle.custody {
        writer
            .file(CUSTODY_JSONL, |out| out.write_all(&log.jsonl))
            .map_err(fail)?;
    }
    step(&mut done, CUSTODY_JSONL);

    // Each capture's token as received, and each distinct chain of certificates once.
    let mut chains_written = std::collections::BTreeSet::new();
    for (request, files) in bundle.requests.iter().zip(&token_files.per_request) {
        let (StampState::Stamped(token), Some(files)) = (&request.stamp, files) else {
            continue;
        };
        writer
            .file(&files.token, |out| out.write_all(&token.reply_der))
            .map_err(fail)?;
        if let Some(certificates) = &files.certificates {
            if chains_written.insert(certificates.clone()) {
                writer
                    .file(certificates, |out| {
                        out.write_all(token.certificates_pem.as_bytes())
                    })
                    .map_err(fail)?;
            }
        }
    }
    if let (Some(ca), Some(name)) = (&seal.authority_ca_pem, &token_files.authority_ca) {
        writer
            .file(name, |out| out.write_all(ca.as_bytes()))
            .map_err(fail)?;
    }
    step(&mut done, TIMESTAMPS_DIR);
    if cancel.is_cancelled() {
        return Ok(None);
    }

    if let Some(package) = &bundle.package {
        for (name, bytes) in &package.files {
            writer
                .file(name, |out| out.write_all(bytes))
                .map_err(fail)?;
        }
    }
    let public_key = seal.signer.public_key();
    writer
        .file(SIGNING_KEY_PEM, |out| {
            out.write_all(public_key.to_pem().as_bytes())
        })
        .map_err(fail)?;
    step(&mut done, SIGNING_KEY_PEM);
    writer
        .file(VERIFY_TXT, |out| {
            instructions::write(bundle, seal, &token_files, &media_written, out)
        })
        .map_err(fail)?;
    step(&mut done, VERIFY_TXT);

    let manifest_bytes = manifest::bytes(
        bundle,
        seal,
        &Written {
            body_files: &body_files,
            token_files: &token_files.per_request,
            responses,
            files: &writer.files,
            media: &media_written,
        },
    );
    writer
        .file(MANIFEST_JSON, |out| out.write_all(&manifest_bytes))
        .map_err(fail)?;
    step(&mut done, MANIFEST_JSON);
    let signature = seal.signer.sign(&manifest_bytes);
    writer
        .file(MANIFEST_SIG, |out| {
            writeln!(out, "{}", base64(&signature.bytes))
        })
        .map_err(fail)?;
    step(&mut done, MANIFEST_SIG);

    let digest: [u8; 32] = Sha256::digest(&manifest_bytes).into();
    let manifest_stamp = match seal.stamper {
        None => ManifestStamp::NotStamped {
            why: "no timestamp authority is set".into(),
        },
        Some(stamper) => match stamper.stamp(&digest).await {
            Ok(token) => {
                writer
                    .file(MANIFEST_TSR, |out| out.write_all(&token.reply_der))
                    .map_err(fail)?;
                ManifestStamp::Stamped {
                    stamped_at: utc_iso(token.stamped_at),
                    authority: token.authority,
                }
            }
            Err(why) => ManifestStamp::NotStamped { why },
        },
    };
    step(&mut done, MANIFEST_TSR);

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
    Ok(Some(Done {
        files,
        responses,
        manifest_sha256: hex(&digest),
        manifest_stamp,
    }))
}

/// Where the tokens go: each stamped capture's, the distinct certificate chains numbered in
/// order of first use, and the authority's CA the user added.
pub(super) struct TokenPlan {
    /// Per request, in the bundle's order.
    pub per_request: Vec<Option<TokenFiles>>,
    /// `timestamps/certificates-<n>.pem` holding the CA from Settings, if one was added.
    pub authority_ca: Option<String>,
}

fn token_files(bundle: &Bundle, body_files: &[Option<String>], seal: &Seal<'_>) -> TokenPlan {
    let mut chains: HashMap<String, String> = HashMap::new();
    let mut numbered = |pem: &str| -> String {
        let next = chains.len() + 1;
        chains
            .entry(pem.to_owned())
            .or_insert_with(|| format!("{TIMESTAMPS_DIR}certificates-{next}.pem"))
            .clone()
    };
    let per_request = bundle
        .requests
        .iter()
        .zip(body_files)
        .map(|(request, body)| match (&request.stamp, body) {
            (StampState::Stamped(token), Some(body)) => Some(TokenFiles {
                token: token_file_name(body),
                certificates: (!token.certificates_pem.trim().is_empty())
                    .then(|| numbered(&token.certificates_pem)),
            }),
            _ => None,
        })
        .collect();
    let authority_ca = seal
        .authority_ca_pem
        .as_deref()
        .filter(|pem| !pem.trim().is_empty())
        .map(|_| {
            let next = chains.len() + 1;
            format!("{TIMESTAMPS_DIR}certificates-{next}.pem")
        });
    TokenPlan {
        per_request,
        authority_ca,
    }
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
