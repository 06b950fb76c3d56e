//! The same picture elsewhere. Exact: another item kept the very same bytes (SHA-256). Near:
//! a kept picture whose PDQ hash differs from this one's in at most `max_distance` of its 256
//! bits (Hamming distance); the caller passes the bound (core's near-match threshold). Hashes
//! below [`PDQ_MIN_QUALITY`] take no part in near matches. A video counts through its
//! poster's hash. The near scan is linear: every stored hash compared inside SQLite by
//! `distance.rs`'s function (`benches/media.rs` times it against 100,000 pictures). A scope's
//! most-shared pictures are grouped by `groups.rs`.

use std::collections::{BTreeSet, HashMap};

use serde::Serialize;
use sqlx::{QueryBuilder, Row, Sqlite};
use ts_rs::TS;

use super::{MediaFile, BATCH};
use crate::error::Result;
use crate::Store;

/// Bytes in a PDQ hash (256 bits).
pub const PDQ_BYTES: usize = 32;

/// PDQ's own bound on a hash worth matching (quality 0-100): below it a picture is too flat
/// for its hash to mean anything, so it matches only exactly.
pub const PDQ_MIN_QUALITY: u8 = 50;

/// A near copy: another file, how far its hash is, and the posts holding it.
#[derive(Serialize, TS, Clone, Debug, PartialEq, Eq)]
#[ts(export)]
pub struct MediaMatch {
    /// The other file.
    pub file: MediaFile,
    /// Bits of the 256 in which the two PDQ hashes differ.
    pub distance: u32,
    /// The posts holding it (as a picture, or as a video's poster), sorted.
    pub post_ids: Vec<String>,
}

/// What matches one kept file.
#[derive(Serialize, TS, Clone, Debug, Default, PartialEq, Eq)]
#[ts(export)]
pub struct MediaMatches {
    /// The file asked about; `None` when nothing is kept under that SHA-256.
    pub file: Option<MediaFile>,
    /// The posts holding exactly these bytes, sorted.
    pub exact_post_ids: Vec<String>,
    /// Near copies, closest first (then by SHA-256); none when the file has no PDQ hash.
    pub near: Vec<MediaMatch>,
}

/// One picture shared across posts of a scope: its files (exact copies are one file, near
/// copies several) and the posts holding any of them.
#[derive(Serialize, TS, Clone, Debug, PartialEq, Eq)]
#[ts(export)]
pub struct SharedPicture {
    /// The file held by most of the posts (the first by SHA-256 on a tie): the one to show.
    pub sha256: String,
    /// Every file of the group, sorted; more than one when near copies joined it.
    pub files: Vec<String>,
    /// The posts of the scope holding one of them, sorted.
    pub post_ids: Vec<String>,
}

/// 256-bit hashes' Hamming distance.
pub(crate) fn distance(a: &[u8; PDQ_BYTES], b: &[u8; PDQ_BYTES]) -> u32 {
    a.iter().zip(b).map(|(x, y)| (x ^ y).count_ones()).sum()
}

fn to_hash(bytes: &[u8]) -> Option<[u8; PDQ_BYTES]> {
    bytes.try_into().ok()
}

impl Store {
    /// The posts holding the file `sha256` exactly, and the kept pictures within
    /// `max_distance` bits of its PDQ hash with their posts.
    pub async fn media_matches(&self, sha256: &str, max_distance: u32) -> Result<MediaMatches> {
        let Some(file) = self.media_file(sha256).await? else {
            return Ok(MediaMatches::default());
        };
        let exact_post_ids = self
            .posts_holding(std::slice::from_ref(&file.sha256))
            .await?
            .remove(&file.sha256)
            .unwrap_or_default();
        let mut near = Vec::new();
        let own: Option<Vec<u8>> =
            sqlx::query_scalar("SELECT pdq FROM media_files WHERE sha256 = ? AND pdq_quality >= ?")
                .bind(&file.sha256)
                .bind(PDQ_MIN_QUALITY)
                .fetch_optional(&self.pool)
                .await?
                .flatten();
        if let Some(own) = own.as_deref().and_then(to_hash) {
            // Compared inside SQLite (`distance.rs`): only the close hashes come back.
            let close: Vec<(String, u32)> = sqlx::query_as(
                "SELECT sha256, sightline_pdq_distance(pdq, ?) AS d FROM media_files
                 WHERE pdq IS NOT NULL AND pdq_quality >= ? AND sha256 <> ? AND d <= ?",
            )
            .bind(own.as_slice())
            .bind(PDQ_MIN_QUALITY)
            .bind(&file.sha256)
            .bind(max_distance)
            .fetch_all(&self.pool)
            .await?;
            let shas: Vec<String> = close.iter().map(|(sha, _)| sha.clone()).collect();
            let mut holding = self.posts_holding(&shas).await?;
            for (sha, d) in close {
                if let Some(other) = self.media_file(&sha).await? {
                    near.push(MediaMatch {
                        file: other,
                        distance: d,
                        post_ids: holding.remove(&sha).unwrap_or_default(),
                    });
                }
            }
            near.sort_by(|a, b| (a.distance, &a.file.sha256).cmp(&(b.distance, &b.file.sha256)));
        }
        Ok(MediaMatches {
            file: Some(file),
            exact_post_ids,
            near,
        })
    }

    /// The pictures of `post_ids` held by more than one of those posts, most posts first (then
    /// by SHA-256), at most `limit`. Exact copies group by SHA-256; groups whose PDQ hashes
    /// are within `max_distance` bits of one another join (transitively; a scope of many
    /// thousand pictures compares only the pairs `groups.rs` buckets together).
    pub async fn most_shared_media(
        &self,
        post_ids: &[String],
        max_distance: u32,
        limit: usize,
    ) -> Result<Vec<SharedPicture>> {
        // Each picture file of the scope: its hash and its posts. A video's poster stands
        // for the video.
        let mut posts_by_file: HashMap<String, BTreeSet<String>> = HashMap::new();
        let mut hashes: HashMap<String, Option<[u8; PDQ_BYTES]>> = HashMap::new();
        for ids in post_ids.chunks(BATCH) {
            let mut query = QueryBuilder::<Sqlite>::new(
                "SELECT i.post_id, f.sha256, f.pdq, f.pdq_quality FROM media_items i
                 JOIN media_files f ON f.sha256 = CASE WHEN i.kind = 'photo' OR i.poster_sha256
                     IS NULL THEN i.sha256 ELSE i.poster_sha256 END
                 WHERE i.state = 'kept' AND i.post_id IN (",
            );
            let mut list = query.separated(", ");
            for id in ids {
                list.push_bind(id);
            }
            query.push(")");
            for row in query.build().fetch_all(&self.pool).await? {
                let sha: String = row.try_get("sha256")?;
                let pdq: Option<Vec<u8>> = row.try_get("pdq")?;
                let quality: Option<i64> = row.try_get("pdq_quality")?;
                let usable = quality.is_some_and(|q| q >= i64::from(PDQ_MIN_QUALITY));
                hashes
                    .entry(sha.clone())
                    .or_insert_with(|| pdq.as_deref().filter(|_| usable).and_then(to_hash));
                posts_by_file
                    .entry(sha)
                    .or_default()
                    .insert(row.try_get("post_id")?);
            }
        }
        let mut files: Vec<String> = posts_by_file.keys().cloned().collect();
        files.sort();
        let groups = super::groups::near_groups(&files, &hashes, max_distance);
        let mut shared: Vec<SharedPicture> = groups
            .into_iter()
            .filter_map(|members| {
                let posts: BTreeSet<&String> =
                    members.iter().flat_map(|sha| &posts_by_file[sha]).collect();
                if posts.len() < 2 {
                    return None;
                }
                let shown = members
                    .iter()
                    .max_by(|a, b| {
                        posts_by_file[*a]
                            .len()
                            .cmp(&posts_by_file[*b].len())
                            .then_with(|| b.cmp(a))
                    })
                    .cloned()?;
                Some(SharedPicture {
                    sha256: shown,
                    post_ids: posts.into_iter().cloned().collect(),
                    files: members,
                })
            })
            .collect();
        shared.sort_by(|a, b| {
            b.post_ids
                .len()
                .cmp(&a.post_ids.len())
                .then_with(|| a.sha256.cmp(&b.sha256))
        });
        shared.truncate(limit);
        Ok(shared)
    }

    /// The posts holding each of some files (as a picture or a video's poster), sorted.
    async fn posts_holding(&self, shas: &[String]) -> Result<HashMap<String, Vec<String>>> {
        let mut out: HashMap<String, BTreeSet<String>> = HashMap::new();
        for chunk in shas.chunks(BATCH) {
            for column in ["sha256", "poster_sha256"] {
                let mut query = QueryBuilder::<Sqlite>::new(format!(
                    "SELECT {column} AS sha, post_id FROM media_items WHERE {column} IN ("
                ));
                let mut list = query.separated(", ");
                for sha in chunk {
                    list.push_bind(sha);
                }
                query.push(")");
                for row in query.build().fetch_all(&self.pool).await? {
                    out.entry(row.try_get("sha")?)
                        .or_default()
                        .insert(row.try_get("post_id")?);
                }
            }
        }
        Ok(out
            .into_iter()
            .map(|(sha, posts)| (sha, posts.into_iter().collect()))
            .collect())
    }
}
