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

use chrono::{DateTime, SecondsFormat, Utc};
use serde::Deserialize;
use sightline_store::export::cell;
use ts_rs::TS;

use super::{Coordination, CoordinationEdge};
use crate::errors::CommandError;
use crate::export::write_atomically;
use crate::markup::escape;

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

fn utc(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
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
    let mut nodes: BTreeMap<&str, (u32, bool)> = BTreeMap::new();
    for edge in &result.edges {
        nodes.entry(&edge.source).or_default();
        nodes.entry(&edge.target).or_default();
    }
    for group in &result.groups {
        for member in &group.members {
            nodes.insert(member, (group.id, group.unusual));
        }
    }
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        out,
        r#"<gexf xmlns="http://gexf.net/1.3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://gexf.net/1.3 http://gexf.net/1.3/gexf.xsd" version="1.3">"#
    )?;
    writeln!(
        out,
        r#"  <meta lastmodifieddate="{}"><creator>Sightline</creator><description>{}</description></meta>"#,
        Utc::now().format("%Y-%m-%d"),
        escape(description)
    )?;
    writeln!(
        out,
        r#"  <graph mode="static" defaultedgetype="undirected">"#
    )?;
    writeln!(
        out,
        r#"    <attributes class="node"><attribute id="group" title="group" type="integer"/><attribute id="unusual" title="unusual" type="boolean"/></attributes>"#
    )?;
    writeln!(
        out,
        r#"    <attributes class="edge"><attribute id="type" title="type" type="string"/><attribute id="score" title="score" type="double"/><attribute id="first_utc" title="first_utc" type="string"/><attribute id="last_utc" title="last_utc" type="string"/><attribute id="shared_post_ids" title="shared_post_ids" type="string"/></attributes>"#
    )?;
    writeln!(out, "    <nodes>")?;
    for (id, (group, unusual)) in &nodes {
        writeln!(
            out,
            r#"      <node id="{}" label="@{}"><attvalues><attvalue for="group" value="{group}"/><attvalue for="unusual" value="{unusual}"/></attvalues></node>"#,
            escape(id),
            escape(id),
        )?;
    }
    writeln!(out, "    </nodes>")?;
    writeln!(out, "    <edges>")?;
    for (n, edge) in result.edges.iter().enumerate() {
        let kind = edge.signal.edge_type();
        writeln!(
            out,
            r#"      <edge id="{n}" source="{}" target="{}" kind="{kind}" weight="{}" label="{kind}"><attvalues><attvalue for="type" value="{kind}"/><attvalue for="score" value="{:.4}"/><attvalue for="first_utc" value="{}"/><attvalue for="last_utc" value="{}"/><attvalue for="shared_post_ids" value="{}"/></attvalues></edge>"#,
            escape(&edge.source),
            escape(&edge.target),
            edge.weight,
            edge.score,
            utc(edge.first),
            utc(edge.last),
            escape(&shared_post_ids(result, edge).join(" ")),
        )?;
    }
    writeln!(out, "    </edges>")?;
    writeln!(out, "  </graph>")?;
    writeln!(out, "</gexf>")?;
    Ok(())
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
