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

use crate::commands::{records_changed, store_commands};

store_commands! {
    read investigation_list(include_archived: bool) -> Vec<InvestigationSummary>
        = |store| investigations::list(&store, include_archived);
    change investigation_create(name: String, description: String) -> InvestigationSummary
        = |store| investigations::create(&store, &name, &description);
    change investigation_update(id: i64, changes: InvestigationChanges) -> InvestigationSummary
        = |store| investigations::update(&store, id, &changes);
    change investigation_archive(id: i64, archived: bool) -> InvestigationSummary
        = |store| investigations::archive(&store, id, archived);
    change investigation_delete(id: i64) -> ()
        = |store| investigations::delete(&store, id);
    read investigation_active() -> Option<i64>
        = |store| investigations::active(&store);
    change investigation_set_active(id: Option<i64>) -> ()
        = |store| investigations::set_active(&store, id);
    read investigation_get(id: i64) -> InvestigationDetail
        = |store| investigations::detail(&store, id);
    read investigation_posts(id: i64, query: InvestigationPostQuery) -> InvestigationPostPage
        = |store| investigations::posts(&store, id, &query);
    change investigation_add(id: i64, items: Vec<InvestigationItem>) -> FilingChange
        = |store| investigations::add(&store, id, &items);
    change investigation_remove(id: i64, items: Vec<InvestigationItem>) -> FilingChange
        = |store| investigations::remove(&store, id, &items);
    read investigation_memberships(items: Vec<InvestigationItem>) -> Vec<ItemMemberships>
        = |store| investigations::memberships(&store, &items);
    change investigation_post_set(
        id: i64,
        post_id: String,
        note: Option<String>,
        tags: Option<Vec<String>>,
    ) -> ()
        = |store| investigations::set_post(&store, id, &post_id, note.as_deref(), tags.as_deref());
    read investigation_tags(id: i64, prefix: String) -> Vec<String>
        = |store| investigations::tag_suggestions(&store, id, &prefix);
    read investigation_check_estimate(id: i64) -> CostCheck
        = |store| investigations::check_estimate(&store, id);
    read investigation_checks(id: i64) -> Vec<CheckSummary>
        = |store| investigations::checks(&store, id);
    read investigation_check_report(check_id: i64) -> CheckReport
        = |store| investigations::check_report(&store, check_id);
}

/// Re-fetches the investigation's posts (billed requests): open screens refresh afterwards,
/// whether the check finished or stopped part way (what was sent is in History and Spend).
#[tauri::command]
pub async fn investigation_check<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    id: i64,
    send: SendParams,
) -> Result<CheckReport, CommandError> {
    let session = state.session().await?;
    let result = investigations::check(&state, &session, id, send).await;
    records_changed(&app);
    result
}
