//! Runs monitors while the app is open: each due monitor once, the longest overdue first, then
//! sleeps until the next is due (or a change wakes it). After the app was closed, every monitor
//! that fell due meanwhile is due once at launch: its run sets the next time from when it ran,
//! so a long gap is caught up with one run, never one per missed interval. One run of a
//! monitor at a time: "run now" while it runs changes nothing.
//!
//! A monitor the budget paused is weighed again at each look and, once the budget allows its
//! run, made active and run (`budget_pause.rs`); one the user paused only the user resumes.
//!
//! Nothing here can loop on money: a failed run sets its own next time after a backoff
//! (`run.rs`), and a run that could not even write how it ended (the database refusing every
//! write) is held here, in memory, for the same backoff from a quarter of an hour.

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{DateTime, Utc};
use sightline_api::wait;
use tokio::sync::Notify;

use crate::announce::Announce;
use crate::errors::CommandError;
use crate::state::AppState;

/// The longest sleep between looks at the database (a monitor made due by a change this
/// process did not announce, or the clock jumping, is found within it).
const LONGEST_NAP: Duration = Duration::from_secs(60);
/// The shortest: a monitor due now that another task is running is looked at again soon.
const SHORTEST_NAP: Duration = Duration::from_millis(200);
/// How long a monitor whose run could not be recorded at all is left alone, the first time
/// (the shortest interval a user can choose), doubling with each such failure in a row.
const FIRST_HOLD: Duration = Duration::from_secs(15 * 60);

/// The scheduler's time: the system's, unless a test runs it on a clock of its own.
pub trait SchedulerClock: Send + Sync {
    /// The time now on this clock.
    fn now(&self) -> DateTime<Utc>;
    /// Sleeps for `duration` of this clock's time.
    fn nap(&self, duration: Duration) -> Pin<Box<dyn Future<Output = ()> + Send + '_>>;
}

/// The system's clock and tokio's sleep.
struct SystemClock;

/// The system's clock, for a background task that takes a [`SchedulerClock`] (the stamper).
pub fn system_clock() -> Arc<dyn SchedulerClock> {
    Arc::new(SystemClock)
}

impl SchedulerClock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }

    fn nap(&self, duration: Duration) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        Box::pin(tokio::time::sleep(duration))
    }
}

/// A monitor left alone until `until`, after `strikes` runs in a row that could not be recorded.
#[derive(Debug, Clone, Copy)]
struct Hold {
    until: DateTime<Utc>,
    strikes: u32,
}

/// Runs monitors when they fall due, one run per monitor at a time; the app keeps one for
/// its life ([`Scheduler::serve`]), and "Run now" goes through it ([`Scheduler::run_one`]).
pub struct Scheduler {
    running: Mutex<HashSet<i64>>,
    held: Mutex<HashMap<i64, Hold>>,
    wake: Notify,
    clock: Arc<dyn SchedulerClock>,
}

impl Default for Scheduler {
    fn default() -> Self {
        Self::with_clock(Arc::new(SystemClock))
    }
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
    /// A scheduler on `clock` (tests move it; the app uses [`Scheduler::default`]).
    pub fn with_clock(clock: Arc<dyn SchedulerClock>) -> Self {
        Self {
            running: Mutex::default(),
            held: Mutex::default(),
            wake: Notify::new(),
            clock,
        }
    }

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

    /// Runs monitor `id` now, unless it is already running (then false). A run that could not
    /// be recorded holds the monitor back from the scheduler for a while.
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
        let now = || self.clock.now();
        match super::run::run_at(state, &session, announce, id, confirm_budget, &now).await {
            Ok(()) => {
                self.held.lock().expect("held lock").remove(&id);
                Ok(true)
            }
            Err(error) => {
                self.hold(id);
                Err(error)
            }
        }
    }

    fn hold(&self, id: i64) {
        let now = self.clock.now();
        let mut held = self.held.lock().expect("held lock");
        let strikes = held.get(&id).map_or(0, |hold| hold.strikes) + 1;
        let until = wait::after(now, wait::doubling(FIRST_HOLD, strikes));
        held.insert(id, Hold { until, strikes });
    }

    fn is_held(&self, id: i64, now: DateTime<Utc>) -> bool {
        self.held
            .lock()
            .expect("held lock")
            .get(&id)
            .is_some_and(|hold| hold.until > now)
    }

    /// When the soonest hold ends, if any monitor is held.
    fn next_release(&self) -> Option<DateTime<Utc>> {
        let now = self.clock.now();
        self.held
            .lock()
            .expect("held lock")
            .values()
            .map(|hold| hold.until)
            .filter(|until| *until > now)
            .min()
    }

    /// Runs every monitor due now, once each; how many ran.
    pub async fn run_due(
        &self,
        state: &AppState,
        announce: &dyn Announce,
    ) -> Result<usize, CommandError> {
        let now = self.clock.now();
        let store = state.store().await?;
        // A monitor the budget paused goes on once the budget allows its run; weighing it
        // sends nothing. Its trouble is logged and never stops the others.
        if let Err(error) = super::budget_pause::resume_allowed(&store, now).await {
            tracing::warn!(
                error = error.message(),
                "budget-paused monitors could not be weighed"
            );
        }
        let due = store.due_monitors(now).await?;
        let mut ran = 0;
        for id in due.into_iter().filter(|id| !self.is_held(*id, now)) {
            match self.run_one(state, announce, id, false).await {
                Ok(true) => ran += 1,
                Ok(false) => {}
                // One monitor's trouble (a keychain error, a full disk) is logged; the
                // others still run, and it is held back before it is tried again.
                Err(error) => tracing::warn!(
                    monitor = id,
                    error = error.message(),
                    "a monitor could not run"
                ),
            }
        }
        Ok(ran)
    }

    /// How long to sleep before the next look: until the next monitor is due, or, when the
    /// one due is held back, until the soonest hold ends.
    async fn nap_length(&self, state: &AppState) -> Duration {
        let now = self.clock.now();
        let due = match state.store().await {
            Ok(store) => store.next_monitor_due().await.ok().flatten(),
            Err(_) => None,
        };
        let until = |at: DateTime<Utc>| wait::until(now, at);
        let nap = match (due, self.next_release()) {
            (Some(at), Some(release)) if at <= now => until(release),
            (Some(at), release) => release.map_or(until(at), |release| until(at.min(release))),
            (None, Some(release)) => until(release),
            (None, None) => LONGEST_NAP,
        };
        // A paused monitor or one waiting for the user is not due: no busy loop. One paused by
        // the budget is weighed again at the next look, within the longest nap.
        nap.clamp(SHORTEST_NAP, LONGEST_NAP)
    }

    /// Runs monitors as they fall due, for as long as the app is open.
    pub async fn serve(&self, state: &AppState, announce: &dyn Announce) {
        loop {
            if let Err(error) = self.run_due(state, announce).await {
                tracing::warn!(error = error.message(), "monitors could not be read");
            }
            let nap = self.nap_length(state).await;
            tokio::select! {
                _ = self.clock.nap(nap) => {}
                _ = self.wake.notified() => {}
            }
        }
    }
}
