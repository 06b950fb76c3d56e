//! What History and the Archive read, as the screens page it: from disk, no network, no cost.

use serde::Serialize;
use sightline_store::archive::ranked_matches;
use sightline_store::{HistoryEntry, HistoryQuery, PostQuery, Store, StoredPost, StoredResult};
use ts_rs::TS;

use crate::errors::CommandError;

/// One page of History and how many rows match in all.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct HistoryPage {
    pub entries: Vec<HistoryEntry>,
    pub total: i64,
}

pub async fn history_page(
    store: &Store,
    query: &HistoryQuery,
) -> Result<HistoryPage, CommandError> {
    Ok(HistoryPage {
        entries: store.history(query).await?,
        total: store.history_count(query).await?,
    })
}

/// One page of archived posts and how many match in all.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct PostPage {
    pub posts: Vec<StoredPost>,
    pub total: i64,
    /// Set when a relevance search ranked only this many of `total`, the most recently saved.
    pub ranked: Option<i64>,
}

pub async fn post_page(store: &Store, query: &PostQuery) -> Result<PostPage, CommandError> {
    let total = store.posts_count(query).await?;
    Ok(PostPage {
        posts: store.posts(query).await?,
        total,
        ranked: ranked_matches(query, total),
    })
}

/// A past result, re-opened from disk.
pub async fn stored_result(store: &Store, history_id: i64) -> Result<StoredResult, CommandError> {
    store.result(history_id).await?.ok_or_else(|| {
        CommandError::not_found(
            "No stored result for this entry: it failed before any answer arrived, or the disk \
             was too full to keep it.",
        )
    })
}
