//! Media matching benchmark: `cargo bench -p sightline-store --bench media`.
//!
//! Builds, in a temporary folder, a real SQLite archive holding 100,000 kept pictures (one per
//! post, each its own file with a 256-bit PDQ hash; every hundredth original has ten near
//! copies a few bits away, the rest are unrelated), through the store's own writes (queued,
//! then recorded kept); then times "Same picture elsewhere" for one picture
//! ([`Store::media_matches`] at core's near-match bound, 63 bits), and the most-shared pictures
//! of a 1,000-post scope and of the whole archive. Hashes are drawn from a fixed seed, not computed from pictures: the
//! scan's cost does not depend on what the bits say. It prints measured figures (median and
//! slowest of several runs); it asserts only that the planted copies are found.

use std::time::{Duration, Instant};

use chrono::{TimeZone, Utc};
use sightline_store::{MediaKept, MediaKind, NewMediaFile, NewMediaItem, Store, PDQ_BYTES};

const PICTURES: u64 = 100_000;
const FAMILY_EVERY: u64 = 100;
const COPIES: u64 = 10;
const NEAR_DISTANCE: u32 = 63;
const RUNS: usize = 15;
/// Runs over the whole archive (each reads every post's picture).
const WHOLE_RUNS: usize = 3;

/// splitmix64: a fixed sequence, the same on every run.
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

/// Picture `n`'s hash: a family's original, one of its copies (a few bits flipped), or
/// unrelated.
fn hash_of(n: u64) -> [u8; PDQ_BYTES] {
    let family_start = n - n % FAMILY_EVERY;
    let offset = n % FAMILY_EVERY;
    if (1..=COPIES).contains(&offset) {
        let mut hash = random_hash(family_start);
        for k in 0..(offset * 5) {
            let bit = (mix(n * 1_000 + k) % 256) as usize;
            hash[bit / 8] ^= 1 << (bit % 8);
        }
        hash
    } else {
        random_hash(n)
    }
}

fn sha(n: u64) -> String {
    format!("{:016x}", mix(n ^ 0x5eed)).repeat(4)
}

fn post_id(n: u64) -> String {
    format!("{}", 1_900_000_000_000_000_000u64 + n)
}

fn report(name: &str, mut runs: Vec<Duration>) {
    runs.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1_000.0;
    println!(
        "{name:<56} median {:>8.2} ms   slowest {:>8.2} ms",
        ms(runs[runs.len() / 2]),
        ms(runs[runs.len() - 1])
    );
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("sightline.db")).await.unwrap();
    let now = Utc.with_ymd_and_hms(2026, 11, 28, 1, 0, 0).unwrap();

    let started = Instant::now();
    for chunk in (0..PICTURES).collect::<Vec<_>>().chunks(5_000) {
        let items: Vec<NewMediaItem> = chunk
            .iter()
            .map(|&n| NewMediaItem {
                post_id: post_id(n),
                position: 0,
                kind: MediaKind::Photo,
                source_url: format!("https://pbs.example/media/{n}.jpg"),
                poster_url: None,
            })
            .collect();
        store.queue_media(&items, now).await.unwrap();
    }
    let ids: Vec<String> = (0..PICTURES).map(post_id).collect();
    let records = store.media_for_posts(&ids).await.unwrap();
    for (n, record) in records.iter().enumerate() {
        let n = n as u64;
        let kept = MediaKept {
            fetched_at: now,
            http_status: 200,
            response_headers: vec![("content-type".into(), "image/jpeg".into())],
            file: NewMediaFile {
                sha256: sha(n),
                size: 150_000,
                content_type: "image/jpeg".into(),
                pdq: Some(hash_of(n)),
                pdq_quality: Some(100),
                width: Some(1200),
                height: Some(800),
            },
            poster: None,
        };
        assert!(store.record_media_kept(record.id, &kept).await.unwrap());
    }
    let size = std::fs::metadata(dir.path().join("sightline.db"))
        .map(|m| m.len())
        .unwrap_or(0);
    println!(
        "{PICTURES} pictures kept in {:.1} s ({:.1} MB database)",
        started.elapsed().as_secs_f64(),
        size as f64 / 1e6
    );

    // One picture with ten planted copies, asked about as "Same picture elsewhere" asks.
    let asked = 50 * FAMILY_EVERY;
    let mut runs = Vec::new();
    for _ in 0..RUNS {
        let t = Instant::now();
        let found = store
            .media_matches(&sha(asked), NEAR_DISTANCE)
            .await
            .unwrap();
        runs.push(t.elapsed());
        assert_eq!(found.exact_post_ids, [post_id(asked)]);
        assert_eq!(found.near.len() as u64, COPIES, "the planted copies");
    }
    report("match one picture against 100,000", runs);

    // A scope of 1,000 posts holding ten families.
    let scope: Vec<String> = (0..1_000).map(post_id).collect();
    let mut runs = Vec::new();
    for _ in 0..RUNS {
        let t = Instant::now();
        let shared = store
            .most_shared_media(&scope, NEAR_DISTANCE, 20)
            .await
            .unwrap();
        runs.push(t.elapsed());
        assert_eq!(shared.len(), 10);
        assert_eq!(shared[0].post_ids.len() as u64, COPIES + 1);
    }
    report("most-shared pictures of a 1,000-post scope", runs);

    // The whole archive as the scope: 100,000 posts, each with its own picture file.
    let mut runs = Vec::new();
    for _ in 0..WHOLE_RUNS {
        let t = Instant::now();
        let shared = store
            .most_shared_media(&ids, NEAR_DISTANCE, 20)
            .await
            .unwrap();
        runs.push(t.elapsed());
        assert_eq!(shared.len(), 20);
        assert_eq!(shared[0].post_ids.len() as u64, COPIES + 1);
    }
    report("most-shared pictures of the whole archive (100,000)", runs);
}
