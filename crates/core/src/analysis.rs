//! Analysis at no cost, over posts already stored: the scope's summary, activity over time,
//! the posting heatmap, top lists and the network (all counted by the store, see
//! `sightline_store::analysis`), the scope's posts themselves a page at a time, a post's
//! conversation tree and the paid fetch of what it is missing (its replies, and the post its
//! first post answers) through the pipeline (`analysis/conversation.rs`), the most-shared
//! pictures (`analysis/pictures.rs`: exact and near copies as one, with their posts), and the
//! exports: GEXF, the edge CSV and every table as CSV (`analysis/export.rs`).

mod conversation;
pub mod export;
mod pictures;

use serde::Deserialize;
use sightline_store::{
    ActivitySeries, AnalysisScope, Bucket, Heatmap, Network, NetworkQuery, ScopePostPage,
    ScopePostQuery, ScopeSummary, StackBy, Store, TopLists, Tz,
};
use ts_rs::TS;

pub use conversation::{
    conversation, conversation_estimate, conversation_fetch, ConversationFetch,
    ConversationFetchEstimate,
};
pub use pictures::{shared_pictures, SharedPictureEntry, SharedPictures, SHARED_PICTURES_DEFAULT};

use crate::errors::CommandError;

/// Top list entries when the caller does not say.
pub const TOP_DEFAULT: u32 = 20;

/// The zone a chart is drawn in: the display zone when `None`, else an IANA name or `UTC`.
pub fn chart_zone(name: Option<&str>) -> Result<Tz, CommandError> {
    match name.map(str::trim).filter(|n| !n.is_empty()) {
        None => Ok(crate::zone::time_zone()),
        Some(name) => crate::zone::parse_zone(name).ok_or_else(|| CommandError::Invalid {
            message: format!(
                "“{name}” is not a time zone Sightline knows. Pick one from the list, or UTC."
            ),
            fields: Vec::new(),
        }),
    }
}

fn gone() -> CommandError {
    CommandError::NotFound {
        message: "What this analysis looked at is no longer stored: the request was deleted from \
                  History, or the investigation was deleted."
            .into(),
    }
}

/// The scope's name, post count and date span.
pub async fn summary(store: &Store, scope: &AnalysisScope) -> Result<ScopeSummary, CommandError> {
    store.analysis_summary(scope).await?.ok_or_else(gone)
}

/// What the activity chart asks for: its layers, its bucket (from the span when `None`) and
/// its zone (the display zone when `None`).
#[derive(Debug, Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct ActivityOptions {
    /// What the bars are stacked by: language, or kind of account.
    pub stack_by: StackBy,
    #[serde(default)]
    /// The bars' width in time; `None`: chosen from the scope's span.
    pub bucket: Option<Bucket>,
    #[serde(default)]
    /// An IANA zone name or `UTC`; `None`: the display zone.
    pub zone: Option<String>,
}

/// The activity chart: the scope's posts per bucket, stacked as asked, in the asked zone.
pub async fn activity(
    store: &Store,
    scope: &AnalysisScope,
    options: &ActivityOptions,
) -> Result<ActivitySeries, CommandError> {
    let tz = chart_zone(options.zone.as_deref())?;
    store
        .analysis_activity(scope, options.stack_by, options.bucket, tz)
        .await?
        .ok_or_else(gone)
}

/// The heatmap: the scope's posts by weekday and hour in `zone` (the display zone when `None`).
pub async fn heatmap(
    store: &Store,
    scope: &AnalysisScope,
    zone: Option<&str>,
) -> Result<Heatmap, CommandError> {
    let tz = chart_zone(zone)?;
    store.analysis_heatmap(scope, tz).await?.ok_or_else(gone)
}

/// Every top list of the scope (accounts, hashtags, mentions, cashtags, sites, languages),
/// each up to `limit` entries ([`TOP_DEFAULT`] when `None`).
pub async fn top(
    store: &Store,
    scope: &AnalysisScope,
    limit: Option<u32>,
) -> Result<TopLists, CommandError> {
    store
        .analysis_top(scope, limit.unwrap_or(TOP_DEFAULT))
        .await?
        .ok_or_else(gone)
}

/// The network of accounts in the scope (replies, quotes, reposts, mentions), as `query` filters it.
pub async fn network(
    store: &Store,
    scope: &AnalysisScope,
    query: &NetworkQuery,
) -> Result<Network, CommandError> {
    store.analysis_network(scope, query).await?.ok_or_else(gone)
}

/// A page of the scope's posts, newest first, with how many it holds in all.
pub async fn posts(
    store: &Store,
    scope: &AnalysisScope,
    page: ScopePostQuery,
) -> Result<ScopePostPage, CommandError> {
    store.analysis_posts(scope, &page).await?.ok_or_else(gone)
}
