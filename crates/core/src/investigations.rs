//! Investigations as the app runs them: names checked field by field, each read and write
//! turned into the one error the UI knows, days of the cost in the display zone, and the
//! "still there?" check — an estimate first, then the investigation's posts re-fetched by id
//! through the pipeline (so every batch is budget-checked, billed, recorded and archived like
//! any request, and filed under the investigation alone, without the posts it fetches) and
//! compared with the copies stored before the re-fetch.
//!
//! The filing of requests sent while an investigation is active happens in the store, inside
//! each request's record transaction (see `sightline_store::investigations`), so every kind
//! of request — plain, paged, streamed, forecast — is filed without the pipeline knowing.

use std::collections::HashMap;

use chrono::Utc;
use rust_decimal::Decimal;
use sightline_api::request::TwitterUrlsRequest;
use sightline_api::{FieldError, Operation};
use sightline_store::{
    CheckItem, CheckOutcome, CheckReport, CheckSummary, FieldChange, Filing, FilingChange,
    InvestigationChanges, InvestigationDetail, InvestigationItem, InvestigationPostPage,
    InvestigationPostQuery, InvestigationSummary, ItemMemberships, NewPost, Store,
};
use sightline_store::{PostSnapshot, MAX_NAME_CHARS};

use crate::errors::CommandError;
use crate::estimate::{per_post_read_check, CostCheck};
use crate::findings::Findable;
use crate::pipeline::{self, budget_verdict, Paging, SendOptions, SendParams};
use crate::session::Session;
use crate::state::AppState;

/// Posts asked for in one still-there request. The contract sets no limit on `urls`; a
/// hundred links keep the request's address about 5 KB long, well within what servers take.
pub const CHECK_BATCH: usize = 100;

/// How many tag suggestions autocomplete offers.
const TAG_SUGGESTIONS: u32 = 10;

fn no_such_investigation() -> CommandError {
    CommandError::not_found("This investigation no longer exists. It may have been deleted.")
}

fn name_error(message: impl Into<String>) -> CommandError {
    CommandError::invalid(vec![FieldError::new("name", message)])
}

/// Said of a name that is empty or only spaces.
pub const NAME_MISSING: &str = "Give the investigation a name.";

/// Said of a name longer than [`MAX_NAME_CHARS`].
pub fn name_too_long() -> String {
    format!("A name can be at most {MAX_NAME_CHARS} characters.")
}

/// What is wrong with a name as typed, before any is looked up: every screen that names an
/// investigation says these words (the UI's twin, generated from here, runs the table
/// `tests/fixtures/investigation-name-cases.json` too).
pub fn name_problem(name: &str) -> Option<String> {
    let name = name.trim();
    if name.is_empty() {
        Some(NAME_MISSING.to_owned())
    } else if name.chars().count() > MAX_NAME_CHARS {
        Some(name_too_long())
    } else {
        None
    }
}

/// Refuses an empty, too long or already used name, naming the field.
async fn check_name(store: &Store, name: &str, except: Option<i64>) -> Result<(), CommandError> {
    if let Some(problem) = name_problem(name) {
        return Err(name_error(problem));
    }
    let name = name.trim();
    if store.investigation_name_taken(name, except).await? {
        return Err(name_error(format!(
            "An investigation named \"{name}\" already exists. Choose another name."
        )));
    }
    Ok(())
}

/// The investigations, with their counts and cost; archived ones only if asked.
pub async fn list(
    store: &Store,
    include_archived: bool,
) -> Result<Vec<InvestigationSummary>, CommandError> {
    Ok(store.investigations(include_archived).await?)
}

/// Investigation `id` as the list shows it; not found in words if it is gone.
pub async fn summary(store: &Store, id: i64) -> Result<InvestigationSummary, CommandError> {
    store
        .investigation(id)
        .await?
        .ok_or_else(no_such_investigation)
}

/// Opens a new investigation; its name must be given, short enough and not taken.
pub async fn create(
    store: &Store,
    name: &str,
    description: &str,
) -> Result<InvestigationSummary, CommandError> {
    check_name(store, name, None).await?;
    let id = store
        .create_investigation(name, description, Utc::now())
        .await?;
    summary(store, id).await
}

/// Renames or re-describes investigation `id` (a new name checked as at creation).
pub async fn update(
    store: &Store,
    id: i64,
    changes: &InvestigationChanges,
) -> Result<InvestigationSummary, CommandError> {
    if let Some(name) = &changes.name {
        check_name(store, name, Some(id)).await?;
    }
    if !store.update_investigation(id, changes, Utc::now()).await? {
        return Err(no_such_investigation());
    }
    summary(store, id).await
}

/// Archives (`true`) or restores investigation `id`; an archived one stops being the active
/// one.
pub async fn archive(
    store: &Store,
    id: i64,
    archived: bool,
) -> Result<InvestigationSummary, CommandError> {
    if !store
        .set_investigation_archived(id, archived, Utc::now())
        .await?
    {
        return Err(no_such_investigation());
    }
    summary(store, id).await
}

/// Shows investigation `id`'s media in full (`true`: no blur, no greyscale) or in safe view,
/// on its page; the rest of the app keeps the setting's view.
pub async fn set_media_full_view(
    store: &Store,
    id: i64,
    full: bool,
) -> Result<InvestigationSummary, CommandError> {
    if !store.set_media_full_view(id, full).await? {
        return Err(no_such_investigation());
    }
    summary(store, id).await
}

/// Deletes investigation `id` with its filing, notes, tags and checks; History, the Archive
/// and the ledger keep everything.
pub async fn delete(store: &Store, id: i64) -> Result<(), CommandError> {
    if !store.delete_investigation(id).await? {
        return Err(no_such_investigation());
    }
    Ok(())
}

/// Everything the investigation's screen opens with; the cost's days in the display zone.
pub async fn detail(store: &Store, id: i64) -> Result<InvestigationDetail, CommandError> {
    store
        .investigation_detail(id, crate::zone::time_zone())
        .await?
        .ok_or_else(no_such_investigation)
}

/// A page of investigation `id`'s posts, with their notes and tags.
pub async fn posts(
    store: &Store,
    id: i64,
    query: &InvestigationPostQuery,
) -> Result<InvestigationPostPage, CommandError> {
    summary(store, id).await?;
    Ok(store.investigation_posts(id, query).await?)
}

/// Files requests and posts under investigation `id`; says how many it changed.
pub async fn add(
    store: &Store,
    id: i64,
    items: &[InvestigationItem],
) -> Result<FilingChange, CommandError> {
    summary(store, id).await?;
    let change = store.add_to_investigation(id, items, Utc::now()).await?;
    // What is filed has its media kept: queued here (cheap; the worker fetches them).
    crate::media::queue::filed_by_hand(store, items).await;
    Ok(change)
}

/// Takes requests and posts out of investigation `id` (they stay in History and the Archive).
pub async fn remove(
    store: &Store,
    id: i64,
    items: &[InvestigationItem],
) -> Result<FilingChange, CommandError> {
    summary(store, id).await?;
    Ok(store
        .remove_from_investigation(id, items, Utc::now())
        .await?)
}

/// Which investigations hold each item, in the order asked (the "Add to" menu's ticks).
pub async fn memberships(
    store: &Store,
    items: &[InvestigationItem],
) -> Result<Vec<ItemMemberships>, CommandError> {
    Ok(store.investigation_memberships(items).await?)
}

/// Sets a filed post's note and/or tags.
pub async fn set_post(
    store: &Store,
    id: i64,
    post_id: &str,
    note: Option<&str>,
    tags: Option<&[String]>,
) -> Result<(), CommandError> {
    if !store
        .set_investigation_post(id, post_id, note, tags)
        .await?
    {
        return Err(CommandError::not_found(
            "This post is no longer in the investigation, so its note and tags were not saved.",
        ));
    }
    Ok(())
}

/// Tags already used in investigation `id` starting with `prefix`, most used first.
pub async fn tag_suggestions(
    store: &Store,
    id: i64,
    prefix: &str,
) -> Result<Vec<String>, CommandError> {
    Ok(store
        .investigation_tag_suggestions(id, prefix, TAG_SUGGESTIONS)
        .await?)
}

/// The investigation every request recorded now is filed under, if any.
pub async fn active(store: &Store) -> Result<Option<i64>, CommandError> {
    Ok(store.active_investigation().await?)
}

/// Makes `id` the active investigation (`None`: none); it must exist and not be archived.
pub async fn set_active(store: &Store, id: Option<i64>) -> Result<(), CommandError> {
    if let Some(id) = id {
        summary(store, id).await?;
    }
    Ok(store.set_active_investigation(id).await?)
}

/// Investigation `id`'s "still there?" checks, newest first.
pub async fn checks(store: &Store, id: i64) -> Result<Vec<CheckSummary>, CommandError> {
    summary(store, id).await?;
    Ok(store.investigation_checks(id, 0).await?)
}

/// One check's report: each post unchanged, changed (and how) or gone.
pub async fn check_report(store: &Store, check_id: i64) -> Result<CheckReport, CommandError> {
    store
        .investigation_check_report(check_id)
        .await?
        .ok_or_else(|| CommandError::not_found("This check no longer exists."))
}

/// What re-fetching every post of the investigation would cost, and the budget's verdict:
/// shown to the user before [`check`] runs.
pub async fn check_estimate(store: &Store, id: i64) -> Result<CostCheck, CommandError> {
    let posts = summary(store, id).await?.post_count;
    refetch_cost(store, posts).await
}

/// Re-fetching is a posts-by-link read; until one has been billed, another X read's rate
/// per post stands in for it.
async fn refetch_cost(store: &Store, posts: i64) -> Result<CostCheck, CommandError> {
    Ok(per_post_read_check(store, Operation::TwitterUrls, posts).await?)
}

/// "Still there?": re-fetches the investigation's posts by id, [`CHECK_BATCH`] at a time,
/// through the pipeline, compares each with the copy stored before, and stores the dated
/// check. The whole check's estimate passes the budget first (a block stops it, a warning
/// needs `send.confirm_budget`); each batch is then checked again, so a block met part way
/// still stops it. Each batch's request is filed under the investigation alone, so its cost
/// counts there; the posts it fetches are filed nowhere (a post that quotes another brings the
/// quoted one too, which the case does not hold). Batch `n` is sent with request id
/// `{send.request_id}-{n}`: a check replayed with the same id returns the check it made, and
/// one cut short (a 429, the network gone) and run again with the same id re-uses the batches
/// it had fetched instead of paying for them again, and sends the failed batch afresh
/// (`batch_request_id`).
pub async fn check(
    state: &AppState,
    session: &Session,
    id: i64,
    send: SendParams,
) -> Result<CheckReport, CommandError> {
    let store = &session.store;
    summary(store, id).await?;
    if let Some(first) = store.history_by_request_id(&batch_id(&send, 0)).await? {
        if let Some(made) = store.investigation_check_that_sent(id, first.id).await? {
            return Ok(made);
        }
    }
    let stored = store.investigation_post_snapshots(id).await?;
    if stored.is_empty() {
        return Err(CommandError::Invalid {
            message: "This investigation has no posts to check yet.".into(),
            fields: Vec::new(),
        });
    }
    let units = i64::try_from(stored.len()).unwrap_or(i64::MAX);
    let whole = refetch_cost(store, units).await?;
    budget_verdict(whole.budget, send.confirm_budget)?;

    let mut fresh: HashMap<String, NewPost> = HashMap::new();
    let mut cost = Decimal::ZERO;
    let mut history_ids = Vec::new();
    for (n, batch) in stored.chunks(CHECK_BATCH).enumerate() {
        let request = TwitterUrlsRequest {
            urls: batch.iter().map(|post| post_link(&post.id)).collect(),
        };
        let options = SendOptions {
            request_id: batch_request_id(store, &send, n).await?,
            // The user accepted the whole check's estimate; a block is still enforced.
            confirm_budget: true,
            paging: Paging::default(),
        };
        // Checking is spending on the investigation: filed there as it begins, so its cost
        // counts there, and under no other (the active one included). What it fetches is
        // not filed: a check reads the case, it never adds to it.
        let filing = Filing::Check {
            investigation_id: id,
        };
        let outcome =
            pipeline::execute_filed(state, session, request, options, None, filing).await?;
        history_ids.push(outcome.history_id);
        cost += match &outcome.billing {
            Some(billing) => pipeline::known_cost(Some(billing)),
            // A batch re-used from a run cut short was paid for this check all the same.
            None if outcome.replayed => pipeline::known_cost(
                store
                    .history_entry(outcome.history_id)
                    .await?
                    .and_then(|entry| entry.billing)
                    .as_ref(),
            ),
            None => Decimal::ZERO,
        };
        for post in outcome.body.findings().posts {
            fresh.insert(post.id.clone(), post);
        }
    }

    let items: Vec<CheckItem> = stored
        .iter()
        .map(|before| compare(before, fresh.get(&before.id)))
        .collect();
    Ok(store
        .save_investigation_check(id, Utc::now(), cost, &history_ids, &items)
        .await?)
}

/// The request id of a check's batch `n`.
fn batch_id(send: &SendParams, n: usize) -> String {
    format!("{}-{n}", send.request_id)
}

/// The id batch `n` is sent with: [`batch_id`] the first time, and again when that request
/// has its answer stored (the pipeline replays it, unpaid). A request that failed has none
/// and would replay its failure: the batch is sent afresh as `{batch_id}.{attempt}`, the
/// first attempt not sent yet, or the first that was answered.
async fn batch_request_id(
    store: &Store,
    send: &SendParams,
    n: usize,
) -> Result<String, CommandError> {
    let first = batch_id(send, n);
    let mut candidate = first.clone();
    for attempt in 1.. {
        match store.history_by_request_id(&candidate).await? {
            None => break,
            Some(entry) if store.result(entry.id).await?.is_some() => break,
            Some(_) => candidate = format!("{first}.{attempt}"),
        }
    }
    Ok(candidate)
}

/// A post's address without its author's handle, which may have changed: X answers
/// `/i/web/status/{id}` for any post.
fn post_link(id: &str) -> String {
    format!("https://x.com/i/web/status/{id}")
}

/// One post's outcome: gone when the service did not return it, changed when its text or any
/// count differs from the stored copy (each difference listed, old → new).
pub fn compare(before: &PostSnapshot, after: Option<&NewPost>) -> CheckItem {
    let Some(after) = after else {
        return CheckItem {
            post_id: before.id.clone(),
            outcome: CheckOutcome::Gone,
            changes: Vec::new(),
        };
    };
    let mut changes = Vec::new();
    let mut differs = |field: &str, old: String, new: String| {
        if old != new {
            changes.push(FieldChange {
                field: field.into(),
                before: old,
                after: new,
            });
        }
    };
    differs("text", before.text.clone(), after.text.clone());
    let counts = [
        ("like_count", before.like_count, after.like_count),
        ("retweet_count", before.retweet_count, after.retweet_count),
        ("reply_count", before.reply_count, after.reply_count),
        ("quote_count", before.quote_count, after.quote_count),
        (
            "bookmark_count",
            before.bookmark_count,
            after.bookmark_count,
        ),
    ];
    for (field, old, new) in counts {
        differs(field, old.to_string(), new.to_string());
    }
    // Views are optional in the service's answer: only a number given is compared.
    if let Some(views) = after.view_count {
        let old = before
            .view_count
            .map_or_else(|| "unknown".to_owned(), |v| v.to_string());
        differs("view_count", old, views.to_string());
    }
    CheckItem {
        post_id: before.id.clone(),
        outcome: if changes.is_empty() {
            CheckOutcome::Unchanged
        } else {
            CheckOutcome::Changed
        },
        changes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The name's rules word for word, from the table the UI runs too.
    #[test]
    fn a_name_breaks_the_shared_tables_rules_in_the_same_words() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/investigation-name-cases.json"
        );
        let table: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let cases = table["cases"].as_array().unwrap();
        assert!(cases.len() >= 5);
        for case in cases {
            let expected = case["problem"].as_str().map(str::to_owned);
            let name = case["input"].as_str().unwrap();
            assert_eq!(name_problem(name), expected, "{}", case["name"]);
        }
    }

    fn stored() -> PostSnapshot {
        PostSnapshot {
            id: "7".into(),
            text: "the ferry left".into(),
            like_count: 3,
            retweet_count: 1,
            reply_count: 0,
            quote_count: 0,
            view_count: Some(90),
            bookmark_count: 0,
        }
    }

    fn fetched(text: &str, likes: i64, views: Option<i64>) -> NewPost {
        NewPost {
            id: "7".into(),
            conversation_id: None,
            author_id: None,
            author_username: "ada".into(),
            author_name: "Ada".into(),
            author_verified: false,
            text: text.into(),
            lang: None,
            created_at: Utc::now(),
            like_count: likes,
            retweet_count: 1,
            reply_count: 0,
            quote_count: 0,
            view_count: views,
            bookmark_count: 0,
            hashtags: Vec::new(),
            url: None,
            raw_json: "{}".into(),
            nested: false,
        }
    }

    #[test]
    fn compares_text_and_counts_with_the_stored_copy() {
        let same = compare(&stored(), Some(&fetched("the ferry left", 3, Some(90))));
        assert_eq!(
            (same.outcome, same.changes.len()),
            (CheckOutcome::Unchanged, 0)
        );
        // Views the answer leaves out are not a change.
        let no_views = compare(&stored(), Some(&fetched("the ferry left", 3, None)));
        assert_eq!(no_views.outcome, CheckOutcome::Unchanged);
        let edited = compare(&stored(), Some(&fetched("the ferry sank", 5, Some(120))));
        assert_eq!(edited.outcome, CheckOutcome::Changed);
        let lines: Vec<(&str, &str, &str)> = edited
            .changes
            .iter()
            .map(|c| (c.field.as_str(), c.before.as_str(), c.after.as_str()))
            .collect();
        assert_eq!(
            lines,
            vec![
                ("text", "the ferry left", "the ferry sank"),
                ("like_count", "3", "5"),
                ("view_count", "90", "120"),
            ]
        );
        assert_eq!(compare(&stored(), None).outcome, CheckOutcome::Gone);
    }
}
