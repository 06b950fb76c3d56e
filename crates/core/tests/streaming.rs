//! The live AI search without a window: events relayed in order, a cancel or a cut keeps what
//! arrived in history and the archive, and the cost recorded is the one the headers carried.

use crate::support::live;
use crate::support::send;

use live::Live;
use send::send;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use sightline_api::request::AiSearchRequest;
use sightline_api::request::Tool;
use sightline_api::StreamEvent;
use sightline_core::environment::Environment;
use sightline_core::keychain::{MemoryStore, SecretStore};
use sightline_core::state::AppState;
use sightline_core::streaming::{self, StreamMessage};
use sightline_sandbox::{Fault, Sandbox};
use sightline_store::{HistoryQuery, RequestStatus};

async fn demo_state(dir: &std::path::Path) -> AppState {
    let secrets: Arc<dyn SecretStore> = Arc::new(MemoryStore::default());
    AppState::new(
        dir.to_owned(),
        Environment {
            force_demo: true,
            ..Environment::default()
        },
        secrets,
    )
    .unwrap()
}

fn request() -> AiSearchRequest {
    AiSearchRequest::new(
        "flood warnings in coastal towns",
        &[Tool::Web, Tool::Twitter, Tool::Wikipedia],
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_streamed_answer_arrives_in_parts_and_is_recorded_whole() {
    let dir = tempfile::tempdir().unwrap();
    let state = demo_state(dir.path()).await;
    let session = state.session().await.unwrap();
    let messages = Arc::new(Mutex::new(Vec::new()));
    let sink = messages.clone();

    let outcome = streaming::ai_search(&state, &session, request(), send("s1"), move |m| {
        sink.lock().unwrap().push(m)
    })
    .await
    .unwrap();

    let messages = messages.lock().unwrap().clone();
    assert!(matches!(messages[0], StreamMessage::Started { .. }));
    let deltas = messages
        .iter()
        .filter(|m| {
            matches!(
                m,
                StreamMessage::Event {
                    event: StreamEvent::Text { .. }
                }
            )
        })
        .count();
    assert!(
        deltas > 3,
        "the summary arrives as many small deltas, got {deltas}"
    );
    let completion = outcome
        .body
        .completion
        .clone()
        .expect("a complete stream ends with the summary");
    assert!(!completion.is_empty());
    let billing = outcome
        .billing
        .expect("a stream's cost comes from its headers");

    let entry = &session
        .store
        .history(&HistoryQuery::default())
        .await
        .unwrap()[0];
    assert_eq!(entry.status, RequestStatus::Ok);
    assert_eq!(entry.billing.as_ref().unwrap().cost, billing.cost);
    let stored = session.store.result(entry.id).await.unwrap().unwrap();
    let reopened: sightline_api::model::AiSearchResult =
        serde_json::from_str(&stored.body).unwrap();
    assert_eq!(
        reopened.completion.as_deref(),
        Some(completion.as_str()),
        "the whole answer re-opens"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_keeps_what_arrived() {
    let dir = tempfile::tempdir().unwrap();
    let state = Arc::new(demo_state(dir.path()).await);
    let session = state.session().await.unwrap();
    let seen = Arc::new(Mutex::new(0usize));
    let (counter, canceller) = (seen.clone(), state.clone());
    let outcome = streaming::ai_search(&state, &session, request(), send("s2"), move |message| {
        if matches!(message, StreamMessage::Event { .. }) {
            let mut n = counter.lock().unwrap();
            *n += 1;
            if *n == 3 {
                assert!(
                    streaming::cancel(&canceller, "s2"),
                    "the stream is registered while it runs"
                );
            }
        }
    })
    .await
    .unwrap();
    assert!(
        !streaming::cancel(&state, "s2"),
        "a finished stream is no longer registered"
    );
    assert!(
        outcome.body.completion.is_none(),
        "cancelled before the end"
    );
    let entry = &session
        .store
        .history(&HistoryQuery::default())
        .await
        .unwrap()[0];
    assert_eq!(entry.status, RequestStatus::Cancelled);
    assert!(
        session.store.result(entry.id).await.unwrap().is_some(),
        "what arrived is kept"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cut_stream_is_an_error_that_keeps_the_partial_answer() {
    let Live {
        sandbox,
        state,
        _data,
    } = Live::start(Sandbox::builder().seed(3).faults(true)).await;
    sandbox.faults().push(
        "/service/ai/search",
        Fault::CutStream {
            after_events: 4,
            abrupt: true,
        },
    );
    let session = state.session().await.unwrap();

    let error = tokio::time::timeout(
        Duration::from_secs(30),
        streaming::ai_search(&state, &session, request(), send("s3"), |_| {}),
    )
    .await
    .expect("a cut stream ends promptly")
    .unwrap_err();
    assert_eq!(error.class(), "stream_cut", "{error:?}");
    let entry = &session
        .store
        .history(&HistoryQuery::default())
        .await
        .unwrap()[0];
    assert_eq!(entry.status, RequestStatus::Interrupted);
    assert_eq!(entry.error_class.as_deref(), Some("stream_cut"));
    assert!(session.store.result(entry.id).await.unwrap().is_some());
}
