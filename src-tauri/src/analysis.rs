//! Analysis commands: thin adapters over `sightline_core::analysis`. Reading is free and
//! offline; only the conversation's fetch of missing replies sends (and is billed), and it
//! tells open screens that records changed.

use sightline_core::analysis::export::{
    self as analysis_export, AnalysisTable, ChartFormat, NetworkFormat,
};
use sightline_core::analysis::{
    self, ActivityOptions, ConversationFetch, ConversationFetchEstimate,
};
use sightline_core::errors::CommandError;
use sightline_core::pipeline::SendParams;
use sightline_core::state::AppState;
use sightline_store::{
    ActivitySeries, AnalysisScope, ConversationTree, Heatmap, Network, NetworkQuery, ScopePostPage,
    ScopePostQuery, ScopeSummary, TopLists,
};
use tauri::{AppHandle, Runtime, State};

use crate::commands::records_changed;
use crate::export::pick_path_for;

type CommandResult<T> = Result<T, CommandError>;

#[tauri::command]
pub async fn analysis_summary(
    state: State<'_, AppState>,
    scope: AnalysisScope,
) -> CommandResult<ScopeSummary> {
    analysis::summary(&state.store().await?, &scope).await
}

#[tauri::command]
pub async fn analysis_activity(
    state: State<'_, AppState>,
    scope: AnalysisScope,
    options: ActivityOptions,
) -> CommandResult<ActivitySeries> {
    analysis::activity(&state.store().await?, &scope, &options).await
}

/// `zone`: an IANA name or `UTC`; the display zone when absent.
#[tauri::command]
pub async fn analysis_heatmap(
    state: State<'_, AppState>,
    scope: AnalysisScope,
    zone: Option<String>,
) -> CommandResult<Heatmap> {
    analysis::heatmap(&state.store().await?, &scope, zone.as_deref()).await
}

#[tauri::command]
pub async fn analysis_top(
    state: State<'_, AppState>,
    scope: AnalysisScope,
    limit: Option<u32>,
) -> CommandResult<TopLists> {
    analysis::top(&state.store().await?, &scope, limit).await
}

#[tauri::command]
pub async fn analysis_network(
    state: State<'_, AppState>,
    scope: AnalysisScope,
    query: NetworkQuery,
) -> CommandResult<Network> {
    analysis::network(&state.store().await?, &scope, &query).await
}

/// A page of the scope's posts themselves, newest first (a chosen account's, say).
#[tauri::command]
pub async fn analysis_posts(
    state: State<'_, AppState>,
    scope: AnalysisScope,
    page: ScopePostQuery,
) -> CommandResult<ScopePostPage> {
    analysis::posts(&state.store().await?, &scope, page).await
}

#[tauri::command]
pub async fn analysis_conversation(
    state: State<'_, AppState>,
    post_id: String,
) -> CommandResult<ConversationTree> {
    analysis::conversation(&state.store().await?, &post_id).await
}

#[tauri::command]
pub async fn analysis_conversation_estimate(
    state: State<'_, AppState>,
    post_id: String,
) -> CommandResult<ConversationFetchEstimate> {
    analysis::conversation_estimate(&state.store().await?, &post_id).await
}

#[tauri::command]
pub async fn analysis_conversation_fetch<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    post_id: String,
    send: SendParams,
) -> CommandResult<ConversationFetch> {
    let session = state.session().await?;
    let result = analysis::conversation_fetch(&state, &session, &post_id, send).await;
    records_changed(&app);
    result
}

/// The saved file's path, or `None` when the save dialog was closed.
#[tauri::command]
pub async fn analysis_export_network<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    scope: AnalysisScope,
    query: NetworkQuery,
    format: NetworkFormat,
) -> CommandResult<Option<String>> {
    let store = state.store().await?;
    let name = "sightline-network";
    let Some(path) = pick_path_for(&app, &state, name, format.extension()).await? else {
        return Ok(None);
    };
    analysis_export::write_network(&store, &scope, &query, format, &path).await?;
    Ok(Some(path.display().to_string()))
}

#[tauri::command]
pub async fn analysis_export_table<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    scope: AnalysisScope,
    table: AnalysisTable,
) -> CommandResult<Option<String>> {
    let store = state.store().await?;
    let Some(path) = pick_path_for(&app, &state, &table.file_name(), "csv").await? else {
        return Ok(None);
    };
    analysis_export::write_table(&store, &scope, &table, &path).await?;
    Ok(Some(path.display().to_string()))
}

/// Saves a chart picture the window drew (`name` without extension, e.g. `activity`).
#[tauri::command]
pub async fn analysis_save_chart<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    name: String,
    format: ChartFormat,
    data: Vec<u8>,
) -> CommandResult<Option<String>> {
    let name = format!("sightline-{}", analysis_export::file_stem(&name));
    let Some(path) = pick_path_for(&app, &state, &name, format.extension()).await? else {
        return Ok(None);
    };
    analysis_export::write_chart(&data, &path)?;
    Ok(Some(path.display().to_string()))
}
