//! The 401/403 table on every operation, billing arithmetic, ETag/304, and the 429 bucket.

mod common;

use common::{fixed_now, get, get_with, post_raw, start};
use rust_decimal::Decimal;
use serde_json::json;
use sightline_sandbox::ops::Op;
use sightline_sandbox::Sandbox;
use std::str::FromStr;

/// Sends a minimal valid request for `op` with the given key.
async fn call(sb: &Sandbox, op: Op, key: Option<&str>) -> common::Reply {
    if op == Op::Forecast {
        let body = json!({ "query": "Will solar beat wind?" });
        post_raw(sb, op.path(), body.to_string(), key).await
    } else if op.is_post() {
        let body = json!({ "prompt": "solar", "tools": ["web"], "streaming": false });
        post_raw(sb, op.path(), body.to_string(), key).await
    } else {
        let q: &[(&str, &str)] = match op {
            Op::TwitterUrls => &[("urls", "https://x.com/a/status/1")],
            Op::TwitterPost | Op::Retweeters => &[("id", "1")],
            Op::TwitterPostUser | Op::Replies => &[("user", "a")],
            Op::UserPosts => &[("username", "a")],
            Op::RepliesPost => &[("post_id", "1")],
            Op::Trends => &[("woeid", "1")],
            Op::Crawl => &[("url", "https://a.example/")],
            _ => &[("query", "solar")],
        };
        get_with(sb, op.path(), q, key, &[]).await
    }
}

#[tokio::test]
async fn auth_table_on_every_operation() {
    let sb = start().await;
    let unknown = sightline_sandbox::auth::demo_key(7);
    let truncated = sb.demo_key()[..24].to_string();
    let bearer = format!("Bearer {}", sb.demo_key());
    let rows: Vec<(Option<&str>, u16, serde_json::Value)> = vec![
        (None, 401, json!({ "detail": "Unauthorized" })),
        (Some(&unknown), 401, json!({ "error": "Invalid API key" })),
        (
            Some("dsr_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"),
            401,
            json!({ "error": "Invalid API key" }),
        ),
        (Some("YOUR_API_KEY"), 403, json!({ "detail": "Forbidden" })),
        (Some("<api-key>"), 403, json!({ "detail": "Forbidden" })),
        (
            Some("sk-1234567890abcdef1234567890abcdef"),
            403,
            json!({ "detail": "Forbidden" }),
        ),
        (Some(&truncated), 403, json!({ "detail": "Forbidden" })),
        (Some(&bearer), 403, json!({ "detail": "Forbidden" })),
    ];
    for op in Op::ALL {
        for (key, status, body) in &rows {
            let r = call(&sb, op, *key).await;
            assert_eq!(r.status, *status, "{op:?} with {key:?}");
            assert_eq!(r.json(), *body, "{op:?} with {key:?}");
            assert!(
                r.header("x-service-cost-usd").is_none(),
                "errors are not billed"
            );
        }
        let ok = call(&sb, op, Some(sb.demo_key())).await;
        assert!(
            ok.status == 200 || ok.status == 202 || ok.status == 404,
            "{op:?}: {} {}",
            ok.status,
            ok.text
        );
    }
}

#[tokio::test]
async fn configured_keys_replace_the_demo_key() {
    let mine = "dt_$abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ".to_string();
    let other = "dsr_short-but-custom".to_string();
    let sb = Sandbox::builder()
        .pace_ms(0)
        .now(fixed_now())
        .keys(vec![mine.clone(), other.clone()])
        .start()
        .await
        .unwrap();
    assert_eq!(
        get_with(&sb, "/twitter", &[("query", "a")], Some(&mine), &[])
            .await
            .status,
        200
    );
    assert_eq!(
        get_with(&sb, "/twitter", &[("query", "a")], Some(&other), &[])
            .await
            .status,
        200
    );
    assert_eq!(
        get_with(&sb, "/twitter", &[("query", "a")], Some(sb.demo_key()), &[])
            .await
            .status,
        401
    );
}

#[tokio::test]
async fn billing_headers_and_mirror_fields() {
    let sb = start().await;
    // Arrays: headers only; one unit per post at 0.30 per 1,000.
    let r = get(&sb, "/twitter", &[("query", "solar"), ("count", "7")]).await;
    assert_eq!(r.header("x-service-usage-count"), Some("7"));
    assert_eq!(r.header("x-service-cost-usd"), Some("0.0021"));
    assert_eq!(r.header("x-service-service"), Some("x"));
    assert_eq!(r.header("x-service-currency"), Some("USD"));
    assert!(r.json().is_array());
    // Objects: the same values mirrored in the body, the cost as an exact decimal number.
    let r = get(&sb, "/twitter/trends", &[("woeid", "1"), ("count", "33")]).await;
    let cost = Decimal::from_str(r.header("x-service-cost-usd").unwrap()).unwrap();
    assert_eq!(cost, Decimal::from_str("0.0099").unwrap());
    assert!(
        r.text.contains("\"cost_usd\":0.0099,"),
        "{}",
        &r.text[..120]
    );
    let v = r.json();
    assert_eq!(v["usage_count"], 33);
    assert_eq!(v["service"], "x");
    assert_eq!(v["currency"], "USD");
    // Text bodies carry headers only.
    let link = get(&sb, "/web", &[("query", "solar")]).await.json()["data"][0]["link"]
        .as_str()
        .unwrap()
        .to_string();
    let r = get(&sb, "/web/crawl", &[("url", &link)]).await;
    assert_eq!(r.header("x-service-cost-usd"), Some("0.0025"));
    assert!(!r.text.contains("cost_usd"));
    // Rates are configurable; the contract's worked case: 10 units at 0.015 per 1,000.
    let rates = sightline_sandbox::Rates {
        x: Decimal::from_str("0.015").unwrap(),
        ..Default::default()
    };
    let cheap = Sandbox::builder()
        .pace_ms(0)
        .now(fixed_now())
        .rates(rates)
        .start()
        .await
        .unwrap();
    let r = get(&cheap, "/twitter", &[("query", "solar"), ("count", "10")]).await;
    assert_eq!(r.header("x-service-cost-usd"), Some("0.00015"));
}

#[tokio::test]
async fn etag_and_not_modified() {
    let sb = start().await;
    let q = [("query", "solar"), ("count", "5")];
    let first = get(&sb, "/twitter", &q).await;
    let etag = first
        .header("etag")
        .expect("GET answers carry an ETag")
        .to_string();
    let again = get(&sb, "/twitter", &q).await;
    assert_eq!(
        again.header("etag"),
        Some(etag.as_str()),
        "stable for the same answer"
    );
    let r = get_with(
        &sb,
        "/twitter",
        &q,
        Some(sb.demo_key()),
        &[("If-None-Match", &etag)],
    )
    .await;
    assert_eq!(r.status, 304);
    assert!(r.text.is_empty());
    assert!(
        r.header("x-service-cost-usd").is_none(),
        "304 is not billed"
    );
    let weak = format!("W/{etag}");
    let r = get_with(
        &sb,
        "/twitter",
        &q,
        Some(sb.demo_key()),
        &[("If-None-Match", &format!("\"other\", {weak}"))],
    )
    .await;
    assert_eq!(r.status, 304);
    let r = get_with(
        &sb,
        "/twitter",
        &[("query", "wind")],
        Some(sb.demo_key()),
        &[("If-None-Match", &etag)],
    )
    .await;
    assert_eq!(r.status, 200, "a different answer is sent in full");
    // POST answers have no ETag.
    let r = post_raw(
        &sb,
        "/service/ai/search/links/twitter",
        json!({ "prompt": "solar" }).to_string(),
        Some(sb.demo_key()),
    )
    .await;
    assert!(r.header("etag").is_none());
}

#[tokio::test]
async fn rate_limit_then_recovery() {
    let first = "dt_$aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
    let second = "dt_$bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
    let sb = Sandbox::builder()
        .pace_ms(0)
        .now(fixed_now())
        .keys(vec![first.to_string(), second.to_string()])
        .rate_limit(Some(60))
        .start()
        .await
        .unwrap();
    let q = [("query", "solar"), ("count", "1")];
    let call = |key: &'static str| get_with(&sb, "/twitter", &q, Some(key), &[]);
    // A burst of 60 passes; the bucket refills one per second, so a slow machine may get a
    // few more through before the first refusal, never fewer.
    let mut passed = 0;
    let refused = loop {
        let r = call(first).await;
        if r.status != 200 {
            break r;
        }
        passed += 1;
        assert!(passed < 200, "the limit never applied");
    };
    assert!(passed >= 60, "only {passed} passed");
    assert_eq!(refused.status, 429);
    assert_eq!(
        refused.json(),
        json!({ "detail": { "error_code": 429, "message": "Too Many Requests", "retry_after": "1 seconds" } })
    );
    assert_eq!(refused.header("retry-after"), Some("1"));
    assert!(refused.header("x-service-cost-usd").is_none());
    // Buckets are per key; refused auth is not rate limited.
    assert_eq!(call(second).await.status, 200);
    assert_eq!(get_with(&sb, "/twitter", &q, None, &[]).await.status, 401);
    tokio::time::sleep(std::time::Duration::from_millis(1_100)).await;
    assert_eq!(call(first).await.status, 200, "recovered after Retry-After");
}

#[tokio::test]
async fn trailing_slash_is_moved_permanently() {
    let sb = start().await;
    let no_redirects = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let r = no_redirects
        .get(format!("{}/twitter/?query=solar&count=2", sb.base_url()))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 301);
    assert_eq!(r.headers()["location"], "/twitter?query=solar&count=2");
    let body: serde_json::Value = r.json().await.unwrap();
    assert_eq!(
        body,
        json!({ "detail": { "error_code": 301, "location": "/twitter?query=solar&count=2", "message": "Moved Permanently" } })
    );
    // Followed on the same host, with the key, it answers.
    let r = get(&sb, "/twitter/", &[("query", "solar"), ("count", "2")]).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json().as_array().unwrap().len(), 2);
    assert_eq!(get(&sb, "/nowhere", &[]).await.status, 404);
}

#[tokio::test]
async fn prepaid_balance_runs_out_with_402() {
    let sb = Sandbox::builder()
        .pace_ms(0)
        .now(fixed_now())
        .balance_usd(Some(Decimal::from_str("0.01").unwrap()))
        .start()
        .await
        .unwrap();
    let body = json!({ "prompt": "solar", "tools": ["web"], "streaming": false }).to_string();
    // 0.004 each: 0.004, 0.008, 0.012 spent; the fourth finds nothing left.
    for _ in 0..3 {
        let r = post_raw(&sb, "/service/ai/search", body.clone(), Some(sb.demo_key())).await;
        assert_eq!(r.status, 200);
    }
    let r = post_raw(&sb, "/service/ai/search", body.clone(), Some(sb.demo_key())).await;
    assert_eq!(r.status, 402);
    assert!(r.json()["detail"]
        .as_str()
        .unwrap()
        .starts_with("Insufficient balance"));
    assert!(r.header("x-service-cost-usd").is_none());
    // The balance belongs to the key: every operation is refused now.
    assert_eq!(
        get(&sb, "/twitter", &[("query", "solar")]).await.status,
        402
    );
}

#[tokio::test]
async fn the_billed_log_holds_every_cost_header_as_sent() {
    let sb = start().await;
    let mut sent = Vec::new();
    for op in [Op::TwitterSearch, Op::Trends, Op::Web] {
        let r = call(&sb, op, Some(sb.demo_key())).await;
        sent.push(r.header("x-service-cost-usd").unwrap().to_owned());
    }
    // Errors are not billed, so not logged.
    call(&sb, Op::TwitterSearch, None).await;

    let sum: Decimal = sent.iter().map(|c| Decimal::from_str(c).unwrap()).sum();
    assert_eq!(sb.billed().total(), sum);
    let logged: Vec<String> = sb
        .billed()
        .responses()
        .into_iter()
        .map(|r| r.cost_usd)
        .collect();
    assert_eq!(logged, sent);

    let over_http = get(&sb, "/__sandbox/billed", &[]).await.json();
    assert_eq!(over_http["total_usd"], sum.to_string());
    assert_eq!(over_http["responses"].as_array().unwrap().len(), 3);
}

#[tokio::test]
async fn float_costs_are_sent_as_a_python_service_sends_them() {
    let sb = Sandbox::builder()
        .pace_ms(0)
        .now(fixed_now())
        .float_costs(true)
        .balance_usd(Some(Decimal::from_str("0.01").unwrap()))
        .start()
        .await
        .unwrap();
    // 7 posts at 0.30 per 1,000 in binary floating point: 7 * 0.3 / 1000 in Python.
    let r = get(&sb, "/twitter", &[("query", "solar"), ("count", "7")]).await;
    assert_eq!(
        r.header("x-service-cost-usd"),
        Some("0.0021000000000000003")
    );
    let r = get(&sb, "/twitter", &[("query", "solar"), ("count", "3")]).await;
    assert_eq!(
        r.header("x-service-cost-usd"),
        Some("0.0008999999999999999")
    );
    // An object's body carries the same float, as the same JSON number text.
    let r = get(&sb, "/twitter/trends", &[("woeid", "1"), ("count", "34")]).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let header = r.header("x-service-cost-usd").unwrap().to_owned();
    assert_eq!(header, "0.010199999999999999");
    assert!(
        r.text.contains(&format!("\"cost_usd\":{header},")),
        "{}",
        &r.text[..120]
    );
    // The billed log and the balance read every form exactly.
    let billed = Decimal::from_str("0.0021000000000000003").unwrap()
        + Decimal::from_str("0.0008999999999999999").unwrap()
        + Decimal::from_str("0.010199999999999999").unwrap();
    assert_eq!(sb.billed().total(), billed);
    // 0.01 prepaid, more than that spent: the next request is refused.
    assert!(billed > Decimal::from_str("0.01").unwrap());
    let refused = get(&sb, "/twitter", &[("query", "solar"), ("count", "1")]).await;
    assert_eq!(refused.status, 402);
}
