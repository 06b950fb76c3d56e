//! Long collections: an X search, a timeline, a post's replies or reposters paged until a
//! number, a date or the end, resumable from the last page saved.
//!
//! * `collections/types.rs`: what crosses IPC (the draft, the source, the target, progress);
//! * `collections/run.rs`: paging one on ([`drive`]) through the pipeline, each page under its
//!   own request id and written with its items and next cursor in one transaction, so a page
//!   recorded is never fetched again; pause and cancel between pages ([`Collector`]).
//!
//! This file: starting, listing, stopping and deleting collections, the cost of a draft before
//! it starts, a collection's posts (newest first, paged), their progress as the
//! window shows it (cost from the ledger, the estimated cost to finish from learned rates).

mod run;
mod types;

use chrono::{NaiveDate, Utc};
use sightline_api::request::{
    TwitterRepliesPostRequest, TwitterRetweetersRequest, TwitterSearchRequest,
    TwitterUserPostsRequest,
};
use sightline_api::validation::{day_message, parse_day};
use sightline_api::{ApiRequest, FieldError, Operation};
use sightline_store::{
    CollectionState, NewCollection, RunOutcome, RunOwner, Store, StoredCollection,
};

use crate::errors::CommandError;
use crate::estimate::{cost_check, estimate, CostCheck};
use crate::runs::RunLogEntry;

pub use run::{drive, Collector};
pub use types::{CollectUntil, Collection, CollectionDraft, CollectionPostPage, CollectionSource};

fn gone() -> CommandError {
    CommandError::not_found("That collection no longer exists.")
}

impl CollectionSource {
    fn operation(&self) -> Operation {
        match self {
            Self::Search { .. } => TwitterSearchRequest::OPERATION,
            Self::UserPosts { .. } => TwitterUserPostsRequest::OPERATION,
            Self::Replies { .. } => TwitterRepliesPostRequest::OPERATION,
            Self::Reposters { .. } => TwitterRetweetersRequest::OPERATION,
        }
    }

    /// A name from what it collects, for a draft without one.
    fn default_name(&self) -> String {
        match self {
            Self::Search { request } => format!("Search: {}", request.query.trim()),
            Self::UserPosts { request } => format!(
                "Posts of @{}",
                request.username.trim().trim_start_matches('@')
            ),
            Self::Replies { request } => format!("Replies to {}", request.post_id.trim()),
            Self::Reposters { request } => format!("Reposters of {}", request.id.trim()),
        }
    }

    fn validate(&self) -> Result<(), Vec<FieldError>> {
        match self {
            Self::Search { request } => request.validate(),
            Self::UserPosts { request } => request.validate(),
            Self::Replies { request } => request.validate(),
            Self::Reposters { request } => request.validate(),
        }
    }
}

impl CollectUntil {
    /// The day before which posts end a collection, if it has one.
    pub(crate) fn day(&self) -> Option<NaiveDate> {
        match self {
            Self::Date { date } => parse_day(date.trim()),
            _ => None,
        }
    }
}

/// The most posts (or accounts) a collection may ask for.
pub const MAX_ITEMS: i64 = 100_000;

/// Said of a number of items out of range.
pub fn items_message() -> String {
    format!("Choose a number from 1 to {}.", group_thousands(MAX_ITEMS))
}

/// Said of a collection to a date with no date typed.
pub const DATE_MISSING: &str = "Type the oldest day to collect, as YYYY-MM-DD.";

/// `100,000`.
fn group_thousands(n: i64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A draft's rules, by field (the Collect dialog's twin, `ui/src/lib/collect.ts`, runs the
/// table `tests/fixtures/collection-draft-cases.json` too).
fn check(draft: &CollectionDraft) -> Result<(), CommandError> {
    let mut errors = draft.source.validate().err().unwrap_or_default();
    match &draft.until {
        CollectUntil::Count { items } if !(1..=MAX_ITEMS).contains(items) => {
            errors.push(FieldError::new("items", items_message()))
        }
        CollectUntil::Date { date } if date.trim().is_empty() => {
            errors.push(FieldError::new("date", DATE_MISSING))
        }
        CollectUntil::Date { date } if draft.until.day().is_none() => {
            errors.push(FieldError::new("date", day_message(date.trim())))
        }
        _ => {}
    }
    if matches!(draft.source, CollectionSource::Reposters { .. })
        && matches!(draft.until, CollectUntil::Date { .. })
    {
        errors.push(FieldError::new(
            "date",
            "Reposters come without dates: collect a number of them, or to the end.",
        ));
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(CommandError::invalid(errors))
    }
}

pub(crate) fn unreadable(error: serde_json::Error) -> CommandError {
    CommandError::database(format!("A saved collection could not be read: {error}"))
}

/// The collection as the window shows it, with the estimated cost to reach its number.
pub(crate) async fn collection_of(
    store: &Store,
    stored: StoredCollection,
) -> Result<Collection, CommandError> {
    let source: CollectionSource = serde_json::from_str(&stored.source_json).map_err(unreadable)?;
    let until: CollectUntil = serde_json::from_str(&stored.until_json).map_err(unreadable)?;
    let state = stored.state;
    let estimated_to_finish = match &until {
        CollectUntil::Count { items }
            if !matches!(state, CollectionState::Done | CollectionState::Cancelled) =>
        {
            // X reads are billed per post (per user for reposters): what is left, at the rate.
            let left = (items - stored.items).max(0);
            estimate(store, source.operation(), Some(left))
                .await?
                .amount
        }
        _ => None,
    };
    Ok(Collection {
        id: stored.id,
        name: stored.name,
        source,
        until,
        investigation_id: stored.investigation_id,
        state,
        stop_reason: stored.stop_reason,
        items: stored.items,
        pages: stored.pages,
        cost: stored.cost,
        estimated_to_finish,
        needs_confirmation: stored.needs_confirmation,
        created_at: stored.created_at,
        updated_at: stored.updated_at,
    })
}

/// Collection `id` with its progress (cost from the ledger, the estimate to finish).
pub async fn get(store: &Store, id: i64) -> Result<Collection, CommandError> {
    collection_of(store, store.collection(id).await?.ok_or_else(gone)?).await
}

/// Every collection, with its progress.
pub async fn list(store: &Store) -> Result<Vec<Collection>, CommandError> {
    let mut collections = Vec::new();
    for stored in store.collections().await? {
        collections.push(collection_of(store, stored).await?);
    }
    Ok(collections)
}

/// Saves a new collection, running; [`drive`] then pages it on.
pub async fn create(store: &Store, draft: &CollectionDraft) -> Result<Collection, CommandError> {
    check(draft)?;
    let name = match draft.name.trim() {
        "" => draft.source.default_name(),
        name => name.to_owned(),
    };
    let new = NewCollection {
        name,
        source_json: serde_json::to_string(&draft.source).unwrap_or_default(),
        until_json: serde_json::to_string(&draft.until).unwrap_or_default(),
        investigation_id: draft.investigation_id,
    };
    let id = store.create_collection(&new, Utc::now()).await?;
    get(store, id).await
}

/// Sets a collection that is not being paged now to `state` (a pause or cancel of one that
/// is, is done by [`Collector::stop`] after its current page).
pub(crate) async fn set_state(
    store: &Store,
    id: i64,
    state: CollectionState,
    reason: Option<&str>,
) -> Result<Collection, CommandError> {
    let found = store
        .set_collection_state(id, state, reason, false, Utc::now())
        .await?;
    found.then_some(()).ok_or_else(gone)?;
    get(store, id).await
}

/// At launch: collections left running when the app closed (or crashed) wait, paused, for the
/// user to resume them from their last page saved; nothing is fetched or billed unasked.
/// How many there were.
pub async fn pause_left_running(store: &Store) -> Result<usize, CommandError> {
    let left = store.running_collections().await?;
    for id in &left {
        if let Some(run) = store.open_run(RunOwner::Collection(*id)).await? {
            store
                .finish_run(run.id, RunOutcome::Paused, Some(CLOSED), Utc::now())
                .await?;
        }
        store
            .set_collection_state(
                *id,
                CollectionState::Paused,
                Some(CLOSED),
                false,
                Utc::now(),
            )
            .await?;
    }
    Ok(left.len())
}

const CLOSED: &str =
    "Sightline was closed while collecting; resume to go on from the last page saved.";

/// Drops a collection from the list and its run log; History, the Archive and Spend keep all
/// it fetched.
pub async fn delete(store: &Store, id: i64) -> Result<(), CommandError> {
    store
        .delete_collection(id)
        .await?
        .then_some(())
        .ok_or_else(gone)
}

/// A collection's posts, newest first, `limit` after the post `after` (the last of the page
/// before), or from `offset` when there is none or it is gone. A reposters collection holds
/// accounts, so it lists none.
pub async fn posts(
    store: &Store,
    id: i64,
    after: Option<&str>,
    offset: i64,
    limit: i64,
) -> Result<CollectionPostPage, CommandError> {
    let stored = store.collection(id).await?.ok_or_else(gone)?;
    let source: CollectionSource = serde_json::from_str(&stored.source_json).map_err(unreadable)?;
    if matches!(source, CollectionSource::Reposters { .. }) {
        return Ok(CollectionPostPage {
            posts: Vec::new(),
            total: 0,
        });
    }
    let (posts, total) = store.collection_posts(id, after, offset, limit).await?;
    Ok(CollectionPostPage { posts, total })
}

/// Posts (or accounts) a date or the end is estimated by: its length cannot be known before.
pub const ESTIMATE_PER: i64 = 100;

/// What a draft would cost before it starts, by the rule the monitor form's estimate follows
/// (the latest billed answer's rate times the units, and the budget's verdict on that): for a
/// number, all of it; for a date or the end, [`ESTIMATE_PER`] items.
pub async fn estimate_draft(
    store: &Store,
    draft: &CollectionDraft,
) -> Result<CostCheck, CommandError> {
    let units = match draft.until {
        CollectUntil::Count { items } => items.max(0),
        _ => ESTIMATE_PER,
    };
    Ok(cost_check(store, draft.source.operation(), Some(units)).await?)
}

/// Collection `id`'s run log, the last `limit` runs, newest first.
pub async fn runs(store: &Store, id: i64, limit: i64) -> Result<Vec<RunLogEntry>, CommandError> {
    let runs = store.runs(RunOwner::Collection(id), limit).await?;
    Ok(runs.into_iter().map(crate::runs::log_entry).collect())
}

#[cfg(test)]
mod tests {
    use sightline_api::request::TwitterSearchRequest;

    use super::*;

    /// When a draft stops, checked word for word as the table the Collect dialog runs says.
    #[test]
    fn a_draft_breaks_the_shared_tables_rules_in_the_same_words() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/collection-draft-cases.json"
        );
        let table: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let cases = table["cases"].as_array().unwrap();
        assert!(cases.len() >= 5);
        for case in cases {
            let draft = CollectionDraft {
                name: String::new(),
                source: CollectionSource::Search {
                    request: TwitterSearchRequest::new("#flood"),
                },
                until: serde_json::from_value(case["until"].clone()).unwrap(),
                investigation_id: None,
            };
            let found = match check(&draft) {
                Ok(()) => None,
                Err(CommandError::Invalid { fields, .. }) => {
                    assert_eq!(fields.len(), 1, "{}", case["name"]);
                    Some(fields[0].message.clone())
                }
                Err(other) => panic!("{other:?}"),
            };
            assert_eq!(
                found.as_deref(),
                case["problem"].as_str(),
                "{}",
                case["name"]
            );
        }
    }
}
