//! Recording a request: the one transaction that writes its history row and result body,
//! its response's provenance ([`crate::provenance`]), its ledger row ([`crate::ledger`]) and
//! the posts, users and links it found ([`crate::archive`]). Reading them back is [`crate::history`]'s.
//!
//! The media of its posts the app keeps are queued in the same transaction
//! ([`Store::record_request_with_media`]), so no crash leaves them recorded but not queued.
//!
//! Two ways to record, both idempotent on the client request id:
//! * [`Store::record_request`] once the request is over (most requests);
//! * [`Store::begin_request`] before sending, then [`Store::record_request`] with the same id to
//!   finish it. This is what streams use: the row exists while the stream runs, a cancelled or
//!   cut stream is finished with status `cancelled` / `interrupted` and keeps what arrived, and
//!   rows left `running` by a crash are closed by [`Store::recover_unfinished`] at start-up
//!   (an answer that still comes for such a row finishes it: it was paid for).
//!   [`Store::record_billing`] puts a stream's cost (known from its headers) on the ledger at
//!   once, so a crash mid-stream never loses money already spent.
//!   `begin_request` also tells the app that a request id was already used, so a replayed
//!   command is never sent (and paid) twice.
//!
//! Filing, by one rule: **nothing is filed under an archived investigation**, and filing never
//! touches money (a request's charge reaches the ledger whether it is filed or not).
//! * A request the user sends is filed under the active investigation in its record's own
//!   transaction; an archived investigation is never the active one (archiving it clears it).
//! * A monitor's or a collection's page is filed under its owner's investigation in the
//!   transaction that writes the page into its run (its new items and run-log line:
//!   [`crate::runs`]). Before each page the core asks whether that investigation is archived
//!   ([`Store::archived_investigation_of`]): if so nothing is sent, and the monitor or
//!   collection pauses, saying why, until the user restores the investigation or chooses
//!   another and resumes it. One archived while its page was on its way keeps the page (history,
//!   ledger, archive, new items, run-log line) unfiled, and its owner pauses the same way.
//!   A page recorded but not yet written into its run (a crash between the two) is replayed
//!   from History under its request id when the run goes on, and filed then.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::sqlite::SqliteArguments;
use sqlx::{Row, Sqlite, SqliteConnection};
use ts_rs::TS;

use crate::archive::{self, NewLink, NewPost, NewUser};
use crate::custody::Custody;
use crate::error::{Result, StoreError};
use crate::history::{Billing, RequestStatus};
use crate::investigations;
use crate::ledger::{self, BilledRequest};
use crate::media::{self, NewMediaItem};
use crate::provenance::{self, NewProvenance};
use crate::time::to_ms;
use crate::Store;

/// A request about to be sent (see [`Store::begin_request`]).
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct PendingRequest {
    /// The app's own id for the request: an id begun before is answered
    /// [`RecordOutcome::AlreadyRecorded`], never sent twice.
    pub request_id: String,
    /// When it is sent.
    pub started_at: DateTime<Utc>,
    /// The operation's name (`search`, `replies`, ...).
    pub operation: String,
    /// The parameters to send, as JSON.
    pub params_json: String,
    /// The label of the key used, never the key itself.
    pub key_label: Option<String>,
    /// How the request was made, as the app names it (e.g. "live", "demo").
    pub mode: String,
}

/// Everything about one finished request, written in one transaction.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct RequestRecord {
    /// The app's own id for the request; one id is recorded once.
    pub request_id: String,
    /// When it was sent.
    pub started_at: DateTime<Utc>,
    /// The operation's name.
    pub operation: String,
    /// The parameters sent, as JSON.
    pub params_json: String,
    /// The label of the key used, never the key itself.
    pub key_label: Option<String>,
    /// How the request was made, as the app names it (e.g. "live", "demo").
    pub mode: String,
    /// How it ended.
    pub status: RequestStatus,
    /// The kind of failure, a word the app turns into plain words.
    pub error_class: Option<String>,
    /// The failure in words, for the user.
    pub error_message: Option<String>,
    /// How long the request took, in milliseconds.
    pub duration_ms: i64,
    /// Items the result held.
    pub result_count: i64,
    /// What the service billed, when it did: the ledger's row.
    pub billing: Option<Billing>,
    /// Cursor sent with this request (paged operations).
    pub cursor: Option<String>,
    /// Cursor the response offered for the next page.
    pub next_cursor: Option<String>,
    /// History id of the previous page in a paging chain.
    pub parent_id: Option<i64>,
    /// The full response body as received (or the assembled stream), for re-open.
    pub result_json: Option<String>,
    /// The posts it found, archived with it.
    pub posts: Vec<NewPost>,
    /// The users it found, archived with it.
    pub users: Vec<NewUser>,
    /// The link results it found, archived with it.
    pub links: Vec<NewLink>,
    /// The response as received (exact bytes, their hash, where and when), for a request that
    /// got one; written with the row and never edited (`provenance.rs`).
    #[serde(default)]
    pub provenance: Option<NewProvenance>,
}

/// What [`Store::record_request`] and [`Store::begin_request`] did.
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum RecordOutcome {
    /// Written now.
    Recorded {
        /// The request's history row.
        history_id: i64,
    },
    /// This request id was recorded before; nothing was written.
    AlreadyRecorded {
        /// The request's history row.
        history_id: i64,
    },
    /// The disk was too full for the result and what it found: the row and its cost were
    /// written without them (see [`Store::record_request`]).
    RecordedWithoutResult {
        /// The request's history row.
        history_id: i64,
    },
}

impl RecordOutcome {
    /// The history row written, found or kept.
    pub fn history_id(self) -> i64 {
        match self {
            Self::Recorded { history_id }
            | Self::AlreadyRecorded { history_id }
            | Self::RecordedWithoutResult { history_id } => history_id,
        }
    }
}

/// Where a request is filed when it begins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Filing {
    /// Under the active investigation, if any, with the posts it finds (every request the
    /// user sends).
    #[default]
    Active,
    /// Under this investigation only, as one of its still-there checks' re-fetches: its cost
    /// counts there, but the posts it fetches (the checked ones, and any post they quote) are
    /// filed nowhere, so a check never changes what a case holds.
    Check {
        /// The investigation the check belongs to.
        investigation_id: i64,
    },
}

impl Store {
    /// Registers a request before it is sent. `AlreadyRecorded` means this request id was used
    /// before: the app must not send it again.
    pub async fn begin_request(&self, pending: &PendingRequest) -> Result<RecordOutcome> {
        self.begin_filed_request(pending, Filing::Active).await
    }

    /// [`Store::begin_request`], filed as `filing` says.
    pub async fn begin_filed_request(
        &self,
        pending: &PendingRequest,
        filing: Filing,
    ) -> Result<RecordOutcome> {
        let mut tx = self.begin_write().await?;
        if let Some((id, _)) = find_request(&mut tx, &pending.request_id).await? {
            return Ok(RecordOutcome::AlreadyRecorded { history_id: id });
        }
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO history (request_id, started_at, operation, params_json, key_label, mode, status)
             VALUES (?, ?, ?, ?, ?, ?, 'running') RETURNING id",
        )
        .bind(&pending.request_id)
        .bind(to_ms(pending.started_at))
        .bind(&pending.operation)
        .bind(&pending.params_json)
        .bind(&pending.key_label)
        .bind(&pending.mode)
        .fetch_one(&mut *tx)
        .await?;
        let custody = self.custody(Utc::now());
        investigations::file_begun(&mut tx, id, to_ms(pending.started_at), filing, &custody)
            .await?;
        tx.commit().await?;
        Ok(RecordOutcome::Recorded { history_id: id })
    }

    /// Records a finished request: history row, result body, ledger entry and archived posts,
    /// users and links, all in one transaction. A request id already finished is left as it was
    /// (`AlreadyRecorded`); one begun with [`Store::begin_request`] is completed.
    ///
    /// When the disk is full, the answer has still been paid for: the row and its cost (a few
    /// hundred bytes) are written again without the result body and the archived posts, users
    /// and links (often megabytes), so spend stays exact, and the outcome says what was left out.
    pub async fn record_request(&self, record: &RequestRecord) -> Result<RecordOutcome> {
        self.record_request_with_media(record, &[]).await
    }

    /// [`Store::record_request`], queueing `media` (the media of its posts the app keeps) in
    /// the same transaction: a crash leaves the request either recorded with its media queued
    /// or not recorded at all. Media are queued only when the request is recorded now (one
    /// recorded before keeps what it had). If queueing them fails, the request is recorded
    /// without them (its cost and posts matter more; the failure is logged), as it is,
    /// without its posts too, when the disk is full.
    pub async fn record_request_with_media(
        &self,
        record: &RequestRecord,
        media: &[NewMediaItem],
    ) -> Result<RecordOutcome> {
        validate(record)?;
        let written = match self.write_request(record, media).await {
            Err(error) if !media.is_empty() && !error.is_disk_full() => {
                tracing::warn!(%error, "media could not be queued: recording the request without");
                self.write_request(record, &[]).await
            }
            other => other,
        };
        match written {
            Err(error) if error.is_disk_full() && holds_findings(record) => {
                tracing::warn!(%error, "disk full: recording the request without its result");
                let slim = RequestRecord {
                    error_class: Some(DISK_FULL_CLASS.into()),
                    error_message: Some(RESULT_NOT_SAVED.into()),
                    result_json: None,
                    posts: Vec::new(),
                    users: Vec::new(),
                    links: Vec::new(),
                    provenance: None,
                    ..record.clone()
                };
                let history_id = self.write_request(&slim, &[]).await?.history_id();
                Ok(RecordOutcome::RecordedWithoutResult { history_id })
            }
            other => other,
        }
    }

    async fn write_request(
        &self,
        record: &RequestRecord,
        media: &[NewMediaItem],
    ) -> Result<RecordOutcome> {
        let packed = record
            .provenance
            .as_ref()
            .map(provenance::pack)
            .transpose()?;
        let custody = self.custody(Utc::now());
        let mut tx = self.begin_write().await?;
        let outcome = write_record(&mut tx, record, packed.as_ref(), &custody).await?;
        if matches!(outcome, RecordOutcome::Recorded { .. }) && !media.is_empty() {
            media::queue::queue_in(&mut tx, media, Utc::now()).await?;
        }
        tx.commit().await?;
        Ok(outcome)
    }

    /// Records many finished requests in one transaction (imports, benchmarks). Each record
    /// behaves as in [`Store::record_request`].
    pub async fn record_requests(&self, records: &[RequestRecord]) -> Result<Vec<RecordOutcome>> {
        records.iter().try_for_each(validate)?;
        let packed = records
            .iter()
            .map(|r| r.provenance.as_ref().map(provenance::pack).transpose())
            .collect::<Result<Vec<_>>>()?;
        let custody = self.custody(Utc::now());
        let mut tx = self.begin_write().await?;
        let mut outcomes = Vec::with_capacity(records.len());
        for (record, packed) in records.iter().zip(&packed) {
            outcomes.push(write_record(&mut tx, record, packed.as_ref(), &custody).await?);
        }
        tx.commit().await?;
        Ok(outcomes)
    }

    /// Closes requests left `running` by a previous run of the app (call once at start-up).
    /// Returns how many were marked `interrupted` (error class `app_stopped`). A running
    /// row that holds a result is a job the service accepted and runs on (see `jobs.rs`):
    /// it stays running, to be followed. A row closed here whose answer still comes (another
    /// run of the app had it on its way) is finished by that answer's record.
    pub async fn recover_unfinished(&self) -> Result<u64> {
        let done = sqlx::query(
            "UPDATE history SET status = 'interrupted', error_class = ?,
                 error_message = COALESCE(error_message, 'The app stopped before this request finished.')
             WHERE status = 'running'
               AND NOT EXISTS (SELECT 1 FROM results r WHERE r.history_id = history.id)",
        )
        .bind(APP_STOPPED_CLASS)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected())
    }

    /// Records the billing of a begun request as soon as it is known (a stream bills in its
    /// headers, before the first event), so the money is on the ledger even if the app stops
    /// before the stream ends. False when no such request is running. Finishing the request
    /// later does not add the cost a second time.
    pub async fn record_billing(&self, request_id: &str, billing: &Billing) -> Result<bool> {
        let mut tx = self.begin_write().await?;
        let Some((id, status)) = find_request(&mut tx, request_id).await? else {
            return Ok(false);
        };
        if !awaits_its_record(&mut tx, id, status).await? {
            return Ok(false);
        }
        bill_row(&mut tx, id, billing).await?;
        tx.commit().await?;
        Ok(true)
    }
}

fn validate(record: &RequestRecord) -> Result<()> {
    if record.request_id.trim().is_empty() {
        return Err(StoreError::InvalidInput("request id is empty".into()));
    }
    if record.status == RequestStatus::Running {
        return Err(StoreError::InvalidInput(
            "a finished record cannot have status `running`; use begin_request".into(),
        ));
    }
    Ok(())
}

/// Puts a request's charge on its history row and, once, on the ledger, inside the caller's
/// transaction: the one place a request's own billing is written (a stream's early billing, a
/// job's acceptance). Any stated cost is taken: rounded to the nano-dollar, or unreadable.
pub(crate) async fn bill_row(
    conn: &mut SqliteConnection,
    id: i64,
    billing: &Billing,
) -> Result<()> {
    let (at, operation, key_label): (i64, String, Option<String>) =
        sqlx::query_as("SELECT started_at, operation, key_label FROM history WHERE id = ?")
            .bind(id)
            .fetch_one(&mut *conn)
            .await?;
    let nanos = billing.nanos();
    sqlx::query(
        "UPDATE history SET cost_nanos = ?, cost_text = ?, cost_unreadable = ?, usage_count = ?,
             service = ?, currency = ?
         WHERE id = ?",
    )
    .bind(nanos)
    .bind(&billing.cost_text)
    .bind(nanos.is_none())
    .bind(billing.usage_count)
    .bind(&billing.service)
    .bind(&billing.currency)
    .bind(id)
    .execute(&mut *conn)
    .await?;
    let billed = BilledRequest {
        history_id: id,
        at,
        operation: &operation,
        key_label: key_label.as_deref(),
    };
    ledger::insert_once(conn, &billed, billing).await
}

pub(crate) async fn find_request(
    conn: &mut SqliteConnection,
    request_id: &str,
) -> Result<Option<(i64, RequestStatus)>> {
    let row: Option<(i64, String)> =
        sqlx::query_as("SELECT id, status FROM history WHERE request_id = ?")
            .bind(request_id)
            .fetch_optional(&mut *conn)
            .await?;
    row.map(|(id, status)| Ok((id, RequestStatus::parse(&status)?)))
        .transpose()
}

/// History's error class for a request whose answer arrived but did not fit on the disk.
pub const DISK_FULL_CLASS: &str = "disk_full";
/// History's error class for a request [`Store::recover_unfinished`] closed: the app stopped
/// before its answer was recorded.
pub const APP_STOPPED_CLASS: &str = "app_stopped";

/// Whether the begun request `id` still waits for its record: running, or closed by a
/// start-up's recovery while its answer was still on its way (that answer was paid for, so it
/// finishes the row). Any other status is a finished request, left as it is.
async fn awaits_its_record(
    conn: &mut SqliteConnection,
    id: i64,
    status: RequestStatus,
) -> Result<bool> {
    Ok(match status {
        RequestStatus::Running => true,
        RequestStatus::Interrupted => {
            let class: Option<String> =
                sqlx::query_scalar("SELECT error_class FROM history WHERE id = ?")
                    .bind(id)
                    .fetch_one(&mut *conn)
                    .await?;
            class.as_deref() == Some(APP_STOPPED_CLASS)
        }
        _ => false,
    })
}
const RESULT_NOT_SAVED: &str =
    "The answer arrived but the disk was full: its cost is recorded, its results were not saved.";

fn holds_findings(r: &RequestRecord) -> bool {
    r.result_json.is_some()
        || r.provenance.is_some()
        || !r.posts.is_empty()
        || !r.users.is_empty()
        || !r.links.is_empty()
}

type HistoryWrite<'q> = sqlx::query::Query<'q, Sqlite, SqliteArguments<'q>>;

/// Binds a record's history columns, from `started_at` to `cost_unreadable`, in the order both
/// the insert and the update of [`write_record`] name them.
fn bind_columns<'q>(
    query: HistoryWrite<'q>,
    r: &'q RequestRecord,
    cost_nanos: Option<i64>,
) -> HistoryWrite<'q> {
    query
        .bind(to_ms(r.started_at))
        .bind(&r.operation)
        .bind(&r.params_json)
        .bind(&r.key_label)
        .bind(&r.mode)
        .bind(r.status.as_str())
        .bind(&r.error_class)
        .bind(&r.error_message)
        .bind(r.duration_ms)
        .bind(r.result_count)
        .bind(cost_nanos)
        .bind(r.billing.as_ref().map(|b| b.usage_count))
        .bind(r.billing.as_ref().map(|b| &b.service))
        .bind(r.billing.as_ref().map(|b| &b.currency))
        .bind(&r.cursor)
        .bind(&r.next_cursor)
        .bind(r.parent_id)
        .bind(r.billing.as_ref().and_then(|b| b.cost_text.as_ref()))
        .bind(r.billing.as_ref().map(|_| cost_nanos.is_none()))
}

/// The body of [`Store::record_request`], inside the caller's transaction.
/// `packed` is the record's provenance, compressed beforehand; `custody` what its filing
/// records in the custody log.
async fn write_record(
    conn: &mut SqliteConnection,
    r: &RequestRecord,
    packed: Option<&provenance::Packed<'_>>,
    custody: &Custody,
) -> Result<RecordOutcome> {
    // Any stated cost is taken: rounded to the nano-dollar, or marked unreadable.
    let cost_nanos = r.billing.as_ref().and_then(Billing::nanos);
    let existing = find_request(conn, &r.request_id).await?;
    let history_id = match existing {
        Some((id, status)) => {
            if !awaits_its_record(conn, id, status).await? {
                return Ok(RecordOutcome::AlreadyRecorded { history_id: id });
            }
            let update = sqlx::query(
                "UPDATE history SET started_at = ?, operation = ?, params_json = ?, key_label = ?,
                     mode = ?, status = ?, error_class = ?, error_message = ?, duration_ms = ?,
                     result_count = ?, cost_nanos = COALESCE(?, cost_nanos),
                     usage_count = COALESCE(?, usage_count), service = COALESCE(?, service),
                     currency = COALESCE(?, currency), cursor = ?, next_cursor = ?, parent_id = ?,
                     cost_text = COALESCE(?, cost_text),
                     cost_unreadable = COALESCE(?, cost_unreadable)
                 WHERE id = ?",
            );
            bind_columns(update, r, cost_nanos)
                .bind(id)
                .execute(&mut *conn)
                .await?;
            id
        }
        None => {
            let insert = sqlx::query(
                "INSERT INTO history (request_id, started_at, operation, params_json, key_label,
                     mode, status, error_class, error_message, duration_ms, result_count,
                     cost_nanos, usage_count, service, currency, cursor, next_cursor, parent_id,
                     cost_text, cost_unreadable)
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, COALESCE(?, 0))
                 RETURNING id",
            )
            .bind(&r.request_id);
            bind_columns(insert, r, cost_nanos)
                .fetch_one(&mut *conn)
                .await?
                .try_get(0)?
        }
    };

    if let Some(body) = &r.result_json {
        sqlx::query("INSERT OR REPLACE INTO results (history_id, body) VALUES (?, ?)")
            .bind(history_id)
            .bind(body)
            .execute(&mut *conn)
            .await?;
    }
    if let Some(packed) = packed {
        let asked = provenance::Asked {
            operation: &r.operation,
            params_json: &r.params_json,
        };
        provenance::write(conn, history_id, asked, packed).await?;
    }
    if let Some(billing) = &r.billing {
        let billed = BilledRequest {
            history_id,
            at: to_ms(r.started_at),
            operation: &r.operation,
            key_label: r.key_label.as_deref(),
        };
        ledger::insert_once(conn, &billed, billing).await?;
    }
    let seen_at = to_ms(r.started_at);
    archive::write_posts(conn, Some(history_id), seen_at, &r.posts).await?;
    archive::write_users(conn, seen_at, &r.users).await?;
    archive::write_links(conn, Some(history_id), seen_at, &r.links).await?;
    // Filed here, in the record's transaction: no request is kept without its filing under
    // the active investigation (a run's own filing is its page's: `runs/filing.rs`).
    let newly_written = existing.is_none();
    investigations::file_recorded(conn, history_id, seen_at, newly_written, custody).await?;
    Ok(RecordOutcome::Recorded { history_id })
}

#[cfg(test)]
mod tests;
