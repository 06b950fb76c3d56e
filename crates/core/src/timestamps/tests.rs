//! The request's DER and the reading of `genTime`; tokens from a real authority are checked in
//! the integration tests (tests/timestamps.rs, against a local `openssl ts -reply`).

use chrono::{TimeZone, Utc};
use der::asn1::Any;
use der::{Decode, Tag};

use super::asn1::{generalized_time, TimeStampReq};
use super::*;

#[test]
fn a_request_is_version_1_with_the_sha256_imprint_the_nonce_and_cert_req() {
    let digest = [7u8; 32];
    let der = request_der(&digest, 0x8000_0000_0000_0001);
    let request = TimeStampReq::from_der(&der).expect("a TimeStampReq");
    assert_eq!(request.version, 1);
    assert_eq!(request.message_imprint.hash_algorithm.oid, ID_SHA_256);
    assert_eq!(request.message_imprint.hashed_message.as_bytes(), digest);
    assert!(request.cert_req);
    // The high bit set: DER writes a leading zero so the INTEGER stays positive.
    assert_eq!(
        request.nonce.expect("a nonce").as_bytes(),
        [0x00, 0x80, 0, 0, 0, 0, 0, 0, 0x01]
    );
    assert_eq!(
        request_der(&digest, 1).len() + 8,
        der.len(),
        "a small nonce is written in one byte"
    );
}

fn time(text: &str) -> Option<chrono::DateTime<Utc>> {
    generalized_time(&Any::new(Tag::GeneralizedTime, text.as_bytes()).expect("an Any"))
}

#[test]
fn gen_time_is_read_with_and_without_fractions_of_a_second() {
    let whole = Utc.with_ymd_and_hms(2026, 11, 27, 21, 0, 5).unwrap();
    assert_eq!(time("20261127210005Z"), Some(whole));
    assert_eq!(
        time("20261127210005.25Z"),
        Some(whole + chrono::Duration::milliseconds(250))
    );
    // Not DER: a trailing zero, no zone, a local time, an empty fraction.
    for bad in [
        "20261127210005.250Z",
        "20261127210005",
        "20261127210005+0100",
        "20261127210005.Z",
    ] {
        assert_eq!(time(bad), None, "{bad}");
    }
    let utc_time = Any::new(Tag::UtcTime, b"261127210005Z".as_slice()).unwrap();
    assert_eq!(generalized_time(&utc_time), None);
}
