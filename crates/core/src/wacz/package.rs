//! `datapackage.json` (every other file of the archive with its size and SHA-256, and what the
//! archive is) and `datapackage-digest.json` (the hash of `datapackage.json`, signed), as WACZ
//! 1.1.1 and its signing spec (0.1.0, "anonymous signature") lay them out.
//!
//! The signing spec's anonymous form is ECDSA: ReplayWeb.page checks `signature` (P1363 `r‖s`,
//! base64) over the UTF-8 text of `hash` with SHA-256 and the P-384 key in `publicKey`
//! (SubjectPublicKeyInfo DER, base64). This installation's identity is Ed25519, which no WACZ
//! reader takes, so the archive is signed with a P-384 key derived from that identity
//! ([`Signer::derived_p384`]), and `signedData.sightline` carries the identity's own Ed25519
//! signatures over the same `hash` text and over the P-384 key, with its public key and
//! fingerprint: a reader checks the first with ReplayWeb.page and the others with openssl, and
//! together they say this installation signed the archive.

use serde_json::json;
use sha2::{Digest, Sha256};

use crate::signing::Signer;

/// One file of the archive, as `datapackage.json` lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resource {
    /// Its file name.
    pub name: String,
    /// Its path in the archive.
    pub path: String,
    /// `sha256:<hex>` of its bytes.
    pub hash: String,
    /// Its size.
    pub bytes: u64,
}

/// What the archive is, for `datapackage.json`.
pub struct About<'a> {
    /// The investigation's name.
    pub title: &'a str,
    /// Its description (Markdown, as written).
    pub description: &'a str,
    /// When the archive was made, `YYYY-MM-DDThh:mm:ssZ` (also `signedData.created`).
    pub created: &'a str,
    /// `Sightline 0.1.0`.
    pub software: &'a str,
    /// The first card's URL and time, for a replayer to open first.
    pub main_page: Option<(String, String)>,
    /// Sightline's own account of the collection (collector, installation, system).
    pub collection: serde_json::Value,
}

/// `datapackage.json`'s bytes.
pub fn datapackage(about: &About<'_>, resources: &[Resource]) -> Vec<u8> {
    let resources: Vec<_> = resources
        .iter()
        .map(|r| json!({"name": r.name, "path": r.path, "hash": r.hash, "bytes": r.bytes}))
        .collect();
    let mut package = json!({
        "profile": "data-package",
        "wacz_version": "1.1.1",
        "title": about.title,
        "description": about.description,
        "created": about.created,
        "modified": about.created,
        "software": about.software,
        "resources": resources,
        "sightline": about.collection,
    });
    if let Some((url, date)) = &about.main_page {
        package["mainPageUrl"] = url.as_str().into();
        package["mainPageDate"] = date.as_str().into();
    }
    let mut bytes = serde_json::to_vec_pretty(&package).expect("JSON values always serialise");
    bytes.push(b'\n');
    bytes
}

/// `datapackage-digest.json`'s bytes: the hash of `datapackage` and its signature.
pub fn digest(datapackage: &[u8], created: &str, software: &str, signer: &Signer) -> Vec<u8> {
    use p384::ecdsa::signature::hazmat::PrehashSigner;
    let hash = format!(
        "sha256:{}",
        crate::evidence::hex(&Sha256::digest(datapackage))
    );
    let p384 = signer.derived_p384();
    let signature: p384::ecdsa::Signature = p384
        .sign_prehash(&Sha256::digest(hash.as_bytes()))
        .expect("a SHA-256 prehash is long enough for P-384");
    let spki = p384_spki_der(p384.verifying_key());
    let identity = signer.public_key();
    let digest = json!({
        "path": "datapackage.json",
        "hash": hash,
        "signedData": {
            "hash": hash,
            "created": created,
            "software": software,
            "signature": base64(&signature.to_bytes()),
            "publicKey": base64(&spki),
            "sightline": {
                "identityKeyFingerprint": identity.fingerprint(),
                "identityPublicKeyPem": identity.to_pem(),
                "identitySignatureOfHash": base64(&signer.sign(hash.as_bytes()).bytes),
                "identitySignatureOfPublicKey": base64(&signer.sign(&spki).bytes),
            },
        },
    });
    let mut bytes = serde_json::to_vec_pretty(&digest).expect("JSON values always serialise");
    bytes.push(b'\n');
    bytes
}

/// The SubjectPublicKeyInfo DER of a P-384 key: the fixed header for id-ecPublicKey on
/// secp384r1 (RFC 5480), then the uncompressed point.
pub fn p384_spki_der(key: &p384::ecdsa::VerifyingKey) -> Vec<u8> {
    const HEADER: [u8; 23] = [
        0x30, 0x76, 0x30, 0x10, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01, 0x06, 0x05,
        0x2b, 0x81, 0x04, 0x00, 0x22, 0x03, 0x62, 0x00,
    ];
    let point = key.to_encoded_point(false);
    let mut der = HEADER.to_vec();
    der.extend_from_slice(point.as_bytes());
    der
}

/// Standard base64 with padding (RFC 4648 §4).
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::base64;

    #[test]
    fn base64_is_rfc_4648s() {
        for (bytes, text) in [
            (&b""[..], ""),
            (b"f", "Zg=="),
            (b"fo", "Zm8="),
            (b"foo", "Zm9v"),
            (b"foob", "Zm9vYg=="),
            (b"fooba", "Zm9vYmE="),
            (b"foobar", "Zm9vYmFy"),
            (&[0xff, 0xfe, 0xfd], "//79"),
        ] {
            assert_eq!(base64(bytes), text);
        }
    }
}
