//! Requests answered by a job the service runs for a while (forecasts): one history row, begun
//! with [`Store::begin_request`], that stays `running` while the job does.
//!
//! * [`Store::accept_job`]: the service accepted the job. Its answer (the job's id) is stored as
//!   the row's result, the acceptance's provenance kept and its cost put on the ledger, in one
//!   transaction, before anyone polls;
//! * [`Store::update_job`]: each poll's answer replaces the stored one, so the row always holds
//!   the job's latest state; the final answer finishes the row (`ok` or `error`) exactly once;
//! * [`Store::add_charge`]: a poll that was billed adds its own ledger row;
//! * [`Store::followed_jobs`]: rows whose job is still being followed, to resume at start-up
//!   ([`Store::recover_unfinished`] leaves them running).
//!
//! The row's id is the handle for everything else (History, exports, and later filing it in an
//! investigation): nothing about a job lives outside the history row and its result.

use chrono::{DateTime, Utc};
use sqlx::SqliteConnection;

use crate::error::{Result, StoreError};
use crate::history::{Billing, RequestStatus};
use crate::ledger::{self, BilledRequest};
use crate::provenance::{self, NewProvenance};
use crate::record;
use crate::time::to_ms;
use crate::Store;

/// History's error class for a job the service reported as failed.
pub const JOB_FAILED_CLASS: &str = "job_failed";

/// How a job's latest answer leaves its history row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JobState {
    /// Still waiting or running: the row stays `running`, the body is the latest answer.
    Open,
    /// Done with an answer: the row becomes `ok`.
    Completed,
    /// Failed on the service's side: the row becomes `error` with this message.
    Failed {
        /// The service's words for the failure.
        message: String,
    },
}

/// A job still being followed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FollowedJob {
    /// The job's history row.
    pub history_id: i64,
    /// The operation that started it.
    pub operation: String,
    /// When it was sent.
    pub started_at: DateTime<Utc>,
    /// The latest answer stored: the job's id and state.
    pub body: String,
}

impl Store {
    /// The service accepted the job of the running request `request_id`: stores its answer as
    /// the row's result and puts its cost on the ledger (once), in one transaction, so the job's
    /// id is on disk before it is followed. The row stays `running`. False when no such request
    /// is running.
    /// `received` is the acceptance as received, kept as the request's provenance.
    pub async fn accept_job(
        &self,
        request_id: &str,
        billing: Option<&Billing>,
        body: &str,
        received: Option<&NewProvenance>,
    ) -> Result<bool> {
        let packed = received.map(provenance::pack).transpose()?;
        let mut tx = self.begin_write().await?;
        let Some((id, RequestStatus::Running)) = record::find_request(&mut tx, request_id).await?
        else {
            return Ok(false);
        };
        store_body(&mut tx, id, body).await?;
        if let Some(packed) = &packed {
            let (operation, params_json): (String, String) =
                sqlx::query_as("SELECT operation, params_json FROM history WHERE id = ?")
                    .bind(id)
                    .fetch_one(&mut *tx)
                    .await?;
            let asked = provenance::Asked {
                operation: &operation,
                params_json: &params_json,
            };
            provenance::write(&mut tx, id, asked, packed).await?;
        }
        if let Some(billing) = billing {
            record::bill_row(&mut tx, id, billing).await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Stores a job's latest answer on its running row; a final state finishes the row. True
    /// when the row was still running (so a result is recorded once, however often it arrives).
    pub async fn update_job(
        &self,
        history_id: i64,
        body: &str,
        state: &JobState,
        finished_at: DateTime<Utc>,
    ) -> Result<bool> {
        let mut tx = self.begin_write().await?;
        let row: Option<(String, i64)> =
            sqlx::query_as("SELECT status, started_at FROM history WHERE id = ?")
                .bind(history_id)
                .fetch_optional(&mut *tx)
                .await?;
        let Some((status, started_at)) = row else {
            return Ok(false);
        };
        if RequestStatus::parse(&status)? != RequestStatus::Running {
            return Ok(false);
        }
        store_body(&mut tx, history_id, body).await?;
        let duration_ms = (to_ms(finished_at) - started_at).max(0);
        let (status, class, message, count) = match state {
            JobState::Open => (None, None, None, 0),
            JobState::Completed => (Some(RequestStatus::Ok), None, None, 1),
            JobState::Failed { message } => (
                Some(RequestStatus::Error),
                Some(JOB_FAILED_CLASS),
                Some(message.as_str()),
                0,
            ),
        };
        if let Some(status) = status {
            sqlx::query(
                "UPDATE history SET status = ?, error_class = ?, error_message = ?,
                     duration_ms = ?, result_count = ? WHERE id = ?",
            )
            .bind(status.as_str())
            .bind(class)
            .bind(message)
            .bind(duration_ms)
            .bind(count)
            .bind(history_id)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// A charge that arrived on a later answer of the same request (a billed poll): its own
    /// ledger row, and the row's cost and units grow by it.
    pub async fn add_charge(&self, history_id: i64, billing: &Billing) -> Result<()> {
        let nanos = billing.nanos();
        let mut tx = self.begin_write().await?;
        let row: Option<(String, Option<String>)> =
            sqlx::query_as("SELECT operation, key_label FROM history WHERE id = ?")
                .bind(history_id)
                .fetch_optional(&mut *tx)
                .await?;
        let Some((operation, key_label)) = row else {
            return Err(StoreError::InvalidInput(format!(
                "no history row {history_id} to charge"
            )));
        };
        sqlx::query(
            "UPDATE history SET cost_nanos = COALESCE(cost_nanos, 0) + ?,
                 usage_count = COALESCE(usage_count, 0) + ?,
                 service = COALESCE(service, ?), currency = COALESCE(currency, ?),
                 cost_unreadable = max(cost_unreadable, ?)
             WHERE id = ?",
        )
        .bind(nanos.unwrap_or(0))
        .bind(billing.usage_count)
        .bind(&billing.service)
        .bind(&billing.currency)
        // One unreadable part makes the whole row's cost unknown (the ledger keeps each part).
        .bind(nanos.is_none())
        .bind(history_id)
        .execute(&mut *tx)
        .await?;
        let billed = BilledRequest {
            history_id,
            // A poll's money is spent when it arrives, not when the job was asked for.
            at: to_ms(Utc::now()),
            operation: &operation,
            key_label: key_label.as_deref(),
        };
        ledger::insert(&mut tx, &billed, billing).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Running rows of `operation` whose job was accepted (a result is stored), oldest first.
    pub async fn followed_jobs(&self, operation: &str) -> Result<Vec<FollowedJob>> {
        let rows: Vec<(i64, String, i64, String)> = sqlx::query_as(
            "SELECT h.id, h.operation, h.started_at, r.body
             FROM history h JOIN results r ON r.history_id = h.id
             WHERE h.status = 'running' AND h.operation = ?
             ORDER BY h.started_at",
        )
        .bind(operation)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|(history_id, operation, started_at, body)| FollowedJob {
                history_id,
                operation,
                started_at: crate::time::from_ms(started_at),
                body,
            })
            .collect())
    }
}

async fn store_body(conn: &mut SqliteConnection, history_id: i64, body: &str) -> Result<()> {
    sqlx::query("INSERT OR REPLACE INTO results (history_id, body) VALUES (?, ?)")
        .bind(history_id)
        .bind(body)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests;
