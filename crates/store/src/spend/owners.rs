//! Spend by the monitor or the collection that sent the requests: read from the ledger's own
//! owner columns (migration `0012_request_owner.sql`), only their rows (a partial index holds
//! them), each line named as its monitor or collection is called now. The money is exact
//! integer nano-dollars; an answer whose cost was no number is counted apart, as unknown.

use chrono::NaiveDate;
use chrono_tz::Tz;
use sqlx::FromRow;

use super::{SpendBreakdown, SpendDimension, SpendLine, MAX_DAYS};
use crate::error::{Result, StoreError};
use crate::money::from_nanos;
use crate::time::day_bounds_ms;
use crate::Store;

#[derive(FromRow)]
struct OwnerRow {
    owner: i64,
    name: Option<String>,
    requests: i64,
    usage_count: i64,
    cost_nanos: i64,
    unreadable: i64,
}

impl Store {
    /// [`Store::spend_breakdown`] by monitor or collection.
    pub(super) async fn owner_breakdown(
        &self,
        dim: SpendDimension,
        tz: Tz,
        days: Option<(NaiveDate, NaiveDate)>,
    ) -> Result<SpendBreakdown> {
        let owners = match dim {
            SpendDimension::Monitor => "monitors",
            SpendDimension::Collection => "collections",
            other => {
                return Err(StoreError::InvalidInput(format!(
                    "{other:?} is not a monitor or a collection"
                )))
            }
        };
        let (from, to) = match days {
            None => (i64::MIN, i64::MAX),
            Some((first, last)) if first <= last => {
                if (last - first).num_days() >= MAX_DAYS as i64 {
                    return Err(StoreError::InvalidInput(format!(
                        "a spend range covers at most {MAX_DAYS} days"
                    )));
                }
                (day_bounds_ms(tz, first).0, day_bounds_ms(tz, last).1)
            }
            Some(_) => (0, 0),
        };
        let rows: Vec<OwnerRow> = sqlx::query_as(&owner_sql(dim, owners))
            .bind(from)
            .bind(to)
            .fetch_all(&self.pool)
            .await?;
        let total = from_nanos(rows.iter().map(|r| r.cost_nanos).sum());
        let unreadable = rows.iter().map(|r| r.unreadable).sum();
        let lines: Vec<SpendLine> = rows
            .into_iter()
            .map(|row| SpendLine {
                key: row.owner.to_string(),
                label: row.name,
                cost: from_nanos(row.cost_nanos),
                requests: row.requests,
                usage_count: row.usage_count,
            })
            .collect();
        Ok(SpendBreakdown::ranked(dim, total, unreadable, lines))
    }
}

/// Spend per monitor or collection (`owners` the table naming them) in `[?, ?)`: only the
/// ledger rows they sent, off the partial index of that column.
pub(crate) fn owner_sql(dim: SpendDimension, owners: &str) -> String {
    let column = dim.ledger_column();
    format!(
        "SELECT l.{column} AS owner,
                (SELECT o.name FROM {owners} o WHERE o.id = l.{column}) AS name,
                count(*) AS requests, sum(l.usage_count) AS usage_count,
                COALESCE(sum(l.cost_nanos) FILTER (WHERE l.cost_unreadable = 0), 0)
                    AS cost_nanos,
                count(*) FILTER (WHERE l.cost_unreadable = 1) AS unreadable
         FROM ledger l
         WHERE l.{column} IS NOT NULL AND l.at >= ? AND l.at < ?
         GROUP BY l.{column}"
    )
}

#[cfg(test)]
mod tests;
