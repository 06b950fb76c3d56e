//! Forecasts exported from real records: two forecasts asked of a sandbox on loopback and
//! followed to their end (one answered, one failed), read back from the SQLite file and written
//! as CSV, JSON Lines and a citation list, each with the forecast's own fields.

use crate::support::send;

use send::send;
use std::sync::Arc;
use std::time::Duration;

use sightline_api::request::ForecastRequest;
use sightline_core::environment::Environment;
use sightline_core::export::ExportFormat;
use sightline_core::forecast::export::{forecast_rows, write_forecasts};
use sightline_core::forecast::{self, Backoff, Following, OnUpdate};
use sightline_core::keychain::MemoryStore;
use sightline_core::state::AppState;
use sightline_sandbox::ops::forecast::{fails, Question};
use sightline_sandbox::Sandbox;
use sightline_store::{HistoryQuery, Tz};

const SEED: u64 = 9;

/// A question the sandbox of `SEED` answers (`fail: false`) or fails.
fn question(fail: bool) -> String {
    (0..)
        .map(|n| format!("Will the river barrage {n} open before spring?"))
        .find(|q| {
            let asked = Question {
                query: Some(q.clone()),
                ..Question::default()
            };
            fails(SEED, &asked) == fail
        })
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forecasts_export_with_their_own_fields_in_every_format() {
    let sb = Sandbox::builder()
        .seed(SEED)
        .pace_ms(0)
        .forecast_duration(Duration::from_millis(300))
        .start()
        .await
        .unwrap();
    let data = tempfile::tempdir().unwrap();
    let environment = Environment {
        base_url: Some(sb.base_url().into()),
        ..Environment::default()
    };
    let state = AppState::new(
        data.path().to_owned(),
        environment,
        Arc::new(MemoryStore::default()),
    )
    .unwrap();
    sightline_core::keys::add(&state, "work", sb.demo_key())
        .await
        .unwrap();
    let session = state.session().await.unwrap();

    let following = Arc::new(Following::default());
    let quiet: OnUpdate = Arc::new(|_| {});
    let fast = Backoff {
        first: Duration::from_millis(50),
        max: Duration::from_millis(100),
    };
    let mut ids = Vec::new();
    for (n, fail) in [false, true].into_iter().enumerate() {
        let request = ForecastRequest {
            query: Some(question(fail)),
            ..ForecastRequest::default()
        };
        let (started, key) = forecast::ask(&state, &session, &request, send(&format!("x-{n}")))
            .await
            .unwrap();
        let task = forecast::follow(
            session.clone(),
            key,
            following.clone(),
            started.history_id,
            started.prediction_id.clone(),
            fast,
            quiet.clone(),
        )
        .unwrap();
        tokio::time::timeout(Duration::from_secs(10), task)
            .await
            .unwrap()
            .unwrap();
        ids.push((started.history_id, started.prediction_id));
    }

    let rows = forecast_rows(&session.store, &HistoryQuery::default(), None)
        .await
        .unwrap();
    assert_eq!(rows.len(), 2);
    let answered = rows.iter().find(|r| r.history_id == ids[0].0).unwrap();
    assert_eq!(answered.state, "COMPLETED");
    assert_eq!(answered.prediction_id.as_deref(), Some(ids[0].1.as_str()));
    assert_eq!(answered.question, question(false));
    let p = answered.probability.expect("a probability");
    assert!((0.0..=1.0).contains(&p));
    assert!(answered.forecaster.is_some() && answered.forecasted_at.is_some());
    assert!(answered.reasoning.as_deref().unwrap().contains("Base rate"));
    assert!(answered.cutoff.is_some(), "the cutoff the service read");
    assert_eq!(answered.billing.as_ref().unwrap().cost_words(), "0.01");
    let failed = rows.iter().find(|r| r.history_id == ids[1].0).unwrap();
    assert_eq!(failed.state, "FAILED");
    assert_eq!(failed.probability, None);
    assert_eq!(
        failed.error.as_deref(),
        Some(sightline_sandbox::ops::forecast::FAILURE)
    );

    // A hand-picked selection: only the answered one.
    let picked = forecast_rows(
        &session.store,
        &HistoryQuery::default(),
        Some(vec![ids[0].0]),
    )
    .await
    .unwrap();
    assert_eq!(picked.len(), 1);

    let berlin: Tz = "Europe/Berlin".parse().unwrap();
    let out = tempfile::tempdir().unwrap();
    let written = |format: ExportFormat| {
        let path = out.path().join(format!("forecasts.{}", format.extension()));
        write_forecasts(&rows, format, berlin, &path).unwrap();
        std::fs::read_to_string(path).unwrap()
    };
    let csv = written(ExportFormat::Csv);
    assert!(csv.starts_with("history_id,prediction_id,asked_at_utc,asked_at_local,question"));
    assert!(csv.contains(&ids[0].1) && csv.contains(&p.to_string()));
    assert!(csv.contains("(Europe/Berlin)"));
    let jsonl = written(ExportFormat::Jsonl);
    let first: serde_json::Value = serde_json::from_str(jsonl.lines().next().unwrap()).unwrap();
    assert!(first["forecasted_at_local"].is_string() || first["state"] == "FAILED");
    assert_eq!(first["billing"]["cost"], "0.01");
    let citation = written(ExportFormat::Markdown);
    let line = citation
        .lines()
        .find(|l| l.contains(&ids[0].1))
        .expect("the answered forecast is cited");
    assert!(
        line.contains(answered.forecaster.as_deref().unwrap()),
        "{line}"
    );
    assert!(
        line.contains(&sightline_store::export::percent(p)),
        "{line}"
    );
    assert!(line.ends_with("via Sightline"), "{line}");
    assert!(citation.contains("no forecast: "), "{citation}");
}
