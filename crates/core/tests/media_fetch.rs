//! The media fetcher against real SQLite files and a media host on loopback that counts every
//! request: the best video variant under the size limit is kept (with its poster's PDQ), a
//! gone link is recorded with its time and never asked again, a restart mid-queue (one fetch
//! cut half-way) resumes without keeping or fetching anything twice, and a host that always
//! fails gets a doubling hold, not a loop. Queueing (filed posts, every archived post with the
//! setting on) is covered in `media_queue.rs`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use chrono::{TimeZone, Utc};
use serde_json::json;
use sha2::{Digest, Sha256};
use sightline_core::environment::Environment;
use sightline_core::keychain::MemoryStore;
use sightline_core::media::worker::{MediaWorker, Pace, PACE};
use sightline_core::media::{files::MediaFolder, queue};
use sightline_core::monitors::system_clock;
use sightline_core::settings::AppSettings;
use sightline_core::state::AppState;
use sightline_sandbox::media::{picture, Variant};
use sightline_store::{MediaItemRecord, MediaState, NewPost, Store};

use crate::support::clock::SteppedClock;
use crate::support::evidence_seed;
use crate::support::media_host::{Answer, MediaHost};

const MB: usize = 1024 * 1024;

/// An app on a fresh data folder whose service is on loopback (so plain HTTP on 127.0.0.1 is
/// fetched), with `limit_mb` as the media size limit.
async fn app(data: &std::path::Path, host: &MediaHost, limit_mb: u32) -> AppState {
    let environment = Environment {
        base_url: Some(host.base.clone()),
        ..Environment::default()
    };
    let state = AppState::new(
        data.to_owned(),
        environment,
        Arc::new(MemoryStore::default()),
    )
    .unwrap();
    let settings = AppSettings {
        media_size_limit_mb: limit_mb,
        ..state.settings()
    };
    state.save_settings(settings).await.unwrap();
    state
}

/// A post `n` whose record lists `media` (X's `extended_entities.media[]`).
fn post_with(n: usize, media: serde_json::Value) -> NewPost {
    let mut post = evidence_seed::post(evidence_seed::FIRST_ID + n as u64, n);
    post.raw_json = json!({
        "id": post.id,
        "text": post.text,
        "media": [],
        "extended_entities": {"media": media},
    })
    .to_string();
    post
}

fn photo(url: &str) -> serde_json::Value {
    json!({"type": "photo", "media_url_https": url})
}

/// Archives `posts` (one request) and queues their media; the items queued.
async fn archive_and_queue(store: &Store, request: usize, posts: Vec<NewPost>) -> u64 {
    let at = Utc.with_ymd_and_hms(2026, 11, 27, 12, 0, 0).unwrap();
    let listed: Vec<(String, String)> = posts
        .iter()
        .map(|p| (p.id.clone(), p.raw_json.clone()))
        .collect();
    store
        .record_request(&evidence_seed::request(request, posts, at))
        .await
        .unwrap();
    queue::posts(
        store,
        listed.iter().map(|(id, raw)| (id.as_str(), raw.as_str())),
    )
    .await
    .unwrap()
}

async fn items(store: &Store, ids: &[String]) -> Vec<MediaItemRecord> {
    store.media_for_posts(ids).await.unwrap()
}

fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Files in the media folder whose name is not a kept file's (a SHA-256).
fn stray_files(data: &std::path::Path) -> Vec<String> {
    let mut stray = Vec::new();
    let Ok(dirs) = std::fs::read_dir(data.join("media")) else {
        return stray;
    };
    for dir in dirs.flatten() {
        if dir.path().is_file() {
            stray.push(dir.file_name().to_string_lossy().into_owned());
            continue;
        }
        for file in std::fs::read_dir(dir.path()).unwrap().flatten() {
            let name = file.file_name().to_string_lossy().into_owned();
            if name.len() != 64 || !name.bytes().all(|b| b.is_ascii_hexdigit()) {
                stray.push(name);
            }
        }
    }
    stray
}

fn quick() -> Pace {
    Pace {
        gap: Duration::ZERO,
        ..PACE
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_best_video_variant_under_the_limit_is_kept_with_its_posters_pdq() {
    let host = MediaHost::start().await;
    // A 2 MB limit: the best variant says its 3 MB length (refused unread), the next sends
    // 2.5 MB with no length (stopped while reading), the third fits.
    let small: Vec<u8> = (0..MB).map(|i| (i % 251) as u8).collect();
    let big = host.serve("/v/1280.mp4", Answer::Bytes("video/mp4", vec![1; 3 * MB]));
    let unsized_ = host.serve(
        "/v/640.mp4",
        Answer::Unsized("video/mp4", vec![2; 5 * MB / 2]),
    );
    let fits = host.serve("/v/320.mp4", Answer::Bytes("video/mp4", small.clone()));
    let poster_bytes = picture(5, Variant::Original);
    let poster = host.serve(
        "/v/poster.jpg",
        Answer::Bytes("image/jpeg", poster_bytes.clone()),
    );
    let hls = host.serve("/v/pl.m3u8", Answer::Status("200 OK"));
    let data = tempfile::tempdir().unwrap();
    let state = app(data.path(), &host, 2).await;
    let store = state.store().await.unwrap();
    let post = post_with(
        0,
        json!([{
            "type": "video",
            "media_url_https": poster,
            "video_info": {"variants": [
                {"content_type": "application/x-mpegURL", "url": hls},
                {"content_type": "video/mp4", "bitrate": 632000, "url": unsized_},
                {"content_type": "video/mp4", "bitrate": 256000, "url": fits},
                {"content_type": "video/mp4", "bitrate": 2176000, "url": big}
            ]}
        }]),
    );
    let id = post.id.clone();
    assert_eq!(archive_and_queue(&store, 0, vec![post]).await, 1);

    let worker = MediaWorker::new(quick(), system_clock(), None);
    worker.step(&state).await;

    let item = &items(&store, &[id]).await[0];
    assert_eq!(item.state, MediaState::Kept, "{:?}", item.reason);
    let file = item.file.as_ref().unwrap();
    assert_eq!(file.sha256, sha256(&small));
    assert_eq!(file.size, MB as i64);
    assert_eq!(file.content_type, "video/mp4");
    assert_eq!(item.http_status, Some(200));
    let headers = item.response_headers.as_ref().unwrap();
    assert!(headers.contains(&("x-served-by".into(), "media-host".into())));
    assert!(headers.contains(&("content-length".into(), MB.to_string())));
    // The poster is kept beside it, with its PDQ: the video's perceptual hash.
    let kept_poster = item.poster.as_ref().unwrap();
    assert_eq!(kept_poster.sha256, sha256(&poster_bytes));
    assert!(kept_poster.pdq.is_some(), "the poster's PDQ");
    // Each address asked once, the playlist never; the files are on disk by their hashes,
    // nothing else left behind.
    for path in ["/v/1280.mp4", "/v/640.mp4", "/v/320.mp4", "/v/poster.jpg"] {
        assert_eq!(host.asked(path), 1, "{path}");
    }
    assert_eq!(host.asked("/v/pl.m3u8"), 0);
    let folder = MediaFolder::new(data.path());
    assert_eq!(
        std::fs::read(folder.path(&file.sha256).unwrap()).unwrap(),
        small
    );
    assert_eq!(
        std::fs::read(folder.path(&kept_poster.sha256).unwrap()).unwrap(),
        poster_bytes
    );
    assert_eq!(stray_files(data.path()), Vec::<String>::new());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_variant_over_the_limit_is_recorded_too_large_without_reading_it() {
    let host = MediaHost::start().await;
    let big = host.serve("/big.jpg", Answer::Bytes("image/jpeg", vec![7; 2 * MB]));
    let data = tempfile::tempdir().unwrap();
    let state = app(data.path(), &host, 1).await;
    let store = state.store().await.unwrap();
    let post = post_with(0, json!([photo(&big)]));
    let id = post.id.clone();
    archive_and_queue(&store, 0, vec![post]).await;
    let worker = MediaWorker::new(quick(), system_clock(), None);
    worker.step(&state).await;
    worker.step(&state).await;
    let item = &items(&store, &[id]).await[0];
    assert_eq!(item.state, MediaState::TooLarge);
    assert!(item.reason.as_deref().unwrap().contains("1 MB limit"));
    assert_eq!(host.asked("/big.jpg"), 1);
    assert_eq!(stray_files(data.path()), Vec::<String>::new());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gone_link_is_recorded_with_its_time_and_never_asked_again() {
    let host = MediaHost::start().await;
    let gone = host.serve("/p/gone.jpg", Answer::Status("410 Gone"));
    let missing = host.url("/p/missing.jpg");
    let data = tempfile::tempdir().unwrap();
    let state = app(data.path(), &host, 100).await;
    let store = state.store().await.unwrap();
    let post = post_with(0, json!([photo(&gone), photo(&missing)]));
    let id = post.id.clone();
    archive_and_queue(&store, 0, vec![post]).await;

    let before = Utc::now();
    let worker = MediaWorker::new(quick(), system_clock(), None);
    for _ in 0..5 {
        worker.step(&state).await;
    }
    let after = Utc::now();
    let found = items(&store, &[id]).await;
    for (item, status) in found.iter().zip([410, 404]) {
        assert_eq!(item.state, MediaState::Gone);
        assert_eq!(item.http_status, Some(status));
        let at = item.fetched_at.unwrap();
        assert!(before <= at && at <= after, "found gone at {at}");
        assert!(item.file.is_none());
    }
    assert_eq!(host.asked("/p/gone.jpg"), 1);
    assert_eq!(host.asked("/p/missing.jpg"), 1);
    let counts = store.media_counts().await.unwrap();
    assert_eq!((counts.gone, counts.waiting), (2, 0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_mid_queue_resumes_without_fetching_or_keeping_anything_twice() {
    let host = MediaHost::start().await;
    let data = tempfile::tempdir().unwrap();
    // 12 posts, each with its own picture, and 2 more showing picture 0 again (the same bytes
    // at other addresses: one file kept for the three).
    let mut posts = Vec::new();
    let mut ids = Vec::new();
    for n in 0..14usize {
        let seed = if n >= 12 { 0 } else { n as u64 };
        let url = host.serve(
            &format!("/p/{n}.jpg"),
            Answer::Bytes("image/jpeg", picture(seed, Variant::Original)),
        );
        let post = post_with(n, json!([photo(&url)]));
        ids.push(post.id.clone());
        posts.push(post);
    }
    // Picture 5's host stalls after half its bytes: its fetch is cut by the restart.
    let five = picture(5, Variant::Original);
    host.serve("/p/5.jpg", Answer::Stalled("image/jpeg", five.clone()));
    {
        let state = app(data.path(), &host, 100).await;
        let store = state.store().await.unwrap();
        assert_eq!(archive_and_queue(&store, 0, posts).await, 14);
        let worker = MediaWorker::new(quick(), system_clock(), None);
        for _ in 0..5 {
            worker.step(&state).await;
        }
        // The app closes while picture 5 is half fetched.
        let cut = tokio::time::timeout(Duration::from_secs(2), worker.step(&state)).await;
        assert!(cut.is_err(), "the stalled fetch was cut");
        assert_eq!(store.media_counts().await.unwrap().kept, 5);
        store.close().await;
    }
    host.serve("/p/5.jpg", Answer::Bytes("image/jpeg", five));

    let state = app(data.path(), &host, 100).await;
    let store = state.store().await.unwrap();
    let worker = MediaWorker::new(quick(), system_clock(), None);
    for _ in 0..20 {
        worker.step(&state).await;
    }
    let found = items(&store, &ids).await;
    assert!(found.iter().all(|item| item.state == MediaState::Kept));
    // Every address asked once, the cut one twice (its half fetch kept nothing).
    for n in 0..14 {
        let expected = if n == 5 { 2 } else { 1 };
        assert_eq!(host.asked(&format!("/p/{n}.jpg")), expected, "picture {n}");
    }
    // Each item fetched to the end once; the three showing picture 0 share one file.
    assert!(found.iter().all(|item| item.attempts == 1));
    let counts = store.media_counts().await.unwrap();
    assert_eq!((counts.kept, counts.files), (14, 12));
    let shared: Vec<&str> = found[12..]
        .iter()
        .map(|item| item.file.as_ref().unwrap().sha256.as_str())
        .collect();
    assert_eq!(shared, [found[0].file.as_ref().unwrap().sha256.as_str(); 2]);
    assert_eq!(stray_files(data.path()), Vec::<String>::new());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_that_always_fails_gets_a_doubling_hold_not_a_loop() {
    let host = MediaHost::start().await;
    let data = tempfile::tempdir().unwrap();
    let state = app(data.path(), &host, 100).await;
    let store = state.store().await.unwrap();
    let mut posts = Vec::new();
    for n in 0..5 {
        let url = host.serve(
            &format!("/down/{n}.jpg"),
            Answer::Status("503 Service Unavailable"),
        );
        posts.push(post_with(n, json!([photo(&url)])));
    }
    let ids: Vec<String> = posts.iter().map(|p| p.id.clone()).collect();
    archive_and_queue(&store, 0, posts).await;

    let clock = SteppedClock::new();
    let told = Arc::new(AtomicUsize::new(0));
    let counted = told.clone();
    let worker = MediaWorker::new(
        PACE,
        clock.clone(),
        Some(Box::new(move |_| {
            counted.fetch_add(1, Ordering::SeqCst);
        })),
    );
    let test = async {
        // Fetched at 0 s, then after holds of 30 s, 1, 2 and 4 minutes: at 30, 90, 210 and
        // 450 s (the next, after 8 minutes, at 930 s).
        clock.run_to(Duration::from_secs(10 * 60)).await;
        assert_eq!(host.asked_in_all(), 5, "requests in ten minutes");
        // A day: the hold doubles to an hour and stays there: 8 requests in the first
        // 3,810 s, then one an hour (without the hold: one a second, 86,400).
        clock.run_to(Duration::from_secs(24 * 60 * 60)).await;
        let in_a_day = host.asked_in_all();
        assert!(
            (30..=31).contains(&in_a_day),
            "{in_a_day} requests in a day"
        );
    };
    tokio::select! {
        () = worker.serve(&state) => unreachable!("the worker serves for ever"),
        () = test => {}
    }
    // Nothing was lost: every item still waits, with why its last try failed.
    let found = items(&store, &ids).await;
    assert!(found.iter().all(|item| item.state == MediaState::Waiting));
    let reason = found[0].reason.as_deref().unwrap();
    assert!(reason.contains("HTTP 503"), "{reason}");
    assert_eq!(found[0].http_status, Some(503));
    assert!(told.load(Ordering::SeqCst) > 0, "progress was told");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redirect_is_followed_only_to_an_address_that_may_be_fetched() {
    let host = MediaHost::start().await;
    let bytes = picture(3, Variant::Original);
    let moved = host.serve("/moved.jpg", Answer::Bytes("image/jpeg", bytes.clone()));
    let near = host.serve("/near.jpg", Answer::Redirect(moved));
    // Plain HTTP on another host: never fetched, even by a redirect.
    let away = host.serve(
        "/away.jpg",
        Answer::Redirect("http://media.example.invalid/x.jpg".into()),
    );
    let data = tempfile::tempdir().unwrap();
    let state = app(data.path(), &host, 100).await;
    let store = state.store().await.unwrap();
    let post = post_with(0, json!([photo(&near), photo(&away)]));
    let id = post.id.clone();
    archive_and_queue(&store, 0, vec![post]).await;
    let worker = MediaWorker::new(quick(), system_clock(), None);
    for _ in 0..4 {
        worker.step(&state).await;
    }
    let found = items(&store, &[id]).await;
    assert_eq!(found[0].state, MediaState::Kept);
    assert_eq!(found[0].file.as_ref().unwrap().sha256, sha256(&bytes));
    assert_eq!(found[1].state, MediaState::Failed, "refused, not retried");
    let reason = found[1].reason.as_deref().unwrap();
    assert!(reason.contains("redirected"), "{reason}");
    assert_eq!(host.asked("/away.jpg"), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sandboxs_media_are_kept_or_found_gone_each_asked_once_without_the_key() {
    let live =
        crate::support::live::Live::start(sightline_sandbox::Sandbox::builder().seed(42)).await;
    let state = &live.state;
    let settings = AppSettings {
        media_keep_all_archived: true,
        ..state.settings()
    };
    state.save_settings(settings).await.unwrap();
    let store = state.store().await.unwrap();
    let session = state.session().await.unwrap();
    let request = crate::support::search::search(&live.sandbox, 100);
    let outcome = sightline_core::pipeline::execute(
        state,
        &session,
        request,
        crate::support::send::send("media-1"),
        None,
    )
    .await
    .unwrap();
    let ids: Vec<String> = store
        .posts(&sightline_store::PostQuery {
            history_ids: vec![outcome.history_id],
            limit: 1000,
            ..sightline_store::PostQuery::default()
        })
        .await
        .unwrap()
        .into_iter()
        .map(|post| post.id)
        .collect();
    let queued = items(&store, &ids).await.len();
    assert!(queued > 0, "the sandbox's posts carry media");

    let worker = MediaWorker::new(quick(), system_clock(), None);
    for _ in 0..queued + 2 {
        worker.step(state).await;
    }
    let found = items(&store, &ids).await;
    let folder = MediaFolder::new(live._data.path());
    for item in &found {
        match item.state {
            MediaState::Kept => {
                let file = item.file.as_ref().unwrap();
                let bytes = std::fs::read(folder.path(&file.sha256).unwrap()).unwrap();
                assert_eq!(sha256(&bytes), file.sha256);
                if item.kind == sightline_store::MediaKind::Photo {
                    assert!(file.pdq.is_some(), "a photo's PDQ: {}", item.source_url);
                } else {
                    assert!(
                        item.poster.as_ref().unwrap().pdq.is_some(),
                        "a poster's PDQ"
                    );
                }
            }
            MediaState::Gone => {
                assert!(matches!(item.http_status, Some(404 | 410)));
                assert!(item.fetched_at.is_some());
            }
            other => panic!("{other:?}: {:?} {}", item.reason, item.source_url),
        }
    }
    // Each address asked once, never with the key, always as Sightline.
    let hits = live.sandbox.media_hits();
    let mut paths: Vec<&str> = hits.iter().map(|hit| hit.path.as_str()).collect();
    let asked = paths.len();
    paths.sort_unstable();
    paths.dedup();
    assert_eq!(paths.len(), asked, "no address asked twice");
    assert!(
        hits.iter().all(|hit| !hit.authorization),
        "the key never sent"
    );
    assert!(hits.iter().all(|hit| hit
        .user_agent
        .as_deref()
        .is_some_and(|agent| agent.starts_with("Sightline/"))));
}
