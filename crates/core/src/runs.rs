//! What monitors and collections share: sending one page through the pipeline under a
//! request id that makes a repeat a replay (never a second charge), and never sending again a
//! page whose request may have been billed; what a failed page means for the run; the backoff
//! after failed runs; the run log as the window shows it; and the one rule for archived
//! investigations on a run's side (a page is never sent for one: its owner pauses).

use std::time::Duration;

use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use serde::Serialize;
use sightline_api::wait;
use sightline_api::{ApiRequest, ErrorKind, ExpectedUnits};
use sightline_store::{ArchivedInvestigation, PageFiling, RecordedPage};
use sightline_store::{HistoryEntry, RequestStatus, RunOutcome, RunOwner, Store, StoredRun};
use ts_rs::TS;

use crate::errors::CommandError;
use crate::findings::Findable;
use crate::pipeline::{self, Outcome, Paging, SendOptions};
use crate::session::Session;
use crate::state::AppState;

/// One line of a monitor's or a collection's run log.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct RunLogEntry {
    /// The run's id.
    pub id: i64,
    /// When the run started.
    pub started_at: DateTime<Utc>,
    /// When it ended (`None`: going on, or cut by a crash and to be resumed).
    pub finished_at: Option<DateTime<Utc>>,
    /// How it ended, or that it is still running.
    pub outcome: RunOutcome,
    /// Posts (users, for reposters) found that were new to this monitor or collection.
    pub new_items: i64,
    /// Requests sent (history rows) in this run.
    pub requests: i64,
    /// Exact, from the ledger rows of this run's requests.
    #[ts(type = "string")]
    pub cost: Decimal,
    /// What went wrong, in plain words.
    pub error: Option<String>,
}

/// How a page's send ended.
pub(crate) enum PageSent<T> {
    /// Answered now, or replayed from History (recorded before a crash: not sent again).
    Got(T),
    /// This request id was already used and ended without a result or a charge (the service
    /// refused it, or it never went out): the caller moves to the next attempt, whose id is new.
    UsedWithoutResult,
    /// This request id went out and the service may have billed it, but its answer is not
    /// recorded (a timeout, a cut answer, a record the database refused, a crash): nothing is
    /// sent; the words say why, for the run log.
    MayHaveBilled(String),
}

impl<T> PageSent<T> {
    pub(crate) fn map<U>(self, f: impl FnOnce(T) -> U) -> PageSent<U> {
        match self {
            Self::Got(value) => PageSent::Got(f(value)),
            Self::UsedWithoutResult => PageSent::UsedWithoutResult,
            Self::MayHaveBilled(words) => PageSent::MayHaveBilled(words),
        }
    }
}

/// Whether a page's earlier request, recorded without a result, may have been billed: it has
/// a charge, or it went out and its end is unknown (still running, cut, stopped with the app),
/// or it failed as a request the service may have billed (a timeout, a cut answer).
fn may_have_billed(entry: &HistoryEntry) -> bool {
    entry.billing.is_some()
        || matches!(
            entry.status,
            RequestStatus::Running | RequestStatus::Interrupted | RequestStatus::Cancelled
        )
        || entry
            .error_class
            .as_deref()
            .and_then(ErrorKind::from_name)
            .is_some_and(ErrorKind::may_have_billed)
}

/// The run log's words for a page that is not sent again.
fn not_sent_again(entry: &HistoryEntry) -> String {
    let why = match entry.status {
        RequestStatus::Running => "its answer could not be recorded".to_owned(),
        _ => entry
            .error_message
            .clone()
            .unwrap_or_else(|| "it did not finish".to_owned()),
    };
    format!(
        "A page was sent and the service may have billed it, but it has no recorded answer \
         ({}). Sightline does not send it again by itself, so as not to pay twice.",
        why.trim_end_matches('.')
    )
}

/// Sends one page under `request_id` (the owner's, page's and attempt's own: the same page is
/// always asked under the same id until it has a result). An id already used is replayed when
/// it has a result, moved past when it billed nothing, and never sent again when it may have
/// been billed.
pub(crate) async fn send_page<R>(
    state: &AppState,
    session: &Session,
    request: R,
    request_id: String,
    confirm_budget: bool,
    cursor: Option<String>,
) -> Result<PageSent<Outcome<R::Output>>, CommandError>
where
    R: ApiRequest + ExpectedUnits + Serialize,
    R::Output: Findable,
{
    if let Some(entry) = session.store.history_by_request_id(&request_id).await? {
        if !matches!(entry.status, RequestStatus::Ok | RequestStatus::NotModified) {
            return Ok(if may_have_billed(&entry) {
                PageSent::MayHaveBilled(not_sent_again(&entry))
            } else {
                PageSent::UsedWithoutResult
            });
        }
    }
    let options = SendOptions {
        request_id,
        confirm_budget,
        paging: Paging {
            cursor,
            parent_id: None,
        },
    };
    pipeline::execute(state, session, request, options, None)
        .await
        .map(PageSent::Got)
}

/// One page of a run, as a monitor or a collection sends and records it.
pub(crate) trait RunPage {
    /// What a sent page brought, in the owner's terms.
    type Page;
    fn owner(&self) -> RunOwner;
    /// Sends the page under its own request id ([`send_page`]).
    async fn send(&self) -> Result<PageSent<Self::Page>, CommandError>;
    /// Writes it into its run: its new items, its run-log line and its filing, in one
    /// transaction.
    async fn record(&self, page: &Self::Page) -> Result<RecordedPage, CommandError>;
}

/// How one page step came out.
pub(crate) enum Step<P> {
    /// Sent (or replayed from History) and recorded, with the items new to its owner.
    Recorded { page: P, new_items: Vec<String> },
    /// Its request id was used without a result or a charge: the next attempt has a new id.
    Retry,
    /// It may have been billed without a recorded answer: not sent again by itself (why).
    MayHaveBilled(String),
    /// The page stopped the run (the budget, a 429, a failure, an archived investigation).
    Stopped(Stop),
}

/// The page step monitors and collections share: nothing is sent for an archived
/// investigation; the page is sent, recorded (with its filing), and the window told; a filing
/// refused because the investigation was archived meanwhile stops the run. `recorded` tells
/// the window (a callback, so this module needs nothing of how it is told).
pub(crate) async fn page_step<R: RunPage>(
    store: &Store,
    recorded: &(dyn Fn() + Sync),
    run: &R,
) -> Result<Step<R::Page>, CommandError> {
    if let Some(stop) = before_page(store, run.owner()).await? {
        return Ok(Step::Stopped(stop));
    }
    let page = match run.send().await {
        Ok(PageSent::Got(page)) => page,
        Ok(PageSent::UsedWithoutResult) => return Ok(Step::Retry),
        Ok(PageSent::MayHaveBilled(words)) => return Ok(Step::MayHaveBilled(words)),
        Err(error) => return Ok(Step::Stopped(Stop::of(&error))),
    };
    let written = run.record(&page).await?;
    recorded();
    Ok(match after_page(&written.filing) {
        Some(stop) => Step::Stopped(stop),
        None => Step::Recorded {
            page,
            new_items: written.new_items,
        },
    })
}

/// What a failed page means for its run.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Stop {
    /// The budget forbids it: the owner pauses, saying why. Nothing was sent.
    Blocked(String),
    /// The budget warns: the run waits for the user. Nothing was sent.
    Warned(String),
    /// The service asked to wait this long (429): the next attempt is after it.
    RateLimited { wait: Duration, message: String },
    /// Anything else, in the words of the error.
    Failed(String),
    /// The owner's investigation is archived: the owner pauses, saying why, and sends nothing
    /// until the user restores the investigation or chooses another, then resumes it.
    Archived(String),
}

/// The words a monitor or a collection pauses with when its investigation is archived.
fn archived(investigation: &ArchivedInvestigation) -> Stop {
    Stop::Archived(format!(
        "Paused: its investigation \"{}\" is archived, and nothing is filed into an archived \
         investigation. Restore the investigation or choose another, then resume.",
        investigation.name
    ))
}

/// Asked before each page: `Some` when the owner's investigation is archived, so the page is
/// not sent (nor billed).
async fn before_page(store: &Store, owner: RunOwner) -> Result<Option<Stop>, CommandError> {
    Ok(store
        .archived_investigation_of(owner)
        .await?
        .as_ref()
        .map(archived))
}

/// After a page is recorded: `Some` when its filing was refused (the investigation was archived
/// while the page was on its way). The page, its items and its charge are kept.
fn after_page(filing: &PageFiling) -> Option<Stop> {
    match filing {
        PageFiling::Refused(investigation) => Some(archived(investigation)),
        PageFiling::NoInvestigation | PageFiling::Filed { .. } => None,
    }
}

impl Stop {
    pub(crate) fn of(error: &CommandError) -> Self {
        match error {
            CommandError::BudgetBlocked { message, .. } => Self::Blocked(message.clone()),
            CommandError::BudgetWarning { message, .. } => Self::Warned(message.clone()),
            CommandError::Service { message, error } if error.kind == ErrorKind::RateLimited => {
                Self::RateLimited {
                    // The service gave no wait: a minute, as its usual answer says.
                    wait: wait::capped(Duration::from_secs(error.retry_after_secs.unwrap_or(60))),
                    message: message.clone(),
                }
            }
            other => Self::Failed(other.message().to_owned()),
        }
    }
}

pub(crate) fn log_entry(run: StoredRun) -> RunLogEntry {
    RunLogEntry {
        id: run.id,
        started_at: run.started_at,
        finished_at: run.finished_at,
        outcome: run.outcome,
        new_items: run.new_items,
        requests: run.requests,
        cost: run.cost,
        error: run.error,
    }
}

/// How long an owner waits after `failures` failed runs in a row (this one included): its
/// interval after the first, doubled for each further one, at most a day. A good run resets
/// the count, so the next wait is the interval again.
pub(crate) fn backoff(interval: Duration, failures: u32) -> Duration {
    wait::doubling(interval, failures)
}

/// How many runs in a row failed before `current`, newest first from `runs`.
pub(crate) fn failures_before(runs: &[StoredRun], current: i64) -> u32 {
    let count = runs
        .iter()
        .filter(|run| run.id != current)
        .take_while(|run| run.outcome == RunOutcome::Failed)
        .count();
    u32::try_from(count).unwrap_or(u32::MAX)
}
