//! Coordination commands: the core finds the groups (`sightline_core::coordination`); this
//! relays its progress on a channel the window opens, keeps the running search's cancel token
//! (one search at a time, so "Stop" means that one: `crate::running`) and the last result,
//! which the exports write through the save dialog (`crate::export::pick_path`). Written by
//! hand: the search (a channel) and the export (the dialog).

use std::sync::{Arc, Mutex};

use sightline_core::analysis;
use sightline_core::coordination::export::{self, CoordinationFormat};
use sightline_core::coordination::{
    self, Coordination, CoordinationOptions, CoordinationOutcome, CoordinationProgress,
    SignalWeight, SIGNALS,
};
use sightline_core::errors::CommandError;
use sightline_core::state::AppState;
use sightline_store::AnalysisScope;
use tauri::ipc::Channel;
use tauri::{AppHandle, Runtime, State};

use crate::export::pick_path;
use crate::running::{relay, Running};
use crate::surface::{define_commands, ok};

define_commands! {
    // The options a search starts from, each signal's weight in the fused view written out.
    read coordination_defaults() -> CoordinationOptions = |state| ok(defaults());
    hand coordination_find(scope: AnalysisScope, options: CoordinationOptions;
        progress: CoordinationProgress) -> CoordinationOutcome;
    // Stops the running search; nothing of it is kept.
    set coordination_cancel() -> () = |runs: CoordinationRuns| {
        runs.running.cancel();
        ok(())
    };
    hand coordination_export(format: CoordinationFormat) -> Option<String>;
}

/// The default options, with every signal's default weight in `weights` so the screen shows it.
fn defaults() -> CoordinationOptions {
    CoordinationOptions {
        weights: SIGNALS
            .iter()
            .map(|&signal| SignalWeight {
                signal,
                weight: signal.default_weight(),
            })
            .collect(),
        ..CoordinationOptions::default()
    }
}

/// The running search's cancel token, and the last result with its scope's name.
#[derive(Default)]
pub struct CoordinationRuns {
    running: Running,
    last: Mutex<Option<(Arc<Coordination>, String)>>,
}

/// Looks for coordination in `scope`, telling `progress` as it goes; the result is also kept
/// for the exports.
#[tauri::command]
pub async fn coordination_find(
    state: State<'_, AppState>,
    runs: State<'_, CoordinationRuns>,
    scope: AnalysisScope,
    options: CoordinationOptions,
    progress: Channel<CoordinationProgress>,
) -> Result<CoordinationOutcome, CommandError> {
    let store = state.store().await?;
    let name = analysis::summary(&store, &scope).await?.name;
    let run = runs.running.start();
    let outcome =
        coordination::find(&store, &scope, &options, &mut relay(progress), run.token()).await;
    drop(run);
    if let Ok(CoordinationOutcome::Done { result }) = &outcome {
        if let Ok(mut last) = runs.last.lock() {
            *last = Some((Arc::new(result.as_ref().clone()), name));
        }
    }
    outcome
}

/// Saves the last result's edges as CSV or GEXF; `None` when the save dialog was closed.
#[tauri::command]
pub async fn coordination_export<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    runs: State<'_, CoordinationRuns>,
    format: CoordinationFormat,
) -> Result<Option<String>, CommandError> {
    let Some((result, name)) = runs.last.lock().ok().and_then(|last| last.clone()) else {
        return Err(CommandError::Invalid {
            message: "There is nothing to export yet: run the search for coordination first."
                .into(),
            fields: Vec::new(),
        });
    };
    let Some(path) = pick_path(&app, &state, "sightline-coordination", format.extension()).await?
    else {
        return Ok(None);
    };
    let description = format!("Coordination in {name}");
    let written = path.clone();
    tokio::task::spawn_blocking(move || export::write(&result, format, &description, &written))
        .await
        .map_err(|error| CommandError::internal(format!("The export stopped: {error}")))??;
    Ok(Some(path.display().to_string()))
}
