//! What an analysis is asked about (a scope, with its time range and the filters a click
//! added) and what each aggregate answers. Every count is exact, over the posts the scope
//! holds; nothing here is sampled or estimated.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::archive::PostQuery;

/// Where a scope's posts come from.
#[derive(Serialize, Deserialize, TS, Clone, Debug)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ScopeSource {
    /// The results on screen: a history row and every later page of its paging chain.
    Request {
        /// The history row whose results (and later pages) are the scope.
        history_id: i64,
    },
    /// The posts filed under an investigation.
    Investigation {
        /// The investigation's id.
        id: i64,
    },
    /// The Archive screen's query (its sort, limit and offset are ignored).
    Archive {
        /// The Archive screen's search.
        query: PostQuery,
    },
}

/// Narrowing added by clicks on the analysis views; every field set must hold.
#[derive(Serialize, Deserialize, TS, Clone, Debug, Default, PartialEq)]
#[serde(default)]
pub struct ScopeFilters {
    /// An author's handle, with or without `@` (case-insensitive).
    pub account: Option<String>,
    /// Without `#` (case-insensitive).
    pub hashtag: Option<String>,
    /// A mentioned handle, with or without `@` (case-insensitive).
    pub mention: Option<String>,
    /// Without `$` (case-insensitive).
    pub cashtag: Option<String>,
    /// A linked site's host name, without `www.` (case-insensitive).
    pub domain: Option<String>,
    /// The post's language code as the service gives it (`en`, `und`).
    pub language: Option<String>,
}

/// The posts an analysis looks at: a source, an optional time range `[from, to)` and filters.
#[derive(Serialize, Deserialize, TS, Clone, Debug)]
pub struct AnalysisScope {
    /// Where the posts come from.
    pub source: ScopeSource,
    /// Only posts written at or after this time.
    #[serde(default)]
    pub from: Option<DateTime<Utc>>,
    /// Only posts written before this time.
    #[serde(default)]
    pub to: Option<DateTime<Utc>>,
    /// The narrowing clicks added.
    #[serde(default)]
    pub filters: ScopeFilters,
}

/// How wide one bar of the activity chart is: chosen from the scope's span (an hour up to 3
/// days, a day up to 92, a week from Monday up to a year, else a month), or asked for.
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Bucket {
    /// An hour of the zone's clock.
    Hour,
    /// A calendar day in the zone.
    Day,
    /// A week from Monday.
    Week,
    /// A calendar month.
    Month,
}

/// The scope named at the top of the analysis: its name, post count and date span.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct ScopeSummary {
    /// In plain words: `X search “floods”`, `Investigation “Harbour fire”`, `Archive`.
    pub name: String,
    /// Posts the scope holds (after the range and filters).
    pub post_count: i64,
    /// The oldest and newest post's time; `None` when the scope is empty.
    pub first: Option<DateTime<Utc>>,
    /// The newest post's time; `None` when the scope is empty.
    pub last: Option<DateTime<Utc>>,
    /// The bucket the activity chart uses for this span unless told: hours up to 3 days.
    pub bucket: Bucket,
}

/// What the activity chart stacks its bars by.
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum StackBy {
    /// By the post's language code.
    Language,
    /// `verified` (X's verified), `blue` (paid blue check only) or `other`.
    AccountKind,
}

/// One stacked layer of the activity chart: one count per bucket.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct ActivityLayer {
    /// The language code, `verified` / `blue` / `other`, `none` for posts without a
    /// language, or `others` for the languages beyond the largest [`ACTIVITY_LAYERS`].
    pub key: String,
    /// Posts in each bucket, in the order of the series' `starts`.
    pub counts: Vec<i64>,
    /// All posts of the layer.
    pub total: i64,
}

/// Languages beyond this many are summed into one `others` layer.
pub const ACTIVITY_LAYERS: usize = 8;

/// Posts per bucket, stacked, with the engagement per bucket as a second line.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct ActivitySeries {
    /// The width of each bar.
    pub bucket: Bucket,
    /// The zone buckets are cut in (an IANA name or `UTC`).
    pub zone: String,
    /// Each bucket's start (every bucket from the first post's to the last's, empty ones too).
    pub starts: Vec<DateTime<Utc>>,
    /// Largest layer first.
    pub layers: Vec<ActivityLayer>,
    /// Posts per bucket (the layers' sum).
    pub totals: Vec<i64>,
    /// Likes + reposts + replies + quotes of the bucket's posts, as last fetched.
    pub engagement: Vec<i64>,
}

/// Posts per weekday and hour in a zone.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct Heatmap {
    /// The zone the cells are in (an IANA name or `UTC`).
    pub zone: String,
    /// `cells[weekday][hour]`, Monday = 0, hours 0–23 on the local clock.
    pub cells: Vec<Vec<i64>>,
    /// Posts in all cells.
    pub total: i64,
}

/// One line of a top list.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct TopEntry {
    /// What a filter takes: a lower-case handle, tag, host or language code.
    pub key: String,
    /// As shown: `@Handle`, `#tag`, `$TAG`, a host, a language code.
    pub label: String,
    /// Posts (or, for accounts by engagement, the engagement of their posts).
    pub count: i64,
}

/// The largest entries of one list, and how many distinct entries there are in all.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Default)]
pub struct TopList {
    /// The largest entries, largest first.
    pub entries: Vec<TopEntry>,
    /// Distinct entries in the whole scope, shown or not.
    pub distinct: i64,
}

/// Which top list.
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum TopKind {
    /// Accounts by how many posts they wrote.
    AccountsByPosts,
    /// Accounts by the likes, reposts, replies and quotes their posts drew.
    AccountsByEngagement,
    /// Hashtags by the posts naming them.
    Hashtags,
    /// Mentioned accounts by the posts mentioning them.
    Mentions,
    /// Cashtags by the posts naming them.
    Cashtags,
    /// Linked sites by the posts linking them.
    Domains,
    /// Languages by their posts.
    Languages,
}

/// Every top list of a scope. Hashtags, mentions, cashtags and domains count posts (a post
/// naming a tag twice counts once).
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq, Default)]
pub struct TopLists {
    /// Accounts by posts written.
    pub accounts_by_posts: TopList,
    /// Accounts by the engagement of their posts.
    pub accounts_by_engagement: TopList,
    /// Hashtags.
    pub hashtags: TopList,
    /// Mentioned accounts.
    pub mentions: TopList,
    /// Cashtags.
    pub cashtags: TopList,
    /// Linked sites (host names without `www.`).
    pub domains: TopList,
    /// Languages.
    pub languages: TopList,
}

/// How one account acted on another. Edges point from the one who acted (replied, quoted,
/// mentioned, reposted) to the one acted on.
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum EdgeKind {
    /// From the reposters already fetched for the scope's posts, and reposts in timelines.
    Repost,
    /// One account replied to a post of the other.
    Reply,
    /// One account quoted a post of the other.
    Quote,
    /// One account named the other in a post.
    Mention,
}

impl EdgeKind {
    /// The word stored and sent over IPC (`repost`, `reply`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Repost => "repost",
            Self::Reply => "reply",
            Self::Quote => "quote",
            Self::Mention => "mention",
        }
    }
}

/// Which edges the network keeps.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
#[serde(default)]
pub struct NetworkQuery {
    /// Empty: every kind.
    pub kinds: Vec<EdgeKind>,
    /// Edges lighter than this are left out (1 keeps all).
    pub min_weight: i64,
    /// At most this many edges, the heaviest; 0 means [`NETWORK_EDGE_LIMIT`].
    pub max_edges: u32,
}

impl Default for NetworkQuery {
    fn default() -> Self {
        Self {
            kinds: Vec::new(),
            min_weight: 1,
            max_edges: 0,
        }
    }
}

/// The default and largest number of edges a network answer carries.
pub const NETWORK_EDGE_LIMIT: u32 = 5_000;

/// An account in the network.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct NetworkNode {
    /// The lower-case handle (edges name nodes by it).
    pub id: String,
    /// `@Handle` as last seen.
    pub label: String,
    /// Posts the account wrote in the scope (0 for one only replied to, quoted, mentioned or
    /// reposting).
    pub posts: i64,
}

/// Interactions of one kind from one account to another.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct NetworkEdge {
    /// The acting account's lower-case handle (a [`NetworkNode::id`]).
    pub source: String,
    /// The account acted on, by its lower-case handle.
    pub target: String,
    /// How the one acted on the other.
    pub kind: EdgeKind,
    /// How many times (posts, or reposts seen).
    pub weight: i64,
    /// The first and last post behind the edge (for a repost: the reposted post's time, as
    /// the service does not say when a repost was made).
    pub first: DateTime<Utc>,
    /// The newest post behind the edge.
    pub last: DateTime<Utc>,
}

/// Accounts and their interactions within a scope.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct Network {
    /// The accounts the kept edges touch.
    pub nodes: Vec<NetworkNode>,
    /// Heaviest first.
    pub edges: Vec<NetworkEdge>,
    /// Edges that passed the kind and weight filter, before `max_edges` cut.
    pub total_edges: i64,
    /// Reposters lists (history rows) the repost edges came from.
    pub reposter_requests: i64,
}

/// How a post hangs in a conversation tree.
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum TreeRelation {
    /// The post asked about, or the highest stored post above it.
    Root,
    /// Replies to its parent.
    Reply,
    /// Quotes its parent.
    Quote,
}

/// One post of a conversation tree, in display order (each after its parent, depth first).
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct ConversationNode {
    /// The post's id.
    pub id: String,
    /// The post this one replies to or quotes; `None` for the root.
    pub parent_id: Option<String>,
    /// Steps below the root (the root is 0).
    pub depth: u32,
    /// How it hangs from its parent.
    pub relation: TreeRelation,
    /// The author's handle, without `@`.
    pub author_username: String,
    /// The author's display name.
    pub author_name: String,
    /// The post's text.
    pub text: String,
    /// When the post was written.
    pub created_at: DateTime<Utc>,
    /// Replies the service counted (the whole thread below the post, replies to replies
    /// included), and how many of them are stored here.
    pub reply_count: i64,
    /// How many of those replies are stored here.
    pub replies_held: i64,
}

/// A post whose replies are not all stored: the service counts more in its thread than are
/// held.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct MissingReplies {
    /// The post whose replies are missing.
    pub post_id: String,
    /// Replies the service counted below it that are not stored.
    pub missing: i64,
    /// The nearest post above this one (up the replies) that misses replies too: its count
    /// holds these, so a total adds only the posts with none above.
    pub within: Option<String>,
    /// The service was asked for this thread since the count was taken (for this post, or for
    /// a post above whose answer held all the service would give) and did not return them:
    /// asking again cannot bring them until the post is seen with a new count.
    pub asked: bool,
    /// A replies request for this post can bring some of them now: not asked, and no post above
    /// is to be fetched (its answer, the whole thread below it, would hold these).
    pub fetch: bool,
}

/// Replies and quotes of a post, as far as they were fetched.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct ConversationTree {
    /// The highest stored post above the one asked for (itself when it starts the thread).
    pub root_id: String,
    /// The tree's posts, each after its parent, depth first.
    pub nodes: Vec<ConversationNode>,
    /// The post the root replies to, when that post is not stored.
    pub root_parent_missing: Option<String>,
    /// Posts of the tree with replies not stored, most missing first.
    pub missing: Vec<MissingReplies>,
}
