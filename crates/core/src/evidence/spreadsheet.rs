//! `posts.csv`, made for spreadsheets: UTF-8 with a byte-order mark (so Excel reads it as
//! UTF-8), CRLF between rows, line breaks inside a post's text kept in its quoted cell, and
//! every cell a spreadsheet would run as a formula defused with a leading `'`
//! ([`sightline_store::export::cell`]).
//!
//! Long numbers: Excel and LibreOffice read a cell of digits as a number and keep 15
//! significant digits, so a 19-digit post id comes back with its last digits turned to zeros.
//! Every id made of digits is therefore written after a tab character. Both read a cell
//! that begins with a tab as text and show the digits unchanged (checked with LibreOffice
//! headless in the bundle's tests); a program that reads the file sees the tab as leading
//! white space, which `strip()`/`trim()` and integer parsers skip. The other ways were worse:
//! `="…"` is a formula (LibreOffice shows it as typed unless formulas are evaluated on import,
//! and any program reading the file gets the formula, not the id), and a leading `'` is kept as
//! part of the text by LibreOffice.

use std::io::Write;

use sightline_store::export::cell;
use sightline_store::Tz;

use super::{utc_iso, zone_time, BundlePost, CaptureRecord};

/// The header row.
pub const COLUMNS: [&str; 25] = [
    "id",
    "url",
    "author_username",
    "author_name",
    "author_id",
    "created_at_utc",
    "created_at_local",
    "text",
    "lang",
    "like_count",
    "retweet_count",
    "reply_count",
    "quote_count",
    "view_count",
    "bookmark_count",
    "hashtags",
    "conversation_id",
    "note",
    "tags",
    "captured_at_utc",
    "captured_at_local",
    "capture_sha256",
    "found_by_history_id",
    "first_seen_utc",
    "last_seen_utc",
];

/// An id a spreadsheet keeps digit for digit: a tab before it when it is all digits (see the
/// module's doc); anything else is an ordinary, formula-safe cell.
pub fn long_number(id: &str) -> String {
    if !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()) {
        format!("\t{id}")
    } else {
        cell(id)
    }
}

/// `posts.csv` being written, row by row, to `out`.
pub struct PostsCsv<W: Write> {
    writer: csv::Writer<W>,
    zone: Tz,
}

impl<W: Write> PostsCsv<W> {
    /// Starts the file: the byte-order mark and the header row.
    pub fn new(zone: Tz, mut out: W) -> std::io::Result<Self> {
        out.write_all("\u{feff}".as_bytes())?;
        let mut writer = csv::WriterBuilder::new()
            .terminator(csv::Terminator::CRLF)
            .from_writer(out);
        writer.write_record(COLUMNS)?;
        Ok(Self { writer, zone })
    }

    pub fn row(&mut self, p: &BundlePost, capture: Option<&CaptureRecord>) -> std::io::Result<()> {
        let post = &p.post;
        let captured_at = capture.map(|c| c.captured_at);
        let opt = |v: &Option<String>| v.as_deref().map(cell).unwrap_or_default();
        let record: [String; 25] = [
            long_number(&post.id),
            opt(&post.url),
            cell(&post.author_username),
            cell(&post.author_name),
            post.author_id
                .as_deref()
                .map(long_number)
                .unwrap_or_default(),
            utc_iso(post.created_at),
            zone_time(post.created_at, self.zone),
            // Line breaks are kept: the csv writer quotes any cell holding one.
            cell(&post.text),
            opt(&post.lang),
            post.like_count.to_string(),
            post.retweet_count.to_string(),
            post.reply_count.to_string(),
            post.quote_count.to_string(),
            post.view_count.map(|v| v.to_string()).unwrap_or_default(),
            post.bookmark_count.to_string(),
            cell(&post.hashtags.join(" ")),
            post.conversation_id
                .as_deref()
                .map(long_number)
                .unwrap_or_default(),
            cell(&p.note),
            cell(&p.tags.join(", ")),
            captured_at.map(utc_iso).unwrap_or_default(),
            captured_at
                .map(|t| zone_time(t, self.zone))
                .unwrap_or_default(),
            capture.map(|c| c.sha256.clone()).unwrap_or_default(),
            p.found_by.map(|id| id.to_string()).unwrap_or_default(),
            utc_iso(post.first_seen),
            utc_iso(post.last_seen),
        ];
        Ok(self.writer.write_record(&record)?)
    }

    /// Writes out what is buffered.
    pub fn finish(mut self) -> std::io::Result<()> {
        self.writer.flush()
    }
}
