//! "Verify a bundle" cannot be fooled: bundles made by the real writer (`seal::export`, on a
//! real SQLite store, signed with the installation's key) and then tampered with as a forger
//! would — every sum and the manifest's list recomputed after the edit — are each caught by
//! the check that should catch them, and the verdict "exactly as Sightline wrote it" is said
//! only of an untouched bundle this installation recorded exporting.

use crate::support::evidence_seed as seed;
use crate::support::tamper::{self, Bundle as Unzipped};

use std::path::{Path, PathBuf};
use std::sync::Arc;

use chrono::Utc;
use sightline_api::CancelToken;
use sightline_core::custody;
use sightline_core::environment::Environment;
use sightline_core::evidence::gather;
use sightline_core::evidence::seal;
use sightline_core::evidence::verify::{
    self, BundleCheck, CheckKind, CheckState, FindingKind, SignatureState,
};
use sightline_core::keychain::{MemoryStore, SecretStore};
use sightline_core::signing::{self, KeyStanding};
use sightline_core::state::AppState;
use sightline_core::timestamps;
use sightline_sandbox::tsa::{TestTsa, TsaOptions};
use sightline_store::custody::CustodyAction;
use sightline_store::{NewStampToken, NextStamp, Store};

/// An installation: its data folder and keychain.
fn installation(dir: &Path, secrets: Arc<dyn SecretStore>) -> AppState {
    std::fs::create_dir_all(dir).unwrap();
    AppState::new(dir.to_owned(), Environment::default(), secrets).unwrap()
}

/// A case of `requests` responses exported by `state` as its app does; the bundle's path.
async fn exported(state: &AppState, dir: &Path, requests: usize) -> PathBuf {
    exported_stamped(state, dir, requests, None).await
}

/// As [`exported`], three checks recorded in the case's custody log first (a log to cut from).
async fn exported_with_checks(state: &AppState, dir: &Path, requests: usize) -> PathBuf {
    let store = state.store().await.unwrap();
    let id = seed::seed(&store, requests, 4).await;
    for n in 0..3 {
        let ids = vec![format!("check:{n}")];
        custody::record(&store, id, CustodyAction::CheckRun, ids, "Still there?")
            .await
            .unwrap();
    }
    export_case(state, &store, id, dir).await
}

/// Every capture of investigation `id` stamped by `tsa`, as the app's stamper does it.
async fn stamp_case(store: &Store, id: i64, tsa: &TestTsa) {
    let url = tsa.url();
    store
        .stamp_investigation(id, &url, Utc::now())
        .await
        .unwrap();
    let client = timestamps::client();
    while let NextStamp::Due(due) = store.next_stamp(Utc::now()).await.unwrap() {
        let mut digest = [0u8; 32];
        for (i, byte) in digest.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&due.sha256[2 * i..2 * i + 2], 16).unwrap();
        }
        let stamp = timestamps::ask(&client, &url, &digest).await.unwrap();
        let token = NewStampToken {
            reply_der: stamp.reply_der,
            stamped_at: stamp.stamped_at,
            authority: stamp.authority,
            certificates_pem: stamp.certificates_pem,
        };
        assert!(store
            .stamp_done(due.history_id, &url, &token)
            .await
            .unwrap());
    }
}

/// As [`exported`], each capture stamped first by `tsa` when given.
async fn exported_stamped(
    state: &AppState,
    dir: &Path,
    requests: usize,
    tsa: Option<&TestTsa>,
) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let store = state.store().await.unwrap();
    let id = seed::seed(&store, requests, 4).await;
    if let Some(tsa) = tsa {
        stamp_case(&store, id, tsa).await;
    }
    export_case(state, &store, id, dir).await
}

/// Exports investigation `id` as the app does; the bundle's path.
async fn export_case(state: &AppState, store: &Store, id: i64, dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let bundle = gather::requested(
        store,
        Some(id),
        vec![],
        vec![],
        "Europe/Berlin".parse().unwrap(),
        "0.1.0",
    )
    .await
    .unwrap();
    let path = dir.join("floods.zip");
    seal::export(
        state,
        store,
        bundle,
        &path,
        &mut |_| {},
        &CancelToken::new(),
    )
    .await
    .unwrap();
    path
}

async fn verified(state: &AppState, path: &Path) -> BundleCheck {
    verify::verify(state, path, |_| {}, &CancelToken::new())
        .await
        .unwrap()
        .expect("not cancelled")
}

fn state_of(check: &BundleCheck, kind: CheckKind) -> CheckState {
    check.checks.iter().find(|l| l.kind == kind).unwrap().state
}

fn words_of(check: &BundleCheck, kind: CheckKind) -> &str {
    &check.checks.iter().find(|l| l.kind == kind).unwrap().words
}

#[tokio::test]
async fn an_untouched_bundle_is_exactly_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let state = installation(&dir.path().join("data"), Arc::new(MemoryStore::default()));
    let path = exported(&state, dir.path(), 3).await;
    let check = verified(&state, &path).await;
    assert!(check.as_written, "{check:#?}");
    assert!(
        check
            .verdict
            .starts_with("Exactly as Sightline on this computer wrote it:"),
        "{}",
        check.verdict
    );
    for kind in [CheckKind::Files, CheckKind::Signature, CheckKind::Export] {
        assert_eq!(state_of(&check, kind), CheckState::Holds, "{kind:?}");
    }
    assert_eq!(state_of(&check, CheckKind::Custody), CheckState::Holds);
    let identity = signing::identity(&state).await.unwrap();
    assert_eq!(
        check.signature.fingerprint.as_deref(),
        Some(identity.current.fingerprint.as_str())
    );
    assert_eq!(check.signature.standing, Some(KeyStanding::Current));
    assert!(words_of(&check, CheckKind::Signature).contains(&identity.current.fingerprint));
}

#[tokio::test]
async fn an_edited_post_with_sums_and_manifest_recomputed_breaks_the_signature() {
    let dir = tempfile::tempdir().unwrap();
    let state = installation(&dir.path().join("data"), Arc::new(MemoryStore::default()));
    let path = exported(&state, dir.path(), 3).await;
    let mut bundle = Unzipped::read(&path);
    bundle.edit("posts.jsonl", |text| {
        text.replacen("about the flood", "about the fire", 1)
    });
    bundle.reseal_sums();
    bundle.write(&path);

    let check = verified(&state, &path).await;
    assert!(check.intact, "the forger's sums all match: {check:#?}");
    assert_eq!(check.signature.state, SignatureState::Invalid);
    assert_eq!(state_of(&check, CheckKind::Signature), CheckState::Fails);
    assert!(!check.as_written);
    assert!(
        check.verdict.starts_with("The files match their sums")
            && check.verdict.contains(
                "the signature is not valid: the manifest was changed after it was signed"
            ),
        "{}",
        check.verdict
    );
    assert!(
        check
            .verdict
            .contains("it is not one this computer exported"),
        "its manifest is not the one recorded: {}",
        check.verdict
    );
}

#[tokio::test]
async fn a_custody_entry_taken_out_breaks_the_chain_at_that_entry() {
    let dir = tempfile::tempdir().unwrap();
    let state = installation(&dir.path().join("data"), Arc::new(MemoryStore::default()));
    let path = exported_with_checks(&state, dir.path(), 3).await;
    let mut bundle = Unzipped::read(&path);
    let lines = bundle.text("custody.jsonl").lines().count();
    assert!(lines >= 3, "a log to cut from: {lines} entries");
    bundle.edit("custody.jsonl", |text| {
        let kept: Vec<&str> = text
            .lines()
            .enumerate()
            .filter(|(i, _)| *i != 1)
            .map(|(_, l)| l)
            .collect();
        kept.join("\n") + "\n"
    });
    bundle.reseal_sums();
    bundle.write(&path);

    let check = verified(&state, &path).await;
    assert!(check.intact, "{check:#?}");
    assert_eq!(check.custody.state, CheckState::Fails);
    assert_eq!(check.custody.broken_at, Some(2), "{:?}", check.custody);
    assert!(words_of(&check, CheckKind::Custody)
        .starts_with("The custody log's chain is broken at entry 2: that entry is missing."));
    assert!(check
        .verdict
        .contains("the custody log is broken at entry 2"));
    assert!(!check.as_written);

    // Cut from the end instead (another case): the chain is whole, but its head is not the
    // manifest's.
    let state = installation(&dir.path().join("other"), Arc::new(MemoryStore::default()));
    let path = exported(&state, &dir.path().join("again"), 2).await;
    let mut bundle = Unzipped::read(&path);
    bundle.edit("custody.jsonl", |text| {
        let lines: Vec<&str> = text.lines().collect();
        lines[..lines.len() - 1].join("\n") + "\n"
    });
    bundle.reseal_sums();
    bundle.write(&path);
    let check = verified(&state, &path).await;
    assert_eq!(check.custody.state, CheckState::Fails);
    assert_eq!(check.custody.broken_at, None);
    assert!(
        words_of(&check, CheckKind::Custody).contains("not the one the manifest gives"),
        "{}",
        words_of(&check, CheckKind::Custody)
    );
}

#[tokio::test]
async fn a_bundle_signed_by_another_installation_is_never_exactly_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let ours = installation(&dir.path().join("ours"), Arc::new(MemoryStore::default()));
    let theirs = installation(&dir.path().join("theirs"), Arc::new(MemoryStore::default()));
    signing::identity(&ours).await.unwrap();
    let path = exported(&theirs, dir.path(), 2).await;

    let check = verified(&ours, &path).await;
    assert!(check.intact);
    assert_eq!(check.signature.state, SignatureState::Valid);
    assert_eq!(check.signature.standing, Some(KeyStanding::Unknown));
    assert!(!check.as_written, "{check:#?}");
    assert!(
        check
            .verdict
            .contains("it is signed by a key this computer does not know"),
        "{}",
        check.verdict
    );
    assert!(!check.verdict.starts_with("Exactly"));
    // Theirs says it is theirs.
    assert!(check_is_as_written(&theirs, &path).await);
}

async fn check_is_as_written(state: &AppState, path: &Path) -> bool {
    verified(state, path).await.as_written
}

#[tokio::test]
async fn the_same_key_on_a_second_data_folder_holds_everything_but_the_record() {
    let dir = tempfile::tempdir().unwrap();
    let keychain: Arc<dyn SecretStore> = Arc::new(MemoryStore::default());
    let first = installation(&dir.path().join("first"), keychain.clone());
    let path = exported(&first, dir.path(), 2).await;
    let second = installation(&dir.path().join("second"), keychain);
    signing::identity(&second).await.unwrap();

    let check = verified(&second, &path).await;
    assert_eq!(check.signature.standing, Some(KeyStanding::Current));
    for kind in [CheckKind::Files, CheckKind::Signature, CheckKind::Custody] {
        assert_eq!(state_of(&check, kind), CheckState::Holds, "{kind:?}");
    }
    assert_eq!(state_of(&check, CheckKind::Export), CheckState::Fails);
    assert!(!check.as_written);
    assert!(
        check
            .verdict
            .ends_with("but it is not one this computer exported (it has no record of it)."),
        "{}",
        check.verdict
    );
}

#[tokio::test]
async fn a_bundle_signed_before_a_rotation_still_verifies_by_an_earlier_key() {
    let dir = tempfile::tempdir().unwrap();
    let state = installation(&dir.path().join("data"), Arc::new(MemoryStore::default()));
    let path = exported(&state, dir.path(), 2).await;
    signing::rotate(&state).await.unwrap();
    let check = verified(&state, &path).await;
    assert_eq!(check.signature.standing, Some(KeyStanding::Earlier));
    assert!(check.as_written, "{}", check.verdict);
    assert!(check
        .verdict
        .contains("one of this computer's earlier keys"));
}

#[tokio::test]
async fn a_zip_trick_on_a_signed_bundle_stays_a_finding() {
    let dir = tempfile::tempdir().unwrap();
    let state = installation(&dir.path().join("data"), Arc::new(MemoryStore::default()));
    let path = exported(&state, dir.path(), 2).await;
    // A second posts.jsonl that differs only in case: on Windows and macOS one replaces the
    // other when unpacked.
    let mut bundle = Unzipped::read(&path);
    let forged = bundle.text("posts.jsonl").replacen("flood", "fire", 1);
    bundle
        .extra
        .push(("POSTS.jsonl".into(), forged.into_bytes()));
    bundle.write(&path);
    let check = verified(&state, &path).await;
    assert!(check
        .findings
        .iter()
        .any(|f| f.kind == FindingKind::DuplicateName));
    assert!(!check.as_written);
    assert_eq!(state_of(&check, CheckKind::Signature), CheckState::Holds);
    assert_eq!(state_of(&check, CheckKind::Files), CheckState::Fails);

    // Bytes put before the first entry (offsets kept right, as `zip -A` does) of a clean copy.
    let state = installation(&dir.path().join("other"), Arc::new(MemoryStore::default()));
    let clean = exported(&state, &dir.path().join("clean"), 2).await;
    tamper::prepend(&clean, b"planted before the first entry\n");
    let check = verified(&state, &clean).await;
    assert!(check
        .findings
        .iter()
        .any(|f| f.kind == FindingKind::DataOutsideIndex));
    assert!(!check.as_written, "{}", check.verdict);
    assert!(check.verdict.contains("the ZIP holds more than its files"));
}

#[tokio::test]
async fn an_unsigned_bundle_checks_its_sums_only_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let state = installation(&dir.path().join("data"), Arc::new(MemoryStore::default()));
    let path = exported(&state, dir.path(), 2).await;
    let mut bundle = Unzipped::read(&path);
    bundle.make_unsigned();
    bundle.write(&path);
    let check = verified(&state, &path).await;
    assert!(check.intact, "{check:#?}");
    assert_eq!(check.signature.state, SignatureState::Unsigned);
    assert!(!check.as_written);
    assert!(
        check
            .verdict
            .ends_with("The bundle is not signed, so who made it and when cannot be checked."),
        "{}",
        check.verdict
    );
}

#[tokio::test]
async fn every_token_is_checked_and_a_forged_one_is_invalid() {
    let dir = tempfile::tempdir().unwrap();
    let tsa = TestTsa::start(TsaOptions::new(dir.path().join("tsa")))
        .await
        .unwrap();
    let state = installation(&dir.path().join("data"), Arc::new(MemoryStore::default()));
    let path = exported_stamped(&state, &dir.path().join("out"), 3, Some(&tsa)).await;
    let check = verified(&state, &path).await;
    assert_eq!(check.stamp_counts.stamped, 3, "{:?}", check.stamp_counts);
    assert!(
        check.stamps.len() >= 3 && check.stamps.iter().all(|t| t.valid),
        "{:#?}",
        check.stamps
    );
    assert_eq!(state_of(&check, CheckKind::Timestamps), CheckState::Holds);
    assert!(check.as_written, "{}", check.verdict);
    assert!(
        check.verdict.contains("timestamp tokens are valid"),
        "{}",
        check.verdict
    );
    // Valid says nothing of revocation, and the line says so.
    let line = check
        .checks
        .iter()
        .find(|l| l.kind == CheckKind::Timestamps)
        .unwrap();
    assert!(
        line.words.contains(timestamps::REVOCATION_NOT_CHECKED),
        "{}",
        line.words
    );
    let original = Unzipped::read(&path);
    let tokens = original.names("timestamps/", ".tsr");
    assert_eq!(tokens.len(), 3, "{tokens:?}");

    // One byte of a token changed (the last: its signature's), every sum recomputed.
    let mut bundle = Unzipped::read(&path);
    let mut forged = bundle.bytes(&tokens[0]).to_vec();
    *forged.last_mut().unwrap() ^= 0x01;
    bundle.set(&tokens[0], forged);
    bundle.reseal_sums();
    let copy = dir.path().join("byte.zip");
    bundle.write(&copy);
    let check = verified(&state, &copy).await;
    assert!(check.intact);
    let bad: Vec<_> = check.stamps.iter().filter(|t| !t.valid).collect();
    assert_eq!(bad.len(), 1, "{:#?}", check.stamps);
    assert_eq!(bad[0].file, tokens[0]);
    assert_eq!(state_of(&check, CheckKind::Timestamps), CheckState::Fails);
    assert!(
        check
            .verdict
            .contains("1 of 3 timestamp tokens are not valid")
            || check
                .verdict
                .contains("1 of 4 timestamp tokens are not valid"),
        "{}",
        check.verdict
    );
    assert!(!check.as_written);

    // Another capture's token put in its place: valid for another hash, so not for this one.
    let mut bundle = Unzipped::read(&path);
    let other = bundle.bytes(&tokens[1]).to_vec();
    bundle.set(&tokens[0], other);
    bundle.reseal_sums();
    let copy = dir.path().join("swapped.zip");
    bundle.write(&copy);
    let check = verified(&state, &copy).await;
    let bad: Vec<_> = check.stamps.iter().filter(|t| !t.valid).collect();
    assert_eq!(bad.len(), 1, "{:#?}", check.stamps);
    assert_eq!(bad[0].file, tokens[0]);
    assert!(!check.as_written);
}

/// Resident memory now and at its peak since the last reset, in KiB (Linux).
fn rss_kib() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches(" kB").trim().parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// The figure for the note: checking a 10,000-post case's bundle (1,000 responses), time and
/// the peak memory the check adds. Run:
/// `cargo test -p sightline-core --release --test core evidence_verify::ten -- --ignored --nocapture`
#[tokio::test]
#[ignore = "a measurement, a minute or more"]
async fn ten_thousand_posts_verify_time_and_peak_memory() {
    let dir = tempfile::tempdir().unwrap();
    let state = installation(&dir.path().join("data"), Arc::new(MemoryStore::default()));
    let store = state.store().await.unwrap();
    let id = seed::seed(&store, 1_000, 10).await;
    let path = export_case(&state, &store, id, dir.path()).await;
    let bytes = std::fs::metadata(&path).unwrap().len();
    for round in 1..=3 {
        // Linux: writing 5 to clear_refs resets the peak (VmHWM) to what is resident now.
        std::fs::write("/proc/self/clear_refs", "5").unwrap();
        let (before, _) = rss_kib();
        let started = std::time::Instant::now();
        let check = verified(&state, &path).await;
        let took = started.elapsed();
        let (_, peak) = rss_kib();
        assert!(check.as_written, "{}", check.verdict);
        println!(
            "round {round}: {} files, {:.1} MB bundle verified in {:.2} s; peak resident memory {:.1} MiB above the {:.1} MiB before",
            check.files.len(),
            bytes as f64 / 1e6,
            took.as_secs_f64(),
            peak.saturating_sub(before) as f64 / 1024.0,
            before as f64 / 1024.0,
        );
    }
}
