//! An import's reads: the imports, a page of outcomes (keyset, by line and item), the outcomes
//! as CSV, a line as read, and the marks of imported posts.

use std::io::Write;

use sqlx::sqlite::SqliteRow;
use sqlx::Row;

use super::types::{ImportLineRow, ImportOutcome, PostImportMark, StoredImport};
use crate::error::Result;
use crate::export::{cell, id_cell};
use crate::time::from_ms;
use crate::Store;

const IMPORT_COLUMNS: &str = "id, file_name, file_sha256, file_size, format, investigation_id, \
    state, error, lines_done, offset_done, imported, already_held, not_a_post, unreadable, \
    started_at, finished_at";

fn import_from_row(row: &SqliteRow) -> Result<StoredImport> {
    Ok(StoredImport {
        id: row.try_get("id")?,
        file_name: row.try_get("file_name")?,
        file_sha256: row.try_get("file_sha256")?,
        file_size: row.try_get("file_size")?,
        format: row.try_get("format")?,
        investigation_id: row.try_get("investigation_id")?,
        state: row.try_get("state")?,
        error: row.try_get("error")?,
        lines_done: row.try_get("lines_done")?,
        offset_done: row.try_get("offset_done")?,
        imported: row.try_get("imported")?,
        already_held: row.try_get("already_held")?,
        not_a_post: row.try_get("not_a_post")?,
        unreadable: row.try_get("unreadable")?,
        started_at: from_ms(row.try_get("started_at")?),
        finished_at: row.try_get::<Option<i64>, _>("finished_at")?.map(from_ms),
    })
}

/// Outcome rows the CSV export reads at a time.
const CSV_PAGE: i64 = 10_000;

impl Store {
    /// One import, or `None` for an id never given.
    pub async fn import(&self, import_id: i64) -> Result<Option<StoredImport>> {
        let row = sqlx::query(&format!(
            "SELECT {IMPORT_COLUMNS} FROM imports WHERE id = ?"
        ))
        .bind(import_id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(import_from_row).transpose()
    }

    /// Every import, newest first.
    pub async fn imports(&self) -> Result<Vec<StoredImport>> {
        let rows = sqlx::query(&format!(
            "SELECT {IMPORT_COLUMNS} FROM imports ORDER BY id DESC"
        ))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(import_from_row).collect()
    }

    /// Up to `limit` outcomes of an import after `(line, item)` (from the start for `None`),
    /// in file order, only those of `outcome` when one is given.
    pub async fn import_lines(
        &self,
        import_id: i64,
        after: Option<(i64, i64)>,
        outcome: Option<ImportOutcome>,
        limit: i64,
    ) -> Result<Vec<ImportLineRow>> {
        let (line, item) = after.unwrap_or((0, -1));
        let rows: Vec<(i64, i64, ImportOutcome, Option<String>, String)> = sqlx::query_as(
            "SELECT line, item, outcome, post_id, reason FROM import_lines
             WHERE import_id = ?1 AND (?2 IS NULL OR outcome = ?2) AND (line, item) > (?3, ?4)
             ORDER BY line, item LIMIT ?5",
        )
        .bind(import_id)
        .bind(outcome)
        .bind(line)
        .bind(item)
        .bind(limit.max(0))
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|(line, item, outcome, post_id, reason)| ImportLineRow {
                line,
                item,
                outcome,
                post_id,
                reason,
            })
            .collect())
    }

    /// A line exactly as the import read it, or `None` for one it never recorded.
    pub async fn import_line_source(&self, import_id: i64, line: i64) -> Result<Option<String>> {
        Ok(sqlx::query_scalar(
            "SELECT source FROM import_lines WHERE import_id = ? AND line = ? AND item = 0",
        )
        .bind(import_id)
        .bind(line)
        .fetch_optional(&self.pool)
        .await?
        .flatten())
    }

    /// Every outcome of an import as CSV (`line`, `item`, `outcome`, `post_id`, `reason`), in
    /// file order, read a page at a time; cells as every CSV the app writes makes them.
    pub async fn import_lines_csv(&self, import_id: i64, out: impl Write) -> Result<()> {
        let mut w = csv::Writer::from_writer(out);
        w.write_record(["line", "item", "outcome", "post_id", "reason"])?;
        let mut after = None;
        loop {
            let page = self.import_lines(import_id, after, None, CSV_PAGE).await?;
            let Some(last) = page.last() else { break };
            after = Some((last.line, last.item));
            for row in &page {
                w.write_record([
                    row.line.to_string(),
                    row.item.to_string(),
                    crate::words::word(&row.outcome),
                    id_cell(row.post_id.as_deref().unwrap_or_default()),
                    cell(&row.reason),
                ])?;
            }
        }
        w.flush()?;
        Ok(())
    }

    /// The import that brought each of these posts, for those an import brought (a post
    /// fetched by Sightline first has none), in the order asked.
    pub async fn import_for_posts(&self, post_ids: &[String]) -> Result<Vec<PostImportMark>> {
        if post_ids.is_empty() {
            return Ok(Vec::new());
        }
        let rows = sqlx::query(
            "SELECT asked.value AS post_id, i.id AS import_id, i.file_name, i.file_sha256,
                 pi.line, i.started_at,
                 EXISTS (SELECT 1 FROM post_sightings s WHERE s.post_pk = p.pk) AS also_captured
             FROM json_each(?) asked
             JOIN posts p ON p.id = asked.value
             JOIN post_imports pi ON pi.post_pk = p.pk
             JOIN imports i ON i.id = pi.import_id
             ORDER BY asked.key",
        )
        .bind(serde_json::to_string(post_ids)?)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(PostImportMark {
                    post_id: row.try_get("post_id")?,
                    import_id: row.try_get("import_id")?,
                    file_name: row.try_get("file_name")?,
                    file_sha256: row.try_get("file_sha256")?,
                    line: row.try_get("line")?,
                    imported_at: from_ms(row.try_get("started_at")?),
                    also_captured: row.try_get("also_captured")?,
                })
            })
            .collect()
    }
}
