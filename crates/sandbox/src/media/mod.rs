//! The media the sandbox serves for its posts' pictures and videos, made on request from a
//! seed: no file is stored and nothing is drawn while the world is built.
//!
//! [`picture`] is also a library function, so tests elsewhere can make many pictures and their
//! copies (resized, recompressed, cropped) without HTTP.

mod picture;

pub use picture::{picture, picture_png, picture_size, Variant, ORIGINAL_QUALITY};

#[cfg(test)]
mod tests;
