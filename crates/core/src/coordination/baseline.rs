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
//! Co-repost has no times and is not counted here; a group with only co-repost edges has no
//! baseline, and is shown when all its edges' cosines are at least [`CO_REPOST_ONLY_BAR`].

use std::collections::HashMap;

use sightline_api::CancelToken;

use super::input::ScopePosts;
use super::random::{mix, Random};
use super::window::{pairs, Event};
use super::{
    co_hashtag, co_link, co_post, co_reply, fast_repost, near_duplicate, Baseline, Coordination,
    CoordinationOptions, CoordinationProgress, CoordinationStage, Signal,
};

/// The cosine every edge of a co-repost-only group needs for it to be shown by default.
pub const CO_REPOST_ONLY_BAR: f64 = 0.8;

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
            let edges = group.edges.iter().map(|i| &result.edges[*i as usize]);
            let unusual = edges.clone().all(|e| e.score >= CO_REPOST_ONLY_BAR);
            let group = &mut result.groups[done];
            group.baseline = None;
            group.unusual = unusual;
            continue;
        }
        let candidates = candidates(posts, options, &windowed, &members, &mut events);
        let baseline = run(posts, options, &candidates, &members, group.id);
        let group = &mut result.groups[done];
        group.unusual = baseline.p <= options.unusual_p;
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
    let mut random = Random::new(options.baseline_seed ^ mix(u64::from(group)));
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
    }
}
