//! The HTTP layer: routes, and the pipeline every operation goes through
//! (auth → rate limit → fault → operation → billing → ETag).

use crate::auth::{classify, Verdict};
use crate::billing::{Charge, CostStyle, Rates, Service};
use crate::faults::{Fault, FaultQueue, FaultRequest};
use crate::ops::{Ctx, Op, Outcome, StreamEvent};
use crate::rate_limit::{retry_after_secs, RateLimiter};
use crate::world::World;
use axum::body::{to_bytes, Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderName, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

/// Largest request body read: a valid AI request (a prompt and two system messages at their
/// limits, in the widest characters) fits several times over. Larger bodies get 413.
const MAX_BODY: usize = 64 * 1024;
/// Longest request target (path and query) read, in bytes; longer gets 414, as servers answer.
/// A search query at its limit, percent-encoded in the widest characters, fits.
const MAX_URI: usize = 16 * 1024;

pub struct AppState {
    pub world: Arc<World>,
    pub keys: Vec<String>,
    pub limiter: Option<RateLimiter>,
    pub faults: Arc<FaultQueue>,
    pub faults_enabled: bool,
    pub pace: Duration,
    pub rates: Rates,
    /// How costs are computed and written (`--float-costs`).
    pub cost_style: CostStyle,
    pub tweets: crate::render::TweetCache,
    pub balances: Option<crate::balance::Balances>,
    pub billed: Arc<crate::billed::BilledLog>,
    pub jobs: crate::ops::forecast::Jobs,
    pub clock: Arc<crate::clock::Clock>,
    pub live: crate::world::live::Live,
    /// Which post carries each media file, and the media requests answered (`media/serve.rs`).
    pub media: crate::media::serve::MediaIndex,
    pub media_log: Arc<crate::media::MediaLog>,
}

impl AppState {
    /// The service clock: running with real time, or a test's manual clock.
    pub(crate) fn now_ms(&self) -> i64 {
        self.clock.now_ms(&self.world)
    }

    /// What `usage` units of `service` cost, written in this sandbox's style.
    fn charge(&self, service: Service, usage: u64) -> Charge {
        Charge::new(service, usage, &self.rates, self.cost_style)
    }
}

pub fn router(state: Arc<AppState>) -> Router {
    let mut router = Router::new();
    for op in Op::ALL {
        let handler = move |State(s): State<Arc<AppState>>, req: Request| async move {
            handle(s, op, req).await
        };
        router = if op.is_post() {
            router.route(op.path(), post(handler))
        } else {
            router.route(op.path(), get(handler))
        };
    }
    if state.faults_enabled {
        router = router.route(
            "/__sandbox/faults",
            get(list_faults).post(queue_faults).delete(clear_faults),
        );
        router = router.route("/__sandbox/billed", get(list_billed));
        router = router.route("/__sandbox/media", get(list_media));
        router = router.route("/__sandbox/clock", get(read_clock).post(advance_clock));
    }
    // The media host: public, like a CDN (no key, no billing).
    router = router
        .route("/media/{file}", get(crate::media::serve::picture_route))
        .route("/video/{key}/{file}", get(crate::media::serve::video_route));
    router
        .fallback(|uri: axum::http::Uri| async move { not_found_or_redirect(&uri) })
        .method_not_allowed_fallback(|| async {
            json_response(
                StatusCode::METHOD_NOT_ALLOWED,
                &json!({ "detail": "Method Not Allowed" }),
            )
        })
        .with_state(state)
}

/// Unknown paths are 404, except an operation's path with a trailing slash, which is moved
/// permanently to the path without it (with the contract's 301 body), as the service's
/// framework does. This gives clients a real 301 to follow.
fn not_found_or_redirect(uri: &axum::http::Uri) -> Response {
    let path = uri.path();
    let trimmed = path.trim_end_matches('/');
    if path.len() > trimmed.len() && Op::ALL.iter().any(|op| op.path() == trimmed) {
        let location = match uri.query() {
            Some(q) => format!("{trimmed}?{q}"),
            None => trimmed.to_string(),
        };
        let body = json!({ "detail": { "error_code": 301, "location": location, "message": "Moved Permanently" } });
        let mut r = json_response(StatusCode::MOVED_PERMANENTLY, &body);
        if let Ok(v) = HeaderValue::from_str(&location) {
            r.headers_mut().insert(header::LOCATION, v);
        }
        return r;
    }
    json_response(StatusCode::NOT_FOUND, &json!({ "detail": "Not Found" }))
}

fn json_response(status: StatusCode, body: &Value) -> Response {
    let mut r = (status, body.to_string()).into_response();
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    r
}

fn status_code(n: u16) -> StatusCode {
    StatusCode::from_u16(n).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
}

/// The contract's body for an error status, used by status faults without a body.
fn default_error_body(status: u16, path: &str) -> Value {
    match status {
        301 => {
            json!({ "detail": { "error_code": 301, "location": path, "message": "Moved Permanently" } })
        }
        401 => json!({ "detail": "Unauthorized" }),
        402 => json!({ "detail": "Insufficient balance: add credit to continue" }),
        403 => json!({ "detail": "Forbidden" }),
        429 => {
            json!({ "detail": { "error_code": 429, "message": "Too Many Requests", "retry_after": "1 seconds" } })
        }
        500 => {
            json!({ "detail": { "description": "An unexpected error occurred on the server.", "error_code": 500, "message": "Internal Server Error" } })
        }
        n => json!({ "detail": status_code(n).canonical_reason().unwrap_or("Error") }),
    }
}

async fn handle(state: Arc<AppState>, op: Op, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    if parts.uri.path_and_query().map_or(0, |t| t.as_str().len()) > MAX_URI {
        return json_response(
            StatusCode::URI_TOO_LONG,
            &json!({ "detail": "URI Too Long" }),
        );
    }
    let key = match parts.headers.get(header::AUTHORIZATION).map(|v| v.to_str()) {
        None => None,
        Some(Ok(v)) => Some(v.trim().to_string()),
        // Bytes that are not text cannot be a key.
        Some(Err(_)) => Some(String::from("\u{0}")),
    };
    match classify(key.as_deref(), &state.keys) {
        Verdict::Valid => {}
        Verdict::Missing => {
            return json_response(
                StatusCode::UNAUTHORIZED,
                &json!({ "detail": "Unauthorized" }),
            )
        }
        Verdict::UnknownKey => {
            return json_response(
                StatusCode::UNAUTHORIZED,
                &json!({ "error": "Invalid API key" }),
            )
        }
        Verdict::NotAKey => {
            return json_response(StatusCode::FORBIDDEN, &json!({ "detail": "Forbidden" }))
        }
    }
    let key = key.unwrap_or_default();
    if let Some(limiter) = &state.limiter {
        if let Err(wait) = limiter.check(&key) {
            let secs = retry_after_secs(wait);
            let mut r = json_response(
                StatusCode::TOO_MANY_REQUESTS,
                &json!({ "detail": { "error_code": 429, "message": "Too Many Requests", "retry_after": format!("{secs} seconds") } }),
            );
            r.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs));
            return r;
        }
    }

    if let Some(balances) = &state.balances {
        if !balances.has_credit(&key) {
            return json_response(
                StatusCode::PAYMENT_REQUIRED,
                &json!({ "detail": "Insufficient balance: add credit to continue" }),
            );
        }
    }
    let response = answer(&state, op, parts, body).await;
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    if let Some(cost_text) = header("x-service-cost-usd") {
        state.billed.record(crate::billed::BilledResponse {
            route: op.path().to_owned(),
            cost_usd: cost_text.clone(),
            service: header("x-service-service").unwrap_or_default(),
        });
        // What the answer says it cost is what the key is charged.
        if let (Some(balances), Some(cost)) =
            (&state.balances, crate::billing::parse_cost(&cost_text))
        {
            balances.charge(&key, cost);
        }
    }
    response
}

/// Runs an authorised request: pending fault, then the operation.
async fn answer(
    state: &Arc<AppState>,
    op: Op,
    parts: axum::http::request::Parts,
    body: Body,
) -> Response {
    let fault = state.faults.next(op.path());
    let outcome = match fault {
        Some(Fault::Status {
            status,
            body,
            headers,
        }) => {
            let body = body.unwrap_or_else(|| default_error_body(status, op.path()));
            let mut r = json_response(status_code(status), &body);
            if status == 429
                && !headers
                    .keys()
                    .any(|k| k.eq_ignore_ascii_case("retry-after"))
            {
                r.headers_mut()
                    .insert(header::RETRY_AFTER, HeaderValue::from(1));
            }
            add_headers(r.headers_mut(), &headers);
            return r;
        }
        Some(Fault::Body {
            body,
            status,
            content_type,
        }) => {
            return custom_body(state, op, body, status, content_type);
        }
        Some(Fault::Stall { ms }) => {
            tokio::time::sleep(Duration::from_millis(ms)).await;
            None
        }
        other => other,
    };
    let transform = outcome;

    let bytes = match to_bytes(body, MAX_BODY).await {
        Ok(b) => b,
        Err(_) => {
            return json_response(
                StatusCode::PAYLOAD_TOO_LARGE,
                &json!({ "detail": "Request body too large" }),
            )
        }
    };
    // Searching and writing answers is CPU work: it runs on the blocking pool, so that a
    // heavy request never holds an async worker, and every request queued behind it.
    let (work, uri) = (state.clone(), parts.uri.clone());
    let result = tokio::task::spawn_blocking(move || {
        let now_ms = work.now_ms();
        let tail = work.live.tail(&work.world, now_ms);
        let ctx = Ctx {
            world: &work.world,
            now_ms,
            pace: work.pace,
            posts: crate::posts::Posts::new(&work.world, &tail, &work.tweets, now_ms),
            jobs: &work.jobs,
            path: uri.path(),
        };
        op.run(&ctx, uri.query(), &bytes)
    })
    .await
    .unwrap_or_else(|_| Outcome::Error {
        status: 500,
        body: default_error_body(500, op.path()),
    });
    respond(state, op, &parts.method, &parts.headers, result, transform)
}

fn add_headers(headers: &mut HeaderMap, extra: &std::collections::BTreeMap<String, String>) {
    for (k, v) in extra {
        if let (Ok(name), Ok(value)) = (HeaderName::try_from(k.as_str()), HeaderValue::from_str(v))
        {
            headers.insert(name, value);
        }
    }
}

fn add_billing(headers: &mut HeaderMap, charge: &Charge) {
    for (name, value) in charge.headers() {
        headers.insert(
            HeaderName::from_static(name),
            HeaderValue::from_str(&value).expect("ascii header"),
        );
    }
}

/// A `Body` fault: the given content, billed like the operation when it is a success.
fn custom_body(
    state: &AppState,
    op: Op,
    body: Value,
    status: u16,
    content_type: Option<String>,
) -> Response {
    let (bytes, default_type) = match &body {
        Value::String(s) => (s.clone().into_bytes(), "text/plain; charset=utf-8"),
        other => (other.to_string().into_bytes(), "application/json"),
    };
    let content_type = content_type.unwrap_or_else(|| default_type.to_string());
    let mut r = Response::new(Body::from(bytes));
    *r.status_mut() = status_code(status);
    if let Ok(v) = HeaderValue::from_str(&content_type) {
        r.headers_mut().insert(header::CONTENT_TYPE, v);
    }
    if (200..300).contains(&status) {
        let usage = match (&body, op.service()) {
            (Value::Array(a), crate::billing::Service::X) => a.len() as u64,
            _ => 1,
        };
        add_billing(r.headers_mut(), &state.charge(op.service(), usage));
    }
    r
}

/// A fast, stable hash of a body for its ETag (8 bytes per step: bodies are tens of KB).
fn content_hash(body: &[u8]) -> u64 {
    use std::hash::Hasher;
    let mut h = crate::fxhash::FxHasher::default();
    h.write(body);
    h.write_usize(body.len());
    crate::rng::mix(h.finish())
}

/// Whether `If-None-Match` names this ETag (or is `*`).
fn etag_matches(headers: &HeaderMap, etag: &str) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|t| t.trim().trim_start_matches("W/"))
        .any(|t| t == "*" || t == etag)
}

fn respond(
    state: &AppState,
    op: Op,
    method: &Method,
    req_headers: &HeaderMap,
    outcome: Outcome,
    fault: Option<Fault>,
) -> Response {
    let service = op.service();
    match outcome {
        Outcome::Error { status, body } => json_response(status_code(status), &body),
        Outcome::Unbilled { body } => json_response(StatusCode::OK, &body),
        Outcome::Accepted { body, usage } => {
            let charge = state.charge(service, usage);
            let mut r = Response::new(Body::from(charge.mirror_into_object(body)));
            *r.status_mut() = StatusCode::ACCEPTED;
            r.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
            add_billing(r.headers_mut(), &charge);
            r
        }
        Outcome::Json { body, usage } => {
            let charge = state.charge(service, usage);
            let body = charge.mirror_into_object(body);
            send_body(
                method,
                req_headers,
                body,
                "application/json",
                &charge,
                fault,
            )
        }
        Outcome::Text {
            body,
            content_type,
            usage,
        } => {
            let charge = state.charge(service, usage);
            send_body(
                method,
                req_headers,
                body.into_bytes(),
                content_type,
                &charge,
                fault,
            )
        }
        Outcome::Stream { events, usage } => {
            let charge = state.charge(service, usage);
            let mut r = Response::new(stream_body(events, fault));
            let h = r.headers_mut();
            h.insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/event-stream; charset=utf-8"),
            );
            h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
            add_billing(h, &charge);
            r
        }
    }
}

fn send_body(
    method: &Method,
    req_headers: &HeaderMap,
    body: Vec<u8>,
    content_type: &'static str,
    charge: &Charge,
    fault: Option<Fault>,
) -> Response {
    let etag = (method == Method::GET && fault.is_none())
        .then(|| format!("\"{:016x}\"", content_hash(&body)));
    if let Some(tag) = &etag {
        if etag_matches(req_headers, tag) {
            let mut r = Response::new(Body::empty());
            *r.status_mut() = StatusCode::NOT_MODIFIED;
            r.headers_mut()
                .insert(header::ETAG, HeaderValue::from_str(tag).expect("hex etag"));
            return r;
        }
    }
    let mut r = Response::new(faulty_body(body, fault));
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    if let Some(tag) = etag {
        h.insert(header::ETAG, HeaderValue::from_str(&tag).expect("hex etag"));
    }
    add_billing(h, charge);
    r
}

/// A chunk to write and the pause before it; `None` breaks the connection.
pub(crate) type Chunk = (Duration, Option<Bytes>);

/// Pause before an abrupt cut, so that what was written reaches the client first (hyper drops
/// buffered bytes when a body fails).
pub(crate) const CUT_DELAY: Duration = Duration::from_millis(50);

pub(crate) fn body_from_chunks(chunks: Vec<Chunk>) -> Body {
    let stream = futures_util::stream::unfold(chunks.into_iter(), |mut it| async move {
        let (delay, chunk) = it.next()?;
        if !delay.is_zero() {
            tokio::time::sleep(delay).await;
        }
        let item = chunk.ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::ConnectionAborted, "fault: cut")
        });
        Some((item, it))
    });
    Body::from_stream(stream)
}

fn fragment(chunks: Vec<Chunk>, size: usize) -> Vec<Chunk> {
    let size = size.max(1);
    let mut out = Vec::new();
    for (delay, chunk) in chunks {
        match chunk {
            Some(bytes) => {
                for (n, piece) in bytes.chunks(size).enumerate() {
                    // Each piece is its own frame; a pause now and then also splits the reads.
                    let d = match n {
                        0 => delay,
                        n if n % 16 == 0 => Duration::from_millis(1),
                        _ => Duration::ZERO,
                    };
                    out.push((d, Some(Bytes::copy_from_slice(piece))));
                }
            }
            None => out.push((delay, None)),
        }
    }
    out
}

/// A whole (non-stream) body, altered by a transform fault if one is pending.
fn faulty_body(body: Vec<u8>, fault: Option<Fault>) -> Body {
    match fault {
        None | Some(Fault::PackEvents { .. }) => Body::from(body),
        Some(Fault::MalformedJson { .. }) => {
            let mut broken = body;
            while broken.last().is_some_and(u8::is_ascii_whitespace) {
                broken.pop();
            }
            broken.pop();
            broken.push(b',');
            Body::from(broken)
        }
        Some(Fault::CutStream { abrupt, .. }) => {
            let half = Bytes::from(body[..body.len() / 2].to_vec());
            let mut chunks = vec![(Duration::ZERO, Some(half))];
            if abrupt {
                chunks.push((CUT_DELAY, None));
            }
            body_from_chunks(chunks)
        }
        Some(Fault::Fragment { bytes }) => body_from_chunks(fragment(
            vec![(Duration::ZERO, Some(Bytes::from(body)))],
            bytes,
        )),
        Some(_) => Body::from(body),
    }
}

/// The SSE body: `data: <json>\n\n` per event, paced, altered by a transform fault.
fn stream_body(events: Vec<StreamEvent>, fault: Option<Fault>) -> Body {
    let mut lines: Vec<(Duration, String)> =
        events.into_iter().map(|e| (e.delay, e.json)).collect();
    let mut cut: Option<bool> = None;
    match &fault {
        Some(Fault::MalformedJson { at_event }) => {
            if let Some(line) = lines.get_mut(*at_event) {
                line.1 = String::from("{\"type\": \"text\", \"content\": }");
            }
        }
        Some(Fault::CutStream {
            after_events,
            abrupt,
        }) => {
            lines.truncate(*after_events);
            cut = Some(*abrupt);
        }
        Some(Fault::StreamError {
            after_events,
            message,
        }) => {
            lines.truncate(*after_events);
            lines.push((Duration::ZERO, json!({ "error": message }).to_string()));
        }
        Some(Fault::DoneSentinel) => lines.push((Duration::ZERO, String::from("[DONE]"))),
        _ => {}
    }
    let per_line = match fault {
        Some(Fault::PackEvents { per_line }) => per_line.max(1),
        _ => 1,
    };
    let mut chunks: Vec<Chunk> = lines
        .chunks(per_line)
        .map(|group| {
            let mut text = String::new();
            for (_, json) in group {
                text.push_str("data: ");
                text.push_str(json);
            }
            text.push_str("\n\n");
            (group[0].0, Some(Bytes::from(text)))
        })
        .collect();
    if cut == Some(true) {
        chunks.push((CUT_DELAY, None));
    }
    if let Some(Fault::Fragment { bytes }) = fault {
        chunks = fragment(chunks, bytes);
    }
    body_from_chunks(chunks)
}

async fn queue_faults(State(state): State<Arc<AppState>>, body: Bytes) -> Response {
    match serde_json::from_slice::<FaultRequest>(&body) {
        Ok(req) => {
            let n = state.faults.apply(req);
            json_response(StatusCode::CREATED, &json!({ "queued": n }))
        }
        Err(e) => json_response(
            StatusCode::BAD_REQUEST,
            &json!({ "detail": format!("invalid fault request: {e}") }),
        ),
    }
}

async fn list_faults(State(state): State<Arc<AppState>>) -> Response {
    json_response(
        StatusCode::OK,
        &json!({ "pending": state.faults.pending() }),
    )
}

/// Every billed response so far and their exact total, for tests that check a client's books.
async fn list_billed(State(state): State<Arc<AppState>>) -> Response {
    json_response(
        StatusCode::OK,
        &json!({
            "responses": state.billed.responses(),
            "total_usd": state.billed.total().to_string(),
        }),
    )
}

/// Every media request answered: `{"requests": [{"path", "status", "authorization",
/// "user_agent"}…]}`, oldest first.
async fn list_media(State(state): State<Arc<AppState>>) -> Response {
    json_response(
        StatusCode::OK,
        &json!({ "requests": state.media_log.hits() }),
    )
}

/// The service's "now": `{"now_ms", "now"}` (ISO 8601, UTC).
async fn read_clock(State(state): State<Arc<AppState>>) -> Response {
    json_response(StatusCode::OK, &clock_body(&state))
}

fn clock_body(state: &AppState) -> Value {
    let now_ms = state.now_ms();
    let now = chrono::DateTime::from_timestamp_millis(now_ms)
        .map(|d| d.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string());
    json!({ "now_ms": now_ms, "now": now })
}

/// `{"advance_ms": N}` moves the service's clock forward by N ms (N ≥ 0), so process-level
/// tests see the trickle's next posts without waiting. Answers the new "now".
async fn advance_clock(State(state): State<Arc<AppState>>, body: Bytes) -> Response {
    let advance = serde_json::from_slice::<Value>(&body)
        .ok()
        .and_then(|v| v.get("advance_ms").and_then(Value::as_i64))
        .filter(|ms| *ms >= 0);
    match advance {
        Some(ms) => {
            state.clock.advance(ms);
            json_response(StatusCode::OK, &clock_body(&state))
        }
        None => json_response(
            StatusCode::UNPROCESSABLE_ENTITY,
            &json!({ "detail": "expected {\"advance_ms\": N} with N a whole number of ms, 0 or more" }),
        ),
    }
}

async fn clear_faults(State(state): State<Arc<AppState>>, req: Request) -> Response {
    let q = crate::validate::Query::parse(req.uri().query());
    state.faults.clear(q.get("route"));
    json_response(StatusCode::OK, &json!({ "cleared": true }))
}
