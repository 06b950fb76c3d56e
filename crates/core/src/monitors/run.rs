//! One run of a monitor. It asks only for what is new — an X search from the last run's
//! window end on (`since_time:` in the query, and the day as `start_date` when none is set;
//! the window ends at the newest post a run saw, in the service's clock, so the app's and the
//! service's clocks need not agree; a post of that same second is asked again, not missed),
//! newest first, up to the cap; an account's posts page by page, newest first, until a post
//! older than the last run or one already found — and drops posts this monitor has found
//! before. Each page goes through the pipeline (History, the ledger, the Archive, provenance,
//! the active investigation) under an id that is its own, so a run cut by a crash goes on
//! where it was and never pays twice for a page it recorded; a page that may have been billed
//! without a recorded answer is never sent again. New posts are stored unseen in the page's
//! transaction; only then is anything announced.
//!
//! A run that ends in any error (the service's, or a database that refused a record after the
//! send) is finished as failed with the error in words, in its run log and on the monitor, and
//! the next run waits: the interval after one failure, doubled for each failure in a row, at
//! most a day. So nothing in the background can send a billed request in a loop.

use chrono::{DateTime, Duration, Utc};
use sightline_api::model::{Post, Posts, UserPostsPage};
use sightline_api::request::{Sort, TwitterSearchRequest, TwitterUserPostsRequest};
use sightline_api::wait::{self, plain_wait};
use sightline_store::RecordedPage;
use sightline_store::{
    MonitorState, PageItem, RunEnd, RunOutcome, RunOwner, Store, StoredMonitor, StoredRun,
};

use super::{MonitorTarget, MonitorsChanged};
use crate::announce::Announce;
use crate::errors::CommandError;
use crate::runs::{backoff, failures_before, page_step, send_page, PageSent, RunPage, Step, Stop};
use crate::session::Session;
use crate::state::AppState;

/// The X search of a run: newest first, at most `cap` posts, from `since` on.
pub(crate) fn search_window(
    request: &TwitterSearchRequest,
    cap: i64,
    since: Option<DateTime<Utc>>,
) -> TwitterSearchRequest {
    let mut request = TwitterSearchRequest {
        sort: Sort::Latest,
        count: cap,
        ..request.clone()
    };
    if let Some(since) = since {
        request.query = format!("{} since_time:{}", request.query.trim(), since.timestamp());
        if request.start_date.is_none() {
            request.start_date = Some(since.format("%Y-%m-%d").to_string());
        }
    }
    request
}

fn page_items(posts: &[Post]) -> Vec<PageItem> {
    posts
        .iter()
        .map(|post| PageItem {
            id: post.id.clone(),
            created_at: post.created_at_utc().unwrap_or_default(),
        })
        .collect()
}

/// What a page brought, in the terms a run needs.
struct Page {
    history_id: i64,
    items: Vec<PageItem>,
    next_cursor: Option<String>,
}

/// The clock a run reads its times from (when it ran, its next run): the system's, or the
/// scheduler's.
pub(crate) type Now<'a> = &'a (dyn Fn() -> DateTime<Utc> + Sync);

/// Runs monitor `id` once (or goes on with its unfinished run), its times read from `now`; the
/// scheduler is its one caller ([`super::Scheduler::run_one`]). `confirm_budget`: the user
/// confirmed the budget's warning. A run's own failure (the budget, the service, a record the
/// database refused) is in its log and the monitor's state, and its next run waits; only a
/// failure to start the run or to write how it ended is an error here.
pub(crate) async fn run_at(
    state: &AppState,
    session: &Session,
    announce: &dyn Announce,
    id: i64,
    confirm_budget: bool,
    now: Now<'_>,
) -> Result<(), CommandError> {
    let store = &session.store;
    let monitor = store
        .monitor(id)
        .await?
        .ok_or_else(|| CommandError::not_found("That monitor no longer exists."))?;
    let started = now();
    let run = match store.open_run(RunOwner::Monitor(id)).await? {
        Some(run) => {
            store.set_run_outcome(run.id, RunOutcome::Running).await?;
            run
        }
        None => {
            let run_id = store
                .start_run(RunOwner::Monitor(id), (monitor.window_end, None), started)
                .await?;
            store.run(run_id).await?.expect("the run just started")
        }
    };
    changed(session, announce, id).await;
    let stop = match pages(
        state,
        session,
        announce,
        &monitor,
        &run,
        confirm_budget,
        now,
    )
    .await
    {
        Ok(None) => return finished(session, announce, &monitor, &run, now()).await,
        Ok(Some(stop)) => stop,
        // Whatever failed after the run began (a record refused after the send, a saved
        // target unreadable) ends it with the words, like the service's own failures.
        Err(error) => Stop::Failed(error.message().to_owned()),
    };
    stopped(session, announce, &monitor, &run, stop, now()).await
}

/// One page of a monitor's run: where it is (cursor, page number, attempt) and how to send
/// and record it.
struct MonitorPage<'a> {
    state: &'a AppState,
    session: &'a Session,
    monitor: &'a StoredMonitor,
    target: MonitorTarget,
    run: &'a StoredRun,
    confirm_budget: bool,
    now: Now<'a>,
    cursor: Option<String>,
    pages: i64,
    attempt: i64,
}

impl RunPage for MonitorPage<'_> {
    type Page = Page;

    fn owner(&self) -> RunOwner {
        RunOwner::Monitor(self.monitor.id)
    }

    async fn send(&self) -> Result<PageSent<Page>, CommandError> {
        let (state, session, confirm) = (self.state, self.session, self.confirm_budget);
        let request_id = sightline_store::monitor_page_request_id(
            self.monitor.id,
            self.run.id,
            self.pages,
            self.attempt,
        );
        match &self.target {
            MonitorTarget::Search { request } => {
                let request = search_window(request, self.monitor.cap, self.run.window_start);
                let sent = send_page(state, session, request, request_id, confirm, None).await?;
                Ok(sent.map(|outcome| search_page(outcome.history_id, &outcome.body)))
            }
            MonitorTarget::Account { request } => {
                let cursor = self.cursor.clone();
                let request = TwitterUserPostsRequest {
                    cursor: cursor.clone(),
                    ..request.clone()
                };
                let sent = send_page(state, session, request, request_id, confirm, cursor).await?;
                Ok(sent.map(|outcome| account_page(outcome.history_id, &outcome.body)))
            }
        }
    }

    async fn record(&self, page: &Page) -> Result<RecordedPage, CommandError> {
        let recorded = self.session.store.record_monitor_page(
            self.monitor.id,
            self.run.id,
            page.history_id,
            &page.items,
            page.next_cursor.as_deref(),
            (self.now)(),
        );
        let recorded = recorded.await?;
        // Filed under the monitor's investigation (if it has one): its posts' media are kept.
        crate::media::queue::page_filed(&self.session.store, page.history_id).await;
        Ok(recorded)
    }
}

/// Sends the run's pages and records each; `Some` when a page stopped the run.
async fn pages(
    state: &AppState,
    session: &Session,
    announce: &dyn Announce,
    monitor: &StoredMonitor,
    run: &StoredRun,
    confirm_budget: bool,
    now: Now<'_>,
) -> Result<Option<Stop>, CommandError> {
    let store = &session.store;
    let target = super::target_of(monitor)?;
    let mut step = MonitorPage {
        state,
        session,
        monitor,
        target,
        run,
        confirm_budget,
        now,
        cursor: run.cursor.clone(),
        pages: run.pages,
        attempt: run.attempt,
    };
    let mut new_posts = run.new_items;
    loop {
        let (page, new) = match page_step(store, &|| announce.records_changed(), &step).await? {
            Step::Recorded { page, new_items } => (page, new_items),
            Step::Retry => {
                store.bump_run_attempt(run.id).await?;
                step.attempt += 1;
                continue;
            }
            Step::MayHaveBilled(words) => return Ok(Some(Stop::Failed(words))),
            Step::Stopped(stop) => return Ok(Some(stop)),
        };
        new_posts += new.len() as i64;
        step.pages += 1;
        step.attempt = 0;
        let reached_known = new.len() < page.items.len()
            || page.items.iter().any(|post| {
                run.window_start
                    .is_some_and(|start| post.created_at < start)
            });
        let more = matches!(step.target, MonitorTarget::Account { .. })
            && page.next_cursor.is_some()
            && !reached_known
            && new_posts < monitor.cap;
        if !more {
            return Ok(None);
        }
        step.cursor = page.next_cursor;
    }
}

/// A run that went through: its window moves on, the next run is at the interval, and new
/// posts are announced.
async fn finished(
    session: &Session,
    announce: &dyn Announce,
    monitor: &StoredMonitor,
    run: &StoredRun,
    done: DateTime<Utc>,
) -> Result<(), CommandError> {
    let store = &session.store;
    let id = monitor.id;
    let recorded = store.run(run.id).await?;
    let newest = recorded.as_ref().and_then(|run| run.window_end);
    let new_posts = recorded.map_or(0, |run| run.new_items);
    let previous_end = store
        .runs(RunOwner::Monitor(id), 2)
        .await?
        .into_iter()
        .filter(|earlier| earlier.id != run.id)
        .find_map(|earlier| earlier.finished_at);
    let window_end = next_window_start(run, newest, previous_end);
    store
        .finish_monitor_run(
            id,
            run.id,
            &RunEnd {
                outcome: RunOutcome::Done,
                error: None,
                window_end,
                next_run_at: wait::after(done, interval(monitor)),
            },
            done,
        )
        .await?;
    changed(session, announce, id).await;
    if new_posts > 0 {
        // A first run (no window yet) finds what is there, not what came since: its starting set.
        let body = match (run.window_start, new_posts) {
            (None, 1) => "1 post to start with".to_owned(),
            (None, n) => format!("{n} posts to start with"),
            (Some(_), 1) => "1 new post".to_owned(),
            (Some(_), n) => format!("{n} new posts"),
        };
        announce.new_posts(&monitor.name, &body);
    }
    Ok(())
}

fn interval(monitor: &StoredMonitor) -> std::time::Duration {
    std::time::Duration::from_secs(u64::try_from(monitor.interval_minutes.max(1)).unwrap_or(1) * 60)
}

/// How long after an earlier run's answer this run must have started for the second of that
/// answer's newest post to be over, whatever the service's clock says (both ends are read on
/// the app's clock).
const SECOND_OVER: Duration = Duration::seconds(2);

/// Where the next run's window starts: at the newest post this run saw (`newest`; none: where
/// this one started), since a post of that same second may still come. But when the newest is
/// of the very second this run started from, an earlier run saw that second and this run asked
/// for it again once it was over: every post of it is in hand, so the next window starts a
/// second later. Without that, a quiet story would send the same search at every run and pay
/// each time for the post it already has.
pub(crate) fn next_window_start(
    run: &StoredRun,
    newest: Option<DateTime<Utc>>,
    previous_end: Option<DateTime<Utc>>,
) -> Option<DateTime<Utc>> {
    let newest = newest.or(run.window_start)?;
    let asked_again_once_over = run.window_start == Some(newest)
        && previous_end.is_some_and(|end| run.started_at - end >= SECOND_OVER);
    if asked_again_once_over {
        let second = newest.timestamp();
        DateTime::from_timestamp(second + 1, 0)
    } else {
        Some(newest)
    }
}

fn search_page(history_id: i64, body: &Posts) -> Page {
    Page {
        history_id,
        items: page_items(&body.0),
        next_cursor: None,
    }
}

fn account_page(history_id: i64, body: &UserPostsPage) -> Page {
    Page {
        history_id,
        items: page_items(&body.tweets),
        next_cursor: body.next_cursor.clone(),
    }
}

/// A page failed: the budget pauses the monitor or makes the run wait for the user; a 429
/// puts the next try after the service's wait (a minute at least); anything else ends the run
/// with its words, and the next run waits for the backoff. A run that did not finish its
/// window does not move it: the next run asks again from the same point.
async fn stopped(
    session: &Session,
    announce: &dyn Announce,
    monitor: &StoredMonitor,
    run: &StoredRun,
    stop: Stop,
    now: DateTime<Utc>,
) -> Result<(), CommandError> {
    let store = &session.store;
    match stop {
        Stop::Blocked(reason) => {
            // Paused for the budget, not for good: it goes on by itself (`budget_pause.rs`).
            let reason = super::budget_pause::reason(store, monitor, &reason).await;
            store
                .pause_monitor_after_run(
                    monitor.id,
                    run.id,
                    RunOutcome::BudgetBlocked,
                    &reason,
                    now,
                )
                .await?;
        }
        Stop::Warned(reason) => {
            store
                .set_run_outcome(run.id, RunOutcome::NeedsConfirmation)
                .await?;
            store
                .set_monitor_state(
                    monitor.id,
                    MonitorState::NeedsConfirmation,
                    Some(&reason),
                    None,
                    now,
                )
                .await?;
        }
        Stop::RateLimited { wait, message } => {
            // A wait of nothing would be asked again at once: a minute at least.
            let wait = wait.max(std::time::Duration::from_secs(60));
            let words = format!("{message} The next try is in {}.", plain_wait(wait));
            let outcome = RunOutcome::RateLimited;
            end_and_wait(store, monitor, run, outcome, &words, wait, now).await?;
        }
        Stop::Failed(words) => {
            let (words, wait) = after_failure(store, monitor, run, &words).await?;
            end_and_wait(store, monitor, run, RunOutcome::Failed, &words, wait, now).await?;
        }
        Stop::Archived(reason) => {
            // Paused as by the user: only the user resumes it, once the investigation is
            // restored or another chosen.
            let paused = RunOutcome::Paused;
            store.finish_run(run.id, paused, Some(&reason), now).await?;
            store
                .set_monitor_state(monitor.id, MonitorState::Paused, Some(&reason), None, now)
                .await?;
        }
    }
    changed(session, announce, monitor.id).await;
    Ok(())
}

/// Ends a run that stopped short with its outcome and words; the monitor's next run is after
/// `wait`, and its window stays where it was (the next run asks again from the same point).
async fn end_and_wait(
    store: &Store,
    monitor: &StoredMonitor,
    run: &StoredRun,
    outcome: RunOutcome,
    words: &str,
    wait: std::time::Duration,
    now: DateTime<Utc>,
) -> Result<(), CommandError> {
    let end = RunEnd {
        outcome,
        error: Some(words),
        window_end: None,
        next_run_at: wait::after(now, wait),
    };
    Ok(store
        .finish_monitor_run(monitor.id, run.id, &end, now)
        .await?)
}

/// A failed run's words and its wait: the interval after one failure, doubled for each
/// further failure in a row, at most a day.
async fn after_failure(
    store: &Store,
    monitor: &StoredMonitor,
    run: &StoredRun,
    words: &str,
) -> Result<(String, std::time::Duration), CommandError> {
    let earlier = store.runs(RunOwner::Monitor(monitor.id), 64).await?;
    let failures = failures_before(&earlier, run.id).saturating_add(1);
    let wait = backoff(interval(monitor), failures);
    let in_a_row = if failures > 1 {
        format!(" ({failures} failed runs in a row: each waits twice as long, up to a day)")
    } else {
        String::new()
    };
    let words = format!(
        "{} The next run is in {}{in_a_row}.",
        words.trim_end(),
        plain_wait(wait)
    );
    tracing::warn!(
        monitor = monitor.id,
        failures,
        "a monitor's run failed; the next waits {}",
        plain_wait(wait)
    );
    Ok((words, wait))
}

async fn changed(session: &Session, announce: &dyn Announce, id: i64) {
    match super::unseen(&session.store).await {
        Ok(unseen) => announce.monitors_changed(MonitorsChanged {
            monitor_id: Some(id),
            unseen,
        }),
        Err(error) => tracing::warn!(error = error.message(), "unseen counts could not be read"),
    }
}
