//! The network files of the analysis and of the coordination finder, byte for byte: a small
//! graph of each (names a file must escape, a group, shared posts) written as GEXF and as
//! edge CSV, against the exact text. Both write through this module, so a change to it shows
//! here in both files.

use crate::analysis::export as analysis_export;
use crate::coordination::export as coordination_export;
use crate::coordination::{
    Coordination, CoordinationEdge, CoordinationGroup, CoordinationOptions, PostRef, Signal,
};
use chrono::{DateTime, TimeZone, Utc};
use sightline_store::{EdgeKind, Network, NetworkEdge, NetworkNode, Tz};

fn at(hour: u32, minute: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 1, hour, minute, 5).unwrap()
}

/// The file with its one varying part, the day it was written, put as `DAY`.
fn dated(bytes: Vec<u8>) -> String {
    let text = String::from_utf8(bytes).unwrap();
    let today = Utc::now().format("%Y-%m-%d").to_string();
    assert!(text.contains(&format!(r#"lastmodifieddate="{today}""#)));
    text.replacen(&today, "DAY", 1)
}

fn network() -> Network {
    Network {
        nodes: vec![
            NetworkNode {
                id: "a&b".into(),
                label: "@A&B <\"x\">".into(),
                posts: 3,
            },
            NetworkNode {
                id: "c".into(),
                label: "@C".into(),
                posts: 0,
            },
        ],
        edges: vec![
            NetworkEdge {
                source: "a&b".into(),
                target: "c".into(),
                kind: EdgeKind::Reply,
                weight: 2,
                first: at(9, 0),
                last: at(10, 30),
            },
            NetworkEdge {
                source: "c".into(),
                target: "a&b".into(),
                kind: EdgeKind::Repost,
                weight: 1,
                first: at(11, 0),
                last: at(11, 0),
            },
        ],
        total_edges: 2,
        reposter_requests: 1,
    }
}

fn coordination() -> Coordination {
    let post = |id: &str, author: &str, minute| PostRef {
        id: id.into(),
        author: author.into(),
        at: at(12, minute),
        text: "same words".into(),
    };
    let edge = |source: &str, target: &str, signal, pairs: Vec<[u32; 2]>| CoordinationEdge {
        source: source.into(),
        target: target.into(),
        signal,
        weight: pairs.len() as u32,
        score: 2.0 / 3.0,
        first: at(12, 0),
        last: at(12, 2),
        pairs,
    };
    Coordination {
        options: CoordinationOptions::default(),
        posts_read: 4,
        accounts: 3,
        edges: vec![
            edge("x<y", "z", Signal::CoPost, vec![[0, 1], [2, 1]]),
            edge("x<y", "z", Signal::CoLink, vec![[2, 3]]),
            edge("z", "w", Signal::FastRepost, vec![[3, 3]]),
        ],
        fused: Vec::new(),
        groups: vec![CoordinationGroup {
            id: 1,
            members: vec!["x<y".into(), "z".into()],
            size: 2,
            signals: vec![Signal::CoPost, Signal::CoLink],
            first: at(12, 0),
            last: at(12, 2),
            edges: vec![0, 1],
            reason: "Two accounts posted the same words at once.".into(),
            baseline: None,
            unusual: true,
        }],
        posts: vec![
            post("100", "x<y", 0),
            post("101", "z", 0),
            post("102", "x<y", 1),
            post("103", "z", 2),
        ],
    }
}

const NETWORK_GEXF: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<gexf xmlns="http://gexf.net/1.3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://gexf.net/1.3 http://gexf.net/1.3/gexf.xsd" version="1.3">
  <meta lastmodifieddate="DAY"><creator>Sightline</creator><description>X search &lt;&quot;a&amp;b&quot;&gt;</description></meta>
  <graph mode="static" defaultedgetype="directed">
    <attributes class="node"><attribute id="posts" title="posts" type="integer"/></attributes>
    <attributes class="edge"><attribute id="type" title="type" type="string"/><attribute id="first_utc" title="first_utc" type="string"/><attribute id="last_utc" title="last_utc" type="string"/></attributes>
    <nodes>
      <node id="a&amp;b" label="@A&amp;B &lt;&quot;x&quot;&gt;"><attvalues><attvalue for="posts" value="3"/></attvalues></node>
      <node id="c" label="@C"><attvalues><attvalue for="posts" value="0"/></attvalues></node>
    </nodes>
    <edges>
      <edge id="0" source="a&amp;b" target="c" weight="2" label="reply"><attvalues><attvalue for="type" value="reply"/><attvalue for="first_utc" value="2026-03-01T09:00:05Z"/><attvalue for="last_utc" value="2026-03-01T10:30:05Z"/></attvalues></edge>
      <edge id="1" source="c" target="a&amp;b" weight="1" label="repost"><attvalues><attvalue for="type" value="repost"/><attvalue for="first_utc" value="2026-03-01T11:00:05Z"/><attvalue for="last_utc" value="2026-03-01T11:00:05Z"/></attvalues></edge>
    </edges>
  </graph>
</gexf>
"#;

const NETWORK_CSV: &str = r#"source,target,type,weight,first_utc,last_utc,first_local,last_local
a&b,c,reply,2,2026-03-01T09:00:05Z,2026-03-01T10:30:05Z,2026-03-01 09:00:05 UTC,2026-03-01 10:30:05 UTC
c,a&b,repost,1,2026-03-01T11:00:05Z,2026-03-01T11:00:05Z,2026-03-01 11:00:05 UTC,2026-03-01 11:00:05 UTC
"#;

const COORDINATION_GEXF: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<gexf xmlns="http://gexf.net/1.3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://gexf.net/1.3 http://gexf.net/1.3/gexf.xsd" version="1.3">
  <meta lastmodifieddate="DAY"><creator>Sightline</creator><description>Coordination in “a” &amp; &lt;b&gt;</description></meta>
  <graph mode="static" defaultedgetype="undirected">
    <attributes class="node"><attribute id="group" title="group" type="integer"/><attribute id="unusual" title="unusual" type="boolean"/></attributes>
    <attributes class="edge"><attribute id="type" title="type" type="string"/><attribute id="score" title="score" type="double"/><attribute id="first_utc" title="first_utc" type="string"/><attribute id="last_utc" title="last_utc" type="string"/><attribute id="shared_post_ids" title="shared_post_ids" type="string"/></attributes>
    <nodes>
      <node id="w" label="@w"><attvalues><attvalue for="group" value="0"/><attvalue for="unusual" value="false"/></attvalues></node>
      <node id="x&lt;y" label="@x&lt;y"><attvalues><attvalue for="group" value="1"/><attvalue for="unusual" value="true"/></attvalues></node>
      <node id="z" label="@z"><attvalues><attvalue for="group" value="1"/><attvalue for="unusual" value="true"/></attvalues></node>
    </nodes>
    <edges>
      <edge id="0" source="x&lt;y" target="z" kind="co_tweet" weight="2" label="co_tweet"><attvalues><attvalue for="type" value="co_tweet"/><attvalue for="score" value="0.6667"/><attvalue for="first_utc" value="2026-03-01T12:00:05Z"/><attvalue for="last_utc" value="2026-03-01T12:02:05Z"/><attvalue for="shared_post_ids" value="100 101 102"/></attvalues></edge>
      <edge id="1" source="x&lt;y" target="z" kind="co_link" weight="1" label="co_link"><attvalues><attvalue for="type" value="co_link"/><attvalue for="score" value="0.6667"/><attvalue for="first_utc" value="2026-03-01T12:00:05Z"/><attvalue for="last_utc" value="2026-03-01T12:02:05Z"/><attvalue for="shared_post_ids" value="102 103"/></attvalues></edge>
      <edge id="2" source="z" target="w" kind="fast_repost" weight="1" label="fast_repost"><attvalues><attvalue for="type" value="fast_repost"/><attvalue for="score" value="0.6667"/><attvalue for="first_utc" value="2026-03-01T12:00:05Z"/><attvalue for="last_utc" value="2026-03-01T12:02:05Z"/><attvalue for="shared_post_ids" value="103"/></attvalues></edge>
    </edges>
  </graph>
</gexf>
"#;

const COORDINATION_CSV: &str = r#"source,target,weight,edge_type,first_utc,last_utc,score,shared_post_ids
x<y,z,2,co_tweet,2026-03-01T12:00:05Z,2026-03-01T12:02:05Z,0.6667,100 101 102
x<y,z,1,co_link,2026-03-01T12:00:05Z,2026-03-01T12:02:05Z,0.6667,102 103
z,w,1,fast_repost,2026-03-01T12:00:05Z,2026-03-01T12:02:05Z,0.6667,103
"#;

#[test]
fn the_analysis_network_files_are_exactly_these() {
    let mut gexf = Vec::new();
    analysis_export::network_gexf(&network(), "X search <\"a&b\">", &mut gexf).unwrap();
    assert_eq!(dated(gexf), NETWORK_GEXF);
    let mut csv = Vec::new();
    analysis_export::edges_csv(&network(), Tz::UTC, &mut csv).unwrap();
    assert_eq!(String::from_utf8(csv).unwrap(), NETWORK_CSV);
}

#[test]
fn the_coordination_files_are_exactly_these() {
    let mut gexf = Vec::new();
    coordination_export::gexf(&coordination(), "Coordination in “a” & <b>", &mut gexf).unwrap();
    assert_eq!(dated(gexf), COORDINATION_GEXF);
    let mut csv = Vec::new();
    coordination_export::edges_csv(&coordination(), &mut csv).unwrap();
    assert_eq!(String::from_utf8(csv).unwrap(), COORDINATION_CSV);
}
