//! Checking a key with the service: one cheap billed call, recorded in the live history and
//! ledger like any other request. Verify checks a stored key; rotate checks the new value
//! before it replaces the old one.

use chrono::Utc;
use sightline_api::request::TwitterSearchRequest;
use sightline_api::ApiKey;

use crate::errors::CommandError;
use crate::keys::{parse_value, read_key, write_key, KeyForRequest};
use crate::pipeline::{self, Paging, SendOptions};
use crate::session::{Mode, Session};
use crate::settings::AppSettings;
use crate::state::{AppState, AppStatus};

/// One cheap billed call (an X search for a single post) with `key` against the live
/// service, recorded in the live history and ledger like any other request. `address`
/// replaces the configured one (the first run checks an address before it is saved).
pub(crate) async fn check_with_service(
    state: &AppState,
    key: ApiKey,
    label: &str,
    address: Option<&str>,
) -> Result<(), CommandError> {
    let settings = match address {
        // A check of a new address answers at once: no retries on a network error.
        Some(_) => AppSettings {
            retry_attempts: 1,
            ..state.settings()
        },
        None => state.settings(),
    };
    let session = Session::open(
        Mode::Live,
        state.store_of(Mode::Live).await?,
        &settings,
        address.or(state.environment.base_url.as_deref()),
        None,
    )?;
    let request = TwitterSearchRequest {
        count: 1,
        ..TwitterSearchRequest::new("news")
    };
    let send = SendOptions {
        request_id: format!(
            "key-check-{}-{}",
            label,
            Utc::now().timestamp_nanos_opt().unwrap_or_default()
        ),
        confirm_budget: true,
        paging: Paging::default(),
    };
    let key = KeyForRequest {
        key,
        label: Some(label.to_owned()),
    };
    pipeline::execute(state, &session, request, send, Some(key))
        .await
        .map(|_| ())
}

/// Checks stored key `label` with the live service (one cheap billed call) and records when
/// it passed.
pub async fn verify(state: &AppState, label: &str) -> Result<AppStatus, CommandError> {
    let key = read_key(state.secrets.clone(), label.to_owned()).await?;
    check_with_service(state, key, label, None).await?;
    let now = Utc::now().to_rfc3339();
    state
        .update_keys(|keys| {
            for meta in keys.keys.iter_mut().filter(|k| k.label == label) {
                meta.verified_at = Some(now.clone());
            }
        })
        .await
}

/// Replaces a key: the new value is checked with the service first, and the old one is
/// removed only once the new one works.
pub async fn rotate(
    state: &AppState,
    label: &str,
    new_value: &str,
) -> Result<AppStatus, CommandError> {
    if !state.keys().keys.iter().any(|k| k.label == label) {
        return Err(CommandError::not_found(format!(
            "There is no key named \"{label}\"."
        )));
    }
    let key = parse_value(new_value)?;
    check_with_service(state, key.clone(), label, None).await?;
    write_key(state.secrets.clone(), label.to_owned(), &key).await?;
    let (masked, now) = (key.masked(), Utc::now().to_rfc3339());
    state
        .update_keys(|keys| {
            for meta in keys.keys.iter_mut().filter(|k| k.label == label) {
                meta.masked = masked.clone();
                meta.verified_at = Some(now.clone());
            }
        })
        .await
}
