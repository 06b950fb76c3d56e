//! An investigation exported as a web archive (WACZ), from a live app against the sandbox and a
//! real SQLite file: the API key is nowhere in the file's bytes (compressed or not); every
//! record's digests are right and a response's payload is the bytes its provenance hashed;
//! requests carry no `Authorization` and are linked to their responses; the cards are inert;
//! the manifest's hashes and the signatures (ECDSA P-384 as ReplayWeb.page checks it, and the
//! installation's Ed25519) verify; and the tools people check WACZ files with accept it:
//! `wacz validate` exits 0, `warcio check` finds no digest error, openssl verifies both
//! signatures. Those tools are skipped with a loud line where missing, and required under CI.

use crate::support::live::Live;
use crate::support::send::send;

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};
use sightline_api::request::{LinksWebRequest, TwitterPostRequest};
use sightline_api::CancelToken;
use sightline_core::evidence::gather::{self, StoredBodies};
use sightline_core::evidence::BundleProgress;
use sightline_core::media::files::MediaFolder;
use sightline_core::pipeline;
use sightline_core::signing;
use sightline_core::wacz::{self, Collector, WaczOutcome};
use sightline_sandbox::Sandbox;

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Every entry of the ZIP, by name.
pub(crate) fn entries(path: &Path) -> HashMap<String, Vec<u8>> {
    let mut zip = zip::ZipArchive::new(std::fs::File::open(path).unwrap()).unwrap();
    (0..zip.len())
        .map(|i| {
            let mut file = zip.by_index(i).unwrap();
            let mut bytes = Vec::new();
            file.read_to_end(&mut bytes).unwrap();
            (file.name().to_owned(), bytes)
        })
        .collect()
}

/// One WARC record read back: its fields and block.
pub(crate) struct WarcRecord {
    pub(crate) fields: Vec<(String, String)>,
    pub(crate) block: Vec<u8>,
}

impl WarcRecord {
    pub(crate) fn field(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// The headers of an HTTP head at the start of `block`, names lower-case.
pub(crate) fn http_headers(block: &[u8]) -> Vec<(String, String)> {
    let end = block.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    String::from_utf8(block[..end].to_vec())
        .unwrap()
        .split("\r\n")
        .skip(1)
        .map(|line| {
            let (name, value) = line.split_once(": ").unwrap();
            (name.to_lowercase(), value.to_owned())
        })
        .collect()
}

/// The headers the sandbox sends for a GET of `url`, as a record of them should read
/// (`Transfer-Encoding` renamed, as the body is kept de-chunked).
async fn sent_headers(url: &str, key: &str) -> Vec<(String, String)> {
    let answer = reqwest::Client::new()
        .get(url)
        .header("authorization", key)
        .send()
        .await
        .unwrap();
    answer
        .headers()
        .iter()
        .map(|(name, value)| {
            let name = match name.as_str() {
                "transfer-encoding" => "x-sightline-original-transfer-encoding".to_owned(),
                other => other.to_owned(),
            };
            (name, value.to_str().unwrap().to_owned())
        })
        .collect()
}

/// The records of a `.warc.gz` made of one gzip member per record; each member's offset and
/// length too.
pub(crate) fn records(warc_gz: &[u8]) -> Vec<(u64, u64, WarcRecord)> {
    let mut out = Vec::new();
    let mut at = 0usize;
    while at < warc_gz.len() {
        let mut decoder = flate2::bufread::GzDecoder::new(&warc_gz[at..]);
        let mut bytes = Vec::new();
        decoder.read_to_end(&mut bytes).unwrap();
        let rest = decoder.into_inner().len();
        let length = warc_gz.len() - at - rest;
        let head_end = bytes.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
        let head = std::str::from_utf8(&bytes[..head_end]).unwrap();
        let mut lines = head.split("\r\n");
        assert_eq!(lines.next(), Some("WARC/1.1"));
        let fields: Vec<(String, String)> = lines
            .map(|l| {
                let (n, v) = l.split_once(": ").unwrap();
                (n.to_owned(), v.to_owned())
            })
            .collect();
        let len: usize = fields
            .iter()
            .find(|(n, _)| n == "Content-Length")
            .unwrap()
            .1
            .parse()
            .unwrap();
        let block = bytes[head_end + 4..head_end + 4 + len].to_vec();
        assert_eq!(&bytes[head_end + 4 + len..], b"\r\n\r\n");
        out.push((at as u64, length as u64, WarcRecord { fields, block }));
        at += length;
    }
    out
}

/// A command-line tool: on `PATH`, or in the venv `scripts/install-deps.sh` makes.
fn tool(name: &str) -> Option<PathBuf> {
    let local = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../.tools/web-archive-tools/bin")
        .join(name);
    if local.exists() {
        return Some(local);
    }
    let found = Command::new("sh")
        .args(["-c", &format!("command -v {name}")])
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    Some(PathBuf::from(String::from_utf8(found.stdout).ok()?.trim()))
}

/// The tool, or `None` with a loud line; under CI a missing tool fails the test.
pub(crate) fn required(name: &str) -> Option<PathBuf> {
    let found = tool(name);
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "{name} is required under CI: scripts/install-deps.sh installs it"
        );
        eprintln!(
            "\n*** SKIPPED the {name} check of the web archive: {name} is not installed \
             (scripts/install-deps.sh installs it into .tools/web-archive-tools) ***\n"
        );
    }
    found
}

/// A live app with an investigation that holds an X search, a post by id and a POSTed link
/// search, a note with markup; the investigation's id.
async fn case(live: &Live) -> i64 {
    let session = live.state.session().await.unwrap();
    let store = &session.store;
    let id = store
        .create_investigation("Floods <b>", "Who said what", chrono::Utc::now())
        .await
        .unwrap();
    store.set_active_investigation(Some(id)).await.unwrap();
    let search = crate::support::search::search(&live.sandbox, 20);
    let found = pipeline::execute(&live.state, &session, search, send("w-search"), None)
        .await
        .unwrap();
    let first = found.body.0[0].id.clone();
    pipeline::execute(
        &live.state,
        &session,
        TwitterPostRequest { id: first.clone() },
        send("w-post"),
        None,
    )
    .await
    .unwrap();
    let links = LinksWebRequest {
        prompt: "river gauges".into(),
        tools: vec!["web".into()],
        count: 10,
    };
    pipeline::execute(&live.state, &session, links, send("w-links"), None)
        .await
        .unwrap();
    store
        .set_investigation_post(
            id,
            &first,
            Some("<script>alert(1)</script><img src=https://evil.example/x.png>"),
            Some(&["lead".to_owned()]),
        )
        .await
        .unwrap();
    id
}

async fn export(live: &Live, id: i64, path: &Path, cancel: &CancelToken) -> WaczOutcome {
    let session = live.state.session().await.unwrap();
    let zone = "Europe/Berlin".parse().unwrap();
    let bundle = gather::investigation(&session.store, id, zone, "0.1.0")
        .await
        .unwrap();
    let signer = signing::signer(&live.state).await.unwrap();
    let collector = Collector {
        signer: &signer,
        name: Some("Desk 4".into()),
        os: "Linux (test)".into(),
    };
    let mut steps: Vec<BundleProgress> = Vec::new();
    let outcome = wacz::write_wacz(
        &bundle,
        &StoredBodies(&session.store, &MediaFolder::new(&live.state.data_dir)),
        &collector,
        path,
        &mut |p| steps.push(p),
        cancel,
    )
    .await
    .unwrap();
    if matches!(outcome, WaczOutcome::Written { .. }) {
        let last = steps.last().unwrap();
        assert_eq!(last.done, last.total, "progress ends at its total");
    }
    outcome
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_investigation_as_wacz_holds_every_exchange_signed_and_never_the_key() {
    let live = Live::start(Sandbox::builder().seed(9)).await;
    let id = case(&live).await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("case.wacz");
    let outcome = export(&live, id, &path, &CancelToken::new()).await;
    let WaczOutcome::Written {
        responses, posts, ..
    } = outcome
    else {
        panic!("not written: {outcome:?}")
    };
    assert_eq!(responses, 3);
    assert!(posts >= 20, "{posts}");

    // The key: nowhere in the file, nor in any entry or record once decompressed.
    let key = live.sandbox.demo_key().as_bytes().to_vec();
    let contains = |hay: &[u8]| hay.windows(key.len()).any(|w| w == key);
    let raw = std::fs::read(&path).unwrap();
    assert!(!contains(&raw));
    let files = entries(&path);
    let mut names: Vec<&str> = files.keys().map(String::as_str).collect();
    names.sort_unstable();
    assert_eq!(
        names,
        [
            "archive/data.warc.gz",
            "datapackage-digest.json",
            "datapackage.json",
            "indexes/index.cdxj",
            "pages/pages.jsonl"
        ]
    );
    for bytes in files.values() {
        assert!(!contains(bytes));
    }
    let warc = &files["archive/data.warc.gz"];
    let records = records(warc);
    for (_, _, record) in &records {
        assert!(!contains(&record.block), "the key in a record");
        assert!(!record.fields.iter().any(|(_, v)| contains(v.as_bytes())));
    }

    // Digests: the block's, and the payload's (after an HTTP head; the whole of a resource).
    let session = live.state.session().await.unwrap();
    let by_id: HashMap<&str, &WarcRecord> = records
        .iter()
        .filter_map(|(_, _, r)| Some((r.field("WARC-Record-ID")?, r)))
        .collect();
    let mut kinds: HashMap<&str, usize> = HashMap::new();
    let mut responses_asked_again = 0;
    for (_, _, record) in &records {
        let kind = record.field("WARC-Type").unwrap();
        *kinds.entry(kind).or_default() += 1;
        assert_eq!(
            record.field("WARC-Block-Digest").unwrap(),
            format!("sha256:{}", hex(&Sha256::digest(&record.block)))
        );
        let payload = match kind {
            "request" | "response" => {
                let end = record
                    .block
                    .windows(4)
                    .position(|w| w == b"\r\n\r\n")
                    .unwrap();
                &record.block[end + 4..]
            }
            _ => &record.block[..],
        };
        if kind != "warcinfo" {
            assert_eq!(
                record.field("WARC-Payload-Digest").unwrap(),
                format!("sha256:{}", hex(&Sha256::digest(payload)))
            );
        }
        let head =
            String::from_utf8_lossy(&record.block[..record.block.len().min(2048)]).to_lowercase();
        if kind == "request" {
            assert!(!head.contains("authorization"), "{head}");
            let response = by_id[record.field("WARC-Concurrent-To").unwrap()];
            assert_eq!(response.field("WARC-Type"), Some("response"));
            assert_eq!(
                response.field("WARC-Target-URI"),
                record.field("WARC-Target-URI")
            );
            if head.starts_with("post ") {
                assert!(
                    String::from_utf8_lossy(payload).contains(r#""prompt":"river gauges""#),
                    "a POST's body as sent"
                );
            }
        }
        if kind == "response" {
            let history_id: i64 = record
                .field("WARC-Sightline-History-Id")
                .unwrap()
                .parse()
                .unwrap();
            let body = session
                .store
                .provenance_body(history_id)
                .await
                .unwrap()
                .unwrap();
            assert_eq!(payload, &body[..], "the exact bytes received");
            assert_eq!(
                record.field("WARC-Sightline-Response-Headers"),
                Some("as-received")
            );
            let url = record.field("WARC-Target-URI").unwrap();
            let kept = http_headers(&record.block);
            if !head.contains("content-type: application/json") {
                panic!("the service's content type is kept: {head}");
            }
            let billing = match session.store.provenance(history_id).await.unwrap() {
                sightline_store::Provenance::Captured { record } => record.billing_headers,
                other => panic!("no provenance: {other:?}"),
            };
            assert!(!billing.is_empty());
            for (name, value) in &billing {
                assert!(
                    kept.contains(&(name.clone(), value.clone())),
                    "{name}: {kept:?}"
                );
            }
            if by_id.values().any(|r| {
                r.field("WARC-Concurrent-To") == record.field("WARC-Record-ID")
                    && r.block.starts_with(b"GET ")
            }) {
                // Asked again, straight from the sandbox: the same headers, in the same order.
                let sent = sent_headers(url, live.sandbox.demo_key()).await;
                let without_date = |h: &[(String, String)]| -> Vec<(String, String)> {
                    h.iter().filter(|(n, _)| n != "date").cloned().collect()
                };
                assert_eq!(without_date(&kept), without_date(&sent), "{url}");
                responses_asked_again += 1;
            }
        }
        if kind == "resource" {
            let page = String::from_utf8(record.block.clone()).unwrap();
            assert!(page.contains("Content-Security-Policy"));
            assert!(!page.contains("<script"), "inert: {page}");
            assert!(!page.contains("<img"), "inert: {page}");
            assert!(!page.contains("href="), "no links: {page}");
        }
    }
    assert_eq!(responses_asked_again, 2, "the search and the post by id");
    assert_eq!(kinds["warcinfo"], 1);
    assert_eq!(kinds["request"], 3);
    assert_eq!(kinds["response"], 3);
    assert_eq!(kinds["resource"], posts as usize);
    let info = String::from_utf8(records[0].2.block.clone()).unwrap();
    assert!(info.contains("collected-by: Desk 4"), "{info}");
    assert!(info.contains("Authorization header"), "{info}");
    assert!(
        info.contains(
            "response-headers: Every response record carries the response's headers as received."
        ),
        "{info}"
    );

    // The index points at each response and card; pages list one card each.
    let cdxj = String::from_utf8(files["indexes/index.cdxj"].clone()).unwrap();
    let lines: Vec<&str> = cdxj.lines().collect();
    assert_eq!(lines.len(), 3 + posts as usize);
    let mut sorted = lines.clone();
    sorted.sort_unstable();
    assert_eq!(lines, sorted, "sorted for a binary search");
    let members: HashMap<u64, u64> = records.iter().map(|(o, l, _)| (*o, *l)).collect();
    for line in &lines {
        let json: serde_json::Value =
            serde_json::from_str(line.splitn(3, ' ').nth(2).unwrap()).unwrap();
        let offset: u64 = json["offset"].as_str().unwrap().parse().unwrap();
        let length: u64 = json["length"].as_str().unwrap().parse().unwrap();
        assert_eq!(members.get(&offset), Some(&length), "{line}");
    }
    let pages = String::from_utf8(files["pages/pages.jsonl"].clone()).unwrap();
    assert_eq!(pages.lines().count(), 1 + posts as usize);

    // The manifest lists each file with its size and hash, and its digest is signed.
    let package: serde_json::Value = serde_json::from_slice(&files["datapackage.json"]).unwrap();
    assert_eq!(package["wacz_version"], "1.1.1");
    for resource in package["resources"].as_array().unwrap() {
        let bytes = &files[resource["path"].as_str().unwrap()];
        assert_eq!(resource["bytes"], bytes.len());
        assert_eq!(
            resource["hash"],
            format!("sha256:{}", hex(&Sha256::digest(bytes)))
        );
    }
    let digest: serde_json::Value =
        serde_json::from_slice(&files["datapackage-digest.json"]).unwrap();
    let hash = format!(
        "sha256:{}",
        hex(&Sha256::digest(&files["datapackage.json"]))
    );
    assert_eq!(digest["hash"], hash);
    let signed = &digest["signedData"];
    assert_eq!(signed["hash"], hash);
    assert_eq!(signed["created"], package["created"]);
    let signatures = Signatures::of(signed);
    signatures.verify_in_rust(&live);

    // The tools.
    if let Some(wacz_tool) = required("wacz") {
        let run = Command::new(wacz_tool)
            .args(["validate", "-f"])
            .arg(&path)
            .output()
            .unwrap();
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&run.stdout),
            String::from_utf8_lossy(&run.stderr)
        );
        assert!(run.status.success(), "wacz validate: {said}");
        assert!(
            said.to_lowercase().contains("validation succeeded"),
            "{said}"
        );
    }
    if let Some(warcio) = required("warcio") {
        let warc_path = dir.path().join("data.warc.gz");
        std::fs::write(&warc_path, warc).unwrap();
        let run = Command::new(warcio)
            .args(["check", "-v"])
            .arg(&warc_path)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&run.stdout).into_owned();
        assert!(run.status.success(), "warcio check: {said}");
        assert!(!said.contains("failed"), "{said}");
        assert!(
            !said.contains("not checked"),
            "every digest checked: {said}"
        );
        assert_eq!(said.matches("digest pass").count(), records.len(), "{said}");
    }
    if let Some(openssl) = required("openssl") {
        signatures.verify_with_openssl(&openssl, dir.path());
    }
}

/// The signatures `signedData` holds.
struct Signatures {
    hash: String,
    p384_spki: Vec<u8>,
    p384_signature: Vec<u8>,
    identity_pem: String,
    fingerprint: String,
    of_hash: Vec<u8>,
    of_key: Vec<u8>,
}

/// Standard base64 (with padding) back to bytes.
fn unbase64(text: &str) -> Vec<u8> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let values: Vec<u32> = text
        .bytes()
        .filter(|b| *b != b'=')
        .map(|b| ALPHABET.iter().position(|a| *a == b).unwrap() as u32)
        .collect();
    let mut out = Vec::new();
    for chunk in values.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, v)| n | v << (18 - 6 * i));
        for i in 0..chunk.len() - 1 {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    out
}

impl Signatures {
    fn of(signed: &serde_json::Value) -> Self {
        let ours = &signed["sightline"];
        Self {
            hash: signed["hash"].as_str().unwrap().to_owned(),
            p384_spki: unbase64(signed["publicKey"].as_str().unwrap()),
            p384_signature: unbase64(signed["signature"].as_str().unwrap()),
            identity_pem: ours["identityPublicKeyPem"].as_str().unwrap().to_owned(),
            fingerprint: ours["identityKeyFingerprint"].as_str().unwrap().to_owned(),
            of_hash: unbase64(ours["identitySignatureOfHash"].as_str().unwrap()),
            of_key: unbase64(ours["identitySignatureOfPublicKey"].as_str().unwrap()),
        }
    }

    /// As ReplayWeb.page does: ECDSA P-384, SHA-256, over the text of `hash`; and the
    /// installation's Ed25519 over the same text and over the P-384 key.
    fn verify_in_rust(&self, live: &Live) {
        use p384::ecdsa::signature::hazmat::PrehashVerifier;
        // SubjectPublicKeyInfo: id-ecPublicKey on secp384r1, then the point (openssl reads the
        // whole DER below).
        assert_eq!(self.p384_spki.len(), 23 + 97);
        assert!(hex(&self.p384_spki[..23]).ends_with("06052b81040022036200"));
        let key = p384::ecdsa::VerifyingKey::from_sec1_bytes(&self.p384_spki[23..]).unwrap();
        let signature = p384::ecdsa::Signature::from_slice(&self.p384_signature).unwrap();
        key.verify_prehash(&Sha256::digest(self.hash.as_bytes()), &signature)
            .expect("the P-384 signature of the hash");
        let identity = signing::PublicKey::from_pem(&self.identity_pem).unwrap();
        assert_eq!(identity.fingerprint(), self.fingerprint);
        let known = signing::known_key(&live.state, &self.fingerprint).unwrap();
        assert_eq!(known, Some(identity.clone()), "this installation's key");
        for (bytes, signature) in [
            (self.hash.as_bytes(), &self.of_hash),
            (&self.p384_spki[..], &self.of_key),
        ] {
            let signature = signing::Signature {
                bytes: signature.as_slice().try_into().unwrap(),
                key_fingerprint: self.fingerprint.clone(),
            };
            assert!(signing::verify(&identity, bytes, &signature));
        }
        let mut forged = self.hash.clone().into_bytes();
        forged[10] ^= 1;
        assert!(key
            .verify_prehash(&Sha256::digest(&forged), &signature)
            .is_err());
    }

    /// The one-line checks a reader without Sightline runs.
    fn verify_with_openssl(&self, openssl: &Path, dir: &Path) {
        let p384 = p384::ecdsa::Signature::from_slice(&self.p384_signature).unwrap();
        let write = |name: &str, bytes: &[u8]| {
            let path = dir.join(name);
            std::fs::write(&path, bytes).unwrap();
            path
        };
        let hash = write("hash.txt", self.hash.as_bytes());
        let spki = write("p384.der", &self.p384_spki);
        let der = write("p384.sig", p384.to_der().as_bytes());
        let run = Command::new(openssl)
            .args(["dgst", "-sha256", "-keyform", "DER", "-verify"])
            .arg(&spki)
            .arg("-signature")
            .arg(&der)
            .arg(&hash)
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "openssl ECDSA: {}{}",
            String::from_utf8_lossy(&run.stdout),
            String::from_utf8_lossy(&run.stderr)
        );
        let pem = write("identity.pem", self.identity_pem.as_bytes());
        for (data, signature) in [
            (hash.clone(), write("of-hash.sig", &self.of_hash)),
            (spki.clone(), write("of-key.sig", &self.of_key)),
        ] {
            let run = Command::new(openssl)
                .args(["pkeyutl", "-verify", "-pubin", "-inkey"])
                .arg(&pem)
                .arg("-rawin")
                .arg("-in")
                .arg(&data)
                .arg("-sigfile")
                .arg(&signature)
                .output()
                .unwrap();
            assert!(
                run.status.success(),
                "openssl Ed25519: {}{}",
                String::from_utf8_lossy(&run.stdout),
                String::from_utf8_lossy(&run.stderr)
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_export_leaves_nothing() {
    let live = Live::start(Sandbox::builder().seed(9)).await;
    let id = case(&live).await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("case.wacz");
    let cancel = CancelToken::new();
    cancel.cancel();
    assert_eq!(
        export(&live, id, &path, &cancel).await,
        WaczOutcome::Cancelled
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn captures_made_before_every_header_was_kept_carry_their_billing_headers_and_say_so() {
    let live = Live::start(Sandbox::builder().seed(9)).await;
    let session = live.state.session().await.unwrap();
    // Recorded as before migration 0017: provenance with billing headers, no header row.
    let id = crate::support::evidence_seed::seed(&session.store, 2, 1).await;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.wacz");
    let outcome = export(&live, id, &path, &CancelToken::new()).await;
    assert!(matches!(outcome, WaczOutcome::Written { responses: 2, .. }));
    let files = entries(&path);
    let records = records(&files["archive/data.warc.gz"]);
    let info = String::from_utf8(records[0].2.block.clone()).unwrap();
    assert!(
        info.contains("response-headers: 2 response records were captured before"),
        "{info}"
    );
    let responses: Vec<&WarcRecord> = records
        .iter()
        .map(|(_, _, r)| r)
        .filter(|r| r.field("WARC-Type") == Some("response"))
        .collect();
    assert_eq!(responses.len(), 2);
    for record in responses {
        assert_eq!(
            record.field("WARC-Sightline-Response-Headers"),
            Some("billing-only")
        );
        let kept = http_headers(&record.block);
        let names: Vec<&str> = kept.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["x-billing-cost", "content-length"], "{kept:?}");
    }
}
