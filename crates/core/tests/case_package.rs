//! Case packages (issue 33) between two "machines": two data folders with their own database,
//! keychain and signing key, as two installations are. A case exported by one and opened by the
//! other reproduces every hash, reads the same (its report's content and its analysis), and its
//! custody log goes on from the received one; a package tampered with (a byte, a line, the
//! manifest, the signature) is refused with its reason and nothing is written; two people
//! editing the same case exchange packages and end with the same case, each one's work
//! attributed; and a received request's cost is never this installation's spending.

use crate::support::evidence_seed as seed;
use crate::support::media_seed;
use crate::support::tamper::Bundle as Unzipped;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use chrono::{TimeZone, Utc};
use rust_decimal::Decimal;
use serde_json::{json, Value};
use sightline_api::CancelToken;
use sightline_core::case_package::{
    self, CaseExportOutcome, CaseOpenOutcome, CaseOpened, CaseStage, ConflictKind, RemovedWhat,
};
use sightline_core::environment::Environment;
use sightline_core::evidence::gather;
use sightline_core::keychain::MemoryStore;
use sightline_core::media::files::MediaFolder;
use sightline_core::signing;
use sightline_core::state::AppState;
use sightline_store::custody::{self, ChainCheck, CustodyAction};
use sightline_store::{
    AnalysisScope, BudgetLimits, By, CheckItem, CheckOutcome, InvestigationItem, MediaKind,
    ScopeFilters, ScopeSource, Store,
};

/// One installation: its data folder, keychain, signing key and collector's name.
struct Machine {
    state: AppState,
    store: Store,
    by: By,
}

async fn machine(dir: &Path, collector: &str) -> Machine {
    std::fs::create_dir_all(dir).unwrap();
    let state = AppState::new(
        dir.to_owned(),
        Environment::default(),
        Arc::new(MemoryStore::default()),
    )
    .unwrap();
    signing::set_collector(&state, Some(collector.into()))
        .await
        .unwrap();
    let identity = signing::identity(&state).await.unwrap();
    let store = state.store().await.unwrap();
    Machine {
        by: By {
            name: collector.into(),
            key: identity.current.fingerprint,
        },
        state,
        store,
    }
}

async fn export(m: &Machine, id: i64, path: &Path) -> PathBuf {
    let outcome = case_package::export(&m.state, id, path, &mut |_| {}, &CancelToken::new())
        .await
        .unwrap();
    assert!(
        matches!(outcome, CaseExportOutcome::Written { .. }),
        "{outcome:?}"
    );
    path.to_owned()
}

async fn open(m: &Machine, path: &Path) -> CaseOpenOutcome {
    case_package::open(&m.state, path, |_| {}, &CancelToken::new())
        .await
        .unwrap()
}

async fn opened(m: &Machine, path: &Path) -> CaseOpened {
    match open(m, path).await {
        CaseOpenOutcome::Opened { opened, .. } => *opened,
        other => panic!("not opened: {other:?}"),
    }
}

fn at_now() -> chrono::DateTime<Utc> {
    Utc::now()
}

fn post_id(n: usize) -> String {
    (seed::FIRST_ID + n as u64).to_string()
}

/// A case on `m`: `requests` billed searches of `posts` posts each, a note and tags, a
/// picture kept for the first post.
async fn case(m: &Machine, requests: usize, posts: usize) -> i64 {
    let id = seed::seed(&m.store, requests, posts).await;
    m.store
        .set_investigation_post(
            id,
            &post_id(0),
            Some("First sighting of the claim"),
            Some(&["lead".into(), "flood".into()]),
        )
        .await
        .unwrap();
    let at = Utc.with_ymd_and_hms(2026, 11, 23, 18, 0, 0).unwrap();
    let folder = MediaFolder::new(&m.state.data_dir);
    let item = media_seed::item(
        &post_id(0),
        0,
        MediaKind::Photo,
        "https://pbs.twimg.com/a.png",
    );
    let queued = media_seed::queue(&m.store, &[item], at).await;
    media_seed::keep(
        &m.store,
        &folder,
        queued[0],
        b"picture bytes",
        "image/png",
        None,
        at,
    )
    .await;
    id
}

/// Who did something, as `m` sees it: its own work (`None`) is `m`'s.
fn whose(m: &Machine, by: &Option<By>) -> Value {
    let by = by.as_ref().unwrap_or(&m.by);
    json!([by.name, by.key])
}

/// The case's content as its report and a colleague see it, every attribution resolved: its
/// requests (ids, capture hashes, cost text and key label, who collected and filed them), its
/// posts (records, every note and tag with who wrote it), checks and media.
async fn digest(m: &Machine, id: i64) -> Value {
    let bundle = gather::investigation(&m.store, id, "UTC".parse().unwrap(), "0")
        .await
        .unwrap();
    let ids: Vec<i64> = bundle.requests.iter().map(|r| r.entry.id).collect();
    let case = m.store.case_contents(id, &ids).await.unwrap();
    let mut requests: Vec<Value> = case
        .requests
        .iter()
        .map(|r| {
            json!({
                "id": r.request_id, "sha256": r.capture.as_ref().map(|c| &c.sha256),
                "cost": r.cost_nanos, "cost_text": r.cost_text, "key": r.key_label,
                "stamped": r.stamp.is_some(), "by": whose(m, &r.collected_by),
                "filed": r.filing.as_ref().map(|f| json!([f.how, whose(m, &f.by)])),
            })
        })
        .collect();
    requests.sort_by_key(|r| r["id"].to_string());
    let posts: Vec<Value> = case
        .posts
        .iter()
        .map(|p| {
            let mut notes: Vec<Value> = p
                .other_notes
                .iter()
                .map(|(by, note)| json!([note, whose(m, &Some(by.clone()))]))
                .collect();
            if !p.note.is_empty() {
                notes.push(json!([p.note, whose(m, &p.note_by)]));
            }
            notes.sort_by_key(|n| n.to_string());
            let mut tags: Vec<Value> = p
                .tags
                .iter()
                .map(|t| json!([t.tag, whose(m, &t.by), t.added_at]))
                .collect();
            tags.sort_by_key(|t| t.to_string());
            let mut removed: Vec<Value> = p
                .removed
                .iter()
                .map(|r| {
                    json!([
                        r.kind,
                        r.what,
                        r.added_at,
                        r.removed_at,
                        whose(m, &r.by),
                        r.colleagues_note
                    ])
                })
                .collect();
            removed.sort_by_key(|r| r.to_string());
            let mut found: Vec<&String> = p.found_by.iter().map(|(r, _)| r).collect();
            found.sort();
            json!({"id": p.id, "raw": p.raw_json, "notes": notes, "tags": tags,
                   "removed": removed, "found_by": found, "filed_by": whose(m, &p.filing.by)})
        })
        .collect();
    let media: Vec<Value> = case
        .media
        .iter()
        .map(|i| {
            json!([
                i.post_id,
                i.position,
                i.state,
                i.file.as_ref().map(|f| &f.sha256)
            ])
        })
        .collect();
    let checks: Vec<Value> = case
        .checks
        .iter()
        .map(|c| {
            json!([
                c.checked_at,
                c.cost_nanos,
                whose(m, &c.by),
                c.request_ids,
                c.items
            ])
        })
        .collect();
    json!({"case": case.case_id, "name": case.name, "notebook": case.notebook,
           "requests": requests, "posts": posts, "media": media,
           "cost": bundle.cost.total.to_string(), "checks": checks})
}

/// The analysis of the case, as its screen reads it.
async fn analysis(store: &Store, id: i64) -> Value {
    let scope = AnalysisScope {
        source: ScopeSource::Investigation { id },
        from: None,
        to: None,
        filters: ScopeFilters::default(),
    };
    let tz = "Europe/Berlin".parse().unwrap();
    json!({
        "summary": store.analysis_summary(&scope).await.unwrap(),
        "top": store.analysis_top(&scope, 50).await.unwrap(),
        "heatmap": store.analysis_heatmap(&scope, tz).await.unwrap(),
    })
}

#[tokio::test]
async fn a_case_opened_on_a_second_machine_reproduces_every_hash_and_continues_its_log() {
    let dir = tempfile::tempdir().unwrap();
    let a = machine(&dir.path().join("a"), "Ana Ortiz").await;
    let id = case(&a, 6, 5).await;
    let path = export(&a, id, &dir.path().join("floods-case.zip")).await;

    let b = machine(&dir.path().join("b"), "Ben Okafor").await;
    let first_look = case_package::preview(&b.state, &path, |_| {}, &CancelToken::new())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(first_look.refused, None);
    assert_eq!((first_look.requests, first_look.posts), (6, 30));
    assert_eq!(first_look.name.as_deref(), Some("Floods"));
    assert_eq!(first_look.from.as_ref().unwrap().fingerprint, a.by.key);
    assert_eq!(first_look.held, None);
    assert!(
        b.store.investigation(1).await.unwrap().is_none(),
        "a look writes nothing"
    );
    let told = Arc::new(std::sync::Mutex::new(Vec::new()));
    let stages = told.clone();
    let outcome = case_package::open(
        &b.state,
        &path,
        move |p| stages.lock().unwrap().push(p.stage),
        &CancelToken::new(),
    )
    .await
    .unwrap();
    let CaseOpenOutcome::Opened { opened: got, check } = outcome else {
        panic!("not opened: {outcome:?}")
    };
    let mut told = told.lock().unwrap().clone();
    told.dedup();
    assert_eq!(
        told,
        [
            CaseStage::Verifying,
            CaseStage::Reading,
            CaseStage::Importing
        ]
    );
    assert!(!got.merged);
    assert!(check.intact && check.signature.holds());
    assert!(got.signed_at.starts_with("20"), "{}", got.signed_at);
    assert_eq!((got.requests_added, got.posts_added), (6, 30));
    assert_eq!(got.from.fingerprint, a.by.key);
    assert_eq!(got.from.name, "Ana Ortiz");
    assert!(got.conflicts.is_empty());
    let id_b = got.investigation_id;
    let second_look = case_package::preview(&b.state, &path, |_| {}, &CancelToken::new())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(second_look.case_id, first_look.case_id);
    assert_eq!(second_look.held, Some(id_b));

    // Every response's bytes are here, hashing to what was recorded when they arrived there.
    let bundle = gather::investigation(&b.store, id_b, "UTC".parse().unwrap(), "0")
        .await
        .unwrap();
    assert_eq!(bundle.requests.len(), 6);
    for request in &bundle.requests {
        let check = b
            .store
            .verify_provenance(request.entry.id)
            .await
            .unwrap()
            .expect("a capture");
        assert!(check.matches, "{check:?}");
    }
    let folder = MediaFolder::new(&b.state.data_dir);
    let kept = &digest(&b, id_b).await["media"][0][3];
    let bytes = folder.read(kept.as_str().unwrap()).await.unwrap();
    assert_eq!(bytes, b"picture bytes");

    // The same case: its report's content, its cost as a fact, and its analysis.
    assert_eq!(digest(&a, id).await, digest(&b, id_b).await);
    assert_eq!(analysis(&a.store, id).await, analysis(&b.store, id_b).await);

    // The custody log: the sender's, entry for entry, then the import; the chain unbroken.
    let log_a = a.store.custody_log(id).await.unwrap();
    let log_b = b.store.custody_log(id_b).await.unwrap();
    assert_eq!(log_b.len(), log_a.len() + 1);
    assert_eq!(&log_b[..log_a.len()], &log_a[..]);
    let last = log_b.last().unwrap();
    assert_eq!(last.action, CustodyAction::PackageImported);
    assert!(last
        .ids
        .contains(&format!("package:{}", got.package_sha256)));
    assert!(matches!(
        custody::check_chain(&log_b),
        ChainCheck::Unbroken { .. }
    ));

    // B hands it on: its package verifies, the log going on under B's key.
    let again = export(&b, id_b, &dir.path().join("from-b.zip")).await;
    let c = machine(&dir.path().join("c"), "Cleo").await;
    let got_c = opened(&c, &again).await;
    assert_eq!(
        digest(&c, got_c.investigation_id).await,
        digest(&a, id).await
    );
    assert_eq!(got_c.from.fingerprint, b.by.key);
}

/// Opening `tampered` on a fresh machine is refused for a reason naming `expected`, and
/// nothing is written.
async fn refused(dir: &Path, tampered: &Path, expected: &str) {
    let m = machine(&dir.join(format!("m-{}", rand_name(tampered))), "Mo").await;
    let look = case_package::preview(&m.state, tampered, |_| {}, &CancelToken::new())
        .await
        .unwrap()
        .unwrap();
    assert!(look.refused.is_some_and(|why| why.contains(expected)));
    match open(&m, tampered).await {
        CaseOpenOutcome::Refused { why, .. } => {
            assert!(why.contains(expected), "{expected:?} not in {why:?}")
        }
        other => panic!("{} not refused: {other:?}", tampered.display()),
    }
    assert!(m.store.investigation(1).await.unwrap().is_none());
    assert!(m.store.post(&post_id(0)).await.unwrap().is_none());
}

fn rand_name(path: &Path) -> String {
    path.file_stem().unwrap().to_string_lossy().into_owned()
}

#[tokio::test]
async fn a_package_tampered_with_is_refused_with_its_reason_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let a = machine(&dir.path().join("a"), "Ana").await;
    let id = case(&a, 3, 4).await;
    // A removal for the package to carry: "flood" taken off the first post.
    a.store
        .set_investigation_post(id, &post_id(0), None, Some(&["lead".into()]))
        .await
        .unwrap();
    let path = export(&a, id, &dir.path().join("case.zip")).await;
    let response = Unzipped::read(&path).names("responses/", ".json")[0].clone();

    // One byte of a response changed, the sums left as they were.
    let mut zip = Unzipped::read(&path);
    let mut bytes = zip.bytes(&response).to_vec();
    bytes[3] ^= 1;
    zip.set(&response, bytes);
    let byte = dir.path().join("byte.zip");
    zip.write(&byte);
    refused(dir.path(), &byte, &response).await;

    // One line of the case's posts changed, every sum recomputed as a forger would: the
    // manifest changed, so its signature no longer holds.
    let mut zip = Unzipped::read(&path);
    zip.edit("case/posts.jsonl", |text| {
        text.replacen("First sighting", "Last sighting", 1)
    });
    zip.reseal_sums();
    let line = dir.path().join("line.zip");
    zip.write(&line);
    refused(dir.path(), &line, "signature").await;

    // The same line changed, the sums left: the file no longer matches its sum.
    let mut zip = Unzipped::read(&path);
    zip.edit("case/posts.jsonl", |text| {
        text.replacen("First sighting", "Last sighting", 1)
    });
    let unsummed = dir.path().join("unsummed.zip");
    zip.write(&unsummed);
    refused(dir.path(), &unsummed, "case/posts.jsonl").await;

    // A removal record changed (another tag said to be taken off), with and without its sums
    // recomputed: the signature, or the file's sum, no longer holds.
    for (reseal, expected) in [(true, "signature"), (false, "case/posts.jsonl")] {
        let mut zip = Unzipped::read(&path);
        zip.edit("case/posts.jsonl", |text| {
            assert!(text.contains(r#""kind":"tag","what":"flood""#), "{text}");
            text.replacen(
                r#""kind":"tag","what":"flood""#,
                r#""kind":"tag","what":"lead""#,
                1,
            )
        });
        if reseal {
            zip.reseal_sums();
        }
        let removal = dir.path().join(format!("removal-{reseal}.zip"));
        zip.write(&removal);
        refused(dir.path(), &removal, expected).await;
    }

    // The manifest edited (who collected it), its sums recomputed.
    let mut zip = Unzipped::read(&path);
    let mut manifest = zip.manifest();
    manifest["collector"] = json!("Somebody Else");
    zip.set_manifest(&manifest);
    zip.reseal_sums();
    let edited = dir.path().join("manifest.zip");
    zip.write(&edited);
    refused(dir.path(), &edited, "signature").await;

    // The signature replaced by another key's over the same manifest.
    let mut zip = Unzipped::read(&path);
    let other = machine(&dir.path().join("forger"), "Forger").await;
    let signature = signing::sign(&other.state, zip.bytes("manifest.json"))
        .await
        .unwrap();
    zip.set(
        "manifest.sig",
        format!("{}\n", base64(&signature.bytes)).into_bytes(),
    );
    zip.reseal_sums();
    let signed = dir.path().join("signature.zip");
    zip.write(&signed);
    refused(dir.path(), &signed, "signature").await;

    // The untouched package opens.
    let b = machine(&dir.path().join("b"), "Ben").await;
    opened(&b, &path).await;
}

#[tokio::test]
async fn a_package_of_the_first_layout_still_opens() {
    let dir = tempfile::tempdir().unwrap();
    let a = machine(&dir.path().join("a"), "Ana").await;
    let id = case(&a, 2, 3).await;
    let path = export(&a, id, &dir.path().join("case.zip")).await;

    // The same case as a Sightline of the first layout wrote it (tags as [tag, by], no
    // removals or posts taken out), sealed and signed by Ana's key.
    let mut zip = Unzipped::read(&path);
    zip.edit("case/posts.jsonl", |text| {
        text.lines()
            .map(|line| {
                let mut post: Value = serde_json::from_str(line).unwrap();
                let tags: Vec<Value> = post["tags"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| json!([t["tag"], t["by"]]))
                    .collect();
                post["tags"] = tags.into();
                post.as_object_mut().unwrap().remove("removed");
                format!("{post}\n")
            })
            .collect()
    });
    zip.edit("case/case.json", |text| {
        let mut case: Value = serde_json::from_str(text).unwrap();
        case["format_version"] = 1.into();
        case.as_object_mut().unwrap().remove("unfiled");
        format!("{}\n", serde_json::to_string_pretty(&case).unwrap())
    });
    let mut manifest = zip.manifest();
    manifest["case"]["format_version"] = 1.into();
    zip.set_manifest(&manifest);
    zip.reseal_sums();
    let signature = signing::sign(&a.state, zip.bytes("manifest.json"))
        .await
        .unwrap();
    zip.set(
        "manifest.sig",
        format!("{}\n", base64(&signature.bytes)).into_bytes(),
    );
    zip.reseal_sums();
    assert!(zip.text("case/posts.jsonl").contains(r#"["lead",null]"#));
    let old = dir.path().join("layout-1.zip");
    zip.write(&old);

    // It opens; its tags read as put on before times were kept, Ana's.
    let b = machine(&dir.path().join("b"), "Ben").await;
    let got = opened(&b, &old).await;
    assert_eq!((got.posts_added, got.tags_added), (6, 2));
    let case_b = digest(&b, got.investigation_id).await;
    let first = case_b["posts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == post_id(0))
        .unwrap()
        .clone();
    let ana = json!([a.by.name, a.by.key]);
    assert_eq!(
        first["tags"],
        json!([["flood", ana.clone(), 0], ["lead", ana.clone(), 0]])
    );
    assert_eq!(
        first["notes"],
        json!([["First sighting of the claim", ana]])
    );
}

fn base64(bytes: &[u8]) -> String {
    sightline_core::evidence::seal::base64(bytes)
}

#[tokio::test]
async fn two_people_editing_one_case_exchange_packages_and_end_with_the_same_case() {
    let dir = tempfile::tempdir().unwrap();
    let a = machine(&dir.path().join("a"), "Ana").await;
    let b = machine(&dir.path().join("b"), "Ben").await;
    let id_a = case(&a, 3, 4).await;
    let tags = |t: &[&str]| t.iter().map(|t| t.to_string()).collect::<Vec<_>>();
    for (n, note) in [
        (2, "Ana: account made last week"),
        (4, "Shared: check the EXIF"),
        (6, "Ana: first guess"),
        (8, "Ana: keep an eye on it"),
    ] {
        a.store
            .set_investigation_post(id_a, &post_id(n), Some(note), None)
            .await
            .unwrap();
    }
    let first = export(&a, id_a, &dir.path().join("1.zip")).await;
    let id_b = opened(&b, &first).await.investigation_id;

    // Ana tags two posts and rewrites a note; Ben writes a note, rewrites the same note
    // differently, and adds posts of his own search.
    // Each also removes what they both hold: Ana takes "flood" off post 0 and removes the
    // note on post 4 that Ben rewrites meanwhile; Ben takes "lead" off post 0, removes the
    // note on post 2 and runs a still-there check.
    a.store
        .set_investigation_post(id_a, &post_id(0), None, Some(&tags(&["lead"])))
        .await
        .unwrap();
    a.store
        .set_investigation_post(id_a, &post_id(4), Some(""), None)
        .await
        .unwrap();
    // Ana rewrites her own note: hers gives way on both sides, no difference.
    a.store
        .set_investigation_post(id_a, &post_id(6), Some("Ana: second guess"), None)
        .await
        .unwrap();
    b.store
        .set_investigation_post(id_b, &post_id(0), None, Some(&tags(&["flood"])))
        .await
        .unwrap();
    b.store
        .set_investigation_post(id_b, &post_id(2), Some(""), None)
        .await
        .unwrap();
    // Ben takes post 5 out of the case; Ana takes out request req-2, and with it the posts
    // it brought that carry no note or tag (9, 10 and 11; not 8, which has her note).
    let out = |id: &str| InvestigationItem::Post {
        post_id: id.to_owned(),
    };
    b.store
        .remove_from_investigation(id_b, &[out(&post_id(5))], at_now())
        .await
        .unwrap();
    let bundle = gather::investigation(&a.store, id_a, "UTC".parse().unwrap(), "0")
        .await
        .unwrap();
    let req_2 = bundle
        .requests
        .iter()
        .find(|r| r.entry.request_id == "req-2")
        .unwrap()
        .entry
        .id;
    let taken = a
        .store
        .remove_from_investigation(
            id_a,
            &[InvestigationItem::Request { history_id: req_2 }],
            at_now(),
        )
        .await
        .unwrap();
    assert_eq!((taken.requests, taken.posts), (1, 3));
    // Ben writes over Ana's note she left as it was: both are kept, a difference.
    b.store
        .set_investigation_post(id_b, &post_id(8), Some("Ben: it was deleted"), None)
        .await
        .unwrap();
    b.store
        .set_investigation_post(id_b, &post_id(4), Some("Ben: the EXIF says Lagos"), None)
        .await
        .unwrap();
    let checked = Utc.with_ymd_and_hms(2026, 11, 24, 10, 0, 0).unwrap();
    let line = |n: usize| CheckItem {
        post_id: post_id(n),
        outcome: CheckOutcome::Unchanged,
        changes: Vec::new(),
    };
    b.store
        .save_investigation_check(id_b, checked, Decimal::ZERO, &[], &[line(1), line(3)])
        .await
        .unwrap();
    a.store
        .set_investigation_post(id_a, &post_id(1), None, Some(&tags(&["bot?"])))
        .await
        .unwrap();
    a.store
        .set_investigation_post(id_a, &post_id(2), None, Some(&tags(&["source", "lead"])))
        .await
        .unwrap();
    a.store
        .set_investigation_post(id_a, &post_id(0), Some("Ana: posted first, at 08:00"), None)
        .await
        .unwrap();
    b.store
        .set_investigation_post(id_b, &post_id(3), Some("Ben: same photo as post 5"), None)
        .await
        .unwrap();
    b.store
        .set_investigation_post(
            id_b,
            &post_id(0),
            Some("Ben: a repost, not the origin"),
            None,
        )
        .await
        .unwrap();
    b.store.set_active_investigation(Some(id_b)).await.unwrap();
    let new_posts: Vec<_> = (100..105)
        .map(|n| seed::post(seed::FIRST_ID + n, n as usize))
        .collect();
    let at = Utc.with_ymd_and_hms(2026, 11, 24, 9, 0, 0).unwrap();
    b.store
        .record_request(&seed::request(100, new_posts, at))
        .await
        .unwrap();
    b.store.set_active_investigation(None).await.unwrap();

    // They exchange packages.
    let from_a = export(&a, id_a, &dir.path().join("2.zip")).await;
    let from_b = export(&b, id_b, &dir.path().join("3.zip")).await;
    let at_b = opened(&b, &from_a).await;
    let at_a = opened(&a, &from_b).await;
    assert!(at_a.merged && at_b.merged);
    assert_eq!((at_a.investigation_id, at_b.investigation_id), (id_a, id_b));
    assert_eq!((at_a.posts_added, at_a.requests_added), (5, 1));
    assert_eq!(at_b.tags_added, 3);
    assert_eq!(at_a.checks_added, 1);

    // What the other removed is taken off, named with who removed it and when.
    let removed = |got: &CaseOpened| {
        let mut removed: Vec<_> = got
            .removed
            .iter()
            .map(|r| {
                (
                    r.what,
                    r.post_id.clone(),
                    r.text.clone(),
                    r.by.clone().unwrap().name,
                )
            })
            .collect();
        removed.sort_by(|x, y| (&x.1, &x.2).cmp(&(&y.1, &y.2)));
        removed
    };
    assert_eq!(
        removed(&at_b),
        [
            (RemovedWhat::Tag, post_id(0), "flood".into(), "Ana".into()),
            (
                RemovedWhat::Note,
                post_id(6),
                "Ana: first guess".into(),
                "Ana".into()
            ),
            (RemovedWhat::Post, post_id(9), post_id(9), "Ana".into()),
            (RemovedWhat::Post, post_id(10), post_id(10), "Ana".into()),
            (RemovedWhat::Post, post_id(11), post_id(11), "Ana".into()),
            (
                RemovedWhat::Request,
                "req-2".into(),
                "req-2".into(),
                "Ana".into()
            ),
        ]
    );
    assert!(at_b.removed.iter().any(|r| r.written_over));
    assert_eq!(
        removed(&at_a),
        [
            (RemovedWhat::Tag, post_id(0), "lead".into(), "Ben".into()),
            (
                RemovedWhat::Note,
                post_id(2),
                "Ana: account made last week".into(),
                "Ben".into()
            ),
            (RemovedWhat::Post, post_id(5), post_id(5), "Ben".into()),
        ]
    );
    assert!(at_a.removed.iter().all(|r| r.removed_at.starts_with("20")));

    // The differing notes are listed on both sides, and neither overwrote the other (Ben's
    // note written over Ana's untouched one too); the note one removed while the other
    // rewrote it is listed too, the rewritten one kept.
    let on = |got: &CaseOpened, n: usize| {
        got.conflicts
            .iter()
            .find(|c| c.post_id.as_deref() == Some(post_id(n).as_str()))
            .unwrap_or_else(|| panic!("no difference on post {n}: {:?}", got.conflicts))
            .clone()
    };
    for (got, ours, theirs) in [
        (&at_a, "Ana: posted first", "Ben: a repost"),
        (&at_b, "Ben: a repost", "Ana: posted first"),
    ] {
        assert_eq!(got.conflicts.len(), 3, "{:?}", got.conflicts);
        let conflict = on(got, 0);
        assert_eq!(conflict.kind, ConflictKind::Note);
        assert!(conflict.ours.starts_with(ours) && conflict.theirs.starts_with(theirs));
        assert!(conflict.ours_by.is_none());
        assert_eq!(on(got, 8).kind, ConflictKind::Note);
        assert_eq!(on(got, 4).kind, ConflictKind::NoteRemoved);
    }
    assert_eq!(
        (on(&at_a, 8).ours, on(&at_a, 8).theirs),
        (
            "Ana: keep an eye on it".into(),
            "Ben: it was deleted".into()
        )
    );
    let removal = on(&at_a, 4);
    assert_eq!(
        (removal.ours.as_str(), removal.theirs.as_str()),
        ("", "Ben: the EXIF says Lagos")
    );
    let removal = on(&at_b, 4);
    assert_eq!(
        (removal.ours.as_str(), removal.theirs.as_str()),
        ("Ben: the EXIF says Lagos", "")
    );
    assert_eq!(removal.theirs_by.fingerprint, a.by.key);
    let standing = case_package::conflicts(&a.state, id_a).await.unwrap();
    assert_eq!(standing.len(), 2);
    assert!(standing.iter().all(|c| c.theirs_by.fingerprint == b.by.key));

    // Both hold the same case, each one's work attributed to them.
    let (case_a, case_b) = (digest(&a, id_a).await, digest(&b, id_b).await);
    assert_eq!(case_a, case_b);
    let ana = json!([a.by.name, a.by.key]);
    let ben = json!([b.by.name, b.by.key]);
    let post = |n: usize| {
        case_a["posts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["id"] == post_id(n))
            .unwrap()
            .clone()
    };
    assert_eq!(post(1)["tags"].as_array().unwrap().len(), 1);
    assert_eq!(
        post(1)["tags"][0].as_array().unwrap()[..2],
        [json!("bot?"), ana.clone()]
    );
    assert_eq!(
        post(3)["notes"],
        json!([["Ben: same photo as post 5", ben]])
    );
    assert_eq!(post(100)["filed_by"], ben);
    assert_eq!(post(0)["notes"].as_array().unwrap().len(), 2);
    // Removed on either side, removed on both; the rewritten note kept, Ben's.
    assert_eq!(post(0)["tags"], json!([]));
    assert_eq!(post(2)["notes"], json!([]));
    assert_eq!(post(4)["notes"], json!([["Ben: the EXIF says Lagos", ben]]));
    assert_eq!(post(6)["notes"], json!([["Ana: second guess", ana]]));
    // Taken out on either side, out on both; req-2 still there as what brought post 8.
    let filed: Vec<&str> = case_a["posts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    for n in [5, 9, 10, 11] {
        assert!(!filed.contains(&post_id(n).as_str()), "post {n} is back");
    }
    let req = case_a["requests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "req-2")
        .unwrap()
        .clone();
    assert_eq!(req["filed"], Value::Null);
    assert_eq!(
        post(8)["notes"],
        json!([
            ["Ana: keep an eye on it", ana],
            ["Ben: it was deleted", ben]
        ])
    );
    let removals = |n: usize, kind: &str| {
        post(n)["removed"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r[0] == kind)
            .map(|r| (r[1].as_str().unwrap().to_owned(), r[4].clone()))
            .collect::<Vec<_>>()
    };
    // Each note written over is a removal too (Ana's first note, by both).
    assert_eq!(removals(0, "note").len(), 2);
    let mut on_0 = removals(0, "tag");
    on_0.sort_by_key(|r| r.0.clone());
    assert_eq!(
        on_0,
        [("flood".into(), ana.clone()), ("lead".into(), ben.clone())]
    );
    assert_eq!(
        removals(2, "note"),
        [("Ana: account made last week".into(), ben.clone())]
    );
    assert_eq!(case_a["checks"].as_array().unwrap().len(), 1);
    assert_eq!(case_a["checks"][0][2], ben);
    assert_eq!(
        analysis(&a.store, id_a).await,
        analysis(&b.store, id_b).await
    );

    // Each log records what the merge took off, who removed it, and the merge, naming the
    // package, and stays unbroken.
    let log_a = a.store.custody_log(id_a).await.unwrap();
    let merged_a = &log_a[log_a.len() - 4..];
    let entry = |action: CustodyAction| merged_a.iter().find(|e| e.action == action).unwrap();
    let note = entry(CustodyAction::NoteChanged);
    assert!(
        note.detail.starts_with("now empty, as Ben (key "),
        "{note:?}"
    );
    assert!(note.ids.contains(&format!("post:{}", post_id(2))));
    let tag = entry(CustodyAction::TagRemoved);
    assert!(
        tag.detail.starts_with("\u{201c}lead\u{201d}, as Ben (key "),
        "{tag:?}"
    );
    assert!(tag.ids.contains(&format!("post:{}", post_id(0))));
    let merge = entry(CustodyAction::PackageMerged);
    assert!(merge.detail.contains("3 removals made there taken on here"));
    let out = entry(CustodyAction::PostRemoved);
    assert!(out.detail.starts_with("as Ben (key "), "{out:?}");
    assert!(out.ids.contains(&format!("post:{}", post_id(5))));
    let log_b = b.store.custody_log(id_b).await.unwrap();
    assert!(
        log_b
            .iter()
            .any(|e| e.action == CustodyAction::RequestRemoved
                && e.detail.starts_with("as Ana (key "))
    );
    for (m, id, got) in [(&a, id_a, &at_a), (&b, id_b, &at_b)] {
        let log = m.store.custody_log(id).await.unwrap();
        let last = log.last().unwrap();
        assert_eq!(last.action, CustodyAction::PackageMerged);
        assert!(last
            .ids
            .contains(&format!("package:{}", got.package_sha256)));
        assert!(matches!(
            custody::check_chain(&log),
            ChainCheck::Unbroken { .. }
        ));
    }

    // Opening the same package again adds nothing.
    let again = opened(&a, &from_b).await;
    assert_eq!(
        (again.posts_added, again.requests_added, again.tags_added),
        (0, 0, 0)
    );
    assert!(again.removed.is_empty());
    assert_eq!(digest(&a, id_a).await, case_b);
}

/// The ids of the posts filed in the case.
async fn filed_posts(m: &Machine, id: i64) -> Vec<String> {
    let case = m.store.case_contents(id, &[]).await.unwrap();
    case.posts.into_iter().map(|p| p.id).collect()
}

#[tokio::test]
async fn a_post_taken_out_there_that_carries_work_done_here_stays_and_is_listed() {
    let dir = tempfile::tempdir().unwrap();
    let a = machine(&dir.path().join("a"), "Ana").await;
    let b = machine(&dir.path().join("b"), "Ben").await;
    let id_a = case(&a, 2, 3).await;
    let first = export(&a, id_a, &dir.path().join("1.zip")).await;
    let id_b = opened(&b, &first).await.investigation_id;
    let out = |n: usize| InvestigationItem::Post {
        post_id: post_id(n),
    };
    b.store
        .remove_from_investigation(id_b, &[out(0), out(1)], at_now())
        .await
        .unwrap();

    // Post 1, with nothing written on it, is taken out; post 0 carries Ana's note and tags,
    // so it stays, the difference listed with who took it out.
    let at_a = opened(&a, &export(&b, id_b, &dir.path().join("2.zip")).await).await;
    let removed: Vec<_> = at_a.removed.iter().map(|r| (r.what, &r.post_id)).collect();
    assert_eq!(removed, [(RemovedWhat::Post, &post_id(1))]);
    assert_eq!(at_a.conflicts.len(), 1, "{:?}", at_a.conflicts);
    let kept = &at_a.conflicts[0];
    assert_eq!(kept.kind, ConflictKind::PostRemoved);
    assert_eq!(kept.post_id.as_deref(), Some(post_id(0).as_str()));
    assert_eq!(kept.ours, "First sighting of the claim");
    assert_eq!(kept.theirs_by.fingerprint, b.by.key);
    let at_ana = filed_posts(&a, id_a).await;
    assert!(at_ana.contains(&post_id(0)) && !at_ana.contains(&post_id(1)));

    // Ben's side keeps both out: Ana's package does not file them again.
    let back = opened(&b, &export(&a, id_a, &dir.path().join("3.zip")).await).await;
    assert_eq!(back.posts_added, 0);
    let at_ben = filed_posts(&b, id_b).await;
    assert!(!at_ben.contains(&post_id(0)) && !at_ben.contains(&post_id(1)));
}

#[tokio::test]
async fn a_received_requests_cost_is_a_fact_of_the_case_never_this_installations_spending() {
    let dir = tempfile::tempdir().unwrap();
    let a = machine(&dir.path().join("a"), "Ana").await;
    let id = case(&a, 4, 10).await;
    let path = export(&a, id, &dir.path().join("case.zip")).await;
    let b = machine(&dir.path().join("b"), "Ben").await;
    let id_b = opened(&b, &path).await.investigation_id;

    let tz = "Europe/Berlin".parse().unwrap();
    let now = Utc.with_ymd_and_hms(2026, 11, 23, 20, 0, 0).unwrap();
    let spent_a = a.store.spend_totals(tz, now).await.unwrap();
    assert_eq!(
        spent_a.all_time,
        Decimal::new(6, 3),
        "the sender's spending, as a yardstick"
    );

    // Spend: nothing, today, this month or ever; no key, service or operation line.
    let spent = b.store.spend_totals(tz, now).await.unwrap();
    assert_eq!(
        (spent.today, spent.this_month, spent.all_time),
        (Decimal::ZERO, Decimal::ZERO, Decimal::ZERO)
    );
    for dimension in [
        sightline_store::SpendDimension::KeyLabel,
        sightline_store::SpendDimension::Service,
        sightline_store::SpendDimension::Operation,
    ] {
        let breakdown = b.store.spend_breakdown(dimension, tz, None).await.unwrap();
        assert!(breakdown.lines.is_empty(), "{dimension:?}: {breakdown:?}");
    }
    // Budgets: nothing spent against a limit.
    b.store
        .set_budget(&BudgetLimits {
            daily: Some(Decimal::ONE),
            monthly: Some(Decimal::ONE),
            warn_percent: 80,
        })
        .await
        .unwrap();
    let check = b.store.check_budget(tz, now, Decimal::ZERO).await.unwrap();
    assert_eq!(check.daily.unwrap().spent, Decimal::ZERO);
    assert_eq!(check.monthly.unwrap().spent, Decimal::ZERO);

    // The facts stay: each request's cost and key label as its collector recorded them, and
    // the case's cost.
    let bundle = gather::investigation(&b.store, id_b, tz, "0")
        .await
        .unwrap();
    for request in &bundle.requests {
        let billing = request.entry.billing.as_ref().expect("its cost");
        assert_eq!(billing.cost, Some(Decimal::new(15, 4)));
        assert_eq!(request.entry.key_label.as_deref(), Some("work"));
    }
    assert_eq!(bundle.cost.total, spent_a.all_time);

    // A charge written later against a received request is not taken.
    let billing = bundle.requests[0].entry.billing.clone().unwrap();
    assert!(!matches!(
        b.store.record_billing("req-0", &billing).await,
        Ok(true)
    ));
    assert_eq!(
        b.store.spend_totals(tz, now).await.unwrap().all_time,
        Decimal::ZERO
    );
}

#[tokio::test]
async fn an_evidence_bundle_is_not_opened_as_a_case_and_every_case_has_its_own_id() {
    let dir = tempfile::tempdir().unwrap();
    let a = machine(&dir.path().join("a"), "Ana").await;
    let id = case(&a, 2, 3).await;
    let other = a
        .store
        .create_investigation("Fires", "", Utc::now())
        .await
        .unwrap();
    let (first, second) = (
        a.store.case_id(id).await.unwrap().unwrap(),
        a.store.case_id(other).await.unwrap().unwrap(),
    );
    assert_ne!(first, second);
    for case_id in [&first, &second] {
        let parts: Vec<&str> = case_id.split('-').collect();
        let lengths: Vec<usize> = parts.iter().map(|p| p.len()).collect();
        assert_eq!(lengths, [8, 4, 4, 4, 12], "{case_id}");
        assert!(
            parts[2].starts_with('4') && "89ab".contains(&parts[3][..1]),
            "{case_id}"
        );
    }

    let bundle = gather::investigation(&a.store, id, "UTC".parse().unwrap(), "0")
        .await
        .unwrap();
    let path = dir.path().join("evidence.zip");
    sightline_core::evidence::seal::export(
        &a.state,
        &a.store,
        bundle,
        &path,
        &mut |_| {},
        &CancelToken::new(),
    )
    .await
    .unwrap();
    refused(dir.path(), &path, "not a case package").await;
}
