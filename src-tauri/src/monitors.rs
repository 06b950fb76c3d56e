//! Monitor and collection commands, declared in one table over `sightline_core::monitors` and
//! `sightline_core::collections`: a `monitor` line's change wakes the scheduler and sends
//! `monitors-changed`, a `collection` line's sends `collection-progress` (`crate::surface`).
//! Written by hand: those that start background work (a run now or confirmed, a collection
//! started or resumed: runs and pages go on in a task, progress arrives as events). Also here:
//! the desktop notification, and what happens at launch: the scheduler starts (each due monitor
//! once: catching up after the app was closed), and collections that were running when the app
//! last closed wait, paused, to be resumed.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use sightline_core::announce::Announce;
use sightline_core::collections::{
    self, Collection, CollectionDraft, CollectionPostPage, Collector,
};
use sightline_core::errors::CommandError;
use sightline_core::estimate::CostCheck;
use sightline_core::monitors::{
    self, changes, Monitor, MonitorDraft, MonitorEstimate, MonitorPostPage, MonitorPostQuery,
    MonitorsChanged, RunLogEntry, Scheduler, UnseenCounts,
};
use sightline_core::state::AppState;
use tauri::{AppHandle, Emitter, Manager, Runtime, State};
use tauri_plugin_notification::NotificationExt;

use crate::commands::records_changed;
use crate::surface::define_commands;

type CommandResult<T> = Result<T, CommandError>;

/// A monitor's state, unseen count or run log changed (payload: `MonitorsChanged`).
pub const MONITORS_CHANGED: &str = "monitors-changed";
/// A collection moved on by a page or changed state (payload: `Collection`).
pub const COLLECTION_PROGRESS: &str = "collection-progress";
/// Test hook: each desktop notification's title and body is also appended to this file as a
/// JSON line, beside the real notification.
pub const NOTIFICATION_LOG_VAR: &str = "SIGHTLINE_NOTIFICATION_LOG";
/// How long after launch the scheduler first looks: the window comes up first.
const FIRST_LOOK_AFTER: Duration = Duration::from_secs(3);

define_commands! {
    read monitor_list() -> Vec<Monitor> = |store| monitors::list(&store).await;
    monitor monitor_create(draft: MonitorDraft) -> Monitor
        = |store| changes::create(&store, &draft).await;
    monitor monitor_update(id: i64, draft: MonitorDraft) -> Monitor
        = |store| changes::update(&store, id, &draft).await;
    monitor monitor_delete(id: i64) -> () = |store| changes::delete(&store, id).await;
    monitor monitor_pause(id: i64) -> Monitor = |store| changes::pause(&store, id).await;
    monitor monitor_resume(id: i64) -> Monitor = |store| changes::resume(&store, id).await;
    hand monitor_run_now(id: i64) -> Monitor;
    hand monitor_confirm(id: i64) -> Monitor;
    monitor monitor_skip(id: i64) -> Monitor = |store| changes::skip(&store, id).await;
    read monitor_estimate(draft: MonitorDraft) -> MonitorEstimate
        = |store| monitors::estimate(&store, &draft).await;
    read monitor_posts(id: i64, query: MonitorPostQuery) -> MonitorPostPage
        = |store| monitors::posts(&store, id, &query).await;
    // `post_ids` null: all of this monitor's.
    monitor monitor_mark_seen(id: i64, post_ids: Option<Vec<String>>) -> UnseenCounts
        = |store| changes::mark_seen(&store, id, post_ids.as_deref()).await;
    monitor monitor_mark_all_seen() -> UnseenCounts = |store| changes::mark_all_seen(&store).await;
    read monitor_unseen() -> UnseenCounts = |store| monitors::unseen(&store).await;
    read monitor_runs(id: i64, limit: i64) -> Vec<RunLogEntry>
        = |store| monitors::runs(&store, id, limit).await;
    hand collection_start(draft: CollectionDraft) -> Collection;
    read collection_list() -> Vec<Collection> = |store| collections::list(&store).await;
    // Pauses after its current page if it is being paged.
    collection collection_pause(id: i64) -> Collection
        = |state, collector: Arc<Collector>| collector.pause(state, id).await;
    // From its last page saved (also after a restart, a budget stop or a failure);
    // `confirm_budget` answers a budget warning that made it wait.
    hand collection_resume(id: i64, confirm_budget: bool) -> Collection;
    collection collection_cancel(id: i64) -> Collection
        = |state, collector: Arc<Collector>| collector.cancel(state, id).await;
    // Drops it from the list (not while it is paged); History, the Archive and Spend keep all
    // it fetched.
    set collection_delete(id: i64) -> ()
        = |state, collector: Arc<Collector>| collector.delete(state, id).await;
    read collection_runs(id: i64, limit: i64) -> Vec<RunLogEntry>
        = |store| collections::runs(&store, id, limit).await;
    // A collection's posts, newest first, `limit` after the post `after` (else from `offset`).
    read collection_posts(id: i64, after: Option<String>, offset: i64, limit: i64) -> CollectionPostPage
        = |store| collections::posts(&store, id, after.as_deref(), offset, limit).await;
    // What a draft collection would cost, before it starts (the Collect dialog).
    read collection_estimate(draft: CollectionDraft) -> CostCheck
        = |store| collections::estimate_draft(&store, &draft).await;
}

/// Tells the window through events and the notification plugin.
pub struct WindowAnnounce<R: Runtime> {
    app: AppHandle<R>,
    notification_log: Option<PathBuf>,
}

impl<R: Runtime> WindowAnnounce<R> {
    pub fn new(app: AppHandle<R>) -> Self {
        Self {
            app,
            notification_log: std::env::var_os(NOTIFICATION_LOG_VAR).map(PathBuf::from),
        }
    }

    fn log_notification(&self, title: &str, body: &str) {
        let Some(path) = &self.notification_log else {
            return;
        };
        let line = serde_json::json!({ "title": title, "body": body }).to_string();
        let written = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .and_then(|mut file| writeln!(file, "{line}"));
        if let Err(error) = written {
            tracing::warn!(%error, "the notification log could not be written");
        }
    }
}

impl<R: Runtime> Announce for WindowAnnounce<R> {
    fn monitors_changed(&self, change: MonitorsChanged) {
        if let Err(error) = self.app.emit(MONITORS_CHANGED, change) {
            tracing::warn!(%error, "a monitor's change could not reach the window");
        }
    }

    fn collection_progress(&self, collection: &Collection) {
        if let Err(error) = self.app.emit(COLLECTION_PROGRESS, collection) {
            tracing::warn!(%error, "a collection's progress could not reach the window");
        }
    }

    /// The posts are already stored unseen: a refused or failing notification loses nothing
    /// (the badge still counts them), so it is only logged.
    fn new_posts(&self, title: &str, body: &str) {
        self.log_notification(title, body);
        let shown = self
            .app
            .notification()
            .builder()
            .title(title)
            .body(body)
            .show();
        if let Err(error) = shown {
            tracing::warn!(%error, "the desktop notification could not be shown");
        }
    }

    fn records_changed(&self) {
        records_changed(&self.app);
    }
}

/// Starts the scheduler, and pauses the collections left running (to be resumed by the
/// user), once the window is up.
pub fn start_background<R: Runtime>(app: &AppHandle<R>) {
    let scheduler = Arc::new(Scheduler::default());
    let collector = Arc::new(Collector::default());
    app.manage(scheduler.clone());
    app.manage(collector);
    let handle = app.clone();
    tauri::async_runtime::spawn(async move {
        tokio::time::sleep(FIRST_LOOK_AFTER).await;
        // Nothing runs on a database that is read-only or waiting on the recovery screen.
        handle.state::<AppState>().until_writable().await;
        pause_left_running(&handle).await;
        let state = handle.state::<AppState>();
        scheduler
            .serve(&state, &WindowAnnounce::new(handle.clone()))
            .await;
    });
}

/// Collections left running when the app closed wait, paused, for the user to resume them.
async fn pause_left_running<R: Runtime>(app: &AppHandle<R>) {
    let state = app.state::<AppState>();
    let paused = match state.store().await {
        Ok(store) => collections::pause_left_running(&store).await,
        Err(error) => Err(error),
    };
    if let Err(error) = paused {
        tracing::warn!(
            error = error.message(),
            "collections left running could not be paused"
        );
    }
}

/// Runs a monitor in the background (run now, or after a confirmation).
fn run_in_background<R: Runtime>(app: AppHandle<R>, id: i64, confirm_budget: bool) {
    tauri::async_runtime::spawn(async move {
        let state = app.state::<AppState>();
        let scheduler = app.state::<Arc<Scheduler>>();
        let announce = WindowAnnounce::new(app.clone());
        if let Err(error) = scheduler
            .run_one(&state, &announce, id, confirm_budget)
            .await
        {
            tracing::warn!(
                monitor = id,
                error = error.message(),
                "a monitor could not run"
            );
        }
    });
}

/// Pages a collection on in the background.
fn drive<R: Runtime>(app: AppHandle<R>, id: i64, confirm_budget: bool) {
    tauri::async_runtime::spawn(async move {
        let state = app.state::<AppState>();
        let collector = app.state::<Arc<Collector>>();
        let announce = WindowAnnounce::new(app.clone());
        if let Err(error) =
            collections::drive(&state, &collector, &announce, id, confirm_budget).await
        {
            tracing::warn!(
                collection = id,
                error = error.message(),
                "a collection stopped"
            );
        }
    });
}

/// After a `monitor` command: the scheduler looks at the schedule again, and the window hears
/// what changed (unless the unseen counts could not be read: it sees the change at its next look).
pub(crate) fn monitors_changed<R: Runtime>(app: &AppHandle<R>, told: Option<MonitorsChanged>) {
    app.state::<Arc<Scheduler>>().wake();
    if let Some(change) = told {
        WindowAnnounce::new(app.clone()).monitors_changed(change);
    }
}

/// After a `collection` command: the window hears the collection's new state.
pub(crate) fn collection_progress<R: Runtime>(app: &AppHandle<R>, collection: &Collection) {
    WindowAnnounce::new(app.clone()).collection_progress(collection);
}

/// Runs a monitor now, in the background; its progress arrives as `monitors-changed`.
#[tauri::command]
pub async fn monitor_run_now<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    id: i64,
) -> CommandResult<Monitor> {
    let monitor = monitors::get(&state.store().await?, id).await?;
    run_in_background(app, id, false);
    Ok(monitor)
}

/// Goes on with a run the budget warned about: the user confirmed.
#[tauri::command]
pub async fn monitor_confirm<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    id: i64,
) -> CommandResult<Monitor> {
    let monitor = monitors::resume(&state.store().await?, id).await?;
    run_in_background(app, id, true);
    Ok(monitor)
}

/// Saves a collection and starts paging it in the background.
#[tauri::command]
pub async fn collection_start<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    draft: CollectionDraft,
) -> CommandResult<Collection> {
    let collection = collections::create(&state.store().await?, &draft).await?;
    drive(app, collection.id, false);
    Ok(collection)
}

/// Resumes a collection from its last page saved (also after a restart, a budget stop or a
/// failure); `confirm_budget` answers a budget warning that made it wait.
#[tauri::command]
pub async fn collection_resume<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    id: i64,
    confirm_budget: bool,
) -> CommandResult<Collection> {
    let collection = collections::get(&state.store().await?, id).await?;
    drive(app, id, confirm_budget);
    Ok(collection)
}
