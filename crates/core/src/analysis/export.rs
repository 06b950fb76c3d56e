//! The analysis's files: the network as GEXF 1.3 (for Gephi and the like) or as an edge CSV,
//! and every table behind a chart as CSV (the most-shared pictures too, a line per post). CSV
//! cells a spreadsheet would run as a formula are made inert, as in the app's other CSVs, and
//! every time is written in UTC and in the display zone with its offset and zone named.
//! Written atomically, like every export.

use std::io::Write;
use std::path::Path;

use serde::Deserialize;
use sightline_store::export::{cell, id_cell, utc};
use sightline_store::zone_names::local_seconds;
use sightline_store::{
    ActivitySeries, AnalysisScope, Heatmap, Network, NetworkQuery, Store, TopKind, TopList, Tz,
};
use ts_rs::TS;

use super::pictures::{shared_pictures, SharedPictures};
use super::{activity, chart_zone, gone, network, ActivityOptions};
use crate::errors::CommandError;
use crate::export::write_atomically;
use crate::graph_export::{write_gexf, Edge, Graph, Node};

/// The network's file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum NetworkFormat {
    /// GEXF 1.3: nodes with labels and post counts, edges with type, weight, first and last
    /// time.
    Gexf,
    /// One line per edge: source, target, type, weight, first and last time.
    Csv,
}

impl NetworkFormat {
    /// The file name's extension for this format.
    pub fn extension(self) -> &'static str {
        match self {
            Self::Gexf => "gexf",
            Self::Csv => "csv",
        }
    }
}

/// The heatmap's zone (the display zone when `None`).
#[derive(Debug, Clone, Default, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(export)]
pub struct HeatmapOptions {
    /// An IANA zone name or `UTC`; `None`: the display zone.
    pub zone: Option<String>,
}

/// One top list, up to `limit` entries (every entry when `None`).
#[derive(Debug, Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct TopOptions {
    /// Which top list.
    pub list: TopKind,
    #[serde(default)]
    /// Most entries written; `None`: every entry.
    pub limit: Option<u32>,
}

/// Which table to write as CSV.
#[derive(Debug, Clone, Deserialize, TS)]
#[serde(tag = "table", rename_all = "snake_case")]
#[ts(export)]
pub enum AnalysisTable {
    /// One line per bucket: its start, each layer's count, total, engagement.
    Activity(ActivityOptions),
    /// One line per weekday, one column per hour.
    Heatmap(HeatmapOptions),
    /// One top list: rank, name, count.
    Top(TopOptions),
    /// The network's nodes: id, label, posts.
    Nodes(NetworkQuery),
    /// The network's edges, as [`NetworkFormat::Csv`].
    Edges(NetworkQuery),
    /// The most-shared pictures: a line per picture and post holding it.
    SharedPictures(SharedPicturesOptions),
}

/// How many of the most-shared pictures to write (every one shared when `None`).
#[derive(Debug, Clone, Default, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(export)]
pub struct SharedPicturesOptions {
    /// Most pictures written; `None`: every picture two or more posts share.
    pub limit: Option<u32>,
}

impl AnalysisTable {
    /// The file's name, before its date and extension.
    pub fn file_name(&self) -> String {
        match self {
            Self::Activity(_) => "sightline-activity".into(),
            Self::Heatmap(_) => "sightline-heatmap".into(),
            Self::Top(options) => format!("sightline-top-{}", top_name(options.list)),
            Self::Nodes(_) => "sightline-network-nodes".into(),
            Self::Edges(_) => "sightline-network-edges".into(),
            Self::SharedPictures(_) => "sightline-shared-pictures".into(),
        }
    }
}

fn top_name(kind: TopKind) -> &'static str {
    match kind {
        TopKind::AccountsByPosts => "accounts-by-posts",
        TopKind::AccountsByEngagement => "accounts-by-engagement",
        TopKind::Hashtags => "hashtags",
        TopKind::Mentions => "mentions",
        TopKind::Cashtags => "cashtags",
        TopKind::Domains => "domains",
        TopKind::Languages => "languages",
    }
}

/// The network as GEXF 1.3: a directed graph whose nodes carry their label and post count,
/// and whose edges carry their weight, type (as label and attribute) and first and last time
/// (UTC, ISO 8601).
pub fn network_gexf(
    network: &Network,
    description: &str,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let graph = Graph {
        description,
        edge_type: "directed",
        node_attributes: &[("posts", "integer")],
        edge_attributes: &[
            ("type", "string"),
            ("first_utc", "string"),
            ("last_utc", "string"),
        ],
    };
    let nodes = network.nodes.iter().map(|node| Node {
        id: &node.id,
        label: node.label.clone(),
        values: vec![node.posts.to_string()],
    });
    let edges = network.edges.iter().map(|edge| Edge {
        source: &edge.source,
        target: &edge.target,
        kind: None,
        weight: edge.weight.to_string(),
        label: edge.kind.as_str(),
        values: vec![
            edge.kind.as_str().to_owned(),
            utc(edge.first),
            utc(edge.last),
        ],
    });
    write_gexf(out, &graph, nodes, edges)
}

/// One line per edge: source, target, type, weight, first and last time in UTC and in `tz`.
pub fn edges_csv(network: &Network, tz: Tz, out: impl Write) -> sightline_store::Result<()> {
    let mut csv = csv::Writer::from_writer(out);
    csv.write_record([
        "source",
        "target",
        "type",
        "weight",
        "first_utc",
        "last_utc",
        "first_local",
        "last_local",
    ])?;
    for edge in &network.edges {
        csv.write_record([
            id_cell(&edge.source),
            id_cell(&edge.target),
            edge.kind.as_str().to_owned(),
            edge.weight.to_string(),
            utc(edge.first),
            utc(edge.last),
            local_seconds(edge.first, tz),
            local_seconds(edge.last, tz),
        ])?;
    }
    csv.flush()?;
    Ok(())
}

/// One line per node: id, label, posts in the scope.
pub fn nodes_csv(network: &Network, out: impl Write) -> sightline_store::Result<()> {
    let mut csv = csv::Writer::from_writer(out);
    csv.write_record(["id", "label", "posts"])?;
    for node in &network.nodes {
        csv.write_record([id_cell(&node.id), cell(&node.label), node.posts.to_string()])?;
    }
    csv.flush()?;
    Ok(())
}

/// One line per bucket: its start in UTC and in the series' zone, each layer, total,
/// engagement.
pub fn activity_csv(
    series: &ActivitySeries,
    tz: Tz,
    out: impl Write,
) -> sightline_store::Result<()> {
    let mut csv = csv::Writer::from_writer(out);
    let mut header = vec!["start_utc".to_owned(), "start_local".to_owned()];
    header.extend(series.layers.iter().map(|layer| cell(&layer.key)));
    header.extend(["posts".to_owned(), "engagement".to_owned()]);
    csv.write_record(&header)?;
    for (i, start) in series.starts.iter().enumerate() {
        let mut line = vec![utc(*start), local_seconds(*start, tz)];
        line.extend(
            series
                .layers
                .iter()
                .map(|layer| layer.counts[i].to_string()),
        );
        line.extend([
            series.totals[i].to_string(),
            series.engagement[i].to_string(),
        ]);
        csv.write_record(&line)?;
    }
    csv.flush()?;
    Ok(())
}

const WEEKDAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

/// One line per weekday, one column per hour of the heatmap's zone (named in the header).
pub fn heatmap_csv(heatmap: &Heatmap, out: impl Write) -> sightline_store::Result<()> {
    let mut csv = csv::Writer::from_writer(out);
    let mut header = vec![format!("weekday ({})", heatmap.zone)];
    header.extend((0..24).map(|hour| format!("{hour:02}:00")));
    csv.write_record(&header)?;
    for (day, cells) in WEEKDAYS.iter().zip(&heatmap.cells) {
        let mut line = vec![(*day).to_owned()];
        line.extend(cells.iter().map(ToString::to_string));
        csv.write_record(&line)?;
    }
    csv.flush()?;
    Ok(())
}

/// One line per entry: rank, key, label, count; then how many distinct entries there are.
pub fn top_csv(list: &TopList, out: impl Write) -> sightline_store::Result<()> {
    let mut csv = csv::Writer::from_writer(out);
    csv.write_record(["rank", "key", "label", "count"])?;
    for (rank, entry) in list.entries.iter().enumerate() {
        csv.write_record([
            (rank + 1).to_string(),
            cell(&entry.key),
            cell(&entry.label),
            entry.count.to_string(),
        ])?;
    }
    csv.flush()?;
    Ok(())
}

/// One line per picture and post holding it: the picture's rank, its file (the one shown), how
/// many posts and files share it; the post, its author's handle and its time (UTC and in `tz`), its own
/// file and how it relates to the one shown, in words and as a PDQ distance.
pub fn shared_pictures_csv(
    shared: &SharedPictures,
    tz: Tz,
    out: impl Write,
) -> sightline_store::Result<()> {
    let mut csv = csv::Writer::from_writer(out);
    csv.write_record([
        "rank",
        "picture_sha256",
        "posts_sharing",
        "files_in_group",
        "post_id",
        "author",
        "created_utc",
        "created_local",
        "post_file_sha256",
        "relation",
        "pdq_distance",
    ])?;
    for (rank, picture) in shared.pictures.iter().enumerate() {
        for post in &picture.posts {
            let (author, utc_at, local_at) = match &post.post {
                Some(p) => (
                    p.author_username.clone(),
                    utc(p.created_at),
                    local_seconds(p.created_at, tz),
                ),
                None => Default::default(),
            };
            csv.write_record([
                (rank + 1).to_string(),
                picture.file.sha256.clone(),
                picture.post_count.to_string(),
                picture.files.to_string(),
                id_cell(&post.post_id),
                cell(&author),
                utc_at,
                local_at,
                post.sha256.clone(),
                post.words.clone(),
                post.distance.to_string(),
            ])?;
        }
    }
    csv.flush()?;
    Ok(())
}

/// Writes the scope's network to `path` as GEXF or edge CSV.
pub async fn write_network(
    store: &Store,
    scope: &AnalysisScope,
    query: &NetworkQuery,
    format: NetworkFormat,
    path: &Path,
) -> Result<(), CommandError> {
    let network = network(store, scope, query).await?;
    match format {
        NetworkFormat::Gexf => {
            let name = super::summary(store, scope).await?.name;
            write_atomically(path, |out| Ok(network_gexf(&network, &name, out)?))
        }
        NetworkFormat::Csv => write_atomically(path, |out| {
            edges_csv(&network, crate::zone::time_zone(), out)
        }),
    }
}

/// Writes one of the scope's tables to `path` as CSV.
pub async fn write_table(
    store: &Store,
    scope: &AnalysisScope,
    table: &AnalysisTable,
    path: &Path,
) -> Result<(), CommandError> {
    match table {
        AnalysisTable::Activity(options) => {
            let tz = chart_zone(options.zone.as_deref())?;
            let series = activity(store, scope, options).await?;
            write_atomically(path, |out| activity_csv(&series, tz, out))
        }
        AnalysisTable::Heatmap(options) => {
            let heatmap = super::heatmap(store, scope, options.zone.as_deref()).await?;
            write_atomically(path, |out| heatmap_csv(&heatmap, out))
        }
        AnalysisTable::Top(options) => {
            let list = store
                .analysis_top_list(scope, options.list, options.limit.unwrap_or(u32::MAX))
                .await?
                .ok_or_else(gone)?;
            write_atomically(path, |out| top_csv(&list, out))
        }
        AnalysisTable::Nodes(query) => {
            let network = network(store, scope, query).await?;
            write_atomically(path, |out| nodes_csv(&network, out))
        }
        AnalysisTable::Edges(query) => {
            let network = network(store, scope, query).await?;
            write_atomically(path, |out| {
                edges_csv(&network, crate::zone::time_zone(), out)
            })
        }
        AnalysisTable::SharedPictures(options) => {
            let limit = Some(options.limit.unwrap_or(u32::MAX));
            let shared = shared_pictures(store, scope, limit).await?;
            write_atomically(path, |out| {
                shared_pictures_csv(&shared, crate::zone::time_zone(), out)
            })
        }
    }
}

/// A chart picture's format, as the window made it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum ChartFormat {
    /// A PNG picture, as the window drew it.
    Png,
    /// An SVG picture, as the window drew it.
    Svg,
}

impl ChartFormat {
    /// The file name's extension for this format.
    pub fn extension(self) -> &'static str {
        match self {
            Self::Png => "png",
            Self::Svg => "svg",
        }
    }
}

/// Writes a chart picture the window drew.
pub fn write_chart(bytes: &[u8], path: &Path) -> Result<(), CommandError> {
    write_atomically(path, |out| Ok(out.write_all(bytes)?))
}
