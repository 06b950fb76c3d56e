use std::collections::HashMap;

use super::{near_groups, stretch, stretch_starts, PAIRWISE_MAX, WINDOWS};
use crate::media::matching::{distance, PDQ_BYTES};

/// splitmix64: a fixed sequence.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn random_hash(seed: u64) -> [u8; PDQ_BYTES] {
    let mut hash = [0u8; PDQ_BYTES];
    for (i, chunk) in hash.chunks_mut(8).enumerate() {
        chunk.copy_from_slice(&mix(seed * 4 + i as u64).to_le_bytes());
    }
    hash
}

/// `hash` with `bits` distinct bits flipped, chosen by `seed`.
fn flipped(hash: &[u8; PDQ_BYTES], bits: u32, seed: u64) -> [u8; PDQ_BYTES] {
    let mut out = *hash;
    let mut k = 0;
    while distance(hash, &out) < bits {
        let bit = (mix(seed ^ (k << 20)) % 256) as usize;
        out[bit / 8] ^= 1 << (bit % 8);
        if distance(hash, &out) > bits {
            out[bit / 8] ^= 1 << (bit % 8);
        }
        k += 1;
    }
    out
}

/// `families` originals with copies at each distance of `copies`, and `others` unrelated
/// pictures: the files (sorted) and their hashes.
fn scope(
    families: u64,
    copies: &[u32],
    others: u64,
) -> (Vec<String>, HashMap<String, Option<[u8; PDQ_BYTES]>>) {
    let mut hashes = HashMap::new();
    for f in 0..families {
        let original = random_hash(f);
        hashes.insert(format!("f{f:05}-0"), Some(original));
        for (c, &d) in copies.iter().enumerate() {
            let copy = flipped(&original, d, f * 100 + c as u64);
            hashes.insert(format!("f{f:05}-{}", c + 1), Some(copy));
        }
    }
    for n in 0..others {
        hashes.insert(format!("o{n:06}"), Some(random_hash(1_000_000 + n)));
    }
    hashes.insert("no-hash".into(), None);
    let mut files: Vec<String> = hashes.keys().cloned().collect();
    files.sort();
    (files, hashes)
}

fn family_groups(groups: &[Vec<String>]) -> Vec<Vec<String>> {
    groups
        .iter()
        .filter(|group| group[0].starts_with('f'))
        .cloned()
        .collect()
}

#[test]
fn a_small_scope_joins_every_copy_within_the_bound_and_no_other() {
    let (files, hashes) = scope(3, &[10, 40, 63, 64], 50);
    let groups = near_groups(&files, &hashes, 63);
    let families = family_groups(&groups);
    assert_eq!(families.len(), 6, "{families:?}");
    for f in 0..3 {
        let with = |c: u32| format!("f{f:05}-{c}");
        assert!(families.contains(&vec![with(0), with(1), with(2), with(3)]));
        // 64 bits from the original, and further from the other copies: on its own.
        assert!(families.contains(&vec![with(4)]));
    }
    assert!(groups.contains(&vec!["no-hash".to_owned()]));
    assert_eq!(groups.iter().map(Vec::len).sum::<usize>(), files.len());
}

#[test]
fn a_whole_archive_scope_compares_only_pairs_sharing_a_stretch_and_still_joins_close_copies() {
    // Past the pairwise bound: bucketed. Copies 5-30 bits away are all found, nothing else.
    let (files, hashes) = scope(300, &[5, 12, 20, 30], 4_000);
    assert!(files.len() > PAIRWISE_MAX);
    let started = std::time::Instant::now();
    let groups = near_groups(&files, &hashes, 63);
    println!(
        "{} files grouped by stretches in {:.0} ms",
        files.len(),
        started.elapsed().as_secs_f64() * 1000.0
    );
    let families = family_groups(&groups);
    assert_eq!(families.len(), 300, "each family one group, none split");
    assert!(families.iter().all(|group| group.len() == 5));
    assert_eq!(
        groups.iter().filter(|group| group.len() > 1).count(),
        300,
        "no unrelated picture joined"
    );
}

#[test]
fn two_hashes_a_copy_apart_share_a_stretch_as_often_as_the_docs_say() {
    let starts: Vec<u32> = stretch_starts().collect();
    assert_eq!(starts.len(), WINDOWS);
    assert!(starts.iter().all(|start| start + 12 <= 256));
    let trials = 2_000u64;
    let mut shares = Vec::new();
    for d in [26u32, 52, 63] {
        let found = (0..trials)
            .filter(|&t| {
                let a = random_hash(7_000_000 + t);
                let b = flipped(&a, d, t * 31 + u64::from(d));
                starts.iter().any(|&s| stretch(&a, s) == stretch(&b, s))
            })
            .count();
        shares.push(found as f64 / trials as f64);
    }
    println!("share found at 26, 52, 63 bits: {shares:?}");
    assert!(shares[0] >= 0.995, "{shares:?}");
    assert!(shares[1] >= 0.90, "{shares:?}");
    assert!(shares[2] >= 0.70, "{shares:?}");
}
