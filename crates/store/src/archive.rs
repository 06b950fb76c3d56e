//! The archive: every post, user and web/link result ever fetched, deduplicated, with the raw
//! JSON as received (so a re-opened item renders exactly as fetched) and a full-text index over
//! posts. It is the app's offline memory.
//!
//! * `archive/types.rs`: what goes in ([`NewPost`], [`NewUser`], [`NewLink`]), what comes out
//!   ([`StoredPost`], [`StoredUser`], [`StoredLink`]) and the queries;
//! * `archive/write.rs`: upserts and sightings, inside a request's transaction (called by
//!   [`crate::record`]) or for an import ([`Store::archive_posts`](crate::Store::archive_posts));
//! * `archive/read.rs`: post search and counts, the relevance window ([`ranked_matches`]),
//!   one post and the requests that found it, users and links.

pub(crate) mod read;
mod types;
mod write;

pub use read::{ranked_matches, RELEVANCE_WINDOW};
pub use types::{
    ArchiveMark, LinkQuery, LinkSource, NewLink, NewPost, NewUser, PostQuery, PostSort, StoredLink,
    StoredPost, StoredUser, UserQuery,
};
pub(crate) use write::{
    push_post_values, write_links, write_posts, write_users, POST_CHUNK, POST_COLUMNS_IN,
};

#[cfg(test)]
mod tests;
