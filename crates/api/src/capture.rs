//! What a response was, byte for byte: the exact bytes received, their SHA-256, the HTTP
//! status, the billing headers as they were written and the URL that answered. The app keeps
//! this as the response's provenance, so anyone can later check that a stored answer is the
//! one the service sent.

use std::collections::BTreeMap;

use reqwest::header::HeaderMap;
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::billing;

/// One response as received, before any decoding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Capture {
    /// SHA-256 of `bytes`, lower-case hex.
    pub sha256: String,
    /// The body exactly as received: not charset-decoded, not re-encoded. For a stream, every
    /// byte that arrived (up to a cut, if it was cut). For a 304, the stored body re-used.
    #[serde(skip)]
    pub bytes: Vec<u8>,
    /// The HTTP status as received (304 when the stored copy was re-used).
    pub status: u16,
    /// The billing headers present on the response, value as written (the charge read from
    /// them is [`billing::Charge`]).
    pub billing_headers: BTreeMap<String, String>,
    /// The URL that answered (after same-host redirects); never contains the key.
    pub url: String,
    /// True for a 304: `bytes` are the stored body the answer pointed back to.
    pub from_cache: bool,
}

impl Capture {
    /// The capture of a whole body received at once.
    pub fn of_body(status: u16, headers: &HeaderMap, url: &str, bytes: Vec<u8>) -> Capture {
        let mut hasher = BodyHasher::default();
        hasher.update(&bytes);
        hasher.finish(status, billing_headers(headers), url, bytes)
    }
}

/// Hashes a body as its chunks arrive (a stream), keeping the bytes verbatim.
#[derive(Debug, Default, Clone)]
pub struct BodyHasher {
    digest: Sha256,
}

impl BodyHasher {
    pub fn update(&mut self, chunk: &[u8]) {
        self.digest.update(chunk);
    }

    /// The capture of everything hashed so far; `bytes` must be those same bytes.
    pub fn finish(
        self,
        status: u16,
        billing_headers: BTreeMap<String, String>,
        url: &str,
        bytes: Vec<u8>,
    ) -> Capture {
        Capture {
            sha256: hex(&self.digest.finalize()),
            bytes,
            status,
            billing_headers,
            url: url.to_owned(),
            from_cache: false,
        }
    }
}

/// The billing headers a response carries, as written (names lower-case).
pub fn billing_headers(headers: &HeaderMap) -> BTreeMap<String, String> {
    billing::HEADERS
        .iter()
        .filter_map(|name| {
            let value = headers.get(*name)?;
            let text = String::from_utf8_lossy(value.as_bytes()).into_owned();
            Some(((*name).to_owned(), text))
        })
        .collect()
}

/// SHA-256 of `bytes`, lower-case hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn hex(digest: &[u8]) -> String {
    use std::fmt::Write;
    digest.iter().fold(String::with_capacity(64), |mut out, b| {
        let _ = write!(out, "{b:02x}");
        out
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    #[test]
    fn hashes_the_exact_bytes_whether_whole_or_in_chunks() {
        // The empty body's SHA-256, as `sha256sum` prints it.
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        let body = b"{\"text\":\"caf\xc3\xa9\"}\xff".to_vec();
        let whole = Capture::of_body(200, &HeaderMap::new(), "http://a/x", body.clone());
        let mut chunked = BodyHasher::default();
        for piece in body.chunks(3) {
            chunked.update(piece);
        }
        let chunked = chunked.finish(200, BTreeMap::new(), "http://a/x", body.clone());
        assert_eq!(whole.sha256, sha256_hex(&body));
        assert_eq!(whole, chunked);
        assert_eq!(
            whole.bytes, body,
            "bytes that are not UTF-8 are kept as they came"
        );
    }

    #[test]
    fn keeps_only_the_billing_headers_as_written() {
        let mut headers = HeaderMap::new();
        headers.insert(billing::COST_HEADER, HeaderValue::from_static("1.5E-4"));
        headers.insert(billing::USAGE_HEADER, HeaderValue::from_static("1"));
        headers.insert("etag", HeaderValue::from_static("\"abc\""));
        let kept = billing_headers(&headers);
        assert_eq!(kept.len(), 2);
        assert_eq!(kept[billing::COST_HEADER], "1.5E-4");
    }
}
