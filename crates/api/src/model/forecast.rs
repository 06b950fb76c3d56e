//! A forecast job as the service reports it: accepted (202), then its status until it ends, with
//! the probability, the forecaster's reasoning and what it understood of the question.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::lenient;

/// Where a forecast job stands. Unknown states read as `Other`, so a new one never breaks
/// reading the answer (the job is then followed on, as if still running).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ForecastState {
    Pending,
    Running,
    Completed,
    Failed,
    #[serde(other)]
    Other,
}

impl ForecastState {
    /// The job is over: nothing more will change.
    pub fn is_final(self) -> bool {
        matches!(self, ForecastState::Completed | ForecastState::Failed)
    }
}

/// The 202 answer of `POST /numinous/forecasts`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ForecastAccepted {
    #[serde(deserialize_with = "lenient::string")]
    pub prediction_id: String,
    pub status: ForecastState,
}

/// The answer of `GET /numinous/forecasts/{prediction_id}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ForecastJob {
    #[serde(deserialize_with = "lenient::string")]
    pub prediction_id: String,
    pub status: ForecastState,
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub created_at: Option<String>,
    /// Present once the job completed.
    #[serde(default)]
    pub result: Option<ForecastResult>,
    /// Why a job failed.
    #[serde(default, deserialize_with = "lenient::opt_string")]
    pub error: Option<String>,
}

/// A completed forecast.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ForecastResult {
    /// The probability that the event happens, 0 to 1.
    pub prediction: f64,
    #[serde(deserialize_with = "lenient::string")]
    pub forecaster_name: String,
    #[serde(deserialize_with = "lenient::string")]
    pub forecasted_at: String,
    #[serde(default)]
    pub metadata: ForecastMetadata,
    #[serde(default)]
    pub parsed_fields: Option<ParsedFields>,
}

/// Who forecast and why. Every field may be missing.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct ForecastMetadata {
    #[serde(deserialize_with = "lenient::opt_text_number")]
    pub miner_uid: Option<String>,
    #[serde(deserialize_with = "lenient::opt_string")]
    pub miner_hotkey: Option<String>,
    #[serde(deserialize_with = "lenient::opt_string")]
    pub pool: Option<String>,
    #[serde(deserialize_with = "lenient::opt_text_number")]
    pub version_id: Option<String>,
    #[serde(deserialize_with = "lenient::opt_string")]
    pub agent_name: Option<String>,
    #[serde(deserialize_with = "lenient::opt_text_number")]
    pub version_number: Option<String>,
    pub raw_prediction: Option<f64>,
    #[serde(deserialize_with = "lenient::opt_string")]
    pub event_title: Option<String>,
    #[serde(deserialize_with = "lenient::opt_string")]
    pub event_cutoff: Option<String>,
    /// The forecaster's own words: untrusted text, shown only through the sanitiser.
    #[serde(deserialize_with = "lenient::opt_string")]
    pub reasoning: Option<String>,
}

/// What the service understood of the question.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[serde(default)]
pub struct ParsedFields {
    #[serde(deserialize_with = "lenient::opt_string")]
    pub title: Option<String>,
    #[serde(deserialize_with = "lenient::opt_string")]
    pub description: Option<String>,
    #[serde(deserialize_with = "lenient::opt_string")]
    pub cutoff: Option<String>,
    pub topics: Option<Vec<String>>,
}
