//! Short videos: a seed's scene with its shapes moving, a few frames long, in the sizes and
//! bitrates a post's `video_info` offers, and the poster shown before it plays.

use super::mp4::jpeg_movie;
use super::picture::{jpeg, Scene, ORIGINAL_QUALITY};

/// One variant of a video, as offered in `video_info.variants`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VideoSize {
    pub width: u16,
    pub height: u16,
    /// The nominal bitrate listed beside it (bits per second); larger sizes list more.
    pub bitrate: u32,
}

/// The variants of every video, smallest first (16:9, as X offers them).
pub const VIDEO_SIZES: [VideoSize; 3] = [
    VideoSize {
        width: 320,
        height: 180,
        bitrate: 256_000,
    },
    VideoSize {
        width: 480,
        height: 270,
        bitrate: 832_000,
    },
    VideoSize {
        width: 640,
        height: 360,
        bitrate: 2_176_000,
    },
];

/// Frames in a video, and how long each is shown.
pub const VIDEO_FRAMES: u32 = 4;
pub const FRAME_MS: u32 = 500;
/// A video's length in milliseconds.
pub const VIDEO_MS: u32 = VIDEO_FRAMES * FRAME_MS;
/// JPEG quality of a video's frames (lower than a photo's, as video is).
const FRAME_QUALITY: u8 = 70;

/// The MP4 bytes of `seed`'s video at `size`: the same bytes on every run.
pub fn video(seed: u64, size: VideoSize) -> Vec<u8> {
    let scene = Scene::new(seed);
    let frames: Vec<Vec<u8>> = (0..VIDEO_FRAMES)
        .map(|i| {
            let t = i as f32 / VIDEO_FRAMES as f32;
            let img = scene.draw(u32::from(size.width), u32::from(size.height), t);
            jpeg(&img, FRAME_QUALITY)
        })
        .collect();
    jpeg_movie(&frames, size.width, size.height, FRAME_MS)
}

/// The JPEG poster of `seed`'s video: its first frame at the largest size.
pub fn poster(seed: u64) -> Vec<u8> {
    let largest = VIDEO_SIZES[VIDEO_SIZES.len() - 1];
    let img = Scene::new(seed).draw(u32::from(largest.width), u32::from(largest.height), 0.0);
    jpeg(&img, ORIGINAL_QUALITY)
}
