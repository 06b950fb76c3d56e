//! "Same picture elsewhere": the posts holding the very same file (SHA-256) or a near copy of
//! it (PDQ within [`NEAR_DISTANCE`] bits of 256), found by the store's matcher, each post
//! with its author, time and the start of its text, and in words how its picture relates to
//! the one asked about ("the same file", "a near copy (distance 12 of 256)"). The analysis's
//! most-shared pictures list their posts the same way ([`posts_holding`]).

use std::cmp::Ordering;
use std::collections::{BTreeSet, HashMap};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sightline_store::{MediaFile, MediaItemRecord, MediaKind, MediaState, Store, PDQ_BYTES};
use ts_rs::TS;

use super::hash::{hamming, MIN_QUALITY, NEAR_DISTANCE};
use crate::errors::CommandError;

/// Characters of a post's text shown beside its picture.
pub const SNIPPET_CHARS: usize = 160;

/// How a post's picture relates to the one asked about.
#[derive(Serialize, Deserialize, TS, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum MatchRelation {
    /// The very same bytes (the same SHA-256).
    SameFile,
    /// Another file whose PDQ hash is within the near-match bound.
    NearCopy,
}

/// A matching post as the list shows it: who wrote it, when, and how its text starts.
#[derive(Serialize, TS, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct MatchedPost {
    /// The author's handle, without `@`.
    pub author_username: String,
    /// The author's display name.
    pub author_name: String,
    /// When the post was written.
    pub created_at: DateTime<Utc>,
    /// Its text's start, at most [`SNIPPET_CHARS`] characters, white space run together;
    /// ends in `…` when cut.
    pub snippet: String,
}

/// One post holding the picture, or a near copy of it.
#[derive(Serialize, TS, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct PictureMatch {
    /// The service's post id: what opens the post.
    pub post_id: String,
    /// The post as stored; `None` when the archive does not hold it (its media were queued
    /// with it, so this is rare).
    pub post: Option<MatchedPost>,
    /// Which of the post's media it is, from 0.
    pub position: i64,
    /// Picture, video (matched by its poster) or animated GIF.
    pub kind: MediaKind,
    /// The post's picture file (a video's poster): what its thumbnail shows.
    pub sha256: String,
    /// That file's type (`image/jpeg`; a video's when it has no still kept).
    pub content_type: String,
    /// The same file, or a near copy.
    pub relation: MatchRelation,
    /// Bits of the 256 in which the PDQ hashes differ (0 for the same file).
    pub distance: u32,
    /// The relation in words: "the same file", "a near copy (distance 12 of 256)".
    pub words: String,
}

/// What "Same picture elsewhere" found for one kept picture.
#[derive(Serialize, TS, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct SamePicture {
    /// The picture asked about.
    pub file: MediaFile,
    /// The near-match bound used: at most this many bits of 256 differ.
    pub near_distance: u32,
    /// Whether the picture has a PDQ hash good enough to match on (quality at least
    /// [`MIN_QUALITY`]), so near copies were looked for.
    pub near_searched: bool,
    /// One line per other post: the same file first (newest post first), then near copies,
    /// closest first (then newest first).
    pub matches: Vec<PictureMatch>,
}

/// The relation in words.
pub fn relation_words(relation: MatchRelation, distance: u32) -> String {
    match relation {
        MatchRelation::SameFile => "the same file".to_owned(),
        MatchRelation::NearCopy => format!("a near copy (distance {distance} of 256)"),
    }
}

fn is_sha256(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// The posts other than `except_post` holding the kept picture `sha256` (lower-case hex) or a
/// near copy of it.
pub async fn same_picture(
    store: &Store,
    sha256: &str,
    except_post: Option<&str>,
) -> Result<SamePicture, CommandError> {
    let sha256 = sha256.trim().to_ascii_lowercase();
    if !is_sha256(&sha256) {
        return Err(CommandError::Invalid {
            message: "This is not the SHA-256 of a kept file (64 hexadecimal characters).".into(),
            fields: Vec::new(),
        });
    }
    let found = store.media_matches(&sha256, NEAR_DISTANCE).await?;
    let Some(file) = found.file else {
        return Err(CommandError::NotFound {
            message: "This picture is not kept in the archive, so there is nothing to compare \
                      it with."
                .into(),
        });
    };
    let mut files = vec![file.clone()];
    let mut post_ids: BTreeSet<String> = found.exact_post_ids.into_iter().collect();
    for near in found.near {
        post_ids.extend(near.post_ids);
        files.push(near.file);
    }
    if let Some(except) = except_post {
        post_ids.remove(except);
    }
    let post_ids: Vec<String> = post_ids.into_iter().collect();
    let matches = posts_holding(store, &file, &files, &post_ids).await?;
    Ok(SamePicture {
        near_searched: file.pdq.is_some()
            && file
                .pdq_quality
                .is_some_and(|q| q >= i64::from(MIN_QUALITY)),
        file,
        near_distance: NEAR_DISTANCE,
        matches,
    })
}

/// Each of `post_ids` with its picture among `files` (the closest to `shown` when it holds
/// several), ordered as [`SamePicture::matches`]. A post holding none of them is left out.
pub async fn posts_holding(
    store: &Store,
    shown: &MediaFile,
    files: &[MediaFile],
    post_ids: &[String],
) -> Result<Vec<PictureMatch>, CommandError> {
    let by_sha: HashMap<&str, &MediaFile> = files.iter().map(|f| (f.sha256.as_str(), f)).collect();
    let mut best: HashMap<String, PictureMatch> = HashMap::new();
    for item in store.media_for_posts(post_ids).await? {
        let Some((file, relation, distance)) = relate(shown, &by_sha, &item) else {
            continue;
        };
        let candidate = PictureMatch {
            post_id: item.post_id.clone(),
            post: None,
            position: item.position,
            kind: item.kind,
            sha256: file.sha256.clone(),
            content_type: file.content_type.clone(),
            relation,
            distance,
            words: relation_words(relation, distance),
        };
        let closer = best.get(&item.post_id).is_none_or(|held| {
            (candidate.relation, candidate.distance, candidate.position)
                < (held.relation, held.distance, held.position)
        });
        if closer {
            best.insert(item.post_id, candidate);
        }
    }
    let mut matches: Vec<PictureMatch> = Vec::with_capacity(best.len());
    for (_, mut found) in best {
        found.post = store.post(&found.post_id).await?.map(|post| MatchedPost {
            author_username: post.author_username,
            author_name: post.author_name,
            created_at: post.created_at,
            snippet: snippet(&post.text),
        });
        matches.push(found);
    }
    matches.sort_by(order);
    Ok(matches)
}

/// The item's kept picture among `files` (its own file, else a video's poster), with how it
/// relates to `shown`.
fn relate<'a>(
    shown: &MediaFile,
    files: &HashMap<&str, &'a MediaFile>,
    item: &MediaItemRecord,
) -> Option<(&'a MediaFile, MatchRelation, u32)> {
    if item.state != MediaState::Kept {
        return None;
    }
    let file = [item.file.as_ref(), item.poster.as_ref()]
        .into_iter()
        .flatten()
        .find_map(|f| files.get(f.sha256.as_str()).copied())?;
    if file.sha256 == shown.sha256 {
        return Some((file, MatchRelation::SameFile, 0));
    }
    let distance = pdq_distance(shown.pdq.as_deref()?, file.pdq.as_deref()?)?;
    Some((file, MatchRelation::NearCopy, distance))
}

/// Bits in which two PDQ hashes, as written in hex (64 characters each), differ.
pub fn pdq_distance(a: &str, b: &str) -> Option<u32> {
    Some(hamming(&pdq_bytes(a)?, &pdq_bytes(b)?))
}

fn pdq_bytes(text: &str) -> Option<[u8; PDQ_BYTES]> {
    if text.len() != 2 * PDQ_BYTES || !text.is_ascii() {
        return None;
    }
    let mut bytes = [0u8; PDQ_BYTES];
    for (byte, pair) in bytes.iter_mut().zip(text.as_bytes().chunks(2)) {
        *byte = u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok()?;
    }
    Some(bytes)
}

/// Same file first, then the closest; within each, the newest post first (an unstored post
/// last), then by post id.
fn order(a: &PictureMatch, b: &PictureMatch) -> Ordering {
    let at = |m: &PictureMatch| m.post.as_ref().map(|p| p.created_at);
    (a.relation, a.distance)
        .cmp(&(b.relation, b.distance))
        .then_with(|| at(b).cmp(&at(a)))
        .then_with(|| a.post_id.cmp(&b.post_id))
}

/// The start of a post's text: white space run together, at most [`SNIPPET_CHARS`]
/// characters, `…` when cut.
pub fn snippet(text: &str) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= SNIPPET_CHARS {
        return flat;
    }
    let mut cut: String = flat.chars().take(SNIPPET_CHARS - 1).collect();
    cut.truncate(cut.trim_end().len());
    cut.push('…');
    cut
}
