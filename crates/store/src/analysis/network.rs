//! The network of a scope: accounts as nodes, and who replied to, quoted, mentioned or reposted
//! whom as weighted edges, each with the time of its first and last post. Reposts come from
//! reposts in timelines and from the reposters lists already fetched for the scope's posts
//! (`post_reposters`, migration 0008), each reposter counted once per post.
//!
//! The whole archive's reply, quote and mention edges are read off their tallies (migration
//! 0022, kept by triggers as posts are written), the heaviest first; its reposts off the index
//! of the reposts (each reposter counted once a post, which no tally keeps). A narrower scope's
//! edges are tallied in Rust from one pass over its posts (`analysis/network_tally.rs`).

use std::collections::{BTreeSet, HashMap};

use sqlx::{QueryBuilder, Sqlite, SqliteConnection};

use super::edges::{EdgeRows, HeaviestEdges};
use super::network_tally::scope_network;
use super::types::{
    AnalysisScope, EdgeKind, Network, NetworkEdge, NetworkNode, NetworkQuery, NETWORK_EDGE_LIMIT,
};
use crate::error::Result;
use crate::time::from_ms;
use crate::Store;

impl Store {
    /// The scope's network, filtered by `query`; `None` when its source is gone.
    pub async fn analysis_network(
        &self,
        scope: &AnalysisScope,
        query: &NetworkQuery,
    ) -> Result<Option<Network>> {
        let Some(resolved) = self.resolve_scope(scope).await? else {
            return Ok(None);
        };
        let wanted = |kind| query.kinds.is_empty() || query.kinds.contains(&kind);
        let limit = match query.max_edges {
            0 => NETWORK_EDGE_LIMIT,
            n => n.min(NETWORK_EDGE_LIMIT),
        };
        // Each kind hands back only its heaviest `limit` edges (in the order of the whole
        // list) and how many it has in all: the heaviest `limit` of every kind are among them.
        let heaviest = HeaviestEdges {
            min_weight: query.min_weight,
            limit: i64::from(limit),
        };
        let mut conn = self.pool.acquire().await?;
        let conn = &mut *conn;
        let mut tallied = if resolved.is_everything() {
            None
        } else {
            Some(scope_network(conn, &resolved, heaviest).await?)
        };
        let mut edges = Vec::new();
        let mut total_edges = 0;
        for kind in [
            EdgeKind::Reply,
            EdgeKind::Quote,
            EdgeKind::Mention,
            EdgeKind::Repost,
        ] {
            if !wanted(kind) {
                continue;
            }
            let rows = match (kind, tallied.as_mut()) {
                (EdgeKind::Reply, Some(scope)) => std::mem::take(&mut scope.replies),
                (EdgeKind::Quote, Some(scope)) => std::mem::take(&mut scope.quotes),
                (EdgeKind::Mention, Some(scope)) => std::mem::take(&mut scope.mentions),
                (EdgeKind::Repost, Some(scope)) => std::mem::take(&mut scope.reposts),
                (EdgeKind::Reply | EdgeKind::Quote | EdgeKind::Mention, None) => {
                    tallied_edges(conn, kind, heaviest).await?
                }
                (EdgeKind::Repost, None) => repost_edges(conn, heaviest).await?,
            };
            total_edges += rows.first().map_or(0, |row| row.5);
            edges.extend(
                rows.into_iter()
                    .map(|(source, target, weight, first, last, _)| NetworkEdge {
                        source,
                        target,
                        kind,
                        weight,
                        first: from_ms(first),
                        last: from_ms(last),
                    }),
            );
        }
        edges.sort_by(|a, b| {
            b.weight
                .cmp(&a.weight)
                .then_with(|| (a.kind, &a.source, &a.target).cmp(&(b.kind, &b.source, &b.target)))
        });
        edges.truncate(limit as usize);

        let ids: BTreeSet<&str> = edges
            .iter()
            .flat_map(|e| [e.source.as_str(), e.target.as_str()])
            .collect();
        let counted = match &tallied {
            Some(scope) => scope_authors(conn, &scope.authors, &ids).await?,
            None => archive_authors(conn, &ids).await?,
        };
        let nodes = network_nodes(conn, counted, &ids).await?;
        let reposter_requests = match (&tallied, wanted(EdgeKind::Repost)) {
            (_, false) => 0,
            (Some(scope), true) => scope.reposter_requests,
            (None, true) => reposter_requests(conn).await?,
        };
        Ok(Some(Network {
            nodes,
            edges,
            total_edges,
            reposter_requests,
        }))
    }
}

/// The whole archive's heaviest edges of one kind, read off their tallies (migration 0022):
/// the edges in the order the network lists them, each with the number of edges at least
/// `min_weight` heavy in all.
pub(crate) fn tallied_edges_query(
    kind: EdgeKind,
    heaviest: HeaviestEdges,
) -> QueryBuilder<'static, Sqlite> {
    // The count is one subquery, evaluated once: it names no column of the rows read.
    let mut sql = QueryBuilder::<Sqlite>::new(
        "SELECT source, target, posts, first, last,
                (SELECT sum(edges) FROM edge_weights WHERE kind = ",
    );
    sql.push_bind(kind.as_str())
        .push(" AND posts >= ")
        .push_bind(heaviest.min_weight)
        .push(") FROM edge_tally WHERE kind = ")
        .push_bind(kind.as_str())
        .push(" AND posts >= ")
        .push_bind(heaviest.min_weight)
        .push(" ORDER BY posts DESC, source, target LIMIT ")
        .push_bind(heaviest.limit);
    sql
}

async fn tallied_edges(
    conn: &mut SqliteConnection,
    kind: EdgeKind,
    heaviest: HeaviestEdges,
) -> Result<EdgeRows> {
    Ok(tallied_edges_query(kind, heaviest)
        .build_query_as()
        .fetch_all(conn)
        .await?)
}

/// The whole archive's reposts: each (reposter, post) once, whether seen in a timeline or in
/// a reposters list; the edge's times are the reposted posts' times.
async fn repost_edges(conn: &mut SqliteConnection, heaviest: HeaviestEdges) -> Result<EdgeRows> {
    Ok(repost_edges_query(heaviest)
        .build_query_as()
        .fetch_all(conn)
        .await?)
}

/// The query of [`repost_edges`]: the timeline's reposts read off their own index
/// (`post_facts_repost_edges`, migration 0022), the reposters lists whole.
pub(crate) fn repost_edges_query(heaviest: HeaviestEdges) -> QueryBuilder<'static, Sqlite> {
    let mut sql = QueryBuilder::<Sqlite>::new(
        "SELECT reposter, target, count(*) AS n, min(at), max(at), count(*) OVER () FROM (
             SELECT reposter, target, post_id, min(at) AS at FROM (
                 SELECT f.author AS reposter, f.reposted_author AS target,
                        f.reposted_id AS post_id, f.created_at AS at
                 FROM post_facts f
                 WHERE f.reposted_id IS NOT NULL AND f.reposted_author IS NOT NULL
                 UNION ALL
                 SELECT r.reposter, f.author, r.post_id, f.created_at
                 FROM post_reposters r CROSS JOIN posts p ON p.id = r.post_id
                     CROSS JOIN post_facts f ON f.post_pk = p.pk
             ) GROUP BY reposter, post_id)
         WHERE reposter <> target GROUP BY reposter, target",
    );
    heaviest.push(&mut sql, "reposter", "target");
    sql
}

/// How many reposters lists name a stored post.
async fn reposter_requests(conn: &mut SqliteConnection) -> Result<i64> {
    Ok(sqlx::query_scalar(
        "SELECT count(DISTINCT r.history_id) FROM post_reposters r
         CROSS JOIN posts p ON p.id = r.post_id CROSS JOIN post_facts f ON f.post_pk = p.pk",
    )
    .fetch_one(conn)
    .await?)
}

/// The query of [`archive_authors`]: the accounts named by a JSON array, off their tallies
/// and handles alone (one seek into each per account, no post read).
pub(crate) const ARCHIVE_AUTHORS: &str = "SELECT t.author, t.posts, h.handle FROM author_tally t
     JOIN author_handles h ON h.author = t.author
     WHERE t.author IN (SELECT value FROM json_each(?))";

/// `(id, posts, handle as last seen)` of the accounts named by `ids` with posts in the
/// archive, from their tallies (migration 0009) and handles (0028).
async fn archive_authors(
    conn: &mut SqliteConnection,
    ids: &BTreeSet<&str>,
) -> Result<Vec<(String, i64, String)>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    Ok(sqlx::query_as(ARCHIVE_AUTHORS)
        .bind(serde_json::to_string(ids)?)
        .fetch_all(conn)
        .await?)
}

/// `(id, posts, handle as last seen)` of the accounts named by `ids` with posts in the scope,
/// from the scope's tally.
async fn scope_authors(
    conn: &mut SqliteConnection,
    authors: &HashMap<String, (i64, i64)>,
    ids: &BTreeSet<&str>,
) -> Result<Vec<(String, i64, String)>> {
    let counted: Vec<(&str, i64, i64)> = ids
        .iter()
        .filter_map(|id| authors.get(*id).map(|(n, pk)| (*id, *n, *pk)))
        .collect();
    if counted.is_empty() {
        return Ok(Vec::new());
    }
    let pks: Vec<i64> = counted.iter().map(|c| c.2).collect();
    let handles: String = sqlx::query_scalar(
        "SELECT json_group_object(pk, author_username) FROM posts
         WHERE pk IN (SELECT value FROM json_each(?))",
    )
    .bind(serde_json::to_string(&pks)?)
    .fetch_one(conn)
    .await?;
    let handles: HashMap<String, String> = serde_json::from_str(&handles)?;
    Ok(counted
        .into_iter()
        .map(|(id, n, pk)| {
            let handle = handles
                .get(&pk.to_string())
                .cloned()
                .unwrap_or_else(|| id.to_owned());
            (id.to_owned(), n, handle)
        })
        .collect())
}

/// The nodes named by `ids`: those `counted` with their posts and handle as last seen (from
/// their newest post); the others with none, labelled as the archived user, else a reposters
/// list spelt them.
async fn network_nodes(
    conn: &mut SqliteConnection,
    counted: Vec<(String, i64, String)>,
    ids: &BTreeSet<&str>,
) -> Result<Vec<NetworkNode>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut known: HashMap<String, (i64, String)> = counted
        .into_iter()
        .map(|(id, n, handle)| (id, (n, handle)))
        .collect();
    let others: Vec<&str> = ids
        .iter()
        .copied()
        .filter(|id| !known.contains_key(*id))
        .collect();
    // One JSON object back rather than a row per account: rows cost more to hand over.
    let labels: String = sqlx::query_scalar(
        "SELECT json_group_object(sightline_fold(j.value), COALESCE(
             (SELECT u.username FROM users u WHERE u.username = j.value COLLATE NOCASE
              ORDER BY u.last_seen DESC LIMIT 1),
             (SELECT r.label FROM post_reposters r WHERE r.reposter = j.value LIMIT 1),
             j.value))
         FROM json_each(?) j",
    )
    .bind(serde_json::to_string(&others)?)
    .fetch_one(&mut *conn)
    .await?;
    let labels: HashMap<String, String> = serde_json::from_str(&labels)?;
    for (id, handle) in labels {
        known.entry(id).or_insert((0, handle));
    }
    Ok(ids
        .iter()
        .map(|id| {
            let (posts, handle) = known.remove(*id).unwrap_or((0, (*id).to_owned()));
            NetworkNode {
                id: (*id).to_owned(),
                label: format!("@{handle}"),
                posts,
            }
        })
        .collect())
}
