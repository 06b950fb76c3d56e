//! The media fetcher's figures against the sandbox on loopback: media fetched per second (the
//! worker unpaced, and at its default pace), disk per 1,000 archived posts (the kept files,
//! and the database's growth for their rows), and memory while fetching (the process's peak
//! resident set before and after). Run: `cargo bench -p sightline-core --bench media_fetch`
//! (release). With Settings' "keep the media of every archived post" on, 1,000 posts are
//! archived through the real pipeline (sandbox searches), then the worker fetches every
//! queued item until none waits.
//!
//! Measured 2026-11-28 (2 cores shared with other builds; the sandbox, which draws each picture
//! and video on request, runs in the same process): 1,070 posts, 306 media items (295 kept, 11
//! gone, 348 files with the videos' posters); unpaced 40.2 items/s, at the default 250 ms gap
//! 2.9 items/s; 11.0 MiB of files and 0.08 MiB of database rows per 1,000 posts; peak
//! resident memory 92 MiB before fetching and 121 MiB after (the sandbox's drawing included:
//! bodies are streamed to disk, a picture is read whole only to hash it).

#[path = "../tests/support/search.rs"]
#[allow(dead_code)]
mod search;

use std::sync::Arc;
use std::time::{Duration, Instant};

use sightline_api::request::TwitterSearchRequest;
use sightline_core::environment::Environment;
use sightline_core::keychain::MemoryStore;
use sightline_core::media::plan;
use sightline_core::media::worker::{MediaWorker, Pace, PACE};
use sightline_core::monitors::system_clock;
use sightline_core::pipeline::{self, Paging, SendOptions};
use sightline_core::settings::AppSettings;
use sightline_core::state::AppState;
use sightline_sandbox::Sandbox;
use sightline_store::PostQuery;

const POSTS: i64 = 1_000;

#[tokio::main]
async fn main() {
    let sandbox = Sandbox::builder()
        .seed(42)
        .pace_ms(0)
        .start()
        .await
        .unwrap();
    for (label, pace) in [
        (
            "unpaced",
            Pace {
                gap: Duration::ZERO,
                ..PACE
            },
        ),
        ("default pace (250 ms gap)", PACE),
    ] {
        run(&sandbox, label, pace).await;
    }
}

async fn run(sandbox: &Sandbox, label: &str, pace: Pace) {
    let data = tempfile::tempdir().unwrap();
    let environment = Environment {
        base_url: Some(sandbox.base_url().into()),
        ..Environment::default()
    };
    let state = AppState::new(
        data.path().to_owned(),
        environment,
        Arc::new(MemoryStore::default()),
    )
    .unwrap();
    sightline_core::keys::add(&state, "work", sandbox.demo_key())
        .await
        .unwrap();
    let settings = AppSettings {
        media_keep_all_archived: true,
        ..state.settings()
    };
    state.save_settings(settings).await.unwrap();
    let store = state.store().await.unwrap();
    let session = state.session().await.unwrap();

    // 1,000 distinct posts, a hundred per search, over the world's commonest words.
    let world = sandbox.world();
    let mut words: Vec<&String> = world
        .token_index
        .iter()
        .filter(|(word, posts)| word.len() > 4 && posts.len() > 300)
        .map(|(word, _)| word)
        .collect();
    words.sort();
    let mut n = 0;
    while store.posts_count(&PostQuery::default()).await.unwrap() < POSTS {
        let word = words[n % words.len()];
        let request = TwitterSearchRequest {
            count: 100,
            ..TwitterSearchRequest::new(word.as_str())
        };
        let options = SendOptions {
            request_id: format!("bench-{n}"),
            confirm_budget: false,
            paging: Paging::default(),
        };
        pipeline::execute(&state, &session, request, options, None)
            .await
            .unwrap();
        n += 1;
    }
    let posts = store.posts_count(&PostQuery::default()).await.unwrap();
    let queued = store.media_counts().await.unwrap();
    // Only the sandbox is asked: a post linking elsewhere would send the bench to the internet.
    let sample = store
        .posts(&PostQuery {
            limit: 1000,
            ..PostQuery::default()
        })
        .await
        .unwrap();
    for post in &sample {
        for planned in plan::plan(&post.raw_json, None) {
            assert!(
                planned.source_url.starts_with(sandbox.base_url()),
                "a media link outside the sandbox: {}",
                planned.source_url
            );
        }
    }
    let db_before = database_bytes(data.path());
    let rss_before = peak_rss_kib();

    let worker = MediaWorker::new(pace, system_clock(), None);
    let started = Instant::now();
    loop {
        let counts = store.media_counts().await.unwrap();
        if counts.waiting == 0 {
            break;
        }
        let nap = worker.step(&state).await;
        if nap > Duration::from_secs(5) {
            panic!("the worker held off: {counts:?}");
        }
        tokio::time::sleep(nap.min(pace.gap)).await;
    }
    let took = started.elapsed();
    let counts = store.media_counts().await.unwrap();
    let done = counts.kept + counts.gone + counts.failed + counts.too_large;
    let files = folder_bytes(&data.path().join("media"));
    let db_growth = database_bytes(data.path()).saturating_sub(db_before);
    println!(
        "{label}: {posts} posts archived, {} media items queued; fetched {done} in {:.2} s = {:.1} items/s \
         (kept {}, gone {}, failed {}, too large {}; {} distinct files)",
        queued.waiting,
        took.as_secs_f64(),
        done as f64 / took.as_secs_f64(),
        counts.kept,
        counts.gone,
        counts.failed,
        counts.too_large,
        counts.files,
    );
    let per_thousand = |bytes: u64| bytes as f64 * 1000.0 / posts as f64 / 1_048_576.0;
    println!(
        "{label}: disk per 1,000 posts: {:.2} MiB of files + {:.2} MiB of database rows",
        per_thousand(files),
        per_thousand(db_growth),
    );
    println!(
        "{label}: peak resident memory {:.1} MiB before fetching, {:.1} MiB after",
        rss_before as f64 / 1024.0,
        peak_rss_kib() as f64 / 1024.0,
    );
    store.close().await;
}

/// The process's peak resident set (Linux `VmHWM`), in KiB.
fn peak_rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            status
                .lines()
                .find(|line| line.starts_with("VmHWM:"))?
                .split_whitespace()
                .nth(1)?
                .parse()
                .ok()
        })
        .unwrap_or(0)
}

/// The database file and its write-ahead log.
fn database_bytes(data: &std::path::Path) -> u64 {
    ["sightline.db", "sightline.db-wal"]
        .iter()
        .filter_map(|name| std::fs::metadata(data.join(name)).ok())
        .map(|meta| meta.len())
        .sum()
}

fn folder_bytes(folder: &std::path::Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return 0;
    };
    entries
        .flatten()
        .map(|entry| match entry.metadata() {
            Ok(meta) if meta.is_dir() => folder_bytes(&entry.path()),
            Ok(meta) => meta.len(),
            Err(_) => 0,
        })
        .sum()
}
