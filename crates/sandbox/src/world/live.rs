//! The live trickle: posts that keep arriving after the world's "now", so that asking again
//! later finds something new, as it would against the service.
//!
//! The k-th trickle post (k = 1, 2, …) is a pure function of the seed, the world's "now", the
//! rate and k: it is created at `now + k × interval` less a jitter of under half an interval,
//! so the times strictly increase, and its author, words and tags come from a generator seeded
//! with k. Which posts exist at a time t therefore never depends on when anyone asked.
//!
//! Trickle posts are originals (never replies, quotes or retweets), so no seeded post's counts
//! change; their own counts are fixed when they are made (no reposts, replies or quotes, a few
//! likes and views). Topics take turns, one post each in a seeded order, and every post carries
//! its topic's headline hashtag (`#AI`, `#ClimateAction`, …): at the default rate each of them
//! comes every 40 seconds. The posts are made ahead of the clock, a minute at a time, and indexed
//! as they are made; a request sees only those created at or before its "now".

use super::corpus::{self, TOPICS};
use super::{snowflake, Link, Media, MediaKind, Post, World};
use crate::fxhash::FxMap;
use crate::rng::{mix, url_safe_chars, Rng};
use std::sync::{Arc, OnceLock, RwLock};

/// Posts per minute when none is configured: each topic's headline hashtag every 40 s.
pub const DEFAULT_LIVE_RATE: u32 = 12;
/// The fastest trickle: one post every 10 ms.
pub const MAX_LIVE_RATE: u32 = 6_000;
/// The trickle stops after this many posts (at the default rate, about 11 days of clock), so
/// a clock moved far ahead cannot fill memory.
pub const MAX_LIVE_POSTS: u64 = 200_000;
/// How far ahead of a request's "now" posts are made, so the tail is rebuilt once a minute.
const AHEAD_MS: i64 = 60_000;

/// The trickle's schedule and what it draws from.
struct Trickle {
    seed: u64,
    start_ms: i64,
    interval_ms: i64,
    /// Users per topic (their main topic), to pick authors who write about it.
    authors: Vec<Vec<u32>>,
    /// Web pages per topic, for links.
    pages: Vec<Vec<u32>>,
    /// The order in which topics take turns.
    turns: Vec<u8>,
}

impl Trickle {
    fn new(world: &World, per_minute: u32) -> Trickle {
        let mut authors = vec![Vec::new(); TOPICS.len()];
        // The seeded accounts only: those the last days added keep to their own business.
        for (i, u) in world
            .users
            .iter()
            .take(super::generate::USER_COUNT)
            .enumerate()
        {
            authors[u.topic as usize].push(i as u32);
        }
        let mut pages = vec![Vec::new(); TOPICS.len()];
        for (i, p) in world.pages.iter().enumerate() {
            pages[p.topic as usize].push(i as u32);
        }
        let mut turns: Vec<u8> = (0..TOPICS.len() as u8).collect();
        let mut rng = Rng::derive(world.seed, 0x11FE);
        for i in (1..turns.len()).rev() {
            turns.swap(i, rng.below(i + 1));
        }
        Trickle {
            seed: world.seed,
            start_ms: world.now_ms,
            interval_ms: 60_000 / i64::from(per_minute.clamp(1, MAX_LIVE_RATE)),
            authors,
            pages,
            turns,
        }
    }

    /// When the k-th post (k ≥ 1) is created: after the world's "now", strictly increasing.
    fn time_of(&self, k: u64) -> i64 {
        let jitter =
            (mix(self.seed ^ mix(k ^ 0x7111)) % (self.interval_ms as u64 / 2).max(1)) as i64;
        self.start_ms + k as i64 * self.interval_ms - jitter
    }

    /// The k-th post, to be stored at `index`.
    fn post(&self, world: &World, k: u64, index: u32) -> Post {
        let created_ms = self.time_of(k);
        let mut rng = Rng::derive(self.seed ^ mix(k), 0x11FE_0057);
        let topic = self.turns[(k % self.turns.len() as u64) as usize] as usize;
        let t = &TOPICS[topic];
        let author = match self.authors[topic].as_slice() {
            [] => rng.below(world.users.len()) as u32,
            some => rng.pick(some),
        };
        let user = &world.users[author as usize];
        let lang = user.lang as usize;

        let mut text = String::new();
        if rng.chance(0.25) {
            text.push_str(rng.pick(corpus::OPENERS[lang]));
            text.push(' ');
        }
        let sentence = rng.pick(t.sentences[lang]);
        text.push_str(&sentence.replace("{n}", &(2 + rng.below(90)).to_string()));
        if rng.chance(0.2) {
            text.push(' ');
            text.push_str(rng.pick(corpus::CLOSERS[lang]));
        }
        let mut hashtags = vec![t.hashtags[0]];
        if rng.chance(0.4) {
            let other = if rng.chance(0.35) {
                rng.pick(t.local_hashtags[lang])
            } else {
                rng.pick(t.hashtags)
            };
            if !hashtags.contains(&other) {
                hashtags.push(other);
            }
        }
        for tag in &hashtags {
            text.push_str(&format!(" #{tag}"));
        }
        let mut symbols = Vec::new();
        if !t.symbols.is_empty() && rng.chance(0.08) {
            let s = rng.pick(t.symbols);
            symbols.push(s);
            text.push_str(&format!(" ${s}"));
        }
        if rng.chance(0.003) {
            text.push(' ');
            text.push_str(rng.pick(corpus::HOSTILE_SNIPPETS));
        }
        let mut links = Vec::new();
        if !self.pages[topic].is_empty() && rng.chance(0.1) {
            let short = format!("https://t.co/{}", url_safe_chars(&mut rng, 10));
            text.push(' ');
            text.push_str(&short);
            links.push(Link {
                short,
                page: rng.pick(&self.pages[topic]),
            });
        }
        let mut media = Vec::new();
        if rng.chance(0.15) {
            let short = format!("https://t.co/{}", url_safe_chars(&mut rng, 10));
            media.push(Media {
                kind: MediaKind::Photo,
                id: snowflake(created_ms - 2_000, 1, k),
                short: short.clone(),
                file_key: url_safe_chars(&mut rng, 15),
            });
            text.push(' ');
            text.push_str(&short);
        }
        let likes = rng.long_tail(3.0, 1.2, 2_000);
        Post {
            id: snowflake(created_ms, 0, k),
            author,
            created_ms,
            lower: text.to_lowercase().into(),
            text: text.into(),
            lang: lang as u8,
            topic: topic as u8,
            hashtags: hashtags.into(),
            symbols: symbols.into(),
            mentions: Box::default(),
            links: links.into(),
            media: media.into(),
            reply_to: None,
            quote_of: None,
            conversation: index,
            likes,
            retweets: 0,
            replies: 0,
            quotes: 0,
            bookmarks: likes / 10,
            views: likes * (20 + rng.below(60) as u64) + 5 + rng.below(200) as u64,
        }
    }
}

/// The trickle posts made so far, after the world's posts in time and in index (post `j` of the
/// tail has index `base + j`), with their indexes. Immutable: growing makes a new one.
#[derive(Clone, Default)]
pub struct Tail {
    /// The number of seeded posts: the index of the tail's first post.
    pub base: u32,
    pub posts: Vec<Post>,
    /// Each post's Tweet JSON, rendered on first use.
    pub(crate) json: Vec<OnceLock<Box<str>>>,
    pub(crate) by_id: FxMap<u64, u32>,
    pub(crate) tokens: FxMap<String, Vec<u32>>,
    pub(crate) hashtags: FxMap<String, Vec<u32>>,
    pub(crate) by_user: FxMap<u32, Vec<u32>>,
    /// Media file key → the post carrying it, for the media routes (`media/serve.rs`).
    pub(crate) by_media: FxMap<Box<str>, u32>,
    /// Every post created at or before this time is in the tail.
    made_until_ms: i64,
}

impl Tail {
    fn empty(world: &World) -> Tail {
        Tail {
            base: world.posts.len() as u32,
            made_until_ms: i64::MAX,
            ..Tail::default()
        }
    }

    /// How many of the tail's posts exist at `now_ms`.
    pub fn visible_at(&self, now_ms: i64) -> usize {
        self.posts.partition_point(|p| p.created_ms <= now_ms)
    }

    fn push(&mut self, post: Post) {
        let index = self.base + self.posts.len() as u32;
        for token in super::text::tokens(&post.lower) {
            if token.len() <= 40 {
                let list = self.tokens.entry(token).or_default();
                if list.last() != Some(&index) {
                    list.push(index);
                }
            }
        }
        for tag in &post.hashtags {
            let list = self.hashtags.entry(tag.to_lowercase()).or_default();
            if list.last() != Some(&index) {
                list.push(index);
            }
        }
        self.by_user.entry(post.author).or_default().push(index);
        for m in &post.media {
            self.by_media.insert(m.file_key.as_str().into(), index);
        }
        self.by_id.insert(post.id, index);
        self.posts.push(post);
        self.json.push(OnceLock::new());
    }
}

/// A sandbox's trickle: its schedule and the posts made so far.
pub struct Live {
    trickle: Option<Trickle>,
    tail: RwLock<Arc<Tail>>,
}

impl Live {
    /// A trickle of `per_minute` posts a minute (at most [`MAX_LIVE_RATE`]); 0 for none.
    pub fn new(world: &World, per_minute: u32) -> Live {
        let trickle = (per_minute > 0).then(|| Trickle::new(world, per_minute));
        let mut tail = Tail::empty(world);
        if trickle.is_some() {
            tail.made_until_ms = world.now_ms;
        }
        Live {
            trickle,
            tail: RwLock::new(Arc::new(tail)),
        }
    }

    /// The tail holding every trickle post created at or before `now_ms` (and maybe a few more:
    /// callers keep to `Tail::visible_at`).
    pub fn tail(&self, world: &World, now_ms: i64) -> Arc<Tail> {
        let current = self.tail.read().unwrap_or_else(|e| e.into_inner()).clone();
        let Some(trickle) = &self.trickle else {
            return current;
        };
        if current.made_until_ms >= now_ms || current.posts.len() as u64 >= MAX_LIVE_POSTS {
            return current;
        }
        let mut slot = self.tail.write().unwrap_or_else(|e| e.into_inner());
        if slot.made_until_ms < now_ms {
            let mut grown = Tail::clone(&slot);
            let until = now_ms.saturating_add(AHEAD_MS);
            let mut k = grown.posts.len() as u64 + 1;
            while k <= MAX_LIVE_POSTS && trickle.time_of(k) <= until {
                let index = grown.base + grown.posts.len() as u32;
                grown.push(trickle.post(world, k, index));
                k += 1;
            }
            grown.made_until_ms = until;
            *slot = Arc::new(grown);
        }
        slot.clone()
    }
}

/// The trickle posts created in `(from_ms, to_ms]` for this world and rate, made afresh: what a
/// sandbox started with `per_minute` serves as new between those times (for tests and checks).
pub fn posts_between(world: &World, per_minute: u32, from_ms: i64, to_ms: i64) -> Vec<Post> {
    let live = Live::new(world, per_minute);
    let tail = live.tail(world, to_ms);
    let end = tail.visible_at(to_ms);
    let start = tail.visible_at(from_ms);
    tail.posts[start.min(end)..end].to_vec()
}
