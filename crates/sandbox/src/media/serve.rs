//! The media routes, as a picture and video host answers them: no key asked for, files made
//! on request from each media's plan (`plan.rs`), gone links answering 404 or 410.
//!
//! - `GET /media/<file key>.jpg` or `.png`: a photo (as its plan's copy), or a video's poster;
//! - `GET /video/<file key>/<width>x<height>.mp4`: one of a video's variants.
//!
//! Faults queued for the route `/media` or `/video` apply to their next answer: `status` (with
//! its headers; 429 and 503 get `Retry-After: 1` unless given one), `stall`, and `cut_stream`
//! (half the file sent: `abrupt`, the whole length announced and the connection broken;
//! otherwise a shorter file that ends cleanly). Other faults are used up with no effect.
//! Every request is noted ([`MediaHit`]; `Sandbox::media_hits`, or `GET /__sandbox/media`
//! with faults enabled), so tests can count fetches and see that no key was sent and who asked.

use super::picture::{copy_pixels, jpeg, png};
use super::plan::{plan, Format, Plan};
use super::video::{poster, video, VIDEO_SIZES};
use crate::faults::Fault;
use crate::fxhash::FxMap;
use crate::server::{body_from_chunks, AppState, CUT_DELAY};
use crate::world::{MediaKind, Post, World};
use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

/// One request to a media route, as the host saw it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct MediaHit {
    /// The request's path.
    pub path: String,
    /// The status answered.
    pub status: u16,
    /// Whether the request carried an `Authorization` header (a media host needs none).
    pub authorization: bool,
    /// The request's `User-Agent`, if any: tells the app's fetcher from a web page.
    pub user_agent: Option<String>,
}

/// The media requests a sandbox answered, oldest first.
#[derive(Debug, Default)]
pub struct MediaLog {
    hits: Mutex<Vec<MediaHit>>,
}

impl MediaLog {
    fn note(&self, hit: MediaHit) {
        self.hits
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(hit);
    }

    /// Every media request so far.
    pub fn hits(&self) -> Vec<MediaHit> {
        self.hits.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// Which seeded post carries each media file key, built on the first media request (the
/// trickle's posts are indexed in their tail, `world/live.rs`).
#[derive(Default)]
pub struct MediaIndex {
    seeded: OnceLock<FxMap<Box<str>, u32>>,
}

impl MediaIndex {
    fn seeded(&self, world: &World) -> &FxMap<Box<str>, u32> {
        self.seeded.get_or_init(|| {
            let mut map = FxMap::default();
            for (i, post) in world.posts.iter().enumerate() {
                for m in &post.media {
                    map.insert(m.file_key.as_str().into(), i as u32);
                }
            }
            map
        })
    }
}

/// What a media request asks for.
#[derive(Clone, Copy)]
enum Wanted {
    Picture(Format),
    Video(super::VideoSize),
}

/// `GET /media/<file>`.
pub(crate) async fn picture_route(
    State(state): State<Arc<AppState>>,
    Path(file): Path<String>,
    headers: HeaderMap,
) -> Response {
    let wanted = match file.rsplit_once('.') {
        Some((key, "jpg")) => Some((key.to_string(), Wanted::Picture(Format::Jpeg))),
        Some((key, "png")) => Some((key.to_string(), Wanted::Picture(Format::Png))),
        _ => None,
    };
    answer(state, "/media", format!("/media/{file}"), wanted, &headers).await
}

/// `GET /video/<file key>/<size>`.
pub(crate) async fn video_route(
    State(state): State<Arc<AppState>>,
    Path((key, file)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    let size = file.strip_suffix(".mp4").and_then(|dims| {
        VIDEO_SIZES
            .iter()
            .find(|s| dims == format!("{}x{}", s.width, s.height))
            .copied()
    });
    let wanted = size.map(|s| (key.clone(), Wanted::Video(s)));
    answer(
        state,
        "/video",
        format!("/video/{key}/{file}"),
        wanted,
        &headers,
    )
    .await
}

async fn answer(
    state: Arc<AppState>,
    route: &str,
    path: String,
    wanted: Option<(String, Wanted)>,
    headers: &HeaderMap,
) -> Response {
    let response = respond(&state, route, wanted).await;
    state.media_log.note(MediaHit {
        path,
        status: response.status().as_u16(),
        authorization: headers.contains_key(header::AUTHORIZATION),
        user_agent: headers
            .get(header::USER_AGENT)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned),
    });
    response
}

async fn respond(state: &Arc<AppState>, route: &str, wanted: Option<(String, Wanted)>) -> Response {
    let mut cut = None;
    match state.faults.next(route) {
        Some(Fault::Status {
            status, headers, ..
        }) => {
            let code = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            let mut r = text(code);
            if matches!(status, 429 | 503) {
                r.headers_mut()
                    .insert(header::RETRY_AFTER, HeaderValue::from(1));
            }
            for (k, v) in &headers {
                if let (Ok(name), Ok(value)) =
                    (HeaderName::try_from(k.as_str()), HeaderValue::from_str(v))
                {
                    r.headers_mut().insert(name, value);
                }
            }
            return r;
        }
        Some(Fault::Stall { ms }) => tokio::time::sleep(Duration::from_millis(ms)).await,
        Some(Fault::CutStream { abrupt, .. }) => cut = Some(abrupt),
        _ => {}
    }
    let Some((key, wanted)) = wanted else {
        return text(StatusCode::NOT_FOUND);
    };
    // Drawing and encoding is CPU work: on the blocking pool, like the operations.
    let work = state.clone();
    let made = tokio::task::spawn_blocking(move || make(&work, &key, wanted))
        .await
        .unwrap_or(Err(StatusCode::INTERNAL_SERVER_ERROR));
    match made {
        Err(status) => text(status),
        Ok((bytes, content_type, created_ms)) => file(bytes, content_type, created_ms, cut),
    }
}

/// The file asked for, its type and when its post was made; or the status of a missing or
/// gone one.
fn make(
    state: &AppState,
    key: &str,
    wanted: Wanted,
) -> Result<(Vec<u8>, &'static str, i64), StatusCode> {
    let now_ms = state.now_ms();
    let world = &state.world;
    let post: &Post;
    let tail;
    if let Some(&i) = state.media.seeded(world).get(key) {
        post = &world.posts[i as usize];
    } else {
        tail = state.live.tail(world, now_ms);
        let i = *tail.by_media.get(key).ok_or(StatusCode::NOT_FOUND)?;
        post = &tail.posts[(i - tail.base) as usize];
        // Made ahead of the clock, not posted yet.
        if post.created_ms > now_ms {
            return Err(StatusCode::NOT_FOUND);
        }
    }
    let media = post
        .media
        .iter()
        .find(|m| &*m.file_key == key)
        .ok_or(StatusCode::NOT_FOUND)?;
    let plan: Plan = plan(world.seed, world.now_ms, post.created_ms, media);
    if let Some(status) = plan.gone {
        return Err(StatusCode::from_u16(status).unwrap_or(StatusCode::NOT_FOUND));
    }
    let made = match (wanted, plan.kind) {
        (Wanted::Picture(format), MediaKind::Photo) => {
            let (pixels, quality) = copy_pixels(plan.picture, plan.variant);
            match format {
                Format::Jpeg => jpeg(&pixels, quality),
                Format::Png => png(&pixels),
            }
        }
        (Wanted::Picture(Format::Jpeg), MediaKind::Video) => poster(plan.picture),
        (Wanted::Picture(Format::Png), MediaKind::Video) => {
            let img = image::load_from_memory(&poster(plan.picture))
                .map_err(|_| StatusCode::INTERNAL_SERVER_ERROR)?;
            png(&img.to_rgb8())
        }
        (Wanted::Video(size), MediaKind::Video) => video(plan.picture, size),
        (Wanted::Video(_), MediaKind::Photo) => return Err(StatusCode::NOT_FOUND),
    };
    let content_type = match wanted {
        Wanted::Picture(format) => format.content_type(),
        Wanted::Video(_) => "video/mp4",
    };
    Ok((made, content_type, post.created_ms))
}

/// A media file's answer; `cut` sends half of it (`Some(true)`: and breaks the connection).
fn file(
    bytes: Vec<u8>,
    content_type: &'static str,
    created_ms: i64,
    cut: Option<bool>,
) -> Response {
    let mut length = bytes.len();
    let body = match cut {
        None => Body::from(bytes),
        Some(abrupt) => {
            let half = Bytes::from(bytes).slice(..length / 2);
            let mut chunks = vec![(Duration::ZERO, Some(half))];
            if abrupt {
                chunks.push((CUT_DELAY, None));
            } else {
                length /= 2;
            }
            body_from_chunks(chunks)
        }
    };
    let mut r = Response::new(body);
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    h.insert(header::CONTENT_LENGTH, HeaderValue::from(length));
    // Media never change once posted: hosts let them be kept for long.
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("max-age=604800, must-revalidate"),
    );
    if let Some(when) = chrono::DateTime::from_timestamp_millis(created_ms) {
        let date = when.format("%a, %d %b %Y %H:%M:%S GMT").to_string();
        if let Ok(v) = HeaderValue::from_str(&date) {
            h.insert(header::LAST_MODIFIED, v);
        }
    }
    r
}

/// A short plain-text answer for a status without a file.
fn text(status: StatusCode) -> Response {
    let reason = status.canonical_reason().unwrap_or("Error");
    let mut r = (status, reason.to_string()).into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    r
}
