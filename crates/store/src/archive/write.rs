//! Archive writes: posts, users and links upserted (the latest copy wins, first and last seen
//! kept), and the sightings that tie them to the request that found them. Called inside a
//! request's transaction by [`crate::record`], or for an import by [`Store::archive_posts`].

use chrono::{DateTime, Utc};
use sqlx::{QueryBuilder, Sqlite, SqliteConnection};

use super::types::{NewLink, NewPost, NewUser};
use crate::error::Result;
use crate::time::to_ms;
use crate::Store;

impl Store {
    /// Archives posts outside a request (imports); one transaction for the whole batch.
    pub async fn archive_posts(&self, seen_at: DateTime<Utc>, posts: &[NewPost]) -> Result<()> {
        let mut tx = self.begin_write().await?;
        write_posts(&mut tx, None, to_ms(seen_at), posts).await?;
        tx.commit().await?;
        Ok(())
    }
}

/// Hashtags are stored space-separated without `#`, so the FTS index sees plain words.
fn join_hashtags(tags: &[String]) -> String {
    tags.iter()
        .map(|t| t.trim().trim_start_matches('#'))
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Posts per multi-row statement: 20 parameters a post, under SQLite's 32,766.
pub(crate) const POST_CHUNK: usize = 1_600;

/// Sightings per multi-row statement (three parameters a row).
const SIGHTING_CHUNK: usize = 1_000;

pub(crate) const POST_COLUMNS_IN: &str =
    "id, conversation_id, author_id, author_username, author_name, \
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
pub(crate) fn push_post_values<'a>(
    sql: &mut QueryBuilder<'a, Sqlite>,
    chunk: &'a [NewPost],
    extra: &[i64],
) {
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
        " RETURNING pk, id"
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
    let stored: Vec<(i64, String)> = if history_id.is_some() {
        sql.build_query_as().fetch_all(&mut *conn).await?
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
        let sightings = sightings(posts, stored);
        for chunk in sightings.chunks(SIGHTING_CHUNK) {
            let mut sql = QueryBuilder::<Sqlite>::new(
                "INSERT INTO post_sightings (post_pk, history_id, nested) ",
            );
            sql.push_values(chunk, |mut row, (pk, nested)| {
                row.push_bind(*pk).push_bind(history_id).push_bind(*nested);
            });
            // A request written again (an interrupted one finished later) keeps a post it
            // showed as shown.
            sql.push(
                " ON CONFLICT (post_pk, history_id) DO UPDATE SET
                     nested = min(nested, excluded.nested)",
            );
            sql.build().execute(&mut *conn).await?;
        }
    }
    Ok(())
}

/// Each stored post once, with whether the request found it only inside another post: a post
/// it both showed and found quoted counts as shown. The upsert gave back each row's key and id
/// (in no promised order); the batch says which ids were nested.
fn sightings(posts: &[NewPost], stored: Vec<(i64, String)>) -> Vec<(i64, bool)> {
    let mut shown_somewhere = std::collections::HashSet::new();
    for post in posts.iter().filter(|post| !post.nested) {
        shown_somewhere.insert(post.id.as_str());
    }
    let mut by_pk = std::collections::BTreeMap::new();
    for (pk, id) in stored {
        by_pk.insert(pk, !shown_somewhere.contains(id.as_str()));
    }
    by_pk.into_iter().collect()
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
