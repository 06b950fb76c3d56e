//! Co-link: the same expanded link ([`super::link_form`]) by two accounts within the window.
//! A repost's links are left out (they are the reposted post's).

use super::input::ScopePosts;
use super::window::Event;

/// Each post once under each of its links.
pub(super) fn events(posts: &ScopePosts) -> Vec<Event> {
    posts
        .posts
        .iter()
        .enumerate()
        .flat_map(|(i, p)| {
            p.links.iter().map(move |link| Event {
                key: *link,
                at_ms: p.at_ms,
                author: p.author,
                post: i as u32,
            })
        })
        .collect()
}
