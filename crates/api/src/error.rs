//! One error type for every outcome of the contract's error table, each with a stable
//! kind and a message a non-programmer understands. The key never appears in it.

use std::fmt;
use std::time::Duration;

use reqwest::header::HeaderMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::billing::Charge;
use crate::capture::Capture;
use crate::key::KeyProblem;
use crate::stream::PartialStream;
use crate::transport::NetworkCause;
use crate::validation::FieldError;
use crate::wait::{self, plain_wait};
use crate::words::count_of;

/// Everything that can go wrong calling the service.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ApiError {
    /// No key was sent (401 `Unauthorized`), or none is configured.
    #[error("no API key")]
    MissingKey,
    /// A well-formed key the service refused (401).
    #[error("API key refused")]
    KeyRefused,
    /// The value is not an API key at all (403, or refused locally before sending).
    #[error("not an API key")]
    NotAnApiKey { problem: Option<KeyProblem> },
    /// Inputs the server (422) or our own checks refused; nothing was billed.
    #[error("invalid input: {}", count_of(fields.len() as u64, "field", "fields"))]
    Validation { fields: Vec<FieldError> },
    /// 402: the account has no credit left.
    #[error("out of credit")]
    OutOfCredit { detail: Option<String> },
    /// 429: wait before trying again.
    #[error("rate limited")]
    RateLimited { retry_after: Option<Duration> },
    /// 5xx.
    #[error("server error {status}")]
    Server { status: u16, detail: Option<String> },
    /// 301/302/307/308 that we did not follow (another host, or a POST).
    #[error("moved")]
    Moved { location: Option<String> },
    /// Could not reach the service; `cause` says why, as far as the transport can tell.
    #[error("network error: {detail}")]
    Network { cause: NetworkCause, detail: String },
    /// No answer in time after the request was sent: the service may have billed it.
    #[error("timed out")]
    Timeout,
    /// The connection broke after the request was sent, before the whole answer arrived (a
    /// reset, a body cut short): the service may have billed it.
    #[error("answer cut: {detail}")]
    AnswerCut { detail: String },
    /// The answer could not be read. One that arrived whole keeps what it cost and its bytes
    /// (`answer`), so that its charge is recorded and the answer kept as it came.
    #[error("malformed response: {detail}")]
    Malformed {
        status: u16,
        detail: String,
        answer: Option<Box<UnreadAnswer>>,
    },
    /// A status the contract does not list (e.g. 404).
    #[error("unexpected status {status}")]
    UnexpectedStatus { status: u16, detail: Option<String> },
    /// The stream ended before it was complete; what arrived is kept.
    #[error("stream interrupted after {}", count_of(received.event_count as u64, "event", "events"))]
    StreamCut {
        detail: String,
        received: Box<PartialStream>,
    },
    /// The service reported an error mid-stream (`{"error": …}`); what arrived is kept.
    #[error("stream failed: {message}")]
    StreamFailed {
        message: String,
        received: Box<PartialStream>,
    },
}

/// An answer that arrived but could not be decoded: the charge its headers (or body) stated
/// and the bytes exactly as received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnreadAnswer {
    pub billing: Option<Charge>,
    /// A billing header that could not be read, or headers and body disagreeing.
    pub billing_issue: Option<String>,
    pub capture: Capture,
}

impl From<KeyProblem> for ApiError {
    fn from(problem: KeyProblem) -> Self {
        match problem {
            KeyProblem::Empty => ApiError::MissingKey,
            other => ApiError::NotAnApiKey {
                problem: Some(other),
            },
        }
    }
}

/// The stable class of an API error, one per kind of failure: what history rows store, logs
/// show and the UI branches on. It crosses IPC as its snake_case name, e.g. `rate_limited`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum ErrorKind {
    MissingKey,
    KeyRefused,
    NotAnApiKey,
    Validation,
    OutOfCredit,
    RateLimited,
    /// A 5xx answer.
    ServerError,
    Moved,
    Network,
    Timeout,
    /// The connection broke after the request went out, before the whole answer arrived.
    AnswerCut,
    MalformedResponse,
    UnexpectedStatus,
    StreamCut,
    StreamFailed,
}

impl ErrorKind {
    pub const ALL: [ErrorKind; 15] = [
        ErrorKind::MissingKey,
        ErrorKind::KeyRefused,
        ErrorKind::NotAnApiKey,
        ErrorKind::Validation,
        ErrorKind::OutOfCredit,
        ErrorKind::RateLimited,
        ErrorKind::ServerError,
        ErrorKind::Moved,
        ErrorKind::Network,
        ErrorKind::Timeout,
        ErrorKind::AnswerCut,
        ErrorKind::MalformedResponse,
        ErrorKind::UnexpectedStatus,
        ErrorKind::StreamCut,
        ErrorKind::StreamFailed,
    ];

    /// The name on the wire and in stored rows, e.g. `rate_limited`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::MissingKey => "missing_key",
            ErrorKind::KeyRefused => "key_refused",
            ErrorKind::NotAnApiKey => "not_an_api_key",
            ErrorKind::Validation => "validation",
            ErrorKind::OutOfCredit => "out_of_credit",
            ErrorKind::RateLimited => "rate_limited",
            ErrorKind::ServerError => "server_error",
            ErrorKind::Moved => "moved",
            ErrorKind::Network => "network",
            ErrorKind::Timeout => "timeout",
            ErrorKind::AnswerCut => "answer_cut",
            ErrorKind::MalformedResponse => "malformed_response",
            ErrorKind::UnexpectedStatus => "unexpected_status",
            ErrorKind::StreamCut => "stream_cut",
            ErrorKind::StreamFailed => "stream_failed",
        }
    }

    /// The kind named `name` on the wire (`rate_limited`), as history rows store it.
    pub fn from_name(name: &str) -> Option<ErrorKind> {
        ErrorKind::ALL
            .into_iter()
            .find(|kind| kind.as_str() == name)
    }

    /// The request went out and no whole answer came back (a timeout, a cut answer): the
    /// service may have billed it, and only the user decides to send it again (a new request).
    /// Every other failure either had no billing (a 429, a 5xx, a refusal: the contract bills
    /// only successful answers) or never reached the service (`network`: no connection).
    pub fn may_have_billed(self) -> bool {
        matches!(self, ErrorKind::Timeout | ErrorKind::AnswerCut)
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl ApiError {
    /// Stable class, for history rows, telemetry-free logs and the UI.
    pub fn kind(&self) -> ErrorKind {
        match self {
            ApiError::MissingKey => ErrorKind::MissingKey,
            ApiError::KeyRefused => ErrorKind::KeyRefused,
            ApiError::NotAnApiKey { .. } => ErrorKind::NotAnApiKey,
            ApiError::Validation { .. } => ErrorKind::Validation,
            ApiError::OutOfCredit { .. } => ErrorKind::OutOfCredit,
            ApiError::RateLimited { .. } => ErrorKind::RateLimited,
            ApiError::Server { .. } => ErrorKind::ServerError,
            ApiError::Moved { .. } => ErrorKind::Moved,
            ApiError::Network { .. } => ErrorKind::Network,
            ApiError::Timeout => ErrorKind::Timeout,
            ApiError::AnswerCut { .. } => ErrorKind::AnswerCut,
            ApiError::Malformed { .. } => ErrorKind::MalformedResponse,
            ApiError::UnexpectedStatus { .. } => ErrorKind::UnexpectedStatus,
            ApiError::StreamCut { .. } => ErrorKind::StreamCut,
            ApiError::StreamFailed { .. } => ErrorKind::StreamFailed,
        }
    }

    /// Whether trying the same request again later may succeed.
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            ApiError::RateLimited { .. }
                | ApiError::Server { .. }
                | ApiError::Network { .. }
                | ApiError::Timeout
                | ApiError::AnswerCut { .. }
                | ApiError::StreamCut { .. }
        )
    }

    /// Whether the client may send the same request again by itself: only when the service
    /// billed nothing for this attempt — a 429 or a 5xx (errors carry no billing), or no
    /// connection at all (`network`: no such host, refused, a certificate refused, offline).
    /// After a timeout or a cut answer the first may have been billed: never automatically.
    pub fn may_repeat_unasked(&self) -> bool {
        matches!(
            self,
            ApiError::RateLimited { .. } | ApiError::Server { .. } | ApiError::Network { .. }
        )
    }

    /// What to tell the person using the app.
    pub fn user_message(&self) -> String {
        match self {
            ApiError::MissingKey => {
                "No API key was sent. Add your key in Settings, then try again.".into()
            }
            ApiError::KeyRefused => "The service did not accept your API key. It may have been \
                 revoked or mistyped: replace it in Settings with the key from your account page."
                .into(),
            ApiError::NotAnApiKey { problem } => match problem {
                Some(p) => p.to_string(),
                None => "The service says the value you saved is not an API key at all (it \
                     looks like a placeholder, a shortened key or a login token). Copy the \
                     key that starts with \"dt_\" or \"dsr_\" from your account page and save \
                     it in Settings."
                    .into(),
            },
            ApiError::Validation { fields } => {
                let mut text = String::from("Some inputs need changing before this can be sent:");
                for f in fields {
                    text.push_str(&format!(" {}: {}", f.field, f.message));
                }
                text
            }
            ApiError::OutOfCredit { .. } => "Your account has run out of credit. Add credit on \
                 your account page, then try again. Nothing was charged for this request."
                .into(),
            ApiError::RateLimited { retry_after } => match retry_after {
                Some(wait) => format!(
                    "Too many requests in a short time. Please wait {} and try again.",
                    plain_wait(*wait)
                ),
                None => {
                    "Too many requests in a short time. Please wait a minute and try again.".into()
                }
            },
            ApiError::Server { .. } => "The service had a problem answering this request. \
                 This is usually temporary: try again in a moment."
                .into(),
            ApiError::Moved { .. } => "The service has moved to a different address, so the \
                 request was not sent there with your key. Check the service address in \
                 Settings or update the app."
                .into(),
            ApiError::Network { cause, .. } => match cause {
                NetworkCause::NoSuchHost => "The service address does not lead anywhere: no \
                     computer has that name. Check the address in Settings for a typo."
                    .into(),
                NetworkCause::Refused => "Nothing answered at the service address: the computer \
                     is there but refuses the connection. Check the address (and its port) in \
                     Settings."
                    .into(),
                NetworkCause::BadCertificate => "The service address has a security \
                     certificate that cannot be trusted (self-signed, expired or for another \
                     name), so nothing was sent. Check the address in Settings."
                    .into(),
                NetworkCause::Offline | NetworkCause::Other => "Could not reach the service. \
                     Check your internet connection and the service address in Settings, then \
                     try again."
                    .into(),
            },
            ApiError::Timeout => "The service took too long to answer. It may have billed this \
                 request even so; send it again only if you need the answer (it may be billed \
                 again). If it keeps happening, ask for fewer results."
                .into(),
            ApiError::AnswerCut { .. } => "The connection broke after the request was sent, \
                 before the whole answer arrived. The service may have billed this request; \
                 send it again only if you need the answer (it may be billed again)."
                .into(),
            ApiError::Malformed { .. } => "The service sent an answer the app could not read. \
                 Try again later; if it persists, the app may need an update."
                .into(),
            ApiError::UnexpectedStatus { status, .. } => format!(
                "The service answered in an unexpected way (code {status}). Try again later; \
                 if it persists, the app may need an update."
            ),
            ApiError::StreamCut { received, .. } => {
                let kept = match received.event_count {
                    0 => "Nothing had arrived yet".to_owned(),
                    n => format!(
                        "The {} that arrived {} kept",
                        count_of(n as u64, "part", "parts"),
                        if n == 1 { "is" } else { "are" }
                    ),
                };
                format!(
                    "The connection was cut before the answer was complete. {kept}; you can run \
                     the search again for the rest."
                )
            }
            ApiError::StreamFailed { .. } => "The service stopped with an error while \
                 answering. What arrived before the error is kept; try again in a moment."
                .into(),
        }
    }

    /// The form of the error that crosses IPC.
    pub fn payload(&self) -> ErrorPayload {
        let mut p = ErrorPayload {
            kind: self.kind(),
            message: self.user_message(),
            fields: Vec::new(),
            retry_after_secs: None,
            status: None,
            received_events: None,
            network_cause: None,
        };
        match self {
            ApiError::Validation { fields } => p.fields = fields.clone(),
            ApiError::RateLimited { retry_after } => {
                p.retry_after_secs = retry_after.map(|d| d.as_secs());
                p.status = Some(429);
            }
            ApiError::Server { status, .. }
            | ApiError::Malformed { status, .. }
            | ApiError::UnexpectedStatus { status, .. } => p.status = Some(*status),
            ApiError::StreamCut { received, .. } | ApiError::StreamFailed { received, .. } => {
                p.received_events = Some(received.event_count)
            }
            ApiError::OutOfCredit { .. } => p.status = Some(402),
            ApiError::KeyRefused | ApiError::MissingKey => p.status = Some(401),
            ApiError::Network { cause, .. } => p.network_cause = Some(*cause),
            _ => {}
        }
        p
    }
}

/// Tagged, serialisable form of [`ApiError`] for the UI.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct ErrorPayload {
    /// Stable class, e.g. `rate_limited`.
    pub kind: ErrorKind,
    /// Plain-words message.
    pub message: String,
    /// Field errors, for `validation`.
    pub fields: Vec<FieldError>,
    /// Seconds to wait, for `rate_limited`.
    pub retry_after_secs: Option<u64>,
    pub status: Option<u16>,
    /// Events kept from an interrupted stream.
    pub received_events: Option<usize>,
    /// Why the service could not be reached, for `network`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub network_cause: Option<NetworkCause>,
}

impl Serialize for ApiError {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.payload().serialize(s)
    }
}

/// Reads `Retry-After` (seconds, or an HTTP date) or the body's `retry_after` (`"60 seconds"`,
/// `60`), through [`crate::wait`]: capped at a day, and unknown when it is not a wait at all.
pub fn retry_after(headers: &HeaderMap, body: Option<&Value>) -> Option<Duration> {
    let now = chrono::Utc::now();
    let from_header = headers
        .get(reqwest::header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .and_then(|text| wait::parse(text, now));
    from_header.or_else(|| {
        let detail = body?.get("detail").unwrap_or(body?);
        match detail
            .get("retry_after")
            .or_else(|| body?.get("retry_after"))?
        {
            Value::Number(n) => n.as_f64().and_then(wait::from_secs),
            Value::String(s) => wait::parse(s, now),
            _ => None,
        }
    })
}

/// A readable text from `detail` (string, object with `message`/`description`, or array)
/// or from `error`.
fn detail_text(body: &Value) -> Option<String> {
    let pick = |v: &Value| -> Option<String> {
        match v {
            Value::String(s) => Some(s.clone()),
            Value::Object(o) => ["message", "description", "reason", "error"]
                .iter()
                .find_map(|k| o.get(*k).and_then(Value::as_str).map(str::to_owned)),
            Value::Array(items) => items
                .iter()
                .find_map(|i| i.get("msg").and_then(Value::as_str).map(str::to_owned)),
            _ => None,
        }
    };
    body.get("detail")
        .and_then(pick)
        .or_else(|| body.get("error").and_then(pick))
}

/// Maps the server's 422 `detail` array onto our field names, in plain words.
pub fn validation_fields(body: &Value) -> Vec<FieldError> {
    let Some(items) = body.get("detail").and_then(Value::as_array) else {
        return vec![FieldError::new(
            "",
            detail_text(body).unwrap_or_else(|| "The service refused these inputs.".into()),
        )];
    };
    items
        .iter()
        .map(|item| {
            let loc: Vec<String> = item
                .get("loc")
                .and_then(Value::as_array)
                .map(|l| {
                    l.iter()
                        .map(|p| match p {
                            Value::String(s) => s.clone(),
                            other => other.to_string(),
                        })
                        .collect()
                })
                .unwrap_or_default();
            let field = match loc.first().map(String::as_str) {
                Some("query" | "body" | "path" | "header") => loc.get(1).cloned(),
                _ => loc.last().cloned(),
            }
            .unwrap_or_default();
            FieldError::new(field, plain_validation_message(item))
        })
        .collect()
}

fn plain_validation_message(item: &Value) -> String {
    let kind = item.get("type").and_then(Value::as_str).unwrap_or("");
    let ctx = item.get("ctx");
    let ctx_val = |k: &str| {
        ctx.and_then(|c| c.get(k)).map(|v| match v {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        })
    };
    match kind {
        "missing" => "This field is required.".into(),
        "less_than_equal" => format!(
            "Use a number no larger than {}.",
            ctx_val("le").unwrap_or_default()
        ),
        "less_than" => format!(
            "Use a number smaller than {}.",
            ctx_val("lt").unwrap_or_default()
        ),
        "greater_than_equal" => format!(
            "Use a number of at least {}.",
            ctx_val("ge").unwrap_or_default()
        ),
        "greater_than" => format!(
            "Use a number larger than {}.",
            ctx_val("gt").unwrap_or_default()
        ),
        "int_parsing" | "int_type" | "int_from_float" => "Enter a whole number.".into(),
        "bool_parsing" | "bool_type" => "Choose yes or no.".into(),
        "enum" | "literal_error" => format!(
            "Choose one of: {}.",
            ctx_val("expected").unwrap_or_else(|| "the listed values".into())
        ),
        "string_pattern_mismatch" => match ctx_val("pattern") {
            Some(p) if p.contains("Top") => "Choose Top or Latest.".into(),
            _ => "This value is not in the expected form.".into(),
        },
        _ => {
            let msg = item
                .get("msg")
                .and_then(Value::as_str)
                .unwrap_or("This value is not accepted");
            let msg = msg.trim_end_matches('.');
            format!("{msg}.")
        }
    }
}

/// Classifies a non-success answer. `key` lets us scrub the key from any echoed text.
pub fn classify(status: u16, headers: &HeaderMap, body_text: &str, key: Option<&str>) -> ApiError {
    let body: Option<Value> = serde_json::from_str(body_text).ok();
    let scrub = |s: String| match key {
        Some(k) if !k.is_empty() => s.replace(k, "<redacted>"),
        _ => s,
    };
    let detail = body.as_ref().and_then(detail_text).map(scrub);
    match status {
        // With a key sent, any 401 means it was refused; without one, it was missing.
        401 if key.is_none_or(str::is_empty) => ApiError::MissingKey,
        401 => ApiError::KeyRefused,
        402 => ApiError::OutOfCredit { detail },
        403 => ApiError::NotAnApiKey { problem: None },
        422 => ApiError::Validation {
            fields: body
                .as_ref()
                .map(validation_fields)
                .unwrap_or_else(|| vec![FieldError::new("", "The service refused these inputs.")])
                .into_iter()
                .map(|f| FieldError::new(f.field, scrub(f.message)))
                .collect(),
        },
        429 => ApiError::RateLimited {
            retry_after: retry_after(headers, body.as_ref()),
        },
        301 | 302 | 303 | 307 | 308 => ApiError::Moved {
            location: headers
                .get(reqwest::header::LOCATION)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
                .or_else(|| {
                    body.as_ref()?
                        .get("detail")?
                        .get("location")?
                        .as_str()
                        .map(str::to_owned)
                }),
        },
        500..=599 => ApiError::Server { status, detail },
        _ => ApiError::UnexpectedStatus { status, detail },
    }
}

#[cfg(test)]
mod tests;
