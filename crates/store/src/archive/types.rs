//! What the archive takes in (posts, users and links as the app maps them from the service's
//! records), what it gives back (stored items with when they were first and last seen) and
//! the queries over them.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::{Result, StoreError};

/// A point in the archive's life: posts first stored after it are new since then. A post keeps
/// its row number for good and a new one is always numbered above every other (posts are
/// never deleted), so the mark is exact even while other requests store posts too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArchiveMark(pub(crate) i64);

/// A post to archive, mapped by the app from the service's Tweet record.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct NewPost {
    pub id: String,
    pub conversation_id: Option<String>,
    pub author_id: Option<String>,
    pub author_username: String,
    pub author_name: String,
    pub author_verified: bool,
    pub text: String,
    pub lang: Option<String>,
    pub created_at: DateTime<Utc>,
    pub like_count: i64,
    pub retweet_count: i64,
    pub reply_count: i64,
    pub quote_count: i64,
    pub view_count: Option<i64>,
    pub bookmark_count: i64,
    /// Hashtags, with or without the leading `#`.
    pub hashtags: Vec<String>,
    pub url: Option<String>,
    /// The Tweet record exactly as received.
    pub raw_json: String,
    /// Found inside another post of the same answer (the post it quotes or reposts) rather than
    /// as one of the answer's results: archived and traced to its request like any other, but
    /// not part of what the request showed (its analysis scope counts the results alone).
    #[serde(default)]
    pub nested: bool,
}

/// A user to archive, mapped by the app from the service's User record.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct NewUser {
    pub id: String,
    pub username: String,
    pub name: String,
    pub verified: bool,
    pub followers_count: Option<i64>,
    pub description: Option<String>,
    /// The User record exactly as received.
    pub raw_json: String,
}

/// Which search a link result came from.
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "lowercase")]
pub enum LinkSource {
    Web,
    Youtube,
    Hackernews,
    Reddit,
    Wikipedia,
    Arxiv,
}

impl LinkSource {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Web => "web",
            Self::Youtube => "youtube",
            Self::Hackernews => "hackernews",
            Self::Reddit => "reddit",
            Self::Wikipedia => "wikipedia",
            Self::Arxiv => "arxiv",
        }
    }

    pub fn parse(s: &str) -> Result<Self> {
        Ok(match s {
            "web" => Self::Web,
            "youtube" => Self::Youtube,
            "hackernews" => Self::Hackernews,
            "reddit" => Self::Reddit,
            "wikipedia" => Self::Wikipedia,
            "arxiv" => Self::Arxiv,
            other => {
                return Err(StoreError::InvalidInput(format!(
                    "unknown link source {other:?}"
                )))
            }
        })
    }
}

/// A web or link search result to archive.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct NewLink {
    pub source: LinkSource,
    pub title: String,
    pub snippet: String,
    pub link: String,
    /// The service's link-quality score (`HIGH`, `MEDIUM`, `LOW`) when it gave one.
    pub score: Option<String>,
}

/// An archived post.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct StoredPost {
    pub id: String,
    pub conversation_id: Option<String>,
    pub author_id: Option<String>,
    pub author_username: String,
    pub author_name: String,
    pub author_verified: bool,
    pub text: String,
    pub lang: Option<String>,
    pub created_at: DateTime<Utc>,
    pub like_count: i64,
    pub retweet_count: i64,
    pub reply_count: i64,
    pub quote_count: i64,
    pub view_count: Option<i64>,
    pub bookmark_count: i64,
    pub hashtags: Vec<String>,
    pub url: Option<String>,
    pub raw_json: String,
    pub first_seen: DateTime<Utc>,
    pub last_seen: DateTime<Utc>,
}

/// An archived user.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct StoredUser {
    pub id: String,
    pub username: String,
    pub name: String,
    pub verified: bool,
    pub followers_count: Option<i64>,
    pub description: Option<String>,
    pub raw_json: String,
    pub first_seen: DateTime<Utc>,
    pub last_seen: DateTime<Utc>,
}

/// An archived link result.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct StoredLink {
    pub id: i64,
    pub source: LinkSource,
    pub title: String,
    pub snippet: String,
    pub link: String,
    pub score: Option<String>,
    pub first_seen: DateTime<Utc>,
    pub last_seen: DateTime<Utc>,
}

/// Order of archive search results.
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum PostSort {
    /// Best match first (bm25); newest first when there is no search text.
    #[default]
    Relevance,
    Newest,
    Oldest,
}

/// Archive search over posts.
#[derive(Serialize, Deserialize, TS, Clone, Debug, Default)]
#[serde(default)]
pub struct PostQuery {
    /// Words to find in text, author name, handle and hashtags (all must match; `word*` for a
    /// prefix). Empty: browse everything.
    pub text: Option<String>,
    /// Author handle, with or without `@` (case-insensitive).
    pub author: Option<String>,
    /// Posted at or after.
    pub from: Option<DateTime<Utc>>,
    /// Posted before.
    pub to: Option<DateTime<Utc>>,
    pub lang: Option<String>,
    pub min_likes: Option<i64>,
    /// Only posts found by one of these history rows (a post and its replies, say); empty:
    /// every post.
    pub history_ids: Vec<i64>,
    pub sort: PostSort,
    /// Rows per page; 0 means the default of 50.
    pub limit: u32,
    pub offset: u32,
}

/// Archive search over users (handle or name contains the text).
#[derive(Serialize, Deserialize, TS, Clone, Debug, Default)]
#[serde(default)]
pub struct UserQuery {
    pub text: Option<String>,
    pub limit: u32,
    pub offset: u32,
}

/// Archive search over link results (title, snippet or address contains the text).
#[derive(Serialize, Deserialize, TS, Clone, Debug, Default)]
#[serde(default)]
pub struct LinkQuery {
    pub text: Option<String>,
    pub source: Option<LinkSource>,
    /// Only links found by this history row.
    pub history_id: Option<i64>,
    pub limit: u32,
    pub offset: u32,
}
