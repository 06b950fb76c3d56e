//! Co-reply: replies to the same post by two accounts within the window.

use super::input::ScopePosts;
use super::window::Event;

/// Each reply under the key of the post it answers.
pub(super) fn events(posts: &ScopePosts) -> Vec<Event> {
    posts
        .posts
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            Some(Event {
                key: p.reply_to?,
                at_ms: p.at_ms,
                author: p.author,
                post: i as u32,
            })
        })
        .collect()
}
