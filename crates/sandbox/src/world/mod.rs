//! The synthetic world: users, posts, retweets and web pages, generated deterministically from
//! a seed and a "now", with the indexes the operations need.

mod campaigns;
pub mod corpus;
mod generate;
pub mod live;
pub mod text;
pub mod web;

use crate::fxhash::FxMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

pub use web::{Page, PageKind};

/// One day in milliseconds.
pub const DAY_MS: i64 = 86_400_000;

#[derive(Debug, Clone)]
pub struct User {
    pub id: u64,
    pub username: String,
    pub name: String,
    pub lang: u8,
    pub country: u8,
    pub location: &'static str,
    pub description: String,
    pub created_at_ms: i64,
    pub followers: u64,
    pub followings: u64,
    pub favourites: u64,
    pub listed: u64,
    pub media_count: u64,
    pub statuses: u64,
    pub verified: bool,
    pub blue_verified: bool,
    pub can_dm: bool,
    pub professional: Option<&'static str>,
    pub topic: u8,
    pub pinned: Option<u32>,
    pub image_key: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MediaKind {
    Photo,
    Video,
}

impl MediaKind {
    pub fn as_str(self) -> &'static str {
        match self {
            MediaKind::Photo => "photo",
            MediaKind::Video => "video",
        }
    }
}

#[derive(Debug, Clone)]
pub struct Media {
    pub kind: MediaKind,
    pub id: u64,
    /// Short `t.co` link appended to the text, as X does.
    pub short: String,
    pub file_key: String,
}

/// A link in a post: the short `t.co` form in the text and the page it expands to.
#[derive(Debug, Clone)]
pub struct Link {
    pub short: String,
    pub page: u32,
}

#[derive(Debug, Clone)]
pub struct Post {
    pub id: u64,
    pub author: u32,
    pub created_ms: i64,
    // Boxed strings and slices, not `String` and `Vec`: a post never grows once made, and the
    // demo holds 60,000 of them in the app, so the room kept for growth is memory spent.
    pub text: Box<str>,
    /// Lower-cased text for matching phrases.
    pub lower: Box<str>,
    pub lang: u8,
    pub topic: u8,
    pub hashtags: Box<[&'static str]>,
    pub symbols: Box<[&'static str]>,
    pub mentions: Box<[u32]>,
    pub links: Box<[Link]>,
    pub media: Box<[Media]>,
    pub reply_to: Option<u32>,
    pub quote_of: Option<u32>,
    /// Index of the root post of the thread.
    pub conversation: u32,
    pub likes: u64,
    pub retweets: u64,
    pub replies: u64,
    pub quotes: u64,
    pub bookmarks: u64,
    pub views: u64,
}

impl Post {
    /// Engagement score used by the "Top" sort and by AI relevance.
    pub fn engagement(&self) -> u64 {
        self.likes + 2 * self.retweets + self.replies + 3 * self.quotes
    }
    pub fn has_photo(&self) -> bool {
        self.media.iter().any(|m| m.kind == MediaKind::Photo)
    }
    pub fn has_video(&self) -> bool {
        self.media.iter().any(|m| m.kind == MediaKind::Video)
    }
}

#[derive(Debug, Clone)]
pub struct Retweet {
    pub id: u64,
    pub user: u32,
    pub post: u32,
    pub created_ms: i64,
}

/// An entry of a user's timeline: their own post or a retweet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimelineEntry {
    Post(u32),
    Retweet(u32),
}

/// Everything generated, plus the indexes. Immutable once built; shared by all requests.
pub struct World {
    pub seed: u64,
    /// The "now" the world was generated for (ms since the epoch).
    pub now_ms: i64,
    /// When it was generated, to run its clock on.
    pub created: Instant,
    pub users: Vec<User>,
    /// Sorted by creation time, oldest first: index order is time order.
    pub posts: Vec<Post>,
    pub retweets: Vec<Retweet>,
    pub pages: Vec<Page>,
    pub user_by_name: FxMap<String, u32>,
    pub post_by_id: FxMap<u64, u32>,
    pub page_by_link: FxMap<String, u32>,
    /// Word token → posts containing it (ascending index).
    pub token_index: FxMap<String, Vec<u32>>,
    /// Lower-case hashtag → posts carrying it (ascending index).
    pub hashtag_index: FxMap<String, Vec<u32>>,
    /// Posts by author (ascending index).
    pub posts_by_user: Vec<Vec<u32>>,
    /// Timeline per user, newest first.
    pub timelines: Vec<Vec<TimelineEntry>>,
    /// Direct replies per post (ascending index).
    pub children: Vec<Vec<u32>>,
    /// Retweet indices per post, oldest first.
    pub retweets_of: Vec<Vec<u32>>,
}

impl World {
    /// Builds the world for `seed`, with every timestamp in the two years before `now_ms`.
    pub fn generate(seed: u64, now_ms: i64) -> World {
        generate::build(seed, now_ms)
    }

    /// The world for `seed`, shared between sandboxes: tests start many sandboxes, and
    /// generating once saves seconds in debug builds. With a fixed `now_ms` only a world of that
    /// exact "now" is reused; otherwise any world of the seed generated in the last ten minutes
    /// (its clock runs on from its generation, see `clock_ms`). Running sandboxes share through
    /// `Weak` references; the most recent world is also kept, so that sandboxes started one after
    /// another (sequential tests) do not each generate their own.
    pub fn shared(seed: u64, fixed_now_ms: Option<i64>) -> Arc<World> {
        type Entry = (u64, Option<i64>, Weak<World>);
        static CACHE: Mutex<Vec<Entry>> = Mutex::new(Vec::new());
        static RECENT: Mutex<Option<Arc<World>>> = Mutex::new(None);
        const REUSE_FOR: Duration = Duration::from_secs(600);

        let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        cache.retain(|(_, _, w)| w.strong_count() > 0);
        let found = cache
            .iter()
            .filter(|(s, fixed, _)| *s == seed && *fixed == fixed_now_ms)
            .filter_map(|(_, _, w)| w.upgrade())
            .find(|w| fixed_now_ms.is_some() || w.created.elapsed() < REUSE_FOR);
        let world = match found {
            Some(w) => w,
            None => {
                let now = fixed_now_ms.unwrap_or_else(|| chrono::Utc::now().timestamp_millis());
                let w = Arc::new(World::generate(seed, now));
                cache.push((seed, fixed_now_ms, Arc::downgrade(&w)));
                w
            }
        };
        *RECENT.lock().unwrap_or_else(|e| e.into_inner()) = Some(world.clone());
        world
    }

    /// The world's clock (ms): its "now" plus the time since it was generated.
    pub fn clock_ms(&self) -> i64 {
        self.now_ms + self.created.elapsed().as_millis() as i64
    }

    pub fn user_named(&self, username: &str) -> Option<u32> {
        let key = username.trim().trim_start_matches('@').to_lowercase();
        self.user_by_name.get(&key).copied()
    }

    pub fn post_with_id(&self, id: &str) -> Option<u32> {
        id.trim()
            .parse::<u64>()
            .ok()
            .and_then(|n| self.post_by_id.get(&n).copied())
    }

    /// Word token posting list (empty when the word never occurs).
    pub fn posts_with_token(&self, token: &str) -> &[u32] {
        self.token_index.get(token).map_or(&[], Vec::as_slice)
    }

    pub fn posts_with_hashtag(&self, tag: &str) -> &[u32] {
        self.hashtag_index
            .get(&tag.to_lowercase())
            .map_or(&[], Vec::as_slice)
    }

    /// First post index created at or after `ms` (posts are in time order).
    pub fn first_post_at_or_after(&self, ms: i64) -> usize {
        self.posts.partition_point(|p| p.created_ms < ms)
    }
}

/// Twitter's snowflake epoch (ms). Ids encode their creation time like real ones.
const SNOWFLAKE_EPOCH_MS: i64 = 1_288_834_974_657;

/// A snowflake id for time `ms`, unique for distinct `(stream, n)` pairs.
pub fn snowflake(ms: i64, stream: u64, n: u64) -> u64 {
    let t = (ms - SNOWFLAKE_EPOCH_MS).max(0) as u64;
    let worker = ((stream & 1) << 9) | ((n >> 12) & 0x1FF);
    (t << 22) | (worker << 12) | (n & 0xFFF)
}
