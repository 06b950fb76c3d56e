//! What a response was, byte for byte: the exact bytes received, their SHA-256, the HTTP
//! status, every response header as received (the billing headers also apart, as they were
//! written) and the URL that answered. The app keeps
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
    /// Every response header, name and value, in the order received (see [`received`]).
    pub response_headers: Vec<(String, String)>,
    /// The URL that answered (after same-host redirects); never contains the key.
    pub url: String,
    /// True for a 304: `bytes` are the stored body the answer pointed back to.
    pub from_cache: bool,
}

impl Capture {
    /// The capture of a whole body received at once.
    pub fn of_body(status: u16, headers: Received, url: &str, bytes: Vec<u8>) -> Capture {
        let mut hasher = BodyHasher::default();
        hasher.update(&bytes);
        hasher.finish(status, headers, url, bytes)
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
    pub fn finish(self, status: u16, headers: Received, url: &str, bytes: Vec<u8>) -> Capture {
        Capture {
            sha256: hex(&self.digest.finalize()),
            bytes,
            status,
            billing_headers: headers.billing,
            response_headers: headers.all,
            url: url.to_owned(),
            from_cache: false,
        }
    }
}

/// A response's headers as the capture keeps them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Received {
    /// The billing headers, as [`billing_headers`] reads them.
    pub billing: BTreeMap<String, String>,
    /// Every header, as [`all_headers`] keeps them.
    pub all: Vec<(String, String)>,
}

/// The headers of a response to a request that carried `key`.
pub fn received(headers: &HeaderMap, key: &str) -> Received {
    Received {
        billing: billing_headers(headers),
        all: all_headers(headers, key),
    }
}

/// What a header's value is replaced with when it holds the API key.
pub const KEY_REMOVED: &str = "(removed: it held the API key)";

/// Headers the client undid before keeping the body: the bytes kept are the body after them,
/// so a reader of the capture must not undo them again. Kept under a renamed name.
const UNDONE: [&str; 2] = ["transfer-encoding", "content-encoding"];

/// Every header of a response, name (lower-case, as HTTP/2 writes it and the client reads
/// every name) and value as written, in the order received (several values of one name
/// together, in their order). None is dropped: `Transfer-Encoding` and `Content-Encoding`
/// become `X-Sightline-Original-…` (the body is kept as the client delivered it, de-chunked,
/// so a reader must not decode it again), and a value that holds `key` is replaced by
/// [`KEY_REMOVED`], so the key is never kept even if a service echoed it.
pub fn all_headers(headers: &HeaderMap, key: &str) -> Vec<(String, String)> {
    headers
        .iter()
        .map(|(name, value)| {
            let name = name.as_str();
            let name = if UNDONE.contains(&name) {
                format!("x-sightline-original-{name}")
            } else {
                name.to_owned()
            };
            let text = String::from_utf8_lossy(value.as_bytes());
            let value = if !key.is_empty() && text.contains(key) {
                KEY_REMOVED.to_owned()
            } else {
                text.into_owned()
            };
            (name, value)
        })
        .collect()
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
        let whole = Capture::of_body(200, Received::default(), "http://a/x", body.clone());
        let mut chunked = BodyHasher::default();
        for piece in body.chunks(3) {
            chunked.update(piece);
        }
        let chunked = chunked.finish(200, Received::default(), "http://a/x", body.clone());
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

    #[test]
    fn keeps_every_header_in_order_renaming_what_was_undone_and_never_the_key() {
        let mut headers = HeaderMap::new();
        headers.insert("content-type", HeaderValue::from_static("application/json"));
        headers.insert("transfer-encoding", HeaderValue::from_static("chunked"));
        headers.append("set-cookie", HeaderValue::from_static("a=1"));
        headers.append("set-cookie", HeaderValue::from_static("b=2"));
        headers.insert("x-echo", HeaderValue::from_static("Bearer sk-secret"));
        headers.insert(billing::COST_HEADER, HeaderValue::from_static("0.01"));
        let kept = received(&headers, "sk-secret");
        let pair = |n: &str, v: &str| (n.to_owned(), v.to_owned());
        assert_eq!(
            kept.all,
            vec![
                pair("content-type", "application/json"),
                pair("x-sightline-original-transfer-encoding", "chunked"),
                pair("set-cookie", "a=1"),
                pair("set-cookie", "b=2"),
                pair("x-echo", KEY_REMOVED),
                pair(billing::COST_HEADER, "0.01"),
            ]
        );
        assert_eq!(kept.billing[billing::COST_HEADER], "0.01");
    }
}
