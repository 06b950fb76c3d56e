//! A media file's hashes: SHA-256 of its bytes (its name, and the exact match), and for a
//! picture PDQ, Meta's 256-bit perceptual hash (the near match): two pictures whose hashes
//! differ in few bits look alike, through resizing, recompression and small crops. Pictures
//! are decoded by the `image` crate (JPEG and PNG) and hashed by `pdqhash`, the Rust port of
//! PDQ's reference.

use sha2::{Digest, Sha256};
use sightline_store::PDQ_BYTES;

/// The largest PDQ Hamming distance (of 256 bits) at which two pictures count as the same
/// picture ("near" copies): fewer than a quarter of the bits differ. Why not PDQ's usual 31:
/// PDQ survives resizing and recompression well but not cropping, and a copy cut by even 2-4%
/// (as reposts are) lies at 26 bits from its original at the median and up to 52 (6%: up to
/// 84). On this crate's 500-picture fixture (`tests/media_fixture.rs`: 100 originals, each
/// resized, recompressed, cropped 2-4% and 6%) every pair's distance gives: at 31, 55% of
/// same-picture pairs found; 56, 91%; 63, 96.4%; 70, 98.5%; and no pair of different pictures
/// at any of these (the closest such pair is 86 bits apart, the closest 0.1% from 102;
/// unrelated pictures sit near 128, half the bits). 63 is the smallest of those bounds that
/// finds at least 95% of copies, keeping 23 bits between it and the nearest unrelated pair; a
/// near match is shown with its distance, for a person to judge.
pub const NEAR_DISTANCE: u32 = 63;

/// Below this quality (0-100) PDQ's authors call a hash too weak to match on (a nearly flat
/// picture hashes to noise): such a picture matches only exactly, by SHA-256 (the store's
/// rule, [`sightline_store::PDQ_MIN_QUALITY`]).
pub const MIN_QUALITY: u8 = sightline_store::PDQ_MIN_QUALITY;

/// Pictures larger than this on a side are shrunk to it before hashing, as `pdqhash` does
/// (PDQ itself reduces every picture to 64 by 64 cells, so nothing it reads is lost).
const HASH_SIDE: u32 = 512;

/// PDQ's smallest picture side: below it no hash is made.
const MIN_SIDE: u32 = 5;

/// A picture's PDQ hash and its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pdq {
    /// The 256-bit hash.
    pub hash: [u8; PDQ_BYTES],
    /// PDQ's confidence, 0-100 (see [`MIN_QUALITY`]).
    pub quality: u8,
    /// Pixels across.
    pub width: u32,
    /// Pixels down.
    pub height: u32,
}

/// SHA-256 of `bytes`, lower-case hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// Lower-case hex of some bytes (a PDQ hash as written in files and across IPC).
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The PDQ hash of a picture's bytes (JPEG or PNG); `None` when they are no picture this
/// build decodes, or one too small to hash.
pub fn pdq(bytes: &[u8]) -> Option<Pdq> {
    let picture = image::ImageReader::new(std::io::Cursor::new(bytes))
        .with_guessed_format()
        .ok()?
        .decode()
        .ok()?;
    let (width, height) = (picture.width(), picture.height());
    if width < MIN_SIDE || height < MIN_SIDE {
        return None;
    }
    let picture = if width > HASH_SIDE || height > HASH_SIDE {
        picture.thumbnail_exact(width.min(HASH_SIDE), height.min(HASH_SIDE))
    } else {
        picture
    };
    let rgb = picture.to_rgb8();
    let (w, h) = rgb.dimensions();
    // pdqhash reads its own (older) `image` crate's buffer: the same RGB bytes, handed over.
    let buffer = pdqhash::image::RgbImage::from_raw(w, h, rgb.into_raw())?;
    let (hash, quality) =
        pdqhash::generate_pdq_full_size(&pdqhash::image::DynamicImage::ImageRgb8(buffer));
    Some(Pdq {
        hash,
        quality: (quality.clamp(0.0, 1.0) * 100.0).round() as u8,
        width,
        height,
    })
}

/// The number of bits in which two PDQ hashes differ (0-256).
pub fn hamming(a: &[u8; PDQ_BYTES], b: &[u8; PDQ_BYTES]) -> u32 {
    a.iter().zip(b).map(|(x, y)| (x ^ y).count_ones()).sum()
}

#[cfg(test)]
mod tests {
    use super::{hamming, pdq, sha256_hex};

    #[test]
    fn sha256_is_lower_case_hex_of_the_bytes() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn hamming_counts_differing_bits() {
        let mut a = [0u8; 32];
        let b = [0u8; 32];
        assert_eq!(hamming(&a, &b), 0);
        a[0] = 0b1011;
        a[31] = 0x80;
        assert_eq!(hamming(&a, &b), 4);
        assert_eq!(hamming(&[0xff; 32], &b), 256);
    }

    #[test]
    fn bytes_that_are_no_picture_have_no_pdq() {
        assert_eq!(pdq(b"not a picture"), None);
        assert_eq!(pdq(&[]), None);
    }
}
