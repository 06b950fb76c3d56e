//! Media kept (issue 32): the pictures and videos of archived posts, fetched by the app
//! itself, kept in the data folder by the SHA-256 of their bytes with a perceptual hash, and
//! matched across posts. What is known of each item (queued, kept, gone, failed) and of each
//! file is the store's (`sightline_store::MediaItemRecord`, `MediaFile`, migration 0018).
//!
//! * [`files`]: the content-addressed media folder (`media/<first two hex>/<sha256>`), each
//!   file written whole to a partial name then renamed, the same bytes kept once, a name
//!   made only from a SHA-256;
//! * [`hash`]: SHA-256, PDQ (the 256-bit perceptual hash of a picture, with its quality and
//!   size), the Hamming distance, and the near-match threshold
//!   ([`hash::NEAR_DISTANCE`], 63 of 256 bits, measured and explained beside it);
//! * [`plan`]: what to keep of a post, from its record: each picture, video and GIF, a video's
//!   MP4 variants best first and its poster; which addresses may be fetched (HTTPS, or plain
//!   HTTP on the service's own host) and why others are not;
//! * [`fetch`]: one file fetched with a plain client of its own (never the service's, never
//!   the key; no cookies, no referrer), streamed to a partial file, hashed as it comes and
//!   stopped at the size limit; kept, gone (404/410), too large or failed, in words;
//! * [`worker`]: the queue's worker: one item at a time with a gap, the best variant under the
//!   limit (stepping down), the file kept by content with its PDQ (a video's: its poster's),
//!   a doubling hold after failures, resumable across restarts, its progress told;
//! * [`queue`]: the media of posts filed in an investigation (and, with the setting on, of
//!   every archived post) queued as they are recorded (in the record's own transaction) or
//!   filed: one insert-or-ignore an item; "Retry failed";
//! * [`backfill`]: the setting turned on later: the posts already archived queued a page at a
//!   time, each page its own short transaction with the place reached, stoppable, resumed;
//! * [`matches`]: "Same picture elsewhere": the posts holding the same file or a near copy,
//!   each with its author, time and text's start, and how it relates in words;
//! * [`serve`]: a kept file answered to the window's `sightline-media` protocol by its SHA-256
//!   (404 for any other name), with the type stored for it and ranges for video.

pub mod backfill;
pub mod fetch;
pub mod files;
pub mod hash;
mod keep;
pub mod matches;
pub mod plan;
pub mod queue;
pub mod serve;
pub mod worker;
