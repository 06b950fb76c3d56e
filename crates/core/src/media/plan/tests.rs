use serde_json::json;

use super::*;

fn sandbox() -> ServiceOrigin {
    ServiceOrigin::of("http://127.0.0.1:8787/").unwrap()
}

#[test]
fn a_video_lists_its_mp4_variants_best_first_and_its_poster() {
    let record = json!({
        "id": "1",
        "media": [{"media_url": "https://pbs.twimg.com/thumb.jpg", "type": "video"}],
        "extended_entities": {"media": [{
            "type": "video",
            "media_url_https": "https://pbs.twimg.com/thumb.jpg",
            "video_info": {"variants": [
                {"content_type": "application/x-mpegURL", "url": "https://video.twimg.com/pl.m3u8"},
                {"content_type": "video/mp4", "bitrate": 832000, "url": "https://video.twimg.com/640.mp4"},
                {"content_type": "video/mp4", "bitrate": "2176000", "url": "https://video.twimg.com/1280.mp4"},
                {"content_type": "video/mp4", "bitrate": 256000, "url": "https://video.twimg.com/320.mp4"}
            ]}
        }]}
    });
    let planned = plan_record(&record, None);
    assert_eq!(planned.len(), 1);
    let video = &planned[0];
    assert_eq!(video.kind, MediaKind::Video);
    let urls: Vec<&str> = video.variants.iter().map(|v| v.url.as_str()).collect();
    assert_eq!(
        urls,
        [
            "https://video.twimg.com/1280.mp4",
            "https://video.twimg.com/640.mp4",
            "https://video.twimg.com/320.mp4"
        ]
    );
    assert_eq!(video.source_url, "https://video.twimg.com/1280.mp4");
    assert_eq!(
        video.poster_url.as_deref(),
        Some("https://pbs.twimg.com/thumb.jpg")
    );
    assert_eq!(video.refused, None);
}

#[test]
fn photos_come_from_extended_entities_in_order_and_fall_back_to_the_flat_list() {
    let rich = json!({
        "extended_entities": {"media": [
            {"type": "photo", "media_url_https": "https://pbs.twimg.com/a.jpg"},
            {"type": "animated_gif", "media_url_https": "https://pbs.twimg.com/g.jpg",
             "video_info": {"variants": [{"content_type": "video/mp4", "bitrate": 0,
                                          "url": "https://video.twimg.com/g.mp4"}]}}
        ]},
        "media": [{"media_url": "https://pbs.twimg.com/other.jpg", "type": "photo"}]
    });
    let planned = plan_record(&rich, None);
    assert_eq!(planned.len(), 2);
    assert_eq!(
        (planned[0].position, planned[0].kind),
        (0, MediaKind::Photo)
    );
    assert_eq!(planned[0].source_url, "https://pbs.twimg.com/a.jpg");
    assert_eq!(planned[0].poster_url, None);
    assert_eq!(
        (planned[1].position, planned[1].kind),
        (1, MediaKind::AnimatedGif)
    );
    assert_eq!(planned[1].source_url, "https://video.twimg.com/g.mp4");

    let flat = json!({"media": [
        {"media_url": "https://pbs.twimg.com/p.jpg", "type": "photo"},
        {"media_url": "https://pbs.twimg.com/v.jpg", "type": "video"}
    ], "extended_entities": {"media": []}});
    let planned = plan(&flat.to_string(), None);
    assert_eq!(planned.len(), 2);
    assert_eq!(planned[0].variants.len(), 1);
    assert_eq!(planned[0].refused, None);
    // The flat form names a video's poster, never its file: nothing is fetched, and why is said.
    assert!(planned[1].variants.is_empty());
    assert_eq!(
        planned[1].poster_url.as_deref(),
        Some("https://pbs.twimg.com/v.jpg")
    );
    assert!(planned[1]
        .refused
        .as_deref()
        .unwrap()
        .contains("only this video's poster"));
}

#[test]
fn plain_http_is_fetched_only_from_the_services_own_host() {
    let record = json!({"extended_entities": {"media": [
        {"type": "photo", "media_url_https": "http://127.0.0.1:8787/media/a.jpg"},
        {"type": "photo", "media_url_https": "http://tracker.example/a.jpg"},
        {"type": "photo", "media_url_https": "http://127.0.0.1:9999/a.jpg"},
        {"type": "photo", "media_url_https": "file:///etc/passwd"},
        {"type": "photo", "media_url_https": "https://cdn.example/a.jpg"}
    ]}});
    let service = sandbox();
    let planned = plan_record(&record, Some(&service));
    let fetched: Vec<bool> = planned.iter().map(|p| p.refused.is_none()).collect();
    // The service's host on another port is still its host (the sandbox's media beside it).
    assert_eq!(fetched, [true, false, true, false, true]);
    assert!(planned[1]
        .refused
        .as_deref()
        .unwrap()
        .contains("not secure"));
    assert!(planned[3].refused.as_deref().unwrap().contains("'file'"));
    // What was refused is still named, so the queue says what it did not fetch.
    assert_eq!(planned[1].source_url, "http://tracker.example/a.jpg");
    // With no service known, plain HTTP is never fetched.
    assert!(plan_record(&record, None)[0].refused.is_some());
}

#[test]
fn a_record_with_no_media_or_no_json_plans_nothing() {
    assert!(plan("not json", None).is_empty());
    assert!(plan(r#"{"id":"1","media":null}"#, None).is_empty());
    assert!(plan(r#"{"id":"1","media":[]}"#, None).is_empty());
    // A video with only an HLS playlist keeps its poster and says why its file is not kept.
    let hls = json!({"extended_entities": {"media": [{"type": "video",
        "media_url_https": "https://pbs.twimg.com/t.jpg",
        "video_info": {"variants": [{"content_type": "application/x-mpegURL",
                                     "url": "https://video.twimg.com/p.m3u8"}]}}]}});
    let planned = plan_record(&hls, None);
    assert!(planned[0].variants.is_empty());
    assert!(planned[0].refused.as_deref().unwrap().contains("MP4"));
    assert_eq!(planned[0].source_url, "https://video.twimg.com/p.m3u8");
    assert_eq!(
        planned[0].poster_url.as_deref(),
        Some("https://pbs.twimg.com/t.jpg")
    );
}
