//! The evidence bundle of an investigation made through the store's API on a real SQLite
//! file: every response's body in the ZIP hashes to its recorded provenance, `sha256sum -c`
//! accepts it, the posts keep their notes, tags and 19-digit ids, and verify finds it intact.
//! A hand-picked selection's cost is that of its requests' ledger rows. Exported the app's
//! way (`seal::export`): signed with the installation's key and recorded in `bundle_exports`.

use crate::support::evidence_seed as seed;

use std::process::Command;

use sightline_api::CancelToken;
use sightline_core::evidence::gather;
use sightline_core::evidence::verify::verify_bundle;
use sightline_core::evidence::{seal, BundleOutcome};
use sightline_core::state::AppState;
use std::collections::BTreeMap;
use std::str::FromStr;

use rust_decimal::Decimal;
use sightline_store::{Billing, Store, Tz};

/// An app on `dir` with an in-memory keychain (its signing key made at first use).
fn app(dir: &std::path::Path) -> AppState {
    std::fs::create_dir_all(dir.join("data")).unwrap();
    AppState::new(
        dir.join("data"),
        sightline_core::environment::Environment::default(),
        std::sync::Arc::new(sightline_core::keychain::MemoryStore::default()),
    )
    .unwrap()
}

fn sha256_hex(bytes: &[u8]) -> String {
    sha2::Digest::finalize(<sha2::Sha256 as sha2::Digest>::new_with_prefix(bytes))
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[tokio::test]
async fn an_investigation_bundle_from_a_real_store_checks_out() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("sightline.db")).await.unwrap();
    let id = seed::seed(&store, 3, 4).await;
    let first = seed::FIRST_ID.to_string();
    store
        .set_investigation_post(
            id,
            &first,
            Some("Ask the mayor"),
            Some(&["lead".to_owned()]),
        )
        .await
        .unwrap();
    store
        .update_investigation(
            id,
            &sightline_store::InvestigationChanges {
                notebook: Some("# Leads\n\nThe river gauge.".into()),
                ..Default::default()
            },
            chrono::Utc::now(),
        )
        .await
        .unwrap();

    let zone = "Europe/Berlin".parse().unwrap();
    // Named, the investigation is bundled whatever was picked besides.
    let bundle = gather::requested(
        &store,
        Some(id),
        vec![1],
        vec![first.clone()],
        zone,
        "0.1.0",
    )
    .await
    .unwrap();
    assert_eq!(bundle.requests.len(), 3);
    assert_eq!(bundle.posts.len(), 12);
    assert_eq!(bundle.cost.total.to_string(), "0.0018");
    let noted = bundle.posts.iter().find(|p| p.post.id == first).unwrap();
    assert_eq!(
        (noted.note.as_str(), noted.tags.clone()),
        ("Ask the mayor", vec!["lead".to_owned()])
    );

    let path = dir.path().join("floods.zip");
    let state = app(dir.path());
    let outcome = seal::export(
        &state,
        &store,
        bundle.clone(),
        &path,
        &mut |_| {},
        &CancelToken::new(),
    )
    .await
    .unwrap();
    assert!(
        matches!(
            outcome,
            BundleOutcome::Written {
                responses: 3,
                posts: 12,
                ..
            }
        ),
        "{outcome:?}"
    );

    let out = dir.path().join("unzipped");
    zip::ZipArchive::new(std::fs::File::open(&path).unwrap())
        .unwrap()
        .extract(&out)
        .unwrap();
    let provenance = std::fs::read_to_string(out.join("provenance.jsonl")).unwrap();
    for line in provenance.lines() {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        let body = std::fs::read(out.join(record["body_file"].as_str().unwrap())).unwrap();
        let hash: String =
            sha2::Digest::finalize(<sha2::Sha256 as sha2::Digest>::new_with_prefix(&body))
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
        assert_eq!(
            record["sha256"], hash,
            "the body is the one recorded at capture"
        );
    }
    let notes = std::fs::read_to_string(out.join("notes.md")).unwrap();
    assert!(
        notes.contains("The river gauge.") && notes.contains("Ask the mayor"),
        "{notes}"
    );
    let report = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(
        report.contains("Floods") && report.contains("$0.0018"),
        "the cost is in the report"
    );

    if Command::new("sha256sum").arg("--version").output().is_ok() {
        let check = Command::new("sha256sum")
            .args(["-c", "--strict", "SHA256SUMS"])
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
    let check = verify_bundle(&path, &Default::default(), &mut |_| {}, &CancelToken::new())
        .unwrap()
        .unwrap();
    assert!(check.intact, "{check:?}");

    // The export is recorded: found by its manifest's hash, with the whole file's hash and
    // the installation's fingerprint.
    let BundleOutcome::Written {
        manifest_sha256,
        signed_by,
        ..
    } = &outcome
    else {
        unreachable!()
    };
    let manifest = std::fs::read(out.join("manifest.json")).unwrap();
    assert_eq!(manifest_sha256, &sha256_hex(&manifest));
    let fingerprint = sightline_core::signing::identity(&state)
        .await
        .unwrap()
        .current
        .fingerprint;
    assert_eq!(signed_by, &fingerprint);
    let record = store
        .bundle_export_by_manifest(manifest_sha256)
        .await
        .unwrap()
        .expect("the export is recorded");
    assert_eq!(record.file_name, "floods.zip");
    assert_eq!(
        record.file_sha256,
        sha256_hex(&std::fs::read(&path).unwrap())
    );
    assert_eq!(record.installation_fingerprint, fingerprint);
    assert_eq!(record.investigation_id, Some(id));
}

#[tokio::test]
async fn a_selection_costs_what_the_ledger_holds_for_its_requests() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("sightline.db")).await.unwrap();
    seed::seed(&store, 3, 2).await;
    let mut ids: Vec<i64> = store
        .ledger(Tz::UTC, None)
        .await
        .unwrap()
        .iter()
        .filter_map(|row| row.history_id)
        .collect();
    ids.sort_unstable();
    let (picked, left_out) = (vec![ids[0], ids[2]], ids[1]);
    // A later charge on a picked request (a billed poll, on the day it arrives) and one on a
    // request left out: only the first belongs to the selection.
    let poll = |cost: &str| Billing {
        cost: Decimal::from_str(cost).ok(),
        cost_text: None,
        usage_count: 1,
        service: "twitter".into(),
        currency: "USD".into(),
    };
    store.add_charge(picked[1], &poll("0.0107")).await.unwrap();
    store.add_charge(left_out, &poll("0.5")).await.unwrap();

    let zone: Tz = "Pacific/Auckland".parse().unwrap();
    let bundle = gather::requested(&store, None, picked.clone(), vec![], zone, "0.1.0")
        .await
        .unwrap();
    assert_eq!(bundle.file_name(), "sightline-evidence-selection");

    let rows: Vec<_> = store
        .ledger(zone, None)
        .await
        .unwrap()
        .into_iter()
        .filter(|row| row.history_id.is_some_and(|id| picked.contains(&id)))
        .collect();
    assert_eq!(rows.len(), 3, "two requests and one poll");
    let total: Decimal = rows.iter().filter_map(|row| row.cost).sum();
    assert_eq!(bundle.cost.total, total);
    assert_eq!(bundle.cost.total.to_string(), "0.0113");
    let mut days: BTreeMap<String, (Decimal, i64)> = BTreeMap::new();
    for row in &rows {
        let day = row.at.with_timezone(&zone).format("%Y-%m-%d").to_string();
        let line = days.entry(day).or_default();
        line.0 += row.cost.unwrap();
        line.1 += 1;
    }
    let by_day: Vec<(String, Decimal, i64)> = bundle
        .cost
        .by_day
        .iter()
        .map(|line| (line.label.clone(), line.cost, line.requests))
        .collect();
    let expected: Vec<(String, Decimal, i64)> = days
        .into_iter()
        .map(|(day, (cost, n))| (day, cost, n))
        .collect();
    assert_eq!(
        by_day, expected,
        "days of the zone, the poll on its own day"
    );
    let operations: Vec<(&str, Decimal, i64)> = bundle
        .cost
        .by_operation
        .iter()
        .map(|line| (line.label.as_str(), line.cost, line.requests))
        .collect();
    assert_eq!(operations, vec![("twitter_search", total, 3)]);
}

/// A post added on its own, from a search made while no investigation was filing, carries
/// into the bundle the capture the app shows for it: its `posts.csv` row names the response
/// that brought it, with its time and hash, the report says when it was captured, and that
/// response's body is in `responses/` (outside the investigation's cost, which stays its own).
#[tokio::test]
async fn a_post_added_by_hand_keeps_its_capture_in_the_bundle() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("sightline.db")).await.unwrap();
    let id = seed::seed(&store, 2, 3).await;
    // The second search, with filing stopped: nothing of it is filed until "Add to…".
    let later = chrono::Utc::now();
    let picked = (seed::FIRST_ID + 100).to_string();
    let record = seed::request(
        9,
        vec![
            seed::post(seed::FIRST_ID + 100, 100),
            seed::post(seed::FIRST_ID + 101, 101),
        ],
        later,
    );
    let sha256 = record.provenance.as_ref().unwrap().sha256.clone();
    let history_id = store.record_request(&record).await.unwrap().history_id();
    store
        .add_to_investigation(
            id,
            &[sightline_store::InvestigationItem::Post {
                post_id: picked.clone(),
            }],
            later,
        )
        .await
        .unwrap();
    let shown = store
        .post_captures(std::slice::from_ref(&picked))
        .await
        .unwrap();
    assert_eq!(
        shown[0].capture.as_ref().map(|c| c.history_id),
        Some(history_id),
        "the app shows this capture"
    );

    let bundle = gather::investigation(&store, id, Tz::UTC, "0.1.0")
        .await
        .unwrap();
    assert_eq!(bundle.posts.len(), 7);
    assert_eq!(
        bundle.cost.total.to_string(),
        "0.0009",
        "the case's own cost"
    );
    let path = dir.path().join("floods.zip");
    let state = app(dir.path());
    let outcome = seal::export(
        &state,
        &store,
        bundle.clone(),
        &path,
        &mut |_| {},
        &CancelToken::new(),
    )
    .await
    .unwrap();
    assert!(
        matches!(outcome, BundleOutcome::Written { responses: 3, .. }),
        "{outcome:?}"
    );
    let out = dir.path().join("unzipped");
    zip::ZipArchive::new(std::fs::File::open(&path).unwrap())
        .unwrap()
        .extract(&out)
        .unwrap();

    let csv = std::fs::read_to_string(out.join("posts.csv")).unwrap();
    let mut reader = csv::Reader::from_reader(csv.trim_start_matches('\u{feff}').as_bytes());
    let header = reader.headers().unwrap().clone();
    let column = |name: &str| header.iter().position(|h| h == name).unwrap();
    let row = reader
        .records()
        .map(Result::unwrap)
        .find(|r| r[column("id")].trim() == picked)
        .unwrap();
    assert_eq!(&row[column("capture_sha256")], sha256);
    assert_eq!(row[column("found_by_history_id")], history_id.to_string());
    assert!(
        row[column("captured_at_utc")].starts_with(&later.format("%Y-%m-%d").to_string()),
        "{row:?}"
    );

    let report = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(!report.contains("first seen"), "every post has its capture");
    assert_eq!(
        report.matches(&sha256).count(),
        2,
        "its query card and its post card"
    );

    let provenance = std::fs::read_to_string(out.join("provenance.jsonl")).unwrap();
    let line: serde_json::Value = provenance
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|l| l["history_id"] == history_id)
        .expect("the response that brought the post is in the bundle");
    let body = std::fs::read(out.join(line["body_file"].as_str().unwrap())).unwrap();
    let hash: String =
        sha2::Digest::finalize(<sha2::Sha256 as sha2::Digest>::new_with_prefix(&body))
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
    assert_eq!(hash, sha256);
    assert!(
        verify_bundle(&path, &Default::default(), &mut |_| {}, &CancelToken::new())
            .unwrap()
            .unwrap()
            .intact
    );
}

/// An export named in the custody log (the bundle carries its own entry, so it is recorded
/// first) that is then cancelled is followed by an entry saying no file was kept; the chain
/// stays unbroken and nothing is left on disk.
#[tokio::test]
async fn a_cancelled_export_says_so_in_the_custody_log() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("sightline.db")).await.unwrap();
    let id = seed::seed(&store, 2, 3).await;
    let bundle = gather::requested(
        &store,
        Some(id),
        vec![],
        vec![],
        "UTC".parse().unwrap(),
        "0.1.0",
    )
    .await
    .unwrap();
    let path = dir.path().join("cancelled.zip");
    let state = app(dir.path());
    let cancel = CancelToken::new();
    cancel.cancel();
    let outcome = seal::export(&state, &store, bundle, &path, &mut |_| {}, &cancel)
        .await
        .unwrap();
    assert!(
        !matches!(outcome, BundleOutcome::Written { .. }),
        "{outcome:?}"
    );
    assert!(!path.exists());

    let log = store.custody_log(id).await.unwrap();
    let last: Vec<_> = log.iter().rev().take(2).map(|e| e.action).collect();
    assert_eq!(
        last,
        [
            sightline_store::custody::CustodyAction::ExportNotFinished,
            sightline_store::custody::CustodyAction::BundleExported
        ]
    );
    assert!(log.last().unwrap().detail.contains("cancelled"));
    assert!(matches!(
        sightline_store::custody::check_chain(&log),
        sightline_store::custody::ChainCheck::Unbroken { .. }
    ));
}
