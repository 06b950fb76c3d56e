//! Kept media served to the window by the app itself (the shell's `sightline-media` protocol):
//! `/<sha256>` answers the file kept under that SHA-256 with the type stored for it; anything
//! else, a name that is not 64 hex characters or one the archive does not hold, is 404. The
//! window's policy lets images and video come from this scheme and from nowhere else, so
//! nothing the page shows is asked of a third party.
//!
//! A range (`Range: bytes=…`) is answered with that part only (206): the web view's video
//! player reads a video in pieces.

use std::io::SeekFrom;
use std::path::Path;

use sightline_store::Store;
use tokio::io::{AsyncReadExt, AsyncSeekExt};

use super::files::{is_sha256, MediaFolder};

/// The URI scheme the shell registers.
pub const SCHEME: &str = "sightline-media";

/// Largest piece answered to an open-ended range (`bytes=0-`), so a long video is not read
/// whole into memory for its first frame; the player asks for the rest as it needs it.
const MAX_PIECE: u64 = 4 * 1024 * 1024;

/// An answer, in the shell's terms: status, headers and body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Served {
    /// HTTP status.
    pub status: u16,
    /// Headers, in order.
    pub headers: Vec<(&'static str, String)>,
    /// Bytes (empty for HEAD and errors' short text).
    pub body: Vec<u8>,
}

impl Served {
    fn plain(status: u16, text: &str) -> Self {
        Self {
            status,
            headers: vec![
                ("Content-Type", "text/plain; charset=utf-8".into()),
                ("X-Content-Type-Options", "nosniff".into()),
            ],
            body: text.as_bytes().to_vec(),
        }
    }

    fn not_found() -> Self {
        Self::plain(404, "No media kept under this name.")
    }
}

/// The kept file's SHA-256 named by a request path (`/<64 lower-case hex>`), or `None`.
pub fn sha256_of_path(path: &str) -> Option<&str> {
    let name = path.strip_prefix('/')?;
    is_sha256(name).then_some(name)
}

/// The type the window is told: a picture's or a video's as stored; anything else (a server
/// that called its "image" a web page) as plain bytes, which the page never renders.
fn served_type(stored: &str) -> String {
    let essence = stored.split(';').next().unwrap_or("").trim();
    if essence.starts_with("image/") || essence.starts_with("video/") {
        essence.to_owned()
    } else {
        "application/octet-stream".into()
    }
}

/// A single `bytes=` range of a file of `size` bytes, as (first, last) inclusive; `Err` when
/// it cannot be satisfied. Several ranges at once are answered as the first one.
fn parse_range(header: &str, size: u64) -> Result<(u64, u64), ()> {
    let spec = header.trim().strip_prefix("bytes=").ok_or(())?;
    let spec = spec.split(',').next().unwrap_or("").trim();
    let (start, end) = spec.split_once('-').ok_or(())?;
    let (first, last) = match (start.trim(), end.trim()) {
        ("", suffix) => {
            let suffix: u64 = suffix.parse().map_err(|_| ())?;
            if suffix == 0 {
                return Err(());
            }
            (size.saturating_sub(suffix), size.checked_sub(1).ok_or(())?)
        }
        (start, "") => {
            let first: u64 = start.parse().map_err(|_| ())?;
            (first, (first + MAX_PIECE - 1).min(size.saturating_sub(1)))
        }
        (start, end) => {
            let first: u64 = start.parse().map_err(|_| ())?;
            let last: u64 = end.parse().map_err(|_| ())?;
            (first, last.min(size.saturating_sub(1)))
        }
    };
    if first >= size || first > last {
        return Err(());
    }
    Ok((first, last))
}

async fn read_piece(path: &Path, first: u64, length: u64) -> std::io::Result<Vec<u8>> {
    let mut file = tokio::fs::File::open(path).await?;
    file.seek(SeekFrom::Start(first)).await?;
    let mut body = Vec::with_capacity(length as usize);
    file.take(length).read_to_end(&mut body).await?;
    Ok(body)
}

/// Answers `method path` (with its `Range` header, if any) from the archive's record of the
/// file and the media folder's copy. Only GET and HEAD; nothing outside the folder is reached,
/// since the name is checked to be a SHA-256 before any path is made of it.
pub async fn serve(
    store: &Store,
    folder: &MediaFolder,
    method: &str,
    path: &str,
    range: Option<&str>,
) -> Served {
    if method != "GET" && method != "HEAD" {
        return Served::plain(405, "Media are only read.");
    }
    let Some(sha256) = sha256_of_path(path) else {
        return Served::not_found();
    };
    let file = match store.media_file(sha256).await {
        Ok(Some(file)) => file,
        Ok(None) => return Served::not_found(),
        Err(error) => {
            tracing::warn!(%error, "a kept media file's record could not be read");
            return Served::plain(500, "The archive could not be read.");
        }
    };
    let Ok(on_disk) = folder.path(sha256) else {
        return Served::not_found();
    };
    let size = match tokio::fs::metadata(&on_disk).await {
        Ok(metadata) => metadata.len(),
        // Recorded but not in the folder (removed by hand): as if never kept.
        Err(_) => return Served::not_found(),
    };
    let mut headers = vec![
        ("Content-Type", served_type(&file.content_type)),
        ("Accept-Ranges", "bytes".into()),
        // Named by its content: the same name never means other bytes.
        (
            "Cache-Control",
            "private, max-age=31536000, immutable".into(),
        ),
        ("X-Content-Type-Options", "nosniff".into()),
        // Were the window ever sent to it as a page, it could run nothing.
        (
            "Content-Security-Policy",
            "default-src 'none'; sandbox".into(),
        ),
    ];
    let (status, first, last) = match range {
        None => (200, 0, size.saturating_sub(1)),
        Some(header) => match parse_range(header, size) {
            Ok((first, last)) => {
                headers.push(("Content-Range", format!("bytes {first}-{last}/{size}")));
                (206, first, last)
            }
            Err(()) => {
                let mut answer = Served::plain(416, "That part of the file does not exist.");
                answer
                    .headers
                    .push(("Content-Range", format!("bytes */{size}")));
                return answer;
            }
        },
    };
    let length = if size == 0 { 0 } else { last - first + 1 };
    headers.push(("Content-Length", length.to_string()));
    let body = if method == "HEAD" || length == 0 {
        Vec::new()
    } else {
        match read_piece(&on_disk, first, length).await {
            Ok(body) => body,
            Err(error) => {
                tracing::warn!(%error, "a kept media file could not be read");
                return Served::plain(500, "The media file could not be read.");
            }
        }
    };
    Served {
        status,
        headers,
        body,
    }
}

#[cfg(test)]
mod tests;
