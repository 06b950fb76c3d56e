//! One request, start to finish: validate → estimate and budget → key → send → history, ledger
//! and archive in one transaction → typed result. Every operation goes through `execute`;
//! streams go through `streaming`, which shares the recording helpers below.

use std::time::Instant;

use chrono::Utc;
use serde::{de::DeserializeOwned, Serialize};
use sightline_api::{ApiError, ApiRequest, Billing as ApiBilling, Response};
use sightline_store::{
    Billing, PendingRequest, RecordOutcome, RequestRecord, RequestStatus, Store, Verdict,
};
use ts_rs::TS;

use crate::errors::CommandError;
use crate::estimate::{cost_check, ExpectedUnits};
use crate::findings::{Findable, Findings};
use crate::session::Session;
use crate::state::{AppState, KeyForRequest};

/// A typed result, with where it was recorded and what it cost.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct Outcome<T> {
    pub history_id: i64,
    pub body: T,
    /// Exactly what the service charged; `None` for free answers (304) and replays.
    pub billing: Option<Billing>,
    /// The service answered 304 and the stored copy was used (free).
    pub from_cache: bool,
    /// This request id had been sent before: the stored result is returned, nothing was sent.
    pub replayed: bool,
    /// Another page follows (retweeters, timelines): `next_page` fetches it.
    pub has_more: bool,
    /// Set when the answer is shown but the disk was too full to keep it: its cost is
    /// recorded, its results are not in History or the Archive.
    pub not_saved: Option<String>,
}

/// What to tell the user when a record was written without its result (a full disk).
pub fn not_saved(recorded: RecordOutcome) -> Option<String> {
    matches!(recorded, RecordOutcome::RecordedWithoutResult { .. }).then(|| {
        "Shown here but not saved: the disk is full. Its cost is recorded; free some space so \
         that results are kept for History and the Archive."
            .to_owned()
    })
}

/// Continuation of a paged history entry.
#[derive(Debug, Clone, Default)]
pub struct Paging {
    pub cursor: Option<String>,
    pub parent_id: Option<i64>,
}

/// Options every send shares.
#[derive(Debug, Clone)]
pub struct SendOptions {
    pub request_id: String,
    /// The user saw the budget warning and chose to go on.
    pub confirm_budget: bool,
    pub paging: Paging,
}

pub fn store_billing(billing: &ApiBilling) -> Billing {
    Billing {
        cost: billing.cost_usd,
        usage_count: i64::try_from(billing.usage_count).unwrap_or(i64::MAX),
        service: billing.service.clone(),
        currency: billing.currency.clone(),
    }
}

/// Stops a request the budget blocks, or one past a warning the user has not confirmed.
pub async fn guard_budget(
    store: &Store,
    operation: sightline_api::Operation,
    units: Option<i64>,
    confirmed: bool,
) -> Result<(), CommandError> {
    let check = cost_check(store, operation, units).await?.budget;
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

/// Registers the request before sending: `Ok(new history id)`, or `Err(earlier history id)`
/// when this request id was used already.
pub async fn claim(
    store: &Store,
    pending: &PendingRequest,
) -> Result<Result<i64, i64>, CommandError> {
    Ok(match store.begin_request(pending).await? {
        // A pending row holds no results, so none can be left out of it.
        RecordOutcome::Recorded { history_id }
        | RecordOutcome::RecordedWithoutResult { history_id } => Ok(history_id),
        RecordOutcome::AlreadyRecorded { history_id } => Err(history_id),
    })
}

/// The row of a finished request, without results (filled in by the caller when it has some).
pub fn finished(pending: &PendingRequest, elapsed: std::time::Duration) -> RequestRecord {
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
    }
}

/// What history records about a request before it is sent.
pub fn pending<R: Serialize>(
    request: &R,
    operation: &str,
    request_id: &str,
    key_label: Option<String>,
    mode: &str,
) -> PendingRequest {
    PendingRequest {
        request_id: request_id.to_owned(),
        started_at: Utc::now(),
        operation: operation.to_owned(),
        params_json: serde_json::to_string(request).unwrap_or_default(),
        key_label,
        mode: mode.to_owned(),
    }
}

pub fn with_findings(mut record: RequestRecord, findings: Findings) -> RequestRecord {
    record.result_count = findings.result_count;
    record.next_cursor = findings.next_cursor;
    record.posts = findings.posts;
    record.users = findings.users;
    record.links = findings.links;
    record
}

pub fn with_error(mut record: RequestRecord, error: &CommandError) -> RequestRecord {
    record.status = RequestStatus::Error;
    record.error_class = Some(error.class());
    record.error_message = Some(error.message().to_owned());
    record
}

/// A stored result, decoded as the operation's type: what a replayed request id returns.
pub async fn replay<T: DeserializeOwned>(
    store: &Store,
    history_id: i64,
    decode: impl Fn(&str) -> Option<T>,
) -> Result<Outcome<T>, CommandError> {
    let stored = store.result(history_id).await?;
    let Some(stored) = stored else {
        return Err(CommandError::Invalid {
            message: "This request was already sent and has no stored result (it failed or is still running). \
                      Check History."
                .into(),
            fields: Vec::new(),
        });
    };
    let body = decode(&stored.body)
        .ok_or_else(|| CommandError::storage("The stored result could not be read back."))?;
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

/// Sends one request through the full flow. `key` overrides the session's key (key checks).
pub async fn execute<R>(
    state: &AppState,
    session: &Session,
    request: R,
    send: SendOptions,
    key: Option<KeyForRequest>,
) -> Result<Outcome<R::Output>, CommandError>
where
    R: ApiRequest + ExpectedUnits + Serialize,
    R::Output: Findable + Serialize,
{
    request.validate().map_err(CommandError::invalid)?;
    let operation = R::OPERATION;
    let store = &session.store;
    guard_budget(
        store,
        operation,
        request.expected_units(),
        send.confirm_budget,
    )
    .await?;
    let KeyForRequest { key, label } = match key {
        Some(key) => key,
        None => state.key_for_request(session).await?,
    };

    let pending = pending(
        &request,
        operation.as_str(),
        &send.request_id,
        label,
        session.mode.as_str(),
    );
    if let Err(history_id) = claim(store, &pending).await? {
        return replay(store, history_id, |text| R::decode(text).ok()).await;
    }

    let clock = Instant::now();
    let answer: Result<Response<R::Output>, ApiError> = session.client.send(&request, &key).await;
    let mut record = finished(&pending, clock.elapsed());
    record.cursor = send.paging.cursor.clone();
    record.parent_id = send.paging.parent_id;

    match answer {
        Ok(response) => {
            let record = RequestRecord {
                status: if response.from_cache {
                    RequestStatus::NotModified
                } else {
                    RequestStatus::Ok
                },
                billing: response.billing.as_ref().map(store_billing),
                result_json: Some(response.raw.clone()),
                ..with_findings(record, response.body.findings())
            };
            let has_more = record.next_cursor.is_some();
            let billing = record.billing.clone();
            let recorded = store.record_request(&record).await?;
            Ok(Outcome {
                history_id: recorded.history_id(),
                body: response.body,
                billing,
                from_cache: response.from_cache,
                replayed: false,
                has_more,
                not_saved: not_saved(recorded),
            })
        }
        Err(error) => {
            let error = CommandError::from(error);
            // The failure is history too: the user can see what went wrong, and when.
            store.record_request(&with_error(record, &error)).await?;
            Err(error)
        }
    }
}
