//! Forecasts as a researcher cites them: one row per forecast with what was asked, the job's
//! state and answer, who forecast it and when (UTC, and local time with its zone), the
//! reasoning, the job's id and what asking cost. CSV, JSON Lines, and a Markdown citation list
//! in the style of the posts' one.

use std::io::Write;

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use serde::Serialize;

use super::{cell, escape_markdown, id_cell, json_lines, opt, utc};
use crate::error::Result;
use crate::history::Billing;
use crate::zone_names::{local_minutes, local_seconds};

/// One forecast, read from its history row and its stored answer (the core builds it).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ForecastExport {
    /// The history row of the request that asked.
    pub history_id: i64,
    /// The job's id at the service; `None` when it never accepted the question.
    pub prediction_id: Option<String>,
    /// When it was asked.
    pub asked_at: DateTime<Utc>,
    /// The question as asked: the query, or else the event's title.
    pub question: String,
    /// The event's description, when one was given.
    pub description: Option<String>,
    /// When the event resolves: as the service read it, or else as asked.
    pub cutoff: Option<String>,
    /// The event's topics: as asked, or else as the service read them.
    pub topics: Vec<String>,
    /// The job's state: `PENDING`, `RUNNING`, `COMPLETED` or `FAILED`.
    pub state: String,
    /// The probability the event happens, 0 to 1, as the service answered it.
    pub probability: Option<f64>,
    /// The forecaster's name, as the service gives it.
    pub forecaster: Option<String>,
    /// When the forecast was made, as the service states it.
    pub forecasted_at: Option<DateTime<Utc>>,
    /// The forecaster's own words, untouched (untrusted text: escaped in the citation).
    pub reasoning: Option<String>,
    /// Why the job failed, when it did.
    pub error: Option<String>,
    /// What asking cost, exactly as billed.
    pub billing: Option<Billing>,
    /// The label of the key used, never the key itself.
    pub key_label: Option<String>,
    /// How the request was made, as the app names it (e.g. "live", "demo").
    pub mode: String,
}

/// `27%`, as the screen writes it; a whole number unless the service said more (`27.5%`).
pub fn percent(p: f64) -> String {
    let tenths = (p * 1000.0).round() / 10.0;
    if tenths.fract() == 0.0 {
        format!("{tenths:.0}%")
    } else {
        format!("{tenths:.1}%")
    }
}

/// Forecasts as CSV, one line each; local times in `tz`.
pub fn forecasts_csv<'a>(
    rows: impl IntoIterator<Item = &'a ForecastExport>,
    tz: Tz,
    out: impl Write,
) -> Result<()> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record([
        "history_id",
        "prediction_id",
        "asked_at_utc",
        "asked_at_local",
        "question",
        "description",
        "cutoff",
        "topics",
        "state",
        "probability",
        "forecaster",
        "forecasted_at_utc",
        "forecasted_at_local",
        "reasoning",
        "error",
        "cost",
        "currency",
        "key_label",
        "mode",
    ])?;
    for f in rows {
        let billing = f.billing.as_ref();
        w.write_record([
            f.history_id.to_string(),
            id_cell(&opt(&f.prediction_id)),
            utc(f.asked_at),
            local_seconds(f.asked_at, tz),
            cell(&f.question),
            cell(&opt(&f.description)),
            cell(&opt(&f.cutoff)),
            cell(&f.topics.join(", ")),
            f.state.clone(),
            opt(&f.probability),
            cell(&opt(&f.forecaster)),
            f.forecasted_at.map(utc).unwrap_or_default(),
            f.forecasted_at
                .map(|t| local_seconds(t, tz))
                .unwrap_or_default(),
            cell(&opt(&f.reasoning)),
            cell(&opt(&f.error)),
            billing.map(Billing::cost_words).unwrap_or_default(),
            cell(&billing.map(|b| b.currency.clone()).unwrap_or_default()),
            cell(&opt(&f.key_label)),
            cell(&f.mode),
        ])?;
    }
    w.flush()?;
    Ok(())
}

/// Forecasts as JSON Lines: every field (times in UTC), money as a string, and the local
/// times in `tz`.
pub fn forecasts_jsonl<'a>(
    rows: impl IntoIterator<Item = &'a ForecastExport>,
    tz: Tz,
    out: impl Write,
) -> Result<()> {
    #[derive(Serialize)]
    struct Line<'f> {
        #[serde(flatten)]
        forecast: &'f ForecastExport,
        asked_at_local: String,
        forecasted_at_local: Option<String>,
    }
    json_lines(
        rows.into_iter().map(|forecast| Line {
            forecast,
            asked_at_local: local_seconds(forecast.asked_at, tz),
            forecasted_at_local: forecast.forecasted_at.map(|t| local_seconds(t, tz)),
        }),
        out,
    )
}

/// A numbered Markdown list citing each forecast: the forecaster, the question, the
/// probability and when (UTC; local time below when the zone is not UTC), the job's id, and
/// where it came from. One without an answer says why instead.
pub fn forecast_citations_markdown<'a>(
    rows: impl IntoIterator<Item = &'a ForecastExport>,
    tz: Tz,
    mut out: impl Write,
) -> Result<()> {
    for (n, f) in rows.into_iter().enumerate() {
        let question = format!("“{}”", escape_markdown(&f.question));
        let id = f
            .prediction_id
            .as_deref()
            .map(|id| format!(", prediction id {}", escape_markdown(id)))
            .unwrap_or_default();
        let line = match (f.probability, f.forecasted_at) {
            (Some(p), Some(at)) => format!(
                "**{}**, {question}, forecast {} on {}",
                escape_markdown(f.forecaster.as_deref().unwrap_or("Unnamed forecaster")),
                percent(p),
                at.format("%Y-%m-%d %H:%M UTC"),
            ),
            _ => {
                let outcome = match (f.state.as_str(), f.error.as_deref()) {
                    ("FAILED", Some(error)) => format!("no forecast: {}", escape_markdown(error)),
                    ("FAILED", None) => "no forecast: the job failed".to_owned(),
                    _ => "not answered yet".to_owned(),
                };
                let asked = f.asked_at.format("%Y-%m-%d %H:%M UTC");
                format!("{question}, {outcome} (asked {asked})")
            }
        };
        writeln!(out, "{}. {line}{id}, via Sightline", n + 1)?;
        if let Some(at) = f
            .forecasted_at
            .filter(|at| crate::zone_names::zone_abbreviation(*at, tz) != "UTC")
        {
            writeln!(out, "   (local time: {})", local_minutes(at, tz))?;
        }
        writeln!(out)?;
    }
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::billing;
    use chrono::TimeZone;

    fn done() -> ForecastExport {
        ForecastExport {
            history_id: 7,
            prediction_id: Some("6f1c2a9e-0b1d-4c3e-8f00-1234567890ab".into()),
            asked_at: Utc.with_ymd_and_hms(2026, 11, 23, 18, 0, 0).unwrap(),
            question: "Will the *EU* adopt the flood directive?".into(),
            description: None,
            cutoff: Some("2027-03-01T00:00:00Z".into()),
            topics: vec!["eu".into(), "floods".into()],
            state: "COMPLETED".into(),
            probability: Some(0.27),
            forecaster: Some("Numinous Ensemble".into()),
            forecasted_at: Some(Utc.with_ymd_and_hms(2026, 11, 23, 18, 4, 0).unwrap()),
            reasoning: Some("=Base rate <script>x</script>".into()),
            error: None,
            billing: Some(billing("0.01", 1, "forecast")),
            key_label: None,
            mode: "demo".into(),
        }
    }

    fn failed() -> ForecastExport {
        ForecastExport {
            history_id: 8,
            state: "FAILED".into(),
            probability: None,
            forecaster: None,
            forecasted_at: None,
            reasoning: None,
            error: Some("No forecaster could resolve this event.".into()),
            ..done()
        }
    }

    const BERLIN: Tz = chrono_tz::Europe::Berlin;

    #[test]
    fn csv_has_a_column_per_field_with_both_times_and_the_exact_cost() {
        let mut buf = Vec::new();
        forecasts_csv(&[done(), failed()], BERLIN, &mut buf).unwrap();
        let mut reader = csv::Reader::from_reader(buf.as_slice());
        let headers = reader.headers().unwrap().clone();
        let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.unwrap()).collect();
        let get = |row: usize, name: &str| {
            rows[row][headers.iter().position(|h| h == name).unwrap()].to_owned()
        };
        assert_eq!(
            get(0, "question"),
            "Will the *EU* adopt the flood directive?"
        );
        assert_eq!(get(0, "probability"), "0.27");
        assert_eq!(get(0, "forecasted_at_utc"), "2026-11-23T18:04:00Z");
        assert_eq!(
            get(0, "forecasted_at_local"),
            "2026-11-23 19:04:00 CET (Europe/Berlin)"
        );
        assert_eq!(get(0, "asked_at_utc"), "2026-11-23T18:00:00Z");
        assert_eq!(
            get(0, "asked_at_local"),
            "2026-11-23 19:00:00 CET (Europe/Berlin)"
        );
        assert_eq!(
            get(0, "reasoning"),
            "'=Base rate <script>x</script>",
            "formula-safe"
        );
        assert_eq!(get(0, "cost"), "0.01");
        assert_eq!(get(0, "topics"), "eu, floods");
        assert_eq!(get(1, "state"), "FAILED");
        assert_eq!(get(1, "probability"), "");
        assert_eq!(get(1, "error"), "No forecaster could resolve this event.");
    }

    #[test]
    fn json_lines_keep_every_field_and_the_local_minutes() {
        let mut buf = Vec::new();
        forecasts_jsonl(&[done()], BERLIN, &mut buf).unwrap();
        let line: serde_json::Value = serde_json::from_slice(&buf).unwrap();
        assert_eq!(
            line["prediction_id"],
            "6f1c2a9e-0b1d-4c3e-8f00-1234567890ab"
        );
        assert_eq!(line["probability"], 0.27);
        assert_eq!(line["billing"]["cost"], "0.01");
        assert_eq!(line["forecasted_at"], "2026-11-23T18:04:00Z");
        assert_eq!(
            line["forecasted_at_local"],
            "2026-11-23 19:04:00 CET (Europe/Berlin)"
        );
        assert_eq!(line["asked_at"], "2026-11-23T18:00:00Z");
        assert_eq!(
            line["asked_at_local"],
            "2026-11-23 19:00:00 CET (Europe/Berlin)"
        );
    }

    #[test]
    fn citations_name_forecaster_question_probability_time_and_id() {
        let mut buf = Vec::new();
        forecast_citations_markdown(&[done(), failed()], BERLIN, &mut buf).unwrap();
        let expected = "\
1. **Numinous Ensemble**, “Will the \\*EU\\* adopt the flood directive?”, forecast 27% on 2026-11-23 18:04 UTC, prediction id 6f1c2a9e-0b1d-4c3e-8f00-1234567890ab, via Sightline
   (local time: 2026-11-23 19:04 CET (Europe/Berlin))

2. “Will the \\*EU\\* adopt the flood directive?”, no forecast: No forecaster could resolve this event. (asked 2026-11-23 18:00 UTC), prediction id 6f1c2a9e-0b1d-4c3e-8f00-1234567890ab, via Sightline

";
        assert_eq!(String::from_utf8(buf).unwrap(), expected);
    }

    #[test]
    fn percentages_are_whole_unless_the_service_said_more() {
        assert_eq!(percent(0.27), "27%");
        assert_eq!(percent(0.275), "27.5%");
        assert_eq!(percent(0.03), "3%");
        assert_eq!(
            local_minutes(Utc.with_ymd_and_hms(2026, 7, 1, 9, 30, 0).unwrap(), Tz::UTC),
            "2026-07-01 09:30 UTC"
        );
    }
}
