//! The live AI search, as the pipeline's send step: each decoded event is relayed as it
//! arrives, the cost the headers announce goes on the ledger before the first event is read,
//! a cancel stops it, and whatever arrived before a cancel or a cut is kept in history and the
//! archive.

use serde::Serialize;
use sightline_api::model::AiSearchResult;
use sightline_api::request::AiSearchRequest;
use sightline_api::{ApiError, CancelToken, Capture, PartialStream, StreamEvent};
use sightline_store::RequestStatus;
use ts_rs::TS;

use crate::errors::CommandError;
use crate::pipeline::{self, Answer, Outcome, SendOptions, Sent};
use crate::provenance;
use crate::session::Session;
use crate::state::AppState;

/// What the UI receives on the stream's channel, in order: `started`, any number of `event`s,
/// then the command's own reply (the assembled result) or its error.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
#[ts(export)]
pub enum StreamMessage {
    /// The request was accepted and recorded; the answer is on its way.
    Started {
        /// The History row the answer is recorded in.
        history_id: i64,
    },
    /// One event of the answer, as the service sent it.
    Event {
        /// The event, typed.
        event: StreamEvent,
    },
}

/// Removes a stream's cancel token however the stream ends.
struct Registration<'a> {
    state: &'a AppState,
    request_id: String,
}

impl<'a> Registration<'a> {
    fn new(state: &'a AppState, request_id: &str) -> (Self, CancelToken) {
        let cancel = CancelToken::new();
        state
            .streams
            .lock()
            .expect("streams lock poisoned")
            .insert(request_id.to_owned(), cancel.clone());
        let registration = Self {
            state,
            request_id: request_id.to_owned(),
        };
        (registration, cancel)
    }
}

impl Drop for Registration<'_> {
    fn drop(&mut self) {
        self.state
            .streams
            .lock()
            .expect("streams lock poisoned")
            .remove(&self.request_id);
    }
}

/// Stops the stream with this client request id; false when none is running.
pub fn cancel(state: &AppState, request_id: &str) -> bool {
    match state
        .streams
        .lock()
        .expect("streams lock poisoned")
        .get(request_id)
    {
        Some(token) => {
            token.cancel();
            true
        }
        None => false,
    }
}

/// What arrived, as an answer to record: the assembled result is what re-opens offline, and
/// the stream's own bytes (hashed as they came) are its provenance.
fn answer_of(
    session: &Session,
    received: PartialStream,
    status: RequestStatus,
    capture: Option<Capture>,
) -> Answer<AiSearchResult> {
    Answer {
        status,
        billing: received.billing.as_ref().map(pipeline::store_billing),
        raw: serde_json::to_string(&received.result).ok(),
        from_cache: false,
        provenance: capture.map(|capture| provenance::received(session, capture)),
        body: received.result,
    }
}

/// Sends an AI search through the pipeline and streams its answer to `emit` as it arrives;
/// the cost is on the ledger once the headers arrive, and a cancel or a cut keeps what came.
pub async fn ai_search(
    state: &AppState,
    session: &Session,
    request: AiSearchRequest,
    options: SendOptions,
    emit: impl Fn(StreamMessage) + Send + Sync,
) -> Result<Outcome<AiSearchResult>, CommandError> {
    let request = AiSearchRequest {
        streaming: true,
        ..request
    };
    let request = &request;
    let request_id = options.request_id.clone();
    pipeline::run(
        state,
        session,
        request,
        options,
        None,
        |claimed| async move {
            emit(StreamMessage::Started {
                history_id: claimed.history_id,
            });
            let (_registration, cancel) = Registration::new(state, &request_id);
            let stream = match session
                .client
                .open_ai_search_stream(request, &claimed.key, &cancel)
                .await
            {
                Ok(stream) => stream,
                Err(error) => return error.into(),
            };
            if let Some(billing) = stream.billing() {
                // Billed as the headers arrive: on the ledger now, so a crash mid-answer keeps it.
                // Should that write fail, the answer is still read: the final record carries the
                // same cost and tries again.
                if let Err(error) = claimed
                    .record_billing(&pipeline::store_billing(billing))
                    .await
                {
                    tracing::warn!(%error, "a stream's cost could not be recorded early");
                }
            }
            let read = stream
                .read_captured(|event| emit(StreamMessage::Event { event }), &cancel)
                .await;
            let capture = read.capture;
            match read.result {
                Ok(outcome) => Sent::Answered(answer_of(
                    session,
                    outcome.received,
                    if outcome.cancelled {
                        RequestStatus::Cancelled
                    } else {
                        RequestStatus::Ok
                    },
                    capture,
                )),
                Err(error) => {
                    // A cut or failed stream keeps what arrived before it stopped.
                    let partial = match &error {
                        ApiError::StreamCut { received, .. }
                        | ApiError::StreamFailed { received, .. } => Some(answer_of(
                            session,
                            (**received).clone(),
                            RequestStatus::Interrupted,
                            capture,
                        )),
                        _ => None,
                    };
                    Sent::Failed {
                        error: error.into(),
                        partial,
                    }
                }
            }
        },
    )
    .await
}
