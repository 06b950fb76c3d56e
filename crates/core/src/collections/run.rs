//! Paging a collection on. Each page goes through the pipeline (History, the ledger, the
//! Archive, provenance, the active investigation) under the id
//! `collection-{id}-page-{n}-try-{k}`, and is written with its items and the cursor that
//! follows it in one transaction: after a crash the same page is asked under the same id, and
//! the pipeline replays it from History instead of sending it again. Cursors are the
//! service's for timelines and reposters; a search goes back in time (`until_time:` the oldest
//! post's second), a post's replies forward in reading order (`since_time:` the newest's), and
//! the post of that same second asked again is counted once. Pause and cancel take effect
//! between pages; a 429 waits the time the service asked.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use chrono::{DateTime, Utc};
use sightline_api::model::Tweet;
use sightline_api::request::{
    Sort, TwitterRepliesPostRequest, TwitterRetweetersRequest, TwitterSearchRequest,
    TwitterUserPostsRequest,
};
use sightline_store::{InvestigationItem, RunOwner, StoredCollection};

use super::{
    collection_of, get, set_state, CollectUntil, Collection, CollectionSource, CollectionState,
};
use crate::announce::Announce;
use crate::errors::CommandError;
use crate::monitors::RunOutcome;
use crate::runs::{plain_wait, send_page, PageSent, Stop};
use crate::session::Session;
use crate::state::AppState;

/// Most posts one page asks for: the X search's most.
const PAGE_SIZE: i64 = 100;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum StopRequest {
    Pause,
    Cancel,
}

/// The collections being paged in this process, and what the user asked of them.
#[derive(Default)]
pub struct Collector {
    active: Mutex<HashMap<i64, Option<StopRequest>>>,
}

struct ActiveMark<'a> {
    collector: &'a Collector,
    id: i64,
}

impl Drop for ActiveMark<'_> {
    fn drop(&mut self) {
        self.collector
            .active
            .lock()
            .expect("collector lock")
            .remove(&self.id);
    }
}

impl Collector {
    fn begin(&self, id: i64) -> Option<ActiveMark<'_>> {
        let mut active = self.active.lock().expect("collector lock");
        if active.contains_key(&id) {
            return None;
        }
        active.insert(id, None);
        Some(ActiveMark {
            collector: self,
            id,
        })
    }

    fn take_stop(&self, id: i64) -> Option<StopRequest> {
        self.active
            .lock()
            .expect("collector lock")
            .get_mut(&id)
            .and_then(Option::take)
    }

    /// Asks a collection being paged to stop after its page; false when none is.
    fn ask(&self, id: i64, request: StopRequest) -> bool {
        match self.active.lock().expect("collector lock").get_mut(&id) {
            Some(slot) => {
                *slot = Some(request);
                true
            }
            None => false,
        }
    }

    /// Whether a collection is being paged in this process now.
    pub fn is_active(&self, id: i64) -> bool {
        self.active
            .lock()
            .expect("collector lock")
            .contains_key(&id)
    }

    /// Pauses a collection: after its current page if it is being paged, at once otherwise.
    pub async fn pause(&self, state: &AppState, id: i64) -> Result<Collection, CommandError> {
        let store = state.store().await?;
        if self.ask(id, StopRequest::Pause) {
            return get(&store, id).await;
        }
        set_state(&store, id, CollectionState::Paused, Some("Paused by you.")).await
    }

    /// Cancels a collection; what it collected stays in History and the Archive.
    pub async fn cancel(&self, state: &AppState, id: i64) -> Result<Collection, CommandError> {
        let store = state.store().await?;
        if self.ask(id, StopRequest::Cancel) {
            return get(&store, id).await;
        }
        set_state(
            &store,
            id,
            CollectionState::Cancelled,
            Some("Cancelled by you."),
        )
        .await
    }
}

/// What a page brought, in the terms a collection needs.
struct Page {
    history_id: i64,
    /// Item ids (posts, or users for reposters) with their times when they have one.
    items: Vec<(String, Option<DateTime<Utc>>)>,
    /// The service's cursor (timelines, reposters); `None` on its last page.
    service_cursor: Option<String>,
}

fn posts(history_id: i64, tweets: &[Tweet], service_cursor: Option<String>) -> Page {
    Page {
        history_id,
        items: tweets
            .iter()
            .map(|tweet| (tweet.id.clone(), tweet.created_at_utc()))
            .collect(),
        service_cursor,
    }
}

/// The day's start (UTC) before which posts end a collection.
fn cutoff(until: &CollectUntil) -> Option<DateTime<Utc>> {
    until
        .day()
        .and_then(|day| day.and_hms_opt(0, 0, 0))
        .map(|start| start.and_utc())
}

/// Sends the collection's next page.
async fn next_page(
    state: &AppState,
    session: &Session,
    stored: &StoredCollection,
    source: &CollectionSource,
    until: &CollectUntil,
    confirm_budget: bool,
) -> Result<PageSent<Page>, CommandError> {
    let request_id = format!(
        "collection-{}-page-{}-try-{}",
        stored.id, stored.pages, stored.attempt
    );
    let cursor = stored.cursor.clone();
    // Ask for what is left (and the one post asked again at a time cursor), at most a page.
    let size = match until {
        CollectUntil::Count { items } => {
            (items - stored.items + i64::from(cursor.is_some())).clamp(1, PAGE_SIZE)
        }
        _ => PAGE_SIZE,
    };
    let since = cutoff(until).map(|at| at.timestamp());
    Ok(match source {
        CollectionSource::Search { request } => {
            let mut query = request.query.trim().to_owned();
            if let Some(before) = &cursor {
                query = format!("{query} until_time:{before}");
            }
            if let Some(since) = since {
                query = format!("{query} since_time:{since}");
            }
            let request = TwitterSearchRequest {
                query,
                sort: Sort::Latest,
                count: size,
                ..request.clone()
            };
            send_page(state, session, request, request_id, confirm_budget, cursor)
                .await?
                .map(|outcome| posts(outcome.history_id, &outcome.body.0, None))
        }
        CollectionSource::Replies { request } => {
            let from = match (cursor.as_deref().and_then(|c| c.parse::<i64>().ok()), since) {
                (Some(at), Some(since)) => Some(at.max(since)),
                (at, since) => at.or(since),
            };
            let mut query = request.query.trim().to_owned();
            if let Some(from) = from {
                query = format!("{query} since_time:{from}").trim().to_owned();
            }
            let request = TwitterRepliesPostRequest {
                query,
                count: size,
                ..request.clone()
            };
            send_page(state, session, request, request_id, confirm_budget, cursor)
                .await?
                .map(|outcome| posts(outcome.history_id, &outcome.body.0, None))
        }
        CollectionSource::UserPosts { request } => {
            let request = TwitterUserPostsRequest {
                cursor: cursor.clone(),
                ..request.clone()
            };
            send_page(state, session, request, request_id, confirm_budget, cursor)
                .await?
                .map(|outcome| {
                    posts(
                        outcome.history_id,
                        &outcome.body.tweets,
                        outcome.body.next_cursor.clone(),
                    )
                })
        }
        CollectionSource::Reposters { request } => {
            let request = TwitterRetweetersRequest {
                cursor: cursor.clone(),
                ..request.clone()
            };
            send_page(state, session, request, request_id, confirm_budget, cursor)
                .await?
                .map(|outcome| Page {
                    history_id: outcome.history_id,
                    items: outcome
                        .body
                        .users
                        .iter()
                        .map(|user| (user.id.clone(), None))
                        .collect(),
                    service_cursor: outcome.body.next_cursor.clone(),
                })
        }
    })
}

/// Where the page after `page` continues, or `None` when `page` was the last.
fn cursor_after(source: &CollectionSource, page: &Page) -> Option<String> {
    let times = page.items.iter().filter_map(|(_, at)| *at);
    match source {
        CollectionSource::Search { .. } => times
            .min()
            .map(|oldest| (oldest.timestamp() + 1).to_string()),
        CollectionSource::Replies { .. } => {
            times.max().map(|newest| newest.timestamp().to_string())
        }
        CollectionSource::UserPosts { .. } | CollectionSource::Reposters { .. } => {
            page.service_cursor.clone()
        }
    }
}

/// Pages collection `id` on until it reaches its target, the end, the budget, a failure, or
/// the user's pause or cancel; returns it as it then stands. Paging one already being paged
/// here changes nothing. Only a failure to read or write the database is an error here:
/// everything else is the collection's state, its reason and its run log.
pub async fn drive(
    state: &AppState,
    collector: &Collector,
    announce: &dyn Announce,
    id: i64,
    confirm_budget: bool,
) -> Result<Collection, CommandError> {
    let session = state.session().await?;
    let store = &session.store;
    let Some(_mark) = collector.begin(id) else {
        return get(store, id).await;
    };
    let stored = store
        .collection(id)
        .await?
        .ok_or_else(|| CommandError::not_found("That collection no longer exists."))?;
    if matches!(stored.state.as_str(), "done" | "cancelled") {
        return collection_of(store, stored).await;
    }
    let source: CollectionSource = serde_json::from_str(&stored.source_json).map_err(|error| {
        CommandError::storage(format!("A saved collection could not be read: {error}"))
    })?;
    let until: CollectUntil = serde_json::from_str(&stored.until_json).map_err(|error| {
        CommandError::storage(format!("A saved collection could not be read: {error}"))
    })?;
    let now = Utc::now();
    store
        .set_collection_state(id, "running", None, false, now)
        .await?;
    // A run cut by a crash goes on as the same run.
    let run_id = match store.open_run(RunOwner::Collection(id)).await? {
        Some(run) => run.id,
        None => {
            store
                .start_run(RunOwner::Collection(id), (None, None), now)
                .await?
        }
    };
    progress(store, announce, id).await;

    let end =
        |state: CollectionState, outcome: RunOutcome, reason: Option<String>, confirm: bool| {
            let reason = reason.clone();
            async move {
                let now = Utc::now();
                store
                    .set_collection_state(id, state.as_str(), reason.as_deref(), confirm, now)
                    .await?;
                store
                    .finish_run(run_id, outcome.as_str(), reason.as_deref(), now)
                    .await?;
                progress(store, announce, id).await;
                get(store, id).await
            }
        };
    let cut = cutoff(&until);
    loop {
        match collector.take_stop(id) {
            Some(StopRequest::Pause) => {
                return end(
                    CollectionState::Paused,
                    RunOutcome::Paused,
                    Some("Paused by you.".into()),
                    false,
                )
                .await;
            }
            Some(StopRequest::Cancel) => {
                return end(
                    CollectionState::Cancelled,
                    RunOutcome::Cancelled,
                    Some("Cancelled by you.".into()),
                    false,
                )
                .await;
            }
            None => {}
        }
        let stored = store
            .collection(id)
            .await?
            .ok_or_else(|| CommandError::not_found("That collection no longer exists."))?;
        if let CollectUntil::Count { items } = until {
            if stored.items >= items {
                return end(CollectionState::Done, RunOutcome::Done, None, false).await;
            }
        }
        let page = match next_page(state, &session, &stored, &source, &until, confirm_budget).await
        {
            Ok(PageSent::Got(page)) => page,
            Ok(PageSent::UsedWithoutResult) => {
                store.bump_collection_attempt(id).await?;
                continue;
            }
            Err(error) => match Stop::of(&error) {
                Stop::Blocked(reason) => {
                    return end(
                        CollectionState::StoppedByBudget,
                        RunOutcome::BudgetBlocked,
                        Some(reason),
                        false,
                    )
                    .await;
                }
                Stop::Warned(reason) => {
                    return end(
                        CollectionState::Paused,
                        RunOutcome::NeedsConfirmation,
                        Some(reason),
                        true,
                    )
                    .await;
                }
                Stop::RateLimited { wait, .. } => {
                    tracing::info!(collection = id, wait = %plain_wait(wait), "the service asked to wait");
                    pause_for(collector, id, wait).await;
                    continue;
                }
                Stop::Failed(reason) => {
                    return end(
                        CollectionState::Failed,
                        RunOutcome::Failed,
                        Some(reason),
                        false,
                    )
                    .await;
                }
            },
        };
        let reached_date = page
            .items
            .iter()
            .any(|(_, at)| matches!((at, cut), (Some(at), Some(cut)) if *at < cut));
        let counted: Vec<String> = page
            .items
            .iter()
            .filter(|(_, at)| !matches!((at, cut), (Some(at), Some(cut)) if *at < cut))
            .map(|(item, _)| item.clone())
            .collect();
        let next = cursor_after(&source, &page);
        let new = store
            .record_collection_page(
                id,
                run_id,
                page.history_id,
                &counted,
                next.as_deref(),
                Utc::now(),
            )
            .await?;
        if let Some(investigation) = stored.investigation_id {
            let item = InvestigationItem::Request {
                history_id: page.history_id,
            };
            if let Err(error) = store
                .add_to_investigation(investigation, &[item], Utc::now())
                .await
            {
                tracing::warn!(%error, "a collection's page could not be filed under its investigation");
            }
        }
        announce.records_changed();
        progress(store, announce, id).await;
        // A time-cursor source is over when a page brings nothing new.
        let exhausted = matches!(
            source,
            CollectionSource::Search { .. } | CollectionSource::Replies { .. }
        ) && new == 0;
        if next.is_none() || reached_date || exhausted {
            return end(CollectionState::Done, RunOutcome::Done, None, false).await;
        }
    }
}

/// Waits out a 429, looking every second whether the user paused or cancelled.
async fn pause_for(collector: &Collector, id: i64, wait: Duration) {
    let until = tokio::time::Instant::now() + wait;
    while tokio::time::Instant::now() < until {
        if collector
            .active
            .lock()
            .expect("collector lock")
            .get(&id)
            .is_some_and(Option::is_some)
        {
            return;
        }
        tokio::time::sleep(Duration::from_secs(1).min(until - tokio::time::Instant::now())).await;
    }
}

async fn progress(store: &sightline_store::Store, announce: &dyn Announce, id: i64) {
    match get(store, id).await {
        Ok(collection) => announce.collection_progress(&collection),
        Err(error) => tracing::warn!(
            error = error.message(),
            "a collection's progress could not be read"
        ),
    }
}
