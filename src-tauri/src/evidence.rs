//! Evidence bundle commands: the core gathers, writes and verifies; this picks where to save
//! (`crate::export::pick_path`), relays progress on a channel, keeps the running export's
//! cancel token (`crate::running`), and picks a bundle to verify with the open dialog. Written
//! by hand: the export (a save dialog and a channel), the pick (the open dialog), and the check
//! (a channel; core reads the file on a blocking thread).

use std::path::Path;

use sightline_core::errors::CommandError;
use sightline_core::evidence::gather;
use sightline_core::evidence::verify::{self, BundleCheck, ReadProgress};
use sightline_core::evidence::{seal, BundleOutcome, BundleProgress};
use sightline_core::state::AppState;
use tauri::ipc::Channel;
use tauri::{AppHandle, Runtime, State};
use tauri_plugin_dialog::DialogExt;

use crate::export::pick_path;
use crate::running::{relay, Running};
use crate::surface::{define_commands, ok};

define_commands! {
    hand evidence_export(
        investigation_id: Option<i64>,
        history_ids: Option<Vec<i64>>,
        post_ids: Option<Vec<String>>;
        progress: BundleProgress
    ) -> Option<BundleOutcome>;
    // Stops the running export; it leaves no file behind.
    set evidence_cancel() -> () = |exports: BundleExports| {
        exports.0.cancel();
        ok(())
    };
    hand evidence_verify(path: String; progress: ReadProgress) -> Option<BundleCheck>;
    // Stops the running check.
    set evidence_verify_cancel() -> () = |checks: BundleChecks| {
        checks.0.cancel();
        ok(())
    };
    hand evidence_pick_bundle() -> Option<String>;
}

/// The export running now, if any: one at a time, so "Cancel" means that one.
#[derive(Default)]
pub struct BundleExports(Running);

/// Writes the evidence bundle of an investigation (`investigation_id`), or of a hand-picked
/// selection (`history_ids`, `post_ids`). `None` when the user closed the save dialog.
#[tauri::command]
pub async fn evidence_export<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    exports: State<'_, BundleExports>,
    investigation_id: Option<i64>,
    history_ids: Option<Vec<i64>>,
    post_ids: Option<Vec<String>>,
    progress: Channel<BundleProgress>,
) -> Result<Option<BundleOutcome>, CommandError> {
    let store = state.store().await?;
    let zone = sightline_core::zone::time_zone();
    let version = env!("CARGO_PKG_VERSION");
    let bundle = gather::requested(
        &store,
        investigation_id,
        history_ids.unwrap_or_default(),
        post_ids.unwrap_or_default(),
        zone,
        version,
    )
    .await?;
    let Some(path) = pick_path(&app, &state, &bundle.file_name(), "zip").await? else {
        return Ok(None);
    };
    let run = exports.0.start();
    seal::export(
        &state,
        &store,
        bundle,
        &path,
        &mut relay(progress),
        run.token(),
    )
    .await
    .map(Some)
}

/// The check of a bundle running now, if any: one at a time, so "Cancel" means that one.
#[derive(Default)]
pub struct BundleChecks(Running);

/// Reads the bundle at `path` strictly and makes its checks (files and sums, the signature
/// and whose key, the timestamp tokens, the custody log, this computer's record of the export),
/// telling `progress` as it goes. `None` when cancelled.
#[tauri::command]
pub async fn evidence_verify(
    state: State<'_, AppState>,
    checks: State<'_, BundleChecks>,
    path: String,
    progress: Channel<ReadProgress>,
) -> Result<Option<BundleCheck>, CommandError> {
    let run = checks.0.start();
    verify::verify(&state, Path::new(&path), relay(progress), run.token()).await
}

/// Asks for a bundle to verify with the system's open dialog; `None` when closed.
#[tauri::command]
pub async fn evidence_pick_bundle<R: Runtime>(app: AppHandle<R>) -> Option<String> {
    let (tx, rx) = tokio::sync::oneshot::channel();
    app.dialog()
        .file()
        .add_filter("Evidence bundle (ZIP)", &["zip"])
        .pick_file(move |path| {
            let _ = tx.send(path.and_then(|path| path.into_path().ok()));
        });
    rx.await
        .ok()
        .flatten()
        .map(|path| path.display().to_string())
}
