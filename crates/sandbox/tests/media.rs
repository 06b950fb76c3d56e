//! The media the sandbox serves for its posts, over real HTTP: the posts' links point to the
//! sandbox itself, the pictures and videos answer with their types and the same bytes on every
//! run, planted copies are what `tests/fixtures/planted_media.json` says, gone links answer
//! 404 or 410, the MP4s parse back, and faults apply to the media routes.

mod common;

use common::{fixed_now, get, start};
use serde_json::Value;
use sha2::{Digest, Sha256};
use sightline_sandbox::media::{self, VIDEO_SIZES};
use sightline_sandbox::Sandbox;
use std::collections::{BTreeMap, BTreeSet};

fn truth() -> Value {
    let text = include_str!("fixtures/planted_media.json");
    serde_json::from_str(text).unwrap()
}

/// A plain client for the media host: no key.
async fn fetch(url: &str) -> (u16, String, Vec<u8>) {
    let resp = reqwest::get(url).await.expect("request");
    let status = resp.status().as_u16();
    let content_type = resp
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    let bytes = resp.bytes().await.expect("body").to_vec();
    (status, content_type, bytes)
}

fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The file key in a media link: `/media/<key>.jpg` or `/video/<key>/<size>.mp4`.
fn file_key(url: &str) -> String {
    let path = url
        .split("/media/")
        .nth(1)
        .or_else(|| url.split("/video/").nth(1));
    let path = path.unwrap_or_else(|| panic!("not a media link: {url}"));
    path.split(['.', '/']).next().unwrap().to_string()
}

async fn search(sb: &Sandbox, filter: &str) -> Vec<Value> {
    let found = get(
        sb,
        "/twitter",
        &[
            ("query", ""),
            ("count", "100"),
            ("sort", "Latest"),
            (filter, "true"),
        ],
    )
    .await;
    assert_eq!(found.status, 200, "{}", found.text);
    found.json().as_array().unwrap().clone()
}

#[tokio::test]
async fn photos_are_served_by_the_sandbox_with_their_planted_copies() {
    let sb = start().await;
    let truth = truth();
    let mut family_of = BTreeMap::new();
    for family in truth["families"].as_array().unwrap() {
        for copy in family["copies"].as_array().unwrap() {
            let key = copy["file_key"].as_str().unwrap().to_string();
            family_of.insert(
                key,
                (family["family"].as_u64().unwrap(), copy["variant"].clone()),
            );
        }
    }
    let gone: BTreeMap<String, u64> = truth["gone"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["file_key"].as_str().unwrap().to_string(),
                g["status"].as_u64().unwrap(),
            )
        })
        .collect();

    let posts = search(&sb, "is_image").await;
    assert_eq!(posts.len(), 100);
    let prefix = format!("{}/media/", sb.base_url());
    // Originals per family: the SHA-256 of their bytes.
    let mut originals: BTreeMap<u64, BTreeSet<String>> = BTreeMap::new();
    let (mut served, mut copies, mut png) = (0, 0, 0);
    for post in &posts {
        let flat = post["media"].as_array().unwrap();
        let entities = post["extended_entities"]["media"].as_array().unwrap();
        assert_eq!(flat.len(), entities.len());
        for (m, e) in flat.iter().zip(entities) {
            let url = m["media_url"].as_str().unwrap();
            assert_eq!(e["media_url_https"], url, "both lists give one link");
            assert!(url.starts_with(&prefix), "{url} is not on the sandbox");
            assert_eq!(m["type"], "photo");
            let key = file_key(url);
            let (status, content_type, bytes) = fetch(url).await;
            if let Some(&expected) = gone.get(&key) {
                assert_eq!(u64::from(status), expected, "{url}");
                continue;
            }
            assert_eq!(status, 200, "{url}");
            served += 1;
            let expected_type = if url.ends_with(".png") {
                png += 1;
                "image/png"
            } else {
                "image/jpeg"
            };
            assert_eq!(content_type, expected_type, "{url}");
            let img = image::load_from_memory(&bytes).expect("a picture");
            let info = &e["original_info"];
            assert_eq!(
                (u64::from(img.width()), u64::from(img.height())),
                (
                    info["width"].as_u64().unwrap(),
                    info["height"].as_u64().unwrap()
                ),
                "{url}"
            );
            if let Some((family, variant)) = family_of.get(&key) {
                copies += 1;
                if variant["kind"] == "original" {
                    originals.entry(*family).or_default().insert(sha256(&bytes));
                }
            }
        }
    }
    assert!(served >= 90, "{served} photos served");
    assert!(png > 0, "some photos are PNG");
    // Recent pictures travel: a third of the newest photos are planted copies.
    assert!(
        copies >= 20,
        "{copies} planted copies among the newest photos"
    );
    // Every original copy of one family is the very same file.
    assert!(originals.values().any(|set| !set.is_empty()));
    for (family, hashes) in &originals {
        assert_eq!(hashes.len(), 1, "family {family}: {hashes:?}");
    }
    // Nothing was asked with a key, and each fetch was noted once.
    let hits = sb.media_hits();
    assert!(hits.len() >= served);
    assert!(hits.iter().all(|h| !h.authorization));
}

#[tokio::test]
async fn copies_are_the_library_pictures() {
    let sb = start().await;
    let world = sb.world();
    // One planted copy of each kind of variant, found in the world, fetched over HTTP.
    let mut seen = BTreeSet::new();
    for post in &world.posts {
        for m in post.media.iter() {
            let plan = media::plan(world.seed, world.now_ms, post.created_ms, m);
            if plan.family.is_none() || plan.gone.is_some() {
                continue;
            }
            let kind = format!("{:?}", plan.variant);
            if !seen.insert(kind) {
                continue;
            }
            let url = format!(
                "{}{}",
                sb.base_url(),
                media::picture_path(&m.file_key, plan.format)
            );
            let (status, _, bytes) = fetch(&url).await;
            assert_eq!(status, 200);
            assert_eq!(bytes, media::picture(plan.picture, plan.variant), "{url}");
        }
    }
    assert_eq!(seen.len(), 6, "{seen:?}");
}

#[tokio::test]
async fn the_same_links_give_the_same_bytes_on_every_run() {
    let a = start().await;
    let b = start().await;
    assert_ne!(a.base_url(), b.base_url());
    let posts_a = search(&a, "is_image").await;
    let posts_b = search(&b, "is_image").await;
    let mut compared = 0;
    for (pa, pb) in posts_a.iter().zip(&posts_b).take(12) {
        let ua = pa["media"][0]["media_url"].as_str().unwrap();
        let ub = pb["media"][0]["media_url"].as_str().unwrap();
        assert_eq!(ua.strip_prefix(a.base_url()), ub.strip_prefix(b.base_url()));
        let (sa, _, ba) = fetch(ua).await;
        let (sb_, _, bb) = fetch(ub).await;
        assert_eq!((sa, sha256(&ba)), (sb_, sha256(&bb)), "{ua}");
        compared += 1;
    }
    assert_eq!(compared, 12);
}

#[tokio::test]
async fn videos_offer_mp4_variants_that_parse_back() {
    let sb = start().await;
    let posts = search(&sb, "is_video").await;
    let video = posts
        .iter()
        .flat_map(|p| p["extended_entities"]["media"].as_array().unwrap().clone())
        .find(|m| {
            let key = file_key(m["media_url_https"].as_str().unwrap());
            !truth()["gone"]
                .as_array()
                .unwrap()
                .iter()
                .any(|g| g["file_key"] == key)
        })
        .expect("a video that has not gone");
    assert_eq!(video["type"], "video");
    let info = &video["video_info"];
    assert_eq!(info["aspect_ratio"], serde_json::json!([16, 9]));
    assert_eq!(info["duration_millis"], media::VIDEO_MS);

    let (status, content_type, poster) = fetch(video["media_url_https"].as_str().unwrap()).await;
    assert_eq!((status, content_type.as_str()), (200, "image/jpeg"));
    let poster = image::load_from_memory(&poster).unwrap();
    assert_eq!((poster.width(), poster.height()), (640, 360));

    let variants = info["variants"].as_array().unwrap();
    assert_eq!(variants.len(), VIDEO_SIZES.len());
    let mut last = (0, 0);
    for (v, size) in variants.iter().zip(VIDEO_SIZES) {
        assert_eq!(v["content_type"], "video/mp4");
        assert_eq!(v["bitrate"], size.bitrate);
        let url = v["url"].as_str().unwrap();
        assert!(
            url.starts_with(&format!("{}/video/", sb.base_url())),
            "{url}"
        );
        let (status, content_type, bytes) = fetch(url).await;
        assert_eq!((status, content_type.as_str()), (200, "video/mp4"), "{url}");
        let movie = parse_mp4(&bytes);
        assert_eq!((movie.width, movie.height), (size.width, size.height));
        assert_eq!(movie.frames.len() as u32, media::VIDEO_FRAMES);
        assert_eq!(movie.duration_ms, media::VIDEO_MS);
        for frame in &movie.frames {
            let img = image::load_from_memory(frame).expect("each sample is a JPEG");
            assert_eq!(
                (img.width(), img.height()),
                (u32::from(size.width), u32::from(size.height))
            );
        }
        // The frames move: a video, not one picture repeated.
        assert_ne!(movie.frames[0], movie.frames[movie.frames.len() - 1]);
        // Larger variants are larger files, and all are small.
        assert!(size.bitrate > last.0 && bytes.len() > last.1, "{url}");
        assert!(bytes.len() < 200_000, "{url}: {} bytes", bytes.len());
        last = (size.bitrate, bytes.len());
    }
    // A size not offered, or a photo's key as a video, is not there.
    let key = file_key(video["media_url_https"].as_str().unwrap());
    let (status, _, _) = fetch(&format!("{}/video/{key}/100x100.mp4", sb.base_url())).await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn gone_links_answer_404_and_410() {
    let sb = start().await;
    let world = sb.world();
    let truth = truth();
    for status in [404, 410] {
        let gone = truth["gone"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["status"] == status && g["kind"] == "photo")
            .unwrap();
        let key = gone["file_key"].as_str().unwrap();
        // The post carrying it, as the service returns it.
        let post = world
            .posts
            .iter()
            .find(|p| p.media.iter().any(|m| &*m.file_key == key))
            .unwrap();
        let record = get(&sb, "/twitter/post", &[("id", &post.id.to_string())]).await;
        assert_eq!(record.status, 200, "{}", record.text);
        let record = record.json();
        let record = if record.is_array() {
            record[0].clone()
        } else {
            record
        };
        let url = record["media"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["media_url"].as_str().unwrap().to_string())
            .find(|u| u.contains(key))
            .unwrap();
        let (answered, content_type, _) = fetch(&url).await;
        assert_eq!(answered, status, "{url}");
        assert!(content_type.starts_with("text/plain"));
    }
    let gone_video = truth["gone"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["kind"] == "video")
        .unwrap();
    let key = gone_video["file_key"].as_str().unwrap();
    let status = gone_video["status"].as_u64().unwrap() as u16;
    let size = VIDEO_SIZES[0];
    let url = format!("{}{}", sb.base_url(), media::video_path(key, size));
    assert_eq!(fetch(&url).await.0, status, "{url}");
    // A key no post carries is not there either.
    let (status, _, _) = fetch(&format!("{}/media/AAAAAAAAAAAAAAA.jpg", sb.base_url())).await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn faults_apply_to_media_routes_and_requests_are_noted() {
    let sb = start().await;
    let posts = search(&sb, "is_image").await;
    let gone = truth()["gone"].clone();
    let url = posts
        .iter()
        .map(|p| p["media"][0]["media_url"].as_str().unwrap().to_string())
        .find(|u| {
            !gone
                .as_array()
                .unwrap()
                .iter()
                .any(|g| u.contains(g["file_key"].as_str().unwrap()))
        })
        .unwrap();
    let full = fetch(&url).await.2;

    sb.faults().push(
        "/media",
        sightline_sandbox::Fault::Status {
            status: 503,
            body: None,
            headers: Default::default(),
        },
    );
    let resp = reqwest::get(&url).await.unwrap();
    assert_eq!(resp.status().as_u16(), 503);
    assert_eq!(resp.headers()["retry-after"], "1");

    sb.faults().push(
        "/media",
        sightline_sandbox::Fault::CutStream {
            after_events: 0,
            abrupt: true,
        },
    );
    let resp = reqwest::get(&url).await.unwrap();
    assert_eq!(resp.status().as_u16(), 200);
    assert_eq!(resp.content_length(), Some(full.len() as u64));
    assert!(resp.bytes().await.is_err(), "the body breaks off");

    // The next answer is whole again; a request with a key is noted as such.
    let again = reqwest::Client::new()
        .get(&url)
        .header("Authorization", sb.demo_key())
        .send()
        .await
        .unwrap();
    assert_eq!(again.bytes().await.unwrap().to_vec(), full);
    let path = url.strip_prefix(sb.base_url()).unwrap();
    let hits: Vec<_> = sb
        .media_hits()
        .into_iter()
        .filter(|h| h.path == path)
        .collect();
    let statuses: Vec<u16> = hits.iter().map(|h| h.status).collect();
    assert_eq!(statuses, [200, 503, 200, 200]);
    assert_eq!(
        hits.iter().map(|h| h.authorization).collect::<Vec<_>>(),
        [false, false, false, true]
    );
    // The same list over HTTP, for the e2e suite.
    let listed = get(&sb, "/__sandbox/media", &[]).await.json();
    let listed = listed["requests"].as_array().unwrap();
    assert_eq!(listed.len(), sb.media_hits().len());
    let last = listed.last().unwrap();
    assert_eq!(
        (last["path"].as_str(), last["authorization"].as_bool()),
        (Some(path), Some(true))
    );
    assert!(
        last["user_agent"].is_null(),
        "reqwest sends none by default: {last}"
    );
}

#[tokio::test]
async fn the_embedded_sandbox_links_to_its_own_address() {
    // As demo mode starts it: its own free port, the clock running.
    let sb = Sandbox::builder()
        .seed(42)
        .pace_ms(0)
        .now(fixed_now())
        .start()
        .await
        .unwrap();
    let posts = search(&sb, "is_image").await;
    let url = posts[0]["media"][0]["media_url"].as_str().unwrap();
    assert!(
        url.starts_with(&format!("{}/media/", sb.base_url())),
        "{url}"
    );
    for post in &posts {
        let media = format!("{} {}", post["media"], post["extended_entities"]);
        assert!(!media.contains("twimg.com"), "{media}");
    }
}

/// What a parsed MP4 holds.
struct Movie {
    width: u16,
    height: u16,
    duration_ms: u32,
    frames: Vec<Vec<u8>>,
}

/// The boxes of `data` (type, payload), in order; the sizes must tile the data exactly.
fn boxes(data: &[u8]) -> Vec<([u8; 4], &[u8])> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < data.len() {
        let size = u32::from_be_bytes(data[at..at + 4].try_into().unwrap()) as usize;
        assert!(
            size >= 8 && at + size <= data.len(),
            "box size {size} at {at}"
        );
        out.push((
            data[at + 4..at + 8].try_into().unwrap(),
            &data[at + 8..at + size],
        ));
        at += size;
    }
    out
}

fn child<'a>(data: &'a [u8], kind: &[u8; 4]) -> &'a [u8] {
    boxes(data)
        .into_iter()
        .find(|(k, _)| k == kind)
        .unwrap_or_else(|| panic!("no {} box", String::from_utf8_lossy(kind)))
        .1
}

fn u32_at(data: &[u8], at: usize) -> u32 {
    u32::from_be_bytes(data[at..at + 4].try_into().unwrap())
}

/// Parses an MP4 of one JPEG video track back: box tree, sample tables, frames from `mdat`.
fn parse_mp4(file: &[u8]) -> Movie {
    let top = boxes(file);
    let kinds: Vec<&[u8; 4]> = top.iter().map(|(k, _)| k).collect();
    assert_eq!(kinds, [b"ftyp", b"moov", b"mdat"]);
    assert_eq!(&top[0].1[..4], b"isom");
    let moov = top[1].1;
    let mvhd = child(moov, b"mvhd");
    let timescale = u32_at(mvhd, 12);
    let duration = u32_at(mvhd, 16);
    let trak = child(moov, b"trak");
    let tkhd = child(trak, b"tkhd");
    let width = (u32_at(tkhd, 76) >> 16) as u16;
    let height = (u32_at(tkhd, 80) >> 16) as u16;
    let mdia = child(trak, b"mdia");
    assert_eq!(&child(mdia, b"hdlr")[8..12], b"vide");
    let minf = child(mdia, b"minf");
    child(minf, b"vmhd");
    let dref = child(child(minf, b"dinf"), b"dref");
    assert_eq!(u32_at(dref, 4), 1);
    let stbl = child(minf, b"stbl");
    let stsd = child(stbl, b"stsd");
    assert_eq!(u32_at(stsd, 4), 1, "one sample entry");
    let entry = child(&stsd[8..], b"jpeg");
    assert_eq!(
        (
            u16::from_be_bytes([entry[24], entry[25]]),
            u16::from_be_bytes([entry[26], entry[27]])
        ),
        (width, height)
    );
    let stts = child(stbl, b"stts");
    let (count, delta) = (u32_at(stts, 8), u32_at(stts, 12));
    assert_eq!(count * delta, duration);
    let stsc = child(stbl, b"stsc");
    assert_eq!(
        (u32_at(stsc, 4), u32_at(stsc, 12)),
        (1, count),
        "one chunk of every sample"
    );
    let stsz = child(stbl, b"stsz");
    assert_eq!(u32_at(stsz, 8), count);
    let sizes: Vec<usize> = (0..count as usize)
        .map(|i| u32_at(stsz, 12 + 4 * i) as usize)
        .collect();
    let stco = child(stbl, b"stco");
    let mut at = u32_at(stco, 8) as usize;
    // The chunk is the whole of `mdat`'s payload.
    let mdat_start = file.len() - top[2].1.len();
    assert_eq!(at, mdat_start);
    assert_eq!(sizes.iter().sum::<usize>(), top[2].1.len());
    let frames = sizes
        .iter()
        .map(|&n| {
            let frame = file[at..at + n].to_vec();
            at += n;
            assert_eq!(&frame[..2], &[0xFF, 0xD8]);
            frame
        })
        .collect();
    Movie {
        width,
        height,
        duration_ms: duration * 1000 / timescale,
        frames,
    }
}
