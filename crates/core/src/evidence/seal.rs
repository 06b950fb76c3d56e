//! Who seals a bundle and how: this installation's signer, the collector's name, the tool and
//! the system it ran on, and the timestamp authority asked for a token over the manifest
//! ([`Seal`]); each capture's own token or why there is none ([`StampState`]); and
//! [`export`], the app's export: it records the export in the investigation's custody log
//! (the bundle carries the log with that entry), seals the bundle (signed; its manifest
//! stamped by the authority set in Settings, when it answers), and records it in the store's
//! `bundle_exports` so "Verify a bundle" can later say it is one this computer wrote.

use std::future::Future;
use std::io::Read;
use std::path::Path;
use std::pin::Pin;

use chrono::{DateTime, Utc};
use sha2::{Digest, Sha256};
use sightline_api::CancelToken;
use sightline_store::custody::{self, CustodyAction};
use sightline_store::{BundleExport, Store};

use super::gather::StoredBodies;
use super::{write_bundle, Bundle, BundleOutcome, BundleProgress, CustodyLog};
use crate::errors::CommandError;
use crate::signing::Signer;
use crate::state::AppState;
use crate::timestamps;

/// A timestamp authority's token, as a bundle carries it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaptureToken {
    /// The whole `TimeStampResp` DER, as received (what `openssl ts -verify -in` reads).
    pub reply_der: Vec<u8>,
    /// The time inside it: the authority's clock.
    pub stamped_at: DateTime<Utc>,
    /// The authority, as the token names it.
    pub authority: String,
    /// The certificates the token carries, PEM (may be empty).
    pub certificates_pem: String,
}

/// A capture's trusted timestamp, as the bundle states it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StampState {
    /// The authority's token.
    Stamped(CaptureToken),
    /// Queued: the authority has not answered yet.
    Waiting,
    /// The authority refused it or did not answer with a token: why, in words.
    Failed(String),
    /// None was asked for: no timestamp authority was set.
    NotAsked,
}

/// A future that asks an authority for a token.
pub type StampFuture<'a> = Pin<Box<dyn Future<Output = Result<CaptureToken, String>> + Send + 'a>>;

/// Asks a timestamp authority for a token over a SHA-256 digest (the manifest's, at export).
pub trait ManifestStamper: Sync {
    /// The token over `digest`, or why there is none, in words.
    fn stamp<'a>(&'a self, digest: &'a [u8; 32]) -> StampFuture<'a>;
}

/// What seals a bundle besides its content.
pub struct Seal<'a> {
    /// This installation's signing key: it signs the manifest.
    pub signer: &'a Signer,
    /// "Collected by", from Settings.
    pub collector: Option<String>,
    /// The tool that made it ("Sightline") and its version.
    pub tool: (&'static str, String),
    /// The operating system it ran on, in words.
    pub os: String,
    /// The timestamp authority set in Settings, asked for a token over the manifest.
    pub authority: Option<String>,
    /// The authority's CA the user added in Settings, carried for `openssl ts -verify`.
    pub authority_ca_pem: Option<String>,
    /// Asks `authority` for the manifest's token; `None` when no authority is set.
    pub stamper: Option<&'a dyn ManifestStamper>,
}

/// The operating system in words: `Linux (Debian GNU/Linux 12 (bookworm))`, or the system's
/// name and processor where no release name can be read.
pub fn os_in_words() -> String {
    let name = match std::env::consts::OS {
        "linux" => "Linux",
        "macos" => "macOS",
        "windows" => "Windows",
        other => other,
    };
    let release = std::fs::read_to_string("/etc/os-release")
        .ok()
        .and_then(|text| {
            text.lines()
                .find_map(|line| line.strip_prefix("PRETTY_NAME="))
                .map(|value| value.trim_matches('"').to_owned())
        })
        .filter(|value| !value.is_empty());
    match release {
        Some(release) => format!("{name} ({release}, {})", std::env::consts::ARCH),
        None => format!("{name} ({})", std::env::consts::ARCH),
    }
}

/// SHA-256 of a whole file, lower-case hex.
pub fn file_sha256(path: &Path) -> std::io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    let mut digest = Sha256::new();
    let mut buffer = vec![0u8; 256 * 1024];
    loop {
        let n = file.read(&mut buffer)?;
        if n == 0 {
            break;
        }
        digest.update(&buffer[..n]);
    }
    Ok(super::hex(&digest.finalize()))
}

/// Asks the timestamp authority set in Settings, with a plain client (never the service's).
struct Authority {
    client: reqwest::Client,
    url: String,
}

impl ManifestStamper for Authority {
    fn stamp<'a>(&'a self, digest: &'a [u8; 32]) -> StampFuture<'a> {
        Box::pin(async move {
            timestamps::ask(&self.client, &self.url, digest)
                .await
                .map(|stamp| CaptureToken {
                    reply_der: stamp.reply_der,
                    stamped_at: stamp.stamped_at,
                    authority: stamp.authority,
                    certificates_pem: stamp.certificates_pem,
                })
                .map_err(|error| error.to_string())
        })
    }
}

/// Writes `bundle` at `path` sealed with this installation's identity, as the app exports:
/// an investigation's custody log first takes a "bundle exported" entry naming the file, and
/// the bundle carries the log up to and with it; the manifest is signed, and stamped by the
/// authority set in Settings when it answers; the finished export is recorded in the store
/// (`bundle_exports`), so this computer can later recognise it.
pub async fn export(
    state: &AppState,
    store: &Store,
    mut bundle: Bundle,
    path: &Path,
    progress: &mut (dyn FnMut(BundleProgress) + Send),
    cancel: &CancelToken,
) -> Result<BundleOutcome, CommandError> {
    let signer = crate::signing::signer(state).await?;
    let settings = state.settings();
    if let Some(id) = bundle.investigation_id {
        let what = match bundle.package {
            Some(_) => "case package",
            None => "evidence bundle",
        };
        bundle.custody = Some(custody_with_export(store, id, path, &signer, what).await?);
    }
    let authority = settings.tsa_url.clone().map(|url| Authority {
        client: timestamps::client(),
        url,
    });
    let seal = Seal {
        signer: &signer,
        collector: settings.collected_by,
        tool: ("Sightline", bundle.app_version.clone()),
        os: os_in_words(),
        authority: settings.tsa_url,
        authority_ca_pem: settings.tsa_certificate_pem,
        stamper: authority.as_ref().map(|a| a as &dyn ManifestStamper),
    };
    let media = crate::media::files::MediaFolder::new(&state.data_dir);
    let bodies = StoredBodies(store, &media);
    let written = write_bundle(&bundle, &bodies, &seal, path, progress, cancel).await;
    let finished = matches!(written, Ok(BundleOutcome::Written { .. }));
    if let (Some(id), false) = (bundle.investigation_id, finished) {
        // The log already names this export (the bundle had to carry it) and entries are
        // never taken back: the next entry says that no such file was kept.
        let file = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let why = match &written {
            Ok(_) => "cancelled".to_owned(),
            Err(error) => format!("failed: {error}"),
        };
        crate::custody::record(
            store,
            id,
            CustodyAction::ExportNotFinished,
            vec![format!("file:{file}")],
            &format!("evidence bundle {file} not written: {why}"),
        )
        .await?;
    }
    let outcome = written?;
    if let BundleOutcome::Written {
        manifest_sha256,
        signed_by,
        ..
    } = &outcome
    {
        record(store, &bundle, path, manifest_sha256, signed_by).await?;
    }
    Ok(outcome)
}

/// Records the export in investigation `id`'s custody log and reads the log back with it, as
/// the bundle carries it. Recorded before the file is written, since the bundle must hold it.
async fn custody_with_export(
    store: &Store,
    id: i64,
    path: &Path,
    signer: &Signer,
    what: &str,
) -> Result<CustodyLog, CommandError> {
    let file = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    crate::custody::record(
        store,
        id,
        CustodyAction::BundleExported,
        vec![format!("file:{file}")],
        &format!(
            "{what} {file}, signed by key {}",
            signer.public_key().fingerprint()
        ),
    )
    .await?;
    let entries = store.custody_log(id).await?;
    Ok(CustodyLog {
        jsonl: custody::to_jsonl(&entries).into_bytes(),
        entries: entries.len() as u64,
        head_hash: entries
            .last()
            .map(|e| e.hash.clone())
            .unwrap_or_else(|| custody::GENESIS_HASH.to_owned()),
        hash_rule: custody::HASH_RULE.to_owned(),
    })
}

/// Records a written bundle in `bundle_exports`.
pub async fn record(
    store: &Store,
    bundle: &Bundle,
    path: &Path,
    manifest_sha256: &str,
    signed_by: &str,
) -> Result<(), CommandError> {
    let file_sha256 = file_sha256(path).map_err(|error| {
        CommandError::file(format!(
            "The bundle was written to {} but could not be read back to record it: {error}",
            path.display()
        ))
    })?;
    store
        .record_bundle_export(&BundleExport {
            id: 0,
            exported_at: Utc::now(),
            file_name: path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            manifest_sha256: manifest_sha256.to_owned(),
            file_sha256,
            installation_fingerprint: signed_by.to_owned(),
            investigation_id: bundle.investigation_id,
        })
        .await?;
    Ok(())
}

/// Standard base64 with padding (RFC 4648), as `base64 -d` reads it.
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}
