//! No silent double charge: a billed GET is sent again by the client itself only when nothing
//! reached the service. A timeout or an answer cut short is returned after one attempt (the
//! service may have billed it; the user decides), a refused connection is tried again.
//! Against the sandbox on loopback: each queued fault is used by one attempt, so the faults
//! still pending count the attempts made.

mod common;

use std::time::Duration;

use sightline_api::request::{TwitterPostRequest, TwitterSearchRequest};
use sightline_api::{ApiError, ApiKey, Client, ClientConfig, ErrorKind, RetryPolicy};
use sightline_sandbox::{Fault, Sandbox};

use common::*;

const ROUTE: &str = "/twitter/post";

fn post_req(sb: &Sandbox) -> TwitterPostRequest {
    TwitterPostRequest {
        id: post_with_reposts(sb).0,
    }
}

fn pending(sb: &Sandbox) -> usize {
    sb.faults().pending().get(ROUTE).map_or(0, Vec::len)
}

#[tokio::test]
async fn a_get_that_times_out_is_sent_once() {
    let sb = sandbox().await;
    let c = Client::new(ClientConfig {
        request_timeout: Duration::from_millis(300),
        ..config(sb.base_url())
    })
    .unwrap();
    assert_eq!(c.config().retry.max_attempts, 3, "retries are on");
    // Three attempts would meet both stalls and then an answer.
    for _ in 0..2 {
        sb.faults().push(ROUTE, Fault::Stall { ms: 1_500 });
    }
    let err = c.send(&post_req(&sb), &key(&sb)).await.unwrap_err();
    assert_eq!(err, ApiError::Timeout);
    assert!(err.kind().may_have_billed());
    assert!(err.user_message().contains("may have billed"), "{err:?}");
    assert_eq!(pending(&sb), 1, "one attempt, not three");
}

#[tokio::test]
async fn an_answer_cut_short_is_billed_once_and_not_sent_again() {
    let sb = sandbox().await;
    let c = client(&sb);
    for _ in 0..2 {
        sb.faults().push(
            ROUTE,
            Fault::CutStream {
                after_events: 0,
                abrupt: true,
            },
        );
    }
    let err = c.send(&post_req(&sb), &key(&sb)).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::AnswerCut, "{err:?}");
    assert!(err.kind().may_have_billed());
    assert_eq!(pending(&sb), 1, "one attempt");
    // The service billed the answer it began: one charge, never a second.
    assert_eq!(sb.billed().responses().len(), 1);
}

#[tokio::test]
async fn a_refused_connection_is_tried_again() {
    // A port with nothing listening yet: the first attempt is refused, and the service comes
    // up there while the client waits to try again.
    let port = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let c = Client::new(ClientConfig {
        retry: RetryPolicy {
            max_attempts: 6,
            base_backoff: Duration::from_millis(500),
            max_backoff: Duration::from_secs(2),
        },
        ..config(&format!("http://127.0.0.1:{port}"))
    })
    .unwrap();
    let key = ApiKey::parse(&sightline_sandbox::auth::demo_key(42)).unwrap();
    let sent = tokio::spawn(async move { c.send(&TwitterSearchRequest::new("news"), &key).await });
    tokio::time::sleep(Duration::from_millis(100)).await;
    let sb = Sandbox::builder()
        .seed(42)
        .port(port)
        .pace_ms(0)
        .start()
        .await
        .expect("the sandbox takes the port");
    let answered = sent
        .await
        .unwrap()
        .expect("answered once the service is up");
    assert!(
        answered.attempts >= 2,
        "refused, then answered: {}",
        answered.attempts
    );
    assert_eq!(sb.billed().responses().len(), 1, "billed once");
}
