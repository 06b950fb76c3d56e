//! Grouping a scope's picture files into "the same picture" for its most-shared list: exact
//! copies are already one file (one SHA-256); files whose PDQ hashes lie within the bound join,
//! transitively (union-find).
//!
//! Which pairs are compared depends on how many hashed files the scope holds:
//! * up to [`PAIRWISE_MAX`]: every pair (at most 4.5 million, a few milliseconds), so every
//!   near copy is found;
//! * more (a whole archive): only pairs that agree exactly on one of [`WINDOWS`] stretches of
//!   12 bits (two tilings of the 256 bits, the second shifted by 6) are compared. Comparing
//!   every pair of 100,000 pictures is 5 billion comparisons, minutes of work
//!   (`benches/media.rs`); this is about 50 million. A copy `d` bits away from another
//!   shares some stretch with it practically always for d = 26 (a resized or recompressed
//!   copy, or the median crop), 93% of the time for d = 52 and 72% at the bound, 63 (measured
//!   in `groups/tests.rs` over differing bits spread at random); a copy missed directly still
//!   joins through any other member of its group it shares a stretch with. 5,500 pictures
//!   group in about 0.35 s in a debug build. "Same picture elsewhere" for one
//!   picture always scans every stored hash (`matching.rs`).

use std::collections::HashMap;

use super::matching::{distance, PDQ_BYTES};

/// Scopes with at most this many hashed files compare every pair.
pub(crate) const PAIRWISE_MAX: usize = 3_000;
/// Bits in a stretch used as a bucket key.
const STRETCH: u32 = 12;
/// Stretches: 21 from bit 0 and 20 from bit 6, each 12 bits long.
pub(crate) const WINDOWS: usize = 41;

/// Start bits of the stretches.
fn stretch_starts() -> impl Iterator<Item = u32> {
    (0..21)
        .map(|k| k * STRETCH)
        .chain((0..20).map(|k| 6 + k * STRETCH))
}

/// The 12 bits of `hash` from bit `start` (bits numbered from the first byte's lowest).
fn stretch(hash: &[u8; PDQ_BYTES], start: u32) -> u32 {
    let mut value = 0u32;
    for bit in 0..STRETCH {
        let at = (start + bit) as usize;
        value |= u32::from((hash[at / 8] >> (at % 8)) & 1) << bit;
    }
    value
}

fn root(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

fn join(parent: &mut [usize], i: usize, j: usize) {
    let (ri, rj) = (root(parent, i), root(parent, j));
    parent[ri.max(rj)] = ri.min(rj);
}

/// The pairs of `hashed` (index in `files`, hash) to compare: all of them for a small scope,
/// else those sharing a stretch (each pair at most once per stretch it shares).
fn compare(hashed: &[(usize, [u8; PDQ_BYTES])], max_distance: u32, parent: &mut [usize]) {
    if hashed.len() <= PAIRWISE_MAX {
        for (n, (i, a)) in hashed.iter().enumerate() {
            for (j, b) in &hashed[n + 1..] {
                if distance(a, b) <= max_distance {
                    join(parent, *i, *j);
                }
            }
        }
        return;
    }
    // (window, stretch value, member): sorted, each run of equal keys is a bucket.
    let mut keys: Vec<(u8, u32, u32)> = Vec::with_capacity(hashed.len() * WINDOWS);
    for (member, (_, hash)) in hashed.iter().enumerate() {
        for (window, start) in stretch_starts().enumerate() {
            keys.push((window as u8, stretch(hash, start), member as u32));
        }
    }
    keys.sort_unstable();
    for bucket in keys.chunk_by(|a, b| (a.0, a.1) == (b.0, b.1)) {
        for (n, &(_, _, a)) in bucket.iter().enumerate() {
            for &(_, _, b) in &bucket[n + 1..] {
                let ((i, ha), (j, hb)) = (&hashed[a as usize], &hashed[b as usize]);
                if root(parent, *i) != root(parent, *j) && distance(ha, hb) <= max_distance {
                    join(parent, *i, *j);
                }
            }
        }
    }
}

/// `files` grouped: those whose hashes are within `max_distance` (directly or through others)
/// are one group; a file without a usable hash is a group of its own. Each group is sorted;
/// groups in the order of their first file.
pub(crate) fn near_groups(
    files: &[String],
    hashes: &HashMap<String, Option<[u8; PDQ_BYTES]>>,
    max_distance: u32,
) -> Vec<Vec<String>> {
    let mut parent: Vec<usize> = (0..files.len()).collect();
    let hashed: Vec<(usize, [u8; PDQ_BYTES])> = files
        .iter()
        .enumerate()
        .filter_map(|(i, sha)| hashes.get(sha).copied().flatten().map(|h| (i, h)))
        .collect();
    compare(&hashed, max_distance, &mut parent);
    let mut groups: Vec<Vec<String>> = Vec::new();
    let mut index: HashMap<usize, usize> = HashMap::new();
    for (i, sha) in files.iter().enumerate() {
        let r = root(&mut parent, i);
        let g = *index.entry(r).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[g].push(sha.clone());
    }
    groups
}

#[cfg(test)]
mod tests;
