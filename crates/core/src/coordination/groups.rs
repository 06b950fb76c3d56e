//! From each signal's edges to the result: edges named and scored, the fused view, and groups.
//!
//! Groups are the connected components of the fused graph, counting a pair of accounts as
//! joined when its fused score reaches [`CoordinationOptions::group_threshold`] (by default
//! any kept edge joins). Every edge already needed several shared events within the window,
//! so a component holds only accounts each tied to the group by evidence it can open; a
//! community method (Louvain, Leiden) would also split or merge by a resolution the user could
//! not read off the evidence. The baseline then tells an unusual group from a busy topic.

use std::collections::{BTreeSet, HashMap};

use chrono::{DateTime, Utc};

use super::fused::fuse;
use super::input::ScopePosts;
use super::window::RawEdge;
use super::{
    Coordination, CoordinationEdge, CoordinationGroup, CoordinationOptions, PostRef, Signal,
    SIGNALS,
};

/// Each signal's edges, as computed.
#[derive(Default)]
pub(super) struct Found {
    signals: Vec<(Signal, Vec<RawEdge>)>,
}

pub(super) fn time(ms: i64) -> DateTime<Utc> {
    DateTime::from_timestamp_millis(ms).unwrap_or_default()
}

impl Found {
    pub(super) fn add(&mut self, signal: Signal, edges: Vec<RawEdge>) {
        self.signals.push((signal, edges));
    }

    /// The result, its groups not yet judged by the baseline.
    pub(super) fn finish(self, posts: &ScopePosts, options: &CoordinationOptions) -> Coordination {
        let mut table: Vec<PostRef> = Vec::new();
        let mut renumbered: HashMap<u32, u32> = HashMap::new();
        let mut index = |post: u32, table: &mut Vec<PostRef>| -> u32 {
            *renumbered.entry(post).or_insert_with(|| {
                let p = &posts.posts[post as usize];
                table.push(PostRef {
                    id: p.id.to_string(),
                    author: posts.handles[p.author as usize].clone(),
                    at: time(p.at_ms),
                    text: p.text.to_string(),
                });
                (table.len() - 1) as u32
            })
        };
        let mut edges = Vec::new();
        for (signal, raw) in self.signals {
            let heaviest = raw.iter().map(|e| e.weight).max().unwrap_or(1).max(1);
            let mut named: Vec<CoordinationEdge> = raw
                .into_iter()
                .map(|e| CoordinationEdge {
                    source: posts.handles[e.a as usize].clone(),
                    target: posts.handles[e.b as usize].clone(),
                    signal,
                    weight: e.weight,
                    score: if signal == Signal::CoRepost {
                        e.score
                    } else {
                        f64::from(e.weight) / f64::from(heaviest)
                    },
                    first: time(e.first_ms),
                    last: time(e.last_ms),
                    pairs: e
                        .pairs
                        .iter()
                        .map(|(p, q)| [index(*p, &mut table), index(*q, &mut table)])
                        .collect(),
                })
                .collect();
            named.sort_by(|a, b| {
                b.weight
                    .cmp(&a.weight)
                    .then_with(|| (&a.source, &a.target).cmp(&(&b.source, &b.target)))
            });
            edges.extend(named);
        }
        let fused = fuse(&edges, options);
        let mut result = Coordination {
            options: options.clone(),
            posts_read: posts.len() as u64,
            accounts: posts.accounts() as u64,
            edges,
            fused,
            groups: Vec::new(),
            posts: table,
        };
        result.groups = components(&result, options);
        result
    }
}

/// The connected components of the fused graph at the threshold, largest first.
fn components(result: &Coordination, options: &CoordinationOptions) -> Vec<CoordinationGroup> {
    let mut number: HashMap<&str, usize> = HashMap::new();
    let mut names: Vec<&str> = Vec::new();
    let mut parent: Vec<usize> = Vec::new();
    for edge in result
        .fused
        .iter()
        .filter(|e| e.score >= options.group_threshold)
    {
        let mut node = |name| {
            *number.entry(name).or_insert_with(|| {
                names.push(name);
                parent.push(parent.len());
                parent.len() - 1
            })
        };
        let (a, b) = (node(edge.source.as_str()), node(edge.target.as_str()));
        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
        if ra != rb {
            parent[ra.max(rb)] = ra.min(rb);
        }
    }
    let mut members: HashMap<usize, Vec<&str>> = HashMap::new();
    for (i, name) in names.iter().enumerate() {
        let r = root(&mut parent, i);
        members.entry(r).or_default().push(name);
    }
    let mut groups: Vec<CoordinationGroup> = members
        .into_values()
        .filter(|m| m.len() >= 2)
        .map(|mut m| {
            m.sort_unstable();
            group(result, m, options)
        })
        .collect();
    groups.sort_by(|a, b| {
        b.size
            .cmp(&a.size)
            .then_with(|| a.first.cmp(&b.first))
            .then_with(|| a.members.cmp(&b.members))
    });
    for (i, g) in groups.iter_mut().enumerate() {
        g.id = i as u32 + 1;
    }
    groups
}

fn root(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

fn group(
    result: &Coordination,
    members: Vec<&str>,
    options: &CoordinationOptions,
) -> CoordinationGroup {
    let set: BTreeSet<&str> = members.iter().copied().collect();
    let edges: Vec<u32> = result
        .edges
        .iter()
        .enumerate()
        .filter(|(_, e)| set.contains(e.source.as_str()) && set.contains(e.target.as_str()))
        .map(|(i, _)| i as u32)
        .collect();
    let chosen = || edges.iter().map(|i| &result.edges[*i as usize]);
    let signals: BTreeSet<Signal> = chosen().map(|e| e.signal).collect();
    let first = chosen().map(|e| e.first).min().unwrap_or_default();
    let last = chosen().map(|e| e.last).max().unwrap_or_default();
    let reason = SIGNALS
        .iter()
        .filter(|s| signals.contains(s))
        .map(|s| {
            let of_signal: Vec<&CoordinationEdge> = chosen().filter(|e| e.signal == *s).collect();
            sentence(result, *s, &of_signal, options)
        })
        .collect::<Vec<_>>()
        .join(" ");
    CoordinationGroup {
        id: 0,
        size: members.len() as u32,
        members: members.into_iter().map(str::to_owned).collect(),
        signals: signals.into_iter().collect(),
        first,
        last,
        edges,
        reason,
        baseline: None,
        unusual: false,
    }
}

/// "7 accounts posted the same text within 40 s of each other, 5 times."
fn sentence(
    result: &Coordination,
    signal: Signal,
    edges: &[&CoordinationEdge],
    options: &CoordinationOptions,
) -> String {
    let accounts: BTreeSet<&str> = edges
        .iter()
        .flat_map(|e| [e.source.as_str(), e.target.as_str()])
        .collect();
    let n = accounts.len();
    let at = |i: u32| result.posts[i as usize].at;
    if signal == Signal::CoRepost {
        let shared: BTreeSet<u32> = edges
            .iter()
            .flat_map(|e| e.pairs.iter().map(|p| p[0]))
            .collect();
        let best = edges.iter().map(|e| e.score).fold(0.0, f64::max);
        let mean = edges.iter().map(|e| e.score).sum::<f64>() / edges.len().max(1) as f64;
        return format!(
            "{n} accounts reposted largely the same posts: {} posts reposted by two of them or \
             more (similarity {mean:.2} on average, up to {best:.2}).",
            shared.len()
        );
    }
    let mut starts: Vec<DateTime<Utc>> = Vec::new();
    let mut spread_ms = 0i64;
    for e in edges {
        for [p, q] in &e.pairs {
            starts.push(at(*p).min(at(*q)));
            spread_ms = spread_ms.max((at(*p) - at(*q)).num_milliseconds().abs());
        }
    }
    starts.sort_unstable();
    // Bursts: shared events more than a window apart are separate times.
    let window = chrono::Duration::seconds(i64::from(options.window_seconds));
    let times = starts.windows(2).filter(|w| w[1] - w[0] > window).count()
        + usize::from(!starts.is_empty());
    let what = match signal {
        Signal::CoPost => "posted the same text",
        Signal::NearDuplicate => "posted nearly the same text",
        Signal::CoLink => "shared the same link",
        Signal::CoHashtag => "used the same hashtags",
        Signal::CoReply => "replied to the same post",
        Signal::FastRepost => "reposted the same post within seconds of it being written",
        Signal::CoRepost => unreachable!("said above"),
    };
    let spread = (spread_ms + 999) / 1000;
    let times = if times == 1 {
        "once".to_owned()
    } else {
        format!("{times} times")
    };
    format!("{n} accounts {what} within {spread} s of each other, {times}.")
}
