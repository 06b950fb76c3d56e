//! An import's writes: its row at the start, each batch of lines in one transaction (posts,
//! outcomes, marks, filing and its custody entry, and the resume point together), and its end.

use std::collections::HashSet;

use chrono::{DateTime, Utc};
use sqlx::{QueryBuilder, Sqlite, SqliteConnection};

use super::types::{
    ImportBatch, ImportLineItem, ImportOutcome, ImportState, NewImport, StoredImport,
};
use crate::archive::{push_post_values, NewPost, POST_CHUNK, POST_COLUMNS_IN};
use crate::custody::CustodyAction;
use crate::error::{Result, StoreError};
use crate::time::to_ms;
use crate::Store;

/// Outcome rows per multi-row statement (seven parameters a row).
const LINE_CHUNK: usize = 4_000;

/// Marks per multi-row statement (three parameters a row).
const MARK_CHUNK: usize = 8_000;

/// What a batch changed, for the progress the reader reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BatchCounts {
    /// Posts stored by this batch.
    pub imported: i64,
    /// Posts the archive already held.
    pub already_held: i64,
    /// Items that were not posts.
    pub not_a_post: i64,
    /// Lines that could not be read.
    pub unreadable: i64,
}

/// Refuses filing into an investigation that is gone or archived.
async fn check_investigation(conn: &mut SqliteConnection, id: i64) -> Result<()> {
    let archived: Option<bool> =
        sqlx::query_scalar("SELECT archived FROM investigations WHERE id = ?")
            .bind(id)
            .fetch_optional(&mut *conn)
            .await?;
    match archived {
        None => Err(StoreError::InvalidInput(
            "that investigation no longer exists".into(),
        )),
        Some(true) => Err(StoreError::InvalidInput(
            "an archived investigation takes no new posts; restore it first".into(),
        )),
        Some(false) => Ok(()),
    }
}

impl Store {
    /// Begins an import of a file already hashed; its posts are filed in `investigation_id`
    /// when one is given (refused for one gone or archived).
    pub async fn start_import(&self, new: &NewImport, now: DateTime<Utc>) -> Result<StoredImport> {
        let mut tx = self.begin_write().await?;
        if let Some(id) = new.investigation_id {
            check_investigation(&mut tx, id).await?;
        }
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO imports (file_name, file_sha256, file_size, format, investigation_id,
                 state, started_at)
             VALUES (?, ?, ?, ?, ?, 'running', ?) RETURNING id",
        )
        .bind(&new.file_name)
        .bind(&new.file_sha256)
        .bind(new.file_size)
        .bind(new.format)
        .bind(new.investigation_id)
        .bind(to_ms(now))
        .fetch_one(&mut *tx)
        .await?;
        tx.commit().await?;
        self.import(id)
            .await?
            .ok_or_else(|| StoreError::InvalidInput(format!("import {id} vanished as it was made")))
    }

    /// Records a batch of lines read, in one transaction: new posts stored and marked as this
    /// import's, posts already held left as they are, every item's outcome, the posts filed in
    /// the import's investigation (one custody entry for those newly filed), and the point
    /// the next batch starts from. Refused unless the import is running, so a batch read
    /// after a cancel is never recorded.
    pub async fn record_import_batch(
        &self,
        import_id: i64,
        batch: &ImportBatch,
        now: DateTime<Utc>,
    ) -> Result<BatchCounts> {
        let at = to_ms(now);
        let mut tx = self.begin_write().await?;
        let row: Option<(ImportState, Option<i64>, String, String, i64)> = sqlx::query_as(
            "SELECT state, investigation_id, file_name, file_sha256, lines_done
             FROM imports WHERE id = ?",
        )
        .bind(import_id)
        .fetch_optional(&mut *tx)
        .await?;
        let Some((state, investigation_id, file_name, sha256, lines_done)) = row else {
            return Err(StoreError::InvalidInput(format!("no import {import_id}")));
        };
        if state != ImportState::Running {
            return Err(StoreError::InvalidInput(format!(
                "import {import_id} is {}, not running",
                crate::words::word(&state)
            )));
        }
        if let Some(first) = batch.lines.first() {
            if first.line <= lines_done {
                return Err(StoreError::InvalidInput(format!(
                    "line {} of import {import_id} was recorded already",
                    first.line
                )));
            }
        }
        if let Some(id) = investigation_id {
            check_investigation(&mut tx, id).await?;
        }

        let posts: Vec<NewPost> = batch
            .lines
            .iter()
            .filter_map(|line| match &line.what {
                ImportLineItem::Post(post) => Some((**post).clone()),
                _ => None,
            })
            .collect();
        let stored = insert_new_posts(&mut tx, at, &posts).await?;

        // In file order: a post's first copy among those stored is imported, any other copy
        // (held before, or earlier in the batch) already held.
        let mut claimed: HashSet<&str> = HashSet::new();
        let mut counts = BatchCounts::default();
        let mut outcomes = Vec::with_capacity(batch.lines.len());
        let mut marks = Vec::new();
        for line in &batch.lines {
            let (outcome, post_id, reason) = match &line.what {
                ImportLineItem::Post(post) => {
                    let id = post.id.as_str();
                    if let Some(pk) = stored.get(id).filter(|_| claimed.insert(id)) {
                        marks.push((*pk, line.line));
                        counts.imported += 1;
                        (ImportOutcome::Imported, Some(id), "")
                    } else {
                        counts.already_held += 1;
                        (ImportOutcome::AlreadyHeld, Some(id), "")
                    }
                }
                ImportLineItem::NotAPost(why) => {
                    counts.not_a_post += 1;
                    (ImportOutcome::NotAPost, None, why.as_str())
                }
                ImportLineItem::Unreadable(why) => {
                    counts.unreadable += 1;
                    (ImportOutcome::Unreadable, None, why.as_str())
                }
            };
            outcomes.push((line, outcome, post_id, reason));
        }

        for chunk in outcomes.chunks(LINE_CHUNK) {
            let mut sql = QueryBuilder::<Sqlite>::new(
                "INSERT INTO import_lines (import_id, line, item, outcome, post_id, reason, source) ",
            );
            sql.push_values(chunk, |mut row, (line, outcome, post_id, reason)| {
                row.push_bind(import_id)
                    .push_bind(line.line)
                    .push_bind(line.item)
                    .push_bind(*outcome)
                    .push_bind(*post_id)
                    .push_bind(*reason)
                    .push_bind(line.source.as_deref());
            });
            sql.build().execute(&mut *tx).await?;
        }
        for chunk in marks.chunks(MARK_CHUNK) {
            let mut sql =
                QueryBuilder::<Sqlite>::new("INSERT INTO post_imports (post_pk, import_id, line) ");
            sql.push_values(chunk, |mut row, (pk, line)| {
                row.push_bind(*pk).push_bind(import_id).push_bind(*line);
            });
            sql.build().execute(&mut *tx).await?;
        }
        if let Some(investigation_id) = investigation_id {
            let detail = format!(
                "imported from {file_name} (SHA-256 {sha256}), import {import_id}, \
                 not captured by Sightline"
            );
            self.file_imported(&mut tx, investigation_id, &posts, at, &detail)
                .await?;
        }
        sqlx::query(
            "UPDATE imports SET lines_done = ?, offset_done = ?,
                 imported = imported + ?, already_held = already_held + ?,
                 not_a_post = not_a_post + ?, unreadable = unreadable + ?
             WHERE id = ?",
        )
        .bind(batch.lines_done)
        .bind(batch.offset_done)
        .bind(counts.imported)
        .bind(counts.already_held)
        .bind(counts.not_a_post)
        .bind(counts.unreadable)
        .bind(import_id)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(counts)
    }

    /// Files a batch's posts (imported or already held) in the investigation by hand, so taking
    /// out a request never takes them out; those newly filed are one custody entry.
    async fn file_imported(
        &self,
        conn: &mut SqliteConnection,
        investigation_id: i64,
        posts: &[NewPost],
        at: i64,
        detail: &str,
    ) -> Result<()> {
        if posts.is_empty() {
            return Ok(());
        }
        let ids: Vec<&str> = posts.iter().map(|post| post.id.as_str()).collect();
        let filed: Vec<String> = sqlx::query_scalar(
            "INSERT INTO investigation_posts
                 (investigation_id, post_pk, created_at, added_at, by_hand)
             SELECT ?, pk, created_at, ?, 1 FROM posts
             WHERE id IN (SELECT value FROM json_each(?))
             ORDER BY pk
             ON CONFLICT (investigation_id, post_pk) DO NOTHING
             RETURNING (SELECT id FROM posts WHERE pk = post_pk)",
        )
        .bind(investigation_id)
        .bind(at)
        .bind(serde_json::to_string(&ids)?)
        .fetch_all(&mut *conn)
        .await?;
        if filed.is_empty() {
            return Ok(());
        }
        let count = filed.len();
        let detail = format!(
            "{count} {}, {detail}",
            if count == 1 { "post" } else { "posts" }
        );
        let ids = filed.iter().map(|id| format!("post:{id}")).collect();
        self.custody_at(at)
            .append(
                conn,
                investigation_id,
                CustodyAction::PostAdded,
                ids,
                &detail,
            )
            .await?;
        Ok(())
    }

    /// Marks a running import to resume (a cancelled, failed or interrupted one): its row as
    /// it stands, with the line and byte to go on from.
    pub async fn resume_import(&self, import_id: i64) -> Result<StoredImport> {
        let done = sqlx::query(
            "UPDATE imports SET state = 'running', error = NULL, finished_at = NULL
             WHERE id = ? AND state <> 'done'",
        )
        .bind(import_id)
        .execute(&self.pool)
        .await?;
        let import = self
            .import(import_id)
            .await?
            .ok_or_else(|| StoreError::InvalidInput(format!("no import {import_id}")))?;
        if done.rows_affected() == 0 {
            return Err(StoreError::InvalidInput(format!(
                "import {import_id} has read every line already"
            )));
        }
        Ok(import)
    }

    /// Ends an import: done, cancelled or failed (with why). A batch arriving after is refused.
    pub async fn finish_import(
        &self,
        import_id: i64,
        state: ImportState,
        error: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<StoredImport> {
        if state == ImportState::Running {
            return Err(StoreError::InvalidInput(
                "an import is finished as done, cancelled or failed".into(),
            ));
        }
        sqlx::query(
            "UPDATE imports SET state = ?, error = ?, finished_at = ?
             WHERE id = ? AND state = 'running'",
        )
        .bind(state)
        .bind(error)
        .bind(to_ms(now))
        .bind(import_id)
        .execute(&self.pool)
        .await?;
        self.import(import_id)
            .await?
            .ok_or_else(|| StoreError::InvalidInput(format!("no import {import_id}")))
    }

    /// Cancels a running import; it stays resumable from its last recorded batch.
    pub async fn cancel_import(&self, import_id: i64, now: DateTime<Utc>) -> Result<StoredImport> {
        self.finish_import(import_id, ImportState::Cancelled, None, now)
            .await
    }
}

/// Stores the posts the archive does not hold yet (a held one is left untouched: it keeps its
/// own copy and capture), in as few statements as [`POST_CHUNK`] allows (each statement is
/// one FTS5 segment); the key of each post stored, by id.
async fn insert_new_posts(
    conn: &mut SqliteConnection,
    at: i64,
    posts: &[NewPost],
) -> Result<std::collections::HashMap<String, i64>> {
    let mut stored = std::collections::HashMap::with_capacity(posts.len());
    for chunk in posts.chunks(POST_CHUNK) {
        let mut sql = QueryBuilder::<Sqlite>::new(format!(
            "INSERT INTO posts ({POST_COLUMNS_IN}, first_seen, last_seen) "
        ));
        push_post_values(&mut sql, chunk, &[at, at]);
        sql.push(" ON CONFLICT (id) DO NOTHING RETURNING pk, id");
        let rows: Vec<(i64, String)> = sql.build_query_as().fetch_all(&mut *conn).await?;
        stored.extend(rows.into_iter().map(|(pk, id)| (id, pk)));
    }
    Ok(stored)
}
