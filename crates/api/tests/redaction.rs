//! The key never appears in errors, Debug output, serialised payloads or log lines.

mod common;

use std::io::Write;
use std::sync::{Arc, Mutex};

use sightline_api::request::*;
use sightline_api::{ApiError, CancelToken};
use sightline_sandbox::Fault;

use common::*;

/// Collects everything the tracing subscriber writes.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test]
async fn the_key_never_leaks() {
    let logs = Captured::default();
    let writer = logs.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);

    let sb = sandbox().await;
    let c = client(&sb);
    let k = key(&sb);
    let secret = sb.demo_key().to_owned();
    let secret_body = &secret[4..];
    let mut shown: Vec<String> = vec![format!("{k:?}"), format!("{k}"), format!("{c:?}")];

    let ok = c.send(&TwitterTrendsRequest::default(), &k).await.unwrap();
    shown.push(format!("{ok:?}"));
    let req = TwitterPostRequest {
        id: post_with_reposts(&sb).0,
    };
    shown.push(format!("{req:?}"));
    for code in [401, 402, 403, 422, 429, 500] {
        sb.faults().push(
            "/twitter/post",
            Fault::Status {
                status: code,
                body: None,
                headers: Default::default(),
            },
        );
    }
    for _ in 0..6 {
        if let Err(e) = c.send(&req, &k).await {
            shown.extend([
                format!("{e:?}"),
                e.to_string(),
                e.user_message(),
                serde_json::to_string(&e).unwrap(),
            ]);
        }
    }
    // An error body that echoes the key back is scrubbed.
    sb.faults().push(
        "/twitter/post",
        Fault::Status {
            status: 402,
            body: Some(serde_json::json!({"detail": format!("no credit on {secret}")})),
            headers: Default::default(),
        },
    );
    let echoed = c.send(&req, &k).await.unwrap_err();
    assert!(
        matches!(&echoed, ApiError::OutOfCredit { detail: Some(d) } if d.contains("<redacted>"))
    );
    shown.push(format!("{echoed:?}"));

    sb.faults().push(
        "/service/ai/search",
        Fault::CutStream {
            after_events: 2,
            abrupt: true,
        },
    );
    let cut = c
        .ai_search_stream(
            &AiSearchRequest::new("x", &[Tool::Web]),
            &k,
            |_| {},
            &CancelToken::new(),
        )
        .await
        .unwrap_err();
    shown.push(format!("{cut:?}"));

    let text = String::from_utf8(logs.0.lock().unwrap().clone()).unwrap();
    assert!(
        text.contains("service answered"),
        "logs were captured: {text}"
    );
    shown.push(text);
    for s in shown {
        assert!(!s.contains(secret_body), "key leaked in: {s}");
    }
}
