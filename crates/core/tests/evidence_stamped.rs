//! A stamped investigation exported as the app does it, against a local timestamp authority
//! (openssl's own, on loopback): every capture's token in the bundle, and the manifest's,
//! verifies with the exact `openssl ts -verify` command `VERIFY.txt` gives (the authority's CA
//! put in for `<ca.pem>`); `sha256sum -c` passes; the custody log in the bundle ends with this
//! export and its chain is unbroken, its head the one the signed manifest states. With the
//! authority down the export still completes, and says the manifest is not stamped.

use crate::support::evidence_seed as seed;
use crate::support::tsa::LocalTsa;

use std::path::Path;
use std::process::Command;
use std::sync::Arc;

use sha2::{Digest, Sha256};
use sightline_api::CancelToken;
use sightline_core::environment::Environment;
use sightline_core::evidence::{gather, seal, BundleOutcome, ManifestStamp};
use sightline_core::keychain::MemoryStore;
use sightline_core::settings::AppSettings;
use sightline_core::state::AppState;
use sightline_core::timestamps;
use sightline_store::custody::{check_chain, from_jsonl, CustodyAction};
use sightline_store::{NewStampToken, Store};

fn have(tool: &str) -> bool {
    Command::new(tool).arg("--version").output().is_ok()
}

/// Unzips with the system's `unzip`, as a reader would (falls back to the zip crate).
fn unzip(path: &Path, into: &Path) {
    zip::ZipArchive::new(std::fs::File::open(path).unwrap())
        .unwrap()
        .extract(into)
        .unwrap();
}

async fn app(dir: &Path, tsa_url: &str) -> AppState {
    let data = dir.join("data");
    std::fs::create_dir_all(&data).unwrap();
    let state = AppState::new(
        data,
        Environment::default(),
        Arc::new(MemoryStore::default()),
    )
    .unwrap();
    state
        .save_settings(AppSettings {
            collected_by: Some("Jane Doe".into()),
            tsa_url: Some(tsa_url.to_owned()),
            ..state.settings()
        })
        .await
        .unwrap();
    state
}

/// Stamps every capture of investigation `id` at the authority, through the store's queue.
async fn stamp_all(store: &Store, id: i64, url: &str) -> usize {
    store
        .stamp_investigation(id, url, chrono::Utc::now())
        .await
        .unwrap();
    let client = timestamps::client();
    let mut stamped = 0;
    for capture in store
        .capture_stamps(&(1..=100).collect::<Vec<_>>())
        .await
        .unwrap()
    {
        let record = match store.provenance(capture.history_id).await.unwrap() {
            sightline_store::Provenance::Captured { record } => record,
            _ => continue,
        };
        let digest: [u8; 32] = (0..32)
            .map(|i| u8::from_str_radix(&record.sha256[2 * i..2 * i + 2], 16).unwrap())
            .collect::<Vec<_>>()
            .try_into()
            .unwrap();
        let stamp = timestamps::ask(&client, url, &digest).await.unwrap();
        store
            .stamp_done(
                capture.history_id,
                url,
                &NewStampToken {
                    reply_der: stamp.reply_der,
                    stamped_at: stamp.stamped_at,
                    authority: stamp.authority,
                    certificates_pem: stamp.certificates_pem,
                },
            )
            .await
            .unwrap();
        stamped += 1;
    }
    stamped
}

#[tokio::test]
async fn every_token_in_a_stamped_bundle_verifies_with_the_command_verify_txt_gives() {
    if !have("openssl") || !have("sha256sum") {
        println!("skipped: openssl or sha256sum is not installed");
        return;
    }
    let local = LocalTsa::start().await;
    let url = local.tsa.url();
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path().join("sightline.db")).await.unwrap();
    let id = seed::seed(&store, 4, 3).await;
    assert_eq!(stamp_all(&store, id, &url).await, 4);
    let state = app(dir.path(), &url).await;
    // The app tells each store it opens who collects (its custody entries name them).
    store.set_collector(Some("Jane Doe"));

    let bundle = gather::investigation(&store, id, sightline_store::Tz::UTC, "0.1.0")
        .await
        .unwrap();
    let path = dir.path().join("floods.zip");
    let outcome = seal::export(
        &state,
        &store,
        bundle,
        &path,
        &mut |_| {},
        &CancelToken::new(),
    )
    .await
    .unwrap();
    let BundleOutcome::Written {
        manifest_stamp,
        manifest_sha256,
        ..
    } = outcome
    else {
        panic!("not written: {outcome:?}")
    };
    assert!(
        matches!(&manifest_stamp, ManifestStamp::Stamped { authority, .. } if authority.contains("Sightline Test TSA")),
        "{manifest_stamp:?}"
    );

    let out = dir.path().join("unzipped");
    unzip(&path, &out);
    let sums = Command::new("sha256sum")
        .args(["-c", "--strict", "SHA256SUMS"])
        .current_dir(&out)
        .output()
        .unwrap();
    assert!(sums.status.success(), "{sums:?}");
    let manifest_bytes = std::fs::read(out.join("manifest.json")).unwrap();
    let hex: String = Sha256::digest(&manifest_bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(hex, manifest_sha256);

    // Every token command VERIFY.txt lists, and the manifest's, run as written with the
    // authority's CA for <ca.pem>.
    let verify = std::fs::read_to_string(out.join("VERIFY.txt")).unwrap();
    let ca = local.tsa.ca_pem_path();
    let commands: Vec<String> = verify
        .lines()
        .map(str::trim)
        .filter(|line| line.starts_with("openssl ts -verify"))
        .map(|line| line.replace("<ca.pem>", &ca.display().to_string()))
        .collect();
    assert_eq!(
        commands.len(),
        5,
        "four captures and the manifest:\n{verify}"
    );
    assert!(verify.contains("(4 of 4 captures stamped)"), "{verify}");
    for command in &commands {
        let run = Command::new("sh")
            .args(["-c", command])
            .current_dir(&out)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&run.stdout);
        assert!(
            run.status.success() && said.contains("Verification: OK"),
            "{command}: {said} {}",
            String::from_utf8_lossy(&run.stderr)
        );
    }
    // A token checked against the wrong hash is refused by the same command.
    let first = commands.iter().find(|c| c.contains(" -digest ")).unwrap();
    let digest = first
        .split(" -digest ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    let wrong = first.replace(digest, &"0".repeat(64));
    let run = Command::new("sh")
        .args(["-c", &wrong])
        .current_dir(&out)
        .output()
        .unwrap();
    assert!(!run.status.success(), "{wrong}");

    // The custody log ends with this export, unbroken, its head the manifest's.
    let manifest: serde_json::Value = serde_json::from_slice(&manifest_bytes).unwrap();
    let log = from_jsonl(&std::fs::read_to_string(out.join("custody.jsonl")).unwrap()).unwrap();
    assert!(check_chain(&log).is_unbroken());
    let last = log.last().unwrap();
    assert_eq!(last.action, CustodyAction::BundleExported);
    assert_eq!(last.ids, vec!["file:floods.zip".to_owned()]);
    assert_eq!(last.collector, "Jane Doe");
    assert_eq!(manifest["custody"]["head_hash"], last.hash.as_str());
    assert_eq!(manifest["custody"]["entries"], log.len());
    assert_eq!(manifest["timestamp_authority"], url.as_str());
    let captures = manifest["captures"].as_array().unwrap();
    assert!(captures.iter().all(|c| c["stamp"]["state"] == "stamped"
        && out.join(c["stamp"]["file"].as_str().unwrap()).exists()));

    // The authority down: the export completes, and says the manifest is not stamped.
    local.tsa.set_down(true);
    let bundle = gather::investigation(&store, id, sightline_store::Tz::UTC, "0.1.0")
        .await
        .unwrap();
    let again = dir.path().join("again.zip");
    let outcome = seal::export(
        &state,
        &store,
        bundle,
        &again,
        &mut |_| {},
        &CancelToken::new(),
    )
    .await
    .unwrap();
    let BundleOutcome::Written { manifest_stamp, .. } = outcome else {
        panic!("not written: {outcome:?}")
    };
    assert!(
        matches!(manifest_stamp, ManifestStamp::NotStamped { .. }),
        "{manifest_stamp:?}"
    );
    let names: Vec<String> = zip::ZipArchive::new(std::fs::File::open(&again).unwrap())
        .unwrap()
        .file_names()
        .map(str::to_owned)
        .collect();
    assert!(!names.iter().any(|n| n == "manifest.json.tsr"));
    assert!(names.iter().any(|n| n == "manifest.sig"));
}
