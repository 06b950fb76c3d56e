//! Forecasts out to a file: each forecast's history row and stored answer read into the
//! store's [`ForecastExport`] (what was asked, the job's state and answer, the forecaster and
//! time, the reasoning, the job's id, the cost), then written as CSV, JSON Lines or a Markdown
//! citation list, atomically, with local times in the user's zone. Offline: only what is stored.

use std::path::Path;

use chrono::{DateTime, Utc};
use sightline_api::model::{ForecastJob, ForecastState};
use sightline_api::request::ForecastRequest;
use sightline_api::Operation;
use sightline_store::export::{self, ForecastExport};
use sightline_store::{HistoryEntry, HistoryQuery, RequestStatus, Store, Tz};

use crate::errors::CommandError;
use crate::export::{history_rows, write_atomically, ExportFormat};

/// One forecast, from its history row and the answer stored with it (`None` when the service
/// never accepted it).
pub fn forecast_export(entry: &HistoryEntry, body: Option<&str>) -> ForecastExport {
    let asked: ForecastRequest = serde_json::from_str(&entry.params_json).unwrap_or_default();
    let job: Option<ForecastJob> = body.and_then(|b| serde_json::from_str(b).ok());
    let result = job.as_ref().and_then(|job| job.result.as_ref());
    let parsed = result.and_then(|r| r.parsed_fields.as_ref());
    let given = |s: &Option<String>| {
        s.as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
    };
    let state = match entry.status {
        RequestStatus::Ok => ForecastState::Completed,
        RequestStatus::Error | RequestStatus::Interrupted | RequestStatus::Cancelled => {
            ForecastState::Failed
        }
        RequestStatus::Running | RequestStatus::NotModified => job
            .as_ref()
            .map(|job| job.status)
            .unwrap_or(ForecastState::Pending),
    };
    let failed = state == ForecastState::Failed;
    ForecastExport {
        history_id: entry.id,
        prediction_id: body.and_then(super::prediction_id_of),
        asked_at: entry.started_at,
        question: given(&asked.query)
            .or_else(|| given(&asked.title))
            .unwrap_or_default(),
        description: given(&asked.description),
        cutoff: parsed
            .and_then(|p| given(&p.cutoff))
            .or_else(|| given(&asked.cutoff)),
        topics: match parsed.and_then(|p| p.topics.clone()) {
            Some(read) if asked.topics.is_empty() => read,
            _ => asked.topics.clone(),
        },
        state: state_name(state).to_owned(),
        probability: result.map(|r| r.prediction),
        forecaster: result.map(|r| r.forecaster_name.clone()),
        forecasted_at: result.and_then(|r| {
            DateTime::parse_from_rfc3339(&r.forecasted_at)
                .ok()
                .map(|t| t.with_timezone(&Utc))
        }),
        reasoning: result.and_then(|r| r.metadata.reasoning.clone()),
        error: failed
            .then(|| given(&entry.error_message).or_else(|| job.and_then(|j| j.error)))
            .flatten(),
        billing: entry.billing.clone(),
        key_label: entry.key_label.clone(),
        mode: entry.mode.clone(),
    }
}

fn state_name(state: ForecastState) -> &'static str {
    match state {
        ForecastState::Pending => "PENDING",
        ForecastState::Running => "RUNNING",
        ForecastState::Completed => "COMPLETED",
        ForecastState::Failed => "FAILED",
        ForecastState::Other => "UNKNOWN",
    }
}

/// The forecasts to export: the hand-picked history rows that are forecasts, in the order
/// picked, or every forecast `query` matches, each with its stored answer.
pub async fn forecast_rows(
    store: &Store,
    query: &HistoryQuery,
    ids: Option<Vec<i64>>,
) -> Result<Vec<ForecastExport>, CommandError> {
    let query = HistoryQuery {
        operation: Some(Operation::Forecast.as_str().to_owned()),
        ..query.clone()
    };
    let entries = history_rows(store, &query, ids).await?;
    let mut rows = Vec::with_capacity(entries.len());
    for entry in entries
        .iter()
        .filter(|e| e.operation == Operation::Forecast.as_str())
    {
        let stored = match entry.has_result {
            true => store.result(entry.id).await?,
            false => None,
        };
        rows.push(forecast_export(
            entry,
            stored.as_ref().map(|s| s.body.as_str()),
        ));
    }
    Ok(rows)
}

/// Writes forecasts to `path` in `format` (Markdown: the citation list), local times in `tz`.
pub fn write_forecasts(
    rows: &[ForecastExport],
    format: ExportFormat,
    tz: Tz,
    path: &Path,
) -> Result<(), CommandError> {
    write_atomically(path, |out| match format {
        ExportFormat::Csv => export::forecasts_csv(rows, tz, out),
        ExportFormat::Jsonl => export::forecasts_jsonl(rows, tz, out),
        ExportFormat::Markdown => export::forecast_citations_markdown(rows, tz, out),
    })
}
