//! The archive: every post, user and web/link result ever fetched, deduplicated, with the raw
//! JSON as received (so a re-opened item renders exactly as fetched) and a full-text index over
//! posts. It is the app's offline memory.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::sqlite::SqliteRow;
use sqlx::{QueryBuilder, Row, Sqlite, SqliteConnection};
use ts_rs::TS;

use crate::error::{Result, StoreError};
use crate::history::{entry_from_row, like_pattern, HistoryEntry};
use crate::time::{from_ms, to_ms};
use crate::Store;

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

fn page_size(limit: u32, default: u32) -> i64 {
    i64::from(if limit == 0 { default } else { limit })
}

/// Hashtags are stored space-separated without `#`, so the FTS index sees plain words.
fn join_hashtags(tags: &[String]) -> String {
    tags.iter()
        .map(|t| t.trim().trim_start_matches('#'))
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Turns what a user typed into a safe FTS5 query: every word is a quoted string (so `AND`,
/// `-`, `:` or quotes are plain text), all words must match, and a trailing `*` keeps its
/// prefix meaning. `None` when nothing searchable is left.
pub(crate) fn fts_match_expression(input: &str) -> Option<String> {
    let terms: Vec<String> = input
        .split_whitespace()
        .filter_map(|word| {
            let (stem, prefix) = match word.strip_suffix('*') {
                Some(stem) => (stem, true),
                None => (word, false),
            };
            if !stem.chars().any(char::is_alphanumeric) {
                return None;
            }
            let quoted = format!("\"{}\"", stem.replace('"', "\"\""));
            Some(if prefix { format!("{quoted}*") } else { quoted })
        })
        .collect();
    (!terms.is_empty()).then(|| terms.join(" "))
}

/// Posts per multi-row statement: 20 parameters a post, under SQLite's 32,766.
const POST_CHUNK: usize = 1_600;

/// Sightings per multi-row statement (two parameters a row).
const SIGHTING_CHUNK: usize = 1_000;

const POST_COLUMNS_IN: &str = "id, conversation_id, author_id, author_username, author_name, \
    author_verified, text, lang, created_at, like_count, retweet_count, reply_count, \
    quote_count, view_count, bookmark_count, hashtags, url, raw_json";

/// The latest copy of a post wins (metrics, raw record); a value missing from it keeps the
/// known one.
const POST_UPSERT: &str = " ON CONFLICT (id) DO UPDATE SET
    conversation_id = excluded.conversation_id, author_id = excluded.author_id,
    author_username = excluded.author_username, author_name = excluded.author_name,
    author_verified = excluded.author_verified, text = excluded.text,
    lang = excluded.lang, created_at = excluded.created_at,
    like_count = excluded.like_count, retweet_count = excluded.retweet_count,
    reply_count = excluded.reply_count, quote_count = excluded.quote_count,
    view_count = COALESCE(excluded.view_count, view_count),
    bookmark_count = excluded.bookmark_count, hashtags = excluded.hashtags,
    url = COALESCE(excluded.url, url), raw_json = excluded.raw_json,
    first_seen = min(first_seen, excluded.first_seen),
    last_seen = max(last_seen, excluded.last_seen)";

/// `INSERT INTO <table> (<columns>) VALUES (...), ...` for a chunk of posts; `extra` are
/// the values of the trailing columns, bound for every row.
fn push_post_values<'a>(sql: &mut QueryBuilder<'a, Sqlite>, chunk: &'a [NewPost], extra: &[i64]) {
    sql.push_values(chunk, |mut row, p| {
        row.push_bind(p.id.as_str())
            .push_bind(p.conversation_id.as_deref())
            .push_bind(p.author_id.as_deref())
            .push_bind(p.author_username.as_str())
            .push_bind(p.author_name.as_str())
            .push_bind(p.author_verified)
            .push_bind(p.text.as_str())
            .push_bind(p.lang.as_deref())
            .push_bind(to_ms(p.created_at))
            .push_bind(p.like_count)
            .push_bind(p.retweet_count)
            .push_bind(p.reply_count)
            .push_bind(p.quote_count)
            .push_bind(p.view_count)
            .push_bind(p.bookmark_count)
            .push_bind(join_hashtags(&p.hashtags))
            .push_bind(p.url.as_deref())
            .push_bind(p.raw_json.as_str());
        for value in extra {
            row.push_bind(*value);
        }
    });
}

/// Upserts posts (new ones are indexed for full-text search by the `posts_fts_insert`
/// trigger) and, for a request, records that it found them.
///
/// The upsert is one statement whatever the batch size, because FTS5 writes the terms it
/// holds in memory out as a new index segment whenever a statement opens a savepoint: one
/// statement per 100 posts made one segment per 100 posts, and then paid to merge them
/// (half the cost of an import). Up to [`POST_CHUNK`] posts go straight in; a larger batch is
/// first copied into a temporary table in chunks (no index, no trigger), then upserted from
/// it in one statement, in order, so a post repeated in the batch ends as its last copy.
pub(crate) async fn write_posts(
    conn: &mut SqliteConnection,
    history_id: Option<i64>,
    seen_at: i64,
    posts: &[NewPost],
) -> Result<()> {
    if posts.is_empty() {
        return Ok(());
    }
    let returning = if history_id.is_some() {
        " RETURNING pk"
    } else {
        ""
    };
    let mut sql;
    if posts.len() <= POST_CHUNK {
        sql = QueryBuilder::<Sqlite>::new(format!(
            "INSERT INTO posts ({POST_COLUMNS_IN}, first_seen, last_seen) "
        ));
        push_post_values(&mut sql, posts, &[seen_at, seen_at]);
    } else {
        sqlx::query(&format!(
            "CREATE TEMP TABLE IF NOT EXISTS post_stage (seq INTEGER PRIMARY KEY, {POST_COLUMNS_IN})"
        ))
        .execute(&mut *conn)
        .await?;
        for chunk in posts.chunks(POST_CHUNK) {
            let mut stage = QueryBuilder::<Sqlite>::new(format!(
                "INSERT INTO temp.post_stage ({POST_COLUMNS_IN}) "
            ));
            push_post_values(&mut stage, chunk, &[]);
            stage.build().execute(&mut *conn).await?;
        }
        sql = QueryBuilder::<Sqlite>::new(format!(
            "INSERT INTO posts ({POST_COLUMNS_IN}, first_seen, last_seen)
             SELECT {POST_COLUMNS_IN}, "
        ));
        sql.push_bind(seen_at)
            .push(", ")
            .push_bind(seen_at)
            .push(" FROM temp.post_stage WHERE true ORDER BY seq");
    }
    sql.push(POST_UPSERT).push(returning);
    let pks: Vec<i64> = if history_id.is_some() {
        sql.build_query_scalar().fetch_all(&mut *conn).await?
    } else {
        sql.build().execute(&mut *conn).await?;
        Vec::new()
    };
    if posts.len() > POST_CHUNK {
        sqlx::query("DELETE FROM temp.post_stage")
            .execute(&mut *conn)
            .await?;
    }
    if let Some(history_id) = history_id {
        for chunk in pks.chunks(SIGHTING_CHUNK) {
            let mut sql = QueryBuilder::<Sqlite>::new(
                "INSERT OR IGNORE INTO post_sightings (post_pk, history_id) ",
            );
            sql.push_values(chunk, |mut row, pk| {
                row.push_bind(*pk).push_bind(history_id);
            });
            sql.build().execute(&mut *conn).await?;
        }
    }
    Ok(())
}

pub(crate) async fn write_users(
    conn: &mut SqliteConnection,
    seen_at: i64,
    users: &[NewUser],
) -> Result<()> {
    for u in users {
        sqlx::query(
            "INSERT INTO users (id, username, name, verified, followers_count, description,
                 raw_json, first_seen, last_seen)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
             ON CONFLICT (id) DO UPDATE SET
                 username = excluded.username, name = excluded.name,
                 verified = excluded.verified,
                 followers_count = COALESCE(excluded.followers_count, followers_count),
                 description = COALESCE(excluded.description, description),
                 raw_json = excluded.raw_json,
                 first_seen = min(first_seen, excluded.first_seen),
                 last_seen = max(last_seen, excluded.last_seen)",
        )
        .bind(&u.id)
        .bind(&u.username)
        .bind(&u.name)
        .bind(u.verified)
        .bind(u.followers_count)
        .bind(&u.description)
        .bind(&u.raw_json)
        .bind(seen_at)
        .bind(seen_at)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

pub(crate) async fn write_links(
    conn: &mut SqliteConnection,
    history_id: Option<i64>,
    seen_at: i64,
    links: &[NewLink],
) -> Result<()> {
    for l in links {
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO links (source, link, title, snippet, score, first_seen, last_seen)
             VALUES (?, ?, ?, ?, ?, ?, ?)
             ON CONFLICT (source, link) DO UPDATE SET
                 title = excluded.title, snippet = excluded.snippet,
                 score = COALESCE(excluded.score, score),
                 first_seen = min(first_seen, excluded.first_seen),
                 last_seen = max(last_seen, excluded.last_seen)
             RETURNING id",
        )
        .bind(l.source.as_str())
        .bind(&l.link)
        .bind(&l.title)
        .bind(&l.snippet)
        .bind(&l.score)
        .bind(seen_at)
        .bind(seen_at)
        .fetch_one(&mut *conn)
        .await?;
        if let Some(history_id) = history_id {
            sqlx::query("INSERT OR IGNORE INTO link_sightings (link_id, history_id) VALUES (?, ?)")
                .bind(id)
                .bind(history_id)
                .execute(&mut *conn)
                .await?;
        }
    }
    Ok(())
}

const POST_COLUMNS: &str = "p.id, p.conversation_id, p.author_id, p.author_username, \
    p.author_name, p.author_verified, p.text, p.lang, p.created_at, p.like_count, \
    p.retweet_count, p.reply_count, p.quote_count, p.view_count, p.bookmark_count, p.hashtags, \
    p.url, p.raw_json, p.first_seen, p.last_seen";

fn post_from_row(row: &SqliteRow) -> Result<StoredPost> {
    let hashtags: String = row.try_get("hashtags")?;
    Ok(StoredPost {
        id: row.try_get("id")?,
        conversation_id: row.try_get("conversation_id")?,
        author_id: row.try_get("author_id")?,
        author_username: row.try_get("author_username")?,
        author_name: row.try_get("author_name")?,
        author_verified: row.try_get("author_verified")?,
        text: row.try_get("text")?,
        lang: row.try_get("lang")?,
        created_at: from_ms(row.try_get("created_at")?),
        like_count: row.try_get("like_count")?,
        retweet_count: row.try_get("retweet_count")?,
        reply_count: row.try_get("reply_count")?,
        quote_count: row.try_get("quote_count")?,
        view_count: row.try_get("view_count")?,
        bookmark_count: row.try_get("bookmark_count")?,
        hashtags: hashtags.split_whitespace().map(str::to_owned).collect(),
        url: row.try_get("url")?,
        raw_json: row.try_get("raw_json")?,
        first_seen: from_ms(row.try_get("first_seen")?),
        last_seen: from_ms(row.try_get("last_seen")?),
    })
}

fn user_from_row(row: &SqliteRow) -> Result<StoredUser> {
    Ok(StoredUser {
        id: row.try_get("id")?,
        username: row.try_get("username")?,
        name: row.try_get("name")?,
        verified: row.try_get("verified")?,
        followers_count: row.try_get("followers_count")?,
        description: row.try_get("description")?,
        raw_json: row.try_get("raw_json")?,
        first_seen: from_ms(row.try_get("first_seen")?),
        last_seen: from_ms(row.try_get("last_seen")?),
    })
}

fn link_from_row(row: &SqliteRow) -> Result<StoredLink> {
    Ok(StoredLink {
        id: row.try_get("id")?,
        source: LinkSource::parse(row.try_get("source")?)?,
        title: row.try_get("title")?,
        snippet: row.try_get("snippet")?,
        link: row.try_get("link")?,
        score: row.try_get("score")?,
        first_seen: from_ms(row.try_get("first_seen")?),
        last_seen: from_ms(row.try_get("last_seen")?),
    })
}

/// How a post search reaches its rows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Plan {
    /// No search text: the posts table and its indexes.
    Browse,
    /// Start from the full-text index, so SQLite only visits matching posts.
    FromIndex,
    /// Walk posts in time order and keep those in the full-text match set. For time-sorted
    /// searches of common words: the first page is found after a short walk, instead of
    /// fetching and sorting every one of tens of thousands of matches.
    WalkByTime,
}

/// The author handle to filter on (without `@`), if any.
fn author_filter(q: &PostQuery) -> Option<&str> {
    q.author
        .as_deref()
        .map(|a| a.trim().trim_start_matches('@'))
        .filter(|a| !a.is_empty())
}

/// Relevance ranks at most this many matches, the most recently saved ones. bm25 costs about a
/// microsecond per match (more for a prefix, whose terms are merged per post) and has no cheaper
/// exact path: ranking a word found in 60,000 posts took 50 ms, a prefix matching 19,000 took
/// 21 ms. A window of 10,000 keeps any search's first page near 10 ms. Newest and oldest
/// first, counts and exports still reach every match, and a filter narrows the matches before
/// the window is taken. [`ranked_matches`] tells the UI when the window applies.
pub const RELEVANCE_WINDOW: u32 = 10_000;

/// How many of `total` matches a relevance search ranked, when the window left some out.
pub fn ranked_matches(q: &PostQuery, total: i64) -> Option<i64> {
    let window = i64::from(RELEVANCE_WINDOW);
    let ranked =
        q.sort == PostSort::Relevance && q.text.as_deref().and_then(fts_match_expression).is_some();
    (ranked && total > window).then_some(window)
}

/// Whether the query filters on columns of `posts` (so a full-text search must read them).
fn has_post_conditions(q: &PostQuery) -> bool {
    author_filter(q).is_some()
        || q.from.is_some()
        || q.to.is_some()
        || q.lang.is_some()
        || q.min_likes.is_some()
}

/// Builds the FROM/WHERE part shared by the search and its count. Starting from the index,
/// `posts p` is joined only when `with_posts` (its columns are selected or filtered on):
/// a row read per match is most of what counting or ranking a common word would cost.
fn push_post_filters(
    sql: &mut QueryBuilder<'_, Sqlite>,
    q: &PostQuery,
    plan: Plan,
    with_posts: bool,
) {
    let matched = q.text.as_deref().and_then(fts_match_expression);
    match (plan, matched) {
        (Plan::FromIndex, Some(expr)) => {
            debug_assert!(with_posts || !has_post_conditions(q));
            sql.push(" FROM posts_fts");
            if with_posts {
                sql.push(" JOIN posts p ON p.pk = posts_fts.rowid");
            }
            push_sighting_join(sql, q, "posts_fts.rowid");
            sql.push(" WHERE posts_fts MATCH ").push_bind(expr);
        }
        (Plan::WalkByTime, Some(expr)) => {
            sql.push(" FROM posts p INDEXED BY posts_created");
            push_sighting_join(sql, q, "p.pk");
            sql.push(" WHERE p.pk IN (SELECT rowid FROM posts_fts WHERE posts_fts MATCH ")
                .push_bind(expr)
                .push(")");
        }
        _ => {
            sql.push(" FROM posts p");
            push_sighting_join(sql, q, "p.pk");
            sql.push(" WHERE 1 = 1");
        }
    }
    if let Some(author) = author_filter(q) {
        sql.push(" AND p.author_username = ")
            .push_bind(author.to_owned())
            .push(" COLLATE NOCASE");
    }
    if let Some(from) = q.from {
        sql.push(" AND p.created_at >= ").push_bind(to_ms(from));
    }
    if let Some(to) = q.to {
        sql.push(" AND p.created_at < ").push_bind(to_ms(to));
    }
    if let Some(lang) = &q.lang {
        sql.push(" AND p.lang = ").push_bind(lang.clone());
    }
    if let Some(min) = q.min_likes {
        sql.push(" AND p.like_count >= ").push_bind(min);
    }
}

/// Joins the posts the query's history rows found, each once even when several found it;
/// the few sightings drive the query instead of a walk over every post.
fn push_sighting_join(sql: &mut QueryBuilder<'_, Sqlite>, q: &PostQuery, post_pk: &str) {
    if q.history_ids.is_empty() {
        return;
    }
    sql.push(" JOIN (SELECT DISTINCT post_pk FROM post_sightings WHERE history_id IN (");
    let mut ids = sql.separated(", ");
    for id in &q.history_ids {
        ids.push_bind(*id);
    }
    sql.push(format!(")) AS s ON s.post_pk = {post_pk}"));
}

impl Store {
    /// Archives posts outside a request (imports); one transaction for the whole batch.
    pub async fn archive_posts(&self, seen_at: DateTime<Utc>, posts: &[NewPost]) -> Result<()> {
        let mut tx = self.begin_write().await?;
        write_posts(&mut tx, None, to_ms(seen_at), posts).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Searches the post archive.
    pub async fn posts(&self, q: &PostQuery) -> Result<Vec<StoredPost>> {
        let plan = self.plan(q).await?;
        let mut sql;
        if (q.sort, plan) == (PostSort::Relevance, Plan::FromIndex) {
            // Take the window of most recently saved matches (FTS5 walks its index backwards,
            // ranking nothing yet), rank those, keep the page, then read the page's posts.
            // `rank` is bm25 with per-column weights (configured in the migration); ties go to
            // the older row, as FTS5's own `ORDER BY rank` left them. Sorting by `rank, rowid`
            // keeps only the page while ranking (FTS5's own sort keeps every match with its
            // positions, ~40% slower), and posts are read for the page only unless a filter
            // needs them.
            sql = QueryBuilder::<Sqlite>::new(format!(
                "SELECT {POST_COLUMNS} FROM (
                     SELECT hit_pk, hit_rank FROM (
                         SELECT posts_fts.rowid AS hit_pk, posts_fts.rank AS hit_rank"
            ));
            push_post_filters(&mut sql, q, plan, has_post_conditions(q));
            sql.push(" ORDER BY posts_fts.rowid DESC LIMIT ")
                .push_bind(i64::from(RELEVANCE_WINDOW))
                .push(") ORDER BY hit_rank, hit_pk LIMIT ")
                .push_bind(page_size(q.limit, 50))
                .push(" OFFSET ")
                .push_bind(i64::from(q.offset))
                .push(
                    ") AS hit JOIN posts p ON p.pk = hit.hit_pk ORDER BY hit.hit_rank, hit.hit_pk",
                );
        } else {
            sql = QueryBuilder::<Sqlite>::new(format!("SELECT {POST_COLUMNS}"));
            push_post_filters(&mut sql, q, plan, true);
            // Ties are broken in the order of the `posts_created` index, so no extra sort.
            sql.push(match q.sort {
                PostSort::Relevance | PostSort::Newest => " ORDER BY p.created_at DESC, p.pk ASC",
                PostSort::Oldest => " ORDER BY p.created_at ASC, p.pk DESC",
            });
            sql.push(" LIMIT ").push_bind(page_size(q.limit, 50));
            sql.push(" OFFSET ").push_bind(i64::from(q.offset));
        }
        let rows = sql.build().fetch_all(&self.pool).await?;
        rows.iter().map(post_from_row).collect()
    }

    /// Chooses how to run a search. Walking by time pays off when matches are dense: about
    /// `50 * posts / matches` index entries are read for a page, against one random row read
    /// per match when starting from the index.
    async fn plan(&self, q: &PostQuery) -> Result<Plan> {
        let Some(expr) = q.text.as_deref().and_then(fts_match_expression) else {
            return Ok(Plan::Browse);
        };
        // Relevance ranks from the index (see RELEVANCE_WINDOW); a request's or an author's
        // posts are few.
        if q.sort == PostSort::Relevance || !q.history_ids.is_empty() || q.author.is_some() {
            return Ok(Plan::FromIndex);
        }
        let (matches, posts): (i64, i64) = sqlx::query_as(
            "SELECT (SELECT count(*) FROM posts_fts WHERE posts_fts MATCH ?),
                    (SELECT COALESCE(max(pk), 0) FROM posts)",
        )
        .bind(expr)
        .fetch_one(&self.pool)
        .await?;
        Ok(
            if matches.saturating_mul(matches) > posts.saturating_mul(5) {
                Plan::WalkByTime
            } else {
                Plan::FromIndex
            },
        )
    }

    /// How many posts match (ignores sort, limit and offset).
    pub async fn posts_count(&self, q: &PostQuery) -> Result<i64> {
        let plan = match q.text.as_deref().and_then(fts_match_expression) {
            Some(_) => Plan::FromIndex,
            None => Plan::Browse,
        };
        let mut sql = QueryBuilder::<Sqlite>::new("SELECT count(*)");
        push_post_filters(&mut sql, q, plan, has_post_conditions(q));
        Ok(sql.build_query_scalar().fetch_one(&self.pool).await?)
    }

    /// One archived post by the service's id.
    pub async fn post(&self, id: &str) -> Result<Option<StoredPost>> {
        let row = sqlx::query(&format!(
            "SELECT {POST_COLUMNS} FROM posts p WHERE p.id = ?"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(post_from_row).transpose()
    }

    /// The requests that found a post, newest first.
    pub async fn post_found_by(&self, id: &str) -> Result<Vec<HistoryEntry>> {
        let rows = sqlx::query(
            "SELECT h.id, h.request_id, h.started_at, h.operation, h.params_json, h.key_label,
                 h.mode, h.status, h.error_class, h.error_message, h.duration_ms, h.result_count,
                 h.cost_nanos, h.usage_count, h.service, h.currency, h.cursor, h.next_cursor,
                 h.parent_id, h.pinned,
                 EXISTS (SELECT 1 FROM results r WHERE r.history_id = h.id) AS has_result
             FROM posts p JOIN post_sightings s ON s.post_pk = p.pk
                 JOIN history h ON h.id = s.history_id
             WHERE p.id = ? ORDER BY h.started_at DESC",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(entry_from_row).collect()
    }

    /// Searches archived users by handle or name.
    pub async fn users(&self, q: &UserQuery) -> Result<Vec<StoredUser>> {
        let mut sql = QueryBuilder::<Sqlite>::new(
            "SELECT id, username, name, verified, followers_count, description, raw_json,
                 first_seen, last_seen FROM users WHERE 1 = 1",
        );
        if let Some(text) = q.text.as_deref().map(|t| t.trim().trim_start_matches('@')) {
            if !text.is_empty() {
                let pattern = like_pattern(text);
                sql.push(" AND (username LIKE ")
                    .push_bind(pattern.clone())
                    .push(" ESCAPE '\\' OR name LIKE ")
                    .push_bind(pattern)
                    .push(" ESCAPE '\\')");
            }
        }
        sql.push(" ORDER BY last_seen DESC, username LIMIT ")
            .push_bind(page_size(q.limit, 50));
        sql.push(" OFFSET ").push_bind(i64::from(q.offset));
        let rows = sql.build().fetch_all(&self.pool).await?;
        rows.iter().map(user_from_row).collect()
    }

    /// One archived user by the service's id.
    pub async fn user(&self, id: &str) -> Result<Option<StoredUser>> {
        let row = sqlx::query(
            "SELECT id, username, name, verified, followers_count, description, raw_json,
                 first_seen, last_seen FROM users WHERE id = ?",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(user_from_row).transpose()
    }

    /// Searches archived link results, most recently seen first.
    pub async fn links(&self, q: &LinkQuery) -> Result<Vec<StoredLink>> {
        let mut sql = QueryBuilder::<Sqlite>::new(
            "SELECT l.id, l.source, l.title, l.snippet, l.link, l.score, l.first_seen, l.last_seen
             FROM links l",
        );
        if let Some(history_id) = q.history_id {
            sql.push(" JOIN link_sightings s ON s.link_id = l.id AND s.history_id = ")
                .push_bind(history_id);
        }
        sql.push(" WHERE 1 = 1");
        if let Some(source) = q.source {
            sql.push(" AND l.source = ").push_bind(source.as_str());
        }
        if let Some(text) = q.text.as_deref().map(str::trim).filter(|t| !t.is_empty()) {
            let pattern = like_pattern(text);
            sql.push(" AND (l.title LIKE ")
                .push_bind(pattern.clone())
                .push(" ESCAPE '\\' OR l.snippet LIKE ")
                .push_bind(pattern.clone())
                .push(" ESCAPE '\\' OR l.link LIKE ")
                .push_bind(pattern)
                .push(" ESCAPE '\\')");
        }
        sql.push(" ORDER BY l.last_seen DESC, l.id DESC LIMIT ")
            .push_bind(page_size(q.limit, 50));
        sql.push(" OFFSET ").push_bind(i64::from(q.offset));
        let rows = sql.build().fetch_all(&self.pool).await?;
        rows.iter().map(link_from_row).collect()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::history::tests::record;
    use crate::test_support::temp_store;
    use chrono::TimeZone;

    pub(crate) fn post(id: &str, text: &str, created_at: DateTime<Utc>) -> NewPost {
        NewPost {
            id: id.into(),
            conversation_id: Some(id.into()),
            author_id: Some("u1".into()),
            author_username: "ada".into(),
            author_name: "Ada Lovelace".into(),
            author_verified: true,
            text: text.into(),
            lang: Some("en".into()),
            created_at,
            like_count: 10,
            retweet_count: 2,
            reply_count: 1,
            quote_count: 0,
            view_count: Some(1000),
            bookmark_count: 0,
            hashtags: vec![],
            url: Some(format!("https://x.com/ada/status/{id}")),
            raw_json: format!(r#"{{"id":"{id}","text":{}}}"#, serde_json::json!(text)),
        }
    }

    pub(crate) fn link(url: &str) -> NewLink {
        NewLink {
            source: LinkSource::Web,
            title: "Example page".into(),
            snippet: "An example snippet".into(),
            link: url.into(),
            score: None,
        }
    }

    fn day(d: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 3, d, 12, 0, 0).unwrap()
    }

    fn ids(posts: Vec<StoredPost>) -> Vec<String> {
        posts.into_iter().map(|p| p.id).collect()
    }

    #[test]
    fn match_expressions_are_safe() {
        assert_eq!(
            fts_match_expression("solar eclipse").unwrap(),
            r#""solar" "eclipse""#
        );
        assert_eq!(fts_match_expression("ecl*").unwrap(), r#""ecl"*"#);
        assert_eq!(
            fts_match_expression(r#"say "hi" OR -x"#).unwrap(),
            r#""say" """hi""" "OR" "-x""#
        );
        assert_eq!(fts_match_expression("  - * "), None);
        assert_eq!(fts_match_expression(""), None);
    }

    async fn seeded() -> (Store, tempfile::TempDir, i64, i64) {
        let (store, dir) = temp_store().await;
        let mut a = post("1", "Total solar eclipse over the Andes", day(1));
        a.hashtags = vec!["#eclipse".into(), "astro".into()];
        a.like_count = 500;
        let mut b = post("2", "Lunar eclipse tonight, clear skies", day(2));
        b.author_username = "grace".into();
        b.author_name = "Grace Hopper".into();
        b.lang = Some("es".into());
        b.like_count = 5;
        let mut c = post("3", "Café opening in Zürich", day(3));
        c.like_count = 50;
        let mut d = post("4", "Nothing to see; the eclipse is tomorrow", day(4));
        d.author_username = "Eclipse_Fan".into();
        d.author_name = "Eclipse Fan".into();

        let mut r1 = record("r1", day(5));
        r1.posts = vec![a.clone(), b.clone()];
        let h1 = store.record_request(&r1).await.unwrap().history_id();
        let mut r2 = record("r2", day(6));
        r2.posts = vec![b, c, d];
        let h2 = store.record_request(&r2).await.unwrap().history_id();
        (store, dir, h1, h2)
    }

    #[tokio::test]
    async fn posts_are_deduplicated_with_latest_metrics_and_sightings() {
        let (store, _dir, h1, h2) = seeded().await;
        assert_eq!(store.posts_count(&PostQuery::default()).await.unwrap(), 4);
        let b = store.post("2").await.unwrap().unwrap();
        assert_eq!(b.first_seen, day(5));
        assert_eq!(b.last_seen, day(6));
        let found: Vec<i64> = store
            .post_found_by("2")
            .await
            .unwrap()
            .into_iter()
            .map(|e| e.id)
            .collect();
        assert_eq!(found, [h2, h1]);

        // Seen again later with new metrics: the latest are kept, first_seen stays.
        let mut again = post("2", "Lunar eclipse tonight, clear skies", day(2));
        again.like_count = 99;
        again.view_count = None;
        let mut r3 = record("r3", day(7));
        r3.posts = vec![again];
        store.record_request(&r3).await.unwrap();
        let b = store.post("2").await.unwrap().unwrap();
        assert_eq!(b.like_count, 99);
        assert_eq!(
            b.view_count,
            Some(1000),
            "a missing view count keeps the known one"
        );
        assert_eq!((b.first_seen, b.last_seen), (day(5), day(7)));
        assert_eq!(store.post_found_by("2").await.unwrap().len(), 3);
    }

    #[tokio::test]
    async fn large_pages_with_repeated_posts_are_archived_across_chunks() {
        // A page, and batches big enough to be staged through the temporary table.
        for n in [250, POST_CHUNK + 1, 2 * POST_CHUNK + 7] {
            for via_request in [true, false] {
                let (store, _dir) = temp_store().await;
                let mut posts: Vec<NewPost> = (0..n)
                    .map(|i| post(&format!("p{i}"), &format!("page post {i}"), day(1)))
                    .collect();
                // The same post again later in the batch (across a chunk boundary), with new
                // text and metrics and without a view count or address: the later copy wins,
                // the known view count and address stay.
                let mut repeat = post("p5", "edited words", day(1));
                repeat.like_count = 77;
                repeat.view_count = None;
                repeat.url = None;
                posts.insert(n - 3, repeat);
                let h = if via_request {
                    let mut r = record("big", day(2));
                    r.posts = posts;
                    Some(store.record_request(&r).await.unwrap().history_id())
                } else {
                    store.archive_posts(day(2), &posts).await.unwrap();
                    None
                };
                let all = store.posts_count(&PostQuery::default()).await.unwrap();
                assert_eq!(all, n as i64);
                if let Some(h) = h {
                    let found = PostQuery {
                        history_ids: vec![h],
                        ..Default::default()
                    };
                    assert_eq!(store.posts_count(&found).await.unwrap(), n as i64);
                }
                let p5 = store.post("p5").await.unwrap().unwrap();
                assert_eq!((p5.like_count, p5.text.as_str()), (77, "edited words"));
                assert_eq!(p5.view_count, Some(1000));
                assert_eq!(p5.url.as_deref(), Some("https://x.com/ada/status/p5"));
                let search = |text: &str| PostQuery {
                    text: Some(text.into()),
                    ..Default::default()
                };
                assert_eq!(
                    store.posts_count(&search("page")).await.unwrap(),
                    n as i64 - 1
                );
                assert_eq!(ids(store.posts(&search("edited")).await.unwrap()), ["p5"]);
                sqlx::query("INSERT INTO posts_fts (posts_fts) VALUES ('integrity-check')")
                    .execute(&store.pool)
                    .await
                    .unwrap();
                // The staging table is left empty for the next batch.
                store
                    .archive_posts(day(3), &[post("later", "later", day(3))])
                    .await
                    .unwrap();
                assert_eq!(
                    store.posts_count(&PostQuery::default()).await.unwrap(),
                    all + 1
                );
            }
        }
    }

    #[tokio::test]
    async fn full_text_search_covers_text_author_handle_and_hashtags() {
        let (store, _dir, _, _) = seeded().await;
        let search = |text: &str| PostQuery {
            text: Some(text.into()),
            ..Default::default()
        };
        let mut found = ids(store.posts(&search("eclipse")).await.unwrap());
        found.sort();
        assert_eq!(found, ["1", "2", "4"]);
        assert_eq!(ids(store.posts(&search("grace")).await.unwrap()), ["2"]);
        assert_eq!(ids(store.posts(&search("astro")).await.unwrap()), ["1"]);
        assert_eq!(ids(store.posts(&search("#astro")).await.unwrap()), ["1"]);
        // Diacritics are folded; prefixes work; all words must match.
        assert_eq!(
            ids(store.posts(&search("cafe zurich")).await.unwrap()),
            ["3"]
        );
        assert_eq!(ids(store.posts(&search("zür*")).await.unwrap()), ["3"]);
        assert!(store
            .posts(&search("eclipse zurich"))
            .await
            .unwrap()
            .is_empty());
        // Operator words are plain words, not syntax errors.
        assert!(store.posts(&search("NOT AND OR")).await.unwrap().is_empty());
        assert_eq!(store.posts_count(&search("eclipse")).await.unwrap(), 3);
    }

    #[tokio::test]
    async fn relevance_prefers_author_and_hashtag_hits() {
        let (store, _dir, _, _) = seeded().await;
        let q = PostQuery {
            text: Some("eclipse".into()),
            sort: PostSort::Relevance,
            ..Default::default()
        };
        let ranked = ids(store.posts(&q).await.unwrap());
        // Post 4 has it in text, name and handle; post 1 in text and hashtag; post 2 in text only.
        assert_eq!(ranked, ["4", "1", "2"]);
    }

    #[tokio::test]
    async fn relevance_pages_equal_fts5_rank_order_with_ties_by_age() {
        let (store, _dir) = temp_store().await;
        // Few words, short texts: many equal scores, repeats, hashtag and author hits.
        let words = [
            "comet", "comets", "comet", "orbit", "night", "sky", "comical", "or",
        ];
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = move |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        let posts: Vec<NewPost> = (0..600)
            .map(|i| {
                let len = 2 + next(6) as usize;
                let text: Vec<&str> = (0..len).map(|_| words[next(8) as usize]).collect();
                let mut p = post(&format!("p{i}"), &text.join(" "), day(1 + (i % 20) as u32));
                if next(5) == 0 {
                    p.hashtags = vec![words[next(8) as usize].into()];
                }
                if next(7) == 0 {
                    p.author_name = "Comet Watcher".into();
                }
                p.lang = Some(["en", "es"][next(2) as usize].into());
                p
            })
            .collect();
        store.archive_posts(day(25), &posts).await.unwrap();

        let reference = |expr: String, lang: Option<&str>, limit: i64, offset: i64| {
            // The previous query: FTS5 sorts by its configured rank itself.
            let store = store.clone();
            let lang = lang.map(str::to_owned);
            async move {
                let mut sql = QueryBuilder::<Sqlite>::new(
                    "SELECT p.id FROM posts_fts JOIN posts p ON p.pk = posts_fts.rowid
                     WHERE posts_fts MATCH ",
                );
                sql.push_bind(expr);
                if let Some(lang) = lang {
                    sql.push(" AND p.lang = ").push_bind(lang);
                }
                sql.push(" ORDER BY posts_fts.rank LIMIT ")
                    .push_bind(limit)
                    .push(" OFFSET ")
                    .push_bind(offset);
                let ids: Vec<String> = sql
                    .build_query_scalar()
                    .fetch_all(&store.pool)
                    .await
                    .unwrap();
                ids
            }
        };
        let mut checked_ties = false;
        for text in [
            "comet",
            "comet sky",
            "com*",
            "or*",
            "orbit night",
            "#comet",
            "watcher",
        ] {
            for lang in [None, Some("es")] {
                for (limit, offset) in [(50, 0), (7, 3), (500, 0)] {
                    let q = PostQuery {
                        text: Some(text.into()),
                        lang: lang.map(str::to_owned),
                        sort: PostSort::Relevance,
                        limit,
                        offset,
                        ..Default::default()
                    };
                    let got = ids(store.posts(&q).await.unwrap());
                    let expr = fts_match_expression(text).unwrap();
                    let expected = reference(expr.clone(), lang, limit.into(), offset.into()).await;
                    assert_eq!(got, expected, "{text} {lang:?} {limit}/{offset}");
                    assert_eq!(
                        store
                            .posts_count(&PostQuery {
                                limit: 0,
                                offset: 0,
                                ..q.clone()
                            })
                            .await
                            .unwrap(),
                        reference(expr.clone(), lang, 10_000, 0).await.len() as i64
                    );
                    // Equal scores come oldest row first.
                    let scores: Vec<(f64, i64)> = sqlx::query_as(
                        "SELECT rank, rowid FROM posts_fts WHERE posts_fts MATCH ? ORDER BY rank, rowid",
                    )
                    .bind(&expr)
                    .fetch_all(&store.pool)
                    .await
                    .unwrap();
                    checked_ties |= scores.windows(2).any(|w| w[0].0 == w[1].0);
                }
            }
        }
        assert!(checked_ties, "the corpus has equal scores");
    }

    #[tokio::test]
    async fn relevance_ranks_the_most_recently_saved_window_of_a_common_word() {
        let (store, _dir) = temp_store().await;
        // The first 100 saved are the best hits (word in the hashtag, short text); then enough
        // ordinary hits to push them out of the window.
        let best: Vec<NewPost> = (0..100)
            .map(|i| {
                let mut p = post(&format!("best{i}"), "comet", day(1));
                p.hashtags = vec!["comet".into()];
                p
            })
            .collect();
        store.archive_posts(day(2), &best).await.unwrap();
        let window = RELEVANCE_WINDOW as usize;
        let ordinary: Vec<NewPost> = (0..window)
            .map(|i| {
                let filler = ["seen", "tonight", "over", "the", "hills"][..1 + i % 5].join(" ");
                post(&format!("o{i}"), &format!("comet {filler}"), day(3))
            })
            .collect();
        store.archive_posts(day(4), &ordinary).await.unwrap();

        let q = PostQuery {
            text: Some("comet".into()),
            sort: PostSort::Relevance,
            ..Default::default()
        };
        let total = store.posts_count(&q).await.unwrap();
        assert_eq!(total, (window + 100) as i64);
        assert_eq!(ranked_matches(&q, total), Some(i64::from(RELEVANCE_WINDOW)));
        // Ranked within the window: its best are the shortest ordinary posts, in FTS5's order.
        let page = ids(store.posts(&q).await.unwrap());
        assert!(page.iter().all(|id| id.starts_with('o')), "{page:?}");
        let window_order: Vec<String> = sqlx::query_scalar(
            "SELECT p.id FROM posts_fts JOIN posts p ON p.pk = posts_fts.rowid
             WHERE posts_fts MATCH 'comet' AND posts_fts.rowid > 100
             ORDER BY posts_fts.rank, posts_fts.rowid LIMIT 50",
        )
        .fetch_all(&store.pool)
        .await
        .unwrap();
        assert_eq!(page, window_order);
        // The last page of the window ends at its size; nothing past it is ranked.
        let beyond = PostQuery {
            offset: RELEVANCE_WINDOW - 10,
            ..q.clone()
        };
        assert_eq!(store.posts(&beyond).await.unwrap().len(), 10);

        // A filter narrows the matches before the window is taken: the older best hits rank.
        let older = PostQuery {
            to: Some(day(2)),
            ..q.clone()
        };
        let total = store.posts_count(&older).await.unwrap();
        assert_eq!((total, ranked_matches(&older, total)), (100, None));
        assert_eq!(store.posts(&older).await.unwrap().len(), 50);
        // Sorting by time still reaches every match.
        let oldest = PostQuery {
            sort: PostSort::Oldest,
            ..q.clone()
        };
        assert!(ids(store.posts(&oldest).await.unwrap())[0].starts_with("best"));
        assert_eq!(ranked_matches(&oldest, total), None);
    }

    #[tokio::test]
    async fn prefix_search_ranks_by_where_the_word_is() {
        let (store, _dir) = temp_store().await;
        let mut tagged = post("tagged", "tail of light", day(1));
        tagged.hashtags = vec!["comical".into()];
        let in_text = post("in_text", "comical tail of", day(2));
        let mut by_name = post("by_name", "tail of light", day(3));
        by_name.author_name = "Comics Daily".into();
        let other = post("other", "nothing common here", day(4));
        store
            .archive_posts(day(5), &[in_text, other, by_name, tagged])
            .await
            .unwrap();
        let q = PostQuery {
            text: Some("comi*".into()),
            ..Default::default()
        };
        // Hashtag (weight 3) before author name (2) before text (1), lengths alike.
        assert_eq!(
            ids(store.posts(&q).await.unwrap()),
            ["tagged", "by_name", "in_text"]
        );
        assert_eq!(store.posts_count(&q).await.unwrap(), 3);
    }

    #[tokio::test]
    async fn filters_sorting_and_paging() {
        let (store, _dir, h1, h2) = seeded().await;
        let q = |f: fn(&mut PostQuery)| {
            let mut q = PostQuery::default();
            f(&mut q);
            q
        };
        assert_eq!(
            ids(store
                .posts(&q(|q| q.sort = PostSort::Newest))
                .await
                .unwrap()),
            ["4", "3", "2", "1"]
        );
        assert_eq!(
            ids(store
                .posts(&q(|q| q.sort = PostSort::Oldest))
                .await
                .unwrap()),
            ["1", "2", "3", "4"]
        );
        assert_eq!(
            ids(store
                .posts(&q(|q| q.author = Some("@ADA".into())))
                .await
                .unwrap()),
            ["3", "1"]
        );
        assert_eq!(
            ids(store
                .posts(&q(|q| q.lang = Some("es".into())))
                .await
                .unwrap()),
            ["2"]
        );
        assert_eq!(
            ids(store.posts(&q(|q| q.min_likes = Some(50))).await.unwrap()),
            ["3", "1"]
        );
        let range = PostQuery {
            from: Some(day(2)),
            to: Some(day(4)),
            ..Default::default()
        };
        assert_eq!(ids(store.posts(&range).await.unwrap()), ["3", "2"]);
        let by_request = PostQuery {
            history_ids: vec![h1],
            text: Some("eclipse".into()),
            sort: PostSort::Newest,
            ..Default::default()
        };
        assert_eq!(ids(store.posts(&by_request).await.unwrap()), ["2", "1"]);
        // Two requests (a post and its replies): each post once, though both found post 2.
        let both = PostQuery {
            history_ids: vec![h1, h2],
            sort: PostSort::Oldest,
            ..Default::default()
        };
        assert_eq!(ids(store.posts(&both).await.unwrap()), ["1", "2", "3", "4"]);
        assert_eq!(store.posts_count(&both).await.unwrap(), 4);
        let both_matching = PostQuery {
            text: Some("eclipse".into()),
            sort: PostSort::Relevance,
            ..both.clone()
        };
        assert_eq!(store.posts_count(&both_matching).await.unwrap(), 3);
        assert_eq!(store.posts(&both_matching).await.unwrap().len(), 3);
        let page = PostQuery {
            limit: 2,
            offset: 1,
            sort: PostSort::Newest,
            ..Default::default()
        };
        assert_eq!(ids(store.posts(&page).await.unwrap()), ["3", "2"]);
        let combined = PostQuery {
            text: Some("eclipse".into()),
            author: Some("ada".into()),
            min_likes: Some(100),
            ..Default::default()
        };
        assert_eq!(ids(store.posts(&combined).await.unwrap()), ["1"]);
    }

    #[tokio::test]
    async fn time_sorted_search_gives_the_same_pages_by_either_plan() {
        let (store, _dir) = temp_store().await;
        // 300 posts, every third mentions "comet": dense enough to walk by time.
        let posts: Vec<NewPost> = (0..300)
            .map(|i| {
                let text = if i % 3 == 0 {
                    "comet sighting"
                } else {
                    "quiet night"
                };
                let mut p = post(
                    &format!("p{i:03}"),
                    text,
                    day(1) + chrono::Duration::minutes((i * 7 % 300) as i64),
                );
                p.like_count = i64::from(i % 2 == 0);
                p
            })
            .collect();
        store.archive_posts(day(9), &posts).await.unwrap();
        for sort in [PostSort::Newest, PostSort::Oldest] {
            let q = PostQuery {
                text: Some("comet".into()),
                sort,
                min_likes: Some(1),
                limit: 7,
                offset: 3,
                ..Default::default()
            };
            assert_eq!(store.plan(&q).await.unwrap(), Plan::WalkByTime);
            let walked = ids(store.posts(&q).await.unwrap());
            let mut sql = QueryBuilder::<Sqlite>::new(format!("SELECT {POST_COLUMNS}"));
            push_post_filters(&mut sql, &q, Plan::FromIndex, true);
            sql.push(if sort == PostSort::Newest {
                " ORDER BY p.created_at DESC, p.pk ASC LIMIT 7 OFFSET 3"
            } else {
                " ORDER BY p.created_at ASC, p.pk DESC LIMIT 7 OFFSET 3"
            });
            let rows = sql.build().fetch_all(&store.pool).await.unwrap();
            let from_index: Vec<String> =
                rows.iter().map(|r| post_from_row(r).unwrap().id).collect();
            assert_eq!(walked, from_index);
            assert_eq!(walked.len(), 7);
        }
        // A rare word starts from the index.
        let rare = PostQuery {
            text: Some("p123".into()),
            sort: PostSort::Newest,
            ..Default::default()
        };
        assert_eq!(store.plan(&rare).await.unwrap(), Plan::FromIndex);
    }

    #[tokio::test]
    async fn the_index_follows_edits_and_deletes() {
        let (store, _dir, _, _) = seeded().await;
        let mut edited = post("3", "Bakery opening in Basel", day(3));
        edited.like_count = 1;
        store.archive_posts(day(8), &[edited]).await.unwrap();
        let search = |text: &str| PostQuery {
            text: Some(text.into()),
            ..Default::default()
        };
        assert!(store.posts(&search("zurich")).await.unwrap().is_empty());
        assert_eq!(ids(store.posts(&search("basel")).await.unwrap()), ["3"]);
        sqlx::query("DELETE FROM posts WHERE id = '3'")
            .execute(&store.pool)
            .await
            .unwrap();
        assert!(store.posts(&search("basel")).await.unwrap().is_empty());
        // FTS5's own integrity check fails loudly if the index and the table disagree.
        sqlx::query("INSERT INTO posts_fts (posts_fts) VALUES ('integrity-check')")
            .execute(&store.pool)
            .await
            .unwrap();
    }

    #[tokio::test]
    async fn users_and_links_are_archived_and_searchable() {
        let (store, _dir) = temp_store().await;
        let user = NewUser {
            id: "u9".into(),
            username: "mary_s".into(),
            name: "Mary Somerville".into(),
            verified: false,
            followers_count: Some(42),
            description: Some("science writer".into()),
            raw_json: r#"{"id":"u9"}"#.into(),
        };
        let mut r = record("r", day(1));
        r.users = vec![user.clone()];
        r.links = vec![
            link("https://example.org/a"),
            NewLink {
                source: LinkSource::Arxiv,
                title: "On the connexion of the physical sciences".into(),
                snippet: "A treatise".into(),
                link: "https://arxiv.org/abs/1".into(),
                score: Some("HIGH".into()),
            },
        ];
        let h = store.record_request(&r).await.unwrap().history_id();
        let mut again = record("r2", day(2));
        let mut renamed = user.clone();
        renamed.name = "Mary F. Somerville".into();
        renamed.followers_count = None;
        again.users = vec![renamed];
        again.links = vec![link("https://example.org/a")];
        store.record_request(&again).await.unwrap();

        let u = store.user("u9").await.unwrap().unwrap();
        assert_eq!(u.name, "Mary F. Somerville");
        assert_eq!(u.followers_count, Some(42));
        assert_eq!((u.first_seen, u.last_seen), (day(1), day(2)));
        let found = store
            .users(&UserQuery {
                text: Some("@MARY".into()),
                ..Default::default()
            })
            .await
            .unwrap();
        assert_eq!(found.len(), 1);
        assert!(store
            .users(&UserQuery {
                text: Some("nobody".into()),
                ..Default::default()
            })
            .await
            .unwrap()
            .is_empty());

        let all = store.links(&LinkQuery::default()).await.unwrap();
        assert_eq!(all.len(), 2, "the repeated link is stored once");
        assert_eq!(
            all[0].link, "https://example.org/a",
            "most recently seen first"
        );
        let arxiv = store
            .links(&LinkQuery {
                source: Some(LinkSource::Arxiv),
                ..Default::default()
            })
            .await
            .unwrap();
        assert_eq!(arxiv[0].score.as_deref(), Some("HIGH"));
        let by_text = store
            .links(&LinkQuery {
                text: Some("connexion".into()),
                ..Default::default()
            })
            .await
            .unwrap();
        assert_eq!(by_text.len(), 1);
        let by_request = store
            .links(&LinkQuery {
                history_id: Some(h),
                ..Default::default()
            })
            .await
            .unwrap();
        assert_eq!(by_request.len(), 2);
    }
}
