//! Investigation commands, declared in one table over `sightline_core::investigations`. Every
//! change tells open screens that records changed, so lists, counts and checkmarks refresh;
//! "Still there?" re-fetches posts (billed, recorded like any request); the custody log is read
//! with its chain checked.

use sightline_core::custody::{self, CustodyLog};
use sightline_core::estimate::CostCheck;
use sightline_core::investigations;
use sightline_core::pipeline::SendParams;
use sightline_store::{
    CheckReport, CheckSummary, FilingChange, InvestigationChanges, InvestigationDetail,
    InvestigationItem, InvestigationPostPage, InvestigationPostQuery, InvestigationSummary,
    ItemMemberships,
};

use crate::surface::define_commands;

define_commands! {
    read investigation_list(include_archived: bool) -> Vec<InvestigationSummary>
        = |store| investigations::list(&store, include_archived).await;
    change investigation_create(name: String, description: String) -> InvestigationSummary
        = |store| investigations::create(&store, &name, &description).await;
    change investigation_update(id: i64, changes: InvestigationChanges) -> InvestigationSummary
        = |store| investigations::update(&store, id, &changes).await;
    change investigation_archive(id: i64, archived: bool) -> InvestigationSummary
        = |store| investigations::archive(&store, id, archived).await;
    change investigation_media_full_view(id: i64, full: bool) -> InvestigationSummary
        = |store| investigations::set_media_full_view(&store, id, full).await;
    change investigation_delete(id: i64) -> ()
        = |store| investigations::delete(&store, id).await;
    read investigation_active() -> Option<i64>
        = |store| investigations::active(&store).await;
    change investigation_set_active(id: Option<i64>) -> ()
        = |store| investigations::set_active(&store, id).await;
    read investigation_get(id: i64) -> InvestigationDetail
        = |store| investigations::detail(&store, id).await;
    read investigation_posts(id: i64, query: InvestigationPostQuery) -> InvestigationPostPage
        = |store| investigations::posts(&store, id, &query).await;
    change investigation_add(id: i64, items: Vec<InvestigationItem>) -> FilingChange
        = |store| investigations::add(&store, id, &items).await;
    change investigation_remove(id: i64, items: Vec<InvestigationItem>) -> FilingChange
        = |store| investigations::remove(&store, id, &items).await;
    read investigation_memberships(items: Vec<InvestigationItem>) -> Vec<ItemMemberships>
        = |store| investigations::memberships(&store, &items).await;
    change investigation_post_set(
        id: i64,
        post_id: String,
        note: Option<String>,
        tags: Option<Vec<String>>,
    ) -> ()
        = |store| investigations::set_post(&store, id, &post_id, note.as_deref(), tags.as_deref()).await;
    read investigation_tags(id: i64, prefix: String) -> Vec<String>
        = |store| investigations::tag_suggestions(&store, id, &prefix).await;
    read investigation_check_estimate(id: i64) -> CostCheck
        = |store| investigations::check_estimate(&store, id).await;
    send investigation_check(id: i64, send: SendParams) -> CheckReport
        = |state, session| investigations::check(state, &session, id, send).await;
    read investigation_checks(id: i64) -> Vec<CheckSummary>
        = |store| investigations::checks(&store, id).await;
    read investigation_check_report(check_id: i64) -> CheckReport
        = |store| investigations::check_report(&store, check_id).await;
    read investigation_custody_log(id: i64) -> CustodyLog
        = |store| custody::log(&store, id).await;
}
