//! What each of the world's media is: which picture it shows, in which copy and format, and
//! whether its link has gone. A pure function of the world's seed, the media's file key and
//! how old its post is, so a post's links and the files served for them always agree, and
//! nothing is stored or drawn while the world is built.
//!
//! Pictures travel: a share of photos are copies of a few "family" pictures, posted again as
//! the same bytes or resized, recompressed or slightly cropped. In the last two weeks a third
//! of photos are copies of six families (so a search of recent pictures meets each several
//! times); before that, one in twenty is a copy of one of 24 others. A few links of every kind
//! have gone (404 or 410). Nothing in a post or a served file tells which is which: the tests'
//! ground truth is `tests/fixtures/planted_media.json`, which a unit test keeps in step.

use super::Variant;
use crate::rng::{fnv1a, mix, Rng};
use crate::world::{Media, MediaKind, DAY_MS};

/// How recent a post must be for its photos to be copies of the recent families.
pub const RECENT_MS: i64 = 14 * DAY_MS;
/// Families of pictures copied in the last two weeks, and before.
pub const RECENT_FAMILIES: u32 = 6;
pub const OLDER_FAMILIES: u32 = 24;
/// Chances that a photo is a copy of a family picture: recent, and older.
const RECENT_COPY: f64 = 0.35;
const OLDER_COPY: f64 = 0.05;
/// Per thousand media: links answering 404, then 410.
const GONE_404: usize = 20;
const GONE_410: usize = 10;
/// Per thousand photos that are not copies: saved as PNG (screenshots, graphics).
const PNG: usize = 100;

/// How a picture is encoded at its link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Jpeg,
    Png,
}

impl Format {
    pub fn extension(self) -> &'static str {
        match self {
            Format::Jpeg => "jpg",
            Format::Png => "png",
        }
    }
    pub fn content_type(self) -> &'static str {
        match self {
            Format::Jpeg => "image/jpeg",
            Format::Png => "image/png",
        }
    }
}

/// What one media item of a post is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Plan {
    pub kind: MediaKind,
    /// The seed of its picture (a video's scene).
    pub picture: u64,
    /// Which copy of the picture (always `Original` for a video).
    pub variant: Variant,
    /// The format of the photo, or of the video's poster (JPEG).
    pub format: Format,
    /// The family picture it copies, if any.
    pub family: Option<u32>,
    /// The status its links answer when they have gone (404 or 410).
    pub gone: Option<u16>,
}

/// The plan of `media`, posted at `created_ms` in the world of `world_seed` generated for
/// `world_now_ms`.
pub fn plan(world_seed: u64, world_now_ms: i64, created_ms: i64, media: &Media) -> Plan {
    let mut rng = Rng::derive(world_seed ^ fnv1a(media.file_key.as_bytes()), 0x3ED1A);
    let gone = match rng.below(1000) {
        n if n < GONE_404 => Some(404),
        n if n < GONE_404 + GONE_410 => Some(410),
        _ => None,
    };
    let own = Plan {
        kind: media.kind,
        picture: rng.next_u64(),
        variant: Variant::Original,
        format: Format::Jpeg,
        family: None,
        gone,
    };
    if media.kind == MediaKind::Video || gone.is_some() {
        return own;
    }
    let recent = world_now_ms - created_ms < RECENT_MS;
    let (chance, first, count) = if recent {
        (RECENT_COPY, 0, RECENT_FAMILIES)
    } else {
        (OLDER_COPY, RECENT_FAMILIES, OLDER_FAMILIES)
    };
    if !rng.chance(chance) {
        let format = if rng.below(1000) < PNG {
            Format::Png
        } else {
            Format::Jpeg
        };
        return Plan { format, ..own };
    }
    let family = first + rng.below(count as usize) as u32;
    Plan {
        picture: family_picture(world_seed, family),
        variant: copy_variant(&mut rng),
        family: Some(family),
        ..own
    }
}

/// The seed of family `family`'s picture.
pub fn family_picture(world_seed: u64, family: u32) -> u64 {
    mix(world_seed ^ mix(0xFA_3171 + u64::from(family)))
}

/// How a copy differs from its family's picture: the same bytes (three in ten), resized,
/// recompressed at a lower quality, or with 6% of each side's length cut off.
fn copy_variant(rng: &mut Rng) -> Variant {
    match rng.below(20) {
        0..=5 => Variant::Original,
        6..=8 => Variant::Resized(0.5),
        9..=10 => Variant::Resized(0.75),
        11..=13 => Variant::Recompressed(50),
        14..=15 => Variant::Recompressed(30),
        _ => Variant::Cropped(6),
    }
}
