//! Co-repost: how alike the sets of posts two accounts reposted are, as the cosine of their
//! TF-IDF vectors. Each account's vector has one entry per post it reposted (from the
//! reposters lists of the scope's posts and from reposts in timelines), weighted by the
//! post's rarity, idf = ln(1 + accounts / its reposters): two accounts that reposted the same
//! few little-reposted posts are alike; two that reposted the day's most reposted post are
//! hardly so. The service gives reposters without times, so there is no window; an edge needs
//! [`CoordinationOptions::min_events`] posts in common and a cosine of at least
//! [`CoordinationOptions::co_repost_cosine`].

use std::collections::{HashMap, HashSet};

use super::input::ScopePosts;
use super::text::key;
use super::window::RawEdge;
use super::{Coordination, CoordinationGroup, CoordinationOptions, Signal};

/// Who reposted each post, by the post's key (see [`reposters`]).
pub(super) type Reposters = HashMap<u64, Vec<(u32, u32)>>;

/// Who reposted each post: the post's key, then (account, the post that shows it: the
/// account's repost in a timeline, else the reposted post itself), each account once.
pub(super) fn reposters(posts: &ScopePosts) -> Reposters {
    let mut by_post: HashMap<u64, Vec<(u32, u32)>> = HashMap::new();
    for (i, post) in posts.posts.iter().enumerate() {
        if let Some((key, _)) = post.repost_of {
            by_post
                .entry(key)
                .or_default()
                .push((post.author, i as u32));
        }
    }
    for listed in &posts.listed {
        let key = super::text::key(&posts.posts[listed.post as usize].id);
        by_post
            .entry(key)
            .or_default()
            .push((listed.account, listed.post));
    }
    for list in by_post.values_mut() {
        list.sort_unstable();
        list.dedup_by_key(|(account, _)| *account);
    }
    by_post
}

/// The co-repost edges.
pub(super) fn edges(posts: &ScopePosts, options: &CoordinationOptions) -> Vec<RawEdge> {
    let by_post = reposters(posts);
    let mut accounts: HashMap<u32, f64> = HashMap::new();
    for list in by_post.values() {
        for (account, _) in list {
            accounts.entry(*account).or_insert(0.0);
        }
    }
    let n = accounts.len() as f64;
    let idf = |df: usize| (1.0 + n / df as f64).ln();
    for list in by_post.values() {
        let w = idf(list.len());
        for (account, _) in list {
            *accounts.get_mut(account).expect("counted above") += w * w;
        }
    }
    // (a, b) -> (dot product, edge)
    let mut pairs: HashMap<(u32, u32), (f64, RawEdge)> = HashMap::new();
    let mut keys: Vec<&u64> = by_post.keys().collect();
    keys.sort_unstable();
    for key in keys {
        let list = &by_post[key];
        if list.len() < 2 {
            continue;
        }
        let w = idf(list.len());
        for (i, &(x, px)) in list.iter().enumerate() {
            for &(y, py) in &list[i + 1..] {
                let ((a, pa), (b, pb)) = if posts.handles[x as usize] < posts.handles[y as usize] {
                    ((x, px), (y, py))
                } else {
                    ((y, py), (x, px))
                };
                let at = time_of(posts, pa);
                let entry = pairs.entry((a, b)).or_insert_with(|| {
                    (
                        0.0,
                        RawEdge {
                            a,
                            b,
                            weight: 0,
                            score: 0.0,
                            first_ms: at,
                            last_ms: at,
                            pairs: Vec::new(),
                        },
                    )
                });
                entry.0 += w * w;
                let edge = &mut entry.1;
                edge.weight += 1;
                edge.first_ms = edge.first_ms.min(at);
                edge.last_ms = edge.last_ms.max(at);
                edge.pairs.push((pa, pb));
            }
        }
    }
    let mut kept: Vec<RawEdge> = pairs
        .into_values()
        .filter_map(|(dot, mut edge)| {
            let cosine = dot / (accounts[&edge.a] * accounts[&edge.b]).sqrt();
            edge.score = cosine;
            (edge.weight >= options.min_events && cosine >= options.co_repost_cosine)
                .then_some(edge)
        })
        .collect();
    kept.sort_unstable_by_key(|e| (e.a, e.b));
    kept
}

/// For each post a pair of a group's members both reposted (a shared event), the share of the
/// post's reposters that are members; their mean over the group's shared events. Near 1 for
/// accounts that repost, together, posts few others repost; a few hundredths for readers who
/// reposted the day's popular posts among hundreds of others. A member's odd popular repost
/// weighs one shared event, a post the whole group reposted one per pair.
pub(super) fn share(
    posts: &ScopePosts,
    by_post: &Reposters,
    result: &Coordination,
    group: &CoordinationGroup,
) -> f64 {
    let members: HashSet<&str> = group.members.iter().map(String::as_str).collect();
    let mut of_post: HashMap<u64, f64> = HashMap::new();
    let (mut sum, mut events) = (0.0, 0usize);
    let edges = group.edges.iter().map(|i| &result.edges[*i as usize]);
    for edge in edges.filter(|e| e.signal == Signal::CoRepost) {
        for [first, _] in &edge.pairs {
            let Some(p) = posts.index_of(&result.posts[*first as usize].id) else {
                continue;
            };
            let post = &posts.posts[p as usize];
            let reposted = post.repost_of.map_or_else(|| key(&post.id), |(k, _)| k);
            let Some(list) = by_post.get(&reposted) else {
                continue;
            };
            sum += *of_post.entry(reposted).or_insert_with(|| {
                let mine = list
                    .iter()
                    .filter(|(a, _)| members.contains(posts.handles[*a as usize].as_str()))
                    .count();
                mine as f64 / list.len() as f64
            });
            events += 1;
        }
    }
    if events == 0 {
        1.0
    } else {
        sum / events as f64
    }
}

/// The time of the reposted post behind a shared event: the reposted post's when stored
/// (`post` is a repost in a timeline), else the post's own.
fn time_of(posts: &ScopePosts, post: u32) -> i64 {
    let p = &posts.posts[post as usize];
    match p.repost_of {
        Some((_, Some(original))) => original,
        _ => p.at_ms,
    }
}
