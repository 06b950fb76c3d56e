//! The media protocol's answers: names, ranges and types on their own, then whole requests
//! against a real SQLite archive and a real media folder.

use chrono::Utc;
use sightline_store::{MediaKept, MediaKind, NewMediaFile, NewMediaItem, NextMedia};

use super::*;

#[test]
fn only_a_sha256_names_a_file() {
    let sha = "ab".repeat(32);
    assert_eq!(sha256_of_path(&format!("/{sha}")), Some(sha.as_str()));
    for path in [
        String::new(),
        "/".into(),
        sha.clone(),
        format!("/{}", "AB".repeat(32)),
        format!("/{sha}/"),
        format!("/{sha}0"),
        format!("/../{}", &sha[3..]),
        "/../../settings.json".into(),
        format!("/{}g", &sha[1..]),
    ] {
        assert_eq!(sha256_of_path(&path), None, "{path}");
    }
}

#[test]
fn ranges_as_a_video_player_asks_them() {
    assert_eq!(parse_range("bytes=0-99", 1000), Ok((0, 99)));
    assert_eq!(parse_range("bytes=900-", 1000), Ok((900, 999)));
    assert_eq!(parse_range("bytes=-100", 1000), Ok((900, 999)));
    assert_eq!(parse_range("bytes=990-5000", 1000), Ok((990, 999)));
    assert_eq!(
        parse_range("bytes=0-", 10 * MAX_PIECE),
        Ok((0, MAX_PIECE - 1))
    );
    assert_eq!(parse_range("bytes=1000-", 1000), Err(()));
    assert_eq!(parse_range("bytes=5-4", 1000), Err(()));
    assert_eq!(parse_range("bytes=-0", 1000), Err(()));
    assert_eq!(parse_range("items=0-1", 1000), Err(()));
    assert_eq!(parse_range("bytes=0-1", 0), Err(()));
}

#[test]
fn only_pictures_and_videos_keep_their_type() {
    assert_eq!(served_type("image/jpeg"), "image/jpeg");
    assert_eq!(served_type("video/mp4; codecs=avc1"), "video/mp4");
    assert_eq!(served_type("text/html"), "application/octet-stream");
    assert_eq!(served_type(""), "application/octet-stream");
}

/// A real archive file and media folder holding one picture (`image/jpeg`) and one file whose
/// server called it a web page; returns their SHA-256s and the picture's bytes.
async fn archive(dir: &Path) -> (Store, MediaFolder, String, String, Vec<u8>) {
    let store = Store::open(dir.join("archive.db")).await.unwrap();
    let folder = MediaFolder::new(dir);
    let picture: Vec<u8> = (0..10_000u32).map(|n| (n % 251) as u8).collect();
    let page = b"<html><script>alert(1)</script></html>".to_vec();
    let mut names = Vec::new();
    for (position, (bytes, content_type)) in [(&picture, "image/jpeg"), (&page, "text/html")]
        .into_iter()
        .enumerate()
    {
        let kept = folder.write(bytes).await.unwrap();
        store
            .queue_media(
                &[NewMediaItem {
                    post_id: "7".into(),
                    position: position as u32,
                    kind: MediaKind::Photo,
                    source_url: format!("http://127.0.0.1:1/{position}.jpg"),
                    poster_url: None,
                }],
                Utc::now(),
            )
            .await
            .unwrap();
        let NextMedia::Due(item) = store.next_media_due(Utc::now()).await.unwrap() else {
            panic!("the item just queued is due");
        };
        let file = NewMediaFile {
            sha256: kept.sha256.clone(),
            size: kept.size,
            content_type: content_type.into(),
            pdq: None,
            pdq_quality: None,
            width: None,
            height: None,
        };
        let recorded = MediaKept {
            fetched_at: Utc::now(),
            http_status: 200,
            response_headers: vec![("content-type".into(), content_type.into())],
            file,
            poster: None,
        };
        assert!(store.record_media_kept(item.id, &recorded).await.unwrap());
        names.push(kept.sha256);
    }
    let page_sha = names.pop().unwrap();
    let picture_sha = names.pop().unwrap();
    (store, folder, picture_sha, page_sha, picture)
}

fn header<'a>(served: &'a Served, name: &str) -> Option<&'a str> {
    served
        .headers
        .iter()
        .find(|(key, _)| key.eq_ignore_ascii_case(name))
        .map(|(_, value)| value.as_str())
}

#[tokio::test]
async fn a_kept_file_is_served_whole_with_its_type() {
    let dir = tempfile::tempdir().unwrap();
    let (store, folder, sha, _, bytes) = archive(dir.path()).await;
    let served = serve(&store, &folder, "GET", &format!("/{sha}"), None).await;
    assert_eq!(served.status, 200);
    assert_eq!(served.body, bytes);
    assert_eq!(header(&served, "Content-Type"), Some("image/jpeg"));
    assert_eq!(header(&served, "Content-Length"), Some("10000"));
    assert_eq!(header(&served, "X-Content-Type-Options"), Some("nosniff"));

    let head = serve(&store, &folder, "HEAD", &format!("/{sha}"), None).await;
    assert_eq!(head.status, 200);
    assert!(head.body.is_empty());
    assert_eq!(header(&head, "Content-Length"), Some("10000"));
}

#[tokio::test]
async fn a_range_is_served_as_that_part() {
    let dir = tempfile::tempdir().unwrap();
    let (store, folder, sha, _, bytes) = archive(dir.path()).await;
    let path = format!("/{sha}");
    let served = serve(&store, &folder, "GET", &path, Some("bytes=100-199")).await;
    assert_eq!(served.status, 206);
    assert_eq!(served.body, bytes[100..200]);
    assert_eq!(
        header(&served, "Content-Range"),
        Some("bytes 100-199/10000")
    );
    let tail = serve(&store, &folder, "GET", &path, Some("bytes=9990-")).await;
    assert_eq!(tail.body, bytes[9990..]);
    let outside = serve(&store, &folder, "GET", &path, Some("bytes=20000-")).await;
    assert_eq!(outside.status, 416);
    assert_eq!(header(&outside, "Content-Range"), Some("bytes */10000"));
}

#[tokio::test]
async fn nothing_but_a_kept_file_is_reachable() {
    let dir = tempfile::tempdir().unwrap();
    let (store, folder, sha, _, _) = archive(dir.path()).await;
    std::fs::write(dir.path().join("settings.json"), b"{}").unwrap();
    let unknown = "0".repeat(64);
    for path in [
        format!("/{unknown}"),
        format!("/{}", sha.to_uppercase()),
        "/../settings.json".into(),
        "/..%2Fsettings.json".into(),
        "/archive.db".into(),
        format!("/{}/{sha}", &sha[..2]),
        "/".into(),
    ] {
        let served = serve(&store, &folder, "GET", &path, None).await;
        assert_eq!(served.status, 404, "{path}");
        assert_eq!(
            served.body, b"No media kept under this name.",
            "{path}: nothing of any file"
        );
    }
    assert_eq!(
        serve(&store, &folder, "POST", &format!("/{sha}"), None)
            .await
            .status,
        405
    );
}

#[tokio::test]
async fn a_record_without_its_file_is_not_found() {
    let dir = tempfile::tempdir().unwrap();
    let (store, folder, sha, _, _) = archive(dir.path()).await;
    std::fs::remove_file(folder.path(&sha).unwrap()).unwrap();
    let served = serve(&store, &folder, "GET", &format!("/{sha}"), None).await;
    assert_eq!(served.status, 404);
}

#[tokio::test]
async fn a_file_its_server_called_a_page_is_served_as_plain_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let (store, folder, _, page, _) = archive(dir.path()).await;
    let served = serve(&store, &folder, "GET", &format!("/{page}"), None).await;
    assert_eq!(served.status, 200);
    assert_eq!(
        header(&served, "Content-Type"),
        Some("application/octet-stream")
    );
    assert_eq!(
        header(&served, "Content-Security-Policy"),
        Some("default-src 'none'; sandbox")
    );
}
