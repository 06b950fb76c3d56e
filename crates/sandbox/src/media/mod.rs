//! The media the sandbox serves for its posts' pictures and videos, made on request from a
//! seed: no file is stored and nothing is drawn while the world is built.
//!
//! - `picture.rs`: pictures drawn from a seed, and their copies (resized, recompressed,
//!   cropped); [`picture`] is also a library function, so tests elsewhere can make many
//!   pictures and copies without HTTP;
//! - `video.rs` and `mp4.rs`: short videos (a few JPEG frames in an MP4) in three sizes, and
//!   their posters;
//! - `plan.rs`: which picture each post's media shows, which are copies of which, which links
//!   have gone; the tests' ground truth is `tests/fixtures/planted_media.json`;
//! - `serve.rs`: the routes, `/media/<key>.jpg|png` and `/video/<key>/<w>x<h>.mp4`, on the
//!   sandbox's own address, where the posts' links point (`render.rs`).

mod mp4;
mod picture;
mod plan;
pub(crate) mod serve;
mod video;

pub use mp4::jpeg_movie;
pub use picture::{copy_size, picture, picture_png, picture_size, Variant, ORIGINAL_QUALITY};
pub use plan::{family_picture, plan, Format, Plan, OLDER_FAMILIES, RECENT_FAMILIES, RECENT_MS};
pub use serve::{MediaHit, MediaLog};
pub use video::{poster, video, VideoSize, FRAME_MS, VIDEO_FRAMES, VIDEO_MS, VIDEO_SIZES};

/// The path of a photo, or of a video's poster, on the sandbox.
pub fn picture_path(file_key: &str, format: Format) -> String {
    format!("/media/{file_key}.{}", format.extension())
}

/// The path of one variant of a video on the sandbox.
pub fn video_path(file_key: &str, size: VideoSize) -> String {
    format!("/video/{file_key}/{}x{}.mp4", size.width, size.height)
}

#[cfg(test)]
mod tests;
