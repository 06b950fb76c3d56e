//! The run log shared by monitors and collections: one line per run (when, outcome, new items,
//! error in words), the history rows of its requests, and its cost read from the ledger rows
//! of exactly those requests. A run not yet finished keeps where it was (window, cursor, page
//! number, attempt), so one cut by a crash goes on from there. A page joins its run in the
//! transaction that writes its new items, and is filed there too (`runs/filing.rs`).

mod filing;

use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use sqlx::sqlite::SqliteRow;
use sqlx::{Row, SqliteConnection};
use ts_rs::TS;

use crate::custody::Custody;
use crate::error::Result;
use crate::money::from_nanos;
use crate::time::{from_ms, to_ms};
use crate::words::stored_as_word;
use crate::Store;

pub use filing::{ArchivedInvestigation, PageFiling, RecordedPage};

// Stored as its serde word (`words.rs`), its one spelling.
/// How a run of a monitor or a collection ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum RunOutcome {
    /// Going on now (or cut by a crash: it resumes where it was).
    Running,
    /// Finished as asked: the page or pages were written.
    Done,
    /// The budget blocked it: nothing was sent.
    BudgetBlocked,
    /// The budget warned: waiting for the user's Confirm or Skip.
    NeedsConfirmation,
    /// The user skipped a run the budget warned about.
    Skipped,
    /// The service asked to wait (429): the next attempt is after its wait.
    RateLimited,
    /// Paused by the user (collections), or because its investigation is archived.
    Paused,
    /// Cancelled by the user (collections).
    Cancelled,
    /// Stopped by a failure; `error` says which, in words.
    Failed,
}

stored_as_word!(RunOutcome);

impl RunOutcome {
    /// Every outcome, in the order the UI's table lists them.
    pub const ALL: [RunOutcome; 9] = [
        RunOutcome::Running,
        RunOutcome::Done,
        RunOutcome::BudgetBlocked,
        RunOutcome::NeedsConfirmation,
        RunOutcome::Skipped,
        RunOutcome::RateLimited,
        RunOutcome::Paused,
        RunOutcome::Cancelled,
        RunOutcome::Failed,
    ];

    /// The outcome in the words a run log shows (the UI's table is written from these).
    pub fn label(self) -> &'static str {
        match self {
            RunOutcome::Running => "Running",
            RunOutcome::Done => "Done",
            RunOutcome::BudgetBlocked => "Stopped by the budget",
            RunOutcome::NeedsConfirmation => "Waiting for your confirmation",
            RunOutcome::Skipped => "Skipped",
            RunOutcome::RateLimited => "Asked to wait by the service",
            RunOutcome::Paused => "Paused",
            RunOutcome::Cancelled => "Cancelled",
            RunOutcome::Failed => "Failed",
        }
    }

    /// An attempt that sent nothing: the budget blocked it, the user skipped it, or it waits
    /// for the user's confirmation. A monitor's "last run" is never one of these.
    pub fn sent_nothing(self) -> bool {
        matches!(
            self,
            RunOutcome::BudgetBlocked | RunOutcome::Skipped | RunOutcome::NeedsConfirmation
        )
    }
}

/// Whose run it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunOwner {
    /// A monitor, by id.
    Monitor(i64),
    /// A collection, by id.
    Collection(i64),
}

impl RunOwner {
    fn columns(self) -> (Option<i64>, Option<i64>) {
        match self {
            Self::Monitor(id) => (Some(id), None),
            Self::Collection(id) => (None, Some(id)),
        }
    }
}

/// One run as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredRun {
    /// The run's id.
    pub id: i64,
    /// When it began.
    pub started_at: DateTime<Utc>,
    /// When it ended; `None` while it runs.
    pub finished_at: Option<DateTime<Utc>>,
    /// How it ended (or that it runs).
    pub outcome: RunOutcome,
    /// Items it stored that its owner had not found before.
    pub new_items: i64,
    /// Requests it sent.
    pub requests: i64,
    /// Exact, from the ledger rows of the run's requests.
    pub cost: Decimal,
    /// What went wrong, in words, when something did.
    pub error: Option<String>,
    /// The start of the time window a monitor's run asked for.
    pub window_start: Option<DateTime<Utc>>,
    /// The newest post it saw: the next run of a monitor asks from there.
    pub window_end: Option<DateTime<Utc>>,
    /// Where its next page continues, kept so a cut run goes on from there.
    pub cursor: Option<String>,
    /// Pages it recorded.
    pub pages: i64,
    /// Tries of its current page: a page used without a result is asked again under a new id.
    pub attempt: i64,
}

const RUN_COLUMNS: &str = "r.id, r.started_at, r.finished_at, r.outcome, r.new_items, r.error,
    r.window_start, r.window_end, r.cursor, r.pages, r.attempt,
    (SELECT count(*) FROM run_requests rr WHERE rr.run_id = r.id) AS requests,
    (SELECT COALESCE(sum(l.cost_nanos), 0) FROM run_requests rr
        JOIN ledger l ON l.history_id = rr.history_id WHERE rr.run_id = r.id) AS cost_nanos";

fn run_from_row(row: &SqliteRow) -> Result<StoredRun> {
    Ok(StoredRun {
        id: row.try_get("id")?,
        started_at: from_ms(row.try_get("started_at")?),
        finished_at: row.try_get::<Option<i64>, _>("finished_at")?.map(from_ms),
        outcome: row.try_get("outcome")?,
        new_items: row.try_get("new_items")?,
        requests: row.try_get("requests")?,
        cost: from_nanos(row.try_get("cost_nanos")?),
        error: row.try_get("error")?,
        window_start: row.try_get::<Option<i64>, _>("window_start")?.map(from_ms),
        window_end: row.try_get::<Option<i64>, _>("window_end")?.map(from_ms),
        cursor: row.try_get("cursor")?,
        pages: row.try_get("pages")?,
        attempt: row.try_get("attempt")?,
    })
}

impl Store {
    /// Starts a run (outcome `running`); its id.
    pub async fn start_run(
        &self,
        owner: RunOwner,
        window: (Option<DateTime<Utc>>, Option<DateTime<Utc>>),
        now: DateTime<Utc>,
    ) -> Result<i64> {
        let (monitor, collection) = owner.columns();
        let id = sqlx::query_scalar(
            "INSERT INTO runs (monitor_id, collection_id, started_at, outcome, window_start, window_end)
             VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
        )
        .bind(monitor)
        .bind(collection)
        .bind(to_ms(now))
        .bind(RunOutcome::Running)
        .bind(window.0.map(to_ms))
        .bind(window.1.map(to_ms))
        .fetch_one(&self.pool)
        .await?;
        Ok(id)
    }

    /// The owner's latest run if it is not finished (cut by a crash, or waiting for the user).
    pub async fn open_run(&self, owner: RunOwner) -> Result<Option<StoredRun>> {
        let (monitor, collection) = owner.columns();
        let row = sqlx::query(&format!(
            "SELECT {RUN_COLUMNS} FROM runs r
             WHERE r.monitor_id IS ? AND r.collection_id IS ? AND r.finished_at IS NULL
             ORDER BY r.id DESC LIMIT 1"
        ))
        .bind(monitor)
        .bind(collection)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(run_from_row).transpose()
    }

    /// One run by id; `None` when there is none.
    pub async fn run(&self, run_id: i64) -> Result<Option<StoredRun>> {
        let row = sqlx::query(&format!("SELECT {RUN_COLUMNS} FROM runs r WHERE r.id = ?"))
            .bind(run_id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(run_from_row).transpose()
    }

    /// The owner's runs, newest first.
    pub async fn runs(&self, owner: RunOwner, limit: i64) -> Result<Vec<StoredRun>> {
        let (monitor, collection) = owner.columns();
        let rows = sqlx::query(&format!(
            "SELECT {RUN_COLUMNS} FROM runs r
             WHERE r.monitor_id IS ? AND r.collection_id IS ?
             ORDER BY r.id DESC LIMIT ?"
        ))
        .bind(monitor)
        .bind(collection)
        .bind(limit.clamp(1, 1000))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(run_from_row).collect()
    }

    /// Sets an open run's outcome without finishing it (e.g. waiting for a confirmation).
    pub async fn set_run_outcome(&self, run_id: i64, outcome: RunOutcome) -> Result<()> {
        sqlx::query("UPDATE runs SET outcome = ? WHERE id = ?")
            .bind(outcome)
            .bind(run_id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Ends a run with its outcome and, when it failed, what went wrong in words.
    pub async fn finish_run(
        &self,
        run_id: i64,
        outcome: RunOutcome,
        error: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let mut tx = self.begin_write().await?;
        finish_run(&mut tx, run_id, outcome, error, now).await?;
        tx.commit().await
    }

    /// A page's request of this run was used without a result (failed or cut): the next try
    /// gets a new request id, so it is sent rather than replayed.
    pub async fn bump_run_attempt(&self, run_id: i64) -> Result<()> {
        sqlx::query("UPDATE runs SET attempt = attempt + 1 WHERE id = ?")
            .bind(run_id)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}

pub(crate) async fn finish_run(
    conn: &mut SqliteConnection,
    run_id: i64,
    outcome: RunOutcome,
    error: Option<&str>,
    now: DateTime<Utc>,
) -> Result<()> {
    sqlx::query("UPDATE runs SET outcome = ?, error = ?, finished_at = ? WHERE id = ?")
        .bind(outcome)
        .bind(error)
        .bind(to_ms(now))
        .bind(run_id)
        .execute(conn)
        .await?;
    Ok(())
}

/// Links a page's history row to its run and moves the run on (its count of new items, its
/// page number and cursor), then files the page under its owner's investigation unless that
/// one is archived. Part of the page's own transaction: a page is never in its run without
/// its filing, nor filed without being in its run. `custody` is the filing's time and what the
/// custody log records.
pub(crate) async fn record_run_page(
    conn: &mut SqliteConnection,
    owner: RunOwner,
    run_id: i64,
    history_id: i64,
    new_items: &[String],
    next_cursor: Option<&str>,
    custody: &Custody,
) -> Result<PageFiling> {
    sqlx::query("INSERT OR IGNORE INTO run_requests (run_id, history_id) VALUES (?, ?)")
        .bind(run_id)
        .bind(history_id)
        .execute(&mut *conn)
        .await?;
    sqlx::query(
        "UPDATE runs SET new_items = new_items + ?, pages = pages + 1, cursor = ?, attempt = 0
         WHERE id = ?",
    )
    .bind(new_items.len() as i64)
    .bind(next_cursor)
    .bind(run_id)
    .execute(&mut *conn)
    .await?;
    filing::file_page(conn, owner, history_id, custody).await
}
