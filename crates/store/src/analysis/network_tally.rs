//! A narrower scope's network, tallied here from one pass over its posts: SQLite hands back
//! one JSON array of the scope's posts (their author, time, the accounts they reply to, quote
//! and repost, and their entities, among them the handles they mention) and every edge and
//! every node's post count is counted from it. Evaluating the scope once and reading each
//! post's row once cost a fraction of joining each kind of edge, and the nodes, to a table of
//! the scope's posts.

use std::collections::{HashMap, HashSet};

use sqlx::{QueryBuilder, Sqlite, SqliteConnection};

use super::edges::{EdgeRows, HeaviestEdges};
use super::scope::{entity_lines, push_from, Resolved, MENTION};
use crate::error::Result;

/// `(source, target) -> (weight, first, last)` of one kind of edge.
type Tally = HashMap<(String, String), (i64, i64, i64)>;

/// One row of the pass: a post's facts, with its entities (the handles it mentions among them).
type PassRow = (
    i64,            // post_pk
    String,         // author
    i64,            // created_at
    Option<String>, // reply_to_author
    Option<String>, // quoted_author
    Option<String>, // reposted_author
    Option<String>, // reposted_id
    Option<String>, // entities, one to a line (`post_facts.entities`)
);

/// What a narrower scope's network is built from.
pub(super) struct ScopeNetwork {
    pub(super) replies: EdgeRows,
    pub(super) quotes: EdgeRows,
    pub(super) mentions: EdgeRows,
    pub(super) reposts: EdgeRows,
    /// Per author (lower-case): their posts in the scope and their newest post's pk.
    pub(super) authors: HashMap<String, (i64, i64)>,
    /// How many reposters lists name a post of the scope.
    pub(super) reposter_requests: i64,
}

fn add(tally: &mut Tally, source: &str, target: &str, at: i64) {
    let edge = tally
        .entry((source.to_owned(), target.to_owned()))
        .or_insert((0, at, at));
    edge.0 += 1;
    edge.1 = edge.1.min(at);
    edge.2 = edge.2.max(at);
}

/// Tallies the scope's network in one pass over its posts and one over the reposters lists.
pub(super) async fn scope_network(
    conn: &mut SqliteConnection,
    scope: &Resolved,
    heaviest: HeaviestEdges,
) -> Result<ScopeNetwork> {
    let mut sql = QueryBuilder::<Sqlite>::new(
        "SELECT json_group_array(json_array(f.post_pk, f.author, f.created_at, f.reply_to_author,
                f.quoted_author, f.reposted_author, f.reposted_id, f.entities))",
    );
    push_from(&mut sql, scope);
    let rows: String = sql.build_query_scalar().fetch_one(&mut *conn).await?;
    let rows: Vec<PassRow> = serde_json::from_str(&rows)?;

    let (mut replies, mut quotes, mut mentions) = (Tally::new(), Tally::new(), Tally::new());
    let mut authors: HashMap<String, (i64, i64)> = HashMap::new();
    // Each (reposter, reposted post) once, at its earliest time, with whom it reposts.
    let mut reposted: HashMap<(String, String), (i64, String)> = HashMap::new();
    let mut repost = |reposter: &str, target: &str, post_id: &str, at: i64| {
        let seen = reposted
            .entry((reposter.to_owned(), post_id.to_owned()))
            .or_insert_with(|| (at, target.to_owned()));
        if at < seen.0 {
            *seen = (at, target.to_owned());
        }
    };
    let mut scope_pks = HashSet::new();
    for (pk, author, at, reply_to, quoted, reposted_author, reposted_id, entities) in &rows {
        scope_pks.insert(*pk);
        let counts = authors.entry(author.clone()).or_default();
        counts.0 += 1;
        counts.1 = counts.1.max(*pk);
        for (_, target) in entity_lines(entities.as_deref()).filter(|e| e.0 == MENTION) {
            if target != author {
                add(&mut mentions, author, target, *at);
            }
        }
        if let Some(target) = reply_to.as_deref().filter(|t| t != author) {
            add(&mut replies, author, target, *at);
        }
        if let Some(target) = quoted.as_deref().filter(|t| t != author) {
            add(&mut quotes, author, target, *at);
        }
        if let (Some(target), Some(post_id)) = (reposted_author, reposted_id) {
            repost(author, target, post_id, *at);
        }
    }

    // Every reposters list's users, with the post they reposted if it is stored; those of the
    // scope's posts count.
    let lists: String = sqlx::query_scalar(
        "SELECT json_group_array(json_array(r.reposter, r.post_id, r.history_id, f.post_pk,
                f.author, f.created_at))
         FROM post_reposters r CROSS JOIN posts p ON p.id = r.post_id
             CROSS JOIN post_facts f ON f.post_pk = p.pk",
    )
    .fetch_one(&mut *conn)
    .await?;
    let lists: Vec<(String, String, i64, i64, String, i64)> = serde_json::from_str(&lists)?;
    let mut requests = HashSet::new();
    for (reposter, post_id, history_id, pk, author, at) in &lists {
        if scope_pks.contains(pk) {
            requests.insert(*history_id);
            repost(reposter, author, post_id, *at);
        }
    }
    let mut reposts = Tally::new();
    for ((reposter, _), (at, target)) in &reposted {
        if reposter != target {
            add(&mut reposts, reposter, target, *at);
        }
    }

    Ok(ScopeNetwork {
        replies: heaviest.of(replies),
        quotes: heaviest.of(quotes),
        mentions: heaviest.of(mentions),
        reposts: heaviest.of(reposts),
        authors,
        reposter_requests: i64::try_from(requests.len()).unwrap_or(i64::MAX),
    })
}

#[cfg(test)]
mod tests;
