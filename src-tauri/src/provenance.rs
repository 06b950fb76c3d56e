//! Provenance commands: a response's capture record (never its bytes), its hash checked again,
//! and the capture lines of a page of history rows or posts, one call per page.

use sightline_core::errors::CommandError;
use sightline_core::state::AppState;
use sightline_store::{HistoryCapture, PostCapture, Provenance, ProvenanceCheck};
use tauri::State;

type CommandResult<T> = Result<T, CommandError>;

/// The full record of one request's response, or why there is none.
#[tauri::command]
pub async fn provenance_get(
    state: State<'_, AppState>,
    history_id: i64,
) -> CommandResult<Provenance> {
    Ok(state.store().await?.provenance(history_id).await?)
}

/// Hashes the stored bytes again; None when the request has no provenance.
#[tauri::command]
pub async fn provenance_verify(
    state: State<'_, AppState>,
    history_id: i64,
) -> CommandResult<Option<ProvenanceCheck>> {
    Ok(state.store().await?.verify_provenance(history_id).await?)
}

/// The capture line of each history row on a page.
#[tauri::command]
pub async fn provenance_history(
    state: State<'_, AppState>,
    history_ids: Vec<i64>,
) -> CommandResult<Vec<HistoryCapture>> {
    Ok(state.store().await?.history_captures(&history_ids).await?)
}

/// The capture line of each post on a page: the earliest captured response that brought it.
#[tauri::command]
pub async fn provenance_posts(
    state: State<'_, AppState>,
    post_ids: Vec<String>,
) -> CommandResult<Vec<PostCapture>> {
    Ok(state.store().await?.post_captures(&post_ids).await?)
}
