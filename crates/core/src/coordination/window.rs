//! The windowed signals' common step: posts with the same key (a text, link, tag set, post
//! answered or reposted) by different accounts written at most the window apart are a shared
//! event; each pair of accounts' events make their edge.

use std::collections::HashMap;

use super::input::ScopePosts;

/// A post's appearance under one key.
#[derive(Clone, Copy)]
pub(super) struct Event {
    pub(super) key: u64,
    pub(super) at_ms: i64,
    pub(super) author: u32,
    pub(super) post: u32,
}

/// An edge between two accounts before it is named and fused.
#[derive(Debug, Clone)]
pub(crate) struct RawEdge {
    /// The two accounts; `a` has the smaller handle.
    pub(super) a: u32,
    pub(super) b: u32,
    pub(super) weight: u32,
    /// Co-repost's cosine; 0 for the others until fused.
    pub(super) score: f64,
    pub(super) first_ms: i64,
    pub(super) last_ms: i64,
    /// The shared events: (a's post, b's post).
    pub(super) pairs: Vec<(u32, u32)>,
}

/// Every pair of posts with the same key, by different accounts, at most `window_ms` apart:
/// sorted by key then time, each post is paired with the later ones still in the window.
pub(super) fn pairs(mut events: Vec<Event>, window_ms: i64) -> Vec<(u32, u32)> {
    events.sort_unstable_by_key(|e| (e.key, e.at_ms, e.post));
    let mut out = Vec::new();
    for (i, e) in events.iter().enumerate() {
        for later in &events[i + 1..] {
            if later.key != e.key || later.at_ms - e.at_ms > window_ms {
                break;
            }
            if later.author != e.author {
                out.push((e.post, later.post));
            }
        }
    }
    out
}

/// The post pairs as edges between their authors, each pair of posts one event (two posts
/// sharing two links are one event), kept from `min_events` up.
pub(super) fn edges(posts: &ScopePosts, mut raw: Vec<(u32, u32)>, min_events: u32) -> Vec<RawEdge> {
    for pair in &mut raw {
        if pair.0 > pair.1 {
            *pair = (pair.1, pair.0);
        }
    }
    raw.sort_unstable();
    raw.dedup();
    let mut by_accounts: HashMap<(u32, u32), RawEdge> = HashMap::new();
    for (p, q) in raw {
        let (pp, qp) = (&posts.posts[p as usize], &posts.posts[q as usize]);
        let (a, b, pa, pb) =
            if posts.handles[pp.author as usize] < posts.handles[qp.author as usize] {
                (pp.author, qp.author, p, q)
            } else {
                (qp.author, pp.author, q, p)
            };
        let first = pp.at_ms.min(qp.at_ms);
        let last = pp.at_ms.max(qp.at_ms);
        let edge = by_accounts.entry((a, b)).or_insert_with(|| RawEdge {
            a,
            b,
            weight: 0,
            score: 0.0,
            first_ms: first,
            last_ms: last,
            pairs: Vec::new(),
        });
        edge.weight += 1;
        edge.first_ms = edge.first_ms.min(first);
        edge.last_ms = edge.last_ms.max(last);
        edge.pairs.push((pa, pb));
    }
    let mut kept: Vec<RawEdge> = by_accounts
        .into_values()
        .filter(|e| e.weight >= min_events)
        .collect();
    kept.sort_unstable_by_key(|e| (e.a, e.b));
    kept
}
