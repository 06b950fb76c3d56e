//! `POST /numinous/forecasts` and `GET /numinous/forecasts/{prediction_id}`: a forecast is a
//! job. The POST (billed, one unit of service `forecast`) answers 202 with a prediction id; the
//! GET (free) reports the job, which moves PENDING → RUNNING → COMPLETED or FAILED over the
//! sandbox's forecast duration. The probability, the forecaster and the reasoning are drawn
//! from the synthetic world and the question's text, so the same question gets the same answer.
//!
//! Jobs live in memory, and in a file when the sandbox is given one ([`Jobs`], `jobs.rs`): a
//! sandbox started again on the same file still knows them (demo mode keeps one in the app's
//! data folder); without one, a sandbox restarted mid-job answers 404 for it, as a service that
//! lost the job would.

mod jobs;

pub use jobs::Jobs;

use super::{Ctx, Outcome};
use crate::rng::{fnv1a, mix, Rng};
use crate::validate::Body;
use crate::world::corpus::HOSTILE_SNIPPETS;
use crate::world::text::{contains_words, is_stopword, tokens};
use crate::world::{Page, World, DAY_MS};
use chrono::{DateTime, SecondsFormat, Utc};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::time::Duration;

/// How long a job takes when nothing else is configured.
pub const DEFAULT_DURATION: Duration = Duration::from_secs(20);

/// The question of a forecast, as the POST gave it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Question {
    pub title: Option<String>,
    pub description: Option<String>,
    pub cutoff: Option<String>,
    pub topics: Vec<String>,
    pub query: Option<String>,
    pub agent_version_id: Option<String>,
}

impl Question {
    /// The words the forecaster reads: the query, or the title and description.
    fn text(&self) -> String {
        [&self.query, &self.title, &self.description]
            .into_iter()
            .flatten()
            .map(|s| s.trim())
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// `POST /numinous/forecasts`
pub fn create(ctx: &Ctx<'_>, body: &[u8]) -> Outcome {
    let mut b = Body::parse(body);
    if b.unreadable() {
        return Outcome::invalid(&b.problems);
    }
    let question = Question {
        title: b.opt_str("title"),
        description: b.opt_str("description"),
        cutoff: b.opt_str("cutoff"),
        topics: topics(&mut b, body),
        query: b.opt_str("query"),
        agent_version_id: b.opt_str("agent_version_id"),
    };
    let blank = |s: &Option<String>| s.as_deref().is_none_or(|s| s.trim().is_empty());
    if blank(&question.query) && blank(&question.title) {
        b.reject(
            &[],
            "value_error",
            "Value error, give either a query or a title",
            Value::Null,
            Some(json!({ "error": "neither query nor title" })),
        );
    }
    if let Some(cutoff) = question
        .cutoff
        .as_deref()
        .filter(|c| parse_time(c).is_none())
    {
        b.reject(
            &[Value::from("cutoff")],
            "datetime_from_date_parsing",
            "Input should be a valid datetime or date",
            Value::from(cutoff),
            None,
        );
    }
    if !b.problems.is_empty() {
        return Outcome::invalid(&b.problems);
    }
    let id = ctx.jobs.add(ctx.world.seed, ctx.now_ms, question);
    Outcome::Accepted {
        body: serde_json::to_vec(&json!({ "prediction_id": id, "status": "PENDING" }))
            .expect("records serialise"),
        usage: 1,
    }
}

/// `topics`: null, absent or an array of strings.
fn topics(b: &mut Body, raw: &[u8]) -> Vec<String> {
    let value = serde_json::from_slice::<Value>(raw)
        .ok()
        .and_then(|v| v.get("topics").cloned())
        .unwrap_or(Value::Null);
    match value {
        Value::Null => Vec::new(),
        Value::Array(items) => {
            let mut out = Vec::new();
            for (i, item) in items.into_iter().enumerate() {
                match item {
                    Value::String(s) => out.push(s),
                    other => b.reject(
                        &[Value::from("topics"), Value::from(i)],
                        "string_type",
                        "Input should be a valid string",
                        other,
                        None,
                    ),
                }
            }
            out
        }
        other => {
            b.reject(
                &[Value::from("topics")],
                "list_type",
                "Input should be a valid list",
                other,
                None,
            );
            Vec::new()
        }
    }
}

/// `GET /numinous/forecasts/{prediction_id}`
pub fn status(ctx: &Ctx<'_>) -> Outcome {
    let id = ctx.path.rsplit('/').next().unwrap_or_default();
    let Some(job) = ctx.jobs.get(id) else {
        return Outcome::not_found("Prediction");
    };
    let elapsed = Jobs::elapsed(&job).as_millis();
    let duration = ctx.jobs.duration.as_millis().max(1);
    let mut body = json!({
        "prediction_id": id,
        "created_at": iso(job.created_ms),
    });
    let status = if elapsed < duration / 4 {
        "PENDING"
    } else if elapsed < duration {
        "RUNNING"
    } else if fails(ctx.world.seed, &job.question) {
        body["error"] = Value::from(FAILURE);
        "FAILED"
    } else {
        let finished_ms = job.created_ms + duration as i64;
        body["result"] = result(ctx.world, &job.question, finished_ms);
        "COMPLETED"
    };
    body["status"] = Value::from(status);
    Outcome::Unbilled { body }
}

/// What a failed job says.
pub const FAILURE: &str = "No forecaster could resolve this event before the deadline.";

/// Whether the job of this question fails: a seeded one in eight.
pub fn fails(seed: u64, question: &Question) -> bool {
    question_hash(seed, question) % 8 == 3
}

fn question_hash(seed: u64, question: &Question) -> u64 {
    mix(seed ^ fnv1a(question.text().to_lowercase().as_bytes()))
}

/// An RFC 3339 date-time or a bare date, as the service's framework reads `cutoff`.
fn parse_time(text: &str) -> Option<DateTime<Utc>> {
    let text = text.trim();
    DateTime::parse_from_rfc3339(text)
        .map(|t| t.with_timezone(&Utc))
        .ok()
        .or_else(|| {
            chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d")
                .ok()
                .and_then(|d| d.and_hms_opt(0, 0, 0))
                .map(|t| t.and_utc())
        })
}

fn iso(ms: i64) -> String {
    DateTime::<Utc>::from_timestamp_millis(ms)
        .unwrap_or_default()
        .to_rfc3339_opts(SecondsFormat::Secs, true)
}

const FORECASTERS: &[(&str, &str)] = &[
    ("Numinous Ensemble", "ensemble-v3"),
    ("Base-rate Bayesian", "bayes-base-rate"),
    ("Superforecaster Agent", "sf-agent"),
    ("Crowd Aggregator", "crowd-agg"),
];

/// The COMPLETED job's `result`.
fn result(world: &World, question: &Question, finished_ms: i64) -> Value {
    let hash = question_hash(world.seed, question);
    let mut rng = Rng::derive(world.seed, hash);
    // Two decimals between 0.03 and 0.97: a forecaster never says "certain".
    let raw = 0.03 + (rng.below(9_401) as f64) / 10_000.0;
    let prediction = (raw * 100.0).round() / 100.0;
    let (forecaster, agent) = FORECASTERS[rng.below(FORECASTERS.len())];
    let parsed = parsed_fields(question, finished_ms);
    let reasoning = reasoning(world, question, prediction, hash);
    let version = 1 + rng.below(9);
    json!({
        "prediction": prediction,
        "forecaster_name": forecaster,
        "forecasted_at": iso(finished_ms),
        "metadata": {
            "miner_uid": rng.below(256),
            "miner_hotkey": format!("5{}", crate::rng::url_safe_chars(&mut rng, 47)),
            "pool": "main",
            "version_id": question.agent_version_id.clone().unwrap_or_else(|| format!("{agent}-{version}")),
            "agent_name": agent,
            "version_number": version,
            "raw_prediction": raw,
            "event_title": parsed["title"],
            "event_cutoff": parsed["cutoff"],
            "reasoning": reasoning,
        },
        "parsed_fields": parsed,
    })
}

/// What the forecaster understood: the given fields, or what it read from the query.
fn parsed_fields(question: &Question, finished_ms: i64) -> Value {
    let given = |s: &Option<String>| {
        s.as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
    };
    let title = given(&question.title)
        .or_else(|| given(&question.query))
        .unwrap_or_default();
    let cutoff = question
        .cutoff
        .as_deref()
        .and_then(parse_time)
        .map(|t| t.to_rfc3339_opts(SecondsFormat::Secs, true))
        // A query without a date is read as "within about three months".
        .unwrap_or_else(|| iso(finished_ms + 90 * DAY_MS));
    let topics: Vec<String> = if question.topics.is_empty() {
        tokens(&title)
            .filter(|t| t.len() > 3 && !is_stopword(t))
            .take(3)
            .collect()
    } else {
        question.topics.clone()
    };
    json!({
        "title": title,
        "description": given(&question.description),
        "cutoff": cutoff,
        "topics": topics,
    })
}

/// A few sentences: the base rate, the sandbox web's pages on the question, and the reading.
/// A question about security quotes a source's hostile text verbatim, as a real forecaster
/// might; clients must render it inert.
fn reasoning(world: &World, question: &Question, prediction: f64, hash: u64) -> String {
    let text = question.text();
    let terms: Vec<String> = tokens(&text).filter(|t| !is_stopword(t)).collect();
    // The pages sharing the most of the question's words (at least two, when it has two).
    let needed = terms.len().min(2);
    let mut scored: Vec<(usize, &Page)> = world
        .pages
        .iter()
        .map(|p| {
            (
                terms.iter().filter(|t| contains_words(&p.lower, t)).count(),
                p,
            )
        })
        .filter(|(hits, _)| *hits >= needed.max(1))
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.published_ms.cmp(&a.1.published_ms)));
    let sources: Vec<&Page> = scored.into_iter().take(3).map(|(_, p)| p).collect();
    let mut out = format!(
        "Base rate: events of this kind resolve yes about {}% of the time within a comparable window.",
        15 + hash % 50
    );
    if sources.is_empty() {
        out.push_str(" No recent reporting on this question was found, so the estimate stays near the base rate.");
    } else {
        out.push_str(" Recent reporting considered:");
        for page in &sources {
            out.push_str(&format!(" \"{}\" ({});", page.title, page.link));
        }
    }
    if terms.iter().any(|t| t == "security") {
        let quoted = HOSTILE_SNIPPETS[(hash % HOSTILE_SNIPPETS.len() as u64) as usize];
        out.push_str(&format!(" One source was quoted as found: {quoted}"));
    }
    out.push_str(&format!(
        " Weighing these, the forecast is {:.0}%.",
        prediction * 100.0
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cutoffs_read_as_date_times_or_dates() {
        assert!(parse_time("2027-03-01T00:00:00Z").is_some());
        assert!(parse_time("2027-03-01T00:00:00+01:00").is_some());
        assert!(parse_time("2027-03-01").is_some());
        assert!(parse_time("next spring").is_none());
    }

    #[test]
    fn a_share_of_questions_fails() {
        let failing = (0..200)
            .filter(|n| {
                let q = Question {
                    query: Some(format!("Will event {n} happen?")),
                    ..Question::default()
                };
                fails(42, &q)
            })
            .count();
        assert!((10..50).contains(&failing), "{failing} of 200");
    }
}
