//! The ZIP's own index, read byte by byte: the end record (and the ZIP64 one), the central
//! directory's entries, and the little-endian fields they are made of. The `zip` crate would
//! hide what this must see (two entries with one name, an index that lies about sizes), so
//! [`super::read_zip`] reads it through these.

use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use super::{finding, Finding, FindingKind, MAX_ENTRIES, MAX_INDEX_BYTES};
use crate::errors::CommandError;

/// An entry as the index lists it.
#[derive(Debug, Clone)]
pub(super) struct Listed {
    pub(super) name: String,
    pub(super) flags: u16,
    pub(super) method: u16,
    pub(super) crc: u32,
    pub(super) stored: u64,
    pub(super) size: u64,
    pub(super) offset: u64,
    pub(super) zip64: bool,
    /// Where its data starts, once its own header was read; `None` when that failed.
    pub(super) data: Option<u64>,
}

impl Listed {
    pub(super) fn is_folder(&self) -> bool {
        self.name.ends_with('/')
    }
}

const END_SIG: u32 = 0x0605_4b50;
const ZIP64_LOCATOR_SIG: u32 = 0x0706_4b50;
const ZIP64_END_SIG: u32 = 0x0606_4b50;
const CENTRAL_SIG: u32 = 0x0201_4b50;
pub(super) const LOCAL_SIG: u32 = 0x0403_4b50;
pub(super) const DESCRIPTOR_SIG: u32 = 0x0807_4b50;

pub(super) fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}
pub(super) fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}
fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut eight = [0u8; 8];
    eight.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(eight)
}

fn not_a_zip(path: &Path) -> CommandError {
    CommandError::file(format!(
        "{} is not a ZIP file, so it is not an evidence bundle.",
        path.display()
    ))
}

fn damaged(path: &Path, what: &str) -> CommandError {
    CommandError::file(format!(
        "{} is a damaged ZIP file ({what}), so it cannot be checked.",
        path.display()
    ))
}

pub(super) fn io(path: &Path, error: std::io::Error) -> CommandError {
    CommandError::file(format!(
        "{} could not be read to the end ({error}).",
        path.display()
    ))
}

/// Where the index is, as the end record says.
pub(super) struct End {
    entries: u64,
    pub(super) index_at: u64,
    index_bytes: u64,
    /// Where the index must end: the ZIP64 end record, else the end record.
    index_end: u64,
}

/// Reads the end record (and the ZIP64 one when there is one). Bytes after the end record's
/// comment are a finding.
pub(super) fn read_end(
    file: &mut File,
    len: u64,
    path: &Path,
    findings: &mut Vec<Finding>,
) -> Result<End, CommandError> {
    let tail_len = len.min(22 + 65_535);
    let tail_at = len - tail_len;
    let mut tail = vec![0u8; usize::try_from(tail_len).unwrap_or(0)];
    file.seek(SeekFrom::Start(tail_at))
        .and_then(|_| file.read_exact(&mut tail))
        .map_err(|e| io(path, e))?;
    // The last end record whose comment fits in the file; the exact fit is preferred.
    let mut found = None;
    for at in (0..tail.len().saturating_sub(21)).rev() {
        if u32_at(&tail, at) == END_SIG {
            let comment_end = at + 22 + usize::from(u16_at(&tail, at + 20));
            if comment_end == tail.len() {
                found = Some(at);
                break;
            }
            if comment_end < tail.len() && found.is_none() {
                found = Some(at);
            }
        }
    }
    let at = found.ok_or_else(|| not_a_zip(path))?;
    let end = &tail[at..];
    let after = tail.len() - (at + 22 + usize::from(u16_at(end, 20)));
    if after > 0 {
        findings.push(finding(
            FindingKind::DataOutsideIndex,
            None,
            format!("{after} bytes follow the end of the ZIP; no tool shows them."),
        ));
    }
    if u16_at(end, 4) != 0 || u16_at(end, 6) != 0 {
        return Err(damaged(path, "it is split across several files"));
    }
    let end_at = tail_at + at as u64;
    let mut record = End {
        entries: u64::from(u16_at(end, 10)),
        index_bytes: u64::from(u32_at(end, 12)),
        index_at: u64::from(u32_at(end, 16)),
        index_end: end_at,
    };
    // A ZIP64 end record sits before its locator, which sits just before the end record.
    if end_at >= 20 {
        let mut locator = [0u8; 20];
        file.seek(SeekFrom::Start(end_at - 20))
            .and_then(|_| file.read_exact(&mut locator))
            .map_err(|e| io(path, e))?;
        if u32_at(&locator, 0) == ZIP64_LOCATOR_SIG {
            let zip64_at = u64_at(&locator, 8);
            let mut zip64 = [0u8; 56];
            file.seek(SeekFrom::Start(zip64_at))
                .and_then(|_| file.read_exact(&mut zip64))
                .map_err(|_| damaged(path, "its ZIP64 end record is missing"))?;
            if u32_at(&zip64, 0) != ZIP64_END_SIG {
                return Err(damaged(path, "its ZIP64 end record is missing"));
            }
            record = End {
                entries: u64_at(&zip64, 32),
                index_bytes: u64_at(&zip64, 40),
                index_at: u64_at(&zip64, 48),
                index_end: zip64_at,
            };
        }
    }
    Ok(record)
}

/// Reads the index's entries, refusing one too large before reading it.
pub(super) fn read_index(
    file: &mut File,
    end: &End,
    path: &Path,
    findings: &mut Vec<Finding>,
) -> Result<Option<Vec<Listed>>, CommandError> {
    if end.entries > MAX_ENTRIES {
        findings.push(finding(
            FindingKind::TooManyEntries,
            None,
            format!(
                "The ZIP says it holds {} entries, more than the {MAX_ENTRIES} a bundle may \
                 hold; it was not read.",
                end.entries
            ),
        ));
        return Ok(None);
    }
    if end.index_bytes > MAX_INDEX_BYTES {
        findings.push(finding(
            FindingKind::IndexTooLarge,
            None,
            format!(
                "The ZIP's index is {} MiB, more than a bundle's can be ({} MiB); it was not read.",
                end.index_bytes >> 20,
                MAX_INDEX_BYTES >> 20
            ),
        ));
        return Ok(None);
    }
    let index_stop = end.index_at.checked_add(end.index_bytes);
    match index_stop {
        Some(stop) if stop < end.index_end => findings.push(finding(
            FindingKind::DataOutsideIndex,
            None,
            format!(
                "{} bytes lie between the ZIP's index and its end record; no tool shows them.",
                end.index_end - stop
            ),
        )),
        Some(stop) if stop == end.index_end => {}
        _ => return Err(damaged(path, "its index runs past its end")),
    }
    file.seek(SeekFrom::Start(end.index_at))
        .map_err(|e| io(path, e))?;
    let mut index = BufReader::new(file).take(end.index_bytes);
    let mut listed = Vec::with_capacity(usize::try_from(end.entries).unwrap_or(0));
    let mut fixed = [0u8; 46];
    for _ in 0..end.entries {
        index
            .read_exact(&mut fixed)
            .map_err(|_| damaged(path, "its index is cut short"))?;
        if u32_at(&fixed, 0) != CENTRAL_SIG {
            return Err(damaged(path, "its index is not where its end record says"));
        }
        let mut variable =
            vec![0u8; usize::from(u16_at(&fixed, 28)) + usize::from(u16_at(&fixed, 30))];
        index
            .read_exact(&mut variable)
            .map_err(|_| damaged(path, "its index is cut short"))?;
        let comment = u64::from(u16_at(&fixed, 32));
        if std::io::copy(&mut (&mut index).take(comment), &mut std::io::sink()).ok()
            != Some(comment)
        {
            return Err(damaged(path, "its index is cut short"));
        }
        let (name, extra) = variable.split_at(usize::from(u16_at(&fixed, 28)));
        let mut entry = Listed {
            name: String::from_utf8_lossy(name).into_owned(),
            flags: u16_at(&fixed, 8),
            method: u16_at(&fixed, 10),
            crc: u32_at(&fixed, 16),
            stored: u64::from(u32_at(&fixed, 20)),
            size: u64::from(u32_at(&fixed, 24)),
            offset: u64::from(u32_at(&fixed, 42)),
            zip64: false,
            data: None,
        };
        apply_zip64(&mut entry, extra);
        listed.push(entry);
    }
    if index.limit() > 0 {
        findings.push(finding(
            FindingKind::DataOutsideIndex,
            None,
            format!(
                "The ZIP's index holds {} bytes after the {} entries it counts; no tool shows them.",
                index.limit(),
                end.entries
            ),
        ));
    }
    Ok(Some(listed))
}

/// The ZIP64 extra field: the 64-bit size, stored size and offset, each present only where
/// the 32-bit field is all ones.
fn apply_zip64(entry: &mut Listed, mut extra: &[u8]) {
    while extra.len() >= 4 {
        let id = u16_at(extra, 0);
        let len = usize::from(u16_at(extra, 2)).min(extra.len() - 4);
        if id == 0x0001 {
            let mut field = &extra[4..4 + len];
            for value in [&mut entry.size, &mut entry.stored, &mut entry.offset] {
                if *value == u64::from(u32::MAX) && field.len() >= 8 {
                    *value = u64_at(field, 0);
                    field = &field[8..];
                }
            }
            entry.zip64 = true;
        }
        extra = &extra[4 + len..];
    }
}
