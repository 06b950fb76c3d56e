//! Trusted timestamps' commands: each capture's stamp state, an investigation's counts and its
//! "Stamp now", a stored token checked, the public authorities Settings offers; and the
//! stamper started in the background once the window is up (each call is one function of
//! `sightline_core::stamper`).

use std::sync::Arc;
use std::time::Duration;

use sightline_core::settings::AppSettings;
use sightline_core::stamper::{self, KnownAuthority, Stamper};
use sightline_core::state::AppState;
use sightline_core::timestamps::TokenCheck;
use sightline_store::{CaptureStamp, StampCounts};
use tauri::{AppHandle, Manager, Runtime};

use crate::surface::{define_commands, ok};

define_commands! {
    read stamp_authorities() -> Vec<KnownAuthority>
        = |state| ok(stamper::known_authorities());
    set stamp_authority_set(tsa_url: Option<String>, certificate_pem: Option<String>) -> AppSettings
        = |state| stamper::set_authority(state, tsa_url, certificate_pem).await;
    read stamp_captures(history_ids: Vec<i64>) -> Vec<CaptureStamp>
        = |store| stamper::capture_stamps(&store, &history_ids).await;
    read stamp_investigation_counts(id: i64) -> StampCounts
        = |store| stamper::investigation_counts(&store, id).await;
    change stamp_investigation(id: i64) -> i64
        = |state, stamper: Arc<Stamper>| stamper.stamp_investigation(state, id).await;
    read stamp_check(history_id: i64) -> Option<TokenCheck>
        = |state| stamper::check(state, history_id).await;
}

/// Nothing is asked in the first seconds, while the window loads.
const FIRST_LOOK_AFTER: Duration = Duration::from_secs(5);

/// Starts the stamper once the window is up and the database can be written; with no
/// authority set in Settings it reads nothing.
pub fn start_background<R: Runtime>(app: &AppHandle<R>) {
    let stamper = Arc::new(Stamper::default());
    app.manage(stamper.clone());
    let handle = app.clone();
    tauri::async_runtime::spawn(async move {
        tokio::time::sleep(FIRST_LOOK_AFTER).await;
        let state = handle.state::<AppState>();
        state.until_writable().await;
        stamper.serve(&state).await;
    });
}
