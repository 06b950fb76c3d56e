//! An imported post in an investigation's evidence bundle: it comes with no capture record (no
//! response of this installation brought it, so `provenance.jsonl` and the manifest's captures
//! hold none for it, and its capture columns are empty) and carries its import's mark in
//! `posts.jsonl`, `posts.csv` and `report.html`: the file's name and SHA-256, the line, "not
//! captured by Sightline". The captured posts beside it keep their capture.

use crate::support::evidence_seed as seed;

use sightline_api::cancel::CancelToken;
use sightline_core::evidence::{gather, seal};
use sightline_core::import;
use sightline_core::state::AppState;
use sightline_store::Store;

const IMPORTED_ID: &str = "1600000000000000077";

/// A `twarc2 flatten` line (the X API v2 tweet, its author inside), as twarc2 writes it.
fn flat_line(id: &str) -> String {
    serde_json::json!({
        "id": id, "text": "Levee breach reported #flood", "created_at": "2022-12-06T10:00:00.000Z",
        "author_id": "31", "conversation_id": id, "lang": "en",
        "edit_history_tweet_ids": [id],
        "public_metrics": {"retweet_count": 2, "reply_count": 1, "like_count": 5,
                           "quote_count": 0, "bookmark_count": 1, "impression_count": 100},
        "author": {"id": "31", "username": "riverwatch", "name": "River Watch",
                   "verified": false, "created_at": "2015-01-01T00:00:00.000Z"},
        "__twarc": {"url": "https://api.twitter.com/2/tweets/search/recent?query=flood",
                    "version": "2.13.0", "retrieved_at": "2022-12-06T10:05:00+00:00"}
    })
    .to_string()
}

#[tokio::test]
async fn an_imported_post_in_a_bundle_has_no_capture_and_carries_its_import_mark() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("sightline.db")).await.unwrap();
    let id = seed::seed(&store, 1, 2).await;

    let file = dir.path().join("floods-flat.jsonl");
    std::fs::write(&file, format!("{}\nnot json\n", flat_line(IMPORTED_ID))).unwrap();
    let done = import::start(&store, &file, Some(id), &mut |_| {}, &CancelToken::new())
        .await
        .unwrap()
        .expect("not cancelled");
    assert_eq!((done.imported, done.unreadable), (1, 1));
    let sha256 = done.file_sha256.clone();

    let bundle = gather::investigation(&store, id, "UTC".parse().unwrap(), "0.1.0")
        .await
        .unwrap();
    assert_eq!(bundle.posts.len(), 3);
    let imported = bundle
        .posts
        .iter()
        .find(|p| p.post.id == IMPORTED_ID)
        .unwrap();
    assert_eq!(
        imported.found_by, None,
        "no response of this installation brought it"
    );
    let mark = imported.imported.as_ref().expect("the import's mark");
    assert_eq!(
        (
            mark.file_name.as_str(),
            mark.file_sha256.as_str(),
            mark.line,
            mark.also_captured
        ),
        ("floods-flat.jsonl", sha256.as_str(), 1, false)
    );
    for captured in bundle.posts.iter().filter(|p| p.post.id != IMPORTED_ID) {
        assert!(captured.found_by.is_some() && captured.imported.is_none());
    }
    // Only the seeded search's response: the import added none.
    assert_eq!(bundle.requests.len(), 1);

    std::fs::create_dir_all(dir.path().join("data")).unwrap();
    let state = AppState::new(
        dir.path().join("data"),
        sightline_core::environment::Environment::default(),
        std::sync::Arc::new(sightline_core::keychain::MemoryStore::default()),
    )
    .unwrap();
    let zip_path = dir.path().join("case.zip");
    seal::export(
        &state,
        &store,
        bundle,
        &zip_path,
        &mut |_| {},
        &CancelToken::new(),
    )
    .await
    .unwrap();
    let out = dir.path().join("unzipped");
    zip::ZipArchive::new(std::fs::File::open(&zip_path).unwrap())
        .unwrap()
        .extract(&out)
        .unwrap();
    let read = |name: &str| std::fs::read_to_string(out.join(name)).unwrap();

    // posts.jsonl: the mark, and no response that brought it.
    let lines: Vec<serde_json::Value> = read("posts.jsonl")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let line = lines.iter().find(|l| l["id"] == IMPORTED_ID).unwrap();
    assert_eq!(line["found_by_history_id"], serde_json::Value::Null);
    assert_eq!(line["imported_from"]["file_name"], "floods-flat.jsonl");
    assert_eq!(line["imported_from"]["file_sha256"], sha256.as_str());
    assert_eq!(line["imported_from"]["line"], 1);
    assert_eq!(
        line["imported_from"]["note"],
        "imported from this file, not captured by Sightline"
    );
    for other in lines.iter().filter(|l| l["id"] != IMPORTED_ID) {
        assert_eq!(other["imported_from"], serde_json::Value::Null);
        assert!(other["found_by_history_id"].is_i64());
    }

    // provenance.jsonl and the manifest: the one captured response, nothing for the import.
    assert_eq!(read("provenance.jsonl").lines().count(), 1);
    let manifest: serde_json::Value = serde_json::from_str(&read("manifest.json")).unwrap();
    assert_eq!(manifest["captures"].as_array().unwrap().len(), 1);
    assert!(!read("provenance.jsonl").contains(IMPORTED_ID));

    // posts.csv: no capture columns, the import's three filled.
    let csv_text = read("posts.csv");
    let mut rows = csv::Reader::from_reader(csv_text.trim_start_matches('\u{feff}').as_bytes());
    let header: Vec<String> = rows.headers().unwrap().iter().map(str::to_owned).collect();
    let column = |name: &str| header.iter().position(|h| h == name).unwrap();
    let row = rows
        .records()
        .map(Result::unwrap)
        .find(|r| r[column("id")].trim_start_matches('\t') == IMPORTED_ID)
        .unwrap();
    assert_eq!(&row[column("captured_at_utc")], "");
    assert_eq!(&row[column("capture_sha256")], "");
    assert_eq!(&row[column("found_by_history_id")], "");
    assert_eq!(&row[column("imported_from_file")], "floods-flat.jsonl");
    assert_eq!(&row[column("imported_file_sha256")], sha256.as_str());
    assert_eq!(&row[column("imported_from_line")], "1");

    // report.html: the mark in words, and the captured posts' fields for the others only.
    let report = read("report.html");
    assert!(report.contains(&format!(
        "Imported from floods-flat.jsonl (sha256 <span class=\"hash\">{sha256}</span>), line 1"
    )));
    assert!(report.contains("not captured by Sightline"));
    assert_eq!(
        report.matches("<dt>Captured (this computer)</dt>").count(),
        2
    );
}
