//! Reading a file in batches from any line: JSON Lines a line at a time, a CSV a record at a
//! time (a record may hold line breaks inside quotes; it is numbered by its first line). Each
//! batch says how many lines and bytes are read in all, so the next read (after a cancel or a
//! quit) starts exactly where the last recorded batch ended.

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use sightline_store::{ImportBatch, ImportFormat, ImportLine, ImportLineItem};

use super::fourcat;
use super::Item;
use crate::findings::new_post;

/// Lines a batch (one transaction) holds at most. Every commit writes each page it changed
/// once more (to the WAL, synced) and the indexes' pages are spread, so fewer, larger
/// transactions write far less: at 1,000 lines a 1,000,000-line import wrote 59 GB for a
/// 4.3 GB database.
pub(super) const BATCH_LINES: usize = 5_000;

/// Posts a batch holds at most (a twarc2 page holds up to a hundred a line).
const BATCH_POSTS: usize = 5_000;

/// Bytes read from the disk at a time.
const BUFFER: usize = 1 << 20;

/// A file being read from a given line.
pub(super) struct Reader {
    source: Source,
    lines_done: i64,
    offset_done: i64,
}

enum Source {
    Json {
        format: ImportFormat,
        file: BufReader<File>,
    },
    Csv {
        header: Vec<String>,
        records: Box<csv::Reader<BufReader<File>>>,
        /// The same bytes again, read alongside, to keep each record exactly as written.
        raw: BufReader<File>,
        base_offset: i64,
        base_line: i64,
    },
}

/// A record's cells as text (a cell that is not UTF-8 read with replacement characters).
fn cells(record: &csv::ByteRecord) -> Vec<String> {
    record
        .iter()
        .map(|cell| String::from_utf8_lossy(cell).into_owned())
        .collect()
}

fn csv_reader(file: File) -> csv::Reader<BufReader<File>> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(BufReader::with_capacity(BUFFER, file))
}

/// The line as kept: without its line break, not-UTF-8 bytes replaced.
fn line_text(bytes: &[u8]) -> String {
    let mut end = bytes.len();
    while end > 0 && matches!(bytes[end - 1], b'\n' | b'\r') {
        end -= 1;
    }
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}

impl Reader {
    /// Opens `path` to read `format` after `lines_done` lines, at byte `offset_done`.
    pub(super) fn open(
        path: &Path,
        format: ImportFormat,
        lines_done: i64,
        offset_done: i64,
    ) -> std::io::Result<Self> {
        let start = u64::try_from(offset_done).unwrap_or(0);
        let source = if matches!(format, ImportFormat::FourcatCsv | ImportFormat::DmrcCsv) {
            let header = if offset_done > 0 {
                let mut first = csv_reader(File::open(path)?);
                let mut record = csv::ByteRecord::new();
                first.read_byte_record(&mut record)?;
                cells(&record)
            } else {
                Vec::new()
            };
            let mut file = File::open(path)?;
            file.seek(SeekFrom::Start(start))?;
            let mut raw = BufReader::with_capacity(BUFFER, File::open(path)?);
            raw.seek(SeekFrom::Start(start))?;
            Source::Csv {
                header,
                records: Box::new(csv_reader(file)),
                raw,
                base_offset: offset_done,
                base_line: lines_done,
            }
        } else {
            let mut file = File::open(path)?;
            file.seek(SeekFrom::Start(start))?;
            Source::Json {
                format,
                file: BufReader::with_capacity(BUFFER, file),
            }
        };
        Ok(Reader {
            source,
            lines_done,
            offset_done,
        })
    }

    /// The next batch of lines, or `None` at the end of the file.
    pub(super) fn next_batch(&mut self) -> std::io::Result<Option<ImportBatch>> {
        let mut batch = ImportBatch::default();
        let mut lines = 0;
        let mut posts = 0;
        while lines < BATCH_LINES && posts < BATCH_POSTS {
            let Some((line, source, items)) = self.next_line()? else {
                break;
            };
            lines += 1;
            let mut source = Some(source);
            for (item, found) in items.into_iter().enumerate() {
                let what = match found {
                    Item::Post(post) => match new_post(&post, false) {
                        Some(stored) => {
                            posts += 1;
                            ImportLineItem::Post(Box::new(stored))
                        }
                        None => ImportLineItem::Unreadable(format!(
                            "post {} has no readable time",
                            post.id
                        )),
                    },
                    Item::NotAPost(why) => ImportLineItem::NotAPost(why),
                    Item::Unreadable(why) => ImportLineItem::Unreadable(why),
                };
                batch.lines.push(ImportLine {
                    line,
                    item: item as i64,
                    what,
                    source: source.take(),
                });
            }
        }
        if lines == 0 {
            return Ok(None);
        }
        batch.lines_done = self.lines_done;
        batch.offset_done = self.offset_done;
        Ok(Some(batch))
    }

    /// The next line (or CSV record): its number, its text, and what it holds.
    fn next_line(&mut self) -> std::io::Result<Option<(i64, String, Vec<Item>)>> {
        match &mut self.source {
            Source::Json { format, file } => {
                let mut bytes = Vec::new();
                let read = file.read_until(b'\n', &mut bytes)?;
                if read == 0 {
                    return Ok(None);
                }
                self.lines_done += 1;
                self.offset_done += read as i64;
                let line = self.lines_done;
                let items = match std::str::from_utf8(&bytes) {
                    Ok(text) => {
                        let text = if line == 1 {
                            text.trim_start_matches('\u{feff}')
                        } else {
                            text
                        };
                        super::detect::json_line(*format, text)
                    }
                    Err(_) => vec![Item::Unreadable("not UTF-8 text".into())],
                };
                Ok(Some((line, line_text(&bytes), items)))
            }
            Source::Csv {
                header,
                records,
                raw,
                base_offset,
                base_line,
            } => {
                let mut record = csv::ByteRecord::new();
                if !records.read_byte_record(&mut record)? {
                    return Ok(None);
                }
                // The record begins on the line after those read so far.
                let line = self.lines_done + 1;
                let end = *base_offset + records.position().byte() as i64;
                let mut bytes = vec![0; usize::try_from(end - self.offset_done).unwrap_or(0)];
                raw.read_exact(&mut bytes)?;
                self.offset_done = end;
                // After a record the reader stands on its last line (1 for the first).
                self.lines_done = (*base_line + records.position().line() as i64).max(line);
                let items = if header.is_empty() {
                    *header = cells(&record)
                        .into_iter()
                        .map(|name| name.trim_start_matches('\u{feff}').trim().to_owned())
                        .collect();
                    vec![Item::NotAPost("the CSV's header row".into())]
                } else {
                    let row = fourcat::Row {
                        header,
                        cells: cells(&record),
                    };
                    vec![fourcat::item(&row)]
                };
                Ok(Some((line, line_text(&bytes), items)))
            }
        }
    }
}
