//! What investigations take in and give back across IPC: summaries and details, the posts
//! filed with their notes and tags, the filters over them, what an item belongs to, the cost
//! read from the ledger, and the dated "still there?" checks. Like every store type, their
//! fields cross IPC with their Rust snake_case names (README, "Casing across IPC").

use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::archive::StoredPost;
use crate::error::{Result, StoreError};
use crate::provenance::CaptureSummary;

/// One investigation as the list shows it.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct InvestigationSummary {
    /// The investigation's id.
    pub id: i64,
    /// Its name, unique among investigations ignoring case (see [`crate::MAX_NAME_CHARS`]).
    pub name: String,
    /// What it is about, as the user wrote it.
    pub description: String,
    /// When it was created.
    pub created_at: DateTime<Utc>,
    /// When it or what is filed under it last changed.
    pub updated_at: DateTime<Utc>,
    /// Archived: kept and readable, but it cannot be the active investigation until restored.
    pub archived: bool,
    /// Its media shown plainly (no blur, no greyscale, sound on request); off by default:
    /// safe view ([`Store::set_media_full_view`](crate::Store::set_media_full_view)).
    pub media_full_view: bool,
    /// Requests filed under it (by the active investigation or by hand).
    pub request_count: i64,
    /// Posts filed under it (with its requests or by hand).
    pub post_count: i64,
    /// The ledger's money for those requests, exact.
    #[ts(type = "string")]
    pub cost: Decimal,
}

/// What an update changes; a field left out stays as it is.
#[derive(Serialize, Deserialize, TS, Clone, Debug, Default, PartialEq)]
#[serde(default)]
pub struct InvestigationChanges {
    /// A new name.
    pub name: Option<String>,
    /// A new description.
    pub description: Option<String>,
    /// The notebook, Markdown.
    pub notebook: Option<String>,
}

/// What an investigation cost, from the ledger rows of its requests.
#[derive(Serialize, Deserialize, TS, Clone, Debug, Default, PartialEq)]
pub struct InvestigationCost {
    /// Everything its requests cost.
    #[ts(type = "string")]
    pub total: Decimal,
    /// Oldest day first; days are calendar days in the display zone.
    pub by_day: Vec<DayCost>,
    /// Dearest operation first.
    pub by_operation: Vec<OperationCost>,
}

/// One calendar day's spend of an investigation.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct DayCost {
    /// `YYYY-MM-DD` in the zone the cost was asked in (see [`InvestigationDetail::zone`]).
    pub day: String,
    /// What that day's ledger rows cost.
    #[ts(type = "string")]
    pub cost: Decimal,
    /// Ledger rows (billed responses) that day.
    pub requests: i64,
}

/// One operation's spend within an investigation.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct OperationCost {
    /// The operation's name (`search`, `replies`, ...).
    pub operation: String,
    /// What its ledger rows cost.
    #[ts(type = "string")]
    pub cost: Decimal,
    /// Ledger rows (billed responses) of that operation.
    pub requests: i64,
}

/// A tag and how many of the investigation's posts carry it.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Eq)]
pub struct TagCount {
    /// The tag as written.
    pub tag: String,
    /// Posts carrying it.
    pub count: i64,
}

/// Everything the investigation's screen opens with (its posts come by page, apart).
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct InvestigationDetail {
    /// Its row in the list.
    pub summary: InvestigationSummary,
    /// Markdown.
    pub notebook: String,
    /// What it cost, by day and by operation.
    pub cost: InvestigationCost,
    /// The IANA zone `cost.by_day` is counted in.
    pub zone: String,
    /// Most used first.
    pub tags: Vec<TagCount>,
    /// The newest still-there check, if one was run.
    pub latest_check: Option<CheckSummary>,
}

/// Filters over an investigation's posts, newest post first.
#[derive(Serialize, Deserialize, TS, Clone, Debug, Default, PartialEq)]
#[serde(default)]
pub struct InvestigationPostQuery {
    /// Words to find in text, author name, handle and hashtags (all must match; `word*` for a
    /// prefix), as the Archive searches.
    pub text: Option<String>,
    /// One tag (case-insensitive).
    pub tag: Option<String>,
    /// Author handle, with or without `@` (case-insensitive).
    pub author: Option<String>,
    /// Posted at or after.
    pub from: Option<DateTime<Utc>>,
    /// Posted before.
    pub to: Option<DateTime<Utc>>,
    /// Rows to skip (paging), when there is no `after` post to page from.
    pub offset: u32,
    /// Rows per page; 0 means the default of 50.
    pub limit: u32,
    /// The last post of the page before (its id): the page is the posts after it in this
    /// order, found by its time in the investigation's index (keyset paging) rather than by
    /// skipping `offset` posts, which reads every post skipped. `offset` counts only when that
    /// post is no longer filed here.
    pub after: Option<String>,
}

/// A post filed in an investigation, with the investigation's own note and tags on it.
#[derive(Serialize, TS, Clone, Debug, PartialEq)]
pub struct InvestigationPost {
    /// The archive's copy (its counts are the latest seen).
    pub post: StoredPost,
    /// The investigation's note on the post (Markdown; empty when none).
    pub note: String,
    /// The investigation's tags on the post.
    pub tags: Vec<String>,
    /// When the post was filed here.
    pub added_at: DateTime<Utc>,
    /// The earliest request of this investigation that found the post (the response its
    /// provenance is read from); `None` for a post added by hand on its own.
    pub found_by: Option<i64>,
    /// The provenance of the response that brought it: that request's when it has one, else
    /// the earliest captured response that found the post; `None` when every response that
    /// found it came before provenance was kept.
    pub capture: Option<CaptureSummary>,
    /// Who wrote the note, when a colleague did (received in a case package); `None`: this
    /// installation.
    pub note_by: Option<MadeBy>,
    /// The tags a colleague added (received in a case package), each with who; the others are
    /// this installation's.
    pub received_tags: Vec<ReceivedTag>,
    /// Colleagues' notes on the post that differ from the one kept, each kept beside it.
    pub other_notes: Vec<OtherNote>,
}

/// Who did something to a case in another installation: their "Collected by" name (may be
/// empty) and their signing key's fingerprint.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Eq)]
pub struct MadeBy {
    /// Their name, as they gave it.
    pub name: String,
    /// Their signing key's fingerprint.
    pub key: String,
}

/// A tag a colleague put on a post.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Eq)]
pub struct ReceivedTag {
    /// The tag.
    pub tag: String,
    /// Who added it.
    pub by: MadeBy,
}

/// A colleague's note on a post, kept beside the one kept here.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Eq)]
pub struct OtherNote {
    /// The note.
    pub note: String,
    /// Who wrote it.
    pub by: MadeBy,
}

/// One page of an investigation's posts and how many match in all.
#[derive(Serialize, TS, Clone, Debug, PartialEq)]
pub struct InvestigationPostPage {
    /// The page's posts, newest first.
    pub posts: Vec<InvestigationPost>,
    /// Posts matching the filters in all.
    pub total: i64,
}

/// Something that can be filed in an investigation by hand. A request brings the posts it
/// found with it.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Eq, Hash)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum InvestigationItem {
    /// A history row, and with it the posts it found.
    Request {
        /// The history row's id.
        history_id: i64,
    },
    /// One archived post.
    Post {
        /// The post's id.
        post_id: String,
    },
}

/// Which investigations hold an item (the checkmarks of "Add to…").
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Eq)]
pub struct ItemMemberships {
    /// The item asked about.
    pub item: InvestigationItem,
    /// The investigations it is filed under.
    pub investigation_ids: Vec<i64>,
}

/// How many items an add or a remove changed.
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FilingChange {
    /// Requests filed or unfiled.
    pub requests: i64,
    /// Posts filed or unfiled.
    pub posts: i64,
}

/// How a filed request came to be in an investigation.
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum FiledHow {
    /// Sent while the investigation was the active one.
    Active,
    /// Added with "Add to…".
    ByHand,
    /// Sent by one of its still-there checks: the check's cost is the investigation's.
    Check,
}

impl FiledHow {
    /// The word stored in the database and sent over IPC.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Active => "active",
            Self::ByHand => "by_hand",
            Self::Check => "check",
        }
    }
}

/// What a still-there check found for one post.
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum CheckOutcome {
    /// Returned, text and counts as stored.
    Unchanged,
    /// Returned with other text or counts (see the item's changes).
    Changed,
    /// Not returned: deleted, made private, or its author suspended.
    Gone,
}

impl CheckOutcome {
    /// The word stored in the database and sent over IPC.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Unchanged => "unchanged",
            Self::Changed => "changed",
            Self::Gone => "gone",
        }
    }

    /// Reads a stored word back; an unknown word is an error, never a guess.
    pub fn parse(s: &str) -> Result<Self> {
        Ok(match s {
            "unchanged" => Self::Unchanged,
            "changed" => Self::Changed,
            "gone" => Self::Gone,
            other => {
                return Err(StoreError::InvalidInput(format!(
                    "unknown check outcome {other:?}"
                )))
            }
        })
    }
}

/// One field of a post that differs from the stored copy: `text`, or a count such as
/// `like_count`.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Eq)]
pub struct FieldChange {
    /// The field's name (`text`, `like_count`, ...).
    pub field: String,
    /// The stored value, as text.
    pub before: String,
    /// The value the check fetched, as text.
    pub after: String,
}

/// One post's line in a still-there check.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Eq)]
pub struct CheckItem {
    /// The post checked.
    pub post_id: String,
    /// What the check found.
    pub outcome: CheckOutcome,
    /// Empty unless `changed`.
    pub changes: Vec<FieldChange>,
}

/// A still-there check in short: when, and how many of each outcome.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct CheckSummary {
    /// The check's id.
    pub id: i64,
    /// When it ran.
    pub checked_at: DateTime<Utc>,
    /// Posts returned as stored.
    pub unchanged: i64,
    /// Posts returned with other text or counts.
    pub changed: i64,
    /// Posts not returned.
    pub gone: i64,
    /// What the re-fetch cost, from the service's answers.
    #[ts(type = "string")]
    pub cost: Decimal,
    /// The history rows of the re-fetch's requests.
    pub history_ids: Vec<i64>,
}

/// A stored still-there check with every post's outcome.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct CheckReport {
    /// When, what it found in counts, and its cost.
    pub summary: CheckSummary,
    /// One line per post checked.
    pub items: Vec<CheckItem>,
}

/// What a still-there check compares of a stored post: its text and counts as last stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PostSnapshot {
    /// The post's id.
    pub id: String,
    /// The text as stored.
    pub text: String,
    /// Likes as stored.
    pub like_count: i64,
    /// Reposts as stored.
    pub retweet_count: i64,
    /// Replies as stored.
    pub reply_count: i64,
    /// Quotes as stored.
    pub quote_count: i64,
    /// Views as stored, when the service reported them.
    pub view_count: Option<i64>,
    /// Bookmarks as stored.
    pub bookmark_count: i64,
}
