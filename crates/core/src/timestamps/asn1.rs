//! The few ASN.1 types of RFC 3161 (and of ESS, RFC 2634 / RFC 5035) a token needs, as DER
//! structures. Written out here rather than taken from `x509-tsp`: its `TSTInfo` reads `genTime`
//! as a `GeneralizedTime` without fractions of a second, which public authorities do write
//! (`20261127210000.123Z`), so here `genTime` is kept raw and read by [`generalized_time`].

use chrono::{DateTime, NaiveDateTime, Utc};
use der::asn1::{BitString, Int, ObjectIdentifier, OctetString};
use der::{Any, Sequence, Tag, Tagged};
use spki::AlgorithmIdentifierOwned;
use x509_cert::ext::pkix::name::GeneralName;
use x509_cert::ext::Extensions;

/// ```text
/// TimeStampReq ::= SEQUENCE  {
///    version          INTEGER  { v1(1) },
///    messageImprint   MessageImprint,
///    reqPolicy        TSAPolicyId              OPTIONAL,
///    nonce            INTEGER                  OPTIONAL,
///    certReq          BOOLEAN                  DEFAULT FALSE,
///    extensions       [0] IMPLICIT Extensions  OPTIONAL  }
/// ```
#[derive(Clone, Debug, Eq, PartialEq, Sequence)]
pub(super) struct TimeStampReq {
    pub version: u8,
    pub message_imprint: MessageImprint,
    #[asn1(optional = "true")]
    pub req_policy: Option<ObjectIdentifier>,
    #[asn1(optional = "true")]
    pub nonce: Option<Int>,
    #[asn1(default = "Default::default")]
    pub cert_req: bool,
}

/// `MessageImprint ::= SEQUENCE { hashAlgorithm AlgorithmIdentifier, hashedMessage OCTET STRING }`
#[derive(Clone, Debug, Eq, PartialEq, Sequence)]
pub(super) struct MessageImprint {
    pub hash_algorithm: AlgorithmIdentifierOwned,
    pub hashed_message: OctetString,
}

/// `TimeStampResp ::= SEQUENCE { status PKIStatusInfo, timeStampToken ContentInfo OPTIONAL }`
#[derive(Clone, Debug, Eq, PartialEq, Sequence)]
pub(super) struct TimeStampResp {
    pub status: PkiStatusInfo,
    #[asn1(optional = "true")]
    pub time_stamp_token: Option<cms::content_info::ContentInfo>,
}

/// ```text
/// PKIStatusInfo ::= SEQUENCE {
///     status        PKIStatus,                      -- INTEGER, 0 granted, 1 grantedWithMods
///     statusString  PKIFreeText     OPTIONAL,       -- SEQUENCE OF UTF8String
///     failInfo      PKIFailureInfo  OPTIONAL  }     -- BIT STRING
/// ```
#[derive(Clone, Debug, Eq, PartialEq, Sequence)]
pub(super) struct PkiStatusInfo {
    pub status: u32,
    #[asn1(optional = "true")]
    pub status_string: Option<Vec<String>>,
    #[asn1(optional = "true")]
    pub fail_info: Option<BitString>,
}

/// ```text
/// TSTInfo ::= SEQUENCE  {
///     version         INTEGER  { v1(1) },
///     policy          TSAPolicyId,
///     messageImprint  MessageImprint,
///     serialNumber    INTEGER,
///     genTime         GeneralizedTime,
///     accuracy        Accuracy                 OPTIONAL,
///     ordering        BOOLEAN             DEFAULT FALSE,
///     nonce           INTEGER                  OPTIONAL,
///     tsa             [0] GeneralName          OPTIONAL,
///     extensions      [1] IMPLICIT Extensions  OPTIONAL  }
/// ```
#[derive(Clone, Debug, Eq, PartialEq, Sequence)]
pub(super) struct TstInfo {
    pub version: u8,
    pub policy: ObjectIdentifier,
    pub message_imprint: MessageImprint,
    pub serial_number: Int,
    /// Raw: read by [`generalized_time`], fractions of a second included.
    pub gen_time: Any,
    #[asn1(optional = "true")]
    pub accuracy: Option<Accuracy>,
    #[asn1(default = "Default::default")]
    pub ordering: bool,
    #[asn1(optional = "true")]
    pub nonce: Option<Int>,
    #[asn1(context_specific = "0", tag_mode = "EXPLICIT", optional = "true")]
    pub tsa: Option<GeneralName>,
    #[asn1(context_specific = "1", tag_mode = "IMPLICIT", optional = "true")]
    pub extensions: Option<Extensions>,
}

/// `Accuracy ::= SEQUENCE { seconds INTEGER OPTIONAL, millis [0] INTEGER OPTIONAL, micros [1] INTEGER OPTIONAL }`
#[derive(Clone, Debug, Eq, PartialEq, Sequence)]
pub(super) struct Accuracy {
    #[asn1(optional = "true")]
    pub seconds: Option<u64>,
    #[asn1(context_specific = "0", tag_mode = "IMPLICIT", optional = "true")]
    pub millis: Option<u16>,
    #[asn1(context_specific = "1", tag_mode = "IMPLICIT", optional = "true")]
    pub micros: Option<u16>,
}

/// ESS `SigningCertificate ::= SEQUENCE { certs SEQUENCE OF ESSCertID, policies … OPTIONAL }`
/// (RFC 2634), `ESSCertID ::= SEQUENCE { certHash OCTET STRING (SHA-1), issuerSerial … OPTIONAL }`.
#[derive(Clone, Debug, Eq, PartialEq, Sequence)]
pub(super) struct SigningCertificate {
    pub certs: Vec<EssCertId>,
    #[asn1(optional = "true")]
    pub policies: Option<Any>,
}

/// One `ESSCertID`: the SHA-1 of a certificate's DER.
#[derive(Clone, Debug, Eq, PartialEq, Sequence)]
pub(super) struct EssCertId {
    pub cert_hash: OctetString,
    #[asn1(optional = "true")]
    pub issuer_serial: Option<Any>,
}

/// ESS `SigningCertificateV2` (RFC 5035): as [`SigningCertificate`], each hash with its algorithm.
#[derive(Clone, Debug, Eq, PartialEq, Sequence)]
pub(super) struct SigningCertificateV2 {
    pub certs: Vec<EssCertIdV2>,
    #[asn1(optional = "true")]
    pub policies: Option<Any>,
}

/// `ESSCertIDv2 ::= SEQUENCE { hashAlgorithm AlgorithmIdentifier DEFAULT sha256, certHash
/// OCTET STRING, issuerSerial … OPTIONAL }` (the default read as an absent algorithm).
#[derive(Clone, Debug, Eq, PartialEq, Sequence)]
pub(super) struct EssCertIdV2 {
    #[asn1(optional = "true")]
    pub hash_algorithm: Option<AlgorithmIdentifierOwned>,
    pub cert_hash: OctetString,
    #[asn1(optional = "true")]
    pub issuer_serial: Option<Any>,
}

/// Reads a DER `GeneralizedTime` in UTC, with or without fractions of a second
/// (`YYYYMMDDHHMMSS[.f…]Z`, as RFC 3161 §2.4.2 allows).
pub(super) fn generalized_time(value: &Any) -> Option<DateTime<Utc>> {
    if value.tag() != Tag::GeneralizedTime {
        return None;
    }
    let text = std::str::from_utf8(value.value()).ok()?;
    let text = text.strip_suffix('Z')?;
    let (whole, fraction) = match text.split_once('.') {
        Some((whole, fraction)) => (whole, Some(fraction)),
        None => (text, None),
    };
    if whole.len() != 14 || !whole.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut time = NaiveDateTime::parse_from_str(whole, "%Y%m%d%H%M%S")
        .ok()?
        .and_utc();
    if let Some(fraction) = fraction {
        // DER: digits, no trailing zero, at most nanoseconds are kept.
        if fraction.is_empty()
            || fraction.ends_with('0')
            || !fraction.bytes().all(|b| b.is_ascii_digit())
        {
            return None;
        }
        let nanos: String = fraction
            .chars()
            .chain("000000000".chars())
            .take(9)
            .collect();
        time += chrono::Duration::nanoseconds(nanos.parse().ok()?);
    }
    Some(time)
}
