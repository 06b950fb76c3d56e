//! Forecast jobs over HTTP: accepted and billed once, then PENDING → RUNNING → COMPLETED (or
//! FAILED for the seeded share), free polls, 404 for unknown ids, the 422 rules, auth and 429.

mod common;

use common::*;
use serde_json::{json, Value};
use sightline_sandbox::ops::forecast::{fails, Question, FAILURE};
use sightline_sandbox::Sandbox;
use std::time::Duration;

const JOB: Duration = Duration::from_millis(400);

async fn sandbox() -> Sandbox {
    Sandbox::builder()
        .pace_ms(0)
        .faults(true)
        .now(fixed_now())
        .forecast_duration(JOB)
        .start()
        .await
        .unwrap()
}

async fn ask(sb: &Sandbox, body: Value) -> String {
    let r = post(sb, "/numinous/forecasts", &body).await;
    assert_eq!(r.status, 202, "{}", r.text);
    let v = r.json();
    assert_eq!(v["status"], "PENDING");
    v["prediction_id"].as_str().unwrap().to_owned()
}

async fn poll(sb: &Sandbox, id: &str) -> common::Reply {
    get(sb, &format!("/numinous/forecasts/{id}"), &[]).await
}

/// Polls until the job ends, collecting the states seen.
async fn follow(sb: &Sandbox, id: &str) -> (Vec<String>, Value) {
    let mut seen = Vec::new();
    for _ in 0..100 {
        let r = poll(sb, id).await;
        assert_eq!(r.status, 200, "{}", r.text);
        assert_eq!(r.header("x-service-cost-usd"), None, "polls are free");
        let v = r.json();
        let status = v["status"].as_str().unwrap().to_owned();
        if seen.last() != Some(&status) {
            seen.push(status.clone());
        }
        if status == "COMPLETED" || status == "FAILED" {
            return (seen, v);
        }
        tokio::time::sleep(Duration::from_millis(40)).await;
    }
    panic!("the job never ended: {seen:?}");
}

#[tokio::test]
async fn a_forecast_moves_from_pending_to_completed_and_only_the_post_is_billed() {
    let sb = sandbox().await;
    let question = "Will the EU adopt the flood directive before 1 March 2027?";
    let r = post(&sb, "/numinous/forecasts", &json!({ "query": question })).await;
    assert_eq!(r.status, 202);
    assert_eq!(r.header("x-service-service"), Some("forecast"));
    assert_eq!(r.header("x-service-usage-count"), Some("1"));
    assert_eq!(r.header("x-service-cost-usd"), Some("0.01"));
    let id = r.json()["prediction_id"].as_str().unwrap().to_owned();
    assert_eq!(id.len(), 36);

    let (seen, done) = follow(&sb, &id).await;
    assert_eq!(seen, ["PENDING", "RUNNING", "COMPLETED"]);
    let result = &done["result"];
    let p = result["prediction"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&p));
    assert!(result["forecaster_name"].as_str().is_some());
    assert!(result["forecasted_at"].as_str().unwrap().ends_with('Z'));
    assert!(done["created_at"].as_str().is_some());
    assert_eq!(result["parsed_fields"]["title"], question);
    assert!(result["metadata"]["reasoning"]
        .as_str()
        .unwrap()
        .contains("Base rate"));
    // Polling on is free and stable.
    let again = poll(&sb, &id).await.json();
    assert_eq!(again["result"], done["result"]);
    let billed = sb.billed().responses();
    assert_eq!(billed.len(), 1, "{billed:?}");
    assert_eq!(billed[0].service, "forecast");

    // The same question in a new sandbox of the seed gets the same probability.
    let other = sandbox().await;
    let id2 = ask(&other, json!({ "query": question })).await;
    assert_ne!(id, id2);
    let (_, done2) = follow(&other, &id2).await;
    assert_eq!(done2["result"]["prediction"], result["prediction"]);
}

#[tokio::test]
async fn titles_cutoffs_and_topics_are_read_back_as_parsed_fields() {
    let sb = sandbox().await;
    let id = ask(
        &sb,
        json!({
            "title": "Flood directive adopted",
            "description": "The Council adopts it.",
            "cutoff": "2027-03-01T00:00:00Z",
            "topics": ["eu", "climate"],
            "query": null,
        }),
    )
    .await;
    let (_, done) = follow(&sb, &id).await;
    let parsed = &done["result"]["parsed_fields"];
    assert_eq!(parsed["title"], "Flood directive adopted");
    assert_eq!(parsed["description"], "The Council adopts it.");
    assert_eq!(parsed["cutoff"], "2027-03-01T00:00:00Z");
    assert_eq!(parsed["topics"], json!(["eu", "climate"]));
    assert_eq!(
        done["result"]["metadata"]["event_cutoff"],
        "2027-03-01T00:00:00Z"
    );
}

#[tokio::test]
async fn a_seeded_share_of_jobs_fails_with_an_error_text() {
    let sb = sandbox().await;
    let query = (0..)
        .map(|n| format!("Will event number {n} happen?"))
        .find(|q| {
            fails(
                42,
                &Question {
                    query: Some(q.clone()),
                    ..Question::default()
                },
            )
        })
        .unwrap();
    let id = ask(&sb, json!({ "query": query })).await;
    let (seen, done) = follow(&sb, &id).await;
    assert_eq!(seen.last().unwrap(), "FAILED");
    assert_eq!(done["error"], FAILURE);
    assert!(done.get("result").is_none());
}

#[tokio::test]
async fn a_question_on_security_quotes_hostile_text_verbatim() {
    let sb = sandbox().await;
    let query = (0..)
        .map(|n| format!("Will web application security incident {n} be disclosed?"))
        .find(|q| {
            !fails(
                42,
                &Question {
                    query: Some(q.clone()),
                    ..Question::default()
                },
            )
        })
        .unwrap();
    let id = ask(&sb, json!({ "query": query })).await;
    let (_, done) = follow(&sb, &id).await;
    let reasoning = done["result"]["metadata"]["reasoning"].as_str().unwrap();
    assert!(reasoning.contains('<'), "{reasoning}");
}

#[tokio::test]
async fn unknown_ids_are_404() {
    let sb = sandbox().await;
    let r = poll(&sb, "00000000-0000-4000-8000-000000000000").await;
    assert_eq!(r.status, 404);
    assert!(r.json()["detail"].as_str().is_some());
    assert_eq!(r.header("x-service-cost-usd"), None);
}

#[tokio::test]
async fn the_422_rules() {
    let sb = sandbox().await;
    let cases = [
        json!({}),
        json!({ "query": "  ", "title": null }),
        json!({ "description": "only a description" }),
        json!({ "query": 5 }),
        json!({ "title": "t", "topics": "eu" }),
        json!({ "title": "t", "topics": [1] }),
        json!({ "title": "t", "cutoff": "next spring" }),
    ];
    for body in cases {
        let r = post(&sb, "/numinous/forecasts", &body).await;
        assert_eq!(r.status, 422, "{body} → {}", r.text);
        assert!(r.json()["detail"].is_array());
        assert_eq!(r.header("x-service-cost-usd"), None, "a 422 is free");
    }
    let r = post_raw(
        &sb,
        "/numinous/forecasts",
        "{oops".into(),
        Some(sb.demo_key()),
    )
    .await;
    assert_eq!(r.status, 422);
    assert!(sb.billed().responses().is_empty());
}

#[tokio::test]
async fn auth_and_rate_limit_as_every_operation() {
    let sb = sandbox().await;
    let body = json!({ "query": "Will it rain?" }).to_string();
    let r = post_raw(&sb, "/numinous/forecasts", body.clone(), None).await;
    assert_eq!(r.status, 401);
    let r = get_with(&sb, "/numinous/forecasts/x", &[], Some("not a key"), &[]).await;
    assert_eq!(r.status, 403);

    let limited = Sandbox::builder()
        .pace_ms(0)
        .rate_limit(Some(1))
        .forecast_duration(JOB)
        .start()
        .await
        .unwrap();
    let first = post_raw(
        &limited,
        "/numinous/forecasts",
        body.clone(),
        Some(limited.demo_key()),
    )
    .await;
    assert_eq!(first.status, 202);
    let id = first.json()["prediction_id"].as_str().unwrap().to_owned();
    let r = poll(&limited, &id).await;
    assert_eq!(r.status, 429);
    assert!(r.header("retry-after").is_some());
}

#[tokio::test]
async fn a_sandbox_started_again_on_its_jobs_file_still_knows_the_job_and_finishes_it() {
    let dir = std::env::temp_dir().join(format!("sandbox-forecast-restart-{}", std::process::id()));
    let file = dir.join("forecast-jobs.json");
    let _ = std::fs::remove_dir_all(&dir);
    let kept = || {
        Sandbox::builder()
            .pace_ms(0)
            .now(fixed_now())
            .forecast_duration(Duration::from_millis(800))
            .jobs_file(file.clone())
    };
    let first = kept().start().await.unwrap();
    let id = ask(
        &first,
        json!({ "query": "Will the harbour bridge reopen by June?" }),
    )
    .await;
    assert_eq!(poll(&first, &id).await.json()["status"], "PENDING");
    first.shutdown().await;
    assert!(file.exists(), "the job is on disk");

    // A sandbox without the file never heard of it ...
    let forgetful = sandbox().await;
    assert_eq!(poll(&forgetful, &id).await.status, 404);
    // ... one on the same file knows it, and the job has run on meanwhile.
    let second = kept().start().await.unwrap();
    let (seen, done) = follow(&second, &id).await;
    assert!(
        seen.last()
            .is_some_and(|s| s == "COMPLETED" || s == "FAILED"),
        "{seen:?}"
    );
    assert_eq!(done["prediction_id"], id.as_str());
    assert!(second.billed().responses().is_empty(), "polls stay free");
    // And a job asked now gets an id of its own.
    let next = ask(
        &second,
        json!({ "query": "Will the harbour bridge reopen by June?" }),
    )
    .await;
    assert_ne!(next, id);
    second.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}
