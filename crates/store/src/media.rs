//! Media kept (migration 0018): each picture and video of an archived post, queued to be
//! fetched (`media_items`), and the distinct files kept, by SHA-256, with their PDQ perceptual
//! hash (`media_files`). The files themselves are core's (`sightline_core::media::files`);
//! the store holds what is known of them.
//!
//! * this file: the types and the queue: items queued once per (post, position), the next one
//!   due, and what became of a fetch (kept, gone, failed, too large); items read per post;
//!   the counts by state;
//! * `matching.rs`: the same picture elsewhere: exact (same SHA-256) and near (PDQ Hamming
//!   distance within a bound), and the most-shared pictures of some posts;
//! * `distance.rs`: the SQL function the near scan calls (`sightline_pdq_distance`);
//! * `groups.rs`: a scope's picture files grouped as the same picture: every pair compared in
//!   a scope of up to 3,000, past that only pairs sharing a 12-bit stretch of their hashes;
//! * `queue.rs`: items queued inside a request's record transaction, failed items sent back
//!   to wait ("Retry failed"), and the archived posts read page by page (with the cursor kept)
//!   for "keep every archived post's media" turned on later.

mod distance;
mod groups;
mod matching;
pub(crate) mod queue;
#[cfg(test)]
mod tests;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::sqlite::SqliteRow;
use sqlx::{QueryBuilder, Row, Sqlite};
use ts_rs::TS;

pub use matching::{MediaMatch, MediaMatches, SharedPicture, PDQ_BYTES, PDQ_MIN_QUALITY};
pub use queue::{ArchivedPostRecord, MediaBackfill};

use crate::error::{Result, StoreError};
use crate::time::{from_ms, to_ms};
use crate::words::stored_as_word;
use crate::Store;

/// Rows bound per statement when reading by many ids (SQLite's variable limit is 32,766).
const BATCH: usize = 500;

/// What a media item is, as the service names it.
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum MediaKind {
    /// A still picture.
    Photo,
    /// A video (its poster is a still picture).
    Video,
    /// A looping silent video the service calls an animated GIF.
    AnimatedGif,
}

/// Where a media item is in its life.
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum MediaState {
    /// Queued: fetched from `next_try_at` on.
    Waiting,
    /// Fetched and kept.
    Kept,
    /// The link no longer answers (404 or 410), at `fetched_at`.
    Gone,
    /// Given up on (`reason` says why).
    Failed,
    /// Larger than the user's size limit: not kept.
    TooLarge,
}

stored_as_word!(MediaKind, MediaState);

/// A media item to queue: one picture or video of a post.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewMediaItem {
    /// The service's post id.
    pub post_id: String,
    /// Its place among the post's media, from 0.
    pub position: u32,
    /// Picture, video or animated GIF.
    pub kind: MediaKind,
    /// The address to fetch (the variant chosen).
    pub source_url: String,
    /// A video's still picture, if it has one.
    pub poster_url: Option<String>,
}

/// A distinct file kept: its hashes and what it is.
#[derive(Serialize, TS, Clone, Debug, PartialEq, Eq)]
#[ts(export)]
pub struct MediaFile {
    /// SHA-256 of its bytes, lower-case hex: its name in the media folder.
    pub sha256: String,
    /// Bytes.
    pub size: i64,
    /// The type the server gave (`image/jpeg`), or the one sniffed when it gave none.
    pub content_type: String,
    /// The 256-bit PDQ hash, lower-case hex (64 characters); `None` when no picture.
    pub pdq: Option<String>,
    /// PDQ's confidence in its hash, 0-100 (below 50 the picture is too flat to match on).
    pub pdq_quality: Option<i64>,
    /// Pixels across, for a picture.
    pub width: Option<i64>,
    /// Pixels down, for a picture.
    pub height: Option<i64>,
    /// When an item first kept these bytes.
    pub first_kept_at: DateTime<Utc>,
}

/// A file to record as kept (its bytes already in the media folder under `sha256`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewMediaFile {
    /// SHA-256 of its bytes, 64 lower-case hex characters.
    pub sha256: String,
    /// Bytes.
    pub size: u64,
    /// Its content type.
    pub content_type: String,
    /// The PDQ hash, when the bytes are a picture.
    pub pdq: Option<[u8; PDQ_BYTES]>,
    /// PDQ's quality, 0-100.
    pub pdq_quality: Option<u8>,
    /// Pixels across.
    pub width: Option<u32>,
    /// Pixels down.
    pub height: Option<u32>,
}

/// A fetch that kept its file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MediaKept {
    /// When the response arrived.
    pub fetched_at: DateTime<Utc>,
    /// Its HTTP status.
    pub http_status: u16,
    /// Its headers as received, in order.
    pub response_headers: Vec<(String, String)>,
    /// The file.
    pub file: NewMediaFile,
    /// A video's poster, when fetched too.
    pub poster: Option<NewMediaFile>,
}

/// A fetch that kept nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MediaFailure {
    /// When it was tried.
    pub at: DateTime<Utc>,
    /// Why, in plain words.
    pub reason: String,
    /// The HTTP status, if a response came.
    pub http_status: Option<u16>,
    /// Its headers, if a response came.
    pub response_headers: Option<Vec<(String, String)>>,
    /// Try again from then (the item stays waiting); `None` gives up.
    pub retry_at: Option<DateTime<Utc>>,
    /// Given up because the file is larger than the user's limit (state `too_large`).
    pub too_large: bool,
}

/// One media item and what became of it.
#[derive(Serialize, TS, Clone, Debug, PartialEq, Eq)]
#[ts(export)]
pub struct MediaItemRecord {
    /// The row's id.
    pub id: i64,
    /// The service's post id.
    pub post_id: String,
    /// Its place among the post's media, from 0.
    pub position: i64,
    /// Picture, video or animated GIF.
    pub kind: MediaKind,
    /// The address fetched.
    pub source_url: String,
    /// A video's still picture.
    pub poster_url: Option<String>,
    /// Where it is.
    pub state: MediaState,
    /// Requests sent for it.
    pub attempts: i64,
    /// While waiting: when it is fetched next.
    pub next_try_at: Option<DateTime<Utc>>,
    /// Why the last fetch failed, if one did.
    pub reason: Option<String>,
    /// The last response's HTTP status.
    pub http_status: Option<i64>,
    /// The last response's headers as received.
    pub response_headers: Option<Vec<(String, String)>>,
    /// When it was last tried: for a kept file when its response arrived, for a gone link
    /// when it was found gone.
    pub fetched_at: Option<DateTime<Utc>>,
    /// When it was queued.
    pub queued_at: DateTime<Utc>,
    /// The file kept.
    pub file: Option<MediaFile>,
    /// A video's poster kept.
    pub poster: Option<MediaFile>,
}

/// What the fetcher does next.
// One is read at a time and matched at once, never kept in bulk: no box needed.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NextMedia {
    /// Fetch this item now.
    Due(MediaItemRecord),
    /// Nothing is due before this time.
    At(DateTime<Utc>),
    /// Nothing is waiting.
    Idle,
}

/// Media items by state, and the files and bytes kept.
#[derive(Serialize, TS, Clone, Debug, Default, PartialEq, Eq)]
#[ts(export)]
pub struct MediaCounts {
    /// Queued, not yet fetched.
    pub waiting: i64,
    /// Fetched and kept.
    pub kept: i64,
    /// Links gone.
    pub gone: i64,
    /// Given up on.
    pub failed: i64,
    /// Over the size limit.
    pub too_large: i64,
    /// Distinct files kept.
    pub files: i64,
    /// Their bytes.
    pub bytes: i64,
}

/// The columns [`item_from_row`] reads (items `i`, file `f`, poster `p`).
const ITEM_SQL: &str = "SELECT i.id, i.post_id, i.position, i.kind, i.source_url, i.poster_url,
        i.state, i.attempts, i.next_try_at, i.reason, i.http_status, i.response_headers,
        i.fetched_at, i.queued_at,
        f.sha256, f.size, f.content_type, f.pdq, f.pdq_quality, f.width, f.height,
        f.first_kept_at,
        p.sha256 AS p_sha256, p.size AS p_size, p.content_type AS p_content_type, p.pdq AS p_pdq,
        p.pdq_quality AS p_pdq_quality, p.width AS p_width, p.height AS p_height,
        p.first_kept_at AS p_first_kept_at
    FROM media_items i
    LEFT JOIN media_files f ON f.sha256 = i.sha256
    LEFT JOIN media_files p ON p.sha256 = i.poster_sha256";

/// Lower-case hex of some bytes.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub(crate) fn file_from_row(row: &SqliteRow, prefix: &str) -> Result<Option<MediaFile>> {
    let col = |name: &str| format!("{prefix}{name}");
    let Some(sha256) = row.try_get::<Option<String>, _>(col("sha256").as_str())? else {
        return Ok(None);
    };
    let pdq: Option<Vec<u8>> = row.try_get(col("pdq").as_str())?;
    Ok(Some(MediaFile {
        sha256,
        size: row.try_get(col("size").as_str())?,
        content_type: row.try_get(col("content_type").as_str())?,
        pdq: pdq.map(|bytes| hex(&bytes)),
        pdq_quality: row.try_get(col("pdq_quality").as_str())?,
        width: row.try_get(col("width").as_str())?,
        height: row.try_get(col("height").as_str())?,
        first_kept_at: from_ms(row.try_get(col("first_kept_at").as_str())?),
    }))
}

fn item_from_row(row: &SqliteRow) -> Result<MediaItemRecord> {
    let headers: Option<String> = row.try_get("response_headers")?;
    Ok(MediaItemRecord {
        id: row.try_get("id")?,
        post_id: row.try_get("post_id")?,
        position: row.try_get("position")?,
        kind: row.try_get("kind")?,
        source_url: row.try_get("source_url")?,
        poster_url: row.try_get("poster_url")?,
        state: row.try_get("state")?,
        attempts: row.try_get("attempts")?,
        next_try_at: row.try_get::<Option<i64>, _>("next_try_at")?.map(from_ms),
        reason: row.try_get("reason")?,
        http_status: row.try_get("http_status")?,
        response_headers: headers
            .map(|text| serde_json::from_str(&text))
            .transpose()
            .map_err(|e| StoreError::InvalidInput(format!("stored media headers: {e}")))?,
        fetched_at: row.try_get::<Option<i64>, _>("fetched_at")?.map(from_ms),
        queued_at: from_ms(row.try_get("queued_at")?),
        file: file_from_row(row, "")?,
        poster: file_from_row(row, "p_")?,
    })
}

fn is_sha256_hex(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

fn headers_json(headers: &[(String, String)]) -> String {
    serde_json::to_string(headers).expect("pairs of strings serialize")
}

/// Registers the media SQL function on a connection (see `distance.rs`).
pub(crate) async fn register_functions(conn: &mut sqlx::SqliteConnection) -> sqlx::Result<()> {
    distance::register(conn).await
}

impl Store {
    /// Queues media items to fetch, now; an item already queued for its post and position
    /// (in any state) is left as it is. Returns how many were newly queued.
    pub async fn queue_media(&self, items: &[NewMediaItem], now: DateTime<Utc>) -> Result<u64> {
        let mut tx = self.begin_write().await?;
        let queued = queue::queue_in(&mut tx, items, now).await?;
        tx.commit().await?;
        Ok(queued)
    }

    /// The waiting item due first, if it is due at `now`; else when the next one is.
    pub async fn next_media_due(&self, now: DateTime<Utc>) -> Result<NextMedia> {
        let row = sqlx::query(&format!(
            "{ITEM_SQL} WHERE i.state = 'waiting' ORDER BY i.next_try_at, i.id LIMIT 1"
        ))
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else {
            return Ok(NextMedia::Idle);
        };
        let item = item_from_row(&row)?;
        Ok(match item.next_try_at {
            Some(at) if at > now => NextMedia::At(at),
            _ => NextMedia::Due(item),
        })
    }

    /// Records a fetch that kept its file (and a video's poster): the files are recorded once
    /// by SHA-256 (a file already kept keeps its first record), the item is `kept`.
    /// Returns false when the item is not waiting (already recorded, or unknown).
    pub async fn record_media_kept(&self, id: i64, kept: &MediaKept) -> Result<bool> {
        let mut tx = self.begin_write().await?;
        for file in std::iter::once(&kept.file).chain(kept.poster.as_ref()) {
            if !is_sha256_hex(&file.sha256) {
                return Err(StoreError::InvalidInput(format!(
                    "not a SHA-256 in lower-case hex: {:?}",
                    file.sha256
                )));
            }
            sqlx::query(
                "INSERT INTO media_files (sha256, size, content_type, pdq, pdq_quality, width,
                     height, first_kept_at)
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (sha256) DO NOTHING",
            )
            .bind(&file.sha256)
            .bind(i64::try_from(file.size).unwrap_or(i64::MAX))
            .bind(&file.content_type)
            .bind(file.pdq.as_ref().map(|pdq| pdq.as_slice()))
            .bind(file.pdq_quality)
            .bind(file.width)
            .bind(file.height)
            .bind(to_ms(kept.fetched_at))
            .execute(&mut *tx)
            .await?;
        }
        let done = sqlx::query(
            "UPDATE media_items SET state = 'kept', attempts = attempts + 1, next_try_at = NULL,
                 reason = NULL, http_status = ?, response_headers = ?, fetched_at = ?,
                 sha256 = ?, poster_sha256 = ?
             WHERE id = ? AND state = 'waiting'",
        )
        .bind(kept.http_status)
        .bind(headers_json(&kept.response_headers))
        .bind(to_ms(kept.fetched_at))
        .bind(&kept.file.sha256)
        .bind(kept.poster.as_ref().map(|p| &p.sha256))
        .bind(id)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() == 0 {
            // Nothing of a fetch nobody waits for is recorded, not even its files (the
            // transaction is dropped unfinished, so rolled back).
            return Ok(false);
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Records a link that no longer answers (`http_status` 404 or 410, or any the caller
    /// takes for gone) at `at`. Returns false when the item is not waiting.
    pub async fn record_media_gone(
        &self,
        id: i64,
        http_status: u16,
        response_headers: &[(String, String)],
        at: DateTime<Utc>,
    ) -> Result<bool> {
        let done = sqlx::query(
            "UPDATE media_items SET state = 'gone', attempts = attempts + 1, next_try_at = NULL,
                 reason = NULL, http_status = ?, response_headers = ?, fetched_at = ?
             WHERE id = ? AND state = 'waiting'",
        )
        .bind(http_status)
        .bind(headers_json(response_headers))
        .bind(to_ms(at))
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Records a fetch that kept nothing: tried again from `retry_at` (still waiting), or given
    /// up (`failed`, or `too_large`). Returns false when the item is not waiting.
    pub async fn record_media_failed(&self, id: i64, failure: &MediaFailure) -> Result<bool> {
        let state = match (failure.retry_at, failure.too_large) {
            (_, true) => MediaState::TooLarge,
            (Some(_), false) => MediaState::Waiting,
            (None, false) => MediaState::Failed,
        };
        let next_try_at = match state {
            MediaState::Waiting => failure.retry_at.map(to_ms),
            _ => None,
        };
        let done = sqlx::query(
            "UPDATE media_items SET state = ?, attempts = attempts + 1, next_try_at = ?,
                 reason = ?, http_status = ?, response_headers = ?, fetched_at = ?
             WHERE id = ? AND state = 'waiting'",
        )
        .bind(state)
        .bind(next_try_at)
        .bind(&failure.reason)
        .bind(failure.http_status)
        .bind(failure.response_headers.as_deref().map(headers_json))
        .bind(to_ms(failure.at))
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The media of some posts, by post id as given then position; posts without media have
    /// no rows.
    pub async fn media_for_posts(&self, post_ids: &[String]) -> Result<Vec<MediaItemRecord>> {
        let mut out = Vec::new();
        for ids in post_ids.chunks(BATCH) {
            let mut query = QueryBuilder::<Sqlite>::new(format!("{ITEM_SQL} WHERE i.post_id IN ("));
            let mut list = query.separated(", ");
            for id in ids {
                list.push_bind(id);
            }
            query.push(")");
            for row in query.build().fetch_all(&self.pool).await? {
                out.push(item_from_row(&row)?);
            }
        }
        let order: std::collections::HashMap<&str, usize> = post_ids
            .iter()
            .enumerate()
            .rev()
            .map(|(i, id)| (id.as_str(), i))
            .collect();
        out.sort_by_key(|item| (order.get(item.post_id.as_str()).copied(), item.position));
        Ok(out)
    }

    /// One media item by id.
    pub async fn media_item(&self, id: i64) -> Result<Option<MediaItemRecord>> {
        let row = sqlx::query(&format!("{ITEM_SQL} WHERE i.id = ?"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(item_from_row).transpose()
    }

    /// A kept file's record by its SHA-256 (lower-case hex), if kept.
    pub async fn media_file(&self, sha256: &str) -> Result<Option<MediaFile>> {
        let row = sqlx::query(
            "SELECT sha256, size, content_type, pdq, pdq_quality, width, height, first_kept_at
             FROM media_files WHERE sha256 = ?",
        )
        .bind(sha256)
        .fetch_optional(&self.pool)
        .await?;
        Ok(match row {
            Some(row) => file_from_row(&row, "")?,
            None => None,
        })
    }

    /// Media items by state, and the distinct files kept with their bytes.
    pub async fn media_counts(&self) -> Result<MediaCounts> {
        let rows: Vec<(MediaState, i64)> =
            sqlx::query_as("SELECT state, count(*) FROM media_items GROUP BY state")
                .fetch_all(&self.pool)
                .await?;
        let (files, bytes): (i64, i64) =
            sqlx::query_as("SELECT count(*), COALESCE(sum(size), 0) FROM media_files")
                .fetch_one(&self.pool)
                .await?;
        let mut counts = MediaCounts {
            files,
            bytes,
            ..MediaCounts::default()
        };
        for (state, n) in rows {
            *match state {
                MediaState::Waiting => &mut counts.waiting,
                MediaState::Kept => &mut counts.kept,
                MediaState::Gone => &mut counts.gone,
                MediaState::Failed => &mut counts.failed,
                MediaState::TooLarge => &mut counts.too_large,
            } += n;
        }
        Ok(counts)
    }

    /// Turns an investigation's full view of media on or off (off: safe view, the default).
    /// Returns false when there is no such investigation.
    pub async fn set_media_full_view(&self, investigation_id: i64, full: bool) -> Result<bool> {
        let done = sqlx::query("UPDATE investigations SET media_full_view = ? WHERE id = ?")
            .bind(full)
            .bind(investigation_id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }
}
