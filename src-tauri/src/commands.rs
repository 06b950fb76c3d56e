//! Tauri commands: thin adapters that read state, call the owning module and map errors.

use serde::Serialize;
use tauri::State;
use ts_rs::TS;

use crate::keychain::KeychainStatus;
use crate::state::AppState;

/// What Settings shows about this installation.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct AppInfo {
    pub version: String,
    pub data_dir: String,
    pub keychain: KeychainStatus,
    /// True when `SIGHTLINE_DEMO=1` forces demo mode.
    pub demo_forced: bool,
}

#[tauri::command]
pub async fn app_info(state: State<'_, AppState>) -> Result<AppInfo, String> {
    let secrets = state.secrets.clone();
    // The keychain answers over D-Bus (or the OS equivalent): keep it off the UI thread.
    let keychain = tauri::async_runtime::spawn_blocking(move || secrets.status())
        .await
        .map_err(|error| format!("Could not check the keychain: {error}"))?;
    Ok(AppInfo {
        version: env!("CARGO_PKG_VERSION").to_owned(),
        data_dir: state.data_dir.display().to_string(),
        keychain,
        demo_forced: state.environment.force_demo,
    })
}
