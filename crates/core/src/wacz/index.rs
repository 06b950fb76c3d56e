//! The archive's two lists: `indexes/index.cdxj` (one line per response and card, sorted, so a
//! replayer finds a URL by binary search) and `pages/pages.jsonl` (the pages a reader starts
//! from: one per post card).

use chrono::{DateTime, Utc};
use serde_json::json;

use super::warc::Written;

/// A URL in SURT form, as CDXJ indexes key it: the host's labels reversed and comma-joined
/// (`www.` dropped, an IP address kept as it is), a port other than the scheme's own kept,
/// then `)`, the path and the query with its parameters sorted; all lower case.
/// `https://api.example.com/twitter?q=b&a=1` → `com,example,api)/twitter?a=1&q=b`.
pub fn surt(url: &str) -> String {
    let Ok(parsed) = url::Url::parse(url) else {
        return url.to_lowercase();
    };
    let host = match parsed.host() {
        Some(url::Host::Domain(domain)) => {
            let domain = domain.trim_end_matches('.').to_lowercase();
            let domain = domain.strip_prefix("www.").unwrap_or(&domain).to_owned();
            domain.split('.').rev().collect::<Vec<_>>().join(",")
        }
        Some(host) => host.to_string(),
        None => String::new(),
    };
    let port = parsed.port().map(|p| format!(":{p}")).unwrap_or_default();
    let mut key = format!("{host}{port}){}", parsed.path());
    if let Some(query) = parsed.query().filter(|q| !q.is_empty()) {
        let mut pairs: Vec<&str> = query.split('&').collect();
        pairs.sort_unstable();
        key.push('?');
        key.push_str(&pairs.join("&"));
    }
    key.to_lowercase()
}

/// A CDX timestamp: `YYYYMMDDhhmmss`, UTC.
pub fn timestamp14(t: DateTime<Utc>) -> String {
    t.format("%Y%m%d%H%M%S").to_string()
}

/// What the index says of one record.
pub struct Entry<'a> {
    /// The record's target URI.
    pub url: &'a str,
    /// Its date.
    pub date: DateTime<Utc>,
    /// The media type of its content, when known.
    pub mime: Option<&'a str>,
    /// An HTTP response's status (`None` for a resource).
    pub status: Option<u16>,
    /// The request's method when it was not GET.
    pub method: Option<&'a str>,
}

/// One CDXJ line (without its line end): `<surt> <timestamp> {json}`, the JSON naming the
/// record's place in `filename`.
pub fn cdxj_line(entry: &Entry<'_>, written: &Written, filename: &str) -> String {
    let mut fields = json!({
        "url": entry.url,
        "offset": written.offset.to_string(),
        "length": written.length.to_string(),
        "filename": filename,
    });
    let object = fields.as_object_mut().expect("an object literal");
    if let Some(mime) = entry.mime {
        object.insert("mime".into(), mime.into());
    }
    if let Some(status) = entry.status {
        object.insert("status".into(), status.to_string().into());
    }
    if let Some(digest) = &written.payload_digest {
        object.insert("digest".into(), digest.clone().into());
    }
    if let Some(method) = entry.method {
        object.insert("method".into(), method.into());
    }
    format!(
        "{} {} {}",
        surt(entry.url),
        timestamp14(entry.date),
        serde_json::Value::Object(object.clone())
    )
}

/// Sorts the index's lines as a binary search expects: by key, then time (byte order, as
/// `LC_ALL=C sort` does).
pub fn sort(lines: &mut [String]) {
    lines.sort_unstable();
}

/// `pages.jsonl`'s first line: what the list is.
pub fn pages_header() -> String {
    json!({"format": "json-pages-1.0", "id": "pages", "title": "Post cards"}).to_string()
}

/// One page of `pages.jsonl`.
pub fn page_line(id: &str, url: &str, title: &str, ts: DateTime<Utc>) -> String {
    json!({
        "id": id,
        "url": url,
        "title": title,
        "ts": ts.to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn surt_reverses_the_host_keeps_a_port_and_sorts_the_query() {
        assert_eq!(
            surt("https://www.Example.com/Twitter?q=b&a=1"),
            "com,example)/twitter?a=1&q=b"
        );
        assert_eq!(
            surt("http://127.0.0.1:8787/twitter/post?id=5"),
            "127.0.0.1:8787)/twitter/post?id=5"
        );
        assert_eq!(
            surt("https://sightline.invalid/case/3/post/19"),
            "invalid,sightline)/case/3/post/19"
        );
    }
}
