//! Investigation commands: thin adapters over `sightline_core::investigations`. Every change
//! tells open screens that records changed, so lists, counts and checkmarks refresh.

use sightline_core::errors::CommandError;
use sightline_core::estimate::CostCheck;
use sightline_core::investigations;
use sightline_core::pipeline::SendParams;
use sightline_core::state::AppState;
use sightline_store::{
    CheckReport, CheckSummary, FilingChange, InvestigationChanges, InvestigationDetail,
    InvestigationItem, InvestigationPostPage, InvestigationPostQuery, InvestigationSummary,
    ItemMemberships,
};
use tauri::{AppHandle, Runtime, State};

use crate::commands::records_changed;

type CommandResult<T> = Result<T, CommandError>;

/// Tells open screens when `result` changed something.
fn changed<R: Runtime, T>(app: &AppHandle<R>, result: CommandResult<T>) -> CommandResult<T> {
    if result.is_ok() {
        records_changed(app);
    }
    result
}

#[tauri::command]
pub async fn investigation_list(
    state: State<'_, AppState>,
    include_archived: bool,
) -> CommandResult<Vec<InvestigationSummary>> {
    investigations::list(&state.store().await?, include_archived).await
}

#[tauri::command]
pub async fn investigation_create<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    name: String,
    description: String,
) -> CommandResult<InvestigationSummary> {
    let store = state.store().await?;
    changed(
        &app,
        investigations::create(&store, &name, &description).await,
    )
}

#[tauri::command]
pub async fn investigation_update<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    id: i64,
    changes: InvestigationChanges,
) -> CommandResult<InvestigationSummary> {
    let store = state.store().await?;
    changed(&app, investigations::update(&store, id, &changes).await)
}

#[tauri::command]
pub async fn investigation_archive<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    id: i64,
    archived: bool,
) -> CommandResult<InvestigationSummary> {
    let store = state.store().await?;
    changed(&app, investigations::archive(&store, id, archived).await)
}

#[tauri::command]
pub async fn investigation_delete<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    id: i64,
) -> CommandResult<()> {
    let store = state.store().await?;
    changed(&app, investigations::delete(&store, id).await)
}

#[tauri::command]
pub async fn investigation_active(state: State<'_, AppState>) -> CommandResult<Option<i64>> {
    investigations::active(&state.store().await?).await
}

#[tauri::command]
pub async fn investigation_set_active<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    id: Option<i64>,
) -> CommandResult<()> {
    let store = state.store().await?;
    changed(&app, investigations::set_active(&store, id).await)
}

#[tauri::command]
pub async fn investigation_get(
    state: State<'_, AppState>,
    id: i64,
) -> CommandResult<InvestigationDetail> {
    investigations::detail(&state.store().await?, id).await
}

#[tauri::command]
pub async fn investigation_posts(
    state: State<'_, AppState>,
    id: i64,
    query: InvestigationPostQuery,
) -> CommandResult<InvestigationPostPage> {
    investigations::posts(&state.store().await?, id, &query).await
}

#[tauri::command]
pub async fn investigation_add<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    id: i64,
    items: Vec<InvestigationItem>,
) -> CommandResult<FilingChange> {
    let store = state.store().await?;
    changed(&app, investigations::add(&store, id, &items).await)
}

#[tauri::command]
pub async fn investigation_remove<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    id: i64,
    items: Vec<InvestigationItem>,
) -> CommandResult<FilingChange> {
    let store = state.store().await?;
    changed(&app, investigations::remove(&store, id, &items).await)
}

#[tauri::command]
pub async fn investigation_memberships(
    state: State<'_, AppState>,
    items: Vec<InvestigationItem>,
) -> CommandResult<Vec<ItemMemberships>> {
    investigations::memberships(&state.store().await?, &items).await
}

#[tauri::command]
pub async fn investigation_post_set<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    id: i64,
    post_id: String,
    note: Option<String>,
    tags: Option<Vec<String>>,
) -> CommandResult<()> {
    let store = state.store().await?;
    let result =
        investigations::set_post(&store, id, &post_id, note.as_deref(), tags.as_deref()).await;
    changed(&app, result)
}

#[tauri::command]
pub async fn investigation_tags(
    state: State<'_, AppState>,
    id: i64,
    prefix: String,
) -> CommandResult<Vec<String>> {
    investigations::tag_suggestions(&state.store().await?, id, &prefix).await
}

#[tauri::command]
pub async fn investigation_check_estimate(
    state: State<'_, AppState>,
    id: i64,
) -> CommandResult<CostCheck> {
    investigations::check_estimate(&state.store().await?, id).await
}

/// Re-fetches the investigation's posts (billed requests): open screens refresh afterwards,
/// whether the check finished or stopped part way (what was sent is in History and Spend).
#[tauri::command]
pub async fn investigation_check<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    id: i64,
    send: SendParams,
) -> CommandResult<CheckReport> {
    let session = state.session().await?;
    let result = investigations::check(&state, &session, id, send).await;
    records_changed(&app);
    result
}

#[tauri::command]
pub async fn investigation_checks(
    state: State<'_, AppState>,
    id: i64,
) -> CommandResult<Vec<CheckSummary>> {
    investigations::checks(&state.store().await?, id).await
}

#[tauri::command]
pub async fn investigation_check_report(
    state: State<'_, AppState>,
    check_id: i64,
) -> CommandResult<CheckReport> {
    investigations::check_report(&state.store().await?, check_id).await
}
