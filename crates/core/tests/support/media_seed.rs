//! Media for seeded posts, kept the way the fetcher keeps it: queued in the store, the bytes
//! written into a real media folder (`MediaFolder`), hashed (SHA-256 and PDQ) by the core's
//! own functions, and recorded kept, gone or failed with a response's status and headers.

use chrono::{DateTime, Utc};
use sightline_core::media::files::MediaFolder;
use sightline_core::media::hash;
use sightline_store::{MediaFailure, MediaKept, MediaKind, NewMediaFile, NewMediaItem, Store};

/// A media item to queue: post, position, kind, address.
pub fn item(post_id: &str, position: u32, kind: MediaKind, url: &str) -> NewMediaItem {
    NewMediaItem {
        post_id: post_id.to_owned(),
        position,
        kind,
        source_url: url.to_owned(),
        poster_url: None,
    }
}

/// Queues `items` and returns each one's row id, in the order given.
pub async fn queue(store: &Store, items: &[NewMediaItem], at: DateTime<Utc>) -> Vec<i64> {
    store.queue_media(items, at).await.unwrap();
    let posts: Vec<String> = items.iter().map(|i| i.post_id.clone()).collect();
    let queued: std::collections::HashMap<(String, i64), i64> = store
        .media_for_posts(&posts)
        .await
        .unwrap()
        .into_iter()
        .map(|q| ((q.post_id, q.position), q.id))
        .collect();
    items
        .iter()
        .map(|wanted| queued[&(wanted.post_id.clone(), i64::from(wanted.position))])
        .collect()
}

/// Keeps `bytes` in `folder` and describes them as the store records a kept file.
pub async fn file(folder: &MediaFolder, bytes: &[u8], content_type: &str) -> NewMediaFile {
    let kept = folder.write(bytes).await.unwrap();
    let pdq = hash::pdq(bytes);
    NewMediaFile {
        sha256: kept.sha256,
        size: kept.size,
        content_type: content_type.to_owned(),
        pdq: pdq.as_ref().map(|p| p.hash),
        pdq_quality: pdq.as_ref().map(|p| p.quality),
        width: pdq.as_ref().map(|p| p.width),
        height: pdq.as_ref().map(|p| p.height),
    }
}

/// The headers a media host answers a picture with.
pub fn headers(content_type: &str, bytes: usize) -> Vec<(String, String)> {
    vec![
        ("content-type".into(), content_type.into()),
        ("content-length".into(), bytes.to_string()),
        ("cache-control".into(), "max-age=604800".into()),
        ("etag".into(), format!("\"{bytes}\"")),
    ]
}

/// Records item `id` kept: `bytes` of `content_type` answered 200 at `at` (a video's still
/// picture too, when given).
pub async fn keep(
    store: &Store,
    folder: &MediaFolder,
    id: i64,
    bytes: &[u8],
    content_type: &str,
    poster: Option<&[u8]>,
    at: DateTime<Utc>,
) -> NewMediaFile {
    let kept = file(folder, bytes, content_type).await;
    let poster = match poster {
        Some(still) => Some(file(folder, still, "image/jpeg").await),
        None => None,
    };
    let recorded = store
        .record_media_kept(
            id,
            &MediaKept {
                fetched_at: at,
                http_status: 200,
                response_headers: headers(content_type, bytes.len()),
                file: kept.clone(),
                poster,
            },
        )
        .await
        .unwrap();
    assert!(recorded, "item {id} recorded kept");
    kept
}

/// Records item `id` gone: its link answered `status` at `at`.
pub async fn gone(store: &Store, id: i64, status: u16, at: DateTime<Utc>) {
    let headers = vec![
        ("content-type".to_owned(), "text/html".to_owned()),
        ("content-length".to_owned(), "9".to_owned()),
    ];
    assert!(store
        .record_media_gone(id, status, &headers, at)
        .await
        .unwrap());
}

/// Records item `id` given up at `at`, for `reason`.
pub async fn failed(store: &Store, id: i64, reason: &str, at: DateTime<Utc>) {
    let failure = MediaFailure {
        at,
        reason: reason.to_owned(),
        http_status: Some(503),
        response_headers: Some(vec![("retry-after".into(), "120".into())]),
        retry_at: None,
        too_large: false,
    };
    assert!(store.record_media_failed(id, &failure).await.unwrap());
}

/// One picture for each of `post_ids`, `distinct` pictures in all (post `n` shows picture
/// `n % distinct`, a sandbox picture of that seed), each kept at `at` as the fetcher keeps it;
/// the bytes of the distinct files. For the evidence and web-archive benches.
#[allow(dead_code)]
pub async fn pictures_for_posts(
    store: &Store,
    folder: &MediaFolder,
    post_ids: &[String],
    distinct: usize,
    at: DateTime<Utc>,
) -> u64 {
    let items: Vec<NewMediaItem> = post_ids
        .iter()
        .enumerate()
        .map(|(n, post)| {
            let url = format!("http://127.0.0.1:9/media/{}.jpg", n % distinct);
            item(post, 0, MediaKind::Photo, &url)
        })
        .collect();
    let ids = queue(store, &items, at).await;
    let mut files: Vec<NewMediaFile> = Vec::with_capacity(distinct);
    for n in 0..distinct.min(post_ids.len()) {
        let bytes = sightline_sandbox::media::picture(
            n as u64,
            sightline_sandbox::media::Variant::Original,
        );
        files.push(file(folder, &bytes, "image/jpeg").await);
    }
    for (n, id) in ids.into_iter().enumerate() {
        let kept = &files[n % distinct];
        let recorded = store
            .record_media_kept(
                id,
                &MediaKept {
                    fetched_at: at,
                    http_status: 200,
                    response_headers: headers("image/jpeg", kept.size as usize),
                    file: kept.clone(),
                    poster: None,
                },
            )
            .await
            .unwrap();
        assert!(recorded);
    }
    files.iter().map(|f| f.size).sum()
}
