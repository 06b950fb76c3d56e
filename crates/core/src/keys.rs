//! Named API keys: values in the keychain, labels and masked forms in keys.json. Every value
//! is checked for the shape of a key before it is stored, and checked with the service on
//! request (`key_check`), so a login token or a placeholder never gets as far as a billed call.

use std::sync::Arc;

use chrono::Utc;
use sightline_api::{ApiKey, FieldError};

use crate::errors::CommandError;
use crate::keychain::{Secret, SecretStore};
use crate::session::Session;
use crate::settings::{KeyList, KeyMeta};
use crate::state::{AppState, AppStatus};

/// The key a request is sent with, and the label history records instead of it.
pub struct KeyForRequest {
    /// The key itself, for the request header only.
    pub key: ApiKey,
    /// The key's name (`None` in demo mode), recorded in History.
    pub label: Option<String>,
}

/// The key for the next request: the demo key in demo mode, else the active key from the
/// keychain (read on a blocking thread: the keychain may answer slowly).
pub(crate) async fn for_request(
    state: &AppState,
    session: &Session,
) -> Result<KeyForRequest, CommandError> {
    if let Some(key) = &session.demo_key {
        return Ok(KeyForRequest {
            key: key.clone(),
            label: Some("demo".into()),
        });
    }
    let label = state.keys().active.ok_or_else(|| CommandError::Keychain {
        message: "No API key is active. Add your key in Settings → Keys.".into(),
    })?;
    let key = read_key(state.secrets.clone(), label.clone()).await?;
    Ok(KeyForRequest {
        key,
        label: Some(label),
    })
}

const MAX_LABEL: usize = 40;

fn field(name: &str, message: impl Into<String>) -> CommandError {
    CommandError::invalid(vec![FieldError::new(name, message)])
}

pub(crate) fn check_label(
    label: &str,
    keys: &KeyList,
    except: Option<&str>,
) -> Result<String, CommandError> {
    let label = label.trim();
    if label.is_empty() {
        return Err(field("label", "Give the key a name, for example \"work\"."));
    }
    if label == crate::signing::KEYCHAIN_LABEL {
        // The signing key's keychain entry has this name: a key under it would replace it.
        return Err(field(
            "label",
            "This name is reserved for Sightline's signing key. Choose another name.",
        ));
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
pub(crate) fn parse_value(value: &str) -> Result<ApiKey, CommandError> {
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

/// The value of key `label` from the keychain (read on a blocking thread).
pub(crate) async fn read_key(
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

pub(crate) async fn write_key(
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

/// Adds a key without checking it with the service: its name and value checked, the value
/// in the keychain; the first key becomes the active one.
pub async fn add(state: &AppState, label: &str, value: &str) -> Result<AppStatus, CommandError> {
    let label = check_label(label, &state.keys(), None)?;
    let key = parse_value(value)?;
    store_new(state, label, &key, None).await
}

/// Stores a new key (value in the keychain, then its label and masked form); `verified_at`
/// when it was just checked with the service.
pub(crate) async fn store_new(
    state: &AppState,
    label: String,
    key: &ApiKey,
    verified_at: Option<String>,
) -> Result<AppStatus, CommandError> {
    write_key(state.secrets.clone(), label.clone(), key).await?;
    let meta = KeyMeta {
        label: label.clone(),
        masked: key.masked(),
        added_at: Utc::now().to_rfc3339(),
        verified_at,
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

/// Renames key `label` (its keychain entry moves to the new name).
pub async fn rename(
    state: &AppState,
    label: &str,
    new_label: &str,
) -> Result<AppStatus, CommandError> {
    let keys = state.keys();
    if !keys.keys.iter().any(|k| k.label == label) {
        return Err(CommandError::not_found(format!(
            "There is no key named \"{label}\"."
        )));
    }
    let new_label = check_label(new_label, &keys, Some(label))?;
    if new_label == label {
        return Ok(state.status());
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

/// Makes key `label` the one live requests use, and leaves demo data.
pub async fn set_active(state: &AppState, label: &str) -> Result<AppStatus, CommandError> {
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

/// Deletes key `label` from the keychain and the list; if it was active, the first key left
/// becomes active.
pub async fn delete(state: &AppState, label: &str) -> Result<AppStatus, CommandError> {
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
pub async fn use_demo(state: &AppState, demo: bool) -> Result<AppStatus, CommandError> {
    state.update_keys(|keys| keys.use_demo = demo).await
}
