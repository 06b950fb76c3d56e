//! Kept media in the window: the commands that read posts' media, and the app's own
//! `sightline-media` protocol, which serves a kept file by its SHA-256
//! (`sightline-media://localhost/<sha256>` on Linux) from core's media folder
//! (`sightline_core::media::serve`). The window's policy lets images and video come from this
//! scheme and from no other host, so the page never asks a third party for anything. The
//! media worker (`sightline_core::media::worker`) is started here once the window is up, its
//! counts sent as `media-progress` and read by `media_progress`; `media_retry_failed` sends
//! the items given up on back to it. The backfill of archived posts' media
//! (`sightline_core::media::backfill`, for "keep every archived post's media" turned on
//! later) is started by `media_backfill_start` and at start-up with the setting on, stopped
//! by `media_backfill_stop`, its status sent as `media-backfill`.

use std::sync::Arc;
use std::time::Duration;

use sightline_core::errors::CommandError;
use sightline_core::media::backfill::{Backfill, BackfillStatus};
use sightline_core::media::files::MediaFolder;
use sightline_core::media::matches::{self, SamePicture};
use sightline_core::media::queue;
use sightline_core::media::serve::{self, Served};
use sightline_core::media::worker::{self, MediaWorker};
use sightline_core::state::AppState;
use sightline_store::{MediaCounts, MediaItemRecord};
use tauri::http::{Request, Response};
use tauri::{AppHandle, Builder, Emitter, Manager, Runtime};

use crate::surface::{define_commands, ok};

define_commands! {
    read media_for_posts(post_ids: Vec<String>) -> Vec<MediaItemRecord>
        = |store| store.media_for_posts(&post_ids).await;
    // "Same picture elsewhere": the posts but `post_id` holding the file or a near copy.
    read media_same_picture(sha256: String, post_id: Option<String>) -> SamePicture
        = |store| matches::same_picture(&store, &sha256, post_id.as_deref()).await;
    // The media queue's counts (waiting, kept, gone, failed, too large; files and bytes).
    read media_progress() -> MediaCounts
        = |store| worker::counts(&store).await;
    // "Retry failed": the items given up on wait again, fetched at the worker's pace; how many.
    change media_retry_failed() -> u64 = |store| queue::retry_failed(&store).await;
    // Where the backfill of archived posts' media is.
    read media_backfill_status() -> BackfillStatus
        = |backfill: Arc<Backfill>| ok(backfill.status());
    // Starts (or goes on with) the backfill, when Settings keep every archived post's media.
    hand media_backfill_start() -> BackfillStatus;
    // Stops the backfill after its current page; started again, it goes on from there.
    set media_backfill_stop() -> BackfillStatus = |backfill: Arc<Backfill>| {
        backfill.stop();
        ok(backfill.status())
    };
}

/// The event the backfill's status travels on, after each page.
pub const MEDIA_BACKFILL: &str = "media-backfill";

/// Starts the backfill in the background when the setting is on (else leaves it as it is);
/// its status now.
#[tauri::command]
pub async fn media_backfill_start<R: Runtime>(
    app: AppHandle<R>,
    state: tauri::State<'_, AppState>,
    backfill: tauri::State<'_, Arc<Backfill>>,
) -> Result<BackfillStatus, CommandError> {
    if state.settings().media_keep_all_archived {
        state.store().await?;
        run_backfill(&app);
    }
    Ok(backfill.status())
}

/// Runs the backfill on the async runtime, its status sent to the window as it goes.
fn run_backfill<R: Runtime>(app: &AppHandle<R>) {
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        let state = app.state::<AppState>();
        let backfill = app.state::<Arc<Backfill>>().inner().clone();
        let Ok(store) = state.store().await else {
            return;
        };
        let events = app.clone();
        let told = move |status: &BackfillStatus| {
            if let Err(error) = events.emit(MEDIA_BACKFILL, status) {
                tracing::warn!(%error, "the media backfill's status could not reach the window");
            }
        };
        if let Err(error) = backfill.start(&store, &told).await {
            tracing::warn!(%error, "the media of archived posts could not all be queued");
        }
    });
}

/// The event the media worker's counts travel on as it fetches.
pub const MEDIA_PROGRESS: &str = "media-progress";

/// Nothing is fetched in the first seconds, while the window loads.
const FIRST_LOOK_AFTER: Duration = Duration::from_secs(5);

/// Starts the media worker once the window is up and the database can be written; its counts
/// go to the window as `media-progress`. With nothing queued it reads nothing.
pub fn start_background<R: Runtime>(app: &AppHandle<R>) {
    let events = app.clone();
    let progress: worker::Progress = Box::new(move |counts: &MediaCounts| {
        if let Err(error) = events.emit(MEDIA_PROGRESS, counts) {
            tracing::warn!(%error, "the media progress could not reach the window");
        }
    });
    let worker = Arc::new(MediaWorker::new(
        worker::PACE,
        sightline_core::monitors::system_clock(),
        Some(progress),
    ));
    app.manage(worker.clone());
    app.manage(Arc::new(Backfill::default()));
    let handle = app.clone();
    tauri::async_runtime::spawn(async move {
        tokio::time::sleep(FIRST_LOOK_AFTER).await;
        let state = handle.state::<AppState>();
        state.until_writable().await;
        // A backfill stopped by the app closing goes on where it got to.
        if state.settings().media_keep_all_archived {
            run_backfill(&handle);
        }
        worker.serve(&state).await;
    });
}

/// Registers the protocol: each request is answered on the async runtime, off the window's
/// thread.
pub fn register_protocol<R: Runtime>(builder: Builder<R>) -> Builder<R> {
    builder.register_asynchronous_uri_scheme_protocol(
        serve::SCHEME,
        |context, request, responder| {
            let app = context.app_handle().clone();
            tauri::async_runtime::spawn(async move {
                let served = answer(&app, &request).await;
                responder.respond(response(served));
            });
        },
    )
}

async fn answer<R: Runtime>(app: &tauri::AppHandle<R>, request: &Request<Vec<u8>>) -> Served {
    let not_ready = || Served {
        status: 503,
        headers: vec![("Content-Type", "text/plain; charset=utf-8".into())],
        body: b"The archive is not open yet.".to_vec(),
    };
    let Some(state) = app.try_state::<AppState>() else {
        return not_ready();
    };
    let Ok(store) = state.store().await else {
        return not_ready();
    };
    let range = request
        .headers()
        .get(tauri::http::header::RANGE)
        .and_then(|value| value.to_str().ok());
    serve::serve(
        &store,
        &MediaFolder::new(&state.data_dir),
        request.method().as_str(),
        request.uri().path(),
        range,
    )
    .await
}

fn response(served: Served) -> Response<Vec<u8>> {
    let mut response = Response::builder().status(served.status);
    for (name, value) in served.headers {
        response = response.header(name, value);
    }
    response.body(served.body).unwrap_or_else(|_| {
        let mut failed = Response::new(Vec::new());
        *failed.status_mut() = tauri::http::StatusCode::INTERNAL_SERVER_ERROR;
        failed
    })
}
