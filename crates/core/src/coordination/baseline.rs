//! How unusual a group's synchrony is, against its own members' activity: every member's
//! posts are moved in time together by one random shift (uniform within
//! ± [`CoordinationOptions::baseline_shift_seconds`], one shift per account per run) and the
//! group's shared events are counted again, [`CoordinationOptions::baseline_runs`] times from
//! a fixed seed. Each account keeps its own rhythm and its topics; only the alignment between
//! accounts is broken. A news burst that lasts an hour or more keeps its accounts together under
//! shifts of ten minutes, so its count hardly falls; accounts that act within seconds of each other lose
//! nearly every shared event. p = (1 + runs with at least the observed count) / (1 + runs).
//!
//! Shuffling times across the whole scope was the other way; it would call every news burst
//! unusual, since any burst is unlikely once its posts are spread over the scope's weeks.
//!
//! A group that takes part in a crowd is not unusual either: at the moments of its shared
//! events, the share of the accounts posting the same key that are its members must reach
//! [`CoordinationOptions::min_share`] (the rate of the same signal among accounts outside it).
//! Fans posting the same hashtag at each goal share their moments with many other fans.
//!
//! Co-repost has no times and is not counted here; a group with only co-repost edges has no
//! baseline, and is shown when the mean cosine of its edges is at least [`CO_REPOST_ONLY_BAR`]
//! and its members are at least [`CoordinationOptions::min_share`] of everyone who reposted
//! the posts they reposted in common (`co_repost::share`): readers of a popular desk repost
//! the same few popular posts alike, among hundreds of others.

use std::collections::HashMap;

use sightline_api::CancelToken;

use super::input::ScopePosts;
use super::random::{mix, Random};
use super::window::{pairs, Event};
use super::{
    co_hashtag, co_link, co_post, co_reply, co_repost, fast_repost, near_duplicate, Baseline,
    Coordination, CoordinationOptions, CoordinationProgress, CoordinationStage, Signal,
};

/// The mean cosine of its edges a co-repost-only group needs to be shown by default, beside
/// a repost share of at least [`CoordinationOptions::min_share`] (each edge already needs
/// [`CoordinationOptions::co_repost_cosine`]). Measured on a generated scope of organic
/// co-reposting (600 readers reposting 400 posts by popularity, a ten-account ring among them;
/// five seeds, `tests/coordination/repost_bar.rs`): the cosine alone cannot tell readers of
/// the same popular posts from the ring: precision 0.08-0.10 at 0.5, 0.13-0.42 at 0.6,
/// 0.00-0.83 at 0.7 and 0.00-1.00 at 0.8, pairs of light readers sharing three popular posts
/// reaching 0.85 while one seed's ring averaged 0.69. With the share rule, 0.5 and 0.6 give
/// precision and recall 1.000 on every seed, 0.7 misses that ring. On the sandbox's world the
/// only co-repost-only group is its ring (0.78, share 1.00): 1.000 / 0.969 fused at 0.5-0.7,
/// recall 0.656 at 0.8. So 0.6: above the pairs' floor, below the rings seen.
pub const CO_REPOST_ONLY_BAR: f64 = 0.6;

/// A pair of member posts that may be a shared event under some shift.
struct Candidate {
    p: u32,
    q: u32,
    /// Fast repost: both must be within the fast bar of their original; else within the window.
    fast: bool,
}

/// Judges every group of `result`; `None` when cancelled.
pub(super) fn judge(
    posts: &ScopePosts,
    options: &CoordinationOptions,
    result: &mut Coordination,
    progress: &mut dyn FnMut(CoordinationProgress),
    cancel: &CancelToken,
) -> Option<()> {
    let number: HashMap<&str, u32> = posts
        .handles
        .iter()
        .enumerate()
        .map(|(i, h)| (h.as_str(), i as u32))
        .collect();
    let mut events: HashMap<Signal, Vec<Event>> = HashMap::new();
    // The same signals' events sorted by key then time, fast reposts within their bar only.
    let mut sorted: HashMap<Signal, Vec<Event>> = HashMap::new();
    let mut reposters = None;
    let total = result.groups.len() as u64;
    for done in 0..result.groups.len() {
        if cancel.is_cancelled() {
            return None;
        }
        progress(CoordinationProgress {
            stage: CoordinationStage::Baseline,
            signal: None,
            done: done as u64,
            total,
        });
        let group = &result.groups[done];
        let members: HashMap<u32, usize> = group
            .members
            .iter()
            .filter_map(|m| number.get(m.as_str()).copied())
            .enumerate()
            .map(|(slot, account)| (account, slot))
            .collect();
        let windowed: Vec<Signal> = group
            .signals
            .iter()
            .copied()
            .filter(|s| *s != Signal::CoRepost)
            .collect();
        if windowed.is_empty() {
            let cosines: Vec<f64> = group
                .edges
                .iter()
                .map(|i| result.edges[*i as usize].score)
                .collect();
            let mean = cosines.iter().sum::<f64>() / cosines.len().max(1) as f64;
            let by_post = reposters.get_or_insert_with(|| co_repost::reposters(posts));
            let share = co_repost::share(posts, by_post, result, &result.groups[done]);
            let group = &mut result.groups[done];
            group.baseline = None;
            group.unusual = mean >= CO_REPOST_ONLY_BAR && share >= options.min_share;
            group.reason.push_str(&format!(
                " Its accounts were {:.0}% of those who reposted these posts.",
                share * 100.0
            ));
            continue;
        }
        let candidates = candidates(posts, options, &windowed, &members, &mut events);
        let mut baseline = run(posts, options, &candidates, &members, group.id);
        baseline.share = share(posts, options, result, done, &members, &mut sorted);
        let group = &mut result.groups[done];
        group.unusual = baseline.p <= options.unusual_p && baseline.share >= options.min_share;
        group.baseline = Some(baseline);
    }
    progress(CoordinationProgress {
        stage: CoordinationStage::Baseline,
        signal: None,
        done: total,
        total,
    });
    Some(())
}

/// Every pair of member posts that some shifts could make a shared event: same key, at most
/// the window plus twice the largest shift apart.
fn candidates(
    posts: &ScopePosts,
    options: &CoordinationOptions,
    signals: &[Signal],
    members: &HashMap<u32, usize>,
    events: &mut HashMap<Signal, Vec<Event>>,
) -> Vec<Candidate> {
    let shift_ms = 2 * i64::from(options.baseline_shift_seconds) * 1000;
    let window_ms = i64::from(options.window_seconds) * 1000;
    let fast_ms = i64::from(options.fast_repost_seconds) * 1000;
    let mut out = Vec::new();
    for signal in signals {
        if *signal == Signal::NearDuplicate {
            let mine: Vec<u32> = posts
                .posts
                .iter()
                .enumerate()
                .filter(|(_, p)| members.contains_key(&p.author))
                .map(|(i, _)| i as u32)
                .collect();
            let similar =
                near_duplicate::similar(posts, Some(&mine), window_ms + shift_ms, options);
            out.extend(
                similar
                    .into_iter()
                    .map(|(p, q)| Candidate { p, q, fast: false }),
            );
            continue;
        }
        let all = events.entry(*signal).or_insert_with(|| match signal {
            Signal::CoPost => co_post::events(posts),
            Signal::CoLink => co_link::events(posts),
            Signal::CoHashtag => co_hashtag::events(posts),
            Signal::CoReply => co_reply::events(posts),
            Signal::FastRepost => fast_repost::events(posts, i64::MAX),
            Signal::NearDuplicate | Signal::CoRepost => Vec::new(),
        });
        let mine: Vec<Event> = all
            .iter()
            .filter(|e| members.contains_key(&e.author))
            .copied()
            .collect();
        let fast = *signal == Signal::FastRepost;
        let reach = if fast { fast_ms } else { window_ms };
        let mut found = pairs(mine, reach + shift_ms);
        // A pair of posts sharing two links is one event, as in the edges.
        for pair in &mut found {
            *pair = (pair.0.min(pair.1), pair.0.max(pair.1));
        }
        found.sort_unstable();
        found.dedup();
        out.extend(found.into_iter().map(|(p, q)| Candidate { p, q, fast }));
    }
    out
}

/// The shared events among `candidates` with each member's posts moved by `shifts[slot]`.
fn count(
    posts: &ScopePosts,
    options: &CoordinationOptions,
    candidates: &[Candidate],
    members: &HashMap<u32, usize>,
    shifts: &[i64],
) -> u32 {
    let window_ms = i64::from(options.window_seconds) * 1000;
    let fast_ms = i64::from(options.fast_repost_seconds) * 1000;
    let shifted = |i: u32| {
        let p = &posts.posts[i as usize];
        p.at_ms + shifts[members[&p.author]]
    };
    let delay = |i: u32| {
        let original = posts.posts[i as usize]
            .repost_of
            .and_then(|(_, at)| at)
            .unwrap_or(i64::MIN / 2);
        shifted(i) - original
    };
    candidates
        .iter()
        .filter(|c| {
            if c.fast {
                (0..=fast_ms).contains(&delay(c.p)) && (0..=fast_ms).contains(&delay(c.q))
            } else {
                (shifted(c.p) - shifted(c.q)).abs() <= window_ms
            }
        })
        .count() as u32
}

fn run(
    posts: &ScopePosts,
    options: &CoordinationOptions,
    candidates: &[Candidate],
    members: &HashMap<u32, usize>,
    group: u32,
) -> Baseline {
    let still = vec![0i64; members.len()];
    let observed = count(posts, options, candidates, members, &still);
    let mut random = Random::new(options.baseline_draw ^ mix(u64::from(group)));
    let bound = i64::from(options.baseline_shift_seconds) * 1000;
    let runs = options.baseline_runs.max(1);
    let mut counts = Vec::with_capacity(runs as usize);
    let mut shifts = vec![0i64; members.len()];
    for _ in 0..runs {
        for s in &mut shifts {
            *s = random.within(bound);
        }
        counts.push(f64::from(count(
            posts, options, candidates, members, &shifts,
        )));
    }
    let mean = counts.iter().sum::<f64>() / f64::from(runs);
    let sd = (counts.iter().map(|c| (c - mean).powi(2)).sum::<f64>() / f64::from(runs)).sqrt();
    let at_least = counts.iter().filter(|c| **c >= f64::from(observed)).count();
    Baseline {
        observed,
        mean,
        sd,
        z: (sd > 0.0).then(|| (f64::from(observed) - mean) / sd),
        p: (1.0 + at_least as f64) / (1.0 + f64::from(runs)),
        runs,
        share: 1.0,
    }
}

fn signal_events(posts: &ScopePosts, options: &CoordinationOptions, signal: Signal) -> Vec<Event> {
    let mut events = match signal {
        Signal::CoPost => co_post::events(posts),
        Signal::CoLink => co_link::events(posts),
        Signal::CoHashtag => co_hashtag::events(posts),
        Signal::CoReply => co_reply::events(posts),
        Signal::FastRepost => {
            fast_repost::events(posts, i64::from(options.fast_repost_seconds) * 1000)
        }
        Signal::NearDuplicate | Signal::CoRepost => Vec::new(),
    };
    events.sort_unstable_by_key(|e| (e.key, e.at_ms, e.post));
    events
}

/// Of the accounts posting the same key within the window of each of the group's shared
/// posts, the share that are members (1 when the group's signals have no key: near-duplicates).
fn share(
    posts: &ScopePosts,
    options: &CoordinationOptions,
    result: &Coordination,
    group: usize,
    members: &HashMap<u32, usize>,
    cache: &mut HashMap<Signal, Vec<Event>>,
) -> f64 {
    let window_ms = i64::from(options.window_seconds) * 1000;
    let (mut mine, mut all) = (0usize, 0usize);
    for edge in result.groups[group]
        .edges
        .iter()
        .map(|i| &result.edges[*i as usize])
    {
        if matches!(edge.signal, Signal::NearDuplicate | Signal::CoRepost) {
            continue;
        }
        let events = cache
            .entry(edge.signal)
            .or_insert_with(|| signal_events(posts, options, edge.signal));
        let shared: std::collections::BTreeSet<u32> = edge
            .pairs
            .iter()
            .flatten()
            .filter_map(|i| posts.index_of(&result.posts[*i as usize].id))
            .collect();
        for post in shared {
            let p = &posts.posts[post as usize];
            for key in keys(p, edge.signal) {
                let from =
                    events.partition_point(|e| (e.key, e.at_ms) < (key, p.at_ms - window_ms));
                let mut authors = std::collections::BTreeSet::new();
                for e in &events[from..] {
                    if e.key != key || e.at_ms > p.at_ms + window_ms {
                        break;
                    }
                    authors.insert(e.author);
                }
                all += authors.len();
                mine += authors.iter().filter(|a| members.contains_key(a)).count();
            }
        }
    }
    if all == 0 {
        1.0
    } else {
        mine as f64 / all as f64
    }
}

/// The post's keys under a keyed signal.
fn keys(post: &super::input::Post, signal: Signal) -> Vec<u64> {
    match signal {
        Signal::CoPost => post.text_key.into_iter().collect(),
        Signal::CoLink => post.links.to_vec(),
        Signal::CoHashtag => post.tags.into_iter().collect(),
        Signal::CoReply => post.reply_to.into_iter().collect(),
        Signal::FastRepost => post.repost_of.map(|(k, _)| k).into_iter().collect(),
        Signal::NearDuplicate | Signal::CoRepost => Vec::new(),
    }
}
