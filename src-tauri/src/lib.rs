//! The Sightline desktop shell: the adapter between the window and `sightline-core`.
//!
//! Only what needs Tauri lives here: the window and its plugins (dialog, opener, notification),
//! how its web view paints on a machine with no GPU (`painting`), the database opened (and
//! upgraded) in the background as the window loads, for the start screen (`database`), the
//! commands the UI calls
//! (thin: parse the arguments, call the core, map errors), the channel a stream's events travel
//! on, the `records-changed` event, the save dialog of exports, and the log file started before
//! the window opens (`run`; "Open the log folder" in Settings). Everything
//! the app *does* — the request pipeline, streaming, paging, keys, session, settings, state,
//! errors — is in `crates/core`, which knows nothing of Tauri.

pub mod analysis;
pub mod commands;
pub mod database;
pub mod evidence;
pub mod export;
pub mod investigations;
pub mod monitors;
pub mod painting;
pub mod provenance;

use std::path::PathBuf;
use std::sync::Arc;

use tauri::{Manager, Runtime};

use sightline_core::environment::{self, Environment};
use sightline_core::forecast::{self, Backoff, Following};
use sightline_core::keychain::{KeyringStore, SecretStore};
use sightline_core::logging;
use sightline_core::state::AppState;
use sightline_core::KEYCHAIN_SERVICE;

/// Registers state and commands on any runtime, so tests can build the same app on the mock one.
pub fn configure<R: Runtime>(
    builder: tauri::Builder<R>,
    environment: Environment,
    secrets: Arc<dyn SecretStore>,
) -> tauri::Builder<R> {
    builder
        .plugin(tauri_plugin_dialog::init())
        .plugin(tauri_plugin_opener::init())
        .plugin(tauri_plugin_notification::init())
        .manage(evidence::BundleExports::default())
        .setup(move |app| {
            Ok(manage_state(
                app.handle(),
                environment.clone(),
                secrets.clone(),
            )?)
        })
        .invoke_handler(tauri::generate_handler![
            commands::app_info,
            commands::app_status,
            database::database_status,
            database::database_open_read_only,
            database::database_restore_backup,
            database::database_start_afresh,
            database::database_retry,
            commands::open_link,
            commands::open_log_folder,
            commands::show_in_folder,
            commands::key_add,
            commands::key_connect,
            commands::key_rename,
            commands::key_set_active,
            commands::key_verify,
            commands::key_rotate,
            commands::key_delete,
            commands::use_demo,
            commands::settings_get,
            commands::settings_set,
            commands::display_zone,
            commands::ai_search,
            commands::links_web,
            commands::links_twitter,
            commands::twitter_search,
            commands::twitter_urls,
            commands::twitter_post,
            commands::twitter_post_user,
            commands::twitter_retweeters,
            commands::twitter_user_posts,
            commands::twitter_replies,
            commands::twitter_replies_post,
            commands::twitter_trends,
            commands::web_search,
            commands::web_crawl,
            commands::ai_search_stream,
            commands::cancel_stream,
            commands::forecast,
            commands::forecast_stop,
            commands::forecast_resume,
            commands::forecast_following,
            commands::retweeters_next_page,
            commands::user_posts_next_page,
            commands::estimate_cost,
            commands::history_list,
            commands::history_result,
            provenance::provenance_get,
            provenance::provenance_verify,
            provenance::provenance_history,
            provenance::provenance_posts,
            commands::history_pin,
            commands::history_delete,
            commands::archive_posts,
            commands::archive_links,
            commands::spend_totals,
            commands::spend_by_day,
            commands::spend_breakdown,
            commands::learned_rates,
            commands::budget_get,
            commands::budget_set,
            export::export_history,
            export::export_posts,
            export::export_ledger,
            export::export_forecasts,
            evidence::evidence_export,
            evidence::evidence_cancel,
            evidence::evidence_verify,
            evidence::evidence_pick_bundle,
            investigations::investigation_list,
            investigations::investigation_create,
            investigations::investigation_update,
            investigations::investigation_archive,
            investigations::investigation_delete,
            investigations::investigation_active,
            investigations::investigation_set_active,
            investigations::investigation_get,
            investigations::investigation_posts,
            investigations::investigation_add,
            investigations::investigation_remove,
            investigations::investigation_memberships,
            investigations::investigation_post_set,
            investigations::investigation_tags,
            investigations::investigation_check_estimate,
            investigations::investigation_check,
            investigations::investigation_checks,
            investigations::investigation_check_report,
            analysis::analysis_summary,
            analysis::analysis_activity,
            analysis::analysis_heatmap,
            analysis::analysis_top,
            analysis::analysis_network,
            analysis::analysis_posts,
            analysis::analysis_conversation,
            analysis::analysis_conversation_estimate,
            analysis::analysis_conversation_fetch,
            analysis::analysis_export_network,
            analysis::analysis_export_table,
            analysis::analysis_save_chart,
            monitors::monitor_list,
            monitors::monitor_create,
            monitors::monitor_update,
            monitors::monitor_delete,
            monitors::monitor_pause,
            monitors::monitor_resume,
            monitors::monitor_run_now,
            monitors::monitor_confirm,
            monitors::monitor_skip,
            monitors::monitor_estimate,
            monitors::monitor_posts,
            monitors::monitor_mark_seen,
            monitors::monitor_mark_all_seen,
            monitors::monitor_unseen,
            monitors::monitor_runs,
            monitors::collection_start,
            monitors::collection_list,
            monitors::collection_pause,
            monitors::collection_resume,
            monitors::collection_cancel,
            monitors::collection_delete,
            monitors::collection_runs,
            monitors::collection_posts,
            monitors::collection_estimate,
        ])
}

/// Creates the data folder and registers the shared state. Runs once, when the app is ready.
pub fn manage_state<R: Runtime>(
    app: &tauri::AppHandle<R>,
    environment: Environment,
    secrets: Arc<dyn SecretStore>,
) -> Result<(), String> {
    let data_dir = resolve_data_dir(&environment, app.path().app_data_dir())?;
    std::fs::create_dir_all(&data_dir).map_err(|error| {
        format!(
            "Could not create the data folder {}: {error}",
            data_dir.display()
        )
    })?;
    app.manage(AppState::new(data_dir, environment, secrets)?);
    let following = Arc::new(Following::default());
    app.manage(following.clone());
    // The database opens (and upgrades) while the window loads; the start screen follows it.
    database::open_in_background(app);
    // Forecasts still running when the app last closed are followed again, once the database
    // can be written (never while it is read-only or waiting on the recovery screen).
    let handle = app.clone();
    tauri::async_runtime::spawn(async move {
        let state = handle.state::<AppState>();
        state.until_writable().await;
        let updates = commands::forecast_updates(handle.clone());
        if let Err(error) =
            forecast::resume_all(&state, following, Backoff::default(), updates).await
        {
            tracing::warn!(error = error.message(), "forecasts could not be resumed");
        }
    });
    // Monitors run (catching up once), and collections left running wait to be resumed.
    monitors::start_background(app);
    Ok(())
}

/// `SIGHTLINE_DATA_DIR` wins; otherwise the platform's per-user app data folder.
fn resolve_data_dir(
    environment: &Environment,
    platform_dir: tauri::Result<PathBuf>,
) -> Result<PathBuf, String> {
    match &environment.data_dir {
        Some(dir) => Ok(dir.clone()),
        None => platform_dir.map_err(|error| format!("Could not find a data folder: {error}")),
    }
}

pub fn run() {
    painting::choose_for_this_machine();
    let secrets: Arc<dyn SecretStore> = Arc::new(KeyringStore::new(KEYCHAIN_SERVICE));
    // `SIGHTLINE_STARTUP_PROBE=1`: say when the page has loaded, as tools/bare-window does, so
    // scripts/bench-startup.py can time both the same way.
    let probe = std::env::var_os(environment::STARTUP_PROBE_VAR).is_some();
    let environment = Environment::from_process();
    let app = configure(tauri::Builder::default(), environment.clone(), secrets)
        .on_page_load(move |_, payload| {
            if probe && matches!(payload.event(), tauri::webview::PageLoadEvent::Finished) {
                println!("startup-probe: ready");
            }
        })
        .build(tauri::generate_context!())
        .expect("Sightline could not start");
    let mut log = start_log(&environment, &app);
    app.run(move |_, event| {
        if let tauri::RunEvent::Exit = event {
            // Writes out the log's last lines before the process ends.
            log.take();
        }
    });
}

/// The log file in `<data folder>/logs` (`sightline_core::logging`), started before the window
/// opens. Without it (no data folder, a read-only disk) Sightline still runs, and says why on
/// stderr.
fn start_log<R: Runtime>(
    environment: &Environment,
    app: &tauri::App<R>,
) -> Option<logging::LogGuard> {
    let started = resolve_data_dir(environment, app.path().app_data_dir())
        .and_then(|data_dir| logging::start(&data_dir));
    match started {
        Ok(guard) => Some(guard),
        Err(problem) => {
            eprintln!("Sightline runs without its log file: {problem}");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sightline_core::keychain::MemoryStore;
    use tauri::ipc::{CallbackFn, InvokeBody};
    use tauri::test::{get_ipc_response, mock_builder, mock_context, noop_assets, INVOKE_KEY};
    use tauri::webview::InvokeRequest;

    fn invoke(
        webview: &tauri::WebviewWindow<tauri::test::MockRuntime>,
        cmd: &str,
    ) -> serde_json::Value {
        let request = InvokeRequest {
            cmd: cmd.into(),
            callback: CallbackFn(0),
            error: CallbackFn(1),
            url: "tauri://localhost".parse().unwrap(),
            body: InvokeBody::default(),
            headers: Default::default(),
            invoke_key: INVOKE_KEY.to_string(),
        };
        get_ipc_response(webview, request)
            .expect("command failed")
            .deserialize::<serde_json::Value>()
            .unwrap()
    }

    #[test]
    fn app_info_reports_version_data_dir_and_keychain() {
        let data = tempfile::tempdir().unwrap();
        let data_dir = data.path().join("nested").join("data");
        let environment = Environment {
            data_dir: Some(data_dir.clone()),
            ..Default::default()
        };
        let secrets: Arc<dyn SecretStore> = Arc::new(MemoryStore::default());
        let app = configure(mock_builder(), environment.clone(), secrets.clone())
            .build(mock_context(noop_assets()))
            .unwrap();
        // The mock runtime has no event loop to fire the setup hook: run what it runs.
        manage_state(app.handle(), environment, secrets).unwrap();
        let webview = tauri::WebviewWindowBuilder::new(&app, "main", Default::default())
            .build()
            .unwrap();

        let info = invoke(&webview, "app_info");
        assert_eq!(info["version"], env!("CARGO_PKG_VERSION"));
        assert_eq!(info["dataDir"], data_dir.display().to_string());
        assert_eq!(info["keychain"]["reachable"], true);
        assert_eq!(info["demoForced"], false);
        assert!(data_dir.is_dir(), "the data folder is created at start-up");
    }

    #[test]
    fn data_dir_override_beats_the_platform_folder() {
        let env = Environment {
            data_dir: Some("/tmp/over".into()),
            ..Default::default()
        };
        assert_eq!(
            resolve_data_dir(&env, Ok("/home/x/.local/share".into())).unwrap(),
            PathBuf::from("/tmp/over")
        );
        let plain = Environment::default();
        assert_eq!(
            resolve_data_dir(&plain, Ok("/home/x".into())).unwrap(),
            PathBuf::from("/home/x")
        );
    }
}
