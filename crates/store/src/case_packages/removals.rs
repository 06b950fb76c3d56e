//! Removals from a case (migrations 0024 and 0025): recorded when a tag is taken off or a note
//! removed or written over, or a post or request taken out of the case, here or by a
//! colleague, and read back for a package. Each record is kept for good, once: the same
//! removal received again changes nothing.

use std::collections::HashMap;

use sqlx::{Row, SqliteConnection};

use super::read::by_of;
use super::{By, CaseRemoval, RemovedKind};
use crate::error::Result;

/// Records `removal` on post `post_pk` of investigation `id`; false when it was held already.
pub(crate) async fn record(
    conn: &mut SqliteConnection,
    id: i64,
    post_pk: i64,
    removal: &CaseRemoval,
) -> Result<bool> {
    let done = sqlx::query(
        "INSERT OR IGNORE INTO investigation_removals (investigation_id, post_pk, kind, what,
             added_at, removed_at, colleagues_note, by_name, by_key)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(id)
    .bind(post_pk)
    .bind(removal.kind.as_str())
    .bind(&removal.what)
    .bind(removal.added_at)
    .bind(removal.removed_at)
    .bind(removal.colleagues_note)
    .bind(removal.by.as_ref().map(|b| &b.name))
    .bind(removal.by.as_ref().map(|b| &b.key))
    .execute(conn)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Records a post or request taken out of investigation `id` (`removal.what`: its id,
/// `added_at`: the filing's time); false when it was held already.
pub(crate) async fn record_unfiled(
    conn: &mut SqliteConnection,
    id: i64,
    removal: &CaseRemoval,
) -> Result<bool> {
    let done = sqlx::query(
        "INSERT OR IGNORE INTO investigation_unfiled (investigation_id, kind, item, filed_at,
             removed_at, by_name, by_key) VALUES (?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(id)
    .bind(removal.kind.as_str())
    .bind(&removal.what)
    .bind(removal.added_at)
    .bind(removal.removed_at)
    .bind(removal.by.as_ref().map(|b| &b.name))
    .bind(removal.by.as_ref().map(|b| &b.key))
    .execute(conn)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Records request `request_id`'s filing (made at `filed_at`) taken out here at `at`.
pub(crate) async fn unfiled_request(
    conn: &mut SqliteConnection,
    id: i64,
    request_id: &str,
    filed_at: i64,
    at: i64,
) -> Result<()> {
    let removal = here(RemovedKind::Request, request_id, filed_at, at);
    record_unfiled(conn, id, &removal).await?;
    Ok(())
}

/// Records the posts taken out here at `at` (investigation, post key, filed at), returned
/// without the time.
pub(crate) async fn unfiled_posts(
    conn: &mut SqliteConnection,
    id: i64,
    posts: Vec<(i64, i64, i64)>,
    at: i64,
) -> Result<Vec<(i64, i64)>> {
    for (_, pk, filed_at) in &posts {
        let post_id: String = sqlx::query_scalar("SELECT id FROM posts WHERE pk = ?")
            .bind(pk)
            .fetch_one(&mut *conn)
            .await?;
        let removal = here(RemovedKind::Post, &post_id, *filed_at, at);
        record_unfiled(conn, id, &removal).await?;
    }
    Ok(posts.into_iter().map(|(i, pk, _)| (i, pk)).collect())
}

/// A filing taken out by this installation.
fn here(kind: RemovedKind, item: &str, filed_at: i64, at: i64) -> CaseRemoval {
    CaseRemoval {
        kind,
        what: item.to_owned(),
        added_at: filed_at,
        removed_at: at,
        colleagues_note: false,
        by: None,
    }
}

/// Every post and request taken out of investigation `id`, oldest first.
pub(crate) async fn unfiled_of(conn: &mut SqliteConnection, id: i64) -> Result<Vec<CaseRemoval>> {
    let rows = sqlx::query(
        "SELECT kind, item, filed_at, removed_at, by_name, by_key FROM investigation_unfiled
         WHERE investigation_id = ? ORDER BY removed_at, id",
    )
    .bind(id)
    .fetch_all(conn)
    .await?;
    rows.iter()
        .map(|row| {
            let kind: String = row.try_get("kind")?;
            Ok(CaseRemoval {
                kind: if kind == "post" {
                    RemovedKind::Post
                } else {
                    RemovedKind::Request
                },
                what: row.try_get("item")?,
                added_at: row.try_get("filed_at")?,
                removed_at: row.try_get("removed_at")?,
                colleagues_note: false,
                by: by_of(row, "by_name", "by_key")?,
            })
        })
        .collect()
}

/// When tag `tag` was put on post `post_pk` (0: before times were kept), if it is on.
pub(crate) async fn tag_added_at(
    conn: &mut SqliteConnection,
    id: i64,
    post_pk: i64,
    tag: &str,
) -> Result<Option<i64>> {
    Ok(sqlx::query_scalar(
        "SELECT COALESCE(tt.added_at, 0) FROM investigation_tags t
         LEFT JOIN investigation_tag_times tt ON tt.investigation_id = t.investigation_id
             AND tt.post_pk = t.post_pk AND tt.tag = t.tag
         WHERE t.investigation_id = ? AND t.post_pk = ? AND t.tag = ?",
    )
    .bind(id)
    .bind(post_pk)
    .bind(tag)
    .fetch_optional(conn)
    .await?)
}

/// Sets when the tag on post `post_pk` was put on.
pub(crate) async fn set_tag_time(
    conn: &mut SqliteConnection,
    id: i64,
    post_pk: i64,
    tag: &str,
    added_at: i64,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO investigation_tag_times (investigation_id, post_pk, tag, added_at)
         VALUES (?, ?, ?, ?)
         ON CONFLICT (investigation_id, post_pk, tag) DO UPDATE SET added_at = excluded.added_at",
    )
    .bind(id)
    .bind(post_pk)
    .bind(tag)
    .bind(added_at)
    .execute(conn)
    .await?;
    Ok(())
}

/// Every removal from post `post_pk`, oldest first.
pub(crate) async fn of_post(
    conn: &mut SqliteConnection,
    id: i64,
    post_pk: i64,
) -> Result<Vec<CaseRemoval>> {
    let json = format!("[{post_pk}]");
    Ok(of_posts(conn, id, &json)
        .await?
        .remove(&post_pk)
        .unwrap_or_default())
}

/// Every removal from the posts `pks` (a JSON array), by post, oldest first.
pub(crate) async fn of_posts(
    conn: &mut SqliteConnection,
    id: i64,
    pks: &str,
) -> Result<HashMap<i64, Vec<CaseRemoval>>> {
    let mut out: HashMap<i64, Vec<CaseRemoval>> = HashMap::new();
    for row in sqlx::query(
        "SELECT post_pk, kind, what, added_at, removed_at, colleagues_note, by_name, by_key
         FROM investigation_removals
         WHERE investigation_id = ? AND post_pk IN (SELECT value FROM json_each(?))
         ORDER BY post_pk, removed_at, id",
    )
    .bind(id)
    .bind(pks)
    .fetch_all(conn)
    .await?
    {
        let kind: String = row.try_get("kind")?;
        out.entry(row.try_get("post_pk")?)
            .or_default()
            .push(CaseRemoval {
                kind: if kind == "tag" {
                    RemovedKind::Tag
                } else {
                    RemovedKind::Note
                },
                what: row.try_get("what")?,
                added_at: row.try_get("added_at")?,
                removed_at: row.try_get("removed_at")?,
                colleagues_note: row.try_get("colleagues_note")?,
                by: by_of(&row, "by_name", "by_key")?,
            });
    }
    Ok(out)
}

/// Who a removal names, in words for the custody log.
pub(crate) fn who(by: &Option<By>) -> String {
    match by {
        None => "this installation".into(),
        Some(by) if by.name.is_empty() => format!("key {}", by.key),
        Some(by) => format!("{} (key {})", by.name, by.key),
    }
}
