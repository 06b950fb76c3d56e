//! The media fixture of issue 32: 500 pictures (100 originals drawn by the sandbox, each with
//! four copies as pictures travel: resized, recompressed, cropped 2-4% and 6%), every one
//! kept in a real media folder and a real SQLite file with its SHA-256 and PDQ hash, then
//! matched through the store at core's near-match bound. Near copies of the same original
//! must be found (recall ≥ 95% of same-picture pairs) and pictures of other originals must
//! not (≤ 1% of different-picture pairs). The figures are printed (`-- --nocapture`).

use std::collections::{BTreeMap, HashMap, HashSet};

use chrono::{TimeZone, Utc};
use sightline_core::media::files::MediaFolder;
use sightline_core::media::hash::{self, NEAR_DISTANCE};
use sightline_sandbox::media::{picture, Variant};
use sightline_store::{MediaKept, MediaKind, NewMediaFile, NewMediaItem, Store};

/// Originals in the fixture; each has four copies, 500 items in all.
const ORIGINALS: u64 = 100;

/// The copies of original `n`: sizes, qualities and crops vary from one original to the next,
/// as they do between the sites a picture passes through.
fn variants(n: u64) -> [(&'static str, Variant); 5] {
    let factor = [0.5, 0.75, 0.4, 1.5][(n % 4) as usize];
    let quality = [25, 40, 60][(n % 3) as usize];
    let crop = [2, 3, 4][(n % 3) as usize];
    [
        ("original", Variant::Original),
        ("resized", Variant::Resized(factor)),
        ("recompressed", Variant::Recompressed(quality)),
        ("cropped 2-4%", Variant::Cropped(crop)),
        ("cropped 6%", Variant::Cropped(6)),
    ]
}

/// Seeds far apart, so the sandbox draws unrelated scenes.
fn seed(n: u64) -> u64 {
    1_000 + n * 7_919
}

struct Item {
    family: u64,
    pdq: [u8; 32],
    variant: &'static str,
    post_id: String,
    sha256: String,
}

/// Draws, hashes and keeps every item; returns them with the store.
async fn kept_fixture(dir: &std::path::Path) -> (Store, Vec<Item>) {
    let store = Store::open(dir.join("sightline.db")).await.unwrap();
    let folder = MediaFolder::new(dir);
    let now = Utc.with_ymd_and_hms(2026, 11, 28, 1, 0, 0).unwrap();
    let mut items = Vec::new();
    for family in 0..ORIGINALS {
        for (k, (variant, copy)) in variants(family).into_iter().enumerate() {
            let bytes = picture(seed(family), copy);
            let kept = folder.write(&bytes).await.unwrap();
            let pdq = hash::pdq(&bytes).expect("every fixture picture hashes");
            let post_id = format!("{}", 10_000 + family * 10 + k as u64);
            store
                .queue_media(
                    &[NewMediaItem {
                        post_id: post_id.clone(),
                        position: 0,
                        kind: MediaKind::Photo,
                        source_url: format!("http://127.0.0.1:1/{post_id}.jpg"),
                        poster_url: None,
                    }],
                    now,
                )
                .await
                .unwrap();
            let id = store
                .media_for_posts(std::slice::from_ref(&post_id))
                .await
                .unwrap()[0]
                .id;
            let file = NewMediaFile {
                sha256: kept.sha256.clone(),
                size: kept.size,
                content_type: "image/jpeg".into(),
                pdq: Some(pdq.hash),
                pdq_quality: Some(pdq.quality),
                width: Some(pdq.width),
                height: Some(pdq.height),
            };
            let recorded = MediaKept {
                fetched_at: now,
                http_status: 200,
                response_headers: vec![("content-type".into(), "image/jpeg".into())],
                file,
                poster: None,
            };
            assert!(store.record_media_kept(id, &recorded).await.unwrap());
            items.push(Item {
                family,
                pdq: pdq.hash,
                variant,
                post_id,
                sha256: kept.sha256,
            });
        }
    }
    (store, items)
}

#[tokio::test]
async fn near_copies_match_at_the_threshold_and_other_pictures_do_not() {
    let dir = tempfile::tempdir().unwrap();
    let (store, items) = kept_fixture(dir.path()).await;
    let folder = MediaFolder::new(dir.path());

    // Every item stored with its hashes, its file in the folder under its SHA-256.
    let posts: Vec<String> = items.iter().map(|i| i.post_id.clone()).collect();
    let stored = store.media_for_posts(&posts).await.unwrap();
    assert_eq!(stored.len(), 500);
    for (item, record) in items.iter().zip(&stored) {
        let file = record.file.as_ref().expect("kept with its file");
        assert_eq!(file.sha256, item.sha256);
        assert_eq!(file.pdq.as_ref().map(String::len), Some(64));
        assert!(file
            .pdq_quality
            .is_some_and(|q| q >= i64::from(hash::MIN_QUALITY)));
        let on_disk = folder.read(&file.sha256).await.unwrap();
        assert_eq!(hash::sha256_hex(&on_disk), file.sha256);
    }

    // Each item asked about once, through the store's matcher, as "Same picture elsewhere" is.
    let family_of: HashMap<&str, u64> = items
        .iter()
        .map(|i| (i.post_id.as_str(), i.family))
        .collect();
    let variant_of: HashMap<&str, &str> = items
        .iter()
        .map(|i| (i.post_id.as_str(), i.variant))
        .collect();
    let mut matched: HashSet<(String, String)> = HashSet::new();
    let started = std::time::Instant::now();
    for item in &items {
        let found = store
            .media_matches(&item.sha256, NEAR_DISTANCE)
            .await
            .unwrap();
        for other in found
            .near
            .iter()
            .flat_map(|m| &m.post_ids)
            .chain(found.exact_post_ids.iter())
        {
            if *other != item.post_id {
                matched.insert((item.post_id.clone(), other.clone()));
            }
        }
    }
    let per_query = started.elapsed() / items.len() as u32;

    // Every ordered pair of distinct items: same original (a near copy) or not.
    let (mut same, mut same_found, mut other, mut other_found) = (0u64, 0u64, 0u64, 0u64);
    let mut missed_by_variant: BTreeMap<(&str, &str), u64> = BTreeMap::new();
    for a in &items {
        for b in &items {
            if a.post_id == b.post_id {
                continue;
            }
            let found = matched.contains(&(a.post_id.clone(), b.post_id.clone()));
            if family_of[a.post_id.as_str()] == family_of[b.post_id.as_str()] {
                same += 1;
                same_found += u64::from(found);
                if !found {
                    let key = (
                        variant_of[a.post_id.as_str()],
                        variant_of[b.post_id.as_str()],
                    );
                    *missed_by_variant.entry(key).or_default() += 1;
                }
            } else {
                other += 1;
                other_found += u64::from(found);
            }
        }
    }
    let recall = same_found as f64 / same as f64;
    let false_rate = other_found as f64 / other as f64;
    println!(
        "media fixture: 500 items, threshold {NEAR_DISTANCE} of 256 bits: recall {:.2}% \
         ({same_found} of {same} same-picture pairs), false matches {:.4}% ({other_found} of \
         {other} different-picture pairs), {per_query:?} per match in a debug build",
        recall * 100.0,
        false_rate * 100.0,
    );
    println!("missed pairs by (asked, copy): {missed_by_variant:?}");
    assert!(recall >= 0.95, "recall {recall}");
    assert!(false_rate <= 0.01, "false matches {false_rate}");
    distances_behind_the_threshold(&items);
}

/// The distances behind the threshold, printed: per pair of kinds of copy, how far copies of
/// one original are from each other; how close pictures of different originals come; and the
/// recall and false matches at bounds around the chosen one. Checked so the threshold keeps a
/// margin from unrelated pictures.
fn distances_behind_the_threshold(items: &[Item]) {
    let mut by_variant: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    let mut across = Vec::new();
    let mut pairs = Vec::new();
    for (i, a) in items.iter().enumerate() {
        for b in &items[i + 1..] {
            let d = hash::hamming(&a.pdq, &b.pdq);
            let same = a.family == b.family;
            pairs.push((same, d));
            if same {
                by_variant
                    .entry(format!("{} / {}", a.variant, b.variant))
                    .or_default()
                    .push(d);
            } else {
                across.push(d);
            }
        }
    }
    for (name, distances) in &mut by_variant {
        distances.sort_unstable();
        let n = distances.len();
        println!(
            "{name}: median {}, 95th percentile {}, max {}",
            distances[n / 2],
            distances[n * 95 / 100],
            distances[n - 1]
        );
    }
    across.sort_unstable();
    let n = across.len();
    println!(
        "different originals: min {}, 0.1st percentile {}, 1st percentile {}, median {}",
        across[0],
        across[n / 1000],
        across[n / 100],
        across[n / 2]
    );
    for bound in [31, 40, 48, 56, 63, 70, 76, 84] {
        let count = |same: bool| pairs.iter().filter(|(s, _)| *s == same).count() as f64;
        let inside = |same: bool| {
            pairs
                .iter()
                .filter(|(s, d)| *s == same && *d <= bound)
                .count() as f64
        };
        println!(
            "bound {bound}: recall {:.2}%, false matches {:.4}%",
            inside(true) * 100.0 / count(true),
            inside(false) * 100.0 / count(false)
        );
    }
    assert!(across[n / 1000] > NEAR_DISTANCE, "{:?}", &across[..10]);
}
