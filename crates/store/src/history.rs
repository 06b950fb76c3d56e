//! Query history: one row per request and its result body, for offline re-open. The list
//! (filters, text search over the parameters, paging), one row, a stored result, a paging
//! chain, pins and deletes. The rows are written by [`crate::record`].

use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use sqlx::sqlite::SqliteRow;
use sqlx::{QueryBuilder, Row, Sqlite};
use ts_rs::TS;

use crate::error::{Result, StoreError};
use crate::money::{charge_nanos, from_nanos};
use crate::paging;
use crate::time::{from_ms, to_ms};
use crate::Store;

/// Where a request stands.
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "snake_case")]
pub enum RequestStatus {
    /// Begun and not yet finished (a stream in progress).
    Running,
    /// Answered with a result.
    Ok,
    /// Answered 304: the cached copy was shown.
    NotModified,
    /// Failed; see `error_class` and `error_message`.
    Error,
    /// Stopped by the user; partial results are kept.
    Cancelled,
    /// Cut short (network loss, app crash); partial results are kept.
    Interrupted,
}

impl RequestStatus {
    /// The word stored in the database and sent over IPC.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Running => "running",
            Self::Ok => "ok",
            Self::NotModified => "not_modified",
            Self::Error => "error",
            Self::Cancelled => "cancelled",
            Self::Interrupted => "interrupted",
        }
    }

    /// Reads a stored word back; an unknown word is an error, never a guess.
    pub fn parse(s: &str) -> Result<Self> {
        Ok(match s {
            "running" => Self::Running,
            "ok" => Self::Ok,
            "not_modified" => Self::NotModified,
            "error" => Self::Error,
            "cancelled" => Self::Cancelled,
            "interrupted" => Self::Interrupted,
            other => {
                return Err(StoreError::InvalidInput(format!(
                    "unknown request status {other:?}"
                )))
            }
        })
    }
}

/// Billing metadata as the service reported it.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Eq)]
pub struct Billing {
    /// What the answer cost as the ledger counts it: the stated cost rounded half-even to the
    /// nano-dollar ([`crate::money`]). `None` when the service's cost was not a number: the
    /// charge is recorded as "cost unreadable", counted apart, never as zero.
    #[ts(type = "string | null")]
    pub cost: Option<Decimal>,
    /// The cost exactly as the service wrote it (`None` for rows recorded before it was kept).
    #[serde(default)]
    pub cost_text: Option<String>,
    /// The usage the service counted for the charge, as its billing headers state it.
    pub usage_count: i64,
    /// The billed service, as the billing headers name it.
    pub service: String,
    /// The currency of `cost`, as the service stated it.
    pub currency: String,
}

impl Billing {
    /// The cost in nano-dollars as the ledger records it: rounded half-even
    /// ([`charge_nanos`]); `None` for a cost that cannot be counted ("cost unreadable").
    pub fn nanos(&self) -> Option<i64> {
        self.cost.and_then(charge_nanos)
    }

    /// The cost for a person or a file: the rounded amount, or `unreadable`.
    pub fn cost_words(&self) -> String {
        match self.nanos() {
            Some(nanos) => from_nanos(nanos).to_string(),
            None => UNREADABLE.to_owned(),
        }
    }
}

/// What a file or a screen says for a cost the service stated in a form that is not a number.
pub const UNREADABLE: &str = "unreadable";

/// What kind of background work sent a request.
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum OriginKind {
    /// A saved search run on an interval.
    Monitor,
    /// A long collection.
    Collection,
}

/// The monitor or collection that sent a request (read from its request id: see migration
/// `0012_request_owner.sql`), with its name as it is now.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Eq)]
pub struct RequestOrigin {
    /// Monitor or collection.
    pub kind: OriginKind,
    /// Its id.
    pub id: i64,
    /// `None` once the monitor or collection was deleted.
    pub name: Option<String>,
}

/// The request id of a monitor's page: the same page of the same run and attempt always has
/// the same id, so a repeat is a replay, never a second charge. It names the monitor, which is
/// how History and Spend know who sent it (migration `0012_request_owner.sql` reads
/// `monitor-<id>-run-` back out of it): change the two together.
pub fn monitor_page_request_id(monitor: i64, run: i64, page: i64, attempt: i64) -> String {
    format!("monitor-{monitor}-run-{run}-page-{page}-try-{attempt}")
}

/// The request id of a collection's page (as [`monitor_page_request_id`]; read back as
/// `collection-<id>-page-`).
pub fn collection_page_request_id(collection: i64, page: i64, attempt: i64) -> String {
    format!("collection-{collection}-page-{page}-try-{attempt}")
}

/// One history row as shown in the history list.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct HistoryEntry {
    /// The history row's id.
    pub id: i64,
    /// The app's own id for the request (a monitor's or a collection's names its owner:
    /// [`monitor_page_request_id`]).
    pub request_id: String,
    /// When it was sent.
    pub started_at: DateTime<Utc>,
    /// The operation's name (`search`, `replies`, ...).
    pub operation: String,
    /// The parameters sent, as JSON.
    pub params_json: String,
    /// The label of the key used, never the key itself.
    pub key_label: Option<String>,
    /// How the request was made, as the app names it (e.g. "live", "demo").
    pub mode: String,
    /// Where it stands.
    pub status: RequestStatus,
    /// The kind of failure, a word the app maps to plain words (`disk_full`, ...).
    pub error_class: Option<String>,
    /// The failure in words, for the user.
    pub error_message: Option<String>,
    /// How long the request took, in milliseconds.
    pub duration_ms: i64,
    /// Items the result held.
    pub result_count: i64,
    /// What the service billed, when it did.
    pub billing: Option<Billing>,
    /// The paging cursor this page was asked with.
    pub cursor: Option<String>,
    /// The cursor of the next page, when the service gave one.
    pub next_cursor: Option<String>,
    /// The history row of the previous page, for a later page.
    pub parent_id: Option<i64>,
    /// Pinned by the user (History can list the pinned rows alone).
    pub pinned: bool,
    /// Whether a result body is stored (it can be re-opened offline).
    pub has_result: bool,
    /// The monitor or collection that sent it; `None` for a request the user made.
    pub origin: Option<RequestOrigin>,
    /// Who sent it, for a request received in a case package: its cost and key label are
    /// theirs, facts about the case, never this installation's spending (it has no ledger row).
    #[ts(optional = nullable)]
    pub received_from: Option<crate::investigations::MadeBy>,
}

/// A past result, re-opened from disk.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct StoredResult {
    /// The history row.
    pub entry: HistoryEntry,
    /// The response body exactly as received.
    pub body: String,
}

/// Filters for the history list (newest first).
#[derive(Serialize, Deserialize, TS, Clone, Debug, Default)]
#[serde(default)]
pub struct HistoryQuery {
    /// Only this operation.
    pub operation: Option<String>,
    /// Only requests with this status.
    pub status: Option<RequestStatus>,
    /// Only requests sent at or after this time.
    pub from: Option<DateTime<Utc>>,
    /// Exclusive upper bound.
    pub to: Option<DateTime<Utc>>,
    /// Substring of the parameters as given (case-insensitive for ASCII).
    pub text: Option<String>,
    /// Only pinned requests.
    pub pinned_only: bool,
    /// Only requests filed in this investigation.
    pub investigation_id: Option<i64>,
    /// Rows per page; 0 means the default of 100.
    pub limit: u32,
    /// Rows to skip (paging), when there is no `after` row to page from.
    pub offset: u32,
    /// The last row of the page before (its id): the page is the rows after it in the list's
    /// order, found by its time and id in the index (keyset paging) rather than by skipping
    /// `offset` rows, which reads every row skipped. `offset` counts only when that row is
    /// gone (deleted meanwhile).
    pub after: Option<i64>,
}

/// The columns [`entry_from_row`] reads, from `history h`.
pub(crate) const HISTORY_COLUMNS: &str =
    "h.id, h.request_id, h.started_at, h.operation, h.params_json, \
    h.key_label, h.mode, h.status, h.error_class, h.error_message, h.duration_ms, \
    h.result_count, h.cost_nanos, h.usage_count, h.service, h.currency, h.cursor, \
    h.next_cursor, h.parent_id, h.pinned, h.cost_text, h.cost_unreadable, \
    EXISTS (SELECT 1 FROM results r WHERE r.history_id = h.id) AS has_result, \
    h.monitor_id, (SELECT m.name FROM monitors m WHERE m.id = h.monitor_id) AS monitor_name, \
    h.collection_id, \
    (SELECT c.name FROM collections c WHERE c.id = h.collection_id) AS collection_name, \
    (SELECT rr.by_name FROM received_requests rr WHERE rr.history_id = h.id) AS received_by_name, \
    (SELECT rr.by_key FROM received_requests rr WHERE rr.history_id = h.id) AS received_by_key";

pub(crate) fn entry_from_row(row: &SqliteRow) -> Result<HistoryEntry> {
    let cost: Option<i64> = row.try_get("cost_nanos")?;
    let unreadable: bool = row.try_get("cost_unreadable")?;
    let billing = match (cost, unreadable) {
        (None, false) => None,
        (cost, unreadable) => Some(Billing {
            cost: cost.filter(|_| !unreadable).map(from_nanos),
            cost_text: row.try_get("cost_text")?,
            usage_count: row.try_get::<Option<i64>, _>("usage_count")?.unwrap_or(0),
            service: row
                .try_get::<Option<String>, _>("service")?
                .unwrap_or_default(),
            currency: row
                .try_get::<Option<String>, _>("currency")?
                .unwrap_or_default(),
        }),
    };
    Ok(HistoryEntry {
        id: row.try_get("id")?,
        request_id: row.try_get("request_id")?,
        started_at: from_ms(row.try_get("started_at")?),
        operation: row.try_get("operation")?,
        params_json: row.try_get("params_json")?,
        key_label: row.try_get("key_label")?,
        mode: row.try_get("mode")?,
        status: RequestStatus::parse(row.try_get("status")?)?,
        error_class: row.try_get("error_class")?,
        error_message: row.try_get("error_message")?,
        duration_ms: row.try_get("duration_ms")?,
        result_count: row.try_get("result_count")?,
        billing,
        cursor: row.try_get("cursor")?,
        next_cursor: row.try_get("next_cursor")?,
        parent_id: row.try_get("parent_id")?,
        pinned: row.try_get("pinned")?,
        has_result: row.try_get("has_result")?,
        origin: origin_from_row(row)?,
        received_from: row
            .try_get::<Option<String>, _>("received_by_key")?
            .map(|key| -> Result<_> {
                Ok(crate::investigations::MadeBy {
                    name: row
                        .try_get::<Option<String>, _>("received_by_name")?
                        .unwrap_or_default(),
                    key,
                })
            })
            .transpose()?,
    })
}

fn origin_from_row(row: &SqliteRow) -> Result<Option<RequestOrigin>> {
    let origin = |kind, id: Option<i64>, name| id.map(|id| RequestOrigin { kind, id, name });
    Ok(origin(
        OriginKind::Monitor,
        row.try_get("monitor_id")?,
        row.try_get("monitor_name")?,
    )
    .or(origin(
        OriginKind::Collection,
        row.try_get("collection_id")?,
        row.try_get("collection_name")?,
    )))
}

/// Escapes `%`, `_` and `\` for a `LIKE ... ESCAPE '\'` pattern.
pub(crate) fn like_pattern(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('%');
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('%');
    out
}

impl Store {
    /// The history list, newest first, filtered.
    pub async fn history(&self, query: &HistoryQuery) -> Result<Vec<HistoryEntry>> {
        let plan = self.text_plan(query).await?;
        let key = match query.after {
            Some(id) => sqlx::query_scalar("SELECT started_at FROM history WHERE id = ?")
                .bind(id)
                .fetch_optional(&self.pool)
                .await?
                .map(|started_at: i64| (started_at, id)),
            None => None,
        };
        let rows = history_page_query(query, plan, key)
            .build()
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(entry_from_row).collect()
    }

    /// How many rows match the filters (ignores limit and offset).
    pub async fn history_count(&self, query: &HistoryQuery) -> Result<i64> {
        Ok(history_count_query(query, self.text_plan(query).await?)
            .build_query_scalar()
            .fetch_one(&self.pool)
            .await?)
    }

    /// Chooses how the text filter finds its rows. The trigram index answers when the text
    /// is in few rows (it is then cheaper than reading rows until a page is full); when it is
    /// in many, walking the rows newest first fills a page after a short walk. Probing costs
    /// at most [`TEXT_INDEX_CAP`] index entries.
    pub(crate) async fn text_plan(&self, q: &HistoryQuery) -> Result<TextPlan> {
        let Some(text) = q.text.as_deref().filter(|t| !t.is_empty()) else {
            return Ok(TextPlan::None);
        };
        let Some(expr) = trigram_expression(text) else {
            return Ok(TextPlan::Scan);
        };
        let found: i64 = sqlx::query_scalar(
            "SELECT count(*) FROM (SELECT 1 FROM history_fts WHERE history_fts MATCH ? LIMIT ?)",
        )
        .bind(&expr)
        .bind(TEXT_INDEX_CAP)
        .fetch_one(&self.pool)
        .await?;
        Ok(if found < TEXT_INDEX_CAP {
            TextPlan::Index(expr)
        } else {
            TextPlan::Scan
        })
    }

    /// One history row by id.
    pub async fn history_entry(&self, history_id: i64) -> Result<Option<HistoryEntry>> {
        let row = sqlx::query(&format!(
            "SELECT {HISTORY_COLUMNS} FROM history h WHERE h.id = ?"
        ))
        .bind(history_id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(entry_from_row).transpose()
    }

    /// One history row by client request id.
    pub async fn history_by_request_id(&self, request_id: &str) -> Result<Option<HistoryEntry>> {
        let row = sqlx::query(&format!(
            "SELECT {HISTORY_COLUMNS} FROM history h WHERE h.request_id = ?"
        ))
        .bind(request_id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(entry_from_row).transpose()
    }

    /// Re-opens a past result without the network: the stored body and its history row.
    pub async fn result(&self, history_id: i64) -> Result<Option<StoredResult>> {
        let Some(entry) = self.history_entry(history_id).await? else {
            return Ok(None);
        };
        let body: Option<String> =
            sqlx::query_scalar("SELECT body FROM results WHERE history_id = ?")
                .bind(history_id)
                .fetch_optional(&self.pool)
                .await?;
        Ok(body.map(|body| StoredResult { entry, body }))
    }

    /// Pins or unpins a history row; false when there is no such row.
    pub async fn set_pinned(&self, history_id: i64, pinned: bool) -> Result<bool> {
        let done = sqlx::query("UPDATE history SET pinned = ? WHERE id = ?")
            .bind(pinned)
            .bind(history_id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Deletes a history row and its stored result. The money it cost stays in the ledger and
    /// archived posts stay in the archive (only the "found by" link goes).
    pub async fn delete_history(&self, history_id: i64) -> Result<bool> {
        let done = sqlx::query("DELETE FROM history WHERE id = ?")
            .bind(history_id)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() == 1)
    }
}

/// Rows of the trigram index above which a text search walks the history instead.
const TEXT_INDEX_CAP: i64 = 5_000;

/// How the history text filter reaches its rows (see [`Store::text_plan`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum TextPlan {
    /// No text filter.
    None,
    /// Every row is a candidate (the LIKE alone decides).
    Scan,
    /// Only rows holding every trigram of the text (this MATCH expression) are candidates.
    Index(String),
}

/// The FTS5 expression for rows of `history_fts` that hold every trigram of `text` (each
/// quoted, so any character is literal; FTS5 folds their case as it folded the index).
/// `None` below three characters, which a trigram index cannot narrow.
fn trigram_expression(text: &str) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() < 3 {
        return None;
    }
    let mut seen = std::collections::HashSet::new();
    let terms: Vec<String> = chars
        .windows(3)
        .map(|w| w.iter().collect::<String>())
        .filter(|w| seen.insert(w.clone()))
        .map(|w| format!("\"{}\"", w.replace('"', "\"\"")))
        .collect();
    Some(terms.join(" AND "))
}

/// A page of the rows `q` matches, newest first: after `key` (the time and id of the last row
/// of the page before) when there is one, else after skipping `q.offset` rows. The page's ids
/// first (sorting only the sort key and id), then its rows: building and sorting whole rows of
/// every candidate cost more than finding them.
pub(crate) fn history_page_query(
    q: &HistoryQuery,
    plan: TextPlan,
    key: Option<(i64, i64)>,
) -> QueryBuilder<'_, Sqlite> {
    let mut sql = QueryBuilder::<Sqlite>::new(format!(
        "SELECT {HISTORY_COLUMNS} FROM history h WHERE h.id IN (SELECT h.id"
    ));
    push_history_filters(&mut sql, q, plan);
    let limit = if q.limit == 0 { 100 } else { q.limit };
    paging::push_newest_page(&mut sql, ("h.started_at", "h.id"), key, limit, q.offset);
    sql
}

/// The count of the rows `q` matches. With no filter but an operation or a status (History's
/// first view), it is read off `history_counts` (migration 0023, kept by triggers): counting
/// a million rows read a whole index, most of a second after a restart.
pub(crate) fn history_count_query(q: &HistoryQuery, plan: TextPlan) -> QueryBuilder<'_, Sqlite> {
    let only_counted = plan == TextPlan::None
        && q.from.is_none()
        && q.to.is_none()
        && !q.pinned_only
        && q.investigation_id.is_none();
    if !only_counted {
        let mut sql = QueryBuilder::<Sqlite>::new("SELECT count(*)");
        push_history_filters(&mut sql, q, plan);
        return sql;
    }
    let mut sql = QueryBuilder::<Sqlite>::new(
        "SELECT COALESCE(sum(requests), 0) FROM history_counts WHERE 1 = 1",
    );
    if let Some(op) = &q.operation {
        sql.push(" AND operation = ").push_bind(op.clone());
    }
    if let Some(status) = q.status {
        sql.push(" AND status = ").push_bind(status.as_str());
    }
    sql
}

/// The FROM and WHERE of a history list or count.
fn push_history_filters(sql: &mut QueryBuilder<'_, Sqlite>, q: &HistoryQuery, plan: TextPlan) {
    match plan {
        TextPlan::Index(expr) => {
            // The index's matches are the outer loop: a few thousand rowid lookups at most.
            sql.push(
                " FROM history_fts CROSS JOIN history h ON h.id = history_fts.rowid
                  WHERE history_fts MATCH ",
            )
            .push_bind(expr);
        }
        TextPlan::None | TextPlan::Scan => {
            sql.push(" FROM history h WHERE 1 = 1");
        }
    }
    if let Some(op) = &q.operation {
        sql.push(" AND h.operation = ").push_bind(op.clone());
    }
    if let Some(status) = q.status {
        sql.push(" AND h.status = ").push_bind(status.as_str());
    }
    if let Some(from) = q.from {
        sql.push(" AND h.started_at >= ").push_bind(to_ms(from));
    }
    if let Some(to) = q.to {
        sql.push(" AND h.started_at < ").push_bind(to_ms(to));
    }
    if let Some(text) = q.text.as_deref().filter(|t| !t.is_empty()) {
        sql.push(" AND h.params_json LIKE ")
            .push_bind(like_pattern(text))
            .push(" ESCAPE '\\'");
    }
    if q.pinned_only {
        sql.push(" AND h.pinned = 1");
    }
    if let Some(investigation) = q.investigation_id {
        sql.push(
            " AND h.id IN (SELECT history_id FROM investigation_requests WHERE investigation_id = ",
        )
        .push_bind(investigation)
        .push(")");
    }
}

#[cfg(test)]
mod tests;
