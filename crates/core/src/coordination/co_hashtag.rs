//! Co-hashtag: the same set of hashtags (folded, order and repeats aside) by two accounts
//! within the window. Reposts are left out.

use super::input::ScopePosts;
use super::window::Event;

/// Each post with a hashtag, under its set's key.
pub(super) fn events(posts: &ScopePosts) -> Vec<Event> {
    posts
        .posts
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            Some(Event {
                key: p.tags?,
                at_ms: p.at_ms,
                author: p.author,
                post: i as u32,
            })
        })
        .collect()
}
