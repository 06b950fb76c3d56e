//! Settings → Storage on a real data folder: the database, its media folder (a kept file with
//! its record, orphans old and young) and other files, measured by part and compacted.

use std::time::{Duration, SystemTime};

use chrono::Utc;
use sightline_api::CancelToken;
use sightline_core::media::files::MediaFolder;
use sightline_core::storage::{self, CompactOutcome, StoragePart};
use sightline_store::{MediaKind, Store};

use crate::support::{evidence_seed, media_seed};

/// 60 searches of 100 posts each, with their bodies and capture records.
async fn searches(store: &Store) {
    let records: Vec<_> = (0..60)
        .map(|r| {
            let posts = (0..100)
                .map(|p| {
                    let n = r * 100 + p;
                    evidence_seed::post(evidence_seed::FIRST_ID + n as u64, n)
                })
                .collect();
            evidence_seed::request(r, posts, Utc::now())
        })
        .collect();
    store.record_requests(&records).await.unwrap();
}

/// Deletes 40 of the 60 searches from History: their bodies and captures go, leaving free pages.
async fn delete_searches(store: &Store) {
    for r in 0..40 {
        let row = store
            .history_by_request_id(&format!("req-{r}"))
            .await
            .unwrap()
            .unwrap();
        assert!(store.delete_history(row.id).await.unwrap());
    }
}

fn age(path: &std::path::Path, by: Duration) {
    let file = std::fs::File::options().append(true).open(path).unwrap();
    file.set_modified(SystemTime::now() - by).unwrap();
}

fn bytes_on_disk(dir: &std::path::Path) -> u64 {
    walk(dir)
}

fn walk(dir: &std::path::Path) -> u64 {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .map(|e| {
            let kind = e.file_type().unwrap();
            if kind.is_dir() {
                walk(&e.path())
            } else {
                e.metadata().unwrap().len()
            }
        })
        .sum()
}

/// A data folder: 60 searches of 100 posts, a kept picture with its record,
/// an orphaned file and partial file left an hour and more, a young unrecorded file, a log.
async fn folder() -> (
    Store,
    tempfile::TempDir,
    MediaFolder,
    Vec<std::path::PathBuf>,
) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("sightline.db")).await.unwrap();
    searches(&store).await;
    let media = MediaFolder::new(dir.path());
    let ids = media_seed::queue(
        &store,
        &[media_seed::item(
            &evidence_seed::FIRST_ID.to_string(),
            0,
            MediaKind::Photo,
            "https://pbs.example/a.jpg",
        )],
        Utc::now(),
    )
    .await;
    let kept = media_seed::keep(
        &store,
        &media,
        ids[0],
        b"kept picture",
        "image/jpeg",
        None,
        Utc::now(),
    )
    .await;
    let kept_path = media.path(&kept.sha256).unwrap();
    age(&kept_path, Duration::from_secs(7_200));
    let orphan = media
        .write(b"a file whose record was never written")
        .await
        .unwrap();
    age(&orphan.path, Duration::from_secs(7_200));
    let young = media
        .write(b"a file the fetcher is about to record")
        .await
        .unwrap();
    let partial = media.root().join("fetching-7-file.partial");
    std::fs::write(&partial, vec![0u8; 5_000]).unwrap();
    age(&partial, Duration::from_secs(3_700));
    std::fs::create_dir_all(dir.path().join("logs")).unwrap();
    std::fs::write(dir.path().join("logs/sightline.2026-11-28.log"), "a line\n").unwrap();
    (
        store,
        dir,
        media,
        vec![kept_path, orphan.path, young.path, partial],
    )
}

#[tokio::test]
async fn the_parts_add_up_to_the_folder_on_disk() {
    let (store, dir, _media, files) = folder().await;
    store.checkpoint().await.unwrap();
    let report = storage::measure(&store, dir.path(), Some(std::slice::from_ref(&store)))
        .await
        .unwrap();
    let sum: u64 = report.parts.iter().map(|p| p.bytes).sum();
    assert_eq!(sum, report.total_bytes);
    assert_eq!(report.total_bytes, bytes_on_disk(dir.path()));
    let part = |which| report.parts.iter().find(|p| p.part == which).unwrap().bytes;
    let media_files: u64 = files
        .iter()
        .map(|f| std::fs::metadata(f).unwrap().len())
        .sum();
    assert!(part(StoragePart::Media) > media_files, "{report:?}");
    assert!(part(StoragePart::Posts) > 6_000 * 300, "{report:?}");
    assert!(
        part(StoragePart::Indexes) > 0 && part(StoragePart::Other) > 0,
        "{report:?}"
    );
    // The old unrecorded file and the old partial; the young file may be the fetcher's.
    assert_eq!(report.orphaned_files, 2, "{report:?}");
    assert_eq!(
        report.orphaned_bytes,
        std::fs::metadata(&files[1]).unwrap().len() + 5_000
    );
    assert!(report.disk.total_bytes >= report.disk.free_bytes);
    // Not knowing every database that shares the folder, no file is called orphaned.
    let unsure = storage::measure(&store, dir.path(), None).await.unwrap();
    assert_eq!(unsure.orphaned_files, 0);
}

#[tokio::test]
async fn compact_gives_back_deleted_rows_and_removes_only_settled_orphans() {
    let (store, dir, media, files) = folder().await;
    delete_searches(&store).await;
    let before = storage::measure(&store, dir.path(), Some(std::slice::from_ref(&store)))
        .await
        .unwrap();
    let free = before
        .parts
        .iter()
        .find(|p| p.part == StoragePart::Free)
        .unwrap()
        .bytes;
    assert!(free > 300_000, "{before:?}");
    let mut told = Vec::new();
    let done = storage::compact_store(
        &store,
        dir.path(),
        Some(std::slice::from_ref(&store)),
        |step| told.push(step),
        &CancelToken::new(),
    )
    .await
    .unwrap();
    let CompactOutcome::Done {
        before_bytes,
        after_bytes,
        orphaned_files,
        ..
    } = done
    else {
        panic!("{done:?}");
    };
    assert!(
        after_bytes + free / 2 < before_bytes,
        "{before_bytes} -> {after_bytes}"
    );
    assert_eq!(orphaned_files, 2);
    assert!(!told.is_empty());
    assert!(files[0].exists(), "the recorded file stays");
    assert!(
        !files[1].exists() && !files[3].exists(),
        "the settled orphans go"
    );
    assert!(files[2].exists(), "a young file stays");
    assert!(media.contains(&media_seed_sha(&files[0])));
    let after = storage::measure(&store, dir.path(), Some(std::slice::from_ref(&store)))
        .await
        .unwrap();
    assert_eq!(after.orphaned_files, 0);
    assert_eq!(
        after
            .parts
            .iter()
            .find(|p| p.part == StoragePart::Free)
            .unwrap()
            .bytes,
        0
    );
}

#[tokio::test]
async fn a_cancelled_compact_changes_nothing() {
    let (store, dir, _media, files) = folder().await;
    delete_searches(&store).await;
    let before = store.database_fill().await.unwrap();
    let cancel = CancelToken::new();
    cancel.cancel();
    let done = storage::compact_store(
        &store,
        dir.path(),
        Some(std::slice::from_ref(&store)),
        |_| {},
        &cancel,
    )
    .await
    .unwrap();
    assert_eq!(done, CompactOutcome::Cancelled);
    assert_eq!(store.database_fill().await.unwrap(), before);
    assert!(files[1].exists(), "nothing removed when cancelled");
}

fn media_seed_sha(path: &std::path::Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}
