//! Each error class of the contract, produced by the sandbox (real or injected).

mod common;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;
use sightline_api::request::*;
use sightline_api::{ApiError, ApiKey, Client, ClientConfig, ErrorKind, RetryPolicy};
use sightline_sandbox::{Fault, Sandbox};

use common::*;

fn status(code: u16) -> Fault {
    Fault::Status {
        status: code,
        body: None,
        headers: BTreeMap::new(),
    }
}

fn status_with(code: u16, headers: &[(&str, &str)]) -> Fault {
    Fault::Status {
        status: code,
        body: None,
        headers: headers
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
    }
}

fn post_req(sb: &Sandbox) -> TwitterPostRequest {
    TwitterPostRequest {
        id: post_with_reposts(sb).0,
    }
}

fn ai_req() -> LinksTwitterRequest {
    LinksTwitterRequest {
        prompt: "football".into(),
        count: 10,
    }
}

#[tokio::test]
async fn a_well_formed_unknown_key_is_refused() {
    let sb = sandbox().await;
    let c = client(&sb);
    let other = ApiKey::parse("dt_$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA").unwrap();
    let err = c.send(&post_req(&sb), &other).await.unwrap_err();
    assert_eq!(err, ApiError::KeyRefused);
    assert!(err.user_message().contains("did not accept your API key"));
}

#[tokio::test]
async fn status_faults_map_to_their_classes() {
    let sb = sandbox().await;
    let c = Client::new(ClientConfig {
        retry: RetryPolicy {
            max_attempts: 1,
            ..Default::default()
        },
        ..config(sb.base_url())
    })
    .unwrap();
    let k = key(&sb);
    let req = post_req(&sb);
    let cases: Vec<(Fault, ErrorKind)> = vec![
        (status(401), ErrorKind::KeyRefused),
        (status(402), ErrorKind::OutOfCredit),
        (status(403), ErrorKind::NotAnApiKey),
        (status(422), ErrorKind::Validation),
        (status(429), ErrorKind::RateLimited),
        (status(500), ErrorKind::ServerError),
        (status(503), ErrorKind::ServerError),
        (status(404), ErrorKind::UnexpectedStatus),
        (
            Fault::MalformedJson { at_event: 0 },
            ErrorKind::MalformedResponse,
        ),
    ];
    for (fault, kind) in cases {
        sb.faults().push("/twitter/post", fault.clone());
        let err = c.send(&req, &k).await.unwrap_err();
        assert_eq!(err.kind(), kind, "{fault:?} gave {err:?}");
        assert!(!err.user_message().is_empty());
    }
}

#[tokio::test]
async fn server_422_maps_onto_our_field_names() {
    let sb = sandbox().await;
    let c = client(&sb);
    let k = key(&sb);
    sb.faults().push(
        "/twitter",
        Fault::Status {
            status: 422,
            body: Some(json!({"detail": [
                {"type": "less_than_equal", "loc": ["query", "count"], "msg": "Input should be less than or equal to 100", "input": "500", "ctx": {"le": 100}},
                {"type": "string_pattern_mismatch", "loc": ["query", "sort"], "msg": "String should match pattern '^(Top|Latest)$'", "input": "x", "ctx": {"pattern": "^(Top|Latest)$"}}
            ]})),
            headers: BTreeMap::new(),
        },
    );
    let err = c
        .send(&TwitterSearchRequest::new("moon"), &k)
        .await
        .unwrap_err();
    let ApiError::Validation { fields } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(
        fields.iter().map(|f| f.field.as_str()).collect::<Vec<_>>(),
        ["count", "sort"]
    );
    assert_eq!(fields[1].message, "Choose Top or Latest.");
}

#[tokio::test]
async fn gets_retry_429_and_5xx_then_succeed() {
    let sb = sandbox().await;
    let c = client(&sb);
    let k = key(&sb);
    let req = post_req(&sb);

    sb.faults()
        .push("/twitter/post", status_with(429, &[("Retry-After", "1")]));
    let started = std::time::Instant::now();
    let r = c.send(&req, &k).await.unwrap();
    assert_eq!(r.attempts, 2);
    assert!(
        started.elapsed() >= Duration::from_millis(900),
        "Retry-After was honoured"
    );

    sb.faults().push("/twitter/post", status(500));
    sb.faults().push("/twitter/post", status(502));
    let r = c.send(&req, &k).await.unwrap();
    assert_eq!(r.attempts, 3);

    for _ in 0..3 {
        sb.faults().push("/twitter/post", status(500));
    }
    let err = c.send(&req, &k).await.unwrap_err();
    assert_eq!(
        err.kind(),
        ErrorKind::ServerError,
        "gives up after max_attempts"
    );
    assert!(sb
        .faults()
        .pending()
        .get("/twitter/post")
        .is_none_or(Vec::is_empty));
}

#[tokio::test]
async fn a_long_retry_after_is_returned_not_waited_for() {
    let sb = sandbox().await;
    let c = client(&sb);
    let k = key(&sb);
    sb.faults()
        .push("/twitter/post", status_with(429, &[("Retry-After", "60")]));
    let started = std::time::Instant::now();
    let err = c.send(&post_req(&sb), &k).await.unwrap_err();
    assert_eq!(
        err,
        ApiError::RateLimited {
            retry_after: Some(Duration::from_secs(60))
        }
    );
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(err.user_message().contains("1 minutes") || err.user_message().contains("60 seconds"));
}

#[tokio::test]
async fn the_sandbox_rate_limit_is_reported_with_its_wait() {
    let sb = Sandbox::builder()
        .seed(42)
        .port(0)
        .pace_ms(0)
        .rate_limit(Some(2))
        .start()
        .await
        .unwrap();
    let c = Client::new(ClientConfig {
        retry: RetryPolicy {
            max_attempts: 1,
            ..Default::default()
        },
        ..config(sb.base_url())
    })
    .unwrap();
    let k = key(&sb);
    let req = TwitterTrendsRequest::default();
    let mut limited = None;
    for _ in 0..5 {
        if let Err(e) = c.send(&req, &k).await {
            limited = Some(e);
            break;
        }
    }
    let Some(ApiError::RateLimited { retry_after }) = limited else {
        panic!("{limited:?}")
    };
    assert!(retry_after.is_some_and(|w| w >= Duration::from_secs(1)));
}

#[tokio::test]
async fn billed_posts_are_never_retried() {
    let sb = sandbox().await;
    let c = client(&sb);
    let k = key(&sb);
    for code in [500, 429] {
        sb.faults().push(
            "/service/ai/search/links/twitter",
            status_with(code, &[("Retry-After", "1")]),
        );
        sb.faults()
            .push("/service/ai/search/links/twitter", status(code));
        let err = c.send(&ai_req(), &k).await.unwrap_err();
        assert!(err.is_transient());
        assert_eq!(
            sb.faults()
                .pending()
                .get("/service/ai/search/links/twitter")
                .map(Vec::len),
            Some(1),
            "exactly one attempt for {code}"
        );
        sb.faults().clear(None);
    }
}

#[tokio::test]
async fn same_host_redirects_are_followed_for_gets() {
    let sb = sandbox().await;
    let c = client(&sb);
    let k = key(&sb);
    let req = post_req(&sb);
    let target = format!("{}/twitter/post?id={}", sb.base_url(), req.id);
    sb.faults()
        .push("/twitter/post", status_with(301, &[("Location", &target)]));
    let r = c.send(&req, &k).await.unwrap();
    assert_eq!(r.body.id, req.id);

    // Location only in the body's detail, relative.
    sb.faults().push(
        "/twitter/post",
        Fault::Status {
            status: 301,
            body: Some(json!({"detail": {"error_code": 301, "location": format!("/twitter/post?id={}", req.id), "message": "Moved Permanently"}})),
            headers: BTreeMap::new(),
        },
    );
    assert_eq!(c.send(&req, &k).await.unwrap().body.id, req.id);
}

/// A listener that counts connections: the "other host" of a redirect.
async fn counting_listener() -> (String, Arc<AtomicUsize>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let hits = Arc::new(AtomicUsize::new(0));
    let counter = hits.clone();
    tokio::spawn(async move {
        while let Ok((_socket, _)) = listener.accept().await {
            counter.fetch_add(1, Ordering::SeqCst);
        }
    });
    // "localhost" is another host name than the sandbox's 127.0.0.1.
    (format!("http://localhost:{port}"), hits)
}

#[tokio::test]
async fn redirects_to_another_host_or_for_posts_are_not_followed() {
    let sb = sandbox().await;
    let c = client(&sb);
    let k = key(&sb);
    let (other, hits) = counting_listener().await;

    let elsewhere = format!("{other}/twitter/post?id=1");
    sb.faults().push(
        "/twitter/post",
        status_with(301, &[("Location", &elsewhere)]),
    );
    let err = c.send(&post_req(&sb), &k).await.unwrap_err();
    assert_eq!(
        err,
        ApiError::Moved {
            location: Some(elsewhere)
        }
    );

    // Same port, other host name: still another host.
    let port = sb.addr().port();
    let renamed = format!("http://localhost:{port}/twitter/post?id=1");
    sb.faults()
        .push("/twitter/post", status_with(301, &[("Location", &renamed)]));
    assert_eq!(
        c.send(&post_req(&sb), &k).await.unwrap_err().kind(),
        ErrorKind::Moved
    );

    let same_host = format!("{}/service/ai/search/links/twitter", sb.base_url());
    sb.faults().push(
        "/service/ai/search/links/twitter",
        status_with(307, &[("Location", &same_host)]),
    );
    assert_eq!(
        c.send(&ai_req(), &k).await.unwrap_err().kind(),
        ErrorKind::Moved,
        "POSTs never follow"
    );

    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(
        hits.load(Ordering::SeqCst),
        0,
        "the key never went to the other host"
    );
}

#[tokio::test]
async fn timeouts_and_network_failures_are_classified() {
    let sb = sandbox().await;
    let k = key(&sb);
    let c = Client::new(ClientConfig {
        request_timeout: Duration::from_millis(300),
        retry: RetryPolicy {
            max_attempts: 1,
            ..Default::default()
        },
        ..config(sb.base_url())
    })
    .unwrap();
    sb.faults().push("/twitter/post", Fault::Stall { ms: 2000 });
    assert_eq!(
        c.send(&post_req(&sb), &k).await.unwrap_err(),
        ApiError::Timeout
    );

    // A stall shorter than the timeout is just slow.
    let patient = client(&sb);
    sb.faults().push("/twitter/post", Fault::Stall { ms: 100 });
    assert!(patient.send(&post_req(&sb), &k).await.is_ok());

    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let nowhere = Client::new(config(&format!("http://127.0.0.1:{closed}"))).unwrap();
    let err = nowhere.send(&post_req(&sb), &k).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Network, "{err:?}");
}

#[tokio::test]
async fn odd_but_valid_answers_are_read() {
    let sb = sandbox().await;
    let c = client(&sb);
    let k = key(&sb);
    // A list endpoint answering an object.
    sb.faults().push(
        "/twitter",
        Fault::Body {
            body: json!({"tweets": [{"id": "1", "text": "a", "created_at": "Mon Mar 16 07:01:23 +0000 2026", "new": true}]}),
            status: 200,
            content_type: None,
        },
    );
    let r = c.send(&TwitterSearchRequest::new("a"), &k).await.unwrap();
    assert_eq!(r.body.0.len(), 1);
    assert_eq!(r.body.0[0].extra["new"], true);
    assert!(r.body.0[0].created_at_utc().is_some());

    // /web answering 201.
    sb.faults().push(
        "/web",
        Fault::Body {
            body: json!({"data": [{"title": "t", "snippet": "s", "link": "https://e.x"}]}),
            status: 201,
            content_type: None,
        },
    );
    let r = c
        .send(
            &WebSearchRequest {
                query: "a".into(),
                start: 0,
            },
            &k,
        )
        .await
        .unwrap();
    assert_eq!(r.status, 201);
    assert_eq!(r.body.data.unwrap().len(), 1);

    // A fragmented body is reassembled.
    sb.faults()
        .push("/twitter/trends", Fault::Fragment { bytes: 7 });
    let r = c.send(&TwitterTrendsRequest::default(), &k).await.unwrap();
    assert_eq!(r.body.trends.len(), 30);
}

/// The sandbox's real answers to a missing key, a placeholder and a truncated key (which
/// our client never sends: `ApiKey::parse` refuses them) classify as the contract says.
#[tokio::test]
async fn real_auth_answers_classify_as_the_contract_says() {
    let sb = sandbox().await;
    let http = reqwest::Client::new();
    let url = format!("{}/twitter/trends?woeid=1", sb.base_url());
    let truncated = &sb.demo_key()[..12];
    let cases: [(Option<&str>, ErrorKind); 4] = [
        (None, ErrorKind::MissingKey),
        (Some("YOUR_API_KEY"), ErrorKind::NotAnApiKey),
        (Some("<api-key>"), ErrorKind::NotAnApiKey),
        (Some(truncated), ErrorKind::NotAnApiKey),
    ];
    for (sent, kind) in cases {
        let mut req = http.get(&url);
        if let Some(value) = sent {
            req = req.header("Authorization", value);
        }
        let resp = req.send().await.unwrap();
        let status = resp.status().as_u16();
        let headers = resp.headers().clone();
        let body = resp.text().await.unwrap();
        let err = sightline_api::error::classify(status, &headers, &body, sent);
        assert_eq!(err.kind(), kind, "{sent:?} → {status} {body}");
        // Our own check refuses the same values before anything is sent.
        if let Some(value) = sent {
            assert!(ApiKey::parse(value).is_err(), "{value}");
        }
    }
}

/// The real service is HTTPS: the TLS backend is compiled in and needs no set-up. A server
/// that does not speak TLS yields a network error, not a panic or a plain-HTTP request.
#[tokio::test]
async fn https_is_supported_and_a_failed_handshake_is_a_network_error() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            use tokio::io::AsyncWriteExt;
            let _ = socket.write_all(b"HTTP/1.1 200 OK\r\n\r\nnot tls").await;
        }
    });
    let c = Client::new(config(&format!("https://127.0.0.1:{port}"))).unwrap();
    let k = ApiKey::parse("dt_$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA").unwrap();
    let err = c
        .send(&TwitterPostRequest { id: "1".into() }, &k)
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Network, "{err:?}");
}

#[tokio::test]
async fn a_spent_balance_answers_out_of_credit() {
    let balance = rust_decimal::Decimal::new(1, 2); // 0.01 USD: two AI calls at 0.004
    let sb = Sandbox::builder()
        .seed(42)
        .port(0)
        .pace_ms(0)
        .balance_usd(Some(balance))
        .start()
        .await
        .unwrap();
    let c = client(&sb);
    let k = key(&sb);
    let mut spent = rust_decimal::Decimal::ZERO;
    let mut refusal = None;
    for _ in 0..10 {
        match c.send(&ai_req(), &k).await {
            Ok(r) => spent += r.billing.expect("billed").cost_usd.expect("a stated cost"),
            Err(e) => {
                refusal = Some(e);
                break;
            }
        }
    }
    let refusal = refusal.expect("the balance runs out");
    assert_eq!(refusal.kind(), ErrorKind::OutOfCredit, "{refusal:?}");
    assert!(refusal.user_message().contains("run out of credit"));
    // Prepaid: calls are accepted while something is left, so the last one may overdraw.
    assert!(
        spent >= balance,
        "refused only once the balance was spent: {spent}"
    );
}
