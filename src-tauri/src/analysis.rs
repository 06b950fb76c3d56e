//! Analysis commands, declared in one table over `sightline_core::analysis`. Reading is free
//! and offline; only the conversation's fetch of missing replies sends (and is billed). The
//! exports are written by hand: they ask where with the save dialog.

use sightline_core::analysis::export::{
    self as analysis_export, AnalysisTable, ChartFormat, NetworkFormat,
};
use sightline_core::analysis::{
    self, ActivityOptions, ConversationFetch, ConversationFetchEstimate, SharedPictures,
};
use sightline_core::errors::CommandError;
use sightline_core::export::file_stem;
use sightline_core::pipeline::SendParams;
use sightline_core::state::AppState;
use sightline_store::{
    ActivitySeries, AnalysisScope, ConversationTree, Heatmap, Network, NetworkQuery, ScopePostPage,
    ScopePostQuery, ScopeSummary, TopLists,
};
use tauri::{AppHandle, Runtime, State};

use crate::export::pick_path;
use crate::surface::define_commands;

type CommandResult<T> = Result<T, CommandError>;

define_commands! {
    read analysis_summary(scope: AnalysisScope) -> ScopeSummary
        = |store| analysis::summary(&store, &scope).await;
    read analysis_activity(scope: AnalysisScope, options: ActivityOptions) -> ActivitySeries
        = |store| analysis::activity(&store, &scope, &options).await;
    // `zone`: an IANA name or `UTC`; the display zone when absent.
    read analysis_heatmap(scope: AnalysisScope, zone: Option<String>) -> Heatmap
        = |store| analysis::heatmap(&store, &scope, zone.as_deref()).await;
    read analysis_top(scope: AnalysisScope, limit: Option<u32>) -> TopLists
        = |store| analysis::top(&store, &scope, limit).await;
    read analysis_network(scope: AnalysisScope, query: NetworkQuery) -> Network
        = |store| analysis::network(&store, &scope, &query).await;
    // The kept pictures two or more of the scope's posts hold, near copies as one.
    read analysis_shared_pictures(scope: AnalysisScope, limit: Option<u32>) -> SharedPictures
        = |store| analysis::shared_pictures(&store, &scope, limit).await;
    // A page of the scope's posts themselves, newest first (a chosen account's, say).
    read analysis_posts(scope: AnalysisScope, page: ScopePostQuery) -> ScopePostPage
        = |store| analysis::posts(&store, &scope, page).await;
    read analysis_conversation(post_id: String) -> ConversationTree
        = |store| analysis::conversation(&store, &post_id).await;
    read analysis_conversation_estimate(post_id: String) -> ConversationFetchEstimate
        = |store| analysis::conversation_estimate(&store, &post_id).await;
    send analysis_conversation_fetch(post_id: String, send: SendParams) -> ConversationFetch
        = |state, session| analysis::conversation_fetch(state, &session, &post_id, send).await;
    hand analysis_export_network(scope: AnalysisScope, query: NetworkQuery, format: NetworkFormat)
        -> Option<String>;
    hand analysis_export_table(scope: AnalysisScope, table: AnalysisTable) -> Option<String>;
    hand analysis_save_chart(name: String, format: ChartFormat, data: Vec<u8>) -> Option<String>;
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
    let Some(path) = pick_path(&app, &state, name, format.extension()).await? else {
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
    let Some(path) = pick_path(&app, &state, &table.file_name(), "csv").await? else {
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
    let name = format!("sightline-{}", file_stem(&name, "chart"));
    let Some(path) = pick_path(&app, &state, &name, format.extension()).await? else {
        return Ok(None);
    };
    analysis_export::write_chart(&data, &path)?;
    Ok(Some(path.display().to_string()))
}
