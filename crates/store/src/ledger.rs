//! The spend ledger, one row per billed answer: its writes (a request's row, added once; a
//! further charge of the same request, such as a job's billed poll)
//! and its rows read back for the user's own accounting (Spend → Export ledger). Aggregates
//! live in [`crate::spend`]; this is the raw, exact record behind them. The ledger is
//! append-only (triggers refuse deletes and money or time updates).

use chrono::{DateTime, NaiveDate, Utc};
use chrono_tz::Tz;
use rust_decimal::Decimal;
use serde::Serialize;
use sqlx::SqliteConnection;
use ts_rs::TS;

use crate::error::Result;
use crate::history::Billing;
use crate::money::from_nanos;
use crate::time::{day_bounds_ms, from_ms};
use crate::Store;

/// The request a new ledger row bills.
pub(crate) struct BilledRequest<'a> {
    pub history_id: i64,
    /// When the request started, in ms since the epoch (UTC): the spend's time.
    pub at: i64,
    pub operation: &'a str,
    pub key_label: Option<&'a str>,
}

/// Adds the ledger row of a request unless it has one already (a stream's billing may have
/// been recorded when it started), inside the caller's write transaction, which holds the
/// database from the check to the insert.
pub(crate) async fn insert_once(
    conn: &mut SqliteConnection,
    request: &BilledRequest<'_>,
    billing: &Billing,
) -> Result<()> {
    let billed: Option<i64> = sqlx::query_scalar("SELECT 1 FROM ledger WHERE history_id = ?")
        .bind(request.history_id)
        .fetch_optional(&mut *conn)
        .await?;
    if billed.is_none() {
        insert(conn, request, billing).await?;
    }
    Ok(())
}

/// Adds a ledger row for a charge of a request (its first, through [`insert_once`], or a further
/// one, such as a job's billed poll), inside the caller's transaction. Its cost is the stated
/// one rounded half-even to the nano-dollar, with the text as sent beside it; a cost that is
/// no number is a row too, marked unreadable (its 0 nano-dollars are no value: Spend counts
/// such rows apart).
pub(crate) async fn insert(
    conn: &mut SqliteConnection,
    request: &BilledRequest<'_>,
    billing: &Billing,
) -> Result<()> {
    let nanos = billing.nanos();
    // The monitor or collection that sent it stays on the row (a deleted history row keeps
    // its money with its owner: migration 0012).
    sqlx::query(
        "INSERT INTO ledger (history_id, at, service, operation, key_label, cost_nanos,
             usage_count, currency, cost_text, cost_unreadable, monitor_id, collection_id)
         SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,
                (SELECT monitor_id FROM history WHERE id = ?1),
                (SELECT collection_id FROM history WHERE id = ?1)",
    )
    .bind(request.history_id)
    .bind(request.at)
    .bind(&billing.service)
    .bind(request.operation)
    .bind(request.key_label.unwrap_or(""))
    .bind(nanos.unwrap_or(0))
    .bind(billing.usage_count)
    .bind(&billing.currency)
    .bind(&billing.cost_text)
    .bind(nanos.is_none())
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// One billed answer as the ledger holds it. The money is what the service's response said.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct LedgerEntry {
    /// When the answer was billed.
    pub at: DateTime<Utc>,
    /// The service that billed it.
    pub service: String,
    /// The operation sent.
    pub operation: String,
    /// `None` when the request had no key label (demo data).
    pub key_label: Option<String>,
    /// Rounded half-even to the nano-dollar; `None` when the service's cost was no number.
    #[ts(type = "string | null")]
    pub cost: Option<Decimal>,
    /// The cost exactly as the service wrote it (`None` for rows from before it was kept).
    pub cost_text: Option<String>,
    /// The usage the service counted for the charge.
    pub usage_count: i64,
    /// The currency of `cost`, as the service stated it.
    pub currency: String,
    /// The history row it belongs to; `None` once that row was deleted (the money stays).
    pub history_id: Option<i64>,
}

impl LedgerEntry {
    /// The cost for a person or a file: the rounded amount, or `unreadable`.
    pub fn cost_words(&self) -> String {
        self.cost
            .map_or_else(|| crate::history::UNREADABLE.to_owned(), |c| c.to_string())
    }
}

#[derive(sqlx::FromRow)]
struct LedgerRow {
    at: i64,
    service: String,
    operation: String,
    key_label: String,
    cost_nanos: i64,
    usage_count: i64,
    currency: String,
    history_id: Option<i64>,
    cost_text: Option<String>,
    cost_unreadable: bool,
}

impl Store {
    /// Ledger rows, oldest first, for local days `first..=last`, or all of them when `days` is `None`.
    pub async fn ledger(
        &self,
        tz: Tz,
        days: Option<(NaiveDate, NaiveDate)>,
    ) -> Result<Vec<LedgerEntry>> {
        let (from, to) = match days {
            Some((first, last)) => (day_bounds_ms(tz, first).0, day_bounds_ms(tz, last).1),
            None => (i64::MIN, i64::MAX),
        };
        let rows: Vec<LedgerRow> = sqlx::query_as(
            "SELECT at, service, operation, key_label, cost_nanos, usage_count, currency,
                    history_id, cost_text, cost_unreadable
             FROM ledger WHERE at >= ? AND at < ? ORDER BY at, id",
        )
        .bind(from)
        .bind(to)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|row| LedgerEntry {
                at: from_ms(row.at),
                service: row.service,
                operation: row.operation,
                key_label: (!row.key_label.is_empty()).then_some(row.key_label),
                cost: (!row.cost_unreadable).then(|| from_nanos(row.cost_nanos)),
                cost_text: row.cost_text,
                usage_count: row.usage_count,
                currency: row.currency,
                history_id: row.history_id,
            })
            .collect())
    }
}

#[cfg(test)]
mod tests;
