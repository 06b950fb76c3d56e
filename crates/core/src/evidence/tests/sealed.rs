//! The sealed bundle: the manifest's signature checks with the key inside the bundle (in Rust
//! and with the exact openssl command `VERIFY.txt` gives), the manifest carries the collection
//! fields and each capture's stamp state, `VERIFY.txt` says how to check each part, the report
//! shows the Berkeley Protocol's fields per post, and a manifest stamper that fails leaves a
//! complete bundle that says so.

use std::fs::File;
use std::path::Path;
use std::process::Command;

use super::super::instructions::SIGNATURE_COMMAND;
use super::super::seal::{CaptureToken, ManifestStamper, StampFuture};
use super::*;
use crate::signing::{self, PublicKey};

fn unzip(path: &Path, into: &Path) {
    zip::ZipArchive::new(File::open(path).unwrap())
        .unwrap()
        .extract(into)
        .unwrap();
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap()
}

/// Decodes standard base64 (the test's own reading, not the writer's code).
fn unbase64(text: &str) -> Vec<u8> {
    const ALPHABET: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut bits = 0u32;
    let mut count = 0;
    let mut out = Vec::new();
    for c in text.trim().chars().filter(|c| *c != '=') {
        bits = bits << 6 | ALPHABET.find(c).expect("base64") as u32;
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count) as u8);
        }
    }
    out
}

fn signature_of(dir: &Path) -> signing::Signature {
    let key = PublicKey::from_pem(&read(dir, SIGNING_KEY_PEM)).unwrap();
    signing::Signature {
        bytes: unbase64(&read(dir, MANIFEST_SIG)).try_into().unwrap(),
        key_fingerprint: key.fingerprint(),
    }
}

#[tokio::test]
async fn the_manifest_signature_verifies_with_the_included_key_and_fails_on_any_edit() {
    let dir = tempfile::tempdir().unwrap();
    let (bundle, bodies) = sample();
    let signer = signer().await;
    let path = dir.path().join("b.zip");
    let outcome = write_sealed(&bundle, &bodies, &seal(&signer), &path).await;
    let out = dir.path().join("u");
    unzip(&path, &out);

    let manifest = std::fs::read(out.join(MANIFEST_JSON)).unwrap();
    let sig_text = read(&out, MANIFEST_SIG);
    assert!(
        sig_text.ends_with('\n') && sig_text.lines().count() == 1,
        "one line"
    );
    let key = PublicKey::from_pem(&read(&out, SIGNING_KEY_PEM)).unwrap();
    assert_eq!(key, signer.public_key(), "the installation's key");
    let signature = signature_of(&out);
    assert!(signing::verify(&key, &manifest, &signature));
    let mut edited = manifest.clone();
    let at = edited.iter().position(|b| *b == b'{').unwrap();
    edited.insert(at + 1, b' ');
    assert!(
        !signing::verify(&key, &edited, &signature),
        "a changed byte fails"
    );

    let BundleOutcome::Written {
        manifest_sha256,
        signed_by,
        manifest_stamp,
        ..
    } = outcome
    else {
        panic!("not written")
    };
    assert_eq!(manifest_sha256, hex(&Sha256::digest(&manifest)));
    assert_eq!(signed_by, signer.public_key().fingerprint());
    assert_eq!(
        manifest_stamp,
        ManifestStamp::NotStamped {
            why: "no timestamp authority is set".into()
        }
    );
}

#[tokio::test]
async fn the_openssl_commands_in_verify_txt_check_the_signature_and_the_key() {
    if !have("openssl") || !have("base64") {
        println!("skipped: openssl or base64 is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (bundle, bodies) = sample();
    let signer = signer().await;
    let path = dir.path().join("b.zip");
    write_sealed(&bundle, &bodies, &seal(&signer), &path).await;
    let out = dir.path().join("u");
    unzip(&path, &out);
    let verify = read(&out, VERIFY_TXT);
    assert!(verify.contains(SIGNATURE_COMMAND), "{verify}");
    let run = |command: &str| {
        Command::new("sh")
            .args(["-c", command])
            .current_dir(&out)
            .output()
            .unwrap()
    };
    let checked = run(SIGNATURE_COMMAND);
    assert!(
        checked.status.success()
            && String::from_utf8_lossy(&checked.stdout).contains("Signature Verified Successfully"),
        "{checked:?}"
    );
    let fingerprint = signer.public_key().fingerprint();
    let command = "openssl pkey -pubin -in signing-key.pem -outform DER | sha256sum";
    assert!(verify.contains(command) && verify.contains(&fingerprint));
    let printed = run(command);
    assert!(String::from_utf8_lossy(&printed.stdout).starts_with(&fingerprint));

    // The same command refuses a manifest changed by one byte.
    let manifest = read(&out, MANIFEST_JSON).replace("\"Sightline\"", "\"Sightlime\"");
    std::fs::write(out.join(MANIFEST_JSON), manifest).unwrap();
    let refused = run(SIGNATURE_COMMAND);
    assert!(!refused.status.success(), "{refused:?}");
}

/// A stamper that answers like an authority that is down.
struct Down;

impl ManifestStamper for Down {
    fn stamp<'a>(&'a self, _digest: &'a [u8; 32]) -> StampFuture<'a> {
        Box::pin(async {
            Err("the timestamp authority did not answer (connection refused)".to_owned())
        })
    }
}

#[tokio::test]
async fn the_manifest_carries_who_with_what_and_each_captures_stamp_state() {
    let dir = tempfile::tempdir().unwrap();
    let (mut bundle, bodies) = sample();
    bundle.requests[0].stamp = StampState::Failed("the authority refused it".into());
    bundle.custody = Some(CustodyLog {
        jsonl: b"{\"seq\":1}\n{\"seq\":2}\n".to_vec(),
        entries: 2,
        head_hash: "ab".repeat(32),
        hash_rule: "Each line is one entry.".into(),
    });
    let signer = signer().await;
    let mut sealed = seal(&signer);
    sealed.authority = Some("http://127.0.0.1:9/tsa".into());
    sealed.stamper = Some(&Down);
    let path = dir.path().join("b.zip");
    let outcome = write_sealed(&bundle, &bodies, &sealed, &path).await;
    let BundleOutcome::Written { manifest_stamp, .. } = outcome else {
        panic!("not written")
    };
    assert_eq!(
        manifest_stamp,
        ManifestStamp::NotStamped {
            why: "the timestamp authority did not answer (connection refused)".into()
        },
        "the export completes and says the manifest is not stamped"
    );
    let out = dir.path().join("u");
    unzip(&path, &out);
    assert!(!out.join(MANIFEST_TSR).exists());
    if have("sha256sum") {
        let check = Command::new("sha256sum")
            .args(["-c", "--strict", SHA256SUMS])
            .current_dir(&out)
            .output()
            .unwrap();
        assert!(check.status.success(), "{check:?}");
    }
    let sums = read(&out, SHA256SUMS);
    for name in [
        MANIFEST_SIG,
        MANIFEST_JSON,
        CUSTODY_JSONL,
        SIGNING_KEY_PEM,
        VERIFY_TXT,
    ] {
        assert!(
            sums.lines().any(|l| l.ends_with(&format!("  {name}"))),
            "{name} in SHA256SUMS"
        );
    }

    let manifest: serde_json::Value = serde_json::from_str(&read(&out, MANIFEST_JSON)).unwrap();
    assert_eq!(manifest["format_version"], 3);
    assert_eq!(manifest["collector"], "Jane Doe");
    assert_eq!(
        manifest["installation_fingerprint"],
        signer.public_key().fingerprint()
    );
    assert_eq!(manifest["tool"]["name"], "Sightline");
    assert_eq!(manifest["tool"]["version"], "0.1.0");
    assert!(manifest["os"].as_str().unwrap().len() > 3);
    assert_eq!(manifest["timestamp_authority"], "http://127.0.0.1:9/tsa");
    assert_eq!(
        manifest["custody"],
        serde_json::json!({"file": CUSTODY_JSONL, "entries": 2, "head_hash": "ab".repeat(32)})
    );
    assert_eq!(read(&out, CUSTODY_JSONL), "{\"seq\":1}\n{\"seq\":2}\n");
    let captures = manifest["captures"].as_array().unwrap();
    assert_eq!(captures.len(), 2);
    assert_eq!(
        captures[0]["file"],
        "responses/0001-twitter-search-req-7.json"
    );
    assert_eq!(captures[0]["sha256"], hex(&Sha256::digest(&bodies.0[&7])));
    assert_eq!(captures[0]["captured_at_utc"], "2026-11-18T17:04:12.345Z");
    assert_eq!(
        captures[0]["stamp"],
        serde_json::json!({"state": "failed", "why": "the authority refused it"})
    );
    assert_eq!(
        captures[1]["stamp"],
        serde_json::json!({"state": "none", "why": "captured before provenance was kept"})
    );
    let listed: Vec<&str> = manifest["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    for name in [MANIFEST_JSON, MANIFEST_SIG, MANIFEST_TSR, SHA256SUMS] {
        assert!(!listed.contains(&name), "{name} is not in its own list");
    }
    assert!(listed.contains(&CUSTODY_JSONL) && listed.contains(&SIGNING_KEY_PEM));

    let verify = read(&out, VERIFY_TXT);
    for words in [
        "sha256sum -c SHA256SUMS",
        "Each line is one entry.",
        &"ab".repeat(32),
        "Jane Doe",
        "anyone can make a CA",
        "None of the captures in this bundle is stamped.",
        "openssl ts -verify -in manifest.json.tsr -data manifest.json -CAfile <ca.pem>",
    ] {
        assert!(
            verify.contains(words),
            "VERIFY.txt lacks {words:?}:\n{verify}"
        );
    }
}

#[tokio::test]
async fn the_report_shows_the_collection_fields_per_post_and_the_fingerprint_on_top() {
    let dir = tempfile::tempdir().unwrap();
    let (mut bundle, bodies) = sample();
    bundle.requests[0].stamp = StampState::Waiting;
    let signer = signer().await;
    let path = dir.path().join("b.zip");
    write_sealed(&bundle, &bodies, &seal(&signer), &path).await;
    let out = dir.path().join("u");
    unzip(&path, &out);
    let html = read(&out, REPORT_HTML);
    let fingerprint = signer.public_key().fingerprint();
    let top = html.find(&fingerprint).expect("the fingerprint is shown");
    assert!(
        top < html.find("<h2>Posts").unwrap(),
        "the fingerprint comes before the posts"
    );
    assert!(html.contains(&format!(
        "id=\"installation-fingerprint\">{fingerprint}</dd>"
    )));
    // The first post came in request 7: each Berkeley field in its card.
    let card = &html[html.find(&format!("post {LONG_ID}")).unwrap()..];
    let card = &card[..card.find("</article>").unwrap()];
    for words in [
        "<dt>Asked</dt><dd>X search <span class=\"hash\">{&quot;query&quot;:&quot;flood&quot;}</span>",
        "<dt>Of</dt><dd>http://127.0.0.1:8787</dd>",
        "<dt>Captured (this computer)</dt><dd>2026-11-18 17:04:12 UTC · 2026-11-18 18:04:12 CET (Europe/Berlin)</dd>",
        "<dt>Stamped (authority)</dt><dd>not stamped: waiting for the timestamp authority</dd>",
        "<dt>Collected by</dt><dd>Jane Doe</dd>",
        "<dt>Tool</dt><dd>Sightline 0.1.0</dd>",
    ] {
        assert!(card.contains(words), "the card lacks {words:?}:\n{card}");
    }
    let hash = &bundle.requests[0].capture.as_ref().unwrap().sha256;
    assert!(card.contains(&format!(
        "<dt>SHA-256</dt><dd><span class=\"hash\">{hash}</span>"
    )));
    // The post from the request captured before provenance says what is not known.
    let card = &html[html.find("post 5<").unwrap()..];
    let card = &card[..card.find("</article>").unwrap()];
    assert!(
        card.contains("not stamped: captured before provenance was kept"),
        "{card}"
    );
}

#[test]
fn a_tokens_file_is_named_after_its_response() {
    assert_eq!(
        token_file_name("responses/0001-twitter-search-req-7.json"),
        "timestamps/0001-twitter-search-req-7.tsr"
    );
    assert_eq!(
        token_file_name("responses/0002-web-crawl-req-8.html.txt"),
        "timestamps/0002-web-crawl-req-8.html.tsr"
    );
}

#[test]
fn base64_is_the_standard_padded_one() {
    for (bytes, text) in [
        (&b""[..], ""),
        (b"f", "Zg=="),
        (b"fo", "Zm8="),
        (b"foo", "Zm9v"),
        (b"foob", "Zm9vYg=="),
    ] {
        assert_eq!(seal::base64(bytes), text);
        assert_eq!(unbase64(text), bytes);
    }
}

/// A token that carries certificates goes under timestamps/ with its chain once, and the
/// manifest names both (the token's validity is checked with a real authority elsewhere).
#[tokio::test]
async fn stamped_captures_place_their_token_and_chain_once() {
    let dir = tempfile::tempdir().unwrap();
    let (mut bundle, mut bodies) = sample();
    let mut second = bundle.requests[0].clone();
    second.entry.id = 9;
    second.entry.request_id = "req-9".into();
    bodies.0.insert(9, bodies.0[&7].clone());
    bundle.requests.push(second);
    let token = |der: &[u8]| {
        StampState::Stamped(CaptureToken {
            reply_der: der.to_vec(),
            stamped_at: Utc.with_ymd_and_hms(2026, 11, 18, 22, 24, 13).unwrap(),
            authority: "CN=Test TSA".into(),
            certificates_pem: "-----BEGIN CERTIFICATE-----\nMA==\n-----END CERTIFICATE-----\n"
                .into(),
        })
    };
    bundle.requests[0].stamp = token(b"first");
    bundle.requests[2].stamp = token(b"second");
    let signer = signer().await;
    let path = dir.path().join("b.zip");
    // The authority's CA the user added in Settings travels too, after the tokens' chains.
    let ca = "-----BEGIN CERTIFICATE-----\nMQ==\n-----END CERTIFICATE-----\n";
    let mut sealed = seal(&signer);
    sealed.authority_ca_pem = Some(ca.into());
    write_sealed(&bundle, &bodies, &sealed, &path).await;
    let out = dir.path().join("u");
    unzip(&path, &out);
    assert_eq!(
        std::fs::read(out.join("timestamps/0001-twitter-search-req-7.tsr")).unwrap(),
        b"first"
    );
    assert_eq!(
        std::fs::read(out.join("timestamps/0003-twitter-search-req-9.tsr")).unwrap(),
        b"second"
    );
    let mut chains: Vec<_> = std::fs::read_dir(out.join("timestamps"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".pem"))
        .collect();
    chains.sort();
    assert_eq!(
        chains,
        ["certificates-1.pem", "certificates-2.pem"],
        "one chain, written once, and the CA from Settings"
    );
    assert_eq!(read(&out, "timestamps/certificates-2.pem"), ca);
    let manifest: serde_json::Value = serde_json::from_str(&read(&out, MANIFEST_JSON)).unwrap();
    assert_eq!(
        manifest["captures"][0]["stamp"],
        serde_json::json!({
            "state": "stamped",
            "file": "timestamps/0001-twitter-search-req-7.tsr",
            "certificates": "timestamps/certificates-1.pem",
            "stamped_at_utc": "2026-11-18T22:24:13.000Z",
            "authority": "CN=Test TSA",
        })
    );
    let verify = read(&out, VERIFY_TXT);
    let hash = &bundle.requests[0].capture.as_ref().unwrap().sha256;
    assert!(verify.contains(&format!(
        "openssl ts -verify -in timestamps/0001-twitter-search-req-7.tsr -digest {hash} -CAfile <ca.pem> -untrusted timestamps/certificates-1.pem"
    )));
    assert!(verify.contains("(2 of 2 captures stamped)"), "{verify}");
    assert!(
        verify.contains("The CA added in Settings: timestamps/certificates-2.pem"),
        "{verify}"
    );
}
