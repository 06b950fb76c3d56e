//! "Verify a bundle": reads a bundle's ZIP strictly (`zip_read`: every trick a ZIP can play is a
//! finding) and makes four checks, each said in words, then a verdict that claims no more than
//! they prove:
//!
//! * (a) files (`verify/files.rs`): every file re-hashed and compared with what `SHA256SUMS`
//!   and `manifest.json` say it held: matches, changed, missing, extra, or not checked; and
//!   whether the two lists agree;
//! * (b) signature (`verify/signature.rs`): whether `manifest.sig` is a valid Ed25519
//!   signature over `manifest.json`'s exact bytes by the included `signing-key.pem`, whose key
//!   that is (this installation's current one, an earlier one, or unknown), and whether it is
//!   the key the manifest names;
//! * (c) timestamps (`verify/stamps.rs`): each RFC 3161 token valid (its time and authority) or
//!   not (why), over the hash the manifest gives its capture (and the manifest's own token over
//!   the manifest's bytes);
//! * (d) custody (`verify/custody.rs`): the custody log's hash chain unbroken, its head and
//!   count the manifest's, or broken at entry N.
//!
//! Matching sums alone show only that the files agree with the bundle's own lists: whoever
//! edits a file can write new sums too. The signature shows the manifest (and through its
//! hashes every file) is what the key signed; only this installation's record of the export
//! (the `bundle_exports` table, looked up by the manifest's SHA-256) shows it was this computer
//! that wrote it. So "exactly as Sightline wrote it" is said only when (a)–(d) hold and that
//! record is there (`verify/verdict.rs`).

use std::path::Path;

use serde::Serialize;
use sightline_api::CancelToken;
use sightline_store::BundleExport;
use ts_rs::TS;

use super::zip_read::{read_zip, ZipRead};
pub use super::zip_read::{Finding, FindingKind, ReadProgress};
use super::{
    CUSTODY_JSONL, MANIFEST_JSON, MANIFEST_SIG, MANIFEST_TSR, SHA256SUMS, SIGNING_KEY_PEM,
    TIMESTAMPS_DIR,
};
use crate::errors::CommandError;
use crate::signing::{KeyStanding, KnownKeys};
use crate::state::AppState;

mod custody;
mod files;
mod manifest;
mod signature;
mod stamps;
mod verdict;

/// What this installation knows that a check compares the bundle with.
#[derive(Debug, Clone, Default)]
pub struct Known {
    /// Its signing keys, current and earlier.
    pub keys: KnownKeys,
    /// The timestamp authority certificates the user added (PEM), to say whose chain a
    /// token's certificate is in.
    pub trusted_tsa: Option<String>,
}

/// What became of one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub enum FileOutcome {
    /// The file hashes to what the bundle lists.
    Matches,
    /// The file is there but its bytes are not the ones listed.
    Changed,
    /// The bundle lists the file but it is not in the ZIP.
    Missing,
    /// The file is in the ZIP but the bundle lists it nowhere.
    Extra,
    /// The file could not be read to its end (a finding says why), so it was not checked.
    Unchecked,
}

/// One file's check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct FileCheck {
    /// The file's name in the ZIP.
    pub path: String,
    /// What became of it.
    pub outcome: FileOutcome,
    /// The hash the bundle lists (`SHA256SUMS` first, else the manifest).
    pub expected: Option<String>,
    /// The hash of the file as it is now (of the copy that differs, when the name is there twice).
    pub actual: Option<String>,
}

/// Whether a check holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub enum CheckState {
    /// It holds.
    Holds,
    /// It does not.
    Fails,
    /// There is nothing to check (an unsigned bundle, no tokens, no custody log).
    Absent,
}

/// Which of the checks a line is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub enum CheckKind {
    /// (a) every file matches its sum.
    Files,
    /// (b) the manifest's signature, and by whose key.
    Signature,
    /// (c) the timestamp tokens.
    Timestamps,
    /// (d) the custody log's chain.
    Custody,
    /// This installation's record of having exported the bundle.
    Export,
}

/// One check, as the list on the screen shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CheckLine {
    /// Which check.
    pub kind: CheckKind,
    /// Whether it holds.
    pub state: CheckState,
    /// What it found, in a sentence or two.
    pub words: String,
}

/// What became of the manifest's signature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub enum SignatureState {
    /// The included key signed exactly these manifest bytes.
    Valid,
    /// The signature is not the included key's over these bytes.
    Invalid,
    /// The bundle carries no signature and its manifest claims none (made before signing).
    Unsigned,
    /// The signature, the key or the manifest is missing or cannot be read (`why`).
    Unreadable,
}

/// (b) The manifest's signature.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct SignatureCheck {
    /// What became of it.
    pub state: SignatureState,
    /// The fingerprint of the key included in the bundle, when it can be read.
    pub fingerprint: Option<String>,
    /// Whose that key is, as this installation sees it.
    pub standing: Option<KeyStanding>,
    /// The fingerprint the manifest names (`installation_fingerprint`).
    pub declared_fingerprint: Option<String>,
    /// Why it could not be checked, when [`SignatureState::Unreadable`].
    pub why: Option<String>,
}

impl SignatureCheck {
    /// Valid, by the key the manifest names.
    pub fn holds(&self) -> bool {
        self.state == SignatureState::Valid
            && self.fingerprint.is_some()
            && self.fingerprint == self.declared_fingerprint
    }
}

/// (c) One timestamp token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct StampCheck {
    /// What it stamps: a response file, or `manifest.json`.
    pub of: String,
    /// The token's file in the bundle.
    pub file: String,
    /// The token is valid (signed by its authority's certificate) and over the hash the
    /// manifest gives what it stamps.
    pub valid: bool,
    /// The authority's time (RFC 3339), when valid.
    pub stamped_at: Option<String>,
    /// The authority that signed it, when valid.
    pub authority: Option<String>,
    /// Whose chain the authority's certificate is in, in words, when valid.
    pub chain: Option<String>,
    /// Why it is not valid, or where it and the manifest disagree.
    pub why: Option<String>,
}

/// (c) The captures' stamps, counted.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct BundleStampCounts {
    /// Captures the manifest lists.
    pub captures: u32,
    /// Of them, stamped (a token is in the bundle).
    pub stamped: u32,
    /// Waiting for the authority when the bundle was made.
    pub waiting: u32,
    /// Whose request to the authority failed.
    pub failed: u32,
    /// Not stamped: no authority was set, or captured before provenance was kept.
    pub not_stamped: u32,
}

/// (d) The custody log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CustodyCheck {
    /// Holds: unbroken, its head and count the manifest's. Absent: the bundle has no log (a
    /// hand-picked selection, or made before the log was kept).
    pub state: CheckState,
    /// Entries read.
    pub entries: Option<u64>,
    /// The last entry's hash.
    pub head: Option<String>,
    /// The entry (its `seq`) where the chain breaks.
    pub broken_at: Option<i64>,
    /// What is wrong, in words.
    pub why: Option<String>,
}

/// The whole check, in plain terms for the screen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct BundleCheck {
    /// The bundle checked.
    pub path: String,
    /// Every file, listed or found, in path order.
    pub files: Vec<FileCheck>,
    /// Whether `SHA256SUMS` and `manifest.json` list the same files with the same hashes.
    pub lists_agree: bool,
    /// Where they do not, one sentence each.
    pub disagreements: Vec<String>,
    /// What is wrong with the ZIP itself (tricks, damage, limits passed), in plain words.
    pub findings: Vec<Finding>,
    /// The ZIP was not read to its end (too many entries, an index or data too large): the
    /// checks are of what was read.
    pub stopped: bool,
    /// (a) Every file matches its sum, the two lists agree and the ZIP holds nothing else.
    /// That is all it means: the copies agree with the bundle's own lists, not who wrote them.
    pub intact: bool,
    /// (b) The manifest's signature.
    pub signature: SignatureCheck,
    /// (c) Every timestamp token in the bundle.
    pub stamps: Vec<StampCheck>,
    /// (c) The captures' stamp states, counted.
    pub stamp_counts: BundleStampCounts,
    /// (d) The custody log.
    pub custody: CustodyCheck,
    /// SHA-256 of `manifest.json` (its first copy), lower-case hex.
    pub manifest_sha256: Option<String>,
    /// This installation's record of having exported a bundle with this manifest.
    pub exported: Option<BundleExport>,
    /// The checks, in order, each with its words: files, signature, timestamps, custody, export.
    pub checks: Vec<CheckLine>,
    /// (a)–(d) hold, the key is this installation's and it recorded exporting this manifest:
    /// the bundle is exactly as Sightline on this computer wrote it.
    pub as_written: bool,
    /// The one sentence that heads the check, claiming no more than the check proves.
    pub verdict: String,
}

impl BundleCheck {
    /// The check with this installation's record of the export (or none) taken into account.
    pub fn with_export(mut self, exported: Option<BundleExport>) -> Self {
        self.exported = exported;
        verdict::judge(&mut self);
        self
    }
}

/// The names whose content a check reads.
fn kept_name(name: &str) -> bool {
    matches!(
        name,
        SHA256SUMS | MANIFEST_JSON | MANIFEST_SIG | MANIFEST_TSR | SIGNING_KEY_PEM | CUSTODY_JSONL
    ) || name.starts_with(TIMESTAMPS_DIR)
}

/// Checks the bundle at `path` against what this installation knows (`known`), reporting
/// progress; `Ok(None)` when cancelled. The verdict takes no export record into account: see
/// [`BundleCheck::with_export`] and [`verify`].
pub fn verify_bundle(
    path: &Path,
    known: &Known,
    progress: &mut (dyn FnMut(ReadProgress) + Send),
    cancel: &CancelToken,
) -> Result<Option<BundleCheck>, CommandError> {
    let Some(read) = read_zip(path, &kept_name, progress, cancel)? else {
        return Ok(None);
    };
    let has = |name: &str| read.entries.iter().any(|e| e.name == name);
    if !read.stopped && !has(SHA256SUMS) {
        return Err(CommandError::file(format!(
            "{} holds no SHA256SUMS file, so it is not an evidence bundle Sightline can check.",
            path.display()
        )));
    }
    Ok(Some(check(path, read, known)))
}

/// Checks the bundle at `path` as this installation sees it: its keys, and its record of the
/// bundles it exported. The read runs on a blocking thread (it reads the whole file).
pub async fn verify(
    state: &AppState,
    path: &Path,
    mut progress: impl FnMut(ReadProgress) + Send + 'static,
    cancel: &CancelToken,
) -> Result<Option<BundleCheck>, CommandError> {
    let known = Known {
        keys: crate::signing::known_keys(state)?,
        trusted_tsa: state.settings().tsa_certificate_pem,
    };
    let store = state.store().await?;
    let (path, cancel) = (path.to_owned(), cancel.clone());
    let check =
        tokio::task::spawn_blocking(move || verify_bundle(&path, &known, &mut progress, &cancel))
            .await
            .map_err(|error| CommandError::internal(format!("The check stopped: {error}")))??;
    let Some(check) = check else {
        return Ok(None);
    };
    let exported = match check.manifest_sha256.as_deref() {
        Some(sha) => store.bundle_export_by_manifest(sha).await?,
        None => None,
    };
    Ok(Some(check.with_export(exported)))
}

/// The first copy's content of a kept file.
fn kept<'r>(read: &'r ZipRead, name: &str) -> Option<&'r [u8]> {
    read.entries
        .iter()
        .find(|e| e.name == name)
        .and_then(|e| e.kept.as_deref())
}

/// All four checks, judged with no export record.
fn check(path: &Path, read: ZipRead, known: &Known) -> BundleCheck {
    let manifest_bytes = kept(&read, MANIFEST_JSON);
    let manifest = manifest::Manifest::parse(manifest_bytes);
    let manifest_sha256 = read
        .entries
        .iter()
        .find(|e| e.name == MANIFEST_JSON)
        .and_then(|e| e.sha256.clone());
    let compared = files::compare(&read, &manifest);
    let signature = signature::check(&read, &manifest, manifest_bytes, &known.keys);
    let (stamps, stamp_counts) = stamps::check(
        &read,
        &manifest,
        manifest_sha256.as_deref(),
        known.trusted_tsa.as_deref(),
    );
    let custody = custody::check(&read, &manifest);
    let mut check = BundleCheck {
        path: path.display().to_string(),
        files: compared.files,
        stopped: read.stopped,
        lists_agree: compared.disagreements.is_empty(),
        disagreements: compared.disagreements,
        intact: false,
        findings: Vec::new(),
        signature,
        stamps,
        stamp_counts,
        custody,
        manifest_sha256,
        exported: None,
        checks: Vec::new(),
        as_written: false,
        verdict: String::new(),
    };
    check.intact = check.lists_agree
        && !read.stopped
        && read.findings.is_empty()
        && check
            .files
            .iter()
            .all(|f| f.outcome == FileOutcome::Matches);
    check.findings = read.findings;
    verdict::judge(&mut check);
    check
}
