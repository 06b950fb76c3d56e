//! A billed answer that cannot be decoded is an error that still carries what it cost and its
//! bytes as received, so the app can record the charge and keep the answer.

mod common;

use serde_json::Value;
use sightline_api::request::*;
use sightline_api::{ApiError, ErrorKind};
use sightline_sandbox::{Fault, Sandbox};

use common::*;

fn unread(err: ApiError) -> (u16, String, sightline_api::UnreadAnswer) {
    match err {
        ApiError::Malformed {
            status,
            detail,
            answer: Some(answer),
        } => (status, detail, *answer),
        other => panic!("expected a malformed answer with its charge: {other:?}"),
    }
}

#[tokio::test]
async fn a_200_that_is_not_json_keeps_its_charge_and_bytes() {
    let sb = Sandbox::builder()
        .pace_ms(0)
        .faults(true)
        .float_costs(true)
        .start()
        .await
        .unwrap();
    let body = "<html>upstream hiccup: {\"tweets\": [";
    sb.faults().push(
        "/twitter",
        Fault::Body {
            body: Value::String(body.into()),
            status: 200,
            content_type: Some("application/json".into()),
        },
    );
    let err = client(&sb)
        .send(&TwitterSearchRequest::new("moon"), &key(&sb))
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::MalformedResponse);
    let (status, detail, answer) = unread(err);
    assert_eq!(status, 200);
    assert!(detail.contains("expected value"), "{detail}");
    let billed = sb.billed().responses();
    assert_eq!(billed.len(), 1, "the sandbox billed it");
    let charge = answer
        .billing
        .expect("the headers' charge travels with the error");
    assert_eq!(charge.cost_text, billed[0].cost_usd);
    assert!(charge.cost_usd.is_some());
    assert_eq!(charge.usage_count, 1);
    assert_eq!(answer.capture.bytes, body.as_bytes());
    assert_eq!(answer.capture.status, 200);
    assert_eq!(
        answer.capture.billing_headers.get("x-service-cost-usd"),
        Some(&billed[0].cost_usd)
    );
}

#[tokio::test]
async fn a_cut_object_keeps_the_header_charge() {
    let sb = sandbox().await;
    sb.faults()
        .push("/twitter/trends", Fault::MalformedJson { at_event: 0 });
    let err = client(&sb)
        .send(
            &TwitterTrendsRequest {
                woeid: Some(1),
                count: 30,
            },
            &key(&sb),
        )
        .await
        .unwrap_err();
    let (_, _, answer) = unread(err);
    let charge = answer.billing.unwrap();
    assert_eq!(charge.cost_text, "0.009");
    assert_eq!(charge.usage_count, 30);
    assert_eq!(answer.billing_issue, None);
    assert!(answer.capture.bytes.starts_with(b"{"));
}
