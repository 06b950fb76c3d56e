//! Shared helpers of the integration tests: a sandbox on loopback and a plain HTTP client.
#![allow(dead_code)]

use serde_json::Value;
use sightline_sandbox::Sandbox;

/// A fixed "now" so that every test run sees the same world (ids, dates, texts).
pub fn fixed_now() -> chrono::DateTime<chrono::Utc> {
    chrono::DateTime::parse_from_rfc3339("2026-11-20T12:00:00Z")
        .unwrap()
        .with_timezone(&chrono::Utc)
}

pub async fn start() -> Sandbox {
    Sandbox::builder()
        .seed(42)
        .port(0)
        .pace_ms(0)
        .faults(true)
        .now(fixed_now())
        .start()
        .await
        .expect("sandbox starts")
}

pub fn client() -> reqwest::Client {
    reqwest::Client::builder().build().expect("client")
}

pub struct Reply {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub text: String,
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text))
    }
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}

async fn finish(resp: reqwest::Response) -> Reply {
    let status = resp.status().as_u16();
    let headers = resp.headers().clone();
    let text = resp.text().await.expect("body");
    Reply {
        status,
        headers,
        text,
    }
}

/// GET with the demo key; `query` pairs are URL-encoded by the client.
pub async fn get(sb: &Sandbox, path: &str, query: &[(&str, &str)]) -> Reply {
    get_with(sb, path, query, Some(sb.demo_key()), &[]).await
}

pub async fn get_with(
    sb: &Sandbox,
    path: &str,
    query: &[(&str, &str)],
    key: Option<&str>,
    headers: &[(&str, &str)],
) -> Reply {
    let mut req = client()
        .get(format!("{}{path}", sb.base_url()))
        .query(query);
    if let Some(k) = key {
        req = req.header("Authorization", k);
    }
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    finish(req.send().await.expect("request")).await
}

pub async fn post(sb: &Sandbox, path: &str, body: &Value) -> Reply {
    post_raw(sb, path, body.to_string(), Some(sb.demo_key())).await
}

pub async fn post_raw(sb: &Sandbox, path: &str, body: String, key: Option<&str>) -> Reply {
    let mut req = client()
        .post(format!("{}{path}", sb.base_url()))
        .header("content-type", "application/json")
        .body(body);
    if let Some(k) = key {
        req = req.header("Authorization", k);
    }
    finish(req.send().await.expect("request")).await
}

/// Splits an SSE body into its events' JSON values, checking the framing on the way:
/// every event is `data: <one-line JSON>` followed by a blank line.
pub fn sse_events(body: &str) -> Vec<Value> {
    assert!(body.ends_with("\n\n"), "stream must end with a blank line");
    body.split_terminator("\n\n")
        .map(|block| {
            let json = block
                .strip_prefix("data: ")
                .unwrap_or_else(|| panic!("bad framing: {block:?}"));
            assert!(!json.contains('\n'), "event JSON must be one line");
            serde_json::from_str(json).unwrap_or_else(|e| panic!("bad event JSON ({e}): {json}"))
        })
        .collect()
}
