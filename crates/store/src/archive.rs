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
mod tests;
