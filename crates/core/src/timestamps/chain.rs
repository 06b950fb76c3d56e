//! The signing certificate's chain: each link found by its issuer's name and proven by the
//! issuer's signature, each certificate valid at the stamp's time, each issuer a CA. It ends at
//! a certificate the user added ([`ChainTrust::Added`]) or, failing that, at the last one the
//! token carries ([`ChainTrust::CarriedOnly`]).

use chrono::{DateTime, Utc};
use der::{Decode, DecodePem, Encode};
use sha2::{Digest, Sha256};
use x509_cert::ext::pkix::BasicConstraints;
use x509_cert::Certificate;

use super::signature::verify;
use super::token::name_words;
use super::ChainTrust;

/// The longest chain followed (a TSA's is two or three certificates).
const MAX_DEPTH: usize = 8;

/// Follows `signer`'s chain through `carried` to one of `added` (when given).
pub(super) fn trace(
    signer: &Certificate,
    carried: &[Certificate],
    added: Option<&[Certificate]>,
    at: DateTime<Utc>,
) -> Result<ChainTrust, String> {
    let added_list = added.unwrap_or(&[]);
    let mut current = signer;
    for _ in 0..MAX_DEPTH {
        if let Some(root) = added_list
            .iter()
            .find(|a| *a == current || issued_by(current, a))
        {
            return Ok(ChainTrust::Added {
                root: name_words(&root.tbs_certificate.subject),
                fingerprint: fingerprint(root),
            });
        }
        let self_issued = current.tbs_certificate.issuer == current.tbs_certificate.subject;
        if self_issued && issued_by(current, current) {
            return Ok(carried_only(current, true, added.is_some()));
        }
        match carried
            .iter()
            .find(|c| *c != current && issued_by(current, c))
        {
            Some(issuer) => {
                valid_at(issuer, at)?;
                current = issuer;
            }
            None => return Ok(carried_only(current, false, added.is_some())),
        }
    }
    Err(format!(
        "its certificate chain is longer than {MAX_DEPTH} certificates"
    ))
}

fn carried_only(root: &Certificate, self_signed: bool, added_checked: bool) -> ChainTrust {
    ChainTrust::CarriedOnly {
        root: name_words(&root.tbs_certificate.subject),
        fingerprint: fingerprint(root),
        self_signed,
        added_checked,
    }
}

/// Whether `issuer` (a CA) issued `certificate`: its subject is the certificate's issuer and its
/// key verifies the certificate's signature.
fn issued_by(certificate: &Certificate, issuer: &Certificate) -> bool {
    if issuer.tbs_certificate.subject != certificate.tbs_certificate.issuer || !is_ca(issuer) {
        return false;
    }
    let Ok(tbs) = certificate.tbs_certificate.to_der() else {
        return false;
    };
    let Some(signature) = certificate.signature.as_bytes() else {
        return false;
    };
    verify(
        &issuer.tbs_certificate.subject_public_key_info,
        &certificate.signature_algorithm,
        None,
        &tbs,
        signature,
    )
    .is_ok()
}

/// Whether the certificate's basic constraints say it is a CA.
fn is_ca(certificate: &Certificate) -> bool {
    certificate
        .tbs_certificate
        .extensions
        .iter()
        .flatten()
        .find(|e| e.extn_id == const_oid::db::rfc5280::ID_CE_BASIC_CONSTRAINTS)
        .and_then(|e| BasicConstraints::from_der(e.extn_value.as_bytes()).ok())
        .is_some_and(|constraints| constraints.ca)
}

/// The authority certificates a user added, from PEM (one or more; text between them, as in
/// openssl's bundles, is skipped). Split here, not by `Certificate::load_pem_chain`, which
/// panics on an empty text and refuses a trailing space.
pub(super) fn read_added(pem: &str) -> Result<Vec<Certificate>, String> {
    const BEGIN: &str = "-----BEGIN CERTIFICATE-----";
    const END: &str = "-----END CERTIFICATE-----";
    let mut certificates = Vec::new();
    let mut rest = pem;
    while let Some(start) = rest.find(BEGIN) {
        let block = &rest[start..];
        let end = block
            .find(END)
            .ok_or("a certificate in it has no -----END CERTIFICATE----- line")?
            + END.len();
        let certificate = Certificate::from_pem(&block.as_bytes()[..end]).map_err(|error| {
            format!("the authority certificates cannot be read as PEM ({error})")
        })?;
        certificates.push(certificate);
        rest = &block[end..];
    }
    if certificates.is_empty() {
        return Err("there is no certificate (-----BEGIN CERTIFICATE-----) in it".into());
    }
    Ok(certificates)
}

/// The certificate was valid when the stamp was made.
pub(super) fn valid_at(certificate: &Certificate, at: DateTime<Utc>) -> Result<(), String> {
    let validity = &certificate.tbs_certificate.validity;
    let seconds = |time: x509_cert::time::Time| time.to_unix_duration().as_secs() as i64;
    let at_seconds = at.timestamp();
    if at_seconds < seconds(validity.not_before) || at_seconds > seconds(validity.not_after) {
        return Err(format!(
            "the certificate of {} was not valid at the stamp's time",
            name_words(&certificate.tbs_certificate.subject)
        ));
    }
    Ok(())
}

/// SHA-256 of the certificate's DER, as `openssl x509 -noout -fingerprint -sha256` prints it
/// (upper-case hex pairs joined by colons).
pub(super) fn fingerprint(certificate: &Certificate) -> String {
    let der = certificate
        .to_der()
        .expect("a read certificate always writes");
    Sha256::digest(der)
        .iter()
        .map(|byte| format!("{byte:02X}"))
        .collect::<Vec<_>>()
        .join(":")
}
