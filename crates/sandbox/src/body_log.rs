//! The body log (opt-in, `--body-log FILE`): one JSON line per response sent, with the SHA-256
//! of its body bytes exactly as they went on the wire (for a stream, of every byte of it), so a
//! client's record of what it received can be checked against what was sent.
//!
//! Each line: `{"method", "target" (path and query), "status", "sha256", "bytes", "complete"}`;
//! `complete` is false when the body stopped before its end (a cut stream, a client gone). A
//! line is written when its body ends, so a stream's line follows its last byte.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use axum::body::{Body, Bytes, HttpBody};
use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// One response as the log records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoggedBody {
    pub method: String,
    pub target: String,
    pub status: u16,
    pub sha256: String,
    pub bytes: u64,
    pub complete: bool,
}

/// The open log file; lines are appended whole, one response at a time.
#[derive(Debug)]
pub struct BodyLog {
    file: Mutex<File>,
}

impl BodyLog {
    /// Opens (creating) `path` for appending.
    pub fn open(path: &Path) -> std::io::Result<Arc<BodyLog>> {
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        Ok(Arc::new(BodyLog {
            file: Mutex::new(file),
        }))
    }

    fn append(&self, line: &LoggedBody) {
        let mut text = serde_json::to_string(line).expect("a log line always serialises");
        text.push('\n');
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        if let Err(e) = file.write_all(text.as_bytes()) {
            tracing::warn!("the body log could not be written: {e}");
        }
    }
}

/// Middleware: wraps every response body so its bytes are hashed as they are sent.
pub async fn record(log: Arc<BodyLog>, request: Request, next: Next) -> Response {
    let method = request.method().to_string();
    let target = request
        .uri()
        .path_and_query()
        .map(|p| p.as_str().to_owned())
        .unwrap_or_default();
    let response = next.run(request).await;
    let status = response.status().as_u16();
    response.map(|body| {
        Body::new(Hashed {
            inner: body,
            digest: Sha256::new(),
            bytes: 0,
            pending: Some(Pending {
                log,
                method,
                target,
                status,
            }),
        })
    })
}

/// What a line needs besides the hash, until it is written.
struct Pending {
    log: Arc<BodyLog>,
    method: String,
    target: String,
    status: u16,
}

/// A body passed through unchanged (frames and size hint), its data hashed on the way.
struct Hashed {
    inner: Body,
    digest: Sha256,
    bytes: u64,
    pending: Option<Pending>,
}

impl Hashed {
    fn write_line(&mut self, complete: bool) {
        let Some(p) = self.pending.take() else {
            return;
        };
        let digest = std::mem::take(&mut self.digest).finalize();
        let sha256 = digest.iter().map(|b| format!("{b:02x}")).collect();
        p.log.append(&LoggedBody {
            method: p.method,
            target: p.target,
            status: p.status,
            sha256,
            bytes: self.bytes,
            complete,
        });
    }
}

impl HttpBody for Hashed {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, axum::Error>>> {
        let polled = Pin::new(&mut self.inner).poll_frame(cx);
        match &polled {
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    self.digest.update(data);
                    self.bytes += data.len() as u64;
                }
                if self.inner.is_end_stream() {
                    self.write_line(true);
                }
            }
            Poll::Ready(None) => self.write_line(true),
            Poll::Ready(Some(Err(_))) => self.write_line(false),
            Poll::Pending => {}
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

impl Drop for Hashed {
    fn drop(&mut self) {
        // A body dropped before its end was cut (or its client left): say so. One that was
        // never polled (an empty body) is complete.
        let complete = self.inner.is_end_stream();
        self.write_line(complete);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_body_passes_unchanged_and_its_hash_is_logged_once() {
        let dir = std::env::temp_dir().join(format!("body-log-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("log.jsonl");
        let log = BodyLog::open(&path).unwrap();
        let mut hashed = Hashed {
            inner: Body::from("hello"),
            digest: Sha256::new(),
            bytes: 0,
            pending: Some(Pending {
                log,
                method: "GET".into(),
                target: "/x?q=1".into(),
                status: 200,
            }),
        };
        assert_eq!(hashed.size_hint().exact(), Some(5));
        let frame = std::future::poll_fn(|cx| Pin::new(&mut hashed).poll_frame(cx)).await;
        assert_eq!(frame.unwrap().unwrap().into_data().unwrap(), "hello");
        drop(hashed);
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<LoggedBody> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 1, "{text}");
        assert_eq!(
            lines[0].sha256,
            "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824"
        );
        assert!(lines[0].complete);
        assert_eq!((lines[0].bytes, lines[0].status), (5, 200));
        let _ = std::fs::remove_dir_all(dir);
    }
}
