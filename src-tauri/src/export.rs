//! Export commands: the core collects and writes the rows; this asks where, with the system's
//! save dialog, unless Settings names an export folder. Written by hand (the dialog), declared
//! in the table.

use std::path::PathBuf;

use chrono::NaiveDate;
use sightline_core::errors::CommandError;
use sightline_core::export::{self, ExportFormat};
use sightline_core::forecast::export as forecast_export;
use sightline_core::records;
use sightline_core::state::AppState;
use sightline_store::{HistoryQuery, PostQuery};
use tauri::{AppHandle, Runtime, State};
use tauri_plugin_dialog::DialogExt;

use crate::surface::define_commands;

define_commands! {
    hand export_history(query: HistoryQuery, ids: Option<Vec<i64>>, format: ExportFormat)
        -> Option<String>;
    hand export_posts(query: PostQuery, format: ExportFormat) -> Option<String>;
    hand export_ledger(first: Option<NaiveDate>, last: Option<NaiveDate>) -> Option<String>;
    hand export_forecasts(query: HistoryQuery, ids: Option<Vec<i64>>, format: ExportFormat)
        -> Option<String>;
}

/// Where to save: the export folder from Settings (`sightline_core::export::preset_file`, the
/// one rule), else the system's save dialog (`None` when the user cancels it). Every export,
/// bundle and saved chart asks here.
pub(crate) async fn pick_path<R: Runtime>(
    app: &AppHandle<R>,
    state: &AppState,
    name: &str,
    extension: &str,
) -> Result<Option<PathBuf>, CommandError> {
    if let Some(preset) = export::preset_file(&state.settings(), name, extension) {
        return preset.map(Some);
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
    let Some(path) = pick_path(&app, &state, "sightline-history", format.extension()).await? else {
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
    let Some(path) = pick_path(&app, &state, "sightline-posts", format.extension()).await? else {
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
    let Some(path) = pick_path(&app, &state, "sightline-forecasts", format.extension()).await?
    else {
        return Ok(None);
    };
    forecast_export::write_forecasts(&rows, format, sightline_core::zone::time_zone(), &path)?;
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
    let entries = records::ledger(&state.store().await?, first, last).await?;
    let Some(path) = pick_path(
        &app,
        &state,
        "sightline-ledger",
        ExportFormat::Csv.extension(),
    )
    .await?
    else {
        return Ok(None);
    };
    export::write_ledger(&entries, &path)?;
    Ok(Some(path.display().to_string()))
}
