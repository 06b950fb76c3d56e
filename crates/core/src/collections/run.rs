//! Paging a collection on. Each page goes through the pipeline (History, the ledger, the
//! Archive, provenance, the active investigation) under the id
//! `collection-{id}-page-{n}-try-{k}`, and is written with its items and the cursor that
//! follows it in one transaction: after a crash the same page is asked under the same id, and
//! the pipeline replays it from History instead of sending it again. Cursors are the
//! service's for timelines and reposters; a search goes back in time (`until_time:` the oldest
//! post's second), a post's replies forward in reading order (`since_time:` the newest's), and
//! the post of that same second asked again is counted once. Pause and cancel take effect
//! between pages; a 429 waits the time the service asked (and longer each time in a row).
//! Any other failure, a record the database refused after the send included, stops the
//! collection with its words, to be resumed by the user: nothing pages on by itself, and a
//! page that may have been billed without a recorded answer is sent again only when the user
//! resumes.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use chrono::{DateTime, Utc};
use sightline_api::model::Post;
use sightline_api::request::{
    Sort, TwitterRepliesPostRequest, TwitterRetweetersRequest, TwitterSearchRequest,
    TwitterUserPostsRequest,
};
use sightline_api::wait::{self, plain_wait};
use sightline_store::RecordedPage;
use sightline_store::{CollectionState, RunOutcome, RunOwner, StoredCollection};

use super::{collection_of, get, set_state, CollectUntil, Collection, CollectionSource};
use crate::announce::Announce;
use crate::errors::CommandError;
use crate::runs::{page_step, send_page, PageSent, RunPage, Step, Stop};
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

    /// Drops a collection from the list, unless it is being paged now (pause or cancel it
    /// first). History, the Archive and Spend keep all it fetched.
    pub async fn delete(&self, state: &AppState, id: i64) -> Result<(), CommandError> {
        if self.is_active(id) {
            return Err(CommandError::Invalid {
                message: "This collection is still running: pause or cancel it first.".into(),
                fields: Vec::new(),
            });
        }
        super::delete(&state.store().await?, id).await
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

fn posts(history_id: i64, found: &[Post], service_cursor: Option<String>) -> Page {
    Page {
        history_id,
        items: found
            .iter()
            .map(|post| (post.id.clone(), post.created_at_utc()))
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

/// A search's next page: back in time from the cursor (the oldest post's second, exclusive),
/// not before the collection's day.
fn search_back(
    request: &TwitterSearchRequest,
    cursor: Option<&str>,
    since: Option<i64>,
    size: i64,
) -> TwitterSearchRequest {
    let mut query = request.query.trim().to_owned();
    if let Some(before) = cursor {
        query = format!("{query} until_time:{before}");
    }
    if let Some(since) = since {
        query = format!("{query} since_time:{since}");
    }
    TwitterSearchRequest {
        query,
        sort: Sort::Latest,
        count: size,
        ..request.clone()
    }
}

/// A post's next replies: forward in reading order from the cursor (the newest reply's
/// second), not before the collection's day.
fn replies_on(
    request: &TwitterRepliesPostRequest,
    cursor: Option<&str>,
    since: Option<i64>,
    size: i64,
) -> TwitterRepliesPostRequest {
    let from = match (cursor.and_then(|c| c.parse::<i64>().ok()), since) {
        (Some(at), Some(since)) => Some(at.max(since)),
        (at, since) => at.or(since),
    };
    let mut query = request.query.trim().to_owned();
    if let Some(from) = from {
        query = format!("{query} since_time:{from}").trim().to_owned();
    }
    TwitterRepliesPostRequest {
        query,
        count: size,
        ..request.clone()
    }
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
    let request_id =
        sightline_store::collection_page_request_id(stored.id, stored.pages, stored.attempt);
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
            let request = search_back(request, cursor.as_deref(), since, size);
            send_page(state, session, request, request_id, confirm_budget, cursor)
                .await?
                .map(|outcome| posts(outcome.history_id, &outcome.body.0, None))
        }
        CollectionSource::Replies { request } => {
            let request = replies_on(request, cursor.as_deref(), since, size);
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

/// How a drive ends: the collection's state, the run's outcome, why in words, and whether a
/// budget warning waits for the user.
struct Ending {
    state: CollectionState,
    outcome: RunOutcome,
    reason: Option<String>,
    confirm: bool,
}

impl Ending {
    fn new(state: CollectionState, outcome: RunOutcome, reason: Option<String>) -> Self {
        Self {
            state,
            outcome,
            reason,
            confirm: false,
        }
    }

    fn done() -> Self {
        Self::new(CollectionState::Done, RunOutcome::Done, None)
    }

    /// How a stop that ends the drive ends it (a 429 waits instead, and is not one).
    fn of(stop: Stop) -> Self {
        match stop {
            Stop::Blocked(reason) => Self::new(
                CollectionState::StoppedByBudget,
                RunOutcome::BudgetBlocked,
                Some(reason),
            ),
            Stop::Warned(reason) => Self {
                confirm: true,
                ..Self::new(
                    CollectionState::Paused,
                    RunOutcome::NeedsConfirmation,
                    Some(reason),
                )
            },
            Stop::Archived(reason) => {
                Self::new(CollectionState::Paused, RunOutcome::Paused, Some(reason))
            }
            Stop::RateLimited { message, .. } => Self::failed(&message),
            Stop::Failed(reason) => Self::failed(&reason),
        }
    }

    /// Stopped by a failure: its words, and how to go on.
    fn failed(words: &str) -> Self {
        let reason = format!(
            "{} Resume to go on from the last page saved.",
            words.trim_end()
        );
        Self::new(CollectionState::Failed, RunOutcome::Failed, Some(reason))
    }
}

/// Pages collection `id` on until it reaches its target, the end, the budget, a failure, or
/// the user's pause or cancel; returns it as it then stands. Paging one already being paged
/// here changes nothing. Only a failure to start or to write how it ended is an error here:
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
    if matches!(
        stored.state,
        CollectionState::Done | CollectionState::Cancelled
    ) {
        return collection_of(store, stored).await;
    }
    let now = Utc::now();
    store
        .set_collection_state(id, CollectionState::Running, None, false, now)
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

    let paging = Paging {
        state,
        session: &session,
        collector,
        announce,
        id,
        run_id,
    };
    let ending = match paging.page_on(&stored, confirm_budget).await {
        Ok(ending) => ending,
        // Whatever failed once paging began (a record refused after the send, a saved
        // source unreadable) stops it with the words, like the service's own failures.
        Err(error) => Ending::failed(error.message()),
    };
    if ending.outcome == RunOutcome::Failed {
        tracing::warn!(collection = id, "a collection stopped on a failure");
    }
    let now = Utc::now();
    let reason = ending.reason.as_deref();
    store
        .set_collection_state(id, ending.state, reason, ending.confirm, now)
        .await?;
    store
        .finish_run(run_id, ending.outcome, reason, now)
        .await?;
    progress(store, announce, id).await;
    get(store, id).await
}

/// One drive of a collection: where it writes and whom it tells.
struct Paging<'a> {
    state: &'a AppState,
    session: &'a Session,
    collector: &'a Collector,
    announce: &'a dyn Announce,
    id: i64,
    run_id: i64,
}

/// One page of a collection: the collection as it now stands, and how to send and record
/// its next page.
struct CollectionPage<'a> {
    paging: &'a Paging<'a>,
    stored: StoredCollection,
    source: &'a CollectionSource,
    until: &'a CollectUntil,
    confirm_budget: bool,
}

/// Whether a post of `at` is before the day a collection ends at.
fn before_cut(at: Option<DateTime<Utc>>, cut: Option<DateTime<Utc>>) -> bool {
    matches!((at, cut), (Some(at), Some(cut)) if at < cut)
}

impl RunPage for CollectionPage<'_> {
    type Page = Page;

    fn owner(&self) -> RunOwner {
        RunOwner::Collection(self.paging.id)
    }

    async fn send(&self) -> Result<PageSent<Page>, CommandError> {
        let (state, session) = (self.paging.state, self.paging.session);
        let confirm = self.confirm_budget;
        next_page(
            state,
            session,
            &self.stored,
            self.source,
            self.until,
            confirm,
        )
        .await
    }

    /// Counts the items from the collection's day on, with the cursor that follows the page.
    async fn record(&self, page: &Page) -> Result<RecordedPage, CommandError> {
        let cut = cutoff(self.until);
        let counted: Vec<String> = page
            .items
            .iter()
            .filter(|(_, at)| !before_cut(*at, cut))
            .map(|(item, _)| item.clone())
            .collect();
        let next = cursor_after(self.source, page);
        let recorded = self.paging.session.store.record_collection_page(
            self.paging.id,
            self.paging.run_id,
            page.history_id,
            &counted,
            next.as_deref(),
            Utc::now(),
        );
        let recorded = recorded.await?;
        // Filed under the collection's investigation (if it has one): its posts' media are kept.
        crate::media::queue::page_filed(&self.paging.session.store, page.history_id).await;
        Ok(recorded)
    }
}

impl Paging<'_> {
    /// What the user asked of this drive between pages, if anything.
    fn asked_to_stop(&self) -> Option<Ending> {
        Some(match self.collector.take_stop(self.id)? {
            StopRequest::Pause => Ending::new(
                CollectionState::Paused,
                RunOutcome::Paused,
                Some("Paused by you.".into()),
            ),
            StopRequest::Cancel => Ending::new(
                CollectionState::Cancelled,
                RunOutcome::Cancelled,
                Some("Cancelled by you.".into()),
            ),
        })
    }

    async fn page_on(
        &self,
        stored: &StoredCollection,
        confirm_budget: bool,
    ) -> Result<Ending, CommandError> {
        let (store, id) = (&self.session.store, self.id);
        let source: CollectionSource =
            serde_json::from_str(&stored.source_json).map_err(super::unreadable)?;
        let until: CollectUntil =
            serde_json::from_str(&stored.until_json).map_err(super::unreadable)?;
        // The user asked for this drive (started or resumed it): the page it begins with may
        // be sent again even if an earlier try of it may have been billed. Never after that.
        let mut resumed_by_user = true;
        let mut rate_limits_in_a_row = 0;
        loop {
            if let Some(ending) = self.asked_to_stop() {
                return Ok(ending);
            }
            let stored = store
                .collection(id)
                .await?
                .ok_or_else(|| CommandError::not_found("That collection no longer exists."))?;
            if let CollectUntil::Count { items } = until {
                if stored.items >= items {
                    return Ok(Ending::done());
                }
            }
            let step = CollectionPage {
                paging: self,
                stored,
                source: &source,
                until: &until,
                confirm_budget,
            };
            let (page, new) =
                match page_step(store, &|| self.announce.records_changed(), &step).await? {
                    Step::Recorded { page, new_items } => (page, new_items),
                    Step::Retry => {
                        store.bump_collection_attempt(id).await?;
                        continue;
                    }
                    Step::MayHaveBilled(_) if resumed_by_user => {
                        tracing::info!(
                            collection = id,
                            "resumed: a page that may have been billed is asked again"
                        );
                        store.bump_collection_attempt(id).await?;
                        resumed_by_user = false;
                        continue;
                    }
                    Step::MayHaveBilled(words) => return Ok(Ending::failed(&words)),
                    Step::Stopped(Stop::RateLimited { wait, .. }) => {
                        rate_limits_in_a_row += 1;
                        self.wait_out(wait, rate_limits_in_a_row).await;
                        resumed_by_user = false;
                        continue;
                    }
                    Step::Stopped(stop) => return Ok(Ending::of(stop)),
                };
            resumed_by_user = false;
            rate_limits_in_a_row = 0;
            progress(store, self.announce, id).await;
            let reached_date = page
                .items
                .iter()
                .any(|(_, at)| before_cut(*at, cutoff(&until)));
            // A time-cursor source is over when a page brings nothing new.
            let exhausted = matches!(
                source,
                CollectionSource::Search { .. } | CollectionSource::Replies { .. }
            ) && new.is_empty();
            if cursor_after(&source, &page).is_none() || reached_date || exhausted {
                return Ok(Ending::done());
            }
        }
    }

    /// Waits out a 429: the service's wait, and longer each time in a row, so that even a
    /// wait of nothing is no loop.
    async fn wait_out(&self, wait: Duration, in_a_row: u32) {
        let wait = wait.max(wait::doubling(Duration::from_secs(1), in_a_row));
        tracing::info!(collection = self.id, wait = %plain_wait(wait), "the service asked to wait");
        pause_for(self.collector, self.id, wait).await;
    }
}

/// Waits out a 429, looking every second whether the user paused or cancelled.
async fn pause_for(collector: &Collector, id: i64, wait: Duration) {
    let wait = wait::capped(wait);
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

#[cfg(test)]
mod delete_tests {
    use std::sync::Arc;

    use super::*;
    use crate::environment::Environment;
    use crate::keychain::MemoryStore;

    #[tokio::test]
    async fn a_running_collection_is_not_deleted() {
        let data = tempfile::tempdir().unwrap();
        let state = AppState::new(
            data.path().to_owned(),
            Environment::default(),
            Arc::new(MemoryStore::default()),
        )
        .unwrap();
        let collector = Collector::default();
        let running = collector.begin(7).expect("not yet running");
        let refused = collector.delete(&state, 7).await.unwrap_err();
        assert!(
            matches!(refused, CommandError::Invalid { .. }),
            "{refused:?}"
        );
        assert!(refused.message().contains("still running"), "{refused:?}");
        drop(running);
        // Once stopped, the deletion reaches the store, where there is no collection 7.
        let gone = collector.delete(&state, 7).await.unwrap_err();
        assert!(gone.message().contains("no longer exists"), "{gone:?}");
    }
}
