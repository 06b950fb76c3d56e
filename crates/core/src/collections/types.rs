//! What long collections take in and give back across IPC (camelCase, exported to TypeScript).

use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use sightline_api::request::{
    TwitterRepliesPostRequest, TwitterRetweetersRequest, TwitterSearchRequest,
    TwitterUserPostsRequest,
};
use sightline_store::{CollectionState, StoredPost};
use ts_rs::TS;

/// What a collection pages through.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(
    tag = "kind",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
#[ts(export)]
pub enum CollectionSource {
    /// An X search, newest first, each page older than the last (`count` is the page size).
    Search {
        /// The search as the form made it.
        request: TwitterSearchRequest,
    },
    /// An account's timeline, page after page by its cursor.
    UserPosts {
        /// The account whose timeline is paged.
        request: TwitterUserPostsRequest,
    },
    /// A post's replies, newest first, each page older than the last.
    Replies {
        /// The post whose replies are paged.
        request: TwitterRepliesPostRequest,
    },
    /// The users who reposted a post, page after page by its cursor (items are users).
    Reposters {
        /// The post whose reposters are paged.
        request: TwitterRetweetersRequest,
    },
}

/// When a collection stops (besides the budget, a pause or a cancel).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(
    tag = "kind",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
#[ts(export)]
pub enum CollectUntil {
    /// This many distinct items (posts, or users for reposters).
    Count {
        /// How many (1 to 100,000).
        items: i64,
    },
    /// Posts older than this day (`YYYY-MM-DD`, UTC) end it.
    Date {
        /// The oldest day collected, `YYYY-MM-DD`.
        date: String,
    },
    /// The service has no more pages.
    End,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
/// A collection as the form sends it, to start one.
pub struct CollectionDraft {
    /// A name for the list; empty: one is made from the source.
    pub name: String,
    /// What it pages through.
    pub source: CollectionSource,
    /// When it stops.
    pub until: CollectUntil,
    /// Filed under this investigation as it arrives, if given.
    pub investigation_id: Option<i64>,
}

/// A collection as the list and the progress bar show it; also the `collection-progress`
/// event's payload after every page.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct Collection {
    /// Its id in the database, for every command about it.
    pub id: i64,
    /// What the list calls it.
    pub name: String,
    /// What it pages through.
    pub source: CollectionSource,
    /// When it stops.
    pub until: CollectUntil,
    /// The investigation its requests and posts are filed under, if any.
    pub investigation_id: Option<i64>,
    /// Running, paused, done, cancelled, stopped by the budget, or failed.
    pub state: CollectionState,
    /// Why it stopped or waits, in plain words.
    pub stop_reason: Option<String>,
    /// Distinct items collected, each counted once.
    pub items: i64,
    /// Pages recorded (each a request in History).
    pub pages: i64,
    /// Exact, from the ledger rows of its requests.
    #[ts(type = "string")]
    pub cost: Decimal,
    /// From learned rates, for the pages a `Count` target still needs; `None` when unknown
    /// (no rate yet, or a date or the end, whose length cannot be known before).
    #[ts(type = "string | null")]
    pub estimated_to_finish: Option<Decimal>,
    /// A budget warning is waiting: resume with `confirmBudget` to go on.
    pub needs_confirmation: bool,
    /// When it was started.
    pub created_at: DateTime<Utc>,
    /// When it last changed (a page, a state).
    pub updated_at: DateTime<Utc>,
}

/// A page of a collection's posts, newest first, and how many it holds in all.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CollectionPostPage {
    /// This page of posts.
    pub posts: Vec<StoredPost>,
    /// Posts it holds in all (for the list's length); always 0 for reposters (accounts).
    pub total: i64,
}
