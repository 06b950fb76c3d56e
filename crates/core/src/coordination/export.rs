//! The finder's files. The edge CSV starts with the QUT coordination-network toolkit's Gephi
//! columns (`source`, `target`, `weight`, `edge_type`; its edge types where it has the signal:
//! `co_tweet`, `co_similar_tweet`, `co_link`, `co_reply`) so results can be set beside its
//! own, then ours: first and last time (UTC, ISO 8601), the score, and the shared posts' ids.
//! GEXF 1.3: an undirected graph of the accounts (label, group, whether the group is unusual)
//! and one edge per signal between two accounts (its kind and type, weight, score, times and
//! shared posts). Written atomically, like every export; CSV cells a spreadsheet would run as
//! a formula are made inert.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::Path;

use serde::Deserialize;
use sightline_store::export::{cell, utc};
use ts_rs::TS;

use super::{Coordination, CoordinationEdge};
use crate::errors::CommandError;
use crate::export::write_atomically;
use crate::graph_export::{write_gexf, Edge, Graph, Node};

/// The edge CSV's header.
pub const CSV_COLUMNS: [&str; 8] = [
    "source",
    "target",
    "weight",
    "edge_type",
    "first_utc",
    "last_utc",
    "score",
    "shared_post_ids",
];

/// The finder's file formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum CoordinationFormat {
    /// One line per edge ([`CSV_COLUMNS`]).
    Csv,
    /// GEXF 1.3.
    Gexf,
}

impl CoordinationFormat {
    /// The file name's extension.
    pub fn extension(self) -> &'static str {
        match self {
            Self::Csv => "csv",
            Self::Gexf => "gexf",
        }
    }
}

/// The ids of an edge's shared posts, each once, in the order of its events.
pub fn shared_post_ids(result: &Coordination, edge: &CoordinationEdge) -> Vec<String> {
    let mut seen = BTreeSet::new();
    let mut ids = Vec::new();
    for index in edge.pairs.iter().flatten() {
        if seen.insert(*index) {
            if let Some(post) = result.posts.get(*index as usize) {
                ids.push(post.id.clone());
            }
        }
    }
    ids
}

/// Every edge as CSV ([`CSV_COLUMNS`]).
pub fn edges_csv(result: &Coordination, out: &mut impl Write) -> std::io::Result<()> {
    let mut csv = csv::Writer::from_writer(out);
    csv.write_record(CSV_COLUMNS)?;
    for edge in &result.edges {
        csv.write_record([
            cell(&edge.source),
            cell(&edge.target),
            edge.weight.to_string(),
            edge.signal.edge_type().to_owned(),
            utc(edge.first),
            utc(edge.last),
            format!("{:.4}", edge.score),
            cell(&shared_post_ids(result, edge).join(" ")),
        ])?;
    }
    csv.flush()?;
    Ok(())
}

/// The accounts and edges as GEXF 1.3.
pub fn gexf(result: &Coordination, description: &str, out: &mut impl Write) -> std::io::Result<()> {
    // Each account in an edge, with its group's number (0: none) and whether it is unusual.
    let mut accounts: BTreeMap<&str, (u32, bool)> = BTreeMap::new();
    for edge in &result.edges {
        accounts.entry(&edge.source).or_default();
        accounts.entry(&edge.target).or_default();
    }
    for group in &result.groups {
        for member in &group.members {
            accounts.insert(member, (group.id, group.unusual));
        }
    }
    let graph = Graph {
        description,
        edge_type: "undirected",
        node_attributes: &[("group", "integer"), ("unusual", "boolean")],
        edge_attributes: &[
            ("type", "string"),
            ("score", "double"),
            ("first_utc", "string"),
            ("last_utc", "string"),
            ("shared_post_ids", "string"),
        ],
    };
    let nodes = accounts.iter().map(|(id, (group, unusual))| Node {
        id,
        label: format!("@{id}"),
        values: vec![group.to_string(), unusual.to_string()],
    });
    let edges = result.edges.iter().map(|edge| {
        let kind = edge.signal.edge_type();
        Edge {
            source: &edge.source,
            target: &edge.target,
            kind: Some(kind),
            weight: edge.weight.to_string(),
            label: kind,
            values: vec![
                kind.to_owned(),
                format!("{:.4}", edge.score),
                utc(edge.first),
                utc(edge.last),
                shared_post_ids(result, edge).join(" "),
            ],
        }
    });
    write_gexf(out, &graph, nodes, edges)
}

/// Writes `result` to `path` as `format`; `description` names the scope in the GEXF.
pub fn write(
    result: &Coordination,
    format: CoordinationFormat,
    description: &str,
    path: &Path,
) -> Result<(), CommandError> {
    write_atomically(path, |out| {
        match format {
            CoordinationFormat::Csv => edges_csv(result, out)?,
            CoordinationFormat::Gexf => gexf(result, description, out)?,
        }
        Ok(())
    })
}
