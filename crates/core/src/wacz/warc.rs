//! WARC 1.1 records, each its own gzip member (so a reader can seek to one record by the
//! offset and length the index gives), with the digests `warcio check` verifies:
//! `WARC-Block-Digest` over the record's whole block and, for HTTP records and resources,
//! `WARC-Payload-Digest` over the payload (an HTTP message's body). Both are SHA-256 written
//! `sha256:` and lower-case hex, the form Sightline writes every hash in (so a response's
//! payload digest reads the same as its provenance hash); WARC leaves the encoding open and
//! `warcio` reads hex as well as base32.

use std::io::Write;

use chrono::{DateTime, SecondsFormat, Utc};
use flate2::write::GzEncoder;
use flate2::Compression;
use sha2::{Digest, Sha256};

use crate::evidence::hex;

/// The kinds of record a Sightline web archive holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// What the archive is, who made it and how (`application/warc-fields`).
    Warcinfo,
    /// An HTTP request as sent.
    Request,
    /// An HTTP response as received.
    Response,
    /// A document Sightline made itself (a post's card).
    Resource,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Warcinfo => "warcinfo",
            Kind::Request => "request",
            Kind::Response => "response",
            Kind::Resource => "resource",
        }
    }
}

/// One record before it is written: its fields and block.
pub struct Record {
    /// Its type.
    pub kind: Kind,
    /// `<urn:uuid:…>`, see [`record_id`].
    pub id: String,
    /// When the content was captured or made.
    pub date: DateTime<Utc>,
    /// The URI the record is about (none for `warcinfo`).
    pub target: Option<String>,
    /// The block's media type.
    pub content_type: String,
    /// Where the payload starts in `block`: after an HTTP message's head; 0 for a resource;
    /// `None` for a record with no payload digest (`warcinfo`).
    pub payload_from: Option<usize>,
    /// Further fields, in order (`WARC-Concurrent-To`, Sightline's own).
    pub fields: Vec<(String, String)>,
    /// The block: an HTTP message (head and body), a document, or warc-fields.
    pub block: Vec<u8>,
}

/// A record written: where its gzip member sits in the file, and what the index needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    /// Offset of its gzip member from the start of the WARC file.
    pub offset: u64,
    /// Length of that member, in bytes.
    pub length: u64,
    /// `sha256:<hex>` of the payload, when it has one.
    pub payload_digest: Option<String>,
}

/// `sha256:<hex>` of `bytes`.
pub fn digest(bytes: &[u8]) -> String {
    format!("sha256:{}", hex(&Sha256::digest(bytes)))
}

/// `2026-11-27T21:04:00.123Z`: WARC 1.1 allows fractions of a second, and a capture's time is
/// kept to the millisecond.
pub fn warc_date(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// A new record id: a random (version 4) UUID as a URN, in angle brackets as WARC writes it.
pub fn record_id() -> String {
    let mut b = [0u8; 16];
    // Without randomness, ids still differ by a counter and the clock: they only need to be
    // unique within this file and unlikely elsewhere.
    if getrandom::getrandom(&mut b).is_err() {
        use std::sync::atomic::{AtomicU64, Ordering};
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let t = Utc::now().timestamp_nanos_opt().unwrap_or_default() as u64;
        b[..8].copy_from_slice(&t.to_be_bytes());
        b[8..].copy_from_slice(&n.to_be_bytes());
    }
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h = hex(&b);
    format!(
        "<urn:uuid:{}-{}-{}-{}-{}>",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    )
}

/// A field value on one line: a line break in a value would end the field (and could forge
/// another), so each is written as a space.
fn one_line(value: &str) -> String {
    value
        .chars()
        .map(|c| if c == '\r' || c == '\n' { ' ' } else { c })
        .collect()
}

/// The record's bytes, uncompressed: the WARC head, the block and the two line ends after it.
pub fn serialize(record: &Record) -> (Vec<u8>, Option<String>) {
    let mut head = String::with_capacity(512);
    let mut line = |name: &str, value: &str| {
        head.push_str(name);
        head.push_str(": ");
        head.push_str(&one_line(value));
        head.push_str("\r\n");
    };
    line("WARC-Type", record.kind.name());
    line("WARC-Record-ID", &record.id);
    line("WARC-Date", &warc_date(record.date));
    if let Some(target) = &record.target {
        line("WARC-Target-URI", target);
    }
    line("Content-Type", &record.content_type);
    line("WARC-Block-Digest", &digest(&record.block));
    let payload_digest = record
        .payload_from
        .map(|from| digest(&record.block[from.min(record.block.len())..]));
    if let Some(payload) = &payload_digest {
        line("WARC-Payload-Digest", payload);
    }
    for (name, value) in &record.fields {
        line(name, value);
    }
    line("Content-Length", &record.block.len().to_string());
    let mut bytes = Vec::with_capacity(head.len() + record.block.len() + 16);
    bytes.extend_from_slice(b"WARC/1.1\r\n");
    bytes.extend_from_slice(head.as_bytes());
    bytes.extend_from_slice(b"\r\n");
    bytes.extend_from_slice(&record.block);
    bytes.extend_from_slice(b"\r\n\r\n");
    (bytes, payload_digest)
}

/// The WARC file being written: one gzip member per record, its offset counted.
#[derive(Debug, Default)]
pub struct WarcFile {
    written: u64,
}

impl WarcFile {
    /// Compresses `record` as its own gzip member and writes it to `out`.
    pub fn write(&mut self, record: &Record, out: &mut dyn Write) -> std::io::Result<Written> {
        let (bytes, payload_digest) = serialize(record);
        let mut gz = GzEncoder::new(
            Vec::with_capacity(bytes.len() / 3 + 64),
            Compression::fast(),
        );
        gz.write_all(&bytes)?;
        let member = gz.finish()?;
        out.write_all(&member)?;
        let offset = self.written;
        self.written += member.len() as u64;
        Ok(Written {
            offset,
            length: member.len() as u64,
            payload_digest,
        })
    }
}

/// An HTTP/1.1 message's head: its first line, each header, and the blank line.
pub fn http_head(first_line: &str, headers: &[(String, String)]) -> Vec<u8> {
    let mut head = String::with_capacity(256);
    head.push_str(&one_line(first_line));
    head.push_str("\r\n");
    for (name, value) in headers {
        head.push_str(&one_line(name));
        head.push_str(": ");
        head.push_str(&one_line(value));
        head.push_str("\r\n");
    }
    head.push_str("\r\n");
    head.into_bytes()
}

/// The reason phrase HTTP/1.1 gives a status (RFC 9110), empty for one it does not name.
pub fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        202 => "Accepted",
        204 => "No Content",
        304 => "Not Modified",
        400 => "Bad Request",
        401 => "Unauthorized",
        402 => "Payment Required",
        403 => "Forbidden",
        404 => "Not Found",
        422 => "Unprocessable Content",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        _ => "",
    }
}
