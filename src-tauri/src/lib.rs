//! The Sightline desktop shell: the adapter between the window and `sightline-core`.
//!
//! Only what needs Tauri lives here: the window and its plugins (dialog, opener, notification),
//! how its web view paints on a machine with no GPU (`painting`), the database opened (and
//! upgraded) in the background as the window loads, for the start screen (`database`), the
//! commands the UI calls, the channel a stream's events travel on, the `records-changed`
//! event, the save dialog of exports, the `sightline-media` protocol that serves kept media to
//! the window (`media`), the log file started before the window opens (`run`;
//! "Open the log folder" in Settings), the free heap pages handed back once the page has loaded
//! and the store is open (`settled`), and the databases closed at exit (`run`, so the next
//! start knows the close was clean and skips the check of the whole file). Everything the app *does* — the request pipeline,
//! streaming, paging, keys, session, settings, state, errors, and every rule a test can name —
//! is in `crates/core`, which knows nothing of Tauri.
//!
//! The commands are declared once, in one table per feature module (`define_commands!`, see
//! [`surface`]): a line names a command, its arguments, its answer and the one core function it
//! calls; the Tauri commands, the handler, the capability, `build.rs`'s list and the UI's typed
//! map come from those tables. Only commands that involve the window are written by hand.

pub mod analysis;
pub mod case_packages;
pub mod commands;
pub mod coordination;
pub mod database;
pub mod evidence;
pub mod export;
pub mod imports;
pub mod investigations;
pub mod media;
pub mod monitors;
pub mod painting;
pub mod provenance;
mod running;
mod settled;
pub mod signing;
pub mod stamps;
pub mod storage;
pub mod surface;
pub mod wacz;

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
    media::register_protocol(builder)
        .plugin(tauri_plugin_dialog::init())
        .plugin(tauri_plugin_opener::init())
        .plugin(tauri_plugin_notification::init())
        .manage(evidence::BundleExports::default())
        .manage(evidence::BundleChecks::default())
        .manage(wacz::WaczExports::default())
        .manage(imports::ImportRuns::default())
        .manage(storage::Compactions::default())
        .manage(case_packages::CaseExports::default())
        .manage(case_packages::CaseOpens::default())
        .manage(coordination::CoordinationRuns::default())
        .setup(move |app| {
            Ok(manage_state(
                app.handle(),
                environment.clone(),
                secrets.clone(),
            )?)
        })
        .invoke_handler(surface::handler())
}

/// Creates the data folder and registers the shared state. Runs once, when the app is ready.
pub fn manage_state<R: Runtime>(
    app: &tauri::AppHandle<R>,
    environment: Environment,
    secrets: Arc<dyn SecretStore>,
) -> Result<(), String> {
    let data_dir = environment.data_dir_or(app.path().app_data_dir())?;
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
    // Captures waiting for a trusted timestamp are sent to the authority set in Settings.
    stamps::start_background(app);
    // Media waiting to be kept are fetched, one at a time, from the links their posts name.
    media::start_background(app);
    Ok(())
}

pub fn run() {
    painting::choose_for_this_machine();
    let secrets: Arc<dyn SecretStore> = Arc::new(KeyringStore::new(KEYCHAIN_SERVICE));
    // `SIGHTLINE_STARTUP_PROBE=1`: say when the page has loaded, as tools/bare-window does, so
    // scripts/bench-startup.py can time both the same way.
    let probe = std::env::var_os(environment::STARTUP_PROBE_VAR).is_some();
    let environment = Environment::from_process();
    let app = configure(tauri::Builder::default(), environment.clone(), secrets)
        .on_page_load(move |webview, payload| {
            if matches!(payload.event(), tauri::webview::PageLoadEvent::Finished) {
                if probe {
                    println!("startup-probe: ready");
                }
                settled::after_start_up(webview.app_handle());
            }
        })
        .build(tauri::generate_context!())
        .expect("Sightline could not start");
    let mut log = start_log(&environment, &app);
    app.run(move |handle, event| {
        if let tauri::RunEvent::Exit = event {
            database::close_at_exit(handle);
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
    let started = environment
        .data_dir_or(app.path().app_data_dir())
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
}
