//! The transport: one `Client` that validates, sends, retries (GETs only), follows
//! same-host redirects, revalidates with ETags, reads billing and decodes every answer.
//! The streaming AI search lives in [`streaming`]: open (headers and billing), then read.

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::header::{
    HeaderMap, HeaderValue, ACCEPT, AUTHORIZATION, CONTENT_TYPE, ETAG, IF_NONE_MATCH, LOCATION,
};
use reqwest::{StatusCode, Url};
use serde::Serialize;
use serde_json::Value;

use crate::billing::{self, Charge};
use crate::capture::Capture;
use crate::error::{classify, ApiError, UnreadAnswer};
use crate::key::ApiKey;
use crate::model::*;
use crate::operation::{Method, Operation};
use crate::request::*;
use crate::transport::{network_cause, NetworkCause};

pub mod streaming;

pub use streaming::{AiSearchStream, CapturedRead, StreamOutcome};

/// How often and how patiently GETs are retried: on a 429 or a 5xx (the contract bills only
/// successful answers), and when no connection was made (nothing reached the service). Never
/// after a timeout or a cut answer: the first may have been billed (see
/// [`ApiError::may_repeat_unasked`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Total attempts including the first; 1 disables retries.
    pub max_attempts: u32,
    /// Wait before the second attempt; doubles each time.
    pub base_backoff: Duration,
    /// Longest single wait. A `Retry-After` longer than this is not waited for: the
    /// rate-limit error is returned so the UI can count down instead.
    pub max_backoff: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 3,
            base_backoff: Duration::from_millis(500),
            max_backoff: Duration::from_secs(10),
        }
    }
}

impl RetryPolicy {
    fn backoff(&self, retry: u32) -> Duration {
        let factor = 2u32.saturating_pow(retry.saturating_sub(1));
        self.base_backoff
            .saturating_mul(factor)
            .min(self.max_backoff)
    }
}

/// Where and how to reach the service.
#[derive(Debug, Clone)]
pub struct ClientConfig {
    pub base_url: String,
    pub connect_timeout: Duration,
    /// Whole-request limit for ordinary calls.
    pub request_timeout: Duration,
    /// Longest silence tolerated inside a stream.
    pub stream_idle_timeout: Duration,
    pub retry: RetryPolicy,
}

impl ClientConfig {
    pub fn new(base_url: impl Into<String>) -> Self {
        ClientConfig {
            base_url: base_url.into(),
            connect_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(120),
            stream_idle_timeout: Duration::from_secs(60),
            retry: RetryPolicy::default(),
        }
    }
}

/// A cached body and the ETag it was served with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CachedBody {
    pub etag: String,
    pub body: String,
}

/// What an [`EtagCache`] call returns: a boxed future, so the cache can be async (the app's
/// lives in SQLite) and the trait stays object-safe.
pub type CacheFuture<'a, T> = std::pin::Pin<Box<dyn std::future::Future<Output = T> + Send + 'a>>;

/// ETag store supplied by the caller (the app keeps it in SQLite). Keyed by the full
/// request URL, which never contains the key.
pub trait EtagCache: Send + Sync {
    fn get<'a>(&'a self, url: &'a str) -> CacheFuture<'a, Option<CachedBody>>;
    fn put<'a>(&'a self, url: &'a str, etag: &'a str, body: &'a str) -> CacheFuture<'a, ()>;
}

/// A successful answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Response<T> {
    pub operation: Operation,
    pub body: T,
    /// The body text exactly as it arrived (or as cached, for a 304).
    pub raw: String,
    /// None on 304 and on free answers.
    pub billing: Option<Charge>,
    /// A billing header that could not be read, or headers and body disagreeing.
    pub billing_issue: Option<String>,
    pub etag: Option<String>,
    /// True when the service answered 304 and the cached copy was used.
    pub from_cache: bool,
    /// Final HTTP status (200, 201 or 304).
    pub status: u16,
    /// Attempts made, retries included.
    pub attempts: u32,
    /// The URL asked for, the ETag cache's key (never contains the key).
    pub url: String,
    /// The response as received: its exact bytes and their SHA-256, status, headers
    /// and the URL that answered (for a 304, the stored body it re-used).
    pub capture: Capture,
}

/// Could not build a client from the configuration.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("the service address \"{0}\" is not a valid http(s) URL")]
    BadBaseUrl(String),
    #[error("the HTTP client could not be created: {0}")]
    Http(String),
}

/// The service client. Cheap to clone; share one per base URL.
#[derive(Clone)]
pub struct Client {
    http: reqwest::Client,
    base: String,
    config: ClientConfig,
    cache: Option<Arc<dyn EtagCache>>,
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("base_url", &self.base)
            .field("config", &self.config)
            .field("etag_cache", &self.cache.is_some())
            .finish()
    }
}

const MAX_REDIRECTS: usize = 5;

/// What one HTTP exchange produced, before decoding.
struct Answer {
    status: u16,
    headers: HeaderMap,
    /// The headers as the capture keeps them (the key never among them).
    received: crate::capture::Received,
    /// The body exactly as received, not charset-decoded.
    bytes: Vec<u8>,
    /// The URL that answered, after same-host redirects.
    url: Url,
}

impl Client {
    pub fn new(config: ClientConfig) -> Result<Client, ConfigError> {
        let base = config.base_url.trim().trim_end_matches('/').to_owned();
        let parsed = Url::parse(&base).map_err(|_| ConfigError::BadBaseUrl(base.clone()))?;
        if !matches!(parsed.scheme(), "http" | "https") || parsed.host_str().is_none() {
            return Err(ConfigError::BadBaseUrl(base));
        }
        let http = reqwest::Client::builder()
            .connect_timeout(config.connect_timeout)
            // Redirects are handled here, not by reqwest: same host only, GET only.
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(crate::wire::USER_AGENT)
            .build()
            .map_err(|e| ConfigError::Http(e.to_string()))?;
        Ok(Client {
            http,
            base,
            config,
            cache: None,
        })
    }

    /// Uses `cache` for `If-None-Match` on GETs and stores new ETags in it.
    pub fn with_etag_cache(mut self, cache: Arc<dyn EtagCache>) -> Self {
        self.cache = Some(cache);
        self
    }

    pub fn config(&self) -> &ClientConfig {
        &self.config
    }

    /// The service address requests go to, without a trailing slash.
    pub fn base_url(&self) -> &str {
        &self.base
    }

    /// The URL an operation is sent to (query included for GETs).
    pub fn url_for<R: ApiRequest>(&self, request: &R) -> Result<Url, ApiError> {
        let mut url = Url::parse(&format!("{}{}", self.base, request.path())).map_err(|e| {
            ApiError::Network {
                cause: NetworkCause::Other,
                detail: format!("bad service address: {e}"),
            }
        })?;
        if let Encoded::Query(pairs) = request.encode() {
            if !pairs.is_empty() {
                let mut q = url.query_pairs_mut();
                for (name, value) in pairs {
                    q.append_pair(name, &value);
                }
            }
        }
        Ok(url)
    }

    /// Validates, sends and decodes one request of any operation.
    pub async fn send<R: ApiRequest>(
        &self,
        request: &R,
        key: &ApiKey,
    ) -> Result<Response<R::Output>, ApiError> {
        request
            .validate()
            .map_err(|fields| ApiError::Validation { fields })?;
        let op = R::OPERATION;
        let url = self.url_for(request)?;
        let body = match request.encode() {
            Encoded::Json(v) => Some(v),
            Encoded::Query(_) => None,
        };
        let cached = match (op.method(), &self.cache) {
            (Method::Get, Some(cache)) => cache.get(url.as_str()).await,
            _ => None,
        };
        // The cache key and the history entry are the URL we asked for, even if a same-host
        // redirect answered it.
        let asked = url.to_string();
        let started = Instant::now();
        let (answer, attempts) = self
            .exchange(op, url, body.as_ref(), cached.as_ref(), key)
            .await?;
        tracing::debug!(
            operation = op.as_str(),
            status = answer.status,
            attempts,
            elapsed_ms = started.elapsed().as_millis() as u64,
            "service answered"
        );
        self.finish::<R>(asked, answer, attempts, cached).await
    }

    /// Sends with the retry policy; returns a 2xx or 304 answer, or the classified error.
    async fn exchange(
        &self,
        op: Operation,
        url: Url,
        body: Option<&Value>,
        cached: Option<&CachedBody>,
        key: &ApiKey,
    ) -> Result<(Answer, u32), ApiError> {
        let retry = &self.config.retry;
        // Billed POSTs are never repeated automatically: a retry could charge twice.
        let max_attempts = match op.method() {
            Method::Get => retry.max_attempts.max(1),
            Method::Post => 1,
        };
        let mut attempt = 0;
        loop {
            attempt += 1;
            let result = self.once(op, url.clone(), body, cached, key).await;
            let wait = match &result {
                Ok(_) => return result.map(|a| (a, attempt)),
                Err(_) if attempt >= max_attempts => return result.map(|a| (a, attempt)),
                Err(ApiError::RateLimited {
                    retry_after: Some(wait),
                }) => {
                    if *wait > retry.max_backoff {
                        return result.map(|a| (a, attempt));
                    }
                    *wait
                }
                Err(e) if e.may_repeat_unasked() => retry.backoff(attempt),
                Err(_) => return result.map(|a| (a, attempt)),
            };
            tracing::debug!(
                operation = op.as_str(),
                attempt,
                error = result.as_ref().err().map(|e| e.kind().as_str()),
                wait_ms = wait.as_millis() as u64,
                "retrying"
            );
            tokio::time::sleep(wait).await;
        }
    }

    /// One attempt, following same-host redirects for GETs.
    async fn once(
        &self,
        op: Operation,
        mut url: Url,
        body: Option<&Value>,
        cached: Option<&CachedBody>,
        key: &ApiKey,
    ) -> Result<Answer, ApiError> {
        for _ in 0..=MAX_REDIRECTS {
            let response = self
                .request(op, url.clone(), body, cached, key)?
                .timeout(self.config.request_timeout)
                .send()
                .await
                .map_err(transport_error)?;
            let status = response.status();
            let headers = response.headers().clone();
            if status.is_redirection() && status != StatusCode::NOT_MODIFIED {
                let text = response.text().await.unwrap_or_default();
                match redirect_target(&url, &headers, &text) {
                    Some(next) if op.method() == Method::Get && same_origin(&url, &next) => {
                        tracing::debug!(operation = op.as_str(), "following same-host redirect");
                        url = next;
                        continue;
                    }
                    target => {
                        return Err(ApiError::Moved {
                            location: target.map(|u| u.to_string()),
                        })
                    }
                }
            }
            // The bytes, not `text()`: their hash must be of what the service sent. A body
            // that stops part-way was an answer, maybe billed: never the network's error.
            let bytes = response.bytes().await.map_err(cut_answer)?.to_vec();
            if status.is_success() || status == StatusCode::NOT_MODIFIED {
                return Ok(Answer {
                    status: status.as_u16(),
                    received: crate::capture::received(&headers, key.expose()),
                    headers,
                    bytes,
                    url,
                });
            }
            return Err(classify(
                status.as_u16(),
                &headers,
                &String::from_utf8_lossy(&bytes),
                Some(key.expose()),
            ));
        }
        Err(ApiError::Moved {
            location: Some(url.to_string()),
        })
    }

    fn request(
        &self,
        op: Operation,
        url: Url,
        body: Option<&Value>,
        cached: Option<&CachedBody>,
        key: &ApiKey,
    ) -> Result<reqwest::RequestBuilder, ApiError> {
        let mut auth = HeaderValue::from_str(key.expose())
            .map_err(|_| ApiError::NotAnApiKey { problem: None })?;
        auth.set_sensitive(true);
        let builder = match op.method() {
            Method::Get => self.http.get(url),
            Method::Post => self.http.post(url),
        }
        .header(AUTHORIZATION, auth)
        .header(ACCEPT, crate::wire::ACCEPT);
        let builder = match cached {
            Some(c) => builder.header(IF_NONE_MATCH, c.etag.as_str()),
            None => builder,
        };
        Ok(match body {
            Some(json) => builder
                .header(CONTENT_TYPE, crate::wire::JSON_CONTENT_TYPE)
                .body(serde_json::to_vec(json).expect("a JSON value always serialises")),
            None => builder,
        })
    }

    /// Decodes a 2xx or 304 answer and records its ETag.
    async fn finish<R: ApiRequest>(
        &self,
        url: String,
        answer: Answer,
        attempts: u32,
        cached: Option<CachedBody>,
    ) -> Result<Response<R::Output>, ApiError> {
        let op = R::OPERATION;
        if answer.status == StatusCode::NOT_MODIFIED.as_u16() {
            // We only send If-None-Match when we hold a copy, so a 304 without one is odd.
            // A 304 is free: nothing to keep from it.
            let cached = cached.ok_or(ApiError::Malformed {
                status: 304,
                detail: "not modified, but no cached copy was offered".into(),
                answer: None,
            })?;
            let body = R::decode(&cached.body).map_err(|e| ApiError::Malformed {
                status: 304,
                detail: format!("cached copy unreadable: {e}"),
                answer: None,
            })?;
            // A 304 sends no body: what it vouches for is the stored one it points back to.
            let capture = Capture {
                from_cache: true,
                ..Capture::of_body(
                    answer.status,
                    answer.received,
                    answer.url.as_str(),
                    cached.body.clone().into_bytes(),
                )
            };
            return Ok(Response {
                operation: op,
                body,
                raw: cached.body,
                billing: None,
                billing_issue: None,
                etag: Some(cached.etag),
                from_cache: true,
                status: answer.status,
                attempts,
                url,
                capture,
            });
        }
        let capture = Capture::of_body(
            answer.status,
            answer.received,
            answer.url.as_str(),
            answer.bytes,
        );
        // UTF-8, as the service declares; a byte that is not is shown as U+FFFD here, and kept
        // as it came in `capture`.
        let text = String::from_utf8_lossy(&capture.bytes).into_owned();
        let billing = billing::read(&answer.headers, Some(&text));
        if let Some(issue) = &billing.issue {
            tracing::warn!(
                operation = op.as_str(),
                issue = issue.as_str(),
                "billing metadata problem"
            );
        }
        let body = match R::decode(&text) {
            Ok(body) => body,
            // Paid for all the same: the charge and the bytes go with the error, to be recorded.
            Err(e) => {
                return Err(ApiError::Malformed {
                    status: answer.status,
                    detail: e.to_string(),
                    answer: Some(Box::new(UnreadAnswer {
                        billing: billing.billing,
                        billing_issue: billing.issue,
                        capture,
                    })),
                })
            }
        };
        let etag = answer
            .headers
            .get(ETAG)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        if let (Some(cache), Some(tag), Method::Get) = (&self.cache, &etag, op.method()) {
            cache.put(&url, tag, &text).await;
        }
        Ok(Response {
            operation: op,
            body,
            raw: text,
            billing: billing.billing,
            billing_issue: billing.issue,
            etag,
            from_cache: false,
            status: answer.status,
            attempts,
            url,
            capture,
        })
    }
}

/// A failed send: `network` when no connection was made (nothing reached the service: a
/// name, a refusal, a certificate, a connection that timed out), else the request went out
/// and the service may have billed it: `timeout`, or `answer_cut` for a broken connection.
fn transport_error(e: reqwest::Error) -> ApiError {
    if e.is_connect() || e.is_builder() {
        // Strip the URL: it holds the user's query, which need not be in logs.
        let cause = network_cause(&e);
        let detail = e.without_url().to_string();
        ApiError::Network { cause, detail }
    } else {
        cut_answer(e)
    }
}

/// The connection failed after the request went out: no answer in time, or one cut short.
fn cut_answer(e: reqwest::Error) -> ApiError {
    if e.is_timeout() {
        ApiError::Timeout
    } else {
        ApiError::AnswerCut {
            detail: e.without_url().to_string(),
        }
    }
}

fn redirect_target(from: &Url, headers: &HeaderMap, body: &str) -> Option<Url> {
    let location = headers
        .get(LOCATION)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
        .or_else(|| {
            let v: Value = serde_json::from_str(body).ok()?;
            v.get("detail")?
                .get("location")?
                .as_str()
                .map(str::to_owned)
        })?;
    from.join(&location).ok()
}

fn same_origin(a: &Url, b: &Url) -> bool {
    a.scheme() == b.scheme()
        && a.host_str() == b.host_str()
        && a.port_or_known_default() == b.port_or_known_default()
}

/// The forecast's two calls by name, as the core's forecast follows them; every other
/// request goes through [`Client::send`], its answer typed by the request.
impl Client {
    /// Asks for a forecast: the billed POST, answered 202 with the job's id.
    pub async fn forecast(
        &self,
        r: &ForecastRequest,
        key: &ApiKey,
    ) -> Result<Response<ForecastAccepted>, ApiError> {
        self.send(r, key).await
    }
    /// Where a forecast's job stands. Billing headers are read here too, should a poll be billed.
    pub async fn forecast_status(
        &self,
        r: &ForecastStatusRequest,
        key: &ApiKey,
    ) -> Result<Response<ForecastJob>, ApiError> {
        self.send(r, key).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_the_cap() {
        let p = RetryPolicy {
            max_attempts: 5,
            base_backoff: Duration::from_millis(100),
            max_backoff: Duration::from_millis(350),
        };
        let waits: Vec<_> = (1..=4).map(|n| p.backoff(n).as_millis()).collect();
        assert_eq!(waits, [100, 200, 350, 350]);
    }

    #[test]
    fn origins_compare_scheme_host_and_port() {
        let u = |s: &str| Url::parse(s).unwrap();
        assert!(same_origin(
            &u("https://a.io/x"),
            &u("https://a.io:443/y?z=1")
        ));
        assert!(!same_origin(&u("https://a.io/x"), &u("http://a.io/x")));
        assert!(!same_origin(&u("https://a.io/x"), &u("https://b.a.io/x")));
        assert!(!same_origin(
            &u("http://127.0.0.1:80/"),
            &u("http://localhost:80/")
        ));
        assert!(!same_origin(
            &u("http://a.io:8080/"),
            &u("http://a.io:8081/")
        ));
    }

    #[test]
    fn redirect_target_from_header_or_body_resolves_relative_paths() {
        let from = Url::parse("https://a.io/twitter/post?id=1").unwrap();
        let mut h = HeaderMap::new();
        h.insert(LOCATION, HeaderValue::from_static("/v2/twitter/post?id=1"));
        assert_eq!(
            redirect_target(&from, &h, "").unwrap().as_str(),
            "https://a.io/v2/twitter/post?id=1"
        );
        let body = r#"{"detail":{"error_code":301,"location":"https://b.io/x","message":"Moved Permanently"}}"#;
        assert_eq!(
            redirect_target(&from, &HeaderMap::new(), body)
                .unwrap()
                .as_str(),
            "https://b.io/x"
        );
        assert_eq!(redirect_target(&from, &HeaderMap::new(), "{}"), None);
    }

    #[test]
    fn urls_carry_the_query_but_never_the_key() {
        let c = Client::new(ClientConfig::new("https://api.example.com/")).unwrap();
        let url = c
            .url_for(&TwitterUrlsRequest {
                urls: vec![
                    "https://x.com/a/status/1".into(),
                    "https://x.com/b/status/2".into(),
                ],
            })
            .unwrap();
        assert_eq!(
            url.as_str(),
            "https://api.example.com/twitter/urls?urls=https%3A%2F%2Fx.com%2Fa%2Fstatus%2F1&urls=https%3A%2F%2Fx.com%2Fb%2Fstatus%2F2"
        );
        let post = c.url_for(&LinksTwitterRequest::default()).unwrap();
        assert_eq!(
            post.as_str(),
            "https://api.example.com/service/ai/search/links/twitter"
        );
    }

    #[test]
    fn bad_base_urls_are_refused() {
        for bad in ["", "api.example.com", "ftp://a.io", "https://"] {
            assert!(Client::new(ClientConfig::new(bad)).is_err(), "{bad}");
        }
    }
}
