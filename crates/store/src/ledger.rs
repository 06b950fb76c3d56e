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
/// database from the check to the insert. `cost_nanos` is `billing.cost` already checked to be
/// exact in nano-dollars.
pub(crate) async fn insert_once(
    conn: &mut SqliteConnection,
    request: &BilledRequest<'_>,
    billing: &Billing,
    cost_nanos: i64,
) -> Result<()> {
    let billed: Option<i64> = sqlx::query_scalar("SELECT 1 FROM ledger WHERE history_id = ?")
        .bind(request.history_id)
        .fetch_optional(&mut *conn)
        .await?;
    if billed.is_none() {
        insert(conn, request, billing, cost_nanos).await?;
    }
    Ok(())
}

/// Adds a ledger row for a charge of a request (its first, through [`insert_once`], or a further
/// one, such as a job's billed poll), inside the caller's transaction.
pub(crate) async fn insert(
    conn: &mut SqliteConnection,
    request: &BilledRequest<'_>,
    billing: &Billing,
    cost_nanos: i64,
) -> Result<()> {
    sqlx::query(
        "INSERT INTO ledger (history_id, at, service, operation, key_label, cost_nanos,
             usage_count, currency)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(request.history_id)
    .bind(request.at)
    .bind(&billing.service)
    .bind(request.operation)
    .bind(request.key_label.unwrap_or(""))
    .bind(cost_nanos)
    .bind(billing.usage_count)
    .bind(&billing.currency)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// One billed answer as the ledger holds it. The money is what the service's response said.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct LedgerEntry {
    pub at: DateTime<Utc>,
    pub service: String,
    pub operation: String,
    /// `None` when the request had no key label (demo data).
    pub key_label: Option<String>,
    #[ts(type = "string")]
    pub cost: Decimal,
    pub usage_count: i64,
    pub currency: String,
    /// The history row it belongs to; `None` once that row was deleted (the money stays).
    pub history_id: Option<i64>,
}

type LedgerRow = (i64, String, String, String, i64, i64, String, Option<i64>);

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
            "SELECT at, service, operation, key_label, cost_nanos, usage_count, currency, history_id
             FROM ledger WHERE at >= ? AND at < ? ORDER BY at, id",
        )
        .bind(from)
        .bind(to)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(
                |(
                    at,
                    service,
                    operation,
                    key_label,
                    cost_nanos,
                    usage_count,
                    currency,
                    history_id,
                )| {
                    LedgerEntry {
                        at: from_ms(at),
                        service,
                        operation,
                        key_label: (!key_label.is_empty()).then_some(key_label),
                        cost: from_nanos(cost_nanos),
                        usage_count,
                        currency,
                        history_id,
                    }
                },
            )
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{billing, record, temp_store};
    use chrono::TimeZone;
    use std::str::FromStr;

    #[tokio::test]
    async fn ledger_rows_are_exact_and_bounded_by_local_days() {
        let (store, _dir) = temp_store().await;
        let tz: Tz = "Europe/Berlin".parse().unwrap();
        let at = |d, h| Utc.with_ymd_and_hms(2026, 5, d, h, 0, 0).unwrap();
        // 22:30 UTC on the 1st is already the 2nd in Berlin (UTC+2).
        for (id, when, cost) in [
            ("a", at(1, 12), "0.00015"),
            ("b", at(1, 22), "1.5"),
            ("c", at(3, 9), "2"),
        ] {
            let mut r = record(id, when);
            r.billing = Some(billing(cost, 3, "x"));
            store.record_request(&r).await.unwrap();
        }
        store
            .record_request(&record("unbilled", at(2, 9)))
            .await
            .unwrap();

        let all = store.ledger(tz, None).await.unwrap();
        assert_eq!(all.len(), 3);
        assert_eq!(all[0].cost, Decimal::from_str("0.00015").unwrap());
        assert_eq!(all[0].key_label.as_deref(), Some("work"));

        let day = NaiveDate::from_ymd_opt(2026, 5, 2).unwrap();
        let second = store.ledger(tz, Some((day, day))).await.unwrap();
        assert_eq!(second.len(), 1);
        assert_eq!(second[0].cost, Decimal::from_str("1.5").unwrap());

        // Deleting the history row keeps the money, without its link.
        let history_id = second[0].history_id.unwrap();
        store.delete_history(history_id).await.unwrap();
        let kept = store.ledger(tz, Some((day, day))).await.unwrap();
        assert_eq!(kept[0].history_id, None);
        assert_eq!(kept[0].cost, Decimal::from_str("1.5").unwrap());
    }
}
