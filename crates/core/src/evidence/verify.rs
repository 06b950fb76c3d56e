//! "Verify a bundle": reads a bundle's ZIP strictly (`zip_read`: every trick a ZIP can play is a
//! finding), re-hashes every file and compares it with what `SHA256SUMS` and `manifest.json`
//! say it held, file by file: matches, changed, missing, extra (in the ZIP but listed nowhere),
//! or not checked (a finding says why). Also whether the two lists agree with each other, since
//! a forger who edits a file and `SHA256SUMS` must also edit the manifest, whose own hash is in
//! `SHA256SUMS`.
//!
//! What it can prove is said plainly in [`BundleCheck::verdict`]: matching sums show that the
//! files agree with the bundle's own lists, not who made the bundle or when (whoever edits a
//! file can write new sums too).

use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;
use sightline_api::CancelToken;
use ts_rs::TS;

use super::zip_read::{read_zip, ZipRead};
pub use super::zip_read::{Finding, FindingKind, ReadProgress};
use super::{MANIFEST_JSON, MANIFEST_SIG, MANIFEST_TSR, SHA256SUMS};
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
    /// Every file matches its sum, the two lists agree and the ZIP holds nothing else. That is
    /// all it means: the copies agree with the bundle's own lists, not who wrote them.
    pub intact: bool,
    /// The one sentence that heads the check, claiming no more than the check proves.
    pub verdict: String,
}

/// Checks the bundle at `path`, reporting progress; `Ok(None)` when cancelled.
pub fn verify_bundle(
    path: &Path,
    progress: &mut (dyn FnMut(ReadProgress) + Send),
    cancel: &CancelToken,
) -> Result<Option<BundleCheck>, CommandError> {
    let keep = |name: &str| name == SHA256SUMS || name == MANIFEST_JSON;
    let Some(read) = read_zip(path, &keep, progress, cancel)? else {
        return Ok(None);
    };
    let has = |name: &str| read.entries.iter().any(|e| e.name == name);
    if !read.stopped && !has(SHA256SUMS) {
        return Err(CommandError::file(format!(
            "{} holds no SHA256SUMS file, so it is not an evidence bundle Sightline can check.",
            path.display()
        )));
    }
    Ok(Some(compare(path, read)))
}

/// The first copy's content of a kept file.
fn kept<'r>(read: &'r ZipRead, name: &str) -> Option<&'r [u8]> {
    read.entries
        .iter()
        .find(|e| e.name == name)
        .and_then(|e| e.kept.as_deref())
}

/// Compares what the ZIP holds with its two lists.
fn compare(path: &Path, read: ZipRead) -> BundleCheck {
    let sums = parse_sums(&String::from_utf8_lossy(
        kept(&read, SHA256SUMS).unwrap_or_default(),
    ));
    let has_manifest = read.entries.iter().any(|e| e.name == MANIFEST_JSON);
    let manifest = kept(&read, MANIFEST_JSON)
        .map(parse_manifest)
        .unwrap_or_default();
    // Each name's copies (a name can be there twice), `None` for a copy not read to its end.
    let mut found: BTreeMap<&str, Vec<Option<&str>>> = BTreeMap::new();
    for entry in &read.entries {
        found
            .entry(&entry.name)
            .or_default()
            .push(entry.sha256.as_deref());
    }

    let mut disagreements = Vec::new();
    if !has_manifest && !read.stopped {
        disagreements.push("manifest.json is missing, so the two lists cannot be compared.".into());
    }
    for (name, hash) in &sums {
        // The manifest cannot list itself, its signature or its token.
        if name == MANIFEST_JSON || name == MANIFEST_SIG || name == MANIFEST_TSR {
            continue;
        }
        match manifest.get(name) {
            None if has_manifest => {
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

    let mut names: Vec<&str> = sums
        .keys()
        .chain(manifest.keys())
        .map(String::as_str)
        .collect();
    names.extend(found.keys().filter(|n| **n != SHA256SUMS));
    names.sort();
    names.dedup();
    let files: Vec<FileCheck> = names
        .into_iter()
        .map(|name| {
            let expected = sums.get(name).or_else(|| manifest.get(name)).cloned();
            let copies = found.get(name).map(Vec::as_slice).unwrap_or_default();
            let differing = copies
                .iter()
                .flatten()
                .find(|hash| Some(**hash) != expected.as_deref());
            let actual = differing
                .or(copies.iter().flatten().next())
                .map(|h| h.to_string());
            let outcome = match (&expected, copies.is_empty()) {
                (None, _) => FileOutcome::Extra,
                (Some(_), true) => FileOutcome::Missing,
                _ if differing.is_some() => FileOutcome::Changed,
                _ if copies.iter().any(Option::is_none) => FileOutcome::Unchecked,
                _ => FileOutcome::Matches,
            };
            FileCheck {
                path: name.to_owned(),
                outcome,
                expected,
                actual,
            }
        })
        .collect();
    let lists_agree = disagreements.is_empty();
    let intact = lists_agree
        && !read.stopped
        && read.findings.is_empty()
        && files.iter().all(|f| f.outcome == FileOutcome::Matches);
    let verdict = verdict(&files, lists_agree, &read);
    BundleCheck {
        path: path.display().to_string(),
        files,
        lists_agree,
        disagreements,
        findings: read.findings,
        intact,
        verdict,
    }
}

/// `1 file does` / `3 files do`.
fn files_do(n: usize) -> String {
    match n {
        1 => "1 file does".into(),
        n => format!("{n} files do"),
    }
}

/// The sentence that heads a check. Matching sums prove only that the files agree with the
/// lists written inside the bundle, so that is all it claims; its count is of the files
/// `SHA256SUMS` lists, as the export's is.
fn verdict(files: &[FileCheck], lists_agree: bool, read: &ZipRead) -> String {
    if read.stopped {
        return "This ZIP was not read to its end, so the bundle was not checked: see what was found below."
            .into();
    }
    let count = |outcome| files.iter().filter(|f| f.outcome == outcome).count();
    let wrong = files.len() - count(FileOutcome::Matches) - count(FileOutcome::Unchecked);
    let unchecked = count(FileOutcome::Unchecked);
    let mut words = if wrong > 0 {
        format!(
            "{} not match the sums written inside the bundle (changed, missing or listed nowhere): the bundle does not hold what its sums describe.",
            files_do(wrong)
        )
    } else if unchecked > 0 {
        format!(
            "{} not checked: the ZIP withholds its content (see below).",
            match unchecked {
                1 => "1 file was".to_owned(),
                n => format!("{n} files were"),
            }
        )
    } else if !read.findings.is_empty() {
        "The files match the sums written inside the bundle, but the ZIP holds more than those files (see below): it was altered, or built to show different tools different things."
            .into()
    } else if !lists_agree {
        "The files match SHA256SUMS, but the bundle is not as its lists describe it.".into()
    } else {
        return format!(
            "All {} files SHA256SUMS lists match the sums written inside the bundle, and the ZIP holds nothing else. This shows the files agree with the bundle's own lists, not who made it or when: whoever edits a file can write new sums too.",
            files.len()
        );
    };
    if wrong > 0 && !read.findings.is_empty() {
        words.push_str(" The ZIP itself has problems too, listed below.");
    }
    if !lists_agree {
        words.push_str(" Its two lists of hashes (SHA256SUMS and manifest.json) do not agree.");
    }
    words
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
