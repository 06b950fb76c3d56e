//! The log file after a session against the sandbox on loopback, with the app's own logger
//! installed on its data folder: requests answered and refused, a monitor's run, a forecast
//! followed in the background, a task that panics. The log says what went wrong, with its
//! time; the key and anything from a response's body are never in it.

#[path = "support/announce.rs"]
mod announce;
#[path = "support/live.rs"]
mod live;
#[path = "support/search.rs"]
mod search;
#[path = "support/send.rs"]
mod send;

use std::sync::Arc;
use std::time::Duration;

use announce::Recorded;
use live::Live;
use search::search;
use send::send;

use sightline_api::request::{ForecastRequest, TwitterSearchRequest};
use sightline_core::forecast::{self, Backoff, Following, OnUpdate};
use sightline_core::logging;
use sightline_core::monitors::{self, MonitorDraft, MonitorTarget, Scheduler};
use sightline_core::pipeline;
use sightline_sandbox::{Fault, Sandbox};

/// Text only a response's body holds: were it in the log, a body would be.
const IN_A_BODY: &str = "body-marker-7f3a-never-logged";

fn refusal(status: u16) -> Fault {
    Fault::Status {
        status,
        body: Some(serde_json::json!({ "detail": format!("{IN_A_BODY} ({status})") })),
        headers: [("Retry-After".to_owned(), "120".to_owned())].into(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_leaves_its_warnings_in_the_log_and_never_the_key_or_a_body() {
    let live = Live::start(
        Sandbox::builder()
            .seed(9)
            .faults(true)
            .forecast_duration(Duration::from_millis(300)),
    )
    .await;
    let (sandbox, state) = (&live.sandbox, &live.state);
    let data_dir = live._data.path().to_owned();
    let log = logging::start(&data_dir).unwrap();
    let session = state.session().await.unwrap();

    // An answer: its posts' text is a body's, and must stay out of the log.
    let found = pipeline::execute(state, &session, search(sandbox, 5), send("ok-1"), None)
        .await
        .unwrap();
    let post_text = found.body.0[0].text.clone();
    assert!(post_text.len() > 20, "{post_text}");

    // A refused search (a 500 on every attempt).
    for _ in 0..3 {
        sandbox.faults().push("/twitter", refusal(500));
    }
    pipeline::execute(state, &session, search(sandbox, 5), send("fail-1"), None)
        .await
        .unwrap_err();
    sandbox.faults().clear(None);

    // A monitor's run in the background, told to wait (429).
    let monitor = monitors::create(
        &session.store,
        &MonitorDraft {
            name: "#JWST".into(),
            target: MonitorTarget::Search {
                request: TwitterSearchRequest::new("#JWST"),
            },
            interval_minutes: 15,
            cap: 10,
            investigation_id: None,
        },
    )
    .await
    .unwrap();
    sandbox.faults().push("/twitter", refusal(429));
    Scheduler::default()
        .run_one(state, &Recorded::default(), monitor.id, false)
        .await
        .unwrap();

    // A forecast followed to its answer, its first polls refused.
    let question = ForecastRequest {
        query: Some("Will the log hold the key?".into()),
        ..ForecastRequest::default()
    };
    let (started, key) = forecast::ask(state, &session, &question, send("f-1"))
        .await
        .unwrap();
    for _ in 0..3 {
        sandbox
            .faults()
            .push("/numinous/forecasts/{prediction_id}", refusal(503));
    }
    let quick = Backoff {
        first: Duration::from_millis(50),
        max: Duration::from_millis(200),
    };
    let on_update: OnUpdate = Arc::new(|_| {});
    let followed = forecast::follow(
        session.clone(),
        key,
        Arc::new(Following::default()),
        started.history_id,
        started.prediction_id,
        quick,
        on_update,
    )
    .unwrap();
    tokio::time::timeout(Duration::from_secs(20), followed)
        .await
        .expect("the forecast is followed to its end")
        .unwrap();

    // A task that dies.
    let died = tokio::spawn(async { panic!("a test task's own panic") }).await;
    assert!(died.is_err());

    drop(log); // writes out what is still queued
    let dir = logging::log_dir(&data_dir);
    let files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let name = files[0].file_name().unwrap().to_string_lossy().into_owned();
    let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
    assert_eq!(name, format!("sightline.{today}.log"));
    let text = std::fs::read_to_string(&files[0]).unwrap();

    // Each line starts with its time.
    for line in text.lines() {
        assert!(
            line.starts_with(&today[..4]) && line.as_bytes()[10] == b'T',
            "{line}"
        );
    }
    let has = |parts: &[&str]| {
        text.lines()
            .any(|line| parts.iter().all(|part| line.contains(part)))
    };
    assert!(has(&["INFO", "Sightline started", "version="]), "{text}");
    assert!(
        has(&[
            "WARN",
            "a request failed",
            "twitter_search",
            "kind=server_error",
            "status=500"
        ]),
        "{text}"
    );
    assert!(
        has(&[
            "WARN",
            "a request failed",
            "kind=rate_limited",
            "status=429"
        ]),
        "the monitor's refused page: {text}"
    );
    assert!(
        has(&[
            "WARN",
            "a forecast's poll failed",
            "status=503",
            "again=true"
        ]),
        "{text}"
    );
    assert!(
        has(&["ERROR", "a panic", "a test task's own panic"]),
        "{text}"
    );

    // Nothing secret, nothing from a body.
    let key = sandbox.demo_key();
    assert!(!text.contains(key), "the key is in the log");
    assert!(!text.contains(IN_A_BODY), "an error body is in the log");
    assert!(!text.contains(&post_text), "a post's text is in the log");
}
