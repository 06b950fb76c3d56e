//! The live AI search: each decoded event is relayed as it arrives, a cancel stops it, and
//! whatever arrived before a cancel or a cut is kept in history and the archive.

use std::time::Instant;

use serde::Serialize;
use sightline_api::model::AiSearchResult;
use sightline_api::request::AiSearchRequest;
use sightline_api::{ApiError, ApiRequest, CancelToken, PartialStream, StreamEvent};
use sightline_store::{Billing, RequestRecord, RequestStatus};
use ts_rs::TS;

use crate::errors::CommandError;
use crate::estimate::ExpectedUnits;
use crate::findings::Findable;
use crate::requests::{self, Outcome, SendOptions};
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
    Started { history_id: i64 },
    /// One event of the answer, as the service sent it.
    Event { event: StreamEvent },
}

/// Removes a stream's cancel token however the stream ends.
struct Registration<'a> {
    state: &'a AppState,
    request_id: String,
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

fn record_partial(
    mut record: RequestRecord,
    received: &PartialStream,
    status: RequestStatus,
) -> RequestRecord {
    record.status = status;
    record.billing = received.billing.as_ref().map(requests::store_billing);
    record.result_json = serde_json::to_string(&received.result).ok();
    requests::with_findings(record, received.result.findings())
}

pub async fn ai_search(
    state: &AppState,
    session: &Session,
    request: AiSearchRequest,
    send: SendOptions,
    emit: impl Fn(StreamMessage) + Send + Sync,
) -> Result<Outcome<AiSearchResult>, CommandError> {
    let request = AiSearchRequest {
        streaming: true,
        ..request
    };
    request.validate().map_err(CommandError::invalid)?;
    let store = &session.store;
    let operation = AiSearchRequest::OPERATION;
    requests::guard_budget(
        store,
        operation,
        request.expected_units(),
        send.confirm_budget,
    )
    .await?;
    let key = state.key_for_request(session).await?;

    let pending = requests::pending(
        &request,
        operation.as_str(),
        &send.request_id,
        key.label.clone(),
        session.mode.as_str(),
    );
    let history_id = match requests::claim(store, &pending).await? {
        Ok(history_id) => history_id,
        Err(history_id) => {
            return requests::replay(store, history_id, |text| serde_json::from_str(text).ok())
                .await;
        }
    };
    emit(StreamMessage::Started { history_id });

    let cancel = CancelToken::new();
    state
        .streams
        .lock()
        .expect("streams lock poisoned")
        .insert(send.request_id.clone(), cancel.clone());
    let _registration = Registration {
        state,
        request_id: send.request_id.clone(),
    };

    let clock = Instant::now();
    let answer = session
        .client
        .ai_search_stream(
            &request,
            &key.key,
            |event| emit(StreamMessage::Event { event }),
            &cancel,
        )
        .await;
    let record = requests::finished(&pending, clock.elapsed());

    match answer {
        Ok(outcome) => {
            let status = if outcome.cancelled {
                RequestStatus::Cancelled
            } else {
                RequestStatus::Ok
            };
            let record = record_partial(record, &outcome.received, status);
            let billing: Option<Billing> = record.billing.clone();
            let recorded = store.record_request(&record).await?;
            Ok(Outcome {
                history_id,
                body: outcome.received.result,
                billing,
                from_cache: false,
                replayed: false,
                has_more: false,
                not_saved: requests::not_saved(recorded),
            })
        }
        Err(error @ (ApiError::StreamCut { .. } | ApiError::StreamFailed { .. })) => {
            let received = match &error {
                ApiError::StreamCut { received, .. } | ApiError::StreamFailed { received, .. } => {
                    received.clone()
                }
                _ => unreachable!(),
            };
            let error = CommandError::from(error);
            let record = requests::with_error(
                record_partial(record, &received, RequestStatus::Interrupted),
                &error,
            );
            // with_error marks it an error; a cut stream is "interrupted", keeping what arrived.
            let record = RequestRecord {
                status: RequestStatus::Interrupted,
                ..record
            };
            store.record_request(&record).await?;
            Err(error)
        }
        Err(error) => {
            let error = CommandError::from(error);
            store
                .record_request(&requests::with_error(record, &error))
                .await?;
            Err(error)
        }
    }
}
