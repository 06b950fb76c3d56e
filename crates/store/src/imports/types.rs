//! What an import takes in (the file's facts, each batch of lines read) and gives back (the
//! import's state and counts, each line's outcome, a post's mark), and their stored words.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::archive::NewPost;
use crate::words::stored_as_word;

/// The kind of file an import reads, as detected from its first lines.
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum ImportFormat {
    /// twarc2's raw API pages: one v2 response a line (`data`, `includes`).
    Twarc2Pages,
    /// `twarc2 flatten`: one v2 tweet a line, its author and referenced tweets inside it.
    Twarc2Flat,
    /// A 4CAT X/Twitter dataset exported as CSV (`id`, `thread_id`, `timestamp`, `body`, ...).
    FourcatCsv,
    /// A 4CAT dataset exported as NDJSON: each original item under `data`.
    FourcatNdjson,
    /// Zeeschuimer's NDJSON: items with `item_id`, `source_platform`, and X's own record in
    /// `data`.
    Zeeschuimer,
    /// Sightline's own JSON Lines export of archived posts.
    SightlineJsonl,
    /// The QUT Digital Media Research Centre's tweet CSV.
    DmrcCsv,
}

impl ImportFormat {
    /// The format as the screens name it.
    pub fn label(self) -> &'static str {
        match self {
            Self::Twarc2Pages => "twarc2 API pages",
            Self::Twarc2Flat => "twarc2 flattened tweets",
            Self::FourcatCsv => "4CAT CSV",
            Self::FourcatNdjson => "4CAT NDJSON",
            Self::Zeeschuimer => "Zeeschuimer NDJSON",
            Self::SightlineJsonl => "Sightline JSON Lines",
            Self::DmrcCsv => "QUT DMRC CSV",
        }
    }
}

/// Where an import stands.
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum ImportState {
    /// Reading (or stopped by a quit before it ended: resumable like a cancelled one).
    Running,
    /// Cancelled by the user; resumable from where it stopped.
    Cancelled,
    /// Every line read.
    Done,
    /// Stopped by an error (the file changed, could not be read, the disk filled); resumable.
    Failed,
}

/// What became of one post of a line, or of a line holding none.
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum ImportOutcome {
    /// A post the archive did not hold: stored, and marked as imported by this import.
    Imported,
    /// A post the archive already held (fetched by Sightline, imported before, or earlier in
    /// this file): left as it was.
    AlreadyHeld,
    /// A readable record that is not a post (a user, an error page, an empty line).
    NotAPost,
    /// A line that could not be read (not JSON, cut short, a post without an id or a time).
    Unreadable,
}

stored_as_word!(ImportFormat, ImportState, ImportOutcome);

/// The file an import reads, known before its first line is.
#[derive(Clone, Debug, PartialEq)]
pub struct NewImport {
    /// The file's name, without its folder.
    pub file_name: String,
    /// SHA-256 of the whole file, lower-case hex.
    pub file_sha256: String,
    /// The file's size in bytes.
    pub file_size: i64,
    /// The format detected.
    pub format: ImportFormat,
    /// The investigation the posts are filed in; `None` for the archive alone.
    pub investigation_id: Option<i64>,
}

/// What a line (or one post of it) holds, as the reader made it out.
#[derive(Clone, Debug, PartialEq)]
pub enum ImportLineItem {
    /// A post, mapped to the archive's shape. Whether it is imported or already held is the
    /// store's to say.
    Post(Box<NewPost>),
    /// Readable, but not a post: why, in words.
    NotAPost(String),
    /// Not readable: why, in words.
    Unreadable(String),
}

/// One post of a line, or a line holding none.
#[derive(Clone, Debug, PartialEq)]
pub struct ImportLine {
    /// The line's number in the file, from 1.
    pub line: i64,
    /// The post's place in the line, from 0 (a twarc2 page holds many).
    pub item: i64,
    /// What it holds.
    pub what: ImportLineItem,
    /// The line exactly as read, on its first item only.
    pub source: Option<String>,
}

/// A batch of lines read, and where the file stands after it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ImportBatch {
    /// Every item of the batch's lines, in file order.
    pub lines: Vec<ImportLine>,
    /// Lines read in all, this batch's included.
    pub lines_done: i64,
    /// Bytes read in all: where the next line begins.
    pub offset_done: i64,
}

/// An import as stored.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[ts(export)]
pub struct StoredImport {
    /// Its id.
    pub id: i64,
    /// The file's name.
    pub file_name: String,
    /// SHA-256 of the whole file.
    pub file_sha256: String,
    /// The file's size in bytes.
    pub file_size: i64,
    /// The format detected.
    pub format: ImportFormat,
    /// The investigation filed in; `None` for the archive alone (or since deleted).
    pub investigation_id: Option<i64>,
    /// Where it stands.
    pub state: ImportState,
    /// Why a failed import stopped.
    pub error: Option<String>,
    /// Lines read so far.
    pub lines_done: i64,
    /// Bytes read so far.
    pub offset_done: i64,
    /// Posts imported.
    pub imported: i64,
    /// Posts already held.
    pub already_held: i64,
    /// Lines or items that were not posts.
    pub not_a_post: i64,
    /// Lines that could not be read.
    pub unreadable: i64,
    /// When it began.
    pub started_at: DateTime<Utc>,
    /// When it last stopped (done, cancelled or failed).
    pub finished_at: Option<DateTime<Utc>>,
}

/// One line's (or one post's) outcome, as the report shows it.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Eq)]
#[ts(export)]
pub struct ImportLineRow {
    /// The line's number, from 1.
    pub line: i64,
    /// The post's place in the line, from 0.
    pub item: i64,
    /// What became of it.
    pub outcome: ImportOutcome,
    /// The post's id, when it held one.
    pub post_id: Option<String>,
    /// Why it was not a post or unreadable; empty otherwise.
    pub reason: String,
}

/// "Imported from <file, SHA-256>, not captured by Sightline": the import that brought a post.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Eq)]
#[ts(export)]
pub struct PostImportMark {
    /// The post's id.
    pub post_id: String,
    /// The import that brought it.
    pub import_id: i64,
    /// The file's name.
    pub file_name: String,
    /// SHA-256 of the whole file.
    pub file_sha256: String,
    /// The line it was read from.
    pub line: i64,
    /// When the import began.
    pub imported_at: DateTime<Utc>,
    /// A request of this installation has since found the post too: that copy was captured.
    pub also_captured: bool,
}
