//! The installation's signing identity: sign and verify, the key made once and kept in the
//! keychain only, rotation keeping earlier public keys (so what they signed still verifies),
//! openssl reading the exported key, "Collected by", and no private key in anything that
//! crosses IPC. Most run over the in-memory keychain; one over the real Secret Service
//! (scripts/with-keyring.sh), like the keychain's own test.

use std::path::Path;
use std::process::Command;
use std::sync::Arc;

use ed25519_dalek::pkcs8::DecodePrivateKey;
use sightline_core::environment::Environment;
use sightline_core::errors::CommandError;
use sightline_core::keychain::{KeyringStore, MemoryStore, Secret, SecretStore};
use sightline_core::settings::AppSettings;
use sightline_core::signing::{self, RetiredBecause, KEYCHAIN_LABEL};
use sightline_core::state::AppState;

fn app(dir: &Path, secrets: Arc<dyn SecretStore>) -> AppState {
    AppState::new(dir.to_owned(), Environment::default(), secrets).unwrap()
}

fn memory_app(dir: &Path) -> (AppState, Arc<MemoryStore>) {
    let secrets = Arc::new(MemoryStore::default());
    (app(dir, secrets.clone()), secrets)
}

/// Standard base64, to look for a key in that form too.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Every way the private key in `secrets` could be written: its PKCS#8 PEM body lines, its
/// 32 secret bytes in hex (either case) and base64.
fn private_key_forms(secrets: &dyn SecretStore) -> Vec<String> {
    let stored = secrets.get(KEYCHAIN_LABEL).unwrap().expect("a signing key");
    let key = ed25519_dalek::SigningKey::from_pkcs8_pem(stored.expose()).unwrap();
    let seed = key.to_bytes();
    let mut forms: Vec<String> = stored
        .expose()
        .lines()
        .filter(|line| !line.starts_with("-----"))
        .map(str::to_owned)
        .collect();
    forms.push(hex(&seed));
    forms.push(hex(&seed).to_uppercase());
    // Without the padding, and a little shorter, so a differently aligned encoding is caught.
    forms.push(base64(&seed)[..40].to_owned());
    forms
}

fn assert_holds_none(text: &str, forms: &[String], what: &str) {
    for form in forms {
        assert!(
            !text.contains(form.as_str()),
            "{what} holds the private key"
        );
    }
}

#[tokio::test]
async fn a_signature_verifies_and_a_flipped_bit_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let (state, _) = memory_app(dir.path());
    let message = b"manifest.json: 3 files, sha256 ...".to_vec();
    let signature = signing::sign(&state, &message).await.unwrap();
    let identity = signing::identity(&state).await.unwrap();
    assert_eq!(signature.key_fingerprint, identity.current.fingerprint);
    let key = signing::known_key(&state, &signature.key_fingerprint)
        .unwrap()
        .expect("the signing key is kept");
    assert!(signing::verify(&key, &message, &signature));

    for bit in [0, 7, 8 * message.len() - 1] {
        let mut changed = message.clone();
        changed[bit / 8] ^= 1 << (bit % 8);
        assert!(
            !signing::verify(&key, &changed, &signature),
            "message bit {bit} flipped still verifies"
        );
    }
    for bit in [0, 255, 511] {
        let mut changed = signature.clone();
        changed.bytes[bit / 8] ^= 1 << (bit % 8);
        assert!(
            !signing::verify(&key, &message, &changed),
            "signature bit {bit} flipped still verifies"
        );
    }
    // Another installation's key does not vouch for this one's signature.
    let other_dir = tempfile::tempdir().unwrap();
    let (other, _) = memory_app(other_dir.path());
    let other_key = signing::signer(&other).await.unwrap().public_key();
    assert!(!signing::verify(&other_key, &message, &signature));
}

#[tokio::test]
async fn the_key_is_made_once_and_its_private_half_stays_in_the_keychain() {
    let dir = tempfile::tempdir().unwrap();
    let (state, secrets) = memory_app(dir.path());
    assert_eq!(secrets.get(KEYCHAIN_LABEL).unwrap(), None);
    let first = signing::identity(&state).await.unwrap();
    assert_eq!(first.current.fingerprint.len(), 64);
    assert!(first.earlier.is_empty());
    let stored = secrets.get(KEYCHAIN_LABEL).unwrap().unwrap();
    assert!(stored.expose().starts_with("-----BEGIN PRIVATE KEY-----"));

    // A second use, and a restarted app on the same folder and keychain, find the same key.
    assert_eq!(signing::identity(&state).await.unwrap(), first);
    let restarted = app(dir.path(), secrets.clone());
    assert_eq!(signing::identity(&restarted).await.unwrap(), first);

    // The data folder holds the public key only.
    let forms = private_key_forms(secrets.as_ref());
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
            assert_holds_none(&text, &forms, &path.display().to_string());
        }
    }
    // Nor does a signer print it.
    let signer = signing::signer(&state).await.unwrap();
    assert_holds_none(&format!("{signer:?}"), &forms, "a signer's Debug");
}

#[tokio::test]
async fn a_rotated_out_key_still_verifies_what_it_signed() {
    let dir = tempfile::tempdir().unwrap();
    let (state, _) = memory_app(dir.path());
    let message = b"signed before the rotation";
    let old_signature = signing::sign(&state, message).await.unwrap();
    let before = signing::identity(&state).await.unwrap();

    let after = signing::rotate(&state).await.unwrap();
    assert_ne!(after.current.fingerprint, before.current.fingerprint);
    assert_eq!(after.earlier.len(), 1);
    let old = &after.earlier[0];
    assert_eq!(old.fingerprint, before.current.fingerprint);
    assert_eq!(old.created_at, before.current.created_at);
    assert!(old.retired_at.is_some());
    assert_eq!(old.retired_because, Some(RetiredBecause::Rotated));

    // New signatures are by the new key; the old one is still found by its fingerprint.
    let new_signature = signing::sign(&state, message).await.unwrap();
    assert_eq!(new_signature.key_fingerprint, after.current.fingerprint);
    let old_key = signing::known_key(&state, &old_signature.key_fingerprint)
        .unwrap()
        .expect("the rotated-out key is kept");
    assert!(signing::verify(&old_key, message, &old_signature));
    assert!(!signing::verify(&old_key, message, &new_signature));

    // Twice more: newest first, nothing lost, and kept across a restart.
    signing::rotate(&state).await.unwrap();
    let third = signing::rotate(&state).await.unwrap();
    let fingerprints: Vec<&str> = third
        .earlier
        .iter()
        .map(|k| k.fingerprint.as_str())
        .collect();
    assert_eq!(fingerprints.len(), 3);
    assert_eq!(fingerprints[1], after.current.fingerprint);
    assert_eq!(fingerprints[2], before.current.fingerprint);
    let restarted = app(dir.path(), state.secrets.clone());
    assert!(signing::known_key(&restarted, &before.current.fingerprint)
        .unwrap()
        .is_some());
}

#[tokio::test]
async fn a_key_gone_from_the_keychain_is_replaced_and_its_public_half_kept() {
    let dir = tempfile::tempdir().unwrap();
    let (state, secrets) = memory_app(dir.path());
    let before = signing::identity(&state).await.unwrap();
    secrets.delete(KEYCHAIN_LABEL).unwrap();
    let after = signing::identity(&state).await.unwrap();
    assert_ne!(after.current.fingerprint, before.current.fingerprint);
    assert_eq!(after.earlier[0].fingerprint, before.current.fingerprint);
    assert_eq!(
        after.earlier[0].retired_because,
        Some(RetiredBecause::NotInKeychain)
    );

    // A damaged entry is reported without its value, and rotation makes a new key.
    secrets
        .set(KEYCHAIN_LABEL, &Secret::new("not-a-key-3f9a"))
        .unwrap();
    let error = signing::identity(&state).await.unwrap_err();
    assert!(matches!(error, CommandError::Keychain { .. }), "{error:?}");
    assert!(!error.message().contains("3f9a"), "{}", error.message());
    let rotated = signing::rotate(&state).await.unwrap();
    assert_eq!(rotated.earlier[0].fingerprint, after.current.fingerprint);
    assert_eq!(signing::identity(&state).await.unwrap(), rotated);
}

#[tokio::test]
async fn openssl_verifies_a_signature_with_the_exported_key() {
    let dir = tempfile::tempdir().unwrap();
    let (state, _) = memory_app(dir.path());
    let message = b"{\"files\":[\"posts.csv\"]}\n";
    let signature = signing::sign(&state, message).await.unwrap();
    let key_file = dir.path().join("exported").with_extension("pem");
    signing::export_public_key(&state, key_file.clone())
        .await
        .unwrap();
    let pem = std::fs::read_to_string(&key_file).unwrap();
    assert!(pem.starts_with("-----BEGIN PUBLIC KEY-----\n"), "{pem}");
    std::fs::write(dir.path().join("message"), message).unwrap();
    std::fs::write(dir.path().join("signature"), signature.bytes).unwrap();

    let openssl = |args: &[&str]| {
        Command::new("openssl")
            .args(args)
            .current_dir(dir.path())
            .output()
            .expect("openssl is installed (scripts/install-deps.sh)")
    };
    let verify = [
        "pkeyutl",
        "-verify",
        "-pubin",
        "-inkey",
        "exported.pem",
        "-rawin",
        "-in",
        "message",
        "-sigfile",
        "signature",
    ];
    let checked = openssl(&verify);
    assert!(
        checked.status.success(),
        "{}",
        String::from_utf8_lossy(&checked.stderr)
    );
    std::fs::write(
        dir.path().join("message"),
        b"{\"files\":[\"posts.csv\"]}\r\n",
    )
    .unwrap();
    assert!(
        !openssl(&verify).status.success(),
        "openssl verifies a changed message"
    );

    // The fingerprint is what anyone computes from the exported file.
    let der = openssl(&["pkey", "-pubin", "-in", "exported.pem", "-outform", "DER"]);
    assert!(der.status.success());
    use sha2::Digest;
    assert_eq!(
        hex(&sha2::Sha256::digest(&der.stdout)),
        signing::identity(&state).await.unwrap().current.fingerprint
    );
}

#[tokio::test]
async fn the_collector_is_a_checked_setting_the_preferences_form_keeps() {
    let dir = tempfile::tempdir().unwrap();
    let (state, _) = memory_app(dir.path());
    let named = signing::set_collector(&state, Some("  Jane Doe, Newsroom  ".into()))
        .await
        .unwrap();
    assert_eq!(named.collected_by.as_deref(), Some("Jane Doe, Newsroom"));
    let file = std::fs::read_to_string(dir.path().join("settings.json")).unwrap();
    assert!(
        file.contains("\"collectedBy\": \"Jane Doe, Newsroom\""),
        "{file}"
    );

    for bad in ["Jane\nDoe".to_owned(), "x".repeat(121)] {
        let error = signing::set_collector(&state, Some(bad)).await.unwrap_err();
        match error {
            CommandError::Invalid { fields, .. } => {
                assert_eq!(fields.len(), 1);
                assert_eq!(fields[0].field, "collectedBy");
            }
            other => panic!("{other:?}"),
        }
    }
    // The Preferences form sends the settings it read before the name was given.
    state
        .save_checked_settings(AppSettings {
            retry_attempts: 2,
            ..AppSettings::default()
        })
        .await
        .unwrap();
    let restarted = app(dir.path(), state.secrets.clone());
    assert_eq!(restarted.settings().retry_attempts, 2);
    assert_eq!(
        restarted.settings().collected_by.as_deref(),
        Some("Jane Doe, Newsroom")
    );
    // Empty clears it.
    let cleared = signing::set_collector(&state, Some("   ".into()))
        .await
        .unwrap();
    assert_eq!(cleared.collected_by, None);
}

#[tokio::test]
async fn an_api_key_cannot_take_the_signing_keys_entry() {
    let dir = tempfile::tempdir().unwrap();
    let (state, secrets) = memory_app(dir.path());
    let before = signing::identity(&state).await.unwrap();
    let error = sightline_core::keys::add(
        &state,
        KEYCHAIN_LABEL,
        "dt_$abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ",
    )
    .await
    .unwrap_err();
    assert!(matches!(error, CommandError::Invalid { .. }), "{error:?}");
    assert!(secrets
        .get(KEYCHAIN_LABEL)
        .unwrap()
        .unwrap()
        .expose()
        .starts_with("-----BEGIN PRIVATE KEY-----"));
    assert_eq!(signing::identity(&state).await.unwrap(), before);
}

/// What the signing commands answer, serialised as IPC sends it, never holds the private key;
/// and no type the window is given (every binding ts-rs exports) has a field that could.
#[tokio::test]
async fn no_private_key_crosses_ipc() {
    let dir = tempfile::tempdir().unwrap();
    let (state, secrets) = memory_app(dir.path());
    let mut answers = vec![signing::identity(&state).await.unwrap()];
    answers.push(
        signing::set_collector(&state, Some("Jane".into()))
            .await
            .unwrap(),
    );
    let forms_before = private_key_forms(secrets.as_ref());
    answers.push(signing::rotate(&state).await.unwrap());
    let forms_after = private_key_forms(secrets.as_ref());
    for answer in &answers {
        let json = serde_json::to_string(answer).unwrap();
        assert_holds_none(&json, &forms_before, "an answer");
        assert_holds_none(&json, &forms_after, "an answer");
    }

    let bindings = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../ui/src/lib/bindings");
    let commands = std::fs::read_to_string(bindings.join("commands.ts")).unwrap();
    let signing_commands: Vec<&str> = commands
        .lines()
        .filter(|line| line.trim_start().starts_with("signing_"))
        .collect();
    assert!(
        signing_commands.len() >= 4,
        "the signing commands are declared: {signing_commands:?}"
    );
    for line in &signing_commands {
        assert!(
            ["SigningIdentity", "string | null"]
                .iter()
                .any(|answer| line.contains(&format!("result: {answer}"))),
            "{line}"
        );
    }
    let mut files = Vec::new();
    ts_files(&bindings, &mut files);
    assert!(files.len() > 50, "the bindings are there: {}", files.len());
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        for name in binding_fields(&text) {
            let lower = name.to_lowercase();
            assert!(
                !["private", "secret", "seed", "signingkey"]
                    .iter()
                    .any(|word| lower.contains(word)),
                "{} has a field {name} that could hold a private key",
                path.display()
            );
        }
    }
}

fn ts_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            ts_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "ts") {
            out.push(path);
        }
    }
}

/// The field names of a TypeScript binding (`name: type` or `name?: type`).
fn binding_fields(text: &str) -> Vec<String> {
    text.split(['{', ',', ';', '\n'])
        .filter_map(|part| {
            let (name, _) = part.split_once(':')?;
            let name = name.trim().trim_end_matches('?').trim_matches('"');
            (!name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_'))
                .then(|| name.to_owned())
        })
        .collect()
}

/// The identity against the real Secret Service: made, found again, rotated. Without one this
/// fails on purpose (see `keychain`'s test); its entry is removed at the end.
#[tokio::test]
async fn real_keychain_keeps_and_rotates_the_signing_key() {
    let service = format!("app.sightline.desktop.tests.signing-{}", std::process::id());
    let secrets: Arc<dyn SecretStore> = Arc::new(KeyringStore::new(service));
    let status = secrets.status();
    assert!(
        status.reachable,
        "no Secret Service: {} (run via scripts/with-keyring.sh)",
        status.detail
    );
    let dir = tempfile::tempdir().unwrap();
    let state = app(dir.path(), secrets.clone());
    let outcome = async {
        let first = signing::identity(&state).await?;
        let signature = signing::sign(&state, b"bytes").await?;
        let again = app(dir.path(), secrets.clone());
        assert_eq!(signing::identity(&again).await?, first);
        let rotated = signing::rotate(&state).await?;
        assert_eq!(rotated.earlier[0].fingerprint, first.current.fingerprint);
        let old = signing::known_key(&state, &signature.key_fingerprint)?.unwrap();
        assert!(signing::verify(&old, b"bytes", &signature));
        Ok::<_, CommandError>(())
    }
    .await;
    secrets.delete(KEYCHAIN_LABEL).unwrap();
    outcome.unwrap();
}
