//! (c) The timestamp tokens: each capture the manifest says was stamped has its token in the
//! bundle, and the token is checked on its own (`timestamps::check`, as `openssl ts -verify`
//! does) against the hash the manifest gives that capture, so a token that is for another
//! hash (swapped in from another capture) or whose bytes were changed is invalid. The token's
//! time must also be the one the manifest gives. The manifest's own token
//! (`manifest.json.tsr`) is checked against the manifest's hash.

use super::manifest::{Manifest, Stamp};
use super::{kept, BundleStampCounts, StampCheck, MANIFEST_TSR};
use crate::evidence::zip_read::ZipRead;
use crate::evidence::MANIFEST_JSON;
use crate::timestamps::{self, TokenCheck};

/// Every token's check and the captures' stamp states counted. `manifest_sha256` is the hash
/// of `manifest.json` as read; `trusted_pem` the authority certificates the user added.
pub(super) fn check(
    read: &ZipRead,
    manifest: &Manifest,
    manifest_sha256: Option<&str>,
    trusted_pem: Option<&str>,
) -> (Vec<StampCheck>, BundleStampCounts) {
    let mut counts = BundleStampCounts {
        captures: u32::try_from(manifest.captures.len()).unwrap_or(u32::MAX),
        ..Default::default()
    };
    let mut checks = Vec::new();
    for capture in &manifest.captures {
        let (file, stamped_at) = match &capture.stamp {
            Stamp::Stamped { file, stamped_at } => (file, stamped_at.as_deref()),
            Stamp::Waiting => {
                counts.waiting += 1;
                continue;
            }
            Stamp::Failed => {
                counts.failed += 1;
                continue;
            }
            Stamp::None => {
                counts.not_stamped += 1;
                continue;
            }
        };
        counts.stamped += 1;
        let of = capture.file.clone().unwrap_or_else(|| "a capture".into());
        checks.push(one(
            read,
            of,
            file,
            capture.sha256.as_deref(),
            stamped_at,
            trusted_pem,
        ));
    }
    if read.entries.iter().any(|e| e.name == MANIFEST_TSR) {
        checks.push(one(
            read,
            MANIFEST_JSON.into(),
            MANIFEST_TSR,
            manifest_sha256,
            None,
            trusted_pem,
        ));
    }
    (checks, counts)
}

/// One token, for `of` whose hash the manifest gives as `sha256`.
fn one(
    read: &ZipRead,
    of: String,
    file: &str,
    sha256: Option<&str>,
    stamped_at: Option<&str>,
    trusted_pem: Option<&str>,
) -> StampCheck {
    let mut check = StampCheck {
        of,
        file: file.to_owned(),
        valid: false,
        stamped_at: None,
        authority: None,
        chain: None,
        why: None,
    };
    let Some(digest) = sha256.and_then(digest) else {
        check.why = Some(format!(
            "The manifest gives {} no SHA-256 to check its token against.",
            check.of
        ));
        return check;
    };
    let Some(reply) = kept(read, file) else {
        check.why = Some(if read.entries.iter().any(|e| e.name == file) {
            format!("The token {file} could not be read (see what the ZIP hides below).")
        } else {
            format!(
                "The manifest says {} was stamped, but its token {file} is not in the bundle.",
                check.of
            )
        });
        return check;
    };
    match timestamps::check(reply, &digest, trusted_pem) {
        TokenCheck::Valid {
            stamped_at: at,
            authority,
            chain,
            ..
        } => {
            let at_words = crate::evidence::utc_iso(at);
            check.chain = Some(chain.words());
            check.authority = Some(authority);
            // The manifest's time is the token's, as recorded; another time means the
            // manifest and the token were not written together.
            let same = stamped_at.is_none_or(|given| {
                chrono::DateTime::parse_from_rfc3339(given).is_ok_and(|t| t == at)
            });
            if same {
                check.valid = true;
            } else {
                check.why = Some(format!(
                    "The token is valid, but its time ({at_words}) is not the one the manifest gives ({}).",
                    stamped_at.unwrap_or_default()
                ));
            }
            check.stamped_at = Some(at_words);
        }
        TokenCheck::Invalid { why } => check.why = Some(why),
    }
    check
}

/// The 32 bytes of a lower-case or upper-case hex SHA-256.
fn digest(hex: &str) -> Option<[u8; 32]> {
    if hex.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}
