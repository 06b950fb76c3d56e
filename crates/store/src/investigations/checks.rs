//! Still-there checks as stored: one dated row per check (its cost and the requests it sent)
//! and one line per post. The comparison itself is the app's (sightline-core).

use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use sqlx::sqlite::SqliteRow;
use sqlx::Row;

use super::types::{CheckItem, CheckOutcome, CheckReport, CheckSummary, FieldChange};
use crate::custody::CustodyAction;
use crate::error::Result;
use crate::money::{from_nanos, to_nanos};
use crate::time::{from_ms, to_ms};
use crate::Store;

const SUMMARY_SQL: &str = "SELECT c.id, c.checked_at, c.cost_nanos, c.history_ids,
    (SELECT count(*) FROM investigation_check_items x WHERE x.check_id = c.id AND x.outcome = 'unchanged') AS unchanged,
    (SELECT count(*) FROM investigation_check_items x WHERE x.check_id = c.id AND x.outcome = 'changed') AS changed,
    (SELECT count(*) FROM investigation_check_items x WHERE x.check_id = c.id AND x.outcome = 'gone') AS gone
    FROM investigation_checks c";

fn summary_from_row(row: &SqliteRow) -> Result<CheckSummary> {
    let history_ids: String = row.try_get("history_ids")?;
    Ok(CheckSummary {
        id: row.try_get("id")?,
        checked_at: from_ms(row.try_get("checked_at")?),
        unchanged: row.try_get("unchanged")?,
        changed: row.try_get("changed")?,
        gone: row.try_get("gone")?,
        cost: from_nanos(row.try_get("cost_nanos")?),
        history_ids: serde_json::from_str(&history_ids)?,
    })
}

impl Store {
    /// Stores a finished check with its lines, in one transaction.
    pub async fn save_investigation_check(
        &self,
        investigation_id: i64,
        checked_at: DateTime<Utc>,
        cost: Decimal,
        history_ids: &[i64],
        items: &[CheckItem],
    ) -> Result<CheckReport> {
        let mut tx = self.begin_write().await?;
        let check_id: i64 = sqlx::query_scalar(
            "INSERT INTO investigation_checks (investigation_id, checked_at, cost_nanos, history_ids)
             VALUES (?, ?, ?, ?) RETURNING id",
        )
        .bind(investigation_id)
        .bind(to_ms(checked_at))
        .bind(to_nanos(cost)?)
        .bind(serde_json::to_string(history_ids)?)
        .fetch_one(&mut *tx)
        .await?;
        let count = |outcome: CheckOutcome| items.iter().filter(|i| i.outcome == outcome).count();
        let detail = format!(
            "{} posts checked: {} unchanged, {} changed, {} gone",
            items.len(),
            count(CheckOutcome::Unchanged),
            count(CheckOutcome::Changed),
            count(CheckOutcome::Gone)
        );
        let ids = std::iter::once(format!("check:{check_id}"))
            .chain(history_ids.iter().map(|id| format!("request:{id}")))
            .collect();
        self.custody(checked_at)
            .append(
                &mut tx,
                investigation_id,
                CustodyAction::CheckRun,
                ids,
                &detail,
            )
            .await?;
        for item in items {
            sqlx::query(
                "INSERT OR REPLACE INTO investigation_check_items (check_id, post_id, outcome, changes)
                 VALUES (?, ?, ?, ?)",
            )
            .bind(check_id)
            .bind(&item.post_id)
            .bind(item.outcome.as_str())
            .bind(serde_json::to_string(&item.changes)?)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(self
            .investigation_check_report(check_id)
            .await?
            .expect("the check was just stored"))
    }

    /// The check of this investigation that sent the request `history_id`, if any: a check
    /// command replayed with the same request id returns it instead of checking again.
    pub async fn investigation_check_that_sent(
        &self,
        investigation_id: i64,
        history_id: i64,
    ) -> Result<Option<CheckReport>> {
        let check_id: Option<i64> = sqlx::query_scalar(
            "SELECT c.id FROM investigation_checks c
             WHERE c.investigation_id = ?
               AND EXISTS (SELECT 1 FROM json_each(c.history_ids) WHERE value = ?)
             ORDER BY c.id DESC LIMIT 1",
        )
        .bind(investigation_id)
        .bind(history_id)
        .fetch_optional(&self.pool)
        .await?;
        match check_id {
            Some(check_id) => self.investigation_check_report(check_id).await,
            None => Ok(None),
        }
    }

    /// The investigation's checks, newest first, at most `limit` (0: all).
    pub async fn investigation_checks(
        &self,
        investigation_id: i64,
        limit: u32,
    ) -> Result<Vec<CheckSummary>> {
        let limit = if limit == 0 { -1 } else { i64::from(limit) };
        let rows = sqlx::query(&format!(
            "{SUMMARY_SQL} WHERE c.investigation_id = ? ORDER BY c.checked_at DESC, c.id DESC LIMIT ?"
        ))
        .bind(investigation_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(summary_from_row).collect()
    }

    /// One stored check with every line: gone first, then changed, then unchanged.
    pub async fn investigation_check_report(&self, check_id: i64) -> Result<Option<CheckReport>> {
        let row = sqlx::query(&format!("{SUMMARY_SQL} WHERE c.id = ?"))
            .bind(check_id)
            .fetch_optional(&self.pool)
            .await?;
        let Some(summary) = row.as_ref().map(summary_from_row).transpose()? else {
            return Ok(None);
        };
        let rows: Vec<(String, String, String)> = sqlx::query_as(
            "SELECT post_id, outcome, changes FROM investigation_check_items WHERE check_id = ?
             ORDER BY CASE outcome WHEN 'gone' THEN 0 WHEN 'changed' THEN 1 ELSE 2 END, post_id",
        )
        .bind(check_id)
        .fetch_all(&self.pool)
        .await?;
        let items = rows
            .into_iter()
            .map(|(post_id, outcome, changes)| {
                Ok(CheckItem {
                    post_id,
                    outcome: CheckOutcome::parse(&outcome)?,
                    changes: serde_json::from_str::<Vec<FieldChange>>(&changes)?,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Some(CheckReport { summary, items }))
    }
}
