//! WARC 1.1 records, each its own gzip member (so a reader can seek to one record by the
//! offset and length the index gives), with the digests `warcio check` verifies:
//! `WARC-Block-Digest` over the record's whole block and, for HTTP records and resources,
//! `WARC-Payload-Digest` over the payload (an HTTP message's body). Both are SHA-256 written
//! `sha256:` and lower-case hex, the form Sightline writes every hash in (so a response's
//! payload digest reads the same as its provenance hash); WARC leaves the encoding open and
//! `warcio` reads hex as well as base32.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

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
    /// A document Sightline made itself (a post's card), or a file kept without its response
    /// (a video's still picture).
    Resource,
    /// Words about another record's target (a media file left out, and why).
    Metadata,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Warcinfo => "warcinfo",
            Kind::Request => "request",
            Kind::Response => "response",
            Kind::Resource => "resource",
            Kind::Metadata => "metadata",
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
    let block_digest = digest(&record.block);
    let payload_digest = record
        .payload_from
        .map(|from| digest(&record.block[from.min(record.block.len())..]));
    let head = warc_head(
        record,
        &block_digest,
        payload_digest.as_deref(),
        record.block.len() as u64,
    );
    let mut bytes = Vec::with_capacity(head.len() + record.block.len() + 4);
    bytes.extend_from_slice(&head);
    bytes.extend_from_slice(&record.block);
    bytes.extend_from_slice(b"\r\n\r\n");
    (bytes, payload_digest)
}

/// The WARC head of `record` (its version line, fields and the blank line), for a block of
/// `block_len` bytes with these digests.
fn warc_head(
    record: &Record,
    block_digest: &str,
    payload_digest: Option<&str>,
    block_len: u64,
) -> Vec<u8> {
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
    line("WARC-Block-Digest", block_digest);
    if let Some(payload) = payload_digest {
        line("WARC-Payload-Digest", payload);
    }
    for (name, value) in &record.fields {
        line(name, value);
    }
    line("Content-Length", &block_len.to_string());
    let mut bytes = Vec::with_capacity(head.len() + 16);
    bytes.extend_from_slice(b"WARC/1.1\r\n");
    bytes.extend_from_slice(head.as_bytes());
    bytes.extend_from_slice(b"\r\n");
    bytes
}

/// Counts what passes through to the writer it wraps.
struct Counting<'w> {
    inner: &'w mut dyn Write,
    bytes: u64,
}

impl Write for Counting<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// SHA-256 and length of everything `read` yields, read through a fixed buffer.
pub fn digest_of(read: &mut dyn Read) -> std::io::Result<([u8; 32], u64)> {
    let mut sha = Sha256::new();
    let mut buffer = vec![0u8; 64 * 1024];
    let mut bytes = 0u64;
    loop {
        let n = read.read(&mut buffer)?;
        if n == 0 {
            break;
        }
        sha.update(&buffer[..n]);
        bytes += n as u64;
    }
    Ok((sha.finalize().into(), bytes))
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

/// What became of a record whose payload is a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileRecord {
    /// Written.
    Written(Written),
    /// Not written, nothing of it: why, in words (the file is missing, or no longer holds the
    /// bytes it was kept with).
    LeftOut(String),
}

impl WarcFile {
    /// Writes a record whose block is `record.block` (an HTTP message's head, or nothing for a
    /// resource) followed by the file at `payload`, too large to hold in memory: the file is
    /// read twice, once for the digests and length the record's head states, once streamed
    /// into the gzip member. `payload_sha256` is the file's recorded SHA-256 (lower-case hex):
    /// a file missing or no longer hashing to it is left out before anything is written; one
    /// that changes between the two reads fails the write.
    pub fn write_with_file(
        &mut self,
        record: &Record,
        payload: &Path,
        payload_sha256: &str,
        out: &mut dyn Write,
    ) -> std::io::Result<FileRecord> {
        let mut file = match File::open(payload) {
            Ok(file) => file,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                return Ok(FileRecord::LeftOut(
                    "its file is no longer in this computer's media folder".into(),
                ))
            }
            Err(error) => return Err(error),
        };
        let (payload_digest, payload_len) = digest_of(&mut file)?;
        let actual = hex(&payload_digest);
        if actual != payload_sha256 {
            return Ok(FileRecord::LeftOut(format!(
                "its file in this computer's media folder no longer holds the bytes kept \
                 (it hashes to {actual})"
            )));
        }
        file.seek(SeekFrom::Start(0))?;
        let (block_digest, _) = digest_of(&mut record.block.as_slice().chain(&mut file))?;
        file.seek(SeekFrom::Start(0))?;
        let block_len = record.block.len() as u64 + payload_len;
        let payload_digest = format!("sha256:{payload_sha256}");
        let head = warc_head(
            record,
            &format!("sha256:{}", hex(&block_digest)),
            record.payload_from.map(|_| payload_digest.as_str()),
            block_len,
        );
        let mut counted = Counting {
            inner: out,
            bytes: 0,
        };
        let mut gz = GzEncoder::new(&mut counted, Compression::fast());
        gz.write_all(&head)?;
        gz.write_all(&record.block)?;
        // Hashed again as it is copied: a file changed between the reads (its length too)
        // would leave a record whose digests lie, so the write fails instead.
        let mut again = Sha256::new();
        let mut buffer = vec![0u8; 64 * 1024];
        loop {
            let n = file.read(&mut buffer)?;
            if n == 0 {
                break;
            }
            again.update(&buffer[..n]);
            gz.write_all(&buffer[..n])?;
        }
        if hex(&again.finalize()) != payload_sha256 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "{} changed while it was being written into the archive",
                    payload.display()
                ),
            ));
        }
        gz.write_all(b"\r\n\r\n")?;
        gz.finish()?;
        let length = counted.bytes;
        let offset = self.written;
        self.written += length;
        Ok(FileRecord::Written(Written {
            offset,
            length,
            payload_digest: record.payload_from.map(|_| payload_digest),
        }))
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
