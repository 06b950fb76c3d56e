//! The start and recovery screens' commands: the current mode's database as it opens (polled
//! by the start screen; asking starts its opening in the background, so it is written by
//! hand), and the recovery screen's choices; and the databases closed at exit.
//! `sightline_core::database` does the work.

use sightline_core::database::{self, DatabaseStatus, Recovered};
use sightline_core::state::AppState;
use tauri::{AppHandle, Manager, Runtime, State};

use crate::surface::define_commands;

define_commands! {
    hand database_status() -> DatabaseStatus;
    change database_open_read_only() -> Recovered = |state| database::open_read_only(state).await;
    change database_restore_backup() -> Recovered = |state| database::restore_backup(state).await;
    change database_start_afresh() -> Recovered = |state| database::start_afresh(state).await;
    change database_retry() -> Recovered = |state| database::retry(state).await;
}

/// How long each database may take to close at exit (a write under way finishing) before
/// the app ends without it; the next start then checks that file.
const CLOSE_AT_EXIT: std::time::Duration = std::time::Duration::from_secs(5);

/// At exit: every database closed, so that the next start knows the close was clean and does
/// not read the whole file to check it (`sightline_core::database::close_all`).
pub fn close_at_exit<R: Runtime>(app: &AppHandle<R>) {
    if let Some(state) = app.try_state::<AppState>() {
        tauri::async_runtime::block_on(database::close_all(&state, CLOSE_AT_EXIT));
    }
}

/// Opens the current mode's database in the background, unless it is open or opening: its
/// upgrade runs to its end whoever asked, and is never cut by a command that gave up waiting.
pub fn open_in_background<R: Runtime>(app: &AppHandle<R>) {
    let handle = app.clone();
    tauri::async_runtime::spawn(async move {
        // A problem is recorded for the recovery screen; nothing else to do with it here.
        let _ = handle.state::<AppState>().store().await;
    });
}

/// The current mode's database: opening (with its step), ready, or waiting for a choice.
#[tauri::command]
pub fn database_status<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
) -> DatabaseStatus {
    let status = database::status(&state);
    if status == DatabaseStatus::Closed {
        open_in_background(&app);
    }
    status
}
