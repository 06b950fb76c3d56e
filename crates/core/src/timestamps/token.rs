//! Reading a `TimeStampResp` and checking its token: the hash, the signed attributes, the
//! signature, the signing certificate the token names (ESS) and its time-stamping use, its
//! validity at the stamp's time, and its chain ([`super::chain`]).

use chrono::{DateTime, Utc};
use cms::cert::CertificateChoices;
use cms::signed_data::{SignedData, SignerIdentifier, SignerInfo};
use const_oid::db::rfc5280::{ID_CE_EXT_KEY_USAGE, ID_KP_TIME_STAMPING};
use const_oid::db::rfc5911::{
    ID_AA_SIGNING_CERTIFICATE, ID_AA_SIGNING_CERTIFICATE_V_2, ID_CONTENT_TYPE, ID_MESSAGE_DIGEST,
    ID_SIGNED_DATA,
};
use const_oid::db::rfc5912::ID_SHA_256;
use der::asn1::{Int, ObjectIdentifier, OctetString};
use der::{Decode, Encode, EncodePem};
use sha1::Sha1;
use sha2::Digest;
use x509_cert::ext::pkix::{ExtendedKeyUsage, SubjectKeyIdentifier};
use x509_cert::Certificate;

use super::asn1::{
    generalized_time, PkiStatusInfo, SigningCertificate, SigningCertificateV2, TimeStampResp,
    TstInfo,
};
use super::chain;
use super::signature::{verify, Hash};
use super::TokenCheck;

/// `id-ct-TSTInfo`: the content type of a token's signed content.
const ID_CT_TST_INFO: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.16.1.4");

/// Why a reply gives no stamp.
#[derive(Debug)]
pub(super) enum Problem {
    /// The authority said no; its words.
    Refused(String),
    /// The reply cannot be read or is not for this request; why, in words.
    Bad(String),
}

/// What a granted reply for this request says.
pub(super) struct Granted {
    pub stamped_at: DateTime<Utc>,
    pub authority: String,
    pub certificates_pem: String,
}

/// A token read from its reply.
struct Token {
    tst: TstInfo,
    /// The exact bytes the signer hashed (the TSTInfo's DER).
    tst_der: Vec<u8>,
    signed: SignedData,
    /// Every certificate the token carries.
    certificates: Vec<Certificate>,
    stamped_at: DateTime<Utc>,
}

/// Reads a reply granted for `digest` (and `nonce`, when the request had one) and checks its
/// signature and signing certificate; the chain is the reader's to judge later ([`check`]).
pub(super) fn granted(
    reply: &[u8],
    digest: &[u8; 32],
    nonce: Option<&Int>,
) -> Result<Granted, Problem> {
    let token = open(reply)?;
    if let Some(nonce) = nonce {
        if token.tst.nonce.as_ref() != Some(nonce) {
            return Err(Problem::Bad(
                "its nonce is not the one sent, so it may be a replayed or another request's \
                 answer"
                    .into(),
            ));
        }
    }
    let signer = verify_token(&token, digest, &[]).map_err(Problem::Bad)?;
    let mut pem = String::new();
    for certificate in
        std::iter::once(signer).chain(token.certificates.iter().filter(|c| *c != signer))
    {
        pem.push_str(&certificate_pem(certificate));
    }
    Ok(Granted {
        stamped_at: token.stamped_at,
        authority: name_words(&signer.tbs_certificate.subject),
        certificates_pem: pem,
    })
}

/// The full check of a stored reply.
pub(super) fn check(reply: &[u8], digest: &[u8; 32], trusted_pem: Option<&str>) -> TokenCheck {
    let invalid = |why: String| TokenCheck::Invalid { why };
    let trusted = match trusted_pem.map(chain::read_added).transpose() {
        Ok(trusted) => trusted,
        Err(why) => {
            return invalid(format!(
                "The token was not checked: {why}. Check the authority certificates in \
                 Settings."
            ))
        }
    };
    let token = match open(reply) {
        Ok(token) => token,
        Err(Problem::Refused(text)) => {
            return invalid(format!(
                "This is the authority's refusal, not a timestamp: {text}"
            ))
        }
        Err(Problem::Bad(why)) => return invalid(format!("This is not a valid timestamp: {why}.")),
    };
    let trusted = trusted.unwrap_or_default();
    let signer = match verify_token(&token, digest, &trusted) {
        Ok(signer) => signer,
        Err(why) => return invalid(format!("This timestamp is not valid: {why}.")),
    };
    let chain = match chain::trace(
        signer,
        &token.certificates,
        trusted_pem.map(|_| &trusted[..]),
        token.stamped_at,
    ) {
        Ok(chain) => chain,
        Err(why) => return invalid(format!("This timestamp is not valid: {why}.")),
    };
    let authority = name_words(&signer.tbs_certificate.subject);
    let summary = format!(
        "{authority} attests that it saw this capture's SHA-256 hash at {} UTC. {}",
        token.stamped_at.format("%Y-%m-%d %H:%M:%S"),
        chain.words()
    );
    TokenCheck::Valid {
        stamped_at: token.stamped_at,
        authority,
        chain,
        summary,
    }
}

/// Reads the reply down to its TSTInfo; a refusal is told apart from a bad reply.
fn open(reply: &[u8]) -> Result<Token, Problem> {
    let bad = |what: &str, error: der::Error| Problem::Bad(format!("{what} ({error})"));
    let response =
        TimeStampResp::from_der(reply).map_err(|e| bad("it is not a timestamp reply", e))?;
    if response.status.status > 1 {
        return Err(Problem::Refused(status_words(&response.status)));
    }
    let token = response
        .time_stamp_token
        .ok_or_else(|| Problem::Bad("the reply grants a stamp but holds no token".into()))?;
    if token.content_type != ID_SIGNED_DATA {
        return Err(Problem::Bad("its token is not a signed message".into()));
    }
    let signed: SignedData = token
        .content
        .decode_as()
        .map_err(|e| bad("its signed message cannot be read", e))?;
    if signed.encap_content_info.econtent_type != ID_CT_TST_INFO {
        return Err(Problem::Bad("its signed message is not a timestamp".into()));
    }
    let tst_der = signed
        .encap_content_info
        .econtent
        .as_ref()
        .ok_or_else(|| Problem::Bad("its signed message holds no timestamp".into()))?
        .decode_as::<OctetString>()
        .map_err(|e| bad("its timestamp cannot be read", e))?
        .into_bytes();
    let tst = TstInfo::from_der(&tst_der).map_err(|e| bad("its timestamp cannot be read", e))?;
    if tst.version != 1 {
        return Err(Problem::Bad(format!(
            "its timestamp is of version {}, not 1",
            tst.version
        )));
    }
    let stamped_at = generalized_time(&tst.gen_time)
        .ok_or_else(|| Problem::Bad("its time cannot be read".into()))?;
    let certificates = signed
        .certificates
        .iter()
        .flat_map(|set| set.0.iter())
        .filter_map(|choice| match choice {
            CertificateChoices::Certificate(certificate) => Some(certificate.clone()),
            CertificateChoices::Other(_) => None,
        })
        .collect();
    Ok(Token {
        tst,
        tst_der,
        signed,
        certificates,
        stamped_at,
    })
}

/// Checks everything but the chain; returns the signing certificate. `extra` are certificates
/// to look for the signer in when the token does not carry it.
fn verify_token<'t>(
    token: &'t Token,
    digest: &[u8; 32],
    extra: &'t [Certificate],
) -> Result<&'t Certificate, String> {
    let imprint = &token.tst.message_imprint;
    if imprint.hash_algorithm.oid != ID_SHA_256 {
        return Err(format!(
            "it stamps a hash of another kind ({}), not this capture's SHA-256",
            imprint.hash_algorithm.oid
        ));
    }
    if imprint.hashed_message.as_bytes() != digest {
        return Err("it stamps another hash, not this capture's".into());
    }
    let signers = token.signed.signer_infos.0.as_slice();
    let [signer_info] = signers else {
        return Err(format!(
            "it has {} signatures where a timestamp has exactly one",
            signers.len()
        ));
    };
    let certificate = token
        .certificates
        .iter()
        .chain(extra)
        .find(|c| names(signer_info, c))
        .ok_or("it does not carry the certificate of the key that signed it")?;
    let attributes = signer_info
        .signed_attrs
        .as_ref()
        .ok_or("its signature covers no signed attributes")?;
    let attribute = |oid| {
        let mut found = attributes.iter().filter(|a| a.oid == oid);
        match (found.next(), found.next()) {
            (Some(a), None) if a.values.len() == 1 => Ok(Some(&a.values.as_slice()[0])),
            (None, _) => Ok(None),
            _ => Err(format!(
                "its signed attribute {oid} is there more than once"
            )),
        }
    };
    let content_type = attribute(ID_CONTENT_TYPE)?
        .ok_or("its signed attributes name no content type")?
        .decode_as::<ObjectIdentifier>()
        .map_err(|e| format!("its content type cannot be read ({e})"))?;
    if content_type != ID_CT_TST_INFO {
        return Err("its signed attributes name another content type".into());
    }
    let hash = Hash::from_oid(&signer_info.digest_alg.oid)?;
    let message_digest = attribute(ID_MESSAGE_DIGEST)?
        .ok_or("its signed attributes hold no message digest")?
        .decode_as::<OctetString>()
        .map_err(|e| format!("its message digest cannot be read ({e})"))?;
    if message_digest.as_bytes() != hash.digest(&token.tst_der) {
        return Err(
            "its timestamp does not hash to the digest its signature covers: the timestamp \
             was changed after it was signed"
                .into(),
        );
    }
    // What is signed is the attributes' DER as a SET (RFC 5652 §5.4), not their [0] tag.
    let signed_bytes = attributes
        .to_der()
        .map_err(|e| format!("its signed attributes cannot be written ({e})"))?;
    verify(
        &certificate.tbs_certificate.subject_public_key_info,
        &signer_info.signature_algorithm,
        Some(&signer_info.digest_alg.oid),
        &signed_bytes,
        signer_info.signature.as_bytes(),
    )?;
    ess_names(
        attribute(ID_AA_SIGNING_CERTIFICATE)?,
        attribute(ID_AA_SIGNING_CERTIFICATE_V_2)?,
        certificate,
    )?;
    time_stamping_only(certificate)?;
    chain::valid_at(certificate, token.stamped_at)?;
    Ok(certificate)
}

/// Whether the signer info names this certificate.
fn names(signer: &SignerInfo, certificate: &Certificate) -> bool {
    let tbs = &certificate.tbs_certificate;
    match &signer.sid {
        SignerIdentifier::IssuerAndSerialNumber(id) => {
            id.issuer == tbs.issuer && id.serial_number == tbs.serial_number
        }
        SignerIdentifier::SubjectKeyIdentifier(id) => tbs
            .get::<SubjectKeyIdentifier>()
            .ok()
            .flatten()
            .is_some_and(|(_, own)| own == *id),
    }
}

/// The ESS signing-certificate attribute (v1, SHA-1; or v2, any hash) must name the signer's
/// certificate by its hash, so another certificate with the same key cannot stand in for it.
fn ess_names(
    v1: Option<&der::Any>,
    v2: Option<&der::Any>,
    certificate: &Certificate,
) -> Result<(), String> {
    let der = certificate
        .to_der()
        .map_err(|e| format!("its certificate cannot be written ({e})"))?;
    let unreadable =
        |e: der::Error| format!("its signing-certificate attribute cannot be read ({e})");
    let first_matches = if let Some(v2) = v2 {
        let ess: SigningCertificateV2 = v2.decode_as().map_err(unreadable)?;
        let first = ess
            .certs
            .first()
            .ok_or("its signing-certificate attribute is empty")?;
        let hash = match &first.hash_algorithm {
            Some(algorithm) => Hash::from_oid(&algorithm.oid)?,
            None => Hash::Sha256,
        };
        first.cert_hash.as_bytes() == hash.digest(&der)
    } else if let Some(v1) = v1 {
        let ess: SigningCertificate = v1.decode_as().map_err(unreadable)?;
        let first = ess
            .certs
            .first()
            .ok_or("its signing-certificate attribute is empty")?;
        // SHA-1 here only identifies a certificate the signature already covers.
        first.cert_hash.as_bytes() == Sha1::digest(&der).as_slice()
    } else {
        return Err(
            "its signature does not name the certificate it was made with (no ESS \
                    signing-certificate attribute)"
                .into(),
        );
    };
    if first_matches {
        Ok(())
    } else {
        Err("its signature names another certificate than the one it carries".into())
    }
}

/// RFC 3161 §2.3: the signing certificate's extended key usage is critical and is
/// time-stamping alone.
fn time_stamping_only(certificate: &Certificate) -> Result<(), String> {
    let extension = certificate
        .tbs_certificate
        .extensions
        .iter()
        .flatten()
        .find(|e| e.extn_id == ID_CE_EXT_KEY_USAGE)
        .ok_or("its certificate is not one for time-stamping (no extended key usage)")?;
    let usage = ExtendedKeyUsage::from_der(extension.extn_value.as_bytes())
        .map_err(|e| format!("its certificate's extended key usage cannot be read ({e})"))?;
    if !extension.critical || usage.0 != [ID_KP_TIME_STAMPING] {
        return Err(
            "its certificate is not one for time-stamping alone (RFC 3161 asks for a critical \
             extended key usage of time-stamping only)"
                .into(),
        );
    }
    Ok(())
}

/// The authority's refusal in words: its own text, else its status.
fn status_words(status: &PkiStatusInfo) -> String {
    let text = status
        .status_string
        .as_ref()
        .map(|lines| lines.join(" "))
        .filter(|t| !t.trim().is_empty());
    let kind = match status.status {
        2 => "it rejected the request",
        3 => "it asks to wait",
        4 | 5 => "its certificate is being revoked",
        _ => "it did not grant a stamp",
    };
    match text {
        Some(text) => format!("{kind} (“{}”)", text.trim()),
        None => kind.to_owned(),
    }
}

/// A certificate as PEM.
pub(super) fn certificate_pem(certificate: &Certificate) -> String {
    certificate
        .to_pem(der::pem::LineEnding::LF)
        .expect("a read certificate always writes")
}

/// A subject in words: its common name, with its organisation when there is one, else the whole
/// name as RFC 4514 writes it.
pub(super) fn name_words(name: &x509_cert::name::Name) -> String {
    use const_oid::db::rfc4519::{CN, O};
    let value = |oid| {
        name.0
            .iter()
            .flat_map(|rdn| rdn.0.iter())
            .find(|atv| atv.oid == oid)
            .and_then(|atv| std::str::from_utf8(atv.value.value()).ok())
            .map(str::to_owned)
    };
    match (value(CN), value(O)) {
        (Some(cn), Some(o)) if cn != o => format!("{cn} ({o})"),
        (Some(cn), _) => cn,
        (None, Some(o)) => o,
        (None, None) => name.to_string(),
    }
}
