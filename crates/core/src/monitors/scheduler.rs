//! Runs monitors while the app is open: each due monitor once, the longest overdue first, then
//! sleeps until the next is due (or a change wakes it). After the app was closed, every monitor
//! that fell due meanwhile is due once at launch: its run sets the next time from when it ran,
//! so a long gap is caught up with one run, never one per missed interval. One run of a
//! monitor at a time: "run now" while it runs changes nothing.

use std::collections::HashSet;
use std::sync::Mutex;
use std::time::Duration;

use chrono::Utc;
use tokio::sync::Notify;

use crate::announce::Announce;
use crate::errors::CommandError;
use crate::state::AppState;

/// The longest sleep between looks at the database (a monitor made due by a change this
/// process did not announce, or the clock jumping, is found within it).
const LONGEST_NAP: Duration = Duration::from_secs(60);

#[derive(Default)]
pub struct Scheduler {
    running: Mutex<HashSet<i64>>,
    wake: Notify,
}

/// Takes a monitor's "running" mark for as long as it lives.
struct RunningMark<'a> {
    scheduler: &'a Scheduler,
    id: i64,
}

impl Drop for RunningMark<'_> {
    fn drop(&mut self) {
        self.scheduler
            .running
            .lock()
            .expect("running lock")
            .remove(&self.id);
    }
}

impl Scheduler {
    /// Looks at the monitors again now (one was created, resumed or changed).
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    fn mark(&self, id: i64) -> Option<RunningMark<'_>> {
        let fresh = self.running.lock().expect("running lock").insert(id);
        fresh.then_some(RunningMark {
            scheduler: self,
            id,
        })
    }

    /// Runs monitor `id` now, unless it is already running (then false).
    pub async fn run_one(
        &self,
        state: &AppState,
        announce: &dyn Announce,
        id: i64,
        confirm_budget: bool,
    ) -> Result<bool, CommandError> {
        let Some(_mark) = self.mark(id) else {
            return Ok(false);
        };
        let session = state.session().await?;
        super::run(state, &session, announce, id, confirm_budget).await?;
        Ok(true)
    }

    /// Runs every monitor due now, once each; how many ran.
    pub async fn run_due(
        &self,
        state: &AppState,
        announce: &dyn Announce,
    ) -> Result<usize, CommandError> {
        let due = state.store().await?.due_monitors(Utc::now()).await?;
        let mut ran = 0;
        for id in due {
            match self.run_one(state, announce, id, false).await {
                Ok(true) => ran += 1,
                Ok(false) => {}
                // One monitor's trouble (a keychain error, a full disk) is logged; the
                // others still run, and it is tried again at its next look.
                Err(error) => tracing::warn!(
                    monitor = id,
                    error = error.message(),
                    "a monitor could not run"
                ),
            }
        }
        Ok(ran)
    }

    /// Runs monitors as they fall due, for as long as the app is open.
    pub async fn serve(&self, state: &AppState, announce: &dyn Announce) {
        loop {
            if let Err(error) = self.run_due(state, announce).await {
                tracing::warn!(error = error.message(), "monitors could not be read");
            }
            let nap = match state.store().await {
                Ok(store) => match store.next_monitor_due().await {
                    Ok(Some(at)) => (at - Utc::now()).to_std().unwrap_or(Duration::ZERO),
                    _ => LONGEST_NAP,
                },
                Err(_) => LONGEST_NAP,
            };
            // A monitor paused by the budget or waiting for the user is not due: no busy loop.
            let nap = nap.clamp(Duration::from_millis(200), LONGEST_NAP);
            tokio::select! {
                _ = tokio::time::sleep(nap) => {}
                _ = self.wake.notified() => {}
            }
        }
    }
}
