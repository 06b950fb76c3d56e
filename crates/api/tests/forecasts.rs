//! The forecast operations against the sandbox over loopback: the billed POST, free polls that
//! follow the job to its end, 404 for an unknown id, and the input rules checked before sending.

mod common;

use std::str::FromStr;
use std::time::Duration;

use rust_decimal::Decimal;
use sightline_api::model::ForecastState;
use sightline_api::request::{ForecastRequest, ForecastStatusRequest};
use sightline_api::{ApiError, ErrorKind};
use sightline_sandbox::Sandbox;

async fn sandbox() -> Sandbox {
    Sandbox::builder()
        .pace_ms(0)
        .forecast_duration(Duration::from_millis(300))
        .start()
        .await
        .unwrap()
}

#[tokio::test]
async fn a_forecast_is_billed_once_and_followed_to_its_answer() {
    let sb = sandbox().await;
    let (client, key) = (common::client(&sb), common::key(&sb));
    let ask = ForecastRequest {
        title: Some("EU flood directive adopted".into()),
        cutoff: Some("2099-03-01T09:30:00+01:00".into()),
        topics: vec![" eu ".into(), "".into()],
        ..ForecastRequest::default()
    };
    let accepted = client.forecast(&ask, &key).await.unwrap();
    assert_eq!(accepted.status, 202);
    assert_eq!(accepted.body.status, ForecastState::Pending);
    let billing = accepted.billing.expect("the POST is billed");
    assert_eq!(billing.cost_usd, Decimal::from_str("0.01").ok());
    assert_eq!(billing.service, "forecast");
    assert_eq!(billing.usage_count, 1);

    let status = ForecastStatusRequest {
        prediction_id: accepted.body.prediction_id.clone(),
    };
    let mut states = Vec::new();
    let done = loop {
        let r = client.forecast_status(&status, &key).await.unwrap();
        assert!(r.billing.is_none(), "polls are not billed");
        if states.last() != Some(&r.body.status) {
            states.push(r.body.status);
        }
        if r.body.status.is_final() {
            break r.body;
        }
        tokio::time::sleep(Duration::from_millis(30)).await;
    };
    assert_eq!(
        states,
        [
            ForecastState::Pending,
            ForecastState::Running,
            ForecastState::Completed
        ]
    );
    let result = done.result.unwrap();
    assert!((0.0..=1.0).contains(&result.prediction));
    let parsed = result.parsed_fields.unwrap();
    // The cutoff went out in UTC, the topics trimmed, the empty one left out.
    assert_eq!(parsed.cutoff.as_deref(), Some("2099-03-01T08:30:00Z"));
    assert_eq!(parsed.topics, Some(vec!["eu".to_owned()]));
    assert!(result.metadata.reasoning.is_some());
    assert_eq!(sb.billed().responses().len(), 1);
}

#[tokio::test]
async fn an_unknown_forecast_is_not_found() {
    let sb = sandbox().await;
    let status = ForecastStatusRequest {
        prediction_id: "00000000-0000-4000-8000-000000000000".into(),
    };
    let err = common::client(&sb)
        .forecast_status(&status, &common::key(&sb))
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::UnexpectedStatus, "{err:?}");
    assert!(matches!(
        err,
        ApiError::UnexpectedStatus { status: 404, .. }
    ));
}

#[tokio::test]
async fn invalid_questions_are_refused_before_anything_is_sent() {
    let sb = sandbox().await;
    let (client, key) = (common::client(&sb), common::key(&sb));
    for ask in [
        ForecastRequest::default(),
        ForecastRequest {
            query: Some("Will it rain?".into()),
            cutoff: Some("2020-01-01T00:00:00Z".into()),
            ..ForecastRequest::default()
        },
        ForecastRequest {
            query: Some("Will it rain?".into()),
            cutoff: Some("tomorrow".into()),
            ..ForecastRequest::default()
        },
    ] {
        let err = client.forecast(&ask, &key).await.unwrap_err();
        assert!(matches!(err, ApiError::Validation { .. }), "{err:?}");
    }
    let err = client
        .forecast_status(
            &ForecastStatusRequest {
                prediction_id: "../../twitter".into(),
            },
            &key,
        )
        .await
        .unwrap_err();
    assert!(matches!(err, ApiError::Validation { .. }), "{err:?}");
    assert!(sb.billed().responses().is_empty());
}
