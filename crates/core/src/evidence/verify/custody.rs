//! (d) The custody log: read back strictly (`custody::from_jsonl`), its hash chain checked
//! (`custody::check_chain`: the first entry missing, edited, out of order or unlinked), and its
//! head and count compared with the manifest's, which the signature covers: an entry cut from
//! the end leaves an unbroken chain, but not the head the manifest gives.

use sightline_store::custody::{self, ChainCheck};

use super::manifest::Manifest;
use super::{kept, CheckState, CustodyCheck, CUSTODY_JSONL};
use crate::evidence::zip_read::ZipRead;

/// Checks the log the manifest names (or `custody.jsonl` when the bundle has one anyway).
pub(super) fn check(read: &ZipRead, manifest: &Manifest) -> CustodyCheck {
    let mut check = CustodyCheck {
        state: CheckState::Fails,
        entries: None,
        head: None,
        broken_at: None,
        why: None,
    };
    let named = manifest.custody.as_ref();
    let file = named
        .and_then(|c| c.file.clone())
        .unwrap_or_else(|| CUSTODY_JSONL.into());
    let present = read.entries.iter().any(|e| e.name == file);
    if named.is_none() && !present {
        check.state = CheckState::Absent;
        return check;
    }
    let Some(bytes) = kept(read, &file) else {
        check.why = Some(if present {
            format!("{file} could not be read (see what the ZIP hides below).")
        } else {
            format!("The manifest names a custody log, but {file} is not in the bundle.")
        });
        return check;
    };
    let entries = match std::str::from_utf8(bytes)
        .map_err(|_| format!("{file} is not text."))
        .and_then(custody::from_jsonl)
    {
        Ok(entries) => entries,
        Err(why) => {
            check.why = Some(format!("The custody log cannot be read: {why}"));
            return check;
        }
    };
    check.entries = Some(entries.len() as u64);
    match custody::check_chain(&entries) {
        ChainCheck::Broken { at_seq, why } => {
            check.broken_at = Some(at_seq);
            check.why = Some(why.words().to_owned());
        }
        ChainCheck::Unbroken { head_hash, count } => {
            check.head = Some(head_hash.clone());
            let wanted = named.and_then(|c| c.head_hash.as_deref());
            let wanted_count = named.and_then(|c| c.entries);
            check.why = if named.is_none() {
                Some(format!(
                    "The bundle holds {file}, but the manifest names no custody log."
                ))
            } else if wanted != Some(head_hash.as_str()) {
                Some(format!(
                    "Its last entry's hash is not the one the manifest gives ({}): entries were \
                     cut from its end, added, or the log is another one.",
                    wanted.unwrap_or("none")
                ))
            } else if wanted_count.is_some_and(|n| i64::try_from(n).ok() != Some(count)) {
                Some(format!(
                    "It holds {count} entries, not the {} the manifest gives.",
                    wanted_count.unwrap_or_default()
                ))
            } else {
                check.state = CheckState::Holds;
                None
            };
        }
    }
    check
}
