//! A fetched body kept: the partial file moved to its content-addressed name in the media
//! folder ([`super::files::MediaFolder`]; bytes kept before are one file, the partial simply
//! removed), and what the store records of it: SHA-256, size, type, and for a picture its PDQ
//! hash and size in pixels ([`super::hash`]), computed on a blocking thread so a large picture
//! never holds up the app's other work.
//!
//! A video's perceptual hash is its poster's PDQ: hashing key frames needs a video decoder the
//! app does not ship, while the poster is the still X shows for the video, fetched with it, so
//! the same video posted again (its poster the same picture) matches as a picture does.

use std::path::{Path, PathBuf};

use sightline_store::NewMediaFile;

use super::fetch::Received;
use super::files::MediaFolder;
use super::hash;
use crate::state::AppState;

/// The media folder of the app's data folder.
pub fn folder(state: &AppState) -> MediaFolder {
    MediaFolder::new(&state.data_dir)
}

/// Where item `item_id`'s `part` (its file, or a video's poster) is fetched to: one name per
/// item, so a fetch cut by a restart is written over by the next, never left beside it.
pub fn partial(folder: &MediaFolder, item_id: i64, part: &str) -> PathBuf {
    folder
        .root()
        .join(format!("fetching-{item_id}-{part}.partial"))
}

/// Keeps `received`'s bytes under their SHA-256 and describes them for the store.
pub async fn keep(folder: &MediaFolder, received: Received) -> Result<NewMediaFile, String> {
    let Received {
        content_type,
        sha256,
        size,
        partial,
        ..
    } = received;
    let kept = folder
        .adopt(&partial, &sha256)
        .await
        .map_err(|error| format!("The media file could not be kept in the data folder: {error}"))?;
    let content_type = content_type
        .filter(|kind| kind != "application/octet-stream")
        .or_else(|| sniffed(&kept))
        .unwrap_or_else(|| "application/octet-stream".to_owned());
    let mut file = NewMediaFile {
        sha256,
        size,
        content_type: content_type.clone(),
        pdq: None,
        pdq_quality: None,
        width: None,
        height: None,
    };
    if is_picture(&content_type) {
        let path = kept.clone();
        let hashed = tokio::task::spawn_blocking(move || {
            let bytes = std::fs::read(path).ok()?;
            hash::pdq(&bytes)
        })
        .await
        .ok()
        .flatten();
        if let Some(pdq) = hashed {
            file.pdq = Some(pdq.hash);
            file.pdq_quality = Some(pdq.quality);
            file.width = Some(pdq.width);
            file.height = Some(pdq.height);
        }
    }
    Ok(file)
}

fn is_picture(content_type: &str) -> bool {
    content_type
        .split(';')
        .next()
        .is_some_and(|kind| kind.trim().to_ascii_lowercase().starts_with("image/"))
}

/// The type of a file sent without one, from its first bytes (the two picture formats the
/// app hashes, and MP4).
fn sniffed(path: &Path) -> Option<String> {
    use std::io::Read;
    let mut head = [0u8; 12];
    let mut file = std::fs::File::open(path).ok()?;
    let n = file.read(&mut head).ok()?;
    let head = &head[..n];
    let kind = if head.starts_with(&[0xFF, 0xD8, 0xFF]) {
        "image/jpeg"
    } else if head.starts_with(b"\x89PNG") {
        "image/png"
    } else if head.len() >= 8 && &head[4..8] == b"ftyp" {
        "video/mp4"
    } else {
        return None;
    };
    Some(kind.to_owned())
}
