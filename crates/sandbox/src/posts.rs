//! The posts one request can see: the world's, then the trickle's created at or before the
//! request's "now" (`world/live.rs`). Indices run on from the world's into the trickle's, so
//! index order stays time order and every list below is ascending.

use crate::render::TweetCache;
use crate::world::live::Tail;
use crate::world::{Post, Retweet, TimelineEntry, World};
use std::borrow::Cow;

#[derive(Clone, Copy)]
pub struct Posts<'a> {
    pub world: &'a World,
    tail: &'a Tail,
    tweets: &'a TweetCache,
    /// One past the last visible index.
    end: u32,
}

impl<'a> Posts<'a> {
    pub fn new(world: &'a World, tail: &'a Tail, tweets: &'a TweetCache, now_ms: i64) -> Self {
        Posts {
            world,
            tail,
            tweets,
            end: tail.base + tail.visible_at(now_ms) as u32,
        }
    }

    /// One past the last visible index: the number of posts that exist now.
    pub fn end(&self) -> u32 {
        self.end
    }

    pub fn get(&self, index: u32) -> &'a Post {
        match index.checked_sub(self.tail.base) {
            None => &self.world.posts[index as usize],
            Some(j) => &self.tail.posts[j as usize],
        }
    }

    fn is_seeded(&self, index: u32) -> bool {
        index < self.tail.base
    }

    /// The visible part of a trickle index list.
    fn visible(&self, list: Option<&'a Vec<u32>>) -> &'a [u32] {
        let list = list.map_or(&[][..], Vec::as_slice);
        &list[..list.partition_point(|&i| i < self.end)]
    }

    /// A seeded list followed by its visible trickle part; borrowed while the trickle adds none.
    fn joined(&self, seeded: &'a [u32], live: &'a [u32]) -> Cow<'a, [u32]> {
        if live.is_empty() {
            Cow::Borrowed(seeded)
        } else {
            Cow::Owned([seeded, live].concat())
        }
    }

    /// Posts containing a word token (ascending).
    pub fn with_token(&self, token: &str) -> Cow<'a, [u32]> {
        let live = self.visible(self.tail.tokens.get(token));
        self.joined(self.world.posts_with_token(token), live)
    }

    /// Whether post `index` contains the word token (no list is built).
    pub fn has_token(&self, index: u32, token: &str) -> bool {
        let list = if self.is_seeded(index) {
            self.world.posts_with_token(token)
        } else {
            self.tail.tokens.get(token).map_or(&[][..], Vec::as_slice)
        };
        list.binary_search(&index).is_ok()
    }

    /// Posts carrying a hashtag, any case (ascending).
    pub fn with_hashtag(&self, tag: &str) -> Cow<'a, [u32]> {
        let live = self.visible(self.tail.hashtags.get(&tag.to_lowercase()));
        self.joined(self.world.posts_with_hashtag(tag), live)
    }

    /// A user's own posts (ascending).
    pub fn by_user(&self, user: u32) -> Cow<'a, [u32]> {
        let live = self.visible(self.tail.by_user.get(&user));
        self.joined(&self.world.posts_by_user[user as usize], live)
    }

    /// A user's timeline, newest first: their trickle posts below index `upto`, then the
    /// world's timeline (own posts and retweets).
    pub fn timeline(&self, user: u32, upto: u32) -> Vec<TimelineEntry> {
        let live = self.visible(self.tail.by_user.get(&user));
        let live = &live[..live.partition_point(|&i| i < upto)];
        live.iter()
            .rev()
            .map(|&i| TimelineEntry::Post(i))
            .chain(self.world.timelines[user as usize].iter().copied())
            .collect()
    }

    /// Direct replies to a post (trickle posts have none).
    pub fn children(&self, index: u32) -> &'a [u32] {
        if self.is_seeded(index) {
            &self.world.children[index as usize]
        } else {
            &[]
        }
    }

    /// A post's retweets (trickle posts have none).
    pub fn retweets_of(&self, index: u32) -> &'a [u32] {
        if self.is_seeded(index) {
            &self.world.retweets_of[index as usize]
        } else {
            &[]
        }
    }

    /// The visible post with this id.
    pub fn with_id(&self, id: &str) -> Option<u32> {
        let id = id.trim().parse::<u64>().ok()?;
        match self.world.post_by_id.get(&id) {
            Some(&i) => Some(i),
            None => self.tail.by_id.get(&id).copied().filter(|&i| i < self.end),
        }
    }

    /// First index created at or after `ms` (the end when none is).
    pub fn first_at_or_after(&self, ms: i64) -> u32 {
        let seeded = self.world.first_post_at_or_after(ms) as u32;
        if seeded < self.tail.base {
            return seeded;
        }
        let visible = &self.tail.posts[..(self.end - self.tail.base) as usize];
        self.tail.base + visible.partition_point(|p| p.created_ms < ms) as u32
    }

    /// A post as a Tweet record, its quote nested.
    pub fn record(&self, index: u32) -> crate::render::TweetJson<'a> {
        crate::render::tweet_record(self.world, self.media_base(), self.get(index), true)
    }

    /// A retweet as it appears in a timeline.
    pub fn retweet(&self, r: &Retweet) -> crate::render::TweetJson<'a> {
        crate::render::retweet(self.world, self.media_base(), r)
    }

    /// Where the records' media links point: this sandbox's address.
    pub fn media_base(&self) -> &'a str {
        self.tweets.media_base()
    }

    /// The JSON of a post's Tweet record, rendered once.
    pub fn json(&self, index: u32) -> &'a str {
        match index.checked_sub(self.tail.base) {
            None => self.tweets.get(self.world, index),
            Some(j) => self.tail.json[j as usize].get_or_init(|| {
                serde_json::to_string(&self.record(index))
                    .expect("records serialise")
                    .into_boxed_str()
            }),
        }
    }

    /// A JSON array of the given posts' Tweet records.
    pub fn array(&self, indices: &[u32]) -> String {
        let mut out = String::with_capacity(indices.len() * 3_000 + 2);
        out.push('[');
        for (n, &i) in indices.iter().enumerate() {
            if n > 0 {
                out.push(',');
            }
            out.push_str(self.json(i));
        }
        out.push(']');
        out
    }
}
