//! Export commands: the core collects and writes the rows; this asks where, with the system's
//! save dialog, unless Settings names an export folder.

use std::path::PathBuf;

use chrono::NaiveDate;
use sightline_core::errors::CommandError;
use sightline_core::export::{self, ExportFormat};
use sightline_core::forecast::export as forecast_export;
use sightline_core::state::AppState;
use sightline_store::{HistoryQuery, PostQuery};
use tauri::{AppHandle, Runtime, State};
use tauri_plugin_dialog::DialogExt;

/// Where to save: the export folder from Settings, or the system's save dialog (`None` when the
/// user cancels it).
async fn pick_path<R: Runtime>(
    app: &AppHandle<R>,
    state: &AppState,
    name: &str,
    format: ExportFormat,
) -> Result<Option<PathBuf>, CommandError> {
    pick_path_for(app, state, name, format.extension()).await
}

/// [`pick_path`] for a file of any extension (the analysis's `gexf`, `png`, `svg`).
pub(crate) async fn pick_path_for<R: Runtime>(
    app: &AppHandle<R>,
    state: &AppState,
    name: &str,
    extension: &str,
) -> Result<Option<PathBuf>, CommandError> {
    if let Some(folder) = state.settings().export_folder.as_deref() {
        return export::new_file_in_folder(
            std::path::Path::new(folder.trim()),
            name,
            extension,
            chrono::Local::now(),
        )
        .map(Some);
    }
    let (tx, rx) = tokio::sync::oneshot::channel();
    let extension = extension.to_owned();
    app.dialog()
        .file()
        .set_file_name(format!("{name}.{extension}"))
        .add_filter(extension.to_uppercase(), &[extension.as_str()])
        .save_file(move |path| {
            let _ = tx.send(path.and_then(|path| path.into_path().ok()));
        });
    Ok(rx.await.ok().flatten())
}

#[tauri::command]
pub async fn export_history<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    query: HistoryQuery,
    ids: Option<Vec<i64>>,
    format: ExportFormat,
) -> Result<Option<String>, CommandError> {
    let entries = export::history_rows(&state.store().await?, &query, ids).await?;
    let Some(path) = pick_path(&app, &state, "sightline-history", format).await? else {
        return Ok(None);
    };
    export::write_history(&entries, format, &path)?;
    Ok(Some(path.display().to_string()))
}

#[tauri::command]
pub async fn export_posts<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    query: PostQuery,
    format: ExportFormat,
) -> Result<Option<String>, CommandError> {
    let posts = export::post_rows(&state.store().await?, query).await?;
    let Some(path) = pick_path(&app, &state, "sightline-posts", format).await? else {
        return Ok(None);
    };
    export::write_posts(&posts, format, &path)?;
    Ok(Some(path.display().to_string()))
}

/// Forecasts with their own fields: a hand-picked selection (`ids`), or every forecast `query`
/// matches; Markdown is the citation list. Local times are in the user's zone.
#[tauri::command]
pub async fn export_forecasts<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    query: HistoryQuery,
    ids: Option<Vec<i64>>,
    format: ExportFormat,
) -> Result<Option<String>, CommandError> {
    let rows = forecast_export::forecast_rows(&state.store().await?, &query, ids).await?;
    let Some(path) = pick_path(&app, &state, "sightline-forecasts", format).await? else {
        return Ok(None);
    };
    forecast_export::write_forecasts(&rows, format, sightline_core::time_zone(), &path)?;
    Ok(Some(path.display().to_string()))
}

/// The ledger, row by row, as CSV: local days `first..=last`, or everything when either is missing.
#[tauri::command]
pub async fn export_ledger<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    first: Option<NaiveDate>,
    last: Option<NaiveDate>,
) -> Result<Option<String>, CommandError> {
    let entries = state
        .store()
        .await?
        .ledger(sightline_core::time_zone(), first.zip(last))
        .await?;
    let Some(path) = pick_path(&app, &state, "sightline-ledger", ExportFormat::Csv).await? else {
        return Ok(None);
    };
    export::write_ledger(&entries, &path)?;
    Ok(Some(path.display().to_string()))
}
