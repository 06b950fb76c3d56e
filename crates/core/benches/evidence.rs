//! How long an evidence bundle of 10,000 posts (each with a kept picture, 1,000 distinct
//! files) and 1,000 responses takes to gather and write,
//! sealed as the app does it (signed, recorded in `bundle_exports`; the goal is 10 s or
//! less). Run: `cargo bench -p sightline-core --bench evidence` (release). Real SQLite in a
//! temp folder, seeded through the store's API, an in-memory keychain; prints each round's
//! times.

// Shared with the tests, which use the rest of it.
#[allow(dead_code)]
#[path = "../tests/support/media_seed.rs"]
mod media;
#[path = "../tests/support/evidence_seed.rs"]
mod seed;

use std::time::Instant;

use sightline_api::CancelToken;
use std::sync::Arc;

use sightline_core::environment::Environment;
use sightline_core::evidence::gather;
use sightline_core::evidence::verify::verify_bundle;
use sightline_core::evidence::{seal, BundleOutcome};
use sightline_core::keychain::MemoryStore;
use sightline_core::media::files::MediaFolder;
use sightline_core::state::AppState;
use sightline_store::Store;

const ROUNDS: usize = 3;

#[tokio::main]
async fn main() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("sightline.db")).await.unwrap();
    let started = Instant::now();
    let id = seed::seed(&store, 1_000, 10).await;
    println!(
        "seeded 1,000 responses and 10,000 posts in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let zone = "Europe/Berlin".parse().unwrap();
    std::fs::create_dir_all(dir.path().join("data")).unwrap();
    let state = AppState::new(
        dir.path().join("data"),
        Environment::default(),
        Arc::new(MemoryStore::default()),
    )
    .unwrap();
    // A picture on every post, 1,000 distinct ones, kept in the data folder's media folder.
    let folder = MediaFolder::new(&dir.path().join("data"));
    let started = Instant::now();
    let post_ids: Vec<String> = (0..10_000u64)
        .map(|n| (seed::FIRST_ID + n).to_string())
        .collect();
    let at = chrono::Utc::now();
    let media_bytes = media::pictures_for_posts(&store, &folder, &post_ids, 1_000, at).await;
    println!(
        "kept 10,000 media items, 1,000 pictures ({:.1} MB), in {:.1} s",
        media_bytes as f64 / 1e6,
        started.elapsed().as_secs_f64()
    );
    for round in 1..=ROUNDS {
        let started = Instant::now();
        let bundle = gather::investigation(&store, id, zone, "0.1.0")
            .await
            .unwrap();
        let gathered = started.elapsed();
        let path = dir.path().join(format!("bundle-{round}.zip"));
        let mut reports = 0u32;
        let outcome = seal::export(
            &state,
            &store,
            bundle,
            &path,
            &mut |_| reports += 1,
            &CancelToken::new(),
        )
        .await
        .unwrap();
        let total = started.elapsed();
        let BundleOutcome::Written {
            bytes,
            posts,
            responses,
            ..
        } = outcome
        else {
            panic!("not written")
        };
        let verify = Instant::now();
        assert!(
            verify_bundle(&path, &Default::default(), &mut |_| {}, &CancelToken::new())
                .unwrap()
                .unwrap()
                .intact
        );
        println!(
            "round {round}: {posts} posts, {responses} responses: gathered in {:.2} s, written in {:.2} s, total {:.2} s ({:.1} MB, {reports} progress reports); verified in {:.2} s",
            gathered.as_secs_f64(),
            (total - gathered).as_secs_f64(),
            total.as_secs_f64(),
            bytes as f64 / 1e6,
            verify.elapsed().as_secs_f64(),
        );
    }
}
