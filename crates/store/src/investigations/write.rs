//! Investigation writes: create, change, archive and delete; the active investigation (in the
//! archive's state) and the filing it does inside a request's own transaction; filing by hand; a
//! post's note and tags.

use chrono::{DateTime, Utc};
use sqlx::SqliteConnection;

use super::logged::{self, post, request, text_summary};
use super::types::{FiledHow, FilingChange, InvestigationChanges, InvestigationItem};
use crate::case_packages::removals;
use crate::case_packages::{CaseRemoval, RemovedKind};
use crate::custody::{Custody, CustodyAction};
use crate::error::{Result, StoreError};
use crate::record::Filing;
use crate::time::to_ms;
use crate::Store;

/// The archive state key that holds the active investigation's id.
pub(crate) const ACTIVE_KEY: &str = "active_investigation";

/// Longest name, and longest tag, in characters.
pub const MAX_NAME_CHARS: usize = 100;
/// Longest tag, in characters.
pub const MAX_TAG_CHARS: usize = 60;

impl Store {
    /// Creates an investigation; its id, one no investigation or custody log has held (a
    /// deleted investigation's log stays under its id). The name must be new without regard
    /// to case (see [`Store::investigation_name_taken`]). Its log begins with "created".
    pub async fn create_investigation(
        &self,
        name: &str,
        description: &str,
        now: DateTime<Utc>,
    ) -> Result<i64> {
        let name = checked_name(name)?;
        let mut tx = self.begin_write().await?;
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO investigations (id, name, description, created_at, updated_at)
             VALUES (max(COALESCE((SELECT max(id) FROM investigations), 0),
                         COALESCE((SELECT max(investigation_id) FROM custody_log), 0)) + 1,
                     ?, ?, ?, ?)
             RETURNING id",
        )
        .bind(name)
        .bind(description.trim())
        .bind(to_ms(now))
        .bind(to_ms(now))
        .fetch_one(&mut *tx)
        .await
        .map_err(|error| name_clash(error, name))?;
        self.custody(now)
            .append(
                &mut tx,
                id,
                CustodyAction::Created,
                Vec::new(),
                &format!("named \u{201c}{name}\u{201d}"),
            )
            .await?;
        tx.commit().await?;
        Ok(id)
    }

    /// Whether another investigation (not `except`) already has this name, in any case.
    pub async fn investigation_name_taken(&self, name: &str, except: Option<i64>) -> Result<bool> {
        let taken: Option<i64> = sqlx::query_scalar(
            "SELECT id FROM investigations WHERE name = ? COLLATE NOCASE AND id IS NOT ?",
        )
        .bind(name.trim())
        .bind(except)
        .fetch_optional(&self.pool)
        .await?;
        Ok(taken.is_some())
    }

    /// Changes the fields given; false when there is no such investigation. Each field that
    /// changes is a custody log entry (the name old and new; the description and notebook by
    /// their length and SHA-256).
    pub async fn update_investigation(
        &self,
        id: i64,
        changes: &InvestigationChanges,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        let name = changes.name.as_deref().map(checked_name).transpose()?;
        let mut tx = self.begin_write().await?;
        let before: Option<(String, String, String)> =
            sqlx::query_as("SELECT name, description, notebook FROM investigations WHERE id = ?")
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?;
        let Some((old_name, old_description, old_notebook)) = before else {
            return Ok(false);
        };
        let done = sqlx::query(
            "UPDATE investigations SET name = COALESCE(?, name),
                 description = COALESCE(?, description), notebook = COALESCE(?, notebook),
                 updated_at = ?
             WHERE id = ?",
        )
        .bind(name)
        .bind(changes.description.as_deref().map(str::trim))
        .bind(changes.notebook.as_deref())
        .bind(to_ms(now))
        .bind(id)
        .execute(&mut *tx)
        .await
        .map_err(|error| name_clash(error, name.unwrap_or_default()))?;
        let custody = self.custody(now);
        if let Some(name) = name.filter(|name| *name != old_name) {
            let detail = format!("from \u{201c}{old_name}\u{201d} to \u{201c}{name}\u{201d}");
            custody
                .append(&mut tx, id, CustodyAction::Renamed, Vec::new(), &detail)
                .await?;
        }
        let description = changes.description.as_deref().map(str::trim);
        if let Some(description) = description.filter(|d| *d != old_description) {
            let detail = text_summary(description);
            custody
                .append(
                    &mut tx,
                    id,
                    CustodyAction::DescriptionChanged,
                    Vec::new(),
                    &detail,
                )
                .await?;
        }
        if let Some(notebook) = changes.notebook.as_deref().filter(|n| *n != old_notebook) {
            let detail = text_summary(notebook);
            custody
                .append(
                    &mut tx,
                    id,
                    CustodyAction::NotebookChanged,
                    Vec::new(),
                    &detail,
                )
                .await?;
        }
        tx.commit().await?;
        Ok(done.rows_affected() == 1)
    }

    /// Archives or restores an investigation; an archived one stops being the active one.
    /// False when there is no such investigation.
    pub async fn set_investigation_archived(
        &self,
        id: i64,
        archived: bool,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        let mut tx = self.begin_write().await?;
        let was: Option<bool> =
            sqlx::query_scalar("SELECT archived FROM investigations WHERE id = ?")
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?;
        let done =
            sqlx::query("UPDATE investigations SET archived = ?, updated_at = ? WHERE id = ?")
                .bind(archived)
                .bind(to_ms(now))
                .bind(id)
                .execute(&mut *tx)
                .await?;
        if archived {
            clear_active_if(&mut tx, id).await?;
        }
        if was.is_some_and(|was| was != archived) {
            let action = if archived {
                CustodyAction::Archived
            } else {
                CustodyAction::Restored
            };
            self.custody(now)
                .append(&mut tx, id, action, Vec::new(), "")
                .await?;
        }
        tx.commit().await?;
        Ok(done.rows_affected() == 1)
    }

    /// Deletes an investigation with its filing, notes, tags and checks. History, the archive
    /// and the ledger keep everything, and so does its custody log, whose last entry says it
    /// was deleted (what it held, in counts). False when there is no such investigation.
    pub async fn delete_investigation(&self, id: i64) -> Result<bool> {
        let mut tx = self.begin_write().await?;
        let held: Option<(String, i64, i64)> = sqlx::query_as(
            "SELECT name,
                 (SELECT count(*) FROM investigation_requests WHERE investigation_id = i.id),
                 (SELECT count(*) FROM investigation_posts WHERE investigation_id = i.id)
             FROM investigations i WHERE id = ?",
        )
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
        if let Some((name, requests, posts)) = held {
            let detail = format!(
                "\u{201c}{name}\u{201d} deleted with its filing ({requests} requests, {posts} posts), notes, tags and checks; this log is kept"
            );
            self.custody(Utc::now())
                .append(&mut tx, id, CustodyAction::Deleted, Vec::new(), &detail)
                .await?;
        }
        let done = sqlx::query("DELETE FROM investigations WHERE id = ?")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        clear_active_if(&mut tx, id).await?;
        tx.commit().await?;
        Ok(done.rows_affected() == 1)
    }

    /// The investigation every request recorded now is filed under, if any.
    pub async fn active_investigation(&self) -> Result<Option<i64>> {
        self.archive_state::<i64>(ACTIVE_KEY).await
    }

    /// Makes `id` the active investigation (`None`: no investigation). An archived or missing
    /// investigation cannot be made active.
    pub async fn set_active_investigation(&self, id: Option<i64>) -> Result<()> {
        let Some(id) = id else {
            self.remove_archive_state(ACTIVE_KEY).await?;
            return Ok(());
        };
        let archived: Option<bool> =
            sqlx::query_scalar("SELECT archived FROM investigations WHERE id = ?")
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
        match archived {
            None => Err(StoreError::InvalidInput(
                "that investigation no longer exists".into(),
            )),
            Some(true) => Err(StoreError::InvalidInput(
                "an archived investigation cannot be the active one; restore it first".into(),
            )),
            Some(false) => self.set_archive_state(ACTIVE_KEY, &id).await,
        }
    }

    /// Files items by hand: a request with the posts it found, a post on its own. Items
    /// already filed, and ids that do not exist, change nothing.
    pub async fn add_to_investigation(
        &self,
        id: i64,
        items: &[InvestigationItem],
        now: DateTime<Utc>,
    ) -> Result<FilingChange> {
        let at = to_ms(now);
        let custody = self.custody(now);
        let mut tx = self.begin_write().await?;
        let mut change = FilingChange::default();
        let mut added_alone = Vec::new();
        for item in items {
            match item {
                InvestigationItem::Request { history_id } => {
                    if file_request(&mut tx, id, *history_id, at, FiledHow::ByHand).await? {
                        change.requests += 1;
                        let ids = vec![request(*history_id)];
                        custody
                            .append(&mut tx, id, CustodyAction::RequestFiled, ids, "by hand")
                            .await?;
                    }
                    let filed = file_request_posts(&mut tx, *history_id, at).await?;
                    change.posts += filed.len() as i64;
                    let detail = format!("found by request {history_id}");
                    logged::posts(&mut tx, &custody, CustodyAction::PostAdded, &filed, &detail)
                        .await?;
                }
                InvestigationItem::Post { post_id } => {
                    let pk: Option<(i64, bool)> = sqlx::query_as(
                        "SELECT p.pk, ip.post_pk IS NOT NULL FROM posts p
                         LEFT JOIN investigation_posts ip
                             ON ip.post_pk = p.pk AND ip.investigation_id = ?
                         WHERE p.id = ?",
                    )
                    .bind(id)
                    .bind(post_id)
                    .fetch_optional(&mut *tx)
                    .await?;
                    if let Some((pk, false)) = pk {
                        added_alone.push((id, pk));
                    }
                    let done = sqlx::query(
                        "INSERT INTO investigation_posts
                             (investigation_id, post_pk, created_at, added_at, by_hand)
                         SELECT ?, pk, created_at, ?, 1 FROM posts WHERE id = ?
                         ON CONFLICT (investigation_id, post_pk) DO UPDATE SET by_hand = 1",
                    )
                    .bind(id)
                    .bind(at)
                    .bind(post_id)
                    .execute(&mut *tx)
                    .await?;
                    change.posts += done.rows_affected() as i64;
                }
            }
        }
        logged::posts(
            &mut tx,
            &custody,
            CustodyAction::PostAdded,
            &added_alone,
            "by hand",
        )
        .await?;
        touch(&mut tx, id, at).await?;
        tx.commit().await?;
        Ok(change)
    }

    /// Takes items out. A request takes out the posts it brought, except those another filed
    /// request also found, those added on their own, and those with a note or tags (the
    /// user's work is never dropped as a side effect). A post taken out loses its note and tags.
    /// Each filing taken out is recorded (`investigation_unfiled`), so a colleague's case
    /// package that still carries it does not file it again.
    pub async fn remove_from_investigation(
        &self,
        id: i64,
        items: &[InvestigationItem],
        now: DateTime<Utc>,
    ) -> Result<FilingChange> {
        let custody = self.custody(now);
        let mut tx = self.begin_write().await?;
        let mut change = FilingChange::default();
        let mut removed_alone = Vec::new();
        for item in items {
            match item {
                InvestigationItem::Request { history_id } => {
                    let done: Option<(i64, String)> = sqlx::query_as(
                        "DELETE FROM investigation_requests
                         WHERE investigation_id = ? AND history_id = ?
                         RETURNING added_at,
                             (SELECT request_id FROM history WHERE id = history_id)",
                    )
                    .bind(id)
                    .bind(history_id)
                    .fetch_optional(&mut *tx)
                    .await?;
                    let Some((filed_at, request_id)) = done else {
                        continue;
                    };
                    let at = custody.at();
                    removals::unfiled_request(&mut tx, id, &request_id, filed_at, at).await?;
                    change.requests += 1;
                    let ids = vec![request(*history_id)];
                    custody
                        .append(&mut tx, id, CustodyAction::RequestRemoved, ids, "by hand")
                        .await?;
                    let posts: Vec<(i64, i64, i64)> = sqlx::query_as(
                        "DELETE FROM investigation_posts AS ip
                         WHERE ip.investigation_id = ?1 AND ip.by_hand = 0 AND ip.note = ''
                           AND ip.post_pk IN (SELECT post_pk FROM post_sightings WHERE history_id = ?2)
                           AND NOT EXISTS (SELECT 1 FROM investigation_tags t
                                           WHERE t.investigation_id = ?1 AND t.post_pk = ip.post_pk)
                           AND NOT EXISTS (SELECT 1 FROM post_sightings s
                                           JOIN investigation_requests r ON r.history_id = s.history_id
                                           WHERE r.investigation_id = ?1 AND s.post_pk = ip.post_pk
                                             AND r.how <> 'check')
                         RETURNING investigation_id, post_pk, added_at",
                    )
                    .bind(id)
                    .bind(history_id)
                    .fetch_all(&mut *tx)
                    .await?;
                    let posts = removals::unfiled_posts(&mut tx, id, posts, custody.at()).await?;
                    change.posts += posts.len() as i64;
                    let detail = format!("with request {history_id}, which brought them");
                    logged::posts(
                        &mut tx,
                        &custody,
                        CustodyAction::PostRemoved,
                        &posts,
                        &detail,
                    )
                    .await?;
                }
                InvestigationItem::Post { post_id } => {
                    let done = sqlx::query_as(
                        "DELETE FROM investigation_posts WHERE investigation_id = ?
                             AND post_pk = (SELECT pk FROM posts WHERE id = ?)
                         RETURNING investigation_id, post_pk, added_at",
                    )
                    .bind(id)
                    .bind(post_id)
                    .fetch_all(&mut *tx)
                    .await?;
                    let done = removals::unfiled_posts(&mut tx, id, done, custody.at()).await?;
                    change.posts += done.len() as i64;
                    removed_alone.extend(done);
                }
            }
        }
        let detail = "by hand, each with its note and tags";
        logged::posts(
            &mut tx,
            &custody,
            CustodyAction::PostRemoved,
            &removed_alone,
            detail,
        )
        .await?;
        touch(&mut tx, id, to_ms(now)).await?;
        tx.commit().await?;
        Ok(change)
    }

    /// Sets a filed post's note and/or its whole list of tags (trimmed; the same tag in
    /// another case counts once, the first spelling kept). False when the post is not filed in
    /// this investigation. A note removed or written over and a tag taken off are kept as
    /// removals (what, when; `case_packages/removals.rs`), so a colleague's case package that
    /// still carries them does not bring them back; a tag put on records when.
    pub async fn set_investigation_post(
        &self,
        id: i64,
        post_id: &str,
        note: Option<&str>,
        tags: Option<&[String]>,
    ) -> Result<bool> {
        let tags = tags.map(clean_tags).transpose()?;
        let mut tx = self.begin_write().await?;
        let pk: Option<i64> = sqlx::query_scalar(
            "SELECT ip.post_pk FROM investigation_posts ip JOIN posts p ON p.pk = ip.post_pk
             WHERE ip.investigation_id = ? AND p.id = ?",
        )
        .bind(id)
        .bind(post_id)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(pk) = pk else {
            return Ok(false);
        };
        let custody = self.custody(Utc::now());
        let ids = vec![post(post_id)];
        if let Some(note) = note {
            let (old, colleagues): (String, bool) = sqlx::query_as(
                "SELECT note, note_by_key IS NOT NULL FROM investigation_posts
                 WHERE investigation_id = ? AND post_pk = ?",
            )
            .bind(id)
            .bind(pk)
            .fetch_one(&mut *tx)
            .await?;
            if old != note.trim() {
                if !old.is_empty() {
                    // Kept, so a colleague's package still carrying it does not bring it back;
                    // a colleague's note written over stays theirs, beside (a difference).
                    let removal = CaseRemoval {
                        kind: RemovedKind::Note,
                        what: old.clone(),
                        added_at: 0,
                        removed_at: custody.at(),
                        colleagues_note: colleagues && !note.trim().is_empty(),
                        by: None,
                    };
                    removals::record(&mut tx, id, pk, &removal).await?;
                }
                let detail = text_summary(note.trim());
                custody
                    .append(
                        &mut tx,
                        id,
                        CustodyAction::NoteChanged,
                        ids.clone(),
                        &detail,
                    )
                    .await?;
            }
            // A note written here is this installation's (a received note's attribution
            // stays only while its text does).
            sqlx::query(
                "UPDATE investigation_posts SET note = ?1,
                     note_by_name = CASE WHEN note = ?1 THEN note_by_name END,
                     note_by_key = CASE WHEN note = ?1 THEN note_by_key END
                 WHERE investigation_id = ?2 AND post_pk = ?3",
            )
            .bind(note.trim())
            .bind(id)
            .bind(pk)
            .execute(&mut *tx)
            .await?;
        }
        if let Some(tags) = tags {
            let old: Vec<String> = sqlx::query_scalar(
                "SELECT tag FROM investigation_tags WHERE investigation_id = ? AND post_pk = ?
                 ORDER BY tag",
            )
            .bind(id)
            .bind(pk)
            .fetch_all(&mut *tx)
            .await?;
            // Only the tags taken off are deleted and only new ones added, so a tag a
            // colleague put on (received in a case package) keeps who put it on.
            let changes = tag_changes(&old, &tags);
            for (action, tag) in &changes {
                let detail = format!("\u{201c}{tag}\u{201d}");
                custody
                    .append(&mut tx, id, *action, ids.clone(), &detail)
                    .await?;
            }
            let removed = changes
                .iter()
                .filter(|(action, _)| *action == CustodyAction::TagRemoved);
            for (_, tag) in removed {
                // The addition taken off is recorded, so a colleague's package still carrying
                // it does not put it on again.
                if let Some(added_at) = removals::tag_added_at(&mut tx, id, pk, tag).await? {
                    let removal = CaseRemoval {
                        kind: RemovedKind::Tag,
                        what: (*tag).to_owned(),
                        added_at,
                        removed_at: custody.at(),
                        colleagues_note: false,
                        by: None,
                    };
                    removals::record(&mut tx, id, pk, &removal).await?;
                }
                sqlx::query(
                    "DELETE FROM investigation_tags
                     WHERE investigation_id = ? AND post_pk = ? AND tag = ?",
                )
                .bind(id)
                .bind(pk)
                .bind(*tag)
                .execute(&mut *tx)
                .await?;
            }
            for tag in &tags {
                let added = sqlx::query(
                    "INSERT OR IGNORE INTO investigation_tags (investigation_id, post_pk, tag)
                     VALUES (?, ?, ?)",
                )
                .bind(id)
                .bind(pk)
                .bind(tag)
                .execute(&mut *tx)
                .await?;
                if added.rows_affected() > 0 {
                    removals::set_tag_time(&mut tx, id, pk, tag, custody.at()).await?;
                }
            }
        }
        tx.commit().await?;
        Ok(true)
    }
}

/// Files a request the moment it is registered (begun before its answer) as `filing` says:
/// under the active investigation, or as a check's under its investigation, in the caller's
/// transaction.
pub(crate) async fn file_begun(
    conn: &mut SqliteConnection,
    history_id: i64,
    at: i64,
    filing: Filing,
    custody: &Custody,
) -> Result<()> {
    match filing {
        Filing::Active => file_under_active(conn, history_id, at, custody).await,
        Filing::Check { investigation_id } => {
            if file_request(conn, investigation_id, history_id, at, FiledHow::Check).await? {
                let ids = vec![request(history_id)];
                let detail = "sent by a still-there check; it files none of the posts it fetches";
                custody
                    .append(
                        conn,
                        investigation_id,
                        CustodyAction::RequestFiled,
                        ids,
                        detail,
                    )
                    .await?;
            }
            Ok(())
        }
    }
}

/// Files a recorded request, in the record's own transaction: under the active investigation
/// when it is recorded in one step (`newly_written`; a begun request was filed when it
/// began), then its posts under every investigation that holds it.
pub(crate) async fn file_recorded(
    conn: &mut SqliteConnection,
    history_id: i64,
    at: i64,
    newly_written: bool,
    custody: &Custody,
) -> Result<()> {
    if newly_written {
        file_under_active(conn, history_id, at, custody).await?;
    }
    let filed = file_request_posts(conn, history_id, at).await?;
    let detail = format!("found by request {history_id}");
    logged::posts(conn, custody, CustodyAction::PostAdded, &filed, &detail).await
}

/// Files a monitor's or a collection's page under its investigation (by hand's way: the request
/// and the posts it found), in the page's own transaction. The caller has checked that the
/// investigation is not archived (`runs/filing.rs`).
/// `sent_by` names the owner in the log (`a page of monitor 3`).
pub(crate) async fn file_run_page(
    conn: &mut SqliteConnection,
    id: i64,
    history_id: i64,
    at: i64,
    sent_by: &str,
    custody: &Custody,
) -> Result<()> {
    if file_request(conn, id, history_id, at, FiledHow::ByHand).await? {
        let ids = vec![request(history_id)];
        custody
            .append(conn, id, CustodyAction::RequestFiled, ids, sent_by)
            .await?;
    }
    let filed = file_request_posts(conn, history_id, at).await?;
    let detail = format!("found by request {history_id}");
    logged::posts(conn, custody, CustodyAction::PostAdded, &filed, &detail).await?;
    touch(conn, id, at).await
}

async fn file_under_active(
    conn: &mut SqliteConnection,
    history_id: i64,
    at: i64,
    custody: &Custody,
) -> Result<()> {
    // The stored value is the id as JSON (a bare number), so it reads as an integer.
    let filed: Option<i64> = sqlx::query_scalar(
        "INSERT OR IGNORE INTO investigation_requests (investigation_id, history_id, added_at, how)
         SELECT i.id, ?, ?, 'active' FROM archive_state s
         JOIN investigations i ON i.id = CAST(s.value AS INTEGER) AND i.archived = 0
         WHERE s.key = ?
         RETURNING investigation_id",
    )
    .bind(history_id)
    .bind(at)
    .bind(ACTIVE_KEY)
    .fetch_optional(&mut *conn)
    .await?;
    if let Some(id) = filed {
        let ids = vec![request(history_id)];
        let detail = "sent while it was the active investigation";
        custody
            .append(conn, id, CustodyAction::RequestFiled, ids, detail)
            .await?;
    }
    Ok(())
}

/// Files a request under one investigation; true when it was not filed there before.
async fn file_request(
    conn: &mut SqliteConnection,
    id: i64,
    history_id: i64,
    at: i64,
    how: FiledHow,
) -> Result<bool> {
    let done = sqlx::query(
        "INSERT OR IGNORE INTO investigation_requests (investigation_id, history_id, added_at, how)
         SELECT ?, id, ?, ? FROM history WHERE id = ?",
    )
    .bind(id)
    .bind(at)
    .bind(how.as_str())
    .bind(history_id)
    .execute(&mut *conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Files the posts a request found under every investigation that holds the request, except
/// where it is a check's re-fetch (a check reads the case, it does not add to it); those new
/// there, as (investigation, post key).
async fn file_request_posts(
    conn: &mut SqliteConnection,
    history_id: i64,
    at: i64,
) -> Result<Vec<(i64, i64)>> {
    let filed = sqlx::query_as(
        "INSERT OR IGNORE INTO investigation_posts (investigation_id, post_pk, created_at, added_at)
         SELECT r.investigation_id, p.pk, p.created_at, ?1
         FROM investigation_requests r
         JOIN post_sightings s ON s.history_id = r.history_id
         JOIN posts p ON p.pk = s.post_pk
         WHERE r.history_id = ?2 AND r.how <> 'check'
         RETURNING investigation_id, post_pk",
    )
    .bind(at)
    .bind(history_id)
    .fetch_all(&mut *conn)
    .await?;
    Ok(filed)
}

async fn touch(conn: &mut SqliteConnection, id: i64, at: i64) -> Result<()> {
    sqlx::query("UPDATE investigations SET updated_at = ? WHERE id = ?")
        .bind(at)
        .bind(id)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

async fn clear_active_if(conn: &mut SqliteConnection, id: i64) -> Result<()> {
    sqlx::query("DELETE FROM archive_state WHERE key = ? AND CAST(value AS INTEGER) = ?")
        .bind(ACTIVE_KEY)
        .bind(id)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

fn checked_name(name: &str) -> Result<&str> {
    let name = name.trim();
    if name.is_empty() {
        return Err(StoreError::InvalidInput(
            "an investigation needs a name".into(),
        ));
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(StoreError::InvalidInput(format!(
            "a name can be at most {MAX_NAME_CHARS} characters"
        )));
    }
    Ok(name)
}

/// The unique index on names refused the write: say so in words.
fn name_clash(error: sqlx::Error, name: &str) -> StoreError {
    match &error {
        sqlx::Error::Database(db) if db.is_unique_violation() => {
            StoreError::InvalidInput(format!("an investigation named \"{name}\" already exists"))
        }
        _ => error.into(),
    }
}

/// The tags taken off (in `old`, not in `new`) and put on (the other way), each as typed:
/// a tag whose spelling changed is one taken off and one put on.
fn tag_changes<'a>(old: &'a [String], new: &'a [String]) -> Vec<(CustodyAction, &'a str)> {
    let removed = old
        .iter()
        .filter(|tag| !new.contains(tag))
        .map(|tag| (CustodyAction::TagRemoved, tag.as_str()));
    let added = new
        .iter()
        .filter(|tag| !old.contains(tag))
        .map(|tag| (CustodyAction::TagAdded, tag.as_str()));
    removed.chain(added).collect()
}

/// Trimmed, non-empty tags, each once without regard to case, first spelling kept.
pub(crate) fn clean_tags(tags: &[String]) -> Result<Vec<String>> {
    let mut kept: Vec<String> = Vec::new();
    for tag in tags.iter().map(|t| t.trim()).filter(|t| !t.is_empty()) {
        if tag.chars().count() > MAX_TAG_CHARS {
            return Err(StoreError::InvalidInput(format!(
                "a tag can be at most {MAX_TAG_CHARS} characters"
            )));
        }
        if !kept.iter().any(|k| k.to_lowercase() == tag.to_lowercase()) {
            kept.push(tag.to_owned());
        }
    }
    Ok(kept)
}
