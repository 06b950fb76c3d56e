//! Reading a bundle's ZIP strictly, for "Verify a bundle". A ZIP can say one thing to one tool
//! and another to the next: two entries with one name, a "folder" that holds data, an entry
//! placed before the index's first one that tools reading from the start would show, bytes
//! between entries, a few kilobytes that inflate to gigabytes. The `zip` crate hides most of
//! that (it keeps the last of two names, skips what its index does not list), so this reads the
//! index (the central directory) itself, walks the entries' own headers in file order, and
//! streams each entry through a fixed buffer; every trick is a [`Finding`] in plain words,
//! never skipped in silence.
//!
//! Memory stays bounded whatever the ZIP claims: the index is refused above
//! [`MAX_INDEX_BYTES`] or [`MAX_ENTRIES`] entries before it is read; an entry's content is
//! never held, only streamed through one [`CHUNK`] buffer (plus the inflater's 32 KiB window),
//! except the few a check reads (the lists, the signature and its key, the custody log, the
//! timestamp tokens), each kept only up to [`MAX_LIST_BYTES`] and all together up to
//! [`MAX_KEPT_BYTES`]. So the peak is about the index's size plus `MAX_KEPT_BYTES` plus a few
//! hundred KiB, at most ~60 MiB, and a few MiB for a normal bundle.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;
use std::time::{Duration, Instant};

use serde::Serialize;
use sha2::{Digest, Sha256};
use sightline_api::CancelToken;
use ts_rs::TS;

use super::hex;
use crate::errors::CommandError;

mod index;
use index::{io, read_end, read_index, u16_at, u32_at, Listed, DESCRIPTOR_SIG, LOCAL_SIG};

/// The most entries a bundle may hold (one per response, plus seven files).
pub const MAX_ENTRIES: u64 = 50_000;
/// The largest index (central directory) read.
pub const MAX_INDEX_BYTES: u64 = 16 << 20;
/// The most one entry may inflate to: above the largest media file Sightline keeps (the size
/// limit in Settings goes to 2,048 MB), a video being one of the bundle's files.
pub const MAX_ENTRY_BYTES: u64 = 4 << 30;
/// The most all entries together may inflate to: a case's kept videos can come to many
/// gigabytes, every one of them read and hashed (streamed: the bound is on time, not memory).
pub const MAX_TOTAL_BYTES: u64 = 64 << 30;
/// The most an entry may inflate per byte stored, once past [`RATIO_FLOOR`] (JSON and text
/// compress about 5 to 20 times; a bomb about 1,000).
pub const MAX_RATIO: u64 = 100;
/// Below this an entry may inflate at any ratio: a small file cannot do harm.
pub const RATIO_FLOOR: u64 = 1 << 20;
/// The most of one kept file (`SHA256SUMS`, `manifest.json`, `custody.jsonl`, a token) read.
pub const MAX_LIST_BYTES: u64 = 16 << 20;
/// The most of all kept files together (a token is a few KiB; a 10,000-post case's custody log
/// a few MiB).
pub const MAX_KEPT_BYTES: u64 = 32 << 20;
/// The one buffer an entry streams through.
pub const CHUNK: usize = 64 * 1024;

/// What kind of trick or damage a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub enum FindingKind {
    /// More entries than a bundle may hold; the index was not read.
    TooManyEntries,
    /// An index larger than a bundle's can be; it was not read.
    IndexTooLarge,
    /// Two entries share a name (or differ only in case): tools disagree on which one they show.
    DuplicateName,
    /// An entry named like a folder holds data, which tools that skip folders never show.
    FolderHoldsData,
    /// A name that would be written outside the folder it is extracted into.
    UnsafeName,
    /// Bytes the index lists no entry for: before the first entry, between two, or after the last.
    DataOutsideIndex,
    /// Two entries, or an entry and the index, claim the same bytes.
    OverlappingEntries,
    /// An entry's own header and the index disagree about it (its name or method).
    HeadersDisagree,
    /// An encrypted entry: its content cannot be checked.
    Encrypted,
    /// A compression method Sightline does not read (it writes only stored and deflate).
    UnknownMethod,
    /// An entry that inflates past `MAX_ENTRY_BYTES`; it was not read further.
    EntryTooLarge,
    /// An entry that inflates more than `MAX_RATIO` times its stored size; not read further.
    TooCompressed,
    /// All entries together inflate past `MAX_TOTAL_BYTES`; the rest was not read.
    TotalTooLarge,
    /// An entry's checksum or size is not the one the index gives, or it cannot be inflated.
    Damaged,
    /// Bytes stored in an entry after its compressed data ends.
    HiddenInEntry,
}

/// One thing wrong with the ZIP itself, in plain words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct Finding {
    /// What kind it is.
    pub kind: FindingKind,
    /// The entry it is about, when it is about one.
    pub path: Option<String>,
    /// One or two sentences for the screen.
    pub words: String,
}

fn finding(kind: FindingKind, path: Option<&str>, words: String) -> Finding {
    Finding {
        kind,
        path: path.map(str::to_owned),
        words,
    }
}

/// How far a read is: `done` of `total` entries, the one being read, and the percent of the
/// stored bytes read (an entry can be large).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct ReadProgress {
    /// Entries read.
    pub done: u32,
    /// Entries in the index.
    pub total: u32,
    /// Of the stored bytes, how many percent are read.
    pub percent: u8,
    /// The entry being read.
    pub file: String,
}

/// One entry read: its name and, when it could be read to the end, the SHA-256 of its content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadEntry {
    /// The name the index gives it.
    pub name: String,
    /// `None` when it was not read to the end (see the findings).
    pub sha256: Option<String>,
    /// The content, for the names asked to be kept (up to [`MAX_LIST_BYTES`] each and
    /// [`MAX_KEPT_BYTES`] in all).
    pub kept: Option<Vec<u8>>,
}

/// What a strict read found: every file entry in index order (folders without data left out)
/// and every finding.
#[derive(Debug, Clone, Default)]
pub struct ZipRead {
    /// The file entries, in the index's order; a duplicated name appears more than once.
    pub entries: Vec<ReadEntry>,
    /// Everything wrong with the ZIP itself.
    pub findings: Vec<Finding>,
    /// Reading stopped before the end (too many entries, an index too large, too much data):
    /// the entries are not all there.
    pub stopped: bool,
}

/// Names the index holds twice, or twice but for case, and names that would leave the folder
/// they are extracted into.
fn name_findings(listed: &[Listed], findings: &mut Vec<Finding>) {
    let mut seen: HashMap<String, (&str, u32)> = HashMap::new();
    for entry in listed {
        let slot = seen
            .entry(entry.name.to_lowercase())
            .or_insert((&entry.name, 0));
        slot.1 += 1;
        if slot.1 == 2 {
            let words = if slot.0 == entry.name {
                format!(
                    "Two entries are named {}: tools differ on which one they show, so each \
                     copy was checked.",
                    entry.name
                )
            } else {
                format!(
                    "Two entries, {} and {}, differ only in case: on Windows and macOS one \
                     replaces the other when unpacked.",
                    slot.0, entry.name
                )
            };
            findings.push(finding(
                FindingKind::DuplicateName,
                Some(&entry.name),
                words,
            ));
        }
        let parts: Vec<&str> = entry.name.split(['/', '\\']).collect();
        if entry.name.starts_with(['/', '\\'])
            || entry.name.contains('\\')
            || entry.name.get(1..2) == Some(":")
            || parts.contains(&"..")
        {
            findings.push(finding(
                FindingKind::UnsafeName,
                Some(&entry.name),
                format!(
                    "The entry {} is named to land outside the folder it is unpacked into.",
                    entry.name
                ),
            ));
        }
    }
}

/// What a stretch of bytes the index does not list holds, in words: an entry's header (and its
/// name) when it starts with one.
fn describe_gap(file: &mut File, at: u64, bytes: u64) -> String {
    let mut header = [0u8; 30];
    let read = file
        .seek(SeekFrom::Start(at))
        .and_then(|_| file.read_exact(&mut header));
    if bytes >= 30 && read.is_ok() && u32_at(&header, 0) == LOCAL_SIG {
        let mut name = vec![0u8; usize::from(u16_at(&header, 26)).min(1024)];
        if file.read_exact(&mut name).is_ok() {
            return format!(
                "an entry named {} that the index does not list (tools that read the file from \
                 its start would show it)",
                String::from_utf8_lossy(&name)
            );
        }
    }
    "data no tool shows".into()
}

/// Walks the entries' own headers in file order: every byte from the start of the file to the
/// index must belong to exactly one entry the index lists.
fn walk_headers(
    file: &mut File,
    listed: &mut [Listed],
    index_at: u64,
    findings: &mut Vec<Finding>,
) {
    let mut order: Vec<usize> = (0..listed.len()).collect();
    order.sort_by_key(|&i| listed[i].offset);
    let mut at = 0u64;
    let mut last: Option<String> = None;
    for i in order {
        let entry = &mut listed[i];
        if entry.offset > at {
            let bytes = entry.offset - at;
            let where_ = match &last {
                None => format!("before the first entry ({})", entry.name),
                Some(previous) => format!("between {previous} and {}", entry.name),
            };
            findings.push(finding(
                FindingKind::DataOutsideIndex,
                Some(&entry.name),
                format!(
                    "{bytes} bytes {where_} are listed in no index: {}.",
                    describe_gap(file, at, bytes)
                ),
            ));
        } else if entry.offset < at {
            findings.push(finding(
                FindingKind::OverlappingEntries,
                Some(&entry.name),
                format!(
                    "The entry {} starts inside {}: two entries share bytes.",
                    entry.name,
                    last.as_deref().unwrap_or("another entry")
                ),
            ));
        }
        let mut header = [0u8; 30];
        let read = file
            .seek(SeekFrom::Start(entry.offset))
            .and_then(|_| file.read_exact(&mut header));
        if read.is_err() || u32_at(&header, 0) != LOCAL_SIG {
            findings.push(finding(
                FindingKind::Damaged,
                Some(&entry.name),
                format!(
                    "The entry {} is not where the index says; it could not be read.",
                    entry.name
                ),
            ));
            continue;
        }
        let name_len = usize::from(u16_at(&header, 26));
        let mut name = vec![0u8; name_len];
        if file.read_exact(&mut name).is_err() || name != entry.name.as_bytes() {
            findings.push(finding(
                FindingKind::HeadersDisagree,
                Some(&entry.name),
                format!(
                    "The entry the index names {} calls itself {} in its own header: tools \
                     that read the headers show another name.",
                    entry.name,
                    String::from_utf8_lossy(&name)
                ),
            ));
        }
        if u16_at(&header, 8) != entry.method {
            findings.push(finding(
                FindingKind::HeadersDisagree,
                Some(&entry.name),
                format!(
                    "The entry {}'s own header and the index give it different compression.",
                    entry.name
                ),
            ));
        }
        let data = entry.offset + 30 + name_len as u64 + u64::from(u16_at(&header, 28));
        entry.data = Some(data);
        let mut end = data.saturating_add(entry.stored);
        if entry.flags & 0x8 != 0 {
            // A data descriptor follows: an optional signature, the checksum, two sizes.
            let mut sig = [0u8; 4];
            let signed = file.seek(SeekFrom::Start(end)).is_ok()
                && file.read_exact(&mut sig).is_ok()
                && u32::from_le_bytes(sig) == DESCRIPTOR_SIG;
            end += if signed { 4 } else { 0 } + if entry.zip64 { 20 } else { 12 };
        }
        at = at.max(end);
        last = Some(entry.name.clone());
    }
    if at < index_at {
        findings.push(finding(
            FindingKind::DataOutsideIndex,
            None,
            format!(
                "{} bytes between the last entry and the index are listed in no index: {}.",
                index_at - at,
                describe_gap(file, at, index_at - at)
            ),
        ));
    } else if at > index_at {
        findings.push(finding(
            FindingKind::OverlappingEntries,
            last.as_deref(),
            "The last entry runs into the ZIP's index.".into(),
        ));
    }
}

/// Reports progress at most every tenth of a second.
struct Progress<'p> {
    report: &'p mut (dyn FnMut(ReadProgress) + Send),
    total_entries: u32,
    stored_total: u64,
    stored_done: u64,
    last: Option<Instant>,
}

impl Progress<'_> {
    fn tell(&mut self, done: usize, file: &str, force: bool) {
        if !force
            && self
                .last
                .is_some_and(|t| t.elapsed() < Duration::from_millis(100))
        {
            return;
        }
        self.last = Some(Instant::now());
        let percent = (self.stored_done.min(self.stored_total) * 100)
            .checked_div(self.stored_total)
            .unwrap_or(100);
        (self.report)(ReadProgress {
            done: u32::try_from(done).unwrap_or(u32::MAX),
            total: self.total_entries,
            percent: u8::try_from(percent).unwrap_or(100),
            file: file.to_owned(),
        });
    }
}

/// How reading one entry's content ended.
enum Streamed {
    /// Read to its end: the content's hash.
    Whole(String),
    /// Not read to its end (a finding says why).
    Partly,
    /// All entries together are too large: stop reading.
    StopAll,
    Cancelled,
}

/// Reads the ZIP at `path` strictly: the index, every entry's header in file order, and every
/// entry's content streamed and hashed. `keep` names the entries whose content is kept (up to
/// [`MAX_LIST_BYTES`] each, [`MAX_KEPT_BYTES`] in all). `Ok(None)` when cancelled; an error only when the file is not a ZIP or
/// its index cannot be read at all.
pub fn read_zip(
    path: &Path,
    keep: &dyn Fn(&str) -> bool,
    report: &mut (dyn FnMut(ReadProgress) + Send),
    cancel: &CancelToken,
) -> Result<Option<ZipRead>, CommandError> {
    let mut file = File::open(path).map_err(|error| {
        CommandError::not_found(format!("{} could not be opened: {error}", path.display()))
    })?;
    let len = file.metadata().map_err(|e| io(path, e))?.len();
    let mut read = ZipRead::default();
    let end = read_end(&mut file, len, path, &mut read.findings)?;
    let Some(mut listed) = read_index(&mut file, &end, path, &mut read.findings)? else {
        read.stopped = true;
        return Ok(Some(read));
    };
    name_findings(&listed, &mut read.findings);
    walk_headers(&mut file, &mut listed, end.index_at, &mut read.findings);

    let mut progress = Progress {
        report,
        total_entries: u32::try_from(listed.len()).unwrap_or(u32::MAX),
        stored_total: listed.iter().map(|e| e.stored).sum(),
        stored_done: 0,
        last: None,
    };
    progress.tell(0, "", true);
    let mut reader = BufReader::with_capacity(CHUNK, file);
    let mut buffer = vec![0u8; CHUNK];
    let mut total = 0u64;
    let mut kept_total = 0u64;
    for (done, entry) in listed.iter().enumerate() {
        if cancel.is_cancelled() {
            return Ok(None);
        }
        progress.tell(done, &entry.name, false);
        let mut kept = keep(&entry.name).then(Vec::new);
        let room = MAX_LIST_BYTES.min(MAX_KEPT_BYTES - kept_total);
        let outcome = match readable(entry, &mut read.findings) {
            Some(data) => stream(
                &mut reader,
                entry,
                data,
                (&mut buffer, (&mut kept, room), &mut total),
                &mut read.findings,
                cancel,
            ),
            None => Streamed::Partly,
        };
        progress.stored_done += entry.stored;
        kept_total += kept.as_ref().map_or(0, |k| k.len() as u64);
        let sha256 = match outcome {
            Streamed::Cancelled => return Ok(None),
            Streamed::StopAll => {
                read.stopped = true;
                break;
            }
            Streamed::Whole(hash) => Some(hash),
            Streamed::Partly => None,
        };
        if entry.is_folder() && entry.size == 0 && entry.stored <= 2 && sha256.is_some() {
            continue; // an empty folder: nothing to check
        }
        read.entries.push(ReadEntry {
            name: entry.name.clone(),
            sha256,
            kept,
        });
    }
    progress.tell(listed.len(), "", true);
    Ok(Some(read))
}

/// Where an entry's data starts, or `None` (with a finding) when it is not to be read: its
/// header could not be read, it is encrypted, compressed in a way Sightline does not read,
/// declared too large, or a folder holding data.
fn readable(entry: &Listed, findings: &mut Vec<Finding>) -> Option<u64> {
    let name = &entry.name;
    let mut say = |kind, words: String| {
        findings.push(finding(kind, Some(name), words));
        None
    };
    let data = entry.data?;
    if entry.flags & 0x41 != 0 {
        return say(
            FindingKind::Encrypted,
            format!("The entry {name} is encrypted: its content cannot be checked."),
        );
    }
    if entry.method != 0 && entry.method != 8 {
        return say(
            FindingKind::UnknownMethod,
            format!(
                "The entry {name} is compressed with method {}, which Sightline never uses and \
                 does not read: its content was not checked.",
                entry.method
            ),
        );
    }
    if entry.is_folder() && (entry.size > 0 || entry.stored > 2) {
        return say(
            FindingKind::FolderHoldsData,
            format!(
                "The folder entry {name} holds {} bytes of data: a folder holds none, and tools \
                 that skip folders never show it.",
                entry.size.max(entry.stored)
            ),
        );
    }
    if entry.size > MAX_ENTRY_BYTES {
        return say(
            FindingKind::EntryTooLarge,
            format!(
                "The entry {name} says it holds {} MiB, more than the {} MiB a bundle's file may; \
                 it was not read.",
                entry.size >> 20,
                MAX_ENTRY_BYTES >> 20
            ),
        );
    }
    if entry.size > RATIO_FLOOR && entry.size / entry.stored.max(1) > MAX_RATIO {
        return say(
            FindingKind::TooCompressed,
            too_compressed(name, entry.size, entry.stored),
        );
    }
    Some(data)
}

fn too_compressed(name: &str, size: u64, stored: u64) -> String {
    format!(
        "The entry {name} inflates from {} KiB to more than {} MiB, over {MAX_RATIO} times its \
         size (a ZIP bomb's trick); it was not read further.",
        stored.div_ceil(1024),
        size >> 20
    )
}

/// An entry's stored bytes, inflated when they are deflated; it knows how many stored bytes
/// its compressed stream left unread (data no tool shows).
enum Source<'r> {
    Stored(std::io::Take<&'r mut BufReader<File>>),
    Deflated {
        input: std::io::Take<&'r mut BufReader<File>>,
        inflate: flate2::Decompress,
        ended: bool,
    },
}

impl Source<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let (input, inflate, ended) = match self {
            Source::Stored(input) => return input.read(out),
            Source::Deflated {
                input,
                inflate,
                ended,
            } => (input, inflate, ended),
        };
        loop {
            if *ended {
                return Ok(0);
            }
            let data = input.fill_buf()?;
            let empty = data.is_empty();
            let (before_in, before_out) = (inflate.total_in(), inflate.total_out());
            let status = inflate
                .decompress(data, out, flate2::FlushDecompress::None)
                .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
            let used = usize::try_from(inflate.total_in() - before_in).unwrap_or(0);
            let produced = usize::try_from(inflate.total_out() - before_out).unwrap_or(0);
            input.consume(used);
            *ended = status == flate2::Status::StreamEnd;
            if produced > 0 || *ended {
                return Ok(produced);
            }
            if empty {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::UnexpectedEof,
                    "its compressed data is cut short",
                ));
            }
        }
    }

    /// Stored bytes after the compressed stream's end.
    fn left(&self) -> u64 {
        match self {
            Source::Stored(input) | Source::Deflated { input, .. } => input.limit(),
        }
    }
}

/// Where a kept entry's content goes, and how much of it may be kept.
type Kept<'k> = (&'k mut Option<Vec<u8>>, u64);

/// Streams one entry through `buffer`, hashing it and checking its checksum and sizes, and
/// stops at the first limit it passes.
fn stream(
    reader: &mut BufReader<File>,
    entry: &Listed,
    data: u64,
    (buffer, (kept, room), total): (&mut [u8], Kept, &mut u64),
    findings: &mut Vec<Finding>,
    cancel: &CancelToken,
) -> Streamed {
    let name = &entry.name;
    let mut say = |kind, words: String| findings.push(finding(kind, Some(name), words));
    if reader.seek(SeekFrom::Start(data)).is_err() {
        say(
            FindingKind::Damaged,
            format!("The entry {name} could not be read."),
        );
        return Streamed::Partly;
    }
    let input = reader.by_ref().take(entry.stored);
    let mut source = match entry.method {
        8 => Source::Deflated {
            input,
            inflate: flate2::Decompress::new(false),
            ended: false,
        },
        _ => Source::Stored(input),
    };
    let mut digest = Sha256::new();
    let mut crc = flate2::Crc::new();
    let mut size = 0u64;
    loop {
        if cancel.is_cancelled() {
            return Streamed::Cancelled;
        }
        let n = match source.read(buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(error) => {
                say(
                    FindingKind::Damaged,
                    format!(
                        "The entry {name} could not be inflated ({error}): the ZIP is damaged."
                    ),
                );
                return Streamed::Partly;
            }
        };
        size += n as u64;
        *total += n as u64;
        if *total > MAX_TOTAL_BYTES {
            say(
                FindingKind::TotalTooLarge,
                format!(
                    "The entries inflate to more than {} GiB together, more than a bundle can \
                     hold; reading stopped at {name}.",
                    MAX_TOTAL_BYTES >> 30
                ),
            );
            return Streamed::StopAll;
        }
        if size > RATIO_FLOOR && size / entry.stored.max(1) > MAX_RATIO {
            say(
                FindingKind::TooCompressed,
                too_compressed(name, size, entry.stored),
            );
            return Streamed::Partly;
        }
        if size > entry.size {
            say(
                FindingKind::Damaged,
                format!(
                    "The entry {name} holds more than the {} bytes the index says; it was not \
                     read further.",
                    entry.size
                ),
            );
            return Streamed::Partly;
        }
        let chunk = &buffer[..n];
        digest.update(chunk);
        crc.update(chunk);
        if let Some(list) = kept.as_mut() {
            if list.len() as u64 + n as u64 > room {
                say(
                    FindingKind::EntryTooLarge,
                    if room < MAX_LIST_BYTES {
                        format!(
                            "{name} was not read: the bundle's lists, tokens and log together \
                             are larger than the {} MiB a bundle's can be.",
                            MAX_KEPT_BYTES >> 20
                        )
                    } else {
                        format!(
                            "{name} is larger than the {} MiB a bundle's list can be; it was \
                             not read.",
                            MAX_LIST_BYTES >> 20
                        )
                    },
                );
                *kept = None;
            } else {
                list.extend_from_slice(chunk);
            }
        }
    }
    let left = source.left();
    if left > 0 {
        say(
            FindingKind::HiddenInEntry,
            format!(
                "The entry {name} holds {left} bytes after its compressed data ends; no tool \
                 shows them."
            ),
        );
    }
    if size != entry.size || crc.sum() != entry.crc {
        say(
            FindingKind::Damaged,
            format!(
                "The entry {name}'s checksum or size is not the one the ZIP's index gives: the \
                 ZIP is damaged or was edited by hand."
            ),
        );
    }
    Streamed::Whole(hex(&digest.finalize()))
}

#[cfg(test)]
mod tests;
