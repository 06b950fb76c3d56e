//! Co-post: the same normalised text ([`super::normalise`]) by two accounts within the window.
//! Reposts are left out (a repost is the same text by design).

use super::input::ScopePosts;
use super::window::Event;

/// Each post with a text left once normalised, under its text's key.
pub(super) fn events(posts: &ScopePosts) -> Vec<Event> {
    posts
        .posts
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            Some(Event {
                key: p.text_key?,
                at_ms: p.at_ms,
                author: p.author,
                post: i as u32,
            })
        })
        .collect()
}
