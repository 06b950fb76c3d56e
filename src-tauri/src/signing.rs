//! The signing identity's commands (Settings → Signing identity): each calls one function of
//! `sightline_core::signing`; the public key's export is written by hand (the save dialog).

use sightline_core::errors::CommandError;
use sightline_core::signing::{self, SigningIdentity};
use sightline_core::state::AppState;
use tauri::{AppHandle, Runtime, State};

use crate::surface::define_commands;

define_commands! {
    read signing_identity() -> SigningIdentity = |state| signing::identity(state).await;
    set signing_collector_set(collected_by: Option<String>) -> SigningIdentity
        = |state| signing::set_collector(state, collected_by).await;
    set signing_rotate() -> SigningIdentity = |state| signing::rotate(state).await;
    hand signing_key_export() -> Option<String>;
}

/// Saves the current public key as PEM where the user says (or in the export folder); `None`
/// when the save dialog is cancelled.
#[tauri::command]
pub async fn signing_key_export<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
) -> Result<Option<String>, CommandError> {
    let name = "sightline-signing-key";
    let Some(path) = crate::export::pick_path(&app, &state, name, "pem").await? else {
        return Ok(None);
    };
    signing::export_public_key(&state, path.clone()).await?;
    Ok(Some(path.display().to_string()))
}
