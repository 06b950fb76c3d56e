//! Near-duplicate text: two accounts' texts whose shingles (each pair of neighbouring words of
//! the normalised text; a one-word text is its word) have a Jaccard similarity of at least
//! the bar, without being the same text (that is co-post), within the window.
//!
//! Comparing every pair is quadratic, so candidates come from MinHash with LSH: 60 hash
//! functions in 20 bands of 3 rows; two texts share a band's three minimums with probability
//! J³, so they become candidates with probability 1 − (1 − J³)²⁰: 0.99 at J = 0.6, 0.9998 at
//! 0.7, 0.42 at 0.3 (the cost of checking). Candidates are posts that share a band within the
//! window ([`super::window::pairs`]); each is then checked on its exact shingle sets.

use super::input::ScopePosts;
use super::random::mix;
use super::text::{key, normalise, words};
use super::window::{pairs as window_pairs, Event};
use super::CoordinationOptions;

const BANDS: usize = 20;
const ROWS: usize = 3;
const HASHES: usize = BANDS * ROWS;

/// A text's shingle set, sorted, each once.
pub(super) fn shingles(text: &str) -> Vec<u64> {
    let normalised = normalise(text);
    let words: Vec<&str> = words(&normalised).collect();
    let mut out: Vec<u64> = match words.len() {
        0 => Vec::new(),
        1 => vec![key(words[0])],
        _ => words
            .windows(2)
            .map(|pair| key(&format!("{} {}", pair[0], pair[1])))
            .collect(),
    };
    out.sort_unstable();
    out.dedup();
    out
}

/// The exact Jaccard similarity of two sorted sets.
pub(super) fn jaccard(a: &[u64], b: &[u64]) -> f64 {
    if a.is_empty() && b.is_empty() {
        return 0.0;
    }
    let (mut i, mut j, mut shared) = (0, 0, 0usize);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                shared += 1;
                i += 1;
                j += 1;
            }
        }
    }
    shared as f64 / (a.len() + b.len() - shared) as f64
}

/// The near-duplicate post pairs among `subset` (indexes of posts; `None`: all) at most
/// `window_ms` apart.
pub(super) fn similar(
    posts: &ScopePosts,
    subset: Option<&[u32]>,
    window_ms: i64,
    options: &CoordinationOptions,
) -> Vec<(u32, u32)> {
    let all: Vec<u32>;
    let chosen: &[u32] = match subset {
        Some(s) => s,
        None => {
            all = (0..posts.posts.len() as u32).collect();
            &all
        }
    };
    // Each text's shingles, kept for the exact check, and its band keys as events.
    let mut sets: std::collections::HashMap<u32, Vec<u64>> = std::collections::HashMap::new();
    let mut bands: Vec<Vec<Event>> = vec![Vec::new(); BANDS];
    for &i in chosen {
        let post = &posts.posts[i as usize];
        if post.text_key.is_none() {
            continue;
        }
        let set = shingles(&post.text);
        if set.is_empty() {
            continue;
        }
        let mut minimums = [u64::MAX; HASHES];
        for &s in &set {
            for (h, slot) in minimums.iter_mut().enumerate() {
                let v = mix(s ^ SEEDS[h]);
                if v < *slot {
                    *slot = v;
                }
            }
        }
        for (band, events) in bands.iter_mut().enumerate() {
            let rows = &minimums[band * ROWS..(band + 1) * ROWS];
            let band_key = rows
                .iter()
                .fold(mix(band as u64 + 1), |acc, v| mix(acc ^ v));
            events.push(Event {
                key: band_key,
                at_ms: post.at_ms,
                author: post.author,
                post: i,
            });
        }
        sets.insert(i, set);
    }
    let mut candidates: Vec<(u32, u32)> = Vec::new();
    for events in bands {
        for (p, q) in window_pairs(events, window_ms) {
            let (pp, qp) = (&posts.posts[p as usize], &posts.posts[q as usize]);
            if pp.text_key != qp.text_key {
                candidates.push((p.min(q), p.max(q)));
            }
        }
    }
    candidates.sort_unstable();
    candidates.dedup();
    candidates.retain(|(p, q)| jaccard(&sets[p], &sets[q]) >= options.near_duplicate_jaccard);
    candidates
}

/// Every near-duplicate pair in the scope within the window.
pub(super) fn pairs(
    posts: &ScopePosts,
    window_ms: i64,
    options: &CoordinationOptions,
) -> Vec<(u32, u32)> {
    similar(posts, None, window_ms, options)
}

/// The 60 hash functions' seeds, drawn once from a fixed generator.
static SEEDS: [u64; HASHES] = {
    let mut seeds = [0u64; HASHES];
    let mut state: u64 = 0x5151_4c49_4e45;
    let mut i = 0;
    while i < HASHES {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut x = state;
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        seeds[i] = x ^ (x >> 31);
        i += 1;
    }
    seeds
};
