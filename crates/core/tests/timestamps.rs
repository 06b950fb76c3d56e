//! Trusted timestamps (RFC 3161) against a local authority (`openssl ts -reply` with its own
//! test CA, support/tsa.rs): a request openssl reads, tokens that check valid here and that
//! `openssl ts -verify` accepts, forged tokens found out with the reason, an authority that is
//! down, refusing or replaying an old answer, and the time to stamp 1,000 captures.

use std::path::Path;
use std::process::Command;
use std::time::Instant;

use sha2::{Digest, Sha256};
use sightline_core::timestamps::{self, ChainTrust, StampError, TokenCheck};
use sightline_sandbox::tsa::{KeyKind, TsaOptions};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::support::tsa::LocalTsa;

fn sha256(text: &str) -> [u8; 32] {
    Sha256::digest(text.as_bytes()).into()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Runs openssl in `dir`; its exit status and all it printed.
fn openssl(dir: &Path, args: &[&str]) -> (bool, String) {
    let output = Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("openssl runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.success(), text)
}

/// `openssl ts -verify` of a reply for `digest` against the CA certificate at `ca`.
fn openssl_verifies(reply: &[u8], digest: &[u8; 32], ca: &Path) -> (bool, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("reply.tsr"), reply).unwrap();
    let (ok, text) = openssl(
        dir.path(),
        &[
            "ts",
            "-verify",
            "-in",
            "reply.tsr",
            "-digest",
            &hex(digest),
            "-CAfile",
            ca.to_str().unwrap(),
        ],
    );
    (ok && text.contains("Verification: OK"), text)
}

fn openssl_fingerprint(pem: &Path) -> String {
    let (ok, text) = openssl(
        Path::new("."),
        &[
            "x509",
            "-noout",
            "-fingerprint",
            "-sha256",
            "-in",
            pem.to_str().unwrap(),
        ],
    );
    assert!(ok, "{text}");
    text.trim()
        .rsplit_once('=')
        .expect("sha256 Fingerprint=…")
        .1
        .to_owned()
}

fn invalid_why(check: TokenCheck) -> String {
    match check {
        TokenCheck::Invalid { why } => why,
        valid => panic!("expected an invalid token, got {valid:?}"),
    }
}

#[test]
fn a_request_is_read_by_openssl_as_a_v1_sha256_request_with_nonce_and_cert_req() {
    let dir = tempfile::tempdir().unwrap();
    let digest = sha256("a capture's exact bytes");
    std::fs::write(
        dir.path().join("req.tsq"),
        timestamps::request_der(&digest, 0x0123_4567_89ab_cdef),
    )
    .unwrap();
    let (ok, text) = openssl(dir.path(), &["ts", "-query", "-in", "req.tsq", "-text"]);
    assert!(ok, "{text}");
    assert!(text.contains("Version: 1"), "{text}");
    assert!(text.contains("Hash Algorithm: sha256"), "{text}");
    assert!(text.contains("Nonce: 0x0123456789ABCDEF"), "{text}");
    assert!(text.contains("Certificate required: yes"), "{text}");
    // openssl prints the imprint 16 bytes a line: "0000 - b9 78 … 51-d8 …   text".
    let printed: String = text
        .split("Message data:")
        .nth(1)
        .expect("the imprint")
        .lines()
        .skip(1)
        .take(2)
        .map(|line| {
            let bytes = line.split_once(" - ").expect("an offset").1;
            bytes[..47].replace(['-', ' '], "")
        })
        .collect();
    assert_eq!(printed.to_lowercase(), hex(&digest), "{text}");
}

/// A token from each kind of authority checks valid, chained to the CA the user added, and
/// openssl accepts the same reply.
#[tokio::test]
async fn tokens_from_a_real_authority_check_valid_and_openssl_verifies_them() {
    // Key, ESS signing-certificate v2 (else v1), digits of a second in genTime.
    let kinds = [
        (KeyKind::Rsa, false, 0),
        (KeyKind::Rsa, true, 6),
        (KeyKind::P256, false, 0),
        (KeyKind::P384, true, 3),
    ];
    let client = timestamps::client();
    for (key, ess_v2, fraction_digits) in kinds {
        let local = LocalTsa::with(|o| TsaOptions {
            key,
            ess_v2,
            fraction_digits,
            ..o
        })
        .await;
        let digest = sha256(&format!("{key:?} {ess_v2}"));
        let before = chrono::Utc::now();
        let stamp = timestamps::ask(&client, &local.tsa.url(), &digest)
            .await
            .unwrap_or_else(|e| panic!("{key:?}: {e}"));
        let after = chrono::Utc::now();
        // openssl writes whole seconds.
        assert!(
            stamp.stamped_at >= before - chrono::Duration::seconds(1) && stamp.stamped_at <= after,
            "{key:?}: {} not between {before} and {after}",
            stamp.stamped_at
        );
        if fraction_digits == 6 {
            // Microseconds (a whole second has one chance in a million).
            assert_ne!(stamp.stamped_at.timestamp_subsec_micros(), 0);
        }
        assert_eq!(stamp.authority, "Sightline Test TSA (Sightline tests)");
        assert_eq!(
            stamp
                .certificates_pem
                .matches("-----BEGIN CERTIFICATE-----")
                .count(),
            2,
            "the TSA's certificate and its CA's"
        );
        assert!(stamp
            .certificates_pem
            .starts_with(&std::fs::read_to_string(local.dir.path().join("tsa.pem")).unwrap()));

        let ca = local.tsa.ca_pem_path();
        let (ok, text) = openssl_verifies(&stamp.reply_der, &digest, &ca);
        assert!(ok, "{key:?}: openssl refuses the token: {text}");

        let fingerprint = openssl_fingerprint(&ca);
        match timestamps::check(&stamp.reply_der, &digest, Some(&local.tsa.ca_pem())) {
            TokenCheck::Valid {
                stamped_at,
                authority,
                chain,
                summary,
            } => {
                assert_eq!(stamped_at, stamp.stamped_at);
                assert_eq!(authority, stamp.authority);
                assert_eq!(
                    chain,
                    ChainTrust::Added {
                        root: "Sightline Test Root CA (Sightline tests)".into(),
                        fingerprint: fingerprint.clone(),
                    }
                );
                assert!(
                    summary.starts_with(
                        "Sightline Test TSA (Sightline tests) attests that it saw this capture's \
                         SHA-256 hash at "
                    ),
                    "{summary}"
                );
                assert!(
                    summary.ends_with(timestamps::REVOCATION_NOT_CHECKED),
                    "{summary}"
                );
            }
            invalid => panic!("{key:?}, ESS v2 {ess_v2}: {invalid:?}"),
        }
        // With no certificate added, the chain ends at the root the token carries, named.
        match timestamps::check(&stamp.reply_der, &digest, None) {
            TokenCheck::Valid { chain, .. } => assert_eq!(
                chain,
                ChainTrust::CarriedOnly {
                    root: "Sightline Test Root CA (Sightline tests)".into(),
                    fingerprint,
                    self_signed: true,
                    added_checked: false,
                }
            ),
            invalid => panic!("{key:?}: {invalid:?}"),
        }
    }
}

/// The span of the first `YYYYMMDDHHMMSSZ` (the TSTInfo's genTime) in a reply.
fn gen_time_at(reply: &[u8]) -> usize {
    reply
        .windows(15)
        .position(|w| {
            w[..14].iter().all(u8::is_ascii_digit) && w[14] == b'Z' && w.starts_with(b"20")
        })
        .expect("a genTime in the reply")
}

#[tokio::test]
async fn forged_tokens_are_invalid_and_say_why() {
    let local = LocalTsa::start().await;
    let client = timestamps::client();
    let digest = sha256("the capture");
    let other = sha256("another capture");
    let stamp = timestamps::ask(&client, &local.tsa.url(), &digest)
        .await
        .unwrap();
    let ca = local.tsa.ca_pem();
    let ca_path = local.tsa.ca_pem_path();

    // One byte of the TSTInfo changed: its time, one minute on (…HHMMSS: the minute's units).
    let mut moved = stamp.reply_der.clone();
    let at = gen_time_at(&moved) + 11;
    moved[at] = if moved[at] == b'9' {
        b'8'
    } else {
        moved[at] + 1
    };
    let why = invalid_why(timestamps::check(&moved, &digest, Some(&ca)));
    assert!(why.contains("changed after it was signed"), "{why}");
    assert!(!openssl_verifies(&moved, &digest, &ca_path).0);

    // The signature replaced by the authority's own signature over another token.
    let second = timestamps::ask(&client, &local.tsa.url(), &other)
        .await
        .unwrap();
    let mut swapped = stamp.reply_der.clone();
    let n = swapped.len();
    // RSA 2048: the signature is the reply's last 256 bytes (no unsigned attributes).
    swapped[n - 256..].copy_from_slice(&second.reply_der[second.reply_der.len() - 256..]);
    assert_ne!(swapped, stamp.reply_der);
    let why = invalid_why(timestamps::check(&swapped, &digest, Some(&ca)));
    assert!(why.contains("the signature does not match"), "{why}");
    assert!(!openssl_verifies(&swapped, &digest, &ca_path).0);

    // A genuine token, checked for another hash.
    let why = invalid_why(timestamps::check(&stamp.reply_der, &other, Some(&ca)));
    assert!(why.contains("stamps another hash"), "{why}");
    assert!(!openssl_verifies(&stamp.reply_der, &other, &ca_path).0);

    // Not a reply at all, and a reply cut short.
    let why = invalid_why(timestamps::check(b"not a token", &digest, None));
    assert!(why.contains("not a timestamp reply"), "{why}");
    let why = invalid_why(timestamps::check(&stamp.reply_der[..n / 2], &digest, None));
    assert!(why.contains("not a timestamp reply"), "{why}");
}

/// A genuine token from another authority, checked against the CA the user added: valid as a
/// signature, but its chain reaches only the other CA, which the check names.
#[tokio::test]
async fn a_token_from_another_authority_is_not_chained_to_the_added_certificate() {
    let ours = LocalTsa::start().await;
    let theirs = LocalTsa::with(|o| TsaOptions {
        ca_name: "Other Test Root CA".into(),
        ..o
    })
    .await;
    let digest = sha256("the capture");
    let stamp = timestamps::ask(&timestamps::client(), &theirs.tsa.url(), &digest)
        .await
        .unwrap();
    let (ok, _) = openssl_verifies(&stamp.reply_der, &digest, &ours.tsa.ca_pem_path());
    assert!(!ok, "openssl too refuses another authority's chain");
    match timestamps::check(&stamp.reply_der, &digest, Some(&ours.tsa.ca_pem())) {
        TokenCheck::Valid { chain, .. } => {
            assert_eq!(
                chain,
                ChainTrust::CarriedOnly {
                    root: "Other Test Root CA (Sightline tests)".into(),
                    fingerprint: openssl_fingerprint(&theirs.tsa.ca_pem_path()),
                    self_signed: true,
                    added_checked: true,
                }
            );
            let words = chain.words();
            assert!(
                words.contains("reaches none of the authority certificates you added"),
                "{words}"
            );
        }
        invalid => panic!("{invalid:?}"),
    }
    // Its own CA added, it chains.
    let both = format!("{}{}", ours.tsa.ca_pem(), theirs.tsa.ca_pem());
    match timestamps::check(&stamp.reply_der, &digest, Some(&both)) {
        TokenCheck::Valid {
            chain: ChainTrust::Added { root, .. },
            ..
        } => assert_eq!(root, "Other Test Root CA (Sightline tests)"),
        other => panic!("{other:?}"),
    }
}

/// Serves `reply` to every request, as an authority (or someone between) replaying an old answer.
async fn replaying(reply: Vec<u8>) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/", listener.local_addr().unwrap());
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let reply = reply.clone();
            tokio::spawn(async move {
                // The request's head and its small body, then the old answer.
                let mut seen = Vec::new();
                let mut buffer = [0u8; 4096];
                while !seen.windows(4).any(|w| w == b"\r\n\r\n") {
                    match socket.read(&mut buffer).await {
                        Ok(0) | Err(_) => return,
                        Ok(n) => seen.extend_from_slice(&buffer[..n]),
                    }
                }
                let head = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/timestamp-reply\r\n\
                     content-length: {}\r\nconnection: close\r\n\r\n",
                    reply.len()
                );
                let _ = socket.write_all(head.as_bytes()).await;
                let _ = socket.write_all(&reply).await;
            });
        }
    });
    url
}

#[tokio::test]
async fn ask_refuses_a_replayed_answer_and_says_when_to_try_again() {
    let local = LocalTsa::start().await;
    let client = timestamps::client();
    let digest = sha256("the capture");
    let old = timestamps::ask(&client, &local.tsa.url(), &digest)
        .await
        .unwrap();

    // The same hash's genuine token, but for an earlier request: its nonce is not this one's.
    let replay = replaying(old.reply_der.clone()).await;
    let error = timestamps::ask(&client, &replay, &digest)
        .await
        .unwrap_err();
    assert!(matches!(error, StampError::BadReply { .. }), "{error:?}");
    assert!(error.to_string().contains("nonce"), "{error}");
    assert!(!error.retry_later());

    // Down: 503, worth trying later.
    local.tsa.set_down(true);
    let error = timestamps::ask(&client, &local.tsa.url(), &digest)
        .await
        .unwrap_err();
    assert!(error.retry_later(), "{error:?}");
    assert!(
        error.to_string().contains("could not be reached"),
        "{error}"
    );
    local.tsa.set_down(false);

    // Refusing: openssl's own rejection, its words passed on.
    local.tsa.set_refusing(true);
    let error = timestamps::ask(&client, &local.tsa.url(), &digest)
        .await
        .unwrap_err();
    match &error {
        StampError::Refused { message } => {
            assert!(message.contains("rejected the request"), "{message}")
        }
        other => panic!("{other:?}"),
    }
    assert!(!error.retry_later());
    local.tsa.set_refusing(false);

    // Killed: no connection, worth trying later; restarted on the same port and folder, the
    // same authority stamps again.
    let url = local.tsa.url();
    let port = local.tsa.port();
    let ca = local.tsa.ca_pem();
    let mut local = local;
    local.tsa.stop().await;
    let error = timestamps::ask(&client, &url, &digest).await.unwrap_err();
    assert!(error.retry_later(), "{error:?}");
    let local = local.restart().await;
    assert_eq!(local.tsa.port(), port);
    let stamp = timestamps::ask(&client, &url, &digest).await.unwrap();
    assert!(matches!(
        timestamps::check(&stamp.reply_der, &digest, Some(&ca)),
        TokenCheck::Valid {
            chain: ChainTrust::Added { .. },
            ..
        }
    ));
}

/// The figure for the note: 1,000 captures stamped one after another, one request each.
/// `cargo test -p sightline-core --test core timestamps::stamping_1000 -- --ignored --nocapture`
#[tokio::test]
#[ignore = "a measurement: about half a minute"]
async fn stamping_1000_captures_one_request_each() {
    let local = LocalTsa::start().await;
    let client = timestamps::client();
    let url = local.tsa.url();
    let ca = local.tsa.ca_pem();
    let started = Instant::now();
    let mut stamps = Vec::with_capacity(1000);
    for i in 0..1000 {
        let digest = sha256(&format!("capture {i}"));
        stamps.push((
            digest,
            timestamps::ask(&client, &url, &digest).await.unwrap(),
        ));
    }
    let asked = started.elapsed();
    let started = Instant::now();
    for (digest, stamp) in &stamps {
        assert!(matches!(
            timestamps::check(&stamp.reply_der, digest, Some(&ca)),
            TokenCheck::Valid { .. }
        ));
    }
    let checked = started.elapsed();
    let bytes: usize = stamps.iter().map(|(_, s)| s.reply_der.len()).sum();
    println!(
        "stamped 1000 captures in {:.1} s ({:.1} ms each), requests made: {}; checked all \
         1000 tokens in {:.2} s; replies {} bytes each on average",
        asked.as_secs_f64(),
        asked.as_millis() as f64 / 1000.0,
        local.tsa.served(),
        checked.as_secs_f64(),
        bytes / stamps.len()
    );
    assert_eq!(local.tsa.served(), 1000);
}

#[tokio::test]
async fn added_certificates_that_do_not_read_are_said_so_and_nothing_is_claimed() {
    let local = LocalTsa::start().await;
    let digest = sha256("the capture");
    let stamp = timestamps::ask(&timestamps::client(), &local.tsa.url(), &digest)
        .await
        .unwrap();
    let ca = local.tsa.ca_pem();
    assert_eq!(timestamps::certificates_problem(&ca), None);
    let none = timestamps::certificates_problem("").expect("a problem");
    assert!(none.starts_with("There is no certificate"), "{none}");
    let words = timestamps::certificates_problem("my authority").expect("a problem");
    assert!(words.starts_with("There is no certificate"), "{words}");
    // openssl's bundles put text between certificates, and a pasted one may end in spaces.
    let bundle = format!("subject=CN = the root\n{ca}  \n\n{ca}  ");
    assert_eq!(timestamps::certificates_problem(&bundle), None);
    let cut = &ca[..ca.len() / 2];
    let cut = format!("{cut}\n-----END CERTIFICATE-----\n");
    let broken = timestamps::certificates_problem(&cut).expect("a problem");
    assert!(broken.contains("cannot be read as PEM"), "{broken}");
    let why = invalid_why(timestamps::check(&stamp.reply_der, &digest, Some(&cut)));
    assert!(why.starts_with("The token was not checked"), "{why}");
}
