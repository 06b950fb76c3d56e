//! Queueing media to keep: the media of a post filed in an investigation (by a request sent
//! while it is active, a monitor's or collection's page filed under it, or by hand), and with
//! Settings' "keep the media of every archived post" on, of every post as it is recorded.
//!
//! A request's own posts' media are queued in its record's transaction ([`to_queue`], then
//! `Store::record_request_with_media`): no crash leaves its posts recorded and their media not
//! queued. Queueing is cheap and never touches the network: each post's record is planned
//! ([`super::plan`], a post without media costs a substring test) and each item is one
//! insert-or-ignore of `media_items` (an item queued before, in any state, is left as it is).
//! The worker ([`super::worker`]) is woken to fetch them. A failure to queue is logged and
//! never fails what was being recorded: the post is kept all the same. Turning the setting on
//! later queues the posts already archived ([`super::backfill`]).

use chrono::Utc;
use sightline_store::{Filing, InvestigationItem, NewMediaItem, NewPost, PostQuery, Store};

use super::plan;
use super::worker;
use crate::state::AppState;

/// Posts read at a time when a filed request's posts are queued.
const PAGE: u32 = 500;

/// The items to queue for a post: one per attached media entry. The plan's address checks
/// are left to the worker, which plans the post again with the service address in force
/// when it fetches (and records why an address is refused).
pub fn items(post_id: &str, raw_json: &str) -> Vec<NewMediaItem> {
    // A post without media names no media address: most posts are passed over unparsed.
    if !raw_json.contains("media_url") {
        return Vec::new();
    }
    plan::plan(raw_json, None)
        .into_iter()
        .map(|planned| NewMediaItem {
            post_id: post_id.to_owned(),
            position: planned.position,
            kind: planned.kind,
            source_url: planned.source_url,
            poster_url: planned.poster_url,
        })
        .collect()
}

/// Queues the media of `posts` (id, record); how many items were new to the queue.
pub async fn posts<'a>(
    store: &Store,
    posts: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> sightline_store::Result<u64> {
    let items: Vec<NewMediaItem> = posts
        .into_iter()
        .flat_map(|(id, raw_json)| items(id, raw_json))
        .collect();
    if items.is_empty() {
        return Ok(0);
    }
    let queued = store.queue_media(&items, Utc::now()).await?;
    if queued > 0 {
        worker::queued();
    }
    Ok(queued)
}

/// The media to queue with a request's record (`Store::record_request_with_media`, so they are
/// written in its transaction): its `posts`' media when the setting keeps every archived post's,
/// or when the request is filed in an investigation (then so are its posts; a still-there
/// check's re-fetch files none). Read before the record, from the filing its row was begun with.
pub async fn to_queue(
    state: &AppState,
    store: &Store,
    history_id: i64,
    posts: &[NewPost],
    filing: Filing,
) -> Vec<NewMediaItem> {
    if posts.is_empty() {
        return Vec::new();
    }
    let keep = state.settings().media_keep_all_archived
        || (filing == Filing::Active && request_filed(store, history_id).await);
    if !keep {
        return Vec::new();
    }
    posts
        .iter()
        .flat_map(|post| items(&post.id, &post.raw_json))
        .collect()
}

/// After media were queued with a record: the worker looks at once.
pub fn queued_with_record(media: &[NewMediaItem]) {
    if !media.is_empty() {
        worker::queued();
    }
}

/// After a monitor's or collection's page is filed under its investigation (or not): the
/// media of the posts it found, when the request is filed in one.
pub async fn page_filed(store: &Store, history_id: i64) {
    if request_filed(store, history_id).await {
        request_posts(store, history_id).await;
    }
}

/// After items are filed by hand: the media of each post, and of every post of each request.
pub async fn filed_by_hand(store: &Store, items: &[InvestigationItem]) {
    for item in items {
        match item {
            InvestigationItem::Request { history_id } => {
                request_posts(store, *history_id).await;
            }
            InvestigationItem::Post { post_id } => {
                let queued = match store.post(post_id).await {
                    Ok(Some(post)) => posts(store, [(post.id.as_str(), post.raw_json.as_str())])
                        .await
                        .map(drop),
                    Ok(None) => Ok(()),
                    Err(error) => Err(error),
                };
                if let Err(error) = queued {
                    tracing::warn!(%error, "a filed post's media could not be queued");
                }
            }
        }
    }
}

/// Whether request `history_id` is filed in any investigation.
async fn request_filed(store: &Store, history_id: i64) -> bool {
    let item = InvestigationItem::Request { history_id };
    match store.investigation_memberships(&[item]).await {
        Ok(found) => found
            .iter()
            .any(|membership| !membership.investigation_ids.is_empty()),
        Err(error) => {
            tracing::warn!(%error, request = history_id, "a request's filing could not be read");
            false
        }
    }
}

/// Queues the media of every post request `history_id` found, a page of posts at a time.
async fn request_posts(store: &Store, history_id: i64) {
    let mut offset = 0;
    loop {
        let query = PostQuery {
            history_ids: vec![history_id],
            limit: PAGE,
            offset,
            ..PostQuery::default()
        };
        let page = match store.posts(&query).await {
            Ok(page) => page,
            Err(error) => {
                tracing::warn!(%error, request = history_id, "a request's posts could not be read");
                return;
            }
        };
        let listed = page
            .iter()
            .map(|post| (post.id.as_str(), post.raw_json.as_str()));
        if let Err(error) = posts(store, listed).await {
            tracing::warn!(%error, request = history_id, "media could not be queued");
            return;
        }
        if page.len() < PAGE as usize {
            return;
        }
        offset += PAGE;
    }
}

/// "Retry failed": every item given up on waits again, due now; the worker fetches them at its
/// own gap and hold, once more each (their tries are spent). How many.
pub async fn retry_failed(store: &Store) -> sightline_store::Result<u64> {
    let retried = store.retry_failed_media(Utc::now()).await?;
    if retried > 0 {
        worker::queued();
    }
    Ok(retried)
}
