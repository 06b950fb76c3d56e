//! A monitor draft's rules, each error named by its field (the UI's form repeats them):
//! a name, an interval from 15 minutes to a day, a cap of 1 to 100 posts per run, and what it
//! watches valid as the X search or the account's posts would be on their own.

use sightline_api::request::TwitterSearchRequest;
use sightline_api::{ApiRequest, FieldError};

use super::{MonitorDraft, MonitorTarget};
use crate::errors::CommandError;

/// Longest name, in characters.
pub const MAX_NAME_CHARS: usize = 100;
/// The shortest interval, in minutes, and the longest (a day).
pub const MIN_INTERVAL_MINUTES: i64 = 15;
pub const MAX_INTERVAL_MINUTES: i64 = 24 * 60;
/// Most posts a run may ask for: one search's most.
pub const MAX_CAP: i64 = 100;

/// Test hook: `SIGHTLINE_MONITOR_MIN_INTERVAL=<minutes>` lowers the shortest interval (a soak
/// run or an end-to-end test needs monitors that run every minute). Never set in use.
pub const MIN_INTERVAL_VAR: &str = "SIGHTLINE_MONITOR_MIN_INTERVAL";

fn min_interval() -> i64 {
    std::env::var(MIN_INTERVAL_VAR)
        .ok()
        .and_then(|value| value.trim().parse::<i64>().ok())
        .filter(|minutes| (1..MIN_INTERVAL_MINUTES).contains(minutes))
        .unwrap_or(MIN_INTERVAL_MINUTES)
}

/// Checks a draft; every broken rule named by its field.
pub fn check(draft: &MonitorDraft) -> Result<(), CommandError> {
    let mut errors = Vec::new();
    let name = draft.name.trim();
    if name.is_empty() {
        errors.push(FieldError::new("name", "Give the monitor a name."));
    } else if name.chars().count() > MAX_NAME_CHARS {
        errors.push(FieldError::new(
            "name",
            format!("Keep the name to {MAX_NAME_CHARS} characters or fewer."),
        ));
    }
    if draft.interval_minutes < min_interval() || draft.interval_minutes > MAX_INTERVAL_MINUTES {
        errors.push(FieldError::new(
            "intervalMinutes",
            "Choose an interval from 15 minutes to a day (1,440 minutes).",
        ));
    }
    if !(1..=MAX_CAP).contains(&draft.cap) {
        errors.push(FieldError::new(
            "cap",
            format!(
                "Choose a number from 1 to {MAX_CAP} (you entered {}).",
                draft.cap
            ),
        ));
    }
    // What it watches follows the request's own rules (its count is the monitor's cap).
    let target = match &draft.target {
        MonitorTarget::Search { request } => TwitterSearchRequest {
            count: draft.cap.clamp(1, MAX_CAP),
            ..request.clone()
        }
        .validate(),
        MonitorTarget::Account { request } => request.validate(),
    };
    errors.extend(target.err().unwrap_or_default());
    if errors.is_empty() {
        Ok(())
    } else {
        Err(CommandError::invalid(errors))
    }
}
