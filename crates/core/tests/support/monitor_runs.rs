//! Running a monitor in a test the way the app does.

use sightline_core::errors::CommandError;
use sightline_core::monitors::Scheduler;
use sightline_core::state::AppState;

use super::announce::Recorded;

/// Runs monitor `id` once now, as "Run now" does: through a scheduler.
pub async fn run_now(
    state: &AppState,
    announce: &Recorded,
    id: i64,
    confirm_budget: bool,
) -> Result<bool, CommandError> {
    Scheduler::default()
        .run_one(state, announce, id, confirm_budget)
        .await
}
