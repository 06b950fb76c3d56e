//! Provenance end to end: the SHA-256 the app records for a response is the SHA-256 of the
//! bytes the sandbox sent (its body log says which), the stored bytes hash to it again, and a
//! a post points at the response that brought it. (That a recorded provenance cannot be edited
//! is checked on a real file in the store's own tests.) Against a sandbox on loopback and a real SQLite file.

use crate::support::live;
use crate::support::send;

use live::Live;
use send::send;
use std::path::{Path, PathBuf};
use std::time::Duration;

use sha2::{Digest, Sha256};
use sightline_api::request::{AiSearchRequest, Tool, TwitterPostRequest, TwitterSearchRequest};
use sightline_core::pipeline;
use sightline_core::session::Session;
use sightline_core::streaming;
use sightline_sandbox::body_log::LoggedBody;
use sightline_sandbox::{Fault, Sandbox};
use sightline_store::{Provenance, ProvenanceRecord};

/// A live app whose sandbox logs each body it sends, with what it hashed, to `log`.
struct Logged {
    live: Live,
    log: PathBuf,
    _logs: tempfile::TempDir,
}

impl std::ops::Deref for Logged {
    type Target = Live;
    fn deref(&self) -> &Live {
        &self.live
    }
}

async fn live() -> Logged {
    let logs = tempfile::tempdir().unwrap();
    let log = logs.path().join("bodies.jsonl");
    let live = Live::start(Sandbox::builder().seed(9).body_log(&log)).await;
    Logged {
        live,
        log,
        _logs: logs,
    }
}

/// The body log's line for `target` (path and query), waiting for it: a line is written as
/// its body ends, which may be just after the client has read the last byte.
async fn logged(log: &Path, method: &str, target: &str) -> LoggedBody {
    for _ in 0..100 {
        let text = std::fs::read_to_string(log).unwrap_or_default();
        // The newest line for the target; a line still being written is skipped this time.
        let found = text
            .lines()
            .rev()
            .filter_map(|line| serde_json::from_str::<LoggedBody>(line).ok())
            .find(|l| l.method == method && l.target == target);
        if let Some(line) = found {
            return line;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!(
        "no body log line for {method} {target}:\n{}",
        std::fs::read_to_string(log).unwrap_or_default()
    );
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

async fn recorded(session: &Session, history_id: i64) -> ProvenanceRecord {
    match session.store.provenance(history_id).await.unwrap() {
        Provenance::Captured { record } => record,
        other => panic!("no provenance recorded: {other:?}"),
    }
}

/// The stored record agrees with what the sandbox sent, its stored bytes hash to it again,
/// and the store says it matches.
async fn assert_matches_what_was_sent(
    live: &Logged,
    session: &Session,
    history_id: i64,
    method: &str,
) -> ProvenanceRecord {
    let record = recorded(session, history_id).await;
    let target = record
        .response_url
        .strip_prefix(live.sandbox.base_url())
        .expect("the answering URL is the sandbox's");
    let sent = logged(&live.log, method, target).await;
    assert_eq!(
        record.sha256, sent.sha256,
        "the hash of the bytes the sandbox sent"
    );
    assert_eq!(record.http_status, sent.status);
    assert_eq!(record.body_size as u64, sent.bytes);
    let body = session
        .store
        .provenance_body(history_id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        hex(&Sha256::digest(&body)),
        sent.sha256,
        "the stored bytes re-hash to it"
    );
    let check = session
        .store
        .verify_provenance(history_id)
        .await
        .unwrap()
        .unwrap();
    assert!(check.matches, "{check:?}");
    assert_eq!(record.service_url, live.sandbox.base_url());
    assert_eq!(record.app_version, env!("CARGO_PKG_VERSION"));
    record
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_x_search_and_a_post_by_id_are_recorded_as_the_sandbox_sent_them() {
    let live = live().await;
    let session = live.state.session().await.unwrap();

    let search = TwitterSearchRequest {
        count: 20,
        ..TwitterSearchRequest::new("climate")
    };
    let found = pipeline::execute(&live.state, &session, search.clone(), send("search"), None)
        .await
        .unwrap();
    let record = assert_matches_what_was_sent(&live, &session, found.history_id, "GET").await;
    assert_eq!(record.operation, "twitter_search");
    assert!(
        record.params_json.contains("climate"),
        "{}",
        record.params_json
    );
    assert!(!record.from_cache);
    let cost = found.billing.unwrap().cost.unwrap();
    assert_eq!(
        record.billing_headers["x-service-cost-usd"]
            .parse::<rust_decimal::Decimal>()
            .unwrap(),
        cost,
        "the billing headers as they were written"
    );

    let id = live.sandbox.world().posts[7].id.to_string();
    let post = pipeline::execute(
        &live.state,
        &session,
        TwitterPostRequest { id: id.clone() },
        send("post"),
        None,
    )
    .await
    .unwrap();
    let record = assert_matches_what_was_sent(&live, &session, post.history_id, "GET").await;
    assert_eq!(record.operation, "twitter_post");

    // The post card's capture line points at the response that brought the post.
    let captures = session
        .store
        .post_captures(std::slice::from_ref(&id))
        .await
        .unwrap();
    assert_eq!(
        captures[0].capture.as_ref().unwrap().history_id,
        post.history_id
    );

    // The same search again: the service answers 304 and the stored body is re-used; its
    // provenance says so and carries the hash of that body.
    let again = pipeline::execute(&live.state, &session, search, send("search-again"), None)
        .await
        .unwrap();
    assert!(
        again.from_cache,
        "the sandbox answers an unchanged search 304"
    );
    let repeat = recorded(&session, again.history_id).await;
    let first = recorded(&session, found.history_id).await;
    assert_eq!((repeat.http_status, repeat.from_cache), (304, true));
    assert_eq!(repeat.sha256, first.sha256, "the stored body it re-used");
    assert!(
        session
            .store
            .verify_provenance(again.history_id)
            .await
            .unwrap()
            .unwrap()
            .matches
    );
}

fn ai_request() -> AiSearchRequest {
    AiSearchRequest::new(
        "flood warnings in coastal towns",
        &[Tool::Web, Tool::Twitter],
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_streamed_answer_is_hashed_whole_and_a_cut_one_as_far_as_it_came() {
    let live = live().await;
    let session = live.state.session().await.unwrap();

    let answer = streaming::ai_search(&live.state, &session, ai_request(), send("stream"), |_| {})
        .await
        .unwrap();
    let record = assert_matches_what_was_sent(&live, &session, answer.history_id, "POST").await;
    assert_eq!(record.operation, "ai_search");
    let sent = logged(&live.log, "POST", "/service/ai/search").await;
    assert!(sent.complete);
    // A stream's headers are kept too, as received, the de-chunking said by a renamed header.
    let headers = session
        .store
        .response_headers(answer.history_id)
        .await
        .unwrap()
        .expect("a stream's headers");
    let has = |name: &str, value: &str| headers.contains(&(name.to_owned(), value.to_owned()));
    assert!(
        has("content-type", "text/event-stream; charset=utf-8"),
        "{headers:?}"
    );
    assert!(has("cache-control", "no-cache"), "{headers:?}");
    for (name, value) in &record.billing_headers {
        assert!(has(name, value), "{name}: {headers:?}");
    }
    assert!(
        !headers.iter().any(|(n, _)| n == "transfer-encoding"),
        "the body kept is de-chunked: {headers:?}"
    );

    live.sandbox.faults().push(
        "/service/ai/search",
        Fault::CutStream {
            after_events: 4,
            abrupt: true,
        },
    );
    let error = tokio::time::timeout(
        Duration::from_secs(30),
        streaming::ai_search(&live.state, &session, ai_request(), send("cut"), |_| {}),
    )
    .await
    .expect("a cut stream ends promptly")
    .unwrap_err();
    assert_eq!(error.class(), "stream_cut");
    let history = session.store.history(&Default::default()).await.unwrap();
    let cut = history.iter().find(|h| h.request_id == "cut").unwrap();
    let record = recorded(&session, cut.id).await;
    // Two POSTs to the same target: the cut one is the last line, and says it was cut.
    let sent = logged(&live.log, "POST", "/service/ai/search").await;
    assert!(!sent.complete, "{sent:?}");
    assert_eq!(
        record.sha256, sent.sha256,
        "the bytes that arrived before the cut"
    );
    assert_eq!(record.body_size as u64, sent.bytes);
    assert_eq!(record.http_status, 200, "the status as received");
    assert!(
        session
            .store
            .verify_provenance(cut.id)
            .await
            .unwrap()
            .unwrap()
            .matches
    );
}
