//! The words of a check: one line per check (files, signature, timestamps, custody, export) and
//! the verdict that heads them. The verdict claims no more than the checks prove: "exactly as
//! Sightline on this computer wrote it" only when every file matches its sum, the manifest's
//! signature is valid by this installation's key (current or earlier) and is the key the
//! manifest names, every timestamp token is valid, the custody log is unbroken with the head
//! the manifest gives, and this installation recorded exporting that very manifest. Otherwise
//! it says which of these hold and which do not.

use super::{BundleCheck, CheckKind, CheckLine, CheckState, FileOutcome, SignatureState};
use crate::signing::KeyStanding;

/// Fills in `checks`, `as_written` and `verdict` from the rest of the check.
pub(super) fn judge(check: &mut BundleCheck) {
    check.checks = vec![
        files_line(check),
        signature_line(check),
        stamps_line(check),
        custody_line(check),
        export_line(check),
    ];
    let holds = |kind| {
        check
            .checks
            .iter()
            .any(|line| line.kind == kind && line.state == CheckState::Holds)
    };
    let not_fails = |kind| {
        check
            .checks
            .iter()
            .any(|line| line.kind == kind && line.state != CheckState::Fails)
    };
    let same_key = check.exported.as_ref().is_some_and(|export| {
        Some(&export.installation_fingerprint) == check.signature.fingerprint.as_ref()
    });
    check.as_written = !check.stopped
        && holds(CheckKind::Files)
        && holds(CheckKind::Signature)
        && not_fails(CheckKind::Timestamps)
        && not_fails(CheckKind::Custody)
        && holds(CheckKind::Export)
        && same_key;
    check.verdict = verdict(check);
}

fn line(kind: CheckKind, state: CheckState, words: String) -> CheckLine {
    CheckLine { kind, state, words }
}

/// `1 file` / `3 files`, and the like.
fn count(n: usize, one: &str, many: &str) -> String {
    match n {
        1 => format!("1 {one}"),
        n => format!("{n} {many}"),
    }
}

/// The files that are not as listed, and those not read to their end.
fn wrong_and_unchecked(check: &BundleCheck) -> (usize, usize) {
    let of = |outcome| check.files.iter().filter(|f| f.outcome == outcome).count();
    let unchecked = of(FileOutcome::Unchecked);
    (
        check.files.len() - of(FileOutcome::Matches) - unchecked,
        unchecked,
    )
}

/// (a) The files and their sums, and the ZIP itself.
fn files_line(check: &BundleCheck) -> CheckLine {
    let fails = |words: String| line(CheckKind::Files, CheckState::Fails, words);
    if check.stopped {
        return fails(
            "This ZIP was not read to its end, so its files were not all checked: see what was found below.".into(),
        );
    }
    let (wrong, unchecked) = wrong_and_unchecked(check);
    let mut words = if wrong > 0 {
        format!(
            "{} not match the sums written inside the bundle (changed, missing or listed nowhere): the bundle does not hold what its sums describe.",
            match wrong {
                1 => "1 file does".to_owned(),
                n => format!("{n} files do"),
            }
        )
    } else if unchecked > 0 {
        format!(
            "{} not checked: the ZIP withholds its content (see below).",
            match unchecked {
                1 => "1 file was".to_owned(),
                n => format!("{n} files were"),
            }
        )
    } else if !check.findings.is_empty() {
        "The files match the sums written inside the bundle, but the ZIP holds more than those files (see below): it was altered, or built to show different tools different things."
            .into()
    } else if !check.lists_agree {
        "The files match SHA256SUMS, but the bundle is not as its lists describe it.".into()
    } else {
        return line(
            CheckKind::Files,
            CheckState::Holds,
            format!(
                "All {} files SHA256SUMS lists match the sums written inside the bundle, and the ZIP holds nothing else. This shows the files agree with the bundle's own lists, not who made it or when: whoever edits a file can write new sums too.",
                check.files.len()
            ),
        );
    };
    if wrong > 0 && !check.findings.is_empty() {
        words.push_str(" The ZIP itself has problems too, listed below.");
    }
    if !check.lists_agree {
        words.push_str(" Its two lists of hashes (SHA256SUMS and manifest.json) do not agree.");
    }
    fails(words)
}

/// (b) The signature, and whose key made it.
fn signature_line(check: &BundleCheck) -> CheckLine {
    let signature = &check.signature;
    let key = signature.fingerprint.as_deref().unwrap_or("unreadable");
    let (state, mut words) = match signature.state {
        SignatureState::Unsigned => {
            return line(
                CheckKind::Signature,
                CheckState::Absent,
                "The bundle is not signed: it was made before Sightline signed its bundles (or its signature was taken out and its manifest rewritten), so who made it cannot be checked.".into(),
            )
        }
        SignatureState::Unreadable => (
            CheckState::Fails,
            format!(
                "The signature cannot be checked: {}",
                signature.why.as_deref().unwrap_or("it cannot be read.")
            ),
        ),
        SignatureState::Invalid => (
            CheckState::Fails,
            format!(
                "The signature is not valid: manifest.json is not what the included key (fingerprint {key}) signed. The manifest was changed after it was signed, or the signature or key was replaced."
            ),
        ),
        SignatureState::Valid => match signature.standing {
            Some(KeyStanding::Current) => (
                CheckState::Holds,
                format!("The manifest's signature is valid, made with this computer's signing key (fingerprint {key})."),
            ),
            Some(KeyStanding::Earlier) => (
                CheckState::Holds,
                format!("The manifest's signature is valid, made with one of this computer's earlier signing keys (fingerprint {key}), since replaced."),
            ),
            _ => (
                CheckState::Fails,
                format!("The manifest's signature is valid, but it is made with a key this computer does not know (fingerprint {key}). Anyone can make a key: this shows only that whoever holds it signed this manifest."),
            ),
        },
    };
    if signature.fingerprint.is_some() && signature.fingerprint != signature.declared_fingerprint {
        words.push_str(" The manifest names another key as its signer.");
        return line(CheckKind::Signature, CheckState::Fails, words);
    }
    line(CheckKind::Signature, state, words)
}

/// (c) The timestamp tokens.
fn stamps_line(check: &BundleCheck) -> CheckLine {
    let counts = &check.stamp_counts;
    let mut unstamped = Vec::new();
    if counts.waiting > 0 {
        unstamped.push(format!("{} waiting for the authority", counts.waiting));
    }
    if counts.failed > 0 {
        unstamped.push(format!("{} whose request failed", counts.failed));
    }
    if counts.not_stamped > 0 {
        unstamped.push(format!("{} never sent to an authority", counts.not_stamped));
    }
    let without = match counts.captures - counts.stamped {
        0 => String::new(),
        n => format!(
            " {} no token ({}).",
            match n {
                1 => "1 capture carries".to_owned(),
                n => format!("{n} captures carry"),
            },
            unstamped.join(", ")
        ),
    };
    let tokens = &check.stamps;
    if tokens.is_empty() {
        let words = if counts.captures == 0 {
            "The bundle carries no timestamp tokens.".to_owned()
        } else {
            format!("The bundle carries no timestamp tokens.{without}")
        };
        return line(CheckKind::Timestamps, CheckState::Absent, words);
    }
    let bad: Vec<_> = tokens.iter().filter(|t| !t.valid).collect();
    if let Some(first) = bad.first() {
        return line(
            CheckKind::Timestamps,
            CheckState::Fails,
            format!(
                "{} of {} not valid. The first, {} (for {}): {}{without}",
                bad.len(),
                count(tokens.len(), "timestamp token is", "timestamp tokens are"),
                first.file,
                first.of,
                first.why.as_deref().unwrap_or("it cannot be checked."),
            ),
        );
    }
    let mut times: Vec<&str> = tokens
        .iter()
        .filter_map(|t| t.stamped_at.as_deref())
        .collect();
    times.sort();
    let mut authorities: Vec<&str> = tokens
        .iter()
        .filter_map(|t| t.authority.as_deref())
        .collect();
    authorities.sort();
    authorities.dedup();
    let span = match (times.first(), times.last()) {
        (Some(first), Some(last)) if first != last => format!("from {first} to {last}"),
        (Some(first), _) => format!("at {first}"),
        _ => String::new(),
    };
    let chain = tokens
        .iter()
        .find_map(|t| t.chain.as_deref())
        .map(|words| format!(" {words}"))
        .unwrap_or_default();
    line(
        CheckKind::Timestamps,
        CheckState::Holds,
        format!(
            "{} valid, each over the hash the manifest gives what it stamps: stamped {span} by {}.{chain}{without}",
            match tokens.len() {
                1 => "The 1 timestamp token is".to_owned(),
                n => format!("All {n} timestamp tokens are"),
            },
            authorities.join(", "),
        ),
    )
}

/// (d) The custody log.
fn custody_line(check: &BundleCheck) -> CheckLine {
    let custody = &check.custody;
    let words = match (custody.state, custody.broken_at) {
        (CheckState::Absent, _) => "The bundle has no custody log (a hand-picked selection, or a bundle made before the log was kept).".to_owned(),
        (CheckState::Holds, _) => format!(
            "The custody log's chain is unbroken: {}, the last one's hash ({}) the one the manifest gives.",
            count(custody.entries.unwrap_or_default() as usize, "entry", "entries"),
            custody.head.as_deref().unwrap_or_default()
        ),
        (CheckState::Fails, Some(at)) => format!(
            "The custody log's chain is broken at entry {at}: {}",
            custody.why.as_deref().unwrap_or_default()
        ),
        (CheckState::Fails, None) => format!(
            "The custody log is not the one the manifest describes. {}",
            custody.why.as_deref().unwrap_or_default()
        ),
    };
    line(CheckKind::Custody, custody.state, words)
}

/// This installation's record of the export.
fn export_line(check: &BundleCheck) -> CheckLine {
    match &check.exported {
        Some(export) => line(
            CheckKind::Export,
            CheckState::Holds,
            format!(
                "This computer recorded exporting a bundle with exactly this manifest on {} ({}).",
                crate::evidence::utc_words(export.exported_at),
                export.file_name
            ),
        ),
        None => line(
            CheckKind::Export,
            CheckState::Fails,
            "This computer has no record of exporting a bundle with this manifest: it was made by another installation or data folder, or its manifest is not the one exported.".into(),
        ),
    }
}

/// Joins phrases: `a`, `a and b`, `a, b and c`.
fn join(phrases: &[String]) -> String {
    match phrases {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// The one sentence that heads the check.
fn verdict(check: &BundleCheck) -> String {
    let state = |kind| {
        check
            .checks
            .iter()
            .find(|line| line.kind == kind)
            .map(|line| line.state)
            .unwrap_or(CheckState::Fails)
    };
    if check.stopped {
        return "This ZIP was not read to its end, so the bundle was not checked: see what was found below.".into();
    }
    if check.as_written {
        let mut parts = vec!["every file matches its sum".to_owned()];
        parts.push(match check.signature.standing {
            Some(KeyStanding::Earlier) => {
                "the manifest is signed with one of this computer's earlier keys".into()
            }
            _ => "the manifest is signed with this computer's key".into(),
        });
        if state(CheckKind::Timestamps) == CheckState::Holds {
            parts.push(count(
                check.stamps.len(),
                "timestamp token is valid",
                "timestamp tokens are valid",
            ));
        }
        if state(CheckKind::Custody) == CheckState::Holds {
            parts.push("the custody log is unbroken".into());
        }
        parts.push("this computer recorded exporting it".into());
        return format!(
            "Exactly as Sightline on this computer wrote it: {}.",
            join(&parts)
        );
    }
    if check.signature.state == SignatureState::Unsigned {
        let files = check.checks[0].words.clone();
        return format!(
            "{files} The bundle is not signed, so who made it and when cannot be checked."
        );
    }

    let mut holds = Vec::new();
    let mut fails = Vec::new();
    let (wrong, unchecked) = wrong_and_unchecked(check);
    match state(CheckKind::Files) {
        CheckState::Holds => holds.push("the files match their sums".to_owned()),
        _ if wrong > 0 => fails.push(format!(
            "{} not match {} sums",
            match wrong {
                1 => "1 file does".to_owned(),
                n => format!("{n} files do"),
            },
            if wrong == 1 { "its" } else { "their" }
        )),
        _ if unchecked > 0 => fails.push(format!(
            "{} not checked",
            match unchecked {
                1 => "1 file was".to_owned(),
                n => format!("{n} files were"),
            }
        )),
        _ if !check.findings.is_empty() => {
            fails.push("the ZIP holds more than its files (see below)".into())
        }
        _ => fails.push("its two lists of hashes do not agree".into()),
    }
    let signature = &check.signature;
    let short = |f: &Option<String>| {
        f.as_deref()
            .map(|f| f[..f.len().min(16)].to_owned())
            .unwrap_or_default()
    };
    match signature.state {
        SignatureState::Valid => {
            match signature.standing {
                Some(KeyStanding::Unknown) | None => {
                    holds.push("the manifest's signature is valid".into());
                    fails.push(format!(
                        "it is signed by a key this computer does not know (fingerprint {}…)",
                        short(&signature.fingerprint)
                    ));
                }
                Some(KeyStanding::Current) => holds.push("the manifest is signed with this computer's key".into()),
                Some(KeyStanding::Earlier) => holds.push("the manifest is signed with one of this computer's earlier keys".into()),
            }
        }
        SignatureState::Invalid => fails.push(
            "the signature is not valid: the manifest was changed after it was signed (or the signature or key was replaced)".into(),
        ),
        _ => fails.push("its signature cannot be checked".into()),
    }
    if signature.fingerprint.is_some() && signature.fingerprint != signature.declared_fingerprint {
        fails.push("the included key is not the one the manifest names".into());
    }
    match state(CheckKind::Timestamps) {
        CheckState::Holds => holds.push(count(
            check.stamps.len(),
            "timestamp token is valid",
            "timestamp tokens are valid",
        )),
        CheckState::Fails => {
            let bad = check.stamps.iter().filter(|t| !t.valid).count();
            fails.push(format!(
                "{} of {} not valid",
                bad,
                count(
                    check.stamps.len(),
                    "timestamp token is",
                    "timestamp tokens are"
                )
            ))
        }
        CheckState::Absent => {}
    }
    match (state(CheckKind::Custody), check.custody.broken_at) {
        (CheckState::Holds, _) => holds.push("the custody log is unbroken".into()),
        (CheckState::Fails, Some(at)) => {
            fails.push(format!("the custody log is broken at entry {at}"))
        }
        (CheckState::Fails, None) => {
            fails.push("the custody log is not the one the manifest describes".into())
        }
        (CheckState::Absent, _) => {}
    }
    match state(CheckKind::Export) {
        CheckState::Holds if !fails.is_empty() => {
            holds.push("this computer recorded exporting it".into())
        }
        CheckState::Holds => {
            fails.push("the bundle this computer recorded was signed with another key".into())
        }
        _ => fails.push("it is not one this computer exported (it has no record of it)".into()),
    }
    if holds.is_empty() {
        return format!("{}.", capitalised(&join(&fails)));
    }
    format!("{}, but {}.", capitalised(&join(&holds)), join(&fails))
}
