//! What monitors and collections share: sending one page through the pipeline under a
//! request id that makes a repeat a replay (never a second charge), what a failed page means
//! for the run, and the run log as the window shows it.

use std::time::Duration;

use serde::Serialize;
use sightline_api::{ApiRequest, ErrorKind, ExpectedUnits};
use sightline_store::{RequestStatus, StoredRun};

use crate::errors::CommandError;
use crate::findings::Findable;
use crate::monitors::{RunLogEntry, RunOutcome};
use crate::pipeline::{self, Outcome, Paging, SendOptions};
use crate::session::Session;
use crate::state::AppState;

/// How a page's send ended.
pub(crate) enum PageSent<T> {
    /// Answered now, or replayed from History (recorded before a crash: not sent again).
    Got(T),
    /// This request id was already used and ended without a result (failed, or cut by a
    /// crash): the caller moves to the next attempt, whose id is new.
    UsedWithoutResult,
}

impl<T> PageSent<T> {
    pub(crate) fn map<U>(self, f: impl FnOnce(T) -> U) -> PageSent<U> {
        match self {
            Self::Got(value) => PageSent::Got(f(value)),
            Self::UsedWithoutResult => PageSent::UsedWithoutResult,
        }
    }
}

/// Sends one page under `request_id` (the owner's, page's and attempt's own: the same page is
/// always asked under the same id until it has a result).
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
            return Ok(PageSent::UsedWithoutResult);
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
}

impl Stop {
    pub(crate) fn of(error: &CommandError) -> Self {
        match error {
            CommandError::BudgetBlocked { message, .. } => Self::Blocked(message.clone()),
            CommandError::BudgetWarning { message, .. } => Self::Warned(message.clone()),
            CommandError::Service { message, error } if error.kind == ErrorKind::RateLimited => {
                Self::RateLimited {
                    // The service gave no wait: a minute, as its usual answer says.
                    wait: Duration::from_secs(error.retry_after_secs.unwrap_or(60)),
                    message: message.clone(),
                }
            }
            other => Self::Failed(other.message().to_owned()),
        }
    }
}

impl RunOutcome {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Self::Running => "running",
            Self::Done => "done",
            Self::BudgetBlocked => "budget_blocked",
            Self::NeedsConfirmation => "needs_confirmation",
            Self::Skipped => "skipped",
            Self::RateLimited => "rate_limited",
            Self::Paused => "paused",
            Self::Cancelled => "cancelled",
            Self::Failed => "failed",
        }
    }

    fn parse(text: &str) -> Self {
        match text {
            "running" => Self::Running,
            "done" => Self::Done,
            "budget_blocked" => Self::BudgetBlocked,
            "needs_confirmation" => Self::NeedsConfirmation,
            "skipped" => Self::Skipped,
            "rate_limited" => Self::RateLimited,
            "paused" => Self::Paused,
            "cancelled" => Self::Cancelled,
            _ => Self::Failed,
        }
    }
}

pub(crate) fn log_entry(run: StoredRun) -> RunLogEntry {
    RunLogEntry {
        id: run.id,
        started_at: run.started_at,
        finished_at: run.finished_at,
        outcome: RunOutcome::parse(&run.outcome),
        new_items: run.new_items,
        requests: run.requests,
        cost: run.cost,
        error: run.error,
    }
}

/// Words for a wait: "45 seconds", "3 minutes".
pub(crate) fn plain_wait(wait: Duration) -> String {
    let secs = wait.as_secs().max(1);
    match secs {
        1 => "1 second".into(),
        s if s < 120 => format!("{s} seconds"),
        s => format!("{} minutes", s.div_ceil(60)),
    }
}
