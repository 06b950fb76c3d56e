//! What History, the Archive and Spend read, as the screens page it, and the few changes they
//! make (a pin, a deletion, the budget): from disk, no network, no cost. Spend's days are the
//! display zone's ([`crate::zone::time_zone`]), as everywhere a local day is counted.

use chrono::{NaiveDate, Utc};
use serde::Serialize;
use sightline_store::ranked_matches;
use sightline_store::{
    BudgetLimits, DaySpend, HistoryEntry, HistoryQuery, LearnedRate, LedgerEntry, LinkQuery,
    PostQuery, SpendBreakdown, SpendDimension, SpendTotals, Store, StoredLink, StoredPost,
    StoredResult,
};
use ts_rs::TS;

use crate::errors::CommandError;
use crate::zone::time_zone;

/// One page of History and how many rows match in all.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct HistoryPage {
    /// This page's rows, newest first.
    pub entries: Vec<HistoryEntry>,
    /// Rows matching the query in all (for the list's length).
    pub total: i64,
}

/// A page of History as `query` filters it, with the matching count.
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
    /// This page's posts, in the query's order.
    pub posts: Vec<StoredPost>,
    /// Posts matching the query in all.
    pub total: i64,
    /// Set when a relevance search ranked only this many of `total`, the most recently saved.
    pub ranked: Option<i64>,
}

/// A page of the Archive's posts as `query` filters and orders them, with the matching count.
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

/// Pins or unpins a history entry (a pinned one is kept when old entries are cleared).
pub async fn pin(store: &Store, history_id: i64, pinned: bool) -> Result<(), CommandError> {
    store.set_pinned(history_id, pinned).await?;
    Ok(())
}

/// Deletes a history entry; the ledger keeps what it cost.
pub async fn delete(store: &Store, history_id: i64) -> Result<(), CommandError> {
    store.delete_history(history_id).await?;
    Ok(())
}

/// The Archive's links.
pub async fn links(store: &Store, query: &LinkQuery) -> Result<Vec<StoredLink>, CommandError> {
    Ok(store.links(query).await?)
}

/// Spend's totals: today and this month are the display zone's, as of now.
pub async fn spend_totals(store: &Store) -> Result<SpendTotals, CommandError> {
    Ok(store.spend_totals(time_zone(), Utc::now()).await?)
}

/// Spend per local day (the display zone's), `first..=last`.
pub async fn spend_by_day(
    store: &Store,
    first: NaiveDate,
    last: NaiveDate,
) -> Result<Vec<DaySpend>, CommandError> {
    Ok(store.spend_by_day(time_zone(), first, last).await?)
}

/// Spend by one dimension, over local days `first..=last`, or all time when either is missing.
pub async fn spend_breakdown(
    store: &Store,
    dimension: SpendDimension,
    first: Option<NaiveDate>,
    last: Option<NaiveDate>,
) -> Result<SpendBreakdown, CommandError> {
    Ok(store
        .spend_breakdown(dimension, time_zone(), first.zip(last))
        .await?)
}

/// The ledger row by row, local days `first..=last` (the display zone's), or all of it when
/// either is missing.
pub async fn ledger(
    store: &Store,
    first: Option<NaiveDate>,
    last: Option<NaiveDate>,
) -> Result<Vec<LedgerEntry>, CommandError> {
    Ok(store.ledger(time_zone(), first.zip(last)).await?)
}

/// What each operation has cost per unit so far, for estimates.
pub async fn learned_rates(store: &Store) -> Result<Vec<LearnedRate>, CommandError> {
    Ok(store.learned_rates().await?)
}

/// The budget's limits and warning thresholds as saved.
pub async fn budget(store: &Store) -> Result<BudgetLimits, CommandError> {
    Ok(store.budget().await?)
}

/// Saves the budget (the store checks its limits) and answers it as saved.
pub async fn set_budget(store: &Store, limits: BudgetLimits) -> Result<BudgetLimits, CommandError> {
    store.set_budget(&limits).await?;
    Ok(limits)
}
