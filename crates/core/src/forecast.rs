//! Forecasts: the one operation answered by a job. [`ask`] sends the billed POST through the
//! pipeline's first steps (validate, budget, key, claim the request id) and records the job's id
//! with its cost on the history row before anything polls. [`follow`] polls the job with a
//! growing pause ([`Backoff`]) until it ends, storing each answer on the row (the final one
//! finishes it, once) and reporting each step through a callback the window adapter forwards.
//! [`Following::stop`] stops following without losing the job: its row stays `running` and
//! [`resume_all`], run at start-up, follows every such job again.
//!
//! The forecast is a history row like any other request: History lists it, re-opens its last
//! answer offline; [`export`] writes forecasts with their own fields (CSV, JSON Lines, a
//! citation list); its id is all that filing it elsewhere will need.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::Utc;
use serde::Serialize;
use sightline_api::model::{ForecastJob, ForecastState};
use sightline_api::request::{ForecastRequest, ForecastStatusRequest};
use sightline_api::{ApiError, ApiKey, ApiRequest, CancelToken, Operation};
use sightline_store::{Billing, JobState, PendingRequest, RecordOutcome};
use ts_rs::TS;

use crate::errors::CommandError;
use crate::keys;
use crate::pipeline::{self, SendOptions};
use crate::provenance;
use crate::session::Session;
use crate::state::AppState;

pub mod export;

/// A forecast the service accepted: its history row and job id, and what asking cost.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct ForecastStarted {
    /// The History row of the POST that asked for it.
    pub history_id: i64,
    /// The service's job id, stored before any poll.
    pub prediction_id: String,
    /// Exactly what the service charged for the POST; `None` when it said nothing.
    pub billing: Option<Billing>,
}

/// One step of a followed job, as the window is told of it.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct ForecastUpdate {
    /// The History row of the forecast's POST: which forecast this is.
    pub history_id: i64,
    /// The service's job id.
    pub prediction_id: String,
    /// The job's state as last known (pending, running, completed, failed).
    pub status: ForecastState,
    /// The service's latest answer, when this step got one.
    pub job: Option<ForecastJob>,
    /// False once the app stopped following (the job ended, was stopped, or cannot be reached).
    pub following: bool,
    /// A plain-words problem with this step (a poll failed; the job may still be fine).
    pub problem: Option<String>,
}

/// Where each step of a followed job is reported.
pub type OnUpdate = Arc<dyn Fn(ForecastUpdate) + Send + Sync>;

/// How long to wait between polls: `first`, then half as long again each time, up to `max`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backoff {
    /// The wait before the first poll.
    pub first: Duration,
    /// The longest wait between two polls.
    pub max: Duration,
}

impl Default for Backoff {
    /// One second, growing to fifteen: a job takes seconds to minutes.
    fn default() -> Self {
        Backoff {
            first: Duration::from_secs(1),
            max: Duration::from_secs(15),
        }
    }
}

impl Backoff {
    /// The wait after `wait`: half as long again, at most `max`.
    pub fn after(&self, wait: Duration) -> Duration {
        (wait + wait / 2).min(self.max)
    }
}

/// The jobs being followed now, by history id, so that one can be stopped.
#[derive(Default)]
pub struct Following {
    /// Each follower's token, with a number that tells it from a later follower of the job.
    tokens: Mutex<HashMap<i64, (u64, CancelToken)>>,
    started: AtomicU64,
}

impl Following {
    /// Stops following the job of `history_id`; it stays recorded and can be resumed. False
    /// when it was not being followed.
    pub fn stop(&self, history_id: i64) -> bool {
        let follower = self.lock().remove(&history_id);
        follower.map(|(_, token)| token.cancel()).is_some()
    }

    /// The job of `history_id` is being followed now (its screen shows "Stop following").
    pub fn is_following(&self, history_id: i64) -> bool {
        self.lock().contains_key(&history_id)
    }

    /// Registers a follower; `None` when one already follows this job.
    fn claim(&self, history_id: i64) -> Option<(u64, CancelToken)> {
        let mut tokens = self.lock();
        if tokens.contains_key(&history_id) {
            return None;
        }
        let follower = (
            self.started.fetch_add(1, Ordering::Relaxed),
            CancelToken::new(),
        );
        tokens.insert(history_id, follower.clone());
        Some(follower)
    }

    fn release(&self, history_id: i64, number: u64) {
        let mut tokens = self.lock();
        // Only this follower's own entry: a stop and a resume may have replaced it.
        if tokens.get(&history_id).is_some_and(|(n, _)| *n == number) {
            tokens.remove(&history_id);
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<i64, (u64, CancelToken)>> {
        self.tokens.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Asks the service for a forecast. Nothing is sent when the input breaks a rule or the budget
/// blocks it; a request id used before returns that forecast, unsent.
pub async fn ask(
    state: &AppState,
    session: &Session,
    request: &ForecastRequest,
    options: SendOptions,
) -> Result<(ForecastStarted, ApiKey), CommandError> {
    request.validate().map_err(CommandError::invalid)?;
    let store = &session.store;
    pipeline::guard_budget(store, Operation::Forecast, Some(1), options.confirm_budget).await?;
    let keys::KeyForRequest { key, label } = keys::for_request(state, session).await?;
    let pending = PendingRequest {
        request_id: options.request_id.clone(),
        started_at: Utc::now(),
        operation: Operation::Forecast.as_str().to_owned(),
        params_json: serde_json::to_string(request).unwrap_or_default(),
        key_label: label,
        mode: session.mode.as_str().to_owned(),
    };
    let history_id = match store.begin_request(&pending).await? {
        RecordOutcome::AlreadyRecorded { history_id } => {
            return Ok((asked_before(session, history_id).await?, key));
        }
        outcome => outcome.history_id(),
    };
    let clock = std::time::Instant::now();
    match session.client.forecast(request, &key).await {
        Ok(response) => {
            let billing = response.billing.as_ref().map(pipeline::store_billing);
            let received = provenance::received(session, response.capture);
            store
                .accept_job(
                    &pending.request_id,
                    billing.as_ref(),
                    &response.raw,
                    Some(&received),
                )
                .await?;
            let started = ForecastStarted {
                history_id,
                prediction_id: response.body.prediction_id,
                billing,
            };
            Ok((started, key))
        }
        Err(error) => {
            // An acceptance that could not be read keeps its charge and bytes all the same.
            let failure = pipeline::failure(session, error);
            pipeline::log_failure(&pending.operation, history_id, &failure.error);
            let record = pipeline::failed_record(&pending, clock.elapsed(), &failure.error);
            store.record_request(&failure.record(record)).await?;
            Err(failure.error)
        }
    }
}

/// The forecast a reused request id already asked for.
async fn asked_before(session: &Session, history_id: i64) -> Result<ForecastStarted, CommandError> {
    let stored = session.store.result(history_id).await?;
    let Some(stored) = stored else {
        return Err(CommandError::Invalid {
            message:
                "This forecast was already asked and the service did not accept it. Check History."
                    .into(),
            fields: Vec::new(),
        });
    };
    Ok(ForecastStarted {
        history_id,
        prediction_id: prediction_id_of(&stored.body).unwrap_or_default(),
        billing: None,
    })
}

/// The job id in a stored answer (the 202's or a poll's: both carry it).
fn prediction_id_of(body: &str) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(body).ok()?;
    value.get("prediction_id")?.as_str().map(str::to_owned)
}

/// What the user is told when the service forgot a job (404).
const JOB_UNKNOWN: &str =
    "The service no longer knows this forecast (it answered \"not found\"), so \
                           its answer cannot be fetched. What it cost is recorded.";

/// Follows the job of `history_id` until it ends or is stopped, on a task of its own. `None`
/// when the job is already being followed.
pub fn follow(
    session: Arc<Session>,
    key: ApiKey,
    following: Arc<Following>,
    history_id: i64,
    prediction_id: String,
    backoff: Backoff,
    on_update: OnUpdate,
) -> Option<tokio::task::JoinHandle<()>> {
    let (number, token) = following.claim(history_id)?;
    Some(tokio::spawn(async move {
        let job = Job {
            session,
            key,
            history_id,
            request: ForecastStatusRequest { prediction_id },
            on_update,
        };
        job.run(&token, backoff).await;
        following.release(history_id, number);
    }))
}

/// Follows every job the current mode's history still holds as running (call at start-up).
/// Returns how many are followed now.
pub async fn resume_all(
    state: &AppState,
    following: Arc<Following>,
    backoff: Backoff,
    on_update: OnUpdate,
) -> Result<usize, CommandError> {
    let jobs = state
        .store()
        .await?
        .followed_jobs(Operation::Forecast.as_str())
        .await?;
    if jobs.is_empty() {
        // Nothing to follow: leave the network (and the demo service) alone.
        return Ok(0);
    }
    let session = state.session().await?;
    let key = keys::for_request(state, &session).await?.key;
    let mut resumed = 0;
    for job in jobs {
        let Some(prediction_id) = prediction_id_of(&job.body) else {
            continue;
        };
        let started = follow(
            session.clone(),
            key.clone(),
            following.clone(),
            job.history_id,
            prediction_id,
            backoff,
            on_update.clone(),
        );
        resumed += usize::from(started.is_some());
    }
    Ok(resumed)
}

/// Follows the job of one forecast again (after a stop, or a failed poll). True when the job
/// is followed now: again, or still (a job resumed at start-up is followed already, and asking
/// again must not say it stopped); false when it is over.
pub async fn resume(
    state: &AppState,
    following: Arc<Following>,
    history_id: i64,
    backoff: Backoff,
    on_update: OnUpdate,
) -> Result<bool, CommandError> {
    let session = state.session().await?;
    let jobs = session
        .store
        .followed_jobs(Operation::Forecast.as_str())
        .await?;
    let Some(prediction_id) = jobs
        .iter()
        .find(|job| job.history_id == history_id)
        .and_then(|job| prediction_id_of(&job.body))
    else {
        return Ok(false);
    };
    if following.is_following(history_id) {
        return Ok(true);
    }
    let key = keys::for_request(state, &session).await?.key;
    // Another follower may have claimed it meanwhile: followed either way.
    follow(
        session,
        key,
        following,
        history_id,
        prediction_id,
        backoff,
        on_update,
    );
    Ok(true)
}

/// One followed job.
struct Job {
    session: Arc<Session>,
    key: ApiKey,
    history_id: i64,
    request: ForecastStatusRequest,
    on_update: OnUpdate,
}

/// What one poll leaves to do.
enum Step {
    Again,
    Done,
}

impl Job {
    async fn run(&self, cancel: &CancelToken, backoff: Backoff) {
        let mut wait = backoff.first;
        let mut last = ForecastState::Pending;
        loop {
            tokio::select! {
                _ = cancel.cancelled() => {
                    self.report(last, None, false, None);
                    return;
                }
                _ = tokio::time::sleep(wait) => {}
            }
            match self.poll(&mut last).await {
                Step::Again => wait = backoff.after(wait),
                Step::Done => return,
            }
        }
    }

    async fn poll(&self, last: &mut ForecastState) -> Step {
        let store = &self.session.store;
        let response = self
            .session
            .client
            .forecast_status(&self.request, &self.key)
            .await;
        let response = match response {
            Ok(response) => response,
            Err(ApiError::UnexpectedStatus { status: 404, .. }) => {
                tracing::warn!(
                    history = self.history_id,
                    "a forecast's job is unknown to the service (404)"
                );
                let failed = JobState::Failed {
                    message: JOB_UNKNOWN.into(),
                };
                let stored = store
                    .update_job(self.history_id, "{}", &failed, Utc::now())
                    .await;
                let problem = stored
                    .err()
                    .map(|e| CommandError::from(e).message().to_owned());
                *last = ForecastState::Failed;
                self.report(
                    *last,
                    None,
                    false,
                    Some(problem.unwrap_or(JOB_UNKNOWN.into())),
                );
                return Step::Done;
            }
            Err(error) => {
                let go_on = error.is_transient();
                let error = CommandError::from(error);
                tracing::warn!(
                    history = self.history_id,
                    kind = %error.class(),
                    status = error.status(),
                    again = go_on,
                    "a forecast's poll failed"
                );
                let message = error.message().to_owned();
                let problem = if go_on {
                    format!("{message} Trying again shortly.")
                } else {
                    message
                };
                self.report(*last, None, go_on, Some(problem));
                return if go_on { Step::Again } else { Step::Done };
            }
        };
        if let Some(charge) = &response.billing {
            // Polls are not billed by the sandbox; if the service bills one, it is on the books.
            if let Err(error) = store
                .add_charge(self.history_id, &pipeline::store_billing(charge))
                .await
            {
                tracing::warn!(%error, "a poll's charge could not be recorded");
            }
        }
        let job = response.body;
        let state = match job.status {
            ForecastState::Completed => JobState::Completed,
            ForecastState::Failed => JobState::Failed {
                message: job
                    .error
                    .clone()
                    .filter(|e| !e.trim().is_empty())
                    .unwrap_or_else(|| "The service could not make this forecast.".into()),
            },
            _ => JobState::Open,
        };
        let ended = job.status.is_final();
        if let Err(error) = store
            .update_job(self.history_id, &response.raw, &state, Utc::now())
            .await
        {
            // The answer stays with the service: stop, and let a resume fetch it again.
            let problem = CommandError::from(error).message().to_owned();
            tracing::warn!(
                history = self.history_id,
                problem = %problem,
                "a forecast's answer could not be stored"
            );
            self.report(job.status, Some(job), false, Some(problem));
            return Step::Done;
        }
        *last = job.status;
        self.report(job.status, Some(job), !ended, None);
        if ended {
            Step::Done
        } else {
            Step::Again
        }
    }

    fn report(
        &self,
        status: ForecastState,
        job: Option<ForecastJob>,
        following: bool,
        problem: Option<String>,
    ) {
        (self.on_update)(ForecastUpdate {
            history_id: self.history_id,
            prediction_id: self.request.prediction_id.clone(),
            status,
            job,
            following,
            problem,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pause_grows_by_half_up_to_the_cap() {
        let backoff = Backoff::default();
        let mut wait = backoff.first;
        let mut waits = Vec::new();
        for _ in 0..9 {
            waits.push(wait.as_millis());
            wait = backoff.after(wait);
        }
        assert_eq!(
            waits,
            [1000, 1500, 2250, 3375, 5062, 7593, 11390, 15000, 15000]
        );
    }

    #[test]
    fn the_job_id_is_read_from_either_answer() {
        assert_eq!(
            prediction_id_of(r#"{"prediction_id":"p-1","status":"PENDING"}"#).as_deref(),
            Some("p-1")
        );
        assert_eq!(prediction_id_of("{}"), None);
        assert_eq!(prediction_id_of("not json"), None);
    }
}
