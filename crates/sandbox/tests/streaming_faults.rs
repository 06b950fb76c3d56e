//! Fault injection through HTTP and through the library, and what each fault does on the wire.

mod common;

use common::{client, get, post, sse_events, start};
use serde_json::{json, Value};
use sightline_sandbox::{Fault, Sandbox};
use std::time::{Duration, Instant};

fn stream_request() -> Value {
    json!({ "prompt": "solar power records", "tools": ["web", "twitter"], "streaming": true, "date_filter": "PAST_MONTH" })
}

async fn raw_stream(sb: &Sandbox) -> Result<String, String> {
    let resp = client()
        .post(format!("{}/service/ai/search", sb.base_url()))
        .header("Authorization", sb.demo_key())
        .json(&stream_request())
        .send()
        .await
        .map_err(|e| e.to_string())?;
    let mut resp = resp;
    let mut out = Vec::new();
    loop {
        match resp.chunk().await {
            Ok(Some(c)) => out.extend_from_slice(&c),
            Ok(None) => return Ok(String::from_utf8(out).unwrap()),
            Err(e) => return Err(format!("{e}; got {} bytes", out.len())),
        }
    }
}

async fn admin(sb: &Sandbox, method: reqwest::Method, body: Option<Value>) -> (u16, Value) {
    let mut req = client().request(method, format!("{}/__sandbox/faults", sb.base_url()));
    if let Some(b) = body {
        req = req.json(&b);
    }
    let r = req.send().await.unwrap();
    (r.status().as_u16(), r.json().await.unwrap())
}

#[tokio::test]
async fn fault_routes_over_http() {
    let sb = start().await;
    let (status, v) = admin(&sb, reqwest::Method::POST, Some(json!({ "route": "/twitter", "fault": { "type": "status", "status": 500 }, "times": 2 }))).await;
    assert_eq!((status, v), (201, json!({ "queued": 2 })));
    let (_, pending) = admin(&sb, reqwest::Method::GET, None).await;
    assert_eq!(pending["pending"]["/twitter"].as_array().unwrap().len(), 2);
    let r = get(&sb, "/twitter", &[("query", "solar")]).await;
    assert_eq!(r.status, 500);
    assert_eq!(r.json()["detail"]["error_code"], 500);
    assert!(r.header("x-service-cost-usd").is_none());
    admin(&sb, reqwest::Method::DELETE, None).await;
    assert_eq!(
        get(&sb, "/twitter", &[("query", "solar")]).await.status,
        200,
        "cleared"
    );
    let (status, _) = admin(
        &sb,
        reqwest::Method::POST,
        Some(json!({ "route": "/twitter", "fault": { "type": "explode" } })),
    )
    .await;
    assert_eq!(status, 400);

    // Off by default.
    let plain = Sandbox::builder()
        .pace_ms(0)
        .now(common::fixed_now())
        .start()
        .await
        .unwrap();
    let r = client()
        .get(format!("{}/__sandbox/faults", plain.base_url()))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 404);
}

#[tokio::test]
async fn status_faults_with_headers_and_default_bodies() {
    let sb = start().await;
    sb.faults().push(
        "/twitter/trends",
        Fault::Status {
            status: 429,
            body: None,
            headers: Default::default(),
        },
    );
    let r = get(&sb, "/twitter/trends", &[("woeid", "1")]).await;
    assert_eq!(r.status, 429);
    assert_eq!(r.header("retry-after"), Some("1"));
    assert_eq!(r.json()["detail"]["message"], "Too Many Requests");
    let headers = [(
        "Location".to_string(),
        "http://127.0.0.1:1/elsewhere".to_string(),
    )]
    .into_iter()
    .collect();
    sb.faults().push(
        "/twitter/trends",
        Fault::Status {
            status: 301,
            body: None,
            headers,
        },
    );
    let r = client()
        .get(format!("{}/twitter/trends?woeid=1", sb.base_url()))
        .header("Authorization", sb.demo_key())
        .send()
        .await;
    // reqwest follows the redirect to a closed port, or reports the 301: either way no data.
    if let Ok(resp) = r {
        assert_ne!(resp.status().as_u16(), 200);
    }
    sb.faults().push(
        "/twitter/trends",
        Fault::Status {
            status: 402,
            body: None,
            headers: Default::default(),
        },
    );
    let r = get(&sb, "/twitter/trends", &[("woeid", "1")]).await;
    assert_eq!(r.status, 402);
    assert!(r.json()["detail"]
        .as_str()
        .unwrap()
        .starts_with("Insufficient balance"));
}

#[tokio::test]
async fn stall_delays_the_answer() {
    let sb = start().await;
    sb.faults().push("/web", Fault::Stall { ms: 400 });
    let t = Instant::now();
    let r = get(&sb, "/web", &[("query", "solar")]).await;
    assert_eq!(r.status, 200);
    assert!(t.elapsed() >= Duration::from_millis(400));
}

#[tokio::test]
async fn cut_stream_abrupt_and_clean() {
    let sb = start().await;
    sb.faults().push(
        "/service/ai/search",
        Fault::CutStream {
            after_events: 2,
            abrupt: true,
        },
    );
    let err = raw_stream(&sb)
        .await
        .expect_err("an abrupt cut is a transport error");
    assert!(err.contains("bytes"), "{err}");

    sb.faults().push(
        "/service/ai/search",
        Fault::CutStream {
            after_events: 2,
            abrupt: false,
        },
    );
    let body = raw_stream(&sb).await.unwrap();
    let events = sse_events(&body);
    assert_eq!(events.len(), 2);
    assert!(events.iter().all(|e| e["type"] != "completion"));

    let full = sse_events(&raw_stream(&sb).await.unwrap());
    assert!(full.len() > 2, "faults are used once");
}

#[tokio::test]
async fn malformed_json_and_packed_events() {
    let sb = start().await;
    sb.faults()
        .push("/service/ai/search", Fault::MalformedJson { at_event: 1 });
    let body = raw_stream(&sb).await.unwrap();
    let lines: Vec<&str> = body.split_terminator("\n\n").collect();
    assert!(serde_json::from_str::<Value>(&lines[0][6..]).is_ok());
    assert!(
        serde_json::from_str::<Value>(&lines[1][6..]).is_err(),
        "event 1 is broken"
    );
    assert!(
        serde_json::from_str::<Value>(&lines[2][6..]).is_ok(),
        "the stream goes on"
    );

    sb.faults()
        .push("/service/ai/search", Fault::PackEvents { per_line: 3 });
    let body = raw_stream(&sb).await.unwrap();
    let first = body.split("\n\n").next().unwrap();
    assert_eq!(first.matches("data: {").count(), 3, "{first:.200}");

    sb.faults()
        .push("/twitter", Fault::MalformedJson { at_event: 0 });
    let r = get(&sb, "/twitter", &[("query", "solar")]).await;
    assert_eq!(r.status, 200);
    assert!(serde_json::from_str::<Value>(&r.text).is_err());
    assert!(
        r.header("x-service-cost-usd").is_some(),
        "the request was still billed"
    );
}

#[tokio::test]
async fn fragments_split_json_across_reads() {
    let sb = start().await;
    sb.faults()
        .push("/service/ai/search", Fault::Fragment { bytes: 7 });
    let resp = client()
        .post(format!("{}/service/ai/search", sb.base_url()))
        .header("Authorization", sb.demo_key())
        .json(&stream_request())
        .send()
        .await
        .unwrap();
    let mut resp = resp;
    let mut chunks = 0;
    let mut body = Vec::new();
    while let Some(c) = resp.chunk().await.unwrap() {
        assert!(c.len() <= 7 * 4, "small reads");
        chunks += 1;
        body.extend_from_slice(&c);
    }
    assert!(chunks > 10);
    let events = sse_events(&String::from_utf8(body).unwrap());
    assert_eq!(events.last().unwrap()["type"], "completion");
}

#[tokio::test]
async fn custom_bodies_for_hostile_content() {
    let sb = start().await;
    let hostile = json!([{
        "id": "1", "text": "<script>alert(1)</script><img src=x onerror=alert(2)> <a href=\"javascript:alert(3)\">x</a>",
        "reply_count": 0, "retweet_count": 0, "like_count": 0, "quote_count": 0, "bookmark_count": 0,
        "created_at": "2026-02-16T18:33:57.000Z"
    }]);
    let (status, _) = admin(
        &sb,
        reqwest::Method::POST,
        Some(json!({ "route": "/twitter", "fault": { "type": "body", "body": hostile } })),
    )
    .await;
    assert_eq!(status, 201);
    let r = get(&sb, "/twitter", &[("query", "anything")]).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json(), hostile);
    assert_eq!(r.header("x-service-usage-count"), Some("1"));
    sb.faults().push(
        "/web/crawl",
        Fault::Body {
            body: json!("<html><body onload=alert(1)>hi</body></html>"),
            status: 200,
            content_type: Some("text/plain".into()),
        },
    );
    let r = get(&sb, "/web/crawl", &[("url", "https://a.example/")]).await;
    assert_eq!(r.text, "<html><body onload=alert(1)>hi</body></html>");
}

#[tokio::test]
async fn pacing_spreads_text_deltas() {
    let sb = Sandbox::builder()
        .pace_ms(5)
        .now(common::fixed_now())
        .start()
        .await
        .unwrap();
    let t = Instant::now();
    let r = post(&sb, "/service/ai/search", &json!({ "prompt": "solar", "tools": ["web"], "streaming": true, "date_filter": "PAST_YEAR" })).await;
    let n = sse_events(&r.text).len() as u32;
    assert!(
        t.elapsed() >= Duration::from_millis(5) * (n - 2),
        "{n} events in {:?}",
        t.elapsed()
    );
}

#[tokio::test]
async fn mid_stream_error_and_done_sentinel() {
    let sb = start().await;
    sb.faults().push(
        "/service/ai/search",
        Fault::StreamError {
            after_events: 1,
            message: "Upstream search failed".into(),
        },
    );
    let events = sse_events(&raw_stream(&sb).await.unwrap());
    assert_eq!(events.len(), 2);
    assert_eq!(events[1], json!({ "error": "Upstream search failed" }));

    let (status, _) = admin(
        &sb,
        reqwest::Method::POST,
        Some(json!({ "route": "/service/ai/search", "fault": { "type": "done_sentinel" } })),
    )
    .await;
    assert_eq!(status, 201);
    let body = raw_stream(&sb).await.unwrap();
    assert!(body.ends_with("data: [DONE]\n\n"));
    let without: String = body.trim_end_matches("data: [DONE]\n\n").to_string();
    assert_eq!(sse_events(&without).last().unwrap()["type"], "completion");
}
