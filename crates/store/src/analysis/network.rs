//! The network of a scope: accounts as nodes, and who replied to, quoted, mentioned or reposted
//! whom as weighted edges, each with the time of its first and last post. Reposts come from
//! reposts in timelines and from the reposters lists already fetched for the scope's posts
//! (`post_reposters`, migration 0008), each reposter counted once per post.
//!
//! A call writes the scope's posts once into a temporary table (`scope::fill_scope_table`),
//! on one connection, and each kind of edge joins to it; the whole archive skips the table
//! and reads each kind's covering index in the order it groups by.

use std::collections::{BTreeSet, HashMap};

use sqlx::{QueryBuilder, Sqlite, SqliteConnection};

use super::scope::{clear_scope_table, fill_scope_table, Resolved, MENTION};
use super::types::{
    AnalysisScope, EdgeKind, Network, NetworkEdge, NetworkNode, NetworkQuery, NETWORK_EDGE_LIMIT,
};
use crate::error::Result;
use crate::time::from_ms;
use crate::Store;

/// `(source, target, weight, first, last, edges of the kind in all)` rows of one kind of edge.
type EdgeRows = Vec<(String, String, i64, i64, i64, i64)>;

/// Which edges of a kind to hand back: at least `min_weight`, the heaviest `limit`.
#[derive(Clone, Copy)]
struct HeaviestEdges {
    min_weight: i64,
    limit: i64,
}

impl HeaviestEdges {
    /// What [`HeaviestEdges::push`] keeps, for edges tallied in Rust:
    /// `(source, target) -> (weight, first, last)`.
    fn of(self, tally: HashMap<(String, String), (i64, i64, i64)>) -> EdgeRows {
        let mut edges: EdgeRows = tally
            .into_iter()
            .filter(|(_, (weight, _, _))| *weight >= self.min_weight)
            .map(|((source, target), (weight, first, last))| {
                (source, target, weight, first, last, 0)
            })
            .collect();
        let total = i64::try_from(edges.len()).unwrap_or(i64::MAX);
        edges.sort_unstable_by(|a, b| b.2.cmp(&a.2).then_with(|| (&a.0, &a.1).cmp(&(&b.0, &b.1))));
        edges.truncate(usize::try_from(self.limit).unwrap_or(usize::MAX));
        for edge in &mut edges {
            edge.5 = total;
        }
        edges
    }

    /// Ends a query grouped by `source, target` with `n` its weight: keeps the edges heavy
    /// enough, counts them all (`count(*) OVER ()`, in the select list) and keeps the heaviest.
    fn push(self, sql: &mut QueryBuilder<'_, Sqlite>, source: &str, target: &str) {
        sql.push(" HAVING count(*) >= ")
            .push_bind(self.min_weight)
            .push(format!(" ORDER BY n DESC, {source}, {target} LIMIT "))
            .push_bind(self.limit);
    }
}

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
        if !resolved.is_everything() {
            fill_scope_table(conn, &resolved).await?;
        }
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
            let rows = match kind {
                EdgeKind::Reply => {
                    column_edges(conn, &resolved, "reply_to_author", heaviest).await?
                }
                EdgeKind::Quote => column_edges(conn, &resolved, "quoted_author", heaviest).await?,
                EdgeKind::Mention => mention_edges(conn, &resolved, heaviest).await?,
                EdgeKind::Repost => repost_edges(conn, &resolved, heaviest).await?,
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
        let nodes = network_nodes(conn, &resolved, &ids).await?;
        let reposter_requests = if wanted(EdgeKind::Repost) {
            reposter_requests(conn, &resolved).await?
        } else {
            0
        };
        if !resolved.is_everything() {
            clear_scope_table(conn).await?;
        }
        Ok(Some(Network {
            nodes,
            edges,
            total_edges,
            reposter_requests,
        }))
    }
}

/// Edges from each post's author to the author named in one of its columns.
async fn column_edges(
    conn: &mut SqliteConnection,
    scope: &Resolved,
    column: &str,
    heaviest: HeaviestEdges,
) -> Result<EdgeRows> {
    let mut sql = QueryBuilder::<Sqlite>::new(format!(
        "SELECT f.author, f.{column}, count(*) AS n, min(f.created_at), max(f.created_at),
                count(*) OVER ()
         FROM post_facts f WHERE f.{column} IS NOT NULL AND f.{column} <> f.author"
    ));
    push_scope_condition(&mut sql, "f", scope);
    sql.push(format!(" GROUP BY f.author, f.{column}"));
    heaviest.push(&mut sql, "f.author", &format!("f.{column}"));
    Ok(sql.build_query_as().fetch_all(conn).await?)
}

/// Edges from each post's author to each handle it mentions.
async fn mention_edges(
    conn: &mut SqliteConnection,
    scope: &Resolved,
    heaviest: HeaviestEdges,
) -> Result<EdgeRows> {
    if !scope.is_everything() {
        return scope_mention_edges(conn, heaviest).await;
    }
    let mut sql = QueryBuilder::<Sqlite>::new(
        "SELECT e.author, e.value, count(*) AS n, min(e.created_at), max(e.created_at),
                count(*) OVER ()
         FROM post_entities e WHERE e.kind = ",
    );
    sql.push_bind(MENTION)
        .push(" AND e.value <> e.author GROUP BY e.author, e.value");
    heaviest.push(&mut sql, "e.author", "e.value");
    Ok(sql.build_query_as().fetch_all(conn).await?)
}

/// A narrower scope's mention edges, tallied here from one JSON array of its posts' mentions:
/// SQLite would sort every mention into its group, which cost several times more.
async fn scope_mention_edges(
    conn: &mut SqliteConnection,
    heaviest: HeaviestEdges,
) -> Result<EdgeRows> {
    // From the scope's posts to their mentions, a seek each by post (left to itself, SQLite
    // read every mention of the archive for each post).
    let mentions: String = sqlx::query_scalar(
        "SELECT json_group_array(json_array(e.author, e.value, e.created_at))
         FROM temp.analysis_scope s
         CROSS JOIN post_entities e INDEXED BY post_entities_post
             ON e.post_pk = s.post_pk AND e.kind = ?
         WHERE e.value <> e.author",
    )
    .bind(MENTION)
    .fetch_one(conn)
    .await?;
    let mentions: Vec<(String, String, i64)> = serde_json::from_str(&mentions)?;
    let mut tally: HashMap<(String, String), (i64, i64, i64)> = HashMap::new();
    for (source, target, at) in mentions {
        let edge = tally.entry((source, target)).or_insert((0, at, at));
        edge.0 += 1;
        edge.1 = edge.1.min(at);
        edge.2 = edge.2.max(at);
    }
    Ok(heaviest.of(tally))
}

/// Each (reposter, post) once, whether seen in a timeline or in a reposters list; the
/// edge's times are the reposted posts' times.
async fn repost_edges(
    conn: &mut SqliteConnection,
    scope: &Resolved,
    heaviest: HeaviestEdges,
) -> Result<EdgeRows> {
    let mut sql = QueryBuilder::<Sqlite>::new(
        "SELECT reposter, target, count(*) AS n, min(at), max(at), count(*) OVER () FROM (
             SELECT reposter, target, post_id, min(at) AS at FROM (
                 SELECT f.author AS reposter, f.reposted_author AS target,
                        f.reposted_id AS post_id, f.created_at AS at
                 FROM post_facts f
                 WHERE f.reposted_id IS NOT NULL AND f.reposted_author IS NOT NULL",
    );
    push_scope_condition(&mut sql, "f", scope);
    sql.push(
        " UNION ALL
          SELECT r.reposter, f.author, r.post_id, f.created_at
          FROM post_reposters r CROSS JOIN posts p ON p.id = r.post_id
              CROSS JOIN post_facts f ON f.post_pk = p.pk WHERE 1 = 1",
    );
    push_reposted_in_scope(&mut sql, scope);
    sql.push(") GROUP BY reposter, post_id) WHERE reposter <> target GROUP BY reposter, target");
    heaviest.push(&mut sql, "reposter", "target");
    Ok(sql.build_query_as().fetch_all(conn).await?)
}

/// How many reposters lists name a post of the scope.
async fn reposter_requests(conn: &mut SqliteConnection, scope: &Resolved) -> Result<i64> {
    let mut sql = QueryBuilder::<Sqlite>::new(
        "SELECT count(DISTINCT r.history_id) FROM post_reposters r
         CROSS JOIN posts p ON p.id = r.post_id CROSS JOIN post_facts f ON f.post_pk = p.pk
         WHERE 1 = 1",
    );
    push_reposted_in_scope(&mut sql, scope);
    Ok(sql.build_query_scalar().fetch_one(conn).await?)
}

/// The nodes named by `ids`: their posts in the scope and their handle as last seen (from
/// their newest post, else the archived user, else a reposters list).
async fn network_nodes(
    conn: &mut SqliteConnection,
    scope: &Resolved,
    ids: &BTreeSet<&str>,
) -> Result<Vec<NetworkNode>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let list = serde_json::to_string(&ids)?;
    let mut sql = QueryBuilder::<Sqlite>::new(
        "SELECT g.author, g.n, p.author_username FROM (
             SELECT f.author, count(*) AS n, max(f.post_pk) AS last_pk FROM post_facts f
             WHERE f.author IN (SELECT value FROM json_each(",
    );
    sql.push_bind(list.clone()).push("))");
    push_scope_condition(&mut sql, "f", scope);
    sql.push(" GROUP BY f.author) AS g JOIN posts p ON p.pk = g.last_pk");
    let authors: Vec<(String, i64, String)> = sql.build_query_as().fetch_all(&mut *conn).await?;
    let mut known: HashMap<String, (i64, String)> = authors
        .into_iter()
        .map(|(id, n, handle)| (id, (n, handle)))
        .collect();
    let others: Vec<(String, String)> = sqlx::query_as(
        "SELECT lower(j.value), COALESCE(
             (SELECT u.username FROM users u WHERE u.username = j.value COLLATE NOCASE
              ORDER BY u.last_seen DESC LIMIT 1),
             (SELECT r.label FROM post_reposters r WHERE r.reposter = j.value LIMIT 1),
             j.value)
         FROM json_each(?) j",
    )
    .bind(list)
    .fetch_all(&mut *conn)
    .await?;
    for (id, handle) in others {
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

/// ` AND <table>.post_pk IN (<the scope's posts, from its table>)`, or nothing when the scope
/// is the whole archive.
fn push_scope_condition(sql: &mut QueryBuilder<'_, Sqlite>, table: &str, scope: &Resolved) {
    if !scope.is_everything() {
        sql.push(format!(
            " AND {table}.post_pk IN (SELECT post_pk FROM temp.analysis_scope)"
        ));
    }
}

/// ` AND <f's post is in the scope>` for a join led by the reposters lists (fewer than the
/// scope's posts): as `EXISTS`, since an `IN` here was carried over to `posts` and made SQLite
/// seek each reposter's post once per post of the scope.
fn push_reposted_in_scope(sql: &mut QueryBuilder<'_, Sqlite>, scope: &Resolved) {
    if !scope.is_everything() {
        sql.push(" AND EXISTS (SELECT 1 FROM temp.analysis_scope s WHERE s.post_pk = f.post_pk)");
    }
}
