//! Fetching one media file: a plain HTTP client of its own (never the service's client, so
//! never its key or headers; no cookies, no referrer, a User-Agent that names Sightline), the
//! body streamed to the item's partial file in the media folder while it is hashed and counted, and
//! stopped at the size limit. What came back is said as a [`Download`]: the bytes kept (with
//! status, every response header as received, type, size and time), a link gone (404/410,
//! with its time), too large for the limit, or failed with a plain reason (retried later).
//!
//! A redirect is followed only to an address [`super::plan::fetchable`] allows, so a media
//! host cannot send the app to plain HTTP elsewhere or to a file.

use std::path::{Path, PathBuf};
use std::time::Duration;

use chrono::{DateTime, Utc};
use reqwest::header::{HeaderMap, CONTENT_LENGTH, CONTENT_TYPE};
use reqwest::{redirect, StatusCode};
use sha2::{Digest, Sha256};
use tokio::io::AsyncWriteExt;

use super::plan::{fetchable, ServiceOrigin};

/// The User-Agent media hosts see: Sightline and its version, nothing of the user.
pub const USER_AGENT: &str = concat!(
    "Sightline/",
    env!("CARGO_PKG_VERSION"),
    " (media preservation)"
);

/// Longest wait to connect to a media host.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(15);
/// Longest silence while a response or its body is read (a large video may take minutes in
/// all, so there is no whole-answer limit, only this one).
const READ_TIMEOUT: Duration = Duration::from_secs(60);
/// Redirects followed at most.
const MOST_REDIRECTS: usize = 5;

/// The plain client media are fetched with.
#[derive(Clone)]
pub struct MediaClient {
    client: reqwest::Client,
    service: Option<ServiceOrigin>,
}

/// What one fetch of one address came to.
#[derive(Debug)]
pub enum Download {
    /// The whole body arrived and is in `partial` (to be kept by its SHA-256).
    Complete(Received),
    /// The link answers 404 or 410: gone, found at `at`.
    Gone(Answered),
    /// The body is over the limit (said by its length, or found while reading): nothing kept.
    TooLarge(Answered),
    /// Nothing kept, for `reason`; worth trying again later unless the address was refused.
    Failed {
        /// Why, in plain words.
        reason: String,
        /// The response's status and headers, if one came.
        answered: Option<Answered>,
        /// Whether trying again later may help (a refused address will not).
        retry: bool,
    },
}

/// A response's status line and headers, and when it came.
#[derive(Debug, Clone)]
pub struct Answered {
    /// Its HTTP status.
    pub status: u16,
    /// Every header as received, in order (values not UTF-8 read lossily).
    pub headers: Vec<(String, String)>,
    /// When it arrived.
    pub at: DateTime<Utc>,
}

/// A body received whole.
#[derive(Debug)]
pub struct Received {
    /// The response.
    pub answered: Answered,
    /// The address it came from, after any redirect.
    pub final_url: String,
    /// The type the server gave, if it gave one.
    pub content_type: Option<String>,
    /// The SHA-256 of the bytes, lower-case hex.
    pub sha256: String,
    /// Bytes.
    pub size: u64,
    /// The partial file holding them; the caller keeps it (renames it) or removes it.
    pub partial: PathBuf,
}

impl MediaClient {
    /// A client that fetches HTTPS anywhere and plain HTTP only from `service`'s host.
    pub fn new(service: Option<ServiceOrigin>) -> Self {
        let allowed = service.clone();
        let policy = redirect::Policy::custom(move |attempt| {
            if attempt.previous().len() >= MOST_REDIRECTS {
                return attempt.error("too many redirects");
            }
            match fetchable(attempt.url().as_str(), allowed.as_ref()) {
                Ok(_) => attempt.follow(),
                Err(why) => attempt.error(why),
            }
        });
        let client = reqwest::Client::builder()
            .user_agent(USER_AGENT)
            .connect_timeout(CONNECT_TIMEOUT)
            .read_timeout(READ_TIMEOUT)
            .redirect(policy)
            // A media host learns nothing of where the link was found.
            .referer(false)
            .build()
            .expect("a plain HTTPS client always builds");
        Self { client, service }
    }

    /// The service origin plain HTTP is allowed from.
    pub fn service(&self) -> Option<&ServiceOrigin> {
        self.service.as_ref()
    }

    /// Fetches `address` into the file `partial` (made or emptied), stopping once more than
    /// `limit` bytes arrive. The file is left only with [`Download::Complete`].
    pub async fn download(&self, address: &str, limit: u64, partial: &Path) -> Download {
        let url = match fetchable(address, self.service.as_ref()) {
            Ok(url) => url,
            Err(reason) => {
                return Download::Failed {
                    reason,
                    answered: None,
                    retry: false,
                };
            }
        };
        let response = match self.client.get(url).send().await {
            Ok(response) => response,
            Err(error) => {
                return Download::Failed {
                    reason: unreached(&error),
                    answered: None,
                    retry: !error.is_redirect(),
                };
            }
        };
        let status = response.status();
        let answered = Answered {
            status: status.as_u16(),
            headers: headers(response.headers()),
            at: Utc::now(),
        };
        if status == StatusCode::NOT_FOUND || status == StatusCode::GONE {
            return Download::Gone(answered);
        }
        if !status.is_success() {
            return Download::Failed {
                reason: refused(status),
                answered: Some(answered),
                retry: true,
            };
        }
        let length = response
            .headers()
            .get(CONTENT_LENGTH)
            .and_then(|value| value.to_str().ok()?.trim().parse::<u64>().ok());
        if length.is_some_and(|length| length > limit) {
            return Download::TooLarge(answered);
        }
        let content_type = response
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .map(|value| value.trim().to_owned())
            .filter(|value| !value.is_empty());
        let final_url = response.url().to_string();
        match stream_to(response, partial, limit).await {
            Ok(Some((sha256, size))) => Download::Complete(Received {
                answered,
                final_url,
                content_type,
                sha256,
                size,
                partial: partial.to_owned(),
            }),
            Ok(None) => {
                remove(partial).await;
                Download::TooLarge(answered)
            }
            Err(reason) => {
                remove(partial).await;
                Download::Failed {
                    reason,
                    answered: Some(answered),
                    retry: true,
                }
            }
        }
    }
}

/// Reads the body into `partial`, hashing it as it comes; `None` once it passes `limit`.
async fn stream_to(
    mut response: reqwest::Response,
    partial: &Path,
    limit: u64,
) -> Result<Option<(String, u64)>, String> {
    let disk = |error: std::io::Error| {
        format!("The media file could not be written to the data folder: {error}")
    };
    if let Some(parent) = partial.parent() {
        tokio::fs::create_dir_all(parent).await.map_err(disk)?;
    }
    let mut file = tokio::fs::File::create(partial).await.map_err(disk)?;
    let mut hasher = Sha256::new();
    let mut size: u64 = 0;
    loop {
        let chunk = match response.chunk().await {
            Ok(Some(chunk)) => chunk,
            Ok(None) => break,
            Err(error) => {
                return Err(format!(
                    "The media host stopped sending after {size} bytes: {}",
                    plain(&error)
                ));
            }
        };
        size = size.saturating_add(chunk.len() as u64);
        if size > limit {
            return Ok(None);
        }
        hasher.update(&chunk);
        file.write_all(&chunk).await.map_err(disk)?;
    }
    file.sync_all().await.map_err(disk)?;
    let sha256 = hasher
        .finalize()
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    Ok(Some((sha256, size)))
}

/// Every header as received, in order.
fn headers(map: &HeaderMap) -> Vec<(String, String)> {
    map.iter()
        .map(|(name, value)| {
            (
                name.as_str().to_owned(),
                String::from_utf8_lossy(value.as_bytes()).into_owned(),
            )
        })
        .collect()
}

async fn remove(partial: &Path) {
    if let Err(error) = tokio::fs::remove_file(partial).await {
        if error.kind() != std::io::ErrorKind::NotFound {
            tracing::warn!(%error, "a partial media file could not be removed");
        }
    }
}

/// A status that is neither success nor gone, in words.
fn refused(status: StatusCode) -> String {
    let words = match status.as_u16() {
        401 | 403 => "refused to send it",
        429 => "asked to slow down",
        500..=599 => "had a problem",
        _ => "did not send it",
    };
    format!(
        "The media host {words} (HTTP {}); it will be tried again later.",
        status.as_u16()
    )
}

/// A request that got no response, in words.
fn unreached(error: &reqwest::Error) -> String {
    if error.is_redirect() {
        return format!(
            "Not fetched: the media host redirected to an address Sightline does not fetch \
             from ({}).",
            plain(error)
        );
    }
    let what = if error.is_timeout() {
        "did not answer in time"
    } else if error.is_connect() {
        "could not be reached"
    } else {
        "could not be read"
    };
    format!(
        "The media host {what}; it will be tried again later ({}).",
        plain(error)
    )
}

/// An error's own words, without the URL (reqwest's Display names it; the item names it).
fn plain(error: &reqwest::Error) -> String {
    let mut words = error.to_string();
    if let Some(url) = error.url() {
        words = words.replace(&format!(" ({url})"), "");
    }
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        words = format!("{words}: {cause}");
        source = cause.source();
    }
    words
}
