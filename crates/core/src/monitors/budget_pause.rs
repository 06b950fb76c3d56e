//! A monitor the budget paused: what its card says, and when it goes on by itself.
//!
//! The budget's block pauses a monitor with nothing sent (`run.rs`). At each of the
//! scheduler's looks, every budget-paused monitor is weighed again by the same check its run's
//! first page would meet (the operation, its expected units, the learned rate, what was spent
//! today and this month): once that check no longer blocks (a limit raised or removed, or a new
//! day or month), the monitor is active again and due at once. Weighing sends nothing, so a
//! monitor still over the budget costs nothing however often it is looked at; and as the
//! check is the run's own, a resumed run is not blocked again unless spending moved in
//! between. A monitor the user paused is never touched here: only the user resumes it.

use chrono::{DateTime, Utc};
use sightline_store::{BudgetCheck, Store, StoredMonitor, Verdict};

use super::{first_page, target_of};
use crate::errors::CommandError;
use crate::estimate::cost_check;

/// The budget's verdict on the first page of `monitor`'s next run, now.
async fn check(store: &Store, monitor: &StoredMonitor) -> Result<BudgetCheck, CommandError> {
    let target = target_of(monitor)?;
    let (operation, units) = first_page(&target, monitor.cap);
    Ok(cost_check(store, operation, units).await?.budget)
}

/// Makes active again each budget-paused monitor whose next run the budget now allows; their
/// ids. A warning allows it: the run then waits for the user's confirmation, as any run does.
pub(crate) async fn resume_allowed(
    store: &Store,
    now: DateTime<Utc>,
) -> Result<Vec<i64>, CommandError> {
    let mut resumed = Vec::new();
    for monitor in store.budget_paused_monitors().await? {
        let verdict = match check(store, &monitor).await {
            Ok(check) => check.verdict,
            Err(error) => {
                // One unreadable monitor stays paused; the others are still weighed.
                tracing::warn!(
                    monitor = monitor.id,
                    error = error.message(),
                    "a budget-paused monitor could not be weighed"
                );
                continue;
            }
        };
        if verdict != Verdict::Block && store.resume_budget_paused(monitor.id, now).await? {
            tracing::info!(
                monitor = monitor.id,
                "the budget allows a run again: resumed"
            );
            resumed.push(monitor.id);
        }
    }
    Ok(resumed)
}

/// Why a monitor is paused by the budget, naming the limit that blocks, and that it goes on
/// by itself (the budget's own words, when its check cannot be read now).
pub(crate) async fn reason(store: &Store, monitor: &StoredMonitor, fallback: &str) -> String {
    let Ok(check) = check(store, monitor).await else {
        return format!("{fallback} The monitor goes on by itself once the budget allows a run.");
    };
    let blocks = |period: &Option<sightline_store::PeriodCheck>| {
        period
            .as_ref()
            .is_some_and(|period| period.verdict == Verdict::Block)
    };
    let (limit, wait) = match (blocks(&check.daily), blocks(&check.monthly)) {
        (true, true) => ("daily and monthly limits", "next month"),
        (true, false) => ("daily limit", "tomorrow"),
        (false, true) => ("monthly limit", "next month"),
        (false, false) => ("budget", "the next period"),
    };
    format!(
        "Paused by the budget: a run would go over your {limit}. It goes on by itself once \
         the budget allows a run: raise or remove the limit in Spend, or wait for {wait}."
    )
}
