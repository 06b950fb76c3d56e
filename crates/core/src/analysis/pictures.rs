//! The scope's most-shared pictures: the pictures (exact and near copies as one, grouped by
//! the store) held by more than one of the scope's posts, most posts first, each with its
//! posts listed as "Same picture elsewhere" lists them.

use serde::Serialize;
use sightline_store::{AnalysisScope, MediaFile, Store};
use ts_rs::TS;

use super::gone;
use crate::errors::CommandError;
use crate::media::hash::NEAR_DISTANCE;
use crate::media::matches::{posts_holding, PictureMatch};

/// Pictures listed when the caller does not say.
pub const SHARED_PICTURES_DEFAULT: u32 = 20;

/// One picture shared by posts of the scope.
#[derive(Serialize, TS, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct SharedPictureEntry {
    /// The file shown for the group: the one most of its posts hold.
    pub file: MediaFile,
    /// Distinct files in the group: 1 when every post holds the same bytes, more when near
    /// copies joined it.
    pub files: u32,
    /// The scope's posts holding the picture or a near copy.
    pub post_count: u32,
    /// Those posts, the same file first (newest first), then near copies, closest first;
    /// how each relates is said against the file shown.
    pub posts: Vec<PictureMatch>,
}

/// The scope's most-shared pictures.
#[derive(Serialize, TS, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct SharedPictures {
    /// The near-match bound used: at most this many bits of 256 differ.
    pub near_distance: u32,
    /// Most posts first (then by SHA-256).
    pub pictures: Vec<SharedPictureEntry>,
}

/// The pictures shared by two or more of the scope's posts, at most `limit`
/// ([`SHARED_PICTURES_DEFAULT`] when `None`).
pub async fn shared_pictures(
    store: &Store,
    scope: &AnalysisScope,
    limit: Option<u32>,
) -> Result<SharedPictures, CommandError> {
    let limit = limit.unwrap_or(SHARED_PICTURES_DEFAULT) as usize;
    let groups = store
        .analysis_shared_media(scope, NEAR_DISTANCE, limit)
        .await?
        .ok_or_else(gone)?;
    let mut pictures = Vec::with_capacity(groups.len());
    for group in groups {
        let mut files = Vec::with_capacity(group.files.len());
        for sha in &group.files {
            files.extend(store.media_file(sha).await?);
        }
        let Some(shown) = files.iter().find(|f| f.sha256 == group.sha256).cloned() else {
            continue;
        };
        let posts = posts_holding(store, &shown, &files, &group.post_ids).await?;
        pictures.push(SharedPictureEntry {
            file: shown,
            files: u32::try_from(files.len()).unwrap_or(u32::MAX),
            post_count: u32::try_from(group.post_ids.len()).unwrap_or(u32::MAX),
            posts,
        });
    }
    Ok(SharedPictures {
        near_distance: NEAR_DISTANCE,
        pictures,
    })
}
