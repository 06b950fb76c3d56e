//! The case's media in its evidence, on a real SQLite store with the files kept in a real media
//! folder (`MediaFolder`) as the fetcher keeps them: the bundle carries each kept file once
//! under `media/<sha256>.<ext>` with its capture record in `media.jsonl`, `sha256sum -c`
//! accepts the unzipped bundle, the verifier finds it exactly as written, a swapped media file
//! is caught (by its sum, and by the signature when the forger recomputes the sums), and the
//! report shows the pictures in safe view and loads nothing else. The web archive holds a
//! `response` record per kept file with the status and headers received, and the tools that
//! check WACZ files accept it.

use crate::support::evidence_seed as seed;
use crate::support::media_seed as media;
use crate::support::tamper::Bundle as Unzipped;
use crate::wacz::{entries, http_headers, records, required};

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use chrono::{Duration, TimeZone, Utc};
use sightline_api::CancelToken;
use sightline_core::environment::Environment;
use sightline_core::evidence::gather::{self, StoredBodies};
use sightline_core::evidence::verify::{self, BundleCheck, FileOutcome, SignatureState};
use sightline_core::evidence::{seal, Bundle, BundleOutcome};
use sightline_core::keychain::MemoryStore;
use sightline_core::media::files::MediaFolder;
use sightline_core::signing;
use sightline_core::state::AppState;
use sightline_core::wacz::{self, Collector, WaczOutcome};
use sightline_sandbox::media::{picture, Variant};
use sightline_store::{MediaKind, NewMediaFile, Store};

/// A stand-in for a short video's bytes: what matters here is that they are kept and carried
/// exactly, not that they play.
const VIDEO: &[u8] = b"\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom sightline test clip";

/// A case of 3 responses and 6 posts with media: post 0 a picture, post 1 the same picture
/// (one file, two items) and a video with its still, post 2 a link gone (404), post 3 a fetch
/// given up, post 4 one not fetched yet.
struct Case {
    state: AppState,
    store: Store,
    folder: MediaFolder,
    id: i64,
    picture: NewMediaFile,
    picture_bytes: Vec<u8>,
    video: NewMediaFile,
    still: NewMediaFile,
    _dir: tempfile::TempDir,
}

fn post_id(n: u64) -> String {
    (seed::FIRST_ID + n).to_string()
}

async fn case() -> Case {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let state = AppState::new(
        data.clone(),
        Environment::default(),
        Arc::new(MemoryStore::default()),
    )
    .unwrap();
    let store = state.store().await.unwrap();
    let id = seed::seed(&store, 3, 2).await;
    let folder = MediaFolder::new(&data);
    let at = Utc.with_ymd_and_hms(2026, 11, 23, 17, 30, 0).unwrap();
    let host = "http://127.0.0.1:9/media";
    let items = vec![
        media::item(&post_id(0), 0, MediaKind::Photo, &format!("{host}/a.jpg")),
        media::item(
            &post_id(1),
            0,
            MediaKind::Photo,
            &format!("{host}/a-copy.jpg"),
        ),
        sightline_store::NewMediaItem {
            poster_url: Some(format!("{host}/clip.jpg")),
            ..media::item(
                &post_id(1),
                1,
                MediaKind::Video,
                &format!("{host}/clip.mp4"),
            )
        },
        media::item(
            &post_id(2),
            0,
            MediaKind::Photo,
            &format!("{host}/gone.jpg"),
        ),
        media::item(
            &post_id(3),
            0,
            MediaKind::Photo,
            &format!("{host}/down.jpg"),
        ),
        media::item(
            &post_id(4),
            0,
            MediaKind::Photo,
            &format!("{host}/later.jpg"),
        ),
    ];
    let ids = media::queue(&store, &items, at).await;
    let picture_bytes = picture(7, Variant::Original);
    let still_bytes = picture(8, Variant::Original);
    let picture = media::keep(
        &store,
        &folder,
        ids[0],
        &picture_bytes,
        "image/jpeg",
        None,
        at,
    )
    .await;
    media::keep(
        &store,
        &folder,
        ids[1],
        &picture_bytes,
        "image/jpeg",
        None,
        at + Duration::seconds(1),
    )
    .await;
    let video = media::keep(
        &store,
        &folder,
        ids[2],
        VIDEO,
        "video/mp4",
        Some(&still_bytes),
        at + Duration::seconds(2),
    )
    .await;
    let still = media::file(&folder, &still_bytes, "image/jpeg").await;
    media::gone(&store, ids[3], 404, at + Duration::seconds(3)).await;
    media::failed(
        &store,
        ids[4],
        "the host kept answering 503",
        at + Duration::seconds(4),
    )
    .await;
    Case {
        state,
        store,
        folder,
        id,
        picture,
        picture_bytes,
        video,
        still,
        _dir: dir,
    }
}

impl Case {
    async fn gathered(&self) -> Bundle {
        gather::investigation(
            &self.store,
            self.id,
            "Europe/Berlin".parse().unwrap(),
            "0.1.0",
        )
        .await
        .unwrap()
    }

    /// Exported as the app does; the bundle's path.
    async fn bundle(&self, name: &str) -> PathBuf {
        let path = self._dir.path().join(name);
        let outcome = seal::export(
            &self.state,
            &self.store,
            self.gathered().await,
            &path,
            &mut |_| {},
            &CancelToken::new(),
        )
        .await
        .unwrap();
        assert!(
            matches!(outcome, BundleOutcome::Written { .. }),
            "{outcome:?}"
        );
        path
    }

    async fn verified(&self, path: &Path) -> BundleCheck {
        verify::verify(&self.state, path, |_| {}, &CancelToken::new())
            .await
            .unwrap()
            .unwrap()
    }
}

fn name(file: &NewMediaFile, ext: &str) -> String {
    format!("media/{}.{ext}", file.sha256)
}

fn unzip(path: &Path, into: &Path) {
    zip::ZipArchive::new(std::fs::File::open(path).unwrap())
        .unwrap()
        .extract(into)
        .unwrap();
}

#[tokio::test]
async fn a_bundle_carries_each_kept_media_file_with_its_capture_record() {
    let case = case().await;
    let bundle = case.gathered().await;
    assert_eq!(bundle.media.len(), 6, "every item of the case's posts");
    let path = case.bundle("floods.zip").await;
    let out = case._dir.path().join("unzipped");
    unzip(&path, &out);

    // Each kept file once, exactly as kept, named by its hash.
    let mut carried: Vec<String> = std::fs::read_dir(out.join("media"))
        .unwrap()
        .map(|e| format!("media/{}", e.unwrap().file_name().to_string_lossy()))
        .collect();
    carried.sort();
    let mut expected = vec![
        name(&case.picture, "jpg"),
        name(&case.video, "mp4"),
        name(&case.still, "jpg"),
    ];
    expected.sort();
    assert_eq!(carried, expected);
    assert_eq!(
        std::fs::read(out.join(name(&case.picture, "jpg"))).unwrap(),
        case.picture_bytes
    );
    assert_eq!(
        std::fs::read(out.join(name(&case.video, "mp4"))).unwrap(),
        VIDEO
    );

    // The standard tool accepts every file, the media among them.
    let check = Command::new("sha256sum")
        .args(["-c", "--strict", "SHA256SUMS"])
        .current_dir(&out)
        .output()
        .expect("sha256sum is installed");
    let said = String::from_utf8_lossy(&check.stdout);
    assert!(check.status.success(), "{said}");
    for file in &expected {
        assert!(said.contains(&format!("{file}: OK")), "{said}");
    }

    // The manifest lists them with their hashes and counts the items by state.
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["format_version"], 3);
    let listed = manifest["files"].as_array().unwrap();
    for file in [&case.picture, &case.video, &case.still] {
        let path = expected.iter().find(|p| p.contains(&file.sha256)).unwrap();
        let entry = listed.iter().find(|f| f["path"] == path.as_str()).unwrap();
        assert_eq!(entry["sha256"], file.sha256.as_str());
        assert_eq!(entry["bytes"], file.size);
    }
    let counts = &manifest["media"];
    assert_eq!(
        (
            &counts["items"],
            &counts["kept"],
            &counts["gone"],
            &counts["failed"],
            &counts["waiting"],
            &counts["files"]
        ),
        (
            &6.into(),
            &3.into(),
            &1.into(),
            &1.into(),
            &1.into(),
            &3.into()
        )
    );

    // media.jsonl: one line per item, each with its capture record; gone and given up with
    // their time and no file.
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(out.join("media.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 6);
    let first = lines.iter().find(|l| l["post_id"] == post_id(0)).unwrap();
    assert_eq!(first["state"], "kept");
    assert_eq!(first["http_status"], 200);
    assert_eq!(first["source_url"], "http://127.0.0.1:9/media/a.jpg");
    assert_eq!(first["fetched_at_utc"], "2026-11-23T17:30:00.000Z");
    assert_eq!(
        first["response_headers"][0],
        serde_json::json!(["content-type", "image/jpeg"])
    );
    assert_eq!(first["file"]["bundle_file"], name(&case.picture, "jpg"));
    assert_eq!(first["file"]["sha256"], case.picture.sha256);
    assert_eq!(first["file"]["size"], case.picture_bytes.len());
    assert_eq!(first["file"]["content_type"], "image/jpeg");
    let pdq = first["file"]["pdq"]
        .as_str()
        .expect("a picture has a PDQ hash");
    assert_eq!(pdq.len(), 64);
    let video = lines.iter().find(|l| l["kind"] == "video").unwrap();
    assert_eq!(video["poster"]["bundle_file"], name(&case.still, "jpg"));
    assert_eq!(video["file"]["pdq"], serde_json::Value::Null);
    let gone = lines.iter().find(|l| l["state"] == "gone").unwrap();
    assert_eq!(gone["http_status"], 404);
    assert_eq!(gone["fetched_at_utc"], "2026-11-23T17:30:03.000Z");
    assert_eq!(gone["file"], serde_json::Value::Null);
    let failed = lines.iter().find(|l| l["state"] == "failed").unwrap();
    assert_eq!(failed["reason"], "the host kept answering 503");
    assert_eq!(failed["fetched_at_utc"], "2026-11-23T17:30:04.000Z");
    assert_eq!(failed["file"], serde_json::Value::Null);
    let waiting = lines.iter().find(|l| l["state"] == "waiting").unwrap();
    assert_eq!(
        waiting["in_words"],
        "not fetched yet when the bundle was made"
    );

    let verify_txt = std::fs::read_to_string(out.join("VERIFY.txt")).unwrap();
    assert!(
        verify_txt.contains("media/ holds each picture and video"),
        "{verify_txt}"
    );
    assert!(verify_txt.contains("6 media items (3 kept, 1 gone, 1 given up"));

    // Exactly as written: sums, signature and this installation's record.
    let check = case.verified(&path).await;
    assert!(check.intact && check.as_written, "{:?}", check.verdict);
}

#[tokio::test]
async fn the_report_shows_media_in_safe_view_and_loads_nothing_else() {
    let case = case().await;
    let path = case.bundle("floods.zip").await;
    let html = Unzipped::read(&path).text("report.html");
    // Every load names a file of the bundle by its path inside it.
    let mut loads = 0;
    for attribute in ["src=\"", "poster=\"", "href=\"", "srcset=\""] {
        for (at, _) in html.match_indices(attribute) {
            let value = &html[at + attribute.len()..];
            let value = &value[..value.find('"').unwrap()];
            assert!(
                value.starts_with("media/") && !value.contains("..") && !value.contains(':'),
                "the report loads {value}"
            );
            loads += 1;
        }
    }
    assert_eq!(loads, 4, "two pictures, a video and its still");
    let lower = html.to_lowercase();
    for forbidden in [
        "<script",
        "url(",
        "@import",
        "<link",
        "<iframe",
        "autoplay",
        "http-equiv=\"refresh",
    ] {
        assert!(!lower.contains(forbidden), "report holds {forbidden}");
    }
    // Grey and blurred by default, each revealed by its own box, without a script.
    assert!(html.contains("filter: grayscale(1) blur(18px)"));
    assert!(html.contains(".reveal:checked ~ .frame img"));
    let picture = format!("src=\"{}\"", name(&case.picture, "jpg"));
    assert_eq!(
        html.matches(&picture).count(),
        2,
        "one per post carrying it"
    );
    assert_eq!(
        html.matches("<input type=\"checkbox\" class=\"reveal\"")
            .count(),
        3
    );
    assert!(html.contains("<video src=\"media/"));
    assert!(html.contains(" muted preload=\"none\""));
    // What has no file says so, with its time.
    assert!(html.contains("the link had gone (HTTP 404); nothing was kept"));
    assert!(html.contains("tried 2026-11-23 17:30:03 UTC"));
    assert!(
        html.contains("not kept: the fetch was given up (HTTP 503): the host kept answering 503")
    );
}

#[tokio::test]
async fn a_swapped_media_file_is_found() {
    let case = case().await;
    let path = case.bundle("floods.zip").await;
    let picture = name(&case.picture, "jpg");
    let other = picture_bytes_of_another();

    // Swapped, the sums left alone: the file no longer matches.
    let mut swapped = Unzipped::read(&path);
    swapped.set(&picture, other.clone());
    let plain = case._dir.path().join("swapped.zip");
    swapped.write(&plain);
    let check = case.verified(&plain).await;
    let file = check.files.iter().find(|f| f.path == picture).unwrap();
    assert_eq!(file.outcome, FileOutcome::Changed);
    assert!(!check.intact && !check.as_written);

    // Swapped by a forger who recomputes every sum and the manifest: the signature fails.
    swapped.reseal_sums();
    let forged = case._dir.path().join("forged.zip");
    swapped.write(&forged);
    let check = case.verified(&forged).await;
    assert!(check.intact, "the sums agree: {:?}", check.files);
    assert_eq!(check.signature.state, SignatureState::Invalid);
    assert!(!check.as_written, "{}", check.verdict);
}

fn picture_bytes_of_another() -> Vec<u8> {
    picture(99, Variant::Original)
}

#[tokio::test]
async fn a_file_missing_or_changed_in_the_media_folder_is_left_out_and_said() {
    let case = case().await;
    // The video's file removed, the picture's damaged on disk.
    std::fs::remove_file(case.folder.path(&case.video.sha256).unwrap()).unwrap();
    std::fs::write(case.folder.path(&case.picture.sha256).unwrap(), b"not it").unwrap();
    let path = case.bundle("left-out.zip").await;
    let out = case._dir.path().join("left-out");
    unzip(&path, &out);
    let carried: Vec<String> = std::fs::read_dir(out.join("media"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(carried, vec![format!("{}.jpg", case.still.sha256)]);
    let lines = std::fs::read_to_string(out.join("media.jsonl")).unwrap();
    assert!(lines.contains("its file is no longer in this computer's media folder"));
    assert!(lines.contains("no longer holds the bytes kept"));
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(
        manifest["media"]["files_left_out"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    let check = Command::new("sha256sum")
        .args(["-c", "--strict", "SHA256SUMS"])
        .current_dir(&out)
        .status()
        .unwrap();
    assert!(check.success());
    assert!(case.verified(&path).await.as_written);
}

#[tokio::test]
async fn the_web_archive_holds_a_response_per_kept_file_and_validates() {
    let case = case().await;
    let bundle = case.gathered().await;
    let signer = signing::signer(&case.state).await.unwrap();
    let collector = Collector {
        signer: &signer,
        name: Some("Desk 4".into()),
        os: "Linux (test)".into(),
    };
    let path = case._dir.path().join("case.wacz");
    let outcome = wacz::write_wacz(
        &bundle,
        &StoredBodies(&case.store, &case.folder),
        &collector,
        &path,
        &mut |_| {},
        &CancelToken::new(),
    )
    .await
    .unwrap();
    assert!(
        matches!(outcome, WaczOutcome::Written { .. }),
        "{outcome:?}"
    );
    let files = entries(&path);
    let warc = &files["archive/data.warc.gz"];
    let all = records(warc);
    let of = |url: &str| -> Vec<&crate::wacz::WarcRecord> {
        all.iter()
            .map(|(_, _, r)| r)
            .filter(|r| r.field("WARC-Target-URI") == Some(url))
            .collect()
    };

    // A response per kept fetch: status, headers as received, the exact bytes.
    for (url, bytes, sha256) in [
        (
            "http://127.0.0.1:9/media/a.jpg",
            case.picture_bytes.as_slice(),
            &case.picture.sha256,
        ),
        (
            "http://127.0.0.1:9/media/a-copy.jpg",
            case.picture_bytes.as_slice(),
            &case.picture.sha256,
        ),
        (
            "http://127.0.0.1:9/media/clip.mp4",
            VIDEO,
            &case.video.sha256,
        ),
    ] {
        let found = of(url);
        assert_eq!(found.len(), 1, "{url}");
        let record = found[0];
        assert_eq!(record.field("WARC-Type"), Some("response"));
        assert_eq!(
            record.field("WARC-Payload-Digest"),
            Some(format!("sha256:{sha256}").as_str())
        );
        assert!(record.block.starts_with(b"HTTP/1.1 200 OK\r\n"));
        let headers = http_headers(&record.block);
        assert!(headers.contains(&("content-length".into(), bytes.len().to_string())));
        assert!(headers.contains(&("cache-control".into(), "max-age=604800".into())));
        assert!(record.block.ends_with(bytes), "{url}: the bytes kept");
    }
    // The video's still as a resource, the gone link as its 404 without a body.
    let still = of("http://127.0.0.1:9/media/clip.jpg");
    assert_eq!(still[0].field("WARC-Type"), Some("resource"));
    assert_eq!(still[0].field("Content-Type"), Some("image/jpeg"));
    let gone = of("http://127.0.0.1:9/media/gone.jpg");
    assert_eq!(gone[0].field("WARC-Type"), Some("response"));
    assert!(gone[0].block.starts_with(b"HTTP/1.1 404 Not Found\r\n"));
    assert!(gone[0].block.ends_with(b"\r\n\r\n"), "no body");
    assert!(of("http://127.0.0.1:9/media/down.jpg").is_empty());

    // The index finds each picture by its address; the page list is the post cards only.
    let cdxj = String::from_utf8(files["indexes/index.cdxj"].clone()).unwrap();
    assert!(cdxj.contains("127.0.0.1:9)/media/a.jpg"), "{cdxj}");
    let pages = String::from_utf8(files["pages/pages.jsonl"].clone()).unwrap();
    assert_eq!(
        pages.lines().count(),
        1 + 6,
        "a header and one page per post"
    );

    if let Some(tool) = required("wacz") {
        let run = Command::new(tool)
            .args(["validate", "-f"])
            .arg(&path)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&run.stdout).into_owned()
            + &String::from_utf8_lossy(&run.stderr);
        assert!(run.status.success(), "wacz validate: {said}");
        assert!(
            said.to_lowercase().contains("validation succeeded"),
            "{said}"
        );
    }
    if let Some(tool) = required("warcio") {
        let warc_path = case._dir.path().join("data.warc.gz");
        std::fs::write(&warc_path, warc).unwrap();
        let run = Command::new(tool)
            .args(["check", "-v"])
            .arg(&warc_path)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&run.stdout).into_owned()
            + &String::from_utf8_lossy(&run.stderr);
        assert!(run.status.success(), "warcio check: {said}");
        assert!(!said.contains("failed"), "{said}");
        assert!(
            !said.contains("not checked"),
            "every digest checked: {said}"
        );
        assert_eq!(said.matches("digest pass").count(), all.len(), "{said}");
    }
}
