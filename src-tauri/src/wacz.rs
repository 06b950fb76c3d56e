//! "Export as web archive": the core gathers the investigation, signs and writes the WACZ and
//! records it in the custody log (`sightline_core::wacz`); this asks where to save
//! (`crate::export::pick_path`), relays progress on a channel and keeps the running export's
//! cancel token (`crate::running`, as the bundle's export does). Written by hand: the save
//! dialog and the channel.

use sightline_core::errors::CommandError;
use sightline_core::evidence::BundleProgress;
use sightline_core::state::AppState;
use sightline_core::wacz::{self, WaczOutcome};
use tauri::ipc::Channel;
use tauri::{AppHandle, Runtime, State};

use crate::export::pick_path;
use crate::running::{relay, Running};
use crate::surface::{define_commands, ok};

define_commands! {
    hand wacz_export(investigation_id: i64; progress: BundleProgress) -> Option<WaczOutcome>;
    // Stops the running export; it leaves no file behind.
    set wacz_cancel() -> () = |exports: WaczExports| {
        exports.0.cancel();
        ok(())
    };
}

/// The web-archive export running now, if any: one at a time, so "Cancel" means that one.
#[derive(Default)]
pub struct WaczExports(Running);

/// Writes investigation `investigation_id` as a web archive (WACZ) into the export folder, or
/// where the save dialog says. `None` when the user closed the dialog.
#[tauri::command]
pub async fn wacz_export<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    exports: State<'_, WaczExports>,
    investigation_id: i64,
    progress: Channel<BundleProgress>,
) -> Result<Option<WaczOutcome>, CommandError> {
    let store = state.store().await?;
    let bundle = wacz::gather(&store, investigation_id).await?;
    let Some(path) = pick_path(&app, &state, &wacz::file_name(&bundle), "wacz").await? else {
        return Ok(None);
    };
    let run = exports.0.start();
    wacz::export(
        &state,
        &store,
        &bundle,
        &path,
        &mut relay(progress),
        run.token(),
    )
    .await
    .map(Some)
}
