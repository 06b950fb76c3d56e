//! The forecast family: `POST /numinous/forecasts` asks (billed, answers 202 with a prediction
//! id), `GET /numinous/forecasts/{prediction_id}` follows the job until it ends.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::{ApiRequest, Encoded};
use crate::model::{ForecastAccepted, ForecastJob};
use crate::operation::Operation;
use crate::validation::{Checks, FieldError};

/// `POST /numinous/forecasts`: the question in plain words (`query`), or the event as a
/// `title` with an optional `description` and the `cutoff` by which it resolves.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct ForecastRequest {
    pub query: Option<String>,
    pub title: Option<String>,
    pub description: Option<String>,
    /// RFC 3339, e.g. `2027-03-01T00:00:00Z`; must lie in the future.
    pub cutoff: Option<String>,
    pub topics: Vec<String>,
    pub agent_version_id: Option<String>,
}

/// The text of an optional field, trimmed, when there is any.
fn given(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim).filter(|v| !v.is_empty())
}

/// A resolution time as the forecast takes it: an RFC 3339 date-time.
pub fn parse_cutoff(value: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(value.trim())
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

impl ForecastRequest {
    /// The checks, against the given "now" (the cutoff must lie after it).
    pub fn validate_at(&self, now: DateTime<Utc>) -> Result<(), Vec<FieldError>> {
        let mut checks = Checks::default();
        if given(&self.query).is_none() && given(&self.title).is_none() {
            checks.add(
                "query",
                "Type the question, or give the event a title below.",
            );
        }
        if let Some(cutoff) = given(&self.cutoff) {
            match parse_cutoff(cutoff) {
                None => checks.add(
                    "cutoff",
                    format!(
                        "Write the resolution time as a date and time, for example \
                         2027-03-01T00:00:00Z (you entered \"{cutoff}\")."
                    ),
                ),
                Some(at) if at <= now => checks.add(
                    "cutoff",
                    "The resolution time has passed: choose a time in the future.",
                ),
                Some(_) => {}
            }
        }
        checks.finish()
    }
}

impl ApiRequest for ForecastRequest {
    type Output = ForecastAccepted;
    const OPERATION: Operation = Operation::Forecast;

    fn validate(&self) -> Result<(), Vec<FieldError>> {
        self.validate_at(Utc::now())
    }

    fn encode(&self) -> Encoded {
        let mut body = serde_json::Map::new();
        for (name, value) in [
            ("query", &self.query),
            ("title", &self.title),
            ("description", &self.description),
            ("agent_version_id", &self.agent_version_id),
        ] {
            if let Some(text) = given(value) {
                body.insert(name.into(), text.into());
            }
        }
        if let Some(at) = given(&self.cutoff).and_then(parse_cutoff) {
            // One spelling on the wire, whatever offset the user's zone gave it.
            let text = at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
            body.insert("cutoff".into(), text.into());
        }
        let topics: Vec<&str> = self
            .topics
            .iter()
            .map(|t| t.trim())
            .filter(|t| !t.is_empty())
            .collect();
        if !topics.is_empty() {
            body.insert("topics".into(), topics.into());
        }
        Encoded::Json(body.into())
    }
}

/// `GET /numinous/forecasts/{prediction_id}`: where a forecast job stands.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct ForecastStatusRequest {
    pub prediction_id: String,
}

impl ApiRequest for ForecastStatusRequest {
    type Output = ForecastJob;
    const OPERATION: Operation = Operation::ForecastStatus;

    fn validate(&self) -> Result<(), Vec<FieldError>> {
        let mut checks = Checks::default();
        let id = self.prediction_id.trim();
        if checks.required("prediction_id", id, "Give the forecast's id.")
            && !id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        {
            checks.add(
                "prediction_id",
                format!("A forecast id is letters, digits and dashes (you entered \"{id}\")."),
            );
        }
        checks.finish()
    }

    fn encode(&self) -> Encoded {
        Encoded::Query(Vec::new())
    }

    fn path(&self) -> String {
        format!(
            "{}/{}",
            Operation::Forecast.path(),
            self.prediction_id.trim()
        )
    }
}
