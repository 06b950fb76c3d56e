//! The one request pipeline. Every request the app sends, plain or streamed, goes through
//! [`run`]: validate → estimate and budget → key → claim the request id (a repeat is never
//! sent twice) → send → record history, ledger and archive in one transaction → typed result.
//! Only the send step differs, and it is plugged in: [`execute`] sends a plain request,
//! `streaming` reads a live answer (and puts its cost on the ledger as soon as the headers
//! arrive, through [`Claimed::record_billing`]), `paging` continues a list from its cursor.

use std::future::Future;
use std::time::Instant;

use chrono::Utc;
use serde::{Deserialize, Serialize};
use sightline_api::{ApiError, ApiKey, ApiRequest, ExpectedUnits, UnreadAnswer};
use sightline_store::money;
use sightline_store::{
    Billing, Filing, NewProvenance, PendingRequest, RecordOutcome, RequestRecord, RequestStatus,
    Store, Verdict,
};
use ts_rs::TS;

use crate::errors::CommandError;
use crate::estimate::cost_check;
use crate::findings::{Findable, Findings};
use crate::keys::{self, KeyForRequest};
use crate::media;
use crate::provenance;
use crate::session::Session;
use crate::state::AppState;

/// A typed result, with where it was recorded and what it cost.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct Outcome<T> {
    /// The History row the request is recorded in.
    pub history_id: i64,
    /// The service's answer, typed.
    pub body: T,
    /// Exactly what the service charged; `None` for free answers (304) and replays.
    pub billing: Option<Billing>,
    /// The service answered 304 and the stored copy was used (free).
    pub from_cache: bool,
    /// This request id had been sent before: the stored result is returned, nothing was sent.
    pub replayed: bool,
    /// Another page follows (reposters, timelines): `next_page` fetches it.
    pub has_more: bool,
    /// Set when the answer is shown but the disk was too full to keep it: its cost is
    /// recorded, its results are not in History or the Archive.
    pub not_saved: Option<String>,
}

/// What to tell the user when a record was written without its result (a full disk).
fn not_saved(recorded: RecordOutcome) -> Option<String> {
    matches!(recorded, RecordOutcome::RecordedWithoutResult { .. }).then(|| {
        "Shown here but not saved: the disk is full. Its cost is recorded; free some space so \
         that results are kept for History and the Archive."
            .to_owned()
    })
}

/// Continuation of a paged history entry.
#[derive(Debug, Clone, Default)]
pub struct Paging {
    /// The cursor the previous page ended with: where this page starts.
    pub cursor: Option<String>,
    /// The History row of the previous page, so the chain of pages is kept.
    pub parent_id: Option<i64>,
}

/// Options every send shares.
#[derive(Debug, Clone)]
pub struct SendOptions {
    /// The client's id for this request: a repeat of it is a replay, never a second send.
    pub request_id: String,
    /// The user saw the budget warning and chose to go on.
    pub confirm_budget: bool,
    /// Set for a next page; the default for a first request.
    pub paging: Paging,
}

/// How every send from the UI names itself: a client request id (a repeat is never sent
/// twice) and whether the user confirmed a budget warning.
#[derive(Debug, Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct SendParams {
    /// The client's id for this request: a repeat of it is a replay, never a second send.
    pub request_id: String,
    #[serde(default)]
    /// The user saw the budget warning and chose to go on.
    pub confirm_budget: bool,
}

impl From<SendParams> for SendOptions {
    fn from(params: SendParams) -> Self {
        Self {
            request_id: params.request_id,
            confirm_budget: params.confirm_budget,
            paging: Paging::default(),
        }
    }
}

/// The store's record of what the service charged, as its response said: the cost rounded
/// half-even to the nano-dollar, as the ledger counts it (`None` when it was not a number), and
/// its text exactly as sent.
pub fn store_billing(billing: &sightline_api::Charge) -> Billing {
    Billing {
        cost: billing.cost_usd.and_then(money::rounded_charge),
        cost_text: Some(billing.cost_text.clone()),
        usage_count: i64::try_from(billing.usage_count).unwrap_or(i64::MAX),
        service: billing.service.clone(),
        currency: billing.currency.clone(),
    }
}

/// What an answer is known to have cost (nothing for a free one, or one whose cost could not be
/// read: that one is on the ledger, counted as unknown in Spend).
pub fn known_cost(billing: Option<&Billing>) -> rust_decimal::Decimal {
    billing.and_then(|b| b.cost).unwrap_or_default()
}

/// What a send step received, to be recorded and returned.
pub struct Answer<T> {
    /// The answer, typed.
    pub body: T,
    /// `Ok`, `NotModified` (a free 304), `Cancelled` (stopped by the user, what arrived kept).
    pub status: RequestStatus,
    /// What the service charged, as its headers said (`None`: free, or not said).
    pub billing: Option<Billing>,
    /// The body as received (or the assembled stream), kept for re-opening offline.
    pub raw: Option<String>,
    /// A 304: the stored copy was used, free.
    pub from_cache: bool,
    /// The response as received, recorded as its provenance (None when nothing arrived).
    pub provenance: Option<NewProvenance>,
}

/// How a send step ended.
pub enum Sent<T> {
    /// An answer arrived and was read (whole, or as far as a cancel let it).
    Answered(Answer<T>),
    /// The service, the network or the stream failed. `partial` is what arrived before a cut;
    /// it is kept, and the request recorded as interrupted rather than failed.
    Failed {
        /// What failed, for the user.
        error: CommandError,
        /// What arrived before the cut, if anything.
        partial: Option<Answer<T>>,
    },
    /// An answer arrived whole but could not be read: recorded as failed, with its charge and
    /// its bytes ([`failure`]).
    Unread(Failure),
}

/// A failed send, as it is recorded: the error, and for an answer that arrived but could not
/// be read, what its headers said it cost and its bytes as received.
pub struct Failure {
    /// What failed, for the user.
    pub error: CommandError,
    /// What the answer's headers said it cost (`None`: nothing arrived, or it was free).
    pub billing: Option<Billing>,
    /// The answer's bytes and headers as received, if one arrived.
    pub provenance: Option<NewProvenance>,
}

impl Failure {
    /// `record` (a request's row, unanswered) as this failure ends it.
    pub(crate) fn record(&self, record: RequestRecord) -> RequestRecord {
        RequestRecord {
            billing: self.billing.clone(),
            provenance: self.provenance.clone(),
            ..with_error(record, &self.error)
        }
    }
}

/// What `error` leaves to record. A billed answer that could not be decoded was paid for all
/// the same: its charge and bytes travel with the error, and History says what could not be
/// read (the decoder's words) and that the cost is recorded.
pub fn failure(session: &Session, error: ApiError) -> Failure {
    let ApiError::Malformed {
        status,
        detail,
        answer: Some(answer),
    } = error
    else {
        return Failure {
            error: error.into(),
            billing: None,
            provenance: None,
        };
    };
    let UnreadAnswer {
        billing, capture, ..
    } = *answer;
    let kept = match billing {
        Some(_) => "It was billed: its cost is recorded, and the answer is kept as it came",
        None => "The answer is kept as it came",
    };
    let message = format!(
        "The service's answer could not be read ({detail}). {kept} (see its capture record)."
    );
    let payload = ApiError::Malformed {
        status,
        detail,
        answer: None,
    }
    .payload();
    Failure {
        error: CommandError::Service {
            message,
            error: Box::new(payload),
        },
        billing: billing.as_ref().map(store_billing),
        provenance: Some(provenance::received(session, capture)),
    }
}

impl<T> From<sightline_api::ApiError> for Sent<T> {
    fn from(error: sightline_api::ApiError) -> Self {
        Sent::Failed {
            error: error.into(),
            partial: None,
        }
    }
}

/// What a send step is handed once the request id is claimed: the key to send with, and the
/// history row the request will be recorded in.
pub struct Claimed {
    /// The key to send with (the active key, or the demo key).
    pub key: ApiKey,
    /// The History row the request will be recorded in.
    pub history_id: i64,
    request_id: String,
    store: Store,
}

impl Claimed {
    /// Puts the cost the service announced on the ledger now, before the answer is over (a
    /// stream bills in its headers): if the app stops mid-answer, Spend still holds the money.
    /// Recording the answer later does not add it a second time.
    pub async fn record_billing(&self, billing: &Billing) -> Result<(), CommandError> {
        self.store.record_billing(&self.request_id, billing).await?;
        Ok(())
    }
}

/// Sends `request` through every step of the pipeline, with `send` as the send step.
/// `key` overrides the session's key (checking a key before it is stored).
pub async fn run<R, Step, Fut>(
    state: &AppState,
    session: &Session,
    request: &R,
    options: SendOptions,
    key: Option<KeyForRequest>,
    send: Step,
) -> Result<Outcome<R::Output>, CommandError>
where
    R: ApiRequest + ExpectedUnits + Serialize,
    R::Output: Findable,
    Step: FnOnce(Claimed) -> Fut,
    Fut: Future<Output = Sent<R::Output>>,
{
    run_filed(state, session, request, options, key, Filing::Active, send).await
}

/// [`run`], the request filed as `filing` says (a still-there check's re-fetch is filed
/// under its investigation only, without the posts it fetches).
pub async fn run_filed<R, Step, Fut>(
    state: &AppState,
    session: &Session,
    request: &R,
    options: SendOptions,
    key: Option<KeyForRequest>,
    filing: Filing,
    send: Step,
) -> Result<Outcome<R::Output>, CommandError>
where
    R: ApiRequest + ExpectedUnits + Serialize,
    R::Output: Findable,
    Step: FnOnce(Claimed) -> Fut,
    Fut: Future<Output = Sent<R::Output>>,
{
    request.validate().map_err(CommandError::invalid)?;
    let store = &session.store;
    guard_budget(
        store,
        R::OPERATION,
        request.expected_units(),
        options.confirm_budget,
    )
    .await?;
    let KeyForRequest { key, label } = match key {
        Some(key) => key,
        None => keys::for_request(state, session).await?,
    };

    let pending = PendingRequest {
        request_id: options.request_id.clone(),
        started_at: Utc::now(),
        operation: R::OPERATION.as_str().to_owned(),
        params_json: serde_json::to_string(request).unwrap_or_default(),
        key_label: label,
        mode: session.mode.as_str().to_owned(),
    };
    let history_id = match store.begin_filed_request(&pending, filing).await? {
        // A pending row holds no results, so none can be left out of it.
        RecordOutcome::Recorded { history_id }
        | RecordOutcome::RecordedWithoutResult { history_id } => history_id,
        RecordOutcome::AlreadyRecorded { history_id } => {
            return replay::<R>(store, history_id).await;
        }
    };

    let clock = Instant::now();
    let claimed = Claimed {
        key,
        history_id,
        request_id: options.request_id.clone(),
        store: store.clone(),
    };
    let sent = send(claimed).await;
    let mut record = finished(&pending, clock.elapsed());
    record.cursor = options.paging.cursor;
    record.parent_id = options.paging.parent_id;

    match sent {
        Sent::Answered(answer) => {
            let from_cache = answer.from_cache;
            let (record, body) = with_answer(record, answer);
            let has_more = record.next_cursor.is_some();
            // The media of what it found, when they are to be kept, queued in the record's
            // own transaction (cheap; never the network).
            let media =
                media::queue::to_queue(state, store, history_id, &record.posts, filing).await;
            let recorded = store.record_request_with_media(&record, &media).await?;
            media::queue::queued_with_record(&media);
            Ok(Outcome {
                history_id: recorded.history_id(),
                billing: record.billing,
                body,
                from_cache,
                replayed: false,
                has_more,
                not_saved: not_saved(recorded),
            })
        }
        Sent::Failed { error, partial } => {
            log_failure(&pending.operation, history_id, &error);
            let record = match partial {
                Some(answer) => RequestRecord {
                    status: RequestStatus::Interrupted,
                    ..with_error(with_answer(record, answer).0, &error)
                },
                None => with_error(record, &error),
            };
            // The failure is history too: the user can see what went wrong, and when.
            let media =
                media::queue::to_queue(state, store, history_id, &record.posts, filing).await;
            store.record_request_with_media(&record, &media).await?;
            media::queue::queued_with_record(&media);
            Err(error)
        }
        Sent::Unread(failure) => {
            log_failure(&pending.operation, history_id, &failure.error);
            store.record_request(&failure.record(record)).await?;
            Err(failure.error)
        }
    }
}

/// Sends one plain request (every operation but the streamed answer) through the pipeline.
pub async fn execute<R>(
    state: &AppState,
    session: &Session,
    request: R,
    options: SendOptions,
    key: Option<KeyForRequest>,
) -> Result<Outcome<R::Output>, CommandError>
where
    R: ApiRequest + ExpectedUnits + Serialize,
    R::Output: Findable,
{
    execute_filed(state, session, request, options, key, Filing::Active).await
}

/// [`execute`], the request filed as `filing` says.
pub async fn execute_filed<R>(
    state: &AppState,
    session: &Session,
    request: R,
    options: SendOptions,
    key: Option<KeyForRequest>,
    filing: Filing,
) -> Result<Outcome<R::Output>, CommandError>
where
    R: ApiRequest + ExpectedUnits + Serialize,
    R::Output: Findable,
{
    let request = &request;
    run_filed(
        state,
        session,
        request,
        options,
        key,
        filing,
        |claimed| async move {
            match session.client.send(request, &claimed.key).await {
                Ok(response) => Sent::Answered(Answer {
                    status: if response.from_cache {
                        RequestStatus::NotModified
                    } else {
                        RequestStatus::Ok
                    },
                    billing: response.billing.as_ref().map(store_billing),
                    raw: Some(response.raw),
                    from_cache: response.from_cache,
                    provenance: Some(provenance::received(session, response.capture)),
                    body: response.body,
                }),
                Err(error) => match failure(session, error) {
                    unread @ Failure {
                        provenance: Some(_),
                        ..
                    } => Sent::Unread(unread),
                    failed => Sent::Failed {
                        error: failed.error,
                        partial: None,
                    },
                },
            }
        },
    )
    .await
}

/// Stops a request the budget blocks, or one past a warning the user has not confirmed.
pub(crate) async fn guard_budget(
    store: &Store,
    operation: sightline_api::Operation,
    units: Option<i64>,
    confirmed: bool,
) -> Result<(), CommandError> {
    let check = cost_check(store, operation, units).await?.budget;
    budget_verdict(check, confirmed)
}

/// The budget's verdict as the pipeline acts on it: a block stops, a warning stops until the
/// user confirms it.
pub(crate) fn budget_verdict(
    check: sightline_store::BudgetCheck,
    confirmed: bool,
) -> Result<(), CommandError> {
    match check.verdict {
        Verdict::Block => Err(CommandError::BudgetBlocked {
            message: "This request would go over your budget. Raise the limit in Spend, or wait for the next period."
                .into(),
            check: Box::new(check),
        }),
        Verdict::Warn if !confirmed => Err(CommandError::BudgetWarning {
            message: format!(
                "This request takes your spending past {}% of a budget. Send anyway?",
                check.warn_percent
            ),
            check: Box::new(check),
        }),
        _ => Ok(()),
    }
}

/// The row of a finished request, without results (filled in from the answer, if any).
fn finished(pending: &PendingRequest, elapsed: std::time::Duration) -> RequestRecord {
    RequestRecord {
        request_id: pending.request_id.clone(),
        started_at: pending.started_at,
        operation: pending.operation.clone(),
        params_json: pending.params_json.clone(),
        key_label: pending.key_label.clone(),
        mode: pending.mode.clone(),
        status: RequestStatus::Ok,
        error_class: None,
        error_message: None,
        duration_ms: i64::try_from(elapsed.as_millis()).unwrap_or(i64::MAX),
        result_count: 0,
        billing: None,
        cursor: None,
        next_cursor: None,
        parent_id: None,
        result_json: None,
        posts: Vec::new(),
        users: Vec::new(),
        links: Vec::new(),
        provenance: None,
    }
}

/// The record of an answer, and the answer's body to return (the raw text is moved, not
/// copied: it can be megabytes).
fn with_answer<T: Findable>(record: RequestRecord, answer: Answer<T>) -> (RequestRecord, T) {
    let Findings {
        posts,
        users,
        links,
        result_count,
        next_cursor,
    } = answer.body.findings();
    let record = RequestRecord {
        status: answer.status,
        billing: answer.billing,
        result_json: answer.raw,
        provenance: answer.provenance,
        result_count,
        next_cursor,
        posts,
        users,
        links,
        ..record
    };
    (record, answer.body)
}

/// The record of a request that failed before any answer (a forecast's refused POST).
pub(crate) fn failed_record(
    pending: &PendingRequest,
    elapsed: std::time::Duration,
    error: &CommandError,
) -> RequestRecord {
    with_error(finished(pending, elapsed), error)
}

/// A failed request in the log: its kind and status only, as a message may quote the
/// service's answer.
pub(crate) fn log_failure(operation: &str, history_id: i64, error: &CommandError) {
    tracing::warn!(
        operation,
        history = history_id,
        kind = %error.class(),
        status = error.status(),
        "a request failed"
    );
}

fn with_error(mut record: RequestRecord, error: &CommandError) -> RequestRecord {
    record.status = RequestStatus::Error;
    record.error_class = Some(error.class());
    record.error_message = Some(error.message().to_owned());
    record
}

/// A stored result, decoded as the operation's type: what a replayed request id returns.
async fn replay<R: ApiRequest>(
    store: &Store,
    history_id: i64,
) -> Result<Outcome<R::Output>, CommandError> {
    let stored = store.result(history_id).await?;
    let Some(stored) = stored else {
        return Err(CommandError::Invalid {
            message: "This request was already sent and has no stored result (it failed or is still running). \
                      Check History."
                .into(),
            fields: Vec::new(),
        });
    };
    let body = R::decode(&stored.body)
        .map_err(|_| CommandError::database("The stored result could not be read back."))?;
    Ok(Outcome {
        history_id,
        body,
        billing: None,
        from_cache: false,
        replayed: true,
        has_more: stored.entry.next_cursor.is_some(),
        not_saved: None,
    })
}
