//! The edges of a network of one kind, as both ways of finding them hand them back: every
//! edge's rows, and which of them to keep (heavy enough, the heaviest so many), whether SQL
//! groups them (`analysis/network.rs`) or Rust tallies them (`analysis/network_tally.rs`).

use std::collections::HashMap;

use sqlx::{QueryBuilder, Sqlite};

/// `(source, target, weight, first, last, edges of the kind in all)` rows of one kind of edge.
pub(super) type EdgeRows = Vec<(String, String, i64, i64, i64, i64)>;

/// Which edges of a kind to hand back: at least `min_weight`, the heaviest `limit`.
#[derive(Clone, Copy)]
pub(crate) struct HeaviestEdges {
    pub(crate) min_weight: i64,
    pub(crate) limit: i64,
}

impl HeaviestEdges {
    /// What [`HeaviestEdges::push`] keeps, for edges tallied in Rust:
    /// `(source, target) -> (weight, first, last)`.
    pub(super) fn of(self, tally: HashMap<(String, String), (i64, i64, i64)>) -> EdgeRows {
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
    pub(super) fn push(self, sql: &mut QueryBuilder<'_, Sqlite>, source: &str, target: &str) {
        sql.push(" HAVING count(*) >= ")
            .push_bind(self.min_weight)
            .push(format!(" ORDER BY n DESC, {source}, {target} LIMIT "))
            .push_bind(self.limit);
    }
}
