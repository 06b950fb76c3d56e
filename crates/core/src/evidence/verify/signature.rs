//! (b) The manifest's signature: `manifest.sig` (base64 of the 64 Ed25519 bytes) over the exact
//! bytes of `manifest.json`, checked with the key the bundle includes (`signing-key.pem`).
//! Whose key that is comes from this installation's kept keys, by fingerprint: a bundle can
//! carry any key, so a valid signature alone says only that whoever holds that key signed it.

use super::manifest::Manifest;
use super::{kept, SignatureCheck, SignatureState, MANIFEST_SIG, SIGNING_KEY_PEM};
use crate::evidence::zip_read::ZipRead;
use crate::signing::{self, KnownKeys, PublicKey, Signature};

/// Checks the signature; `manifest_bytes` are the first copy of `manifest.json`.
pub(super) fn check(
    read: &ZipRead,
    manifest: &Manifest,
    manifest_bytes: Option<&[u8]>,
    keys: &KnownKeys,
) -> SignatureCheck {
    let has = |name: &str| read.entries.iter().any(|e| e.name == name);
    let mut check = SignatureCheck {
        state: SignatureState::Unreadable,
        fingerprint: None,
        standing: None,
        declared_fingerprint: manifest.installation_fingerprint.clone(),
        why: None,
    };
    if !has(MANIFEST_SIG) && !manifest.claims_signature() {
        check.state = SignatureState::Unsigned;
        return check;
    }
    let key = match kept(read, SIGNING_KEY_PEM).map(String::from_utf8_lossy) {
        Some(pem) => PublicKey::from_pem(&pem).ok(),
        None => None,
    };
    if let Some(key) = &key {
        let fingerprint = key.fingerprint();
        check.standing = Some(keys.standing(&fingerprint));
        check.fingerprint = Some(fingerprint);
    }
    let signature = kept(read, MANIFEST_SIG).map(decode_signature);
    let why = match (manifest_bytes, &key, signature) {
        (None, _, _) => "manifest.json is missing or could not be read, so there is nothing to check the signature against.",
        (_, _, None) => "The manifest says it was signed, but the bundle holds no manifest.sig.",
        (_, None, _) if !has(SIGNING_KEY_PEM) => "The bundle holds no signing-key.pem, the key to check the signature with.",
        (_, None, _) => "signing-key.pem is not an Ed25519 public key.",
        (_, _, Some(None)) => "manifest.sig is not a signature (64 bytes in base64).",
        (Some(bytes), Some(key), Some(Some(raw))) => {
            let signature = Signature {
                bytes: raw,
                key_fingerprint: key.fingerprint(),
            };
            check.state = match signing::verify(key, bytes, &signature) {
                true => SignatureState::Valid,
                false => SignatureState::Invalid,
            };
            return check;
        }
    };
    check.why = Some(why.to_owned());
    check
}

/// The 64 signature bytes from `manifest.sig`'s base64 (standard alphabet, padded, one line).
fn decode_signature(text: &[u8]) -> Option<[u8; 64]> {
    let text = std::str::from_utf8(text)
        .ok()?
        .trim_end_matches(['\n', '\r']);
    decode_base64(text)?.try_into().ok()
}

/// Strict standard base64: whole quads, `=` only as padding at the end.
fn decode_base64(text: &str) -> Option<Vec<u8>> {
    fn value(c: u8) -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    }
    let bytes = text.as_bytes();
    if bytes.len() % 4 != 0 {
        return None;
    }
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
    let quads = bytes.len() / 4;
    for (i, quad) in bytes.chunks(4).enumerate() {
        let pad = quad.iter().rev().take_while(|c| **c == b'=').count();
        if pad > 2 || (pad > 0 && i + 1 != quads) {
            return None;
        }
        let mut n = 0u32;
        for c in &quad[..4 - pad] {
            n = n << 6 | value(*c)?;
        }
        n <<= 6 * pad as u32;
        out.extend_from_slice(&n.to_be_bytes()[1..4 - pad]);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::decode_base64;

    #[test]
    fn base64_decodes_strictly() {
        assert_eq!(decode_base64("aGVsbG8=").unwrap(), b"hello");
        assert_eq!(decode_base64("aGk=").unwrap(), b"hi");
        assert_eq!(decode_base64("aGVs").unwrap(), b"hel");
        assert!(decode_base64("aGVsbG8").is_none());
        assert!(decode_base64("aG=sbG8=").is_none());
        assert!(decode_base64("aGV*").is_none());
    }
}
