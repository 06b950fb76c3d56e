//! `posts.csv`, made for spreadsheets: UTF-8 with a byte-order mark (so Excel reads it as
//! UTF-8), CRLF between rows, line breaks inside a post's text kept in its quoted cell, and
//! every cell a spreadsheet would run as a formula defused with a leading `'`
//! ([`sightline_store::export::cell`]).
//!
//! Every id is written as [`id_cell`]: after a tab when it is all digits, so a spreadsheet
//! keeps its 19 digits instead of turning the last ones to zeros. A post an import brought has
//! its file's name, SHA-256 and line in the last three columns, and no capture columns unless
//! a request of this installation found it too.

use std::io::Write;

use sightline_store::export::{cell, id_cell};
use sightline_store::Tz;

use sightline_store::zone_names::local_seconds;

use super::{utc_iso, BundlePost, CaptureRecord};

/// The header row.
pub const COLUMNS: [&str; 28] = [
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
    "imported_from_file",
    "imported_file_sha256",
    "imported_from_line",
];

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
        let imported = p.imported.as_ref();
        let opt = |v: &Option<String>| v.as_deref().map(cell).unwrap_or_default();
        let record: [String; 28] = [
            id_cell(&post.id),
            opt(&post.url),
            cell(&post.author_username),
            cell(&post.author_name),
            post.author_id.as_deref().map(id_cell).unwrap_or_default(),
            utc_iso(post.created_at),
            local_seconds(post.created_at, self.zone),
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
                .map(id_cell)
                .unwrap_or_default(),
            cell(&p.note),
            cell(&p.tags.join(", ")),
            captured_at.map(utc_iso).unwrap_or_default(),
            captured_at
                .map(|t| local_seconds(t, self.zone))
                .unwrap_or_default(),
            capture.map(|c| c.sha256.clone()).unwrap_or_default(),
            p.found_by.map(|id| id.to_string()).unwrap_or_default(),
            utc_iso(post.first_seen),
            utc_iso(post.last_seen),
            imported.map(|m| cell(&m.file_name)).unwrap_or_default(),
            imported.map(|m| m.file_sha256.clone()).unwrap_or_default(),
            imported.map(|m| m.line.to_string()).unwrap_or_default(),
        ];
        Ok(self.writer.write_record(&record)?)
    }

    /// Writes out what is buffered.
    pub fn finish(mut self) -> std::io::Result<()> {
        self.writer.flush()
    }
}
