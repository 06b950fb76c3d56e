//! GEXF 1.3, the graph file Gephi and the like open, written once for the analysis's network
//! (`analysis::export`) and the coordination finder (`coordination::export`): the header with
//! the scope named and today's date, the attributes nodes and edges carry (each its id as
//! its title), then a line per node and per edge, numbered in order. Every name and value is
//! escaped for XML here, so a handle or a scope's name cannot break the file.

use std::io::{self, Write};

use chrono::Utc;

use crate::markup::escape;

/// An attribute every node or edge carries: its id (also its title) and its GEXF type
/// (`integer`, `double`, `boolean`, `string`).
pub(crate) type Attribute = (&'static str, &'static str);

/// What a file says of its graph as a whole.
pub(crate) struct Graph<'a> {
    /// Names the scope (escaped here).
    pub description: &'a str,
    /// `directed` (one account acted on another) or `undirected` (two accounts alike).
    pub edge_type: &'static str,
    /// The attributes of every node, in the order of [`Node::values`].
    pub node_attributes: &'a [Attribute],
    /// The attributes of every edge, in the order of [`Edge::values`].
    pub edge_attributes: &'a [Attribute],
}

/// One node: its id, its label and a value for each of the graph's node attributes.
pub(crate) struct Node<'a> {
    pub id: &'a str,
    pub label: String,
    pub values: Vec<String>,
}

/// One edge: its ends, its weight, its label, and a value for each of the graph's edge
/// attributes; `kind` tells apart edges between the same two nodes (GEXF's `kind`).
pub(crate) struct Edge<'a> {
    pub source: &'a str,
    pub target: &'a str,
    pub kind: Option<&'a str>,
    pub weight: String,
    pub label: &'a str,
    pub values: Vec<String>,
}

/// Writes `graph` with its nodes and edges (the edges numbered from 0) to `out`.
pub(crate) fn write_gexf<'n, 'e>(
    out: &mut impl Write,
    graph: &Graph,
    nodes: impl IntoIterator<Item = Node<'n>>,
    edges: impl IntoIterator<Item = Edge<'e>>,
) -> io::Result<()> {
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        out,
        r#"<gexf xmlns="http://gexf.net/1.3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://gexf.net/1.3 http://gexf.net/1.3/gexf.xsd" version="1.3">"#
    )?;
    writeln!(
        out,
        r#"  <meta lastmodifieddate="{}"><creator>Sightline</creator><description>{}</description></meta>"#,
        Utc::now().format("%Y-%m-%d"),
        escape(graph.description)
    )?;
    writeln!(
        out,
        r#"  <graph mode="static" defaultedgetype="{}">"#,
        graph.edge_type
    )?;
    attributes(out, "node", graph.node_attributes)?;
    attributes(out, "edge", graph.edge_attributes)?;
    writeln!(out, "    <nodes>")?;
    for node in nodes {
        writeln!(
            out,
            r#"      <node id="{}" label="{}">{}</node>"#,
            escape(node.id),
            escape(&node.label),
            values(graph.node_attributes, &node.values)
        )?;
    }
    writeln!(out, "    </nodes>")?;
    writeln!(out, "    <edges>")?;
    for (n, edge) in edges.into_iter().enumerate() {
        let kind = edge
            .kind
            .map(|kind| format!(r#" kind="{}""#, escape(kind)))
            .unwrap_or_default();
        writeln!(
            out,
            r#"      <edge id="{n}" source="{}" target="{}"{kind} weight="{}" label="{}">{}</edge>"#,
            escape(edge.source),
            escape(edge.target),
            escape(&edge.weight),
            escape(edge.label),
            values(graph.edge_attributes, &edge.values)
        )?;
    }
    writeln!(out, "    </edges>")?;
    writeln!(out, "  </graph>")?;
    writeln!(out, "</gexf>")?;
    Ok(())
}

/// The line declaring `class`'s attributes.
fn attributes(out: &mut impl Write, class: &str, list: &[Attribute]) -> io::Result<()> {
    let declared: String = list
        .iter()
        .map(|(id, kind)| format!(r#"<attribute id="{id}" title="{id}" type="{kind}"/>"#))
        .collect();
    writeln!(
        out,
        r#"    <attributes class="{class}">{declared}</attributes>"#
    )
}

/// A node's or edge's `<attvalues>`, each value under its attribute's id.
fn values(list: &[Attribute], values: &[String]) -> String {
    debug_assert_eq!(list.len(), values.len(), "a value for each attribute");
    let each: String = list
        .iter()
        .zip(values)
        .map(|((id, _), value)| format!(r#"<attvalue for="{id}" value="{}"/>"#, escape(value)))
        .collect();
    format!("<attvalues>{each}</attvalues>")
}

#[cfg(test)]
mod tests;
