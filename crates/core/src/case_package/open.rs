//! "Open a case package": verify, then read, then import.
//!
//! 1. The evidence verifier reads the whole ZIP strictly ([`verify_bundle`]): the package is
//!    refused, with the first reason in words, unless every file matches its sum and both lists
//!    agree and the ZIP hides nothing, the manifest's signature holds by the key it names, the
//!    custody log's chain is unbroken with the manifest's head, and every timestamp token is
//!    valid.
//! 2. The files it is imported from are read again, each re-hashed against the signed
//!    manifest; each response's bytes against its capture's SHA-256 and each media file against
//!    its name. The manifest must say `"kind": "case-package"`.
//! 3. The store writes it in one transaction (`Store::receive_case`): a new case, or a merge
//!    into the case with the same id. Who sent it is the key that signed it and the manifest's
//!    collector; work signed by one of this installation's own keys is its own, coming back.

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::io::Read;
use std::path::Path;
use std::sync::{Arc, Mutex};

use chrono::{DateTime, SecondsFormat, Utc};
use sha2::{Digest, Sha256};
use sightline_api::CancelToken;
use sightline_store::custody::{self, CustodyEntry};
use sightline_store::{By, CaseContents, CaseDifference, CaseRemoval, ReceivedCase, RemovedKind};

use super::{contents, CaseConflict, CaseOpenOutcome, CaseOpened, CaseProgress, CaseStage};
use super::{CaseRemoved, Collector, ConflictKind, RemovedWhat, KIND};
use crate::errors::CommandError;
use crate::evidence::media::{extension, MEDIA_DIR};
use crate::evidence::verify::{verify_bundle, BundleCheck, CheckState, FileOutcome, Known};
use crate::evidence::{hex, seal, CUSTODY_JSONL, MANIFEST_JSON};
use crate::media::files::MediaFolder;
use crate::state::AppState;

/// Why a verified bundle may not be imported, in words; `None` when every check holds.
pub fn refusal(check: &BundleCheck) -> Option<String> {
    if let Some(file) = check
        .files
        .iter()
        .find(|f| f.outcome != FileOutcome::Matches)
    {
        let what = match file.outcome {
            FileOutcome::Changed => "does not match its SHA-256 in the package's lists",
            FileOutcome::Missing => "is listed but missing",
            FileOutcome::Extra => "is in the ZIP but listed nowhere",
            FileOutcome::Unchecked | FileOutcome::Matches => "could not be read to its end",
        };
        return Some(format!("{} {what}.", file.path));
    }
    if let Some(finding) = check.findings.first() {
        return Some(finding.words.clone());
    }
    if let Some(disagreement) = check.disagreements.first() {
        return Some(disagreement.clone());
    }
    if check.stopped || !check.intact {
        return Some("The package could not be read to its end.".into());
    }
    if !check.signature.holds() {
        return Some(match &check.signature.why {
            Some(why) => format!("Its signature cannot be checked: {why}"),
            None => "Its signature does not hold: manifest.json is not what the included key \
                     signed, or the key is not the one the manifest names."
                .into(),
        });
    }
    if check.custody.state != CheckState::Holds {
        return Some(format!(
            "Its custody log does not hold: {}",
            check
                .custody
                .why
                .as_deref()
                .unwrap_or("the package carries none.")
        ));
    }
    if let Some(stamp) = check.stamps.iter().find(|s| !s.valid) {
        return Some(format!(
            "The timestamp token {} is not valid: {}",
            stamp.file,
            stamp.why.as_deref().unwrap_or("it does not verify.")
        ));
    }
    None
}

/// Opens the package at `path`; see the module.
pub(super) async fn open(
    state: &AppState,
    path: &Path,
    progress: impl FnMut(CaseProgress) + Send + 'static,
    cancel: &CancelToken,
) -> Result<CaseOpenOutcome, CommandError> {
    let keys = crate::signing::known_keys(state)?;
    let known = Known {
        keys: keys.clone(),
        trusted_tsa: state.settings().tsa_certificate_pem,
    };
    let store = state.store().await?;
    let (owned, token) = (path.to_owned(), cancel.clone());
    // Told from the blocking read and then from here.
    let tell = {
        let progress = Arc::new(Mutex::new(progress));
        move |stage: CaseStage, done: u32, total: u32, file: String| {
            if let Ok(mut progress) = progress.lock() {
                (*progress)(CaseProgress {
                    stage,
                    done,
                    total,
                    file,
                })
            }
        }
    };
    let tell_read = tell.clone();
    let read = tokio::task::spawn_blocking(move || {
        let tell = tell_read;
        let check = verify_bundle(
            &owned,
            &known,
            &mut |p| tell(CaseStage::Verifying, p.done, p.total, p.file),
            &token,
        )?;
        let Some(check) = check else {
            return Ok::<_, CommandError>(None);
        };
        if kind_of(&owned).as_deref() != Some(KIND) {
            return Ok(Some(Err((NOT_A_PACKAGE.to_owned(), check))));
        }
        if let Some(why) = refusal(&check) {
            return Ok(Some(Err((why, check))));
        }
        if token.is_cancelled() {
            return Ok(None);
        }
        tell(CaseStage::Reading, 0, 1, String::new());
        let read = match read_package(&owned, &check) {
            Ok(read) => Ok((read, check)),
            Err(why) => Err((why, check)),
        };
        tell(CaseStage::Reading, 1, 1, String::new());
        Ok(Some(read))
    })
    .await
    .map_err(|error| CommandError::internal(format!("Opening the package stopped: {error}")))??;
    let read = match read {
        None => return Ok(CaseOpenOutcome::Cancelled),
        Some(Err((why, check))) => {
            return Ok(CaseOpenOutcome::Refused {
                why,
                check: Box::new(check),
            })
        }
        Some(Ok(read)) => read,
    };
    let (read, check) = read;
    if cancel.is_cancelled() {
        return Ok(CaseOpenOutcome::Cancelled);
    }

    // The media files into this computer's media folder (content-addressed: a file held is
    // left as it is), before the rows that name them.
    let media = MediaFolder::new(&state.data_dir);
    let mut media_files_added = 0u32;
    for bytes in read.media_files.values() {
        let sha = hex(&Sha256::digest(bytes));
        if !media.contains(&sha) {
            media.write(bytes).await.map_err(|error| {
                CommandError::file(format!(
                    "A picture or video of the package could not be kept in the media folder: {error}"
                ))
            })?;
            media_files_added += 1;
        }
    }
    let own_keys: Vec<String> = keys.current.iter().chain(&keys.earlier).cloned().collect();
    let package_sha256 = seal::file_sha256(path).map_err(|error| {
        CommandError::file(format!("{} could not be read: {error}", path.display()))
    })?;
    let case_id = read.contents.case_id.clone();
    let custody_entries_received = u32::try_from(read.custody.len()).unwrap_or(u32::MAX);
    let received = ReceivedCase {
        contents: read.contents,
        from: read.from.clone(),
        own_keys,
        package_sha256: package_sha256.clone(),
        manifest_sha256: read.manifest_sha256,
        file_name: path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        custody: read.custody,
    };
    tell(CaseStage::Importing, 0, 1, String::new());
    let done = store.receive_case(&received, Utc::now()).await?;
    tell(CaseStage::Importing, 1, 1, String::new());
    Ok(CaseOpenOutcome::Opened {
        check: Box::new(check),
        opened: Box::new(CaseOpened {
            signed_at: read.signed_at.clone(),
            investigation_id: done.investigation_id,
            case_id,
            name: done.name,
            merged: done.merged,
            from: collector(&read.from),
            package_sha256,
            requests_added: done.requests_added,
            requests_held: done.requests_held,
            posts_added: done.posts_added,
            posts_held: done.posts_held,
            notes_added: done.notes_added,
            tags_added: done.tags_added,
            checks_added: done.checks_added,
            media_files_added,
            custody_entries_received,
            conflicts: done.differences.iter().map(conflict).collect(),
            removed: done.removed.iter().map(removed).collect(),
        }),
    })
}

/// The differences still standing in a case; see [`super::conflicts`].
pub(super) async fn standing_conflicts(
    state: &AppState,
    investigation_id: i64,
) -> Result<Vec<CaseConflict>, CommandError> {
    let store = state.store().await?;
    Ok(store
        .case_other_notes(investigation_id)
        .await?
        .iter()
        .map(conflict)
        .collect())
}

fn collector(by: &By) -> Collector {
    Collector {
        name: by.name.clone(),
        fingerprint: by.key.clone(),
    }
}

fn conflict(difference: &CaseDifference) -> CaseConflict {
    CaseConflict {
        kind: match difference.kind.as_str() {
            "note" => ConflictKind::Note,
            "note_removed" => ConflictKind::NoteRemoved,
            "post_removed" => ConflictKind::PostRemoved,
            "check" => ConflictKind::Check,
            "notebook" => ConflictKind::Notebook,
            "description" => ConflictKind::Description,
            _ => ConflictKind::Name,
        },
        post_id: difference.post_id.clone(),
        ours: difference.ours.clone(),
        ours_by: difference.ours_by.as_ref().map(collector),
        theirs: difference.theirs.clone(),
        theirs_by: collector(&difference.theirs_by),
    }
}

fn removed((post_id, removal, written_over): &(String, CaseRemoval, bool)) -> CaseRemoved {
    CaseRemoved {
        what: match removal.kind {
            RemovedKind::Tag => RemovedWhat::Tag,
            RemovedKind::Note => RemovedWhat::Note,
            RemovedKind::Post => RemovedWhat::Post,
            RemovedKind::Request => RemovedWhat::Request,
        },
        post_id: post_id.clone(),
        text: removal.what.clone(),
        written_over: *written_over,
        by: removal.by.as_ref().map(collector),
        removed_at: DateTime::from_timestamp_millis(removal.removed_at)
            .unwrap_or_default()
            .to_rfc3339_opts(SecondsFormat::Secs, true),
    }
}

pub(super) const NOT_A_PACKAGE: &str =
    "It is not a case package (an evidence bundle, or another ZIP): it \
    carries no case to open. \"Verify a bundle\" checks an evidence bundle.";

/// The most of a manifest read to learn its kind.
const MANIFEST_LIMIT: u64 = 16 << 20;

/// The manifest's `kind`, read only to say what the file is (the checks decide the rest).
fn kind_of(path: &Path) -> Option<String> {
    kind_of_manifest(path)?["kind"].as_str().map(str::to_owned)
}

/// The manifest as JSON, read only to say what the file is and holds (its signature and sums
/// are the checks' business).
pub(super) fn kind_of_manifest(path: &Path) -> Option<serde_json::Value> {
    let mut zip = zip::ZipArchive::new(File::open(path).ok()?).ok()?;
    let mut bytes = Vec::new();
    zip.by_name(MANIFEST_JSON)
        .ok()?
        .take(MANIFEST_LIMIT)
        .read_to_end(&mut bytes)
        .ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// What a verified package holds, read again and re-hashed.
struct Unpacked {
    contents: CaseContents,
    from: By,
    manifest_sha256: String,
    /// When the package was made, as its signed manifest says (RFC 3339 UTC).
    signed_at: String,
    custody: Vec<CustodyEntry>,
    /// Media files by their name in the package.
    media_files: BTreeMap<String, Vec<u8>>,
}

/// Reads the files the import needs, each checked against the signed manifest's hash.
fn read_package(path: &Path, check: &BundleCheck) -> Result<Unpacked, String> {
    let file = File::open(path).map_err(|e| format!("The package cannot be read: {e}"))?;
    let mut zip =
        zip::ZipArchive::new(file).map_err(|e| format!("The package cannot be read: {e}"))?;
    let mut entry = |name: &str| -> Result<Vec<u8>, String> {
        let mut file = zip
            .by_name(name)
            .map_err(|_| format!("The package holds no {name}."))?;
        let mut bytes = Vec::with_capacity(usize::try_from(file.size()).unwrap_or(0));
        file.read_to_end(&mut bytes)
            .map_err(|e| format!("{name} cannot be read: {e}"))?;
        Ok(bytes)
    };
    let manifest_bytes = entry(MANIFEST_JSON)?;
    let manifest_sha256 = hex(&Sha256::digest(&manifest_bytes));
    if check.manifest_sha256.as_deref() != Some(manifest_sha256.as_str()) {
        return Err("manifest.json changed between its check and its reading.".into());
    }
    let manifest: serde_json::Value = serde_json::from_slice(&manifest_bytes)
        .map_err(|e| format!("manifest.json cannot be read: {e}"))?;
    if manifest["kind"].as_str() != Some(KIND) {
        return Err(NOT_A_PACKAGE.into());
    }
    let listed: HashMap<String, String> = manifest["files"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| {
            Some((
                f["path"].as_str()?.to_owned(),
                f["sha256"].as_str()?.to_owned(),
            ))
        })
        .collect();
    let mut checked = |name: &str| -> Result<Vec<u8>, String> {
        let bytes = entry(name)?;
        match listed.get(name) {
            Some(sha) if *sha == hex(&Sha256::digest(&bytes)) => Ok(bytes),
            Some(_) => Err(format!(
                "{name} does not hash to what the signed manifest lists."
            )),
            None => Err(format!("The signed manifest does not list {name}.")),
        }
    };
    let mut case_files = HashMap::new();
    for name in [
        contents::CASE_JSON,
        contents::REQUESTS_JSONL,
        contents::POSTS_JSONL,
        contents::CHECKS_JSONL,
        contents::MEDIA_JSONL,
    ] {
        case_files.insert(name.to_owned(), checked(name)?);
    }
    let mut case = contents::parse(&mut case_files).map_err(|why| format!("Its case {why}."))?;
    let expected_case = manifest["case"]["case_id"].as_str();
    if expected_case != Some(case.case_id.as_str()) {
        return Err("case.json names another case than the signed manifest.".into());
    }
    for request in &mut case.requests {
        if let Some(capture) = &mut request.capture {
            let name = capture
                .file
                .clone()
                .ok_or_else(|| format!("Request {} names no response file.", request.request_id))?;
            capture.body = checked(&name)?;
            if hex(&Sha256::digest(&capture.body)) != capture.sha256 {
                return Err(format!(
                    "{name} is not the response its capture record was hashed from."
                ));
            }
        }
        if let Some(stamp) = &mut request.stamp {
            let name = stamp
                .file
                .clone()
                .ok_or_else(|| format!("Request {} names no token file.", request.request_id))?;
            stamp.token = checked(&name)?;
        }
    }
    let mut media_files = BTreeMap::new();
    for item in &case.media {
        for file in [&item.file, &item.poster].into_iter().flatten() {
            let name = format!(
                "{MEDIA_DIR}{}.{}",
                file.sha256,
                extension(&file.content_type)
            );
            if media_files.contains_key(&name) || !listed.contains_key(&name) {
                // A file the sender's media folder no longer held is not in the package; its
                // row still says it was kept there.
                continue;
            }
            let bytes = checked(&name)?;
            if hex(&Sha256::digest(&bytes)) != file.sha256 {
                return Err(format!("{name} does not hash to its name."));
            }
            media_files.insert(name, bytes);
        }
    }
    let custody = String::from_utf8(checked(CUSTODY_JSONL)?)
        .map_err(|_| "custody.jsonl is not text.".to_owned())
        .and_then(|text| custody::from_jsonl(&text))?;
    let key = check
        .signature
        .fingerprint
        .clone()
        .ok_or("The package's signing key cannot be read.")?;
    Ok(Unpacked {
        contents: case,
        from: By {
            name: manifest["collector"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
            key,
        },
        manifest_sha256,
        signed_at: manifest["created_at_utc"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
        custody,
        media_files,
    })
}
