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
    /// The service's post id (digits, kept as text: 19 digits do not fit a JavaScript number).
    pub id: String,
    /// The id of the post that started its thread, when the service gave one.
    pub conversation_id: Option<String>,
    /// The author's account id, when the service gave one.
    pub author_id: Option<String>,
    /// The author's handle, without `@`.
    pub author_username: String,
    /// The author's display name.
    pub author_name: String,
    /// Whether X shows the author as verified.
    pub author_verified: bool,
    /// The post's full text.
    pub text: String,
    /// The language code the service detected (`en`, `und`).
    pub lang: Option<String>,
    /// When the post was written.
    pub created_at: DateTime<Utc>,
    /// Likes, as counted when fetched.
    pub like_count: i64,
    /// Reposts, as counted when fetched.
    pub retweet_count: i64,
    /// Replies in the whole thread below, as counted when fetched.
    pub reply_count: i64,
    /// Quotes, as counted when fetched.
    pub quote_count: i64,
    /// Views, when the service reports them.
    pub view_count: Option<i64>,
    /// Bookmarks, as counted when fetched.
    pub bookmark_count: i64,
    /// Hashtags, with or without the leading `#`.
    pub hashtags: Vec<String>,
    /// The post's address on X, when the service gave one.
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
    /// The service's user id.
    pub id: String,
    /// The handle, without `@`.
    pub username: String,
    /// The display name.
    pub name: String,
    /// Whether X shows the account as verified.
    pub verified: bool,
    /// Followers, when the service reports them.
    pub followers_count: Option<i64>,
    /// The profile's bio.
    pub description: Option<String>,
    /// The User record exactly as received.
    pub raw_json: String,
}

/// Which search a link result came from.
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[serde(rename_all = "lowercase")]
pub enum LinkSource {
    /// A general web search.
    Web,
    /// YouTube.
    Youtube,
    /// Hacker News.
    Hackernews,
    /// Reddit.
    Reddit,
    /// Wikipedia.
    Wikipedia,
    /// arXiv.
    Arxiv,
}

impl LinkSource {
    /// The word stored in the database and sent over IPC.
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

    /// Reads a stored word back; an unknown word is an error, never a guess.
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
    /// The search it came from.
    pub source: LinkSource,
    /// The page's title.
    pub title: String,
    /// The search engine's extract of the page.
    pub snippet: String,
    /// The page's address.
    pub link: String,
    /// The service's link-quality score (`HIGH`, `MEDIUM`, `LOW`) when it gave one.
    pub score: Option<String>,
}

/// An archived post.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct StoredPost {
    /// The service's post id.
    pub id: String,
    /// The id of the post that started its thread.
    pub conversation_id: Option<String>,
    /// The author's account id.
    pub author_id: Option<String>,
    /// The author's handle, without `@`.
    pub author_username: String,
    /// The author's display name.
    pub author_name: String,
    /// Whether X showed the author as verified when last fetched.
    pub author_verified: bool,
    /// The post's full text.
    pub text: String,
    /// The language code the service detected.
    pub lang: Option<String>,
    /// When the post was written.
    pub created_at: DateTime<Utc>,
    /// Likes, as last fetched.
    pub like_count: i64,
    /// Reposts, as last fetched.
    pub retweet_count: i64,
    /// Replies in the thread below, as last fetched.
    pub reply_count: i64,
    /// Quotes, as last fetched.
    pub quote_count: i64,
    /// Views, when the service reported them.
    pub view_count: Option<i64>,
    /// Bookmarks, as last fetched.
    pub bookmark_count: i64,
    /// Hashtags, without `#`.
    pub hashtags: Vec<String>,
    /// The post's address on X.
    pub url: Option<String>,
    /// The service's record exactly as last received.
    pub raw_json: String,
    /// When any request first stored the post.
    pub first_seen: DateTime<Utc>,
    /// When a request last fetched it (its counts are from then).
    pub last_seen: DateTime<Utc>,
}

/// An archived user.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct StoredUser {
    /// The service's user id.
    pub id: String,
    /// The handle, without `@`.
    pub username: String,
    /// The display name.
    pub name: String,
    /// Whether X showed the account as verified when last fetched.
    pub verified: bool,
    /// Followers, when reported.
    pub followers_count: Option<i64>,
    /// The profile's bio.
    pub description: Option<String>,
    /// The service's record exactly as last received.
    pub raw_json: String,
    /// When any request first stored the user.
    pub first_seen: DateTime<Utc>,
    /// When a request last fetched the user.
    pub last_seen: DateTime<Utc>,
}

/// An archived link result.
#[derive(Serialize, Deserialize, TS, Clone, Debug, PartialEq)]
pub struct StoredLink {
    /// The row id (link results have no id of their own).
    pub id: i64,
    /// The search it came from.
    pub source: LinkSource,
    /// The page's title.
    pub title: String,
    /// The search engine's extract.
    pub snippet: String,
    /// The page's address.
    pub link: String,
    /// The service's quality score (`HIGH`, `MEDIUM`, `LOW`), when it gave one.
    pub score: Option<String>,
    /// When any request first stored the link.
    pub first_seen: DateTime<Utc>,
    /// When a request last found it.
    pub last_seen: DateTime<Utc>,
}

/// Order of archive search results.
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum PostSort {
    /// Best match first (bm25); newest first when there is no search text.
    #[default]
    Relevance,
    /// Newest post first.
    Newest,
    /// Oldest post first.
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
    /// Only posts in this language code.
    pub lang: Option<String>,
    /// Only posts with at least this many likes.
    pub min_likes: Option<i64>,
    /// Only posts found by one of these history rows (a post and its replies, say); empty:
    /// every post.
    pub history_ids: Vec<i64>,
    /// The order of the rows.
    pub sort: PostSort,
    /// Rows per page; 0 means the default of 50.
    pub limit: u32,
    /// Rows to skip (paging), when there is no `after` post to page from.
    pub offset: u32,
    /// The last post of the page before (its id), in an order by time (newest, oldest, or no
    /// words to rank): the page is the posts after it, found by its time in the index (keyset
    /// paging) rather than by skipping `offset` posts, which reads every post skipped.
    /// `offset` counts when that post is gone, and for a ranked search, whose pages are cut
    /// from a window of matches ranked as a whole.
    pub after: Option<String>,
}

/// Archive search over users (handle or name contains the text).
#[derive(Serialize, Deserialize, TS, Clone, Debug, Default)]
#[serde(default)]
pub struct UserQuery {
    /// Words the handle or name contains; empty: every user.
    pub text: Option<String>,
    /// Rows per page; 0 means the default of 50.
    pub limit: u32,
    /// Rows to skip (paging), when there is no `after` user to page from.
    pub offset: u32,
    /// The last user of the page before (their id): the page is the users after them, found by
    /// their last fetch in the index (keyset paging) rather than by skipping `offset` users.
    /// `offset` counts when that user is gone.
    pub after: Option<String>,
}

/// Archive search over link results (title, snippet or address contains the text).
#[derive(Serialize, Deserialize, TS, Clone, Debug, Default)]
#[serde(default)]
pub struct LinkQuery {
    /// Words the title, snippet or address contains; empty: every link.
    pub text: Option<String>,
    /// Only links from this search.
    pub source: Option<LinkSource>,
    /// Only links found by this history row.
    pub history_id: Option<i64>,
    /// Rows per page; 0 means the default of 50.
    pub limit: u32,
    /// Rows to skip (paging), when there is no `after` link to page from.
    pub offset: u32,
    /// The last link of the page before (its id): the page is the links after it, found by
    /// its last sighting in the index (keyset paging) rather than by skipping `offset` links.
    /// `offset` counts when that link is gone.
    pub after: Option<i64>,
}
