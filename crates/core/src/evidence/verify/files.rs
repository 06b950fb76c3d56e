//! (a) Every file re-hashed and compared with what `SHA256SUMS` and `manifest.json` say it
//! held, and the two lists compared with each other: a forger who edits a file and
//! `SHA256SUMS` must also edit the manifest, whose own hash is in `SHA256SUMS` (and which the
//! signature covers).

use std::collections::BTreeMap;

use super::manifest::Manifest;
use super::{kept, FileCheck, FileOutcome, MANIFEST_SIG, MANIFEST_TSR};
use crate::evidence::zip_read::ZipRead;
use crate::evidence::{MANIFEST_JSON, SHA256SUMS};

/// Each file's outcome, and where the two lists disagree.
pub(super) struct Compared {
    pub files: Vec<FileCheck>,
    pub disagreements: Vec<String>,
}

/// Files `SHA256SUMS` lists that the manifest cannot: itself, and what is written after it
/// (its signature and its token).
fn after_manifest(name: &str) -> bool {
    matches!(name, MANIFEST_JSON | MANIFEST_SIG | MANIFEST_TSR)
}

/// Compares what the ZIP holds with its two lists.
pub(super) fn compare(read: &ZipRead, manifest: &Manifest) -> Compared {
    let sums = parse_sums(&String::from_utf8_lossy(
        kept(read, SHA256SUMS).unwrap_or_default(),
    ));
    let has_manifest = read.entries.iter().any(|e| e.name == MANIFEST_JSON);
    let listed = &manifest.files;
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
        if after_manifest(name) {
            continue;
        }
        match listed.get(name) {
            None if has_manifest => {
                disagreements.push(format!("SHA256SUMS lists {name}, manifest.json does not."))
            }
            Some(other) if other != hash => disagreements.push(format!(
                "SHA256SUMS and manifest.json give {name} different hashes."
            )),
            _ => {}
        }
    }
    for name in listed.keys() {
        if !sums.contains_key(name) {
            disagreements.push(format!("manifest.json lists {name}, SHA256SUMS does not."));
        }
    }

    let mut names: Vec<&str> = sums
        .keys()
        .chain(listed.keys())
        .map(String::as_str)
        .collect();
    names.extend(found.keys().filter(|n| **n != SHA256SUMS));
    names.sort();
    names.dedup();
    let files = names
        .into_iter()
        .map(|name| {
            let expected = sums.get(name).or_else(|| listed.get(name)).cloned();
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
    Compared {
        files,
        disagreements,
    }
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
