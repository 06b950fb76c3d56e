//! A case as a package carries it, and a received package written into the store (migration
//! 0020_case_packages.sql). The same types are the package's `case/` lines (serde), so what is
//! read for an export is exactly what an import writes back:
//!
//! * [`Store::case_contents`] (`case_packages/read.rs`): an investigation's case id, its
//!   requests' history rows (cost text and key label as facts), captures, stamps and filings,
//!   its posts' stored records, filings, notes and tags, its checks and its posts' media, each
//!   with who did it (`None`: this installation);
//! * [`Store::receive_case`] (`case_packages/receive.rs`): one transaction that writes a
//!   received case: a new investigation continuing the received custody log with an import
//!   entry, or a merge into the case with the same id by request and post ids, where nothing
//!   held is overwritten and every difference is returned as a [`CaseDifference`]. A received
//!   request gets a `received_requests` row and never a ledger row, so it is never in Spend or
//!   a budget.
//! * Removals (`case_packages/removals.rs`, migration 0024): every tag taken off and note
//!   removed or written over is recorded (what, when, by whom) and carried with its post as a
//!   [`CaseRemoval`]; a merge takes off here what the colleague removed after it came here
//!   (returned in [`CaseReceived::removed`], each in the custody log), brings back nothing
//!   removed here, and lists as a difference a note one side removed while the other rewrote
//!   it. A tag is one addition (its post, text and [`CaseTag::added_at`]): a removal takes off
//!   that addition only. A colleague's note written over is kept (both notes, a difference).
//! * Posts and requests taken out of the case (`case_packages/unfiled.rs`, migration 0025):
//!   recorded with the filing taken out ([`CaseContents::unfiled`]); a merge files none of
//!   them again and takes out here what the colleague took out after it came here, except a
//!   post carrying a note or tag written here (kept, a `post_removed` difference).

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::custody::CustodyEntry;

mod merge;
mod posts;
mod read;
mod receive;
pub(crate) mod removals;
mod unfiled;

#[cfg(test)]
mod tests;

/// Who did something: a collector's name and signing key fingerprint.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct By {
    /// "Collected by" in their Settings ("" when they named none).
    pub name: String,
    /// Their signing key's fingerprint.
    pub key: String,
}

/// What the store holds of a case, for a package. `by: None` everywhere means this
/// installation (a package says: the one that signed it).
#[derive(Clone, Debug, Default)]
pub struct CaseContents {
    /// The case's id.
    pub case_id: String,
    /// The investigation's name.
    pub name: String,
    /// Its description.
    pub description: String,
    /// Its notebook.
    pub notebook: String,
    /// Its media full-view switch.
    pub media_full_view: bool,
    /// The requests asked for, in the order asked.
    pub requests: Vec<CaseRequest>,
    /// Every post filed, oldest filing first.
    pub posts: Vec<CasePost>,
    /// Its still-there checks, oldest first.
    pub checks: Vec<CaseCheck>,
    /// Its posts' pictures and videos.
    pub media: Vec<CaseMedia>,
    /// Posts and requests taken out of it, by anyone who held it.
    pub unfiled: Vec<CaseRemoval>,
}

/// One request as a package carries it (`case/requests.jsonl`).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct CaseRequest {
    /// The client request id: the same request in every installation.
    pub request_id: String,
    /// When it was sent, UTC milliseconds.
    pub started_at: i64,
    /// The operation's name.
    pub operation: String,
    /// The parameters sent.
    pub params_json: String,
    /// The key's label (a fact about the case, never the key).
    pub key_label: Option<String>,
    /// How it was made ("live", "demo").
    pub mode: String,
    /// How it ended, as stored.
    pub status: String,
    /// The kind of failure.
    pub error_class: Option<String>,
    /// The failure in words.
    pub error_message: Option<String>,
    /// How long it took.
    pub duration_ms: i64,
    /// Items in its result.
    pub result_count: i64,
    /// Its cost in nano-dollars, as the collector's installation recorded it.
    pub cost_nanos: Option<i64>,
    /// Its cost as the service wrote it.
    pub cost_text: Option<String>,
    /// No amount could be read from it.
    pub cost_unreadable: bool,
    /// Billing units.
    pub usage_count: Option<i64>,
    /// The service billed.
    pub service: Option<String>,
    /// Its currency.
    pub currency: Option<String>,
    /// Cursor sent.
    pub cursor: Option<String>,
    /// Cursor offered.
    pub next_cursor: Option<String>,
    /// The previous page's request id.
    pub parent_request_id: Option<String>,
    /// The stored result for re-opening, when it is not the capture's bytes as text.
    pub result_body: Option<String>,
    /// Whether a stored result exists at all.
    pub has_result: bool,
    /// Its response's capture.
    pub capture: Option<CaseCapture>,
    /// Its capture's timestamp token, when stamped.
    pub stamp: Option<CaseStamp>,
    /// Its filing under the case; `None`: here only because it brought posts.
    pub filing: Option<CaseFiling>,
    /// Who collected it: `None` this installation (in a package: the signer).
    pub collected_by: Option<By>,
}

/// A response's capture record (its bytes are a package file, `file`).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct CaseCapture {
    /// When it arrived, UTC milliseconds.
    pub captured_at: i64,
    /// The service address.
    pub service_url: String,
    /// The URL that answered.
    pub response_url: String,
    /// Its HTTP status.
    pub http_status: u16,
    /// Billing headers as received.
    pub billing_headers: BTreeMap<String, String>,
    /// Every header as received, when kept.
    pub response_headers: Option<Vec<(String, String)>>,
    /// The app version that received it.
    pub app_version: String,
    /// SHA-256 of the exact bytes.
    pub sha256: String,
    /// The bytes' length.
    pub body_size: i64,
    /// A 304 answered from the stored copy.
    pub from_cache: bool,
    /// The package file holding the bytes (set by the package writer).
    #[serde(default)]
    pub file: Option<String>,
    /// The exact bytes, when read (never in the line).
    #[serde(skip)]
    pub body: Vec<u8>,
}

/// A capture's timestamp token (its DER is a package file, `file`).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct CaseStamp {
    /// The authority's address asked.
    pub tsa_url: String,
    /// The authority's time, UTC milliseconds.
    pub stamped_at: i64,
    /// The authority, as it names itself.
    pub authority: String,
    /// The certificates the token carries, PEM.
    pub certificates_pem: String,
    /// The package file holding the token (set by the package writer).
    #[serde(default)]
    pub file: Option<String>,
    /// The token, when read (never in the line).
    #[serde(skip)]
    pub token: Vec<u8>,
}

/// A request's or a post's filing under the case.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct CaseFiling {
    /// When it was filed, UTC milliseconds.
    pub added_at: i64,
    /// How (a request: `active`, `by_hand`; a post: `by_hand` or `found`).
    pub how: String,
    /// Who filed it: `None` this installation.
    pub by: Option<By>,
}

/// One post as a package carries it (`case/posts.jsonl`).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct CasePost {
    /// The service's post id.
    pub id: String,
    /// The thread's first post.
    pub conversation_id: Option<String>,
    /// The author's account id.
    pub author_id: Option<String>,
    /// The author's handle.
    pub author_username: String,
    /// The author's name.
    pub author_name: String,
    /// Shown as verified.
    pub author_verified: bool,
    /// Its text.
    pub text: String,
    /// Its language.
    pub lang: Option<String>,
    /// When it was written, UTC milliseconds.
    pub created_at: i64,
    /// Likes.
    pub like_count: i64,
    /// Reposts.
    pub retweet_count: i64,
    /// Replies.
    pub reply_count: i64,
    /// Quotes.
    pub quote_count: i64,
    /// Views.
    pub view_count: Option<i64>,
    /// Bookmarks.
    pub bookmark_count: i64,
    /// Hashtags, space-separated as stored.
    pub hashtags: String,
    /// Its address.
    pub url: Option<String>,
    /// The record exactly as received.
    pub raw_json: String,
    /// The case's requests that found it (request id, found nested in another post).
    pub found_by: Vec<(String, bool)>,
    /// Its filing under the case.
    pub filing: CaseFiling,
    /// The note kept on it ("" none).
    pub note: String,
    /// Who wrote the note: `None` this installation.
    pub note_by: Option<By>,
    /// Other people's notes that differ from the one kept.
    pub other_notes: Vec<(By, String)>,
    /// Its tags, each with who put it on and when.
    pub tags: Vec<CaseTag>,
    /// Tags taken off it and notes removed or written over, by anyone who held the case
    /// (none in a package of the first layout).
    #[serde(default)]
    pub removed: Vec<CaseRemoval>,
}

/// A tag on a post: one addition, named by its text and time (`[tag, by]` in the first
/// layout, read with `added_at` 0, the time every tag put on before times were kept has).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(from = "TagLine")]
pub struct CaseTag {
    /// The tag.
    pub tag: String,
    /// Who put it on: `None` this installation.
    pub by: Option<By>,
    /// When it was put on, UTC milliseconds (0: before times were kept).
    pub added_at: i64,
}

/// A tag as either layout writes it.
#[derive(Deserialize)]
#[serde(untagged)]
enum TagLine {
    First(String, Option<By>),
    Timed {
        tag: String,
        by: Option<By>,
        added_at: i64,
    },
}

impl From<TagLine> for CaseTag {
    fn from(line: TagLine) -> Self {
        match line {
            TagLine::First(tag, by) => CaseTag {
                tag,
                by,
                added_at: 0,
            },
            TagLine::Timed { tag, by, added_at } => CaseTag { tag, by, added_at },
        }
    }
}

/// What a removal took off a post.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[serde(rename_all = "snake_case")]
pub enum RemovedKind {
    /// A tag (one addition of it).
    Tag,
    /// The post's note (the whole text, removed or written over).
    Note,
    /// A post taken out of the case (`what`: its id, `added_at`: the filing's time).
    Post,
    /// A request taken out of the case (`what`: its request id, `added_at`: the filing's
    /// time).
    Request,
}

impl RemovedKind {
    /// The word stored.
    pub fn as_str(self) -> &'static str {
        match self {
            RemovedKind::Tag => "tag",
            RemovedKind::Note => "note",
            RemovedKind::Post => "post",
            RemovedKind::Request => "request",
        }
    }
}

/// A removal from a post, kept for good and carried in packages.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct CaseRemoval {
    /// A tag or the note.
    pub kind: RemovedKind,
    /// The tag, or the note's whole text.
    pub what: String,
    /// A tag's addition that was taken off (its [`CaseTag::added_at`]); 0 for a note.
    pub added_at: i64,
    /// When it was removed, UTC milliseconds.
    pub removed_at: i64,
    /// A colleague's note written over with one's own: it is taken off nowhere (both notes are
    /// kept, a difference); the record only tells a merge that both changed that note.
    #[serde(default)]
    pub colleagues_note: bool,
    /// Who removed it: `None` this installation.
    pub by: Option<By>,
}

impl CaseRemoval {
    /// The same removal (what, which addition, by whom), whenever it was recorded.
    pub fn same(&self, other: &CaseRemoval) -> bool {
        self.kind == other.kind
            && self.names(other.kind, &other.what, other.added_at)
            && self.by.as_ref().map(|b| &b.key) == other.by.as_ref().map(|b| &b.key)
    }

    /// Whether it took off this tag addition or this note (a colleague's note written over
    /// is taken off nowhere).
    pub fn takes_off(&self, kind: RemovedKind, what: &str, added_at: i64) -> bool {
        !self.colleagues_note && self.names(kind, what, added_at)
    }

    /// Whether it is about this tag addition or this note.
    pub fn names(&self, kind: RemovedKind, what: &str, added_at: i64) -> bool {
        self.kind == kind
            && match kind {
                RemovedKind::Tag => {
                    self.added_at == added_at && self.what.to_lowercase() == what.to_lowercase()
                }
                RemovedKind::Note | RemovedKind::Post | RemovedKind::Request => {
                    self.what == what && self.added_at == added_at
                }
            }
    }
}

/// One still-there check (`case/checks.jsonl`).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct CaseCheck {
    /// When it ran, UTC milliseconds.
    pub checked_at: i64,
    /// What its re-fetch cost, nano-dollars (a fact; never in Spend when received).
    pub cost_nanos: i64,
    /// Its requests' ids.
    pub request_ids: Vec<String>,
    /// Who ran it: `None` this installation.
    pub by: Option<By>,
    /// Each post checked: id, outcome word, changes JSON.
    pub items: Vec<(String, String, String)>,
}

/// A post's picture or video (`case/media.jsonl`).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct CaseMedia {
    /// The post.
    pub post_id: String,
    /// Its place among the post's media.
    pub position: i64,
    /// `photo`, `video`, `animated_gif`.
    pub kind: String,
    /// The address fetched.
    pub source_url: String,
    /// A video's poster address.
    pub poster_url: Option<String>,
    /// `waiting`, `kept`, `gone`, `failed`, `too_large`.
    pub state: String,
    /// Requests sent for it.
    pub attempts: i64,
    /// Why it failed.
    pub reason: Option<String>,
    /// The last response's status.
    pub http_status: Option<i64>,
    /// The last response's headers, JSON as stored.
    pub response_headers: Option<String>,
    /// When it was fetched, UTC milliseconds.
    pub fetched_at: Option<i64>,
    /// When it was queued, UTC milliseconds.
    pub queued_at: i64,
    /// The file kept.
    pub file: Option<CaseMediaFile>,
    /// A video's poster kept.
    pub poster: Option<CaseMediaFile>,
}

/// A kept media file's record (its bytes are a package file, `media/<sha256>.<ext>`).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct CaseMediaFile {
    /// SHA-256 of its bytes.
    pub sha256: String,
    /// Its size.
    pub size: i64,
    /// Its content type.
    pub content_type: String,
    /// Its PDQ hash, hex.
    pub pdq: Option<String>,
    /// PDQ quality.
    pub pdq_quality: Option<i64>,
    /// Width.
    pub width: Option<i64>,
    /// Height.
    pub height: Option<i64>,
    /// When first kept, UTC milliseconds.
    pub first_kept_at: i64,
}

/// A package to write into the store, read and checked by the core.
#[derive(Clone, Debug)]
pub struct ReceivedCase {
    /// The case as the package holds it (`by: None` there: `from`).
    pub contents: CaseContents,
    /// Who signed the package.
    pub from: By,
    /// This installation's signing keys (current and earlier): work attributed to one of
    /// them is this installation's own, coming back.
    pub own_keys: Vec<String>,
    /// SHA-256 of the package file.
    pub package_sha256: String,
    /// SHA-256 of its manifest.
    pub manifest_sha256: String,
    /// The package's file name, for the custody log.
    pub file_name: String,
    /// The sender's custody log, verified.
    pub custody: Vec<CustodyEntry>,
}

/// What differs between the case held and a received one; both are kept.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct CaseDifference {
    /// `note`, `note_removed` (one side removed the note the other rewrote: the rewritten
    /// one is kept), `check`, `notebook`, `description` or `name`.
    pub kind: String,
    /// The post, for a note.
    pub post_id: Option<String>,
    /// What is kept here.
    pub ours: String,
    /// Who wrote it: `None` this installation.
    pub ours_by: Option<By>,
    /// What the package holds.
    pub theirs: String,
    /// Who wrote that.
    pub theirs_by: By,
}

/// What [`Store::receive_case`] did.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, Eq)]
pub struct CaseReceived {
    /// The investigation written into.
    pub investigation_id: i64,
    /// Its name here.
    pub name: String,
    /// Merged into a case already held.
    pub merged: bool,
    /// Requests added.
    pub requests_added: u32,
    /// Requests already held.
    pub requests_held: u32,
    /// Posts added to the case.
    pub posts_added: u32,
    /// Posts already in the case.
    pub posts_held: u32,
    /// Notes added.
    pub notes_added: u32,
    /// Tags added.
    pub tags_added: u32,
    /// Checks added.
    pub checks_added: u32,
    /// Media items added.
    pub media_added: u32,
    /// Every difference, both sides kept.
    pub differences: Vec<CaseDifference>,
    /// What was taken off here because the colleague had removed it: the post's id, the
    /// removal as received, and whether their note took the place of the one removed.
    pub removed: Vec<(String, CaseRemoval, bool)>,
}

/// Milliseconds to a time (out of range: the epoch).
pub(crate) fn from_ms(ms: i64) -> DateTime<Utc> {
    DateTime::from_timestamp_millis(ms).unwrap_or_default()
}
