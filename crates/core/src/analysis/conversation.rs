//! A post's conversation tree from what is stored, and the paid fetch of what it is missing:
//! the post its first post answers, when that was never fetched (one post-by-id request), and
//! one replies-to-a-post request for each post of the tree whose thread the service counts
//! more replies in than are stored, and that a request can still bring (the store says which:
//! not one whose thread was asked for since its count and came back without them, nor one
//! inside a thread fetched with it); estimated and budget-checked as a whole first, then each
//! sent through the pipeline (budget-checked, billed, recorded and archived like any request).
//! Each call fetches one more level, up and down; the tree then shows what came and what is
//! still missing, and the answer says how many of the replies returned were new to the store
//! and how many it held already (counted against a mark taken before anything is sent). No
//! paid fetch is offered that cannot change what the tree shows.

use std::collections::BTreeSet;

use rust_decimal::Decimal;
use serde::Serialize;
use sightline_api::request::{TwitterPostRequest, TwitterRepliesPostRequest};
use sightline_api::Operation;
use sightline_store::REPLIES_PER_REQUEST;
use sightline_store::{ConversationTree, Store};
use ts_rs::TS;

use crate::errors::CommandError;
use crate::estimate::{per_post_read_check, CostCheck};
use crate::pipeline::{self, budget_verdict, Paging, SendOptions, SendParams};
use crate::session::Session;
use crate::state::AppState;

/// At most this many posts have their replies fetched in one go (the most-missing first).
pub const FETCH_POSTS_LIMIT: usize = 50;

/// What fetching the tree's missing replies would take, and the budget's verdict.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct ConversationFetchEstimate {
    /// Requests (one per post with missing replies, at most `FETCH_POSTS_LIMIT`, and one for
    /// the parent).
    pub requests: i64,
    /// Replies asked for in all (the service bills per post returned).
    pub replies: i64,
    /// The post the tree's first post answers, asked for too as it is not stored.
    pub parent: Option<String>,
    /// Their cost from learned rates, and the budget's verdict.
    pub cost: CostCheck,
}

/// What a fetch brought: the tree as it now stands, and what it cost (from the service's
/// answers, exact).
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct ConversationFetch {
    /// The conversation's tree with what the fetch brought.
    pub tree: ConversationTree,
    /// Requests sent (each in History).
    pub requests: i64,
    /// Replies the answers held that were not stored before the fetch (each counted once).
    pub new_replies: i64,
    /// Replies the answers held that were stored already: the service picks which replies it
    /// returns, so a missing one may not be among them.
    pub replies_already_held: i64,
    /// Whether the parent asked for came (`false`: the service no longer has it); `None` when
    /// it was not asked for.
    pub parent_found: Option<bool>,
    #[ts(type = "string")]
    /// What the requests cost, from the service's answers.
    pub cost: Decimal,
}

fn not_stored() -> CommandError {
    CommandError::not_found(
        "This post is not stored, so its conversation cannot be drawn. Open it from a search or \
         a timeline first.",
    )
}

/// The conversation tree around a stored post.
pub async fn conversation(store: &Store, post_id: &str) -> Result<ConversationTree, CommandError> {
    store
        .conversation_tree(post_id)
        .await?
        .ok_or_else(not_stored)
}

/// The requests the missing replies of `tree` need.
fn requests_for(tree: &ConversationTree) -> Vec<TwitterRepliesPostRequest> {
    tree.missing
        .iter()
        .filter(|missing| missing.fetch)
        .take(FETCH_POSTS_LIMIT)
        .filter_map(|missing| {
            let node = tree.nodes.iter().find(|n| n.id == missing.post_id)?;
            Some(TwitterRepliesPostRequest {
                post_id: node.id.clone(),
                // The service answers its own choice of replies, held ones too: ask for them
                // all (up to its maximum), so the missing ones are among them.
                count: node.reply_count.clamp(1, REPLIES_PER_REQUEST),
                query: String::new(),
            })
        })
        .collect()
}

/// Posts billed: the replies asked for, and the parent (X reads are billed per post).
fn units(requests: &[TwitterRepliesPostRequest], parent: Option<&str>) -> i64 {
    requests.iter().map(|r| r.count).sum::<i64>() + i64::from(parent.is_some())
}

fn count(requests: &[TwitterRepliesPostRequest], parent: Option<&str>) -> i64 {
    i64::try_from(requests.len())
        .unwrap_or(i64::MAX)
        .saturating_add(i64::from(parent.is_some()))
}

/// The cost of fetching the tree's missing replies, before anything is sent.
pub async fn conversation_estimate(
    store: &Store,
    post_id: &str,
) -> Result<ConversationFetchEstimate, CommandError> {
    let tree = conversation(store, post_id).await?;
    let requests = requests_for(&tree);
    let parent = tree.root_parent_missing.as_deref();
    Ok(ConversationFetchEstimate {
        requests: count(&requests, parent),
        replies: units(&requests, None),
        parent: parent.map(str::to_owned),
        cost: per_post_read_check(
            store,
            Operation::TwitterRepliesPost,
            units(&requests, parent),
        )
        .await?,
    })
}

/// Fetches what the tree around `post_id` is missing: the post its first post answers, then
/// the missing replies. The whole estimate passes the budget first (a block stops it, a
/// warning needs `send.confirm_budget`); each request is then checked again, so a block met
/// part way stops it. The parent is sent with id `{send.request_id}-parent` and replies
/// request `n` with `{send.request_id}-{n}`, so the same fetch asked twice pays once. A parent
/// the service no longer has does not stop the replies.
pub async fn conversation_fetch(
    state: &AppState,
    session: &Session,
    post_id: &str,
    send: SendParams,
) -> Result<ConversationFetch, CommandError> {
    let store = &session.store;
    let tree = conversation(store, post_id).await?;
    let requests = requests_for(&tree);
    let parent = tree.root_parent_missing.as_deref();
    if requests.is_empty() && parent.is_none() {
        return Err(CommandError::Invalid {
            message: "Nothing more can be fetched for this conversation: every reply the \
                      service counts is stored or was asked for and not returned, and the post \
                      it starts from is stored."
                .into(),
            fields: Vec::new(),
        });
    }
    let whole = per_post_read_check(
        store,
        Operation::TwitterRepliesPost,
        units(&requests, parent),
    )
    .await?;
    budget_verdict(whole.budget, send.confirm_budget)?;

    // What the store held before anything is sent: a reply stored after it is new.
    let mark = store.archive_mark().await?;
    let mut cost = Decimal::ZERO;
    let mut replies = BTreeSet::new();
    let sent = count(&requests, parent);
    let mut parent_found = None;
    if let Some(id) = parent {
        let options = SendOptions {
            request_id: format!("{}-parent", send.request_id),
            confirm_budget: true,
            paging: Paging::default(),
        };
        let request = TwitterPostRequest { id: id.to_owned() };
        match pipeline::execute(state, session, request, options, None).await {
            Ok(outcome) => {
                cost += pipeline::known_cost(outcome.billing.as_ref());
                parent_found = Some(true);
            }
            // Deleted or hidden since: the replies below are still worth fetching.
            Err(CommandError::Service { error, .. }) if error.status == Some(404) => {
                parent_found = Some(false);
            }
            Err(other) => return Err(other),
        }
    }
    for (n, request) in requests.into_iter().enumerate() {
        let options = SendOptions {
            request_id: format!("{}-{n}", send.request_id),
            // The user accepted the whole estimate; a block is still enforced.
            confirm_budget: true,
            paging: Paging::default(),
        };
        let outcome = pipeline::execute(state, session, request, options, None).await?;
        cost += pipeline::known_cost(outcome.billing.as_ref());
        replies.extend(outcome.body.0.into_iter().map(|post| post.id));
    }
    // The parent, when a replies answer holds it too, is counted as the parent only.
    if let Some(id) = parent {
        replies.remove(id);
    }
    let replies: Vec<String> = replies.into_iter().collect();
    let new_replies = store.posts_new_since(mark, &replies).await?;
    Ok(ConversationFetch {
        tree: conversation(store, post_id).await?,
        requests: sent,
        new_replies,
        replies_already_held: i64::try_from(replies.len()).unwrap_or(i64::MAX) - new_replies,
        parent_found,
        cost,
    })
}
