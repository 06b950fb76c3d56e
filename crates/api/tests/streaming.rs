//! The streaming AI search against the sandbox: events, packing, fragments, cuts,
//! mid-stream errors and cancellation, and the two-step form (open for the headers and their
//! billing, then read).

mod common;

use serde_json::json;
use sightline_api::request::*;
use sightline_api::{ApiError, CancelToken, ErrorKind, StreamEvent};
use sightline_sandbox::{Fault, Sandbox};

use common::*;

const ROUTE: &str = "/service/ai/search";

fn request() -> AiSearchRequest {
    AiSearchRequest::new(
        "open source software",
        &[Tool::Web, Tool::Twitter, Tool::Wikipedia],
    )
}

async fn run(
    sb: &Sandbox,
    req: &AiSearchRequest,
) -> (
    Vec<StreamEvent>,
    Result<sightline_api::StreamOutcome, ApiError>,
) {
    let c = client(sb);
    let k = key(sb);
    let mut events = Vec::new();
    let outcome = c
        .ai_search_stream(req, &k, |e| events.push(e), &CancelToken::new())
        .await;
    (events, outcome)
}

fn kinds(events: &[StreamEvent]) -> Vec<String> {
    events
        .iter()
        .map(|e| {
            serde_json::to_value(e).unwrap()["kind"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect()
}

#[tokio::test]
async fn a_full_stream_decodes_into_typed_events_with_billing() {
    let sb = sandbox().await;
    let (events, outcome) = run(&sb, &request()).await;
    let outcome = outcome.unwrap();
    assert!(!outcome.cancelled);
    let k = kinds(&events);
    assert!(k.contains(&"link_results".to_owned()), "{k:?}");
    assert!(k.contains(&"tweets".to_owned()), "{k:?}");
    assert!(k.contains(&"text".to_owned()), "{k:?}");
    assert_eq!(k.last().map(String::as_str), Some("completion"));
    assert!(!k.contains(&"malformed".to_owned()), "{k:?}");
    let got = &outcome.received;
    assert_eq!(got.event_count, events.len());
    assert!(got.result.search.is_some());
    assert!(got.result.tweets.is_some());
    let billing = got
        .billing
        .as_ref()
        .expect("stream billing comes in headers");
    assert_eq!(billing.usage_count, 1);
    assert!(outcome.raw.starts_with("data: "));
}

#[tokio::test]
async fn packed_and_fragmented_streams_give_the_same_events() {
    let sb = sandbox().await;
    let (plain, _) = run(&sb, &request()).await;
    sb.faults().push(ROUTE, Fault::PackEvents { per_line: 3 });
    let (packed, outcome) = run(&sb, &request()).await;
    outcome.unwrap();
    assert_eq!(packed, plain);
    sb.faults().push(ROUTE, Fault::Fragment { bytes: 97 });
    let (fragmented, outcome) = run(&sb, &request()).await;
    outcome.unwrap();
    assert_eq!(fragmented, plain);
}

#[tokio::test]
async fn an_abrupt_cut_keeps_what_arrived() {
    // Paced, so the events are on the wire before the connection breaks (unpaced, the
    // sandbox may break it before even the headers are flushed: a plain network error).
    let sb = Sandbox::builder()
        .seed(42)
        .port(0)
        .pace_ms(5)
        .faults(true)
        .start()
        .await
        .unwrap();
    sb.faults().push(
        ROUTE,
        Fault::CutStream {
            after_events: 2,
            abrupt: true,
        },
    );
    let (events, outcome) = run(&sb, &request()).await;
    let err = outcome.unwrap_err();
    let ApiError::StreamCut { received, .. } = &err else {
        panic!("{err:?}")
    };
    // The sandbox breaks the connection right after the second event, which may not have
    // been flushed yet: what arrived is one or two events, never more, never invented.
    assert!(
        (1..=2).contains(&received.event_count),
        "{}",
        received.event_count
    );
    assert_eq!(events.len(), received.event_count);
    assert!(received.billing.is_some());
    let kept = match received.event_count {
        1 => "The 1 part that arrived is kept".to_owned(),
        n => format!("The {n} parts that arrived are kept"),
    };
    assert!(err.user_message().contains(&kept), "{}", err.user_message());
}

#[tokio::test]
async fn a_clean_early_end_is_still_a_cut() {
    let sb = sandbox().await;
    sb.faults().push(
        ROUTE,
        Fault::CutStream {
            after_events: 3,
            abrupt: false,
        },
    );
    let (events, outcome) = run(&sb, &request()).await;
    let ApiError::StreamCut { received, .. } = outcome.unwrap_err() else {
        panic!()
    };
    assert_eq!(received.event_count, 3);
    assert_eq!(events.len(), 3);
}

#[tokio::test]
async fn a_broken_event_is_skipped_and_the_stream_goes_on() {
    let sb = sandbox().await;
    let (plain, _) = run(&sb, &request()).await;
    sb.faults()
        .push(ROUTE, Fault::MalformedJson { at_event: 1 });
    let (events, outcome) = run(&sb, &request()).await;
    let outcome = outcome.unwrap();
    assert_eq!(events.len(), plain.len());
    assert!(
        matches!(events[1], StreamEvent::Malformed { .. }),
        "{:?}",
        events[1]
    );
    assert_eq!(outcome.received.skipped_events, 1);
    assert_eq!(events.last(), plain.last());
}

#[tokio::test]
async fn an_error_event_ends_the_stream_with_what_arrived() {
    let sb = sandbox().await;
    let body = "data: {\"type\":\"text\",\"role\":\"summary\",\"content\":\"Hel\"}\n\ndata: {\"error\":\"model overloaded\"}\n\ndata: {\"type\":\"text\",\"content\":\"never\"}\n\n";
    sb.faults().push(
        ROUTE,
        Fault::Body {
            body: json!(body),
            status: 200,
            content_type: Some("text/event-stream".into()),
        },
    );
    let (events, outcome) = run(&sb, &request()).await;
    let err = outcome.unwrap_err();
    let ApiError::StreamFailed { message, received } = &err else {
        panic!("{err:?}")
    };
    assert_eq!(message, "model overloaded");
    assert_eq!(received.result.text.as_deref(), Some("Hel"));
    assert_eq!(events.len(), 2);
}

#[tokio::test]
async fn unknown_event_types_are_passed_on() {
    let sb = sandbox().await;
    let body = "data: {\"type\":\"tiktok_search\",\"content\":[]}\n\ndata: [DONE]\n\ndata: {\"type\":\"completion\",\"content\":\"\"}\n\n";
    sb.faults().push(
        ROUTE,
        Fault::Body {
            body: json!(body),
            status: 200,
            content_type: Some("text/event-stream".into()),
        },
    );
    let (events, outcome) = run(&sb, &request()).await;
    let outcome = outcome.unwrap();
    assert!(
        matches!(&events[0], StreamEvent::Unknown { event_type, .. } if event_type == "tiktok_search")
    );
    assert_eq!(
        outcome.received.result.completion.as_deref(),
        Some(""),
        "empty summary is still complete"
    );
}

#[tokio::test]
async fn errors_before_the_stream_are_classified() {
    let sb = sandbox().await;
    sb.faults().push(
        ROUTE,
        Fault::Status {
            status: 402,
            body: None,
            headers: Default::default(),
        },
    );
    let (events, outcome) = run(&sb, &request()).await;
    assert!(events.is_empty());
    assert_eq!(outcome.unwrap_err().kind(), ErrorKind::OutOfCredit);
    let (_, outcome) = run(
        &sb,
        &AiSearchRequest {
            tools: vec![],
            ..request()
        },
    )
    .await;
    assert_eq!(outcome.unwrap_err().kind(), ErrorKind::Validation);
}

#[tokio::test]
async fn cancelling_stops_the_stream_and_keeps_what_arrived() {
    // Paced like the real service, so the stream is still running when we cancel.
    let sb = Sandbox::builder()
        .seed(42)
        .port(0)
        .pace_ms(20)
        .start()
        .await
        .unwrap();
    let c = client(&sb);
    let k = key(&sb);
    let cancel = CancelToken::new();
    let mut events = Vec::new();
    let trigger = cancel.clone();
    let outcome = c
        .ai_search_stream(
            &request(),
            &k,
            |e| {
                if matches!(e, StreamEvent::Text { .. }) {
                    trigger.cancel();
                }
                events.push(e);
            },
            &cancel,
        )
        .await
        .unwrap();
    assert!(outcome.cancelled);
    assert_eq!(outcome.received.event_count, events.len());
    assert!(!outcome.received.has_completion());
    assert!(matches!(events.last(), Some(StreamEvent::Text { .. })));
}

#[tokio::test]
async fn slow_headers_time_out_and_silence_cuts_the_stream() {
    let sb = sandbox().await;
    let k = key(&sb);
    let impatient = sightline_api::Client::new(sightline_api::ClientConfig {
        request_timeout: std::time::Duration::from_millis(300),
        ..config(sb.base_url())
    })
    .unwrap();
    sb.faults().push(ROUTE, Fault::Stall { ms: 2000 });
    let err = impatient
        .ai_search_stream(&request(), &k, |_| {}, &CancelToken::new())
        .await
        .unwrap_err();
    assert_eq!(err, ApiError::Timeout);

    // A stream that goes quiet for longer than the idle timeout is cut, keeping what came.
    let slow = Sandbox::builder()
        .seed(42)
        .port(0)
        .pace_ms(1500)
        .start()
        .await
        .unwrap();
    let c = sightline_api::Client::new(sightline_api::ClientConfig {
        stream_idle_timeout: std::time::Duration::from_millis(200),
        ..config(slow.base_url())
    })
    .unwrap();
    let err = c
        .ai_search_stream(&request(), &key(&slow), |_| {}, &CancelToken::new())
        .await
        .unwrap_err();
    let ApiError::StreamCut { detail, .. } = &err else {
        panic!("{err:?}")
    };
    assert!(detail.contains("no data"), "{detail}");
}

#[tokio::test]
async fn the_sandbox_error_and_done_faults_behave_as_the_contract_says() {
    let sb = sandbox().await;
    let (plain, _) = run(&sb, &request()).await;
    sb.faults().push(ROUTE, Fault::DoneSentinel);
    let (with_done, outcome) = run(&sb, &request()).await;
    outcome.unwrap();
    assert_eq!(with_done, plain, "[DONE] is ignored");

    sb.faults().push(
        ROUTE,
        Fault::StreamError {
            after_events: 3,
            message: "miners unavailable".into(),
        },
    );
    let (events, outcome) = run(&sb, &request()).await;
    let ApiError::StreamFailed { message, received } = outcome.unwrap_err() else {
        panic!()
    };
    assert_eq!(message, "miners unavailable");
    assert_eq!(
        received.event_count, 4,
        "three events, then the error event"
    );
    assert_eq!(events.len(), 4);
    assert_eq!(&events[..3], &plain[..3]);
}

#[tokio::test]
async fn opening_gives_the_billing_from_the_headers_before_any_event_is_read() {
    let sb = sandbox().await;
    let (plain, _) = run(&sb, &request()).await;
    let c = client(&sb);
    let k = key(&sb);
    let cancel = CancelToken::new();
    let stream = c
        .open_ai_search_stream(&request(), &k, &cancel)
        .await
        .unwrap();
    assert!(!stream.cancelled_before_headers());
    assert_eq!(stream.billing_issue(), None);
    let billed = stream
        .billing()
        .cloned()
        .expect("the headers announce the cost");
    assert_eq!(billed.usage_count, 1);
    assert!(
        billed.cost_usd > Some(rust_decimal::Decimal::ZERO),
        "{billed:?}"
    );

    let mut events = Vec::new();
    let outcome = stream.read(|e| events.push(e), &cancel).await.unwrap();
    assert!(!outcome.cancelled);
    assert_eq!(events, plain, "the same events as the one-call form");
    assert_eq!(outcome.received.event_count, events.len());
    assert!(outcome.received.has_completion());
    assert_eq!(outcome.received.billing, Some(billed));
    assert!(outcome.raw.starts_with("data: "));
}

#[tokio::test]
async fn a_stream_cancelled_once_its_headers_came_keeps_their_billing() {
    // Paced so the first event is due a second after the headers: a cancel between opening
    // and reading finds nothing read yet, and the cost is still known.
    let sb = Sandbox::builder()
        .seed(42)
        .port(0)
        .pace_ms(250)
        .start()
        .await
        .unwrap();
    let cancel = CancelToken::new();
    let stream = client(&sb)
        .open_ai_search_stream(&request(), &key(&sb), &cancel)
        .await
        .unwrap();
    let billed = stream.billing().cloned().expect("billing in the headers");
    cancel.cancel();
    let mut events = Vec::new();
    let outcome = stream.read(|e| events.push(e), &cancel).await.unwrap();
    assert!(outcome.cancelled);
    assert!(events.is_empty(), "{events:?}");
    assert_eq!(outcome.received.event_count, 0);
    assert_eq!(outcome.received.billing, Some(billed));
}

#[tokio::test]
async fn a_cancel_before_the_headers_opens_nothing_and_reads_nothing() {
    let sb = sandbox().await;
    sb.faults().push(ROUTE, Fault::Stall { ms: 2000 });
    let cancel = CancelToken::new();
    cancel.cancel();
    let stream = client(&sb)
        .open_ai_search_stream(&request(), &key(&sb), &cancel)
        .await
        .unwrap();
    assert!(stream.cancelled_before_headers());
    assert_eq!(stream.billing(), None);
    let mut events = Vec::new();
    let outcome = stream.read(|e| events.push(e), &cancel).await.unwrap();
    assert!(outcome.cancelled);
    assert!(events.is_empty());
    assert_eq!(outcome.received, sightline_api::PartialStream::default());
    assert_eq!(outcome.raw, "");

    // The one-call form answers the same.
    sb.faults().push(ROUTE, Fault::Stall { ms: 2000 });
    let outcome = client(&sb)
        .ai_search_stream(&request(), &key(&sb), |_| {}, &cancel)
        .await
        .unwrap();
    assert!(outcome.cancelled);
    assert_eq!(outcome.received.event_count, 0);
}
