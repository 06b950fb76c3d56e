//! The first key, in one step: the welcome's key and, when none is known yet, the service's
//! address, checked together with one cheap request (the same billed call as `key_check`)
//! before anything is kept. A failed check names its [`SetupProblem`] and the field to fix;
//! nothing reaches the keychain, keys.json or settings.json until the check passes, or until
//! the user chooses to save anyway and check later, which is offered only when the failure
//! may be the network's rather than a wrong address or key.

use chrono::Utc;
use serde::{Deserialize, Serialize};
use sightline_api::{ErrorKind, FieldError, NetworkCause};
use ts_rs::TS;

use crate::errors::CommandError;
use crate::key_check::check_with_service;
use crate::keys::{check_label, parse_value, store_new};
use crate::settings::AppSettings;
use crate::state::{AppState, AppStatus};

/// What the welcome sends: a name and value for the key, and the address unless one is known.
#[derive(Debug, Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct FirstKey {
    /// The name the key is kept under (the same rules as any key's name).
    pub label: String,
    /// The key itself; it goes to the keychain and the check's request header, nowhere else.
    pub value: String,
    /// The service's address; `None` uses the one already known (environment or settings).
    pub address: Option<String>,
    /// Save without the check (the user chose "save anyway, check later").
    pub check_later: bool,
}

/// Why the check failed, in the terms a person can act on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum SetupProblem {
    /// No computer has the address's name.
    NoSuchHost,
    /// The computer is there, but nothing listens at that port.
    Refused,
    /// The address's TLS certificate cannot be trusted; the key was not sent.
    BadCertificate,
    /// Something answered, but not as the service does (a web page, a 404, a redirect away).
    NotThisService,
    /// No answer in time.
    NoAnswer,
    /// The service refused the key (401).
    KeyRefused,
    /// The service says the value is not an API key at all (403).
    NotAKey,
    /// No network: the name could not be looked up, or there is no route.
    Offline,
    /// The connection failed in another way (reset, or a handshake with something odd).
    Unreachable,
    /// The service is there but could not answer now (5xx, or too many requests).
    ServiceTrouble,
}

/// The field a problem belongs next to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum SetupField {
    /// The service's address.
    Address,
    /// The key's value.
    Key,
}

impl SetupProblem {
    /// The field to fix (`None`: neither; the network or the service).
    pub fn field(self) -> Option<SetupField> {
        match self {
            Self::NoSuchHost
            | Self::Refused
            | Self::BadCertificate
            | Self::NotThisService
            | Self::NoAnswer => Some(SetupField::Address),
            Self::KeyRefused | Self::NotAKey => Some(SetupField::Key),
            Self::Offline | Self::Unreachable | Self::ServiceTrouble => None,
        }
    }

    /// The failure may be the network's or the service's, not a wrong address or key: the
    /// user may keep what they typed and check later.
    pub fn may_save_anyway(self) -> bool {
        matches!(
            self,
            Self::NoAnswer | Self::Offline | Self::Unreachable | Self::ServiceTrouble
        )
    }

    /// What a failed check means for the first key.
    fn of(error: &CommandError) -> Verdict {
        let CommandError::Service { error, .. } = error else {
            return Verdict::NotTheChecks;
        };
        let problem = match error.kind {
            // Out of credit: the key and address are right; the first search will say the rest.
            ErrorKind::OutOfCredit => return Verdict::Accepted,
            ErrorKind::KeyRefused | ErrorKind::MissingKey => Self::KeyRefused,
            ErrorKind::NotAnApiKey => Self::NotAKey,
            ErrorKind::Timeout => Self::NoAnswer,
            ErrorKind::AnswerCut => Self::Unreachable,
            ErrorKind::RateLimited | ErrorKind::ServerError => Self::ServiceTrouble,
            ErrorKind::Network => match error.network_cause {
                Some(NetworkCause::NoSuchHost) => Self::NoSuchHost,
                Some(NetworkCause::Refused) => Self::Refused,
                Some(NetworkCause::BadCertificate) => Self::BadCertificate,
                Some(NetworkCause::Offline) => Self::Offline,
                Some(NetworkCause::Other) | None => Self::Unreachable,
            },
            // An answer, but not the service's: a page, a 404, a redirect elsewhere, a body
            // that is not the service's JSON, or a refusal of a request the service accepts.
            ErrorKind::Moved
            | ErrorKind::MalformedResponse
            | ErrorKind::UnexpectedStatus
            | ErrorKind::Validation
            | ErrorKind::StreamCut
            | ErrorKind::StreamFailed => Self::NotThisService,
        };
        Verdict::Failed(problem)
    }
}

/// What a failed check means: the key works after all, a problem to show, or a failure that
/// is not the check's (the keychain, the database, a budget), reported as it is.
enum Verdict {
    Accepted,
    Failed(SetupProblem),
    NotTheChecks,
}

/// The welcome's answer: saved (checked, or by the user's choice without), or not saved and why.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(
    tag = "outcome",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
#[ts(export)]
pub enum FirstKeyOutcome {
    /// The key (and the address) are kept.
    Saved {
        /// The app's status with the new key, for the sidebar and Settings.
        status: AppStatus,
        /// The service accepted the key; false when saved to check later.
        checked: bool,
    },
    /// Nothing was kept: the problem, next to its field.
    NotSaved {
        /// What went wrong, for the words shown.
        problem: SetupProblem,
        /// The field to show the problem next to; `None` for the form as a whole.
        field: Option<SetupField>,
        /// The HTTP status of an answer that was not the service's, to say what answered.
        status: Option<u16>,
        /// The failure may not be the address's or the key's: offer "save anyway, check later".
        may_save_anyway: bool,
    },
}

fn address_error(message: impl Into<String>) -> CommandError {
    CommandError::invalid(vec![FieldError::new("address", message)])
}

/// The address to check: the one typed, else the one known. Refused before any request when
/// it is not an http(s) address.
fn address_to_check(state: &AppState, typed: Option<&str>) -> Result<String, CommandError> {
    let typed = typed.map(str::trim).filter(|a| !a.is_empty());
    let Some(address) = typed
        .map(str::to_owned)
        .or_else(|| state.environment.base_url.clone())
        .or_else(|| state.settings().base_url)
    else {
        return Err(address_error(
            "Enter the service's address, starting with https://",
        ));
    };
    let candidate = AppSettings {
        base_url: Some(address.clone()),
        ..AppSettings::default()
    };
    if let Err(problems) = candidate.validate() {
        let message = problems
            .into_iter()
            .find(|p| p.field == "baseUrl")
            .map_or_else(String::new, |p| p.message);
        if !message.is_empty() {
            return Err(address_error(message));
        }
    }
    Ok(address.trim_end_matches('/').to_owned())
}

/// Checks the key at the address, then keeps both; or says what stopped it, keeping nothing.
pub async fn connect(state: &AppState, first: FirstKey) -> Result<FirstKeyOutcome, CommandError> {
    let label = check_label(&first.label, &state.keys(), None)?;
    let key = parse_value(&first.value)?;
    let address = address_to_check(state, first.address.as_deref())?;
    let checked = if first.check_later {
        false
    } else {
        match check_with_service(state, key.clone(), &label, Some(&address)).await {
            Ok(()) => true,
            Err(error) => match SetupProblem::of(&error) {
                Verdict::Accepted => true,
                Verdict::Failed(problem) => {
                    tracing::info!(?problem, "first key not saved: the check failed");
                    let status = match &error {
                        CommandError::Service { error, .. } => error.status,
                        _ => None,
                    };
                    return Ok(FirstKeyOutcome::NotSaved {
                        problem,
                        field: problem.field(),
                        status: status.filter(|_| problem == SetupProblem::NotThisService),
                        may_save_anyway: problem.may_save_anyway(),
                    });
                }
                Verdict::NotTheChecks => return Err(error),
            },
        }
    };
    let verified_at = checked.then(|| Utc::now().to_rfc3339());
    store_new(state, label, &key, verified_at).await?;
    // The address is kept only when it was typed here; a known one is already where it belongs.
    if first
        .address
        .as_deref()
        .is_some_and(|a| !a.trim().is_empty())
    {
        let settings = AppSettings {
            base_url: Some(address),
            ..state.settings()
        };
        state.save_settings(settings).await?;
    }
    Ok(FirstKeyOutcome::Saved {
        status: state.status(),
        checked,
    })
}
