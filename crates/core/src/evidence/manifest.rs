//! `manifest.json`: who made the bundle (collector, installation fingerprint, tool and
//! system), when, of what, each capture with its response file, hash, time by this computer's
//! clock and trusted timestamp (or why there is none), the custody log's head, the media
//! counts (items by state, files carried, files left out and why), and every other file with
//! its size and hash. `manifest.sig` signs its exact bytes; `SHA256SUMS` lists it.
//!
//! It lists every file but itself, `manifest.sig`, `manifest.json.tsr` (a token over its own
//! bytes, so made after them) and `SHA256SUMS`.

use serde_json::json;
use sightline_store::zone_names::local_seconds;

use super::media::{self, MediaWritten};
use super::seal::Seal;
use super::{utc_iso, Bundle, BundleFile, StampState, CUSTODY_JSONL, SIGNING_KEY_PEM};

/// Identifies a file as a bundle, and its layout's version.
pub const FORMAT: &str = "sightline-evidence-bundle";
/// The layout's version, raised when files or their fields change meaning: 2 added the
/// signature, the tokens, the custody log and the collection fields; 3 the media files
/// (`media/`), their capture records (`media.jsonl`) and the manifest's `media` counts, so a
/// bundle with no `media/` says whether its posts had no media kept (3) or the bundle was
/// made before media were kept at all (2).
pub const FORMAT_VERSION: u32 = 3;

/// Where a capture's token went in the bundle.
#[derive(Debug, Clone)]
pub(super) struct TokenFiles {
    /// `timestamps/<stem>.tsr`.
    pub token: String,
    /// `timestamps/certificates-<n>.pem`, when the token carried certificates.
    pub certificates: Option<String>,
}

/// What was written before the manifest.
pub(super) struct Written<'w> {
    /// Each request's response file (`None`: no body kept).
    pub body_files: &'w [Option<String>],
    /// Each request's token files (`None`: not stamped).
    pub token_files: &'w [Option<TokenFiles>],
    /// Responses carried.
    pub responses: u32,
    /// Every file so far.
    pub files: &'w [BundleFile],
    /// The media files written and left out.
    pub media: &'w MediaWritten,
}

/// The manifest's exact bytes: pretty JSON and a newline.
pub(super) fn bytes(bundle: &Bundle, seal: &Seal<'_>, written: &Written<'_>) -> Vec<u8> {
    let captures: Vec<serde_json::Value> = bundle
        .requests
        .iter()
        .zip(written.body_files)
        .zip(written.token_files)
        .map(|((request, file), token)| {
            let capture = request.capture.as_ref();
            let stamp = match (&request.stamp, token, capture) {
                (_, _, None) => {
                    json!({"state": "none", "why": "captured before provenance was kept"})
                }
                (StampState::Stamped(stamped), Some(files), _) => json!({
                    "state": "stamped",
                    "file": files.token,
                    "certificates": files.certificates,
                    "stamped_at_utc": utc_iso(stamped.stamped_at),
                    "authority": stamped.authority,
                }),
                (StampState::Waiting, ..) => json!({"state": "waiting"}),
                (StampState::Failed(why), ..) => json!({"state": "failed", "why": why}),
                (StampState::NotAsked | StampState::Stamped(_), ..) => {
                    json!({"state": "none", "why": "no timestamp authority was set"})
                }
            };
            json!({
                "history_id": request.entry.id,
                "request_id": request.entry.request_id,
                "operation": request.entry.operation,
                "file": file,
                "sha256": capture.map(|c| &c.sha256),
                "captured_at_utc": capture.map(|c| utc_iso(c.captured_at)),
                "stamp": stamp,
            })
        })
        .collect();
    let custody = bundle.custody.as_ref().map(|log| {
        json!({
            "file": CUSTODY_JSONL,
            "entries": log.entries,
            "head_hash": log.head_hash,
        })
    });
    let mut manifest = json!({
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "app": seal.tool.0,
        "app_version": bundle.app_version,
        "tool": {"name": seal.tool.0, "version": seal.tool.1},
        "os": seal.os,
        "collector": seal.collector,
        "installation_fingerprint": seal.signer.public_key().fingerprint(),
        "signing_key": SIGNING_KEY_PEM,
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
            "responses": written.responses,
            "posts": bundle.posts.len(),
            "media_items": bundle.media.len(),
            "media_files": written.media.files.len(),
        },
        "cost": {
            "total": bundle.cost.total.to_string(),
            "currency": bundle.cost.currency,
        },
        "custody": custody,
        "media": media::manifest_part(bundle, written.media),
        "timestamp_authority": seal.authority,
        "captures": captures,
        "files": written.files,
    });
    if let (Some(package), Some(object)) = (&bundle.package, manifest.as_object_mut()) {
        object.insert("kind".into(), json!(package.kind));
        object.insert("case".into(), package.manifest.clone());
    }
    let mut out = serde_json::to_vec_pretty(&manifest).expect("a JSON value always serialises");
    out.push(b'\n');
    out
}
