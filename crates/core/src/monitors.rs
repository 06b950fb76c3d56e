//! Monitors: saved X searches and accounts' posts that fetch only what is new, on an interval,
//! within the budget, with their new posts kept unseen until the user marks them seen.
//!
//! * `monitors/types.rs`: what crosses IPC (the draft, the monitor, its estimate, posts, run log);
//! * `monitors/rules.rs`: a draft's rules, by field (the UI repeats them);
//! * `monitors/run.rs`: one run — only what is new, every request through the pipeline, new
//!   posts stored unseen before anything is announced, the budget's block and warning, a 429's
//!   wait; any other failure (the service's, or a record the database refused after the send)
//!   ends the run in words, on the monitor too, and the next waits (the interval, doubled for
//!   each failure in a row, at most a day); a page that may have been billed is never re-sent;
//! * `monitors/budget_pause.rs`: a monitor the budget paused (a state of its own, apart from
//!   one the user paused) is weighed again at each of the scheduler's looks, by its run's own
//!   check, sending nothing, and goes on once the budget allows a run;
//! * `monitors/scheduler.rs`: runs each due monitor once (after a long gap too: catching up,
//!   not once per missed interval), never two runs of one monitor at a time; a run that could
//!   not even be recorded holds its monitor back; its clock can be a test's;
//! * `monitors/changes.rs`: the user's changes as the window asks for them, each with what
//!   the window is told of it (which monitor, the unseen counts).
//!
//! This file: saving, changing, pausing and deleting monitors, their estimate, posts, unseen
//! counts and run log.

mod budget_pause;
pub mod changes;
pub(crate) mod rules;
mod run;
mod scheduler;
pub(crate) mod types;

use chrono::{Duration, Utc};
use rust_decimal::Decimal;
use sightline_api::request::{TwitterSearchRequest, TwitterUserPostsRequest};
use sightline_api::{ApiRequest, ExpectedUnits, Operation};
use sightline_store::{
    MonitorState, NewMonitor, RunEnd, RunOutcome, RunOwner, Store, StoredMonitor,
};

use crate::errors::CommandError;
use crate::estimate::cost_check;

pub use rules::check;
pub use scheduler::{system_clock, Scheduler, SchedulerClock};
pub use types::{
    Monitor, MonitorDraft, MonitorEstimate, MonitorPost, MonitorPostPage, MonitorPostQuery,
    MonitorTarget, MonitorUnseen, MonitorsChanged, UnseenCounts,
};

pub use crate::runs::RunLogEntry;

fn gone() -> CommandError {
    CommandError::not_found("That monitor no longer exists.")
}

/// What a stored monitor watches, read back from its JSON.
pub(crate) fn target_of(stored: &StoredMonitor) -> Result<MonitorTarget, CommandError> {
    serde_json::from_str(&stored.target_json).map_err(|error| {
        CommandError::database(format!("A saved monitor could not be read: {error}"))
    })
}

fn monitor_of(stored: StoredMonitor) -> Result<Monitor, CommandError> {
    let target = target_of(&stored)?;
    Ok(Monitor {
        id: stored.id,
        name: stored.name,
        target,
        interval_minutes: stored.interval_minutes,
        cap: stored.cap,
        investigation_id: stored.investigation_id,
        state: stored.state,
        state_reason: stored.state_reason,
        next_run_at: stored.next_run_at,
        last_run_at: stored.last_run_at,
        running: stored.running,
        unseen: stored.unseen,
        created_at: stored.created_at,
    })
}

/// One monitor, by its id; "no longer exists" when it was deleted.
pub async fn get(store: &Store, id: i64) -> Result<Monitor, CommandError> {
    monitor_of(store.monitor(id).await?.ok_or_else(gone)?)
}

fn new_monitor(draft: &MonitorDraft) -> Result<NewMonitor, CommandError> {
    check(draft)?;
    Ok(NewMonitor {
        name: draft.name.trim().to_owned(),
        target_json: serde_json::to_string(&draft.target).unwrap_or_default(),
        interval_minutes: draft.interval_minutes,
        cap: draft.cap,
        investigation_id: draft.investigation_id,
    })
}

/// Every monitor, as the list shows them.
pub async fn list(store: &Store) -> Result<Vec<Monitor>, CommandError> {
    store
        .monitors()
        .await?
        .into_iter()
        .map(monitor_of)
        .collect()
}

/// Saves a monitor, active; its first run is due at once.
pub async fn create(store: &Store, draft: &MonitorDraft) -> Result<Monitor, CommandError> {
    let id = store
        .create_monitor(&new_monitor(draft)?, Utc::now())
        .await?;
    get(store, id).await
}

/// Changes a monitor. A new target starts afresh (its next run's window has no start).
pub async fn update(store: &Store, id: i64, draft: &MonitorDraft) -> Result<Monitor, CommandError> {
    if !store
        .update_monitor(id, &new_monitor(draft)?, Utc::now())
        .await?
    {
        return Err(gone());
    }
    get(store, id).await
}

/// Deletes a monitor, its found posts and run log; History, the Archive and Spend keep all
/// it fetched.
pub async fn delete(store: &Store, id: i64) -> Result<(), CommandError> {
    store
        .delete_monitor(id)
        .await?
        .then_some(())
        .ok_or_else(gone)
}

/// The reason a monitor the user paused gives.
const PAUSED_BY_YOU: &str = "Paused by you.";

/// Pauses a monitor for the user: one the budget paused becomes the user's, and never resumes
/// by itself.
pub async fn pause(store: &Store, id: i64) -> Result<Monitor, CommandError> {
    let paused = store
        .set_monitor_state(
            id,
            MonitorState::Paused,
            Some(PAUSED_BY_YOU),
            None,
            Utc::now(),
        )
        .await?;
    paused.then_some(()).ok_or_else(gone)?;
    get(store, id).await
}

/// Resumes a paused monitor (by the user or the budget): it runs now.
pub async fn resume(store: &Store, id: i64) -> Result<Monitor, CommandError> {
    let now = Utc::now();
    let resumed = store
        .set_monitor_state(id, MonitorState::Active, None, Some(now), now)
        .await?;
    resumed.then_some(()).ok_or_else(gone)?;
    get(store, id).await
}

/// Skips a run the budget warned about: it is logged as skipped, the next is at its interval.
pub async fn skip(store: &Store, id: i64) -> Result<Monitor, CommandError> {
    let monitor = get(store, id).await?;
    let now = Utc::now();
    let next = now + Duration::minutes(monitor.interval_minutes);
    match store.open_run(RunOwner::Monitor(id)).await? {
        Some(run) => {
            store
                .finish_monitor_run(
                    id,
                    run.id,
                    &RunEnd {
                        outcome: RunOutcome::Skipped,
                        error: None,
                        window_end: None,
                        next_run_at: next,
                    },
                    now,
                )
                .await?
        }
        None => {
            store
                .set_monitor_state(id, MonitorState::Active, None, Some(next), now)
                .await?;
        }
    }
    get(store, id).await
}

/// What a run's first page asks for, as the budget weighs it: the operation and its expected
/// units (a search's cap; an account's page, which only its latest answer can tell). The same
/// as the pipeline weighs the page itself, so the form's verdict and a budget-paused monitor's
/// resume agree with the run's own check.
pub(crate) fn first_page(target: &MonitorTarget, cap: i64) -> (Operation, Option<i64>) {
    match target {
        MonitorTarget::Search { request } => {
            let request = run::search_window(request, cap, None);
            (TwitterSearchRequest::OPERATION, request.expected_units())
        }
        MonitorTarget::Account { request } => {
            (TwitterUserPostsRequest::OPERATION, request.expected_units())
        }
    }
}

/// What a draft would cost per run and per month from learned rates, and its share of the
/// monthly budget. A search's run asks for up to `cap` posts; an account's is estimated by
/// the units its latest page was billed for.
pub async fn estimate(
    store: &Store,
    draft: &MonitorDraft,
) -> Result<MonitorEstimate, CommandError> {
    let (operation, units) = first_page(&draft.target, draft.cap);
    let check = cost_check(store, operation, units).await?;
    let runs_per_month = 30 * 24 * 60 / draft.interval_minutes.max(1);
    let per_month = check
        .estimate
        .amount
        .map(|per_run| per_run * Decimal::from(runs_per_month));
    let monthly_limit = store.budget().await?.monthly;
    let share = match (per_month, monthly_limit) {
        (Some(cost), Some(limit)) if !limit.is_zero() => {
            Some((cost * Decimal::from(100) / limit).round_dp(1).normalize())
        }
        _ => None,
    };
    Ok(MonitorEstimate {
        per_run: check.estimate.amount,
        per_month,
        currency: check.estimate.currency,
        runs_per_month,
        share_of_monthly_budget: share,
        monthly_limit,
        budget: check.budget,
    })
}

/// A page of monitor `id`'s posts, newest first, with how many match in all.
pub async fn posts(
    store: &Store,
    id: i64,
    query: &MonitorPostQuery,
) -> Result<MonitorPostPage, CommandError> {
    let (found, total) = store
        .monitor_posts(
            id,
            query.only_unseen,
            query.after.as_deref(),
            query.offset,
            query.limit,
        )
        .await?;
    Ok(MonitorPostPage {
        posts: found
            .into_iter()
            .map(|found| MonitorPost {
                post: found.post,
                seen: found.seen,
                found_at: found.found_at,
            })
            .collect(),
        total,
    })
}

/// Marks a monitor's posts seen: those named, or all (`None`).
pub async fn mark_seen(
    store: &Store,
    id: i64,
    post_ids: Option<&[String]>,
) -> Result<UnseenCounts, CommandError> {
    store.mark_monitor_seen(id, post_ids).await?;
    unseen(store).await
}

/// Marks every monitor's posts seen; the counts are then zero.
pub async fn mark_all_seen(store: &Store) -> Result<UnseenCounts, CommandError> {
    store.mark_all_monitors_seen().await?;
    unseen(store).await
}

/// The unseen counts, per monitor and in all.
pub async fn unseen(store: &Store) -> Result<UnseenCounts, CommandError> {
    let by_monitor: Vec<MonitorUnseen> = store
        .unseen_counts()
        .await?
        .into_iter()
        .map(|(monitor_id, unseen)| MonitorUnseen { monitor_id, unseen })
        .collect();
    Ok(UnseenCounts {
        total: by_monitor.iter().map(|m| m.unseen).sum(),
        by_monitor,
    })
}

/// What the window is told when monitor `id` (or several: `None`) changed: which, and the
/// unseen counts as they stand now.
pub async fn changed(store: &Store, id: Option<i64>) -> Result<MonitorsChanged, CommandError> {
    Ok(MonitorsChanged {
        monitor_id: id,
        unseen: unseen(store).await?,
    })
}

/// The run log, newest first.
pub async fn runs(store: &Store, id: i64, limit: i64) -> Result<Vec<RunLogEntry>, CommandError> {
    let runs = store.runs(RunOwner::Monitor(id), limit).await?;
    Ok(runs.into_iter().map(crate::runs::log_entry).collect())
}

#[cfg(test)]
mod tests;
