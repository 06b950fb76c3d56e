//! Archive reads: post search (full text over posts, filters, relevance within a window or
//! time order, and the plan that reaches the rows), counts, one post and the requests that
//! found it, users and links.

use sqlx::sqlite::SqliteRow;
use sqlx::{QueryBuilder, Row, Sqlite};

use super::types::{
    ArchiveMark, LinkQuery, LinkSource, PostQuery, PostSort, StoredLink, StoredPost, StoredUser,
    UserQuery,
};
use crate::error::Result;
use crate::history::{entry_from_row, like_pattern, HistoryEntry, HISTORY_COLUMNS};
use crate::paging;
use crate::time::{from_ms, to_ms};
use crate::Store;

fn page_size(limit: u32, default: u32) -> i64 {
    i64::from(if limit == 0 { default } else { limit })
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

pub(crate) const POST_COLUMNS: &str = "p.id, p.conversation_id, p.author_id, p.author_username, \
    p.author_name, p.author_verified, p.text, p.lang, p.created_at, p.like_count, \
    p.retweet_count, p.reply_count, p.quote_count, p.view_count, p.bookmark_count, p.hashtags, \
    p.url, p.raw_json, p.first_seen, p.last_seen";

pub(crate) fn post_from_row(row: &SqliteRow) -> Result<StoredPost> {
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
pub(crate) enum Plan {
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

/// Whether the query filters nothing: the Archive's first view, counted by [`WHOLE_ARCHIVE_COUNT`].
fn is_whole_archive(q: &PostQuery) -> bool {
    q.text.as_deref().and_then(fts_match_expression).is_none()
        && q.history_ids.is_empty()
        && author_filter(q).is_none()
        && !has_post_conditions(q)
}

/// The count [`Store::posts_count`] runs for `q`.
pub(crate) fn count_query(q: &PostQuery) -> QueryBuilder<'_, Sqlite> {
    if is_whole_archive(q) {
        return QueryBuilder::new(WHOLE_ARCHIVE_COUNT);
    }
    let plan = match q.text.as_deref().and_then(fts_match_expression) {
        Some(_) => Plan::FromIndex,
        None => Plan::Browse,
    };
    let mut sql = QueryBuilder::<Sqlite>::new("SELECT count(*)");
    push_post_filters(&mut sql, q, plan, has_post_conditions(q));
    sql
}

/// Every post, without reading them: each has one `post_facts` row, which migration 0009's
/// triggers count in `lang_tally` by language (a few dozen rows); those with no language are
/// counted off the `post_facts_lang` index (`lang IS NULL`, few: the service writes `und`).
/// `count(*) FROM posts` read a whole index, seconds for 10,000,000 posts after a restart.
const WHOLE_ARCHIVE_COUNT: &str = "SELECT \
    (SELECT COALESCE(sum(posts), 0) FROM lang_tally) + \
    (SELECT count(*) FROM post_facts WHERE lang IS NULL)";

/// Builds the FROM/WHERE part shared by the search and its count. Starting from the index,
/// `posts p` is joined only when `with_posts` (its columns are selected or filtered on):
/// a row read per match is most of what counting or ranking a common word would cost.
pub(super) fn push_post_filters(
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

/// A page of the posts `q` matches, by `plan`. Ranked (relevance with words to rank): cut
/// from the window of most recently saved matches ranked as a whole, by `q.offset`. Otherwise
/// in time order: after `key` (the time and key of the last post of the page before) when
/// there is one, found in the `posts_created` index, else after skipping `q.offset` posts.
pub(crate) fn posts_page_query(
    q: &PostQuery,
    plan: Plan,
    key: Option<(i64, i64)>,
) -> QueryBuilder<'_, Sqlite> {
    if (q.sort, plan) == (PostSort::Relevance, Plan::FromIndex) {
        // Take the window of most recently saved matches (FTS5 walks its index backwards,
        // ranking nothing yet), rank those, keep the page, then read the page's posts.
        // `rank` is bm25 with per-column weights (configured in the migration); ties go to
        // the older row, as FTS5's own `ORDER BY rank` left them. Sorting by `rank, rowid`
        // keeps only the page while ranking (FTS5's own sort keeps every match with its
        // positions, ~40% slower), and posts are read for the page only unless a filter
        // needs them.
        let mut sql = QueryBuilder::<Sqlite>::new(format!(
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
            .push(") AS hit JOIN posts p ON p.pk = hit.hit_pk ORDER BY hit.hit_rank, hit.hit_pk");
        return sql;
    }
    let mut sql = QueryBuilder::<Sqlite>::new(format!("SELECT {POST_COLUMNS}"));
    push_post_filters(&mut sql, q, plan, true);
    // In the order of the `posts_created` index, ties included, so no extra sort.
    paging::push_page_in_time_index(
        &mut sql,
        ("p.created_at", "p.pk"),
        key,
        q.sort != PostSort::Oldest,
        page_size(q.limit, 50),
        q.offset,
    );
    sql
}

impl Store {
    /// Searches the post archive.
    pub async fn posts(&self, q: &PostQuery) -> Result<Vec<StoredPost>> {
        let plan = self.plan(q).await?;
        let ranked = (q.sort, plan) == (PostSort::Relevance, Plan::FromIndex);
        // A ranked page is cut from its window by offset; a time-ordered one starts after
        // the post before it, while that post is stored.
        let after = if ranked { None } else { q.after.as_deref() };
        let key = paging::key_of(
            &self.pool,
            "SELECT created_at, pk FROM posts WHERE id = ?",
            after,
        )
        .await?;
        let rows = posts_page_query(q, plan, key)
            .build()
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(post_from_row).collect()
    }

    /// Chooses how to run a search. Walking by time pays off when matches are dense: about
    /// `50 * posts / matches` index entries are read for a page, against one random row read
    /// per match when starting from the index.
    pub(super) async fn plan(&self, q: &PostQuery) -> Result<Plan> {
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
        let mut sql = count_query(q);
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

    /// The archive as it stands: posts stored from now on are new after this mark.
    pub async fn archive_mark(&self) -> Result<ArchiveMark> {
        let last: i64 = sqlx::query_scalar("SELECT coalesce(max(pk), 0) FROM posts")
            .fetch_one(&self.pool)
            .await?;
        Ok(ArchiveMark(last))
    }

    /// How many of the posts `ids` names (each once) were first stored after `mark`.
    pub async fn posts_new_since(&self, mark: ArchiveMark, ids: &[String]) -> Result<i64> {
        if ids.is_empty() {
            return Ok(0);
        }
        let ids = serde_json::to_string(ids)?;
        Ok(sqlx::query_scalar(
            "SELECT count(*) FROM posts
             WHERE pk > ? AND id IN (SELECT value FROM json_each(?))",
        )
        .bind(mark.0)
        .bind(ids)
        .fetch_one(&self.pool)
        .await?)
    }

    /// The requests that found a post, newest first.
    pub async fn post_found_by(&self, id: &str) -> Result<Vec<HistoryEntry>> {
        let rows = sqlx::query(&format!(
            "SELECT {HISTORY_COLUMNS}
             FROM posts p JOIN post_sightings s ON s.post_pk = p.pk
                 JOIN history h ON h.id = s.history_id
             WHERE p.id = ? ORDER BY h.started_at DESC"
        ))
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(entry_from_row).collect()
    }

    /// Searches archived users by handle or name, most recently fetched first (ties in the
    /// order they were stored).
    pub async fn users(&self, q: &UserQuery) -> Result<Vec<StoredUser>> {
        let key = paging::key_of(
            &self.pool,
            "SELECT last_seen, rowid FROM users WHERE id = ?",
            q.after.as_deref(),
        )
        .await?;
        let rows = users_page_query(q, key)
            .build()
            .fetch_all(&self.pool)
            .await?;
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

    /// Searches archived link results, most recently seen first (ties in the order they were
    /// stored: the service's order within one answer).
    pub async fn links(&self, q: &LinkQuery) -> Result<Vec<StoredLink>> {
        let key = paging::key_of(
            &self.pool,
            "SELECT last_seen, id FROM links WHERE id = ?",
            q.after,
        )
        .await?;
        let rows = links_page_query(q, key)
            .build()
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(link_from_row).collect()
    }
}

/// A page of the users `q` matches, most recently fetched first: after `key` (the last user of
/// the page before, its last fetch and rowid), found in the `users_last_seen` index, when there
/// is one; else after skipping `q.offset` users.
pub(crate) fn users_page_query(q: &UserQuery, key: Option<(i64, i64)>) -> QueryBuilder<'_, Sqlite> {
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
    paging::push_page_in_time_index(
        &mut sql,
        ("last_seen", "rowid"),
        key,
        true,
        page_size(q.limit, 50),
        q.offset,
    );
    sql
}

/// A page of the link results `q` matches, most recently seen first: after `key` (the last
/// link of the page before, its last sighting and id), found in the `links_last_seen` index,
/// when there is one; else after skipping `q.offset` links.
pub(crate) fn links_page_query(q: &LinkQuery, key: Option<(i64, i64)>) -> QueryBuilder<'_, Sqlite> {
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
    paging::push_page_in_time_index(
        &mut sql,
        ("l.last_seen", "l.id"),
        key,
        true,
        page_size(q.limit, 50),
        q.offset,
    );
    sql
}
