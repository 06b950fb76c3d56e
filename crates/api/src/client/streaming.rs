//! The streaming AI search, in two steps: [`Client::open_ai_search_stream`] sends the request
//! and waits for the response headers only, so the caller can act on the cost they announce
//! (put it on a ledger) before any event is read; [`AiSearchStream::read`] then reads the
//! events to the end. [`Client::ai_search_stream`] does both in one call.

use std::time::Duration;

use reqwest::header::CONTENT_TYPE;
use serde::Serialize;

use super::{redirect_target, transport_error, Client};
use crate::billing::{self, Charge};
use crate::cancel::CancelToken;
use crate::capture::{self, BodyHasher, Capture};
use crate::decoder::{StreamDecoder, StreamEvent};
use crate::error::{classify, ApiError};
use crate::key::ApiKey;
use crate::operation::Operation;
use crate::request::{AiSearchRequest, ApiRequest, Encoded, ResultType};
use crate::stream::PartialStream;

/// How a stream ended without an error.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StreamOutcome {
    pub received: PartialStream,
    /// True when the caller cancelled; `received` holds what arrived before.
    pub cancelled: bool,
    /// The bytes of the stream as text, exactly as they arrived.
    pub raw: String,
}

/// What [`AiSearchStream::read_captured`] returns: how the read ended, and the stream as
/// received whichever way it ended.
#[derive(Debug)]
pub struct CapturedRead {
    pub result: Result<StreamOutcome, ApiError>,
    /// Every byte that arrived, hashed as it came; None when the cancel fired before the
    /// headers (nothing was received).
    pub capture: Option<Capture>,
}

/// A streaming AI search whose response headers have arrived (or that was cancelled while
/// waiting for them); its events are still unread.
#[derive(Debug)]
pub struct AiSearchStream {
    state: State,
    billing: Option<Charge>,
    billing_issue: Option<String>,
    /// What was asked for: a summary stream must end with `completion`.
    result_type: ResultType,
    idle_timeout: Duration,
    /// The status, headers and URL of the answer, for its capture.
    status: u16,
    headers: capture::Received,
    url: String,
}

#[derive(Debug)]
enum State {
    Open {
        response: reqwest::Response,
        /// The service ignored `streaming` and answers one JSON object.
        is_json: bool,
    },
    /// The cancel fired before the headers came: nothing was received, nothing billed.
    CancelledBeforeHeaders,
}

impl AiSearchStream {
    fn cancelled_early(request: &AiSearchRequest, idle_timeout: Duration) -> Self {
        AiSearchStream {
            state: State::CancelledBeforeHeaders,
            billing: None,
            billing_issue: None,
            result_type: request.result_type,
            idle_timeout,
            status: 0,
            headers: capture::Received::default(),
            url: String::new(),
        }
    }

    /// The cost the service announced in the headers (None when it sent no billing headers,
    /// or the stream was cancelled before they came).
    pub fn billing(&self) -> Option<&Charge> {
        self.billing.as_ref()
    }

    /// A billing header that was present but could not be read.
    pub fn billing_issue(&self) -> Option<&str> {
        self.billing_issue.as_deref()
    }

    /// True when the cancel fired before the headers arrived; `read` then returns at once
    /// with `cancelled: true` and nothing received.
    pub fn cancelled_before_headers(&self) -> bool {
        matches!(self.state, State::CancelledBeforeHeaders)
    }

    /// Reads the events to the end, handing each decoded event to `on_event` as it arrives.
    ///
    /// - complete stream → `Ok` with everything received and the billing headers;
    /// - `cancel` fired → `Ok` with `cancelled: true` and what arrived before;
    /// - connection cut, silence longer than the idle timeout or an event cut short →
    ///   `Err(StreamCut)`; an `{"error": …}` event → `Err(StreamFailed)`; both keep what
    ///   arrived.
    pub async fn read(
        self,
        on_event: impl FnMut(StreamEvent),
        cancel: &CancelToken,
    ) -> Result<StreamOutcome, ApiError> {
        self.read_captured(on_event, cancel).await.result
    }

    /// [`read`](Self::read), and the stream as received: its bytes verbatim and their SHA-256,
    /// hashed chunk by chunk as they arrived, also when it was cancelled or cut.
    pub async fn read_captured(
        self,
        on_event: impl FnMut(StreamEvent),
        cancel: &CancelToken,
    ) -> CapturedRead {
        if self.cancelled_before_headers() {
            return CapturedRead {
                result: Ok(StreamOutcome {
                    received: PartialStream::default(),
                    cancelled: true,
                    raw: String::new(),
                }),
                capture: None,
            };
        }
        let (status, headers, url) = (self.status, self.headers.clone(), self.url.clone());
        let mut raw = Vec::new();
        let mut hasher = BodyHasher::default();
        let result = self
            .drain(on_event, cancel, &mut raw, &mut hasher)
            .await
            .map(|(received, cancelled)| StreamOutcome {
                received,
                cancelled,
                raw: lossy(raw.clone()),
            });
        CapturedRead {
            result,
            capture: Some(hasher.finish(status, headers, &url, raw)),
        }
    }

    /// Reads to the end, appending every chunk to `raw` and `hasher` as it arrives; returns
    /// what was received and whether the cancel stopped it.
    async fn drain(
        self,
        mut on_event: impl FnMut(StreamEvent),
        cancel: &CancelToken,
        raw: &mut Vec<u8>,
        hasher: &mut BodyHasher,
    ) -> Result<(PartialStream, bool), ApiError> {
        let State::Open {
            mut response,
            is_json,
        } = self.state
        else {
            return Ok((PartialStream::default(), true));
        };
        let status = response.status();
        let mut received = PartialStream {
            billing: self.billing,
            ..PartialStream::default()
        };
        let mut decoder = StreamDecoder::new();
        let idle = self.idle_timeout;
        let mut deliver =
            |events: Vec<StreamEvent>, received: &mut PartialStream| -> Option<String> {
                for event in events {
                    received.apply(&event);
                    let failure = match &event {
                        StreamEvent::Error { message } => Some(message.clone()),
                        _ => None,
                    };
                    on_event(event);
                    if failure.is_some() {
                        return failure;
                    }
                }
                None
            };
        loop {
            let chunk = tokio::select! {
                c = tokio::time::timeout(idle, response.chunk()) => c,
                _ = cancel.cancelled() => {
                    tracing::debug!(events = received.event_count, "stream cancelled");
                    return Ok((received, true));
                }
            };
            match chunk {
                Ok(Ok(Some(bytes))) => {
                    hasher.update(&bytes);
                    raw.extend_from_slice(&bytes);
                    if is_json {
                        continue;
                    }
                    if let Some(message) = deliver(decoder.push(&bytes), &mut received) {
                        return Err(ApiError::StreamFailed {
                            message,
                            received: Box::new(received),
                        });
                    }
                }
                Ok(Ok(None)) => break,
                Ok(Err(e)) => {
                    let _ = deliver(decoder.finish().unwrap_or_default(), &mut received);
                    return Err(ApiError::StreamCut {
                        detail: transport_error(e).to_string(),
                        received: Box::new(received),
                    });
                }
                Err(_) => {
                    return Err(ApiError::StreamCut {
                        detail: format!("no data for {} seconds", idle.as_secs()),
                        received: Box::new(received),
                    })
                }
            }
        }
        if is_json {
            // The service ignored `streaming` and answered the whole object at once.
            // Its billing is in the headers, already with the stream (and on the ledger).
            received.result = serde_json::from_slice(raw).map_err(|e| ApiError::Malformed {
                status: status.as_u16(),
                detail: e.to_string(),
                answer: None,
            })?;
            return Ok((received, false));
        }
        match decoder.finish() {
            Ok(events) => {
                if let Some(message) = deliver(events, &mut received) {
                    return Err(ApiError::StreamFailed {
                        message,
                        received: Box::new(received),
                    });
                }
            }
            Err(truncated) => {
                return Err(ApiError::StreamCut {
                    detail: truncated.to_string(),
                    received: Box::new(received),
                })
            }
        }
        // A summary stream always ends with `completion` ("" if summarising failed); a
        // clean end without it means the service stopped early.
        if self.result_type == ResultType::LinksWithFinalSummary && !received.has_completion() {
            return Err(ApiError::StreamCut {
                detail: "the stream ended before the summary arrived".into(),
                received: Box::new(received),
            });
        }
        tracing::debug!(events = received.event_count, "stream complete");
        Ok((received, false))
    }
}

/// Streaming AI search.
impl Client {
    /// Sends the AI search with `streaming: true` and waits for the response headers only.
    /// Never retried (it is billed).
    ///
    /// - headers arrived → `Ok`, with the billing they announce in [`AiSearchStream::billing`];
    /// - `cancel` fired before the headers → `Ok` with a stream whose
    ///   [`cancelled_before_headers`](AiSearchStream::cancelled_before_headers) is true and
    ///   whose `read` returns `cancelled: true` with nothing received;
    /// - an invalid request, no headers within the request timeout, or an error status →
    ///   `Err`, classified as for any call.
    pub async fn open_ai_search_stream(
        &self,
        request: &AiSearchRequest,
        key: &ApiKey,
        cancel: &CancelToken,
    ) -> Result<AiSearchStream, ApiError> {
        let request = AiSearchRequest {
            streaming: true,
            ..request.clone()
        };
        request
            .validate()
            .map_err(|fields| ApiError::Validation { fields })?;
        let url = self.url_for(&request)?;
        let Encoded::Json(body) = request.encode() else {
            unreachable!("the AI search is a POST with a JSON body")
        };
        let idle_timeout = self.config.stream_idle_timeout;
        // No whole-request timeout: a long answer may stream for minutes. The headers must
        // come within the request timeout, then each read within the idle timeout.
        let send = self
            .request(Operation::AiSearch, url.clone(), Some(&body), None, key)?
            .send();
        let response = tokio::select! {
            r = tokio::time::timeout(self.config.request_timeout, send) => match r {
                Ok(sent) => sent.map_err(transport_error)?,
                Err(_) => return Err(ApiError::Timeout),
            },
            _ = cancel.cancelled() => {
                return Ok(AiSearchStream::cancelled_early(&request, idle_timeout))
            }
        };
        let status = response.status();
        if !status.is_success() {
            let headers = response.headers().clone();
            let text = response.text().await.unwrap_or_default();
            if status.is_redirection() {
                return Err(ApiError::Moved {
                    location: redirect_target(&url, &headers, &text).map(|u| u.to_string()),
                });
            }
            return Err(classify(
                status.as_u16(),
                &headers,
                &text,
                Some(key.expose()),
            ));
        }
        // A stream carries its billing in the headers only.
        let billed = billing::read(response.headers(), None);
        let is_json = response
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|ct| ct.starts_with("application/json"));
        Ok(AiSearchStream {
            status: status.as_u16(),
            headers: capture::received(response.headers(), key.expose()),
            url: response.url().to_string(),
            state: State::Open { response, is_json },
            billing: billed.billing,
            billing_issue: billed.issue,
            result_type: request.result_type,
            idle_timeout,
        })
    }

    /// Sends the AI search with `streaming: true` and hands each decoded event to
    /// `on_event` as it arrives: [`open_ai_search_stream`](Client::open_ai_search_stream)
    /// then [`AiSearchStream::read`]. Never retried (it is billed).
    ///
    /// - complete stream → `Ok` with everything received and the billing headers;
    /// - `cancel` fired → `Ok` with `cancelled: true` and what arrived before (nothing, when
    ///   it fired before the headers);
    /// - connection cut, silence longer than the idle timeout or an event cut short →
    ///   `Err(StreamCut)`; an `{"error": …}` event → `Err(StreamFailed)`; both keep what
    ///   arrived. Errors before the stream starts are classified as for any call.
    pub async fn ai_search_stream(
        &self,
        request: &AiSearchRequest,
        key: &ApiKey,
        on_event: impl FnMut(StreamEvent),
        cancel: &CancelToken,
    ) -> Result<StreamOutcome, ApiError> {
        self.open_ai_search_stream(request, key, cancel)
            .await?
            .read(on_event, cancel)
            .await
    }
}

fn lossy(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}
