//! Giving back the memory start-up used, once start-up is over.
//!
//! glibc keeps what a program frees in its heaps for reuse, and returns little of it to the
//! system by itself: each thread that allocated gets a heap of its own, trimmed only when a large
//! block at its top is freed. Opening the store (an upgrade's check and migrations included),
//! loading the page's assets and the first commands leave freed blocks behind in several of them
//! that the idle app does not need again soon. When both the page has loaded and the store is
//! open, [`after_start_up`] asks glibc once to hand whole free pages back (`malloc_trim`); later
//! work takes memory from the system again as it needs it.
//!
//! Measured with `scripts/bench-startup.py`'s idle reading (the app's process, release build, an
//! empty data folder): 1 to 3 MB of its heaps (the glibc call made from a debugger at the same
//! moment, two runs against two without).

use std::sync::atomic::{AtomicBool, Ordering};

use sightline_core::state::AppState;
use tauri::{AppHandle, Manager, Runtime};

/// Set once the trim is asked for: a reload of the page does not ask again.
static ASKED: AtomicBool = AtomicBool::new(false);

/// Called when the page has loaded: waits for the store to open, then trims, once per process.
pub fn after_start_up<R: Runtime>(app: &AppHandle<R>) {
    if ASKED.swap(true, Ordering::Relaxed) {
        return;
    }
    let handle = app.clone();
    tauri::async_runtime::spawn(async move {
        // Opened already or opening (`database::open_in_background`); a problem is the
        // recovery screen's, and start-up is over either way.
        let _ = handle.state::<AppState>().store().await;
        let _ = tauri::async_runtime::spawn_blocking(give_back_free_pages).await;
    });
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn give_back_free_pages() {
    // SAFETY: malloc_trim only walks glibc's own heaps under their locks; any thread may call it.
    let trimmed = unsafe { libc::malloc_trim(0) };
    tracing::debug!(trimmed, "free heap pages returned after start-up");
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn give_back_free_pages() {}
