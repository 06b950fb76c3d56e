//! How long a 100,000-post case package takes to export ("Export for a colleague": gathered,
//! its `case/` files written, sealed and recorded) and to open in a second data folder
//! ("Open a case package": verified, read again, imported), then to open again where the case
//! is held (a merge that finds everything held). 1,000 responses of 100 posts each, a note and
//! a tag on every tenth post, a kept picture on 10,000 posts (1,000 distinct files). Real
//! SQLite files, in-memory keychains. Prints each step's time, the package's size and the
//! process's peak memory (VmHWM). Run: `nice cargo bench -p sightline-core --bench case_package`.

// Shared with the tests, which use the rest of it.
#[allow(dead_code)]
#[path = "../tests/support/media_seed.rs"]
mod media;
#[path = "../tests/support/evidence_seed.rs"]
mod seed;

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use sightline_api::CancelToken;
use sightline_core::case_package::{self, CaseExportOutcome, CaseOpenOutcome};
use sightline_core::environment::Environment;
use sightline_core::keychain::MemoryStore;
use sightline_core::media::files::MediaFolder;
use sightline_core::state::AppState;

const REQUESTS: usize = 1_000;
const POSTS_PER_REQUEST: usize = 100;

fn installation(dir: &Path) -> AppState {
    std::fs::create_dir_all(dir).unwrap();
    AppState::new(
        dir.to_owned(),
        Environment::default(),
        Arc::new(MemoryStore::default()),
    )
    .unwrap()
}

/// The process's peak resident memory so far, in MiB.
fn peak_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

#[tokio::main]
async fn main() {
    let dir =
        tempfile::tempdir_in(std::env::var("BENCH_DIR").unwrap_or_else(|_| "/tmp".into())).unwrap();
    let a = installation(&dir.path().join("a"));
    let store = a.store().await.unwrap();
    let started = Instant::now();
    let id = seed::seed(&store, REQUESTS, POSTS_PER_REQUEST).await;
    let posts = REQUESTS * POSTS_PER_REQUEST;
    for n in (0..posts).step_by(10) {
        let post = (seed::FIRST_ID + n as u64).to_string();
        store
            .set_investigation_post(id, &post, Some("checked"), Some(&["lead".into()]))
            .await
            .unwrap();
    }
    let folder = MediaFolder::new(&a.data_dir);
    let with_media: Vec<String> = (0..10_000u64)
        .map(|n| (seed::FIRST_ID + n * 10).to_string())
        .collect();
    let media_bytes =
        media::pictures_for_posts(&store, &folder, &with_media, 1_000, chrono::Utc::now()).await;
    println!(
        "seeded {REQUESTS} responses, {posts} posts, 10,000 notes and tags, 10,000 media items \
         (1,000 files, {:.1} MB) in {:.1} s; peak {:.0} MiB",
        media_bytes as f64 / 1e6,
        started.elapsed().as_secs_f64(),
        peak_mib()
    );

    let path = dir.path().join("case.zip");
    let started = Instant::now();
    let outcome = case_package::export(&a, id, &path, &mut |_| {}, &CancelToken::new())
        .await
        .unwrap();
    let CaseExportOutcome::Written { bytes, .. } = outcome else {
        panic!("not written")
    };
    println!(
        "exported in {:.2} s: {:.1} MB; peak {:.0} MiB",
        started.elapsed().as_secs_f64(),
        bytes as f64 / 1e6,
        peak_mib()
    );

    let b = installation(&dir.path().join("b"));
    let started = Instant::now();
    let opened = case_package::open(&b, &path, |_| {}, &CancelToken::new())
        .await
        .unwrap();
    let CaseOpenOutcome::Opened { opened, .. } = opened else {
        panic!("not opened: {opened:?}")
    };
    assert_eq!(opened.posts_added as usize, posts);
    println!(
        "opened in a new data folder in {:.2} s ({} requests, {} posts, {} media files); peak {:.0} MiB",
        started.elapsed().as_secs_f64(),
        opened.requests_added,
        opened.posts_added,
        opened.media_files_added,
        peak_mib()
    );

    let started = Instant::now();
    let again = case_package::open(&a, &path, |_| {}, &CancelToken::new())
        .await
        .unwrap();
    let CaseOpenOutcome::Opened { opened, .. } = again else {
        panic!("not opened: {again:?}")
    };
    assert!(opened.merged && opened.posts_added == 0);
    println!(
        "opened where the case is held (merged, all {} posts held) in {:.2} s; peak {:.0} MiB",
        opened.posts_held,
        started.elapsed().as_secs_f64(),
        peak_mib()
    );
}
