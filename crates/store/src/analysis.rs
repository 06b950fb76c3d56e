//! Analysis at no cost: counts over posts Sightline already holds, for a scope (the results of
//! a request and its later pages, an investigation, or an Archive query), narrowed by a time
//! range and by clicks (an account, tag, mention, cashtag, linked domain or language).
//!
//! What the aggregates read is extracted from each post's raw JSON once, as the post is
//! written, by triggers of migration 0008 (`post_facts`: time, author, language, account
//! kind, engagement, the post replied to, quoted or reposted; `post_entities`: tags, mentions,
//! cashtags, linked hosts, each with its post's author and time; `post_reposters`: each reposters list's users, from its stored
//! body). Nothing parses JSON per aggregate. The whole archive's top lists read tallies kept by the
//! triggers of migration 0009 (`author_tally`, `lang_tally`, `entity_tally`), one row per
//! account, language and entity; its activity, heatmap and post count read roll-ups kept by
//! those of migration 0021 (`activity_by_lang`, `activity_by_kind`), one row per UTC quarter
//! hour and language or account kind; its network's reply, quote and mention edges read those
//! of migration 0022 (`edge_tally`, one row per edge, and `edge_weights`, how many edges weigh
//! each weight).
//!
//! * `analysis/types.rs`: the scope and every answer;
//! * `analysis/scope.rs`: a scope as SQL, and its name;
//! * `analysis/aggregates.rs`: summary, activity and heatmap (DST-correct: each post, or for
//!   the whole archive each roll-up's UTC quarter hour, placed on the zone's clock);
//! * `analysis/top.rs`: the top lists (the whole archive read off covering indexes, a narrower
//!   scope tallied in Rust);
//! * `analysis/network.rs`: accounts and their reply, quote, mention and repost edges (the
//!   whole archive's replies, quotes and mentions read off their tallies, its reposts off the
//!   index of the reposts);
//! * `analysis/network_tally.rs`: a narrower scope's network, tallied in Rust from one pass
//!   over its posts;
//! * `analysis/edges.rs`: one kind's edges as both hand them back, and which to keep (heavy
//!   enough, the heaviest so many);
//! * `analysis/conversation.rs`: a post's stored replies and quotes as a tree, with what is
//!   missing;
//! * `analysis/posts.rs`: the scope's posts themselves, newest first, a page at a time;
//! * `analysis/coordination.rs`: what core's coordination finder reads of a scope, a page at
//!   a time (author, time, text, expanded links, hashtags, the post answered or reposted),
//!   and the reposters lists of its posts;
//! * `analysis/media.rs`: the scope's most-shared pictures (exact and near copies as one),
//!   grouped by the media matcher.

mod aggregates;
mod conversation;
mod coordination;
pub(crate) mod edges;
mod media;
pub(crate) mod network;
mod network_tally;
mod posts;
mod scope;
mod top;
mod types;

pub use conversation::{REPLIES_PER_REQUEST, TREE_LIMIT};
pub use coordination::CoordinationRow;
pub use posts::{ScopePostPage, ScopePostQuery, SCOPE_POSTS_MAX_PAGE, SCOPE_POSTS_PAGE};
pub use types::{
    ActivityLayer, ActivitySeries, AnalysisScope, Bucket, ConversationNode, ConversationTree,
    EdgeKind, Heatmap, MissingReplies, Network, NetworkEdge, NetworkNode, NetworkQuery,
    ScopeFilters, ScopeSource, ScopeSummary, StackBy, TopEntry, TopKind, TopList, TopLists,
    TreeRelation, ACTIVITY_LAYERS, NETWORK_EDGE_LIMIT,
};

#[cfg(test)]
mod tests;
