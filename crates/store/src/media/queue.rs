//! The queue's writes beyond one fetch's outcome:
//!
//! * [`queue_in`]: items queued inside the caller's transaction, so a request's record queues
//!   its posts' media in its own (`record.rs`, [`Store::record_request_with_media`]): a crash
//!   can never leave a recorded post whose media were to be kept without them queued;
//! * [`Store::retry_failed_media`]: items given up on sent back to wait, due now (the worker's
//!   gap and hold pace them as any other; one more failure gives each up again at once, since
//!   its tries are spent, so a retry can never become a loop);
//! * [`Store::archived_posts_after`] and the backfill's cursor: the archived posts read a page
//!   at a time by their row number, for "keep the media of every archived post" turned on
//!   after posts were archived (core's `media::backfill` queues them page by page, each page
//!   its own short transaction, and keeps where it got to in `archive_state`, so it resumes).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::SqliteConnection;

use super::NewMediaItem;
use crate::error::Result;
use crate::time::to_ms;
use crate::Store;

/// The `archive_state` key of the backfill's progress.
const BACKFILL_KEY: &str = "media_backfill";

/// Queues `items` inside the caller's transaction (an item already queued for its post and
/// position, in any state, is left as it is); how many were new.
pub(crate) async fn queue_in(
    conn: &mut SqliteConnection,
    items: &[NewMediaItem],
    now: DateTime<Utc>,
) -> Result<u64> {
    let mut queued = 0;
    for item in items {
        queued += sqlx::query(
            "INSERT INTO media_items (post_id, position, kind, source_url, poster_url,
                 next_try_at, queued_at)
             VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (post_id, position) DO NOTHING",
        )
        .bind(&item.post_id)
        .bind(item.position)
        .bind(item.kind)
        .bind(&item.source_url)
        .bind(&item.poster_url)
        .bind(to_ms(now))
        .bind(to_ms(now))
        .execute(&mut *conn)
        .await?
        .rows_affected();
    }
    Ok(queued)
}

/// An archived post as the backfill reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchivedPostRecord {
    /// Its row number in the archive: the backfill's cursor.
    pub pk: i64,
    /// The service's post id.
    pub id: String,
    /// Its record as received (where its media are named).
    pub raw_json: String,
}

/// Where the backfill of every archived post's media has got to.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MediaBackfill {
    /// The last post row read (0: none yet).
    pub after_pk: i64,
    /// Whether every post archived when it last ran has been read.
    pub done: bool,
}

impl Store {
    /// Sends every failed item back to the queue, due at `now`; how many. Their tries are
    /// spent, so each is fetched once more and, failing again, given up again at once.
    pub async fn retry_failed_media(&self, now: DateTime<Utc>) -> Result<u64> {
        let done = sqlx::query(
            "UPDATE media_items SET state = 'waiting', next_try_at = ? WHERE state = 'failed'",
        )
        .bind(to_ms(now))
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected())
    }

    /// Up to `limit` archived posts after row `after_pk`, in row order.
    pub async fn archived_posts_after(
        &self,
        after_pk: i64,
        limit: u32,
    ) -> Result<Vec<ArchivedPostRecord>> {
        let rows: Vec<(i64, String, String)> =
            sqlx::query_as("SELECT pk, id, raw_json FROM posts WHERE pk > ? ORDER BY pk LIMIT ?")
                .bind(after_pk)
                .bind(limit)
                .fetch_all(&self.pool)
                .await?;
        Ok(rows
            .into_iter()
            .map(|(pk, id, raw_json)| ArchivedPostRecord { pk, id, raw_json })
            .collect())
    }

    /// The highest post row number (0 when the archive holds no post): how far the backfill
    /// has to go. Read from the primary key's end, never by counting.
    pub async fn last_post_pk(&self) -> Result<i64> {
        let last: Option<i64> = sqlx::query_scalar("SELECT max(pk) FROM posts")
            .fetch_one(&self.pool)
            .await?;
        Ok(last.unwrap_or(0))
    }

    /// Queues `items` now, recording the backfill's progress in the same transaction (so a
    /// page is either queued and counted, or neither); how many items were new.
    pub async fn queue_media_backfill(
        &self,
        items: &[NewMediaItem],
        progress: MediaBackfill,
        now: DateTime<Utc>,
    ) -> Result<u64> {
        let mut tx = self.begin_write().await?;
        let queued = queue_in(&mut tx, items, now).await?;
        sqlx::query(
            "INSERT INTO archive_state (key, value, updated_at) VALUES (?, ?, ?)
             ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
        )
        .bind(BACKFILL_KEY)
        .bind(serde_json::to_string(&progress)?)
        .bind(to_ms(now))
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(queued)
    }

    /// Where the backfill got to (the default when it never ran).
    pub async fn media_backfill(&self) -> Result<MediaBackfill> {
        Ok(self.archive_state(BACKFILL_KEY).await?.unwrap_or_default())
    }

    /// Sets where the backfill is (to start it over: the default).
    pub async fn set_media_backfill(&self, progress: MediaBackfill) -> Result<()> {
        self.set_archive_state(BACKFILL_KEY, &progress).await
    }
}

#[cfg(test)]
mod tests;
