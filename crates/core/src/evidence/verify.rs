//! "Verify a bundle": re-hash every file in a bundle's ZIP and compare with what `SHA256SUMS`
//! and `manifest.json` say it held, file by file: matches, changed, missing, or extra (in the
//! ZIP but listed nowhere). Also whether the two lists agree with each other, since a forger
//! who edits a file and `SHA256SUMS` must also edit the manifest, whose own hash is in
//! `SHA256SUMS`.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

use serde::Serialize;
use sha2::{Digest, Sha256};
use ts_rs::TS;

use super::{hex, MANIFEST_JSON, SHA256SUMS};
use crate::errors::CommandError;

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
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct FileCheck {
    pub path: String,
    pub outcome: FileOutcome,
    /// The hash the bundle lists (`SHA256SUMS` first, else the manifest).
    pub expected: Option<String>,
    /// The hash of the file as it is now.
    pub actual: Option<String>,
}

/// The whole check, in plain terms for the screen.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct BundleCheck {
    pub path: String,
    /// Every file, listed or found, in path order.
    pub files: Vec<FileCheck>,
    /// Whether `SHA256SUMS` and `manifest.json` list the same files with the same hashes.
    pub lists_agree: bool,
    /// Where they do not, one sentence each.
    pub disagreements: Vec<String>,
    /// Every file matches and the two lists agree.
    pub intact: bool,
}

/// Checks the bundle at `path`.
pub fn verify_bundle(path: &Path) -> Result<BundleCheck, CommandError> {
    let file = std::fs::File::open(path).map_err(|error| {
        CommandError::not_found(format!("{} could not be opened: {error}", path.display()))
    })?;
    let mut zip = zip::ZipArchive::new(std::io::BufReader::new(file)).map_err(|_| {
        CommandError::file(format!(
            "{} is not a ZIP file, so it is not an evidence bundle.",
            path.display()
        ))
    })?;

    // Hash every file the ZIP holds (folders have no content to check).
    let mut found: BTreeMap<String, (String, Vec<u8>)> = BTreeMap::new();
    for index in 0..zip.len() {
        let mut entry = zip
            .by_index(index)
            .map_err(|error| unreadable(path, error))?;
        if entry.is_dir() {
            continue;
        }
        let name = entry.name().to_owned();
        let mut digest = Sha256::new();
        // SHA256SUMS and the manifest are read as well as hashed.
        let keep = name == SHA256SUMS || name == MANIFEST_JSON;
        let mut kept = Vec::new();
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            let n = entry
                .read(&mut buf)
                .map_err(|error| unreadable(path, error))?;
            if n == 0 {
                break;
            }
            digest.update(&buf[..n]);
            if keep {
                kept.extend_from_slice(&buf[..n]);
            }
        }
        found.insert(name, (hex(&digest.finalize()), kept));
    }

    let Some((_, sums_text)) = found.get(SHA256SUMS) else {
        return Err(CommandError::file(format!(
            "{} holds no SHA256SUMS file, so it is not an evidence bundle Sightline can check.",
            path.display()
        )));
    };
    let sums = parse_sums(&String::from_utf8_lossy(sums_text));
    let manifest = found
        .get(MANIFEST_JSON)
        .map(|(_, text)| parse_manifest(text))
        .unwrap_or_default();

    let mut disagreements = Vec::new();
    if !found.contains_key(MANIFEST_JSON) {
        disagreements.push("manifest.json is missing, so the two lists cannot be compared.".into());
    }
    for (name, hash) in &sums {
        if name == MANIFEST_JSON {
            continue;
        }
        match manifest.get(name) {
            None if found.contains_key(MANIFEST_JSON) => {
                disagreements.push(format!("SHA256SUMS lists {name}, manifest.json does not."))
            }
            Some(other) if other != hash => disagreements.push(format!(
                "SHA256SUMS and manifest.json give {name} different hashes."
            )),
            _ => {}
        }
    }
    for name in manifest.keys() {
        if !sums.contains_key(name) {
            disagreements.push(format!("manifest.json lists {name}, SHA256SUMS does not."));
        }
    }

    let mut names: Vec<&String> = sums.keys().chain(manifest.keys()).collect();
    names.extend(found.keys().filter(|n| n.as_str() != SHA256SUMS));
    names.sort();
    names.dedup();
    let files: Vec<FileCheck> = names
        .into_iter()
        .map(|name| {
            let expected = sums.get(name).or_else(|| manifest.get(name)).cloned();
            let actual = found.get(name).map(|(hash, _)| hash.clone());
            let outcome = match (&expected, &actual) {
                (Some(e), Some(a)) if e == a => FileOutcome::Matches,
                (Some(_), Some(_)) => FileOutcome::Changed,
                (Some(_), None) => FileOutcome::Missing,
                (None, _) => FileOutcome::Extra,
            };
            FileCheck {
                path: name.clone(),
                outcome,
                expected,
                actual,
            }
        })
        .collect();
    let lists_agree = disagreements.is_empty();
    let intact = lists_agree && files.iter().all(|f| f.outcome == FileOutcome::Matches);
    Ok(BundleCheck {
        path: path.display().to_string(),
        files,
        lists_agree,
        disagreements,
        intact,
    })
}

fn unreadable(path: &Path, error: impl std::fmt::Display) -> CommandError {
    CommandError::file(format!(
        "{} could not be read to the end ({error}); the ZIP itself is damaged.",
        path.display()
    ))
}

/// `sha256sum` lines: `<hash>  <name>` (text mode) or `<hash> *<name>` (binary mode).
fn parse_sums(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .filter_map(|line| {
            let (hash, rest) = line.split_once(' ')?;
            let name = rest.strip_prefix(' ').or_else(|| rest.strip_prefix('*'))?;
            Some((name.to_owned(), hash.to_ascii_lowercase()))
        })
        .collect()
}

/// The `files` of a manifest, path to hash; empty when it cannot be read.
fn parse_manifest(bytes: &[u8]) -> BTreeMap<String, String> {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(bytes) else {
        return BTreeMap::new();
    };
    value["files"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|file| {
            Some((
                file["path"].as_str()?.to_owned(),
                file["sha256"].as_str()?.to_ascii_lowercase(),
            ))
        })
        .collect()
}
