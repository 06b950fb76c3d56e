//! The `warcinfo` record that opens the WARC: who collected the case, with which installation,
//! tool and system, and how each record was made, in words.

use super::warc::{self, Kind, Record};
use super::{Collector, WARC_NAME};
use crate::evidence::Bundle;

/// How request and response records are made, in words, for `warcinfo`.
const RECORDS_IN_WORDS: &str = "Each request record is rebuilt from what Sightline recorded \
    of it: the method, the URL that answered (with its query), the headers this version of \
    Sightline sends (Host, User-Agent, Accept; with a POST, Content-Type and Content-Length) \
    and a POST's JSON body, re-encoded from the parameters kept exactly as the client encodes \
    it. The Authorization header, which carried the API key, is left out of every request \
    record. Each response record holds the HTTP status and the exact bytes received (its \
    payload digest is the SHA-256 Sightline recorded at capture). A response record whose \
    WARC-Sightline-Response-Headers is as-received carries every header of the response in \
    the order received (names in lower case), except that Transfer-Encoding and \
    Content-Encoding are written as X-Sightline-Original-Transfer-Encoding and \
    X-Sightline-Original-Content-Encoding, because the bytes kept are the body as delivered \
    after them; a Content-Length that does not count the bytes kept is written as \
    X-Sightline-Original-Content-Length, and the true Content-Length added when the answer had \
    none; a header value that held the API key is replaced by words saying so. A response \
    record whose WARC-Sightline-Response-Headers is billing-only was captured before Sightline \
    kept every header: only its billing headers are written, and a Content-Length of the bytes \
    kept; no other header is invented. A 304 answer re-used a stored copy: its record has no \
    body, and names that copy's SHA-256. Each resource record is a post's evidence card, made \
    when this archive was exported.";

pub(super) fn warcinfo(
    bundle: &Bundle,
    collector: &Collector<'_>,
    unkept: usize,
    billing_only: usize,
) -> Record {
    let mut fields: Vec<(&str, String)> = vec![
        ("software", format!("Sightline {}", bundle.app_version)),
        ("format", "WARC File Format 1.1".into()),
        (
            "conformsTo",
            "https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/"
                .into(),
        ),
        ("isPartOf", bundle.name.clone()),
        ("description", bundle.description.clone()),
        (
            "collected-by",
            collector
                .name
                .clone()
                .unwrap_or_else(|| "(no collector named in Settings)".into()),
        ),
        (
            "installation-key-fingerprint",
            collector.signer.public_key().fingerprint(),
        ),
        ("operating-system", collector.os.clone()),
        ("exported-at", crate::evidence::utc_iso(bundle.created_at)),
        ("display-zone", bundle.zone.name().to_owned()),
        ("records", RECORDS_IN_WORDS.into()),
    ];
    if let Some(id) = bundle.investigation_id {
        fields.insert(4, ("investigation-id", id.to_string()));
    }
    if unkept > 0 {
        fields.push((
            "not-archived",
            format!(
                "{unkept} of the case's requests were recorded before Sightline kept \
                 provenance: their responses' bytes were not kept, so they have no records here."
            ),
        ));
    }
    if billing_only == 0 {
        fields.push((
            "response-headers",
            "Every response record carries the response's headers as received.".into(),
        ));
    } else {
        fields.push((
            "response-headers",
            format!(
                "{} response records were captured before Sightline kept every response \
                 header: they carry only the billing headers, and say billing-only in their \
                 WARC-Sightline-Response-Headers field; every other response record carries \
                 the headers as received.",
                billing_only
            ),
        ));
    }
    if !bundle.media.is_empty() {
        fields.push(("media", super::media::MEDIA_IN_WORDS.into()));
    }
    let mut block = String::new();
    for (name, value) in fields {
        let value: String = value
            .chars()
            .map(|c| if c == '\r' || c == '\n' { ' ' } else { c })
            .collect();
        block.push_str(&format!("{name}: {value}\r\n"));
    }
    Record {
        kind: Kind::Warcinfo,
        id: warc::record_id(),
        date: bundle.created_at,
        target: None,
        content_type: "application/warc-fields".into(),
        payload_from: None,
        fields: vec![("WARC-Filename".into(), WARC_NAME.into())],
        block: block.into_bytes(),
    }
}
