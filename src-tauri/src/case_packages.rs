//! Case package commands: the core writes, verifies, imports and merges
//! (`sightline_core::case_package`); this picks where to save (`crate::export::pick_path`) and
//! which package to open (the open dialog), relays progress on a channel and keeps the running
//! export's or open's cancel token (`crate::running`). Opening needs no session: it works with no
//! API key, in demo mode too. Written by hand: the save and open dialogs, and the channels.

use std::path::Path;

use sightline_core::case_package::{
    self, CaseConflict, CaseExportOutcome, CaseOpenOutcome, CaseProgress,
};
use sightline_core::errors::CommandError;
use sightline_core::state::AppState;
use tauri::ipc::Channel;
use tauri::{AppHandle, Runtime, State};
use tauri_plugin_dialog::DialogExt;

use crate::export::pick_path;
use crate::running::{relay, Running};
use crate::surface::{define_commands, ok};

define_commands! {
    hand case_package_export(investigation_id: i64; progress: CaseProgress)
        -> Option<CaseExportOutcome>;
    // Stops the running export; it leaves no file behind.
    set case_package_export_cancel() -> () = |exports: CaseExports| {
        exports.0.cancel();
        ok(())
    };
    hand case_package_open(path: String; progress: CaseProgress) -> CaseOpenOutcome;
    // Stops the running open; nothing is imported.
    set case_package_open_cancel() -> () = |opens: CaseOpens| {
        opens.0.cancel();
        ok(())
    };
    hand case_package_pick() -> Option<String>;
    read case_package_conflicts(investigation_id: i64) -> Vec<CaseConflict>
        = |state| case_package::conflicts(state, investigation_id).await;
}

/// A case package is a ZIP, as an evidence bundle is.
const EXTENSION: &str = "zip";

/// The case package export running now, if any: one at a time, so "Cancel" means that one.
#[derive(Default)]
pub struct CaseExports(Running);

/// The open running now, if any.
#[derive(Default)]
pub struct CaseOpens(Running);

/// "Export for a colleague": writes investigation `investigation_id` as a case package into the
/// export folder, or where the save dialog says. `None` when the user closed the dialog.
#[tauri::command]
pub async fn case_package_export<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    exports: State<'_, CaseExports>,
    investigation_id: i64,
    progress: Channel<CaseProgress>,
) -> Result<Option<CaseExportOutcome>, CommandError> {
    let investigation = state
        .store()
        .await?
        .investigation(investigation_id)
        .await?
        .ok_or_else(|| {
            CommandError::not_found(
                "This investigation no longer exists. It may have been deleted.",
            )
        })?;
    let name = case_package::file_name(&investigation.name);
    let Some(path) = pick_path(&app, &state, &name, EXTENSION).await? else {
        return Ok(None);
    };
    let run = exports.0.start();
    case_package::export(
        &state,
        investigation_id,
        &path,
        &mut relay(progress),
        run.token(),
    )
    .await
    .map(Some)
}

/// "Open a case package": verifies the package at `path`, then imports or merges it; a package
/// that fails a check is refused with why, nothing written. Needs no API key. Open screens are
/// told that records changed once it is in.
#[tauri::command]
pub async fn case_package_open<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    opens: State<'_, CaseOpens>,
    path: String,
    progress: Channel<CaseProgress>,
) -> Result<CaseOpenOutcome, CommandError> {
    let run = opens.0.start();
    let outcome =
        case_package::open(&state, Path::new(&path), relay(progress), run.token()).await?;
    if matches!(outcome, CaseOpenOutcome::Opened { .. }) {
        crate::commands::records_changed(&app);
    }
    Ok(outcome)
}

/// Asks for a case package to open with the system's open dialog; `None` when closed.
#[tauri::command]
pub async fn case_package_pick<R: Runtime>(app: AppHandle<R>) -> Option<String> {
    let (tx, rx) = tokio::sync::oneshot::channel();
    app.dialog()
        .file()
        .add_filter("Case package (ZIP)", &[EXTENSION])
        .pick_file(move |path| {
            let _ = tx.send(path.and_then(|path| path.into_path().ok()));
        });
    rx.await
        .ok()
        .flatten()
        .map(|path| path.display().to_string())
}
