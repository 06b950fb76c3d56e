//! Long collections as stored: what each pages through (the core's source and target as
//! JSON), its state and reason, the cursor of the last page recorded, and each item it has
//! collected, once. A page is written in one transaction with its items and the cursor that
//! follows it, so a collection resumed after a crash never fetches a recorded page again.

use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use sqlx::sqlite::SqliteRow;
use sqlx::{QueryBuilder, Row, Sqlite};
use ts_rs::TS;

use crate::archive::read::{post_from_row, POST_COLUMNS};
use crate::archive::StoredPost;
use crate::error::Result;
use crate::money::from_nanos;
use crate::paging;
use crate::runs::{record_run_page, RecordedPage, RunOwner};
use crate::time::{from_ms, to_ms};
use crate::words::stored_as_word;
use crate::Store;

// Stored as its serde word (`words.rs`), its one spelling.
/// Where a collection stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum CollectionState {
    /// Collecting pages now (or cut by a crash: it resumes where it was).
    Running,
    /// By the user, or waiting for a budget warning's confirmation (`stopReason` says which).
    Paused,
    /// Reached its number, its date or the end.
    Done,
    /// Stopped by the user for good; what it collected stays.
    Cancelled,
    /// The budget blocked the next page; `stopReason` says why. Resume once the budget allows.
    StoppedByBudget,
    /// A failure that retrying now would not fix (the service's words in `stopReason`);
    /// it can be resumed from the last page saved.
    Failed,
}

stored_as_word!(CollectionState);

impl CollectionState {
    /// Every state, in the order the UI's table lists them.
    pub const ALL: [CollectionState; 6] = [
        CollectionState::Running,
        CollectionState::Paused,
        CollectionState::Done,
        CollectionState::Cancelled,
        CollectionState::StoppedByBudget,
        CollectionState::Failed,
    ];

    /// The state in the words a collection's row shows (the UI's table is written from these).
    pub fn label(self) -> &'static str {
        match self {
            CollectionState::Running => "Collecting",
            CollectionState::Paused => "Paused",
            CollectionState::Done => "Done",
            CollectionState::Cancelled => "Cancelled",
            CollectionState::StoppedByBudget => "Stopped by the budget",
            CollectionState::Failed => "Stopped by an error",
        }
    }
}

/// A collection as the core saves it.
#[derive(Debug, Clone, PartialEq)]
pub struct NewCollection {
    /// The name the user gave it.
    pub name: String,
    /// What it collects, as core's JSON of its source.
    pub source_json: String,
    /// When it stops (a number, a date or the end), as core's JSON.
    pub until_json: String,
    /// The investigation its requests and posts are filed under, if any.
    pub investigation_id: Option<i64>,
}

/// A collection as stored, with its count of items and its cost from the ledger.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredCollection {
    /// The collection's id.
    pub id: i64,
    /// The name the user gave it.
    pub name: String,
    /// What it collects, as core's JSON of its source.
    pub source_json: String,
    /// When it stops, as core's JSON.
    pub until_json: String,
    /// The investigation its requests and posts are filed under, if any.
    pub investigation_id: Option<i64>,
    /// Where it stands.
    pub state: CollectionState,
    /// Why it stopped or waits, in words, when it did.
    pub stop_reason: Option<String>,
    /// The budget warned: the next page waits for the user's Confirm.
    pub needs_confirmation: bool,
    /// Where the next page continues; `None` before the first page.
    pub cursor: Option<String>,
    /// Pages recorded so far.
    pub pages: i64,
    /// Tries of the next page so far: a page used without a result is asked again under a new request id.
    pub attempt: i64,
    /// Distinct items collected, each counted once.
    pub items: i64,
    /// What its requests cost, from the ledger.
    pub cost: Decimal,
    /// When it was created.
    pub created_at: DateTime<Utc>,
    /// When it last changed.
    pub updated_at: DateTime<Utc>,
}

const COLLECTION_COLUMNS: &str = "c.id, c.name, c.source_json, c.until_json,
    c.investigation_id, c.state, c.stop_reason, c.needs_confirmation, c.cursor, c.pages,
    c.attempt, c.created_at, c.updated_at,
    (SELECT count(*) FROM collection_items ci WHERE ci.collection_id = c.id) AS items,
    (SELECT COALESCE(sum(l.cost_nanos), 0) FROM runs r
        JOIN run_requests rr ON rr.run_id = r.id
        JOIN ledger l ON l.history_id = rr.history_id
     WHERE r.collection_id = c.id) AS cost_nanos";

fn collection_from_row(row: &SqliteRow) -> Result<StoredCollection> {
    Ok(StoredCollection {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        source_json: row.try_get("source_json")?,
        until_json: row.try_get("until_json")?,
        investigation_id: row.try_get("investigation_id")?,
        state: row.try_get("state")?,
        stop_reason: row.try_get("stop_reason")?,
        needs_confirmation: row.try_get("needs_confirmation")?,
        cursor: row.try_get("cursor")?,
        pages: row.try_get("pages")?,
        attempt: row.try_get("attempt")?,
        items: row.try_get("items")?,
        cost: from_nanos(row.try_get("cost_nanos")?),
        created_at: from_ms(row.try_get("created_at")?),
        updated_at: from_ms(row.try_get("updated_at")?),
    })
}

impl Store {
    /// Saves a new collection, running; its id.
    pub async fn create_collection(
        &self,
        collection: &NewCollection,
        now: DateTime<Utc>,
    ) -> Result<i64> {
        let id = sqlx::query_scalar(
            "INSERT INTO collections (name, source_json, until_json, investigation_id, state,
                 created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id",
        )
        .bind(collection.name.trim())
        .bind(&collection.source_json)
        .bind(&collection.until_json)
        .bind(collection.investigation_id)
        .bind(CollectionState::Running)
        .bind(to_ms(now))
        .bind(to_ms(now))
        .fetch_one(&self.pool)
        .await?;
        Ok(id)
    }

    /// One collection by id, with its item count and cost; `None` when there is none.
    pub async fn collection(&self, id: i64) -> Result<Option<StoredCollection>> {
        let row = sqlx::query(&format!(
            "SELECT {COLLECTION_COLUMNS} FROM collections c WHERE c.id = ?"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(collection_from_row).transpose()
    }

    /// Every collection, newest first.
    pub async fn collections(&self) -> Result<Vec<StoredCollection>> {
        let rows = sqlx::query(&format!(
            "SELECT {COLLECTION_COLUMNS} FROM collections c ORDER BY c.id DESC"
        ))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(collection_from_row).collect()
    }

    /// Collections left `running` (the app closed or crashed while they ran): to resume.
    pub async fn running_collections(&self) -> Result<Vec<i64>> {
        let ids = sqlx::query_scalar("SELECT id FROM collections WHERE state = ? ORDER BY id")
            .bind(CollectionState::Running)
            .fetch_all(&self.pool)
            .await?;
        Ok(ids)
    }

    /// Sets a collection's state, its reason in words, and whether a budget warning waits.
    /// False when there is no such collection.
    pub async fn set_collection_state(
        &self,
        id: i64,
        state: CollectionState,
        reason: Option<&str>,
        needs_confirmation: bool,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        let done = sqlx::query(
            "UPDATE collections SET state = ?, stop_reason = ?, needs_confirmation = ?,
                 updated_at = ?
             WHERE id = ?",
        )
        .bind(state)
        .bind(reason)
        .bind(needs_confirmation)
        .bind(to_ms(now))
        .bind(id)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The next page's request was used without a result: its next try gets a new id.
    pub async fn bump_collection_attempt(&self, id: i64) -> Result<()> {
        sqlx::query("UPDATE collections SET attempt = attempt + 1 WHERE id = ?")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Writes one page in one transaction: its items (those collected before are not
    /// counted again), the cursor that follows it, the page count, the run's line, and the
    /// request's filing under the collection's investigation unless it is archived. Returns
    /// the items that were new and where the page was filed.
    pub async fn record_collection_page(
        &self,
        id: i64,
        run_id: i64,
        history_id: i64,
        items: &[String],
        next_cursor: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<RecordedPage> {
        let mut tx = self.begin_write().await?;
        let mut new = Vec::new();
        for item in items {
            let done = sqlx::query(
                "INSERT OR IGNORE INTO collection_items (collection_id, item_id) VALUES (?, ?)",
            )
            .bind(id)
            .bind(item)
            .execute(&mut *tx)
            .await?;
            if done.rows_affected() == 1 {
                new.push(item.clone());
            }
        }
        sqlx::query(
            "UPDATE collections SET cursor = ?, pages = pages + 1, attempt = 0, updated_at = ?
             WHERE id = ?",
        )
        .bind(next_cursor)
        .bind(to_ms(now))
        .bind(id)
        .execute(&mut *tx)
        .await?;
        let owner = RunOwner::Collection(id);
        let filing = record_run_page(
            &mut tx,
            owner,
            run_id,
            history_id,
            &new,
            next_cursor,
            &self.custody(now),
        )
        .await?;
        tx.commit().await?;
        Ok(RecordedPage {
            new_items: new,
            filing,
        })
    }

    /// The items a collection holds, by id.
    pub async fn collection_items(&self, id: i64) -> Result<Vec<String>> {
        let ids = sqlx::query_scalar(
            "SELECT item_id FROM collection_items WHERE collection_id = ? ORDER BY item_id",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        Ok(ids)
    }

    /// A collection's posts, newest first, a page at a time, and how many it holds in all.
    /// Reposters' items are accounts, not posts: a reposters collection lists none. The page
    /// starts after the post `after` (the last of the page before: keyset paging, so the
    /// posts before it are not sorted again) while it is stored, else after skipping `offset`.
    pub async fn collection_posts(
        &self,
        id: i64,
        after: Option<&str>,
        offset: i64,
        limit: i64,
    ) -> Result<(Vec<StoredPost>, i64)> {
        let key: Option<(i64, String)> = paging::key_of(
            &self.pool,
            "SELECT created_at, id FROM posts WHERE id = ?",
            after,
        )
        .await?;
        let mut sql = QueryBuilder::<Sqlite>::new(format!(
            "SELECT {POST_COLUMNS}
             FROM collection_items ci JOIN posts p ON p.id = ci.item_id
             WHERE ci.collection_id = "
        ));
        sql.push_bind(id);
        paging::push_newest_rows(
            &mut sql,
            ("p.created_at", "p.id"),
            key,
            limit.clamp(1, 500),
            offset.max(0),
        );
        let rows = sql.build().fetch_all(&self.pool).await?;
        let posts = rows.iter().map(post_from_row).collect::<Result<Vec<_>>>()?;
        let total = sqlx::query_scalar(
            "SELECT count(*) FROM collection_items ci JOIN posts p ON p.id = ci.item_id
             WHERE ci.collection_id = ?",
        )
        .bind(id)
        .fetch_one(&self.pool)
        .await?;
        Ok((posts, total))
    }

    /// Drops a collection from the list with its run log; history, the archive and the ledger
    /// keep everything it fetched. False when there is no such collection.
    pub async fn delete_collection(&self, id: i64) -> Result<bool> {
        let done = sqlx::query("DELETE FROM collections WHERE id = ?")
            .bind(id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }
}
