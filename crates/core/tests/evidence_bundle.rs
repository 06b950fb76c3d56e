//! The evidence bundle of an investigation made through the store's API on a real SQLite
//! file: every response's body in the ZIP hashes to its recorded provenance, `sha256sum -c`
//! accepts it, the posts keep their notes, tags and 19-digit ids, and verify finds it intact.

#[path = "support/evidence_seed.rs"]
mod seed;

use std::process::Command;

use sightline_api::CancelToken;
use sightline_core::evidence::gather::{self, StoredBodies};
use sightline_core::evidence::verify::verify_bundle;
use sightline_core::evidence::{write_bundle, BundleOutcome};
use sightline_store::Store;

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
            &sightline_store::investigations::InvestigationChanges {
                notebook: Some("# Leads\n\nThe river gauge.".into()),
                ..Default::default()
            },
            chrono::Utc::now(),
        )
        .await
        .unwrap();

    let zone = "Europe/Berlin".parse().unwrap();
    let bundle = gather::investigation(&store, id, zone, "0.1.0")
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
    let outcome = write_bundle(
        &bundle,
        &StoredBodies(&store),
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
    let check = verify_bundle(&path).unwrap();
    assert!(check.intact, "{check:?}");
}
