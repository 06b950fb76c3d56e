//! The custody log: per investigation, an append-only, hash-chained list of everything done to
//! it (created, renamed, a request filed, a post added or removed, a note or tag changed, a
//! check run, a bundle exported, the signing key rotated...), each entry with its time, the
//! collector ("Collected by" at the time), the action, the ids it touched, a short detail and
//! the hash of the entry before it (migration `0014_custody_log.sql`).
//!
//! The rule that chains the entries is here, once: [`entry_hash`] over [`canonical_bytes`],
//! said in words for an outside reader in [`HASH_RULE`], and checked by [`check_chain`]. It lives
//! in the store, not the app, because the store appends each entry inside the write
//! transaction of the change it records (under SQLite's write lock, so two writers cannot
//! fork a chain), and the database checks every insert against it: the SQL function
//! `sightline_custody_hash` (registered on every connection, `custody/sql.rs`) is this same
//! rule, and the table's triggers refuse an entry that does not follow the last one, and any
//! change or deletion. A bundle carries the log as [`to_jsonl`]; a verifier reads it back with
//! [`from_jsonl`] and checks it with [`check_chain`].
//!
//! Deleting an investigation keeps its log: the deletion is its last entry, and the table has
//! no foreign key to cascade from; an investigation's id is never given to a new one while a
//! log holds it.

mod sql;
mod write;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use ts_rs::TS;

pub(crate) use sql::register;
pub(crate) use write::Custody;

/// The `prev_hash` of an investigation's first entry: 64 zeros.
pub const GENESIS_HASH: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// What an entry records. Stored and hashed as its serde word (`post_added`).
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum CustodyAction {
    /// The log began here, for an investigation made before Sightline kept logs: nothing done
    /// before it was recorded.
    LogStarted,
    /// The investigation was made.
    Created,
    /// Its name changed.
    Renamed,
    /// Its description changed.
    DescriptionChanged,
    /// Its notebook changed.
    NotebookChanged,
    /// It was archived.
    Archived,
    /// It was restored from the archive.
    Restored,
    /// It was deleted (its log stays).
    Deleted,
    /// A request was filed under it (sent while it was active, by hand, by a monitor or a
    /// collection, or by a still-there check).
    RequestFiled,
    /// A request was taken out.
    RequestRemoved,
    /// Posts were added.
    PostAdded,
    /// Posts were taken out.
    PostRemoved,
    /// A post's note changed.
    NoteChanged,
    /// A tag was put on a post.
    TagAdded,
    /// A tag was taken off a post.
    TagRemoved,
    /// A still-there check ran.
    CheckRun,
    /// An evidence bundle was exported. Recorded before the file is written, since the
    /// bundle carries its own export's entry; an export that then does not finish is followed
    /// by [`CustodyAction::ExportNotFinished`].
    BundleExported,
    /// The export named by the entry before was cancelled or failed: no such file was kept.
    ExportNotFinished,
    /// A web archive (WACZ) was exported.
    WaczExported,
    /// This installation's signing key was replaced by a new one.
    KeyRotated,
    /// A package from another installation was imported.
    PackageImported,
    /// A case package of a case held here was merged into it (the package's SHA-256 and the
    /// head of the sender's custody log in the entry).
    PackageMerged,
}

impl CustodyAction {
    /// Every action, in the order above.
    pub const ALL: [CustodyAction; 22] = [
        Self::LogStarted,
        Self::Created,
        Self::Renamed,
        Self::DescriptionChanged,
        Self::NotebookChanged,
        Self::Archived,
        Self::Restored,
        Self::Deleted,
        Self::RequestFiled,
        Self::RequestRemoved,
        Self::PostAdded,
        Self::PostRemoved,
        Self::NoteChanged,
        Self::TagAdded,
        Self::TagRemoved,
        Self::CheckRun,
        Self::BundleExported,
        Self::ExportNotFinished,
        Self::WaczExported,
        Self::KeyRotated,
        Self::PackageImported,
        Self::PackageMerged,
    ];

    /// Its serde word, as stored and hashed.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::LogStarted => "log_started",
            Self::Created => "created",
            Self::Renamed => "renamed",
            Self::DescriptionChanged => "description_changed",
            Self::NotebookChanged => "notebook_changed",
            Self::Archived => "archived",
            Self::Restored => "restored",
            Self::Deleted => "deleted",
            Self::RequestFiled => "request_filed",
            Self::RequestRemoved => "request_removed",
            Self::PostAdded => "post_added",
            Self::PostRemoved => "post_removed",
            Self::NoteChanged => "note_changed",
            Self::TagAdded => "tag_added",
            Self::TagRemoved => "tag_removed",
            Self::CheckRun => "check_run",
            Self::BundleExported => "bundle_exported",
            Self::ExportNotFinished => "export_not_finished",
            Self::WaczExported => "wacz_exported",
            Self::KeyRotated => "key_rotated",
            Self::PackageImported => "package_imported",
            Self::PackageMerged => "package_merged",
        }
    }

    /// The action for a stored word; `None` for a word this build does not know.
    pub fn parse(word: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|action| action.as_str() == word)
    }
}

/// One entry of an investigation's custody log, as stored and as a bundle's `custody.jsonl`
/// line holds it.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct CustodyEntry {
    /// Its place in the investigation's log, from 1, with no gaps.
    pub seq: i64,
    /// When it was recorded, by this computer's clock: milliseconds since 1970-01-01 UTC.
    pub at: i64,
    /// "Collected by" as Settings named it at the time; empty when nobody was named.
    pub collector: String,
    /// What was done.
    pub action: CustodyAction,
    /// What it touched, each as `kind:id`: `request:<history id>`, `post:<the service's post
    /// id>`, `check:<check id>`, `key:<fingerprint>`, `export:<id>`, `file:<name>`.
    pub ids: Vec<String>,
    /// A short line of words (a name, a count, a tag, the SHA-256 of a new note).
    pub detail: String,
    /// The previous entry's hash ([`GENESIS_HASH`] for the first).
    pub prev_hash: String,
    /// [`entry_hash`] of this entry: lowercase hex SHA-256.
    pub hash: String,
}

/// The rule chaining a custody log, in words and as an exact recipe, for `VERIFY.txt`.
pub const HASH_RULE: &str = "\
Each line of custody.jsonl is one entry of the investigation's custody log, oldest first: \
seq (1, 2, 3, ... with no gaps), at (milliseconds since 1970-01-01 UTC), collector, action, \
ids (a list of texts), detail, prev_hash and hash.
An entry's hash is the SHA-256, written as 64 lowercase hexadecimal digits, of these bytes: \
the JSON array [prev_hash, seq, at, collector, action, ids, detail], written with no spaces \
or line breaks, numbers as plain decimal integers, texts in UTF-8 with only \" and \\ escaped \
(as \\\" and \\\\; Sightline writes no control characters into an entry). \
The first entry's prev_hash is 64 zeros; every later entry's prev_hash is the hash of the \
entry before it. The log is unbroken when every entry's hash is recomputed equal to the one it \
carries and every prev_hash equals the hash before it: an entry removed, changed or moved \
breaks the chain from that entry on.
To recompute one line's hash without Sightline (with jq, or Python's \
json.dumps(..., ensure_ascii=False, separators=(',', ':'))):
  jq -cj '[.prev_hash,.seq,.at,.collector,.action,.ids,.detail]' <<< \"$line\" | sha256sum
The last entry's hash (the head) stands for the whole log.";

/// The bytes an entry's hash is taken over: the compact JSON array
/// `[prev_hash, seq, at, collector, action, ids, detail]` (see [`HASH_RULE`]).
pub fn canonical_bytes(entry: &CustodyEntry) -> Vec<u8> {
    canonical(
        &entry.prev_hash,
        entry.seq,
        entry.at,
        &entry.collector,
        entry.action.as_str(),
        &entry.ids,
        &entry.detail,
    )
}

fn canonical(
    prev_hash: &str,
    seq: i64,
    at: i64,
    collector: &str,
    action: &str,
    ids: &[String],
    detail: &str,
) -> Vec<u8> {
    serde_json::to_vec(&(prev_hash, seq, at, collector, action, ids, detail))
        .expect("texts and integers always serialize")
}

/// The hash an entry must carry: SHA-256 of [`canonical_bytes`], lowercase hex. The entry's own
/// `hash` field is not read.
pub fn entry_hash(entry: &CustodyEntry) -> String {
    hex(&Sha256::digest(canonical_bytes(entry)))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// What [`check_chain`] found.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Eq)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum ChainCheck {
    /// Every entry follows the one before it and carries its own hash.
    Unbroken {
        /// The last entry's hash, standing for the whole log ([`GENESIS_HASH`] for an empty
        /// log).
        head_hash: String,
        /// How many entries the log holds.
        count: i64,
    },
    /// The chain breaks at this entry.
    Broken {
        /// The seq where it breaks: the entry found there, or the one missing there.
        at_seq: i64,
        /// Why.
        why: ChainBreak,
    },
}

/// Why a chain breaks at an entry.
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ChainBreak {
    /// The entry with this seq is not there: the next one found comes later (or the log's
    /// first entry is not seq 1).
    Missing,
    /// The entry's content no longer gives the hash it carries: it was changed.
    Edited,
    /// The entry with this seq is not in its place: it comes later, or an entry from earlier
    /// (or a second copy of one) stands there instead.
    Reordered,
    /// The entry's prev_hash is not the hash of the entry before it (a copy spliced from
    /// another log, or an entry rewritten together with its hash).
    Unlinked,
}

impl ChainCheck {
    /// Whether the chain is unbroken.
    pub fn is_unbroken(&self) -> bool {
        matches!(self, Self::Unbroken { .. })
    }

    /// What it found, in one sentence of plain words.
    pub fn words(&self) -> String {
        match self {
            Self::Unbroken { count: 0, .. } => "The custody log holds no entries.".into(),
            Self::Unbroken { head_hash, count } => format!(
                "The custody log's chain is unbroken: {count} {} in order, each carrying the hash of the one before (last hash {head_hash}).",
                if *count == 1 { "entry" } else { "entries" }
            ),
            Self::Broken { at_seq, why } => format!(
                "The custody log's chain is broken at entry {at_seq}: {}",
                why.words()
            ),
        }
    }
}

impl ChainBreak {
    /// Why, in plain words.
    pub fn words(self) -> &'static str {
        match self {
            Self::Missing => "that entry is missing.",
            Self::Edited => "its content does not give the hash it carries, so it was changed after it was written.",
            Self::Reordered => "it is out of order.",
            Self::Unlinked => "it does not carry the hash of the entry before it.",
        }
    }
}

/// Checks a log, oldest entry first: seqs 1, 2, 3... with none missing or out of order (the
/// break is reported at the seq that is not where it should be), each
/// entry's hash recomputed equal to the one it carries, each prev_hash equal to the hash
/// before it ([`GENESIS_HASH`] for the first). The first break found is reported.
pub fn check_chain(entries: &[CustodyEntry]) -> ChainCheck {
    let mut prev_hash = GENESIS_HASH;
    let mut expected_seq = 1;
    for (index, entry) in entries.iter().enumerate() {
        if entry.seq != expected_seq {
            // The entry due here comes later (moved), or is nowhere (removed); an entry
            // whose seq was already passed is out of order too (moved back, or repeated).
            let later = entries[index..].iter().any(|e| e.seq == expected_seq);
            let why = if later || entry.seq < expected_seq {
                ChainBreak::Reordered
            } else {
                ChainBreak::Missing
            };
            return broken(expected_seq, why);
        }
        if entry_hash(entry) != entry.hash {
            return broken(entry.seq, ChainBreak::Edited);
        }
        if entry.prev_hash != prev_hash {
            return broken(entry.seq, ChainBreak::Unlinked);
        }
        prev_hash = &entry.hash;
        expected_seq += 1;
    }
    ChainCheck::Unbroken {
        head_hash: prev_hash.to_owned(),
        count: expected_seq - 1,
    }
}

fn broken(at_seq: i64, why: ChainBreak) -> ChainCheck {
    ChainCheck::Broken { at_seq, why }
}

/// The log as JSON Lines: one entry per line, oldest first, each line ending in `\n`.
pub fn to_jsonl(entries: &[CustodyEntry]) -> String {
    entries
        .iter()
        .map(|entry| serde_json::to_string(entry).expect("an entry always serializes") + "\n")
        .collect()
}

/// Reads [`to_jsonl`]'s form back, strictly: every non-empty line one entry with every field
/// and no other. An error names the line (from 1) and what is wrong with it.
pub fn from_jsonl(text: &str) -> Result<Vec<CustodyEntry>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(index, line)| {
            serde_json::from_str(line)
                .map_err(|error| format!("custody.jsonl line {}: {error}", index + 1))
        })
        .collect()
}

#[cfg(test)]
mod log_tests;
#[cfg(test)]
mod tests;
