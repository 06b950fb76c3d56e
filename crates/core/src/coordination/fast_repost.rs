//! Fast repost: two accounts reposted the same post, each within so many seconds of it being
//! written. From reposts in timelines, whose reposted post is stored with its time (a
//! reposters list says who, not when).

use super::input::ScopePosts;
use super::window::Event;

/// Each repost made at most `fast_ms` after the post it reposts (`i64::MAX`: every repost
/// whose post's time is known), under that post's key.
pub(super) fn events(posts: &ScopePosts, fast_ms: i64) -> Vec<Event> {
    posts
        .posts
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            let (key, Some(original)) = p.repost_of? else {
                return None;
            };
            let delay = p.at_ms - original;
            (0..=fast_ms).contains(&delay).then_some(Event {
                key,
                at_ms: p.at_ms,
                author: p.author,
                post: i as u32,
            })
        })
        .collect()
}
