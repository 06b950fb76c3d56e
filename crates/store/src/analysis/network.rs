//! The network of a scope: accounts as nodes, and who replied to, quoted, mentioned or reposted
//! whom as weighted edges, each with the time of its first and last post. Reposts come from
//! reposts in timelines and from the reposters lists already fetched for the scope's posts
//! (`post_reposters`, migration 0008), each reposter counted once per post.

use std::collections::{BTreeSet, HashMap};

use sqlx::{QueryBuilder, Sqlite};

use super::scope::{push_from, Resolved, MENTION};
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
                    self.column_edges(&resolved, "reply_to_author", heaviest)
                        .await?
                }
                EdgeKind::Quote => {
                    self.column_edges(&resolved, "quoted_author", heaviest)
                        .await?
                }
                EdgeKind::Mention => self.mention_edges(&resolved, heaviest).await?,
                EdgeKind::Repost => self.repost_edges(&resolved, heaviest).await?,
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
        let nodes = self.network_nodes(&resolved, &ids).await?;
        let reposter_requests = if wanted(EdgeKind::Repost) {
            self.reposter_requests(&resolved).await?
        } else {
            0
        };
        Ok(Some(Network {
            nodes,
            edges,
            total_edges,
            reposter_requests,
        }))
    }

    /// Edges from each post's author to the author named in one of its columns.
    async fn column_edges(
        &self,
        scope: &Resolved,
        column: &str,
        heaviest: HeaviestEdges,
    ) -> Result<EdgeRows> {
        let mut sql = QueryBuilder::<Sqlite>::new(format!(
            "SELECT f.author, f.{column}, count(*) AS n, min(f.created_at), max(f.created_at),
                    count(*) OVER ()"
        ));
        push_from(&mut sql, scope);
        sql.push(format!(
            " AND f.{column} IS NOT NULL AND f.{column} <> f.author GROUP BY f.author, f.{column}"
        ));
        heaviest.push(&mut sql, "f.author", &format!("f.{column}"));
        Ok(sql.build_query_as().fetch_all(&self.pool).await?)
    }

    /// Edges from each post's author to each handle it mentions.
    async fn mention_edges(&self, scope: &Resolved, heaviest: HeaviestEdges) -> Result<EdgeRows> {
        let mut sql = QueryBuilder::<Sqlite>::new(
            "SELECT e.author, e.value, count(*) AS n, min(e.created_at), max(e.created_at),
                    count(*) OVER ()
             FROM post_entities e WHERE e.kind = ",
        );
        sql.push_bind(MENTION).push(" AND e.value <> e.author");
        push_scope_condition(&mut sql, "e", scope);
        sql.push(" GROUP BY e.author, e.value");
        heaviest.push(&mut sql, "e.author", "e.value");
        Ok(sql.build_query_as().fetch_all(&self.pool).await?)
    }

    /// Each (reposter, post) once, whether seen in a timeline or in a reposters list; the
    /// edge's times are the reposted posts' times.
    async fn repost_edges(&self, scope: &Resolved, heaviest: HeaviestEdges) -> Result<EdgeRows> {
        let mut sql = QueryBuilder::<Sqlite>::new(
            "SELECT reposter, target, count(*) AS n, min(at), max(at), count(*) OVER () FROM (
                 SELECT reposter, target, post_id, min(at) AS at FROM (
                     SELECT f.author AS reposter, f.reposted_author AS target,
                            f.reposted_id AS post_id, f.created_at AS at",
        );
        push_from(&mut sql, scope);
        sql.push(
            " AND f.reposted_id IS NOT NULL AND f.reposted_author IS NOT NULL
              UNION ALL
              SELECT r.reposter, f.author, r.post_id, f.created_at
              FROM post_reposters r JOIN posts p ON p.id = r.post_id
                  JOIN post_facts f ON f.post_pk = p.pk WHERE 1 = 1",
        );
        push_scope_condition(&mut sql, "f", scope);
        sql.push(
            ") GROUP BY reposter, post_id) WHERE reposter <> target GROUP BY reposter, target",
        );
        heaviest.push(&mut sql, "reposter", "target");
        Ok(sql.build_query_as().fetch_all(&self.pool).await?)
    }

    /// How many reposters lists name a post of the scope.
    async fn reposter_requests(&self, scope: &Resolved) -> Result<i64> {
        let mut sql = QueryBuilder::<Sqlite>::new(
            "SELECT count(DISTINCT r.history_id) FROM post_reposters r
             JOIN posts p ON p.id = r.post_id JOIN post_facts f ON f.post_pk = p.pk WHERE 1 = 1",
        );
        push_scope_condition(&mut sql, "f", scope);
        Ok(sql.build_query_scalar().fetch_one(&self.pool).await?)
    }

    /// The nodes named by `ids`: their posts in the scope and their handle as last seen (from
    /// their newest post, else the archived user, else a reposters list).
    async fn network_nodes(
        &self,
        scope: &Resolved,
        ids: &BTreeSet<&str>,
    ) -> Result<Vec<NetworkNode>> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let list = serde_json::to_string(&ids)?;
        let mut sql = QueryBuilder::<Sqlite>::new(
            "SELECT g.author, g.n, p.author_username FROM (
                 SELECT f.author, count(*) AS n, max(f.post_pk) AS last_pk",
        );
        push_from(&mut sql, scope);
        sql.push(" AND f.author IN (SELECT value FROM json_each(")
            .push_bind(list.clone())
            .push(")) GROUP BY f.author) AS g JOIN posts p ON p.pk = g.last_pk");
        let authors: Vec<(String, i64, String)> =
            sql.build_query_as().fetch_all(&self.pool).await?;
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
        .fetch_all(&self.pool)
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
}

/// ` AND <table>.post_pk IN (<the scope's posts>)`, or nothing when the scope is the whole
/// archive.
fn push_scope_condition(sql: &mut QueryBuilder<'_, Sqlite>, table: &str, scope: &Resolved) {
    if scope.is_everything() {
        return;
    }
    sql.push(format!(" AND {table}.post_pk IN (SELECT f.post_pk"));
    push_from(sql, scope);
    sql.push(")");
}
