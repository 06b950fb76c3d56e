//! Named API keys: values in the keychain, labels and masked forms in keys.json. Every value
//! is checked for the shape of a key before it is stored, and checked with the service on
//! request, so a login token or a placeholder never gets as far as a billed call.

use std::sync::Arc;

use chrono::Utc;
use sightline_api::request::TwitterSearchRequest;
use sightline_api::{ApiKey, FieldError};

use crate::errors::CommandError;
use crate::keychain::{Secret, SecretStore};
use crate::pipeline::{self, Paging, SendOptions};
use crate::session::{Mode, Session};
use crate::settings::{KeyList, KeyMeta};
use crate::state::{AppState, KeyForRequest};

const MAX_LABEL: usize = 40;

fn field(name: &str, message: impl Into<String>) -> CommandError {
    CommandError::invalid(vec![FieldError::new(name, message)])
}

fn check_label(label: &str, keys: &KeyList, except: Option<&str>) -> Result<String, CommandError> {
    let label = label.trim();
    if label.is_empty() {
        return Err(field("label", "Give the key a name, for example \"work\"."));
    }
    if label.chars().count() > MAX_LABEL {
        return Err(field(
            "label",
            format!("Keep the name under {MAX_LABEL} characters."),
        ));
    }
    if keys
        .keys
        .iter()
        .any(|k| k.label == label && Some(k.label.as_str()) != except)
    {
        return Err(field(
            "label",
            "A key with this name exists already. Choose another name.",
        ));
    }
    Ok(label.to_owned())
}

/// The shape check, with the contract's plain explanation for each problem.
fn parse_value(value: &str) -> Result<ApiKey, CommandError> {
    ApiKey::parse(value).map_err(|problem| field("value", problem.to_string()))
}

async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, CommandError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|error| CommandError::Keychain {
            message: format!("The keychain did not answer: {error}"),
        })
}

pub async fn read_key(
    secrets: Arc<dyn SecretStore>,
    label: String,
) -> Result<ApiKey, CommandError> {
    let stored = blocking(move || secrets.get(&label)).await??;
    let secret = stored.ok_or_else(|| CommandError::Keychain {
        message: "The active key is missing from the keychain. Add it again in Settings → Keys."
            .into(),
    })?;
    ApiKey::parse(secret.expose()).map_err(|problem| CommandError::Keychain {
        message: problem.to_string(),
    })
}

async fn write_key(
    secrets: Arc<dyn SecretStore>,
    label: String,
    key: &ApiKey,
) -> Result<(), CommandError> {
    let secret = Secret::new(key.expose());
    blocking(move || secrets.set(&label, &secret)).await??;
    Ok(())
}

async fn remove_key(secrets: Arc<dyn SecretStore>, label: String) -> Result<(), CommandError> {
    blocking(move || secrets.delete(&label)).await??;
    Ok(())
}

pub async fn add(state: &AppState, label: &str, value: &str) -> Result<KeyList, CommandError> {
    let label = check_label(label, &state.keys(), None)?;
    let key = parse_value(value)?;
    write_key(state.secrets.clone(), label.clone(), &key).await?;
    let meta = KeyMeta {
        label: label.clone(),
        masked: key.masked(),
        added_at: Utc::now().to_rfc3339(),
        verified_at: None,
    };
    state
        .update_keys(|keys| {
            keys.keys.push(meta);
            // The first key becomes active at once: going live is one step.
            if keys.active.is_none() {
                keys.active = Some(label);
                keys.use_demo = false;
            }
        })
        .await
}

pub async fn rename(
    state: &AppState,
    label: &str,
    new_label: &str,
) -> Result<KeyList, CommandError> {
    let keys = state.keys();
    if !keys.keys.iter().any(|k| k.label == label) {
        return Err(CommandError::not_found(format!(
            "There is no key named \"{label}\"."
        )));
    }
    let new_label = check_label(new_label, &keys, Some(label))?;
    if new_label == label {
        return Ok(keys);
    }
    let key = read_key(state.secrets.clone(), label.to_owned()).await?;
    write_key(state.secrets.clone(), new_label.clone(), &key).await?;
    remove_key(state.secrets.clone(), label.to_owned()).await?;
    state
        .update_keys(|keys| {
            for meta in keys.keys.iter_mut().filter(|k| k.label == label) {
                meta.label = new_label.clone();
            }
            if keys.active.as_deref() == Some(label) {
                keys.active = Some(new_label.clone());
            }
        })
        .await
}

pub async fn set_active(state: &AppState, label: &str) -> Result<KeyList, CommandError> {
    if !state.keys().keys.iter().any(|k| k.label == label) {
        return Err(CommandError::not_found(format!(
            "There is no key named \"{label}\"."
        )));
    }
    state
        .update_keys(|keys| {
            keys.active = Some(label.to_owned());
            keys.use_demo = false;
        })
        .await
}

pub async fn delete(state: &AppState, label: &str) -> Result<KeyList, CommandError> {
    remove_key(state.secrets.clone(), label.to_owned()).await?;
    state
        .update_keys(|keys| {
            keys.keys.retain(|k| k.label != label);
            if keys.active.as_deref() == Some(label) {
                keys.active = keys.keys.first().map(|k| k.label.clone());
            }
        })
        .await
}

/// Demo data or the active key, by the user's choice.
pub async fn use_demo(state: &AppState, demo: bool) -> Result<KeyList, CommandError> {
    state.update_keys(|keys| keys.use_demo = demo).await
}

/// One cheap billed call (an X search for a single post) with `key` against the live
/// service, recorded in the live history and ledger like any other request.
async fn check_with_service(
    state: &AppState,
    key: ApiKey,
    label: &str,
) -> Result<(), CommandError> {
    let session = Session::open(
        Mode::Live,
        state.store_of(Mode::Live).await?,
        &state.settings(),
        state.environment.base_url.as_deref(),
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

pub async fn verify(state: &AppState, label: &str) -> Result<KeyList, CommandError> {
    let key = read_key(state.secrets.clone(), label.to_owned()).await?;
    check_with_service(state, key, label).await?;
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
) -> Result<KeyList, CommandError> {
    if !state.keys().keys.iter().any(|k| k.label == label) {
        return Err(CommandError::not_found(format!(
            "There is no key named \"{label}\"."
        )));
    }
    let key = parse_value(new_value)?;
    check_with_service(state, key.clone(), label).await?;
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
