use std::collections::{BTreeMap, HashMap};
use std::io::{Read, Write};
use std::path::Path;
use std::process::Command;
use std::str::FromStr;

use std::fs::File;

use chrono::TimeZone;
use rust_decimal::Decimal;
use sha2::{Digest, Sha256};
use sightline_api::CancelToken;
use sightline_store::{Billing, RequestStatus};
use zip::write::SimpleFileOptions;
use zip::ZipWriter;

use std::sync::Arc;

use super::seal::{self, Seal};
use super::verify::{verify_bundle, FileOutcome};
use super::*;
use crate::environment::Environment;
use crate::keychain::MemoryStore;
use crate::read_back::{have, python_rows, spreadsheet_rows};
use crate::signing::Signer;
use crate::state::AppState;

/// A 19-digit id: past the 15 digits a spreadsheet keeps of a number.
pub(super) const LONG_ID: &str = "1864029172638449665";

/// Response bodies by history id, and media files by SHA-256.
pub(super) struct Bodies(
    pub HashMap<i64, Vec<u8>>,
    pub HashMap<String, std::path::PathBuf>,
);

impl ResponseBodies for Bodies {
    async fn body(&self, history_id: i64) -> Result<Option<Vec<u8>>, CommandError> {
        Ok(self.0.get(&history_id).cloned())
    }

    async fn headers(
        &self,
        _history_id: i64,
    ) -> Result<Option<Vec<(String, String)>>, CommandError> {
        Ok(None)
    }

    fn media_path(&self, sha256: &str) -> Option<std::path::PathBuf> {
        self.1.get(sha256).cloned()
    }
}

fn entry(id: i64, operation: &str, params: &str, cost: &str) -> HistoryEntry {
    HistoryEntry {
        id,
        request_id: format!("req-{id}"),
        started_at: Utc.with_ymd_and_hms(2026, 11, 23, 17, 4, 12).unwrap(),
        operation: operation.into(),
        params_json: params.into(),
        key_label: None,
        mode: "demo".into(),
        status: RequestStatus::Ok,
        error_class: None,
        error_message: None,
        duration_ms: 300,
        result_count: 2,
        billing: Some(Billing {
            cost: Decimal::from_str(cost).ok(),
            cost_text: None,
            usage_count: 2,
            service: "x".into(),
            currency: "USD".into(),
        }),
        cursor: None,
        next_cursor: None,
        parent_id: None,
        pinned: false,
        has_result: true,
        origin: None,
        received_from: None,
    }
}

pub(super) fn stored_post(id: &str, text: &str) -> StoredPost {
    let at = Utc.with_ymd_and_hms(2026, 11, 23, 16, 0, 0).unwrap();
    StoredPost {
        id: id.into(),
        conversation_id: Some(id.into()),
        author_id: Some("44196397".into()),
        author_username: "hydro".into(),
        author_name: "Hydro <Desk> & \"Co\"".into(),
        author_verified: true,
        text: text.into(),
        lang: Some("en".into()),
        created_at: at,
        like_count: 3,
        retweet_count: 2,
        reply_count: 1,
        quote_count: 0,
        view_count: Some(120),
        bookmark_count: 0,
        hashtags: vec!["flood".into()],
        url: Some(format!("https://x.com/hydro/status/{id}")),
        raw_json: format!(r#"{{"id":"{id}","text":{}}}"#, serde_json::json!(text)),
        first_seen: at,
        last_seen: at,
    }
}

fn capture(body: &[u8], at_ms: i64) -> CaptureRecord {
    CaptureRecord {
        captured_at: DateTime::from_timestamp_millis(at_ms).unwrap(),
        service_address: "http://127.0.0.1:8787".into(),
        response_url: "http://127.0.0.1:8787/twitter?query=flood".into(),
        http_status: 200,
        from_cache: false,
        billing_headers: BTreeMap::from([("x-billing-cost".into(), "0.0003".into())]),
        app_version: "0.1.0".into(),
        sha256: hex(&Sha256::digest(body)),
        streamed: false,
    }
}

/// Two requests (one captured, one from before provenance), three posts with hostile text.
pub(super) fn sample() -> (Bundle, Bodies) {
    let search_body = br#"[{"id":"1864029172638449665","text":"Rivers rise"}]"#.to_vec();
    let requests = vec![
        BundleRequest {
            entry: entry(7, "twitter_search", r#"{"query":"flood"}"#, "0.0003"),
            capture: Some(capture(&search_body, 1_795_021_452_345)),
            only_brought_posts: false,
            stamp: StampState::NotAsked,
        },
        BundleRequest {
            entry: entry(8, "twitter_post", r#"{"id":"5"}"#, "0.00015"),
            capture: None,
            only_brought_posts: false,
            stamp: StampState::NotAsked,
        },
    ];
    let posts = vec![
        BundlePost {
            post: stored_post(LONG_ID, "Rivers rise,\r\nagain \"today\"\nthird line"),
            note: "Check with the <b>mayor</b>".into(),
            tags: vec!["flood".into(), "verified".into()],
            found_by: Some(7),
            imported: None,
        },
        BundlePost {
            post: stored_post(
                "5",
                "=HYPERLINK(\"http://evil\",\"x\") <script>alert(1)</script>",
            ),
            note: String::new(),
            tags: vec![],
            found_by: Some(8),
            imported: None,
        },
        BundlePost {
            post: stored_post("6", "@mention +1 -2 ünïcödé ✓"),
            note: String::new(),
            tags: vec![],
            found_by: None,
            imported: None,
        },
    ];
    let bundle = Bundle {
        investigation_id: Some(3),
        name: "Floods <2026>".into(),
        description: "Who said what & when".into(),
        notebook: "# Leads\n\n- call the <mayor>".into(),
        custody: None,
        requests,
        posts,
        media: Vec::new(),
        cost: BundleCost {
            total: Decimal::from_str("0.00045").unwrap(),
            currency: "USD".into(),
            by_day: vec![CostLine {
                label: "2026-11-23".into(),
                cost: Decimal::from_str("0.00045").unwrap(),
                requests: 2,
            }],
            by_operation: vec![CostLine {
                label: "twitter_search".into(),
                cost: Decimal::from_str("0.0003").unwrap(),
                requests: 1,
            }],
        },
        zone: "Europe/Berlin".parse().unwrap(),
        app_version: "0.1.0".into(),
        created_at: Utc.with_ymd_and_hms(2026, 11, 24, 9, 0, 0).unwrap(),
        package: None,
    };
    (
        bundle,
        Bodies(HashMap::from([(7, search_body)]), HashMap::new()),
    )
}

/// A signer of its own (a new key in an in-memory keychain), as the app's first use makes one.
pub(super) async fn signer() -> Signer {
    let dir = tempfile::tempdir().unwrap();
    let state = AppState::new(
        dir.path().to_owned(),
        Environment::default(),
        Arc::new(MemoryStore::default()),
    )
    .unwrap();
    crate::signing::signer(&state).await.unwrap()
}

/// The seal of a collector named Jane Doe, with no timestamp authority.
pub(super) fn seal(signer: &Signer) -> Seal<'_> {
    Seal {
        signer,
        collector: Some("Jane Doe".into()),
        tool: ("Sightline", "0.1.0".into()),
        os: seal::os_in_words(),
        authority: None,
        authority_ca_pem: None,
        stamper: None,
    }
}

pub(super) async fn write(bundle: &Bundle, bodies: &Bodies, path: &Path) -> BundleOutcome {
    let signer = signer().await;
    write_sealed(bundle, bodies, &seal(&signer), path).await
}

/// Writes `bundle` with `seal`, checking that progress ends at its total.
pub(super) async fn write_sealed(
    bundle: &Bundle,
    bodies: &Bodies,
    seal: &Seal<'_>,
    path: &Path,
) -> BundleOutcome {
    let mut steps = Vec::new();
    let outcome = write_bundle(
        bundle,
        bodies,
        seal,
        path,
        &mut |p| steps.push(p),
        &CancelToken::new(),
    )
    .await
    .unwrap();
    let last = steps.last().unwrap();
    assert_eq!(last.done, last.total, "progress ends at its total");
    assert!(steps.windows(2).all(|w| w[0].done <= w[1].done));
    outcome
}

fn unzip(path: &Path, into: &Path) {
    let mut zip = zip::ZipArchive::new(File::open(path).unwrap()).unwrap();
    zip.extract(into).unwrap();
}

#[tokio::test]
async fn a_bundle_holds_every_file_and_sha256sum_checks_it() {
    let dir = tempfile::tempdir().unwrap();
    let (bundle, bodies) = sample();
    let path = dir.path().join("floods.zip");
    let outcome = write(&bundle, &bodies, &path).await;
    let BundleOutcome::Written {
        files,
        posts,
        responses,
        ..
    } = outcome
    else {
        panic!("not written: {outcome:?}")
    };
    assert_eq!((files, posts, responses), (12, 3, 1));
    assert!(!write::partial_path(&path).exists());

    let out = dir.path().join("unzipped");
    unzip(&path, &out);
    let body = std::fs::read(out.join("responses/0001-twitter-search-req-7.json")).unwrap();
    assert_eq!(body, bodies.0[&7], "the body exactly as received");
    let mut zip = zip::ZipArchive::new(File::open(&path).unwrap()).unwrap();
    let when = zip.by_name(REPORT_HTML).unwrap().last_modified().unwrap();
    // Made at 09:00 UTC: 10:00 in Berlin.
    assert_eq!(
        (when.year(), when.month(), when.day(), when.hour()),
        (2026, 11, 24, 10)
    );

    let sums = std::fs::read_to_string(out.join(SHA256SUMS)).unwrap();
    assert_eq!(
        sums.lines().count(),
        11,
        "every file but SHA256SUMS: {sums}"
    );
    if have("sha256sum") {
        let check = Command::new("sha256sum")
            .args(["-c", "--strict", SHA256SUMS])
            .current_dir(&out)
            .output()
            .unwrap();
        assert!(
            check.status.success(),
            "{}",
            String::from_utf8_lossy(&check.stdout)
        );
    } else {
        println!("skipped sha256sum -c: sha256sum is not installed");
    }

    let provenance = std::fs::read_to_string(out.join(PROVENANCE_JSONL)).unwrap();
    let lines: Vec<serde_json::Value> = provenance
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["captured_at_ms"], 1_795_021_452_345i64);
    assert_eq!(lines[0]["sha256"], hex(&Sha256::digest(&body)));
    assert_eq!(
        lines[0]["body_file"],
        "responses/0001-twitter-search-req-7.json"
    );
    assert_eq!(lines[1]["sha256"], serde_json::Value::Null);
    assert_eq!(lines[1]["note"], "captured before provenance was kept");

    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join(MANIFEST_JSON)).unwrap()).unwrap();
    assert_eq!(manifest["counts"]["posts"], 3);
    assert_eq!(manifest["cost"]["total"], "0.00045");
    // All but itself, its signature and SHA256SUMS.
    assert_eq!(manifest["files"].as_array().unwrap().len(), 9);
    // No media: media.jsonl is there, empty, and the manifest counts none.
    assert_eq!(std::fs::read(out.join(media::MEDIA_JSONL)).unwrap(), b"");
    assert_eq!(manifest["media"]["items"], 0);

    let notes = std::fs::read_to_string(out.join(NOTES_MD)).unwrap();
    // The investigator's own Markdown as written, but its raw HTML shown as text.
    assert!(notes.contains("- call the &lt;mayor>"), "{notes}");
    assert!(notes.contains("Tags: flood, verified"), "{notes}");

    let jsonl = std::fs::read_to_string(out.join(POSTS_JSONL)).unwrap();
    let first: serde_json::Value = serde_json::from_str(jsonl.lines().next().unwrap()).unwrap();
    assert_eq!(first["id"], LONG_ID);
    assert_eq!(first["raw"]["id"], LONG_ID);
    assert_eq!(first["tags"], serde_json::json!(["flood", "verified"]));
}

#[tokio::test]
async fn the_report_is_one_offline_page_without_script() {
    let dir = tempfile::tempdir().unwrap();
    let (bundle, bodies) = sample();
    let path = dir.path().join("b.zip");
    write(&bundle, &bodies, &path).await;
    let mut zip = zip::ZipArchive::new(File::open(&path).unwrap()).unwrap();
    let mut html = String::new();
    zip.by_name(REPORT_HTML)
        .unwrap()
        .read_to_string(&mut html)
        .unwrap();
    let lower = html.to_lowercase();
    for forbidden in [
        "<script", "src=", "href=", "url(", "@import", "<link", "<img", "<iframe",
    ] {
        assert!(!lower.contains(forbidden), "report holds {forbidden}");
    }
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(html.contains("Floods &lt;2026&gt;"));
    assert!(html.contains("Hydro &lt;Desk&gt; &amp; &quot;Co&quot;"));
    assert!(html.contains("prefers-color-scheme: dark"));
    assert!(html.contains("@media print"));
    // Capture time in UTC and in the display zone, the cost exact.
    assert!(html.contains("2026-11-23 16:00:00 UTC"), "post time in UTC");
    assert!(html.contains("2026-11-23 17:00:00 CET (Europe/Berlin)"));
    assert!(html.contains("$0.00045"));
    // Counts agree with their number: one reply, never "1 replies".
    assert!(
        html.contains("1 reply · 2 reposts · 3 likes · 0 quotes · 120 views"),
        "counts in words"
    );
    assert!(html.contains("By day (Europe/Berlin)</caption>"));
    assert!(html.contains("<th scope=\"col\">Day</th>"));
    assert!(html.contains("<th scope=\"col\">Operation</th>"));
    // Operations in words, in the cost table and on each query's card.
    assert!(html.contains("<tr><td>X search</td>"), "cost line in words");
    assert!(
        html.contains("<strong>X search</strong>"),
        "query card in words"
    );
    assert!(
        !html.contains("twitter_search</"),
        "no stored name shown as such"
    );
    assert!(html.contains("captured before provenance was kept"));
    assert!(html.contains(&bundle.requests[0].capture.as_ref().unwrap().sha256));
}

/// The CSV read back as a spreadsheet program and as Python's csv module read it.
#[tokio::test]
async fn posts_csv_keeps_every_digit_and_line_break_and_defuses_formulas() {
    let dir = tempfile::tempdir().unwrap();
    let (bundle, bodies) = sample();
    let path = dir.path().join("b.zip");
    write(&bundle, &bodies, &path).await;
    let out = dir.path().join("u");
    unzip(&path, &out);
    let csv_path = out.join(POSTS_CSV);
    let bytes = std::fs::read(&csv_path).unwrap();
    assert!(bytes.starts_with("\u{feff}".as_bytes()), "UTF-8 with BOM");
    assert!(
        String::from_utf8_lossy(&bytes).contains("\r\n"),
        "CRLF rows"
    );

    let text = "Rivers rise,\r\nagain \"today\"\nthird line";
    if let Some(rows) = python_rows(&csv_path) {
        // Every cell as a program reads it, stripped of the tab guard.
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[0]["id"].trim(), LONG_ID);
        assert_eq!(rows[0]["conversation_id"].trim(), LONG_ID);
        assert_eq!(rows[0]["author_id"].trim(), "44196397");
        assert_eq!(rows[0]["text"], text, "line breaks kept inside the cell");
        assert_eq!(rows[0]["tags"], "flood, verified");
        assert_eq!(rows[0]["created_at_utc"], "2026-11-23T16:00:00.000Z");
        assert_eq!(
            rows[0]["created_at_local"],
            "2026-11-23 17:00:00 CET (Europe/Berlin)"
        );
        assert!(
            rows[1]["text"].starts_with("'=HYPERLINK"),
            "formula defused"
        );
        assert!(rows[2]["text"].starts_with("'@mention"));
        assert!(rows[2]["text"].ends_with("ünïcödé ✓"));
    }

    if let Some(rows) = spreadsheet_rows(&csv_path, dir.path()) {
        assert_eq!(
            rows[0]["id"].trim(),
            LONG_ID,
            "LibreOffice kept every digit"
        );
        assert_eq!(rows[0]["conversation_id"].trim(), LONG_ID);
        assert_eq!(
            rows[0]["text"].replace("\r\n", "\n"),
            text.replace("\r\n", "\n")
        );
        assert!(rows[1]["text"].starts_with("'=HYPERLINK"));
    }
}

/// Rewrites the ZIP at `path`, changing entries through `edit` (None drops one) and adding
/// `extra`.
fn rewrite(path: &Path, edit: impl Fn(&str, Vec<u8>) -> Option<Vec<u8>>, extra: &[(&str, &[u8])]) {
    let mut source = zip::ZipArchive::new(File::open(path).unwrap()).unwrap();
    let target = path.with_extension("new");
    let mut zip = ZipWriter::new(File::create(&target).unwrap());
    for i in 0..source.len() {
        let mut entry = source.by_index(i).unwrap();
        let name = entry.name().to_owned();
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes).unwrap();
        if let Some(bytes) = edit(&name, bytes) {
            zip.start_file(name, SimpleFileOptions::default()).unwrap();
            zip.write_all(&bytes).unwrap();
        }
    }
    for (name, bytes) in extra {
        zip.start_file(*name, SimpleFileOptions::default()).unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap();
    std::fs::rename(target, path).unwrap();
}

#[tokio::test]
async fn verify_finds_a_tampered_a_removed_and_an_added_file() {
    let dir = tempfile::tempdir().unwrap();
    let (bundle, bodies) = sample();
    let path = dir.path().join("b.zip");
    write(&bundle, &bodies, &path).await;

    let check = verify_bundle(&path, &Default::default(), &mut |_| {}, &CancelToken::new())
        .unwrap()
        .unwrap();
    assert!(check.intact, "{check:?}");
    assert_eq!(check.files.len(), 11);
    assert!(check
        .files
        .iter()
        .all(|f| f.outcome == FileOutcome::Matches));

    rewrite(
        &path,
        |name, bytes| match name {
            POSTS_CSV => Some(
                String::from_utf8(bytes)
                    .unwrap()
                    .replace("Rivers", "Lakes")
                    .into(),
            ),
            NOTES_MD => None,
            _ => Some(bytes),
        },
        &[("responses/9999-planted.json", b"{}")],
    );
    let check = verify_bundle(&path, &Default::default(), &mut |_| {}, &CancelToken::new())
        .unwrap()
        .unwrap();
    assert!(!check.intact);
    let outcome = |name: &str| {
        check
            .files
            .iter()
            .find(|f| f.path == name)
            .map(|f| f.outcome)
            .unwrap()
    };
    assert_eq!(outcome(POSTS_CSV), FileOutcome::Changed);
    assert_eq!(outcome(NOTES_MD), FileOutcome::Missing);
    assert_eq!(outcome("responses/9999-planted.json"), FileOutcome::Extra);
    assert_eq!(outcome(REPORT_HTML), FileOutcome::Matches);
    assert!(check.lists_agree, "only files changed, not the lists");
}

#[tokio::test]
async fn verify_sees_sums_rewritten_to_hide_a_change() {
    let dir = tempfile::tempdir().unwrap();
    let (bundle, bodies) = sample();
    let path = dir.path().join("b.zip");
    write(&bundle, &bodies, &path).await;
    // A forger edits notes.md and writes its new hash into SHA256SUMS, not the manifest.
    let forged = b"# nothing to see".to_vec();
    let forged_hash = hex(&Sha256::digest(&forged));
    rewrite(
        &path,
        |name, bytes| match name {
            NOTES_MD => Some(forged.clone()),
            SHA256SUMS => {
                let text = String::from_utf8(bytes).unwrap();
                let lines: Vec<String> = text
                    .lines()
                    .map(|l| match l.ends_with(NOTES_MD) {
                        true => format!("{forged_hash}  {NOTES_MD}"),
                        false => l.to_owned(),
                    })
                    .collect();
                Some((lines.join("\n") + "\n").into_bytes())
            }
            _ => Some(bytes),
        },
        &[],
    );
    let check = verify_bundle(&path, &Default::default(), &mut |_| {}, &CancelToken::new())
        .unwrap()
        .unwrap();
    assert!(!check.lists_agree);
    assert!(!check.intact);
    assert!(check.disagreements[0].contains(NOTES_MD), "{check:?}");
}

#[tokio::test]
async fn a_file_that_is_not_a_bundle_is_said_so() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.txt");
    std::fs::write(&path, "hello").unwrap();
    let error =
        verify_bundle(&path, &Default::default(), &mut |_| {}, &CancelToken::new()).unwrap_err();
    assert!(error.message().contains("not a ZIP"), "{error:?}");
    let missing = verify_bundle(
        &dir.path().join("gone.zip"),
        &Default::default(),
        &mut |_| {},
        &CancelToken::new(),
    )
    .unwrap_err();
    assert!(missing.message().contains("could not be opened"));
}

#[tokio::test]
async fn a_cancelled_export_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let (bundle, bodies) = sample();
    let path = dir.path().join("b.zip");
    let cancel = CancelToken::new();
    let signer = signer().await;
    let outcome = write_bundle(
        &bundle,
        &bodies,
        &seal(&signer),
        &path,
        &mut |p| {
            if p.done == 1 {
                cancel.cancel();
            }
        },
        &cancel,
    )
    .await
    .unwrap();
    assert_eq!(outcome, BundleOutcome::Cancelled);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[tokio::test]
async fn a_cancel_while_posts_are_written_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let (bundle, bodies) = sample();
    let path = dir.path().join("b.zip");
    let cancel = CancelToken::new();
    let signer = signer().await;
    let outcome = write_bundle(
        &bundle,
        &bodies,
        &seal(&signer),
        &path,
        &mut |p| {
            if p.file == POSTS_JSONL {
                cancel.cancel();
            }
        },
        &cancel,
    )
    .await
    .unwrap();
    assert_eq!(outcome, BundleOutcome::Cancelled);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn response_files_are_named_by_request_and_kind() {
    let (mut bundle, _) = sample();
    assert_eq!(
        response_file_name(6, &bundle.requests[0]),
        "responses/0007-twitter-search-req-7.json"
    );
    let stream = &mut bundle.requests[0];
    stream.entry.operation = "ai_search".into();
    stream.capture.as_mut().unwrap().streamed = true;
    assert_eq!(
        response_file_name(0, stream),
        "responses/0001-ai-search-req-7.sse"
    );
    stream.entry.operation = "web_crawl".into();
    stream.capture.as_mut().unwrap().streamed = false;
    assert_eq!(
        response_file_name(0, stream),
        "responses/0001-web-crawl-req-7.txt"
    );
    // A page crawled as HTML is kept as received, named as text: a browser loads nothing from it.
    stream.entry.params_json = r#"{"url":"https://a.example","format":"html"}"#.into();
    assert_eq!(
        response_file_name(0, stream),
        "responses/0001-web-crawl-req-7.html.txt"
    );
}

mod sealed;
