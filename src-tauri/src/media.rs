//! Kept media in the window: the commands that read posts' media, and the app's own
//! `sightline-media` protocol, which serves a kept file by its SHA-256
//! (`sightline-media://localhost/<sha256>` on Linux) from core's media folder
//! (`sightline_core::media::serve`). The window's policy lets images and video come from this
//! scheme and from no other host, so the page never asks a third party for anything. The
//! media worker (`sightline_core::media::worker`) is started here once the window is up, its
//! counts sent as `media-progress` and read by `media_progress`.

use std::sync::Arc;
use std::time::Duration;

use sightline_core::media::files::MediaFolder;
use sightline_core::media::matches::{self, SamePicture};
use sightline_core::media::serve::{self, Served};
use sightline_core::media::worker::{self, MediaWorker};
use sightline_core::state::AppState;
use sightline_store::{MediaCounts, MediaItemRecord};
use tauri::http::{Request, Response};
use tauri::{AppHandle, Builder, Emitter, Manager, Runtime};

use crate::surface::define_commands;

define_commands! {
    read media_for_posts(post_ids: Vec<String>) -> Vec<MediaItemRecord>
        = |store| store.media_for_posts(&post_ids).await;
    // "Same picture elsewhere": the posts but `post_id` holding the file or a near copy.
    read media_same_picture(sha256: String, post_id: Option<String>) -> SamePicture
        = |store| matches::same_picture(&store, &sha256, post_id.as_deref()).await;
    // The media queue's counts (waiting, kept, gone, failed, too large; files and bytes).
    read media_progress() -> MediaCounts
        = |store| worker::counts(&store).await;
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
    let handle = app.clone();
    tauri::async_runtime::spawn(async move {
        tokio::time::sleep(FIRST_LOOK_AFTER).await;
        let state = handle.state::<AppState>();
        state.until_writable().await;
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
